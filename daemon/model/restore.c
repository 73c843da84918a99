// SPDX-License-Identifier: GPL-2.0-only
/*
 * The held requests and the state file (state.h), plain C. The file keeps
 * the held lines that the policy's restore rules cover, nothing else: a
 * request of a line no restore rule names never costs a write. It is written when what it
 * keeps changes (a request made, released or reconfigured, a value set
 * through the bus, a new policy), once for a burst of changes and at most
 * once each UDRVD_STATE_INTERVAL_US (each write is an fsync: a user who
 * only may read a line must not be able to wear the SD card out), and at
 * stop; it is read when udrvd starts, when each line a restore rule covers
 * is requested again for its owner with the settings and value it had, if
 * the policy still grants the owner those settings.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perms.h"
#include "requests.h"
#include "restore.h"
#include "state.h"

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

/* @r's lines that a restore rule covers into @s; their number. */
static size_t restorable(const struct udrvd_req *r, struct udrvd_state_req *s)
{
	struct udrvd_gpio_line id;

	s->n = 0;
	for (size_t i = 0; i < r->n; i++) {
		udrvd_chip_line_id(r->chip, r->offsets[i], &id);
		if (!udrvd_policy_restores(r->h->policy, &id))
			continue;
		s->offsets[s->n] = r->offsets[i];
		s->settings[s->n++] = r->settings[i];
	}
	return s->n;
}

/* What the state file keeps of the held requests, into @st. */
static void state_of(struct udrvd_held *h, bool refresh, struct udrvd_state *st)
{
	for (struct udrvd_req *r = h->reqs; r; r = r->next) {
		struct udrvd_state_req *s = udrvd_state_add(st);

		if (!s)
			break;
		if (refresh)
			refresh_values(r);
		if (!restorable(r, s))
			continue;
		s->owner = r->owner;
		snprintf(s->chip, sizeof(s->chip), "%s", udrv_chip_name(r->chip->chip));
		snprintf(s->label, sizeof(s->label), "%s", udrv_chip_label(r->chip->chip));
		snprintf(s->consumer, sizeof(s->consumer), "%s", r->consumer);
		st->n++;
	}
}

/* Now on udrvd's loop (the clock its timers run on). */
static uint64_t now_us(struct udrvd_held *h)
{
	return udrvd_loop_now_us(h->loop);
}

void udrvd_state_sync(struct udrvd_held *h, bool refresh)
{
	struct udrvd_state st = { 0 };
	char msg[UDRVD_STATE_MSG_LEN];
	char *text = NULL;
	size_t len = 0;

	if (!h->state_path)
		return;
	if (h->state_timer)	/* this write is the one that was due */
		udrvd_timer_off(h->state_timer);
	state_of(h, refresh, &st);
	if (udrvd_state_format(&st, &text, &len) < 0) {
		fprintf(stderr, "udrvd: %s: out of memory: the held lines will not come back after a restart\n",
			h->state_path);
	} else if (h->state_text && strlen(h->state_text) == len &&
		   !memcmp(h->state_text, text, len)) {
		free(text);	/* the file holds it already */
	} else if (udrvd_state_write(h->state_path, text, len, msg) < 0) {
		fprintf(stderr, "udrvd: %s: the held lines will not come back after a restart\n", msg);
		free(text);
	} else {
		free(h->state_text);
		h->state_text = text;
		h->state_written_us = now_us(h);
		h->state_writes++;
	}
	udrvd_state_free(&st);
}

static void on_state_timer(void *data)
{
	udrvd_state_sync(data, false);
}

void udrvd_state_dirty(struct udrvd_held *h, uint64_t delay_us)
{
	uint64_t now = now_us(h), due = now + delay_us;
	int r;

	if (!h->state_path || h->restoring)
		return;
	if (h->state_writes && due < h->state_written_us + UDRVD_STATE_INTERVAL_US)
		due = h->state_written_us + UDRVD_STATE_INTERVAL_US;
	if (h->state_timer && udrvd_timer_pending(h->state_timer))
		return;		/* a write is due already: it takes this change too */
	if (due <= now) {
		udrvd_state_sync(h, false);
		return;
	}
	if (!h->state_timer) {
		r = udrvd_timer_add(h->loop, &h->state_timer, due, on_state_timer, h);
		if (r < 0)
			udrvd_state_sync(h, false);
	} else {
		udrvd_timer_set(h->state_timer, due);
	}
}

/* The chip a saved request was on: the same name with the same label, else
 * the only chip with that label (names follow the order drivers probe). */
static struct udrvd_chip *chip_of(struct udrvd_held *h, const struct udrvd_state_req *s)
{
	struct udrvd_chip *found = NULL;
	size_t same_label = 0;

	for (size_t i = 0; i < h->nchips; i++) {
		struct udrvd_chip *c = h->chips[i];

		if (strcmp(udrv_chip_label(c->chip), s->label))
			continue;
		if (!strcmp(udrv_chip_name(c->chip), s->chip))
			return c;
		found = c;
		same_label++;
	}
	return same_label == 1 ? found : NULL;
}

/* @uid's credentials from the user database (the state file keeps the uid
 * alone), as udrvd_caller_set() takes a set of groups; @groups (malloc'd)
 * holds them. A uid
 * without an entry has no group. */
static void owner_of(uid_t uid, udrvd_groups_fn *groups_of, gid_t **groups,
		     struct udrvd_caller *c)
{
	size_t n = 0;

	*groups = NULL;
	if (groups_of(uid, groups, &n) < 0) {
		*groups = NULL;
		n = 0;
	}
	udrvd_caller_set(c, uid, *groups, n);
}

/* May @owner hold line @i of @s again, as it was? 0, or -EACCES and @msg. */
static int still_granted(struct udrvd_chip *chip, const struct udrvd_state_req *s, size_t i,
			 const struct udrvd_caller *owner, char msg[UDRVD_MSG_LEN])
{
	struct udrvd_gpio_line id;
	struct udrv_line_info now;
	bool known = !udrv_chip_line_info(chip->chip, s->offsets[i], &now);

	udrvd_chip_line_id(chip, s->offsets[i], &id);
	return udrvd_policy_gpio(chip->h->policy, owner, &id,
				 udrvd_settings_perms_on(&s->settings[i], known ? &now : NULL), msg);
}

/* Request again the lines of @s that a restore rule covers and the policy
 * still grants their owner. */
static void restore_one(struct udrvd_held *h, const struct udrvd_state_req *s,
			udrvd_groups_fn *groups_of)
{
	struct udrvd_chip *chip = chip_of(h, s);
	struct udrvd_err error = { 0 };
	struct udrvd_linecfg cfg = { 0 };
	struct udrvd_caller owner;
	gid_t *groups;
	char msg[UDRVD_MSG_LEN];
	struct udrvd_req *req;

	if (!chip) {
		fprintf(stderr, "udrvd: not restored: %zu lines of %s (%s): no such chip now\n",
			s->n, s->chip, s->label);
		return;
	}
	owner_of(s->owner, groups_of, &groups, &owner);
	for (size_t i = 0; i < s->n; i++) {
		struct udrvd_gpio_line id;

		if (s->offsets[i] >= chip->nlines)
			continue;
		udrvd_chip_line_id(chip, s->offsets[i], &id);
		if (!udrvd_policy_restores(h->policy, &id))
			continue;
		if (still_granted(chip, s, i, &owner, msg)) {
			fprintf(stderr, "udrvd: not restored: line %u of %s for uid %u: %s\n",
				s->offsets[i], udrv_chip_name(chip->chip), (unsigned int)s->owner,
				msg);
			continue;
		}
		cfg.offsets[cfg.n] = s->offsets[i];
		cfg.settings[cfg.n++] = s->settings[i];
	}
	if (!cfg.n) {
		free(groups);
		return;
	}
	snprintf(cfg.consumer, sizeof(cfg.consumer), "%s", s->consumer);
	if (udrvd_req_new(chip, &cfg, &owner, &req, &error) < 0)
		fprintf(stderr, "udrvd: not restored: %zu lines of %s for uid %u: %s\n", cfg.n,
			udrv_chip_name(chip->chip), (unsigned int)s->owner,
			error.msg ? error.msg : "out of memory");
	else
		fprintf(stderr, "udrvd: restored %s: %zu lines of %s for uid %u\n", req->path,
			cfg.n, udrv_chip_name(chip->chip), (unsigned int)s->owner);
	udrvd_err_free(&error);
	free(groups);
}

int udrvd_state_restore(struct udrvd_held *h, udrvd_groups_fn *groups_of)
{
	struct udrvd_state st;
	char msg[UDRVD_STATE_MSG_LEN];
	size_t len;
	int err;

	if (!h->state_path)
		return 0;
	err = udrvd_state_load(h->state_path, &st, msg);
	if (err < 0) {
		/* never refuse to start over it: the lines stay with the kernel */
		fprintf(stderr, "udrvd: %s: nothing restored\n", msg);
		udrvd_state_sync(h, false);	/* what is held now: nothing */
		return 0;
	}
	/* what the file holds, so that a start that restores it all writes nothing */
	if (udrvd_state_format(&st, &h->state_text, &len) < 0)
		h->state_text = NULL;
	for (size_t i = 0; i < st.n; i++)
		restore_one(h, &st.reqs[i], groups_of);
	udrvd_state_free(&st);
	udrvd_state_sync(h, false);	/* what is held now */
	return 0;
}
