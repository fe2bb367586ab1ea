# Figure 5, the kernel view (eBPF columns of traced runs).  First panel: the
# share of block requests that started where the previous one ended
# (sequential), per strategy and data set.  Second: the page-cache hit ratio
# of the reads, per strategy and cache state (cold near 0, warm near 100).
# Third, when the data has it: the seek-distance histogram per strategy, a
# line each (the share of its block requests, pooled over its runs, per
# log2 bucket of the distance from the end of the previous request; "seq"
# = 0, "512B" = 512 B up to 1 KiB, ...; drawn wider than the others), or,
# for rows traced before the seek_hist column existed, the median seek
# distance (KiB, log scale; 0 = sequential, drawn at the bottom).  Each
# bar has its median as a point of its colour and as a number above it, so
# a 0 (every read from the device, no sequential request) shows as a 0.
#
#   gnuplot -e "datafile='kernel.dat'; outbase='out/kernel'[; title='...']" plots/kernel.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 500 pixels.
# datafile (written by `iostrat plot`): two or three blocks split by two
# blank lines, each a header "cluster" S1 C1 max S2 C2 max ...   (Cn: colour index of Sn) and one
# line per cluster (block 0: data sets, seq_pct in %; block 1: cache
# states, hit ratio in %; block 2: "bucket" in place of "cluster", a line
# per distance bucket, pooled share of requests in % and the min and max
# share of a single run -- or "cluster", data sets,
# seek_p50_kb) with per strategy the median, min and max (NaN: not run).
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "kernel.gp"
if (!exists("title")) title = "What the kernel saw: sequential share and page-cache hits"
width = 1500
height = 500

stats datafile using 2 nooutput
npan = STATS_blocks
array nclu[npan]
array nser[npan]
array col[npan * 32]
hist = 0
do for [i = 0:npan-1] {
	stats datafile index i using 2 nooutput
	nclu[i+1] = STATS_records
	h = ""
	stats datafile index i every ::0::0 using (h = strcol(1), 0) nooutput
	if (i == 2 && h eq "bucket") { hist = 1 }
	nser[i+1] = (STATS_columns - 1) / 3
	do for [s = 1:nser[i+1]] {
		stats datafile index i every ::0::0 using (h = strcol(3*s), 0) nooutput
		col[i*32 + s] = h + 0
	}
}
xpos(s) = $0 + (s - (ns + 1) / 2.0) * bw
# a seek distance of 0 (sequential) has no place on a log axis: draw it at 1
v(c) = (i == 2 && !hist && column(c) < 1) ? 1 : column(c)

set key autotitle columnheader
set style fill solid 0.75 border lc rgb "#333333"
set grid ytics lc rgb "#dddddd"
set yrange [0:105]
set xtics nomirror
set key below horizontal samplen 2
set bmargin 6

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set multiplot title title font ",12"
	do for [i = 0:npan-1] {
		# the histogram has many buckets: it gets the wider share
		pw = (npan == 3 && hist) ? (i == 2 ? 0.44 : 0.28) : 1.0 / npan
		set origin (i == 0 ? 0 : (npan == 3 && hist) ? 0.28 * i : 1.0 * i / npan), 0
		set size pw, 0.94
		set xrange [-0.6 : nclu[i+1] - 0.4]
		ns = nser[i+1]
		bw = 0.8 / ns
		set boxwidth bw
		unset logscale y
		set yrange [0:105]
		if (i == 0) {
			set title "sequential block requests" font ",10"
			set xlabel "data set"
			set ylabel "sequential requests (% of block requests)"
		}
		if (i == 1) {
			set title "page-cache hit ratio of reads" font ",10"
			set xlabel "cache state before the run"
			set ylabel "page-cache hits (% of pages read)"
		}
		if (i == 2 && hist) {
			set title "seek distance histogram per strategy (pooled over its runs)" font ",10"
			set xlabel "distance from the previous request's end (log2 bucket, from)"
			set ylabel "block requests (% of the strategy's)"
			set yrange [0:*]
		}
		if (i == 2 && !hist) {
			set title "median seek distance (rows without seek_hist)" font ",10"
			set xlabel "data set"
			set ylabel "seek distance (KiB, log scale)"
			set logscale y 10
			set yrange [*:*]
		}
		if (i == 2 && hist && nclu[3] > 8) { set xtics rotate by 45 right } else { set xtics norotate }
		if (i == 2 && hist) {
			# a line per strategy: its pooled share per bucket
			plot datafile index i using 0:(1):xtic(1) with points pt 7 ps 0 lc rgb "#ff000000" notitle, \
			     for [s = 1:ns] datafile index i using 0:3*s-1 with linespoints lw 2 pt 7 ps 0.6 lc col[i*32 + s] title columnheader(3*s-1)
		} else {
			plot datafile index i using 0:(1):xtic(1) with points pt 7 ps 0 lc rgb "#ff000000" notitle, \
			     for [s = 1:ns] datafile index i using (xpos(s)):(v(3*s-1)) with boxes lc col[i*32 + s] title columnheader(3*s-1), \
			     for [s = 1:ns] datafile index i using (xpos(s)):(v(3*s-1)):(v(3*s)):(v(3*s+1)) with yerrorbars pt 7 ps 0.3 lc rgb "black" notitle, \
			     for [s = 1:ns] datafile index i using (xpos(s)):(v(3*s-1)) with points pt 7 ps 1.2 lc col[i*32 + s] notitle, \
			     for [s = 1:ns] datafile index i using (xpos(s)):(v(3*s-1)):(sprintf("%.0f", column(3*s-1))) with labels offset 0, 0.9 notitle
		}
	}
	unset multiplot
	unset output
}

set datafile missing "NaN"