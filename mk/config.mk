# The build's configuration, written to files that change only when it does,
# so a change rebuilds exactly what depends on it (as $(BUILD)/version.h):
#   $(BUILD)/config/flags   compilers and flags (SANITIZE, TSAN, CFLAGS...):
#                           every object (so the binary is relinked)
#   $(BUILD)/config/ebpf.h  the eBPF decision of mk/ebpf.mk (built, or
#                           IOSTRAT_NO_BPF and why): the objects of src/trace/,
#                           which are compiled with -include of it
# Both are decided when the Makefile is read: the entry points that install
# the dependencies first (run, check, bench-*) build in a sub-make, which
# reads it again once clang, bpftool and the libraries are in place.

CONFIG_DIR   := $(BUILD)/config
config_hash  := \#
TRACE_OBJS    = $(filter $(BUILD)/src/trace/%.o,$(OBJS))

$(CONFIG_DIR)/flags: export CONFIG_TEXT = CC=$(CC) CXX=$(CXX) CFLAGS=$(CFLAGS) CXXFLAGS=$(CXXFLAGS) LDFLAGS=$(LDFLAGS) LDLIBS=$(LDLIBS)
$(CONFIG_DIR)/ebpf.h: export CONFIG_TEXT = $(if $(EBPF_WHY),$(config_hash)define IOSTRAT_NO_BPF "$(EBPF_WHY)",/* eBPF probes built: $(EBPF_PROBES) */)

$(CONFIG_DIR)/flags $(CONFIG_DIR)/ebpf.h: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)[ "$$(cat $@ 2>/dev/null)" = "$$CONFIG_TEXT" ] || { \
	    [ -e $@ ] && printf '  %-7s %s\n' CONFIG "$@ changed"; \
	    printf '%s\n' "$$CONFIG_TEXT" >$@; }

$(OBJS): $(CONFIG_DIR)/flags
$(TRACE_OBJS): $(CONFIG_DIR)/ebpf.h
# private: not passed on to the prerequisites (the config files above)
$(TRACE_OBJS): private CFLAGS += -include $(CONFIG_DIR)/ebpf.h

# config: print the build's configuration (what mk/ebpf.mk found)
config: $(CONFIG_DIR)/flags $(CONFIG_DIR)/ebpf.h
	@cat $^
.PHONY: config
