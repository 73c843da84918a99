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
 *
 * This file is the device file itself (open, ioctl, release); bind.c takes
 * and gives back the lines, event.c handles the edge and the wait.
 */

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcuwait.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/slab.h>

#include "udrv-irq.h"

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
