/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * io.gpiod1.Request and io.udrv1.Request objects (request.c): the line
 * requests udrvd holds for clients (model/requests.h) on the bus.
 */
#ifndef UDRVD_REQUEST_H
#define UDRVD_REQUEST_H

#include <stdbool.h>
#include <systemd/sd-bus.h>

#include "requests.h"

/* @r on the bus, its edge events read, InterfacesAdded: 0 or a negative
 * errno (nothing left exported). Off it again (@announce:
 * InterfacesRemoved). Its settings changed: its edge events read as they
 * say. */
int udrvd_req_export(struct udrvd_req *r);
void udrvd_req_unexport(struct udrvd_req *r, bool announce);
void udrvd_req_changed(struct udrvd_req *r);
int udrvd_req_interfaces(struct udrvd_req *r, sd_bus_message *reply);

#endif /* UDRVD_REQUEST_H */
