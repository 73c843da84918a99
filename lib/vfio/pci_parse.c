// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * PCI addresses and IDs (lib/vfio/pci.h): the strict parsers, and the sysfs
 * lookups built on them (which device a spec names, its driver, its IOMMU
 * group, its IDs).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/chip.h>

#include "internal.h"
#include "vfio/pci.h"

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Exactly @n hex digits at @s into @v; the number of bytes taken or -1. */
static int hex_field(const char *s, int n, unsigned int *v)
{
	unsigned int x = 0;

	for (int i = 0; i < n; i++) {
		int d = hex_digit(s[i]);

		if (d < 0)
			return -1;
		x = x * 16 + (unsigned int)d;
	}
	*v = x;
	return n;
}

/* The length of the run of hex digits at @s. */
static size_t hex_run(const char *s)
{
	size_t n = 0;

	while (hex_digit(s[n]) >= 0)
		n++;
	return n;
}

int udrv_pci_parse_bdf(const char *s, char bdf[UDRV_PCI_BDF_LEN])
{
	unsigned int domain = 0, bus, dev, fn;
	size_t n;

	if (!s)
		return -EINVAL;
	n = hex_run(s);
	if (s[n] == ':' && s[n + 1] && strchr(s + n + 1, ':')) {
		/* a domain: 4 digits, or 5 that do not start with 0 */
		if ((n != 4 && n != 5) || (n == 5 && s[0] == '0'))
			return -EINVAL;
		hex_field(s, (int)n, &domain);
		s += n + 1;
	}
	if (hex_field(s, 2, &bus) < 0 || s[2] != ':' ||
	    hex_field(s + 3, 2, &dev) < 0 || s[5] != '.' ||
	    hex_field(s + 6, 1, &fn) < 0 || s[7])
		return -EINVAL;
	if (dev > 0x1f || fn > 7)
		return -EINVAL;
	snprintf(bdf, UDRV_PCI_BDF_LEN, "%04x:%02x:%02x.%u", domain, bus, dev,
		 fn);
	return 0;
}

int udrv_pci_parse_id(const char *s, uint16_t *vendor, uint16_t *device)
{
	unsigned int v, d;

	if (!s || hex_field(s, 4, &v) < 0 || s[4] != ':' ||
	    hex_field(s + 5, 4, &d) < 0 || s[9])
		return -EINVAL;
	*vendor = (uint16_t)v;
	*device = (uint16_t)d;
	return 0;
}

int udrv_pci_path(char *buf, size_t len, const char *bdf, const char *attr)
{
	if (attr)
		return udrv_path(buf, len, "/sys/bus/pci/devices/%s/%s", bdf,
				 attr);
	return udrv_path(buf, len, "/sys/bus/pci/devices/%s", bdf);
}

int udrv_pci_read_id(const char *bdf, const char *attr, uint16_t *id)
{
	char path[UDRV_PATH_LEN];
	uint64_t v;
	int ret;

	if (udrv_pci_path(path, sizeof(path), bdf, attr))
		return -ENAMETOOLONG;
	ret = udrv_read_u64(path, &v);
	if (ret)
		return ret;
	if (v > UINT16_MAX)
		return -EINVAL;
	*id = (uint16_t)v;
	return 0;
}

/* The last component of the target of the symlink @path into @buf. */
int udrv_link_name(const char *path, char *buf, size_t len)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n;

	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base || strlen(base) >= len)
		return -EINVAL;
	memcpy(buf, base, strlen(base) + 1);
	return 0;
}

int udrv_pci_driver_of(const char *bdf, char *buf, size_t len)
{
	char path[UDRV_PATH_LEN];
	int ret;

	if (udrv_pci_path(path, sizeof(path), bdf, "driver"))
		return -ENAMETOOLONG;
	ret = udrv_link_name(path, buf, len);
	if (ret == -ENOENT && len) {
		buf[0] = '\0';
		return 0;
	}
	return ret;
}

int udrv_pci_class(const char *bdf, uint32_t *code)
{
	char path[UDRV_PATH_LEN];
	uint64_t v;
	int ret;

	if (udrv_pci_path(path, sizeof(path), bdf, "class"))
		return -ENAMETOOLONG;
	ret = udrv_read_u64(path, &v);
	if (ret)
		return ret;
	if (v > 0xffffff)
		return -EINVAL;
	*code = (uint32_t)v;
	return 0;
}

bool udrv_pci_class_is_bridge(uint32_t code)
{
	return (code >> 8) == 0x0604 || (code >> 8) == 0x0607 || (code >> 8) == 0x0609;
}

int udrv_pci_iommu_group(const char *bdf, unsigned int *group)
{
	char path[UDRV_PATH_LEN], name[16];
	int ret;

	if (udrv_pci_path(path, sizeof(path), bdf, "iommu_group"))
		return -ENAMETOOLONG;
	ret = udrv_link_name(path, name, sizeof(name));
	if (ret)
		return ret;
	/* the kernel names groups by decimal number (iommu_group_alloc) */
	if (udrv_parse_devnum(name, "", group))
		return -EINVAL;
	return 0;
}

void udrv_pci_bind_hint(char *buf, size_t len, const char *bdf,
			const char *driver)
{
	char now[64];

	if (udrv_pci_driver_of(bdf, now, sizeof(now)) || !now[0])
		snprintf(now, sizeof(now), "none");
	if (strcmp(now, "none"))
		snprintf(buf, len,
			 "echo %s > /sys/bus/pci/devices/%s/driver/unbind; echo %s > /sys/bus/pci/devices/%s/driver_override; echo %s > /sys/bus/pci/drivers_probe (udrv_pci_bind() does these steps)",
			 bdf, bdf, driver, bdf, bdf);
	else
		snprintf(buf, len,
			 "echo %s > /sys/bus/pci/devices/%s/driver_override; echo %s > /sys/bus/pci/drivers_probe (udrv_pci_bind() does these steps)",
			 driver, bdf, bdf);
}

/* Does device @bdf have IDs @vendor:@device? */
static int id_matches(const char *bdf, uint16_t vendor, uint16_t device)
{
	uint16_t v, d;

	return !udrv_pci_read_id(bdf, "vendor", &v) &&
	       !udrv_pci_read_id(bdf, "device", &d) &&
	       v == vendor && d == device;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int udrv_pci_list_dir(const char *dir, char ***out)
{
	char **v = NULL, **tmp, bdf[UDRV_PCI_BDF_LEN];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (udrv_pci_parse_bdf(de->d_name, bdf) || strcmp(bdf, de->d_name))
			continue;
		tmp = realloc(v, (n + 2) * sizeof(*v));
		if (!tmp)
			goto nomem;
		v = tmp;
		v[n] = strdup(bdf);	/* NULL on failure: v stays a strv */
		if (!v[n])
			goto nomem;
		v[++n] = NULL;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v ? v : calloc(1, sizeof(*v));
	return *out ? (int)n : -ENOMEM;
nomem:
	closedir(d);
	udrv_strv_free(v);
	return -ENOMEM;
}

/*
 * The addresses of the devices with IDs @vendor:@device, sorted, at most
 * @max into @found (each UDRV_PCI_BDF_LEN); the number of matches (which
 * may be more than @max) or -errno.
 */
static int find_by_id(uint16_t vendor, uint16_t device,
		      char found[][UDRV_PCI_BDF_LEN], int max)
{
	char dir[UDRV_PATH_LEN], **bdfs;
	int n = 0, all;

	if (udrv_path(dir, sizeof(dir), "/sys/bus/pci/devices"))
		return -ENAMETOOLONG;
	all = udrv_pci_list_dir(dir, &bdfs);
	if (all < 0)
		return all == -ENOENT ? 0 : all;
	for (int i = 0; i < all; i++) {
		if (!id_matches(bdfs[i], vendor, device))
			continue;
		if (n < max)
			udrv_strlcpy(found[n], bdfs[i], UDRV_PCI_BDF_LEN);
		n++;
	}
	udrv_strv_free(bdfs);
	return n;
}

static int resolve_id(const char *spec, uint16_t vendor, uint16_t device,
		      char bdf[UDRV_PCI_BDF_LEN], char *errmsg)
{
	char found[8][UDRV_PCI_BDF_LEN], list[8 * (UDRV_PCI_BDF_LEN + 1)];
	size_t used = 0;
	int n;

	n = find_by_id(vendor, device, found, (int)ARRAY_SIZE(found));
	if (n < 0)
		return udrv_err(errmsg, -n, "cannot list /sys/bus/pci/devices: %s",
				strerror(-n));
	if (n == 0)
		return udrv_err(errmsg, ENODEV,
				"no PCI device %s (vendor:device) in /sys/bus/pci/devices: lspci -nn lists them with their IDs",
				spec);
	if (n == 1) {
		udrv_strlcpy(bdf, found[0], UDRV_PCI_BDF_LEN);
		return 0;
	}
	list[0] = '\0';
	for (int i = 0; i < n && i < (int)ARRAY_SIZE(found); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%s", i ? " " : "", found[i]);
	return udrv_err(errmsg, ENOTUNIQ,
			"%d PCI devices are %s: %s%s; give the address of one",
			n, spec, list, n > (int)ARRAY_SIZE(found) ? " ..." : "");
}

int udrv_pci_resolve(const char *spec, char bdf[UDRV_PCI_BDF_LEN],
		     char *errmsg)
{
	char path[UDRV_PATH_LEN];
	uint16_t vendor, device;

	if (!udrv_pci_parse_id(spec, &vendor, &device))
		return resolve_id(spec, vendor, device, bdf, errmsg);
	if (udrv_pci_parse_bdf(spec, bdf))
		return udrv_err(errmsg, EINVAL,
				"'%s' is neither a PCI address (0000:00:01.0 or 00:01.0) nor vendor:device in hex (1234:11e8)",
				spec ? spec : "");
	if (udrv_pci_path(path, sizeof(path), bdf, NULL))
		return udrv_path_err(errmsg, bdf);
	if (!udrv_path_exists(path))
		return udrv_err(errmsg, ENODEV,
				"no PCI device %s (%s does not exist): lspci -D lists the devices with their addresses",
				bdf, path);
	return 0;
}
