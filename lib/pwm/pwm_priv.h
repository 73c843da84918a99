/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The PWM handle (pwm_chip.c: the chip, the list; pwm.c: the channel, its
 * export; pwm_state.c: its attributes). */
#ifndef UDRV_PWM_PRIV_H
#define UDRV_PWM_PRIV_H

#include <stdbool.h>
#include <udrv/pwm.h>

#include "internal.h"

#define PWM_CLASS		"/sys/class/pwm"
#define UDRV_PWM_EXPORT_WAIT_MS	2000

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

#endif /* UDRV_PWM_PRIV_H */
