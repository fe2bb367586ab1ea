# The limits figure: per cell, each strategy's median MB/s (y) against the
# CPU it spent per GB (x: user + system + kernel threads), with its
# interval as an error bar, in the strategy's colour (palette.gp); the
# machine's measured limits of the cell as labelled horizontal lines (the
# transform's per-core rate times the cores the cell can use); the CPU
# roofline y = 1000 x cores / x, dashed: no strategy spending x CPU-seconds
# per GB on that many cores can pass it.  Both axes log scales.
#
#   gnuplot -e "datafile='limits-CELL.dat'; outbase='out/limits-CELL'[; title='...']" plots/limits.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1100 x 640 pixels.
# datafile (written by `iostrat plot`): three blocks split by two blank lines
#   0  header "limit" mb_s lo hi, then    "write_new_buffered" 390 380 400
#   1  header "strategy" cpu_s_gb mb_s lo hi colour, then "uring" 1.2 350 340 360 5
#   2  "cores" N
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "limits.gp"
if (!exists("title")) title = "Strategies against the machine's limits"
width = 1100
height = 640

stats datafile index 2 using 2 nooutput
cores = STATS_max
stats datafile index 0 using 2 nooutput
nlim = STATS_records
ymin = STATS_min
ymax = STATS_max
stats datafile index 1 using 2 nooutput
xmin = STATS_min
xmax = STATS_max
stats datafile index 1 using 4 nooutput
ymin = (STATS_min < ymin ? STATS_min : ymin)
stats datafile index 1 using 5 nooutput
ymax = (STATS_max > ymax ? STATS_max : ymax)
xlo = xmin / 3
xhi = xmax * 3
set xrange [xlo : xhi]
set yrange [ymin / 2 : ymax * 2]

set logscale xy 10
set grid xtics ytics mxtics mytics lc rgb "#e4e4e4"
set xlabel "CPU seconds per GB (user + system + kernel threads; log scale)"
set ylabel "MB/s (log scale)"
set key below horizontal samplen 2
roof(x) = 1000 * cores / x
# the limits' labels above their lines, at five places across, so two
# close limits (the kernel copy and the buffered write) do not overprint
labelx(i) = xlo * (xhi / xlo) ** (0.02 + 0.19 * (int(i) % 5))

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set title title font ",12"
	plot datafile index 0 using (xlo):2:(xhi - xlo):(0) with vectors nohead lw 2 lc rgb "#555555" notitle, \
	     datafile index 0 using (xlo):3:(xhi - xlo):(0) with vectors nohead dt 3 lc rgb "#999999" notitle, \
	     datafile index 0 using (xlo):4:(xhi - xlo):(0) with vectors nohead dt 3 lc rgb "#999999" notitle, \
	     datafile index 0 using (labelx($0)):2:1 with labels left offset 0, 0.6 font ",9" notitle, \
	     roof(x) with lines dt 2 lw 2 lc rgb "#d62728" title sprintf("CPU roofline: 1000 x %g core%s / x", cores, cores == 1 ? "" : "s"), \
	     datafile index 1 using 2:3:4:5:6 with yerrorbars pt 7 ps 1.4 lw 1.5 lc variable notitle, \
	     datafile index 1 using 2:3:1 with labels left offset 0.8, 0 font ",10" notitle
	unset output
}
