# Figure 4, strategy vs fio baseline: each bar is a strategy's throughput
# divided by the throughput of the fio job doing the same I/O on the same
# files (same data set and cache state); the dashed line at 1.0 is fio.
# Below 1: time the device could have done faster (processing, syscalls);
# above 1: the strategy beat the plain fio job.
#
#   gnuplot -e "datafile='fio.dat'; outbase='out/fio'[; title='...']" plots/fio.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 500 pixels.
# datafile (written by `iostrat plot`): one block per data set (blocks split
# by two blank lines), header "DATASET" "label" ratio lo hi, then lines
#   x "stream t1 w0 / fio-seq-psync" ratio lo hi
# (x counts on across blocks; lo/hi: the strategy's min/max MB/s over the
# fio median).
if (!exists("datafile") || !exists("outbase")) {
	print "usage: gnuplot -e \"datafile='F.dat'; outbase='OUT'\" fio.gp"
	exit status 2
}
if (!exists("title")) title = "Strategy throughput / fio baseline throughput"
width = 1200
height = 500

stats datafile using 1 nooutput
nblk = STATS_blocks
nbar = STATS_max + 1
bw = 0.7

set datafile missing "NaN"
set termoption noenhanced
set key autotitle columnheader
set style fill solid 0.75 border lc rgb "#333333"
set boxwidth bw
set grid ytics lc rgb "#dddddd"
set ylabel "throughput ratio (strategy MB/s / fio MB/s)"
set xlabel "strategy, threads (t), work level (w) / fio job"
set xrange [-0.6 : nbar - 0.4]
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set xtics nomirror rotate by 30 right font ",9"
set bmargin 10
set lmargin 16
set key outside right top vertical samplen 2

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size width, height font "DejaVu Sans,10"
	} else {
		set terminal svg size width, height font "DejaVu Sans,10" background "white"
	}
	set output outbase . "." . fmt
	set title title font ",12"
	plot for [i = 0:nblk-1] datafile index i using 1:3:xtic(2) with boxes lc i+1 title columnheader(1), \
	     for [i = 0:nblk-1] datafile index i using 1:3:4:5 with yerrorbars pt 7 ps 0.3 lc rgb "black" notitle, \
	     1 with lines dt 2 lw 2 lc rgb "#d62728" title "fio = 1.0"
	unset output
}
