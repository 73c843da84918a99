// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the bus asks of what udrvd holds: chips that come and go, requests
 * made, released, reconfigured and driven, a new policy; after each the
 * state file is marked (restore.h: written once for a burst of changes).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "broker.h"

int udrvd_chips_open(struct udrvd_held *h)
{
	char **names = NULL;
	int n = udrv_chip_list(&names);

	if (n < 0)
		return n;
	h->chips = calloc((size_t)n + 1, sizeof(*h->chips));
	if (!h->chips) {
		udrv_strv_free(names);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		struct udrvd_chip *c = udrvd_chip_open(h, names[i], false);

		if (c)
			h->chips[h->nchips++] = c;
	}
	udrv_strv_free(names);
	return 0;
}

void udrvd_chip_came(struct udrvd_held *h, const char *name)
{
	struct udrvd_chip **chips, *c;

	if (udrvd_chip_slot(h, name))
		return;
	chips = realloc(h->chips, (h->nchips + 1) * sizeof(*chips));
	if (!chips) {
		fprintf(stderr, "udrvd: %s left out: out of memory\n", name);
		return;
	}
	h->chips = chips;
	c = udrvd_chip_open(h, name, true);
	if (!c)
		return;
	h->chips[h->nchips++] = c;
	fprintf(stderr, "udrvd: %s (%s) came: exported, %u lines\n", name,
		udrv_chip_label(c->chip), c->nlines);
}

void udrvd_chip_went(struct udrvd_held *h, const char *name)
{
	struct udrvd_chip **slot = udrvd_chip_slot(h, name);
	struct udrvd_chip *c;
	size_t dropped;

	if (!slot)
		return;
	c = *slot;
	dropped = udrvd_reqs_drop(c);
	*slot = h->chips[--h->nchips];
	fprintf(stderr, "udrvd: %s (%s) went away: %zu of udrvd's requests on it dropped\n",
		name, udrv_chip_label(c->chip), dropped);
	udrvd_chip_close(c, true);
	if (dropped)
		udrvd_state_dirty(h, 0);
}

int udrvd_request(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
		  const struct udrvd_caller *owner, struct udrvd_req **out,
		  struct udrvd_err *e)
{
	int err = udrvd_req_new(chip, cfg, owner, out, e);

	if (err >= 0)
		udrvd_state_dirty(chip->h, 0);	/* not while restoring */
	return err;
}

void udrvd_release(struct udrvd_req *r)
{
	struct udrvd_held *h = r->h;

	udrvd_req_release(r);
	udrvd_state_dirty(h, 0);
}

int udrvd_reconfigure(struct udrvd_req *r, const struct udrvd_linecfg *cfg,
		      struct udrvd_err *e)
{
	int err = udrvd_req_reconfigure(r, cfg, e);

	if (err >= 0)
		udrvd_state_dirty(r->h, 0);
	return err;
}

int udrvd_set_values(struct udrvd_req *r, uint64_t mask, uint64_t values,
		     struct udrvd_err *e)
{
	int err = udrvd_req_set_values(r, mask, values, e);

	if (err >= 0)
		udrvd_state_dirty(r->h, UDRVD_STATE_DELAY_US);
	return err;
}

void udrvd_policy_set(struct udrvd_held *h, struct udrvd_policy *policy)
{
	udrvd_policy_free(h->policy);
	h->policy = policy;
	/* what it no longer grants goes; the restore rules may cover other lines */
	udrvd_reqs_revoke(h);
	udrvd_state_dirty(h, 0);
}

void udrvd_held_free(struct udrvd_held *h)
{
	h->state_timer = udrvd_timer_free(h->state_timer);
	free(h->state_text);
	h->state_text = NULL;
	udrvd_reqs_free(h);
	for (size_t i = 0; i < h->nchips; i++)
		udrvd_chip_close(h->chips[i], false);
	free(h->chips);
	h->chips = NULL;
	h->nchips = 0;
	udrvd_policy_free(h->policy);
	h->policy = NULL;
}
