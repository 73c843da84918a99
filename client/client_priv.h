/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* udrvd's client (internal): the handle and the objects udrvd exports,
 * shared by udrvd_client.c (connection, objects) and udrvd_lines.c. */
#ifndef UDRVD_CLIENT_PRIV_H
#define UDRVD_CLIENT_PRIV_H

#include <stdbool.h>
#include <systemd/sd-bus.h>

#include "udrvd_client.h"

#define UDRVD_CLIENT_BUS	"io.gpiod1"
#define UDRVD_CLIENT_CHIPS	"/io/gpiod1/chips"

struct udrvd_client {
	sd_bus *bus;
	char errmsg[512];
};

/* An object of a GetManagedObjects answer: a chip or a line. */
struct udrvd_obj {
	char path[UDRVD_CLIENT_PATH_LEN];
	bool is_line;
	char name[32];
	char label[64];
	unsigned int offset;
	char direction[16], bias[16], drive[16];
	bool active_low;
	char request[UDRVD_CLIENT_PATH_LEN];	/* "/" for none */
};

struct udrvd_objs {
	struct udrvd_obj *v;
	size_t n, cap;
};

/* GetManagedObjects' answer, a{oa{sa{sv}}}, into @out (appended; free
 * out->v when done): the chips' and lines' properties udrv uses, the rest
 * skipped. 0, or a negative errno for an answer of another shape
 * (tests/fuzz/fuzz_objects.c). */
int udrvd_client_read_objects(sd_bus_message *m, struct udrvd_objs *out);

/* The objects below @path (GetManagedObjects) into @out (reused; free
 * out->v when done). */
int udrvd_client_objects(struct udrvd_client *c, const char *path, struct udrvd_objs *out);

/* The message, formatted; returns -@err. */
int udrvd_client_err(struct udrvd_client *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A failed call's message: udrvd not running, or what it said. */
int udrvd_client_bus_err(struct udrvd_client *c, const char *what, const sd_bus_error *e, int r);

#endif /* UDRVD_CLIENT_PRIV_H */
