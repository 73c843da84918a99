// SPDX-License-Identifier: GPL-2.0-only
/*
 * irqlat - GPIO interrupt latency on a wired output/input pair
 *
 * Drives output line @out of the gpiochip @chip and measures the time until
 * the interrupt handler of the input line @in, wired to it, runs:
 * ktime_get_ns() right before driving the output, ktime_get_ns() first
 * thing in the handler. Every pass waits for its interrupt with a timeout,
 * so a lost interrupt is counted as missed, never hangs.
 *
 * The lines are requested only while a run is in progress; if userspace (or
 * anyone else) holds one of them, the run fails with -EBUSY.
 *
 * Interface (irqlat_sysfs.c, see docs/rig/kernel-modules.md):
 *   /sys/kernel/irqlat/run        write N: run N passes (0: "passes" param)
 *   /sys/kernel/irqlat/stats      result of the last run
 *   /sys/kernel/irqlat/histogram  log-linear histogram of the last run
 *   /sys/kernel/irqlat/samples    every latency of the last run, in ns, one
 *                                 per line in pass order (a binary
 *                                 attribute: no PAGE_SIZE limit)
 */

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/gpio/machine.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/version.h>

#include <udrv-kmod/gpiochip.h>

#include "irqlat.h"

#define IRQLAT_MAX_PASSES	1000000

static char *chip = "gpio-wire";
module_param(chip, charp, 0644);
MODULE_PARM_DESC(chip, "gpiochip label or device name (gpiochipN)");

static unsigned int out;
module_param(out, uint, 0644);
MODULE_PARM_DESC(out, "Offset of the output line (default 0)");

static unsigned int in = 1;
module_param(in, uint, 0644);
MODULE_PARM_DESC(in, "Offset of the input line wired to it (default 1)");

static unsigned int passes = 1024;
module_param(passes, uint, 0644);
MODULE_PARM_DESC(passes, "Passes per run (default 1024)");

static char *edge = "rising";
module_param(edge, charp, 0644);
MODULE_PARM_DESC(edge, "Edge to time: rising, falling or both");

static unsigned int timeout_ms = 100;
module_param(timeout_ms, uint, 0644);
MODULE_PARM_DESC(timeout_ms, "Wait per pass before it counts as missed");

static unsigned int delay_us = 100;
module_param(delay_us, uint, 0644);
MODULE_PARM_DESC(delay_us, "Pause between passes in microseconds");

static bool threaded;
module_param(threaded, bool, 0644);
MODULE_PARM_DESC(threaded,
		 "Time a threaded handler instead of the hardirq handler");

static bool autorun;
module_param(autorun, bool, 0444);
MODULE_PARM_DESC(autorun, "Run once at module load (default 0)");

const char *const irqlat_edge_names[] = {
	[IRQLAT_RISING] = "rising",
	[IRQLAT_FALLING] = "falling",
	[IRQLAT_BOTH] = "both",
};

/* State shared with the interrupt handler during a run. */
struct irqlat_ctx {
	struct completion done;
	atomic_t armed;
	u64 t_irq;
	unsigned int spurious;
};

struct irqlat_run {
	struct irqlat_cfg cfg;
	struct irqlat_ctx ctx;
	struct gpio_chip *gc;
	struct gpio_desc *dout, *din;
	int irq;
	u64 *samples;
	unsigned int nsamples, missed;
};

static DEFINE_MUTEX(irqlat_run_lock);	/* one run at a time */
DEFINE_MUTEX(irqlat_res_lock);		/* protects the last run's results */
struct irqlat_result irqlat_res;
u64 *irqlat_samples;			/* its samples, irqlat_nsamples of them */
unsigned int irqlat_nsamples;
bool irqlat_running;

/* ---- finding the chip ------------------------------------------------ */

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
struct irqlat_name_match {
	const char *name;
	unsigned int chips;
	bool found;
};

static int irqlat_count_child(struct device *dev, void *data)
{
	struct irqlat_name_match *m = data;

	/* the GPIO devices on the "gpio" bus, not the sysfs class devices */
	if (dev->bus && !strcmp(dev->bus->name, "gpio")) {
		m->chips++;
		if (!strcmp(dev_name(dev), m->name))
			m->found = true;
	}
	return 0;
}
#endif

/* Does @gc's GPIO device (the one behind /dev/gpiochipN) have @name? */
static bool irqlat_chip_has_name(struct gpio_chip *gc, const char *name)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	return !strcmp(dev_name(gpio_device_to_device(gc->gpiodev)), name);
#else
	struct irqlat_name_match m = { .name = name };

	/* The device is a child of the parent; unambiguous if it's alone. */
	if (!gc->parent)
		return false;
	device_for_each_child(gc->parent, &m, irqlat_count_child);
	return m.found && m.chips == 1;
#endif
}

/* @name is @gc's label or its GPIO device's name (gpiochipN) */
static bool irqlat_chip_is(struct gpio_chip *gc, const char *name)
{
	return udrv_kchip_label_is(gc, name) || irqlat_chip_has_name(gc, name);
}

/* ---- the measurement ------------------------------------------------- */

static irqreturn_t irqlat_isr(int irq, void *data)
{
	struct irqlat_ctx *ctx = data;
	u64 now = ktime_get_ns();

	if (atomic_xchg(&ctx->armed, 0)) {
		ctx->t_irq = now;
		complete(&ctx->done);
	} else {
		ctx->spurious++;
	}
	return IRQ_HANDLED;
}

static unsigned long irqlat_irq_flags(enum irqlat_edge e)
{
	switch (e) {
	case IRQLAT_RISING:
		return IRQF_TRIGGER_RISING;
	case IRQLAT_FALLING:
		return IRQF_TRIGGER_FALLING;
	default:
		return IRQF_TRIGGER_RISING | IRQF_TRIGGER_FALLING;
	}
}

static int irqlat_request_irq(struct irqlat_run *r)
{
	unsigned long flags = irqlat_irq_flags(r->cfg.edge);

	r->irq = gpiod_to_irq(r->din);
	if (r->irq < 0)
		return r->irq;
	if (r->cfg.threaded)
		return request_threaded_irq(r->irq, NULL, irqlat_isr,
					    flags | IRQF_ONESHOT, IRQLAT_NAME,
					    &r->ctx);
	return request_irq(r->irq, irqlat_isr, flags | IRQF_NO_THREAD,
			   IRQLAT_NAME, &r->ctx);
}

static int irqlat_request_line(struct irqlat_run *r, unsigned int offset,
			       const char *label, enum gpiod_flags flags,
			       struct gpio_desc **desc)
{
	*desc = gpiochip_request_own_desc(r->gc, offset, label,
					  GPIO_ACTIVE_HIGH, flags);
	if (!IS_ERR(*desc))
		return 0;
	if (PTR_ERR(*desc) == -EBUSY)
		pr_err(IRQLAT_NAME ": line %u of %s is busy (held by another user)\n",
		       offset, r->cfg.chip);
	else
		pr_err(IRQLAT_NAME ": cannot request line %u of %s as %s: %pe\n",
		       offset, r->cfg.chip, label, *desc);
	return PTR_ERR(*desc);
}

static int irqlat_setup(struct irqlat_run *r)
{
	enum gpiod_flags idle = r->cfg.edge == IRQLAT_FALLING ?
				GPIOD_OUT_HIGH : GPIOD_OUT_LOW;
	int ret;

	r->gc = udrv_kchip_find(r->cfg.chip, irqlat_chip_is);
	if (!r->gc) {
		pr_err(IRQLAT_NAME ": no gpiochip labelled or named \"%s\"\n",
		       r->cfg.chip);
		return -ENODEV;
	}
	ret = irqlat_request_line(r, r->cfg.out, "irqlat-out", idle, &r->dout);
	if (ret)
		goto err_chip;
	ret = irqlat_request_line(r, r->cfg.in, "irqlat-in", GPIOD_IN,
				  &r->din);
	if (ret)
		goto err_out;
	ret = irqlat_request_irq(r);
	if (ret) {
		pr_err(IRQLAT_NAME ": cannot request irq %d of line %u: %pe\n",
		       r->irq, r->cfg.in, ERR_PTR(ret));
		goto err_in;
	}
	return 0;

err_in:
	gpiochip_free_own_desc(r->din);
err_out:
	gpiochip_free_own_desc(r->dout);
err_chip:
	module_put(r->gc->owner);
	return ret;
}

static void irqlat_teardown(struct irqlat_run *r)
{
	free_irq(r->irq, &r->ctx);
	gpiochip_free_own_desc(r->din);
	gpiochip_free_own_desc(r->dout);
	module_put(r->gc->owner);
}

/* Drive one edge and wait for its interrupt; false if it was missed. */
static bool irqlat_one(struct irqlat_run *r, int level, u64 *lat)
{
	struct irqlat_ctx *ctx = &r->ctx;
	unsigned long tmo = msecs_to_jiffies(r->cfg.timeout_ms) + 1;
	u64 t0;

	reinit_completion(&ctx->done);
	atomic_set(&ctx->armed, 1);
	t0 = ktime_get_ns();
	gpiod_set_value_cansleep(r->dout, level);

	if (!wait_for_completion_timeout(&ctx->done, tmo)) {
		if (atomic_xchg(&ctx->armed, 0))
			return false;
		/* the handler won the race: its completion is imminent */
		wait_for_completion(&ctx->done);
	}
	*lat = ctx->t_irq - t0;
	return true;
}

static void irqlat_pause(unsigned int us)
{
	if (us)
		usleep_range(us, us + us / 4 + 1);
}

static void irqlat_loop(struct irqlat_run *r)
{
	int level = r->cfg.edge == IRQLAT_FALLING ? 1 : 0;
	unsigned int i;
	u64 lat;

	for (i = 0; i < r->cfg.passes; i++) {
		if (r->cfg.edge != IRQLAT_BOTH) {
			/* back to idle: an edge the irq does not trigger on */
			gpiod_set_value_cansleep(r->dout, level);
			irqlat_pause(r->cfg.delay_us);
		}
		if (irqlat_one(r, !level, &lat))
			r->samples[r->nsamples++] = lat;
		else
			r->missed++;
		if (r->cfg.edge == IRQLAT_BOTH) {
			level = !level;
			irqlat_pause(r->cfg.delay_us);
		}
	}
}

/* ---- statistics ------------------------------------------------------ */

static unsigned int irqlat_bucket(u64 ns)
{
	u64 us = div_u64(ns, NSEC_PER_USEC);

	if (us < IRQLAT_B1)
		return us;
	if (us < 1000)
		return IRQLAT_B1 + div_u64(us - 100, 10);
	if (us < 10000)
		return IRQLAT_B1 + IRQLAT_B2 + div_u64(us - 1000, 100);
	return IRQLAT_BUCKETS - 1;
}

/* Lower bound in ns of bucket @b; bucket IRQLAT_BUCKETS is the end. */
u64 irqlat_bucket_lo(unsigned int b)
{
	if (b < IRQLAT_B1)
		return b * 1000ULL;
	b -= IRQLAT_B1;
	if (b < IRQLAT_B2)
		return 100000ULL + b * 10000ULL;
	b -= IRQLAT_B2;
	return 1000000ULL + b * 100000ULL;
}

static u64 irqlat_stddev(const u64 *s, unsigned int n, u64 avg)
{
	u64 sum = 0, coarse = 0, d;
	bool overflow = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		d = s[i] > avg ? s[i] - avg : avg - s[i];
		d = min_t(u64, d, U32_MAX);
		coarse += div_u64(d * d, n);
		if (!overflow)
			overflow = check_add_overflow(sum, d * d, &sum);
	}
	return int_sqrt64(overflow ? coarse : div_u64(sum, n));
}

static void irqlat_compute(struct irqlat_run *r, struct irqlat_result *res)
{
	unsigned int i, n = r->nsamples;
	u64 sum = 0;

	memset(res, 0, sizeof(*res));
	res->cfg = r->cfg;
	res->passes = r->cfg.passes;
	res->missed = r->missed;
	res->spurious = r->ctx.spurious;
	if (!n)
		return;

	res->min = U64_MAX;
	for (i = 0; i < n; i++) {
		res->min = min(res->min, r->samples[i]);
		res->max = max(res->max, r->samples[i]);
		sum += r->samples[i];
		res->hist[irqlat_bucket(r->samples[i])]++;
	}
	res->avg = div_u64(sum, n);
	res->stddev = irqlat_stddev(r->samples, n, res->avg);
}

static void irqlat_report(const struct irqlat_result *res)
{
	pr_info(IRQLAT_NAME ": %s %u->%u %s %s: %u passes, avg. %llu nsecs, dev. %llu nsecs, min %llu, max %llu, missed %u\n",
		res->cfg.chip, res->cfg.out, res->cfg.in,
		irqlat_edge_names[res->cfg.edge],
		res->cfg.threaded ? "threaded" : "hardirq", res->passes,
		res->avg, res->stddev, res->min, res->max, res->missed);
}

/* ---- a run ----------------------------------------------------------- */

static int irqlat_get_cfg(struct irqlat_cfg *cfg, unsigned int npasses)
{
	int e;

	kernel_param_lock(THIS_MODULE);
	strscpy(cfg->chip, chip ? chip : "", sizeof(cfg->chip));
	e = __sysfs_match_string(irqlat_edge_names,
				 ARRAY_SIZE(irqlat_edge_names), edge ? edge : "");
	cfg->out = out;
	cfg->in = in;
	cfg->passes = npasses ? npasses : passes;
	cfg->timeout_ms = timeout_ms;
	cfg->delay_us = delay_us;
	cfg->threaded = threaded;
	kernel_param_unlock(THIS_MODULE);

	/* "echo gpiochip0 > .../chip" leaves a newline */
	cfg->chip[strcspn(cfg->chip, "\n")] = '\0';
	if (e < 0) {
		pr_err(IRQLAT_NAME ": edge must be rising, falling or both\n");
		return -EINVAL;
	}
	cfg->edge = e;
	if (!cfg->passes || cfg->passes > IRQLAT_MAX_PASSES ||
	    cfg->out == cfg->in || !cfg->timeout_ms)
		return -EINVAL;
	return 0;
}

static int irqlat_do_run(unsigned int npasses)
{
	struct irqlat_result *res;
	struct irqlat_run *r;
	int ret;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	res = kzalloc(sizeof(*res), GFP_KERNEL);
	if (!r || !res) {
		ret = -ENOMEM;
		goto out;
	}
	ret = irqlat_get_cfg(&r->cfg, npasses);
	if (ret)
		goto out;
	r->samples = kvmalloc_array(r->cfg.passes, sizeof(u64), GFP_KERNEL);
	if (!r->samples) {
		ret = -ENOMEM;
		goto out;
	}
	init_completion(&r->ctx.done);

	ret = irqlat_setup(r);
	if (ret)
		goto out;
	irqlat_loop(r);
	irqlat_teardown(r);

	irqlat_compute(r, res);
	irqlat_report(res);
	mutex_lock(&irqlat_res_lock);
	res->run = irqlat_res.run + 1;
	irqlat_res = *res;
	/* keep the samples for /sys/kernel/irqlat/samples, free the last */
	swap(irqlat_samples, r->samples);
	irqlat_nsamples = r->nsamples;
	mutex_unlock(&irqlat_res_lock);
out:
	if (r)
		kvfree(r->samples);
	kfree(r);
	kfree(res);
	return ret;
}

int irqlat_run(unsigned int npasses)
{
	int ret;

	ret = mutex_lock_interruptible(&irqlat_run_lock);
	if (ret)
		return ret;
	WRITE_ONCE(irqlat_running, true);
	ret = irqlat_do_run(npasses);
	WRITE_ONCE(irqlat_running, false);
	mutex_unlock(&irqlat_run_lock);
	return ret;
}

/* ---- module init/exit ------------------------------------------------ */

static int __init irqlat_init(void)
{
	int ret;

	ret = irqlat_sysfs_init();
	if (ret)
		return ret;
	if (autorun) {
		ret = irqlat_run(0);
		if (ret) {
			irqlat_sysfs_exit();
			return ret;
		}
	}
	return 0;
}
module_init(irqlat_init);

static void __exit irqlat_exit(void)
{
	irqlat_sysfs_exit();
	kvfree(irqlat_samples);
}
module_exit(irqlat_exit);

MODULE_DESCRIPTION("GPIO interrupt latency on a wired output/input pair");
MODULE_AUTHOR("udrv");
MODULE_LICENSE("GPL");
