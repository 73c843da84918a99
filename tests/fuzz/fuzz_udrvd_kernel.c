// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's harness (fuzz_udrvd.c): the kernel's side. The fake tree udrvd
 * finds its chips (answered by tests/daemon/fake_cdev.c) and its UIO device
 * in, and what happens on udrvd's side between two calls: a chip going away
 * or coming, an edge or a line change from the kernel.
 */
#include <fcntl.h>
#include <limits.h>
#include <linux/gpio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include "fuzz_udrvd.h"

void make_tree(const struct fuzz_parts *parts, const char *policy)
{
	char rel[64], text[1024];

	fuzz_reset();
	for (size_t c = 0; c < NCHIPS; c++) {
		int n = snprintf(text, sizeof(text), "%s\n%u\n", CHIPS[c].label, CHIPS[c].nlines);

		for (unsigned int i = 0; i < CHIPS[c].nlines; i++)
			n += snprintf(text + n, sizeof(text) - (size_t)n, "%s\n",
				      CHIPS[c].lines ? CHIPS[c].lines[i] : "");
		/* the file in chips/, where the fake keeps its state files
		 * (gpiochipN.state), whose writes in dev/ would reach udrvd's
		 * hotplug watch at moments of the threads' timing */
		snprintf(rel, sizeof(rel), "chips/gpiochip%zu", c);
		fuzz_write_str(rel, text);
		snprintf(text, sizeof(text), "../chips/gpiochip%zu", c);
		snprintf(rel, sizeof(rel), "dev/gpiochip%zu", c);
		fuzz_symlink(text, rel);
	}
	fuzz_write_str("sys/class/uio/uio0/name", "fuzz-uio\n");
	fuzz_write_str("sys/class/uio/uio0/version", "1\n");
	fuzz_write_str("sys/class/uio/uio0/maps/map0/name", "regs\n");
	fuzz_write_str("sys/class/uio/uio0/maps/map0/addr", "0x40000000\n");
	fuzz_write_str("sys/class/uio/uio0/maps/map0/size", "0x1000\n");
	fuzz_write_str("sys/class/uio/uio0/maps/map0/offset", "0x0\n");
	fuzz_sparse("dev/uio0", 4096);
	/* what the kernel tells udrvd (on_kernel()) */
	for (size_t c = 0; c < NCHIPS; c++) {
		char path[PATH_MAX];

		for (int k = 0; k < 2; k++) {
			snprintf(rel, sizeof(rel), "chips/gpiochip%zu.%s", c, k ? "info" : "events");
			fuzz_path(path, sizeof(path), rel);
			if (mkfifo(path, 0600) < 0)
				abort();
		}
	}
	if (fuzz_has(parts, 0) && parts->len[0])
		fuzz_write_part(parts, 0, "etc/udrv/udrvd.conf");
	else
		fuzz_write_str("etc/udrv/udrvd.conf", policy);
	fuzz_write_part(parts, 1, "var/lib/udrvd/state");
	fuzz_mkdir("var/lib/udrvd");
}

/*
 * A chip going away or coming (model/hotplug.c's on_node() does the same for a
 * node removed from or made in /dev): in udrvd's thread, between two calls,
 * as a call of the harness's own object on udrvd's connection (Hotplug(y
 * chip, b came)). The chip's file stays: only udrvd's side changes.
 */
static int on_hotplug(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd *d = data;
	char name[16];
	uint8_t chip;
	int came;
	int r = sd_bus_message_read(m, "yb", &chip, &came);

	if (r < 0)
		return r;
	snprintf(name, sizeof(name), "gpiochip%u", chip % (unsigned int)(NCHIPS + 1));
	if (came)
		udrvd_chip_came(&d->held, name);
	else
		udrvd_chip_went(&d->held, name);
	return sd_bus_reply_method_return(m, NULL);
}

const sd_bus_vtable hotplug_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Hotplug", "yb", "", on_hotplug, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};

/*
 * What the kernel tells udrvd between two calls: an edge on a line of a chip
 * (its requests with edge detection read it) or a change of a line's info
 * (the chip's watch reads it), written into the chip's FIFO that
 * tests/daemon/fake_cdev.c reads them from (Event(y chip, u offset, y what):
 * what % 4 is a rising edge, a falling edge, or a line requested, released
 * or reconfigured by someone else). Written only where udrvd reads that
 * FIFO; the answer comes from an idle source of udrvd's loop, after udrvd
 * has handled what it read (its sources come first), so the next call
 * finds the edge or the change handled, whatever the threads' timing.
 */
static int kernel_answer(sd_event_source *s, void *data)
{
	sd_bus_message *call = data;

	sd_bus_reply_method_return(call, NULL);
	sd_bus_message_unref(call);
	return 0;
}

static bool chip_reads_edges(struct udrvd *d, unsigned int chip)
{
	char name[16];

	snprintf(name, sizeof(name), "gpiochip%u", chip);
	for (struct udrvd_req *r = d->held.reqs; r; r = r->next)
		if (r->exp && r->exp->events && !strcmp(udrv_chip_name(r->chip->chip), name))
			return true;
	return false;
}

static bool chip_reads_changes(struct udrvd *d, unsigned int chip)
{
	char name[16];

	snprintf(name, sizeof(name), "gpiochip%u", chip);
	for (size_t i = 0; i < d->held.nchips; i++)
		if (d->held.chips[i]->info.io && !strcmp(udrv_chip_name(d->held.chips[i]->chip), name))
			return true;
	return false;
}

static void fifo_write(unsigned int chip, const char *what, const void *rec, size_t len)
{
	char rel[64], path[PATH_MAX];
	int fd;

	snprintf(rel, sizeof(rel), "chips/gpiochip%u.%s", chip, what);
	fuzz_path(path, sizeof(path), rel);
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || write(fd, rec, len) != (ssize_t)len)
		abort();
	close(fd);
}

static int on_kernel(sd_bus_message *m, void *data, sd_bus_error *error)
{
	static uint32_t seqno;
	struct udrvd *d = data;
	sd_event_source *answer;
	unsigned int chip;
	uint32_t offset;
	uint8_t c, what;
	int r = sd_bus_message_read(m, "yuy", &c, &offset, &what);

	if (r < 0)
		return r;
	chip = c % (unsigned int)NCHIPS;
	seqno++;
	if (what % 4 < 2 && chip_reads_edges(d, chip)) {
		struct gpio_v2_line_event ev = {
			.timestamp_ns = 1000000ULL * seqno, .offset = offset, .seqno = seqno,
			.line_seqno = seqno,
			.id = what % 4 ? GPIO_V2_LINE_EVENT_FALLING_EDGE : GPIO_V2_LINE_EVENT_RISING_EDGE,
		};

		fifo_write(chip, "events", &ev, sizeof(ev));
	} else if (what % 4 >= 2 && chip_reads_changes(d, chip)) {
		struct gpio_v2_line_info_changed ch = {
			.info = { .offset = offset, .flags = GPIO_V2_LINE_FLAG_USED },
			.event_type = what % 4 == 2 ? GPIO_V2_LINE_CHANGED_REQUESTED :
				      GPIO_V2_LINE_CHANGED_RELEASED,
		};

		fifo_write(chip, "info", &ch, sizeof(ch));
	}
	r = sd_event_add_defer(d->event, &answer, kernel_answer, sd_bus_message_ref(m));
	if (r < 0) {
		sd_bus_message_unref(m);
		return r;
	}
	if (sd_event_source_set_priority(answer, SD_EVENT_PRIORITY_IDLE) < 0 ||
	    sd_event_source_set_floating(answer, 1) < 0)
		abort();
	sd_event_source_unref(answer);
	return 1;
}

const sd_bus_vtable kernel_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Event", "yuy", "", on_kernel, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};
