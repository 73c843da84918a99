/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A simulated GPIO register file for the mmio backend's tests: the block is
 * a sparse regular file (the fake /dev/mem, /dev/gpiomem or /dev/uioN) that
 * the library maps, and that the test maps too. The registers are plain
 * memory, so each SoC's semantics are a model the test applies around each
 * library call:
 *
 *   sim_prepare()  what the hardware shows before the call: write-only
 *                  registers (set, clear) hold a poison value, level
 *                  registers the pins' levels, readable latches the latch;
 *   sim_settle()   what the hardware does with the call's stores: a set /
 *                  clear register that no longer holds the poison was
 *                  written (write-1-to-set / write-1-to-clear on the latch;
 *                  poison bits in it mean a read-modify-write), a data
 *                  register of a generic block without set/clear replaces
 *                  the latch; any store to a register the library must not
 *                  write (levels, GPFSEL, GPIO_OE, GPIO_DATAOUT, direction)
 *                  is a violation. Then it prepares again.
 *
 * Pin levels: an output pin shows its latch bit, an input the level driven
 * from outside (ext). Function select (BCM GPFSELn: 001 = output) and
 * GPIO_OE (AM335x: 0 = output) are set by sim_claim(), as the kernel does
 * when the line is requested through the character device.
 */
#ifndef UDRV_TEST_SOC_SIM_H
#define UDRV_TEST_SOC_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <udrv/udrv.h>

enum sim_kind { SIM_BCM2835, SIM_BCM2711, SIM_AM335X, SIM_GENERIC };

#define SIM_WORDS	4
#define SIM_POISON	0xa5a5a5a5u

/* register offsets, from the datasheets (independent of lib/) */
#define BCM_GPFSEL0	0x00
#define BCM_GPSET0	0x1c
#define BCM_GPCLR0	0x28
#define BCM_GPLEV0	0x34
#define BCM_PUP_PDN0	0xe4
#define AM_OE		0x134
#define AM_DATAIN	0x138
#define AM_DATAOUT	0x13c
#define AM_CLEAR	0x190
#define AM_SET		0x194

struct sim {
	enum sim_kind kind;
	struct udrv_gpio_layout layout;	/* SIM_GENERIC */
	unsigned int width, words;
	volatile uint8_t *regs;		/* the block, in the test's mapping */
	void *map;
	size_t map_len;
	uint32_t latch[SIM_WORDS], ext[SIM_WORDS];
	uint32_t outs[SIM_WORDS];	/* generic without a dir register */
	uint32_t shown[SIM_WORDS];	/* what data-out showed, generic */
	uint32_t keep[64];		/* snapshot of protected registers */
	char violation[256];
};

/* /proc/device-tree/compatible from NUL-separated strings. */
void sim_compatible(const char *strings, size_t len);
/* A sparse regular file of @size bytes under the fake root. */
void sim_devfile(const char *rel, uint64_t size);
/* Map the block of @s from @rel at @offset (the test's view). */
void sim_attach(struct sim *s, enum sim_kind kind, const char *rel,
		uint64_t offset);
void sim_detach(struct sim *s);
/* The kernel's part of a claim: direction and initial value. */
void sim_claim(struct sim *s, unsigned int line, bool output, int value);
void sim_prepare(struct sim *s);
void sim_settle(struct sim *s);
/* The pin's physical level, as the model has it. */
int sim_level(const struct sim *s, unsigned int line);
uint32_t sim_reg(const struct sim *s, int32_t off);
void sim_set_reg(struct sim *s, int32_t off, uint32_t v);

/* The fake trees the tests share. */
void sim_tree(const char *compat, size_t len, const char *device,
	      const char *label, int ngpio);
/* A chip opened on the fake tree (sysfs only: no /dev/gpiochip0). */
struct udrv_chip *sim_chip(void);
/* A request put together as udrv_chip_request() does, with the register
 * half attached and started (no claim): returns the start/attach result. */
int sim_request(struct udrv_chip *chip, size_t n, const unsigned int *offsets,
		const struct udrv_line_settings *settings,
		const struct udrv_gpio_layout *layout,
		struct udrv_request **reqp, char *err);
void sim_release(struct udrv_request *req);

#endif /* UDRV_TEST_SOC_SIM_H */
