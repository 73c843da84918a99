// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A PWM channel: the handle, the channel checked against the chip's npwm,
 * requested through /dev/pwmchipN where the chip has one (pwm_cdev.c),
 * else exported when it is not (then its pwmN/ waited for: udev gives it
 * its group after the kernel made it) and unexported at close only when
 * this handle exported it. Its state is pwm_state.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pwm/pwm_priv.h"

/* What open() sets, read and written by pwm_state.c. */
static const char *const channel_attrs[] = {
	"period", "duty_cycle", "polarity", "enable",
};

struct udrv_pwm *udrv_pwm_new(void)
{
	struct udrv_pwm *pwm = calloc(1, sizeof(*pwm));

	if (pwm) {
		pwm->channel = -1;
		pwm->fd = -1;
	}
	return pwm;
}

static void unexport(struct udrv_pwm *pwm)
{
	char path[UDRV_PATH_LEN + 16], num[16];

	snprintf(path, sizeof(path), "%s/unexport", pwm->chip_dir);
	snprintf(num, sizeof(num), "%d", pwm->channel);
	if (udrv_write_str(path, num))
		return;	/* close cannot fail: the channel stays exported, as
			 * after a crash */
}

void udrv_pwm_close(struct udrv_pwm *pwm)
{
	if (!pwm)
		return;
	udrv_pwm_cdev_close(pwm);
	if (pwm->exported && !pwm->keep)
		unexport(pwm);
	pwm->exported = false;
	pwm->keep = false;
	pwm->channel = -1;
	pwm->chip_open = false;
	pwm->dir[0] = '\0';
	pwm->label[0] = '\0';
}

void udrv_pwm_free(struct udrv_pwm *pwm)
{
	udrv_pwm_close(pwm);
	free(pwm);
}

const char *udrv_pwm_errmsg(const struct udrv_pwm *pwm)
{
	return pwm->errmsg;
}

unsigned int udrv_pwm_chip_number(const struct udrv_pwm *pwm)
{
	return pwm->chip;
}

unsigned int udrv_pwm_npwm(const struct udrv_pwm *pwm)
{
	return pwm->npwm;
}

const char *udrv_pwm_device(const struct udrv_pwm *pwm)
{
	return pwm->device;
}

int udrv_pwm_channel(const struct udrv_pwm *pwm)
{
	return pwm->channel;
}

bool udrv_pwm_owns_export(const struct udrv_pwm *pwm)
{
	return pwm->exported;
}

void udrv_pwm_set_keep_exported(struct udrv_pwm *pwm, bool keep)
{
	pwm->keep = keep;
}

int udrv_pwm_open_chip(struct udrv_pwm *pwm, const char *chip)
{
	int err;

	udrv_pwm_close(pwm);
	err = udrv_pwm_find_chip(pwm, chip);
	if (err)
		return err;
	pwm->chip_open = true;
	pwm->errmsg[0] = '\0';
	return 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Each attribute there and writable by us (udev has run), or -ENOENT /
 * -EACCES and the first that is not in @bad. */
static int channel_ready(const struct udrv_pwm *pwm, char *bad, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(channel_attrs); i++) {
		snprintf(bad, len, "%s/%s", pwm->dir, channel_attrs[i]);
		if (!udrv_path_exists(bad))
			return -ENOENT;
		if (faccessat(AT_FDCWD, bad, W_OK, AT_EACCESS))
			return -EACCES;
	}
	return 0;
}

static int wait_for_channel(struct udrv_pwm *pwm)
{
	struct timespec ms = { 0, 1000000 };
	uint64_t end = now_ms() + UDRV_PWM_EXPORT_WAIT_MS;
	char bad[UDRV_PATH_LEN + 16], hint[UDRV_ERRMSG_LEN];
	int err;

	while ((err = channel_ready(pwm, bad, sizeof(bad))) && now_ms() < end)
		nanosleep(&ms, NULL);
	if (!err)
		return 0;
	if (err == -ENOENT)
		return udrv_err(pwm->errmsg, ETIMEDOUT,
				"exported %s, but %s did not appear within %d ms",
				pwm->label, bad, UDRV_PWM_EXPORT_WAIT_MS);
	udrv_access_hint(hint, sizeof(hint), EACCES, bad);
	return udrv_err(pwm->errmsg, EACCES,
			"exported %s, but %s is not writable by this process %d ms later: %s",
			pwm->label, bad, UDRV_PWM_EXPORT_WAIT_MS, hint);
}

__attribute__((cold))
static int export_error(struct udrv_pwm *pwm, int err, const char *path)
{
	char hint[UDRV_ERRMSG_LEN];

	if (err == EBUSY)
		return udrv_err(pwm->errmsg, EBUSY,
				"%s is in use by a kernel driver (a backlight, a fan, a regulator: a device tree node whose pwms names it; /sys/kernel/debug/pwm says which), or by a process that requested it through /dev/pwmchip%u: it cannot be exported while held",
				pwm->label, pwm->chip);
	if (err == ENODEV || err == EINVAL)
		return udrv_err(pwm->errmsg, err,
				"the kernel refused to export %s (%s: %s)", pwm->label,
				path, strerror(err));
	udrv_access_hint(hint, sizeof(hint), err, path);
	return udrv_err(pwm->errmsg, err, "exporting %s through %s: %s (%s)", pwm->label,
			path, strerror(err), hint);
}

static int export_channel(struct udrv_pwm *pwm, unsigned int flags)
{
	char path[UDRV_PATH_LEN + 16], num[16];
	int err;

	if (udrv_path_exists(pwm->dir))
		return 0;	/* exported before: not ours to unexport */
	if (flags & UDRV_PWM_NO_EXPORT)
		return udrv_err(pwm->errmsg, ENOENT,
				"%s is not exported (%s missing); opened without UDRV_PWM_NO_EXPORT it is",
				pwm->label, pwm->dir);
	snprintf(path, sizeof(path), "%s/export", pwm->chip_dir);
	snprintf(num, sizeof(num), "%d", pwm->channel);
	err = udrv_write_str(path, num);
	if (err == -EBUSY && udrv_path_exists(pwm->dir))
		return 0;	/* someone else exported it meanwhile */
	if (err)
		return export_error(pwm, -err, path);
	pwm->exported = true;
	return wait_for_channel(pwm);
}

#define OPEN_FLAGS	(UDRV_PWM_NO_EXPORT | UDRV_PWM_KEEP_EXPORTED | UDRV_PWM_SYSFS)

static int open_channel(struct udrv_pwm *pwm, unsigned int channel, unsigned int flags)
{
	int err;

	if (flags & ~(unsigned int)OPEN_FLAGS)
		return udrv_err(pwm->errmsg, EINVAL, "%s: unknown flags 0x%x", pwm->name,
				flags & ~(unsigned int)OPEN_FLAGS);
	if (channel >= pwm->npwm && !pwm->npwm)
		return udrv_err(pwm->errmsg, ERANGE, "%s has no channels: no channel %u",
				pwm->chip_label, channel);
	if (channel >= pwm->npwm)
		return udrv_err(pwm->errmsg, ERANGE,
				"%s has %u channel%s, 0 to %u: no channel %u", pwm->chip_label,
				pwm->npwm, pwm->npwm == 1 ? "" : "s", pwm->npwm - 1, channel);
	pwm->channel = (int)channel;
	pwm->keep = flags & UDRV_PWM_KEEP_EXPORTED;
	snprintf(pwm->label, sizeof(pwm->label), "channel %u of %s", channel, pwm->chip_label);
	if (snprintf(pwm->dir, sizeof(pwm->dir), "%s/pwm%u", pwm->chip_dir, channel) >=
	    (int)sizeof(pwm->dir) - 16)
		return udrv_path_err(pwm->errmsg, "the channel's directory");
	if (!(flags & UDRV_PWM_SYSFS)) {
		err = udrv_pwm_cdev_open(pwm);	/* 1: sysfs it is */
		if (err <= 0)
			return err;
	}
	return export_channel(pwm, flags);
}

int udrv_pwm_open(struct udrv_pwm *pwm, const char *chip, unsigned int channel,
		  unsigned int flags)
{
	int err = udrv_pwm_open_chip(pwm, chip);

	if (!err)
		err = open_channel(pwm, channel, flags);
	if (err) {
		pwm->keep = false;	/* an export of ours is undone */
		udrv_pwm_close(pwm);
		return err;
	}
	pwm->errmsg[0] = '\0';
	return 0;
}
