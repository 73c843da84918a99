// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A PWM channel's attributes: period and duty_cycle (ns, 64-bit),
 * polarity ("normal", "inversed") and enable (0, 1), read back strictly
 * and written in the order the kernel takes them.
 *
 * Linux checks each write against the state as it is (pwm_apply_state():
 * a period of 0, a duty cycle above the period: -EINVAL). So a new period
 * below the current duty cycle goes in after the duty cycle, and a duty
 * cycle above the current period after the period. Disabling a channel
 * whose period is 0 is refused too: there is nothing to disable then.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pwm/pwm_priv.h"

static const char *const polarity_names[] = {
	[UDRV_PWM_POLARITY_NORMAL] = "normal",
	[UDRV_PWM_POLARITY_INVERSED] = "inversed",
};

const char *udrv_pwm_polarity_str(enum udrv_pwm_polarity polarity)
{
	if ((unsigned int)polarity < ARRAY_SIZE(polarity_names))
		return polarity_names[polarity];
	return "unknown";
}

static int need_channel(struct udrv_pwm *pwm)
{
	if (pwm->channel >= 0)
		return 0;
	return udrv_err(pwm->errmsg, EBADF, "no PWM channel open: udrv_pwm_open() first");
}

static void attr_path(const struct udrv_pwm *pwm, const char *attr, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", pwm->dir, attr);
}

/* The attribute's text: 0, or a negative errno and the message. */
static int read_attr(struct udrv_pwm *pwm, const char *attr, char *text, size_t len)
{
	char path[UDRV_PATH_LEN + 16], hint[UDRV_ERRMSG_LEN];
	int n, err = need_channel(pwm);

	if (err)
		return err;
	attr_path(pwm, attr, path, sizeof(path));
	n = udrv_read_text(path, text, len);
	if (n >= 0)
		return 0;
	if (n == -ENOENT && !udrv_path_exists(pwm->dir))
		return udrv_err(pwm->errmsg, ENODEV,
				"%s is no longer exported (%s is gone: unexported by someone else, or the chip went away)",
				pwm->label, pwm->dir);
	udrv_access_hint(hint, sizeof(hint), -n, path);
	return udrv_err(pwm->errmsg, -n, "%s: reading %s: %s (%s)", pwm->label, path,
			strerror(-n), hint);
}

static int read_ns(struct udrv_pwm *pwm, const char *attr, uint64_t *ns)
{
	char text[32];
	int err = read_attr(pwm, attr, text, sizeof(text));

	if (err)
		return err;
	if (udrv_parse_u64(text, UINT64_MAX, ns))
		return udrv_err(pwm->errmsg, EIO, "%s: %s reads '%s', not a number of ns",
				pwm->label, attr, text);
	return 0;
}

int udrv_pwm_period_ns(struct udrv_pwm *pwm, uint64_t *ns)
{
	return read_ns(pwm, "period", ns);
}

int udrv_pwm_duty_ns(struct udrv_pwm *pwm, uint64_t *ns)
{
	return read_ns(pwm, "duty_cycle", ns);
}

int udrv_pwm_polarity(struct udrv_pwm *pwm, enum udrv_pwm_polarity *polarity)
{
	char text[16];
	int err = read_attr(pwm, "polarity", text, sizeof(text));

	if (err)
		return err;
	for (size_t i = 0; i < ARRAY_SIZE(polarity_names); i++) {
		if (!strcmp(text, polarity_names[i])) {
			*polarity = (enum udrv_pwm_polarity)i;
			return 0;
		}
	}
	return udrv_err(pwm->errmsg, EIO, "%s: polarity reads '%s', neither normal nor inversed",
			pwm->label, text);
}

int udrv_pwm_enabled(struct udrv_pwm *pwm)
{
	unsigned int v;
	char text[16];
	int err = read_attr(pwm, "enable", text, sizeof(text));

	if (err)
		return err;
	if (udrv_parse_uint(text, 1, &v))
		return udrv_err(pwm->errmsg, EIO, "%s: enable reads '%s', neither 0 nor 1",
				pwm->label, text);
	return (int)v;
}

__attribute__((cold))
static int write_error(struct udrv_pwm *pwm, int err, const char *path, const char *val)
{
	char hint[UDRV_ERRMSG_LEN];

	if (err == EINVAL || err == ERANGE || err == EOPNOTSUPP)
		return udrv_err(pwm->errmsg, err,
				"%s: the kernel refused %s for %s (%s): the controller cannot make it (beyond its range or resolution, or a polarity it lacks)",
				pwm->label, val, path, strerror(err));
	if (err == ENOENT && !udrv_path_exists(pwm->dir))
		return udrv_err(pwm->errmsg, ENODEV,
				"%s is no longer exported (%s is gone: unexported by someone else, or the chip went away)",
				pwm->label, pwm->dir);
	udrv_access_hint(hint, sizeof(hint), err, path);
	return udrv_err(pwm->errmsg, err, "%s: writing '%s' to %s: %s (%s)", pwm->label, val,
			path, strerror(err), hint);
}

static int write_attr(struct udrv_pwm *pwm, const char *attr, const char *val)
{
	char path[UDRV_PATH_LEN + 16];
	int err;

	attr_path(pwm, attr, path, sizeof(path));
	err = udrv_write_str(path, val);
	return err ? write_error(pwm, -err, path, val) : 0;
}

static int write_ns(struct udrv_pwm *pwm, const char *attr, uint64_t ns)
{
	char val[24];

	snprintf(val, sizeof(val), "%" PRIu64, ns);
	return write_attr(pwm, attr, val);
}

__attribute__((cold))
static int no_period(struct udrv_pwm *pwm)
{
	return udrv_err(pwm->errmsg, EINVAL,
			"%s: a period of 0 ns: the kernel refuses it (a PWM repeats a period: give one above 0)",
			pwm->label);
}

int udrv_pwm_set_config(struct udrv_pwm *pwm, uint64_t period_ns, uint64_t duty_ns)
{
	uint64_t duty_now;
	int err = need_channel(pwm);

	if (err)
		return err;
	if (!period_ns)
		return no_period(pwm);
	if (duty_ns > period_ns)
		return udrv_err(pwm->errmsg, EINVAL,
				"%s: a duty cycle of %" PRIu64 " ns is longer than the period of %" PRIu64 " ns: at most the period (100%%)",
				pwm->label, duty_ns, period_ns);
	err = udrv_pwm_duty_ns(pwm, &duty_now);
	if (err)
		return err;
	if (period_ns < duty_now) {	/* shrinking below the duty: duty first */
		err = write_ns(pwm, "duty_cycle", duty_ns);
		return err ? err : write_ns(pwm, "period", period_ns);
	}
	err = write_ns(pwm, "period", period_ns);
	return err ? err : write_ns(pwm, "duty_cycle", duty_ns);
}

int udrv_pwm_set_period_ns(struct udrv_pwm *pwm, uint64_t ns)
{
	uint64_t duty;
	int err = need_channel(pwm);

	if (err)
		return err;
	if (!ns)
		return no_period(pwm);
	err = udrv_pwm_duty_ns(pwm, &duty);
	if (err)
		return err;
	if (ns < duty)
		return udrv_err(pwm->errmsg, EINVAL,
				"%s: a period of %" PRIu64 " ns is shorter than the duty cycle of %" PRIu64 " ns: set both at once (udrv_pwm_set_config() writes the duty cycle first)",
				pwm->label, ns, duty);
	return write_ns(pwm, "period", ns);
}

int udrv_pwm_set_duty_ns(struct udrv_pwm *pwm, uint64_t ns)
{
	uint64_t period;
	int err = udrv_pwm_period_ns(pwm, &period);

	if (err)
		return err;
	if (!period)
		return udrv_err(pwm->errmsg, EINVAL,
				"%s: the period is 0: set one first (udrv_pwm_set_period_ns(), or both with udrv_pwm_set_config())",
				pwm->label);
	if (ns > period)
		return udrv_err(pwm->errmsg, EINVAL,
				"%s: a duty cycle of %" PRIu64 " ns is longer than the period of %" PRIu64 " ns: at most the period, or set both with udrv_pwm_set_config()",
				pwm->label, ns, period);
	return write_ns(pwm, "duty_cycle", ns);
}

int udrv_pwm_set_polarity(struct udrv_pwm *pwm, enum udrv_pwm_polarity polarity)
{
	enum udrv_pwm_polarity now = UDRV_PWM_POLARITY_NORMAL;
	int err;

	if ((unsigned int)polarity >= ARRAY_SIZE(polarity_names))
		return udrv_err(pwm->errmsg, EINVAL,
				"polarity %d: UDRV_PWM_POLARITY_NORMAL or _INVERSED", (int)polarity);
	err = udrv_pwm_polarity(pwm, &now);
	if (err || now == polarity)
		return err;
	err = udrv_pwm_enabled(pwm);
	if (err < 0)
		return err;
	if (err)
		return udrv_err(pwm->errmsg, EBUSY,
				"%s is enabled: its polarity cannot change while it runs (the kernel refuses it, or the output glitches): disable it, set the polarity, enable it again",
				pwm->label);
	return write_attr(pwm, "polarity", polarity_names[polarity]);
}

int udrv_pwm_enable(struct udrv_pwm *pwm)
{
	uint64_t period;
	int err = udrv_pwm_period_ns(pwm, &period);

	if (err)
		return err;
	if (!period)
		return udrv_err(pwm->errmsg, EINVAL,
				"%s: the period is 0: set the period and duty cycle before enabling (udrv_pwm_set_config())",
				pwm->label);
	return write_attr(pwm, "enable", "1");
}

int udrv_pwm_disable(struct udrv_pwm *pwm)
{
	int err = udrv_pwm_enabled(pwm);

	if (err <= 0)
		return err;	/* disabled already (also the period 0 the
				 * kernel would refuse), or unreadable */
	return write_attr(pwm, "enable", "0");
}
