// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv i2c transfer's messages (tools/i2c_msgs.c): the command line after
 * BUS, DESC [BYTE...] ..., DESC = {r|w}LENGTH[@ADDRESS].
 *
 * Input parts (fuzz.h): 0 its first byte odd: --force; 1.. the arguments.
 *
 * Properties:
 *  - an accepted line has 1..UDRV_I2C_MSGS_MAX messages, each of at most
 *    UDRV_I2C_MSG_LEN_MAX bytes to an address in 0x03..0x77 (0x00..0x7f
 *    forced), a buffer for each, and a write's bytes where its DESC says:
 *    the messages account for every argument (a DESC each, and a write's
 *    LENGTH bytes after it), each message as its DESC reads by
 *    udrv_parse_u64() (direction, length, the address or the one before);
 *  - printed back as "r8@0x50" / "w2@0x50 0x10 0x20" it parses to the
 *    same messages (nothing lost, nothing wrapped);
 *  - a refused line leaves a reason and no message (nothing allocated:
 *    ASan's leak check).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/parse.h>

#include "cmd_i2c.h"
#include "fuzz.h"

#define ARGS_MAX	(FUZZ_MAX_PARTS - 1)

static bool same(const struct i2c_msgs *a, const struct i2c_msgs *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct udrv_i2c_msg *x = &a->msg[i], *y = &b->msg[i];

		if (x->addr != y->addr || x->flags != y->flags || x->len != y->len)
			return false;
		if (!(x->flags & UDRV_I2C_M_RD) && memcmp(x->buf, y->buf, x->len))
			return false;
	}
	return true;
}

/* Message @x as its DESC @s says, read here by the library's parser. */
static void check_desc(const struct udrv_i2c_msg *x, const char *s, uint16_t addr_before)
{
	char num[64];
	const char *at = strchr(s, '@');
	size_t n = at ? (size_t)(at - s) : strlen(s);
	uint64_t v = 0;

	FUZZ_CHECK((s[0] == 'r') == !!(x->flags & UDRV_I2C_M_RD) && n >= 2 && n < sizeof(num),
		   "'%s' taken as a %s", s, x->flags & UDRV_I2C_M_RD ? "read" : "write");
	memcpy(num, s + 1, n - 1);
	num[n - 1] = '\0';
	FUZZ_CHECK(!udrv_parse_u64(num, UINT16_MAX, &v) && v == x->len,
		   "'%s' taken as %u bytes", s, x->len);
	FUZZ_CHECK(at ? !udrv_parse_u64(at + 1, 0x7f, &v) && v == x->addr : x->addr == addr_before,
		   "'%s' taken as address 0x%x", s, x->addr);
}

static void check_accepted(const struct i2c_msgs *m, bool force, int argc,
			   char *const *argv)
{
	long args = 0;

	FUZZ_CHECK(m->n >= 1 && m->n <= UDRV_I2C_MSGS_MAX, "%zu messages", m->n);
	for (size_t i = 0; i < m->n; i++) {
		const struct udrv_i2c_msg *x = &m->msg[i];

		FUZZ_CHECK(x->buf && x->len <= UDRV_I2C_MSG_LEN_MAX, "message %zu: %u bytes",
			   i, x->len);
		FUZZ_CHECK((force || (x->addr >= 0x03 && x->addr <= 0x77)) && x->addr <= 0x7f,
			   "message %zu: address 0x%x (force %d)", i, x->addr, force);
		FUZZ_CHECK(!(x->flags & ~UDRV_I2C_M_RD), "message %zu: flags 0x%x", i, x->flags);
		FUZZ_CHECK(args < argc, "message %zu: past the arguments", i);
		check_desc(x, argv[args], i ? m->msg[i - 1].addr : 0xffff);
		args += 1 + (x->flags & UDRV_I2C_M_RD ? 0 : x->len);
	}
	FUZZ_CHECK(args == argc, "%d arguments taken as %ld", argc, args);
}

/* @m printed back as arguments (malloc'd strings in @argv): how many. */
static int print_back(const struct i2c_msgs *m, char **argv, size_t room)
{
	size_t n = 0;

	for (size_t i = 0; i < m->n; i++) {
		const struct udrv_i2c_msg *x = &m->msg[i];
		bool rd = x->flags & UDRV_I2C_M_RD;

		FUZZ_CHECK(n < room, "the arguments printed back do not fit");
		argv[n] = malloc(32);
		snprintf(argv[n++], 32, "%c%u@0x%02x", rd ? 'r' : 'w', x->len, x->addr);
		for (unsigned int b = 0; !rd && b < x->len; b++) {
			FUZZ_CHECK(n < room, "the arguments printed back do not fit");
			argv[n] = malloc(8);
			snprintf(argv[n++], 8, "0x%02x", x->buf[b]);
		}
	}
	return (int)n;
}

static void round_trip(const struct i2c_msgs *m, bool force, int argc)
{
	size_t room = (size_t)argc + m->n;	/* each DESC gains at most an @ADDRESS */
	char **argv = calloc(room, sizeof(*argv));
	struct i2c_msgs again;
	char why[256];
	int n = print_back(m, argv, room);

	FUZZ_CHECK(i2c_msgs_parse(n, argv, force, &again, why, sizeof(why)) == 0,
		   "printed back, refused: %s", why);
	FUZZ_CHECK(same(m, &again), "printed back, parsed differently");
	i2c_msgs_free(&again);
	for (int i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_parts parts;
	char *argv[ARGS_MAX];
	struct i2c_msgs m;
	char why[256] = "";
	bool force;
	int argc, err;

	fuzz_split(data, size, &parts);
	force = parts.n && parts.len[0] && (parts.p[0][0] & 1);
	argc = parts.n > 1 ? (int)parts.n - 1 : 0;
	for (int i = 0; i < argc; i++)
		argv[i] = fuzz_str(&parts, (size_t)i + 1);
	err = i2c_msgs_parse(argc, argv, force, &m, why, sizeof(why));
	if (err) {
		FUZZ_CHECK(why[0] && m.n == 0, "refused (%d) without a reason or with messages", err);
	} else {
		check_accepted(&m, force, argc, argv);
		round_trip(&m, force, argc);
		i2c_msgs_free(&m);
	}
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	return 0;
}
