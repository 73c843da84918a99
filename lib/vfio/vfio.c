// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The VFIO device handle: its life (new, close, free), what it reports
 * (info, regions), its BARs mapped with the checked MMIO accessors, config
 * space, bus mastering and reset. Opening it: vfio_open.c; interrupts:
 * vfio_irq.c; DMA: vfio_dma.c.
 */
#include <errno.h>
#include <linux/vfio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "abi.h"
#include "region.h"
#include "vfio/vfio_priv.h"

struct udrv_vfio *udrv_vfio_new(void)
{
	struct udrv_vfio *v = calloc(1, sizeof(*v));

	if (v) {
		v->container_fd = v->group_fd = v->device_fd = -1;
		v->req_fd = -1;
		v->irq_type = -1;
	}
	return v;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void udrv_vfio_close(struct udrv_vfio *v)
{
	char errmsg[UDRV_ERRMSG_LEN];

	if (!v)
		return;
	udrv_vfio_irq_release(v);
	udrv_vfio_dma_release(v);
	close_fd(&v->device_fd);
	close_fd(&v->group_fd);
	close_fd(&v->container_fd);
	memcpy(errmsg, v->errmsg, sizeof(errmsg));
	memset(v, 0, sizeof(*v));
	memcpy(v->errmsg, errmsg, sizeof(errmsg));
	v->container_fd = v->group_fd = v->device_fd = -1;
	v->req_fd = -1;
	v->irq_type = -1;
}

void udrv_vfio_free(struct udrv_vfio *v)
{
	udrv_vfio_close(v);
	free(v);
}

const char *udrv_vfio_errmsg(const struct udrv_vfio *v)
{
	return v->errmsg;
}

const char *udrv_vfio_bdf(const struct udrv_vfio *v)
{
	return v->bdf;
}

int udrv_vfio_device_fd(const struct udrv_vfio *v)
{
	return v->device_fd;
}

int udrv_vfio_container_fd(const struct udrv_vfio *v)
{
	return v->container_fd;
}

int udrv_vfio_group_fd(const struct udrv_vfio *v)
{
	return v->group_fd;
}

static int not_open(struct udrv_vfio *v)
{
	return udrv_err(v->errmsg, EBADF,
			"the VFIO device is not open (udrv_vfio_open first)");
}

int udrv_vfio_info_sz(struct udrv_vfio *v, struct udrv_vfio_info *info,
		      size_t info_size)
{
	int ret = udrv_abi_size(v->errmsg, &udrv_abi_vfio_info, info_size);

	if (ret)
		return ret;
	if (v->device_fd < 0)
		return not_open(v);
	udrv_abi_out(&udrv_abi_vfio_info, info, &v->info, info_size);
	return 0;
}

static int region_info(struct udrv_vfio *v, unsigned int index,
		       struct udrv_vfio_region_info *out)
{
	struct vfio_region_info ri = { .argsz = sizeof(ri), .index = index };

	if (v->device_fd < 0)
		return not_open(v);
	if (index >= v->info.num_regions)
		return udrv_err(v->errmsg, EINVAL,
				"%s has no region %u: VFIO reports %u (0-5 BARs, 6 ROM, 7 config space)",
				v->bdf, index, v->info.num_regions);
	if (ioctl(v->device_fd, VFIO_DEVICE_GET_REGION_INFO, &ri)) {
		if (errno == EINVAL && index == VFIO_PCI_VGA_REGION_INDEX)
			return udrv_err(v->errmsg, EINVAL,
					"%s has no region 8: VFIO's VGA region (legacy VGA memory and ports) is there only for VGA devices",
					v->bdf);
		return udrv_err(v->errmsg, errno,
				"VFIO_DEVICE_GET_REGION_INFO %u of %s: %s", index,
				v->bdf, strerror(errno));
	}
	out->index = index;
	out->flags = ri.flags & (UDRV_VFIO_REGION_READ | UDRV_VFIO_REGION_WRITE |
				 UDRV_VFIO_REGION_MMAP);
	out->size = ri.size;
	out->offset = ri.offset;
	return 0;
}

_Static_assert(UDRV_VFIO_REGION_READ == VFIO_REGION_INFO_FLAG_READ &&
	       UDRV_VFIO_REGION_WRITE == VFIO_REGION_INFO_FLAG_WRITE &&
	       UDRV_VFIO_REGION_MMAP == VFIO_REGION_INFO_FLAG_MMAP,
	       "udrv's region flags are VFIO's");

int udrv_vfio_region_info_sz(struct udrv_vfio *v, unsigned int index,
			     struct udrv_vfio_region_info *info,
			     size_t info_size)
{
	struct udrv_vfio_region_info ours;
	int ret = udrv_abi_size(v->errmsg, &udrv_abi_vfio_region_info,
				info_size);

	if (ret)
		return ret;
	ret = region_info(v, index, &ours);
	if (!ret)
		udrv_abi_out(&udrv_abi_vfio_region_info, info, &ours, info_size);
	return ret;
}

static int check_bar(struct udrv_vfio *v, unsigned int bar,
		     const struct udrv_vfio_region_info *ri)
{
	if (ri->size == 0)
		return udrv_err(v->errmsg, ENODEV,
				"%s does not implement BAR %u (size 0): lspci -v -s %s lists its BARs",
				v->bdf, bar, v->bdf);
	if (!(ri->flags & UDRV_VFIO_REGION_MMAP))
		return udrv_err(v->errmsg, EOPNOTSUPP,
				"BAR %u of %s (0x%llx bytes) cannot be mmapped (I/O ports, or VFIO keeps it): pread/pwrite udrv_vfio_device_fd() at offset 0x%llx",
				bar, v->bdf, (unsigned long long)ri->size,
				(unsigned long long)ri->offset);
	if (ri->size > SIZE_MAX)
		return udrv_err(v->errmsg, EOVERFLOW,
				"BAR %u of %s is 0x%llx bytes: more than this %zu-bit process can map",
				bar, v->bdf, (unsigned long long)ri->size,
				sizeof(size_t) * 8);
	return 0;
}

int udrv_vfio_map_bar(struct udrv_vfio *v, unsigned int bar,
		      struct udrv_region **regionp)
{
	struct udrv_vfio_region_info ri = { 0 };
	char err[UDRV_ERRMSG_LEN - 64], name[48];
	int ret;

	*regionp = NULL;
	if (v->device_fd < 0)
		return not_open(v);
	if (bar > VFIO_PCI_BAR5_REGION_INDEX)
		return udrv_err(v->errmsg, EINVAL,
				"BAR %u out of range: a PCI device has BARs 0-5", bar);
	ret = region_info(v, bar, &ri);
	if (!ret)
		ret = check_bar(v, bar, &ri);
	if (ret)
		return ret;
	snprintf(name, sizeof(name), "%s BAR%u", v->bdf, bar);
	ret = udrv_region_map_fd(v->device_fd, name, ri.offset, (size_t)ri.size,
				 regionp, err, sizeof(err));
	if (ret)
		return udrv_err(v->errmsg, -ret, "BAR %u of %s: %s", bar, v->bdf,
				err);
	return 0;
}

static int config_range(struct udrv_vfio *v, unsigned int offset, size_t len)
{
	if (v->device_fd < 0)
		return not_open(v);
	/* PCIe's extended config space is 4 KiB */
	if (!len || offset > 4096 || len > 4096 - offset)
		return udrv_err(v->errmsg, EINVAL,
				"config space access of %zu bytes at 0x%x of %s: outside 0-0xfff",
				len, offset, v->bdf);
	return 0;
}

int udrv_vfio_config_read(struct udrv_vfio *v, unsigned int offset, void *buf,
			  size_t len)
{
	ssize_t n;
	int ret = config_range(v, offset, len);

	if (ret)
		return ret;
	n = pread(v->device_fd, buf, len, (off_t)(v->config_offset + offset));
	if (n == (ssize_t)len)
		return 0;
	return udrv_err(v->errmsg, n < 0 ? errno : EIO,
			"reading %zu bytes of config space of %s at 0x%x: %s", len,
			v->bdf, offset, n < 0 ? strerror(errno) : "short read");
}

int udrv_vfio_config_write(struct udrv_vfio *v, unsigned int offset,
			   const void *buf, size_t len)
{
	ssize_t n;
	int ret = config_range(v, offset, len);

	if (ret)
		return ret;
	n = pwrite(v->device_fd, buf, len, (off_t)(v->config_offset + offset));
	if (n == (ssize_t)len)
		return 0;
	return udrv_err(v->errmsg, n < 0 ? errno : EIO,
			"writing %zu bytes of config space of %s at 0x%x: %s", len,
			v->bdf, offset, n < 0 ? strerror(errno) : "short write");
}

/* Bus mastering on or off; memory decoding always on (the BARs need it). */
int udrv_vfio_bus_master(struct udrv_vfio *v, bool on)
{
	uint16_t cmd, want;
	int ret;

	ret = udrv_vfio_config_read(v, VFIO_PCI_COMMAND, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	want = cmd | VFIO_PCI_CMD_MEMORY;
	want = on ? want | VFIO_PCI_CMD_MASTER :
		    want & (uint16_t)~VFIO_PCI_CMD_MASTER;
	if (want == cmd)
		return 0;
	return udrv_vfio_config_write(v, VFIO_PCI_COMMAND, &want, sizeof(want));
}

int udrv_vfio_reset(struct udrv_vfio *v)
{
	uint16_t cmd;
	int ret;

	if (v->device_fd < 0)
		return not_open(v);
	if (!v->info.can_reset)
		return udrv_err(v->errmsg, ENOTSUP,
				"%s has no reset VFIO can do (no FLR, PM or bus reset)",
				v->bdf);
	ret = udrv_vfio_config_read(v, VFIO_PCI_COMMAND, &cmd, sizeof(cmd));
	if (ret)
		return ret;
	if (ioctl(v->device_fd, VFIO_DEVICE_RESET))
		return udrv_err(v->errmsg, errno, "VFIO_DEVICE_RESET of %s: %s",
				v->bdf, strerror(errno));
	/* a function reset clears the command register: put back bus
	 * mastering as it was */
	return udrv_vfio_bus_master(v, cmd & VFIO_PCI_CMD_MASTER);
}
