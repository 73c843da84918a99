// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench reply --breakdown: after each responder's measured run, one
 * run of REPLY_BD_COST_EDGES edges per event type with that type alone
 * traced (what one event costs a reply: its p50 minus the untraced p50,
 * per event), then a run of REPLY_BD_EDGES edges with them all (tracefs.h's
 * handling, with filters), whose trace splits every reply into contiguous
 * stages (breakdown.h), each event's cost taken off. The trace is read
 * twice: as text (which event) and raw (its nanoseconds). The reply whose
 * total is the median is reported beside the measured (untraced) p50: the
 * ratio says whether the costs, measured one type at a time, account for
 * what tracing them all together added.
 *
 * Events, the fewest that mark the stages (bd_filters(); docs/rig/lab.md
 * has what each cost in the lab): irq:irq_handler_entry filtered to B's
 * interrupt, sched:sched_switch filtered to B's irq threads and the user
 * responder, gpio:gpio_value filtered to C's writes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <udrv/udrv-irq.h>	/* the helper's handler name */

#include "msg.h"
#include "reply.h"
#include "core/trace/tracefs.h"

#define BD_WHO	"--breakdown"

static int bd_irq(const struct reply_bench *b, const char *consumer,
		  unsigned int line, int *irq)
{
	unsigned int n;
	int err = udrv_rt_find_irq(consumer, line, &n);

	if (err)
		return bench_error(EXIT_FAIL, "%s: no interrupt of %s line %u (consumer %s) in /sys/kernel/irq: %s (the kernel needs CONFIG_SPARSE_IRQ's /sys/kernel/irq)",
				 BD_WHO, udrv_chip_name(b->chip), line, consumer,
				 strerror(-err));
	*irq = (int)n;
	return 0;
}

/* What the trace of @c's replies must show, and where. */
static int bd_spec(struct reply_bench *b, struct reply_cfg *c,
		   struct bd_spec *s)
{
	int base = udrv_chip_sysfs_base(b->chip), ret;
	char helper[64];	/* B's handler when udrv-irq takes it */

	memset(s, 0, sizeof(*s));
	s->b_irq = -1;
	s->chain = c->resp == REPLY_ISR ? BD_CHAIN_ISR :
		   c->resp == REPLY_KTHREAD ? BD_CHAIN_KTHREAD :
		   c->wait == REPLY_BUSY ? BD_CHAIN_BUSY :
		   c->wait == REPLY_IRQ ? BD_CHAIN_HELPER :
		   c->wait == REPLY_IRQ_REPLY ? BD_CHAIN_HELPER_REPLY : BD_CHAIN_USER;
	if (base < 0)
		return bench_error(EXIT_FAIL, "%s: %s has no global line numbers (sysfs base), which gpio:gpio_value names lines by",
				 BD_WHO, udrv_chip_name(b->chip));
	s->c_gpio = (unsigned int)base + b->reply;
	if (reply_by_process(c->resp))
		s->responder_pid = (int)b->child;
	if (bd_chain_helper(s->chain))
		snprintf(helper, sizeof(helper), UDRV_IRQ_ACTION_FMT,
			 udrv_chip_label(b->chip), b->in);
	ret = bd_irq(b, REPLY_CONSUMER, b->watch, &s->d_irq);
	if (!ret && s->chain != BD_CHAIN_BUSY)
		ret = bd_irq(b, bd_chain_helper(s->chain) ? helper :
			     c->resp == REPLY_USER ? REPLY_TARGET_CONSUMER :
			     c->resp == REPLY_LIB ? REPLY_LIB_CONSUMER :
			     "gpio-reply", b->in, &s->b_irq);
	return ret;
}

/*
 * The events that mark @s's chain, the fewest (each costs the reply time,
 * and the costs measured one type at a time add up less exactly the more
 * there are): B's hardirq (not busy), the switches to B's irq threads and
 * to the user responder (kthread, user; helper, helper_reply: the
 * responder alone), C's write. Neither gpio-wire's
 * self-IPI nor D's side: the log host's, not the responder's.
 */
struct bd_filters {
	char irq[32], sw[96], gpio[48];
	struct bench_trace_event ev[BD_NEV];
	int type[BD_NEV];		/* ev[i]'s enum bd_event */
	size_t n;
};

static void bd_add_event(struct bd_filters *f, int type, const char *path,
			 const char *filter)
{
	f->ev[f->n] = (struct bench_trace_event){ path, filter, false };
	f->type[f->n++] = type;
}

static void bd_filters(const struct bd_spec *s, struct bd_filters *f)
{
	int n;

	memset(f, 0, sizeof(*f));
	if (s->chain != BD_CHAIN_BUSY) {
		snprintf(f->irq, sizeof(f->irq), "irq==%d", s->b_irq);
		bd_add_event(f, BD_EV_IRQ, "irq/irq_handler_entry", f->irq);
	}
	if (bd_chain_helper(s->chain)) {	/* no thread: the responder */
		snprintf(f->sw, sizeof(f->sw), "next_pid==%d", s->responder_pid);
		bd_add_event(f, BD_EV_SWITCH, "sched/sched_switch", f->sw);
	}
	if (s->chain == BD_CHAIN_KTHREAD || s->chain == BD_CHAIN_USER) {
		n = snprintf(f->sw, sizeof(f->sw), "next_comm ~ \"irq/%d-*\"", s->b_irq);
		if (s->responder_pid > 0 && s->chain == BD_CHAIN_USER)
			snprintf(f->sw + n, sizeof(f->sw) - (size_t)n,
				 "||next_pid==%d", s->responder_pid);
		bd_add_event(f, BD_EV_SWITCH, "sched/sched_switch", f->sw);
	}
	snprintf(f->gpio, sizeof(f->gpio), "gpio==%u&&get==0", s->c_gpio);
	bd_add_event(f, BD_EV_GPIO, "gpio/gpio_value", f->gpio);
}

/* The traced edges: t_write and D's timestamp of each into @r. */
static int bd_edges(struct reply_bench *b, struct reply_cfg *c,
		    struct bd_reply *r, size_t n)
{
	int ret = bench_trace_start();

	for (size_t i = 0; i < n && !ret; i++)
		ret = reply_edge(b, c, false, &r[i].t_write, &r[i].t_d);
	bench_trace_stop();
	return ret;
}

/* The trace's event lines, as text (what each event is). */
struct bd_lines {
	struct trace_event *ev;
	bool *ok;			/* parsed: an event of ours */
	size_t n, cap;
};

static int bd_add(struct bd_lines *l, const struct trace_event *ev, bool ok)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		struct trace_event *e = realloc(l->ev, cap * sizeof(*e));
		bool *k = e ? realloc(l->ok, cap * sizeof(*k)) : NULL;

		if (e)
			l->ev = e;
		if (!k)
			return bench_error(EXIT_FAIL, "out of memory");
		l->ok = k;
		l->cap = cap;
	}
	l->ev[l->n] = *ev;
	l->ok[l->n++] = ok;
	return 0;
}

/*
 * Each line of the trace file that is not a comment, to @fn (the text
 * read, then the raw one); 0 or an exit code.
 */
static int bd_lines_of(int (*fn)(void *, const char *, size_t), void *arg)
{
	FILE *f = bench_trace_open();
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0, err;

	if (!f)
		return EXIT_FAIL;
	while (!ret && (n = getline(&line, &cap, f)) > 0) {
		size_t len = (size_t)n - (line[n - 1] == '\n');

		if (len && line[0] != '#')
			ret = fn(arg, line, len);
	}
	err = ferror(f);
	free(line);
	fclose(f);
	if (!ret && err)
		ret = bench_error(EXIT_FAIL, "%s: reading the trace failed", BD_WHO);
	return ret;
}

static int bd_text_line(void *arg, const char *line, size_t len)
{
	struct trace_event ev;
	bool ok = trace_parse_line(line, len, &ev) == 1;

	return bd_add(arg, &ev, ok);
}

struct bd_raw_read {
	struct bd_lines *l;
	size_t i;
};

/*
 * Raw line @rr->i: the nanoseconds of text line i, which must be the same
 * event (pid, CPU, the microseconds the text rounded them to).
 */
static int bd_raw_line(void *arg, const char *line, size_t len)
{
	struct bd_raw_read *rr = arg;
	struct trace_event *ev;
	struct trace_raw raw;
	bool raw_ok = trace_parse_raw(line, len, &raw) == 1;
	size_t i = rr->i++;

	if (i >= rr->l->n)
		return bench_error(EXIT_FAIL, "%s: the raw trace has more lines than the text (%zu): the trace changed between the reads",
				   BD_WHO, rr->l->n);
	ev = &rr->l->ev[i];
	if (!rr->l->ok[i])
		return 0;
	if (!raw_ok || raw.pid != ev->cur.pid || raw.cpu != ev->cpu ||
	    (raw.ts_ns + 500) / 1000 * 1000 != ev->ts_ns)
		return bench_error(EXIT_FAIL, "%s: raw trace line %zu ('%.*s') is not text line %zu's event (pid %d, CPU %u, %llu us): the trace changed between the reads",
				   BD_WHO, i + 1, (int)(len > 80 ? 80 : len), line,
				   i + 1, ev->cur.pid, ev->cpu,
				   (unsigned long long)ev->ts_ns / 1000);
	ev->ts_ns = raw.ts_ns;
	return 0;
}

/*
 * The trace into @a: read as text (what each event is), then in the raw
 * format (its nanoseconds: the text rounds them to microseconds).
 */
static int bd_read(struct bd_analysis *a)
{
	struct bd_lines l = { 0 };
	struct bd_raw_read rr = { &l, 0 };
	int ret = bd_lines_of(bd_text_line, &l);

	if (!ret)
		ret = bench_trace_set("options/raw", "1");
	if (!ret)
		ret = bd_lines_of(bd_raw_line, &rr);
	if (!ret && rr.i != l.n)
		ret = bench_error(EXIT_FAIL, "%s: the raw trace has %zu lines, the text %zu: the trace changed between the reads",
				  BD_WHO, rr.i, l.n);
	a->round_ns = 0;
	for (size_t i = 0; !ret && i < l.n; i++)
		if (l.ok[i])
			bd_feed(a, &l.ev[i]);
	free(l.ev);
	free(l.ok);
	return ret;
}

/* One traced run of @a's edges with @ev[0..k) on (none optional), read
 * into @a. */
static int bd_run(struct reply_bench *b, struct reply_cfg *c,
		  const struct bench_trace_event *ev, size_t k,
		  struct bd_analysis *a)
{
	int ret = bench_trace_setup(BD_WHO, ev, k, NULL);

	if (ret)
		return ret;
	ret = bd_edges(b, c, a->r, a->n);
	if (!ret)
		ret = bd_read(a);
	bench_trace_restore();
	return ret;
}

/* The p50 of @a's replies as traced (nothing taken off). */
static uint64_t bd_traced_p50(const struct bd_analysis *a)
{
	struct udrv_hist *h = udrv_hist_new();
	uint64_t p50;

	if (!h)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		udrv_hist_record(h, a->r[i].t_d - a->r[i].t_write);
	p50 = udrv_hist_percentile(h, 50);
	udrv_hist_free(h);
	return p50;
}

/*
 * What each event type costs a reply: a run with that type alone on (its
 * filter too), whose p50 minus the untraced p50, per event of the type
 * inside a reply. A difference below 0 (noise) counts as 0.
 */
static int bd_costs(struct reply_bench *b, struct reply_cfg *c,
		    const struct bd_filters *f, struct bd_reply *r)
{
	uint64_t u = udrv_hist_percentile(c->t2r->hist, 50);

	for (size_t i = 0; i < f->n; i++) {
		struct reply_bd_cost *k = &c->bd.cost[f->type[i]];
		struct bd_analysis a;
		int ret;

		bd_init(&a, &c->bd.spec, r, REPLY_BD_COST_EDGES);
		ret = bd_run(b, c, &f->ev[i], 1, &a);
		if (ret)
			return ret;
		k->traced_p50_ns = bd_traced_p50(&a);
		if (!k->traced_p50_ns)
			return bench_error(EXIT_FAIL, "out of memory");
		k->per_reply = (double)a.count[f->type[i]] / (double)a.n;
		if (k->per_reply > 0 && k->traced_p50_ns > u)
			k->ns = (double)(k->traced_p50_ns - u) / k->per_reply;
		k->done = true;
	}
	return 0;
}

/* The median reply's stages and the numbers beside them. */
static int bd_result(struct reply_bench *b, struct reply_cfg *c,
		     const struct bd_analysis *a)
{
	struct reply_bd *bd = &c->bd;
	char err[320];
	long m = bd_median(a, err, sizeof(err));

	if (m < 0)
		return bench_error(EXIT_FAIL, "%s (%s%s%s): %s", BD_WHO,
				 reply_responder_names[c->resp],
				 c->wait < REPLY_NWAIT ? "/" : "",
				 c->wait < REPLY_NWAIT ? reply_wait_names[c->wait] : "",
				 err);
	bd->traced_p50_ns = bd_traced_p50(a);
	if (!bd->traced_p50_ns)
		return bench_error(EXIT_FAIL, "out of memory");
	bd->nstages = bd_stages(a, (size_t)m, bd->stages, err, sizeof(err));
	bd->total_ns = bd_total(a, (size_t)m);
	bd->traced_total_ns = a->r[m].t_d - a->r[m].t_write;
	bd->events = a->r[m].events;
	bd->d_thread = a->r[m].at[BD_D_THREAD] != 0;
	bd->edges = a->n;
	bd->untraced_p50_ns = udrv_hist_percentile(c->t2r->hist, 50);
	bd->probe_ns = reply_by_process(c->resp) ? b->sh->probe_ns : 0;
	bd->done = true;
	return 0;
}

/*
 * A busy responder spinning at SCHED_FIFO on the log host's CPU, on
 * PREEMPT_RT: tracefs's writes and reads wait for RCU grace periods, whose
 * threads (rcuc, rcu_preempt: FIFO 1 there) it holds off; the lab's rt
 * guest hung so. Not traced.
 */
static bool bd_spinner(const struct reply_bench *b, const struct reply_cfg *c)
{
	struct utsname u;

	return reply_by_process(c->resp) && c->wait == REPLY_BUSY && c->child_prio &&
	       reply_shares_cpu(b->run.o.cpu, b->target_cpu) && !uname(&u) &&
	       strstr(u.version, "PREEMPT_RT");
}

/* "irq_handler_entry [irq==25] sched_switch [...] ...": what was traced */
static void bd_events_on(const struct bd_filters *f, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < f->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s [%s]",
					 i ? " " : "", bd_event_name(f->type[i]),
					 f->ev[i].filter);
}

int reply_breakdown(struct reply_bench *b, struct reply_cfg *c)
{
	struct bd_reply *r;
	struct bd_analysis a;
	struct bd_filters f;
	int ret;

	if (bd_spinner(b, c)) {
		fprintf(stderr, "udrv-bench: %s: user/busy not traced: it spins at SCHED_FIFO %d on the log host's CPU, and on PREEMPT_RT tracefs waits for RCU threads it holds off (give it a CPU of its own: --target-cpu)\n",
			BD_WHO, c->child_prio);
		return 0;
	}
	r = calloc(REPLY_BD_EDGES, sizeof(*r));
	if (!r)
		return bench_error(EXIT_FAIL, "out of memory");
	ret = bd_spec(b, c, &c->bd.spec);
	if (ret)
		goto out;
	bd_filters(&c->bd.spec, &f);
	ret = bd_costs(b, c, &f, r);
	bd_init(&a, &c->bd.spec, r, REPLY_BD_EDGES);
	for (int e = 0; e < BD_NEV; e++)
		a.cost_ns[e] = c->bd.cost[e].ns;
	if (!ret)
		ret = bd_run(b, c, f.ev, f.n, &a);
	bd_events_on(&f, c->bd.events_on, sizeof(c->bd.events_on));
	if (!ret)
		ret = bd_result(b, c, &a);
out:
	free(r);
	return ret;
}

/* ---- output -------------------------------------------------------------- */

static double bd_ratio(const struct reply_bd *bd)
{
	return bd->untraced_p50_ns ? (double)bd->total_ns / (double)bd->untraced_p50_ns : NAN;
}

void reply_breakdown_print(const struct reply_bench *b)
{
	for (size_t i = 0; i < b->ncfg; i++) {
		const struct reply_cfg *c = &b->cfg[i];
		const struct reply_bd *bd = &c->bd;

		if (!bd->done)
			continue;
		fprintf(stderr, "udrv-bench: breakdown %s%s%s (median of %llu traced replies):",
			reply_responder_names[c->resp], c->wait < REPLY_NWAIT ? "/" : "",
			c->wait < REPLY_NWAIT ? reply_wait_names[c->wait] : "",
			(unsigned long long)bd->edges);
		for (int s = 0; s < bd->nstages; s++)
			fprintf(stderr, " %s %llu", bd->stages[s].name,
				(unsigned long long)bd->stages[s].ns);
		fprintf(stderr, "; total %llu ns (traced %llu, each event's cost taken off:",
			(unsigned long long)bd->total_ns,
			(unsigned long long)bd->traced_total_ns);
		for (int e = 0; e < BD_NEV; e++)
			if (bd->cost[e].done)
				fprintf(stderr, " %s %.0f", bd_event_name(e), bd->cost[e].ns);
		fprintf(stderr, "), untraced p50 %llu ns: x%.3f",
			(unsigned long long)bd->untraced_p50_ns, bd_ratio(bd));
		if (bd->probe_ns)
			fprintf(stderr, "; the process's timestamps in it: %d x %llu ns",
				reply_process_probes(c->wait),
				(unsigned long long)bd->probe_ns);
		fputc('\n', stderr);
	}
}

static void json_stages(struct udrv_json *j, const struct reply_bd *bd)
{
	udrv_json_key(j, "stages");
	udrv_json_arr_begin(j);
	for (int s = 0; s < bd->nstages; s++) {
		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "name", bd->stages[s].name);
		udrv_json_kuint(j, "ns", bd->stages[s].ns);
		udrv_json_kstr(j, "who", bd->stages[s].who);
		udrv_json_obj_end(j);
	}
	udrv_json_arr_end(j);
}

static void json_costs(struct udrv_json *j, const struct reply_bd *bd)
{
	udrv_json_key(j, "costs");
	udrv_json_arr_begin(j);
	for (int e = 0; e < BD_NEV; e++) {
		const struct reply_bd_cost *k = &bd->cost[e];

		if (!k->done)
			continue;
		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "event", bd_event_name(e));
		udrv_json_kuint(j, "traced_p50_ns", k->traced_p50_ns);
		udrv_json_key(j, "per_reply");
		udrv_json_double(j, k->per_reply);
		udrv_json_key(j, "ns");
		udrv_json_double(j, k->ns);
		udrv_json_obj_end(j);
	}
	udrv_json_arr_end(j);
}

static void json_irq(struct udrv_json *j, const char *key, int irq)
{
	udrv_json_key(j, key);
	if (irq >= 0)
		udrv_json_int(j, irq);
	else
		udrv_json_null(j);
}

static void json_entry(struct udrv_json *j, const struct reply_cfg *c)
{
	const struct reply_bd *bd = &c->bd;
	double ratio = bd_ratio(bd);

	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "implementation", reply_responder_names[c->resp]);
	udrv_json_kstr(j, "wait", c->wait < REPLY_NWAIT ? reply_wait_names[c->wait] : NULL);
	udrv_json_kstr(j, "chain", bd_chain_name(bd->spec.chain));
	udrv_json_kuint(j, "edges", bd->edges);
	udrv_json_kstr(j, "events", bd->events_on);
	json_irq(j, "b_irq", bd->spec.b_irq);
	json_irq(j, "d_irq", bd->spec.d_irq);
	udrv_json_kstr(j, "timestamp_in", !bd->spec.d_side ? NULL :
		       bd->d_thread ? "thread" : "hardirq");
	json_stages(j, bd);
	udrv_json_kuint(j, "total_ns", bd->total_ns);
	udrv_json_kuint(j, "traced_total_ns", bd->traced_total_ns);
	udrv_json_kuint(j, "cost_edges", REPLY_BD_COST_EDGES);
	json_costs(j, bd);
	udrv_json_kuint(j, "traced_p50_ns", bd->traced_p50_ns);
	udrv_json_kuint(j, "untraced_p50_ns", bd->untraced_p50_ns);
	udrv_json_key(j, "ratio");
	udrv_json_double(j, ratio);
	udrv_json_kbool(j, "within_5pct", ratio >= 0.95 && ratio <= 1.05);
	udrv_json_kuint(j, "events_in_reply", bd->events);
	if (bd->probe_ns) {
		udrv_json_kuint(j, "probe_ns", bd->probe_ns);
		udrv_json_kuint(j, "probes_in_reply",
				(uint64_t)reply_process_probes(c->wait));
	}
	udrv_json_obj_end(j);
}

void reply_breakdown_json(const struct bench_run *run, struct udrv_json *j)
{
	const struct reply_bench *b = (const struct reply_bench *)run;

	udrv_json_key(j, "breakdown");
	udrv_json_arr_begin(j);
	for (size_t i = 0; i < b->ncfg; i++)
		if (b->cfg[i].bd.done)
			json_entry(j, &b->cfg[i]);
	udrv_json_arr_end(j);
}
