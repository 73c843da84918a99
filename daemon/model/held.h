/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What udrvd holds, plain C: the GPIO chips and their lines (chips.h), the
 * line requests it holds for clients (requests.h), the policy they are
 * checked against, and the state file that keeps them (restore.h);
 * broker.h changes them. The model tells whoever serves it (bus/serve.c)
 * what came, went or changed through struct udrvd_events, and never calls
 * the bus itself.
 */
#ifndef UDRVD_HELD_H
#define UDRVD_HELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loop.h"
#include "policy.h"

/* the objects' names (their D-Bus object paths) */
#define UDRVD_CHIPS_PATH	"/io/gpiod1/chips"
#define UDRVD_REQUESTS_PATH	"/io/gpiod1/requests"
#define UDRVD_PATH_LEN		96
#define UDRVD_CONSUMER		"udrvd"
/* The requests udrvd holds for one uid (udrvd(8), LIMITS): over it a
 * request is refused (-EBUSY: LimitsExceeded) naming the quota. */
#define UDRVD_USER_REQUESTS	256

struct udrvd_chip;
struct udrvd_line;
struct udrvd_req;

/*
 * What the model tells its server, each with held->data. chip_added and
 * req_added: the object is there (the server exports it): 0, or a negative
 * errno and the model drops it again. chip_removed and req_removed: it goes
 * (the server unexports it); @announce: the chip or request came or went
 * while udrvd serves (InterfacesAdded or InterfacesRemoved), not at its
 * start or stop. req_changed: its settings changed (edge detection with
 * them); line_changed: a line's state did (PropertiesChanged).
 */
struct udrvd_events {
	int (*chip_added)(void *data, struct udrvd_chip *c, bool announce);
	void (*chip_removed)(void *data, struct udrvd_chip *c, bool announce);
	int (*req_added)(void *data, struct udrvd_req *r);
	void (*req_removed)(void *data, struct udrvd_req *r, bool announce);
	void (*req_changed)(void *data, struct udrvd_req *r);
	void (*line_changed)(void *data, struct udrvd_line *l);
};

struct udrvd_held {
	struct udrvd_policy *policy;
	struct udrvd_loop *loop;
	const struct udrvd_events *events;
	void *data;			/* the events' */
	struct udrvd_chip **chips;
	size_t nchips;
	struct udrvd_req *reqs;		/* list of held requests */
	unsigned int next_req;
	const char *state_path;		/* NULL: no state file */
	bool restoring;			/* no state writes until restored */
	struct udrvd_timer *state_timer; /* a state write that is due */
	char *state_text;		/* what the state file holds (as written) */
	uint64_t state_written_us;	/* when udrvd wrote it last (CLOCK_MONOTONIC) */
	unsigned long state_writes;	/* since start, said at stop */
};

#endif /* UDRVD_HELD_H */
