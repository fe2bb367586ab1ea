#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Make the transform's test vectors (tests/vectors/) from a reference.

The reference is written from the definition in docs/design.md ("The
transform") and shares no code with iostrat: for every line (the bytes
before each '\\n', and a last line without one), W passes of
L[j] ^= (p + j) mod 256; '\\n' bytes are copied.  The inputs are fixed
here, their random bytes from SHA-256 in counter mode, so the same script
makes the same bytes on any machine and Python.

    tests/tools/make-vectors.py DIR     write NAME.in and NAME.wW.out into DIR

tests/vectors.sh runs it into a temporary directory and compares the
result with tests/vectors/ byte for byte.
"""
import hashlib
import os
import sys

WORKS = (0, 1, 7, 256, 1000)


def stream(label, n):
    """n deterministic pseudo-random bytes named by label."""
    out = bytearray()
    i = 0
    while len(out) < n:
        out += hashlib.sha256(b"%s:%d" % (label.encode(), i)).digest()
        i += 1
    return bytes(out[:n])


def letters(label, n):
    """n lowercase letters (never '\\n')."""
    return bytes(ord("a") + b % 26 for b in stream(label, n))


def transform_line(line, work):
    """One line, work passes; each pass XORs the whole line at once."""
    n = len(line)
    if n == 0 or work == 0:
        return line
    value = int.from_bytes(line, "big")
    ramp = bytes(range(256)) * (n // 256 + 2)
    for p in range(work):
        start = p % 256
        key = ramp[start:start + n]  # key[j] = (p + j) mod 256
        value ^= int.from_bytes(key, "big")
    return value.to_bytes(n, "big")


def transform(data, work):
    lines = data.split(b"\n")  # the last item: the bytes after the last '\n'
    return b"\n".join(transform_line(line, work) for line in lines)


def inputs():
    lens = [0, 1, 2, 15, 16, 17, 31, 32, 33, 255, 256, 257, 511, 512, 1000,
            4095, 4096, 4097, 0, 3]
    lines = b"".join(letters("lines%d" % i, n) + b"\n" for i, n in enumerate(lens))
    every_byte = bytes(range(256)) * 2
    return {
        "empty": b"",
        "newlines": b"\n\n\n",
        "blank-runs": b"\n\na\n\n\nbc\n\n",
        "notrail": b"alpha\nbeta\ngamma",
        "oneline": b"no newline at all",
        "crlf": b"one\r\ntwo\r\n\r\nthree\r\n",
        "lines": lines,
        "binary": every_byte + stream("binary", 1488),
        # one line longer than 64 KiB (and than any chunk the unit test
        # cuts below 65537), then a short last line without '\n'
        "long": letters("long", 65600) + b"\n" + letters("tail", 40),
    }


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make-vectors.py DIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, data in sorted(inputs().items()):
        with open(os.path.join(out, name + ".in"), "wb") as f:
            f.write(data)
        for w in WORKS:
            with open(os.path.join(out, "%s.w%d.out" % (name, w)), "wb") as f:
                f.write(transform(data, w))


if __name__ == "__main__":
    main()
