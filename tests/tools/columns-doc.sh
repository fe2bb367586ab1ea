#!/usr/bin/env bash
# tests/tools/columns-doc.sh BIN [DOC]: write `iostrat __columns --markdown` between the column markers of docs/results.md.
set -euo pipefail
bin=$1 doc=${2:-docs/results.md}
begin='<!-- columns: iostrat __columns --markdown -->' end='<!-- end columns -->'
if ! grep -qxF "$begin" "$doc" || ! grep -qxF "$end" "$doc"; then
	echo "columns-doc.sh: $doc: no column markers ($begin ... $end)" >&2
	exit 1
fi
table=$(mktemp)
new=$(mktemp "$doc.XXXXXX")
trap 'rm -f "$table" "$new"' EXIT
"$bin" __columns --markdown >"$table"
[ -s "$table" ] || { echo "columns-doc.sh: $bin __columns --markdown printed nothing" >&2; exit 1; }
awk -v b="$begin" -v e="$end" -v t="$table" '
	$0 == b { print; while ((getline l < t) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip' "$doc" >"$new"
chmod --reference="$doc" "$new"
mv "$new" "$doc"
