// SPDX-License-Identifier: GPL-2.0-only
/*
 * Register access from the command line (cli_region.h): shared by
 * 'udrv uio peek/poke' and 'udrv pci peek/poke'.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "cli_region.h"

int cli_region_check(const struct udrv_region *r, uint64_t off,
		     uint64_t count, unsigned int width)
{
	uint64_t bytes = width / 8;

	if (off % bytes)
		return cli_error(EXIT_USAGE, "offset 0x%" PRIx64 " is not aligned to %u bits",
				 off, width);
	if (off > udrv_region_size(r) || count > (udrv_region_size(r) - off) / bytes)
		return cli_error(EXIT_USAGE,
				 "%" PRIu64 " x %u-bit access at 0x%" PRIx64 " is beyond %s (0x%zx bytes)",
				 count, width, off, udrv_region_name(r),
				 udrv_region_size(r));
	return EXIT_OK;
}

uint64_t cli_mmio_read(const struct udrv_mmio *m, size_t off, unsigned int w)
{
	switch (w) {
	case 8:
		return udrv_read8(m, off);
	case 16:
		return udrv_read16(m, off);
	case 64:
		return udrv_read64(m, off);
	default:
		return udrv_read32(m, off);
	}
}

void cli_mmio_write(const struct udrv_mmio *m, size_t off, unsigned int w,
		    uint64_t v)
{
	switch (w) {
	case 8:
		udrv_write8(m, off, (uint8_t)v);
		break;
	case 16:
		udrv_write16(m, off, (uint16_t)v);
		break;
	case 64:
		udrv_write64(m, off, v);
		break;
	default:
		udrv_write32(m, off, (uint32_t)v);
	}
}

void cli_print_peek(bool json, unsigned int width, uint64_t off,
		    uint64_t count, const struct udrv_mmio *m)
{
	struct udrv_json *j = cli_json_begin(json);
	unsigned int bytes = width / 8;

	if (j)
		udrv_json_arr_begin(j);
	for (uint64_t i = 0; i < count; i++) {
		uint64_t a = off + i * bytes, v = cli_mmio_read(m, (size_t)a, width);

		if (j) {
			udrv_json_obj_begin(j);
			udrv_json_kuint(j, "offset", a);
			udrv_json_kuint(j, "value", v);
			udrv_json_obj_end(j);
		} else {
			printf("0x%08" PRIx64 ": 0x%0*" PRIx64 "\n", a,
			       (int)bytes * 2, v);
		}
	}
	if (j)
		udrv_json_arr_end(j);
	cli_json_end(j);
}

int cli_peek_args(const char *cmd, int argc, char **argv, bool poke,
		  unsigned int width, uint64_t *off, uint64_t *arg)
{
	int n = argc - optind;

	if (n < 2 || n > 3 || (poke && n != 3))
		return cli_usage(cmd, poke ? "give DEVICE OFFSET VALUE" : "give DEVICE OFFSET [COUNT]");
	*arg = 1;
	if (cli_parse_u64(argv[optind + 1], off) ||
	    (n == 3 && cli_parse_u64(argv[optind + 2], arg)))
		return cli_usage(cmd, "OFFSET and %s must be numbers (decimal or 0x hex)",
				 poke ? "VALUE" : "COUNT");
	if (poke && width < 64 && *arg >> width)
		return cli_usage(cmd, "VALUE 0x%" PRIx64 " does not fit in %u bits",
				 *arg, width);
	return EXIT_OK;
}

int cli_peek_poke(const struct udrv_region *r, bool poke, bool json,
		  unsigned int width, uint64_t off, uint64_t arg)
{
	struct udrv_mmio m;
	int ret = cli_region_check(r, off, poke ? 1 : arg, width);

	if (ret)
		return ret;
	m = udrv_region_mmio(r);
	if (poke)
		cli_mmio_write(&m, (size_t)off, width, arg);
	else
		cli_print_peek(json, width, off, arg, &m);
	return EXIT_OK;
}
