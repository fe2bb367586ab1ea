# Figure 7b, buffered network streams over TCP loopback (`iostrat net`):
# left, messages per second per mode (log scale); right, system calls the
# client made per message.  One bar per message size.  Buffering pays when
# it cuts the calls per message (one-way modes); ping-pong waits for each
# reply, so buffering barely helps there.
#
#   gnuplot -e "datafile='net.dat'; outbase='out/net'[; title='...']" plots/net.gp
#
# writes outbase.png (pngcairo) and outbase.svg, 1200 x 560 pixels.
# datafile (written by `iostrat plot`): one or two blocks split by two
# blank lines (0: msgs_s, 1: syscalls_per_msg), each a header
#   "cluster" S1 C1 max S2 C2 max ...   (Sn: message size, Cn: colour index)
# and one line per mode with per size the median, min and max.
call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "net.gp"
if (!exists("title")) title = "TCP loopback: messages per second by mode"
width = 1200
height = 560

stats datafile using 2 nooutput
npan = STATS_blocks
array nclu[npan]
array nser[npan]
array col[npan * 32]
array ylo[npan]
do for [i = 0:npan-1] {
	stats datafile index i using 2 nooutput
	nclu[i+1] = STATS_records
	h = ""
	stats datafile index i every ::0::0 using (h = strcol(1), 0) nooutput
	nser[i+1] = (STATS_columns - 1) / 3
	do for [s = 1:nser[i+1]] {
		stats datafile index i every ::0::0 using (h = strcol(3*s), 0) nooutput
		col[i*32 + s] = h + 0
	}
	# a log axis starts below the smallest bar, so every bar shows
	ylo[i+1] = 1e300
	do for [s = 1:nser[i+1]] {
		stats datafile index i using (column(3*s)) nooutput
		ylo[i+1] = STATS_min < ylo[i+1] ? STATS_min : ylo[i+1]
	}
}
xpos(s) = $0 + (s - (ns + 1) / 2.0) * bw

set key autotitle columnheader
set style fill solid 0.75 border lc rgb "#333333"
set grid ytics lc rgb "#dddddd"
set logscale y 10
set format y "%g"
set xtics nomirror rotate by 30 right
set xlabel "mode"
set key below horizontal samplen 2
set bmargin 9

do for [fmt in fig_formats] {
	eval fig_output(fmt)
	set multiplot layout 1, npan title title font ",12"
	do for [i = 0:npan-1] {
		set xrange [-0.6 : nclu[i+1] - 0.4]
		ns = nser[i+1]
		bw = 0.8 / ns
		set boxwidth bw
		set yrange [ylo[i+1] / 4 : *]
		if (i == 0) {
			set title "throughput" font ",10"
			set ylabel "messages per second (log scale)"
		} else {
			set title "client system calls per message" font ",10"
			set ylabel "system calls per message (log scale)"
		}
		plot datafile index i using 0:(1):xtic(1) with points pt 7 ps 0 lc rgb "#ff000000" notitle, \
		     for [s = 1:ns] datafile index i using (xpos(s)):(column(3*s-1)) with boxes lc col[i*32 + s] title columnheader(3*s-1), \
		     for [s = 1:ns] datafile index i using (xpos(s)):(column(3*s-1)):(column(3*s)):(column(3*s+1)) with yerrorbars pt 7 ps 0.3 lc rgb "black" notitle
	}
	unset multiplot
	unset output
}

set datafile missing "NaN"