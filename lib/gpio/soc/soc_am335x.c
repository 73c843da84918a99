// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * TI AM335x (BeagleBone) GPIO: four banks of 32 lines, each its own chip
 * (the kernel's gpio-omap), each a 4 KiB block: GPIO_OE (0x134, 1 = input),
 * GPIO_DATAIN (0x138, the pins' levels), GPIO_DATAOUT (0x13c, the latch),
 * GPIO_CLEARDATAOUT (0x190) and GPIO_SETDATAOUT (0x194), write-1 to clear /
 * set the latch's bits (VanguardiaSur, Fast GPIO toggle on BeagleBone Black;
 * docs/references.md).
 *
 * A bank's module clock is off until one of its lines is requested, and an
 * access to a module without its clock is a bus error: the mmio backend
 * claims the lines (so gpio-omap enables the bank) before touching the
 * registers. Pulls live in the control module's pad registers, not here.
 */
#include <errno.h>
#include <stdio.h>

#include "gpio/soc/soc.h"

#define GPIO_OE			0x134
#define GPIO_DATAIN		0x138
#define GPIO_DATAOUT		0x13c
#define GPIO_CLEARDATAOUT	0x190
#define GPIO_SETDATAOUT		0x194
#define BANK_SIZE		0x1000

static const uint64_t banks[] = {
	0x44e07000, 0x4804c000, 0x481ac000, 0x481ae000,
};

static const char *const compatible[] = { "ti,am33xx", NULL };

static int bank_index(const struct udrv_soc_chip *chip)
{
	for (size_t i = 0; chip->has_addr && i < ARRAY_SIZE(banks); i++)
		if (chip->addr == banks[i])
			return (int)i;
	return -1;
}

static int am335x_resolve(struct udrv_soc_bank *b,
			  const struct udrv_soc_chip *chip, const char *compat,
			  const struct udrv_gpio_layout *layout, char *errmsg)
{
	int bank = bank_index(chip);

	if (bank < 0)
		return udrv_err(errmsg, ENODEV,
				"%s (%s%s%s) is not an AM335x GPIO bank (devices 44e07000.gpio, 4804c000.gpio, 481ac000.gpio, 481ae000.gpio): its lines are not in those registers; use the cdev backend for this chip",
				chip->name, chip->label,
				chip->device[0] ? ", device " : ", no device address in sysfs",
				chip->device);
	snprintf(b->soc, sizeof(b->soc), "am335x");
	b->variant = bank;
	b->phys = banks[bank];
	b->size = BANK_SIZE;
	b->width = 32;
	b->lines = 32;
	b->stride = 0;
	b->reg[SOC_REG_LEVEL] = GPIO_DATAIN;
	b->reg[SOC_REG_OUT] = GPIO_DATAOUT;
	b->reg[SOC_REG_SET] = GPIO_SETDATAOUT;
	b->reg[SOC_REG_CLEAR] = GPIO_CLEARDATAOUT;
	b->reg[SOC_REG_DIR] = GPIO_OE;
	b->reg_name[SOC_REG_LEVEL] = "GPIO_DATAIN";
	b->reg_name[SOC_REG_OUT] = "GPIO_DATAOUT";
	b->reg_name[SOC_REG_SET] = "GPIO_SETDATAOUT";
	b->reg_name[SOC_REG_CLEAR] = "GPIO_CLEARDATAOUT";
	b->reg_name[SOC_REG_DIR] = "GPIO_OE";
	b->dir_input_high = true;
	return 0;
}

static int am335x_is_output(const struct udrv_soc_bank *b,
			    const volatile uint8_t *regs, unsigned int line,
			    char *what, size_t len)
{
	uint32_t oe = *(const volatile uint32_t *)(regs + GPIO_OE);
	int out = !(oe & (1u << line));

	snprintf(what, len, "GPIO_OE bit %u is %d (%s)", line, !out,
		 out ? "output" : "input");
	return out;
}

static int am335x_pull(const struct udrv_soc_bank *b,
		       const volatile uint8_t *regs, unsigned int line)
{
	return -EOPNOTSUPP;	/* in the control module's pad registers */
}

const struct udrv_soc_driver udrv_soc_am335x = {
	.name = "am335x",
	.compatible = compatible,
	.resolve = am335x_resolve,
	.is_output = am335x_is_output,
	.pull = am335x_pull,
};
