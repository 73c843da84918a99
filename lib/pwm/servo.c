// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Servo pulses: the period and duty cycle of a pulse width at a frame
 * rate, clamped to the servo's range, and an angle's pulse width. Plain
 * arithmetic for either PWM (udrv/pwm.h, udrv/soft_pwm.h).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include <udrv/pwm.h>

#define NS_PER_US	1000ULL
#define NS_PER_S	1000000000ULL

/* 0 and 0: the range every servo takes; else @min must not pass @max. */
static int servo_range(uint32_t *min_us, uint32_t *max_us)
{
	if (!*min_us && !*max_us) {
		*min_us = UDRV_SERVO_MIN_US;
		*max_us = UDRV_SERVO_MAX_US;
	}
	return *min_us <= *max_us ? 0 : -EINVAL;
}

int udrv_servo_pulse(uint32_t frame_hz, uint32_t pulse_us, uint32_t min_us,
		     uint32_t max_us, uint64_t *period_ns, uint64_t *duty_ns)
{
	uint64_t period;
	uint32_t us = pulse_us;

	if (!period_ns || !duty_ns || servo_range(&min_us, &max_us))
		return -EINVAL;
	if (!frame_hz)
		frame_hz = UDRV_SERVO_FRAME_HZ;
	/* to the nearest ns: 333 Hz is 3003003 ns */
	period = (NS_PER_S + frame_hz / 2) / frame_hz;
	/* the longest pulse leaves a gap: a whole frame high is no pulse */
	if (max_us * NS_PER_US >= period)
		return -EINVAL;
	if (us < min_us)
		us = min_us;
	if (us > max_us)
		us = max_us;
	*period_ns = period;
	*duty_ns = us * NS_PER_US;
	return us != pulse_us;
}

int udrv_servo_angle_us(double angle, double min_angle, double max_angle,
			uint32_t min_us, uint32_t max_us, uint32_t *pulse_us)
{
	double lo = min_angle < max_angle ? min_angle : max_angle;
	double hi = min_angle < max_angle ? max_angle : min_angle;
	double span = max_angle - min_angle, a = angle, us;

	/* a span too wide for a double (-1e308..1e308) is no line either */
	if (!pulse_us || !isfinite(angle) || !isfinite(span) || span == 0 ||
	    servo_range(&min_us, &max_us))
		return -EINVAL;
	if (a < lo)
		a = lo;
	if (a > hi)
		a = hi;
	us = min_us + (a - min_angle) / span * ((double)max_us - min_us);
	/* within min_us..max_us: the rounding stays in uint32_t */
	*pulse_us = (uint32_t)(us + 0.5);
	return a != angle;
}
