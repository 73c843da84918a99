// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.gpiod1.Line objects: one a line of an exported chip, at
 * /io/gpiod1/chips/gpiochipN/lineM. Their properties are what the kernel
 * says about the line when asked (GPIO_V2_GET_LINEINFO_IOCTL), and whether
 * udrvd holds it (Managed) in which request (RequestPath).
 *
 * Name and Offset are everyone's: the list of lines (gpiocli info, udrv gpio
 * info) works for every caller. The line's state (the rest) is shown to
 * root and to the callers the policy names for the line (any rule, any
 * permission), as the kernel shows it to the gpio group alone; to others
 * it reads as a free input's, the values gpiocli needs to list a line,
 * whatever the line's state is (udrvd.conf(5)). PropertiesChanged names the
 * properties and carries no value: every listener gets it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "line.h"
#include "requests.h"
#include "watch.h"

/* Is @l's state shown to whom its properties are being read for? */
static bool shown(const struct udrvd_line *l)
{
	struct udrvd_creds c;
	bool yes = udrvd_line_shown(l, udrvd_viewer(udrvd_of(l->chip->h), &c));

	udrvd_caller_done(&c);
	return yes;
}

/* @l's state as the kernel says it, or a free input's when it is not shown
 * (its name all the same). */
static void state_of(const struct udrvd_line *l, struct udrv_line_info *info)
{
	char name[sizeof(info->name)];

	udrvd_line_info(l, info);
	if (shown(l))
		return;
	memcpy(name, info->name, sizeof(name));
	memset(info, 0, sizeof(*info));
	info->offset = l->offset;
	memcpy(info->name, name, sizeof(name));
}

static int prop_str(sd_bus *bus, const char *path, const char *iface, const char *prop,
		    sd_bus_message *reply, void *data, sd_bus_error *error)
{
	const struct udrvd_line *l = data;
	struct udrv_line_info i;
	const char *s = "unknown";

	state_of(l, &i);
	if (!strcmp(prop, "Name"))
		s = i.name;
	else if (!strcmp(prop, "Consumer"))
		s = i.consumer;
	else if (!strcmp(prop, "Direction"))
		s = udrv_direction_str(i.direction);
	else if (!strcmp(prop, "EdgeDetection"))
		s = udrv_edge_str(i.edge);
	else if (!strcmp(prop, "Bias"))
		s = i.bias == UDRV_BIAS_AS_IS ? "unknown" : udrv_bias_str(i.bias);
	else if (!strcmp(prop, "Drive"))
		s = udrv_drive_str(i.drive);
	else if (!strcmp(prop, "EventClock"))
		s = udrv_clock_str(i.event_clock);
	return sd_bus_message_append(reply, "s", s);
}

static int prop_bool(sd_bus *bus, const char *path, const char *iface, const char *prop,
		     sd_bus_message *reply, void *data, sd_bus_error *error)
{
	const struct udrvd_line *l = data;
	struct udrv_line_info i;
	int b = 0;

	state_of(l, &i);
	if (!strcmp(prop, "Used"))
		b = i.used;
	else if (!strcmp(prop, "ActiveLow"))
		b = i.active_low;
	else if (!strcmp(prop, "Debounced"))
		b = i.debounce_us != 0;
	else if (!strcmp(prop, "Managed"))
		b = l->req && shown(l);
	return sd_bus_message_append(reply, "b", b);
}

static int prop_offset(sd_bus *bus, const char *path, const char *iface, const char *prop,
		       sd_bus_message *reply, void *data, sd_bus_error *error)
{
	const struct udrvd_line *l = data;

	return sd_bus_message_append(reply, "u", l->offset);
}

static int prop_debounce(sd_bus *bus, const char *path, const char *iface, const char *prop,
			 sd_bus_message *reply, void *data, sd_bus_error *error)
{
	const struct udrvd_line *l = data;
	struct udrv_line_info i;

	state_of(l, &i);
	return sd_bus_message_append(reply, "t", (uint64_t)i.debounce_us);
}

static int prop_request(sd_bus *bus, const char *path, const char *iface, const char *prop,
			sd_bus_message *reply, void *data, sd_bus_error *error)
{
	const struct udrvd_line *l = data;

	return sd_bus_message_append(reply, "o", l->req && shown(l) ? l->req->path : "/");
}

static const sd_bus_vtable line_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("Offset", "u", prop_offset, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Name", "s", prop_str, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("Used", "b", prop_bool, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("Consumer", "s", prop_str, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("Direction", "s", prop_str, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("EdgeDetection", "s", prop_str, 0,
			SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("Bias", "s", prop_str, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("Drive", "s", prop_str, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("ActiveLow", "b", prop_bool, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("Debounced", "b", prop_bool, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("DebouncePeriodUs", "t", prop_debounce, 0,
			SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("EventClock", "s", prop_str, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("Managed", "b", prop_bool, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_PROPERTY("RequestPath", "o", prop_request, 0,
			SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
	SD_BUS_SIGNAL_WITH_NAMES("EdgeEvent", "(ittt)", SD_BUS_PARAM(event_data), 0),
	SD_BUS_VTABLE_END
};

int udrvd_line_interfaces(struct udrvd_line *l, sd_bus_message *reply)
{
	return udrvd_append_interface(reply, l->path, "io.gpiod1.Line", line_vtable, l);
}

void udrvd_line_changed(struct udrvd_line *l)
{
	sd_bus_emit_properties_changed(udrvd_of(l->chip->h)->bus, l->path, "io.gpiod1.Line", "Managed",
				       "RequestPath", "Used", "Consumer", "Direction",
				       "EdgeDetection", "Bias", "Drive", "ActiveLow", "Debounced",
				       "DebouncePeriodUs", "EventClock", NULL);
}

int udrvd_line_export(struct udrvd_line *l)
{
	int r = udrvd_export_new(&l->exp);

	if (r >= 0)
		r = sd_bus_add_object_vtable(udrvd_of(l->chip->h)->bus, &l->exp->slot, l->path,
					     "io.gpiod1.Line", line_vtable, l);
	return r;
}

void udrvd_line_unexport(struct udrvd_line *l)
{
	if (!l->exp)
		return;
	udrvd_watchers_free(l);
	l->exp = udrvd_export_free(l->exp);
}
