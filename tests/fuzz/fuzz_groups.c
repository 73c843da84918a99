// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's reader of a caller's groups (daemon/groups.c): the input is the
 * text of a /proc/PID/status.
 *
 * Properties:
 *  - groups-result: 0, -EINVAL or -E2BIG (more than MAX groups), the same
 *    twice;
 *  - groups-valid: what is accepted has at most MAX groups, each, and the
 *    effective gid, at most 4294967294;
 *  - groups-round-trip: the groups written back as Linux writes them
 *    ("Gid:\tR\tE\tS\tF\nGroups:\tG1 G2 \n") parse to the same.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "groups.h"

#define MAX	8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gid_t egid = 0, egid2 = 0, groups[MAX], groups2[MAX];
	size_t n = 0, n2 = 0, len = 0;
	char text[64 + MAX * 12];
	int ret = udrvd_groups_parse((const char *)data, size, &egid, groups, MAX, &n);
	int again = udrvd_groups_parse((const char *)data, size, &egid2, groups2, MAX, &n2);

	if (!fuzz_skip("groups-result")) {
		FUZZ_CHECK(ret == 0 || ret == -EINVAL || ret == -E2BIG, "returned %d", ret);
		FUZZ_CHECK(again == ret && (ret || (egid2 == egid && n2 == n)), "two results");
	}
	if (ret)
		return 0;
	if (!fuzz_skip("groups-valid")) {
		FUZZ_CHECK(n <= MAX, "%zu groups", n);
		FUZZ_CHECK(egid != (gid_t)-1, "egid -1");
		for (size_t i = 0; i < n; i++)
			FUZZ_CHECK(groups[i] != (gid_t)-1, "group -1");
	}
	if (!fuzz_skip("groups-round-trip")) {
		len = (size_t)snprintf(text, sizeof(text), "Gid:\t0\t%u\t0\t0\nGroups:\t",
				       (unsigned int)egid);
		for (size_t i = 0; i < n; i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%u ",
						(unsigned int)groups[i]);
		len += (size_t)snprintf(text + len, sizeof(text) - len, "\n");
		FUZZ_CHECK(!udrvd_groups_parse(text, len, &egid2, groups2, MAX, &n2),
			   "written back, refused:\n%s", text);
		FUZZ_CHECK(egid2 == egid && n2 == n && !memcmp(groups, groups2, n * sizeof(gid_t)),
			   "written back, other groups:\n%s", text);
	}
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}
