// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sysfs GPIO backend on a fake tree whose export file is served like the
 * kernel serves it: export, base + offset translation, direction and
 * active-low, get/set through the value file, unexport on release, and the
 * messages for what sysfs cannot do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "fake_gpio.h"
#include "harness.h"

static struct udrv_chip *setup(int base)
{
	struct udrv_chip *chip = udrv_chip_new();

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "wire", base, 8, "fake-wire");
	fake_gpio_export_start();
	CHECK_INT(udrv_chip_open(chip, "fake-wire"), 0);
	return chip;
}

static const struct udrv_request_config sysfs_cfg = {
	.backend = UDRV_BACKEND_SYSFS,
};

static void test_output_set_get(void)
{
	struct udrv_line_settings s = { .direction = UDRV_DIR_OUTPUT, .value = 1 };
	struct udrv_chip *chip = setup(512);
	struct udrv_request *req;
	unsigned int off = 2;
	char *unexported;

	CHECK_INT(udrv_chip_request(chip, &sysfs_cfg, 1, &off, &s, &req), 0);
	CHECK(fake_starts_with("sys/class/gpio/gpio514/direction", "high"));
	CHECK(fake_starts_with("sys/class/gpio/gpio514/active_low", "0"));
	CHECK_INT(udrv_request_backend(req), UDRV_BACKEND_SYSFS);
	CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
	CHECK(fake_starts_with("sys/class/gpio/gpio514/value", "1"));
	CHECK_INT(udrv_request_get_value(req, 0), 1);
	CHECK_INT(udrv_request_set_value(req, 0, 0), 0);
	CHECK_INT(udrv_request_get_value(req, 0), 0);
	CHECK_INT(udrv_request_get_value(req, 1), -EINVAL);
	CHECK_CONTAINS(udrv_request_errmsg(req), "index 1 out of range");
	udrv_request_release(req);
	unexported = fake_read("sys/class/gpio/unexport");
	CHECK_STR(unexported, "514");
	free(unexported);
	udrv_chip_free(chip);
}

static void test_multi_line_mask(void)
{
	struct udrv_line_settings s[3] = {
		{ .direction = UDRV_DIR_OUTPUT },
		{ .direction = UDRV_DIR_OUTPUT },
		{ .direction = UDRV_DIR_OUTPUT },
	};
	unsigned int offs[3] = { 0, 4, 6 };
	struct udrv_chip *chip = setup(0);
	struct udrv_request *req;
	uint64_t v = 0;

	CHECK_INT(udrv_chip_request(chip, &sysfs_cfg, 3, offs, s, &req), 0);
	CHECK_INT(udrv_request_set_values(req, 0x5, 0x5), 0);
	CHECK(fake_starts_with("sys/class/gpio/gpio0/value", "1"));
	CHECK(fake_starts_with("sys/class/gpio/gpio4/value", "0"));
	CHECK(fake_starts_with("sys/class/gpio/gpio6/value", "1"));
	CHECK_INT(udrv_request_get_values(req, 0x7, &v), 0);
	CHECK_INT(v, 0x5);
	CHECK_INT(udrv_request_set_values(req, 0x8, 0), -EINVAL);
	CHECK_CONTAINS(udrv_request_errmsg(req), "beyond the 3 requested");
	udrv_request_release(req);
	udrv_chip_free(chip);
}

static void test_active_low_output(void)
{
	struct udrv_line_settings s = {
		.direction = UDRV_DIR_OUTPUT, .value = 1, .active_low = true,
	};
	struct udrv_chip *chip = setup(512);
	struct udrv_request *req;
	unsigned int off = 0;

	CHECK_INT(udrv_chip_request(chip, &sysfs_cfg, 1, &off, &s, &req), 0);
	/* logical 1 on an active-low line is a physical low */
	CHECK(fake_starts_with("sys/class/gpio/gpio512/direction", "low"));
	CHECK(fake_starts_with("sys/class/gpio/gpio512/active_low", "1"));
	udrv_request_release(req);
	udrv_chip_free(chip);
}

static void test_reconfigure(void)
{
	struct udrv_line_settings s = { .direction = UDRV_DIR_OUTPUT };
	struct udrv_chip *chip = setup(512);
	struct udrv_request *req;
	unsigned int off = 3;

	CHECK_INT(udrv_chip_request(chip, &sysfs_cfg, 1, &off, &s, &req), 0);
	CHECK(fake_starts_with("sys/class/gpio/gpio515/direction", "low"));
	s.direction = UDRV_DIR_INPUT;
	CHECK_INT(udrv_request_reconfigure(req, &s), 0);
	CHECK(fake_starts_with("sys/class/gpio/gpio515/direction", "in"));
	s.bias = UDRV_BIAS_PULL_UP;
	CHECK_INT(udrv_request_reconfigure(req, &s), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_request_errmsg(req), "sysfs GPIO cannot set bias");
	udrv_request_release(req);
	udrv_chip_free(chip);
}

static void test_already_exported(void)
{
	struct udrv_line_settings s = { 0 };
	struct udrv_chip *chip = setup(512);
	struct udrv_request *req;
	unsigned int off = 1;
	char *unexported;

	/* someone else's export: refused, untouched (it used to be adopted
	 * and its direction and active_low rewritten) */
	fake_gpio_line(513, "in\n");
	s.direction = UDRV_DIR_OUTPUT;
	s.active_low = true;
	CHECK_INT(udrv_chip_request(chip, &sysfs_cfg, 1, &off, &s, &req), -EBUSY);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "already exported in sysfs");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "echo 513 > /sys/class/gpio/unexport");
	CHECK(fake_starts_with("sys/class/gpio/gpio513/direction", "in"));
	CHECK(fake_starts_with("sys/class/gpio/gpio513/active_low", "0"));
	unexported = fake_read("sys/class/gpio/unexport");
	CHECK_STR(unexported, "");	/* not ours to unexport */
	free(unexported);
	udrv_chip_free(chip);
}

static void test_unsupported_settings(void)
{
	struct udrv_line_settings s = { .debounce_us = 100 };
	struct udrv_chip *chip = setup(512);
	struct udrv_request *req;
	unsigned int off = 1;

	CHECK_INT(udrv_chip_request(chip, &sysfs_cfg, 1, &off, &s, &req),
		  -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "cannot set debounce; use the cdev backend");
	udrv_chip_free(chip);
}

static void test_no_sysfs_gpio(void)
{
	struct udrv_line_settings s = { 0 };
	struct udrv_chip *chip = udrv_chip_new();
	struct udrv_request *req;
	unsigned int off = 0;

	fake_root();
	fake_gpio_bus();
	fake_dir("sys/bus/gpio/devices/gpiochip0");
	fake_file("dev/gpiochip0", "");
	/* a chip on the bus, but no /sys/class/gpio entry for it */
	CHECK_INT(udrv_chip_open(chip, "gpiochip0"), -ENOTTY);
	udrv_chip_close(chip);
	fake_gpio_chip(1, "x", 512, 4, "x");
	CHECK_INT(udrv_chip_open(chip, "gpiochip1"), 0);
	CHECK_INT(udrv_chip_request(chip, &sysfs_cfg, 1, &off, &s, &req),
		  -ENOTSUP);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "CONFIG_GPIO_SYSFS");
	udrv_chip_free(chip);
}

static void test_wait_timeout(void)
{
	struct udrv_line_settings s = { 0 };
	struct udrv_chip *chip = setup(512);
	struct udrv_request *req;
	unsigned int off = 1;

	CHECK_INT(udrv_chip_request(chip, &sysfs_cfg, 1, &off, &s, &req), 0);
	CHECK(udrv_request_fd(req) >= 0);
	CHECK_INT(udrv_request_wait_events(req, 20), 0);
	CHECK_INT(udrv_request_lost_events(req), 0);
	udrv_request_release(req);
	udrv_chip_free(chip);
}

/* A reconfigure that fails at line 1 used to leave line 0 changed (and, with
 * edges, its epoll registration out of step with the request's settings, so
 * that no reconfigure could ever succeed again). Now all lines or none. */
static void test_reconfigure_half_way(void)
{
	struct udrv_line_settings s[2] = {
		{ .direction = UDRV_DIR_OUTPUT }, { .direction = UDRV_DIR_OUTPUT },
	};
	unsigned int offs[2] = { 1, 2 };
	struct udrv_chip *chip = setup(512);
	struct udrv_request *req;
	char path[512];

	CHECK_INT(udrv_chip_request(chip, &sysfs_cfg, 2, offs, s, &req), 0);
	CHECK(fake_starts_with("sys/class/gpio/gpio513/direction", "low"));
	/* line 2's direction cannot be written */
	fake_path(path, sizeof(path), "sys/class/gpio/gpio514/direction");
	CHECK(unlink(path) == 0 && mkdir(path, 0755) == 0);
	s[0].direction = s[1].direction = UDRV_DIR_INPUT;
	CHECK(udrv_request_reconfigure(req, s) < 0);
	CHECK_CONTAINS(udrv_request_errmsg(req), "gpio514/direction");
	CHECK(fake_starts_with("sys/class/gpio/gpio513/direction", "low"));	/* back */
	/* fixed: the request can be reconfigured again */
	CHECK(rmdir(path) == 0);
	fake_file("sys/class/gpio/gpio514/direction", "low\n");
	CHECK_INT(udrv_request_reconfigure(req, s), 0);
	CHECK(fake_starts_with("sys/class/gpio/gpio513/direction", "in"));
	CHECK(fake_starts_with("sys/class/gpio/gpio514/direction", "in"));
	udrv_request_release(req);
	udrv_chip_free(chip);
}

/* A line the driver names gets an entry by that name: without a character
 * device udrv cannot know the name, and finds the one new entry of its
 * chip. */
static void test_export_named_entry(void)
{
	struct udrv_line_settings s = { .direction = UDRV_DIR_OUTPUT, .value = 1 };
	struct udrv_chip *chip = setup(512);
	struct udrv_request *req;
	unsigned int off = 4;

	fake_gpio_export_as("wire", "LED4", false);
	CHECK_INT(udrv_chip_request(chip, &sysfs_cfg, 1, &off, &s, &req), 0);
	CHECK(fake_starts_with("sys/class/gpio/LED4/direction", "high"));
	udrv_request_release(req);
	udrv_chip_free(chip);
}

/* Any entry that appeared during the export used to be taken as ours: a
 * line of another device, exported meanwhile by someone else, was then
 * driven. Now only a new entry of our chip counts. */
static void test_export_stray_entry(void)
{
	struct udrv_line_settings s = { .direction = UDRV_DIR_OUTPUT, .value = 1 };
	struct udrv_chip *chip = setup(512);
	struct udrv_request *req;
	unsigned int off = 4;

	fake_gpio_export_as("wire", "other-line", true);
	CHECK_INT(udrv_chip_request(chip, &sysfs_cfg, 1, &off, &s, &req), -ETIMEDOUT);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "no /sys/class/gpio entry of gpiochip0");
	CHECK(fake_starts_with("sys/class/gpio/other-line/direction", "in"));
	udrv_chip_free(chip);
}

UDRV_TESTS(UDRV_T(test_output_set_get), UDRV_T(test_multi_line_mask),
	   UDRV_T(test_active_low_output), UDRV_T(test_reconfigure),
	   UDRV_T(test_reconfigure_half_way), UDRV_T(test_export_named_entry),
	   UDRV_T(test_export_stray_entry),
	   UDRV_T(test_already_exported), UDRV_T(test_unsupported_settings),
	   UDRV_T(test_no_sysfs_gpio), UDRV_T(test_wait_timeout))
