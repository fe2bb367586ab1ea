#!/usr/bin/env bash
# make bench-core-strategies: stream, buffer, direct and mmap side by side
# (cold and warm, W 0 and 100, threads 1 and 2, peak RSS) on a generated
# `big` data set; direct --qd 2 and mmap --mmap-out against their
# defaults; and direct against fio doing the same O_DIRECT reads and
# writes (bs = direct's chunk) on a 1 GiB data set, W=0, cold.
# A couple of minutes; SCALE, FIO_SCALE and REPS change the sizes.
set -euo pipefail
exec python3 "$(dirname "$0")/core_strategies.py" "$@"
