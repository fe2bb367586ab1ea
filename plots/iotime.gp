# Throughput over time: per verdict cell (a panel), the disk's read
# (solid) and write (dashed) MB/s over each strategy's median timed
# repetition, every 20 ms (coarser on long runs), in the strategy's
# colour: a stall is a gap to 0, a writeback storm a burst of writes.
#
#   gnuplot -e "datafile='iotime.dat'; outbase='out/iotime'[; title='...']" plots/iotime.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 720 pixels: up to
# four panels a row.
# datafile (written by `iostrat plot`): one block per cell and strategy,
# blocks split by two blank lines, a cell's blocks together, each opening
# with the header
#   "CELL" "STRATEGY" COLOUR
# then per interval: its start (s), read MB/s, write MB/s; a last line at
# the end of the last interval repeats its rates, so steps draw it.
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "iotime.gp"
load (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/panels.gp"
width = 1200
height = 720
if (!exists("title")) title = "The disk's MB/s over the median repetition"
set xlabel "time in the repetition (s)"
set ylabel "MB/s"
set yrange [0:*]
set xrange [0:*]

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set multiplot layout int(ceil(panels / 4.0)), (panels < 4 ? panels : 4) title title font ",12"
	do for [p = 1:panels] {
		set title pname[p] font ",8"
		plot for [b = pfirst[p]:plast[p]] datafile index b-1 every ::1 using 1:2 \
			with steps lt bcolour[b] dt 1 title bstrat[b] . " read", \
		     for [b = pfirst[p]:plast[p]] datafile index b-1 every ::1 using 1:3 \
			with steps lt bcolour[b] dt 2 title bstrat[b] . " write"
	}
	unset multiplot
	unset output
}
