// SPDX-License-Identifier: MIT
/* `iostrat gen DIR`: generate a data set (a preset of the study or a custom shape). */
#include <errno.h>
#include <stddef.h>
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
	      "--scale shrinks the file count (down to 4) and then the lines per file.\n\n", f);
}

/* What gen's options fill. */
struct gen_args {
	struct dataset_spec spec;
	const char *preset;
	double scale;
	unsigned custom;	/* which of --files, --lines, --width: bits 0-2 */
};

static int custom_count(const struct setting *o, const char *v, void *obj)
{
	struct gen_args *g = obj;
	char where[32];

	snprintf(where, sizeof(where), "--%s", o->name);
	g->custom |= 1u << o->min;
	if (o->min == 2)
		return opt_size(where, v, 0, 1ULL << 32, &g->spec.width);
	return opt_count(where, v, o->min ? 0 : 1, o->min ? 1ULL << 40 : 10000000,
			 o->min ? &g->spec.lines : &g->spec.files);
}

static const struct setting gen_table[] = {
	{ .name = "preset", SETTING_STRING(struct gen_args, preset),
	  .metavar = "NAME", .help = "small, medium-short, medium-long or big" },
	{ .name = "scale", SETTING_DOUBLE(struct gen_args, scale),
	  .max = 1000, .metavar = "F", .help = "scale a preset (0..1000, default 1)" },
	{ .name = "seed", SETTING_COUNT(struct gen_args, spec.seed),
	  .max = UINT64_MAX, .metavar = "S", .help = "the generator's seed (default 1)" },
	{ .name = "files", .type = SET_CALL, .arg = true, .call = custom_count, .min = 0,
	  .metavar = "N", .help = "custom: number of files (1..10M)" },
	{ .name = "lines", .type = SET_CALL, .arg = true, .call = custom_count, .min = 1,
	  .metavar = "L", .help = "custom: lines per file" },
	{ .name = "width", .type = SET_CALL, .arg = true, .call = custom_count, .min = 2,
	  .metavar = "C", .help = "custom: characters per line" },
	{ 0 },
};

const struct cmd_opts gen_cmdopts = {
	.cmd = "gen", .tables = { gen_table }, .usage = gen_usage,
};

/* A stop signal: the data set in progress is abandoned and its temporary
 * removed (a second signal ends gen at once; the next gen sweeps what that
 * leaves). */
static bool stop_dataset(int sig, unsigned count)
{
	(void)count;
	dataset_stop = sig;
	return false;
}

/* gen DIR: 0, or 2 after one line */
static int gen_dir(int npos, char **argv, const char **dir)
{
	if (npos > 1) {
		errorf("gen: one DIR only ('%s' and '%s')", argv[1], argv[2]);
		return 2;
	}
	if (!npos) {
		errorf("gen: DIR is required (iostrat gen --help)");
		return 2;
	}
	*dir = argv[1];
	return 0;
}

/* The spec the options describe: 0, or 2 after one line. */
static int gen_spec(struct gen_args *g)
{
	struct dataset_spec *s = &g->spec;

	if (!!g->preset == !!g->custom) {
		errorf("gen: give either --preset or --files/--lines/--width");
		return 2;
	}
	if (g->scale <= 0) {
		errorf("--scale: bad value '%g' (a number in (0, 1000])", g->scale);
		return 2;
	}
	if (g->preset) {
		uint64_t seed = s->seed;

		if (dataset_preset(g->preset, g->scale, s)) {
			errorf("%s: unknown preset (small, medium-short, medium-long, big)",
			       g->preset);
			return 2;
		}
		s->seed = seed;
	} else if (g->custom != 7) {
		errorf("gen: --files, --lines and --width are all needed");
		return 2;
	} else if (!s->lines && s->width) {
		errorf("gen: --lines 0 makes empty files, which have no width: "
		       "give --width 0 with it");
		return 2;
	}
	return 0;
}

int cmd_gen(int argc, char **argv)
{
	struct gen_args g = { .spec.seed = 1, .scale = 1.0 };
	struct dataset_spec s;
	const char *dir = NULL;
	int reused, ret, npos;

	npos = cmdopt_parse(&gen_cmdopts, (void *[]){ &g }, argc, argv);
	if (npos < 0)
		return cmdopt_exit(npos);
	if (gen_dir(npos, argv, &dir) || gen_spec(&g))
		return 2;
	s = g.spec;
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
