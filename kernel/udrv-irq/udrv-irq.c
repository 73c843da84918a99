// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-irq - a GPIO line's interrupt, straight to the thread that waits
 *
 * The smallest kernel helper for a userspace responder (libudrv's
 * UDRV_RESPOND_IRQ_LINE): what UIO is for a device's interrupt, for one GPIO
 * line, without the interrupt thread that a character-device edge event
 * goes through. The handler runs in hard interrupt context on every
 * kernel, PREEMPT_RT included (IRQF_NO_THREAD), takes the time (and the
 * line's level where that is safe: udrv_irq_level_in_handler()), counts
 * the edge and wakes the reader itself (rcuwait: the one waiting thread,
 * woken by wake_up_process(), whose locks are the scheduler's raw ones:
 * allowed in hard irq context on PREEMPT_RT). The waiting thread runs
 * next; nothing else is scheduled in between.
 *
 * The file holds its lines: the bind requests each the way a kernel driver
 * does (gpiochip_request_own_desc(), consumer "udrv-irq[PID]"), so a line
 * someone else holds is refused (EBUSY, the holder's label to userspace)
 * and nobody can take it while it is bound. A module cannot tell whose a
 * character-device request is, so it never watches or drives a line it
 * does not hold. Besides its input a file may hold output lines of the
 * same chip, which UDRV_IRQ_SET writes to the levels the process gives,
 * in the calling thread, and then (UDRV_IRQ_SET_WAIT) waits for the next
 * edge: a responder's reply and its next wait in one call, the reply a
 * plain gpiod_set_raw_value_cansleep() as a kernel driver's would be.
 *
 * The chip stays safe while bound: 6.1 has no refcounted gpio_device a
 * module can reach (struct gpio_device is gpiolib's), so the file holds
 * the chip's driver module (try_module_get) and its parent device
 * (get_device), and a notifier on the parent's bus tears the binding down
 * when the parent's driver is about to be unbound (BUS_NOTIFY_UNBIND_DRIVER,
 * before the driver's remove() takes the chip away): the interrupt and
 * the line are given back while the chip is still there, the reader gets
 * -ENODEV, and close() touches nothing of the chip's.
 *
 * The misc device /dev/udrv-irq (mode 0600: a udev rule gives it to a
 * group, docs/api.md); the uapi header <udrv/udrv-irq.h>
 * (kernel/include/uapi/udrv/udrv-irq.h) says what a file does.
 */

#include <linux/device.h>
#include <linux/fs.h>
#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/gpio/machine.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/rcuwait.h>
#include <linux/seqlock.h>
#include <linux/uaccess.h>
#include <linux/version.h>

#include <udrv-kmod/gpiochip.h>
#include <udrv/udrv-irq.h>

#define UDRV_IRQ_NAME	"udrv-irq"

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

/*
 * PREEMPT_RT: chips whose ->get() takes no sleeping lock (a plain register
 * read, or a raw spinlock), by their parent's driver name: the level may be
 * read in the hard irq handler. On RT a spinlock_t is a sleeping lock, and a
 * chip marked "cannot sleep" may still take one in ->get(); the level of
 * any other chip is read in read(), in process context, and the event says
 * so (UDRV_IRQ_EV_LEVEL_LATE). Without PREEMPT_RT every chip that cannot
 * sleep is read in the handler. Add a driver only after reading its ->get().
 */
static const char *const udrv_irq_rt_safe[] = {
	"gpio-wire",		/* rig/kernel/gpio-wire: raw_spinlock_t */
	"pinctrl-bcm2835",	/* bcm2835_gpio_get(): one readl() */
	"pl061_gpio",		/* pl061_get_value(): one readb() */
	"basic-mmio-gpio",	/* gpio-mmio's bgpio_get(): one read */
};

/* Every level read in read(), for a chip one does not trust (and for the
 * lab's test of that path): taken at the bind. */
static bool level_in_read;
module_param(level_in_read, bool, 0644);
MODULE_PARM_DESC(level_in_read,
		 "read every line's level in read(), in process context, never in the hard irq handler (events flagged UDRV_IRQ_EV_LEVEL_LATE); default N: in the handler where that is safe");

static bool udrv_irq_level_in_handler(struct gpio_chip *gc)
{
	const char *drv;

	if (gc->can_sleep || READ_ONCE(level_in_read))
		return false;
	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		return true;
	drv = gc->parent && gc->parent->driver ? gc->parent->driver->name : NULL;
	if (!drv)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(udrv_irq_rt_safe); i++)
		if (!strcmp(drv, udrv_irq_rt_safe[i]))
			return true;
	return false;
}

/* ---- the handler ------------------------------------------------------ */

static irqreturn_t udrv_irq_edge(int irq, void *data)
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

/* ---- giving back ------------------------------------------------------ */

/* Give back the interrupt, the line and the chip's driver; @f->lock held,
 * the chip still there. */
static void udrv_irq_unbind(struct udrv_irq_file *f, enum udrv_irq_state to)
{
	if (f->state != UDRV_IRQ_BOUND)
		return;
	if (f->desc) {
		free_irq(f->irq, f);	/* waits for a handler running */
		gpiochip_free_own_desc(f->desc);
	}
	while (f->nout)
		gpiochip_free_own_desc(f->out[--f->nout]);
	module_put(f->gc->owner);
	f->desc = NULL;
	f->gc = NULL;
	WRITE_ONCE(f->state, to);
}

/*
 * The parent's driver is about to be unbound (sysfs unbind, the device
 * deleted): the chip goes with it. Called with the parent's device lock
 * held, before the driver's remove(): the chip is still there.
 */
static int udrv_irq_bus_event(struct notifier_block *nb, unsigned long action,
			      void *data)
{
	struct udrv_irq_file *f = container_of(nb, struct udrv_irq_file, nb);

	if (action != BUS_NOTIFY_UNBIND_DRIVER || data != f->parent)
		return NOTIFY_DONE;
	mutex_lock(&f->lock);
	if (f->state == UDRV_IRQ_BOUND) {
		pr_info(UDRV_IRQ_NAME ": %s: its chip is going away (%s unbound): the line and its interrupt given back, the reader gets ENODEV\n",
			f->name, dev_name(f->parent));
		udrv_irq_unbind(f, UDRV_IRQ_GONE);
	}
	mutex_unlock(&f->lock);
	rcuwait_wake_up(&f->wait);
	return NOTIFY_OK;
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

static ssize_t udrv_irq_read(struct file *file, char __user *buf, size_t len,
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
static long udrv_irq_set(struct file *file, struct udrv_irq_set __user *arg)
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

static unsigned long udrv_irq_trigger(u32 flags)
{
	return (flags & UDRV_IRQ_RISING ? IRQF_TRIGGER_RISING : 0) |
	       (flags & UDRV_IRQ_FALLING ? IRQF_TRIGGER_FALLING : 0);
}

/* The label of whoever holds line @offset of @gc into @b->holder. */
static void udrv_irq_holder(struct gpio_chip *gc, unsigned int offset,
			    struct udrv_irq_line *b)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	char *label = gpiochip_dup_line_label(gc, offset);

	if (!IS_ERR_OR_NULL(label))
		strscpy(b->holder, label, sizeof(b->holder));
	if (!IS_ERR(label))
		kfree(label);
#else
	/* 6.1 gives the holder's pointer: copied at once (a holder letting go
	 * meanwhile makes the name stale, never the line ours) */
	const char *label = gpiochip_is_requested(gc, offset);

	if (label)
		strscpy(b->holder, label, sizeof(b->holder));
#endif
}

/* Line @b->offset of @gc for @f with @flags, @desc; EBUSY: its holder
 * named in @b. */
static struct gpio_desc *udrv_irq_request(struct udrv_irq_file *f,
					  struct udrv_irq_line *b,
					  struct gpio_chip *gc,
					  enum gpiod_flags flags)
{
	struct gpio_desc *desc;

	if (b->offset >= gc->ngpio)
		return ERR_PTR(-EINVAL);
	desc = gpiochip_request_own_desc(gc, b->offset, f->consumer,
					 GPIO_LOOKUP_FLAGS_DEFAULT, flags);
	if (IS_ERR(desc) && PTR_ERR(desc) == -EBUSY)
		udrv_irq_holder(gc, b->offset, b);
	return desc;
}

/* The file's input: line @b->offset of @gc with its interrupt; @f->lock
 * not held, the parent's device lock held (no unbind meanwhile). */
static int udrv_irq_take_input(struct udrv_irq_file *f, struct udrv_irq_line *b,
			       struct gpio_chip *gc)
{
	struct gpio_desc *desc;
	int ret;

	if (f->desc)
		return -EBUSY;		/* one input a file */
	desc = udrv_irq_request(f, b, gc, GPIOD_IN);
	if (IS_ERR(desc))
		return PTR_ERR(desc);
	f->irq = gpiod_to_irq(desc);
	ret = f->irq < 0 ? f->irq : 0;
	snprintf(f->name, sizeof(f->name), UDRV_IRQ_ACTION_FMT, b->chip,
		 b->offset);
	f->level_in_handler = udrv_irq_level_in_handler(gc);
	WRITE_ONCE(f->desc, desc);	/* before the handler can run */
	if (!ret)
		ret = request_irq(f->irq, udrv_irq_edge,
				  udrv_irq_trigger(b->flags) | IRQF_NO_THREAD,
				  f->name, f);
	if (ret) {
		pr_info(UDRV_IRQ_NAME ": line %u of %s: cannot take its interrupt %d: %pe%s\n",
			b->offset, b->chip, f->irq, ERR_PTR(ret),
			ret == -EBUSY ? " (taken: by a kernel driver, without the line)" :
			ret == -EINVAL ? " (a chip whose interrupts are threads: behind I2C or SPI)" : "");
		WRITE_ONCE(f->desc, NULL);
		gpiochip_free_own_desc(desc);
		return ret;
	}
	return 0;
}

/* The file's next output: line @b->offset of @gc at its first level; the
 * parent's device lock held. */
static int udrv_irq_take_output(struct udrv_irq_file *f, struct udrv_irq_line *b,
				struct gpio_chip *gc)
{
	struct gpio_desc *desc;

	if (f->nout == UDRV_IRQ_OUTPUTS_MAX)
		return -ENOSPC;
	desc = udrv_irq_request(f, b, gc, b->flags & UDRV_IRQ_HIGH ?
				GPIOD_OUT_HIGH : GPIOD_OUT_LOW);
	if (IS_ERR(desc))
		return PTR_ERR(desc);
	mutex_lock(&f->lock);		/* UDRV_IRQ_SET reads them under it */
	f->out[f->nout++] = desc;
	mutex_unlock(&f->lock);
	return 0;
}

static int udrv_irq_take(struct udrv_irq_file *f, struct udrv_irq_line *b,
			 struct gpio_chip *gc)
{
	return b->flags & UDRV_IRQ_OUTPUT ? udrv_irq_take_output(f, b, gc) :
	       udrv_irq_take_input(f, b, gc);
}

/* Chip @label, its driver held, its parent referenced (taken while the
 * chip was surely there, under gpiolib's lock) into @f->parent; NULL: none
 * (or its driver leaving, or it has no parent device). */
static struct gpio_chip *udrv_irq_find(struct udrv_irq_file *f,
				       const char *label)
{
	return udrv_kchip_find_parent(label, udrv_kchip_label_is, &f->parent);
}

/* Whether @gc is still chip @label: the parent's device lock held. */
static bool udrv_irq_still(struct gpio_chip *gc, const char *label)
{
	struct gpio_chip *now = udrv_kchip_find(label, udrv_kchip_label_is);

	if (now)
		module_put(now->owner);
	return now == gc;
}

/* Take the line with the chip's parent's driver locked in place. */
static int udrv_irq_bind_chip(struct udrv_irq_file *f, struct udrv_irq_line *b)
{
	struct gpio_chip *gc = udrv_irq_find(f, b->chip);
	int ret;

	if (!gc)
		return -ENODEV;
	/* the notifier goes in before the device lock is taken: an unbind
	 * under way holds that lock while it calls the notifiers */
	f->bus = f->parent->bus;
	f->nb.notifier_call = udrv_irq_bus_event;
	ret = f->bus ? bus_register_notifier(f->bus, &f->nb) : -ENODEV;
	if (ret) {
		f->bus = NULL;
		goto put;
	}
	device_lock(f->parent);
	/* still bound, and still this chip: an unbind that came first has
	 * removed it (its driver's module held, the chip's memory not) */
	ret = -ENODEV;
	if (f->parent->driver && udrv_irq_still(gc, b->chip))
		ret = udrv_irq_take(f, b, gc);
	if (!ret) {
		mutex_lock(&f->lock);
		f->gc = gc;
		strscpy(f->label, b->chip, sizeof(f->label));
		WRITE_ONCE(f->state, UDRV_IRQ_BOUND);
		mutex_unlock(&f->lock);
	}
	device_unlock(f->parent);
	if (!ret)
		return 0;
put:
	module_put(gc->owner);
	return ret;
}

/* The caller's struct, whatever its version: 0, or the errno to return
 * after @b's version and size are written back. */
static int udrv_irq_line_in(struct udrv_irq_line *b, void __user *arg)
{
	u32 head[2];

	if (copy_from_user(head, arg, sizeof(head)))
		return -EFAULT;
	if (head[0] != UDRV_IRQ_VERSION || head[1] != sizeof(*b))
		return -EPROTONOSUPPORT;
	if (copy_from_user(b, arg, sizeof(*b)))
		return -EFAULT;
	return 0;
}

static int udrv_irq_line_check(const struct udrv_irq_line *b)
{
	u32 edges = UDRV_IRQ_RISING | UDRV_IRQ_FALLING;
	bool input = b->flags == (UDRV_IRQ_INPUT | (b->flags & edges)) &&
		     (b->flags & edges);
	bool output = b->flags == (UDRV_IRQ_OUTPUT | (b->flags & UDRV_IRQ_HIGH));

	if (!(input || output) || memchr_inv(b->reserved, 0, sizeof(b->reserved)) ||
	    !b->chip[0] || strnlen(b->chip, sizeof(b->chip)) == sizeof(b->chip))
		return -EINVAL;
	return 0;
}

/* Another line of the bound chip: under the parent's device lock, while
 * the chip is still there. */
static int udrv_irq_bind_more(struct udrv_irq_file *f, struct udrv_irq_line *b)
{
	int ret = -ENODEV;

	if (strcmp(b->chip, f->label))
		return -EXDEV;		/* one chip a file */
	device_lock(f->parent);
	if (f->parent->driver && READ_ONCE(f->state) == UDRV_IRQ_BOUND)
		ret = udrv_irq_take(f, b, f->gc);
	device_unlock(f->parent);
	return ret;
}

/* The first bind takes the chip with its line, a later one another line
 * of it; @f->bind_lock held. */
static int udrv_irq_bind_locked(struct udrv_irq_file *f, struct udrv_irq_line *b)
{
	enum udrv_irq_state state;
	int ret;

	mutex_lock(&f->lock);
	state = f->state;
	if (state == UDRV_IRQ_UNBOUND)
		f->state = UDRV_IRQ_BINDING;
	mutex_unlock(&f->lock);
	if (state == UDRV_IRQ_BOUND)
		return udrv_irq_bind_more(f, b);
	if (state != UDRV_IRQ_UNBOUND)
		return -EBUSY;		/* gone: this file is spent */
	ret = udrv_irq_bind_chip(f, b);
	if (ret) {
		if (f->bus)
			bus_unregister_notifier(f->bus, &f->nb);
		put_device(f->parent);
		f->bus = NULL;
		f->parent = NULL;
		mutex_lock(&f->lock);
		f->state = UDRV_IRQ_UNBOUND;
		mutex_unlock(&f->lock);
	}
	return ret;
}

static long udrv_irq_bind(struct udrv_irq_file *f, void __user *arg)
{
	struct udrv_irq_line b;
	int ret = udrv_irq_line_in(&b, arg);

	if (ret == -EPROTONOSUPPORT) {
		u32 ours[2] = { UDRV_IRQ_VERSION, sizeof(b) };

		return copy_to_user(arg, ours, sizeof(ours)) ? -EFAULT : ret;
	}
	if (!ret)
		ret = udrv_irq_line_check(&b);
	if (ret)
		return ret;
	memset(b.holder, 0, sizeof(b.holder));
	mutex_lock(&f->bind_lock);
	ret = udrv_irq_bind_locked(f, &b);
	mutex_unlock(&f->bind_lock);
	if (ret == -EBUSY &&
	    copy_to_user(arg + offsetof(struct udrv_irq_line, holder),
			 b.holder, sizeof(b.holder)))
		return -EFAULT;
	return ret;
}
static long udrv_irq_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	if (cmd == UDRV_IRQ_BIND_V1) {
		pr_info_ratelimited(UDRV_IRQ_NAME ": %s[%d] binds the 1.5 way (UDRV_IRQ_BIND): this udrv-irq speaks interface %d: install the libudrv of the udrv-irq-dkms installed\n",
				    current->comm, task_tgid_nr(current),
				    UDRV_IRQ_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (_IOC_TYPE(cmd) != UDRV_IRQ_IOC_MAGIC)
		return -ENOTTY;
	/* any size: a struct of another version gets our version back */
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(UDRV_IRQ_BIND_LINE):
		return udrv_irq_bind(file->private_data, (void __user *)arg);
	case _IOC_NR(UDRV_IRQ_SET):
		return udrv_irq_set(file, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

static int udrv_irq_open(struct inode *inode, struct file *file)
{
	struct udrv_irq_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	mutex_init(&f->bind_lock);
	rcuwait_init(&f->wait);
	seqcount_init(&f->ev_seq);
	snprintf(f->consumer, sizeof(f->consumer), UDRV_IRQ_CONSUMER_FMT,
		 task_tgid_nr(current));
	file->private_data = f;
	return stream_open(inode, file);
}

static int udrv_irq_release(struct inode *inode, struct file *file)
{
	struct udrv_irq_file *f = file->private_data;

	/* first, without the lock the notifier takes: after this it is not
	 * running and never will */
	if (f->bus)
		bus_unregister_notifier(f->bus, &f->nb);
	mutex_lock(&f->lock);
	udrv_irq_unbind(f, UDRV_IRQ_UNBOUND);
	mutex_unlock(&f->lock);
	put_device(f->parent);		/* NULL: nothing */
	mutex_destroy(&f->bind_lock);
	mutex_destroy(&f->lock);
	kfree(f);
	return 0;
}

static const struct file_operations udrv_irq_fops = {
	.owner = THIS_MODULE,
	.open = udrv_irq_open,
	.release = udrv_irq_release,
	.read = udrv_irq_read,
	.unlocked_ioctl = udrv_irq_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static struct miscdevice udrv_irq_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = UDRV_IRQ_NAME,
	.fops = &udrv_irq_fops,
	.mode = 0600,
};

module_misc_device(udrv_irq_dev);

MODULE_DESCRIPTION("A GPIO line's interrupt delivered from the hard irq handler to the waiting thread (udrv's responder helper)");
MODULE_AUTHOR("udrv");
MODULE_LICENSE("GPL");
