/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * EdgeEvent signals (watch.c) to the clients that may watch the line and
 * read its properties. udrvd_req_events() (again after a reconfiguration)
 * reads a request's events when a line of it has edge detection.
 */
#ifndef UDRVD_WATCH_H
#define UDRVD_WATCH_H

#include "daemon.h"
#include "requests.h"

int udrvd_watch_start(struct udrvd *d);
void udrvd_watch_stop(struct udrvd *d);
void udrvd_watchers_free(struct udrvd_line *l);
int udrvd_req_events(struct udrvd_req *r);
void udrvd_req_events_stop(struct udrvd_req *r);

#endif /* UDRVD_WATCH_H */
