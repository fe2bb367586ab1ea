# Figure 7a, the sweeps (`iostrat sweep blocksize | bufsize | api`): elapsed
# time (solid lines, left axis) and CPU time (user + system, dashed lines,
# right axis) against the block or buffer size, one colour per variant, one
# panel per operation.  Where the solid line flattens while the dashed one
# still falls, a bigger buffer only saves CPU.
#
#   gnuplot -e "datafile='sweep-bufsize.dat'; outbase='out/sweep-bufsize'[; title='...']" plots/sweep.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 500 pixels.
# datafile (written by `iostrat plot`): one block per operation (blocks
# split by two blank lines), header
#   "operation" V1 C1 max "V1 CPU" min max V2 ...   (Cn: colour index of Vn)
# then one line per size: bytes, and per variant the median, min and max
# elapsed seconds, then the median, min and max CPU seconds.
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "sweep.gp"
if (!exists("title")) title = "Sweep: elapsed and CPU time against size"
width = 1200
height = 500

stats datafile using 1 nooutput
npan = STATS_blocks
array ptitle[npan]
array nvar[npan]
array col[npan * 32]
do for [i = 0:npan-1] {
	h = ""
	stats datafile index i every ::0::0 using (h = strcol(1), 0) nooutput
	ptitle[i+1] = h
	nvar[i+1] = (STATS_columns - 1) / 6
	do for [s = 1:nvar[i+1]] {
		stats datafile index i every ::0::0 using (h = strcol(6*s-3), 0) nooutput
		col[i*32 + s] = h + 0
	}
}

set key autotitle columnheader
set grid xtics ytics lc rgb "#dddddd"
set logscale x 2
set logscale y 10
set logscale y2 10
set format x "%.0b%B"
set format y "%g"
set format y2 "%g"
set xlabel "block / buffer size (bytes, log scale)"
set ylabel "elapsed time (s, solid)"
set y2label "CPU time, user + system (s, dashed)"
set ytics nomirror
set y2tics
set key below horizontal samplen 3 font ",9" maxcols 3
set bmargin 9

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set multiplot layout 1, npan title title font ",12"
	do for [i = 0:npan-1] {
		set title ptitle[i+1] font ",10"
		nv = nvar[i+1]
		plot for [s = 1:nv] datafile index i using 1:(column(6*s-4)):(column(6*s-3)):(column(6*s-2)) \
			with yerrorlines lw 2 pt 7 ps 0.6 lc col[i*32 + s] title columnheader(6*s-4), \
		     for [s = 1:nv] datafile index i using 1:(column(6*s-1)) axes x1y2 \
			with linespoints dt 2 lw 1.5 pt 6 ps 0.6 lc col[i*32 + s] title columnheader(6*s-1)
	}
	unset multiplot
	unset output
}

set datafile missing "NaN"