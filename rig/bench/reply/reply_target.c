// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench reply: the responders on the target side.
 *
 *   isr, kthread  rig/kernel/gpio-reply: the bench sets its chip, lines and
 *                 mode through /sys/devices/platform/gpio-reply/ and puts
 *                 them back; its counts and the last edge's timestamps are
 *                 read from there
 *   user          this file's loop: wait for B's edge (read, poll, epoll,
 *                 or busy-polling B's level) and write C = !B, through
 *                 libudrv
 *   lib           libudrv's responder: read, busy, irq (udrv-irq holds B,
 *                 C is this process's request's), irq-reply (udrv-irq holds
 *                 B and C, no request: udrv_responder_new_chip())
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "fields.h"
#include "reply.h"

const char *const reply_responder_names[REPLY_NRESP] = {
	[REPLY_ISR] = "isr", [REPLY_KTHREAD] = "kthread", [REPLY_USER] = "user",
	[REPLY_LIB] = "lib",
};

const char *const reply_wait_names[REPLY_NWAIT] = {
	[REPLY_READ] = "read", [REPLY_POLL] = "poll", [REPLY_EPOLL] = "epoll",
	[REPLY_BUSY] = "busy", [REPLY_IRQ] = "irq", [REPLY_IRQ_REPLY] = "irq-reply",
};

/* ---- rig/kernel/gpio-reply ------------------------------------------------ */

static int module_read(const char *attr, char *buf, size_t len)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), REPLY_MODULE_DIR "/%s", attr);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bench_error(-1, "cannot read %s: %s%s", path, strerror(errno),
				 errno == ENOENT ? " (load rig/kernel/gpio-reply: insmod gpio-reply.ko, docs/rig/kernel-modules.md; or use --responder user)" : "");
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return bench_error(-1, "cannot read %s: %s", path,
				 n < 0 ? strerror(errno) : "empty");
	buf[n] = '\0';
	return 0;
}

static int module_write(const char *attr, const char *value)
{
	char path[128];
	int fd, err = 0;

	snprintf(path, sizeof(path), REPLY_MODULE_DIR "/%s", attr);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return bench_error(-1, "cannot write %s: %s", path, strerror(errno));
	if (write(fd, value, strlen(value)) < 0)
		err = errno;
	close(fd);
	if (!err)
		return 0;
	return bench_error(-1, "writing '%s' to %s failed: %s%s", value, path,
			 strerror(err), err == EBUSY ?
			 " (a line is held by someone else: see 'udrv gpio info'; the kernel log names it)" :
			 err == ENODEV ? " (no gpiochip with that label)" : "");
}

static int module_read_word(const char *attr, char *buf, size_t len)
{
	if (module_read(attr, buf, len))
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int module_read_uint(const char *attr, unsigned int *v)
{
	char buf[32];

	if (module_read_word(attr, buf, sizeof(buf)))
		return -1;
	if (udrv_parse_uint(buf, UINT32_MAX, v))
		return bench_error(-1, REPLY_MODULE_DIR "/%s: '%s' is not a number",
				 attr, buf);
	return 0;
}

int reply_module_save(struct reply_module *m)
{
	if (module_read_word("chip", m->chip, sizeof(m->chip)) ||
	    module_read_word("mode", m->mode, sizeof(m->mode)) ||
	    module_read_uint("in", &m->in) || module_read_uint("out", &m->out))
		return -1;
	m->saved = true;
	return 0;
}

int reply_module_start(struct reply_module *m, const char *chip_label,
		       unsigned int in, unsigned int out,
		       enum reply_responder r)
{
	char num[16];

	if (module_write("mode", "off") || module_write("chip", chip_label))
		return -1;
	snprintf(num, sizeof(num), "%u", in);
	if (module_write("in", num))
		return -1;
	snprintf(num, sizeof(num), "%u", out);
	if (module_write("out", num) ||
	    module_write("mode", reply_responder_names[r]))
		return -1;
	if (m->last_fd < 0)
		m->last_fd = open(REPLY_MODULE_DIR "/last", O_RDONLY | O_CLOEXEC);
	if (m->last_fd < 0)
		return bench_error(-1, "cannot open " REPLY_MODULE_DIR "/last: %s",
				 strerror(errno));
	return 0;
}

int reply_module_off(struct reply_module *m)
{
	(void)m;
	return module_write("mode", "off");
}

/* Mode, chip and lines as they were before the bench. */
void reply_module_restore(struct reply_module *m)
{
	char num[16];

	if (m->last_fd >= 0)
		close(m->last_fd);
	m->last_fd = -1;
	if (!m->saved)
		return;
	m->saved = false;
	if (module_write("mode", "off") || module_write("chip", m->chip))
		return;
	snprintf(num, sizeof(num), "%u", m->in);
	module_write("in", num);
	snprintf(num, sizeof(num), "%u", m->out);
	module_write("out", num);
	if (strcmp(m->mode, "off"))
		module_write("mode", m->mode);
}

int reply_module_counts(uint64_t *edges, uint64_t *replies)
{
	uint64_t v[2];
	char buf[64];

	if (module_read("counts", buf, sizeof(buf)))
		return -1;
	if (bench_read_u64s(buf, v, 2))
		return bench_error(-1, REPLY_MODULE_DIR "/counts is not 'EDGES REPLIES'");
	*edges = v[0];
	*replies = v[1];
	return 0;
}

int reply_module_last(struct reply_module *m, uint64_t *seq,
		      uint64_t *t_entry, uint64_t *t_reply)
{
	uint64_t v[3];
	char buf[96];
	ssize_t n = pread(m->last_fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return bench_error(-1, "cannot read " REPLY_MODULE_DIR "/last: %s",
				 n < 0 ? strerror(errno) : "empty");
	buf[n] = '\0';
	if (bench_read_u64s(buf, v, 3))
		return bench_error(-1, REPLY_MODULE_DIR "/last is not 'SEQ T_ENTRY T_REPLY'");
	*seq = v[0];
	*t_entry = v[1];
	*t_reply = v[2];
	return 0;
}

/* ---- the user responder ---------------------------------------------- */

bool reply_shares_cpu(int cpu_a, int cpu_b)
{
	return sysconf(_SC_NPROCESSORS_ONLN) == 1 ||
	       (cpu_a >= 0 && cpu_a == cpu_b);
}

static int user_fail(struct reply_user *u, const char *fmt, const char *what)
{
	snprintf(u->sh->error, sizeof(u->sh->error), fmt, what);
	return bench_error(EXIT_FAIL, "bench reply: user responder: %s",
			 u->sh->error);
}

/* B (an input: both edges; none for busy) and C (an output at !B). */
static int target_request(struct reply_user *u, const char *consumer,
			  struct udrv_request **req)
{
	struct udrv_request_config cfg = { .consumer = consumer };
	struct udrv_line_settings s[2] = {
		{ .direction = UDRV_DIR_INPUT,
		  .edge = u->wait == REPLY_BUSY ? UDRV_EDGE_NONE : UDRV_EDGE_BOTH },
		{ .direction = UDRV_DIR_OUTPUT },
	};
	unsigned int offsets[2] = { u->in, u->out };
	int b;

	if (udrv_chip_request(u->chip, &cfg, 2, offsets, s, req))
		return user_fail(u, "%s", udrv_chip_errmsg(u->chip));
	b = udrv_request_get_value(*req, 0);
	if (b < 0 || udrv_request_set_value(*req, 1, !b))
		return user_fail(u, "%s", udrv_request_errmsg(*req));
	return 0;
}

/*
 * B's level, in a request of its own let go at once: udrv-irq requests B
 * itself for the run (irq, irq-reply). 0 or 1, or -1 (said why).
 */
static int target_read_b(struct reply_user *u)
{
	struct udrv_request_config cfg = { .consumer = REPLY_LIB_CONSUMER };
	struct udrv_line_settings s = { .direction = UDRV_DIR_INPUT };
	struct udrv_request *b_req = NULL;
	int b;

	if (udrv_chip_request(u->chip, &cfg, 1, &u->in, &s, &b_req)) {
		user_fail(u, "%s", udrv_chip_errmsg(u->chip));
		return -1;
	}
	b = udrv_request_get_value(b_req, 0);
	if (b < 0)
		user_fail(u, "%s", udrv_request_errmsg(b_req));
	udrv_request_release(b_req);
	return b < 0 ? -1 : b;
}

/* irq: C alone (an output at !B, index 0); B is udrv-irq's. */
static int target_request_irq(struct reply_user *u, struct udrv_request **req)
{
	struct udrv_request_config cfg = { .consumer = REPLY_LIB_CONSUMER };
	struct udrv_line_settings s = { .direction = UDRV_DIR_OUTPUT };
	int b = target_read_b(u);

	if (b < 0)
		return EXIT_FAIL;
	s.value = !b;
	if (udrv_chip_request(u->chip, &cfg, 1, &u->out, &s, req))
		return user_fail(u, "%s", udrv_chip_errmsg(u->chip));
	return 0;
}

/* C's index in the lib responder's request */
static size_t lib_c_index(const struct reply_user *u)
{
	return u->wait == REPLY_IRQ ? 0 : 1;
}

static int user_setup(struct reply_user *u, struct udrv_request **req)
{
	struct udrv_rt *rt = udrv_rt_new();
	int ret = 0;

	if (!rt)
		return user_fail(u, "%s", "out of memory");
	if (u->mlock)
		ret = udrv_rt_lock_memory(rt, 0);
	if (!ret && u->cpu >= 0)
		ret = udrv_rt_set_cpu(rt, u->cpu);
	if (!ret)
		ret = u->prio ? udrv_rt_set_scheduler(rt, SCHED_FIFO, u->prio) :
				udrv_rt_set_scheduler(rt, SCHED_OTHER, 0);
	if (ret)
		ret = user_fail(u, "%s (see --prio, --target-cpu)",
				udrv_rt_errmsg(rt));
	udrv_rt_free(rt);	/* the settings stay with the process */
	return ret ? ret : target_request(u, REPLY_TARGET_CONSUMER, req);
}

/* Wait for B's next edge the responder's way: its level, or -1 to stop. */
static int user_wait(struct reply_user *u, struct udrv_request *req, int epfd,
		     int *level, volatile int *stop)
{
	struct udrv_edge_event e;
	struct epoll_event ee;
	struct pollfd pfd = { .fd = udrv_request_fd(req), .events = POLLIN };
	int ret = 0, v;

	switch (u->wait) {
	case REPLY_BUSY:
		do {
			v = udrv_request_get_value(req, 0);
			u->sh->polls++;
		} while (v == *level && !*stop && !bench_interrupted());
		u->sh->t_wake = bench_now_ns();
		u->sh->t_irq = 0;
		if (v < 0)
			return user_fail(u, "%s", udrv_request_errmsg(req));
		*level = v;
		return *stop || bench_interrupted() ? -1 : 0;
	case REPLY_POLL:
		ret = poll(&pfd, 1, -1);
		break;
	case REPLY_EPOLL:
		ret = epoll_wait(epfd, &ee, 1, -1);
		break;
	default:
		break;
	}
	if (u->wait != REPLY_READ)	/* the wait returned before the read */
		u->sh->t_wake = bench_now_ns();
	if (ret < 0 && errno == EINTR)
		return -1;
	if (ret < 0)
		return user_fail(u, "waiting for line B: %s", strerror(errno));
	ret = udrv_request_read_events(req, &e, 1);
	if (u->wait == REPLY_READ)
		u->sh->t_wake = bench_now_ns();
	if (ret == -EINTR)
		return -1;
	if (ret != 1)
		return user_fail(u, "%s", ret < 0 ? udrv_request_errmsg(req) :
				 "no event read");
	if (e.lost)
		return user_fail(u, "%s", "the kernel reports lost events on line B with one edge in flight");
	u->sh->t_irq = e.timestamp_ns;
	*level = e.edge == UDRV_EDGE_RISING;
	return 0;
}

static void user_record(struct reply_user *u)
{
	struct reply_shared *sh = u->sh;

	/* role target's rows (none in role both's child); busy: no i2w */
	if (u->i2w && sh->t_irq && sh->t_irq <= sh->t_wake)
		udrv_hist_record(u->i2w->hist, sh->t_wake - sh->t_irq);
	if (u->w2r)
		udrv_hist_record(u->w2r->hist, sh->t_reply - sh->t_wake);
}

/* ---- the lib responder: libudrv's udrv_responder_run() ----------------- */

struct lib_answer {
	struct reply_user *u;
	struct udrv_responder *r;	/* irq-reply: the reply's way */
	volatile int *stop;
};

/* C = !B: through the request, or (irq-reply: no request) the helper's
 * reply line 0, which it writes when this callback has returned. */
static int lib_reply(struct lib_answer *a, struct udrv_request *req, int c)
{
	if (!req) {
		if (!udrv_responder_reply(a->r, 1, (uint32_t)c))
			return 0;
		user_fail(a->u, "%s", udrv_responder_errmsg(a->r));
		return -EIO;
	}
	if (!udrv_request_set_value(req, lib_c_index(a->u), c))
		return 0;
	user_fail(a->u, "%s", udrv_request_errmsg(req));
	return -EIO;
}

/*
 * Each edge of B: C = !B, and the same record as the user responder's
 * (irq-reply: t_reply is the decision; the helper writes C after it, in
 * the call that waits for the next edge).
 */
static int lib_answer(struct udrv_request *req, const struct udrv_edge_event *ev,
		      void *data)
{
	struct lib_answer *a = data;
	struct reply_user *u = a->u;
	struct reply_shared *sh = u->sh;
	bool busy = u->wait == REPLY_BUSY;

	if (!ev)	/* busy: a spin without an edge, a chance to stop */
		return *a->stop || bench_interrupted();
	if (ev->lost) {
		user_fail(u, "%s", "the kernel reports lost events on line B with one edge in flight");
		return -EIO;
	}
	/* busy: the library's own timestamp of the level it saw */
	sh->t_wake = busy ? ev->timestamp_ns : bench_now_ns();
	sh->t_irq = busy ? 0 : ev->timestamp_ns;
	sh->edges++;
	/* irq-reply: the helper writes C after this returns, and stamps it */
	sh->t_reply = u->wait == REPLY_IRQ_REPLY ? sh->t_wake : bench_now_ns();
	__atomic_store_n(&sh->seq, sh->seq + 1, __ATOMIC_RELEASE);
	if (lib_reply(a, req, ev->edge != UDRV_EDGE_RISING))
		return -EIO;
	user_record(u);
	return *a->stop || bench_interrupted();
}

/*
 * irq-reply: a responder of the chip, no request: B and C both udrv-irq's,
 * C (reply line 0) first at !B.
 */
static int lib_new_chip(struct reply_user *u, struct udrv_responder_config *cfg,
			struct udrv_responder **r)
{
	int b = target_read_b(u);

	if (b < 0)
		return EXIT_FAIL;
	cfg->num_replies = 1;
	cfg->replies[0] = u->out;
	cfg->reply_high = !b;
	if (udrv_responder_new_chip(u->chip, cfg, r))
		return user_fail(u, "%s", udrv_chip_errmsg(u->chip));
	return 0;
}

/* The responder and the lines it answers on (the library sets the
 * scheduling). */
static int lib_new(struct reply_user *u, struct udrv_responder_config *cfg,
		   struct udrv_request **req, struct udrv_responder **r)
{
	int ret;

	if (u->wait == REPLY_IRQ_REPLY)
		return lib_new_chip(u, cfg, r);
	ret = u->wait == REPLY_IRQ ? target_request_irq(u, req) :
	      target_request(u, REPLY_LIB_CONSUMER, req);
	if (!ret && udrv_responder_new(*req, cfg, r))
		ret = user_fail(u, "%s", udrv_request_errmsg(*req));
	return ret;
}

static int lib_run(struct reply_user *u, int ready_fd, volatile int *stop)
{
	struct udrv_responder_config cfg = {
		/* irq, irq-reply: B's offset (udrv-irq's line, not a request's) */
		.in = reply_by_helper(u->wait) ? u->in : 0,
		.priority = u->prio, .irq_priority = u->irq_prio,
		.wait = u->wait == REPLY_BUSY ? UDRV_RESPOND_BUSY :
			reply_by_helper(u->wait) ? UDRV_RESPOND_IRQ_LINE :
			UDRV_RESPOND_READ,
		.flags = (u->mlock ? UDRV_RESPOND_LOCK_MEMORY : 0) |
			 (u->cpu >= 0 ? UDRV_RESPOND_PIN_CPU : 0),
		.cpu = u->cpu >= 0 ? u->cpu : 0,
	};
	struct lib_answer a = { .u = u, .stop = stop };
	struct udrv_request *req = NULL;
	struct udrv_responder *r = NULL;
	char one = 1;
	int ret = lib_new(u, &cfg, &req, &r);

	a.r = r;
	if (!ret && ready_fd >= 0 && write(ready_fd, &one, 1) != 1)
		ret = EXIT_FAIL;
	if (!ret) {
		ret = udrv_responder_run(r, lib_answer, &a);
		if (ret == -EINTR)
			ret = 0;	/* SIGTERM: the end of its run */
		else if (ret == -EIO && u->sh->error[0])
			ret = EXIT_FAIL;	/* lib_answer said why */
		else if (ret)
			ret = user_fail(u, "%s", udrv_responder_errmsg(r));
	}
	udrv_responder_free(r);
	udrv_request_release(req);
	return ret;
}

/*
 * What one of this process's timestamps costs (bench_now_ns(): t_wake and
 * t_reply, two on each reply's path, which a responder without the bench
 * would not take): the median of back-to-back pairs, for the breakdown.
 */
static void user_probe_cost(struct reply_shared *sh)
{
	struct udrv_hist *h = udrv_hist_new();
	uint64_t t0;

	if (!h)
		return;		/* unmeasured: 0 */
	for (int i = 0; i < REPLY_PROBE_PAIRS; i++) {
		t0 = bench_now_ns();
		udrv_hist_record(h, bench_now_ns() - t0);
	}
	sh->probe_ns = udrv_hist_percentile(h, 50);
	udrv_hist_free(h);
}

int reply_user_run(struct reply_user *u, int ready_fd, volatile int *stop)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct udrv_request *req = NULL;
	int ret, level, epfd = -1;
	char one = 1;

	user_probe_cost(u->sh);
	if (u->lib)
		return lib_run(u, ready_fd, stop);
	ret = user_setup(u, &req);
	if (!ret && u->wait == REPLY_EPOLL) {
		epfd = epoll_create1(EPOLL_CLOEXEC);
		if (epfd < 0 ||
		    epoll_ctl(epfd, EPOLL_CTL_ADD, udrv_request_fd(req), &ev))
			ret = user_fail(u, "epoll: %s", strerror(errno));
	}
	if (!ret)
		level = udrv_request_get_value(req, 0);
	if (!ret && ready_fd >= 0 && write(ready_fd, &one, 1) != 1)
		ret = EXIT_FAIL;
	while (!ret && !*stop && !bench_interrupted()) {
		ret = user_wait(u, req, epfd, &level, stop);
		if (ret) {
			ret = ret < 0 ? 0 : ret;
			break;
		}
		u->sh->edges++;
		u->sh->t_reply = bench_now_ns();
		__atomic_store_n(&u->sh->seq, u->sh->seq + 1, __ATOMIC_RELEASE);
		if (udrv_request_set_value(req, 1, !level))
			ret = user_fail(u, "%s", udrv_request_errmsg(req));
		user_record(u);
	}
	if (epfd >= 0)
		close(epfd);
	udrv_request_release(req);
	return ret;
}
