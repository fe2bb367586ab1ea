#!/usr/bin/env bash
# make bench-net: every mode of `iostrat net` side by side in one run over
# TCP loopback -- 10,000 "Hello Server"-sized (12 B) messages and 10,000
# 1 KiB messages, 5 interleaved repetitions -- with the ratio of each mode's
# messages/s to the unbuffered one-way nodelay mode (the "x nodelay"
# column).  About a minute on a quiet 2-core machine.
#   COUNT=..., SIZES=..., REPS=... override; OUT=DIR picks the results directory.
set -euo pipefail
bin=${1:?usage: speed/net.sh path/to/iostrat}
out=${OUT:-results/$(date -u +%Y%m%d-%H%M%S)-bench-net}
echo "bench-net: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), kernel $(uname -r)"
"$bin" net --mode all --size "${SIZES:-12,1k}" --count "${COUNT:-10000}" \
	--reps "${REPS:-5}" --buffer 64k --batch 64 --out "$out"
echo "medians over the repetitions; x nodelay = msgs/s / nodelay's msgs/s at the same size"
echo "calls/msg counted by iostrat (client side); segs/msg = TCP data segments sent (tcpi_data_segs_out)"
