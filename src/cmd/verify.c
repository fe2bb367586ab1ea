// SPDX-License-Identifier: MIT
/* `iostrat verify IN OUT`: an output directory checked against the reference transform. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/checksum.h"
#include "commands.h"
#include "core/xform.h"
#include "core/filelist.h"
#include "lib/util.h"

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

/* A file of OUT that no input of fl produced: 1 and its name, 0 when there
 * is none, -errno.  Dotfiles are skipped, as filelist_scan skips them. */
static int extra_output(const char *out, const struct filelist *fl,
			char *name, size_t len)
{
	struct dirent *de;
	DIR *d = opendir(out);
	int ret = 0;

	if (!d)
		return -errno;
	while (!ret && (errno = 0, de = readdir(d)))
		if (de->d_name[0] != '.' &&
		    !bsearch(de->d_name, fl->names, fl->n, sizeof(*fl->names), cmp_name)) {
			snprintf(name, len, "%s", de->d_name);
			ret = 1;
		}
	if (!ret && errno)
		ret = -errno;
	closedir(d);
	return ret;
}

static void verify_usage(FILE *f)
{
	fputs("usage: iostrat verify IN OUT [-w|--work W] [--transform T]\n\n"
	      "Recompute the transform (the xor at work W, default 0, or T) of every file of IN\n"
	      "and compare it with OUT; report the first differing file and\n"
	      "byte offset.  OUT must hold exactly IN's files: a missing or an\n"
	      "extra one fails, and so does an IN with no files.\n\n", f);
}

/* verify's options' object. */
struct verify_args {
	unsigned work;
	const char *transform;
};

static const struct setting verify_table[] = {
	{ .name = "work", .shortname = 'w', SETTING_UINT(struct verify_args, work),
	  .max = 1000000, .metavar = "W",
	  .help = "the work level the output was made with (default 0)" },
	{ .name = "transform", SETTING_STRING(struct verify_args, transform),
	  .metavar = "T", .help = "the transform the output was made with (default xor;\n"
				  "docs/transform.md)" },
	{ 0 },
};

const struct cmd_opts verify_cmdopts = {
	.cmd = "verify", .tables = { verify_table }, .usage = verify_usage,
};

/* verify IN OUT: 0, or 2 after one line */
static int verify_paths(int npos, char **argv, const char **in, const char **out)
{
	if (npos > 2) {
		errorf("verify: too many paths");
		return 2;
	}
	if (npos < 2) {
		errorf("verify: need IN and OUT");
		return 2;
	}
	*in = argv[1];
	*out = argv[2];
	return 0;
}

int cmd_verify(int argc, char **argv)
{
	char extra[256];
	const char *in, *out, *why;
	struct verify_args a = { .work = 0, .transform = "xor" };
	const struct xform *x;
	char xwhy[PATH_MAX + 256];
	struct filelist fl;
	uint64_t off = 0;
	size_t file = 0;
	int ret, npos;

	npos = cmdopt_parse(&verify_cmdopts, (void *[]){ &a }, argc, argv);
	if (npos < 0)
		return cmdopt_exit(npos);
	if (verify_paths(npos, argv, &in, &out))
		return 2;
	x = xform_get(a.transform, xwhy, sizeof(xwhy));
	if (!x || (!x->in_place && a.work)) {
		errorf("verify: %s", x ? "--work: only the xor transform has passes" : xwhy);
		return 2;
	}
	if (filelist_read(in, &fl))
		return 1;
	if (!fl.n) {
		errorf("%s: no input files: nothing to verify", in);
		filelist_free(&fl);
		return 1;
	}
	ret = verify_outputs(in, out, &fl, x, a.work, &file, &off, &why);
	if (ret < 0)
		errorf("%s: %s", why ? why : in, strerror(-ret));
	else if (ret > 0)
		errorf("%s/%s: differs from the reference transform (%s, work %u) "
		       "at byte %" PRIu64, out, fl.names[file], x->id, a.work, off);
	else if ((ret = extra_output(out, &fl, extra, sizeof(extra))) < 0)
		errorf("%s: %s", out, strerror(-ret));
	else if (ret > 0)
		errorf("%s/%s: not the output of any file of %s", out, extra, in);
	else
		printf("ok: %zu files, %" PRIu64 " bytes match the reference (%s, work %u)\n",
		       fl.n, fl.total, x->id, a.work);
	filelist_free(&fl);
	return ret ? 1 : 0;
}
