#!/usr/bin/env bash
# `make figures`: re-make the README's example figures (docs/figures/*.png)
# from a fresh small run on this machine: the smoke profile (traced when
# root with kernel BTF, for the kernel view), fio baselines of its data
# sets, the sweeps and network modes when this iostrat has them, and a
# comparison of I/O schedulers (`iostrat sched` on a loop device when
# root, else two runs of the smoke profile).  SCALE (default 0.01) sizes
# the data sets; ONLY="kernel compare" re-makes only those kinds' images.
set -euo pipefail
bin=$1
scale=${SCALE:-0.01}
only=${ONLY:-}
only=" ${only//,/ } "
want() { [ "$only" = "  " ] || [[ $only == *" $1 "* ]]; }
work=$(mktemp -d /tmp/iostrat-figures.XXXXXX)
loop="" mnt=""
cleanup() {
	[ -z "$mnt" ] || umount "$mnt" 2>/dev/null || true
	[ -z "$loop" ] || losetup -d "$loop" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
res=$work/results
root=0
[ "$(id -u)" -eq 0 ] && root=1
trace=()
[ $root -eq 1 ] && [ -r /sys/kernel/btf/vmlinux ] && trace=(-D trace=1)

if want grid || want memory || want cpu || want fio || want kernel; then
	SCALE=$scale "$bin" bench profiles/smoke.ini --out "$res" --data "$work/data" \
		"${trace[@]}" >/dev/null
fi
if want fio && command -v fio >/dev/null; then
	for d in "$work"/data/*-s*; do
		ds=$(basename "$d" | sed 's/-s[0-9.]*-seed[0-9]*$//')
		"$bin" fio seq-psync --dataset "$d" --bs 64k --reps 3 --json --cache cold 2>/dev/null |
			sed "s#\"dataset\":\"[^\"]*\"#\"dataset\":\"$ds\"#" >>"$res/results.jsonl"
	done
fi
if want sweep && "$bin" sweep --help >/dev/null 2>&1; then
	mkdir -p "$res"
	"$bin" sweep blocksize --out "$work/sk" --size 1M --reps 3 >/dev/null
	"$bin" sweep bufsize --out "$work/sb" --files 4 --scale 0.1 --sizes 32..1M --reps 3 >/dev/null
	"$bin" sweep api --out "$work/sa" --size 4M --reps 3 >/dev/null
	cat "$work"/s{k,b,a}/results.jsonl >>"$res/results.jsonl"
fi
if want net && "$bin" net --help >/dev/null 2>&1; then
	mkdir -p "$res"
	"$bin" net --size 12,1024 --count 10000 --reps 3 --out "$work/n" >/dev/null
	cat "$work/n/results.jsonl" >>"$res/results.jsonl"
fi

# Figure 6: schedulers of a loop device backing an ext4 image (direct I/O,
# so requests reach the loop queue; never the real disk's settings).
schedulers_on_loop() {
	local dev scheds
	command -v losetup >/dev/null && command -v mkfs.ext4 >/dev/null || return 1
	truncate -s 256M "$work/img"
	mkfs.ext4 -q -F "$work/img" >/dev/null 2>&1 || return 1
	loop=$(losetup --find --show --direct-io=on "$work/img") || return 1
	mnt=$work/mnt
	mkdir -p "$mnt"
	mount "$loop" "$mnt" || { mnt=""; return 1; }
	dev=$(basename "$loop")
	scheds=$(tr -d '[]' <"/sys/block/$dev/queue/scheduler" | tr ' ' '\n' |
		grep -xE 'mq-deadline|bfq|none' | paste -sd, -)
	[ "$(echo "$scheds" | tr ',' '\n' | grep -c .)" -ge 2 ] || return 1
	SCALE=$scale "$bin" sched --device "$dev" --schedulers "$scheds" --interleave --reps 4 \
		--data "$mnt/data" --out "$mnt/s" profiles/smoke.ini \
		-D strategy=stream,direct -D threads=1 -D work=0 -D fio=0 >/dev/null 2>&1 || return 1
	cmp=$mnt/s
}
if want compare; then
	cmp=""
	[ $root -eq 1 ] && schedulers_on_loop || true
	if [ -z "$cmp" ]; then # two runs of the same profile, one after the other
		for r in A B; do
			SCALE=$scale "$bin" bench profiles/smoke.ini --out "$work/c/$r" --data "$work/data" \
				-D fio=0 -D threads=1 >/dev/null
		done
		"$bin" plot --compare "$work/c/A" "$work/c/B" -o "$work/c" >/dev/null
		cmp=$work/c
	fi
	"$bin" plot "$cmp" --only compare
fi

[ -d "$res" ] && "$bin" plot "$res"
mkdir -p docs/figures
if [ "$only" = "  " ]; then
	rm -f docs/figures/*.png
	cp "$res"/plots/*.png docs/figures/
else
	for k in $only; do
		[ "$k" = compare ] || [ ! -d "$res/plots" ] ||
			find "$res/plots" -maxdepth 1 -name "$k*.png" -exec cp {} docs/figures/ \;
	done
fi
want compare && cp "$cmp/plots/compare.png" docs/figures/
echo "docs/figures: $(cd docs/figures && compgen -G '*' | tr '\n' ' ')"
