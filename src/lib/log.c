// SPDX-License-Identifier: MIT
/* Messages to the user: the one printer of errors and warnings. */
#include <string.h>

#include "util.h"

const char *progname = "iostrat";

static void vmsg(const char *tag, const char *fmt, va_list ap)
{
	char buf[2048];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "%s: %s%s\n", progname, tag, buf);
}

void errorf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void warnf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

int error_errno(int err, const char *path, const char *what)
{
	errorf("%s: %s: %s", path, what, strerror(-err));
	return err;
}
