/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrv-irq's own header: a file's state (struct udrv_irq_file) and what its
 * three parts call of each other:
 *   file.c   the device file: open, ioctl, release, the misc device
 *   bind.c   the lines: UDRV_IRQ_BIND_LINE takes them, udrv_irq_unbind()
 *            and the bus notifier give them back
 *   event.c  the edge: the hard irq handler, the wait, read(), UDRV_IRQ_SET
 * What a file does for userspace: <udrv/udrv-irq.h> (kernel/include/uapi/).
 */
#ifndef UDRV_IRQ_PRIV_H
#define UDRV_IRQ_PRIV_H

#include <linux/device.h>
#include <linux/fs.h>
#include <linux/gpio/consumer.h>
#include <linux/interrupt.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcuwait.h>
#include <linux/seqlock.h>
#include <linux/version.h>

#include <udrv/udrv-irq.h>

#define UDRV_IRQ_NAME	"udrv-irq"

/* 6.4 made the bus of a device, and the notifiers' argument, const */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
typedef const struct bus_type udrv_irq_bus_t;
#else
typedef struct bus_type udrv_irq_bus_t;
#endif

enum udrv_irq_state {
	UDRV_IRQ_UNBOUND,		/* no bind yet (or it failed) */
	UDRV_IRQ_BINDING,		/* a bind is under way */
	UDRV_IRQ_BOUND,			/* the line and its interrupt held */
	UDRV_IRQ_GONE,			/* the chip went away: -ENODEV for good */
};

struct udrv_irq_file {
	struct mutex lock;		/* the state and what it holds */
	enum udrv_irq_state state;
	struct gpio_chip *gc;		/* bound: the chip, its driver held */
	struct device *parent;		/* the chip's parent, referenced */
	struct notifier_block nb;	/* on the parent's bus, while bound */
	udrv_irq_bus_t *bus;		/* where nb is registered, or NULL */
	char label[UDRV_IRQ_CHIP_LEN];	/* bound: the chip's, every line's */
	struct gpio_desc *desc;		/* the input line, or NULL */
	struct gpio_desc *out[UDRV_IRQ_OUTPUTS_MAX];	/* the outputs, in order */
	unsigned int nout;
	struct mutex bind_lock;		/* one bind at a time */
	int irq;
	bool level_in_handler;		/* else read() reads it (flag LATE) */
	char consumer[UDRV_IRQ_LABEL_LEN];	/* the line's label: ours */
	char name[64];			/* the handler's name, /proc/interrupts */
	struct rcuwait wait;		/* the thread that waits, one at a time */
	unsigned long waiting;		/* bit 0: a thread waits */
	seqcount_t ev_seq;		/* ev, written by the handler alone */
	struct udrv_irq_event ev;	/* the newest edge */
	u32 seen;			/* the seqno the reader had last */
};

/* bind.c */
long udrv_irq_bind(struct udrv_irq_file *f, void __user *arg);
void udrv_irq_unbind(struct udrv_irq_file *f, enum udrv_irq_state to);

/* event.c */
irqreturn_t udrv_irq_edge(int irq, void *data);
ssize_t udrv_irq_read(struct file *file, char __user *buf, size_t len,
		      loff_t *pos);
long udrv_irq_set(struct file *file, struct udrv_irq_set __user *arg);

#endif /* UDRV_IRQ_PRIV_H */
