// SPDX-License-Identifier: GPL-2.0-only
/*
 * The backend registry (lib/gpio/backends.c): every entry a complete ops table
 * whose name round-trips through udrv_backend_parse() and udrv_backend_str(),
 * no name twice, and the public names unchanged.
 *
 * Built twice (tests/lib/meson.build). test_backends checks the library's
 * own table. test_backends_toy links every object of libudrv but
 * lib/gpio/backends.c, and this file's table in its place, with a toy backend
 * added at index 3 and nowhere else: the same checks, then the toy is found
 * by name and a request with .backend = 3 runs on its ops, and the CLI's
 * list of backends (tools/cli_backends.c) names it. That is the promise of
 * the registry: a backend registers in one place.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <udrv/udrv.h>

#include "cli.h"
#include "gpio/backend.h"
#include "fake_gpio.h"
#include "harness.h"

#ifdef UDRV_TEST_TOY_BACKEND
#define CLI_NAMES	"cdev, sysfs, mmio or toy"
#else
#define CLI_NAMES	"cdev, sysfs or mmio"
#endif

/* The CLI's --backend message names the registry's backends, no others. */
static void test_cli_names(void)
{
	char buf[64], small[8];

	cli_backend_names(buf, sizeof(buf));
	CHECK_STR(buf, CLI_NAMES);
	cli_backend_names(small, sizeof(small));
	CHECK_STR(small, "cdev, s");	/* cut short, terminated */
}

/* The public names: callers and the CLI's --backend spell them. */
static void test_public_names(void)
{
	static const struct {
		enum udrv_backend b;
		const char *name;
	} pub[] = {
		{ UDRV_BACKEND_CDEV, "cdev" },
		{ UDRV_BACKEND_SYSFS, "sysfs" },
		{ UDRV_BACKEND_MMIO, "mmio" },
	};
	enum udrv_backend b;

	for (size_t i = 0; i < ARRAY_SIZE(pub); i++) {
		CHECK_STR(udrv_backend_str(pub[i].b), pub[i].name);
		b = (enum udrv_backend)99;
		CHECK_INT(udrv_backend_parse(pub[i].name, &b), 0);
		CHECK_INT(b, pub[i].b);
	}
}

/* Entries 0..N-1: an ops table each, with the hooks request.c calls
 * unchecked (adopt and set_value are optional), and a name. */
static void test_entries_complete(void)
{
	CHECK(udrv_num_backends >= 3);
	for (size_t i = 0; i < udrv_num_backends; i++) {
		const struct udrv_backend_ops *ops = udrv_backends[i];

		if (!ops) {
			harness_fail(__FILE__, __LINE__, "udrv_backends[%zu] is NULL", i);
			continue;
		}
		if (!ops->name || !ops->name[0] || !ops->request ||
		    !ops->release || !ops->get || !ops->set ||
		    !ops->reconfigure || !ops->read_events)
			harness_fail(__FILE__, __LINE__,
				     "udrv_backends[%zu] (%s) lacks its name or a mandatory hook",
				     i, ops->name ? ops->name : "(null)");
	}
}

/* Each name back to its index: a name given twice would parse to the first. */
static void test_names_round_trip(void)
{
	for (size_t i = 0; i < udrv_num_backends; i++) {
		enum udrv_backend b = (enum udrv_backend)99;
		const char *name = udrv_backend_str((enum udrv_backend)i);

		if (!udrv_backends[i])
			continue;	/* test_entries_complete says so */
		CHECK_STR(name, udrv_backends[i]->name);
		CHECK_INT(udrv_backend_parse(name, &b), 0);
		if (b != (enum udrv_backend)i)
			harness_fail(__FILE__, __LINE__,
				     "\"%s\" (udrv_backends[%zu]) parses to %d",
				     name, i, (int)b);
	}
}

static void test_names_distinct(void)
{
	for (size_t i = 0; i < udrv_num_backends; i++)
		for (size_t j = 0; j < i; j++)
			if (udrv_backends[i] && udrv_backends[j] &&
			    !strcmp(udrv_backends[i]->name, udrv_backends[j]->name))
				harness_fail(__FILE__, __LINE__,
					     "udrv_backends[%zu] and [%zu] are both \"%s\"",
					     j, i, udrv_backends[i]->name);
}

/* Outside the table: "unknown" and -EINVAL, as before the registry. */
static void test_unknown(void)
{
	enum udrv_backend b = (enum udrv_backend)42;

	CHECK_STR(udrv_backend_str((enum udrv_backend)udrv_num_backends), "unknown");
	CHECK_STR(udrv_backend_str((enum udrv_backend)-1), "unknown");
	CHECK_INT(udrv_backend_parse("unknown", &b), -EINVAL);
	CHECK_INT(udrv_backend_parse("", &b), -EINVAL);
	CHECK_INT(udrv_backend_parse("CDEV", &b), -EINVAL);
	CHECK_INT(udrv_backend_parse("cdev ", &b), -EINVAL);
	CHECK_INT(b, 42);	/* untouched on failure */
}

#ifdef UDRV_TEST_TOY_BACKEND

#define TOY	3

/* The toy's state, and which hooks ran (each test is a fresh child). */
static struct {
	int requests, sets, releases;
	uint64_t values;
} toy;

/* One line at most: a second one shows that the toy's error surfaces. */
static int toy_request(struct udrv_request *req, struct udrv_chip *chip,
		       const struct udrv_request_config *config)
{
	toy.requests++;
	if (req->num_lines > 1)
		return udrv_err(chip->errmsg, ENOTSUP,
				"toy backend: %zu lines asked, it drives one",
				req->num_lines);
	return 0;
}

static void toy_release(struct udrv_request *req)
{
	toy.releases++;
}

static int toy_get(struct udrv_request *req, uint64_t mask, uint64_t *values)
{
	*values = toy.values & mask;
	return 0;
}

static int toy_set(struct udrv_request *req, uint64_t mask, uint64_t values)
{
	toy.sets++;
	toy.values = (toy.values & ~mask) | (values & mask);
	return 0;
}

static int toy_reconfigure(struct udrv_request *req,
			   const struct udrv_line_settings *settings)
{
	return -EOPNOTSUPP;
}

static int toy_read_events(struct udrv_request *req,
			   struct udrv_edge_event *buf, size_t max)
{
	return -EOPNOTSUPP;
}

static const struct udrv_backend_ops toy_ops = {
	.name = "toy",
	.request = toy_request,
	.release = toy_release,
	.get = toy_get,
	.set = toy_set,
	.reconfigure = toy_reconfigure,
	.read_events = toy_read_events,
};

/* In place of lib/gpio/backends.c: its three lines, and the toy's. */
const struct udrv_backend_ops *const udrv_backends[] = {
	[UDRV_BACKEND_CDEV] = &udrv_cdev_ops,
	[UDRV_BACKEND_SYSFS] = &udrv_sysfs_ops,
	[UDRV_BACKEND_MMIO] = &udrv_mmio_ops,
	[TOY] = &toy_ops,
};

const size_t udrv_num_backends = ARRAY_SIZE(udrv_backends);

static void test_toy_by_name(void)
{
	enum udrv_backend b = UDRV_BACKEND_CDEV;

	CHECK_INT(udrv_num_backends, 4);
	CHECK_INT(udrv_backend_parse("toy", &b), 0);
	CHECK_INT(b, TOY);
	CHECK_STR(udrv_backend_str((enum udrv_backend)TOY), "toy");
}

static struct udrv_chip *toy_chip(void)
{
	struct udrv_chip *chip = udrv_chip_new();

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, "wire", 512, 8, "fake-wire");
	CHECK_INT(udrv_chip_open(chip, "fake-wire"), 0);
	return chip;
}

/* The front end checks the arguments, then every call goes to the toy. */
static void test_toy_request(void)
{
	static const struct udrv_request_config cfg = {
		.backend = (enum udrv_backend)TOY,
	};
	struct udrv_line_settings out = { .direction = UDRV_DIR_OUTPUT };
	struct udrv_chip *chip = toy_chip();
	struct udrv_request *req = NULL;
	unsigned int off = 5;

	CHECK_INT(udrv_chip_request(chip, &cfg, 1, &off, &out, &req), 0);
	CHECK_INT(toy.requests, 1);
	if (!req) {
		udrv_chip_free(chip);
		return;
	}
	CHECK_INT(udrv_request_backend(req), TOY);
	CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
	CHECK_INT(toy.sets, 1);
	CHECK_INT(udrv_request_get_value(req, 0), 1);
	CHECK_INT(udrv_request_reconfigure(req, &out), -EOPNOTSUPP);
	udrv_request_release(req);
	CHECK_INT(toy.releases, 1);
	udrv_chip_free(chip);
}

static void test_toy_error_surfaces(void)
{
	static const struct udrv_request_config cfg = {
		.backend = (enum udrv_backend)TOY,
	};
	struct udrv_line_settings in[2] = { 0 };
	struct udrv_chip *chip = toy_chip();
	struct udrv_request *req = NULL;
	unsigned int offs[2] = { 1, 2 };

	CHECK_INT(udrv_chip_request(chip, &cfg, 2, offs, in, &req), -ENOTSUP);
	CHECK(!req);
	CHECK_INT(toy.requests, 1);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "toy backend: 2 lines asked");
	udrv_chip_free(chip);
}

#define TOY_TESTS , UDRV_T(test_toy_by_name), UDRV_T(test_toy_request), \
	UDRV_T(test_toy_error_surfaces)
#else
#define TOY_TESTS
#endif /* UDRV_TEST_TOY_BACKEND */

UDRV_TESTS(UDRV_T(test_public_names), UDRV_T(test_entries_complete),
	   UDRV_T(test_names_round_trip), UDRV_T(test_names_distinct),
	   UDRV_T(test_unknown), UDRV_T(test_cli_names) TOY_TESTS)
