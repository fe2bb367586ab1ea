// SPDX-License-Identifier: MIT
/* The stop signals: see stop.h. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>

#include "stop.h"
#include "lib/util.h"

#define MAX_DEPTH 8

static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction before[ARRAY_SIZE(sigs)];
static struct {
	stop_hook hook;
	enum stop_mode mode;
	bool restart;
} stack[MAX_DEPTH];
static volatile sig_atomic_t depth, caught, count;

static bool never_hard(void)
{
	for (sig_atomic_t i = 0; i < depth; i++)
		if (stack[i].mode == STOP_NEVER_HARD)
			return true;
	return false;
}

static void on_signal(int sig)
{
	int saved = errno; /* the interrupted code reads its own errno after */
	bool keep = false;
	unsigned n;

	caught = sig;
	n = (unsigned)++count;
	for (sig_atomic_t i = depth; i-- > 0;)
		if (stack[i].hook)
			keep |= stack[i].hook(sig, n);
	if (n > 1 && !keep && !never_hard()) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		sigaction(sig, &dfl, NULL);
		raise(sig); /* delivered when we return: the default action */
	}
	errno = saved;
}

static void install(bool restart)
{
	struct sigaction sa = { .sa_handler = on_signal,
				.sa_flags = restart ? SA_RESTART : 0 };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, depth == 1 ? &before[i] : NULL);
}

void stop_catch(enum stop_mode mode, stop_hook hook, bool restart)
{
	if (depth >= MAX_DEPTH) {
		errorf("stop_catch: nested %d deep", MAX_DEPTH);
		abort();
	}
	stack[depth].mode = mode;
	stack[depth].hook = hook;
	stack[depth].restart = restart;
	if (!depth) {
		caught = 0;
		count = 0;
	}
	depth++;
	install(restart);
}

void stop_release(void)
{
	if (depth <= 0)
		return;
	if (--depth) {
		install(stack[depth - 1].restart);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &before[i], NULL);
}

int stop_caught(void)
{
	return caught;
}

unsigned stop_count(void)
{
	return (unsigned)count;
}

static void set_mask(int how)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(how, &set, NULL);
}

void stop_block(bool block)
{
	set_mask(block ? SIG_BLOCK : SIG_UNBLOCK);
}

void stop_in_child(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &dfl, NULL);
	set_mask(SIG_UNBLOCK);
}
