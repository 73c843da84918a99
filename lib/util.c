// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Small helpers shared by the library: error messages, the sysroot used by
 * tests, and reading/writing sysfs attributes.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "internal.h"

int udrv_err(char *buf, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, UDRV_ERRMSG_LEN, fmt, ap);
	va_end(ap);
	return -err;
}

const char *udrv_sysroot(void)
{
	const char *root = secure_getenv("UDRV_SYSROOT");

	return root ? root : "";
}

int udrv_path(char *buf, size_t len, const char *fmt, ...)
{
	const char *root = udrv_sysroot();
	size_t rlen = strlen(root);
	va_list ap;
	int n;

	if (len)
		buf[0] = '\0';
	if (rlen >= len)
		return -ENAMETOOLONG;
	memcpy(buf, root, rlen);
	va_start(ap, fmt);
	n = vsnprintf(buf + rlen, len - rlen, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - rlen) {
		buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}

/* More than a final newline left to read? */
static bool file_has_more(int fd)
{
	char extra[2];
	ssize_t n = read(fd, extra, sizeof(extra));

	return n == 2 || (n == 1 && extra[0] != '\n');
}

int udrv_path_err(char *errmsg, const char *what)
{
	return udrv_err(errmsg, ENAMETOOLONG,
			"the path of %s is longer than %d bytes (UDRV_SYSROOT is '%.200s'): use a shorter name or sysroot",
			what, UDRV_PATH_LEN - 1, udrv_sysroot());
}

int udrv_read_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	if ((size_t)n == len - 1 && file_has_more(fd)) {
		close(fd);
		buf[0] = '\0';		/* never a prefix taken for the value, */
		return -EOVERFLOW;	/* also by a caller that ignores this */
	}
	close(fd);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return (int)n;
}

int udrv_read_text(const char *path, char *buf, size_t len)
{
	int n = udrv_read_str(path, buf, len);

	if (n >= 0 && strlen(buf) != (size_t)n) {
		buf[0] = '\0';
		return -EINVAL;
	}
	return n;
}

/* A sysfs number: decimal or 0x hex, nothing else on the line (strict:
 * "-1" is not a huge size, "12abc" is not 12). */
int udrv_read_u64(const char *path, uint64_t *value)
{
	char buf[64];
	int ret;

	ret = udrv_read_str(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	return udrv_parse_u64(buf, UINT64_MAX, value) ? -EINVAL : 0;
}

int udrv_read_long(const char *path, long *value)
{
	char buf[64];
	int64_t v;
	int ret;

	ret = udrv_read_str(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	if (udrv_parse_s64(buf, LONG_MIN, LONG_MAX, &v))
		return -EINVAL;
	*value = (long)v;
	return 0;
}

int udrv_write_str(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	return (size_t)n == len ? 0 : -EIO;
}

bool udrv_path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

int udrv_fd_is(int fd, const char *path)
{
	struct stat a, b;

	if (fstat(fd, &a))
		return -errno;
	if (stat(path, &b))
		return -errno;
	if (S_ISCHR(a.st_mode) || S_ISCHR(b.st_mode))
		return S_ISCHR(a.st_mode) && S_ISCHR(b.st_mode) &&
		       a.st_rdev == b.st_rdev ? 0 : -EINVAL;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino ? 0 : -EINVAL;
}

void udrv_strlcpy(char *dst, const char *src, size_t len)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void id_name(char *buf, size_t len, const char *name, unsigned int id)
{
	if (name)
		udrv_strlcpy(buf, name, len);
	else
		snprintf(buf, len, "%u", id);
}

/*
 * Why a device node refused us, and the fix: its owner, group and mode, then
 * the group to join (a group may use it) or how to let one (root alone may).
 */
static void permission_hint(char *buf, size_t len, const char *path)
{
	struct passwd *pw;
	struct group *gr;
	struct stat st;
	char owner[64], grp[64];

	if (stat(path, &st) < 0) {
		snprintf(buf, len, "%s: %s; run as root", path, strerror(errno));
		return;
	}
	pw = getpwuid(st.st_uid);
	id_name(owner, sizeof(owner), pw ? pw->pw_name : NULL, (unsigned int)st.st_uid);
	gr = getgrgid(st.st_gid);
	id_name(grp, sizeof(grp), gr ? gr->gr_name : NULL, (unsigned int)st.st_gid);
	if (st.st_gid != 0 && (st.st_mode & 0060))
		snprintf(buf, len,
			 "%s is owner %s, group %s, mode %04o: add your user to group %s (usermod -aG %s $USER, then log in again) or run as root",
			 path, owner, grp, (unsigned int)(st.st_mode & 07777), grp, grp);
	else
		snprintf(buf, len,
			 "%s is owner %s, group %s, mode %04o, for root alone: run as root, or give a group access with a udev rule (udrv's 60-udrv.rules: groups gpio, uio, vfio, i2c, spi, pwm)",
			 path, owner, grp, (unsigned int)(st.st_mode & 07777));
}

void udrv_access_hint(char *buf, size_t len, int err, const char *path)
{
	switch (err) {
	case EACCES:
	case EPERM:
		permission_hint(buf, len, path);
		return;
	case ENOENT:
		snprintf(buf, len, "%s does not exist", path);
		return;
	case ENODEV:
	case ENXIO:
		snprintf(buf, len, "the device behind %s is gone (unplugged or driver unbound)",
			 path);
		return;
	default:
		snprintf(buf, len, "%s: %s", path, strerror(err));
	}
}

static int numbered_suffix(const char *name, const char *prefix, long *num)
{
	unsigned int n;

	/* exactly <prefix><decimal, no leading zero, <= INT32_MAX> */
	if (strncmp(name, prefix, strlen(prefix)) ||
	    !isdigit((unsigned char)name[strlen(prefix)]) ||
	    udrv_parse_devnum(name, prefix, &n))
		return -1;
	*num = (long)n;
	return 0;
}

struct numbered {
	long num;
	char *name;
};

static int cmp_numbered(const void *a, const void *b)
{
	const struct numbered *x = a, *y = b;

	return (x->num > y->num) - (x->num < y->num);
}

int udrv_list_numbered(const char *dir, const char *prefix, char ***names)
{
	struct numbered *items = NULL, *tmp;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	char **strv;
	long num;
	DIR *d;

	*names = NULL;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (numbered_suffix(de->d_name, prefix, &num))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			tmp = realloc(items, cap * sizeof(*items));
			if (!tmp)
				goto nomem;
			items = tmp;
		}
		items[n].num = num;
		items[n].name = strdup(de->d_name);
		if (!items[n].name)
			goto nomem;
		n++;
	}
	closedir(d);
	d = NULL;
	if (n)
		qsort(items, n, sizeof(*items), cmp_numbered);
	strv = calloc(n + 1, sizeof(*strv));
	if (!strv)
		goto nomem;
	for (i = 0; i < n; i++)
		strv[i] = items[i].name;
	free(items);
	*names = strv;
	return (int)n;
nomem:
	if (d)
		closedir(d);
	for (i = 0; i < n; i++)
		free(items[i].name);
	free(items);
	return -ENOMEM;
}

const char *udrv_version(void)
{
	return UDRV_VERSION;
}

int udrv_poll_masked(struct pollfd *fds, nfds_t n, int ms,
		     const sigset_t *mask)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	if (!mask)
		return poll(fds, n, ms);
	return ppoll(fds, n, ms < 0 ? NULL : &ts, mask);
}
