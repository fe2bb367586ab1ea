/* SPDX-License-Identifier: MIT */
/* The machine context of a run: env.json and the context columns of a row. */
#ifndef IOSTRAT_ENV_H
#define IOSTRAT_ENV_H

#include <jansson.h>

#include "version.h" /* generated: $(BUILD)/version.h */

/* The machine context of a run (env.json): kernel, CPU, memory, THP,
 * version, and for each path given the filesystem, mount options and the
 * disk's queue settings.  paths: NULL-terminated, labelled by names. */
json_t *env_capture(const char *const *labels, const char *const *paths);
/* kernel release (uname -r), static buffer */
const char *env_kernel(void);
const char *env_host(void);
/* The context columns of a row: traced false (a tracer sets it), kernel,
 * host, and from where (the input directory's entry of env.json; NULL:
 * none) the disk's scheduler, device and file system. */
void env_row(json_t *row, json_t *where);
/* The hypervisor under this machine, as systemd-detect-virt --vm names
 * it ("kvm", "bhyve", "microsoft", "vmware", "xen", "qemu"): CPUID's
 * hypervisor signature, else DMI's sys_vendor where it names one; "none"
 * on bare metal.  Into buf, returned. */
const char *env_virt(char *buf, size_t len);

#endif
