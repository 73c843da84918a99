// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of rig/bench/core/fields.c: gpio-reply's sysfs lines and an
 * option's names, read strictly.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fields.h"
#include "harness.h"

static void test_counts_and_last(void)
{
	uint64_t v[3] = { 7, 7, 7 };

	CHECK_INT(bench_read_u64s("0 0\n", v, 2), 0);
	CHECK(v[0] == 0 && v[1] == 0 && v[2] == 7);
	CHECK_INT(bench_read_u64s("632 632\n", v, 2), 0);
	CHECK(v[0] == 632 && v[1] == 632);
	CHECK_INT(bench_read_u64s("1 2450279896 2450280065\n", v, 3), 0);
	CHECK(v[0] == 1 && v[1] == 2450279896ULL && v[2] == 2450280065ULL);
	CHECK_INT(bench_read_u64s("18446744073709551615\n", v, 1), 0);
	CHECK(v[0] == UINT64_MAX);
}

static void test_rejects(void)
{
	static const char *const bad2[] = {
		"", "\n", "1\n", "1 2", "1 2 3\n", "1  2\n", " 1 2\n", "1 2 \n",
		"1\t2\n", "1 2\n\n", "1 2\nx", "1 2\n ", "-1 2\n", "+1 2\n", "0x1 2\n",
		"1 18446744073709551616\n", "1 2e3\n", "1 2.0\n",
		"1 000000000000000000000000002\n",
	};
	uint64_t v[2] = { 7, 7 };

	for (size_t i = 0; i < sizeof(bad2) / sizeof(bad2[0]); i++)
		if (bench_read_u64s(bad2[i], v, 2) != -EINVAL)
			harness_fail(__FILE__, __LINE__, "accepted '%s'", bad2[i]);
	CHECK(v[0] == 7 && v[1] == 7);	/* untouched */
	CHECK_INT(bench_read_u64s(NULL, v, 2), -EINVAL);
	CHECK_INT(bench_read_u64s("1\n", v, 0), -EINVAL);
	CHECK_INT(bench_read_u64s("1 2 3 4 5 6 7 8 9\n", v, 9), -EINVAL);
}

/* bench_file_u64() / bench_file_write_u64(): a sysfs-like file, round trip */
static void test_file(void)
{
	char path[] = "/tmp/udrv-test-fields-XXXXXX";
	int fd = mkstemp(path);
	uint64_t v = 7;
	FILE *f;

	CHECK(fd >= 0);
	close(fd);
	CHECK_INT(bench_file_write_u64(path, 18446744073709551615ULL), 0);
	CHECK_INT(bench_file_u64(path, &v), 0);
	CHECK(v == 18446744073709551615ULL);
	f = fopen(path, "w");
	CHECK(f != NULL);
	fputs("-1\n", f);
	fclose(f);
	CHECK_INT(bench_file_u64(path, &v), -EINVAL);
	CHECK(v == 18446744073709551615ULL);	/* untouched */
	unlink(path);
	CHECK_INT(bench_file_u64(path, &v), -ENOENT);
	CHECK_INT(bench_file_write_u64("/nonexistent-dir/x", 1), -ENOENT);
}

/* bench_parse_names(): --via, --responder, --wait */
static void test_names(void)
{
	static const char *const names[] = { "isr", "kthread", "user", "lib" };
	static const char *const bad[] = {
		"", ",", "user,", ",user", "user,,lib", "user,user", "USER", "use",
		"users", " user", "user ", "user;lib", "all,user", "user,all",
	};
	unsigned int m = 77;

	CHECK_INT(bench_parse_names("all", names, 4, &m), 0);
	CHECK(m == 0xf);
	CHECK_INT(bench_parse_names("lib", names, 4, &m), 0);
	CHECK(m == 8);
	CHECK_INT(bench_parse_names("user,lib", names, 4, &m), 0);
	CHECK(m == 0xc);
	CHECK_INT(bench_parse_names("lib,isr,kthread", names, 4, &m), 0);
	CHECK(m == 0xb);
	m = 77;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (bench_parse_names(bad[i], names, 4, &m) != -EINVAL)
			harness_fail(__FILE__, __LINE__, "accepted '%s'", bad[i]);
	CHECK(m == 77);	/* untouched */
	CHECK_INT(bench_parse_names(NULL, names, 4, &m), -EINVAL);
	CHECK_INT(bench_parse_names("isr", names, 0, &m), -EINVAL);
	CHECK_INT(bench_parse_names("isr", names, BENCH_NAMES_MAX + 1, &m), -EINVAL);
	CHECK(m == 77);
}

UDRV_TESTS(
	UDRV_T(test_counts_and_last),
	UDRV_T(test_names),
	UDRV_T(test_rejects),
	UDRV_T(test_file),
)
