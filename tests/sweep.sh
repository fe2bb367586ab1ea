#!/usr/bin/env bash
# iostrat sweep blocksize|bufsize|api: every variant's data equals the
# reference, system calls match the arithmetic and strace, bad arguments
# give one line, data files are cleaned up unless --keep.  Small sizes:
# this is about behaviour, not speed.
. "$(dirname "$0")/lib.sh"
need_cmd jq

rows() { jq -c 'select(.kind == "sweep")' "$1/results.jsonl"; }
xxh3() { xxhsum -H3 "$@" | sed 's/.* = //'; }
# xxh3 of the concatenation of files
xxh3_cat() { cat "$@" | xxhsum -H3 - | sed 's/.* = //'; }

# every row verified, and every checksum the xxh3 of the data (computed here
# by xxhsum, independently of iostrat)
all_rows_match() {
	local dir=$1 want=$2 n
	n=$(rows "$dir" | wc -l)
	[ "$n" -gt 0 ] || die "no rows in $dir"
	rows "$dir" | jq -e 'select(.verified != true or .error != null)' >/dev/null &&
		die "unverified rows: $(rows "$dir" | jq -c 'select(.verified != true) | .config_id')"
	rows "$dir" | jq -r .checksum | sort -u | while read -r c; do
		[ "$c" = "$want" ] || die "checksum $c, expected $want"
	done
}

blocksize_variants_match_reference() {
	need_cmd xxhsum
	"$IOSTRAT" sweep blocksize --size 50000 --sizes 1,5,4096,1M --reps 1 \
		--variants syscall,stdio,iostream,mmap --buffer 100,64k --out "$T/r" \
		--dir "$T/d" --keep --fsync none >"$T/out"
	all_rows_match "$T/r" "$(xxh3 "$T/d/sweep-data-00.dat")"
	# 2 ops x 4 sizes x (4 apis + 2 stdio buffers)
	[ "$(rows "$T/r" | wc -l)" -eq 48 ] || die "expected 48 rows"
	[ "$(rows "$T/r" | jq -r .variant | sort -u | tr '\n' ' ')" = \
	  "iostream mmap stdio stdio-100 stdio-65536 syscall " ] || die "variants"
	grep -q '^write  stdio-100 ' "$T/out" || die "table lacks stdio-100"
}

api_variants_match_reference() {
	need_cmd xxhsum
	# a size that no buffer divides: the tails must be right too
	"$IOSTRAT" sweep api --size 100003 --sizes 32,4k,whole --reps 1 \
		--out "$T/r" --dir "$T/d" --keep >"$T/out"
	all_rows_match "$T/r" "$(xxh3 "$T/d/sweep-data-00.dat")"
	# 2 ops x 3 sizes x 6 variants
	[ "$(rows "$T/r" | wc -l)" -eq 36 ] || die "expected 36 rows"
	[ "$(rows "$T/r" | jq -r .variant | sort -u | tr '\n' ' ')" = \
	  "iostream-callsize iostream-default mmap stdio-callsize stdio-default syscall " ] ||
		die "variants: $(rows "$T/r" | jq -r .variant | sort -u | tr '\n' ' ')"
	# the callsize variants got a buffer matching the size, the default
	# ones the library's own (stdio: st_blksize, whatever the call size)
	rows "$T/r" | jq -e 'select(.variant == "stdio-callsize" and .whole_file == false and
		.bufsize != .block_size)' >/dev/null && die "stdio buffer not matched"
	[ "$(rows "$T/r" | jq -r 'select(.variant == "stdio-default") | .bufsize' | sort -u | wc -l)" = 1 ] ||
		die "stdio-default buffer follows the call size"
	[ "$(grep -c '^overall (write + read points): ' "$T/out")" = 2 ] || die "not one overall order per set"
	grep -Eq '^   whole +[0-9.]+ \( ?[1-4]\)' "$T/out" || die "no whole-file row"
}

# The score is computed within a set: the study's (the libraries with
# their default buffers) and the call-size one, each of 4 variants, and
# a set is printed once for the variants that ran.
api_scores_each_set_on_its_own() {
	"$IOSTRAT" sweep api --size 20000 --sizes 64,whole --reps 1 --fsync none \
		--out "$T/r" >"$T/out"
	grep -q '^== study: ' "$T/out" || die "no study set"
	grep -q '^== callsize: ' "$T/out" || die "no callsize set"
	sed -n '/^== study/,/^== callsize/p' "$T/out" | grep -q '^ *buffer  *syscall  *stdio-default  *iostream-default  *mmap$' ||
		die "study header: $(sed -n '/^== study/,/^== callsize/p' "$T/out" | grep buffer | head -1)"
	"$IOSTRAT" sweep api --size 20000 --sizes 64 --reps 1 --fsync none \
		--apis study --out "$T/r2" >"$T/out2"
	[ "$(rows "$T/r2" | jq -r .variant | sort -u | wc -l)" = 4 ] || die "--apis study"
	grep -q '^== callsize' "$T/out2" && die "callsize set printed without its variants"
	[ "$(grep -c '^== ' "$T/out2")" = 1 ] || die "sets"
	# syscall and mmap alone are in both sets: printed once
	"$IOSTRAT" sweep api --size 20000 --sizes 64 --reps 1 --fsync none \
		--apis syscall,mmap --out "$T/r3" >"$T/out3"
	[ "$(grep -c '^== ' "$T/out3")" = 1 ] || die "the same set printed twice"
}

# The point of the library buffer, by system calls (not time): reading and
# writing 32 bytes a call, the libraries with their default buffers make
# one call per buffer (stdio: st_blksize, 4096 here; libstdc++: BUFSIZ),
# the raw calls and the call-size buffers one per 32 bytes.
default_buffers_batch_small_calls() {
	local size=262144
	"$IOSTRAT" sweep api --size $size --sizes 32 --reps 1 --fsync none \
		--out "$T/r" >"$T/out"
	calls() { rows "$T/r" | jq -r "select(.operation == \"$1\" and .variant == \"$2\") | .syscalls"; }
	buf() { rows "$T/r" | jq -r "select(.operation == \"$1\" and .variant == \"$2\") | .bufsize"; }
	local op v n b
	for op in read write; do
		for v in syscall stdio-callsize iostream-callsize; do
			n=$(calls $op $v)
			[ "$n" -ge $((size / 32)) ] || die "$op $v: $n calls, expected size/32 = $((size / 32))"
		done
		for v in stdio-default iostream-default; do
			n=$(calls $op $v); b=$(buf $op $v)
			[ "$b" -ge 1024 ] || die "$op $v: buffer $b"
			# one call per buffer, plus end of file, plus at most one
			# partial buffer (libstdc++ reads BUFSIZ-1 at a time); the
			# kernel counts the whole process, and a sanitizer build
			# makes a few reads of its own: 16 to spare
			[ "$n" -le $((size / (b - 1) + 2 + 16)) ] ||
				die "$op $v: $n calls, expected about size/$b = $((size / b))"
			[ "$n" -lt $(($(calls $op syscall) / 50)) ] || die "$op $v: no batching"
		done
	done
	grep -Eq '^read: median read/write system calls per run' "$T/out" || die "no syscall table"
}

bufsize_reads_match_reference() {
	need_cmd xxhsum
	"$IOSTRAT" sweep bufsize --files 3 --size 100000 --sizes 32..1k --reps 1 \
		--out "$T/r" --dir "$T/d" --keep >"$T/out"
	all_rows_match "$T/r" "$(xxh3_cat "$T"/d/sweep-data-0{0,1,2}.dat)"
	[ "$(rows "$T/r" | wc -l)" -eq 6 ] || die "expected 6 sizes"
	grep -q '<- knee' "$T/out" || die "knee not marked"
	grep -Eq '^knee: [0-9]+[KM]? B -- the smallest buffer whose median elapsed' "$T/out" || die "no knee line"
	grep -Eq "^readahead: .*kernel's default is 128 KiB" "$T/out" || die "no readahead line"
	rows "$T/r" | jq -e 'select(.cache != "cold")' >/dev/null && die "not cold"
	true
}

bufsize_scale() {
	"$IOSTRAT" sweep bufsize --files 2 --scale 0.002 --sizes 4k --reps 1 \
		--out "$T/r" >/dev/null
	[ "$(rows "$T/r" | jq -r .bytes_in)" = 200000 ] || die "50 MB x 0.002 x 2 files"
}

# A variant whose data differs fails the sweep, naming it, with a row
# that says so; its time is not counted.
wrong_data_fails_the_sweep() {
	local api
	for api in stdio iostream mmap syscall; do
		rm -rf "$T/r"
		IOSTRAT_SWEEP_CORRUPT=$api expect_fail \
			"sweep api: $api(-[a-z]+)? read, 4K bytes per call: data checksum xxh3 [0-9a-f]+ differs from the reference" \
			"$IOSTRAT" sweep api --size 50000 --sizes 4k --ops read --reps 1 --out "$T/r"
		rows "$T/r" | jq -e "select(.api == \"$api\" and .verified == false and .error != null)" >/dev/null ||
			die "$api: no failed row"
		[ ! -e "$T/r/data" ] || die "data left behind after the failure"
	done
	IOSTRAT_SWEEP_CORRUPT=stdio expect_fail "stdio write, 1 bytes per call: data checksum" \
		"$IOSTRAT" sweep blocksize --size 5000 --sizes 1 --ops write --reps 1 --out "$T/w"
}

# 10 MiB read in 4096-byte blocks: 2560 reads and the one that returns 0;
# writes: 2560.  Counted by iostrat and by the kernel (/proc/self/io).
syscall_counts_match_arithmetic() {
	"$IOSTRAT" sweep blocksize --size 10M --sizes 4096 --variants syscall \
		--reps 1 --fsync none --out "$T/r" >/dev/null
	[ "$(rows "$T/r" | jq -r 'select(.operation == "read") | .syscalls')" = 2561 ] || die "reads"
	[ "$(rows "$T/r" | jq -r 'select(.operation == "read") | .kernel_reads')" = 2561 ] || die "kernel reads"
	[ "$(rows "$T/r" | jq -r 'select(.operation == "write") | .syscalls')" = 2560 ] || die "writes"
	[ "$(rows "$T/r" | jq -r 'select(.operation == "write") | .kernel_writes')" = 2560 ] || die "kernel writes"
	# a size no block divides: ceil(100003/1000) = 101
	"$IOSTRAT" sweep blocksize --size 100003 --sizes 1000,7 --variants syscall \
		--reps 1 --fsync none --out "$T/r2" >/dev/null
	[ "$(rows "$T/r2" | jq -r 'select(.operation == "read" and .block_size == 1000) | .syscalls')" = 102 ] || die "ceil reads"
	[ "$(rows "$T/r2" | jq -r 'select(.operation == "write" and .block_size == 7) | .syscalls')" = 14287 ] || die "ceil writes"
	# stdio with a 4096 buffer reading 1 MiB byte by byte: the kernel sees 257
	"$IOSTRAT" sweep blocksize --size 1M --sizes 1 --variants stdio --buffer 4096 \
		--ops read --reps 1 --out "$T/r3" >/dev/null
	[ "$(rows "$T/r3" | jq -r 'select(.variant == "stdio-4096") | .syscalls')" = 257 ] || die "stdio reads"
}

# strace -f, one trace file per process: each measured child's read and
# write calls equal what its row says.
syscall_counts_match_strace() {
	need_cmd strace
	# (LeakSanitizer cannot run under ptrace: off for a sanitizer build)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -ff -o "$T/tr" -e trace=read,write -qq \
		"$IOSTRAT" sweep blocksize --size 1M --sizes 4096,1000 --variants syscall,stdio \
		--reps 1 --fsync none --out "$T/r" >/dev/null 2>"$T/err" || die "$(cat "$T/err")"
	local want got f
	want=$(rows "$T/r" | jq -r '"\(.kernel_reads) \(.kernel_writes)"' | sort)
	[ "$(printf '%s\n' "$want" | wc -l)" -eq 8 ] || die "expected 8 rows"
	got=$(for f in "$T"/tr.*; do
		r=$(grep -c '^read(' "$f" || true); w=$(grep -c '^write(' "$f" || true)
		echo "$r $w"
	done | sort)
	# every row's counts appear as one child's trace (the parent is extra)
	while read -r line; do
		printf '%s\n' "$got" | grep -qx "$line" || die "strace has no process with reads/writes '$line'; got: ${got//$'\n'/ }"
	done <<<"$want"
	# and the tool's own count for the syscall variant agrees with strace
	rows "$T/r" | jq -e 'select(.api == "syscall" and
		.syscalls != (.kernel_reads + .kernel_writes))' >/dev/null && die "own count differs"
	true
}

bad_arguments() {
	expect_fail 'sweep: nope: unknown sweep' "$IOSTRAT" sweep nope
	expect_fail -- "--size: bad value '0'" "$IOSTRAT" sweep blocksize --size 0
	expect_fail -- "--sizes: bad value '0'" "$IOSTRAT" sweep blocksize --sizes 1,0
	expect_fail -- "--sizes: bad value '1,,2' \(an empty item" "$IOSTRAT" sweep api --sizes 1,,2
	expect_fail -- "--sizes: bad value '4q'" "$IOSTRAT" sweep bufsize --sizes 32,4q
	expect_fail -- "--sizes: bad value '8..2'" "$IOSTRAT" sweep bufsize --sizes 8..2
	expect_fail -- "--sizes: bad value 'whole'" "$IOSTRAT" sweep blocksize --sizes whole
	expect_fail -- "--sizes: missing value" "$IOSTRAT" sweep api --sizes
	expect_fail -- "--apis: bad value 'java'" "$IOSTRAT" sweep api --apis stdio,java
	expect_fail -- "--ops: bad value 'rw'" "$IOSTRAT" sweep api --ops rw
	expect_fail -- "--reps: bad value '0'" "$IOSTRAT" sweep api --reps 0
	expect_fail -- "--cache: bad value 'hot'" "$IOSTRAT" sweep api --cache hot
	expect_fail -- "--fsync: bad value 'end'" "$IOSTRAT" sweep api --fsync end
	expect_fail -- "--scale: bad value '-1'" "$IOSTRAT" sweep bufsize --scale -1
	expect_fail -- "--files: unknown option \\(iostrat sweep blocksize --help\\)" "$IOSTRAT" sweep blocksize --files 3
	expect_fail -- "--bogus: unknown option" "$IOSTRAT" sweep api --bogus
	: >"$T/file"
	expect_fail "$T/file/d: data directory: Not a directory" \
		"$IOSTRAT" sweep api --dir "$T/file/d" --out "$T/r" --size 1000 --reps 1
	expect_fail "$T/file: data directory: not a directory" \
		"$IOSTRAT" sweep api --dir "$T/file" --out "$T/r" --size 1000 --reps 1
	expect_fail "$T/file/r.*Not a directory" \
		"$IOSTRAT" sweep api --dir "$T/d" --out "$T/file/r" --size 1000 --reps 1
	[ ! -e "$T/d" ] || die "data directory left after a failed start"
	[ ! -e "$T/r" ] || die "results left after a failed start"
}

unwritable_target() {
	need_root
	mkdir "$T/ro"
	mount -t tmpfs -o ro,size=1m tmpfs "$T/ro" || skip "cannot mount tmpfs"
	trap 'umount "$T/ro"' EXIT
	expect_fail "$T/ro/d: (creating data directory|data directory).*Read-only" \
		"$IOSTRAT" sweep api --dir "$T/ro/d" --out "$T/r" --size 1000 --reps 1
	expect_fail "$T/ro: data directory not writable: Read-only" \
		"$IOSTRAT" sweep api --dir "$T/ro" --out "$T/r" --size 1000 --reps 1
	expect_fail "$T/ro/r: creating results directory: Read-only" \
		"$IOSTRAT" sweep api --out "$T/ro/r" --size 1000 --reps 1
}

data_removed_unless_keep() {
	"$IOSTRAT" sweep api --size 3000 --sizes 64 --reps 1 --out "$T/r" >/dev/null
	[ -f "$T/r/results.csv" ] || die "no results"
	[ ! -e "$T/r/data" ] || die "default data directory not removed"
	# a directory the user gave: our files go, the directory and theirs stay
	mkdir "$T/d"; echo mine >"$T/d/mine"
	"$IOSTRAT" sweep blocksize --size 3000 --sizes 64 --reps 1 --out "$T/r2" --dir "$T/d" >/dev/null
	[ "$(ls "$T/d")" = mine ] || die "left: $(ls "$T/d")"
	"$IOSTRAT" sweep bufsize --files 2 --size 3000 --sizes 64 --reps 1 --out "$T/r3" \
		--dir "$T/new" --keep >/dev/null
	[ -f "$T/new/sweep-data-00.dat" ] && [ -f "$T/new/sweep-data-01.dat" ] || die "--keep did not keep"
	[ "$(stat -c %s "$T/new/sweep-data-01.dat")" = 3000 ] || die "size"
}

# What `iostrat report` needs: config_id grouping the repetitions, a
# metric, the sweep's columns after the core ones, medians in summary.csv.
rows_carry_what_a_report_needs() {
	"$IOSTRAT" sweep api --size 2000 --sizes 64,whole --apis syscall,mmap --ops read \
		--reps 3 --out "$T/r" >/dev/null
	[ "$(rows "$T/r" | jq -r .config_id | sort | uniq -c | awk '{print $1}' | sort -u)" = 3 ] ||
		die "config_id does not group 3 repetitions"
	rows "$T/r" | jq -e 'select(.metric != "elapsed_s" or .sweep != "api" or
		.schema != 1 or .kind != "sweep" or .bench != "sweep-api")' >/dev/null && die "columns"
	head -1 "$T/r/results.csv" | grep -q '^schema,bench,kind,config_id,rep,.*,host,error,.*,sweep,variant,operation,api,block_size' ||
		die "csv header: $(head -1 "$T/r/results.csv")"
	[ "$(tail -n +2 "$T/r/summary.csv" | wc -l)" -eq 4 ] || die "summary rows"
	grep -q '^sweep api: ' "$T/r/sweep.txt" || die "no sweep.txt"
	[ -s "$T/r/env.json" ] || die "no env.json"
}

# Ctrl-C: the running child dies, completed rows stay, data is removed.
interrupt_keeps_rows() {
	"$IOSTRAT" sweep blocksize --size 1M --sizes 1 --variants syscall --reps 50 \
		--fsync none --ops read --out "$T/r" >/dev/null 2>"$T/err" &
	local pid=$!
	for _ in $(seq 100); do
		[ -s "$T/r/results.jsonl" ] && break
		sleep 0.1
	done
	kill -INT $pid
	wait $pid && die "exit 0 after SIGINT"
	grep -Eq 'sweep-blocksize: interrupted by signal 2; .*[0-9]+ repetitions kept in' "$T/err" || die "$(cat "$T/err")"
	[ -f "$T/r/results.csv" ] || die "results not finished"
	[ ! -e "$T/r/data" ] || die "data left"
	jq -e . "$T/r/results.jsonl" >/dev/null || die "broken jsonl"
}

# Profiles run sweeps: [sweep-KIND] sections, lists expand into
# configurations, the bench engine does repetitions and results; a key by
# either of its names (op or operation, api or variant, block or
# block_size: the settings' aliases).
profile_sections_run_sweeps() {
	cat >"$T/p.ini" <<-EOF
	[global]
	reps=2
	[sweep-api]
	op=read
	api=syscall,mmap
	block=64,whole
	size=20000
	[sweep-blocksize]
	operation=write
	variant=stdio
	buffer=4k
	block_size=7
	size=5000
	[sweep-bufsize]
	block=4k
	files=2
	size=3000
	EOF
	"$IOSTRAT" bench "$T/p.ini" --out "$T/b" --data "$T/data" >/dev/null 2>"$T/err" || die "$(tail -3 "$T/err")"
	[ "$(rows "$T/b" | wc -l)" -eq 12 ] || die "expected 6 configurations x 2 reps, got $(rows "$T/b" | wc -l)"
	rows "$T/b" | jq -e 'select(.verified != true or .error != null)' >/dev/null && die "unverified rows"
	[ "$(rows "$T/b" | jq -r .config_id | sort -u | wc -l)" -eq 6 ] || die "config ids"
	[ "$(rows "$T/b" | jq -r 'select(.sweep == "blocksize") | .variant' | sort -u)" = stdio-4096 ] || die "buffer"
	[ "$(rows "$T/b" | jq -r 'select(.sweep == "bufsize") | .bytes_in' | sort -u)" = 6000 ] || die "bufsize files"
	rows "$T/b" | jq -e 'select(.bench != "p")' >/dev/null && die "bench name"
	"$IOSTRAT" report "$T/b" >"$T/report" || die "report failed"
	grep -q '1x20000/sweep-api/mmap/read/20000/whole/warm/fsync=file' "$T/report" || die "report lacks the sweep rows"
	[ -z "$(ls -A "$T/data" 2>/dev/null)" ] || die "scratch left: $(ls -A "$T/data")"
}

# The profile text $2 (printf's escapes) in $T/$1.ini is refused by bench
# with a message matching $3.
bad_profile() {
	printf '%b' "$2" >"$T/$1.ini"
	expect_fail "$3" "$IOSTRAT" bench "$T/$1.ini" --out "$T/b" --data "$T/data"
}

profile_errors_name_the_line() {
	bad_profile a '[sweep-api]\nop=read\napi=stdio-default\nblock=32..1k\n' \
		"a.ini:4: block: bad value|a.ini:4: block: one block size per configuration"
	bad_profile b '[sweep-api]\napi=stdio-callsize\nblock=4k\n' 'b.ini:1: \[sweep-api\]: op= is missing'
	bad_profile c '[sweep-api]\nop=read\napi=stdio-default\nblock=4k\nfiles=3\n' \
		'c.ini:5: files: unknown key for a sweep api section'
	# api=stdio names two variants: a profile configuration takes one
	bad_profile f '[sweep-api]\nop=read\napi=stdio\nblock=4k\n' \
		'f.ini:3: api: one variant \(e.g. stdio-default or stdio-callsize\) per configuration, not .stdio.'
	bad_profile d '[sweep-nope]\nblock=4k\n' 'd.ini:1: \[sweep-nope\]: which sweep'
	bad_profile e '[sweep-bufsize]\nblock=0\n' "e.ini:2: sizes?: bad value '0'|e.ini:2: block: bad value '0'"
	[ ! -e "$T/b" ] || die "results written for a bad profile"
}

t blocksize_variants_match_reference
t api_variants_match_reference
t api_scores_each_set_on_its_own
t default_buffers_batch_small_calls
t bufsize_reads_match_reference
t bufsize_scale
t wrong_data_fails_the_sweep
t syscall_counts_match_arithmetic
t syscall_counts_match_strace
t bad_arguments
t unwritable_target
t data_removed_unless_keep
t rows_carry_what_a_report_needs
t interrupt_keeps_rows
t profile_sections_run_sweeps
t profile_errors_name_the_line

# a directory of sweep rows only, or of net rows only: its report has no
# strategy-run table (not an empty one), in every format
report_has_no_empty_run_table() {
	"$IOSTRAT" sweep blocksize --size 64k --reps 1 --out "$T/sw" >/dev/null 2>&1 || die "sweep failed"
	"$IOSTRAT" net --mode nodelay --size 12 --count 200 --reps 1 --out "$T/net" >/dev/null 2>&1 || die "net failed"
	local d f out
	for d in sw net; do
		for f in text markdown json; do
			out=$("$IOSTRAT" report "$T/$d" --format $f) || die "report $d --format $f failed"
			! printf '%s\n' "$out" | grep -q 'kind run' || die "$d, $f: a run table: $(printf '%s\n' "$out" | grep -A2 'kind run' | tr '\n' ' ')"
			printf '%s\n' "$out" | grep -q "kind $([ $d = sw ] && echo sweep || echo net)" || die "$d, $f: its own table is missing"
		done
	done
}
t report_of_sweep_or_net_rows_only_has_no_empty_run_table report_has_no_empty_run_table
