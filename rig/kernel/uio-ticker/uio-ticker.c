// SPDX-License-Identifier: GPL-2.0-only
/*
 * uio-ticker - a UIO device whose "interrupt" is a periodic hrtimer
 *
 * In the spirit of uio_dummy from the UIO paper: a hard hrtimer (it expires
 * in hard interrupt context, also on PREEMPT_RT) signals a UIO event every
 * period and records, in a page exported as UIO map 0 ("ticker"), when the
 * tick was due, when the handler ran and how many ticks were missed. See
 * rig/kernel/include/uapi/udrv/uio-ticker.h (the repository's) for the page layout.
 *
 * On PREEMPT_RT, uio_event_notify() may not be called from hard interrupt
 * context (it takes sleeping spinlocks), so there the timer callback hands
 * the notification to a SCHED_FIFO 50 thread, which is what a real UIO
 * interrupt gets on PREEMPT_RT (a threaded handler at the same priority).
 *
 * The period is set by the period_us module parameter and at run time by
 * writing /sys/class/uio/uioN/device/period_us (0 stops the timer), or
 * period_ns for the short periods of a rate sweep (1 us and up).
 * Writing 0/1 to /dev/uioN (irqcontrol) suppresses/signals events; the
 * timer keeps running and suppressed ticks are counted in the page.
 */

#include <linux/device.h>
#include <linux/gfp.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/uio_driver.h>
#include <linux/version.h>

#include <udrv/uio-ticker.h>

#define UIO_TICKER_NAME		"uio-ticker"
#define UIO_TICKER_MIN_US	10
#define UIO_TICKER_MAX_US	10000000
#define UIO_TICKER_MIN_NS	1000ULL		/* period_ns: down to 1 us */

static unsigned int period_us = 1000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us,
		 "Initial period in microseconds, 0 = stopped (default 1000)");

struct uio_ticker {
	struct uio_info info;
	struct hrtimer timer;
	struct uio_ticker_page *page;
	struct mutex cfg_lock;		/* serialises period changes */
	raw_spinlock_t lock;		/* serialises writers of the page */
	struct uio_ticker_page state;	/* what the page shows, under lock */
	struct task_struct *notifier;	/* PREEMPT_RT only */
	unsigned int staged;		/* ticks to notify, under lock */
	u64 limit;			/* ticks per start, then stop; 0: none */
	u64 run;			/* ticks since the start, under lock */
	u64 staged_expires, staged_handler;
};

static struct platform_device *uio_ticker_pdev;

static bool uio_ticker_threaded(void)
{
	return IS_ENABLED(CONFIG_PREEMPT_RT);
}

/* Copy the state into the shared page, seqcount style; lock held. */
static void uio_ticker_publish(struct uio_ticker *tk)
{
	struct uio_ticker_page *p = tk->page;
	u32 seq = tk->state.seq;

	WRITE_ONCE(p->seq, seq + 1);
	/* seq odd before any field changes; pairs with the reader's rmb */
	smp_wmb();
	p->enabled = tk->state.enabled;
	p->event = tk->state.event;
	p->expires_ns = tk->state.expires_ns;
	p->handler_ns = tk->state.handler_ns;
	p->notify_ns = tk->state.notify_ns;
	p->period_ns = tk->state.period_ns;
	p->overruns = tk->state.overruns;
	p->suppressed = tk->state.suppressed;
	p->ticks = tk->state.ticks;
	/* all fields written before seq turns even again */
	smp_wmb();
	WRITE_ONCE(p->seq, seq + 2);
	tk->state.seq = seq + 2;
}

/* Count a signalled tick as event; lock held. */
static void uio_ticker_account(struct uio_ticker_page *s, unsigned int n,
			       u64 expires, u64 handler)
{
	s->event += n;
	s->expires_ns = expires;
	s->handler_ns = handler;
	s->notify_ns = ktime_get_ns();
}

/*
 * Record one expiry; returns true if it must be signalled now. On
 * PREEMPT_RT a signalled tick is only staged here; the notifier thread
 * accounts it, so that event, expires_ns, handler_ns and notify_ns always
 * describe the same tick.
 */
static bool uio_ticker_record(struct uio_ticker *tk, u64 expires, u64 missed,
			      bool *done)
{
	struct uio_ticker_page *s = &tk->state;
	u64 now = ktime_get_ns();
	bool signal;

	raw_spin_lock(&tk->lock);
	s->ticks++;
	*done = tk->limit && ++tk->run >= tk->limit;
	if (*done)
		s->period_ns = 0;	/* stopped by itself */
	s->overruns += missed;
	signal = s->enabled;
	if (!signal) {
		s->suppressed++;
	} else if (uio_ticker_threaded()) {
		tk->staged_expires = expires;
		tk->staged_handler = now;
		tk->staged++;
	} else {
		uio_ticker_account(s, 1, expires, now);
	}
	uio_ticker_publish(tk);
	raw_spin_unlock(&tk->lock);
	return signal;
}

static enum hrtimer_restart uio_ticker_fire(struct hrtimer *timer)
{
	struct uio_ticker *tk = container_of(timer, struct uio_ticker, timer);
	u64 expires = ktime_to_ns(hrtimer_get_expires(timer));
	u64 missed;
	bool done;

	missed = hrtimer_forward_now(timer, ns_to_ktime(tk->state.period_ns));
	if (!uio_ticker_record(tk, expires, missed - 1, &done))
		return done ? HRTIMER_NORESTART : HRTIMER_RESTART;

	if (uio_ticker_threaded())
		wake_up_process(tk->notifier);
	else
		uio_event_notify(&tk->info);
	return done ? HRTIMER_NORESTART : HRTIMER_RESTART;
}

/* Notifier thread: account and signal the staged ticks. */
static void uio_ticker_notify_staged(struct uio_ticker *tk)
{
	unsigned long flags;
	unsigned int n;

	raw_spin_lock_irqsave(&tk->lock, flags);
	n = tk->staged;
	tk->staged = 0;
	if (n) {
		uio_ticker_account(&tk->state, n, tk->staged_expires,
				   tk->staged_handler);
		uio_ticker_publish(tk);
	}
	raw_spin_unlock_irqrestore(&tk->lock, flags);

	while (n--)
		uio_event_notify(&tk->info);
}

static bool uio_ticker_has_staged(struct uio_ticker *tk)
{
	unsigned long flags;
	bool any;

	raw_spin_lock_irqsave(&tk->lock, flags);
	any = tk->staged;
	raw_spin_unlock_irqrestore(&tk->lock, flags);
	return any;
}

static int uio_ticker_thread(void *data)
{
	struct uio_ticker *tk = data;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		if (!uio_ticker_has_staged(tk)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		uio_ticker_notify_staged(tk);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* (Re)start the timer with a new period; 0 stops it. */
static void uio_ticker_set_period(struct uio_ticker *tk, u64 ns)
{
	unsigned long flags;

	mutex_lock(&tk->cfg_lock);
	hrtimer_cancel(&tk->timer);

	raw_spin_lock_irqsave(&tk->lock, flags);
	tk->state.period_ns = ns;
	tk->run = 0;
	uio_ticker_publish(tk);
	raw_spin_unlock_irqrestore(&tk->lock, flags);

	if (ns)
		hrtimer_start(&tk->timer, ktime_add_ns(ktime_get(), ns),
			      HRTIMER_MODE_ABS_HARD);
	mutex_unlock(&tk->cfg_lock);
}

static int uio_ticker_irqcontrol(struct uio_info *info, s32 irq_on)
{
	struct uio_ticker *tk = info->priv;
	unsigned long flags;

	raw_spin_lock_irqsave(&tk->lock, flags);
	tk->state.enabled = !!irq_on;
	uio_ticker_publish(tk);
	raw_spin_unlock_irqrestore(&tk->lock, flags);
	return 0;
}

static ssize_t period_us_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct uio_ticker *tk = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n",
			  READ_ONCE(tk->state.period_ns) / NSEC_PER_USEC);
}

static ssize_t period_us_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct uio_ticker *tk = dev_get_drvdata(dev);
	unsigned int us;
	int ret;

	ret = kstrtouint(buf, 0, &us);
	if (ret)
		return ret;
	if (us && (us < UIO_TICKER_MIN_US || us > UIO_TICKER_MAX_US))
		return -ERANGE;

	uio_ticker_set_period(tk, (u64)us * NSEC_PER_USEC);
	return count;
}
static DEVICE_ATTR_RW(period_us);

static ssize_t period_ns_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct uio_ticker *tk = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", READ_ONCE(tk->state.period_ns));
}

static ssize_t period_ns_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t count)
{
	struct uio_ticker *tk = dev_get_drvdata(dev);
	u64 ns;
	int ret;

	ret = kstrtou64(buf, 0, &ns);
	if (ret)
		return ret;
	if (ns && (ns < UIO_TICKER_MIN_NS ||
		   ns > (u64)UIO_TICKER_MAX_US * NSEC_PER_USEC))
		return -ERANGE;

	uio_ticker_set_period(tk, ns);
	return count;
}
static DEVICE_ATTR_RW(period_ns);

/* tick_limit: ticks per start of the timer, then it stops; 0 = no limit */
static ssize_t tick_limit_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct uio_ticker *tk = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", READ_ONCE(tk->limit));
}

static ssize_t tick_limit_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct uio_ticker *tk = dev_get_drvdata(dev);
	unsigned long flags;
	u64 n;
	int ret = kstrtou64(buf, 0, &n);

	if (ret)
		return ret;
	raw_spin_lock_irqsave(&tk->lock, flags);
	tk->limit = n;	/* from the next start */
	raw_spin_unlock_irqrestore(&tk->lock, flags);
	return count;
}
static DEVICE_ATTR_RW(tick_limit);

static struct attribute *uio_ticker_attrs[] = {
	&dev_attr_period_us.attr,
	&dev_attr_period_ns.attr,
	&dev_attr_tick_limit.attr,
	NULL
};
ATTRIBUTE_GROUPS(uio_ticker);

static void uio_ticker_init_timer(struct uio_ticker *tk)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&tk->timer, uio_ticker_fire, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_HARD);
#else
	hrtimer_init(&tk->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	tk->timer.function = uio_ticker_fire;
#endif
}

static void uio_ticker_init_info(struct uio_ticker *tk)
{
	struct uio_info *info = &tk->info;

	info->name = UIO_TICKER_NAME;
	info->version = "1";
	info->irq = UIO_IRQ_CUSTOM;
	info->irqcontrol = uio_ticker_irqcontrol;
	info->priv = tk;
	info->mem[UIO_TICKER_MAP].name = "ticker";
	info->mem[UIO_TICKER_MAP].memtype = UIO_MEM_LOGICAL;
	info->mem[UIO_TICKER_MAP].addr = (phys_addr_t)(unsigned long)tk->page;
	info->mem[UIO_TICKER_MAP].size = PAGE_SIZE;
}

static int uio_ticker_start_notifier(struct uio_ticker *tk)
{
	if (!uio_ticker_threaded())
		return 0;

	tk->notifier = kthread_run(uio_ticker_thread, tk, UIO_TICKER_NAME);
	if (IS_ERR(tk->notifier))
		return PTR_ERR(tk->notifier);
	sched_set_fifo(tk->notifier);
	return 0;
}

static int uio_ticker_alloc(struct device *dev, struct uio_ticker **out)
{
	struct uio_ticker *tk;

	BUILD_BUG_ON(sizeof(struct uio_ticker_page) > PAGE_SIZE);

	tk = devm_kzalloc(dev, sizeof(*tk), GFP_KERNEL);
	if (!tk)
		return -ENOMEM;
	tk->page = (void *)get_zeroed_page(GFP_KERNEL);
	if (!tk->page)
		return -ENOMEM;

	mutex_init(&tk->cfg_lock);
	raw_spin_lock_init(&tk->lock);
	tk->state.enabled = 1;
	tk->page->magic = UIO_TICKER_MAGIC;
	tk->page->version = UIO_TICKER_VERSION;
	uio_ticker_publish(tk);
	*out = tk;
	return 0;
}

static int uio_ticker_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct uio_ticker *tk;
	int ret;

	ret = uio_ticker_alloc(dev, &tk);
	if (ret)
		return ret;

	uio_ticker_init_timer(tk);
	uio_ticker_init_info(tk);
	platform_set_drvdata(pdev, tk);

	ret = uio_ticker_start_notifier(tk);
	if (ret)
		goto err_page;

	ret = uio_register_device(dev, &tk->info);
	if (ret)
		goto err_thread;

	uio_ticker_set_period(tk, (u64)period_us * NSEC_PER_USEC);
	dev_info(dev, "period %u us, notify from %s\n", period_us,
		 uio_ticker_threaded() ? "SCHED_FIFO thread" : "hardirq");
	return 0;

err_thread:
	if (tk->notifier)
		kthread_stop(tk->notifier);
err_page:
	free_page((unsigned long)tk->page);
	return ret;
}

static void uio_ticker_teardown(struct platform_device *pdev)
{
	struct uio_ticker *tk = platform_get_drvdata(pdev);

	hrtimer_cancel(&tk->timer);
	if (tk->notifier)
		kthread_stop(tk->notifier);
	uio_unregister_device(&tk->info);
	/* mappings hold their own page reference */
	free_page((unsigned long)tk->page);
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
static void uio_ticker_remove(struct platform_device *pdev)
{
	uio_ticker_teardown(pdev);
}
#else
static int uio_ticker_remove(struct platform_device *pdev)
{
	uio_ticker_teardown(pdev);
	return 0;
}
#endif

static struct platform_driver uio_ticker_driver = {
	.driver = {
		.name = UIO_TICKER_NAME,
		.dev_groups = uio_ticker_groups,
	},
	.probe = uio_ticker_probe,
	.remove = uio_ticker_remove,
};

static int __init uio_ticker_init(void)
{
	int ret;

	if (period_us && (period_us < UIO_TICKER_MIN_US ||
			  period_us > UIO_TICKER_MAX_US)) {
		pr_err(UIO_TICKER_NAME ": period_us must be 0 or %d..%d\n",
		       UIO_TICKER_MIN_US, UIO_TICKER_MAX_US);
		return -EINVAL;
	}

	ret = platform_driver_register(&uio_ticker_driver);
	if (ret)
		return ret;

	uio_ticker_pdev = platform_device_register_simple(UIO_TICKER_NAME, -1,
							  NULL, 0);
	if (IS_ERR(uio_ticker_pdev)) {
		ret = PTR_ERR(uio_ticker_pdev);
		goto err_driver;
	}
	if (!platform_get_drvdata(uio_ticker_pdev)) {
		ret = -ENODEV;
		goto err_device;
	}
	return 0;

err_device:
	platform_device_unregister(uio_ticker_pdev);
err_driver:
	platform_driver_unregister(&uio_ticker_driver);
	return ret;
}
module_init(uio_ticker_init);

static void __exit uio_ticker_exit(void)
{
	platform_device_unregister(uio_ticker_pdev);
	platform_driver_unregister(&uio_ticker_driver);
}
module_exit(uio_ticker_exit);

MODULE_DESCRIPTION("UIO device signalling periodic hrtimer ticks");
MODULE_AUTHOR("udrv");
MODULE_LICENSE("GPL");
