// SPDX-License-Identifier: GPL-2.0-only
/*
 * The GPIO chips udrvd holds: one a GPIO chip with a character device,
 * named UDRVD_CHIPS_PATH/gpiochipN, its lines .../gpiochipN/lineM; those
 * found at start, and those that come and go later (model/hotplug.c,
 * broker.c). A line's state is shown to root and to the callers the policy
 * names for the line (any rule, any permission), as the kernel shows it to
 * the gpio group alone (udrvd.conf(5)).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chips.h"

void udrvd_chip_line_id(struct udrvd_chip *chip, unsigned int offset,
			struct udrvd_gpio_line *id)
{
	id->chip = udrv_chip_name(chip->chip);
	id->label = udrv_chip_label(chip->chip);
	id->offset = offset;
	id->name = offset < chip->nlines ? chip->lines[offset].name : "";
}

void udrvd_line_info(const struct udrvd_line *l, struct udrv_line_info *info)
{
	if (udrv_chip_line_info(l->chip->chip, l->offset, info) < 0) {
		memset(info, 0, sizeof(*info));
		info->offset = l->offset;
	}
}

bool udrvd_line_shown(const struct udrvd_line *l, const struct udrvd_caller *who)
{
	struct udrvd_gpio_line id;

	if (!who)
		return false;
	if (who->uid == 0)
		return true;
	udrvd_chip_line_id(l->chip, l->offset, &id);
	return udrvd_policy_gpio_names(l->chip->h->policy, who, &id);
}

static void chip_free(struct udrvd_chip *c)
{
	if (!c)
		return;
	udrvd_line_watch_stop(&c->info);
	free(c->lines);
	udrv_chip_free(c->chip);
	free(c);
}

/* @c's lines, their names as the driver gives them now. */
static int lines_open(struct udrvd_chip *c)
{
	unsigned int n = udrv_chip_num_lines(c->chip);

	c->lines = calloc(n ? n : 1, sizeof(*c->lines));
	if (!c->lines)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++) {
		struct udrvd_line *l = &c->lines[i];
		struct udrv_line_info info;

		l->chip = c;
		l->offset = i;
		if (!udrv_chip_line_info(c->chip, i, &info))
			memcpy(l->name, info.name, sizeof(l->name));
		snprintf(l->path, sizeof(l->path), "%s/line%u", c->path, i);
	}
	c->nlines = n;
	return 0;
}

/* Another process changed line @offset of chip @data (line_watch.h). */
static void line_changed(void *data, unsigned int offset)
{
	struct udrvd_chip *c = data;

	c->h->events->line_changed(c->h->data, &c->lines[offset]);
}

struct udrvd_chip *udrvd_chip_open(struct udrvd_held *h, const char *name, bool announce)
{
	struct udrvd_chip *c = calloc(1, sizeof(*c));
	int r;

	if (!c || !(c->chip = udrv_chip_new())) {
		free(c);
		return NULL;
	}
	c->h = h;
	r = udrv_chip_open(c->chip, name);
	if (r < 0 || !udrv_chip_has_cdev(c->chip)) {
		fprintf(stderr, "udrvd: %s left out: %s\n", name,
			r < 0 ? udrv_chip_errmsg(c->chip) : "no GPIO character device");
		chip_free(c);
		return NULL;
	}
	snprintf(c->path, sizeof(c->path), UDRVD_CHIPS_PATH "/%s", udrv_chip_name(c->chip));
	r = lines_open(c);
	if (r >= 0)
		r = h->events->chip_added(h->data, c, announce);
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
	udrvd_line_watch_start(&c->info, h->loop, udrv_chip_path(c->chip));
	return c;
}

void udrvd_chip_close(struct udrvd_chip *c, bool announce)
{
	udrvd_line_watch_stop(&c->info);
	c->h->events->chip_removed(c->h->data, c, announce);
	chip_free(c);
}

struct udrvd_chip **udrvd_chip_slot(struct udrvd_held *h, const char *name)
{
	for (size_t i = 0; i < h->nchips; i++)
		if (!strcmp(udrv_chip_name(h->chips[i]->chip), name))
			return &h->chips[i];
	return NULL;
}
