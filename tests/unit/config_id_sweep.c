// SPDX-License-Identifier: MIT
/* config_id of sweep rows: golden ids, and `iostrat sweep` and a bench's [sweep-KIND] section agree. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/profile.h"
#include "engine/bench.h"
#include "sweep/sweep.h"
#include "unit.h"

/* `iostrat sweep KIND ARGS...`'s options, through its table */
static int opts_of(struct sweep_opts *o, char **argv, int argc)
{
	enum sweep_kind k;
	void *const objs[] = { o, o, o };

	if (sweep_kind_parse(argv[0], &k))
		return -1;
	sweep_opts_defaults(o, k);
	return cmdopt_parse(sweep_kind_cmdopts(k), objs, argc, argv);
}

/* The id the command gives one configuration of o. */
static void cmd_id(const struct sweep_opts *o, enum sweep_op op, int what,
		   size_t block, size_t buffer, char *id, size_t len)
{
	struct sweep_run r = { .o = o };
	struct sweep_cfg *c;

	r.data_size = o->kind == SWEEP_BUFSIZE ? (uint64_t)((double)o->size * o->scale)
					       : o->size;
	c = o->kind == SWEEP_API ?
		sweep_add_api_cfg(&r, op, (enum api_variant)what, block, !block) :
		sweep_add_cfg(&r, op, (enum sweep_api)what, block, false, buffer);
	snprintf(id, len, "%s", c ? c->id : "(none)");
	sweep_data_free(&r);
}

UNIT(golden_ids_of_every_sweep)
{
	char a0[] = "blocksize", a1[] = "api", a2[] = "--fsync", a3[] = "none";
	char b0[] = "bufsize", b1[] = "--files", b2[] = "3", b3[] = "--size",
	     b4[] = "1000", b5[] = "--cache", b6[] = "asis";
	char *bs[] = { a0 }, *api[] = { a1, a2, a3 };
	char *buf[] = { b0, b1, b2, b3, b4, b5, b6 };
	struct { char **argv; int argc; } sweeps[] = { { bs, 1 }, { api, 3 }, { buf, 7 } };
	static const struct {
		int sweep, op, api;
		uint64_t block, bufsize;
		const char *id;
	} want[] = {
		{ 0, OP_WRITE, API_SYSCALL, 4096, 0,
		  "1x10485760/sweep-blocksize/syscall/write/4096/warm/fsync=file" },
		{ 0, OP_READ, API_STDIO, 5, 65536,
		  "1x10485760/sweep-blocksize/stdio-65536/read/5/warm/fsync=file" },
		{ 1, OP_READ, AV_MMAP, 0, 0,
		  "1x10485760/sweep-api/mmap/read/10485760/whole/warm/fsync=none" },
		{ 1, OP_WRITE, AV_STDIO_CALL, 32, 0,
		  "1x10485760/sweep-api/stdio-callsize/write/32/warm/fsync=none" },
		{ 2, OP_READ, API_SYSCALL, 1024, 0,
		  "3x1000/sweep-bufsize/syscall/read/1024/asis/fsync=file" },
	};
	struct sweep_opts o;
	char id[CONFIG_ID_MAX];

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK(opts_of(&o, sweeps[want[i].sweep].argv, sweeps[want[i].sweep].argc) == 0,
		      "%s", sweeps[want[i].sweep].argv[0]);
		cmd_id(&o, want[i].op, want[i].api, want[i].block, want[i].bufsize, id,
		       sizeof(id));
		CHECK(!strcmp(id, want[i].id), "%s, not %s", id, want[i].id);
	}
	return 0;
}

static char dir[] = "/tmp/iostrat-unit-sweepid.XXXXXX";

/* The id the bench gives the one configuration of a [sweep-KIND] section. */
static int bench_id(const char *ini, char *id, size_t len)
{
	char path[256];
	struct profile p;
	struct bench_ctx ctx;
	struct bench_item bi;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/p.ini", dir);
	f = fopen(path, "w");
	CHECK(f && fputs(ini, f) >= 0 && !fclose(f), "writing %s", path);
	CHECK(!profile_load(path, NULL, 0, &p) && p.n == 1, "%s", ini);
	memset(&ctx, 0, sizeof(ctx));
	memset(&bi, 0, sizeof(bi));
	bi.pc = &p.confs[0];
	ret = p.confs[0].kind->prepare(&ctx, &bi);
	snprintf(id, len, "%s", bi.id);
	bench_item_release(p.confs[0].kind, &bi);
	profile_free(&p);
	CHECK(ret == 0, "prepare: %d", ret);
	return 0;
}

UNIT(bench_section_makes_the_commands_id)
{
	char a0[] = "api", a1[] = "--cache", a2[] = "cold", a3[] = "--size", a4[] = "64k";
	char b0[] = "blocksize", b1[] = "--fsync=none";
	char *api[] = { a0, a1, a2, a3, a4 }, *bs[] = { b0, b1 };
	struct sweep_opts o;
	char want[CONFIG_ID_MAX], got[CONFIG_ID_MAX];

	CHECK(mkdtemp(dir), "mkdtemp");
	CHECK(opts_of(&o, api, 5) == 0, "api");
	cmd_id(&o, OP_READ, AV_IOSTREAM_DEFAULT, 4096, 0, want, sizeof(want));
	CHECK(!bench_id("[sweep-api]\nop=read\napi=iostream-default\nblock=4k\n"
			"size=65536\ncache=cold\n", got, sizeof(got)), "bench");
	CHECK(!strcmp(got, want), "bench %s, command %s", got, want);
	CHECK(opts_of(&o, bs, 2) == 0, "blocksize");
	cmd_id(&o, OP_WRITE, API_STDIO, 7, 4096, want, sizeof(want));
	CHECK(!bench_id("[sweep-blocksize]\nop=write\napi=stdio\nbuffer=4k\nblock=7\n"
			"fsync=none\n", got, sizeof(got)), "bench");
	CHECK(!strcmp(got, want), "bench %s, command %s", got, want);
	return 0;
}

static int sweep_dir_removed(int failed)
{
	if (dir[sizeof(dir) - 7] != 'X') {
		char p[256];

		snprintf(p, sizeof(p), "%s/p.ini", dir);
		unlink(p);
		rmdir(dir);
	}
	return failed;
}
UNIT_FIXTURE(NULL, sweep_dir_removed)
