// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mmio backend's readers of kernel text: the device tree's root
 * compatible (/proc/device-tree/compatible), the chip's parent device
 * (its unit address, from the /sys/bus/gpio/devices/gpiochip0 link), the
 * UIO maps that may cover the block, and /proc/iomem (who owns a range).
 *
 * Input parts (fuzz.h):
 *   0 /proc/device-tree/compatible (NUL-separated strings)
 *   1 the chip's parent device name ("3f200000.gpio")
 *   2 /dev/gpiochip0, the fake character device (fuzz.h): label, lines
 *   3 the line offset to resolve (decimal)
 *   4, 5, 6 /sys/class/uio/uio0/maps/map0/ addr, size, offset
 *   7 /proc/iomem
 *   8 present: /dev/gpiomem exists
 * /dev/mem is a sparse file of 64 GiB, /dev/uio0 one of 1 GiB.
 *
 * Properties of a line the backend resolves (udrv_chip_mmio_line_info):
 *  - a known SoC (the RP1 found by its chip's label), the line within the
 *    chip and the SoC's lines, its bit in its bank's word;
 *  - its registers inside the block (offset + 4 <= size), its mask;
 *  - the block's address: the device's unit address when the device name
 *    is one (hex digits, then '.'), else the SoC's documented address
 *    (never a number read from a name that is not an address);
 *  - mapped from /dev/gpiomem(0) at 0, /dev/mem at the address, or a UIO map
 *    whose attributes (read strictly) cover the whole block.
 * And udrv_soc_devmem_hint() reads any /proc/iomem without a sanitizer
 * report.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "fuzz.h"
#include "gpio/soc/soc.h"

static const struct {
	const char *soc;
	unsigned int lines;
	uint64_t phys;		/* without a unit address */
} socs[] = {
	{ "bcm2835", 54, 0x20200000 },
	{ "bcm2836", 54, 0x3f200000 },
	{ "bcm2837", 54, 0x3f200000 },
	{ "bcm2711", 58, 0xfe200000 },
	{ "am335x", 32, 0 },
	{ "rp1", 54, 0x1f000d0000ULL },	/* banks of 28, 6, 20 lines */
};

/* The line's bit in its register word: the RP1's banks are unequal. */
static uint32_t mask_of(const char *soc, unsigned int line)
{
	if (strcmp(soc, "rp1"))
		return 1u << (line % 32);
	return 1u << (line < 28 ? line : line < 34 ? line - 28 : line - 34);
}

/* The unit address of a device name "3f200000.gpio": true and *addr. */
static bool unit_address(const char *dev, uint64_t *addr)
{
	size_t n = strspn(dev, "0123456789abcdefABCDEF");
	char hex[32];

	if (!n || dev[n] != '.' || n > 16)
		return false;
	snprintf(hex, sizeof(hex), "0x%.*s", (int)n, dev);
	return udrv_parse_u64(hex, UINT64_MAX, addr) == 0;
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);

	return n >= m && !strcmp(s + n - m, end);
}

/* The UIO map's attributes (read strictly) cover the block; true also when
 * they hold a NUL byte (no kernel attribute does: not checked). */
static bool uio_covers(const struct fuzz_parts *parts, uint64_t phys, uint64_t size)
{
	const char *t;
	uint64_t addr, len;

	for (size_t i = 4; i <= 5; i++)
		if (fuzz_has(parts, i) && memchr(parts->p[i], 0, parts->len[i]))
			return true;

	t = fuzz_text("sys/class/uio/uio0/maps/map0/addr", 64);
	if (!t || udrv_parse_u64(t, UINT64_MAX, &addr))
		return false;
	t = fuzz_text("sys/class/uio/uio0/maps/map0/size", 64);
	if (!t || udrv_parse_u64(t, UINT64_MAX, &len))
		return false;
	return addr <= phys &&
	       (unsigned __int128)phys + size <= (unsigned __int128)addr + len;
}

static void check_line(struct udrv_chip *chip, const struct fuzz_parts *parts,
		       const char *dev, unsigned int line)
{
	struct udrv_mmio_line_info info;
	size_t k;
	uint64_t addr;
	int ret;

	memset(&info, 0x5a, sizeof(info));
	ret = udrv_chip_mmio_line_info(chip, NULL, line, &info);
	if (ret) {
		FUZZ_CHECK(ret < 0 && udrv_chip_errmsg(chip)[0],
			   "udrv_chip_mmio_line_info() = %d without a message", ret);
		return;
	}
	for (k = 0; k < sizeof(socs) / sizeof(socs[0]); k++)
		if (!strcmp(info.soc, socs[k].soc))
			break;
	FUZZ_CHECK(k < sizeof(socs) / sizeof(socs[0]), "unknown SoC \"%.24s\"", info.soc);
	FUZZ_CHECK(line < udrv_chip_num_lines(chip) && line < socs[k].lines,
		   "line %u resolved (the chip has %u lines, the %s %u)", line,
		   udrv_chip_num_lines(chip), info.soc, socs[k].lines);
	FUZZ_CHECK(info.width == 32 && info.mask == mask_of(info.soc, line),
		   "line %u: width %u, mask 0x%x", line, info.width, info.mask);
	FUZZ_CHECK(info.set >= 0 && (uint64_t)info.set + 4 <= info.size &&
		   info.clear >= 0 && (uint64_t)info.clear + 4 <= info.size &&
		   info.level >= 0 && (uint64_t)info.level + 4 <= info.size,
		   "line %u: registers 0x%x 0x%x 0x%x outside the %zu-byte block", line,
		   info.set, info.clear, info.level, info.size);
	if (socs[k].phys && !fuzz_skip("soc-device-addr")) {
		bool has = unit_address(dev, &addr);

		FUZZ_CHECK(info.phys == (has ? addr : socs[k].phys),
			   "device \"%s\": the %s block at 0x%" PRIx64 ", expected 0x%" PRIx64,
			   dev, info.soc, info.phys, has ? addr : socs[k].phys);
	}
	if (ends_with(info.map_path, "/dev/gpiomem") ||
	    ends_with(info.map_path, "/dev/gpiomem0"))
		FUZZ_CHECK(info.map_offset == 0, "gpiomem at 0x%" PRIx64, info.map_offset);
	else if (ends_with(info.map_path, "/dev/mem"))
		FUZZ_CHECK(info.map_offset == info.phys, "/dev/mem at 0x%" PRIx64 " for 0x%" PRIx64,
			   info.map_offset, info.phys);
	else if (!fuzz_skip("uio-cover"))
		FUZZ_CHECK(ends_with(info.map_path, "/dev/uio0") &&
			   uio_covers(parts, info.phys, info.size),
			   "mapped through %s, which does not cover 0x%" PRIx64 " + %zu",
			   info.map_path, info.phys, info.size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const uio_attrs[] = { "addr", "size", "offset" };
	struct fuzz_parts parts;
	struct udrv_soc_bank bank;
	struct udrv_chip *chip;
	char rel[128], link[PATH_MAX], hint[UDRV_ERRMSG_LEN], *dev, *line;
	const char *seen;
	unsigned long off;

	fuzz_split(data, size, &parts);
	fuzz_reset();
	fuzz_mkdir("sys/kernel");
	fuzz_write_part(&parts, 0, "proc/device-tree/compatible");
	dev = fuzz_str(&parts, 1);
	if (fuzz_has(&parts, 1)) {
		snprintf(link, sizeof(link), "../../../devices/platform/%s/gpiochip0", dev);
		fuzz_symlink(link, "sys/bus/gpio/devices/gpiochip0");
	}
	if (!fuzz_write_part(&parts, 2, "dev/gpiochip0"))
		fuzz_write_str("dev/gpiochip0", "pinctrl-bcm2835\n54\n");
	for (size_t i = 0; i < 3; i++) {
		snprintf(rel, sizeof(rel), "sys/class/uio/uio0/maps/map0/%s", uio_attrs[i]);
		fuzz_write_part(&parts, 4 + i, rel);
	}
	fuzz_write_part(&parts, 7, "proc/iomem");
	if (fuzz_has(&parts, 8))
		fuzz_sparse("dev/gpiomem", 4096);
	fuzz_sparse("dev/mem", 1ULL << 36);
	fuzz_sparse("dev/uio0", 1ULL << 30);

	line = fuzz_str(&parts, 3);
	off = strtoul(line, NULL, 10);
	free(line);
	/* the device as the library sees it: the link's last directory */
	seen = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	if (strlen(seen) >= 64)
		seen = "";
	chip = udrv_chip_new();
	if (chip && udrv_chip_open(chip, "gpiochip0") == 0) {
		check_line(chip, &parts, seen, (unsigned int)off);
		check_line(chip, &parts, seen, 0);
	}
	udrv_chip_free(chip);

	/* who owns a range, from /proc/iomem */
	memset(&bank, 0, sizeof(bank));
	bank.phys = 0x3f200000;
	udrv_soc_devmem_hint(hint, sizeof(hint), &bank);
	FUZZ_CHECK(memchr(hint, 0, sizeof(hint)) && strstr(hint, "CONFIG_IO_STRICT_DEVMEM"),
		   "devmem hint \"%.64s...\"", hint);
	unit_address(dev, &bank.phys);
	udrv_soc_devmem_hint(hint, sizeof(hint), &bank);
	free(dev);
	return 0;
}
