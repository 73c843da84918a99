// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.gpiod1's line configuration, (a(aua{sv})ai): mappings of offsets to
 * settings, then output values in the order the lines appear; and its
 * request configuration, a{sv}. Read strictly: an unknown key, a value of
 * the wrong type or outside its words, an offset given twice, more values
 * than lines are InvalidArgs with a message naming the key or offset.
 * Each line's settings say what the policy must grant for them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "linecfg.h"
#include "perms.h"
#include "words.h"

#define INVALID	SD_BUS_ERROR_INVALID_ARGS

static int bad(sd_bus_error *error, const char *fmt, const char *what)
{
	return sd_bus_error_setf(error, INVALID, fmt, what);
}

/* A string variant that is one of @kind's words. */
static int read_word(sd_bus_message *m, const char *key, enum udrvd_word_kind kind,
		     int *value, sd_bus_error *error)
{
	char words[96];
	const char *s;

	if (sd_bus_message_read(m, "v", "s", &s) < 0)
		return bad(error, "line setting '%s' takes a string", key);
	if (!udrvd_word_parse(kind, s, value))
		return 0;
	return sd_bus_error_setf(error, INVALID, "line setting '%s' cannot be '%s' (%s)", key, s,
				 udrvd_words(kind, words, sizeof(words)));
}

enum key { K_DIRECTION, K_EDGE, K_ACTIVE_LOW, K_DRIVE, K_BIAS, K_DEBOUNCE, K_CLOCK, K_N };
static const char *const keys[K_N] = {
	"direction", "edge", "active-low", "drive", "bias", "debounce-period", "event-clock",
};

static int read_debounce(sd_bus_message *m, struct udrv_line_settings *s, sd_bus_error *error)
{
	int64_t us;

	if (sd_bus_message_read(m, "v", "x", &us) < 0)
		return bad(error, "line setting '%s' takes a signed 64-bit integer (x)",
			   "debounce-period");
	if (us < 0 || us > UINT32_MAX)
		return bad(error, "line setting '%s' is out of range (0 to 4294967295 us)",
			   "debounce-period");
	s->debounce_us = (uint32_t)us;
	return 0;
}

static int read_setting(sd_bus_message *m, enum key k, struct udrv_line_settings *s,
			sd_bus_error *error)
{
	int v = 0, r = 0;
	int b;

	switch (k) {
	case K_DIRECTION:
		r = read_word(m, keys[k], UDRVD_W_DIRECTION, &v, error);
		s->direction = (enum udrv_direction)v;
		break;
	case K_EDGE:
		r = read_word(m, keys[k], UDRVD_W_EDGE, &v, error);
		s->edge = (enum udrv_edge)v;
		break;
	case K_DRIVE:
		r = read_word(m, keys[k], UDRVD_W_DRIVE, &v, error);
		s->drive = (enum udrv_drive)v;
		break;
	case K_BIAS:
		r = read_word(m, keys[k], UDRVD_W_BIAS, &v, error);
		s->bias = (enum udrv_bias)v;
		break;
	case K_CLOCK:
		r = read_word(m, keys[k], UDRVD_W_CLOCK, &v, error);
		s->event_clock = (enum udrv_clock)v;
		break;
	case K_ACTIVE_LOW:
		if (sd_bus_message_read(m, "v", "b", &b) < 0)
			return bad(error, "line setting '%s' takes a boolean", keys[k]);
		s->active_low = b;
		break;
	case K_DEBOUNCE:
		r = read_debounce(m, s, error);
		break;
	case K_N:
		break;
	}
	return r;
}

/* a{sv} of line settings */
static int read_settings(sd_bus_message *m, struct udrv_line_settings *s, sd_bus_error *error)
{
	unsigned int seen = 0;
	const char *key;
	int r;

	memset(s, 0, sizeof(*s));
	if (sd_bus_message_enter_container(m, 'a', "{sv}") < 0)
		return bad(error, "%s", "line settings must be a{sv}");
	while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		enum key k;

		if (sd_bus_message_read(m, "s", &key) < 0)
			return bad(error, "%s", "line settings must be a{sv}");
		for (k = 0; k < K_N && strcmp(key, keys[k]); k++)
			;
		if (k == K_N)
			return sd_bus_error_setf(error, INVALID,
						 "unknown line setting '%s' (direction, edge, active-low, drive, bias, debounce-period, event-clock)",
						 key);
		if (seen & (1u << k))
			return bad(error, "line setting '%s' given twice", key);
		seen |= 1u << k;
		r = read_setting(m, k, s, error);
		if (r < 0 || sd_bus_message_exit_container(m) < 0)
			return r < 0 ? r : -EINVAL;
	}
	if (r < 0 || sd_bus_message_exit_container(m) < 0)
		return bad(error, "%s", "line settings must be a{sv}");
	return 0;
}

static int read_offsets(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error)
{
	size_t first = cfg->n;
	uint32_t off;
	int r;

	if (sd_bus_message_enter_container(m, 'a', "u") < 0)
		return bad(error, "%s", "a mapping's offsets must be au");
	while ((r = sd_bus_message_read(m, "u", &off)) > 0) {
		if (cfg->n == UDRV_LINES_MAX)
			return sd_bus_error_setf(error, INVALID,
						 "more than %d lines in one request", UDRV_LINES_MAX);
		for (size_t i = 0; i < cfg->n; i++)
			if (cfg->offsets[i] == off)
				return sd_bus_error_setf(error, INVALID,
							 "offset %u is given twice", off);
		cfg->offsets[cfg->n++] = off;
	}
	if (r < 0 || sd_bus_message_exit_container(m) < 0)
		return bad(error, "%s", "a mapping's offsets must be au");
	if (cfg->n == first)
		return bad(error, "%s", "a mapping without offsets");
	return 0;
}

static int read_mappings(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error)
{
	int r;

	if (sd_bus_message_enter_container(m, 'a', "(aua{sv})") < 0)
		return bad(error, "%s", "line_config must be (a(aua{sv})ai)");
	while ((r = sd_bus_message_enter_container(m, 'r', "aua{sv}")) > 0) {
		size_t first = cfg->n;
		struct udrv_line_settings s;

		r = read_offsets(m, cfg, error);
		if (r >= 0)
			r = read_settings(m, &s, error);
		if (r < 0)
			return r;
		for (size_t i = first; i < cfg->n; i++) {
			cfg->settings[i] = s;
			cfg->perms[i] = udrvd_settings_perms(&s);
		}
		if (sd_bus_message_exit_container(m) < 0)
			return bad(error, "%s", "line_config must be (a(aua{sv})ai)");
	}
	if (r < 0 || sd_bus_message_exit_container(m) < 0)
		return bad(error, "%s", "line_config must be (a(aua{sv})ai)");
	return 0;
}

static int read_values(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error)
{
	size_t i = 0;
	int32_t v;
	int r;

	if (sd_bus_message_enter_container(m, 'a', "i") < 0)
		return bad(error, "%s", "output values must be ai");
	while ((r = sd_bus_message_read(m, "i", &v)) > 0) {
		if (i == cfg->n)
			return sd_bus_error_setf(error, INVALID,
						 "%zu output values for %zu lines", i + 1, cfg->n);
		if (v != 0 && v != 1)
			return sd_bus_error_setf(error, INVALID,
						 "output value %d for offset %u: 0 (inactive) or 1 (active)",
						 v, cfg->offsets[i]);
		cfg->settings[i++].value = v;
	}
	cfg->nvalues = i;
	if (r < 0 || sd_bus_message_exit_container(m) < 0)
		return bad(error, "%s", "output values must be ai");
	return 0;
}

int udrvd_linecfg_read(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error)
{
	int r;

	memset(cfg, 0, sizeof(*cfg));
	if (sd_bus_message_enter_container(m, 'r', "a(aua{sv})ai") < 0)
		return bad(error, "%s", "line_config must be (a(aua{sv})ai)");
	r = read_mappings(m, cfg, error);
	if (r >= 0)
		r = read_values(m, cfg, error);
	if (r < 0)
		return r;
	if (sd_bus_message_exit_container(m) < 0)
		return bad(error, "%s", "line_config must be (a(aua{sv})ai)");
	if (!cfg->n)
		return bad(error, "%s", "line_config names no line");
	return 0;
}

static int read_consumer(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error)
{
	const char *s;

	if (sd_bus_message_read(m, "v", "s", &s) < 0)
		return bad(error, "request setting '%s' takes a string", "consumer");
	if (!*s || strlen(s) >= sizeof(cfg->consumer))
		return bad(error, "request setting '%s' must be 1 to 31 bytes", "consumer");
	snprintf(cfg->consumer, sizeof(cfg->consumer), "%s", s);
	return 0;
}

int udrvd_reqcfg_read(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error)
{
	bool consumer = false, size = false;
	const char *key;
	int r;

	if (sd_bus_message_enter_container(m, 'a', "{sv}") < 0)
		return bad(error, "%s", "request_config must be a{sv}");
	while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		if (sd_bus_message_read(m, "s", &key) < 0)
			return bad(error, "%s", "request_config must be a{sv}");
		if (!strcmp(key, "consumer") && !consumer) {
			consumer = true;
			r = read_consumer(m, cfg, error);
		} else if (!strcmp(key, "event-buffer-size") && !size) {
			size = true;
			if (sd_bus_message_read(m, "v", "u", &cfg->event_buffer_size) < 0)
				r = bad(error, "request setting '%s' takes an unsigned 32-bit integer (u)",
					key);
		} else {
			r = sd_bus_error_setf(error, INVALID,
					      "request setting '%s' is unknown or given twice (consumer, event-buffer-size)",
					      key);
		}
		if (r < 0 || sd_bus_message_exit_container(m) < 0)
			return r < 0 ? r : -EINVAL;
	}
	if (r < 0 || sd_bus_message_exit_container(m) < 0)
		return bad(error, "%s", "request_config must be a{sv}");
	return 0;
}
