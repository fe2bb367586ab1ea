// SPDX-License-Identifier: MIT
/* The limits table: each limit's median MB/s, its interval, n and CPU per GB, from its rows. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/row.h"
#include "results/limit.h"
#include "limits.h"

static int limit_index(const char *name)
{
	for (int i = 0; limit_names[i]; i++)
		if (name && !strcmp(limit_names[i], name))
			return i;
	return -1;
}

/* The row's transform, as 24 bits of a key. */
static long long transform_bits(json_t *row)
{
	unsigned long long h = 1469598103934665603ULL; /* FNV-1a */

	for (const char *p = limit_transform_of(row); *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return (long long)(h & 0xffffff);
}

/* The row's limit, transform and W as a sort key; -1 for a row that is
 * not a good timed limits row. */
static long long row_key(json_t *row)
{
	const char *kind = json_string_value(json_object_get(row, "kind"));
	int li = limit_index(json_string_value(json_object_get(row, "limit")));

	if (!kind || strcmp(kind, "limits") || li < 0 || !row_timed(row) ||
	    !json_is_null(json_object_get(row, "error")) ||
	    !json_is_number(json_object_get(row, RC_MB_S)))
		return -1;
	return (long long)li << 56 | transform_bits(row) << 32 |
	       (long long)json_integer_value(json_object_get(row, RC_WORK));
}

/* The summary of the rows of one key. */
static void one(json_t *rows, long long key, double *mb, double *cpu,
		struct limit_summary *s)
{
	size_t i, n = 0;
	json_t *row, *first = NULL;
	int li = (int)(key >> 56);

	memset(s, 0, sizeof(*s));
	json_array_foreach(rows, i, row) {
		if (row_key(row) != key)
			continue;
		first = first ? first : row;
		mb[n] = json_number_value(json_object_get(row, RC_MB_S));
		cpu[n++] = limit_cpu_s_gb(row, "cpu_user_s", "cpu_sys_s", "bytes");
		s->reused += json_is_string(json_object_get(row, "reused_from"));
	}
	if (li == LIMIT_TRANSFORM && first && strcmp(limit_transform_of(first), "xor"))
		snprintf(s->name, sizeof(s->name), "transform %.30s", limit_transform_of(first));
	else if (li == LIMIT_TRANSFORM)
		snprintf(s->name, sizeof(s->name), "transform w=%u", (unsigned)(key & 0xffffffff));
	else
		snprintf(s->name, sizeof(s->name), "%s", limit_names[li]);
	limit_est_of(mb, n, &s->est);
	s->est.cpu_s_gb = limit_finite_median(cpu, n);
}

static int cmp_keys(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* The distinct keys of rows, sorted: *nk of them in keys. */
static void distinct_keys(json_t *rows, long long *keys, size_t *nk)
{
	size_t i, n = 0;
	json_t *row;

	json_array_foreach(rows, i, row)
		if ((keys[n] = row_key(row)) >= 0)
			n++;
	qsort(keys, n, sizeof(*keys), cmp_keys);
	*nk = 0;
	for (i = 0; i < n; i++)
		if (!*nk || keys[*nk - 1] != keys[i])
			keys[(*nk)++] = keys[i];
}

int limits_summarize(json_t *rows, struct limit_summary **out, size_t *n)
{
	size_t nrows = json_array_size(rows) + 1, nk;
	long long *keys = calloc(nrows, sizeof(*keys));
	double *mb = calloc(nrows, sizeof(*mb)), *cpu = calloc(nrows, sizeof(*cpu));
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (!keys || !mb || !cpu) {
		ret = -ENOMEM;
		goto out;
	}
	distinct_keys(rows, keys, &nk);
	if (nk && !(*out = calloc(nk, sizeof(**out)))) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t k = 0; k < nk; k++)
		one(rows, keys[k], mb, cpu, &(*out)[k]);
	*n = nk;
out:
	free(keys);
	free(mb);
	free(cpu);
	return ret;
}

void limits_print(const struct limit_summary *s, size_t n, FILE *f)
{
	fprintf(f, "%-22s %10s %-24s %4s %12s\n", "limit", "MB/s", "interval", "n",
		"CPU s/GB");
	for (size_t i = 0; i < n; i++) {
		const struct limit_est *e = &s[i].est;
		char iv[64];

		snprintf(iv, sizeof(iv), "%.1f-%.1f (%s)", e->lo, e->hi,
			 e->range ? "min-max" : "95%");
		fprintf(f, "%-22s %10.1f %-24s %4zu %12.3f%s\n", s[i].name, e->median, iv,
			e->n, e->cpu_s_gb, s[i].reused ? "  reused" : "");
	}
}
