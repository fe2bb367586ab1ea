# The lab: Debian's kernels in QEMU guests (lab/, docs/lab.md).
#   make lab-deps    qemu-system-x86, qemu-utils, mmdebstrap
#   make lab         build the image (cached in $IOSTRAT_LAB_DIR, /var/tmp/iostrat-lab)
#   make check-lab   the portability matrix on every lab kernel
#                    (LAB_KERNELS="6.1 6.12" for some of them)
LAB_PKGS := qemu-system-x86 qemu-utils mmdebstrap jq e2fsprogs fdisk

lab-deps:
	@./mk/deps.sh $(LAB_PKGS)

lab: lab-deps
	$(Q)./lab/image.sh >/dev/null

check-lab: lab-deps all
	$(Q)BUILD=$(BUILD) ./lab/check.sh $(LAB_KERNELS)

.PHONY: lab lab-deps check-lab
