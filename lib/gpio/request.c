// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Line requests, the front end: argument checks, then one call through the
 * backend's ops table. Nothing here knows how a backend does its work.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <udrv/gpio_mmio.h>
#include <udrv/parse.h>

#include "abi.h"
#include "gpio/backend.h"

/*
 * udrv_request_wait_events() polls in slices of at most this long. Debian
 * 12's 6.1 kernels (std and PREEMPT_RT, measured in the lab) do not wake a
 * poll() on a line request when the chip goes away; a new poll() sees
 * POLLERR | POLLHUP at once. Re-polling bounds how late a removal is seen.
 */
#define GONE_POLL_MS	250

/* NULL for a value the registry (lib/gpio/backends.c) has no backend for. */
static const struct udrv_backend_ops *backend_ops(enum udrv_backend b)
{
	return (unsigned int)b < udrv_num_backends ? udrv_backends[b] : NULL;
}

const char *udrv_backend_str(enum udrv_backend backend)
{
	const struct udrv_backend_ops *ops = backend_ops(backend);

	return ops ? ops->name : "unknown";
}

int udrv_backend_parse(const char *str, enum udrv_backend *backend)
{
	for (size_t i = 0; i < udrv_num_backends; i++) {
		if (udrv_backends[i] && !strcmp(str, udrv_backends[i]->name)) {
			*backend = (enum udrv_backend)i;
			return 0;
		}
	}
	return -EINVAL;
}

static int settings_check_one(char *errmsg, const struct udrv_line_settings *s,
			      unsigned int offset)
{
	bool out = s->direction == UDRV_DIR_OUTPUT;

	if (s->direction > UDRV_DIR_OUTPUT || s->bias > UDRV_BIAS_PULL_DOWN ||
	    s->drive > UDRV_DRIVE_OPEN_SOURCE || s->edge > UDRV_EDGE_BOTH ||
	    s->event_clock > UDRV_CLOCK_HTE)
		return udrv_err(errmsg, EINVAL,
				"line %u: a setting is out of range (corrupt settings struct?)",
				offset);
	if (out && s->edge != UDRV_EDGE_NONE)
		return udrv_err(errmsg, EINVAL,
				"line %u: edge detection needs an input; request the line as input to watch edges",
				offset);
	if (out && s->debounce_us)
		return udrv_err(errmsg, EINVAL,
				"line %u: debounce applies to inputs only", offset);
	if (!out && s->drive != UDRV_DRIVE_PUSH_PULL)
		return udrv_err(errmsg, EINVAL,
				"line %u: drive (%s) applies to outputs only",
				offset, udrv_drive_str(s->drive));
	return 0;
}

int udrv_settings_check(char *errmsg, const struct udrv_line_settings *s,
			size_t n, const unsigned int *offsets)
{
	int ret;

	for (size_t i = 0; i < n; i++) {
		ret = settings_check_one(errmsg, &s[i], offsets[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Is offsets[@i] one of the offsets before it? */
static bool offset_repeated(const unsigned int *offsets, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (offsets[j] == offsets[i])
			return true;
	return false;
}

static int request_check(struct udrv_chip *chip, size_t n,
			 const unsigned int *offsets)
{
	if (!chip->name[0])
		return udrv_err(chip->errmsg, EBADF,
				"the chip is not open: call udrv_chip_open() first");
	if (n == 0 || n > UDRV_LINES_MAX)
		return udrv_err(chip->errmsg, EINVAL,
				"cannot request %zu lines: between 1 and %d per request",
				n, UDRV_LINES_MAX);
	for (size_t i = 0; i < n; i++) {
		if (offsets[i] >= chip->num_lines)
			return udrv_err(chip->errmsg, EINVAL,
					"offset %u out of range: %s (%s) has %u lines (0..%u)",
					offsets[i], chip->name, chip->label,
					chip->num_lines,
					chip->num_lines ? chip->num_lines - 1 : 0);
		if (offset_repeated(offsets, i))
			return udrv_err(chip->errmsg, EINVAL,
					"offset %u is requested twice", offsets[i]);
	}
	return 0;
}

static int request_ops(struct udrv_chip *chip, enum udrv_backend backend,
		       const struct udrv_backend_ops **ops)
{
	*ops = backend_ops(backend);
	if (*ops)
		return 0;
	return udrv_err(chip->errmsg, EINVAL, "unknown backend %d", backend);
}

/* udrv_request_set_value() for a backend without a set_value op */
static int set_value_by_mask(struct udrv_request *req, size_t idx, int value)
{
	return req->ops->set(req, 1ULL << idx, value ? 1ULL << idx : 0);
}

/* The caller's settings array (element size @usize) into @st. */
static int settings_in(char *errmsg, struct udrv_line_settings *st,
		       const struct udrv_line_settings *settings, size_t n,
		       size_t usize)
{
	const char *src = (const char *)settings;
	int ret;

	for (size_t i = 0; i < n; i++) {
		ret = udrv_abi_in(errmsg, &udrv_abi_line_settings, &st[i],
				  src + i * usize, usize);
		if (ret)
			return ret;
	}
	return 0;
}

/* The caller's config (and the layout it points to) into @cfg and @layout. */
static int config_in(char *errmsg, struct udrv_request_config *cfg,
		     struct udrv_gpio_layout *layout,
		     const struct udrv_request_config *config, size_t usize)
{
	int ret;

	if (!config) {
		memset(cfg, 0, sizeof(*cfg));
		return 0;
	}
	ret = udrv_abi_in(errmsg, &udrv_abi_request_config, cfg, config, usize);
	if (ret || !cfg->layout)
		return ret;
	if (!cfg->layout_size)
		return udrv_err(errmsg, EINVAL,
				"udrv_request_config.layout is set but layout_size is 0: set it to sizeof(struct udrv_gpio_layout)");
	ret = udrv_abi_in(errmsg, &udrv_abi_gpio_layout, layout, cfg->layout,
			  cfg->layout_size);
	cfg->layout = layout;
	cfg->layout_size = sizeof(*layout);
	return ret;
}

/* A request of @chip's lines, before the backend claims them. */
static struct udrv_request *request_new(const struct udrv_chip *chip,
					const struct udrv_backend_ops *ops,
					enum udrv_backend backend, size_t n,
					const unsigned int *offsets,
					const struct udrv_line_settings *settings,
					const char *consumer)
{
	struct udrv_request *req = calloc(1, sizeof(*req));

	if (!req)
		return NULL;
	req->ops = ops;
	req->set_value = ops->set_value ? ops->set_value : set_value_by_mask;
	req->backend = backend;
	req->fd = -1;
	req->num_lines = n;
	memcpy(req->offsets, offsets, n * sizeof(*offsets));
	memcpy(req->settings, settings, n * sizeof(*settings));
	udrv_strlcpy(req->chip_name, chip->name, sizeof(req->chip_name));
	udrv_strlcpy(req->chip_label, chip->label, sizeof(req->chip_label));
	udrv_strlcpy(req->chip_path, chip->path[0] ? chip->path : chip->name,
		     sizeof(req->chip_path));
	udrv_strlcpy(req->consumer, consumer, sizeof(req->consumer));
	return req;
}

static void lineless_release(struct udrv_request *req)
{
	(void)req;	/* nothing held */
}

static const struct udrv_backend_ops lineless_ops = {
	.name = "none",
	.release = lineless_release,
};

struct udrv_request *udrv_request_lineless(const struct udrv_chip *chip)
{
	static const unsigned int none_offsets[1];
	static const struct udrv_line_settings none_settings[1];

	return request_new(chip, &lineless_ops, UDRV_BACKEND_CDEV, 0, none_offsets,
			   none_settings, "");
}

int udrv_chip_request_sz(struct udrv_chip *chip,
			 const struct udrv_request_config *config,
			 size_t config_size, size_t n,
			 const unsigned int *offsets,
			 const struct udrv_line_settings *settings,
			 size_t settings_size, struct udrv_request **reqp)
{
	struct udrv_line_settings st[UDRV_LINES_MAX];
	struct udrv_request_config cfg;
	struct udrv_gpio_layout layout;
	const struct udrv_backend_ops *ops;
	struct udrv_request *req;
	int ret;

	*reqp = NULL;
	ret = request_check(chip, n, offsets);
	if (!ret)
		ret = settings_in(chip->errmsg, st, settings, n, settings_size);
	if (!ret)
		ret = config_in(chip->errmsg, &cfg, &layout, config, config_size);
	if (!ret)
		ret = udrv_settings_check(chip->errmsg, st, n, offsets);
	if (!ret)
		ret = request_ops(chip, cfg.backend, &ops);
	if (ret)
		return ret;
	req = request_new(chip, ops, cfg.backend, n, offsets, st,
			  cfg.consumer ? cfg.consumer : "udrv");
	if (!req)
		return udrv_err(chip->errmsg, ENOMEM, "out of memory");
	ret = ops->request(req, chip, &cfg);
	if (ret) {
		free(req);
		return ret;
	}
	*reqp = req;
	return 0;
}

/* udrv_request_adopt()'s arguments: a chip's name, 1..64 distinct offsets. */
static int adopt_check(char *errmsg, const char *chip, int fd, size_t n,
		       const unsigned int *offsets, unsigned int *num)
{
	if (!chip || udrv_parse_devnum(chip, "gpiochip", num))
		return udrv_err(errmsg, EINVAL,
				"'%s' is not a GPIO chip's name: give the name of the request's chip (gpiochipN, its number or /dev path)",
				chip ? chip : "(null)");
	if (n == 0 || n > UDRV_LINES_MAX)
		return udrv_err(errmsg, EINVAL,
				"cannot take a request of %zu lines: between 1 and %d",
				n, UDRV_LINES_MAX);
	for (size_t i = 0; i < n; i++)
		if (offset_repeated(offsets, i))
			return udrv_err(errmsg, EINVAL, "offset %u is given twice",
					offsets[i]);
	if (fd < 0 || fcntl(fd, F_GETFD) < 0)
		return udrv_err(errmsg, EBADF,
				"file descriptor %d is not open: pass the line request's descriptor its holder handed over",
				fd);
	return 0;
}

int udrv_request_adopt(const char *chip, int fd, size_t n,
		       const unsigned int *offsets, struct udrv_request **reqp,
		       char *errbuf, size_t errlen)
{
	static const struct udrv_line_settings none[UDRV_LINES_MAX];
	struct udrv_chip c = { .fd = -1 };
	const struct udrv_backend_ops *ops;
	struct udrv_request *req;
	unsigned int num;
	int ret;

	*reqp = NULL;
	ret = adopt_check(c.errmsg, chip, fd, n, offsets, &num);
	if (ret)
		goto out;
	snprintf(c.name, sizeof(c.name), "gpiochip%u", num);
	udrv_strlcpy(c.label, "held elsewhere", sizeof(c.label));
	snprintf(c.path, sizeof(c.path), "/dev/%s", c.name);
	ops = backend_ops(UDRV_BACKEND_CDEV);
	req = request_new(&c, ops, UDRV_BACKEND_CDEV, n, offsets, none, "");
	if (!req) {
		ret = udrv_err(c.errmsg, ENOMEM, "out of memory");
		goto out;
	}
	ret = ops->adopt(req, &c, fd);
	if (ret)
		free(req);
	else
		*reqp = req;
out:
	if (ret && errbuf && errlen)
		udrv_strlcpy(errbuf, c.errmsg, errlen);
	return ret;
}

void udrv_request_release(struct udrv_request *req)
{
	if (!req)
		return;
	req->ops->release(req);
	free(req);
}

const char *udrv_request_errmsg(const struct udrv_request *req)
{
	return req->errmsg;
}

enum udrv_backend udrv_request_backend(const struct udrv_request *req)
{
	return req->backend;
}

size_t udrv_request_num_lines(const struct udrv_request *req)
{
	return req->num_lines;
}

unsigned int udrv_request_offset(const struct udrv_request *req, size_t idx)
{
	return idx < req->num_lines ? req->offsets[idx] : UINT32_MAX;
}

static uint64_t request_all(const struct udrv_request *req)
{
	return req->num_lines == 64 ? ~0ULL : (1ULL << req->num_lines) - 1;
}

__attribute__((cold))
static int bad_mask(struct udrv_request *req, uint64_t mask)
{
	return udrv_err(req->errmsg, EINVAL,
			"mask 0x%llx selects lines beyond the %zu requested",
			(unsigned long long)mask, req->num_lines);
}

int udrv_request_get_values(struct udrv_request *req, uint64_t mask,
			    uint64_t *values)
{
	if (mask & ~request_all(req))
		return bad_mask(req, mask);
	return req->ops->get(req, mask, values);
}

int udrv_request_set_values(struct udrv_request *req, uint64_t mask,
			    uint64_t values)
{
	if (mask & ~request_all(req))
		return bad_mask(req, mask);
	return req->ops->set(req, mask, values);
}

__attribute__((noinline, cold))
static int bad_index(struct udrv_request *req, size_t idx)
{
	return udrv_err(req->errmsg, EINVAL,
			"line index %zu out of range: the request holds %zu lines",
			idx, req->num_lines);
}

int udrv_request_get_value(struct udrv_request *req, size_t idx)
{
	uint64_t values = 0;
	int ret;

	if (idx >= req->num_lines)
		return bad_index(req, idx);
	ret = req->ops->get(req, 1ULL << idx, &values);
	return ret ? ret : (int)((values >> idx) & 1);
}

/*
 * The hot path: a line with a store path is one store, no call into the
 * backend; every other line one jump to the backend's set_value.
 */
int udrv_request_set_value(struct udrv_request *req, size_t idx, int value)
{
	volatile uint32_t *reg;

	if (__builtin_expect(idx < req->num_lines, 1)) {
		reg = req->store.reg[idx][!value];
		if (!reg)
			return req->set_value(req, idx, value);
		*reg = req->store.bit[idx];
		return 0;
	}
	return bad_index(req, idx);
}

int udrv_request_reconfigure_sz(struct udrv_request *req,
				const struct udrv_line_settings *settings,
				size_t settings_size)
{
	struct udrv_line_settings st[UDRV_LINES_MAX];
	int ret;

	ret = settings_in(req->errmsg, st, settings, req->num_lines,
			  settings_size);
	if (!ret)
		ret = udrv_settings_check(req->errmsg, st, req->num_lines,
					  req->offsets);
	if (ret)
		return ret;
	ret = req->ops->reconfigure(req, st);
	if (!ret)
		memcpy(req->settings, st, req->num_lines * sizeof(*st));
	return ret;
}

int udrv_request_fd(const struct udrv_request *req)
{
	return req->fd;
}

__attribute__((cold))
int udrv_request_gone(struct udrv_request *req, const char *what)
{
	return udrv_err(req->errmsg, ENODEV,
			"%s (%s): the device is gone (driver unloaded or unbound): %s; release the request and request the lines again once the driver is back",
			req->chip_path, req->chip_label, what);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

__attribute__((cold))
static int poll_failed(struct udrv_request *req, int err)
{
	if (err == EINTR)
		return udrv_err(req->errmsg, EINTR,
				"waiting for %s events: interrupted by a signal",
				req->chip_name);
	return udrv_err(req->errmsg, err, "poll on %s lines: %s",
			req->chip_name, strerror(err));
}

/* One poll(): 1 events pending, 0 none within @ms, or an error. */
static int poll_events(struct udrv_request *req, int ms)
{
	struct pollfd pfd = { .fd = req->fd, .events = POLLIN | POLLPRI };
	int ret = poll(&pfd, 1, ms);

	if (ret < 0)
		return poll_failed(req, errno);
	if (!ret || (pfd.revents & (POLLIN | POLLPRI)))
		return ret;
	if (pfd.revents & POLLNVAL)
		return udrv_err(req->errmsg, EBADF,
				"%s lines: the request's file descriptor is not open (closed behind udrv's back?)",
				req->chip_name);
	return udrv_request_gone(req, pfd.revents & POLLHUP ?
				 "poll reports POLLHUP" : "poll reports POLLERR");
}

int udrv_request_wait_events(struct udrv_request *req, int timeout_ms)
{
	uint64_t end = timeout_ms > 0 ? now_ms() + (uint64_t)timeout_ms : 0;
	uint64_t now;
	int ret, ms = timeout_ms;

	for (;;) {
		ret = poll_events(req, ms < 0 || ms > GONE_POLL_MS ?
				       GONE_POLL_MS : ms);
		if (ret || !timeout_ms)
			return ret;
		if (timeout_ms > 0) {
			now = now_ms();
			if (now >= end)
				return 0;
			ms = (int)(end - now);
		}
	}
}

/*
 * A caller whose struct udrv_edge_event is not ours (an older or newer
 * header): read into a bounce buffer, copy each event to its stride.
 */
__attribute__((noinline))
static int read_events_bounce(struct udrv_request *req, char *buf, size_t max,
			      size_t usize)
{
	struct udrv_edge_event ev[64];
	int ret = udrv_abi_size(req->errmsg, &udrv_abi_edge_event, usize);

	if (ret)
		return ret;
	ret = req->ops->read_events(req, ev, max < ARRAY_SIZE(ev) ?
				    max : ARRAY_SIZE(ev));
	for (int i = 0; i < ret; i++)
		udrv_abi_out(&udrv_abi_edge_event, buf + (size_t)i * usize,
			     &ev[i], usize);
	return ret;
}

/* Events of our size are read in place: no copy (the kernel's 48 bytes). */
int udrv_request_read_events_sz(struct udrv_request *req,
				struct udrv_edge_event *buf, size_t max,
				size_t event_size)
{
	if (!max)
		return 0;
	if (__builtin_expect(event_size == sizeof(*buf), 1))
		return req->ops->read_events(req, buf, max);
	return read_events_bounce(req, (char *)buf, max, event_size);
}

uint64_t udrv_request_lost_events(const struct udrv_request *req)
{
	return req->lost;
}
