#!/usr/bin/env bash
# lab/grub-image.sh: the reboot lab's disk, one that boots like a bare-metal
# box: an MBR partition table, GRUB in its boot track (grub-pc, BIOS boot
# through QEMU's SeaBIOS), every lab kernel installed, GRUB_DEFAULT=saved.
#
#   grub-image.sh build IMAGE_DIR DISK [HOOK]
#                      make DISK (raw) from the lab image; HOOK (if given)
#                      runs with $LAB_MNT, the disk's root, as `HOOK pre`
#                      before update-grub and `HOOK post` after it
#   grub-image.sh with DISK -- CMD...
#                      mount DISK's root, run CMD with $LAB_MNT set, unmount
#
# Not a second image builder: the root is the lab image's own root.img
# (lab/image.sh; grub-pc is in it), copied into a partition; grub-install
# and update-grub run in a guest booted on that disk (the host's kernel
# may not read partition tables of loop devices, and GRUB needs the disk
# and its partition as one device).  It takes well under a minute, so a
# disk is made fresh for each reboot check and never cached.
# Loop devices, mounts and temporary directories go on every exit, Ctrl-C
# included: the host is left as it was found.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || lab_die "grub-image: needs root (losetup, mount, chroot)"

loop='' mnt='' guest=''
release() {
	local rc=$?
	if [ -n "$guest" ] && kill -0 "$guest" 2>/dev/null; then
		kill "$guest" 2>/dev/null; wait "$guest" 2>/dev/null || true
	fi
	if [ -n "$mnt" ]; then
		mountpoint -q "$mnt" && umount "$mnt"
		rmdir "$mnt"
	fi
	[ -n "$loop" ] && losetup -d "$loop"
	return "$rc"
}
trap release EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The partition starts at 1 MiB: the gap before it holds GRUB's core.img.
PART_OFFSET=1048576

# attach DISK: mount its partition at $mnt, through a loop device with an
# offset -- not losetup -P, which needs a host kernel that reads partition
# tables (this one does not).  Read-write even to look: an ext4 cut off by
# a power cut is only seen as the guest will see it once its journal is
# replayed.
attach() {
	loop=$(losetup -o "$PART_OFFSET" --show -f "$1")
	mnt=$(mktemp -d /tmp/iostrat-lab-mnt.XXXXXX)
	mount "$loop" "$mnt"
}
detach() {
	umount "$mnt" && rmdir "$mnt" && mnt=
	losetup -d "$loop" && loop=
}

# The guest side of the build: GRUB into the disk's boot track and
# update-grub, from the disk's own system, booted with the first lab
# kernel straight into this script (no systemd: seconds, not a boot).
SETUP_INIT='#!/bin/sh
# iostrat lab: install GRUB on this disk, then power off (grub-image.sh)
mountpoint -q /proc || mount -t proc proc /proc
mountpoint -q /sys || mount -t sysfs sys /sys
mountpoint -q /dev || mount -t devtmpfs dev /dev
mount -o remount,rw /
rm -f /lab-grub-setup.ok
{ grub-install --target=i386-pc /dev/vda && update-grub && : >/lab-grub-setup.ok; } >/lab-grub-setup.log 2>&1
sync
echo o >/proc/sysrq-trigger
sleep 10 # init must not exit (a panic) before the power goes
'

cmd_build() {
	local -a GRUB_ACCEL
	read -ra GRUB_ACCEL < <(lab_accel_args)
	local img=$1 disk=$2 hook=${3:-} mb t0=$SECONDS k0
	[ -r "$img/root.img" ] || lab_die "grub-image: $img: no root.img (lab/image.sh)"
	command -v sfdisk >/dev/null || lab_die "grub-image: sfdisk missing: run make lab-deps"
	mb=$(( ($(stat -c %s "$img/root.img") + 1048575) / 1048576 ))
	rm -f "$disk"
	truncate -s "$((mb + 2))M" "$disk"
	echo 'start=2048, type=83, bootable' | sfdisk -q --label dos "$disk" >/dev/null
	# only the blocks in use (1.6 of 6 GB): 3 s where dd took 25
	e2image -ra -O "$PART_OFFSET" "$img/root.img" "$disk" 2>/dev/null
	attach "$disk"
	local uuid
	uuid=$(blkid -s UUID -o value "$loop")
	echo "UUID=$uuid / ext4 rw,errors=remount-ro 0 1" >"$mnt/etc/fstab"
	# GRUB_DEFAULT=saved: what grub-reboot needs.  The console on the
	# serial port, without quiet: the kernel's "Linux version" line on it
	# is how the host counts boots.
	sed -i -e '/^GRUB_DEFAULT=/d; /^GRUB_TIMEOUT=/d; /^GRUB_CMDLINE_LINUX_DEFAULT=/d; /^GRUB_CMDLINE_LINUX=/d; /^GRUB_TERMINAL=/d' \
		"$mnt/etc/default/grub"
	cat >>"$mnt/etc/default/grub" <<-'EOF'
	GRUB_DEFAULT=saved
	GRUB_TIMEOUT=0
	GRUB_TERMINAL=serial
	GRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"
	GRUB_CMDLINE_LINUX_DEFAULT=""
	GRUB_CMDLINE_LINUX="console=ttyS0,115200 panic=-1 systemd.show_status=0"
	GRUB_DISABLE_OS_PROBER=true
	EOF
	# The kernel-booted lab's oneshot unit powers off after its command:
	# not on a box that reboots by itself.
	ln -sf /dev/null "$mnt/etc/systemd/system/iostrat-lab.service"
	rm -f "$mnt/etc/systemd/system/multi-user.target.wants/iostrat-lab.service"
	printf '%s' "$SETUP_INIT" >"$mnt/lab-grub-setup"
	chmod 0755 "$mnt/lab-grub-setup"
	if [ -n "$hook" ]; then LAB_MNT=$mnt "$hook" pre || lab_die "grub-image: $hook pre failed"; fi
	detach

	k0=$(lab_kernel_lines | awk 'NR == 1 { print $1 }')
	timeout --kill-after=5 "${IOSTRAT_LAB_GRUB_TIMEOUT:-300}" qemu-system-x86_64 \
		"${GRUB_ACCEL[@]}" -m 1024 -smp 1 -nodefaults -display none -no-reboot \
		-serial "file:$disk.setup-console" \
		-kernel "$img/kernels/$k0/vmlinuz" -initrd "$img/kernels/$k0/initrd" \
		-append "root=UUID=$uuid ro console=ttyS0 panic=-1 quiet init=/lab-grub-setup" \
		-drive "file=$disk,if=virtio,format=raw,cache=unsafe" -nic none >"$disk.qemu" 2>&1 &
	guest=$!
	wait "$guest" || lab_die "grub-image: the setup guest failed or timed out (console: $disk.setup-console)"
	guest=

	attach "$disk"
	cp "$mnt/lab-grub-setup.log" "$disk.log" 2>/dev/null || true
	[ -e "$mnt/lab-grub-setup.ok" ] || lab_die "grub-install/update-grub failed in the guest: $(tail -n 3 "$disk.log" 2>/dev/null)"
	rm -f "$mnt/lab-grub-setup" "$mnt/lab-grub-setup.ok" "$mnt/lab-grub-setup.log"
	grep -q "^[[:space:]]*linux[[:space:]].*root=UUID=$uuid" "$mnt/boot/grub/grub.cfg" ||
		lab_die "update-grub: grub.cfg boots no kernel from this disk ($disk.log)"
	if [ -n "$hook" ]; then LAB_MNT=$mnt "$hook" post || lab_die "grub-image: $hook post failed"; fi
	lab_say "GRUB disk built in $((SECONDS - t0)) s: $(grep -c "^[[:space:]]*menuentry " "$mnt/boot/grub/grub.cfg") menu entries"
	detach
}

cmd_with() {
	local disk=$1; shift
	[ "${1:-}" = -- ] && shift
	[ $# -gt 0 ] || lab_die "grub-image: with DISK -- CMD..."
	attach "$disk"
	local rc=0
	LAB_MNT=$mnt "$@" || rc=$?
	detach
	return "$rc"
}

case ${1:-} in
build) [ $# -ge 3 ] && [ $# -le 4 ] || lab_die "usage: grub-image.sh build IMAGE_DIR DISK [HOOK]"; cmd_build "$2" "$3" "${4:-}" ;;
with) [ $# -ge 3 ] || lab_die "usage: grub-image.sh with DISK -- CMD..."; shift; cmd_with "$@" ;;
*) lab_die "usage: grub-image.sh build IMAGE_DIR DISK [HOOK] | with DISK -- CMD..." ;;
esac
