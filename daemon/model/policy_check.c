// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's policy checks: the permissions that the rules matching a caller
 * and an object grant together, and a refusal that names those rules.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "policy_priv.h"

#define NAMED_RULES	3	/* rules a refusal quotes */

static bool who_matches(const struct rule *r, const struct udrvd_caller *c)
{
	if (r->who == WHO_UID)
		return r->id == (unsigned int)c->uid;
	if (r->who != WHO_GID)
		return false;
	if (r->id == (unsigned int)c->gid)
		return true;
	for (size_t i = 0; i < c->ngroups; i++)
		if (r->id == (unsigned int)c->groups[i])
			return true;
	return false;
}

static bool chip_matches(const struct rule *r, const struct udrvd_gpio_line *l)
{
	switch (r->chip_kind) {
	case CHIP_ANY:
		return true;
	case CHIP_NAME:
		return l->chip && !strcmp(r->chip, l->chip);
	case CHIP_LABEL:
		return l->label && !strcmp(r->chip, l->label);
	}
	return false;
}

static bool line_matches(const struct rule *r, const struct udrvd_gpio_line *l)
{
	switch (r->line_kind) {
	case LINE_ANY:
		return true;
	case LINE_RANGE:
		return l->offset >= r->lo && l->offset <= r->hi;
	case LINE_NAME:
		return l->name && *l->name && !strcmp(r->name, l->name);
	}
	return false;
}

static void caller_str(const struct udrvd_caller *c, char *buf, size_t len)
{
	snprintf(buf, len, "uid %u (gid %u%s)", (unsigned int)c->uid,
		 (unsigned int)c->gid, c->ngroups ? " and its groups" : "");
}

/* Append "; PATH:N (allow ...)" for up to NAMED_RULES rules of @p that
 * @pick selects, or @none (a format taking the policy's path) when there
 * is none. */
static void name_rules(const struct udrvd_policy *p, char *msg, size_t used,
		       bool (*pick)(const struct rule *, const void *),
		       const void *arg, const char *some, const char *none)
{
	size_t named = 0;

	for (size_t i = 0; i < p->n && used < UDRVD_MSG_LEN; i++) {
		const struct rule *r = &p->rules[i];

		if (!pick(r, arg))
			continue;
		if (named == NAMED_RULES) {
			snprintf(msg + used, UDRVD_MSG_LEN - used, ", ...");
			return;
		}
		int n = snprintf(msg + used, UDRVD_MSG_LEN - used, "%s%s:%u (%s)",
				 named ? ", " : some, p->path, r->lineno, r->text);
		if (n < 0)
			return;
		used += (size_t)n;
		named++;
	}
	if (!named && used < UDRVD_MSG_LEN)
		snprintf(msg + used, UDRVD_MSG_LEN - used, none, p->path);
}

struct gpio_query {
	const struct udrvd_caller *caller;
	const struct udrvd_gpio_line *line;
};

static bool gpio_rule_for_caller_on_chip(const struct rule *r, const void *arg)
{
	const struct gpio_query *q = arg;

	return !r->restore && r->obj == OBJ_GPIO && who_matches(r, q->caller) &&
	       chip_matches(r, q->line);
}

int udrvd_policy_gpio(const struct udrvd_policy *policy,
		      const struct udrvd_caller *caller,
		      const struct udrvd_gpio_line *line, unsigned int want,
		      char msg[UDRVD_MSG_LEN])
{
	struct gpio_query q = { caller, line };
	unsigned int granted = 0;
	char who[96], wanted[64], lacking[64];
	int n;

	for (size_t i = 0; i < policy->n; i++) {
		const struct rule *r = &policy->rules[i];

		if (gpio_rule_for_caller_on_chip(r, &q) && line_matches(r, line))
			granted |= r->perms;
	}
	if ((granted & want) == want)
		return 0;
	caller_str(caller, who, sizeof(who));
	udrvd_perm_str(want, wanted, sizeof(wanted));
	udrvd_perm_str(want & ~granted, lacking, sizeof(lacking));
	n = snprintf(msg, UDRVD_MSG_LEN,
		     "the policy refuses %s '%s' on line %u%s%s%s of %s (%s): no rule grants %s",
		     who, wanted, line->offset, line->name && *line->name ? " (" : "",
		     line->name ? line->name : "", line->name && *line->name ? ")" : "",
		     line->chip ? line->chip : "?", line->label ? line->label : "?", lacking);
	if (n > 0 && n < UDRVD_MSG_LEN)
		name_rules(policy, msg, (size_t)n, gpio_rule_for_caller_on_chip, &q,
			   "; the caller's rules on this chip: ",
			   "; no rule in %s names the caller on this chip (udrvd.conf(5))");
	return -EACCES;
}

struct dev_query {
	const struct udrvd_caller *caller;
	enum obj_kind obj;
	const char *name;
	const struct udrvd_uio_dev *uio;	/* OBJ_UIO */
};

static bool dev_rule_for_caller(const struct rule *r, const void *arg)
{
	const struct dev_query *q = arg;

	return !r->restore && r->obj == q->obj && who_matches(r, q->caller);
}

/* A rule `uio NAME` that names the device, which shares the name. */
static bool shared_name_rule(const struct rule *r, const void *arg)
{
	const struct dev_query *q = arg;

	return dev_rule_for_caller(r, q) && q->uio && !r->by_device &&
	       !strcmp(r->name, q->uio->name) && q->uio->same_name > 1;
}

static bool dev_rule_grants(const struct rule *r, const struct dev_query *q)
{
	if (!dev_rule_for_caller(r, q))
		return false;
	if (!q->uio)
		return !strcmp(r->name, q->name);
	if (r->by_device)
		return *q->uio->device && !strcmp(r->name, q->uio->device);
	return !strcmp(r->name, q->uio->name) && q->uio->same_name == 1;
}

static int check_device(const struct udrvd_policy *policy,
			const struct dev_query *q, char msg[UDRVD_MSG_LEN])
{
	const struct udrvd_uio_dev *u = q->uio;
	char who[96];
	int n;

	for (size_t i = 0; i < policy->n; i++)
		if (dev_rule_grants(&policy->rules[i], q))
			return 0;
	caller_str(q->caller, who, sizeof(who));
	if (u)
		n = snprintf(msg, UDRVD_MSG_LEN, "the policy refuses %s 'open' on uio device %s (%s%s%s)",
			     who, u->node, u->name, *u->device ? " at " : ", no parent device",
			     u->device);
	else
		n = snprintf(msg, UDRVD_MSG_LEN, "the policy refuses %s 'open' on %s device %s",
			     who, q->obj == OBJ_UIO ? "uio" : "vfio", q->name);
	if (n <= 0 || n >= UDRVD_MSG_LEN)
		return -EACCES;
	for (size_t i = 0; u && i < policy->n; i++) {
		if (!shared_name_rule(&policy->rules[i], q))
			continue;
		name_rules(policy, msg, (size_t)n, shared_name_rule, q, "; ", "");
		n = (int)strlen(msg);
		snprintf(msg + n, UDRVD_MSG_LEN - (size_t)n,
			 " names a driver that %u devices have now, which gives none of them: name the device (allow ... open uio device:%s)",
			 u->same_name, *u->device ? u->device : "DEVICE");
		return -EACCES;
	}
	name_rules(policy, msg, (size_t)n, dev_rule_for_caller, q,
		   "; the caller's rules for such devices: ",
		   "; no rule in %s names the caller for such devices (udrvd.conf(5))");
	return -EACCES;
}

int udrvd_policy_uio_dev(const struct udrvd_policy *policy,
			 const struct udrvd_caller *caller,
			 const struct udrvd_uio_dev *dev, char msg[UDRVD_MSG_LEN])
{
	struct dev_query q = { caller, OBJ_UIO, dev->name, dev };

	return check_device(policy, &q, msg);
}

int udrvd_policy_uio(const struct udrvd_policy *policy,
		     const struct udrvd_caller *caller, const char *name,
		     char msg[UDRVD_MSG_LEN])
{
	struct udrvd_uio_dev dev = { name, name, "", 1 };

	return udrvd_policy_uio_dev(policy, caller, &dev, msg);
}

int udrvd_policy_vfio(const struct udrvd_policy *policy,
		      const struct udrvd_caller *caller, const char *bdf,
		      char msg[UDRVD_MSG_LEN])
{
	struct dev_query q = { caller, OBJ_VFIO, bdf, NULL };

	return check_device(policy, &q, msg);
}

bool udrvd_policy_gpio_names(const struct udrvd_policy *policy,
			     const struct udrvd_caller *caller,
			     const struct udrvd_gpio_line *line)
{
	struct gpio_query q = { caller, line };

	for (size_t i = 0; i < policy->n; i++) {
		const struct rule *r = &policy->rules[i];

		if (gpio_rule_for_caller_on_chip(r, &q) && line_matches(r, line))
			return true;
	}
	return false;
}

bool udrvd_policy_restores(const struct udrvd_policy *policy,
			   const struct udrvd_gpio_line *line)
{
	for (size_t i = 0; i < policy->n; i++) {
		const struct rule *r = &policy->rules[i];

		if (r->restore && chip_matches(r, line) && line_matches(r, line))
			return true;
	}
	return false;
}

void udrvd_caller_set(struct udrvd_caller *c, uid_t uid, const gid_t *groups, size_t n)
{
	c->uid = uid;
	c->gid = n ? groups[0] : (gid_t)-1;
	c->groups = n ? groups + 1 : NULL;
	c->ngroups = n ? n - 1 : 0;
}
