#!/usr/bin/env bash
# make bench-net-unix: the buffering question over TCP loopback and over a
# Unix stream socket, side by side (profiles/net-unix.ini: the same modes
# at 12 B and 1 KiB in both families, repetitions interleaved), then the
# table docs/network.md quotes: each family's msgs/s, Unix over TCP, each
# over its own nodelay, and the ping-pong median round trips.
#   OUT=DIR picks the results directory.
set -euo pipefail
bin=${1:?usage: speed/net-unix.sh path/to/iostrat}
here=$(dirname "$0")
out=${OUT:-results/$(date -u +%Y%m%d-%H%M%S)-bench-net-unix}
echo "bench-net-unix: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), kernel $(uname -r)"
"$bin" bench "$here/../profiles/net-unix.ini" --out "$out" >/dev/null
python3 "$here/net_unix.py" "$out"
echo "medians over the repetitions; x nd = msgs/s over nodelay's of the same family and size; p50 in us"
echo "results: $out"
