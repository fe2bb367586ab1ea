// SPDX-License-Identifier: MIT
/*
 * sweep api: the same write and read at buffer sizes 32 B .. 32 KiB and
 * the whole file at once, through the raw system calls, C stdio
 * (setvbuf to the same size), C++ iostreams (pubsetbuf to the same size)
 * and mmap; then the score table of the original study.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "../util.h"
#include "score.h"
#include "sweep.h"

static int build(struct sweep_run *r)
{
	const struct sweep_opts *o = r->o;

	for (int op = OP_WRITE; op <= OP_READ; op++) {
		if (!(o->ops & (1u << op)))
			continue;
		for (size_t s = 0; s < o->nsizes; s++)
			for (int a = 0; a < API_N; a++) {
				size_t b = o->sizes[s];
				bool whole = b == SWEEP_WHOLE;

				if (!(o->apis & (1u << a)))
					continue;
				/* stdio and iostreams get a buffer of the same size */
				if (!sweep_add_cfg(r, (enum sweep_op)op, (enum sweep_api)a,
						   b, whole, whole ? (size_t)r->data_size : b))
					return error_errno(-ENOMEM, "sweep api",
							   "configurations");
			}
	}
	return 0;
}

static const struct sweep_cfg *find(const struct sweep_run *r, enum sweep_op op,
				    int api, size_t s)
{
	size_t b = r->o->sizes[s];

	for (size_t i = 0; i < r->ncfgs; i++) {
		const struct sweep_cfg *c = &r->cfgs[i];

		if (c->op == op && (int)c->api == api &&
		    (b == SWEEP_WHOLE ? c->whole : !c->whole && c->block == b))
			return c;
	}
	return NULL;
}

static void print_order(FILE *f, const char *label, const int *totals,
			unsigned apis)
{
	size_t order[API_N], n = 0;
	int t[API_N];

	/* only the APIs that ran take part */
	for (int a = 0; a < API_N; a++)
		t[a] = apis & (1u << a) ? totals[a] : -1;
	score_order(t, API_N, order);
	fprintf(f, "%s", label);
	for (size_t i = 0; i < API_N; i++) {
		if (t[order[i]] < 0)
			continue;
		fprintf(f, "%s%s (%d)", n++ ? " > " : " ",
			sweep_api_name((enum sweep_api)order[i]), t[order[i]]);
	}
	fputc('\n', f);
}

/* One operation: medians in ms with the points of each row; totals out. */
static void print_op(const struct sweep_run *r, enum sweep_op op, int *totals,
		     FILE *f)
{
	size_t ns = r->o->nsizes;
	double med[SWEEP_MAX_SIZES * API_N];
	int pts[SWEEP_MAX_SIZES * API_N];

	for (size_t s = 0; s < ns; s++)
		for (int a = 0; a < API_N; a++) {
			const struct sweep_cfg *c = find(r, op, a, s);

			med[s * API_N + a] = c ? c->med_el : NAN;
		}
	score_table(med, ns, API_N, pts, totals);
	fprintf(f, "\n%s: median elapsed ms (points; the fastest of k APIs gets k)\n",
		sweep_op_name(op));
	fprintf(f, "%8s", "buffer");
	for (int a = 0; a < API_N; a++)
		if (r->o->apis & (1u << a))
			fprintf(f, " %18s", sweep_api_name((enum sweep_api)a));
	fputc('\n', f);
	for (size_t s = 0; s < ns; s++) {
		char sz[32];

		fprintf(f, "%8s", sweep_size_str(r->o->sizes[s],
						 r->o->sizes[s] == SWEEP_WHOLE,
						 sz, sizeof(sz)));
		for (int a = 0; a < API_N; a++)
			if (r->o->apis & (1u << a))
				fprintf(f, " %13.3f (%2d)", med[s * API_N + a] * 1e3,
					pts[s * API_N + a]);
		fputc('\n', f);
	}
	fprintf(f, "%8s", "points");
	for (int a = 0; a < API_N; a++)
		if (r->o->apis & (1u << a))
			fprintf(f, " %18d", totals[a]);
	fputc('\n', f);
	print_order(f, "order:", totals, r->o->apis);
}

static void print_table(const struct sweep_run *r, FILE *f)
{
	int totals[2][API_N] = { { 0 } }, all[API_N];

	fprintf(f, "sweep api: one %llu-byte file, %u repetitions (medians), reads "
		"%s cache, writes %s\n", (unsigned long long)r->data_size,
		r->o->reps, cache_mode_name(r->o->cache),
		r->o->fsync ? "fsync'd inside the time" : "not fsync'd");
	for (int op = OP_WRITE; op <= OP_READ; op++)
		if (r->o->ops & (1u << op))
			print_op(r, (enum sweep_op)op, totals[op], f);
	for (int a = 0; a < API_N; a++)
		all[a] = totals[0][a] + totals[1][a];
	if ((r->o->ops & 3) == 3)
		print_order(f, "\noverall (write + read points):", all, r->o->apis);
}

int sweep_api(const struct sweep_opts *o, FILE *out)
{
	return sweep_main(o, out, 1, o->size, build, print_table);
}
