#!/usr/bin/env bash
# make bench-memory: each strategy unlimited and in a memory limit
# (memory_max), side by side in interleaved rounds, cold, W=0, on 1.2 GB
# of 300 MB files against 256 MiB (4.5 times the limit, every file larger):
# elapsed and CPU (user, system, kernel threads) as paired ratios
# limited/unlimited, the page cache left charged, the share of CPU outside
# the process, and which strategies the limit kills.  Then the accounting's
# own cost: the smallest repetition of the smoke profile with and without
# a cgroup, paired.  Root (cgroups).  A few minutes; FILES, FILE_MB, LIMIT,
# REPS, BENCH_DATA change it.
set -euo pipefail
exec python3 "$(dirname "$0")/memory.py" "$@"
