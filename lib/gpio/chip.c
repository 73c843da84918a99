// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * GPIO chips: open by path, name, number or label; chip and line info
 * through the character device (uAPI v2), or sysfs for chips without one.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi.h"
#include "gpio/backend.h"

struct udrv_chip *udrv_chip_new(void)
{
	struct udrv_chip *chip = calloc(1, sizeof(*chip));

	if (chip) {
		chip->fd = -1;
		chip->num = -1;
		chip->sysfs_base = -ENOENT;
	}
	return chip;
}

void udrv_chip_close(struct udrv_chip *chip)
{
	if (!chip)
		return;
	if (chip->fd >= 0)
		close(chip->fd);
	chip->fd = -1;
	chip->num = -1;
	chip->num_lines = 0;
	chip->sysfs_base = -ENOENT;
	chip->name[0] = chip->label[0] = chip->path[0] = '\0';
}

void udrv_chip_free(struct udrv_chip *chip)
{
	udrv_chip_close(chip);
	free(chip);
}

const char *udrv_chip_errmsg(const struct udrv_chip *chip)
{
	return chip->errmsg;
}

const char *udrv_chip_name(const struct udrv_chip *chip)
{
	return chip->name;
}

const char *udrv_chip_label(const struct udrv_chip *chip)
{
	return chip->label;
}

const char *udrv_chip_path(const struct udrv_chip *chip)
{
	return chip->path;
}

unsigned int udrv_chip_num_lines(const struct udrv_chip *chip)
{
	return chip->num_lines;
}

bool udrv_chip_has_cdev(const struct udrv_chip *chip)
{
	return chip->fd >= 0;
}

int udrv_chip_sysfs_base(const struct udrv_chip *chip)
{
	return chip->sysfs_base;
}

/* "gpiochip12" or "12" -> 12; -1 if @s is not of that form. */
static int chip_number(const char *s)
{
	unsigned int num;

	return udrv_parse_devnum(s, "gpiochip", &num) ? -1 : (int)num;
}

static int chip_open_cdev(struct udrv_chip *chip)
{
	struct gpiochip_info info;
	char hint[UDRV_ERRMSG_LEN];
	int err;

	chip->fd = open(chip->path, O_RDWR | O_CLOEXEC);
	if (chip->fd < 0) {
		err = errno;
		udrv_access_hint(hint, sizeof(hint), err, chip->path);
		return udrv_err(chip->errmsg, err, "cannot open %s: %s (%s)",
				chip->path, strerror(err), hint);
	}
	memset(&info, 0, sizeof(info));
	if (ioctl(chip->fd, GPIO_GET_CHIPINFO_IOCTL, &info) < 0) {
		err = errno;
		close(chip->fd);
		chip->fd = -1;
		/* ENOSYS: what qemu-user says for an ioctl it cannot map */
		if (err == ENOTTY || err == EINVAL || err == ENOSYS)
			return udrv_err(chip->errmsg, ENOTTY,
					"%s is not a GPIO character device (GPIO_GET_CHIPINFO_IOCTL: %s): give a /dev/gpiochipN node",
					chip->path, strerror(err));
		return udrv_err(chip->errmsg, err, "GPIO_GET_CHIPINFO_IOCTL on %s: %s",
				chip->path, strerror(err));
	}
	udrv_strlcpy(chip->label, info.label, sizeof(chip->label));
	chip->num_lines = info.lines;
	return 0;
}

/* A chip with sysfs GPIO but no character device (CONFIG_GPIO_CDEV=n). */
static int chip_open_sysfs_only(struct udrv_chip *chip)
{
	char dev[UDRV_PATH_LEN];

	if (udrv_path(dev, sizeof(dev), "/sys/bus/gpio/devices/%s", chip->name))
		return udrv_path_err(chip->errmsg, chip->name);
	if (!udrv_path_exists(dev))
		return -ENOENT;
	if (chip->sysfs_base < 0)
		return udrv_err(chip->errmsg, ENOENT,
				"%s exists but has neither a character device (%s) nor sysfs GPIO: the kernel lacks CONFIG_GPIO_CDEV and CONFIG_GPIO_SYSFS",
				chip->name, chip->path);
	return 0;
}

/* The label of chip @name (gpiochipN), for a list of chips: "?" if unknown. */
static void chip_label_of(const char *name, char *label, size_t len)
{
	struct udrv_chip *c = udrv_chip_new();

	snprintf(label, len, "?");
	if (!c)
		return;
	c->num = chip_number(name);
	udrv_strlcpy(c->name, name, sizeof(c->name));
	if (c->num >= 0 &&
	    !udrv_path(c->path, sizeof(c->path), "/dev/%s", c->name)) {
		if (!udrv_path_exists(c->path) || chip_open_cdev(c))
			udrv_chip_find_sysfs(c);
		if (c->label[0])
			snprintf(label, len, "%s", c->label);
	}
	udrv_chip_free(c);
}

static void chip_list_available(char *buf, size_t len)
{
	char **names = NULL, label[32];
	size_t used = 0;
	int n;

	n = udrv_chip_list(&names);
	if (n <= 0) {
		udrv_gpio_absent_reason(buf, len);
		udrv_strv_free(names);
		return;
	}
	used += snprintf(buf, len, "available:");
	for (int i = 0; i < n && used < len; i++) {
		chip_label_of(names[i], label, sizeof(label));
		used += snprintf(buf + used, len - used, " %s [%s]", names[i],
				 label);
	}
	udrv_strv_free(names);
}

static int chip_not_found(struct udrv_chip *chip, const char *spec)
{
	char avail[UDRV_ERRMSG_LEN - 64];

	chip_list_available(avail, sizeof(avail));
	return udrv_err(chip->errmsg, ENOENT, "no GPIO chip '%s' (%s)",
			spec, avail);
}

static int chip_open_number(struct udrv_chip *chip, int num, const char *spec)
{
	int ret;

	chip->num = num;
	snprintf(chip->name, sizeof(chip->name), "gpiochip%d", num);
	if (udrv_path(chip->path, sizeof(chip->path), "/dev/%s", chip->name))
		return udrv_path_err(chip->errmsg, chip->name);
	udrv_chip_find_sysfs(chip);
	if (udrv_path_exists(chip->path))
		return chip_open_cdev(chip);
	ret = chip_open_sysfs_only(chip);
	if (ret == -ENOENT)
		return chip_not_found(chip, spec);
	return ret;
}

static int chip_open_path(struct udrv_chip *chip, const char *path)
{
	const char *base = strrchr(path, '/') + 1;
	int ret;

	if (strlen(path) >= sizeof(chip->path) || strlen(base) >= sizeof(chip->name))
		return udrv_err(chip->errmsg, ENAMETOOLONG,
				"chip path '%.64s...' is too long (at most %zu bytes)",
				path, sizeof(chip->path) - 1);
	udrv_strlcpy(chip->path, path, sizeof(chip->path));
	udrv_strlcpy(chip->name, base, sizeof(chip->name));
	chip->num = strncmp(base, "gpiochip", 8) ? -1 : chip_number(base);
	ret = chip_open_cdev(chip);
	if (ret == 0 && chip->num >= 0)
		udrv_chip_find_sysfs(chip);
	return ret;
}

/*
 * The chip whose label is @label. A chip that cannot be opened might be the
 * one: then the answer is that error (permission, most often), not "no such
 * chip".
 */
static int chip_open_label(struct udrv_chip *chip, const char *label)
{
	char **names = NULL, unopened[UDRV_ERRMSG_LEN] = "";
	int n, ret = -ENOENT, open_err = 0;

	n = udrv_chip_list(&names);
	for (int i = 0; i < n && ret == -ENOENT; i++) {
		udrv_chip_close(chip);
		ret = chip_open_number(chip, chip_number(names[i]), names[i]);
		if (ret) {
			if (!open_err) {
				open_err = -ret;
				memcpy(unopened, chip->errmsg, sizeof(unopened));
			}
			ret = -ENOENT;
			continue;
		}
		if (strcmp(chip->label, label))
			ret = -ENOENT;
	}
	udrv_strv_free(names);
	if (ret == 0)
		return 0;
	udrv_chip_close(chip);
	if (open_err)
		return udrv_err(chip->errmsg, open_err,
				"no chip labelled '%s' among those udrv could open, and not every chip could be opened: %s",
				label, unopened);
	return chip_not_found(chip, label);
}

int udrv_chip_open(struct udrv_chip *chip, const char *spec)
{
	unsigned int num;
	int ret;

	udrv_chip_close(chip);
	chip->errmsg[0] = '\0';
	if (!spec || !*spec)
		return udrv_err(chip->errmsg, EINVAL,
				"no chip given: use a path (/dev/gpiochip0), a name (gpiochip0), a number or a label");
	if (spec[0] == '/')
		return chip_open_path(chip, spec);
	ret = udrv_parse_devnum(spec, "gpiochip", &num);
	if (ret == -ERANGE)
		return udrv_err(chip->errmsg, EINVAL,
				"chip number in '%s' is out of range (at most %d): give the N of an existing /dev/gpiochipN",
				spec, INT32_MAX);
	if (ret == 0)
		return chip_open_number(chip, (int)num, spec);
	return chip_open_label(chip, spec);
}

static enum udrv_edge flags_edge(uint64_t flags)
{
	bool r = flags & GPIO_V2_LINE_FLAG_EDGE_RISING;
	bool f = flags & GPIO_V2_LINE_FLAG_EDGE_FALLING;

	return r && f ? UDRV_EDGE_BOTH : r ? UDRV_EDGE_RISING :
	       f ? UDRV_EDGE_FALLING : UDRV_EDGE_NONE;
}

void udrv_line_info_from_v2(struct udrv_line_info *info,
			    const struct gpio_v2_line_info *li)
{
	uint64_t f = li->flags;

	udrv_strlcpy(info->name, li->name, sizeof(info->name));
	udrv_strlcpy(info->consumer, li->consumer, sizeof(info->consumer));
	info->used = f & GPIO_V2_LINE_FLAG_USED;
	info->direction = f & GPIO_V2_LINE_FLAG_OUTPUT ? UDRV_DIR_OUTPUT :
							 UDRV_DIR_INPUT;
	info->active_low = f & GPIO_V2_LINE_FLAG_ACTIVE_LOW;
	info->bias = f & GPIO_V2_LINE_FLAG_BIAS_PULL_UP ? UDRV_BIAS_PULL_UP :
		     f & GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN ? UDRV_BIAS_PULL_DOWN :
		     f & GPIO_V2_LINE_FLAG_BIAS_DISABLED ? UDRV_BIAS_DISABLED :
		     UDRV_BIAS_AS_IS;
	info->drive = f & GPIO_V2_LINE_FLAG_OPEN_DRAIN ? UDRV_DRIVE_OPEN_DRAIN :
		      f & GPIO_V2_LINE_FLAG_OPEN_SOURCE ?
		      UDRV_DRIVE_OPEN_SOURCE : UDRV_DRIVE_PUSH_PULL;
	info->edge = flags_edge(f);
	info->event_clock = f & GPIO_V2_LINE_FLAG_EVENT_CLOCK_REALTIME ?
			    UDRV_CLOCK_REALTIME :
			    f & GPIO_V2_LINE_FLAG_EVENT_CLOCK_HTE ?
			    UDRV_CLOCK_HTE : UDRV_CLOCK_MONOTONIC;
	for (unsigned int i = 0; i < li->num_attrs; i++)
		if (li->attrs[i].id == GPIO_V2_LINE_ATTR_ID_DEBOUNCE)
			info->debounce_us = li->attrs[i].debounce_period_us;
}

/* Without a character device: what sysfs says about an exported line. */
static int line_info_sysfs(struct udrv_chip *chip, unsigned int offset,
			   struct udrv_line_info *info)
{
	char path[UDRV_PATH_LEN], buf[16];
	int gpio;

	if (udrv_chip_gpio_number(chip, offset, &gpio))
		return udrv_err(chip->errmsg, ERANGE,
				"line %u of %s: sysfs base %d + offset is beyond the GPIO numbers",
				offset, chip->name, chip->sysfs_base);
	if (udrv_path(path, sizeof(path), "/sys/class/gpio/gpio%d/direction", gpio))
		return udrv_path_err(chip->errmsg, "the sysfs GPIO directory");
	if (udrv_read_str(path, buf, sizeof(buf)) < 0)
		return 0;
	info->used = true;
	udrv_strlcpy(info->consumer, "sysfs", sizeof(info->consumer));
	info->direction = strcmp(buf, "in") ? UDRV_DIR_OUTPUT : UDRV_DIR_INPUT;
	if (udrv_path(path, sizeof(path), "/sys/class/gpio/gpio%d/active_low", gpio) == 0 &&
	    udrv_read_str(path, buf, sizeof(buf)) > 0)
		info->active_low = buf[0] == '1';
	return 0;
}

static int line_info(struct udrv_chip *chip, unsigned int offset,
		     struct udrv_line_info *info)
{
	struct gpio_v2_line_info li;
	int err;

	memset(info, 0, sizeof(*info));
	info->offset = offset;
	if (offset >= chip->num_lines)
		return udrv_err(chip->errmsg, EINVAL,
				"offset %u out of range: %s has %u lines (0..%u)",
				offset, chip->name, chip->num_lines,
				chip->num_lines ? chip->num_lines - 1 : 0);
	if (chip->fd < 0)
		return line_info_sysfs(chip, offset, info);
	memset(&li, 0, sizeof(li));
	li.offset = offset;
	if (ioctl(chip->fd, GPIO_V2_GET_LINEINFO_IOCTL, &li) < 0) {
		err = errno;
		if (err == ENOTTY)
			return udrv_err(chip->errmsg, ENOTTY,
					"%s: the kernel lacks GPIO character device uAPI v2 (needs Linux 5.10 or later with CONFIG_GPIO_CDEV); request the lines through the sysfs backend (UDRV_BACKEND_SYSFS)",
					chip->path);
		return udrv_err(chip->errmsg, err,
				"GPIO_V2_GET_LINEINFO_IOCTL(%u) on %s: %s%s",
				offset, chip->path, strerror(err),
				err == ENODEV ? " (device gone)" : "");
	}
	udrv_line_info_from_v2(info, &li);
	return 0;
}

/* The info is written also on failure (offset set, the rest zero). */
int udrv_chip_line_info_sz(struct udrv_chip *chip, unsigned int offset,
			   struct udrv_line_info *info, size_t info_size)
{
	struct udrv_line_info li;
	int ret = udrv_abi_size(chip->errmsg, &udrv_abi_line_info, info_size);

	if (ret)
		return ret;
	ret = line_info(chip, offset, &li);
	udrv_abi_out(&udrv_abi_line_info, info, &li, info_size);
	return ret;
}

int udrv_chip_find_line(struct udrv_chip *chip, const char *name)
{
	struct udrv_line_info info;
	int ret;

	if (!name || !*name)
		return udrv_err(chip->errmsg, EINVAL,
				"empty line name: name a line or give its offset (an empty name would match every unnamed line)");
	if (chip->fd < 0)
		return udrv_err(chip->errmsg, ENOENT,
				"cannot look up line '%s': %s has no character device, and sysfs GPIO has no line names; give an offset",
				name, chip->name);
	for (unsigned int i = 0; i < chip->num_lines; i++) {
		ret = udrv_chip_line_info(chip, i, &info);
		if (ret)
			return ret;
		if (!strcmp(info.name, name))
			return (int)i;
	}
	return udrv_err(chip->errmsg, ENOENT, "%s (%s) has no line named '%s'",
			chip->name, chip->label, name);
}

int udrv_chip_line_info_quiet(struct udrv_chip *chip, unsigned int offset,
			      struct udrv_line_info *info)
{
	char saved[UDRV_ERRMSG_LEN];
	int ret;

	memcpy(saved, chip->errmsg, sizeof(saved));
	ret = udrv_chip_line_info(chip, offset, info);
	memcpy(chip->errmsg, saved, sizeof(saved));
	return ret;
}

void udrv_chip_describe_holder(struct udrv_chip *chip, unsigned int offset,
			       char *buf, size_t len)
{
	struct udrv_line_info info;

	if (udrv_chip_line_info_quiet(chip, offset, &info) == 0 && info.used)
		snprintf(buf, len, "held by consumer '%s'",
			 info.consumer[0] ? info.consumer : "?");
	else
		snprintf(buf, len, "held by another user");
}
