# Figure 3, CPU: per configuration, user (bottom), system and the kernel's
# CPU outside the process (kernel threads: kswapd, kworkers, ksoftirqd; top)
# seconds as one stacked bar (greys), elapsed time as the bar beside it in
# the strategy's colour (palette.gp); the fastest configuration of each
# work level ringed.  CPU above
# elapsed means threads ran in parallel; CPU far below elapsed means the
# run waited for the device.
#
#   gnuplot -e "datafile='cpu-big.dat'; outbase='out/cpu-big'[; title='...']" plots/cpu.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 500 pixels.
# datafile (written by `iostrat plot`): a header line
#   "config" user sys elapsed elapsed_min elapsed_max colour fastest kernel
# then one line per configuration ("stream t2 w100": strategy, threads,
# work level) with median seconds; elapsed_min/max give the error bar,
# colour the strategy's linetype, fastest the elapsed median on the
# fastest configuration of its work level when the verdict decided it
# (NaN elsewhere), kernel the
# kernel threads' CPU seconds (NaN in rows from before it was recorded:
# that bar is left out).
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "cpu.gp"
if (!exists("title")) title = "CPU time beside elapsed time (medians)"
width = 1200
height = 500

stats datafile using 4 nooutput
ncfg = STATS_records
# rings written (winners the verdict decided): none, no ring plot at all
nring = 0
stats datafile using (nring = nring + ((strcol(8) eq "NaN" || strcol(8) eq "fastest") ? 0 : 1), 0) nooutput
bw = 0.38

set key autotitle columnheader
set style fill solid 0.8 border lc rgb "#333333"
set boxwidth bw
set grid ytics lc rgb "#dddddd"
set ylabel "time (s)"
set xlabel "configuration (strategy, t = threads, w = work level)"
set xrange [-0.6 : ncfg - 0.4]
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set xtics nomirror rotate by 90 right font ",9"
set key outside right top vertical samplen 2
set bmargin 10

# the ring, only when there is one (an empty plot warns); defined before
# the do block, which expands its macros once
ringplot = nring > 0 ? "datafile using ($0 + bw/2):8 with points pt fastest_pt ps fastest_ps lw fastest_lw lc rgb 'black' title fastest_title," : ""

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set title title font ",12"
	plot datafile using ($0 - bw/2):($2 + $3 + $9) with boxes lc rgb "#222222" title "kernel, outside the process", \
	     datafile using ($0 - bw/2):($2 + $3):xtic(1) with boxes lc rgb "#555555" title "system CPU", \
	     datafile using ($0 - bw/2):2 with boxes lc rgb "#b8b8b8" title "user CPU", \
	     datafile using ($0 + bw/2):4:7 with boxes lc variable title "elapsed (strategy colour)", \
	     @ringplot \
	     datafile using ($0 + bw/2):4:5:6 with yerrorbars pt 7 ps 0.3 lc rgb "black" title "elapsed min..max"
	unset output
}

set datafile missing "NaN"