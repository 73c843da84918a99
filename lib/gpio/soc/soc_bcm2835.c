// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Broadcom BCM2835/6/7 (Raspberry Pi 0-3) and BCM2711 (Pi 4) GPIO: one block
 * of 54 (BCM2711: 58) lines, the kernel's pinctrl-bcm2835 / pinctrl-bcm2711
 * chip. Per line: a 3-bit function in GPFSELn (000 input, 001 output,
 * alternates), write-1-to-set GPSET0/1 (0x1c), write-1-to-clear GPCLR0/1
 * (0x28), the levels in GPLEV0/1 (0x34); 32 lines per word.
 *
 * Pulls differ: the BCM2835 programs them through GPPUD (0x94) and a clock
 * pulse on GPPUDCLK0/1 (0x98), and they cannot be read back; the BCM2711
 * has 2 bits per line in GPIO_PUP_PDN_CNTRL_REG0..3 (0xe4, 16 lines each:
 * 00 none, 01 up, 10 down). The kernel sets them when the line is claimed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gpio/soc/soc.h"

#define GPFSEL0		0x00
#define GPSET0		0x1c
#define GPCLR0		0x28
#define GPLEV0		0x34
#define PUP_PDN0	0xe4		/* BCM2711 */
#define FSEL_OUTPUT	1

enum { BCM2835, BCM2711 };

struct bcm_variant {
	const char *compatible;
	const char *soc;
	int variant;
	unsigned int lines;
	size_t size;
	uint64_t phys[2];		/* where the block may be; 0: none */
};

static const struct bcm_variant variants[] = {
	{ "brcm,bcm2835", "bcm2835", BCM2835, 54, 0xb4, { 0x20200000 } },
	{ "brcm,bcm2836", "bcm2836", BCM2835, 54, 0xb4, { 0x3f200000 } },
	{ "brcm,bcm2837", "bcm2837", BCM2835, 54, 0xb4, { 0x3f200000 } },
	/* low peripheral mode (the default), and arm_peri_high=1 */
	{ "brcm,bcm2711", "bcm2711", BCM2711, 58, 0xf4,
	  { 0xfe200000, 0x47e200000ULL } },
};

static const char *const compatible[] = {
	"brcm,bcm2835", "brcm,bcm2836", "brcm,bcm2837", "brcm,bcm2711", NULL,
};

static const struct bcm_variant *variant_of(const char *compat)
{
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++)
		if (compat && !strcmp(variants[i].compatible, compat))
			return &variants[i];
	return &variants[0];
}

static bool is_bcm_label(const char *label)
{
	return !strcmp(label, "pinctrl-bcm2835") ||
	       !strcmp(label, "pinctrl-bcm2711");
}

static bool known_address(const struct bcm_variant *v, uint64_t addr)
{
	return addr && (addr == v->phys[0] || addr == v->phys[1]);
}

static int not_the_block(const struct bcm_variant *v,
			 const struct udrv_soc_chip *chip, char *errmsg)
{
	return udrv_err(errmsg, ENODEV,
			"%s (%s%s%s) is not the %s's GPIO block (pinctrl-bcm2835 at 0x%llx): its lines are not in those registers; use the cdev backend for this chip",
			chip->name, chip->label, chip->device[0] ? ", device " : "",
			chip->device, v->soc, (unsigned long long)v->phys[0]);
}

static int bcm_resolve(struct udrv_soc_bank *b, const struct udrv_soc_chip *chip,
		       const char *compat, const struct udrv_gpio_layout *layout,
		       char *errmsg)
{
	const struct bcm_variant *v = variant_of(compat);

	if (!is_bcm_label(chip->label) &&
	    !(chip->has_addr && known_address(v, chip->addr)))
		return not_the_block(v, chip, errmsg);
	udrv_strlcpy(b->soc, v->soc, sizeof(b->soc));
	b->variant = v->variant;
	b->phys = chip->has_addr ? chip->addr : v->phys[0];
	b->size = v->size;
	b->width = 32;
	b->lines = v->lines;
	b->stride = 4;
	b->reg[SOC_REG_LEVEL] = GPLEV0;
	b->reg[SOC_REG_OUT] = -1;	/* the latch cannot be read */
	b->reg[SOC_REG_SET] = GPSET0;
	b->reg[SOC_REG_CLEAR] = GPCLR0;
	b->reg[SOC_REG_DIR] = -1;	/* function select instead */
	b->reg_name[SOC_REG_LEVEL] = "GPLEV%u";
	b->reg_name[SOC_REG_SET] = "GPSET%u";
	b->reg_name[SOC_REG_CLEAR] = "GPCLR%u";
	b->gpiomem = "/dev/gpiomem";
	return 0;
}

static const char *fsel_name(unsigned int f)
{
	static const char *const names[8] = {
		"input", "output", "alt5", "alt4", "alt0", "alt1", "alt2", "alt3",
	};

	return names[f & 7];
}

static int bcm_is_output(const struct udrv_soc_bank *b,
			 const volatile uint8_t *regs, unsigned int line,
			 char *what, size_t len)
{
	unsigned int word = line / 10, shift = (line % 10) * 3;
	uint32_t v = *(const volatile uint32_t *)(regs + GPFSEL0 + 4 * word);
	unsigned int f = (v >> shift) & 7;

	snprintf(what, len, "GPFSEL%u says %s (0b%u%u%u)", word, fsel_name(f),
		 f >> 2, (f >> 1) & 1, f & 1);
	return f == FSEL_OUTPUT;
}

static int bcm_pull(const struct udrv_soc_bank *b, const volatile uint8_t *regs,
		    unsigned int line)
{
	static const int bias[4] = {
		UDRV_BIAS_DISABLED, UDRV_BIAS_PULL_UP, UDRV_BIAS_PULL_DOWN, -EIO,
	};
	uint32_t v;

	if (b->variant != BCM2711)
		return -EOPNOTSUPP;	/* GPPUD/GPPUDCLK are write-only */
	v = *(const volatile uint32_t *)(regs + PUP_PDN0 + 4 * (line / 16));
	return bias[(v >> ((line % 16) * 2)) & 3];
}

const struct udrv_soc_driver udrv_soc_bcm2835 = {
	.name = "bcm2835",
	.compatible = compatible,
	.resolve = bcm_resolve,
	.is_output = bcm_is_output,
	.pull = bcm_pull,
};
