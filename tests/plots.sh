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
	[ -s "$FIXTURE/r/results.jsonl" ] || (T=$FIXTURE; fresh_results "$FIXTURE/r") ||
		die "could not make the results fixture"
	mkdir -p "$dir"
	cp "$FIXTURE/r/results.jsonl" "$FIXTURE/r/results.csv" "$dir/"
}
# A real small bench: profiles/quick.ini at a tiny scale (stream and
# buffer: the figures, not the strategies, are under test here; medium-short
# and big, threads 1 and 2, work 0 and 100), plus
# fio baselines of the big data set's files (kind=fio, baseline_of="stream
# buffer"), labelled with the data set name as a bench would.
fresh_results() {
	local dir=$1
	SCALE=0.002 "$IOSTRAT" bench "$TOP/profiles/quick.ini" --out "$dir" --data "$T/data" \
		-D reps=2 -D max_reps=2 -D cache=asis -D strategy=stream,buffer -D fio=0 >/dev/null 2>&1 ||
		die "bench failed"
	if command -v fio >/dev/null; then
		"$IOSTRAT" fio seq-psync --dataset "$T"/data/big-* --bs 64k --reps 2 --json \
			--cache asis --no-fsync 2>/dev/null |
			sed "s#\"dataset\":\"[^\"]*\"#\"dataset\":\"big\"#" >>"$dir/results.jsonl" ||
			die "iostrat fio failed"
	fi
}

# Sweep and net rows: from `iostrat sweep` / `iostrat net` when this build
# has them, else rows of their documented schema (kind=sweep: sweep,
# variant, operation, block_size; kind=net: mode, msg_size, msgs_s,
# syscalls_per_msg) made from the measured run rows' figures.
add_sweep_net_rows() {
	local dir=$1 tmp=$T/sn real=""
	if "$IOSTRAT" sweep --help >/dev/null 2>&1; then
		"$IOSTRAT" sweep blocksize --out "$tmp/k" --size 20k --sizes 1,512,4096 --reps 2 \
			>/dev/null 2>&1 || die "sweep blocksize failed"
		"$IOSTRAT" sweep bufsize --out "$tmp/b" --files 2 --scale 0.002 --sizes 64..4k \
			--reps 2 --cache asis >/dev/null 2>&1 || die "sweep bufsize failed"
		cat "$tmp"/{k,b}/results.jsonl >>"$dir/results.jsonl"
		real+=" sweep"
	fi
	if "$IOSTRAT" net --help >/dev/null 2>&1; then
		"$IOSTRAT" net --mode nodelay,buffered,pingpong-unbuffered --size 12,512 \
			--count 300 --reps 2 --out "$tmp/n" >/dev/null 2>&1 || die "net failed"
		cat "$tmp"/n/results.jsonl >>"$dir/results.jsonl"
		real+=" net"
	fi
	python3 - "$dir/results.jsonl" "$real" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
runs = [r for r in rows if r["kind"] == "run"]
out = open(sys.argv[1], "a")
for i, r in enumerate(runs):
    base = dict(r, kind="sweep", config_id=None)
    for kind, sizes in (("blocksize", (1, 512, 4096)), ("bufsize", (64, 1024, 4096))):
        if "sweep" in sys.argv[2]:
            break
        for op in ("write", "read") if kind == "blocksize" else ("read",):
            for n, size in enumerate(sizes):
                s = dict(base, sweep=kind, operation=op, block_size=size, variant=r["strategy"],
                         elapsed_s=r["elapsed_s"] * (4 - n), cpu_s=(r["user_s"] + r["sys_s"]) * (3 - n))
                s["config_id"] = "%s/%s/%s/%d" % (kind, op, s["variant"], size)
                out.write(json.dumps(s) + "\n")
    for mode, k in (("nodelay", 1), ("buffered", 30), ("pingpong-unbuffered", 0.1)):
        if "net" in sys.argv[2]:
            break
        for size in (12, 512):
            out.write(json.dumps(dict(base, kind="net", mode=mode, msg_size=size,
                      config_id="net/%s/s%d" % (mode, size), msgs_s=r["mb_s"] * 1e4 * k,
                      syscalls_per_msg=1.0 / k)) + "\n")
PY
}

# The eBPF columns of traced runs, added to the real rows (tracing needs
# root and the probes): sequential share, page-cache hit ratio, seek p50.
add_trace_columns() {
	python3 - "$1" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
with open(sys.argv[1], "w") as f:
    for i, r in enumerate(rows):
        if r["kind"] == "run":
            r.update(traced=True, seq_pct=60.0 + (r["strategy"] == "buffer") * 30 + i % 5,
                     pc_hit_ratio=0.01 * (i % 3), seek_p50_kb=0.0 if r["strategy"] == "buffer" else 128.0 + i)
        f.write(json.dumps(r) + "\n")
        if r["kind"] == "run" and r["rep"] == 1:
            r.update(cache="warm", pc_hit_ratio=0.99, seq_pct=None, seek_p50_kb=None)
            f.write(json.dumps(r) + "\n")
PY
}

# PNG width x height from the IHDR chunk.
png_size() {
	python3 -c 'import struct,sys
d=open(sys.argv[1],"rb").read(24)
assert d[:8]==b"\x89PNG\r\n\x1a\n", "not a PNG"
print("%dx%d" % struct.unpack(">II", d[16:24]))' "$1"
}

svg_valid() {
	if command -v xmllint >/dev/null; then
		xmllint --noout "$1"
	else
		python3 -c 'import sys,xml.dom.minidom as m; m.parse(sys.argv[1])' "$1"
	fi
}

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
}

fio_ratio_is_the_measured_ratio() {
	need_cmd gnuplot
	need_cmd fio
	make_results "$T/r"
	"$IOSTRAT" plot "$T/r" --only fio >/dev/null || die "plot failed"
	python3 - "$T/r/results.jsonl" "$T/r/plots/data/fio.dat" <<'PY'
import json, statistics as st, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
fio = st.median(r["mb_s"] for r in rows if r["kind"] == "fio")
run = st.median(r["mb_s"] for r in rows if r["kind"] == "run" and r["dataset"] == "big"
                and r["strategy"] == "stream" and r["threads"] == 1 and r["work"] == 0)
for line in open(sys.argv[2]):
    if '"stream t1 w0 / fio-seq-psync"' in line:
        got = float(line.split('"')[-1].split()[0])
        assert abs(got - run / fio) <= 1e-4 * got, (got, run / fio)
        break
else:
    sys.exit("no stream t1 bar in fio.dat")
PY
}

missing_column_names_figure() {
	need_cmd gnuplot
	make_results "$T/r"
	python3 - "$T/r/results.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
with open(sys.argv[1], "w") as f:
    for r in rows:
        r.pop("maxrss_kb", None)
        f.write(json.dumps(r) + "\n")
PY
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
	expect_fail "results.jsonl" "$IOSTRAT" plot "$T/nothing"
	mkdir -p "$T/r" && : >"$T/r/results.jsonl"
	expect_fail "unknown figure 'nope'" "$IOSTRAT" plot "$T/r" --only nope
	"$IOSTRAT" plot "$T/r" | grep -q "grid .*no run rows" || die "empty dir not explained"
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

t plot_renders_every_figure_and_each_script_alone plot_renders_every_figure
t kernel_figure_from_trace_columns kernel_figure_from_trace_columns
t sweep_and_net_figures sweep_and_net_figures
t fio_ratio_is_the_measured_ratio fio_ratio_is_the_measured_ratio
t missing_column_names_figure missing_column_names_figure
t missing_gnuplot_is_clear missing_gnuplot_is_clear
t bad_arguments bad_arguments
t gnuplot_warnings_are_reported gnuplot_warnings_are_reported
