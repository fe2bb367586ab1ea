// SPDX-License-Identifier: MIT
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../checksum.h"
#include "../commands.h"
#include "../filelist.h"
#include "../util.h"

int cmd_verify(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *bad, *why;
	unsigned work = 0;
	struct filelist fl;
	uint64_t off = 0;
	size_t file = 0;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			puts("usage: iostrat verify IN OUT --work W\n\n"
			     "Recompute the transform of every file of IN and compare it with\n"
			     "OUT; report the first differing file and byte offset.");
			return 0;
		}
		if (!strcmp(argv[i], "--work") || !strcmp(argv[i], "-w")) {
			if (i + 1 >= argc || opt_uint("--work", argv[i + 1], 0,
						      1000000, &work))
				return 2;
			i++;
		} else if (!strncmp(argv[i], "--work=", 7)) {
			if (opt_uint("--work", argv[i] + 7, 0, 1000000, &work))
				return 2;
		} else if (argv[i][0] == '-') {
			errorf("%s: unknown option", argv[i]);
			return 2;
		} else if (!in) {
			in = argv[i];
		} else if (!out) {
			out = argv[i];
		} else {
			errorf("verify: too many paths");
			return 2;
		}
	}
	if (!in || !out) {
		errorf("verify: need IN and OUT");
		return 2;
	}
	ret = filelist_scan(in, &fl, &bad);
	if (ret) {
		errorf("%s: %s", bad, ret == -EINVAL ? "not a regular file" :
		       strerror(-ret));
		filelist_free(&fl);
		return 1;
	}
	ret = verify_outputs(in, out, &fl, work, &file, &off, &why);
	if (ret < 0)
		errorf("%s: %s", why ? why : in, strerror(-ret));
	else if (ret > 0)
		errorf("%s/%s: differs from the reference transform (work %u) "
		       "at byte %" PRIu64, out, fl.names[file], work, off);
	else
		printf("ok: %zu files, %" PRIu64 " bytes match the reference (work %u)\n",
		       fl.n, fl.total, work);
	filelist_free(&fl);
	return ret ? 1 : 0;
}
