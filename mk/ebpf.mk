# eBPF probes (ebpf/*.bpf.c) -> CO-RE objects -> bpftool skeletons that
# src/trace/NAME.c includes as "ebpf/NAME.skel.h" (CFLAGS has -I$(BUILD)).
# Every ebpf/NAME.bpf.c is a probe: nothing here names one.  ebpf/*.bpf.h
# are the BPF side's shared parts (blk_rq.bpf.h: a block request).
#
# vmlinux.h is generated from the running kernel's BTF at build time and
# never committed.  Where there is no BTF (or no clang/bpftool), the probes
# are not built: src/trace/ compiles with IOSTRAT_NO_BPF, the binary still
# links, and tracer_open()/`iostrat trace` say why there is no tracing
# ("built without eBPF probes: no /sys/kernel/btf/vmlinux").

# This file is included before `all:`; keep `all` the default goal.
.DEFAULT_GOAL := all

EBPF_BTF     ?= /sys/kernel/btf/vmlinux
BPF_CLANG    ?= clang
BPFTOOL      ?= bpftool
EBPF_PROBES  := $(patsubst ebpf/%.bpf.c,%,$(wildcard ebpf/*.bpf.c))
EBPF_DIR     := $(BUILD)/ebpf
EBPF_ARCH    := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
                  -e 's/ppc64le/powerpc/' -e 's/s390x/s390/' -e 's/riscv64/riscv/')

EBPF_WHY :=
ifeq ($(wildcard $(EBPF_BTF)),)
EBPF_WHY := no $(EBPF_BTF) (kernel without BTF)
else ifeq ($(shell command -v $(BPF_CLANG) 2>/dev/null),)
EBPF_WHY := no $(BPF_CLANG)
else ifeq ($(shell command -v $(BPFTOOL) 2>/dev/null),)
EBPF_WHY := no $(BPFTOOL)
endif

ifeq ($(EBPF_WHY),)
EBPF_SKELS := $(EBPF_PROBES:%=$(EBPF_DIR)/%.skel.h)

$(EBPF_DIR)/vmlinux.h:
	$(call say,BTF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(BPFTOOL) btf dump file $(EBPF_BTF) format c >$@.tmp && mv $@.tmp $@

$(EBPF_DIR)/%.bpf.o: ebpf/%.bpf.c ebpf/%.h $(wildcard ebpf/*.bpf.h) $(EBPF_DIR)/vmlinux.h
	$(call say,BPF,$<)
	$(Q)$(BPF_CLANG) -target bpf -g -O2 -Wall -Werror -D__TARGET_ARCH_$(EBPF_ARCH) \
		-I$(EBPF_DIR) -Iebpf -c $< -o $@

$(EBPF_DIR)/%.skel.h: $(EBPF_DIR)/%.bpf.o
	$(call say,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $*_bpf >$@.tmp && mv $@.tmp $@

# The user side of each probe, src/trace/NAME.c, includes its skeleton.
$(EBPF_PROBES:%=$(BUILD)/src/trace/%.o): $(BUILD)/src/trace/%.o: $(EBPF_DIR)/%.skel.h
endif
# Without them, $(BUILD)/config/ebpf.h defines IOSTRAT_NO_BPF (mk/config.mk).

.SECONDARY: $(EBPF_PROBES:%=$(EBPF_DIR)/%.bpf.o)

ebpf: $(EBPF_SKELS)
.PHONY: ebpf
