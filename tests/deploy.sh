#!/usr/bin/env bash
# The fleet playbook (deploy/, docs/fleet.md), run for real where no VM is
# needed: two "hosts" that are this machine through Ansible's local
# connection (each its own data directory, iostrat from this build, no
# package installed, nothing outside $T written), and a third that does
# not answer.  The queued run, the reboots and the power cut need real
# boots: the lab (make check-lab) has them.
. "$(dirname "$0")/lib.sh"
# what the playbook runs of iostrat (bench, --resume, the queue) has its own
# sanitizer run in bench.sh and queue.sh
not_c_under_sanitizers "the playbook is not C: bench and queue run under the sanitizers in bench.sh and queue.sh"

need_ansible() { need_cmd ansible-playbook; }

# inventory: box-a and box-b local, box-down an ssh port nothing listens on
# The hosts' python is the one Ansible runs on (Debian's): a pyenv shim
# first in PATH costs 0.3 s a module, a quarter of this file's time.
inventory() {
	local dead py=/usr/bin/python3
	[ -x "$py" ] || py=$(command -v python3)
	dead=$(free_port) || die "no free port"
	cat >"$T/inv.ini" <<-EOF
	[iostrat_fleet]
	box-a ansible_connection=local iostrat_dir=$T/hosts/a
	box-b ansible_connection=local iostrat_dir=$T/hosts/b
	${1:+box-down ansible_host=127.0.0.1 ansible_port=$dead ansible_ssh_common_args='-o ConnectTimeout=3 -o StrictHostKeyChecking=no'}
	# the study's settings as the group's, in the inventory: they must win
	# over the playbook's defaults (not -e, which wins over everything)
	[iostrat_fleet:vars]
	ansible_become=false
	ansible_python_interpreter=$py
	iostrat_profile=$T/p.ini
	iostrat_fleet_dir=$T/fleet
	iostrat_run=study
	EOF
	printf '[global]\ndataset=big\nscale=0.0005\nreps=3\ncache=asis\n[t]\nstrategy=stream,buffer\nthreads=1\nwork=0\n' >"$T/p.ini"
}

# A direct run's job is checked every second, not every 10 (the study takes
# one): each of the six playbook runs here waited 9 s for nothing.
# shellcheck disable=SC2120 # arguments come through bash -c (playbook_queued_run_waits_for_the_queue)
playbook() {
	PATH=$(dirname "$IOSTRAT"):$PATH ANSIBLE_CONFIG=$TOP/deploy/ansible.cfg \
	ANSIBLE_LOCAL_TEMP=$T/ansible-tmp ANSIBLE_REMOTE_TEMP=$T/ansible-tmp \
	HOME=$T \
		ansible-playbook -i "$T/inv.ini" "$TOP/deploy/site.yml" -e iostrat_deb= \
		-e ansible_async_dir="$T/ansible-async" -e iostrat_direct_poll=1 "$@"
}

playbook_direct_run_fetches_each_hosts_results() {
	need_ansible
	inventory
	playbook >"$T/log" 2>&1 || die "playbook failed: $(tail -20 "$T/log")"
	for h in box-a box-b; do
		[ "$(grep -c '"kind": *"run"' "$T/fleet/study/$h/results.jsonl")" -eq 6 ] ||
			die "$h: not 6 rows: $(ls "$T/fleet/study/$h")"
		[ -s "$T/fleet/study/$h/env.json" ] || die "$h: no env.json"
	done
	grep -q "results of box-a, box-b in $T/fleet/study/\." "$T/log" || die "summary: $(grep -A3 'Name the hosts' "$T/log")"
	# one archive a host, unpacked and removed here: nothing else beside them
	[ "$(names_in "$T/fleet/study" | xargs)" = "box-a box-b" ] || die "left in fleet/study: $(ls -A "$T/fleet/study")"
	"$IOSTRAT" compare "$T/fleet/study/box-a" "$T/fleet/study/box-b" >/dev/null || die "compare failed"
	# a rerun resumes: nothing measured again
	playbook >"$T/log2" 2>&1 || die "rerun failed: $(tail -20 "$T/log2")"
	[ "$(grep -c '"kind": *"run"' "$T/fleet/study/box-a/results.jsonl")" -eq 6 ] ||
		die "the rerun measured again: $(grep -c . "$T/fleet/study/box-a/results.jsonl") rows"
}

playbook_reports_unreachable_host_keeps_others() {
	need_ansible
	inventory down
	local rc=0
	playbook >"$T/log" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || die "an unreachable host went unreported (exit 0)"
	grep -Eq 'box-down +: .*unreachable=1' "$T/log" || die "recap: $(grep -A5 RECAP "$T/log")"
	grep -q "results of box-a, box-b in $T/fleet/study/; NO RESULTS from box-down (unreachable" "$T/log" &&
		grep -q "fleet study: box-down UNREACHABLE" "$T/log" ||
		die "summary: $(grep -A4 'Name the hosts' "$T/log")"
	for h in box-a box-b; do
		[ -s "$T/fleet/study/$h/results.jsonl" ] || die "$h's results lost"
	done
	[ ! -e "$T/fleet/study/box-down" ] || die "a directory for the host that never answered"
}

# A run that fails is told at the end with its exit status and last line,
# what it wrote is still fetched, and the other host's results are kept;
# with every host failing the summary still comes (a failed host is
# rescued, not dropped: Ansible would end the playbook with no host left).
playbook_tells_a_failed_run_at_the_end() {
	need_ansible
	inventory
	sed -i 's|^box-b .*|& iostrat_bench_args=--no-such-option|' "$T/inv.ini"
	local rc=0
	playbook >"$T/log" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || die "a failed run went unreported (exit 0)"
	grep -q "fleet study: box-b FAILED -- box-b: fleet-study: run-study.sh exited 2: .*no-such-option" "$T/log" ||
		die "no failure line: $(grep -A3 'Fail for every host' "$T/log")"
	[ "$(grep -c '"kind": *"run"' "$T/fleet/study/box-a/results.jsonl")" -eq 6 ] || die "box-a's results lost"
	# every host failing: still summed up
	sed -i 's|^box-a .*|& iostrat_bench_args=--no-such-option|' "$T/inv.ini"
	rm -rf "$T/hosts/a/results"
	rc=0
	playbook >"$T/log2" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || die "two failed runs went unreported (exit 0)"
	grep -q "fleet study: box-a FAILED, box-b FAILED -- " "$T/log2" ||
		die "no summary with every host failed: $(tail -5 "$T/log2")"
}

# A queued run, the boots played by this test: the playbook queues the run
# (iostrat_queue_boot=false: no unit enabled, no reboot), this test runs
# `iostrat queue run-next` as the unit would at the next boot -- first an
# attempt cut off half way (SIGKILL, as a power cut leaves it), then the
# retry -- and the playbook, polling `iostrat queue status` and the
# history, sees it done and fetches results and the queue's log.
playbook_queued_run_waits_for_the_queue() {
	need_ansible
	inventory
	sed -i '/^box-b /d' "$T/inv.ini"
	# 10 MB at W=1000: seconds for the six repetitions, so the 1 s watchdog
	# cuts the first attempt
	sed -i 's/^work=0/work=1000/; s/^scale=0.0005/scale=0.005/' "$T/p.ini"
	local q=$T/hosts/a/q rc=0
	timeout 400 env PATH="$PATH" bash -c "$(declare -f playbook); T=$T IOSTRAT=$IOSTRAT TOP=$TOP playbook \
		-e iostrat_reboot_between_runs=true -e iostrat_queue_boot=false -e iostrat_queue_dir=$q \
		-e iostrat_poll_delay=1 -e iostrat_wait_timeout=300" >"$T/log" 2>&1 &
	PLAYBOOK_PID=$!
	trap 'kill "$PLAYBOOK_PID" 2>/dev/null || true' EXIT
	for _ in $(seq 600); do
		"$IOSTRAT" queue --state-dir "$q" list 2>/dev/null | grep -q ' fleet-study ' && break
		kill -0 "$PLAYBOOK_PID" 2>/dev/null || break
		sleep 0.2
	done
	"$IOSTRAT" queue --state-dir "$q" list 2>/dev/null | grep -q ' fleet-study ' ||
		die "the run was not queued: $(tail -5 "$T/log")"
	# the first boot: the attempt cut off by the watchdog after 1 s
	PATH=$(dirname "$IOSTRAT"):$PATH "$IOSTRAT" queue --state-dir "$q" run-next --settle 0 --timeout 1 --reboot-cmd true >/dev/null 2>&1 || true
	grep -q '"outcome": *"timeout"' "$q/history.jsonl" || die "the first attempt was not cut: $(cat "$q/history.jsonl")"
	# the next boot: the retry resumes what the cut left
	PATH=$(dirname "$IOSTRAT"):$PATH "$IOSTRAT" queue --state-dir "$q" run-next --settle 0 --reboot-cmd true >/dev/null 2>&1 || true
	wait "$PLAYBOOK_PID" || rc=$?
	[ "$rc" -eq 0 ] || die "playbook failed ($rc): $(grep -E 'fatal|FAILED' "$T/log" | tail -3)"
	# resumed: nothing measured twice
	jq -se '[.[] | select(.kind == "run") | [.config_id, .rep]] | length == 6 and (unique | length) == 6' \
		"$T/fleet/study/box-a/results.jsonl" >/dev/null || die "rows: $(cat "$T/fleet/study/box-a/results.jsonl")"
	grep -q '"outcome": *"done"' "$T/fleet/study/box-a/queue/history.jsonl" ||
		die "no done outcome fetched: $(cat "$T/fleet/study/box-a/queue/history.jsonl")"
	grep -q 'fleet-study' "$T/fleet/study/box-a/queue/results.log" || die "queue log not fetched"
	grep -q "Read the queue's status" "$T/log" || die "the queue's status was not polled"
}

t playbook_direct_run_fetches_each_hosts_results
t playbook_reports_unreachable_host_keeps_others
t playbook_queued_run_waits_for_the_queue
t playbook_tells_a_failed_run_at_the_end
