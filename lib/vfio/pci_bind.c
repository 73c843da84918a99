// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Binding a PCI device to a driver through sysfs (what driverctl does:
 * unbind, driver_override, drivers_probe, check), the driver a device is
 * bound to, the devices on vfio-pci, and why there are none.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/chip.h>
#include <udrv/vfio.h>

#include "internal.h"
#include "vfio/pci.h"

static void copy_msg(char *errbuf, size_t errlen, const char *msg)
{
	if (errbuf && errlen)
		udrv_strlcpy(errbuf, msg, errlen);
}

/* Write @s to @bdf's @attr, or the bus's @attr when @bdf is NULL. */
static int pci_write(const char *bdf, const char *attr, const char *s,
		     char *msg)
{
	char path[UDRV_PATH_LEN];
	int ret;

	ret = bdf ? udrv_pci_path(path, sizeof(path), bdf, attr) :
		    udrv_path(path, sizeof(path), "/sys/bus/pci/%s", attr);
	if (ret)
		return udrv_path_err(msg, attr);
	ret = udrv_write_str(path, s);
	if (ret == -EACCES || ret == -EPERM)
		return udrv_err(msg, -ret,
				"cannot write '%s' to %s: %s (binding drivers needs root)",
				s, path, strerror(-ret));
	if (ret)
		return udrv_err(msg, -ret, "cannot write '%s' to %s: %s", s,
				path, strerror(-ret));
	return 0;
}

static int check_driver_name(const char *driver, char *msg)
{
	if (!driver || strchr(driver, '/') || strlen(driver) >= 64 ||
	    !strcmp(driver, ".") || !strcmp(driver, ".."))
		return udrv_err(msg, EINVAL,
				"'%s' is not a driver name (vfio-pci, uio_pci_generic, or \"\" for none)",
				driver ? driver : "(null)");
	return 0;
}

static int check_loaded(const char *driver, char *msg)
{
	char path[UDRV_PATH_LEN];

	if (!driver[0])
		return 0;
	if (udrv_path(path, sizeof(path), "/sys/bus/pci/drivers/%s", driver))
		return udrv_path_err(msg, driver);
	if (!udrv_path_exists(path))
		return udrv_err(msg, ENOENT,
				"PCI driver %s is not loaded (no %s): modprobe %s",
				driver, path, driver);
	return 0;
}

static int check_iommu(const char *bdf, const char *driver, char *msg)
{
	unsigned int group;

	if (strcmp(driver, "vfio-pci") ||
	    udrv_pci_iommu_group(bdf, &group) != -ENOENT)
		return 0;
	return udrv_err(msg, ENXIO,
			"vfio-pci cannot take %s: it has no IOMMU group (the kernel runs without an IOMMU); boot with intel_iommu=on (Intel) or amd_iommu=on (AMD), and enable VT-d / AMD-Vi in the firmware",
			bdf);
}

/* Unbind, override, probe: the steps, without the checks around them. */
static int rebind(const char *bdf, const char *from, const char *driver,
		  char *msg)
{
	int ret = 0;

	if (from[0])
		ret = pci_write(bdf, "driver/unbind", bdf, msg);
	if (!ret)
		ret = pci_write(bdf, "driver_override",
				driver[0] ? driver : "\n", msg);
	if (!ret && driver[0])
		ret = pci_write(NULL, "drivers_probe", bdf, msg);
	return ret;
}

/*
 * @driver did not take @bdf: clear driver_override and probe again, so
 * that the driver it had (when it matches by ID) takes it back instead of
 * leaving it unbound, and say where it is now.
 */
static int refused(const char *bdf, const char *from, const char *driver,
		   char *msg)
{
	char ignore[UDRV_ERRMSG_LEN], now[64] = "";

	if (!pci_write(bdf, "driver_override", "\n", ignore) && from[0])
		(void)pci_write(NULL, "drivers_probe", bdf, ignore);
	if (udrv_pci_driver_of(bdf, now, sizeof(now)))
		now[0] = '\0';
	return udrv_err(msg, EIO,
			"%s refused %s (dmesg says why); driver_override cleared, the device is now on %s",
			driver, bdf, now[0] ? now : "no driver");
}

static int pci_bind(const char *spec, const char *driver, char *msg)
{
	char bdf[UDRV_PCI_BDF_LEN], from[64], now[64];
	int ret;

	ret = udrv_pci_resolve(spec, bdf, msg);
	if (!ret)
		ret = check_driver_name(driver, msg);
	if (!ret)
		ret = udrv_pci_driver_of(bdf, from, sizeof(from));
	if (ret)
		return msg[0] ? ret : udrv_err(msg, -ret,
					       "cannot read the driver of %s: %s",
					       bdf, strerror(-ret));
	if (!strcmp(from, driver))
		return 0;
	/* no IOMMU first: without one, loading vfio-pci does not help */
	ret = check_iommu(bdf, driver, msg);
	if (!ret)
		ret = check_loaded(driver, msg);
	if (!ret)
		ret = rebind(bdf, from, driver, msg);
	if (ret)
		return ret;
	if (udrv_pci_driver_of(bdf, now, sizeof(now)) || strcmp(now, driver))
		return refused(bdf, from, driver, msg);
	return 0;
}

int udrv_pci_bind(const char *spec, const char *driver, char *errbuf,
		  size_t errlen)
{
	char msg[UDRV_ERRMSG_LEN] = "";
	int ret = pci_bind(spec, driver, msg);

	copy_msg(errbuf, errlen, ret ? msg : "");
	return ret;
}

int udrv_pci_driver(const char *spec, char *buf, size_t len, char *errbuf,
		    size_t errlen)
{
	char msg[UDRV_ERRMSG_LEN] = "", bdf[UDRV_PCI_BDF_LEN];
	int ret;

	ret = udrv_pci_resolve(spec, bdf, msg);
	if (!ret) {
		ret = udrv_pci_driver_of(bdf, buf, len);
		if (ret)
			udrv_err(msg, -ret, "cannot read the driver of %s: %s",
				 bdf, ret == -EINVAL ? "name too long" :
				 strerror(-ret));
	}
	copy_msg(errbuf, errlen, ret ? msg : "");
	return ret;
}

int udrv_vfio_list(char ***bdfs)
{
	char dir[UDRV_PATH_LEN];
	int n;

	*bdfs = NULL;
	if (udrv_path(dir, sizeof(dir), "/sys/bus/pci/drivers/vfio-pci"))
		return -ENAMETOOLONG;
	n = udrv_pci_list_dir(dir, bdfs);
	if (n != -ENOENT)
		return n;
	*bdfs = calloc(1, sizeof(**bdfs));
	return *bdfs ? 0 : -ENOMEM;
}

/* Does /sys/kernel/iommu_groups hold a group? */
static bool have_iommu_groups(void)
{
	char dir[UDRV_PATH_LEN];
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (udrv_path(dir, sizeof(dir), "/sys/kernel/iommu_groups") ||
	    !(d = opendir(dir)))
		return false;
	while (!found && (de = readdir(d)))
		found = de->d_name[0] != '.';
	closedir(d);
	return found;
}

void udrv_vfio_absent_reason(char *buf, size_t len)
{
	char path[UDRV_PATH_LEN];

	if (udrv_path(path, sizeof(path), "/sys/bus/pci/drivers/vfio-pci")) {
		snprintf(buf, len, "UDRV_SYSROOT is too long: cannot look for VFIO devices under '%.200s'",
			 udrv_sysroot());
		return;
	}
	if (!have_iommu_groups())
		snprintf(buf, len,
			 "no VFIO devices: the kernel runs without an IOMMU (no /sys/kernel/iommu_groups/*); boot with intel_iommu=on (Intel) or amd_iommu=on (AMD), and enable VT-d / AMD-Vi in the firmware");
	else if (!udrv_path_exists(path))
		snprintf(buf, len,
			 "no VFIO devices: vfio-pci is not loaded (%s does not exist): modprobe vfio-pci",
			 path);
	else
		snprintf(buf, len,
			 "no VFIO devices: no PCI device is bound to vfio-pci; bind one through /sys/bus/pci/devices/BDF/driver_override, or with udrv_pci_bind() (lspci -Dnn lists the devices)");
}
