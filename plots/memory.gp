# Figure 2, memory: peak resident set size per strategy (log scale), one
# cluster per data set (smallest first) and thread count: streaming stays
# flat, buffering grows with file size x threads.
#
#   gnuplot -e "datafile='memory.dat'; outbase='out/memory'[; title='...']" plots/memory.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 500 pixels.
# datafile (written by `iostrat plot`): a header line
#   "cluster" S1 C1 max S2 C2 max ...   (Cn: colour index of Sn)
# then one line per cluster: its label, and per strategy the median, min
# and max peak RSS in MiB (NaN where not run).
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "memory.gp"
if (!exists("title")) title = "Peak RSS per strategy (median, bars min..max)"
width = 1200
height = 500

h = ""
stats datafile every ::0::0 using (h = strcol(1), 0) nooutput
nser = (STATS_columns - 1) / 3
array col[nser]
do for [s = 1:nser] {
	stats datafile every ::0::0 using (h = strcol(3*s), 0) nooutput
	col[s] = h + 0
}
# a log axis starts below the smallest bar, so every bar shows
ylo = 1e300
do for [s = 1:nser] {
	stats datafile using (column(3*s)) nooutput
	ylo = STATS_min < ylo ? STATS_min : ylo
}
stats datafile using 2 nooutput
nclu = STATS_records
bw = 0.8 / nser
xpos(s) = $0 + (s - (nser + 1) / 2.0) * bw

set style fill solid 0.75 border lc rgb "#333333"
set boxwidth bw
set logscale y 2
set yrange [ylo / 2 : *]
set format y "%g"
set grid ytics lc rgb "#dddddd"
set ylabel "peak RSS (MiB, log scale)"
set xlabel "data set and threads (t = threads)"
set xrange [-0.6 : nclu - 0.4]
set xtics nomirror
set key outside right top vertical samplen 2 autotitle columnheader

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set title title font ",12"
	plot datafile using 0:(1):xtic(1) with points pt 7 ps 0 lc rgb "#ff000000" notitle, \
	     for [s = 1:nser] datafile using (xpos(s)):(column(3*s-1)) with boxes lc col[s] title columnheader(3*s-1), \
	     for [s = 1:nser] datafile using (xpos(s)):(column(3*s-1)):(column(3*s)):(column(3*s+1)) with yerrorbars pt 7 ps 0.3 lc rgb "black" notitle
	unset output
}

set datafile missing "NaN"