# The verdict's strip plot: per verdict cell, the runner-up's time over the
# fastest's in each round (points), the interval of that ratio as the race
# saw it at each look (dashed steps: a confidence sequence, valid at every
# look, narrowing as rounds come; the last is the verdict's) and the band
# 1 +- min_effect (grey), one panel per cell: a cell whose interval still
# straddles 1 is undecided, one whose interval lies clear of 1 has a
# winner (from the round it left 1), one inside the band is equal.
#
#   gnuplot -e "datafile='ratios.dat'; outbase='out/ratios'[; title='...']" plots/ratios.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 720 pixels: up to
# four panels a row.
# datafile (written by `iostrat plot`): one block per cell, blocks split by
# two blank lines, each opening with the header
#   "CELL: FASTEST vs RUNNER-UP, DECISION" "round" ratio lo hi has_ci band
# then per round: round, ratio, that look's lo and hi (1 and 1 when has_ci
# is 0: before the third pair), has_ci, band.
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "ratios.gp"
if (!exists("title")) title = "Runner-up's time / the fastest's, round by round"
width = 1200
height = 720

stats datafile using 1 nooutput
panels = STATS_blocks
array ptitle[panels]
array pband[panels]
do for [i = 0:panels-1] {
	h = ""
	stats datafile index i every ::0::0 using (h = strcol(1), 0) nooutput
	ptitle[i+1] = h
	stats datafile index i every ::1::1 using (b = $6, 0) nooutput
	pband[i+1] = b
}

set grid ytics lc rgb "#dddddd"
set xlabel "round"
set ylabel "runner-up / fastest"
# no key: the figure's title says what the points, dashes and band are
unset key
set offsets 0.5, 0.5, graph 0.1, graph 0.1

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set multiplot layout int(ceil(panels / 4.0)), (panels < 4 ? panels : 4) title title font ",12"
	do for [i = 0:panels-1] {
		# "CELL" over "FASTEST vs RUNNER-UP, DECISION": each line fits a panel
		t = ptitle[i+1]
		p = strstrt(t, ": ")
		set title (p > 0 ? t[1:p-1] . "\n" . t[p+2:] : t) font ",8"
		# stats reads within the axis' range: the last panel's is undone first
		set yrange [*:*]
		stats datafile index i every ::1 using 1 nooutput
		eval round_tics(STATS_max)
		# the y axis holds the points, the band and the last look's interval;
		# the first looks' wider ones leave it at the edge
		stats datafile index i every ::1 using 2 nooutput
		ylo = STATS_min
		yhi = STATS_max
		stats datafile index i every ::1 using (l = $3, u = $4, 0) nooutput
		ylo = (l < ylo ? l : ylo)
		ylo = (1 - pband[i+1] < ylo ? 1 - pband[i+1] : ylo)
		yhi = (u > yhi ? u : yhi)
		yhi = (1 + pband[i+1] > yhi ? 1 + pband[i+1] : yhi)
		set yrange [ylo - 0.05 * (yhi - ylo) : yhi + 0.05 * (yhi - ylo)]
		unset arrow
		unset object
		set object 1 rectangle from graph 0, first 1 - pband[i+1] to graph 1, first 1 + pband[i+1] fillcolor rgb "#dddddd" fillstyle solid 1.0 noborder behind
		# 1 and each look's interval ends as steps up to its round, so the axis holds
		# them (no interval yet: both drawn at 1, under the line of 1)
		plot datafile index i using 1:2 with points pt 7 ps 1.0 lc rgb "#D55E00" title "paired ratio of a round", \
		     datafile index i using 1:3 with fsteps dt 2 lw 2 lc rgb "#0072B2" notitle, \
		     datafile index i using 1:4 with fsteps dt 2 lw 2 lc rgb "#0072B2" notitle, \
		     1 with lines lw 1 lc rgb "black" notitle
	}
	unset multiplot
	unset output
}
