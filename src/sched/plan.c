// SPDX-License-Identifier: MIT
/* The settings `iostrat sched` compares: schedulers crossed with the --set axes. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "plan.h"
#include "sysq.h"

/* Where split's items go. */
struct split_items {
	const char *opt;
	char (*out)[32];
	size_t max, *n;
};

/* One item, kept once: no '/', ' ' or '=', under 32 bytes. */
static int split_item(char *w, void *ctx)
{
	struct split_items *s = ctx;

	if (strlen(w) >= 32 || strpbrk(w, "/ =")) {
		errorf("%s: bad item '%s'", s->opt, w);
		return -EINVAL;
	}
	for (size_t i = 0; i < *s->n; i++)
		if (!strcmp(s->out[i], w))
			return 0;
	if (*s->n >= s->max) {
		errorf("%s: more than %zu values", s->opt, s->max);
		return -E2BIG;
	}
	snprintf(s->out[(*s->n)++], 32, "%s", w);
	return 0;
}

/* Split "a,b,c" into out[][32]; no empty or over-long items. */
static int split(const char *opt, const char *list, char out[][32],
		 size_t max, size_t *n)
{
	struct split_items s = { opt, out, max, n };

	*n = 0;
	if (!list || !*list || strstr(list, ",,") || list[0] == ',' ||
	    list[strlen(list) - 1] == ',') {
		errorf("%s: bad list '%s' (a,b,c)", opt, list ? list : "");
		return -EINVAL;
	}
	return words_each(list, ",", split_item, &s);
}

int plan_schedulers(struct sched_plan *p, const char *list)
{
	return split("--schedulers", list, p->schedulers, SCHED_VALUES, &p->nsched);
}

int plan_axis(struct sched_plan *p, const char *spec)
{
	const char *eq = strchr(spec, '=');
	struct sched_axis *a;
	char attr[32];

	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(attr)) {
		errorf("--set '%s': want ATTR=V1,V2 (read_ahead_kb, nr_requests, wbt_lat_usec)", spec);
		return -EINVAL;
	}
	snprintf(attr, sizeof(attr), "%.*s", (int)(eq - spec), spec);
	if (!sysq_settable(attr)) {
		errorf("--set %s: not a setting sched changes (read_ahead_kb, nr_requests, wbt_lat_usec)", attr);
		return -EINVAL;
	}
	for (size_t i = 0; i < p->naxes; i++)
		if (!strcmp(p->axes[i].attr, attr)) {
			errorf("--set %s: given twice", attr);
			return -EINVAL;
		}
	if (p->naxes >= SCHED_AXES)
		return -E2BIG;
	a = &p->axes[p->naxes];
	snprintf(a->attr, sizeof(a->attr), "%s", attr);
	if (split("--set", eq + 1, a->values, SCHED_VALUES, &a->n))
		return -EINVAL;
	for (size_t i = 0; i < a->n; i++) {
		uint64_t v;
		/* wbt_lat_usec takes -1 (the kernel's default) */
		bool ok = !parse_u64(a->values[i], &v) ||
			  (!strcmp(attr, "wbt_lat_usec") && !strcmp(a->values[i], "-1"));

		if (!ok) {
			errorf("--set %s: bad value '%s' (a whole number)", attr, a->values[i]);
			return -EINVAL;
		}
	}
	p->naxes++;
	return 0;
}

int plan_expand(struct sched_plan *p, const char *current)
{
	size_t total = p->nsched ? p->nsched : 1;

	if (!p->nsched) {
		snprintf(p->schedulers[0], 32, "%s", current);
		p->nsched = 1;
	}
	for (size_t i = 0; i < p->naxes; i++)
		total *= p->axes[i].n;
	p->set = calloc(total, sizeof(*p->set));
	if (!p->set)
		return -ENOMEM;
	for (size_t k = 0; k < total; k++) {
		struct sched_setting *s = &p->set[k];
		size_t rest = k / p->nsched, off;

		snprintf(s->scheduler, sizeof(s->scheduler), "%s",
			 p->schedulers[k % p->nsched]);
		off = (size_t)snprintf(s->label, sizeof(s->label), "%s", s->scheduler);
		for (size_t i = 0; i < p->naxes; i++) {
			const struct sched_axis *a = &p->axes[i];

			snprintf(s->attr[i], 32, "%s", a->attr);
			snprintf(s->value[i], 32, "%s", a->values[rest % a->n]);
			rest /= a->n;
			off += (size_t)snprintf(s->label + off,
						off < sizeof(s->label) ? sizeof(s->label) - off : 0,
						",%s=%s", s->attr[i], s->value[i]);
		}
		s->nattr = p->naxes;
	}
	p->nset = total;
	return 0;
}

void plan_free(struct sched_plan *p)
{
	free(p->set);
	p->set = NULL;
}
