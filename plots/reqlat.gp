# The request-latency figure (the reqlat probe's q_hist and d_hist of traced
# runs): left, the time block requests waited in the I/O scheduler's queue
# (insert to issue; 0 = issued without a queue); right, their time on the
# device (issue to completion); per strategy a line, the share of its
# requests (pooled over its traced runs) per log2 slot of microseconds
# ("4" = 4 up to 8 us).
#
#   gnuplot -e "datafile='reqlat.dat'; outbase='out/reqlat'[; title='...']" plots/reqlat.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 450 pixels.
# datafile (written by `iostrat plot`, src/plot/fig_reqlat.c): two blocks
# split by two blank lines (queue, device), each a header "slot" S1 C1 S2 C2
# ... and a line per slot: its label, then per strategy its share in % and
# its colour (linetype of palette.gp).
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "reqlat.gp"
if (!exists("title")) title = "Block requests: time in the queue and on the device"
width = 1200
height = 450

array nser[2]
do for [i = 0:1] {
	stats datafile index i every ::1 using 2 nooutput
	nser[i+1] = (STATS_columns - 1) / 2
}
panel_name(i) = i == 0 ? "queue: insert to issue (us, log2 slots)" : "device: issue to completion (us, log2 slots)"

set grid ytics lc rgb "#dddddd"
set yrange [0:*]
set ylabel "share of the strategy's requests (%)"
set xtics nomirror rotate by -45
set key top right samplen 2

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set multiplot layout 1, 2 title title font ",12"
	do for [i = 0:1] {
		ns = nser[i+1]
		set xlabel panel_name(i)
		plot for [s = 1:ns] datafile index i using 0:(column(2*s)):(column(2*s+1)):xtic(1) \
			with linespoints lw 2 pt 7 ps 0.8 lc variable title columnheader(2*s)
	}
	unset multiplot
	unset output
}
