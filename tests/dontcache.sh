#!/usr/bin/env bash
# What the newer kernels add: --dontcache (RWF_DONTCACHE, 6.14) for stream,
# buffer and uring, refused by the strategies that cannot, on kernels
# without it (the IOSTRAT_FAKE_NO_DONTCACHE=1 seam stands for one) and
# where the run's file systems do not take it (tmpfs: /dev/shm); uring's
# --sqpoll and --sq_thread_idle.  Output is verified by `iostrat run`.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/caps.inc"

# $1: key, stdin: one --json row
json_get() { jq -rn --arg k "$1" 'input | .[$k]'; }


# 64 MiB in two files
gen64() { "$IOSTRAT" gen "$T/in" --files 2 --lines 32768 --width 1023 >/dev/null; }

# one --json row of `run -s $1 ARGS...`, or skip when this kernel or the
# filesystem of $T has no RWF_DONTCACHE
row_or_skip() {
	local s=$1 out err rc=0; shift
	out=$("$IOSTRAT" run -s "$s" "$T/in" "$T/out" -r 1 --cache cold --json "$@" \
		2>"$T/err") || rc=$?
	err=$(tail -n 1 "$T/err")
	case $err in
	*"does not support RWF_DONTCACHE"*) skip "$err" ;;
	esac
	[ "$rc" -eq 0 ] || die "$s $*: $err"
	printf '%s\n' "$out"
}

dontcache_verified_and_leaves_fewer_pages() {
	need_cmd jq
	gen64
	for s in $(strategies_with dontcache); do
		plain=$(row_or_skip "$s")
		dc=$(row_or_skip "$s" --dontcache)
		[ "$(json_get verified <<<"$dc")" = true ] || die "$s --dontcache: not verified"
		[ "$(json_get dontcache <<<"$dc")" = true ] || die "$s: row says dontcache false"
		case $(json_get config_id <<<"$dc") in */dontcache) ;; *) die "$s: no id part" ;; esac
		p=$(json_get cache_left_mib <<<"$plain")
		d=$(json_get cache_left_mib <<<"$dc")
		# the plain run leaves most of its 128 MiB (in and out) cached
		awk -v p="$p" -v d="$d" 'BEGIN { exit !(p >= 64 && d < p / 4) }' ||
			die "$s: $d MiB left with --dontcache, $p without"
	done
}

# The report sets every run's cache left beside the --dontcache ones; the
# unit stands once, in the column's header.
report_sets_cache_left_beside_dontcache() {
	printf '[a]\nstrategy=stream\ndataset=small\nscale=0.01\ndontcache=0,1\nreps=1\nmax_reps=1\n' >"$T/p.ini"
	"$IOSTRAT" bench "$T/p.ini" --out "$T/b" --data "$T/data" >/dev/null 2>"$T/err" ||
		die "bench: $(tail -n 1 "$T/err")"
	! grep -q 'RWF_DONTCACHE' "$T/err" || skip "$(grep -m1 RWF_DONTCACHE "$T/err")"
	"$IOSTRAT" report "$T/b" >"$T/rep" 2>&1 || die "report: $(cat "$T/rep")"
	grep -A3 -x 'page cache left' "$T/rep" >"$T/tab" || die "no table: $(cat "$T/rep")"
	grep -Eq '^  config_id +cache_left_mib \[MiB\]$' "$T/tab" || die "header: $(cat "$T/tab")"
	grep -Eq '/dontcache +[0-9.]+$' "$T/tab" || die "no dontcache row: $(cat "$T/tab")"
	grep -Eq 'fsync=file +[0-9.]+$' "$T/tab" || die "no plain row: $(cat "$T/tab")"
}

mmap_and_direct_refuse_it_by_capability() {
	gen64
	for s in $(strategies_with -v dontcache); do
		expect_fail "^iostrat: --dontcache: strategy $s does not do uncached buffered I/O \(stream, buffer, uring do\)$" \
			"$IOSTRAT" run -s "$s" --dontcache "$T/in" "$T/out" -r 1
	done
	expect_fail '^iostrat: --dontcache: not with --direct' \
		"$IOSTRAT" run -s uring --direct --dontcache "$T/in" "$T/out" -r 1
}

kernel_without_it_refused_naming_the_versions() {
	gen64
	IOSTRAT_FAKE_NO_DONTCACHE=1 expect_fail \
		"^iostrat: --dontcache: this kernel \($(uname -r)\) does not support RWF_DONTCACHE \(needs 6.14 or later\)$" \
		"$IOSTRAT" run -s stream --dontcache "$T/in" "$T/out" -r 1
	[ -z "$(names_in "$T/out" 2>/dev/null)" ] || die "refused, yet the run started"
}

# 64 MiB of inputs on a kernel with the flag, and $shm: a directory on
# tmpfs (/dev/shm), removed at the end.
shm_with_dontcache_here() {
	gen64
	row_or_skip stream --dontcache >/dev/null
	shm=$(mktemp -d /dev/shm/iostrat-test.XXXXXX)
	# shellcheck disable=SC2064
	trap "rm -rf '$shm'" EXIT
}

# An output directory, or inputs, on tmpfs (/dev/shm never takes the flag):
# one line naming it and its file system before any repetition, on a
# kernel that has the flag; the temporary directories play no part.
dontcache_where_the_run_writes_and_reads() {
	shm_with_dontcache_here
	expect_fail "^iostrat: --dontcache: the output directory $shm/out is on tmpfs, which does not support RWF_DONTCACHE \(this kernel, $(uname -r), does\)\$" \
		"$IOSTRAT" run -s stream --dontcache "$T/in" "$shm/out" -r 1
	[ -z "$(names_in "$shm/out" 2>/dev/null)" ] || die "refused, yet a repetition ran"
	cp -r "$T/in" "$shm/in"
	expect_fail "^iostrat: --dontcache: the input file $shm/in/f[0-9]+\.txt is on tmpfs, which does not support RWF_DONTCACHE" \
		"$IOSTRAT" run -s uring --dontcache "$shm/in" "$T/out2" -r 1
	[ -z "$(names_in "$T/out2" 2>/dev/null)" ] || die "refused, yet a repetition ran"
	# the flag is tried where the run is: every temporary directory on
	# tmpfs (a private mount namespace), the data on $T's disk, it runs.
	# The binary is run from $T: a checkout under /tmp or /var/tmp is
	# hidden by those mounts.
	need_root
	need_cmd unshare
	cp "$IOSTRAT" "$T/iostrat"
	unshare -m sh -ec 'mount --make-rprivate /
		mount -t tmpfs tmpfs /var/tmp; mkdir /var/tmp/t; mount --bind "$T" /var/tmp/t
		mount -t tmpfs tmpfs /tmp
		TMPDIR=/dev/shm /var/tmp/t/iostrat run -s stream --dontcache /var/tmp/t/in /var/tmp/t/out3 \
			-r 1 --cache cold --json' >"$T/row" 2>"$T/err" || die "$(tail -n 1 "$T/err")"
	[ "$(json_get verified <"$T/row")" = true ] || die "not verified: $(cat "$T/row")"
}

bench_on_tmpfs_lists_dontcache_configs_as_not_runnable() {
	shm_with_dontcache_here
	out=$("$IOSTRAT" bench "$TOP/profiles/kernels.ini" --dry-run --data "$shm/data" 2>&1)
	printf '%s\n' "$out" | grep -q "\[dontcache\]: --dontcache: the input directory $shm/data/big-[^ ]* is on tmpfs, which does not support RWF_DONTCACHE .*; skipped" ||
		die "no reason given: $out"
	# direct is skipped there too, before anything runs (its O_DIRECT is
	# the page cache); the other plain ones run
	printf '%s\n' "$out" | grep -q "\[plain\]: $shm: tmpfs does not do direct I/O .*; skipped" ||
		die "direct not skipped on tmpfs: $out"
	printf '%s\n' "$out" | grep -q '^3 configurations' || die "the plain ones do not run: $out"
}

bench_lists_dontcache_configs_as_not_runnable() {
	out=$(IOSTRAT_FAKE_NO_DONTCACHE=1 "$IOSTRAT" bench "$TOP/profiles/kernels.ini" \
		--dry-run --data "$T/data" 2>&1)
	printf '%s\n' "$out" | grep -q '\[dontcache\]: --dontcache: this kernel .* (needs 6.14 or later); skipped' ||
		die "no reason given: $out"
	! printf '%s\n' "$out" | grep -q '/dontcache' || die "a dontcache configuration is listed: $out"
	printf '%s\n' "$out" | grep -q '^4 configurations' || die "the plain ones do not run: $out"
}

sqpoll_verified_and_in_ring_flags() {
	need_cmd jq
	gen64
	out=$("$IOSTRAT" run -s uring "$T/in" "$T/out" -r 1 --cache asis --json --sqpoll \
		--sq_thread_idle 20 2>"$T/err") || {
		grep -q -- '--sqpoll: ' "$T/err" && skip "$(tail -n 1 "$T/err")"
		die "$(tail -n 1 "$T/err")"
	}
	[ "$(json_get verified <<<"$out")" = true ] || die "not verified"
	case $(json_get ring_flags <<<"$out") in sqpoll*) ;; *) die "ring_flags: $out" ;; esac
	[ "$(json_get sq_thread_idle <<<"$out")" = 20 ] || die "sq_thread_idle not recorded"
	case $(json_get config_id <<<"$out") in */sqpoll/sq_thread_idle=20) ;;
		*) die "config_id: $(json_get config_id <<<"$out")" ;; esac
}

bad_sq_thread_idle_refused() {
	gen64
	for v in 0 60001 x; do
		expect_fail "^iostrat: --sq_thread_idle: bad value '$v'" \
			"$IOSTRAT" run -s uring --sqpoll --sq_thread_idle "$v" "$T/in" "$T/out" -r 1
	done
}

# the idle time of a polling thread that is not started: a usage error
# before anything runs (exit 2, no OUT), not a failed measurement row
sq_thread_idle_without_sqpoll_is_a_usage_error() {
	gen64
	local rc=0
	"$IOSTRAT" run -s uring --sq_thread_idle 5 "$T/in" "$T/out" -r 1 --cache asis \
		>"$T/rows" 2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] || die "exit $rc, not 2: $(cat "$T/err")"
	grep -q -- '--sq-thread-idle: only with --sqpoll' "$T/err" || die "$(cat "$T/err")"
	[ ! -s "$T/rows" ] || die "a row left by a refused run"
	[ ! -e "$T/out" ] || die "OUT made by a refused run"
}

t dontcache_output_verified_and_fewer_mib_left_cached dontcache_verified_and_leaves_fewer_pages
t report_sets_cache_left_beside_dontcache
t dontcache_refused_by_mmap_and_direct_in_one_line mmap_and_direct_refuse_it_by_capability
t dontcache_on_a_kernel_without_it_refused_naming_versions kernel_without_it_refused_naming_the_versions
t dontcache_bench_lists_its_configs_as_not_runnable bench_lists_dontcache_configs_as_not_runnable
t dontcache_tried_where_the_run_reads_and_writes_refused_on_tmpfs_in_one_line \
	dontcache_where_the_run_writes_and_reads
t dontcache_bench_with_data_on_tmpfs_lists_its_configs_as_not_runnable \
	bench_on_tmpfs_lists_dontcache_configs_as_not_runnable
t sqpoll_output_verified_and_recorded_in_ring_flags sqpoll_verified_and_in_ring_flags
t sq_thread_idle_bad_values_refused bad_sq_thread_idle_refused
t sq_thread_idle_without_sqpoll_is_a_usage_error
