# Called first by every figure script, with the script's own name:
#   call (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/figure.gp" "NAME.gp"
# What every figure shares: the usage check, the strategies' colours
# (palette.gp), "NaN" as a missing value, and its two images: a script
# sets width and height, then draws each format of fig_formats after
#   eval fig_output(fmt)
# (the terminal, text as written with no enhanced markup, and the output
# file outbase.FMT), ending with `unset output`.
if (!exists("datafile") || !exists("outbase")) {
	print "usage: gnuplot -e \"datafile='F.dat'; outbase='OUT'\" ".ARG1
	exit status 2
}
load (exists("scriptdir") ? scriptdir : system("dirname '".ARG0."'")) . "/palette.gp"
fig_formats = "png svg"
fig_output(fmt) = (fmt eq "png" ? \
	"set terminal pngcairo noenhanced size width, height font 'DejaVu Sans,10'" : \
	"set terminal svg noenhanced size width, height font 'DejaVu Sans,10' background 'white'") . \
	"; set output outbase . '.' . fmt"
# An axis of rounds 1..n: a tic a round while 20 fit, else gnuplot's own
# step (49 tics of one each print as one run of digits):
#   eval round_tics(n)
round_tics(n) = (n <= 20 ? "set xtics 1" : "set xtics autofreq")
