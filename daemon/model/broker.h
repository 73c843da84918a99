/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the bus asks of what udrvd holds (broker.c), plain C: each change
 * made through requests.h and chips.h, then the state file marked
 * (restore.h). A new method of the bus calls one of these (or a check of
 * requests.h) and answers.
 */
#ifndef UDRVD_BROKER_H
#define UDRVD_BROKER_H

#include <stddef.h>
#include <stdint.h>

#include "held.h"
#include "requests.h"
#include "restore.h"

/* Open every GPIO chip there is (and its lines), the server told of
 * each; 0 or a negative errno. */
int udrvd_chips_open(struct udrvd_held *h);
/* A chip that came (its node @name, "gpiochipN"): opened unless it is
 * already; one that went: closed, udrvd's requests on it dropped. */
void udrvd_chip_came(struct udrvd_held *h, const char *name);
void udrvd_chip_went(struct udrvd_held *h, const char *name);

/* requests.h's, the state marked after each. */
int udrvd_request(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
		  const struct udrvd_caller *owner, struct udrvd_req **out,
		  struct udrvd_err *e);
void udrvd_release(struct udrvd_req *r);
int udrvd_reconfigure(struct udrvd_req *r, const struct udrvd_linecfg *cfg,
		      struct udrvd_err *e);
int udrvd_set_values(struct udrvd_req *r, uint64_t mask, uint64_t values,
		     struct udrvd_err *e);

/* @policy in force from now on (the old one freed): what it no longer
 * grants released, the state marked (the restore rules may cover other
 * lines). */
void udrvd_policy_set(struct udrvd_held *h, struct udrvd_policy *policy);

/* Everything @h holds released (the server told of no end: udrvd stops),
 * the policy freed. */
void udrvd_held_free(struct udrvd_held *h);

#endif /* UDRVD_BROKER_H */
