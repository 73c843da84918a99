// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mmio backend on a simulated BCM2837 / BCM2711 GPIO block: one store
 * to GPSETn / GPCLRn per edge and never a read-modify-write, levels from
 * GPLEVn, lines 32+ in the second words, several lines in one store per
 * register, active-low, inputs refused for writing, the inline pin, the
 * function-select check after the claim, the BCM2711's pull registers.
 */
#include <errno.h>
#include <stdlib.h>

#include "gpio/backend.h"
#include "harness.h"
#include "gpio/soc/soc.h"
#include "soc_sim.h"

#define PI3_COMPAT	"raspberrypi,3-model-b\0brcm,bcm2837"
#define PI4_COMPAT	"raspberrypi,4-model-b\0brcm,bcm2711"
#define PI3_BASE	0x3f200000ULL
#define PI4_BASE	0xfe200000ULL

static const struct udrv_line_settings OUT = { .direction = UDRV_DIR_OUTPUT };
static const struct udrv_line_settings IN = { .direction = UDRV_DIR_INPUT };

static struct udrv_chip *pi3(struct sim *s)
{
	sim_tree(PI3_COMPAT, sizeof(PI3_COMPAT), "3f200000.gpio",
		 "pinctrl-bcm2835", 54);
	sim_devfile("dev/mem", PI3_BASE + 0x10000);
	sim_attach(s, SIM_BCM2835, "dev/mem", PI3_BASE);
	return sim_chip();
}

static struct udrv_request *request(struct udrv_chip *chip, size_t n,
				    const unsigned int *offsets,
				    const struct udrv_line_settings *s)
{
	struct udrv_request *req;
	char err[UDRV_ERRMSG_LEN] = "";

	CHECK_INT(sim_request(chip, n, offsets, s, NULL, &req, err), 0);
	if (err[0])
		harness_fail(__FILE__, __LINE__, "%s", err);
	return req;
}

static void test_set_is_one_store_to_set_or_clear(void)
{
	const unsigned int line = 17;
	struct udrv_request *req;
	struct udrv_chip *chip;
	struct sim s = { 0 };

	chip = pi3(&s);
	sim_claim(&s, line, true, 0);
	req = request(chip, 1, &line, &OUT);
	CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
	CHECK_INT(sim_reg(&s, BCM_GPSET0), 1u << 17);		/* exactly this */
	CHECK_INT(sim_reg(&s, BCM_GPCLR0), SIM_POISON);	/* untouched */
	CHECK_INT(sim_reg(&s, BCM_GPSET0 + 4), SIM_POISON);
	sim_settle(&s);
	CHECK_STR(s.violation, "");
	CHECK_INT(sim_level(&s, line), 1);
	CHECK_INT(udrv_request_get_value(req, 0), 1);
	CHECK_INT(udrv_request_set_value(req, 0, 0), 0);
	CHECK_INT(sim_reg(&s, BCM_GPCLR0), 1u << 17);
	CHECK_INT(sim_reg(&s, BCM_GPSET0), SIM_POISON);
	sim_settle(&s);
	CHECK_STR(s.violation, "");
	CHECK_INT(sim_level(&s, line), 0);
	CHECK_INT(udrv_request_get_value(req, 0), 0);
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_line_40_is_in_the_second_word(void)
{
	const unsigned int line = 40;
	struct udrv_request *req;
	struct udrv_chip *chip;
	struct sim s = { 0 };

	chip = pi3(&s);
	sim_claim(&s, line, true, 0);
	req = request(chip, 1, &line, &OUT);
	CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
	CHECK_INT(sim_reg(&s, BCM_GPSET0 + 4), 1u << 8);	/* GPSET1 bit 8 */
	CHECK_INT(sim_reg(&s, BCM_GPSET0), SIM_POISON);
	sim_settle(&s);
	CHECK_STR(s.violation, "");
	CHECK_INT(sim_level(&s, 40), 1);
	CHECK_INT(sim_level(&s, 8), 0);
	CHECK_INT(udrv_request_get_value(req, 0), 1);
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_several_lines_one_store_per_register(void)
{
	const unsigned int lines[4] = { 17, 27, 40, 4 };
	const struct udrv_line_settings st[4] = { OUT, OUT, OUT, IN };
	struct udrv_request *req;
	struct udrv_chip *chip;
	struct sim s = { 0 };
	uint64_t v = 0;

	chip = pi3(&s);
	for (int i = 0; i < 3; i++)
		sim_claim(&s, lines[i], true, i == 1);
	sim_claim(&s, 4, false, 0);
	s.ext[0] = 1u << 4;		/* line 4 driven high from outside */
	sim_prepare(&s);
	req = request(chip, 4, lines, st);
	CHECK_INT(udrv_request_set_values(req, 0x7, 0x5), 0);
	CHECK_INT(sim_reg(&s, BCM_GPSET0), 1u << 17);
	CHECK_INT(sim_reg(&s, BCM_GPCLR0), 1u << 27);
	CHECK_INT(sim_reg(&s, BCM_GPSET0 + 4), 1u << 8);
	CHECK_INT(sim_reg(&s, BCM_GPCLR0 + 4), SIM_POISON);
	sim_settle(&s);
	CHECK_STR(s.violation, "");
	CHECK_INT(udrv_request_get_values(req, 0xf, &v), 0);
	CHECK_INT(v, 0xd);		/* 17 = 1, 27 = 0, 40 = 1, 4 = 1 */
	/* a subset: only line 27, high */
	CHECK_INT(udrv_request_set_values(req, 0x2, 0x2), 0);
	CHECK_INT(sim_reg(&s, BCM_GPSET0), 1u << 27);
	CHECK_INT(sim_reg(&s, BCM_GPCLR0), SIM_POISON);
	sim_settle(&s);
	CHECK_INT(sim_level(&s, 27), 1);
	CHECK_INT(sim_level(&s, 17), 1);
	/* inputs cannot be set */
	CHECK_INT(udrv_request_set_values(req, 0x8, 0x8), -EPERM);
	CHECK_CONTAINS(udrv_request_errmsg(req), "line 4 of gpiochip0");
	CHECK_CONTAINS(udrv_request_errmsg(req), "input");
	CHECK_INT(udrv_request_set_value(req, 3, 0), -EPERM);
	sim_settle(&s);
	CHECK_STR(s.violation, "");
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_active_low_swaps_set_and_clear(void)
{
	const unsigned int line = 22;
	struct udrv_line_settings st = OUT;
	struct udrv_mmio_pin pin;
	struct udrv_request *req;
	struct udrv_chip *chip;
	struct sim s = { 0 };

	chip = pi3(&s);
	st.active_low = true;
	sim_claim(&s, line, true, 1);	/* logical 0 = physical high */
	req = request(chip, 1, &line, &st);
	CHECK_INT(udrv_request_get_value(req, 0), 0);
	CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
	CHECK_INT(sim_reg(&s, BCM_GPCLR0), 1u << 22);
	CHECK_INT(sim_reg(&s, BCM_GPSET0), SIM_POISON);
	sim_settle(&s);
	CHECK_INT(sim_level(&s, line), 0);
	CHECK_INT(udrv_request_get_value(req, 0), 1);
	CHECK_INT(udrv_request_set_values(req, 1, 0), 0);	/* slow path */
	CHECK_INT(sim_reg(&s, BCM_GPSET0), 1u << 22);
	sim_settle(&s);
	CHECK_INT(sim_level(&s, line), 1);
	CHECK_INT(udrv_request_mmio_pin(req, 0, &pin), 0);
	CHECK_INT(pin.mask, 1u << 22);
	CHECK_INT(pin.invert, 1u << 22);
	CHECK(pin.set != NULL && pin.clear != NULL);
	udrv_mmio_pin_write(&pin, 1);
	CHECK_INT(sim_reg(&s, BCM_GPCLR0), 1u << 22);
	sim_settle(&s);
	CHECK_INT(sim_level(&s, line), 0);
	CHECK_INT(udrv_mmio_pin_read(&pin), 1);
	udrv_mmio_pin_write(&pin, 0);
	sim_settle(&s);
	CHECK_INT(sim_level(&s, line), 1);
	CHECK_INT(udrv_mmio_pin_read(&pin), 0);
	CHECK_STR(s.violation, "");
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_inline_pin(void)
{
	const unsigned int lines[2] = { 5, 33 };
	const struct udrv_line_settings st[2] = { IN, OUT };
	struct udrv_mmio_pin in, out;
	struct udrv_request *req;
	struct udrv_chip *chip;
	struct sim s = { 0 };

	chip = pi3(&s);
	sim_claim(&s, 5, false, 0);
	sim_claim(&s, 33, true, 0);
	req = request(chip, 2, lines, st);
	CHECK_INT(udrv_request_mmio_pin(req, 0, &in), 0);
	CHECK_INT(udrv_request_mmio_pin(req, 1, &out), 0);
	CHECK(in.set == NULL && in.clear == NULL);	/* an input: read only */
	CHECK_INT(out.mask, 1u << 1);
	CHECK_INT(out.invert, 0);
	for (int i = 0; i < 4; i++) {
		udrv_mmio_pin_write(&out, i & 1);
		CHECK_INT(sim_reg(&s, i & 1 ? BCM_GPSET0 + 4 : BCM_GPCLR0 + 4),
			  1u << 1);
		sim_settle(&s);
		CHECK_INT(sim_level(&s, 33), i & 1);
		CHECK_INT(udrv_mmio_pin_read(&out), i & 1);
	}
	s.ext[0] = 1u << 5;
	sim_prepare(&s);
	CHECK_INT(udrv_mmio_pin_read(&in), 1);
	s.ext[0] = 0;
	sim_prepare(&s);
	CHECK_INT(udrv_mmio_pin_read(&in), 0);
	CHECK_INT(udrv_request_mmio_pin(req, 2, &in), -EINVAL);
	CHECK_STR(s.violation, "");
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_claim_checked_in_gpfsel(void)
{
	const unsigned int line = 17;
	struct udrv_request *req;
	struct udrv_chip *chip;
	char err[UDRV_ERRMSG_LEN] = "";
	struct sim s = { 0 };

	chip = pi3(&s);
	/* the kernel left the pin in alt0 (say, a wrong block was mapped) */
	sim_set_reg(&s, BCM_GPFSEL0 + 4, 4u << 21);
	CHECK_INT(sim_request(chip, 1, &line, &OUT, NULL, &req, err), -EIO);
	CHECK(req == NULL);
	CHECK_CONTAINS(err, "line 17 of gpiochip0 was claimed as an output");
	CHECK_CONTAINS(err, "GPFSEL1 says alt0 (0b100)");
	CHECK_CONTAINS(err, "not this chip's");
	/* an input that the registers call an output */
	sim_set_reg(&s, BCM_GPFSEL0 + 4, 1u << 21);
	CHECK_INT(sim_request(chip, 1, &line, &IN, NULL, &req, err), -EIO);
	CHECK_CONTAINS(err, "claimed as an input, but GPFSEL1 says output");
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_bcm2711(void)
{
	const unsigned int lines[2] = { 57, 3 };
	const struct udrv_line_settings st[2] = { OUT, IN };
	const struct udrv_soc_driver *drv = &udrv_soc_bcm2835;
	char err[UDRV_ERRMSG_LEN];
	struct udrv_soc_bank bank;
	struct udrv_request *req;
	struct udrv_chip *chip;
	struct sim s = { 0 };

	sim_tree(PI4_COMPAT, sizeof(PI4_COMPAT), "fe200000.gpio",
		 "pinctrl-bcm2711", 58);
	sim_devfile("dev/mem", PI4_BASE + 0x10000);
	sim_attach(&s, SIM_BCM2711, "dev/mem", PI4_BASE);
	chip = sim_chip();
	sim_claim(&s, 57, true, 0);
	sim_claim(&s, 3, false, 0);
	req = request(chip, 2, lines, st);
	CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
	CHECK_INT(sim_reg(&s, BCM_GPSET0 + 4), 1u << 25);
	sim_settle(&s);
	CHECK_INT(sim_level(&s, 57), 1);
	CHECK_STR(s.violation, "");
	/* pulls: 2 bits per line, 16 lines per register */
	CHECK_INT(udrv_soc_bank_find(&bank, chip, NULL, err), 0);
	CHECK_STR(bank.soc, "bcm2711");
	CHECK_INT(bank.lines, 58);
	sim_set_reg(&s, BCM_PUP_PDN0, 1u << 6);		/* line 3: up */
	sim_set_reg(&s, BCM_PUP_PDN0 + 12, 2u << 18);	/* line 57: down */
	CHECK_INT(drv->pull(&bank, s.regs, 3), UDRV_BIAS_PULL_UP);
	CHECK_INT(drv->pull(&bank, s.regs, 57), UDRV_BIAS_PULL_DOWN);
	CHECK_INT(drv->pull(&bank, s.regs, 4), UDRV_BIAS_DISABLED);
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_bcm2835_pulls_are_write_only(void)
{
	struct udrv_soc_bank bank;
	char err[UDRV_ERRMSG_LEN];
	struct udrv_chip *chip;
	struct sim s = { 0 };

	chip = pi3(&s);
	CHECK_INT(udrv_soc_bank_find(&bank, chip, NULL, err), 0);
	CHECK_STR(bank.soc, "bcm2837");
	CHECK_INT(bank.lines, 54);
	CHECK_INT(udrv_soc_bcm2835.pull(&bank, s.regs, 3), -EOPNOTSUPP);
	udrv_chip_free(chip);
	sim_detach(&s);
}

UDRV_TESTS(UDRV_T(test_set_is_one_store_to_set_or_clear),
	   UDRV_T(test_line_40_is_in_the_second_word),
	   UDRV_T(test_several_lines_one_store_per_register),
	   UDRV_T(test_active_low_swaps_set_and_clear),
	   UDRV_T(test_inline_pin),
	   UDRV_T(test_claim_checked_in_gpfsel),
	   UDRV_T(test_bcm2711),
	   UDRV_T(test_bcm2835_pulls_are_write_only))
