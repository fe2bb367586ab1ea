# The memory-limit figure: per strategy and memory limit (none, then each
# memory_max), the median elapsed time of the repetitions that completed,
# in the strategy's colour (palette.gp), min..max as error bars; a
# configuration whose repetitions the limit's OOM killer ended is marked
# with a red cross at the foot of its place (no time: it did not finish).
#
#   gnuplot -e "datafile='memlimit-big.dat'; outbase='out/memlimit-big'[; title='...']" plots/memlimit.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 500 pixels.
# datafile (written by `iostrat plot`): a header line
#   "config" elapsed elapsed_min elapsed_max colour killed
# then one line per configuration ("buffer 64 MiB w0": strategy, limit,
# work level), killed the share of its repetitions killed (NaN: none).
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "memlimit.gp"
if (!exists("title")) title = "Elapsed time against the memory limit (medians)"
width = 1200
height = 500

stats datafile using 5 nooutput
ncfg = STATS_records
ymax = 1
stats datafile using 4 nooutput
if (STATS_records > 0 && STATS_max > 0) ymax = STATS_max

set key autotitle columnheader
set style fill solid 0.8 border lc rgb "#333333"
set boxwidth 0.7
set grid ytics lc rgb "#dddddd"
set ylabel "elapsed (s)"
set xlabel "configuration (strategy, memory limit, w = work level)"
set xrange [-0.6 : ncfg - 0.4]
set yrange [0 : ymax * 1.1]
set xtics nomirror rotate by 90 right font ",9"
set key outside right top vertical samplen 2
set bmargin 10

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set title title font ",12"
	plot datafile using 0:(0):xtic(1) with points pt 7 ps 0 lc rgb "#ff000000" notitle, \
	     datafile using 0:2:5 with boxes lc variable title "elapsed (strategy colour)", \
	     datafile using 0:2:3:4 with yerrorbars pt 7 ps 0.3 lc rgb "black" title "elapsed min..max", \
	     datafile using 0:($6 > 0 ? ymax * 0.04 : NaN) with points pt 2 ps 2.5 lw 3 lc rgb "#d62728" title "killed by the limit (OOM)"
	unset output
}

set datafile missing "NaN"