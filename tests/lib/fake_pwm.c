// SPDX-License-Identifier: GPL-2.0-only
/* PWM chips in the fake tree (fake_pwm.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_pwm.h"
#include "harness.h"

/* The chip's directory below the fake root (its device's, or a virtual
 * one without a parent). */
static char parents[8][64];

static void chip_dir(char *buf, size_t len, unsigned int num)
{
	const char *parent = num < 8 ? parents[num] : "";

	if (parent[0])
		snprintf(buf, len, "sys/devices/platform/%s/pwm/pwmchip%u", parent, num);
	else
		snprintf(buf, len, "sys/devices/virtual/pwm/pwmchip%u", num);
}

void fake_pwm_chip(unsigned int num, const char *parent, unsigned int npwm)
{
	char dir[160], path[192], text[192];

	if (num < 8)
		snprintf(parents[num], sizeof(parents[num]), "%s", parent);
	chip_dir(dir, sizeof(dir), num);
	snprintf(path, sizeof(path), "%s/npwm", dir);
	snprintf(text, sizeof(text), "%u\n", npwm);
	fake_file(path, text);
	snprintf(path, sizeof(path), "%s/export", dir);
	fake_file(path, "");
	snprintf(path, sizeof(path), "%s/unexport", dir);
	fake_file(path, "");
	if (parent[0]) {
		snprintf(path, sizeof(path), "%s/device", dir);
		snprintf(text, sizeof(text), "../../../%s", parent);
		fake_symlink(text, path);
	}
	snprintf(path, sizeof(path), "sys/class/pwm/pwmchip%u", num);
	snprintf(text, sizeof(text), "../../%s", dir + 4);
	fake_symlink(text, path);
}

void fake_pwm_attr(char *buf, size_t len, unsigned int num, unsigned int ch,
		   const char *attr)
{
	char dir[160];

	chip_dir(dir, sizeof(dir), num);
	snprintf(buf, len, "%s/pwm%u/%s", dir, ch, attr);
}

void fake_pwm_channel(unsigned int num, unsigned int ch, unsigned long long period,
		      unsigned long long duty, const char *polarity, int enable)
{
	char path[224], text[32];

	fake_pwm_attr(path, sizeof(path), num, ch, "period");
	snprintf(text, sizeof(text), "%llu\n", period);
	fake_file(path, text);
	fake_pwm_attr(path, sizeof(path), num, ch, "duty_cycle");
	snprintf(text, sizeof(text), "%llu\n", duty);
	fake_file(path, text);
	fake_pwm_attr(path, sizeof(path), num, ch, "polarity");
	snprintf(text, sizeof(text), "%s\n", polarity);
	fake_file(path, text);
	fake_pwm_attr(path, sizeof(path), num, ch, "enable");
	snprintf(text, sizeof(text), "%d\n", enable);
	fake_file(path, text);
}

void fake_pwm_control(unsigned int num, const char *name, const char *text)
{
	char dir[160], path[192];

	chip_dir(dir, sizeof(dir), num);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fake_file(path, text);
}

char *fake_pwm_file(unsigned int num, const char *name)
{
	char dir[160], path[192], *text;

	chip_dir(dir, sizeof(dir), num);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = fake_read(path);
	return text ? text : strdup("");
}

char *fake_pwm_log(unsigned int num)
{
	return fake_pwm_file(num, ".log");
}

void fake_pwm_node(unsigned int num, unsigned long long step_ns)
{
	char path[64], text[32];

	snprintf(path, sizeof(path), "dev/pwmchip%u", num);
	fake_file(path, "");
	snprintf(text, sizeof(text), "%llu\n", step_ns);
	fake_pwm_control(num, ".step_ns", text);
}
