/* SPDX-License-Identifier: MIT */
/* `iostrat plot`: figure kinds that digest rows into data files that gnuplot scripts draw. */
#ifndef IOSTRAT_PLOT_H
#define IOSTRAT_PLOT_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "lib/column.h"
#include "results/stats_math.h"

/*
 * `iostrat plot DIR`: gnuplot is poor at grouping and filtering CSV, so each
 * figure kind first digests the rows of DIR/results.jsonl into small data
 * files (DIR/plots/data/NAME.dat, whitespace separated, blocks split by two
 * blank lines, a header line per block), then plots/KIND.gp renders them:
 *
 *   gnuplot -e "datafile='D'; outbase='O'[; title='T']" plots/KIND.gp
 *
 * writes O.png and O.svg.  Each figure kind is one file src/plot/fig_KIND.c
 * declaring its struct fig_kind; fig_build adds one job per image.
 */

struct plot_job {
	const char *fig;     /* figure kind, e.g. "grid" (names the script) */
	char name[128];      /* image name without extension, e.g. "grid-big" */
	char data[PATH_MAX]; /* the data file */
	char title[256];     /* figure title */
};

struct plot_ctx {
	const char *dir;        /* the results directory */
	char outdir[PATH_MAX];  /* DIR/plots */
	char datadir[PATH_MAX]; /* DIR/plots/data */
	json_t *rows;           /* every row of results.jsonl */
	json_t *cmp;            /* figure 6's rows, compare's spread table
				 * (plot_compare); NULL: DIR/compare.csv */
	FILE *list;             /* where the list of images goes */
	json_t *verdict;        /* verdict_cells of rows, made on first need */
	struct plot_job *jobs;
	size_t njobs, cap;
};

struct dat;

/*
 * One image's rows and names, as a figure kind's callbacks see them: the
 * rows of one group (a value of by[0], and of by[1]), the group's values
 * as text, split when by[1] has several values over the figure's rows.
 */
struct fig_group {
	struct plot_ctx *c;
	json_t *all;          /* every row the figure draws */
	json_t *rows;         /* this image's rows */
	char name[2][96];     /* its values of by[0] and by[1] ("" without) */
	bool split;           /* by[1] has several values: its image names it */
	char *why;            /* an ungrouped figure that writes nothing: why */
	size_t len;
};

/*
 * What a figure kind is, beyond the shape every figure shares (fig_build):
 * which rows it draws, how they split into images, and how one image's
 * data file is written.  A new figure is its fig_NAME.c defining one of
 * these, its plots/NAME.gp, and one line in plot_figures (figures.c).
 */
struct fig_kind {
	const char *kind;        /* rows of this kind; NULL: every row */
	const char *const *need; /* columns such rows must have (NULL: none) */
	const char *none;        /* why it is skipped when there are no such rows */
	/* Narrow or replace *rows (its reference taken); *rows NULL and why
	 * set: skipped; -errno after printing why (optional). */
	int (*select)(struct plot_ctx *c, json_t **rows, char *why, size_t len);
	const char *by[2];       /* an image per value of by[0] (and by[1]);
				  * none: one image, NAME.dat */
	bool by_size;            /* by[0] is "dataset": smallest first */
	const char *unnamed[2];  /* the name of a group without a value */
	bool (*want)(json_t *rows); /* draw this group's image? (optional) */
	const char *title;       /* printf format of name[0], name[1] */
	void (*title_of)(const struct fig_group *g, char *buf, size_t len);
	/* Write one image's data into d; the lines with data (an ungrouped
	 * figure with none is skipped: why = empty, else as write set it). */
	size_t (*write)(const struct fig_group *g, struct dat *d);
	const char *empty;
	/* A figure of other sources than rows builds itself (compare). */
	int (*build)(struct plot_ctx *c, char *why, size_t len);
};

struct figure {
	const char *name; /* also the script: plots/NAME.gp */
	const char *what; /* one line for --help and the list */
	const struct fig_kind *kind;
};

/* The table of figures (src/plot/figures.c), ended by a NULL name. */
extern const struct figure plot_figures[];

/* Each figure kind (src/plot/fig_NAME.c). */
extern const struct fig_kind fig_grid, fig_memory, fig_memlimit, fig_cpu, fig_fio,
	fig_kernel, fig_compare, fig_sweep, fig_net, fig_ratios, fig_rounds, fig_iotime,
	fig_limits, fig_reqlat;

/* Digest c->rows into data files and add jobs for figure fg.  Returns 0
 * (jobs added, or none with why saying why the figure does not apply) or
 * -errno after printing one error naming the figure (missing columns...).
 * (src/plot/build.c) */
int fig_build(struct plot_ctx *c, const struct figure *fg, char *why, size_t len);

/* The linetype (1..PLOT_COLOURS of plots/palette.gp) of a strategy, the
 * same in every figure; 0 for a name that is not a strategy. */
#define PLOT_COLOURS 8
int plot_colour(const char *strategy);

/* Did the verdict (docs/verdict.md) decide strategy the winner of the cell
 * data set ds, work w, threads t (NULL: any thread count) and, when cache
 * is not NULL, that cache state?  Only such a cell is ringed "fastest";
 * an undecided cell marks no strategy above the others (decided.c). */
bool plot_decided(struct plot_ctx *c, const char *ds, const char *cache, json_t *w,
		  json_t *t, const char *strategy);
/* The verdict's cells of c->rows (verdict_cells), made once per `iostrat plot`. */
json_t *plot_verdict_cells(struct plot_ctx *c);

/* --- row helpers (src/plot/rows.c) --- */

/* Rows of one kind ("run" also takes rows without a kind) without an error. */
json_t *rows_of_kind(json_t *rows, const char *kind);
/* Rows whose col equals v (null matches a missing key). */
json_t *rows_where(json_t *rows, const char *col, json_t *v);
/* Distinct values of col: numbers ascending, strings in first-seen order. */
json_t *rows_distinct(json_t *rows, const char *col);
/* The rows of one cell of the study grid: work w, threads t, strategy s. */
json_t *rows_cell(json_t *rows, json_t *w, json_t *t, json_t *s);
/* The study grid's axes over rows: the distinct work levels, thread counts
 * and strategies (rows_distinct); plot_axes_free drops them. */
struct plot_axes {
	json_t *works, *threads, *strats;
};
void plot_axes(json_t *rows, struct plot_axes *a);
void plot_axes_free(struct plot_axes *a);
/* Does any row have the key col at all / a number under it? */
bool rows_have_key(json_t *rows, const char *col);
bool rows_have_number(json_t *rows, const char *col);
/* Summary of the numeric values of col (n == 0 when none); scale multiplies;
 * col NULL: the CPU time, as rows_stat_cpu. */
void rows_stat(json_t *rows, const char *col, double scale, struct summary *s);
/* Print "plot FIG: DIR/results.jsonl has no column C (...)" for the first
 * of cols (NULL-terminated) that no row has; returns -ENODATA then. */
int rows_need(const struct plot_ctx *c, const char *fig, json_t *rows,
	      const char *const cols[]);
/* The rows of kind that figure fig draws (*ret 0), or NULL: with why set
 * to none when there are none (*ret 0, the figure is skipped) or with
 * *ret -ENODATA when a column of need is missing (said by rows_need). */
json_t *fig_rows(struct plot_ctx *c, const char *fig, const char *kind,
		 const char *const need[], const char *none, char *why, size_t len,
		 int *ret);
/* A short text for a JSON scalar ("" for null); buf of len bytes. */
const char *val_text(json_t *v, char *buf, size_t len);

/* The table titled title... of a report's `--format csv` text (a
 * DIR/compare.csv that `iostrat compare --format csv` wrote): its column
 * names and one object per row (numbers as numbers, empty fields null).
 * -ENOENT when text has no such table (src/plot/csvtab.c). */
int csv_table(const char *text, const char *title, json_t **cols, json_t **rows);

/* Draw every figure (only: a comma list of kinds, or NULL) of the results
 * directory dir into dir/plots, the list of images on list; cmp: figure
 * 6's rows when the caller compared runs (plot_compare), else NULL.
 * 0, or 1 when a figure failed (said on stderr).  (src/plot/draw.c) */
int plot_draw(const char *dir, const char *only, json_t *cmp, FILE *list);
/* The SVG figures of DIR/plots in the order of the figure kinds (*paths
 * and each path malloc'd); 0 or -errno.  (src/plot/paths.c) */
int plot_figure_paths(const char *dir, char ***paths, size_t *n);

/* `iostrat plot --compare`: compare dirs[0..n) as `iostrat compare` does,
 * write OUT/compare.csv and give figure 6's rows in *rows
 * (src/plot/compare_src.c); and the dirs an `iostrat sched` output
 * directory names in its sched.json (*dirs malloc'd, 0 when not one). */
int plot_compare(const char *out, char *const *dirs, size_t n, json_t **rows);
int plot_sched_dirs(const char *dir, char ***dirs, size_t *n);

/* --- data files (src/plot/dat.c) --- */

struct dat {
	FILE *f;
	char *buf;
	size_t len;
};

int dat_begin(struct dat *d);
/* A quoted label (quotes inside are replaced, never unbalanced). */
void dat_label(struct dat *d, const char *s);
/* A number or NaN (when !ok or not finite). */
void dat_num(struct dat *d, double v, bool ok);
/* Write d to DIR/plots/data/NAME.dat atomically and add a job for it. */
int dat_commit(struct plot_ctx *c, struct dat *d, const char *fig,
	       const char *name, const char *title);
/* Commit d as DIR/plots/data/FIG.dat (dat_commit) when it holds n > 0
 * clusters; else drop it and set why from the printf format fmt (0). */
int dat_finish(struct plot_ctx *c, struct dat *d, size_t n, const char *fig,
	       const char *title, char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
/* Two blank lines before every block but the first (number i): gnuplot's index. */
void dat_block(struct dat *d, size_t i);
/* The median, min and max of s (NaN when it has no value). */
void dat_summary(struct dat *d, const struct summary *s);
/* A strategy's colour index (plot_colour), other for any other name. */
void dat_colour(struct dat *d, const char *strategy, int other);
/* A file-name-safe copy of s (letters, digits, . _ -). */
void safe_name(char *out, size_t len, const char *s);

/* --- clustered bars (src/plot/bars.c) --- */

/* Distinct data sets, smallest (median bytes_in) first. */
json_t *datasets_by_size(json_t *rows);
/* Write one block: header "cluster" S1 C1 max S2 C2 max ... (Cn the colour
 * index of series n; series without values left out), then one
 * line per cluster (each value of k1 in v1, times each value of k2 when
 * k2 is given, labelled "V1 <k2_prefix>V2") with median/min/max of metric
 * x scale over the rows of each series value (skey, its header label made
 * with the printf format sfmt, "%s" when NULL).  Returns the number of
 * clusters written (those with data). */
size_t bars_block(struct dat *d, json_t *rows, json_t *v1, const char *k1,
		  const char *k2, const char *k2_prefix, const char *skey,
		  const char *sfmt, const char *metric, double scale);
/* Summary of user_s + sys_s per row (cpu_s when a row has it). */
void rows_stat_cpu(json_t *rows, struct summary *s);

/* --- seek-distance histograms (src/plot/seek_hist.c) --- */

/* Does a row carry a non-empty seek_hist column? */
bool rows_have_seek_hist(json_t *rows);
/* Write the histogram block of figure 5 (the bars format, "bucket" for
 * "cluster", a line per log2 distance slot, per strategy its share of the
 * strategy's block requests pooled over the rows, and the min and max
 * share of one row, in %); the number of lines. */
size_t seek_hist_block(struct dat *d, json_t *rows);

/* --- rendering (src/plot/render.c) --- */

/* The directory of the gnuplot scripts: $IOSTRAT_PLOTS, else plots/ beside
 * the binary's build directory, else PREFIX/share/iostrat/plots. */
int plot_scripts_dir(char *out, size_t len);
/* Run gnuplot on one job; *warnings counts lines gnuplot printed (each
 * reported).  0, or -errno after printing why. */
int plot_render(const char *scripts, const char *outdir,
		const struct plot_job *j, unsigned *warnings);
/* Is there a gnuplot to run? */
bool plot_have_gnuplot(void);

#endif
