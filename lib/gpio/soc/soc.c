// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * SoC detection for the mmio backend: a GPIO block that its own chip names
 * (the RP1's, by its node's compatible or its label, whatever board it is
 * on), else the SoC from the device tree's root compatible; the chip's
 * register bank from its device's unit address ("3f200000.gpio") or label,
 * and the register arithmetic the drivers share.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/parse.h>

#include "gpio/backend.h"
#include "abi.h"
#include "gpio/soc/soc.h"

#define COMPAT_LEN	512

static const struct udrv_soc_driver *const soc_drivers[] = {
	&udrv_soc_am335x,
	&udrv_soc_bcm2835,
	&udrv_soc_rp1,
};

void udrv_soc_reg_name(const struct udrv_soc_bank *b, enum udrv_soc_reg r,
		       unsigned int line, char *buf, size_t len)
{
	const char *fmt = b->reg_name[r];
	unsigned int bit;

	if (b->reg[r] < 0)
		snprintf(buf, len, "-");
	else if (fmt)
		snprintf(buf, len, fmt, udrv_soc_word(b, line, &bit));
	else
		snprintf(buf, len, "0x%x", (unsigned int)udrv_soc_reg(b, r, line));
}

uint32_t udrv_soc_read(const struct udrv_soc_bank *b,
		       const volatile uint8_t *regs, int32_t off)
{
	switch (b->width) {
	case 8:
		return *(const volatile uint8_t *)(regs + off);
	case 16:
		return *(const volatile uint16_t *)(regs + off);
	default:
		return *(const volatile uint32_t *)(regs + off);
	}
}

void udrv_soc_write(const struct udrv_soc_bank *b, volatile uint8_t *regs,
		    int32_t off, uint32_t v)
{
	switch (b->width) {
	case 8:
		*(volatile uint8_t *)(regs + off) = (uint8_t)v;
		break;
	case 16:
		*(volatile uint16_t *)(regs + off) = (uint16_t)v;
		break;
	default:
		*(volatile uint32_t *)(regs + off) = v;
		break;
	}
}

/* "../../../devices/platform/soc/3f200000.gpio/gpiochip0" -> parent name */
static void parent_name(const char *target, char *buf, size_t len)
{
	const char *end = strrchr(target, '/'), *start;

	buf[0] = '\0';
	if (!end)
		return;
	for (start = end; start > target && start[-1] != '/'; start--)
		;
	if ((size_t)(end - start) < len)
		snprintf(buf, len, "%.*s", (int)(end - start), start);
}

/*
 * The unit address of a device named "3f200000.gpio": hex digits (at most
 * 16, no 0x, no sign, no space) before the first '.'. Nothing else is one.
 */
static bool unit_address(const char *device, uint64_t *addr)
{
	size_t n = strspn(device, "0123456789abcdefABCDEF");
	char hex[24];

	if (!n || n > 16 || device[n] != '.')
		return false;
	snprintf(hex, sizeof(hex), "0x%.*s", (int)n, device);
	return udrv_parse_u64(hex, UINT64_MAX, addr) == 0;
}

/* @dir/of_node/compatible into sc->compatible; its length, or 0. */
static int node_compatible(struct udrv_soc_chip *sc, const char *dir)
{
	char path[UDRV_PATH_LEN];
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/of_node/compatible", dir) >=
	    (int)sizeof(path))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, sc->compatible, sizeof(sc->compatible) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	sc->compatible[n] = '\0';
	return sc->compatible_len = (int)n;
}

void udrv_soc_chip_describe(struct udrv_soc_chip *sc,
			    const struct udrv_chip *chip)
{
	char path[UDRV_PATH_LEN], target[UDRV_PATH_LEN];
	ssize_t n;

	memset(sc, 0, sizeof(*sc));
	sc->name = chip->name;
	sc->label = chip->label;
	sc->num_lines = chip->num_lines;
	if (udrv_path(path, sizeof(path), "/sys/bus/gpio/devices/%s",
		      chip->name))
		return;
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	parent_name(target, sc->device, sizeof(sc->device));
	sc->has_addr = unit_address(sc->device, &sc->addr);
	/* the chip's node (newer kernels), else its device's */
	if (!node_compatible(sc, path) &&
	    strlen(path) + 4 < sizeof(path)) {
		strcat(path, "/..");
		node_compatible(sc, path);
	}
}

/* Does @compat (NUL-separated, @len bytes) hold @want? */
bool udrv_soc_compatible_has(const char *compat, int len, const char *want)
{
	for (const char *s = compat; s < compat + len; s += strlen(s) + 1)
		if (!strcmp(s, want))
			return true;
	return false;
}

/* A driver that knows the chip by its own node or label. */
static const struct udrv_soc_driver *claimed(const struct udrv_soc_chip *sc)
{
	for (size_t d = 0; d < ARRAY_SIZE(soc_drivers); d++)
		if (soc_drivers[d]->claims && soc_drivers[d]->claims(sc))
			return soc_drivers[d];
	return NULL;
}

/* The root compatible strings, NUL-separated; total length or -errno. */
static int read_compatible(char *buf, size_t len)
{
	char path[UDRV_PATH_LEN];
	ssize_t n;
	int fd;

	if (udrv_path(path, sizeof(path), "/proc/device-tree/compatible"))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

static const struct udrv_soc_driver *match(const char *compat, int len,
					   const char **matched)
{
	for (const char *s = compat; s < compat + len; s += strlen(s) + 1)
		for (size_t d = 0; d < ARRAY_SIZE(soc_drivers); d++)
			for (const char *const *c = soc_drivers[d]->compatible;
			     c && *c; c++)
				if (!strcmp(s, *c)) {
					*matched = s;
					return soc_drivers[d];
				}
	return NULL;
}

/* "a", "b" for messages */
static void compat_list(const char *compat, int len, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const char *s = compat; s < compat + len && used < size;
	     s += strlen(s) + 1)
		used += (size_t)snprintf(buf + used, size - used, "%s\"%s\"",
					 used ? ", " : "", s);
}

static int unknown_soc(char *errmsg, int len, const char *compat)
{
	static const char known[] =
		"the mmio backend knows ti,am33xx (BeagleBone), brcm,bcm2835-7 (Raspberry Pi 0-3), brcm,bcm2711 (Pi 4) and the RP1's chip (Pi 5: pinctrl-rp1), for others give the register layout (udrv_request_config.layout)";
	char list[256];

	if (len < 0)
		return udrv_err(errmsg, EOPNOTSUPP,
				"cannot tell the SoC: %s%s: %s (not a device-tree system?): %s",
				udrv_sysroot(), "/proc/device-tree/compatible",
				strerror(-len), known);
	compat_list(compat, len, list, sizeof(list));
	return udrv_err(errmsg, EOPNOTSUPP, "unknown SoC (device tree: %s): %s",
			list, known);
}

int udrv_soc_bank_find(struct udrv_soc_bank *bank,
		       const struct udrv_chip *chip,
		       const struct udrv_gpio_layout *layout, char *errmsg)
{
	const struct udrv_soc_driver *drv;
	struct udrv_soc_chip sc;
	char compat[COMPAT_LEN];
	const char *matched = NULL;
	int len;

	memset(bank, 0, sizeof(*bank));
	udrv_soc_chip_describe(&sc, chip);
	if (layout) {
		drv = &udrv_soc_generic;
	} else if (!(drv = claimed(&sc))) {
		/* a block its chip does not name: the SoC's */
		len = read_compatible(compat, sizeof(compat));
		drv = len > 0 ? match(compat, len, &matched) : NULL;
		if (!drv)
			return unknown_soc(errmsg, len, compat);
	}
	bank->drv = drv;
	udrv_strlcpy(bank->device, sc.device, sizeof(bank->device));
	return drv->resolve(bank, &sc, matched, layout, errmsg);
}

static void line_info(struct udrv_mmio_line_info *info,
		      const struct udrv_soc_bank *b,
		      const struct udrv_soc_map *map, unsigned int line)
{
	memset(info, 0, sizeof(*info));
	udrv_strlcpy(info->soc, b->soc, sizeof(info->soc));
	udrv_strlcpy(info->device, b->device, sizeof(info->device));
	udrv_strlcpy(info->map_path, map->path, sizeof(info->map_path));
	info->map_offset = map->offset;
	info->phys = b->phys;
	info->size = b->size;
	info->width = b->width;
	info->set = udrv_soc_reg(b, SOC_REG_SET, line);
	info->clear = udrv_soc_reg(b, SOC_REG_CLEAR, line);
	info->level = udrv_soc_reg(b, SOC_REG_LEVEL, line);
	info->mask = udrv_soc_bit(b, line);
	udrv_soc_reg_name(b, SOC_REG_SET, line, info->set_name,
			  sizeof(info->set_name));
	udrv_soc_reg_name(b, SOC_REG_CLEAR, line, info->clear_name,
			  sizeof(info->clear_name));
	udrv_soc_reg_name(b, SOC_REG_LEVEL, line, info->level_name,
			  sizeof(info->level_name));
}

int udrv_chip_mmio_line_info_sz(struct udrv_chip *chip,
				const struct udrv_gpio_layout *layout,
				size_t layout_size, unsigned int offset,
				struct udrv_mmio_line_info *out,
				size_t info_size)
{
	struct udrv_mmio_line_info li, *info = &li;
	struct udrv_gpio_layout ours;
	struct udrv_soc_bank bank;
	struct udrv_soc_map map;
	int ret;

	ret = udrv_abi_size(chip->errmsg, &udrv_abi_mmio_line_info, info_size);
	if (!ret && layout) {
		ret = udrv_abi_in(chip->errmsg, &udrv_abi_gpio_layout, &ours,
				  layout, layout_size);
		layout = &ours;
	}
	if (ret)
		return ret;
	if (!chip->name[0])
		return udrv_err(chip->errmsg, EBADF,
				"the chip is not open: call udrv_chip_open() first");
	ret = udrv_soc_bank_find(&bank, chip, layout, chip->errmsg);
	if (ret)
		return ret;
	if (offset >= bank.lines || offset >= chip->num_lines)
		return udrv_err(chip->errmsg, EINVAL,
				"line %u of %s: the %s registers hold lines 0..%u",
				offset, chip->name, bank.soc,
				(bank.lines < chip->num_lines ? bank.lines :
				 chip->num_lines) - 1);
	ret = udrv_soc_map(&map, &bank, chip->errmsg);
	if (ret)
		return ret;
	memset(info, 0, sizeof(*info));
	line_info(info, &bank, &map, offset);
	udrv_soc_unmap(&map);
	udrv_abi_out(&udrv_abi_mmio_line_info, out, info, info_size);
	return 0;
}
