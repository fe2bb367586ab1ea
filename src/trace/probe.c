// SPDX-License-Identifier: MIT
/* Helpers every probe shares: the preferred source, libbpf's messages, map reset and sums. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/types.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "probe.h"
#include "trace.h"

const char *const probe_src_name[PSRC_N] = {
	"none", "tp_btf", "raw_tp", "tracepoint", "fentry", "kprobe",
};

enum probe_src probe_preferred(void)
{
	const char *m = getenv("IOSTRAT_TRACE_MODE");

	for (int s = PSRC_TP_BTF; m && s < PSRC_N; s++)
		if (!strcmp(m, probe_src_name[s]))
			return s;
	return PSRC_NONE;
}

int probe_mode_check(char *why, size_t len)
{
	const char *m = getenv("IOSTRAT_TRACE_MODE");

	if (!m || !*m || probe_preferred() != PSRC_NONE)
		return 0;
	snprintf(why, len, "IOSTRAT_TRACE_MODE=%s: not an attach mode (tp_btf, "
		 "raw_tp, tracepoint, fentry, kprobe; unset for the default "
		 "order)", m);
	return -EINVAL;
}

bool probe_withheld(const char *name)
{
	const char *w = getenv("IOSTRAT_TRACE_WITHOUT");
	size_t n = strlen(name);

	for (const char *p = w; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int libbpf_silent(enum libbpf_print_level level, const char *fmt,
			 va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

void probe_quiet_libbpf(void)
{
	const char *d = getenv("IOSTRAT_BPF_DEBUG");

	libbpf_set_print(d && *d && strcmp(d, "0") ? libbpf_print : libbpf_silent);
}

void probe_explain(int err, const char *what, char *why, size_t len)
{
	if (err == -EPERM)
		snprintf(why, len, "%s: not permitted (needs root, or CAP_BPF "
			 "and CAP_PERFMON)", what);
	else if (err == -EACCES)
		snprintf(why, len, "%s: rejected by the kernel's verifier in every "
			 "attach mode (IOSTRAT_BPF_DEBUG=1 shows why)", what);
	else if (access("/sys/kernel/btf/vmlinux", R_OK))
		snprintf(why, len, "%s: no BTF (/sys/kernel/btf/vmlinux)", what);
	else
		snprintf(why, len, "%s: %s", what, strerror(-err));
}

int probe_clear_map(int fd, size_t key_size)
{
	char key[64];

	if (key_size > sizeof(key))
		return -EINVAL;
	/* Deleting the first key until none is left: no iterator to upset. */
	while (!bpf_map_get_next_key(fd, NULL, key))
		if (bpf_map_delete_elem(fd, key) && errno != ENOENT)
			return -errno;
	return 0;
}

int probe_zero_percpu(int fd, size_t value_size, uint32_t n)
{
	int ncpu = libbpf_num_possible_cpus();
	void *zero;
	int ret = 0;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	zero = calloc((size_t)ncpu, value_size);
	if (!zero)
		return -ENOMEM;
	for (uint32_t k = 0; k < n && !ret; k++)
		if (bpf_map_update_elem(fd, &k, zero, BPF_ANY))
			ret = -errno;
	free(zero);
	return ret;
}

int probe_sum_percpu(int fd, const void *key, size_t value_size, void *out)
{
	int ncpu = libbpf_num_possible_cpus();
	/* __u64: the type of every field of the probes' structs (aliasing) */
	__u64 *all, *sum = out;
	size_t words = value_size / sizeof(__u64);

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	all = calloc((size_t)ncpu, value_size);
	if (!all)
		return -ENOMEM;
	if (bpf_map_lookup_elem(fd, key, all)) {
		int err = -errno;

		free(all);
		return err;
	}
	memset(out, 0, value_size);
	for (int c = 0; c < ncpu; c++)
		for (size_t w = 0; w < words; w++)
			sum[w] += all[(size_t)c * words + w];
	free(all);
	return 0;
}

