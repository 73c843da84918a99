// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-ticker-check: exercise rig/kernel/uio-ticker through libudrv in the lab
 * and print what happened as JSON, for tests/lab/test_uio_ticker.py:
 *
 *   discovery by name, map 0 (the page), N waits (count, delta, missed,
 *   the page's event number, wake-up latency from the kernel's timestamps),
 *   missed interrupts after sleeping through several periods, irqcontrol
 *   off (a wait times out, ticks are counted as suppressed) and on again.
 *
 * Usage: udrv-ticker-check [WAITS] [SLEEP_MS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <udrv/udrv.h>

#include <udrv/uio-ticker.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int fail(struct udrv_uio *uio, const char *what)
{
	fprintf(stderr, "udrv-ticker-check: %s: %s\n", what, udrv_uio_errmsg(uio));
	return 1;
}

static void json_wait(struct udrv_json *j, const struct udrv_uio_irq *irq,
		      const struct uio_ticker_page *p, uint64_t woke)
{
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "count", irq->count);
	udrv_json_kuint(j, "delta", irq->delta);
	udrv_json_kuint(j, "missed", irq->missed);
	udrv_json_kuint(j, "page_event", p->event);
	udrv_json_kuint(j, "expiry_to_wake_ns", woke - p->expires_ns);
	udrv_json_kuint(j, "notify_to_wake_ns", woke - p->notify_ns);
	udrv_json_obj_end(j);
}

static int waits(struct udrv_uio *uio, const volatile struct uio_ticker_page *pg,
		 struct udrv_json *j, unsigned int n)
{
	struct uio_ticker_page p;
	struct udrv_uio_irq irq;
	uint64_t woke;

	udrv_json_key(j, "waits");
	udrv_json_arr_begin(j);
	for (unsigned int i = 0; i < n; i++) {
		if (udrv_uio_wait(uio, 1000, &irq) != 1)
			return fail(uio, "wait");
		woke = now_ns();
		uio_ticker_snapshot(pg, &p);
		json_wait(j, &irq, &p, woke);
	}
	udrv_json_arr_end(j);
	return 0;
}

static int irqcontrol(struct udrv_uio *uio, const volatile struct uio_ticker_page *pg,
		      struct udrv_json *j)
{
	struct uio_ticker_page before, after;
	struct udrv_uio_irq irq;
	int ret;

	if (udrv_uio_irq_enable(uio, false))
		return fail(uio, "irqcontrol off");
	uio_ticker_snapshot(pg, &before);
	ret = udrv_uio_wait(uio, 50, &irq);
	uio_ticker_snapshot(pg, &after);
	udrv_json_kint(j, "wait_while_disabled", ret);
	udrv_json_kuint(j, "enabled_flag_while_disabled", after.enabled);
	udrv_json_kuint(j, "suppressed_while_disabled", after.suppressed - before.suppressed);
	if (udrv_uio_irq_enable(uio, true))
		return fail(uio, "irqcontrol on");
	ret = udrv_uio_wait(uio, 1000, &irq);
	udrv_json_kint(j, "wait_after_enable", ret);
	udrv_json_kuint(j, "missed_total", udrv_uio_missed(uio));
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 5;
	unsigned int sleep = argc > 2 ? (unsigned int)atoi(argv[2]) : 20;
	const volatile struct uio_ticker_page *pg;
	struct uio_ticker_page p;
	struct udrv_uio *uio = udrv_uio_new();
	struct udrv_uio_irq irq;
	struct udrv_region *r;
	struct udrv_json *j;
	int ret = 1;

	if (udrv_uio_open(uio, "uio-ticker"))
		return fail(uio, "open");
	if (udrv_uio_map(uio, UIO_TICKER_MAP, &r))
		return fail(uio, "map");
	pg = (const volatile struct uio_ticker_page *)udrv_region_mmio(r).base;
	j = udrv_json_new(stdout, true);
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "device", udrv_uio_devname(uio));
	udrv_json_kbool(j, "magic_ok", uio_ticker_snapshot(pg, &p) == 0);
	udrv_json_kuint(j, "period_ns", p.period_ns);
	if (waits(uio, pg, j, n))
		goto out;
	sleep_ms(sleep);	/* ticks pass with nobody waiting */
	if (udrv_uio_wait(uio, 1000, &irq) != 1) {
		fail(uio, "wait after sleep");
		goto out;
	}
	udrv_json_kuint(j, "delta_after_sleep", irq.delta);
	udrv_json_kuint(j, "missed_after_sleep", irq.missed);
	ret = irqcontrol(uio, pg, j);
out:
	udrv_json_obj_end(j);
	udrv_json_free(j);
	udrv_region_unmap(r);
	udrv_uio_free(uio);
	return ret;
}
