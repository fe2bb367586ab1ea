/* SPDX-License-Identifier: MIT */
/* Where the shipped data files of the running binary are. */
#ifndef IOSTRAT_DATADIR_H
#define IOSTRAT_DATADIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The shipped data files (profiles/, fio-jobs/, plots/) of the binary
 * running: beside it in a checkout (build/iostrat -> ../SUB), installed
 * (PREFIX/bin/iostrat -> PREFIX/share/iostrat/SUB: /usr/share/iostrat for
 * the Debian package, /usr/local/share/iostrat for make install), or in
 * the binary's own directory (DIR/iostrat -> DIR/SUB).
 *
 * datadir_file: SUB/NAME, or SUB/NAME.EXT, in the first of those places
 * that has it: 0 and the path in out, or -ENOENT.
 */
int datadir_file(const char *sub, const char *name, const char *ext,
		 char *out, size_t len);

/*
 * datadir_dir: the directory SUB in the first of those places for which
 * ok(path) is true: 0 and the path in out, or -ENOENT.
 */
int datadir_dir(const char *sub, bool (*ok)(const char *dir), char *out,
		size_t len);

#endif
