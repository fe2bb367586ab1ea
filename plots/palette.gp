# Loaded by every figure script: one colour per strategy, the same in every
# figure, from Okabe & Ito's colour-blind-safe palette.  Linetype N is the
# strategy at place N of the registry (`iostrat list`: 1 stream, 2 buffer,
# 3 direct, 4 mmap, 5 uring, 6 null; src/plot/colour.c); 7 and 8 for series
# that are not strategies.  The fastest cell is marked the same way in
# every figure: a black ring (point type 6, size 3), titled "fastest".
set linetype 1 lc rgb "#0072B2" lw 1 pt 7
set linetype 2 lc rgb "#E69F00" lw 1 pt 7
set linetype 3 lc rgb "#009E73" lw 1 pt 7
set linetype 4 lc rgb "#CC79A7" lw 1 pt 7
set linetype 5 lc rgb "#D55E00" lw 1 pt 7
set linetype 6 lc rgb "#56B4E9" lw 1 pt 7
set linetype 7 lc rgb "#F0E442" lw 1 pt 7
set linetype 8 lc rgb "#000000" lw 1 pt 7
set linetype cycle 8
fastest_pt = 6
fastest_ps = 3
fastest_lw = 2
fastest_title = "fastest"
