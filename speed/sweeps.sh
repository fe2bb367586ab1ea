#!/usr/bin/env bash
# make bench-sweeps: the three sweeps of docs/design.md (questions 2-4) at a size
# that takes a couple of minutes here (the full-size defaults take longer:
# run `iostrat sweep KIND` without --size/--scale for those).
#   SWEEP_SIZE=10M SWEEP_SCALE=1 SWEEP_REPS=5 make bench-sweeps
set -euo pipefail
bin=$1
size=${SWEEP_SIZE:-2M}
scale=${SWEEP_SCALE:-0.1}
reps=${SWEEP_REPS:-3}
out=${SWEEP_OUT:-results/$(date -u +%Y%m%d-%H%M%S)-bench-sweeps}
mkdir -p "$out"
echo "== sweep blocksize (--size $size, --reps $reps)"
"$bin" sweep blocksize --size "$size" --reps "$reps" --buffer 65536 --out "$out/blocksize"
echo
echo "== sweep bufsize (--scale $scale, --reps $reps)"
"$bin" sweep bufsize --scale "$scale" --reps "$reps" --out "$out/bufsize"
echo
echo "== sweep api (--size $size, --reps $reps)"
"$bin" sweep api --size "$size" --reps "$reps" --out "$out/api"
echo
echo "results: $out/{blocksize,bufsize,api} (sweep.txt has each table)"
