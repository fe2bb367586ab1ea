# Figure 6, a comparison of runs (I/O schedulers, kernels, builds): a group
# per configuration, a bar per run (its median, error bars min..max over
# the repetitions), and a '*' above a run whose difference from run A is
# significant (p < 0.05, the test of `iostrat compare`: Mann-Whitney U with
# >= 4 repetitions on both sides, else Welch's t).
#
#   gnuplot -e "datafile='compare.dat'; outbase='out/compare'[; title='...']" plots/compare.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 500 pixels.
# datafile (written by `iostrat plot` from compare.csv): one block, a header
#   "Y axis label" "A: label" "min" "max" "sig" "B: label" "min" "max" "sig" ...
# and one line per configuration: its label, then per run the median, min,
# max and sig (1 = significant against A, 0 = not, NaN for A itself or a
# run without the configuration).
if (!exists("datafile") || !exists("outbase")) {
	print "usage: gnuplot -e \"datafile='F.dat'; outbase='OUT'\" compare.gp"
	exit status 2
}
load (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/palette.gp"
if (!exists("title")) title = "Comparison of runs (median, bars min..max; * p < 0.05 against A)"
width = 1200
height = 500

stats datafile using 2 nooutput
nclu = STATS_records
ylab = ""
stats datafile every ::0::0 using (ylab = strcol(1), 0) nooutput
ns = int((STATS_columns - 1) / 4)
bw = 0.8 / ns
xpos(s) = $0 + (s - (ns + 1) / 2.0) * bw
# every bar gets a label, empty unless significant (a plot of no points warns)
star(s) = column(4*s+1) > 0 ? "*" : ""

set datafile missing "NaN"
set termoption noenhanced
set key autotitle columnheader
set style fill solid 0.75 border lc rgb "#333333"
set boxwidth bw
set grid ytics lc rgb "#dddddd"
set xrange [-0.6 : nclu - 0.4]
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set xtics nomirror
set xlabel "configuration (config_id without the parts all share)"
# rotated labels leave room below them; pull the axis label up into it
if (nclu > 6) { set xtics rotate by 25 right; set xlabel offset 0, 0.5 }
set ylabel ylab
set key below horizontal samplen 2
set lmargin (nclu > 6 ? 18 : 10)

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo noenhanced size width, height font "DejaVu Sans,10"
	} else {
		set terminal svg noenhanced size width, height font "DejaVu Sans,10" background "white"
	}
	set output outbase . "." . fmt
	set title title font ",12"
	plot datafile using 0:2:xtic(1) with points pt 7 ps 0 lc rgb "#ff000000" notitle, \
	     for [s = 1:ns] datafile using (xpos(s)):4*s-2 with boxes lc s title columnheader(4*s-2), \
	     for [s = 1:ns] datafile using (xpos(s)):4*s-2:4*s-1:4*s with yerrorbars pt 7 ps 0.3 lc rgb "black" notitle, \
	     for [s = 2:ns] datafile using (xpos(s)):4*s:(star(s)) with labels offset 0, 0.7 font ",16" tc rgb "#b00000" notitle
	unset output
}
