#!/usr/bin/env bash
# make bench-uring: the io_uring pipeline against stream/buffer (W=0 cold),
# 2 workers against 1 (W=1000) and against fio (--sink null --direct).
# See speed/uring.py for the knobs (REPS, FSYNC, SCALE_<SET>, CHUNK, QD).
set -euo pipefail
exec python3 "$(dirname "$0")/uring.py" "$@"
