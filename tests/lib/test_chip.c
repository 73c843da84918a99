// SPDX-License-Identifier: GPL-2.0-only
/*
 * GPIO chips on fake sysfs trees: enumeration, why there are none, opening
 * by name/number/label/path, the sysfs base, and every bad-input message
 * that does not need a real kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "fake_gpio.h"
#include "harness.h"

static struct udrv_chip *open_chip(const char *spec, int expect)
{
	struct udrv_chip *chip = udrv_chip_new();

	CHECK(chip != NULL);
	CHECK_INT(udrv_chip_open(chip, spec), expect);
	return chip;
}

static void test_no_sysfs(void)
{
	char reason[256];
	char **names;

	fake_root();
	CHECK_INT(udrv_chip_list(&names), 0);
	udrv_strv_free(names);
	udrv_gpio_absent_reason(reason, sizeof(reason));
	CHECK_CONTAINS(reason, "sysfs is not mounted");
}

static void test_no_gpiolib(void)
{
	struct udrv_chip *chip;
	char reason[256];
	char **names;

	fake_root();
	fake_sysfs_mounted();
	CHECK_INT(udrv_chip_list(&names), 0);
	udrv_strv_free(names);
	udrv_gpio_absent_reason(reason, sizeof(reason));
	CHECK_CONTAINS(reason, "CONFIG_GPIOLIB");
	chip = open_chip("gpiochip0", -ENOENT);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "no GPIO chip 'gpiochip0'");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "CONFIG_GPIOLIB");
	udrv_chip_free(chip);
}

static void test_no_chips(void)
{
	char reason[256];

	fake_root();
	fake_gpio_bus();
	udrv_gpio_absent_reason(reason, sizeof(reason));
	CHECK_CONTAINS(reason, "no GPIO controller registered a chip");
}

static void test_list_sorted(void)
{
	char **names;

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(10, "b", 600, 4, "ten");
	fake_gpio_chip(2, "a", 512, 8, "two");
	fake_file("dev/gpiochip3", "");	/* a /dev node without sysfs */
	CHECK_INT(udrv_chip_list(&names), 3);
	CHECK_STR(names[0], "gpiochip2");
	CHECK_STR(names[1], "gpiochip3");
	CHECK_STR(names[2], "gpiochip10");
	CHECK(names[3] == NULL);
	udrv_strv_free(names);
}

static void check_sysfs_chip(struct udrv_chip *chip)
{
	CHECK_STR(udrv_chip_name(chip), "gpiochip0");
	CHECK_STR(udrv_chip_label(chip), "fake-wire");
	CHECK_INT(udrv_chip_num_lines(chip), 8);
	CHECK_INT(udrv_chip_sysfs_base(chip), 512);
	CHECK(!udrv_chip_has_cdev(chip));
}

static void test_open_sysfs_only(void)
{
	static const char *const specs[] = { "gpiochip0", "0", "fake-wire" };
	struct udrv_chip *chip;

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "wire", 512, 8, "fake-wire");
	fake_gpio_chip(1, "other", 520, 4, "other");
	for (size_t i = 0; i < 3; i++) {
		chip = open_chip(specs[i], 0);
		check_sysfs_chip(chip);
		udrv_chip_free(chip);
	}
}

static void test_old_base(void)
{
	struct udrv_chip *chip;

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "soc", 0, 32, "gpio-old");	/* pre-6.x numbering */
	chip = open_chip("gpiochip0", 0);
	CHECK_INT(udrv_chip_sysfs_base(chip), 0);
	udrv_chip_free(chip);
}

static void test_two_chips_one_parent(void)
{
	struct udrv_chip *chip;

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "dual", 512, 4, "bank-a");
	fake_gpio_chip(1, "dual", 516, 4, "bank-b");
	chip = open_chip("bank-b", 0);
	CHECK_STR(udrv_chip_name(chip), "gpiochip1");
	udrv_chip_free(chip);
}

static void test_label_not_found(void)
{
	struct udrv_chip *chip;

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "wire", 512, 8, "fake-wire");
	chip = open_chip("pinctrl-bcm2835", -ENOENT);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "no GPIO chip 'pinctrl-bcm2835'");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "available: gpiochip0");
	udrv_chip_free(chip);
}

static void test_not_a_cdev(void)
{
	struct udrv_chip *chip;

	fake_root();
	fake_gpio_bus();
	fake_file("dev/gpiochip0", "not a device");
	chip = open_chip("gpiochip0", -ENOTTY);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "is not a GPIO character device");
	udrv_chip_free(chip);
}

static void test_permission_denied(void)
{
	struct udrv_chip *chip;
	char path[512];

	fake_root();
	fake_gpio_bus();
	fake_file("dev/gpiochip0", "");
	fake_path(path, sizeof(path), "dev/gpiochip0");
	chmod(fake_root_dir(), 0755);
	CHECK(chown(path, 0, 20) == 0);	/* group 20: dialout on Debian */
	CHECK(chmod(path, 0660) == 0);
	if (geteuid() == 0)
		CHECK(setresuid(65534, 65534, 65534) == 0);
	chip = open_chip("gpiochip0", -EACCES);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "Permission denied");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "gpiochip0 is owner root, group ");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), ", mode 0660: add your user to group ");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), " $USER, then log in again) or run as root");
	udrv_chip_free(chip);
}

static void test_line_info_sysfs(void)
{
	struct udrv_line_info info;
	struct udrv_chip *chip;

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "wire", 512, 8, "fake-wire");
	fake_gpio_line(514, "out\n");
	chip = open_chip("gpiochip0", 0);
	CHECK_INT(udrv_chip_line_info(chip, 2, &info), 0);
	CHECK(info.used);
	CHECK_STR(info.consumer, "sysfs");
	CHECK_INT(info.direction, UDRV_DIR_OUTPUT);
	CHECK_INT(udrv_chip_line_info(chip, 3, &info), 0);
	CHECK(!info.used);
	CHECK_INT(udrv_chip_line_info(chip, 8, &info), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "offset 8 out of range");
	CHECK_INT(udrv_chip_find_line(chip, "LED"), -ENOENT);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "sysfs GPIO has no line names");
	udrv_chip_free(chip);
}

static int request_one(struct udrv_chip *chip, enum udrv_backend b,
		       unsigned int off, const struct udrv_line_settings *s)
{
	struct udrv_request_config cfg = { .backend = b };
	struct udrv_request *req = NULL;
	int ret = udrv_chip_request(chip, &cfg, 1, &off, s, &req);

	udrv_request_release(req);
	return ret;
}

static void test_request_errors(void)
{
	struct udrv_line_settings s[2] = { 0 };
	unsigned int dup[2] = { 1, 1 };
	struct udrv_request *req;
	struct udrv_chip *chip;

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "wire", 512, 8, "fake-wire");
	chip = open_chip("gpiochip0", 0);
	CHECK_INT(request_one(chip, UDRV_BACKEND_CDEV, 9, s), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "offset 9 out of range: gpiochip0 (fake-wire) has 8 lines (0..7)");
	CHECK_INT(udrv_chip_request(chip, NULL, 2, dup, s, &req), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "requested twice");
	CHECK_INT(request_one(chip, UDRV_BACKEND_CDEV, 1, s), -ENODEV);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "the sysfs backend (UDRV_BACKEND_SYSFS)");
	CHECK_INT(request_one(chip, UDRV_BACKEND_MMIO, 1, s), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "mmio backend");
	s[0].direction = UDRV_DIR_OUTPUT;
	s[0].edge = UDRV_EDGE_BOTH;
	CHECK_INT(request_one(chip, UDRV_BACKEND_SYSFS, 1, s), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "edge detection needs an input");
	s[0] = (struct udrv_line_settings){ .drive = UDRV_DRIVE_OPEN_DRAIN };
	CHECK_INT(request_one(chip, UDRV_BACKEND_SYSFS, 1, s), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "applies to outputs only");
	udrv_chip_free(chip);
}

static void test_unopened_chip(void)
{
	struct udrv_line_settings s = { 0 };
	struct udrv_chip *chip = udrv_chip_new();
	struct udrv_request *req;
	unsigned int off = 0;

	CHECK_INT(udrv_chip_request(chip, NULL, 1, &off, &s, &req), -EBADF);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "not open");
	CHECK_INT(udrv_chip_open(chip, ""), -EINVAL);
	udrv_chip_free(chip);
}

static void test_enum_strings(void)
{
	enum udrv_backend b;

	CHECK_STR(udrv_edge_str(UDRV_EDGE_BOTH), "both");
	CHECK_STR(udrv_bias_str(UDRV_BIAS_PULL_UP), "pull-up");
	CHECK_STR(udrv_drive_str(UDRV_DRIVE_OPEN_SOURCE), "open-source");
	CHECK_STR(udrv_direction_str(UDRV_DIR_OUTPUT), "output");
	CHECK_STR(udrv_clock_str(UDRV_CLOCK_HTE), "hte");
	CHECK_STR(udrv_edge_str((enum udrv_edge)42), "unknown");
	CHECK_INT(udrv_backend_parse("sysfs", &b), 0);
	CHECK_INT(b, UDRV_BACKEND_SYSFS);
	CHECK_INT(udrv_backend_parse("gpiod", &b), -EINVAL);
}

/* Chip numbers used to go through atoi(): 4294967296 opened gpiochip0 and
 * gpiochip4294967297 gpiochip1. A number out of range is an error. */
static void test_number_out_of_range(void)
{
	static const char *const specs[] = {
		"4294967296", "gpiochip4294967297", "2147483648",
		"99999999999999999999999",
	};
	struct udrv_chip *chip;

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "wire", 512, 8, "fake-wire");
	fake_gpio_chip(1, "other", 520, 4, "other");
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		chip = open_chip(specs[i], -EINVAL);
		CHECK_CONTAINS(udrv_chip_errmsg(chip), "out of range");
		CHECK_STR(udrv_chip_name(chip), "");
		udrv_chip_free(chip);
	}
}

/* A chip udrv cannot open may be the one labelled so: say why, don't
 * answer "no such chip". */
static void test_label_unopenable_chip(void)
{
	struct udrv_chip *chip;
	char path[512];

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "wire", 512, 8, "fake-wire");
	fake_file("dev/gpiochip0", "");
	fake_path(path, sizeof(path), "dev/gpiochip0");
	chmod(fake_root_dir(), 0755);
	CHECK(chmod(path, 0600) == 0);
	if (geteuid() == 0)
		CHECK(setresuid(65534, 65534, 65534) == 0);
	chip = open_chip("fake-wire", -EACCES);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "not every chip could be opened");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "Permission denied");
	udrv_chip_free(chip);
}

/* An empty name matched every unnamed line: 'udrv gpio set =1' drove
 * offset 0. */
static void test_empty_line_name(void)
{
	struct udrv_chip *chip = udrv_chip_new();

	CHECK_INT(udrv_chip_find_line(chip, ""), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "empty line name");
	CHECK_INT(udrv_chip_find_line(chip, NULL), -EINVAL);
	udrv_chip_free(chip);
}

/* A sysroot so long that no path fits: an error, never a half path. */
static void test_sysroot_too_long(void)
{
	struct udrv_chip *chip;
	char **names = NULL;

	fake_sysroot_too_long();
	CHECK_INT(udrv_chip_list(&names), -ENAMETOOLONG);
	CHECK(names == NULL);
	chip = open_chip("gpiochip0", -ENAMETOOLONG);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "UDRV_SYSROOT");
	udrv_chip_free(chip);
}

static void test_path_spec_too_long(void)
{
	char spec[700];
	struct udrv_chip *chip;

	memset(spec, 'a', sizeof(spec) - 1);
	spec[sizeof(spec) - 1] = '\0';
	spec[0] = '/';
	chip = open_chip(spec, -ENAMETOOLONG);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "too long");
	udrv_chip_free(chip);
}

UDRV_TESTS(UDRV_T(test_no_sysfs), UDRV_T(test_no_gpiolib),
	   UDRV_T(test_no_chips), UDRV_T(test_list_sorted),
	   UDRV_T(test_open_sysfs_only), UDRV_T(test_old_base),
	   UDRV_T(test_two_chips_one_parent), UDRV_T(test_label_not_found),
	   UDRV_T(test_not_a_cdev), UDRV_T(test_permission_denied),
	   UDRV_T(test_line_info_sysfs), UDRV_T(test_request_errors),
	   UDRV_T(test_unopened_chip), UDRV_T(test_enum_strings),
	   UDRV_T(test_number_out_of_range), UDRV_T(test_label_unopenable_chip),
	   UDRV_T(test_empty_line_name), UDRV_T(test_sysroot_too_long),
	   UDRV_T(test_path_spec_too_long))
