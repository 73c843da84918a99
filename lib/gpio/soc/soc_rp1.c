// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Raspberry Pi RP1 GPIO (Raspberry Pi 5, CM5: the I/O controller behind
 * the BCM2712's PCIe): 54 lines in three banks of 28, 6 and 20, the kernel's
 * pinctrl-rp1 chip (gpiochip0 on current kernels, gpiochip4 on older ones,
 * after the BCM2712's own four). Found by the chip itself, not the board:
 * its node's compatible "raspberrypi,rp1-gpio" or its label "pinctrl-rp1".
 *
 * Three blocks, each with a bank every 0x4000 bytes, one after the other as
 * /dev/gpiomem0 maps them (offsets from IO_BANK0, the chip's device address
 * "1f000d0000.gpio"):
 *   IO_BANKb  0x00000 + b * 0x4000: GPIOn_STATUS at 8n, GPIOn_CTRL at 8n + 4
 *             (FUNCSEL bits 4:0, 5 = SYS_RIO, the registered I/O; OUTOVER
 *             13:12 and OEOVER 15:14, 0 = as the function drives them);
 *   SYS_RIOb  0x10000 + b * 0x4000: RIO_OUT 0x0, RIO_OE 0x4 (1 = output),
 *             RIO_IN 0x8 (the pins' levels, synchronised);
 *   PADSb     0x20000 + b * 0x4000: the voltage select at 0, GPIOn's pad at
 *             4 + 4n (OD bit 7: output disabled, IE bit 6: input enabled,
 *             PUE bit 3, PDE bit 2).
 * Every register has aliases that change it atomically: +0x1000 XOR,
 * +0x2000 SET, +0x3000 CLR (a write of a mask there flips, sets or clears
 * those bits of the register alone). The mmio backend drives a line by a
 * write of its bit to RIO_OUT's SET or CLR alias, never to RIO_OUT itself,
 * which the other lines of the bank share.
 *
 * Sources (docs/references.md, "Register layouts"): Raspberry Pi Ltd's RP1
 * peripherals datasheet (a draft) for the blocks, the atomic aliases and the
 * registers' fields, cross-checked offset by offset against Raspberry Pi's
 * pinctrl (raspberrypi/utils, gpiochip_rp1.c), the kernel's pinctrl-rp1 and
 * rppal (golemparts/rppal, gpiomem/rp1.rs): all three agree on every offset
 * and bit used here. RIO_IN at 0x8 is what the three read; the datasheet
 * draft as others quote it names 0x8 NOSYNC_IN and 0xc SYNC_IN, which we
 * could not check against the datasheet itself (the doubt is the
 * synchroniser only, both are the pins' levels). The kernel sets FUNCSEL,
 * RIO_OE and the pad when a line is requested; we only check them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gpio/soc/soc.h"

#define RP1_LINES	54
#define RP1_SIZE	0x30000		/* IO_BANK, SYS_RIO, PADS */
#define RP1_PHYS	0x1f000d0000ULL	/* IO_BANK0 as the Pi 5 maps it */
#define BANK_STRIDE	0x4000
#define IO_BANK		0x00000
#define SYS_RIO		0x10000
#define PADS		0x20000
#define ALIAS_SET	0x2000
#define ALIAS_CLR	0x3000
#define RIO_OUT		0x0
#define RIO_OE		0x4
#define RIO_IN		0x8
#define CTRL_FUNCSEL	0x1fu
#define CTRL_OUTOVER	(3u << 12)
#define CTRL_OEOVER	(3u << 14)
#define FUNCSEL_RIO	5
#define FUNCSEL_NULL	0x1f
#define PAD_OD		(1u << 7)
#define PAD_IE		(1u << 6)
#define PAD_PUE		(1u << 3)
#define PAD_PDE		(1u << 2)

static const unsigned int bank_lines[] = { 28, 6, 20 };

static bool rp1_claims(const struct udrv_soc_chip *chip)
{
	return udrv_soc_compatible_has(chip->compatible, chip->compatible_len,
				       "raspberrypi,rp1-gpio") ||
	       (chip->label && !strcmp(chip->label, "pinctrl-rp1"));
}

static int rp1_resolve(struct udrv_soc_bank *b, const struct udrv_soc_chip *chip,
		       const char *compat, const struct udrv_gpio_layout *layout,
		       char *errmsg)
{
	snprintf(b->soc, sizeof(b->soc), "rp1");
	b->phys = chip->has_addr ? chip->addr : RP1_PHYS;
	b->size = RP1_SIZE;
	b->width = 32;
	b->lines = RP1_LINES;
	b->stride = BANK_STRIDE;
	b->groups = bank_lines;
	b->num_groups = ARRAY_SIZE(bank_lines);
	b->reg[SOC_REG_LEVEL] = SYS_RIO + RIO_IN;
	b->reg[SOC_REG_OUT] = SYS_RIO + RIO_OUT;
	b->reg[SOC_REG_SET] = SYS_RIO + ALIAS_SET + RIO_OUT;
	b->reg[SOC_REG_CLEAR] = SYS_RIO + ALIAS_CLR + RIO_OUT;
	b->reg[SOC_REG_DIR] = SYS_RIO + RIO_OE;
	b->reg_name[SOC_REG_LEVEL] = "SYS_RIO%u RIO_IN";
	b->reg_name[SOC_REG_OUT] = "SYS_RIO%u RIO_OUT";
	b->reg_name[SOC_REG_SET] = "SYS_RIO%u RIO_OUT SET";
	b->reg_name[SOC_REG_CLEAR] = "SYS_RIO%u RIO_OUT CLR";
	b->reg_name[SOC_REG_DIR] = "SYS_RIO%u RIO_OE";
	b->gpiomem = "/dev/gpiomem0";
	return 0;
}

static uint32_t rd(const volatile uint8_t *regs, uint32_t off)
{
	return *(const volatile uint32_t *)(regs + off);
}

static int not_a_gpio(unsigned int line, unsigned int f, uint32_t ctrl,
		      char *what, size_t len)
{
	if (f == FUNCSEL_RIO)
		snprintf(what, len,
			 "GPIO%u_CTRL overrides the output or its enable (OUTOVER %u, OEOVER %u, CTRL 0x%08x): something other than the kernel's GPIO driver configured it",
			 line, (ctrl >> 12) & 3, (ctrl >> 14) & 3, ctrl);
	else if (f == FUNCSEL_NULL)
		snprintf(what, len,
			 "GPIO%u_CTRL's FUNCSEL is 0x1f (no function): the pin is switched off",
			 line);
	else
		snprintf(what, len,
			 "GPIO%u_CTRL's FUNCSEL is a%u, not a5 (SYS_RIO, GPIO): the kernel has muxed the pin to another function (a device-tree overlay or dtparam, e.g. a UART, I2C, SPI or PWM; Raspberry Pi's 'pinctrl get %u' names it); free it there or use another line",
			 line, f, line);
	return -EBUSY;
}

/*
 * The pin is a GPIO (FUNCSEL SYS_RIO, no override), its pad lets it do what
 * it was claimed for (an output: OD clear; both: IE set, RIO_IN reads the
 * pad), and RIO_OE says which it is.
 */
static int rp1_is_output(const struct udrv_soc_bank *b,
			 const volatile uint8_t *regs, unsigned int line,
			 char *what, size_t len)
{
	unsigned int n, w = udrv_soc_word(b, line, &n);
	uint32_t ctrl = rd(regs, IO_BANK + w * BANK_STRIDE + 8 * n + 4);
	uint32_t pad = rd(regs, PADS + w * BANK_STRIDE + 4 + 4 * n);
	uint32_t oe = rd(regs, SYS_RIO + w * BANK_STRIDE + RIO_OE);
	unsigned int f = ctrl & CTRL_FUNCSEL;
	int out = !!(oe & (1u << n));

	if (f != FUNCSEL_RIO || (ctrl & (CTRL_OUTOVER | CTRL_OEOVER)))
		return not_a_gpio(line, f, ctrl, what, len);
	if (!(pad & PAD_IE)) {
		snprintf(what, len,
			 "GPIO%u's pad (PADS%u + 0x%x = 0x%08x) has its input disabled (IE clear): its level cannot be read",
			 line, w, 4 + 4 * n, pad);
		return -EIO;
	}
	if (out && (pad & PAD_OD)) {
		snprintf(what, len,
			 "GPIO%u's pad (PADS%u + 0x%x = 0x%08x) has its output disabled (OD set) though RIO_OE enables it",
			 line, w, 4 + 4 * n, pad);
		return -EIO;
	}
	snprintf(what, len, "SYS_RIO%u RIO_OE bit %u is %d (%s)", w, n, out,
		 out ? "output" : "input");
	return out;
}

static int rp1_pull(const struct udrv_soc_bank *b, const volatile uint8_t *regs,
		    unsigned int line)
{
	unsigned int n, w = udrv_soc_word(b, line, &n);
	uint32_t pad = rd(regs, PADS + w * BANK_STRIDE + 4 + 4 * n);

	switch (pad & (PAD_PUE | PAD_PDE)) {
	case 0:
		return UDRV_BIAS_DISABLED;
	case PAD_PUE:
		return UDRV_BIAS_PULL_UP;
	case PAD_PDE:
		return UDRV_BIAS_PULL_DOWN;
	default:
		return -EIO;	/* both: a bus keeper */
	}
}

const struct udrv_soc_driver udrv_soc_rp1 = {
	.name = "rp1",
	.compatible = NULL,
	.claims = rp1_claims,
	.resolve = rp1_resolve,
	.is_output = rp1_is_output,
	.pull = rp1_pull,
};
