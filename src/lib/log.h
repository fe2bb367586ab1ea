/* SPDX-License-Identifier: MIT */
/* The one printer of errors and warnings. */
#ifndef IOSTRAT_LIB_LOG_H
#define IOSTRAT_LIB_LOG_H

#include <stdarg.h>

extern const char *progname;

/* The one place errors reach the user: "iostrat: <msg>" on stderr. */
void errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* errorf for a negative errno about a path: "iostrat: PATH: WHAT: reason". */
int error_errno(int err, const char *path, const char *what);

#endif
