// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of the strict parsers (lib/parse.c). */
#include <errno.h>
#include <limits.h>

#include <udrv/parse.h>

#include "harness.h"

static void test_u64(void)
{
	uint64_t v = 7;

	CHECK_INT(udrv_parse_u64("0", UINT64_MAX, &v), 0);
	CHECK_INT(v, 0);
	CHECK_INT(udrv_parse_u64("010", UINT64_MAX, &v), 0);
	CHECK_INT(v, 10);			/* not octal */
	CHECK_INT(udrv_parse_u64("0x1F", UINT64_MAX, &v), 0);
	CHECK_INT(v, 31);
	CHECK_INT(udrv_parse_u64("18446744073709551615", UINT64_MAX, &v), 0);
	CHECK(v == UINT64_MAX);
	CHECK_INT(udrv_parse_u64("0xffffffffffffffff", UINT64_MAX, &v), 0);
	CHECK(v == UINT64_MAX);
}

static void test_u64_rejects(void)
{
	static const char *const bad[] = {
		"", " 1", "1 ", "-1", "+1", "0x", "1a", "0x1g", "1.0", "1e3",
		"٣", "0b1", "x1", "1\n",
	};
	uint64_t v = 7;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (udrv_parse_u64(bad[i], UINT64_MAX, &v) != -EINVAL)
			harness_fail(__FILE__, __LINE__, "accepted '%s'", bad[i]);
	}
	CHECK_INT(udrv_parse_u64(NULL, UINT64_MAX, &v), -EINVAL);
	CHECK_INT(v, 7);	/* untouched on failure */
}

static void test_u64_range(void)
{
	uint64_t v = 7;

	CHECK_INT(udrv_parse_u64("18446744073709551616", UINT64_MAX, &v), -ERANGE);
	CHECK_INT(udrv_parse_u64("0x10000000000000000", UINT64_MAX, &v), -ERANGE);
	CHECK_INT(udrv_parse_u64("99999999999999999999999", UINT64_MAX, &v), -ERANGE);
	CHECK_INT(udrv_parse_u64("4294967296", UINT32_MAX, &v), -ERANGE);
	CHECK_INT(udrv_parse_u64("4294967295", UINT32_MAX, &v), 0);
	CHECK(v == UINT32_MAX);
}

static void test_uint(void)
{
	unsigned int v = 7;

	CHECK_INT(udrv_parse_uint("4294967296", UINT_MAX, &v), -ERANGE);
	CHECK_INT(udrv_parse_uint("64", 63, &v), -ERANGE);
	CHECK_INT(udrv_parse_uint("63", 63, &v), 0);
	CHECK_INT(v, 63);
}

static void test_s64(void)
{
	int64_t v = 7;

	CHECK_INT(udrv_parse_s64("-1", -1, 1, &v), 0);
	CHECK_INT(v, -1);
	CHECK_INT(udrv_parse_s64("+0x10", 0, 100, &v), 0);
	CHECK_INT(v, 16);
	CHECK_INT(udrv_parse_s64("-9223372036854775808", INT64_MIN, 0, &v), 0);
	CHECK(v == INT64_MIN);
	CHECK_INT(udrv_parse_s64("-9223372036854775809", INT64_MIN, 0, &v), -ERANGE);
	CHECK_INT(udrv_parse_s64("9223372036854775808", INT64_MIN, INT64_MAX, &v), -ERANGE);
	CHECK_INT(udrv_parse_s64("-2", -1, 1, &v), -ERANGE);
	CHECK_INT(udrv_parse_s64("-", -1, 1, &v), -EINVAL);
	CHECK_INT(udrv_parse_s64("--1", -5, 1, &v), -EINVAL);
	CHECK_INT(udrv_parse_s64("", -5, 1, &v), -EINVAL);
}

static void test_duration(void)
{
	static const struct {
		const char *s;
		uint64_t ns;
	} good[] = {
		{ "0", 0 }, { "1", 1000000000 }, { "1.5ms", 1500000 },
		{ "250us", 250000 }, { "100ns", 100 }, { "2m", 120000000000ULL },
		{ "0.000000001s", 1 }, { "1.999999999s", 1999999999 },
		{ "1.5ns", 1 }, { "0.5m", 30000000000ULL }, { "10s", 10000000000ULL },
		{ "18446744073709551615ns", UINT64_MAX },
	};
	uint64_t ns;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ns = 7;
		if (udrv_parse_duration_ns(good[i].s, UINT64_MAX, &ns) || ns != good[i].ns)
			harness_fail(__FILE__, __LINE__, "'%s' gave %llu, expected %llu",
				     good[i].s, (unsigned long long)ns,
				     (unsigned long long)good[i].ns);
	}
}

static void test_duration_rejects(void)
{
	static const char *const bad[] = {
		"", "nan", "inf", "-1", "1e300", "1e3ms", ".5s", "5.s", "1 s",
		" 1s", "1S", "1h", "0x10s", "1.0000000001s", "1..5s", "infinity",
		"NaN", "+1s",
	};
	uint64_t ns = 7;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (udrv_parse_duration_ns(bad[i], UINT64_MAX, &ns) != -EINVAL)
			harness_fail(__FILE__, __LINE__, "accepted '%s'", bad[i]);
	}
	CHECK_INT(ns, 7);
}

static void test_duration_range(void)
{
	uint64_t ns = 7;

	/* 1e10 s: the toggle period that used to overflow into a 49-year sleep */
	CHECK_INT(udrv_parse_duration_ns("10000000000s", 3600000000000ULL, &ns), -ERANGE);
	CHECK_INT(udrv_parse_duration_ns("18446744073709551616ns", UINT64_MAX, &ns), -ERANGE);
	CHECK_INT(udrv_parse_duration_ns("307445734561825861m", UINT64_MAX, &ns), -ERANGE);
	CHECK_INT(udrv_parse_duration_ns("1.000000001s", 1000000000, &ns), -ERANGE);
	CHECK_INT(udrv_parse_duration_ns("1s", 1000000000, &ns), 0);
	CHECK_INT(ns, 1000000000);
}

static void test_devnum(void)
{
	unsigned int n = 7;

	CHECK_INT(udrv_parse_devnum("4", "gpiochip", &n), 0);
	CHECK_INT(n, 4);
	CHECK_INT(udrv_parse_devnum("gpiochip12", "gpiochip", &n), 0);
	CHECK_INT(n, 12);
	CHECK_INT(udrv_parse_devnum("/dev/uio0", "uio", &n), 0);
	CHECK_INT(n, 0);
	CHECK_INT(udrv_parse_devnum("2147483647", "uio", &n), 0);
	CHECK_INT(n, 2147483647);
}

static void test_devnum_rejects(void)
{
	unsigned int n = 7;

	/* these used to reach atoi(): 4294967296 became 0, ...97 became 1 */
	CHECK_INT(udrv_parse_devnum("4294967296", "gpiochip", &n), -ERANGE);
	CHECK_INT(udrv_parse_devnum("gpiochip4294967297", "gpiochip", &n), -ERANGE);
	CHECK_INT(udrv_parse_devnum("uio4294967296", "uio", &n), -ERANGE);
	CHECK_INT(udrv_parse_devnum("2147483648", "uio", &n), -ERANGE);
	CHECK_INT(udrv_parse_devnum("", "gpiochip", &n), -EINVAL);
	CHECK_INT(udrv_parse_devnum("gpiochip", "gpiochip", &n), -EINVAL);
	CHECK_INT(udrv_parse_devnum("gpiochip04", "gpiochip", &n), -EINVAL);
	CHECK_INT(udrv_parse_devnum("-1", "gpiochip", &n), -EINVAL);
	CHECK_INT(udrv_parse_devnum("0x1", "gpiochip", &n), -EINVAL);
	CHECK_INT(udrv_parse_devnum("/dev/gpiochip1", "uio", &n), -EINVAL);
	CHECK_INT(udrv_parse_devnum("uio1 ", "uio", &n), -EINVAL);
	CHECK_INT(n, 7);
}

UDRV_TESTS(
	UDRV_T(test_u64),
	UDRV_T(test_u64_rejects),
	UDRV_T(test_u64_range),
	UDRV_T(test_uint),
	UDRV_T(test_s64),
	UDRV_T(test_duration),
	UDRV_T(test_duration_rejects),
	UDRV_T(test_duration_range),
	UDRV_T(test_devnum),
	UDRV_T(test_devnum_rejects),
)
