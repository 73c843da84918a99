/* SPDX-License-Identifier: LGPL-2.1-or-later WITH Linux-syscall-note */
/*
 * udrv-irq: a GPIO line's interrupt, delivered straight to a waiting thread
 *
 * The interface between the kernel helper kernel/udrv-irq (a misc device,
 * /dev/udrv-irq) and userspace (libudrv's UDRV_RESPOND_IRQ_LINE). Only
 * <linux/types.h> and <linux/ioctl.h> behind it.
 *
 * One open file holds one input line and up to UDRV_IRQ_OUTPUTS_MAX output
 * lines, all of one chip:
 *   ioctl(fd, UDRV_IRQ_BIND_LINE, &line)  request line @offset of the
 *        gpiochip labelled @chip for this file, the way a kernel driver
 *        does (the line's consumer: "udrv-irq[PID]"). UDRV_IRQ_INPUT:
 *        configure it as an input and take its interrupt on the edges in
 *        @flags (one input a file: a second is EBUSY). UDRV_IRQ_OUTPUT:
 *        configure it as an output at the raw level UDRV_IRQ_HIGH says;
 *        the file's outputs are numbered in the order they were bound,
 *        from 0 (UDRV_IRQ_SET's bits; more than UDRV_IRQ_OUTPUTS_MAX:
 *        ENOSPC). A line of another chip than the file's first: EXDEV. A
 *        line someone else holds (a character-device request, udrvd's, a
 *        kernel driver such as i2c-gpio) is refused with EBUSY and the
 *        holder's consumer label in @holder: the helper never watches or
 *        drives a line it does not hold. The handler runs in hard
 *        interrupt context on every kernel, PREEMPT_RT included
 *        (IRQF_NO_THREAD), and wakes the waiting thread itself: no
 *        interrupt thread on the way. A helper of interface
 *        2 from before outputs answers UDRV_IRQ_OUTPUT with EOPNOTSUPP.
 *   read(fd, &ev, sizeof(ev))  block until an edge newer than the last one
 *        this file read, and return the newest (struct udrv_irq_event):
 *        seqno jumps by more than one when edges came faster than they were
 *        read. O_NONBLOCK: -EAGAIN when there is none. A signal: -EINTR.
 *        The chip went away (its driver unbound): -ENODEV, for good. One
 *        thread waits at a time: a second read() or UDRV_IRQ_SET_WAIT while
 *        one waits on the same file is -EBUSY.
 *   ioctl(fd, UDRV_IRQ_SET, &set)  take the time (@write_ns), then set
 *        the outputs in @mask (bit i: the file's output i) to the raw
 *        levels in @values; with UDRV_IRQ_SET_WAIT, then wait as read() does
 *        and return the edge in @ev: the reply and the next wait in one
 *        call. The process decides every level; the helper only writes
 *        it, in the calling thread (never from the interrupt). A bit of a
 *        line the file does not hold: EINVAL, nothing written. No input
 *        bound and UDRV_IRQ_SET_WAIT: ENOTCONN, nothing written. A signal
 *        during the wait: EINTR, the levels written (@write_ns set); the
 *        same for O_NONBLOCK's EAGAIN and a chip gone meanwhile (ENODEV).
 *   close(fd)  gives the interrupts and the lines back (the outputs keep
 *        their last level: the chip's driver decides what a freed line
 *        does; on most it stays as it was).
 * No poll(): the wake-up is one thread's.
 *
 * Versions: struct udrv_irq_line carries the interface's version and its
 * own size. A module of another version answers UDRV_IRQ_BIND_LINE with
 * EPROTONOSUPPORT and its own version in @version; a module older than
 * this interface does not know UDRV_IRQ_BIND_LINE (ENOTTY) but answers
 * UDRV_IRQ_BIND_V1, the 1.5 interface's bind (which watched a line the
 * caller held): libudrv asks it to tell the two apart. This module answers
 * UDRV_IRQ_BIND_V1 with EPROTONOSUPPORT.
 */
#ifndef _UAPI_UDRV_IRQ_H
#define _UAPI_UDRV_IRQ_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define UDRV_IRQ_DEVICE		"/dev/udrv-irq"
#define UDRV_IRQ_CHIP_LEN	32	/* the label, its NUL included */
#define UDRV_IRQ_LABEL_LEN	32	/* a holder's label, its NUL included */
/* the handler's name of a bound line (/proc/interrupts, /sys/kernel/irq's
 * actions): the chip's label and the offset */
#define UDRV_IRQ_ACTION_FMT	"udrv-irq:%s:%u"
/* the line's consumer label while a file holds it: the binder's pid */
#define UDRV_IRQ_CONSUMER_FMT	"udrv-irq[%d]"

/* the interface's version: struct udrv_irq_line.version */
#define UDRV_IRQ_VERSION	2

/* udrv_irq_line.flags: what the file does with the line */
#define UDRV_IRQ_INPUT		(1u << 0)	/* an input whose edges interrupt */
#define UDRV_IRQ_OUTPUT		(1u << 1)	/* an output the file drives */
/* with UDRV_IRQ_INPUT: the edges that interrupt (one or both) */
#define UDRV_IRQ_RISING		(1u << 2)
#define UDRV_IRQ_FALLING	(1u << 3)
/* with UDRV_IRQ_OUTPUT: its first level high (raw), else low */
#define UDRV_IRQ_HIGH		(1u << 4)

/* the outputs one file holds, at most */
#define UDRV_IRQ_OUTPUTS_MAX	8

struct udrv_irq_line {
	__u32 version;			/* in: UDRV_IRQ_VERSION; out on
					 * EPROTONOSUPPORT: the module's */
	__u32 size;			/* in: sizeof(struct udrv_irq_line) */
	char chip[UDRV_IRQ_CHIP_LEN];	/* in: the gpiochip's label, NUL-terminated */
	__u32 offset;			/* in: the line */
	__u32 flags;			/* in: UDRV_IRQ_INPUT | _RISING | _FALLING,
					 * or UDRV_IRQ_OUTPUT [| UDRV_IRQ_HIGH] */
	char holder[UDRV_IRQ_LABEL_LEN];/* out on EBUSY: who holds the line
					 * (its consumer label; "" unknown) */
	__u32 reserved[4];		/* in: zero */
};

/* udrv_irq_event.flags */
/* the level was read in read(), in process context, not in the handler: a
 * chip that sleeps, or on PREEMPT_RT a chip not on the module's allow-list
 * of chips whose ->get() takes no sleeping lock (docs/api.md) */
#define UDRV_IRQ_EV_LEVEL_LATE	(1u << 0)

struct udrv_irq_event {
	__u64 timestamp_ns;	/* CLOCK_MONOTONIC, taken in the handler */
	__u32 seqno;		/* the edge's number since the bind, from 1 */
	__s32 level;		/* the line's level, 0 or 1 (raw: not
				 * active-low), -1 when it could not be read */
	__u32 flags;		/* UDRV_IRQ_EV_* */
	__u32 reserved;
};

/* udrv_irq_set.flags */
#define UDRV_IRQ_SET_WAIT	(1u << 0)	/* then wait for the next edge */

struct udrv_irq_set {
	__u32 size;			/* in: sizeof(struct udrv_irq_set); out
					 * on EPROTONOSUPPORT: the module's */
	__u32 flags;			/* in: UDRV_IRQ_SET_WAIT or 0 */
	__u32 mask;			/* in: the outputs to set, bit i: output i */
	__u32 values;			/* in: their raw levels, bit i */
	__u64 write_ns;			/* out: CLOCK_MONOTONIC just before
					 * the first write */
	struct udrv_irq_event ev;	/* out with UDRV_IRQ_SET_WAIT: the edge,
					 * as read() returns it */
	__u32 reserved[4];		/* in: zero */
};

#define UDRV_IRQ_IOC_MAGIC	0xE5
#define UDRV_IRQ_BIND_LINE	_IOWR(UDRV_IRQ_IOC_MAGIC, 0x02, struct udrv_irq_line)
#define UDRV_IRQ_SET		_IOWR(UDRV_IRQ_IOC_MAGIC, 0x03, struct udrv_irq_set)

/* The 1.5 interface's bind, gone: the module answers EPROTONOSUPPORT. Its
 * struct is here for libudrv to recognise a module that old. */
struct udrv_irq_bind_v1 {
	char chip[UDRV_IRQ_CHIP_LEN];
	__u32 offset;
	__u32 flags;			/* 1: rising, 2: falling */
};
#define UDRV_IRQ_BIND_V1	_IOW(UDRV_IRQ_IOC_MAGIC, 0x01, struct udrv_irq_bind_v1)

#endif /* _UAPI_UDRV_IRQ_H */
