#!/usr/bin/env bash
# lab/lab on bad input: one line naming the thing and the reason, non-zero
# exit, before any image is built or guest booted (make check-lab boots them).
. "$(dirname "$0")/lib.sh"
not_c_under_sanitizers "lab/lab is shell: no C run"
LAB=$TOP/lab/lab

lab_fails() { # REGEX ARGS...: lab ARGS fails with REGEX, and nothing was built
	export IOSTRAT_LAB_DIR=$T/labdir # never the real lab
	expect_fail "$@"
	[ ! -e "$IOSTRAT_LAB_DIR/images" ] || die "an image build started: $*"
}
unknown_kernel() { lab_fails 'lab: run: --kernel 9.99: not a lab kernel' "$LAB" run -k 9.99 -- true; }
no_command() { lab_fails 'lab: run: no command given' "$LAB" run -k 6.1; }
bad_timeout() {
	lab_fails "lab: run: --timeout: bad value 'x'" "$LAB" run -t x -- true
	lab_fails "lab: run: --timeout: bad value '0'" "$LAB" run -t 0 -- true
}
bad_forward() { lab_fails "lab: run: --forward: bad value '8080'" "$LAB" run --forward 8080 -- true; }
missing_file() { lab_fails "lab: run: --file $T/nope: No such file" "$LAB" run -f "$T/nope" -- true; }
missing_value() { lab_fails 'lab: run: --kernel: needs a value' "$LAB" run --kernel; }
unknown_option() { lab_fails 'lab: run: --frob: unknown option' "$LAB" run --frob -- true; }
unknown_command() { lab_fails 'lab: frob: unknown command' "$LAB" frob; }
help_lists_commands() {
	"$LAB" --help | grep -q '^  lab run \[OPTIONS\] -- CMD' || die "no run in --help"
	rc=0; "$LAB" >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || die "no command: exit $rc, expected 2"
}
kernels_conf_names_three() {
	local n
	n=$(awk '!/^#/ && NF >= 2' "$TOP/lab/kernels.conf" | wc -l)
	[ "$n" -ge 3 ] || die "$n kernels in lab/kernels.conf"
}
# kernels.conf's lines as the image builder reads them: NAME SOURCE and
# the optional BUILDER suite, comments and short lines left out
kernel_lines_carry_the_builder() {
	printf '# c\n6.1 bookworm\n7.3   trixie-backports   trixie\nodd\n' >"$T/kernels.conf"
	local got
	got=$(IOSTRAT_LAB_KERNELS_FILE=$T/kernels.conf bash -c '. "$1/lab/lib.sh"; lab_kernel_lines' _ "$TOP" | paste -sd'|')
	[ "$got" = "6.1 bookworm |7.3 trixie-backports trixie" ] || die "lab_kernel_lines: '$got'"
}

t lab_run_names_an_unknown_kernel unknown_kernel
t lab_run_without_a_command_is_refused no_command
t lab_run_rejects_a_bad_timeout bad_timeout
t lab_run_rejects_a_bad_forward bad_forward
t lab_run_names_a_missing_file missing_file
t lab_run_names_an_option_without_its_value missing_value
t lab_run_names_an_unknown_option unknown_option
t lab_names_an_unknown_command unknown_command
t lab_help_lists_its_commands help_lists_commands
t lab_has_the_three_debian_kernels kernels_conf_names_three
t lab_kernel_lines_carry_the_builder_suite kernel_lines_carry_the_builder
