# Figure 1, the study grid: elapsed time against threads, one line per
# strategy (its colour from palette.gp), one panel per work level; the
# fastest cell of each panel is ringed and named in the panel's title.
#
#   gnuplot -e "datafile='grid-big.dat'; outbase='out/grid-big'[; title='...']" plots/grid.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 480 pixels.
# datafile (written by `iostrat plot`): one block per work level, blocks
# split by two blank lines, each opening with the header
#   "panel title" S1 C1 max S2 C2 max ... best best_pos
# (Cn: the colour index of strategy Sn, the same in every panel) then per
# thread count: threads, per strategy run at that work level the median,
# min and max elapsed seconds (NaN where not run), best (the panel's
# lowest median, on its row only, and only when the verdict decided that
# strategy the winner: NaN in every row of an undecided panel, which then
# has no ring) and best_pos (which strategy of the panel it is, 1-based,
# NaN elsewhere).
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "grid.gp"
if (!exists("title")) title = "Elapsed time vs threads (median, bars min..max)"
width = 1200
height = 480

stats datafile using 1 nooutput
panels = STATS_blocks
array ptitle[panels]
array nstr[panels]
array col[panels * 32]
array ring[panels]
do for [i = 0:panels-1] {
	h = ""
	stats datafile index i every ::0::0 using (h = strcol(1), 0) nooutput
	ptitle[i+1] = h
	nstr[i+1] = (STATS_columns - 3) / 3
	# a ring only where iostrat plot wrote one (a winner the verdict
	# decided): none, and the ring's plot is left out, not drawn empty
	r = 0
	stats datafile index i every ::1 using (r = r + (strcol(3*nstr[i+1]+2) eq "NaN" ? 0 : 1), 0) nooutput
	ring[i+1] = r
	do for [s = 1:nstr[i+1]] {
		stats datafile index i every ::0::0 using (h = strcol(3*s), 0) nooutput
		col[i*32 + s] = h + 0
	}
}

set grid ytics lc rgb "#dddddd"
set xlabel "threads"
set ylabel "elapsed time (s)"
set xtics 1
set autoscale xfix
set offsets 0.3, 0.3, graph 0.06, 0
set yrange [0:*]
set key below horizontal samplen 2 font ",9"
set bmargin 6

lines_cmd = 'plot for [s = 1:ns] datafile index i using ($1 + (s - (ns + 1) / 2.0) * 0.05):(column(3*s-1)):(column(3*s)):(column(3*s+1)) with yerrorlines lw 2 pt 7 ps 0.8 lc col[i*32 + s] title columnheader(3*s-1)'
ring_cmd = ', datafile index i using ($1 + (column(3*ns+3) - (ns + 1) / 2.0) * 0.05):(column(3*ns+2)) with points pt fastest_pt ps fastest_ps lw fastest_lw lc rgb "black" title fastest_title'

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set multiplot layout 1, panels title title font ",12"
	do for [i = 0:panels-1] {
		set title ptitle[i+1] font ",10"
		ns = nstr[i+1]
		# strategies side by side around each thread count, so bars never hide;
		# the ring's plot only in a panel that has one (eval: a macro in a
		# do block is expanded once, before the loop runs)
		eval lines_cmd . (ring[i+1] > 0 ? ring_cmd : "")
	}
	unset multiplot
	unset output
}

set datafile missing "NaN"