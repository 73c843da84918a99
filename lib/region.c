// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Mapped regions: an mmap of a device file that remembers its size, plus the
 * out-of-range report used by the checked MMIO accessors (mmio.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <udrv/mmio.h>

#include "internal.h"
#include "region.h"

static const char *map_hint(int err, const char *path)
{
	if (err == EPERM && strstr(path, "/dev/mem"))
		return " (CONFIG_STRICT_DEVMEM / IO_STRICT_DEVMEM: a driver owns this range; boot with iomem=relaxed, use /dev/gpiomem or a UIO map)";
	if (err == EINVAL)
		return " (offset or size beyond what the device exposes)";
	return "";
}

/*
 * A regular file (a copy of a register block, a test's fake BAR) must hold
 * the whole mapping: a page of it beyond the file's end is no memory, and
 * the first access there is a SIGBUS. Devices have no size to check.
 */
static int check_file_size(int fd, const char *path, uint64_t offset,
			   size_t size, char *errbuf, size_t errlen)
{
	struct stat st;
	uint64_t len;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return 0;
	len = (uint64_t)st.st_size;
	if (offset <= len && size <= len - offset)
		return 0;
	if (errbuf)
		snprintf(errbuf, errlen,
			 "cannot map %s: %zu bytes at offset 0x%llx end beyond the file's %llu bytes (map at most %llu bytes there, or grow the file)",
			 path, size, (unsigned long long)offset,
			 (unsigned long long)len,
			 (unsigned long long)(offset < len ? len - offset : 0));
	return -EINVAL;
}

int udrv_region_map_fd(int fd, const char *path, uint64_t offset, size_t size,
		       struct udrv_region **regionp, char *errbuf,
		       size_t errlen)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t start = offset & ~(uint64_t)(page - 1);
	size_t delta = (size_t)(offset - start);
	struct udrv_region *r;
	void *map;

	*regionp = NULL;
	if (!size) {
		if (errbuf)
			snprintf(errbuf, errlen, "cannot map %s: size is 0", path);
		return -EINVAL;
	}
	/* delta + size rounded up to pages must not wrap: the region would
	 * claim SIZE_MAX bytes with one page behind them, and every bounds
	 * check would pass */
	if (size > SIZE_MAX - delta - (page - 1) || start > (uint64_t)INT64_MAX) {
		if (errbuf)
			snprintf(errbuf, errlen,
				 "cannot map %s: %zu bytes at offset 0x%llx do not fit this process's address space",
				 path, size, (unsigned long long)offset);
		return -EOVERFLOW;
	}
	if (check_file_size(fd, path, offset, size, errbuf, errlen))
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		if (errbuf)
			snprintf(errbuf, errlen, "cannot map %s: out of memory",
				 path);
		return -ENOMEM;
	}
	r->map_len = (delta + size + page - 1) & ~(page - 1);
	map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)start);
	if (map == MAP_FAILED) {
		int err = errno;

		if (errbuf)
			snprintf(errbuf, errlen,
				 "mmap of %s (%zu bytes at 0x%llx): %s%s", path,
				 r->map_len, (unsigned long long)start,
				 strerror(err), map_hint(err, path));
		free(r);
		return -err;
	}
	r->map_addr = map;
	r->mmio.base = (volatile uint8_t *)map + delta;
	r->mmio.size = size;
	udrv_strlcpy(r->name, path, sizeof(r->name));
	*regionp = r;
	return 0;
}

int udrv_region_map_file(const char *path, uint64_t offset, size_t size,
			 struct udrv_region **regionp, char *errbuf,
			 size_t errlen)
{
	char hint[UDRV_ERRMSG_LEN];
	int fd, ret, err;

	*regionp = NULL;
	fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		udrv_access_hint(hint, sizeof(hint), err, path);
		if (errbuf)
			snprintf(errbuf, errlen, "cannot open %s: %s (%s)", path,
				 strerror(err), hint);
		return -err;
	}
	ret = udrv_region_map_fd(fd, path, offset, size, regionp, errbuf,
				 errlen);
	close(fd);	/* the mapping keeps its own reference */
	return ret;
}

void udrv_region_unmap(struct udrv_region *region)
{
	if (!region)
		return;
	munmap(region->map_addr, region->map_len);
	free(region);
}

struct udrv_mmio udrv_region_mmio(const struct udrv_region *region)
{
	return region->mmio;
}

size_t udrv_region_size(const struct udrv_region *region)
{
	return region->mmio.size;
}

const char *udrv_region_name(const struct udrv_region *region)
{
	return region->name;
}

void udrv_mmio_fault(const struct udrv_mmio *m, size_t off, size_t width)
{
	fprintf(stderr,
		"udrv: %zu-byte MMIO access at offset 0x%zx is %s a region of %zu bytes at %p; aborting (checks are off with -DNDEBUG)\n",
		width, off, off & (width - 1) ? "misaligned in" : "outside",
		m->size, (const void *)m->base);
	abort();
}
