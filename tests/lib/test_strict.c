// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inputs that must never pick the wrong device: UIO device numbers, the
 * readers of kernel-provided numbers, and paths that do not fit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/udrv.h>

#include "harness.h"
#include "internal.h"
#include "region.h"

static void fake_uio0(void)
{
	fake_dir("sys/kernel");
	fake_file("sys/class/uio/uio0/name", "uio_pci_generic\n");
	fake_file("sys/class/uio/uio0/version", "0.01.0\n");
	fake_file("sys/class/uio/uio0/event", "0\n");
	fake_file("dev/uio0", "");
}

/* uio4294967296 used to go through atoi() and open uio0. */
static void test_uio_number_out_of_range(void)
{
	static const char *const specs[] = {
		"uio4294967296", "4294967296", "/dev/uio4294967296", "uio2147483648",
	};
	struct udrv_uio *uio = udrv_uio_new();

	fake_root();
	fake_uio0();
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		CHECK_INT(udrv_uio_open(uio, specs[i]), -EINVAL);
		CHECK_CONTAINS(udrv_uio_errmsg(uio), "out of range");
		CHECK_STR(udrv_uio_devname(uio), "");
	}
	CHECK_INT(udrv_uio_open(uio, "uio0"), 0);
	CHECK_STR(udrv_uio_devname(uio), "uio0");
	udrv_uio_free(uio);
}

/* "uio00" is neither uio0 nor a driver name that exists. */
static void test_uio_leading_zero(void)
{
	struct udrv_uio *uio = udrv_uio_new();

	fake_root();
	fake_uio0();
	CHECK_INT(udrv_uio_open(uio, "uio00"), -ENOENT);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "no UIO device 'uio00'");
	udrv_uio_free(uio);
}

static int read_u64_of(const char *content, uint64_t *v)
{
	char path[512];

	fake_file("attr", content);
	fake_path(path, sizeof(path), "attr");
	return udrv_read_u64(path, v);
}

/* strtoull() took "-1" as 2^64-1 and " 12" or "12abc" as 12. */
static void test_read_u64_strict(void)
{
	uint64_t v = 7;

	fake_root();
	CHECK_INT(read_u64_of("0x0000000000001000\n", &v), 0);
	CHECK_INT(v, 4096);
	CHECK_INT(read_u64_of("42\n", &v), 0);
	CHECK_INT(v, 42);
	CHECK_INT(read_u64_of("-1\n", &v), -EINVAL);
	CHECK_INT(read_u64_of("12abc\n", &v), -EINVAL);
	CHECK_INT(read_u64_of(" 12\n", &v), -EINVAL);
	CHECK_INT(read_u64_of("\n", &v), -EINVAL);
	CHECK_INT(read_u64_of("18446744073709551616\n", &v), -EINVAL);
	CHECK_INT(v, 42);
}

/* A value longer than the reader's buffer used to be cut to a prefix:
 * "0x1000000000000000000000...0001" read as "0x100000...". */
static void test_read_truncated(void)
{
	char big[200], buf[16], path[512];
	uint64_t v = 7;

	fake_root();
	memset(big, '1', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	CHECK_INT(read_u64_of(big, &v), -EOVERFLOW);
	fake_file("label", "0123456789abcdef\n");
	fake_path(path, sizeof(path), "label");
	CHECK_INT(udrv_read_str(path, buf, sizeof(buf)), -EOVERFLOW);
	fake_file("label", "0123456789abcde\n");	/* fits exactly */
	CHECK_INT(udrv_read_str(path, buf, sizeof(buf)), 15);
	CHECK_STR(buf, "0123456789abcde");
}

static void test_read_long(void)
{
	char path[512];
	long v = 7;

	fake_root();
	fake_file("n", "-512\n");
	fake_path(path, sizeof(path), "n");
	CHECK_INT(udrv_read_long(path, &v), 0);
	CHECK_INT(v, -512);
	fake_file("n", "--512\n");
	CHECK_INT(udrv_read_long(path, &v), -EINVAL);
	fake_file("n", "9223372036854775808\n");
	CHECK_INT(udrv_read_long(path, &v), -EINVAL);
	CHECK_INT(v, -512);
}

/* A path that does not fit: an error and an empty buffer, never a
 * truncated or uninitialised path that open() would use. */
static void test_path_too_long(void)
{
	char buf[UDRV_PATH_LEN];

	memset(buf, 'z', sizeof(buf));
	fake_sysroot_too_long();
	CHECK_INT(udrv_path(buf, sizeof(buf), "/dev/%s", "uio0"), -ENAMETOOLONG);
	CHECK_STR(buf, "");
	setenv("UDRV_SYSROOT", "/r", 1);
	memset(buf, 'z', sizeof(buf));
	CHECK_INT(udrv_path(buf, 8, "/dev/%s", "uio0"), -ENAMETOOLONG);
	CHECK_STR(buf, "");
	CHECK_INT(udrv_path(buf, sizeof(buf), "/dev/%s", "uio0"), 0);
	CHECK_STR(buf, "/r/dev/uio0");
}

/* With a sysroot too long, UIO lookups fail with a message naming it. */
static void test_uio_sysroot_too_long(void)
{
	struct udrv_uio *uio = udrv_uio_new();
	char **names = NULL;

	fake_sysroot_too_long();
	CHECK_INT(udrv_uio_list(&names), -ENAMETOOLONG);
	CHECK(names == NULL);
	CHECK_INT(udrv_uio_open(uio, "uio0"), -ENAMETOOLONG);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "UDRV_SYSROOT");
	udrv_uio_free(uio);
}

static void fake_uio0_map(const char *size, const char *offset)
{
	fake_uio0();
	fake_file("sys/class/uio/uio0/maps/map0/name", "regs\n");
	fake_file("sys/class/uio/uio0/maps/map0/addr", "0x00000000fea00000\n");
	fake_file("sys/class/uio/uio0/maps/map0/size", size);
	fake_file("sys/class/uio/uio0/maps/map0/offset", offset);
}

/* A map whose sysfs size is 2^64-1: delta + size rounded to pages wrapped,
 * the region claimed SIZE_MAX bytes over one mapped page, and every bounds
 * check passed (udrv uio peek uio0 0x100000: SIGSEGV). */
static void test_uio_map_size_wraps(void)
{
	struct udrv_uio *uio = udrv_uio_new();
	struct udrv_region *r = NULL;

	fake_root();
	fake_uio0_map("0xffffffffffffffff\n", "0x10\n");
	CHECK_INT(udrv_uio_open(uio, "uio0"), 0);
	CHECK(udrv_uio_map(uio, 0, &r) < 0);
	CHECK(r == NULL);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "map 0 of uio0");
	udrv_uio_free(uio);
}

/* strtoull() read a size of "-1" as 2^64-1; now the open says which
 * attribute is wrong. */
static void test_uio_map_attr_not_a_number(void)
{
	struct udrv_uio *uio = udrv_uio_new();

	fake_root();
	fake_uio0_map("-1\n", "0x0\n");
	CHECK_INT(udrv_uio_open(uio, "uio0"), -EIO);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "maps/map0/size of uio0: not a number");
	udrv_uio_free(uio);
}

static void test_uio_map_offset_beyond_page(void)
{
	struct udrv_uio *uio = udrv_uio_new();
	struct udrv_region *r = NULL;

	fake_root();
	fake_uio0_map("0x1000\n", "0x100000\n");
	CHECK_INT(udrv_uio_open(uio, "uio0"), 0);
	CHECK_INT(udrv_uio_map(uio, 0, &r), -EINVAL);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "not within a page");
	udrv_uio_free(uio);
}

/* On a 32-bit target a 64-bit size was cast to size_t: 4 GiB + 4 KiB
 * became 4 KiB. */
static void test_uio_map_size_beyond_size_t(void)
{
	struct udrv_uio *uio = udrv_uio_new();
	struct udrv_region *r = NULL;

	if (sizeof(size_t) > 4)
		return;		/* the armhf build runs this one */
	fake_root();
	fake_uio0_map("0x100001000\n", "0x0\n");
	CHECK_INT(udrv_uio_open(uio, "uio0"), 0);
	CHECK_INT(udrv_uio_map(uio, 0, &r), -EOVERFLOW);
	CHECK_CONTAINS(udrv_uio_errmsg(uio), "32-bit process");
	udrv_uio_free(uio);
}

/* The region arithmetic itself: a size that cannot be rounded to pages. */
static void test_region_size_wraps(void)
{
	struct udrv_region *r = NULL;
	char path[512], err[256] = "";

	fake_root();
	fake_file("dev/mem", "x");
	fake_path(path, sizeof(path), "dev/mem");
	CHECK_INT(udrv_region_map_file(path, 0x10, SIZE_MAX - 8, &r, err, sizeof(err)),
		  -EOVERFLOW);
	CHECK(r == NULL);
	CHECK_CONTAINS(err, "do not fit");
}

UDRV_TESTS(
	UDRV_T(test_uio_number_out_of_range),
	UDRV_T(test_uio_leading_zero),
	UDRV_T(test_read_u64_strict),
	UDRV_T(test_read_truncated),
	UDRV_T(test_read_long),
	UDRV_T(test_path_too_long),
	UDRV_T(test_uio_sysroot_too_long),
	UDRV_T(test_uio_map_size_wraps),
	UDRV_T(test_uio_map_attr_not_a_number),
	UDRV_T(test_uio_map_offset_beyond_page),
	UDRV_T(test_uio_map_size_beyond_size_t),
	UDRV_T(test_region_size_wraps),
)
