# Elapsed by round: per verdict cell (a panel), each strategy's timed
# repetitions in round order (a line per strategy, in its colour): drift
# and outliers are seen, and a slow round of the machine shows in every
# strategy of that round, since the rounds are interleaved.
#
#   gnuplot -e "datafile='rounds.dat'; outbase='out/rounds'[; title='...']" plots/rounds.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 720 pixels: up to
# four panels a row.
# datafile (written by `iostrat plot`): one block per cell and strategy,
# blocks split by two blank lines, a cell's blocks together, each opening
# with the header
#   "CELL" "STRATEGY" COLOUR
# then per timed repetition: round, elapsed seconds.
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "rounds.gp"
load (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/panels.gp"
width = 1200
height = 720
if (!exists("title")) title = "Elapsed by round, per strategy"
set xlabel "round"
set ylabel "elapsed (s)"
set yrange [0:*]

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set multiplot layout int(ceil(panels / 4.0)), (panels < 4 ? panels : 4) title title font ",12"
	do for [p = 1:panels] {
		set title pname[p] font ",8"
		stats datafile index (pfirst[p] - 1):(plast[p] - 1) every ::1 using 1 nooutput
		eval round_tics(STATS_max)
		plot for [b = pfirst[p]:plast[p]] datafile index b-1 every ::1 using 1:2 \
			with linespoints lt bcolour[b] title bstrat[b]
	}
	unset multiplot
	unset output
}
