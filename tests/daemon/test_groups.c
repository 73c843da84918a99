// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of udrvd's reader of a caller's groups (daemon/groups.c). */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "groups.h"
#include "harness.h"

static gid_t egid, groups[4];
static size_t n;

static int parse(const char *text)
{
	return udrvd_groups_parse(text, strlen(text), &egid, groups, 4, &n);
}

static void test_as_linux_writes_it(void)
{
	CHECK_INT(parse("Name:\tbash\nUid:\t1000\t1000\t1000\t1000\n"
			"Gid:\t1000\t27\t1000\t1000\nFDSize:\t256\nGroups:\t4 24 2001 \n"
			"NStgid:\t42\n"), 0);
	CHECK_INT(egid, 27);	/* the effective one */
	CHECK_INT(n, 3);
	CHECK_INT(groups[0], 4);
	CHECK_INT(groups[2], 2001);
	/* no supplementary groups, and no trailing space or newline */
	CHECK_INT(parse("Gid:\t0\t0\t0\t0\nGroups:\t\n"), 0);
	CHECK_INT(n, 0);
	CHECK_INT(parse("Groups:\t4294967294\nGid:\t5\t6\t7\t8"), 0);
	CHECK_INT(egid, 6);
	CHECK_INT(groups[0], 4294967294u);
}

static void test_refusals(void)
{
	CHECK_INT(parse("Groups:\t4\n"), -EINVAL);			/* no Gid */
	CHECK_INT(parse("Gid:\t1\t2\t3\t4\n"), -EINVAL);		/* no Groups */
	CHECK_INT(parse("Gid:\t1\t2\t3\nGroups:\t\n"), -EINVAL);	/* three ids */
	CHECK_INT(parse("Gid:\t1\t2\t3\t4\t5\nGroups:\t\n"), -EINVAL);	/* five */
	CHECK_INT(parse("Gid:\t1\t2\t3\t4\nGid:\t1\t2\t3\t4\nGroups:\t\n"), -EINVAL);
	CHECK_INT(parse("Gid:\t1\t-2\t3\t4\nGroups:\t\n"), -EINVAL);
	CHECK_INT(parse("Gid:\t1\t4294967295\t3\t4\nGroups:\t\n"), -EINVAL);	/* (gid_t)-1 */
	CHECK_INT(parse("Gid:\t1\t99999999999999999999\t3\t4\nGroups:\t\n"), -EINVAL);
	CHECK_INT(parse("Gid:\t1\t2\t3\t4\nGroups:\t1 x2 \n"), -EINVAL);
	CHECK_INT(parse("Gid:\t1\t0x2\t3\t4\nGroups:\t\n"), -EINVAL);
	CHECK_INT(parse("Gid:\t1\t2\t3\t4\nGroups:\t1 2 3 4 5 \n"), -E2BIG);	/* max 4 */
	CHECK_INT(parse(""), -EINVAL);
}

static void test_own_process(void)
{
	gid_t mine[UDRVD_GROUPS_MAX], g;
	size_t k;

	CHECK_INT(udrvd_groups_read(getpid(), &g, mine, UDRVD_GROUPS_MAX, &k), 0);
	CHECK_INT(g, getegid());
	CHECK_INT((int)k, getgroups(0, NULL));
	CHECK_INT(udrvd_groups_read(-1, &g, mine, UDRVD_GROUPS_MAX, &k), -ENOENT);
}

UDRV_TESTS(UDRV_T(test_as_linux_writes_it), UDRV_T(test_refusals), UDRV_T(test_own_process))
