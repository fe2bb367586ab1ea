# The FUSE fault-injection filesystem used by tests/faults.sh.
FAULTFS := $(BUILD)/tools/faultfs
$(FAULTFS): tests/tools/faultfs.c
	$(call say,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O2 -g -Wall -Wextra -Werror $(SANFLAGS) $$(pkg-config --cflags fuse3) -o $@ $< $$(pkg-config --libs fuse3)
tests: $(FAULTFS)
