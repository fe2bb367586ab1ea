/* SPDX-License-Identifier: MIT */
#ifndef IOSTRAT_COMMANDS_H
#define IOSTRAT_COMMANDS_H

/*
 * Subcommands: int cmd_NAME(int argc, char **argv), argv[0] = "NAME".
 * Return the process exit status (0 ok, 1 failure, 2 usage error).
 * Each lives in src/cmd/NAME.c.  Commands not linked into this build are
 * weak and reported as unavailable (see main.c).
 */
#define CMD_WEAK __attribute__((weak))

int cmd_gen(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_bench(int argc, char **argv) CMD_WEAK;
int cmd_report(int argc, char **argv) CMD_WEAK;
int cmd_compare(int argc, char **argv) CMD_WEAK;
int cmd_trace(int argc, char **argv) CMD_WEAK;
int cmd_fio(int argc, char **argv) CMD_WEAK;
int cmd_plot(int argc, char **argv) CMD_WEAK;
int cmd_sweep(int argc, char **argv) CMD_WEAK;
int cmd_net(int argc, char **argv) CMD_WEAK;
int cmd_sched(int argc, char **argv) CMD_WEAK;
int cmd_queue(int argc, char **argv) CMD_WEAK;

#endif
