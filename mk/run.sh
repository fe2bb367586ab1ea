#!/usr/bin/env bash
# `make run`: run the default profile (profiles/quick.ini: every strategy
# built in, two small data sets) into results/ and print its report.
# Data sets are cached in $IOSTRAT_DATA (default ./data) and reused.
set -euo pipefail
bin=$1
profile=${PROFILE:-profiles/quick.ini}
name=$(basename "$profile" .ini)
out=results/$(date -u +%Y%m%d-%H%M%S)-$name
"$bin" bench "$profile" --out "$out"
echo
"$bin" report "$out"
echo
# the figures (README "## Figures"); a figure that cannot be drawn says why
"$bin" plot "$out" || echo "(some figures were not drawn: see above)"
echo "figures: $out/plots/*.png (and .svg)"
