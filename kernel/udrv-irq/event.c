// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-irq's edge (udrv-irq.h): the hard irq handler that stamps it and
 * wakes the one waiting thread, the wait, read(), and UDRV_IRQ_SET, which
 * writes the process's reply to the outputs the file holds and then
 * (UDRV_IRQ_SET_WAIT) waits for the next edge. The responder's hot path.
 */
#include <linux/gpio/consumer.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcuwait.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seqlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "udrv-irq.h"

/*
 * The lab's mutant of this helper (rig/kernel/udrv-irq-mutant builds this
 * file with -DUDRV_IRQ_MUTANT), which breaks the reply by its parameter
 * "mutation": late (UDRV_IRQ_SET_WAIT waits before it writes the reply,
 * which goes out one edge late) or isr (the handler writes output 0 to the
 * input's inverse, a reply the process never decided).
 * tests/lab/test_bench_reply.py loads it in this module's place and sees
 * the bench fail. Both 0 in every build of udrv-irq itself.
 */
#ifdef UDRV_IRQ_MUTANT
static char *mutation = "late";
module_param(mutation, charp, 0444);
MODULE_PARM_DESC(mutation, "the lab's mutant: late (the reply one edge late) or isr (written by the handler)");
#define UDRV_IRQ_PREARM		(!strcmp(mutation, "late"))
#define UDRV_IRQ_FROM_ISR	(!strcmp(mutation, "isr"))
#else
#define UDRV_IRQ_PREARM		0
#define UDRV_IRQ_FROM_ISR	0
#endif

/* ---- the handler ------------------------------------------------------ */

irqreturn_t udrv_irq_edge(int irq, void *data)
{
	struct udrv_irq_file *f = data;
	u64 t = ktime_get_ns();
	int level = f->level_in_handler ? gpiod_get_raw_value(f->desc) : -1;

	/* the one writer: this handler (never itself concurrently) */
	write_seqcount_begin(&f->ev_seq);
	WRITE_ONCE(f->ev.seqno, f->ev.seqno + 1);
	f->ev.timestamp_ns = t;
	f->ev.level = level < 0 ? -1 : !!level;
	f->ev.flags = f->level_in_handler ? 0 : UDRV_IRQ_EV_LEVEL_LATE;
	write_seqcount_end(&f->ev_seq);
	if (UDRV_IRQ_FROM_ISR && level >= 0 && f->nout)	/* the mutant */
		gpiod_set_raw_value(f->out[0], !level);
	rcuwait_wake_up(&f->wait);
	return IRQ_HANDLED;
}

/* ---- the file --------------------------------------------------------- */

/* Whether the reader has something: an edge it has not seen, or the chip's
 * going. Lockless: the wait's test, before and after it sleeps. */
static bool udrv_irq_pending(struct udrv_irq_file *f)
{
	return READ_ONCE(f->state) == UDRV_IRQ_GONE ||
	       READ_ONCE(f->ev.seqno) != READ_ONCE(f->seen);
}

/* The newest edge into @ev, whole (the handler may be writing it). */
static void udrv_irq_newest(struct udrv_irq_file *f, struct udrv_irq_event *ev)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&f->ev_seq);
		*ev = f->ev;
	} while (read_seqcount_retry(&f->ev_seq, seq));
}

/* The level read now, in process context, for an event the handler could
 * not read it for. */
static int udrv_irq_late_level(struct udrv_irq_file *f,
			       struct udrv_irq_event *ev)
{
	int level;

	mutex_lock(&f->lock);
	if (f->state != UDRV_IRQ_BOUND) {
		mutex_unlock(&f->lock);
		return -ENODEV;
	}
	level = gpiod_get_raw_value_cansleep(f->desc);
	mutex_unlock(&f->lock);
	ev->level = level < 0 ? -1 : !!level;
	return 0;
}

/* 0, or why there is nothing to wait on: gone, or no input bound */
static int udrv_irq_can_wait(struct udrv_irq_file *f)
{
	switch (READ_ONCE(f->state)) {
	case UDRV_IRQ_GONE:
		return -ENODEV;
	case UDRV_IRQ_BOUND:
		return READ_ONCE(f->desc) ? 0 : -ENOTCONN;	/* outputs only */
	default:
		return -ENOTCONN;	/* no UDRV_IRQ_BIND_LINE yet */
	}
}

/*
 * Sleep until udrv_irq_pending(): one thread at a time (a second is
 * EBUSY), which the handler wakes itself (rcuwait: no queue, no lock
 * between the edge and the waiter, nothing to undo after the wake-up).
 */
static int udrv_irq_sleep(struct udrv_irq_file *f)
{
	int ret = 0;

	if (test_and_set_bit_lock(0, &f->waiting))
		return -EBUSY;
	prepare_to_rcuwait(&f->wait);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);	/* pairs with the wake's barrier */
		if (udrv_irq_pending(f))
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	finish_rcuwait(&f->wait);
	clear_bit_unlock(0, &f->waiting);
	return ret;
}

/* The next edge this file has not read into @ev (the newest), as read()
 * and UDRV_IRQ_SET_WAIT return it; udrv_irq_can_wait() said yes. */
static int udrv_irq_wait(struct udrv_irq_file *f, bool nonblock,
			 struct udrv_irq_event *ev)
{
	int ret;

	if (!udrv_irq_pending(f)) {
		if (nonblock)
			return -EAGAIN;
		ret = udrv_irq_sleep(f);
		if (ret)
			return ret;
	}
	if (READ_ONCE(f->state) == UDRV_IRQ_GONE)
		return -ENODEV;
	udrv_irq_newest(f, ev);
	if (ev->flags & UDRV_IRQ_EV_LEVEL_LATE && udrv_irq_late_level(f, ev))
		return -ENODEV;
	WRITE_ONCE(f->seen, ev->seqno);
	return 0;
}

ssize_t udrv_irq_read(struct file *file, char __user *buf, size_t len,
			     loff_t *pos)
{
	struct udrv_irq_file *f = file->private_data;
	struct udrv_irq_event ev;
	int ret;

	if (len < sizeof(ev))
		return -EINVAL;
	ret = udrv_irq_can_wait(f);
	if (!ret)
		ret = udrv_irq_wait(f, file->f_flags & O_NONBLOCK, &ev);
	if (ret)
		return ret;
	if (copy_to_user(buf, &ev, sizeof(ev)))
		return -EFAULT;
	return sizeof(ev);
}

/* Write the outputs in @s->mask to @s->values; @f->lock held, bound. */
static void udrv_irq_write(struct udrv_irq_file *f, struct udrv_irq_set *s)
{
	s->write_ns = ktime_get_ns();
	for (unsigned int i = 0; i < f->nout; i++)
		if (s->mask & BIT(i))
			gpiod_set_raw_value_cansleep(f->out[i],
						     !!(s->values & BIT(i)));
}

/*
 * UDRV_IRQ_SET's input into @s: its size (a struct of another size gets
 * ours back, EPROTONOSUPPORT), flags, mask, values; the reserved words
 * zero. Field by field in one user access: the call is a responder's hot
 * path, and a copy_from_user() of the whole struct costs a copy and its
 * checks for the few words read.
 */
static int udrv_irq_set_in(struct udrv_irq_set __user *u, struct udrv_irq_set *s)
{
	u32 word, any = 0;

	if (get_user(s->size, &u->size))
		return -EFAULT;
	if (s->size != sizeof(*s))
		return put_user((u32)sizeof(*s), &u->size) ? -EFAULT :
		       -EPROTONOSUPPORT;
	if (!user_read_access_begin(u, sizeof(*u)))
		return -EFAULT;
	unsafe_get_user(s->flags, &u->flags, fault);
	unsafe_get_user(s->mask, &u->mask, fault);
	unsafe_get_user(s->values, &u->values, fault);
	for (unsigned int i = 0; i < ARRAY_SIZE(u->reserved); i++) {
		unsafe_get_user(word, &u->reserved[i], fault);
		any |= word;
	}
	user_read_access_end();
	return s->flags & ~UDRV_IRQ_SET_WAIT || any ? -EINVAL : 0;
fault:
	user_read_access_end();
	return -EFAULT;
}

/* UDRV_IRQ_SET's output: @write_ns and the edge, in one user access. */
static int udrv_irq_set_out(struct udrv_irq_set __user *u,
			    const struct udrv_irq_set *s)
{
	if (!user_write_access_begin(&u->write_ns,
				     sizeof(u->write_ns) + sizeof(u->ev)))
		return -EFAULT;
	unsafe_put_user(s->write_ns, &u->write_ns, fault);
	unsafe_put_user(s->ev.timestamp_ns, &u->ev.timestamp_ns, fault);
	unsafe_put_user(s->ev.seqno, &u->ev.seqno, fault);
	unsafe_put_user(s->ev.level, &u->ev.level, fault);
	unsafe_put_user(s->ev.flags, &u->ev.flags, fault);
	unsafe_put_user(s->ev.reserved, &u->ev.reserved, fault);
	user_write_access_end();
	return 0;
fault:
	user_write_access_end();
	return -EFAULT;
}

/* UDRV_IRQ_SET: the outputs written, then (UDRV_IRQ_SET_WAIT) the wait. */
long udrv_irq_set(struct file *file, struct udrv_irq_set __user *arg)
{
	struct udrv_irq_file *f = file->private_data;
	struct udrv_irq_set s = { 0 };
	bool wait;
	int ret;

	ret = udrv_irq_set_in(arg, &s);
	if (ret)
		return ret;
	wait = s.flags & UDRV_IRQ_SET_WAIT;
	ret = wait ? udrv_irq_can_wait(f) : 0;
	if (ret)
		return ret;
	if (UDRV_IRQ_PREARM && wait) {	/* the mutant: wait, then write */
		ret = udrv_irq_wait(f, file->f_flags & O_NONBLOCK, &s.ev);
		if (ret)
			return ret;
		wait = false;
	}
	mutex_lock(&f->lock);
	if (f->state != UDRV_IRQ_BOUND)
		ret = f->state == UDRV_IRQ_GONE ? -ENODEV : -ENOTCONN;
	else if (s.mask & ~(u32)(BIT(f->nout) - 1))
		ret = -EINVAL;		/* a line the file does not hold */
	else
		udrv_irq_write(f, &s);
	mutex_unlock(&f->lock);
	if (ret)
		return ret;
	if (wait)
		ret = udrv_irq_wait(f, file->f_flags & O_NONBLOCK, &s.ev);
	/* the levels are written whatever the wait did: say when */
	return udrv_irq_set_out(arg, &s) ?: ret;
}
