# Figure 6, a comparison of runs (I/O schedulers, kernels, builds): a row
# per configuration down the page, a horizontal bar per run in it (its
# median, error bars min..max over the repetitions), and a '*' right of a
# run whose difference from run A is significant (p < 0.05, the test of
# `iostrat compare`: Mann-Whitney U with >= 4 repetitions on both sides,
# else Welch's t).  Labels stay horizontal, so a long one never collides
# with its neighbours; `iostrat plot` puts at most 30 configurations on a
# page (fewer with more than 4 runs) and splits more into compare-1of2,
# compare-2of2, ...
#
#   gnuplot -e "datafile='compare.dat'; outbase='out/compare'[; title='...']" plots/compare.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 900 pixels.
# datafile (written by `iostrat plot` from compare.csv): one block, a header
#   "X axis label" "A: label" "min" "max" "sig" "B: label" "min" "max" "sig" ...
# and one line per configuration: its label, then per run the median, min,
# max and sig (1 = significant against A, 0 = not, NaN for A itself or a
# run without the configuration).
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "compare.gp"
if (!exists("title")) title = "Comparison of runs (median, bars min..max; * p < 0.05 against A)"
width = 1200
height = 900

stats datafile using 2 nooutput
nclu = STATS_records
xlab = ""
stats datafile every ::0::0 using (xlab = strcol(1), 0) nooutput
ns = int((STATS_columns - 1) / 4)
bw = 0.8 / ns
# run s's bar in row $0 (row 0 at the top: the y axis runs downwards)
ypos(s) = $0 + (s - (ns + 1) / 2.0) * bw
# every bar gets a label, empty unless significant (a plot of no points warns)
star(s) = column(4*s+1) > 0 ? "*" : ""

set key autotitle columnheader
set style fill solid 0.75 border lc rgb "#333333"
set grid xtics lc rgb "#dddddd"
set yrange [nclu - 0.4 : -0.6]
set xrange [0:*]
set offsets 0, graph 0.06, 0, 0
set ytics nomirror scale 0
set xtics mirror
set ylabel "configuration (config_id without the parts all share)"
set xlabel xlab
set key below horizontal samplen 2

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	# centred on the page, not over the plot: long labels push the plot right
	set label 1 title at screen 0.5, screen 0.975 center font ",12"
	set tmargin 3
	plot datafile using 2:0:ytic(1) with points pt 7 ps 0 lc rgb "#ff000000" notitle, \
	     for [s = 1:ns] datafile using (column(4*s-2) / 2):(ypos(s)):(column(4*s-2) / 2):(bw / 2) \
	         with boxxyerror lc s title columnheader(4*s-2), \
	     for [s = 1:ns] datafile using 4*s-2:(ypos(s)):4*s-1:4*s with xerrorbars pt 7 ps 0.3 lc rgb "black" notitle, \
	     for [s = 2:ns] datafile using 4*s:(ypos(s)):(star(s)) with labels left offset 0.5, -0.3 font ",14" tc rgb "#b00000" notitle
	unset output
}

set datafile missing "NaN"