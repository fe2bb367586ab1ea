// SPDX-License-Identifier: MIT
/* The kernel's work around a repetition, system-wide: kernel threads' CPU, PSI, reclaim (/proc). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "kcost.h"
#include "lib/blockdev.h"
#include "lib/util.h"

#define PF_KTHREAD 0x00200000UL

/* One /proc/PID/stat: name, flags, utime+stime ticks, start time. */
static bool kthread_stat(const char *pid, struct kthread *k)
{
	char p[64], buf[1024], *close_paren;
	unsigned long flags;
	unsigned long long ut, st, start;
	int ret;

	snprintf(p, sizeof(p), "/proc/%s/stat", pid);
	ret = read_sysfs(p, buf, sizeof(buf));
	close_paren = ret ? NULL : strrchr(buf, ')');
	if (!close_paren || !strchr(buf, '('))
		return false;
	*close_paren = 0;
	snprintf(k->name, sizeof(k->name), "%s", strchr(buf, '(') + 1);
	if (sscanf(close_paren + 2, "%*c %*d %*d %*d %*d %*d %lu %*u %*u %*u %*u "
		   "%llu %llu %*d %*d %*d %*d %*d %*d %llu", &flags, &ut, &st,
		   &start) != 4 || !(flags & PF_KTHREAD))
		return false;
	k->pid = atoi(pid);
	k->ticks = ut + st;
	k->start = start;
	return true;
}

static int kthreads_scan(struct kthread **out, size_t *n)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t cap = 0;
	struct kthread k;

	*out = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]) || !kthread_stat(de->d_name, &k))
			continue;
		if (*n == cap) {
			struct kthread *nk = realloc(*out, (cap = cap ? cap * 2 : 256) *
						     sizeof(k));
			if (!nk)
				break;
			*out = nk;
		}
		(*out)[(*n)++] = k;
	}
	closedir(d);
	return 0;
}

/* /proc/vmstat's pages of kind (pgscan, pgsteal): kind_anon + kind_file
 * where the kernel counts them by LRU type, else kind_kswapd +
 * kind_direct; 0 when it has neither. */
static uint64_t vmstat_pages(const char *kind)
{
	static const char *const splits[][2] = { { "anon", "file" }, { "kswapd", "direct" } };
	char k0[32], k1[32];

	for (size_t i = 0; i < 2; i++) {
		uint64_t a = 0, b = 0;

		snprintf(k0, sizeof(k0), "%s_%s", kind, splits[i][0]);
		snprintf(k1, sizeof(k1), "%s_%s", kind, splits[i][1]);
		if (!cg_read_key("/proc/vmstat", k0, &a) && !cg_read_key("/proc/vmstat", k1, &b))
			return a + b;
	}
	return 0;
}

static void vmstat_read(uint64_t v[3])
{
	uint64_t a = 0, f = 0;

	v[0] = vmstat_pages("pgscan");
	v[1] = vmstat_pages("pgsteal");
	cg_read_key("/proc/vmstat", "workingset_refault_anon", &a);
	cg_read_key("/proc/vmstat", "workingset_refault_file", &f);
	v[2] = a + f;
}

static void psi_read(struct kcost *k, uint64_t psi[4])
{
	k->psi_ok = !cg_read_psi("/proc/pressure/io", &psi[0], &psi[1]) &&
		    !cg_read_psi("/proc/pressure/memory", &psi[2], &psi[3]);
}

void kcost_begin(struct kcost *k, const char *disk)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->disk, sizeof(k->disk), "%s", disk ? disk : "");
	k->dev_ok = blockdev_diskstats(k->disk, k->dev);
	kthreads_scan(&k->before, &k->nbefore);
	vmstat_read(k->vm);
	psi_read(k, k->psi);
}

/* The kind of kernel thread: 0 kswapd, 1 kworker, 2 ksoftirqd, 3 other */
static int kind_of(const char *name)
{
	static const char *const kinds[] = { "kswapd", "kworker", "ksoftirqd" };

	for (int i = 0; i < 3; i++)
		if (!strncmp(name, kinds[i], strlen(kinds[i])))
			return i;
	return 3;
}

static unsigned long long ticks_before(const struct kcost *k, const struct kthread *t)
{
	for (size_t i = 0; i < k->nbefore; i++)
		if (k->before[i].pid == t->pid && k->before[i].start == t->start)
			return k->before[i].ticks;
	return 0;
}

static void kthreads_row(const struct kcost *k, json_t *row)
{
	static const char *const cols[] = { "kswapd_s", "kworker_s", "ksoftirqd_s" };
	double hz = (double)sysconf(_SC_CLK_TCK), by[4] = { 0 };
	struct kthread *after;
	size_t n;

	if (kthreads_scan(&after, &n) || !n || !k->nbefore) {
		free(after);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned long long b = ticks_before(k, &after[i]);

		if (after[i].ticks > b)
			by[kind_of(after[i].name)] += (double)(after[i].ticks - b) / hz;
	}
	free(after);
	for (int i = 0; i < 3; i++)
		json_object_set_new(row, cols[i], json_real(by[i]));
	json_object_set_new(row, "kthread_s", json_real(by[0] + by[1] + by[2] + by[3]));
}

static json_t *delta(uint64_t a, uint64_t b)
{
	return json_integer((json_int_t)(b > a ? b - a : 0));
}

static void disk_row(const struct kcost *k, json_t *row)
{
	static const char *const cols[] = { "dev_read_bytes", "dev_write_bytes",
					    "dev_reads", "dev_writes" };
	char src[64];
	uint64_t now[4];

	if (!k->dev_ok || !blockdev_diskstats(k->disk, now))
		return;
	for (int i = 0; i < 4; i++)
		json_object_set_new(row, cols[i], delta(k->dev[i] * (i < 2 ? 512 : 1),
							now[i] * (i < 2 ? 512 : 1)));
	snprintf(src, sizeof(src), "system /proc/diskstats %.30s", k->disk);
	json_object_set_new(row, "dev_source", json_text(src));
}

void kcost_end(struct kcost *k, json_t *row)
{
	static const char *const psi_cols[] = { "psi_io_some_us", "psi_io_full_us",
						"psi_mem_some_us", "psi_mem_full_us" };
	static const char *const vm_cols[] = { "pgscan", "pgsteal", "workingset_refault" };
	uint64_t vm[3], psi[4];
	bool ok = k->psi_ok;

	kthreads_row(k, row);
	vmstat_read(vm);
	for (int i = 0; i < 3; i++)
		json_object_set_new(row, vm_cols[i], delta(k->vm[i], vm[i]));
	json_object_set_new(row, "reclaim_source", json_text("system"));
	psi_read(k, psi);
	for (int i = 0; ok && k->psi_ok && i < 4; i++)
		json_object_set_new(row, psi_cols[i], delta(k->psi[i], psi[i]));
	if (ok && k->psi_ok)
		json_object_set_new(row, "psi_source", json_text("system"));
	disk_row(k, row);
	free(k->before);
	k->before = NULL;
}
