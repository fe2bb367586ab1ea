// SPDX-License-Identifier: MIT
/*
 * sweep api: the same write and read at buffer sizes 32 B .. 32 KiB and
 * the whole file at once, through the raw system calls, C stdio and C++
 * iostreams (each with the library's default buffer and with a buffer of
 * the call size) and mmap; then the score table of the original study,
 * once per set of variants (apivar.c), and the system calls each made.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "lib/util.h"
#include "score.h"
#include "sweep.h"

static int build(struct sweep_run *r)
{
	const struct sweep_opts *o = r->o;

	for (int op = OP_WRITE; op <= OP_READ; op++) {
		if (!(o->ops & (1u << op)))
			continue;
		for (size_t s = 0; s < o->nsizes; s++)
			for (int v = 0; v < AV_N; v++) {
				size_t b = o->sizes[s];

				if (!(o->avariants & (1u << v)))
					continue;
				if (!sweep_add_api_cfg(r, (enum sweep_op)op,
						       (enum api_variant)v, b,
						       b == SWEEP_WHOLE))
					return error_errno(-ENOMEM, "sweep api",
							   "configurations");
			}
	}
	return 0;
}

static const struct sweep_cfg *find(const struct sweep_run *r, enum sweep_op op,
				    int av, size_t s)
{
	size_t b = r->o->sizes[s];

	for (size_t i = 0; i < r->ncfgs; i++) {
		const struct sweep_cfg *c = &r->cfgs[i];

		if (c->op == op && (int)c->av == av &&
		    (b == SWEEP_WHOLE ? c->whole : !c->whole && c->block == b))
			return c;
	}
	return NULL;
}

/* The variants of mask, in table order: their count. */
static size_t members(unsigned mask, int *av)
{
	size_t n = 0;

	for (int v = 0; v < AV_N; v++)
		if (mask & (1u << v))
			av[n++] = v;
	return n;
}

static void print_order(FILE *f, const char *label, const int *totals,
			const int *av, size_t nv)
{
	size_t order[AV_N];

	score_order(totals, nv, order);
	fprintf(f, "%s", label);
	for (size_t i = 0; i < nv; i++)
		fprintf(f, "%s%s (%d)", i ? " > " : " ",
			sweep_api_variant((enum api_variant)av[order[i]])->name,
			totals[order[i]]);
	fputc('\n', f);
}

static void print_header(FILE *f, const int *av, size_t nv)
{
	fprintf(f, "%8s", "buffer");
	for (size_t j = 0; j < nv; j++)
		fprintf(f, " %18s", sweep_api_variant((enum api_variant)av[j])->name);
	fputc('\n', f);
}

static const char *size_of(const struct sweep_run *r, size_t s, char *b,
			   size_t len)
{
	return sweep_size_str(r->o->sizes[s], r->o->sizes[s] == SWEEP_WHOLE, b, len);
}

/* One operation within a set: medians in ms with the points; totals out. */
static void print_op(const struct sweep_run *r, enum sweep_op op, const int *av,
		     size_t nv, int *totals, FILE *f)
{
	size_t ns = r->o->nsizes;
	double med[SWEEP_MAX_SIZES * AV_N] = { 0 };
	int pts[SWEEP_MAX_SIZES * AV_N] = { 0 };
	char sz[32];

	for (size_t s = 0; s < ns; s++)
		for (size_t j = 0; j < nv; j++) {
			const struct sweep_cfg *c = find(r, op, av[j], s);

			med[s * nv + j] = c ? c->med_el : NAN;
		}
	score_table(med, ns, nv, pts, totals);
	fprintf(f, "\n%s: median elapsed ms (points; the fastest of k variants gets k)\n",
		sweep_op_name(op));
	print_header(f, av, nv);
	for (size_t s = 0; s < ns; s++) {
		fprintf(f, "%8s", size_of(r, s, sz, sizeof(sz)));
		for (size_t j = 0; j < nv; j++)
			fprintf(f, " %13.3f (%2d)", med[s * nv + j] * 1e3, pts[s * nv + j]);
		fputc('\n', f);
	}
	fprintf(f, "%8s", "points");
	for (size_t j = 0; j < nv; j++)
		fprintf(f, " %18d", totals[j]);
	fputc('\n', f);
	print_order(f, "order:", totals, av, nv);
}

/* One set: its score tables and overall order. */
static void print_set(const struct sweep_run *r, const struct api_set *set,
		      unsigned mask, FILE *f)
{
	int av[AV_N], totals[2][AV_N] = { { 0 } }, all[AV_N];
	size_t nv = members(mask, av);

	fprintf(f, "\n== %s: %s\n", set->name, set->title);
	for (int op = OP_WRITE; op <= OP_READ; op++)
		if (r->o->ops & (1u << op))
			print_op(r, (enum sweep_op)op, av, nv, totals[op], f);
	for (size_t j = 0; j < nv; j++)
		all[j] = totals[0][j] + totals[1][j];
	if ((r->o->ops & 3) == 3)
		print_order(f, "\noverall (write + read points):", all, av, nv);
}

/* Median system calls of every variant run: the batching a buffer buys. */
static void print_syscalls(const struct sweep_run *r, enum sweep_op op, FILE *f)
{
	int av[AV_N];
	size_t nv = members(r->o->avariants, av);
	char sz[32];

	fprintf(f, "\n%s: median read/write system calls per run\n", sweep_op_name(op));
	print_header(f, av, nv);
	for (size_t s = 0; s < r->o->nsizes; s++) {
		fprintf(f, "%8s", size_of(r, s, sz, sizeof(sz)));
		for (size_t j = 0; j < nv; j++) {
			const struct sweep_cfg *c = find(r, op, av[j], s);

			fprintf(f, " %18.0f", c ? c->med_sc : NAN);
		}
		fputc('\n', f);
	}
}

/* What each variant is, with the default buffer the library really used. */
static void print_legend(const struct sweep_run *r, FILE *f)
{
	for (int v = 0; v < AV_N; v++) {
		const struct api_variant_def *d = sweep_api_variant((enum api_variant)v);
		uint64_t used = 0;

		if (!(r->o->avariants & (1u << v)))
			continue;
		for (size_t i = 0; i < r->ncfgs && !used; i++)
			if ((int)r->cfgs[i].av == v && d->libbuf == LIBBUF_DEFAULT)
				used = r->cfgs[i].lib_buf_used;
		fprintf(f, "  %-18s %s", d->name, d->what);
		if (used)
			fprintf(f, ": %llu B", (unsigned long long)used);
		fputc('\n', f);
	}
}

static void print_table(const struct sweep_run *r, FILE *f)
{
	size_t nsets;
	const struct api_set *sets = sweep_api_sets(&nsets);
	unsigned done[8] = { 0 };

	fprintf(f, "sweep api: one %llu-byte file, %u repetitions (medians), reads "
		"%s cache, writes %s\n", (unsigned long long)r->data_size,
		r->o->reps, cache_mode_name(r->o->cache),
		r->o->fsync == FSYNC_FILE ? "fsync'd inside the time" : "not fsync'd");
	print_legend(r, f);
	/*
	 * Points depend on who competes: score each set on its own.  A set
	 * whose variants that ran were all in a set printed already (syscall
	 * and mmap are in every set) would only repeat it.
	 */
	for (size_t i = 0; i < nsets && i < ARRAY_SIZE(done); i++) {
		unsigned mask = sets[i].mask & r->o->avariants;
		bool seen = !mask;

		for (size_t k = 0; k < i; k++)
			seen |= (mask & ~done[k]) == 0;
		if (seen)
			continue;
		done[i] = mask;
		print_set(r, &sets[i], mask, f);
	}
	for (int op = OP_WRITE; op <= OP_READ; op++)
		if (r->o->ops & (1u << op))
			print_syscalls(r, (enum sweep_op)op, f);
	fputs("syscalls: raw calls counted by iostrat; stdio and iostreams by the "
	      "kernel (/proc/self/io); mmap makes none (page faults)\n", f);
}

int sweep_api(const struct sweep_opts *o, FILE *out)
{
	return sweep_main(o, out, 1, o->size, build, print_table);
}
