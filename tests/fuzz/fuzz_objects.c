// SPDX-License-Identifier: GPL-2.0-only
/*
 * What udrvd answers to GetManagedObjects, as udrv reads it
 * (client/udrvd_client.c: the chips and lines of io.gpiod1's
 * ObjectManagers): the body of any signature and values (fuzz_sdbus.h), read
 * as a{oa{sa{sv}}}.
 *
 * Properties:
 *  - objects-result: read (0) or refused with a negative errno;
 *  - objects-bounded: what is read fits its fields: every object's path,
 *    name, label, direction, bias, drive, edge, clock, consumer, chip node
 *    (Path, an ay) and request path NUL-terminated
 *    inside its array, at most as many objects as the list has room for.
 */
#include <stdlib.h>
#include <string.h>

#include "client_priv.h"
#include "fuzz.h"
#include "fuzz_sdbus.h"

#define TERMINATED(field) (memchr((field), '\0', sizeof(field)) != NULL)

static void check_bounded(const struct udrvd_objs *objs)
{
	FUZZ_CHECK(objs->n <= objs->cap, "%zu objects in room for %zu", objs->n, objs->cap);
	for (size_t i = 0; i < objs->n; i++) {
		const struct udrvd_obj *o = &objs->v[i];

		FUZZ_CHECK(TERMINATED(o->path) && TERMINATED(o->name) && TERMINATED(o->label) &&
			   TERMINATED(o->direction) && TERMINATED(o->bias) &&
			   TERMINATED(o->drive) && TERMINATED(o->edge) && TERMINATED(o->clock) &&
			   TERMINATED(o->consumer) && TERMINATED(o->dev) && TERMINATED(o->request),
			   "object %zu: a field without its NUL", i);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct udrvd_objs objs = { 0 };
	struct fuzz_parts parts;
	sd_bus_message *m;
	int r;

	fuzz_split(data, size, &parts);
	m = fuzz_msg(&parts, "/io/gpiod1/chips", "org.freedesktop.DBus.ObjectManager",
		     "GetManagedObjects");
	if (m) {
		r = udrvd_client_read_objects(m, &objs);
		if (!fuzz_skip("objects-result"))
			FUZZ_CHECK(r <= 0, "read returned %d", r);
		if (!fuzz_skip("objects-bounded"))
			check_bounded(&objs);
	}
	free(objs.v);
	sd_bus_message_unref(m);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_bus();
	return 0;
}
