// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The GPIO character device backend (uAPI v2): one line-request fd holds all
 * lines; get/set are one ioctl each; edge events carry the kernel's hardirq
 * timestamp and sequence numbers, whose gaps are counted as lost events.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "gpio/backend.h"

struct cdev_priv {
	uint32_t last_seqno;
	/* udrv_request_set_value()'s ioctl argument per line, [low, high] */
	struct gpio_v2_line_values one[UDRV_LINES_MAX][2];
};

static uint64_t edge_flags(enum udrv_edge edge)
{
	switch (edge) {
	case UDRV_EDGE_RISING:
		return GPIO_V2_LINE_FLAG_EDGE_RISING;
	case UDRV_EDGE_FALLING:
		return GPIO_V2_LINE_FLAG_EDGE_FALLING;
	case UDRV_EDGE_BOTH:
		return GPIO_V2_LINE_FLAG_EDGE_RISING |
		       GPIO_V2_LINE_FLAG_EDGE_FALLING;
	default:
		return 0;
	}
}

static uint64_t line_flags(const struct udrv_line_settings *s)
{
	static const uint64_t bias[] = {
		0, GPIO_V2_LINE_FLAG_BIAS_DISABLED,
		GPIO_V2_LINE_FLAG_BIAS_PULL_UP, GPIO_V2_LINE_FLAG_BIAS_PULL_DOWN,
	};
	static const uint64_t drive[] = {
		0, GPIO_V2_LINE_FLAG_OPEN_DRAIN, GPIO_V2_LINE_FLAG_OPEN_SOURCE,
	};
	static const uint64_t clock[] = {
		0, GPIO_V2_LINE_FLAG_EVENT_CLOCK_REALTIME,
		GPIO_V2_LINE_FLAG_EVENT_CLOCK_HTE,
	};
	uint64_t f;

	f = s->direction == UDRV_DIR_OUTPUT ? GPIO_V2_LINE_FLAG_OUTPUT :
					      GPIO_V2_LINE_FLAG_INPUT;
	if (s->active_low)
		f |= GPIO_V2_LINE_FLAG_ACTIVE_LOW;
	f |= edge_flags(s->edge) | bias[s->bias] | drive[s->drive];
	if (s->edge != UDRV_EDGE_NONE)
		f |= clock[s->event_clock];
	return f;
}

static struct gpio_v2_line_config_attribute *
config_attr(struct gpio_v2_line_config *cfg)
{
	if (cfg->num_attrs >= GPIO_V2_LINE_NUM_ATTRS_MAX)
		return NULL;
	return &cfg->attrs[cfg->num_attrs++];
}

/* Lines whose flags differ from the default get a FLAGS attribute each. */
static int config_flags(struct gpio_v2_line_config *cfg, const uint64_t *flags,
			size_t n)
{
	struct gpio_v2_line_config_attribute *a;
	uint64_t done = 1;

	cfg->flags = flags[0];
	for (size_t i = 1; i < n; i++) {
		if (done & (1ULL << i) || flags[i] == cfg->flags)
			continue;
		a = config_attr(cfg);
		if (!a)
			return -E2BIG;
		a->attr.id = GPIO_V2_LINE_ATTR_ID_FLAGS;
		a->attr.flags = flags[i];
		for (size_t j = i; j < n; j++)
			if (flags[j] == flags[i]) {
				a->mask |= 1ULL << j;
				done |= 1ULL << j;
			}
	}
	return 0;
}

static int config_outputs(struct gpio_v2_line_config *cfg,
			  const struct udrv_line_settings *s, size_t n)
{
	struct gpio_v2_line_config_attribute *a;
	uint64_t mask = 0, values = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i].direction != UDRV_DIR_OUTPUT)
			continue;
		mask |= 1ULL << i;
		if (s[i].value)
			values |= 1ULL << i;
	}
	if (!mask)
		return 0;
	a = config_attr(cfg);
	if (!a)
		return -E2BIG;
	a->attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
	a->attr.values = values;
	a->mask = mask;
	return 0;
}

static int config_debounce(struct gpio_v2_line_config *cfg,
			   const struct udrv_line_settings *s, size_t n)
{
	struct gpio_v2_line_config_attribute *a;
	uint64_t done = 0;

	for (size_t i = 0; i < n; i++) {
		if (!s[i].debounce_us || done & (1ULL << i))
			continue;
		a = config_attr(cfg);
		if (!a)
			return -E2BIG;
		a->attr.id = GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
		a->attr.debounce_period_us = s[i].debounce_us;
		for (size_t j = i; j < n; j++)
			if (s[j].debounce_us == s[i].debounce_us) {
				a->mask |= 1ULL << j;
				done |= 1ULL << j;
			}
	}
	return 0;
}

static int build_config(char *errmsg, const struct udrv_line_settings *s,
			size_t n, struct gpio_v2_line_config *cfg)
{
	uint64_t flags[UDRV_LINES_MAX] = { 0 };
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	for (size_t i = 0; i < n; i++)
		flags[i] = line_flags(&s[i]);
	ret = config_flags(cfg, flags, n);
	if (!ret)
		ret = config_outputs(cfg, s, n);
	if (!ret)
		ret = config_debounce(cfg, s, n);
	if (ret)
		return udrv_err(errmsg, E2BIG,
				"too many different settings in one request: the kernel takes at most %d attributes (distinct flag sets, output values, debounce periods); split the request",
				GPIO_V2_LINE_NUM_ATTRS_MAX);
	return 0;
}

/* Name the first requested line that someone holds, and who. */
static int cdev_busy_error(struct udrv_request *req, struct udrv_chip *chip)
{
	struct udrv_line_info info;

	for (size_t i = 0; i < req->num_lines; i++) {
		if (udrv_chip_line_info_quiet(chip, req->offsets[i], &info) ||
		    !info.used)
			continue;
		return udrv_err(chip->errmsg, EBUSY,
				"line %u of %s is busy: held by consumer '%s' (the program holding it must release it first; the line's info names its holder)",
				req->offsets[i], chip->name,
				info.consumer[0] ? info.consumer : "?");
	}
	return udrv_err(chip->errmsg, EBUSY, "%s: lines busy", chip->name);
}

__attribute__((cold))
static int cdev_request_error(struct udrv_request *req, struct udrv_chip *chip,
			      int err)
{
	switch (err) {
	case EBUSY:
		return cdev_busy_error(req, chip);
	case ENOTTY:
		return udrv_err(chip->errmsg, ENOTTY,
				"%s: the kernel lacks GPIO uAPI v2 (Linux >= 5.10 with CONFIG_GPIO_CDEV); request the lines through the sysfs backend (UDRV_BACKEND_SYSFS)",
				chip->path);
	case EINVAL:
	case EOPNOTSUPP:
	case 524: /* ENOTSUPP, kernel-internal */
		return udrv_err(chip->errmsg, err == EINVAL ? EINVAL : EOPNOTSUPP,
				"%s (%s) rejected the line settings: %s (the driver may not support this bias, drive, debounce or event clock)",
				chip->name, chip->label, strerror(err == 524 ? EOPNOTSUPP : err));
	case ENODEV:
		return udrv_err(chip->errmsg, ENODEV,
				"%s (%s): the device is gone (driver unloaded or unbound): GPIO_V2_GET_LINE_IOCTL: %s; open the chip again once the driver is back",
				chip->path, chip->label, strerror(ENODEV));
	case EPERM:
		return udrv_err(chip->errmsg, EPERM,
				"%s (%s) refused the request: the driver does not allow this direction or setting on these lines (an input-only line requested as output?)",
				chip->name, chip->label);
	default:
		return udrv_err(chip->errmsg, err,
				"GPIO_V2_GET_LINE_IOCTL on %s: %s", chip->path,
				strerror(err));
	}
}

static struct cdev_priv *cdev_priv_new(size_t n)
{
	struct cdev_priv *priv = calloc(1, sizeof(*priv));

	for (size_t i = 0; priv && i < n; i++) {
		priv->one[i][0].mask = priv->one[i][1].mask = 1ULL << i;
		priv->one[i][1].bits = 1ULL << i;
	}
	return priv;
}

static int cdev_request(struct udrv_request *req, struct udrv_chip *chip,
			const struct udrv_request_config *config)
{
	struct gpio_v2_line_request lr;
	struct cdev_priv *priv;
	int ret;

	if (chip->fd < 0)
		return udrv_err(chip->errmsg, ENODEV,
				"%s has no character device (%s missing: kernel without CONFIG_GPIO_CDEV?); request the lines through the sysfs backend (UDRV_BACKEND_SYSFS)",
				chip->name, chip->path);
	memset(&lr, 0, sizeof(lr));
	ret = build_config(chip->errmsg, req->settings, req->num_lines,
			   &lr.config);
	if (ret)
		return ret;
	memcpy(lr.offsets, req->offsets, req->num_lines * sizeof(*lr.offsets));
	lr.num_lines = (uint32_t)req->num_lines;
	udrv_strlcpy(lr.consumer, req->consumer, sizeof(lr.consumer));
	lr.event_buffer_size = config->event_buffer_size;
	priv = cdev_priv_new(req->num_lines);
	if (!priv)
		return udrv_err(chip->errmsg, ENOMEM, "out of memory");
	if (ioctl(chip->fd, GPIO_V2_GET_LINE_IOCTL, &lr) < 0) {
		ret = errno;
		free(priv);
		return cdev_request_error(req, chip, ret);
	}
	req->fd = lr.fd;
	req->priv = priv;
	return 0;
}

/*
 * Is @fd a line request? The kernel names its file anon_inode:gpio-line
 * (gpiolib-cdev's linereq_create). Without /proc, nothing to compare.
 */
static int cdev_is_line_request(struct udrv_chip *chip, int fd)
{
	char link[40], target[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return 0;
	target[n] = '\0';
	if (!strcmp(target, "anon_inode:gpio-line"))
		return 0;
	return udrv_err(chip->errmsg, EINVAL,
			"file descriptor %d is %s, not a GPIO line request (anon_inode:gpio-line): pass the descriptor its holder handed over",
			fd, target);
}

/*
 * A request someone else made (udrvd's GetFd, a parent): @fd is taken as
 * is. Linux 6.1 does not say which lines a request holds; a get of line
 * n-1 fails when it holds fewer than n. The lines' levels go into the
 * settings (the rest is the holder's, unknown here: a reconfigure gives
 * every setting anew).
 */
static int cdev_adopt(struct udrv_request *req, struct udrv_chip *chip, int fd)
{
	struct gpio_v2_line_values lv = { .mask = 1ULL << (req->num_lines - 1) };
	struct cdev_priv *priv;
	int ret = cdev_is_line_request(chip, fd);

	if (ret)
		return ret;
	if (ioctl(fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &lv) == 0) {
		lv.mask = req->num_lines == 64 ? ~0ULL :
			  (1ULL << req->num_lines) - 1;
		ret = ioctl(fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &lv);
	} else {
		ret = -1;
	}
	if (ret < 0) {
		ret = errno;
		return udrv_err(chip->errmsg, ret,
				"the line request behind file descriptor %d %s: ask its holder for the request of these %zu lines",
				fd, ret == EINVAL ? "holds fewer lines than given" :
				strerror(ret), req->num_lines);
	}
	for (size_t i = 0; i < req->num_lines; i++)
		req->settings[i].value = (int)(lv.bits >> i & 1);
	priv = cdev_priv_new(req->num_lines);
	if (!priv)
		return udrv_err(chip->errmsg, ENOMEM, "out of memory");
	req->fd = fd;
	req->priv = priv;
	return 0;
}

static void cdev_release(struct udrv_request *req)
{
	if (req->fd >= 0)
		close(req->fd);
	req->fd = -1;
	free(req->priv);
	req->priv = NULL;
}

__attribute__((cold))
static int cdev_errno(struct udrv_request *req, const char *what)
{
	char buf[128];
	int err = errno;

	if (err == ENODEV) {
		snprintf(buf, sizeof(buf), "%s: %s", what, strerror(err));
		return udrv_request_gone(req, buf);
	}
	return udrv_err(req->errmsg, err, "%s on %s lines: %s%s", what,
			req->chip_name, strerror(err),
			err == EPERM ? " (the lines are inputs, or the driver refused)" :
			"");
}

static int cdev_get(struct udrv_request *req, uint64_t mask, uint64_t *values)
{
	struct gpio_v2_line_values lv = { .mask = mask };

	if (ioctl(req->fd, GPIO_V2_LINE_GET_VALUES_IOCTL, &lv) < 0)
		return cdev_errno(req, "GPIO_V2_LINE_GET_VALUES_IOCTL");
	*values = lv.bits;
	return 0;
}

static int cdev_set(struct udrv_request *req, uint64_t mask, uint64_t values)
{
	struct gpio_v2_line_values lv = { .bits = values, .mask = mask };

	if (ioctl(req->fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &lv) < 0)
		return cdev_errno(req, "GPIO_V2_LINE_SET_VALUES_IOCTL");
	return 0;
}

/* One line, one ioctl with an argument made at request time. */
static int cdev_set_value(struct udrv_request *req, size_t idx, int value)
{
	struct cdev_priv *priv = req->priv;
	int ret = ioctl(req->fd, GPIO_V2_LINE_SET_VALUES_IOCTL,
			&priv->one[idx][value != 0]);

	if (ret < 0)
		return cdev_errno(req, "GPIO_V2_LINE_SET_VALUES_IOCTL");
	return ret;	/* 0 */
}

static int cdev_reconfigure(struct udrv_request *req,
			    const struct udrv_line_settings *settings)
{
	struct gpio_v2_line_config cfg;
	int ret;

	ret = build_config(req->errmsg, settings, req->num_lines, &cfg);
	if (ret)
		return ret;
	if (ioctl(req->fd, GPIO_V2_LINE_SET_CONFIG_IOCTL, &cfg) < 0)
		return cdev_errno(req, "GPIO_V2_LINE_SET_CONFIG_IOCTL");
	return 0;
}

/*
 * Event delivery: the kernel's events are read straight into the caller's
 * buffer (struct udrv_edge_event has the kernel's layout), then each gets
 * its request index and lost count. Errors and retries are cold.
 */
_Static_assert(sizeof(struct udrv_edge_event) ==
	       sizeof(struct gpio_v2_line_event), "udrv_edge_event layout");
_Static_assert(offsetof(struct udrv_edge_event, edge) ==
	       offsetof(struct gpio_v2_line_event, id), "edge at id");
_Static_assert(offsetof(struct udrv_edge_event, offset) ==
	       offsetof(struct gpio_v2_line_event, offset), "offset");
_Static_assert(offsetof(struct udrv_edge_event, seqno) ==
	       offsetof(struct gpio_v2_line_event, seqno), "seqno");
_Static_assert(offsetof(struct udrv_edge_event, line_seqno) ==
	       offsetof(struct gpio_v2_line_event, line_seqno), "line_seqno");
_Static_assert((int)UDRV_EDGE_RISING == (int)GPIO_V2_LINE_EVENT_RISING_EDGE &&
	       (int)UDRV_EDGE_FALLING == (int)GPIO_V2_LINE_EVENT_FALLING_EDGE,
	       "edge values are the kernel's");

/*
 * A read that returned no event. A signal ends it with -EINTR (when the
 * handler was installed without SA_RESTART; with SA_RESTART the kernel
 * restarts the read itself), like the waits. The chip gone: ENODEV, or an
 * end of file.
 */
__attribute__((cold))
static int cdev_read_failed(struct udrv_request *req, ssize_t n)
{
	if (n < 0 && errno == EINTR)
		return udrv_err(req->errmsg, EINTR,
				"reading %s events: interrupted by a signal",
				req->chip_name);
	if (n < 0)
		return cdev_errno(req, "read of edge events");
	return udrv_request_gone(req,
				 "read of edge events returned end of file");
}

static inline void event_fixup(struct udrv_request *req,
			       struct cdev_priv *priv,
			       struct udrv_edge_event *ev)
{
	/* seqno restarts at 1 per request; a gap means the kernel dropped */
	int32_t gap = (int32_t)(ev->seqno - priv->last_seqno - 1);
	uint32_t lost = gap > 0 ? (uint32_t)gap : 0;

	ev->index = (unsigned int)udrv_request_index(req, ev->offset);
	ev->lost = lost;
	req->lost += lost;
	priv->last_seqno = ev->seqno;
}

static int cdev_read_events(struct udrv_request *req,
			    struct udrv_edge_event *buf, size_t max)
{
	struct cdev_priv *priv;
	size_t count = max < INT_MAX / sizeof(*buf) ? max : INT_MAX / sizeof(*buf);
	ssize_t n = read(req->fd, buf, count * sizeof(*buf));

	/* the kernel returns whole events only (gpiolib-cdev linereq_read) */
	if (n <= 0)
		return cdev_read_failed(req, n);
	count = (size_t)n / sizeof(*buf);
	priv = req->priv;
	for (size_t i = 0; i < count; i++)
		event_fixup(req, priv, &buf[i]);
	return (int)count;
}

const struct udrv_backend_ops udrv_cdev_ops = {
	.name = "cdev",
	.request = cdev_request,
	.adopt = cdev_adopt,
	.release = cdev_release,
	.get = cdev_get,
	.set = cdev_set,
	.set_value = cdev_set_value,
	.reconfigure = cdev_reconfigure,
	.read_events = cdev_read_events,
};
