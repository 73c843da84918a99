// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library's GPIO backends by name, for the CLI's messages: no list of
 * them here. Apart from the rest of the CLI so that the registry's test
 * (tests/lib/test_backends.c) links it with its toy backend.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

void cli_backend_names(char *buf, size_t len)
{
	int n = 0, off = 0;

	while (strcmp(udrv_backend_str((enum udrv_backend)n), "unknown"))
		n++;
	if (len)
		buf[0] = '\0';
	for (int i = 0; i < n && off >= 0 && (size_t)off < len; i++)
		off += snprintf(buf + off, len - (size_t)off, "%s%s",
				!i ? "" : i == n - 1 ? " or " : ", ",
				udrv_backend_str((enum udrv_backend)i));
}
