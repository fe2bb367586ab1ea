# Figure 4, strategy vs fio: each bar is a strategy's throughput divided by
# the throughput of its mirror job, the fio job doing the same I/O on the
# same files (same data set and cache state): the like-for-like figure.
# A mirror job may read, then write, while the strategy overlaps the two,
# so a bar can pass 1.0 (the machine's measured limits are the limits
# figure's, limits.gp).  The dashed line at 1.0 is fio's pace.  Bars in the strategy's colour
# (palette.gp); the fastest configuration of each data set ringed when the
# verdict decided it the winner of its cell; a log
# axis when the ratios span more than 4x.
#
#   gnuplot -e "datafile='fio.dat'; outbase='out/fio'[; title='...']" plots/fio.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 640 pixels.
# datafile (written by `iostrat plot`): one block per data set (blocks split
# by two blank lines), header "DATASET" "label" ratio lo hi colour fastest,
# then lines
#   x "big: stream t1 w0 / fio-seq-psync" ratio lo hi colour fastest
# (x counts on across blocks; lo/hi: the strategy's min/max MB/s over the
# fio median; colour: the strategy's linetype; fastest: the ratio on the
# data set's fastest bar, NaN elsewhere).
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "fio.gp"
if (!exists("title")) title = "Strategy throughput / fio baseline throughput"
width = 1200
height = 640

stats datafile using 1 nooutput
nblk = STATS_blocks
nbar = STATS_max + 1
stats datafile using 4 nooutput
lo = STATS_min
stats datafile using 5 nooutput
hi = STATS_max
# the rings, only where `iostrat plot` wrote one (a winner the verdict
# decided; "fastest": a block's header)
stats datafile using ((strcol(7) eq "NaN" || strcol(7) eq "fastest") ? 0 : 1) nooutput
hasring = STATS_sum > 0
bw = 0.7

set style fill solid 0.85 border lc rgb "#333333"
set boxwidth bw
set grid ytics lc rgb "#dddddd"
set ylabel "strategy MB/s / fio MB/s"
ringplot = hasring ? "datafile using 1:7 with points pt fastest_pt ps fastest_ps lw fastest_lw lc rgb 'black' title fastest_title," : ""
set xlabel "data set: strategy, threads (t), work level (w) / fio job"
set xrange [-0.6 : nbar - 0.4]
# ratios spanning more than 4x: a log axis, so 0.5x and 2x look alike
if (lo > 0 && hi / lo > 4) {
	set logscale y 2
	set yrange [lo / 1.3 : hi * 1.3]
	set ylabel "strategy MB/s / fio MB/s (log scale)"
} else {
	set yrange [0 : hi * 1.1]
}
# vertical labels: nothing runs off the left edge, whatever their length
set xtics nomirror rotate by 90 right font ",9"
# no fixed bottom margin: gnuplot makes room for the vertical labels and
# the axis title below them, whatever their length
set lmargin 12
set rmargin 18
set key outside right top vertical samplen 2

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set title title font ",12"
	plot for [i = 0:nblk-1] datafile index i using 1:3:6:xtic(2) with boxes lc variable notitle, \
	     for [i = 0:nblk-1] datafile index i using 1:3:4:5 with yerrorbars pt 7 ps 0.3 lc rgb "black" notitle, \
	     @ringplot \
	     1 with lines dt 2 lw 2 lc rgb "black" title "fio = 1.0"
	unset output
}
