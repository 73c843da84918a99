// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * UDRV_RESPOND_IRQ: the responder's wait through the toolkit's kernel helper
 * udrv-irq (kernel/udrv-irq, /dev/udrv-irq). Its handler takes the line's
 * interrupt in hard irq context, also on PREEMPT_RT, and wakes the
 * responder directly: no interrupt thread between the edge and the
 * responder, so there is none to raise above it either.
 *
 * The line stays the request's (an input, any backend) but without edge
 * detection: the helper takes its interrupt, which a request with edges
 * would hold. Both edges are delivered; the level the handler read makes
 * the event's edge.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <udrv/udrv-irq.h>

#include "backend.h"
#include "responder_priv.h"

int udrv_resp_irq_check(struct udrv_request *req,
			const struct udrv_responder_config *c)
{
	unsigned int off = req->offsets[c->in];

	if (req->settings[c->in].edge != UDRV_EDGE_NONE)
		return udrv_err(req->errmsg, EINVAL,
				"responder: line %u of %s has edge detection, which holds its interrupt: request it as a plain input for UDRV_RESPOND_IRQ (the helper udrv-irq takes the interrupt), or wait with UDRV_RESPOND_READ",
				off, req->chip_name);
	if (!req->chip_label[0] || strlen(req->chip_label) >= UDRV_IRQ_CHIP_LEN)
		return udrv_err(req->errmsg, EINVAL,
				"responder: %s has no label udrv-irq can find it by (at most %d characters): wait with UDRV_RESPOND_READ",
				req->chip_name, UDRV_IRQ_CHIP_LEN - 1);
	return 0;
}

/* Why UDRV_IRQ_BIND refused line @b. */
static int bind_failed(struct udrv_responder *r, const struct udrv_irq_bind *b,
		       int err)
{
	const char *why = err == EBUSY ?
		"its interrupt is taken (a request with edge detection elsewhere, or another responder)" :
		err == ENODEV ? "the helper finds no chip of that label" :
		err == EINVAL ? "no such line, or its chip's interrupts cannot be taken in hard irq context (a chip behind I2C or SPI): wait with UDRV_RESPOND_READ" :
		err == ENXIO ? "the line has no interrupt" : strerror(err);

	return udrv_err(r->errmsg, err,
			"responder: udrv-irq cannot take the interrupt of line %u of %s (%s): %s",
			b->offset, r->req->chip_name, b->chip, why);
}

int udrv_resp_irq_open(struct udrv_responder *r)
{
	struct udrv_irq_bind b = {
		.offset = r->req->offsets[r->cfg.in],
		.flags = UDRV_IRQ_RISING | UDRV_IRQ_FALLING,
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
	if (ioctl(fd, UDRV_IRQ_BIND, &b) < 0) {
		err = errno;
		close(fd);
		return bind_failed(r, &b, err);
	}
	r->irq_fd = fd;
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
static void irq_event(struct udrv_responder *r, const struct udrv_irq_event *k,
		      struct udrv_edge_event *ev)
{
	int level = k->level < 0 ? -1 :
		    k->level ^ (int)r->req->settings[r->cfg.in].active_low;

	/* a chip that sleeps: the level is not known in the handler; read it */
	if (level < 0)
		level = udrv_request_get_value(r->req, r->cfg.in);
	ev->timestamp_ns = k->timestamp_ns;
	ev->edge = level > 0 ? UDRV_EDGE_RISING : UDRV_EDGE_FALLING;
	ev->lost = k->seqno - ev->seqno - 1;
	ev->seqno = k->seqno;
	ev->line_seqno = k->seqno;
}

int udrv_resp_irq_loop(struct udrv_responder *r, udrv_respond_fn fn,
		       void *data)
{
	struct udrv_edge_event ev = {
		.offset = r->req->offsets[r->cfg.in], .index = r->cfg.in,
	};
	struct udrv_irq_event k;
	ssize_t n;
	int ret;

	for (;;) {
		n = read(r->irq_fd, &k, sizeof(k));
		if (n < 0 && errno == EINTR)
			return udrv_err(r->errmsg, EINTR,
					"responder: a signal came while it waited for an edge of line %u of %s",
					r->req->offsets[r->cfg.in], r->req->chip_name);
		if (n != (ssize_t)sizeof(k))
			return udrv_err(r->errmsg, n < 0 ? errno : EIO,
					"responder: reading %s: %s", UDRV_IRQ_DEVICE,
					n < 0 ? strerror(errno) : "a short event");
		irq_event(r, &k, &ev);
		r->req->lost += ev.lost;	/* edges faster than the reads */
		ret = fn(r->req, &ev, data);
		if (ret)
			return udrv_resp_called(r, ret);
	}
}
