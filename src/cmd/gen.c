// SPDX-License-Identifier: MIT
/* `iostrat gen DIR`: generate a data set (a preset of the study or a custom shape). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "results/dataset.h"
#include "harness/stop.h"
#include "lib/util.h"

static void gen_usage(FILE *f)
{
	fputs("usage: iostrat gen DIR --preset small|medium-short|medium-long|big [--scale F] [--seed S]\n"
	      "       iostrat gen DIR --files N --lines L --width C [--seed S]\n\n"
	      "Write a data set of printable-ASCII lines (C chars + '\\n'), the same\n"
	      "bytes for the same seed, atomically (temp directory + rename), with a\n"
	      "manifest .iostrat-manifest.json (parameters, bytes, xxh3).  A DIR\n"
	      "holding the same data set already is left as is.\n\n"
	      "presets (scale 1.0):  small 10000 x 100 x 100;  medium-short 100 x 500000 x 20;\n"
	      "                      medium-long 100 x 100 x 100000;  big 20 x 100000 x 1000\n"
	      "--scale shrinks the file count (down to 4) and then the lines per file.\n", f);
}

static int gen_opt(const char *opt, const char *val, struct dataset_spec *s,
		   const char **preset, double *scale)
{
	if (!strcmp(opt, "--preset")) {
		*preset = val;
		return 0;
	}
	if (!strcmp(opt, "--scale")) {
		if (parse_double(val, scale) || *scale <= 0 || *scale > 1000) {
			errorf("--scale: bad value '%s' (a number in (0, 1000])", val);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(opt, "--seed")) {
		if (parse_u64(val, &s->seed)) {
			errorf("--seed: bad value '%s'", val);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(opt, "--files"))
		return opt_count("--files", val, 1, 10000000, &s->files);
	if (!strcmp(opt, "--lines"))
		return opt_count("--lines", val, 0, 1ULL << 40, &s->lines);
	if (!strcmp(opt, "--width"))
		return opt_size("--width", val, 0, 1ULL << 32, &s->width);
	errorf("%s: unknown option (iostrat gen --help)", opt);
	return -EINVAL;
}

/* A stop signal: the data set in progress is abandoned and its temporary
 * removed (a second signal ends gen at once; the next gen sweeps what that
 * leaves). */
static bool stop_dataset(int sig, unsigned count)
{
	(void)count;
	dataset_stop = sig;
	return false;
}

int cmd_gen(int argc, char **argv)
{
	struct dataset_spec s = { .seed = 1 };
	const char *dir = NULL, *preset = NULL;
	double scale = 1.0;
	int custom = 0, reused, ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			gen_usage(stdout);
			return 0;
		}
		if (argv[i][0] != '-') {
			if (dir) {
				errorf("gen: one DIR only ('%s' and '%s')", dir, argv[i]);
				return 2;
			}
			dir = argv[i];
			continue;
		}
		if (i + 1 >= argc) {
			errorf("%s: missing value", argv[i]);
			return 2;
		}
		/* which of --files, --lines, --width were given: bits 0, 1, 2 */
		custom |= (strcmp(argv[i], "--files") == 0) |
			  (strcmp(argv[i], "--lines") == 0) << 1 |
			  (strcmp(argv[i], "--width") == 0) << 2;
		if (gen_opt(argv[i], argv[i + 1], &s, &preset, &scale))
			return 2;
		i++;
	}
	if (!dir) {
		errorf("gen: DIR is required (iostrat gen --help)");
		return 2;
	}
	if (!!preset == !!custom) {
		errorf("gen: give either --preset or --files/--lines/--width");
		return 2;
	}
	if (preset) {
		uint64_t seed = s.seed;

		if (dataset_preset(preset, scale, &s)) {
			errorf("%s: unknown preset (small, medium-short, medium-long, big)",
			       preset);
			return 2;
		}
		s.seed = seed;
	} else if (custom != 7) {
		errorf("gen: --files, --lines and --width are all needed");
		return 2;
	} else if (!s.lines && s.width) {
		errorf("gen: --lines 0 makes empty files, which have no width: "
		       "give --width 0 with it");
		return 2;
	}
	stop_catch(STOP_SECOND_ENDS, stop_dataset, false);
	ret = dataset_generate(dir, &s, &reused);
	stop_release();
	if (dataset_stop) {
		errorf("%s: interrupted by signal %d; nothing of it left behind", dir,
		       (int)dataset_stop);
		return 128 + dataset_stop;
	}
	if (ret)
		return 1;
	printf("%s: %s %llu files x %llu lines x %llu chars = %llu bytes%s\n", dir,
	       s.preset ? s.preset : "custom", (unsigned long long)s.files,
	       (unsigned long long)s.lines, (unsigned long long)s.width,
	       (unsigned long long)dataset_bytes(&s),
	       reused ? " (already there, reused)" : "");
	return 0;
}

/* Every option the parser above takes (cmdopt.h): main.c refuses the rest. */
static const struct cmd_opt gen_table[] = {
	{ "preset", 0, true }, { "scale", 0, true }, { "seed", 0, true },
	{ "files", 0, true }, { "lines", 0, true }, { "width", 0, true },
	{ NULL, 0, false },
};

const struct cmd_opts gen_cmdopts = { .table = gen_table };
