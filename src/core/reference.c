// SPDX-License-Identifier: MIT
/* The reference of a record transform: the simplest reader (stdio, one record at a time) feeding a sink, and the check that two runs agree. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "lib/util.h"

/* One record's output (its newline after it when the input had one and
 * the output is kept) to sink: 0 or -errno. */
static int one(struct xform_worker *w, const uint8_t *rec, size_t n, bool nl,
	       uint8_t **out, size_t *cap, xform_sink_fn sink, void *ctx)
{
	size_t need = w->x->t->out_max(n) + 1;
	ssize_t r;

	if (n > IOSTRAT_RECORD_MAX)
		return -E2BIG;
	if (need < 2)
		need = 2; /* out_max of 0 (or wrapped): room for the newline */
	if (need > *cap || !*out) {
		uint8_t *p = realloc(*out, need);

		if (!p)
			return -ENOMEM;
		*out = p;
		*cap = need;
	}
	r = w->x->t->record(w->state, rec, n, *out);
	if (r < 0)
		return (int)r;
	if ((size_t)r > need - 1)
		return -EOVERFLOW;
	if (r && nl)
		(*out)[r++] = '\n';
	return r ? sink(ctx, *out, (size_t)r) : 0;
}

int reference_file(const struct xform *x, const char *path, xform_sink_fn sink,
		   void *ctx)
{
	struct xform_worker w;
	FILE *f = fopen(path, "re");
	char *line = NULL;
	uint8_t *out = NULL;
	size_t cap = 0, ocap = 0;
	ssize_t n;
	bool inited;
	int ret;

	if (!f)
		return -errno;
	ret = xform_worker_init(x, &w);
	inited = !ret;
	while (!ret) {
		bool nl = false;

		if (x->t->kind == IOSTRAT_RECORD_FIXED) {
			if (!line && !(line = malloc(cap = x->t->record_size))) {
				ret = -ENOMEM;
				break;
			}
			n = (ssize_t)fread(line, 1, x->t->record_size, f);
		} else {
			n = getline(&line, &cap, f);
			nl = n > 0 && line[n - 1] == '\n';
		}
		if (n <= 0) {
			ret = ferror(f) ? -EIO : 0;
			break;
		}
		ret = one(&w, (const uint8_t *)line, (size_t)n - nl, nl, &out, &ocap,
			  sink, ctx);
	}
	if (inited)
		xform_worker_fini(&w);
	free(line);
	free(out);
	fclose(f);
	return ret;
}
