/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers shared by the RT unit tests (test_rt.c, test_rt_check.c). */
#ifndef UDRV_TEST_RT_COMMON_H
#define UDRV_TEST_RT_COMMON_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/resource.h>

#include <udrv/json.h>

#include "harness.h"

/* Lowering always works; raising needs CAP_SYS_RESOURCE. */
static inline bool set_limit(int resource, rlim_t value)
{
	struct rlimit rl = { value, value };

	return setrlimit(resource, &rl) == 0;
}

/* What @write makes of @obj, as a malloc'd JSON string. */
static inline char *to_json(void (*write)(const void *, struct udrv_json *),
			    const void *obj, bool pretty)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);
	struct udrv_json *j = udrv_json_new(f, pretty);

	write(obj, j);
	CHECK_INT(udrv_json_free(j), 0);
	fclose(f);
	return buf;
}

#endif /* UDRV_TEST_RT_COMMON_H */
