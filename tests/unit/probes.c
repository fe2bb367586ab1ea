// SPDX-License-Identifier: MIT
/* The probe registry (src/trace/probes.c): each probe fills exactly the
 * row columns it declares, the report's kernel view shows only declared
 * columns, and a traced row carries every probe's columns. */
#include <string.h>

#include "trace/trace.h"
#include "unit.h"

static bool declared(const struct probe_ops *ops, const char *col)
{
	for (size_t c = 0; ops->columns[c]; c++)
		if (!strcmp(ops->columns[c], col))
			return true;
	return false;
}

/* A tracer with every probe of the registry and nothing loaded: no
 * attach point has a source, so every figure is null. */
static void empty_tracer(struct tracer *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t k = 0; probe_registry[k]; k++)
		t->probes[k].ops = probe_registry[k];
}

static int each_probe_fills_exactly_its_declared_columns(void)
{
	static struct tracer t;
	const char *k;
	json_t *v;

	empty_tracer(&t);
	for (size_t p = 0; probe_registry[p]; p++) {
		const struct probe_ops *ops = probe_registry[p];
		json_t *row = json_object();

		ops->fill_row(row, &t, &t.probes[p]);
		json_object_foreach(row, k, v)
			CHECK(declared(ops, k), "%s sets '%s', not in its columns", ops->name, k);
		for (size_t c = 0; ops->columns[c]; c++)
			CHECK(json_object_get(row, ops->columns[c]), "%s declares '%s' and "
			      "does not set it", ops->name, ops->columns[c]);
		json_decref(row);
	}
	return 0;
}

static int report_columns_are_declared_and_no_column_has_two_probes(void)
{
	for (size_t p = 0; probe_registry[p]; p++) {
		const struct probe_ops *ops = probe_registry[p];

		CHECK(ops->name && ops->columns && ops->fill_row && ops->print,
		      "probe %zu lacks a name, columns, fill_row or print", p);
		for (size_t c = 0; ops->report_columns && ops->report_columns[c]; c++)
			CHECK(declared(ops, ops->report_columns[c]), "%s: report column "
			      "'%s' not among its columns", ops->name, ops->report_columns[c]);
		for (size_t q = 0; q < p; q++)
			for (size_t c = 0; ops->columns[c]; c++)
				CHECK(!declared(probe_registry[q], ops->columns[c]),
				      "'%s' declared by %s and %s", ops->columns[c],
				      probe_registry[q]->name, ops->name);
	}
	return 0;
}

static int traced_row_carries_every_probes_columns(void)
{
	static struct tracer t;
	json_t *row = json_object();

	empty_tracer(&t);
	trace_fill_row(row, &t);
	CHECK(json_is_true(json_object_get(row, "traced")), "traced is not true");
	for (size_t p = 0; probe_registry[p]; p++)
		for (size_t c = 0; probe_registry[p]->columns[c]; c++) {
			const char *col = probe_registry[p]->columns[c];
			json_t *v = json_object_get(row, col);

			CHECK(v, "no '%s' in a traced row", col);
			/* no source: a figure is null, never a false 0 */
			CHECK(json_is_null(v) || !strcmp(json_string_value(v) ?: "", "none"),
			      "'%s' is neither null nor \"none\" without a source", col);
		}
	json_decref(row);
	return 0;
}

int main(void)
{
	RUN(each_probe_fills_exactly_its_declared_columns);
	RUN(report_columns_are_declared_and_no_column_has_two_probes);
	RUN(traced_row_carries_every_probes_columns);
	return unit_failed;
}
