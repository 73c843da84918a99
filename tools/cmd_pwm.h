/* SPDX-License-Identifier: GPL-2.0-only */
/* The values of udrv pwm set (pwm_args.c, fuzzed: tests/fuzz/fuzz_pwm.c),
 * which cmd_pwm.c reads. */
#ifndef UDRV_CMD_PWM_H
#define UDRV_CMD_PWM_H

#include <stdint.h>

/* A percentage in units of 10^-9 %: 100 % */
#define PWM_PERCENT_FULL	100000000000ULL
/* The highest frequency: 1 GHz, a period of 1 ns */
#define PWM_HZ_MAX		1000000000ULL

/*
 * A time in ns: whole nanoseconds (decimal or 0x hex, any 64-bit value),
 * or a number with a unit as udrv_parse_duration_ns() reads it (ns, us,
 * ms, s: "1.5ms", "20ms"); a bare number is never seconds. 0, -EINVAL
 * (not that form) or -ERANGE (beyond 64 bits).
 */
int pwm_parse_ns(const char *s, uint64_t *ns);
/*
 * A frequency in Hz, DIGITS[.DIGITS] (at most 9 decimals), above 0 and at
 * most PWM_HZ_MAX: its period in ns, rounded to the nearest. 0, -EINVAL
 * or -ERANGE (0 Hz, or above 1 GHz).
 */
int pwm_parse_frequency(const char *s, uint64_t *period_ns);
/*
 * A percentage 0..100, DIGITS[.DIGITS] (at most 9 decimals) and an
 * optional '%': in units of 10^-9 % (100 % is PWM_PERCENT_FULL). 0,
 * -EINVAL or -ERANGE (above 100).
 */
int pwm_parse_percent(const char *s, uint64_t *pct);
/* @pct (units of 10^-9 %, at most PWM_PERCENT_FULL) of @period_ns, rounded
 * to the nearest ns, exactly (no 64-bit overflow): at most @period_ns. */
uint64_t pwm_duty_of(uint64_t period_ns, uint64_t pct);

#endif /* UDRV_CMD_PWM_H */
