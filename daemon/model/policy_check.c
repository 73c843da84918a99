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

/* ---- SPI devices, I2C buses and addresses ---- */

/* @a (a rule's name:NAME) is the adapter name @name, whose spaces a rule
 * writes as '_'. */
static bool adapter_name_is(const char *a, const char *name)
{
	for (; *a && *name; a++, name++)
		if (*a != (*name == ' ' ? '_' : *name))
			return false;
	return !*a && !*name;
}

struct bus_query {
	const struct udrvd_caller *caller;
	enum obj_kind obj;
	const struct udrvd_bus_dev *dev;
};

static bool bus_rule_for_caller(const struct rule *r, const void *arg)
{
	const struct bus_query *q = arg;

	return !r->restore && r->obj == q->obj && who_matches(r, q->caller);
}

static bool name_is(const struct rule *r, const struct bus_query *q)
{
	if (r->obj == OBJ_SPI)
		return *q->dev->name && !strcmp(r->name, q->dev->name);
	return *q->dev->name && adapter_name_is(r->name, q->dev->name);
}

/* Does rule @r name the device or bus of @q? A name rule only while one
 * device has the name. */
static bool bus_matches(const struct rule *r, const struct bus_query *q)
{
	bool spi = r->obj == OBJ_SPI;

	switch (r->bus_kind) {
	case BUS_NUMBER:
		return r->num == q->dev->bus && (!spi || r->cs == q->dev->cs);
	case BUS_DEVICE:
		return *q->dev->device && !strcmp(r->name, q->dev->device) &&
		       (!spi || r->cs == q->dev->cs);
	case BUS_NAME:
		return name_is(r, q) && q->dev->same_name == 1;
	}
	return false;
}

/* A caller's name rule that names the device, whose name others share. */
static bool bus_shared_name_rule(const struct rule *r, const void *arg)
{
	const struct bus_query *q = arg;

	return bus_rule_for_caller(r, q) && r->bus_kind == BUS_NAME && name_is(r, q) &&
	       q->dev->same_name > 1;
}

/* A caller's rule (of @q's kind) for @q's bus: where an address refusal
 * looks first. */
static bool bus_rule_on_bus(const struct rule *r, const void *arg)
{
	return bus_rule_for_caller(r, arg) && bus_matches(r, arg);
}

/* "i2c-1 (NAME at DEVICE)" or "spidev0.1 (mcp3008 at fe204000.spi)" */
static int bus_str(const struct udrvd_bus_dev *dev, char *buf, size_t len)
{
	return snprintf(buf, len, "%s (%s%s%s)", dev->node, *dev->name ? dev->name : "no name",
			*dev->device ? " at " : ", no controller device", dev->device);
}

/* The end of a refusal: a shared name, or the caller's rules. */
static int name_rules_of(const struct udrvd_policy *policy, const struct bus_query *q,
			 char *msg, int n)
{
	if (n <= 0 || n >= UDRVD_MSG_LEN)
		return -EACCES;
	for (size_t i = 0; i < policy->n; i++) {
		if (!bus_shared_name_rule(&policy->rules[i], q))
			continue;
		name_rules(policy, msg, (size_t)n, bus_shared_name_rule, q, "; ", "");
		n = (int)strlen(msg);
		snprintf(msg + n, UDRVD_MSG_LEN - (size_t)n,
			 " names %s that %u have now, which gives none of them: name it by its controller (device:%s%s)",
			 q->obj == OBJ_SPI ? "a device" : "an adapter", q->dev->same_name,
			 *q->dev->device ? q->dev->device : "DEVICE", q->obj == OBJ_SPI ? "/CS" : "");
		return -EACCES;
	}
	name_rules(policy, msg, (size_t)n, bus_rule_for_caller, q,
		   "; the caller's rules for such devices: ",
		   "; no rule in %s names the caller for such devices (udrvd.conf(5))");
	return -EACCES;
}

static int check_bus_open(const struct udrvd_policy *policy, const struct bus_query *q,
			  char msg[UDRVD_MSG_LEN])
{
	char who[96], what[160];

	for (size_t i = 0; i < policy->n; i++)
		if (bus_rule_on_bus(&policy->rules[i], q) &&
		    (policy->rules[i].perms & UDRVD_OPEN))
			return 0;
	caller_str(q->caller, who, sizeof(who));
	bus_str(q->dev, what, sizeof(what));
	return name_rules_of(policy, q, msg,
			     snprintf(msg, UDRVD_MSG_LEN, "the policy refuses %s 'open' on %s %s",
				      who, q->obj == OBJ_SPI ? "spi device" : "the whole i2c bus",
				      what));
}

int udrvd_policy_spi(const struct udrvd_policy *policy, const struct udrvd_caller *caller,
		     const struct udrvd_bus_dev *dev, char msg[UDRVD_MSG_LEN])
{
	struct bus_query q = { caller, OBJ_SPI, dev };

	return check_bus_open(policy, &q, msg);
}

int udrvd_policy_i2c_bus(const struct udrvd_policy *policy, const struct udrvd_caller *caller,
			 const struct udrvd_bus_dev *adapter, char msg[UDRVD_MSG_LEN])
{
	struct bus_query q = { caller, OBJ_I2C_BUS, adapter };

	return check_bus_open(policy, &q, msg);
}

static bool reserved(unsigned int addr, bool ten)
{
	return !ten && (addr < 0x03 || addr > 0x77);
}

int udrvd_policy_i2c(const struct udrvd_policy *policy, const struct udrvd_caller *caller,
		     const struct udrvd_bus_dev *adapter, unsigned int addr, bool ten,
		     char msg[UDRVD_MSG_LEN])
{
	struct bus_query q = { caller, OBJ_I2C, adapter };
	char who[96], what[160];
	int n;

	for (size_t i = 0; i < policy->n; i++) {
		const struct rule *r = &policy->rules[i];

		if (bus_rule_on_bus(r, &q) && r->ten == ten && addr >= r->lo && addr <= r->hi)
			return 0;
	}
	caller_str(caller, who, sizeof(who));
	bus_str(adapter, what, sizeof(what));
	n = snprintf(msg, UDRVD_MSG_LEN, "the policy refuses %s 'transfer' at %saddress 0x%02x of %s%s",
		     who, ten ? "10-bit " : "", addr, what,
		     ten ? " (a 10-bit address is granted only by a rule that names it: ten:0xNNN)" :
		     reserved(addr, ten) ? " (a reserved address, 0x00-0x02 or 0x78-0x7f: granted only by a rule whose range holds it)" : "");
	if (n <= 0 || n >= UDRVD_MSG_LEN)
		return -EACCES;
	for (size_t i = 0; i < policy->n; i++) {
		if (!bus_rule_on_bus(&policy->rules[i], &q))
			continue;
		name_rules(policy, msg, (size_t)n, bus_rule_on_bus, &q,
			   "; the caller's rules on this bus: ", "");
		return -EACCES;
	}
	return name_rules_of(policy, &q, msg, n);
}
