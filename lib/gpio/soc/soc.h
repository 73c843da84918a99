/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mmio backend's internals: SoC GPIO register drivers (soc_*.c, one per
 * SoC family), SoC detection and chip -> bank resolution (soc.c), mapping
 * (mmio_map.c), and the register half of the backend (backend_mmio.c).
 *
 * A driver turns a chip into a bank: a block of registers at a physical
 * address, with one word of @width bits per group of @width lines; word k of
 * register r is at reg[r] + k * stride. Line N is bit N % width of word
 * N / width. The AM335x has a chip per bank of 32 lines (one word), the
 * BCM283x one chip of 54 (BCM2711: 58) lines in two words, 4 bytes apart.
 * Banks of unequal size (the RP1: 28, 6 and 20 lines, 0x4000 apart) give
 * @groups, the lines of each word: line N is then bit N - first of the word
 * whose lines hold it.
 */
#ifndef UDRV_SOC_H
#define UDRV_SOC_H

#include <udrv/gpio_mmio.h>
#include <udrv/line.h>

#include "internal.h"

struct udrv_chip;
struct udrv_region;
struct udrv_request;

enum udrv_soc_reg {
	SOC_REG_LEVEL,		/* the pins' levels (read only) */
	SOC_REG_OUT,		/* the output latch */
	SOC_REG_SET,		/* write 1 to set */
	SOC_REG_CLEAR,		/* write 1 to clear */
	SOC_REG_DIR,		/* direction (generic layouts) */
	SOC_REG_NUM,
};

struct udrv_soc_driver;

/* One chip's registers, resolved. */
struct udrv_soc_bank {
	const struct udrv_soc_driver *drv;
	char soc[24];		/* "bcm2837", "am335x", "generic" */
	char device[64];	/* the chip's device ("3f200000.gpio"), or "" */
	int variant;		/* the driver's: which register set */
	uint64_t phys;		/* physical address of the block */
	size_t size;		/* bytes to map */
	unsigned int width;	/* register width, bits: 8, 16, 32 */
	unsigned int lines;	/* lines the registers have */
	uint32_t stride;	/* bytes from one word to the next */
	const unsigned int *groups;	/* lines per word, when unequal */
	unsigned int num_groups;	/* 0: @width lines in each word */
	int32_t reg[SOC_REG_NUM];		/* offsets; -1: none */
	const char *reg_name[SOC_REG_NUM];	/* printf: %u = word */
	bool dir_input_high;	/* SOC_REG_DIR: 1 = input */
	const char *gpiomem;	/* "/dev/gpiomem": maps this block at 0 */
	char map_path[UDRV_GPIO_MAP_PATH_LEN];	/* forced; "" = search */
	uint64_t map_offset;
};

/* The chip as sysfs describes it. */
struct udrv_soc_chip {
	const char *name;		/* gpiochipN */
	const char *label;
	unsigned int num_lines;
	char device[64];		/* parent device, "" when unknown */
	uint64_t addr;			/* the device's unit address */
	bool has_addr;
	/* the device-tree node's compatible strings, NUL-separated */
	char compatible[128];
	int compatible_len;
};

struct udrv_soc_driver {
	const char *name;
	const char *const *compatible;	/* NULL-terminated, root's */
	/* A GPIO block found by its own chip, whatever the SoC (RP1 hangs
	 * off PCIe): does @chip's node or label say it is this block? */
	bool (*claims)(const struct udrv_soc_chip *chip);
	/* Fill @bank for @chip (@compat: the matching compatible string, or
	 * NULL for the generic driver, which takes @layout). */
	int (*resolve)(struct udrv_soc_bank *bank,
		       const struct udrv_soc_chip *chip, const char *compat,
		       const struct udrv_gpio_layout *layout, char *errmsg);
	/* As the registers say: 1 output, 0 not an output, -EOPNOTSUPP
	 * when they cannot tell. @what: which register said so. -EBUSY:
	 * the pin is not a GPIO (muxed to another function), -EIO: its pad
	 * cannot do this direction; @what says which and why. */
	int (*is_output)(const struct udrv_soc_bank *bank,
			 const volatile uint8_t *regs, unsigned int line,
			 char *what, size_t len);
	/* The pull as the registers say (UDRV_BIAS_*), or -EOPNOTSUPP. */
	int (*pull)(const struct udrv_soc_bank *bank,
		    const volatile uint8_t *regs, unsigned int line);
};

extern const struct udrv_soc_driver udrv_soc_am335x;
extern const struct udrv_soc_driver udrv_soc_bcm2835;
extern const struct udrv_soc_driver udrv_soc_generic;
extern const struct udrv_soc_driver udrv_soc_rp1;

/* soc.c: register arithmetic. The word @line is in; its bit in @bit. */
static inline unsigned int udrv_soc_word(const struct udrv_soc_bank *b,
					 unsigned int line, unsigned int *bit)
{
	unsigned int w = 0;

	if (!b->num_groups) {
		*bit = line % b->width;
		return line / b->width;
	}
	while (w + 1 < b->num_groups && line >= b->groups[w])
		line -= b->groups[w++];
	*bit = line;
	return w;
}

static inline int32_t udrv_soc_reg(const struct udrv_soc_bank *b,
				   enum udrv_soc_reg r, unsigned int line)
{
	unsigned int bit, w = udrv_soc_word(b, line, &bit);

	if (b->reg[r] < 0)
		return -1;
	return b->reg[r] + (int32_t)(w * b->stride);
}

static inline uint32_t udrv_soc_bit(const struct udrv_soc_bank *b,
				    unsigned int line)
{
	unsigned int bit;

	udrv_soc_word(b, line, &bit);
	return 1u << bit;
}

/* "GPSET0", "GPIO_SETDATAOUT", "set@0x10": register @r of @line. */
void udrv_soc_reg_name(const struct udrv_soc_bank *b, enum udrv_soc_reg r,
		       unsigned int line, char *buf, size_t len);
uint32_t udrv_soc_read(const struct udrv_soc_bank *b,
		       const volatile uint8_t *regs, int32_t off);
void udrv_soc_write(const struct udrv_soc_bank *b, volatile uint8_t *regs,
		    int32_t off, uint32_t v);

/*
 * The chip's device from /sys/bus/gpio/devices/gpiochipN's parent
 * ("3f200000.gpio": unit address 0x3f200000).
 */
void udrv_soc_chip_describe(struct udrv_soc_chip *sc,
			    const struct udrv_chip *chip);
bool udrv_soc_compatible_has(const char *compat, int len, const char *want);
/*
 * The bank of @chip: with @layout, the generic driver; else the SoC from
 * /proc/device-tree/compatible. Errors (unknown SoC, not a GPIO bank of
 * the SoC) go to @errmsg (UDRV_ERRMSG_LEN).
 */
int udrv_soc_bank_find(struct udrv_soc_bank *bank,
		       const struct udrv_chip *chip,
		       const struct udrv_gpio_layout *layout, char *errmsg);

/* mmio_map.c */
struct udrv_soc_map {
	struct udrv_region *region;
	volatile uint8_t *regs;		/* the block */
	char path[UDRV_GPIO_MAP_PATH_LEN];	/* what it was mapped from */
	uint64_t offset;		/* of the block in @path */
};

/*
 * Map the bank: its map_path if set, else its gpiomem node (/dev/gpiomem:
 * BCM, /dev/gpiomem0: RP1), a UIO map covering the block, /dev/mem. Errors
 * name every path tried and the fix.
 */
int udrv_soc_map(struct udrv_soc_map *map, const struct udrv_soc_bank *bank,
		 char *errmsg);
void udrv_soc_unmap(struct udrv_soc_map *map);
/* Why /dev/mem refused the mapping (EPERM): who owns it, what to do. */
void udrv_soc_devmem_hint(char *buf, size_t len,
			  const struct udrv_soc_bank *bank);

/* backend_mmio.c: the register half, testable without the claim */
int udrv_mmio_attach(struct udrv_request *req, struct udrv_chip *chip,
		     const struct udrv_gpio_layout *layout, char *errmsg);
/* After the claim: check directions, take the shadow, build the lines. */
int udrv_mmio_start(struct udrv_request *req,
		    const struct udrv_line_settings *settings, char *errmsg);
void udrv_mmio_detach(struct udrv_request *req);

#endif /* UDRV_SOC_H */
