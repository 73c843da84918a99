// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hardware PWM (lib/pwm/) through the chip's character device, on a fake
 * /dev/pwmchipN that answers as Linux 6.16's does (fake_pwm_cdev.c) beside
 * the fake sysfs class: the channel requested, not exported, and freed at
 * close; one waveform per change; the hardware's rounding read back and
 * refused where exact was asked; sysfs where the channel is exported
 * already, the flag asks for it, or the node is not ours to open.
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

static void setup(unsigned long long step_ns)
{
	fake_root();
	fake_pwm_chip(0, "1f00098000.pwm", 4);
	fake_pwm_node(0, step_ns);
}

static struct udrv_pwm *open_pwm(unsigned int ch, unsigned int flags, int want)
{
	struct udrv_pwm *pwm = udrv_pwm_new();

	CHECK(pwm != NULL);
	CHECK_INT(udrv_pwm_open(pwm, "0", ch, flags), want);
	return pwm;
}

static void check_file(const char *name, const char *want)
{
	char *text = fake_pwm_file(0, name);

	CHECK_STR(text, want);
	free(text);
}

static bool fake_exists(const char *rel)
{
	char path[512];

	fake_path(path, sizeof(path), rel);
	return access(path, F_OK) == 0;
}

/* Requested, not exported: each change one waveform, none while off; the
 * channel free again after close, its waveform running on. */
static void test_requested_one_waveform_a_change(void)
{
	struct udrv_pwm *pwm, *again;
	uint64_t ns = 1;

	setup(1);
	pwm = open_pwm(1, 0, 0);
	CHECK(udrv_pwm_has_waveform(pwm));
	CHECK(!udrv_pwm_owns_export(pwm));
	CHECK(!fake_exists("sys/class/pwm/pwmchip0/pwm1"));
	CHECK_INT(udrv_pwm_period_ns(pwm, &ns), 0);
	CHECK_INT(ns, 0);
	CHECK_INT(udrv_pwm_enabled(pwm), 0);
	CHECK_INT(udrv_pwm_set_config(pwm, SERVO_NS, 1500000), 0);
	CHECK_INT(udrv_pwm_enable(pwm), 0);
	CHECK_INT(udrv_pwm_set_config(pwm, 10000000, 1000000), 0);
	CHECK_INT(udrv_pwm_set_duty_ns(pwm, 2000000), 0);
	check_file(".log", "cdev request 1\n"
		   "cdev setrounded 1 20000000 1500000 0\n"
		   "cdev setrounded 1 10000000 1000000 0\n"
		   "cdev setrounded 1 10000000 2000000 0\n");
	/* the channel is this handle's alone, then free again */
	again = open_pwm(1, 0, -EBUSY);
	CHECK_CONTAINS(udrv_pwm_errmsg(again), "channel 1 of pwmchip0 (1f00098000.pwm) is in use: a kernel driver holds it");
	CHECK_CONTAINS(udrv_pwm_errmsg(again), "or another process requested it through ");
	udrv_pwm_free(again);
	udrv_pwm_free(pwm);
	check_file(".wf1", "10000000 2000000 0\n");
	/* what ran on is what the next handle starts from */
	pwm = open_pwm(1, 0, 0);
	CHECK_INT(udrv_pwm_enabled(pwm), 1);
	CHECK_INT(udrv_pwm_duty_ns(pwm, &ns), 0);
	CHECK_INT(ns, 2000000);
	CHECK_INT(udrv_pwm_disable(pwm), 0);
	udrv_pwm_free(pwm);
	check_file(".wf1", "0 0 0\n");
}

/* The requested state reads back as asked; the hardware's as it rounds. */
static void test_rounding_read_back(void)
{
	struct udrv_pwm_waveform wf, got;
	struct udrv_pwm *pwm;
	uint64_t ns;

	setup(8);	/* a 125 MHz clock */
	pwm = open_pwm(0, 0, 0);
	CHECK_INT(udrv_pwm_set_config(pwm, 1000003, 500005), 0);
	CHECK_INT(udrv_pwm_enable(pwm), 0);
	CHECK_INT(udrv_pwm_period_ns(pwm, &ns), 0);
	CHECK_INT(ns, 1000003);
	CHECK_INT(udrv_pwm_waveform(pwm, &wf), 0);
	CHECK_INT(wf.period_ns, 1000000);
	CHECK_INT(wf.duty_ns, 500000);
	CHECK_INT(wf.offset_ns, 0);
	/* rounding sets nothing; a period below a tick rounds up to one */
	wf = (struct udrv_pwm_waveform){ 5, 3, 0 };
	CHECK_INT(udrv_pwm_round_waveform(pwm, &wf, &got), 0);
	CHECK_INT(got.period_ns, 8);
	CHECK_INT(got.duty_ns, 0);
	check_file(".wf0", "1000000 500000 0\n");
	/* exact: what the clock divides, or nothing changes */
	wf = (struct udrv_pwm_waveform){ 1000003, 500000, 0 };
	CHECK_INT(udrv_pwm_set_waveform(pwm, &wf, UDRV_PWM_EXACT), -EDOM);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "cannot make period 1000003 ns, duty 500000 ns, offset 0 ns exactly (its nearest: 1000000, 500000, 0 ns): nothing changed");
	check_file(".wf0", "1000000 500000 0\n");
	wf = (struct udrv_pwm_waveform){ 2000000, 400000, 800000 };
	CHECK_INT(udrv_pwm_set_waveform(pwm, &wf, UDRV_PWM_EXACT), 0);
	check_file(".wf0", "2000000 400000 800000\n");
	CHECK_INT(udrv_pwm_period_ns(pwm, &ns), 0);
	CHECK_INT(ns, 2000000);
	CHECK_INT(udrv_pwm_set_waveform(pwm, &wf, 0x2), -EINVAL);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "unknown waveform flags 0x2");
	/* off: a period of 0; the state keeps its period */
	wf = (struct udrv_pwm_waveform){ 0, 0, 0 };
	CHECK_INT(udrv_pwm_set_waveform(pwm, &wf, 0), 0);
	CHECK_INT(udrv_pwm_enabled(pwm), 0);
	CHECK_INT(udrv_pwm_period_ns(pwm, &ns), 0);
	CHECK_INT(ns, 2000000);
	udrv_pwm_free(pwm);
}

/* Inversed polarity is an offset: high for period - duty from duty. */
static void test_inversed_is_an_offset(void)
{
	enum udrv_pwm_polarity pol = UDRV_PWM_POLARITY_NORMAL;
	struct udrv_pwm *pwm;
	uint64_t ns;

	setup(1);
	pwm = open_pwm(2, 0, 0);
	CHECK_INT(udrv_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_INVERSED), 0);
	CHECK_INT(udrv_pwm_set_config(pwm, 1000, 250), 0);
	CHECK_INT(udrv_pwm_enable(pwm), 0);
	check_file(".wf2", "1000 750 250\n");
	/* one waveform: no need to stop the output for it */
	CHECK_INT(udrv_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_NORMAL), 0);
	check_file(".wf2", "1000 250 0\n");
	CHECK_INT(udrv_pwm_set_polarity(pwm, UDRV_PWM_POLARITY_INVERSED), 0);
	CHECK_INT(udrv_pwm_set_duty_ns(pwm, 1000), 0);	/* low throughout */
	check_file(".wf2", "1000 0 0\n");
	CHECK_INT(udrv_pwm_set_duty_ns(pwm, 0), 0);	/* high throughout */
	check_file(".wf2", "1000 1000 0\n");
	CHECK_INT(udrv_pwm_set_duty_ns(pwm, 100), 0);
	udrv_pwm_free(pwm);
	pwm = open_pwm(2, 0, 0);
	CHECK_INT(udrv_pwm_polarity(pwm, &pol), 0);
	CHECK_INT(pol, UDRV_PWM_POLARITY_INVERSED);
	CHECK_INT(udrv_pwm_duty_ns(pwm, &ns), 0);
	CHECK_INT(ns, 100);
	udrv_pwm_free(pwm);
}

/* Waveforms the kernel refuses are refused here, nothing sent. */
static void test_hostile_waveforms(void)
{
	static const struct udrv_pwm_waveform bad[] = {
		{ 1000, 1001, 0 },
		{ 1000, 10, 1000 },
		{ (uint64_t)INT64_MAX + 1, 0, 0 },
		{ UINT64_MAX, UINT64_MAX, 0 },
		{ 0, 1, 0 },
		{ 0, 0, 1 },
	};
	struct udrv_pwm_waveform got;
	struct udrv_pwm *pwm;

	setup(1);
	pwm = open_pwm(0, 0, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(udrv_pwm_set_waveform(pwm, &bad[i], 0), -EINVAL);
		CHECK_INT(udrv_pwm_round_waveform(pwm, &bad[i], &got), -EINVAL);
	}
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "an offset of 1 ns is not inside the period of 0 ns");
	CHECK_INT(udrv_pwm_set_waveform(pwm, &bad[2], 0), -EINVAL);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "a period of 9223372036854775808 ns: at most 9223372036854775807 ns");
	CHECK_INT(udrv_pwm_set_config(pwm, 0, 0), -EINVAL);
	CHECK_INT(udrv_pwm_set_config(pwm, 10, 11), -EINVAL);
	udrv_pwm_free(pwm);
	check_file(".log", "cdev request 0\n");
}

/* sysfs where the channel is exported already, or the flags ask for it;
 * exported in sysfs and requested exclude each other, as in the kernel. */
static void test_sysfs_when_exported_or_asked(void)
{
	struct udrv_pwm_waveform wf;
	struct udrv_pwm *pwm, *held;

	setup(1);
	fake_pwm_channel(0, 3, SERVO_NS, 1500000, "normal", 1);
	pwm = open_pwm(3, 0, 0);
	CHECK(!udrv_pwm_has_waveform(pwm));
	CHECK_INT(udrv_pwm_waveform(pwm, &wf), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_pwm_errmsg(pwm), "channel 3 of pwmchip0 (1f00098000.pwm) is driven through sysfs, which has no waveforms");
	udrv_pwm_free(pwm);
	pwm = open_pwm(0, UDRV_PWM_SYSFS, 0);
	CHECK(!udrv_pwm_has_waveform(pwm));
	CHECK(udrv_pwm_owns_export(pwm));
	udrv_pwm_free(pwm);
	check_file(".log", "export 0\nunexport 0\n");
	held = open_pwm(1, 0, 0);
	pwm = open_pwm(1, UDRV_PWM_SYSFS, -EBUSY);
	udrv_pwm_free(pwm);
	udrv_pwm_free(held);
	check_file(".log", "export 0\nunexport 0\ncdev request 1\nexport 1 EBUSY\n");
	pwm = udrv_pwm_new();
	CHECK_INT(udrv_pwm_waveform(pwm, &wf), -EBADF);
	udrv_pwm_free(pwm);
}

/* A node only root may open, the class's files the group's: sysfs it is
 * (root opens anything: only as another user). */
static void test_unopenable_node_leaves_it_to_sysfs(void)
{
	static const char *const files[] = { "", "/export", "/.log" };
	char path[512], rel[160];
	struct udrv_pwm *pwm;

	setup(1);
	fake_pwm_control(0, ".mode", "0666\n");
	fake_pwm_control(0, ".log", "");
	for (size_t i = 0; i < 3; i++) {
		snprintf(rel, sizeof(rel), "sys/devices/platform/1f00098000.pwm/pwm/pwmchip0%s",
			 files[i]);
		fake_path(path, sizeof(path), rel);
		CHECK_INT(chmod(path, i ? 0666 : 0777), 0);
	}
	fake_path(path, sizeof(path), "dev/pwmchip0");
	CHECK_INT(chmod(path, 0600), 0);
	chmod(fake_root_dir(), 0755);
	if (geteuid() == 0)
		CHECK(setresuid(65534, 65534, 65534) == 0);
	pwm = open_pwm(0, UDRV_PWM_KEEP_EXPORTED, 0);
	CHECK(!udrv_pwm_has_waveform(pwm));
	CHECK(udrv_pwm_owns_export(pwm));
	udrv_pwm_free(pwm);
	check_file(".log", "export 0\n");
}

UDRV_TESTS(
	UDRV_T(test_requested_one_waveform_a_change),
	UDRV_T(test_rounding_read_back),
	UDRV_T(test_inversed_is_an_offset),
	UDRV_T(test_hostile_waveforms),
	UDRV_T(test_sysfs_when_exported_or_asked),
	UDRV_T(test_unopenable_node_leaves_it_to_sysfs),
)
