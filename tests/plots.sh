#!/usr/bin/env bash
# iostrat plot: every figure script renders a PNG of its declared size and
# a valid SVG without gnuplot warnings, from a real small run; a missing
# column or a missing gnuplot is a clear message naming the figure.
. "$(dirname "$0")/lib.sh"

# A real small results directory: two data sets, two strategies, threads
# 1 and 2, work 0 and 3, two repetitions each, as `iostrat run --json` rows.
FIXTURE=$(mktemp -d /tmp/iostrat-plots.XXXXXX)
trap 'rm -rf "$FIXTURE"' EXIT
make_results() {
	local dir=$1
	[ -s "$FIXTURE/r/results.jsonl" ] || (T=$FIXTURE fresh_results "$FIXTURE/r") ||
		die "could not make the results fixture"
	mkdir -p "$dir"
	cp "$FIXTURE/r/results.jsonl" "$FIXTURE/r/results.csv" "$dir/"
}
# A real small bench: profiles/smoke.ini at a tiny scale (stream and
# buffer: the figures, not the strategies, are under test here; medium-short
# and big, threads 1 and 2, work 0 and 100), plus
# fio baselines of the big data set's files (kind=fio, baseline_of="stream
# buffer"), labelled with the data set name as a bench would.
fresh_results() {
	local dir=$1
	SCALE=0.002 "$IOSTRAT" bench "$TOP/profiles/smoke.ini" --out "$dir" --data "$T/data" \
		-D reps=2 -D max_reps=2 -D cache=asis -D strategy=stream,buffer -D fio=0 >/dev/null 2>&1 ||
		die "bench failed"
	if command -v fio >/dev/null; then
		"$IOSTRAT" fio seq-psync --dataset "$T"/data/big-* --bs 64k --reps 2 --json \
			--cache asis --fsync none 2>/dev/null |
			sed "s#\"dataset\":\"[^\"]*\"#\"dataset\":\"big\"#" >>"$dir/results.jsonl" ||
			die "iostrat fio failed"
	fi
}

# Sweep and net rows: from `iostrat sweep` / `iostrat net` when this build
# has them, else rows of their documented schema (kind=sweep: sweep,
# variant, operation, block_size; kind=net: mode, msg_size, msgs_s,
# syscalls_per_msg) made from the measured run rows' figures.
# Rows on stdin relabelled as the bench of results directory $1 (rows of
# another bench are left out of it when read).
of_bench() {
	jq -c --arg b "$(head -1 "$1/results.jsonl" | jq -r .bench)" '.bench = $b'
}

add_sweep_net_rows() {
	local dir=$1 tmp=$T/sn real=""
	if "$IOSTRAT" sweep --help >/dev/null 2>&1; then
		"$IOSTRAT" sweep blocksize --out "$tmp/k" --size 20k --sizes 1,512,4096 --reps 2 \
			>/dev/null 2>&1 || die "sweep blocksize failed"
		"$IOSTRAT" sweep bufsize --out "$tmp/b" --files 2 --scale 0.002 --sizes 64..4k \
			--reps 2 --cache asis >/dev/null 2>&1 || die "sweep bufsize failed"
		cat "$tmp"/{k,b}/results.jsonl | of_bench "$dir" >>"$dir/results.jsonl"
		real+=" sweep"
	fi
	if "$IOSTRAT" net --help >/dev/null 2>&1; then
		"$IOSTRAT" net --mode nodelay,buffered,pingpong-unbuffered --size 12,512 \
			--count 300 --reps 2 --out "$tmp/n" >/dev/null 2>&1 || die "net failed"
		of_bench "$dir" <"$tmp"/n/results.jsonl >>"$dir/results.jsonl"
		real+=" net"
	fi
	# per run row: sweep rows (each size slower by a step) and net rows,
	# of the kinds no real command added
	jq -c --arg real "$real" 'select(.kind == "run") as $r | ($r + {kind: "sweep", config_id: null}) as $base
		| (if $real | contains("sweep") then empty else
			(["blocksize", [1, 512, 4096], ["write", "read"]], ["bufsize", [64, 1024, 4096], ["read"]])
			as [$kind, $sizes, $ops] | $ops[] as $op | range(3) as $n
			| $base + {sweep: $kind, operation: $op, block_size: $sizes[$n], variant: $r.strategy,
				elapsed_s: ($r.elapsed_s * (4 - $n)), cpu_s: (($r.user_s + $r.sys_s) * (3 - $n))}
			| .config_id = "\($kind)/\($op)/\(.variant)/\($sizes[$n])"
		  end),
		  (if $real | contains("net") then empty else
			(["nodelay", 1], ["buffered", 30], ["pingpong-unbuffered", 0.1]) as [$mode, $k] | (12, 512) as $size
			| $base + {kind: "net", mode: $mode, msg_size: $size, config_id: "net/\($mode)/s\($size)",
				msgs_s: ($r.mb_s * 1e4 * $k), syscalls_per_msg: (1.0 / $k)}
		  end)' "$dir/results.jsonl" >"$T/forged.jsonl"
	cat "$T/forged.jsonl" >>"$dir/results.jsonl"
}

# The eBPF columns of traced runs, added to the real rows (tracing needs
# root and the probes): sequential share, page-cache hit ratio, seek p50.
add_trace_columns() {
	# and a warm repetition 1 of each run, its hit ratio 0.99, untraced figures
	jq -sc 'to_entries[] | .key as $i | .value
		| if .kind == "run" then .traced = true
			| .seq_pct = (60.0 + (if .strategy == "buffer" then 30 else 0 end) + $i % 5)
			| .pc_hit_ratio = 0.01 * ($i % 3)
			| .seek_p50_kb = (if .strategy == "buffer" then 0.0 else 128.0 + $i end)
		  else . end
		| ., (select(.kind == "run" and .rep == 1)
			| .cache = "warm" | .pc_hit_ratio = 0.99 | .seq_pct = null | .seek_p50_kb = null)' \
		"$1" >"$T/traced.jsonl" && mv "$T/traced.jsonl" "$1"
}

# The jq function words: a line of a gnuplot data file split as gnuplot
# reads it ("quoted text" one word, without its quotes).
DAT_WORDS='def words: [scan("\"[^\"]*\"|[^\\s\"]+") | if startswith("\"") then .[1:-1] else . end]; '

# PNG width x height from the IHDR chunk.
png_size() {
	local w h
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "not a PNG"; return 1; }
	read -r w h < <(od -An -tu4 --endian=big -j16 -N8 "$1")
	echo "${w}x$h"
}

svg_valid() { xmllint --noout "$1"; } # libxml2-utils: make deps installs it

# The size a script declares ("width = N", "height = N").
script_size() {
	local gp=$TOP/plots/$1.gp
	echo "$(awk '/^width = /{print $3}' "$gp")x$(awk '/^height = /{print $3}' "$gp")"
}

check_image() {
	local base=$1 fig=$2
	[ -s "$base.png" ] || die "$base.png missing or empty"
	[ -s "$base.svg" ] || die "$base.svg missing or empty"
	[ "$(png_size "$base.png")" = "$(script_size "$fig")" ] ||
		die "$base.png is $(png_size "$base.png"), $fig.gp says $(script_size "$fig")"
	svg_valid "$base.svg" || die "$base.svg is not valid XML"
}

plot_renders_every_figure() {
	need_cmd gnuplot
	make_results "$T/r"
	"$IOSTRAT" plot "$T/r" >"$T/out.txt" 2>"$T/err.txt" || die "plot failed: $(cat "$T/err.txt")"
	[ ! -s "$T/err.txt" ] || die "gnuplot/iostrat printed: $(head -3 "$T/err.txt")"
	local n=0 fig name
	while read -r fig path _; do
		name=$(basename "$path" .png)
		check_image "$T/r/plots/$name" "$fig"
		n=$((n + 1))
	done < <(grep '\.png' "$T/out.txt")
	# 2 grids + memory + 2 cpu + fio
	[ "$n" -ge 6 ] || die "only $n figures: $(cat "$T/out.txt")"
	for f in grid memory cpu fio; do grep -q "^  $f .*\.png" "$T/out.txt" || die "no $f figure"; done
	# and each script alone on its data file, as the README documents
	local dat err
	mkdir -p "$T/alone"
	for dat in "$T"/r/plots/data/*.dat; do
		name=$(basename "$dat" .dat)
		fig=${name%%-*}
		err=$(gnuplot -e "datafile='$dat'; outbase='$T/alone/$name'" "$TOP/plots/$fig.gp" 2>&1) ||
			die "$fig.gp failed on $name: $err"
		[ -z "$err" ] || die "$fig.gp printed: $err"
		check_image "$T/alone/$name" "$fig"
	done
}

sweep_and_net_figures() {
	need_cmd gnuplot
	make_results "$T/r"
	add_sweep_net_rows "$T/r"
	"$IOSTRAT" plot "$T/r" --only sweep,net >"$T/out.txt" 2>"$T/err.txt" ||
		die "plot failed: $(cat "$T/err.txt")"
	[ ! -s "$T/err.txt" ] || die "printed: $(head -3 "$T/err.txt")"
	check_image "$T/r/plots/sweep-blocksize" sweep
	check_image "$T/r/plots/sweep-bufsize" sweep
	check_image "$T/r/plots/net" net
	# blocksize: a panel per operation, sizes ascending
	[ "$(grep -c '^"write"\|^"read"' "$T/r/plots/data/sweep-blocksize.dat")" -eq 2 ] ||
		die "blocksize panels: $(cat "$T/r/plots/data/sweep-blocksize.dat")"
	awk 'NR > 1 && NF > 1 && !/^"/ {print $1}' "$T/r/plots/data/sweep-bufsize.dat" |
		sort -n -c || die "bufsize sizes not ascending"
	for f in "$T/r/plots/data/sweep-blocksize.dat" "$T/r/plots/data/sweep-bufsize.dat" \
		"$T/r/plots/data/net.dat"; do
		name=$(basename "$f" .dat)
		err=$(gnuplot -e "datafile='$f'; outbase='$T/$name'" "$TOP/plots/${name%%-*}.gp" 2>&1) ||
			die "standalone $name: $err"
		[ -z "$err" ] || die "standalone $name printed: $err"
	done
}

# Rows whose tracing was asked for and unavailable carry why (trace_error):
# the figure's skip line gives that reason, not the generic one.
kernel_figure_skip_says_why_tracing_was_unavailable() {
	make_results "$T/r"
	jq -c 'if (if has("kind") then .kind else "run" end) == "run"
		then .trace_error = "eBPF probes unavailable, built without eBPF probes: no bpftool" else . end' \
		"$T/r/results.jsonl" >"$T/rows" && mv "$T/rows" "$T/r/results.jsonl"
	out=$("$IOSTRAT" plot "$T/r" --only kernel 2>/dev/null) || true
	echo "$out" | grep -q "kernel .*no traced runs: tracing was unavailable: eBPF probes unavailable, built without eBPF probes: no bpftool)$" ||
		die "not the reason: $out"
}

# The request-latency figure: per strategy the pooled share of its
# requests per log2 slot, queue and device apart; rows without the columns
# leave it out, saying why.
reqlat_figure_from_q_and_d_hist() {
	need_cmd gnuplot
	make_results "$T/r"
	"$IOSTRAT" plot "$T/r" --only reqlat | grep -q "reqlat .*no traced runs with request latencies" ||
		die "untraced rows not explained"
	jq -c 'if (if has("kind") then .kind else "run" end) == "run" then .traced = true
		| .q_hist = "0:10;1:30" | .d_hist = "7:\(if .strategy == "stream" then 30 else 10 end);11:10"
		else . end' "$T/r/results.jsonl" >"$T/rows" && mv "$T/rows" "$T/r/results.jsonl"
	"$IOSTRAT" plot "$T/r" --only reqlat >"$T/out.txt" 2>"$T/err.txt" || die "plot failed: $(cat "$T/err.txt")"
	[ ! -s "$T/err.txt" ] || die "printed: $(head -3 "$T/err.txt")"
	check_image "$T/r/plots/reqlat" reqlat
	# two panels, slots from 0 up to 1K us in the device one
	[ "$(grep -c '^"slot"' "$T/r/plots/data/reqlat.dat")" -eq 2 ] || die "not 2 panels"
	grep -q '^"1K"' "$T/r/plots/data/reqlat.dat" || die "no 1K slot"
	# stream: 30 of its 40 device times per row in the 64 us slot: 75 %
	awk 'BEGIN { RS = ""; FS = "\n" } NR == 2 {
		n = split($1, h, " "); for (i = 2; i <= n; i += 2) if (h[i] == "\"stream\"") c = i
		for (l = 2; l <= NF; l++) { split($l, w, " "); if (w[1] == "\"64\"") v = w[c] }
		exit !(c && v == 75) }' "$T/r/plots/data/reqlat.dat" ||
		die "stream's share at 64 us: $(cat "$T/r/plots/data/reqlat.dat")"
}

kernel_figure_from_trace_columns() {
	need_cmd gnuplot
	make_results "$T/r"
	"$IOSTRAT" plot "$T/r" --only kernel | grep -q "kernel .*no traced runs" ||
		die "untraced rows not explained"
	add_trace_columns "$T/r/results.jsonl"
	"$IOSTRAT" plot "$T/r" --only kernel >"$T/out.txt" 2>"$T/err.txt" || die "plot failed: $(cat "$T/err.txt")"
	[ ! -s "$T/err.txt" ] || die "printed: $(head -3 "$T/err.txt")"
	check_image "$T/r/plots/kernel" kernel
	# three panels: sequential share, hit ratio per cache state, seek distance
	[ "$(grep -c '^"cluster"' "$T/r/plots/data/kernel.dat")" -eq 3 ] || die "not 3 panels"
	grep -q '^"warm"' "$T/r/plots/data/kernel.dat" || die "no warm cache cluster"
	# rows traced before seek_hist existed: the median, and a note saying so
	grep -q "kernel   note: .*no seek_hist column" "$T/out.txt" || die "no fallback note: $(cat "$T/out.txt")"
	# with the column: a histogram, buckets from seq up
	jq -c 'if .traced and .seq_pct != null
		then .seek_hist = "0:60;4:10;12:\(if .strategy == "stream" then 30 else 5 end)" else . end' \
		"$T/r/results.jsonl" >"$T/rows" && mv "$T/rows" "$T/r/results.jsonl"
	"$IOSTRAT" plot "$T/r" --only kernel >"$T/out.txt" 2>"$T/err.txt" || die "plot failed: $(cat "$T/err.txt")"
	[ ! -s "$T/err.txt" ] || die "printed: $(head -3 "$T/err.txt")"
	! grep -q "note:" "$T/out.txt" || die "note with seek_hist present"
	check_image "$T/r/plots/kernel" kernel
	grep -q '^"bucket"' "$T/r/plots/data/kernel.dat" || die "no histogram block"
	grep -q '^"1M" ' "$T/r/plots/data/kernel.dat" || die "no 1M bucket (slot 12)"
	[ "$(grep -c '^"[0-9]*[BKMG]" ' "$T/r/plots/data/kernel.dat")" -eq 12 ] ||
		die "buckets 512B..1M expected: $(cat "$T/r/plots/data/kernel.dat")"
}

# Three runs for figure 6: A the fixture, B a second real bench of the same
# profile, C = A with 1 s added to every buffer repetition (a difference
# compare must call significant; stream left equal to A).
make_compare_runs() {
	make_results "$T/A"
	[ -s "$FIXTURE/r2/results.jsonl" ] || (T=$FIXTURE fresh_results "$FIXTURE/r2") ||
		die "could not make the second run"
	mkdir -p "$T/B" "$T/C"
	cp "$FIXTURE/r2/results.jsonl" "$T/B/"
	jq -c 'if .kind == "run" and .strategy == "buffer" then .elapsed_s += 1.0 else . end' \
		"$T/A/results.jsonl" >"$T/C/results.jsonl"
}

compare_figure_from_real_runs() {
	need_cmd gnuplot
	make_compare_runs
	"$IOSTRAT" plot --compare "$T/A" "$T/B" "$T/C" -o "$T/cmp" >"$T/out.txt" 2>"$T/err.txt" ||
		die "plot --compare failed: $(cat "$T/err.txt")"
	[ ! -s "$T/err.txt" ] || die "printed: $(head -3 "$T/err.txt")"
	grep -q "^  compare .*cmp/plots/compare.png" "$T/out.txt" || die "no figure: $(cat "$T/out.txt")"
	[ "$(grep -c '\.png' "$T/out.txt")" -eq 1 ] || die "other figures drawn: $(cat "$T/out.txt")"
	check_image "$T/cmp/plots/compare" compare
	# the csv is compare's own: the same medians as `iostrat compare`
	"$IOSTRAT" compare "$T/A" "$T/B" "$T/C" --format csv | cmp -s - "$T/cmp/compare.csv" ||
		die "compare.csv differs from iostrat compare --format csv"
	# a bar group per configuration, 3 runs; '*' on C's buffer bars only
	jq -Rn "$DAT_WORDS"'[inputs | select(test("\\S")) | words] | .[0] as $head | .[1:] as $rows
		| $head[0] == "median elapsed time (s)"
		and [$head[1:] | to_entries[] | select(.key % 4 == 0) | .value | split(":")[0]] == ["A", "B", "C"]
		and ($rows | length) >= 8
		and all($rows[]; . as $r | (if $r[0] | contains("buffer") then "1" else "0" end) as $want
			| $r[4] == "NaN"                                   # A is the base: no mark
			and $r[12] == $want                                # C against A
			and ($want == "0" or ($r[9] | tonumber) >= ($r[1] | tonumber) + 0.9) # C: 1 s more
			and all((1, 5, 9) as $m | [$r[$m + 1], $r[$m], $r[$m + 2]] | map(tonumber);
				.[0] <= .[1] and .[1] <= .[2]))                # min <= median <= max
		' "$T/cmp/plots/data/compare.dat" >/dev/null || die "compare.dat: $(cat "$T/cmp/plots/data/compare.dat")"
	# the script alone on its data file
	local err
	err=$(gnuplot -e "datafile='$T/cmp/plots/data/compare.dat'; outbase='$T/alone'" \
		"$TOP/plots/compare.gp" 2>&1) || die "compare.gp failed: $err"
	[ -z "$err" ] || die "compare.gp printed: $err"
	check_image "$T/alone" compare
}

# Figure 6 at the size the shipped profiles make (skeet-all: 240
# configurations), labels as long as a uring sweep's: gnuplot must not warn
# "difficulty making room for xtic labels", no two labels may overlap
# (tests/tools/svglabels.py), every text stays on its page, and every
# configuration is drawn exactly once across the pages.  Rows are
# synthetic: the fixture's first row with its config_id and time changed.
wide_comparison_stays_readable() {
	need_cmd gnuplot
	make_results "$T/r"
	mkdir -p "$T/A" "$T/B"
	local k
	for k in 0 1; do # A, then B: a third of B's configurations 1.5 times slower
		head -n 1 "$T/r/results.jsonl" | jq -c --argjson k $k '. as $row
			| [("small", "medium-short", "medium-long", "big") as $d
			   | ("stream", "buffer", "direct", "mmap", "uring") as $s | (1, 2, 3, 4) as $t | (0, 100, 1000) as $w
			   | "\($d)/\($s)/t\($t)/w\($w)/cold/fsync=file/bufsize=\(4096 * pow(2; $t % 3))/qd=\(pow(2; $w % 7))"] as $ids
			| if ($ids | length) != 240 then error("\($ids | length) configurations") else
				range(240) as $i | (1, 2, 3, 4) as $rep
				| $row + {config_id: $ids[$i], rep: $rep, elapsed_s: ((0.1 + 0.01 * $i)
					* (if $k == 1 and $i % 3 == 0 then 1.5 else 1 end) * (1 + 0.01 * $rep))}
			  end' >"$T/$([ $k = 0 ] && echo A || echo B)/results.jsonl"
	done
	"$IOSTRAT" plot --compare "$T/A" "$T/B" -o "$T/cmp" >"$T/out.txt" 2>"$T/err.txt" ||
		die "plot --compare failed: $(cat "$T/err.txt")"
	! grep -q "difficulty making room" "$T/err.txt" || die "gnuplot: $(grep -m1 difficulty "$T/err.txt")"
	[ ! -s "$T/err.txt" ] || die "printed: $(head -3 "$T/err.txt")"
	local n=0 f base
	for f in "$T"/cmp/plots/compare*.svg; do
		base=${f%.svg}
		check_image "$base" compare
		python3 "$TOP/tests/tools/svglabels.py" "$f" >"$T/lab" || die "$(basename "$f"): $(head -n 1 "$T/lab")"
		python3 "$TOP/tests/tools/svgfit.py" "$f" >"$T/fit" || die "$(basename "$f"): $(head -n 1 "$T/fit")"
		n=$((n + 1))
	done
	[ "$n" -ge 2 ] || die "240 configurations on $n page(s)"
	grep -q "^  compare .*compare-1of$n.png" "$T/out.txt" || die "pages not named: $(cat "$T/out.txt")"
	[ "$(cat "$T"/cmp/plots/data/compare-*.dat | grep -vc '^"median')" -eq 240 ] ||
		die "not every configuration drawn once: $(cat "$T"/cmp/plots/data/compare-*.dat | grep -vc '^"median')"
}

# An `iostrat sched` output directory (sched.json naming one results
# directory per setting): `iostrat plot OUT` compares them into figure 6.
compare_figure_of_a_sched_dir() {
	need_cmd gnuplot
	make_compare_runs
	mkdir -p "$T/s"
	mv "$T/A" "$T/s/mq-deadline"
	mv "$T/C" "$T/s/bfq"
	echo '{"device": "loop9", "settings": ["mq-deadline", "bfq"]}' >"$T/s/sched.json"
	"$IOSTRAT" plot "$T/s" >"$T/out.txt" 2>"$T/err.txt" || die "plot failed: $(cat "$T/err.txt")"
	[ ! -s "$T/err.txt" ] || die "printed: $(head -3 "$T/err.txt")"
	check_image "$T/s/plots/compare" compare
	grep -q "^  grid .*no run rows" "$T/out.txt" || die "grid not explained: $(cat "$T/out.txt")"
	head -1 "$T/s/plots/data/compare.dat" | grep -q '"A: mq-deadline" .* "B: bfq"' ||
		die "runs not labelled by setting: $(head -1 "$T/s/plots/data/compare.dat")"
}

# A compare.csv without the spread table (an older iostrat compare), or
# without a column the figure needs: one line naming the figure, the
# other figures of DIR still drawn, exit 1.
compare_csv_lacking_columns() {
	need_cmd gnuplot
	make_compare_runs
	"$IOSTRAT" compare "$T/A" "$T/B" --format csv >"$T/full.csv"
	awk '/^# per configuration and run/ {skip = 1} /^$/ {skip = 0} !skip' "$T/full.csv" \
		>"$T/A/compare.csv"
	local rc=0
	"$IOSTRAT" plot "$T/A" >"$T/out.txt" 2>"$T/err.txt" || rc=$?
	[ "$rc" -eq 1 ] || die "expected exit 1, got $rc"
	grep -q "plot compare: .*compare.csv has no table 'per configuration and run'" "$T/err.txt" ||
		die "no clear message: $(cat "$T/err.txt")"
	[ "$(grep -c . "$T/err.txt")" -eq 1 ] || die "more than one message: $(cat "$T/err.txt")"
	for f in grid memory cpu; do grep -q "^  $f .*\.png" "$T/out.txt" || die "$f not rendered"; done
	[ ! -e "$T/A/plots/compare.png" ] || die "compare.png drawn anyway"
	# the table, but its max column gone
	awk -F, '/^config_id,run,/ { cut = 0; for (i = 1; i <= NF; i++) if ($i == "max") cut = i
			if (!cut) { print "no max column" >"/dev/stderr"; exit 1 } }
		/^$/ { cut = 0 }
		{ if (!cut) { print; next }
		  out = ""; n = 0
		  for (i = 1; i <= NF; i++) if (i != cut) out = out (n++ ? "," : "") $i
		  print out }' "$T/full.csv" >"$T/A/compare.csv" || die "no max column in $(head -n 3 "$T/full.csv")"
	rc=0
	"$IOSTRAT" plot "$T/A" --only compare,memory >"$T/out.txt" 2>"$T/err.txt" || rc=$?
	[ "$rc" -eq 1 ] || die "expected exit 1, got $rc"
	grep -q "plot compare: .*compare.csv has no column 'max'; figure not drawn" "$T/err.txt" ||
		die "no clear message: $(cat "$T/err.txt")"
	grep -q "^  memory .*\.png" "$T/out.txt" || die "memory not rendered"
}

# The kernel view from a real traced run: seek_hist in every traced row
# with block I/O, drawn as a histogram per strategy.  direct reads with
# O_DIRECT, so the cache stays as it is (no drop_caches for a test).
kernel_histogram_from_traced_run() {
	need_cmd gnuplot
	need_root
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF (/sys/kernel/btf/vmlinux)"
	"$IOSTRAT" trace --help >/dev/null 2>&1 || skip "no iostrat trace in this build"
	SCALE=0.002 "$IOSTRAT" bench "$TOP/profiles/smoke.ini" --out "$T/r" --data "$T/data" \
		-D reps=2 -D max_reps=2 -D cache=asis -D strategy=direct,stream -D fio=0 \
		-D trace=1 -D threads=1 -D work=0 >/dev/null 2>"$T/err.txt" ||
		die "traced bench failed: $(tail -2 "$T/err.txt")"
	grep -q '"traced":true' "$T/r/results.jsonl" ||
		skip "tracing unavailable: $(grep -v '^\[' "$T/err.txt" | head -1)"
	grep -q '"seek_hist":"' "$T/r/results.jsonl" || die "no seek_hist in the traced rows"
	"$IOSTRAT" plot "$T/r" --only kernel >"$T/out.txt" 2>"$T/err.txt" ||
		die "plot failed: $(cat "$T/err.txt")"
	[ ! -s "$T/err.txt" ] || die "printed: $(head -3 "$T/err.txt")"
	! grep -q "note:" "$T/out.txt" || die "fell back: $(cat "$T/out.txt")"
	check_image "$T/r/plots/kernel" kernel
	# each series: median shares of a strategy's buckets; the rows' own shares
	jq -Rs --slurpfile rows "$T/r/results.jsonl" "$DAT_WORDS"'split("\n\n\n") as $blocks
		| ($blocks | length) == 3
		and ([$blocks[2] | split("\n")[] | select(test("\\S")) | words] as $lines
		| $lines[0][0] == "bucket" and $lines[1][0] == "seq"
		and ([$rows[] | select(.strategy == "direct" and (.seek_hist // "") != "")] as $direct
		| ($direct | length) > 0
		and ($lines[0] | index("direct")) as $col
		| all($direct[]; (.seek_hist | split(";") | map(split(":") | map(tonumber))) as $h
			| ([$h[][1]] | add) as $sum
			# the classified requests (a disk'"'"'s first has no previous one)
			| $sum <= .blk_reqs
			and (.seq_pct - 100.0 * ([$h[] | select(.[0] == 0) | .[1]] | add // 0) / $sum | fabs) < 1e-6)
		and all($lines[1:][]; (.[$col:$col + 3] | map(tonumber)) as [$median, $lo, $hi]
			| 0 <= $lo and $lo <= $median and $median <= $hi and $hi <= 100)))' \
		"$T/r/plots/data/kernel.dat" >/dev/null || die "kernel.dat: $(cat "$T/r/plots/data/kernel.dat")"
}

fio_ratio_is_the_measured_ratio() {
	need_cmd gnuplot
	need_cmd fio
	make_results "$T/r"
	"$IOSTRAT" plot "$T/r" --only fio >/dev/null || die "plot failed"
	jq -eRn --slurpfile rows "$T/r/results.jsonl" 'def median: sort | length as $n
			| if $n % 2 == 1 then .[($n - 1) / 2] else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;
		([$rows[] | select(.kind == "fio") | .mb_s] | median) as $fio
		| ([$rows[] | select(.kind == "run" and .dataset == "big" and .strategy == "stream"
			and .threads == 1 and .work == 0) | .mb_s] | median) as $run
		| [inputs | select(contains("\"big: stream t1 w0 / fio-seq-psync\""))][0]
		| if . == null then error("no stream t1 bar in fio.dat") else
			(split("\"") | last | [scan("\\S+")][0] | tonumber) as $got
			| ($got - $run / $fio | fabs) <= 1e-4 * $got end' \
		"$T/r/plots/data/fio.dat" >/dev/null || die "fio.dat: $(cat "$T/r/plots/data/fio.dat")"
}

# plot reads rows through report's loader: a row whose maxrss_kb was set
# to -1 by hand is named with its line and is in no figure's data.
plot_leaves_out_rows_that_are_not_measurements() {
	need_cmd gnuplot
	make_results "$T/r"
	jq -sc 'to_entries[] | if .key == 2 then .value.maxrss_kb = -1 else . end | .value' \
		"$T/r/results.jsonl" >"$T/rows" && mv "$T/rows" "$T/r/results.jsonl"
	"$IOSTRAT" plot "$T/r" --only memory >/dev/null 2>"$T/err" || die "plot failed: $(cat "$T/err")"
	grep -q "r/results.jsonl:3: not a measurement, left out: maxrss_kb -1 is negative (a size)" "$T/err" ||
		die "row not named: $(cat "$T/err")"
	[ -s "$T/r/plots/data/memory.dat" ] || die "no memory.dat"
	grep -v '^#' "$T/r/plots/data/memory.dat" | grep -Eq '(^|[[:space:]])-[0-9]' &&
		die "a negative figure in memory.dat: $(cat "$T/r/plots/data/memory.dat")"
	true
}

missing_column_names_figure() {
	need_cmd gnuplot
	make_results "$T/r"
	jq -c 'del(.maxrss_kb)' "$T/r/results.jsonl" >"$T/rows" && mv "$T/rows" "$T/r/results.jsonl"
	local rc=0
	"$IOSTRAT" plot "$T/r" --only grid,memory,cpu >"$T/out.txt" 2>"$T/err.txt" || rc=$?
	[ "$rc" -eq 1 ] || die "expected exit 1, got $rc"
	grep -q "plot memory: .*no column 'maxrss_kb'" "$T/err.txt" || die "no clear message: $(cat "$T/err.txt")"
	[ "$(grep -c . "$T/err.txt")" -eq 1 ] || die "more than one message: $(cat "$T/err.txt")"
	grep -q "^  grid .*\.png" "$T/out.txt" || die "grid not rendered"
	grep -q "^  cpu .*\.png" "$T/out.txt" || die "cpu not rendered"
	[ ! -e "$T/r/plots/memory.png" ] || die "memory.png drawn anyway"
}

missing_gnuplot_is_clear() {
	make_results "$T/r"
	GNUPLOT=/nonexistent/gnuplot expect_fail "gnuplot not found" "$IOSTRAT" plot "$T/r"
	[ -s "$T/r/plots/data/memory.dat" ] || die "data files not kept"
}

bad_arguments() {
	expect_fail "need a results directory" "$IOSTRAT" plot
	expect_fail "nothing: results directory: No such file" "$IOSTRAT" plot "$T/nothing"
	mkdir "$T/notres"
	expect_fail "notres: not a results directory \(no results.jsonl" "$IOSTRAT" plot "$T/notres"
	mkdir -p "$T/r" && : >"$T/r/results.jsonl"
	expect_fail "unknown figure 'nope'" "$IOSTRAT" plot "$T/r" --only nope
	expect_fail "plot --compare: need 2 to 26" "$IOSTRAT" plot --compare "$T/r"
	expect_fail "one DIR only" "$IOSTRAT" plot "$T/r" "$T/r"
	expect_fail "-o is for --compare" "$IOSTRAT" plot "$T/r" -o "$T/x"
	expect_fail "nothing: results directory: No such file" "$IOSTRAT" plot --compare "$T/r" "$T/nothing" -o "$T/x"
	[ ! -e "$T/x/compare.csv" ] || die "compare.csv written for a missing run"
	# an empty results file: nothing to plot is a failure, not a list of dashes
	expect_fail "r: no result rows: nothing to plot" "$IOSTRAT" plot "$T/r"
	[ ! -e "$T/r/plots" ] || die "plots/ made for no rows"
}

gnuplot_warnings_are_reported() {
	need_cmd gnuplot
	mkdir -p "$T/p"
	cp "$TOP"/plots/*.gp "$T/p/"
	make_results "$T/r"
	printf 'plot "/nonexistent-file" using 1:2\n' >>"$T/p/memory.gp"
	local rc=0
	IOSTRAT_PLOTS=$T/p "$IOSTRAT" plot "$T/r" --only memory >/dev/null 2>"$T/err.txt" || rc=$?
	[ "$rc" -ne 0 ] || die "a gnuplot error went unnoticed"
	grep -q "plot memory (memory): gnuplot: .*nonexistent-file" "$T/err.txt" ||
		die "gnuplot's message not passed on: $(cat "$T/err.txt")"
}

# One colour per strategy in every figure (its linetype in the data files:
# the strategy's place in the registry), the fastest marked in the grid,
# cpu and fio figures, and no text of any figure off its canvas.
figures_share_one_colour_per_strategy_and_ring_the_fastest() {
	need_cmd gnuplot
	make_results "$T/r"
	"$IOSTRAT" plot "$T/r" >/dev/null || die "plot failed"
	local d=$T/r/plots/data f
	local seen=0 want='{"stream": 1, "buffer": 2}'
	# grid and memory: the header names each strategy and its linetype
	for f in "$d"/grid-*.dat "$d/memory.dat"; do
		[ -e "$f" ] || continue
		case $(jq -Rsr --argjson want "$want" "$DAT_WORDS"'[split("\n\n\n")[] | select(test("\\S"))
			| sub("^\\s+"; "") | split("\n")[0] | words
			| . as $h | range(length) | select($want[$h[.]]) | [$h[.], $h[. + 1]]]
			| if all(.[]; .[1] == ($want[.[0]] | tostring)) then length else error("\(.)") end' "$f") in
		0) ;;
		[1-9]*) seen=$((seen + 1)) ;;
		*) die "$f: a strategy's linetype is not its colour" ;;
		esac
	done
	# cpu: a colour column per line, at most one fastest per work level, the
	# lowest, and only a winner the verdict decided (two repetitions decide none)
	for f in "$d"/cpu-*.dat; do
		[ -e "$f" ] || continue
		jq -Rse --argjson want "$want" "$DAT_WORDS"'sub("^\\s+"; "") | sub("\\s+$"; "") | split("\n")[1:] | map(words)
			| all(.[]; (.[6] | tonumber) == $want[.[0] | [scan("\\S+")][0]])
			and all(group_by(.[0] | [scan("\\S+")][2])[];
				(map(.[3] | tonumber) | min) as $min
				| [.[] | select(.[7] != "NaN") | .[3] | tonumber] | . == [] or . == [$min])' "$f" >/dev/null ||
			die "$f: colours or fastest marks wrong: $(cat "$f")"
		seen=$((seen + 1))
	done
	# fio: colour column, at most one ringed bar per data set (a winner
	# the verdict decided: two repetitions decide none)
	if [ -e "$d/fio.dat" ]; then
		jq -Rse --argjson want "$want" "$DAT_WORDS"'[split("\n\n\n")[] | select(test("\\S"))]
			| all(.[]; (sub("^\\s+"; "") | sub("\\s+$"; "") | split("\n")[1:] | map(words)) as $lines
				| all($lines[]; (.[5] | tonumber) == $want[.[1] | [scan("\\S+")][1]])
				and ([$lines[] | select(.[6] != "NaN")] | length) <= 1)' "$d/fio.dat" >/dev/null ||
			die "fio.dat: colours or rings wrong: $(cat "$d/fio.dat")"
		seen=$((seen + 1))
	fi
	[ "$seen" -ge 3 ] || die "only $seen data files name the strategies' colours"
	for f in "$T"/r/plots/*.svg; do
		python3 "$TOP/tests/tools/svgfit.py" "$f" >"$T/fit" || die "$(basename "$f"): $(head -n 1 "$T/fit")"
	done
}

# Two repetitions decide no cell: the grid and cpu figures ring nothing,
# each grid panel says "(undecided)" and the size of the data it read.
undecided_cells_carry_no_ring_and_panels_say_the_size() {
	make_results "$T/r"
	"$IOSTRAT" plot "$T/r" >/dev/null || die "plot failed"
	local d=$T/r/plots/data f n=0
	for f in "$d"/grid-*.dat; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		grep -q '(undecided)' "$f" || die "$f: no panel says undecided: $(head -n 2 "$f")"
		! grep -q '"work [^"]*: fastest' "$f" || die "$f: an undecided panel names a fastest"
		grep -Eq '"work [0-9]+, [0-9]+ [KM]B:' "$f" || die "$f: no size in the panel title"
		# best and best_pos (the last two columns): NaN on every line
		awk 'NF > 2 && $1 ~ /^[0-9]+$/ && ($(NF-1) != "NaN" || $NF != "NaN") { exit 1 }' "$f" ||
			die "$f: a ring on an undecided cell"
	done
	[ "$n" -ge 1 ] || die "no grid data"
	for f in "$d"/cpu-*.dat; do
		[ -e "$f" ] || continue
		! awk 'NR > 1 && $0 !~ /^#/ { if ($(NF-1) != "NaN") found = 1 } END { exit !found }' "$f" ||
			die "$f: a fastest mark on an undecided cell"
	done
}

# The fio figure with the longest labels a bench makes: every label on the
# canvas; ratios spanning more than 4x on a log axis, narrower ones linear.
fio_figure_labels_fit_and_wide_ratios_get_a_log_axis() {
	need_cmd gnuplot
	local x=0 r
	for span in wide narrow; do
		{
			echo '"data set medium-short" "label" ratio lo hi colour fastest'
			for r in 0.09 0.5 1.2 3.1 0.8 1.0; do
				[ $span = narrow ] && r=$(echo "0.8 + $r / 10" | bc -l)
				f=NaN
				[ $x -eq 3 ] && f=$r
				echo "$x \"medium-short: uring+direct t16 w1000 / fio-uring-direct\" $r $r $r 5 $f"
				x=$((x + 1))
			done
		} >"$T/$span.dat"
		x=0
		gnuplot -e "datafile='$T/$span.dat'; outbase='$T/$span'" "$TOP/plots/fio.gp" 2>"$T/err" ||
			die "gnuplot: $(head -n 1 "$T/err")"
		[ ! -s "$T/err" ] || die "gnuplot warned: $(head -n 1 "$T/err")"
		python3 "$TOP/tests/tools/svgfit.py" "$T/$span.svg" >"$T/fit" ||
			die "$span: $(head -n 1 "$T/fit")"
	done
	grep -q 'log scale' "$T/wide.svg" || die "0.09..3.1 (34x) not on a log axis"
	! grep -q 'log scale' "$T/narrow.svg" || die "0.81..1.11 on a log axis"
}

# The ratios figure draws the race's interval as it stood at each look: none
# before the third pair, then the confidence sequence of the pairs so far,
# the last look the verdict's own interval (the limits fixture: 6 rounds).
ratios_interval_is_the_races_look_at_each_round() {
	cp -r "$TOP/tests/fixtures/limits" "$T/r"
	"$IOSTRAT" plot "$T/r" --only ratios >"$T/out" 2>"$T/err" || die "plot: $(cat "$T/err")"
	local d=$T/r/plots/data/ratios.dat want
	want=$("$IOSTRAT" report "$T/r" -f json |
		jq -r '[.. | objects | select(has("ci_lo") and has("runner_up"))][0] | "\(.ci_lo) \(.ci_hi)"')
	awk -v want="$want" 'NF == 6 && $1 ~ /^[0-9]+$/ {
		if ($1 < 3 && ($5 != 0 || $3 != 1 || $4 != 1)) { print "round " $1 " has an interval"; bad = 1 }
		if ($1 >= 3 && ($5 != 1 || !($3 < $2 && $2 < $4))) { print "round " $1 " not about its ratio"; bad = 1 }
		if ($1 >= 3) { w = $4 - $3; if (n3 == "") n3 = w; lo = $3; hi = $4 }
		n++ }
		END { split(want, v, " ")
		if (n != 6) { print n " rounds"; bad = 1 }
		if (lo - v[1] > 1e-4 || v[1] - lo > 1e-4 || hi - v[2] > 1e-4 || v[2] - hi > 1e-4) {
			print "last look " lo "-" hi ", the verdict " want; bad = 1 }
		if (!(n3 > w)) { print "the third look no wider than the last"; bad = 1 }
		exit bad }' "$d" >"$T/why" || die "$(cat "$T/why"): $(cat "$d")"
}

# A panel of 49 rounds gets gnuplot's own tic step, not a tic a round,
# also after a panel of 10 (whose y range must not hide its rounds).
ratios_panel_of_many_rounds_has_few_tics() {
	need_cmd gnuplot
	local r
	{
		echo '"a: x vs y, winner" "round" ratio lo hi has_ci band'
		for r in $(seq 1 10); do echo "$r 1.1 1.05 1.2 1 0.05"; done
		printf '\n\n'
		echo '"b: x vs y, winner" "round" ratio lo hi has_ci band'
		for r in $(seq 1 49); do echo "$r 1.1 1.02 1.2 1 0.05"; done
	} >"$T/r.dat"
	gnuplot -e "datafile='$T/r.dat'; outbase='$T/r'" "$TOP/plots/ratios.gp" 2>"$T/err" ||
		die "gnuplot: $(head -n 1 "$T/err")"
	grep -q '<text> 11</text>' "$T/r.svg" || die "the 10-round panel lost its tic a round"
	! grep -q '<text> 13</text>' "$T/r.svg" || die "the 49-round panel has a tic a round"
}

t plot_renders_every_figure_and_each_script_alone plot_renders_every_figure
t undecided_cells_carry_no_ring_and_panels_say_the_size \
	undecided_cells_carry_no_ring_and_panels_say_the_size
t figures_share_one_colour_per_strategy_and_ring_the_fastest \
	figures_share_one_colour_per_strategy_and_ring_the_fastest
t fio_figure_labels_fit_and_wide_ratios_get_a_log_axis \
	fio_figure_labels_fit_and_wide_ratios_get_a_log_axis
t ratios_interval_is_the_races_look_at_each_round
t ratios_panel_of_many_rounds_has_few_tics
t kernel_figure_from_trace_columns
t kernel_figure_skip_says_why_tracing_was_unavailable
t sweep_and_net_figures
t compare_figure_from_real_runs
t compare_figure_of_a_sched_dir
t wide_comparison_stays_readable
t compare_csv_lacking_columns
t kernel_histogram_from_traced_run
t fio_ratio_is_the_measured_ratio
t reqlat_figure_from_q_and_d_hist
t missing_column_names_figure
t plot_leaves_out_rows_that_are_not_measurements
t missing_gnuplot_is_clear
t bad_arguments
t gnuplot_warnings_are_reported
