// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fake GPIO character device of the harnesses linked with
 * -Wl,--wrap=ioctl (fuzz.h). An object of its own in fuzz_common's library,
 * so that a harness linked without the wrap (udrvd's, which preloads
 * tests/daemon/fake_cdev.c's fuller fake instead) does not take it.
 */
#include <errno.h>
#include <linux/gpio.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

int __real_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);

struct fake_chip {
	char label[32];
	unsigned long num_lines;
	char *text;		/* the file, the line table from @lines on */
	const char *lines;
};

static bool fake_chip_read(int fd, struct fake_chip *c)
{
	struct stat st;
	char *nl, *end;
	ssize_t n;

	memset(c, 0, sizeof(*c));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	c->text = calloc(1, (size_t)st.st_size + 1);
	if (!c->text)
		abort();
	n = pread(fd, c->text, (size_t)st.st_size, 0);
	if (n < 0)
		n = 0;
	c->text[n] = '\0';
	nl = strchr(c->text, '\n');
	if (nl)
		*nl = '\0';
	snprintf(c->label, sizeof(c->label), "%s", c->text);
	if (!nl)
		return true;
	c->num_lines = strtoul(nl + 1, &end, 10);
	if (c->num_lines > FUZZ_CDEV_MAX_LINES)
		c->num_lines = FUZZ_CDEV_MAX_LINES;
	nl = strchr(nl + 1, '\n');
	c->lines = nl ? nl + 1 : NULL;
	return true;
}

/* Field @k (tab-separated) of line @offset of the table, into @buf. */
static void fake_line_field(const struct fake_chip *c, unsigned int offset,
			    int k, char *buf, size_t len)
{
	const char *p = c->lines;
	size_t n;

	buf[0] = '\0';
	for (unsigned int i = 0; p && i < offset; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	for (int i = 0; p && i < k; i++) {
		p += strcspn(p, "\t\n");
		p = *p == '\t' ? p + 1 : NULL;
	}
	if (!p)
		return;
	n = strcspn(p, "\t\n");
	snprintf(buf, len, "%.*s", (int)n, p);
}

static int fake_lineinfo(const struct fake_chip *c,
			 struct gpio_v2_line_info *li)
{
	char flags[32];
	unsigned int offset = li->offset;

	if (offset >= c->num_lines) {
		errno = EINVAL;
		return -1;
	}
	memset(li, 0, sizeof(*li));
	li->offset = offset;
	fake_line_field(c, offset, 0, li->name, sizeof(li->name));
	fake_line_field(c, offset, 1, li->consumer, sizeof(li->consumer));
	fake_line_field(c, offset, 2, flags, sizeof(flags));
	li->flags = strtoull(flags, NULL, 16);
	if (li->consumer[0])
		li->flags |= GPIO_V2_LINE_FLAG_USED;
	return 0;
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	struct fake_chip c;
	va_list ap;
	void *arg;
	int ret = -1;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req != GPIO_GET_CHIPINFO_IOCTL && req != GPIO_V2_GET_LINEINFO_IOCTL &&
	    req != GPIO_V2_GET_LINE_IOCTL)
		return __real_ioctl(fd, req, arg);
	if (!fake_chip_read(fd, &c))
		return __real_ioctl(fd, req, arg);
	if (req == GPIO_GET_CHIPINFO_IOCTL) {
		struct gpiochip_info *info = arg;

		memset(info, 0, sizeof(*info));
		snprintf(info->name, sizeof(info->name), "gpiochip");
		memcpy(info->label, c.label, sizeof(info->label));
		info->lines = (uint32_t)c.num_lines;
		ret = 0;
	} else if (req == GPIO_V2_GET_LINEINFO_IOCTL) {
		ret = fake_lineinfo(&c, arg);
	} else {
		errno = EBUSY;
	}
	free(c.text);
	return ret;
}
