// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Opening a PCI device through VFIO: the device in sysfs (its IOMMU group,
 * its driver), the type1 container, the group (viable?), the device fd, and
 * what VFIO says about it. Every step that fails says why and what to do:
 * the kernel's own errors are a bare EPERM or EBUSY.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vfio/vfio_priv.h"

#define VFIO_DRIVER	"vfio-pci"
#define UNSAFE_IRQS	"/sys/module/vfio_iommu_type1/parameters/allow_unsafe_interrupts"

static int no_iommu(struct udrv_vfio *v)
{
	return udrv_err(v->errmsg, ENXIO,
			"%s has no IOMMU group (no iommu_group link in /sys/bus/pci/devices/%s): the kernel runs without an IOMMU; boot with intel_iommu=on (Intel) or amd_iommu=on (AMD), and enable VT-d / AMD-Vi in the firmware",
			v->bdf, v->bdf);
}

/* The 24-bit class code of the device (sysfs class); 0 or -errno. */
static int read_class(struct udrv_vfio *v, uint32_t *code)
{
	int ret = udrv_pci_class(v->bdf, code);

	if (ret == -ENAMETOOLONG)
		return udrv_path_err(v->errmsg, v->bdf);
	if (ret)
		return udrv_err(v->errmsg, EIO,
				"cannot read /sys/bus/pci/devices/%s/class (a 24-bit class code)",
				v->bdf);
	return 0;
}

/*
 * vfio-pci's probe takes header type 0 devices only: a PCI-to-PCI bridge
 * (class 0x0604, 0x0609) or a CardBus bridge (0x0607) is refused, whatever
 * it is bound to now, so binding commands would not help.
 */
static int check_not_bridge(struct udrv_vfio *v)
{
	uint32_t code = 0;

	if (read_class(v, &code))
		return 0;	/* unknown: the driver's message follows */
	if (!udrv_pci_class_is_bridge(code))
		return 0;
	return udrv_err(v->errmsg, EINVAL,
			"%s is a PCI bridge (class 0x%06x): vfio-pci takes only endpoint devices (PCI header type 0) and refuses a bridge whatever it is bound to; open a device behind it (lspci -t shows them)",
			v->bdf, code);
}

static int check_driver(struct udrv_vfio *v)
{
	char driver[64], hint[UDRV_ERRMSG_LEN - 128], path[UDRV_PATH_LEN];
	int ret;

	ret = udrv_pci_driver_of(v->bdf, driver, sizeof(driver));
	if (ret)
		return udrv_err(v->errmsg, -ret,
				"cannot read the driver of %s: %s", v->bdf,
				strerror(-ret));
	if (!strcmp(driver, VFIO_DRIVER))
		return 0;
	ret = check_not_bridge(v);
	if (ret)
		return ret;
	udrv_pci_bind_hint(hint, sizeof(hint), v->bdf, VFIO_DRIVER);
	if (udrv_path(path, sizeof(path), "/sys/bus/pci/drivers/" VFIO_DRIVER))
		return udrv_path_err(v->errmsg, VFIO_DRIVER);
	if (!udrv_path_exists(path))
		return udrv_err(v->errmsg, ENOENT,
				"vfio-pci is not loaded (no %s): modprobe vfio-pci, then bind %s (%s) to it: %s",
				path, v->bdf, driver[0] ? driver : "no driver",
				hint);
	if (driver[0])
		return udrv_err(v->errmsg, EBUSY,
				"%s is bound to %s, not vfio-pci: %s", v->bdf,
				driver, hint);
	return udrv_err(v->errmsg, ENODEV,
			"%s is bound to no driver, not vfio-pci: %s", v->bdf,
			hint);
}

static int find_device(struct udrv_vfio *v, const char *spec)
{
	unsigned int group;
	int ret;

	ret = udrv_pci_resolve(spec, v->bdf, v->errmsg);
	if (ret)
		return ret;
	udrv_strlcpy(v->info.bdf, v->bdf, sizeof(v->info.bdf));
	ret = udrv_pci_iommu_group(v->bdf, &group);
	if (ret == -ENOENT)
		return no_iommu(v);
	if (ret)
		return udrv_err(v->errmsg, EIO,
				"cannot read the IOMMU group of %s (/sys/bus/pci/devices/%s/iommu_group): %s",
				v->bdf, v->bdf,
				ret == -EINVAL ? "not a group number" : strerror(-ret));
	v->info.iommu_group = group;
	snprintf(v->group_path, sizeof(v->group_path), "/dev/vfio/%u", group);
	return check_driver(v);
}

/* IDs and class from sysfs (what lspci -n shows). */
static int read_ids(struct udrv_vfio *v)
{
	static const char *const attrs[] = {
		"vendor", "device", "subsystem_vendor", "subsystem_device",
	};
	uint16_t *ids[] = {
		&v->info.vendor, &v->info.device, &v->info.subsystem_vendor,
		&v->info.subsystem_device,
	};

	for (size_t i = 0; i < ARRAY_SIZE(attrs); i++)
		if (udrv_pci_read_id(v->bdf, attrs[i], ids[i]))
			return udrv_err(v->errmsg, EIO,
					"cannot read /sys/bus/pci/devices/%s/%s (a 16-bit ID)",
					v->bdf, attrs[i]);
	return read_class(v, &v->info.class_code);
}

/*
 * Does a device bound to @driver keep its group from being viable? No
 * driver, vfio-pci, and the drivers that do not use the kernel's DMA API
 * (driver_managed_dma in 6.1: pci-stub, pcieport) leave it viable.
 */
static bool claims_dma(const char *driver)
{
	static const char *const fine[] = { "", "vfio-pci", "pci-stub",
					    "pcieport" };

	for (size_t i = 0; i < ARRAY_SIZE(fine); i++)
		if (!strcmp(driver, fine[i]))
			return false;
	return true;
}

/* Append the devices of @dir except @bdf: those that claim DMA, or all. */
static size_t list_group(DIR *d, const char *bdf, bool culprits, char *buf,
			 size_t len)
{
	char driver[64];
	size_t used = 0;
	struct dirent *de;

	buf[0] = '\0';
	rewinddir(d);
	while ((de = readdir(d)) && used < len) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, bdf))
			continue;
		if (udrv_pci_driver_of(de->d_name, driver, sizeof(driver)))
			snprintf(driver, sizeof(driver), "?");
		if (culprits && !claims_dma(driver))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s (%s)",
					 used ? ", " : "", de->d_name,
					 driver[0] ? driver : "no driver");
	}
	return used;
}

/*
 * The devices that keep group @group from being viable, with their
 * drivers: "0000:01:02.0 (uio_pci_generic)"; when none of them is bound
 * to such a driver, every other device of the group.
 */
void udrv_vfio_group_devices(const char *bdf, unsigned int group, char *buf,
			     size_t len)
{
	char dir[UDRV_PATH_LEN];
	DIR *d;

	if (udrv_path(dir, sizeof(dir), "/sys/kernel/iommu_groups/%u/devices",
		      group) || !(d = opendir(dir))) {
		snprintf(buf, len, "(cannot list /sys/kernel/iommu_groups/%u/devices)",
			 group);
		return;
	}
	if (!list_group(d, bdf, true, buf, len))
		list_group(d, bdf, false, buf, len);
	closedir(d);
}

/* Who may open /dev/vfio/N, and how to let a user do it. */
void udrv_vfio_node_hint(const char *path, char *buf, size_t len)
{
	size_t n;

	udrv_access_hint(buf, len, EACCES, path);
	n = strlen(buf);
	snprintf(buf + n, len - n, "; and raise RLIMIT_MEMLOCK (ulimit -l) for DMA");
}

static int open_node(struct udrv_vfio *v, const char *node, int *fdp)
{
	char path[UDRV_PATH_LEN], hint[UDRV_ERRMSG_LEN - 128];
	int err;

	if (udrv_path(path, sizeof(path), "%s", node))
		return udrv_path_err(v->errmsg, node);
	*fdp = open(path, O_RDWR | O_CLOEXEC);
	if (*fdp >= 0)
		return 0;
	err = errno;
	if (err == EACCES || err == EPERM) {
		udrv_vfio_node_hint(path, hint, sizeof(hint));
		return udrv_err(v->errmsg, err, "cannot open %s (%s): %s (%s)",
				path, v->bdf, strerror(err), hint);
	}
	if (err == EBUSY)
		return udrv_err(v->errmsg, EBUSY,
				"cannot open %s (%s): the group is open already (by another process: QEMU, DPDK, another udrv; or by another handle of this one): VFIO lets one have it at a time",
				path, v->bdf);
	if (err == ENOENT)
		return udrv_err(v->errmsg, ENOENT,
				"%s does not exist although %s is on vfio-pci: the vfio module is not loaded (modprobe vfio-pci) or /dev is not devtmpfs",
				path, v->bdf);
	return udrv_err(v->errmsg, err, "cannot open %s (%s): %s", path,
			v->bdf, strerror(err));
}

static int open_container(struct udrv_vfio *v, unsigned long *type)
{
	int ret, api;

	ret = open_node(v, "/dev/vfio/vfio", &v->container_fd);
	if (ret)
		return ret;
	api = ioctl(v->container_fd, VFIO_GET_API_VERSION);
	if (api != VFIO_API_VERSION)
		return udrv_err(v->errmsg, ENOTSUP,
				"/dev/vfio/vfio speaks VFIO API %d, udrv %d", api,
				VFIO_API_VERSION);
	*type = VFIO_TYPE1v2_IOMMU;
	if (ioctl(v->container_fd, VFIO_CHECK_EXTENSION, *type) > 0)
		return 0;
	*type = VFIO_TYPE1_IOMMU;
	if (ioctl(v->container_fd, VFIO_CHECK_EXTENSION, *type) > 0)
		return 0;
	return udrv_err(v->errmsg, ENOTSUP,
			"VFIO has no type1 IOMMU backend: modprobe vfio_iommu_type1");
}

static int check_viable(struct udrv_vfio *v)
{
	struct vfio_group_status st = { .argsz = sizeof(st) };
	char others[UDRV_ERRMSG_LEN - 160];

	if (ioctl(v->group_fd, VFIO_GROUP_GET_STATUS, &st))
		return udrv_err(v->errmsg, errno, "VFIO_GROUP_GET_STATUS on %s: %s",
				v->group_path, strerror(errno));
	if (st.flags & VFIO_GROUP_FLAGS_VIABLE)
		return 0;
	udrv_vfio_group_devices(v->bdf, v->info.iommu_group, others,
				sizeof(others));
	return udrv_err(v->errmsg, EBUSY,
			"IOMMU group %u of %s is not viable: the devices of a group share it, and %s must be bound to vfio-pci too, or unbound from their drivers (udrv_pci_bind() with the driver \"vfio-pci\" or \"\")",
			v->info.iommu_group, v->bdf, others);
}

static int no_remapping(struct udrv_vfio *v)
{
	char path[UDRV_PATH_LEN], val[8] = "?";

	if (!udrv_path(path, sizeof(path), UNSAFE_IRQS))
		udrv_read_str(path, val, sizeof(val));
	return udrv_err(v->errmsg, EPERM,
			"VFIO refuses %s: the IOMMU has no interrupt remapping and allow_unsafe_interrupts (%s) is %s; turn remapping on (intremap=on; VT-d / AMD-Vi interrupt remapping in the firmware), or accept that the device can raise any interrupt: vfio_iommu_type1.allow_unsafe_interrupts=1",
			v->bdf, UNSAFE_IRQS, val);
}

static int attach_group(struct udrv_vfio *v, unsigned long type)
{
	if (ioctl(v->group_fd, VFIO_GROUP_SET_CONTAINER, &v->container_fd))
		return udrv_err(v->errmsg, errno,
				"VFIO_GROUP_SET_CONTAINER for %s: %s", v->group_path,
				strerror(errno));
	if (!ioctl(v->container_fd, VFIO_SET_IOMMU, type))
		return 0;
	if (errno == EPERM)
		return no_remapping(v);
	return udrv_err(v->errmsg, errno, "VFIO_SET_IOMMU (type1) for %s: %s",
			v->group_path, strerror(errno));
}

static int irq_counts(struct udrv_vfio *v)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(v->info.irq_count); i++) {
		struct vfio_irq_info irq = { .argsz = sizeof(irq), .index = i };

		if (ioctl(v->device_fd, VFIO_DEVICE_GET_IRQ_INFO, &irq))
			return udrv_err(v->errmsg, errno,
					"VFIO_DEVICE_GET_IRQ_INFO %u of %s: %s", i,
					v->bdf, strerror(errno));
		v->info.irq_count[i] = irq.count;
	}
	return 0;
}

/* What VFIO says of the device fd: a PCI device, its regions and irqs. */
static int device_info(struct udrv_vfio *v)
{
	struct vfio_device_info dev = { .argsz = sizeof(dev) };
	struct vfio_region_info cfg = {
		.argsz = sizeof(cfg), .index = VFIO_PCI_CONFIG_REGION_INDEX,
	};

	if (ioctl(v->device_fd, VFIO_DEVICE_GET_INFO, &dev))
		return udrv_err(v->errmsg, errno, "VFIO_DEVICE_GET_INFO of %s: %s",
				v->bdf, strerror(errno));
	if (!(dev.flags & VFIO_DEVICE_FLAGS_PCI) ||
	    dev.num_regions <= VFIO_PCI_CONFIG_REGION_INDEX)
		return udrv_err(v->errmsg, ENOTSUP,
				"%s is not a PCI device to VFIO (flags 0x%x, %u regions)",
				v->bdf, dev.flags, dev.num_regions);
	v->info.num_regions = dev.num_regions;
	v->info.can_reset = dev.flags & VFIO_DEVICE_FLAGS_RESET;
	if (ioctl(v->device_fd, VFIO_DEVICE_GET_REGION_INFO, &cfg))
		return udrv_err(v->errmsg, errno,
				"VFIO_DEVICE_GET_REGION_INFO (config) of %s: %s",
				v->bdf, strerror(errno));
	v->config_offset = cfg.offset;
	return irq_counts(v);
}

static int get_device(struct udrv_vfio *v)
{
	v->device_fd = ioctl(v->group_fd, VFIO_GROUP_GET_DEVICE_FD, v->bdf);
	if (v->device_fd < 0)
		return udrv_err(v->errmsg, errno,
				"VFIO_GROUP_GET_DEVICE_FD %s on %s: %s", v->bdf,
				v->group_path, strerror(errno));
	return device_info(v);
}

/* The VFIO side: container, group, device. */
static int vfio_attach(struct udrv_vfio *v)
{
	unsigned long type;
	int ret;

	ret = open_container(v, &type);
	if (!ret)
		ret = open_node(v, v->group_path, &v->group_fd);
	if (!ret)
		ret = check_viable(v);
	if (!ret)
		ret = attach_group(v, type);
	if (!ret)
		ret = get_device(v);
	return ret;
}

/* What udrv_vfio_open() and udrv_vfio_open_fds() do once the device is
 * theirs: its request irq, the DMA windows and mask, bus mastering. */
static int vfio_ready(struct udrv_vfio *v)
{
	int ret;

	udrv_vfio_req_enable(v);
	udrv_vfio_dma_windows(v);
	ret = udrv_vfio_set_dma_mask(v, VFIO_DEFAULT_DMA_BITS);
	if (!ret)
		ret = udrv_vfio_bus_master(v, true);
	return ret;
}

/* The device @spec names, in sysfs: address, group, driver, IDs. */
static int vfio_find(struct udrv_vfio *v, const char *spec)
{
	int ret;

	udrv_vfio_close(v);
	v->errmsg[0] = '\0';
	if (!spec || !*spec)
		return udrv_err(v->errmsg, EINVAL,
				"no PCI device given: use its address (0000:00:01.0) or vendor:device (1234:11e8); /sys/bus/pci/devices lists them");
	ret = find_device(v, spec);
	return ret ? ret : read_ids(v);
}

int udrv_vfio_open(struct udrv_vfio *v, const char *spec)
{
	int ret = vfio_find(v, spec);

	if (!ret)
		ret = vfio_attach(v);
	if (!ret)
		ret = vfio_ready(v);
	if (ret)
		udrv_vfio_close(v);	/* keeps the message */
	return ret;
}

/* Take @fd as @what (into *@dst) if it is the node @node. */
static int adopt_node(struct udrv_vfio *v, int fd, const char *node,
		      const char *what, int *dst)
{
	char path[UDRV_PATH_LEN];
	int ret;

	if (udrv_path(path, sizeof(path), "%s", node))
		return udrv_path_err(v->errmsg, node);
	ret = udrv_fd_is(fd, path);
	if (ret == -EBADF)
		return udrv_err(v->errmsg, EBADF,
				"the %s file descriptor %d given for %s is not open",
				what, fd, v->bdf);
	if (ret)
		return udrv_err(v->errmsg, EINVAL,
				"the %s file descriptor %d given for %s is not %s%s%s",
				what, fd, v->bdf, path, ret == -EINVAL ? "" : ": ",
				ret == -EINVAL ? "" : strerror(-ret));
	*dst = fd;
	return 0;
}

/* The group is viable and in a container whose IOMMU is set. */
static int check_adopted(struct udrv_vfio *v)
{
	struct vfio_group_status st = { .argsz = sizeof(st) };
	struct vfio_iommu_type1_info iommu = { .argsz = sizeof(iommu) };

	if (ioctl(v->container_fd, VFIO_GET_API_VERSION) != VFIO_API_VERSION)
		return udrv_err(v->errmsg, ENOTSUP,
				"the container given for %s speaks another VFIO API than udrv's %d",
				v->bdf, VFIO_API_VERSION);
	if (ioctl(v->group_fd, VFIO_GROUP_GET_STATUS, &st))
		return udrv_err(v->errmsg, errno, "VFIO_GROUP_GET_STATUS on %s: %s",
				v->group_path, strerror(errno));
	if (!(st.flags & VFIO_GROUP_FLAGS_CONTAINER_SET) ||
	    ioctl(v->container_fd, VFIO_IOMMU_GET_INFO, &iommu))
		return udrv_err(v->errmsg, EINVAL,
				"the group %s given for %s is not in a container with an IOMMU: whoever opened it must attach it (VFIO_GROUP_SET_CONTAINER, VFIO_SET_IOMMU) before handing it over",
				v->group_path, v->bdf);
	return 0;
}

/* The device fd is the device: VFIO's info, and its IDs as sysfs has them. */
static int check_device(struct udrv_vfio *v)
{
	uint16_t ids[2];
	int ret = device_info(v);

	if (!ret)
		ret = udrv_vfio_config_read(v, 0, ids, sizeof(ids));
	if (ret)
		return ret;
	if (ids[0] == v->info.vendor && ids[1] == v->info.device)
		return 0;
	return udrv_err(v->errmsg, EINVAL,
			"the device file descriptor given for %s is another device: %04x:%04x in its config space, %04x:%04x in sysfs",
			v->bdf, ids[0], ids[1], v->info.vendor, v->info.device);
}

static int vfio_adopt(struct udrv_vfio *v, int container, int group, int device)
{
	int ret;

	ret = adopt_node(v, container, "/dev/vfio/vfio", "container", &v->container_fd);
	if (!ret)
		ret = adopt_node(v, group, v->group_path, "group", &v->group_fd);
	if (!ret)
		ret = check_adopted(v);
	if (ret)
		return ret;
	if (fcntl(device, F_GETFD) < 0)
		return udrv_err(v->errmsg, EBADF,
				"the device file descriptor %d given for %s is not open",
				device, v->bdf);
	v->device_fd = device;
	return check_device(v);
}

int udrv_vfio_open_fds(struct udrv_vfio *v, const char *spec, int container,
		       int group, int device)
{
	int ret = vfio_find(v, spec);

	if (!ret)
		ret = vfio_adopt(v, container, group, device);
	if (!ret)
		ret = vfio_ready(v);
	if (ret) {
		/* still the caller's */
		v->container_fd = v->group_fd = v->device_fd = -1;
		udrv_vfio_close(v);
	}
	return ret;
}
