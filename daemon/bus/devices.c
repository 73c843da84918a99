// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.udrv1.Devices (/io/udrv1): one UIO or VFIO device for one client.
 *
 * The kernel gives UIO and VFIO devices permissions per node, and a group
 * rule gives a user every device of its kind. udrvd opens the one device
 * the policy's `open uio NAME|device:DEVICE` / `open vfio ADDRESS` rules
 * grant the caller and hands over what its own open gave: the UIO node's
 * fd, or VFIO's container, group and device fds (the way libvirt hands
 * QEMU a device).
 *
 * A UIO device is checked as the node udrvd opened names it: the dev_t of
 * the open fd, looked up in /sys/dev/char/MAJ:MIN (its name, its parent
 * device), not a path read before the open. A VFIO group fd gives every
 * device of the IOMMU group (VFIO_GROUP_GET_DEVICE_FD takes any of them,
 * and they reach each other by DMA), so it is handed out only when the
 * policy grants the caller every device of the group.
 * The client takes them with udrv_uio_open_fd() / udrv_vfio_open_fds().
 * udrvd keeps nothing open: the device is the client's until it closes the
 * fds or exits, and VFIO lets one process have a group at a time. What the
 * client may do then is what the kernel allows whoever holds those fds:
 * the broker decides who gets a device, not what is done with it (udrvd(8),
 * docs/udrvd.md).
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
#include <udrv/vfio.h>

#include "internal.h"
#include "pci.h"
#include "caller.h"
#include "devices.h"

static int refuse(sd_bus_error *error, const char *msg)
{
	return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, msg);
}

/* ---- UIO ---- */

/* A UIO device as the sysfs of its node's dev_t names it. */
struct uio_id {
	unsigned int num;
	char node[16];			/* uioN */
	char name[64];			/* the driver's name for it */
	char device[64];		/* its parent device, "" without one */
	unsigned int same_name;		/* UIO devices with that name now */
};

/* The UIO devices whose name is @name now: their number; the first's
 * number into *@num, and "uio0 at 0000:00:04.0, ..." into @list. */
static unsigned int uio_named(const char *name, unsigned int *num, char *list, size_t len)
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
static int uio_wanted(const char *spec, unsigned int *num, sd_bus_error *error)
{
	char list[256];
	unsigned int n;
	int err = udrv_parse_devnum(spec, "uio", num);

	if (err != -EINVAL) {
		if (err)
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
						 "UIO device number in '%s' is out of range", spec);
		return 0;
	}
	if (strlen(spec) >= UDRVD_NAME_MAX)
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "no UIO device is called '%.64s...': names are shorter than %d bytes",
					 spec, UDRVD_NAME_MAX);
	n = uio_named(spec, num, list, sizeof(list));
	if (n > 1)
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "%u UIO devices are called '%s' (%s): ask for one by its node, uioN",
					 n, spec, list);
	return n ? 0 : 1;	/* 1: none, udrv_uio_open() says what there is */
}

/*
 * Which UIO device the node open on @fd is: its dev_t in /sys/dev/char
 * (a link to the device's sysfs folder, uioN, of subsystem uio), with the
 * name and parent device found there. 0, or -errno and @why.
 */
static int uio_identify(int fd, struct uio_id *id, char *why, size_t len)
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
	id->same_name = uio_named(id->name, &(unsigned int){ 0 }, why, len);
	why[0] = '\0';
	return 0;
}

/* The UIO device udrvd has open in @uio, against the policy, as its
 * node's dev_t names it; @num is the device that was asked for. */
static int uio_check(struct udrvd *d, sd_bus_message *m, struct udrv_uio *uio,
		     unsigned int num, sd_bus_error *error)
{
	char msg[UDRVD_MSG_LEN], why[256];
	struct udrvd_creds who;
	struct uio_id id;
	int err = uio_identify(udrv_uio_fd(uio), &id, why, sizeof(why));

	if (err)
		return sd_bus_error_setf(error, SD_BUS_ERROR_FILE_NOT_FOUND,
					 "/dev/%s %s", udrv_uio_devname(uio), why);
	err = udrvd_caller_of(m, &who, error);
	if (err < 0)
		return err;
	struct udrvd_uio_dev dev = { id.node, id.name, id.device, id.same_name };

	err = udrvd_policy_uio_dev(d->policy, &who.caller, &dev, msg);
	udrvd_caller_done(&who);
	if (err < 0)
		return refuse(error, msg);
	if (id.num != num)	/* a stale node, or another device since */
		return sd_bus_error_setf(error, SD_BUS_ERROR_FILE_NOT_FOUND,
					 "/dev/%s is now the node of %s (%s), not of uio%u: ask again",
					 udrv_uio_devname(uio), id.node, id.name, num);
	return 0;
}

/* io.udrv1.Devices.OpenUio(s device) -> (s node, h fd) */
static int method_open_uio(sd_bus_message *m, void *data, sd_bus_error *error)
{
	char node[16];
	struct udrv_uio *uio;
	const char *spec;
	unsigned int num = 0;
	int err = sd_bus_message_read(m, "s", &spec);

	if (err < 0)
		return err;
	if (!*spec)
		return sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS,
					"no UIO device given: its name (/sys/class/uio/uioN/name) or uioN");
	err = uio_wanted(spec, &num, error);
	if (err < 0)
		return err;
	if (err == 0)
		snprintf(node, sizeof(node), "uio%u", num);
	uio = udrv_uio_new();
	if (!uio)
		return -ENOMEM;
	/* opened first, then checked: the check is of the node's own dev_t */
	err = udrv_uio_open(uio, err ? spec : node);
	if (err < 0)
		err = sd_bus_error_set_errnof(error, -err, "%s", udrv_uio_errmsg(uio));
	else if (udrv_parse_devnum(udrv_uio_devname(uio), "uio", &num))
		err = -EIO;
	else
		err = uio_check(data, m, uio, num, error);
	if (err >= 0)
		err = sd_bus_reply_method_return(m, "sh", udrv_uio_devname(uio),
						 udrv_uio_fd(uio));
	udrv_uio_free(uio);
	return err;
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
static int vfio_group_check(struct udrvd *d, const struct udrvd_caller *c,
			    const char *bdf, sd_bus_error *error)
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
		return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
					 "cannot list the IOMMU group of %s (/sys/bus/pci/devices/%s/iommu_group, /sys/kernel/iommu_groups/N/devices): a VFIO grant gives the whole group, so udrvd does not hand out one it cannot see",
					 bdf, bdf);
	lacking[0] = fix[0] = '\0';
	while ((de = readdir(dp))) {
		if (de->d_name[0] == '.')
			continue;
		bool pci = !udrv_pci_parse_bdf(de->d_name, other) && !strcmp(other, de->d_name);

		if (pci && (is_bridge(other) || !udrvd_policy_vfio(d->policy, c, other, msg)))
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
	return sd_bus_error_setf(error, SD_BUS_ERROR_ACCESS_DENIED,
				 "the policy refuses uid %u 'open' on vfio device %s: its IOMMU group %u holds %s too, which the caller has no rule for, and a VFIO group gives every device in it (and DMA between them); grant each (%s) or give the device a group of its own (ACS, another slot)",
				 (unsigned int)c->uid, bdf, group, lacking,
				 fixed ? fix : "none can be granted");
}

/* The device itself, then its IOMMU group. */
static int vfio_check(struct udrvd *d, sd_bus_message *m, const char *bdf,
		      sd_bus_error *error)
{
	char msg[UDRVD_MSG_LEN];
	struct udrvd_creds who;
	int err = udrvd_caller_of(m, &who, error);

	if (err < 0)
		return err;
	err = udrvd_policy_vfio(d->policy, &who.caller, bdf, msg);
	if (err < 0)
		err = refuse(error, msg);
	else
		err = vfio_group_check(d, &who.caller, bdf, error);
	udrvd_caller_done(&who);
	return err;
}

/* io.udrv1.Devices.OpenVfio(s address) -> (h container, h group, h device) */
static int method_open_vfio(sd_bus_message *m, void *data, sd_bus_error *error)
{
	char bdf[UDRV_PCI_BDF_LEN];
	struct udrv_vfio *v;
	const char *spec;
	int err = sd_bus_message_read(m, "s", &spec);

	if (err < 0)
		return err;
	if (udrv_pci_parse_bdf(spec, bdf))
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "'%.64s' is not a PCI address: udrvd opens VFIO devices by address (0000:01:00.0 or 01:00.0), as its policy names them",
					 spec);
	err = vfio_check(data, m, bdf, error);
	if (err < 0)
		return err;
	v = udrv_vfio_new();
	if (!v)
		return -ENOMEM;
	err = udrv_vfio_open(v, bdf);
	if (err < 0)
		err = sd_bus_error_set_errnof(error, -err, "%s", udrv_vfio_errmsg(v));
	else
		err = sd_bus_reply_method_return(m, "hhh", udrv_vfio_container_fd(v),
						 udrv_vfio_group_fd(v), udrv_vfio_device_fd(v));
	udrv_vfio_free(v);
	return err;
}

static const sd_bus_vtable devices_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_NAMES("OpenUio", "s", SD_BUS_PARAM(device), "sh",
				 SD_BUS_PARAM(node) SD_BUS_PARAM(fd), method_open_uio,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("OpenVfio", "s", SD_BUS_PARAM(address), "hhh",
				 SD_BUS_PARAM(container) SD_BUS_PARAM(group)
				 SD_BUS_PARAM(device), method_open_vfio,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};

int udrvd_devices_export(struct udrvd *d)
{
	return sd_bus_add_object_vtable(d->bus, &d->devices, UDRVD_DEVICES_PATH,
					"io.udrv1.Devices", devices_vtable, d);
}
