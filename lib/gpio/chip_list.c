// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Finding GPIO chips: enumeration, why there are none, and the link from a
 * chip (gpiochipN) to its legacy sysfs entry (/sys/class/gpio/gpiochipBASE),
 * whose base turns chip offsets into global GPIO numbers. The base is read,
 * never assumed: it moved by +512 on recent kernels.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpio/backend.h"

void udrv_strv_free(char **strv)
{
	if (!strv)
		return;
	for (char **p = strv; *p; p++)
		free(*p);
	free(strv);
}

static int strv_contains(char **strv, const char *s)
{
	for (; strv && *strv; strv++)
		if (!strcmp(*strv, s))
			return 1;
	return 0;
}

/* gpiochipN -> N (the names come from udrv_list_numbered: well formed) */
static long chip_num(const char *name)
{
	unsigned int n;

	return udrv_parse_devnum(name, "gpiochip", &n) ? -1 : (long)n;
}

static int cmp_chip_names(const void *a, const void *b)
{
	long x = chip_num(*(char *const *)a);
	long y = chip_num(*(char *const *)b);

	return (x > y) - (x < y);
}

/* Chips seen on the gpio bus (sysfs) or as /dev nodes, sorted by number. */
int udrv_chip_list(char ***names)
{
	char bus[UDRV_PATH_LEN], dev[UDRV_PATH_LEN];
	char **a = NULL, **b = NULL, **tmp;
	int na, nb, n;

	*names = NULL;
	if (udrv_path(bus, sizeof(bus), "/sys/bus/gpio/devices") ||
	    udrv_path(dev, sizeof(dev), "/dev"))
		return -ENAMETOOLONG;
	na = udrv_list_numbered(bus, "gpiochip", &a);
	nb = udrv_list_numbered(dev, "gpiochip", &b);
	if (na < 0)
		na = 0;
	if (nb < 0)
		nb = 0;
	tmp = realloc(a, (size_t)(na + nb + 1) * sizeof(*a));
	if (!tmp) {
		udrv_strv_free(a);
		udrv_strv_free(b);
		return -ENOMEM;
	}
	a = tmp;
	a[na] = NULL;
	n = na;
	for (int i = 0; i < nb; i++) {
		if (strv_contains(a, b[i])) {
			free(b[i]);
			continue;
		}
		a[n++] = b[i];
		a[n] = NULL;
	}
	free(b);
	qsort(a, (size_t)n, sizeof(*a), cmp_chip_names);
	*names = a;
	return n;
}

void udrv_gpio_absent_reason(char *buf, size_t len)
{
	char path[UDRV_PATH_LEN];

	if (udrv_path(path, sizeof(path), "/sys/kernel")) {
		snprintf(buf, len, "UDRV_SYSROOT is too long: cannot look for GPIO chips under '%.200s'",
			 udrv_sysroot());
		return;
	}
	if (!udrv_path_exists(path)) {
		snprintf(buf, len, "sysfs is not mounted at %s/sys: mount -t sysfs sysfs /sys",
			 udrv_sysroot());
		return;
	}
	if (udrv_path(path, sizeof(path), "/sys/bus/gpio") || !udrv_path_exists(path)) {
		snprintf(buf, len,
			 "no GPIO chips: this kernel has no GPIO support (CONFIG_GPIOLIB is off, %s does not exist)",
			 path);
		return;
	}
	snprintf(buf, len,
		 "no GPIO chips: the kernel supports GPIO but no GPIO controller registered a chip (no GPIO hardware, or its driver is not loaded; a container may also hide them)");
}

/* Does the class entry @cls (a /sys/class/gpio/gpiochipB dir) belong to
 * @chip? The entry's device is either gpiochipN itself or its parent. */
static bool sysfs_entry_matches(const struct udrv_chip *chip, const char *cls)
{
	char link[UDRV_PATH_LEN], real[PATH_MAX], child[PATH_MAX + 40];
	const char *base;

	snprintf(link, sizeof(link), "%s/device", cls);
	if (!realpath(link, real))
		return false;
	base = strrchr(real, '/');
	if (base && !strcmp(base + 1, chip->name))
		return true;
	snprintf(child, sizeof(child), "%s/%s", real, chip->name);
	return udrv_path_exists(child);
}

/* The kernel's base is an int >= 0 (GPIO numbers) and ngpio a u16: a
 * number outside those ranges is refused, never wrapped into them. */
static void sysfs_entry_read(struct udrv_chip *chip, const char *cls)
{
	char path[UDRV_PATH_LEN + 16];
	uint64_t v;

	snprintf(path, sizeof(path), "%s/base", cls);
	if (udrv_read_u64(path, &v) == 0 && v <= INT_MAX)
		chip->sysfs_base = (int)v;
	snprintf(path, sizeof(path), "%s/ngpio", cls);
	if (!chip->num_lines && udrv_read_u64(path, &v) == 0 && v <= UINT16_MAX)
		chip->num_lines = (unsigned int)v;
	snprintf(path, sizeof(path), "%s/label", cls);
	if (!chip->label[0])
		udrv_read_str(path, chip->label, sizeof(chip->label));
}

static bool sysfs_label_is(const char *cls, const char *label)
{
	char path[UDRV_PATH_LEN + 16], buf[64];

	snprintf(path, sizeof(path), "%s/label", cls);
	return udrv_read_str(path, buf, sizeof(buf)) >= 0 && !strcmp(buf, label);
}

/*
 * Position of @chip among the gpiochip* siblings that share its parent
 * device. Chips register in order, so bases and numbers rise together: the
 * k-th sibling owns the k-th matching class entry (sorted by base).
 */
static int sibling_rank(const struct udrv_chip *chip, const char *cls)
{
	char link[UDRV_PATH_LEN + 16], real[PATH_MAX];
	char **names = NULL;
	int n, rank = 0;

	snprintf(link, sizeof(link), "%s/device", cls);
	if (!realpath(link, real))
		return 0;
	n = udrv_list_numbered(real, "gpiochip", &names);
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], chip->name))
			rank = i;
	udrv_strv_free(names);
	return rank;
}

void udrv_chip_find_sysfs(struct udrv_chip *chip)
{
	char dir[UDRV_PATH_LEN], cls[UDRV_PATH_LEN], found[UDRV_PATH_LEN] = "";
	char **names = NULL;
	int n, matches = 0, rank = -1;

	if (udrv_path(dir, sizeof(dir), "/sys/class/gpio"))
		return;		/* no sysfs entry can be found: none used */
	n = udrv_list_numbered(dir, "gpiochip", &names);
	for (int i = 0; i < n; i++) {
		snprintf(cls, sizeof(cls), "%s/%s", dir, names[i]);
		if (!sysfs_entry_matches(chip, cls))
			continue;
		if (rank < 0)
			rank = sibling_rank(chip, cls);
		/* several chips under one parent: the label decides, or the
		 * registration order when the label is not known */
		if (chip->label[0] ? sysfs_label_is(cls, chip->label) :
				     matches == rank)
			udrv_strlcpy(found, cls, sizeof(found));
		matches++;
	}
	udrv_strv_free(names);
	if (found[0])
		sysfs_entry_read(chip, found);
}

static const char *const dir_names[] = { "input", "output" };
static const char *const bias_names[] = {
	"as-is", "disabled", "pull-up", "pull-down"
};
static const char *const drive_names[] = {
	"push-pull", "open-drain", "open-source"
};
static const char *const edge_names[] = { "none", "rising", "falling", "both" };
static const char *const clock_names[] = { "monotonic", "realtime", "hte" };

#define ENUM_STR(table, v) \
	((unsigned int)(v) < ARRAY_SIZE(table) ? (table)[v] : "unknown")

const char *udrv_direction_str(enum udrv_direction dir)
{
	return ENUM_STR(dir_names, dir);
}

const char *udrv_bias_str(enum udrv_bias bias)
{
	return ENUM_STR(bias_names, bias);
}

const char *udrv_drive_str(enum udrv_drive drive)
{
	return ENUM_STR(drive_names, drive);
}

const char *udrv_edge_str(enum udrv_edge edge)
{
	return ENUM_STR(edge_names, edge);
}

const char *udrv_clock_str(enum udrv_clock clock)
{
	return ENUM_STR(clock_names, clock);
}
