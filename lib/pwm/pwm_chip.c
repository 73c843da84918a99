// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A PWM chip of the kernel's PWM class: found by number, class path or
 * parent device; its channel count (npwm) read strictly. The chips there
 * are, listed.
 *
 * The class has /sys/class/pwm/pwmchipN, a link to the chip under its
 * device (.../fe20c000.pwm/pwm/pwmchipN), with npwm, export, unexport and
 * a link device to that parent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/chip.h>

#include "pwm/pwm_priv.h"

int udrv_pwm_parse_chip(const char *s, unsigned int *num)
{
	static const char cls[] = PWM_CLASS "/";

	if (!s)
		return -EINVAL;
	if (!strncmp(s, cls, sizeof(cls) - 1)) {
		s += sizeof(cls) - 1;
		if (strncmp(s, "pwmchip", 7))
			return -EINVAL;	/* not "/sys/class/pwm/5" */
	}
	return udrv_parse_devnum(s, "pwmchip", num);
}

int udrv_pwm_list(char ***names)
{
	char dir[UDRV_PATH_LEN];
	int n;

	*names = NULL;
	if (udrv_path(dir, sizeof(dir), PWM_CLASS))
		return -ENAMETOOLONG;
	n = udrv_list_numbered(dir, "pwmchip", names);
	return n == -ENOENT ? 0 : n;	/* no PWM class: no chip */
}

/* The parent device's name of chip @num ("" when it has none). */
static void chip_device(unsigned int num, char *buf, size_t len)
{
	char path[UDRV_PATH_LEN];

	if (udrv_path(path, sizeof(path), PWM_CLASS "/pwmchip%u/device", num) ||
	    udrv_link_name(path, buf, len) < 0)
		buf[0] = '\0';
}

__attribute__((cold))
static int no_chip(struct udrv_pwm *pwm, const char *spec)
{
	char cls[UDRV_PATH_LEN];

	if (!udrv_path(cls, sizeof(cls), PWM_CLASS) && !udrv_path_exists(cls))
		return udrv_err(pwm->errmsg, ENOENT,
				"no PWM chip '%s': this system has no PWM class (%s missing: a kernel without CONFIG_PWM, or no PWM controller enabled; on a Raspberry Pi dtoverlay=pwm or pwm-2chan)",
				spec, cls);
	return udrv_err(pwm->errmsg, ENOENT,
			"no PWM chip '%s': give its number (0), name (pwmchip0), class path (/sys/class/pwm/pwmchip0) or its parent device's name (udrv_pwm_list() gives the chips there are)",
			spec);
}

/* The chip whose parent device is named @spec: 0, or -ENOENT / -EINVAL
 * (two chips of that device) with the message. */
static int chip_by_device(struct udrv_pwm *pwm, const char *spec, unsigned int *num)
{
	char dev[sizeof(pwm->device)], **names = NULL, both[64] = "";
	unsigned int n;
	int found = 0, count;

	count = udrv_pwm_list(&names);
	for (int i = 0; i < count; i++) {
		if (udrv_parse_devnum(names[i], "pwmchip", &n))
			continue;
		chip_device(n, dev, sizeof(dev));
		if (!dev[0] || strcmp(dev, spec))
			continue;
		if (!found++)
			*num = n;
		snprintf(both + strlen(both), sizeof(both) - strlen(both), "%s%s",
			 found > 1 ? ", " : "", names[i]);
	}
	udrv_strv_free(names);
	if (found == 1)
		return 0;
	if (found > 1)
		return udrv_err(pwm->errmsg, EINVAL,
				"%d PWM chips belong to device %s (%s): give one by number",
				found, spec, both);
	return no_chip(pwm, spec);
}

static int read_npwm(struct udrv_pwm *pwm)
{
	char path[UDRV_PATH_LEN + 8], text[32];
	int n;

	snprintf(path, sizeof(path), "%s/npwm", pwm->chip_dir);
	n = udrv_read_text(path, text, sizeof(text));
	if (n < 0)
		return udrv_err(pwm->errmsg, -n, "%s: cannot read %s: %s", pwm->chip_label, path,
				strerror(-n));
	if (udrv_parse_uint(text, UINT32_MAX, &pwm->npwm))
		return udrv_err(pwm->errmsg, EIO,
				"%s: %s reads '%s', not a channel count", pwm->chip_label, path, text);
	return 0;
}

int udrv_pwm_find_chip(struct udrv_pwm *pwm, const char *spec)
{
	unsigned int num = 0;
	int err;

	if (!spec || !*spec)
		return udrv_err(pwm->errmsg, EINVAL,
				"no PWM chip given: its number (0), name (pwmchip0), class path (/sys/class/pwm/pwmchip0) or its parent device's name");
	err = udrv_pwm_parse_chip(spec, &num);
	if (err == -ERANGE)
		return udrv_err(pwm->errmsg, ERANGE, "PWM chip '%s': number out of range",
				spec);
	if (err) {
		err = chip_by_device(pwm, spec, &num);
		if (err)
			return err;
	}
	pwm->chip = num;
	snprintf(pwm->name, sizeof(pwm->name), "pwmchip%u", num);
	if (udrv_path(pwm->chip_dir, sizeof(pwm->chip_dir), PWM_CLASS "/pwmchip%u", num))
		return udrv_path_err(pwm->errmsg, PWM_CLASS "/pwmchipN");
	if (!udrv_path_exists(pwm->chip_dir))
		return no_chip(pwm, spec);
	chip_device(num, pwm->device, sizeof(pwm->device));
	snprintf(pwm->chip_label, sizeof(pwm->chip_label), "%s%s%s%s", pwm->name,
		 pwm->device[0] ? " (" : "", pwm->device, pwm->device[0] ? ")" : "");
	return read_npwm(pwm);
}
