/* SPDX-License-Identifier: MIT */
#ifndef IOSTRAT_UTIL_H
#define IOSTRAT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

extern const char *progname;

/* The one place errors reach the user: "iostrat: <msg>" on stderr. */
void errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* errorf for a negative errno about a path: "iostrat: PATH: WHAT: reason". */
int error_errno(int err, const char *path, const char *what);

/* Numbers from the command line.  All return 0 or -EINVAL/-ERANGE. */
int parse_u64(const char *s, uint64_t *out);
int parse_uint(const char *s, unsigned min, unsigned max, unsigned *out);
/* Sizes with optional units: 4096, 4k, 4K, 4KiB, 1m, 1M, 1MiB, 2g. */
int parse_size(const char *s, uint64_t *out);
int parse_double(const char *s, double *out);
/* Same, but print "iostrat: OPTION: bad value 'S' (why)" on error. */
int opt_uint(const char *opt, const char *s, unsigned min, unsigned max,
	     unsigned *out);
/* As opt_size, for a count (files, lines): no "bytes" in its messages. */
int opt_count(const char *opt, const char *s, uint64_t min, uint64_t max,
	      uint64_t *out);
int opt_size(const char *opt, const char *s, uint64_t min, uint64_t max,
	     uint64_t *out);

/* read/write that retry on EINTR and short transfers.
 * read_full returns bytes read (< len only at EOF) or -errno. */
ssize_t read_full(int fd, void *buf, size_t len);
ssize_t pread_full(int fd, void *buf, size_t len, off_t off);
int write_full(int fd, const void *buf, size_t len);
int pwrite_full(int fd, const void *buf, size_t len, off_t off);

double now_mono(void);   /* CLOCK_MONOTONIC seconds */
double now_real(void);   /* CLOCK_REALTIME seconds */

/* Write a whole small file atomically: temp + fsync + rename + dir fsync. */
int write_file_atomic(const char *path, const void *buf, size_t len);
/* Read a whole small file (NUL-terminated); *out must be freed. */
int read_file_small(const char *path, char **out, size_t *len);
/* Read one line of a sysfs/proc file, newline stripped. */
int read_sysfs(const char *path, char *buf, size_t len);
int write_sysfs(const char *path, const char *val);
int fsync_dir(const char *dir);
/* mkdir -p */
int mkdir_p(const char *path, mode_t mode);
/* rm -rf, refusing "/" and "" */
int rm_rf(const char *path);
/* realpath that works for a path whose last component does not exist. */
int abspath(const char *path, char *out, size_t len);
/* is `inner` equal to or below `outer` (both absolute, normalized)? */
bool path_within(const char *inner, const char *outer);

struct stat;
/*
 * Is any existing directory on the way from / to path (an absolute path,
 * path included) the directory id?  Compared by device and inode, not by
 * name: a bind mount or a second path to a directory names it differently,
 * and stat() of each prefix resolves every mount on the way.
 */
bool dir_is_or_under(const char *path, const struct stat *id);
/* path (made absolute) is dir or below it, by dir_is_or_under. */
bool path_inside_dir(const char *path, const char *dir);

/*
 * Before writing a byte: need (+ reserve, kept free for what comes after,
 * e.g. a run's outputs) must fit in the free space of path's filesystem.
 * 0, or -ENOSPC after one line saying how much is needed and free.
 */
int space_check(const char *path, uint64_t need, uint64_t reserve,
		const char *what);

/*
 * Every string that goes into JSON goes through here, never json_string():
 * names come from the file system and the command line, where any byte
 * but '/' and NUL is legal, while JSON text is UTF-8 (jansson refuses the
 * rest and returns NULL, which became a null "dataset" and "config_id").
 * Valid UTF-8 passes unchanged; each byte that is not part of a valid
 * sequence is written as the four characters \xHH (docs/results.md).
 * Never NULL unless out of memory.
 */
json_t *json_text(const char *s);

/*
 * A data set's label is one field of config_id ("big/stream/t1/...") and
 * a heading in reports: a label taken from a directory's name has each
 * control character (a newline would break every heading and CSV line)
 * written as \xHH, as json_text does for bytes that are not UTF-8.
 */
void label_from_name(const char *name, char *buf, size_t len);
/* A label given by hand (--dataset): not empty, no '/' (it would split
 * config_id) and no control character.  0, or -EINVAL after one line. */
int label_check(const char *opt, const char *label);
/* s with bytes that are not UTF-8 escaped as above, in buf (truncated). */
const char *text_escape(const char *s, char *buf, size_t len);

#endif
