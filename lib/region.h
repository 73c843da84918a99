/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Mapped regions, internal view (see mmio.h). */
#ifndef UDRV_REGION_H
#define UDRV_REGION_H

#include <udrv/mmio.h>

struct udrv_region {
	void *map_addr;
	size_t map_len;
	struct udrv_mmio mmio;
	char name[96];
};

/* Map through an open fd (kept by the caller; the mapping outlives it). */
int udrv_region_map_fd(int fd, const char *path, uint64_t offset, size_t size,
		       struct udrv_region **regionp, char *errbuf,
		       size_t errlen);

#endif /* UDRV_REGION_H */
