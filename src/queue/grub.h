/* SPDX-License-Identifier: MIT */
/* Choosing the kernel of the next boot with GRUB's one-shot default. */
#ifndef IOSTRAT_QUEUE_GRUB_H
#define IOSTRAT_QUEUE_GRUB_H

#include <stddef.h>

/*
 * Choosing the kernel of the next boot with GRUB's one-shot default
 * (grub-reboot, which needs GRUB_DEFAULT=saved).  IOSTRAT_GRUB_CFG and
 * IOSTRAT_GRUB_REBOOT override where grub.cfg is and which command sets
 * the next boot (the tests point them at a fixture and a stub).
 */

/* The menu entry of grub.cfg that boots kernel `version` (vmlinuz-VERSION,
 * not a recovery entry), as the "submenu>entry" path grub-reboot takes
 * (menu entry ids where the file has them, titles otherwise).
 * -ENOENT when no entry boots it. */
int grub_find_entry(const char *cfg_path, const char *version, char *out,
		    size_t len);

/* Find grub.cfg and the grub-reboot command.  On failure *why says what
 * is missing. */
int grub_locate(char *cfg, size_t cfglen, char *tool, size_t toollen,
		const char **why);

/* Make the next boot (only) start kernel `version`: locate, find the
 * entry, run grub-reboot.  Prints its own one-line error. */
int grub_boot_next(const char *version);

/* Check that `version` could be chosen (for `queue add --kernel`). */
int grub_check(const char *version);

#endif
