/* SPDX-License-Identifier: MIT */
/* Whole reads and writes, small files, sysfs, directories made and removed. */
#ifndef IOSTRAT_LIB_FILEIO_H
#define IOSTRAT_LIB_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/* read/write that retry on EINTR and short transfers.
 * read_full returns bytes read (< len only at EOF) or -errno. */
ssize_t read_full(int fd, void *buf, size_t len);
ssize_t pread_full(int fd, void *buf, size_t len, off_t off);
int write_full(int fd, const void *buf, size_t len);
int pwrite_full(int fd, const void *buf, size_t len, off_t off);
/* Write a whole small file atomically: temp + fsync + rename + dir fsync. */
int write_file_atomic(const char *path, const void *buf, size_t len);
/* Read a whole small file (NUL-terminated); *out must be freed. */
int read_file_small(const char *path, char **out, size_t *len);
/* Read one line of a sysfs/proc file, newline stripped. */
int read_sysfs(const char *path, char *buf, size_t len);
int write_sysfs(const char *path, const char *val);
/* fsync a directory; syncfs the file system it is on.  0 or -errno. */
int fsync_dir(const char *dir);
int syncfs_dir(const char *dir);
/* mkdir -p */
int mkdir_p(const char *path, mode_t mode);
/* rm -rf, refusing "/" and "" */
int rm_rf(const char *path);

#endif
