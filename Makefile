# iostrat -- one entry point: build, deps, run, check, bench-*, install.
# `make V=1` shows full commands; `make SANITIZE=1` builds with ASan+UBSan
# into build-asan/, `make TSAN=1` with ThreadSanitizer into build-tsan/.

.DELETE_ON_ERROR:
.DEFAULT_GOAL := all
# One job per CPU unless -j was given: a fresh clone's `make run` builds in
# parallel (docs/verdict.md, "The default profile").  A sub-make shares its
# parent's jobserver (its recipe line starts with +): no -j of its own.
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
endif
.SUFFIXES:
SHELL := /bin/bash

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
CXX     ?= g++

ifeq ($(SANITIZE),1)
BUILD   ?= build-asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else ifeq ($(TSAN),1)
BUILD   ?= build-tsan
SANFLAGS := -fsanitize=thread
else
BUILD   ?= build
SANFLAGS :=
endif

VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo 0.1)
# snprintf truncation is checked where it matters (paths); the warning is noise.
WARN    := -Wall -Wextra -Werror -Wno-format-truncation
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -D_GNU_SOURCE $(WARN) $(SANFLAGS) \
           -I$(BUILD) -Isrc -Iinclude -MMD -MP
CXXFLAGS ?= -O2 -g
CXXFLAGS += -std=gnu++17 $(WARN) $(SANFLAGS) -Isrc -Iinclude -MMD -MP
LDFLAGS += $(SANFLAGS)
LDLIBS  += -luring -lbpf -lelf -lz -lxxhash -ljansson -linih -lpthread -lm -ldl

ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-7s %s\n' $(1) $(2);
endif

# Every .c under src/ is part of the binary; eBPF programs (*.bpf.c) live in
# ebpf/ and are built into skeleton headers below.
SRCS     := $(shell find src -name '*.c' | sort)
CXXSRCS  := $(shell find src -name '*.cc' | sort)
OBJS     := $(SRCS:%.c=$(BUILD)/%.o) $(CXXSRCS:%.cc=$(BUILD)/%.o)
LIBOBJS  := $(filter-out $(BUILD)/src/main.o,$(OBJS))
BIN      := $(BUILD)/iostrat
ifneq ($(CXXSRCS),)
LDLIBS   += -lstdc++
endif

UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

-include mk/*.mk

all: $(BIN)

# The version (git describe) lives in one generated header, rewritten only
# when it changes, so every object that shows it is rebuilt then.
$(BUILD)/version.h: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)v='#define IOSTRAT_VERSION "$(VERSION)"'; \
	    [ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" >$@
$(OBJS): | $(BUILD)/version.h
FORCE:

$(BIN): $(OBJS)
	$(call say,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.cc
	$(call say,CXX,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CXX) $(CXXFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIBOBJS)
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBOBJS) $(LDLIBS)

tests: $(UNIT_BINS)

# --- dependencies -----------------------------------------------------------
# Every command the tests and scripts run comes from here, the base system
# or the build: make cmds-in-deps (mk/cmds.mk) checks it.  RUN_PKGS are what
# `make run` needs (the build, the eBPF probes, fio's baselines, gnuplot's
# figures); `make deps` adds the tests' and CI's tools (CHECK_TOOL_PKGS).
RUN_PKGS := build-essential pkg-config liburing-dev libbpf-dev bpftool clang llvm \
            fio gnuplot-nox libxxhash-dev libjansson-dev libinih-dev libelf-dev zlib1g-dev
CHECK_TOOL_PKGS := bpftrace xxhash jq util-linux e2fsprogs strace libfuse3-dev fuse3 \
            systemd cppcheck clang-tidy shellcheck \
            scdoc mandoc debhelper lintian fakeroot bash-completion \
            ansible-core ansible-lint python3 bc bsdextrautils libxml2-utils
DEB_PKGS := $(RUN_PKGS) $(CHECK_TOOL_PKGS)
deps:
	@./mk/deps.sh $(DEB_PKGS)
run-deps:
	@./mk/deps.sh $(RUN_PKGS)

# --- entry points -----------------------------------------------------------
# Those that install the dependencies build after them, in a sub-make: it
# reads mk/ebpf.mk once clang and bpftool are there (mk/config.mk).
BUILD_AFTER_DEPS = $(MAKE) --no-print-directory

run: run-deps
	+$(Q)$(BUILD_AFTER_DEPS) all
	$(Q)./mk/run.sh $(BIN)

check: deps
	+$(Q)$(BUILD_AFTER_DEPS) all tests
	$(Q)BUILD=$(BUILD) ./tests/run.sh

check-asan:
	$(Q)$(MAKE) --no-print-directory check SANITIZE=1

install: all
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/iostrat
	install -D -m 0644 include/iostrat/transform.h \
		$(DESTDIR)$(PREFIX)/include/iostrat/transform.h
	mkdir -p $(DESTDIR)$(PREFIX)/share/iostrat
	cp -r profiles fio-jobs plots ebpf $(DESTDIR)$(PREFIX)/share/iostrat/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/iostrat
	rm -rf $(DESTDIR)$(PREFIX)/share/iostrat $(DESTDIR)$(PREFIX)/include/iostrat

bench-%: deps
	+$(Q)$(BUILD_AFTER_DEPS) all
	$(Q)./speed/$*.sh $(BIN)

clean:
	rm -rf build build-asan build-tsan

.PHONY: all deps run-deps run check check-asan install uninstall clean tests

-include $(OBJS:.o=.d)
