/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * io.gpiod1.Chip objects (chip.c), a chip's lines (line.h) and what it
 * keeps of them.
 */
#ifndef UDRVD_CHIP_H
#define UDRVD_CHIP_H

#include <systemd/sd-bus.h>
#include <udrv/line.h>

#include "daemon.h"
#include "line_watch.h"
#include "linecfg.h"

struct udrvd_watcher;

/* The line of a chip that a request holds, for the Line objects. */
struct udrvd_line {
	struct udrvd_chip *chip;
	unsigned int offset;
	char name[32];			/* "" when the driver names none */
	char path[UDRVD_PATH_LEN];
	sd_bus_slot *slot;
	struct udrvd_req *req;		/* the request holding it, or NULL */
	struct udrvd_watcher *watchers;	/* who gets its EdgeEvent signals */
};

struct udrvd_chip {
	struct udrvd *d;
	struct udrv_chip *chip;
	char path[UDRVD_PATH_LEN];
	sd_bus_slot *slot, *manager;
	struct udrvd_line *lines;
	unsigned int nlines;
	struct udrvd_line_watch info;	/* others' changes to its lines */
};

/* The udrvd_gpio_line of @chip's line @offset, for the policy (its name
 * as the driver gave it when udrvd started: names do not change). */
void udrvd_chip_line_id(struct udrvd_chip *chip, unsigned int offset,
			struct udrvd_gpio_line *id);

/* Export every GPIO chip there is (and its lines); free them. */
int udrvd_chips_export(struct udrvd *d);
void udrvd_chips_free(struct udrvd *d);
/* A chip that came (its node @name, "gpiochipN"): exported unless it is
 * already; one that went: its objects and udrvd's requests on it dropped. */
void udrvd_chip_add(struct udrvd *d, const char *name);
void udrvd_chip_remove(struct udrvd *d, const char *name);
/* Its interfaces for GetManagedObjects (objects.h). */
int udrvd_chip_interfaces(struct udrvd_chip *c, sd_bus_message *reply);

/* Every line of @cfg is on @chip and granted to @who (the policy for the
 * settings @cfg gives each); 0 or a D-Bus error. */
int udrvd_chip_check_lines(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
			   const struct udrvd_caller *who, sd_bus_error *error);

#endif /* UDRVD_CHIP_H */
