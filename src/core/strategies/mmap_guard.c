// SPDX-License-Identifier: MIT
/*
 * One SIGBUS handler for the process, one jump target per thread: SIGBUS
 * from a memory access is delivered to the thread that faulted, so a
 * thread-local sigjmp_buf pointer says where that thread recovers.  A
 * SIGBUS outside a guarded region (a bug, not a shrinking file) restores
 * the default action and re-raises, so it still kills the process.
 *
 * SA_NODEFER keeps SIGBUS unblocked inside the handler, so the jump out
 * of it leaves the mask as it was and sigsetjmp need not save it (saving
 * it would cost a system call per chunk).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "core/transform.h"
#include "mmap_guard.h"

static __thread sigjmp_buf *volatile bus_jmp;
static __thread const void *volatile bus_addr;
static struct sigaction old_bus;

static void on_sigbus(int sig, siginfo_t *si, void *uctx)
{
	(void)uctx;
	if (bus_jmp) {
		bus_addr = si->si_addr;
		siglongjmp(*bus_jmp, 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

int mmap_guard_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &old_bus) < 0)
		return -errno;
	return 0;
}

void mmap_guard_remove(void)
{
	sigaction(SIGBUS, &old_bus, NULL);
}

int guarded_copy(uint8_t *dst, const uint8_t *src, size_t n, const void **fault)
{
	sigjmp_buf jb;

	if (sigsetjmp(jb, 0)) {
		bus_jmp = NULL;
		*fault = bus_addr;
		return -EFAULT;
	}
	bus_jmp = &jb;
	memcpy(dst, src, n);
	bus_jmp = NULL;
	return 0;
}

int guarded_copy_transform(uint8_t *dst, const uint8_t *src, size_t n,
			   unsigned work, uint64_t *col, const void **fault)
{
	int ret = guarded_copy(dst, src, n, fault);

	/* dst is the strategy's own memory: only the copy can fault */
	if (!ret)
		transform_chunk(dst, n, work, col);
	return ret;
}
