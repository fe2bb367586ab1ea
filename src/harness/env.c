// SPDX-License-Identifier: MIT
/* The machine context of a run (kernel, CPU, memory, disks) for env.json and the rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "lib/blockdev.h"
#include "env.h"
#include "lib/util.h"

const char *env_kernel(void)
{
	static struct utsname u;

	if (!u.release[0])
		uname(&u);
	return u.release;
}

const char *env_host(void)
{
	static char host[256];

	if (!host[0])
		gethostname(host, sizeof(host) - 1);
	return host;
}

void env_row(json_t *row, json_t *where)
{
	json_object_set_new(row, "traced", json_false());
	json_object_set_new(row, "kernel", json_text(env_kernel()));
	json_object_set_new(row, "host", json_text(env_host()));
	if (!where)
		return;
	json_object_set(row, "scheduler", json_object_get(where, "scheduler"));
	json_object_set(row, "device", json_object_get(where, "disk"));
	json_object_set(row, "fs", json_object_get(where, "fs"));
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 2;
		colon[strcspn(colon, "\n")] = 0;
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

static long long mem_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	long long kb = -1;

	if (!f)
		return -1;
	if (fscanf(f, "MemTotal: %lld kB", &kb) != 1)
		kb = -1;
	fclose(f);
	return kb;
}

static json_t *sysfs_active(const char *path)
{
	char raw[256], *a, *b;

	if (read_sysfs(path, raw, sizeof(raw)))
		return json_null();
	a = strchr(raw, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b) {
		*b = 0;
		return json_text(a + 1);
	}
	return json_text(raw);
}

/* The hypervisor's CPUID signature ("KVMKVMKVM", "bhyve bhyve "), where
 * CPUID says there is one; "" otherwise. */
static void cpuid_hypervisor(char *buf, size_t len)
{
	buf[0] = 0;
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char sig[13];

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & 1u << 31))
		return;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = 0;
	snprintf(buf, len, "%s", *sig ? sig : "vm");
#else
	(void)len;
#endif
}

const char *env_virt(char *buf, size_t len)
{
	static const char *const sigs[][2] = {
		{ "KVMKVMKVM", "kvm" }, { "bhyve bhyve ", "bhyve" }, { "Microsoft Hv", "microsoft" },
		{ "VMwareVMware", "vmware" }, { "XenVMMXenVMM", "xen" }, { "TCGTCGTCGTCG", "qemu" },
		{ " lrpepyh  vr", "parallels" }, { "ACRNACRNACRN", "acrn" },
	};
	char vendor[128];

	cpuid_hypervisor(buf, len);
	for (size_t i = 0; *buf && i < sizeof(sigs) / sizeof(*sigs); i++)
		if (!strcmp(buf, sigs[i][0]))
			snprintf(buf, len, "%s", sigs[i][1]);
	if (*buf)
		return buf;
	if (!read_sysfs("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor)) &&
	    (strstr(vendor, "QEMU") || strstr(vendor, "VMware") || strstr(vendor, "Xen") ||
	     strstr(vendor, "innotek") || strstr(vendor, "Amazon EC2")))
		snprintf(buf, len, "%s", vendor);
	else
		snprintf(buf, len, "none");
	return buf;
}

json_t *env_capture(const char *const *labels, const char *const *paths)
{
	json_t *o = json_object();
	char cpu[256], virt[64];
	struct utsname u;

	uname(&u);
	cpu_model(cpu, sizeof(cpu));
	json_object_set_new(o, "schema", json_integer(1));
	json_object_set_new(o, "iostrat_version", json_text(IOSTRAT_VERSION));
	json_object_set_new(o, "kernel", json_text(u.release));
	json_object_set_new(o, "kernel_version", json_text(u.version));
	json_object_set_new(o, "machine", json_text(u.machine));
	json_object_set_new(o, "host", json_text(env_host()));
	json_object_set_new(o, "cpu_model", json_text(cpu));
	json_object_set_new(o, "cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(o, "mem_kb", json_integer(mem_kb()));
	json_object_set_new(o, "virt", json_text(env_virt(virt, sizeof(virt))));
	json_object_set_new(o, "thp", sysfs_active("/sys/kernel/mm/transparent_hugepage/enabled"));
	json_object_set_new(o, "uid", json_integer((json_int_t)geteuid()));
	json_object_set_new(o, "captured_at", json_real(now_real()));
	for (size_t i = 0; paths && paths[i]; i++)
		json_object_set_new(o, labels[i], blockdev_json(paths[i]));
	return o;
}
