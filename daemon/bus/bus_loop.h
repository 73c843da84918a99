/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrvd's event loop on sd-event (loop.c, bus_loop.h): model/loop.h's loop is the
 * sd_event udrvd runs; and the signals udrvd stops and reloads on.
 */
#ifndef UDRVD_BUS_LOOP_H
#define UDRVD_BUS_LOOP_H

#include <systemd/sd-event.h>

#include "loop.h"

/* @event as model/loop.h's loop. */
struct udrvd_loop *udrvd_loop_of(sd_event *event);
/* SIGTERM and SIGINT end @event's loop (status 0); SIGHUP calls
 * @hangup(@data). 0 or a negative errno. */
int udrvd_loop_signals(sd_event *event, void (*hangup)(void *data), void *data);

#endif /* UDRVD_BUS_LOOP_H */
