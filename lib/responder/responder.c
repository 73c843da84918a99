// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The responder: wait for an edge of an input line, call back, with the
 * scheduling set up so that it is never above the threads that wake it.
 *
 * Order of a run: the wake threads are raised first (responder_threads.c),
 * then the calling thread goes to its priority, CPU, memory lock and DMA
 * latency (struct udrv_rt, lib/rt/rt.c); on the way out the calling thread is
 * put back first, then the threads. At no moment is the calling thread
 * above a thread it waits for.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "abi.h"
#include "gpio/backend.h"
#include "responder/responder_priv.h"

#define RESP_FLAGS		(UDRV_RESPOND_LOCK_MEMORY | UDRV_RESPOND_PIN_CPU | \
				 UDRV_RESPOND_DMA_LATENCY)
#define STACK_MAX		(512 * 1024)	/* udrv_rt_lock_memory()'s */
#define SPIN_DEFAULT_US		1000
#define EVENTS_MAX		16

/* ---- the configuration ---- */

static int check_line(struct udrv_request *req,
		      const struct udrv_responder_config *c)
{
	unsigned int off;

	if (c->wait == UDRV_RESPOND_IRQ)
		return udrv_err(req->errmsg, EINVAL,
				"responder: UDRV_RESPOND_IRQ (libudrv 1.5: udrv-irq watched a line the request held) is gone: the helper now requests the input line itself; use UDRV_RESPOND_IRQ_LINE with the line left out of the request and its offset as the responder's in, or wait with UDRV_RESPOND_READ");
	/* the helper's line is not the request's: @in is its offset */
	if (c->wait == UDRV_RESPOND_IRQ_LINE)
		return c->busy_spin_us || c->busy_pause_us ?
		       udrv_err(req->errmsg, EINVAL,
				"responder: busy_spin_us and busy_pause_us apply to UDRV_RESPOND_BUSY only: leave them 0") :
		       udrv_resp_irq_check(req, c);
	if (c->in >= req->num_lines)
		return udrv_err(req->errmsg, EINVAL,
				"responder: input index %u out of range: the request holds %zu lines (0..%zu)",
				c->in, req->num_lines, req->num_lines - 1);
	off = req->offsets[c->in];
	if (req->settings[c->in].direction != UDRV_DIR_INPUT)
		return udrv_err(req->errmsg, EINVAL,
				"responder: line %u of %s (index %u) is an output: respond to an input line",
				off, req->chip_name, c->in);
	if (c->wait == UDRV_RESPOND_BUSY)
		return 0;
	if (c->wait != UDRV_RESPOND_READ)
		return udrv_err(req->errmsg, EINVAL,
				"responder: wait %d is unknown: UDRV_RESPOND_READ, UDRV_RESPOND_BUSY or UDRV_RESPOND_IRQ_LINE",
				(int)c->wait);
	if (c->busy_spin_us || c->busy_pause_us)
		return udrv_err(req->errmsg, EINVAL,
				"responder: busy_spin_us and busy_pause_us apply to UDRV_RESPOND_BUSY only: leave them 0");
	if (req->backend != UDRV_BACKEND_CDEV)
		return udrv_err(req->errmsg, EOPNOTSUPP,
				"responder: the %s backend has no edge events to block on: request line %u through the character device (UDRV_BACKEND_CDEV), or wait with UDRV_RESPOND_BUSY",
				udrv_backend_str(req->backend), off);
	if (req->settings[c->in].edge == UDRV_EDGE_NONE)
		return udrv_err(req->errmsg, EINVAL,
				"responder: line %u of %s has no edge detection: request it with an edge (rising, falling or both), or wait with UDRV_RESPOND_BUSY",
				off, req->chip_name);
	return 0;
}

static int check_priorities(struct udrv_request *req,
			    const struct udrv_responder_config *c)
{
	if (c->priority < 0 || c->priority > 99 || c->irq_priority < 0 ||
	    c->irq_priority > 99)
		return udrv_err(req->errmsg, EINVAL,
				"responder: priority %d, irq_priority %d: SCHED_FIFO priorities are 1..99 (0: SCHED_OTHER for priority, priority + 1 for irq_priority)",
				c->priority, c->irq_priority);
	if (UDRV_RESPONDER_MUTANT == MUTANT_INVERTED)
		return 0;
	if (c->priority == 99 && !c->irq_priority)
		return udrv_err(req->errmsg, EINVAL,
				"responder: priority 99 leaves no SCHED_FIFO priority above it for the threads that wake the responder: respond at 98 or below");
	if (c->priority && c->irq_priority && c->irq_priority <= c->priority)
		return udrv_err(req->errmsg, EINVAL,
				"responder: irq_priority %d is not above priority %d: an inversion; the line's irq thread, which wakes the responder, would wait behind it (on PREEMPT_RT the responder preempts its own wake-up): give irq_priority above %d, or 0 for %d",
				c->irq_priority, c->priority, c->priority,
				c->priority + 1);
	return 0;
}

static int check_rt(struct udrv_request *req,
		    const struct udrv_responder_config *c)
{
	if (c->flags & ~RESP_FLAGS)
		return udrv_err(req->errmsg, EINVAL,
				"responder: flags 0x%x: unknown bits 0x%x (this libudrv %s knows UDRV_RESPOND_LOCK_MEMORY, _PIN_CPU, _DMA_LATENCY)",
				c->flags, c->flags & ~RESP_FLAGS, udrv_version());
	if (c->flags & UDRV_RESPOND_PIN_CPU ?
	    c->cpu < 0 || c->cpu >= CPU_SETSIZE : c->cpu != 0)
		return udrv_err(req->errmsg, EINVAL,
				c->flags & UDRV_RESPOND_PIN_CPU ?
				"responder: CPU %d does not exist: CPUs are 0..%d" :
				"responder: cpu is %d without UDRV_RESPOND_PIN_CPU: set that flag to pin the responder (CPUs 0..%d), or leave cpu 0",
				c->cpu, CPU_SETSIZE - 1);
	if (c->flags & UDRV_RESPOND_DMA_LATENCY ?
	    c->dma_latency_us < 0 : c->dma_latency_us != 0)
		return udrv_err(req->errmsg, EINVAL,
				c->flags & UDRV_RESPOND_DMA_LATENCY ?
				"responder: dma_latency_us %d is negative: 0 keeps the CPUs out of every idle state with an exit latency" :
				"responder: dma_latency_us is %d without UDRV_RESPOND_DMA_LATENCY: set that flag to hold it, or leave it 0",
				(int)c->dma_latency_us);
	if (c->prefault_stack > (c->flags & UDRV_RESPOND_LOCK_MEMORY ?
				 STACK_MAX : 0))
		return udrv_err(req->errmsg, EINVAL,
				"responder: prefault_stack %u: %s",
				c->prefault_stack,
				c->flags & UDRV_RESPOND_LOCK_MEMORY ?
				"at most 512 KiB (0: 512 KiB)" :
				"it applies with UDRV_RESPOND_LOCK_MEMORY only: set that flag, or leave it 0");
	return 0;
}

/*
 * What the wake threads get (0 leaves them): irq_priority when given; else
 * priority + 1 on PREEMPT_RT, where a responder above them preempts its
 * own wake-up and blocks on the lock its waker holds. Elsewhere they are
 * left: the waker is not preempted mid-way there, and raised it finishes
 * its work before the responder runs (1.3 us later in the lab's std
 * kernel, docs/rig/lab.md's breakdown).
 */
static int irq_priority_of(const struct udrv_responder_config *c)
{
	if (c->irq_priority)
		return c->irq_priority;
	if (UDRV_RESPONDER_MUTANT == MUTANT_INVERTED)
		return c->priority > 1 ? c->priority - 1 : 0;
	return c->priority && udrv_kernel_realtime() ? c->priority + 1 : 0;
}

int udrv_responder_new_sz(struct udrv_request *req,
			  const struct udrv_responder_config *cfg,
			  size_t cfg_size, struct udrv_responder **out)
{
	struct udrv_responder_config c = { 0 };
	struct udrv_responder *r;
	int ret = 0;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!req)
		return -EINVAL;
	if (cfg)
		ret = udrv_abi_in(req->errmsg, &udrv_abi_responder_config, &c,
				  cfg, cfg_size);
	if (!ret)
		ret = udrv_resp_replies_check(req, &c);
	if (!ret)
		ret = check_line(req, &c);
	if (!ret)
		ret = check_priorities(req, &c);
	if (!ret)
		ret = check_rt(req, &c);
	if (ret)
		return ret;
	r = calloc(1, sizeof(*r));
	if (!r)
		return udrv_err(req->errmsg, ENOMEM, "responder: out of memory");
	r->req = req;
	r->cfg = c;
	r->irq_priority = irq_priority_of(&c);
	r->irq_fd = -1;
	*out = r;
	return 0;
}

int udrv_responder_new_chip_sz(struct udrv_chip *chip,
			       const struct udrv_responder_config *cfg,
			       size_t cfg_size, struct udrv_responder **out)
{
	struct udrv_request *req;
	int ret;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!chip)
		return -EINVAL;
	if (!cfg || cfg_size < offsetof(struct udrv_responder_config, priority) ||
	    cfg->wait != UDRV_RESPOND_IRQ_LINE)
		return udrv_err(chip->errmsg, EINVAL,
				"responder of %s without a request: its lines are the kernel helper's, so it waits with UDRV_RESPOND_IRQ_LINE only (another wait reads a line of a request: udrv_responder_new())",
				chip->name);
	req = udrv_request_lineless(chip);
	if (!req)
		return udrv_err(chip->errmsg, ENOMEM, "responder: out of memory");
	ret = udrv_responder_new_sz(req, cfg, cfg_size, out);
	if (ret) {
		memcpy(chip->errmsg, req->errmsg, sizeof(chip->errmsg));
		udrv_request_release(req);
		return ret;
	}
	(*out)->own_req = true;
	return 0;
}

int udrv_responder_reply(struct udrv_responder *r, uint32_t mask, uint32_t values)
{
	uint32_t lines = (uint32_t)((1ull << r->cfg.num_replies) - 1);

	if (!r->cfg.num_replies)
		return udrv_err(r->errmsg, EINVAL,
				"responder: a reply without reply lines: give the helper's output lines in the config (replies, num_replies, with UDRV_RESPOND_IRQ_LINE), or write through the request");
	if (mask & ~lines)
		return udrv_err(r->errmsg, EINVAL,
				"responder: reply mask 0x%x: the responder has %u reply lines (bits 0x%x)",
				mask, r->cfg.num_replies, lines);
	r->reply_values = (r->reply_values & ~mask) | (values & mask);
	r->reply_mask |= mask;
	return 0;
}

const char *udrv_responder_errmsg(const struct udrv_responder *r)
{
	return r ? r->errmsg : "no udrv_responder handle";
}

int udrv_responder_threads_sz(const struct udrv_responder *r,
			      struct udrv_rt_thread *t, size_t max,
			      size_t thread_size)
{
	if (!r || (max && !t) ||
	    udrv_abi_size(NULL, &udrv_abi_rt_thread, thread_size))
		return -EINVAL;
	for (size_t i = 0; i < r->nthreads && i < max; i++)
		udrv_abi_out(&udrv_abi_rt_thread, (char *)t + i * thread_size,
			     &r->threads[i].t, thread_size);
	return (int)r->nthreads;
}

/* ---- the calling thread ---- */

/* A failure of struct udrv_rt's, with its message. */
static int rt_failed(struct udrv_responder *r, int ret)
{
	return udrv_err(r->errmsg, -ret, "responder: %s",
			udrv_rt_errmsg(r->rt));
}

static int self_save(struct udrv_responder *r)
{
	r->tid = gettid();
	r->old_policy = sched_getscheduler(0);
	if (r->old_policy < 0 || sched_getparam(0, &r->old_param) < 0 ||
	    sched_getaffinity(0, sizeof(r->old_cpus), &r->old_cpus) < 0)
		return udrv_err(r->errmsg, errno,
				"responder: reading the calling thread's scheduling: %s",
				strerror(errno));
	r->rt = udrv_rt_new();
	if (!r->rt)
		return udrv_err(r->errmsg, ENOMEM, "responder: out of memory");
	return 0;
}

static int self_lock(struct udrv_responder *r)
{
	/* mlockall() is the process's: held with libudrv's other real-time
	 * threads, undone after the last only if not there before */
	int ret = udrv_rt_hold_memory(r->rt, r->cfg.prefault_stack);

	if (ret)
		return rt_failed(r, ret);
	r->locked_here = true;
	return 0;
}

static int self_set(struct udrv_responder *r)
{
	const struct udrv_responder_config *c = &r->cfg;
	int ret;

	ret = udrv_rt_set_scheduler(r->rt, c->priority ? SCHED_FIFO :
				    SCHED_OTHER, c->priority);
	if (ret)
		return rt_failed(r, ret);
	r->sched_set = true;
	if (c->flags & UDRV_RESPOND_PIN_CPU) {
		ret = udrv_rt_set_cpu(r->rt, c->cpu);
		if (ret)
			return rt_failed(r, ret);
		r->cpu_set = true;
	}
	if (c->flags & UDRV_RESPOND_LOCK_MEMORY) {
		ret = self_lock(r);
		if (ret)
			return ret;
	}
	if (c->flags & UDRV_RESPOND_DMA_LATENCY) {
		ret = udrv_rt_hold_dma_latency(r->rt, c->dma_latency_us);
		if (ret)
			return rt_failed(r, ret);
	}
	return 0;
}

/* The calling thread's scheduling, CPUs, memory lock and DMA latency as
 * they were (from r->tid: udrv_responder_free() may run elsewhere). */
static int self_restore(struct udrv_responder *r)
{
	int ret = 0;

	if (r->sched_set &&
	    sched_setscheduler(r->tid, r->old_policy, &r->old_param) < 0)
		ret = udrv_err(r->errmsg, errno,
			       "responder: putting the calling thread back to %s %d: %s",
			       udrv_rt_policy_str(r->old_policy),
			       r->old_param.sched_priority, strerror(errno));
	r->sched_set = false;
	if (r->cpu_set)
		sched_setaffinity(r->tid, sizeof(r->old_cpus), &r->old_cpus);
	r->cpu_set = false;
	if (r->locked_here)
		udrv_rt_release_memory();
	r->locked_here = false;
	udrv_rt_free(r->rt);	/* drops the DMA latency request */
	r->rt = NULL;
	return ret;
}

/* ---- a run ---- */

static int setup(struct udrv_responder *r)
{
	int ret;

	r->active = true;
	ret = self_save(r);
	if (!ret)
		ret = udrv_resp_threads_find(r);
	if (UDRV_RESPONDER_MUTANT == MUTANT_ORDER && !ret)
		ret = self_set(r);
	if (!ret)
		ret = udrv_resp_threads_raise(r);
	if (UDRV_RESPONDER_MUTANT != MUTANT_ORDER && !ret)
		ret = self_set(r);
	return ret;
}

/* The caller first, so that it is never above a thread put back. */
static int restore(struct udrv_responder *r)
{
	int ret = 0, err;

	if (!r->active)
		return 0;
	if (UDRV_RESPONDER_MUTANT == MUTANT_ORDER)
		ret = udrv_resp_threads_restore(r);
	err = self_restore(r);
	if (!ret)
		ret = err;
	if (UDRV_RESPONDER_MUTANT != MUTANT_ORDER) {
		err = udrv_resp_threads_restore(r);
		if (!ret)
			ret = err;
	}
	r->active = false;
	return ret;
}

/* A failure of the request's, with its message. */
static int req_failed(struct udrv_responder *r, int ret)
{
	if (ret == -EINTR)
		return udrv_err(r->errmsg, EINTR,
				"responder: a signal came while it waited for an edge of line %u of %s",
				r->req->offsets[r->cfg.in], r->req->chip_name);
	return udrv_err(r->errmsg, -ret, "responder: %s",
			udrv_request_errmsg(r->req));
}

/* What the callback's @ret makes of the run: > 0 stops it (0), < 0 is
 * the run's error. */
int udrv_resp_called(struct udrv_responder *r, int ret)
{
	if (ret > 0)
		return 0;
	if (ret < 0)
		udrv_err(r->errmsg, -ret,
			 "responder: the callback stopped it with %d (%s)",
			 ret, strerror(-ret));
	return ret;
}

static int loop_read(struct udrv_responder *r, udrv_respond_fn fn, void *data)
{
	struct udrv_edge_event ev[EVENTS_MAX];
	unsigned int in = r->cfg.in;
	int n, ret;

	for (;;) {
		n = udrv_request_read_events(r->req, ev, EVENTS_MAX);
		if (n < 0)
			return req_failed(r, n);
		if (!r->warm) {
			ret = udrv_resp_threads_rescan(r);
			if (ret)
				return ret;
		}
		for (int i = 0; i < n; i++) {
			if (ev[i].index != in)
				continue;
			ret = fn(r->req, &ev[i], data);
			if (ret)
				return udrv_resp_called(r, ret);
		}
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Every signal but those a fault raises (blocked, they kill). */
static void spin_mask(sigset_t *set)
{
	static const int faults[] = {
		SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT,
	};

	sigfillset(set);
	for (size_t i = 0; i < ARRAY_SIZE(faults); i++)
		sigdelset(set, faults[i]);
}

/* Does edge setting @edge let a change to @level through? */
static bool edge_wanted(enum udrv_edge edge, int level)
{
	if (edge == UDRV_EDGE_RISING)
		return level;
	if (edge == UDRV_EDGE_FALLING)
		return !level;
	return true;
}

struct busy {
	struct udrv_edge_event ev;
	enum udrv_edge edge;
	int level;
	struct timespec pause;
	uint64_t spin_ns;
};

/* A pause between spins, signals unblocked: -EINTR when one came. */
static int busy_pause(struct udrv_responder *r, struct busy *b,
		      const sigset_t *mask)
{
	if (ppoll(NULL, 0, &b->pause, mask) < 0 && errno == EINTR)
		return udrv_err(r->errmsg, EINTR,
				"responder: a signal came while it watched line %u of %s",
				r->req->offsets[r->cfg.in], r->req->chip_name);
	return 0;
}

/* A change of level: the callback's event; what the callback returned. */
static int busy_edge(struct udrv_responder *r, struct busy *b, int level,
		     udrv_respond_fn fn, void *data)
{
	b->level = level;
	if (!edge_wanted(b->edge, level))
		return 0;
	b->ev.timestamp_ns = now_ns();
	b->ev.edge = level ? UDRV_EDGE_RISING : UDRV_EDGE_FALLING;
	b->ev.seqno++;
	b->ev.line_seqno++;
	return fn(r->req, &b->ev, data);
}

/* Read the level for b->spin_ns: 0 go on, 1 the callback stopped the
 * loop, or an error. */
static int busy_spin(struct udrv_responder *r, struct busy *b,
		     udrv_respond_fn fn, void *data)
{
	uint64_t start = now_ns();
	int v, ret;

	do {
		v = udrv_request_get_value(r->req, r->cfg.in);
		if (v < 0)
			return req_failed(r, v);
		if (v != b->level) {
			ret = busy_edge(r, b, v, fn, data);
			if (ret)
				return ret > 0 ? 1 : udrv_resp_called(r, ret);
		}
	} while (now_ns() - start < b->spin_ns);
	return 0;
}

/* After a spin with no edge: the callback's chance to stop (ev NULL). */
static int busy_tick(struct udrv_responder *r, udrv_respond_fn fn, void *data)
{
	int ret = fn(r->req, NULL, data);

	return ret > 0 ? 1 : ret < 0 ? udrv_resp_called(r, ret) : 0;
}

static void busy_init(struct udrv_responder *r, struct busy *b)
{
	const struct udrv_responder_config *c = &r->cfg;

	memset(b, 0, sizeof(*b));
	b->ev.offset = r->req->offsets[c->in];
	b->ev.index = c->in;
	b->edge = r->req->settings[c->in].edge;
	b->spin_ns = (uint64_t)(c->busy_spin_us ? c->busy_spin_us :
				SPIN_DEFAULT_US) * 1000;
	b->pause.tv_sec = c->busy_pause_us / 1000000;
	b->pause.tv_nsec = (long)(c->busy_pause_us % 1000000) * 1000;
}

static int loop_busy(struct udrv_responder *r, udrv_respond_fn fn, void *data)
{
	sigset_t block, old;
	struct busy b;
	int ret;

	busy_init(r, &b);
	ret = udrv_request_get_value(r->req, r->cfg.in);
	if (ret < 0)
		return req_failed(r, ret);
	b.level = ret;
	spin_mask(&block);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	do {
		ret = busy_spin(r, &b, fn, data);
		if (!ret)
			ret = busy_tick(r, fn, data);
		if (!ret)
			ret = busy_pause(r, &b, &old);
	} while (!ret);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret > 0 ? 0 : ret;
}

static int loop(struct udrv_responder *r, udrv_respond_fn fn, void *data)
{
	int ret;

	switch (r->cfg.wait) {
	case UDRV_RESPOND_READ:
		return loop_read(r, fn, data);
	case UDRV_RESPOND_BUSY:
		return loop_busy(r, fn, data);
	default:	/* UDRV_RESPOND_IRQ_LINE: the helper's interrupt, this run's */
		ret = udrv_resp_irq_open(r);
		if (!ret)
			ret = udrv_resp_irq_loop(r, fn, data);
		udrv_resp_irq_close(r);
		return ret;
	}
}

int udrv_responder_run(struct udrv_responder *r, udrv_respond_fn fn,
		       void *data)
{
	int ret, err;

	if (!r || !fn)
		return -EINVAL;
	if (r->active)
		return udrv_err(r->errmsg, EBUSY,
				"responder: it is running already (one run at a time, from one thread)");
	r->errmsg[0] = '\0';
	ret = setup(r);
	if (!ret)
		ret = loop(r, fn, data);
	err = restore(r);
	return ret ? ret : err;
}

void udrv_responder_free(struct udrv_responder *r)
{
	if (!r)
		return;
	udrv_resp_irq_close(r);
	restore(r);
	if (r->own_req)
		udrv_request_release(r->req);
	free(r);
}
