// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Generic GPIO register blocks, described by the user in a struct
 * udrv_gpio_layout: FPGA cores (Xilinx AXI GPIO: data + tri-state), the
 * kernel's gpio-mmio layout (dat / set / clr / dirout or dirin), 8, 16 or
 * 32-bit registers, a bank of @width lines every @bank_stride bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "gpio/soc/soc.h"

static int bad_layout(char *errmsg, const char *what)
{
	return udrv_err(errmsg, EINVAL, "bad GPIO register layout: %s", what);
}

static int check_offsets(const struct udrv_gpio_layout *l, unsigned int width,
			 char *errmsg)
{
	const int32_t offs[] = { l->data_in, l->data_out, l->set, l->clear,
				 l->dir };
	char what[128];

	for (size_t i = 0; i < ARRAY_SIZE(offs); i++) {
		if (offs[i] < -1 || (offs[i] >= 0 && offs[i] % (width / 8))) {
			snprintf(what, sizeof(what),
				 "register offset %d is not a multiple of %u bytes (-1: no such register)",
				 offs[i], width / 8);
			return bad_layout(errmsg, what);
		}
	}
	if ((l->set < 0) != (l->clear < 0))
		return bad_layout(errmsg, "set and clear registers go together (give both, or neither and data_out)");
	if (l->data_in < 0 && l->data_out < 0)
		return bad_layout(errmsg, "no register to read the lines from (data_in or data_out)");
	return 0;
}

/*
 * Bytes the offsets need: the end of the highest register of the last bank,
 * in 64 bits (a stride times a bank number can pass 2^32).
 */
static uint64_t needed_size(const struct udrv_gpio_layout *l, unsigned int width,
			    unsigned int banks)
{
	int32_t top = l->data_in;

	if (l->data_out > top)
		top = l->data_out;
	if (l->set > top)
		top = l->set;
	if (l->clear > top)
		top = l->clear;
	if (l->dir > top)
		top = l->dir;
	return (uint64_t)top + width / 8 + (uint64_t)(banks - 1) * l->bank_stride;
}

static const char *const reg_names[] = {
	"data-in", "data-out", "set", "clear", "dir",
};

/*
 * Does register @a of some bank fall on register @b of another bank (or the
 * same one)? Offsets and the stride are multiples of the width (checked
 * before), so sharing bytes is being equal: a + i * stride == b + j * stride
 * for banks i, j < @banks. Then *bi, *bj are such banks.
 */
static bool collide(int32_t a, int32_t b, uint32_t stride, unsigned int banks,
		    uint64_t *bi, uint64_t *bj)
{
	uint64_t d = a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
	uint64_t k;

	if (!stride && d)
		return false;
	k = stride ? d / stride : 0;
	if ((stride && d % stride) || k >= banks)
		return false;
	*bi = a > b ? 0 : k;
	*bj = a > b ? k : 0;
	return true;
}

/*
 * No register of any bank on another register of any bank: a store meant
 * for one line's set register must not be another bank's clear register.
 * data-in and data-out may be one register (of the same bank).
 */
static int check_overlap(const struct udrv_gpio_layout *l, unsigned int banks,
			 char *errmsg)
{
	const int32_t offs[] = { l->data_in, l->data_out, l->set, l->clear,
				 l->dir };
	uint64_t bi, bj;

	for (size_t i = 0; i < ARRAY_SIZE(offs); i++) {
		for (size_t j = i + 1; j < ARRAY_SIZE(offs); j++) {
			if (offs[i] < 0 || offs[j] < 0 ||
			    !collide(offs[i], offs[j], l->bank_stride, banks,
				     &bi, &bj))
				continue;
			if (i == 0 && j == 1 && bi == bj)
				continue;	/* one data register, both ways */
			return udrv_err(errmsg, EINVAL,
					"bad GPIO register layout: registers overlap: the %s register of bank %llu (0x%llx) is the %s register of bank %llu, so a store meant for one line would change another; check the offsets and the stride (0x%x)",
					reg_names[i], (unsigned long long)bi,
					(unsigned long long)(offs[i] + bi * l->bank_stride),
					reg_names[j], (unsigned long long)bj,
					l->bank_stride);
		}
	}
	return 0;
}

/* With more than one bank, the stride keeps every register aligned. */
static int check_stride(const struct udrv_gpio_layout *l, unsigned int width,
			unsigned int banks, char *errmsg)
{
	if (banks < 2 || l->bank_stride % (width / 8) == 0)
		return 0;
	return udrv_err(errmsg, EINVAL,
			"bad GPIO register layout: stride %u is not a multiple of %u bytes: the registers of bank 1 and on would be misaligned (an alignment fault on ARM)",
			l->bank_stride, width / 8);
}

static int check_base(const struct udrv_gpio_layout *l,
		      const struct udrv_soc_chip *chip, char *errmsg)
{
	if (!chip->has_addr || chip->addr == l->base)
		return 0;
	return udrv_err(errmsg, EINVAL,
			"the layout's base 0x%llx is not %s's registers: its device is %s (at 0x%llx); fix the base, or use the chip whose device is at 0x%llx",
			(unsigned long long)l->base, chip->name, chip->device,
			(unsigned long long)chip->addr,
			(unsigned long long)l->base);
}

static void fill(struct udrv_soc_bank *b, const struct udrv_gpio_layout *l,
		 unsigned int width, unsigned int lines)
{
	snprintf(b->soc, sizeof(b->soc), "generic");
	b->phys = l->base;
	b->width = width;
	b->lines = lines;
	b->stride = l->bank_stride;
	b->reg[SOC_REG_LEVEL] = l->data_in >= 0 ? l->data_in : l->data_out;
	b->reg[SOC_REG_OUT] = l->data_out;
	b->reg[SOC_REG_SET] = l->set;
	b->reg[SOC_REG_CLEAR] = l->clear;
	b->reg[SOC_REG_DIR] = l->dir;
	b->dir_input_high = l->dir_input_high;
	udrv_strlcpy(b->map_path, l->map_path, sizeof(b->map_path));
	b->map_offset = l->map_offset;
}

static int generic_resolve(struct udrv_soc_bank *b,
			   const struct udrv_soc_chip *chip, const char *compat,
			   const struct udrv_gpio_layout *l, char *errmsg)
{
	unsigned int width = l->width ? l->width : 32, banks, lines;
	uint64_t need;
	int ret;

	if (width != 8 && width != 16 && width != 32)
		return bad_layout(errmsg, "width must be 8, 16 or 32 bits");
	banks = l->bank_stride ? (chip->num_lines + width - 1) / width : 1;
	if (!banks)
		banks = 1;
	lines = l->bank_stride ? banks * width : width;
	ret = check_offsets(l, width, errmsg);
	if (!ret)
		ret = check_stride(l, width, banks, errmsg);
	if (!ret)
		ret = check_overlap(l, banks, errmsg);
	if (!ret)
		ret = check_base(l, chip, errmsg);
	if (ret)
		return ret;
	need = needed_size(l, width, banks);
	/* every register offset of every bank then fits an int32_t: the
	 * per-line arithmetic (udrv_soc_reg) cannot wrap or go negative */
	if (need > INT32_MAX) {
		char what[192];

		snprintf(what, sizeof(what),
			 "the registers of %u bank(s) at stride 0x%x reach 0x%llx bytes, beyond the 2 GiB a register block can span: check the stride and offsets",
			 banks, l->bank_stride, (unsigned long long)need);
		return bad_layout(errmsg, what);
	}
	if (l->size && l->size < need) {
		char what[128];

		snprintf(what, sizeof(what),
			 "size %zu is too small: the registers need %llu bytes",
			 l->size, (unsigned long long)need);
		return bad_layout(errmsg, what);
	}
	fill(b, l, width, lines);
	b->size = l->size ? l->size : (size_t)need;
	return 0;
}

static int generic_is_output(const struct udrv_soc_bank *b,
			     const volatile uint8_t *regs, unsigned int line,
			     char *what, size_t len)
{
	int32_t off = udrv_soc_reg(b, SOC_REG_DIR, line);
	bool bit, out;

	if (off < 0)
		return -EOPNOTSUPP;
	bit = udrv_soc_read(b, regs, off) & udrv_soc_bit(b, line);
	out = bit != b->dir_input_high;
	snprintf(what, len, "the direction register (0x%x) bit %u is %d (%s)",
		 (unsigned int)off, line % b->width, bit, out ? "output" : "input");
	return out;
}

static int generic_pull(const struct udrv_soc_bank *b,
			const volatile uint8_t *regs, unsigned int line)
{
	return -EOPNOTSUPP;
}

static const char *const no_compatible[] = { NULL };

const struct udrv_soc_driver udrv_soc_generic = {
	.name = "generic",
	.compatible = no_compatible,
	.resolve = generic_resolve,
	.is_output = generic_is_output,
	.pull = generic_pull,
};

/* the text form */

/* A register offset: bytes, at most INT32_MAX; "none" or "-1": absent. */
static int parse_offset(const char *v, int32_t *out)
{
	unsigned int n;

	if (!strcmp(v, "none") || !strcmp(v, "-1")) {
		*out = -1;
		return 0;
	}
	if (udrv_parse_uint(v, INT32_MAX, &n))
		return -1;
	*out = (int32_t)n;
	return 0;
}

static int parse_number(struct udrv_gpio_layout *l, const char *k,
			const char *v)
{
	uint64_t n;

	if (!strcmp(k, "base"))
		return udrv_parse_u64(v, UINT64_MAX, &l->base) ? -1 : 0;
	if (!strcmp(k, "map-offset"))
		return udrv_parse_u64(v, UINT64_MAX, &l->map_offset) ? -1 : 0;
	if (!strcmp(k, "size")) {
		if (udrv_parse_u64(v, SIZE_MAX, &n))
			return -1;
		l->size = (size_t)n;
	} else if (!strcmp(k, "width")) {
		if (udrv_parse_u64(v, 32, &n))
			return -1;
		l->width = (unsigned int)n;
	} else if (!strcmp(k, "stride")) {
		if (udrv_parse_u64(v, UINT32_MAX, &n))
			return -1;
		l->bank_stride = (uint32_t)n;
	} else if (!strcmp(k, "dir-input")) {
		if (udrv_parse_u64(v, 1, &n))
			return -1;
		l->dir_input_high = n;
	} else {
		return -1;
	}
	return 0;
}

static int parse_pair(struct udrv_gpio_layout *l, const char *k, const char *v)
{
	static const struct {
		const char *key;
		size_t off;
	} regs[] = {
		{ "data-in", offsetof(struct udrv_gpio_layout, data_in) },
		{ "data-out", offsetof(struct udrv_gpio_layout, data_out) },
		{ "set", offsetof(struct udrv_gpio_layout, set) },
		{ "clear", offsetof(struct udrv_gpio_layout, clear) },
		{ "dir", offsetof(struct udrv_gpio_layout, dir) },
	};

	if (!strcmp(k, "map")) {
		if (strlen(v) >= sizeof(l->map_path))
			return -1;
		udrv_strlcpy(l->map_path, v, sizeof(l->map_path));
		return 0;
	}
	if (!strcmp(k, "data"))
		return parse_offset(v, &l->data_in) ||
		       parse_offset(v, &l->data_out) ? -1 : 0;
	for (size_t i = 0; i < ARRAY_SIZE(regs); i++)
		if (!strcmp(k, regs[i].key))
			return parse_offset(v, (int32_t *)((char *)l + regs[i].off));
	return parse_number(l, k, v);
}

/*
 * The fields @key sets, as bits (0: not a key): "data" is data-in and
 * data-out, so that each may be given once, one way or the other.
 */
static unsigned int key_fields(const char *key)
{
	static const char *const keys[] = {
		"base", "size", "width", "data-in", "data-out", "set", "clear",
		"dir", "dir-input", "stride", "map", "map-offset",
	};

	if (!strcmp(key, "data"))
		return 1u << 3 | 1u << 4;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(key, keys[i]))
			return 1u << i;
	return 0;
}

int udrv_gpio_layout_parse_sz(const char *spec,
			      struct udrv_gpio_layout *layout,
			      size_t layout_size, char *errbuf, size_t errlen)
{
	struct udrv_gpio_layout l = UDRV_GPIO_LAYOUT_INIT;
	char item[UDRV_GPIO_MAP_PATH_LEN + 16], *eq;
	unsigned int seen = 0, fields;
	const char *p = spec, *end;
	bool base = false;

	if (layout_size < udrv_abi_gpio_layout.min) {
		if (errbuf)
			snprintf(errbuf, errlen,
				 "struct udrv_gpio_layout of %zu bytes: libudrv 1.0's is %zu; pass sizeof(struct udrv_gpio_layout) (udrv_gpio_layout_parse() does)",
				 layout_size, udrv_abi_gpio_layout.min);
		return -EINVAL;
	}
	for (; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		/* an item longer than the buffer is refused, never cut short
		 * (a map path's prefix is another file) */
		eq = NULL;
		if ((size_t)(end - p) < sizeof(item)) {
			snprintf(item, sizeof(item), "%.*s", (int)(end - p), p);
			eq = strchr(item, '=');
		}
		if (eq)
			*eq = '\0';
		fields = eq ? key_fields(item) : 0;
		if (fields & seen) {
			if (errbuf)
				snprintf(errbuf, errlen,
					 "bad layout item '%.*s': %s is given twice (data is data-in and data-out); give each register once",
					 (int)(end - p), p, item);
			return -EINVAL;
		}
		seen |= fields;
		if (!eq || parse_pair(&l, item, eq + 1)) {
			if (errbuf)
				snprintf(errbuf, errlen,
					 "bad layout item '%.*s' (keys: base, size, width, data, data-in, data-out, set, clear, dir, dir-input=0|1, stride, map, map-offset; offsets in bytes, none = absent)",
					 (int)(end - p), p);
			return -EINVAL;
		}
		base |= !strcmp(item, "base");
	}
	if (!base) {
		if (errbuf)
			snprintf(errbuf, errlen,
				 "the layout has no base=ADDRESS (the block's physical address)");
		return -EINVAL;
	}
	udrv_abi_out(&udrv_abi_gpio_layout, layout, &l, layout_size);
	return 0;
}
