// SPDX-License-Identifier: MIT
/*
 * The probe registry, one line per probe (src/trace/NAME.c, its
 * `NAME_probe`), and what goes through every probe of it: reading their
 * counters, their filters, their row columns and their part of the
 * `iostrat trace` report.  The order is the rows' and the report's.
 */
#include <errno.h>
#include <stdlib.h>

#include "lib/util.h"
#include "probe.h"
#include "trace.h"

/* A new probe is one line here.  (cppcheck cannot expand this when it is
 * given function-like -D macros, as mk/lint.mk gives it jansson's.) */
/* cppcheck-suppress preprocessorErrorDirective */
#define PROBES(X) \
	X(seeks) \
	X(pagecache) \
	X(reqlat)

#define DECLARE(name) extern const struct probe_ops name##_probe;
#define ENTRY(name) &name##_probe,
PROBES(DECLARE)
const struct probe_ops *const probe_registry[] = { PROBES(ENTRY) NULL };
_Static_assert(sizeof(probe_registry) / sizeof(probe_registry[0]) <= PROBE_MAX + 1,
	       "more probes than PROBE_MAX");

void probe_free_data(struct probe_state *ps)
{
	if (ps->data && ps->ops->free_data)
		ps->ops->free_data(ps->data);
	else
		free(ps->data);
	ps->data = NULL;
}

int tracer_read(struct tracer *t)
{
	for (size_t k = 0; k < PROBE_MAX; k++) {
		struct probe_state *ps = &t->probes[k];
		int ret;

		if (!ps->ops)
			continue;
		probe_free_data(ps);
		if (ps->skel && (ret = ps->ops->read(ps)))
			return ret;
	}
	return 0;
}

/* OP(ps, ...) of every loaded probe that has it, in order; the first
 * error stops it. */
#define LOADED_PROBES_CALL(t, OP, ...) ({                                     \
	int _ret = 0;                                                         \
	for (size_t _k = 0; !_ret && _k < PROBE_MAX; _k++) {                  \
		struct probe_state *_ps = &(t)->probes[_k];                   \
		if (_ps->skel && _ps->ops->OP)                                \
			_ret = _ps->ops->OP(_ps, ##__VA_ARGS__);              \
	}                                                                     \
	_ret;                                                                 \
})

int tracer_watch_pid(struct tracer *t, pid_t pid)
{
	return LOADED_PROBES_CALL(t, watch_pid, pid);
}

int tracer_watch_file(struct tracer *t, dev_t dev, ino_t ino)
{
	return LOADED_PROBES_CALL(t, watch_file, dev, ino);
}

int tracer_unwatch_files(struct tracer *t)
{
	return LOADED_PROBES_CALL(t, unwatch_files);
}

size_t tracer_watch_max(void)
{
	size_t max = SIZE_MAX;

	for (size_t k = 0; probe_registry[k]; k++)
		if (probe_registry[k]->watch_max && probe_registry[k]->watch_max < max)
			max = probe_registry[k]->watch_max;
	return max;
}

const struct column trace_columns[] = {
	{ "trace_fallback", COL_TEXT, 0, 0, "trace", "the probes that fell back to another source, or null", 0 },
	{ "trace_error", COL_TEXT, 0, 0, "trace", "why a repetition meant to be traced was not", 0 },
	{ 0 },
};

void trace_set(json_t *row, const char *k, json_t *v)
{
	json_object_set_new(row, k, v);
}

json_t *trace_real(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

json_t *trace_u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

json_t *trace_when(bool has, json_t *v)
{
	if (has)
		return v;
	json_decref(v);
	return json_null();
}

/* Every declared column is in the row, null unless the probe sets it. */
void trace_fill_row(json_t *row, const struct tracer *t)
{
	trace_set(row, "traced", json_true());
	trace_set(row, "trace_fallback", t->fallback[0] ? json_text(t->fallback) : json_null());
	for (size_t k = 0; k < PROBE_MAX; k++) {
		const struct probe_ops *ops = t->probes[k].ops;

		for (size_t c = 0; ops && ops->columns[c].name; c++)
			if (!json_object_get(row, ops->columns[c].name))
				trace_set(row, ops->columns[c].name, json_null());
		if (ops)
			ops->fill_row(row, t, &t->probes[k]);
	}
}

void trace_print(FILE *f, const struct tracer *t)
{
	for (size_t k = 0; k < PROBE_MAX; k++)
		if (t->probes[k].ops)
			t->probes[k].ops->print(f, t, &t->probes[k]);
}
