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

/* Edges in flight: what the EdgeEvent signals brought, not yet read. */
#define UDRVD_CLIENT_EVENTS	64

struct udrvd_client {
	sd_bus *bus;
	char errmsg[512];
	/* udrvd_client_watch(): the lines, the request made for them ("" when
	 * another request held them), the signals' match and their queue */
	struct udrvd_lines watched;
	char watch_req[UDRVD_CLIENT_PATH_LEN];
	sd_bus_slot *edges;
	struct udrv_edge_event queue[UDRVD_CLIENT_EVENTS];
	size_t head, queued;
	uint32_t line_seqno[UDRV_LINES_MAX];
	uint64_t lost;
};

/* An object of a GetManagedObjects answer: a chip or a line. */
struct udrvd_obj {
	char path[UDRVD_CLIENT_PATH_LEN];
	bool is_line;
	char name[32];
	char label[64];
	unsigned int offset;
	char direction[16], bias[16], drive[16], edge[16], clock[16];
	char consumer[32];
	bool active_low, used;
	uint64_t debounce_us;
	unsigned int num_lines;			/* a chip's */
	char dev[64];				/* a chip's Path: /dev/gpiochip0 */
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

/* Does chip object @o go by @spec: its name, number, /dev path or label? */
bool udrvd_client_chip_is(const struct udrvd_obj *o, const char *spec);
/* -ENOENT: udrvd has no chip @chip; the message lists those of @chips. */
int udrvd_client_no_chip(struct udrvd_client *c, const struct udrvd_objs *chips,
			 const char *chip);
/* RequestLines on @lines' chip with settings @s (one per line), consumer
 * @consumer, @buffer_size events (0: the kernel's default); the request's
 * path into @path. */
int udrvd_client_request_lines(struct udrvd_client *c, const struct udrvd_lines *lines,
			       const struct udrv_line_settings *s, const char *consumer,
			       unsigned int buffer_size, char *path, size_t len);
/* Release udrvd's request @req. */
int udrvd_client_release_request(struct udrvd_client *c, const char *req);

/* The message, formatted; returns -@err. */
int udrvd_client_err(struct udrvd_client *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A failed call's message: udrvd not running, or what it said. */
int udrvd_client_bus_err(struct udrvd_client *c, const char *what, const sd_bus_error *e, int r);

#endif /* UDRVD_CLIENT_PRIV_H */
