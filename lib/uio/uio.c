// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * UIO devices: discovery by name or number, the maps and port regions the
 * driver exports, and mapping them (map N lives at mmap offset N * pagesize;
 * its registers start 'offset' bytes into that page).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <udrv/chip.h>

#include "region.h"
#include "abi.h"
#include "uio/uio_priv.h"

struct udrv_uio *udrv_uio_new(void)
{
	struct udrv_uio *uio = calloc(1, sizeof(*uio));

	if (uio) {
		uio->fd = -1;
		uio->config_fd = -1;
		uio->num = -1;
	}
	return uio;
}

void udrv_uio_close(struct udrv_uio *uio)
{
	char errmsg[UDRV_ERRMSG_LEN];

	if (!uio)
		return;
	if (uio->fd >= 0)
		close(uio->fd);
	if (uio->config_fd >= 0)
		close(uio->config_fd);
	memcpy(errmsg, uio->errmsg, sizeof(errmsg));
	memset(uio, 0, sizeof(*uio));
	memcpy(uio->errmsg, errmsg, sizeof(errmsg));
	uio->fd = uio->config_fd = uio->num = -1;
}

void udrv_uio_free(struct udrv_uio *uio)
{
	udrv_uio_close(uio);
	free(uio);
}

const char *udrv_uio_errmsg(const struct udrv_uio *uio)
{
	return uio->errmsg;
}

const char *udrv_uio_devname(const struct udrv_uio *uio)
{
	return uio->devname;
}

const char *udrv_uio_name(const struct udrv_uio *uio)
{
	return uio->name;
}

const char *udrv_uio_version(const struct udrv_uio *uio)
{
	return uio->version;
}

int udrv_uio_fd(const struct udrv_uio *uio)
{
	return uio->fd;
}

int udrv_uio_num_maps(const struct udrv_uio *uio)
{
	return uio->num_maps;
}

int udrv_uio_num_ports(const struct udrv_uio *uio)
{
	return uio->num_ports;
}

int udrv_uio_list(char ***names)
{
	char dir[UDRV_PATH_LEN];
	int n;

	*names = NULL;
	if (udrv_path(dir, sizeof(dir), "/sys/class/uio"))
		return -ENAMETOOLONG;
	n = udrv_list_numbered(dir, "uio", names);
	return n == -ENOENT ? 0 : n;
}

void udrv_uio_absent_reason(char *buf, size_t len)
{
	char path[UDRV_PATH_LEN];

	if (udrv_path(path, sizeof(path), "/sys/class/uio")) {
		snprintf(buf, len, "UDRV_SYSROOT is too long: cannot look for UIO devices under '%.200s'",
			 udrv_sysroot());
		return;
	}
	if (!udrv_path_exists(path))
		snprintf(buf, len,
			 "no UIO devices: UIO is not available (CONFIG_UIO off, or the uio module is not loaded: modprobe uio; %s does not exist)",
			 path);
	else
		snprintf(buf, len,
			 "no UIO devices: UIO is loaded but no driver registered a device (load a UIO driver, e.g. bind a PCI device to uio_pci_generic)");
}

/* "uio3", "/dev/uio3" or "3": 3; -ERANGE for a number too large to be a
 * device; -EINVAL when @s is not of that form (a driver name). */
static int uio_number(const char *s)
{
	unsigned int num;
	int ret;

	ret = udrv_parse_devnum(s, "uio", &num);
	return ret ? ret : (int)num;
}

/*
 * One attribute of a map or port region: a number (@num) or text (@buf).
 * The kernel's numbers are required and read strictly: a size of "-1" is
 * not 2^64-1. A name that is missing is empty.
 */
static int region_attr(struct udrv_uio *uio, const char *dir, const char *attr,
		       uint64_t *num, char *buf, size_t len)
{
	char path[UDRV_PATH_LEN + 64];
	int ret;

	snprintf(path, sizeof(path), "%s/%s/%s", uio->sysdir, dir, attr);
	if (num)
		ret = udrv_read_u64(path, num);
	else
		ret = udrv_read_str(path, buf, len);
	if (ret == -ENOENT && !num) {
		buf[0] = '\0';
		return 0;
	}
	if (ret < 0)
		return udrv_err(uio->errmsg, ret == -EINVAL ? EIO : -ret,
				"cannot read %s of %s: %s", path, uio->devname,
				ret == -EINVAL ? "not a number" : strerror(-ret));
	return 0;
}

static int read_map(struct udrv_uio *uio, unsigned int i,
		    struct udrv_uio_map_info *m)
{
	char dir[32];

	m->index = i;
	snprintf(dir, sizeof(dir), "maps/map%u", i);
	if (region_attr(uio, dir, "name", NULL, m->name, sizeof(m->name)) ||
	    region_attr(uio, dir, "addr", &m->addr, NULL, 0) ||
	    region_attr(uio, dir, "size", &m->size, NULL, 0) ||
	    region_attr(uio, dir, "offset", &m->offset, NULL, 0))
		return -EIO;
	return 0;
}

static int read_port(struct udrv_uio *uio, unsigned int i,
		     struct udrv_uio_port_info *p)
{
	char dir[32];

	p->index = i;
	snprintf(dir, sizeof(dir), "portio/port%u", i);
	if (region_attr(uio, dir, "name", NULL, p->name, sizeof(p->name)) ||
	    region_attr(uio, dir, "start", &p->start, NULL, 0) ||
	    region_attr(uio, dir, "size", &p->size, NULL, 0) ||
	    region_attr(uio, dir, "porttype", NULL, p->porttype,
			sizeof(p->porttype)))
		return -EIO;
	return 0;
}

static int uio_read_regions(struct udrv_uio *uio)
{
	char path[UDRV_PATH_LEN + 32];

	for (unsigned int i = 0; i < UIO_MAX_MAPS; i++) {
		snprintf(path, sizeof(path), "%s/maps/map%u", uio->sysdir, i);
		if (!udrv_path_exists(path))
			break;
		if (read_map(uio, i, &uio->maps[uio->num_maps++]))
			return -EIO;
	}
	for (unsigned int i = 0; i < UIO_MAX_PORTS; i++) {
		snprintf(path, sizeof(path), "%s/portio/port%u", uio->sysdir, i);
		if (!udrv_path_exists(path))
			break;
		if (read_port(uio, i, &uio->ports[uio->num_ports++]))
			return -EIO;
	}
	return 0;
}

/* Take @fd, opened by someone else (a broker), if it is @uio's node. */
static int uio_adopt(struct udrv_uio *uio, int fd)
{
	int ret = udrv_fd_is(fd, uio->path);

	if (ret == -EBADF)
		return udrv_err(uio->errmsg, EBADF,
				"the file descriptor %d given for %s (%s) is not open",
				fd, uio->path, uio->name);
	if (ret)
		return udrv_err(uio->errmsg, EINVAL,
				"the file descriptor %d given for %s (%s) is not that device's node%s%s",
				fd, uio->path, uio->name, ret == -EINVAL ? "" : ": cannot stat it: ",
				ret == -EINVAL ? "" : strerror(-ret));
	uio->fd = fd;
	return 0;
}

/* Open the node, or take @fd (>= 0) for it. */
static int uio_open_dev(struct udrv_uio *uio, int fd)
{
	char hint[UDRV_ERRMSG_LEN], path[UDRV_PATH_LEN + 16];
	uint64_t count = 0;
	int err;

	if (fd >= 0) {
		err = uio_adopt(uio, fd);
		if (err)
			return err;
	} else {
		uio->fd = open(uio->path, O_RDWR | O_CLOEXEC);
	}
	if (uio->fd < 0) {
		err = errno;
		udrv_access_hint(hint, sizeof(hint), err, uio->path);
		return udrv_err(uio->errmsg, err, "cannot open %s (%s): %s (%s)",
				uio->path, uio->name, strerror(err), hint);
	}
	/* the interrupt count at open: the baseline for missed interrupts */
	snprintf(path, sizeof(path), "%s/event", uio->sysdir);
	udrv_read_u64(path, &count);
	uio->last_count = (uint32_t)count;
	return 0;
}

/* "uio0 (uio_pci_generic) uio1 (uio-ticker)" or why there are none. */
static void uio_describe_available(char *buf, size_t len)
{
	char **names = NULL, path[UDRV_PATH_LEN], name[64];
	size_t used;
	int n;

	n = udrv_uio_list(&names);
	if (n <= 0) {
		udrv_uio_absent_reason(buf, len);
		udrv_strv_free(names);
		return;
	}
	used = (size_t)snprintf(buf, len, "available:");
	for (int i = 0; i < n && used < len; i++) {
		if (udrv_path(path, sizeof(path), "/sys/class/uio/%s/name", names[i]) ||
		    udrv_read_str(path, name, sizeof(name)) < 0)
			name[0] = '\0';
		used += (size_t)snprintf(buf + used, len - used, " %s (%s)",
					 names[i], name);
	}
	udrv_strv_free(names);
}

static int uio_not_found(struct udrv_uio *uio, const char *spec)
{
	char avail[224];

	uio_describe_available(avail, sizeof(avail));
	return udrv_err(uio->errmsg, ENOENT, "no UIO device '%s' (%s)", spec,
			avail);
}

/* The number of the first device whose driver calls itself @name. */
static int uio_find_name(struct udrv_uio *uio, const char *name)
{
	char **names = NULL, path[UDRV_PATH_LEN], buf[64];
	int n, num = -1;

	n = udrv_uio_list(&names);
	for (int i = 0; i < n && num < 0; i++) {
		if (udrv_path(path, sizeof(path), "/sys/class/uio/%s/name", names[i]) == 0 &&
		    udrv_read_str(path, buf, sizeof(buf)) >= 0 &&
		    !strcmp(buf, name) && uio_number(names[i]) >= 0)
			num = uio_number(names[i]);
	}
	udrv_strv_free(names);
	return num >= 0 ? num : uio_not_found(uio, name);
}

static int uio_open_number(struct udrv_uio *uio, int num, const char *spec, int fd)
{
	char path[UDRV_PATH_LEN + 16];

	uio->num = num;
	snprintf(uio->devname, sizeof(uio->devname), "uio%d", num);
	if (udrv_path(uio->sysdir, sizeof(uio->sysdir), "/sys/class/uio/%s",
		      uio->devname) ||
	    udrv_path(uio->path, sizeof(uio->path), "/dev/%s", uio->devname))
		return udrv_path_err(uio->errmsg, uio->devname);
	if (!udrv_path_exists(uio->sysdir))
		return uio_not_found(uio, spec);
	snprintf(path, sizeof(path), "%s/name", uio->sysdir);
	udrv_read_str(path, uio->name, sizeof(uio->name));
	snprintf(path, sizeof(path), "%s/version", uio->sysdir);
	udrv_read_str(path, uio->version, sizeof(uio->version));
	if (uio_read_regions(uio))
		return -EIO;
	return uio_open_dev(uio, fd);
}

static int uio_open_spec(struct udrv_uio *uio, const char *spec, int fd)
{
	int num, ret;

	udrv_uio_close(uio);
	uio->errmsg[0] = '\0';
	if (!spec || !*spec)
		return udrv_err(uio->errmsg, EINVAL,
				"no UIO device given: use its name (uio_pci_generic), uioN or /dev/uioN");
	num = uio_number(spec);
	if (num == -ERANGE)
		return udrv_err(uio->errmsg, EINVAL,
				"UIO device number in '%s' is out of range (at most %d): give the N of an existing /sys/class/uio/uioN",
				spec, INT32_MAX);
	if (num < 0) {
		num = uio_find_name(uio, spec);
		if (num < 0)
			return num;
	}
	ret = uio_open_number(uio, num, spec, fd);
	if (ret) {
		if (uio->fd == fd)
			uio->fd = -1;	/* still the caller's */
		udrv_uio_close(uio);
	}
	return ret;
}

int udrv_uio_open(struct udrv_uio *uio, const char *spec)
{
	return uio_open_spec(uio, spec, -1);
}

int udrv_uio_open_fd(struct udrv_uio *uio, const char *spec, int fd)
{
	if (fd < 0) {
		udrv_uio_close(uio);
		return udrv_err(uio->errmsg, EBADF,
				"no file descriptor given for UIO device '%s' (%d)",
				spec ? spec : "", fd);
	}
	return uio_open_spec(uio, spec, fd);
}

int udrv_uio_map_info_sz(struct udrv_uio *uio, unsigned int index,
			 struct udrv_uio_map_info *info, size_t info_size)
{
	int ret = udrv_abi_size(uio->errmsg, &udrv_abi_uio_map_info, info_size);

	if (ret)
		return ret;
	if (index >= (unsigned int)uio->num_maps)
		return udrv_err(uio->errmsg, EINVAL,
				"%s: no map %u (it has %d)", uio->devname,
				index, uio->num_maps);
	udrv_abi_out(&udrv_abi_uio_map_info, info, &uio->maps[index], info_size);
	return 0;
}

int udrv_uio_port_info_sz(struct udrv_uio *uio, unsigned int index,
			  struct udrv_uio_port_info *info, size_t info_size)
{
	int ret = udrv_abi_size(uio->errmsg, &udrv_abi_uio_port_info, info_size);

	if (ret)
		return ret;
	if (index >= (unsigned int)uio->num_ports)
		return udrv_err(uio->errmsg, EINVAL,
				"%s: no port region %u (it has %d)",
				uio->devname, index, uio->num_ports);
	udrv_abi_out(&udrv_abi_uio_port_info, info, &uio->ports[index],
		     info_size);
	return 0;
}

int udrv_uio_map(struct udrv_uio *uio, unsigned int index,
		 struct udrv_region **regionp)
{
	const struct udrv_uio_map_info *m;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	char err[UDRV_ERRMSG_LEN - 64];
	int ret;

	*regionp = NULL;
	if (uio->fd < 0)
		return udrv_err(uio->errmsg, EBADF, "the UIO device is not open");
	if (index >= (unsigned int)uio->num_maps)
		return udrv_err(uio->errmsg, EINVAL,
				"map %u out of range: %s (%s) has %d map%s%s",
				index, uio->devname, uio->name, uio->num_maps,
				uio->num_maps == 1 ? "" : "s",
				uio->num_maps ? "" :
				" (for uio_pci_generic, map the PCI BARs: udrv_uio_pci_map_bar)");
	m = &uio->maps[index];
	/* the kernel's own numbers, checked: a size beyond size_t (32-bit
	 * targets) would be truncated, an offset is within one page */
	if (m->size > SIZE_MAX)
		return udrv_err(uio->errmsg, EOVERFLOW,
				"map %u of %s is 0x%llx bytes: more than this %zu-bit process can map",
				index, uio->devname, (unsigned long long)m->size,
				sizeof(size_t) * 8);
	if (m->offset >= page)
		return udrv_err(uio->errmsg, EINVAL,
				"map %u of %s: its offset 0x%llx (sysfs) is not within a page",
				index, uio->devname, (unsigned long long)m->offset);
	ret = udrv_region_map_fd(uio->fd, uio->path, index * page + m->offset,
				 (size_t)m->size, regionp, err, sizeof(err));
	if (ret)
		return udrv_err(uio->errmsg, -ret, "map %u of %s: %s", index,
				uio->devname, err);
	if (m->name[0])
		udrv_strlcpy((*regionp)->name, m->name, sizeof((*regionp)->name));
	return 0;
}

int udrv_uio_pci_map_bar(struct udrv_uio *uio, unsigned int bar,
			 struct udrv_region **regionp)
{
	char path[UDRV_PATH_LEN + 32], err[UDRV_ERRMSG_LEN - 64];
	struct stat st;
	int ret;

	*regionp = NULL;
	snprintf(path, sizeof(path), "%s/device/resource%u", uio->sysdir, bar);
	if (stat(path, &st) == 0 && (uint64_t)st.st_size > SIZE_MAX)
		return udrv_err(uio->errmsg, EOVERFLOW,
				"BAR %u of %s is 0x%llx bytes: more than this %zu-bit process can map",
				bar, uio->devname, (unsigned long long)st.st_size,
				sizeof(size_t) * 8);
	if (stat(path, &st) < 0 || st.st_size == 0)
		return udrv_err(uio->errmsg, ENOENT,
				"%s (%s) has no memory BAR %u (%s missing or empty): not a PCI device, or the BAR is I/O ports",
				uio->devname, uio->name, bar, path);
	ret = udrv_region_map_file(path, 0, (size_t)st.st_size, regionp, err,
				   sizeof(err));
	if (ret)
		return udrv_err(uio->errmsg, -ret, "BAR %u of %s: %s", bar,
				uio->devname, err);
	return 0;
}
