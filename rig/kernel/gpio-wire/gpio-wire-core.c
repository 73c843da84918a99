// SPDX-License-Identifier: GPL-2.0-only
/*
 * gpio-wire - a virtual GPIO chip whose lines are wired in pairs
 *
 * Line 2k ("wireK-out") is an output that drives line 2k+1 ("wireK-in"),
 * like a jumper cable between two header pins. Reading 2k+1 returns the
 * level driven by 2k; reading 2k returns its own level. Every level change
 * on 2k latches an edge for 2k+1, which is delivered asynchronously, in
 * hard interrupt context (also on PREEMPT_RT), through a real irq_chip,
 * just as a GPIO controller on a board would.
 *
 * Edges are counted per line, never merged: N changes before the interrupt
 * is serviced deliver N interrupts. Edges that do not match the configured
 * trigger type, or that happen while the interrupt is masked, are dropped.
 *
 * The source's own counts, per input line, in the platform device's "edges"
 * attribute (one line per input: "LINE DRIVEN DROPPED"): DRIVEN counts the
 * level changes put on its wire, DROPPED the edges the drop_every fault
 * injection swallowed (the level changes, no interrupt is raised). A
 * benchmark compares them with what it received and what the kernel
 * reports lost; drop_uncounted=1 hides the drops from DROPPED, a fault its
 * accounting must catch.
 *
 * The generator (gpio-wire-gen.c) toggles an input line at a set period,
 * for udrv-bench rate.
 *
 * An even line may be turned into an input: it then stops driving and its
 * partner keeps reading the level that was last driven (a bus keeper).
 * Values written while it is an input are latched and driven (raising an
 * edge if they differ) when it becomes an output again. Odd lines are
 * inputs only.
 */

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/gpio/driver.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <linux/version.h>

#include "gpio-wire.h"

#define GPIO_WIRE_NAME		"gpio-wire"

static unsigned int nlines = 8;
module_param(nlines, uint, 0444);
MODULE_PARM_DESC(nlines, "Number of lines, even, 2..64 (default 8)");

static char *label = GPIO_WIRE_NAME;
module_param(label, charp, 0444);
MODULE_PARM_DESC(label, "Label of the gpiochip (default \"gpio-wire\")");

static bool line_names = true;
module_param(line_names, bool, 0444);
MODULE_PARM_DESC(line_names,
		 "Name the lines wireK-out/wireK-in (default 1); with 0, sysfs exports them as gpioN");

static unsigned int drop_every;
module_param(drop_every, uint, 0644);
MODULE_PARM_DESC(drop_every,
		 "Fault injection: raise no interrupt for every Nth edge that would raise one (0 = off)");

static bool drop_uncounted;
module_param(drop_uncounted, bool, 0644);
MODULE_PARM_DESC(drop_uncounted,
		 "Fault injection: leave the dropped edges out of the counters (default 0)");

static unsigned int stuck_every;
module_param(stuck_every, uint, 0644);
MODULE_PARM_DESC(stuck_every,
		 "Fault injection: ignore every Nth write that would change an output's level, as a stuck driver would (nothing driven, nothing counted; 0 = off)");


static struct platform_device *gpio_wire_pdev;

/* Level seen on @offset: odd lines see their partner's wire. */
static int gpio_wire_level(struct gpio_wire *w, unsigned int offset)
{
	return test_bit(offset & ~1U, w->wire);
}

/* Latch an edge for @in if its trigger type matches; lock held. */
bool gpio_wire_latch_edge(struct gpio_wire *w, unsigned int in,
				 int level)
{
	unsigned int want = level ? IRQ_TYPE_EDGE_RISING :
				    IRQ_TYPE_EDGE_FALLING;

	unsigned int every = READ_ONCE(drop_every);

	if (w->dead || !test_bit(in, w->unmasked) || !(w->type[in] & want))
		return false;
	if (every && ++w->drop_seq % every == 0) {
		if (!READ_ONCE(drop_uncounted))
			w->dropped[in]++;
		return false;
	}
	w->pending[in]++;
	return true;
}

/* Put the level of output @out on the wire; lock held. */
static bool gpio_wire_drive(struct gpio_wire *w, unsigned int out)
{
	int level = test_bit(out, w->latch);

	if (!test_bit(out, w->is_out) || test_bit(out, w->wire) == level)
		return false;
	assign_bit(out, w->wire, level);
	w->driven[out + 1]++;
	return gpio_wire_latch_edge(w, out + 1, level);
}

/* Set the output register of even line @out and drive it; lock held. */
static bool gpio_wire_set_locked(struct gpio_wire *w, unsigned int out,
				 int value)
{
	unsigned int every = READ_ONCE(stuck_every);

	if (gpio_wire_is_input_only(out))
		return false;
	if (every && test_bit(out, w->latch) != !!value &&
	    ++w->stuck_seq % every == 0)
		return false;	/* a stuck driver: the write is lost */
	assign_bit(out, w->latch, value);
	return gpio_wire_drive(w, out);
}

static void gpio_wire_irq_work(struct irq_work *work)
{
	struct gpio_wire *w = container_of(work, struct gpio_wire, work);
	unsigned int i, n;
	unsigned long flags;

	for (i = 1; i < w->gc.ngpio; i += 2) {
		raw_spin_lock_irqsave(&w->lock, flags);
		n = w->pending[i];
		w->pending[i] = 0;
		raw_spin_unlock_irqrestore(&w->lock, flags);

		while (n--)
			generic_handle_domain_irq(w->gc.irq.domain, i);
	}
}

static int gpio_wire_get_direction(struct gpio_chip *gc, unsigned int offset)
{
	struct gpio_wire *w = gpiochip_get_data(gc);

	return test_bit(offset, w->is_out) ? GPIO_LINE_DIRECTION_OUT :
					     GPIO_LINE_DIRECTION_IN;
}

static int gpio_wire_direction_input(struct gpio_chip *gc,
				     unsigned int offset)
{
	struct gpio_wire *w = gpiochip_get_data(gc);
	unsigned long flags;

	raw_spin_lock_irqsave(&w->lock, flags);
	clear_bit(offset, w->is_out);
	raw_spin_unlock_irqrestore(&w->lock, flags);
	return 0;
}

static int gpio_wire_direction_output(struct gpio_chip *gc,
				      unsigned int offset, int value)
{
	struct gpio_wire *w = gpiochip_get_data(gc);
	unsigned long flags;
	bool edge;

	if (gpio_wire_is_input_only(offset))
		return -EPERM;

	raw_spin_lock_irqsave(&w->lock, flags);
	assign_bit(offset, w->latch, value);
	set_bit(offset, w->is_out);
	edge = gpio_wire_drive(w, offset);
	raw_spin_unlock_irqrestore(&w->lock, flags);

	if (edge)
		irq_work_queue(&w->work);
	return 0;
}

static int gpio_wire_get(struct gpio_chip *gc, unsigned int offset)
{
	struct gpio_wire *w = gpiochip_get_data(gc);
	unsigned long flags;
	int level;

	raw_spin_lock_irqsave(&w->lock, flags);
	level = gpio_wire_level(w, offset);
	raw_spin_unlock_irqrestore(&w->lock, flags);
	return level;
}

static int gpio_wire_get_multiple(struct gpio_chip *gc, unsigned long *mask,
				  unsigned long *bits)
{
	struct gpio_wire *w = gpiochip_get_data(gc);
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&w->lock, flags);
	for_each_set_bit(i, mask, gc->ngpio)
		__assign_bit(i, bits, gpio_wire_level(w, i));
	raw_spin_unlock_irqrestore(&w->lock, flags);
	return 0;
}

static void gpio_wire_do_set(struct gpio_chip *gc, unsigned int offset,
			     int value)
{
	struct gpio_wire *w = gpiochip_get_data(gc);
	unsigned long flags;
	bool edge;

	raw_spin_lock_irqsave(&w->lock, flags);
	edge = gpio_wire_set_locked(w, offset, value);
	raw_spin_unlock_irqrestore(&w->lock, flags);

	if (edge)
		irq_work_queue(&w->work);
}

static void gpio_wire_do_set_multiple(struct gpio_chip *gc,
				      unsigned long *mask, unsigned long *bits)
{
	struct gpio_wire *w = gpiochip_get_data(gc);
	unsigned long flags;
	unsigned int i;
	bool edge = false;

	raw_spin_lock_irqsave(&w->lock, flags);
	for_each_set_bit(i, mask, gc->ngpio)
		edge |= gpio_wire_set_locked(w, i, test_bit(i, bits));
	raw_spin_unlock_irqrestore(&w->lock, flags);

	if (edge)
		irq_work_queue(&w->work);
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
static int gpio_wire_set(struct gpio_chip *gc, unsigned int offset, int value)
{
	gpio_wire_do_set(gc, offset, value);
	return 0;
}

static int gpio_wire_set_multiple(struct gpio_chip *gc, unsigned long *mask,
				  unsigned long *bits)
{
	gpio_wire_do_set_multiple(gc, mask, bits);
	return 0;
}
#else
static void gpio_wire_set(struct gpio_chip *gc, unsigned int offset,
			  int value)
{
	gpio_wire_do_set(gc, offset, value);
}

static void gpio_wire_set_multiple(struct gpio_chip *gc, unsigned long *mask,
				   unsigned long *bits)
{
	gpio_wire_do_set_multiple(gc, mask, bits);
}
#endif

static void gpio_wire_irq_ack(struct irq_data *d)
{
	/* Latched edges are consumed when they are delivered. */
}

/* Edges latched while unmasked are still delivered after a mask. */
static void gpio_wire_irq_mask(struct irq_data *d)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct gpio_wire *w = gpiochip_get_data(gc);
	irq_hw_number_t hwirq = irqd_to_hwirq(d);
	unsigned long flags;

	raw_spin_lock_irqsave(&w->lock, flags);
	clear_bit(hwirq, w->unmasked);
	raw_spin_unlock_irqrestore(&w->lock, flags);
	gpiochip_disable_irq(gc, hwirq);
}

static void gpio_wire_irq_unmask(struct irq_data *d)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct gpio_wire *w = gpiochip_get_data(gc);
	irq_hw_number_t hwirq = irqd_to_hwirq(d);
	unsigned long flags;

	gpiochip_enable_irq(gc, hwirq);
	raw_spin_lock_irqsave(&w->lock, flags);
	set_bit(hwirq, w->unmasked);
	raw_spin_unlock_irqrestore(&w->lock, flags);
}

/*
 * disable_irq() and free_irq() also forget the latched edges, so that none
 * is replayed to the next user of the interrupt.
 */
static void gpio_wire_irq_disable(struct irq_data *d)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct gpio_wire *w = gpiochip_get_data(gc);
	unsigned long flags;

	gpio_wire_irq_mask(d);
	raw_spin_lock_irqsave(&w->lock, flags);
	w->pending[irqd_to_hwirq(d)] = 0;
	raw_spin_unlock_irqrestore(&w->lock, flags);
}

static int gpio_wire_irq_set_type(struct irq_data *d, unsigned int type)
{
	struct gpio_chip *gc = irq_data_get_irq_chip_data(d);
	struct gpio_wire *w = gpiochip_get_data(gc);
	unsigned long flags;

	type &= IRQ_TYPE_SENSE_MASK;
	if (type & IRQ_TYPE_LEVEL_MASK)
		return -EINVAL;

	raw_spin_lock_irqsave(&w->lock, flags);
	w->type[irqd_to_hwirq(d)] = type;
	raw_spin_unlock_irqrestore(&w->lock, flags);
	return 0;
}

static const struct irq_chip gpio_wire_irq_chip = {
	.name		= GPIO_WIRE_NAME,
	.irq_ack	= gpio_wire_irq_ack,
	.irq_mask	= gpio_wire_irq_mask,
	.irq_unmask	= gpio_wire_irq_unmask,
	.irq_enable	= gpio_wire_irq_unmask,
	.irq_disable	= gpio_wire_irq_disable,
	.irq_set_type	= gpio_wire_irq_set_type,
	.flags		= IRQCHIP_IMMUTABLE | IRQCHIP_SKIP_SET_WAKE,
	GPIOCHIP_IRQ_RESOURCE_HELPERS,
};

/* "LINE DRIVEN DROPPED" for each input line */
static ssize_t edges_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct gpio_wire *w = dev_get_drvdata(dev);
	u64 driven[GPIO_WIRE_MAX_LINES], dropped[GPIO_WIRE_MAX_LINES];
	unsigned long flags;
	unsigned int i;
	int len = 0;

	raw_spin_lock_irqsave(&w->lock, flags);
	memcpy(driven, w->driven, sizeof(driven));
	memcpy(dropped, w->dropped, sizeof(dropped));
	raw_spin_unlock_irqrestore(&w->lock, flags);
	for (i = 1; i < w->gc.ngpio; i += 2)
		len += sysfs_emit_at(buf, len, "%u %llu %llu\n", i, driven[i],
				     dropped[i]);
	return len;
}
static DEVICE_ATTR_RO(edges);

static struct attribute *gpio_wire_attrs[] = {
	&dev_attr_edges.attr,
	NULL,
};

static const struct attribute_group gpio_wire_group = {
	.attrs = gpio_wire_attrs,
};

static const struct attribute_group *gpio_wire_groups[] = {
	&gpio_wire_group,
	&gpio_wire_gen_group,	/* gpio-wire-gen.c */
	NULL,
};

static int gpio_wire_set_names(struct device *dev, struct gpio_chip *gc)
{
	const char **names;
	unsigned int i;

	if (!line_names)
		return 0;

	names = devm_kcalloc(dev, gc->ngpio, sizeof(*names), GFP_KERNEL);
	if (!names)
		return -ENOMEM;

	for (i = 0; i < gc->ngpio; i++) {
		names[i] = devm_kasprintf(dev, GFP_KERNEL, "wire%u-%s", i / 2,
					  (i & 1) ? "in" : "out");
		if (!names[i])
			return -ENOMEM;
	}
	gc->names = names;
	return 0;
}

static void gpio_wire_init_lines(struct gpio_wire *w)
{
	unsigned int i;

	raw_spin_lock_init(&w->lock);
	/* Even lines start as outputs driving low, odd lines are inputs. */
	for (i = 0; i < w->gc.ngpio; i += 2)
		set_bit(i, w->is_out);
	w->work = (struct irq_work)IRQ_WORK_INIT_HARD(gpio_wire_irq_work);
}

static void gpio_wire_init_chip(struct device *dev, struct gpio_wire *w)
{
	struct gpio_chip *gc = &w->gc;
	struct gpio_irq_chip *girq = &gc->irq;

	gc->label = label;
	gc->parent = dev;
	gc->owner = THIS_MODULE;
	gc->base = -1;
	gc->ngpio = nlines;
	gc->can_sleep = false;
	gc->get_direction = gpio_wire_get_direction;
	gc->direction_input = gpio_wire_direction_input;
	gc->direction_output = gpio_wire_direction_output;
	gc->get = gpio_wire_get;
	gc->get_multiple = gpio_wire_get_multiple;
	gc->set = gpio_wire_set;
	gc->set_multiple = gpio_wire_set_multiple;

	gpio_irq_chip_set_chip(girq, &gpio_wire_irq_chip);
	girq->handler = handle_edge_irq;
	girq->default_type = IRQ_TYPE_NONE;
}

static int gpio_wire_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct gpio_wire *w;
	int ret;

	w = devm_kzalloc(dev, sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;

	gpio_wire_init_chip(dev, w);
	gpio_wire_init_lines(w);
	gpio_wire_gen_init(w);
	ret = gpio_wire_set_names(dev, &w->gc);
	if (ret)
		return ret;

	ret = gpiochip_add_data(&w->gc, w);
	if (ret)
		return dev_err_probe(dev, ret, "cannot add gpiochip\n");

	platform_set_drvdata(pdev, w);
	dev_info(dev, "%s: %u lines (%u wires), base %d\n", w->gc.label,
		 w->gc.ngpio, w->gc.ngpio / 2, w->gc.base);
	return 0;
}

static void gpio_wire_teardown(struct platform_device *pdev)
{
	struct gpio_wire *w = platform_get_drvdata(pdev);
	unsigned long flags;

	/*
	 * The wire works until the chip is gone, as a real one would: edges
	 * already driven are delivered. On 6.1 gpiochip_remove() waits for a
	 * read() blocked on a line request (gpiolib-cdev holds the chip's
	 * semaphore across it); stopping the edges first left a reader whose
	 * edge was in flight, and with it the unbind, waiting forever. Once
	 * gpiochip_remove() has the semaphore, gpiolib no longer calls our
	 * set/direction callbacks (the chip is numbed), so nothing new is
	 * queued while it removes the interrupt domain; what is left is
	 * stopped here. The generator stops first: it needs no gpiolib.
	 */
	gpio_wire_gen_stop(w);
	gpiochip_remove(&w->gc);
	raw_spin_lock_irqsave(&w->lock, flags);
	w->dead = true;
	raw_spin_unlock_irqrestore(&w->lock, flags);
	irq_work_sync(&w->work);
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
static void gpio_wire_remove(struct platform_device *pdev)
{
	gpio_wire_teardown(pdev);
}
#else
static int gpio_wire_remove(struct platform_device *pdev)
{
	gpio_wire_teardown(pdev);
	return 0;
}
#endif

static struct platform_driver gpio_wire_driver = {
	.driver = {
		.name = GPIO_WIRE_NAME,
		.dev_groups = gpio_wire_groups,
	},
	.probe = gpio_wire_probe,
	.remove = gpio_wire_remove,
};

static int __init gpio_wire_init(void)
{
	int ret;

	if (nlines < 2 || nlines > GPIO_WIRE_MAX_LINES || (nlines & 1)) {
		pr_err(GPIO_WIRE_NAME ": nlines must be even, 2..%d (got %u)\n",
		       GPIO_WIRE_MAX_LINES, nlines);
		return -EINVAL;
	}

	ret = platform_driver_register(&gpio_wire_driver);
	if (ret)
		return ret;

	gpio_wire_pdev = platform_device_register_simple(GPIO_WIRE_NAME, -1,
							 NULL, 0);
	if (IS_ERR(gpio_wire_pdev)) {
		ret = PTR_ERR(gpio_wire_pdev);
		goto err_driver;
	}
	if (!platform_get_drvdata(gpio_wire_pdev)) {
		ret = -ENODEV;
		goto err_device;
	}
	return 0;

err_device:
	platform_device_unregister(gpio_wire_pdev);
err_driver:
	platform_driver_unregister(&gpio_wire_driver);
	return ret;
}
module_init(gpio_wire_init);

static void __exit gpio_wire_exit(void)
{
	platform_device_unregister(gpio_wire_pdev);
	platform_driver_unregister(&gpio_wire_driver);
}
module_exit(gpio_wire_exit);

MODULE_DESCRIPTION("Virtual GPIO chip with lines wired in output/input pairs");
MODULE_AUTHOR("udrv");
MODULE_LICENSE("GPL");
