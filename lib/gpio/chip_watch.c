// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Line-info changes: GPIO_V2_GET_LINEINFO_WATCH_IOCTL on the chip's
 * descriptor, then struct gpio_v2_line_info_changed read from it, one per
 * request, release or reconfiguration of a watched line by any process.
 */
#include <errno.h>
#include <linux/gpio.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "abi.h"
#include "gpio/backend.h"

static const char *const change_names[] = {
	"unknown", "requested", "released", "reconfigured"
};

const char *udrv_info_change_str(enum udrv_info_change change)
{
	return (unsigned int)change < ARRAY_SIZE(change_names) ?
	       change_names[change] : "unknown";
}

static int need_cdev(struct udrv_chip *chip, const char *what)
{
	if (chip->fd >= 0)
		return 0;
	if (!chip->name[0])
		return udrv_err(chip->errmsg, EBADF,
				"%s: the chip is not open (udrv_chip_open() first)",
				what);
	return udrv_err(chip->errmsg, EOPNOTSUPP,
			"%s: %s has no GPIO character device (sysfs GPIO only), and only the character device reports line-info changes",
			what, chip->name);
}

int udrv_chip_fd(const struct udrv_chip *chip)
{
	return chip->fd >= 0 ? chip->fd : -EOPNOTSUPP;
}

static int watch_failed(struct udrv_chip *chip, unsigned int offset,
			const char *op, int err)
{
	if (err == ENOTTY || err == EINVAL)
		return udrv_err(chip->errmsg, ENOTTY,
				"%s: the kernel cannot watch line info (%s: %s; needs Linux 5.10 or later with CONFIG_GPIO_CDEV)",
				chip->path, op, strerror(err));
	if (err == EBUSY)
		return udrv_err(chip->errmsg, EBUSY,
				"line %u of %s is %s watched through this chip handle",
				offset, chip->name,
				strcmp(op, "GPIO_GET_LINEINFO_UNWATCH_IOCTL") ?
				"already" : "not");
	return udrv_err(chip->errmsg, err, "%s(%u) on %s: %s", op, offset,
			chip->path, strerror(err));
}

static int check_offset(struct udrv_chip *chip, unsigned int offset)
{
	if (offset < chip->num_lines)
		return 0;
	return udrv_err(chip->errmsg, EINVAL,
			"offset %u out of range: %s has %u lines (0..%u)",
			offset, chip->name, chip->num_lines,
			chip->num_lines ? chip->num_lines - 1 : 0);
}

int udrv_chip_watch_line_info_sz(struct udrv_chip *chip, unsigned int offset,
				 struct udrv_line_info *info, size_t info_size)
{
	struct gpio_v2_line_info li;
	struct udrv_line_info out;
	int ret;

	if (info) {
		ret = udrv_abi_size(chip->errmsg, &udrv_abi_line_info, info_size);
		if (ret)
			return ret;
	}
	ret = need_cdev(chip, "watching line info");
	if (!ret)
		ret = check_offset(chip, offset);
	if (ret)
		return ret;
	memset(&li, 0, sizeof(li));
	li.offset = offset;
	if (ioctl(chip->fd, GPIO_V2_GET_LINEINFO_WATCH_IOCTL, &li) < 0)
		return watch_failed(chip, offset,
				    "GPIO_V2_GET_LINEINFO_WATCH_IOCTL", errno);
	memset(&out, 0, sizeof(out));
	out.offset = offset;
	udrv_line_info_from_v2(&out, &li);
	if (info)
		udrv_abi_out(&udrv_abi_line_info, info, &out, info_size);
	return 0;
}

int udrv_chip_unwatch_line_info(struct udrv_chip *chip, unsigned int offset)
{
	__u32 off = offset;
	int ret = need_cdev(chip, "unwatching line info");

	if (!ret)
		ret = check_offset(chip, offset);
	if (ret)
		return ret;
	if (ioctl(chip->fd, GPIO_GET_LINEINFO_UNWATCH_IOCTL, &off) < 0)
		return watch_failed(chip, offset,
				    "GPIO_GET_LINEINFO_UNWATCH_IOCTL", errno);
	return 0;
}

int udrv_chip_wait_info_event(struct udrv_chip *chip, int timeout_ms)
{
	struct pollfd pfd = { .fd = chip->fd, .events = POLLIN };
	int ret = need_cdev(chip, "waiting for line-info changes");

	if (ret)
		return ret;
	ret = poll(&pfd, 1, timeout_ms < 0 ? -1 : timeout_ms);
	if (ret < 0)
		return udrv_err(chip->errmsg, errno,
				"waiting for line-info changes on %s: %s",
				chip->name, errno == EINTR ?
				"interrupted by a signal" : strerror(errno));
	if (ret && !(pfd.revents & POLLIN))
		return udrv_err(chip->errmsg, ENODEV,
				"waiting for line-info changes on %s [%s]: the chip is gone (poll reports 0x%x)",
				chip->name, chip->label, (unsigned int)pfd.revents);
	return ret;
}

static int read_failed(struct udrv_chip *chip, ssize_t n, int err)
{
	if (n >= 0)
		return udrv_err(chip->errmsg, EIO,
				"reading a line-info change from %s: %zd bytes, not the kernel's %zu",
				chip->path, n,
				sizeof(struct gpio_v2_line_info_changed));
	return udrv_err(chip->errmsg, err,
			"reading a line-info change from %s: %s", chip->path,
			err == EINTR ? "interrupted by a signal" :
			err == EAGAIN ? "none pending" : strerror(err));
}

int udrv_chip_read_info_event_sz(struct udrv_chip *chip,
				 struct udrv_info_event *event,
				 size_t event_size,
				 struct udrv_line_info *info, size_t info_size)
{
	struct gpio_v2_line_info_changed ch;
	struct udrv_info_event ev;
	struct udrv_line_info li;
	ssize_t n;
	int ret = 0;

	if (event)
		ret = udrv_abi_size(chip->errmsg, &udrv_abi_info_event,
				    event_size);
	if (!ret && info)
		ret = udrv_abi_size(chip->errmsg, &udrv_abi_line_info,
				    info_size);
	if (!ret)
		ret = need_cdev(chip, "reading line-info changes");
	if (ret)
		return ret;
	n = read(chip->fd, &ch, sizeof(ch));
	if (n != (ssize_t)sizeof(ch))
		return read_failed(chip, n, errno);
	memset(&ev, 0, sizeof(ev));
	ev.timestamp_ns = ch.timestamp_ns;
	ev.change = (enum udrv_info_change)ch.event_type;
	ev.offset = ch.info.offset;
	memset(&li, 0, sizeof(li));
	li.offset = ch.info.offset;
	udrv_line_info_from_v2(&li, &ch.info);
	if (event)
		udrv_abi_out(&udrv_abi_info_event, event, &ev, event_size);
	if (info)
		udrv_abi_out(&udrv_abi_line_info, info, &li, info_size);
	return 0;
}
