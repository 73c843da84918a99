/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What udrv's kernel modules share (rig/kernel/include/, Kbuild's
 * -I$(src)/../include): finding a gpiochip by name across kernel versions,
 * with a reference on its driver while a module uses it. irqlat and
 * gpio-reply take their lines this way.
 *
 * 6.1 has gpiochip_find(data, match(gc, data)); 6.7 replaced it with
 * gpio_device_find(), and 6.9 made the match's data const.
 */
#ifndef UDRV_KMOD_GPIOCHIP_H
#define UDRV_KMOD_GPIOCHIP_H

#include <linux/gpio/driver.h>
#include <linux/module.h>
#include <linux/version.h>

struct udrv_kchip_query {
	const char *name;
	bool (*matches)(struct gpio_chip *gc, const char *name);
	struct device **parent;		/* NULL: not wanted */
};

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
static inline int udrv_kchip_match(struct gpio_chip *gc, const void *data)
#else
static inline int udrv_kchip_match(struct gpio_chip *gc, void *data)
#endif
{
	const struct udrv_kchip_query *q = data;

	if (!q->matches(gc, q->name) || (q->parent && !gc->parent))
		return 0;
	/* keep the chip's driver while the module uses the chip */
	if (!try_module_get(gc->owner))
		return 0;
	/* referenced here, under gpiolib's lock: the chip is surely there */
	if (q->parent)
		*q->parent = get_device(gc->parent);
	return 1;
}

/*
 * The first chip that @matches @name, its driver held: give it back with
 * module_put(gc->owner). NULL if there is none (or its driver is leaving).
 * With @parent, only a chip with a parent device, which is referenced into
 * *@parent (put_device()).
 */
static inline struct gpio_chip *
udrv_kchip_find_parent(const char *name,
		       bool (*matches)(struct gpio_chip *gc, const char *name),
		       struct device **parent)
{
	struct udrv_kchip_query q = { .name = name, .matches = matches, .parent = parent };
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	struct gpio_device *gdev = gpio_device_find(&q, udrv_kchip_match);
	struct gpio_chip *gc;

	if (!gdev)
		return NULL;
	gc = gpio_device_get_chip(gdev);
	gpio_device_put(gdev);
	return gc;
#else
	return gpiochip_find(&q, udrv_kchip_match);
#endif
}

static inline struct gpio_chip *
udrv_kchip_find(const char *name,
		bool (*matches)(struct gpio_chip *gc, const char *name))
{
	return udrv_kchip_find_parent(name, matches, NULL);
}

/* @gc's label is @label: the usual matches */
static inline bool udrv_kchip_label_is(struct gpio_chip *gc, const char *label)
{
	return gc->label && !strcmp(gc->label, label);
}

#endif /* UDRV_KMOD_GPIOCHIP_H */
