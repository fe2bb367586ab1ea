#!/usr/bin/env python3
"""Misbehaving peers for tests/net.sh (loopback only, bounded in time).

  net_peer.py PORTFILE BEHAVIOUR [ARG]   serve on 127.0.0.1, port written to PORTFILE
  net_peer.py --connect PORT BEHAVIOUR   act as a client of `iostrat net --listen`

Server behaviours: hold (listen, never accept), stuck (accept, never read),
close-after N (ack the hello, read N bytes, close), bad-trailer (take every
message, report a wrong checksum), bad-reply (ping-pong with a wrong byte).
Client behaviours: close-early (announce 5 messages, send 3, close),
silent (connect, send nothing), junk (not the iostrat protocol),
extra (send one message more than announced).
"""
import os
import socket
import struct
import sys
import time

LIFETIME = 20  # seconds: a peer never outlives a test


def recv_exact(s, n):
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf


def frame(payload):
    return struct.pack(">I", len(payload)) + payload


def read_frame(s):
    (n,) = struct.unpack(">I", recv_exact(s, 4))
    return recv_exact(s, n)


def read_hello(s):
    h = read_frame(s)
    magic, ver, kind, size, count = struct.unpack(">4sIIIQ", h)
    assert magic == b"IOSN"
    return kind, size, count


def trailer(msgs, nbytes, rx_hash, tx_hash):
    return frame(b"IOSE" + struct.pack(">QQQQQQQ", msgs, nbytes, rx_hash, tx_hash, 0, 0, 0))


def serve(portfile, what, arg):
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(1)
    with open(portfile + ".tmp", "w") as f:
        f.write(str(ls.getsockname()[1]))
    os.rename(portfile + ".tmp", portfile)
    ls.settimeout(LIFETIME)
    if what == "hold":
        time.sleep(LIFETIME)
        return
    s, _ = ls.accept()
    s.settimeout(LIFETIME)
    if what == "stuck":
        time.sleep(LIFETIME)
        return
    kind, size, count = read_hello(s)
    s.sendall(frame(b"OK"))
    if what == "close-after":
        recv_exact(s, int(arg))
        s.close()
        return
    if what == "bad-trailer":
        for _ in range(count):
            read_frame(s)
        s.sendall(trailer(count, count * size, 12345, 0))
    elif what == "bad-reply":
        for _ in range(count):
            read_frame(s)
            s.sendall(frame(b"\x00" * (2 * size)))
    try:
        s.recv(1)  # wait for the client to go
    except OSError:
        pass


def client(port, what):
    s = socket.create_connection(("127.0.0.1", int(port)), timeout=LIFETIME)
    hello = struct.pack(">4sIIIQ", b"IOSN", 1, 1, 12, 5)
    if what == "silent":
        time.sleep(LIFETIME)
        return
    if what == "junk":
        s.sendall(b"GET / HTTP/1.0\r\n\r\n")
        time.sleep(1)
        return
    s.sendall(frame(hello))
    assert read_frame(s) == b"OK"
    n = 3 if what == "close-early" else 6
    for _ in range(n):
        s.sendall(frame(b"Hello Server"))
    time.sleep(0.5)
    s.close()


if __name__ == "__main__":
    if sys.argv[1] == "--connect":
        client(sys.argv[2], sys.argv[3])
    else:
        serve(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
