/* SPDX-License-Identifier: GPL-2.0-only */
/* The values and waveform options of udrv pwm set and pwm run (pwm_args.c,
 * fuzzed: tests/fuzz/fuzz_pwm.c), which cmd_pwm.c and cmd_pwm_run.c read. */
#ifndef UDRV_CMD_PWM_H
#define UDRV_CMD_PWM_H

#include <stdbool.h>
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

/* The waveform's options as given (NULL: absent): --period, --frequency,
 * --duty, --duty-cycle, --polarity. */
struct pwm_wave_args {
	const char *period, *frequency, *duty, *duty_cycle, *polarity;
};

/* What they say: each value given, and which were. */
struct pwm_target {
	bool period_given, duty_given, pct_given;
	uint64_t period, duty, pct;	/* ns, ns, 10^-9 % */
	int polarity;			/* enum udrv_pwm_polarity; -1: not given */
};

/*
 * @a into @t, every value checked (a period of 0, one given twice, a
 * duty cycle longer than a period given with it, nan, a sign, 2^64 ns
 * and more): 0, or EXIT_USAGE after a message that names the option of
 * @cmd ("pwm set") and the form it takes.
 */
int pwm_parse_target(const char *cmd, const struct pwm_wave_args *a, struct pwm_target *t);

#endif /* UDRV_CMD_PWM_H */
