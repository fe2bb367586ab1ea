#!/usr/bin/env bash
# lab/stages.sh on a fixture repository: which lab stages a change runs in CI,
# and when a recorded proof stands (docs/lab.md, "What CI runs").
. "$(dirname "$0")/lib.sh"
not_c_under_sanitizers "lab/stages.sh is shell: no C run"
STAGES=$TOP/lab/stages.sh

# fixture: a git repository in $T/repo with two kernels, a guest stage on
# src/core and a fresh-root stage on the README's commands, committed
fixture() {
	local r=$T/repo
	mkdir -p "$r/lab" "$r/src/core" "$r/src/report" "$r/mk"
	cat >"$r/lab/stages.conf" <<-'EOF'
	# fixture
	common      lab/check.sh mk
	guest-@K    @common lab/kernels.conf@line=@K src/core
	fresh-root  @common README.md@code
	EOF
	printf '# k\n5.10 bullseye\n7.3 trixie-backports trixie\n' >"$r/lab/kernels.conf"
	echo 'echo check' >"$r/lab/check.sh"
	echo 'all:' >"$r/mk/a.mk"
	echo 'int strat;' >"$r/src/core/a.c"
	echo 'int report;' >"$r/src/report/r.c"
	printf '# iostrat\nprose\n```sh\nmake run\n```\nmore prose\n' >"$r/README.md"
	git -C "$r" init -q
	git -C "$r" add -A
	git -C "$r" -c user.name=t -c user.email=t@t commit -qm one
	export IOSTRAT_STAGES_TOP=$r
}
commit() { git -C "$T/repo" add -A && git -C "$T/repo" -c user.name=t -c user.email=t@t commit -qm "$1"; }
# plan_of STAGE: run or skip
plan_of() { "$STAGES" plan "$1" | cut -f1; }
# proven: every stage recorded as passed at HEAD, the record committed
proven() {
	local s
	for s in $("$STAGES" list); do "$STAGES" record "$s" 60 >/dev/null; done
	commit proof
}
# proven_then_appended FILE LINE: the fixture proven, then LINE added to
# FILE (of the fixture's repository) and committed
proven_then_appended() {
	fixture; proven
	echo "$2" >>"$T/repo/$1"; commit "$1"
}

# Every stage of the plan is to $1 (run or skip).
every_stage_planned() {
	[ "$("$STAGES" plan | cut -f1 | sort -u)" = "$1" ] || die "not every stage $1: $("$STAGES" plan)"
}

lists_a_guest_stage_per_kernel() {
	fixture
	[ "$("$STAGES" list | paste -sd' ')" = "guest-5.10 guest-7.3 fresh-root" ] ||
		die "stages: $("$STAGES" list | paste -sd' ')"
}
no_proof_runs_every_stage() {
	fixture
	every_stage_planned run
	"$STAGES" plan guest-7.3 | grep -q 'no proof recorded' || die "no reason given"
}
proven_stages_are_skipped() {
	fixture; proven
	every_stage_planned skip
	"$STAGES" plan fresh-root | grep -q "proof of $(git -C "$T/repo" rev-parse --short=12 HEAD~1)" ||
		die "the standing proof not named: $("$STAGES" plan fresh-root)"
}
change_under_a_stage_runs_it() {
	proven_then_appended src/core/a.c 'int strat2;'
	[ "$(plan_of guest-5.10)" = run ] && [ "$(plan_of guest-7.3)" = run ] || die "$("$STAGES" plan)"
	"$STAGES" plan guest-7.3 | grep -q 'src/core/a.c' || die "the changed path not named: $("$STAGES" plan guest-7.3)"
	[ "$(plan_of fresh-root)" = skip ] || die "fresh-root ran on a change to src/core"
}
change_elsewhere_runs_none() {
	proven_then_appended src/report/r.c 'int report2;'
	every_stage_planned skip
}
uncommitted_change_runs_it_too() {
	fixture; proven
	echo 'x' >"$T/repo/src/core/new.c" # untracked, not ignored
	[ "$(plan_of guest-7.3)" = run ] || die "an untracked file under src/core ran nothing"
}
common_paths_run_every_stage() {
	proven_then_appended mk/a.mk 'more:'
	every_stage_planned run
}
readme_prose_runs_nothing_its_commands_do() {
	fixture; proven
	sed -i 's/^more prose/other prose/' "$T/repo/README.md"; commit prose
	[ "$(plan_of fresh-root)" = skip ] || die "prose ran fresh-root"
	sed -i 's/^make run$/make run SCALE=1/' "$T/repo/README.md"; commit cmd
	[ "$(plan_of fresh-root)" = run ] || die "a changed command did not run fresh-root"
}
one_kernels_line_runs_its_guest_only() {
	fixture; proven
	sed -i 's/^7.3 .*/7.3 sid/' "$T/repo/lab/kernels.conf"; commit k
	[ "$(plan_of guest-7.3)" = run ] && [ "$(plan_of guest-5.10)" = skip ] || die "$("$STAGES" plan)"
}
stale_record_runs_the_stage() {
	fixture; proven
	local old
	old=$(cat "$T/repo/lab/proof.tsv")
	echo 'int strat2;' >>"$T/repo/src/core/a.c"; commit strat
	proven # new proofs, then the old lines back
	echo "$old" >"$T/repo/lab/proof.tsv"; commit stale
	[ "$(plan_of guest-7.3)" = run ] || die "a stale record stood"
}
hand_edited_record_runs_the_stage() {
	proven_then_appended src/core/a.c 'int strat2;'
	# today's hash written into the old line, by hand
	local now
	now=$("$STAGES" hash guest-7.3)
	awk -F'\t' -v OFS='\t' -v h="$now" '$1 == "guest-7.3" { $2 = h } 1' "$T/repo/lab/proof.tsv" >"$T/p"
	cp "$T/p" "$T/repo/lab/proof.tsv"; commit forged
	"$STAGES" plan guest-7.3 | grep -q 'does not hold' || die "a hand-edited record stood: $("$STAGES" plan guest-7.3)"
	# a commit that is not in the history
	awk -F'\t' -v OFS='\t' '$1 == "guest-5.10" { $3 = "0123456789ab" } 1' "$T/repo/lab/proof.tsv" >"$T/p"
	cp "$T/p" "$T/repo/lab/proof.tsv"
	"$STAGES" plan guest-5.10 | grep -q 'not in this history' || die "an unknown commit stood: $("$STAGES" plan guest-5.10)"
}
edited_stage_line_runs_the_stage() {
	fixture; proven
	sed -i 's|^fresh-root .*|fresh-root  @common README.md@code src/report|' "$T/repo/lab/stages.conf"; commit conf
	[ "$(plan_of fresh-root)" = run ] || die "a stage given a new path kept its proof"
}
uncommitted_content_records_no_proof() {
	fixture
	echo 'int strat2;' >>"$T/repo/src/core/a.c"
	"$STAGES" record guest-7.3 10 | grep -q 'no proof recorded: not committed: src/core/a.c' ||
		die "recorded uncommitted content"
	[ ! -e "$T/repo/lab/proof.tsv" ] || die "proof.tsv written"
}
content_changed_during_the_run_records_no_proof() {
	fixture
	local h
	h=$("$STAGES" hash guest-7.3)
	echo 'int strat2;' >>"$T/repo/src/core/a.c"; commit strat
	"$STAGES" record guest-7.3 10 "$h" | grep -q 'no proof recorded: its paths changed while it ran' ||
		die "recorded content it did not run on"
	[ ! -e "$T/repo/lab/proof.tsv" ] || die "proof.tsv written"
}
record_replaces_its_own_line_only() {
	fixture; proven
	"$STAGES" record guest-7.3 99 >/dev/null
	[ "$(wc -l <"$T/repo/lab/proof.tsv")" -eq 3 ] || die "$(cat "$T/repo/lab/proof.tsv")"
	[ "$(awk -F'\t' '$1 == "guest-7.3" { print $5 }' "$T/repo/lab/proof.tsv")" = 99 ] || die "not replaced"
}
unknown_stage_is_refused() {
	fixture
	expect_fail 'lab/stages.sh: guest-9.9: no such stage' "$STAGES" record guest-9.9 1
}
# the repository's own table: every path it names is in the checkout
every_stage_path_exists() {
	local s p f
	unset IOSTRAT_STAGES_TOP
	for s in $("$STAGES" list); do
		while read -r p; do
			f=${p%%@*}
			[ -n "$(git -C "$TOP" ls-files -- "$f")" ] || [ -e "$TOP/$f" ] || die "$s: $p: nothing there"
		done < <("$STAGES" paths "$s")
	done
}

t lists_a_guest_stage_per_kernel
t no_proof_runs_every_stage
t proven_stages_are_skipped
t change_under_a_stage_runs_it
t change_elsewhere_runs_none
t uncommitted_change_runs_it_too
t common_paths_run_every_stage
t readme_prose_runs_nothing_its_commands_do
t one_kernels_line_runs_its_guest_only
t stale_record_runs_the_stage
t hand_edited_record_runs_the_stage
t edited_stage_line_runs_the_stage
t uncommitted_content_records_no_proof
t content_changed_during_the_run_records_no_proof
t record_replaces_its_own_line_only
t unknown_stage_is_refused
t every_stage_path_exists
