/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mmio backend (UDRV_BACKEND_MMIO): lines claimed through the GPIO
 * character device, driven through the SoC's GPIO registers.
 *
 * udrv_chip_request() with .backend = UDRV_BACKEND_MMIO finds the SoC from
 * /proc/device-tree/compatible (AM335x; BCM2835/6/7, BCM2711) and the chip's
 * register bank from its device ("3f200000.gpio", "44e07000.gpio") or label;
 * a Raspberry Pi 5's RP1 by its own chip (node "raspberrypi,rp1-gpio" or
 * label "pinctrl-rp1"). It maps the bank through /dev/gpiomem (RP1:
 * /dev/gpiomem0; Raspberry Pi kernels), a UIO map that covers it, or
 * /dev/mem, in that order, then requests the lines through the
 * character device (the kernel knows they are taken, sets their direction,
 * bias and initial value) and checks in the registers that the outputs are
 * outputs. udrv_request_set_values() and udrv_request_get_values() are then
 * register accesses: one store per register touched, through the SoC's
 * write-1-to-set / write-1-to-clear registers (never a read-modify-write of
 * shared state), and one load of each level register.
 *
 * Other SoCs and FPGA GPIO cores: describe the registers in a
 * struct udrv_gpio_layout and pass it in udrv_request_config.layout.
 *
 * What the kernel no longer sees: the values written through the registers
 * (gpiolib's tracepoints and any kernel consumer of the value), open-drain
 * emulation (refused: -EOPNOTSUPP), and edge events caused by these writes.
 * Edges from outside on input lines still arrive through the character
 * device (udrv_request_read_events()).
 */
#ifndef UDRV_GPIO_MMIO_H
#define UDRV_GPIO_MMIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_chip;
struct udrv_request;

#define UDRV_GPIO_MAP_PATH_LEN	256

/*
 * A GPIO register block: offsets in bytes from @base, -1 for a register the
 * block does not have. Start from UDRV_GPIO_LAYOUT_INIT (every register
 * absent) and fill in what the block has. Line N of the chip is bit
 * N % width of bank N / width; bank k's registers are @bank_stride bytes
 * after bank k-1's.
 *
 *   Xilinx AXI GPIO, channel 1:  data_in = data_out = 0x0, dir = 0x4,
 *                                dir_input_high (GPIO_TRI: 1 = input)
 *   Linux gpio-mmio ("dat/set/clr/dirout"):  data_in, set, clear, dir
 *
 * Without set/clear registers a write is a store of the whole data register
 * from a shadow copy taken when the lines were claimed: bits of other lines
 * in the block (other users) are overwritten with the values they had then.
 *
 * A layout is refused (-EINVAL, with a message) when a register of one bank
 * falls on a different register of any bank (a store meant for one line
 * would change another), when a stride used by more than one bank is not a
 * multiple of the register width (misaligned registers), or when the banks
 * span more than 2 GiB or more than @size.
 */
struct udrv_gpio_layout {
	uint64_t base;		/* physical address of the block */
	size_t size;		/* bytes to map; 0: what the offsets need */
	unsigned int width;	/* register width in bits: 8, 16, 32 (0: 32) */
	int32_t data_in;	/* input level register (-1: read data_out) */
	int32_t data_out;	/* output data register */
	int32_t set;		/* write 1 to set (with clear) */
	int32_t clear;		/* write 1 to clear (with set) */
	int32_t dir;		/* direction, checked after the claim */
	bool dir_input_high;	/* in dir, 1 = input; false: 1 = output */
	uint32_t bank_stride;	/* bytes between banks; 0: a single bank */
	/* Map from this file (a /dev/uioN, a test file) at @map_offset
	 * instead of searching (UIO map covering @base, then /dev/mem). */
	char map_path[UDRV_GPIO_MAP_PATH_LEN];
	uint64_t map_offset;
};

#define UDRV_GPIO_LAYOUT_INIT						\
	{ .data_in = -1, .data_out = -1, .set = -1, .clear = -1, .dir = -1 }

/*
 * Parse "base=0x41200000,data=0x0,dir=0x4,dir-input=1,width=32" into
 * @layout (started from UDRV_GPIO_LAYOUT_INIT). Keys: base, size, width,
 * data (data_in and data_out), data-in, data-out, set, clear, dir,
 * dir-input (1: a 1 bit means input; 0: output), stride, map, map-offset.
 * Each register and value once (data counts as data-in and data-out).
 * Returns 0, or -EINVAL with a message in @errbuf.
 */
int udrv_gpio_layout_parse_sz(const char *spec,
			      struct udrv_gpio_layout *layout,
			      size_t layout_size, char *errbuf, size_t errlen);
#define udrv_gpio_layout_parse(spec, layout, errbuf, errlen)		\
	udrv_gpio_layout_parse_sz(spec, layout,				\
				  sizeof(struct udrv_gpio_layout), errbuf, errlen)

/* Where a line's registers are, as the mmio backend would use them. */
struct udrv_mmio_line_info {
	char soc[24];		/* "bcm2837", "bcm2711", "rp1", "am335x", "generic" */
	char device[64];	/* the chip's device ("3f200000.gpio"), or "" */
	char map_path[UDRV_GPIO_MAP_PATH_LEN];	/* /dev/gpiomem, /dev/uio0, /dev/mem */
	uint64_t map_offset;	/* byte offset of the block in map_path */
	uint64_t phys;		/* physical address of the block */
	size_t size;		/* bytes of the block */
	unsigned int width;	/* register width, bits */
	int32_t set, clear, level;	/* this line's registers, from the block; -1: none */
	uint32_t mask;		/* the line's bit in them */
	char set_name[24], clear_name[24], level_name[24];	/* "GPSET0" */
};

/*
 * Resolve line @offset of @chip like the mmio backend does (SoC, bank,
 * registers) and try the mapping (unmapped again; no register is
 * accessed, nothing is claimed). @layout may be NULL (a known SoC).
 * Errors go to udrv_chip_errmsg(): unknown SoC, not a GPIO bank of the
 * SoC, mapping refused (and what to do).
 */
int udrv_chip_mmio_line_info_sz(struct udrv_chip *chip,
				const struct udrv_gpio_layout *layout,
				size_t layout_size, unsigned int offset,
				struct udrv_mmio_line_info *info,
				size_t info_size);
#define udrv_chip_mmio_line_info(chip, layout, offset, info)		\
	udrv_chip_mmio_line_info_sz(chip, layout,			\
				    sizeof(struct udrv_gpio_layout), offset, \
				    info, sizeof(struct udrv_mmio_line_info))

/*
 * Frozen for the life of libudrv.so.1: struct udrv_mmio_pin is read by the
 * inline functions below, compiled into the caller; it never grows.
 *
 * The inline fast path: one line's registers, valid until the request is
 * released. udrv_mmio_pin_write() is one store (to set or clear; their
 * roles are swapped for an active-low line), udrv_mmio_pin_read() one load.
 * Both are relaxed, like udrv_write32_relaxed(): in order among register
 * accesses, not ordered against normal memory (use udrv_wmb()).
 * For an input line, set and clear are NULL: read only.
 */
struct udrv_mmio_pin {
	union {
		struct {
			volatile uint32_t *set;		/* store mask: active */
			volatile uint32_t *clear;	/* store mask: inactive */
		};
		volatile uint32_t *reg[2];	/* [0] set, [1] clear */
	};
	const volatile uint32_t *level;	/* the line's level */
	uint32_t mask;
	uint32_t invert;		/* mask for an active-low line, else 0 */
};

/*
 * Fill @pin for line index @idx of an mmio request. -EOPNOTSUPP (with a
 * message) when the block has no set/clear registers or its registers are
 * not 32 bits wide; -EINVAL for another backend or a bad index.
 */
int udrv_request_mmio_pin(struct udrv_request *req, size_t idx,
			  struct udrv_mmio_pin *pin);

/*
 * A pin is a copy, taken for the line's direction and polarity at that
 * time. While pins of a line are out, udrv_request_reconfigure() refuses
 * (-EBUSY) to change that line's direction or active-low setting: the pin
 * would go on driving the inverted level. Call this when the program no
 * longer uses any pin of @req; reconfigure, then take the pins again.
 */
void udrv_request_mmio_pins_release(struct udrv_request *req);

/*
 * Drive the line: logical 1 (active) or 0. Exactly one store, and no branch:
 * the register is picked by an indexed load.
 */
static inline void udrv_mmio_pin_write(const struct udrv_mmio_pin *p, int v)
{
	*p->reg[!v] = p->mask;
}

/* The line's logical level: one load. */
static inline int udrv_mmio_pin_read(const struct udrv_mmio_pin *p)
{
	return ((*p->level ^ p->invert) & p->mask) != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* UDRV_GPIO_MMIO_H */
