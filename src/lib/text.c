// SPDX-License-Identifier: MIT
/* Text that reaches JSON, headings and labels: UTF-8 kept, other bytes escaped. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

/* Length of the valid UTF-8 sequence at s, or 0 (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF). */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned c = s[0], n, cp, min;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

const char *text_escape(const char *s, char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0;

	if (!len)
		return buf;
	while (*u) {
		size_t n = utf8_seq(u);
		size_t need = n ? n : 4;

		if (o + need >= len)
			break;
		if (n)
			memcpy(buf + o, u, n);
		else
			snprintf(buf + o, 5, "\\x%02x", *u);
		o += need;
		u += n ? n : 1;
	}
	buf[o] = 0;
	return buf;
}

void label_from_name(const char *name, char *buf, size_t len)
{
	size_t o = 0;

	for (const unsigned char *c = (const unsigned char *)name; *c && o + 1 < len; c++) {
		if (*c >= 0x20 && *c != 0x7f) {
			buf[o++] = (char)*c;
			continue;
		}
		if (o + 5 > len)
			break;
		o += (size_t)snprintf(buf + o, len - o, "\\x%02x", *c);
	}
	if (len)
		buf[o < len ? o : len - 1] = 0;
}

int label_check(const char *opt, const char *label)
{
	char b[96];

	if (!*label)
		return errorf("%s: empty label", opt), -EINVAL;
	for (const unsigned char *c = (const unsigned char *)label; *c; c++) {
		if (*c == '/' || *c < 0x20 || *c == 0x7f) {
			label_from_name(label, b, sizeof(b));
			return errorf("%s: '%s': %s (a label is one field of config_id "
				      "and a report heading)", opt, b, *c == '/' ?
				      "contains '/'" : "contains a control character"), -EINVAL;
		}
	}
	return 0;
}

json_t *json_text(const char *s)
{
	size_t bad = 0, n;
	const unsigned char *u = (const unsigned char *)s;
	char *buf;
	json_t *j;

	if (!s)
		return json_null();
	for (; *u; u += n ? n : 1)
		if (!(n = utf8_seq(u)))
			bad++;
	if (!bad)
		return json_string(s);
	n = strlen(s) + 3 * bad + 1;
	buf = malloc(n);
	if (!buf)
		return NULL;
	j = json_string(text_escape(s, buf, n));
	free(buf);
	return j;
}

const char *bool_word(bool b)
{
	return b ? "yes" : "no";
}

const char *fmt_limit(unsigned long long bytes, char *buf, size_t len)
{
	if (bytes && !(bytes % (1024 * 1024)))
		snprintf(buf, len, "%llu MiB", bytes / (1024 * 1024));
	else if (bytes && !(bytes % 1024))
		snprintf(buf, len, "%llu KiB", bytes / 1024);
	else
		snprintf(buf, len, "%llu bytes", bytes);
	return buf;
}
