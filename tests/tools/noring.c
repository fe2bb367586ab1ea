// SPDX-License-Identifier: MIT
/*
 * noring: run a command with io_uring_setup() failing, as on a machine
 * where io_uring is switched off -- without touching the machine-wide
 * kernel.io_uring_disabled, which other users of the machine (tests of
 * other checkouts, benchmarks) would feel.  A seccomp filter makes the
 * system call return the errno given; it holds for the command and
 * everything it starts, and for nothing else.
 *
 *   noring [--errno EPERM|ENOSYS] CMD [ARGS...]
 *
 * EPERM is what io_uring_disabled=2 gives; ENOSYS a kernel without it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "noring: add this architecture's AUDIT_ARCH"
#endif

int main(int argc, char **argv)
{
	int err = EPERM, i = 1;

	if (argc > 2 && !strcmp(argv[1], "--errno")) {
		err = !strcmp(argv[2], "ENOSYS") ? ENOSYS : EPERM;
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: noring [--errno EPERM|ENOSYS] CMD [ARGS...]\n");
		return 2;
	}
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	/* no_new_privs: what lets an unprivileged process install a filter */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("noring: seccomp");
		return 126;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "noring: %s: %s\n", argv[i], strerror(errno));
	return 127;
}
