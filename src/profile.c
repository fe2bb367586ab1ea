// SPDX-License-Identifier: MIT
/*
 * Profile loading: a line reader (include, ${VAR}, file:line tracking)
 * feeding libinih, then [global] inheritance, -D overrides, kind dispatch
 * and cross-product expansion.  See profile.h for the dialect.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "bench/bench.h"
#include "profile.h"
#include "util.h"

#define MAX_INCLUDE_DEPTH 16
#define MAX_LINE 4096
#define MAX_ITEMS 10000   /* per list, and configurations per section */
#define MAX_CONFIGS 100000 /* in the whole profile: ~300,000 runs, weeks */

/* ---- the kind table ------------------------------------------------------
 * "run" is always linked; the others are weak until their engineer's file
 * defines them (src/bench/kind_NAME.c or elsewhere). */
#define WEAK __attribute__((weak))
extern const struct bench_kind bench_kind_run;
extern const struct bench_kind bench_kind_sweep WEAK;
extern const struct bench_kind bench_kind_net WEAK;
extern const struct bench_kind bench_kind_fio WEAK;
extern const struct bench_kind bench_kind_sched WEAK;

static const struct {
	const char *name;
	const struct bench_kind *kind;
} kinds[] = {
	{ "run", &bench_kind_run },
	{ "sweep", &bench_kind_sweep },
	{ "net", &bench_kind_net },
	{ "fio", &bench_kind_fio },
	{ "sched", &bench_kind_sched },
};

const struct bench_kind *bench_kind_find(const char *name, bool *known)
{
	*known = false;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (strcmp(kinds[i].name, name))
			continue;
		*known = true;
		return kinds[i].kind;
	}
	return NULL;
}

const char *bench_kind_by_section(const char *s)
{
	for (size_t i = 1; i < ARRAY_SIZE(kinds); i++) {
		size_t n = strlen(kinds[i].name);

		if (!strncmp(s, kinds[i].name, n) && (!s[n] || s[n] == '-'))
			return kinds[i].name;
	}
	return NULL;
}

bool profile_engine_key(const char *k)
{
	return !strcmp(k, "kind") || !strcmp(k, "reps") ||
	       !strcmp(k, "max_reps") || !strcmp(k, "target_rsd");
}

bool profile_true(const char *v)
{
	return v && (!strcmp(v, "1") || !strcmp(v, "true") ||
		     !strcmp(v, "yes") || !strcmp(v, "on"));
}

/* ---- raw sections, as read ---------------------------------------------- */

struct rsec {
	char *name, *where;
	struct pkv *kv;
	size_t nkv;
};

struct infile {
	FILE *f;
	char *path, *real;
	unsigned line;
};

struct loader {
	struct infile stack[MAX_INCLUDE_DEPTH];
	int depth;
	char where[PATH_MAX + 16];
	struct rsec *secs;
	size_t nsecs;
	int err;
};

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d) {
		errorf("out of memory");
		exit(1);
	}
	return d;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		errorf("out of memory");
		exit(1);
	}
	return p;
}

/* Room for item n of an array of n: the capacity is n rounded up to a power
 * of two, so appending is amortised O(1) (one realloc per item was
 * quadratic wherever realloc copies, as under ASan). */
static void *grow(void *p, size_t n, size_t size)
{
	if (n & (n - 1))
		return p; /* not a power of two: room left */
	return xrealloc(p, (n ? 2 * n : 1) * size);
}

static void kv_add(struct pkv **kv, size_t *n, const char *k, const char *v,
		   const char *where)
{
	for (size_t i = 0; i < *n; i++) {
		if (strcmp((*kv)[i].key, k))
			continue;
		free((*kv)[i].value);
		free((*kv)[i].where);
		(*kv)[i].value = xstrdup(v);
		(*kv)[i].where = xstrdup(where);
		return;
	}
	*kv = grow(*kv, *n, sizeof(**kv));
	(*kv)[*n] = (struct pkv){ xstrdup(k), xstrdup(v), xstrdup(where) };
	(*n)++;
}

static void kv_free(struct pkv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
		free(kv[i].where);
	}
	free(kv);
}

static int push_file(struct loader *L, const char *path)
{
	char real[PATH_MAX];
	struct infile *in;

	if (L->depth >= MAX_INCLUDE_DEPTH) {
		errorf("%s: includes nested deeper than %d", L->where,
		       MAX_INCLUDE_DEPTH);
		return -ELOOP;
	}
	if (!realpath(path, real))
		return error_errno(-errno, path, L->depth ? "include" : "profile");
	for (int i = 0; i < L->depth; i++)
		if (!strcmp(L->stack[i].real, real)) {
			errorf("%s: include loop: %s includes itself", L->where, path);
			return -ELOOP;
		}
	in = &L->stack[L->depth];
	in->f = fopen(path, "re");
	if (!in->f)
		return error_errno(-errno, path, "profile");
	{
		struct stat sb;

		/* a directory opens, then reads as nothing: "empty matrix" */
		if (fstat(fileno(in->f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
			fclose(in->f);
			return error_errno(-EISDIR, path, L->depth ? "include" : "profile");
		}
	}
	in->path = xstrdup(path);
	in->real = xstrdup(real);
	in->line = 0;
	L->depth++;
	return 0;
}

static void pop_file(struct loader *L)
{
	struct infile *in = &L->stack[--L->depth];

	fclose(in->f);
	free(in->path);
	free(in->real);
}

/* "include FILE" relative to the including file's directory. */
static int do_include(struct loader *L, char *arg)
{
	const char *cur = L->stack[L->depth - 1].path, *slash = strrchr(cur, '/');
	char path[PATH_MAX];

	arg[strcspn(arg, "\r\n")] = 0;
	while (*arg == ' ' || *arg == '\t')
		arg++;
	for (char *e = arg + strlen(arg); e > arg && (e[-1] == ' ' || e[-1] == '\t');)
		*--e = 0;
	if (!*arg) {
		errorf("%s: include: missing file name", L->where);
		return -EINVAL;
	}
	if (arg[0] == '/' || !slash)
		snprintf(path, sizeof(path), "%s", arg);
	else
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - cur), cur, arg);
	return push_file(L, path);
}

/* Expand ${VAR} and ${VAR:-default} from the environment. */
static int expand_vars(struct loader *L, const char *in, char *out, size_t len)
{
	size_t o = 0;

	while (*in) {
		const char *end, *dflt;
		char name[256];
		const char *val;
		size_t nlen, vlen;

		if (in[0] != '$' || in[1] != '{') {
			if (o + 1 >= len)
				goto too_long;
			out[o++] = *in++;
			continue;
		}
		end = strchr(in, '}');
		if (!end) {
			errorf("%s: unterminated ${", L->where);
			return -EINVAL;
		}
		dflt = strstr(in, ":-");
		nlen = (size_t)((dflt && dflt < end ? dflt : end) - (in + 2));
		if (!nlen || nlen >= sizeof(name)) {
			errorf("%s: bad variable reference", L->where);
			return -EINVAL;
		}
		memcpy(name, in + 2, nlen);
		name[nlen] = 0;
		val = getenv(name);
		if ((!val || !*val) && dflt && dflt < end) {
			val = dflt + 2;
			vlen = (size_t)(end - val);
		} else if (!val) {
			errorf("%s: ${%s} is not set (give a default: ${%s:-VALUE})",
			       L->where, name, name);
			return -EINVAL;
		} else {
			vlen = strlen(val);
		}
		if (o + vlen + 1 >= len)
			goto too_long;
		memcpy(out + o, val, vlen);
		o += vlen;
		in = end + 1;
	}
	out[o] = 0;
	return 0;
too_long:
	errorf("%s: line too long after expanding variables", L->where);
	return -E2BIG;
}

static void new_section(struct loader *L, const char *line)
{
	const char *end = strchr(line, ']');
	struct rsec *s;

	L->secs = grow(L->secs, L->nsecs, sizeof(*L->secs));
	s = &L->secs[L->nsecs++];
	memset(s, 0, sizeof(*s));
	s->name = end ? strndup(line + 1, (size_t)(end - line - 1)) : xstrdup("");
	s->where = xstrdup(L->where);
}

/* libinih's line source: includes and variables are resolved here, and
 * L->where always names the line libinih is parsing. */
static char *reader(char *str, int num, void *stream)
{
	struct loader *L = stream;
	char raw[MAX_LINE + 2], *p;

	while (!L->err && L->depth) {
		struct infile *in = &L->stack[L->depth - 1];

		if (!fgets(raw, sizeof(raw), in->f)) {
			pop_file(L);
			continue;
		}
		in->line++;
		snprintf(L->where, sizeof(L->where), "%s:%u", in->path, in->line);
		if (in->line == 1 && !strncmp(raw, "\xef\xbb\xbf", 3)) /* UTF-8 BOM */
			memmove(raw, raw + 3, strlen(raw + 3) + 1);
		if (!strchr(raw, '\n') && !feof(in->f)) {
			errorf("%s: line longer than %d characters", L->where, MAX_LINE);
			L->err = -E2BIG;
			return NULL;
		}
		for (p = raw; *p == ' ' || *p == '\t'; p++)
			;
		if (!strncmp(p, "include", 7) && (p[7] == ' ' || p[7] == '\t')) {
			L->err = do_include(L, p + 8);
			continue;
		}
		L->err = expand_vars(L, p, str, (size_t)num);
		if (L->err)
			return NULL;
		if (str[0] == '[')
			new_section(L, str);
		return str;
	}
	return NULL;
}

static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct loader *L = user;

	(void)section;
	if (L->err)
		return 0;
	if (!L->nsecs) {
		char n[48]; /* an include of any file: never echo a line of it */

		errorf("%s: key '%.24s%s' before any [section]", L->where,
		       text_escape(name, n, sizeof(n)), strlen(name) > 24 ? "..." : "");
		L->err = -EINVAL;
		return 0;
	}
	if (!value || !*value) {
		errorf("%s: %.24s: empty value", L->where, name);
		L->err = -EINVAL;
		return 0;
	}
	kv_add(&L->secs[L->nsecs - 1].kv, &L->secs[L->nsecs - 1].nkv, name,
	       value, L->where);
	return 1;
}

static void free_rsecs(struct rsec *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].name);
		free(s[i].where);
		kv_free(s[i].kv, s[i].nkv);
	}
	free(s);
}

static int read_profile(const char *path, struct loader *L)
{
	int ret;

	memset(L, 0, sizeof(*L));
	snprintf(L->where, sizeof(L->where), "%s", path);
	ret = push_file(L, path);
	if (ret)
		return ret;
	/* Plain lines, no multi-line values, long lines allowed. */
	ini_allow_multiline = false;
	/* Debian's libinih takes its limits at run time. With the heap buffer
	 * the line limit is ini_initial_alloc (200 by default) unless realloc
	 * is allowed: set both, or every line of 200 characters is refused. */
	ini_use_stack = false;
	ini_max_line = MAX_LINE + 2;
	ini_initial_alloc = MAX_LINE + 2;
	ini_stop_on_first_error = true;
	ret = ini_parse_stream(reader, L, handler, L);
	if (ret > 0 && !L->err) {
		errorf("%s: not a [section], key=value or include line", L->where);
		L->err = -EINVAL;
	} else if (ret < 0 && !L->err) {
		errorf("%s: cannot parse (out of memory)", path);
		L->err = -ENOMEM;
	}
	while (L->depth)
		pop_file(L);
	return L->err;
}

/* ---- value expansion ------------------------------------------------------ */

void profile_free_items(char **items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(items[i]);
	free(items);
}

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* "A-B" or "A-B:S" with A, B, S whole numbers: 1 and the bounds; 0 when
 * the item is not a range at all (a plain value such as "medium-short"). */
static int parse_range(const char *it, unsigned long *a, unsigned long *b,
		       unsigned long *step)
{
	const char *dash = strchr(it, '-'), *colon;

	if (!dash || !all_digits(it, (size_t)(dash - it)))
		return 0;
	colon = strchr(dash, ':');
	if (!all_digits(dash + 1, colon ? (size_t)(colon - dash - 1) : strlen(dash + 1)))
		return 0;
	if (colon && !all_digits(colon + 1, strlen(colon + 1)))
		return 0;
	errno = 0;
	*a = strtoul(it, NULL, 10);
	*b = strtoul(dash + 1, NULL, 10);
	*step = colon ? strtoul(colon + 1, NULL, 10) : 1;
	if (errno == ERANGE) /* saturated at ULONG_MAX: a bad range, not a loop */
		*step = 0;
	return 1;
}

static void push_item(char ***items, size_t *n, const char *s, size_t len)
{
	*items = grow(*items, *n, sizeof(**items));
	(*items)[*n] = strndup(s, len);
	if (!(*items)[*n]) {
		errorf("out of memory");
		exit(1);
	}
	(*n)++;
}

int profile_expand_value(const char *where, const char *key, const char *v,
			 char ***items, size_t *n)
{
	const char *p = v;

	*items = NULL;
	*n = 0;
	for (;;) {
		const char *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
		unsigned long a, b, step;
		char it[256];
		size_t len;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		len = (size_t)(end - p);
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (!len || len >= sizeof(it)) {
			errorf("%s: %s: %s item in '%s'", where, key,
			       len ? "too long an" : "empty", v);
			goto fail;
		}
		memcpy(it, p, len);
		it[len] = 0;
		if (!parse_range(it, &a, &b, &step)) {
			push_item(items, n, it, len);
		} else if (a > b || !step || (b - a) / step >= MAX_ITEMS) {
			errorf("%s: %s: bad range '%s' (want LOW-HIGH[:STEP], LOW <= HIGH, "
			       "STEP >= 1, at most %d values)", where, key, it, MAX_ITEMS);
			goto fail;
		} else {
			/* by count: x += step must not wrap past ULONG_MAX */
			for (unsigned long k = 0, x = a; k <= (b - a) / step; k++, x += step) {
				char num[32];

				snprintf(num, sizeof(num), "%lu", x);
				push_item(items, n, num, strlen(num));
			}
		}
		if (*n > MAX_ITEMS) {
			errorf("%s: %s: more than %d values", where, key, MAX_ITEMS);
			goto fail;
		}
		if (!comma)
			return 0;
		p = comma + 1;
	}
fail:
	profile_free_items(*items, *n);
	*items = NULL;
	*n = 0;
	return -EINVAL;
}

/* ---- sections into configurations --------------------------------------- */

static void note(struct profile *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct profile *p, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < p->nnotes; i++)
		if (!strcmp(p->notes[i], buf))
			return;
	p->notes = grow(p->notes, p->nnotes, sizeof(*p->notes));
	p->notes[p->nnotes++] = xstrdup(buf);
}

static void add_conf(struct profile *p, const struct rsec *s,
		     const struct bench_kind *kind, const struct pkv *kv,
		     char **vals, size_t nkv)
{
	struct pconf *c;

	p->confs = grow(p->confs, p->n, sizeof(*p->confs));
	c = &p->confs[p->n++];
	c->section = xstrdup(s->name);
	c->where = xstrdup(s->where);
	c->kind = kind;
	c->kv = NULL;
	c->nkv = 0;
	for (size_t i = 0; i < nkv; i++)
		kv_add(&c->kv, &c->nkv, kv[i].key, vals[i], kv[i].where);
}

/* Cross product of the section's lists, last key varying fastest. */
static int expand_section(struct profile *p, const struct rsec *s,
			  const struct bench_kind *kind, const struct pkv *kv,
			  size_t nkv)
{
	char ***items = calloc(nkv + 1, sizeof(*items));
	size_t *cnt = calloc(nkv + 1, sizeof(*cnt)), *idx = calloc(nkv + 1, sizeof(*idx));
	char **vals = calloc(nkv + 1, sizeof(*vals));
	size_t total = 1;
	int ret = 0;

	if (!items || !cnt || !idx || !vals) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nkv && !ret; i++) {
		ret = profile_expand_value(kv[i].where, kv[i].key, kv[i].value,
					   &items[i], &cnt[i]);
		if (!ret && (total *= cnt[i]) > MAX_ITEMS) {
			errorf("%s: section [%s] expands to more than %d configurations",
			       s->where, s->name, MAX_ITEMS);
			ret = -E2BIG;
		}
	}
	if (!ret && p->n + total > MAX_CONFIGS) {
		errorf("%s: section [%s]: the profile expands to more than %d "
		       "configurations", s->where, s->name, MAX_CONFIGS);
		ret = -E2BIG;
	}
	for (size_t n = 0; !ret && n < total; n++) {
		for (size_t i = 0; i < nkv; i++)
			vals[i] = items[i][idx[i]];
		add_conf(p, s, kind, kv, vals, nkv);
		for (size_t i = nkv; i-- > 0;) {
			if (++idx[i] < cnt[i])
				break;
			idx[i] = 0;
		}
	}
out:
	for (size_t i = 0; items && i < nkv; i++)
		profile_free_items(items[i], cnt[i]);
	free(items);
	free(cnt);
	free(idx);
	free(vals);
	return ret;
}

/* Which kind runs section s (with its effective keys)?  NULL + 0: skip. */
static int section_kind(struct profile *p, const struct rsec *s,
			const struct pkv *kv, size_t nkv,
			const struct bench_kind **kind)
{
	const char *name = NULL, *where = s->where;
	bool known;

	for (size_t i = 0; i < nkv; i++)
		if (!strcmp(kv[i].key, "kind")) {
			name = kv[i].value;
			where = kv[i].where;
		}
	if (!name)
		name = bench_kind_by_section(s->name);
	if (!name)
		name = "run";
	*kind = bench_kind_find(name, &known);
	if (!known) {
		errorf("%s: unknown section kind '%s' (run, sweep, net, fio, sched)",
		       where, name);
		return -EINVAL;
	}
	if (!*kind)
		note(p, "%s: [%s]: '%s' is not built into this iostrat; section skipped",
		     s->where, s->name, name);
	return 0;
}

/* fio=1 in a run section: each configuration gets a companion of kind
 * "fio" right after it (the fio baseline on the same data set and
 * settings), when that kind is linked; the fio kind reads the run keys. */
static void add_fio_companions(struct profile *p, size_t first)
{
	size_t end = p->n;

	for (size_t i = first; i < end; i++) {
		struct pconf *c = &p->confs[i], *f;

		if (!profile_true(pconf_get(c, "fio")))
			continue;
		if (!&bench_kind_fio) {
			note(p, "%s: fio=1: fio baselines are not built into this "
			     "iostrat; skipped", pconf_kv(c, "fio")->where);
			continue;
		}
		p->confs = grow(p->confs, p->n, sizeof(*p->confs));
		c = &p->confs[i];
		f = &p->confs[p->n++];
		f->section = xstrdup(c->section);
		f->where = xstrdup(c->where);
		f->kind = &bench_kind_fio;
		f->kv = NULL;
		f->nkv = 0;
		for (size_t k = 0; k < c->nkv; k++)
			if (strcmp(c->kv[k].key, "fio"))
				kv_add(&f->kv, &f->nkv, c->kv[k].key, c->kv[k].value,
				       c->kv[k].where);
		kv_add(&f->kv, &f->nkv, "kind", "fio", c->where);
	}
}

static int build(struct profile *p, struct rsec *secs, size_t nsecs,
		 char *const *defs, size_t ndefs)
{
	struct pkv *glob = NULL, *eff;
	size_t nglob = 0, neff, nrun = 0;
	int ret = 0;

	for (size_t i = 0; i < nsecs && !ret; i++) {
		const struct bench_kind *kind;
		struct rsec *s = &secs[i];

		if (!strcmp(s->name, "global")) {
			for (size_t k = 0; k < s->nkv; k++)
				kv_add(&glob, &nglob, s->kv[k].key, s->kv[k].value,
				       s->kv[k].where);
			continue;
		}
		if (!*s->name) {
			errorf("%s: empty section name", s->where);
			ret = -EINVAL;
			break;
		}
		eff = NULL;
		neff = 0;
		for (size_t k = 0; k < nglob; k++)
			kv_add(&eff, &neff, glob[k].key, glob[k].value, glob[k].where);
		for (size_t k = 0; k < s->nkv; k++)
			kv_add(&eff, &neff, s->kv[k].key, s->kv[k].value, s->kv[k].where);
		for (size_t k = 0; k < ndefs; k++) {
			char *eq = strchr(defs[k], '='), key[128];

			snprintf(key, sizeof(key), "%.*s", (int)(eq - defs[k]), defs[k]);
			kv_add(&eff, &neff, key, eq + 1, "-D");
		}
		nrun++;
		ret = section_kind(p, s, eff, neff, &kind);
		if (!ret && kind) {
			size_t first = p->n;

			ret = expand_section(p, s, kind, eff, neff);
			if (!ret && kind == &bench_kind_run)
				add_fio_companions(p, first);
		}
		kv_free(eff, neff);
	}
	kv_free(glob, nglob);
	if (!ret && !nrun) {
		errorf("%s: empty matrix: no section to run (only [global])", p->path);
		ret = -EINVAL;
	}
	return ret;
}

int profile_load(const char *path, char *const *defs, size_t ndefs,
		 struct profile *p)
{
	struct loader L;
	const char *base = strrchr(path, '/');
	size_t blen;
	int ret;

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; i < ndefs; i++)
		if (!strchr(defs[i], '=') || defs[i][0] == '=') {
			errorf("-D %s: want KEY=VALUE", defs[i]);
			return -EINVAL;
		}
	base = base ? base + 1 : path;
	blen = strlen(base);
	if (blen > 4 && !strcmp(base + blen - 4, ".ini"))
		blen -= 4;
	p->name = strndup(base, blen);
	p->path = xstrdup(path);
	ret = read_profile(path, &L);
	if (!ret)
		ret = build(p, L.secs, L.nsecs, defs, ndefs);
	free_rsecs(L.secs, L.nsecs);
	if (ret)
		profile_free(p);
	return ret;
}

void profile_free(struct profile *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->confs[i].section);
		free(p->confs[i].where);
		kv_free(p->confs[i].kv, p->confs[i].nkv);
	}
	free(p->confs);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->notes);
	free(p->name);
	free(p->path);
	memset(p, 0, sizeof(*p));
}

const struct pkv *pconf_kv(const struct pconf *c, const char *key)
{
	for (size_t i = 0; i < c->nkv; i++)
		if (!strcmp(c->kv[i].key, key))
			return &c->kv[i];
	return NULL;
}

const char *pconf_get(const struct pconf *c, const char *key)
{
	const struct pkv *kv = pconf_kv(c, key);

	return kv ? kv->value : NULL;
}

int profile_write(const struct profile *p, FILE *f)
{
	fprintf(f, "; iostrat: the expanded profile '%s' (%s), one section per\n"
		   "; configuration, as run; `iostrat bench --resume DIR` reads it.\n",
		p->name, p->path);
	for (size_t i = 0; i < p->n; i++) {
		const struct pconf *c = &p->confs[i];

		fprintf(f, "\n[%s]\n; from %s\n", c->section, c->where);
		if (!pconf_get(c, "kind"))
			fprintf(f, "kind=%s\n", c->kind->name);
		for (size_t k = 0; k < c->nkv; k++) {
			/* the fio companions are written as sections of their own */
			if (c->kind == &bench_kind_run && !strcmp(c->kv[k].key, "fio"))
				continue;
			fprintf(f, "%s=%s\n", c->kv[k].key, c->kv[k].value);
		}
	}
	return ferror(f) ? -EIO : 0;
}
