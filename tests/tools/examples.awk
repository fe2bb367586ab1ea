# The extractor of tests/examples.sh (the rule is stated there): prints
# "FILE<TAB>LINE<TAB>MARKER" per command example and writes its commands to DIR/N.sh.
function cmdword(l,   w) {
	sub(/^[ \t]+/, "", l)
	while (l ~ /^[A-Za-z_][A-Za-z0-9_]*=[^ ]* /) sub(/^[A-Za-z_][A-Za-z0-9_]*=[^ ]* +/, "", l)
	w = l; sub(/[ \t].*/, "", w)
	return w ~ /^(iostrat|build\/iostrat|make|sudo|bpftrace|gnuplot|mount|mountpoint|lab\/lab|cp|cd|ls|for|ansible-playbook)$/
}
function flush(   i, tr, s, l, first, cont, line) {
	if (nb == 0) return
	if (mark ~ /^[ \t]*<!-- example: .* -->[ \t]*$/) { sub(/^[ \t]*<!-- example: /, "", mark); sub(/ -->[ \t]*$/, "", mark) }
	else if (!man) mark = ""
	tr = 0
	for (i = 1; i <= nb; i++) if (b[i] ~ /^\$ /) tr = 1
	s = ""; first = 0; cont = 0
	for (i = 1; i <= nb; i++) {
		l = b[i]
		if (tr && !cont && l !~ /^\$ /) continue
		if (tr && !cont) sub(/^\$ /, "", l)
		if (!first) { if (l ~ /^[ \t]*(#.*)?$/) continue; first = bl[i] }
		s = s l "\n"
		cont = (l ~ /\\$/)
	}
	line = first
	if (first && prof) { # a profile: bench must read it and count its configurations
		s = "cat >example.ini <<'EXAMPLE_INI'\n" s "EXAMPLE_INI\niostrat bench example.ini --dry-run\n"
		tr = 1
	}
	if (first && (tr || cmdword(s))) {
		n++
		printf "%s", s > (dir "/" n ".sh"); close(dir "/" n ".sh")
		printf "%s\t%d\t%s\n", bf, line, mark
	}
	nb = 0
}
function strip(l, ind) { return substr(l, 1, ind) ~ /^[ \t]*$/ ? substr(l, ind + 1) : l }
FNR == 1 { flush(); bf = FILENAME; infence = 0; inind = 0; prevblank = 1; lastnb = ""; man = FILENAME ~ /\.scd$/; inex = 0 }
# --- man pages (scdoc): the EXAMPLES section, one example a paragraph ---
man && /^# / { flush(); inex = ($0 ~ /^# EXAMPLES/); next }
man && !inex { next }
man && /^[ \t]*$/ { flush(); next }
man && /^; example: / { m = $0; sub(/^; example: /, "", m); pmark = m; next }
man && /^;/ { next }
man {
	l = $0; sub(/^\t/, "", l)
	if (nb == 0) { mark = pmark; pmark = ""; b[++nb] = ""; bl[nb] = FNR }
	if (l ~ /\+\+$/) { sub(/\+\+$/, "", l); b[nb] = b[nb] (b[nb] == "" ? "" : " ") l; b[++nb] = ""; bl[nb] = FNR + 1 }
	else b[nb] = b[nb] (b[nb] == "" ? "" : " ") l
	next
}
# --- markdown: fenced blocks (no info string, or sh/console/shell) and indented blocks ---
/^[ \t]*```/ {
	if (!infence) {
		infence = 1; fenceind = index($0, "`") - 1
		info = $0; sub(/^[ \t]*```/, "", info)
		keep = (info ~ /^(|sh|shell|console|bash|ini)[ \t]*$/)
		prof = (info ~ /^ini/)
		mark = lastnb; nb = 0
	} else { infence = 0; if (keep) flush(); nb = 0; prof = 0 }
	lastnb = ""; next
}
infence { if (keep) { b[++nb] = strip($0, fenceind); bl[nb] = FNR }; next }
/^(    |\t)/ && (prevblank || inind) {
	if (!inind) { inind = 1; match($0, /^[ \t]*/); indw = RLENGTH; mark = lastnb; nb = 0 }
	b[++nb] = strip($0, indw); bl[nb] = FNR; prevblank = 0; next
}
/^[ \t]*$/ { prevblank = 1; if (inind) { } next }
{ if (inind) { flush(); inind = 0 }; prevblank = 0; lastnb = $0 }
END { flush() }
