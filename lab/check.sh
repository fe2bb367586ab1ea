#!/usr/bin/env bash
# lab/check.sh [KERNEL...]: the portability matrix (make check-lab).
#
# Boots one guest per lab kernel (all of kernels.conf, or the ones named, or
# $IOSTRAT_LAB_CHECK_KERNELS), runs lab/guest-checks.sh in it, then, on the
# host, compares the kernels' bench results pairwise.  Prints each check as
# it comes ("[5.10] PASS: strategy stream"), then the kernel x check matrix,
# what each kernel gave (residency method, ring flags, trace), and ends with
# "N passed, N failed, N skipped".  The matrix is also written, as markdown,
# to $LAB_DIR/last-check.md (docs/lab.md carries a copy).
# shellcheck disable=SC2317 # the checks are called by name (harness), stop_guests by a trap
set -uo pipefail
. "$(dirname "$0")/lib.sh"

# Functions only, then one line that calls main: bash has read the whole
# file before it runs, so editing it (a git pull) during the minutes a
# check takes cannot derail it.

# preflight: root (else one SKIP), the lab's tools, the binary under test
preflight() {
	[ "$(id -u)" -eq 0 ] || { echo "SKIP: lab: needs root"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
	for c in qemu-system-x86_64 qemu-img mmdebstrap jq; do
		command -v "$c" >/dev/null || lab_die "$c missing: run make lab-deps"
	done
	IOSTRAT=$TOP/${BUILD:-build}/iostrat
	[ -x "$IOSTRAT" ] || lab_die "$IOSTRAT: not built (make)"
}

# pick_stages [KERNEL...]: what this check runs (lab/stages.conf): the
# kernels' guest stages in $kernels, the others as flags, each stage's
# reason in $res/plan ("run|skip STAGE why").  The whole matrix by default;
# the kernels named (arguments, or $IOSTRAT_LAB_CHECK_KERNELS) and the
# package and lab run checks; or, with IOSTRAT_LAB_SELECT=changed (CI),
# the stages whose paths changed since their proof (lab/stages.sh plan);
# or, with IOSTRAT_LAB_SELECT=STAGE,STAGE, the stages named.
# IOSTRAT_LAB_REBOOT, _FLEET, _FRESH =1 force a side stage, =0 skip it.
pick_stages() {
	local named=("$@") d s why
	all_kernels=()
	mapfile -t all_kernels < <(lab_kernel_lines | awk '{ print $1 }')
	if [ ${#named[@]} -eq 0 ] && [ -n "${IOSTRAT_LAB_CHECK_KERNELS:-}" ]; then
		read -ra named <<<"${IOSTRAT_LAB_CHECK_KERNELS//,/ }"
	fi
	if [ ${#named[@]} -gt 0 ]; then
		for s in lab-run package; do printf 'run\t%s\tnamed kernels: %s\n' "$s" "${named[*]}"; done
		for s in "${named[@]}"; do printf 'run\tguest-%s\tnamed\n' "$s"; done
		for s in fresh-root reboot fleet; do printf 'skip\t%s\tnot with named kernels\n' "$s"; done
	elif [ "${IOSTRAT_LAB_SELECT:-all}" = changed ]; then
		"$LAB_TOP/stages.sh" plan || lab_die "lab/stages.sh plan failed"
	elif [ "${IOSTRAT_LAB_SELECT:-all}" != all ]; then
		select_stages "$IOSTRAT_LAB_SELECT"
	else
		"$LAB_TOP/stages.sh" list | awk '{ print "run\t" $1 "\tthe whole matrix" }'
	fi >"$res/plan"
	force_stage fresh-root "${IOSTRAT_LAB_FRESH:-}"
	force_stage reboot "${IOSTRAT_LAB_REBOOT:-}"
	force_stage fleet "${IOSTRAT_LAB_FLEET:-}"
	kernels=()
	while IFS=$'\t' read -r d s why; do
		[ "$d" = run ] && [[ $s == guest-* ]] && kernels+=("${s#guest-}")
	done <"$res/plan"
	# what each stage is run on: a proof is recorded only if that still holds
	awk -F'\t' '$1 == "run" { print $2 }' "$res/plan" | while read -r s; do
		printf '%s\t%s\n' "$s" "$("$LAB_TOP/stages.sh" hash "$s")"
	done >"$res/hashes"
	runs lab-run && run_harness=1 || run_harness=0
	runs package && run_package=1 || run_package=0
	runs fresh-root && fresh_root=1 || fresh_root=0
	runs reboot && reboot_lab=1 || reboot_lab=0
	runs fleet && fleet_lab=1 || fleet_lab=0
	k_new=${all_kernels[-1]}
	[ "${IOSTRAT_LAB_SMOKE:-1}" = 0 ] && smoke=0 || smoke=1
}
# select_stages STAGE[,STAGE...]: the plan of the stages named, every
# other skipped; a name that is no stage is an error naming it.
select_stages() {
	local list=",$1," s
	for s in ${1//,/ }; do
		"$LAB_TOP/stages.sh" list | awk -v s="$s" '$1 == s { f = 1 } END { exit !f }' ||
			lab_die "IOSTRAT_LAB_SELECT: $s: no such stage (lab/stages.sh list)"
	done
	"$LAB_TOP/stages.sh" list | awk -v l="$list" '{
		print (index(l, "," $1 ",") ? "run" : "skip") "\t" $1 "\t" \
			(index(l, "," $1 ",") ? "named" : "not named") }'
}
# force_stage STAGE 0|1|"": the plan's line for STAGE made skip or run
force_stage() {
	[ -n "$2" ] || return 0
	awk -F'\t' -v OFS='\t' -v s="$1" -v v="$2" '$2 == s { $1 = v == 1 ? "run" : "skip"; $3 = "IOSTRAT_LAB_" (s == "fresh-root" ? "FRESH" : toupper(s)) "=" v } 1' \
		"$res/plan" >"$res/plan.new" && mv "$res/plan.new" "$res/plan"
}
runs() { awk -F'\t' -v s="$1" '$1 == "run" && $2 == s { f = 1 } END { exit !f }' "$res/plan"; }
print_plan() {
	local d s why
	echo "== stages (lab/stages.conf; proofs: lab/proof.tsv)"
	while IFS=$'\t' read -r d s why; do
		printf '  %-12s %s: %s\n' "$s" "$([ "$d" = run ] && echo run || echo skipped)" "$why"
	done <"$res/plan"
	[ "$smoke" = 1 ] && echo "  smoke        run: every landing (kernel $k_new)"
}

build_image() {
	t0=$SECONDS
	IOSTRAT_LAB_IMAGE=$("$LAB_TOP/image.sh") || exit 1
	export IOSTRAT_LAB_IMAGE
	echo "lab: image ready in $((SECONDS - t0)) s ($IOSTRAT_LAB_IMAGE)"
}

# Every guest of this check runs from $res/runs, and every `lab run` it
# starts leaves its pid in $res/pids.  Interrupted (Ctrl-C, or a SIGTERM to
# this script alone), it stops those lab runs -- each then kills its guest
# and removes its files -- and waits for them before removing $res.
make_run_dir() {
	res=$(mktemp -d /tmp/iostrat-lab-check.XXXXXX)
	export IOSTRAT_LAB_RUNS=$res/runs
	mkdir -p "$IOSTRAT_LAB_RUNS" "$res/pids"
	trap 'stop_guests; rm -rf "$res"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	: >"$res/results"   # KERNEL<TAB>CHECK<TAB>PASS|FAIL|SKIP<TAB>why
	: >"$res/facts"     # KERNEL<TAB>KEY<TAB>VALUE
}
stop_guests() {
	local f p i
	for f in "$res"/pids/*; do
		[ -e "$f" ] && kill -TERM "${f##*/}" 2>/dev/null
	done
	for i in $(seq 30); do
		p=0
		for f in "$res"/pids/*; do
			[ -e "$f" ] && kill -0 "${f##*/}" 2>/dev/null && p=1
		done
		[ "$p" = 0 ] && break
		sleep 0.5
	done
}
# lab_bg ARGS: `lab run ARGS` in the background, its pid in LAB_PID.
lab_bg() { "$LAB_TOP/lab" run "$@" & LAB_PID=$!; : >"$res/pids/$LAB_PID"; }
# lab_run ARGS: the same, waited for: wait returns at once when a signal
# comes, where a foreground child would be waited out first.
lab_run() {
	local rc=0
	lab_bg "$@"
	wait "$LAB_PID" || rc=$?
	rm -f "$res/pids/$LAB_PID"
	return "$rc"
}

record() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}" >>"$res/results"; }
# record_line TAG LINE [PREFIX]: a "PASS|FAIL|SKIP: PREFIXNAME[: why]" line
# of TAG's checks, shown and recorded as PREFIXNAME
record_line() {
	local pre=${3:-} st=${2%%:*} rest name why=
	echo "  [$1] $2"
	rest=${2#*: "$pre"}
	name=${rest%%: *}
	[ "$name" != "$rest" ] && why=${rest#*: }
	record "$1" "$pre$name" "$st" "$why"
}

# read_checks TAG PREFIX FILE: FILE's "PASS|FAIL|SKIP: PREFIXNAME..." lines
# recorded as TAG's, its TIMES and FACT lines shown
read_checks() {
	local line
	while IFS= read -r line; do
		case $line in
		PASS:*|FAIL:*|SKIP:*) record_line "$1" "$line" "$2" ;;
		TIMES:*) echo "  [$1] $line" ;;
		FACT:*) echo "  [$1] ${line#FACT: }" ;;
		esac
	done <"$3"
}

# --- beside the matrix: the reboot lab, then the fleet lab --------------------
# lab/reboot.sh (the reboot queue through GRUB and real boots; with the
# whole matrix, or IOSTRAT_LAB_REBOOT=1; =0 skips) and lab/fleet.sh (the
# fleet playbook against two guests; IOSTRAT_LAB_FLEET likewise), one after
# the other, beside the matrix, each from its own directory: the matrix's
# guests left one of the two host CPUs idle most of the time (the whole
# check: 90% of one CPU), and run one after the other the reboot lab alone
# took 6.5 min on top (379 s of 1044).  Not both beside the matrix at once:
# four guest vCPUs on two host CPUs made boots miss their timeouts.  Their
# results are read after the matrix.
# side_labs: each in turn, its output in $res/NAME.out/.err, "EXIT SECONDS"
# in $res/NAME.rc; a TERM (stop_guests) reaches the one running, and every
# process of it: each is its own process group (setsid), so a disk being
# built in the foreground of reboot.sh or fleet.sh gets it too, where the
# script's own trap would wait for that child to end first (minutes).
side_labs() {
	local s pid t rc
	trap '[ -n "${pid:-}" ] && kill -TERM -- "-$pid" 2>/dev/null && wait "$pid"; exit 143' TERM
	for s in "${side[@]}"; do
		t=$SECONDS rc=0
		setsid "$LAB_TOP/${s#*:}" >"$res/${s%%:*}.out" 2>"$res/${s%%:*}.err" &
		pid=$!
		wait "$pid" || rc=$?
		echo "$rc $((SECONDS - t))" >"$res/${s%%:*}.rc"
	done
}
start_side_labs() {
	side=()
	[ "$reboot_lab" = 1 ] && side+=(grub:reboot.sh)
	[ "$fleet_lab" = 1 ] && side+=(fleet:fleet.sh)
	side_pid=
	if [ ${#side[@]} -gt 0 ]; then
		side_labs &
		side_pid=$!; : >"$res/pids/$side_pid"
		echo "== beside the matrix, one after the other: ${side[*]%%:*} (${side[*]#*:})"
	fi
}

# --- the harness itself, on the first kernel -----------------------------------
# The harness checks look at $res/runs, not the lab's runs/: other guests
# (another checkout's check) may be running from there.
runs_left() { find "$IOSTRAT_LAB_RUNS" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
guests_left() { pgrep -f "qemu-system-x86_64 .*$IOSTRAT_LAB_RUNS/" | wc -l; }
harness() { # NAME FUNC: a host-side check of lab run (exit 77: SKIP)
	local why rc=0
	why=$("$2" 2>&1) || rc=$?
	why=$(printf '%s\n' "$why" | tail -n 1)
	case $rc in
	0) record "$k0" "$1" PASS; echo "  [$k0] PASS: $1" ;;
	77) record "$k0" "$1" SKIP "$why"; echo "  [$k0] SKIP: $1: $why" ;;
	*) record "$k0" "$1" FAIL "$why"; echo "  [$k0] FAIL: $1: $why" ;;
	esac
}
# sigint_ignored: this script was started with SIGINT ignored (a background
# job of a shell without job control, nohup ... &): its children cannot
# trap it, so no Ctrl-C can reach a lab run from here
sigint_ignored() {
	local mask
	mask=$(awk '/^SigIgn:/ { print $2 }' /proc/self/status)
	(( (16#$mask & 2) != 0 ))
}
run_round_trip() {
	local rc=0
	lab_run -k "$k0" -g made/f -o "$res/rt" -- \
		'echo to-stdout; echo to-stderr >&2; mkdir made; uname -r >made/f; exit 3' \
		>"$res/rt.out" 2>"$res/rt.err" || rc=$?
	[ "$rc" -eq 3 ] || { echo "exit $rc, expected the command's 3: $(tail -n 1 "$res/rt.err")"; return 1; }
	grep -qx to-stdout "$res/rt.out" || { echo "stdout lost"; return 1; }
	grep -qx to-stderr "$res/rt.err" || { echo "stderr lost"; return 1; }
	grep -q "^$k0" "$res/rt/made/f" 2>/dev/null || { echo "file not brought back, or wrong kernel"; return 1; }
}
run_timeout() {
	local rc=0 n0
	n0=$(compgen -G "$LAB_DIR/failed/*" | wc -l)
	lab_run -k "$k0" -t 15 -- 'sleep 1000' >/dev/null 2>"$res/to.err" || rc=$?
	[ "$rc" -eq 125 ] || { echo "exit $rc, expected 125"; return 1; }
	grep -q 'killed after the 15 s timeout; console log: ' "$res/to.err" || { echo "no message: $(cat "$res/to.err")"; return 1; }
	[ "$(compgen -G "$LAB_DIR/failed/*" | wc -l)" -gt "$n0" ] || { echo "console log not kept"; return 1; }
	[ "$(guests_left)" -eq 0 ] || { echo "a guest is still running"; return 1; }
	[ "$(runs_left)" -eq 0 ] || { echo "run directory left behind"; return 1; }
}
run_interrupted() {
	local rc=0 pid
	if sigint_ignored; then
		echo "SIGINT is ignored by whatever started make check-lab (a background job without job control)"
		return 77
	fi
	# Job control on: a background job of a script ignores SIGINT otherwise.
	# Ctrl-C signals the whole foreground process group: so does this.
	set -m
	lab_bg -k "$k0" -- 'sleep 1000' >/dev/null 2>&1
	pid=$LAB_PID
	set +m
	sleep 8 # the guest booting, not yet running the command
	kill -INT -- "-$pid"
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ] || { echo "exit $rc after SIGINT, expected 130"; return 1; }
	for _ in $(seq 20); do [ "$(guests_left)" -eq 0 ] && break; sleep 0.1; done
	[ "$(guests_left)" -eq 0 ] || { echo "a guest is still running"; return 1; }
	[ "$(runs_left)" -eq 0 ] || { echo "run directory left behind"; return 1; }
}
run_forward() {
	# A port on 127.0.0.1 of the host reaches the guest (QEMU user
	# networking, restrict=on): iostrat net across it, verified both sides.
	local port=$((20000 + $$ % 20000)) pid rc=1 i
	# A client that came early (QEMU accepts on the host before the guest
	# listens) can leave the guest's server a dead connection: the server
	# starts again until one stream went through.
	lab_bg -k "$k0" -t 300 --forward "$port:7000" -- \
		'for i in $(seq 20); do iostrat net --listen 0.0.0.0:7000 --once && exit 0; done; exit 1' \
		>"$res/fw.out" 2>"$res/fw.err"
	pid=$LAB_PID
	for i in $(seq 150); do
		sleep 2
		kill -0 "$pid" 2>/dev/null || break
		if "$IOSTRAT" net --connect "127.0.0.1:$port" --mode buffered --count 2000 --reps 1 \
			--timeout 20 --out "$res/fw-net.$i" >"$res/fw-client" 2>&1; then
			rc=0
			break
		fi
	done
	wait "$pid" || { echo "guest: exit $?: $(tail -n 1 "$res/fw.err")"; return 1; }
	[ "$rc" -eq 0 ] || { echo "no connection through --forward: $(tail -n 1 "$res/fw-client")"; return 1; }
	grep -q 'one-way, 2000 messages' "$res/fw.out" || { echo "the guest's server saw no stream: $(tail -n 2 "$res/fw.out")"; return 1; }
}
check_harness() {
	k0=${all_kernels[0]}
	echo "== lab run ($k0)"
	harness "lab run: output, files, exit status" run_round_trip
	harness "lab run: hard timeout" run_timeout
	harness "lab run: Ctrl-C cleans up" run_interrupted
	harness "lab run: --forward reaches the guest" run_forward
}

# userspace_kernel K: K is the first or the last kernel of the check, whose
# guests also run the checks of code that does not change with the kernel
# (gen, bench, report, plot: guest-checks.sh's userspace) and whose bench
# results the host compares
userspace_kernel() { [ "$1" = "${kernels[0]}" ] || [ "$1" = "${kernels[-1]}" ]; }

# check_kernel K: the guest checks (lab/guest-checks.sh) on kernel K
check_kernel() {
	local k=$1 t1 rc took line rest key us=0
	echo "== $k"
	userspace_kernel "$k" && us=1
	t1=$SECONDS rc=0
	lab_run -k "$k" -t "${IOSTRAT_LAB_CHECK_TIMEOUT:-1200}" \
		-f "$LAB_TOP/guest-checks.sh" -f "$LAB_TOP/guest-trace.sh" -f "$LAB_TOP/lab.ini" -f "$TOP/tests/lib.sh" -o "$res/$k" \
		-- "LAB_USERSPACE=$us bash guest-checks.sh" >"$res/$k.out" 2>"$res/$k.err" || rc=$?
	took=$((SECONDS - t1))
	while IFS= read -r line; do
		case $line in
		PASS:*|FAIL:*|SKIP:*) record_line "$k" "$line" ;;
		"    | "*) echo "  [$k] $line" ;;
		TIME:*)
			rest=${line#TIME: }
			printf '%s\t%s\t%s\n' "$k" "${rest%: *}" "${rest##*: }" >>"$res/times" ;;
		FACT:*)
			# shellcheck disable=SC2086 # "FACT: KEY VALUE...", split into words
			set -- ${line#FACT: }
			key=$1; shift
			printf '%s\t%s\t%s\n' "$k" "$key" "$*" >>"$res/facts" ;;
		esac
	done <"$res/$k.out"
	if [ "$rc" -eq 0 ]; then
		echo "  [$k] PASS: boot, run, power off (${took} s)"
		record "$k" "boot and run" PASS
	else
		echo "  [$k] FAIL: boot and run: lab run exited $rc after ${took} s: $(tail -n 2 "$res/$k.err" | tr '\n' ' ')"
		record "$k" "boot and run" FAIL "lab run exited $rc"
	fi
	printf '%s\t%s\t%s\n' "$k" guest_s "$took" >>"$res/facts"
}

# --- the Debian package, on one kernel (bookworm's when it is in the list) ---
# make deb's package installed in a guest with no checkout: run, man, plot,
# the unit, apt remove and purge (lab/guest-package.sh).  About a minute.
pkg_deb() {
	local rc=0
	lab_fresh_deb "$res/deb" >/dev/null || rc=$?
	cat "$res/deb/build.log"
	return "$rc"
}
check_package() {
	local k kp t1 rc
	kp=${all_kernels[0]}
	for k in "${all_kernels[@]}"; do [ "$k" = 6.1 ] && kp=$k; done
	echo "== package ($kp)"
	if [ -n "${IOSTRAT_LAB_NO_PACKAGE:-}" ]; then
		record "$kp" "package" SKIP "IOSTRAT_LAB_NO_PACKAGE set"
	elif ! command -v dh >/dev/null || ! command -v scdoc >/dev/null; then
		record "$kp" "package" SKIP "needs debhelper and scdoc to build it (make deps)"
		echo "  [$kp] SKIP: package: needs debhelper and scdoc to build it (make deps)"
	elif ! pkg_deb >"$res/deb.log" 2>&1; then
		record "$kp" "package" FAIL "make deb: $(tail -n 1 "$res/deb.log")"
		echo "  [$kp] FAIL: package: make deb: $(tail -n 1 "$res/deb.log")"
	else
		t1=$SECONDS rc=0
		lab_run -k "$kp" -t 600 -f "$(compgen -G "$res/deb/iostrat_*.deb" | head -n 1)" -f "$LAB_TOP/guest-package.sh" \
			-- 'bash guest-package.sh' >"$res/pkg.out" 2>"$res/pkg.err" || rc=$?
		read_checks "$kp" "package: " "$res/pkg.out"
		[ "$rc" -eq 0 ] || { record "$kp" "package: guest" FAIL "lab run exited $rc"; echo "  [$kp] FAIL: package: lab run exited $rc: $(tail -n 1 "$res/pkg.err")"; }
		printf '%s\t%s\t%s\n' "$kp" package_s "$((SECONDS - t1))" >>"$res/facts"
	fi
}

# --- a fresh root: the README's first command on a machine made from nothing ---
# lab/fresh-root.sh: a minimal bookworm chroot, make run at a small scale
# (traced, kernel view) and the commands-in-deps check.  In the matrix's
# stream, which has the slack (the side stream is the longer one): no
# guest of its own, one host CPU.  With the whole matrix, or
# IOSTRAT_LAB_FRESH=1 (=0 skips).
check_fresh_root() {
	local t1 rc fpid
	echo "== fresh root"
	t1=$SECONDS rc=0
	"$LAB_TOP/fresh-root.sh" >"$res/fresh.out" 2>"$res/fresh.err" & fpid=$!; : >"$res/pids/$fpid"
	wait "$fpid" || rc=$?
	rm -f "$res/pids/$fpid"
	# "PASS: fresh root: NAME" or "FAIL: fresh root: NAME: why"
	read_checks fresh "fresh root: " "$res/fresh.out"
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL:' "$res/fresh.out"; then
		record fresh "lab/fresh-root.sh" FAIL "exited $rc: $(tail -n 1 "$res/fresh.err")"
		echo "  [fresh] FAIL: lab/fresh-root.sh: exited $rc: $(tail -n 1 "$res/fresh.err")"
	fi
	echo "  [fresh] lab/fresh-root.sh took $((SECONDS - t1)) s"
}

# compare of two kernels' results, on the host: the first kernel's bench
# against the last's, each way (the kernels between run no bench).
compare_kernels() {
	local n k o a b
	n=${#kernels[@]}
	for k in "${kernels[0]}" "${kernels[-1]}"; do
		[ "$n" -ge 2 ] || { record "$k" "compare two kernels" SKIP "one kernel only"; break; }
		o=${kernels[0]}
		[ "$k" = "$o" ] && o=${kernels[-1]}
		a=$res/$o/bench b=$res/$k/bench
		if [ ! -s "$a/results.jsonl" ] || [ ! -s "$b/results.jsonl" ]; then
			record "$k" "compare two kernels" FAIL "no bench results from $o or $k"
			echo "  [$k] FAIL: compare two kernels: no bench results"
			continue
		fi
		if "$IOSTRAT" compare "$a" "$b" >"$res/cmp-$k.txt" 2>&1 &&
			grep -qF -- "$(awk -F'\t' -v k="$k" '$1 == k && $2 == "kernel" { print $3 }' "$res/facts")" "$res/cmp-$k.txt" &&
			"$IOSTRAT" plot --compare "$a" "$b" -o "$res/cmp-$k" >/dev/null 2>&1 &&
			[ -s "$res/cmp-$k/plots/compare.png" ]; then
			record "$k" "compare two kernels" PASS
			echo "  [$k] PASS: compare two kernels (with $o)"
		else
			record "$k" "compare two kernels" FAIL "compare/plot --compare with $o: $(tail -n 1 "$res/cmp-$k.txt")"
			echo "  [$k] FAIL: compare two kernels (with $o): $(tail -n 1 "$res/cmp-$k.txt")"
		fi
	done
}

# --- the side labs' results (started before the matrix) ------------------------
collect_side_labs() {
	local s tag script rc took
	echo "== beside the matrix: ${side[*]%%:*} (waiting for them)"
	wait "$side_pid"; rm -f "$res/pids/$side_pid"
	for s in "${side[@]}"; do
		tag=${s%%:*} script=lab/${s#*:}
		[ -f "$res/$tag.out" ] && read_checks "$tag" "" "$res/$tag.out"
		read -r rc took <"$res/$tag.rc" 2>/dev/null || { rc=never took=0; }
		printf '%s\t%s\n' "$([ "$tag" = grub ] && echo reboot || echo "$tag")" "$took" >>"$res/stage_secs"
		if [ "$rc" != 0 ] && ! grep -q '^FAIL:' "$res/$tag.out" 2>/dev/null; then
			record "$tag" "$script" FAIL "exited $rc: $(tail -n 1 "$res/$tag.err" 2>/dev/null)"
			echo "  [$tag] FAIL: $script: exited $rc: $(tail -n 1 "$res/$tag.err" 2>/dev/null)"
		fi
		echo "  [$tag] $script took $took s (beside the matrix)"
	done
}

# --- the matrix ---------------------------------------------------------------
cell() { awk -F'\t' -v k="$1" -v c="$2" '$1 == k && $2 == c { print $3; f = 1; exit } END { if (!f) print "-" }' "$res/results"; }
# every fact key a check recorded, in the order first recorded
fact_keys() { awk -F'\t' '!seen[$2]++ { print $2 }' "$res/facts"; }
fact_of() { awk -F'\t' -v k="$1" -v f="$2" '$1 == k && $2 == f { print $3; exit }' "$res/facts"; }
# matrix_columns: the kernels with a result (guest stages, and the kernels
# the package and lab run checks used), in kernels.conf's order
matrix_columns() {
	local k
	cols=()
	for k in "${all_kernels[@]}"; do
		awk -F'\t' -v k="$k" '$1 == k { f = 1 } END { exit !f }' "$res/results" && cols+=("$k")
	done
}
write_matrix() {
	local checks c k f
	matrix_columns
	[ ${#cols[@]} -gt 0 ] || { echo "(no kernel's checks ran: every guest stage's proof stood)" >"$res/matrix.md"; return; }
	# the side labs' and the smoke's checks are not per kernel: listed above, counted below
	mapfile -t checks < <(awk -F'\t' '$1 != "grub" && $1 != "fleet" && $1 != "fresh" && $1 != "smoke" { print $2 }' "$res/results" | awk '!seen[$0]++')
	{
		echo "| check | $(printf '%s | ' "${cols[@]}")" | sed 's/ $//' 
		echo "|---|$(printf -- '---|%.0s' "${cols[@]}")"
		for c in "${checks[@]}"; do
			printf '| %s |' "$c"
			for k in "${cols[@]}"; do printf ' %s |' "$(cell "$k" "$c")"; done
			echo
		done
		for f in $(fact_keys); do
			printf '| *%s* |' "$f"
			for k in "${cols[@]}"; do printf ' %s |' "$(fact_of "$k" "$f" | sed 's/|/\\|/g')"; done
			echo
		done
	} >"$res/matrix.md"
}

print_matrix() {
	local k f v
	echo
	echo "lab matrix ($(date -u +%F), $(cat "$LAB_DIR"/accel.* 2>/dev/null | head -n 1), $((SECONDS - t0)) s):"
	grep -v '^| \*' "$res/matrix.md" | grep -v '^|---' | sed 's/^| //; s/ |$//' |
		awk -F' [|] ' '{ printf "  %-36s", $1; for (i = 2; i <= NF; i++) printf " %-8s", $i; print "" }'
	echo
	for k in "${cols[@]}"; do
		echo "  $k: $(fact_of "$k" kernel)"
		for f in $(fact_keys); do
			v=$(fact_of "$k" "$f")
			[ "$f" = kernel ] || [ -z "$v" ] || printf '       %s: %s\n' "$f" "$v"
		done
	done
	# where a guest's time goes: the checks that took 10 s or more on a kernel
	if [ -s "$res/times" ]; then
		echo
		echo "  seconds per check, the checks of 10 s or more (TCG: the lab's budget, not a measurement):"
		awk -F'\t' -v ks="${kernels[*]}" '
			{ s[$2, $1] = $3; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } if ($3 >= 10) big[$2] = 1 }
			END { nk = split(ks, k, " "); printf "  %-56s", ""; for (j = 1; j <= nk; j++) printf " %5s", k[j]; printf "\n"
				for (i = 1; i <= n; i++) { c = order[i]; if (!(c in big)) continue
					printf "  %-56s", c; for (j = 1; j <= nk; j++) printf " %5s", s[c, k[j]]; printf "\n" } }' "$res/times"
	fi
	mkdir -p "$LAB_DIR" && cp "$res/matrix.md" "$LAB_DIR/last-check.md"
}

summary() {
	local p f s
	p=$(awk -F'\t' '$3 == "PASS"' "$res/results" | wc -l)
	f=$(awk -F'\t' '$3 == "FAIL"' "$res/results" | wc -l)
	s=$(awk -F'\t' '$3 == "SKIP"' "$res/results" | wc -l)
	if [ "$f" -gt 0 ]; then
		echo
		echo "failures:"
		awk -F'\t' '$3 == "FAIL" { printf "  [%s] %s: %s\n", $1, $2, $4 }' "$res/results"
	fi
	echo
	echo "$p passed, $f failed, $s skipped"
	[ "$f" -eq 0 ]
}

# --- the smoke: every landing meets the newest kernel -------------------------
# lab/guest-smoke.sh: every strategy once, traced and verified, in the newest
# kernel's guest (IOSTRAT_LAB_SMOKE=0 skips it).  About a minute under TCG.
check_smoke() {
	local rc=0
	echo "== smoke ($k_new)"
	lab_run -k "$k_new" -t 600 -f "$LAB_TOP/guest-smoke.sh" -- 'bash guest-smoke.sh' \
		>"$res/smoke.out" 2>"$res/smoke.err" || rc=$?
	read_checks smoke "smoke: " "$res/smoke.out"
	[ "$rc" -eq 0 ] || { record smoke "boot and run" FAIL "lab run exited $rc"; echo "  [smoke] FAIL: boot and run: lab run exited $rc: $(tail -n 1 "$res/smoke.err")"; }
}

# --- stages: their time, their outcome, their proofs ----------------------------
# timed_stage STAGE FUNC ARGS: FUNC, its seconds in $res/stage_secs
timed_stage() {
	local st=$1 t1=$SECONDS; shift
	"$@"
	printf '%s\t%s\n' "$st" "$((SECONDS - t1))" >>"$res/stage_secs"
}
# stage_fails STAGE: its FAIL lines in $res/results (a kernel's tag holds its
# guest checks, and the package's and lab run's, named so)
stage_fails() {
	awk -F'\t' -v s="$1" '$3 == "FAIL" {
		if ($2 ~ /^package: /) st = "package"; else if ($2 ~ /^lab run: /) st = "lab-run"
		else if ($1 == "fresh") st = "fresh-root"; else if ($1 == "grub") st = "reboot"
		else if ($1 == "fleet" || $1 == "smoke") st = $1; else st = "guest-" $1
		if (st == s) n++ } END { print n + 0 }' "$res/results"
}
stage_passes() { awk -F'\t' -v s="$1" '$1 == s { f = 1 } END { exit !f }' "$res/stage_secs" && [ "$(stage_fails "$1")" -eq 0 ]; }
# record_proofs: lab/proof.tsv for every stage that ran and passed
# (IOSTRAT_LAB_RECORD=0: none)
record_proofs() {
	local st secs
	[ "${IOSTRAT_LAB_RECORD:-1}" = 0 ] && return 0
	while IFS=$'\t' read -r st secs; do
		[ "$st" = smoke ] && continue
		stage_passes "$st" && "$LAB_TOP/stages.sh" record "$st" "$secs" \
			"$(awk -F'\t' -v s="$st" '$1 == s { print $2 }' "$res/hashes")"
	done <"$res/stage_secs"
}
# print_stages: "stage: NAME: ran ... | skipped ..." for each (CI prints them)
print_stages() {
	local d st why secs
	echo
	while IFS=$'\t' read -r d st why; do
		if [ "$d" = run ]; then
			secs=$(awk -F'\t' -v s="$st" '$1 == s { print $2 }' "$res/stage_secs")
			echo "stage: $st: ran ($why): $( [ "$(stage_fails "$st")" -eq 0 ] && echo passed || echo FAILED) in ${secs:-?} s"
		else
			echo "stage: $st: skipped ($why)"
		fi
	done <"$res/plan"
	[ "$smoke" = 1 ] && echo "stage: smoke: ran (every landing, $k_new): $( [ "$(stage_fails smoke)" -eq 0 ] && echo passed || echo FAILED) in $(awk -F'\t' '$1 == "smoke" { print $2 }' "$res/stage_secs") s"
}

main() {
	preflight
	make_run_dir
	pick_stages "$@"
	print_plan
	build_image
	start_side_labs
	[ "$run_harness" = 1 ] && timed_stage lab-run check_harness
	for k in "${kernels[@]}"; do
		timed_stage "guest-$k" check_kernel "$k"
	done
	[ "$run_package" = 1 ] && timed_stage package check_package
	[ "$fresh_root" = 1 ] && timed_stage fresh-root check_fresh_root
	[ "$smoke" = 1 ] && timed_stage smoke check_smoke
	[ ${#kernels[@]} -gt 0 ] && compare_kernels
	if [ -n "$side_pid" ]; then
		collect_side_labs
	fi
	record_proofs
	write_matrix
	print_matrix
	print_stages
	summary
}
main "$@"; exit $?
