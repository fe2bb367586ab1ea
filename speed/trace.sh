#!/usr/bin/env bash
# make bench-trace: the cost of the eBPF probes.  profiles/smoke.ini with
# and without -D trace=1, alternated (A B B A) so drift cancels, and the
# traced/untraced ratio of median elapsed (and sys CPU) per configuration.
# Target: under 3% slower.  Needs root (the probes); SCALE as for smoke.ini.
set -euo pipefail
exec python3 "$(dirname "$0")/trace.py" "$@"
