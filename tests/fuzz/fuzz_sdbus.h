/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * D-Bus messages from fuzzed bytes, built by sd-bus as a peer would send
 * them, for the harnesses of what reads sd-bus messages (linecfg: udrvd's
 * reading of RequestLines; creds: its reading of the bus's
 * GetConnectionCredentials reply; objects: the client's reading of udrvd's
 * answers; udrvd: every method call and property read udrvd answers).
 *
 * Part 0 of the input is the body's signature (a valid one shorter than
 * 200, or there is no message); part 1 the values, taken in order: a byte
 * for y and b, two to eight for the numbers, a length byte and that many
 * bytes for s, o and g (invalid ones: no message), a count byte (0-4) for
 * an array, a byte choosing a variant's type (s, b, x, u, i, t, as, (s),
 * a{sv}, o, au).
 */
#ifndef UDRV_FUZZ_SDBUS_H
#define UDRV_FUZZ_SDBUS_H

#include <systemd/sd-bus.h>

#include "fuzz.h"

/* Values taken in order from fuzzed bytes (as part 1 above). */
struct fuzz_stream {
	const uint8_t *p;
	size_t left;
};
/* The next @n bytes of @s, big-endian (fewer at its end, 0 when empty). */
uint64_t fuzz_take(struct fuzz_stream *s, size_t n);
/* Values for signature @sig (valid, shorter than 200) from @s appended to
 * @m; a negative errno when they make no message. */
int fuzz_append(sd_bus_message *m, const char *sig, struct fuzz_stream *s);

/* A bus to make messages with: the server end of a socket pair, started
 * (nothing is ever sent). Made at the first call. */
sd_bus *fuzz_bus(void);

/* A method call @iface.@member on @path whose body @parts give, sealed and
 * rewound for reading; NULL when the parts make no message. */
sd_bus_message *fuzz_msg(const struct fuzz_parts *parts, const char *path, const char *iface,
			 const char *member);

#endif /* UDRV_FUZZ_SDBUS_H */
