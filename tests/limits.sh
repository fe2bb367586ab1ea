#!/usr/bin/env bash
# iostrat limits and the limits kind: the rows keep their contract (every
# column, its type), outputs are verified, a recent run of the same key is
# reused and one of another kernel, filesystem, data set or machine is
# not, bad input is one line, and Ctrl-C leaves no file behind.
. "$(dirname "$0")/lib.sh"

mkdata() { "$IOSTRAT" gen "$T/${1:-in}" --files 3 --lines "${2:-1500}" --width 500 >/dev/null; }

# The limits need O_DIRECT where the test's files are (not on tmpfs).
need_direct() {
	dd if=/dev/zero of="$T/.direct" bs=4096 count=1 oflag=direct 2>/dev/null ||
		skip "no O_DIRECT on $T's filesystem"
	rm -f "$T/.direct"
}

limits() { "$IOSTRAT" limits --dataset "$T/in" "$@"; }

rows_follow_the_contract() {
	need_direct
	mkdata
	limits --work 0,7 --reps 1 --out "$T/r" >"$T/table" 2>"$T/err" || die "$(cat "$T/err")"
	total=$(cat "$T"/in/* | wc -c)
	jq -se --argjson total "$total" '
		def num: type == "number";
		length == 7 and all(.[];
			.kind == "limits" and .error == null and .verified == true
			and (.limit | IN("read_direct", "write_new_buffered", "write_new_direct",
				"pagecache_copy", "copy_file_range", "transform"))
			and (.work | num) and (.limit == "transform" or .work == 0)
			and .bytes == $total and (.elapsed_s | num) and .elapsed_s > 0
			and ((.mb_s - .bytes / 1e6 / .elapsed_s) | fabs) < 1e-6 * .mb_s
			and (.cpu_user_s | num) and (.cpu_sys_s | num)
			and .fsync == "file" and .dataset == "in"
			and .cache == (if .limit == "pagecache_copy" then "warm" else "cold" end)
			and ((.qd | num) == (.limit == "read_direct"))
			and ((.bs | num) == (.limit != "transform"))
			and (.config_id | type == "string") and (.round | num) and .rep == 1
			and .run_id == "r" and (.measured_at | num)
			and (.machine_id | type == "string") and (.kernel | type == "string")
			and (has("fs") and has("device") and has("host")))
		and ([.[] | select(.limit == "transform") | .work] | sort) == [0, 7]' \
		"$T/r/results.jsonl" >/dev/null || die "rows: $(head -n 1 "$T/r/results.jsonl")"
	# every column a line of the column table
	cols=$("$IOSTRAT" __columns | cut -f1)
	for c in limit work bytes elapsed_s mb_s cpu_user_s cpu_sys_s fsync qd bs dataset \
		cache config_id round rep run_id reused_from machine_id measured_at; do
		grep -qx "$c" <<<"$cols" || die "$c: no line in the column table"
	done
	grep -q '^limit  *MB/s  *interval  *n  *CPU s/GB$' "$T/table" || die "no table: $(cat "$T/table")"
	[ "$(grep -c 'min-max' "$T/table")" -eq 7 ] || die "not 7 limits: $(cat "$T/table")"
}

# The transform's output is checked against the reference, the copies'
# against the input: a reference of another W fails the row.
copies_and_transform_verified() {
	need_direct
	mkdata
	limits --limits pagecache_copy,copy_file_range,transform --work 3 --reps 1 \
		--out "$T/r" >/dev/null 2>&1 || die "limits failed"
	jq -se 'length == 3 and all(.[]; .verified == true)' "$T/r/results.jsonl" >/dev/null ||
		die "not verified: $(cat "$T/r/results.jsonl")"
}

# A fixture: DIR's rows as another results directory, FILTER applied.
fixture() { # FROM TO FILTER
	mkdir -p "$2"
	jq -c "$3" "$1/results.jsonl" >"$2/results.jsonl"
}

reused_in() { jq -s '[.[] | select(.reused_from != null)] | length' "$1/results.jsonl"; }

reuse_for_the_same_key() {
	need_direct
	mkdata
	mkdir "$T/res"
	limits --limits read_direct,transform --reps 2 --out "$T/res/a" >/dev/null 2>&1 || die "first"
	limits --limits read_direct,transform --reps 2 --reuse 24h --out "$T/res/b" \
		>"$T/table" 2>&1 || die "second"
	[ "$(reused_in "$T/res/b")" -eq 4 ] || die "not reused: $(cat "$T/res/b/results.jsonl")"
	jq -se --arg a "$T/res/a" 'all(.[]; .reused_from == $a and .run_id == "b")' \
		"$T/res/b/results.jsonl" >/dev/null || die "reused_from: $(head -n 1 "$T/res/b/results.jsonl")"
	grep -q reused "$T/table" || die "the table does not say reused"
	# no window: measured again
	limits --limits read_direct --reps 1 --out "$T/res/c" >/dev/null 2>&1 || die "third"
	[ "$(reused_in "$T/res/c")" -eq 0 ] || die "reused without reuse="
}

reuse_not_for_another_key() {
	need_direct
	mkdata
	mkdata in2 1600
	mkdir "$T/res"
	limits --limits transform --reps 1 --out "$T/a" >/dev/null 2>&1 || die "first"
	fixture "$T/a" "$T/res/kernel" '.kernel = "0.0.1-other"'
	fixture "$T/a" "$T/res/fs" '.fs = "xfs" | .device = "sdz"'
	fixture "$T/a" "$T/res/old" '.measured_at -= 90000'
	limits --limits transform --reps 1 --reuse 24h --out "$T/res/b" >/dev/null 2>&1 || die "b"
	[ "$(reused_in "$T/res/b")" -eq 0 ] || die "reused another kernel, fs or an old run"
	fixture "$T/a" "$T/res/same" '.'
	IOSTRAT_FAKE_MACHINE_ID=another limits --limits transform --reps 1 --reuse 24h \
		--out "$T/res/c" >/dev/null 2>&1 || die "c"
	[ "$(reused_in "$T/res/c")" -eq 0 ] || die "reused another machine's"
	"$IOSTRAT" limits --dataset "$T/in2" --limits transform --reps 1 --reuse 24h \
		--out "$T/res/d" >/dev/null 2>&1 || die "d"
	[ "$(reused_in "$T/res/d")" -eq 0 ] || die "reused another data set's"
	limits --limits transform --reps 1 --reuse 24h --out "$T/res/e" >/dev/null 2>&1 || die "e"
	[ "$(reused_in "$T/res/e")" -eq 1 ] || die "the same key was not reused"
}

bad_input_one_line() {
	mkdata
	expect_fail "limit: bad value 'fast'" limits --limits fast --out "$T/r1"
	expect_fail 'empty W list' limits --work '' --out "$T/r2"
	expect_fail 'empty W list' limits --work ',' --out "$T/r3"
	expect_fail "reuse: bad value '3x'" limits --reuse 3x --out "$T/r4"
	expect_fail 'limits: -D =1: want KEY=VALUE' limits -D =1 --out "$T/r6"
	# a -D value of any length reaches the configuration whole (a 256-byte
	# copy cut it short)
	local long
	long=$(printf 'x%.0s' $(seq 300))
	expect_fail "qd: bad value '$long'" limits --limits transform -D "qd=$long" --out "$T/r7"
	IOSTRAT_FAKE_FREE_BYTES=1000 expect_fail \
		'no free space for write_new_buffered.s new files' limits --out "$T/r5"
	for d in r1 r2 r3 r4 r5 r6 r7; do
		[ ! -s "$T/$d/results.jsonl" ] || die "$d: rows written"
	done
}

sigint_leaves_no_files() {
	need_direct
	"$IOSTRAT" gen "$T/in" --files 20 --lines 10000 --width 200 >/dev/null
	names_in "$T" >"$T/.before"
	"$IOSTRAT" limits --dataset "$T/in" --fsync file --reps 50 --out "$T/r" \
		--limits write_new_buffered,pagecache_copy,copy_file_range >/dev/null 2>&1 &
	pid=$!
	sleep 2
	kill -INT "$pid"
	rc=0; wait "$pid" || rc=$?
	[ "$rc" -eq 130 ] || die "exit $rc, not 130"
	# only in/ and the results directory; no output or scratch file anywhere
	left=$(find "$T" -path "$T/in" -prune -o -path "$T/r" -prune -o -mindepth 1 \
		! -name .before -print)
	[ -z "$left" ] || die "left behind: $left"
	find "$T/r" -type f | grep -Ev '/(results\.jsonl|results\.csv|summary\.csv|env\.json|data\.json|\.lock)$' &&
		die "files in the results directory"
	true
}

t limits_rows_follow_the_contract rows_follow_the_contract
t limits_copies_and_transform_verified copies_and_transform_verified
t limits_reuse_for_the_same_key reuse_for_the_same_key
t limits_reuse_not_for_another_kernel_fs_dataset_machine_or_window reuse_not_for_another_key
t limits_bad_input_one_line_no_rows bad_input_one_line
t limits_sigint_leaves_no_files sigint_leaves_no_files
