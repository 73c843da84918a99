/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The words of line settings ("output", "pull-up", "both"...): libudrv's own
 * names (udrv_direction_str() and the like), read back into its enums. One
 * table for io.gpiod1's arguments (linecfg.c) and the state file (state.c).
 */
#ifndef UDRVD_WORDS_H
#define UDRVD_WORDS_H

enum udrvd_word_kind {
	UDRVD_W_DIRECTION,
	UDRVD_W_EDGE,
	UDRVD_W_DRIVE,
	UDRVD_W_BIAS,
	UDRVD_W_CLOCK,
};

/* The name of value @v of @kind. */
const char *udrvd_word(enum udrvd_word_kind kind, int v);
/* @w as a value of @kind: 0, or -EINVAL when it is none of its names. */
int udrvd_word_parse(enum udrvd_word_kind kind, const char *w, int *v);
/* "input, output" for messages. */
const char *udrvd_words(enum udrvd_word_kind kind, char *buf, size_t len);

#endif /* UDRVD_WORDS_H */
