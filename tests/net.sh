#!/usr/bin/env bash
# iostrat net: every mode delivers every byte (sizes 1 B .. 64 KiB, tiny
# socket buffers, partial reads and writes at every boundary), over TCP and
# over Unix sockets, and a peer that misbehaves gives one clear line and a
# non-zero exit, never a hang.  Loopback and Unix sockets only; every peer
# and run is bounded in count and time.
. "$(dirname "$0")/lib.sh"
PEER="python3 $TOP/tests/net_peer.py"
ALL="nodelay,nagle,buffered,writev,cork,uring,pingpong-unbuffered,pingpong-buffered,pingpong-pipelined"

# every_mode DIR NSIZES ARGS...: `iostrat net ARGS` for every mode, uring
# apart: io_uring may be off here (kernel.io_uring_disabled, seccomp), or
# switched off for a moment by another test on this machine; that mode then
# fails with one clear line, which is not what these tests are about.
# Checks every row verified: NSIZES rows per mode.
NOURING=${ALL/uring,/}
every_mode() {
	local dir=$1 nsizes=$2; shift 2
	"$IOSTRAT" net --mode "$NOURING" --out "$dir" "$@" >"$dir.out"
	all_verified "$dir" $((8 * nsizes))
	if "$IOSTRAT" net --mode uring --out "$dir-uring" "$@" >/dev/null 2>"$dir.err"; then
		all_verified "$dir-uring" "$nsizes"
	else
		grep -q 'io_uring_queue_init: Operation not permitted' "$dir.err" || die "uring: $(cat "$dir.err")"
		echo "note: io_uring not permitted here; uring mode not checked"
	fi
}
have_uring() {
	"$IOSTRAT" net --mode uring --count 1 --reps 1 --out "$T/uring-probe-$RANDOM" >/dev/null 2>&1
}

need_python() { need_cmd python3; }

# start_peer BEHAVIOUR [ARG]: a misbehaving server; sets PORT and PEER_PID
start_peer() {
	need_python
	$PEER "$T/port" "$@" >"$T/peer.log" 2>&1 &
	PEER_PID=$!
	for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.1; done
	[ -s "$T/port" ] || die "peer did not start: $(cat "$T/peer.log")"
	PORT=$(cat "$T/port")
	rm -f "$T/port"
}
stop_peer() {
	if [ -n "${PEER_PID:-}" ]; then kill "$PEER_PID" 2>/dev/null || true; fi
	wait 2>/dev/null || true
}

# start_server [ARGS]: `iostrat net --listen 127.0.0.1:0 ARGS`; sets PORT, SRV_PID
start_server() {
	"$IOSTRAT" net --listen 127.0.0.1:0 "$@" >"$T/srv.out" 2>"$T/srv.err" &
	SRV_PID=$!
	for _ in $(seq 100); do grep -q '^listening on' "$T/srv.out" && break; sleep 0.1; done
	PORT=$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$T/srv.out")
	[ -n "$PORT" ] || die "server did not start: $(cat "$T/srv.err")"
}

# rows DIR: "mode size verified error" per results row
rows() {
	jq -r 'if has("mode") and has("msg_size") and has("verified") and has("error")
		then "\(.mode) \(.msg_size) \(.verified) \(if .error == null or .error == "" then "-" else .error end)"
		else error("a row without mode, msg_size, verified or error") end' "$1/results.jsonl"
}

# every mode and size ran once and verified
all_verified() {
	local dir=$1 want=$2 n bad
	n=$(rows "$dir" | wc -l)
	[ "$n" -eq "$want" ] || die "expected $want rows, got $n"
	bad=$(rows "$dir" | grep -v ' true -$' || true)
	[ -z "$bad" ] || die "not verified: $bad"
}

every_mode_every_size() {
	every_mode "$T/r" 3 --size 1,1000,65536 --count 150 --reps 1
	grep -q '^pingpong-pipelined *65536 .* 1/1$' "$T/r.out" || die "table: $(tail -3 "$T/r.out")"
}
tiny_socket_buffers() {
	# 64 KiB messages through ~4 KiB socket buffers: partial sends and reads
	every_mode "$T/r" 3 --size 1,4097,65536 --count 20 --reps 1 \
		--sndbuf 2k --rcvbuf 2k --batch 8 --buffer 1000
}
partial_io_at_every_boundary() {
	# every read and write capped at 1 and 3 bytes: headers and payloads
	# split at every offset, buffers smaller than a frame
	for cap in 1 3; do
		every_mode "$T/r$cap" 2 --size 0,13 --count 12 --reps 1 --io-max $cap \
			--batch 3 --buffer 16
	done
}
listen_and_connect() {
	start_server --timeout 5
	trap 'kill $SRV_PID 2>/dev/null; true' EXIT
	every_mode "$T/r" 2 --connect "127.0.0.1:$PORT" --size 12,5000 --count 100 --reps 1
	[ "$(grep -c 'messages of' "$T/srv.out")" -ge 16 ] || die "server log: $(cat "$T/srv.out")"
}
results_have_the_figures() {
	"$IOSTRAT" net --mode nodelay,buffered,writev,pingpong-buffered --count 2000 --reps 2 \
		--batch 50 --out "$T/r" >/dev/null
	for f in results.jsonl results.csv summary.csv env.json; do [ -s "$T/r/$f" ] || die "no $f"; done
	head -1 "$T/r/results.csv" | grep -q '^schema,bench,kind,config_id,.*,error,.*,mode,msg_size,count,msgs_s,syscalls_per_msg,' ||
		die "columns: $(head -1 "$T/r/results.csv")"
	csv_rows "$T/r/summary.csv" | jq -se '
		(map({(.mode): .}) | add) as $by
		| ($by | map_values(.syscalls_per_msg | tonumber)) as $calls
		| length == 4 and all(.[]; .n == "2" and .metric == "msgs_s")
		and 1.0 <= $calls.nodelay and $calls.nodelay < 1.01          # one send each (+ the trailer read)
		and $calls.buffered < 0.01                                   # 64 KiB buffer: ~1 send per 4000 messages
		and 0.019 < $calls.writev and $calls.writev < 0.03           # one writev per 50
		and 2.0 <= $calls["pingpong-buffered"] and $calls["pingpong-buffered"] < 2.01 # a send and a recv each
		and all($by[]; .verified == "true")
		and ($by["pingpong-buffered"] | (.rtt_p50_us, .rtt_p99_us, .rtt_p999_us) |= tonumber
			| 0 < .rtt_p50_us and .rtt_p50_us <= .rtt_p99_us and .rtt_p99_us <= .rtt_p999_us)
		and $by.nodelay.rtt_p50_us == ""' >/dev/null || die "summary: $(cat "$T/r/summary.csv")"
}
corrupt_checksum_is_caught() {
	start_peer bad-trailer
	trap stop_peer EXIT
	expect_fail "127.0.0.1:$PORT: nodelay: checksums differ" \
		"$IOSTRAT" net --connect "127.0.0.1:$PORT" --mode nodelay --count 50 --reps 1 --out "$T/r"
	grep -q '"verified":false' "$T/r/results.jsonl" || die "row not marked unverified"
}
corrupt_reply_is_caught() {
	start_peer bad-reply
	trap stop_peer EXIT
	expect_fail "pingpong-buffered: reply 1 differs" \
		"$IOSTRAT" net --connect "127.0.0.1:$PORT" --mode pingpong-buffered --count 50 --reps 1 --out "$T/r"
}
peer_closes_early() {
	# a peer that reads 100 bytes and closes: every mode says so, no SIGPIPE death
	for m in nodelay writev uring pingpong-pipelined; do
		[ $m = uring ] && ! have_uring && continue
		start_peer close-after 100
		rc=0
		"$IOSTRAT" net --connect "127.0.0.1:$PORT" --mode "$m" --size 1000 --count 100000 \
			--reps 1 --timeout 5 --out "$T/r$m" >/dev/null 2>"$T/err" || rc=$?
		stop_peer
		[ $rc -eq 1 ] || die "$m: exit $rc (141 = killed by SIGPIPE): $(cat "$T/err")"
		grep -Eq "127.0.0.1:$PORT: $m: .*peer closed the connection.* after [0-9]+ of 100000 messages" "$T/err" ||
			die "$m: $(cat "$T/err")"
		[ "$(wc -l <"$T/err")" -eq 1 ] || die "$m: more than one line: $(cat "$T/err")"
	done
}
connection_refused() {
	need_python
	port=$(free_port) || die "no free port"
	expect_fail "127.0.0.1:$port: connect: Connection refused" \
		"$IOSTRAT" net --connect "127.0.0.1:$port" --count 10 --reps 1 --out "$T/r"
}
port_in_use() {
	start_peer hold
	trap stop_peer EXIT
	expect_fail "127.0.0.1:$PORT: bind: Address already in use" \
		timeout 10 "$IOSTRAT" net --listen "127.0.0.1:$PORT" --once
}
stuck_peer_times_out() {
	# the peer accepts and never reads: sends block once the buffers fill
	for m in nodelay uring pingpong-pipelined; do
		[ $m = uring ] && ! have_uring && continue
		start_peer stuck
		t0=$(date +%s)
		expect_fail "127.0.0.1:$PORT: $m: .*peer made no progress for 0.5 s \(--timeout\)" \
			timeout 20 "$IOSTRAT" net --connect "127.0.0.1:$PORT" --mode "$m" --size 4096 --count 100000 \
			--sndbuf 4k --timeout 0.5 --reps 1 --out "$T/r$m"
		stop_peer
		[ $(( $(date +%s) - t0 )) -le 8 ] || die "$m: took too long to give up"
	done
}
server_sees_client_close_early() {
	need_python
	start_server --once --timeout 5
	$PEER --connect "$PORT" close-early
	rc=0; wait $SRV_PID || rc=$?
	[ $rc -eq 1 ] || die "server exit $rc"
	grep -q 'peer closed the connection after 3 of 5 messages' "$T/srv.err" || die "$(cat "$T/srv.err")"
}
server_times_out_silent_client() {
	need_python
	start_server --once --timeout 1
	$PEER --connect "$PORT" silent &
	p=$!
	rc=0; timeout 15 tail --pid=$SRV_PID -f /dev/null || rc=$?
	kill $p 2>/dev/null || true
	[ $rc -eq 0 ] || die "server still running"
	wait $SRV_PID && die "server exited 0"
	grep -q 'no progress for 1.0 s' "$T/srv.err" || die "$(cat "$T/srv.err")"
}
server_rejects_junk_and_extra() {
	need_python
	start_server --once --timeout 5
	$PEER --connect "$PORT" junk
	wait $SRV_PID && die "server accepted junk"
	grep -q 'not an iostrat net client' "$T/srv.err" || die "$(cat "$T/srv.err")"
	start_server --once --timeout 5
	$PEER --connect "$PORT" extra
	wait $SRV_PID && die "server accepted extra messages"
	grep -q 'peer sent more than the 5 messages it announced' "$T/srv.err" || die "$(cat "$T/srv.err")"
}
profile_section_runs_net() {
	cat >"$T/p.ini" <<-'INI'
	[global]
	dataset=small
	threads=1,2
	reps=2

	[net]
	mode=nodelay,pingpong-pipelined
	size=12,3000
	count=300
	batch=16
	INI
	"$IOSTRAT" bench "$T/p.ini" --out "$T/r" >/dev/null 2>"$T/err" || die "bench: $(cat "$T/err")"
	all_verified "$T/r" 8
	[ "$(grep -c ',net,net/' "$T/r/summary.csv")" -eq 4 ] || die "summary: $(cat "$T/r/summary.csv")"
	grep -q '"bench":"p","kind":"net","config_id":"net/pingpong-pipelined/s3000/n300/b65536/k16"' "$T/r/results.jsonl" ||
		die "rows: $(head -c 300 "$T/r/results.jsonl")"
	printf '[net]\nmode=nodelay\nsizes=12\n' >"$T/bad.ini"
	expect_fail "bad.ini:3: sizes: not a net key" "$IOSTRAT" bench "$T/bad.ini" --dry-run
	printf '[net-a]\nmode=nodelay,teleport\n' >"$T/bad.ini"
	expect_fail "bad.ini:2: mode: bad value 'teleport' \(nodelay, " "$IOSTRAT" bench "$T/bad.ini" --dry-run
}
# Where io_uring works, tests/tools/noring fails io_uring_setup() with EPERM
# (as kernel.io_uring_disabled=2 would) for this one command.
uring_unavailable_is_one_line() {
	local pre=()
	if have_uring; then
		[ -x "$TOP/$BUILD/tools/noring" ] || skip "io_uring works here and tests/tools/noring is not built"
		pre=("$TOP/$BUILD/tools/noring" --errno EPERM)
	fi
	expect_fail "uring: io_uring_queue_init: Operation not permitted" \
		"${pre[@]}" "$IOSTRAT" net --mode uring --count 10 --reps 1 --out "$T/r"
}
bad_options() {
	expect_fail "--mode: bad value 'bogus' \(nodelay, " "$IOSTRAT" net --mode nodelay,bogus
	expect_fail "--size: bad value '17M'" "$IOSTRAT" net --size 12,17M
	expect_fail "--count: bad value '0'" "$IOSTRAT" net --count 0
	expect_fail "--batch: bad value '513'" "$IOSTRAT" net --batch 513
	expect_fail "--timeout: bad value '-1'" "$IOSTRAT" net --timeout -1
	expect_fail "--connect: bad address 'localhost'" "$IOSTRAT" net --connect localhost
	expect_fail "--listen and --connect" "$IOSTRAT" net --listen 1 --connect 127.0.0.1:1
	expect_fail "--nope: unknown option" "$IOSTRAT" net --nope
	expect_fail "--count: missing value" "$IOSTRAT" net --count
}
# A list longer than any fixed buffer keeps every item: --size was cut at
# 511 bytes, which ran the cut item as size 0 and dropped the rest.
long_size_list_keeps_every_item() {
	local zeros
	zeros=$(printf '0%.0s' $(seq 520))
	"$IOSTRAT" net --mode nodelay --size "${zeros}1k,64k" --count 10 --reps 1 \
		--out "$T/long" >/dev/null
	[ "$(jq -r .msg_size "$T/long/results.jsonl" | sort -n | tr '\n' ' ')" = "1024 65536 " ] ||
		die "sizes run: $(jq -c .msg_size "$T/long/results.jsonl" | tr '\n' ' ')"
	expect_fail "--size: none given" "$IOSTRAT" net --size ,
	expect_fail "--mode: none given" "$IOSTRAT" net --mode ,,
}
# getaddrinfo wraps a port modulo 65536: 99999 would quietly be 34463.
ports_outside_1_to_65535_are_refused() {
	local p
	for p in 99999 65536 0 123456; do
		expect_fail "--connect: bad port in '127.0.0.1:$p' \(1..65535\)" \
			"$IOSTRAT" net --connect "127.0.0.1:$p" --out "$T/r$p"
		[ ! -e "$T/r$p" ] || die "--connect :$p left a results directory"
	done
	for p in 99999 65536; do
		expect_fail "--listen: bad port in '127.0.0.1:$p' \(0..65535\)" \
			"$IOSTRAT" net --listen "127.0.0.1:$p"
	done
	printf '[net]\nconnect=127.0.0.1:70000\nmode=nodelay\n' >"$T/p.ini"
	expect_fail "p.ini:2: connect: bad port in '127.0.0.1:70000'" \
		"$IOSTRAT" bench "$T/p.ini" --out "$T/b"
}

# Unix sockets: every mode but nagle (no Nagle's algorithm there), uring
# apart as in every_mode.  unix_every_mode DIR NSIZES ARGS...
UNIX_MODES=${NOURING/nagle,/}
unix_every_mode() {
	local dir=$1 nsizes=$2; shift 2
	"$IOSTRAT" net --unix "$T/s.sock" --mode "$UNIX_MODES" --out "$dir" "$@" >"$dir.out"
	all_verified "$dir" $((7 * nsizes))
	[ ! -e "$T/s.sock" ] || die "socket file left behind after the run"
	if "$IOSTRAT" net --unix "$T/s.sock" --mode uring --out "$dir-uring" "$@" >/dev/null 2>"$dir.err"; then
		all_verified "$dir-uring" "$nsizes"
	else
		grep -q 'io_uring_queue_init: Operation not permitted' "$dir.err" || die "uring: $(cat "$dir.err")"
		echo "note: io_uring not permitted here; uring mode not checked"
	fi
}
unix_every_size() {
	unix_every_mode "$T/r" 3 --size 1,1000,65536 --count 150 --reps 1
	grep -q '^pingpong-pipelined *65536 .* 1/1$' "$T/r.out" || die "table: $(tail -3 "$T/r.out")"
	unix_every_mode "$T/t" 3 --size 1,4097,65536 --count 20 --reps 1 \
		--sndbuf 2k --batch 8 --buffer 1000
	for cap in 1 3; do
		unix_every_mode "$T/p$cap" 2 --size 0,13 --count 12 --reps 1 --io-max $cap \
			--batch 3 --buffer 16
	done
}
# family FIELD of every row, and the config_ids: TCP's unchanged
family_in_rows() {
	"$IOSTRAT" net --mode nodelay,pingpong-buffered --count 50 --reps 1 --out "$T/tcp" >/dev/null
	"$IOSTRAT" net --unix "$T/s.sock" --mode nodelay,pingpong-buffered --count 50 --reps 1 \
		--out "$T/unix" >/dev/null
	local fam ids
	for fam in tcp unix; do
		ids='["net/nodelay/s12/n50", "net/pingpong-buffered/s12/n50/b65536"]'
		[ $fam = tcp ] || ids='["net/nodelay/s12/n50/unix", "net/pingpong-buffered/s12/n50/b65536/unix"]'
		# no TCP segments on a Unix socket; the rows in the round's shuffled order
		jq -se --arg fam $fam --argjson ids "$ids" '([.[].config_id] | sort) == $ids
			and all(.[]; .family == $fam and .verified)
			and (([.[].segs_per_msg] | all(. == null)) == ($fam == "unix"))' "$T/$fam/results.jsonl" >/dev/null ||
			die "$fam rows: $(cat "$T/$fam/results.jsonl")"
		csv_rows "$T/$fam/results.csv" | jq -se --arg fam $fam 'all(.[]; .family == $fam)' >/dev/null ||
			die "$fam results.csv: $(cat "$T/$fam/results.csv")"
	done
}
existing_path_refused() {
	echo precious >"$T/file"
	expect_fail "--unix: $T/file: exists and is not a socket" \
		"$IOSTRAT" net --unix "$T/file" --count 10 --reps 1 --out "$T/r"
	[ "$(cat "$T/file")" = precious ] || die "the file was touched"
	[ ! -e "$T/r" ] || die "a results directory was made before the refusal"
	mkdir "$T/dir"
	expect_fail "$T/dir: exists and is not a socket" \
		"$IOSTRAT" net --listen "unix:$T/dir" --once
	printf '[net]\nmode=nodelay\nunix=%s\n' "$T/file" >"$T/p.ini"
	expect_fail "p.ini:1: \[net\]: unix: $T/file: exists and is not a socket" \
		"$IOSTRAT" bench "$T/p.ini" --out "$T/b"
	[ "$(cat "$T/file")" = precious ] || die "the file was touched by bench"
}
# a socket nobody listens on (left by a killed run) is replaced; one a
# server answers on is refused
stale_socket_replaced_live_one_refused() {
	start_unix_server --timeout 30
	kill -KILL "$SRV_PID"
	wait "$SRV_PID" 2>/dev/null || true
	[ -S "$T/s.sock" ] || die "no stale socket left by the killed server"
	"$IOSTRAT" net --unix "$T/s.sock" --mode nodelay --count 20 --reps 1 --out "$T/r" >/dev/null
	all_verified "$T/r" 1
	[ ! -e "$T/s.sock" ] || die "socket file left behind"
	start_unix_server --timeout 5
	trap 'kill $SRV_PID 2>/dev/null || true' EXIT
	expect_fail "--unix: $T/s.sock: a server is listening on this socket" \
		"$IOSTRAT" net --unix "$T/s.sock" --mode nodelay --count 20 --reps 1 --out "$T/r2"
}
# start_unix_server [ARGS]: `iostrat net --listen unix:$T/s.sock ARGS`; sets SRV_PID
start_unix_server() {
	"$IOSTRAT" net --listen "unix:$T/s.sock" "$@" >"$T/srv.out" 2>"$T/srv.err" &
	SRV_PID=$!
	for _ in $(seq 100); do grep -q '^listening on' "$T/srv.out" && break; sleep 0.1; done
	grep -q "^listening on unix:$T/s.sock\$" "$T/srv.out" || die "server did not start: $(cat "$T/srv.err")"
	[ -S "$T/s.sock" ] || die "no socket file while listening"
}
unix_listen_and_connect() {
	start_unix_server --timeout 5
	trap 'kill $SRV_PID 2>/dev/null || true' EXIT
	"$IOSTRAT" net --connect "unix:$T/s.sock" --mode "$UNIX_MODES" --size 12,5000 --count 100 \
		--reps 1 --out "$T/r" >/dev/null
	all_verified "$T/r" 14
	[ "$(grep -c 'unix peer pid [0-9]*: .* messages of' "$T/srv.out")" -eq 14 ] ||
		die "server log: $(cat "$T/srv.out")"
	grep -q '"family":"unix"' "$T/r/results.jsonl" ||
		die "no family in the rows"
	kill -TERM $SRV_PID
	rc=0; wait $SRV_PID || rc=$?
	[ $rc -eq 143 ] || die "server exit $rc after SIGTERM: $(cat "$T/srv.err")"
	[ ! -e "$T/s.sock" ] || die "server left its socket file after SIGTERM"
	start_unix_server --once --timeout 5
	"$IOSTRAT" net --connect "unix:$T/s.sock" --mode nodelay --count 10 --reps 1 --out "$T/r2" >/dev/null
	wait $SRV_PID || die "--once server failed: $(cat "$T/srv.err")"
	[ ! -e "$T/s.sock" ] || die "--once server left its socket file"
	expect_fail "unix:$T/s.sock: connect: No such file or directory" \
		"$IOSTRAT" net --connect "unix:$T/s.sock" --count 10 --reps 1 --out "$T/r3"
}
# a signal in the middle of a --unix plan: the rows so far kept, the
# socket file gone
unix_socket_removed_on_signal() {
	"$IOSTRAT" net --unix "$T/s.sock" --mode pingpong-unbuffered --count 2000 --reps 10000 \
		--out "$T/r" >/dev/null 2>"$T/err" &
	p=$!
	for _ in $(seq 100); do [ -s "$T/r/results.jsonl" ] && break; sleep 0.1; done
	[ -s "$T/r/results.jsonl" ] || { kill $p; die "no row after 10 s"; }
	kill -INT $p
	rc=0; wait $p || rc=$?
	[ $rc -eq 130 ] || die "exit $rc: $(cat "$T/err")"
	[ ! -e "$T/s.sock" ] || die "socket file left after SIGINT"
	grep -q 'interrupted by signal 2' "$T/err" || die "$(cat "$T/err")"
}
unix_options_refused() {
	expect_fail "--nagle: a Unix socket has no Nagle's algorithm" \
		"$IOSTRAT" net --unix "$T/s.sock" --nagle
	expect_fail "--rcvbuf: a Unix stream socket does not use SO_RCVBUF" \
		"$IOSTRAT" net --unix "$T/s.sock" --rcvbuf 4k
	expect_fail "--mode: nagle: a Unix socket has no Nagle's algorithm" \
		"$IOSTRAT" net --unix "$T/s.sock" --mode nodelay,nagle
	expect_fail "--unix and --connect: choose one" \
		"$IOSTRAT" net --unix "$T/s.sock" --connect 127.0.0.1:5000
	expect_fail "--unix and --listen: choose one" \
		"$IOSTRAT" net --listen "unix:$T/x" --unix "$T/s.sock"
	expect_fail "--connect: bad address 'unix:' \(unix:PATH" "$IOSTRAT" net --connect unix:
	expect_fail "--unix: bad value '' " "$IOSTRAT" net --unix ''
	expect_fail "--listen: bad address 'unix:/$(printf 'x%.0s' $(seq 120))'" \
		"$IOSTRAT" net --listen "unix:/$(printf 'x%.0s' $(seq 120))"
	expect_fail "--nagle: a Unix socket has no Nagle's algorithm" \
		"$IOSTRAT" net --connect "unix:$T/s.sock" --nagle
	# mode nagle is left out of "all" with one note, not run as a copy of nodelay
	"$IOSTRAT" net --unix "$T/s.sock" --count 5 --reps 1 --out "$T/r" >/dev/null 2>"$T/err"
	grep -q 'mode nagle left out' "$T/err" || die "no note: $(cat "$T/err")"
	! grep -q '"mode":"nagle"' "$T/r/results.jsonl" || die "nagle ran over a Unix socket"
	[ ! -e "$T/s.sock" ] || die "socket file left behind"
}
unix_profile_section() {
	cat >"$T/p.ini" <<-INI
	[global]
	reps=2

	[net-tcp]
	mode=nodelay,pingpong-pipelined
	count=200
	batch=16

	[net-unix]
	mode=nodelay,pingpong-pipelined
	count=200
	batch=16
	unix=$T/s.sock
	INI
	"$IOSTRAT" bench "$T/p.ini" --out "$T/r" >/dev/null 2>"$T/err" || die "bench: $(cat "$T/err")"
	all_verified "$T/r" 8
	grep -q '"config_id":"net/pingpong-pipelined/s12/n200/b65536/k16/unix"' "$T/r/results.jsonl" ||
		die "rows: $(head -c 400 "$T/r/results.jsonl")"
	[ "$(grep -c '"family":"unix"' "$T/r/results.jsonl")" -eq 4 ] || die "family of the rows"
	[ ! -e "$T/s.sock" ] || die "socket file left behind"
	# the net figure keeps the families apart: a cluster each, no median of both
	if command -v gnuplot >/dev/null; then
		"$IOSTRAT" plot "$T/r" --only net >/dev/null 2>"$T/err" || die "plot: $(cat "$T/err")"
		for c in "nodelay tcp" "nodelay unix" "pingpong-pipelined unix"; do
			grep -q "^\"$c\" " "$T/r/plots/data/net.dat" || die "no cluster '$c': $(cat "$T/r/plots/data/net.dat")"
		done
	else
		echo "note: no gnuplot; the net figure's clusters not checked"
	fi
	printf '[net]\nmode=nodelay\nunix=%s\nconnect=127.0.0.1:5000\n' "$T/x" >"$T/bad.ini"
	expect_fail "bad.ini:4: \[net\]: unix= and connect=: choose one" "$IOSTRAT" bench "$T/bad.ini" --dry-run
	printf '[net]\nmode=nagle\nconnect=unix:%s\n' "$T/x" >"$T/bad.ini"
	expect_fail "bad.ini:1: \[net\]: mode: nagle: a Unix socket" "$IOSTRAT" bench "$T/bad.ini" --dry-run
}

t every_mode_delivers_every_size_intact every_mode_every_size
t tiny_socket_buffers_messages_larger_than_them tiny_socket_buffers
t partial_reads_and_writes_at_every_boundary partial_io_at_every_boundary
t listen_and_connect_as_two_processes listen_and_connect
t long_size_list_keeps_every_item
t results_rows_carry_counted_syscalls_and_rtt results_have_the_figures
t corrupted_stream_fails_the_checksum corrupt_checksum_is_caught
t corrupted_reply_is_named corrupt_reply_is_caught
t peer_closing_early_is_an_error_not_sigpipe peer_closes_early
t connection_refused_is_one_line connection_refused
t port_in_use_is_one_line port_in_use
t stuck_peer_times_out
t server_reports_client_closing_early server_sees_client_close_early
t server_times_out_a_silent_client server_times_out_silent_client
t server_rejects_junk_and_extra_messages server_rejects_junk_and_extra
t profile_section_runs_net
t uring_unavailable_is_one_line
t bad_options_are_named bad_options
t ports_outside_1_to_65535_are_refused
t unix_socket_every_mode_delivers_every_size_intact unix_every_size
t unix_socket_family_in_rows_and_config_id family_in_rows
t unix_socket_existing_non_socket_path_is_refused_untouched existing_path_refused
t unix_socket_stale_replaced_live_refused stale_socket_replaced_live_one_refused
t unix_socket_listen_and_connect_removes_its_file unix_listen_and_connect
t unix_socket_file_removed_on_signal unix_socket_removed_on_signal
t unix_socket_tcp_only_options_are_refused unix_options_refused
t unix_socket_profile_sections unix_profile_section
