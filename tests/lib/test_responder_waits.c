// SPDX-License-Identifier: GPL-2.0-only
/*
 * The responder's waits other than the blocking read of edge events
 * (test_responder.c): the busy loop (UDRV_RESPOND_BUSY: levels read in
 * spins, signals between them) and the kernel helper's (UDRV_RESPOND_IRQ_LINE,
 * lib/responder/responder_irq.c: /dev/udrv-irq under the fake sysroot; what the
 * helper itself does is tested on real kernels, tests/lab).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/udrv.h>
#include <udrv/udrv-irq.h>

#include "fake_gpio.h"
#include "fake_sched.h"
#include "harness.h"
#include "responder_fixture.h"

/* ---- the busy loop ---- */

static void test_busy_edges(void)
{
	/* a spin of 60 s: the third edge ends it, however slow the machine
	 * (an emulated ARM under load took more than the default spin to read
	 * the nine levels, and ticked) */
	struct udrv_responder_config c = { .wait = UDRV_RESPOND_BUSY,
					   .busy_pause_us = 50,
					   .busy_spin_us = 60000000 };
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
	poke_after_ticks(&t, &p, &f, &s.ticks, 10);	/* not a time: a count */
	CHECK_INT(udrv_responder_run(r, respond, &s), -EINTR);
	pthread_join(t, NULL);
	CHECK(s.ticks >= 10);	/* 200 us spins, each then a tick, then the signal */
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

/*
 * udrv-irq played on the fake /dev/udrv-irq (a regular file: -Wl,--wrap of
 * ioctl and read, tests/lib/meson.build): the module of this interface, the
 * 1.5 one (which knows only UDRV_IRQ_BIND_V1), a newer one, a line someone
 * holds, a chip that goes away.
 */
enum helper { HELPER_NOW, HELPER_1_5, HELPER_NEWER, HELPER_HELD, HELPER_GONE,
	      HELPER_NO_OUTPUTS };

static enum helper helper;
static bool helper_on;			/* else /dev/udrv-irq is a plain file */
static struct udrv_irq_line bound;	/* what the last bind asked */
static int binds, v1_probes;
static struct udrv_irq_event events[4];
static size_t nevents, event_at;
/* the outputs bound (offset, flags), the UDRV_IRQ_SET calls */
static struct udrv_irq_line outputs[UDRV_IRQ_OUTPUTS_MAX];
static size_t noutputs;
static struct udrv_irq_set sets[8];
static size_t nsets;

#define HELD_BY	"udrvd"

static bool is_helper(int fd)
{
	char link[64], path[512];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	return helper_on && strstr(path, "/dev/udrv-irq") != NULL;
}

/* The next event, as the helper's read() gives it: 0 or -1 with errno. */
static int next_event(struct udrv_irq_event *ev)
{
	if (event_at == nevents)	/* the chip went away */
		return errno = ENODEV, -1;
	*ev = events[event_at++];
	return 0;
}

static int helper_set(struct udrv_irq_set *set)
{
	if (set->size != sizeof(*set) || set->mask >> noutputs)
		return errno = EINVAL, -1;
	sets[nsets++] = *set;
	set->write_ns = 1000 + nsets;
	return set->flags & UDRV_IRQ_SET_WAIT ? next_event(&set->ev) : 0;
}

static int helper_ioctl(unsigned long req, void *arg)
{
	struct udrv_irq_line *b = arg;
	struct udrv_irq_bind_v1 *v1 = arg;

	if (req == UDRV_IRQ_BIND_V1) {
		v1_probes++;
		if (helper != HELPER_1_5)
			return errno = EPROTONOSUPPORT, -1;
		return v1->flags ? 0 : (errno = EINVAL, -1);
	}
	if (req == UDRV_IRQ_SET && helper != HELPER_1_5)
		return helper_set(arg);
	if (req != UDRV_IRQ_BIND_LINE || helper == HELPER_1_5)
		return errno = ENOTTY, -1;
	if (b->flags & UDRV_IRQ_OUTPUT) {
		if (helper == HELPER_NO_OUTPUTS)
			return errno = EOPNOTSUPP, -1;
		outputs[noutputs++] = *b;
		return 0;
	}
	binds++;
	bound = *b;
	if (helper == HELPER_NEWER) {
		b->version = UDRV_IRQ_VERSION + 1;
		return errno = EPROTONOSUPPORT, -1;
	}
	if (helper == HELPER_HELD) {
		strcpy(b->holder, HELD_BY);
		return errno = EBUSY, -1;
	}
	return 0;
}

int __real_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return is_helper(fd) ? helper_ioctl(req, arg) : __real_ioctl(fd, req, arg);
}

ssize_t __real_read(int fd, void *buf, size_t len);
ssize_t __wrap_read(int fd, void *buf, size_t len);
ssize_t __wrap_read(int fd, void *buf, size_t len)
{
	if (!is_helper(fd))
		return __real_read(fd, buf, len);
	if (len < sizeof(events[0]))
		return errno = EINVAL, -1;
	return next_event(buf) ? -1 : (ssize_t)sizeof(events[0]);
}

/* The fake system with the helper at /dev/udrv-irq, playing @h. */
static void helper_is(enum helper h)
{
	fake_system();
	fake_file("dev/udrv-irq", "");
	helper = h;
	helper_on = true;
	binds = v1_probes = 0;
	nevents = event_at = 0;
	noutputs = nsets = 0;
	memset(&bound, 0, sizeof(bound));
}

#define BAD(field_init, err, needle)					\
	do {								\
		struct udrv_responder_config _c = { field_init };	\
		struct udrv_responder *_r = (void *)1;			\
		CHECK_INT(udrv_responder_new(&f.req, &_c, &_r), err);	\
		CHECK(_r == NULL);					\
		CHECK_CONTAINS(udrv_request_errmsg(&f.req), needle);	\
	} while (0)

#define HELPERS_LINE	9	/* the helper's input: in no request */

static const struct udrv_responder_config IRQ_LINE = { .wait = UDRV_RESPOND_IRQ_LINE,
						       .in = HELPERS_LINE };

/* The helper's responder for @f's request (inputs without edge detection). */
static struct udrv_responder *irq_responder(struct fake_req *f)
{
	struct udrv_responder *r;

	fake_req_init(f, UDRV_EDGE_NONE);
	CHECK_INT(new_responder(f, &IRQ_LINE, &r), 0);
	return r;
}

/* A run that ended before any edge: nothing called back, nothing left
 * changed. */
static void check_refused(const struct seen *s)
{
	CHECK_INT(s->calls, 0);
	check_restored();
}

static void test_irq_config(void)
{
	struct udrv_responder *r;
	struct fake_req f;

	fake_system();
	fake_req_init(&f, UDRV_EDGE_NONE);
	/* the helper requests the input itself: the request must not hold it */
	BAD(.wait = UDRV_RESPOND_IRQ_LINE COMMA .in = IN, -EINVAL,
	    "line 5 of gpiochip7 is the request's (index 0): with UDRV_RESPOND_IRQ_LINE the helper udrv-irq requests the input line itself; leave it out of the request and give its offset as the responder's in");
	BAD(.wait = UDRV_RESPOND_IRQ_LINE COMMA .in = OUT, -EINVAL,
	    "line 6 of gpiochip7 is the request's (index 1)");
	BAD(.wait = UDRV_RESPOND_IRQ_LINE COMMA .in = HELPERS_LINE COMMA .busy_spin_us = 5, -EINVAL,
	    "busy_spin_us and busy_pause_us apply to UDRV_RESPOND_BUSY only");
	BAD(.wait = UDRV_RESPOND_IRQ_LINE + 1, -EINVAL,
	    "UDRV_RESPOND_READ, UDRV_RESPOND_BUSY or UDRV_RESPOND_IRQ_LINE");
	/* 1.5's wait: a 1.5 program's index is not an offset; refused */
	BAD(.wait = UDRV_RESPOND_IRQ COMMA .in = 0, -EINVAL,
	    "responder: UDRV_RESPOND_IRQ (libudrv 1.5: udrv-irq watched a line the request held) is gone: the helper now requests the input line itself; use UDRV_RESPOND_IRQ_LINE with the line left out of the request");
	f.req.chip_label[0] = '\0';
	BAD(.wait = UDRV_RESPOND_IRQ_LINE COMMA .in = HELPERS_LINE, -EINVAL,
	    "gpiochip7 has no label udrv-irq can find it by");
	strcpy(f.req.chip_label, "fake-wire");
	CHECK_INT(new_responder(&f, &IRQ_LINE, &r), 0);
	udrv_responder_free(r);
	fake_req_free(&f);
}

/* No helper: the message says how to get it; a file that is no helper:
 * the bind fails, saying so; nothing is left changed. */
static void test_irq_no_helper(void)
{
	struct seen s = { 0 };
	struct udrv_responder *r;
	struct fake_req f;
	int ret;

	fake_system();
	r = irq_responder(&f);
	s.r = r;
	CHECK_INT(udrv_responder_run(r, respond, &s), -ENOENT);
	CHECK_CONTAINS(udrv_responder_errmsg(r), "/dev/udrv-irq does not exist");
	CHECK_CONTAINS(udrv_responder_errmsg(r),
		       "load the toolkit's kernel helper (modprobe udrv-irq; Debian: udrv-irq-dkms), or wait with UDRV_RESPOND_READ");
	/* a plain file: the real ioctl says no such ioctl (ENOTTY; qemu-user,
	 * the cross builds' tests, ENOSYS) to both binds */
	helper_on = false;
	fake_file("dev/udrv-irq", "");
	ret = udrv_responder_run(r, respond, &s);
	CHECK(ret == -ENOTTY || ret == -ENOSYS);
	CHECK_CONTAINS(udrv_responder_errmsg(r),
		       "responder: /dev/udrv-irq is not the kernel helper udrv-irq (it knows no UDRV_IRQ_BIND_LINE");
	check_refused(&s);
	udrv_responder_free(r);
	fake_req_free(&f);
}

/* The 1.5 module (UDRV_IRQ_BIND_V1 only) and a newer one: which to install. */
static void test_irq_helper_version(void)
{
	struct seen s = { 0 };
	struct udrv_responder *r;
	struct fake_req f;
	char want[160];

	helper_is(HELPER_1_5);
	r = irq_responder(&f);
	CHECK_INT(udrv_responder_run(r, respond, &s), -EPROTONOSUPPORT);
	snprintf(want, sizeof(want),
		 "responder: udrv-irq module too old (libudrv 1.5's: it watched a line it did not hold): install udrv-irq-dkms %s (the version of this libudrv)",
		 udrv_version());
	CHECK_CONTAINS(udrv_responder_errmsg(r), want);
	CHECK_CONTAINS(udrv_responder_errmsg(r), "modprobe -r udrv-irq; modprobe udrv-irq");
	CHECK_INT(v1_probes, 1);
	check_refused(&s);

	helper_is(HELPER_NEWER);
	CHECK_INT(udrv_responder_run(r, respond, &s), -EPROTONOSUPPORT);
	snprintf(want, sizeof(want),
		 "responder: udrv-irq module too new: it speaks interface %d, this libudrv %s interface %d: install udrv-irq-dkms %s",
		 UDRV_IRQ_VERSION + 1, udrv_version(), UDRV_IRQ_VERSION, udrv_version());
	CHECK_CONTAINS(udrv_responder_errmsg(r), want);
	CHECK_INT(binds, 1);
	CHECK_INT(v1_probes, 0);
	check_refused(&s);
	udrv_responder_free(r);
	fake_req_free(&f);
}

/* A line someone holds: refused, naming the holder; udrvd's lines cannot
 * take this path. */
static void test_irq_line_held(void)
{
	struct seen s = { 0 };
	struct udrv_responder *r;
	struct fake_req f;

	helper_is(HELPER_HELD);
	r = irq_responder(&f);
	CHECK_INT(udrv_responder_run(r, respond, &s), -EBUSY);
	CHECK_CONTAINS(udrv_responder_errmsg(r),
		       "responder: udrv-irq cannot take line 9 of gpiochip7 (fake-wire): the line is held by \"" HELD_BY "\": the helper requests the line itself and takes only a free one (a line udrvd holds cannot take this path");
	check_refused(&s);
	udrv_responder_free(r);
	fake_req_free(&f);
}

/* The bind asks for line 9 as an input with both edges, in this
 * interface's struct; the events' edges come from the levels, lost edges
 * from the seqno; the chip going away ends the run with ENODEV. */
static void test_irq_events_and_gone(void)
{
	struct seen s = { 0 };
	struct udrv_responder *r;
	struct fake_req f;

	helper_is(HELPER_NOW);
	events[0] = (struct udrv_irq_event){ .timestamp_ns = 100, .seqno = 1, .level = 1 };
	events[1] = (struct udrv_irq_event){ .timestamp_ns = 300, .seqno = 3, .level = 0,
					     .flags = UDRV_IRQ_EV_LEVEL_LATE };
	nevents = 2;
	r = irq_responder(&f);
	s.r = r;
	CHECK_INT(udrv_responder_run(r, respond, &s), -ENODEV);
	CHECK_INT(binds, 1);
	CHECK_INT(bound.version, UDRV_IRQ_VERSION);
	CHECK_INT(bound.size, sizeof(bound));
	CHECK_STR(bound.chip, "fake-wire");
	CHECK_INT(bound.offset, HELPERS_LINE);
	CHECK_INT(bound.flags, UDRV_IRQ_INPUT | UDRV_IRQ_RISING | UDRV_IRQ_FALLING);
	CHECK_INT(s.calls, 2);
	CHECK_INT(s.edges[0], UDRV_EDGE_RISING);
	CHECK_INT(s.edges[1], UDRV_EDGE_FALLING);
	CHECK_INT(s.last.seqno, 3);
	CHECK_INT(s.last.lost, 1);
	CHECK_INT(s.last.offset, HELPERS_LINE);
	CHECK_INT(s.last.index, 0xffffffffu);
	CHECK(s.last.timestamp_ns == 300);
	CHECK_INT(udrv_request_lost_events(&f.req), 1);
	CHECK_CONTAINS(udrv_responder_errmsg(r),
		       "responder: the chip of line 9 went away (gpiochip7's driver unbound or removed): udrv-irq gave the line back");
	check_restored();
	/* a level the helper could not read: said, not guessed */
	helper_is(HELPER_NOW);
	events[0] = (struct udrv_irq_event){ .seqno = 1, .level = -1 };
	nevents = 1;
	s = (struct seen){ .r = r };
	CHECK_INT(udrv_responder_run(r, respond, &s), -EIO);
	CHECK_CONTAINS(udrv_responder_errmsg(r),
		       "udrv-irq could not read the level of line 9 of gpiochip7 after its edge 1");
	CHECK_INT(s.calls, 0);
	udrv_responder_free(r);
	fake_req_free(&f);
}

/* ---- replies through the helper ---- */

#define REPLY_A		11	/* the helper's reply lines: in no request */
#define REPLY_B		12

static const struct udrv_responder_config IRQ_REPLIES = {
	.wait = UDRV_RESPOND_IRQ_LINE, .in = HELPERS_LINE,
	.num_replies = 2, .reply_high = 2, .replies = { REPLY_A, REPLY_B },
};

/* C = !B on reply line 0, line 1 high on the second edge; the third edge
 * stops the run after its reply. */
static int answer(struct udrv_request *req, const struct udrv_edge_event *ev, void *data)
{
	struct seen *s = data;

	s->edges[s->calls] = ev->edge;
	s->calls++;
	CHECK_INT(udrv_responder_reply(s->r, 1, ev->edge == UDRV_EDGE_RISING ? 0 : 1), 0);
	if (s->calls == 2)
		CHECK_INT(udrv_responder_reply(s->r, 2, 2), 0);
	return s->calls == 3;
}

/* What a config of reply lines may not be. */
static void test_reply_config(void)
{
	struct fake_req f;

	fake_system();
	fake_req_init(&f, UDRV_EDGE_BOTH);
	BAD(.num_replies = 1 COMMA .replies = { 5 } COMMA .in = 0,
	    -EINVAL, "reply lines are the helper's (UDRV_RESPOND_IRQ_LINE)");
	BAD(.reply_high = 1, -EINVAL, "reply_high 0x1 without reply lines (num_replies 0)");
	fake_req_free(&f);
	fake_req_init(&f, UDRV_EDGE_NONE);
	BAD(.wait = UDRV_RESPOND_IRQ_LINE COMMA .in = HELPERS_LINE COMMA .num_replies = 9,
	    -EINVAL, "responder: 9 reply lines: at most 8");
	BAD(.wait = UDRV_RESPOND_IRQ_LINE COMMA .in = HELPERS_LINE COMMA .num_replies = 1 COMMA
	    .replies = { 5 }, -EINVAL,
	    "reply line 0 (5 of gpiochip7) is the request's (index 0): the helper holds the reply lines itself");
	BAD(.wait = UDRV_RESPOND_IRQ_LINE COMMA .in = HELPERS_LINE COMMA .num_replies = 1 COMMA
	    .replies = { HELPERS_LINE }, -EINVAL, "reply line 0 is line 9, the input");
	BAD(.wait = UDRV_RESPOND_IRQ_LINE COMMA .in = HELPERS_LINE COMMA .num_replies = 2 COMMA
	    .replies = { REPLY_A COMMA REPLY_A }, -EINVAL, "line 11 is reply line 0 and 1: give each once");
	BAD(.wait = UDRV_RESPOND_IRQ_LINE COMMA .in = HELPERS_LINE COMMA .num_replies = 1 COMMA
	    .replies = { REPLY_A } COMMA .reply_high = 2, -EINVAL,
	    "reply_high 0x2 names lines past the 1 reply lines");
	fake_req_free(&f);
}

/* The helper holds the reply lines at their first levels; each reply is
 * written by the call that waits for the next edge, the last one (the
 * callback stopped the run) by a call that does not wait. */
static void test_reply_written_with_the_wait(void)
{
	struct seen s = { 0 };
	struct udrv_responder *r;
	struct fake_req f;

	helper_is(HELPER_NOW);
	for (int i = 0; i < 3; i++)
		events[i] = (struct udrv_irq_event){ .seqno = (uint32_t)i + 1, .level = !(i & 1) };
	nevents = 3;
	fake_req_init(&f, UDRV_EDGE_NONE);
	CHECK_INT(new_responder(&f, &IRQ_REPLIES, &r), 0);
	s.r = r;
	CHECK_INT(udrv_responder_run(r, answer, &s), 0);
	CHECK_INT(s.calls, 3);
	CHECK_INT(binds, 1);
	CHECK_INT(noutputs, 2);
	CHECK_INT(outputs[0].offset, REPLY_A);
	CHECK_INT(outputs[0].flags, UDRV_IRQ_OUTPUT);
	CHECK_INT(outputs[1].offset, REPLY_B);
	CHECK_INT(outputs[1].flags, UDRV_IRQ_OUTPUT | UDRV_IRQ_HIGH);
	/* edge 1 by read(), then three writes: two with the wait, the last not */
	CHECK_INT(nsets, 3);
	CHECK_INT(sets[0].mask, 1);
	CHECK_INT(sets[0].values, 0);
	CHECK_INT(sets[0].flags, UDRV_IRQ_SET_WAIT);
	CHECK_INT(sets[1].mask, 3);
	CHECK_INT(sets[1].values, 3);
	CHECK_INT(sets[1].flags, UDRV_IRQ_SET_WAIT);
	CHECK_INT(sets[2].mask, 1);
	CHECK_INT(sets[2].values, 0);
	CHECK_INT(sets[2].flags, 0);
	check_restored();
	/* a reply outside a callback of a run with reply lines */
	CHECK_INT(udrv_responder_reply(r, 4, 4), -EINVAL);
	CHECK_CONTAINS(udrv_responder_errmsg(r), "reply mask 0x4: the responder has 2 reply lines (bits 0x3)");
	udrv_responder_free(r);
	fake_req_free(&f);
	/* without reply lines: refused, saying what instead */
	helper_is(HELPER_NOW);
	r = irq_responder(&f);
	CHECK_INT(udrv_responder_reply(r, 1, 1), -EINVAL);
	CHECK_CONTAINS(udrv_responder_errmsg(r), "a reply without reply lines");
	udrv_responder_free(r);
	fake_req_free(&f);
}

/* Every line the helper's: a responder of the chip, no request; the
 * callback given none, answering through the reply lines alone. */
static int answer_lineless(struct udrv_request *req, const struct udrv_edge_event *ev,
			   void *data)
{
	CHECK(req == NULL);
	return answer(req, ev, data);
}

static void test_reply_without_a_request(void)
{
	struct udrv_chip chip = { .fd = -1, .num = 7, .name = "gpiochip7", .label = "fake-wire" };
	struct udrv_responder_config c = IRQ_REPLIES;
	struct seen s = { 0 };
	struct udrv_responder *r = NULL;

	fake_system();
	helper_is(HELPER_NOW);
	for (int i = 0; i < 3; i++)
		events[i] = (struct udrv_irq_event){ .seqno = (uint32_t)i + 1, .level = !(i & 1) };
	nevents = 3;
	alarm(20);
	CHECK_INT(udrv_responder_new_chip(&chip, &c, &r), 0);
	s.r = r;
	CHECK_INT(udrv_responder_run(r, answer_lineless, &s), 0);
	CHECK_INT(s.calls, 3);
	CHECK_STR(bound.chip, "fake-wire");
	CHECK_INT(bound.offset, HELPERS_LINE);
	CHECK_INT(noutputs, 2);
	CHECK_INT(nsets, 3);
	CHECK_INT(sets[1].mask, 3);
	CHECK_INT(sets[1].values, 3);
	udrv_responder_free(r);
	/* a wait that reads a request's line: not without one */
	c.wait = UDRV_RESPOND_READ;
	CHECK_INT(udrv_responder_new_chip(&chip, &c, &r), -EINVAL);
	CHECK(r == NULL);
	CHECK_CONTAINS(udrv_chip_errmsg(&chip),
		       "responder of gpiochip7 without a request: its lines are the kernel helper's, so it waits with UDRV_RESPOND_IRQ_LINE only");
	CHECK_INT(udrv_responder_new_chip(&chip, NULL, &r), -EINVAL);
	/* the config's own checks, their message on the chip */
	c = IRQ_REPLIES;
	c.replies[1] = REPLY_A;
	CHECK_INT(udrv_responder_new_chip(&chip, &c, &r), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(&chip), "line 11 is reply line 0 and 1: give each once");
}

/* A helper from before outputs: which to install, or reply through the
 * request. */
static void test_reply_helper_too_old(void)
{
	struct seen s = { 0 };
	struct udrv_responder *r;
	struct fake_req f;
	char want[200];

	helper_is(HELPER_NO_OUTPUTS);
	fake_req_init(&f, UDRV_EDGE_NONE);
	CHECK_INT(new_responder(&f, &IRQ_REPLIES, &r), 0);
	s.r = r;
	CHECK_INT(udrv_responder_run(r, answer, &s), -EOPNOTSUPP);
	snprintf(want, sizeof(want),
		 "responder: the udrv-irq module loaded holds no output lines (older than libudrv 1.10): install udrv-irq-dkms %s",
		 udrv_version());
	CHECK_CONTAINS(udrv_responder_errmsg(r), want);
	CHECK_CONTAINS(udrv_responder_errmsg(r), "or reply through the request (num_replies 0)");
	check_refused(&s);
	udrv_responder_free(r);
	fake_req_free(&f);
}

UDRV_TESTS(
	UDRV_T(test_busy_edges),
	UDRV_T(test_busy_signal_and_error),
	UDRV_T(test_irq_config),
	UDRV_T(test_irq_no_helper),
	UDRV_T(test_irq_helper_version),
	UDRV_T(test_irq_line_held),
	UDRV_T(test_irq_events_and_gone),
	UDRV_T(test_reply_config),
	UDRV_T(test_reply_written_with_the_wait),
	UDRV_T(test_reply_without_a_request),
	UDRV_T(test_reply_helper_too_old)
)
