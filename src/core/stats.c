// SPDX-License-Identifier: MIT
/* A repetition's run_stats: the bytes, the failure message and the strategy's extra columns. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "core/strategy.h"
#include "lib/util.h"

void stats_init(struct run_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->extra = json_object();
	pthread_mutex_init(&st->lock, NULL);
}

void stats_destroy(struct run_stats *st)
{
	json_decref(st->extra);
	st->extra = NULL;
	pthread_mutex_destroy(&st->lock);
}

static int fail_msg(struct run_stats *st, int err, const char *msg)
{
	if (err >= 0)
		err = -EIO;
	pthread_mutex_lock(&st->lock);
	if (!st->err) {
		st->err = err;
		snprintf(st->errmsg, sizeof(st->errmsg), "%s", msg);
	}
	pthread_mutex_unlock(&st->lock);
	return err;
}

int stats_fail(struct run_stats *st, int err, const char *path,
	       const char *what)
{
	char msg[STATS_ERRMSG_MAX];

	snprintf(msg, sizeof(msg), "%s: %s: %s", path, what,
		 strerror(err < 0 ? -err : EIO));
	return fail_msg(st, err, msg);
}

int stats_failf(struct run_stats *st, int err, const char *path,
		const char *fmt, ...)
{
	char msg[STATS_ERRMSG_MAX], why[STATS_ERRMSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(msg, sizeof(msg), "%s: %s", path, why);
	return fail_msg(st, err, msg);
}

bool stats_failed(struct run_stats *st)
{
	return __atomic_load_n(&st->err, __ATOMIC_RELAXED) != 0;
}

void stats_add_in(struct run_stats *st, uint64_t n)
{
	__atomic_fetch_add(&st->bytes_in, n, __ATOMIC_RELAXED);
}

void stats_add_out(struct run_stats *st, uint64_t n)
{
	__atomic_fetch_add(&st->bytes_out, n, __ATOMIC_RELAXED);
}

void stats_set_int(struct run_stats *st, const char *key, long long v)
{
	pthread_mutex_lock(&st->lock);
	json_object_set_new(st->extra, key, json_integer(v));
	pthread_mutex_unlock(&st->lock);
}

void stats_set_str(struct run_stats *st, const char *key, const char *v)
{
	pthread_mutex_lock(&st->lock);
	json_object_set_new(st->extra, key, json_text(v));
	pthread_mutex_unlock(&st->lock);
}

void stats_set_real(struct run_stats *st, const char *key, double v)
{
	pthread_mutex_lock(&st->lock);
	json_object_set_new(st->extra, key, json_real(v));
	pthread_mutex_unlock(&st->lock);
}
