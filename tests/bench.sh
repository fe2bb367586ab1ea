#!/usr/bin/env bash
# iostrat bench/report/compare: profiles, results directories, resume.
. "$(dirname "$0")/lib.sh"

# A tiny matrix: 2 strategies x 2 thread counts, 2 reps, ~1 MB of data.
tiny_profile() {
	cat >"$T/tiny.ini" <<-'INI'
	[global]
	dataset=big
	scale=0.0005
	reps=2
	cache=${CACHE:-asis}

	[tiny]
	strategy=stream,buffer
	threads=1-2
	work=0
	INI
}

bench_dry_run_expands_cross_product() {
	cat >"$T/p.ini" <<-'INI'
	[global]
	dataset=small,big
	scale=0.001
	[m]
	strategy=stream,buffer
	threads=1-4
	work=0,100,1000
	INI
	out=$("$IOSTRAT" bench "$T/p.ini" --dry-run --data "$T/data")
	n=$(echo "$out" | grep -c '/t[0-9]/w')
	[ "$n" -eq 48 ] || die "expected 2x2x4x3=48 configurations, got $n"
	echo "$out" | grep -q '^48 configurations' || die "no total: $out"
	echo "$out" | grep -q 'small/buffer/t4/w1000/cold' || die "missing a cell: $out"
	[ ! -e "$T/data" ] || die "dry run created data"
}

# a grid's qd is uring's: stream's configurations leave it out (one
# config_id, run once), not one each that differ by nothing it uses
bench_knob_left_out_of_strategies_that_do_not_use_it() {
	cat >"$T/p.ini" <<-'INI'
	[global]
	dataset=small
	scale=0.001
	[m]
	strategy=stream,uring
	qd=4,8
	INI
	out=$("$IOSTRAT" bench "$T/p.ini" --dry-run --data "$T/data" 2>&1)
	echo "$out" | grep -q '^3 configurations' || die "not 3 configurations: $out"
	echo "$out" | grep -q 'small/stream/t1/w0/cold/fsync=file  ' || die "stream: $out"
	echo "$out" | grep -q 'stream.*qd=' && die "stream given a qd: $out"
	echo "$out" | grep -q 'small/uring/t1/w0/cold/fsync=file/qd=8' || die "uring: $out"
}

# the scratch directory's free space is checked before the results
# directory is made: a refused bench leaves no empty results directory
bench_refuses_a_full_scratch_up_front() {
	need_root
	"$IOSTRAT" gen "$T/in" --files 2 --lines 20000 --width 100 >/dev/null
	mkdir "$T/small"
	mount -t tmpfs -o size=1m tmpfs "$T/small" || skip "cannot mount tmpfs"
	trap 'umount "$T/small"' EXIT
	printf '[global]\ndataset=%s\nreps=1\ncache=asis\n[a]\nstrategy=stream\n' "$T/in" >"$T/p.ini"
	expect_fail 'the outputs of its data sets need 4.0 MB; .* refusing to start' \
		"$IOSTRAT" bench "$T/p.ini" --data "$T/small" --out "$T/res"
	[ ! -e "$T/res" ] || die "results directory left by a refused bench"
}

# a section missing two keys says both at once, not one per run
bench_missing_keys_listed_together() {
	printf '[a]\nwork=1\n' >"$T/p.ini"
	expect_fail 'p.ini:1: \[a\]: no strategy= \(iostrat list shows them\); no dataset= \(small' \
		"$IOSTRAT" bench "$T/p.ini" --dry-run
}

bench_ranges_steps_env_and_overrides() {
	cat >"$T/p.ini" <<-'INI'
	[global]
	dataset=${DS}
	scale=${NOPE:-0.001}
	[m]
	strategy=stream
	threads=1-7:3
	work=0
	INI
	out=$(DS=small "$IOSTRAT" bench "$T/p.ini" --dry-run -D work=5,6)
	for t in 1 4 7; do for w in 5 6; do
		echo "$out" | grep -q "small/stream/t$t/w$w/" || die "t$t w$w missing: $out"
	done; done
	[ "$(echo "$out" | grep -c '/t[0-9]/w')" -eq 6 ] || die "$out"
}

bench_include_and_global_scoping() {
	mkdir "$T/sub"
	cat >"$T/sub/a.ini" <<-'INI'
	[global]
	dataset=small
	scale=0.001
	[a]
	strategy=stream
	INI
	cat >"$T/all.ini" <<-'INI'
	include sub/a.ini
	[global]
	dataset=big
	[b]
	strategy=buffer
	INI
	out=$("$IOSTRAT" bench "$T/all.ini" --dry-run)
	echo "$out" | grep -q 'small/stream/t1/w0' || die "included section: $out"
	echo "$out" | grep -q 'big/buffer/t1/w0' || die "later global: $out"
	! echo "$out" | grep -q 'big/stream' || die "later global leaked back: $out"
}

# iostrat-profile(5): a comment may follow a value with ; or # after a blank
bench_comment_after_a_value() {
	printf '[global]\nscale=0.0025   # note\ndataset=small ; the smallest\n[m]\nstrategy=stream\t# one\n' >"$T/p.ini"
	out=$("$IOSTRAT" bench "$T/p.ini" --dry-run --data "$T/data" 2>&1) || die "refused: $out"
	echo "$out" | grep -q 'small-s0.0025-seed1' || die "scale not 0.0025: $out"
}

# [global] keys a section's kind does not take: left out of that section
# and listed by --dry-run; a global scale never shrinks a section's own
# size; a key no kind takes is still an error at its line
bench_global_keys_a_kind_does_not_take() {
	cat >"$T/p.ini" <<-'INI'
	[global]
	seed=7
	scale=0.0025
	[sweep-bufsize]
	block=4k
	size=1M
	[sweep-api]
	op=read
	api=mmap
	block=4k
	size=64k
	[m]
	strategy=stream
	dataset=small
	INI
	out=$("$IOSTRAT" bench "$T/p.ini" --dry-run --data "$T/data" 2>&1) || die "refused: $out"
	echo "$out" | grep -q '10x1048576/sweep-bufsize/' || die "the section's size=1M was changed: $out"
	echo "$out" | grep -q "\[sweep-bufsize\] ignores global scale (.*p.ini:3: its own size=1M is not scaled)" || die "scale not listed: $out"
	echo "$out" | grep -q "\[sweep-api\] ignores global seed (.*p.ini:2: not a key of sweep api)" || die "seed not listed: $out"
	echo "$out" | grep -q 'small-s0.0025-seed7' || die "the run section lost its global keys: $out"
	# a kind that gives no reason of its own: the engine's, naming the kind
	printf '[global]\nthreads=2\n[net]\nmode=nodelay\nsize=64\ncount=10\n' >"$T/p.ini"
	out=$("$IOSTRAT" bench "$T/p.ini" --dry-run 2>&1) || die "refused: $out"
	echo "$out" | grep -q "\[net\] ignores global threads (.*p.ini:2: not a key of kind net)" || die "threads not listed: $out"
	printf '[global]\nthraeds=2\n[sweep-api]\nop=read\napi=mmap\nblock=4k\n' >"$T/p.ini"
	expect_fail 'p.ini:2: thraeds: unknown key' "$IOSTRAT" bench "$T/p.ini" --dry-run
	# a net section: a typo in [global] was ignored there without a word
	printf '[global]\nthraeds=2\n[net]\nmode=nodelay\n' >"$T/p.ini"
	expect_fail 'p.ini:2: thraeds: not a net key' "$IOSTRAT" bench "$T/p.ini" --dry-run
}

bench_profile_errors_name_file_and_line() {
	p=$T/bad.ini
	printf '[m]\nstrategy=stream\ndataset=small\nbogus=1\n' >"$p"
	expect_fail 'bad.ini:4: unknown key .bogus.' "$IOSTRAT" bench "$p" --dry-run
	printf '[m]\nstrategy=stream\ndataset=small\nthreads=4-1\n' >"$p"
	expect_fail 'bad.ini:4: threads: bad range' "$IOSTRAT" bench "$p" --dry-run
	printf '[m]\nstrategy=stream\ndataset=small\nthreads=zero\n' >"$p"
	expect_fail 'bad.ini:4: threads: bad value' "$IOSTRAT" bench "$p" --dry-run
	printf '[m]\ndataset=small\nstrategy=teleport\n' >"$p"
	expect_fail 'bad.ini:3: strategy: unknown strategy .teleport.' "$IOSTRAT" bench "$p" --dry-run
	printf '[global]\nstrategy=stream\n' >"$p"
	expect_fail 'empty matrix' "$IOSTRAT" bench "$p" --dry-run
	printf '[m]\nstrategy=stream\n\ndataset=nosuch\n' >"$p"
	expect_fail 'bad.ini:4: dataset: unknown data set' "$IOSTRAT" bench "$p" --dry-run
	printf '[m]\nstrategy=stream\ndataset=${IOSTRAT_UNSET_VAR}\n' >"$p"
	expect_fail 'bad.ini:3: \$\{IOSTRAT_UNSET_VAR\} is not set' "$IOSTRAT" bench "$p" --dry-run
	printf '[m]\nstrategy=stream\njust words\n' >"$p"
	expect_fail 'bad.ini:3: not a \[section\]' "$IOSTRAT" bench "$p" --dry-run
	printf '[m]\nstrategy=stream,,buffer\n' >"$p"
	expect_fail 'bad.ini:2: strategy: empty item' "$IOSTRAT" bench "$p" --dry-run
	printf '[m]\nkind=teleport\n' >"$p"
	expect_fail 'bad.ini:2: unknown section kind' "$IOSTRAT" bench "$p" --dry-run
	printf '[m]\nstrategy=stream\ndataset=small\nreps=3\nmax_reps=2\n' >"$p"
	expect_fail 'bad.ini:5: max_reps 2 is below reps 3' "$IOSTRAT" bench "$p" --dry-run
	printf 'include loop2.ini\n' >"$T/loop1.ini"
	printf '[m]\ninclude loop1.ini\n' >"$T/loop2.ini"
	expect_fail 'loop2.ini:2: include loop' "$IOSTRAT" bench "$T/loop1.ini" --dry-run
	printf 'include nothere.ini\n' >"$p"
	expect_fail 'nothere.ini' "$IOSTRAT" bench "$p" --dry-run
	expect_fail '-D x: want KEY=VALUE' "$IOSTRAT" bench "$p" -D x --dry-run
}

bench_dry_run_lists_sweep_and_run_sections() {
	printf '[sweep-api]\nop=read\napi=stdio-default\nblock_size=1,5\nsize=1000\n[m]\nstrategy=stream\ndataset=small\nscale=0.001\n' >"$T/p.ini"
	out=$("$IOSTRAT" bench "$T/p.ini" --dry-run 2>&1)
	echo "$out" | grep -q 'small/stream/t1/w0' || die "$out"
}

bench_unknown_kind_is_an_error() {
	printf '[s]\nkind=sched\nstrategy=stream\ndataset=small\n' >"$T/p.ini"
	expect_fail "p.ini:2: unknown section kind 'sched' \\(run, sweep, net, fio, limits\\)" \
		"$IOSTRAT" bench "$T/p.ini" --dry-run
}

bench_writes_results_dir_and_report() {
	tiny_profile
	"$IOSTRAT" bench "$T/tiny.ini" --out "$T/r" --data "$T/data" 2>"$T/err" ||
		die "bench failed: $(tail -3 "$T/err")"
	for f in results.jsonl results.csv summary.csv env.json profile.ini; do
		[ -s "$T/r/$f" ] || die "no $f"
	done
	[ "$(wc -l <"$T/r/results.jsonl")" -eq 8 ] || die "expected 8 rows"
	[ "$(wc -l <"$T/r/summary.csv")" -eq 5 ] || die "expected 4 summary rows"
	grep -q '^\[tiny\]' "$T/r/profile.ini" || die "profile.ini"
	# interleaved: A B C D A B C D
	jq -se '[.[].config_id] as $ids | $ids[:4] == $ids[4:]
		and all(.[]; .bench == "tiny" and .dataset == "big" and .kind == "run"
			and .verified == true and .error == null
			and (.kernel | . != null and . != "") and (.host | . != null and . != ""))' \
		"$T/r/results.jsonl" >/dev/null || die "bad rows: $(cat "$T/r/results.jsonl")"
	csv_rows "$T/r/summary.csv" | jq -se 'all(.[]; .n == "2")' >/dev/null ||
		die "bad summary: $(cat "$T/r/summary.csv")"
	[ -d "$T/data/big-s0.0005-seed1" ] || die "data set not cached by its parameters"
	names_in "$T/data" | grep -q scratch && die "scratch left behind"
	out=$("$IOSTRAT" report "$T/r")
	echo "$out" | grep -q 'big (asis/fsync=file): stream/buffer' || die "no grid: $out"
	echo "$out" | grep -qE '^ +1 +[0-9.]+/[0-9.]+' || die "no cell: $out"
	echo "$out" | grep -q '\*' || die "no best mark: $out"
	echo "$out" | grep -q 'big/buffer/t2/w0/asis/fsync=file' || die "no config line: $out"
	"$IOSTRAT" report "$T/r" --format json |
		jq -e '([.tables[] | select(.title == "configurations (kind run)")][0].rows[0].n == 2)
			and (.tables[0].title | startswith("headline: ")) and any(.tables[]; .title == "verdict")' >/dev/null ||
		die "json report"
	"$IOSTRAT" report "$T/r" --format markdown | grep -q '^| threads' || die "markdown"
	"$IOSTRAT" report "$T/r" --format csv | grep -q '^# configurations' || die "csv"
	# the same data set is reused by the next bench
	"$IOSTRAT" bench "$T/tiny.ini" --out "$T/r2" --data "$T/data" 2>&1 | grep -q reused ||
		die "data set regenerated"
}


# A bench long enough to interrupt: 8 configurations x 3 reps.
slow_profile() {
	cat >"$T/slow.ini" <<-'INI'
	[global]
	dataset=big
	scale=0.002
	reps=3
	cache=asis
	[slow]
	strategy=stream,buffer
	threads=1,2
	work=0,50
	INI
}

rows_of() { if [ -f "$1/results.jsonl" ]; then grep -c . "$1/results.jsonl"; else echo 0; fi; }

# wait until DIR has at least N rows (or give up after ~30 s)
wait_rows() {
	for _ in $(seq 300); do
		[ "$(rows_of "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	die "bench never wrote $2 rows"
}

check_complete() {
	jq -se '([.[] | select(.error == null) | .config_id] | group_by(.) | map(length)) as $n
		| ($n | length) == 8 and ($n | unique) == [3] and all(.[]; .bench == "slow")' \
		"$1/results.jsonl" >/dev/null ||
		die "rows after resume: $(cat "$1/results.jsonl")"
}

bench_ctrl_c_keeps_rows_and_resumes() {
	slow_profile
	"$IOSTRAT" bench "$T/slow.ini" --out "$T/r" --data "$T/data" 2>"$T/err" &
	pid=$!
	wait_rows "$T/r" 3
	kill -INT $pid
	rc=0; wait $pid || rc=$?
	[ "$rc" -eq 130 ] || die "exit $rc after Ctrl-C, want 130"
	grep -q "resume with: iostrat bench --resume $T/r" "$T/err" || die "no resume hint: $(cat "$T/err")"
	n=$(rows_of "$T/r")
	[ "$n" -ge 3 ] && [ "$n" -lt 24 ] || die "$n rows after the interrupt"
	[ -s "$T/r/results.csv" ] || die "interrupted bench wrote no results.csv"
	"$IOSTRAT" bench --resume "$T/r" --data "$T/data" 2>"$T/err2" || die "resume: $(tail -2 "$T/err2")"
	[ "$(rows_of "$T/r")" -eq 24 ] || die "$(rows_of "$T/r") rows after resume, want 24"
	check_complete "$T/r"
	# nothing left to do: a second resume adds nothing
	"$IOSTRAT" bench --resume "$T/r" --data "$T/data" 2>/dev/null
	[ "$(rows_of "$T/r")" -eq 24 ] || die "second resume added rows"
}

bench_killed_hard_resumes() {
	slow_profile
	"$IOSTRAT" bench "$T/slow.ini" --out "$T/r" --data "$T/data" 2>/dev/null &
	pid=$!
	wait_rows "$T/r" 5
	kill -KILL $pid
	wait $pid 2>/dev/null || true
	# its repetition's child dies with it (PR_SET_PDEATHSIG), not at once
	wait_gone "$T/slow.ini" 10 || die "the killed bench's child outlived it"
	n=$(rows_of "$T/r")
	"$IOSTRAT" bench --resume "$T/r" --data "$T/data" 2>"$T/err" || die "resume: $(tail -2 "$T/err")"
	[ "$(rows_of "$T/r")" -eq 24 ] || die "$n rows before, $(rows_of "$T/r") after resume"
	check_complete "$T/r"
	names_in "$T/data" | grep -qE "scratch|stale" && die "scratch of the killed bench left behind"
	true
}

# A crash leaves a row cut short: resume cuts it off (durably) before
# appending, so no row is glued to the fragment, and a second resume finds
# a clean file.
bench_resume_cuts_a_truncated_row() {
	tiny_profile
	"$IOSTRAT" bench "$T/tiny.ini" --out "$T/r" --data "$T/data" 2>/dev/null || die "bench failed"
	n=$(rows_of "$T/r")
	head -n $((n - 2)) "$T/r/results.jsonl" >"$T/j"
	tail -n 1 "$T/r/results.jsonl" | head -c 40 >>"$T/j"
	mv "$T/j" "$T/r/results.jsonl"
	"$IOSTRAT" bench --resume "$T/r" --data "$T/data" 2>"$T/err" || die "resume: $(tail -2 "$T/err")"
	grep -q 'cutting 40 bytes of a truncated last row' "$T/err" || die "cut not said: $(cat "$T/err")"
	"$IOSTRAT" bench --resume "$T/r" --data "$T/data" 2>"$T/err2" || die "second resume: $(tail -2 "$T/err2")"
	grep -q truncated "$T/err2" && die "second resume still finds a fragment: $(cat "$T/err2")"
	[ "$(jq -s length "$T/r/results.jsonl")" -eq "$n" ] || die "rows after resume: $(cat "$T/r/results.jsonl")"
	[ "$(csv_rows "$T/r/results.csv" | jq -s length)" -eq "$n" ] || die "results.csv: $(cat "$T/r/results.csv")"
	"$IOSTRAT" report "$T/r" >/dev/null || die "report refuses the resumed directory"
}

# A whole line that is not a row (bad bytes, glued rows) is named as such,
# wherever it is, not called "truncated"; a FIFO or a directory in place of
# results.jsonl is refused, neither hangs nor reads as empty.
bench_bad_rows_named() {
	mkdir "$T/r"
	printf '%s\n' '{"schema":1,"kind":"run","config_id":"a","rep":1,"elapsed_s":1,"error":null}' >"$T/r/results.jsonl"
	printf '{"schema":1,"kind":"run","config_id":"a\xe9","rep":2}\n' >>"$T/r/results.jsonl"
	expect_fail 'results.jsonl:2: not a result row' "$IOSTRAT" report "$T/r"
	printf '%s\n' '{"schema":1,"kind":"run","config_id":"a","rep":1,"elapsed_s":1,"error":null}{"schema":1,"kind":"run"}' >"$T/r/results.jsonl"
	expect_fail 'results.jsonl:1: not a result row' "$IOSTRAT" report "$T/r"
	rm "$T/r/results.jsonl"; mkfifo "$T/r/results.jsonl"
	expect_fail 'results.jsonl: not a regular file' timeout 10 "$IOSTRAT" report "$T/r"
	rm "$T/r/results.jsonl"; mkdir "$T/r/results.jsonl"
	expect_fail 'results.jsonl: not a regular file' "$IOSTRAT" report "$T/r"
}

# A results directory has one writer: a second bench, or a resume, on the
# same --out while the first runs is refused with one line.
bench_one_writer_per_results_dir() {
	slow_profile
	"$IOSTRAT" bench "$T/slow.ini" --out "$T/r" --data "$T/data" 2>/dev/null &
	pid=$!
	wait_rows "$T/r" 1
	expect_fail 'r: in use by another iostrat' "$IOSTRAT" bench "$T/slow.ini" --out "$T/r" --data "$T/data"
	expect_fail 'r: in use by another iostrat' "$IOSTRAT" bench --resume "$T/r" --data "$T/data"
	kill -INT $pid; wait $pid 2>/dev/null || true
	n=$(rows_of "$T/r")
	jq -se '[.[] | [.config_id, .rep]] | length == (unique | length)' "$T/r/results.jsonl" >/dev/null ||
		die "rep numbers twice: $(cat "$T/r/results.jsonl")"
	[ "$n" -ge 1 ] || die "first bench lost its rows"
}

# --out holding a user's own results.csv (or summary.csv...) is refused.
bench_out_with_users_csv_refused() {
	tiny_profile
	mkdir "$T/r"; echo mine >"$T/r/results.csv"
	expect_fail 'r: holds results.csv already' "$IOSTRAT" bench "$T/tiny.ini" --out "$T/r" --data "$T/data"
	[ "$(cat "$T/r/results.csv")" = mine ] || die "user's results.csv replaced"
}

# --out holding results is refused before any data set is generated: the
# refusal costs nothing, not minutes of gen first.
bench_out_with_results_refused_before_data() {
	tiny_profile
	mkdir "$T/r"; : >"$T/r/results.jsonl"
	expect_fail 'r: has results already' "$IOSTRAT" bench "$T/tiny.ini" --out "$T/r" --data "$T/data"
	[ ! -e "$T/data" ] || die "data generated before the refusal: $(ls "$T/data")"
}

# drop the last N rows of DIR/results.jsonl: something left to resume
drop_rows() { head -n "-$2" "$1/results.jsonl" >"$1/j" && mv "$1/j" "$1/results.jsonl"; }

# --resume uses the data the bench used (DIR/data.json), from anywhere,
# and generates nothing when nothing is left to run.
bench_resume_keeps_its_data_root() {
	tiny_profile; mkdir "$T/elsewhere"
	"$IOSTRAT" bench "$T/tiny.ini" --out "$T/r" --data "$T/data" 2>/dev/null || die "bench failed"
	(cd "$T/elsewhere" && "$IOSTRAT" bench --resume "$T/r" 2>"$T/err") || die "resume: $(cat "$T/err")"
	[ ! -e "$T/elsewhere/data" ] || die "nothing left to run, yet data generated in the cwd"
	drop_rows "$T/r" 2
	(cd "$T/elsewhere" && env -u IOSTRAT_DATA "$IOSTRAT" bench --resume "$T/r" 2>"$T/err") || die "resume: $(cat "$T/err")"
	[ ! -e "$T/elsewhere/data" ] || die "resume regenerated the data under the cwd"
	grep -q "data: $T/data/.*reused" "$T/err" || die "data of the bench not used: $(cat "$T/err")"
}

# A data set that changed between the runs is not mixed into one
# configuration; data on another filesystem is refused unless asked.
bench_resume_refuses_changed_data() {
	mkdir "$T/my"; "$IOSTRAT" gen "$T/my" --files 2 --lines 10 --width 10 >/dev/null
	printf '[global]\ndataset=%s\nreps=2\ncache=asis\n[a]\nstrategy=stream,buffer\n' "$T/my" >"$T/p.ini"
	"$IOSTRAT" bench "$T/p.ini" --out "$T/r" --data "$T/data" 2>/dev/null || die "bench failed"
	drop_rows "$T/r" 2
	echo more >>"$T/my/f000000.txt"
	expect_fail "my: changed since the rows in .*r were measured \\(2 files, 220 bytes then; 2 files, 225 bytes now\\)" \
		"$IOSTRAT" bench --resume "$T/r" --data "$T/data"
}
bench_resume_refuses_other_filesystem() {
	need_root; tiny_profile; mkdir "$T/tmpfs"
	mount -t tmpfs -o size=32m none "$T/tmpfs" || skip "cannot mount tmpfs"
	trap 'umount "$T/tmpfs"' EXIT
	"$IOSTRAT" bench "$T/tiny.ini" --out "$T/r" --data "$T/data" 2>/dev/null || die "bench failed"
	drop_rows "$T/r" 2
	expect_fail 'r: its rows were measured on data under .*data.*another filesystem.*--data-anywhere' \
		"$IOSTRAT" bench --resume "$T/r" --data "$T/tmpfs/data"
	"$IOSTRAT" bench --resume "$T/r" --data "$T/tmpfs/data" --data-anywhere 2>/dev/null || die "--data-anywhere refused"
}

# run --results writes the config_id bench writes: compare matches them
bench_and_run_share_config_ids() {
	mkdir "$T/my"; "$IOSTRAT" gen "$T/my" --files 2 --lines 10 --width 10 >/dev/null
	printf '[global]\ndataset=%s\nreps=2\ncache=asis\n[a]\nstrategy=stream\nthreads=2\n' "$T/my" >"$T/p.ini"
	"$IOSTRAT" bench "$T/p.ini" --out "$T/b" --data "$T/data" 2>/dev/null || die "bench failed"
	"$IOSTRAT" run -s stream "$T/my" "$T/o" --threads 2 --cache asis -r 2 --results "$T/r" >/dev/null || die "run failed"
	a=$(jq -rn 'input.config_id' "$T/b/results.jsonl")
	b=$(jq -rn 'input.config_id' "$T/r/results.jsonl")
	[ "$a" = "$b" ] && [ "$a" = my/stream/t2/w0/asis/fsync=file ] || die "config_id differs: bench $a, run $b"
	"$IOSTRAT" compare "$T/b" "$T/r" >/dev/null || die "compare did not match them"
}

bench_compare_two_runs() {
	tiny_profile
	"$IOSTRAT" bench "$T/tiny.ini" --out "$T/a" --data "$T/data" 2>/dev/null
	"$IOSTRAT" bench "$T/tiny.ini" --out "$T/b" --data "$T/data" -D reps=4 2>/dev/null
	out=$("$IOSTRAT" compare "$T/a" "$T/b")
	echo "$out" | grep -q 'B/A' || die "no ratio column: $out"
	[ "$(echo "$out" | grep -c '^  big/')" -eq 4 ] || die "configurations not matched: $out"
	echo "$out" | grep -q 'profile line.*reps=2' || die "profile difference not said: $out"
	"$IOSTRAT" compare "$T/a" "$T/b" --format json |
		jq -e '.tables[0].rows | length == 4 and all(.[]; (.["B/A"] | type) == "number" and .["B/A"] > 0
			and (.p_B | type) == "number" and 0 <= .p_B and .p_B <= 1)' >/dev/null || die "json compare"
	"$IOSTRAT" compare "$T/a" "$T/b" --format csv | grep -q '^config_id,A_median,B_median,B/A,p_B,sig_B' ||
		die "csv compare"
	expect_fail 'need 2 to' "$IOSTRAT" compare "$T/a"
	expect_fail 'nothere: results directory: No such file' "$IOSTRAT" compare "$T/a" "$T/nothere"
}

# runs with nothing in common: the error alone, first, no table before it
compare_nothing_in_common_prints_only_the_error() {
	mkdir "$T/a" "$T/b"
	printf '%s\n' '{"schema":1,"kind":"run","config_id":"x/stream","rep":1,"elapsed_s":1,"error":null}' >"$T/a/results.jsonl"
	printf '%s\n' '{"schema":1,"kind":"run","config_id":"y/buffer","rep":1,"elapsed_s":2,"error":null}' >"$T/b/results.jsonl"
	rc=0; "$IOSTRAT" compare "$T/a" "$T/b" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -ne 0 ] || die "exit 0 with nothing compared"
	[ ! -s "$T/out" ] || die "printed before its error: $(head -n 3 "$T/out")"
	[ "$(grep -c . "$T/err")" -eq 1 ] || die "not one line: $(cat "$T/err")"
	grep -q 'a: no configuration in common' "$T/err" || die "the run not named: $(cat "$T/err")"
}

# Hand-made run rows (every core column) in DIR/results.jsonl, one per
# elapsed time given, all of config big/stream/t1; a time given as a JSON
# text (-1.0, "fast") makes the row a reader must leave out.
#   fixture_rows DIR ELAPSED...
fixture_rows() {
	local dir=$1; shift
	mkdir -p "$dir"
	local e rep=0 mb
	for e in "$@"; do
		rep=$((rep + 1))
		# mb_s: 1/elapsed for a positive fraction, else 5.0
		mb=5.0
		if [[ $e =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ && $e =~ [.eE] ]]; then
			mb=$(awk -v t="$e" 'BEGIN { if (t + 0 > 0) printf "%.17g", 1 / t; else printf "5.0" }')
			[[ $mb =~ [.eE] ]] || mb=$mb.0
		fi
		printf '{"schema": 1, "bench": "fixture", "kind": "run", "config_id": "big/stream/t1", "rep": %d, "dataset": "big", "files": 4, "bytes_in": 1000000, "bytes_out": 1000000, "strategy": "stream", "threads": 1, "work": 0, "bufsize": 65536, "chunk": null, "qd": null, "direct": false, "cache": "asis", "resident_pct_before": 100.0, "elapsed_s": %s, "user_s": 0.01, "sys_s": 0.02, "maxrss_kb": 2048, "minflt": 10, "majflt": 0, "nvcsw": 1, "nivcsw": 1, "mb_s": %s, "checksum": "0", "verified": true, "traced": false, "error": null}\n' \
			"$rep" "$e" "$mb" >>"$dir/results.jsonl"
	done
}

# A row whose elapsed_s was set to -1.0 by hand (or to a word) is not a
# measurement: report names its file and line, one warning a row, and no
# figure of the table has it (min_s stays the least real time).
negative_elapsed_row_is_warned_and_left_out() {
	fixture_rows "$T/r" 0.5 -1.0 0.7 '"fast"'
	out=$("$IOSTRAT" report "$T/r" 2>"$T/err") || die "report failed: $(cat "$T/err")"
	grep -q "r/results.jsonl:2: not a measurement, left out: elapsed_s -1.0 is negative (a time)" "$T/err" ||
		die "row 2 not named: $(cat "$T/err")"
	grep -q 'r/results.jsonl:4: not a measurement, left out: elapsed_s "fast" is not a number' "$T/err" ||
		die "row 4 not named: $(cat "$T/err")"
	[ "$(grep -c . "$T/err")" -eq 2 ] || die "not one line a row: $(cat "$T/err")"
	echo "$out" | grep -q -- '-1\.0' && die "the -1 row counted: $out"
	echo "$out" | grep -Eq '^  big/stream/t1 +2 +0\.600 +0\.500 +0\.700' || die "table not of the two good rows: $out"
	"$IOSTRAT" report "$T/r" --format json 2>/dev/null |
		jq -e '[.tables[] | select(.title == "configurations (kind run)")][0]
			| [.rows[] | [.n, .min_s]] == [[2, 0.5]]' >/dev/null || die "json report holds the bad rows"
}

# Rows nobody vouches for (issue 42): elapsed_s 0, no config_id, a key
# given twice, a config_id with a newline: each a warning naming file:line,
# the row in no figure, and no report prints nan or inf.
zero_elapsed_row_is_warned_and_left_out() {
	fixture_rows "$T/r" 0.5 0 0.7
	out=$("$IOSTRAT" report "$T/r" 2>"$T/err") || die "report failed: $(cat "$T/err")"
	grep -q "r/results.jsonl:2: not a measurement, left out: elapsed_s 0 is not above 0" "$T/err" ||
		die "row 2 not named: $(cat "$T/err")"
	echo "$out" | grep -Eqi 'nan|inf' && die "nan or inf printed: $out"
	echo "$out" | grep -Eq '^  big/stream/t1 +2 +0\.600 +0\.500 +0\.700' || die "table not of the two good rows: $out"
}
row_without_config_id_is_warned_and_left_out() {
	fixture_rows "$T/r" 0.5 0.9 0.7
	sed -i '2s/"config_id": "big\/stream\/t1", //' "$T/r/results.jsonl"
	out=$("$IOSTRAT" report "$T/r" 2>"$T/err") || die "report failed: $(cat "$T/err")"
	grep -q "r/results.jsonl:2: not a measurement, left out: no config_id" "$T/err" || die "row 2 not named: $(cat "$T/err")"
	echo "$out" | grep -Eq '^  big/stream/t1 +2 +0\.600 +0\.500 +0\.700' || die "table not of the two good rows: $out"
	echo "$out" | grep -Eq "^  - +1 +0\.900" && die "the row without config_id grouped: $out"
	true
}
row_with_duplicate_key_is_warned_and_left_out() {
	fixture_rows "$T/r" 0.5 0.6 0.7
	sed -i '2s/"elapsed_s": 0.6,/"elapsed_s": 0.6, "elapsed_s": 99.0,/' "$T/r/results.jsonl"
	out=$("$IOSTRAT" report "$T/r" 2>"$T/err") || die "report failed: $(cat "$T/err")"
	grep -q "r/results.jsonl:2: not a measurement, left out: a key given twice" "$T/err" || die "row 2 not named: $(cat "$T/err")"
	echo "$out" | grep -q '99\.0' && die "the duplicate's value counted: $out"
	echo "$out" | grep -Eq '^  big/stream/t1 +2 +0\.600 +0\.500 +0\.700' || die "table not of the two good rows: $out"
}
row_with_newline_in_config_id_is_named() {
	fixture_rows "$T/r" 0.5 0.6 0.7
	sed -i '2s/"config_id": "big\/stream\/t1"/"config_id": "big\\nstream"/' "$T/r/results.jsonl"
	"$IOSTRAT" report "$T/r" >/dev/null 2>"$T/err" || die "report failed: $(cat "$T/err")"
	grep -q "r/results.jsonl:2: not a measurement, left out: config_id holds a newline" "$T/err" || die "row 2 not named: $(cat "$T/err")"
}

# Many such rows: the first few named, the rest in one line with a count;
# a file holding nothing but such rows is refused, not reported empty.
many_bad_rows_are_counted_and_nothing_else_is_refused() {
	fixture_rows "$T/r" 0.5 -1 -2 -3 -4 -5 -6
	"$IOSTRAT" report "$T/r" >/dev/null 2>"$T/err" || die "report failed: $(cat "$T/err")"
	[ "$(grep -c . "$T/err")" -eq 4 ] || die "not 3 named + 1 count: $(cat "$T/err")"
	grep -q '3 more rows that are not measurements left out (6 in all, the first at line 2)' "$T/err" ||
		die "no count line: $(cat "$T/err")"
	fixture_rows "$T/bad" -1 '"x"'
	expect_fail 'bad/results.jsonl: no row is a measurement \(2 left out, the first at line 1\)' \
		"$IOSTRAT" report "$T/bad"
	fixture_rows "$T/inf" 1e999
	expect_fail 'inf/results.jsonl:1: not a result row' "$IOSTRAT" report "$T/inf"
}

# compare reads rows through the same loader: B's -50 s row is named and
# in none of B's figures.
compare_leaves_out_rows_that_are_not_measurements() {
	fixture_rows "$T/a" 1.0 1.1 1.2
	fixture_rows "$T/b" 2.0 -50.0 2.1
	out=$("$IOSTRAT" compare "$T/a" "$T/b" --format json 2>"$T/err") || die "compare failed: $(cat "$T/err")"
	grep -q "b/results.jsonl:2: not a measurement, left out: elapsed_s -50.0 is negative" "$T/err" ||
		die "row not named: $(cat "$T/err")"
	echo "$out" | jq -e '.tables[0].rows[0].B_median - 2.05 | fabs < 1e-9' >/dev/null ||
		die "B's median not of its two good rows: $out"
}

# A resume runs again what a row that is not a measurement claimed done,
# and keeps it out of results.csv and summary.csv (results.jsonl keeps
# every line as it was).
resume_reruns_a_row_that_is_not_a_measurement() {
	tiny_profile
	"$IOSTRAT" bench "$T/tiny.ini" --out "$T/r" --data "$T/data" -D strategy=stream -D threads=1 \
		>/dev/null 2>&1 || die "bench failed"
	sed -i '1s/"elapsed_s":[0-9.e-]*/"elapsed_s":-1.0/' "$T/r/results.jsonl"
	grep -q '"elapsed_s":-1.0' "$T/r/results.jsonl" || die "fixture edit failed"
	"$IOSTRAT" bench --resume "$T/r" >/dev/null 2>"$T/err" || die "resume failed: $(cat "$T/err")"
	grep -q "results.jsonl:1: not a measurement, left out" "$T/err" || die "not named: $(cat "$T/err")"
	[ "$(grep -c . "$T/r/results.jsonl")" -eq 3 ] || die "repetition not run again: $(cat "$T/r/results.jsonl")"
	grep -q -- ',-1,' "$T/r/results.csv" && die "results.csv holds the row"
	grep -q '"elapsed_s":-1.0' "$T/r/results.jsonl" || die "results.jsonl line lost"
	csv_rows "$T/r/summary.csv" | jq -se 'length == 1 and .[0].n == "2" and (.[0].min | tonumber) > 0' >/dev/null ||
		die "summary counts the row: $(cat "$T/r/summary.csv")"
}

bench_report_lists_other_kinds() {
	mkdir "$T/r"
	printf '%s\n' '{"schema":1,"bench":"x","kind":"sweep","config_id":"api/stdio/bs=32","rep":1,"elapsed_s":0.5,"error":null}' \
		'{"schema":1,"bench":"x","kind":"sweep","config_id":"api/stdio/bs=32","rep":2,"elapsed_s":0.7,"error":null}' \
		'{"schema":1,"bench":"x","kind":"net","config_id":"net/buffered","rep":1,"metric":"msgs_s","msgs_s":1000,"elapsed_s":1,"error":null}' \
		>"$T/r/results.jsonl"
	out=$("$IOSTRAT" report "$T/r")
	echo "$out" | grep -q 'configurations (kind sweep)' || die "$out"
	echo "$out" | grep -qE 'api/stdio/bs=32 +elapsed_s +2 +0.600' || die "$out"
	echo "$out" | grep -qE 'net/buffered +msgs_s +1 +1000' || die "$out"
}
# An adaptive profile knows its bounds from the start: the progress line
# shows the total as "at least-at most" and the ETA as a range, and no total
# grows past the first line's cap.  (The ETA before the first repetition is
# the estimate, 67 s a repetition here: the bench is interrupted there.)
# 6 configurations, 2 rounds: each row names its round (its rep here) and
# role; every round runs every configuration once.
bench_rows_carry_their_round() {
	printf '[global]\nscale=0.0005\ncache=asis\nreps=2\n[t]\nstrategy=stream,buffer,mmap\ndataset=big\nthreads=1,2\nwork=0\n' >"$T/o.ini"
	"$IOSTRAT" bench "$T/o.ini" --out "$T/r" --data "$T/data" 2>"$T/err" ||
		die "bench: $(tail -n 2 "$T/err")"
	jq -se 'length == 12 and all(.[]; .round == .rep and .role == "timed")
		and ([.[] | select(.round == 1)] | length == 6)
		and ([.[] | .round] == [1,1,1,1,1,1,2,2,2,2,2,2])' "$T/r/results.jsonl" >/dev/null ||
		die "rows: $(jq -c '[.config_id, .rep, .round, .role]' "$T/r/results.jsonl")"
}

# order_seed=N: the same order of configurations within each round again;
# another seed, another order; the seed is in env.json and the rows.
bench_order_is_reproducible_by_its_seed() {
	printf '[global]\nscale=0.0005\ncache=asis\nreps=2\n[t]\nstrategy=stream,buffer,mmap\ndataset=big\nthreads=1,2\nwork=0\n' >"$T/o.ini"
	local d
	for d in a:42 b:42 c:43; do
		"$IOSTRAT" bench "$T/o.ini" --out "$T/${d%:*}" --data "$T/data" \
			-D "order_seed=${d#*:}" 2>"$T/err" || die "bench: $(tail -n 2 "$T/err")"
		jq -r '.config_id' "$T/${d%:*}/results.jsonl" >"$T/${d%:*}.order"
	done
	cmp -s "$T/a.order" "$T/b.order" || die "seed 42 twice: $(paste "$T/a.order" "$T/b.order")"
	! cmp -s "$T/a.order" "$T/c.order" || die "seeds 42 and 43 ran the same order"
	[ "$(jq '.order_seed' "$T/a/env.json")" = 42 ] || die "env.json: no order_seed 42"
	jq -se 'all(.[]; .order_seed == 43)' "$T/c/results.jsonl" >/dev/null || die "rows: no order_seed"
	"$IOSTRAT" bench "$T/o.ini" --out "$T/d" --data "$T/data" 2>"$T/err" || die "bench"
	jq -e '.order_seed | type == "number" and . > 0' "$T/d/env.json" >/dev/null ||
		die "no derived seed in env.json"
	# --resume keeps the directory's seed: a third round under it
	local seed
	seed=$(jq '.order_seed' "$T/d/env.json")
	"$IOSTRAT" bench --resume "$T/d" -D reps=3 -D max_reps=3 --data "$T/data" 2>"$T/err" ||
		die "resume: $(tail -n 2 "$T/err")"
	jq -se --argjson s "$seed" 'length == 18 and all(.[]; .order_seed == $s)
		and ([.[] | select(.round == 3)] | length == 6)' "$T/d/results.jsonl" >/dev/null ||
		die "resumed rows: $(jq -c '[.round, .order_seed]' "$T/d/results.jsonl")"
}

# stop=ci races a cell: with reps=2 it still runs the 3 rounds a race's
# first interval needs; stop.json says why it stopped and each member's
# state; a bad stop= is refused.
bench_stop_ci_runs_three_rounds_and_says_why() {
	printf '[global]\nscale=0.0005\ncache=asis\nreps=2\nmax_reps=8\nstop=ci\n[t]\nstrategy=stream,buffer\ndataset=big\nthreads=1\nwork=0\n' >"$T/c.ini"
	"$IOSTRAT" bench "$T/c.ini" --out "$T/r" --data "$T/data" 2>"$T/err" ||
		die "bench: $(tail -n 2 "$T/err")"
	jq -e 'length == 1 and .[0].stop == "ci" and .[0].rounds >= 3 and .[0].rounds <= 8
		and (.[0].why | test("^(decided after [3-8] rounds|futile: [5-8] rounds|max_reps: 8 rounds)"))
		and (.[0].members | length == 2) and .[0].alpha == 0.05' "$T/r/stop.json" >/dev/null ||
		die "stop.json: $(cat "$T/r/stop.json")"
	n=$(jq '[.[0].members[].rounds] | add' "$T/r/stop.json")
	[ "$(grep -c . "$T/r/results.jsonl")" -eq "$n" ] || die "not $n rows"
	printf '[global]\nscale=0.0005\nstop=sometimes\n[t]\nstrategy=stream\ndataset=big\n' >"$T/bad.ini"
	expect_fail "stop: bad value 'sometimes'" "$IOSTRAT" bench "$T/bad.ini" --dry-run
}

# null is many times faster than stream at work=200, so stream's interval
# excludes 1 within a few rounds and it leaves the race: its rows stop at
# the round stop.json says it left, and the report's verdict says the same.
bench_race_drops_a_clearly_slower_strategy() {
	printf '[global]\nscale=0.001\ncache=asis\nmax_reps=12\nstop=ci\n[t]\nstrategy=stream,null\ndataset=big\nthreads=1\nwork=200\n' >"$T/c.ini"
	"$IOSTRAT" bench "$T/c.ini" --out "$T/r" --data "$T/data" 2>"$T/err" ||
		die "bench: $(tail -n 2 "$T/err")"
	jq -e '.[0].decision == "winner" and (.[0].leader | test("/null/"))
		and ([.[0].members[] | select(.state == "behind")] | length == 1)
		and ([.[0].members[] | select(.state == "behind")][0] | (.config | test("/stream/"))
		     and .lo > 1 and .left_at_round < 12)' "$T/r/stop.json" >/dev/null ||
		die "stop.json: $(cat "$T/r/stop.json")"
	left=$(jq '.[0].members[] | select(.state == "behind") | .left_at_round' "$T/r/stop.json")
	[ "$(jq -s '[.[] | select(.config_id | test("/stream/"))] | length' "$T/r/results.jsonl")" -eq "$left" ] ||
		die "stream ran after round $left: $(jq -c '[.config_id, .round]' "$T/r/results.jsonl")"
	"$IOSTRAT" report "$T/r" >"$T/rep.txt" 2>&1 || die "report"
	grep -q 'null fastest: .*x stream (95% anytime CI' "$T/rep.txt" || die "verdict: $(grep -i fastest "$T/rep.txt")"
}

# A cell that cannot decide within max_reps ends futile (or at max_reps)
# with the projection and the command that would decide it, which the
# report repeats; resuming with it adds rounds marked resumed.
bench_race_futile_cell_names_its_next_step() {
	printf '[global]\nscale=0.0005\ncache=asis\nmax_reps=5\nstop=ci\nmin_effect=0.1\n[t]\nstrategy=stream,buffer\ndataset=big\nthreads=1\nwork=0\n' >"$T/c.ini"
	"$IOSTRAT" bench "$T/c.ini" --out "$T/r" --data "$T/data" 2>"$T/err" ||
		die "bench: $(tail -n 2 "$T/err")"
	jq -e --arg d "$T/r" '.[0] as $c | $c | (.decision != "undecided") or
		((.why | test("^(futile|max_reps): 5 rounds, undecided"))
		 and (.rounds_needed == null or
		      (.next | startswith("iostrat bench --resume \($d) -D max_reps=\($c.rounds_needed) -D time_budget="))))' \
		"$T/r/stop.json" >/dev/null || die "first stop.json: $(jq -c . "$T/r/stop.json")"
	jq -e '.[0].decision == "undecided" and .[0].rounds_needed != null' "$T/r/stop.json" >/dev/null ||
		return 0 # decided, or nothing in sight: no command to follow
	"$IOSTRAT" report "$T/r" >"$T/rep.txt" 2>&1 || die "report"
	grep -qF "$(jq -r '.[0].next' "$T/r/stop.json")" "$T/rep.txt" || die "report: no next step"
	read -ra next < <(jq -r '.[0].next' "$T/r/stop.json")
	"$IOSTRAT" "${next[@]:1}" 2>"$T/err" || die "resume: $(tail -n 2 "$T/err")"
	jq -se '[.[] | select(.resumed == true)] | length > 0 and all(.[]; .round > 5)' \
		"$T/r/results.jsonl" >/dev/null || die "resumed rows: $(jq -c '[.round, .resumed]' "$T/r/results.jsonl")"
	jq -e '.[0].resumed_from == 5' "$T/r/stop.json" >/dev/null || die "resumed_from: $(cat "$T/r/stop.json")"
	"$IOSTRAT" report "$T/r" >"$T/rep.txt" 2>&1 || die "report"
	grep -q 'rounds after 5 from a resumed run' "$T/rep.txt" || die "report: resume not said"
}

# stop=ci with max_reps under the 3 rounds a race's first interval needs
# is refused before anything runs, naming the section.
bench_stop_ci_refuses_max_reps_below_the_floor() {
	printf '[global]\nscale=0.0005\ncache=asis\nstop=ci\nreps=2\n[t]\nstrategy=stream,buffer\ndataset=big\n' >"$T/c.ini"
	expect_fail '^iostrat: .*/c.ini:6: \[t\]: stop=ci: max_reps 2 is below the 3 rounds a race.s first interval needs \(set max_reps=3 or more\)$' \
		"$IOSTRAT" bench "$T/c.ini" --dry-run
	expect_fail 'c.ini:6: \[t\]: stop=ci: max_reps 2 is below the 3 rounds' \
		"$IOSTRAT" bench "$T/c.ini" --out "$T/r" --data "$T/data"
	[ ! -e "$T/r" ] || die "a results directory for a refused profile"
	"$IOSTRAT" bench "$T/c.ini" --dry-run -D max_reps=3 >"$T/out" 2>"$T/err" ||
		die "max_reps=3: $(cat "$T/err")"
	grep -Eq '^1 +big/stream/.* 3 ' "$T/out" || die "dry run: $(cat "$T/out")"
	"$IOSTRAT" bench "$T/c.ini" --dry-run -D stop=rsd >/dev/null 2>"$T/err" ||
		die "stop=rsd: $(cat "$T/err")"
}

# fio=1 shares its baselines between the configurations of
# a data set: nothing to say; a configuration the author wrote twice is
# said once.
bench_notes_only_the_authors_repeats() {
	"$IOSTRAT" bench "$TOP/profiles/default.ini" --dry-run >/dev/null 2>"$T/err" || die "dry run: $(cat "$T/err")"
	! grep -q '^note:' "$T/err" || die "default profile: $(cat "$T/err")"
	printf '[a]\nstrategy=stream,stream\ndataset=big\nscale=0.001\nfio=1\n' >"$T/d.ini"
	"$IOSTRAT" bench "$T/d.ini" --dry-run >/dev/null 2>"$T/err" || die "dry run: $(cat "$T/err")"
	grep -qx 'note: 1 configurations of the profile repeat an earlier one (the same config_id); each runs once' "$T/err" ||
		die "repeat note: $(cat "$T/err")"
}

# A cell whose rounds stop short of the race's first interval is warned
# about before anything runs; the shipped smoke profile is not.
bench_dry_run_warns_of_cells_too_short_for_a_verdict() {
	printf '[a]\nstrategy=stream,mmap\ndataset=big\nscale=0.001\nreps=2\n' >"$T/s.ini"
	"$IOSTRAT" bench "$T/s.ini" --dry-run >/dev/null 2>"$T/err" || die "dry run: $(cat "$T/err")"
	grep -q 'warning: .*s.ini:1: \[a\]: at most 2 rounds: the verdict needs 3 for an interval' "$T/err" ||
		die "no warning: $(cat "$T/err")"
	"$IOSTRAT" bench "$TOP/profiles/smoke.ini" --dry-run >/dev/null 2>"$T/err" || die "smoke: $(cat "$T/err")"
	! grep -q 'warning' "$T/err" || die "smoke: $(cat "$T/err")"
}

bench_progress_shows_adaptive_bounds() {
	printf '[global]\nscale=0.001\ncache=asis\nreps=2\nmax_reps=4\ntarget_rsd=0\n[t]\nstrategy=stream,buffer\ndataset=small\nthreads=1\nwork=0\n' >"$T/a.ini"
	"$IOSTRAT" bench "$T/a.ini" --out "$T/r" --data "$T/data" 2>"$T/err" || die "bench: $(tail -n 2 "$T/err")"
	local l i=0 hi cap=
	while IFS= read -r l; do
		i=$((i + 1))
		[[ $l =~ ^\[([0-9]+)/([0-9]+)(-([0-9]+))?\]\ .*\ rep\ [0-9]+/[0-9]+(-[0-9]+)?\ \ eta\  ]] ||
			die "progress line $i: $l"
		hi=${BASH_REMATCH[4]:-${BASH_REMATCH[2]}}
		cap=${cap:-$hi}
		(( BASH_REMATCH[1] == i && hi == cap && cap == 8 && BASH_REMATCH[2] <= 8 )) ||
			die "progress line $i: $l"
	done < <(grep '^\[' "$T/err")
	[ "$i" -eq 8 ] || die "progress: $(grep '^\[' "$T/err")"
	l=$(grep -m1 '^\[' "$T/err")
	[[ $l == "[1/4-8] "*" rep 1/2-4 "* ]] || die "first progress line: $l"
	l=$(grep '^\[' "$T/err" | tail -n 1)
	[[ $l == "[8/8] "* ]] || die "last progress line: $l"
	sed -i 's/work=0/work=1000000/' "$T/a.ini"
	"$IOSTRAT" bench "$T/a.ini" --out "$T/r2" --data "$T/data" 2>"$T/err" &
	local pid=$! _
	for _ in $(seq 100); do grep -q '^\[1/' "$T/err" && break; sleep 0.1; done
	kill -INT "$pid"; wait "$pid" || true
	# before any repetition: the plan's estimate (0.15 s + the bytes at 800 MB/s
	# + the transform's passes at 30e9 bytes a second), 8 to 16 repetitions
	grep -Eq '^\[1/4-8\] .* eta 1[34]s-2[78]s' "$T/err" || die "eta: $(grep '^\[' "$T/err")"
}

# The disk line says what env.json could not read: never "vda (, scheduler".
report_disk_line_says_unknown() {
	mkdir "$T/r"
	printf '%s\n' '{"schema":1,"bench":"x","kind":"sweep","config_id":"api/stdio/bs=32","rep":1,"elapsed_s":0.5,"error":null}' \
		>"$T/r/results.jsonl"
	echo '{"in":{"disk":"vda","fs":"","scheduler":""}}' >"$T/r/env.json"
	out=$("$IOSTRAT" report "$T/r")
	echo "$out" | grep -qE '^disk +vda \(unknown, scheduler unknown\)$' || die "$out"
	echo '{"in":{"disk":"","fs":"tmpfs","scheduler":""}}' >"$T/r/env.json"
	out=$("$IOSTRAT" report "$T/r")
	echo "$out" | grep -qE '^disk +none \(tmpfs\)$' || die "$out"
}

# In a chroot the mount holding the data can be outside its view: another
# mount of the same filesystem (a bind from it) still tells its type.
env_names_the_filesystem_in_a_chroot() {
	need_cmd chroot
	local fs
	mkdir -p "$T/root/data" "$T/side"
	# the type of a visible mount of $T's filesystem (by device: $T's own
	# mount may be out of view, when this runs in a chroot itself)
	fs=$(awk -v d="$(stat -c %Hd:%Ld "$T/root")" '$3 == d {
		for (i = 7; i < NF; i++) if ($i == "-") { print $(i + 1); exit } }' /proc/self/mountinfo)
	[ -n "$fs" ] || skip "no mount of the filesystem of $T in view"
	# shellcheck disable=SC2016 # expanded by the inner shell
	in_private_mount_ns bash -c "$(declare -f chroot_of_system)"'
		r=$0
		chroot_of_system "$r" && mkdir "$r/side" && mount --bind "$1" "$r/side" || exit 7
		! mountpoint -q "$r" || exit 8
		chroot "$r" sh -c "cd /data && \"\$0\" gen in --files 1 --lines 10 --width 10 &&
			\"\$0\" run -s stream in out --reps 1 --cache asis --results r" "$IOSTRAT"' \
		"$T/root" "$T/side" >/dev/null 2>"$T/err" || die "exit $?: $(cat "$T/err")"
	jq -e --arg fs "$fs" '.in.fs == $fs' "$T/root/data/r/env.json" >/dev/null || die "not $fs: $(cat "$T/root/data/r/env.json")"
}

# --resume with -D: the engine's keys may change (reps, max_reps), the
# configurations the directory records may not: a -D that adds one
# (memory_max=0,64M) is refused in one line and no row is added.
resume_define_adding_configurations_refused() {
	mkdir -p "$T/in"; echo x >"$T/in/f"
	printf '[a]\ndataset=%s\nstrategy=stream\ncache=asis\nreps=1\nmax_reps=1\n' "$T/in" >"$T/p.ini"
	IOSTRAT_DATA="$T/data" "$IOSTRAT" bench "$T/p.ini" --out "$T/r" >/dev/null 2>&1 || die "bench failed"
	IOSTRAT_DATA="$T/data" expect_fail "bench --resume $T/r: -D memory_max=0,64M changes the configurations its profile.ini records" \
		"$IOSTRAT" bench --resume "$T/r" -D memory_max=0,64M
	IOSTRAT_DATA="$T/data" expect_fail "-D threads=2 changes the configurations" \
		"$IOSTRAT" bench --resume "$T/r" -D threads=2
	[ "$(wc -l <"$T/r/results.jsonl")" -eq 1 ] || die "rows added: $(cat "$T/r/results.jsonl")"
	IOSTRAT_DATA="$T/data" "$IOSTRAT" bench --resume "$T/r" -D reps=2 -D max_reps=2 -D trace=0 >/dev/null 2>"$T/err" ||
		die "an engine key refused: $(cat "$T/err")"
	[ "$(wc -l <"$T/r/results.jsonl")" -eq 2 ] || die "reps=2 not run: $(wc -l <"$T/r/results.jsonl") rows"
}

t bench_dry_run_expands_cross_product
t bench_knob_left_out_of_strategies_that_do_not_use_it
t bench_refuses_a_full_scratch_up_front
t bench_missing_keys_listed_together
t bench_ranges_steps_env_and_overrides
t bench_include_and_global_scoping
t bench_profile_errors_name_file_and_line
t bench_comment_after_a_value
t bench_global_keys_a_kind_does_not_take
t bench_dry_run_lists_sweep_and_run_sections
t bench_unknown_kind_is_an_error
t bench_writes_results_dir_and_report
t bench_ctrl_c_keeps_rows_and_resumes
t bench_killed_hard_resumes
t bench_resume_cuts_a_truncated_row
t bench_bad_rows_named
t bench_one_writer_per_results_dir
t negative_elapsed_row_is_warned_and_left_out
t many_bad_rows_are_counted_and_nothing_else_is_refused
t zero_elapsed_row_is_warned_and_left_out
t row_without_config_id_is_warned_and_left_out
t row_with_duplicate_key_is_warned_and_left_out
t row_with_newline_in_config_id_is_named
t compare_leaves_out_rows_that_are_not_measurements
t resume_reruns_a_row_that_is_not_a_measurement
t bench_out_with_users_csv_refused
t bench_out_with_results_refused_before_data
t bench_resume_keeps_its_data_root
t bench_resume_refuses_changed_data
t bench_resume_refuses_other_filesystem
t bench_and_run_share_config_ids
t bench_compare_two_runs
t compare_nothing_in_common_prints_only_the_error
t bench_report_lists_other_kinds
t bench_progress_shows_adaptive_bounds
t bench_rows_carry_their_round
t bench_order_is_reproducible_by_its_seed
t bench_notes_only_the_authors_repeats
t bench_dry_run_warns_of_cells_too_short_for_a_verdict
t bench_stop_ci_runs_three_rounds_and_says_why
t bench_stop_ci_refuses_max_reps_below_the_floor
t bench_race_drops_a_clearly_slower_strategy
t bench_race_futile_cell_names_its_next_step
t report_disk_line_says_unknown
t env_names_the_filesystem_in_a_chroot
t resume_with_a_define_adding_configurations_is_refused resume_define_adding_configurations_refused
