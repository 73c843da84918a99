// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's harness (fuzz_udrvd.c): the properties checked of what udrvd
 * sends, its answers and its signals (udrvd-error, udrvd-policy,
 * udrvd-owner, udrvd-edges). udrvd-answers is the bus end's (a call left
 * unanswered: fuzz_udrvd_bus.c), udrvd-serves and udrvd-fds the entry's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-bus.h>

#include "fuzz_udrvd.h"

/* Whether @policy grants @who (as the bus reported it) @want on line
 * @offset of chip @chip: 0, or the refusal in @msg. */
static int policy_gpio(const struct udrvd_policy *policy, const struct caller *who,
		       unsigned int chip, unsigned int offset, unsigned int want, char *msg)
{
	struct udrvd_caller c = {
		.uid = who->uid, .gid = who->groups[0], .groups = who->groups,
		.ngroups = who->ngroups,
	};
	char name[16];
	struct udrvd_gpio_line id = {
		.chip = name, .label = CHIPS[chip].label, .offset = offset,
		.name = offset < CHIPS[chip].nlines && CHIPS[chip].lines ?
			CHIPS[chip].lines[offset] : "",
	};

	snprintf(name, sizeof(name), "gpiochip%u", chip);
	return udrvd_policy_gpio(policy, &c, &id, want, msg);
}

/*
 * udrvd-edges: an EdgeEvent udrvd sends goes to one connection (a signal with
 * a destination, never to every client of the bus), and to a caller the
 * policy lets watch that line, as the bus reports the caller (where it
 * reports UnixGroupIDs).
 */
int check_edges(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct bus *b = data;
	const char *dest = sd_bus_message_get_destination(m), *path = sd_bus_message_get_path(m);
	const struct caller *who;
	unsigned int chip, offset;
	char msg[UDRVD_MSG_LEN];

	if (!sd_bus_message_is_signal(m, "io.gpiod1.Line", "EdgeEvent") || fuzz_skip("udrvd-edges"))
		return 0;
	if (getenv("UDRV_FUZZ_TRACE"))
		fprintf(stderr, "fuzz_udrvd: EdgeEvent on %s to %s\n", path ? path : "(none)",
			dest ? dest : "everyone");
	FUZZ_CHECK(dest && dest[0], "an EdgeEvent on %s to every client of the bus",
		   path ? path : "(no path)");
	who = bus_caller(b, dest);
	if (!who || who == &UDRVD_ITSELF || !b->groups)
		return 0;	/* a connection gone since, or groups from elsewhere */
	FUZZ_CHECK(path && sscanf(path, UDRVD_CHIPS_PATH "/gpiochip%u/line%u", &chip, &offset) == 2 &&
		   chip < NCHIPS && offset < CHIPS[chip].nlines, "an EdgeEvent on %s",
		   path ? path : "(no path)");
	FUZZ_CHECK(!policy_gpio(b->d.held.policy, who, chip, offset, UDRVD_WATCH, msg),
		   "an EdgeEvent on %s to %s (uid %u), whom the policy does not let watch it: %s",
		   path, dest, (unsigned int)who->uid, msg);
	return 0;
}

/* udrvd-error: an error has a D-Bus name and a message. */
void check_error(sd_bus_message *reply, const char *what)
{
	const sd_bus_error *e;

	if (!reply || !sd_bus_message_is_method_error(reply, NULL) || fuzz_skip("udrvd-error"))
		return;
	e = sd_bus_message_get_error(reply);
	FUZZ_CHECK(e && e->name && e->name[0] && e->message && e->message[0],
		   "%s: an error without a name or message (%s)", what,
		   e && e->name ? e->name : "no name");
}

static uid_t owner_of(const struct bus *b, const char *path, bool *known)
{
	for (size_t i = 0; i < b->nreqs; i++) {
		if (!strcmp(b->reqs[i].path, path)) {
			*known = true;
			return b->reqs[i].owner;
		}
	}
	*known = false;
	return 0;
}

/* udrvd-policy: the request @m asked for is one the policy grants @who. */
static void check_granted(const struct udrvd_policy *policy, const char *path,
			  sd_bus_message *m, const struct caller *who)
{
	sd_bus_error error = SD_BUS_ERROR_NULL;
	struct udrvd_linecfg cfg;
	unsigned int num;
	char msg[UDRVD_MSG_LEN] = "", chip[16];

	if (sscanf(path, UDRVD_CHIPS_PATH "/gpiochip%u", &num) != 1 || num >= NCHIPS ||
	    sd_bus_message_rewind(m, 1) < 0 || udrvd_linecfg_read(m, &cfg, &error) < 0) {
		FUZZ_CHECK(0, "RequestLines on %s granted, but it names no chip or no lines (%s)",
			   path, error.message ? error.message : "");
	}
	snprintf(chip, sizeof(chip), "gpiochip%u", num);
	for (size_t i = 0; i < cfg.n; i++)
		FUZZ_CHECK(cfg.offsets[i] < CHIPS[num].nlines &&
			   !policy_gpio(policy, who, num, cfg.offsets[i], cfg.perms[i], msg),
			   "uid %u was granted line %u of %s, which the policy does not grant it "
			   "(as the bus reported it): %s", (unsigned int)who->uid, cfg.offsets[i],
			   chip, msg);
	sd_bus_error_free(&error);
}

/* What a call's answer says, checked. */
void check_answer(struct bus *b, enum step step, const char *path, sd_bus_message *m,
		  sd_bus_message *reply, const struct caller *who)
{
	const char *req;
	uid_t owner;
	bool known;

	if (!reply || sd_bus_message_is_method_error(reply, NULL))
		return;
	if (step == REQUEST_LINES && who && sd_bus_message_read(reply, "o", &req) > 0) {
		/* without UnixGroupIDs udrvd has the groups from elsewhere (the
		 * user's, from NSS): not the harness's to know */
		if (b->groups && !fuzz_skip("udrvd-policy"))
			check_granted(b->d.held.policy, path, m, who);
		if (b->nreqs < MAX_REQS) {
			snprintf(b->reqs[b->nreqs].path, sizeof(b->reqs[0].path), "%s", req);
			b->reqs[b->nreqs++].owner = who->uid;
		}
	}
	if (step != GET_FD && step != SET_VALUES && step != RECONFIGURE)
		return;
	owner = owner_of(b, path, &known);
	if (known && !fuzz_skip("udrvd-owner"))
		FUZZ_CHECK(who && who->uid == owner, "%s.%s of %s (uid %u's) granted to %s%u",
			   STEPS[step].iface, STEPS[step].member, path, (unsigned int)owner,
			   who ? "uid " : "a caller the bus does not know, ",
			   who ? (unsigned int)who->uid : 0);
}
