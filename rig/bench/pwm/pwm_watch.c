// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench pwm: the wire's input line, watched for both edges while a
 * generator drives the output. The kernel timestamps each edge in hard
 * interrupt context and queues it (1024 events at most). A run whose edges
 * fit in the queue is read after it ended: the bench does not wake up while
 * a generator runs (its wake-ups, at its priority, would delay the edges
 * they coincide with: measured, a 20 ms tick beside a 50 Hz servo moved the
 * tuned generators' median width error by hundreds of ns). A longer run is
 * read every 17 ms (no multiple of the waveforms' periods), which a note in
 * the document does not hide: see pwm_watch_until().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msg.h"
#include "pwm/pwm.h"

#define WATCH_QUEUE	1024	/* the kernel's largest event queue */

int pwm_watch_open(struct pwm_watch *w, struct udrv_chip *chip, unsigned int in)
{
	struct udrv_request_config cfg = { .consumer = PWM_WATCH_CONSUMER,
					   .event_buffer_size = WATCH_QUEUE };
	struct udrv_line_settings s = { .direction = UDRV_DIR_INPUT,
					.edge = UDRV_EDGE_BOTH };

	*w = (struct pwm_watch){ 0 };
	if (udrv_chip_request(chip, &cfg, 1, &in, &s, &w->req))
		return bench_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
	return 0;
}

void pwm_watch_close(struct pwm_watch *w)
{
	udrv_request_release(w->req);
	free(w->ev);
	*w = (struct pwm_watch){ 0 };
}

int pwm_watch_drain(struct pwm_watch *w)
{
	for (;;) {
		int ret = udrv_request_wait_events(w->req, 0);

		if (ret < 0)
			return bench_error(EXIT_FAIL, "pwm: waiting for the wire's edges: %s",
					   udrv_request_errmsg(w->req));
		if (!ret)
			return 0;
		if (w->n == w->cap)
			return bench_error(EXIT_FAIL, "pwm: more than %zu edges on the wire: "
					   "another writer on the line?", w->cap);
		ret = udrv_request_read_events(w->req, w->ev + w->n, w->cap - w->n);
		if (ret < 0)
			return bench_error(EXIT_FAIL, "pwm: reading the wire's edges: %s",
					   udrv_request_errmsg(w->req));
		w->n += (size_t)ret;
	}
}

int pwm_watch_reset(struct pwm_watch *w, size_t cap)
{
	struct udrv_edge_event *ev = realloc(w->ev, cap * sizeof(*ev));

	if (!ev)
		return bench_error(EXIT_FAIL, "out of memory");
	w->ev = ev;
	w->cap = cap;
	w->n = 0;
	if (pwm_watch_drain(w))
		return EXIT_FAIL;
	w->n = 0;
	return 0;
}

/* Sleep until PWM_WATCH_EVERY_NS after @t (moved on): 0, or the exit code of
 * a signal. */
static int next(struct timespec *t)
{
	t->tv_nsec += PWM_WATCH_EVERY_NS;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR)
		if (bench_interrupted())
			return 128 + bench_interrupted();
	return 0;
}

int pwm_watch_until(struct pwm_watch *w, int (*done)(void *ctx, bool block), void *ctx)
{
	struct timespec t;
	int ret;

	/* it fits in the kernel's queue: wait for the end, then read */
	w->polled = w->cap > WATCH_QUEUE;
	if (!w->polled) {
		ret = done(ctx, true);
		return ret < 0 ? -ret : pwm_watch_drain(w);
	}
	clock_gettime(CLOCK_MONOTONIC, &t);
	while (!(ret = done(ctx, false))) {
		if (bench_interrupted())
			return 128 + bench_interrupted();
		if (pwm_watch_drain(w))
			return EXIT_FAIL;
		ret = next(&t);
		if (ret)
			return ret;
	}
	if (ret < 0)
		return -ret;
	return pwm_watch_drain(w);
}

int pwm_watch_settle(struct pwm_watch *w)
{
	struct timespec t;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t);
	ret = next(&t);
	return ret ? ret : pwm_watch_drain(w);
}
