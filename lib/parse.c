// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Strict parsing of numbers, durations and device numbers (udrv/parse.h).
 * Hand-written digit loops rather than strtoull(): no whitespace, no sign,
 * no locale, and overflow is detected before it happens.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <udrv/parse.h>

static int digit_value(char c, unsigned int base)
{
	int d;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	else
		return -1;
	return (unsigned int)d < base ? d : -1;
}

/*
 * Digits of @base from @s up to the first non-digit; *end points there.
 * -EINVAL without a digit, -ERANGE if the value does not fit 64 bits.
 */
static int scan_digits(const char *s, unsigned int base, uint64_t *v,
		       const char **end)
{
	uint64_t n = 0;
	bool range = false;
	const char *p;
	int d;

	for (p = s; (d = digit_value(*p, base)) >= 0; p++) {
		if (n > (UINT64_MAX - (uint64_t)d) / base)
			range = true;
		else
			n = n * base + (uint64_t)d;
	}
	*end = p;
	if (p == s)
		return -EINVAL;
	if (range)
		return -ERANGE;
	*v = n;
	return 0;
}

/* A whole unsigned number (decimal or 0x hex) into @v, any 64-bit value. */
static int scan_number(const char *s, uint64_t *v)
{
	unsigned int base = 10;
	const char *end;
	uint64_t n;
	int ret;

	if (!s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	ret = scan_digits(s, base, &n, &end);
	if (ret == -ERANGE && *end)
		return -EINVAL;		/* not a number at all: say so */
	if (ret)
		return ret;
	if (*end)
		return -EINVAL;
	*v = n;
	return 0;
}

int udrv_parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t n;
	int ret;

	ret = scan_number(s, &n);
	if (ret)
		return ret;
	if (n > max)
		return -ERANGE;
	*v = n;
	return 0;
}

int udrv_parse_uint(const char *s, unsigned int max, unsigned int *v)
{
	uint64_t n;
	int ret;

	ret = udrv_parse_u64(s, max, &n);
	if (ret)
		return ret;
	*v = (unsigned int)n;
	return 0;
}

int udrv_parse_s64(const char *s, int64_t min, int64_t max, int64_t *v)
{
	bool neg = false;
	uint64_t n;
	int64_t x;
	int ret;

	if (!s)
		return -EINVAL;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	ret = scan_number(s, &n);
	if (ret)
		return ret;
	if (neg) {
		if (n > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		x = n == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)n;
	} else {
		if (n > (uint64_t)INT64_MAX)
			return -ERANGE;
		x = (int64_t)n;
	}
	if (x < min || x > max)
		return -ERANGE;
	*v = x;
	return 0;
}

static const struct {
	const char *suffix;
	uint64_t ns;
} duration_units[] = {
	{ "ns", 1 },
	{ "us", 1000 },
	{ "ms", 1000000 },
	{ "s", 1000000000 },
	{ "m", 60000000000ULL },
	{ "", 1000000000 },
};

static int duration_unit(const char *s, uint64_t *mul)
{
	for (size_t i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++) {
		if (!strcmp(s, duration_units[i].suffix)) {
			*mul = duration_units[i].ns;
			return 0;
		}
	}
	return -EINVAL;
}

/* The fraction after the point: at most 9 digits, scaled to 10^9. */
static int scan_fraction(const char *s, uint64_t *nano, const char **end)
{
	uint64_t f = 0, scale = 1000000000;
	const char *p;

	for (p = s; *p >= '0' && *p <= '9'; p++) {
		if (p - s == 9)
			return -EINVAL;
		scale /= 10;
		f += (uint64_t)(*p - '0') * scale;
	}
	*end = p;
	if (p == s)
		return -EINVAL;
	*nano = f;	/* fraction * 10^9 */
	return 0;
}

int udrv_parse_duration_ns(const char *s, uint64_t max_ns, uint64_t *ns)
{
	uint64_t whole, frac = 0, mul, total;
	const char *end;
	int ret;

	if (!s)
		return -EINVAL;
	ret = scan_digits(s, 10, &whole, &end);
	if (ret == -EINVAL)
		return ret;
	if (*end == '.') {
		int fret = scan_fraction(end + 1, &frac, &end);

		if (fret)
			return fret;
	}
	if (duration_unit(end, &mul))
		return -EINVAL;
	if (ret)
		return ret;	/* well formed, but the digits overflow */
	if (whole > UINT64_MAX / mul)
		return -ERANGE;
	total = whole * mul;
	/* frac is the fraction in units of 10^-9 of the unit; every unit
	 * divides a second or is a whole number of seconds */
	if (mul >= 1000000000)
		frac *= mul / 1000000000;
	else
		frac /= 1000000000 / mul;
	if (total > UINT64_MAX - frac)
		return -ERANGE;
	total += frac;
	if (total > max_ns)
		return -ERANGE;
	*ns = total;
	return 0;
}

int udrv_parse_devnum(const char *s, const char *prefix, unsigned int *num)
{
	size_t plen = strlen(prefix);
	const char *end;
	uint64_t n;
	int ret;

	if (!s)
		return -EINVAL;
	if (!strncmp(s, "/dev/", 5)) {
		s += 5;
		if (strncmp(s, prefix, plen))
			return -EINVAL;
	}
	if (!strncmp(s, prefix, plen))
		s += plen;
	if (s[0] == '0' && s[1])
		return -EINVAL;		/* leading zero */
	ret = scan_digits(s, 10, &n, &end);
	if (*end || ret == -EINVAL)
		return -EINVAL;
	if (ret || n > INT32_MAX)
		return -ERANGE;
	*num = (unsigned int)n;
	return 0;
}
