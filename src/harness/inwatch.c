// SPDX-License-Identifier: MIT
/* Did an input change while a repetition read it?  Size and mtime, before and after. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inwatch.h"

static int stat_input(const char *dir, const char *name, struct stat *st)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return stat(p, st) < 0 ? -errno : 0;
}

int inwatch_take(struct inwatch *w, const char *dir, const struct filelist *fl,
		 const char **bad)
{
	struct stat st;
	int ret;

	w->n = fl->n;
	w->size = calloc(fl->n + 1, sizeof(*w->size));
	w->mtime = calloc(fl->n + 1, sizeof(*w->mtime));
	if (!w->size || !w->mtime) {
		inwatch_free(w);
		return -ENOMEM;
	}
	for (size_t i = 0; i < fl->n; i++) {
		ret = stat_input(dir, fl->names[i], &st);
		if (ret) {
			*bad = fl->names[i];
			inwatch_free(w);
			return ret;
		}
		w->size[i] = fl->sizes[i]; /* the listed size: a change since counts */
		w->mtime[i] = st.st_mtim;
	}
	return 0;
}

long inwatch_changed(const struct inwatch *w, const char *dir,
		     const struct filelist *fl, enum inwatch_how *how,
		     char *why, size_t len)
{
	struct stat st;

	for (size_t i = 0; i < w->n && i < fl->n; i++) {
		if (stat_input(dir, fl->names[i], &st)) {
			*how = INWATCH_REMOVED;
			snprintf(why, len, "removed");
			return (long)i;
		}
		if ((uint64_t)st.st_size != w->size[i]) {
			*how = INWATCH_RESIZED;
			snprintf(why, len, "%llu bytes at the start, %llu now",
				 (unsigned long long)w->size[i],
				 (unsigned long long)st.st_size);
			return (long)i;
		}
		if (st.st_mtim.tv_sec != w->mtime[i].tv_sec ||
		    st.st_mtim.tv_nsec != w->mtime[i].tv_nsec) {
			*how = INWATCH_MODIFIED;
			snprintf(why, len, "same size, modified");
			return (long)i;
		}
	}
	return -1;
}

void inwatch_free(struct inwatch *w)
{
	free(w->size);
	free(w->mtime);
	memset(w, 0, sizeof(*w));
}
