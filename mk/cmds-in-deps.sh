#!/usr/bin/env bash
# mk/cmds-in-deps.sh [--list | --require FILE] PACKAGE...: every external
# command that the tests, the mk/, lab/ and speed/ scripts and the Makefile's
# recipes run comes from a package `make deps` (or lab-deps, check-deps)
# installs -- PACKAGE..., the list -- or from one such package's Depends,
# or from Debian's base system (Essential, Priority required or important),
# or is built here.  A command the developer happens to have installed is
# not enough: each is mapped to the package that owns it (dpkg -S).
#
# Prints one line per offending command, naming a file that runs it, and
# exits 1 if there is any; "cmds-in-deps: N commands, all in deps" else.
#   --words FILE... the words in command position of shell FILEs, unfiltered
#   --list [PKG...] print the external commands found, one a line (those
#                   of PKG..., their Depends and the base system, if given)
#   --require FILE  also fail for each command of FILE (a --list of make
#                   deps' packages made where everything is installed) that
#                   is missing here: run in a root holding only the base
#                   system and what make deps installed
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

# The commands of the lab's host side that a machine without the lab
# installed cannot map: command -> package (mk/lab.mk's LAB_PKGS).
LAB_CMDS="qemu-system-x86_64:qemu-system-x86 qemu-img:qemu-utils mmdebstrap:mmdebstrap"


# What is scanned: shell files run on this machine (the lab's guest-side
# scripts run in the lab image, whose packages lab/image.sh names).
files() {
	ls tests/*.sh tests/*.inc mk/*.sh speed/*.sh lab/lab lab/check.sh lab/fleet.sh \
		lab/grub-image.sh lab/image.sh lab/lib.sh lab/reboot.sh .ci/run 2>/dev/null
}
mkfiles() { ls Makefile mk/*.mk; }

# words in command position: the first word of each simple command, and the
# command after a wrapper (sudo, timeout N, xargs, env X=Y ...); comments,
# here-documents, quoted text (but command strings) and make's recipe
# prefixes dropped.  A heuristic, kept honest by mapping
# every word that names an installed program to its package.
words() { # MODE FILE...   MODE: sh | mk (recipe lines only)
	local mode=$1; shift
	awk -v mode="$mode" '
	# code(LINE): LINE with what quotes hold masked (\001), except a
	# command string (sh -c "...", bash -c, lab run -- "...") and a
	# command substitution in double quotes; quotes become blanks.
	# States on a stack: c code, p $( or ( , b backquote, q single quotes,
	# d double quotes, C a quoted command string.
	function code(line,   out, i, c, n, st, t, L) {
		out = ""; n = 0; L = length(line)
		for (i = 1; i <= L; i++) {
			c = substr(line, i, 1); t = n ? st[n] : "c"
			if (t == "q") { if (c == "\047") { n--; c = " " } else c = "\001"; out = out c; continue }
			if (t == "d" && c != "\"" && c != "$" && c != "`" && c != "\\") { out = out "\001"; continue }
			if (c == "\\") { out = out "\001\001"; i++; continue }
			if (t == "C" && c == qc[n]) { n--; out = out " "; continue }
			if (t == "d" && c == "\"") { n--; out = out " "; continue }
			if (t == "d" && c == "$" && substr(line, i + 1, 1) != "(") { out = out "\001"; continue }
			if (c == "$" && substr(line, i + 1, 1) == "(") { st[++n] = "p"; i++; out = out "\n"; continue }
			if (c == "`") { if (t == "b") n--; else st[++n] = "b"; out = out "\n"; continue }
			if (t == "d") { out = out "\001"; continue }
			if (c == "(") { st[++n] = "p"; out = out "\n"; continue }
			if (c == ")") { if (t == "p") n--; out = out "\n"; continue }
			if (c == "\047" || c == "\"") {
				if (out ~ /(^|[ \t\/])(sh|bash)[ \t]+(-[a-z]+[ \t]+)*-c[ \t]*$/ || out ~ /(^|[ \t])--[ \t]*$/) { st[++n] = "C"; qc[n] = c; out = out "\n"; continue }
				else st[++n] = (c == "\047") ? "q" : "d"
				out = out " "; continue
			}
			out = out c
		}
		return out
	}
	# a here-document is data (python, a profile), not commands
	term != "" { l = $0; if (strip) sub(/^\t+/, "", l); if (l == term) term = ""; next }
	mode == "mk" && !/^\t/ { next }
	{
		if (match($0, /[^<]<<-?[ \t]*["\047]?[A-Za-z_][A-Za-z0-9_]*/)) {
			term = substr($0, RSTART + 3, RLENGTH - 3)
			strip = (term ~ /^-/); sub(/^-/, "", term); gsub(/[ \t"\047]/, "", term)
		}
		line = $0
		if (mode == "mk") { sub(/^\t[@+-]*(\$\(Q\))?[@+-]*/, "", line); gsub(/\$\$/, "$", line) }
		sub(/(^|[ \t])#.*/, "", line)
		# name( is a call in quoted code (python3 -c "...open(p)" over
		# lines), not a subshell: its parenthesis separates nothing
		while (match(line, /[A-Za-z0-9_.]\(/)) line = substr(line, 1, RSTART) "\001" substr(line, RSTART + 2)
		line = code(line)
		gsub(/\|\||&&|[|;{}!]/, "\n", line)
		n = split(line, seg, "\n")
		for (i = 1; i <= n; i++) {
			m = split(seg[i], w, /[ \t]+/)
			for (j = 1; j <= m; j++) {
				x = w[j]
				if (x == "" || x ~ /^[A-Za-z_][A-Za-z0-9_]*=/) continue
				if (x ~ /^(if|then|do|else|elif|while|until|time|exec|command|sudo|env|nohup|setsid|nice|ionice|stdbuf|builtin)$/) continue
				# awk statement in a program quoted over lines (read a line
				# at a time, it looks like code): no script runs the print of mailcap
				if (x == "print") continue
				if (x ~ /^-/ || x ~ /^[0-9.]+[smhd]?$/) continue
				if (x ~ /^[a-z][a-z0-9._+-]*$/) print x "\t" FILENAME
				if (x !~ /^(timeout|xargs|flock|taskset|chroot|unshare|nsenter)$/) break
			}
		}
	}' "$@"
}

# the shell functions the scanned files define (called like commands)
functions() {
	sed -nE 's/^[[:space:]]*(function[[:space:]]+)?([A-Za-z_][A-Za-z0-9_-]*)[[:space:]]*\(\)[[:space:]]*\{?.*$/\2/p' "$@" | sort -u
}

# found: "COMMAND<TAB>FILE" for every external command (first file seen)
found() {
	local fn c f sh mk
	mapfile -t sh < <(files)
	mapfile -t mk < <(mkfiles)
	fn=$(functions "${sh[@]}" lab/guest-*.sh tests/lib.sh)
	{ words sh "${sh[@]}"; words mk "${mk[@]}"; } | sort -u -k1,1 |
	while IFS=$'\t' read -r c f; do
		[ "$c" = iostrat ] && continue
		grep -qx -- "$c" <<<"$fn" && continue
		case $(type -t -- "$c") in
		builtin|keyword|function|alias) continue ;;
		file) printf '%s\t%s\n' "$c" "$f" ;;
		*) lab_pkg "$c" >/dev/null && printf '%s\t%s\n' "$c" "$f" ;;
		esac
	done
}

lab_pkg() { local e; for e in $LAB_CMDS; do [ "${e%%:*}" = "$1" ] && { echo "${e#*:}"; return 0; }; done; return 1; }

# candidates: "COMMAND<TAB>PATH" lines, in the order to try, for the
# package that owns each command: the program found on PATH and each link
# it goes through (cc -> alternatives -> gcc), each also under the other
# side of the /bin = /usr/bin merge, then the system's own directories
# (a program first on PATH from outside a package, as a python3 shim).
candidates() {
	local c p q d
	while read -r c; do
		p=$(command -v -- "$c") || continue
		for _ in 1 2 3 4 5 6; do
			for q in "$p" "${p/#\/usr\//\/}" "/usr$p"; do printf '%s\t%s\n' "$c" "$q"; done
			[ -L "$p" ] || break
			q=$(readlink "$p"); [[ $q == /* ]] || q=$(dirname "$p")/$q
			p=$q
		done
		for d in /usr/bin /bin /usr/sbin /sbin; do printf '%s\t%s\n' "$c" "$d/$c"; done
	done
}
# owners: "COMMAND<TAB>PACKAGE" (or "COMMAND<TAB>" when none) for the
# commands on stdin, with one dpkg -S for all
owners() {
	local cand
	cand=$(candidates)
	cut -f2 <<<"$cand" | sort -u | xargs -r dpkg -S 2>/dev/null | grep -v '^diversion' |
		awk -v cand="$cand" '
		{ i = index($0, ": "); pk = substr($0, 1, i - 1); sub(/,.*/, "", pk); sub(/:.*/, "", pk); own[substr($0, i + 2)] = pk }
		END { n = split(cand, l, "\n")
			for (k = 1; k <= n; k++) { split(l[k], f, "\t"); c = f[1]
				if (!(c in seen)) seen[c] = ""
				if (seen[c] == "" && (f[2] in own)) seen[c] = own[f[2]] }
			for (c in seen) print c "\t" seen[c] }'
}

# the packages allowed: the list, their Depends, the base system
allowed() {
	printf '%s\n' "$@"
	# Depends of each listed package, installed here or known to apt
	for p in "$@"; do
		dpkg-query -W -f='${Depends},${Pre-Depends}\n' "$p" 2>/dev/null ||
			apt-cache show --no-all-versions "$p" 2>/dev/null | sed -n 's/^\(Pre-\)\?Depends: //p'
	done | tr ',|' '\n' | sed -E 's/\(.*//; s/:any//; s/[[:space:]]//g' | grep .
	dpkg-query -W -f='${Package} ${Essential} ${Priority}\n' |
		awk '$2 == "yes" || $3 == "required" || $3 == "important" { print $1 }'
}

main() {
	local require='' list='' c f pkg bad=0 n=0 ok cmds own
	case ${1:-} in
	--words) shift; words sh "$@" | cut -f1; return ;;
	--list) list=1; shift ;;
	--require) require=$2; shift 2 ;;
	esac
	[ $# -gt 0 ] || [ -n "$list" ] || { echo "cmds-in-deps: no package list given (make cmds-in-deps)" >&2; return 2; }
	cmds=$(found)
	[ $# -gt 0 ] || { cut -f1 <<<"$cmds"; return; }
	ok=$(allowed "$@" | sort -u)
	own=$(cut -f1 <<<"$cmds" | owners)
	while IFS=$'\t' read -r c f; do
		n=$((n + 1))
		pkg=$(lab_pkg "$c") || pkg=$(awk -F'\t' -v c="$c" '$1 == c { print $2 }' <<<"$own")
		if [ -n "$list" ]; then
			grep -qx -- "$pkg" <<<"$ok" && echo "$c"
			continue
		fi
		if [ -z "$pkg" ]; then
			echo "cmds-in-deps: $c ($f): $(command -v -- "$c") belongs to no package: is it built here?"
			bad=1; continue
		fi
		grep -qx -- "$pkg" <<<"$ok" && continue
		echo "cmds-in-deps: $c ($f): package $pkg is not installed by make deps, nor in the base system"
		bad=1
	done <<<"$cmds"
	[ -n "$list" ] && return 0
	if [ -n "$require" ]; then
		while read -r c; do
			type -t -- "$c" >/dev/null || lab_pkg "$c" >/dev/null && continue
			echo "cmds-in-deps: $c: not installed here by make deps"
			bad=1
		done <"$require"
	fi
	[ "$bad" = 0 ] && echo "cmds-in-deps: $n commands, all in deps"
	return "$bad"
}
main "$@"
