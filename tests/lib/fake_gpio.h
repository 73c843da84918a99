/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake GPIO sysfs tree, laid out as Linux 6.1 lays it out:
 *   sys/bus/gpio/devices/gpiochipN -> sys/devices/platform/<parent>/gpiochipN
 *   sys/class/gpio/gpiochipBASE -> .../<parent>/gpio/gpiochipBASE
 *       (base, label, ngpio, device -> <parent>)
 * and an "export" FIFO served by a thread that creates gpioG/ like the
 * kernel does (direction, value, edge, active_low).
 */
#ifndef UDRV_TEST_FAKE_GPIO_H
#define UDRV_TEST_FAKE_GPIO_H

#include <stdbool.h>
#include <stdint.h>

void fake_sysfs_mounted(void);
void fake_gpio_bus(void);
/* A chip gpiochip@num under platform device @parent, sysfs @base. */
void fake_gpio_chip(int num, const char *parent, int base, int ngpio,
		    const char *label);
/* Make sys/class/gpio/export a FIFO served by a thread (and unexport a
 * plain file that collects what was written). */
void fake_gpio_export_start(void);
/* From now on an export makes an entry named @name under gpiochip0 of
 * @parent (a line the driver names), or with @stray a new entry of some
 * other device and nothing for the line. */
void fake_gpio_export_as(const char *parent, const char *name, bool stray);
/* An already exported line gpio@gpio with @direction. */
void fake_gpio_line(int gpio, const char *direction);

/* Interrupt @irq in sys/kernel/irq: its hwirq and actions files. */
void fake_gpio_irq(int irq, const char *hwirq, const char *actions);

/* Write one rising-edge struct gpio_v2_line_event to @wfd, as the kernel
 * would to a line request's file (timestamp 1000 + @seqno). */
void fake_gpio_event(int wfd, unsigned int offset, uint32_t seqno);

#endif /* UDRV_TEST_FAKE_GPIO_H */
