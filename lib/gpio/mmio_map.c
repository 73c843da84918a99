// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Mapping a GPIO register block for the mmio backend, in this order:
 *   1. the bank's gpiomem node, on Raspberry Pi kernels: /dev/gpiomem, the
 *      BCM283x GPIO block at offset 0; /dev/gpiomem0, the RP1's IO_BANK,
 *      SYS_RIO and PADS blocks (0x30000 bytes) at 0; for members of group
 *      gpio, no root needed;
 *   2. a UIO map whose physical range covers the block (a uio_pdrv_genirq
 *      node over it, say);
 *   3. /dev/mem at the block's physical address (root). Kernels with
 *      CONFIG_IO_STRICT_DEVMEM refuse it (EPERM) for a range a driver owns,
 *      which a GPIO block always is: the message names the owner (from
 *      /proc/iomem) and the fixes.
 * Every path goes through udrv_path(), so that tests map regular files.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/chip.h>

#include "region.h"
#include "gpio/soc/soc.h"

#define NOTE_LEN	192

/*
 * Map @size bytes that start @skip bytes into what @path maps at @offset
 * (a UIO map is mapped from its start). 64-bit @skip: the bytes before the
 * block must fit this process's size_t along with the block, never be cut.
 */
static int map_at(struct udrv_soc_map *m, const char *path, uint64_t offset,
		  uint64_t skip, size_t size, char *err, size_t errlen)
{
	int ret;

	if (skip > SIZE_MAX - size) {
		snprintf(err, errlen,
			 "the block is 0x%llx bytes into it: more than this %zu-bit process can map",
			 (unsigned long long)skip, sizeof(size_t) * 8);
		return -EOVERFLOW;
	}
	ret = udrv_region_map_file(path, offset, (size_t)skip + size,
				   &m->region, err, errlen);
	if (ret)
		return ret;
	m->regs = m->region->mmio.base + skip;
	udrv_strlcpy(m->path, path, sizeof(m->path));
	m->offset = offset + skip;
	return 0;
}

static int try_gpiomem(struct udrv_soc_map *m, const struct udrv_soc_bank *b,
		       char *note, size_t len)
{
	char path[UDRV_PATH_LEN], err[UDRV_ERRMSG_LEN];
	int ret;

	if (udrv_path(path, sizeof(path), "%s", b->gpiomem) ||
	    !udrv_path_exists(path)) {
		snprintf(note, len, "no %s", b->gpiomem);
		return -ENOENT;
	}
	ret = map_at(m, path, 0, 0, b->size, err, sizeof(err));
	if (!ret)
		return 0;
	snprintf(note, len, "%s", err);
	return ret;
}

/* A map of uioN whose [addr, addr + size) holds the block: its index. */
static int uio_covering(const char *uio, const struct udrv_soc_bank *b,
			uint64_t *addr, uint64_t *sub)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), size;
	char path[UDRV_PATH_LEN];

	for (int k = 0; k < 5; k++) {
		if (udrv_path(path, sizeof(path), "/sys/class/uio/%s/maps/map%d/addr",
			      uio, k) ||
		    udrv_read_u64(path, addr))
			return -1;
		if (udrv_path(path, sizeof(path), "/sys/class/uio/%s/maps/map%d/size",
			      uio, k) ||
		    udrv_read_u64(path, &size))
			continue;
		if (udrv_path(path, sizeof(path), "/sys/class/uio/%s/maps/map%d/offset",
			      uio, k) ||
		    udrv_read_u64(path, sub) || *sub >= page)
			*sub = *addr & (page - 1);	/* inside the first page */
		/* without overflow: addr <= phys, phys + b->size <= addr + size */
		if (*addr <= b->phys && b->size <= size &&
		    b->phys - *addr <= size - b->size)
			return k;
	}
	return -1;
}

static int try_uio(struct udrv_soc_map *m, const struct udrv_soc_bank *b,
		   char *note, size_t len)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), addr, sub;
	char dir[UDRV_PATH_LEN], path[UDRV_PATH_LEN], err[NOTE_LEN], **names;
	int n, k, ret = -ENOENT;

	snprintf(note, len, "no UIO map covers it");
	if (udrv_path(dir, sizeof(dir), "/sys/class/uio"))
		return -ENAMETOOLONG;
	n = udrv_list_numbered(dir, "uio", &names);
	for (int i = 0; i < n && ret; i++) {
		k = uio_covering(names[i], b, &addr, &sub);
		if (k < 0)
			continue;
		if (udrv_path(path, sizeof(path), "/dev/%s", names[i])) {
			snprintf(note, len, "the path of /dev/%s is too long", names[i]);
			continue;
		}
		/* sub < page: a wrap needs a map of nearly 2^64 bytes */
		if (b->phys - addr > UINT64_MAX - sub)
			continue;
		ret = map_at(m, path, (uint64_t)k * page,
			     sub + (b->phys - addr), b->size, err, sizeof(err));
		if (ret)
			snprintf(note, len, "map %d of %s: %s", k, names[i], err);
	}
	if (n >= 0)
		udrv_strv_free(names);
	return ret;
}

/* The /proc/iomem entry that holds @phys (the innermost). */
static void iomem_owner(uint64_t phys, char *buf, size_t len)
{
	char path[UDRV_PATH_LEN], line[256];
	unsigned long long lo, hi;
	int name_at;
	FILE *f;

	buf[0] = '\0';
	if (udrv_path(path, sizeof(path), "/proc/iomem"))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		name_at = -1;	/* %n is not reached when " : " is missing */
		if (sscanf(line, " %llx-%llx : %n", &lo, &hi, &name_at) == 2 &&
		    name_at >= 0 && lo <= phys && phys <= hi && hi)
			snprintf(buf, len, "%s", line + name_at);
	}
	fclose(f);
}

void udrv_soc_devmem_hint(char *buf, size_t len,
			  const struct udrv_soc_bank *b)
{
	char owner[96];

	iomem_owner(b->phys, owner, sizeof(owner));
	snprintf(buf, len,
		 "CONFIG_IO_STRICT_DEVMEM keeps /dev/mem off ranges a driver owns%s%s%s; fixes: boot with iomem=relaxed, use /dev/gpiomem (Raspberry Pi kernels), or a UIO map of the block",
		 owner[0] ? " (" : "", owner, owner[0] ? " owns this one)" : "");
}

static int try_devmem(struct udrv_soc_map *m, const struct udrv_soc_bank *b,
		      char *note, size_t len)
{
	char path[UDRV_PATH_LEN], err[NOTE_LEN], hint[UDRV_ERRMSG_LEN];
	int ret;

	if (udrv_path(path, sizeof(path), "/dev/mem")) {
		snprintf(note, len, "the path of /dev/mem is too long (UDRV_SYSROOT)");
		return -ENAMETOOLONG;
	}
	ret = map_at(m, path, b->phys, 0, b->size, err, sizeof(err));
	if (ret == -EPERM && !strncmp(err, "mmap", 4)) {
		udrv_soc_devmem_hint(hint, sizeof(hint), b);
		snprintf(note, len, "/dev/mem refused it (EPERM): %s", hint);
	} else if (ret) {
		snprintf(note, len, "%s", err);
	}
	return ret;
}

int udrv_soc_map(struct udrv_soc_map *m, const struct udrv_soc_bank *b,
		 char *errmsg)
{
	char gpiomem[UDRV_ERRMSG_LEN] = "", uio[NOTE_LEN];
	char devmem[UDRV_ERRMSG_LEN];
	int ret, gm = -ENOENT;

	memset(m, 0, sizeof(*m));
	if (b->map_path[0]) {
		ret = map_at(m, b->map_path, b->map_offset, 0, b->size, devmem,
			     sizeof(devmem));
		return ret ? udrv_err(errmsg, -ret, "%s GPIO registers: %s",
				      b->soc, devmem) : 0;
	}
	if (b->gpiomem && !(gm = try_gpiomem(m, b, gpiomem, sizeof(gpiomem))))
		return 0;
	if (!try_uio(m, b, uio, sizeof(uio)))
		return 0;
	ret = try_devmem(m, b, devmem, sizeof(devmem));
	if (!ret)
		return 0;
	/* the gpiomem node is there but refused: that is the one to fix */
	if (gm == -EACCES || gm == -EPERM)
		return udrv_err(errmsg, -gm,
				"cannot map the %s GPIO registers (0x%" PRIx64 "): %s; /dev/mem needs root",
				b->soc, b->phys, gpiomem);
	return udrv_err(errmsg, -ret,
			"cannot map the %s GPIO registers (0x%" PRIx64 "): %s%s%s, and %s",
			b->soc, b->phys, gpiomem, gpiomem[0] ? ", " : "", uio,
			devmem);
}

void udrv_soc_unmap(struct udrv_soc_map *m)
{
	udrv_region_unmap(m->region);
	m->region = NULL;
	m->regs = NULL;
}
