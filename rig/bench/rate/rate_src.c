// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sources of udrv-bench rate, which count what they raise: gpio-wire's
 * generator (an hrtimer toggling an input line: gen_line, gen_period_ns,
 * gen_edges, gen_masked, gen_overruns on its platform device, and the
 * "edges" file's DROPPED for drop_every) and uio-ticker (period_ns, and its
 * page's ticks, event and overruns). Started and stopped per step, put back
 * as they were at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/uio-ticker.h>

#include "bench.h"
#include "msg.h"
#include "fields.h"
#include "rate.h"

/* One number from a sysfs file ("N\n"). 0 or an exit code. */
static int src_read(const char *path, uint64_t *v)
{
	int ret = bench_file_u64(path, v);

	if (ret == -EINVAL)
		return bench_error(EXIT_FAIL, "%s: not one number", path);
	if (ret)
		return bench_error(EXIT_FAIL, "cannot read %s: %s", path, strerror(-ret));
	return 0;
}

static int src_write(const char *path, uint64_t v)
{
	int ret = bench_file_write_u64(path, v);

	if (ret)
		return bench_error(EXIT_FAIL, "cannot write %llu to %s: %s",
				 (unsigned long long)v, path, strerror(-ret));
	return 0;
}

static void src_path(const struct rate_src *s, const char *attr, char *path,
		     size_t len)
{
	snprintf(path, len, "%s%s", s->dir, attr);
}

int rate_src_open_wire(struct rate_src *s, const struct udrv_chip *chip,
		       unsigned int line)
{
	char path[200];
	uint64_t v;

	s->uio = false;
	s->line = line;
	if (!bench_wire_path(chip, path, sizeof(path)))
		return bench_error(EXIT_FAIL, "%s (%s) is not gpio-wire: the rate bench needs a source that counts the edges it makes (load rig/kernel/gpio-wire)",
				 udrv_chip_name(chip), udrv_chip_label(chip));
	/* ".../gpiochipN/../edges" -> ".../gpiochipN/../" */
	path[strlen(path) - strlen("edges")] = '\0';
	snprintf(s->dir, sizeof(s->dir), "%s", path);
	src_path(s, "gen_limit", path, sizeof(path));
	if (access(path, W_OK))
		return bench_error(EXIT_FAIL, "%s: %s: this gpio-wire has no generator (rebuild rig/kernel/gpio-wire) or needs root",
				 path, strerror(errno));
	src_path(s, "gen_line", path, sizeof(path));
	if (src_read(path, &v))
		return EXIT_FAIL;
	s->old_line = (unsigned int)v;
	src_path(s, "gen_period_ns", path, sizeof(path));
	if (src_read(path, &v))
		return EXIT_FAIL;
	if (v)
		return bench_error(EXIT_FAIL, "%s is %llu: gpio-wire's generator is already running (another bench?); stop it with 'echo 0 > %s'",
				 path, (unsigned long long)v, path);
	src_path(s, "gen_line", path, sizeof(path));
	if (src_write(path, line))
		return EXIT_FAIL;
	s->line_set = true;
	return 0;
}

int rate_src_open_ticker(struct rate_src *s)
{
	struct uio_ticker_page p;

	s->uio = true;
	s->ticker = udrv_uio_new();
	if (!s->ticker)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_uio_open(s->ticker, "uio-ticker"))
		return bench_error(EXIT_FAIL, "%s (load rig/kernel/uio-ticker, or leave the uio mechanisms out: --mechanisms cdev,cdev-batch)",
				 udrv_uio_errmsg(s->ticker));
	if (udrv_uio_map(s->ticker, UIO_TICKER_MAP, &s->map))
		return bench_error(EXIT_FAIL, "%s", udrv_uio_errmsg(s->ticker));
	s->page = (const volatile struct uio_ticker_page *)udrv_region_mmio(s->map).base;
	if (uio_ticker_snapshot(s->page, &p))
		return bench_error(EXIT_FAIL, "%s: the page has magic 0x%x version %u, not uio-ticker ABI %u",
				 udrv_uio_devname(s->ticker), p.magic, p.version,
				 UIO_TICKER_VERSION);
	snprintf(s->period_path, sizeof(s->period_path),
		 "%s/sys/class/uio/%s/device/period_ns", bench_sysroot(),
		 udrv_uio_devname(s->ticker));
	snprintf(s->limit_path, sizeof(s->limit_path),
		 "%s/sys/class/uio/%s/device/tick_limit", bench_sysroot(),
		 udrv_uio_devname(s->ticker));
	if (access(s->period_path, W_OK) || access(s->limit_path, W_OK))
		return bench_error(EXIT_FAIL, "%s: %s: this uio-ticker has no period_ns or tick_limit (rebuild rig/kernel/uio-ticker) or needs root",
				 s->period_path, strerror(errno));
	if (src_read(s->period_path, &s->old_period_ns))
		return EXIT_FAIL;
	/* quiet until the first step */
	if (src_write(s->period_path, 0))
		return EXIT_FAIL;
	s->running = true;	/* put the old period back at the end */
	return 0;
}

int rate_src_start(struct rate_src *s, uint64_t period_ns, uint64_t limit)
{
	char path[200];

	s->running = true;
	if (s->uio)
		return src_write(s->limit_path, limit) ||
		       src_write(s->period_path, period_ns) ? EXIT_FAIL : 0;
	src_path(s, "gen_limit", path, sizeof(path));
	if (src_write(path, limit))
		return EXIT_FAIL;
	src_path(s, "gen_period_ns", path, sizeof(path));
	return src_write(path, period_ns);
}

int rate_src_stop(struct rate_src *s)
{
	char path[200];

	if (s->uio)
		return src_write(s->period_path, 0);
	src_path(s, "gen_period_ns", path, sizeof(path));
	if (src_write(path, 0))
		return EXIT_FAIL;
	s->running = false;
	return 0;
}

void rate_count_sub(struct rate_count *d, const struct rate_count *a,
		    const struct rate_count *b)
{
	d->made = b->made - a->made;
	d->masked = b->masked - a->masked;
	d->injected = b->injected - a->injected;
	d->overruns = b->overruns - a->overruns;
	d->signalled = b->signalled - a->signalled;
}

int rate_src_count(struct rate_src *s, struct rate_count *c)
{
	static const char *const attr[] = { "gen_edges", "gen_masked",
					    "gen_overruns" };
	uint64_t *v[] = { &c->made, &c->masked, &c->overruns };
	struct uio_ticker_page p;
	struct bench_wire w;
	char path[200];

	memset(c, 0, sizeof(*c));
	if (s->uio) {
		uio_ticker_snapshot(s->page, &p);
		c->made = p.ticks;
		c->signalled = p.event;
		c->overruns = p.overruns;
		return 0;
	}
	for (size_t i = 0; i < sizeof(attr) / sizeof(attr[0]); i++) {
		src_path(s, attr[i], path, sizeof(path));
		if (src_read(path, v[i]))
			return EXIT_FAIL;
	}
	src_path(s, "edges", path, sizeof(path));
	if (bench_wire_counts(path, s->line, &w))
		return EXIT_FAIL;
	c->injected = w.dropped;
	c->signalled = c->made;
	return 0;
}

void rate_src_close(struct rate_src *s)
{
	char path[200];

	if (s->uio) {
		if (s->running && s->ticker) {
			src_write(s->limit_path, 0);
			src_write(s->period_path, s->old_period_ns);
		}
		s->running = false;
		udrv_region_unmap(s->map);
		udrv_uio_free(s->ticker);
		s->map = NULL;
		s->ticker = NULL;
		return;
	}
	if (s->running)
		rate_src_stop(s);
	if (s->line_set) {
		src_path(s, "gen_limit", path, sizeof(path));
		src_write(path, 0);
		src_path(s, "gen_line", path, sizeof(path));
		src_write(path, s->old_line);
		s->line_set = false;
	}
}
