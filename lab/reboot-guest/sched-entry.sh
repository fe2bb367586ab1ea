#!/bin/bash
# A reboot-lab queue entry (lab/reboot.sh): iostrat sched on the guest's
# virtio disk and on a loop device, over every scheduler the kernel offers
# once bfq and kyber are loaded; what each disk's scheduler was before and
# after, and what /run/iostrat held at the start (a run cut off by a power
# loss must leave nothing behind: sysfs and /run are reset by the boot).
# sched has no --resume: each attempt writes its own directory.
set -u
IOSTRAT=/usr/local/bin/iostrat
out=/srv/results/sched-${IOSTRAT_QUEUE_ATTEMPT:-1}
mkdir -p "$out"
for f in /run/iostrat/sched-*.json; do [ -e "$f" ] && echo "${f##*/}"; done >"$out/run-state-at-start"
: >"$out/missing"
for m in bfq kyber-iosched; do
	modprobe "$m" 2>/dev/null || echo "$m" >>"$out/missing"
done
one() { # DISK DATA NAME
	local q=/sys/block/$1/queue/scheduler avail
	cat "$q" >"$out/$3.before"
	avail=$(tr -d '[]' <"$q" | xargs | tr ' ' ,)
	echo "$avail" >"$out/$3.offered"
	echo "lab-sched: $3: $avail" >/dev/console
	"$IOSTRAT" sched --device "$1" --schedulers "$avail" --reps 2 --data "$2" \
		--out "$out/$3" -D strategy=stream -D threads=1 -D fio=0 /srv/lab/reboot.ini \
		>"$out/$3.log" 2>&1
	echo $? >"$out/$3.rc"
	cat "$q" >"$out/$3.after"
}
one vda /srv/data vda
truncate -s 128M /srv/loop.img
dev=$(losetup --direct-io=on -f --show /srv/loop.img)
mkfs.ext4 -q -F "$dev" && mkdir -p /mnt/lab-loop && mount "$dev" /mnt/lab-loop &&
	one "$(basename "$dev")" /mnt/lab-loop/data loop
umount /mnt/lab-loop 2>/dev/null
losetup -d "$dev"
rm -f /srv/loop.img
echo "lab-sched: done" >/dev/console
[ "$(cat "$out/vda.rc")" = 0 ] && [ "$(cat "$out/loop.rc" 2>/dev/null)" = 0 ]
