// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-irq's lines (udrv-irq.h): UDRV_IRQ_BIND_LINE requests them the way a
 * kernel driver does, with the chip's driver module held and its parent
 * referenced; udrv_irq_unbind() gives them back, also from the notifier on
 * the parent's bus when the chip is about to go.
 */
#include <linux/device.h>
#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/gpio/machine.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcuwait.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/version.h>

#include <udrv-kmod/gpiochip.h>
#include "udrv-irq.h"

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

/* ---- giving back ------------------------------------------------------ */

/* Give back the interrupt, the line and the chip's driver; @f->lock held,
 * the chip still there. */
void udrv_irq_unbind(struct udrv_irq_file *f, enum udrv_irq_state to)
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

long udrv_irq_bind(struct udrv_irq_file *f, void __user *arg)
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
