#!/usr/bin/env bash
# iostrat fio --client: the baseline on every host at once through fio's own
# client/server.  Two `fio --server` listening on two 127.0.0.1 ports stand
# in for two hosts; they are killed, and their files removed, when this
# file ends, also on Ctrl-C.
. "$(dirname "$0")/lib.sh"

SRV=$(mktemp -d /tmp/iostrat-fio-client.XXXXXX)
PIDS=()
# Each server is its own process group (setsid): the children it forks
# per connection go with it.
cleanup() {
	local p
	trap '' INT TERM # a second Ctrl-C must not cut the cleaning short
	for p in "${PIDS[@]}"; do kill -- "-$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do
		for _ in $(seq 50); do kill -0 -- "-$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL -- "-$p" 2>/dev/null
	done
	rm -rf "$SRV"
}
trap cleanup EXIT # lib.sh's INT/TERM traps exit, which runs it

# start_server VAR: a fio server on a free 127.0.0.1 port, its port in VAR.
start_server() {
	local port
	port=$(free_port)
	(cd "$SRV" && exec setsid fio --server="ip:127.0.0.1,$port" >"$SRV/server-$port.log" 2>&1) &
	PIDS+=($!)
	for _ in $(seq 50); do
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
		sleep 0.1
	done
	printf -v "$1" '%s' "$port"
}

P1='' P2=''
if command -v fio >/dev/null; then
	start_server P1
	start_server P2
fi
need_servers() {
	command -v fio >/dev/null || skip "fio not installed"
	[ -n "$P1" ] && [ -n "$P2" ] || skip "could not start two fio servers"
}
mkdata() { "$IOSTRAT" gen "$T/in" --files 3 --lines 2000 --width 700 >/dev/null; }

fio_client_rows_one_per_host() {
	need_servers
	mkdata
	mkdir "$T/scratch"
	"$IOSTRAT" fio seq-psync --dataset "$T/in" --bs 64k --client "127.0.0.1:$P1,127.0.0.1:$P2" \
		--scratch "$T/scratch" --out "$T/r" --reps 2 --json >"$T/rows" 2>"$T/err" ||
		die "fio --client failed: $(cat "$T/err")"
	# the same job run here, without fio's client: the bytes each host moved
	"$IOSTRAT" fio seq-psync --dataset "$T/in" --bs 64k --cache asis --out "$T/local" --json >"$T/local.row" ||
		die "local fio failed"
	local size
	size=$(jq -n 'input.bytes_in' "$T/local.row")
	[ "$size" -gt 0 ] || die "local row: $(cat "$T/local.row")"
	jq -se --slurpfile out "$T/rows" '. == $out' "$T/r/results.jsonl" >/dev/null ||
		die "printed rows are not the kept rows"
	jq -se 'length == 4' "$T/r/results.jsonl" >/dev/null || die "not 4 rows: $(cat "$T/r/results.jsonl")"
	jq -se --arg p1 "$P1" --arg p2 "$P2" --argjson size "$size" '
		([.[] | [.host, .rep]] | sort) == ([($p1, $p2) as $p | (1, 2) as $rep | ["127.0.0.1:" + $p, $rep]] | sort)
		and all(.[]; .error == null and .fio_server == .host
			and .bytes_in == $size and .bytes_out == $size
			and .elapsed_s > 0 and .mb_s > 0 and .cache == "asis" and .kernel == null
			and .config_id == "in/fio-seq-psync/asis/bs=65536/qd=8/fsync=1/host=" + .host)' \
		"$T/r/results.jsonl" >/dev/null || die "rows: $(cat "$T/r/results.jsonl")"
	# the report keeps the hosts apart: one configuration each, 2 repetitions
	"$IOSTRAT" report "$T/r" >"$T/report" || die "report failed"
	for p in "$P1" "$P2"; do
		grep -Eq "^  in/fio-seq-psync/asis/bs=65536/qd=8/fsync=1/host=127.0.0.1:$p +elapsed_s +2 " "$T/report" ||
			die "host $p not its own configuration: $(grep fio-seq "$T/report")"
	done
	[ -z "$(ls -A "$T/scratch")" ] || die "the hosts left their write files: $(ls "$T/scratch")"
	names_in "$T/in" | grep -q fio-out && die "outputs written beside the inputs"
	# fio's per-host JSON, kept: --parse makes the same rows of it
	"$IOSTRAT" fio --parse "$T/r/fio-seq-psync-rep1.json" >"$T/parsed" || die "--parse failed"
	[ "$(wc -l <"$T/parsed")" -eq 2 ] || die "--parse: $(cat "$T/parsed")"
	grep -q "\"host\":\"127.0.0.1:$P2\"" "$T/parsed" || die "--parse lost the host: $(cut -c1-200 "$T/parsed")"
}

# Each host's row set side by side: compare reads a --client directory
# like any other (the rows of one config_id, two hosts).
fio_client_text_names_hosts() {
	need_servers
	mkdata
	out=$("$IOSTRAT" fio seq-psync --dataset "$T/in" --bs 64k --client "127.0.0.1:$P1,127.0.0.1:$P2" \
		--scratch "$T" --out "$T/r" 2>&1) || die "failed: $out"
	echo "$out" | grep -q "^127.0.0.1:$P1 .*fio-seq-psync .*MB/s" || die "no line for $P1: $out"
	echo "$out" | grep -q "^127.0.0.1:$P2 .*fio-seq-psync .*MB/s" || die "no line for $P2: $out"
	echo "$out" | grep -q "^results: $T/r" || die "$out"
}

fio_client_unreachable_host_is_one_line() {
	need_servers
	mkdata
	dead=$(free_port)
	expect_fail "127.0.0.1:$dead: nothing answers on port $dead .*fio --server" \
		"$IOSTRAT" fio seq-psync --dataset "$T/in" --client "127.0.0.1:$P1,127.0.0.1:$dead" --out "$T/r"
	[ ! -e "$T/r" ] || die "a results directory was made for a run that never started"
	expect_fail "nosuchhost.invalid: cannot resolve" \
		"$IOSTRAT" fio seq-psync --dataset "$T/in" --client nosuchhost.invalid --out "$T/r"
}

fio_client_bad_hosts_refused() {
	need_servers
	mkdata
	expect_fail "bad port '99999'" "$IOSTRAT" fio seq-psync --dataset "$T/in" --client 127.0.0.1:99999
	expect_fail "bad port 'x'" "$IOSTRAT" fio seq-psync --dataset "$T/in" --client 127.0.0.1:x
	expect_fail "no host" "$IOSTRAT" fio seq-psync --dataset "$T/in" --client ":$P1"
	expect_fail "127.0.0.1:$P1 named twice" "$IOSTRAT" fio seq-psync --dataset "$T/in" \
		--client "127.0.0.1:$P1,127.0.0.1:$P1"
	expect_fail "empty" "$IOSTRAT" fio seq-psync --dataset "$T/in" --client "127.0.0.1:$P1,"
	expect_fail "cache cold cannot be prepared on other hosts" \
		"$IOSTRAT" fio seq-psync --dataset "$T/in" --client "127.0.0.1:$P1" --cache cold
}

t fio_client_rows_one_per_host
t fio_client_text_names_hosts
t fio_client_unreachable_host_is_one_line
t fio_client_bad_hosts_refused
