// SPDX-License-Identifier: GPL-2.0-only
/*
 * io.udrv1.Devices (/io/udrv1): one UIO, VFIO or SPI device, or one whole
 * I2C bus, for one client.
 *
 * The kernel gives UIO and VFIO devices permissions per node, and a group
 * rule gives a user every device of its kind. udrvd opens the one device
 * the policy's `open uio NAME|device:DEVICE` / `open vfio ADDRESS` rules
 * grant the caller and hands over what its own open gave: the UIO node's
 * fd, or VFIO's container, group and device fds (the way libvirt hands
 * QEMU a device).
 *
 * Which device a node or an address is, and whether the policy grants a
 * VFIO device's whole IOMMU group, is the model's (model/sysfs_devices.h);
 * here the calls, their arguments and answers.
 *
 * A UIO device is checked as the node udrvd opened names it: the dev_t of
 * the open fd, looked up in /sys/dev/char/MAJ:MIN (its name, its parent
 * device), not a path read before the open. A VFIO group fd gives every
 * device of the IOMMU group (VFIO_GROUP_GET_DEVICE_FD takes any of them,
 * and they reach each other by DMA), so it is handed out only when the
 * policy grants the caller every device of the group.
 * An SPI device (`open spi`) and a whole I2C bus (`open i2c-bus`: every
 * address on it, the kernel's devices included: I2C_SLAVE_FORCE needs no
 * capability) are handed over as UIO nodes are, checked as their node's
 * dev_t names them (model/sysfs_buses.h).
 * The client takes them with udrv_uio_open_fd() / udrv_vfio_open_fds() /
 * udrv_spi_open_fd() / udrv_i2c_open_fd().
 * udrvd keeps nothing open: the device is the client's until it closes the
 * fds or exits, and VFIO lets one process have a group at a time. What the
 * client may do then is what the kernel allows whoever holds those fds:
 * the broker decides who gets a device, not what is done with it (udrvd(8),
 * docs/udrvd.md).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <udrv/i2c.h>
#include <udrv/parse.h>
#include <udrv/spi.h>
#include <udrv/uio.h>
#include <udrv/vfio.h>

#include "caller.h"
#include "devices.h"
#include "errors.h"
#include "vfio/pci.h"
#include "sysfs_buses.h"
#include "sysfs_devices.h"

static int refuse(sd_bus_error *error, const char *msg)
{
	return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, msg);
}

/* ---- UIO ---- */

/* The UIO device udrvd has open in @uio, against the policy, as its
 * node's dev_t names it; @num is the device that was asked for. */
static int uio_check(struct udrvd *d, sd_bus_message *m, struct udrv_uio *uio,
		     unsigned int num, sd_bus_error *error)
{
	char msg[UDRVD_MSG_LEN], why[256];
	struct udrvd_creds who;
	struct udrvd_uio_id id;
	int err = udrvd_uio_identify(udrv_uio_fd(uio), &id, why, sizeof(why));

	if (err)
		return sd_bus_error_setf(error, SD_BUS_ERROR_FILE_NOT_FOUND,
					 "/dev/%s %s", udrv_uio_devname(uio), why);
	err = udrvd_caller_of(m, &who, error);
	if (err < 0)
		return err;
	struct udrvd_uio_dev dev = { id.node, id.name, id.device, id.same_name };

	err = udrvd_policy_uio_dev(d->held.policy, &who.caller, &dev, msg);
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
	struct udrvd_err e = { 0 };
	const char *spec;
	unsigned int num = 0;
	int err = sd_bus_message_read(m, "s", &spec);

	if (err < 0)
		return err;
	if (!*spec)
		return sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS,
					"no UIO device given: its name (/sys/class/uio/uioN/name) or uioN");
	err = udrvd_uio_wanted(spec, &num, &e);
	if (err < 0)
		return udrvd_bus_error(error, &e);
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

/* ---- SPI and whole I2C buses ---- */

/*
 * The node udrvd has open on @fd (SPI when @spi, else I2C), against the
 * policy as its dev_t names it; @bus and @cs are what was asked for (a
 * node that is now another device's is not handed out).
 */
static int bus_check(struct udrvd *d, sd_bus_message *m, bool spi, int fd, const char *dev,
		     unsigned int bus, unsigned int cs, sd_bus_error *error)
{
	char msg[UDRVD_MSG_LEN], why[256];
	struct udrvd_creds who;
	struct udrvd_bus_id id;
	int err = spi ? udrvd_spi_identify(fd, &id, why, sizeof(why)) :
			udrvd_i2c_identify(fd, &id, why, sizeof(why));

	if (err)
		return sd_bus_error_setf(error, SD_BUS_ERROR_FILE_NOT_FOUND, "%s %s", dev, why);
	err = udrvd_caller_of(m, &who, error);
	if (err < 0)
		return err;
	struct udrvd_bus_dev bd = udrvd_bus_dev_of(&id);

	err = spi ? udrvd_policy_spi(d->held.policy, &who.caller, &bd, msg) :
		    udrvd_policy_i2c_bus(d->held.policy, &who.caller, &bd, msg);
	udrvd_caller_done(&who);
	if (err < 0)
		return refuse(error, msg);
	if (id.bus != bus || id.cs != cs)	/* a stale node, or another device's since */
		return sd_bus_error_setf(error, SD_BUS_ERROR_FILE_NOT_FOUND,
					 "%s is now the node of %s, not of %s: ask again", dev,
					 id.node, spi ? "the device asked for" : "the bus asked for");
	return 0;
}

/* io.udrv1.Devices.OpenSpi(s device) -> (s node, h fd) */
static int method_open_spi(sd_bus_message *m, void *data, sd_bus_error *error)
{
	char node[40];
	struct udrv_spi *spi;
	const char *spec;
	int err = sd_bus_message_read(m, "s", &spec);

	if (err < 0)
		return err;
	if (!*spec || strlen(spec) >= UDRVD_NAME_MAX)
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "'%.64s' is no SPI device: B.C, spidevB.C or the device's name (its modalias's), shorter than %d bytes",
					 spec, UDRVD_NAME_MAX);
	spi = udrv_spi_new();
	if (!spi)
		return -ENOMEM;
	/* opened first, then checked: the check is of the node's own dev_t */
	err = udrv_spi_open(spi, spec);
	if (err < 0) {
		err = sd_bus_error_set_errnof(error, -err, "%s", udrv_spi_errmsg(spi));
	} else {
		snprintf(node, sizeof(node), "spidev%u.%u", udrv_spi_bus(spi), udrv_spi_cs(spi));
		err = bus_check(data, m, true, udrv_spi_fd(spi), node, udrv_spi_bus(spi),
				udrv_spi_cs(spi), error);
	}
	if (err >= 0)
		err = sd_bus_reply_method_return(m, "sh", node, udrv_spi_fd(spi));
	udrv_spi_free(spi);
	return err;
}

/* io.udrv1.Devices.OpenI2cBus(s bus) -> (s node, h fd): the whole bus */
static int method_open_i2c_bus(sd_bus_message *m, void *data, sd_bus_error *error)
{
	char node[40];
	struct udrv_i2c *i2c;
	const char *spec;
	int err = sd_bus_message_read(m, "s", &spec);

	if (err < 0)
		return err;
	if (!*spec || strlen(spec) >= UDRVD_NAME_MAX)
		return sd_bus_error_setf(error, SD_BUS_ERROR_INVALID_ARGS,
					 "'%.64s' is no I2C bus: its number, i2c-N or its adapter's name, shorter than %d bytes",
					 spec, UDRVD_NAME_MAX);
	i2c = udrv_i2c_new();
	if (!i2c)
		return -ENOMEM;
	err = udrv_i2c_open(i2c, spec);
	if (err < 0) {
		err = sd_bus_error_set_errnof(error, -err, "%s", udrv_i2c_errmsg(i2c));
	} else {
		snprintf(node, sizeof(node), "i2c-%u", udrv_i2c_bus(i2c));
		err = bus_check(data, m, false, udrv_i2c_fd(i2c), node, udrv_i2c_bus(i2c), 0,
				error);
	}
	if (err >= 0)
		err = sd_bus_reply_method_return(m, "sh", node, udrv_i2c_fd(i2c));
	udrv_i2c_free(i2c);
	return err;
}

/* ---- VFIO ---- */

/* The device itself, then its IOMMU group. */
static int vfio_check(struct udrvd *d, sd_bus_message *m, const char *bdf,
		      sd_bus_error *error)
{
	char msg[UDRVD_MSG_LEN];
	struct udrvd_err e = { 0 };
	struct udrvd_creds who;
	int err = udrvd_caller_of(m, &who, error);

	if (err < 0)
		return err;
	err = udrvd_policy_vfio(d->held.policy, &who.caller, bdf, msg);
	if (err < 0)
		err = refuse(error, msg);
	else if (udrvd_vfio_group_check(d->held.policy, &who.caller, bdf, &e) < 0)
		err = udrvd_bus_error(error, &e);
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
	SD_BUS_METHOD_WITH_NAMES("OpenSpi", "s", SD_BUS_PARAM(device), "sh",
				 SD_BUS_PARAM(node) SD_BUS_PARAM(fd), method_open_spi,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("OpenI2cBus", "s", SD_BUS_PARAM(bus), "sh",
				 SD_BUS_PARAM(node) SD_BUS_PARAM(fd), method_open_i2c_bus,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};

int udrvd_devices_export(struct udrvd *d)
{
	return sd_bus_add_object_vtable(d->bus, &d->devices, UDRVD_DEVICES_PATH,
					"io.udrv1.Devices", devices_vtable, d);
}
