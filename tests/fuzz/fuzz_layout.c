// SPDX-License-Identifier: GPL-2.0-only
/*
 * Register layouts: udrv_gpio_layout_parse() (udrv/gpio_mmio.h), and what
 * the generic driver makes of a parsed layout.
 *
 * Input parts (fuzz.h): 0 the layout spec; 1 the chip's number of lines
 * (as the fake character device reports it; default 32); 2 the line
 * offset to resolve; 3 the chip's parent device name (for the unit address
 * check; absent: no device).
 *
 * Properties:
 *  - the parser agrees with a model of the documented grammar: KEY=VALUE
 *    items separated by commas, the keys of gpio_mmio.h, numbers as
 *    udrv/parse.h reads them ("libudrv reads every number through these
 *    functions": decimal or 0x hex, no sign, no space, no octal, never
 *    wrapped or cut short), offsets "none" or "-1" for absent, each key
 *    once ("data" is data-in and data-out); same
 *    verdict and, when both accept, the same layout;
 *  - on error: a message, and the layout untouched;
 *  - a layout the generic driver accepts puts every register of every
 *    line inside the block it maps: offset + register bytes <= size, at
 *    the offsets the layout gives for that line's bank.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/udrv.h>

#include "fuzz.h"

static int model_offset(const char *v, int32_t *out)
{
	uint64_t n;

	if (!strcmp(v, "none") || !strcmp(v, "-1")) {
		*out = -1;
		return 0;
	}
	if (udrv_parse_u64(v, INT32_MAX, &n))
		return -1;
	*out = (int32_t)n;
	return 0;
}

static int model_item(struct udrv_gpio_layout *l, const char *k, const char *v)
{
	uint64_t n;

	if (!strcmp(k, "map")) {
		if (strlen(v) >= sizeof(l->map_path))
			return -1;
		snprintf(l->map_path, sizeof(l->map_path), "%s", v);
		return 0;
	}
	if (!strcmp(k, "data"))
		return model_offset(v, &l->data_in) || model_offset(v, &l->data_out);
	if (!strcmp(k, "data-in"))
		return model_offset(v, &l->data_in);
	if (!strcmp(k, "data-out"))
		return model_offset(v, &l->data_out);
	if (!strcmp(k, "set"))
		return model_offset(v, &l->set);
	if (!strcmp(k, "clear"))
		return model_offset(v, &l->clear);
	if (!strcmp(k, "dir"))
		return model_offset(v, &l->dir);
	if (udrv_parse_u64(v, UINT64_MAX, &n))
		return -1;
	if (!strcmp(k, "base"))
		l->base = n;
	else if (!strcmp(k, "size"))
		l->size = (size_t)n;
	else if (!strcmp(k, "width") && n <= 32)
		l->width = (unsigned int)n;
	else if (!strcmp(k, "stride") && n <= UINT32_MAX)
		l->bank_stride = (uint32_t)n;
	else if (!strcmp(k, "map-offset"))
		l->map_offset = n;
	else if (!strcmp(k, "dir-input") && n <= 1)
		l->dir_input_high = n;
	else
		return -1;
	return 0;
}

/* The fields a key sets: "data" is data-in and data-out. */
static unsigned int model_fields(const char *k)
{
	static const char *const keys[] = {
		"base", "size", "width", "data-in", "data-out", "set", "clear",
		"dir", "dir-input", "stride", "map", "map-offset",
	};

	if (!strcmp(k, "data"))
		return 3u << 3;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(k, keys[i]))
			return 1u << i;
	return 0;
}

/* Items separated by commas (one trailing comma allowed), base required,
 * each register or value given once. */
static int model_layout(const char *spec, struct udrv_gpio_layout *out)
{
	struct udrv_gpio_layout l = UDRV_GPIO_LAYOUT_INIT;
	char *copy = strdup(spec), *item, *next, *eq;
	unsigned int seen = 0;
	bool base = false;
	int ret = 0;

	if (!copy)
		abort();
	for (item = copy; *item && !ret; item = next) {
		next = item + strcspn(item, ",");
		/* an item too long for the parser is refused, never cut */
		if ((size_t)(next - item) >= UDRV_GPIO_MAP_PATH_LEN + 16) {
			ret = -1;
			break;
		}
		if (*next)
			*next++ = '\0';
		eq = strchr(item, '=');
		if (!eq) {
			ret = -1;
			break;
		}
		*eq = '\0';
		if (seen & model_fields(item)) {
			ret = -1;
			break;
		}
		seen |= model_fields(item);
		ret = model_item(&l, item, eq + 1);
		base |= !strcmp(item, "base");
	}
	free(copy);
	if (ret || !base)
		return -EINVAL;
	*out = l;
	return 0;
}

static void check_same(const char *spec, const struct udrv_gpio_layout *a,
		       const struct udrv_gpio_layout *b)
{
#define SAME(f, fmt)							\
	FUZZ_CHECK(a->f == b->f, "layout \"%s\": " #f " = " fmt ", the grammar says " fmt, \
		   spec, a->f, b->f)
	SAME(base, "0x%" PRIx64);
	SAME(size, "%zu");
	SAME(width, "%u");
	SAME(data_in, "%" PRId32);
	SAME(data_out, "%" PRId32);
	SAME(set, "%" PRId32);
	SAME(clear, "%" PRId32);
	SAME(dir, "%" PRId32);
	SAME(dir_input_high, "%d");
	SAME(bank_stride, "%" PRIu32);
	SAME(map_offset, "0x%" PRIx64);
#undef SAME
	FUZZ_CHECK(!strcmp(a->map_path, b->map_path), "layout \"%s\": map \"%s\", expected \"%s\"",
		   spec, a->map_path, b->map_path);
}

static unsigned long part_number(const struct fuzz_parts *parts, size_t i,
				 unsigned long def)
{
	char *s = fuzz_str(parts, i);
	unsigned long v = fuzz_has(parts, i) ? strtoul(s, NULL, 0) : def;

	free(s);
	return v;
}

/* The register @r of @line as the layout says: s128 to see overflow. */
static __int128 layout_reg(int32_t r, unsigned int line, unsigned int width,
			   uint32_t stride)
{
	if (r < 0)
		return -1;
	return (__int128)r + (__int128)(line / width) * stride;
}

static void check_line(struct udrv_chip *chip, const struct udrv_gpio_layout *l,
		       unsigned int line, unsigned int num_lines)
{
	struct udrv_mmio_line_info info;
	unsigned int width = l->width ? l->width : 32, bytes = width / 8;
	int32_t level = l->data_in >= 0 ? l->data_in : l->data_out;
	const struct {
		const char *name;
		__int128 want;
	} regs[] = {
		{ "set", layout_reg(l->set, line, width, l->bank_stride) },
		{ "clear", layout_reg(l->clear, line, width, l->bank_stride) },
		{ "level", layout_reg(level, line, width, l->bank_stride) },
	};
	int ret;

	memset(&info, 0x5a, sizeof(info));
	ret = udrv_chip_mmio_line_info(chip, l, line, &info);
	if (ret) {
		FUZZ_CHECK(ret < 0 && udrv_chip_errmsg(chip)[0],
			   "udrv_chip_mmio_line_info() = %d without a message", ret);
		return;
	}
	FUZZ_CHECK(line < num_lines, "line %u of a chip of %u lines resolved", line, num_lines);
	FUZZ_CHECK(info.width == width, "width %u, the layout says %u", info.width, width);
	FUZZ_CHECK(info.phys == l->base, "phys 0x%" PRIx64 ", base 0x%" PRIx64, info.phys, l->base);
	FUZZ_CHECK(!l->size || info.size == l->size, "size %zu, the layout says %zu",
		   info.size, l->size);
	FUZZ_CHECK(info.mask == 1u << (line % width), "line %u: mask 0x%x", line, info.mask);
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
		int32_t got = i == 0 ? info.set : i == 1 ? info.clear : info.level;

		FUZZ_CHECK(got == regs[i].want,
			   "line %u: %s register at %" PRId32 ", the layout puts it at %lld",
			   line, regs[i].name, got, (long long)regs[i].want);
		if (got >= 0)
			FUZZ_CHECK((uint64_t)got + bytes <= info.size,
				   "line %u: %s register 0x%" PRIx32 " (+%u bytes) is outside the %zu-byte block",
				   line, regs[i].name, (uint32_t)got, bytes, info.size);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct udrv_gpio_layout got, want, before;
	struct fuzz_parts parts;
	struct udrv_chip *chip;
	unsigned long num_lines, line;
	char err[256], text[64], *spec, *dev, link[PATH_MAX];
	int ret, mret;

	fuzz_split(data, size, &parts);
	spec = fuzz_str(&parts, 0);
	memset(&got, 0x5a, sizeof(got));
	before = got;
	memset(err, 0, sizeof(err));
	ret = udrv_gpio_layout_parse(spec, &got, err, sizeof(err));
	mret = model_layout(spec, &want);
	FUZZ_CHECK(ret == 0 || ret == -EINVAL, "udrv_gpio_layout_parse() = %d", ret);
	FUZZ_CHECK(ret == mret || fuzz_skip("layout-grammar"),
		   "layout \"%s\": udrv_gpio_layout_parse() = %d (%s), the grammar says %d",
		   spec, ret, ret ? err : "accepted", mret);
	if (ret) {
		FUZZ_CHECK(err[0] && memchr(err, 0, sizeof(err)),
			   "layout \"%s\" refused without a message", spec);
		FUZZ_CHECK(!memcmp(&got, &before, sizeof(got)),
			   "layout \"%s\" refused, but the layout was written", spec);
		free(spec);
		return 0;
	}
	if (!mret && !fuzz_skip("layout-grammar"))
		check_same(spec, &got, &want);
	free(spec);

	/* what the generic driver makes of it, on a fake chip */
	fuzz_reset();
	num_lines = part_number(&parts, 1, 32);
	if (num_lines > FUZZ_CDEV_MAX_LINES)
		num_lines = FUZZ_CDEV_MAX_LINES;
	line = part_number(&parts, 2, 0);
	snprintf(text, sizeof(text), "fuzzchip\n%lu\n", num_lines);
	fuzz_write_str("dev/gpiochip0", text);
	fuzz_sparse("dev/regs", 1 << 20);
	if (fuzz_has(&parts, 3)) {
		dev = fuzz_str(&parts, 3);
		snprintf(link, sizeof(link), "../../../devices/platform/%s/gpiochip0", dev);
		fuzz_symlink(link, "sys/bus/gpio/devices/gpiochip0");
		free(dev);
	}
	fuzz_path(got.map_path, sizeof(got.map_path), "dev/regs");
	chip = udrv_chip_new();
	if (!chip)
		return 0;
	ret = udrv_chip_open(chip, "gpiochip0");
	FUZZ_CHECK(ret == 0, "the fake chip does not open: %s", udrv_chip_errmsg(chip));
	check_line(chip, &got, (unsigned int)line, (unsigned int)num_lines);
	check_line(chip, &got, 0, (unsigned int)num_lines);
	if (num_lines)
		check_line(chip, &got, (unsigned int)num_lines - 1, (unsigned int)num_lines);
	udrv_chip_free(chip);
	return 0;
}
