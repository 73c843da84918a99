// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hardware PWM (lib/pwm/) on a fake PWM class whose sysfs files answer as
 * Linux 6.1's do (fake_pwm_sysfs.c, -Wl,--wrap=write): chips by number,
 * path and parent device; the channel range-checked, exported, waited for
 * and unexported only by the handle that exported it; the period and duty
 * cycle written in the order the kernel takes; the refusals and their
 * messages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "fake_pwm.h"
#include "harness.h"

#define SERVO_NS	20000000ULL	/* 50 Hz */

static void setup(void)
{
	fake_root();
	fake_pwm_chip(0, "fe20c000.pwm", 2);
}

static struct udrv_pwm *open_pwm(const char *chip, unsigned int ch, unsigned int flags,
				 int want)
{
	struct udrv_pwm *pwm = udrv_pwm_new();

	CHECK(pwm != NULL);
	CHECK_INT(udrv_pwm_open(pwm, chip, ch, flags), want);
	return pwm;
}

static void check_log(unsigned int chip, const char *want)
{
	char *log = fake_pwm_log(chip);

	CHECK_STR(log, want);
	free(log);
}

static void fake_chmod(const char *rel, mode_t mode)
{
	char path[512];

	fake_path(path, sizeof(path), rel);
	CHECK_INT(chmod(path, mode), 0);
}

static bool fake_exists(const char *rel)
{
	char path[512];

	fake_path(path, sizeof(path), rel);
	return access(path, F_OK) == 0;
}

static void test_export_then_unexport_at_close(void)
{
	struct udrv_pwm *pwm;
	uint64_t ns = 1;

	setup();
	pwm = open_pwm("0", 1, 0, 0);
	CHECK(udrv_pwm_owns_export(pwm));
	CHECK_INT(udrv_pwm_channel(pwm), 1);
	CHECK_INT(udrv_pwm_chip_number(pwm), 0);
	CHECK_INT(udrv_pwm_npwm(pwm), 2);
	CHECK_STR(udrv_pwm_device(pwm), "fe20c000.pwm");
	CHECK_INT(udrv_pwm_period_ns(pwm, &ns), 0);
	CHECK_INT(ns, 0);
	CHECK_INT(udrv_pwm_enabled(pwm), 0);
	check_log(0, "export 1\n");
	CHECK(fake_exists("sys/class/pwm/pwmchip0/pwm1/enable"));
	udrv_pwm_free(pwm);
	check_log(0, "export 1\nunexport 1\n");
	CHECK(!fake_exists("sys/devices/platform/fe20c000.pwm/pwm/pwmchip0/pwm1"));
}

/* Exported before (a boot script, another program): used, left exported. */
static void test_exported_before_is_left(void)
{
	struct udrv_pwm *pwm, *other;

	setup();
	fake_pwm_channel(0, 0, SERVO_NS, 1500000, "normal", 1);
	pwm = open_pwm("pwmchip0", 0, 0, 0);
	CHECK(!udrv_pwm_owns_export(pwm));
	udrv_pwm_free(pwm);
	check_log(0, "");
	/* two handles: only the one that exported unexports */
	pwm = open_pwm("0", 1, 0, 0);
	other = open_pwm("0", 1, 0, 0);
	CHECK(!udrv_pwm_owns_export(other));
	udrv_pwm_free(other);
	check_log(0, "export 1\n");
	udrv_pwm_free(pwm);
	check_log(0, "export 1\nunexport 1\n");
}

static void test_keep_and_no_export_flags(void)
{
	struct udrv_pwm *pwm;

	setup();
	pwm = open_pwm("0", 0, UDRV_PWM_NO_EXPORT, -ENOENT);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm),
		       "channel 0 of pwmchip0 (fe20c000.pwm) is not exported");
	udrv_pwm_free(pwm);
	check_log(0, "");
	pwm = open_pwm("0", 0, UDRV_PWM_KEEP_EXPORTED, 0);
	CHECK(udrv_pwm_owns_export(pwm));
	udrv_pwm_free(pwm);
	check_log(0, "export 0\n");	/* and no unexport */
	pwm = open_pwm("0", 0, UDRV_PWM_NO_EXPORT, 0);
	udrv_pwm_free(pwm);
	/* kept once its settings took; a failure before undoes the export */
	pwm = open_pwm("0", 1, 0, 0);
	udrv_pwm_set_keep_exported(pwm, true);
	udrv_pwm_free(pwm);
	pwm = open_pwm("0", 1, 0, 0);
	udrv_pwm_free(pwm);
	check_log(0, "export 0\nexport 1\n");
	pwm = open_pwm("0", 0, 0x8, -EINVAL);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "unknown flags 0x8");
	udrv_pwm_free(pwm);
	check_log(0, "export 0\nexport 1\n");
}

static void check_chip(const char *spec, int want, unsigned int num)
{
	struct udrv_pwm *pwm = udrv_pwm_new();

	CHECK_INT(udrv_pwm_open_chip(pwm, spec), want);
	if (!want) {
		CHECK_INT(udrv_pwm_chip_number(pwm), num);
		CHECK_INT(udrv_pwm_channel(pwm), -1);
	} else {
		CHECK(udrv_pwm_errmsg(pwm)[0] != '\0');
	}
	udrv_pwm_free(pwm);
}

static void test_chip_by_number_path_or_device(void)
{
	struct udrv_pwm *pwm = udrv_pwm_new();

	setup();
	fake_pwm_chip(2, "0000:00:1f.0", 4);
	check_chip("0", 0, 0);
	check_chip("pwmchip2", 0, 2);
	check_chip("/sys/class/pwm/pwmchip2", 0, 2);
	check_chip("/dev/pwmchip0", 0, 0);
	check_chip("fe20c000.pwm", 0, 0);
	check_chip("0000:00:1f.0", 0, 2);
	check_chip("", -EINVAL, 0);
	check_chip("pwmchip7", -ENOENT, 0);
	check_chip("01", -ENOENT, 0);
	check_chip("/sys/class/pwm/2", -ENOENT, 0);
	check_chip("/sys/class/pwm/pwmchip2/", -ENOENT, 0);
	check_chip("pwmchip2147483648", -ERANGE, 0);
	CHECK_INT(udrv_pwm_open_chip(pwm, "fe20c000"), -ENOENT);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "no PWM chip 'fe20c000': give its number (0)");
	CHECK_INT(udrv_pwm_open_chip(pwm, "0000:00:1f.0"), 0);
	CHECK_INT(udrv_pwm_npwm(pwm), 4);
	CHECK_STR(udrv_pwm_device(pwm), "0000:00:1f.0");
	/* two chips of one device: which one is not guessed */
	fake_pwm_chip(3, "0000:00:1f.0", 1);
	CHECK_INT(udrv_pwm_open_chip(pwm, "0000:00:1f.0"), -EINVAL);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm),
		       "2 PWM chips belong to device 0000:00:1f.0 (pwmchip2, pwmchip3)");
	udrv_pwm_free(pwm);
}

static void test_no_pwm_class(void)
{
	struct udrv_pwm *pwm = udrv_pwm_new();
	char **names = NULL;

	fake_root();
	fake_dir("sys/kernel");
	CHECK_INT(udrv_pwm_open(pwm, "0", 0, 0), -ENOENT);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "this system has no PWM class");
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "CONFIG_PWM");
	CHECK_INT(udrv_pwm_list(&names), 0);
	CHECK(names == NULL || names[0] == NULL);
	udrv_strv_free(names);
	udrv_pwm_free(pwm);
}

static void test_list_sorted_by_number(void)
{
	char **names = NULL;

	setup();
	fake_pwm_chip(10, "", 1);
	fake_pwm_chip(2, "pwm-b", 1);
	CHECK_INT(udrv_pwm_list(&names), 3);
	CHECK_STR(names[0], "pwmchip0");
	CHECK_STR(names[1], "pwmchip2");
	CHECK_STR(names[2], "pwmchip10");
	CHECK(names[3] == NULL);
	udrv_strv_free(names);
}

static void test_channel_range(void)
{
	struct udrv_pwm *pwm;

	setup();
	pwm = open_pwm("0", 2, 0, -ERANGE);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm),
		       "pwmchip0 (fe20c000.pwm) has 2 channels, 0 to 1: no channel 2");
	udrv_pwm_free(pwm);
	fake_pwm_chip(1, "", 0);
	pwm = open_pwm("1", 0, 0, -ERANGE);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "pwmchip1 has no channels");
	udrv_pwm_free(pwm);
	check_log(0, "");
}

static void test_strict_numbers(void)
{
	struct udrv_pwm *pwm;
	enum udrv_pwm_polarity pol;
	uint64_t ns = 7;
	char rel[224];

	fake_root();
	fake_pwm_chip(0, "p", 2);
	fake_pwm_control(0, "npwm", "2x\n");
	pwm = open_pwm("0", 0, 0, -EIO);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "reads '2x', not a channel count");
	udrv_pwm_free(pwm);
	fake_pwm_control(0, "npwm", "2\n");
	fake_pwm_channel(0, 0, SERVO_NS, 0, "both", 2);
	fake_pwm_attr(rel, sizeof(rel), 0, 0, "period");
	fake_file(rel, "12abc\n");
	pwm = open_pwm("0", 0, 0, 0);
	CHECK_INT(udrv_pwm_period_ns(pwm, &ns), -EIO);
	CHECK_INT(ns, 7);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "period reads '12abc', not a number of ns");
	fake_file(rel, "18446744073709551616\n");
	CHECK_INT(udrv_pwm_period_ns(pwm, &ns), -EIO);
	fake_file(rel, "18446744073709551615\n");
	CHECK_INT(udrv_pwm_period_ns(pwm, &ns), 0);
	CHECK(ns == UINT64_MAX);
	CHECK_INT(udrv_pwm_enabled(pwm), -EIO);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "enable reads '2', neither 0 nor 1");
	CHECK_INT(udrv_pwm_polarity(pwm, &pol), -EIO);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "polarity reads 'both'");
	udrv_pwm_free(pwm);
}

/* 20 ms / 15 ms to 10 ms / 5 ms: the kernel refuses a period below the
 * duty cycle, so the duty cycle goes first. */
static void test_shrinking_period_writes_duty_first(void)
{
	struct udrv_pwm *pwm;
	uint64_t period = 0, duty = 0;

	setup();
	fake_pwm_channel(0, 0, SERVO_NS, 15000000, "normal", 1);
	pwm = open_pwm("0", 0, 0, 0);
	CHECK_INT(udrv_pwm_set_config(pwm, 10000000, 5000000), 0);
	check_log(0, "pwm0 duty_cycle 5000000\npwm0 period 10000000\n");
	CHECK_INT(udrv_pwm_period_ns(pwm, &period), 0);
	CHECK_INT(udrv_pwm_duty_ns(pwm, &duty), 0);
	CHECK_INT(period, 10000000);
	CHECK_INT(duty, 5000000);
	udrv_pwm_free(pwm);
}

static void test_growing_period_writes_period_first(void)
{
	struct udrv_pwm *pwm;

	setup();
	pwm = open_pwm("0", 1, 0, 0);		/* fresh: period 0, duty 0 */
	CHECK_INT(udrv_pwm_set_config(pwm, 1000, 500), 0);
	CHECK_INT(udrv_pwm_set_config(pwm, SERVO_NS, 1500000), 0);
	/* the same period, a new duty cycle: period (unchanged), then duty */
	CHECK_INT(udrv_pwm_set_config(pwm, SERVO_NS, SERVO_NS), 0);
	check_log(0, "export 1\npwm1 period 1000\npwm1 duty_cycle 500\n"
		     "pwm1 period 20000000\npwm1 duty_cycle 1500000\n"
		     "pwm1 period 20000000\npwm1 duty_cycle 20000000\n");
	udrv_pwm_free(pwm);
}

static void test_refusals_write_nothing(void)
{
	struct udrv_pwm *pwm;

	setup();
	fake_pwm_channel(0, 0, SERVO_NS, 1500000, "normal", 0);
	pwm = open_pwm("0", 0, 0, 0);
	CHECK_INT(udrv_pwm_set_config(pwm, 1000, 1001), -EINVAL);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm),
		       "a duty cycle of 1001 ns is longer than the period of 1000 ns");
	CHECK_INT(udrv_pwm_set_config(pwm, 0, 0), -EINVAL);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "a period of 0 ns: the kernel refuses it");
	CHECK_INT(udrv_pwm_set_period_ns(pwm, 1000), -EINVAL);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "udrv_pwm_set_config() writes the duty cycle first");
	CHECK_INT(udrv_pwm_set_duty_ns(pwm, SERVO_NS + 1), -EINVAL);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "longer than the period of 20000000 ns");
	CHECK_INT(udrv_pwm_set_polarity(pwm, (enum udrv_pwm_polarity)2), -EINVAL);
	check_log(0, "");
	CHECK_INT(udrv_pwm_set_period_ns(pwm, 1500000), 0);
	CHECK_INT(udrv_pwm_set_duty_ns(pwm, 0), 0);
	check_log(0, "pwm0 period 1500000\npwm0 duty_cycle 0\n");
	udrv_pwm_free(pwm);
}

static void test_polarity_only_while_disabled(void)
{
	struct udrv_pwm *pwm;
	enum udrv_pwm_polarity pol = UDRV_PWM_POLARITY_NORMAL;

	setup();
	fake_pwm_channel(0, 0, SERVO_NS, 1500000, "normal", 1);
	pwm = open_pwm("0", 0, 0, 0);
	CHECK_INT(udrv_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_NORMAL), 0);	/* as it is */
	CHECK_INT(udrv_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_INVERSED), -EBUSY);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm),
		       "channel 0 of pwmchip0 (fe20c000.pwm) is enabled: its polarity cannot change while it runs");
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "disable it, set the polarity, enable it again");
	check_log(0, "");
	CHECK_INT(udrv_pwm_disable(pwm), 0);
	CHECK_INT(udrv_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_INVERSED), 0);
	CHECK_INT(udrv_pwm_polarity(pwm, &pol), 0);
	CHECK_INT(pol, UDRV_PWM_POLARITY_INVERSED);
	CHECK_STR(udrv_pwm_polarity_str(pol), "inversed");
	CHECK_INT(udrv_pwm_enable(pwm), 0);
	CHECK_INT(udrv_pwm_enabled(pwm), 1);
	check_log(0, "pwm0 enable 0\npwm0 polarity inversed\npwm0 enable 1\n");
	udrv_pwm_free(pwm);
}

static void test_enable_needs_a_period(void)
{
	struct udrv_pwm *pwm;

	setup();
	pwm = open_pwm("0", 0, 0, 0);
	CHECK_INT(udrv_pwm_enable(pwm), -EINVAL);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "the period is 0: set the period and duty cycle before enabling");
	CHECK_INT(udrv_pwm_set_duty_ns(pwm, 0), -EINVAL);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "the period is 0: set one first");
	/* disabled already: nothing written (the kernel refuses enable 0 while
	 * the period is 0) */
	CHECK_INT(udrv_pwm_disable(pwm), 0);
	check_log(0, "export 0\n");
	udrv_pwm_free(pwm);
}

static void test_permission_names_owner_and_fix(void)
{
	struct udrv_pwm *pwm;
	char rel[224];

	setup();
	fake_pwm_channel(0, 0, SERVO_NS, 1500000, "normal", 0);
	fake_pwm_attr(rel, sizeof(rel), 0, 0, "period");
	fake_chmod(rel, 0444);
	pwm = open_pwm("0", 0, 0, 0);
	CHECK_INT(udrv_pwm_set_period_ns(pwm, 10000000), -EACCES);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "pwm0/period: Permission denied");
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "pwm0/period is owner ");
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), ", mode 0444");
	udrv_pwm_free(pwm);
	/* the export file, as the kernel makes it for root alone (no group
	 * bits, whatever the group here): the channel cannot be exported; the
	 * file, its owner, group and mode, and the fix: the group the udev
	 * rules give it */
	fake_chmod("sys/devices/platform/fe20c000.pwm/pwm/pwmchip0/export", 0400);
	pwm = open_pwm("0", 1, 0, -EACCES);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm),
		       "exporting channel 1 of pwmchip0 (fe20c000.pwm) through ");
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "/sys/class/pwm/pwmchip0/export: Permission denied (");
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "/sys/class/pwm/pwmchip0/export is owner ");
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), ", mode 0400, for root alone: run as root, or give a group access with a udev rule (udrv's 60-udrv.rules: groups gpio, uio, vfio, i2c, spi, pwm))");
	udrv_pwm_free(pwm);
	check_log(0, "");
}

/* Exported, but udev never made the attributes ours (no rule, or the
 * group not ours): refused when the wait ends, naming the file. Root may
 * write whatever the mode: only as another user. */
static void test_export_waits_for_writable(void)
{
	struct udrv_pwm *pwm;

	if (geteuid() == 0)
		return;
	setup();
	fake_pwm_control(0, ".mode", "0444\n");
	pwm = open_pwm("0", 0, 0, -EACCES);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "exported channel 0 of pwmchip0 (fe20c000.pwm), but ");
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "/pwm0/period is not writable by this process 2000 ms later: ");
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "/pwm0/period is owner ");
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), ", mode 0444");
	udrv_pwm_free(pwm);
	check_log(0, "export 0\nunexport 0\n");	/* its export undone */
}

static void test_export_waits_for_udev(void)
{
	struct udrv_pwm *pwm;

	setup();
	fake_pwm_control(0, ".delay_ms", "50\n");
	pwm = open_pwm("0", 1, 0, 0);	/* pwm1/ came 50 ms after the export */
	CHECK_INT(udrv_pwm_set_config(pwm, SERVO_NS, 1500000), 0);
	udrv_pwm_free(pwm);
	fake_pwm_control(0, ".delay_ms", "never\n");
	pwm = open_pwm("0", 0, 0, -ETIMEDOUT);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "exported channel 0 of pwmchip0 (fe20c000.pwm), but ");
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "pwm0/period did not appear within 2000 ms");
	udrv_pwm_free(pwm);
	/* its export undone: the unexport the kernel would refuse too */
	check_log(0, "export 1\npwm1 period 20000000\npwm1 duty_cycle 1500000\nunexport 1\n"
		     "export 0\nunexport 0 ENODEV\n");
}

static void test_busy_channel(void)
{
	struct udrv_pwm *pwm;

	setup();
	fake_pwm_control(0, ".busy", "1\n");
	pwm = open_pwm("fe20c000.pwm", 1, 0, -EBUSY);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm),
		       "channel 1 of pwmchip0 (fe20c000.pwm) is in use by a kernel driver");
	udrv_pwm_free(pwm);
	check_log(0, "export 1 EBUSY\n");
}

/* Unexported by someone else under the handle. */
static void test_channel_gone(void)
{
	static const char *const attrs[] = { "period", "duty_cycle", "polarity", "enable" };
	struct udrv_pwm *pwm;
	char rel[224], path[512];
	uint64_t ns;

	setup();
	pwm = open_pwm("0", 0, UDRV_PWM_KEEP_EXPORTED, 0);
	CHECK_INT(udrv_pwm_set_config(pwm, 1000, 0), 0);
	for (size_t i = 0; i < 4; i++) {
		fake_pwm_attr(rel, sizeof(rel), 0, 0, attrs[i]);
		fake_path(path, sizeof(path), rel);
		CHECK_INT(unlink(path), 0);
	}
	*strrchr(path, '/') = '\0';
	CHECK_INT(rmdir(path), 0);
	CHECK_INT(udrv_pwm_period_ns(pwm, &ns), -ENODEV);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "channel 0 of pwmchip0 (fe20c000.pwm) is no longer exported");
	CHECK_INT(udrv_pwm_set_config(pwm, 2000, 0), -ENODEV);
	udrv_pwm_free(pwm);
}

static void test_no_channel_open(void)
{
	struct udrv_pwm *pwm = udrv_pwm_new();
	uint64_t ns;

	setup();
	CHECK_INT(udrv_pwm_period_ns(pwm, &ns), -EBADF);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "udrv_pwm_open() first");
	CHECK_INT(udrv_pwm_open_chip(pwm, "0"), 0);
	CHECK_INT(udrv_pwm_enable(pwm), -EBADF);
	CHECK_STR(udrv_pwm_polarity_str((enum udrv_pwm_polarity)7), "unknown");
	udrv_pwm_free(pwm);
	udrv_pwm_close(NULL);
}

UDRV_TESTS(
	UDRV_T(test_export_then_unexport_at_close),
	UDRV_T(test_exported_before_is_left),
	UDRV_T(test_keep_and_no_export_flags),
	UDRV_T(test_chip_by_number_path_or_device),
	UDRV_T(test_no_pwm_class),
	UDRV_T(test_list_sorted_by_number),
	UDRV_T(test_channel_range),
	UDRV_T(test_strict_numbers),
	UDRV_T(test_shrinking_period_writes_duty_first),
	UDRV_T(test_growing_period_writes_period_first),
	UDRV_T(test_refusals_write_nothing),
	UDRV_T(test_polarity_only_while_disabled),
	UDRV_T(test_enable_needs_a_period),
	UDRV_T(test_permission_names_owner_and_fix),
	UDRV_T(test_export_waits_for_udev),
	UDRV_T(test_export_waits_for_writable),
	UDRV_T(test_busy_channel),
	UDRV_T(test_channel_gone),
	UDRV_T(test_no_channel_open),
)
