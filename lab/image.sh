#!/usr/bin/env bash
# lab/image.sh: build (or find) the lab image.  Prints the image directory.
#
# One bookworm userspace with systemd, the libraries iostrat links, fio,
# gnuplot, bpftrace, and every kernel of kernels.conf with its modules and
# initramfs; a raw ext4 root (no partition table: the kernel is booted
# directly by QEMU) plus each kernel's vmlinuz and initrd beside it.
#
# The image is keyed by what goes into it: the exact versions of every
# package named below and of each kernel, and this directory's files.  A new
# package version in the archive makes a new key, so a new image; an
# unchanged one is reused.  Builds of one key are serialised by a lock, and
# an image appears under its key only when complete (rename), so two
# concurrent `make lab` never see or make a half-built image.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || lab_die "building the image needs root (mmdebstrap, mkfs)"
command -v mmdebstrap >/dev/null || lab_die "mmdebstrap missing: run make lab-deps"

# What the guest needs: boot (systemd, udev, kmod, initramfs-tools), iostrat's
# runtime libraries (ldd build/iostrat), and the tools its subcommands and
# checks run (man-db for the package check's man pages); grub-pc for the
# reboot lab's GRUB disk (lab/grub-image.sh:
# the kernel-booted guests never run it); openssh-server, sudo and
# python3-apt for the fleet lab's guests, which Ansible reaches over ssh as a
# sudo user and whose apt module needs python3-apt (lab/fleet.sh; masked
# in every other guest).  Not linux-libc-dev: with it, bpftrace on 5.10 gets past
# "linux/types.h not found" only to stop on the kernel types of the
# tracepoint formats (dev_t, sector_t), in many lines instead of one.
PKGS=(systemd-sysv udev kmod initramfs-tools e2fsprogs util-linux procps
      iproute2 python3 jq xxhash fio gnuplot-nox bpftrace man-db grub-pc
      openssh-server sudo python3-apt
      libbpf1 libelf1 libinih1 libjansson4 libstdc++6 liburing2 libxxhash0 zlib1g)
IMAGE_MB=${IOSTRAT_LAB_IMAGE_MB:-6144}

mkdir -p "$LAB_DIR"
exec 8>"$LAB_DIR/apt.lock"
flock 8
if ! lab_apt_update; then
	why=$(grep -E '^(W|E):' "$LAB_APT/update.log" | tail -n 1)
	# Offline: the image already built is as good as it was.
	if [ -e "$LAB_DIR/images/current/ready" ]; then
		lab_say "cannot refresh the lab's package lists ($why); using the image built $(cat "$LAB_DIR/images/current/ready")"
		readlink -f "$LAB_DIR/images/current"
		exit 0
	fi
	lab_die "apt-get update of the lab's sources failed: $why"
fi

# The kernels, resolved to package names (or .deb files) and versions.
kpkgs=() kdebs=() key_in=()
kbuilt=() # "NAME PACKAGE SUITE BUILDER": installed in a chroot of BUILDER
while read -r name src builder; do
	if [[ $src == */* ]]; then
		[ -r "$src" ] || lab_die "$name: $src: kernel package not readable"
		kdebs+=("$(readlink -f "$src")")
		key_in+=("kernel $name $(sha256sum <"$src" | cut -c1-16)")
	else
		read -r pkg ver < <(lab_kernel_pkg "$src")
		if [ -n "$builder" ]; then
			kbuilt+=("$name $pkg $src $builder")
			key_in+=("kernel $name $pkg $ver built in $builder")
		else
			kpkgs+=("$pkg")
			key_in+=("kernel $name $pkg $ver")
		fi
	fi
done < <(lab_kernel_lines)
# One apt-cache call for all (each call loads the cache: a second apiece).
madison=$(lab_apt apt-cache madison "${PKGS[@]}")
for p in "${PKGS[@]}"; do
	v=$(awk -F' *[|] *' -v p="$p" -v s=" $LAB_SUITE/main " '{ n = $1; gsub(/ /, "", n) } n == p && index($3, s) { print $2; exit }' <<<"$madison")
	[ -n "$v" ] || lab_die "$p: not in $LAB_SUITE"
	key_in+=("pkg $p $v")
done
flock -u 8
# What else goes into the image: the guest's files, and the layout (bump
# LAB_IMAGE_LAYOUT when this script changes what it builds).
LAB_IMAGE_LAYOUT=2
key_in+=("layout $LAB_IMAGE_LAYOUT ${IMAGE_MB}M $(cat "$LAB_TOP"/guest/* | sha256sum | cut -c1-16)")
key=$(printf '%s\n' "${key_in[@]}" | sha256sum | cut -c1-16)
img=$LAB_DIR/images/$key
found() { ln -sfn "$key" "$LAB_DIR/images/current"; echo "$img"; exit 0; }
[ -e "$img/ready" ] && found

mkdir -p "$LAB_DIR/images"
exec 9>"$LAB_DIR/images/$key.lock"
flock 9
[ -e "$img/ready" ] && found # built by the holder of the lock we waited for
lab_say "building image $key (about 3-5 minutes; log: $LAB_DIR/images/$key.log)"
work=$(mktemp -d "$LAB_DIR/images/.build-$key.XXXXXX")
# --one-file-system: never into a mount mmdebstrap may have left in the
# chroot (/proc, /dev) if it was interrupted.
trap 'rm -rf --one-file-system "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
printf '%s\n' "${key_in[@]}" >"$work/versions"

m=$(lab_mirror)
sources=()
for s in $(lab_suites); do sources+=("deb $m $s main"); done
all=("${PKGS[@]}" "${kpkgs[@]}")
incl=$(IFS=,; echo "${all[*]}")
hooks=(--customize-hook="$LAB_TOP/guest/customize.sh \"\$1\"")
for d in "${kdebs[@]}"; do
	hooks=(--customize-hook="copy-in $d /tmp" \
	       --customize-hook="chroot \"\$1\" sh -c 'apt-get install -y -q /tmp/$(basename "$d") && rm /tmp/$(basename "$d")'"
	       "${hooks[@]}")
done
t0=$SECONDS
# force-unsafe-io: dpkg does not fsync every file it unpacks (tens of
# thousands, four kernels' modules among them): the root is a scratch
# directory, written into root.img at the end, and thrown away if the
# build stops.  It stays in the image's dpkg.cfg.d with the path-excludes
# (a guest's own installs: the package check's, the fleet's).
# Other suites than bookworm only for the kernels: pinned low, so every
# userspace package comes from bookworm.
if ! mmdebstrap --variant=minbase --mode=root --format=directory \
	--include="$incl" \
	--setup-hook='mkdir -p "$1/etc/apt/preferences.d"' \
	--setup-hook="printf 'Package: *\nPin: release n=$LAB_SUITE\nPin-Priority: 900\n' >\"\$1/etc/apt/preferences.d/lab\"" \
	--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt=force-unsafe-io \
	"${hooks[@]}" \
	"$LAB_SUITE" "$work/root" "${sources[@]}" >"$LAB_DIR/images/$key.log" 2>&1; then
	lab_die "mmdebstrap failed: $(grep -E '^(E:|W:)|error' "$LAB_DIR/images/$key.log" | tail -n 3)"
fi

# A kernel with a BUILDER suite: installed in a minimal chroot of that
# suite (its own linux-base, debianutils, kmod and initramfs-tools: 7.3's
# linux-base runs hooks from two directories, which bookworm's run-parts
# refuses), then its /boot files and modules copied into the bookworm
# root, whose depmod indexes them again.  dpkg there does not know it:
# nothing in the lab asks dpkg about kernels.
for kb in "${kbuilt[@]}"; do
	read -r name pkg src builder <<<"$kb"
	kroot=$work/kernel-$name
	# the kernel's suite pinned as high as the builder's (a backports
	# suite is NotAutomatic): its newer linux-base wins
	if ! mmdebstrap --variant=minbase --mode=root --format=directory \
		--include="$pkg,initramfs-tools,kmod" \
		--setup-hook='mkdir -p "$1/etc/apt/preferences.d"' \
		--setup-hook="printf 'Package: *\nPin: release n=$src\nPin-Priority: 500\n' >\"\$1/etc/apt/preferences.d/lab\"" \
		--dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt=force-unsafe-io \
		"$builder" "$kroot" "deb $m $builder main" "deb $m $src main" >>"$LAB_DIR/images/$key.log" 2>&1; then
		lab_die "$name: mmdebstrap of its $builder chroot failed: $(grep -E '^(E:|W:)|error' "$LAB_DIR/images/$key.log" | tail -n 3)"
	fi
	for r in "$kroot"/boot/vmlinuz-*; do
		r=${r##*/vmlinuz-}
		cp -a "$kroot/boot/"*"-$r" "$work/root/boot/"
		cp -a "$kroot/usr/lib/modules/$r" "$work/root/usr/lib/modules/"
		chroot "$work/root" depmod -a "$r" >>"$LAB_DIR/images/$key.log" 2>&1 ||
			lab_die "$name: depmod $r in the bookworm root failed"
	done
	rm -rf --one-file-system "$kroot"
done

# Each kernel's vmlinuz and initrd beside the image, by the lab's name.
mkdir -p "$work/kernels"
while read -r name src _; do
	rel=$(cd "$work/root/boot" && compgen -G 'vmlinuz-*' | sed 's/^vmlinuz-//' | sort -V | while read -r r; do
		case $name in "${r%%-*}"|"$(echo "$r" | cut -d. -f1,2)") echo "$r" ;; esac
	done | tail -n 1)
	[ -n "$rel" ] || lab_die "$name: no kernel of that version in the image ($(ls "$work/root/boot"))"
	[ -r "$work/root/boot/initrd.img-$rel" ] || lab_die "$name: no initrd for $rel"
	mkdir -p "$work/kernels/$name"
	cp "$work/root/boot/vmlinuz-$rel" "$work/kernels/$name/vmlinuz"
	cp "$work/root/boot/initrd.img-$rel" "$work/kernels/$name/initrd"
	echo "$rel" >"$work/kernels/$name/release"
done < <(lab_kernel_lines)

rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"*_Packages
mkfs.ext4 -q -F -L labroot -d "$work/root" "$work/root.img" "${IMAGE_MB}M" >>"$LAB_DIR/images/$key.log" 2>&1 ||
	lab_die "mkfs.ext4 -d failed: $(tail -n 2 "$LAB_DIR/images/$key.log")"
rm -rf "$work/root"
date -u +%FT%TZ >"$work/ready"
mv "$work" "$img"
trap - EXIT
lab_say "image $key built in $((SECONDS - t0)) s"
ln -sfn "$key" "$LAB_DIR/images/current"
# Older images go, but the one before this (a checkout of an older commit
# still builds its key) and any a guest still runs on (lab run holds its
# ready file's lock shared).  Newest first; images/current, a link, is not
# followed.
find "$LAB_DIR"/images -mindepth 2 -maxdepth 2 -name ready -printf '%T@ %p\n' |
	sort -rn | cut -d' ' -f2- | tail -n +3 | while read -r r; do
	d=$(dirname "$r")
	if [ "$d" = "$img" ] || [ -L "$d" ]; then continue; fi
	flock -n -x "$r" rm -rf "$d" "$d.lock" "$d.log" &&
		lab_say "removed the older image $(basename "$d")"
done
echo "$img"
