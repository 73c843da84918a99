// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's harness (fuzz_udrvd.c): the calls built from the input's part 2
 * (a caller, what, the object, the body's values), sent and checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-bus.h>

#include "fuzz_udrvd.h"

#define PROPS		"org.freedesktop.DBus.Properties"

const struct step_call STEPS[NSTEPS] = {
	[REQUEST_LINES] = { "io.gpiod1.Chip", "RequestLines", "(a(aua{sv})ai)a{sv}" },
	[RELEASE] = { "io.gpiod1.Request", "Release", "" },
	[RECONFIGURE] = { "io.gpiod1.Request", "ReconfigureLines", "(a(aua{sv})ai)" },
	[GET_VALUES] = { "io.gpiod1.Request", "GetValues", "au" },
	[SET_VALUES] = { "io.gpiod1.Request", "SetValues", "a{ui}" },
	[GET_FD] = { "io.udrv1.Request", "GetFd", "" },
	[OPEN_UIO] = { "io.udrv1.Devices", "OpenUio", "s" },
	[OPEN_VFIO] = { "io.udrv1.Devices", "OpenVfio", "s" },
	[PROP_GET] = { PROPS, "Get", NULL },
	[PROP_GET_ALL] = { PROPS, "GetAll", NULL },
	[PROP_SET] = { PROPS, "Set", NULL },
	[MANAGED_OBJECTS] = { "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", "" },
	[INTROSPECT] = { "org.freedesktop.DBus.Introspectable", "Introspect", "" },
	[PING] = { "org.freedesktop.DBus.Peer", "Ping", "" },
	[ANY] = { NULL, NULL, NULL },
	[LEAVE] = { NULL, NULL, NULL },
	[HOTPLUG] = { HOTPLUG_IFACE, "Hotplug", "yb" },
	[KERNEL] = { KERNEL_IFACE, "Event", "yuy" },
	[OPEN_SPI] = { "io.udrv1.Devices", "OpenSpi", "s" },
	[OPEN_I2C_BUS] = { "io.udrv1.Devices", "OpenI2cBus", "s" },
	[I2C_TRANSFER] = { "io.udrv1.I2c", "Transfer", "sa(qqqay)" },
	[I2C_READ_BYTE] = { "io.udrv1.I2c", "ReadByteData", "sqy" },
	[I2C_WRITE_WORD] = { "io.udrv1.I2c", "WriteWordData", "sqyq" },
};

static const char *const IFACES[] = {
	"io.gpiod1.Chip", "io.gpiod1.Line", "io.gpiod1.Request", "io.udrv1.Request",
	"io.udrv1.Devices", "io.udrv1.I2c", PROPS, "org.freedesktop.DBus.ObjectManager", "",
};

static const char *const PROPERTIES[] = {
	"Name", "Label", "NumLines", "Path", "Offset", "Used", "Consumer", "Direction",
	"EdgeDetection", "Bias", "Drive", "ActiveLow", "Debounced", "DebouncePeriodUs",
	"EventClock", "Managed", "RequestPath", "ChipPath", "LinePaths", "Owner",
};

#define N(a)	(sizeof(a) / sizeof((a)[0]))

/* A string from @s (a length byte, that many bytes) into @buf; "" when the
 * stream ends. */
static const char *take_str(struct fuzz_stream *s, char *buf, size_t len)
{
	size_t n = (size_t)fuzz_take(s, 1);

	n = n < s->left ? n : s->left;
	n = n < len - 1 ? n : len - 1;
	memcpy(buf, s->p, n);
	buf[n] = '\0';
	s->p += n;
	s->left -= n;
	return buf;
}

/* A name from @table by a byte of @s; its last choice a string of @s. */
static const char *take_name(struct fuzz_stream *s, const char *const *table, size_t n,
			     char *buf, size_t len)
{
	size_t i = (size_t)fuzz_take(s, 1) % (n + 1);

	return i < n ? table[i] : take_str(s, buf, len);
}

/* The object a call goes to, from @s. */
static void target(struct fuzz_stream *s, char *path, size_t len)
{
	unsigned int kind = (unsigned int)fuzz_take(s, 1) % 8;
	unsigned int arg = kind < 6 ? (unsigned int)fuzz_take(s, 1) : 0;
	char buf[128];

	switch (kind) {
	case 0:
		snprintf(path, len, UDRVD_CHIPS_PATH "/gpiochip%u", arg % (unsigned int)(NCHIPS + 1));
		break;
	case 1:
		snprintf(path, len, UDRVD_CHIPS_PATH "/gpiochip%u/line%u",
			 arg % (unsigned int)NCHIPS, (unsigned int)fuzz_take(s, 1) % 70);
		break;
	case 2:
		snprintf(path, len, UDRVD_REQUESTS_PATH "/request%u", arg % 16);
		break;
	case 3:
		snprintf(path, len, "%s", UDRVD_DEVICES_PATH);
		break;
	case 4:
		snprintf(path, len, "%s", arg & 1 ? UDRVD_REQUESTS_PATH : UDRVD_CHIPS_PATH);
		break;
	case 5:
		snprintf(path, len, "%s", arg & 1 ? "/" : "/io/gpiod1");
		break;
	default:
		take_str(s, buf, sizeof(buf));
		snprintf(path, len, "%s", sd_bus_object_path_is_valid(buf) ? buf : "/io");
		break;
	}
}

/* The body of a Properties call from @s into @m. */
static int props_body(sd_bus_message *m, enum step step, struct fuzz_stream *s)
{
	char ibuf[64], pbuf[64];
	const char *iface = take_name(s, IFACES, N(IFACES), ibuf, sizeof(ibuf));
	int r;

	if (step == PROP_GET_ALL)
		return sd_bus_message_append(m, "s", iface);
	r = sd_bus_message_append(m, "ss", iface,
				  take_name(s, PROPERTIES, N(PROPERTIES), pbuf, sizeof(pbuf)));
	if (r >= 0 && step == PROP_SET)
		r = fuzz_append(m, "v", s);
	return r;
}

bool next_call(struct bus *b, struct fuzz_stream *s)
{
	size_t who;
	enum step st;
	sd_bus_message *m = NULL, *reply;
	char path[UDRVD_PATH_LEN * 2], ibuf[64], mbuf[64], sbuf[64], what[256];
	const char *iface, *member, *sig;
	int r;

	if (!s->left)
		return false;
	who = (size_t)fuzz_take(s, 1) % NCALLERS;
	st = (enum step)(fuzz_take(s, 1) % NSTEPS);
	if (st == LEAVE) {
		bus_leave(b, who);
		return true;
	}
	if (st == HOTPLUG || st == KERNEL)
		snprintf(path, sizeof(path), "%s", st == HOTPLUG ? HOTPLUG_PATH : KERNEL_PATH);
	else
		target(s, path, sizeof(path));
	iface = STEPS[st].iface;
	member = STEPS[st].member;
	sig = STEPS[st].sig;
	if (st == ANY) {
		iface = take_name(s, IFACES, N(IFACES), ibuf, sizeof(ibuf));
		member = take_str(s, mbuf, sizeof(mbuf));
		sig = take_str(s, sbuf, sizeof(sbuf));
		if (!sd_bus_interface_name_is_valid(iface))
			iface = NULL;
		if (!sd_bus_member_name_is_valid(member))
			return true;
	}
	if (sd_bus_message_new_method_call(b->bus, &m, UDRVD_BUS_NAME, path, iface, member) < 0)
		abort();
	r = sd_bus_message_set_sender(m, b->names[who]);
	if (r >= 0)
		r = sig ? fuzz_append(m, sig, s) : props_body(m, st, s);
	if (r < 0) {		/* values that make no message: no call */
		sd_bus_message_unref(m);
		return true;
	}
	snprintf(what, sizeof(what), "%s.%s on %s from %s", iface ? iface : "(none)", member,
		 path, b->names[who]);
	reply = bus_call(b, m, what);
	if (getenv("UDRV_FUZZ_TRACE")) {	/* what each call got, for writing seeds */
		const sd_bus_error *e = reply ? sd_bus_message_get_error(reply) : NULL;

		fprintf(stderr, "fuzz_udrvd: %s (%s): %s%s%s\n", what, sig ? sig : "props",
			e ? e->name : "ok", e ? ": " : "", e && e->message ? e->message : "");
	}
	check_answer(b, st, path, m, reply, CALLERS[who].unknown ? NULL : &CALLERS[who]);
	sd_bus_message_unref(reply);
	sd_bus_message_unref(m);
	return true;
}
