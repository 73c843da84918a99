// SPDX-License-Identifier: GPL-2.0-only
/*
 * UIO and VFIO devices as the kernel names them, for io.udrv1.Devices
 * (bus/devices.c hands their fds out): sysfs_devices.h.
 *
 * A UIO device is checked as the node udrvd opened names it: the dev_t of
 * the open fd, looked up in /sys/dev/char/MAJ:MIN (its name, its parent
 * device), not a path read before the open. A VFIO group fd gives every
 * device of the IOMMU group (VFIO_GROUP_GET_DEVICE_FD takes any of them,
 * and they reach each other by DMA), so it is handed out only when the
 * policy grants the caller every device of the group.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <udrv/chip.h>
#include <udrv/parse.h>
#include <udrv/uio.h>

#include "sysfs_devices.h"
#include "internal.h"
#include "vfio/pci.h"

/* ---- UIO ---- */

/* The UIO devices whose name is @name now: their number; the first's
 * number into *@num, and "uio0 at 0000:00:04.0, ..." into @list. */
unsigned int udrvd_uio_named(const char *name, unsigned int *num, char *list, size_t len)
{
	char **nodes = NULL, path[UDRV_PATH_LEN], buf[64], dev[64];
	unsigned int count = 0, k;
	size_t used = 0;
	int n = udrv_uio_list(&nodes);

	list[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (udrv_path(path, sizeof(path), "/sys/class/uio/%s/name", nodes[i]) ||
		    udrv_read_str(path, buf, sizeof(buf)) < 0 || strcmp(buf, name) ||
		    udrv_parse_devnum(nodes[i], "uio", &k))
			continue;
		if (!count++)
			*num = k;
		if (udrv_path(path, sizeof(path), "/sys/class/uio/%s/device", nodes[i]) ||
		    udrv_link_name(path, dev, sizeof(dev)))
			snprintf(dev, sizeof(dev), "no parent device");
		if (used < len)
			used += (size_t)snprintf(list + used, len - used, "%s%s at %s",
						 used ? ", " : "", nodes[i], dev);
	}
	udrv_strv_free(nodes);
	return count;
}

/* The number of the UIO device @spec asks for: uioN, /dev/uioN, or the
 * name of one device (a name several have is refused: which one?). */
int udrvd_uio_wanted(const char *spec, unsigned int *num, struct udrvd_err *e)
{
	char list[256];
	unsigned int n;
	int err = udrv_parse_devnum(spec, "uio", num);

	if (err != -EINVAL) {
		if (err)
			return udrvd_fail(e, -EINVAL,
					  "UIO device number in '%s' is out of range", spec);
		return 0;
	}
	if (strlen(spec) >= UDRVD_NAME_MAX)
		return udrvd_fail(e, -EINVAL,
				  "no UIO device is called '%.64s...': names are shorter than %d bytes",
				  spec, UDRVD_NAME_MAX);
	n = udrvd_uio_named(spec, num, list, sizeof(list));
	if (n > 1)
		return udrvd_fail(e, -EINVAL,
				  "%u UIO devices are called '%s' (%s): ask for one by its node, uioN",
				  n, spec, list);
	return n ? 0 : 1;	/* 1: none, udrv_uio_open() says what there is */
}

/*
 * Which UIO device the node open on @fd is: its dev_t in /sys/dev/char
 * (a link to the device's sysfs folder, uioN, of subsystem uio), with the
 * name and parent device found there. 0, or -errno and @why.
 */
int udrvd_uio_identify(int fd, struct udrvd_uio_id *id, char *why, size_t len)
{
	char dir[UDRV_PATH_LEN], path[UDRV_PATH_LEN + 16], sub[16];
	struct stat sb;
	int err;

	if (fstat(fd, &sb)) {
		err = -errno;
		snprintf(why, len, "cannot be looked at (fstat): %s", strerror(-err));
		return err;
	}
	if (!S_ISCHR(sb.st_mode)) {
		snprintf(why, len, "is not a character device: not a UIO device's node");
		return -ENODEV;
	}
	if (udrv_path(dir, sizeof(dir), "/sys/dev/char/%u:%u", major(sb.st_rdev),
		      minor(sb.st_rdev))) {
		snprintf(why, len, "cannot be looked up: UDRV_SYSROOT is too long");
		return -ENAMETOOLONG;
	}
	snprintf(path, sizeof(path), "%s/subsystem", dir);
	if (udrv_link_name(dir, id->node, sizeof(id->node)) ||
	    udrv_parse_devnum(id->node, "uio", &id->num) ||
	    udrv_link_name(path, sub, sizeof(sub)) || strcmp(sub, "uio")) {
		snprintf(why, len, "is the node of %u:%u, which %s does not show as a UIO device",
			 major(sb.st_rdev), minor(sb.st_rdev), dir);
		return -ENODEV;
	}
	snprintf(path, sizeof(path), "%s/name", dir);
	err = udrv_read_str(path, id->name, sizeof(id->name));
	if (err < 0) {
		snprintf(why, len, "is %s, whose %s cannot be read: %s", id->node, path,
			 strerror(-err));
		return err;
	}
	snprintf(path, sizeof(path), "%s/device", dir);
	err = udrv_link_name(path, id->device, sizeof(id->device));
	if (err == -ENOENT)
		id->device[0] = '\0';
	else if (err) {
		snprintf(why, len, "is %s, whose parent device (%s) cannot be read: %s",
			 id->node, path, strerror(-err));
		return err;
	}
	id->same_name = udrvd_uio_named(id->name, &(unsigned int){ 0 }, why, len);
	why[0] = '\0';
	return 0;
}

/* ---- VFIO ---- */

/* A bridge of the group (the root port or switch port above a device
 * without ACS) is no device VFIO hands out: vfio-pci never binds one. */
static bool is_bridge(const char *bdf)
{
	uint32_t code;

	return !udrv_pci_class(bdf, &code) && udrv_pci_class_is_bridge(code);
}

/*
 * Does the policy grant the caller every device of @bdf's IOMMU group? A
 * group fd gives them all: VFIO_GROUP_GET_DEVICE_FD takes any device of
 * the group, and the devices of a group reach each other by DMA. Its
 * bridges need no rule (is_bridge()). A device without a group is left to
 * udrv_vfio_open() (no IOMMU: its message).
 */
int udrvd_vfio_group_check(const struct udrvd_policy *policy, const struct udrvd_caller *c,
			   const char *bdf, struct udrvd_err *e)
{
	char dir[UDRV_PATH_LEN], msg[UDRVD_MSG_LEN], lacking[UDRVD_MSG_LEN / 2];
	char fix[UDRVD_MSG_LEN / 2], other[UDRV_PCI_BDF_LEN];
	size_t used = 0, fixed = 0;
	unsigned int group, refused = 0;
	struct dirent *de;
	DIR *dp;
	int err = udrv_pci_iommu_group(bdf, &group);

	if (err == -ENOENT)
		return 0;
	dp = err || udrv_path(dir, sizeof(dir), "/sys/kernel/iommu_groups/%u/devices", group) ?
	     NULL : opendir(dir);
	if (!dp)
		return udrvd_fail(e, -EACCES,
				 "cannot list the IOMMU group of %s (/sys/bus/pci/devices/%s/iommu_group, /sys/kernel/iommu_groups/N/devices): a VFIO grant gives the whole group, so udrvd does not hand out one it cannot see",
				 bdf, bdf);
	lacking[0] = fix[0] = '\0';
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		bool pci = !udrv_pci_parse_bdf(de->d_name, other) && !strcmp(other, de->d_name);

		if (pci && (is_bridge(other) || !udrvd_policy_vfio(policy, c, other, msg)))
			continue;
		refused++;
		if (used < sizeof(lacking))
			used += (size_t)snprintf(lacking + used, sizeof(lacking) - used, "%s%s%s",
						 used ? ", " : "", de->d_name,
						 pci ? "" : " (not a PCI device: no rule can name it)");
		if (pci && fixed < sizeof(fix))
			fixed += (size_t)snprintf(fix + fixed, sizeof(fix) - fixed,
						  "%sallow ... open vfio %s", fixed ? "; " : "", other);
	}
	closedir(dp);
	if (!refused)
		return 0;
	return udrvd_fail(e, -EACCES,
			 "the policy refuses uid %u 'open' on vfio device %s: its IOMMU group %u holds %s too, which the caller has no rule for, and a VFIO group gives every device in it (and DMA between them); grant each (%s) or give the device a group of its own (ACS, another slot)",
			 (unsigned int)c->uid, bdf, group, lacking, fixed ? fix : "none can be granted");
}
