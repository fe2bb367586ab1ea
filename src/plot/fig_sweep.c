// SPDX-License-Identifier: MIT
/*
 * Figure 7a, the sweeps (kind=sweep rows of `iostrat sweep blocksize |
 * bufsize | api`): per sweep, elapsed and CPU time against the block or
 * buffer size, one line pair per variant, one panel per operation.
 *
 * sweep-KIND.dat: one block per operation (read, write); header
 *   "panel title" V1 C1 max "V1 CPU" min max V2 ...   (Cn: colour index)
 * then one line per block size: size in bytes, per variant the median, min
 * and max elapsed seconds, then the same of CPU seconds (user + system).
 */
#include <string.h>

#include "plot.h"

static void size_line(struct dat *d, json_t *rows, json_t *size, json_t *variants,
		      const bool *ok)
{
	json_t *at = rows_where(rows, "block_size", size), *v;
	char b[32];
	size_t j;

	fputs(val_text(size, b, sizeof(b)), d->f);
	json_array_foreach(variants, j, v) {
		json_t *r;

		if (!ok[j])
			continue;
		r = rows_where(at, "variant", v);
		struct summary el, cpu;

		rows_stat(r, RC_ELAPSED, 1, &el);
		rows_stat_cpu(r, &cpu);
		dat_summary(d, &el);
		dat_summary(d, &cpu);
		json_decref(r);
	}
	fputc('\n', d->f);
	json_decref(at);
}

static void op_block(struct dat *d, json_t *rows, json_t *op, json_t *variants)
{
	json_t *sizes = rows_distinct(rows, "block_size"), *v, *sz;
	size_t nv = json_array_size(variants), j;
	bool ok[nv ? nv : 1];
	char b[64], lab[128];

	memset(ok, 0, sizeof(ok));
	snprintf(lab, sizeof(lab), "%s", val_text(op, b, sizeof(b))[0] ? b : "-");
	dat_label(d, lab);
	json_array_foreach(variants, j, v) {
		json_t *r = rows_where(rows, "variant", v);

		/* a variant absent from this operation would be an empty line */
		ok[j] = rows_have_number(r, RC_ELAPSED);
		json_decref(r);
		if (!ok[j])
			continue;
		val_text(v, b, sizeof(b));
		fputc(' ', d->f);
		dat_label(d, b);
		fprintf(d->f, " %zu max \"%s CPU\" min max", j + 1, b);
	}
	fputc('\n', d->f);
	json_array_foreach(sizes, j, sz)
		if (json_is_number(sz))
			size_line(d, rows, sz, variants, ok);
	json_decref(sizes);
}

static const char *sweep_title(const char *kind)
{
	if (!strcmp(kind, "blocksize"))
		return "Block size: write then read with N-byte blocks, straight to the system call or through a buffer";
	if (!strcmp(kind, "bufsize"))
		return "Buffer size: elapsed time plateaus early, CPU time keeps falling";
	if (!strcmp(kind, "api"))
		return "API comparison: system calls, stdio and iostreams (-default: the library's buffer; -callsize: buffer = call size), mmap";
	return "Sweep";
}

static void sweep_title_of(const struct fig_group *g, char *buf, size_t len)
{
	snprintf(buf, len, "%s (median, bars min..max)", sweep_title(g->name[0]));
}

/* One image: sweep g->name[0], a panel per operation. */
static size_t sweep_write(const struct fig_group *g, struct dat *d)
{
	json_t *ops = rows_distinct(g->rows, "operation");
	json_t *variants = rows_distinct(g->rows, "variant"), *op;
	size_t i;

	json_array_foreach(ops, i, op) {
		json_t *r = rows_where(g->rows, "operation", op);

		dat_block(d, i);
		op_block(d, r, op, variants);
		json_decref(r);
	}
	json_decref(ops);
	json_decref(variants);
	return 1;
}

static bool has_sizes(json_t *rows)
{
	return rows_have_number(rows, "block_size");
}

static const char *const need[] = { "sweep", "variant", "block_size", RC_ELAPSED, NULL };

const struct fig_kind fig_sweep = {
	.kind = "sweep", .need = need, .none = "no sweep rows (iostrat sweep)",
	.by = { "sweep" }, .unnamed = { "other" }, .want = has_sizes,
	.title_of = sweep_title_of, .write = sweep_write,
};
