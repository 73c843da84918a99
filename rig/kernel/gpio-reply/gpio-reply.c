// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpio-reply - a kernel responder: C = !B on every edge of B
 *
 * The inverter of a userspace-IRQ-latency experiment (Featherston, TS-4200)
 * and the interrupt-handler and kernel-task responders of a log host +
 * target measurement (Grandegger, gpioirqbench; both in docs/references.md),
 * as a module: on every edge of the input line B it writes the inverse of
 * B's level to the output line C. A log host that
 * drives B (through a wire) and watches C (through another) measures the
 * trigger-to-reply latency of the kernel's responder.
 *
 * Configured at run time through its platform device,
 * /sys/devices/platform/gpio-reply/:
 *   chip      the gpiochip's label (default "gpio-wire")
 *   in, out   the offsets of B and C (default 5 and 6)
 *   mode      off | isr | kthread. isr: the reply from the hard interrupt
 *             handler (IRQF_NO_THREAD: hard also on PREEMPT_RT); kthread:
 *             from the kernel's irq thread (request_threaded_irq with no
 *             primary handler, IRQF_ONESHOT: irq/N-gpio-reply).
 *             The lines are requested as the module's own (consumer
 *             "gpio-reply-in" / "gpio-reply-out") while the mode is not
 *             off, and given back when it goes to off.
 *   counts    "EDGES REPLIES": handler runs and replies written since load
 *   last      "SEQ T_ENTRY T_REPLY": the last edge's number (= EDGES at
 *             the time), the handler's entry and the time just before the
 *             reply's write, ktime_get_ns() (CLOCK_MONOTONIC)
 * chip, in and out can only be changed while the mode is off (EBUSY).
 */

#include <linux/device.h>
#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/gpio/machine.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include <udrv-kmod/gpiochip.h>

#define REPLY_NAME	"gpio-reply"
#define REPLY_CHIP_LEN	64

enum reply_mode { REPLY_OFF, REPLY_ISR, REPLY_KTHREAD };

static const char *const reply_mode_names[] = {
	[REPLY_OFF] = "off",
	[REPLY_ISR] = "isr",
	[REPLY_KTHREAD] = "kthread",
};

struct gpio_reply {
	struct mutex lock;		/* configuration and mode changes */
	char chip[REPLY_CHIP_LEN];
	unsigned int in, out;
	enum reply_mode mode;
	/* while mode != off */
	struct gpio_chip *gc;
	struct gpio_desc *din, *dout;
	int irq;
	/* the source's own counts, under stat_lock */
	raw_spinlock_t stat_lock;
	u64 edges, replies;
	u64 last_seq, last_entry, last_reply;
};

static struct gpio_reply reply_state;
static struct platform_device *reply_pdev;

/* ---- the responder --------------------------------------------------- */

static irqreturn_t reply_edge(int irq, void *data)
{
	struct gpio_reply *r = data;
	u64 t_entry = ktime_get_ns(), t_reply, seq;
	unsigned long flags;
	int level;

	level = gpiod_get_value(r->din);
	if (level >= 0) {
		t_reply = ktime_get_ns();
		gpiod_set_value(r->dout, !level);
	}
	raw_spin_lock_irqsave(&r->stat_lock, flags);
	seq = ++r->edges;
	if (level >= 0) {
		r->replies++;
		r->last_seq = seq;
		r->last_entry = t_entry;
		r->last_reply = t_reply;
	}
	raw_spin_unlock_irqrestore(&r->stat_lock, flags);
	return IRQ_HANDLED;
}

/* ---- finding the chip and taking the lines ---------------------------- */

static int reply_take(struct gpio_reply *r, unsigned int off, const char *who,
		      enum gpiod_flags flags, struct gpio_desc **desc)
{
	*desc = gpiochip_request_own_desc(r->gc, off, who, GPIO_ACTIVE_HIGH,
					  flags);
	if (!IS_ERR(*desc))
		return 0;
	pr_err(REPLY_NAME ": cannot take line %u of %s as %s: %pe%s\n", off,
	       r->chip, who, *desc, PTR_ERR(*desc) == -EBUSY ?
	       " (held by another user: see 'udrv gpio info')" : "");
	return PTR_ERR(*desc);
}

static int reply_request_irq(struct gpio_reply *r, enum reply_mode mode)
{
	unsigned long both = IRQF_TRIGGER_RISING | IRQF_TRIGGER_FALLING;

	r->irq = gpiod_to_irq(r->din);
	if (r->irq < 0)
		return r->irq;
	if (mode == REPLY_KTHREAD)
		return request_threaded_irq(r->irq, NULL, reply_edge,
					    both | IRQF_ONESHOT, REPLY_NAME, r);
	return request_irq(r->irq, reply_edge, both | IRQF_NO_THREAD,
			   REPLY_NAME, r);
}

/* Take the chip, B, C (driving !B) and B's interrupt; lock held. */
static int reply_start(struct gpio_reply *r, enum reply_mode mode)
{
	int ret, level;

	if (r->in == r->out)
		return -EINVAL;
	r->gc = udrv_kchip_find(r->chip, udrv_kchip_label_is);
	if (!r->gc) {
		pr_err(REPLY_NAME ": no gpiochip labelled \"%s\"\n", r->chip);
		return -ENODEV;
	}
	ret = reply_take(r, r->in, "gpio-reply-in", GPIOD_IN, &r->din);
	if (ret)
		goto err_chip;
	level = gpiod_get_value_cansleep(r->din);
	ret = reply_take(r, r->out, "gpio-reply-out",
			 level > 0 ? GPIOD_OUT_LOW : GPIOD_OUT_HIGH, &r->dout);
	if (ret)
		goto err_in;
	ret = reply_request_irq(r, mode);
	if (ret) {
		pr_err(REPLY_NAME ": cannot request the interrupt of line %u of %s: %pe\n",
		       r->in, r->chip, ERR_PTR(ret));
		goto err_out;
	}
	r->mode = mode;
	return 0;

err_out:
	gpiochip_free_own_desc(r->dout);
err_in:
	gpiochip_free_own_desc(r->din);
err_chip:
	module_put(r->gc->owner);
	r->gc = NULL;
	return ret;
}

/* Give everything back; lock held. */
static void reply_stop(struct gpio_reply *r)
{
	if (r->mode == REPLY_OFF)
		return;
	free_irq(r->irq, r);
	gpiochip_free_own_desc(r->dout);
	gpiochip_free_own_desc(r->din);
	module_put(r->gc->owner);
	r->gc = NULL;
	r->mode = REPLY_OFF;
}

/* ---- sysfs ------------------------------------------------------------ */

static ssize_t mode_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct gpio_reply *r = &reply_state;

	return sysfs_emit(buf, "%s\n", reply_mode_names[READ_ONCE(r->mode)]);
}

static ssize_t mode_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	struct gpio_reply *r = &reply_state;
	int mode = sysfs_match_string(reply_mode_names, buf);
	int ret = 0;

	if (mode < 0)
		return mode;
	mutex_lock(&r->lock);
	if (mode != r->mode) {
		reply_stop(r);
		if (mode != REPLY_OFF)
			ret = reply_start(r, mode);
	}
	mutex_unlock(&r->lock);
	return ret ? ret : len;
}
static DEVICE_ATTR_RW(mode);

static ssize_t chip_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct gpio_reply *r = &reply_state;
	ssize_t n;

	mutex_lock(&r->lock);
	n = sysfs_emit(buf, "%s\n", r->chip);
	mutex_unlock(&r->lock);
	return n;
}

static ssize_t chip_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t len)
{
	struct gpio_reply *r = &reply_state;
	size_t n = strcspn(buf, "\n");
	int ret = 0;

	if (!n || n >= REPLY_CHIP_LEN)
		return -EINVAL;
	mutex_lock(&r->lock);
	if (r->mode != REPLY_OFF)
		ret = -EBUSY;
	else
		strscpy(r->chip, buf, n + 1);
	mutex_unlock(&r->lock);
	return ret ? ret : len;
}
static DEVICE_ATTR_RW(chip);

static ssize_t reply_line_show(unsigned int *line, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(*line));
}

static ssize_t reply_line_store(unsigned int *line, const char *buf,
				size_t len)
{
	struct gpio_reply *r = &reply_state;
	unsigned int v;
	int ret = kstrtouint(buf, 10, &v);

	if (ret)
		return ret;
	mutex_lock(&r->lock);
	if (r->mode != REPLY_OFF)
		ret = -EBUSY;
	else
		WRITE_ONCE(*line, v);
	mutex_unlock(&r->lock);
	return ret ? ret : len;
}

static ssize_t in_show(struct device *dev, struct device_attribute *attr,
		       char *buf)
{
	return reply_line_show(&reply_state.in, buf);
}

static ssize_t in_store(struct device *dev, struct device_attribute *attr,
			const char *buf, size_t len)
{
	return reply_line_store(&reply_state.in, buf, len);
}
static DEVICE_ATTR_RW(in);

static ssize_t out_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return reply_line_show(&reply_state.out, buf);
}

static ssize_t out_store(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t len)
{
	return reply_line_store(&reply_state.out, buf, len);
}
static DEVICE_ATTR_RW(out);

static ssize_t counts_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct gpio_reply *r = &reply_state;
	unsigned long flags;
	u64 e, n;

	raw_spin_lock_irqsave(&r->stat_lock, flags);
	e = r->edges;
	n = r->replies;
	raw_spin_unlock_irqrestore(&r->stat_lock, flags);
	return sysfs_emit(buf, "%llu %llu\n", e, n);
}
static DEVICE_ATTR_RO(counts);

static ssize_t last_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct gpio_reply *r = &reply_state;
	unsigned long flags;
	u64 s, a, b;

	raw_spin_lock_irqsave(&r->stat_lock, flags);
	s = r->last_seq;
	a = r->last_entry;
	b = r->last_reply;
	raw_spin_unlock_irqrestore(&r->stat_lock, flags);
	return sysfs_emit(buf, "%llu %llu %llu\n", s, a, b);
}
static DEVICE_ATTR_RO(last);

static struct attribute *reply_attrs[] = {
	&dev_attr_mode.attr,
	&dev_attr_chip.attr,
	&dev_attr_in.attr,
	&dev_attr_out.attr,
	&dev_attr_counts.attr,
	&dev_attr_last.attr,
	NULL,
};
ATTRIBUTE_GROUPS(reply);

/* ---- module ----------------------------------------------------------- */

static int __init gpio_reply_init(void)
{
	struct gpio_reply *r = &reply_state;

	mutex_init(&r->lock);
	raw_spin_lock_init(&r->stat_lock);
	strscpy(r->chip, "gpio-wire", sizeof(r->chip));
	r->in = 5;
	r->out = 6;
	reply_pdev = platform_device_register_simple(REPLY_NAME, -1, NULL, 0);
	if (IS_ERR(reply_pdev))
		return PTR_ERR(reply_pdev);
	if (device_add_groups(&reply_pdev->dev, reply_groups)) {
		platform_device_unregister(reply_pdev);
		return -ENOMEM;
	}
	return 0;
}
module_init(gpio_reply_init);

static void __exit gpio_reply_exit(void)
{
	struct gpio_reply *r = &reply_state;

	device_remove_groups(&reply_pdev->dev, reply_groups);
	mutex_lock(&r->lock);
	reply_stop(r);
	mutex_unlock(&r->lock);
	platform_device_unregister(reply_pdev);
}
module_exit(gpio_reply_exit);

MODULE_DESCRIPTION("GPIO responder: C = !B on every edge of B, from the hard irq or the irq thread");
MODULE_AUTHOR("udrv");
MODULE_LICENSE("GPL");
