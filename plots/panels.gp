# Loaded by the figures whose data file has one block per cell and
# strategy (rounds.gp, iotime.gp), each block opening with the header
#   "CELL" "STRATEGY" COLOUR
# and a cell's blocks together (after figure.gp): per block b
# (1-based) bcell[b], bstrat[b], bcolour[b]; per panel p (a cell, in
# order) pname[p] and its blocks pfirst[p]..plast[p]; panels.
stats datafile using 0 nooutput
blocks = STATS_blocks
array bcell[blocks]
array bstrat[blocks]
array bcolour[blocks]
do for [i = 0:blocks-1] {
	stats datafile index i every ::0::0 using (h = strcol(1), s = strcol(2), k = $3, 0) nooutput
	bcell[i+1] = h
	bstrat[i+1] = s
	bcolour[i+1] = int(k)
}
array pname[blocks]
array pfirst[blocks]
array plast[blocks]
panels = 0
do for [b = 1:blocks] {
	if (panels == 0 || bcell[b] ne pname[panels]) {
		panels = panels + 1
		pname[panels] = bcell[b]
		pfirst[panels] = b
	}
	plast[panels] = b
}

set grid ytics lc rgb "#dddddd"
set key top right font ",7"
