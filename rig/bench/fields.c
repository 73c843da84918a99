// SPDX-License-Identifier: GPL-2.0-only
/* A line of numbers from sysfs, strictly (fields.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <udrv/parse.h>

#include "fields.h"

int bench_read_u64s(const char *text, uint64_t *v, int n)
{
	uint64_t tmp[BENCH_FIELDS_MAX];
	char field[BENCH_FIELD_DIGITS + 1];
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

int bench_file_u64(const char *path, uint64_t *v)
{
	char buf[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	return bench_read_u64s(buf, v, 1);
}

int bench_file_write_u64(const char *path, uint64_t v)
{
	char buf[24];
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int len = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)v);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, (size_t)len);
	err = n < 0 ? errno : EIO;
	if (close(fd) && n == len)
		return -errno;
	return n == len ? 0 : -err;
}
