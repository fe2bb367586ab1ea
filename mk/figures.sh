#!/usr/bin/env bash
# `make figures`: re-make the README's example figures (docs/figures/*.png)
# from a fresh small run on this machine: the quick profile, fio baselines
# of its data sets, and the sweeps and network modes when this iostrat has
# them.  SCALE (default 0.01) sizes the data sets.
set -euo pipefail
bin=$1
scale=${SCALE:-0.01}
work=$(mktemp -d /tmp/iostrat-figures.XXXXXX)
trap 'rm -rf "$work"' EXIT
res=$work/results
SCALE=$scale "$bin" bench profiles/quick.ini --out "$res" --data "$work/data" >/dev/null
if command -v fio >/dev/null; then
	for d in "$work"/data/*-s*; do
		ds=$(basename "$d" | sed 's/-s[0-9.]*-seed[0-9]*$//')
		"$bin" fio seq-psync --dataset "$d" --bs 64k --reps 3 --json --cache cold 2>/dev/null |
			sed "s#\"dataset\":\"[^\"]*\"#\"dataset\":\"$ds\"#" >>"$res/results.jsonl"
	done
fi
if "$bin" sweep --help >/dev/null 2>&1; then
	"$bin" sweep blocksize --out "$work/sk" --size 1M --reps 3 >/dev/null
	"$bin" sweep bufsize --out "$work/sb" --files 4 --scale 0.1 --sizes 32..1M --reps 3 >/dev/null
	"$bin" sweep api --out "$work/sa" --size 4M --reps 3 >/dev/null
	cat "$work"/s{k,b,a}/results.jsonl >>"$res/results.jsonl"
fi
if "$bin" net --help >/dev/null 2>&1; then
	"$bin" net --size 12,1024 --count 10000 --reps 3 --out "$work/n" >/dev/null
	cat "$work/n/results.jsonl" >>"$res/results.jsonl"
fi
"$bin" plot "$res"
mkdir -p docs/figures
rm -f docs/figures/*.png
cp "$res"/plots/*.png docs/figures/
echo "docs/figures: $(cd docs/figures && ls | tr '\n' ' ')"
