/* SPDX-License-Identifier: LGPL-2.1-or-later WITH Linux-syscall-note */
/*
 * udrv-irq: a GPIO line's interrupt, delivered straight to a waiting thread
 *
 * The interface between the kernel helper kernel/udrv-irq (a misc device,
 * /dev/udrv-irq) and userspace (libudrv's UDRV_RESPOND_IRQ). Only
 * <linux/types.h> and <linux/ioctl.h> behind it.
 *
 * One open file watches one line:
 *   ioctl(fd, UDRV_IRQ_BIND, &bind)  take the interrupt of line @offset of
 *        the gpiochip labelled @chip, on the edges in @flags. The line must
 *        be an input and its interrupt free (a line requested with edge
 *        detection through the character device has it: request it as a
 *        plain input). The handler runs in hard interrupt context on every
 *        kernel, PREEMPT_RT included (IRQF_NO_THREAD), and wakes the reader
 *        through a simple (raw) wait queue: no interrupt thread on the way.
 *   read(fd, &ev, sizeof(ev))  block until an edge newer than the last one
 *        this file read, and return the newest (struct udrv_irq_event):
 *        seqno jumps by more than one when edges came faster than they were
 *        read. O_NONBLOCK: -EAGAIN when there is none. A signal: -EINTR.
 *   close(fd)  gives the interrupt back.
 * No poll(): the wake-up is one thread's.
 */
#ifndef _UAPI_UDRV_IRQ_H
#define _UAPI_UDRV_IRQ_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define UDRV_IRQ_DEVICE		"/dev/udrv-irq"
#define UDRV_IRQ_CHIP_LEN	32	/* the label, its NUL included */
/* the handler's name of a bound line (/proc/interrupts, /sys/kernel/irq's
 * actions): the chip's label and the offset */
#define UDRV_IRQ_ACTION_FMT	"udrv-irq:%s:%u"

/* udrv_irq_bind.flags: the edges that interrupt (one or both) */
#define UDRV_IRQ_RISING		(1u << 0)
#define UDRV_IRQ_FALLING	(1u << 1)

struct udrv_irq_bind {
	char chip[UDRV_IRQ_CHIP_LEN];	/* the gpiochip's label, NUL-terminated */
	__u32 offset;			/* the line */
	__u32 flags;			/* UDRV_IRQ_RISING | UDRV_IRQ_FALLING */
};

struct udrv_irq_event {
	__u64 timestamp_ns;	/* CLOCK_MONOTONIC, taken in the handler */
	__u32 seqno;		/* the edge's number since the bind, from 1 */
	__s32 level;		/* the line's level read in the handler (0 or
				 * 1), -1 on a chip that sleeps */
};

#define UDRV_IRQ_IOC_MAGIC	0xE5
#define UDRV_IRQ_BIND		_IOW(UDRV_IRQ_IOC_MAGIC, 0x01, struct udrv_irq_bind)

#endif /* _UAPI_UDRV_IRQ_H */
