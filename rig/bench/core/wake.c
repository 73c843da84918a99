// SPDX-License-Identifier: GPL-2.0-only
/*
 * The threads a bench's wake-ups go through (the irq thread of a GPIO line,
 * uio-ticker's notifier, the irq thread of a UIO device's interrupt): found
 * once the bench has requested what it waits for, recorded in the result
 * document with the scheduling they ran at, and with --irq-prio raised to
 * SCHED_FIFO N for the run (the usual RT tuning: the interrupt above the
 * application that waits for it), then put back. A peer's request (the
 * libgpiod-2.3 rows) has threads of its own: the same, marked with the
 * peer's implementation, so its rows run at the setting of the rows they
 * are compared with.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "msg.h"

static struct bench_thread *wake_slot(struct bench_run *run, const char *name)
{
	for (size_t i = 0; i < run->num_threads; i++)
		if (!strcmp(run->threads[i].now.name, name))
			return &run->threads[i];
	if (run->num_threads == BENCH_MAX_THREADS)
		return NULL;
	return &run->threads[run->num_threads++];
}

/* Raise @t to SCHED_FIFO --irq-prio; 0 or an exit code. */
static int wake_raise(struct bench_run *run, struct bench_thread *s,
		      const struct udrv_rt_thread *t)
{
	struct sched_param sp = { .sched_priority = run->o.irq_prio };

	if (sched_setscheduler(t->pid, SCHED_FIFO, &sp))
		return bench_error(EXIT_FAIL, "cannot set %s (pid %d) to SCHED_FIFO %d: %s (needs CAP_SYS_NICE; leave --irq-prio out to measure without it)",
				 t->name, (int)t->pid, run->o.irq_prio,
				 strerror(errno));
	s->raised = true;
	s->restored = false;
	s->old_policy = t->policy;
	s->old_priority = t->priority;
	return 0;
}

/* What @pid runs at now (read back). */
static void wake_read_back(struct bench_thread *s, const struct udrv_rt_thread *t)
{
	struct udrv_rt_thread now[BENCH_MAX_THREADS];
	int n = udrv_rt_threads(t->name, now, BENCH_MAX_THREADS);

	s->now = *t;
	for (int i = 0; i < n && i < BENCH_MAX_THREADS; i++)
		if (now[i].pid == t->pid)
			s->now = now[i];
}

int bench_wake_threads(struct bench_run *run, const char *prefix)
{
	return bench_wake_threads_for(run, prefix, NULL);
}

int bench_wake_threads_for(struct bench_run *run, const char *prefix,
			   const char *impl)
{
	struct udrv_rt_thread t[BENCH_MAX_THREADS];
	int n = udrv_rt_threads(prefix, t, BENCH_MAX_THREADS);

	if (n < 0)
		return bench_error(EXIT_FAIL, "cannot list the threads %s*: %s",
				 prefix, strerror(-n));
	for (int i = 0; i < n && i < BENCH_MAX_THREADS; i++) {
		struct bench_thread *s = wake_slot(run, t[i].name);

		if (!s)
			break;
		if (s->raised && s->now.pid == t[i].pid)
			continue;	/* ours already */
		s->raised = false;
		s->impl = impl;
		if (run->o.irq_prio && wake_raise(run, s, &t[i]))
			return EXIT_FAIL;
		wake_read_back(s, &t[i]);
	}
	return 0;
}

void bench_wake_restore(struct bench_run *run)
{
	for (size_t i = 0; i < run->num_threads; i++) {
		struct bench_thread *s = &run->threads[i];
		struct sched_param sp = { .sched_priority = s->old_priority };
		struct udrv_rt_thread now[BENCH_MAX_THREADS];
		int n;

		if (!s->raised || s->restored || s->old_policy < 0)
			continue;
		/* only the same thread: a re-requested line got a new one */
		n = udrv_rt_threads(s->now.name, now, BENCH_MAX_THREADS);
		for (int k = 0; k < n && k < BENCH_MAX_THREADS; k++)
			if (now[k].pid == s->now.pid &&
			    sched_setscheduler(s->now.pid, s->old_policy, &sp))
				fprintf(stderr, "udrv-bench: cannot put %s (pid %d) back to %s %d: %s\n",
					s->now.name, (int)s->now.pid,
					udrv_rt_policy_str(s->old_policy),
					s->old_priority, strerror(errno));
		s->restored = true;
	}
}

void bench_wake_json(const struct bench_run *run, struct udrv_json *j)
{
	udrv_json_key(j, "wake_threads");
	udrv_json_arr_begin(j);
	for (size_t i = 0; i < run->num_threads; i++) {
		const struct udrv_rt_thread *t = &run->threads[i].now;

		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "name", t->name);
		udrv_json_kstr(j, "policy", t->policy < 0 ? NULL :
				udrv_rt_policy_str(t->policy));
		udrv_json_key(j, "priority");
		if (t->priority < 0)
			udrv_json_null(j);
		else
			udrv_json_int(j, t->priority);
		udrv_json_kbool(j, "raised", run->threads[i].raised);
		if (run->threads[i].impl)
			udrv_json_kstr(j, "implementation", run->threads[i].impl);
		udrv_json_obj_end(j);
	}
	udrv_json_arr_end(j);
}
