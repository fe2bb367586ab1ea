/* SPDX-License-Identifier: MIT */
/* Typed settings tables: one entry per option or profile key drives parsing, help and listing. */
#ifndef IOSTRAT_SETTINGS_H
#define IOSTRAT_SETTINGS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A setting is declared once, in a table of its owner (a subcommand's
 * options, the run settings, a strategy's options): name, type, bounds
 * or allowed values, help line, where it may be given, and where its
 * value is stored (an offset into the owner's struct).  The parser, the
 * help printer, `iostrat __options` and the completion all read the same
 * entry, as perf's parse-options tables do.
 */
enum setting_type {
	SET_BOOL,	/* bool; on argv "--x" is true, "--x=V" a bool value */
	SET_STRING,	/* const char *, pointing into argv or the profile */
	SET_UINT,	/* unsigned, min..max */
	SET_COUNT,	/* uint64_t, min..max, with k/M/G multipliers */
	SET_SIZE,	/* uint64_t bytes, min..max, with units */
	SET_DOUBLE,	/* double, min..max (0..0: any finite value) */
	SET_ENUM,	/* int: the index of the value in values[] */
	SET_CALL,	/* call(): the owner parses the value itself */
	SET_LIST,	/* struct setting_list: each time given adds its value */
};

/* A repeatable option's values in the order given (-D K=V -D ...),
 * pointing into argv; setting_list_free frees the array. */
struct setting_list {
	char **v;
	size_t n;
};
void setting_list_free(struct setting_list *l);

/* Where a setting may be given. */
#define SET_ARGV	1u	/* a command-line option */
#define SET_PROFILE	2u	/* a profile key */
#define SET_BOTH	(SET_ARGV | SET_PROFILE)
#define SET_RECORDED	4u	/* neither: its owner sets it; a column, an id part */

struct setting;
typedef int (*setting_call_fn)(const struct setting *s, const char *value,
			       void *obj);

struct setting {
	const char *name;	/* long name without "--", or NULL */
	char shortname;		/* -X, or 0 */
	enum setting_type type;
	size_t off;		/* where the value goes in the owner's struct */
	uint64_t min, max;	/* SET_UINT/COUNT/SIZE/DOUBLE bounds */
	const char *const *values;	/* SET_ENUM names, NULL-terminated */
	bool arg;		/* SET_CALL only: takes a value */
	setting_call_fn call;	/* SET_CALL */
	const char *metavar;	/* the value's name in help ("N", "DIR") */
	const char *help;	/* one line; NULL hides it from help */
	unsigned where;		/* SET_ARGV, SET_PROFILE or both (0: argv) */
	const char *def;	/* the default, as text (settings_defaults) */
	const char *column;	/* the row column that records it, or NULL */
	/* its part of config_id: a format with one %s for the value as text
	 * ("t%s", "fsync=%s"), or, for a bool, the word written when it is
	 * true ("direct"); NULL: not part of it */
	const char *id;
	unsigned flags;		/* SETF_* */
	/* SET_ENUM: each value as its config_id part writes it, in the order
	 * of values (NULL: its name), so an id keeps an older spelling */
	const char *const *id_values;
	/* other keys a profile may give it by, '|'-separated ("op|operation");
	 * never options on the command line */
	const char *aliases;
};

/*
 * An entry's type and place, written SETTING_UINT(struct run_config,
 * job.threads): the field must be of the C type the setting type stores
 * (as perf's OPT_* macros check), or the table does not compile.  Every
 * table writes .type and .off through these, never by hand.
 */
#define SETTING_CHECK(cond, msg) \
	(0 * sizeof(struct { _Static_assert(cond, msg); char c; }))
#define SETTING_IS(T, f, CTYPE) \
	__builtin_types_compatible_p(typeof(((T *)0)->f), CTYPE)
#define SETTING_AT(K, T, f, CTYPE) \
	.type = K, .off = offsetof(T, f) + SETTING_CHECK(SETTING_IS(T, f, CTYPE), \
		#T "." #f " is not " #CTYPE " (" #K ")")
#define SETTING_BOOL(T, f)	SETTING_AT(SET_BOOL, T, f, bool)
#define SETTING_STRING(T, f)	SETTING_AT(SET_STRING, T, f, const char *)
#define SETTING_UINT(T, f)	SETTING_AT(SET_UINT, T, f, unsigned)
#define SETTING_COUNT(T, f)	SETTING_AT(SET_COUNT, T, f, uint64_t)
#define SETTING_SIZE(T, f)	SETTING_AT(SET_SIZE, T, f, uint64_t)
#define SETTING_DOUBLE(T, f)	SETTING_AT(SET_DOUBLE, T, f, double)
#define SETTING_LIST(T, f)	SETTING_AT(SET_LIST, T, f, struct setting_list)
/* SET_ENUM stores an int: an enum field (compatible with int, or with
 * unsigned when it has no negative value) or an int. */
#define SETTING_ENUM(T, f) \
	.type = SET_ENUM, .off = offsetof(T, f) + SETTING_CHECK( \
		SETTING_IS(T, f, int) || SETTING_IS(T, f, unsigned), \
		#T "." #f " is not an enum or int (SET_ENUM)")
/* SET_CALL: call() parses; f names the field it fills (to tell entries
 * apart by .off), not checked since no store goes through .off. */
#define SETTING_CALL(T, f)	.type = SET_CALL, .off = offsetof(T, f)

#define SETF_ID_OPTIONAL  1u	/* no id part at its default (or zero) */
#define SETF_COL_OPTIONAL 2u	/* no column at zero */

/* Does s take a value on the command line ("--name V")? */
bool setting_takes_arg(const struct setting *s);

/* The entry called name, by its name or one of its aliases, in table
 * ({ NULL }-terminated), or NULL. */
const struct setting *setting_find(const struct setting *table,
				   const char *name);
/*
 * Store value (NULL: given without one) as s says, into obj.  0, or
 * -EINVAL/-ERANGE after one line "iostrat: WHERE: bad value 'V' (why)";
 * where names the place ("--threads", "file.ini:12: threads").
 */
int setting_store(const struct setting *s, void *obj, const char *where,
		  const char *value);

/* The entry of table recorded in the row column col, or NULL. */
const struct setting *settings_column(const struct setting *table,
				      const char *col);
/* name as the command line spells it ("memory-max"), into buf. */
const char *setting_spelling(const char *name, char *buf, size_t len);
/* The name, among the entries of tables[0..n) (NULL ends them early)
 * given where (SET_ARGV, SET_PROFILE), nearest to name[0..len) by edit
 * distance ('-' and '_' alike), when it is near (a typo, a letter
 * missing): for "did you mean"; NULL when none is. */
const char *setting_nearest(const struct setting *const *tables, size_t n,
			    unsigned where, const char *name, size_t len);
/* Every entry of table that has a default gets it. */
void settings_defaults(const struct setting *table, void *obj);
/* The value of s in obj as text: "1"/"0" for a bool, an enum's name. */
const char *setting_text(const struct setting *s, const void *obj,
			 char *buf, size_t len);
/* Is the value of s in obj its default (zero without one)? */
bool setting_at_default(const struct setting *s, const void *obj);
struct json_t;
/* Each column of table's entries, set in row from obj. */
void settings_row(const struct setting *table, const void *obj,
		  struct json_t *row);
/* Append "/PART" to buf for each id part of table's entries (order of the
 * table); returns the new length.  config_id.h makes the whole id. */
size_t settings_id(const struct setting *table, const void *obj, char *buf,
		   size_t len, size_t at);

/*
 * The options of a subcommand: its tables, each filling its own object,
 * in order (a table of its own, then e.g. the run settings).  more() lists
 * settings that are parsed elsewhere (a strategy's options, chosen by
 * another option), for the listing only.
 */
#define CMD_MAX_TABLES 4
typedef void (*setting_fn)(const struct setting *s, void *ctx);
struct cmd_opts {
	const char *cmd;			/* "bench" */
	const struct setting *tables[CMD_MAX_TABLES];	/* NULL-terminated */
	void (*more)(setting_fn fn, void *ctx);
	void (*usage)(FILE *f);			/* what --help prints first */
	unsigned flags;
	const char *unknown;	/* said of an unknown option ("for strategy
				 * mmap"), or NULL */
};
/* Options end at the first argument that is not one (trace CMD ARGS...);
 * otherwise they may come anywhere before "--". */
#define CMDOPT_STOP_AT_ARG 1u
/* An option not in the tables is passed over, not refused (a first pass
 * that only looks for one option: run's --strategy). */
#define CMDOPT_SKIP_UNKNOWN 2u

/* Every option of o, to fn: the tables in order, then o->more. */
void cmdopt_each(const struct cmd_opts *o, setting_fn fn, void *ctx);
/* s as a help line ("  -o, --out DIR      help"), more lines indented. */
void setting_help(const struct setting *s, FILE *f);
/* Each argv option of o, as a help line ("  -o, --out DIR   help"). */
void cmdopt_help(const struct cmd_opts *o, FILE *f);

/*
 * Parse argv[1..] by o's tables into objs (objs[i] for o->tables[i]).
 * Arguments that are not options are moved, in order, to argv[1..n]:
 * the result is n >= 0; -ECANCELED after printing --help (exit 0);
 * -EINVAL after one error line (exit 2).  "--" ends the options.
 */
int cmdopt_parse(const struct cmd_opts *o, void *const *objs, int argc,
		 char **argv);
/* The exit status for a cmdopt_parse result below 0. */
static inline int cmdopt_exit(int ret)
{
	return ret == -ECANCELED ? 0 : 2;
}

#endif
