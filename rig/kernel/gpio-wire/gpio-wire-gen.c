// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpio-wire's generator, for udrv-bench rate: gen_* attributes on the
 * platform device (docs/rig/kernel-modules.md).
 */

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/version.h>

#include "gpio-wire.h"

/*
 * The generator: a hard hrtimer that toggles the wire of input gen_line
 * every gen_period_ns, as a signal generator clipped onto the input pin
 * would (the level seen there flips; line gen_line - 1 does not know). The
 * edge goes the same way as a driven one: counted in DRIVEN, subject to
 * drop_every, latched and raised by the hard irq_work. gen_edges counts the
 * edges made (dropped ones too), gen_masked those made while the line's
 * interrupt was masked (none raised: a threaded handler's oneshot mask, or
 * no consumer), gen_overruns the periods the timer missed. gen_limit bounds
 * a start: after that many edges the generator stops by itself, so that a
 * rate the CPU cannot take (the timer's and the edges' hard interrupts
 * leaving no time to the task that would stop it) ends anyway.
 */
static enum hrtimer_restart gpio_wire_gen_fire(struct hrtimer *t)
{
	struct gpio_wire *w = container_of(t, struct gpio_wire, gen_timer);
	unsigned int in = w->gen_line;
	u64 missed;
	bool edge, done;
	int level;

	missed = hrtimer_forward_now(t, ns_to_ktime(w->gen_period_ns));
	raw_spin_lock(&w->lock);
	w->gen_overruns += missed - 1;
	level = !test_bit(in - 1, w->wire);
	assign_bit(in - 1, w->wire, level);
	w->driven[in]++;
	w->gen_edges++;
	if (!test_bit(in, w->unmasked))
		w->gen_masked++;
	edge = gpio_wire_latch_edge(w, in, level);
	done = w->gen_limit && ++w->gen_run >= w->gen_limit;
	if (done)
		w->gen_period_ns = 0;	/* stopped by itself */
	raw_spin_unlock(&w->lock);
	if (edge)
		irq_work_queue(&w->work);
	return done ? HRTIMER_NORESTART : HRTIMER_RESTART;
}

void gpio_wire_gen_init(struct gpio_wire *w)
{
	mutex_init(&w->gen_cfg);
	w->gen_line = 1;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&w->gen_timer, gpio_wire_gen_fire, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_HARD);
#else
	hrtimer_init(&w->gen_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	w->gen_timer.function = gpio_wire_gen_fire;
#endif
}

#define GPIO_WIRE_GEN_MIN_NS	1000ULL
#define GPIO_WIRE_GEN_MAX_NS	1000000000ULL

static ssize_t gen_period_ns_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	struct gpio_wire *w = dev_get_drvdata(dev);
	u64 ns;
	int ret = kstrtou64(buf, 0, &ns);

	if (ret)
		return ret;
	if (ns && (ns < GPIO_WIRE_GEN_MIN_NS || ns > GPIO_WIRE_GEN_MAX_NS))
		return -ERANGE;
	mutex_lock(&w->gen_cfg);
	hrtimer_cancel(&w->gen_timer);
	w->gen_period_ns = ns;
	w->gen_run = 0;
	if (ns)
		hrtimer_start(&w->gen_timer, ktime_add_ns(ktime_get(), ns),
			      HRTIMER_MODE_ABS_HARD);
	mutex_unlock(&w->gen_cfg);
	return count;
}

static ssize_t gen_line_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	struct gpio_wire *w = dev_get_drvdata(dev);
	unsigned int line;
	int ret = kstrtouint(buf, 0, &line);

	if (ret)
		return ret;
	if (!gpio_wire_is_input_only(line) || line >= w->gc.ngpio)
		return -EINVAL;		/* an input line: odd, on the chip */
	mutex_lock(&w->gen_cfg);
	if (w->gen_period_ns)
		ret = -EBUSY;		/* stop the generator first */
	else
		w->gen_line = line;
	mutex_unlock(&w->gen_cfg);
	return ret ? ret : count;
}

static ssize_t gen_limit_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t count)
{
	struct gpio_wire *w = dev_get_drvdata(dev);
	unsigned long flags;
	u64 n;
	int ret = kstrtou64(buf, 0, &n);

	if (ret)
		return ret;
	mutex_lock(&w->gen_cfg);
	raw_spin_lock_irqsave(&w->lock, flags);
	w->gen_limit = n;	/* from the next start of the generator */
	raw_spin_unlock_irqrestore(&w->lock, flags);
	mutex_unlock(&w->gen_cfg);
	return count;
}

/* the u64 counters, under the lock */
static ssize_t gpio_wire_gen_show(struct device *dev, char *buf,
				  const u64 *field)
{
	struct gpio_wire *w = dev_get_drvdata(dev);
	unsigned long flags;
	u64 v;

	raw_spin_lock_irqsave(&w->lock, flags);
	v = *field;
	raw_spin_unlock_irqrestore(&w->lock, flags);
	return sysfs_emit(buf, "%llu\n", v);
}

#define GPIO_WIRE_GEN_SHOW(name)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	struct gpio_wire *w = dev_get_drvdata(dev);			\
									\
	return gpio_wire_gen_show(dev, buf, &w->name);			\
}

static ssize_t gen_line_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	struct gpio_wire *w = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", READ_ONCE(w->gen_line));
}

GPIO_WIRE_GEN_SHOW(gen_period_ns)
GPIO_WIRE_GEN_SHOW(gen_limit)
GPIO_WIRE_GEN_SHOW(gen_edges)
GPIO_WIRE_GEN_SHOW(gen_masked)
GPIO_WIRE_GEN_SHOW(gen_overruns)
static DEVICE_ATTR_RW(gen_line);
static DEVICE_ATTR_RW(gen_period_ns);
static DEVICE_ATTR_RW(gen_limit);
static DEVICE_ATTR_RO(gen_edges);
static DEVICE_ATTR_RO(gen_masked);
static DEVICE_ATTR_RO(gen_overruns);

void gpio_wire_gen_stop(struct gpio_wire *w)
{
	hrtimer_cancel(&w->gen_timer);
}

static struct attribute *gpio_wire_gen_attrs[] = {
	&dev_attr_gen_line.attr,
	&dev_attr_gen_period_ns.attr,
	&dev_attr_gen_limit.attr,
	&dev_attr_gen_edges.attr,
	&dev_attr_gen_masked.attr,
	&dev_attr_gen_overruns.attr,
	NULL,
};

const struct attribute_group gpio_wire_gen_group = {
	.attrs = gpio_wire_gen_attrs,
};
