/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Line changes made by others (line_watch.c), plain C: the kernel's
 * GPIO_V2_GET_LINEINFO_WATCH_IOCTL on a chip opened again; each change of
 * a line is reported to @changed (the bus side emits PropertiesChanged).
 */
#ifndef UDRVD_LINE_WATCH_H
#define UDRVD_LINE_WATCH_H

#include "loop.h"

struct udrvd_line_watch {
	void (*changed)(void *data, unsigned int offset);	/* below @nlines */
	void *data;
	const char *name;		/* for messages: the chip's object */
	unsigned int nlines;
	int fd;				/* the chip again, watching its lines */
	struct udrvd_io *io;		/* while it watches */
};

/* Watch every line of the chip at @path (its character device) on @loop;
 * 0, or a negative errno (said: others' changes are not reported). */
int udrvd_line_watch_start(struct udrvd_line_watch *w, struct udrvd_loop *loop,
			   const char *path);
void udrvd_line_watch_stop(struct udrvd_line_watch *w);

#endif /* UDRVD_LINE_WATCH_H */
