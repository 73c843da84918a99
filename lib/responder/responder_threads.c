// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The responder's wake threads: the threads an edge goes through before
 * the responder's read() returns. For a line of the GPIO character device
 * with edge detection that is the line's irq thread: gpiolib-cdev requests
 * a threaded handler (edge_irq_thread() queues the event and wakes the
 * reader), on every kernel, and on PREEMPT_RT the primary handler is
 * threaded too. The interrupt is found in /sys/kernel/irq (the handler is
 * named after the request's consumer, its hwirq is the line's offset), its
 * threads in /proc ("irq/N-consumer", kernel threads only).
 *
 * Each thread is raised to SCHED_FIFO irq_priority when it is below, and
 * put back to what it had when the run ends, if it is still the same
 * thread (its pid, name and start time).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "gpio/backend.h"
#include "responder/responder_priv.h"

/* The thread's scheduling from the kernel (sched_getscheduler()); -1 when
 * it cannot be read (the thread is gone). */
static void sched_read(struct udrv_rt_thread *t)
{
	struct sched_param sp = { 0 };
	int policy = sched_getscheduler(t->pid);

	if (policy < 0 || sched_getparam(t->pid, &sp) < 0) {
		t->policy = t->priority = -1;
		return;
	}
	t->policy = policy & ~SCHED_RESET_ON_FORK;
	t->priority = sp.sched_priority;
}

static bool below(const struct udrv_rt_thread *t, int prio)
{
	return !((t->policy == SCHED_FIFO || t->policy == SCHED_RR) &&
		 t->priority >= prio);
}

static struct resp_thread *thread_of(struct udrv_responder *r, pid_t pid)
{
	for (size_t i = 0; i < r->nthreads; i++)
		if (r->threads[i].t.pid == pid)
			return &r->threads[i];
	return NULL;
}

static int too_many(struct udrv_responder *r)
{
	return udrv_err(r->errmsg, E2BIG,
			"responder: more than %d threads are named %s: udrv raises at most %d; request the lines with a consumer name of their own",
			RESP_THREADS_MAX, r->prefix, RESP_THREADS_MAX);
}

/* A thread found in /proc: what it has now is what it gets back. */
static int thread_add(struct udrv_responder *r, pid_t pid)
{
	struct resp_thread *th;

	if (r->nthreads >= RESP_THREADS_MAX)
		return too_many(r);
	th = &r->threads[r->nthreads];
	memset(th, 0, sizeof(*th));
	if (!udrv_rt_thread_read(pid, &th->t, &th->start))
		return 0;	/* gone since the scan */
	sched_read(&th->t);
	if (th->t.policy < 0)
		return 0;
	th->old_policy = th->t.policy;
	th->old_priority = th->t.priority;
	r->nthreads++;
	return 0;
}

static int irq_error(struct udrv_responder *r, int ret, unsigned int off)
{
	const struct udrv_request *req = r->req;

	if (ret == -ENOTUNIQ)
		return udrv_err(r->errmsg, ENOTUNIQ,
				"responder on line %u of %s: two interrupts have a handler named '%s' for offset %u, so the thread that wakes the responder is not known: request the lines with a consumer name no other request uses",
				off, req->chip_name, req->consumer, off);
	return udrv_err(r->errmsg, -ret,
			"responder on line %u of %s: reading /sys/kernel/irq for the line's interrupt: %s",
			off, req->chip_name, strerror(-ret));
}

/* The threads named r->prefix into r->threads (those not there yet). */
static int threads_scan(struct udrv_responder *r)
{
	struct udrv_rt_thread t[RESP_THREADS_MAX + 1];
	int n = udrv_rt_kthreads(r->prefix, t, ARRAY_SIZE(t));
	int ret = 0;

	if (n < 0)
		return udrv_err(r->errmsg, -n,
				"responder: listing the threads %s in /proc: %s",
				r->prefix, strerror(-n));
	if (n > RESP_THREADS_MAX)
		return too_many(r);
	for (int i = 0; i < n && !ret; i++)
		if (!thread_of(r, t[i].pid))
			ret = thread_add(r, t[i].pid);
	return ret;
}

int udrv_resp_threads_find(struct udrv_responder *r)
{
	struct udrv_request *req = r->req;
	unsigned int off, irq;
	int ret;

	r->nthreads = 0;
	r->prefix[0] = '\0';
	r->warm = false;
	/* a busy loop wakes through nothing; an adopted request has no
	 * consumer name to look its handler up by */
	if (r->cfg.wait != UDRV_RESPOND_READ || !req->consumer[0])
		return 0;
	off = req->offsets[r->cfg.in];
	ret = udrv_rt_find_irq(req->consumer, off, &irq);
	if (ret == -ENOENT)
		return 0;	/* no thread: a hard interrupt, or no sysfs */
	if (ret)
		return irq_error(r, ret, off);
	snprintf(r->prefix, sizeof(r->prefix), "irq/%u-", irq);
	return threads_scan(r);
}

static int raise_error(struct udrv_responder *r, const struct resp_thread *th,
		       int err)
{
	if (err == EPERM)
		return udrv_err(r->errmsg, EPERM,
				"responder: raising %s (pid %d), the thread that wakes it, to SCHED_FIFO %d: permission denied: changing a kernel thread's priority needs root or CAP_SYS_NICE; run the program with one of them, or respond at priority 0 with irq_priority 0 (no thread raised)",
				th->t.name, (int)th->t.pid, r->irq_priority);
	return udrv_err(r->errmsg, err,
			"responder: raising %s (pid %d) to SCHED_FIFO %d: %s",
			th->t.name, (int)th->t.pid, r->irq_priority,
			strerror(err));
}

static int thread_raise(struct udrv_responder *r, struct resp_thread *th)
{
	struct sched_param sp = { .sched_priority = r->irq_priority };

	if (!below(&th->t, r->irq_priority))
		return 0;	/* never lowered */
	if (sched_setscheduler(th->t.pid, SCHED_FIFO, &sp) < 0) {
		if (errno == ESRCH)
			return 0;	/* gone: nothing to raise */
		return raise_error(r, th, errno);
	}
	th->raised = true;
	sched_read(&th->t);
	return 0;
}

int udrv_resp_threads_raise(struct udrv_responder *r)
{
	int ret = 0;

	for (size_t i = 0; i < r->nthreads && !ret && r->irq_priority; i++)
		ret = thread_raise(r, &r->threads[i]);
	return ret;
}

/* Still the thread we raised? A pid can be taken by a later thread. */
static bool same_thread(const struct resp_thread *th)
{
	struct udrv_rt_thread now;
	unsigned long long start;

	return udrv_rt_thread_read(th->t.pid, &now, &start) &&
	       !strcmp(now.name, th->t.name) && start == th->start;
}

/*
 * An irq thread sets itself to SCHED_FIFO 50 when it first runs (Linux
 * 6.1: irq_thread() calls sched_set_fifo(); the thread is woken when the
 * handler is requested, but may not have run yet when the responder raises
 * it), so one raised before that drops back to 50. After the first
 * wake-up it has run: read them all again, take what the kernel gave a
 * thread as what it gets back, raise again, and raise any new thread.
 * Once per run: a /proc scan, before the first edge's callback.
 */
int udrv_resp_threads_rescan(struct udrv_responder *r)
{
	size_t known = r->nthreads;
	int ret;

	r->warm = true;
	if (!r->prefix[0] || !r->irq_priority)
		return 0;
	for (size_t i = 0; i < known; i++) {
		struct resp_thread *th = &r->threads[i];

		/* another thread with its pid: its own settings go back */
		if (!same_thread(th) &&
		    !udrv_rt_thread_read(th->t.pid, &th->t, &th->start))
			continue;
		sched_read(&th->t);
		if (th->t.policy < 0 || !below(&th->t, r->irq_priority))
			continue;
		th->old_policy = th->t.policy;
		th->old_priority = th->t.priority;
		ret = thread_raise(r, th);
		if (ret)
			return ret;
	}
	ret = threads_scan(r);
	for (size_t i = known; i < r->nthreads && !ret; i++)
		ret = thread_raise(r, &r->threads[i]);
	return ret;
}

static int thread_restore(struct udrv_responder *r, struct resp_thread *th)
{
	struct sched_param sp = { .sched_priority = th->old_priority };

	if (!th->raised)
		return 0;
	th->raised = false;
	if (!same_thread(th))
		return 0;
	if (sched_setscheduler(th->t.pid, th->old_policy, &sp) < 0 &&
	    errno != ESRCH)
		return udrv_err(r->errmsg, errno,
				"responder: putting %s (pid %d) back to %s %d: %s",
				th->t.name, (int)th->t.pid,
				udrv_rt_policy_str(th->old_policy),
				th->old_priority, strerror(errno));
	sched_read(&th->t);
	return 0;
}

int udrv_resp_threads_restore(struct udrv_responder *r)
{
	int ret = 0, err;

	if (UDRV_RESPONDER_MUTANT == MUTANT_NO_RESTORE)
		return 0;
	for (size_t i = 0; i < r->nthreads; i++) {
		err = thread_restore(r, &r->threads[i]);
		if (!ret)
			ret = err;
	}
	return ret;
}
