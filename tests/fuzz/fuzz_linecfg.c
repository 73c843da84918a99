// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a client can put in RequestLines' arguments (daemon/linecfg.c):
 * udrvd reads them from the message sd-bus has already taken apart, so the
 * fuzzed input is a message's body of any signature and any values, built
 * with sd-bus as a client would send it.
 *
 * Part 0 of the input is the body's signature (a valid one, or the input
 * is skipped); part 1 the values, taken in order: a byte for y and b, two
 * to eight for the numbers, a length byte and that many bytes for s, o and
 * g (invalid ones skip the input), a count byte (0-4) for an array, a byte
 * choosing a variant's type. The message is then read as RequestLines'
 * (line_config, request_config).
 *
 * Properties:
 *  - linecfg-result: refused with InvalidArgs and a message, or accepted;
 *  - linecfg-valid: what is accepted is a request udrvd can make: 1 to 64
 *    lines, distinct offsets, values 0 or 1, settings within libudrv's
 *    enums, each line's permissions what its settings need (read or drive
 *    by direction, watch with an edge, configure with bias, drive other
 *    than push-pull, active-low or debounce), a consumer of at most 31
 *    bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-id128.h>

#include "fuzz.h"
#include "udrvd.h"

static sd_bus *bus;

struct stream {
	const uint8_t *p;
	size_t left;
};

static uint64_t take(struct stream *s, size_t n)
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

static int append(sd_bus_message *m, const char *sig, const char *end, struct stream *s);

static int append_string(sd_bus_message *m, char type, struct stream *s)
{
	char buf[256];
	size_t n = (size_t)take(s, 1);

	n = n < s->left ? n : s->left;
	if (n) {
		memcpy(buf, s->p, n);
		s->p += n;
		s->left -= n;
	}
	buf[n] = '\0';
	return sd_bus_message_append_basic(m, type, buf);
}

static int append_basic(sd_bus_message *m, char type, struct stream *s)
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
	v = take(s, sizes[(unsigned char)type]);
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
			    struct stream *s)
{
	static const char *const variants[] = { "s", "b", "x", "u", "i", "t", "as", "(s)", "a{sv}" };
	char contents[256];
	int r;

	if (*sig == 'v') {
		const char *v = variants[take(s, 1) % (sizeof(variants) / sizeof(variants[0]))];

		r = sd_bus_message_open_container(m, 'v', v);
		if (r >= 0)
			r = append(m, v, v + strlen(v), s);
		return r < 0 ? r : sd_bus_message_close_container(m);
	}
	if (*sig == 'a') {
		size_t n = (size_t)take(s, 1) % 5;

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
static int append(sd_bus_message *m, const char *sig, const char *end, struct stream *s)
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

static unsigned int needs(const struct udrv_line_settings *st)
{
	unsigned int p = st->direction == UDRV_DIR_OUTPUT ? UDRVD_DRIVE : UDRVD_READ;

	if (st->edge != UDRV_EDGE_NONE)
		p |= UDRVD_WATCH;
	if (st->bias != UDRV_BIAS_AS_IS || st->drive != UDRV_DRIVE_PUSH_PULL ||
	    st->active_low || st->debounce_us)
		p |= UDRVD_CONFIGURE;
	return p;
}

static void check_valid(const struct udrvd_linecfg *cfg)
{
	FUZZ_CHECK(cfg->n >= 1 && cfg->n <= UDRV_LINES_MAX, "%zu lines", cfg->n);
	FUZZ_CHECK(strlen(cfg->consumer) < sizeof(cfg->consumer), "consumer");
	for (size_t i = 0; i < cfg->n; i++) {
		const struct udrv_line_settings *st = &cfg->settings[i];

		for (size_t j = 0; j < i; j++)
			FUZZ_CHECK(cfg->offsets[i] != cfg->offsets[j], "offset %u twice",
				   cfg->offsets[i]);
		FUZZ_CHECK(st->value == 0 || st->value == 1, "value %d", st->value);
		FUZZ_CHECK(st->direction <= UDRV_DIR_OUTPUT && st->edge <= UDRV_EDGE_BOTH &&
			   st->drive <= UDRV_DRIVE_OPEN_SOURCE && st->bias <= UDRV_BIAS_PULL_DOWN &&
			   st->event_clock <= UDRV_CLOCK_HTE, "a setting out of its enum");
		FUZZ_CHECK(cfg->perms[i] == needs(st), "line %zu: permissions %#x for settings "
			   "needing %#x", i, cfg->perms[i], needs(st));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_parts parts;
	sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL;
	struct udrvd_linecfg cfg;
	struct stream s;
	char *sig;
	int r;

	fuzz_split(data, size, &parts);
	sig = fuzz_str(&parts, 0);
	s.p = fuzz_has(&parts, 1) ? parts.p[1] : NULL;
	s.left = fuzz_has(&parts, 1) ? parts.len[1] : 0;
	r = sd_bus_message_new_method_call(bus, &m, "io.gpiod1", "/io/gpiod1/chips/gpiochip0",
					   "io.gpiod1.Chip", "RequestLines");
	FUZZ_CHECK(r >= 0, "no message: %d", r);
	if (strlen(sig) < 200 &&
	    append(m, sig, sig + strlen(sig), &s) >= 0 && sd_bus_message_seal(m, 1, 0) >= 0 &&
	    sd_bus_message_rewind(m, 1) >= 0) {
		r = udrvd_linecfg_read(m, &cfg, &error);
		if (r >= 0)
			r = udrvd_reqcfg_read(m, &cfg, &error);
		if (!fuzz_skip("linecfg-result"))
			FUZZ_CHECK(r >= 0 || (sd_bus_error_has_name(&error, SD_BUS_ERROR_INVALID_ARGS) &&
					      error.message && error.message[0]),
				   "refused with %d, %s: %s", r, error.name ? error.name : "no name",
				   error.message ? error.message : "no message");
		if (r >= 0 && !fuzz_skip("linecfg-valid"))
			check_valid(&cfg);
	}
	sd_bus_error_free(&error);
	sd_bus_message_unref(m);
	free(sig);
	return 0;
}

/* A bus object to make messages with: the server end of a socket pair,
 * started (nothing is ever sent). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	sd_id128_t id;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 || sd_bus_new(&bus) < 0 ||
	    sd_bus_set_fd(bus, sv[0], sv[0]) < 0 || sd_id128_randomize(&id) < 0 ||
	    sd_bus_set_server(bus, 1, id) < 0 || sd_bus_set_anonymous(bus, 1) < 0 ||
	    sd_bus_start(bus) < 0)
		abort();
	return 0;
}
