// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench irq: GPIO edge to userspace wake-up latency on a wired pair.
 *
 * The output line N drives the input line N+1 (gpio-wire, or a jumper on a
 * board). Per edge three clocks, all CLOCK_MONOTONIC:
 *
 *   t_write  just before the write to the output (SET_VALUES ioctl)
 *   t_irq    the edge event's kernel timestamp, taken by gpiolib-cdev in
 *            its hard interrupt handler
 *   t_wake   just after the wait for the event returns in userspace
 *
 * and three samples: write_to_irq, irq_to_wake, write_to_wake. One edge is
 * in flight at a time (its event is read before the next write), rising and
 * falling alternate. Wait methods: blocking read, poll, epoll (all through
 * libudrv), the same blocking read with bare system calls (the reference
 * for udrv's overhead), and busy-polling the input's level (no event).
 *
 * On one CPU: the bench (SCHED_FIFO 80) writes; gpio-wire raises the edge
 * from a hard irq_work, so cdev's hardirq handler timestamps it inside the
 * write; cdev's irq thread (FIFO 50) cannot preempt the bench, so it queues
 * the event only once the bench has returned and blocked in its wait, and
 * its wake-up preempts the thread. So write_to_irq is the write path,
 * irq_to_wake the rest of the write, the wait, the irq thread and the
 * wake-up.
 *
 * The libgpiod-2.3 rows (the same loop in udrv-bench-peer) are irq_peer.c;
 * what both files share is irq.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/gpio.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "irq.h"
#include "msg.h"
#include "peer.h"
#include "benches.h"
#include "spike.h"

#define IRQ_CONSUMER	"udrv-bench-irq"

enum {
	OPT_OUT_LINE = 0x80,	/* long-only; below the framework's 0x100 */
};

static const char *const irq_wait_names[IRQ_NWAIT] = {
	[IRQ_READ] = "read", [IRQ_POLL] = "poll", [IRQ_EPOLL] = "epoll",
	[IRQ_BUSY] = "busy", [IRQ_RAW] = "read", [IRQ_PEER] = "read",
};


static const char irq_help[] =
"Usage: udrv-bench irq [OPTIONS]\n"
"\n"
"GPIO interrupt to userspace latency on a wired pair: line N drives line\n"
"N+1 (gpio-wire, or a jumper wire on a board). Per edge: t_write before the\n"
"write to the output, t_irq the kernel's hardirq timestamp of the edge\n"
"event, t_wake when the wait returns; rows write_to_irq, irq_to_wake and\n"
"write_to_wake for each wait method: read (blocking), poll, epoll, and the\n"
"same blocking read with bare system calls (implementation raw, the\n"
"reference for udrv's overhead) and with libgpiod 2.3 (implementation\n"
"libgpiod-2.3: the same loop in udrv-bench-peer, a child at the bench's\n"
"priority, CPU and memory locking, its request's irq thread set as udrv's\n"
"(--irq-prio); udrv-bench links no libgpiod); plus\n"
"busy (busy-polling the input's level, write_to_wake only, no event).\n"
"One edge in flight at a time, rising and falling alternating, so every\n"
"edge's event must arrive: sent (gpio-wire's\n"
"own count of the edges it drove, else the writes) = received + lost\n"
"and lost = 0. A gap in the kernel's sequence numbers, or an edge with no\n"
"event within 5 s, ends the bench with an error: the events would no\n"
"longer pair with their edges.\n"
"\n"
"Options:\n"
"  -c, --chip CHIP     the chip (default gpio-wire)\n"
"      --out-line N    output line N, input N+1 (default 2)\n"
BENCH_OPTS_HELP
"\n"
"Default: 5000 edges per wait method.\n";

/* ---- the watchdog: an edge whose event never comes ------------------ */

static pid_t irq_load_pid;

static void irq_watchdog(int sig)
{
	static const char msg[] =
		"udrv-bench: irq: no event for an edge within 5 s: the edge was lost (is the output wired to the input? see 'udrv gpio info')\n";
	ssize_t r = write(STDERR_FILENO, msg, sizeof(msg) - 1);

	(void)sig;
	(void)r;
	bench_spike_restore_signal_safe();
	if (irq_load_pid > 0)
		kill(-irq_load_pid, SIGKILL);
	_exit(EXIT_FAIL);
}

static void irq_watchdog_arm(bool on)
{
	struct sigaction sa = { .sa_handler = on ? irq_watchdog : SIG_DFL };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	if (!on)
		alarm(0);
}

/* ---- options -------------------------------------------------------- */

static int irq_opt(struct bench_run *run, int opt, const char *arg, void *ctx)
{
	struct irq_bench *b = ctx;
	int64_t v;

	switch (opt) {
	case 'c':
		b->chip_spec = arg;
		return 0;
	case OPT_OUT_LINE:
		if (udrv_parse_s64(arg, 0, 65534, &v))
			return bench_usage(run->bench, "bad --out-line '%s'", arg);
		b->out = (unsigned int)v;
		return 0;
	default:
		return bench_usage(run->bench, "bad option");
	}
}

/* ---- the lines: through udrv, or bare ioctls ------------------------ */

static int irq_request_udrv(struct irq_bench *b, enum udrv_edge edge)
{
	struct udrv_request_config cfg = { .consumer = IRQ_CONSUMER };
	struct udrv_line_settings s[2] = {
		{ .direction = UDRV_DIR_OUTPUT, .value = b->level },
		{ .direction = UDRV_DIR_INPUT, .edge = edge },
	};
	unsigned int offsets[2] = { b->out, b->out + 1 };

	if (udrv_chip_request(b->chip, &cfg, 2, offsets, s, &b->req))
		return bench_error(EXIT_FAIL, "%s", udrv_chip_errmsg(b->chip));
	return 0;
}

/* Stop edge detection on the input (busy-polling needs no interrupt). */
static int irq_no_edges(struct irq_bench *b)
{
	struct udrv_line_settings s[2] = {
		{ .direction = UDRV_DIR_OUTPUT, .value = b->level },
		{ .direction = UDRV_DIR_INPUT },
	};

	if (udrv_request_reconfigure(b->req, s))
		return bench_error(EXIT_FAIL, "%s", udrv_request_errmsg(b->req));
	return 0;
}

static void irq_release_udrv(struct irq_bench *b)
{
	if (b->epfd >= 0)
		close(b->epfd);
	b->epfd = -1;
	udrv_request_release(b->req);
	b->req = NULL;
}

static int irq_epoll_setup(struct irq_bench *b)
{
	struct epoll_event ev = { .events = EPOLLIN };

	b->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (b->epfd < 0 ||
	    epoll_ctl(b->epfd, EPOLL_CTL_ADD, udrv_request_fd(b->req), &ev))
		return bench_error(EXIT_FAIL, "epoll: %s", strerror(errno));
	return 0;
}

/* The reference: the same request with bare system calls, no library. */
static int irq_request_raw(struct irq_bench *b)
{
	struct gpio_v2_line_request lr;
	struct gpio_v2_line_config *c = &lr.config;
	int fd, err;

	memset(&lr, 0, sizeof(lr));
	lr.offsets[0] = b->out;
	lr.offsets[1] = b->out + 1;
	lr.num_lines = 2;
	snprintf(lr.consumer, sizeof(lr.consumer), "%s", IRQ_CONSUMER);
	c->flags = GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_EDGE_RISING |
		   GPIO_V2_LINE_FLAG_EDGE_FALLING;
	c->attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_FLAGS;
	c->attrs[0].attr.flags = GPIO_V2_LINE_FLAG_OUTPUT;
	c->attrs[0].mask = 1;
	c->attrs[1].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
	c->attrs[1].attr.values = (uint64_t)b->level;
	c->attrs[1].mask = 1;
	c->num_attrs = 2;
	fd = open(udrv_chip_path(b->chip), O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return bench_error(EXIT_FAIL, "%s: %s", udrv_chip_path(b->chip),
				 strerror(errno));
	err = ioctl(fd, GPIO_V2_GET_LINE_IOCTL, &lr) ? errno : 0;
	close(fd);
	if (err)
		return bench_error(EXIT_FAIL, "raw GPIO_V2_GET_LINE_IOCTL on %s lines %u,%u: %s",
				 udrv_chip_path(b->chip), b->out, b->out + 1,
				 strerror(err));
	b->raw_fd = lr.fd;
	b->raw_seqno = 0;
	return 0;
}

static void irq_release_raw(struct irq_bench *b)
{
	if (b->raw_fd >= 0)
		close(b->raw_fd);
	b->raw_fd = -1;
}

/* Open the chip and check that both lines can be had, before RT setup. */
static int irq_open(struct irq_bench *b)
{
	unsigned int n;

	b->chip = udrv_chip_new();
	if (!b->chip)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_chip_open(b->chip, b->chip_spec))
		return bench_error(EXIT_FAIL, "%s", udrv_chip_errmsg(b->chip));
	n = udrv_chip_num_lines(b->chip);
	if (b->out + 1 >= n)
		return bench_usage(b->run.bench,
				 "--out-line %u: %s has %u lines, the input would be line %u",
				 b->out, udrv_chip_name(b->chip), n, b->out + 1);
	if (!udrv_chip_has_cdev(b->chip))
		return bench_error(EXIT_FAIL, "%s has no GPIO character device: no edge events with timestamps",
				 udrv_chip_name(b->chip));
	if (irq_request_udrv(b, UDRV_EDGE_BOTH))
		return EXIT_FAIL;
	irq_release_udrv(b);
	/* sent from gpio-wire's own count where it has one, else the writes */
	bench_wire_path(b->chip, b->wire, sizeof(b->wire));
	return 0;
}

/* ---- one edge ------------------------------------------------------- */


static int irq_err(const struct irq_bench *b, const char *what)
{
	int err = errno;

	if (err == ENODEV)	/* as udrv says it, also for the raw reference */
		return bench_error(EXIT_FAIL, "bench irq: %s (%s): the device is gone (driver unloaded or unbound): %s: %s",
				 udrv_chip_path(b->chip), udrv_chip_label(b->chip),
				 what, strerror(err));
	return bench_error(EXIT_FAIL, "bench irq: %s: %s", what, strerror(err));
}

/*
 * Read one event; with @t_wake, the read is the wait and t_wake is taken
 * as soon as it returns (the bench's own bookkeeping comes after).
 */
static int irq_read_udrv(struct irq_bench *b, struct irq_event *ev,
			 uint64_t *t_wake)
{
	struct udrv_edge_event e;
	int n = udrv_request_read_events(b->req, &e, 1);

	if (t_wake)
		*t_wake = bench_now_ns();
	if (n == -EINTR && bench_interrupted())
		return EXIT_FAIL;	/* SIGINT/SIGTERM: bench_end says so */
	if (n != 1)
		return bench_error(EXIT_FAIL, "bench irq: %s",
				 n < 0 ? udrv_request_errmsg(b->req) : "no event read");
	ev->ts = e.timestamp_ns;
	ev->rising = e.edge == UDRV_EDGE_RISING;
	ev->lost = e.lost;
	return 0;
}

static int irq_read_raw(struct irq_bench *b, struct irq_event *ev,
			uint64_t *t_wake)
{
	struct gpio_v2_line_event ke;
	ssize_t n;

	do {
		n = read(b->raw_fd, &ke, sizeof(ke));
	} while (n < 0 && errno == EINTR);
	if (t_wake)
		*t_wake = bench_now_ns();
	if (n != (ssize_t)sizeof(ke))
		return n < 0 ? irq_err(b, "read of the line fd") :
			       bench_error(EXIT_FAIL, "bench irq: short event read");
	ev->ts = ke.timestamp_ns;
	ev->rising = ke.id == GPIO_V2_LINE_EVENT_RISING_EDGE;
	ev->lost = ke.seqno - b->raw_seqno - 1;
	if ((int32_t)ev->lost < 0)
		ev->lost = 0;
	b->raw_seqno = ke.seqno;
	return 0;
}

/* Wait for the edge's event the method's way; t_wake when the wait ends. */
static int irq_wait_event(struct irq_bench *b, enum irq_wait w,
			  uint64_t *t_wake, struct irq_event *ev)
{
	struct epoll_event ee;
	struct pollfd pfd;
	int ret;

	switch (w) {
	case IRQ_RAW:
		return irq_read_raw(b, ev, t_wake);
	case IRQ_READ:
		return irq_read_udrv(b, ev, t_wake);
	case IRQ_POLL:
		pfd = (struct pollfd){ .fd = udrv_request_fd(b->req),
				       .events = POLLIN };
		while ((ret = poll(&pfd, 1, -1)) < 0 && errno == EINTR)
			;
		*t_wake = bench_now_ns();
		return ret < 0 ? irq_err(b, "poll") : irq_read_udrv(b, ev, NULL);
	default:
		while ((ret = epoll_wait(b->epfd, &ee, 1, -1)) < 0 &&
		       errno == EINTR)
			;
		*t_wake = bench_now_ns();
		return ret < 0 ? irq_err(b, "epoll_wait") :
				 irq_read_udrv(b, ev, NULL);
	}
}

static int irq_write(struct irq_bench *b, bool raw, int level)
{
	struct gpio_v2_line_values v = { .bits = (uint64_t)level, .mask = 1 };

	if (raw) {
		if (ioctl(b->raw_fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &v))
			return irq_err(b, "GPIO_V2_LINE_SET_VALUES_IOCTL");
		return 0;
	}
	if (udrv_request_set_value(b->req, 0, level))
		return bench_error(EXIT_FAIL, "bench irq: %s",
				 udrv_request_errmsg(b->req));
	return 0;
}

void irq_record(struct irq_method *m, uint64_t t_write,
		       const struct irq_event *ev, uint64_t t_wake, int level)
{
	if (t_write > ev->ts || ev->ts > t_wake || ev->rising != level) {
		m->left_out++;
		return;
	}
	udrv_hist_record(m->w2i->hist, ev->ts - t_write);
	udrv_hist_record(m->i2w->hist, t_wake - ev->ts);
	udrv_hist_record(m->w2w->hist, t_wake - t_write);
}

/* One edge and its event; @record: count it (not a warm-up edge). */
static int irq_edge(struct irq_bench *b, struct irq_method *m, bool record)
{
	int level = !b->level, ret;
	uint64_t t_write, t_wake;
	struct irq_event ev;

	alarm(IRQ_WATCHDOG_S);
	t_write = bench_now_ns();
	ret = irq_write(b, m->wait == IRQ_RAW, level);
	if (ret)
		return ret;
	b->level = level;
	ret = irq_wait_event(b, m->wait, &t_wake, &ev);
	if (ret)
		return ret;
	if (ev.lost)	/* lockstep: nothing can queue up, so nothing can drop */
		return bench_error(EXIT_FAIL, "bench irq: the kernel reports %u lost event(s) with one edge in flight: events no longer pair with edges (another writer on the line?)",
				 (unsigned int)ev.lost);
	if (!record)
		return 0;
	m->sent++;	/* replaced by the wire's count where it has one */
	m->received++;
	irq_record(m, t_write, &ev, t_wake, level);
	bench_spike_check(m->w2w, t_write, t_wake);
	return 0;
}

/* Busy: write, then read the input's level until it follows. No event. */
static int irq_busy(struct irq_bench *b, struct irq_method *m, bool record)
{
	int level = !b->level, v;
	uint64_t t_write, t_wake, polls = 0;

	alarm(IRQ_WATCHDOG_S);
	t_write = bench_now_ns();
	if (udrv_request_set_value(b->req, 0, level))
		return bench_error(EXIT_FAIL, "bench irq: %s",
				 udrv_request_errmsg(b->req));
	do {
		v = udrv_request_get_value(b->req, 1);
		polls++;
	} while (v == !level);
	t_wake = bench_now_ns();
	if (v < 0)
		return bench_error(EXIT_FAIL, "bench irq: %s",
				 udrv_request_errmsg(b->req));
	b->level = level;
	if (record) {
		m->polls += polls;
		udrv_hist_record(m->w2w->hist, t_wake - t_write);
		bench_spike_check(m->w2w, t_write, t_wake);
	}
	return 0;
}

/* Anything pending before a method starts would pair with the wrong edge. */
static void irq_drain(struct irq_bench *b, bool raw)
{
	struct pollfd pfd = { .fd = raw ? b->raw_fd : udrv_request_fd(b->req),
			      .events = POLLIN };
	struct irq_event ev;

	while (poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN))
		if (raw ? irq_read_raw(b, &ev, NULL) :
			  irq_read_udrv(b, &ev, NULL))
			break;
}

/*
 * The input's irq thread of @consumer's request (gpiolib-cdev's edge thread,
 * which queues the event and wakes the reader): recorded, and raised with
 * --irq-prio, as a thread of @impl's rows (NULL: udrv's). After the
 * warm-up: an irq thread sets itself SCHED_FIFO 50 when it first runs.
 */
int irq_wake_for(struct irq_bench *b, const char *consumer, const char *impl)
{
	char prefix[24];
	unsigned int irq;
	int ret = udrv_rt_find_irq(consumer, b->out + 1, &irq);

	if (ret && b->run.o.irq_prio)
		return bench_error(EXIT_FAIL, "--irq-prio: no interrupt of %s's request of %s line %u in /sys/kernel/irq: %s",
				 consumer, udrv_chip_name(b->chip), b->out + 1,
				 strerror(-ret));
	if (ret)
		return 0;	/* the document lists no wake thread */
	snprintf(prefix, sizeof(prefix), "irq/%u-", irq);
	return bench_wake_threads_for(&b->run, prefix, impl);
}

static int irq_method_run(struct irq_bench *b, struct irq_method *m)
{
	bool busy = m->wait == IRQ_BUSY;
	struct bench_row *row = busy ? m->w2w : m->i2w;
	uint64_t n = bench_samples(&b->run, IRQ_SAMPLES);
	bool by_udrv = !busy && m->wait != IRQ_RAW;
	struct bench_wire w0 = { 0 }, w1 = { 0 };
	uint64_t lost0 = 0;
	int ret = 0;

	if (!busy)
		irq_drain(b, m->wait == IRQ_RAW);
	/* warm-up: the irq thread becomes SCHED_FIFO when it first runs */
	for (int i = 0; i < IRQ_WARMUP && !ret; i++)
		ret = busy ? irq_busy(b, m, false) : irq_edge(b, m, false);
	if (!ret && !busy)
		ret = irq_wake_for(b, IRQ_CONSUMER, NULL);
	if (by_udrv)
		lost0 = udrv_request_lost_events(b->req);
	if (!ret && !busy && b->wire[0])
		ret = bench_wire_counts(b->wire, b->out + 1, &w0) ? EXIT_FAIL : 0;
	for (uint64_t t0 = bench_now_ns(), i = 0; !ret && bench_more(&b->run, t0, i, n); i++) {
		ret = busy ? irq_busy(b, m, true) : irq_edge(b, m, true);
		bench_progress(&b->run, row, i, n);
	}
	alarm(0);
	if (!ret && !busy && b->wire[0]) {
		ret = bench_wire_counts(b->wire, b->out + 1, &w1) ? EXIT_FAIL : 0;
		m->sent = w1.driven - w0.driven;
		m->lost = w1.dropped - w0.dropped;
		if (!ret && m->sent != m->received + m->lost)
			return bench_error(EXIT_FAIL, "bench irq: gpio-wire put %llu edges on line %u, but %llu events were read and %llu edges dropped",
					 (unsigned long long)m->sent, b->out + 1,
					 (unsigned long long)m->received,
					 (unsigned long long)m->lost);
	}
	/* udrv's running count of the kernel's gaps must agree: none */
	if (!ret && by_udrv && udrv_request_lost_events(b->req) != lost0)
		return bench_error(EXIT_FAIL, "bench irq: udrv counted %llu lost events, the events say 0",
				 (unsigned long long)(udrv_request_lost_events(b->req) - lost0));
	return ret;
}

/* ---- rows and notes ------------------------------------------------- */

static const char *irq_wait_what(enum irq_wait w)
{
	switch (w) {
	case IRQ_POLL:
		return "poll()";
	case IRQ_EPOLL:
		return "epoll_wait()";
	case IRQ_RAW:
		return "read() of the fd";
	case IRQ_PEER:
		return "gpiod_line_request_read_edge_events()";
	default:
		return "udrv's read";
	}
}

/*
 * Who runs when, for the irq_to_wake note: on one CPU a bench above the irq
 * thread's FIFO 50 finishes the write and blocks before the thread can
 * queue the event; otherwise the thread may queue it first (other CPU, or
 * preempting the bench).
 */
static void irq_wake_note(const struct irq_bench *b, const struct irq_method *m)
{
	const char *what = irq_wait_what(m->wait);
	struct bench_row *r = m->i2w;
	int prio = b->run.o.prio;

	if (sysconf(_SC_NPROCESSORS_ONLN) == 1 && prio > 50)
		snprintf(r->note, sizeof(r->note),
			 "1 CPU, bench FIFO %d > cdev irq thread FIFO 50: write returns, bench blocks in %s, thread queues the event, wakes it; left out %llu",
			 prio, what, (unsigned long long)m->left_out);
	else
		snprintf(r->note, sizeof(r->note),
			 "cdev irq thread (FIFO 50) queues the event, maybe before the bench waits in %s (other CPU, or bench prio %d); left out %llu",
			 what, prio, (unsigned long long)m->left_out);
}

static void irq_notes(const struct irq_bench *b, struct irq_method *m)
{
	unsigned long long out = (unsigned long long)m->left_out;
	uint64_t n = udrv_hist_count(m->w2w->hist);

	if (m->wait == IRQ_BUSY) {
		snprintf(m->w2w->note, sizeof(m->w2w->note),
			 "no event: busy-polls the input's level (GET_VALUES ioctl) until it follows: %.2f reads/sample",
			 n ? (double)m->polls / (double)n : 0.0);
		return;
	}
	snprintf(m->w2i->note, sizeof(m->w2i->note),
		 "SET_VALUES ioctl -> gpio-wire hard irq_work -> cdev hardirq handler's timestamp, inside the write; left out %llu",
		 out);
	irq_wake_note(b, m);
	snprintf(m->w2w->note, sizeof(m->w2w->note),
		 "round trip: one edge in flight, rising/falling alternating%s; left out %llu",
		 m->wait == IRQ_POLL || m->wait == IRQ_EPOLL ?
		 ", event read after t_wake" : "", out);
}

static void irq_finish(struct irq_bench *b)
{
	struct irq_method *raw = &b->m[IRQ_RAW], *rd = &b->m[IRQ_READ];

	for (int w = 0; w < IRQ_NWAIT; w++) {
		struct irq_method *m = &b->m[w];
		struct bench_row *rows[3] = { m->w2i, m->i2w, m->w2w };

		if (!m->w2w)
			continue;	/* no peer: no libgpiod-2.3 rows */
		irq_notes(b, m);
		if (w == IRQ_BUSY)
			continue;
		for (int k = 0; k < 3; k++) {
			rows[k]->has_loss = true;
			rows[k]->sent = m->sent;
			rows[k]->received = m->received;
			rows[k]->lost = m->lost;
		}
	}
	rd->w2i->reference = bench_row_index(&b->run, raw->w2i);
	rd->i2w->reference = bench_row_index(&b->run, raw->i2w);
	rd->w2w->reference = bench_row_index(&b->run, raw->w2w);
}

static int irq_rows(struct irq_bench *b)
{
	/* display order: udrv read, poll, epoll, busy, then the reference */
	static const enum irq_wait order[] = { IRQ_READ, IRQ_POLL, IRQ_EPOLL,
					       IRQ_BUSY, IRQ_RAW, IRQ_PEER };
	struct bench_run *run = &b->run;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum irq_wait w = order[i];
		struct irq_method *m = &b->m[w];
		const char *impl = w == IRQ_RAW ? "raw" :
				   w == IRQ_PEER ? BENCH_PEER_IMPL : "udrv";

		m->wait = w;
		if (w == IRQ_PEER && !b->has_peer)
			continue;
		if (w != IRQ_BUSY) {
			m->w2i = bench_row(run, "cdev", impl, irq_wait_names[w], "write_to_irq");
			m->i2w = bench_row(run, "cdev", impl, irq_wait_names[w], "irq_to_wake");
			if (!m->w2i || !m->i2w)
				return bench_error(EXIT_FAIL, "out of memory");
		}
		m->w2w = bench_row(run, "cdev", impl, irq_wait_names[w], "write_to_wake");
		if (!m->w2w)
			return bench_error(EXIT_FAIL, "out of memory");
	}
	return 0;
}

/* The reference first, then udrv's methods right after it. */
static int irq_measure(struct irq_bench *b)
{
	int ret;

	irq_load_pid = b->run.load_pid;
	irq_watchdog_arm(true);
	ret = irq_request_raw(b);
	if (!ret)
		ret = irq_method_run(b, &b->m[IRQ_RAW]);
	irq_release_raw(b);
	if (!ret && b->has_peer)
		ret = irq_peer_run(b, &b->m[IRQ_PEER]);
	if (!ret)
		ret = irq_request_udrv(b, UDRV_EDGE_BOTH);
	for (int w = IRQ_READ; !ret && w <= IRQ_POLL; w++)
		ret = irq_method_run(b, &b->m[w]);
	/* only now: an epoll watch adds work to every wake-up of the fd */
	if (!ret)
		ret = irq_epoll_setup(b);
	if (!ret)
		ret = irq_method_run(b, &b->m[IRQ_EPOLL]);
	if (!ret)
		ret = irq_no_edges(b);
	if (!ret)
		ret = irq_method_run(b, &b->m[IRQ_BUSY]);
	irq_watchdog_arm(false);
	irq_release_udrv(b);
	if (!ret)
		irq_finish(b);
	return ret;
}

BENCH_COMMAND(irq,
		"GPIO edge to userspace wake-up: read, poll, epoll, busy, raw,\n"
		"libgpiod 2.3");

int cmd_bench_irq(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "out-line", required_argument, NULL, OPT_OUT_LINE },
		{ NULL, 0, NULL, 0 },
	};
	struct irq_bench b = { .chip_spec = "gpio-wire", .out = 2,
			       .raw_fd = -1, .epfd = -1 };
	int ret;

	b.run.traceable = true;
	ret = bench_parse(&b.run, "irq", argc, argv, irq_help, "c:",
			  longopts, irq_opt, &b);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (optind < argc)
		return bench_usage("irq", "unexpected argument '%s'",
				 argv[optind]);
	ret = irq_open(&b);
	if (!ret)
		irq_peer_find(&b);
	if (!ret)
		ret = irq_rows(&b);
	if (ret) {
		udrv_chip_free(b.chip);
		return bench_end(&b.run, ret);
	}
	ret = bench_begin(&b.run);
	if (!ret)
		ret = irq_measure(&b);
	if (!ret)
		irq_versus_peer(&b);
	udrv_chip_free(b.chip);
	ret = bench_end(&b.run, ret);
	if (!ret && !b.run.o.json && b.peer_note[0])
		printf("%s\n", b.peer_note);
	return ret;
}
