// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A PWM channel through the chip's character device, /dev/pwmchipN (Linux
 * 6.16 and later, for a chip whose driver knows waveforms): requested, not
 * exported; its state set as one waveform; the hardware's own values read
 * back and rounded before they are set.
 *
 * A waveform is high for duty_length_ns from duty_offset_ns after each
 * period's start; a period of 0 is the output off. The kernel takes a
 * state as sysfs has it this way: normal polarity is an offset of 0,
 * inversed polarity with a duty cycle d is high for period - d from d. The
 * ioctls are the kernel's uAPI (include/uapi/linux/pwm.h), spelled here
 * because the headers of the kernels we build on have none.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pwm/pwm_priv.h"

struct udrv_pwmchip_waveform {
	uint32_t hwpwm;
	uint32_t pad;
	uint64_t period_length_ns;
	uint64_t duty_length_ns;
	uint64_t duty_offset_ns;
};

#define PWM_IOC_REQUEST		_IO(0x75, 1)
#define PWM_IOC_FREE		_IO(0x75, 2)
#define PWM_IOC_ROUNDWF		_IOWR(0x75, 3, struct udrv_pwmchip_waveform)
#define PWM_IOC_GETWF		_IOWR(0x75, 4, struct udrv_pwmchip_waveform)
#define PWM_IOC_SETROUNDEDWF	_IOW(0x75, 5, struct udrv_pwmchip_waveform)
#define PWM_IOC_SETEXACTWF	_IOW(0x75, 6, struct udrv_pwmchip_waveform)

/* The kernel keeps periods at most S64_MAX (room for later extensions). */
#define PWM_WF_MAX_NS		((uint64_t)INT64_MAX)

static struct udrv_pwmchip_waveform to_uapi(const struct udrv_pwm *pwm,
					    const struct udrv_pwm_waveform *wf)
{
	return (struct udrv_pwmchip_waveform){
		.hwpwm = (uint32_t)pwm->channel,
		.period_length_ns = wf->period_ns,
		.duty_length_ns = wf->duty_ns,
		.duty_offset_ns = wf->offset_ns,
	};
}

static void from_uapi(const struct udrv_pwmchip_waveform *c, struct udrv_pwm_waveform *wf)
{
	wf->period_ns = c->period_length_ns;
	wf->duty_ns = c->duty_length_ns;
	wf->offset_ns = c->duty_offset_ns;
}

/* The waveform of a state (sysfs's attributes). */
static struct udrv_pwm_waveform state_wave(const struct udrv_pwm_state *s)
{
	uint64_t p = s->v[PWM_PERIOD], d = s->v[PWM_DUTY];

	if (!s->v[PWM_ENABLE] || !p)
		return (struct udrv_pwm_waveform){ 0, 0, 0 };
	if (s->v[PWM_POLARITY] == UDRV_PWM_POLARITY_NORMAL || !d)
		return (struct udrv_pwm_waveform){ p, s->v[PWM_POLARITY] ? p : d, 0 };
	if (d == p)	/* inversed 100%: low throughout */
		return (struct udrv_pwm_waveform){ p, 0, 0 };
	return (struct udrv_pwm_waveform){ p, p - d, d };
}

/* The state a waveform is (the other way round); an offset other than an
 * inversed polarity's reads as normal. Off keeps the period and duty. */
static void wave_state(const struct udrv_pwm_waveform *wf, struct udrv_pwm_state *s)
{
	s->v[PWM_ENABLE] = wf->period_ns != 0;
	if (!wf->period_ns)
		return;
	s->v[PWM_PERIOD] = wf->period_ns;
	if (wf->offset_ns && wf->offset_ns + wf->duty_ns == wf->period_ns) {
		s->v[PWM_POLARITY] = UDRV_PWM_POLARITY_INVERSED;
		s->v[PWM_DUTY] = wf->offset_ns;
	} else {
		s->v[PWM_POLARITY] = UDRV_PWM_POLARITY_NORMAL;
		s->v[PWM_DUTY] = wf->duty_ns;
	}
}

__attribute__((cold))
static int ioctl_error(struct udrv_pwm *pwm, int err, const char *what,
		       const struct udrv_pwm_waveform *wf)
{
	if (err == ENODEV || err == ENXIO)
		return udrv_err(pwm->errmsg, ENODEV,
				"%s: %s: the chip went away (its driver unbound)", pwm->label,
				what);
	if (wf && (err == EINVAL || err == ERANGE || err == EOPNOTSUPP))
		return udrv_err(pwm->errmsg, err,
				"%s: the kernel refused the waveform period %" PRIu64 " ns, duty %" PRIu64 " ns at offset %" PRIu64 " ns (%s: %s): the controller cannot make it (beyond its range, or an offset it lacks)",
				pwm->label, wf->period_ns, wf->duty_ns, wf->offset_ns, what,
				strerror(err));
	return udrv_err(pwm->errmsg, err, "%s: %s through /dev/pwmchip%u: %s", pwm->label,
			what, pwm->chip, strerror(err));
}

static int wf_ioctl(struct udrv_pwm *pwm, unsigned long req, const char *what,
		    struct udrv_pwm_waveform *wf)
{
	struct udrv_pwmchip_waveform c = to_uapi(pwm, wf);

	if (ioctl(pwm->fd, req, &c) < 0)
		return ioctl_error(pwm, errno, what, wf);
	from_uapi(&c, wf);
	return 0;
}

/* The node's path, or 1 when the chip has none. */
static int node_path(struct udrv_pwm *pwm, char *path, size_t len)
{
	if (udrv_path(path, len, "/dev/pwmchip%u", pwm->chip))
		return udrv_path_err(pwm->errmsg, "the chip's character device");
	return udrv_path_exists(path) ? 0 : 1;
}

__attribute__((cold))
static int request_error(struct udrv_pwm *pwm, int err, const char *path)
{
	if (err == EBUSY)
		return udrv_err(pwm->errmsg, EBUSY,
				"%s is in use: a kernel driver holds it (a backlight, a fan, a regulator: /sys/kernel/debug/pwm says which), or another process requested it through %s",
				pwm->label, path);
	return udrv_err(pwm->errmsg, err, "requesting %s through %s: %s", pwm->label, path,
			strerror(err));
}

int udrv_pwm_cdev_open(struct udrv_pwm *pwm)
{
	struct udrv_pwm_waveform wf = { 0, 0, 0 };
	char path[UDRV_PATH_LEN];
	int err = node_path(pwm, path, sizeof(path));

	if (err)
		return err;
	if (udrv_path_exists(pwm->dir))
		return 1;	/* exported in sysfs: used there, as it is */
	pwm->fd = open(path, O_RDWR | O_CLOEXEC);
	if (pwm->fd < 0) {
		err = errno;
		if (err == EACCES || err == EPERM)
			return 1;
		return udrv_err(pwm->errmsg, err, "opening %s for %s: %s", path, pwm->label,
				strerror(err));
	}
	if (ioctl(pwm->fd, PWM_IOC_REQUEST, (unsigned long)pwm->channel) < 0) {
		err = request_error(pwm, errno, path);
		udrv_pwm_cdev_close(pwm);
		return err;
	}
	memset(&pwm->req, 0, sizeof(pwm->req));
	err = wf_ioctl(pwm, PWM_IOC_GETWF, "reading its waveform", &wf);
	if (err) {
		udrv_pwm_cdev_close(pwm);
		return err;
	}
	wave_state(&wf, &pwm->req);
	return 0;
}

void udrv_pwm_cdev_close(struct udrv_pwm *pwm)
{
	if (pwm->fd < 0)
		return;
	close(pwm->fd);		/* frees the channel it requested */
	pwm->fd = -1;
}

int udrv_pwm_cdev_apply(struct udrv_pwm *pwm, const struct udrv_pwm_state *next)
{
	struct udrv_pwm_waveform wf = state_wave(next);
	struct udrv_pwmchip_waveform c = to_uapi(pwm, &wf);

	if (!wf.period_ns && !state_wave(&pwm->req).period_ns) {
		pwm->req = *next;	/* off, and staying off */
		return 0;
	}
	if (ioctl(pwm->fd, PWM_IOC_SETROUNDEDWF, &c) < 0)
		return ioctl_error(pwm, errno, "setting its waveform", &wf);
	pwm->req = *next;
	return 0;
}

bool udrv_pwm_has_waveform(const struct udrv_pwm *pwm)
{
	return pwm->fd >= 0;
}

static int need_waveform(struct udrv_pwm *pwm)
{
	if (pwm->fd >= 0)
		return 0;
	if (pwm->channel < 0)
		return udrv_err(pwm->errmsg, EBADF, "no PWM channel open: udrv_pwm_open() first");
	return udrv_err(pwm->errmsg, EOPNOTSUPP,
			"%s is driven through sysfs, which has no waveforms: the chip has no /dev/pwmchip%u (a kernel before 6.16, or a driver without waveform support), or it was opened with UDRV_PWM_SYSFS, or exported in sysfs already, or this process may not open the device",
			pwm->label, pwm->chip);
}

/* A waveform the kernel takes: 0, or -EINVAL and the message. */
static int check_wave(struct udrv_pwm *pwm, const struct udrv_pwm_waveform *wf)
{
	if (wf->period_ns > PWM_WF_MAX_NS)
		return udrv_err(pwm->errmsg, EINVAL,
				"%s: a period of %" PRIu64 " ns: at most %" PRIu64 " ns",
				pwm->label, wf->period_ns, PWM_WF_MAX_NS);
	if (wf->duty_ns > wf->period_ns)
		return udrv_err(pwm->errmsg, EINVAL,
				"%s: a duty of %" PRIu64 " ns is longer than the period of %" PRIu64 " ns%s",
				pwm->label, wf->duty_ns, wf->period_ns,
				wf->period_ns ? "" : " (a period of 0 is the output off: duty and offset 0)");
	if (wf->offset_ns && wf->offset_ns >= wf->period_ns)
		return udrv_err(pwm->errmsg, EINVAL,
				"%s: an offset of %" PRIu64 " ns is not inside the period of %" PRIu64 " ns: below it",
				pwm->label, wf->offset_ns, wf->period_ns);
	return 0;
}

int udrv_pwm_waveform(struct udrv_pwm *pwm, struct udrv_pwm_waveform *wf)
{
	int err = need_waveform(pwm);

	if (err)
		return err;
	*wf = (struct udrv_pwm_waveform){ 0, 0, 0 };
	return wf_ioctl(pwm, PWM_IOC_GETWF, "reading its waveform", wf);
}

int udrv_pwm_round_waveform(struct udrv_pwm *pwm, const struct udrv_pwm_waveform *want,
			    struct udrv_pwm_waveform *got)
{
	struct udrv_pwm_waveform wf = *want;
	int err = need_waveform(pwm);

	if (!err)
		err = check_wave(pwm, &wf);
	if (!err)
		err = wf_ioctl(pwm, PWM_IOC_ROUNDWF, "rounding a waveform", &wf);
	if (!err)
		*got = wf;
	return err;
}

__attribute__((cold))
static int not_exact(struct udrv_pwm *pwm, const struct udrv_pwm_waveform *wf)
{
	struct udrv_pwm_waveform r = *wf;
	struct udrv_pwmchip_waveform c = to_uapi(pwm, &r);

	if (ioctl(pwm->fd, PWM_IOC_ROUNDWF, &c) == 0)
		from_uapi(&c, &r);
	return udrv_err(pwm->errmsg, EDOM,
			"%s cannot make period %" PRIu64 " ns, duty %" PRIu64 " ns, offset %" PRIu64 " ns exactly (its nearest: %" PRIu64 ", %" PRIu64 ", %" PRIu64 " ns): nothing changed; set it rounded, or a waveform the clock divides",
			pwm->label, wf->period_ns, wf->duty_ns, wf->offset_ns, r.period_ns,
			r.duty_ns, r.offset_ns);
}

int udrv_pwm_set_waveform(struct udrv_pwm *pwm, const struct udrv_pwm_waveform *wf,
			  unsigned int flags)
{
	struct udrv_pwmchip_waveform c;
	int err = need_waveform(pwm);

	if (!err && (flags & ~(unsigned int)UDRV_PWM_EXACT))
		err = udrv_err(pwm->errmsg, EINVAL, "%s: unknown waveform flags 0x%x",
			       pwm->label, flags & ~(unsigned int)UDRV_PWM_EXACT);
	if (!err)
		err = check_wave(pwm, wf);
	if (err)
		return err;
	c = to_uapi(pwm, wf);
	if (ioctl(pwm->fd, flags & UDRV_PWM_EXACT ? PWM_IOC_SETEXACTWF : PWM_IOC_SETROUNDEDWF,
		  &c) < 0) {
		if (errno == EDOM)
			return not_exact(pwm, wf);
		return ioctl_error(pwm, errno, "setting a waveform", wf);
	}
	wave_state(wf, &pwm->req);
	return 0;
}
