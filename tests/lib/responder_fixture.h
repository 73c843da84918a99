/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The responder tests' fixture (test_responder.c: the configuration and
 * the priorities; test_responder_waits.c: the busy loop and the kernel
 * helper's wait). The request is built by hand around the cdev backend's
 * ops (as in test_events.c): a pipe is its file, the test writes the
 * kernel's events into it; get and set of values are the test's. The
 * line's interrupt (42, "udrv-resp", hwirq 5) and its irq thread (pid
 * 4242) live in a fake /sys/kernel/irq and /proc, and fake_sched.c plays
 * the scheduler for that thread.
 */
#ifndef UDRV_TEST_RESPONDER_FIXTURE_H
#define UDRV_TEST_RESPONDER_FIXTURE_H

#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

#include <udrv/udrv.h>

#include "gpio/backend.h"

#define IRQ_PID		4242
#define IN		5	/* the input's offset: index 0 */
#define OUT		6	/* the output's: index 1 */
#define COMMA		,	/* in BAD()'s initialisers */

struct fake_req {
	struct udrv_request req;
	int wfd;		/* the pipe's write end: the "kernel" */
};

/* what the fake get returns, one per call, then the last; an error */
extern int levels[32];
extern size_t nlevels, level_at;
extern int get_error;
/* the fake set's calls and last value (line index 1) */
extern int set_calls, set_last;

/* lines 5 (input, @edge) and 6 (output) of "gpiochip7" (label fake-wire) */
void fake_req_init(struct fake_req *f, enum udrv_edge edge);
void fake_req_free(struct fake_req *f);
/* line 5's interrupt 42 and its thread at FIFO 50, others not its own,
 * on PREEMPT_RT */
void fake_system(void);
/* the "kernel" writes an edge event of @offset into the request */
void event(struct fake_req *f, unsigned int offset, uint32_t seqno);

struct seen {
	int calls;
	int ticks;		/* calls with no event: busy spins without an edge */
	int stop_at;		/* return 1 at this call; 0: never */
	int fail_at;		/* return -EIO at this call */
	struct udrv_responder *r;
	int self_policy, self_prio;	/* in the last call */
	int inverted;		/* calls that saw a thread at or below the caller */
	int nthreads;		/* udrv_responder_threads() in the last call */
	struct udrv_edge_event last;
	enum udrv_edge edges[8];
	jmp_buf *jump;		/* longjmp out at stop_at instead */
};

/* the callback: records in struct seen, writes line 6, stops at stop_at */
int respond(struct udrv_request *req, const struct udrv_edge_event *ev,
	    void *data);
int new_responder(struct fake_req *f, const struct udrv_responder_config *c,
		  struct udrv_responder **r);
void check_thread(int pid, int want_policy, int want_prio);
/* everything as before a run, no inversion at any moment */
void check_restored(void);
/* whether this process may use SCHED_FIFO (else says the test is skipped) */
bool need_fifo(void);
/* the fake system, the request and a responder of @c; false: skipped */
bool start(struct fake_req *f, const struct udrv_responder_config *c,
	   struct udrv_responder **r, bool fifo);

struct poke {
	pthread_t target;
	struct fake_req *f;
	int ms;
	bool signal;		/* else the warm-up: the kernel's FIFO 50, a new thread, an edge */
	/* with @signal: not before *@ticks (a busy loop's, counted by
	 * respond()) reached @min_ticks, however slow the machine */
	const int *ticks;
	int min_ticks;
};

/* after @ms: SIGUSR1 to the caller (@signal), or the warm-up: the kernel
 * resets the thread, a new thread appears, an edge */
void poke_start(pthread_t *t, struct poke *p, struct fake_req *f, int ms,
		bool signal);
/* SIGUSR1 to the caller once *@ticks reached @min_ticks */
void poke_after_ticks(pthread_t *t, struct poke *p, struct fake_req *f,
		      const int *ticks, int min_ticks);

#endif /* UDRV_TEST_RESPONDER_FIXTURE_H */
