// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a client can put in RequestLines' arguments (daemon/bus/linecfg.c):
 * udrvd reads them from the message sd-bus has already taken apart, so the
 * fuzzed input is a message's body of any signature and any values, built
 * with sd-bus as a client would send it.
 *
 * The input is a message body (fuzz_sdbus.h: part 0 its signature, part 1
 * its values), read as RequestLines' (line_config, request_config).
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
#include <string.h>

#include "fuzz.h"
#include "fuzz_sdbus.h"
#include "linecfg.h"
#include "policy.h"

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
	sd_bus_error error = SD_BUS_ERROR_NULL;
	struct fuzz_parts parts;
	struct udrvd_linecfg cfg;
	sd_bus_message *m;
	int r;

	fuzz_split(data, size, &parts);
	m = fuzz_msg(&parts, "/io/gpiod1/chips/gpiochip0", "io.gpiod1.Chip", "RequestLines");
	if (m) {
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
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_bus();
	return 0;
}
