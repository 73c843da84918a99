// SPDX-License-Identifier: GPL-2.0-only
/*
 * Mapped regions and the sized MMIO accessors: sub-page offsets, every
 * width, and the debug-build bounds and alignment checks.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "harness.h"

static struct udrv_region *map_fake(uint64_t off, size_t size)
{
	char path[512], err[256] = "";
	struct udrv_region *r = NULL;
	char *buf = calloc(1, 3 * 4096);
	FILE *f;

	fake_root();
	fake_path(path, sizeof(path), "regs");
	f = fopen(path, "w");
	fwrite(buf, 1, 3 * 4096, f);
	fclose(f);
	free(buf);
	CHECK_INT(udrv_region_map_file(path, off, size, &r, err, sizeof(err)), 0);
	return r;
}

static void test_widths(void)
{
	struct udrv_region *r = map_fake(0x1010, 64);
	struct udrv_mmio m = udrv_region_mmio(r);
	char *file;

	udrv_write8(&m, 0, 0x11);
	udrv_write16(&m, 2, 0x2233);
	udrv_write32(&m, 4, 0x44556677);
	udrv_write64(&m, 8, 0x8899aabbccddeeffULL);
	udrv_write32_relaxed(&m, 16, 0x01020304);
	CHECK_INT(udrv_read8(&m, 0), 0x11);
	CHECK_INT(udrv_read16(&m, 2), 0x2233);
	CHECK_INT(udrv_read32(&m, 4), 0x44556677);
	CHECK(udrv_read64(&m, 8) == 0x8899aabbccddeeffULL);
	CHECK_INT(udrv_read32_relaxed(&m, 16), 0x01020304);
	udrv_region_unmap(r);
	file = fake_read("regs");
	CHECK(file && (unsigned char)file[0x1010] == 0x11);	/* sub-page offset */
	free(file);
}

static void test_map_errors(void)
{
	struct udrv_region *r;
	char err[256];

	fake_root();
	CHECK_INT(udrv_region_map_file("/nonexistent/mem", 0, 4096, &r, err,
				       sizeof(err)), -ENOENT);
	CHECK_CONTAINS(err, "cannot open /nonexistent/mem");
	CHECK(r == NULL);
	r = map_fake(0, 16);
	udrv_region_unmap(r);
	CHECK_INT(udrv_region_map_file("/dev/null", 0, 0, &r, err, sizeof(err)),
		  -EINVAL);
	CHECK_CONTAINS(err, "size is 0");
}

/* Run @fn in a child: did it abort with the out-of-range message? */
static int aborts(void (*fn)(const struct udrv_mmio *), const struct udrv_mmio *m)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		freopen("/dev/null", "w", stderr);
		fn(m);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void read_past_end(const struct udrv_mmio *m)
{
	(void)udrv_read32(m, 64);
}

static void read_last(const struct udrv_mmio *m)
{
	(void)udrv_read32(m, 60);
}

static void write_misaligned(const struct udrv_mmio *m)
{
	udrv_write32(m, 2, 1);
}

static void read_huge_offset(const struct udrv_mmio *m)
{
	(void)udrv_read64(m, SIZE_MAX - 3);
}

static void test_bounds_checked(void)
{
	struct udrv_region *r = map_fake(0, 64);
	struct udrv_mmio m = udrv_region_mmio(r);

#ifdef NDEBUG
	printf("# release build: accessors are unchecked by design\n");
	(void)m;
	(void)aborts;
	(void)read_past_end;
	(void)read_last;
	(void)write_misaligned;
	(void)read_huge_offset;
#else
	CHECK(aborts(read_past_end, &m));
	CHECK(!aborts(read_last, &m));
	CHECK(aborts(write_misaligned, &m));
	CHECK(aborts(read_huge_offset, &m));
#endif
	udrv_region_unmap(r);
}

UDRV_TESTS(UDRV_T(test_widths), UDRV_T(test_map_errors),
	   UDRV_T(test_bounds_checked))
