#!/usr/bin/env bash
# The bad-input matrix: every subcommand against bad inputs.  For each:
# non-zero exit, at most a short message naming the thing and the reason,
# no crash (signal, sanitizer report), no hang (30 s), inputs unmodified,
# no result file left claiming success.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/caps.inc"

setup() {
	"$IOSTRAT" gen "$T/in" --files 3 --lines 50 --width 40 >/dev/null
	INSUM=$(cd "$T/in" && cat ./* | md5sum)
}

# bad REGEX CMD...: the checks above
bad() {
	[ "$1" != -- ] || shift # `bad -- '--opt: ...' CMD`: the regex may start with --
	local re=$1; shift
	local err rc=0
	err=$(timeout 30 "$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" -ne 124 ] || die "hung: $*"
	[ "$rc" -lt 128 ] || die "crashed with signal $((rc - 128)): $*"
	[ "$rc" -ne 0 ] || die "exit 0 for bad input: $*"
	! printf '%s\n' "$err" | grep -Eq 'runtime error|Sanitizer|Segmentation' || die "sanitizer/crash: $err"
	printf '%s\n' "$err" | grep -Eq -- "$re" || die "message does not match /$re/: $err"
	[ "$(printf '%s\n' "$err" | grep -c .)" -le 3 ] || die "not a short message: $err"
	[ "$(cd "$T/in" && cat ./* | md5sum)" = "$INSUM" ] || die "input modified by: $*"
}

profile() { printf '%s\n' "$@" >"$T/p.ini"; }

# --- gen
gen_missing_dir() { setup; bad 'DIR is required' "$IOSTRAT" gen --preset small; }
gen_unknown_preset() { setup; bad 'bogus: unknown preset' "$IOSTRAT" gen "$T/g" --preset bogus; }
gen_negative_scale() { setup; bad -- "--scale: bad value '-1'" "$IOSTRAT" gen "$T/g" --preset small --scale -1; }
gen_zero_files() { setup; bad -- '--files: bad value' "$IOSTRAT" gen "$T/g" --files 0 --lines 1 --width 1; }
gen_count_not_a_size() { setup; bad -- "--files: bad value '1e9' \(a whole number like" "$IOSTRAT" gen "$T/g" --files 1e9 --lines 1 --width 1; }
gen_zero_lines_with_width() { setup; bad -- '--lines 0 makes empty files, which have no width' "$IOSTRAT" gen "$T/g" --files 1 --lines 0 --width 5; }
gen_missing_width() { setup; bad -- '--files, --lines and --width are all needed' "$IOSTRAT" gen "$T/g" --files 1 --lines 3; }
gen_foreign_dir() { setup; bad 'not empty and not an iostrat data set' "$IOSTRAT" gen "$T/in/.." --preset small --scale 0.001; }
# gen never deletes what it did not write, and never reuses a changed data set
gen_new_params_keep_user_files() {
	setup; echo mine >"$T/in/NOTES.txt"; INSUM=$(cd "$T/in" && cat ./* | md5sum)
	bad "in: holds 'NOTES.txt', which is not part of the data set" "$IOSTRAT" gen "$T/in" --files 4 --lines 5 --width 5
	bad "in: holds 'NOTES.txt'" "$IOSTRAT" gen "$T/in" --files 3 --lines 50 --width 40
}
gen_new_params_keep_user_dirs() { setup; mkdir "$T/in/sub"; bad "in: holds 'sub'" "$IOSTRAT" gen "$T/in" --files 4 --lines 5 --width 5; [ -d "$T/in/sub" ] || die "sub deleted"; }
gen_added_file_refused() { setup; cp "$T/in/f000000.txt" "$T/in/f000003.txt"; INSUM=$(cd "$T/in" && cat ./* | md5sum); bad "in: holds 'f000003.txt'" "$IOSTRAT" gen "$T/in" --files 3 --lines 50 --width 40; }
gen_tampered_is_regenerated() { # not an error: a changed data set is made again, saying which file
	setup; local g="$IOSTRAT gen $T/in --files 3 --lines 50 --width 40" out
	echo more >>"$T/in/f000001.txt"
	out=$($g 2>&1) || die "gen failed: $out"
	echo "$out" | grep -q 'f000001.txt: 2055 bytes, the manifest says 2050' || die "not named: $out"
	[ "$(stat -c %s "$T/in/f000001.txt")" = 2050 ] || die "not regenerated"
	rm "$T/in/f000002.txt"; out=$($g 2>&1) || die "gen failed: $out"
	echo "$out" | grep -q '2 files, the manifest says 3' || die "missing file not named: $out"
	sleep 0.05 # an mtime newer than the manifest's (coarse clock): gen hashes again
	printf '\001' | dd of="$T/in/f000000.txt" bs=1 seek=3 conv=notrunc 2>/dev/null
	out=$($g 2>&1) || die "gen failed: $out"
	echo "$out" | grep -q "contents differ from the manifest's xxh3" || die "same-size change reused: $out"
	out=$($g 2>&1); echo "$out" | grep -q 'already there, reused' || die "intact set not reused: $out"
}
# no surprise disk use: checked before a byte is written
gen_too_big_for_the_disk() {
	need_root; setup; mkdir "$T/small"; mount -t tmpfs -o size=4m tmpfs "$T/small" || skip "no tmpfs"
	trap 'umount "$T/small"' EXIT
	bad 'd: the data set needs 10.[0-9] MB, and 10.0 MB more stay free .*MB free on .*small: refusing to start' "$IOSTRAT" gen "$T/small/d" --files 10 --lines 1000 --width 999
	[ -z "$(ls -A "$T/small")" ] || die "written anyway: $(ls -A "$T/small")"
	bad 'd: the data set needs' "$IOSTRAT" gen "$T/small/d" --files 1 --lines 2100 --width 999
}
run_outputs_too_big_for_the_disk() {
	need_root; setup; mkdir "$T/small"; mount -t tmpfs -o size=1m tmpfs "$T/small" || skip "no tmpfs"
	trap 'umount "$T/small"' EXIT
	"$IOSTRAT" gen "$T/big" --files 2 --lines 1000 --width 999 >/dev/null
	bad 'o: the outputs need 2.0 MB; .*MB free on .*small/o: refusing to start' "$IOSTRAT" run -s stream "$T/big" "$T/small/o" -r 1
	! names_in "$T/small/o" | grep -qvx .iostrat-output || die "outputs written anyway"
}
gen_concurrent_second_waits_and_reuses() { # not an error: the second gen waits for the first, then reuses its set
	setup; local g=("$IOSTRAT" gen "$T/cg" --files 4 --lines 50000 --width 100) r1=0 r2=0
	"${g[@]}" >"$T/o1" 2>&1 & local p1=$!
	"${g[@]}" >"$T/o2" 2>&1 || r2=$?
	wait $p1 || r1=$?
	[ $r1 = 0 ] && [ $r2 = 0 ] || die "a concurrent gen failed: $(cat "$T/o1" "$T/o2")"
	cat "$T/o1" "$T/o2" | grep -q 'already there, reused' || die "neither reused: $(cat "$T/o1" "$T/o2")"
	! names_in "$T" | grep -qE 'cg\.(tmp|old)-|gen-lock' || die "left behind: $(ls -A "$T")"
}
gen_concurrent_second_names_the_holder() { # the waiting gen says which process holds the set
	setup; local lock=$T/.cg.gen-lock r2=0 holder
	# a holder as a gen is one: the flock of .NAME.gen-lock, its PID inside
	( exec 9<>"$lock"; flock -x 9; echo "$BASHPID" >&9; echo "$BASHPID" >"$T/holder"; sleep 1 ) &
	for _ in $(seq 200); do [ -s "$T/holder" ] && break; sleep 0.01; done
	holder=$(cat "$T/holder")
	"$IOSTRAT" gen "$T/cg" --files 2 --lines 50 --width 10 >"$T/o2" 2>&1 || r2=$?
	wait
	[ $r2 = 0 ] || die "second gen failed: $(cat "$T/o2")"
	grep -q "cg: gen $holder (another iostrat) is making it; waiting" "$T/o2" || die "holder not named: $(cat "$T/o2")"
	[ "$(grep -c . "$T/o2")" -eq 2 ] || die "not one line for the wait: $(cat "$T/o2")"
}
bench_resume_regenerates_data_inside_out() { # the gen lock must not wait on the bench's own results lock
	setup; profile '[a]' 'strategy=stream,buffer' 'dataset=small' 'scale=0.001' 'reps=1'
	"$IOSTRAT" bench "$T/p.ini" --out "$T/r" --data "$T/r" >/dev/null 2>&1 || die "bench failed"
	head -n 1 "$T/r/results.jsonl" >"$T/x" && mv "$T/x" "$T/r/results.jsonl"
	rm -rf "$T/r/small-"*
	timeout 60 "$IOSTRAT" bench --resume "$T/r" >/dev/null 2>"$T/err" || die "resume failed or hung: $(tail -2 "$T/err")"
}
gen_zero_lines() { setup; bad -- "--lines 0 makes empty files" "$IOSTRAT" gen "$T/g" --files 1 --lines 0 --width 1; }
gen_files_not_a_number() { setup; bad -- "--files: bad value '1e9' \(a whole number" "$IOSTRAT" gen "$T/g" --files 1e9 --lines 1 --width 1; }
gen_files_too_many_no_bytes() { setup; bad -- "--files: bad value '20000000' \(must be 1\.\.10000000\)$" "$IOSTRAT" gen "$T/g" --files 20000000 --lines 1 --width 1; }
gen_dir_is_a_file() { setup; : >"$T/file"; bad 'file' "$IOSTRAT" gen "$T/file" --preset small --scale 0.001; }
gen_readonly_target() {
	need_root; setup; mkdir "$T/ro"; mount -t tmpfs -o ro tmpfs "$T/ro" || skip "no tmpfs"
	trap 'umount "$T/ro"' EXIT
	bad "ro.*Read-only file system" "$IOSTRAT" gen "$T/ro/d" --preset small --scale 0.001
}
# --- run
run_missing_in() { setup; bad 'nope: input directory: No such file' "$IOSTRAT" run -s stream "$T/nope" "$T/o"; }
run_in_is_fifo() { setup; mkfifo "$T/ff"; bad 'ff: input is not a directory' "$IOSTRAT" run -s stream "$T/ff" "$T/o"; }
run_fifo_among_inputs() { setup; mkfifo "$T/in/.x" 2>/dev/null; mkfifo "$T/in2"; cp -r "$T/in" "$T/i2"; mkfifo "$T/i2/zz"; bad 'zz: not a regular file' "$IOSTRAT" run -s stream "$T/i2" "$T/o"; }
run_symlink_loop() { setup; cp -r "$T/in" "$T/i2"; ln -s loop "$T/i2/loop"; bad 'loop: Too many levels of symbolic links' "$IOSTRAT" run -s buffer "$T/i2" "$T/o"; }
run_out_is_in() { setup; bad 'refusing to overwrite inputs' "$IOSTRAT" run -s stream "$T/in" "$T/in"; }
# OUT compared with IN by device and inode; OUT only ever iostrat's own
run_out_bind_mount_of_in() {
	need_root; setup; mkdir "$T/bind"; mount --bind "$T/in" "$T/bind" || skip "no bind mount"
	trap 'umount "$T/bind"' EXIT
	bad 'bind: output directory is the input directory.*same device and inode' "$IOSTRAT" run -s stream "$T/in" "$T/bind" -r 1 --cache warm
	bad 'sub: output directory is the input directory' "$IOSTRAT" run -s stream "$T/in" "$T/bind/sub" -r 1 --cache warm
	[ ! -e "$T/in/sub" ] || die "created a directory inside IN"
}
run_out_symlink_to_in() { setup; ln -s in "$T/link"; bad 'link: output directory is the input directory' "$IOSTRAT" run -s stream "$T/in" "$T/link"; }
run_out_inside_in_by_dotdot() { setup; bad 'output directory is the input directory' "$IOSTRAT" run -s stream "$T/in" "$T/in/../in/x"; [ ! -e "$T/in/x" ] || die "created x in IN"; }
run_swapped_in_out() {
	setup; "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --cache warm >/dev/null || die "first run failed"
	bad 'in: output directory is an iostrat data set' "$IOSTRAT" run -s stream "$T/o" "$T/in" -r 1 --cache warm
}
run_out_is_cwd() { setup; mkdir "$T/cwd"; echo mine >"$T/cwd/NOTES.txt"; cp -r "$T/in" "$T/cwd/in"
	bad "not empty and not iostrat's own" sh -c "cd '$T/cwd' && exec '$IOSTRAT' run -s stream in . -r 1"
	[ "$(cat "$T/cwd/NOTES.txt")" = mine ] || die "NOTES.txt touched"; }
run_out_holds_user_file() {
	setup; mkdir "$T/o"; echo mine >"$T/o/f000000.txt"
	bad "o: output directory not empty and not iostrat's own.*f000000.txt" "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1
	[ "$(cat "$T/o/f000000.txt")" = mine ] || die "user's file replaced"
}
run_out_own_is_reused() { # not an error: a second run into its own OUT
	setup; "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --cache warm >/dev/null || die "first run failed"
	"$IOSTRAT" run -s buffer "$T/in" "$T/o" -r 1 --cache warm >/dev/null || die "second run into its own OUT refused"
}
run_tmp_name_linked_to_input() { # a temporary that is a hard link to an input is replaced, not written through
	setup; "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --cache warm --work 3 >/dev/null || die "first run failed"
	ln "$T/in/f000000.txt" "$T/o/.f000000.txt.iostrat-tmp" 2>/dev/null || skip "no hard link across"
	"$IOSTRAT" run -s mmap "$T/in" "$T/o" -r 1 --cache warm --work 3 >/dev/null || die "run failed"
	[ "$(cd "$T/in" && cat ./* | md5sum)" = "$INSUM" ] || die "input written through a link"
}
# names are bytes, JSON is UTF-8: escaped as \xHH, never a null config_id
run_non_utf8_names_survive() {
	setup; cp -r "$T/in" "$T/lat"$'\xe9'
	"$IOSTRAT" run -s stream "$T/lat"$'\xe9' "$T/o" -r 1 --cache warm --results "$T/r" >/dev/null || die "run failed"
	"$IOSTRAT" run -s stream "$T/lat"$'\xe9' "$T/o" -r 1 --cache warm --dataset $'x\xffy' --results "$T/r2" >/dev/null || die "run failed"
	jq -se 'all(.[]; .config_id | type == "string")' "$T/r/results.jsonl" >/dev/null ||
		die "names lost: $(head -c 300 "$T/r/results.jsonl")"
	jq -se 'all(.[]; (.config_id | type == "string") and .dataset == "x\\xffy" and
			(.config_id | startswith("x\\xffy/")))' "$T/r2/results.jsonl" >/dev/null ||
		die "names lost: $(head -c 300 "$T/r2/results.jsonl")"
}
bench_non_utf8_dataset_keeps_configs_apart() {
	setup; cp -r "$T/in" "$T/lat"$'\xe9'
	profile '[global]' "dataset=$T/lat"$'\xe9' 'reps=2' 'cache=asis' '[a]' 'strategy=stream,buffer' 'work=0,50'
	"$IOSTRAT" bench "$T/p.ini" --out "$T/r" --data "$T/data" >/dev/null 2>&1 || die "bench failed"
	[ "$(grep -c 'lat\\xe9/' "$T/r/summary.csv")" -eq 4 ] || die "configurations merged: $(cat "$T/r/summary.csv")"
	"$IOSTRAT" report "$T/r" | grep -q '4 configurations' || die "report merged them"
}
run_dataset_label_with_slash() { setup; bad -- "--dataset: 'a/b': contains '/'" "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --dataset a/b; }
run_dataset_label_with_newline() { setup; bad -- "--dataset: 'a\\\\x0ab': contains a control character" "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --dataset $'a\nb'; }
run_dataset_label_empty() { setup; bad -- "--dataset: empty label" "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --dataset ''; }
run_dir_name_with_newline_is_one_heading() { # not an error: the label escapes it, one line per heading
	setup; local d="$T/x"$'\n'"y"; cp -r "$T/in" "$d"
	"$IOSTRAT" run -s stream "$d" "$T/o" -r 1 --results "$T/r" >/dev/null 2>"$T/err" || die "run failed: $(cat "$T/err")"
	grep -q '"dataset":"x\\\\x0ay"' "$T/r/results.jsonl" || die "label not escaped: $(head -c 300 "$T/r/results.jsonl")"
	"$IOSTRAT" report "$T/r" | grep -q '^x\\x0ay (' || die "heading garbled: $("$IOSTRAT" report "$T/r")"
}
run_empty_input_dir() { setup; mkdir "$T/e"; bad 'e: no input files' "$IOSTRAT" run -s stream "$T/e" "$T/o" -r 1; }
run_only_dotfiles() { setup; mkdir "$T/e"; echo x >"$T/e/.hidden"; bad "e: no input files \\(names starting with '.' are skipped\\)" "$IOSTRAT" run -s stream "$T/e" "$T/o" -r 1; }
run_results_inside_in() { setup; bad 'in/r: --results inside the input directory' "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --results "$T/in/r"; [ ! -e "$T/in/r" ] || die "created in IN"; }
run_results_is_in() { setup; bad -- '--results inside the input directory' "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --results "$T/in"; }
run_results_inside_out() { setup; bad -- 'o/r: --results inside the output directory' "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --results "$T/o/r"; }
# --direct only where it happens; the io_uring pool bounded by data and memory
run_direct_where_not_done() {
	setup
	for s in $(strategies_with -v direct); do
		bad "--direct: strategy $s does not do direct I/O" "$IOSTRAT" run -s "$s" "$T/in" "$T/o" -r 1 --direct
	done
}
run_uring_direct_on_tmpfs() {
	need_root; setup; mkdir "$T/tm"; mount -t tmpfs tmpfs "$T/tm" || skip "no tmpfs"
	trap 'umount "$T/tm"' EXIT
	bad 'tm/o: tmpfs does not do direct I/O' "$IOSTRAT" run -s uring "$T/in" "$T/tm/o" -r 1 --direct --cache asis
	cp -r "$T/in" "$T/tm/in"
	bad 'tm/in: tmpfs does not do direct I/O' "$IOSTRAT" run -s uring "$T/tm/in" "$T/o" -r 1 --direct --cache asis
}
# -s direct on tmpfs is refused before a repetition drops the machine's
# page cache: a file read just before stays cached, no OUT is left
run_direct_on_tmpfs_refused_before_the_caches_drop() {
	need_root; need_cmd fincore; setup
	[ "$(stat -f -c %T "$T")" != tmpfs ] || skip "$T is on tmpfs"
	mkdir "$T/tm"; mount -t tmpfs tmpfs "$T/tm" || skip "no tmpfs"
	trap 'umount "$T/tm"' EXIT
	cp -r "$T/in" "$T/tm/in"
	head -c 1M /dev/urandom >"$T/keep"; cat "$T/keep" >/dev/null
	bad 'tm/in: tmpfs does not do direct I/O' "$IOSTRAT" run -s direct "$T/tm/in" "$T/o" -r 1 --cache cold
	[ "$(fincore --bytes --noheadings --output RES "$T/keep")" -gt 0 ] ||
		die "the page cache was dropped before the refusal"
	[ ! -e "$T/o" ] || die "OUT left by a refused run"
}
run_uring_pool_bounded_by_data() { # not an error: --chunk 1G on 2 KB files maps 4 KiB buffers
	setup; "$IOSTRAT" run -s uring "$T/in" "$T/o" --chunk 1G -r 1 --json >"$T/row" || die "run failed"
	jq -e '(.pool_bytes | type) == "number" and .pool_bytes <= 1048576 and (.maxrss_kb | type) == "number" and .maxrss_kb < 100000' "$T/row" >/dev/null ||
		die "pool not bounded: $(cat "$T/row")"
}
run_uring_pool_beyond_memory() {
	setup; "$IOSTRAT" gen "$T/big" --files 1 --lines 16000 --width 999 >/dev/null
	bad -- '--chunk: buffer pool of .* more than half the available memory' "$IOSTRAT" run -s uring "$T/big" "$T/o" --chunk 1G --qd 4096 -r 1 --cache asis
}
run_255_byte_name_works() { # not an error: the temporary name fits NAME_MAX whatever the input's
	setup; mkdir "$T/i2"; n=$(printf 'a%.0s' $(seq 255)); echo hello >"$T/i2/$n"; echo x >"$T/i2/b"
	for s in $(strategies_with -v no-output); do
		"$IOSTRAT" run -s "$s" "$T/i2" "$T/o" -r 1 --cache asis >/dev/null 2>"$T/err" || die "$s: $(cat "$T/err")"
	done
	! names_in "$T/o" | grep -q iostrat-tmp || die "temporary left"
}
run_procfs_file_among_inputs() { setup; cp -r "$T/in" "$T/i2"; ln -s /proc/version "$T/i2/v"; bad 'i2/v: a procfs/sysfs file: its size \(0\) is not its content' "$IOSTRAT" run -s uring "$T/i2" "$T/o" -r 1; }
run_dotfiles_skipped_said() { # not an error: skipped, and said
	setup; cp -r "$T/in" "$T/i2"; echo x >"$T/i2/.hidden"
	"$IOSTRAT" run -s stream "$T/i2" "$T/o" -r 1 >/dev/null 2>"$T/err" || die "run failed: $(cat "$T/err")"
	grep -q 'i2: 1 hidden file skipped (.hidden)' "$T/err" || die "not said: $(cat "$T/err")"
	"$IOSTRAT" run -s stream "$T/in" "$T/o2" -r 1 >/dev/null 2>"$T/err" || die "run failed"
	! grep -q hidden "$T/err" || die "the manifest called a skipped file: $(cat "$T/err")"
}
run_out_is_a_file() { setup; : >"$T/of"; bad 'of: output is not a directory' "$IOSTRAT" run -s stream "$T/in" "$T/of"; }
run_unknown_strategy() { setup; bad 'zzz: unknown strategy' "$IOSTRAT" run -s zzz "$T/in" "$T/o"; }
run_zero_threads() { setup; bad 'threads: bad value .0.' "$IOSTRAT" run -s stream "$T/in" "$T/o" --threads 0; }
run_bad_unit() { setup; bad 'bufsize: bad value .8q.' "$IOSTRAT" run -s stream "$T/in" "$T/o" --bufsize 8q; }
run_huge_number() { setup; bad 'work: bad value' "$IOSTRAT" run -s stream "$T/in" "$T/o" --work 123456789012345678901234567890; }
run_unknown_option() { setup; bad -- '--frobnicate: unknown option' "$IOSTRAT" run -s stream "$T/in" "$T/o" --frobnicate 1; }
# a typo of an option gets the nearest name; another strategy's option is named as such
run_misspelt_option_suggests_nearest() { setup; bad -- '^iostrat: --thread: unknown option; did you mean --threads\? \(iostrat run --help\)$' "$IOSTRAT" run -s stream "$T/in" "$T/o" --thread 2; }
run_misspelt_underscore_option_suggests_hyphens() { setup; bad -- 'did you mean --memory-max\?' "$IOSTRAT" run -s stream "$T/in" "$T/o" --memory_mx 1G; }
run_other_strategy_option_not_a_typo() { setup; bad -- '--sq-thread-idl: unknown option for strategy stream' "$IOSTRAT" run -s stream "$T/in" "$T/o" --sq-thread-idl 5; }
# a negative number is below the floor, not malformed: every unsigned setting
run_negative_work_says_floor() { setup; bad -- "^iostrat: --work: bad value '-1' \(must be >= 0\)$" "$IOSTRAT" run -s stream "$T/in" "$T/o" --work -1; }
run_negative_size_says_floor() { setup; bad -- "--bufsize: bad value '-4k' \(must be >= 1\)" "$IOSTRAT" run -s buffer "$T/in" "$T/o" --bufsize -4k; }
gen_negative_count_says_floor() { setup; bad -- "--files: bad value '-3' \(must be >= 1\)" "$IOSTRAT" gen "$T/g" --files -3 --lines 1 --width 1; }
bench_negative_key_says_floor() { setup; profile '[a]' strategy=stream dataset=small scale=0.001 work=-2; bad "p.ini:5: work: bad value '-2' \(must be >= 0\)" "$IOSTRAT" bench "$T/p.ini" --dry-run; }
# a misspelt key is named, with the key it was probably meant to be
bench_misspelt_strategy_key_named() { setup; profile '[a]' stratgey=stream dataset=small scale=0.001; bad "p.ini:2: unknown key 'stratgey'; did you mean strategy=\?" "$IOSTRAT" bench "$T/p.ini" --dry-run; }
bench_misspelt_key_suggests_nearest() { setup; profile '[a]' strategy=stream dataset=small scale=0.001 thread=2; bad "p.ini:5: unknown key 'thread'; did you mean threads=\?" "$IOSTRAT" bench "$T/p.ini" --dry-run; }
run_unknown_option_last() { setup; bad -- '--frobnicate: unknown option' "$IOSTRAT" run -s stream "$T/in" "$T/o" --frobnicate; }
run_repeated_strategy_last_wins() { # not an error: as --work 5 --work 7, the last one counts
	setup; out=$("$IOSTRAT" run -s stream -s buffer "$T/in" "$T/o" -r 1 --work 5 --work 7 --json) || die "run failed"
	echo "$out" | grep -q '"strategy":"buffer"' && echo "$out" | grep -q '"work":7' || die "not the last: $out"
}
run_missing_value() { setup; bad -- '--threads: missing value' "$IOSTRAT" run -s stream "$T/in" "$T/o" --threads; }
# when_writing OUT CMD...: run CMD once the repetition writes its first
# temporary output in OUT (after the reference is computed, mid-run)
when_writing() {
	local out=$1; shift
	for _ in $(seq 1500); do
		compgen -G "$out/.*.iostrat-tmp" >/dev/null && break
		sleep 0.01
	done
	"$@"
}
run_input_appended_mid_run_is_named() { # the cause is named: the input, not the strategy
	setup; "$IOSTRAT" gen "$T/big" --files 1 --lines 200000 --width 100 >/dev/null
	when_writing "$T/o" sh -c 'printf "tail\n" >>"$1"' - "$T/big/f000000.txt" &
	bad 'big/f000000.txt: input changed during the run \(20200000 bytes at the start, 20200005 now\)' \
		"$IOSTRAT" run -s stream "$T/big" "$T/o" --work 600 --reps 1 --cache asis
	wait
}
run_input_rewritten_mid_run_is_named() { # same size, newer mtime
	setup; "$IOSTRAT" gen "$T/big" --files 1 --lines 200000 --width 100 >/dev/null
	when_writing "$T/o" sh -c 'printf X | dd of="$1" bs=1 seek=20199990 conv=notrunc 2>/dev/null' - "$T/big/f000000.txt" &
	bad 'big/f000000.txt: input modified during the run \(same size\)' \
		"$IOSTRAT" run -s stream "$T/big" "$T/o" --work 600 --reps 1 --cache asis
	wait
}
# --- verify
verify_missing_out() { setup; bad 'nowhere.*No such file' "$IOSTRAT" verify "$T/in" "$T/nowhere" --work 0; }
verify_wrong_work() {
	setup; "$IOSTRAT" run -s stream "$T/in" "$T/o" --work 1 --reps 1 >/dev/null
	bad 'differs from the reference transform \(xor, work 2\) at byte 0' "$IOSTRAT" verify "$T/in" "$T/o" --work 2
}
verify_truncated_output() {
	setup; "$IOSTRAT" run -s stream "$T/in" "$T/o" --reps 1 >/dev/null
	truncate -s 10 "$T/o/f000001.txt"
	bad 'f000001.txt: differs .* at byte 10' "$IOSTRAT" verify "$T/in" "$T/o" --work 0
}
# verify compares both listings, and checks something or fails
verify_extra_output_file() {
	setup; "$IOSTRAT" run -s stream "$T/in" "$T/o" --reps 1 >/dev/null
	echo stray >"$T/o/zzz.txt"
	bad "$T/o/zzz.txt: not the output of any file of $T/in" "$IOSTRAT" verify "$T/in" "$T/o"
}
verify_empty_input() {
	setup; mkdir "$T/empty" "$T/o2"
	bad "$T/empty: no input files: nothing to verify" "$IOSTRAT" verify "$T/empty" "$T/o2"
}
# --- bench
verify_empty_in() { setup; mkdir "$T/e" "$T/o"; bad 'e: no input files: nothing to verify' "$IOSTRAT" verify "$T/e" "$T/o"; }
verify_extra_file_in_out() {
	setup; "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --cache warm >/dev/null || die "run failed"
	: >"$T/o/zz"; bad 'o/zz: not the output of any file' "$IOSTRAT" verify "$T/in" "$T/o"
}
verify_missing_output() {
	setup; "$IOSTRAT" run -s stream "$T/in" "$T/o" -r 1 --cache warm >/dev/null || die "run failed"
	rm "$T/o/f000001.txt"; bad 'o/f000001.txt: No such file' "$IOSTRAT" verify "$T/in" "$T/o"
}
# --- net: a port outside 1..65535 (0 only to listen) is never wrapped
net_listen_port_too_big() { setup; bad "--listen: bad port in '127.0.0.1:99999'" "$IOSTRAT" net --listen 127.0.0.1:99999 --once; }
net_connect_port_65536() { setup; bad "--connect: bad port in '127.0.0.1:65536'" "$IOSTRAT" net --connect 127.0.0.1:65536; }
net_connect_port_0() { setup; bad "--connect: bad port in '127.0.0.1:0'" "$IOSTRAT" net --connect 127.0.0.1:0; }
bench_out_inside_dataset() {
	setup; profile '[global]' "dataset=$T/in" 'reps=1' 'cache=asis' '[a]' 'strategy=stream'
	bad 'in/r: --out inside the data set' "$IOSTRAT" bench "$T/p.ini" --out "$T/in/r" --data "$T/data"
	[ ! -e "$T/in/r" ] || die "results written into the data set"
}
bench_direct_skips_strategies_without_it() {
	setup; profile '[global]' 'dataset=big' 'scale=0.0005' '[a]' 'strategy=stream,uring' 'direct=1'
	out=$("$IOSTRAT" bench "$T/p.ini" --dry-run --data "$T/data" 2>&1) || die "dry run failed: $out"
	echo "$out" | grep -q 'strategy stream does not do direct I/O.*skipped' || die "not said: $out"
	! echo "$out" | grep -q 'big/stream/.*direct' || die "stream recorded as direct: $out"
}
bench_include_directory() { setup; profile "include $T" '[a]' 'strategy=stream'; bad "$T: include: Is a directory" "$IOSTRAT" bench "$T/p.ini" --dry-run; }
bench_profile_char_device_refused() { setup; bad '/dev/zero: profile: a character device, not a regular file' "$IOSTRAT" bench /dev/zero --dry-run; }
bench_include_char_device_refused() { setup; profile 'include /dev/zero' '[a]' 'strategy=stream'; bad '/dev/zero: include: a character device' "$IOSTRAT" bench "$T/p.ini" --dry-run; }
bench_include_fifo_refused_without_blocking() { setup; mkfifo "$T/fifo"; profile 'include fifo' '[a]' 'strategy=stream'; bad 'fifo: include: a FIFO, not a regular file' "$IOSTRAT" bench "$T/p.ini" --dry-run; }
bench_profile_fifo_refused_without_blocking() { setup; mkfifo "$T/fifo"; bad 'fifo: profile: a FIFO' "$IOSTRAT" bench "$T/fifo" --out "$T/r"; }
bench_profile_line_too_long_refused() {
	setup; { printf '[a]\nstrategy='; head -c 70000 /dev/zero | tr '\0' a; echo; } >"$T/p.ini"
	bad "p.ini:2: line longer than a profile's 65536 bytes" "$IOSTRAT" bench "$T/p.ini" --dry-run
}
bench_profile_too_large_refused() { setup; head -c 2000000 /dev/zero | tr '\0' '\n' >"$T/p.ini"; bad "p.ini: profile: 2000000 bytes, larger than a profile's 1048576" "$IOSTRAT" bench "$T/p.ini" --dry-run; }
bench_profile_includes_counted_in_its_size() {
	setup; head -c 900000 /dev/zero | tr '\0' '\n' >"$T/blank.ini"; profile 'include blank.ini' 'include blank.ini' '[a]' 'strategy=stream'
	bad 'the profile, includes counted in, is larger than 1048576 bytes' "$IOSTRAT" bench "$T/p.ini" --dry-run
}
bench_include_foreign_file_not_echoed() {
	setup; printf 'secret:hunter2-and-more-secret-text\n' >"$T/secret"; profile "include $T/secret"
	bad "secret:1: key 'secret' before any \[section\]" "$IOSTRAT" bench "$T/p.ini" --dry-run
	"$IOSTRAT" bench "$T/p.ini" --dry-run 2>&1 | grep -q hunter2 && die "a line of the included file echoed"
	true
}
bench_key_twice_in_a_section_names_both_lines() { setup; profile '[a]' 'strategy=stream' 'work=1' 'work=2'; bad 'p.ini:4: work given twice in \[a\] \(first at .*p.ini:3\)' "$IOSTRAT" bench "$T/p.ini" --dry-run; }
bench_profile_with_bom() { # not an error: a UTF-8 BOM before the first section
	setup; printf '\xef\xbb\xbf[a]\nstrategy=stream\ndataset=big\nscale=0.0005\n' >"$T/p.ini"
	"$IOSTRAT" bench "$T/p.ini" --dry-run --data "$T/data" >/dev/null 2>"$T/err" || die "BOM refused: $(cat "$T/err")"
}
bench_missing_profile() { setup; bad 'nope.ini.*No such file' "$IOSTRAT" bench "$T/nope.ini" --out "$T/r"; }
bench_profile_is_dir() { setup; bad "$T/in" "$IOSTRAT" bench "$T/in" --out "$T/r"; }
bench_unknown_key() { setup; profile '[a]' 'strategy=stream' 'dataset=small' 'colour=red'; bad 'p.ini:4.*colour' "$IOSTRAT" bench "$T/p.ini" --out "$T/r"; [ ! -e "$T/r/results.csv" ] || die "results claim success"; }
bench_bad_range() { setup; profile '[a]' 'strategy=stream' 'dataset=small' 'threads=4-1'; bad 'p.ini:4.*threads' "$IOSTRAT" bench "$T/p.ini" --out "$T/r"; }
bench_include_loop() { setup; printf 'include p.ini\n' >"$T/p.ini"; bad 'p.ini:1.*include' "$IOSTRAT" bench "$T/p.ini" --out "$T/r"; }
bench_binary_profile() { setup; head -c 300 /dev/urandom >"$T/p.ini"; bad 'p.ini' "$IOSTRAT" bench "$T/p.ini" --out "$T/r"; }
bench_unset_variable() { setup; profile '[a]' 'strategy=stream' 'dataset=${IOSTRAT_NO_SUCH_VAR}'; bad 'IOSTRAT_NO_SUCH_VAR' env -u IOSTRAT_NO_SUCH_VAR "$IOSTRAT" bench "$T/p.ini" --out "$T/r"; }
bench_bad_define() { setup; profile '[a]' 'strategy=stream' 'dataset=small'; bad 'threads' "$IOSTRAT" bench "$T/p.ini" -D threads=x --out "$T/r"; }
# --- report / compare
report_missing_dir() { setup; bad 'nope.*No such file' "$IOSTRAT" report "$T/nope"; }
report_corrupt_rows() {
	setup; mkdir "$T/r"; printf '{"schema":1}\ngarbage\n{"schema":1}\n' >"$T/r/results.jsonl"
	bad 'results.jsonl:2' "$IOSTRAT" report "$T/r"
}
report_bad_format() { setup; mkdir "$T/r"; : >"$T/r/results.jsonl"; bad 'format' "$IOSTRAT" report "$T/r" --format yaml; }
# success on nothing is no success
report_no_rows() { setup; mkdir "$T/r"; : >"$T/r/results.jsonl"; bad 'r: no result rows' "$IOSTRAT" report "$T/r"; }
report_rows_is_a_dir() { setup; mkdir -p "$T/r/results.jsonl"; bad 'results.jsonl: not a regular file' "$IOSTRAT" report "$T/r"; }
report_not_a_results_dir() { setup; mkdir "$T/r"; : >"$T/r/notes.txt"; bad 'r: not a results directory \(no results.jsonl' "$IOSTRAT" report "$T/r"; }
report_of_a_file() { setup; : >"$T/f"; bad 'f: not a directory \(give a results directory\)' "$IOSTRAT" report "$T/f"; }
plot_of_empty_rows() { setup; mkdir "$T/r"; : >"$T/r/results.jsonl"; bad 'r: no result rows: nothing to plot' "$IOSTRAT" plot "$T/r"; }
report_rows_is_a_fifo() { setup; mkdir "$T/r"; mkfifo "$T/r/results.jsonl"; bad 'results.jsonl: not a regular file' "$IOSTRAT" report "$T/r"; }
compare_nothing_in_common() {
	setup; mkdir "$T/a" "$T/b"
	printf '%s\n' '{"schema":1,"kind":"run","config_id":"x/stream","rep":1,"elapsed_s":1,"error":null}' >"$T/a/results.jsonl"
	printf '%s\n' '{"schema":1,"kind":"run","config_id":"y/buffer","rep":1,"elapsed_s":1,"error":null}' >"$T/b/results.jsonl"
	bad 'a: no configuration in common' "$IOSTRAT" compare "$T/a" "$T/b"
}
compare_one_dir() { setup; mkdir "$T/r"; : >"$T/r/results.jsonl"; bad 'compare' "$IOSTRAT" compare "$T/r"; }
# --- fio
fio_garbage_json() { setup; head -c 100 /dev/urandom >"$T/x.json"; bad 'x.json: not fio JSON' "$IOSTRAT" fio --parse "$T/x.json"; }
fio_empty_job_file_says_why() { need_cmd fio; setup; : >"$T/empty.fio"; bad 'empty.fio: fio: No job\(s\) defined' "$IOSTRAT" fio "$T/empty.fio" --dataset "$T/in" --reps 1 --out "$T/r"; }
fio_bad_option_says_why() { need_cmd fio; setup; printf '[x]\nrw=bogus\nsize=1M\n' >"$T/b.fio"; bad 'b.fio: fio: failed parsing rw=bogus' "$IOSTRAT" fio "$T/b.fio" --dataset "$T/in" --reps 1 --out "$T/r"; }
fio_parse_missing_file() { setup; bad 'missing.json: No such file or directory$' "$IOSTRAT" fio --parse "$T/missing.json"; }
fio_out_has_results_no_resume_hint() { # iostrat fio has no --resume: the refusal must not suggest it
	setup; mkdir "$T/r"; : >"$T/r/results.jsonl"
	bad 'r: has results already \(give another --out\)' "$IOSTRAT" fio seq-psync --dataset "$T/in" --reps 1 --out "$T/r"
}
fio_unknown_job() { setup; bad 'nojob: no such fio job' "$IOSTRAT" fio nojob --dataset "$T/in"; }
# --- plot
plot_only_empty() { setup; mkdir "$T/r"; : >"$T/r/results.jsonl"; bad -- "--only: empty figure name in ''" "$IOSTRAT" plot "$T/r" --only ''; bad -- "--only: empty figure name in 'grid,,fio'" "$IOSTRAT" plot "$T/r" --only grid,,fio; bad -- "--only: empty figure name in 'grid,'" "$IOSTRAT" plot "$T/r" --only grid,; }
bench_profile_total_configs_capped() { # 10,001 sections of 10 configurations each: over the profile's cap
	setup
	awk 'BEGIN { for (i = 0; i <= 10000; i++) printf "[s%d]\nstrategy=stream\ndataset=small\nwork=%d-%d\n", i, i * 10, i * 10 + 9 }' >"$T/p.ini"
	bad 'p.ini: 100010 configurations, the limit is 100000; raise it with IOSTRAT_MAX_CONFIGS=100010$' "$IOSTRAT" bench "$T/p.ini" --dry-run
	profile '[a]' 'strategy=stream' "dataset=$T/in" 'work=1-6'
	bad 'p.ini: 6 configurations, the limit is 5; raise it with IOSTRAT_MAX_CONFIGS=6$' env IOSTRAT_MAX_CONFIGS=5 "$IOSTRAT" bench "$T/p.ini" --dry-run
	IOSTRAT_MAX_CONFIGS=6 "$IOSTRAT" bench "$T/p.ini" --dry-run >/dev/null 2>"$T/err" || die "raised cap refused: $(cat "$T/err")"
	bad "IOSTRAT_MAX_CONFIGS: bad value 'many'" env IOSTRAT_MAX_CONFIGS=many "$IOSTRAT" bench "$T/p.ini" --dry-run
}
bench_bad_strategy_option_value_fails_dry_run() { setup; profile '[a]' 'strategy=mmap' "dataset=$T/in" 'madvise=bogus'; bad "p.ini:4: madvise: bad value 'bogus' \\(sequential, willneed, hugepage or none\\)" "$IOSTRAT" bench "$T/p.ini" --dry-run; }
run_bad_strategy_option_value() { setup; bad "madvise: bad value 'bogus' \\(sequential, willneed, hugepage or none\\)" "$IOSTRAT" run -s mmap "$T/in" "$T/o" -r 1 --madvise bogus; }
bench_profile_long_lines() { # not an error: long lines, comments and values alike (200, then 4096, were refused; the bound is 64 KiB)
	setup; local c v w
	c=$(printf '%*s' 300 '' | tr ' ' x); v=$(printf '%*s' 3000 '' | tr ' ' y)
	w=$(seq -s, 0 1299) # work=0,1,...,1299: a 5,000-character value
	profile "# $c" '[a]' 'strategy=stream' "dataset=$T/in" "# $v$v$v" "work=$w"
	"$IOSTRAT" bench "$T/p.ini" --dry-run >"$T/out" 2>"$T/err" || die "long lines refused: $(cat "$T/err")"
	grep -q '^1300 configurations' "$T/out" || die "the long line's values not all read: $(tail -n 1 "$T/out")"
}
plot_missing_dir() { setup; bad 'nope' "$IOSTRAT" plot "$T/nope"; }
# --- queue
queue_remove_unknown() { setup; bad '999' "$IOSTRAT" queue --state-dir "$T/q" remove 999; }
queue_name_with_newline() { setup; bad -- 'name: control character 0x0a' "$IOSTRAT" queue --state-dir "$T/q" add --name $'a\n=== b' -- true; }
queue_empty_reboot_cmd() { setup; bad -- '--reboot-cmd: empty' "$IOSTRAT" queue --state-dir "$T/q" --reboot-cmd '' list; }
queue_garbage_next_id_never_reuses() { # not an error: IDs resume above the history's
	setup; "$IOSTRAT" queue --state-dir "$T/q" add -- true >/dev/null || die "add failed"
	printf '%s\n' '{"id":7,"name":"x","result":"done"}' >>"$T/q/history.jsonl"
	rm -f "$T/q/queue/"*; echo garbage >"$T/q/next-id"
	id=$("$IOSTRAT" queue --state-dir "$T/q" add -- true) || die "add failed"
	[ "$id" -ge 8 ] || die "ID $id reused below the history's 7"
}
queue_corrupt_entry_is_named() { # the loop stops without a reboot, naming the entry and how to remove it
	setup; local q="$T/q"
	"$IOSTRAT" queue --state-dir "$q" add --name a -- true >/dev/null; "$IOSTRAT" queue --state-dir "$q" add --name b -- true >/dev/null
	echo garbage >"$q/queue/000001.json"
	bad 'queue/000001.json: queue entry 1 is unreadable \(line 1: .* expected near .garbage.\): the loop stops; remove it with iostrat queue remove 1' \
		"$IOSTRAT" queue --state-dir "$q" run-next --settle 0 --reboot-cmd "touch $T/rebooted"
	[ ! -e "$T/rebooted" ] || die "rebooted past a corrupt entry"
}
queue_add_without_command() { setup; bad 'command' "$IOSTRAT" queue --state-dir "$T/q" add; }
# --- sched
sched_unknown_scheduler() {
	setup
	with_loop_ext4 "$T/mnt" 32
	dev=$(basename "$LOOPDEV")
	before=$(cat "/sys/block/$dev/queue/scheduler")
	bad 'bogus' "$IOSTRAT" sched --device "$dev" --data "$T/mnt/data" --schedulers none,bogus "$TOP/profiles/smoke.ini"
	[ "$(cat "/sys/block/$dev/queue/scheduler")" = "$before" ] || die "scheduler changed"
}
sched_not_a_device() { need_root; setup; bad 'nosuchdisk' "$IOSTRAT" sched --device nosuchdisk --schedulers none "$TOP/profiles/smoke.ini"; }
# --- trace: what can be checked before CMD runs is
trace_report_path_unwritable() { setup; bad 'nowhere/r: opening the report: No such file' "$IOSTRAT" trace -o "$T/nowhere/r" -- true; }
trace_device_path_missing() { setup; bad 'missing/path: No such file' "$IOSTRAT" trace -d "$T/missing/path" -- true; }
# --- top level
list_with_an_argument() { setup; bad 'list: junk: unexpected argument' "$IOSTRAT" list junk; }
unknown_command() { setup; bad 'frob: unknown command' "$IOSTRAT" frob; }
no_command() { setup; bad 'no command given' "$IOSTRAT"; }

# --- standard output that cannot be written: a failure, one line, exit 1
# (as coreutils' close_stdout), for every command; list, help, --version
# and report here.  out_err HOW CMD...: run CMD with stdout full or closed.
out_err() {
	local how=$1 rc=0; shift
	case $how in
	full) "$@" >/dev/full 2>"$T/err" || rc=$? ;;
	closed) "$@" >&- 2>"$T/err" || rc=$? ;;
	esac
	[ "$rc" -eq 1 ] || die "exit $rc with stdout $how: $* ($(cat "$T/err"))"
	[ "$(grep -c . "$T/err")" -eq 1 ] || die "not one line with stdout $how: $* ($(cat "$T/err"))"
}
_stdout_rows() { mkdir -p "$T/r"; printf '%s\n' '{"schema":1,"bench":"b","kind":"run","config_id":"a","rep":1,"elapsed_s":1.5,"error":null}' >"$T/r/results.jsonl"; }
stdout_full_is_a_write_error() {
	[ -c /dev/full ] || skip "no /dev/full"
	_stdout_rows
	for c in list help "help list" --version "report $T/r"; do
		# shellcheck disable=SC2086 # the words of c are the command's
		out_err full "$IOSTRAT" $c
		grep -qx 'iostrat: write error: standard output: No space left on device' "$T/err" ||
			die "$c: $(cat "$T/err")"
	done
}
stdout_closed_is_a_write_error() {
	_stdout_rows
	for c in list help "help list" --version "report $T/r"; do
		# shellcheck disable=SC2086 # the words of c are the command's
		out_err closed "$IOSTRAT" $c
		grep -qx 'iostrat: write error: standard output: Bad file descriptor' "$T/err" ||
			die "$c: $(cat "$T/err")"
	done
}

for f in $(declare -F | awk '{print $3}' | grep -E '^(gen|run|verify|bench|report|compare|fio|plot|queue|sched|list|net|trace|unknown|no|stdout)_'); do
	t "bad_input_$f" "$f"
done
