// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench toggle: the rows through a broker that owns io.gpiod1 (udrvd,
 * docs/udrvd.md, and libgpiod's gpio-manager), on the same line as the
 * others, each in udrv-bench-dbus (rig/bench/peers/: sd-bus, which the
 * static bench cannot link), a child at the bench's policy, priority and
 * CPUs, that requests the line through the broker and toggles it as the
 * libgpiod row's peer does ("batch N", "set V"):
 *
 *   cdev/udrvd-fd         the request's fd from udrvd (io.udrv1.Request.GetFd),
 *                         cdev/raw's ioctl loop on it: the fast path, against
 *                         cdev/raw (a line the bench requested itself)
 *   dbus/gpio-manager     one io.gpiod1.Request.SetValues call per toggle
 *   dbus/udrvd            the same call to udrvd, against gpio-manager's
 *   gpiocli/gpio-manager  one `gpiocli set LINE=...` process per toggle
 *   gpiocli/udrvd         the same against udrvd, against gpio-manager's
 *
 * A row runs when its broker's bus is given (--udrvd, --gpio-manager; the
 * gpiocli rows also need --gpiocli). The D-Bus rows toggle 1/DBUS_SHARE of
 * --samples, the gpiocli rows 1/GPIOCLI_SHARE, in short batches.
 */
#include <stdio.h>
#include <string.h>

#include "toggle.h"
#include "msg.h"

#define DBUS_SHARE	200	/* a round trip through the bus daemon: ~1000x an ioctl */
#define DBUS_BATCH	16
#define GPIOCLI_SHARE	20000	/* a process per toggle */
#define GPIOCLI_BATCH	2

static int dbus_error(struct toggle *t, const char *what, const char *why)
{
	if (bench_interrupted())
		return -1;	/* bench_end says so */
	bench_error(-1, "%s: %s: %s", BENCH_DBUS_NAME, what, why);
	return -1;
}

static int store_run_line(void *ctx, size_t key, const uint64_t *vals)
{
	bench_peer_run_store(ctx, key + 1, vals);	/* no "libgpiod" line */
	return 0;
}

/* the row's peer: t->impl says which broker and which --via */
static int dbus_open(struct toggle *t)
{
	const struct toggle_impl *impl = t->impl;
	static const struct bench_peer_key keys[] = { BENCH_DBUS_RUN_TABLE };
	char line[16], why[320];
	const char *args[] = { "toggle", "--bus", impl->udrvd ? t->udrvd_bus : t->manager_bus,
			       "--chip", udrv_chip_name(t->chip), "--line", line,
			       "--via", impl->peer_via, "--gpiocli", t->gpiocli ? t->gpiocli : "gpiocli",
			       t->run.o.mlock ? "--mlock" : NULL, NULL };
	struct bench_peer_run run = { 0 };

	snprintf(line, sizeof(line), "%u", t->line);
	if (bench_peer_prog_start(&t->peer, &bench_peer_dbus, args, true, why, sizeof(why)))
		return dbus_error(t, "starting it", why);
	if (!bench_peer_read(&t->peer, keys, BENCH_DBUS_RUN_KEYS, "ready",
			     store_run_line, &run, why, sizeof(why)) &&
	    !bench_peer_prog_check(&bench_peer_dbus, &run, t->run.o.mlock, why, sizeof(why)))
		return 0;
	dbus_error(t, impl->implementation, why);
	toggle_peer_close(t);
	return -1;
}

const struct toggle_impl toggle_udrvd_fd = {
	.mechanism = "cdev", .implementation = "udrvd-fd",
	.open = dbus_open, .timed = toggle_peer_timed,
	.set = toggle_peer_set, .close = toggle_peer_close,
	.note = "bare GPIO_V2_LINE_SET_VALUES_IOCTL on the fd udrvd hands over (io.udrv1.Request.GetFd)",
	.peer_via = "fd", .udrvd = true,
};

const struct toggle_impl toggle_dbus_manager = {
	.mechanism = "dbus", .implementation = "gpio-manager",
	.open = dbus_open, .timed = toggle_peer_timed,
	.set = toggle_peer_set, .close = toggle_peer_close,
	.note = "io.gpiod1.Request.SetValues to libgpiod 2.2.1's gpio-manager, one call per toggle (sd-bus)",
	.share = DBUS_SHARE, .max_batch = DBUS_BATCH, .peer_via = "dbus",
};

const struct toggle_impl toggle_dbus_udrvd = {
	.mechanism = "dbus", .implementation = "udrvd",
	.open = dbus_open, .timed = toggle_peer_timed,
	.set = toggle_peer_set, .close = toggle_peer_close,
	.note = "io.gpiod1.Request.SetValues to udrvd, one call per toggle (sd-bus)",
	.share = DBUS_SHARE, .max_batch = DBUS_BATCH, .peer_via = "dbus", .udrvd = true,
};

const struct toggle_impl toggle_gpiocli_manager = {
	.mechanism = "gpiocli", .implementation = "gpio-manager",
	.open = dbus_open, .timed = toggle_peer_timed,
	.set = toggle_peer_set, .close = toggle_peer_close,
	.note = "one `gpiocli set LINE=active|inactive` process per toggle, to gpio-manager",
	.share = GPIOCLI_SHARE, .max_batch = GPIOCLI_BATCH, .peer_via = "gpiocli",
};

const struct toggle_impl toggle_gpiocli_udrvd = {
	.mechanism = "gpiocli", .implementation = "udrvd",
	.open = dbus_open, .timed = toggle_peer_timed,
	.set = toggle_peer_set, .close = toggle_peer_close,
	.note = "one `gpiocli set LINE=active|inactive` process per toggle, to udrvd",
	.share = GPIOCLI_SHARE, .max_batch = GPIOCLI_BATCH, .peer_via = "gpiocli", .udrvd = true,
};

const char *toggle_dbus_absent(const struct toggle *t, const struct toggle_impl *impl)
{
	char path[256];

	if (!(impl->udrvd ? t->udrvd_bus : t->manager_bus))
		return "";	/* not asked for: no note */
	if (!strcmp(impl->mechanism, "gpiocli") && !t->gpiocli)
		return "";
	if (!udrv_chip_has_cdev(t->chip))
		return "the chip has no character device";
	return bench_peer_prog_path(&bench_peer_dbus, path, sizeof(path)) ? BENCH_DBUS_ABSENT : NULL;
}
