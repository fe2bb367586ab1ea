// SPDX-License-Identifier: MIT
/*
 * What the running kernel offers the probes, asked before anything is
 * loaded (as libbpf-tools do): a program for an attach point the kernel
 * lacks would fail the load of its whole object.
 *
 *   tp_btf, raw_tp  the event's btf_trace_<event> typedef in the kernel's
 *                   BTF, whose prototype also tells the arguments
 *   tracepoint      tracefs events/CATEGORY/EVENT
 *   fentry          the function in BTF, and a trivial program attached to
 *                   it once (kernels without ftrace direct calls, like this
 *                   project's 6.18 host, refuse it at attach)
 *   kprobe          the kprobe PMU and the function in /proc/kallsyms
 */
#ifndef IOSTRAT_NO_BPF
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "probe.h"

static struct btf *vmlinux(void)
{
	static struct btf *btf;
	static bool tried;

	if (!tried) {
		tried = true;
		btf = btf__load_vmlinux_btf(); /* kept: asked many times */
	}
	return btf;
}

/* Name of the struct a BTF pointer type points to, or "". */
static const char *pointee(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_ptr(t))
		return "";
	t = btf__type_by_id(btf, t->type);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(btf, t->type);
	return t && btf_is_composite(t) ? btf__name_by_offset(btf, t->name_off) : "";
}

/* The event exists for BTF-typed programs, and its first argument points
 * to arg0 (when given). */
static bool btf_event(const char *event, const char *arg0)
{
	const struct btf *btf = vmlinux();
	const struct btf_type *t;
	const struct btf_param *p;
	char name[128];
	int id;

	if (!btf)
		return false;
	snprintf(name, sizeof(name), "btf_trace_%s", event);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return false;
	if (!arg0)
		return true;
	/* typedef -> pointer -> prototype (void *__data, the event's args) */
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	if (!t || !btf_is_ptr(t))
		return false;
	t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 2)
		return false;
	p = btf_params(t);
	return !strcmp(pointee(btf, p[1].type), arg0);
}

static bool tracefs_event(const char *cat_event)
{
	char path[256];

	if (tracefs_ensure())
		return false;
	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s", cat_event);
	if (!access(path, F_OK))
		return true;
	snprintf(path, sizeof(path), "/sys/kernel/debug/tracing/events/%s",
		 cat_event);
	return !access(path, F_OK);
}

static int btf_func(const char *func)
{
	const struct btf *btf = vmlinux();

	return btf ? btf__find_by_name_kind(btf, func, BTF_KIND_FUNC) : -ENOENT;
}

/* Load `return 0` as fentry of the function and attach it. */
static bool fentry_attaches(int btf_id)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = (__u32)btf_id);
	int prog, link;

	prog = bpf_prog_load(BPF_PROG_TYPE_TRACING, "iostrat_probe", "GPL",
			     insns, sizeof(insns) / sizeof(insns[0]), &opts);
	if (prog < 0)
		return false;
	link = bpf_raw_tracepoint_open(NULL, prog);
	if (link >= 0)
		close(link);
	close(prog);
	return link >= 0;
}

static bool kallsyms_has(const char *func)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], type;
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %c %255s", &type, name) == 2 &&
			(type == 't' || type == 'T') && !strcmp(name, func);
	fclose(f);
	return found;
}

bool kernel_offers(const struct probe_cand *c)
{
	int id;

	if (c->type && (!vmlinux() ||
			btf__find_by_name_kind(vmlinux(), c->type, BTF_KIND_STRUCT) < 0))
		return false;
	switch (c->src) {
	case PSRC_TP_BTF:
	case PSRC_RAW_TP:
		return btf_event(c->target, c->arg0);
	case PSRC_TRACEPOINT:
		return tracefs_event(c->target);
	case PSRC_FENTRY:
		id = btf_func(c->target);
		return id >= 0 && fentry_attaches(id);
	case PSRC_KPROBE:
		return !access("/sys/bus/event_source/devices/kprobe/type", F_OK) &&
		       kallsyms_has(c->target);
	default:
		return false;
	}
}

bool kernel_hides_tracepoint(const struct probe_cand *c)
{
	const char *event = strchr(c->target, '/');

	return c->src == PSRC_TRACEPOINT && tracefs_ensure() && event &&
	       btf_event(event + 1, NULL);
}

void kernel_why_not(const struct probe_cand *c, const char *what, char *why,
		    size_t len)
{
	int err = c->src == PSRC_TRACEPOINT ? tracefs_ensure() : 0;

	if (c->type && (!vmlinux() ||
			btf__find_by_name_kind(vmlinux(), c->type, BTF_KIND_STRUCT) < 0))
		snprintf(why, len, "%s: no %s in the kernel's BTF", what, c->type);
	else if (err)
		tracefs_explain(err, what, why, len);
	else if (c->src == PSRC_FENTRY && btf_func(c->target) >= 0)
		snprintf(why, len, "%s: the kernel refuses fentry on %s", what,
			 c->target);
	else if (c->src == PSRC_KPROBE)
		snprintf(why, len, "%s: no kprobe PMU, or no %s in /proc/kallsyms",
			 what, c->target);
	else
		snprintf(why, len, "%s: the kernel has no %s %s", what,
			 probe_src_name[c->src], c->target);
}
#endif
