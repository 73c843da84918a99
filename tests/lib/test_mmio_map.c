// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mmio backend's detection and mapping on fake trees: the SoC from
 * /proc/device-tree/compatible (BCM2837, BCM2711, AM335x; an unknown SoC or
 * no device tree refused unless a layout is given), the chip's bank from its
 * device or label, the mapping order /dev/gpiomem, UIO map, /dev/mem (sparse
 * regular files), the message when nothing maps and when /dev/mem says EPERM,
 * and udrv_chip_request() with UDRV_BACKEND_MMIO up to the claim.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpio/backend.h"
#include "fake_gpio.h"
#include "harness.h"
#include "gpio/soc/soc.h"
#include "soc_sim.h"

#define PI3_COMPAT	"raspberrypi,3-model-b\0brcm,bcm2837"
#define PI4_COMPAT	"raspberrypi,4-model-b\0brcm,bcm2711"
#define PI5_COMPAT	"raspberrypi,5-model-b\0brcm,bcm2712"
#define PI3_BASE	0x3f200000ULL

static struct udrv_chip *pi3_tree(const char *device, const char *label)
{
	sim_tree(PI3_COMPAT, sizeof(PI3_COMPAT), device, label, 54);
	return sim_chip();
}

static void test_detect_bcm2837_and_line_40(void)
{
	struct udrv_chip *chip = pi3_tree("3f200000.gpio", "pinctrl-bcm2835");
	struct udrv_mmio_line_info info;

	sim_devfile("dev/mem", PI3_BASE + 0x1000);
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 40, &info), 0);
	CHECK_STR(info.soc, "bcm2837");
	CHECK_STR(info.device, "3f200000.gpio");
	CHECK(info.phys == PI3_BASE);
	CHECK_INT(info.width, 32);
	CHECK_INT(info.set, 0x20);		/* GPSET1 */
	CHECK_INT(info.clear, 0x2c);		/* GPCLR1 */
	CHECK_INT(info.level, 0x38);		/* GPLEV1 */
	CHECK_INT(info.mask, 1u << 8);
	CHECK_STR(info.set_name, "GPSET1");
	CHECK_STR(info.clear_name, "GPCLR1");
	CHECK_STR(info.level_name, "GPLEV1");
	CHECK_CONTAINS(info.map_path, "/dev/mem");
	CHECK(info.map_offset == PI3_BASE);
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 17, &info), 0);
	CHECK_STR(info.set_name, "GPSET0");
	CHECK_INT(info.mask, 1u << 17);
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 54, &info), -EINVAL);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "lines 0..53");
	udrv_chip_free(chip);
}

static void test_detect_bcm2711(void)
{
	struct udrv_mmio_line_info info;
	struct udrv_chip *chip;

	sim_tree(PI4_COMPAT, sizeof(PI4_COMPAT), "fe200000.gpio",
		 "pinctrl-bcm2711", 58);
	sim_devfile("dev/gpiomem", 0x1000);
	chip = sim_chip();
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 57, &info), 0);
	CHECK_STR(info.soc, "bcm2711");
	CHECK(info.phys == 0xfe200000ULL);
	CHECK_INT(info.size, 0xf4);		/* up to the pull registers */
	CHECK_STR(info.set_name, "GPSET1");
	CHECK_INT(info.mask, 1u << 25);
	udrv_chip_free(chip);
}

/* A chip without a unit address: the label says it is the block. */
static void test_bcm_label_fallback(void)
{
	struct udrv_chip *chip = pi3_tree("gpio-platform", "pinctrl-bcm2835");
	struct udrv_mmio_line_info info;

	sim_devfile("dev/mem", PI3_BASE + 0x1000);
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 4, &info), 0);
	CHECK(info.phys == PI3_BASE);
	CHECK_STR(info.device, "gpio-platform");
	udrv_chip_free(chip);
}

static void test_other_chip_of_a_pi_refused(void)
{
	struct udrv_chip *chip = pi3_tree("soc:firmware:expgpio",
					  "raspberrypi-exp-gpio");
	struct udrv_mmio_line_info info;

	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 2, &info), -ENODEV);
	CHECK_CONTAINS(udrv_chip_errmsg(chip),
		       "gpiochip0 (raspberrypi-exp-gpio, device soc:firmware:expgpio) is not the bcm2837's GPIO block");
	udrv_chip_free(chip);
}

static void test_unknown_soc_needs_a_layout(void)
{
	struct udrv_gpio_layout l = UDRV_GPIO_LAYOUT_INIT;
	struct udrv_mmio_line_info info;
	struct udrv_chip *chip;

	/* the Pi 5's BCM2712 GPIO (RP1's chip is found by itself) */
	sim_tree(PI5_COMPAT, sizeof(PI5_COMPAT), "107d508500.gpio",
		 "gpio-brcmstb@107d508500", 32);
	chip = sim_chip();
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 2, &info), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_chip_errmsg(chip),
		       "unknown SoC (device tree: \"raspberrypi,5-model-b\", \"brcm,bcm2712\")");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "give the register layout");
	/* with a layout, the generic driver */
	l.base = 0x107d508500ULL;
	l.data_in = 0x4;
	l.set = 0x2000 + 0x4;
	l.clear = 0x3000 + 0x4;
	sim_devfile("dev/mem", l.base + 0x4000);
	CHECK_INT(udrv_chip_mmio_line_info(chip, &l, 2, &info), 0);
	CHECK_STR(info.soc, "generic");
	CHECK_INT(info.set, 0x2004);
	CHECK_INT(info.mask, 1u << 2);
	udrv_chip_free(chip);
}

static void test_no_device_tree(void)
{
	struct udrv_mmio_line_info info;
	struct udrv_chip *chip;

	sim_tree(NULL, 0, "gpio-wire.0", "gpio-wire", 8);
	chip = sim_chip();
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 0, &info), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "cannot tell the SoC");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "/proc/device-tree/compatible");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "not a device-tree system?");
	udrv_chip_free(chip);
}

static void fake_uio_map(const char *uio, int map, const char *addr,
			 const char *size, const char *offset)
{
	char p[256];

	snprintf(p, sizeof(p), "sys/class/uio/%s/maps/map%d/addr", uio, map);
	fake_file(p, addr);
	snprintf(p, sizeof(p), "sys/class/uio/%s/maps/map%d/size", uio, map);
	fake_file(p, size);
	snprintf(p, sizeof(p), "sys/class/uio/%s/maps/map%d/offset", uio, map);
	fake_file(p, offset);
}

static const char *mapped_from(struct udrv_chip *chip, uint64_t *offset)
{
	static struct udrv_mmio_line_info info;
	const char *root = fake_root_dir();

	if (udrv_chip_mmio_line_info(chip, NULL, 17, &info))
		return udrv_chip_errmsg(chip);
	*offset = info.map_offset;
	return info.map_path + strlen(root);
}

static void test_map_order(void)
{
	struct udrv_chip *chip = pi3_tree("3f200000.gpio", "pinctrl-bcm2835");
	long page = sysconf(_SC_PAGESIZE);
	uint64_t off = 1;

	/* nothing to map through */
	fake_dir("sys/class/uio");
	CHECK_CONTAINS(mapped_from(chip, &off), "cannot map the bcm2837 GPIO registers (0x3f200000)");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "/dev/mem");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "no /dev/gpiomem");
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "no UIO map covers it");
	/* 3. /dev/mem at the physical address */
	sim_devfile("dev/mem", PI3_BASE + 0x1000);
	CHECK_STR(mapped_from(chip, &off), "/dev/mem");
	CHECK(off == PI3_BASE);
	/* 2. a UIO map that covers the block beats /dev/mem; one that does
	 * not cover it is skipped */
	fake_uio_map("uio0", 0, "0x3f100000\n", "0x1000\n", "0x0\n");
	fake_uio_map("uio1", 0, "0x20000000\n", "0x1000\n", "0x0\n");
	fake_uio_map("uio1", 1, "0x3f000000\n", "0x400000\n", "0x0\n");
	sim_devfile("dev/uio1", (uint64_t)page + 0x400000);
	CHECK_STR(mapped_from(chip, &off), "/dev/uio1");
	CHECK(off == (uint64_t)page + 0x200000);	/* map 1, 2 MiB in */
	/* 1. /dev/gpiomem beats both, at offset 0 */
	sim_devfile("dev/gpiomem", 0x1000);
	CHECK_STR(mapped_from(chip, &off), "/dev/gpiomem");
	CHECK(off == 0);
	udrv_chip_free(chip);
}

/* The UIO mapping lands on the registers: a write shows at the block. */
static void test_uio_map_reaches_the_block(void)
{
	struct udrv_chip *chip = pi3_tree("3f200000.gpio", "pinctrl-bcm2835");
	long page = sysconf(_SC_PAGESIZE);
	const unsigned int line = 9;
	const struct udrv_line_settings out = { .direction = UDRV_DIR_OUTPUT };
	struct udrv_request *req;
	char err[UDRV_ERRMSG_LEN] = "";
	struct sim s = { 0 };

	fake_uio_map("uio0", 0, "0x20000000\n", "0x1000\n", "0x0\n");
	/* map 1 starts 0x800 into its page and 0x800 before the block */
	fake_uio_map("uio0", 1, "0x3f1ff800\n", "0x2000\n", "0x800\n");
	sim_devfile("dev/uio0", 4 * (uint64_t)page);
	sim_attach(&s, SIM_BCM2835, "dev/uio0", (uint64_t)page + 0x1000);
	sim_claim(&s, line, true, 0);
	CHECK_INT(sim_request(chip, 1, &line, &out, NULL, &req, err), 0);
	CHECK_STR(err, "");
	CHECK_INT(udrv_request_set_value(req, 0, 1), 0);
	CHECK_INT(sim_reg(&s, BCM_GPSET0), 1u << 9);
	sim_release(req);
	sim_detach(&s);
	udrv_chip_free(chip);
}

static void test_devmem_eperm_message(void)
{
	struct udrv_soc_bank bank;
	struct udrv_chip *chip = pi3_tree("3f200000.gpio", "pinctrl-bcm2835");
	char err[UDRV_ERRMSG_LEN], hint[UDRV_ERRMSG_LEN];

	fake_file("proc/iomem",
		  "00000000-3bffffff : System RAM\n"
		  "3f000000-3fffffff : soc\n"
		  "  3f200000-3f2000b3 : 3f200000.gpio gpio@7e200000\n"
		  "  3f201000-3f2011ff : 3f201000.serial serial@7e201000\n");
	CHECK_INT(udrv_soc_bank_find(&bank, chip, NULL, err), 0);
	udrv_soc_devmem_hint(hint, sizeof(hint), &bank);
	CHECK_CONTAINS(hint, "IO_STRICT_DEVMEM");
	CHECK_CONTAINS(hint, "(3f200000.gpio gpio@7e200000 owns this one)");
	CHECK_CONTAINS(hint, "iomem=relaxed");
	CHECK_CONTAINS(hint, "/dev/gpiomem");
	CHECK_CONTAINS(hint, "UIO map");
	udrv_chip_free(chip);
}

static void test_request_through_the_front_end(void)
{
	struct udrv_chip *chip = pi3_tree("3f200000.gpio", "pinctrl-bcm2835");
	struct udrv_request_config cfg = { .backend = UDRV_BACKEND_MMIO };
	struct udrv_line_settings s = { .direction = UDRV_DIR_OUTPUT,
					.drive = UDRV_DRIVE_OPEN_DRAIN };
	const unsigned int line = 17;
	struct udrv_request *req = NULL;
	char path[512];

	CHECK_INT(udrv_chip_request(chip, &cfg, 1, &line, &s, &req), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "open-drain is emulated by the kernel");
	/* registers mapped, then the claim: this chip has no /dev/gpiochip0 */
	sim_devfile("dev/mem", PI3_BASE + 0x1000);
	s.drive = UDRV_DRIVE_PUSH_PULL;
	CHECK_INT(udrv_chip_request(chip, &cfg, 1, &line, &s, &req), -ENODEV);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "has no character device");
	CHECK(req == NULL);
	/* no SoC: refused before anything else */
	fake_path(path, sizeof(path), "proc/device-tree/compatible");
	unlink(path);
	CHECK_INT(udrv_chip_request(chip, &cfg, 1, &line, &s, &req), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_chip_errmsg(chip), "cannot tell the SoC");
	udrv_chip_free(chip);
}

static void test_pin_needs_the_mmio_backend(void)
{
	struct udrv_request req = { .backend = UDRV_BACKEND_CDEV, .num_lines = 1 };
	struct udrv_mmio_pin pin;

	CHECK_INT(udrv_request_mmio_pin(&req, 0, &pin), -EINVAL);
	CHECK_CONTAINS(udrv_request_errmsg(&req), "uses the cdev backend");
}

/*
 * A UIO map is mmap()ed from its start, so the block's registers are
 * (phys - addr + offset) bytes into the mapping. For a BCM2711 in high
 * peripheral mode (0x47e200000) inside an 8 GiB map at 0x300000000 that is
 * 0x17e200000 bytes: a 32-bit size_t cut it to 0x7e200000, and the mapping
 * reached other registers than the GPIO block's. Where it does not fit,
 * the map is passed over (and /dev/mem used); where it does, it is exact.
 */
static void test_uio_map_beyond_size_t(void)
{
	struct udrv_mmio_line_info info;
	struct udrv_chip *chip;
	const char *path;

	sim_tree(PI4_COMPAT, sizeof(PI4_COMPAT), "47e200000.gpio",
		 "pinctrl-bcm2711", 58);
	chip = sim_chip();
	fake_uio_map("uio0", 0, "0x300000000\n", "0x200000000\n", "0x0\n");
	sim_devfile("dev/uio0", 0x200000000ULL);
	sim_devfile("dev/mem", 0x47e200000ULL + 0x1000);
	CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 17, &info), 0);
	path = info.map_path + strlen(fake_root_dir());
	CHECK(info.phys == 0x47e200000ULL);
	if (sizeof(size_t) < 8) {
		CHECK_STR(path, "/dev/mem");
		CHECK(info.map_offset == 0x47e200000ULL);
	} else {
		CHECK_STR(path, "/dev/uio0");
		CHECK(info.map_offset == 0x17e200000ULL);
	}
	/* without /dev/mem, the message says why the UIO map was passed over */
	if (sizeof(size_t) < 8) {
		char dev[512];

		fake_path(dev, sizeof(dev), "dev/mem");
		unlink(dev);
		CHECK_INT(udrv_chip_mmio_line_info(chip, NULL, 17, &info), -ENOENT);
		CHECK_CONTAINS(udrv_chip_errmsg(chip), "map 0 of uio0");
		CHECK_CONTAINS(udrv_chip_errmsg(chip), "0x17e200000 bytes into it");
	}
	udrv_chip_free(chip);
}

UDRV_TESTS(UDRV_T(test_detect_bcm2837_and_line_40), UDRV_T(test_detect_bcm2711),
	   UDRV_T(test_bcm_label_fallback), UDRV_T(test_other_chip_of_a_pi_refused),
	   UDRV_T(test_unknown_soc_needs_a_layout), UDRV_T(test_no_device_tree),
	   UDRV_T(test_map_order), UDRV_T(test_uio_map_reaches_the_block),
	   UDRV_T(test_devmem_eperm_message),
	   UDRV_T(test_request_through_the_front_end),
	   UDRV_T(test_pin_needs_the_mmio_backend),
	   UDRV_T(test_uio_map_beyond_size_t))
