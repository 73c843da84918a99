// SPDX-License-Identifier: GPL-2.0-only
/*
 * pwm-fixture - a PWM chip of the kernel's PWM class whose channels drive
 * gpio-wire lines, for the lab
 *
 * Channel N drives output line lines[N] of the GPIO chip labelled `chip`
 * (default gpio-wire lines 0 and 2: wire0-out and wire1-out; their
 * partners wire0-in and wire1-in see the waveform, and a program that
 * watches their edges gets the kernel's timestamp of each). The line is
 * requested when the channel is requested (an export through sysfs: the
 * line's consumer is then "pwm-fixture") and given back when it is freed.
 *
 * The waveform comes from an hrtimer per channel in hard interrupt
 * context (HRTIMER_MODE_ABS_HARD, also on PREEMPT_RT): period k starts at
 * t0 + k * period with the active level and turns inactive at
 * t0 + k * period + duty, each expiry computed from t0, never from the
 * last one. This is the kernel's reference for a userspace software PWM:
 * the same clock and the same wire, and no task between the timer and the
 * edge. A duty cycle of 0 or of the whole period is a steady level, no
 * timer. A new state applied while the channel runs takes effect at the
 * next period boundary (the pulse under way keeps its width, as most PWM
 * controllers do); enabling starts period 0 at once; disabling drives the
 * inactive level at once. Polarity normal: active high; inversed: active
 * low.
 *
 * /sys/devices/platform/pwm-fixture/stats: a line per channel,
 * "CHANNEL LINE PERIODS EDGES OVERRUNS": periods begun, level changes
 * driven, and the periods the timer woke up too late for (an edge whose
 * next deadline had passed: the edges of those periods were not driven,
 * the waveform took up again at the next boundary). Zeroed when the
 * channel is enabled.
 */

#include <linux/device.h>
#include <linux/gpio/consumer.h>
#include <linux/gpio/machine.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pwm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#define PWM_FIXTURE_NAME	"pwm-fixture"
#define PWM_FIXTURE_MAX		8

static char *chip = "gpio-wire";
module_param(chip, charp, 0444);
MODULE_PARM_DESC(chip, "Label of the GPIO chip the channels drive (default \"gpio-wire\")");

static unsigned int lines[PWM_FIXTURE_MAX] = { 0, 2 };
static unsigned int nlines = 2;
module_param_array(lines, uint, &nlines, 0444);
MODULE_PARM_DESC(lines, "The output line of each channel, comma-separated (default 0,2)");

struct pwm_fixture_channel {
	struct hrtimer timer;
	struct gpio_desc *gpio;		/* while requested */
	raw_spinlock_t lock;		/* protects what follows */
	struct pwm_state state;		/* applied */
	struct pwm_state next;		/* applied, for the next boundary */
	bool pending;			/* @next waits for the boundary */
	bool active;			/* the level driven is the active one */
	ktime_t start;			/* the period under way began */
	u64 periods, edges, overruns;
};

struct pwm_fixture {
	struct pwm_fixture_channel ch[PWM_FIXTURE_MAX];
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0)
	struct pwm_chip chip;		/* allocated by the core since 6.9 */
#endif
};

static struct platform_device *pwm_fixture_pdev;
static struct gpiod_lookup_table *pwm_fixture_lookup;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
static struct pwm_fixture *to_fixture(struct pwm_chip *pc)
{
	return pwmchip_get_drvdata(pc);
}

static struct device *pwm_fixture_dev(struct pwm_chip *pc)
{
	return pwmchip_parent(pc);
}
#else
static struct pwm_fixture *to_fixture(struct pwm_chip *pc)
{
	return container_of(pc, struct pwm_fixture, chip);
}

static struct device *pwm_fixture_dev(struct pwm_chip *pc)
{
	return pc->dev;
}
#endif

/* Drive @active (the logical level); the channel's lock held */
static void pwm_fixture_drive(struct pwm_fixture_channel *c, bool active)
{
	bool high = active != (c->state.polarity == PWM_POLARITY_INVERSED);

	if (c->active != active)
		c->edges++;
	c->active = active;
	gpiod_set_value(c->gpio, high);
}

/* A steady level for a duty cycle of 0 or of the whole period */
static bool pwm_fixture_steady(const struct pwm_state *s)
{
	return !s->enabled || s->duty_cycle == 0 || s->duty_cycle >= s->period;
}

/*
 * At a period boundary: the pending state taken, the period begun (its
 * rising edge); returns whether the timer goes on. Lock held.
 */
static bool pwm_fixture_boundary(struct pwm_fixture_channel *c, ktime_t at)
{
	if (c->pending) {
		c->state = c->next;
		c->pending = false;
	}
	c->start = at;
	c->periods++;
	if (pwm_fixture_steady(&c->state)) {
		pwm_fixture_drive(c, c->state.enabled && c->state.duty_cycle);
		return false;
	}
	pwm_fixture_drive(c, true);
	hrtimer_set_expires(&c->timer, ktime_add_ns(at, c->state.duty_cycle));
	return true;
}

static enum hrtimer_restart pwm_fixture_fire(struct hrtimer *t)
{
	struct pwm_fixture_channel *c = container_of(t, struct pwm_fixture_channel, timer);
	ktime_t now = hrtimer_cb_get_time(t);
	ktime_t next;
	bool more = true;

	raw_spin_lock(&c->lock);
	next = ktime_add_ns(c->start, c->state.period);
	if (c->active && ktime_before(now, next)) {
		pwm_fixture_drive(c, false);
		hrtimer_set_expires(t, next);
	} else {
		if (c->active)
			pwm_fixture_drive(c, false);	/* late: this pulse ends now */
		while (!ktime_before(now, ktime_add_ns(next, c->state.period))) {
			next = ktime_add_ns(next, c->state.period);
			c->overruns++;
		}
		more = pwm_fixture_boundary(c, next);
	}
	raw_spin_unlock(&c->lock);
	return more ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

static int pwm_fixture_request(struct pwm_chip *pc, struct pwm_device *pwm)
{
	struct pwm_fixture_channel *c = &to_fixture(pc)->ch[pwm->hwpwm];
	struct gpio_desc *gpio;

	gpio = gpiod_get_index(pwm_fixture_dev(pc), NULL, pwm->hwpwm, GPIOD_OUT_LOW);
	if (IS_ERR(gpio)) {
		dev_err(pwm_fixture_dev(pc), "channel %u: line %u of %s: error %ld (is the chip loaded?)\n",
			pwm->hwpwm, lines[pwm->hwpwm], chip, PTR_ERR(gpio));
		return PTR_ERR(gpio);
	}
	c->gpio = gpio;
	c->active = false;
	c->state = (struct pwm_state){ .polarity = PWM_POLARITY_NORMAL };
	c->pending = false;
	return 0;
}

static void pwm_fixture_free(struct pwm_chip *pc, struct pwm_device *pwm)
{
	struct pwm_fixture_channel *c = &to_fixture(pc)->ch[pwm->hwpwm];

	hrtimer_cancel(&c->timer);
	gpiod_put(c->gpio);
	c->gpio = NULL;
}

static int pwm_fixture_apply(struct pwm_chip *pc, struct pwm_device *pwm,
			     const struct pwm_state *state)
{
	struct pwm_fixture_channel *c = &to_fixture(pc)->ch[pwm->hwpwm];
	unsigned long flags;
	bool running, start = false;

	if (state->enabled && (!state->period || state->duty_cycle > state->period))
		return -EINVAL;
	raw_spin_lock_irqsave(&c->lock, flags);
	running = c->state.enabled;
	if (running && state->enabled && state->polarity == c->state.polarity) {
		c->next = *state;	/* at the next boundary */
		c->pending = true;
		/* a steady level has no timer to reach the boundary: now (a
		 * timer that just made it steady is waited for) */
		start = pwm_fixture_steady(&c->state);
		raw_spin_unlock_irqrestore(&c->lock, flags);
		if (start) {
			hrtimer_cancel(&c->timer);
			raw_spin_lock_irqsave(&c->lock, flags);
			if (pwm_fixture_boundary(c, ktime_get()))
				hrtimer_start_expires(&c->timer, HRTIMER_MODE_ABS_HARD);
			raw_spin_unlock_irqrestore(&c->lock, flags);
		}
		return 0;
	}
	raw_spin_unlock_irqrestore(&c->lock, flags);
	hrtimer_cancel(&c->timer);	/* stopped, or started again */
	raw_spin_lock_irqsave(&c->lock, flags);
	c->state = *state;
	c->pending = false;
	if (state->enabled && !running)
		c->periods = c->edges = c->overruns = 0;
	if (!state->enabled)
		pwm_fixture_drive(c, false);
	else if (pwm_fixture_boundary(c, ktime_get()))
		hrtimer_start_expires(&c->timer, HRTIMER_MODE_ABS_HARD);
	raw_spin_unlock_irqrestore(&c->lock, flags);
	return 0;
}

static int pwm_fixture_get_state(struct pwm_chip *pc, struct pwm_device *pwm,
				 struct pwm_state *state)
{
	struct pwm_fixture_channel *c = &to_fixture(pc)->ch[pwm->hwpwm];
	unsigned long flags;

	raw_spin_lock_irqsave(&c->lock, flags);
	*state = c->pending ? c->next : c->state;
	raw_spin_unlock_irqrestore(&c->lock, flags);
	return 0;
}

static const struct pwm_ops pwm_fixture_ops = {
	.request = pwm_fixture_request,
	.free = pwm_fixture_free,
	.apply = pwm_fixture_apply,
	.get_state = pwm_fixture_get_state,
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
	.owner = THIS_MODULE,		/* the core's since 6.7 */
#endif
};

static ssize_t stats_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct pwm_fixture *fx = dev_get_drvdata(dev);
	unsigned long flags;
	unsigned int i;
	int n = 0;

	for (i = 0; i < nlines; i++) {
		struct pwm_fixture_channel *c = &fx->ch[i];

		raw_spin_lock_irqsave(&c->lock, flags);
		n += sysfs_emit_at(buf, n, "%u %u %llu %llu %llu\n", i, lines[i],
				   c->periods, c->edges, c->overruns);
		raw_spin_unlock_irqrestore(&c->lock, flags);
	}
	return n;
}
static DEVICE_ATTR_RO(stats);

static struct attribute *pwm_fixture_attrs[] = {
	&dev_attr_stats.attr,
	NULL,
};
ATTRIBUTE_GROUPS(pwm_fixture);

static void pwm_fixture_init_channel(struct pwm_fixture_channel *c)
{
	raw_spin_lock_init(&c->lock);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&c->timer, pwm_fixture_fire, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
#else
	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	c->timer.function = pwm_fixture_fire;
#endif
}

static int pwm_fixture_probe(struct platform_device *pdev)
{
	struct pwm_fixture *fx;
	struct pwm_chip *pc;
	unsigned int i;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	pc = devm_pwmchip_alloc(&pdev->dev, nlines, sizeof(*fx));
	if (IS_ERR(pc))
		return PTR_ERR(pc);
	fx = pwmchip_get_drvdata(pc);
#else
	fx = devm_kzalloc(&pdev->dev, sizeof(*fx), GFP_KERNEL);
	if (!fx)
		return -ENOMEM;
	pc = &fx->chip;
	pc->dev = &pdev->dev;
	pc->npwm = nlines;
#endif
	for (i = 0; i < nlines; i++)
		pwm_fixture_init_channel(&fx->ch[i]);
	pc->ops = &pwm_fixture_ops;
	platform_set_drvdata(pdev, fx);
	/* removed with the device: its exported channels freed first */
	return devm_pwmchip_add(&pdev->dev, pc);
}

static struct platform_driver pwm_fixture_driver = {
	.probe = pwm_fixture_probe,
	.driver = {
		.name = PWM_FIXTURE_NAME,
		.dev_groups = pwm_fixture_groups,
	},
};

/* Channel N's line: lines[N] of the chip labelled @chip, index N (no con_id:
 * the consumer is the device's name) */
static int pwm_fixture_add_lookup(void)
{
	unsigned int i;

	pwm_fixture_lookup = kzalloc(struct_size(pwm_fixture_lookup, table, nlines + 1),
				     GFP_KERNEL);
	if (!pwm_fixture_lookup)
		return -ENOMEM;
	pwm_fixture_lookup->dev_id = PWM_FIXTURE_NAME;
	for (i = 0; i < nlines; i++)
		pwm_fixture_lookup->table[i] = (struct gpiod_lookup)
			GPIO_LOOKUP_IDX(chip, lines[i], NULL, i, GPIO_ACTIVE_HIGH);
	gpiod_add_lookup_table(pwm_fixture_lookup);
	return 0;
}

static void pwm_fixture_remove_lookup(void)
{
	gpiod_remove_lookup_table(pwm_fixture_lookup);
	kfree(pwm_fixture_lookup);
}

static int __init pwm_fixture_init(void)
{
	int err;

	if (!nlines) {
		pr_err(PWM_FIXTURE_NAME ": lines= names no line\n");
		return -EINVAL;
	}
	err = pwm_fixture_add_lookup();
	if (err)
		return err;
	err = platform_driver_register(&pwm_fixture_driver);
	if (err)
		goto out_lookup;
	pwm_fixture_pdev = platform_device_register_simple(PWM_FIXTURE_NAME, -1, NULL, 0);
	err = PTR_ERR_OR_ZERO(pwm_fixture_pdev);
	if (err)
		goto out_driver;
	if (!platform_get_drvdata(pwm_fixture_pdev)) {	/* the probe failed */
		platform_device_unregister(pwm_fixture_pdev);
		err = -ENODEV;
		goto out_driver;
	}
	return 0;
out_driver:
	platform_driver_unregister(&pwm_fixture_driver);
out_lookup:
	pwm_fixture_remove_lookup();
	return err;
}

static void __exit pwm_fixture_exit(void)
{
	platform_device_unregister(pwm_fixture_pdev);
	platform_driver_unregister(&pwm_fixture_driver);
	pwm_fixture_remove_lookup();
}

module_init(pwm_fixture_init);
module_exit(pwm_fixture_exit);

MODULE_DESCRIPTION("A PWM chip whose channels drive GPIO lines from hard hrtimers");
MODULE_AUTHOR("udrv");
MODULE_LICENSE("GPL");
