// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * DMA through VFIO: buffers pinned and mapped by the IOMMU at an IOVA
 * (VFIO_IOMMU_MAP_DMA), an IOVA allocator (first fit, within the IOMMU's
 * windows and the device's DMA mask), and the mask check the IOMMU cannot
 * do: it does not know how many address bits the device drives.
 */
#include <errno.h>
#include <linux/vfio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "vfio/vfio_priv.h"

static uint64_t page_size(void)
{
	return (uint64_t)sysconf(_SC_PAGESIZE);
}

/* The highest address a device with @bits address bits can drive. */
static uint64_t mask_limit(unsigned int bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/*
 * The ranges of one IOVA capability at @p (@avail bytes to the end of the
 * answer) into @win from index @n; the new count or -EINVAL. Everything is
 * copied out with memcpy(): 6.1 packs its capabilities one after the other
 * (the 12-byte DMA-available one puts the IOVA ranges 4 bytes off an 8-byte
 * boundary).
 */
static int iova_ranges(const char *p, size_t avail,
		       struct vfio_iova_window *win, unsigned int n,
		       unsigned int max)
{
	struct vfio_iommu_type1_info_cap_iova_range cap;
	struct vfio_iova_range r;

	if (avail < sizeof(cap))
		return -EINVAL;
	memcpy(&cap, p, sizeof(cap));
	if (cap.nr_iovas > (avail - sizeof(cap)) / sizeof(r))
		return -EINVAL;
	for (uint32_t i = 0; i < cap.nr_iovas && n < max; i++) {
		memcpy(&r, p + sizeof(cap) + i * sizeof(r), sizeof(r));
		if (r.start > r.end)
			return -EINVAL;
		win[n].start = r.start;
		win[n].end = r.end;
		n++;
	}
	return (int)n;
}

int udrv_vfio_parse_iova_caps(const void *info, size_t len,
			      struct vfio_iova_window *win, unsigned int max)
{
	struct vfio_iommu_type1_info hdr;
	struct vfio_info_cap_header h;
	const char *base = info;
	unsigned int hops = 0;
	int n = 0;

	if (len < sizeof(hdr))
		return 0;
	memcpy(&hdr, info, sizeof(hdr));
	if (!(hdr.flags & VFIO_IOMMU_INFO_CAPS))
		return 0;
	for (uint32_t off = hdr.cap_offset; off && hops < 64; off = h.next, hops++) {
		if (off < sizeof(hdr) || off > len - sizeof(h))
			return -EINVAL;
		memcpy(&h, base + off, sizeof(h));
		if (h.id != VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE)
			continue;
		n = iova_ranges(base + off, len - off, win, (unsigned int)n, max);
		if (n < 0)
			return n;
	}
	return n;
}

void udrv_vfio_dma_windows(struct udrv_vfio *v)
{
	struct vfio_iommu_type1_info hdr = { .argsz = sizeof(hdr) };
	void *info;
	int n = 0;

	v->num_windows = 0;
	if (!ioctl(v->container_fd, VFIO_IOMMU_GET_INFO, &hdr) &&
	    hdr.argsz > sizeof(hdr) && hdr.argsz < 65536 &&
	    (info = calloc(1, hdr.argsz))) {
		((struct vfio_iommu_type1_info *)info)->argsz = hdr.argsz;
		if (!ioctl(v->container_fd, VFIO_IOMMU_GET_INFO, info))
			n = udrv_vfio_parse_iova_caps(info, hdr.argsz, v->windows,
						      VFIO_MAX_IOVA_WINDOWS);
		free(info);
	}
	if (n > 0) {
		v->num_windows = (unsigned int)n;
		return;
	}
	/* no capability (kernels before 5.4): the whole space */
	v->windows[0].start = 0;
	v->windows[0].end = UINT64_MAX;
	v->num_windows = 1;
}

int udrv_vfio_set_dma_mask(struct udrv_vfio *v, unsigned int bits)
{
	uint64_t limit = mask_limit(bits);

	if (bits < 1 || bits > 64)
		return udrv_err(v->errmsg, EINVAL,
				"DMA mask of %u bits: 1-64 (the address bits the device drives)",
				bits);
	for (struct udrv_dma *b = v->dma; b; b = b->next)
		if (b->iova + b->size - 1 > limit)
			return udrv_err(v->errmsg, ERANGE,
					"a DMA mask of %u bits (0x%llx) would leave the buffer at IOVA 0x%llx (%zu bytes) out of reach: free it first",
					bits, (unsigned long long)limit,
					(unsigned long long)b->iova, b->size);
	v->dma_limit = limit;
	v->info.dma_mask_bits = bits;
	return 0;
}

static int beyond_mask(struct udrv_vfio *v, uint64_t iova, size_t size)
{
	return udrv_err(v->errmsg, ERANGE,
			"DMA buffer at IOVA 0x%llx of %zu bytes ends beyond the DMA mask of %s (%u bits: 0x%llx): the device cannot reach it; use a lower IOVA (0: udrv picks one)",
			(unsigned long long)iova, size, v->bdf,
			v->info.dma_mask_bits, (unsigned long long)v->dma_limit);
}

/* The lowest free @size bytes in [@lo, @hi] (inclusive), or 0. */
static uint64_t fit_in(struct udrv_vfio *v, uint64_t lo, uint64_t hi,
		       uint64_t size)
{
	uint64_t at = lo;

	for (struct udrv_dma *b = v->dma; b; b = b->next) {
		if (b->iova + (b->size - 1) < at)	/* its last byte: no wrap */
			continue;
		if (b->iova > at && b->iova - at >= size)
			break;
		at = b->iova + b->size;
		if (!at)
			return 0;	/* wrapped: nothing above */
	}
	if (at > hi || hi - at < size - 1)
		return 0;
	return at;
}

/* An IOVA for @size bytes: first fit in the windows, below the mask. IOVA
 * 0 is never handed out (0 means "pick one" to udrv_vfio_dma_map()). */
static uint64_t iova_pick(struct udrv_vfio *v, uint64_t size)
{
	uint64_t page = page_size();

	for (unsigned int i = 0; i < v->num_windows; i++) {
		uint64_t lo = v->windows[i].start, hi = v->windows[i].end;
		uint64_t at;

		lo = lo < page ? page : (lo + page - 1) & ~(page - 1);
		if (hi > v->dma_limit)
			hi = v->dma_limit;
		if (lo > hi)
			continue;
		at = fit_in(v, lo, hi, size);
		if (at)
			return at;
	}
	return 0;
}

static bool in_windows(struct udrv_vfio *v, uint64_t iova, uint64_t size)
{
	for (unsigned int i = 0; i < v->num_windows; i++)
		if (iova >= v->windows[i].start && iova <= v->windows[i].end &&
		    size - 1 <= v->windows[i].end - iova)
			return true;
	return false;
}

/* Ranges by their last byte: a buffer ending at 2^64 has an end of 0. */
static struct udrv_dma *overlap(struct udrv_vfio *v, uint64_t iova,
				uint64_t size)
{
	for (struct udrv_dma *b = v->dma; b; b = b->next)
		if (iova <= b->iova + (b->size - 1) && b->iova <= iova + (size - 1))
			return b;
	return NULL;
}

static int check_map(struct udrv_vfio *v, void *addr, size_t size,
		     uint64_t iova)
{
	uint64_t page = page_size();
	struct udrv_dma *b;

	if (v->container_fd < 0)
		return udrv_err(v->errmsg, EBADF, "the VFIO device is not open");
	if (!size || size % page || (uintptr_t)addr % page || iova % page)
		return udrv_err(v->errmsg, EINVAL,
				"DMA mapping of %zu bytes at %p, IOVA 0x%llx: address, size and IOVA must be multiples of the page size (%llu), the size not 0",
				size, addr, (unsigned long long)iova,
				(unsigned long long)page);
	if (!iova)
		return 0;
	if (iova > v->dma_limit || size - 1 > v->dma_limit - iova)
		return beyond_mask(v, iova, size);
	if (!in_windows(v, iova, size))
		return udrv_err(v->errmsg, ERANGE,
				"IOVA 0x%llx (%zu bytes) is outside the IOMMU's windows for %s (reserved for MSI or by the platform): use another, or 0 to let udrv pick",
				(unsigned long long)iova, size, v->bdf);
	b = overlap(v, iova, size);
	if (b)
		return udrv_err(v->errmsg, EEXIST,
				"IOVA 0x%llx (%zu bytes) overlaps the buffer at IOVA 0x%llx (%zu bytes)",
				(unsigned long long)iova, size,
				(unsigned long long)b->iova, b->size);
	return 0;
}

static int map_failed(struct udrv_vfio *v, struct udrv_dma *b, int err)
{
	struct rlimit rl;

	if (err == ENOMEM && !getrlimit(RLIMIT_MEMLOCK, &rl) &&
	    rl.rlim_cur != RLIM_INFINITY)
		return udrv_err(v->errmsg, ENOMEM,
				"VFIO_IOMMU_MAP_DMA of %zu bytes for %s: cannot pin the memory: RLIMIT_MEMLOCK is %llu bytes (ulimit -l); raise it (memlock in /etc/security/limits.conf, LimitMEMLOCK= in a unit) or run as root",
				b->size, v->bdf, (unsigned long long)rl.rlim_cur);
	return udrv_err(v->errmsg, err,
			"VFIO_IOMMU_MAP_DMA of %zu bytes at IOVA 0x%llx for %s: %s",
			b->size, (unsigned long long)b->iova, v->bdf,
			strerror(err));
}

/* Map @b and link it into the handle's list, sorted by IOVA. */
static int dma_insert(struct udrv_vfio *v, struct udrv_dma *b)
{
	struct vfio_iommu_type1_dma_map map = {
		.argsz = sizeof(map),
		.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE,
		.vaddr = (uintptr_t)b->addr,
		.iova = b->iova,
		.size = b->size,
	};
	struct udrv_dma **pp;

	if (ioctl(v->container_fd, VFIO_IOMMU_MAP_DMA, &map))
		return map_failed(v, b, errno);
	for (pp = &v->dma; *pp && (*pp)->iova < b->iova; pp = &(*pp)->next)
		;
	b->next = *pp;
	*pp = b;
	return 0;
}

static int dma_map(struct udrv_vfio *v, void *addr, size_t size, uint64_t iova,
		   bool owned, struct udrv_dma **bufp)
{
	struct udrv_dma *b;
	int ret;

	ret = check_map(v, addr, size, iova);
	if (ret)
		return ret;
	if (!iova)
		iova = iova_pick(v, size);
	if (!iova)
		return udrv_err(v->errmsg, size - 1 > v->dma_limit ? ERANGE : ENOSPC,
				"no free IOVA range of %zu bytes for %s below its DMA mask (%u bits: 0x%llx)",
				size, v->bdf, v->info.dma_mask_bits,
				(unsigned long long)v->dma_limit);
	b = calloc(1, sizeof(*b));
	if (!b)
		return udrv_err(v->errmsg, ENOMEM, "out of memory");
	*b = (struct udrv_dma){ .addr = addr, .size = size, .iova = iova,
				.owned = owned };
	ret = dma_insert(v, b);
	if (ret) {
		free(b);
		return ret;
	}
	*bufp = b;
	return 0;
}

int udrv_vfio_dma_map(struct udrv_vfio *v, void *addr, size_t size,
		      uint64_t iova, struct udrv_dma **bufp)
{
	*bufp = NULL;
	return dma_map(v, addr, size, iova, false, bufp);
}

int udrv_vfio_dma_alloc(struct udrv_vfio *v, size_t size,
			struct udrv_dma **bufp)
{
	uint64_t page = page_size();
	void *mem;
	int ret;

	*bufp = NULL;
	if (!size || size > SIZE_MAX - page)
		return udrv_err(v->errmsg, EINVAL,
				"DMA buffer of %zu bytes: at least 1", size);
	size = (size + page - 1) & ~(page - 1);
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return udrv_err(v->errmsg, errno, "mmap of %zu bytes for DMA: %s",
				size, strerror(errno));
	ret = dma_map(v, mem, size, 0, true, bufp);
	if (ret)
		munmap(mem, size);
	return ret;
}

static void dma_unmap(struct udrv_vfio *v, struct udrv_dma *b)
{
	struct vfio_iommu_type1_dma_unmap unmap = {
		.argsz = sizeof(unmap), .iova = b->iova, .size = b->size,
	};

	if (v->container_fd >= 0)
		ioctl(v->container_fd, VFIO_IOMMU_UNMAP_DMA, &unmap);
	if (b->owned)
		munmap(b->addr, b->size);
	free(b);
}

int udrv_vfio_dma_free(struct udrv_vfio *v, struct udrv_dma *buf)
{
	struct udrv_dma **pp;

	if (!buf)
		return 0;
	for (pp = &v->dma; *pp && *pp != buf; pp = &(*pp)->next)
		;
	if (!*pp)
		return udrv_err(v->errmsg, EINVAL,
				"DMA buffer %p is not one of %s's (freed already?)",
				(void *)buf, v->bdf[0] ? v->bdf : "this handle");
	*pp = buf->next;
	dma_unmap(v, buf);
	return 0;
}

void udrv_vfio_dma_release(struct udrv_vfio *v)
{
	while (v->dma) {
		struct udrv_dma *b = v->dma;

		v->dma = b->next;
		dma_unmap(v, b);
	}
}

void *udrv_dma_addr(const struct udrv_dma *buf)
{
	return buf->addr;
}

uint64_t udrv_dma_iova(const struct udrv_dma *buf)
{
	return buf->iova;
}

size_t udrv_dma_size(const struct udrv_dma *buf)
{
	return buf->size;
}
