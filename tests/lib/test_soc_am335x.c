// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mmio backend on a simulated AM335x GPIO bank: the bank from the
 * chip's device (4804c000.gpio is bank 1), GPIO_SETDATAOUT /
 * GPIO_CLEARDATAOUT written with the line's bit only (GPIO_DATAOUT, GPIO_OE
 * and GPIO_DATAIN never written), levels from GPIO_DATAIN, the claim
 * checked in GPIO_OE, the inline pin.
 */
#include <errno.h>
#include <stdio.h>

#include "gpio/backend.h"
#include "fake_gpio.h"
#include "harness.h"
#include "gpio/soc/soc.h"
#include "soc_sim.h"

#define BONE_COMPAT	"ti,am335x-bone-black\0ti,am335x-bone\0ti,am33xx"
#define BANK1		0x4804c000ULL

static const struct udrv_line_settings OUT = { .direction = UDRV_DIR_OUTPUT };
static const struct udrv_line_settings IN = { .direction = UDRV_DIR_INPUT };

static struct udrv_chip *bone(struct sim *s, const char *device)
{
	sim_tree(BONE_COMPAT, sizeof(BONE_COMPAT), device, "gpio-32-63", 32);
	sim_devfile("dev/mem", 0x481ae000ULL + 0x10000);
	sim_devfile("dev/gpiomem", 0x10000);	/* not for an AM335x */
	sim_attach(s, SIM_AM335X, "dev/mem", BANK1);
	return sim_chip();
}

static void test_bank_of_the_chip(void)
{
	static const uint64_t banks[4] = {
		0x44e07000, 0x4804c000, 0x481ac000, 0x481ae000,
	};
	struct udrv_chip *chip = udrv_chip_new();
	struct udrv_mmio_line_info info;
	struct udrv_soc_bank bank;
	char err[UDRV_ERRMSG_LEN], dev[32], name[16];

	sim_tree(BONE_COMPAT, sizeof(BONE_COMPAT), "44e07000.gpio", "gpio-0-31",
		 32);
	sim_devfile("dev/mem", 0x481ae000ULL + 0x10000);
	sim_devfile("dev/gpiomem", 0x10000);	/* not for an AM335x */
	for (int i = 1; i < 4; i++) {
		snprintf(dev, sizeof(dev), "%llx.gpio", (unsigned long long)banks[i]);
		fake_gpio_chip(i, dev, 512 + 32 * i, 32, "gpio");
	}
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "gpiochip%d", i);
		CHECK_INT(udrv_chip_open(chip, name), 0);
		CHECK_INT(udrv_soc_bank_find(&bank, chip, NULL, err), 0);
		CHECK_STR(bank.soc, "am335x");
		CHECK_INT(bank.variant, i);
		CHECK(bank.phys == banks[i]);
		CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 5, &info), 0);
		CHECK(info.phys == banks[i]);
		CHECK_INT(info.set, 0x194);
		CHECK_INT(info.clear, 0x190);
		CHECK_INT(info.level, 0x138);
		CHECK_INT(info.mask, 1u << 5);
		CHECK_STR(info.set_name, "GPIO_SETDATAOUT");
		CHECK_STR(info.level_name, "GPIO_DATAIN");
		CHECK_CONTAINS(info.map_path, "/dev/mem");	/* not gpiomem */
		CHECK(info.map_offset == banks[i]);
	}
	udrv_chip_free(chip);
}

static void test_not_a_gpio_bank(void)
{
	char err[UDRV_ERRMSG_LEN];
	struct udrv_soc_bank bank;
	struct udrv_chip *chip;
	struct sim s = { 0 };

	/* an I2C expander's chip on the same board */
	chip = bone(&s, "0-0020");
	CHECK_INT(udrv_soc_bank_find(&bank, chip, NULL, err), -ENODEV);
	CHECK_CONTAINS(err, "gpiochip0 (gpio-32-63, device 0-0020) is not an AM335x GPIO bank");
	CHECK_CONTAINS(err, "use the cdev backend");
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_set_clear_datain(void)
{
	const unsigned int lines[3] = { 5, 28, 12 };
	const struct udrv_line_settings st[3] = { OUT, OUT, IN };
	struct udrv_request *req;
	struct udrv_chip *chip;
	char err[UDRV_ERRMSG_LEN] = "";
	struct sim s = { 0 };
	uint64_t v = 0;

	chip = bone(&s, "4804c000.gpio");
	sim_claim(&s, 5, true, 0);
	sim_claim(&s, 28, true, 1);
	sim_claim(&s, 12, false, 0);
	s.latch[0] |= 1u << 30;		/* another user's output, high */
	sim_claim(&s, 30, true, 1);
	CHECK_INT(sim_request(chip, 3, lines, st, NULL, &req, err), 0);
	CHECK_STR(err, "");
	CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
	CHECK_INT(sim_reg(&s, AM_SET), 1u << 5);
	CHECK_INT(sim_reg(&s, AM_CLEAR), SIM_POISON);
	sim_settle(&s);
	CHECK_STR(s.violation, "");
	CHECK_INT(sim_reg(&s, AM_DATAOUT) & (1u << 5), 1u << 5);
	CHECK_INT(udrv_request_set_values(req, 0x3, 0x1), 0);
	CHECK_INT(sim_reg(&s, AM_SET), 1u << 5);
	CHECK_INT(sim_reg(&s, AM_CLEAR), 1u << 28);
	sim_settle(&s);
	CHECK_STR(s.violation, "");
	CHECK_INT(sim_level(&s, 28), 0);
	CHECK_INT(sim_level(&s, 30), 1);	/* untouched */
	s.ext[0] = 1u << 12;
	sim_prepare(&s);
	CHECK_INT(udrv_request_get_values(req, 0x7, &v), 0);
	CHECK_INT(v, 0x5);
	CHECK_INT(udrv_request_set_value(req, 1, 1), 0);
	sim_settle(&s);
	CHECK_INT(udrv_request_get_value(req, 1), 1);
	CHECK_INT(udrv_request_set_value(req, 2, 1), -EPERM);
	CHECK_STR(s.violation, "");
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_claim_checked_in_oe(void)
{
	const unsigned int line = 5;
	struct udrv_request *req;
	struct udrv_chip *chip;
	char err[UDRV_ERRMSG_LEN] = "";
	struct sim s = { 0 };

	chip = bone(&s, "4804c000.gpio");
	sim_set_reg(&s, AM_OE, 0xffffffff);	/* reset state: all inputs */
	CHECK_INT(sim_request(chip, 1, &line, &OUT, NULL, &req, err), -EIO);
	CHECK_CONTAINS(err, "claimed as an output, but GPIO_OE bit 5 is 1 (input)");
	CHECK_CONTAINS(err, "/dev/mem (0x4804c000)");
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_inline_pin_active_low(void)
{
	const unsigned int line = 21;
	struct udrv_line_settings st = OUT;
	struct udrv_mmio_pin pin;
	struct udrv_request *req;
	struct udrv_chip *chip;
	char err[UDRV_ERRMSG_LEN] = "";
	struct sim s = { 0 };

	chip = bone(&s, "4804c000.gpio");
	st.active_low = true;
	sim_claim(&s, line, true, 1);
	CHECK_INT(sim_request(chip, 1, &line, &st, NULL, &req, err), 0);
	CHECK_INT(udrv_request_mmio_pin(req, 0, &pin), 0);
	udrv_mmio_pin_write(&pin, 1);
	CHECK_INT(sim_reg(&s, AM_CLEAR), 1u << 21);
	CHECK_INT(sim_reg(&s, AM_SET), SIM_POISON);
	sim_settle(&s);
	CHECK_INT(sim_level(&s, line), 0);
	CHECK_INT(udrv_mmio_pin_read(&pin), 1);
	udrv_mmio_pin_write(&pin, 0);
	CHECK_INT(sim_reg(&s, AM_SET), 1u << 21);
	sim_settle(&s);
	CHECK_INT(udrv_mmio_pin_read(&pin), 0);
	CHECK_STR(s.violation, "");
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

UDRV_TESTS(UDRV_T(test_bank_of_the_chip), UDRV_T(test_not_a_gpio_bank),
	   UDRV_T(test_set_clear_datain), UDRV_T(test_claim_checked_in_oe),
	   UDRV_T(test_inline_pin_active_low))
