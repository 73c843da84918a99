// SPDX-License-Identifier: GPL-2.0-only
/*
 * Servo pulses (udrv/pwm.h): the period and duty cycle of a pulse at a
 * frame rate, clamped to the servo's range, and an angle's pulse.
 */
#include <errno.h>
#include <math.h>

#include <udrv/udrv.h>

#include "harness.h"

static void test_pulse(void)
{
	uint64_t period = 0, duty = 0;

	CHECK_INT(udrv_servo_pulse(0, 1500, 0, 0, &period, &duty), 0);
	CHECK_INT(period, 20000000);
	CHECK_INT(duty, 1500000);
	CHECK_INT(udrv_servo_pulse(50, 2500, 0, 0, &period, &duty), 1);
	CHECK_INT(duty, 2000000);
	CHECK_INT(udrv_servo_pulse(50, 0, 0, 0, &period, &duty), 1);
	CHECK_INT(duty, 1000000);
	/* a servo made for 500..2500 us, a digital one at 333 Hz */
	CHECK_INT(udrv_servo_pulse(333, 2500, 500, 2500, &period, &duty), 0);
	CHECK_INT(period, 3003003);
	CHECK_INT(duty, 2500000);
	/* min 0: a pulse of 0, no pulse (a servo let go) */
	CHECK_INT(udrv_servo_pulse(50, 0, 0, 2000, &period, &duty), 0);
	CHECK_INT(duty, 0);
}

static void test_pulse_refused(void)
{
	uint64_t period = 7, duty = 7;

	CHECK_INT(udrv_servo_pulse(50, 1500, 2000, 1000, &period, &duty), -EINVAL);
	/* 500 Hz: a 2 ms frame has no room for a 2 ms pulse */
	CHECK_INT(udrv_servo_pulse(500, 1500, 0, 0, &period, &duty), -EINVAL);
	CHECK_INT(udrv_servo_pulse(UINT32_MAX, 1, 1, 1, &period, &duty), -EINVAL);
	CHECK_INT(udrv_servo_pulse(1, 1500, 0, UINT32_MAX, &period, &duty), -EINVAL);
	CHECK_INT(period, 7);
	CHECK_INT(duty, 7);
	CHECK_INT(udrv_servo_pulse(50, 1500, 0, 0, NULL, &duty), -EINVAL);
	CHECK_INT(udrv_servo_pulse(1, 1500, 0, 999999, &period, &duty), 0);
	CHECK_INT(period, 1000000000);
}

static void test_angle(void)
{
	uint32_t us = 0;

	CHECK_INT(udrv_servo_angle_us(90, 0, 180, 0, 0, &us), 0);
	CHECK_INT(us, 1500);
	CHECK_INT(udrv_servo_angle_us(1, 0, 180, 0, 0, &us), 0);
	CHECK_INT(us, 1006);	/* 1005.56 */
	CHECK_INT(udrv_servo_angle_us(180, 0, 180, 0, 0, &us), 0);
	CHECK_INT(us, 2000);
	CHECK_INT(udrv_servo_angle_us(200, 0, 180, 0, 0, &us), 1);
	CHECK_INT(us, 2000);
	CHECK_INT(udrv_servo_angle_us(-5, 0, 180, 0, 0, &us), 1);
	CHECK_INT(us, 1000);
	/* gpiozero's Servo value, -1..1 */
	CHECK_INT(udrv_servo_angle_us(-1, -1, 1, 0, 0, &us), 0);
	CHECK_INT(us, 1000);
	CHECK_INT(udrv_servo_angle_us(0.5, -1, 1, 0, 0, &us), 0);
	CHECK_INT(us, 1750);
	/* turned the other way round, a wider range */
	CHECK_INT(udrv_servo_angle_us(0, 90, -90, 500, 2500, &us), 0);
	CHECK_INT(us, 1500);
	CHECK_INT(udrv_servo_angle_us(90, 90, -90, 500, 2500, &us), 0);
	CHECK_INT(us, 500);
	CHECK_INT(udrv_servo_angle_us(-100, 90, -90, 500, 2500, &us), 1);
	CHECK_INT(us, 2500);
}

static void test_angle_refused(void)
{
	uint32_t us = 7;

	CHECK_INT(udrv_servo_angle_us(NAN, 0, 180, 0, 0, &us), -EINVAL);
	CHECK_INT(udrv_servo_angle_us(INFINITY, 0, 180, 0, 0, &us), -EINVAL);
	CHECK_INT(udrv_servo_angle_us(-INFINITY, 0, 180, 0, 0, &us), -EINVAL);
	CHECK_INT(udrv_servo_angle_us(0, NAN, 180, 0, 0, &us), -EINVAL);
	CHECK_INT(udrv_servo_angle_us(0, 0, INFINITY, 0, 0, &us), -EINVAL);
	CHECK_INT(udrv_servo_angle_us(0, -1e308, 1e308, 0, 0, &us), -EINVAL);
	CHECK_INT(udrv_servo_angle_us(5, 5, 5, 0, 0, &us), -EINVAL);
	CHECK_INT(udrv_servo_angle_us(5, 0, 10, 2000, 1000, &us), -EINVAL);
	CHECK_INT(us, 7);
	CHECK_INT(udrv_servo_angle_us(5, 0, 10, 0, 0, NULL), -EINVAL);
}

UDRV_TESTS(UDRV_T(test_pulse), UDRV_T(test_pulse_refused),
	   UDRV_T(test_angle), UDRV_T(test_angle_refused))
