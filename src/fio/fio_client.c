// SPDX-License-Identifier: MIT
/*
 * Baselines on many hosts at once through fio's own client/server: each
 * host runs `fio --server`, iostrat runs `fio --client=HOST JOB` for all of
 * them in one fio (docs/fleet.md).  The fio client expands the job's
 * ${IOSTRAT_*} variables itself, so every host runs the same job on the
 * same paths; fio's JSON then has one "client_stats" entry per job and
 * host, each with the "hostname" and "port" it was reached at (fio 3.33,
 * checked), and an "All clients" sum that is left out here.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "results/row.h"
#include "harness/sigfwd.h"
#include "lib/util.h"
#include "fio.h"

static int one_client(const char *s, size_t len, struct fio_client *c)
{
	char buf[300], *port = NULL, *end;
	bool v6 = false;

	if (!len || len >= sizeof(buf)) {
		errorf("fio --client: empty or overlong host in the list");
		return -EINVAL;
	}
	memcpy(buf, s, len);
	buf[len] = 0;
	if (buf[0] == '[') { /* [ADDR]:PORT */
		char *close = strchr(buf, ']');

		if (!close || (close[1] && close[1] != ':')) {
			errorf("fio --client: '%s': an IPv6 address is written [ADDR]:PORT", buf);
			return -EINVAL;
		}
		*close = 0;
		port = close[1] ? close + 2 : NULL;
		snprintf(c->host, sizeof(c->host), "%s", buf + 1);
		v6 = true;
	} else {
		port = strchr(buf, ':');
		if (port)
			*port++ = 0;
		snprintf(c->host, sizeof(c->host), "%s", buf);
	}
	c->port = FIO_DEFAULT_PORT;
	if (port) {
		unsigned long p = strtoul(port, &end, 10);

		if (!*port || *end || p < 1 || p > 65535) {
			errorf("fio --client: '%s': bad port '%s' (1..65535)", c->host, port);
			return -EINVAL;
		}
		c->port = (unsigned)p;
	}
	if (!c->host[0]) {
		errorf("fio --client: '%.*s': no host", (int)len, s);
		return -EINVAL;
	}
	if (c->port == FIO_DEFAULT_PORT)
		snprintf(c->label, sizeof(c->label), "%s", c->host);
	else
		snprintf(c->label, sizeof(c->label), v6 ? "[%s]:%u" : "%s:%u", c->host, c->port);
	snprintf(c->opt, sizeof(c->opt), "--client=%s:%s,%u", v6 ? "ip6" : "ip", c->host, c->port);
	return 0;
}

int fio_clients_parse(const char *list, struct fio_client **c, size_t *n)
{
	const char *s = list;

	*n = 0;
	*c = calloc(FIO_CLIENTS_MAX, sizeof(**c));
	if (!*c)
		return -ENOMEM;
	for (;;) {
		size_t len = strcspn(s, ",");
		int ret;

		if (*n == FIO_CLIENTS_MAX) {
			errorf("fio --client: more than %d hosts", FIO_CLIENTS_MAX);
			return -EINVAL;
		}
		ret = one_client(s, len, &(*c)[*n]);
		if (ret)
			return ret;
		for (size_t i = 0; i < *n; i++)
			if (!strcmp((*c)[i].label, (*c)[*n].label)) {
				errorf("fio --client: %s named twice", (*c)[i].label);
				return -EINVAL;
			}
		(*n)++;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

/* A TCP connect to HOST:PORT within timeout_ms: 0 or -errno. */
static int try_connect(const struct fio_client *c, int timeout_ms, char *why, size_t len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai = NULL, *a;
	char port[16];
	int ret, err = -ECONNREFUSED;

	snprintf(port, sizeof(port), "%u", c->port);
	ret = getaddrinfo(c->host, port, &hints, &ai);
	if (ret) {
		snprintf(why, len, "cannot resolve the host (%s)", gai_strerror(ret));
		return -EHOSTUNREACH;
	}
	for (a = ai; a; a = a->ai_next) {
		int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
				a->ai_protocol);
		struct pollfd pf = { .fd = fd, .events = POLLOUT };
		socklen_t sl = sizeof(err);
		int soerr = 0;

		if (fd < 0) {
			err = -errno;
			continue;
		}
		if (connect(fd, a->ai_addr, a->ai_addrlen) && errno != EINPROGRESS) {
			err = -errno;
		} else if (poll(&pf, 1, timeout_ms) != 1) {
			err = -ETIMEDOUT;
		} else {
			getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
			err = -soerr;
		}
		close(fd);
		if (!err)
			break;
	}
	freeaddrinfo(ai);
	if (err)
		snprintf(why, len, "nothing answers on port %u (%s); is `fio --server` "
			 "running there?", c->port, strerror(-err));
	return err;
}

int fio_clients_reach(const struct fio_client *c, size_t n, int timeout_ms)
{
	for (size_t i = 0; i < n; i++) {
		char why[256];
		int ret = try_connect(&c[i], timeout_ms, why, sizeof(why));

		if (ret) {
			errorf("fio --client: %s: %s", c[i].label, why);
			return ret;
		}
	}
	return 0;
}

json_t *fio_json_load(const char *path, json_error_t *e)
{
	char *text = NULL, *start;
	size_t len;
	json_t *j;

	if (read_file_small(path, &text, &len))
		return json_load_file(path, 0, e); /* says why */
	/* the client prints the servers' "<host> ..." lines before the JSON */
	start = text[0] == '{' ? text : strstr(text, "\n{");
	j = json_loads(start ? start + (*start == '\n') : text, 0, e);
	free(text);
	return j;
}

static bool entry_of(json_t *e, const struct fio_client *c)
{
	return !strcmp(json_string_value(json_object_get(e, "hostname")) ?: "", c->host) &&
	       json_integer_value(json_object_get(e, "port")) == (json_int_t)c->port;
}

int fio_client_rows(json_t *fio, const struct fio_client *c, size_t n, json_t *base,
		    json_t *rows)
{
	json_t *stats = json_object_get(fio, "client_stats"), *e;
	int ret = 0;
	size_t i;

	if (!json_is_array(stats)) {
		errorf("fio's JSON has no 'client_stats': not the output of fio --client");
		return -EINVAL;
	}
	for (size_t k = 0; k < n; k++) {
		json_t *one = json_object(), *jobs = json_array(), *row = json_deep_copy(base);
		const char *why = NULL;
		long long err = 0;

		json_array_foreach(stats, i, e)
			if (entry_of(e, &c[k]) &&
			    strcmp(json_string_value(json_object_get(e, "jobname")) ?: "",
				   "All clients")) {
				json_array_append(jobs, e);
				err |= json_integer_value(json_object_get(e, "error"));
			}
		json_object_set(one, "fio version", json_object_get(fio, "fio version"));
		json_object_set_new(one, "jobs", jobs);
		json_object_set_new(row, "host", json_text(c[k].label));
		json_object_set_new(row, "fio_server", json_text(c[k].label));
		/* one configuration per host: report and summary never pool hosts */
		json_object_set_new(row, RC_CONFIG_ID, json_sprintf("%s/host=%s",
				    json_string_value(json_object_get(base, RC_CONFIG_ID)) ?: "-",
				    c[k].label));
		if (!json_array_size(jobs)) {
			errorf("fio --client: %s: fio reported no job of this host", c[k].label);
			json_object_set_new(row, "error", json_text("no result from this host"));
			ret = -EIO;
		} else if (err) {
			errorf("fio --client: %s: fio's job failed there (error %lld: %s)",
			       c[k].label, err, strerror((int)err));
			json_object_set_new(row, "error", json_sprintf("fio error %lld", err));
			ret = -EIO;
		} else if (fio_parse_json(one, row, &why)) {
			errorf("fio --client: %s: fio's JSON lacks the '%s' section", c[k].label, why);
			json_object_set_new(row, "error", json_text("fio baseline failed"));
			ret = -EINVAL;
		} else {
			json_object_set(row, RC_ELAPSED, json_object_get(row, "fio_elapsed_s"));
		}
		json_array_append_new(rows, row);
		json_decref(one);
	}
	return ret;
}

/*
 * The job as the hosts run it: the job file with unlink=1 after each line
 * naming ${IOSTRAT_OUTFILES}, so every host removes the write phase's
 * files itself (iostrat cannot reach their disks), never the inputs.
 */
static int client_job(const char *job, const char *out)
{
	char *text = NULL, *line, *save = NULL;
	size_t len;
	FILE *f;
	int ret = read_file_small(job, &text, &len);

	if (ret)
		return error_errno(ret, job, "reading the fio job");
	f = fopen(out, "we");
	if (!f) {
		free(text);
		return error_errno(-errno, out, "writing");
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		fprintf(f, "%s\n", line);
		if (line[0] != ';' && line[0] != '#' && strstr(line, "${IOSTRAT_OUTFILES}"))
			fputs("unlink=1\n", f);
	}
	free(text);
	return fclose(f) ? error_errno(-EIO, out, "writing") : 0;
}

int fio_run_clients(const struct fio_params *p, json_t **rows)
{
	char errlog[PATH_MAX], job[PATH_MAX], msg[512];
	struct fio_params cp = *p;
	struct rusage ru = { 0 };
	json_t *base = row_new(p->bench, "fio"), *fio;
	json_error_t e;
	double wall = 0;
	int ret;

	*rows = json_array();
	snprintf(errlog, sizeof(errlog), "%s.log", p->json_out);
	snprintf(job, sizeof(job), "%s.fio", p->json_out);
	ret = fio_job_env(p);
	if (!ret)
		ret = client_job(p->job, job);
	if (!ret) {
		cp.job = job;
		sigfwd_catch();
		ret = fio_spawn(&cp, errlog, &ru, &wall);
		sigfwd_release();
		if (ret == -EINTR) {
			unlink(p->json_out);
		} else if (ret == -ENOENT) {
			errorf("fio: not installed (apt-get install fio); no baseline");
		} else if (ret) {
			fio_first_error(errlog, msg, sizeof(msg));
			errorf("%s: %s", p->job, msg);
		}
	}
	if (!ret) {
		fio_fill_row(p, base, 0, &ru, wall);
		/* what this machine knows of the others: nothing of their kernel,
		 * disk or cache, and fio's client is not the measured process */
		static const char *const remote[] = { "kernel", "scheduler", "device", "fs",
			"resident_pct_before", RC_USER, RC_SYS, RC_MAXRSS, "minflt",
			"majflt", "nvcsw", "nivcsw", NULL };
		for (size_t i = 0; remote[i]; i++)
			json_object_set_new(base, remote[i], json_null());
		fio = fio_json_load(p->json_out, &e);
		if (!fio) {
			errorf("%s: fio's JSON does not parse (%s, line %d)", p->json_out,
			       e.text, e.line);
			ret = -EINVAL;
		} else {
			ret = fio_client_rows(fio, p->clients, p->nclients, base, *rows);
		}
		json_decref(fio);
	}
	if (!ret || ret == -EIO)
		unlink(errlog);
	json_decref(base);
	return ret;
}
