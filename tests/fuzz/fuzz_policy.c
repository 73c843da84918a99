// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's policy file (daemon/model/policy.c, policy_check.c, udrvd.conf(5)).
 *
 * The input is the file's bytes, NULs and all. User and group names are
 * resolved by a model: one to eight lower-case letters name the id that
 * their length gives (so that names meet the callers below), others are
 * unknown.
 *
 * Properties:
 *  - policy-result: 0 with no message, or -EINVAL with "fuzz.conf:N: ..."
 *    where N is a line of the input; the same input gives the same result
 *    and the same decisions twice;
 *  - policy-decisions: for each of a grid of callers (uids, primary and
 *    supplementary groups) and objects (lines by chip name, label, offset
 *    and name; UIO and VFIO devices), a set of permissions is granted
 *    exactly when each of its members is (rules add up, nothing else);
 *    a refusal says "refuses" and names the file; a rule names the caller
 *    and the line (udrvd_policy_gpio_names(), who is shown its state)
 *    exactly when some permission is granted there;
 *  - policy-reparse: the accepted rules written back one a line (their
 *    words as the parser kept them) parse again to the same decisions.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "policy_priv.h"

#define PATH		"fuzz.conf"
#define NCALLERS	5
#define NLINES		6
#define NPERMS		6

static int model_id(const char *name, unsigned int *id)
{
	size_t n = strlen(name);

	if (!n || n > 8 || strspn(name, "abcdefghijklmnopqrstuvwxyz") != n)
		return -ENOENT;
	*id = (unsigned int)n % 4;
	return 0;
}

static int fuzz_uid(const char *name, uid_t *uid)
{
	unsigned int id;
	int err = model_id(name, &id);

	if (!err)
		*uid = id;
	return err;
}

static int fuzz_gid(const char *name, gid_t *gid)
{
	unsigned int id;
	int err = model_id(name, &id);

	if (!err)
		*gid = id;
	return err;
}

static const struct udrvd_names names = { fuzz_uid, fuzz_gid };

static const gid_t groups[] = { 2, 3 };
static const struct udrvd_caller callers[NCALLERS] = {
	{ 0, 0, NULL, 0 }, { 1, 1, NULL, 0 }, { 2, 7, NULL, 0 },
	{ 3, 1, groups, 2 }, { 7, 7, NULL, 0 },
};
static const struct udrvd_gpio_line lines[NLINES] = {
	{ "gpiochip0", "a", 0, "n0" }, { "gpiochip0", "a", 1, "" },
	{ "gpiochip1", "b", 2, "n2" }, { "gpiochip1", "b", 65534, "n0" },
	{ "gpiochip2", "gpio-wire", 3, "GPIO17" }, { "gpiochip0", "b", 5, "a" },
};
static const char *const uios[] = { "a", "uio-ticker", "u0" };
static const char *const pcis[] = { "0000:00:04.0", "0000:00:01.0" };
static const struct udrvd_bus_dev spis[] = {
	{ "spidev0.1", 0, 1, "a", "fe204000.spi", 1 },
	{ "spidev1.0", 1, 0, "a", "", 2 },
	{ "spidev2.3", 2, 3, "mcp3008", "0000:00:1e.2", 1 },
};
static const struct udrvd_bus_dev adapters[] = {
	{ "i2c-1", 1, 0, "SMBus I801 adapter", "0000:00:1f.4", 1 },
	{ "i2c-7", 7, 0, "a b", "", 1 },
	{ "i2c-2", 2, 0, "a_b", "fe804000.i2c", 2 },
};
static const struct {
	unsigned int addr;
	bool ten;
} addrs[] = { { 0x00, false }, { 0x03, false }, { 0x50, false }, { 0x77, false },
	      { 0x7f, false }, { 0x50, true }, { 0x3ff, true } };
#define N(a)	(sizeof(a) / sizeof((a)[0]))
static const unsigned int perms[NPERMS] = {
	UDRVD_READ, UDRVD_DRIVE, UDRVD_WATCH, UDRVD_CONFIGURE, UDRVD_OPEN, UDRVD_ADMIN,
};

/* Every decision of @p on the grid, as bits into @out. */
static void decide(const struct udrvd_policy *p, unsigned char *out, size_t *n)
{
	char msg[UDRVD_MSG_LEN];

	*n = 0;
	for (size_t c = 0; c < NCALLERS; c++) {
		for (size_t l = 0; l < NLINES; l++) {
			unsigned int granted = 0;

			for (size_t k = 0; k < NPERMS; k++)
				if (!udrvd_policy_gpio(p, &callers[c], &lines[l], perms[k], msg))
					granted |= perms[k];
			for (unsigned int want = 1; want < 64; want++) {
				int ret = udrvd_policy_gpio(p, &callers[c], &lines[l], want, msg);

				if (fuzz_skip("policy-decisions"))
					continue;
				FUZZ_CHECK((ret == 0) == ((granted & want) == want),
					   "want %#x, granted one by one %#x, together %d", want,
					   granted, ret);
				FUZZ_CHECK(ret == 0 || (ret == -EACCES && strstr(msg, "refuses") &&
							strstr(msg, PATH)),
					   "refusal %d '%s'", ret, msg);
			}
			if (!fuzz_skip("policy-decisions"))
				FUZZ_CHECK(udrvd_policy_gpio_names(p, &callers[c], &lines[l]) ==
					   (granted != 0), "named %d, granted %#x",
					   udrvd_policy_gpio_names(p, &callers[c], &lines[l]), granted);
			out[(*n)++] = (unsigned char)granted;
			out[(*n)++] = udrvd_policy_restores(p, &lines[l]);
		}
		for (size_t u = 0; u < sizeof(uios) / sizeof(uios[0]); u++)
			out[(*n)++] = !udrvd_policy_uio(p, &callers[c], uios[u], msg);
		for (size_t v = 0; v < sizeof(pcis) / sizeof(pcis[0]); v++)
			out[(*n)++] = !udrvd_policy_vfio(p, &callers[c], pcis[v], msg);
		for (size_t d = 0; d < N(spis); d++)
			out[(*n)++] = !udrvd_policy_spi(p, &callers[c], &spis[d], msg);
		for (size_t a = 0; a < N(adapters); a++) {
			out[(*n)++] = !udrvd_policy_i2c_bus(p, &callers[c], &adapters[a], msg);
			for (size_t k = 0; k < N(addrs); k++) {
				int ret = udrvd_policy_i2c(p, &callers[c], &adapters[a], addrs[k].addr,
							   addrs[k].ten, msg);

				if (!fuzz_skip("policy-decisions"))
					FUZZ_CHECK(ret == 0 || (ret == -EACCES && strstr(msg, "refuses") &&
								(strstr(msg, PATH) || strstr(msg, "rules"))),
						   "i2c refusal %d '%s'", ret, msg);
				out[(*n)++] = !ret;
			}
		}
	}
}

#define GRID	(NCALLERS * (NLINES * 2 + 5 + N(spis) + N(adapters) * (1 + N(addrs))))

static void check_result(const uint8_t *data, size_t size, int ret, const char *msg)
{
	size_t nlines = 1;
	unsigned int at = 0;
	char colon = 0;

	for (size_t i = 0; i < size; i++)
		nlines += data[i] == '\n';
	if (!ret) {
		FUZZ_CHECK(!msg[0], "accepted with message '%s'", msg);
		return;
	}
	FUZZ_CHECK(ret == -EINVAL, "refused with %d: '%s'", ret, msg);
	FUZZ_CHECK(sscanf(msg, PATH ":%u%c", &at, &colon) == 2 && colon == ':' &&
		   at >= 1 && at <= nlines, "message '%s' names no line of %zu", msg, nlines);
}

static void check_reparse(const struct udrvd_policy *p, const unsigned char *want)
{
	size_t len = p->n * (RULE_TEXT + 1) + 1, used = 0, n;
	char *text = malloc(len), msg[UDRVD_MSG_LEN];
	unsigned char got[GRID];
	struct udrvd_policy *again = NULL;

	FUZZ_CHECK(text, "out of memory");
	for (size_t i = 0; i < p->n; i++)
		used += (size_t)snprintf(text + used, len - used, "%s\n", p->rules[i].text);
	FUZZ_CHECK(!udrvd_policy_parse(text, used, PATH, &names, &again, msg),
		   "the rules written back are refused: %s\n%s", msg, text);
	FUZZ_CHECK(again->n == p->n, "%zu rules written back, %zu parsed", p->n, again->n);
	decide(again, got, &n);
	FUZZ_CHECK(!memcmp(got, want, n), "the rules written back decide otherwise:\n%s", text);
	udrvd_policy_free(again);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct udrvd_policy *p = NULL, *q = NULL;
	char msg[UDRVD_MSG_LEN], msg2[UDRVD_MSG_LEN];
	unsigned char d1[GRID], d2[GRID];
	size_t n1, n2;
	int ret = udrvd_policy_parse((const char *)data, size, PATH, &names, &p, msg);
	int ret2 = udrvd_policy_parse((const char *)data, size, PATH, &names, &q, msg2);

	if (!fuzz_skip("policy-result")) {
		check_result(data, size, ret, msg);
		FUZZ_CHECK(ret == ret2 && !strcmp(msg, msg2), "%d '%s' then %d '%s'",
			   ret, msg, ret2, msg2);
	}
	if (ret || ret2) {
		udrvd_policy_free(p);
		udrvd_policy_free(q);
		return 0;
	}
	decide(p, d1, &n1);
	decide(q, d2, &n2);
	FUZZ_CHECK(n1 == GRID && n2 == GRID && !memcmp(d1, d2, n1), "decisions differ");
	if (!fuzz_skip("policy-reparse"))
		check_reparse(p, d1);
	udrvd_policy_free(p);
	udrvd_policy_free(q);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}
