// SPDX-License-Identifier: GPL-2.0-only
/* A line of numbers from sysfs, strictly (fields.h). */
#include <errno.h>
#include <string.h>

#include <udrv/parse.h>

#include "fields.h"

int bench_read_u64s(const char *text, uint64_t *v, int n)
{
	uint64_t tmp[BENCH_FIELDS_MAX];
	char field[24];
	const char *p = text;

	if (!text || n < 1 || n > BENCH_FIELDS_MAX)
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		size_t len = strspn(p, "0123456789");
		char end = i == n - 1 ? '\n' : ' ';

		/* 20 digits hold UINT64_MAX; more is not a counter (or 0-padded) */
		if (!len || len >= sizeof(field) || p[len] != end)
			return -EINVAL;
		memcpy(field, p, len);
		field[len] = '\0';
		if (udrv_parse_u64(field, UINT64_MAX, &tmp[i]))
			return -EINVAL;
		p += len + 1;
	}
	if (*p)
		return -EINVAL;
	memcpy(v, tmp, sizeof(*v) * (size_t)n);
	return 0;
}
