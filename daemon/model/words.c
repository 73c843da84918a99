// SPDX-License-Identifier: GPL-2.0-only
/* The words of line settings: libudrv's names, read back (words.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <udrv/chip.h>

#include "words.h"

static const int counts[] = {
	[UDRVD_W_DIRECTION] = UDRV_DIR_OUTPUT + 1,
	[UDRVD_W_EDGE] = UDRV_EDGE_BOTH + 1,
	[UDRVD_W_DRIVE] = UDRV_DRIVE_OPEN_SOURCE + 1,
	[UDRVD_W_BIAS] = UDRV_BIAS_PULL_DOWN + 1,
	[UDRVD_W_CLOCK] = UDRV_CLOCK_HTE + 1,
};

const char *udrvd_word(enum udrvd_word_kind kind, int v)
{
	switch (kind) {
	case UDRVD_W_DIRECTION:
		return udrv_direction_str((enum udrv_direction)v);
	case UDRVD_W_EDGE:
		return udrv_edge_str((enum udrv_edge)v);
	case UDRVD_W_DRIVE:
		return udrv_drive_str((enum udrv_drive)v);
	case UDRVD_W_BIAS:
		return udrv_bias_str((enum udrv_bias)v);
	case UDRVD_W_CLOCK:
		return udrv_clock_str((enum udrv_clock)v);
	}
	return "unknown";
}

int udrvd_word_parse(enum udrvd_word_kind kind, const char *w, int *v)
{
	for (int i = 0; i < counts[kind]; i++) {
		if (!strcmp(w, udrvd_word(kind, i))) {
			*v = i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *udrvd_words(enum udrvd_word_kind kind, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < counts[kind] && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 udrvd_word(kind, i));

		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}
