// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-irq - a GPIO line's interrupt, straight to the thread that waits
 *
 * The smallest kernel helper for a userspace responder (libudrv's
 * UDRV_RESPOND_IRQ): what UIO is for a device's interrupt, for one GPIO
 * line, without the interrupt thread that a character-device edge event
 * goes through. The handler runs in hard interrupt context on every
 * kernel, PREEMPT_RT included (IRQF_NO_THREAD), takes the time and the
 * line's level, counts the edge and wakes the reader through a simple wait
 * queue (raw spinlocks: allowed in hard irq context on PREEMPT_RT). The
 * waiting thread runs next; nothing else is scheduled in between.
 *
 * The misc device /dev/udrv-irq (mode 0600: a udev rule gives it to a
 * group, docs/api.md); one open file watches one line, as the uapi header
 * <udrv/udrv-irq.h> (kernel/include/uapi/udrv/udrv-irq.h) says.
 */

#include <linux/fs.h>
#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/swait.h>
#include <linux/uaccess.h>

#include <udrv-kmod/gpiochip.h>
#include <udrv/udrv-irq.h>

#define UDRV_IRQ_NAME	"udrv-irq"

struct udrv_irq_file {
	struct mutex lock;		/* the bind */
	struct gpio_chip *gc;		/* bound: the chip, its driver held */
	struct gpio_desc *desc;
	int irq;
	bool can_sleep;			/* the level cannot be read in the handler */
	char name[64];			/* the handler's name, /proc/interrupts */
	struct swait_queue_head wq;
	raw_spinlock_t ev_lock;
	struct udrv_irq_event ev;	/* the newest edge */
	u32 seen;			/* the seqno the reader had last */
};

/* ---- the handler ------------------------------------------------------ */

static irqreturn_t udrv_irq_edge(int irq, void *data)
{
	struct udrv_irq_file *f = data;
	u64 t = ktime_get_ns();
	int level = f->can_sleep ? -1 : gpiod_get_raw_value(f->desc);
	unsigned long flags;

	raw_spin_lock_irqsave(&f->ev_lock, flags);
	f->ev.seqno++;
	f->ev.timestamp_ns = t;
	f->ev.level = level < 0 ? -1 : !!level;
	raw_spin_unlock_irqrestore(&f->ev_lock, flags);
	swake_up_one(&f->wq);
	return IRQ_HANDLED;
}

/* ---- the file --------------------------------------------------------- */

/* The newest edge into @ev; whether the reader has not seen it. */
static bool udrv_irq_newer(struct udrv_irq_file *f, struct udrv_irq_event *ev)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&f->ev_lock, flags);
	*ev = f->ev;
	raw_spin_unlock_irqrestore(&f->ev_lock, flags);
	return ev->seqno != READ_ONCE(f->seen);
}

static ssize_t udrv_irq_read(struct file *file, char __user *buf, size_t len,
			     loff_t *pos)
{
	struct udrv_irq_file *f = file->private_data;
	struct udrv_irq_event ev;
	int ret;

	if (len < sizeof(ev))
		return -EINVAL;
	if (!smp_load_acquire(&f->gc))
		return -ENOTCONN;	/* no UDRV_IRQ_BIND yet */
	if (file->f_flags & O_NONBLOCK) {
		if (!udrv_irq_newer(f, &ev))
			return -EAGAIN;
	} else {
		ret = swait_event_interruptible_exclusive(f->wq,
							  udrv_irq_newer(f, &ev));
		if (ret)
			return ret;
	}
	WRITE_ONCE(f->seen, ev.seqno);
	if (copy_to_user(buf, &ev, sizeof(ev)))
		return -EFAULT;
	return sizeof(ev);
}

static unsigned long udrv_irq_trigger(u32 flags)
{
	return (flags & UDRV_IRQ_RISING ? IRQF_TRIGGER_RISING : 0) |
	       (flags & UDRV_IRQ_FALLING ? IRQF_TRIGGER_FALLING : 0);
}

/* The chip's line @b->offset and its interrupt, for @f; lock held. */
static int udrv_irq_take(struct udrv_irq_file *f, const struct udrv_irq_bind *b,
			 struct gpio_chip *gc)
{
	int ret;

	if (b->offset >= gc->ngpio)
		return -EINVAL;
	/* the line's descriptor by its global number: no request of our own,
	 * the line stays the process's (gpiochip_get_desc() is gpiolib's) */
	f->desc = gpio_to_desc(gc->base + b->offset);
	if (!f->desc)
		return -ENODEV;
	f->irq = gpiod_to_irq(f->desc);
	if (f->irq < 0)
		return f->irq;
	f->can_sleep = gc->can_sleep;
	snprintf(f->name, sizeof(f->name), UDRV_IRQ_ACTION_FMT, b->chip,
		 b->offset);
	ret = request_irq(f->irq, udrv_irq_edge,
			  udrv_irq_trigger(b->flags) | IRQF_NO_THREAD, f->name, f);
	if (ret)
		pr_info(UDRV_IRQ_NAME ": line %u of %s: cannot take its interrupt %d: %pe%s\n",
			b->offset, b->chip, f->irq, ERR_PTR(ret),
			ret == -EBUSY ? " (taken: a request with edge detection holds it)" :
			ret == -EINVAL ? " (a chip whose interrupts are threads: behind I2C or SPI)" : "");
	return ret;
}

static long udrv_irq_bind(struct udrv_irq_file *f, void __user *arg)
{
	struct udrv_irq_bind b;
	struct gpio_chip *gc;
	int ret;

	if (copy_from_user(&b, arg, sizeof(b)))
		return -EFAULT;
	if (!b.flags || b.flags & ~(UDRV_IRQ_RISING | UDRV_IRQ_FALLING) ||
	    !b.chip[0] || strnlen(b.chip, sizeof(b.chip)) == sizeof(b.chip))
		return -EINVAL;
	mutex_lock(&f->lock);
	ret = -EBUSY;
	if (f->gc)
		goto out;
	ret = -ENODEV;
	gc = udrv_kchip_find(b.chip, udrv_kchip_label_is);
	if (!gc)
		goto out;
	ret = udrv_irq_take(f, &b, gc);
	if (ret)
		module_put(gc->owner);
	else
		smp_store_release(&f->gc, gc);
out:
	mutex_unlock(&f->lock);
	return ret;
}

static long udrv_irq_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	if (cmd != UDRV_IRQ_BIND)
		return -ENOTTY;
	return udrv_irq_bind(file->private_data, (void __user *)arg);
}

static int udrv_irq_open(struct inode *inode, struct file *file)
{
	struct udrv_irq_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	init_swait_queue_head(&f->wq);
	raw_spin_lock_init(&f->ev_lock);
	file->private_data = f;
	return stream_open(inode, file);
}

static int udrv_irq_release(struct inode *inode, struct file *file)
{
	struct udrv_irq_file *f = file->private_data;

	if (f->gc) {
		free_irq(f->irq, f);
		module_put(f->gc->owner);
	}
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
