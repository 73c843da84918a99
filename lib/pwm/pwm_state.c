// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A PWM channel's state: period and duty_cycle (ns, 64-bit), polarity
 * ("normal", "inversed") and enable (0, 1), as sysfs's attributes read
 * back strictly and written in the order the kernel takes them, or through
 * /dev/pwmchipN (pwm_cdev.c) as one waveform.
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

static int read_polarity(struct udrv_pwm *pwm, uint64_t *v)
{
	char text[16];
	int err = read_attr(pwm, "polarity", text, sizeof(text));

	if (err)
		return err;
	for (size_t i = 0; i < ARRAY_SIZE(polarity_names); i++) {
		if (!strcmp(text, polarity_names[i])) {
			*v = i;
			return 0;
		}
	}
	return udrv_err(pwm->errmsg, EIO, "%s: polarity reads '%s', neither normal nor inversed",
			pwm->label, text);
}

static int read_enable(struct udrv_pwm *pwm, uint64_t *v)
{
	unsigned int on;
	char text[16];
	int err = read_attr(pwm, "enable", text, sizeof(text));

	if (err)
		return err;
	if (udrv_parse_uint(text, 1, &on))
		return udrv_err(pwm->errmsg, EIO, "%s: enable reads '%s', neither 0 nor 1",
				pwm->label, text);
	*v = on;
	return 0;
}

/* One value of the state requested: sysfs's attribute, or what this
 * handle asked /dev/pwmchipN for. */
static int get(struct udrv_pwm *pwm, enum udrv_pwm_attr attr, uint64_t *v)
{
	int err = need_channel(pwm);

	if (err)
		return err;
	if (pwm->fd >= 0) {
		*v = pwm->req.v[attr];
		return 0;
	}
	switch (attr) {
	case PWM_PERIOD:
		return read_ns(pwm, "period", v);
	case PWM_DUTY:
		return read_ns(pwm, "duty_cycle", v);
	case PWM_POLARITY:
		return read_polarity(pwm, v);
	default:
		return read_enable(pwm, v);
	}
}

int udrv_pwm_period_ns(struct udrv_pwm *pwm, uint64_t *ns)
{
	return get(pwm, PWM_PERIOD, ns);
}

int udrv_pwm_duty_ns(struct udrv_pwm *pwm, uint64_t *ns)
{
	return get(pwm, PWM_DUTY, ns);
}

int udrv_pwm_polarity(struct udrv_pwm *pwm, enum udrv_pwm_polarity *polarity)
{
	uint64_t v = 0;
	int err = get(pwm, PWM_POLARITY, &v);

	if (!err)
		*polarity = (enum udrv_pwm_polarity)v;
	return err;
}

int udrv_pwm_enabled(struct udrv_pwm *pwm)
{
	uint64_t v = 0;
	int err = get(pwm, PWM_ENABLE, &v);

	return err ? err : (int)v;
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

/* One value of the state, as sysfs takes it or in one waveform. */
static int put(struct udrv_pwm *pwm, enum udrv_pwm_attr attr, uint64_t v)
{
	static const char *const names[] = {
		[PWM_PERIOD] = "period", [PWM_DUTY] = "duty_cycle",
	};
	struct udrv_pwm_state next = pwm->req;
	char val[24];

	if (pwm->fd >= 0) {
		next.v[attr] = v;
		return udrv_pwm_cdev_apply(pwm, &next);
	}
	if (attr == PWM_POLARITY)
		return write_attr(pwm, "polarity", polarity_names[v]);
	if (attr == PWM_ENABLE)
		return write_attr(pwm, "enable", v ? "1" : "0");
	snprintf(val, sizeof(val), "%" PRIu64, v);
	return write_attr(pwm, names[attr], val);
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
	if (pwm->fd >= 0) {		/* one waveform */
		struct udrv_pwm_state next = pwm->req;

		next.v[PWM_PERIOD] = period_ns;
		next.v[PWM_DUTY] = duty_ns;
		return udrv_pwm_cdev_apply(pwm, &next);
	}
	err = udrv_pwm_duty_ns(pwm, &duty_now);
	if (err)
		return err;
	if (period_ns < duty_now) {	/* shrinking below the duty: duty first */
		err = put(pwm, PWM_DUTY, duty_ns);
		return err ? err : put(pwm, PWM_PERIOD, period_ns);
	}
	err = put(pwm, PWM_PERIOD, period_ns);
	return err ? err : put(pwm, PWM_DUTY, duty_ns);
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
	return put(pwm, PWM_PERIOD, ns);
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
	return put(pwm, PWM_DUTY, ns);
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
	err = pwm->fd >= 0 ? 0 : udrv_pwm_enabled(pwm);	/* a waveform: at once */
	if (err < 0)
		return err;
	if (err)
		return udrv_err(pwm->errmsg, EBUSY,
				"%s is enabled: its polarity cannot change while it runs (the kernel refuses it, or the output glitches): disable it, set the polarity, enable it again",
				pwm->label);
	return put(pwm, PWM_POLARITY, polarity);
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
	return put(pwm, PWM_ENABLE, 1);
}

int udrv_pwm_disable(struct udrv_pwm *pwm)
{
	int err = udrv_pwm_enabled(pwm);

	if (err <= 0)
		return err;	/* disabled already (also the period 0 the
				 * kernel would refuse), or unreadable */
	return put(pwm, PWM_ENABLE, 0);
}
