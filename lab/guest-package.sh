#!/bin/bash
# In a lab guest (lab/check.sh copies it in with the .deb of `make deb`):
# the Debian package alone, with no checkout -- install it, then iostrat
# run, man iostrat, iostrat plot, a shipped profile and fio job, the bash
# completion, enabling the queue's unit (not enabled by the install);
# apt remove leaves nothing of the package and keeps the queue state
# (/var/lib/iostrat, docs/reboot-queue.md); purge removes that too.
# Prints "PASS: package: ..." / "FAIL: package: ...: why" lines.
# shellcheck disable=SC2317 # the checks are functions called by name (check NAME FUNC)
set -u
ok() { echo "PASS: package: $1"; }
no() { echo "FAIL: package: $1: $2"; }
# check NAME CMD...: CMD's success, or its last line of output as the why
check() {
	local name=$1 out t0=$SECONDS; shift
	if out=$("$@" 2>&1); then ok "$name"; else no "$name" "$(printf '%s\n' "$out" | tail -n 1)"; fi
	echo "package: $name: $((SECONDS - t0)) s" >&2 # (lab run's stderr: where the time goes)
}
deb=$(compgen -G "$PWD/iostrat_*.deb" | head -n 1)
[ -n "$deb" ] || { no install "no iostrat_*.deb copied in"; exit 0; }

# No checkout: the lab's copy of build/ and the data files goes, and PATH
# is the system's.
rm -rf "${LAB_IN:-/root/lab}"/{build,profiles,fio-jobs,plots,ebpf}
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
unset IOSTRAT
hash -r
# The lab image leaves man pages out (dpkg path-exclude); a real system
# has them: this guest's overlay is thrown away after the run.
sed -i '\|path-exclude=/usr/share/man|d' /etc/dpkg/dpkg.cfg.d/* 2>/dev/null

# Every file where a package, its scripts or its unit could leave one
# (not all of /usr: the kernels' modules alone take a TCG guest half a
# minute to walk), less the trees that change by themselves.
snapshot() {
	find /etc /var /usr/bin /usr/sbin /usr/local /usr/share/iostrat /usr/share/doc \
		/usr/share/man /usr/share/bash-completion /usr/lib/systemd /lib/systemd /opt /srv \
		-xdev \( -path /var/log -o -path /var/cache -o -path /var/lib/dpkg -o -path /var/tmp \
		-o -path /var/lib/apt -o -path /var/lib/systemd \) -prune -o -print 2>/dev/null | sort -u
}
snapshot >/tmp/before
# man-db's index is rebuilt at every install and removal (minutes under
# TCG); man finds the pages without it
echo 'man-db man-db/auto-update boolean false' | debconf-set-selections 2>/dev/null

install_it() {
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >/tmp/apt.log 2>&1 ||
		{ tail -n 3 /tmp/apt.log; return 1; }
	[ "$(command -v iostrat)" = /usr/bin/iostrat ] || { echo "iostrat is $(command -v iostrat)"; return 1; }
}
check "apt install (offline, dependencies from the image)" install_it
command -v iostrat >/dev/null || exit 0

unit_not_enabled() {
	local st
	st=$(systemctl is-enabled iostrat-queue.service 2>&1)
	[ "$st" = disabled ] || { echo "is-enabled: $st"; return 1; }
	! systemctl is-active -q iostrat-queue.service || { echo "the unit was started"; return 1; }
	grep -q '^ExecStart=/usr/bin/iostrat queue run-next' /lib/systemd/system/iostrat-queue.service ||
		{ echo "ExecStart does not run /usr/bin/iostrat"; return 1; }
}
check "the queue's unit is installed, not enabled" unit_not_enabled

man_pages() {
	local p
	MANWIDTH=80 man iostrat 2>&1 | grep -q 'which way of moving file data' || { echo "man iostrat: $(man iostrat 2>&1 | head -n 2)"; return 1; }
	for p in run bench plot queue; do
		man "iostrat-$p" 2>/dev/null | grep -q "iostrat-$p" || { echo "no man iostrat-$p"; return 1; }
	done
	man 5 iostrat-profile 2>/dev/null | grep -q 'INI' || { echo "no man 5 iostrat-profile"; return 1; }
}
if command -v man >/dev/null; then
	check "man iostrat, iostrat-CMD, iostrat-profile(5)" man_pages
else
	echo "SKIP: package: man iostrat, iostrat-CMD, iostrat-profile(5): no man in this image (lab/image.sh installs man-db: an older image?)"
fi

run_it() {
	iostrat gen /root/pkg/in --files 4 --lines 200 --width 60 >/dev/null &&
		iostrat run -s stream -r 2 /root/pkg/in /root/pkg/out --results /root/pkg/r >/tmp/run.out &&
		[ "$(grep -c . /root/pkg/r/results.jsonl)" -eq 2 ] && iostrat verify /root/pkg/in /root/pkg/out
}
check "iostrat run" run_it
plot_it() {
	iostrat plot /root/pkg/r >/tmp/plot.out 2>/tmp/plot.err || { cat /tmp/plot.err; return 1; }
	[ -s /root/pkg/r/plots/memory.png ] || { echo "no memory.png: $(tail -n 1 /tmp/plot.err)"; return 1; }
}
check "iostrat plot (scripts from /usr/share/iostrat/plots)" plot_it
check "a shipped profile by name (bench default --dry-run)" iostrat bench default --dry-run
fio_it() {
	iostrat fio seq-psync --dataset /root/pkg/in --bs 4k --reps 1 --cache asis --out /root/pkg/fio >/dev/null
}
check "a shipped fio job (iostrat fio seq-psync)" fio_it
completion() {
	local got
	got=$(bash -c '. /usr/share/bash-completion/completions/iostrat
		COMP_WORDS=(iostrat run -s ""); COMP_CWORD=3; _iostrat; echo "${COMPREPLY[*]}"')
	[[ " $got " == *" uring "* ]] || { echo "run -s <TAB>: '$got'"; return 1; }
}
check "bash completion" completion

enable_it() {
	systemctl enable iostrat-queue.service >/dev/null 2>&1 || return 1
	[ "$(systemctl is-enabled iostrat-queue.service)" = enabled ] || return 1
	iostrat queue add --name pkg -- /usr/bin/true >/dev/null &&
		iostrat queue list | grep -q pkg
}
check "systemctl enable iostrat-queue; queue add" enable_it

# the package's files, and its own directories (not /usr/share, ...)
pkg_files=$(dpkg -L iostrat | while read -r f; do
	[ -d "$f" ] && [[ $f != *iostrat* ]] || echo "$f"; done)
remove_it() {
	local f left=()
	DEBIAN_FRONTEND=noninteractive apt-get remove -y -q iostrat >/tmp/apt.log 2>&1 || { tail -n 3 /tmp/apt.log; return 1; }
	for f in $pkg_files; do [ -e "$f" ] && left+=("$f"); done
	[ ${#left[@]} -eq 0 ] || { echo "left behind: ${left[*]:0:5}"; return 1; }
	[ -s /var/lib/iostrat/queue.jsonl ] || [ -n "$(ls -A /var/lib/iostrat 2>/dev/null)" ] ||
		{ echo "queue state gone"; return 1; }
	mapfile -t left < <(comm -13 /tmp/before <(snapshot) | grep -v '^/var/lib/iostrat')
	[ ${#left[@]} -eq 0 ] || { echo "new files after remove: ${left[*]:0:5}"; return 1; }
}
check "apt remove leaves no file, keeps /var/lib/iostrat" remove_it
purge_it() {
	local left
	DEBIAN_FRONTEND=noninteractive apt-get purge -y -q iostrat >/tmp/apt.log 2>&1 || { tail -n 3 /tmp/apt.log; return 1; }
	[ ! -e /var/lib/iostrat ] || { echo "/var/lib/iostrat still there"; return 1; }
	left=$(comm -13 /tmp/before <(snapshot) | head -n 5 | tr '\n' ' ')
	[ -z "$left" ] || { echo "left after purge: $left"; return 1; }
}
check "apt purge removes the queue state too" purge_it
exit 0
