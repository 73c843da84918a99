// SPDX-License-Identifier: GPL-2.0-only
/*
 * The strict parsers of udrv/parse.h against the header's own words.
 *
 * The input is one string. Each parser's result (return value and output)
 * must be what an independent model of the documented grammar says:
 * decimal or 0x hex, no sign (u64, uint), an optional sign (s64), no space,
 * no empty string, -ERANGE only for a well-formed value out of range; the
 * output untouched on error. A parsed value prints back to the same text
 * (leading zeros and hex case aside) and parses again to the same value; a
 * duration is never above its maximum, and the maximum is exact (the value
 * itself passes, one less is -ERANGE).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/parse.h>

#include "fuzz.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

/* Values above this are "too big for anything": saturate here. */
#define BIG	(((u128)1) << 70)

static int digit(char c, unsigned int base)
{
	int d = c >= '0' && c <= '9' ? c - '0' :
		c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;

	return d < (int)base ? d : -1;
}

/* All of @s digits of @base (at least one): 0 and the value (saturated). */
static int model_digits(const char *s, unsigned int base, u128 *v)
{
	u128 n = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		int d = digit(*s, base);

		if (d < 0)
			return -EINVAL;
		n = n * base + (u128)d;
		if (n > BIG)
			n = BIG;
	}
	*v = n;
	return 0;
}

/* DIGITS or 0xHEXDIGITS, the whole string. */
static int model_number(const char *s, u128 *v)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return model_digits(s + 2, 16, v);
	return model_digits(s, 10, v);
}

static int model_u64(const char *s, uint64_t max, uint64_t *v)
{
	u128 n;
	int ret = model_number(s, &n);

	if (ret)
		return ret;
	if (n > max)
		return -ERANGE;
	*v = (uint64_t)n;
	return 0;
}

static int model_s64(const char *s, int64_t min, int64_t max, int64_t *v)
{
	bool neg = *s == '-';
	s128 x;
	u128 n;
	int ret;

	if (*s == '-' || *s == '+')
		s++;
	ret = model_number(s, &n);
	if (ret)
		return ret;
	x = neg ? -(s128)n : (s128)n;
	if (x < min || x > max)
		return -ERANGE;
	*v = (int64_t)x;
	return 0;
}

static const struct {
	const char *unit;
	uint64_t ns;
} units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
	{ "s", 1000000000 }, { "m", 60000000000ULL }, { "", 1000000000 },
};

static int model_duration(const char *s, uint64_t max, uint64_t *ns)
{
	const char *p = s;
	u128 whole = 0, frac = 0, scale = 1, mul = 0, total;
	size_t nfrac = 0;

	for (; *p >= '0' && *p <= '9'; p++) {
		whole = whole * 10 + (u128)(*p - '0');
		if (whole > BIG)
			whole = BIG;
	}
	if (p == s)
		return -EINVAL;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, nfrac++) {
			frac = frac * 10 + (u128)(*p - '0');
			scale *= 10;
			if (nfrac == 9)
				return -EINVAL;	/* a tenth digit */
		}
		if (!nfrac)
			return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(p, units[i].unit))
			mul = units[i].ns;
	if (!mul)
		return -EINVAL;
	total = whole * mul + frac * mul / scale;
	if (total > max)
		return -ERANGE;
	*ns = (uint64_t)total;
	return 0;
}

static int model_devnum(const char *s, const char *prefix, unsigned int *num)
{
	size_t plen = strlen(prefix);
	u128 n;

	if (!strncmp(s, "/dev/", 5)) {
		s += 5;
		if (strncmp(s, prefix, plen))
			return -EINVAL;
	}
	if (!strncmp(s, prefix, plen))
		s += plen;
	if (s[0] == '0' && s[1])
		return -EINVAL;
	if (model_digits(s, 10, &n))
		return -EINVAL;
	if (n > INT32_MAX)
		return -ERANGE;
	*num = (unsigned int)n;
	return 0;
}

#define SENTINEL	0x5a5a5a5a5a5a5a5aULL

/* @s without leading zeros, lower case: how the value prints back. */
static void canonical(const char *s, char *buf, size_t len)
{
	const char *d = s;
	bool hex = false;
	size_t i = 0;

	if (*d == '-' || *d == '+')
		d++;
	if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) {
		d += 2;
		hex = true;
	}
	while (d[0] == '0' && d[1])
		d++;
	if (hex && i + 2 < len) {
		buf[i++] = '0';
		buf[i++] = 'x';
	}
	for (; *d && i + 1 < len; d++)
		buf[i++] = (*d >= 'A' && *d <= 'F') ? (char)(*d - 'A' + 'a') : *d;
	buf[i] = '\0';
}

static void check_u64(const char *s, uint64_t max)
{
	uint64_t v = SENTINEL, mv = SENTINEL, again = SENTINEL;
	char back[64], canon[256];
	int ret = udrv_parse_u64(s, max, &v);
	int mret = model_u64(s, max, &mv);

	FUZZ_CHECK(ret == mret, "udrv_parse_u64(\"%s\", %" PRIu64 ") = %d, the grammar says %d",
		   s, max, ret, mret);
	if (ret) {
		FUZZ_CHECK(v == SENTINEL, "udrv_parse_u64(\"%s\") failed (%d) but wrote %" PRIu64,
			   s, ret, v);
		return;
	}
	FUZZ_CHECK(v == mv && v <= max, "udrv_parse_u64(\"%s\") = %" PRIu64 ", expected %" PRIu64,
		   s, v, mv);
	/* round trip: the value prints as the text */
	canonical(s, canon, sizeof(canon));
	snprintf(back, sizeof(back), canon[1] == 'x' ? "0x%" PRIx64 : "%" PRIu64, v);
	FUZZ_CHECK(!strcmp(back, canon), "\"%s\" parsed to %" PRIu64 ", which prints as \"%s\"",
		   s, v, back);
	FUZZ_CHECK(udrv_parse_u64(back, max, &again) == 0 && again == v,
		   "\"%s\" does not parse back to %" PRIu64, back, v);
	/* the maximum is exact */
	FUZZ_CHECK(udrv_parse_u64(s, v, &again) == 0 && again == v,
		   "\"%s\" refused with max = its own value", s);
	if (v)
		FUZZ_CHECK(udrv_parse_u64(s, v - 1, &again) == -ERANGE,
			   "\"%s\" not -ERANGE with max = value - 1", s);
}

static void check_uint(const char *s, unsigned int max)
{
	unsigned int v = 0x5a5a5a5a;
	uint64_t mv;
	int ret = udrv_parse_uint(s, max, &v);
	int mret = model_u64(s, max, &mv);

	FUZZ_CHECK(ret == mret, "udrv_parse_uint(\"%s\", %u) = %d, the grammar says %d",
		   s, max, ret, mret);
	if (ret)
		FUZZ_CHECK(v == 0x5a5a5a5a, "udrv_parse_uint(\"%s\") failed but wrote %u", s, v);
	else
		FUZZ_CHECK(v == mv && v <= max, "udrv_parse_uint(\"%s\") = %u, expected %" PRIu64,
			   s, v, mv);
}

static void check_s64(const char *s, int64_t min, int64_t max)
{
	int64_t v = (int64_t)SENTINEL, mv = 0, again;
	char back[64];
	int ret = udrv_parse_s64(s, min, max, &v);
	int mret = model_s64(s, min, max, &mv);

	FUZZ_CHECK(ret == mret, "udrv_parse_s64(\"%s\", %" PRId64 ", %" PRId64 ") = %d, the grammar says %d",
		   s, min, max, ret, mret);
	if (ret) {
		FUZZ_CHECK(v == (int64_t)SENTINEL, "udrv_parse_s64(\"%s\") failed but wrote %" PRId64,
			   s, v);
		return;
	}
	FUZZ_CHECK(v == mv && v >= min && v <= max,
		   "udrv_parse_s64(\"%s\") = %" PRId64 ", expected %" PRId64, s, v, mv);
	snprintf(back, sizeof(back), "%" PRId64, v);
	FUZZ_CHECK(udrv_parse_s64(back, min, max, &again) == 0 && again == v,
		   "\"%s\" (%" PRId64 ") does not parse back from \"%s\"", s, v, back);
}

static void check_duration(const char *s, uint64_t max)
{
	uint64_t v = SENTINEL, mv = SENTINEL, again = SENTINEL;
	char back[64];
	int ret = udrv_parse_duration_ns(s, max, &v);
	int mret = model_duration(s, max, &mv);

	FUZZ_CHECK(ret == mret, "udrv_parse_duration_ns(\"%s\", %" PRIu64 ") = %d, the grammar says %d",
		   s, max, ret, mret);
	if (ret) {
		FUZZ_CHECK(v == SENTINEL, "udrv_parse_duration_ns(\"%s\") failed but wrote %" PRIu64,
			   s, v);
		return;
	}
	FUZZ_CHECK(v <= max, "duration \"%s\" = %" PRIu64 " ns is above max %" PRIu64, s, v, max);
	FUZZ_CHECK(v == mv, "duration \"%s\" = %" PRIu64 " ns, expected %" PRIu64, s, v, mv);
	snprintf(back, sizeof(back), "%" PRIu64 "ns", v);
	FUZZ_CHECK(udrv_parse_duration_ns(back, max, &again) == 0 && again == v,
		   "duration \"%s\" = %" PRIu64 " ns does not parse back from \"%s\"", s, v, back);
	FUZZ_CHECK(udrv_parse_duration_ns(s, v, &again) == 0 && again == v,
		   "duration \"%s\" refused with max = its own value", s);
	if (v)
		FUZZ_CHECK(udrv_parse_duration_ns(s, v - 1, &again) == -ERANGE,
			   "duration \"%s\" not -ERANGE with max = value - 1", s);
}

static void check_devnum(const char *s, const char *prefix)
{
	unsigned int v = 0x5a5a5a5a, mv = 0;
	char back[64];
	const char *bare = s;
	int ret = udrv_parse_devnum(s, prefix, &v);
	int mret = model_devnum(s, prefix, &mv);

	FUZZ_CHECK(ret == mret, "udrv_parse_devnum(\"%s\", \"%s\") = %d, the grammar says %d",
		   s, prefix, ret, mret);
	if (ret) {
		FUZZ_CHECK(v == 0x5a5a5a5a, "udrv_parse_devnum(\"%s\") failed but wrote %u", s, v);
		return;
	}
	FUZZ_CHECK(v == mv && v <= INT32_MAX, "udrv_parse_devnum(\"%s\") = %u, expected %u",
		   s, v, mv);
	/* round trip: N, PREFIXN or /dev/PREFIXN is what the number prints as */
	if (!strncmp(bare, "/dev/", 5))
		bare += 5;
	if (!strncmp(bare, prefix, strlen(prefix)))
		bare += strlen(prefix);
	snprintf(back, sizeof(back), "%u", v);
	FUZZ_CHECK(!strcmp(back, bare), "devnum \"%s\" = %u, which prints as \"%s\"", s, v, back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t u64_max[] = { UINT64_MAX, INT64_MAX, UINT32_MAX,
					    65535, 1000, 1, 0 };
	static const char *const prefixes[] = { "gpiochip", "uio", "" };
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	for (size_t i = 0; i < sizeof(u64_max) / sizeof(u64_max[0]); i++) {
		check_u64(s, u64_max[i]);
		check_duration(s, u64_max[i]);
	}
	check_uint(s, UINT32_MAX);
	check_uint(s, 255);
	check_s64(s, INT64_MIN, INT64_MAX);
	check_s64(s, -1, 1);
	check_s64(s, 0, INT32_MAX);
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		check_devnum(s, prefixes[i]);
	free(s);
	return 0;
}
