// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mmio backend on generic register blocks given as a layout: the text
 * form, the checks of a layout, gpio-mmio style blocks (data-in, set, clear,
 * dirout) in 8, 16 and 32 bits, a Xilinx AXI GPIO style block (one data
 * register, tri-state: 1 = input) written from a shadow, banks at a stride,
 * active-low, and the inline pin's limits.
 */
#include <errno.h>
#include <stdio.h>

#include "gpio/backend.h"
#include "fake_gpio.h"
#include "harness.h"
#include "gpio/soc/soc.h"
#include "soc_sim.h"

#define BASE	0x41200000ULL

static const struct udrv_line_settings OUT = { .direction = UDRV_DIR_OUTPUT };
static const struct udrv_line_settings IN = { .direction = UDRV_DIR_INPUT };

static void test_parse(void)
{
	struct udrv_gpio_layout l;
	char err[256] = "";

	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data=0x0,dir=0x4,dir-input=1",
					 &l, err, sizeof(err)), 0);
	CHECK(l.base == BASE);
	CHECK_INT(l.data_in, 0);
	CHECK_INT(l.data_out, 0);
	CHECK_INT(l.dir, 4);
	CHECK(l.dir_input_high);
	CHECK_INT(l.set, -1);
	CHECK_INT(l.clear, -1);
	CHECK_INT(l.width, 0);
	CHECK_INT(udrv_gpio_layout_parse("base=4096,data-in=8,set=0x10,clear=0x14,dir=none,width=16,stride=0x20,size=0x100,map=/dev/uio3,map-offset=0x1000",
					 &l, err, sizeof(err)), 0);
	CHECK(l.base == 4096);
	CHECK_INT(l.data_in, 8);
	CHECK_INT(l.data_out, -1);
	CHECK_INT(l.set, 0x10);
	CHECK_INT(l.clear, 0x14);
	CHECK_INT(l.dir, -1);
	CHECK_INT(l.width, 16);
	CHECK_INT(l.bank_stride, 0x20);
	CHECK_INT(l.size, 0x100);
	CHECK_STR(l.map_path, "/dev/uio3");
	CHECK(l.map_offset == 0x1000);
	CHECK_INT(udrv_gpio_layout_parse("data=0", &l, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "no base=ADDRESS");
	CHECK_INT(udrv_gpio_layout_parse("base=1,foo=2", &l, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "bad layout item 'foo=2'");
	CHECK_INT(udrv_gpio_layout_parse("base=1,set=-4", &l, err, sizeof(err)), -EINVAL);
	CHECK_INT(udrv_gpio_layout_parse("base=1,dir-input=2", &l, err, sizeof(err)), -EINVAL);
	CHECK_INT(udrv_gpio_layout_parse("base", &l, err, sizeof(err)), -EINVAL);
}

static struct udrv_chip *tree(struct sim *s, const char *device, int ngpio)
{
	sim_tree(NULL, 0, device, "fpga-gpio", ngpio);
	sim_devfile("dev/mem", BASE + 0x10000);
	sim_attach(s, SIM_GENERIC, "dev/mem", BASE);
	return sim_chip();
}

static void test_layout_checks(void)
{
	struct udrv_gpio_layout l = UDRV_GPIO_LAYOUT_INIT;
	char err[UDRV_ERRMSG_LEN] = "";
	struct udrv_soc_bank bank;
	struct udrv_chip *chip;
	struct sim s = { 0 };

	chip = tree(&s, "41200000.gpio", 32);
	l.base = BASE;
	l.data_in = 0;
	l.width = 12;
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), -EINVAL);
	CHECK_CONTAINS(err, "width must be 8, 16 or 32");
	l.width = 32;
	l.set = 0x6;
	l.clear = 0x8;
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), -EINVAL);
	CHECK_CONTAINS(err, "offset 6 is not a multiple of 4 bytes");
	l.set = 0x4;
	l.clear = -1;
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), -EINVAL);
	CHECK_CONTAINS(err, "set and clear registers go together");
	l.set = -1;
	l.data_in = -1;
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), -EINVAL);
	CHECK_CONTAINS(err, "no register to read the lines");
	l.data_in = 0x10;
	l.size = 8;
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), -EINVAL);
	CHECK_CONTAINS(err, "size 8 is too small: the registers need 20 bytes");
	l.size = 0;
	l.base = 0x41210000;
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), -EINVAL);
	CHECK_CONTAINS(err, "the layout's base 0x41210000 is not gpiochip0's registers: its device is 41200000.gpio");
	l.base = BASE;
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), 0);
	CHECK_STR(bank.soc, "generic");
	CHECK_INT(bank.size, 20);
	udrv_chip_free(chip);
	sim_detach(&s);
}

/* gpio-mmio style: dat (levels), set, clr, dirout (1 = output) */
static void set_clear_block(unsigned int width)
{
	const unsigned int lines[3] = { 1, width - 1, 3 };
	const struct udrv_line_settings st[3] = { OUT, OUT, IN };
	unsigned int step = width / 8;
	struct udrv_request *req;
	struct udrv_chip *chip;
	char err[UDRV_ERRMSG_LEN] = "";
	struct udrv_mmio_pin pin;
	struct sim s = { 0 };
	uint64_t v = 0;

	s.layout = (struct udrv_gpio_layout)UDRV_GPIO_LAYOUT_INIT;
	s.layout.base = BASE;
	s.layout.width = width;
	s.layout.data_in = 0;
	s.layout.set = (int32_t)step;
	s.layout.clear = (int32_t)(2 * step);
	s.layout.dir = (int32_t)(3 * step);
	chip = tree(&s, "41200000.gpio", (int)width);
	sim_claim(&s, 1, true, 0);
	sim_claim(&s, width - 1, true, 1);
	sim_claim(&s, 3, false, 0);
	CHECK_INT(sim_request(chip, 3, lines, st, &s.layout, &req, err), 0);
	CHECK_STR(err, "");
	CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
	CHECK_INT(sim_reg(&s, s.layout.set), 1u << 1);
	CHECK_INT(sim_reg(&s, s.layout.clear), SIM_POISON & ((1ull << width) - 1));
	sim_settle(&s);
	CHECK_INT(udrv_request_set_values(req, 0x3, 0x1), 0);
	CHECK_INT(sim_reg(&s, s.layout.clear), 1u << (width - 1));
	sim_settle(&s);
	s.ext[0] = 1u << 3;
	sim_prepare(&s);
	CHECK_INT(udrv_request_get_values(req, 0x7, &v), 0);
	CHECK_INT(v, 0x5);
	CHECK_INT(udrv_request_mmio_pin(req, 0, &pin), width == 32 ? 0 : -EOPNOTSUPP);
	if (width != 32)
		CHECK_CONTAINS(udrv_request_errmsg(req), "registers narrower than 32 bits");
	CHECK_STR(s.violation, "");
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_set_clear_8(void)
{
	set_clear_block(8);
}

static void test_set_clear_16(void)
{
	set_clear_block(16);
}

static void test_set_clear_32(void)
{
	set_clear_block(32);
}

/* Xilinx AXI GPIO: GPIO_DATA at 0 (both ways), GPIO_TRI at 4 (1 = input) */
static void test_shadowed_data_register(void)
{
	const unsigned int lines[2] = { 3, 9 };
	const struct udrv_line_settings st[2] = { OUT, IN };
	struct udrv_request *req;
	struct udrv_chip *chip;
	char err[UDRV_ERRMSG_LEN] = "";
	struct udrv_mmio_pin pin;
	struct sim s = { 0 };

	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data=0,dir=4,dir-input=1",
					 &s.layout, err, sizeof(err)), 0);
	chip = tree(&s, "41200000.gpio", 32);
	sim_claim(&s, 3, true, 0);
	sim_claim(&s, 9, false, 0);
	sim_claim(&s, 7, true, 1);	/* another user's output, high */
	CHECK_INT(sim_request(chip, 2, lines, st, &s.layout, &req, err), 0);
	CHECK_STR(err, "");
	CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
	CHECK_INT(sim_reg(&s, 0), (1u << 3) | (1u << 7));
	sim_settle(&s);
	CHECK_INT(sim_level(&s, 3), 1);
	CHECK_INT(sim_level(&s, 7), 1);		/* kept from the shadow */
	CHECK_INT(udrv_request_get_value(req, 0), 1);
	CHECK_INT(udrv_request_set_value(req, 0, 0), 0);
	CHECK_INT(sim_reg(&s, 0), 1u << 7);
	sim_settle(&s);
	CHECK_INT(udrv_request_get_value(req, 0), 0);
	s.ext[0] = 1u << 9;
	sim_prepare(&s);
	CHECK_INT(udrv_request_get_value(req, 1), 1);
	CHECK_INT(udrv_request_mmio_pin(req, 0, &pin), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_request_errmsg(req), "no set/clear registers");
	CHECK_STR(s.violation, "");
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

/* The direction register with the wrong polarity: caught at the claim. */
static void test_wrong_polarity(void)
{
	const unsigned int line = 3;
	struct udrv_request *req;
	struct udrv_chip *chip;
	char err[UDRV_ERRMSG_LEN] = "";
	struct sim s = { 0 };

	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data=0,dir=4,dir-input=1",
					 &s.layout, err, sizeof(err)), 0);
	chip = tree(&s, "41200000.gpio", 32);
	sim_claim(&s, 3, true, 0);
	s.layout.dir_input_high = false;
	CHECK_INT(sim_request(chip, 1, &line, &OUT, &s.layout, &req, err), -EIO);
	CHECK_CONTAINS(err, "the direction register (0x4) bit 3 is 0 (input)");
	CHECK_CONTAINS(err, "(base, dir, dir-input)");
	udrv_chip_free(chip);
	sim_detach(&s);
}

/* Two banks of 32 lines, 0x10 apart; active-low; an input-only block */
static void test_banks_and_active_low(void)
{
	const unsigned int lines[2] = { 40, 2 };
	struct udrv_line_settings st[2] = { OUT, OUT };
	struct udrv_request *req;
	struct udrv_chip *chip;
	char err[UDRV_ERRMSG_LEN] = "";
	struct udrv_mmio_pin pin;
	struct sim s = { 0 };

	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data-in=0,set=4,clear=8,stride=0x10",
					 &s.layout, err, sizeof(err)), 0);
	chip = tree(&s, "41200000.gpio", 64);
	st[0].active_low = true;
	sim_claim(&s, 40, true, 1);
	sim_claim(&s, 2, true, 0);
	CHECK_INT(sim_request(chip, 2, lines, st, &s.layout, &req, err), 0);
	CHECK_STR(err, "");
	CHECK_INT(udrv_request_get_value(req, 0), 0);	/* high, active-low */
	CHECK_INT(udrv_request_set_values(req, 0x3, 0x3), 0);
	CHECK_INT(sim_reg(&s, 0x10 + 8), 1u << 8);	/* bank 1 clear */
	CHECK_INT(sim_reg(&s, 4), 1u << 2);		/* bank 0 set */
	CHECK_INT(sim_reg(&s, 0x10 + 4), SIM_POISON);
	sim_settle(&s);
	CHECK_INT(sim_level(&s, 40), 0);
	CHECK_INT(sim_level(&s, 2), 1);
	CHECK_INT(udrv_request_mmio_pin(req, 0, &pin), 0);
	udrv_mmio_pin_write(&pin, 0);
	CHECK_INT(sim_reg(&s, 0x10 + 4), 1u << 8);
	sim_settle(&s);
	CHECK_INT(udrv_mmio_pin_read(&pin), 0);
	CHECK_INT(sim_level(&s, 40), 1);
	CHECK_STR(s.violation, "");
	sim_release(req);
	/* levels only: inputs work, an output cannot be driven */
	s.layout.set = s.layout.clear = -1;
	CHECK_INT(sim_request(chip, 2, lines, st, &s.layout, &req, err), -EOPNOTSUPP);
	CHECK_CONTAINS(err, "line 40: the layout has no register to drive outputs");
	udrv_chip_free(chip);
	sim_detach(&s);
}

/* strtoll/strtoull took " 4", "-" prefixes and saturated on overflow; an
 * item longer than the parser's buffer was cut (a map path's prefix). */
static void test_parse_strict(void)
{
	static const char *const bad[] = {
		"base=18446744073709551616", "base=0x1g", "base=1,data= 4",
		"base=1,data=2147483648", "base=1,stride=4294967296",
		"base=1,size=-1", "base=1,width=", "base=1,width=64",
		"base=,data=0", "base=1,data=0x", "base=1,dir-input=01x",
		"base=1,set=+4,clear=8",
	};
	struct udrv_gpio_layout l;
	char err[256], spec[600];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (udrv_gpio_layout_parse(bad[i], &l, err, sizeof(err)) != -EINVAL)
			harness_fail(__FILE__, __LINE__, "accepted '%s'", bad[i]);
	snprintf(spec, sizeof(spec), "base=1,data=0,map=/dev/%0300d", 0);
	CHECK_INT(udrv_gpio_layout_parse(spec, &l, err, sizeof(err)), -EINVAL);
	CHECK_INT(udrv_gpio_layout_parse("base=0xffffffffffffffff,data=2147483647,stride=4294967295",
					 &l, err, sizeof(err)), 0);
	CHECK(l.base == UINT64_MAX);
	CHECK_INT(l.data_in, INT32_MAX);
	CHECK(l.bank_stride == UINT32_MAX);
}

/*
 * Register offsets were computed in 32 bits: with 2 banks at stride
 * 0x80000000 bank 1's registers landed at a negative offset (SIGSEGV in
 * udrv_request_get_value); with 3 banks, 2 * 0x80000000 wrapped to 0 and a
 * store for bank 2 went to bank 0's set/clear register: the wrong pin.
 * Both layouts must be refused before anything is mapped.
 */
static void stride_layout(struct udrv_gpio_layout *l, uint32_t stride)
{
	*l = (struct udrv_gpio_layout)UDRV_GPIO_LAYOUT_INIT;
	l->base = BASE;
	l->data_in = 0;
	l->set = 4;
	l->clear = 8;
	l->bank_stride = stride;
}

static void test_stride_wraps_to_bank0(void)
{
	struct udrv_gpio_layout l;
	char err[UDRV_ERRMSG_LEN] = "";
	struct udrv_soc_bank bank;
	struct udrv_chip *chip;
	struct sim s = { 0 };

	chip = tree(&s, "41200000.gpio", 96);
	stride_layout(&l, 0x80000000u);
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), -EINVAL);
	CHECK_CONTAINS(err, "3 bank(s) at stride 0x80000000");
	CHECK_CONTAINS(err, "beyond the 2 GiB");
	udrv_chip_free(chip);
	sim_detach(&s);
}

static void test_stride_negative_offset(void)
{
	struct udrv_gpio_layout l;
	char err[UDRV_ERRMSG_LEN] = "";
	struct udrv_soc_bank bank;
	struct udrv_chip *chip;
	struct sim s = { 0 };

	chip = tree(&s, "41200000.gpio", 64);
	stride_layout(&l, 0x80000000u);
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), -EINVAL);
	CHECK_CONTAINS(err, "beyond the 2 GiB");
	stride_layout(&l, 0x7ffffff8u);	/* ends at 0x80000004: too far */
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), -EINVAL);
	stride_layout(&l, 0x40000000u);	/* ends at 0x4000000c: fits */
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), 0);
	CHECK_INT(udrv_soc_reg(&bank, SOC_REG_CLEAR, 63), 0x40000008);
	udrv_chip_free(chip);
	sim_detach(&s);
}

/*
 * A pin taken before a reconfigure to active-low kept the old set/clear
 * registers and drove the inverted level. The reconfigure is refused while
 * pins are out (before anything reaches the kernel).
 */
static void test_pin_then_reconfigure(void)
{
	const unsigned int lines[1] = { 5 };
	struct udrv_line_settings st[1] = { OUT };
	struct udrv_request *req;
	struct udrv_chip *chip;
	char err[UDRV_ERRMSG_LEN] = "";
	struct udrv_mmio_pin pin;
	struct sim s = { 0 };

	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data-in=0,set=4,clear=8",
					 &s.layout, err, sizeof(err)), 0);
	chip = tree(&s, "41200000.gpio", 32);
	sim_claim(&s, 5, true, 0);
	CHECK_INT(sim_request(chip, 1, lines, st, &s.layout, &req, err), 0);
	CHECK_INT(udrv_request_mmio_pin(req, 0, &pin), 0);
	st[0].active_low = true;
	CHECK_INT(udrv_request_reconfigure(req, st), -EBUSY);
	CHECK_CONTAINS(udrv_request_errmsg(req), "line 5: a udrv_mmio_pin of it is in use");
	CHECK_CONTAINS(udrv_request_errmsg(req), "polarity");
	st[0] = IN;
	CHECK_INT(udrv_request_reconfigure(req, st), -EBUSY);
	CHECK_CONTAINS(udrv_request_errmsg(req), "direction");
	/* the pin still drives what it was taken for */
	udrv_mmio_pin_write(&pin, 1);
	CHECK_INT(sim_reg(&s, 4), 1u << 5);
	/* released: the reconfigure goes on to the kernel (no cdev here) */
	udrv_request_mmio_pins_release(req);
	st[0] = OUT;
	st[0].active_low = true;
	CHECK(udrv_request_reconfigure(req, st) != -EBUSY);
	CHECK_STR(s.violation, "");
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

/*
 * Banks at a stride that lays one bank's registers on another's: with
 * data-in 0, set 4, clear 8 and a stride of 4, bank 1's set register is
 * bank 0's clear register, and setting line 33 cleared line 1 (another
 * user's output). Refused when the layout is resolved, before any store.
 */
static void test_banks_overlapping_registers(void)
{
	const unsigned int line = 33;
	struct udrv_gpio_layout l;
	struct udrv_request *req = NULL;
	struct udrv_chip *chip;
	char err[UDRV_ERRMSG_LEN] = "";
	struct sim s = { 0 };

	/* the simulator models bank 0: line 1 is someone's output, high */
	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data-in=0,set=4,clear=8",
					 &s.layout, err, sizeof(err)), 0);
	chip = tree(&s, "41200000.gpio", 64);
	sim_claim(&s, 1, true, 1);
	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data-in=0,set=4,clear=8,stride=4",
					 &l, err, sizeof(err)), 0);
	if (sim_request(chip, 1, &line, &OUT, &l, &req, err) == 0) {
		udrv_request_set_value(req, 0, 1);
		sim_settle(&s);
		sim_release(req);
		req = NULL;
		err[0] = '\0';
	}
	CHECK_INT(sim_level(&s, 1), 1);		/* still high */
	CHECK(req == NULL);
	CHECK_CONTAINS(err, "registers overlap");
	CHECK_CONTAINS(err, "bank 1");
	CHECK_CONTAINS(err, "bank 0");
	CHECK_CONTAINS(err, "stride");
	/* a clear register that shares bytes with bank 1's set register */
	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data-in=0,set=0x10,clear=0x14,stride=0x4,width=16",
					 &l, err, sizeof(err)), 0);
	CHECK_INT(sim_request(chip, 1, &line, &OUT, &l, &req, err), -EINVAL);
	CHECK_CONTAINS(err, "registers overlap");
	/* interleaved banks that do not collide: the BCM283x's arrangement
	 * (set 0x1c/0x20, clear 0x28/0x2c, level 0x34/0x38) */
	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data-in=0x34,set=0x1c,clear=0x28,stride=4",
					 &l, err, sizeof(err)), 0);
	CHECK_INT(udrv_soc_bank_find(&(struct udrv_soc_bank){ 0 }, chip, &l, err), 0);
	/* data-in and data-out at one offset: one register, both ways */
	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data=0,dir=4,stride=0x10",
					 &l, err, sizeof(err)), 0);
	CHECK_INT(udrv_soc_bank_find(&(struct udrv_soc_bank){ 0 }, chip, &l, err), 0);
	/* ... but bank 1's data register on bank 0's direction register */
	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data=0,dir=4,stride=4",
					 &l, err, sizeof(err)), 0);
	CHECK_INT(udrv_soc_bank_find(&(struct udrv_soc_bank){ 0 }, chip, &l, err), -EINVAL);
	CHECK_CONTAINS(err, "registers overlap");
	udrv_chip_free(chip);
	sim_detach(&s);
}

/* A stride that is not a multiple of the register width puts every other
 * bank's registers at misaligned offsets (an alignment fault on ARM). */
static void test_stride_not_a_multiple_of_the_width(void)
{
	struct udrv_gpio_layout l;
	struct udrv_soc_bank bank;
	struct udrv_chip *chip, *wide;
	char err[UDRV_ERRMSG_LEN] = "";
	struct sim s = { 0 };

	chip = tree(&s, "41200000.gpio", 32);
	fake_gpio_chip(1, "41200000.gpio", 600, 64, "fpga-gpio-wide");
	wide = udrv_chip_new();
	CHECK_INT(udrv_chip_open(wide, "gpiochip1"), 0);
	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data-in=0,set=4,clear=8,stride=0x12",
					 &l, err, sizeof(err)), 0);
	CHECK_INT(udrv_soc_bank_find(&bank, wide, &l, err), -EINVAL);
	CHECK_CONTAINS(err, "stride 18 is not a multiple of 4 bytes");
	/* one bank: the stride is never used */
	CHECK_INT(udrv_soc_bank_find(&bank, chip, &l, err), 0);
	udrv_chip_free(wide);
	udrv_chip_free(chip);
	sim_detach(&s);
}

/* A key given twice: the second silently won (base=A,...,base=B is B). */
static void test_layout_key_twice(void)
{
	static const char *const twice[] = {
		"base=0x41200000,data=0,base=0x41210000",
		"base=0x41200000,set=4,set=8,clear=12",
		"base=0x41200000,data=0,data-in=8",
		"base=0x41200000,data-out=0,data=8",
		"base=0x41200000,data=0,stride=16,stride=32",
		"base=0x41200000,data=0,map=/dev/uio0,map=/dev/uio1",
	};
	struct udrv_gpio_layout l;
	char err[256];

	for (size_t i = 0; i < sizeof(twice) / sizeof(twice[0]); i++) {
		err[0] = '\0';
		if (udrv_gpio_layout_parse(twice[i], &l, err, sizeof(err)) != -EINVAL)
			harness_fail(__FILE__, __LINE__, "accepted '%s'", twice[i]);
		CHECK_CONTAINS(err, "given twice");
	}
	/* data-in and data-out apart are two keys */
	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data-in=8,data-out=0",
					 &l, err, sizeof(err)), 0);
	CHECK_INT(l.data_in, 8);
	CHECK_INT(l.data_out, 0);
}

/*
 * A reconfigure the registers cannot carry out: an input of a block that
 * only has a level register, made an output. The register half refused it,
 * but had already taken the new directions: the next write went through a
 * register the block does not have (offset -1, a store before the block).
 * Now it is refused before the kernel is told, and a refusal after it
 * leaves the request as it was.
 */
static void test_refused_reconfigure_changes_nothing(void)
{
	const unsigned int line = 5;
	struct udrv_line_settings st = IN;
	struct udrv_request *req;
	struct udrv_chip *chip;
	char err[UDRV_ERRMSG_LEN] = "";
	struct sim s = { 0 };

	CHECK_INT(udrv_gpio_layout_parse("base=0x41200000,data-in=0",
					 &s.layout, err, sizeof(err)), 0);
	chip = tree(&s, "41200000.gpio", 32);
	sim_claim(&s, line, false, 0);
	CHECK_INT(sim_request(chip, 1, &line, &st, &s.layout, &req, err), 0);
	/* through the front end: refused before the character device */
	st.direction = UDRV_DIR_OUTPUT;
	CHECK_INT(udrv_request_reconfigure(req, &st), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_request_errmsg(req),
		       "line 5: the layout has no register to drive outputs");
	/* the register half, as after the kernel's reconfigure */
	CHECK_INT(udrv_mmio_start(req, &st, err), -EOPNOTSUPP);
	/* still an input: no store anywhere */
	CHECK_INT(udrv_request_set_value(req, 0, 1), -EPERM);
	CHECK_CONTAINS(udrv_request_errmsg(req), "requested as an input");
	CHECK_INT(udrv_request_set_values(req, 1, 1), -EPERM);
	s.ext[0] = 1u << line;
	sim_prepare(&s);
	CHECK_INT(udrv_request_get_value(req, 0), 1);
	sim_settle(&s);
	CHECK_STR(s.violation, "");
	sim_release(req);
	udrv_chip_free(chip);
	sim_detach(&s);
}

UDRV_TESTS(UDRV_T(test_parse), UDRV_T(test_layout_checks),
	   UDRV_T(test_parse_strict), UDRV_T(test_stride_wraps_to_bank0),
	   UDRV_T(test_stride_negative_offset), UDRV_T(test_pin_then_reconfigure),
	   UDRV_T(test_set_clear_8), UDRV_T(test_set_clear_16),
	   UDRV_T(test_set_clear_32), UDRV_T(test_shadowed_data_register),
	   UDRV_T(test_wrong_polarity), UDRV_T(test_banks_and_active_low),
	   UDRV_T(test_banks_overlapping_registers),
	   UDRV_T(test_stride_not_a_multiple_of_the_width),
	   UDRV_T(test_layout_key_twice),
	   UDRV_T(test_refused_reconfigure_changes_nothing))
