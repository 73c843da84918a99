// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The legacy sysfs GPIO backend: export, direction, active_low, value and
 * edge under /sys/class/gpio, with the global number = chip base + offset.
 * Each line keeps its value file open; edges are waited for with POLLPRI on
 * an epoll set of the value files, so one fd serves poll/epoll users. A
 * watched line has its value file open twice: the epoll set has an fd of its
 * own, because a read of the value clears the notification of the fd it is
 * read through (an edge that came just before a get would be lost).
 *
 * sysfs has no event timestamps or sequence numbers: events carry
 * CLOCK_MONOTONIC at wake-up, and with edge "both" a level that did not
 * change since the previous event reveals at least one lost edge.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <udrv/chip.h>

#include "gpio/backend.h"

#define EXPORT_WAIT_MS	2000

struct sysfs_line {
	int gpio;		/* global number */
	char dir[UDRV_PATH_LEN];	/* its /sys/class/gpio entry */
	int value_fd;		/* get and set */
	int poll_fd;		/* in the request's epoll set; -1: not watched */
	bool exported;		/* by us: unexport on release */
	int level;		/* last value seen */
	uint32_t line_seqno;
};

struct sysfs_priv {
	uint32_t seqno;
	struct sysfs_line lines[UDRV_LINES_MAX];
};

static void line_attr(char *buf, size_t len, const struct sysfs_line *l,
		      const char *attr)
{
	snprintf(buf, len, "%s/%s", l->dir, attr);
}

__attribute__((cold))
static int attr_error(char *errmsg, int err, const char *path, const char *val)
{
	char hint[UDRV_ERRMSG_LEN];

	udrv_access_hint(hint, sizeof(hint), err, path);
	return udrv_err(errmsg, err, "writing '%s' to %s: %s (%s)", val, path,
			strerror(err), hint);
}

static int write_attr(char *errmsg, const struct sysfs_line *l,
		      const char *attr, const char *val)
{
	char path[UDRV_PATH_LEN];
	int ret;

	line_attr(path, sizeof(path), l, attr);
	ret = udrv_write_str(path, val);
	return ret ? attr_error(errmsg, -ret, path, val) : 0;
}

__attribute__((cold))
static int export_error(struct udrv_chip *chip, int err, unsigned int offset,
			int gpio, const char *path)
{
	char hint[UDRV_ERRMSG_LEN];

	if (err == EBUSY) {
		udrv_chip_describe_holder(chip, offset, hint, sizeof(hint));
		return udrv_err(chip->errmsg, EBUSY,
				"line %u of %s (GPIO %d) is busy: %s", offset,
				chip->name, gpio, hint);
	}
	if (err == EINVAL)
		return udrv_err(chip->errmsg, EINVAL,
				"the kernel refused to export GPIO %d (%s offset %u): not a valid line",
				gpio, chip->name, offset);
	udrv_access_hint(hint, sizeof(hint), err, path);
	return udrv_err(chip->errmsg, err, "exporting GPIO %d through %s: %s (%s)",
			gpio, path, strerror(err), hint);
}

/*
 * The directory of an exported line: gpioN, or the line's name when the
 * driver names its lines (the kernel then uses that name for the entry).
 */
static bool find_line_dir(struct sysfs_line *l, const char *name)
{
	if (udrv_path(l->dir, sizeof(l->dir), "/sys/class/gpio/gpio%d", l->gpio) == 0 &&
	    udrv_path_exists(l->dir))
		return true;
	if (!name[0])
		return false;
	return udrv_path(l->dir, sizeof(l->dir), "/sys/class/gpio/%s", name) == 0 &&
	       udrv_path_exists(l->dir);
}

static bool strv_has(char **strv, const char *s)
{
	for (; strv && *strv; strv++)
		if (!strcmp(*strv, s))
			return true;
	return false;
}

/* Does the class entry @path belong to @chip (its device lives under
 * .../gpiochipN/)? */
static bool entry_of_chip(const char *path, const char *chip)
{
	char real[PATH_MAX], needle[48];

	if (!realpath(path, real))
		return false;
	snprintf(needle, sizeof(needle), "/%s/", chip);
	return strstr(real, needle) != NULL;
}

/*
 * Without a name to look for: the entry that the export created. Only an
 * entry that is new, belongs to our chip and is the only such one counts:
 * a line someone else exported meanwhile is never taken for ours.
 */
static bool find_new_dir(struct sysfs_line *l, char **before, const char *chip)
{
	char cls[UDRV_PATH_LEN], path[UDRV_PATH_LEN + 256];
	struct dirent *de;
	int found = 0;
	DIR *d;

	if (udrv_path(cls, sizeof(cls), "/sys/class/gpio"))
		return false;
	d = opendir(cls);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || strv_has(before, de->d_name) ||
		    !strncmp(de->d_name, "gpiochip", 8) ||
		    !strcmp(de->d_name, "export") || !strcmp(de->d_name, "unexport"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", cls, de->d_name);
		if (!entry_of_chip(path, chip) || strlen(path) >= sizeof(l->dir))
			continue;
		if (!found++)
			udrv_strlcpy(l->dir, path, sizeof(l->dir));
	}
	if (d)
		closedir(d);
	return found == 1;
}

static char **list_class_dir(void)
{
	char cls[UDRV_PATH_LEN], **names;
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	if (udrv_path(cls, sizeof(cls), "/sys/class/gpio"))
		return NULL;
	names = calloc(1024, sizeof(*names));
	d = opendir(cls);
	while (names && d && n < 1023 && (de = readdir(d)))
		names[n++] = strdup(de->d_name);
	if (d)
		closedir(d);
	return names;
}

static int wait_for_export(struct sysfs_line *l, const char *name,
			   char **before, const char *chip)
{
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < EXPORT_WAIT_MS; i++) {
		if (find_line_dir(l, name) || find_new_dir(l, before, chip))
			return 0;
		nanosleep(&ms, NULL);
	}
	return -ETIMEDOUT;
}

static void line_name(struct udrv_chip *chip, unsigned int offset, char *name,
		      size_t len)
{
	struct udrv_line_info info;

	name[0] = '\0';
	if (chip->fd >= 0 && udrv_chip_line_info_quiet(chip, offset, &info) == 0)
		udrv_strlcpy(name, info.name, len);
}

static int sysfs_export(struct udrv_chip *chip, struct sysfs_line *l,
			unsigned int offset)
{
	char exp[UDRV_PATH_LEN], num[16], name[32], **before;
	int ret;

	line_name(chip, offset, name, sizeof(name));
	if (find_line_dir(l, name))
		return udrv_err(chip->errmsg, EBUSY,
				"line %u of %s (GPIO %d) is already exported in sysfs (%s) by another program or a run that did not clean up; udrv does not take over a line it did not export: if nobody uses it, echo %d > /sys/class/gpio/unexport",
				offset, chip->name, l->gpio, l->dir, l->gpio);
	if (udrv_path(exp, sizeof(exp), "/sys/class/gpio/export"))
		return udrv_path_err(chip->errmsg, "/sys/class/gpio/export");
	if (!udrv_path_exists(exp))
		return udrv_err(chip->errmsg, ENOTSUP,
				"this kernel has no sysfs GPIO (CONFIG_GPIO_SYSFS is off: %s missing); use the cdev backend",
				exp);
	before = list_class_dir();
	snprintf(num, sizeof(num), "%d", l->gpio);
	ret = udrv_write_str(exp, num);
	if (ret) {
		udrv_strv_free(before);
		return export_error(chip, -ret, offset, l->gpio, exp);
	}
	l->exported = true;
	ret = wait_for_export(l, name, before, chip->name);
	udrv_strv_free(before);
	if (ret)
		return udrv_err(chip->errmsg, ETIMEDOUT,
				"exported GPIO %d but no /sys/class/gpio entry of %s for it (gpio%d, or one new entry under the chip) appeared within %d ms",
				l->gpio, chip->name, l->gpio, EXPORT_WAIT_MS);
	return 0;
}

static int sysfs_unsupported(char *errmsg, const struct udrv_line_settings *s,
			     unsigned int offset)
{
	const char *what = s->bias != UDRV_BIAS_AS_IS ? "bias" :
			   s->drive != UDRV_DRIVE_PUSH_PULL ? "drive" :
			   s->debounce_us ? "debounce" :
			   s->event_clock != UDRV_CLOCK_MONOTONIC ? "event clock" :
			   NULL;

	if (!what)
		return 0;
	return udrv_err(errmsg, EOPNOTSUPP,
			"line %u: sysfs GPIO cannot set %s; use the cdev backend",
			offset, what);
}

static int sysfs_edge(char *errmsg, const struct sysfs_line *l,
		      enum udrv_edge edge)
{
	char path[UDRV_PATH_LEN];

	line_attr(path, sizeof(path), l, "edge");
	if (!udrv_path_exists(path)) {
		if (edge == UDRV_EDGE_NONE)
			return 0;
		return udrv_err(errmsg, EOPNOTSUPP,
				"GPIO %d has no interrupt (%s missing): edges cannot be watched on this line",
				l->gpio, path);
	}
	return write_attr(errmsg, l, "edge", udrv_edge_str(edge));
}

static int sysfs_configure(char *errmsg, struct sysfs_line *l,
			   const struct udrv_line_settings *s,
			   unsigned int offset)
{
	int raw = !!s->value ^ s->active_low;
	int ret;

	ret = sysfs_unsupported(errmsg, s, offset);
	if (ret)
		return ret;
	if (s->direction == UDRV_DIR_OUTPUT) {
		ret = sysfs_edge(errmsg, l, UDRV_EDGE_NONE);
		if (!ret)
			ret = write_attr(errmsg, l, "active_low",
					 s->active_low ? "1" : "0");
		if (!ret)
			ret = write_attr(errmsg, l, "direction",
					 raw ? "high" : "low");
		return ret;
	}
	ret = write_attr(errmsg, l, "active_low", s->active_low ? "1" : "0");
	if (!ret)
		ret = write_attr(errmsg, l, "direction", "in");
	if (!ret)
		ret = sysfs_edge(errmsg, l, s->edge);
	return ret;
}

static int read_level(int fd)
{
	char c[4];
	ssize_t n = pread(fd, c, sizeof(c), 0);

	if (n < 0)
		return -errno;
	if (n == 0 || (c[0] != '0' && c[0] != '1'))
		return -EIO;
	return c[0] - '0';
}

/* Open the value file a second time for the epoll set (see the top). */
static int sysfs_watch(char *errmsg, struct sysfs_line *l, int epfd,
		       unsigned int idx)
{
	struct epoll_event ev = { .events = EPOLLPRI | EPOLLERR,
				  .data.u32 = idx };
	char path[UDRV_PATH_LEN];
	int err;

	line_attr(path, sizeof(path), l, "value");
	l->poll_fd = open(path, O_RDWR | O_CLOEXEC);	/* as value_fd */
	if (l->poll_fd < 0)
		return attr_error(errmsg, errno, path, "(open)");
	read_level(l->poll_fd);	/* arms POLLPRI */
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, l->poll_fd, &ev) == 0)
		return 0;
	err = errno;
	close(l->poll_fd);
	l->poll_fd = -1;
	return udrv_err(errmsg, err, "cannot poll %s for edges: %s", path,
			strerror(err));
}

static void sysfs_unwatch(struct sysfs_line *l, int epfd)
{
	epoll_ctl(epfd, EPOLL_CTL_DEL, l->poll_fd, NULL);
	close(l->poll_fd);
	l->poll_fd = -1;
}

static int sysfs_open_value(char *errmsg, struct sysfs_line *l, int epfd,
			    unsigned int idx, bool watch)
{
	char path[UDRV_PATH_LEN];

	line_attr(path, sizeof(path), l, "value");
	l->value_fd = open(path, O_RDWR | O_CLOEXEC);
	if (l->value_fd < 0)
		return attr_error(errmsg, errno, path, "(open)");
	l->level = read_level(l->value_fd);
	return watch ? sysfs_watch(errmsg, l, epfd, idx) : 0;
}

static void sysfs_release(struct udrv_request *req)
{
	struct sysfs_priv *priv = req->priv;
	char unexp[UDRV_PATH_LEN], num[16];

	if (!priv)
		return;
	if (udrv_path(unexp, sizeof(unexp), "/sys/class/gpio/unexport"))
		unexp[0] = '\0';	/* nothing exported can be found there */
	for (size_t i = 0; i < req->num_lines; i++) {
		struct sysfs_line *l = &priv->lines[i];

		if (l->value_fd >= 0)
			close(l->value_fd);
		if (l->poll_fd >= 0)
			close(l->poll_fd);
		if (!l->exported)
			continue;
		snprintf(num, sizeof(num), "%d", l->gpio);
		if (udrv_write_str(unexp, num))
			continue;	/* release cannot fail: the line stays
					 * exported, as after a crash */
	}
	if (req->fd >= 0)
		close(req->fd);
	req->fd = -1;
	free(priv);
	req->priv = NULL;
}

static int sysfs_request_line(struct udrv_request *req, struct udrv_chip *chip,
			      size_t i)
{
	struct sysfs_priv *priv = req->priv;
	struct sysfs_line *l = &priv->lines[i];
	int ret;

	if (udrv_chip_gpio_number(chip, req->offsets[i], &l->gpio))
		return udrv_err(chip->errmsg, ERANGE,
				"line %u of %s: sysfs base %d + offset is beyond the GPIO numbers",
				req->offsets[i], chip->name, chip->sysfs_base);
	ret = sysfs_export(chip, l, req->offsets[i]);
	if (!ret)
		ret = sysfs_configure(chip->errmsg, l, &req->settings[i],
				      req->offsets[i]);
	if (!ret)
		ret = sysfs_open_value(chip->errmsg, l, req->fd, (unsigned int)i,
				       req->settings[i].edge != UDRV_EDGE_NONE);
	return ret;
}

static int sysfs_request(struct udrv_request *req, struct udrv_chip *chip,
			 const struct udrv_request_config *config)
{
	struct sysfs_priv *priv;
	int ret = 0;

	if (chip->sysfs_base < 0)
		return udrv_err(chip->errmsg, ENOTSUP,
				"%s has no legacy sysfs entry (/sys/class/gpio/gpiochip*): kernel without CONFIG_GPIO_SYSFS; use the cdev backend",
				chip->name);
	for (size_t i = 0; i < req->num_lines && !ret; i++)
		ret = sysfs_unsupported(chip->errmsg, &req->settings[i],
					req->offsets[i]);
	if (ret)
		return ret;
	priv = calloc(1, sizeof(*priv));
	if (!priv)
		return udrv_err(chip->errmsg, ENOMEM, "out of memory");
	for (size_t i = 0; i < UDRV_LINES_MAX; i++) {
		priv->lines[i].value_fd = -1;
		priv->lines[i].poll_fd = -1;
	}
	req->priv = priv;
	req->fd = epoll_create1(EPOLL_CLOEXEC);
	if (req->fd < 0)
		ret = udrv_err(chip->errmsg, errno, "epoll_create1: %s",
			       strerror(errno));
	for (size_t i = 0; i < req->num_lines && !ret; i++)
		ret = sysfs_request_line(req, chip, i);
	if (ret)
		sysfs_release(req);
	return ret;
}

__attribute__((cold))
static int value_error(struct udrv_request *req, int err, int gpio,
		       const char *op)
{
	return udrv_err(req->errmsg, err, "%s GPIO %d value: %s%s", op, gpio,
			strerror(err),
			err == EPERM ? " (the line is an input)" :
			err == ENODEV ? " (device gone)" : "");
}

static int sysfs_get(struct udrv_request *req, uint64_t mask, uint64_t *values)
{
	struct sysfs_priv *priv = req->priv;
	uint64_t v = 0;
	int level;

	for (size_t i = 0; i < req->num_lines; i++) {
		if (!(mask & (1ULL << i)))
			continue;
		level = read_level(priv->lines[i].value_fd);
		if (level < 0)
			return value_error(req, -level, priv->lines[i].gpio,
					   "reading");
		v |= (uint64_t)level << i;
	}
	*values = v;
	return 0;
}

/* One line: the hot path of udrv_request_set_value(). */
static int sysfs_set_value(struct udrv_request *req, size_t idx, int value)
{
	struct sysfs_priv *priv = req->priv;

	if (pwrite(priv->lines[idx].value_fd, value ? "1" : "0", 1, 0) != 1)
		return value_error(req, errno, priv->lines[idx].gpio, "writing");
	return 0;
}

static int sysfs_set(struct udrv_request *req, uint64_t mask, uint64_t values)
{
	int ret;

	for (size_t i = 0; i < req->num_lines; i++) {
		if (!(mask & (1ULL << i)))
			continue;
		ret = sysfs_set_value(req, i, !!(values & (1ULL << i)));
		if (ret)
			return ret;
	}
	return 0;
}

static int priv_gpio(const struct udrv_request *req, size_t i)
{
	const struct sysfs_priv *priv = req->priv;

	return priv->lines[i].gpio;
}

/* Line @i to @s, and its value file in or out of the epoll set to match:
 * the set follows what the line is, not what the request last said. */
static int reconfigure_line(struct udrv_request *req, size_t i,
			    const struct udrv_line_settings *s)
{
	struct sysfs_priv *priv = req->priv;
	struct sysfs_line *l = &priv->lines[i];
	bool watch = s->edge != UDRV_EDGE_NONE;
	int ret;

	ret = sysfs_configure(req->errmsg, l, s, req->offsets[i]);
	if (ret)
		return ret;
	if (watch && l->poll_fd < 0) {
		ret = sysfs_watch(req->errmsg, l, req->fd, (unsigned int)i);
		if (ret)
			return ret;
	} else if (!watch && l->poll_fd >= 0) {
		sysfs_unwatch(l, req->fd);
	}
	l->level = read_level(l->value_fd);
	return 0;
}

/*
 * All lines or none: when line k fails, lines 0..k go back to the settings
 * the request had, so the request stays what udrv_request_reconfigure()
 * says it is (and can be reconfigured again).
 */
static int sysfs_reconfigure(struct udrv_request *req,
			     const struct udrv_line_settings *settings)
{
	char errmsg[UDRV_ERRMSG_LEN];
	int ret = 0;
	size_t i;

	for (i = 0; i < req->num_lines && !ret; i++)
		ret = reconfigure_line(req, i, &settings[i]);
	if (!ret)
		return 0;
	memcpy(errmsg, req->errmsg, sizeof(errmsg));
	while (i--)
		if (reconfigure_line(req, i, &req->settings[i]))
			snprintf(errmsg + strlen(errmsg), sizeof(errmsg) - strlen(errmsg),
				 "; GPIO %d could not be set back either", priv_gpio(req, i));
	memcpy(req->errmsg, errmsg, sizeof(errmsg));
	return ret;
}

static void sysfs_event(struct udrv_request *req, struct udrv_edge_event *ev,
			size_t idx, int level, uint64_t now)
{
	struct sysfs_priv *priv = req->priv;
	struct sysfs_line *l = &priv->lines[idx];
	enum udrv_edge cfg = req->settings[idx].edge;

	ev->timestamp_ns = now;
	ev->offset = req->offsets[idx];
	ev->index = (unsigned int)idx;
	if (cfg == UDRV_EDGE_BOTH)
		ev->edge = level ? UDRV_EDGE_RISING : UDRV_EDGE_FALLING;
	else
		ev->edge = cfg;
	ev->lost = cfg == UDRV_EDGE_BOTH && level == l->level;
	req->lost += ev->lost;
	ev->seqno = ++priv->seqno;
	ev->line_seqno = ++l->line_seqno;
	l->level = level;
}

static int sysfs_read_events(struct udrv_request *req,
			     struct udrv_edge_event *buf, size_t max)
{
	struct sysfs_priv *priv = req->priv;
	struct epoll_event evs[UDRV_LINES_MAX];
	struct timespec ts;
	int n, level;
	size_t idx;

	n = epoll_wait(req->fd, evs,
		       max < UDRV_LINES_MAX ? (int)max : UDRV_LINES_MAX, -1);
	if (n < 0 && errno == EINTR)	/* as the cdev backend: see line.h */
		return udrv_err(req->errmsg, EINTR,
				"reading %s events: interrupted by a signal",
				req->chip_name);
	if (n < 0)
		return udrv_err(req->errmsg, errno, "epoll_wait on %s lines: %s",
				req->chip_name, strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (int i = 0; i < n; i++) {
		idx = evs[i].data.u32;
		level = read_level(priv->lines[idx].poll_fd);	/* re-arms */
		if (level < 0)
			return value_error(req, -level, priv->lines[idx].gpio,
					   "reading");
		sysfs_event(req, &buf[i], idx, level,
			    (uint64_t)ts.tv_sec * 1000000000ULL +
			    (uint64_t)ts.tv_nsec);
	}
	return n;
}

const struct udrv_backend_ops udrv_sysfs_ops = {
	.name = "sysfs",
	.request = sysfs_request,
	.release = sysfs_release,
	.get = sysfs_get,
	.set = sysfs_set,
	.set_value = sysfs_set_value,
	.reconfigure = sysfs_reconfigure,
	.read_events = sysfs_read_events,
};
