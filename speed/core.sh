#!/usr/bin/env bash
# make bench-core: stream vs buffer (and any other strategy given in
# STRATEGIES) against `cat`, cold and warm, W 0 and 100, threads 1 and 2,
# with peak RSS; the memory and W-cost targets of the core issue.
set -euo pipefail
exec python3 "$(dirname "$0")/core.py" "$@"
