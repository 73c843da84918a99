// SPDX-License-Identifier: GPL-2.0-only
/*
 * SPI devices and I2C adapters as the kernel names them (sysfs_buses.h).
 *
 * As for UIO (sysfs_devices.c), the node is checked as the device it is:
 * the dev_t of the open fd, looked up in /sys/dev/char/MAJ:MIN, not a path
 * read before the open. There:
 *
 *	spidev:	.../CONTROLLER/spi_master/spiB/spiB.C/spidev/spidevB.C, its
 *		device link the SPI device spiB.C (modalias "spi:NAME")
 *	i2c-dev: .../CONTROLLER/i2c-N/i2c-dev/i2c-N, its device link the
 *		adapter i2c-N (its name file)
 *
 * CONTROLLER is the device the controller hangs off (a platform device,
 * a PCI function): what stays when bus numbers change between boots.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <udrv/chip.h>
#include <udrv/parse.h>

#include "sysfs_buses.h"
#include "internal.h"
#include "spi/spi_priv.h"

#define SPI_DEVICES	"/sys/bus/spi/devices"
#define I2C_DEVICES	"/sys/bus/i2c/devices"

struct udrvd_bus_dev udrvd_bus_dev_of(const struct udrvd_bus_id *id)
{
	return (struct udrvd_bus_dev){ id->node, id->bus, id->cs, id->name, id->device,
				       id->same_name };
}

/* The folder of the character device open on @fd in @dir, its name in
 * @node, checked to be of class @class. */
static int char_dev(int fd, const char *class, char *dir, size_t dlen, char *node,
		    size_t nlen, char *why, size_t len)
{
	char path[UDRV_PATH_LEN + 16], sub[32];
	struct stat sb;
	int err;

	if (fstat(fd, &sb)) {
		err = -errno;
		snprintf(why, len, "cannot be looked at (fstat): %s", strerror(-err));
		return err;
	}
	if (!S_ISCHR(sb.st_mode)) {
		snprintf(why, len, "is not a character device: not a %s node", class);
		return -ENODEV;
	}
	if (udrv_path(dir, dlen, "/sys/dev/char/%u:%u", major(sb.st_rdev), minor(sb.st_rdev))) {
		snprintf(why, len, "cannot be looked up: UDRV_SYSROOT is too long");
		return -ENAMETOOLONG;
	}
	snprintf(path, sizeof(path), "%s/subsystem", dir);
	if (udrv_link_name(dir, node, nlen) || udrv_link_name(path, sub, sizeof(sub)) ||
	    strcmp(sub, class)) {
		snprintf(why, len, "is the node of %u:%u, which %s does not show as a %s node",
			 major(sb.st_rdev), minor(sb.st_rdev), dir, class);
		return -ENODEV;
	}
	return 0;
}

/* The device the controller of @real (a sysfs folder, resolved: @up
 * levels below the controller's device) hangs off, a class folder
 * (spi_master) skipped; "" at the top (a virtual adapter: i2c-stub). */
static void controller_of(const char *real, int up, char *dev, size_t len)
{
	char buf[PATH_MAX], top[UDRV_PATH_LEN], *slash;
	char *rtop = NULL;

	dev[0] = '\0';
	if (snprintf(buf, sizeof(buf), "%s", real) >= (int)sizeof(buf))
		return;
	for (int i = 0; i < up; i++) {
		slash = strrchr(buf, '/');
		if (!slash)
			return;
		*slash = '\0';
	}
	slash = strrchr(buf, '/');
	if (slash && (!strcmp(slash + 1, "spi_master") || !strcmp(slash + 1, "spi_slave"))) {
		*slash = '\0';
		slash = strrchr(buf, '/');
	}
	if (!udrv_path(top, sizeof(top), "/sys/devices"))
		rtop = realpath(top, NULL);
	if (slash && !(rtop && !strcmp(buf, rtop)) && strcmp(slash + 1, "virtual") &&
	    strcmp(slash + 1, "platform"))
		snprintf(dev, len, "%s", slash + 1);
	free(rtop);
}

/* The folder @link resolves to, into @real; -errno. */
static int resolve(const char *link, char real[PATH_MAX])
{
	return realpath(link, real) ? 0 : -errno;
}

/* Entries @entry* of @dir_path whose @file (a text) after @prefix is @name. */
static unsigned int count_named(const char *dir_path, const char *entry, const char *file,
				const char *prefix, const char *name)
{
	char dir[UDRV_PATH_LEN], path[UDRV_PATH_LEN + 300], text[128];
	unsigned int count = 0;
	size_t plen = strlen(prefix);
	struct dirent *de;
	DIR *dp;

	if (!*name || udrv_path(dir, sizeof(dir), "%s", dir_path))
		return 0;
	dp = opendir(dir);
	while (dp && (de = readdir(dp))) {
		if (strncmp(de->d_name, entry, strlen(entry)) ||
		    snprintf(path, sizeof(path), "%s/%s/%s", dir, de->d_name, file) >= (int)sizeof(path) ||
		    udrv_read_text(path, text, sizeof(text)) < 0)
			continue;
		count += !strncmp(text, prefix, plen) && !strcmp(text + plen, name);
	}
	if (dp)
		closedir(dp);
	return count;
}

int udrvd_spi_identify(int fd, struct udrvd_bus_id *id, char *why, size_t len)
{
	char dir[UDRV_PATH_LEN], path[UDRV_PATH_LEN + 32], real[PATH_MAX], alias[128];
	int err = char_dev(fd, "spidev", dir, sizeof(dir), id->node, sizeof(id->node), why, len);

	if (err)
		return err;
	if (udrv_spi_parse_devspec(id->node, &id->bus, &id->cs)) {
		snprintf(why, len, "is %s, which is no spidevB.C", id->node);
		return -ENODEV;
	}
	snprintf(path, sizeof(path), "%s/device", dir);
	err = resolve(path, real);
	if (err) {
		snprintf(why, len, "is %s, whose SPI device (%s) cannot be read: %s", id->node,
			 path, strerror(-err));
		return err;
	}
	snprintf(path, sizeof(path), "%s/modalias", real);
	id->name[0] = '\0';
	if (udrv_read_text(path, alias, sizeof(alias)) >= 0 && !strncmp(alias, "spi:", 4))
		snprintf(id->name, sizeof(id->name), "%s", alias + 4);
	controller_of(real, 2, id->device, sizeof(id->device));
	id->same_name = count_named(SPI_DEVICES, "spi", "modalias", "spi:", id->name);
	why[0] = '\0';
	return 0;
}

int udrvd_i2c_identify(int fd, struct udrvd_bus_id *id, char *why, size_t len)
{
	char dir[UDRV_PATH_LEN], path[UDRV_PATH_LEN + 32], real[PATH_MAX];
	int err = char_dev(fd, "i2c-dev", dir, sizeof(dir), id->node, sizeof(id->node), why, len);

	if (err)
		return err;
	id->cs = 0;
	if (strncmp(id->node, "i2c-", 4) || udrv_parse_devnum(id->node, "i2c-", &id->bus)) {
		snprintf(why, len, "is %s, which is no i2c-N", id->node);
		return -ENODEV;
	}
	snprintf(path, sizeof(path), "%s/device", dir);
	err = resolve(path, real);
	if (err) {
		snprintf(why, len, "is %s, whose adapter (%s) cannot be read: %s", id->node,
			 path, strerror(-err));
		return err;
	}
	snprintf(path, sizeof(path), "%s/name", real);
	if (udrv_read_text(path, id->name, sizeof(id->name)) < 0)
		id->name[0] = '\0';
	controller_of(real, 1, id->device, sizeof(id->device));
	id->same_name = count_named(I2C_DEVICES, "i2c-", "name", "", id->name);
	why[0] = '\0';
	return 0;
}
