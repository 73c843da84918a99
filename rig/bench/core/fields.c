// SPDX-License-Identifier: GPL-2.0-only
/* A line of numbers from sysfs, and a choice of names, strictly (fields.h). */
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

static int names_find(const char *const *names, int n, const char *s, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], s, len))
			return i;
	return -1;
}

int bench_parse_names(const char *arg, const char *const *names, int n,
		      unsigned int *mask)
{
	unsigned int m = 0;
	const char *p = arg;

	if (!arg || n < 1 || n > BENCH_NAMES_MAX)
		return -EINVAL;
	if (!strcmp(arg, "all")) {
		*mask = n == BENCH_NAMES_MAX ? ~0u : (1u << n) - 1;
		return 0;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		int i = names_find(names, n, p, len);

		if (i < 0 || (m & 1u << i))
			return -EINVAL;
		m |= 1u << i;
		if (!p[len])
			break;
		p += len + 1;
	}
	*mask = m;
	return 0;
}
