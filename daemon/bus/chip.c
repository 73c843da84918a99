// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.gpiod1.Chip objects: one a GPIO chip with a character device, at
 * /io/gpiod1/chips/gpiochipN, itself the object manager of its lines; those
 * found at start, and those that come and go later (model/hotplug.c).
 * RequestLines checks every line against the policy before it asks the
 * kernel for any.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chip.h"
#include "line.h"
#include "objects.h"
#include "perms.h"
#include "request.h"
#include "restore.h"

void udrvd_chip_line_id(struct udrvd_chip *chip, unsigned int offset,
			struct udrvd_gpio_line *id)
{
	id->chip = udrv_chip_name(chip->chip);
	id->label = udrv_chip_label(chip->chip);
	id->offset = offset;
	id->name = offset < chip->nlines ? chip->lines[offset].name : "";
}

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

/* What line @i of @cfg needs, the line being as the kernel reports it now
 * (read: an input request of an output line needs drive too). */
static unsigned int line_perms(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
			       size_t i)
{
	struct udrv_line_info now;
	bool known = !udrv_chip_line_info(chip->chip, cfg->offsets[i], &now);

	return cfg->perms[i] | udrvd_settings_perms_on(&cfg->settings[i], known ? &now : NULL);
}

/* Every line of @cfg on @chip is there and granted to @who. */
int udrvd_chip_check_lines(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
			   const struct udrvd_caller *who, sd_bus_error *error)
{
	char msg[UDRVD_MSG_LEN];
	struct udrvd_gpio_line id;

	for (size_t i = 0; i < cfg->n; i++) {
		if (cfg->offsets[i] >= udrv_chip_num_lines(chip->chip))
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
						 "%s has no line %u (it has %u)",
						 udrv_chip_name(chip->chip), cfg->offsets[i],
						 udrv_chip_num_lines(chip->chip));
		udrvd_chip_line_id(chip, cfg->offsets[i], &id);
		if (udrvd_policy_gpio(chip->d->policy, who, &id, line_perms(chip, cfg, i), msg))
			return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, msg);
	}
	return 0;
}

static int method_request_lines(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrvd_chip *chip = data;
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
		r = udrvd_chip_check_lines(chip, &cfg, &who.caller, error);
	if (r >= 0)
		r = udrvd_req_new(chip, &cfg, &who.caller, &req, error);
	udrvd_caller_done(&who);
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

static void chip_free(struct udrvd_chip *c)
{
	if (!c)
		return;
	udrvd_line_watch_stop(&c->info);
	udrvd_lines_free(c);
	sd_bus_slot_unref(c->slot);
	sd_bus_slot_unref(c->manager);
	udrv_chip_free(c->chip);
	free(c);
}

/* Another process changed line @offset of chip @data (line_watch.h). */
static void line_changed(void *data, unsigned int offset)
{
	struct udrvd_chip *c = data;

	udrvd_line_changed(&c->lines[offset]);
}

/* Open chip @name and export it; NULL (and a note) for one without a
 * character device or that cannot be opened. */
static struct udrvd_chip *chip_export(struct udrvd *d, const char *name)
{
	struct udrvd_chip *c = calloc(1, sizeof(*c));
	int r;

	if (!c || !(c->chip = udrv_chip_new())) {
		free(c);
		return NULL;
	}
	c->d = d;
	r = udrv_chip_open(c->chip, name);
	if (r < 0 || !udrv_chip_has_cdev(c->chip)) {
		fprintf(stderr, "udrvd: %s left out: %s\n", name,
			r < 0 ? udrv_chip_errmsg(c->chip) : "no GPIO character device");
		chip_free(c);
		return NULL;
	}
	snprintf(c->path, sizeof(c->path), UDRVD_CHIPS_PATH "/%s", udrv_chip_name(c->chip));
	r = sd_bus_add_object_vtable(d->bus, &c->slot, c->path, "io.gpiod1.Chip", chip_vtable, c);
	if (r >= 0)
		r = sd_bus_add_object_manager(d->bus, &c->manager, c->path);
	if (r >= 0)
		r = udrvd_lines_export(c);
	if (r < 0) {
		fprintf(stderr, "udrvd: %s left out: cannot export it on the bus: %s\n",
			name, strerror(-r));
		chip_free(c);
		return NULL;
	}
	c->info = (struct udrvd_line_watch){
		.changed = line_changed, .data = c, .name = c->path, .nlines = c->nlines,
	};
	/* without it (said), no signals for others' changes */
	udrvd_line_watch_start(&c->info, udrvd_loop(d), udrv_chip_path(c->chip));
	return c;
}

int udrvd_chips_export(struct udrvd *d)
{
	char **names = NULL;
	int n = udrv_chip_list(&names);

	if (n < 0)
		return n;
	d->chips = calloc((size_t)n + 1, sizeof(*d->chips));
	if (!d->chips) {
		udrv_strv_free(names);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		struct udrvd_chip *c = chip_export(d, names[i]);

		if (c)
			d->chips[d->nchips++] = c;
	}
	udrv_strv_free(names);
	return 0;
}

void udrvd_chips_free(struct udrvd *d)
{
	for (size_t i = 0; i < d->nchips; i++)
		chip_free(d->chips[i]);
	free(d->chips);
	d->chips = NULL;
	d->nchips = 0;
}

static struct udrvd_chip **chip_slot(struct udrvd *d, const char *name)
{
	for (size_t i = 0; i < d->nchips; i++)
		if (!strcmp(udrv_chip_name(d->chips[i]->chip), name))
			return &d->chips[i];
	return NULL;
}

/* InterfacesAdded or InterfacesRemoved for @c and its lines. */
static void chip_announce(struct udrvd_chip *c, bool added)
{
	sd_bus *bus = c->d->bus;

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

void udrvd_chip_add(struct udrvd *d, const char *name)
{
	struct udrvd_chip **chips, *c;

	if (chip_slot(d, name))
		return;
	chips = realloc(d->chips, (d->nchips + 1) * sizeof(*chips));
	if (!chips) {
		fprintf(stderr, "udrvd: %s left out: out of memory\n", name);
		return;
	}
	d->chips = chips;
	c = chip_export(d, name);
	if (!c)
		return;
	d->chips[d->nchips++] = c;
	chip_announce(c, true);
	fprintf(stderr, "udrvd: %s (%s) came: exported, %u lines\n", name,
		udrv_chip_label(c->chip), c->nlines);
}

void udrvd_chip_remove(struct udrvd *d, const char *name)
{
	struct udrvd_chip **slot = chip_slot(d, name);
	struct udrvd_chip *c;
	size_t dropped;

	if (!slot)
		return;
	c = *slot;
	dropped = udrvd_reqs_drop(c);
	chip_announce(c, false);
	*slot = d->chips[--d->nchips];
	fprintf(stderr, "udrvd: %s (%s) went away: %zu of udrvd's requests on it dropped\n",
		name, udrv_chip_label(c->chip), dropped);
	chip_free(c);
	if (dropped)
		udrvd_state_dirty(d, 0);
}
