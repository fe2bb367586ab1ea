// SPDX-License-Identifier: MIT
/* grub_find_entry: the grub-reboot path of the entry booting a kernel. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "queue/grub.h"
#include "unit.h"

static char cfg[] = "/tmp/iostrat-grub-unit.XXXXXX";

static int find(const char *text, const char *version, char *out, size_t len)
{
	FILE *f = fopen(cfg, "w");

	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	return grub_find_entry(cfg, version, out, len);
}

/* Debian's generated layout: ids, a submenu, recovery entries. */
static const char debian[] =
	"### BEGIN /etc/grub.d/10_linux ###\n"
	"function gfxmode {\n\tset gfxpayload=\"${1}\"\n}\n"
	"menuentry 'Debian GNU/Linux' --class debian $menuentry_id_option 'gnulinux-simple-U' {\n"
	"\tlinux\t/boot/vmlinuz-6.12.9-amd64 root=UUID=U ro quiet\n"
	"}\n"
	"submenu 'Advanced options for Debian GNU/Linux' $menuentry_id_option 'gnulinux-advanced-U' {\n"
	"\tmenuentry 'Debian GNU/Linux, with Linux 6.12.9-amd64' --class debian $menuentry_id_option 'gnulinux-6.12.9-amd64-advanced-U' {\n"
	"\t\tif [ x$feature_platform_search_hint = xy ]; then\n\t\t  search --no-floppy --fs-uuid --set=root U\n\t\tfi\n"
	"\t\tlinux\t/boot/vmlinuz-6.12.9-amd64 root=UUID=U ro quiet\n"
	"\t}\n"
	"\tmenuentry 'Debian GNU/Linux, with Linux 6.1.0-18-amd64 (recovery mode)' --class debian $menuentry_id_option 'gnulinux-6.1.0-18-amd64-recovery-U' {\n"
	"\t\tlinux\t/boot/vmlinuz-6.1.0-18-amd64 root=UUID=U ro single\n"
	"\t}\n"
	"\tmenuentry 'Debian GNU/Linux, with Linux 6.1.0-18-amd64' --class debian $menuentry_id_option 'gnulinux-6.1.0-18-amd64-advanced-U' {\n"
	"\t\tlinux\t/boot/vmlinuz-6.1.0-18-amd64 root=UUID=U ro quiet\n"
	"\t}\n"
	"}\n";

UNIT(finds_submenu_entry_by_id)
{
	char out[512];

	CHECK(find(debian, "6.1.0-18-amd64", out, sizeof(out)) == 0, "not found");
	CHECK(!strcmp(out, "gnulinux-advanced-U>gnulinux-6.1.0-18-amd64-advanced-U"),
	      "got %s", out);
	return 0;
}

UNIT(top_level_entry_first)
{
	char out[512];

	CHECK(find(debian, "6.12.9-amd64", out, sizeof(out)) == 0, "not found");
	CHECK(!strcmp(out, "gnulinux-simple-U"), "got %s", out);
	return 0;
}

UNIT(unknown_kernel_and_prefix_not_matched)
{
	char out[512];

	CHECK(find(debian, "6.1.0", out, sizeof(out)) == -ENOENT, "prefix matched: %s", out);
	CHECK(find(debian, "5.10.0-1-amd64", out, sizeof(out)) == -ENOENT, "found %s", out);
	return 0;
}

/* No ids (older grub, hand-written): titles, with a quoted quote; a
 * separate /boot partition (kernel path without /boot). */
UNIT(titles_when_no_ids)
{
	static const char hand[] =
		"submenu 'Old kernels' {\n"
		"  menuentry 'It'\\''s 5.15' {\n"
		"    linux /vmlinuz-5.15.0-91-generic root=/dev/sda2\n"
		"  }\n"
		"}\n"
		"menuentry \"Other {braces}\" {\n  linux /vmlinuz-6.0.0 ro\n}\n";
	char out[512];

	CHECK(find(hand, "5.15.0-91-generic", out, sizeof(out)) == 0, "not found");
	CHECK(!strcmp(out, "Old kernels>It's 5.15"), "got %s", out);
	CHECK(find(hand, "6.0.0", out, sizeof(out)) == 0, "not found after braces");
	CHECK(!strcmp(out, "Other {braces}"), "got %s", out);
	return 0;
}

UNIT(missing_file)
{
	char out[64];

	CHECK(grub_find_entry("/nonexistent/grub.cfg", "1", out, sizeof(out)) == -ENOENT,
	      "no error");
	return 0;
}

static int cfg_made(void)
{
	int fd = mkstemp(cfg);

	if (fd < 0)
		return 1;
	close(fd);
	return 0;
}

static int cfg_removed(int failed)
{
	unlink(cfg);
	return failed;
}
UNIT_FIXTURE(cfg_made, cfg_removed)
