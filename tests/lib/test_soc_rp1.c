// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mmio backend on a Raspberry Pi 5's RP1 (rp1_model.h), store by store:
 * each operation in each bank (28, 6, 20 lines) is exactly the stores it
 * should be, to RIO_OUT's SET or CLR alias, and never a plain write of a
 * shared register. Detection on a fake Pi 5 tree by the chip's node or
 * label, gpiochip0 (current kernels) and gpiochip4 (older ones, after the
 * BCM2712's brcmstb chips), the mapping through /dev/gpiomem0, and the
 * refusals: no gpiomem0, a gpiomem0 this user may not open, a pin muxed to
 * another function, a pad that cannot drive.
 *
 * Built a second time with UDRV_MMIO_MUTANT_RMW (a backend that drives the
 * lines by a read-modify-write of RIO_OUT): mmio_mutants.py checks that the
 * store tests fail then, and say why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpio/backend.h"
#include "fake_gpio.h"
#include "harness.h"
#include "gpio/soc/soc.h"
#include "rp1_model.h"
#include "soc_sim.h"

#define PI5_COMPAT	"raspberrypi,5-model-b\0brcm,bcm2712"
#define RP1_DEVICE	"1f000d0000.gpio"
#define RP1_PHYS	0x1f000d0000ULL

static const struct udrv_line_settings OUT = { .direction = UDRV_DIR_OUTPUT };
static const struct udrv_line_settings IN = { .direction = UDRV_DIR_INPUT };

/* lines at both ends of each bank */
static const unsigned int edge_lines[] = { 0, 17, 27, 28, 33, 34, 53 };

/* The Pi 5 tree: RP1's chip as gpiochip@num (0 or 4), with its node's
 * compatible when @node, the BCM2712's four brcmstb chips before it when
 * @num is 4; /dev/gpiomem0 when @gpiomem. */
static void pi5_tree(int num, bool node, bool gpiomem)
{
	static const char *const brcmstb[4][2] = {
		{ "107d508500.gpio", "gpio-brcmstb@107d508500" },
		{ "107d508520.gpio", "gpio-brcmstb@107d508520" },
		{ "107d517c00.gpio", "gpio-brcmstb@107d517c00" },
		{ "107d517c20.gpio", "gpio-brcmstb@107d517c20" },
	};

	fake_root();
	fake_gpio_bus();
	sim_compatible(PI5_COMPAT, sizeof(PI5_COMPAT));
	for (int i = 0; num == 4 && i < 4; i++)
		fake_gpio_chip(i, brcmstb[i][0], 512 + 32 * i, 32, brcmstb[i][1]);
	fake_gpio_chip(num, RP1_DEVICE, 569, 54, "pinctrl-rp1");
	if (node)
		fake_file("sys/devices/platform/" RP1_DEVICE "/of_node/compatible",
			  "raspberrypi,rp1-gpio");
	if (gpiomem)
		sim_devfile("dev/gpiomem0", RP1M_SIZE);
}

static struct udrv_chip *open_chip(const char *name)
{
	struct udrv_chip *chip = udrv_chip_new();

	CHECK_INT(udrv_chip_open(chip, name), 0);
	return chip;
}

/* Pi 5 with gpiochip0, the model over /dev/gpiomem0. */
static struct udrv_chip *pi5(struct rp1_model *m)
{
	pi5_tree(0, true, true);
	rp1_attach(m, "dev/gpiomem0", 0);
	return open_chip("gpiochip0");
}

static struct udrv_request *request(struct udrv_chip *chip, size_t n,
				    const unsigned int *offsets,
				    const struct udrv_line_settings *s)
{
	struct udrv_request *req = NULL;
	char err[UDRV_ERRMSG_LEN] = "";

	CHECK_INT(sim_request(chip, n, offsets, s, NULL, &req, err), 0);
	if (err[0])
		harness_fail(__FILE__, __LINE__, "%s", err);
	return req;
}

/* The log holds exactly @n stores; store @i is @value to @off. */
#define CHECK_LOG_LEN(m, n)						\
	do {								\
		CHECK_STR((m)->violation, "");				\
		CHECK_INT((m)->nlog, (n));				\
	} while (0)
#define CHECK_STORE(m, i, want_off, want_value)				\
	do {								\
		CHECK_INT((m)->log[i].off, (want_off));			\
		CHECK_INT((m)->log[i].value, (want_value));		\
	} while (0)

/* The model changes in a signal handler, behind the compiler's back: after
 * an inline store, read it again. */
#define after_store() __asm__ volatile("" ::: "memory")

static bool arm(struct rp1_model *m)
{
	if (rp1_arm(m))
		return true;
	printf("# the store log needs x86-64 or AArch64: skipped\n");
	return false;
}

/* detection */

static void test_detect_gpiochip0_by_node(void)
{
	struct udrv_mmio_line_info info;
	struct udrv_chip *chip;

	pi5_tree(0, true, true);
	chip = open_chip("gpiochip0");
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 17, &info), 0);
	CHECK_STR(info.soc, "rp1");
	CHECK_STR(info.device, RP1_DEVICE);
	CHECK(info.phys == RP1_PHYS);
	CHECK_INT(info.size, RP1M_SIZE);
	CHECK_CONTAINS(info.map_path, "/dev/gpiomem0");
	CHECK(info.map_offset == 0);
	CHECK_INT(info.set, RP1M_RIO_REG(0, RP1M_SET, RP1M_OUT));
	CHECK_INT(info.clear, RP1M_RIO_REG(0, RP1M_CLR, RP1M_OUT));
	CHECK_INT(info.level, RP1M_RIO_REG(0, 0, RP1M_IN));
	CHECK_INT(info.mask, 1u << 17);
	CHECK_STR(info.set_name, "SYS_RIO0 RIO_OUT SET");
	CHECK_STR(info.clear_name, "SYS_RIO0 RIO_OUT CLR");
	CHECK_STR(info.level_name, "SYS_RIO0 RIO_IN");
	udrv_chip_free(chip);
}

static void test_bank_layout(void)
{
	struct udrv_mmio_line_info info;
	struct udrv_chip *chip;
	unsigned int bit, b;

	pi5_tree(0, true, true);
	chip = open_chip("gpiochip0");
	for (unsigned int line = 0; line < RP1M_LINES; line++) {
		b = rp1_bank(line, &bit);
		CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, line, &info), 0);
		CHECK_INT(info.set, RP1M_RIO_REG(b, RP1M_SET, RP1M_OUT));
		CHECK_INT(info.clear, RP1M_RIO_REG(b, RP1M_CLR, RP1M_OUT));
		CHECK_INT(info.level, RP1M_RIO_REG(b, 0, RP1M_IN));
		CHECK_INT(info.mask, 1u << bit);
	}
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 33, &info), 0);
	CHECK_STR(info.set_name, "SYS_RIO1 RIO_OUT SET");
	CHECK_INT(info.mask, 1u << 5);
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 34, &info), 0);
	CHECK_STR(info.level_name, "SYS_RIO2 RIO_IN");
	CHECK_INT(info.mask, 1u << 0);
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 54, &info), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "lines 0..53");
	udrv_chip_free(chip);
}

/* Older kernels: RP1 is gpiochip4, by its label alone (no node). */
static void test_detect_gpiochip4_by_label(void)
{
	struct udrv_mmio_line_info info;
	struct udrv_chip *chip;

	pi5_tree(4, false, true);
	chip = open_chip("gpiochip4");
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 53, &info), 0);
	CHECK_STR(info.soc, "rp1");
	CHECK(info.phys == RP1_PHYS);
	CHECK_STR(info.set_name, "SYS_RIO2 RIO_OUT SET");
	CHECK_INT(info.mask, 1u << 19);
	udrv_chip_free(chip);
	/* the BCM2712's own chips are not RP1's, and the SoC is unknown */
	chip = open_chip("gpiochip0");
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 3, &info), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "\"brcm,bcm2712\"");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "the RP1's chip (Pi 5: pinctrl-rp1)");
	udrv_chip_free(chip);
}

/* A node that says RP1 under another label still is RP1. */
static void test_detect_by_node_compatible(void)
{
	struct udrv_mmio_line_info info;
	struct udrv_chip *chip;

	fake_root();
	fake_gpio_bus();
	fake_gpio_chip(0, RP1_DEVICE, 569, 54, "rp1-gpio-renamed");
	fake_file("sys/devices/platform/" RP1_DEVICE "/of_node/compatible",
		  "raspberrypi,rp1-gpio");
	sim_devfile("dev/gpiomem0", RP1M_SIZE);
	chip = open_chip("gpiochip0");
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 4, &info), 0);
	CHECK_STR(info.soc, "rp1");
	udrv_chip_free(chip);
}

/* refusals */

static void test_no_gpiomem0_names_it(void)
{
	struct udrv_mmio_line_info info;
	struct udrv_chip *chip;

	pi5_tree(0, true, false);
	chip = open_chip("gpiochip0");
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 17, &info), -ENOENT);
	CHECK_CONTAINS(udrv_chip_errmsg(chip),
		       "cannot map the rp1 GPIO registers (0x1f000d0000): no /dev/gpiomem0");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "/dev/mem");
	udrv_chip_free(chip);
	/* /dev/mem as root maps it at the chip's address */
	sim_devfile("dev/mem", RP1_PHYS + RP1M_SIZE);
	chip = open_chip("gpiochip0");
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 17, &info), 0);
	CHECK_CONTAINS(info.map_path, "/dev/mem");
	CHECK(info.map_offset == RP1_PHYS);
	udrv_chip_free(chip);
}

static void test_gpiomem0_permission_names_group_and_fix(void)
{
	struct udrv_mmio_line_info info;
	struct udrv_chip *chip;
	char path[512];

	pi5_tree(0, true, true);
	fake_path(path, sizeof(path), "dev/gpiomem0");
	chmod(fake_root_dir(), 0755);
	CHECK(chown(path, 0, 20) == 0);	/* group 20: dialout on Debian */
	CHECK(chmod(path, 0660) == 0);
	if (geteuid() == 0)
		CHECK(setresuid(65534, 65534, 65534) == 0);
	chip = open_chip("gpiochip0");
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 17, &info), -EACCES);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "cannot map the rp1 GPIO registers");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "gpiomem0 is owner root, group ");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), ", mode 0660: add your user to group ");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "/dev/mem needs root");
	udrv_chip_free(chip);
}

static void test_muxed_line_refused_saying_which(void)
{
	const unsigned int line = 14;
	struct udrv_request *req = NULL;
	char err[UDRV_ERRMSG_LEN] = "";
	struct udrv_chip *chip;
	struct rp1_model m;

	chip = pi5(&m);
	rp1_claim(&m, line, true, 0);
	m.ctrl[line] = 4;		/* alt4: uart0 TX on GPIO14 */
	rp1_sync(&m);
	CHECK_INT(sim_request(chip, 1, &line, &OUT, NULL, &req, err), -EBUSY);
	CHECK(req == NULL);
	CHECK_CONTAINS(err, "line 14 of gpiochip0 cannot be driven through the rp1 registers");
	CHECK_CONTAINS(err, "GPIO14_CTRL's FUNCSEL is a4, not a5 (SYS_RIO, GPIO)");
	CHECK_CONTAINS(err, "muxed the pin to another function");
	/* an override of the output enable */
	m.ctrl[line] = 5 | 3u << 14;
	rp1_sync(&m);
	CHECK_INT(sim_request(chip, 1, &line, &OUT, NULL, &req, err), -EBUSY);
	CHECK_CONTAINS(err, "OEOVER 3");
	/* a pad with its output disabled */
	m.ctrl[line] = 5;
	m.pad[line] |= 1u << 7;
	rp1_sync(&m);
	CHECK_INT(sim_request(chip, 1, &line, &OUT, NULL, &req, err), -EIO);
	CHECK_CONTAINS(err, "GPIO14's pad (PADS0 + 0x3c");
	CHECK_CONTAINS(err, "output disabled (OD set)");
	/* a direction the kernel did not set */
	m.pad[line] &= ~(1u << 7);
	rp1_sync(&m);
	CHECK_INT(sim_request(chip, 1, &line, &IN, NULL, &req, err), -EIO);
	CHECK_CONTAINS(err, "claimed as an input, but SYS_RIO0 RIO_OE bit 14 is 1 (output)");
	CHECK_INT(m.nlog, 0);
	udrv_chip_free(chip);
	rp1_detach(&m);
}

static void test_pulls_from_the_pads(void)
{
	struct udrv_soc_bank bank;
	char err[UDRV_ERRMSG_LEN];
	struct udrv_chip *chip;
	struct rp1_model m;

	chip = pi5(&m);
	CHECK_INT(udrv_soc_bank_find(&bank, chip, NULL, err), 0);
	m.pad[3] = (1u << 6) | (1u << 3);	/* up */
	m.pad[40] = (1u << 6) | (1u << 2);	/* down */
	m.pad[29] = 1u << 6;
	rp1_sync(&m);
	CHECK_INT(udrv_soc_rp1.pull(&bank, m.regs, 3), UDRV_BIAS_PULL_UP);
	CHECK_INT(udrv_soc_rp1.pull(&bank, m.regs, 40), UDRV_BIAS_PULL_DOWN);
	CHECK_INT(udrv_soc_rp1.pull(&bank, m.regs, 29), UDRV_BIAS_DISABLED);
	udrv_chip_free(chip);
	rp1_detach(&m);
}

/* store by store */

/* One line of each bank's ends: set 1, set 0 are one store each. */
static void test_set_value_one_store_per_edge_every_bank(void)
{
	struct udrv_request *req;
	struct udrv_chip *chip;
	unsigned int bit, b, line;
	struct rp1_model m;

	chip = pi5(&m);
	for (size_t i = 0; i < ARRAY_SIZE(edge_lines); i++) {
		line = edge_lines[i];
		b = rp1_bank(line, &bit);
		rp1_claim(&m, line, true, 0);
		req = request(chip, 1, &line, &OUT);
		if (!arm(&m)) {
			sim_release(req);
			break;
		}
		CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
		CHECK_LOG_LEN(&m, 1);
		CHECK_STORE(&m, 0, RP1M_RIO_REG(b, RP1M_SET, RP1M_OUT), 1u << bit);
		CHECK_INT(rp1_level(&m, line), 1);
		CHECK_INT(udrv_request_get_value(req, 0), 1);
		CHECK_INT(udrv_request_set_value(req, 0, 0), 0);
		CHECK_LOG_LEN(&m, 2);
		CHECK_STORE(&m, 1, RP1M_RIO_REG(b, RP1M_CLR, RP1M_OUT), 1u << bit);
		CHECK_INT(rp1_level(&m, line), 0);
		CHECK_INT(udrv_request_get_value(req, 0), 0);
		CHECK_INT(m.nlog, 2);		/* reads store nothing */
		rp1_disarm();
		rp1_clear(&m);
		sim_release(req);
	}
	udrv_chip_free(chip);
	rp1_detach(&m);
}

/* Other lines of the bank, driven by someone else, keep their levels. */
static void test_other_lines_of_the_bank_untouched(void)
{
	const unsigned int line = 17;
	struct udrv_request *req;
	struct udrv_chip *chip;
	struct rp1_model m;

	chip = pi5(&m);
	rp1_claim(&m, 16, true, 1);	/* another user's output, high */
	rp1_claim(&m, 18, true, 0);
	rp1_claim(&m, line, true, 0);
	req = request(chip, 1, &line, &OUT);
	if (arm(&m)) {
		for (int i = 0; i < 6; i++) {
			/* meanwhile the other user flips its line */
			m.out[0] ^= 1u << 18;
			rp1_sync(&m);
			CHECK_INT(udrv_request_set_value(req, 0, i & 1), 0);
		}
		CHECK_LOG_LEN(&m, 6);
		for (int i = 0; i < 6; i++)
			CHECK_STORE(&m, i, RP1M_RIO_REG(0, i & 1 ? RP1M_SET : RP1M_CLR,
						       RP1M_OUT), 1u << 17);
		CHECK_INT(rp1_level(&m, 16), 1);
		CHECK_INT(rp1_level(&m, 18), 0);	/* flipped six times */
		CHECK_INT(rp1_level(&m, line), 1);
	}
	rp1_disarm();
	sim_release(req);
	udrv_chip_free(chip);
	rp1_detach(&m);
}

/* Lines in all three banks: one store per register touched, in order. */
static void test_set_values_across_banks(void)
{
	const unsigned int lines[5] = { 4, 27, 30, 40, 53 };
	struct udrv_line_settings st[5] = { OUT, OUT, OUT, OUT, OUT };
	struct udrv_request *req;
	struct udrv_chip *chip;
	struct rp1_model m;
	uint64_t v = 0;

	chip = pi5(&m);
	for (int i = 0; i < 5; i++)
		rp1_claim(&m, lines[i], true, 0);
	req = request(chip, 5, lines, st);
	if (arm(&m)) {
		/* 4 and 27 high (bank 0: one SET), 30 high (bank 1: SET),
		 * 40 high, 53 low (bank 2: SET and CLR) */
		CHECK_INT(udrv_request_set_values(req, 0x1f, 0x0f), 0);
		CHECK_LOG_LEN(&m, 4);
		CHECK_STORE(&m, 0, RP1M_RIO_REG(0, RP1M_SET, RP1M_OUT),
			    (1u << 4) | (1u << 27));
		CHECK_STORE(&m, 1, RP1M_RIO_REG(1, RP1M_SET, RP1M_OUT), 1u << 2);
		CHECK_STORE(&m, 2, RP1M_RIO_REG(2, RP1M_SET, RP1M_OUT), 1u << 6);
		CHECK_STORE(&m, 3, RP1M_RIO_REG(2, RP1M_CLR, RP1M_OUT), 1u << 19);
		CHECK_INT(udrv_request_get_values(req, 0x1f, &v), 0);
		CHECK_INT(v, 0x0f);
		/* a subset: only 27 and 53 */
		rp1_clear(&m);
		CHECK_INT(udrv_request_set_values(req, 0x12, 0x10), 0);
		CHECK_LOG_LEN(&m, 2);
		CHECK_STORE(&m, 0, RP1M_RIO_REG(0, RP1M_CLR, RP1M_OUT), 1u << 27);
		CHECK_STORE(&m, 1, RP1M_RIO_REG(2, RP1M_SET, RP1M_OUT), 1u << 19);
		CHECK_INT(udrv_request_get_values(req, 0x1f, &v), 0);
		CHECK_INT(v, 0x1d);
	}
	rp1_disarm();
	sim_release(req);
	udrv_chip_free(chip);
	rp1_detach(&m);
}

static void test_inputs_read_and_refused_for_writing(void)
{
	const unsigned int lines[3] = { 5, 31, 50 };
	const struct udrv_line_settings st[3] = { IN, IN, OUT };
	struct udrv_request *req;
	struct udrv_chip *chip;
	struct rp1_model m;
	uint64_t v = 0;

	chip = pi5(&m);
	rp1_claim(&m, 5, false, 0);
	rp1_claim(&m, 31, false, 0);
	rp1_claim(&m, 50, true, 1);
	req = request(chip, 3, lines, st);
	if (arm(&m)) {
		m.ext[0] = 1u << 5;
		m.ext[1] = 0;
		rp1_sync(&m);
		CHECK_INT(udrv_request_get_values(req, 0x7, &v), 0);
		CHECK_INT(v, 0x5);
		m.ext[0] = 0;
		m.ext[1] = 1u << 3;
		rp1_sync(&m);
		CHECK_INT(udrv_request_get_values(req, 0x7, &v), 0);
		CHECK_INT(v, 0x6);
		CHECK_INT(udrv_request_set_value(req, 0, 1), -EPERM);
		CHECK_CONTAINS(udrv_request_errmsg(req), "line 5 of gpiochip0");
		CHECK_INT(udrv_request_set_values(req, 0x3, 0x3), -EPERM);
		CHECK_LOG_LEN(&m, 0);
	}
	rp1_disarm();
	sim_release(req);
	udrv_chip_free(chip);
	rp1_detach(&m);
}

static void test_active_low_swaps_set_and_clear(void)
{
	const unsigned int line = 36;
	struct udrv_line_settings st = OUT;
	struct udrv_request *req;
	struct udrv_chip *chip;
	struct rp1_model m;

	chip = pi5(&m);
	st.active_low = true;
	rp1_claim(&m, line, true, 1);	/* logical 0 */
	req = request(chip, 1, &line, &st);
	if (arm(&m)) {
		CHECK_INT(udrv_request_get_value(req, 0), 0);
		CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
		CHECK_INT(udrv_request_set_values(req, 1, 0), 0);
		CHECK_LOG_LEN(&m, 2);
		CHECK_STORE(&m, 0, RP1M_RIO_REG(2, RP1M_CLR, RP1M_OUT), 1u << 2);
		CHECK_STORE(&m, 1, RP1M_RIO_REG(2, RP1M_SET, RP1M_OUT), 1u << 2);
		CHECK_INT(rp1_level(&m, line), 1);
		CHECK_INT(udrv_request_get_value(req, 0), 0);
	}
	rp1_disarm();
	sim_release(req);
	udrv_chip_free(chip);
	rp1_detach(&m);
}

/* udrv_mmio_pin: its pointers are the aliases; each write one store. */
static void test_inline_pin_every_bank(void)
{
	const unsigned int lines[3] = { 26, 29, 45 };
	const struct udrv_line_settings st[3] = { OUT, OUT, IN };
	struct udrv_mmio_pin pin[3];
	struct udrv_request *req;
	struct udrv_chip *chip;
	unsigned int bit, b;
	struct rp1_model m;

	chip = pi5(&m);
	rp1_claim(&m, 26, true, 0);
	rp1_claim(&m, 29, true, 0);
	rp1_claim(&m, 45, false, 0);
	req = request(chip, 3, lines, st);
	for (size_t i = 0; i < 3; i++)
		CHECK_INT(udrv_request_mmio_pin(req, i, &pin[i]), 0);
	CHECK(pin[2].set == NULL && pin[2].clear == NULL);
	if (arm(&m)) {
		for (size_t i = 0; i < 2; i++) {
			b = rp1_bank(lines[i], &bit);
			rp1_clear(&m);
			for (int k = 0; k < 4; k++) {
				udrv_mmio_pin_write(&pin[i], !(k & 1));
				after_store();
				CHECK_INT(udrv_mmio_pin_read(&pin[i]), !(k & 1));
				CHECK_INT(rp1_level(&m, lines[i]), !(k & 1));
			}
			CHECK_LOG_LEN(&m, 4);
			for (int k = 0; k < 4; k++)
				CHECK_STORE(&m, k, RP1M_RIO_REG(b, k & 1 ? RP1M_CLR : RP1M_SET,
							       RP1M_OUT), 1u << bit);
		}
		m.ext[2] = 1u << 11;
		rp1_sync(&m);
		CHECK_INT(udrv_mmio_pin_read(&pin[2]), 1);
		m.pad[45] &= ~(1u << 6);	/* input disabled: reads 0 */
		rp1_sync(&m);
		CHECK_INT(udrv_mmio_pin_read(&pin[2]), 0);
	}
	rp1_disarm();
	sim_release(req);
	udrv_chip_free(chip);
	rp1_detach(&m);
}

/* The model itself: a plain write of RIO_OUT, through the library's own
 * mapping, is caught (and stores that are not to an alias are not lost). */
static void test_model_catches_a_plain_write(void)
{
	const unsigned int line = 8;
	struct udrv_mmio_pin pin;
	struct udrv_request *req;
	struct udrv_chip *chip;
	volatile uint32_t *out;
	struct rp1_model m;

	chip = pi5(&m);
	rp1_claim(&m, line, true, 0);
	req = request(chip, 1, &line, &OUT);
	CHECK_INT(udrv_request_mmio_pin(req, 0, &pin), 0);
	out = (volatile uint32_t *)((volatile uint8_t *)pin.set - RP1M_SET);
	if (arm(&m)) {
		*out = *out | (1u << line);	/* a read-modify-write */
		after_store();
		CHECK_INT(m.nlog, 1);
		CHECK_CONTAINS(m.violation, "store 0: a plain write of RIO_OUT");
		CHECK_INT(rp1_level(&m, line), 1);
		rp1_clear(&m);
		pin.set[0] = 1u << line;	/* twice the same: two stores */
		pin.set[0] = 1u << line;
		after_store();
		CHECK_LOG_LEN(&m, 2);
		*(volatile uint32_t *)((volatile uint8_t *)out + RP1M_XOR) = 1u << line;
		after_store();
		CHECK_LOG_LEN(&m, 3);
		CHECK_INT(rp1_level(&m, line), 0);
	}
	rp1_disarm();
	sim_release(req);
	udrv_chip_free(chip);
	rp1_detach(&m);
}

UDRV_TESTS(UDRV_T(test_detect_gpiochip0_by_node),
	   UDRV_T(test_bank_layout),
	   UDRV_T(test_detect_gpiochip4_by_label),
	   UDRV_T(test_detect_by_node_compatible),
	   UDRV_T(test_no_gpiomem0_names_it),
	   UDRV_T(test_gpiomem0_permission_names_group_and_fix),
	   UDRV_T(test_muxed_line_refused_saying_which),
	   UDRV_T(test_pulls_from_the_pads),
	   UDRV_T(test_set_value_one_store_per_edge_every_bank),
	   UDRV_T(test_other_lines_of_the_bank_untouched),
	   UDRV_T(test_set_values_across_banks),
	   UDRV_T(test_inputs_read_and_refused_for_writing),
	   UDRV_T(test_active_low_swaps_set_and_clear),
	   UDRV_T(test_inline_pin_every_bank),
	   UDRV_T(test_model_catches_a_plain_write))
