/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The responder's state, shared by responder.c (the configuration, the
 * calling thread's settings, the loops), responder_threads.c (the wake
 * threads: found, raised, put back) and responder_irq.c (the wait through
 * the kernel helper udrv-irq).
 */
#ifndef UDRV_RESPONDER_PRIV_H
#define UDRV_RESPONDER_PRIV_H

#include <sched.h>
#include <stdbool.h>

#include <udrv/responder.h>

#include "internal.h"

/*
 * Test builds only (tests/lib/meson.build builds the responder with each):
 * a deliberate bug that the priority tests must catch.
 */
#define MUTANT_NONE		0
#define MUTANT_ORDER		1	/* own priority first, threads put back first */
#define MUTANT_NO_RESTORE	2	/* the threads stay raised */
#define MUTANT_INVERTED		3	/* the threads go just below the caller */
#ifndef UDRV_RESPONDER_MUTANT
#define UDRV_RESPONDER_MUTANT	MUTANT_NONE
#endif

/* A shared interrupt has a thread per handler: a few at most. */
#define RESP_THREADS_MAX	8

struct resp_thread {
	struct udrv_rt_thread t;	/* as read back from /proc */
	unsigned long long start;	/* its start time: the same thread */
	int old_policy;			/* before the run */
	int old_priority;
	bool raised;			/* set by us: to put back */
};

struct udrv_responder {
	struct udrv_request *req;
	bool own_req;			/* udrv_responder_new_chip()'s lineless
					 * request: freed with it, the callback
					 * given NULL */
	struct udrv_responder_config cfg;
	int irq_priority;		/* what the threads get; 0: left */
	char prefix[24];		/* "irq/N-": the wake threads' names */
	size_t nthreads;
	struct resp_thread threads[RESP_THREADS_MAX];
	bool warm;			/* rescanned after the first wake-up */
	/* the calling thread's settings before the run */
	bool active;			/* a run set things: to put back */
	pid_t tid;
	int old_policy;
	struct sched_param old_param;
	cpu_set_t old_cpus;
	bool cpu_set;
	bool sched_set;
	bool locked_here;		/* a holder of the memory lock */
	struct udrv_rt *rt;		/* holds /dev/cpu_dma_latency */
	int irq_fd;			/* UDRV_RESPOND_IRQ_LINE: /dev/udrv-irq, -1 */
	/* the callback's reply, written when it returns (udrv_responder_reply) */
	uint32_t reply_mask, reply_values;
	char errmsg[UDRV_ERRMSG_LEN];
};

/* responder_threads.c: each returns 0 or a negative errno with r->errmsg */
int udrv_resp_threads_find(struct udrv_responder *r);
int udrv_resp_threads_raise(struct udrv_responder *r);
/* after the first wake-up: raise again what the kernel reset, add new ones */
int udrv_resp_threads_rescan(struct udrv_responder *r);
int udrv_resp_threads_restore(struct udrv_responder *r);

/* responder.c: what the callback's @ret makes of the run (> 0: stop, 0) */
int udrv_resp_called(struct udrv_responder *r, int ret);

/* responder_irq.c, UDRV_RESPOND_IRQ_LINE: the kernel helper udrv-irq */
int udrv_resp_irq_check(struct udrv_request *req,
			const struct udrv_responder_config *c);
/* open /dev/udrv-irq and take the line's interrupt (one run) */
int udrv_resp_irq_open(struct udrv_responder *r);
void udrv_resp_irq_close(struct udrv_responder *r);
int udrv_resp_irq_loop(struct udrv_responder *r, udrv_respond_fn fn,
		       void *data);
/* the reply lines' part of the configuration, for every wait */
int udrv_resp_replies_check(struct udrv_request *req,
			    const struct udrv_responder_config *c);

#endif /* UDRV_RESPONDER_PRIV_H */
