#!/usr/bin/env bash
# make bench-kernel-features: what the newer kernels add, measured side by
# side in interleaved rounds: --dontcache (RWF_DONTCACHE, 6.14) for stream,
# buffer and uring against direct at W=0 cold (elapsed as paired ratios,
# the page cache left behind), and uring --sqpoll against plain uring at
# W=0 and W=100 (paired ratios, CPU time).  See speed/kernel_features.py
# for the knobs (REPS, SCALE, SCALE_CPU, BENCH_DATA).
set -euo pipefail
exec python3 "$(dirname "$0")/kernel_features.py" "$@"
