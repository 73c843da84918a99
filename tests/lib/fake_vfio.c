// SPDX-License-Identifier: GPL-2.0-only
/* A fake PCI device on a fake vfio-pci: see fake_vfio.h. */
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <udrv/vfio.h>

#include "fake_vfio.h"
#include "harness.h"

struct fake_vfio fake_vfio;

static char device_path[600];
static ino_t container_ino, group_ino, device_ino;

void fake_pci_device(const char *bdf, const char *driver, int group)
{
	char p[256], t[256];

	/* edu's attributes as 6.1 prints them */
	static const char *const attrs[][2] = {
		{ "vendor", "0x1234\n" }, { "device", "0x11e8\n" },
		{ "subsystem_vendor", "0x1af4\n" },
		{ "subsystem_device", "0x1100\n" }, { "class", "0x00ff00\n" },
		{ "driver_override", "(null)\n" },
	};

	fake_dir("sys/kernel");
	fake_dir("dev");
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/%s", bdf,
			 attrs[i][0]);
		fake_file(p, attrs[i][1]);
	}
	fake_file("sys/bus/pci/drivers_probe", "");
	if (driver[0]) {
		snprintf(p, sizeof(p), "sys/bus/pci/drivers/%s/unbind", driver);
		fake_file(p, "");
		snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/driver", bdf);
		snprintf(t, sizeof(t), "../../drivers/%s", driver);
		fake_symlink(t, p);
	}
	if (group < 0)
		return;
	snprintf(p, sizeof(p), "sys/bus/pci/devices/%s/iommu_group", bdf);
	snprintf(t, sizeof(t), "../../../../kernel/iommu_groups/%d", group);
	fake_symlink(t, p);
	snprintf(p, sizeof(p), "sys/kernel/iommu_groups/%d/devices/%s", group,
		 bdf);
	snprintf(t, sizeof(t), "../../../../bus/pci/devices/%s", bdf);
	fake_symlink(t, p);
}

static ino_t inode_of(const char *rel)
{
	char path[600];
	struct stat st;

	fake_path(path, sizeof(path), rel);
	if (stat(path, &st) < 0) {
		perror(path);
		exit(2);
	}
	return st.st_ino;
}

void fake_vfio_setup(const char *bdf, int group)
{
	char p[64];
	int fd;

	memset(&fake_vfio, 0, sizeof(fake_vfio));
	fake_vfio.viable = true;
	fake_vfio.type1v2 = true;
	fake_vfio.device_flags = VFIO_DEVICE_FLAGS_PCI;
	fake_vfio.num_regions = FAKE_VFIO_REGIONS;
	fake_vfio.region_size[0] = 0x1000;
	fake_vfio.region_flags[0] = VFIO_REGION_INFO_FLAG_READ |
		VFIO_REGION_INFO_FLAG_WRITE | VFIO_REGION_INFO_FLAG_MMAP;
	fake_vfio.region_size[VFIO_PCI_CONFIG_REGION_INDEX] = 256;
	fake_vfio.region_flags[VFIO_PCI_CONFIG_REGION_INDEX] =
		VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
	fake_vfio.irq_count[VFIO_PCI_INTX_IRQ_INDEX] = 1;
	fake_vfio.irq_count[VFIO_PCI_MSI_IRQ_INDEX] = 1;
	fake_vfio.irq_count[VFIO_PCI_REQ_IRQ_INDEX] = 1;
	/* what 6.1 reports on q35 with intel-iommu: all but the MSI window */
	fake_vfio.num_iova = 2;
	fake_vfio.iova_start[0] = 0;
	fake_vfio.iova_end[0] = 0xfedfffff;
	fake_vfio.iova_start[1] = 0xfef00000;
	fake_vfio.iova_end[1] = 0xffffffffffffULL;
	fake_vfio.irq_index = -1;
	fake_vfio.req_fd = -1;
	fake_file("dev/vfio/vfio", "");
	snprintf(p, sizeof(p), "dev/vfio/%d", group);
	fake_file(p, "");
	fake_file("vfio-device", "");
	fake_path(device_path, sizeof(device_path), "vfio-device");
	fd = open(device_path, O_RDWR);
	if (fd < 0 || ftruncate(fd, (off_t)(FAKE_VFIO_REGIONS *
					    FAKE_VFIO_REGION_STRIDE)) < 0) {
		perror(device_path);
		exit(2);
	}
	close(fd);
	/* the config space's IDs, as sysfs has them (edu's) */
	fake_vfio_region_write(VFIO_PCI_CONFIG_REGION_INDEX, 0,
			       "\x34\x12\xe8\x11", 4);
	container_ino = inode_of("dev/vfio/vfio");
	group_ino = inode_of(p);
	device_ino = inode_of("vfio-device");
	(void)bdf;
}

void fake_vfio_region_write(unsigned int index, uint64_t offset, const void *buf,
			    size_t len)
{
	int fd = open(device_path, O_WRONLY);

	if (fd < 0 || pwrite(fd, buf, len, (off_t)(index * FAKE_VFIO_REGION_STRIDE +
						   offset)) != (ssize_t)len) {
		perror(device_path);
		exit(2);
	}
	close(fd);
}

void fake_vfio_region_read(unsigned int index, uint64_t offset, void *buf,
			   size_t len)
{
	int fd = open(device_path, O_RDONLY);

	if (fd < 0 || pread(fd, buf, len, (off_t)(index * FAKE_VFIO_REGION_STRIDE +
						  offset)) != (ssize_t)len) {
		perror(device_path);
		exit(2);
	}
	close(fd);
}

static int fail(int err)
{
	errno = err;
	return -1;
}

static void iommu_info(struct vfio_iommu_type1_info *info)
{
	size_t cap_size = sizeof(struct vfio_iommu_type1_info_cap_iova_range) +
		fake_vfio.num_iova * sizeof(struct vfio_iova_range);
	struct vfio_iommu_type1_info_cap_iova_range *cap;
	uint32_t need = (uint32_t)(sizeof(*info) + cap_size);

	info->flags = VFIO_IOMMU_INFO_PGSIZES;
	info->iova_pgsizes = 0x40201000;
	if (!fake_vfio.num_iova)
		return;
	info->flags |= VFIO_IOMMU_INFO_CAPS;
	if (info->argsz < need) {
		info->argsz = need;
		info->cap_offset = 0;
		return;
	}
	info->cap_offset = sizeof(*info);
	cap = (void *)(info + 1);
	cap->header.id = VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE;
	cap->header.version = 1;
	cap->header.next = 0;
	cap->nr_iovas = fake_vfio.num_iova;
	for (uint32_t i = 0; i < fake_vfio.num_iova; i++) {
		cap->iova_ranges[i].start = fake_vfio.iova_start[i];
		cap->iova_ranges[i].end = fake_vfio.iova_end[i];
	}
}

static int container_ioctl(unsigned long req, unsigned long arg)
{
	struct vfio_iommu_type1_dma_map *map = (void *)arg;
	struct vfio_iommu_type1_dma_unmap *unmap = (void *)arg;

	switch (req) {
	case VFIO_GET_API_VERSION:
		return VFIO_API_VERSION;
	case VFIO_CHECK_EXTENSION:
		return arg == VFIO_TYPE1v2_IOMMU ? fake_vfio.type1v2 :
		       arg == VFIO_TYPE1_IOMMU;
	case VFIO_SET_IOMMU:
		if (fake_vfio.set_iommu_errno)
			return fail(fake_vfio.set_iommu_errno);
		fake_vfio.set_iommu_type = (int)arg;
		return 0;
	case VFIO_IOMMU_GET_INFO:
		iommu_info((void *)arg);
		return 0;
	case VFIO_IOMMU_MAP_DMA:
		if (fake_vfio.map_errno)
			return fail(fake_vfio.map_errno);
		if (fake_vfio.num_maps < 16)
			fake_vfio.maps[fake_vfio.num_maps++] =
				(struct fake_vfio_map){ map->vaddr, map->iova,
							map->size };
		return 0;
	case VFIO_IOMMU_UNMAP_DMA:
		fake_vfio.unmaps++;
		(void)unmap;
		return 0;
	}
	return fail(ENOTTY);
}

static int group_ioctl(unsigned long req, unsigned long arg)
{
	struct vfio_group_status *st = (void *)arg;

	switch (req) {
	case VFIO_GROUP_GET_STATUS:
		st->flags = (fake_vfio.viable ? VFIO_GROUP_FLAGS_VIABLE : 0) |
			    (fake_vfio.container_set ? VFIO_GROUP_FLAGS_CONTAINER_SET : 0);
		return 0;
	case VFIO_GROUP_SET_CONTAINER:
		if (fake_vfio.set_container_errno)
			return fail(fake_vfio.set_container_errno);
		fake_vfio.container_set = true;
		return 0;
	case VFIO_GROUP_GET_DEVICE_FD:
		return open(device_path, O_RDWR | O_CLOEXEC);
	}
	return fail(ENOTTY);
}

static int region_info(struct vfio_region_info *ri)
{
	if (ri->index >= fake_vfio.num_regions ||
	    fake_vfio.region_info_einval[ri->index])
		return fail(EINVAL);
	ri->flags = fake_vfio.region_flags[ri->index];
	ri->size = fake_vfio.region_size[ri->index];
	ri->offset = ri->index * FAKE_VFIO_REGION_STRIDE;
	return 0;
}

static int set_irqs(struct vfio_irq_set *set)
{
	if (set->index >= 5 || (set->count > fake_vfio.irq_count[set->index] &&
				!(set->flags & VFIO_IRQ_SET_DATA_NONE)))
		return fail(EINVAL);
	if (set->index == VFIO_PCI_REQ_IRQ_INDEX) {
		memcpy(&fake_vfio.req_fd, set->data, sizeof(int));
		return 0;
	}
	if (set->flags & VFIO_IRQ_SET_ACTION_UNMASK) {
		fake_vfio.unmasks++;
		return 0;
	}
	fake_vfio.irq_index = (int)set->index;
	fake_vfio.irq_flags = set->flags;
	fake_vfio.irq_set_count = set->count;
	if ((set->flags & VFIO_IRQ_SET_DATA_EVENTFD) && set->count <= 8)
		memcpy(fake_vfio.irq_fds, set->data, set->count * sizeof(int));
	return 0;
}

static int device_ioctl(unsigned long req, unsigned long arg)
{
	struct vfio_device_info *di = (void *)arg;
	struct vfio_irq_info *ii = (void *)arg;

	switch (req) {
	case VFIO_DEVICE_GET_INFO:
		di->flags = fake_vfio.device_flags;
		di->num_regions = fake_vfio.num_regions;
		di->num_irqs = 5;
		return 0;
	case VFIO_DEVICE_GET_REGION_INFO:
		return region_info((void *)arg);
	case VFIO_DEVICE_GET_IRQ_INFO:
		if (ii->index >= 5)
			return fail(EINVAL);
		ii->count = fake_vfio.irq_count[ii->index];
		ii->flags = VFIO_IRQ_INFO_EVENTFD;
		return 0;
	case VFIO_DEVICE_SET_IRQS:
		return set_irqs((void *)arg);
	case VFIO_DEVICE_RESET:
		if (!(fake_vfio.device_flags & VFIO_DEVICE_FLAGS_RESET))
			return fail(ENOTTY);
		fake_vfio.resets++;
		return 0;
	}
	return fail(ENOTTY);
}

int __real_poll(struct pollfd *fds, nfds_t n, int timeout);
int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout);
int __real_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts,
		 const sigset_t *mask);
int __wrap_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts,
		 const sigset_t *mask);

/* The waits' ppoll(), counted as a poll. */
int __wrap_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts,
		 const sigset_t *mask)
{
	fake_vfio.polls++;
	return __real_ppoll(fds, n, ts, mask);
}

/* Counted: how a wait got its interrupt (test_irq_read_first). */
int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout)
{
	fake_vfio.polls++;
	return __real_poll(fds, n, timeout);
}

void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);

void *__wrap_malloc(size_t n)
{
	int *p = __real_malloc(n);

	for (size_t i = 0; p && fake_vfio.malloc_fill > 0 && i < n / sizeof(int); i++)
		p[i] = fake_vfio.malloc_fill;
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	if (fake_vfio.fail_calloc) {
		fake_vfio.fail_calloc = false;
		errno = ENOMEM;
		return NULL;
	}
	return __real_calloc(n, size);
}

int __real_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	unsigned long arg;
	struct stat st;
	va_list ap;

	va_start(ap, req);
	arg = va_arg(ap, unsigned long);
	va_end(ap);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return __real_ioctl(fd, req, arg);
	if (st.st_ino == container_ino)
		return container_ioctl(req, arg);
	if (st.st_ino == group_ino)
		return group_ioctl(req, arg);
	if (st.st_ino == device_ino)
		return device_ioctl(req, arg);
	return __real_ioctl(fd, req, arg);
}

void fake_vfio_device(void)
{
	fake_root();
	fake_pci_device("0000:00:01.0", "vfio-pci", 1);
	fake_vfio_setup("0000:00:01.0", 1);
}

struct udrv_vfio *fake_vfio_open(const char *spec, int expect)
{
	struct udrv_vfio *v = udrv_vfio_new();

	CHECK(v != NULL);
	CHECK_INT(udrv_vfio_open(v, spec), expect);
	return v;
}

struct udrv_vfio *fake_vfio_open_device(void)
{
	fake_vfio_device();
	return fake_vfio_open("0000:00:01.0", 0);
}
