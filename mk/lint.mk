# make lint: cppcheck and clang-tidy with a chosen check set, zero findings.
# cppcheck needs to know jansson's iteration macros; clang-tidy's checks are
# bug finders (clang-analyzer, bugprone) minus the ones that fight the
# house style (reserved identifiers from kernel headers, easily-swappable
# parameters in small helpers, narrowing in byte arithmetic).
LINT_SRCS := $(shell find src -name '*.c' | sort)
CPPCHECK_FLAGS := -q --enable=warning,portability --std=c11 -D_GNU_SOURCE \
	--inline-suppr --error-exitcode=1 -Isrc -I$(BUILD) \
	-D'json_object_foreach(o,k,v)=for(k=0;v;)' -D'json_array_foreach(a,i,v)=for(i=0;v;)' \
	--suppress=missingIncludeSystem
TIDY_CHECKS := -*,clang-analyzer-*,bugprone-*,-bugprone-easily-swappable-parameters,-bugprone-reserved-identifier,-bugprone-narrowing-conversions,-bugprone-assignment-in-if-condition,-clang-analyzer-security.insecureAPI.*,-bugprone-implicit-widening-of-multiplication-result,-clang-analyzer-valist.Uninitialized,-bugprone-suspicious-string-compare

lint: all
	$(call say,CPPCHK,src)
	$(Q)cppcheck $(CPPCHECK_FLAGS) $(LINT_SRCS)
	$(call say,TIDY,src)
	$(Q)clang-tidy --quiet --warnings-as-errors='*' --checks='$(TIDY_CHECKS)' $(LINT_SRCS) -- \
		-std=gnu11 -D_GNU_SOURCE -Isrc -I$(BUILD) 2>&1 | \
		grep -v -E '^[0-9]+ warnings? (and [0-9]+ errors? )?generated|^Suppressed|^Use -header-filter' ; \
		test $${PIPESTATUS[0]} -eq 0

.PHONY: lint
