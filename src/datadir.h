/* SPDX-License-Identifier: MIT */
#ifndef IOSTRAT_DATADIR_H
#define IOSTRAT_DATADIR_H

#include <stddef.h>

/*
 * The shipped data files (profiles/, fio-jobs/, plots/) of the binary
 * running: beside it in a checkout (build/iostrat -> ../SUB), or installed
 * (PREFIX/bin/iostrat -> PREFIX/share/iostrat/SUB: /usr/share/iostrat for
 * the Debian package, /usr/local/share/iostrat for make install).
 *
 * datadir_file: SUB/NAME, or SUB/NAME.EXT, in the first of those places
 * that has it: 0 and the path in out, or -ENOENT.
 */
int datadir_file(const char *sub, const char *name, const char *ext,
		 char *out, size_t len);

#endif
