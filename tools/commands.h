/* SPDX-License-Identifier: GPL-2.0-only */
/* The udrv commands (one file each) and what they share. */
#ifndef UDRV_COMMANDS_H
#define UDRV_COMMANDS_H

#include <udrv/udrv.h>

int cmd_info(int argc, char **argv);
int cmd_gpio(int argc, char **argv);
int cmd_gpio_info(int argc, char **argv);
int cmd_gpio_mon(int argc, char **argv);
int cmd_gpio_toggle(int argc, char **argv);
int cmd_gpio_watch(int argc, char **argv);
int cmd_gpio_release(int argc, char **argv);
int cmd_uio(int argc, char **argv);
int cmd_i2c(int argc, char **argv);
int cmd_spi(int argc, char **argv);
int cmd_pwm(int argc, char **argv);
int cmd_pwm_run(int argc, char **argv);
int cmd_pci(int argc, char **argv);
int cmd_rt(int argc, char **argv);
/* 'udrv bench', 'udrv load': forwarded to udrv-bench (cmd_bench.c) */
int cmd_forward_bench(int argc, char **argv);
int cmd_forward_load(int argc, char **argv);

/* Shared by 'udrv info' and 'udrv gpio info' / 'udrv uio info'. */
/* A line's info as fields of the JSON object being written (gpio info, watch). */
void gpio_json_line_fields(struct udrv_json *j, const struct udrv_line_info *li);
int gpio_show_chip(struct udrv_chip *chip, struct udrv_json *j);
/* udrv info's chips: with the registers of those the mmio backend knows. */
int gpio_show_chips(char **names, int n, struct udrv_json *j);
int uio_show_device(struct udrv_uio *uio, struct udrv_json *j);
int uio_show_devices(char **names, int n, struct udrv_json *j);
void rt_show_report(const struct udrv_rt_report *r, struct udrv_json *j,
		    bool verbose);

#endif /* UDRV_COMMANDS_H */
