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

/*
 * The operands of '@cmd DEVICE OFFSET [COUNT]' (peek) or 'DEVICE OFFSET
 * VALUE' (poke) from argv[optind]: @off, and the COUNT (default 1) or the
 * VALUE in @arg, checked to fit @width bits. EXIT_OK or EXIT_USAGE (printed).
 */
int cli_peek_args(const char *cmd, int argc, char **argv, bool poke,
		  unsigned int width, uint64_t *off, uint64_t *arg);
/* Check the access against @r, then write @arg (poke) or list @arg
 * registers (peek). EXIT_OK or EXIT_USAGE (printed). */
int cli_peek_poke(const struct udrv_region *r, bool poke, bool json,
		  unsigned int width, uint64_t off, uint64_t arg);

#endif /* UDRV_CLI_REGION_H */
