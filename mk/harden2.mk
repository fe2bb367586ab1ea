# tests/tools/noring: run a command with io_uring_setup() failing (seccomp),
# for tests/uring.sh -- instead of the machine-wide kernel.io_uring_disabled.
NORING := $(BUILD)/tools/noring
$(NORING): tests/tools/noring.c
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O2 -g -Wall -Wextra -Werror $(SANFLAGS) -o $@ $<
tests: $(NORING)
