// SPDX-License-Identifier: GPL-2.0-only
/* A fake GPIO sysfs tree: see fake_gpio.h. */
#include <fcntl.h>
#include <linux/gpio.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fake_gpio.h"
#include "harness.h"

void fake_sysfs_mounted(void)
{
	fake_dir("sys/kernel");
	fake_dir("dev");
}

void fake_gpio_bus(void)
{
	fake_sysfs_mounted();
	fake_dir("sys/bus/gpio/devices");
	fake_dir("sys/class/gpio");
}

void fake_gpio_chip(int num, const char *parent, int base, int ngpio,
		    const char *label)
{
	char p[PATH_MAX], t[PATH_MAX], v[32];

	fake_dir("sys/devices/platform/%s/gpiochip%d", parent, num);
	snprintf(t, sizeof(t), "../../../devices/platform/%s/gpiochip%d",
		 parent, num);
	snprintf(p, sizeof(p), "sys/bus/gpio/devices/gpiochip%d", num);
	fake_symlink(t, p);
	snprintf(p, sizeof(p), "sys/devices/platform/%s/gpio/gpiochip%d/base",
		 parent, base);
	snprintf(v, sizeof(v), "%d\n", base);
	fake_file(p, v);
	snprintf(p, sizeof(p), "sys/devices/platform/%s/gpio/gpiochip%d/ngpio",
		 parent, base);
	snprintf(v, sizeof(v), "%d\n", ngpio);
	fake_file(p, v);
	snprintf(p, sizeof(p), "sys/devices/platform/%s/gpio/gpiochip%d/label",
		 parent, base);
	snprintf(t, sizeof(t), "%s\n", label);
	fake_file(p, t);
	snprintf(p, sizeof(p), "sys/devices/platform/%s/gpio/gpiochip%d/device",
		 parent, base);
	snprintf(t, sizeof(t), "../../../%s", parent);
	fake_symlink(t, p);
	snprintf(p, sizeof(p), "sys/class/gpio/gpiochip%d", base);
	snprintf(t, sizeof(t), "../../devices/platform/%s/gpio/gpiochip%d",
		 parent, base);
	fake_symlink(t, p);
}

static void fake_line_files(const char *dir, const char *direction)
{
	static const char *const attrs[][2] = {
		{ "value", "0\n" }, { "edge", "none\n" }, { "active_low", "0\n" },
	};
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/direction", dir);
	fake_file(p, direction);
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, attrs[i][0]);
		fake_file(p, attrs[i][1]);
	}
}

/* Built aside and renamed into place: gpioG/ appears with its attributes,
 * as the kernel's does. */
void fake_gpio_line(int gpio, const char *direction)
{
	char tmp[64], dir[64], from[PATH_MAX], to[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "sys/class/gpio/.new%d", gpio);
	snprintf(dir, sizeof(dir), "sys/class/gpio/gpio%d", gpio);
	fake_line_files(tmp, direction);
	fake_path(from, sizeof(from), tmp);
	fake_path(to, sizeof(to), dir);
	rename(from, to);
}

/* What the export server makes of an export (fake_gpio_export_as). */
static char export_name[64], export_parent[64];
static bool export_stray;

void fake_gpio_export_as(const char *parent, const char *name, bool stray)
{
	snprintf(export_parent, sizeof(export_parent), "%s", parent);
	snprintf(export_name, sizeof(export_name), "%s", name);
	export_stray = stray;
}

/* A line entry named @name: under the chip's device, linked from the
 * class directory (as the kernel makes a named line's entry), or a stray
 * entry of some other device. */
static void fake_named_line(void)
{
	char dev[PATH_MAX], cls[PATH_MAX], target[PATH_MAX];

	if (export_stray) {
		snprintf(dev, sizeof(dev), "sys/devices/virtual/other/%s", export_name);
		snprintf(target, sizeof(target), "../../devices/virtual/other/%s", export_name);
	} else {
		snprintf(dev, sizeof(dev), "sys/devices/platform/%s/gpiochip0/gpio/%s",
			 export_parent, export_name);
		snprintf(target, sizeof(target), "../../devices/platform/%s/gpiochip0/gpio/%s",
			 export_parent, export_name);
	}
	fake_line_files(dev, "in\n");
	snprintf(cls, sizeof(cls), "sys/class/gpio/%s", export_name);
	fake_symlink(target, cls);
}

static void *export_server(void *arg)
{
	char path[PATH_MAX], buf[32];
	ssize_t n;
	int fd;

	(void)arg;
	fake_path(path, sizeof(path), "sys/class/gpio/export");
	for (;;) {
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return NULL;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		if (export_name[0])
			fake_named_line();
		else
			fake_gpio_line(atoi(buf), "in\n");
	}
	return NULL;
}

void fake_gpio_export_start(void)
{
	pthread_t t;

	fake_fifo("sys/class/gpio/export");
	fake_file("sys/class/gpio/unexport", "");
	pthread_create(&t, NULL, export_server, NULL);
	pthread_detach(t);
}

void fake_gpio_irq(int irq, const char *hwirq, const char *actions)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "sys/kernel/irq/%d/hwirq", irq);
	fake_file(rel, hwirq);
	snprintf(rel, sizeof(rel), "sys/kernel/irq/%d/actions", irq);
	fake_file(rel, actions);
}

void fake_gpio_event(int wfd, unsigned int offset, uint32_t seqno)
{
	struct gpio_v2_line_event ev = {
		.timestamp_ns = 1000 + seqno, .id = GPIO_V2_LINE_EVENT_RISING_EDGE,
		.offset = offset, .seqno = seqno, .line_seqno = seqno,
	};

	CHECK_INT(write(wfd, &ev, sizeof(ev)), (long long)sizeof(ev));
}
