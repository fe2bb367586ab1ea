#!/usr/bin/env bash
# `make run`: generate a small data set and run every strategy on it.
set -euo pipefail
bin=$1
data=${IOSTRAT_DATA:-data}
"$bin" gen "$data/medium-short" --preset medium-short --scale 0.01
"$bin" gen "$data/big" --preset big --scale 0.01
for ds in medium-short big; do
	for s in $("$bin" list | awk '!/^ / {print $1}'); do
		"$bin" run -s "$s" "$data/$ds" "$data/out-$ds" --reps 3 --work 100 --dataset "$ds"
	done
done
