// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv pwm set's and pwm run's values (cmd_pwm.h): times, frequencies and
 * percentages, read by the library's parsers (udrv/parse.h) and turned into
 * nanoseconds exactly, with no 64-bit overflow; and the waveform options
 * they make together (pwm_parse_target()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <inttypes.h>
#include <udrv/parse.h>

#include "cli.h"
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

/* --period or --frequency into @t: 0 or EXIT_USAGE. */
static int parse_period(const char *cmd, const struct pwm_wave_args *a, struct pwm_target *t)
{
	int err;

	if (a->period && a->frequency)
		return cli_usage(cmd, "--period or --frequency, not both");
	if (a->period && (err = pwm_parse_ns(a->period, &t->period)))
		return cli_usage(cmd, "bad --period '%s': %s", a->period, err == -ERANGE ?
				 "beyond 64 bits of ns" : "ns (20000000) or a time with a unit (20ms)");
	if (a->period && !t->period)
		return cli_usage(cmd, "--period 0: a PWM needs a period above 0");
	if (a->frequency && pwm_parse_frequency(a->frequency, &t->period))
		return cli_usage(cmd, "bad --frequency '%s': Hz above 0 and at most 1000000000, with up to 9 decimals (50, 0.5)",
				 a->frequency);
	t->period_given = a->period || a->frequency;
	return EXIT_OK;
}

/* --duty or --duty-cycle into @t: 0 or EXIT_USAGE. */
static int parse_duty(const char *cmd, const struct pwm_wave_args *a, struct pwm_target *t)
{
	int err;

	if (a->duty && a->duty_cycle)
		return cli_usage(cmd, "--duty or --duty-cycle, not both");
	if (a->duty && (err = pwm_parse_ns(a->duty, &t->duty)))
		return cli_usage(cmd, "bad --duty '%s': %s", a->duty, err == -ERANGE ?
				 "beyond 64 bits of ns" : "ns (1500000) or a time with a unit (1.5ms)");
	if (a->duty_cycle && pwm_parse_percent(a->duty_cycle, &t->pct))
		return cli_usage(cmd, "bad --duty-cycle '%s': a percentage from 0 to 100, with up to 9 decimals (7.5)",
				 a->duty_cycle);
	t->duty_given = a->duty;
	t->pct_given = a->duty_cycle;
	return EXIT_OK;
}

int pwm_parse_target(const char *cmd, const struct pwm_wave_args *a, struct pwm_target *t)
{
	int ret;

	*t = (struct pwm_target){ .polarity = -1 };
	ret = parse_period(cmd, a, t);
	if (!ret)
		ret = parse_duty(cmd, a, t);
	if (ret)
		return ret;
	if (a->polarity && strcmp(a->polarity, "normal") && strcmp(a->polarity, "inversed"))
		return cli_usage(cmd, "bad --polarity '%s': normal or inversed", a->polarity);
	if (a->polarity)
		t->polarity = a->polarity[0] == 'n' ? UDRV_PWM_POLARITY_NORMAL :
						      UDRV_PWM_POLARITY_INVERSED;
	if (t->period_given && t->duty_given && t->duty > t->period)
		return cli_usage(cmd, "--duty %s is longer than the period (%" PRIu64 " ns)",
				 a->duty, t->period);
	return EXIT_OK;
}
