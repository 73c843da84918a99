/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A register model of the Raspberry Pi RP1's GPIO blocks for the mmio
 * backend's tests: IO_BANK0-2 (GPIOn_CTRL), SYS_RIO0-2 (RIO_OUT, RIO_OE,
 * RIO_IN) and PADS0-2, 0x30000 bytes in a sparse file (the fake
 * /dev/gpiomem0 or /dev/mem) that the library maps.
 *
 * Unlike soc_sim.h, which compares the registers before and after a call,
 * the model sees every store the library makes, one by one: rp1_arm() makes
 * the library's mappings of the file read only, and each store faults into
 * the model (x86-64: the store is single-stepped with the trap flag;
 * AArch64: the store instruction is decoded and done by the model). Each is
 * logged (offset, value) and applied as the hardware would:
 *   - a write of a mask to RIO_OUT's SET (+0x2000), CLR (+0x3000) or XOR
 *     (+0x1000) alias sets, clears or flips those bits of RIO_OUT alone;
 *   - a plain write of RIO_OUT, which every line of the bank shares, is a
 *     violation (it is what a read-modify-write ends in), as is any write to
 *     RIO_OE, RIO_IN, GPIOn_CTRL or a pad (the library only checks those),
 *     a store that is not 32 bits wide, or one outside the blocks.
 * After each store RIO_IN is what the pins show: an output its RIO_OUT bit,
 * an input what @ext drives, 0 when the pad's input is disabled.
 *
 * Offsets are the model's own, from the RP1 peripherals datasheet as
 * lib/gpio/soc/soc_rp1.c cites it (they do not come from lib/).
 */
#ifndef UDRV_TEST_RP1_MODEL_H
#define UDRV_TEST_RP1_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RP1M_SIZE	0x30000
#define RP1M_IO		0x00000
#define RP1M_RIO	0x10000
#define RP1M_PADS	0x20000
#define RP1M_BANK	0x4000
#define RP1M_XOR	0x1000
#define RP1M_SET	0x2000
#define RP1M_CLR	0x3000
#define RP1M_OUT	0x0
#define RP1M_OE		0x4
#define RP1M_IN		0x8
#define RP1M_LINES	54
#define RP1M_LOG_MAX	256

/* The RIO register @reg (RP1M_OUT...) of @bank, through alias @alias. */
#define RP1M_RIO_REG(bank, alias, reg)					\
	(RP1M_RIO + (bank) * RP1M_BANK + (alias) + (reg))

struct rp1_store {
	uint32_t off;		/* from IO_BANK0 */
	uint32_t value;
};

struct rp1_model {
	volatile uint8_t *regs;	/* the model's own mapping (not trapped) */
	void *map;
	size_t map_len;
	char path[512];		/* the file, as /proc/self/maps names it */
	uint64_t file_off;	/* of IO_BANK0 in it */
	uint32_t out[3], oe[3], ext[3];
	uint32_t ctrl[RP1M_LINES], pad[RP1M_LINES];
	struct rp1_store log[RP1M_LOG_MAX];
	size_t nlog;
	char violation[256];
};

/* Line -> bank and its bit in the bank (28, 6, 20 lines). */
unsigned int rp1_bank(unsigned int line, unsigned int *bit);

/* Map the window from @rel at @offset; every pin reset (no function, pad
 * input enabled, output disabled, as after reset). */
void rp1_attach(struct rp1_model *m, const char *rel, uint64_t offset);
void rp1_detach(struct rp1_model *m);
/* The kernel's part of a claim: FUNCSEL SYS_RIO, pad IE on / OD off,
 * RIO_OE and RIO_OUT for @output and @value. */
void rp1_claim(struct rp1_model *m, unsigned int line, bool output, int value);
/* Write the model's state into the registers (after changing it). */
void rp1_sync(struct rp1_model *m);
/* Trap the library's stores from now on; false when this architecture has
 * no way to (the caller skips). */
bool rp1_arm(struct rp1_model *m);
void rp1_disarm(void);
/* Forget the log (and the violation). */
void rp1_clear(struct rp1_model *m);
int rp1_level(const struct rp1_model *m, unsigned int line);

#endif /* UDRV_TEST_RP1_MODEL_H */
