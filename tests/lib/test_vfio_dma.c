// SPDX-License-Identifier: GPL-2.0-only
/*
 * VFIO's DMA on a fake VFIO (fake_vfio.h): the IOVA allocator, the
 * device's DMA mask, the IOMMU's windows (VFIO_IOMMU_GET_INFO's IOVA
 * ranges, as 6.1 packs them), alignment, overlap and pinning limits.
 */
#include <errno.h>
#include <linux/vfio.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "fake_vfio.h"
#include "harness.h"
#include "vfio/pci.h"
#include "vfio/vfio_priv.h"

#define BDF	"0000:00:01.0"

/* ---- DMA ------------------------------------------------------------ */

static void test_dma_alloc(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	struct udrv_dma *a, *b, *c;

	CHECK_INT(udrv_vfio_dma_alloc(v, 0, &a), -EINVAL);
	CHECK_INT(udrv_vfio_dma_alloc(v, 1, &a), 0);
	CHECK_INT(udrv_dma_size(a), 4096);
	CHECK_INT(udrv_dma_iova(a), 4096);	/* never IOVA 0 */
	CHECK_INT(fake_vfio.num_maps, 1);
	CHECK(fake_vfio.maps[0].vaddr == (uintptr_t)udrv_dma_addr(a));
	CHECK_INT(fake_vfio.maps[0].iova, 4096);
	CHECK_INT(udrv_vfio_dma_alloc(v, 8192, &b), 0);
	CHECK_INT(udrv_dma_iova(b), 8192);
	memset(udrv_dma_addr(b), 0x5a, 8192);
	/* freed space is reused, first fit */
	CHECK_INT(udrv_vfio_dma_free(v, a), 0);
	CHECK_INT(fake_vfio.unmaps, 1);
	CHECK_INT(udrv_vfio_dma_alloc(v, 4096, &a), 0);
	CHECK_INT(udrv_dma_iova(a), 4096);
	CHECK_INT(udrv_vfio_dma_alloc(v, 8192, &c), 0);
	CHECK_INT(udrv_dma_iova(c), 16384);
	udrv_vfio_close(v);	/* unmaps what is left */
	CHECK_INT(fake_vfio.unmaps, 4);
	udrv_vfio_free(v);
}

static void test_dma_mask(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	void *mem = aligned_alloc(4096, 3 * 4096);
	struct udrv_dma *a, *b;

	CHECK_INT(udrv_vfio_set_dma_mask(v, 0), -EINVAL);
	CHECK_INT(udrv_vfio_set_dma_mask(v, 65), -EINVAL);
	CHECK_INT(udrv_vfio_set_dma_mask(v, 28), 0);
	CHECK_INT(udrv_vfio_dma_map(v, mem, 4096, 1ULL << 28, &a), -ERANGE);
	CHECK(a == NULL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "DMA buffer at IOVA 0x10000000 of 4096 bytes ends beyond the DMA mask of 0000:00:01.0 (28 bits: 0xfffffff)");
	/* ending one byte beyond */
	CHECK_INT(udrv_vfio_dma_map(v, mem, 8192, (1ULL << 28) - 4096, &a), -ERANGE);
	CHECK_INT(udrv_vfio_dma_map(v, mem, 4096, (1ULL << 28) - 4096, &a), 0);
	CHECK_INT(udrv_vfio_set_dma_mask(v, 20), -ERANGE);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "would leave the buffer at IOVA 0xffff000");
	CHECK_INT(udrv_vfio_dma_free(v, a), 0);
	CHECK_INT(udrv_vfio_dma_free(v, a), -EINVAL);	/* freed already */
	/* the allocator stays below the mask: 13 bits hold one page */
	CHECK_INT(udrv_vfio_set_dma_mask(v, 13), 0);
	CHECK_INT(udrv_vfio_dma_alloc(v, 4096, &a), 0);
	CHECK_INT(udrv_dma_iova(a), 4096);
	CHECK_INT(udrv_vfio_dma_alloc(v, 4096, &b), -ENOSPC);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "no free IOVA range of 4096 bytes for 0000:00:01.0 below its DMA mask (13 bits: 0x1fff)");
	CHECK_INT(udrv_vfio_dma_alloc(v, 16384, &b), -ERANGE);
	CHECK_INT(udrv_vfio_set_dma_mask(v, 64), 0);
	udrv_vfio_free(v);
	free(mem);
}

static void test_dma_map_checks(void)
{
	struct udrv_vfio *v = fake_vfio_open_device();
	char *mem = aligned_alloc(4096, 4 * 4096);
	struct udrv_dma *a, *b;

	CHECK_INT(udrv_vfio_dma_map(v, mem + 1, 4096, 0, &a), -EINVAL);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "must be multiples of the page size");
	CHECK_INT(udrv_vfio_dma_map(v, mem, 100, 0, &a), -EINVAL);
	CHECK_INT(udrv_vfio_dma_map(v, mem, 4096, 0x100800, &a), -EINVAL);
	CHECK_INT(udrv_vfio_dma_map(v, mem, 0, 0, &a), -EINVAL);
	/* x86's MSI window is not the IOMMU's to map */
	CHECK_INT(udrv_vfio_dma_map(v, mem, 4096, 0xfee00000, &a), -ERANGE);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "IOVA 0xfee00000 (4096 bytes) is outside the IOMMU's windows");
	CHECK_INT(udrv_vfio_dma_map(v, mem, 8192, 0x200000, &a), 0);
	CHECK_INT(udrv_dma_iova(a), 0x200000);
	CHECK(udrv_dma_addr(a) == mem);
	CHECK_INT(udrv_vfio_dma_map(v, mem + 8192, 4096, 0x201000, &b), -EEXIST);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "IOVA 0x201000 (4096 bytes) overlaps the buffer at IOVA 0x200000 (8192 bytes)");
	fake_vfio.map_errno = ENOMEM;
	CHECK_INT(udrv_vfio_dma_map(v, mem + 8192, 4096, 0, &b), -ENOMEM);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "RLIMIT_MEMLOCK");
	fake_vfio.map_errno = EFAULT;
	CHECK_INT(udrv_vfio_dma_map(v, mem + 8192, 4096, 0, &b), -EFAULT);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "VFIO_IOMMU_MAP_DMA of 4096 bytes at IOVA 0x1000");
	CHECK_INT(udrv_vfio_dma_free(v, a), 0);
	CHECK(mem[0] == mem[0]);	/* the caller's memory stays mapped */
	udrv_vfio_free(v);
	free(mem);
}

static void test_dma_windows_skip_holes(void)
{
	struct udrv_vfio *v;
	struct udrv_dma *a;

	fake_vfio_device();
	fake_vfio.iova_start[0] = 0x10000;	/* nothing below 64 KiB */
	fake_vfio.iova_end[0] = 0x11fff;
	fake_vfio.iova_start[1] = 0x100000;
	v = fake_vfio_open(BDF, 0);
	CHECK_INT(udrv_vfio_dma_alloc(v, 8192, &a), 0);
	CHECK_INT(udrv_dma_iova(a), 0x10000);
	CHECK_INT(udrv_vfio_dma_alloc(v, 4096, &a), 0);
	CHECK_INT(udrv_dma_iova(a), 0x100000);
	udrv_vfio_free(v);
}

/*
 * A buffer that ends at 2^64 (the last page of a window that reaches the
 * top): its end, iova + size, is 0 in 64 bits; an overlap with it is still
 * seen, and the allocator does not hand out the space under it.
 */
static void test_dma_buffer_at_the_top(void)
{
	const uint64_t top = 0ULL - 4096;
	char *mem = aligned_alloc(4096, 3 * 4096);
	struct udrv_vfio *v;
	struct udrv_dma *a, *b;

	fake_vfio_device();
	fake_vfio.iova_start[0] = top - 4096;
	fake_vfio.iova_end[0] = UINT64_MAX;
	fake_vfio.num_iova = 1;
	v = fake_vfio_open(BDF, 0);
	CHECK_INT(udrv_vfio_set_dma_mask(v, 64), 0);
	CHECK_INT(udrv_vfio_dma_map(v, mem, 4096, top, &a), 0);
	CHECK_INT(udrv_vfio_dma_map(v, mem + 4096, 4096, top, &b), -EEXIST);
	CHECK_CONTAINS(udrv_vfio_errmsg(v), "overlaps the buffer at IOVA 0xfffffffffffff000 (4096 bytes)");
	CHECK_INT(udrv_vfio_dma_map(v, mem + 4096, 8192, top - 4096, &b), -EEXIST);
	CHECK_INT(udrv_vfio_dma_alloc(v, 4096, &b), 0);
	CHECK_INT(udrv_dma_iova(b), top - 4096);
	CHECK_INT(udrv_vfio_dma_alloc(v, 4096, &b), -ENOSPC);
	udrv_vfio_free(v);
	free(mem);
}

static void test_iova_caps_parser(void)
{
	uint64_t raw[32] = { 0 };
	struct vfio_iommu_type1_info *info = (void *)raw;
	struct vfio_iommu_type1_info_cap_iova_range *cap =
		(void *)((char *)raw + sizeof(*info));
	size_t len = sizeof(*info) + sizeof(*cap) + 2 * sizeof(cap->iova_ranges[0]);
	struct vfio_iova_window w[4];

	info->argsz = (uint32_t)len;
	info->flags = VFIO_IOMMU_INFO_CAPS;
	info->cap_offset = sizeof(*info);
	cap->header.id = VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE;
	cap->nr_iovas = 2;
	cap->iova_ranges[0] = (struct vfio_iova_range){ 0, 0xfedfffff };
	cap->iova_ranges[1] = (struct vfio_iova_range){ 0xfef00000, ~0ULL };
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), 2);
	CHECK(w[1].start == 0xfef00000 && w[1].end == ~0ULL);
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 1), 1);
	/* the ranges run past the end */
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len - 1, w, 4), -EINVAL);
	cap->nr_iovas = 0x40000000;
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), -EINVAL);
	cap->nr_iovas = 2;
	cap->iova_ranges[0].start = 5;
	cap->iova_ranges[0].end = 4;
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), -EINVAL);
	cap->iova_ranges[0].end = 5;
	/* a chain pointing at itself ends */
	cap->header.id = 99;
	cap->header.next = sizeof(*info);
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), 0);
	info->cap_offset = (uint32_t)len;
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), -EINVAL);
	info->cap_offset = 2;
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), -EINVAL);
	info->flags = 0;
	CHECK_INT(udrv_vfio_parse_iova_caps(raw, len, w, 4), 0);
}

/*
 * 6.1's layout: the migration capability (32 bytes), the DMA-available one
 * (12), then the IOVA ranges at offset 68, 4 bytes off an 8-byte boundary
 * (the sanitized build sees a misaligned read).
 */
static void test_iova_caps_packed_as_6_1(void)
{
	uint64_t raw[32] = { 0 };
	char *b = (char *)raw;
	struct vfio_iommu_type1_info info = {
		.flags = VFIO_IOMMU_INFO_CAPS | VFIO_IOMMU_INFO_PGSIZES,
		.cap_offset = 24,
	};
	struct vfio_info_cap_header mig = { .id = VFIO_IOMMU_TYPE1_INFO_CAP_MIGRATION,
					    .version = 1, .next = 56 };
	struct vfio_info_cap_header avail = { .id = VFIO_IOMMU_TYPE1_INFO_DMA_AVAIL,
					      .version = 1, .next = 68 };
	struct vfio_info_cap_header iova = { .id = VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE,
					     .version = 1 };
	struct vfio_iova_range r[2] = { { 0, 0xfedfffff }, { 0xfef00000, 0xffffffffffffULL } };
	uint32_t nr = 2;
	struct vfio_iova_window w[4];

	info.argsz = 68 + 16 + (uint32_t)sizeof(r);
	memcpy(b, &info, sizeof(info));
	memcpy(b + 24, &mig, sizeof(mig));
	memcpy(b + 56, &avail, sizeof(avail));
	memcpy(b + 68, &iova, sizeof(iova));
	memcpy(b + 76, &nr, sizeof(nr));
	memcpy(b + 84, r, sizeof(r));
	CHECK_INT(udrv_vfio_parse_iova_caps(b, info.argsz, w, 4), 2);
	CHECK(w[0].start == 0 && w[0].end == 0xfedfffff);
	CHECK(w[1].start == 0xfef00000 && w[1].end == 0xffffffffffffULL);
}

UDRV_TESTS(UDRV_T(test_dma_alloc), UDRV_T(test_dma_mask), UDRV_T(test_dma_map_checks), UDRV_T(test_dma_windows_skip_holes), UDRV_T(test_dma_buffer_at_the_top), UDRV_T(test_iova_caps_parser), UDRV_T(test_iova_caps_packed_as_6_1))
