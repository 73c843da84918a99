/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The GPIO chips udrvd holds and their lines (chips.c), plain C: opened,
 * named for the policy, shown to whom it names; broker.h's chips come and
 * go.
 */
#ifndef UDRVD_CHIPS_H
#define UDRVD_CHIPS_H

#include <stdbool.h>
#include <udrv/line.h>

#include "held.h"
#include "line_watch.h"

struct udrvd_export;	/* what the server keeps of an object (bus/export.h) */

struct udrvd_line {
	struct udrvd_chip *chip;
	unsigned int offset;
	char name[32];			/* "" when the driver names none */
	char path[UDRVD_PATH_LEN];
	struct udrvd_req *req;		/* the request holding it, or NULL */
	struct udrvd_export *exp;
};

struct udrvd_chip {
	struct udrvd_held *h;
	struct udrv_chip *chip;
	char path[UDRVD_PATH_LEN];
	struct udrvd_line *lines;
	unsigned int nlines;
	struct udrvd_line_watch info;	/* others' changes to its lines */
	struct udrvd_export *exp;
};

/* The udrvd_gpio_line of @chip's line @offset, for the policy (its name
 * as the driver gave it when udrvd opened the chip: names do not change). */
void udrvd_chip_line_id(struct udrvd_chip *chip, unsigned int offset,
			struct udrvd_gpio_line *id);
/* The kernel's view of @l; a line whose info cannot be read reads as a
 * free, unnamed input. */
void udrvd_line_info(const struct udrvd_line *l, struct udrv_line_info *info);
/* Is @l's state shown to @who (NULL: anyone): root, a caller the policy
 * names for the line? */
bool udrvd_line_shown(const struct udrvd_line *l, const struct udrvd_caller *who);

/* Chip @name (its node, "gpiochipN") opened with its lines, the server told
 * (@announce: it came while udrvd serves); NULL (and a note) for one without a
 * character device, that cannot be opened, or that the server refused. */
struct udrvd_chip *udrvd_chip_open(struct udrvd_held *h, const char *name, bool announce);
/* The server told (@announce: it went while udrvd serves), and freed. */
void udrvd_chip_close(struct udrvd_chip *c, bool announce);
/* The place in @h->chips of chip @name, or NULL. */
struct udrvd_chip **udrvd_chip_slot(struct udrvd_held *h, const char *name);

#endif /* UDRVD_CHIPS_H */
