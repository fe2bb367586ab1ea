// SPDX-License-Identifier: MIT
/* Running gnuplot on each figure's script and data, with a time limit. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/datadir.h"
#include "lib/util.h"
#include "plot.h"

/* A stuck gnuplot (it never should be) must not hang `iostrat plot`. */
#define GNUPLOT_TIMEOUT_MS 120000

static const char *gnuplot_prog(void)
{
	const char *g = getenv("GNUPLOT");

	return g && *g ? g : "gnuplot";
}

bool plot_have_gnuplot(void)
{
	const char *g = gnuplot_prog(), *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(g, '/'))
		return access(g, X_OK) == 0;
	while (path && *path) {
		const char *end = strchrnul(path, ':');

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - path), path, g);
		if (end > path && access(buf, X_OK) == 0)
			return true;
		path = *end ? end + 1 : end;
	}
	return false;
}

static bool has_scripts(const char *dir)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/grid.gp", dir);
	return access(p, R_OK) == 0;
}

int plot_scripts_dir(char *out, size_t len)
{
	const char *env = getenv("IOSTRAT_PLOTS");

	if (env && *env) {
		snprintf(out, len, "%s", env);
		if (has_scripts(out))
			return 0;
		errorf("plot: IOSTRAT_PLOTS=%s has no gnuplot scripts (grid.gp...)", env);
		return -ENOENT;
	}
	if (!datadir_dir("plots", has_scripts, out, len))
		return 0;
	errorf("plot: cannot find the gnuplot scripts (plots/*.gp); set IOSTRAT_PLOTS");
	return -ENOENT;
}

/* A gnuplot single-quoted string: '' stands for one quote. */
static void gp_string(FILE *f, const char *var, const char *s)
{
	fprintf(f, "%s='", var);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputs("'; ", f);
}

static char *gp_assignments(const char *scripts, const char *outdir,
			    const struct plot_job *j)
{
	char outbase[PATH_MAX + 130], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	snprintf(outbase, sizeof(outbase), "%s/%s", outdir, j->name);
	gp_string(f, "datafile", j->data);
	gp_string(f, "outbase", outbase);
	gp_string(f, "title", j->title);
	gp_string(f, "scriptdir", scripts);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void child(int fd, const char *assign, const char *script)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (null >= 0)
		dup2(null, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	execlp(gnuplot_prog(), "gnuplot", "-e", assign, script, (char *)NULL);
	dprintf(2, "cannot run %s: %s\n", gnuplot_prog(), strerror(errno));
	_exit(127);
}

/* Everything gnuplot printed, NUL-terminated; gives up after the timeout. */
static char *collect(int fd, pid_t pid, bool *timed_out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char chunk[4096];
	double end = now_mono() + GNUPLOT_TIMEOUT_MS / 1000.0;

	*timed_out = false;
	for (;;) {
		int ms = (int)((end - now_mono()) * 1000);
		ssize_t n;

		if (ms <= 0 || poll(&p, 1, ms) == 0) {
			kill(pid, SIGKILL);
			*timed_out = true;
			break;
		}
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (f)
			fwrite(chunk, 1, (size_t)n, f);
	}
	if (f)
		fclose(f);
	return buf;
}

static int check_output(const char *outdir, const struct plot_job *j,
			const char *ext)
{
	char p[PATH_MAX + 140];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s.%s", outdir, j->name, ext);
	if (stat(p, &st) || st.st_size == 0) {
		errorf("plot %s: gnuplot wrote no %s", j->fig, p);
		return -EIO;
	}
	return 0;
}

/* Report each line gnuplot printed: a clean run prints nothing. */
static unsigned report_lines(const struct plot_job *j, char *out)
{
	unsigned n = 0;
	char *save = NULL;

	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!*l || strspn(l, " \t^") == strlen(l))
			continue;
		warnf("plot %s (%s): gnuplot: %s", j->fig, j->name, l + strspn(l, " "));
		n++;
	}
	return n;
}

int plot_render(const char *scripts, const char *outdir,
		const struct plot_job *j, unsigned *warnings)
{
	char script[PATH_MAX], *assign = gp_assignments(scripts, outdir, j), *out;
	int fds[2], status = 0, ret = 0;
	bool timed_out;
	pid_t pid;

	*warnings = 0;
	snprintf(script, sizeof(script), "%s/%s.gp", scripts, j->fig);
	if (!assign)
		return error_errno(-ENOMEM, j->name, "plot");
	if (pipe2(fds, O_CLOEXEC)) {
		free(assign);
		return error_errno(-errno, j->name, "plot: pipe");
	}
	pid = fork();
	if (pid == 0)
		child(fds[1], assign, script);
	close(fds[1]);
	free(assign);
	if (pid < 0) {
		close(fds[0]);
		return error_errno(-errno, j->name, "plot: fork");
	}
	out = collect(fds[0], pid, &timed_out);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (out)
		*warnings = report_lines(j, out);
	free(out);
	if (timed_out) {
		errorf("plot %s: gnuplot took longer than %d s; killed", j->fig,
		       GNUPLOT_TIMEOUT_MS / 1000);
		return -ETIMEDOUT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		errorf("plot %s: gnuplot failed on %s (exit %d)", j->fig, script,
		       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		return -EIO;
	}
	ret = check_output(outdir, j, "png");
	if (!ret)
		ret = check_output(outdir, j, "svg");
	return ret;
}
