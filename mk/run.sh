#!/usr/bin/env bash
# `make run`: run the default profile (profiles/default.ini: every strategy
# built in, pure I/O against CPU-bound, each beside its fio baseline;
# traced when root with kernel BTF) into results/, print its report (the
# verdict first), draw the figures and write DIR/report.html, one page
# with all of it (docs/verdict.md).  Data sets are cached in $IOSTRAT_DATA
# (default ./data) and reused.  PROFILE=profiles/smoke.ini for a smoke run
# (and SCALE=0.002, its scale, for a smaller one: make check-lab's fresh root).
set -euo pipefail
bin=$1
profile=${PROFILE:-profiles/default.ini}
name=$(basename "$profile" .ini)
out=results/$(date -u +%Y%m%d-%H%M%S)-$name
trace=()
if [ "$(id -u)" -eq 0 ] && [ -r /sys/kernel/btf/vmlinux ]; then
	trace=(-D trace=1)
else
	echo "make run: not traced (the kernel view needs root and /sys/kernel/btf/vmlinux)" >&2
fi
"$bin" bench "$profile" --out "$out" "${trace[@]}"
echo
"$bin" report "$out"
echo
# the figures (docs/figures.md); a figure that cannot be drawn says why
"$bin" plot "$out" || echo "(some figures were not drawn: see above)"
"$bin" report "$out" --format html -o "$out/report.html"
echo
echo "report: $out/report.html"
