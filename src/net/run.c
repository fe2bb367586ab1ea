// SPDX-License-Identifier: MIT
/* A plan: every mode at every size, R times, interleaved (repetition
 * outermost) so a noisy neighbour hits every mode alike.  Locally the
 * server is a thread of this process accepting on 127.0.0.1, port 0. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net.h"
#include "results.h"
#include "util.h"

void net_plan_defaults(struct net_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->o.count = 10000;
	p->o.buffer = 64 << 10;
	p->o.batch = 64;
	p->o.timeout_ms = 10000;
	p->reps = 3;
	p->sizes[p->nsizes++] = 12; /* "Hello Server" */
	for (const struct net_mode *m; (m = net_mode_at(p->nmodes));)
		p->modes[p->nmodes++] = m;
}

int net_plan_modes(struct net_plan *p, const char *list)
{
	char buf[512], *save = NULL, *tok;

	if (!strcmp(list, "all")) {
		p->nmodes = 0;
		for (const struct net_mode *m; (m = net_mode_at(p->nmodes));)
			p->modes[p->nmodes++] = m;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	p->nmodes = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct net_mode *m = net_mode_find(tok);

		if (!m) {
			errorf("--mode: unknown mode '%s' (iostrat net --help lists them)", tok);
			return -EINVAL;
		}
		if (p->nmodes == NET_MAX_MODES) {
			errorf("--mode: more than %d modes", NET_MAX_MODES);
			return -EINVAL;
		}
		p->modes[p->nmodes++] = m;
	}
	if (!p->nmodes) {
		errorf("--mode: no mode given");
		return -EINVAL;
	}
	return 0;
}

int net_plan_sizes(struct net_plan *p, const char *list)
{
	char buf[512], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", list);
	p->nsizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (opt_size("--size", tok, 0, NET_MAX_SIZE, &v))
			return -EINVAL;
		if (p->nsizes == NET_MAX_SIZES) {
			errorf("--size: more than %d sizes", NET_MAX_SIZES);
			return -EINVAL;
		}
		p->sizes[p->nsizes++] = (uint32_t)v;
	}
	if (!p->nsizes) {
		errorf("--size: no size given");
		return -EINVAL;
	}
	return 0;
}

struct server_thread {
	pthread_t tid;
	int lfd;
	const struct net_opts *o;
	int ret;
	char why[256];
};

static void *server_main(void *arg)
{
	struct server_thread *s = arg;
	struct net_served sv;
	char peer[128];
	int fd;

	fd = net_accept(s->lfd, s->o->timeout_ms, peer, sizeof(peer), s->why,
			sizeof(s->why));
	s->ret = fd < 0 ? fd : net_serve(fd, s->o, &sv, s->why, sizeof(s->why));
	return NULL;
}

/* Blame the server when the client only saw the consequence. */
static void pick_error(int cret, const char *cwhy, const struct server_thread *s,
		       char *why, size_t wlen)
{
	bool echo = cret == -EPIPE || cret == -ECONNRESET || cret == -EPROTO;

	if (s && s->ret && (echo || !cret))
		snprintf(why, wlen, "server: %s", s->why);
	else
		snprintf(why, wlen, "%s", cwhy);
}

struct plan_run {
	const struct net_plan *p;
	struct results_dir *res;
	const char *bench;
	int lfd;
	char port[16];
};

static int one_run(struct plan_run *pr, const struct net_mode *m,
		   const struct net_opts *o, unsigned rep, char *why, size_t wlen)
{
	struct server_thread st = { .lfd = pr->lfd, .o = o };
	const char *host = pr->p->host ? pr->p->host : "127.0.0.1";
	struct net_result r;
	char cwhy[512] = "";
	json_t *row;
	int ret, aret;

	if (pr->lfd >= 0 && (errno = pthread_create(&st.tid, NULL, server_main, &st))) {
		snprintf(why, wlen, "pthread_create: %s", strerror(errno));
		return -errno;
	}
	ret = net_client_run(host, pr->port, m, o, &r, cwhy, sizeof(cwhy));
	if (pr->lfd >= 0)
		pthread_join(st.tid, NULL);
	if (ret || (pr->lfd >= 0 && st.ret)) {
		pick_error(ret, cwhy, pr->lfd >= 0 ? &st : NULL, why, wlen);
		ret = ret ? ret : st.ret;
	}
	row = net_row(pr->bench, m, o, rep, ret ? NULL : &r, ret ? why : NULL);
	aret = results_append(pr->res, row);
	if (!ret && pr->p->verbose)
		printf("rep %u  %-20s %7u B  %10.0f msgs/s  %.3f calls/msg\n", rep,
		       m->name, o->size, (double)r.msgs / r.elapsed_s,
		       (double)r.calls / (double)r.msgs);
	json_decref(row);
	if (aret && !ret) {
		snprintf(why, wlen, "%s: could not append a row", pr->res->path);
		ret = aret;
	}
	return ret;
}

static int run_all(struct plan_run *pr, char *why, size_t wlen)
{
	const struct net_plan *p = pr->p;

	for (unsigned rep = 1; rep <= p->reps; rep++)
		for (size_t s = 0; s < p->nsizes; s++)
			for (size_t i = 0; i < p->nmodes; i++) {
				struct net_opts o = p->o;
				int ret;

				o.size = p->sizes[s];
				ret = one_run(pr, p->modes[i], &o, rep, why, wlen);
				if (ret)
					return ret;
			}
	return 0;
}

int net_run_plan(const struct net_plan *p, struct results_dir *res,
		 const char *bench, char *why, size_t wlen)
{
	struct plan_run pr = { .p = p, .res = res, .bench = bench, .lfd = -1 };
	int ret, port;

	if (p->host) {
		snprintf(pr.port, sizeof(pr.port), "%s", p->port);
	} else {
		pr.lfd = net_listen("127.0.0.1", "0", &p->o, &port, why, wlen);
		if (pr.lfd < 0)
			return pr.lfd;
		snprintf(pr.port, sizeof(pr.port), "%d", port);
	}
	ret = run_all(&pr, why, wlen);
	if (pr.lfd >= 0)
		close(pr.lfd);
	return ret;
}
