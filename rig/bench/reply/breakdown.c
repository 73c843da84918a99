// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench reply --breakdown's analysis (breakdown.h): the marks of each
 * reply found in a trace, the stages between them, the median reply. Pure:
 * events in, numbers out (reply_breakdown.c runs the trace).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breakdown.h"

static const char *const mark_names[BD_NMARKS] = {
	"write", "ipi", "b_hardirq", "b_thread", "b_thread_s", "responder",
	"reply", "d_hardirq", "d_thread", "timestamp",
};

const char *bd_mark_name(enum bd_mark m)
{
	return m < BD_NMARKS ? mark_names[m] : "?";
}

const char *bd_chain_mark_name(const struct bd_spec *s, enum bd_mark m)
{
	if (m == BD_REPLY && s->chain == BD_CHAIN_HELPER_REPLY)
		return "helper_write";
	return bd_mark_name(m);
}

const char *bd_event_name(enum bd_event e)
{
	static const char *const names[BD_NEV] = {
		"irq_work_entry", "irq_handler_entry", "sched_switch", "gpio_value",
	};

	return e < BD_NEV ? names[e] : "?";
}

int bd_event_of(const struct trace_event *ev)
{
	switch (ev->kind) {
	case TRACE_VECTOR_ENTRY:
		return !strcmp(ev->what, "irq_work") ? BD_EV_IPI : -1;
	case TRACE_IRQ_ENTRY:
		return BD_EV_IRQ;
	case TRACE_SWITCH:
		return BD_EV_SWITCH;
	case TRACE_GPIO_VALUE:
		return BD_EV_GPIO;
	default:
		return -1;
	}
}

const char *bd_chain_name(enum bd_chain c)
{
	static const char *const names[] = { "isr", "kthread", "user", "busy",
					     "helper", "helper_reply" };

	return c <= BD_CHAIN_HELPER_REPLY ? names[c] : "?";
}

/* The marks a reply of @s's chain must have (a bit per mark). */
static unsigned int required(const struct bd_spec *s)
{
	unsigned int m = 1u << BD_REPLY | (s->d_side ? 1u << BD_D_HARDIRQ : 0);

	if (s->chain != BD_CHAIN_BUSY)
		m |= 1u << BD_B_HARDIRQ | (s->ipi ? 1u << BD_IPI : 0);
	if (s->chain == BD_CHAIN_KTHREAD || s->chain == BD_CHAIN_USER)
		m |= 1u << BD_B_THREAD;
	if (s->chain == BD_CHAIN_USER || bd_chain_helper(s->chain))
		m |= 1u << BD_RESPONDER;
	return m;
}

/* The marks a reply may have: the required ones and what they allow. */
static unsigned int allowed(const struct bd_spec *s)
{
	unsigned int m = required(s) | (s->d_side ? 1u << BD_D_THREAD : 0);

	if (m & 1u << BD_B_THREAD)
		m |= 1u << BD_B_THREAD_S;
	return m;
}

void bd_init(struct bd_analysis *a, const struct bd_spec *spec,
	     struct bd_reply *r, size_t n)
{
	memset(a, 0, sizeof(*a));
	a->spec = *spec;
	a->r = r;
	a->n = n;
	a->round_ns = BD_ROUND_NS;
	for (size_t i = 0; i < n; i++) {
		memset(r[i].at, 0, sizeof(r[i].at));
		memset(r[i].who, 0, sizeof(r[i].who));
		memset(r[i].cost_at, 0, sizeof(r[i].cost_at));
		r[i].last = BD_WRITE;
		r[i].events = 0;
		r[i].cost = 0;
		snprintf(r[i].who[BD_WRITE], BD_WHO_LEN, "the log host's write of A");
		snprintf(r[i].who[BD_TIMESTAMP], BD_WHO_LEN, "D's edge event timestamp");
	}
}

/* "irq/<irq>-..." (@second: "irq/<irq>-s-..."): the irq's thread. */
static bool irq_thread(const char *comm, int irq, bool *second)
{
	char pfx[24];
	size_t k;

	if (irq < 0)
		return false;
	k = (size_t)snprintf(pfx, sizeof(pfx), "irq/%d-", irq);
	if (strncmp(comm, pfx, k))
		return false;
	*second = !strncmp(comm + k, "s-", 2);
	return true;
}

static int switch_mark(const struct bd_spec *s, const struct trace_event *ev)
{
	bool second = false;

	if (s->responder_pid > 0 && ev->task.pid == s->responder_pid)
		return BD_RESPONDER;
	if (irq_thread(ev->task.comm, s->b_irq, &second))
		return second ? BD_B_THREAD_S : BD_B_THREAD;
	if (irq_thread(ev->task.comm, s->d_irq, &second))
		return BD_D_THREAD;
	return -1;
}

/* Which mark @ev is for @s, or -1. */
static int mark_of(const struct bd_spec *s, const struct trace_event *ev)
{
	switch (ev->kind) {
	case TRACE_VECTOR_ENTRY:
		return !strcmp(ev->what, "irq_work") ? BD_IPI : -1;
	case TRACE_IRQ_ENTRY:
		if (s->b_irq >= 0 && ev->irq == s->b_irq)
			return BD_B_HARDIRQ;
		return ev->irq == s->d_irq ? BD_D_HARDIRQ : -1;
	case TRACE_SWITCH:
		return switch_mark(s, ev);
	case TRACE_GPIO_VALUE:
		if (ev->gpio_get || ev->gpio != s->c_gpio)
			return -1;
		/* the helper writes in the responder's call, nowhere else */
		if (s->chain == BD_CHAIN_HELPER_REPLY && ev->cur.pid != s->responder_pid)
			return -1;
		return BD_REPLY;
	default:
		return -1;
	}
}

static void mark_who(struct bd_reply *r, int m, const struct trace_event *ev)
{
	char *w = r->who[m];

	if (ev->kind == TRACE_SWITCH)
		snprintf(w, BD_WHO_LEN, "task %s (pid %d)", ev->task.comm,
			 ev->task.pid);
	else if (ev->kind == TRACE_GPIO_VALUE)
		snprintf(w, BD_WHO_LEN, "gpio %u set %d in %s-%d", ev->gpio,
			 ev->value, ev->cur.comm, ev->cur.pid);
	else if (ev->kind == TRACE_IRQ_ENTRY)
		snprintf(w, BD_WHO_LEN, "hardirq %d %s", ev->irq, ev->what);
	else
		snprintf(w, BD_WHO_LEN, "hardirq %s (self-IPI)", ev->what);
}

/* An event inside reply @r: counted, and its cost added. */
static void account(struct bd_analysis *a, struct bd_reply *r,
		    const struct trace_event *ev)
{
	int e = bd_event_of(ev);

	r->events++;
	if (e < 0)
		return;
	a->count[e]++;
	r->cost += a->cost_ns[e];
}

void bd_feed(struct bd_analysis *a, const struct trace_event *ev)
{
	struct bd_reply *r;
	int m;

	a->events++;
	while (a->cur < a->n && ev->ts_ns > a->r[a->cur].t_d + a->round_ns)
		a->cur++;
	if (a->cur == a->n)
		return;
	r = &a->r[a->cur];
	if (ev->ts_ns + a->round_ns < r->t_write)
		return;		/* between two replies */
	if (ev->ts_ns <= r->t_d)
		account(a, r, ev);
	m = mark_of(&a->spec, ev);
	if (m < 0 || m <= r->last || !(allowed(&a->spec) & 1u << m) || r->at[m])
		return;
	/*
	 * The optional marks follow their own: D's thread right after D's
	 * hardirq and before the timestamp (the timestamp's thread; on RT
	 * D's thread may still run from the reply before, which is no mark),
	 * a second thread of B's right after B's first.
	 */
	if (m == BD_D_THREAD && (r->last != BD_D_HARDIRQ ||
				 ev->ts_ns + a->round_ns > r->t_d))
		return;
	if (m == BD_B_THREAD_S && r->last != BD_B_THREAD)
		return;
	r->at[m] = ev->ts_ns;
	r->cost_at[m] = r->cost;
	r->last = m;
	mark_who(r, m, ev);
}

static const char *mark_event(const struct bd_spec *s, enum bd_mark m)
{
	if (m == BD_REPLY && s->chain == BD_CHAIN_HELPER_REPLY)
		return "gpio_value setting C in the responder's task: udrv-irq's write in its UDRV_IRQ_SET";
	switch (m) {
	case BD_IPI:
		return "irq_vectors:irq_work_entry";
	case BD_B_HARDIRQ:
		return "irq_handler_entry of B's interrupt";
	case BD_B_THREAD:
		return "sched_switch to B's irq thread";
	case BD_RESPONDER:
		return "sched_switch to the responder's pid";
	case BD_REPLY:
		return "gpio_value setting C";
	case BD_D_HARDIRQ:
		return "irq_handler_entry of D's interrupt";
	default:
		return "its event";
	}
}

/*
 * Mark @m in order: after the mark before it (@prev) and not after the
 * timestamp, within the trace's rounding; -1 with @err otherwise.
 */
static int in_order(const struct bd_analysis *a, const struct bd_reply *r,
		    int m, uint64_t prev, char *err, size_t errlen, size_t i)
{
	uint64_t t = r->at[m];

	if (t + a->round_ns < prev || t > r->t_d + a->round_ns) {
		snprintf(err, errlen, "reply %zu: %s at %llu ns is out of order (previous mark %llu ns, D's timestamp %llu ns) by more than the trace's rounding",
			 i, bd_chain_mark_name(&a->spec, m), (unsigned long long)t,
			 (unsigned long long)prev, (unsigned long long)r->t_d);
		return -1;
	}
	return 0;
}

/* @t with @cost taken off, not before the write. */
static uint64_t cost_off(const struct bd_reply *r, uint64_t t, double cost)
{
	double room = t > r->t_write ? (double)(t - r->t_write) : 0;

	return t - (uint64_t)(cost < room ? cost + 0.5 : room);
}

static void stage_set(const struct bd_spec *s, struct bd_stage *st, int from,
		      int to, uint64_t ns, const struct bd_reply *r)
{
	snprintf(st->name, sizeof(st->name), "%s_to_%s",
		 bd_chain_mark_name(s, from), bd_chain_mark_name(s, to));
	st->ns = ns;
	snprintf(st->who, sizeof(st->who), "%s", r->who[from]);
}

int bd_stages(const struct bd_analysis *a, size_t i, struct bd_stage *st,
	      char *err, size_t errlen)
{
	const struct bd_reply *r = &a->r[i];
	unsigned int req = required(&a->spec);
	uint64_t raw = r->t_write, prev = r->t_write, end, v;
	int from = BD_WRITE, n = 0;

	if (r->t_d < r->t_write) {
		snprintf(err, errlen, "reply %zu: D's timestamp is before the write", i);
		return -1;
	}
	end = cost_off(r, r->t_d, r->cost);
	for (int m = BD_WRITE + 1; m < BD_TIMESTAMP; m++) {
		if (!r->at[m] && (req & 1u << m)) {
			snprintf(err, errlen, "reply %zu (t_write %llu ns): the trace has no %s (%s) between the write and D's timestamp (an event not enabled, or a trace buffer overrun)",
				 i, (unsigned long long)r->t_write,
				 bd_chain_mark_name(&a->spec, m), mark_event(&a->spec, m));
			return -1;
		}
		if (!r->at[m])
			continue;
		if (in_order(a, r, m, raw, err, errlen, i))
			return -1;
		raw = r->at[m];
		/* the rounding and the costs taken off keep the order */
		v = raw > r->t_d ? r->t_d : raw;
		v = cost_off(r, v, r->cost_at[m]);
		v = v < prev ? prev : v > end ? end : v;
		stage_set(&a->spec, &st[n++], from, m, v - prev, r);
		prev = v;
		from = m;
	}
	stage_set(&a->spec, &st[n++], from, BD_TIMESTAMP, end - prev, r);
	return n;
}

uint64_t bd_total(const struct bd_analysis *a, size_t i)
{
	const struct bd_reply *r = &a->r[i];

	return r->t_d < r->t_write ? 0 : cost_off(r, r->t_d, r->cost) - r->t_write;
}

static const struct bd_analysis *sort_base;

/* by the total with the costs taken off */
static int by_total(const void *x, const void *y)
{
	uint64_t ta = bd_total(sort_base, *(const size_t *)x);
	uint64_t tb = bd_total(sort_base, *(const size_t *)y);

	return ta < tb ? -1 : ta > tb;
}

long bd_median(const struct bd_analysis *a, char *err, size_t errlen)
{
	struct bd_stage st[BD_NMARKS];
	size_t *idx;
	long m;

	if (!a->n) {
		snprintf(err, errlen, "no traced reply");
		return -1;
	}
	for (size_t i = 0; i < a->n; i++)
		if (bd_stages(a, i, st, err, errlen) < 0)
			return -1;
	idx = malloc(a->n * sizeof(*idx));
	if (!idx) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < a->n; i++)
		idx[i] = i;
	sort_base = a;
	qsort(idx, a->n, sizeof(*idx), by_total);
	m = (long)idx[(a->n - 1) / 2];
	free(idx);
	return m;
}
