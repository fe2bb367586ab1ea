// SPDX-License-Identifier: MIT
/* Reading grub.cfg to find the menu entry of a kernel version, and setting the next boot. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "grub.h"

/* One shell-like word of a grub.cfg line: 'quoted', "quoted" or bare,
 * adjacent parts joined ('a'\''b' is a'b).  Returns the rest, or NULL. */
static const char *word(const char *s, char *out, size_t len)
{
	size_t n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '\n')
		return NULL;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
		char q = *s;

		if (q == '\'' || q == '"') {
			for (s++; *s && *s != q; s++)
				if (n + 1 < len)
					out[n++] = *s;
			if (*s)
				s++;
		} else {
			if (q == '\\' && s[1])
				s++;
			if (n + 1 < len)
				out[n++] = *s;
			s++;
		}
	}
	out[n] = 0;
	return s;
}

/* Net count of { and } outside quotes. */
static int brace_delta(const char *s)
{
	char q = 0;
	int d = 0;

	for (; *s; s++) {
		if (q) {
			if (*s == q)
				q = 0;
		} else if (*s == '\\' && s[1]) {
			s++; /* \' is a quote character, not a quote */
		} else if (*s == '\'' || *s == '"') {
			q = *s;
		} else if (*s == '{') {
			d++;
		} else if (*s == '}') {
			d--;
		} else if (*s == '#') {
			break;
		}
	}
	return d;
}

/* "menuentry 'T' ... $menuentry_id_option 'ID' {": the id, else the title. */
static void entry_name(const char *rest, char *out, size_t len)
{
	char w[512], title[512] = "";
	bool want_id = false;

	out[0] = 0;
	while ((rest = word(rest, w, sizeof(w)))) {
		if (!title[0]) {
			snprintf(title, sizeof(title), "%s", w);
			continue;
		}
		if (want_id) {
			snprintf(out, len, "%s", w);
			return;
		}
		want_id = !strcmp(w, "$menuentry_id_option") || !strcmp(w, "--id");
	}
	snprintf(out, len, "%s", title);
}

static bool boots_version(const char *rest, const char *version)
{
	char w[PATH_MAX], want[256];
	const char *base;

	if (!word(rest, w, sizeof(w)))
		return false;
	base = strrchr(w, '/') ? strrchr(w, '/') + 1 : w;
	snprintf(want, sizeof(want), "vmlinuz-%s", version);
	if (!strcmp(base, want))
		return true;
	snprintf(want, sizeof(want), "vmlinux-%s", version);
	return !strcmp(base, want);
}

struct gstate {
	char path[8][256];   /* names of the open submenus */
	int path_depth[8];   /* brace depth inside each */
	int nsub;
	char entry[256];     /* the open menuentry, "" outside */
	int entry_depth;
	bool recovery;
	int depth;
};

static void close_blocks(struct gstate *g)
{
	while (g->nsub && g->depth < g->path_depth[g->nsub - 1])
		g->nsub--;
	if (g->entry[0] && g->depth < g->entry_depth)
		g->entry[0] = 0;
}

static int join_path(const struct gstate *g, char *out, size_t len)
{
	size_t off = 0;

	out[0] = 0;
	for (int i = 0; i < g->nsub; i++)
		off += (size_t)snprintf(out + off, off < len ? len - off : 0,
					"%s>", g->path[i]);
	if ((size_t)snprintf(out + off, off < len ? len - off : 0, "%s",
			     g->entry) >= (off < len ? len - off : 0))
		return -ENAMETOOLONG;
	return 0;
}

int grub_find_entry(const char *cfg_path, const char *version, char *out,
		    size_t len)
{
	struct gstate g = { .nsub = 0 };
	char line[4096], w[64];
	FILE *f = fopen(cfg_path, "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret == -ENOENT && fgets(line, sizeof(line), f)) {
		const char *rest = word(line, w, sizeof(w));
		int delta = brace_delta(line);

		if (rest && !strcmp(w, "submenu") && g.nsub < 8) {
			entry_name(rest, g.path[g.nsub], sizeof(g.path[0]));
			g.path_depth[g.nsub++] = g.depth + 1;
		} else if (rest && !strcmp(w, "menuentry")) {
			entry_name(rest, g.entry, sizeof(g.entry));
			g.recovery = strstr(line, "recovery") != NULL;
			g.entry_depth = g.depth + 1;
		} else if (rest && g.entry[0] && !g.recovery &&
			   (!strcmp(w, "linux") || !strcmp(w, "linuxefi") ||
			    !strcmp(w, "linux16")) && boots_version(rest, version)) {
			ret = join_path(&g, out, len);
			break;
		}
		g.depth += delta;
		close_blocks(&g);
	}
	fclose(f);
	return ret;
}

static bool in_path(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char dirs[4096], *save = NULL;

	snprintf(dirs, sizeof(dirs), "%s:/usr/sbin:/sbin",
		 path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", d, name);
		if (!access(out, X_OK))
			return true;
	}
	return false;
}

int grub_locate(char *cfg, size_t cfglen, char *tool, size_t toollen,
		const char **why)
{
	static const char *const cfgs[] = {
		"/boot/grub/grub.cfg", "/boot/grub2/grub.cfg",
	};
	const char *ecfg = getenv("IOSTRAT_GRUB_CFG");
	const char *etool = getenv("IOSTRAT_GRUB_REBOOT");

	cfg[0] = 0;
	if (ecfg && *ecfg)
		snprintf(cfg, cfglen, "%s", ecfg);
	for (size_t i = 0; !cfg[0] && i < ARRAY_SIZE(cfgs); i++)
		if (!access(cfgs[i], R_OK))
			snprintf(cfg, cfglen, "%s", cfgs[i]);
	if (!cfg[0] || access(cfg, R_OK)) {
		*why = "GRUB is not the boot loader here (no readable /boot/grub/grub.cfg or /boot/grub2/grub.cfg)";
		return -ENOENT;
	}
	if (etool && *etool)
		snprintf(tool, toollen, "%s", etool);
	else if (!in_path("grub-reboot", tool, toollen) &&
		 !in_path("grub2-reboot", tool, toollen)) {
		*why = "grub-reboot (or grub2-reboot) is not installed";
		return -ENOENT;
	}
	return 0;
}

static int resolve(const char *version, char *cmd, size_t cmdlen,
		   char *entry, size_t entrylen)
{
	char cfg[PATH_MAX];
	const char *why = "";
	int ret = grub_locate(cfg, sizeof(cfg), cmd, cmdlen, &why);

	if (ret) {
		errorf("--kernel %s: cannot choose the next boot's kernel: %s",
		       version, why);
		return ret;
	}
	ret = grub_find_entry(cfg, version, entry, entrylen);
	if (ret == -ENOENT)
		errorf("--kernel %s: no GRUB menu entry boots vmlinuz-%s in %s (installed kernels are listed there)",
		       version, version, cfg);
	else if (ret)
		error_errno(ret, cfg, "read");
	return ret;
}

/* grub-reboot only works with GRUB_DEFAULT=saved: say so early. */
static void warn_saved_default(void)
{
	char *text = NULL;

	if (getenv("IOSTRAT_GRUB_CFG") || read_file_small("/etc/default/grub", &text, NULL))
		return;
	if (!strstr(text, "\nGRUB_DEFAULT=saved") && strncmp(text, "GRUB_DEFAULT=saved", 18))
		warnf("/etc/default/grub: set GRUB_DEFAULT=saved and run update-grub, or grub-reboot cannot choose the next boot");
	free(text);
}

int grub_check(const char *version)
{
	char cmd[PATH_MAX], entry[1024];
	int ret = resolve(version, cmd, sizeof(cmd), entry, sizeof(entry));

	if (!ret)
		warn_saved_default();
	return ret;
}

int grub_boot_next(const char *version)
{
	char cmd[PATH_MAX], entry[1024];
	int ret = resolve(version, cmd, sizeof(cmd), entry, sizeof(entry));
	pid_t pid;
	int st;

	if (ret)
		return ret;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execl(cmd, cmd, entry, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		errorf("%s '%s': failed (status %d)", cmd, entry,
		       WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
		return -EIO;
	}
	fprintf(stderr, "iostrat: next boot: kernel %s (GRUB entry '%s')\n",
		version, entry);
	return 0;
}
