#!/usr/bin/env bash
# report.html: `iostrat report DIR --format html` is one self-contained
# page (the verdict first, every figure inline, the tables, the profile and
# the machine context) that renders in a real headless browser (Debian's
# chromium) with every figure present and sized and no console message;
# `make run`'s script writes it and prints its path.
. "$(dirname "$0")/lib.sh"

FIXTURE=$(mktemp -d /tmp/iostrat-html.XXXXXX)
trap 'rm -rf "$FIXTURE"' EXIT
# A small real bench: the smoke profile at a tiny scale, two strategies,
# fio baselines beside them; figures drawn.
results() {
	if [ ! -s "$FIXTURE/r/results.jsonl" ]; then
		SCALE=0.002 "$IOSTRAT" bench "$TOP/profiles/smoke.ini" --out "$FIXTURE/r" \
			--data "$FIXTURE/data" -D reps=3 -D max_reps=3 -D cache=asis \
			-D strategy=stream,buffer -D threads=1 >/dev/null 2>&1 || die "bench failed"
		"$IOSTRAT" plot "$FIXTURE/r" >/dev/null 2>&1 || true
	fi
	mkdir -p "$1"
	cp -r "$FIXTURE/r/." "$1/"
}

# chromium_bin: sets $c to the browser, or skips (not in $(...): a skip
# there would lose its reason with the subshell's output)
chromium_bin() {
	for c in chromium chromium-browser google-chrome; do
		command -v "$c" >/dev/null 2>&1 && return
	done
	skip "no chromium (make check-deps installs Debian's chromium)"
}

html_is_self_contained_with_verdict_first_and_every_figure() {
	need_cmd gnuplot
	results "$T/r"
	"$IOSTRAT" report "$T/r" --format html -o "$T/r/report.html"
	local h=$T/r/report.html figs svgs
	[ -s "$h" ] || die "no report.html"
	head -c 15 "$h" | grep -q '<!DOCTYPE html>' || die "not an HTML page"
	# the verdict comes before the figures, the tables, the profile, env
	grep -o 'id="\(verdict\|figures\|tables\|config\|machine\)"' "$h" | tr '\n' ' ' |
		grep -q 'id="verdict" id="figures" id="tables" id="config" id="machine"' ||
		die "sections out of order: $(grep -o 'id="[a-z]*"' "$h" | tr '\n' ' ')"
	grep -q 'fastest\|undecided\|equal within' "$h" || die "no verdict sentence"
	figs=$(find "$T/r/plots" -maxdepth 1 -name '*.svg' | wc -l)
	svgs=$(grep -c '<svg' "$h")
	[ "$figs" -ge 3 ] || die "only $figs figures drawn"
	[ "$svgs" -eq "$figs" ] || die "$svgs inline SVGs for $figs figures"
	# nothing fetched from anywhere: no src=, no link, no script, no external href
	! grep -Eiq '<(link|script|img|iframe|object)|src=|@import|url\((http|//)' "$h" ||
		die "external asset: $(grep -Eio '<(link|script|img)[^>]*|src=[^ ]*' "$h" | head -1)"
	! grep -Eo "href=['\"][^'\"#][^'\"]*" "$h" | grep -v 'http://www.w3.org' | grep -q . ||
		die "href to outside the page: $(grep -Eo "href=['\"][^'\"#][^'\"]*" "$h" | head -1)"
	# figure ids prefixed per figure: no id defined twice
	[ -z "$(grep -Eo "id=['\"][^'\"]*" "$h" | sort | uniq -d)" ] || die "duplicate ids"
}

html_renders_in_chromium_with_every_figure_sized_and_no_console_message() {
	local c
	chromium_bin
	need_cmd gnuplot
	results "$T/r"
	"$IOSTRAT" report "$T/r" --format html -o "$T/page.html"
	# a copy with a probe at the end: how many figures have a size
	sed 's#</body>#<script>var s=document.querySelectorAll("figure svg"),n=0;s.forEach(function(e){var r=e.getBoundingClientRect();if(r.width>100\&\&r.height>100)n++;});document.body.setAttribute("data-figs",n+"/"+s.length);</script></body>#' \
		"$T/page.html" >"$T/probe.html"
	timeout 120 "$c" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/prof" --enable-logging=stderr --v=0 --dump-dom \
		"file://$T/probe.html" >"$T/dom" 2>"$T/log" || die "chromium failed: $(tail -n 2 "$T/log")"
	local got figs
	got=$(grep -o 'data-figs="[0-9]*/[0-9]*"' "$T/dom" | grep -o '[0-9]*/[0-9]*')
	figs=$(grep -c '<svg' "$T/page.html")
	[ "$got" = "$figs/$figs" ] || die "figures with a size: ${got:-none} (want $figs/$figs)"
	! grep -q 'CONSOLE' "$T/log" || die "console: $(grep CONSOLE "$T/log" | head -1)"
	timeout 120 "$c" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$T/prof" --window-size=1300,2400 --screenshot="$T/shot.png" \
		"file://$T/page.html" >/dev/null 2>&1 || die "chromium --screenshot failed"
	[ "$(stat -c %s "$T/shot.png")" -gt 20000 ] || die "screenshot too small: blank page?"
	[ -z "${KEEP_SHOT:-}" ] || cp "$T/shot.png" "$KEEP_SHOT"
}

html_of_a_directory_without_figures_draws_them_first() {
	need_cmd gnuplot
	results "$T/r"
	rm -rf "$T/r/plots"
	"$IOSTRAT" report "$T/r" --format html >"$T/out.html" 2>"$T/err"
	grep -q '<svg' "$T/out.html" || die "no figure in the page"
	[ -s "$T/r/plots/grid-big.svg" ] || die "figures not drawn into DIR/plots"
	! grep -q 'figures of' "$T/out.html" || die "plot's list went into the page"
}

html_to_a_bad_place_is_one_line_and_clobbers_nothing() {
	results "$T/r"
	echo keep >"$T/old.html"
	expect_fail 'nosuchdir' "$IOSTRAT" report "$T/r" --format html -o "$T/nosuchdir/x.html"
	expect_fail 'no result rows|results directory' "$IOSTRAT" report "$T/empty" --format html -o "$T/old.html"
	[ "$(cat "$T/old.html")" = keep ] || die "old.html clobbered"
	expect_fail '^iostrat: -o: missing value$' "$IOSTRAT" report "$T/r" --format html -o
	expect_fail 'needs a file name' "$IOSTRAT" report "$T/r" --format html -o ''
	expect_fail "bad value 'htm'" "$IOSTRAT" report "$T/r" --format htm
}

make_run_writes_report_html_and_prints_its_path() {
	need_cmd gnuplot
	local out path
	mkdir -p "$T/w"
	# the script's path, not a study: two strategies, one cell, traced
	# where it can be (the smoke profile here took 35-60 s of make check)
	printf '[global]\nscale=0.002\ncache=asis\nreps=3\nmax_reps=3\n[t]\nstrategy=stream,buffer\ndataset=big\nthreads=1\nwork=0\nfio=0\n' >"$T/p.ini"
	out=$(cd "$T/w" && PROFILE=$T/p.ini IOSTRAT_DATA=$T/data \
		IOSTRAT_PLOTS=$TOP/plots "$TOP/mk/run.sh" "$IOSTRAT" 2>&1) || die "run.sh failed: $(echo "$out" | tail -n 3)"
	path=$(echo "$out" | sed -n 's/^report: //p' | tail -n 1)
	[ -n "$path" ] || die "no 'report: PATH' line"
	[ -s "$T/w/$path" ] || die "$path: not written"
	echo "$out" | grep -q '^verdict' || die "the text report has no verdict"
	# the profile as written beside the one that ran, both folded, the written one first
	head -n 1 "$T/w/$(dirname "$path")/profile.given.ini" | grep -q "^; iostrat bench $T/p.ini" ||
		die "profile.given.ini: $(head -n 2 "$T/w/$(dirname "$path")/profile.given.ini")"
	grep -qx 'strategy=stream,buffer' "$T/w/$(dirname "$path")/profile.given.ini" || die "not as written"
	grep -o '<summary>[^<]*' "$T/w/$path" | tr '\n' '|' |
		grep -q '^<summary>the profile as written (profile.given.ini)|<summary>as run, one section' ||
		die "folded profiles: $(grep -o '<summary>[^<]*' "$T/w/$path")"
}

# One screen first: the headline tables open the verdict, before the
# reasons; the profile folded; captured_at a UTC date; no table in a scroll
# box, the 29-column verdict figures sideways; a grid of one thread count
# highlights no cell "fastest".
html_headline_first_profile_folded_human_date_no_scroll_box() {
	local fix=$TOP/tests/fixtures/results-schema1 h=$T/r/report.html
	mkdir -p "$T/r"
	cp "$fix"/* "$T/r/"
	"$IOSTRAT" report "$T/r" --format html -o "$h" 2>/dev/null ||
		die "report failed"
	grep -o '<h[23][^>]*>[^<]*' "$h" | head -4 | tr '\n' '|' |
		grep -q '^<h2 id="verdict">Verdict|<h3>headline: [^|]*|<h3>headline: [^|]*|<h3>Why' ||
		die "headline not first: $(grep -o '<h[23][^>]*>[^<]*' "$h" | head -4 | tr '\n' '|')"
	grep -q '<details><summary>as run, one section per configuration (profile.ini)</summary>' "$h" ||
		die "profile not folded"
	grep -Eq 'captured_at</th><td>20[0-9]{2}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC<' "$h" ||
		die "captured_at: $(grep -o 'captured_at</th><td>[^<]*' "$h")"
	! grep -q 'overflow-x:auto;max-width:100%}' "$h" || die "tables in a scroll box"
	grep -q '<table class="sideways">' "$h" || die "the wide verdict figures not sideways"
	! grep -q 'class="best"' "$h" || die "a one-row grid highlights a cell fastest"
}

# A header naming a row column, or a figure the report declares (median),
# carries its table's help and unit as its title; a grid's axis value
# (W=0) names no column and has none.
html_column_headers_carry_the_tables_help() {
	cp -r "$TOP/tests/fixtures/results-schema1" "$T/r"
	"$IOSTRAT" report "$T/r" --format html -o "$T/r/report.html" >/dev/null 2>&1 ||
		die "report --format html failed"
	grep -Fq "<th title=\"the configuration's identity (config_id_make)\">config_id</th>" \
		"$T/r/report.html" || die "config_id's header: $(grep -o '<th[^>]*>config_id<' "$T/r/report.html" | head -1)"
	# a figure the report derives is declared too (report_columns.c) ...
	grep -Fq '<th title="median of the metric (its unit is the metric'"'"'s)">median</th>' \
		"$T/r/report.html" || die "median's header: $(grep -o '<th[^>]*>median<' "$T/r/report.html" | head -1)"
	# ... a grid's axis values are not columns: no title
	grep -Fq '<th>W=0</th>' "$T/r/report.html" || die "W=0's header: $(grep -o '<th[^>]*>W=0<' "$T/r/report.html" | head -1)"
}

t html_column_headers_carry_the_tables_help
t html_is_self_contained_with_verdict_first_and_every_figure \
	html_is_self_contained_with_verdict_first_and_every_figure
t html_renders_in_chromium_with_every_figure_sized_and_no_console_message \
	html_renders_in_chromium_with_every_figure_sized_and_no_console_message
t html_of_a_directory_without_figures_draws_them_first \
	html_of_a_directory_without_figures_draws_them_first
t html_to_a_bad_place_is_one_line_and_clobbers_nothing \
	html_to_a_bad_place_is_one_line_and_clobbers_nothing
t make_run_writes_report_html_and_prints_its_path
t html_headline_first_profile_folded_human_date_no_scroll_box
