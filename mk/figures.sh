#!/usr/bin/env bash
# `make figures`: re-make the README's example figures (docs/figures/*.png)
# from a fresh small run on this machine.
set -euo pipefail
bin=$1
work=$(mktemp -d /tmp/iostrat-figures.XXXXXX)
trap 'rm -rf "$work"' EXIT
res=$work/results
mkdir -p "$res"
"$bin" gen "$work/d/medium-short" --preset medium-short --scale 0.005 >/dev/null
"$bin" gen "$work/d/big" --preset big --scale 0.005 >/dev/null
for ds in medium-short big; do
	for s in $("$bin" list | awk '!/^ / && !/\[no output\]/ {print $1}'); do
		for th in 1 2; do
			for w in 0 100; do
				"$bin" run -s "$s" "$work/d/$ds" "$work/out" --threads "$th" --work "$w" \
					--reps 3 --json --dataset "$ds" --cache cold >>"$res/results.jsonl"
			done
		done
	done
done
"$bin" plot "$res"
mkdir -p docs/figures
rm -f docs/figures/*.png
cp "$res"/plots/*.png docs/figures/
echo "docs/figures: $(ls docs/figures | tr '\n' ' ')"
