// SPDX-License-Identifier: MIT
/* The probe registry (src/trace/probes.c): each probe fills exactly the
 * row columns it declares and the core columns of room trace that are its
 * own, the report's kernel view shows only declared columns, and a traced
 * row carries every probe's columns. */
#include <string.h>

#include "cmd/commands.h"
#include "trace/trace.h"
#include "results/row.h"
#include "unit.h"

static bool declared(const struct probe_ops *ops, const char *col)
{
	for (size_t c = 0; ops->columns[c].name; c++)
		if (!strcmp(ops->columns[c].name, col))
			return true;
	return false;
}

/* A core column of room trace: declared once, in results/row.c, and set
 * by the probe it belongs to (seq_pct, pc_hits ...). */
static bool core_trace_column(const char *col)
{
	for (const struct column *c = row_columns; c->name; c++)
		if (!strcmp(c->name, col))
			return (c->flags & COLF_CORE) && !strcmp(c->room, "trace");
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

UNIT(each_probe_fills_exactly_its_declared_columns)
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
			CHECK(declared(ops, k) || core_trace_column(k),
			      "%s sets '%s', not in its columns", ops->name, k);
		for (size_t c = 0; ops->columns[c].name; c++)
			CHECK(json_object_get(row, ops->columns[c].name), "%s declares '%s' and "
			      "does not set it", ops->name, ops->columns[c].name);
		json_decref(row);
	}
	return 0;
}

/* Each core column of room trace but `traced` (the tracer's own) is set
 * by exactly one probe, and declared by none: the core table holds it. */
UNIT(core_trace_columns_have_one_probe_and_one_declaration)
{
	static struct tracer t;

	empty_tracer(&t);
	for (const struct column *c = row_columns; c->name; c++) {
		unsigned setters = 0;

		if (!core_trace_column(c->name) || !strcmp(c->name, "traced"))
			continue;
		for (size_t p = 0; probe_registry[p]; p++) {
			json_t *row = json_object();

			probe_registry[p]->fill_row(row, &t, &t.probes[p]);
			setters += !!json_object_get(row, c->name);
			CHECK(!declared(probe_registry[p], c->name), "%s declares "
			      "the core column '%s' again", probe_registry[p]->name, c->name);
			json_decref(row);
		}
		CHECK(setters == 1, "core column '%s' is set by %u probes", c->name, setters);
	}
	return 0;
}

UNIT(report_columns_are_declared_and_no_column_has_two_probes)
{
	for (size_t p = 0; probe_registry[p]; p++) {
		const struct probe_ops *ops = probe_registry[p];

		CHECK(ops->name && ops->columns && ops->fill_row && ops->print,
		      "probe %zu lacks a name, columns, fill_row or print", p);
		for (size_t c = 0; ops->report_columns && ops->report_columns[c]; c++)
			CHECK(declared(ops, ops->report_columns[c]) ||
			      core_trace_column(ops->report_columns[c]), "%s: report column "
			      "'%s' not among its columns", ops->name, ops->report_columns[c]);
		for (size_t q = 0; q < p; q++)
			for (size_t c = 0; ops->columns[c].name; c++)
				CHECK(!declared(probe_registry[q], ops->columns[c].name),
				      "'%s' declared by %s and %s", ops->columns[c].name,
				      probe_registry[q]->name, ops->name);
	}
	return 0;
}

UNIT(traced_row_carries_every_probes_columns)
{
	static struct tracer t;
	json_t *row = json_object();

	empty_tracer(&t);
	trace_fill_row(row, &t);
	CHECK(json_is_true(json_object_get(row, "traced")), "traced is not true");
	for (size_t p = 0; probe_registry[p]; p++)
		for (size_t c = 0; probe_registry[p]->columns[c].name; c++) {
			const char *col = probe_registry[p]->columns[c].name;
			json_t *v = json_object_get(row, col);

			CHECK(v, "no '%s' in a traced row", col);
			/* no source: a figure is null, never a false 0 */
			CHECK(json_is_null(v) || !strcmp(json_string_value(v) ?: "", "none"),
			      "'%s' is neither null nor \"none\" without a source", col);
		}
	json_decref(row);
	return 0;
}

/* A probe's column is typed one way: as it declares it, and by the
 * registry the columns are handed down into. */
UNIT(probe_columns_typed_alike_everywhere)
{
	struct column c;

	row_columns_forget();
	CHECK(!columns_hand_down(), "the hand-down refused a table");
	for (size_t p = 0; probe_registry[p]; p++)
		for (const struct column *d = probe_registry[p]->columns; d->name; d++) {
			CHECK(!column_find(d->name, &c) && c.type == d->type &&
			      !strcmp(c.room, "trace"), "%s: %s declares %d, the "
			      "registry has %d (room %s)", d->name,
			      probe_registry[p]->name, d->type, c.type, c.room);
			CHECK(row_column_type(d->name) == d->type, "%s: row_check "
			      "types it %d, %s declares %d", d->name,
			      row_column_type(d->name), probe_registry[p]->name, d->type);
			CHECK(d->help && d->room, "%s: no help or room", d->name);
		}
	return 0;
}
