// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench pwm: the wire's input line, watched for both edges while a
 * generator drives the output. The kernel timestamps each edge in hard
 * interrupt context and queues it (1024 events at most); the bench takes
 * the queue every 20 ms, so that its own wake-ups are few (50 a second,
 * at the bench's priority) and nothing overflows at 1 kHz.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msg.h"
#include "pwm/pwm.h"

#define WATCH_QUEUE	1024	/* the kernel's largest event queue */
#define WATCH_EVERY_NS	20000000L

int pwm_watch_open(struct pwm_watch *w, struct udrv_chip *chip, unsigned int in)
{
	struct udrv_request_config cfg = { .consumer = "udrv-bench",
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

/* Sleep until 20 ms after @t (moved on), or @end_ns when that is sooner
 * (and not 0): 0, or the exit code of a signal. */
static int next(struct timespec *t, uint64_t end_ns)
{
	uint64_t ns;

	t->tv_nsec += WATCH_EVERY_NS;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
	ns = (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_nsec;
	if (end_ns && end_ns < ns) {
		t->tv_sec = (time_t)(end_ns / 1000000000ULL);
		t->tv_nsec = (long)(end_ns % 1000000000ULL);
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR)
		if (bench_interrupted())
			return 128 + bench_interrupted();
	return 0;
}

int pwm_watch_until(struct pwm_watch *w, int (*done)(void *ctx), void *ctx,
		    uint64_t end_ns)
{
	struct timespec t;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t);
	while (!(ret = done(ctx))) {
		if (bench_interrupted())
			return 128 + bench_interrupted();
		if (pwm_watch_drain(w))
			return EXIT_FAIL;
		ret = next(&t, end_ns);
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
	ret = next(&t, 0);
	return ret ? ret : pwm_watch_drain(w);
}
