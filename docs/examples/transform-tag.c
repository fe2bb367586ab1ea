// SPDX-License-Identifier: MIT
/*
 * An example iostrat transform plug-in: each line upper-cased, behind a
 * tag given as ARG (at most 64 bytes): `--transform ./tag.so:ERR-` turns
 * "disk full" into "ERR-DISK FULL".  Lines that are empty are dropped.
 *
 * Build:  cc -O2 -shared -fPIC -I/usr/include -o tag.so transform-tag.c
 *         (from a checkout: -Iinclude)
 * Run:    iostrat run -s uring --transform ./tag.so:ERR- DATA OUT
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <iostrat/transform.h>

#define TAG_MAX 64

struct tag {
	size_t len;
	char text[TAG_MAX];
};

static int tag_init(const char *arg, void **state)
{
	struct tag *t;

	if (strlen(arg) > TAG_MAX)
		return -EINVAL;
	t = malloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->len = strlen(arg);
	memcpy(t->text, arg, t->len);
	*state = t;
	return 0;
}

static void tag_fini(void *state)
{
	free(state);
}

static size_t tag_out_max(size_t len)
{
	return TAG_MAX + len;
}

static ssize_t tag_record(void *state, const unsigned char *in, size_t len,
			  unsigned char *out)
{
	const struct tag *t = state;

	if (!len)
		return 0;
	memcpy(out, t->text, t->len);
	for (size_t i = 0; i < len; i++)
		out[t->len + i] = (unsigned char)toupper(in[i]);
	return (ssize_t)(t->len + len);
}

IOSTRAT_TRANSFORM_DEFINE(.name = "tag", .version = 1, .kind = IOSTRAT_RECORD_LINE,
			 .out_max = tag_out_max, .init = tag_init, .fini = tag_fini,
			 .record = tag_record);
