// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.udrv1.Devices (/io/udrv1): one UIO or VFIO device for one client.
 *
 * The kernel gives UIO and VFIO devices permissions per node, and a group
 * rule gives a user every device of its kind. udrvd opens the one device
 * the policy's `open uio NAME` / `open vfio ADDRESS` rule grants the caller
 * and hands over what its own open gave: the UIO node's fd, or VFIO's
 * container, group and device fds (the way libvirt hands QEMU a device).
 * The client takes them with udrv_uio_open_fd() / udrv_vfio_open_fds().
 * udrvd keeps nothing open: the device is the client's until it closes the
 * fds or exits, and VFIO lets one process have a group at a time. What the
 * client may do then is what the kernel allows whoever holds those fds:
 * the broker decides who gets a device, not what is done with it (udrvd(8),
 * docs/udrvd.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <udrv/parse.h>
#include <udrv/uio.h>
#include <udrv/vfio.h>

#include "internal.h"
#include "pci.h"
#include "udrvd.h"

/* The caller's credentials against the policy's open rule for @name. */
static int check_open(struct udrvd *d, sd_bus_message *m, bool vfio, const char *name,
		      sd_bus_error *error)
{
	char msg[UDRVD_MSG_LEN];
	struct udrvd_creds who;
	int err = udrvd_caller_of(m, &who, error);

	if (err < 0)
		return err;
	err = vfio ? udrvd_policy_vfio(d->policy, &who.caller, name, msg) :
		     udrvd_policy_uio(d->policy, &who.caller, name, msg);
	if (err < 0)
		err = sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, msg);
	udrvd_caller_done(&who);
	return err;
}

/* The name the policy knows UIO device @spec by: the driver's name, read
 * from sysfs for "uioN" and "/dev/uioN"; @spec itself otherwise. */
static int uio_name(const char *spec, char *name, size_t len, sd_bus_error *error)
{
	char path[UDRV_PATH_LEN];
	unsigned int num;
	int err = udrv_parse_devnum(spec, "uio", &num);

	if (err == -EINVAL) {
		if (strlen(spec) >= len)
			return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
						 "no UIO device is called '%.64s...': names are shorter than %zu bytes",
						 spec, len);
		udrv_strlcpy(name, spec, len);
		return 0;
	}
	if (err)
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "UIO device number in '%s' is out of range", spec);
	if (udrv_path(path, sizeof(path), "/sys/class/uio/uio%u/name", num) ||
	    udrv_read_str(path, name, len) < 0)
		return sd_bus_error_setf(error, SD_BUS_ERROR_FILE_NOT_FOUND,
					 "no UIO device uio%u (%s cannot be read)", num, path);
	return 0;
}

/* io.udrv1.Devices.OpenUio(s device) -> (s node, h fd) */
static int method_open_uio(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct udrv_uio *uio;
	char name[64];
	const char *spec;
	int err = sd_bus_message_read(m, "s", &spec);

	if (err < 0)
		return err;
	if (!*spec)
		return sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS,
					"no UIO device given: its name (/sys/class/uio/uioN/name) or uioN");
	err = uio_name(spec, name, sizeof(name), error);
	if (err >= 0)
		err = check_open(data, m, false, name, error);
	if (err < 0)
		return err;
	uio = udrv_uio_new();
	if (!uio)
		return -ENOMEM;
	err = udrv_uio_open(uio, spec);
	if (err < 0)
		err = sd_bus_error_set_errnof(error, -err, "%s", udrv_uio_errmsg(uio));
	else if (strcmp(udrv_uio_name(uio), name))	/* another device since */
		err = sd_bus_error_setf(error, SD_BUS_ERROR_FILE_NOT_FOUND,
					"%s is now %s, no longer %s: ask again",
					udrv_uio_devname(uio), udrv_uio_name(uio), name);
	else
		err = sd_bus_reply_method_return(m, "sh", udrv_uio_devname(uio),
						 udrv_uio_fd(uio));
	udrv_uio_free(uio);
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
	err = check_open(data, m, true, bdf, error);
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
