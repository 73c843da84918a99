// SPDX-License-Identifier: GPL-2.0-only
/*
 * The in-process receivers of udrv-bench rate: the GPIO character device
 * (one event per read, or up to K per read) and UIO (blocking read, or
 * poll + read), each through libudrv and with bare system calls (the
 * reference). A step: source counts, start, receive until the step's time
 * is over (an interval timer's SIGALRM without SA_RESTART ends a blocking
 * read that has nothing to read), stop the source, read what is left in the kernel until it
 * has been quiet for 20 ms, source counts again. The clock is checked after
 * every read too (see rate_rx_step()).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include <udrv/udrv-irq.h>
#include <udrv/uio-ticker.h>

#include "bench.h"
#include "msg.h"
#include "rate.h"

#define RX_CONSUMER	"udrv-bench-rate"
#define RX_QUIET_MS	20	/* the kernel is drained after this */
#define RX_MARGIN_NS	200000ULL	/* after the source's last edge */
#define RX_REPEAT_NS	10000000ULL	/* the timer again, until the read ends */
/*
 * uio-poll's timeout, the same for udrv (udrv_uio_wait() polls only with
 * one) and raw: a poll() with a timeout arms an hrtimer on every wait that
 * sleeps, one with -1 does not (measured: udrv's wait cost 7% more CPU per
 * event than a raw poll(-1) on std, 28% with --irq-prio 90 on rt).
 */
#define RX_POLL_MS	3600000

/* ---- open / close --------------------------------------------------- */

static int rx_open_udrv_cdev(struct rate_rx *rx)
{
	struct udrv_request_config cfg = { .consumer = RX_CONSUMER,
					   .event_buffer_size = rx->buffer };
	struct udrv_line_settings s = { .direction = UDRV_DIR_INPUT,
					.edge = UDRV_EDGE_BOTH };

	if (udrv_chip_request(rx->chip, &cfg, 1, &rx->line, &s, &rx->req))
		return bench_error(EXIT_FAIL, "%s", udrv_chip_errmsg(rx->chip));
	return 0;
}

static int rx_open_raw_cdev(struct rate_rx *rx)
{
	struct gpio_v2_line_request lr;
	int fd, err;

	memset(&lr, 0, sizeof(lr));
	lr.offsets[0] = rx->line;
	lr.num_lines = 1;
	lr.event_buffer_size = rx->buffer;
	snprintf(lr.consumer, sizeof(lr.consumer), "%s", RX_CONSUMER);
	lr.config.flags = GPIO_V2_LINE_FLAG_INPUT |
			  GPIO_V2_LINE_FLAG_EDGE_RISING |
			  GPIO_V2_LINE_FLAG_EDGE_FALLING;
	fd = open(rx->chip_path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return bench_error(EXIT_FAIL, "%s: %s", rx->chip_path,
				 strerror(errno));
	err = ioctl(fd, GPIO_V2_GET_LINE_IOCTL, &lr) ? errno : 0;
	close(fd);
	if (err)
		return bench_error(EXIT_FAIL, "raw GPIO_V2_GET_LINE_IOCTL on %s line %u: %s",
				 rx->chip_path, rx->line, strerror(err));
	rx->fd = lr.fd;
	return 0;
}

static int rx_open_uio(struct rate_rx *rx, struct rate_src *src)
{
	char dev[64];

	rx->page = src->page;
	if (rx->impl == RATE_RAW) {
		snprintf(dev, sizeof(dev), "/dev/%s", udrv_uio_devname(src->ticker));
		rx->fd = open(dev, O_RDWR | O_CLOEXEC);
		if (rx->fd < 0)
			return bench_error(EXIT_FAIL, "%s: %s", dev, strerror(errno));
		return 0;
	}
	rx->uio = udrv_uio_new();
	if (!rx->uio)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_uio_open(rx->uio, udrv_uio_devname(src->ticker)))
		return bench_error(EXIT_FAIL, "%s", udrv_uio_errmsg(rx->uio));
	return 0;
}

/* irq, irq-reply: line @off bound to @fd as @flags says. */
static int rx_bind(struct rate_rx *rx, int fd, unsigned int off, uint32_t flags)
{
	struct udrv_irq_line b = { .version = UDRV_IRQ_VERSION, .size = sizeof(b),
				   .offset = off, .flags = flags };

	snprintf(b.chip, sizeof(b.chip), "%s", rx->chip_label ? rx->chip_label : "");
	if (!ioctl(fd, UDRV_IRQ_BIND_LINE, &b))
		return 0;
	return bench_error(EXIT_FAIL, "bench rate: %s: line %u of %s: %s%s%s", UDRV_IRQ_DEVICE,
			   off, b.chip, strerror(errno), b.holder[0] ? ", held by " : "",
			   b.holder);
}

/*
 * irq, irq-reply: the helper holds the generator's input (both edges) and
 * the reply's output C (first low; each edge's reply its inverse).
 */
static int rx_open_helper(struct rate_rx *rx)
{
	rx->fd = open(UDRV_IRQ_DEVICE, O_RDWR | O_CLOEXEC);
	if (rx->fd < 0)
		return bench_error(EXIT_FAIL, "bench rate: %s: %s: irq and irq-reply need the toolkit's helper (modprobe udrv-irq)",
				   UDRV_IRQ_DEVICE, strerror(errno));
	if (rx_bind(rx, rx->fd, rx->line, UDRV_IRQ_INPUT | UDRV_IRQ_RISING | UDRV_IRQ_FALLING))
		return EXIT_FAIL;
	return rx_bind(rx, rx->fd, rx->reply_line, UDRV_IRQ_OUTPUT);
}

int rate_rx_open(struct rate_rx *rx, struct rate_src *src)
{
	size_t sz = sizeof(struct gpio_v2_line_event);

	rx->fd = -1;
	if (sz < sizeof(struct udrv_edge_event))
		sz = sizeof(struct udrv_edge_event);
	rx->buf = calloc(rx->batch, sz);
	if (!rx->buf)
		return bench_error(EXIT_FAIL, "out of memory");
	if (rx->mech == RATE_UIO_READ || rx->mech == RATE_UIO_POLL)
		return rx_open_uio(rx, src);
	if (rate_is_helper(rx->mech))
		return rx_open_helper(rx);
	return rx->impl == RATE_RAW ? rx_open_raw_cdev(rx) :
				      rx_open_udrv_cdev(rx);
}

void rate_rx_close(struct rate_rx *rx)
{
	udrv_request_release(rx->req);
	rx->req = NULL;
	udrv_uio_free(rx->uio);
	rx->uio = NULL;
	if (rx->fd >= 0)
		close(rx->fd);
	rx->fd = -1;
	free(rx->buf);
	rx->buf = NULL;
}

/* ---- the step's timer ----------------------------------------------- */

static volatile sig_atomic_t rx_time_up;

static void rx_on_alarm(int sig)
{
	(void)sig;
	rx_time_up = 1;
}

static void rx_timer(uint64_t ns)
{
	struct itimerval it = {
		.it_value = { .tv_sec = (time_t)(ns / 1000000000ULL),
			      .tv_usec = (suseconds_t)(ns % 1000000000ULL / 1000) },
		.it_interval = { .tv_usec = RX_REPEAT_NS / 1000 },
	};
	struct sigaction sa = { .sa_handler = ns ? rx_on_alarm : SIG_DFL };

	if (!ns)
		it.it_interval.tv_usec = 0;
	else if (!it.it_value.tv_sec && !it.it_value.tv_usec)
		it.it_value.tv_usec = 1;
	sigemptyset(&sa.sa_mask);	/* no SA_RESTART: the read returns */
	rx_time_up = 0;
	if (ns)
		sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	if (!ns)
		sigaction(SIGALRM, &sa, NULL);
}

/* ---- one read ------------------------------------------------------- */

struct rx_acc {
	struct rate_step *st;
	struct udrv_hist *lat;
	uint64_t t_last;	/* when the last event was read */
};

/* One event's latency, from its kernel time @ts to the wake-up @now (a
 * @ts after @now, UINT64_MAX included: nothing to time it by). */
static void rx_sample(struct rx_acc *a, uint64_t ts, uint64_t now)
{
	if (ts <= now)
		udrv_hist_record(a->lat, now - ts);
	else
		a->st->left_out++;
}

/* A read that returned @n events, woken at @now. */
static void rx_took(struct rx_acc *a, uint64_t n, uint64_t now)
{
	a->st->received += n;
	a->st->reads++;
	a->t_last = now;
}

/* 1 after events, 0 when the read was interrupted, or an exit code < 0 */
static int rx_read_cdev(struct rate_rx *rx, struct rx_acc *a)
{
	struct udrv_edge_event *ue = rx->buf;
	struct gpio_v2_line_event *ke = rx->buf;
	uint64_t now;
	ssize_t n;

	if (rx->impl == RATE_UDRV) {
		n = udrv_request_read_events(rx->req, ue, rx->batch);
		if (n == -EINTR)
			return 0;
		if (n < 0)
			return -bench_error(EXIT_FAIL, "bench rate: %s",
					  udrv_request_errmsg(rx->req));
	} else {
		n = read(rx->fd, ke, rx->batch * sizeof(*ke));
		if (n < 0 && errno == EINTR)
			return 0;
		if (n <= 0 || n % sizeof(*ke))
			return -bench_error(EXIT_FAIL, "bench rate: read of %s line %u: %s",
					  rx->chip_path, rx->line,
					  n < 0 ? strerror(errno) : "short read");
		n /= (ssize_t)sizeof(*ke);
	}
	now = bench_now_ns();
	for (ssize_t i = 0; i < n; i++) {
		uint64_t ts = rx->impl == RATE_UDRV ? ue[i].timestamp_ns : ke[i].timestamp_ns;
		uint32_t sq = rx->impl == RATE_UDRV ? ue[i].line_seqno : ke[i].line_seqno;

		rx_sample(a, ts, now);
		rx->seqno = sq;
	}
	rx_took(a, (uint64_t)n, now);
	return 1;
}

static int rx_read_uio(struct rate_rx *rx, struct rx_acc *a)
{
	bool poll_first = rx->mech == RATE_UIO_POLL;
	struct udrv_uio_irq irq;
	struct uio_ticker_page p;
	struct pollfd pfd = { .fd = rx->fd, .events = POLLIN };
	uint32_t count;
	uint64_t now;
	int ret;

	if (rx->impl == RATE_UDRV) {
		/* a timeout makes udrv_uio_wait() poll first, then read */
		ret = udrv_uio_wait(rx->uio, poll_first ? RX_POLL_MS : -1, &irq);
		if (ret == -EINTR)
			return 0;
		if (ret != 1)
			return -bench_error(EXIT_FAIL, "bench rate: %s",
					  ret ? udrv_uio_errmsg(rx->uio) : "no event within an hour");
		count = irq.count;
	} else {
		if (poll_first && poll(&pfd, 1, RX_POLL_MS) < 0)
			return errno == EINTR ? 0 :
			       -bench_error(EXIT_FAIL, "bench rate: poll: %s", strerror(errno));
		if (read(rx->fd, &count, sizeof(count)) != (ssize_t)sizeof(count))
			return errno == EINTR ? 0 :
			       -bench_error(EXIT_FAIL, "bench rate: read of the UIO device: %s",
					  strerror(errno));
	}
	now = bench_now_ns();
	uio_ticker_snapshot(rx->page, &p);
	/* the page must describe this very event to time it */
	rx_sample(a, (uint32_t)p.event == count ? p.handler_ns : UINT64_MAX, now);
	rx->count = count;
	rx_took(a, 1, now);
	return 1;
}

/* The reply C = !B through the helper: @wait, then the next edge into @ev. */
static int rx_helper_set(struct rate_rx *rx, bool wait, struct udrv_irq_event *ev)
{
	struct udrv_irq_set s = {
		.size = sizeof(s), .flags = wait ? UDRV_IRQ_SET_WAIT : 0,
		.mask = rx->have_reply, .values = rx->reply,
	};

	int ret = ioctl(rx->fd, UDRV_IRQ_SET, &s) < 0 ? -errno : 0;

	/* written also when the wait ended early (a signal, O_NONBLOCK) */
	if (!ret || ret == -EINTR || ret == -EAGAIN)
		rx->have_reply = false;
	if (!ret && wait)
		*ev = s.ev;
	return ret;
}

/*
 * irq: read() the edge, then write the reply (two system calls an edge);
 * irq-reply: write the last edge's reply and wait for the next in one.
 */
static int rx_read_helper(struct rate_rx *rx, struct rx_acc *a)
{
	struct udrv_irq_event ev;
	uint64_t now;
	int err = 0;

	if (rx->mech == RATE_IRQ_REPLY)
		err = rx_helper_set(rx, true, &ev);
	else if (read(rx->fd, &ev, sizeof(ev)) != (ssize_t)sizeof(ev))
		err = -errno;
	if (err == -EINTR || err == -EAGAIN)
		return 0;
	if (err)
		return -bench_error(EXIT_FAIL, "bench rate: %s line %u: %s", UDRV_IRQ_DEVICE,
				  rx->line, strerror(-err));
	now = bench_now_ns();
	rx->reply = ev.level == 0;	/* C = !B */
	rx->have_reply = ev.level >= 0;
	if (rx->mech == RATE_IRQ && rx->have_reply &&
	    (err = rx_helper_set(rx, false, NULL)) < 0 && err != -EINTR)
		return -bench_error(EXIT_FAIL, "bench rate: %s line %u: the reply: %s",
				  UDRV_IRQ_DEVICE, rx->reply_line, strerror(-err));
	rx_sample(a, ev.timestamp_ns, now);
	rx->seqno = ev.seqno;
	rx_took(a, 1, now);
	return 1;
}

static int rx_read(struct rate_rx *rx, struct rx_acc *a)
{
	if (rate_is_helper(rx->mech))
		return rx_read_helper(rx, a);
	return rx->mech == RATE_UIO_READ || rx->mech == RATE_UIO_POLL ?
	       rx_read_uio(rx, a) : rx_read_cdev(rx, a);
}

static int rx_fd(const struct rate_rx *rx)
{
	if (rx->req)
		return udrv_request_fd(rx->req);
	if (rx->uio)
		return udrv_uio_fd(rx->uio);
	return rx->fd;
}

/*
 * irq, irq-reply: the helper keeps only the newest edge and has no poll():
 * after a quiet RX_QUIET_MS, read what is there without blocking (EAGAIN:
 * nothing), irq-reply writing its last reply on the way.
 */
static int rx_drain_helper(struct rate_rx *rx, struct rx_acc *a)
{
	struct timespec quiet = { .tv_nsec = RX_QUIET_MS * 1000000L };
	int flags = fcntl(rx->fd, F_GETFL), ret;

	nanosleep(&quiet, NULL);
	if (flags < 0 || fcntl(rx->fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return bench_error(EXIT_FAIL, "bench rate: %s: %s", UDRV_IRQ_DEVICE,
				   strerror(errno));
	do
		ret = rx_read_helper(rx, a);
	while (ret > 0);
	fcntl(rx->fd, F_SETFL, flags);
	return ret < 0 ? -ret : 0;
}

/* Read what is queued until the kernel has been quiet for RX_QUIET_MS. */
static int rx_drain(struct rate_rx *rx, struct rx_acc *a)
{
	struct pollfd pfd = { .fd = rx_fd(rx), .events = POLLIN };
	int ret;

	if (rate_is_helper(rx->mech))
		return rx_drain_helper(rx, a);
	for (;;) {
		ret = poll(&pfd, 1, RX_QUIET_MS);
		if (ret < 0 && errno == EINTR && !bench_interrupted())
			continue;
		if (ret <= 0)
			return 0;
		ret = rx_read(rx, a);
		if (ret < 0)
			return -ret;
		if (!ret && bench_interrupted())
			return 0;
	}
}

/* CPU (ns) and context switches so far */
struct rx_usage {
	uint64_t cpu_ns, nivcsw, nvcsw;
};

static struct rx_usage rx_usage(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (struct rx_usage){
		.cpu_ns = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
			  (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL,
		.nivcsw = (uint64_t)ru.ru_nivcsw,
		.nvcsw = (uint64_t)ru.ru_nvcsw,
	};
}

/*
 * The kernel's count before the step (nothing is pending after a drain):
 * cdev, the line_seqno of the last event read (a request numbers its
 * events from 1); UIO, the event count in uio-ticker's page.
 */
static uint64_t rx_base(struct rate_rx *rx, struct rate_src *src)
{
	struct uio_ticker_page p;

	if (rx->mech == RATE_UIO_READ || rx->mech == RATE_UIO_POLL) {
		uio_ticker_snapshot(src->page, &p);
		rx->count = (uint32_t)p.event;
		return rx->count;
	}
	return rx->seqno;
}

/* What the kernel counted past what was read: seqno / event count gaps. */
static uint64_t rx_kernel_dropped(const struct rate_rx *rx,
				  const struct rate_step *st, uint64_t base)
{
	uint64_t seen;

	if (rx->mech == RATE_UIO_READ || rx->mech == RATE_UIO_POLL)
		seen = (uint32_t)(rx->count - (uint32_t)base);
	else
		seen = rx->seqno - base;
	return seen > st->received ? seen - st->received : 0;
}

int rate_rx_step(struct rate_rx *rx, struct rate_src *src, uint64_t period_ns,
		 uint64_t duration_ns, struct udrv_hist *lat,
		 struct rate_step *st)
{
	struct rx_acc a = { .st = st, .lat = lat };
	struct rate_count c0, c1;
	struct rx_usage u0, u1;
	uint64_t t0, base, limit = (duration_ns + period_ns - 1) / period_ns;
	/* until a little after the source's last edge */
	uint64_t run_ns = limit * period_ns + 2 * period_ns + RX_MARGIN_NS;
	int ret;

	ret = rx_drain(rx, &a);	/* anything left from before: not this step's */
	memset(st, 0, sizeof(*st));
	a.t_last = 0;
	udrv_hist_reset(lat);
	if (ret || rate_src_count(src, &c0))
		return EXIT_FAIL;
	base = rx_base(rx, src);
	u0 = rx_usage();
	t0 = bench_now_ns();
	if (rate_src_start(src, period_ns, limit))
		return EXIT_FAIL;
	/*
	 * The source ends the step by itself (its limit); the receiver reads
	 * on until a little after its last edge, and only then writes the
	 * stop: a write at the last edges keeps the CPU from the irq thread
	 * while two come, and one merges, a loss of the bench's own making.
	 * The clock ends the loop; the interval timer only wakes a read that
	 * waits for an event that does not come. On PREEMPT_RT its signal
	 * comes from the ktimers thread (SCHED_FIFO 1), which never runs
	 * while the receiver, the irq thread and the source keep the CPU busy.
	 */
	rx_timer(run_ns);
	while (!rx_time_up && !bench_interrupted() &&
	       bench_now_ns() - t0 < run_ns) {
		ret = rx_read(rx, &a);
		if (ret < 0)
			break;
	}
	rx_timer(0);
	if (rate_src_stop(src))
		return EXIT_FAIL;
	st->duration_ns = bench_now_ns() - t0;
	if (st->duration_ns > limit * period_ns)
		st->duration_ns = limit * period_ns;
	if (ret < 0)
		return -ret;
	ret = rx_drain(rx, &a);
	u1 = rx_usage();
	st->cpu_ns = u1.cpu_ns - u0.cpu_ns;
	st->has_switches = true;
	st->preempted = u1.nivcsw - u0.nivcsw;
	st->slept = u1.nvcsw - u0.nvcsw;
	st->elapsed_ns = a.t_last > t0 + st->duration_ns ? a.t_last - t0 :
							  st->duration_ns;
	if (ret || rate_src_count(src, &c1))
		return EXIT_FAIL;
	rate_count_sub(&st->c, &c0, &c1);
	st->dropped = rx_kernel_dropped(rx, st, base);
	return 0;
}
