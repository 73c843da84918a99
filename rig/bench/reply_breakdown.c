// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench reply --breakdown: after each responder's measured run, a
 * second run of REPLY_BD_EDGES edges with ftrace on (tracefs.h's
 * handling, with filters), whose trace splits every reply into contiguous
 * stages (breakdown.h). The reply whose total is the traced run's median is
 * reported beside the measured (untraced) p50: tracing costs time, and the
 * ratio says how much.
 *
 * Events, the fewest that mark the stages (each one costs guest time inside
 * the reply it marks; docs/rig/lab.md has what each cost in the lab):
 * irq_vectors:irq_work_entry (x86), irq:irq_handler_entry filtered to B's
 * and D's interrupts, sched:sched_switch filtered to their irq threads and
 * the user responder, gpio:gpio_value filtered to C's writes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "msg.h"
#include "reply.h"
#include "tracefs.h"

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

	memset(s, 0, sizeof(*s));
	s->b_irq = -1;
	s->chain = c->resp == REPLY_ISR ? BD_CHAIN_ISR :
		   c->resp == REPLY_KTHREAD ? BD_CHAIN_KTHREAD :
		   c->wait == REPLY_BUSY ? BD_CHAIN_BUSY : BD_CHAIN_USER;
	if (base < 0)
		return bench_error(EXIT_FAIL, "%s: %s has no global line numbers (sysfs base), which gpio:gpio_value names lines by",
				 BD_WHO, udrv_chip_name(b->chip));
	s->c_gpio = (unsigned int)base + b->reply;
	if (reply_by_process(c->resp))
		s->responder_pid = (int)b->child;
	ret = bd_irq(b, REPLY_CONSUMER, b->watch, &s->d_irq);
	if (!ret && s->chain != BD_CHAIN_BUSY)
		ret = bd_irq(b, c->resp == REPLY_USER ? REPLY_TARGET_CONSUMER :
			     c->resp == REPLY_LIB ? REPLY_LIB_CONSUMER :
			     "gpio-reply", b->in, &s->b_irq);
	return ret;
}

struct bd_filters {
	char irq[64], sw[160], gpio[48];
	struct bench_trace_event ev[4];
};

static void bd_filters(const struct bd_spec *s, struct bd_filters *f)
{
	int n;

	if (s->b_irq >= 0)
		snprintf(f->irq, sizeof(f->irq), "irq==%d||irq==%d", s->b_irq, s->d_irq);
	else
		snprintf(f->irq, sizeof(f->irq), "irq==%d", s->d_irq);
	n = snprintf(f->sw, sizeof(f->sw), "next_comm ~ \"irq/%d-*\"", s->d_irq);
	if (s->b_irq >= 0)
		n += snprintf(f->sw + n, sizeof(f->sw) - (size_t)n,
			      "||next_comm ~ \"irq/%d-*\"", s->b_irq);
	if (s->responder_pid > 0 && s->chain == BD_CHAIN_USER)
		snprintf(f->sw + n, sizeof(f->sw) - (size_t)n, "||next_pid==%d",
			 s->responder_pid);
	snprintf(f->gpio, sizeof(f->gpio), "gpio==%u&&get==0", s->c_gpio);
	f->ev[0] = (struct bench_trace_event){ "irq_vectors/irq_work_entry", NULL, true };
	f->ev[1] = (struct bench_trace_event){ "irq/irq_handler_entry", f->irq, false };
	f->ev[2] = (struct bench_trace_event){ "sched/sched_switch", f->sw, false };
	f->ev[3] = (struct bench_trace_event){ "gpio/gpio_value", f->gpio, false };
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

static int bd_read(struct bd_analysis *a)
{
	FILE *f = bench_trace_open();
	struct trace_event ev;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int err;

	if (!f)
		return EXIT_FAIL;
	while ((n = getline(&line, &cap, f)) > 0)
		if (trace_parse_line(line, (size_t)n - (line[n - 1] == '\n'), &ev))
			bd_feed(a, &ev);
	err = ferror(f);
	free(line);
	fclose(f);
	return err ? bench_error(EXIT_FAIL, "%s: reading the trace failed", BD_WHO) : 0;
}

/* The median reply's stages and the numbers beside them. */
static int bd_result(struct reply_cfg *c, const struct bd_analysis *a)
{
	struct reply_bd *bd = &c->bd;
	struct udrv_hist *h;
	char err[320];
	long m = bd_median(a, err, sizeof(err));

	if (m < 0)
		return bench_error(EXIT_FAIL, "%s (%s%s%s): %s", BD_WHO,
				 reply_responder_names[c->resp],
				 c->wait < REPLY_NWAIT ? "/" : "",
				 c->wait < REPLY_NWAIT ? reply_wait_names[c->wait] : "",
				 err);
	h = udrv_hist_new();
	if (!h)
		return bench_error(EXIT_FAIL, "out of memory");
	for (size_t i = 0; i < a->n; i++)
		udrv_hist_record(h, a->r[i].t_d - a->r[i].t_write);
	bd->traced_p50_ns = udrv_hist_percentile(h, 50);
	udrv_hist_free(h);
	bd->nstages = bd_stages(a, (size_t)m, bd->stages, err, sizeof(err));
	bd->total_ns = a->r[m].t_d - a->r[m].t_write;
	bd->events = a->r[m].events;
	bd->d_thread = a->r[m].at[BD_D_THREAD] != 0;
	bd->edges = a->n;
	bd->untraced_p50_ns = udrv_hist_percentile(c->t2r->hist, 50);
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

int reply_breakdown(struct reply_bench *b, struct reply_cfg *c)
{
	struct bd_reply *r;
	struct bd_analysis a;
	struct bd_filters f;
	bool absent[4] = { false };
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
	if (!ret) {
		bd_filters(&c->bd.spec, &f);
		ret = bench_trace_setup(BD_WHO, f.ev, 4, absent);
	}
	if (!ret)
		ret = bd_edges(b, c, r, REPLY_BD_EDGES);
	c->bd.spec.ipi = !absent[0];
	snprintf(c->bd.events_on, sizeof(c->bd.events_on), "%s%s [%s] [%s] [%s]",
		 absent[0] ? "" : "irq_work_entry ", "irq_handler_entry", f.irq,
		 f.sw, f.gpio);
	bd_init(&a, &c->bd.spec, r, REPLY_BD_EDGES);
	if (!ret)
		ret = bd_read(&a);
	bench_trace_restore();
	if (!ret)
		ret = bd_result(c, &a);
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
		fprintf(stderr, "; total %llu ns, untraced p50 %llu ns: x%.3f\n",
			(unsigned long long)bd->total_ns,
			(unsigned long long)bd->untraced_p50_ns, bd_ratio(bd));
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
	udrv_json_kstr(j, "timestamp_in", bd->d_thread ? "thread" : "hardirq");
	json_stages(j, bd);
	udrv_json_kuint(j, "total_ns", bd->total_ns);
	udrv_json_kuint(j, "traced_p50_ns", bd->traced_p50_ns);
	udrv_json_kuint(j, "untraced_p50_ns", bd->untraced_p50_ns);
	udrv_json_key(j, "ratio");
	udrv_json_double(j, ratio);
	udrv_json_kbool(j, "within_5pct", ratio >= 0.95 && ratio <= 1.05);
	udrv_json_kuint(j, "events_in_reply", bd->events);
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
