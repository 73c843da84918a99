// SPDX-License-Identifier: GPL-2.0-only
/*
 * The held requests and the state file (state.h): written after a request
 * is made or released, within UDRVD_STATE_DELAY_US of a value set through
 * the bus (one write for a burst of them: each is an fsync), and at stop;
 * read when udrvd starts, when each line a restore rule covers is
 * requested again for its owner with the settings and value it had.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "udrvd.h"

/* Values set through a handed-out fd are the kernel's to tell. */
static void refresh_values(struct udrvd_req *r)
{
	uint64_t values = 0, mask = 0;

	for (size_t i = 0; i < r->n; i++)
		if (r->settings[i].direction == UDRV_DIR_OUTPUT)
			mask |= 1ULL << i;
	if (!mask || udrv_request_get_values(r->req, mask, &values) < 0)
		return;
	for (size_t i = 0; i < r->n; i++)
		if (mask >> i & 1)
			r->settings[i].value = (int)(values >> i & 1);
}

void udrvd_state_sync(struct udrvd *d, bool refresh)
{
	struct udrvd_state st = { 0 };
	char msg[UDRVD_STATE_MSG_LEN];

	if (!d->state_path)
		return;
	if (d->state_timer)	/* this write is the one that was due */
		sd_event_source_set_enabled(d->state_timer, SD_EVENT_OFF);
	for (struct udrvd_req *r = d->reqs; r; r = r->next) {
		struct udrvd_state_req *s = udrvd_state_add(&st);

		if (!s)
			break;
		if (refresh)
			refresh_values(r);
		s->owner = r->owner;
		snprintf(s->chip, sizeof(s->chip), "%s", udrv_chip_name(r->chip->chip));
		snprintf(s->label, sizeof(s->label), "%s", udrv_chip_label(r->chip->chip));
		snprintf(s->consumer, sizeof(s->consumer), "%s", r->consumer);
		s->n = r->n;
		memcpy(s->offsets, r->offsets, sizeof(s->offsets));
		memcpy(s->settings, r->settings, sizeof(s->settings));
		st.n++;
	}
	if (udrvd_state_save(d->state_path, &st, msg) < 0)
		fprintf(stderr, "udrvd: %s: the held lines will not come back after a restart\n", msg);
	udrvd_state_free(&st);
}

static int on_state_timer(sd_event_source *s, uint64_t usec, void *data)
{
	udrvd_state_sync(data, false);
	return 0;
}

void udrvd_state_dirty(struct udrvd *d)
{
	int r;

	if (!d->state_path)
		return;
	if (!d->state_timer) {
		r = sd_event_add_time_relative(d->event, &d->state_timer, CLOCK_MONOTONIC,
					       UDRVD_STATE_DELAY_US, 0, on_state_timer, d);
		if (r < 0) {
			udrvd_state_sync(d, false);
			return;
		}
	} else if (sd_event_source_get_enabled(d->state_timer, NULL) > 0) {
		return;		/* a write is due already */
	} else {
		sd_event_source_set_time_relative(d->state_timer, UDRVD_STATE_DELAY_US);
	}
	sd_event_source_set_enabled(d->state_timer, SD_EVENT_ONESHOT);
}

/* The chip a saved request was on: the same name with the same label, else
 * the only chip with that label (names follow the order drivers probe). */
static struct udrvd_chip *chip_of(struct udrvd *d, const struct udrvd_state_req *s)
{
	struct udrvd_chip *found = NULL;
	size_t same_label = 0;

	for (size_t i = 0; i < d->nchips; i++) {
		struct udrvd_chip *c = d->chips[i];

		if (strcmp(udrv_chip_label(c->chip), s->label))
			continue;
		if (!strcmp(udrv_chip_name(c->chip), s->chip))
			return c;
		found = c;
		same_label++;
	}
	return same_label == 1 ? found : NULL;
}

/* Request again the lines of @s that a restore rule covers. */
static void restore_one(struct udrvd *d, const struct udrvd_state_req *s)
{
	struct udrvd_chip *chip = chip_of(d, s);
	sd_bus_error error = SD_BUS_ERROR_NULL;
	struct udrvd_linecfg cfg = { 0 };
	struct udrvd_req *req;

	if (!chip) {
		fprintf(stderr, "udrvd: not restored: %zu lines of %s (%s): no such chip now\n",
			s->n, s->chip, s->label);
		return;
	}
	for (size_t i = 0; i < s->n; i++) {
		struct udrvd_gpio_line id;

		if (s->offsets[i] >= chip->nlines)
			continue;
		udrvd_chip_line_id(chip, s->offsets[i], &id);
		if (!udrvd_policy_restores(d->policy, &id))
			continue;
		cfg.offsets[cfg.n] = s->offsets[i];
		cfg.settings[cfg.n++] = s->settings[i];
	}
	if (!cfg.n)
		return;
	snprintf(cfg.consumer, sizeof(cfg.consumer), "%s", s->consumer);
	if (udrvd_req_new(chip, &cfg, s->owner, &req, &error) < 0)
		fprintf(stderr, "udrvd: not restored: %zu lines of %s for uid %u: %s\n", cfg.n,
			udrv_chip_name(chip->chip), (unsigned int)s->owner, error.message);
	else
		fprintf(stderr, "udrvd: restored %s: %zu lines of %s for uid %u\n", req->path,
			cfg.n, udrv_chip_name(chip->chip), (unsigned int)s->owner);
	sd_bus_error_free(&error);
}

int udrvd_state_restore(struct udrvd *d)
{
	struct udrvd_state st;
	char msg[UDRVD_STATE_MSG_LEN];
	int err;

	if (!d->state_path)
		return 0;
	err = udrvd_state_load(d->state_path, &st, msg);
	if (err < 0) {
		/* never refuse to start over it: the lines stay with the kernel */
		fprintf(stderr, "udrvd: %s: nothing restored\n", msg);
		return 0;
	}
	for (size_t i = 0; i < st.n; i++)
		restore_one(d, &st.reqs[i]);
	udrvd_state_free(&st);
	udrvd_state_sync(d, false);	/* what is held now */
	return 0;
}
