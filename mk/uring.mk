# The io_uring pipeline's sanitizer runs (CI calls these).  A race report
# aborts the run (halt_on_error), so the test that ran it fails.
#   make check-tsan        ThreadSanitizer build, strategy and uring tests
#   make check-uring-asan  ASan+UBSan build, the same tests
check-tsan:
	$(Q)$(MAKE) --no-print-directory TSAN=1 all
	$(Q)export TSAN_OPTIONS=halt_on_error=1; \
	    BUILD=build-tsan ./tests/run.sh strategies && BUILD=build-tsan ./tests/run.sh uring

check-uring-asan:
	$(Q)$(MAKE) --no-print-directory SANITIZE=1 all
	$(Q)BUILD=build-asan ./tests/run.sh strategies && BUILD=build-asan ./tests/run.sh uring

.PHONY: check-tsan check-uring-asan

# ThreadSanitizer instruments every byte the transform touches in each of
# its W passes (about 100x slower): the registry-wide tests at W=1000 would
# run for an hour.  The transform is single-threaded work on a buffer its
# caller owns, and memchr (an intercepted call) still reads every byte of
# each chunk, so a buffer handed between threads without synchronisation
# is still reported.  Only the TSan build is affected.
build-tsan/src/core/transform.o: SANFLAGS :=
