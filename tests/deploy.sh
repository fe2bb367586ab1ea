#!/usr/bin/env bash
# The fleet playbook (deploy/, docs/fleet.md), run for real where no VM is
# needed: two "hosts" that are this machine through Ansible's local
# connection (each its own data directory, iostrat from this build, no
# package installed, nothing outside $T written), and a third that does
# not answer.  The queued run, the reboots and the power cut need real
# boots: the lab (make check-lab) has them.
. "$(dirname "$0")/lib.sh"

need_ansible() { need_cmd ansible-playbook; }

# inventory: box-a and box-b local, box-down an ssh port nothing listens on
inventory() {
	local dead
	dead=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat >"$T/inv.ini" <<-EOF
	[iostrat_fleet]
	box-a ansible_connection=local iostrat_dir=$T/hosts/a
	box-b ansible_connection=local iostrat_dir=$T/hosts/b
	${1:+box-down ansible_host=127.0.0.1 ansible_port=$dead ansible_ssh_common_args='-o ConnectTimeout=3 -o StrictHostKeyChecking=no'}
	[iostrat_fleet:vars]
	ansible_become=false
	ansible_python_interpreter=$(command -v python3)
	EOF
	printf '[global]\ndataset=big\nscale=0.0005\nreps=3\ncache=asis\n[t]\nstrategy=stream,buffer\nthreads=1\nwork=0\n' >"$T/p.ini"
}

playbook() {
	PATH=$(dirname "$IOSTRAT"):$PATH ANSIBLE_CONFIG=$TOP/deploy/ansible.cfg \
	ANSIBLE_LOCAL_TEMP=$T/ansible-tmp ANSIBLE_REMOTE_TEMP=$T/ansible-tmp ANSIBLE_ASYNC_DIR=$T/ansible-async \
	HOME=$T \
		ansible-playbook -i "$T/inv.ini" "$TOP/deploy/site.yml" -e iostrat_deb= \
		-e iostrat_profile="$T/p.ini" -e iostrat_fleet_dir="$T/fleet" -e iostrat_run=study "$@"
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
	grep -q "results of box-a, box-b in $T/fleet/study/; NO RESULTS from box-down (unreachable" "$T/log" ||
		die "summary: $(grep -A4 'Name the hosts' "$T/log")"
	for h in box-a box-b; do
		[ -s "$T/fleet/study/$h/results.jsonl" ] || die "$h's results lost"
	done
	[ ! -e "$T/fleet/study/box-down" ] || die "a directory for the host that never answered"
}

t playbook_direct_run_fetches_each_hosts_results playbook_direct_run_fetches_each_hosts_results
t playbook_reports_unreachable_host_keeps_others playbook_reports_unreachable_host_keeps_others
