// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hardware PWM: the chip specs of udrv_pwm_open_chip() (lib/pwm/pwm_chip.c)
 * and the values of udrv pwm set (tools/pwm_args.c).
 *
 * Input parts (fuzz.h):
 *   0 a chip spec, 1 the name of pwmchip0's parent device (its device
 *   link; none when absent, empty or holding '/'), 2 pwmchip0's npwm;
 *   3 --period, 4 --frequency, 5 --duty, 6 --duty-cycle
 *
 * Properties:
 *  - udrv_pwm_parse_chip() = an independent model of "N", "pwmchipN",
 *    "/dev/pwmchipN" and "/sys/class/pwm/pwmchipN" (decimal, no leading
 *    zero, at most INT32_MAX: -ERANGE above, -EINVAL for any other text),
 *    output untouched on error;
 *  - the chip opens exactly when the spec names pwmchip0 (its number as
 *    parsed, or its parent device's whole name) and npwm reads as a number:
 *    then npwm is that number and the channel count opened against it; any
 *    other open fails with a message; nothing is ever exported;
 *  - --duty-cycle and --frequency = a model of DIGITS[.DIGITS] (at most 9
 *    decimals; '%' once after a percentage), percent at most 100, Hz above
 *    0 and at most 10^9, -EINVAL for another form before -ERANGE; the
 *    period of a frequency and the duty cycle of a percentage are the
 *    exact quotients rounded to the nearest (128-bit arithmetic here), a
 *    duty cycle never above its period;
 *  - --period and --duty: a bare number is whole ns (never seconds: "1.5"
 *    is refused), read exactly; any accepted time prints back to itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/udrv.h>

#include "cmd_pwm.h"
#include "fuzz.h"
#include "pwm/pwm_priv.h"

#define CHIP_DIR	"sys/devices/platform/pwm-fuzz/pwm/pwmchip0"

typedef unsigned __int128 u128;

/* One number of a chip spec: 0 or [1-9][0-9]* to the end; -1 not one,
 * -2 too big. */
static long long model_number(const char *s)
{
	long long v = 0;
	bool big = false;

	if (*s < '0' || *s > '9' || (*s == '0' && s[1]))
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > 0x7fffffffLL)
			big = true;
		else
			v = v * 10 + (*s - '0');
	}
	if (*s)
		return -1;
	return big || v > 0x7fffffffLL ? -2 : v;
}

static int model_chip(const char *s, unsigned int *num)
{
	static const char *const prefixes[] = {
		"/sys/class/pwm/pwmchip", "/dev/pwmchip", "pwmchip", "",
	};
	long long n = -1;

	for (size_t i = 0; i < 4; i++) {
		if (!strncmp(s, prefixes[i], strlen(prefixes[i]))) {
			n = model_number(s + strlen(prefixes[i]));
			break;
		}
	}
	if (n == -1)
		return -EINVAL;
	if (n == -2)
		return -ERANGE;
	*num = (unsigned int)n;
	return 0;
}

static void check_parse_chip(const char *spec)
{
	unsigned int got = 77, want = 0;
	int err = udrv_pwm_parse_chip(spec, &got), merr = model_chip(spec, &want);

	FUZZ_CHECK(err == merr, "chip '%s': %d, the model %d", spec, err, merr);
	FUZZ_CHECK(err ? got == 77 : got == want, "chip '%s': %u, the model %u", spec, got, want);
}

static void make_chip(const struct fuzz_parts *parts, const char *device)
{
	char target[512];

	fuzz_write_str(CHIP_DIR "/export", "");
	fuzz_write_str(CHIP_DIR "/unexport", "");
	if (!fuzz_write_part(parts, 2, CHIP_DIR "/npwm"))
		fuzz_write_str(CHIP_DIR "/npwm", "2\n");
	if (device) {
		snprintf(target, sizeof(target), "../../../%s", device);
		fuzz_symlink(target, CHIP_DIR "/device");
	}
	fuzz_symlink("../../devices/platform/pwm-fuzz/pwm/pwmchip0", "sys/class/pwm/pwmchip0");
}

static void check_chip(const struct fuzz_parts *parts)
{
	char *spec = fuzz_str(parts, 0), *dev = fuzz_str(parts, 1);
	const char *device = dev[0] && !strchr(dev, '/') && strlen(dev) < 128 &&
			     strcmp(dev, ".") && strcmp(dev, "..") ? dev : NULL;
	struct udrv_pwm *pwm = udrv_pwm_new();
	unsigned int num = 0, npwm = 0;
	const char *text;
	bool names_it, counts;
	int parsed, err;

	check_parse_chip(spec);
	make_chip(parts, device);
	text = fuzz_text(CHIP_DIR "/npwm", 32);
	counts = text && !udrv_parse_uint(text, UINT32_MAX, &npwm);
	parsed = model_chip(spec, &num);
	names_it = !parsed ? num == 0 : parsed == -EINVAL && device && !strcmp(spec, device);
	err = pwm ? udrv_pwm_open_chip(pwm, spec) : 0;
	if (pwm) {
		FUZZ_CHECK(!err == (names_it && counts), "chip '%s' (device '%s', npwm '%s'): %d: %s",
			   spec, device ? device : "", text ? text : "(unread)", err,
			   udrv_pwm_errmsg(pwm));
		FUZZ_CHECK(err ? udrv_pwm_errmsg(pwm)[0] != '\0' : udrv_pwm_npwm(pwm) == npwm,
			   "chip '%s': %d, npwm %u", spec, err, npwm);
		err = udrv_pwm_open(pwm, spec, 0, UDRV_PWM_NO_EXPORT);
		FUZZ_CHECK(names_it && counts ? err == (npwm ? -ENOENT : -ERANGE) : err < 0,
			   "chip '%s', channel 0 of %u: %d", spec, npwm, err);
		FUZZ_CHECK(!fuzz_text(CHIP_DIR "/export", 64) ||
			   !fuzz_text(CHIP_DIR "/export", 64)[0], "chip '%s': exported", spec);
	}
	udrv_pwm_free(pwm);
	free(spec);
	free(dev);
}

/* DIGITS[.DIGITS], at most 9 decimals, as units of 10^-9: 0, -EINVAL, or
 * -ERANGE above @max. */
static int model_decimal(const char *s, size_t len, u128 max, u128 *v)
{
	u128 whole = 0, frac = 0, scale = 1000000000;
	size_t i = 0, digits = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++)
		whole = whole > max ? whole : whole * 10 + (u128)(s[i] - '0');
	if (!digits)
		return -EINVAL;
	if (i < len && s[i] == '.') {
		size_t start = ++i;

		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			if (i - start == 9)
				return -EINVAL;
			scale /= 10;
			frac += (u128)(s[i] - '0') * scale;
		}
		if (i == start)
			return -EINVAL;
	}
	if (i != len)
		return -EINVAL;
	if (whole > max || whole * 1000000000 + frac > max)
		return -ERANGE;
	*v = whole * 1000000000 + frac;
	return 0;
}

static void check_percent(const char *s, uint64_t period, bool have_period)
{
	size_t len = strlen(s);
	uint64_t pct = 77;
	u128 want = 0;
	int err, merr;

	merr = model_decimal(s, len && s[len - 1] == '%' ? len - 1 : len, PWM_PERCENT_FULL, &want);
	err = pwm_parse_percent(s, &pct);
	FUZZ_CHECK(err == merr, "--duty-cycle '%s': %d, the model %d", s, err, merr);
	FUZZ_CHECK(err ? pct == 77 : pct == want, "--duty-cycle '%s': %llu", s,
		   (unsigned long long)pct);
	if (err || !have_period)
		return;
	want = ((u128)period * pct + PWM_PERCENT_FULL / 2) / PWM_PERCENT_FULL;
	FUZZ_CHECK(pwm_duty_of(period, pct) == want && want <= period,
		   "%s of %llu ns: %llu, the model %llu", s, (unsigned long long)period,
		   (unsigned long long)pwm_duty_of(period, pct), (unsigned long long)want);
	/* the extremes of the period too */
	FUZZ_CHECK(pwm_duty_of(UINT64_MAX, pct) ==
		   ((u128)UINT64_MAX * pct + PWM_PERCENT_FULL / 2) / PWM_PERCENT_FULL,
		   "%s of 2^64 - 1 ns", s);
}

static void check_frequency(const char *s)
{
	uint64_t period = 77;
	u128 nhz = 0, want;
	int err = pwm_parse_frequency(s, &period);
	int merr = model_decimal(s, strlen(s), (u128)PWM_HZ_MAX * 1000000000, &nhz);

	if (!merr && !nhz)
		merr = -ERANGE;
	FUZZ_CHECK(err == merr, "--frequency '%s': %d, the model %d", s, err, merr);
	if (err) {
		FUZZ_CHECK(period == 77, "--frequency '%s': output touched", s);
		return;
	}
	want = ((u128)1000000000000000000ULL + nhz / 2) / nhz;
	FUZZ_CHECK(period == want && period >= 1, "--frequency '%s': %llu ns, the model %llu", s,
		   (unsigned long long)period, (unsigned long long)want);
}

/* A bare decimal number: its exact value, or -1 when it is none or too big. */
static long long bare(const char *s, u128 *v)
{
	*v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		*v = *v * 10 + (u128)(*s - '0');
		if (*v > UINT64_MAX)
			return -1;
	}
	return 0;
}

static void check_time(const char *what, const char *s, uint64_t *ns, bool *ok)
{
	char back[32];
	uint64_t again = 0;
	u128 exact;
	int err = pwm_parse_ns(s, ns);

	*ok = !err;
	FUZZ_CHECK(err == 0 || err == -EINVAL || err == -ERANGE, "%s '%s': %d", what, s, err);
	if (strchr(s, '.') && *s && s[strlen(s) - 1] >= '0' && s[strlen(s) - 1] <= '9')
		FUZZ_CHECK(err, "%s '%s' taken as %llu ns: a bare number is never seconds", what, s,
			   (unsigned long long)*ns);
	if (!bare(s, &exact))
		FUZZ_CHECK(!err && *ns == exact, "%s '%s': %d, %llu", what, s, err,
			   (unsigned long long)*ns);
	if (err)
		return;
	snprintf(back, sizeof(back), "%llu", (unsigned long long)*ns);
	FUZZ_CHECK(!pwm_parse_ns(back, &again) && again == *ns, "%s '%s': %llu back as %llu", what,
		   s, (unsigned long long)*ns, (unsigned long long)again);
}

static void check_values(const struct fuzz_parts *parts)
{
	char *period_s = fuzz_str(parts, 3), *freq = fuzz_str(parts, 4);
	char *duty_s = fuzz_str(parts, 5), *pct = fuzz_str(parts, 6);
	uint64_t period = 0, duty = 0;
	bool have_period, have_duty;

	check_time("--period", period_s, &period, &have_period);
	check_time("--duty", duty_s, &duty, &have_duty);
	check_frequency(freq);
	check_percent(pct, period, have_period);
	free(period_s);
	free(freq);
	free(duty_s);
	free(pct);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_parts parts;

	fuzz_split(data, size, &parts);
	fuzz_reset();
	check_chip(&parts);
	check_values(&parts);
	return 0;
}
