// SPDX-License-Identifier: MIT
#include <signal.h>
#include <stddef.h>

#include "sigfwd.h"
#include "util.h"

static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction old[ARRAY_SIZE(sigs)];
static volatile sig_atomic_t caught, times, target, target_group;
static int depth;

static void pass_on(int sig)
{
	pid_t pid = target;

	if (pid > 0)
		kill(target_group ? -pid : pid, sig);
}

static void on_signal(int sig)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	caught = sig;
	if (times++ && target <= 0) { /* a second one, no child: end now */
		sigaction(sig, &dfl, NULL);
		raise(sig);
		return;
	}
	/* a child that shrugs the first one off gets SIGKILL */
	pass_on(times > 1 ? SIGKILL : sig);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		if (sigs[i] == sig && old[i].sa_handler != SIG_DFL &&
		    old[i].sa_handler != SIG_IGN && !(old[i].sa_flags & SA_SIGINFO))
			old[i].sa_handler(sig);
}

void sigfwd_catch(void)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	if (depth++)
		return;
	caught = 0;
	times = 0;
	target = 0;
	sigemptyset(&sa.sa_mask);
	/* caught even when ignored, as `iostrat run` and bench do: a
	 * shell starts background jobs with SIGINT ignored, and kill -INT
	 * must still stop them cleanly */
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, &old[i]);
}

void sigfwd_release(void)
{
	if (depth <= 0 || --depth)
		return;
	target = 0;
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &old[i], NULL);
}

void sigfwd_child(pid_t pid, bool group)
{
	target_group = group;
	target = pid;
	if (pid > 0 && caught)
		pass_on(caught);
}

static void set_mask(int how)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(how, &set, NULL);
}

void sigfwd_block(bool block)
{
	set_mask(block ? SIG_BLOCK : SIG_UNBLOCK);
}

void sigfwd_in_child(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &dfl, NULL);
	set_mask(SIG_UNBLOCK);
}

int sigfwd_caught(void)
{
	return caught;
}
