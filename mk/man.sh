#!/usr/bin/env bash
# mk/man.sh SRC.scd OUT: one man page from its scdoc source.  scdoc puts a
# paragraph macro (.P) around every heading and before every indented block's
# end; mandoc -T lint warns about each (empty paragraph, paragraph after a
# heading), so the redundant ones are dropped: a .P right after .TH/.SH/.SS,
# or followed by .SH/.SS/.P/.RE or the end.  The date is the source's last
# commit (SOURCE_DATE_EPOCH, as Debian's build sets it), not today; the
# title is upper case, as mandoc's style check wants (IOSTRAT-RUN(1)).
set -euo pipefail
src=$1 out=$2
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git log -1 --format=%ct -- "$src" 2>/dev/null || true)
	[ -n "$SOURCE_DATE_EPOCH" ] || SOURCE_DATE_EPOCH=$(stat -c %Y "$src")
	export SOURCE_DATE_EPOCH
fi
scdoc <"$src" | awk '
	function flush() { if (held) { held = 0; print ".P" } }
	/^\.P$/ {
		if (prev ~ /^\.(TH|SH|SS|P)( |$)/) next
		held = 1; next
	}
	/^\.(SH|SS|RE|P)( |$)/ { held = 0 }
	/^\.TH / { $2 = toupper($2) }
	{ flush(); print; if ($0 !~ /^\.\\"/) prev = $0 }
	END { }
' >"$out.tmp"
mv "$out.tmp" "$out"
