#!/usr/bin/env bash
# mmdebstrap customize hook: make the tree at $1 boot as a lab guest.  Runs on
# the host; $1 is the guest's root.
set -euo pipefail
root=$1
here=$(dirname "$0")
echo lab >"$root/etc/hostname"
echo '/dev/vda / ext4 rw,errors=remount-ro 0 1' >"$root/etc/fstab"
# root without a password: the guest has no network and no login on it is
# ever made; the console is only read.
chroot "$root" passwd -d root >/dev/null
install -m 0755 "$here/iostrat-lab-guest" "$root/usr/local/sbin/iostrat-lab-guest"
install -m 0644 "$here/iostrat-lab.service" "$root/etc/systemd/system/iostrat-lab.service"
mkdir -p "$root/etc/systemd/system/multi-user.target.wants" "$root/lab"
ln -sf /etc/systemd/system/iostrat-lab.service \
	"$root/etc/systemd/system/multi-user.target.wants/iostrat-lab.service"
# Every I/O scheduler the kernel has: bfq and kyber are modules, and a disk
# lists only the loaded ones.
printf '9p\n9pnet_virtio\nloop\nbfq\nkyber-iosched\n' >"$root/etc/modules-load.d/lab.conf"
# Nothing on a console to log into, and no timers that wake apt or man-db
# during a measurement.  No sshd either: only the fleet lab's guests
# (lab/fleet.sh) run it, and unmask it on their own disks.
# Nor what only costs boot time, a second or so a unit under TCG, in every
# one of the lab's boots: getty-static's five gettys (started without
# logind), utmp records, e2scrub's reaping, the daily cleaning timers.
for u in ssh.service ssh.socket getty@tty1.service serial-getty@ttyS0.service apt-daily.timer \
	apt-daily-upgrade.timer man-db.timer e2scrub_all.timer fstrim.timer \
	getty-static.service getty@.service systemd-update-utmp.service \
	systemd-update-utmp-runlevel.service e2scrub_reap.service dpkg-db-backup.timer \
	systemd-tmpfiles-clean.timer; do
	ln -sf /dev/null "$root/etc/systemd/system/$u"
done
chroot "$root" systemctl set-default multi-user.target >/dev/null 2>&1
