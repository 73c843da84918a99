// SPDX-License-Identifier: GPL-2.0-only
/* D-Bus messages from fuzzed bytes: see fuzz_sdbus.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <systemd/sd-id128.h>

#include "fuzz_sdbus.h"

uint64_t fuzz_take(struct fuzz_stream *s, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n && s->left; i++, s->left--)
		v = v << 8 | *s->p++;
	return v;
}

/* The end of the single complete type at @sig. */
static const char *type_end(const char *sig)
{
	if (*sig == 'a')
		return type_end(sig + 1);
	if (*sig == '(' || *sig == '{') {
		char close = *sig == '(' ? ')' : '}';

		for (sig++; *sig && *sig != close;)
			sig = type_end(sig);
	}
	return *sig ? sig + 1 : sig;
}

static int append(sd_bus_message *m, const char *sig, const char *end, struct fuzz_stream *s);

static int append_string(sd_bus_message *m, char type, struct fuzz_stream *s)
{
	char buf[256];
	size_t n = (size_t)fuzz_take(s, 1);

	n = n < s->left ? n : s->left;
	if (n) {
		memcpy(buf, s->p, n);
		s->p += n;
		s->left -= n;
	}
	buf[n] = '\0';
	return sd_bus_message_append_basic(m, type, buf);
}

static int append_basic(sd_bus_message *m, char type, struct fuzz_stream *s)
{
	static const size_t sizes[128] = {
		['y'] = 1, ['b'] = 1, ['n'] = 2, ['q'] = 2, ['i'] = 4, ['u'] = 4,
		['x'] = 8, ['t'] = 8, ['d'] = 8,
	};
	uint64_t v;
	union { uint8_t y; int b; int16_t n; uint16_t q; int32_t i; uint32_t u; uint64_t t;
		double d; } u;

	if (type == 's' || type == 'o' || type == 'g')
		return append_string(m, type, s);
	if ((unsigned char)type >= 128 || !sizes[(unsigned char)type])
		return -EINVAL;		/* h: no fds here */
	v = fuzz_take(s, sizes[(unsigned char)type]);
	switch (type) {
	case 'y': u.y = (uint8_t)v; break;
	case 'b': u.b = (int)(v & 1); break;
	case 'n': u.n = (int16_t)v; break;
	case 'q': u.q = (uint16_t)v; break;
	case 'i': u.i = (int32_t)v; break;
	case 'u': u.u = (uint32_t)v; break;
	case 'd': memcpy(&u.d, &v, sizeof(u.d)); break;
	default: u.t = v; break;
	}
	return sd_bus_message_append_basic(m, type, &u);
}

static int append_container(sd_bus_message *m, const char *sig, const char *end,
			    struct fuzz_stream *s)
{
	static const char *const variants[] = {
		"s", "b", "x", "u", "i", "t", "as", "(s)", "a{sv}", "o", "au",
	};
	char contents[256];
	int r;

	if (*sig == 'v') {
		const char *v = variants[fuzz_take(s, 1) % (sizeof(variants) / sizeof(variants[0]))];

		r = sd_bus_message_open_container(m, 'v', v);
		if (r >= 0)
			r = append(m, v, v + strlen(v), s);
		return r < 0 ? r : sd_bus_message_close_container(m);
	}
	if (*sig == 'a') {
		size_t n = (size_t)fuzz_take(s, 1) % 5;

		snprintf(contents, sizeof(contents), "%.*s", (int)(end - sig - 1), sig + 1);
		r = sd_bus_message_open_container(m, 'a', contents);
		for (size_t i = 0; i < n && r >= 0; i++)
			r = append(m, sig + 1, end, s);
		return r < 0 ? r : sd_bus_message_close_container(m);
	}
	snprintf(contents, sizeof(contents), "%.*s", (int)(end - sig - 2), sig + 1);
	r = sd_bus_message_open_container(m, *sig == '(' ? 'r' : 'e', contents);
	if (r >= 0)
		r = append(m, sig + 1, end - 1, s);
	return r < 0 ? r : sd_bus_message_close_container(m);
}

/* The complete types in [@sig, @end), with values from @s. */
static int append(sd_bus_message *m, const char *sig, const char *end, struct fuzz_stream *s)
{
	while (sig < end) {
		const char *next = type_end(sig);
		int r = strchr("av({", *sig) ? append_container(m, sig, next, s) :
						append_basic(m, *sig, s);

		if (r < 0)
			return r;
		sig = next;
	}
	return 0;
}

int fuzz_append(sd_bus_message *m, const char *sig, struct fuzz_stream *s)
{
	return strlen(sig) >= 200 ? -EINVAL : append(m, sig, sig + strlen(sig), s);
}

sd_bus *fuzz_bus(void)
{
	static sd_bus *bus;
	sd_id128_t id;
	int sv[2];

	if (bus)
		return bus;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 || sd_bus_new(&bus) < 0 ||
	    sd_bus_set_fd(bus, sv[0], sv[0]) < 0 || sd_id128_randomize(&id) < 0 ||
	    sd_bus_set_server(bus, 1, id) < 0 || sd_bus_set_anonymous(bus, 1) < 0 ||
	    sd_bus_start(bus) < 0)
		abort();
	return bus;
}

sd_bus_message *fuzz_msg(const struct fuzz_parts *parts, const char *path, const char *iface,
			 const char *member)
{
	sd_bus_message *m = NULL;
	char *sig = fuzz_str(parts, 0);
	struct fuzz_stream s = {
		.p = fuzz_has(parts, 1) ? parts->p[1] : NULL,
		.left = fuzz_has(parts, 1) ? parts->len[1] : 0,
	};

	if (sd_bus_message_new_method_call(fuzz_bus(), &m, "io.gpiod1", path, iface, member) < 0)
		abort();
	if (strlen(sig) >= 200 || append(m, sig, sig + strlen(sig), &s) < 0 ||
	    sd_bus_message_seal(m, 1, 0) < 0 || sd_bus_message_rewind(m, 1) < 0)
		m = sd_bus_message_unref(m);
	free(sig);
	return m;
}
