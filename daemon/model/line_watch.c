// SPDX-License-Identifier: GPL-2.0-only
/*
 * Line changes made by others: PropertiesChanged on a Line object when
 * another process requests, reconfigures or releases the line.
 *
 * udrvd opens each chip a second time and asks the kernel to watch every
 * line's info (GPIO_V2_GET_LINEINFO_WATCH_IOCTL); each change comes as a
 * struct gpio_v2_line_info_changed on that descriptor, read in udrvd's loop,
 * reported (line_watch.h: the bus side's changed()), which makes it
 * PropertiesChanged for the line's kernel-side properties (the
 * Line object reads them from the kernel when asked, so the signal says
 * which ones to read again, as io.gpiod1's EMITS_INVALIDATION). udrvd's own
 * requests come back this way too, beside what udrvd says of them itself.
 * A kernel that cannot watch (or a chip that cannot be opened again) leaves
 * udrvd serving, without these signals, and says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "line_watch.h"

#define INFO_READ	8	/* changes read at a time */

static void on_info(struct udrvd_io *io, int fd, void *data)
{
	struct gpio_v2_line_info_changed ev[INFO_READ];
	struct udrvd_line_watch *w = data;
	ssize_t n = read(fd, ev, sizeof(ev));

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0 || n % (ssize_t)sizeof(ev[0])) {
		fprintf(stderr, "udrvd: %s: no more line changes: read %s\n", w->name,
			n < 0 ? strerror(errno) : "returned a partial change");
		udrvd_io_stop(io);
		return;
	}
	for (ssize_t i = 0; i < n / (ssize_t)sizeof(ev[0]); i++) {
		unsigned int off = ev[i].info.offset;

		if (off < w->nlines)
			w->changed(w->data, off);
	}
}

/* Watch every line of @w; 0, or a negative errno and a note. */
static int watch_lines(const struct udrvd_line_watch *w, int fd)
{
	for (unsigned int i = 0; i < w->nlines; i++) {
		struct gpio_v2_line_info li = { .offset = i };

		if (ioctl(fd, GPIO_V2_GET_LINEINFO_WATCH_IOCTL, &li) < 0)
			return -errno;
	}
	return 0;
}

int udrvd_line_watch_start(struct udrvd_line_watch *w, struct udrvd_loop *loop,
			   const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	int err = fd < 0 ? -errno : watch_lines(w, fd);

	if (!err)
		err = udrvd_io_add(loop, &w->io, fd, false, on_info, w);
	if (err < 0) {
		fprintf(stderr, "udrvd: %s: changes others make to its lines are not signalled "
			"(watching %s: %s)\n", w->name, path, strerror(-err));
		if (fd >= 0)
			close(fd);
		return err;
	}
	w->fd = fd;
	return 0;
}

void udrvd_line_watch_stop(struct udrvd_line_watch *w)
{
	w->io = udrvd_io_free(w->io);
	if (w->fd > 0)
		close(w->fd);
	w->fd = 0;
}
