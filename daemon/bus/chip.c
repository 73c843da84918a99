// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.gpiod1.Chip objects: one a GPIO chip with a character device, at
 * /io/gpiod1/chips/gpiochipN, itself the object manager of its lines
 * (model/chips.h holds them). RequestLines checks every line against the
 * policy before it asks the kernel for any (model/requests.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker.h"
#include "caller.h"
#include "chip.h"
#include "errors.h"
#include "export.h"
#include "line.h"
#include "linecfg.h"

static int prop_name(sd_bus *bus, const char *path, const char *iface, const char *prop,
		     sd_bus_message *reply, void *data, sd_bus_error *error)
{
	struct udrvd_chip *c = data;

	return sd_bus_message_append(reply, "s", strcmp(prop, "Name") ?
				     udrv_chip_label(c->chip) : udrv_chip_name(c->chip));
}

static int prop_num_lines(sd_bus *bus, const char *path, const char *iface, const char *prop,
			  sd_bus_message *reply, void *data, sd_bus_error *error)
{
	struct udrvd_chip *c = data;

	return sd_bus_message_append(reply, "u", udrv_chip_num_lines(c->chip));
}

static int prop_path(sd_bus *bus, const char *path, const char *iface, const char *prop,
		     sd_bus_message *reply, void *data, sd_bus_error *error)
{
	struct udrvd_chip *c = data;
	const char *p = udrv_chip_path(c->chip);

	return sd_bus_message_append_array(reply, 'y', p, strlen(p) + 1);
}

static int method_request_lines(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd_chip *chip = data;
	struct udrvd_err e = { 0 };
	struct udrvd_linecfg cfg;
	struct udrvd_creds who;
	struct udrvd_req *req;
	int r;

	r = udrvd_caller_of(m, &who, error);
	if (r < 0)
		return r;
	r = udrvd_linecfg_read(m, &cfg, error);
	if (r >= 0)
		r = udrvd_reqcfg_read(m, &cfg, error);
	if (r >= 0)
		r = udrvd_req_check_lines(chip, &cfg, &who.caller, &e);
	if (r >= 0)
		r = udrvd_request(chip, &cfg, &who.caller, &req, &e);
	udrvd_caller_done(&who);
	if (e.err)
		return udrvd_bus_error(error, &e);
	if (r < 0)
		return r;
	return sd_bus_reply_method_return(m, "o", req->path);
}

static const sd_bus_vtable chip_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("Name", "s", prop_name, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Label", "s", prop_name, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("NumLines", "u", prop_num_lines, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Path", "ay", prop_path, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_METHOD_WITH_NAMES("RequestLines", "(a(aua{sv})ai)a{sv}",
				 SD_BUS_PARAM(line_config) SD_BUS_PARAM(request_config),
				 "o", SD_BUS_PARAM(request_path), method_request_lines,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};

int udrvd_chip_interfaces(struct udrvd_chip *c, sd_bus_message *reply)
{
	return udrvd_append_interface(reply, c->path, "io.gpiod1.Chip", chip_vtable, c);
}

/* InterfacesAdded or InterfacesRemoved for @c and its lines. */
static void chip_announce(struct udrvd_chip *c, bool added)
{
	sd_bus *bus = udrvd_of(c->h)->bus;

	if (added)
		sd_bus_emit_interfaces_added(bus, c->path, "io.gpiod1.Chip", NULL);
	for (unsigned int i = 0; i < c->nlines; i++) {
		if (added)
			sd_bus_emit_interfaces_added(bus, c->lines[i].path, "io.gpiod1.Line", NULL);
		else
			sd_bus_emit_interfaces_removed(bus, c->lines[i].path, "io.gpiod1.Line",
						       NULL);
	}
	if (!added)
		sd_bus_emit_interfaces_removed(bus, c->path, "io.gpiod1.Chip", NULL);
}

static void unexport(struct udrvd_chip *c)
{
	for (unsigned int i = 0; i < c->nlines; i++)
		udrvd_line_unexport(&c->lines[i]);
	c->exp = udrvd_export_free(c->exp);
}

int udrvd_chip_export(struct udrvd_chip *c, bool announce)
{
	sd_bus *bus = udrvd_of(c->h)->bus;
	int r = udrvd_export_new(&c->exp);

	if (r >= 0)
		r = sd_bus_add_object_vtable(bus, &c->exp->slot, c->path, "io.gpiod1.Chip",
					     chip_vtable, c);
	if (r >= 0)
		r = sd_bus_add_object_manager(bus, &c->exp->manager, c->path);
	for (unsigned int i = 0; r >= 0 && i < c->nlines; i++)
		r = udrvd_line_export(&c->lines[i]);
	if (r < 0) {
		unexport(c);
		return r;
	}
	if (announce)
		chip_announce(c, true);
	return 0;
}

void udrvd_chip_unexport(struct udrvd_chip *c, bool announce)
{
	if (announce)
		chip_announce(c, false);
	unexport(c);
}
