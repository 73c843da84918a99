// SPDX-License-Identifier: GPL-2.0-only
/*
 * UIO devices: udrv_uio_open() reads /sys/class/uio/uio0/{name,version,
 * event}, maps/mapN/{name,addr,size,offset} and portio/portN/{name,start,
 * size,porttype}; udrv_uio_map() maps what they say.
 *
 * Input parts (fuzz.h):
 *   0 the spec given to udrv_uio_open() (absent: "uio0")
 *   1 name, 2 version, 3 event
 *   4-7 maps/map0/ name, addr, size, offset;  8-11 the same of map1
 *   12-15 portio/port0/ name, start, size, porttype
 * A map or port directory exists when one of its attributes is given.
 * /dev/uio0 is a sparse file of 1 GiB.
 *
 * Properties (a value the kernel gives is taken whole or not at all):
 *  - uio0 opens; its name and version are "" or the attribute (never a
 *    prefix of one too long for the buffer);
 *  - the maps are the directories there are; each attribute number is
 *    the attribute read as udrv/parse.h reads numbers, or 0;
 *  - a map that udrv_uio_map() maps is a region of the map's size, and
 *    the mapping holds it whole (no size wrapping the page rounding);
 *  - the spec opens what it names: uioN as udrv_parse_devnum() reads it,
 *    else the device whose driver has that name; and uio0 opens by the
 *    name it has.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "fuzz.h"
#include "region.h"

#define DIR	"sys/class/uio/uio0"

static const char *const map_attrs[] = { "name", "addr", "size", "offset" };
static const char *const port_attrs[] = { "name", "start", "size", "porttype" };

static bool has_nul(const struct fuzz_parts *parts, size_t i)
{
	return fuzz_has(parts, i) && memchr(parts->p[i], 0, parts->len[i]);
}

static bool any(const struct fuzz_parts *parts, size_t first, size_t n)
{
	for (size_t i = first; i < first + n; i++)
		if (fuzz_has(parts, i))
			return true;
	return false;
}

static void make_tree(const struct fuzz_parts *parts)
{
	static const char *const attrs[] = { "name", "version", "event" };
	char rel[128];

	fuzz_reset();
	fuzz_mkdir(DIR);
	for (size_t i = 0; i < 3; i++) {
		snprintf(rel, sizeof(rel), DIR "/%s", attrs[i]);
		fuzz_write_part(parts, 1 + i, rel);
	}
	for (int m = 0; m < 2; m++) {
		if (!any(parts, 4 + 4 * (size_t)m, 4))
			break;
		snprintf(rel, sizeof(rel), DIR "/maps/map%d", m);
		fuzz_mkdir(rel);
		for (size_t i = 0; i < 4; i++) {
			snprintf(rel, sizeof(rel), DIR "/maps/map%d/%s", m, map_attrs[i]);
			fuzz_write_part(parts, 4 + 4 * (size_t)m + i, rel);
		}
	}
	if (any(parts, 12, 4)) {
		fuzz_mkdir(DIR "/portio/port0");
		for (size_t i = 0; i < 4; i++) {
			snprintf(rel, sizeof(rel), DIR "/portio/port0/%s", port_attrs[i]);
			fuzz_write_part(parts, 12 + i, rel);
		}
	}
	fuzz_sparse("dev/uio0", 1ULL << 30);
}

static void check_text(const struct fuzz_parts *parts, size_t part,
		       const char *rel, size_t max, const char *got)
{
	const char *text = fuzz_text(rel, max);

	if (!got[0] || has_nul(parts, part) || fuzz_skip("uio-text"))
		return;
	FUZZ_CHECK(text && !strcmp(text, got), "%s: \"%s\", the attribute says \"%s\"", rel,
		   got, text ? text : "(unreadable or too long)");
}

static void check_number(const struct fuzz_parts *parts, size_t part,
			 const char *rel, uint64_t got)
{
	const char *text = fuzz_text(rel, 64);
	uint64_t v;

	if (has_nul(parts, part) || fuzz_skip("uio-number"))
		return;
	if (text && udrv_parse_u64(text, UINT64_MAX, &v) == 0)
		FUZZ_CHECK(got == v, "%s = 0x%" PRIx64 ", the attribute says \"%s\"", rel, got, text);
	else
		FUZZ_CHECK(got == 0, "%s = 0x%" PRIx64 " from \"%s\"", rel, got,
			   text ? text : "(unreadable)");
}

static void check_map(struct udrv_uio *uio, const struct fuzz_parts *parts, int m)
{
	struct udrv_uio_map_info info;
	struct udrv_region *region = NULL;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	size_t base = 4 + 4 * (size_t)m;
	char rel[128];
	int ret;

	FUZZ_CHECK(udrv_uio_map_info(uio, (unsigned int)m, &info) == 0, "no info of map %d", m);
	FUZZ_CHECK(info.index == (unsigned int)m, "map %d has index %u", m, info.index);
	snprintf(rel, sizeof(rel), DIR "/maps/map%d/name", m);
	check_text(parts, base, rel, sizeof(info.name), info.name);
	snprintf(rel, sizeof(rel), DIR "/maps/map%d/addr", m);
	check_number(parts, base + 1, rel, info.addr);
	snprintf(rel, sizeof(rel), DIR "/maps/map%d/size", m);
	check_number(parts, base + 2, rel, info.size);
	snprintf(rel, sizeof(rel), DIR "/maps/map%d/offset", m);
	check_number(parts, base + 3, rel, info.offset);

	ret = udrv_uio_map(uio, (unsigned int)m, &region);
	if (ret) {
		FUZZ_CHECK(ret < 0 && !region && udrv_uio_errmsg(uio)[0],
			   "udrv_uio_map(%d) = %d, region %p", m, ret, (void *)region);
		return;
	}
	FUZZ_CHECK(udrv_region_size(region) == info.size,
		   "map %d: a region of %zu bytes, the map has %" PRIu64, m,
		   udrv_region_size(region), info.size);
	if (!fuzz_skip("region-size"))
		FUZZ_CHECK((unsigned __int128)(info.offset & (page - 1)) + info.size <=
			   region->map_len,
			   "map %d (size 0x%" PRIx64 ", offset 0x%" PRIx64 "): a mapping of %zu bytes holds a region of %zu",
			   m, info.size, info.offset, region->map_len, udrv_region_size(region));
	udrv_region_unmap(region);
}

static void check_spec(const char *spec)
{
	struct udrv_uio *uio = udrv_uio_new();
	unsigned int num;
	char want[32];

	if (!uio)
		return;
	if (udrv_uio_open(uio, spec)) {
		FUZZ_CHECK(udrv_uio_errmsg(uio)[0], "udrv_uio_open(\"%s\") failed without a message",
			   spec);
		udrv_uio_free(uio);
		return;
	}
	if (udrv_parse_devnum(spec, "uio", &num) == 0) {
		snprintf(want, sizeof(want), "uio%u", num);
		FUZZ_CHECK(!strcmp(udrv_uio_devname(uio), want), "\"%s\" opened %s", spec,
			   udrv_uio_devname(uio));
	} else if (!fuzz_skip("uio-spec")) {
		FUZZ_CHECK(!strcmp(udrv_uio_name(uio), spec),
			   "\"%s\" is no device number, but opened %s (named \"%s\")", spec,
			   udrv_uio_devname(uio), udrv_uio_name(uio));
	}
	udrv_uio_free(uio);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct udrv_uio_port_info port;
	struct fuzz_parts parts;
	struct udrv_uio *uio;
	char name[64], *spec;
	int maps;

	fuzz_split(data, size, &parts);
	make_tree(&parts);
	uio = udrv_uio_new();
	if (!uio)
		return 0;
	/* a map or port attribute the kernel would never write (not a number,
	 * too long) fails the open, and the message names the file */
	if (udrv_uio_open(uio, "uio0")) {
		FUZZ_CHECK(strstr(udrv_uio_errmsg(uio), "cannot read ") &&
			   strstr(udrv_uio_errmsg(uio), "of uio0"),
			   "uio0 does not open: %s", udrv_uio_errmsg(uio));
		udrv_uio_free(uio);
		return 0;
	}
	check_text(&parts, 1, DIR "/name", 64, udrv_uio_name(uio));
	check_text(&parts, 2, DIR "/version", 64, udrv_uio_version(uio));
	maps = !any(&parts, 4, 4) ? 0 : !any(&parts, 8, 4) ? 1 : 2;
	FUZZ_CHECK(udrv_uio_num_maps(uio) == maps, "%d maps, the tree has %d",
		   udrv_uio_num_maps(uio), maps);
	for (int m = 0; m < maps; m++)
		check_map(uio, &parts, m);
	if (udrv_uio_port_info(uio, 0, &port) == 0) {
		check_text(&parts, 12, DIR "/portio/port0/name", sizeof(port.name), port.name);
		check_number(&parts, 13, DIR "/portio/port0/start", port.start);
		check_number(&parts, 14, DIR "/portio/port0/size", port.size);
		check_text(&parts, 15, DIR "/portio/port0/porttype", sizeof(port.porttype),
			   port.porttype);
	}
	snprintf(name, sizeof(name), "%s", udrv_uio_name(uio));
	udrv_uio_free(uio);

	spec = fuzz_str(&parts, 0);
	check_spec(fuzz_has(&parts, 0) ? spec : "uio0");
	free(spec);
	/* a name that reads as a device spec (uio7, 444444444444) is taken
	 * as one: only other names are looked up */
	if (name[0] && udrv_parse_devnum(name, "uio", &(unsigned int){ 0 }) == -EINVAL &&
	    !has_nul(&parts, 1) && !fuzz_skip("uio-spec")) {
		uio = udrv_uio_new();
		FUZZ_CHECK(uio && udrv_uio_open(uio, name) == 0 &&
			   !strcmp(udrv_uio_devname(uio), "uio0"),
			   "uio0 does not open by its name \"%s\": %s", name,
			   uio ? udrv_uio_errmsg(uio) : "");
		udrv_uio_free(uio);
	}
	return 0;
}
