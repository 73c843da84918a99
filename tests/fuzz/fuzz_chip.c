// SPDX-License-Identifier: GPL-2.0-only
/*
 * GPIO chip information from sysfs, and the legacy sysfs backend's reads.
 *
 * Input parts (fuzz.h), written into the fake tree of one chip, gpiochip0
 * under platform device gpio-fuzz.0, whose class entry is gpiochip512:
 *   0 base, 1 ngpio, 2 label  (/sys/class/gpio/gpiochip512/...)
 *   3 /dev/gpiochip0: the fake character device (fuzz.h); absent: a chip
 *     with sysfs GPIO only
 *   4 direction, 5 active_low, 6 value, 7 edge: the attributes of the
 *     exported lines for offsets 0 and 1 (gpio<base>, gpio<base + 1>)
 *
 * Properties (a value the kernel gives is taken whole or not at all):
 *  - the chip's sysfs base is -ENOENT or the base attribute's number
 *    (read as udrv/parse.h reads numbers: never wrapped, never negative);
 *  - without a character device, the number of lines is 0 or ngpio's
 *    number, and the label is "" or the label attribute (never a prefix
 *    of a label too long for the buffer);
 *  - the chip opens again by its label;
 *  - line info and a sysfs request of line 0 work on any base and ngpio
 *    without undefined behaviour (UBSan: base + offset overflowing);
 *    the value read is the value attribute's first character ('0'/'1'),
 *    else an error.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/udrv.h>

#include "fuzz.h"

#define CLS	"sys/devices/platform/gpio-fuzz.0/gpio/gpiochip512"

static const char *const line_attrs[] = { "direction", "active_low", "value", "edge" };

/* Part @i holds a NUL byte (no kernel attribute does: not checked). */
static bool has_nul(const struct fuzz_parts *parts, size_t i)
{
	return fuzz_has(parts, i) && memchr(parts->p[i], 0, parts->len[i]);
}

static void make_tree(const struct fuzz_parts *parts, int64_t *base)
{
	static const char *const chip_attrs[] = { "base", "ngpio", "label" };
	char rel[128];
	const char *text;
	uint64_t b;

	fuzz_reset();
	fuzz_mkdir("sys/kernel");
	fuzz_mkdir("sys/devices/platform/gpio-fuzz.0/gpiochip0");
	fuzz_symlink("../../../devices/platform/gpio-fuzz.0/gpiochip0",
		     "sys/bus/gpio/devices/gpiochip0");
	fuzz_symlink("../../../gpio-fuzz.0", CLS "/device");
	fuzz_symlink("../../devices/platform/gpio-fuzz.0/gpio/gpiochip512",
		     "sys/class/gpio/gpiochip512");
	for (size_t i = 0; i < 3; i++) {
		snprintf(rel, sizeof(rel), CLS "/%s", chip_attrs[i]);
		fuzz_write_part(parts, i, rel);
	}
	fuzz_write_part(parts, 3, "dev/gpiochip0");
	/* lines 0 and 1 exported, where the base says they are */
	*base = -1;
	text = fuzz_text(CLS "/base", 64);
	if (!text || udrv_parse_u64(text, INT_MAX - 1, &b))
		return;
	*base = (int64_t)b;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < 4; i++) {
			snprintf(rel, sizeof(rel), "sys/class/gpio/gpio%" PRId64 "/%s",
				 *base + k, line_attrs[i]);
			fuzz_write_part(parts, 4 + i, rel);
		}
}

static void check_chip(struct udrv_chip *chip, const struct fuzz_parts *parts)
{
	const char *text;
	uint64_t v;
	int base = udrv_chip_sysfs_base(chip);

	text = fuzz_text(CLS "/base", 64);
	if (base != -ENOENT && !has_nul(parts, 0) && !fuzz_skip("sysfs-number"))
		FUZZ_CHECK(text && udrv_parse_u64(text, INT_MAX, &v) == 0 && v == (uint64_t)base,
			   "sysfs base %d from base \"%s\"", base, text ? text : "(unreadable)");
	if (udrv_chip_has_cdev(chip))
		return;
	text = fuzz_text(CLS "/ngpio", 64);
	if (udrv_chip_num_lines(chip) && !has_nul(parts, 1) && !fuzz_skip("sysfs-number"))
		FUZZ_CHECK(text && udrv_parse_u64(text, UINT_MAX, &v) == 0 &&
			   v == udrv_chip_num_lines(chip),
			   "%u lines from ngpio \"%s\"", udrv_chip_num_lines(chip),
			   text ? text : "(unreadable)");
	text = fuzz_text(CLS "/label", 32);
	if (udrv_chip_label(chip)[0] && !has_nul(parts, 2) && !fuzz_skip("sysfs-label"))
		FUZZ_CHECK(text && !strcmp(text, udrv_chip_label(chip)),
			   "label \"%s\", the attribute says \"%s\"", udrv_chip_label(chip),
			   text ? text : "(unreadable or too long)");
}

static void check_by_label(const char *label)
{
	struct udrv_chip *chip;
	int ret;

	if (!label[0] || label[0] == '/' ||
	    strspn(label, "0123456789") == strlen(label) ||
	    (!strncmp(label, "gpiochip", 8) &&
	     strspn(label + 8, "0123456789") == strlen(label + 8)))
		return;		/* a path, a number, a name: not a label */
	chip = udrv_chip_new();
	if (!chip)
		return;
	ret = udrv_chip_open(chip, label);
	FUZZ_CHECK(ret == 0 && !strcmp(udrv_chip_name(chip), "gpiochip0"),
		   "the chip labelled \"%s\" does not open by its label: %s", label,
		   ret ? udrv_chip_errmsg(chip) : udrv_chip_name(chip));
	udrv_chip_free(chip);
}

static void check_request(struct udrv_chip *chip, const struct fuzz_parts *parts,
			  int64_t base)
{
	struct udrv_request_config cfg = { .backend = UDRV_BACKEND_SYSFS };
	struct udrv_line_settings s = { .direction = UDRV_DIR_INPUT };
	struct udrv_request *req = NULL;
	unsigned int offset = 0;
	uint64_t values = 0;
	char rel[128];
	const char *text;
	int ret;

	if (!udrv_chip_num_lines(chip))
		return;
	if (udrv_chip_request(chip, &cfg, 1, &offset, &s, &req))
		return;
	ret = udrv_request_get_values(req, 1, &values);
	if (base >= 0 && udrv_chip_sysfs_base(chip) == base) {
		snprintf(rel, sizeof(rel), "sys/class/gpio/gpio%" PRId64 "/value", base);
		text = fuzz_text(rel, 4096);
		if (text && (text[0] == '0' || text[0] == '1'))
			FUZZ_CHECK(ret == 0 && values == (uint64_t)(text[0] - '0'),
				   "value \"%s\" read as %d (%" PRIu64 ")", text, ret, values);
		else if (text && !has_nul(parts, 6))
			FUZZ_CHECK(ret < 0, "value \"%s\" read as %" PRIu64, text, values);
	}
	udrv_request_release(req);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct udrv_line_info info;
	struct fuzz_parts parts;
	struct udrv_chip *chip;
	char label[64];
	int64_t base;
	unsigned int n;

	fuzz_split(data, size, &parts);
	make_tree(&parts, &base);
	chip = udrv_chip_new();
	if (!chip)
		return 0;
	if (udrv_chip_open(chip, "gpiochip0")) {
		FUZZ_CHECK(udrv_chip_errmsg(chip)[0], "udrv_chip_open() failed without a message");
		udrv_chip_free(chip);
		return 0;
	}
	check_chip(chip, &parts);
	n = udrv_chip_num_lines(chip);
	udrv_chip_line_info(chip, 0, &info);
	udrv_chip_line_info(chip, 1, &info);
	if (n)
		udrv_chip_line_info(chip, n - 1, &info);
	udrv_chip_line_info(chip, n, &info);
	check_request(chip, &parts, base);
	snprintf(label, sizeof(label), "%s", udrv_chip_label(chip));
	udrv_chip_free(chip);
	if (!has_nul(&parts, 2) && !has_nul(&parts, 3))
		check_by_label(label);
	return 0;
}
