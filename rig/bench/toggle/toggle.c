// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench toggle: the maximum toggle rate of one output line, per
 * mechanism, on the same line (VanguardiaSur, Fast GPIO toggle on BeagleBone
 * Black; docs/references.md: bash-sysfs 8.25 kHz, C-sysfs
 * 172.66 kHz, mmap'd registers ~3 MHz on a BeagleBone).
 *
 * Each row toggles the line in batches of --batch changes; a batch is timed
 * as a whole and its ns per toggle goes into the row's histogram, so that
 * timing costs nothing in the loop. rate_per_s = toggles / time in batches.
 * Rows come in the order sysfs-shell, sysfs raw/udrv, cdev raw/udrv/
 * libgpiod, mmio raw/udrv/udrv-pin: each udrv row is measured right after
 * the raw loop it is compared with (under -icount the lab does not drift,
 * so no interleaving). The mmio rows exist where libudrv knows the SoC's
 * registers; there, every row's effect is checked in the level register
 * (toggle_verify()), which matters most on a board without a wired partner.
 *
 * The edge check: on gpio-wire, the partner input (line + 1) is requested
 * with edge detection for the whole run and drained after each batch (out
 * of the timing), and every row accounts sent (toggles) = received + lost,
 * lost being the gaps in the kernel's sequence numbers. The watch holds a second, idle input:
 * gpiolib-cdev numbers a multi-line request's events in its hardirq handler
 * but queues them from its irq thread (SCHED_FIFO 50), so edges that the
 * thread merges while a bench at FIFO 80 starves it show up as gaps; in a
 * one-line request they would vanish without a trace.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "toggle.h"
#include "msg.h"
#include "benches.h"

#define DEFAULT_TOGGLES	200000
#define DEFAULT_BATCH	256
#define WATCH_BUFFER	1024	/* events; Linux 6.1 allows 16 x 64 */
#define IRQ_THREAD_PRIO	50	/* gpiolib-cdev's irq thread, SCHED_FIFO */
#define WAIT_BATCH_MS	5	/* for the batch's edges, between batches */
#define WAIT_LAST_MS	20	/* for the row's last edges */
/*
 * Most edges of a batch merge when the bench starves the irq thread, and
 * the kernel counts an interrupt whose thread did not run since the last
 * one as unhandled: more than 99900 of 100000 and it disables the IRQ
 * ("irq N: nobody cared"). Hence a wait for the thread after each batch,
 * and batches of at most 512 toggles while edges are watched.
 */
#define EDGE_MAX_BATCH	512
#define WORK_NS		10000000	/* toggle at most 10 ms, */
#define REST_NS		1000000		/* then sleep 1 ms */

static const char help[] =
"Usage: udrv-bench toggle [OPTIONS]\n"
"\n"
"Toggle one output line as fast as possible through each mechanism, on\n"
"the same line: a /bin/sh loop on sysfs, sysfs from C (raw write() and\n"
"udrv), the character device (raw ioctl, udrv, and libgpiod 2.3 in\n"
"udrv-bench-peer, a child at the bench's priority, when it is found),\n"
"and, on a SoC whose GPIO registers libudrv knows, the registers (bare\n"
"stores, udrv's mmio backend, its inline pin), each row then checked in the\n"
"level register: set 1 reads 1, set 0 reads 0.\n"
"A sample is the mean ns per toggle of one batch; the rate is the toggles\n"
"over the time spent in batches. Each udrv row is compared with the raw\n"
"loop of its mechanism, measured in the same run; cdev/udrv's note and\n"
"the table also give its ratio to libgpiod-2.3 (udrv links no libgpiod;\n"
"the 1.6 row, the obsolete v1 API, is gone). On gpio-wire the wired\n"
"partner (line + 1) watches the edges: every row accounts\n"
"sent = received + lost. Above gpiolib's irq thread (SCHED_FIFO 50), as\n"
"by default, the bench starves it during a batch, so the edges of a batch\n"
"merge into one event and count as lost; with --prio 0 every edge\n"
"arrives.\n"
"\n"
"Options:\n"
"  -c, --chip CHIP     chip: label, name, number or path (default gpio-wire)\n"
"      --line OFFSET   the output line (default 0)\n"
"      --batch N       toggles per timed batch, even (default 256; at most\n"
"                      512 while edges are watched)\n"
"      --no-edges      don't watch the partner's edges\n"
"      --udrvd BUS     also the rows through udrvd, which owns io.gpiod1 on\n"
"                      the D-Bus bus BUS (an address: unix:path=/run/dbus/\n"
"                      system_bus_socket): cdev/udrvd-fd, the request's fd\n"
"                      that udrvd hands over, against cdev/raw; dbus/udrvd,\n"
"                      one SetValues call per toggle (1/200 of -n)\n"
"      --gpio-manager BUS  also dbus/gpio-manager: the same calls to\n"
"                      libgpiod's gpio-manager on BUS (a bus of its own:\n"
"                      both own the name io.gpiod1); dbus/udrvd is then\n"
"                      compared with it\n"
"      --gpiocli PATH  with either: also one 'gpiocli set' process per\n"
"                      toggle (1/20000 of -n), to each broker\n"
"  -n, --samples N     toggles per row (default 200000; the shell row does\n"
"                      1/20 of them)\n"
"\n"
BENCH_OPTS_HELP
"\n"
"Example:\n"
"  udrv-bench toggle -c gpio-wire --line 0 -n 1000000\n";

static const struct option long_opts[] = {
	{ "chip", required_argument, NULL, 'c' },
	{ "line", required_argument, NULL, 'l' },
	{ "batch", required_argument, NULL, 'B' },
	{ "no-edges", no_argument, NULL, 'E' },
	{ "udrvd", required_argument, NULL, 'U' },
	{ "gpio-manager", required_argument, NULL, 'M' },
	{ "gpiocli", required_argument, NULL, 'G' },
	{ NULL, 0, NULL, 0 },
};

static int toggle_opt(struct bench_run *run, int opt, const char *arg,
		      void *ctx)
{
	struct toggle *t = ctx;
	int64_t v;

	switch (opt) {
	case 'c':
		t->chip_spec = arg;
		return 0;
	case 'l':
		if (udrv_parse_s64(arg, 0, 1023, &v))
			return bench_usage(run->bench, "bad --line '%s'", arg);
		t->line = (unsigned int)v;
		return 0;
	case 'B':
		if (udrv_parse_s64(arg, 2, 1L << 30, &v) || v % 2)
			return bench_usage(run->bench, "bad --batch '%s': an even number >= 2", arg);
		t->batch = (uint64_t)v;
		return 0;
	case 'E':
		t->edges = false;
		return 0;
	case 'U':
	case 'M':
	case 'G':
		if (!*arg)
			return bench_usage(run->bench, "--%s needs a value",
					   opt == 'U' ? "udrvd" : opt == 'M' ? "gpio-manager" : "gpiocli");
		*(opt == 'U' ? &t->udrvd_bus : opt == 'M' ? &t->manager_bus : &t->gpiocli) = arg;
		return 0;
	default:
		return bench_usage(run->bench, "bad option");
	}
}

/* the udrv rows */

static int udrv_open(struct toggle *t, enum udrv_backend backend)
{
	struct udrv_request_config cfg = { .consumer = "udrv-bench",
					   .backend = backend };
	struct udrv_line_settings s = { .direction = UDRV_DIR_OUTPUT };

	if (!udrv_chip_request(t->chip, &cfg, 1, &t->line, &s, &t->req))
		return 0;
	return bench_error(-1, "%s", udrv_chip_errmsg(t->chip));
}

static int udrv_sysfs_open(struct toggle *t)
{
	return udrv_open(t, UDRV_BACKEND_SYSFS);
}

static int udrv_cdev_open(struct toggle *t)
{
	return udrv_open(t, UDRV_BACKEND_CDEV);
}

static int udrv_mmio_open(struct toggle *t)
{
	return udrv_open(t, UDRV_BACKEND_MMIO);
}

static int udrv_pin_open(struct toggle *t)
{
	if (udrv_open(t, UDRV_BACKEND_MMIO))
		return -1;
	if (!udrv_request_mmio_pin(t->req, 0, &t->pin))
		return 0;
	bench_error(-1, "%s", udrv_request_errmsg(t->req));
	udrv_request_release(t->req);
	t->req = NULL;
	return -1;
}

static int udrv_batch(struct toggle *t, uint64_t n)
{
	struct udrv_request *req = t->req;

	for (uint64_t i = 0; i < n; i += 2)
		if (udrv_request_set_value(req, 0, 1) ||
		    udrv_request_set_value(req, 0, 0))
			return bench_error(-1, "%s", udrv_request_errmsg(req));
	return 0;
}

static int udrv_set(struct toggle *t, int value)
{
	if (udrv_request_set_value(t->req, 0, value))
		return bench_error(-1, "%s", udrv_request_errmsg(t->req));
	return 0;
}

static int udrv_pin_batch(struct toggle *t, uint64_t n)
{
	const struct udrv_mmio_pin pin = t->pin;

	for (uint64_t i = 0; i < n; i += 2) {
		udrv_mmio_pin_write(&pin, 1);
		udrv_mmio_pin_write(&pin, 0);
	}
	return 0;
}

static int udrv_pin_set(struct toggle *t, int value)
{
	udrv_mmio_pin_write(&t->pin, value);
	return 0;
}

static void udrv_close(struct toggle *t)
{
	udrv_request_release(t->req);
	t->req = NULL;
}

static const struct toggle_impl toggle_sysfs_udrv = {
	.mechanism = "sysfs",
	.implementation = "udrv",
	.open = udrv_sysfs_open,
	.batch = udrv_batch,
	.set = udrv_set,
	.close = udrv_close,
	.note = "udrv_request_set_value(), sysfs backend (pwrite)",
};

static const struct toggle_impl toggle_cdev_udrv = {
	.mechanism = "cdev",
	.implementation = "udrv",
	.open = udrv_cdev_open,
	.batch = udrv_batch,
	.set = udrv_set,
	.close = udrv_close,
	.note = "udrv_request_set_value(), cdev backend",
};

static const struct toggle_impl toggle_mmio_udrv = {
	.mechanism = "mmio",
	.implementation = "udrv",
	.open = udrv_mmio_open,
	.batch = udrv_batch,
	.set = udrv_set,
	.close = udrv_close,
	.note = "udrv_request_set_value(), mmio backend: a checked call, one store",
};

static const struct toggle_impl toggle_mmio_pin = {
	.mechanism = "mmio",
	.implementation = "udrv-pin",
	.open = udrv_pin_open,
	.batch = udrv_pin_batch,
	.set = udrv_pin_set,
	.close = udrv_close,
	.note = "udrv_mmio_pin_write() inline, from udrv_request_mmio_pin()",
};

/* The rows, in order; udrv rows name their reference's position here. */
static const struct {
	const struct toggle_impl *impl;
	int ref;
} rows[] = {
	{ &toggle_sysfs_shell, -1 },
	{ &toggle_sysfs_raw, -1 },
	{ &toggle_sysfs_udrv, 1 },
	{ &toggle_cdev_raw, -1 },
	{ &toggle_cdev_udrv, 3 },
	{ &toggle_cdev_libgpiod, -1 },
	{ &toggle_mmio_raw, -1 },
	{ &toggle_mmio_udrv, 6 },
	{ &toggle_mmio_pin, 6 },
	/* the brokers (toggle_dbus.c): udrvd's fd against cdev/raw, udrvd against gpio-manager */
	{ &toggle_udrvd_fd, 3 },
	{ &toggle_dbus_manager, -1 },
	{ &toggle_dbus_udrvd, 10 },
	{ &toggle_gpiocli_manager, -1 },
	{ &toggle_gpiocli_udrvd, 12 },
};
#define NUM_ROWS	(sizeof(rows) / sizeof(rows[0]))
#define ROW_CDEV_UDRV	4
#define ROW_LIBGPIOD	5

/* the edge check */

/*
 * Read the edges that the kernel has queued: wait up to @first_ms for the
 * first, then @then_ms for each next. Waiting lets gpiolib's irq thread run
 * when the bench's priority is above it.
 */
static int watch_drain(struct toggle *t, int first_ms, int then_ms)
{
	struct udrv_edge_event ev[64];
	int n, ms = first_ms;

	if (!t->watch)
		return 0;
	while ((n = udrv_request_wait_events(t->watch, ms)) > 0) {
		n = udrv_request_read_events(t->watch, ev, 64);
		if (n < 0)
			break;
		t->received += (uint64_t)n;
		ms = then_ms;
	}
	if (n < 0)
		return bench_error(-1, "edges on line %u: %s", t->partner,
				 udrv_request_errmsg(t->watch));
	return 0;
}

/* Forget the edges of the row's setup (a line that was high, say). */
static int watch_settle(struct toggle *t)
{
	int ret = watch_drain(t, 10, 10);

	t->received = 0;
	t->lost0 = t->watch ? udrv_request_lost_events(t->watch) : 0;
	if (!ret && t->watch && t->wire_edges[0])
		ret = bench_wire_counts(t->wire_edges, t->partner, &t->wire0);
	return ret;
}

/* The second, idle line of the watch: another input, nothing else. */
static int watch_pad_line(struct toggle *t)
{
	for (unsigned int i = 1; i < udrv_chip_num_lines(t->chip); i += 2)
		if (i != t->partner && i != t->line)
			return (int)i;
	return -1;
}

static int watch_open(struct toggle *t)
{
	struct udrv_request_config cfg = { .consumer = "udrv-bench-edges",
					   .event_buffer_size = WATCH_BUFFER };
	struct udrv_line_settings s[2] = {
		{ .direction = UDRV_DIR_INPUT, .edge = UDRV_EDGE_BOTH },
		{ .direction = UDRV_DIR_INPUT },
	};
	unsigned int offsets[2];
	int pad = watch_pad_line(t);

	if (pad < 0) {
		bench_note_add(t->notes, sizeof(t->notes),
			 "edges not checked: the chip has no second input line for the watch");
		return 0;
	}
	offsets[0] = t->partner;
	offsets[1] = (unsigned int)pad;
	if (udrv_chip_request(t->chip, &cfg, 2, offsets, s, &t->watch))
		return bench_error(-1, "watching the edges: %s (or use --no-edges)",
				 udrv_chip_errmsg(t->chip));
	/* let the new irq thread run once, so that it is SCHED_FIFO 50 */
	return watch_drain(t, 10, 10);
}

/*
 * sent: counted at the source, gpio-wire's edges on the partner's wire (the
 * toggles written where the chip has no such counter); received: events
 * read; lost: the kernel's sequence-number gaps plus the edges the wire
 * reports it dropped. Three counters: sent = received + lost can fail.
 */
static int row_loss(struct toggle *t, struct bench_row *row, uint64_t toggles)
{
	struct bench_wire w;
	uint64_t gaps;

	row->has_loss = true;
	row->sent = toggles;
	row->received = t->received;
	gaps = udrv_request_lost_events(t->watch) - t->lost0;
	row->lost = gaps;
	if (t->wire_edges[0]) {
		if (bench_wire_counts(t->wire_edges, t->partner, &w))
			return -1;
		row->sent = w.driven - t->wire0.driven;
		row->lost += w.dropped - t->wire0.dropped;
		if (row->sent != toggles)
			bench_note_add(row->note, sizeof(row->note),
				 "gpio-wire drove %llu edges for %llu toggles",
				 (unsigned long long)row->sent,
				 (unsigned long long)toggles);
		if (w.dropped != t->wire0.dropped)
			bench_note_add(row->note, sizeof(row->note),
				 "lost: %llu dropped by gpio-wire (drop_every), %llu in the kernel",
				 (unsigned long long)(w.dropped - t->wire0.dropped),
				 (unsigned long long)gaps);
	}
	if (!gaps)
		return 0;
	if (t->run.o.prio > IRQ_THREAD_PRIO)
		bench_note_add(row->note, sizeof(row->note),
			 "lost: edges merged while FIFO %d starved the irq thread (FIFO %d)",
			 t->run.o.prio, IRQ_THREAD_PRIO);
	else
		bench_note_add(row->note, sizeof(row->note),
			 "lost: merged or dropped by the kernel before they were read");
	return 0;
}

/* one row */

static uint64_t row_toggles(const struct toggle *t,
			    const struct toggle_impl *impl)
{
	uint64_t n = bench_samples(&t->run, DEFAULT_TOGGLES);

	if (n == UINT64_MAX)
		return n;	/* --duration */
	if (impl->share)
		n /= impl->share;
	n += n & 1;
	return n ? n : 2;
}

/*
 * Sleep REST_NS after each WORK_NS of toggling, out of the timing, so that
 * real-time throttling (sched_rt_runtime_us: 95% of each second) never
 * stops the bench in the middle of a batch (the gaps VanguardiaSur's toggle
 * post saw).
 */
static void rest(uint64_t *since)
{
	struct timespec ts = { 0, REST_NS };

	if (bench_now_ns() - *since < WORK_NS)
		return;
	nanosleep(&ts, NULL);
	*since = bench_now_ns();
}

/* One batch of @n toggles and its time: the bench's, or the peer's own. */
static int timed_batch(struct toggle *t, const struct toggle_impl *impl,
		       uint64_t n, uint64_t *ns)
{
	uint64_t t1;

	if (impl->timed)
		return impl->timed(t, n, ns);
	t1 = bench_now_ns();
	if (impl->batch(t, n))
		return -1;
	*ns = bench_now_ns() - t1;
	return 0;
}

static int row_batches(struct toggle *t, const struct toggle_impl *impl,
		       struct bench_row *row, uint64_t *done)
{
	uint64_t n = row_toggles(t, impl), b, ns, busy = 0, t0, rested;

	t0 = rested = bench_now_ns();
	uint64_t most = impl->max_batch && impl->max_batch < t->batch ? impl->max_batch : t->batch;

	for (; bench_more(&t->run, t0, *done, n); *done += b) {
		b = n - *done < most ? n - *done : most;
		if (timed_batch(t, impl, b, &ns))
			return -1;
		busy += ns;
		udrv_hist_record(row->hist, (ns + b / 2) / b);
		if (watch_drain(t, WAIT_BATCH_MS, 0))
			return -1;
		bench_progress(&t->run, row, *done + b, n);
		rest(&rested);
	}
	row->rate_per_s = busy ? (double)*done * 1e9 / (double)busy : 0;
	return 0;
}

static int run_row(struct toggle *t, const struct toggle_impl *impl,
		   struct bench_row *row)
{
	uint64_t done = 0;
	int ret;

	t->impl = impl;
	if (impl->open(t))
		return -1;
	snprintf(row->note, sizeof(row->note), "%s", impl->note);
	ret = watch_settle(t);
	if (!ret)
		ret = row_batches(t, impl, row, &done);
	if (!ret)
		ret = toggle_verify(t, impl, row);
	if (!ret)
		ret = watch_drain(t, WAIT_LAST_MS, WAIT_LAST_MS);
	impl->close(t);
	if (!ret && t->watch)
		ret = row_loss(t, row, done);
	return ret;
}

static bool row_available(struct toggle *t, const struct toggle_impl *impl)
{
	const char *why = NULL;
	char what[32];

	snprintf(what, sizeof(what), "%s/%s", impl->mechanism,
		 impl->implementation);
	if (!strcmp(impl->mechanism, "mmio"))
		return t->has_mmio;	/* or t->mmio_note says why not */
	if (impl->peer_via) {	/* the brokers' rows, when asked for */
		why = toggle_dbus_absent(t, impl);
		if (why && !*why)
			return false;
	} else
	if (impl == &toggle_cdev_libgpiod && *toggle_libgpiod_absent())
		why = toggle_libgpiod_absent();
	else if (!strncmp(impl->mechanism, "sysfs", 5) &&
		 udrv_chip_sysfs_base(t->chip) < 0)
		why = "the kernel has no sysfs GPIO for this chip";
	else if (!strcmp(impl->mechanism, "cdev") && !udrv_chip_has_cdev(t->chip))
		why = "the chip has no character device";
	else if (impl == &toggle_sysfs_shell && access("/bin/sh", X_OK))
		why = "no /bin/sh";
	if (why)
		bench_note_add(t->notes, sizeof(t->notes), "no %s row: %s", what, why);
	return !why;
}

/* setup, before the RT settings */

static int toggle_setup(struct toggle *t)
{
	bool wire;

	t->chip = udrv_chip_new();
	if (!t->chip)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_chip_open(t->chip, t->chip_spec))
		return bench_error(EXIT_FAIL, "%s", udrv_chip_errmsg(t->chip));
	if (t->line >= udrv_chip_num_lines(t->chip))
		return bench_usage(t->run.bench, "--line %u: %s has lines 0..%u",
				 t->line, udrv_chip_name(t->chip),
				 udrv_chip_num_lines(t->chip) - 1);
	wire = !strcmp(udrv_chip_label(t->chip), "gpio-wire");
	if (wire && t->line % 2)
		return bench_usage(t->run.bench, "--line %u: gpio-wire's odd lines are inputs; give an even line (its partner line + 1 sees the edges)",
				 t->line);
	/* the line must be free: fail now rather than after the first rows */
	if (udrv_open(t, udrv_chip_has_cdev(t->chip) ? UDRV_BACKEND_CDEV :
			 UDRV_BACKEND_SYSFS))
		return EXIT_FAIL;
	udrv_close(t);
	toggle_mmio_setup(t);
	t->partner = t->line + 1;
	if (wire && t->edges && t->batch > EDGE_MAX_BATCH)
		return bench_usage(t->run.bench, "--batch %llu: at most %d while edges are watched (or --no-edges)",
				 (unsigned long long)t->batch, EDGE_MAX_BATCH);
	if (!wire && t->edges)
		bench_note_add(t->notes, sizeof(t->notes),
			 "edges not checked: %s is not gpio-wire (no wired partner)",
			 udrv_chip_label(t->chip));
	if (!t->edges || !wire || !udrv_chip_has_cdev(t->chip))
		return EXIT_OK;
	if (!bench_wire_path(t->chip, t->wire_edges, sizeof(t->wire_edges)))
		bench_note_add(t->notes, sizeof(t->notes),
			 "sent: toggles written (this gpio-wire has no edges counter: an older module)");
	return watch_open(t) ? EXIT_FAIL : EXIT_OK;
}

static int run_rows(struct toggle *t, int *index)
{
	struct bench_row *row;

	for (size_t i = 0; i < NUM_ROWS; i++) {
		index[i] = -1;
		if (!row_available(t, rows[i].impl))
			continue;
		row = bench_row(&t->run, rows[i].impl->mechanism,
				rows[i].impl->implementation, NULL, "toggle");
		if (!row)
			return bench_error(EXIT_FAIL, "out of memory");
		index[i] = bench_row_index(&t->run, row);
		if (run_row(t, rows[i].impl, row))
			return EXIT_FAIL;
		if (rows[i].ref >= 0 && index[rows[i].ref] >= 0)
			row->reference = index[rows[i].ref];
	}
	return EXIT_OK;
}

static void versus_libgpiod(struct toggle *t, const int *index)
{
	struct bench_row *u, *g;
	double avg, p50;

	if (index[ROW_CDEV_UDRV] < 0 || index[ROW_LIBGPIOD] < 0)
		return;
	u = &t->run.rows[index[ROW_CDEV_UDRV]];
	g = &t->run.rows[index[ROW_LIBGPIOD]];
	avg = udrv_hist_mean(u->hist) / udrv_hist_mean(g->hist);
	p50 = (double)udrv_hist_percentile(u->hist, 50) /
	      (double)udrv_hist_percentile(g->hist, 50);
	bench_note_add(u->note, sizeof(u->note), "vs %s x%.3f avg, x%.3f p50",
		 BENCH_PEER_IMPL, avg, p50);
	bench_note_add(t->notes, sizeof(t->notes),
		 "cdev/udrv vs %s x%.3f avg, x%.3f p50 (same line, same run)",
		 BENCH_PEER_IMPL, avg, p50);
}

static bool loss_exact(const struct toggle *t)
{
	bool ok = true;

	for (size_t i = 0; i < t->run.num_rows; i++) {
		const struct bench_row *r = &t->run.rows[i];

		if (r->has_loss && r->sent != r->received + r->lost) {
			bench_error(0, "edge check failed on %s/%s: %llu toggles, %llu edges received + %llu lost",
				  r->mechanism, r->implementation,
				  (unsigned long long)r->sent,
				  (unsigned long long)r->received,
				  (unsigned long long)r->lost);
			ok = false;
		}
	}
	return ok;
}

static void print_notes(const struct toggle *t)
{
	const char *p = t->notes, *end;

	printf("samples: ns per toggle, mean of each batch of %llu toggles; 1 ms rest every 10 ms, untimed\n",
	       (unsigned long long)t->batch);
	printf("%s\n", t->mmio_note);
	if (t->has_mmio)
		printf("mmio/udrv: udrv_request_set_value() is a call that checks the index and picks set or clear before its one store;\n"
		       "  where a loop needs only the store, use udrv_mmio_pin_write() (row mmio/udrv-pin, udrv_request_mmio_pin(3))\n");
	for (; *p; p = *end ? end + 2 : end) {
		end = strstr(p, "; ");
		if (!end)
			end = p + strlen(p);
		printf("%.*s\n", (int)(end - p), p);
	}
}

BENCH_COMMAND(toggle,
		"maximum toggle rate of one line: shell, sysfs, cdev, libgpiod 2.3,\n"
		"SoC registers (mmio)");

int cmd_bench_toggle(int argc, char **argv)
{
	struct toggle *t = calloc(1, sizeof(*t));
	int idx[NUM_ROWS], ret;
	bool exact;

	if (!t)
		return bench_error(EXIT_FAIL, "out of memory");
	*t = (struct toggle){ .chip_spec = "gpio-wire", .batch = DEFAULT_BATCH,
			      .edges = true, .fd = -1, .shell_cmd = -1,
			      .shell_ack = -1, .peer = { .pid = -1, .to = -1 } };
	ret = bench_parse(&t->run, "toggle", argc, argv, help, "c:",
			  long_opts, toggle_opt, t);
	if (!ret && optind < argc)
		ret = bench_usage("toggle", "unexpected argument '%s'",
				argv[optind]);
	if (ret) {
		free(t);
		return ret < 0 ? EXIT_OK : ret;
	}
	ret = toggle_setup(t);
	if (!ret) {
		ret = bench_begin(&t->run);
		if (!ret)
			ret = run_rows(t, idx);
		if (!ret)
			versus_libgpiod(t, idx);
		exact = !ret && loss_exact(t);
		ret = bench_end(&t->run, ret);
		if (!ret && !t->run.o.json)
			print_notes(t);
		if (!ret && !exact)
			ret = EXIT_FAIL;
	}
	udrv_request_release(t->watch);
	toggle_mmio_teardown(t);
	udrv_chip_free(t->chip);
	free(t);
	return ret;
}
