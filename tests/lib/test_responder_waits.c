// SPDX-License-Identifier: GPL-2.0-only
/*
 * The responder's waits other than the blocking read of edge events
 * (test_responder.c): the busy loop (UDRV_RESPOND_BUSY: levels read in
 * spins, signals between them) and the kernel helper's (UDRV_RESPOND_IRQ,
 * lib/responder_irq.c: /dev/udrv-irq under the fake sysroot; what the
 * helper itself does is tested on real kernels, tests/lab).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "fake_gpio.h"
#include "fake_sched.h"
#include "harness.h"
#include "responder_fixture.h"

/* ---- the busy loop ---- */

static void test_busy_edges(void)
{
	struct udrv_responder_config c = { .wait = UDRV_RESPOND_BUSY,
					   .busy_pause_us = 50 };
	struct seen s = { .stop_at = 3 };
	struct fake_req f;
	static const int lv[] = { 0, 0, 1, 1, 0, 0, 1, 0, 1 };

	fake_system();
	fake_req_init(&f, UDRV_EDGE_BOTH);
	memcpy(levels, lv, sizeof(lv));
	nlevels = ARRAY_SIZE(lv);
	CHECK_INT(new_responder(&f, &c, &s.r), 0);
	CHECK_INT(udrv_responder_run(s.r, respond, &s), 0);
	CHECK_INT(s.calls, 3);
	CHECK_INT(s.edges[0], UDRV_EDGE_RISING);
	CHECK_INT(s.edges[1], UDRV_EDGE_FALLING);
	CHECK_INT(s.edges[2], UDRV_EDGE_RISING);
	CHECK_INT(s.last.seqno, 3);
	CHECK_INT(s.last.line_seqno, 3);
	CHECK_INT(s.last.offset, IN);
	CHECK_INT(s.last.index, 0);
	CHECK(s.last.timestamp_ns > 0);
	CHECK_INT(s.nthreads, 0);	/* nothing wakes a busy loop */
	CHECK_INT(s.ticks, 0);		/* the edges came in the first spin */
	udrv_responder_free(s.r);
	/* rising edges only, as the line's setting says */
	f.req.settings[0].edge = UDRV_EDGE_RISING;
	level_at = 0;
	s = (struct seen){ .stop_at = 2 };
	CHECK_INT(new_responder(&f, &c, &s.r), 0);
	CHECK_INT(udrv_responder_run(s.r, respond, &s), 0);
	CHECK_INT(s.edges[0], UDRV_EDGE_RISING);
	CHECK_INT(s.edges[1], UDRV_EDGE_RISING);
	CHECK_INT(level_at, 7);
	udrv_responder_free(s.r);
	fake_req_free(&f);
}

static void test_busy_signal_and_error(void)
{
	struct udrv_responder_config c = { .wait = UDRV_RESPOND_BUSY,
					   .busy_spin_us = 200 };
	struct seen s = { 0 };
	struct udrv_responder *r;
	struct fake_req f;
	struct poke p;
	sigset_t mask;
	pthread_t t;

	fake_system();
	fake_req_init(&f, UDRV_EDGE_NONE);
	CHECK_INT(new_responder(&f, &c, &r), 0);
	poke_start(&t, &p, &f, 100, true);
	CHECK_INT(udrv_responder_run(r, respond, &s), -EINTR);
	pthread_join(t, NULL);
	CHECK(s.ticks >= 10);	/* 100 ms of 200 us spins, each then a tick */
	CHECK_INT(s.calls, 0);
	CHECK_CONTAINS(udrv_responder_errmsg(r),
		       "a signal came while it watched line 5 of gpiochip7");
	/* the signals it blocked while it spun are unblocked again */
	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	CHECK(!sigismember(&mask, SIGUSR1));
	get_error = EIO;
	CHECK_INT(udrv_responder_run(r, respond, &s), -EIO);
	CHECK_CONTAINS(udrv_responder_errmsg(r), "responder: fake get failed");
	check_restored();
	udrv_responder_free(r);
	fake_req_free(&f);
}

/* ---- the kernel helper's wait ---- */

#define BAD(field_init, line_edge, err, needle)				\
	do {								\
		struct udrv_responder_config _c = { field_init };	\
		struct udrv_responder *_r = (void *)1;			\
		f.req.settings[0].edge = (line_edge);			\
		CHECK_INT(udrv_responder_new(&f.req, &_c, &_r), err);	\
		CHECK(_r == NULL);					\
		CHECK_CONTAINS(udrv_request_errmsg(&f.req), needle);	\
	} while (0)

static void test_irq_config(void)
{
	struct udrv_responder_config c = { .wait = UDRV_RESPOND_IRQ };
	struct udrv_responder *r;
	struct fake_req f;

	fake_system();
	fake_req_init(&f, UDRV_EDGE_BOTH);
	/* edge detection holds the interrupt the helper takes */
	BAD(.wait = UDRV_RESPOND_IRQ, UDRV_EDGE_BOTH, -EINVAL,
	    "line 5 of gpiochip7 has edge detection, which holds its interrupt: request it as a plain input for UDRV_RESPOND_IRQ");
	BAD(.wait = UDRV_RESPOND_IRQ COMMA .busy_spin_us = 5, UDRV_EDGE_NONE, -EINVAL,
	    "busy_spin_us and busy_pause_us apply to UDRV_RESPOND_BUSY only");
	BAD(.wait = UDRV_RESPOND_IRQ + 1, UDRV_EDGE_NONE, -EINVAL,
	    "UDRV_RESPOND_READ, UDRV_RESPOND_BUSY or UDRV_RESPOND_IRQ");
	f.req.chip_label[0] = '\0';
	BAD(.wait = UDRV_RESPOND_IRQ, UDRV_EDGE_NONE, -EINVAL,
	    "gpiochip7 has no label udrv-irq can find it by");
	strcpy(f.req.chip_label, "fake-wire");
	CHECK_INT(new_responder(&f, &c, &r), 0);
	udrv_responder_free(r);
	fake_req_free(&f);
}

/* No helper: the message says how to get it; a file that is no helper:
 * the bind fails, saying which line; nothing is left changed. */
static void test_irq_no_helper(void)
{
	struct udrv_responder_config c = { .wait = UDRV_RESPOND_IRQ };
	struct seen s = { 0 };
	struct udrv_responder *r;
	struct fake_req f;
	int ret;

	fake_system();
	fake_req_init(&f, UDRV_EDGE_NONE);
	CHECK_INT(new_responder(&f, &c, &r), 0);
	s.r = r;
	CHECK_INT(udrv_responder_run(r, respond, &s), -ENOENT);
	CHECK_CONTAINS(udrv_responder_errmsg(r), "/dev/udrv-irq does not exist");
	CHECK_CONTAINS(udrv_responder_errmsg(r),
		       "load the toolkit's kernel helper (modprobe udrv-irq; Debian: udrv-irq-dkms), or wait with UDRV_RESPOND_READ");
	fake_file("dev/udrv-irq", "");
	ret = udrv_responder_run(r, respond, &s);
	/* a file's "no such ioctl"; qemu-user (the cross builds' tests) says
	 * ENOSYS for an ioctl it does not know */
	CHECK(ret == -ENOTTY || ret == -ENOSYS);
	CHECK_CONTAINS(udrv_responder_errmsg(r),
		       "udrv-irq cannot take the interrupt of line 5 of gpiochip7 (fake-wire)");
	CHECK_INT(s.calls, 0);
	check_restored();
	udrv_responder_free(r);
	fake_req_free(&f);
}

UDRV_TESTS(
	UDRV_T(test_busy_edges),
	UDRV_T(test_busy_signal_and_error),
	UDRV_T(test_irq_config),
	UDRV_T(test_irq_no_helper)
)
