// SPDX-License-Identifier: GPL-2.0-only
/*
 * The responder tests' fixture (responder_fixture.h): a request built by
 * hand around the cdev backend's ops, the fake system of irq threads, the
 * callback that records what it sees, and a helper thread that plays the
 * kernel later (a signal, an edge).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "gpio/backend.h"
#include "fake_gpio.h"
#include "fake_sched.h"
#include "harness.h"
#include "responder_fixture.h"

#define PRIV_BYTES	65536

/* ---- the request ---- */

static struct udrv_backend_ops test_ops;
int levels[32];
size_t nlevels, level_at;
int get_error;
int set_calls, set_last = -1;

static int test_get(struct udrv_request *req, uint64_t mask, uint64_t *values)
{
	int v;

	if (get_error)
		return udrv_err(req->errmsg, get_error, "fake get failed");
	v = level_at < nlevels ? levels[level_at++] :
	    nlevels ? levels[nlevels - 1] : 0;
	*values = v ? mask : 0;
	return 0;
}

static int test_set_value(struct udrv_request *req, size_t idx, int value)
{
	(void)req;
	CHECK_INT(idx, 1);
	set_calls++;
	set_last = value;
	return 0;
}

void fake_req_init(struct fake_req *f, enum udrv_edge edge)
{
	int p[2];

	memset(f, 0, sizeof(*f));
	alarm(20);		/* a run that never ends: killed, failed */
	CHECK_INT(pipe(p), 0);
	test_ops = udrv_cdev_ops;
	test_ops.get = test_get;
	test_ops.set_value = test_set_value;
	f->req.ops = &test_ops;
	f->req.set_value = test_set_value;
	f->req.backend = UDRV_BACKEND_CDEV;
	f->req.fd = p[0];
	f->wfd = p[1];
	f->req.num_lines = 2;
	f->req.offsets[0] = IN;
	f->req.offsets[1] = OUT;
	f->req.settings[0].edge = edge;
	f->req.settings[1].direction = UDRV_DIR_OUTPUT;
	f->req.priv = calloc(1, PRIV_BYTES);
	strcpy(f->req.chip_name, "gpiochip7");
	strcpy(f->req.chip_label, "fake-wire");
	strcpy(f->req.chip_path, "/dev/gpiochip7");
	strcpy(f->req.consumer, "udrv-resp");
}

void fake_req_free(struct fake_req *f)
{
	close(f->req.fd);
	if (f->wfd >= 0)
		close(f->wfd);
	free(f->req.priv);
}

/* Line 5's interrupt 42 and its thread at FIFO 50, and others that are
 * not its own (never to be touched), on PREEMPT_RT (the responder raises
 * its threads there unless told otherwise). */
void fake_system(void)
{
	fake_root();
	fake_file("sys/kernel/realtime", "1\n");
	fake_gpio_irq(9, "9\n", "acpi\n");
	fake_gpio_irq(42, "5\n", "udrv-resp\n");
	fake_gpio_irq(43, "6\n", "udrv-resp\n");
	fake_sched_thread(9, "irq/9-acpi", SCHED_FIFO, 50, 100);
	fake_sched_thread(IRQ_PID, "irq/42-udrv-resp", SCHED_FIFO, 50, 1000);
	fake_sched_thread(4300, "irq/420-other", SCHED_FIFO, 50, 1100);
	fake_sched_thread(4301, "irq/43-udrv-resp", SCHED_FIFO, 50, 1200);
	fake_sched_watch(IRQ_PID);
}

void event(struct fake_req *f, unsigned int offset, uint32_t seqno)
{
	fake_gpio_event(f->wfd, offset, seqno);
}

/* ---- what the callbacks see ---- */

/* Every wake thread of the run above the caller, from the fake
 * scheduler (the kernel's view) and from the responder's read-back. */
static void check_above(struct seen *s)
{
	struct udrv_rt_thread t[4];
	int policy, prio, n;

	fake_sched_self(&s->self_policy, &s->self_prio);
	n = udrv_responder_threads(s->r, t, 4);
	s->nthreads = n;
	for (int i = 0; i < n && i < 4; i++) {
		if (!fake_sched_get(t[i].pid, &policy, &prio))
			continue;
		if (s->self_policy == SCHED_FIFO &&
		    (policy != SCHED_FIFO || prio <= s->self_prio ||
		     t[i].priority != prio))
			s->inverted++;
	}
}

int respond(struct udrv_request *req, const struct udrv_edge_event *ev,
		   void *data)
{
	struct seen *s = data;

	if (!ev) {		/* a busy loop's spin without an edge */
		__atomic_fetch_add(&s->ticks, 1, __ATOMIC_RELEASE);	/* poke reads it */
		return 0;
	}
	check_above(s);
	if (s->calls < 8)
		s->edges[s->calls] = ev->edge;
	s->last = *ev;
	s->calls++;
	udrv_request_set_value(req, 1, (int)(s->calls & 1));
	if (s->jump && s->calls == s->stop_at)
		longjmp(*s->jump, 1);
	if (s->calls == s->fail_at)
		return -EIO;
	return s->calls == s->stop_at;
}

int new_responder(struct fake_req *f,
			 const struct udrv_responder_config *c,
			 struct udrv_responder **r)
{
	int ret = udrv_responder_new(&f->req, c, r);

	if (ret)
		printf("# %s\n", udrv_request_errmsg(&f->req));
	return ret;
}

void check_thread(int pid, int want_policy, int want_prio)
{
	int policy = -1, prio = -1;

	CHECK(fake_sched_get(pid, &policy, &prio));
	CHECK_INT(policy, want_policy);
	CHECK_INT(prio, want_prio);
}

/* Everything as before a run (the caller at SCHED_OTHER, the threads at
 * FIFO 50) and no inversion at any moment. */
void check_restored(void)
{
	int policy, prio;

	fake_sched_self(&policy, &prio);
	CHECK_INT(policy, SCHED_OTHER);
	CHECK_INT(prio, 0);
	check_thread(IRQ_PID, SCHED_FIFO, 50);
	check_thread(9, SCHED_FIFO, 50);
	check_thread(4300, SCHED_FIFO, 50);
	check_thread(4301, SCHED_FIFO, 50);
	CHECK_INT(fake_sched_inversions, 0);
	if (fake_sched_inversions)
		printf("# %s\n", fake_sched_inversion);
}

bool need_fifo(void)
{
	if (fake_sched_can_fifo())
		return true;
	printf("# skipped: this process may not use SCHED_FIFO\n");
	return false;
}

/* The fake system, a request of lines 5 and 6 and a responder of @c;
 * false (skipped) when @fifo and SCHED_FIFO is not allowed. */
bool start(struct fake_req *f, const struct udrv_responder_config *c,
		  struct udrv_responder **r, bool fifo)
{
	if (fifo && !need_fifo())
		return false;
	fake_system();
	fake_req_init(f, UDRV_EDGE_BOTH);
	CHECK_INT(new_responder(f, c, r), 0);
	return true;
}

/* ---- a helper thread: the kernel's doings, later ---- */

static void on_usr1(int sig)
{
	(void)sig;
}

static void *poker(void *arg)
{
	struct poke *p = arg;

	usleep((useconds_t)p->ms * 1000);
	while (p->ticks && __atomic_load_n(p->ticks, __ATOMIC_ACQUIRE) < p->min_ticks)
		usleep(1000);
	if (p->signal) {
		pthread_kill(p->target, SIGUSR1);
		return NULL;
	}
	fake_sched_kernel_sets(IRQ_PID, SCHED_FIFO, 50);
	/* not watched: the kernel makes it below the caller; the callback
	 * sees it raised */
	fake_sched_thread(4243, "irq/42-s-udrv-resp", SCHED_FIFO, 50, 1300);
	event(p->f, IN, 1);
	return NULL;
}

static void poke_thread(pthread_t *t, struct poke *p)
{
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	pthread_create(t, NULL, poker, p);
}

void poke_start(pthread_t *t, struct poke *p, struct fake_req *f,
		       int ms, bool signal)
{
	*p = (struct poke){ .target = pthread_self(), .f = f, .ms = ms,
			    .signal = signal };
	poke_thread(t, p);
}

void poke_after_ticks(pthread_t *t, struct poke *p, struct fake_req *f,
		      const int *ticks, int min_ticks)
{
	*p = (struct poke){ .target = pthread_self(), .f = f, .signal = true,
			    .ticks = ticks, .min_ticks = min_ticks };
	poke_thread(t, p);
}
