// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv pwm set's values (cmd_pwm.h): times, frequencies and percentages,
 * read by the library's parsers (udrv/parse.h) and turned into
 * nanoseconds exactly, with no 64-bit overflow.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/parse.h>

#include "cmd_pwm.h"

#define NS_PER_S	1000000000ULL

/* Ends in a digit: no unit, so udrv_parse_duration_ns() reads it as
 * whole units (seconds) and 9 decimals, which is how a count of Hz or
 * percent is written too. */
static bool unitless(const char *s, size_t len)
{
	return len && s[len - 1] >= '0' && s[len - 1] <= '9';
}

int pwm_parse_ns(const char *s, uint64_t *ns)
{
	size_t len = s ? strlen(s) : 0;

	if (!len)
		return -EINVAL;
	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2) || unitless(s, len))
		return udrv_parse_u64(s, UINT64_MAX, ns);	/* whole ns */
	return udrv_parse_duration_ns(s, UINT64_MAX, ns);
}

int pwm_parse_frequency(const char *s, uint64_t *period_ns)
{
	uint64_t nhz;	/* nano-hertz: Hz * 10^9 */
	int err;

	if (!s || !unitless(s, strlen(s)))
		return -EINVAL;
	err = udrv_parse_duration_ns(s, PWM_HZ_MAX * NS_PER_S, &nhz);
	if (err)
		return err;
	if (!nhz)
		return -ERANGE;	/* 0 Hz: no period */
	/* 10^18 / nhz ns, to the nearest; at most 1.5 * 10^18: no overflow */
	*period_ns = (NS_PER_S * NS_PER_S + nhz / 2) / nhz;
	return 0;
}

int pwm_parse_percent(const char *s, uint64_t *pct)
{
	size_t len = s ? strlen(s) : 0;
	char *num;
	int err;

	if (len && s[len - 1] == '%')
		len--;
	if (!unitless(s, len))
		return -EINVAL;
	num = strndup(s, len);
	if (!num)
		return -ENOMEM;
	/* whole percent and 9 decimals: units of 10^-9 % */
	err = udrv_parse_duration_ns(num, PWM_PERCENT_FULL, pct);
	free(num);
	return err;
}

uint64_t pwm_duty_of(uint64_t period_ns, uint64_t pct)
{
	uint64_t q = 0, r = 0;	/* q * FULL + r = (the bits of period so far) * pct */

	if (pct > PWM_PERCENT_FULL)
		pct = PWM_PERCENT_FULL;
	/* long multiplication a bit at a time: r < FULL < 2^37 throughout */
	for (int bit = 63; bit >= 0; bit--) {
		q <<= 1;
		r <<= 1;
		if (period_ns >> bit & 1)
			r += pct;
		while (r >= PWM_PERCENT_FULL) {
			r -= PWM_PERCENT_FULL;
			q++;
		}
	}
	return q + (r * 2 >= PWM_PERCENT_FULL);	/* to the nearest ns */
}
