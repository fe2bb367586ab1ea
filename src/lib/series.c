// SPDX-License-Identifier: MIT
/* A bounded rate series (read and write MB/s per interval) and its compact text form. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"

void series_init(struct series *s, unsigned base_ms)
{
	memset(s, 0, sizeof(*s));
	s->base_ms = s->step_ms = base_ms;
}

/* Full: neighbours merge, the step doubles. */
static void halve(struct series *s)
{
	for (size_t i = 0; i < s->n / 2; i++) {
		s->rd[i] = (s->rd[2 * i] + s->rd[2 * i + 1]) / 2;
		s->wr[i] = (s->wr[2 * i] + s->wr[2 * i + 1]) / 2;
	}
	s->n /= 2;
	s->step_ms *= 2;
}

void series_add(struct series *s, double rd_mbs, double wr_mbs)
{
	s->acc_rd += rd_mbs;
	s->acc_wr += wr_mbs;
	if (++s->acc_n < s->step_ms / s->base_ms)
		return;
	if (s->n == SERIES_MAX) {
		halve(s); /* the interval under way is the first half of one now */
		return;
	}
	s->rd[s->n] = (float)(s->acc_rd / s->acc_n);
	s->wr[s->n++] = (float)(s->acc_wr / s->acc_n);
	s->acc_rd = s->acc_wr = 0;
	s->acc_n = 0;
}

void series_coarsen(struct series *s, size_t max)
{
	while (max && s->n > max)
		halve(s);
}

/* A rate with one decimal, "12" for 12.0, into buf. */
static const char *rate(double v, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%.1f", v);

	if (n >= 2 && n < len && !strcmp(buf + n - 2, ".0"))
		buf[n - 2] = 0;
	return buf;
}

char *series_format(const struct series *s)
{
	size_t len = 24 + s->n * 32, o;
	char *buf = malloc(len), r[16], w[16];

	if (!buf)
		return NULL;
	o = (size_t)snprintf(buf, len, "%u:", s->step_ms);
	for (size_t i = 0; i < s->n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s/%s", i ? " " : "",
				      rate(s->rd[i], r, sizeof(r)), rate(s->wr[i], w, sizeof(w)));
	return buf;
}

/* "R/W" at *p into rd, wr; *p past it: 0 or -EINVAL. */
static int pair(const char **p, float *rd, float *wr)
{
	char *end;

	*rd = strtof(*p, &end);
	if (end == *p || *end != '/' || *rd < 0)
		return -EINVAL;
	*p = end + 1;
	*wr = strtof(*p, &end);
	if (end == *p || (*end && *end != ' ') || *wr < 0)
		return -EINVAL;
	*p = *end ? end + 1 : end;
	return 0;
}

int series_parse(const char *text, struct series *s)
{
	unsigned long step;
	const char *p;
	char *end;

	step = strtoul(text, &end, 10);
	if (end == text || *end != ':' || !step || step > 1u << 30)
		return -EINVAL;
	series_init(s, (unsigned)step);
	for (p = end + 1; *p; s->n++)
		if (s->n == SERIES_MAX || pair(&p, &s->rd[s->n], &s->wr[s->n]))
			return -EINVAL;
	return 0;
}
