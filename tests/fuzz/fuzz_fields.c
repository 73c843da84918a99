// SPDX-License-Identifier: GPL-2.0-only
/*
 * rig/bench/core/fields.c, the benches' reader of a module's sysfs numbers
 * (gpio-reply's "EDGES REPLIES\n" and "SEQ T_ENTRY T_REPLY\n"), against the
 * words of rig/bench/core/fields.h.
 *
 * The input's first byte picks n (1..8, and 0 and 9, which must fail), the
 * rest is the text (up to its first NUL). The result must be an independent
 * model's: exactly n fields of 1..23 decimal digits, value at most
 * UINT64_MAX, one space between them, one newline after the last, nothing
 * after; the numbers equal the model's; the output untouched on error.
 *
 * A first byte with the top bit set fuzzes bench_parse_names() instead (an
 * option's choice of names): its low 3 bits are n (0..6 of NAMES; 0 must
 * fail), the rest the argument. The model splits at every ',' and wants
 * each piece one of the n names, none twice, or the whole "all".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../rig/bench/core/fields.h"
#include "fuzz.h"

typedef unsigned __int128 u128;

static int model(const char *s, int n, uint64_t *v)
{
	int k = 0;

	if (n < 1 || n > BENCH_FIELDS_MAX)
		return -EINVAL;
	while (k < n) {
		u128 x = 0;
		int len = 0;

		for (; *s >= '0' && *s <= '9'; s++, len++)
			if (x <= UINT64_MAX)
				x = x * 10 + (u128)(*s - '0');
		if (!len || len > 23 || x > UINT64_MAX)
			return -EINVAL;
		v[k++] = (uint64_t)x;
		if (*s != (k == n ? '\n' : ' '))
			return -EINVAL;
		s++;
	}
	return *s ? -EINVAL : 0;
}

static const char *const NAMES[] = { "isr", "kthread", "user", "lib", "a", "ab" };
#define NNAMES ((int)(sizeof(NAMES) / sizeof(NAMES[0])))

static int names_model(const char *s, int n, unsigned int *mask)
{
	unsigned int m = 0;
	char piece[64];

	if (n < 1)
		return -EINVAL;
	if (!strcmp(s, "all")) {
		*mask = (1u << n) - 1;
		return 0;
	}
	for (;;) {
		size_t len = 0;
		int hit = -1;

		while (s[len] && s[len] != ',')
			len++;
		if (len >= sizeof(piece))
			return -EINVAL;
		memcpy(piece, s, len);
		piece[len] = '\0';
		for (int i = 0; i < n; i++)
			if (!strcmp(piece, NAMES[i]))
				hit = i;
		if (hit < 0 || (m >> hit & 1))
			return -EINVAL;
		m |= 1u << hit;
		if (!s[len])
			break;
		s += len + 1;
	}
	*mask = m;
	return 0;
}

static void fuzz_names(const char *s, int n)
{
	unsigned int want = 0xa5a5, got = 0xa5a5;
	int m = names_model(s, n, &want);
	int r = bench_parse_names(s, NAMES, n, &got);

	FUZZ_CHECK(r == m, "n %d '%s': bench_parse_names %d, the model %d", n, s, r, m);
	FUZZ_CHECK(got == want, "n %d '%s': mask %#x, not %#x", n, s, got, want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t want[BENCH_FIELDS_MAX + 1], got[BENCH_FIELDS_MAX + 1];
	char *s;
	int n, r, m;

	if (!size)
		return 0;
	n = data[0] % (BENCH_FIELDS_MAX + 2);
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	if (data[0] & 0x80) {
		if ((data[0] & 7) <= NNAMES)
			fuzz_names(s, data[0] & 7);
		free(s);
		return 0;
	}
	memset(got, 0xa5, sizeof(got));
	m = model(s, n, want);
	r = bench_read_u64s(s, got, n);
	FUZZ_CHECK(r == m, "n %d '%s': bench_read_u64s %d, the model %d", n, s, r, m);
	for (int i = 0; i < BENCH_FIELDS_MAX + 1; i++) {
		uint64_t expect = !r && i < n ? want[i] : 0xa5a5a5a5a5a5a5a5ULL;

		FUZZ_CHECK(got[i] == expect, "n %d '%s': field %d is %llu, not %llu", n,
			   s, i, (unsigned long long)got[i], (unsigned long long)expect);
	}
	free(s);
	return 0;
}
