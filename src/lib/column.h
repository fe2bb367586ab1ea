/* SPDX-License-Identifier: MIT */
/* What a result row's column is: one line of a column table (name, type, unit, help, writer). */
#ifndef IOSTRAT_COLUMN_H
#define IOSTRAT_COLUMN_H

/*
 * What a column holds.  The numeric kinds from COL_TIME on are checked
 * when a row is read back (results/row_check.c): null, or a finite number
 * >= 0, whole for a count.  Text, flags and signed figures (a sysfs -1, an
 * exit status) are not.
 */
enum col_type {
	COL_TEXT,   /* a string; with values, one of them */
	COL_FLAG,   /* true/false */
	COL_SIGNED, /* a number whose sign means something: not checked */
	COL_TIME,
	COL_SIZE,
	COL_COUNT,
	COL_RATE,
};

#define COL_CHECKED(t) ((t) >= COL_TIME)

/*
 * The names of the columns many rooms write or read, each spelled once,
 * here: the column table's lines (results/row.c, a run setting's entry in
 * config/run_settings.c), their writers and every reader name them so.
 */
#define RC_CONFIG_ID "config_id"
#define RC_STRATEGY "strategy"
#define RC_DATASET "dataset"
#define RC_BYTES_IN "bytes_in"
#define RC_ELAPSED "elapsed_s"
#define RC_USER "user_s"
#define RC_SYS "sys_s"
#define RC_MAXRSS "maxrss_kb"
#define RC_MB_S "mb_s"
#define RC_WORK "work"
#define RC_THREADS "threads"

/* Every row holds it (null until its writer sets it), in table order. */
#define COLF_CORE 1u
/* Says which configuration or repetition a row is, not what it measured:
 * summary.csv copies it, never takes its median (results.c). */
#define COLF_IDENT 2u

/*
 * One column (util-linux lsblk's infos[] line): the table of the core
 * columns is results/row.c (row_columns); strategies (struct strategy .columns) and
 * probes (struct probe_ops .columns) declare the columns they add.
 * Tables end with { 0 }.
 */
struct column {
	const char *name;
	enum col_type type;
	const char *values; /* COL_TEXT: "a|b" when it is one of these */
	const char *unit;   /* "s", "bytes", "MB/s", ... or NULL */
	const char *room;   /* the room of src/ that writes it */
	const char *help;   /* one line */
	unsigned flags;     /* COLF_* */
};

#endif
