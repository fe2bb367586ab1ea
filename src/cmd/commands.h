/* SPDX-License-Identifier: MIT */
/* The subcommands' entry points and option tables, one of each per src/cmd/NAME.c. */
#ifndef IOSTRAT_COMMANDS_H
#define IOSTRAT_COMMANDS_H

/*
 * Subcommands: int cmd_NAME(int argc, char **argv), argv[0] = "NAME".
 * Return the process exit status (0 ok, 1 failure, 2 usage error).
 * Each lives in src/cmd/NAME.c; every one is always linked.
 */

#include "lib/settings.h"

int cmd_gen(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_list(int argc, char **argv);
/* hidden: iostrat __columns [--markdown] */
int cmd_columns(int argc, char **argv);
/* Hand every room's column table down to results (row_columns_add):
 * main calls it once at start, before any row is written or read.  0, or
 * -EINVAL for a column declared twice with two types (printed). */
int columns_hand_down(void);
int cmd_bench(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_fio(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_net(int argc, char **argv);
int cmd_sched(int argc, char **argv);
int cmd_queue(int argc, char **argv);
int cmd_limits(int argc, char **argv);

/* Their options (settings.h), each beside its parser in src/cmd/NAME.c. */
extern const struct cmd_opts gen_cmdopts;
extern const struct cmd_opts run_cmdopts;
extern const struct cmd_opts verify_cmdopts;
extern const struct cmd_opts list_cmdopts;
extern const struct cmd_opts bench_cmdopts;
extern const struct cmd_opts report_cmdopts;
extern const struct cmd_opts compare_cmdopts;
extern const struct cmd_opts trace_cmdopts;
extern const struct cmd_opts fio_cmdopts;
extern const struct cmd_opts plot_cmdopts;
extern const struct cmd_opts sweep_cmdopts;
extern const struct cmd_opts net_cmdopts;
extern const struct cmd_opts sched_cmdopts;
extern const struct cmd_opts queue_cmdopts;
extern const struct cmd_opts limits_cmdopts;

#endif
