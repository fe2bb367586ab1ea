/* SPDX-License-Identifier: MIT */
/* A transform as the strategies run it: loaded once (built-in or plug-in), one worker state per thread, whole records in, outputs out. */
#ifndef IOSTRAT_XFORM_H
#define IOSTRAT_XFORM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "iostrat/transform.h"

/*
 * The study's XOR (built-in "xor", the default) runs in place through
 * transform_chunk (transform.h), with the W knob: every result and id
 * from before transforms had names is unchanged.  Every other transform
 * runs through this file: records out of whole-record buffers
 * (xform_run), or a byte stream with the partial record carried
 * (xform_stream, xform_stream.c).
 */
struct xform {
	const struct iostrat_transform *t;
	char name[64];          /* the row's transform: a built-in's or t->name */
	char arg[256];          /* ARG of NAME:ARG or PATH.so:ARG ("" none) */
	char spec[PATH_MAX + 260]; /* as given */
	char hash[17];          /* xxh3-64 of the plug-in file, "" built-in */
	char id[PATH_MAX];      /* the config_id's form (xform_id) */
	void *dl;               /* dlopen handle of a plug-in */
	bool in_place;          /* the XOR: transform_chunk, W passes */
};

/* A built-in (name, its transform, whether in place, one line of help). */
struct xform_builtin {
	const char *name;
	const struct iostrat_transform *t;
	bool in_place;
	const char *help;
};
/* xforms/registry.c: NULL-name terminated. */
extern const struct xform_builtin xform_builtins[];

/* Load spec: NAME[:ARG] of a built-in, or PATH.so[:ARG] (a path: it has a
 * '/').  0, or -errno with one line in why ("PATH: ABI 2, this iostrat
 * speaks 1").  The plug-in's init is tried once with ARG (and fini'd) so
 * a bad ARG is refused before anything runs. */
int xform_load(const char *spec, struct xform *x, char *why, size_t len);
void xform_unload(struct xform *x);
/* The default: the built-in XOR. */
int xform_load_default(struct xform *x);
/* spec loaded once for the process (a bench's configurations share it;
 * the id form of one loaded finds it too: a command's in-memory profile):
 * the loaded transform, or NULL with one line in why.  Never unloaded:
 * a child forked to run a repetition inherits it. */
const struct xform *xform_get(const char *spec, char *why, size_t len);
/* x->id: the form a config_id holds, NAME[:ARG], a plug-in
 * NAME.HASH8[:ARG] (its path is the row's transform_spec). */

struct xform_worker {
	const struct xform *x;
	void *state;
};
/* One per thread that calls xform_run: 0 or -errno (init's). */
int xform_worker_init(const struct xform *x, struct xform_worker *w);
void xform_worker_fini(struct xform_worker *w);

/* The room xform_run needs for the whole records in in[0..len):
 * each record's out_max and its newline. */
size_t xform_out_bound(const struct xform *x, const uint8_t *in, size_t len);
/* in[0..len) holds whole records, except that the last may lack its
 * newline (lines) or be short (fixed) when it is a file's last: their
 * outputs, in order, into out (xform_out_bound bytes of room).  The bytes
 * written, or -errno: -E2BIG for a record over IOSTRAT_RECORD_MAX,
 * -EOVERFLOW for an output over out_max, record()'s own. */
ssize_t xform_run(struct xform_worker *w, const uint8_t *in, size_t len, uint8_t *out);
/* What err from xform_run or a stream says, for "transform NAME: ...":
 * -E2BIG "a record longer than 16 MiB", -EOVERFLOW "an output longer than
 * its out_max", else strerror. */
const char *xform_strerror(int err);
/* Where the whole records of in[0..len) end (the bytes after it start a
 * record that goes on past len): for lines, just past the last '\n' (0:
 * none); fixed, a multiple of record_size. */
size_t xform_whole(const struct xform *x, const uint8_t *in, size_t len);

/* A byte stream through the transform, outputs to sink in order. */
typedef int (*xform_sink_fn)(void *ctx, const uint8_t *p, size_t n);
struct xform_stream {
	struct xform_worker w;
	xform_sink_fn sink;
	void *ctx;
	uint8_t *carry, *out;   /* the record going on; the output buffer */
	size_t carry_len, carry_cap, out_cap;
	uint64_t bytes_out;     /* what sink was given */
};
int xform_stream_open(struct xform_stream *s, const struct xform *x,
		      xform_sink_fn sink, void *ctx);
/* The next bytes of the file: 0 or -errno (the transform's, sink's). */
int xform_stream_feed(struct xform_stream *s, const uint8_t *in, size_t len);
/* The end of the file: its last record, if it has one left. */
int xform_stream_end(struct xform_stream *s);
void xform_stream_close(struct xform_stream *s);

#endif
