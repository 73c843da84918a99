/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * PCI devices in sysfs (internal): the strict parsers of a PCI address and
 * of vendor:device, and the lookups vfio.c and pci_bind.c share.
 */
#ifndef UDRV_PCI_H
#define UDRV_PCI_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define UDRV_PCI_BDF_LEN	16	/* "fffff:ff:1f.7" and a NUL fit */

/*
 * A PCI address: "DDDD:BB:DD.F" (domain 4 hex digits, or 5 without a
 * leading zero: VMD's domains start at 0x10000) or "BB:DD.F" (domain 0); bus and device 2 hex digits, device at most 0x1f, function 0-7. Hex
 * digits in either case. @bdf receives the kernel's spelling
 * ("0000:00:01.0", lower case). 0 or -EINVAL.
 */
int udrv_pci_parse_bdf(const char *s, char bdf[UDRV_PCI_BDF_LEN]);

/* "vendor:device": 4 hex digits each ("1234:11e8"). 0 or -EINVAL. */
int udrv_pci_parse_id(const char *s, uint16_t *vendor, uint16_t *device);

/*
 * A device spec as udrv_vfio_open() takes it, resolved to the address of
 * the one device it names, through sysfs (UDRV_SYSROOT). 0, -EINVAL (neither
 * form), -ENODEV (no such device), -ENOTUNIQ (vendor:device matches more
 * than one), -ENAMETOOLONG; the message in @errmsg (UDRV_ERRMSG_LEN).
 */
int udrv_pci_resolve(const char *spec, char bdf[UDRV_PCI_BDF_LEN],
		     char *errmsg);

/* /sys/bus/pci/devices/@bdf[/@attr] under the sysroot; 0 or -ENAMETOOLONG. */
int udrv_pci_path(char *buf, size_t len, const char *bdf, const char *attr);

/* The driver @bdf is bound to: its name, "" for none; 0 or -errno. */
int udrv_pci_driver_of(const char *bdf, char *buf, size_t len);

/* The 24-bit class code of @bdf (sysfs class); 0, -EINVAL (not such a
 * number) or -errno. */
int udrv_pci_class(const char *bdf, uint32_t *code);
/* A PCI-to-PCI (0x0604, 0x0609) or CardBus (0x0607) bridge: header type 1
 * or 2, which vfio-pci never takes. */
bool udrv_pci_class_is_bridge(uint32_t code);

/* The IOMMU group of @bdf: its number, -ENOENT without one (no IOMMU). */
int udrv_pci_iommu_group(const char *bdf, unsigned int *group);

/* A 16-bit ID attribute ("0x1234"): 0, -EINVAL (not such a number), -errno. */
int udrv_pci_read_id(const char *bdf, const char *attr, uint16_t *id);
/* The entries of @dir that are PCI addresses (canonical), sorted, as a
 * strv (udrv_strv_free); their number or -errno. */
int udrv_pci_list_dir(const char *dir, char ***out);

/*
 * The commands that bind @bdf to vfio-pci (unbind, driver_override,
 * drivers_probe, and udrv pci bind) into @buf.
 */
void udrv_pci_bind_hint(char *buf, size_t len, const char *bdf,
			const char *driver);

#endif /* UDRV_PCI_H */
