// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * UDRV_RESPOND_IRQ_LINE: the responder's wait through the toolkit's kernel helper
 * udrv-irq (kernel/udrv-irq, /dev/udrv-irq). Its handler takes the line's
 * interrupt in hard irq context, also on PREEMPT_RT, and wakes the
 * responder directly: no interrupt thread between the edge and the
 * responder, so there is none to raise above it either.
 *
 * The input line is the helper's, not the request's: for each run libudrv
 * asks the helper for it (UDRV_IRQ_BIND_LINE), which requests it as an
 * input with both edges the way a kernel driver does, and gives it back
 * when the run ends. A line someone else holds (another process, udrvd, a
 * kernel driver) is refused with the holder's name: the helper watches no
 * line it does not hold. The request holds the lines the callback drives,
 * on the same chip; @in is the input's offset. The level the helper read
 * makes the event's edge (raw: the line has no active-low setting).
 *
 * Reply lines (since 1.10): the helper also holds the outputs the
 * callback answers on (UDRV_IRQ_OUTPUT), and writes the levels the
 * callback gave (udrv_responder_reply()) when it returns, in the call that
 * then waits for the next edge (UDRV_IRQ_SET with UDRV_IRQ_SET_WAIT): the
 * reply is one gpiod_set_raw_value() in the kernel instead of a request's
 * ioctl, and each edge costs one system call instead of two.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <udrv/udrv.h>
#include <udrv/udrv-irq.h>

#include "gpio/backend.h"
#include "responder/responder_priv.h"

/* the event's index: the line is in no request */
#define IRQ_NO_INDEX	0xffffffffu

/* Line @off for a reply: the helper's, not the request's, not the input,
 * not given twice. */
static int reply_line_check(struct udrv_request *req,
			    const struct udrv_responder_config *c, unsigned int i)
{
	unsigned int off = c->replies[i];
	int idx = udrv_request_index(req, off);

	if (idx >= 0)
		return udrv_err(req->errmsg, EINVAL,
				"responder: reply line %u (%u of %s) is the request's (index %d): the helper holds the reply lines itself; leave it out of the request",
				i, off, req->chip_name, idx);
	if (off == c->in)
		return udrv_err(req->errmsg, EINVAL,
				"responder: reply line %u is line %u, the input", i, off);
	for (unsigned int k = 0; k < i; k++)
		if (c->replies[k] == off)
			return udrv_err(req->errmsg, EINVAL,
					"responder: line %u is reply line %u and %u: give each once",
					off, k, i);
	return 0;
}

int udrv_resp_replies_check(struct udrv_request *req,
			    const struct udrv_responder_config *c)
{
	int ret = 0;

	if (!c->num_replies)
		return c->reply_high ?
		       udrv_err(req->errmsg, EINVAL,
				"responder: reply_high 0x%x without reply lines (num_replies 0)",
				c->reply_high) : 0;
	if (c->wait != UDRV_RESPOND_IRQ_LINE)
		return udrv_err(req->errmsg, EINVAL,
				"responder: reply lines are the helper's (UDRV_RESPOND_IRQ_LINE): with another wait the callback writes through its request; leave num_replies 0");
	if (c->num_replies > UDRV_RESPOND_REPLIES_MAX)
		return udrv_err(req->errmsg, EINVAL,
				"responder: %u reply lines: at most %d",
				c->num_replies, UDRV_RESPOND_REPLIES_MAX);
	if (c->reply_high >> c->num_replies)
		return udrv_err(req->errmsg, EINVAL,
				"responder: reply_high 0x%x names lines past the %u reply lines",
				c->reply_high, c->num_replies);
	for (unsigned int i = 0; !ret && i < c->num_replies; i++)
		ret = reply_line_check(req, c, i);
	return ret;
}

int udrv_resp_irq_check(struct udrv_request *req,
			const struct udrv_responder_config *c)
{
	int idx = udrv_request_index(req, c->in);

	if (idx >= 0)
		return udrv_err(req->errmsg, EINVAL,
				"responder: line %u of %s is the request's (index %d): with UDRV_RESPOND_IRQ_LINE the helper udrv-irq requests the input line itself; leave it out of the request and give its offset as the responder's in",
				c->in, req->chip_name, idx);
	if (!req->chip_label[0] || strlen(req->chip_label) >= UDRV_IRQ_CHIP_LEN)
		return udrv_err(req->errmsg, EINVAL,
				"responder: %s has no label udrv-irq can find it by (at most %d characters): wait with UDRV_RESPOND_READ",
				req->chip_name, UDRV_IRQ_CHIP_LEN - 1);
	return 0;
}

/* The helper answers with another interface: which, and what to install. */
static int wrong_helper(struct udrv_responder *r, int fd,
			const struct udrv_irq_line *b, int err)
{
	struct udrv_irq_bind_v1 v1 = { .flags = 0 };	/* refused, no effect */

	if (err == EPROTONOSUPPORT)
		return udrv_err(r->errmsg, EPROTONOSUPPORT,
				"responder: udrv-irq module too %s: it speaks interface %u, this libudrv %s interface %d: install udrv-irq-dkms %s (the version of this libudrv) and reload it (modprobe -r udrv-irq; modprobe udrv-irq), or wait with UDRV_RESPOND_READ",
				b->version > UDRV_IRQ_VERSION ? "new" : "old",
				b->version, udrv_version(), UDRV_IRQ_VERSION,
				udrv_version());
	/* no UDRV_IRQ_BIND_LINE: the 1.5 helper answers its own bind */
	if (ioctl(fd, UDRV_IRQ_BIND_V1, &v1) < 0 && errno == EINVAL)
		return udrv_err(r->errmsg, EPROTONOSUPPORT,
				"responder: udrv-irq module too old (libudrv 1.5's: it watched a line it did not hold): install udrv-irq-dkms %s (the version of this libudrv) and reload it (modprobe -r udrv-irq; modprobe udrv-irq), or wait with UDRV_RESPOND_READ",
				udrv_version());
	return udrv_err(r->errmsg, err,
			"responder: %s is not the kernel helper udrv-irq (it knows no UDRV_IRQ_BIND_LINE: %s): load udrv-irq (Debian: udrv-irq-dkms), or wait with UDRV_RESPOND_READ",
			UDRV_IRQ_DEVICE, strerror(err));
}

/* Why UDRV_IRQ_BIND_LINE refused line @b. */
static int bind_failed(struct udrv_responder *r, int fd,
		       const struct udrv_irq_line *b, int err)
{
	char why[UDRV_ERRMSG_LEN / 2];

	if (err == ENOTTY || err == ENOSYS || err == EPROTONOSUPPORT)
		return wrong_helper(r, fd, b, err);
	if (err == EOPNOTSUPP && b->flags & UDRV_IRQ_OUTPUT)
		return udrv_err(r->errmsg, EOPNOTSUPP,
				"responder: the udrv-irq module loaded holds no output lines (older than libudrv 1.10): install udrv-irq-dkms %s (the version of this libudrv) and reload it (modprobe -r udrv-irq; modprobe udrv-irq), or reply through the request (num_replies 0)",
				udrv_version());
	if (err == EBUSY && b->holder[0])
		snprintf(why, sizeof(why),
			 "the line is held by \"%.*s\": the helper requests the line itself and takes only a free one (a line udrvd holds cannot take this path: wait with UDRV_RESPOND_READ on the request it hands over)",
			 UDRV_IRQ_LABEL_LEN, b->holder);
	else
		snprintf(why, sizeof(why), "%s",
			 err == EBUSY ? "its interrupt is taken (a kernel driver has it)" :
			 err == ENODEV ? "the helper finds no chip of that label whose parent device has a driver (it watches that driver's unbind, to give the line back before the chip goes)" :
			 err == EINVAL ? "no such line, or its chip's interrupts cannot be taken in hard irq context (a chip behind I2C or SPI): wait with UDRV_RESPOND_READ" :
			 err == ENXIO ? "the line has no interrupt" : strerror(err));
	return udrv_err(r->errmsg, err,
			"responder: udrv-irq cannot take line %u of %s (%s): %s",
			b->offset, r->req->chip_name, b->chip, why);
}

int udrv_resp_irq_open(struct udrv_responder *r)
{
	struct udrv_irq_line b = {
		.version = UDRV_IRQ_VERSION, .size = sizeof(b),
		.offset = r->cfg.in,
		.flags = UDRV_IRQ_INPUT | UDRV_IRQ_RISING | UDRV_IRQ_FALLING,
	};
	char hint[UDRV_ERRMSG_LEN / 2], path[UDRV_PATH_LEN];
	int fd, err;

	udrv_strlcpy(b.chip, r->req->chip_label, sizeof(b.chip));
	err = udrv_path(path, sizeof(path), "%s", UDRV_IRQ_DEVICE);
	if (err)
		return udrv_err(r->errmsg, -err, "responder: %s: the path is too long",
				UDRV_IRQ_DEVICE);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		udrv_access_hint(hint, sizeof(hint), err, path);
		return udrv_err(r->errmsg, err, "responder: %s%s", hint,
				err == ENOENT ?
				": load the toolkit's kernel helper (modprobe udrv-irq; Debian: udrv-irq-dkms), or wait with UDRV_RESPOND_READ" :
				"");
	}
	if (ioctl(fd, UDRV_IRQ_BIND_LINE, &b) < 0) {
		err = bind_failed(r, fd, &b, errno);
		close(fd);
		return err;
	}
	for (unsigned int i = 0; i < r->cfg.num_replies; i++) {
		b.offset = r->cfg.replies[i];
		b.flags = UDRV_IRQ_OUTPUT | (r->cfg.reply_high & (1u << i) ? UDRV_IRQ_HIGH : 0);
		memset(b.holder, 0, sizeof(b.holder));
		if (ioctl(fd, UDRV_IRQ_BIND_LINE, &b) < 0) {
			err = bind_failed(r, fd, &b, errno);
			close(fd);
			return err;
		}
	}
	r->irq_fd = fd;
	r->reply_mask = r->reply_values = 0;
	return 0;
}

void udrv_resp_irq_close(struct udrv_responder *r)
{
	if (r->irq_fd >= 0)
		close(r->irq_fd);
	r->irq_fd = -1;
}

/* The helper's event as the callback's @ev (its line set once, before
 * the loop): the edge from the level read, the edges skipped as lost. */
static int irq_event(struct udrv_responder *r, const struct udrv_irq_event *k,
		     struct udrv_edge_event *ev)
{
	if (k->level < 0)
		return udrv_err(r->errmsg, EIO,
				"responder: udrv-irq could not read the level of line %u of %s after its edge %u",
				r->cfg.in, r->req->chip_name, k->seqno);
	ev->timestamp_ns = k->timestamp_ns;
	ev->edge = k->level ? UDRV_EDGE_RISING : UDRV_EDGE_FALLING;
	ev->lost = k->seqno - ev->seqno - 1;
	ev->seqno = k->seqno;
	ev->line_seqno = k->seqno;
	return 0;
}

/* A read of the helper that brought no event: what it means. */
static int read_failed(struct udrv_responder *r, ssize_t n)
{
	unsigned int off = r->cfg.in;
	int err = n < 0 ? errno : EIO;

	if (err == EINTR)
		return udrv_err(r->errmsg, EINTR,
				"responder: a signal came while it waited for an edge of line %u of %s",
				off, r->req->chip_name);
	if (err == ENODEV)
		return udrv_err(r->errmsg, ENODEV,
				"responder: the chip of line %u went away (%s's driver unbound or removed): udrv-irq gave the line back",
				off, r->req->chip_name);
	return udrv_err(r->errmsg, err, "responder: reading %s: %s",
			UDRV_IRQ_DEVICE, n < 0 ? strerror(err) : "a short event");
}

/*
 * The reply the callback gave, written (UDRV_IRQ_SET), with @wait then the
 * next edge into @k; without a reply, a plain read (or, not waiting,
 * nothing). 0, or a negative errno with the message.
 */
static int reply_and_wait(struct udrv_responder *r, bool wait, struct udrv_irq_event *k)
{
	struct udrv_irq_set s = {
		.size = sizeof(s), .mask = r->reply_mask, .values = r->reply_values,
		.flags = wait ? UDRV_IRQ_SET_WAIT : 0,
	};
	ssize_t n;

	if (!s.mask) {
		if (!wait)
			return 0;
		n = read(r->irq_fd, k, sizeof(*k));
		return n == (ssize_t)sizeof(*k) ? 0 : read_failed(r, n);
	}
	r->reply_mask = r->reply_values = 0;
	if (ioctl(r->irq_fd, UDRV_IRQ_SET, &s) < 0) {
		int err = errno;

		/* the wait's ends are read()'s; the rest, the write's */
		if (err == EINTR || err == ENODEV)
			return read_failed(r, -1);
		return udrv_err(r->errmsg, err, "responder: writing the reply through %s: %s",
				UDRV_IRQ_DEVICE, strerror(err));
	}
	*k = s.ev;
	return 0;
}

int udrv_resp_irq_loop(struct udrv_responder *r, udrv_respond_fn fn,
		       void *data)
{
	struct udrv_edge_event ev = {
		.offset = r->cfg.in, .index = IRQ_NO_INDEX,
	};
	struct udrv_irq_event k;
	int ret, err;

	for (;;) {
		ret = reply_and_wait(r, true, &k);
		if (!ret)
			ret = irq_event(r, &k, &ev);
		if (ret)
			return ret;
		r->req->lost += ev.lost;	/* edges faster than the reads */
		ret = fn(r->own_req ? NULL : r->req, &ev, data);
		if (!ret)
			continue;
		/* the callback's last word is carried out, then the stop */
		err = reply_and_wait(r, false, &k);
		return err ? err : udrv_resp_called(r, ret);
	}
}
