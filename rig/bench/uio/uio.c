// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench uio: wake-up latency of UIO interrupts, measured exactly
 * (Koch, Userspace I/O drivers in a realtime context: uio_dummy woke userspace
 * in 16-32 us, seen with ftrace; docs/references.md).
 *
 * uio-ticker (rig/kernel/uio-ticker): a hard hrtimer every --period-us; its page
 * carries the tick's programmed expiry and the time of uio_event_notify(),
 * so for each interrupt:
 *   expiry_to_wake  t_wake - page.expires_ns (timer expiry -> userspace)
 *   notify_to_wake  t_wake - page.notify_ns  (uio_event_notify -> userspace;
 *                   on PREEMPT_RT called from a SCHED_FIFO 50 thread)
 *   rearm           udrv_uio_irq_enable(uio, true), the irqcontrol write
 * once through udrv_uio_wait() (blocking read, no poll) and once as a bare
 * read() of 4 bytes on /dev/uioN, the reference for udrv's overhead. A wait
 * whose page already holds a newer tick (one that fired between the read
 * and the page snapshot) gives no latency sample; the note counts them.
 *
 * edu through uio_pci_generic (QEMU's PCI device, examples/edu/edu.c): t0
 * before writing the raise register, udrv_uio_wait(), t_wake:
 *   write_to_wake   register write -> INTx -> hardirq (-> irq thread on RT)
 *                   -> userspace: the whole path of a PCI device
 *   rearm           acknowledge (0x64) + re-enable INTx in the command
 *                   register, which uio_pci_generic masked
 *
 * Loss, from three counters: sent = counted at the source (uio-ticker's own
 * count of signalled ticks in its page; for edu the raise writes), received
 * = waits that returned, lost = the gaps in the UIO core's event count;
 * sent = received + lost. The source's count is taken together with a
 * wait's UIO count only when they describe the same tick (no newer tick in
 * the page), at the start and at the end of a loop. Every wait has a
 * watchdog (SIGALRM): a lost interrupt ends the bench with an error, never
 * a hang.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"
#include "edu.h"
#include "fields.h"
#include "msg.h"
#include "benches.h"
#include "spike.h"
#include <udrv/uio-ticker.h>

#define DEFAULT_SAMPLES		2000
#define DEFAULT_PERIOD_US	1000
#define WATCHDOG_S		EDU_WATCHDOG_S

enum { DEV_TICKER = 1, DEV_EDU = 2 };

struct ticker {
	struct udrv_uio *uio;
	struct udrv_region *map;
	const volatile struct uio_ticker_page *page;
	char dev[32];			/* /dev/uioN */
	char period_path[96];
	uint64_t old_period;
	bool period_set;
	uint64_t stale;			/* waits without a sample */
	uint64_t since;			/* ticks that expired before: no sample */
};

struct uio_bench {
	struct bench_run run;
	unsigned int devices;
	unsigned int period_us;
	bool realtime;
	struct ticker tk;
	struct edu_uio edu;
	struct sigaction old_alrm;
};

static const char help[] =
"Usage: udrv-bench uio [OPTIONS]\n"
"\n"
"Wake-up latency of UIO interrupts, from the kernel's own timestamps.\n"
"uio-ticker: timer expiry -> userspace (expiry_to_wake) and\n"
"uio_event_notify() -> userspace (notify_to_wake) through udrv_uio_wait(),\n"
"compared with a bare read() on /dev/uioN, and the irqcontrol re-arm.\n"
"edu (QEMU's PCI device on uio_pci_generic): raise-register write ->\n"
"userspace (write_to_wake) and the re-arm (acknowledge + INTx unmask).\n"
"Every wake-up row accounts sent = received + lost (the rearm rows have\n"
"no loss).\n"
"\n"
"Options:\n"
"  -d, --device D      ticker, edu or both (default both)\n"
"      --period-us N   uio-ticker period while measuring (default 1000;\n"
"                      the previous period is restored afterwards)\n"
"  -n, --samples N     interrupts per row (default 2000)\n"
"\n"
BENCH_OPTS_HELP
"\n"
"Example:\n"
"  udrv-bench uio --device ticker --period-us 500 -n 10000 --load all\n";

/* long-only options: values below the common ones (0x100), not in their short set */
enum { OPT_PERIOD = 'p' };

static const struct option long_opts[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "period-us", required_argument, NULL, OPT_PERIOD },
	{ NULL, 0, NULL, 0 },
};

static int uio_opt(struct bench_run *run, int opt, const char *arg, void *ctx)
{
	struct uio_bench *b = ctx;
	int64_t v;

	switch (opt) {
	case 'd':
		if (!strcmp(arg, "ticker"))
			b->devices = DEV_TICKER;
		else if (!strcmp(arg, "edu"))
			b->devices = DEV_EDU;
		else if (!strcmp(arg, "both"))
			b->devices = DEV_TICKER | DEV_EDU;
		else
			return bench_usage(run->bench, "bad --device '%s': ticker, edu or both", arg);
		return 0;
	case OPT_PERIOD:
		if (udrv_parse_s64(arg, 10, 10000000, &v))
			return bench_usage(run->bench, "bad --period-us '%s': 10..10000000", arg);
		b->period_us = (unsigned int)v;
		return 0;
	default:
		return bench_usage(run->bench, "bad option");
	}
}

/* uio-ticker: open, period, samples */

static int ticker_open(struct ticker *tk)
{
	struct uio_ticker_page p;
	int ret;

	tk->uio = udrv_uio_new();
	if (!tk->uio)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_uio_open(tk->uio, "uio-ticker"))
		return bench_error(EXIT_FAIL, "%s (load rig/kernel/uio-ticker, or use --device edu)",
				 udrv_uio_errmsg(tk->uio));
	if (udrv_uio_map(tk->uio, UIO_TICKER_MAP, &tk->map))
		return bench_error(EXIT_FAIL, "%s", udrv_uio_errmsg(tk->uio));
	tk->page = (const volatile struct uio_ticker_page *)udrv_region_mmio(tk->map).base;
	if (uio_ticker_snapshot(tk->page, &p))
		return bench_error(EXIT_FAIL, "%s: the page has magic 0x%x version %u, not uio-ticker ABI %u",
				 udrv_uio_devname(tk->uio), p.magic, p.version,
				 UIO_TICKER_VERSION);
	snprintf(tk->dev, sizeof(tk->dev), "/dev/%s", udrv_uio_devname(tk->uio));
	snprintf(tk->period_path, sizeof(tk->period_path),
		 "/sys/class/uio/%s/device/period_us", udrv_uio_devname(tk->uio));
	ret = bench_file_u64(tk->period_path, &tk->old_period);
	if (ret)
		return bench_error(EXIT_FAIL, "cannot read %s: %s", tk->period_path,
				 strerror(-ret));
	return EXIT_OK;
}

static int ticker_period(struct ticker *tk, unsigned long us)
{
	int ret = bench_file_write_u64(tk->period_path, us);

	if (ret)
		return bench_error(EXIT_FAIL, "cannot write %lu to %s: %s", us,
				 tk->period_path, strerror(-ret));
	tk->period_set = true;
	return EXIT_OK;
}

static void ticker_restore(struct ticker *tk)
{
	int ret = tk->period_set ?
		  bench_file_write_u64(tk->period_path, tk->old_period) : 0;

	if (ret)
		bench_error(EXIT_FAIL, "cannot restore %s to %llu: %s",
			  tk->period_path, (unsigned long long)tk->old_period,
			  strerror(-ret));
	tk->period_set = false;
}

static void ticker_close(struct ticker *tk)
{
	ticker_restore(tk);
	udrv_region_unmap(tk->map);
	udrv_uio_free(tk->uio);
}

/*
 * The latency samples of the wait that returned UIO count @count at @woke.
 * The page must describe that very tick: if a newer tick was written in
 * between, its timestamps are not this wait's, and there is no sample.
 * Nor is a tick that expired before the loop's first wait (tk->since): on
 * PREEMPT_RT the bench's own setup at its FIFO priority can hold back the
 * FIFO 50 notify thread, and the wait would measure that setup.
 */
static void ticker_sample(struct ticker *tk,
			  const volatile struct uio_ticker_page *page,
			  uint32_t count, uint64_t woke,
			  struct bench_row *expiry, struct bench_row *notify)
{
	struct uio_ticker_page p;

	uio_ticker_snapshot(page, &p);
	if ((uint32_t)p.event != count || woke < p.notify_ns ||
	    p.notify_ns < p.expires_ns || p.expires_ns < tk->since) {
		tk->stale++;
		return;
	}
	udrv_hist_record(expiry->hist, woke - p.expires_ns);
	udrv_hist_record(notify->hist, woke - p.notify_ns);
	bench_spike_check(expiry, p.expires_ns, woke);
}

/* At most this many extra waits to catch the page and the UIO count on the
 * same tick (a tick that fires between a wake-up and the snapshot moves the
 * page on; the next wait catches up) */
#define SOURCE_TRIES	16

/*
 * uio-ticker's count of signalled ticks, if the page describes the tick of
 * the wait that returned UIO count @count (no newer tick signalled since):
 * then the source's count and the receiver's count are of the same moment.
 */
static bool source_count(const volatile struct uio_ticker_page *page,
			 uint32_t count, uint64_t *event)
{
	struct uio_ticker_page p;

	uio_ticker_snapshot(page, &p);
	if ((uint32_t)p.event != count)
		return false;
	*event = p.event;
	return true;
}

static int source_disagrees(const char *what)
{
	return bench_error(EXIT_FAIL, "%s: uio-ticker's own count of signalled ticks never matched the UIO event count in %d waits: the device loses or invents interrupts",
			 what, SOURCE_TRIES);
}

static int raw_read(int fd, uint32_t *count)
{
	int32_t c;
	ssize_t n;

	alarm(WATCHDOG_S);
	n = read(fd, &c, sizeof(c));
	if (n == (ssize_t)sizeof(c)) {
		*count = (uint32_t)c;
		return 0;
	}
	if (n < 0 && errno == EINTR && bench_interrupted())
		return EXIT_FAIL;	/* SIGINT/SIGTERM: bench_end says so */
	if (n < 0 && errno == EINTR)
		return bench_error(EXIT_FAIL, "uio-ticker: no interrupt within %d s", WATCHDOG_S);
	return bench_error(EXIT_FAIL, "read of uio-ticker: %s",
			 n < 0 ? strerror(errno) : "short read");
}

/* The reference: read() of 4 bytes on /dev/uioN, no library, no poll. */
static int ticker_raw_loop(struct uio_bench *b, int fd,
			   const volatile struct uio_ticker_page *page,
			   struct bench_row *expiry, struct bench_row *notify)
{
	uint64_t n = bench_samples(&b->run, DEFAULT_SAMPLES), t0, i, woke;
	uint64_t src0 = 0, src1 = 0;
	uint32_t first = 0, last, count = 0;
	struct bench_loss l = { 0 };
	int ret, tries = 0;

	/* the baseline: a tick whose page the source has not moved past */
	do {
		ret = raw_read(fd, &first);
	} while (!ret && !source_count(page, first, &src0) && ++tries < SOURCE_TRIES);
	if (!ret && tries == SOURCE_TRIES)
		return source_disagrees("uio-ticker raw");
	b->tk.since = bench_now_ns();
	last = first;
	for (t0 = bench_now_ns(), i = 0; !ret && bench_more(&b->run, t0, i, n); i++) {
		ret = raw_read(fd, &count);
		woke = bench_now_ns();
		if (ret)
			break;
		ticker_sample(&b->tk, page, count, woke, expiry, notify);
		l.received++;
		l.lost += count - last - 1;
		last = count;
		bench_progress(&b->run, notify, i, n);
	}
	/* interrupted: the rows so far have samples but no end to count to */
	if (bench_interrupted())
		return EXIT_FAIL;
	/* the end: more waits (no samples) until page and count agree */
	for (tries = 0; !ret && !source_count(page, last, &src1); tries++) {
		if (tries == SOURCE_TRIES)
			return source_disagrees("uio-ticker raw");
		ret = raw_read(fd, &count);
		l.received++;
		l.lost += count - last - 1;
		last = count;
	}
	l.sent = src1 - src0;
	bench_loss_set(expiry, &l);
	bench_loss_set(notify, &l);
	return ret ? ret : bench_loss_check("uio-ticker raw", &l);
}

static int ticker_raw(struct uio_bench *b, struct bench_row *expiry,
		      struct bench_row *notify)
{
	size_t len = (size_t)sysconf(_SC_PAGESIZE);
	void *page;
	int fd, ret;

	fd = open(b->tk.dev, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return bench_error(EXIT_FAIL, "cannot open %s: %s", b->tk.dev, strerror(errno));
	page = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, UIO_TICKER_MAP * (off_t)len);
	if (page == MAP_FAILED) {
		ret = bench_error(EXIT_FAIL, "mmap of %s: %s", b->tk.dev, strerror(errno));
	} else {
		ret = ticker_raw_loop(b, fd, page, expiry, notify);
		munmap(page, len);
	}
	close(fd);
	return ret;
}

/* udrv: udrv_uio_wait(timeout -1), then the timed irqcontrol re-arm. */
static int ticker_udrv(struct uio_bench *b, struct bench_row *expiry,
		       struct bench_row *notify, struct bench_row *rearm)
{
	uint64_t n = bench_samples(&b->run, DEFAULT_SAMPLES), t0, i, woke, t1;
	struct udrv_uio *uio = b->tk.uio;
	struct udrv_uio_irq irq;
	uint64_t missed0, src0 = 0, src1 = 0;
	struct bench_loss l = { 0 };
	int ret, tries = 0;

	/* the baseline: a wait (it also takes the ticks since open) whose
	 * tick the source has not moved past */
	do {
		alarm(WATCHDOG_S);
		ret = udrv_uio_wait(uio, -1, &irq);
		if (ret != 1)
			return bench_wait_failed(ret, "uio-ticker", udrv_uio_errmsg(uio));
	} while (!source_count(b->tk.page, irq.count, &src0) && ++tries < SOURCE_TRIES);
	if (tries == SOURCE_TRIES)
		return source_disagrees("uio-ticker");
	b->tk.since = bench_now_ns();
	missed0 = udrv_uio_missed(uio);
	for (t0 = bench_now_ns(), i = 0; bench_more(&b->run, t0, i, n); i++) {
		alarm(WATCHDOG_S);
		ret = udrv_uio_wait(uio, -1, &irq);
		woke = bench_now_ns();
		if (ret != 1)
			return bench_wait_failed(ret, "uio-ticker", udrv_uio_errmsg(uio));
		ticker_sample(&b->tk, b->tk.page, irq.count, woke, expiry, notify);
		l.received++;
		t1 = bench_now_ns();
		if (udrv_uio_irq_enable(uio, true))
			return bench_error(EXIT_FAIL, "%s", udrv_uio_errmsg(uio));
		udrv_hist_record(rearm->hist, bench_now_ns() - t1);
		bench_progress(&b->run, notify, i, n);
	}
	/* interrupted: the rows so far have samples but no end to count to */
	if (bench_interrupted())
		return EXIT_FAIL;
	/* the end: more waits (no samples) until page and count agree */
	for (tries = 0; !source_count(b->tk.page, irq.count, &src1); tries++) {
		if (tries == SOURCE_TRIES)
			return source_disagrees("uio-ticker");
		alarm(WATCHDOG_S);
		ret = udrv_uio_wait(uio, -1, &irq);
		if (ret != 1)
			return bench_wait_failed(ret, "uio-ticker", udrv_uio_errmsg(uio));
		l.received++;
		if (udrv_uio_irq_enable(uio, true))
			return bench_error(EXIT_FAIL, "%s", udrv_uio_errmsg(uio));
	}
	l.sent = src1 - src0;
	l.lost = udrv_uio_missed(uio) - missed0;
	bench_loss_set(expiry, &l);
	bench_loss_set(notify, &l);
	return bench_loss_check("uio-ticker", &l);
}

static void ticker_notes(struct uio_bench *b, struct bench_row **rows,
			 size_t nrows, uint64_t stale)
{
	for (size_t i = 0; i < nrows; i++) {
		if (b->realtime && !strcmp(rows[i]->what, "notify_to_wake"))
			bench_note_add(rows[i]->note, sizeof(rows[i]->note),
				 "PREEMPT_RT: notified by the uio-ticker thread (SCHED_FIFO 50)");
		if (stale)
			bench_note_add(rows[i]->note, sizeof(rows[i]->note),
				 "waits without a sample: %llu (a newer tick was already in the page, or the tick expired before the measurement began)",
				 (unsigned long long)stale);
	}
}

static int ticker_rows(struct uio_bench *b)
{
	struct bench_row *r[5];
	int ret;

	r[0] = bench_row(&b->run, "uio-ticker", "raw", "read", "expiry_to_wake");
	r[1] = bench_row(&b->run, "uio-ticker", "raw", "read", "notify_to_wake");
	r[2] = bench_row(&b->run, "uio-ticker", "udrv", "read", "expiry_to_wake");
	r[3] = bench_row(&b->run, "uio-ticker", "udrv", "read", "notify_to_wake");
	r[4] = bench_row(&b->run, "uio-ticker", "udrv", NULL, "rearm");
	for (int i = 0; i < 5; i++)
		if (!r[i])
			return bench_error(EXIT_FAIL, "out of memory");
	ret = ticker_period(&b->tk, b->period_us);
	/* PREEMPT_RT: the kthread that calls uio_event_notify() (none on a
	 * standard kernel: the hrtimer notifies from hard interrupt context) */
	if (!ret)
		ret = bench_wake_threads(&b->run, "uio-ticker");
	if (!ret)
		ret = ticker_raw(b, r[0], r[1]);
	ticker_notes(b, r, 2, b->tk.stale);
	b->tk.stale = 0;
	if (!ret)
		ret = ticker_udrv(b, r[2], r[3], r[4]);
	ticker_notes(b, r + 2, 2, b->tk.stale);
	r[2]->reference = bench_row_index(&b->run, r[0]);
	r[3]->reference = bench_row_index(&b->run, r[1]);
	bench_note_add(r[4]->note, sizeof(r[4]->note), "irqcontrol write of 1, every interrupt");
	ticker_restore(&b->tk);
	return ret;
}

/* edu on uio_pci_generic */

/* The first UIO device with the edu's PCI ID 1234:11e8. */
static int edu_find(char *dev, size_t len)
{
	char **names = NULL, dir[64];
	int n, found = -1;

	n = udrv_uio_list(&names);
	for (int i = 0; i < n && found; i++) {
		snprintf(dir, sizeof(dir), "/sys/class/uio/%s/device", names[i]);
		if (edu_is_edu(dir)) {
			snprintf(dev, len, "%s", names[i]);
			found = 0;
		}
	}
	udrv_strv_free(names);
	return found;
}

static int edu_open(struct edu_uio *edu)
{
	char dev[32];

	if (edu_find(dev, sizeof(dev)))
		return bench_error(EXIT_FAIL, "no UIO device with PCI ID 1234:11e8 (QEMU -device edu bound to uio_pci_generic); use --device ticker");
	return edu_uio_open(edu, dev);
}

static int edu_rows(struct uio_bench *b)
{
	struct bench_row *wake, *rearm;
	int ret;

	wake = bench_row(&b->run, "edu", "udrv", "read", "write_to_wake");
	rearm = bench_row(&b->run, "edu", "udrv", NULL, "rearm");
	if (!wake || !rearm)
		return bench_error(EXIT_FAIL, "out of memory");
	snprintf(wake->note, sizeof(wake->note),
		 "t0 before the raise write (0x60): INTx -> hardirq%s -> userspace",
		 b->realtime ? " -> irq thread" : "");
	snprintf(rearm->note, sizeof(rearm->note),
		 "acknowledge (0x64) + INTx unmask in the PCI command register");
	/* warm-up: opens the config space, takes what came since open */
	ret = edu_clear(&b->edu.path);
	if (!ret)
		ret = edu_irq(&b->edu.path, 1, NULL, NULL);
	if (!ret)
		ret = edu_uio_wake_threads(&b->run, &b->edu);
	return ret ? ret : edu_loop(&b->run, &b->edu.path, wake, rearm, DEFAULT_SAMPLES);
}

static int uio_open_all(struct uio_bench *b)
{
	struct udrv_rt_report rep;
	int ret = EXIT_OK;

	udrv_rt_check(&rep);
	b->realtime = rep.realtime;
	if (b->devices & DEV_TICKER)
		ret = ticker_open(&b->tk);
	if (!ret && (b->devices & DEV_EDU))
		ret = edu_open(&b->edu);
	return ret;
}

static int uio_rows(struct uio_bench *b)
{
	int ret = EXIT_OK;

	bench_watchdog_start(&b->old_alrm);
	if (b->devices & DEV_TICKER)
		ret = ticker_rows(b);
	if (!ret && (b->devices & DEV_EDU))
		ret = edu_rows(b);
	bench_watchdog_stop(&b->old_alrm);
	return ret;
}

BENCH_COMMAND(uio,
		"UIO interrupt wake-up: uio-ticker (vs raw read), edu over PCI");

int cmd_bench_uio(int argc, char **argv)
{
	struct uio_bench *b = calloc(1, sizeof(*b));
	int ret;

	if (!b)
		return bench_error(EXIT_FAIL, "out of memory");
	b->devices = DEV_TICKER | DEV_EDU;
	b->period_us = DEFAULT_PERIOD_US;
	b->run.traceable = true;
	ret = bench_parse(&b->run, "uio", argc, argv, help, "d:",
			  long_opts, uio_opt, b);
	if (!ret && optind < argc)
		ret = bench_usage(b->run.bench, "unexpected argument '%s'", argv[optind]);
	if (ret) {
		free(b);
		return ret < 0 ? EXIT_OK : ret;
	}
	ret = uio_open_all(b);
	if (!ret) {
		ret = bench_begin(&b->run);
		if (!ret)
			ret = uio_rows(b);
		ret = bench_end(&b->run, ret);
	}
	ticker_close(&b->tk);
	edu_uio_close(&b->edu);
	free(b);
	return ret;
}
