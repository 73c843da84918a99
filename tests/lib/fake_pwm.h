/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PWM chips in the fake tree, as Linux 6.1 lays them out, for
 * tests/lib/test_pwm.c; their sysfs files are served by fake_pwm_sysfs.c
 * (the test links with -Wl,--wrap=write), their /dev/pwmchipN by
 * fake_pwm_cdev.c (-Wl,--wrap=ioctl,--wrap=close):
 *
 *   sys/devices/platform/PARENT/pwm/pwmchipN/{npwm,export,unexport}
 *   sys/devices/platform/PARENT/pwm/pwmchipN/device -> ../../../PARENT
 *   sys/class/pwm/pwmchipN -> ../../devices/platform/PARENT/pwm/pwmchipN
 *   .../pwmchipN/pwmM/{period,duty_cycle,polarity,enable}  (exported)
 */
#ifndef UDRV_TEST_FAKE_PWM_H
#define UDRV_TEST_FAKE_PWM_H

/* Chip @num of platform device @parent ("" for none: no device link), with
 * @npwm channels. */
void fake_pwm_chip(unsigned int num, const char *parent, unsigned int npwm);
/* Channel @ch of chip @num, exported already with this state. */
void fake_pwm_channel(unsigned int num, unsigned int ch, unsigned long long period,
		      unsigned long long duty, const char *polarity, int enable);
/* A control file of chip @num (fake_pwm_sysfs.c: .delay_ms, .mode, .busy). */
void fake_pwm_control(unsigned int num, const char *name, const char *text);
/* The fake's log of chip @num (malloc'd, "" when nothing was written). */
char *fake_pwm_log(unsigned int num);
/* A file of chip @num's directory (malloc'd, "" when missing): .wfM is
 * channel M's waveform through the character device. */
char *fake_pwm_file(unsigned int num, const char *name);
/* Chip @num's character device /dev/pwmchipN (fake_pwm_cdev.c answers its
 * ioctls), its clock ticking every @step_ns. */
void fake_pwm_node(unsigned int num, unsigned long long step_ns);
/* The path below the fake root of chip @num's channel @ch attribute. */
void fake_pwm_attr(char *buf, size_t len, unsigned int num, unsigned int ch,
		   const char *attr);

#endif /* UDRV_TEST_FAKE_PWM_H */
