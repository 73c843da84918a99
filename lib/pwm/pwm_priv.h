/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The PWM handle (pwm_chip.c: the chip, the list; pwm.c: the channel, its
 * export; pwm_state.c: its state, through sysfs or pwm_cdev.c: through
 * /dev/pwmchipN's waveforms). */
#ifndef UDRV_PWM_PRIV_H
#define UDRV_PWM_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <udrv/pwm.h>

#include "internal.h"

#define PWM_CLASS		"/sys/class/pwm"
#define UDRV_PWM_EXPORT_WAIT_MS	2000

/* A channel's state as sysfs has it: one attribute each. */
enum udrv_pwm_attr { PWM_PERIOD, PWM_DUTY, PWM_POLARITY, PWM_ENABLE };

struct udrv_pwm_state {
	uint64_t v[4];			/* by enum udrv_pwm_attr */
};

struct udrv_pwm {
	bool chip_open;
	unsigned int chip, npwm;
	char name[24];			/* "pwmchip0" */
	char device[128];		/* the parent device's name, or "" */
	char chip_dir[UDRV_PATH_LEN];	/* its class entry, under the sysroot */
	char chip_label[160];		/* "pwmchip0 (fe20c000.pwm)" */
	int channel;			/* -1: none */
	char dir[UDRV_PATH_LEN];	/* the channel's pwmM/ */
	char label[192];		/* "channel 1 of pwmchip0 (fe20c000.pwm)" */
	bool exported;			/* by this handle: unexported at close */
	bool keep;			/* UDRV_PWM_KEEP_EXPORTED */
	int fd;				/* /dev/pwmchipN, the channel requested;
					 * -1: through sysfs */
	struct udrv_pwm_state req;	/* through fd: the state requested */
	char errmsg[UDRV_ERRMSG_LEN];
};

/*
 * A chip given by number: "N", "pwmchipN", "/dev/pwmchipN" or
 * "/sys/class/pwm/pwmchipN" (decimal, no leading zero, at most
 * INT32_MAX): 0, -EINVAL (not such a form), -ERANGE (a larger number).
 */
int udrv_pwm_parse_chip(const char *s, unsigned int *num);
/* The chip @spec names into @pwm (number, name, class entry, device,
 * npwm): 0 or a negative errno and the message. */
int udrv_pwm_find_chip(struct udrv_pwm *pwm, const char *spec);

/*
 * pwm_cdev.c. Open /dev/pwmchipN and request the channel: 0; 1 when the
 * chip has no such device, or this process may not open it, or the channel
 * is exported in sysfs (then sysfs it is); or a negative errno and the
 * message.
 */
int udrv_pwm_cdev_open(struct udrv_pwm *pwm);
void udrv_pwm_cdev_close(struct udrv_pwm *pwm);
/* Apply @next (the state requested, checked): one waveform, or the output
 * off while it is disabled; pwm->req becomes @next. */
int udrv_pwm_cdev_apply(struct udrv_pwm *pwm, const struct udrv_pwm_state *next);

#endif /* UDRV_PWM_PRIV_H */
