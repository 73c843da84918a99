/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Register access from the command line, shared by 'udrv uio peek/poke' and
 * 'udrv pci peek/poke': an access checked against a mapped region, reads and
 * writes of 8/16/32/64 bits, and the peek listing (text or --json).
 */
#ifndef UDRV_CLI_REGION_H
#define UDRV_CLI_REGION_H

#include <stdbool.h>
#include <stdint.h>
#include <udrv/mmio.h>

/* EXIT_OK, or EXIT_USAGE (printed) when COUNT accesses of WIDTH bits at OFF
 * are unaligned or do not fit in @r. */
int cli_region_check(const struct udrv_region *r, uint64_t off,
		     uint64_t count, unsigned int width);
uint64_t cli_mmio_read(const struct udrv_mmio *m, size_t off, unsigned int w);
void cli_mmio_write(const struct udrv_mmio *m, size_t off, unsigned int w,
		    uint64_t v);
/* "0x00000004: 0xedcba987" per register, or a JSON array of
 * {"offset", "value"}. */
void cli_print_peek(bool json, unsigned int width, uint64_t off,
		    uint64_t count, const struct udrv_mmio *m);

#endif /* UDRV_CLI_REGION_H */
