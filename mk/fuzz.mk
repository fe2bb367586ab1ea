# libFuzzer targets (fuzz/*_fuzz.c), built with clang into build-fuzz/.
#   make fuzz                 build them
#   make fuzz-run FUZZ_SECS=60  run them all, side by side, for FUZZ_SECS
#                               seconds (CI: 60); an input taking over 10 s
#                               is a failure (a hang)
# Each target links only the sources it needs, compiled with coverage.
FUZZ_BUILD := build-fuzz
FUZZ_CC    ?= clang
FUZZ_FLAGS := -g -O1 -std=gnu11 -D_GNU_SOURCE -Isrc -Iinclude -fsanitize=fuzzer,address,undefined
FUZZ_SECS  ?= 60
FUZZ_LIBS  := -ljansson -lxxhash -linih -lm

FUZZ_transform_SRCS := src/core/transform.c
FUZZ_fio_json_SRCS  := src/fio/fio_json.c src/results/row.c src/config/run_settings.c src/lib/*.c
FUZZ_profile_SRCS   := src/engine/profile.c src/engine/profile_read.c src/config/strpool.c \
                       src/engine/engine_settings.c src/engine/run_section_settings.c src/lib/*.c

FUZZ_TARGETS := $(patsubst fuzz/%_fuzz.c,%,$(wildcard fuzz/*_fuzz.c))

# a target is rebuilt when any source it links changes (a stale fuzzer once
# hid a link error that only a fresh clone showed)
.SECONDEXPANSION:
$(FUZZ_BUILD)/%_fuzz: fuzz/%_fuzz.c $$(wildcard $$(FUZZ_$$*_SRCS)) $$(wildcard src/*/*.h)
	$(call say,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_$*_SRCS) $(FUZZ_LIBS)

fuzz: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/%_fuzz)

# Corpus seeds and kept crash inputs (regressions) live in fuzz/corpus/NAME.
# The targets run side by side (CI's two CPUs: one wall-clock FUZZ_SECS for
# all, not one each); each one's log is build-fuzz/NAME.log.
fuzz-run: fuzz
	$(Q)for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus-$$t; \
		echo "fuzz: $$t for $(FUZZ_SECS)s"; \
		{ $(FUZZ_BUILD)/$${t}_fuzz -max_total_time=$(FUZZ_SECS) -timeout=10 -max_len=65536 \
			-print_final_stats=0 -close_fd_mask=3 \
			$(FUZZ_BUILD)/corpus-$$t $$( [ -d fuzz/corpus/$$t ] && echo fuzz/corpus/$$t ) \
			>$(FUZZ_BUILD)/$$t.log 2>&1; echo $$? >$(FUZZ_BUILD)/$$t.rc; } & \
	done; wait; \
	rc=0; for t in $(FUZZ_TARGETS); do \
		if [ "$$(cat $(FUZZ_BUILD)/$$t.rc)" != 0 ]; then \
			echo "fuzz: $$t FAILED"; tail -n 30 $(FUZZ_BUILD)/$$t.log; rc=1; \
		else \
			echo "fuzz: $$t $$(grep -E '^#[0-9]+.*(DONE|pulse)' $(FUZZ_BUILD)/$$t.log | tail -n 1)"; \
		fi; \
	done; exit $$rc

.PHONY: fuzz fuzz-run
