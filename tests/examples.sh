#!/usr/bin/env bash
# Every command example of README.md, docs/*.md and the man pages' EXAMPLES
# runs here at a small scale, so a document cannot drift from the program.
#
# What an example is (tests/tools/examples.awk reads it so):
# - markdown: a code block, fenced (no info string, or sh, shell, console,
#   bash; other info strings but ini are not commands) or indented by 4
#   spaces.  When some line of it starts with "$ " it is a transcript: those
#   lines (and the lines a trailing "\" continues) are its commands, the
#   rest is output.  Otherwise it is an example when its first line, past
#   any VAR=value, starts with one of: iostrat build/iostrat make sudo
#   bpftrace gnuplot mount mountpoint lab/lab cp cd ls for
#   ansible-playbook; all its lines are then its commands.  A ```ini block
#   is a profile: it runs as `iostrat bench example.ini --dry-run` (read,
#   expanded and counted).  Inline `code` in prose is not an example.
# - man pages (docs/man/*.scd): each paragraph of the EXAMPLES section,
#   lines joined as scdoc joins them ("++" ends a line).
# One example is one test case, named FILE:LINE of its first command; its
# commands run in order as one bash -e script, in an empty directory of
# their own, and must exit 0.
#
# The marker, on the last non-blank line before the block (markdown
# `<!-- example: ... -->`, scdoc `; example: ...`):
#   not run: REASON   the example cannot run in a test (a reboot, a fleet,
#                     the lab, minutes of work, this suite itself); the case
#                     SKIPs with REASON
#   exit N            the example shows a failure: it must exit N
# An example with neither runs; if it fails, the case FAILs.
#
# How an example is made small and harmless is the one table below: the
# environment, the rewrites every example goes through, and per example
# what it needs before it runs (a results directory, root).  `iostrat` and
# `build/iostrat` are the binary under test; `sudo` runs its command as
# the suite's user (tests run as root or SKIP what needs it).  What would
# change the machine refuses (exit 99): systemctl, reboot, apt and the
# like, and `iostrat queue` on the machine's own queue (no --state-dir).
# shellcheck disable=SC2016 # the table's setups and rewrites expand when an example runs
. "$(dirname "$0")/lib.sh"

DOCS=(README.md docs/*.md docs/man/*.scd)
SUITE=$(mktemp -d /tmp/iostrat-examples.XXXXXX)
trap 'rm -rf "$SUITE"' EXIT

# ---- THE TABLE -------------------------------------------------------------
EX_SCALE=0.0025 # big: 4 files of 1.25 MB (fio's 1 MiB blocks still fit)
# the environment of every example: the profiles' scale knobs, one data
# directory for every bench of the suite (generated once)
EX_ENV=("SCALE=$EX_SCALE" "SCALE_IO=$EX_SCALE" "SCALE_CPU=$EX_SCALE"
	SWEEP_SIZE=64k SWEEP_SCALE=0.001 IOSTRAT_DATA="$SUITE/data")
# every example's commands go through these (sed -E), in order: sizes,
# counts and repetitions down; a bench once per configuration, warm; paths
# under /tmp, /srv and /mnt moved into the case's own directory ($R)
EX_REWRITES=(
	"s/--scale [0-9.]+/--scale $EX_SCALE/g"
	's/--count [0-9]+/--count 2000/g'
	's/--size ([0-9]+)M( |$)/--size 1M\2/g'
	's/--reps [0-9]+/--reps 2/g'
	's/(iostrat bench [^ -][^ ]*)/\1 -D reps=1 -D max_reps=1 -D stop=rsd -D cache=warm/g'
	's#(^|[ ="'\''])/(tmp|srv|mnt)/#\1$R/\2/#g'
)
# what an example needs first, keyed by FILE|its first command (a key that
# matches no example fails the suite: the table cannot go stale)
declare -A EX_SETUP=(
	["docs/benches.md|iostrat report results/20261128-125222-default"]='results results/20261128-125222-default'
	["docs/benches.md|iostrat compare results/A results/B"]='results results/A; results results/B'
	["docs/figures.md|iostrat plot results/20261122-000000-smoke"]='results results/20261122-000000-smoke'
	["docs/figures.md|gnuplot -e \"datafile='results/smoke/plots/data/grid-big.dat'; outbase='/tmp/grid-big'\" plots/grid.gp"]='results results/smoke; iostrat plot results/smoke >/dev/null'
	["docs/kernel-view.md|iostrat trace -d /mnt/loop -- cat /mnt/loop/file >/dev/null"]='need_traced_build; loop_file "$R/mnt/loop" file'
	["docs/kernel-view.md|mountpoint -q /sys/kernel/tracing || sudo mount -t tracefs nodev /sys/kernel/tracing"]='need_root; need_bpftrace_and_tracefs; INTERRUPT_AFTER=10'
	["docs/strategies.md|iostrat run -s direct /tmp/dm-tmpfs/in /tmp/dm-tmpfs-out --reps 1"]='tmpfs_input "$R/tmp/dm-tmpfs"'
	["docs/strategies.md|iostrat run -s uring in out --threads 2 --work 100 --reps 3 --cache cold"]='iostrat gen in --files 6 --lines 240 --width 1000 >/dev/null'
)
EX_TIMEOUT=60 # seconds an example may take
# ---- end of the table ------------------------------------------------------

# the helpers the table's setups call (they run in the case's directory)
results() { # DIR: a small bench's results directory (made once, copied)
	if [ ! -d "$SUITE/results" ]; then
		printf '[global]\nscale=%s\ncache=warm\nreps=2\n[smoke]\nstrategy=stream,mmap\ndataset=big\nthreads=1,2\nwork=0\n' \
			"$EX_SCALE" >"$SUITE/fixture.ini"
		"$IOSTRAT" bench "$SUITE/fixture.ini" --out "$SUITE/results" >/dev/null 2>&1 ||
			die "the fixture bench failed"
	fi
	mkdir -p "$(dirname "$1")" && cp -a "$SUITE/results" "$1"
}
need_traced_build() {
	need_root
	"$IOSTRAT" trace -- true 2>&1 | grep -q 'probes unavailable' && skip "built without eBPF probes"
	true
}
loop_file() { # MNT FILE: a fresh ext4 on a loop device at MNT holding FILE (8 MiB)
	with_loop_ext4 "$1" 32
	head -c 8M /dev/urandom >"$1/$2"
}
# bpftrace runs here and tracefs can be mounted (else SKIP); the example
# mounts tracefs where it is not: unmounted after, as found
need_bpftrace_and_tracefs() {
	need_cmd bpftrace
	timeout 20 bpftrace -e 'BEGIN { exit(); }' >/dev/null 2>&1 || skip "bpftrace cannot load a program here"
	mountpoint -q /sys/kernel/tracing && return 0
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || skip "cannot mount tracefs"
	umount /sys/kernel/tracing
	trap 'umount /sys/kernel/tracing 2>/dev/null; true' EXIT
}
tmpfs_input() { # DIR: DIR a tmpfs with a data set in DIR/in
	need_root
	TMPFS=$1
	mkdir -p "$TMPFS"
	mount -t tmpfs -o size=16m tmpfs "$TMPFS" || skip "cannot mount tmpfs"
	trap 'umount "$TMPFS"' EXIT
	"$IOSTRAT" gen "$1/in" --files 1 --lines 100 --width 100 >/dev/null
}

# extract the examples once: $SUITE/ex/N.sh and the index FILE LINE MARKER
cd "$TOP" || exit 1
mkdir "$SUITE/ex" "$SUITE/bin"
awk -v dir="$SUITE/ex" -f tests/tools/examples.awk "${DOCS[@]}" >"$SUITE/index"
# iostrat as an example calls it; the machine's own reboot queue
# (/var/lib/iostrat, no --state-dir) is out of bounds like systemctl below
cat >"$SUITE/bin/iostrat" <<EOF
#!/bin/sh
if [ "\$1" = queue ]; then
	case " \$* " in *" --state-dir "*) ;; *)
		echo "examples: iostrat queue without --state-dir would change this machine's queue: mark the example not run" >&2
		exit 99 ;;
	esac
fi
exec "$IOSTRAT" "\$@"
EOF
chmod +x "$SUITE/bin/iostrat"
printf '#!/bin/sh\n# sudo in an example: the suite already is the user it needs\nexec "$@"\n' >"$SUITE/bin/sudo"
chmod +x "$SUITE/bin/sudo"
# an unmarked example must not change this machine: these refuse
for c in systemctl reboot shutdown apt apt-get dpkg ansible-playbook; do
	printf '#!/bin/sh\necho "examples: $0 would change this machine: mark the example not run" >&2\nexit 99\n' >"$SUITE/bin/$c"
	chmod +x "$SUITE/bin/$c"
done

# the commands of example N as they run: rewritten by the table
ex_script() {
	local args=() r
	for r in "${EX_REWRITES[@]}"; do args+=(-e "$r"); done
	sed -E "${args[@]}" "$SUITE/ex/$1.sh"
}
ex_key() { printf '%s|%s' "$2" "$(head -n 1 "$SUITE/ex/$1.sh")"; }

run_example() { # N FILE MARKER
	local n=$1 file=$2 mark=$3 want=0 rc=0 key
	case $mark in
	"not run: "?*) skip "${mark#not run: }" ;;
	"exit "[0-9]*) want=${mark#exit } ;;
	"") ;;
	*) die "$file: unknown example marker \"$mark\" (not run: REASON, or exit N)" ;;
	esac
	R=$T; export R
	mkdir -p "$T/w/build" "$R/tmp" "$R/srv" "$R/mnt"
	cd "$T/w" || die "no $T/w"
	ln -s "$SUITE/bin/iostrat" build/iostrat
	for d in profiles plots fio-jobs ebpf; do ln -s "$TOP/$d" "$d"; done
	export PATH="$SUITE/bin:$PATH" "${EX_ENV[@]}"
	key=$(ex_key "$n" "$file")
	[ -z "${EX_SETUP[$key]:-}" ] || eval "${EX_SETUP[$key]}"
	ex_script "$n" >"$T/script.sh"
	if [ -n "${INTERRUPT_AFTER:-}" ]; then # bpftrace stops and prints on Ctrl-C: send it one
		sed -i -E 's/^(sudo )?bpftrace /timeout --preserve-status -s INT '"$INTERRUPT_AFTER"' \1bpftrace /' "$T/script.sh"
	fi
	timeout -k 5 "$EX_TIMEOUT" bash -e "$T/script.sh" </dev/null || rc=$?
	[ "$rc" -ne 124 ] || die "$file: still running after ${EX_TIMEOUT}s"
	[ "$rc" -eq "$want" ] || die "$file: exit $rc, the document says $want: $(tr '\n' ';' <"$T/script.sh")"
}

# the extractor finds the examples and the table names only real ones
extraction_is_sound() {
	local n markers marked key found
	n=$(wc -l <"$SUITE/index")
	[ "$n" -ge 30 ] || die "only $n examples found: is tests/tools/examples.awk broken?"
	markers=$(cat "${DOCS[@]}" | grep -cE '^[[:space:]]*(<!-- example: |; example: )' || true)
	marked=$(awk -F'\t' '$3 != ""' "$SUITE/index" | wc -l)
	[ "$markers" -eq "$marked" ] || die "$markers example markers, $marked on an example: a marker is not on the line before its block"
	for key in "${!EX_SETUP[@]}"; do
		found=
		while IFS=$'\t' read -r i f _; do
			[ "$(ex_key "$i" "$f")" = "$key" ] && found=1
		done < <(awk -F'\t' '{print NR "\t" $1}' "$SUITE/index")
		[ -n "$found" ] || die "the table names an example no document has: $key"
	done
}

t examples_are_extracted_and_the_table_is_current extraction_is_sound
i=0
while IFS=$'\t' read -r file line mark; do
	i=$((i + 1))
	t "$file:$line" run_example "$i" "$file" "$mark"
done <"$SUITE/index"
