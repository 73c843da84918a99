// SPDX-License-Identifier: GPL-2.0-only
/*
 * VFIO's readers (lib/vfio/pci_parse.c, pci_bind.c, vfio_open.c, vfio_dma.c):
 * the PCI address and vendor:device parsers, which device a spec names in
 * /sys/bus/pci/devices, what udrv_vfio_open() reads there (IDs, class, the
 * iommu_group and driver links) before it needs /dev/vfio, the list of
 * devices on vfio-pci, and the IOVA ranges in VFIO_IOMMU_GET_INFO's answer.
 *
 * Input parts (fuzz.h):
 *   0 the spec (udrv_pci_parse_bdf/id, udrv_pci_resolve, udrv_vfio_open)
 *   1 device A's directory name (absent: 0000:00:01.0)
 *   2 its vendor, 3 device, 4 class attributes
 *   5 the target of its iommu_group link, 6 of its driver link (absent: none)
 *   7 device B's directory name (absent: no B), 8 its vendor, 9 device
 *   10 whether /sys/bus/pci/drivers/vfio-pci exists (present: yes)
 *   11 a VFIO_IOMMU_GET_INFO answer, byte for byte (argsz = its length)
 * Names with '/' or a NUL, ".", ".." and "" are replaced by the defaults.
 * No /dev/vfio: every open fails, after the sysfs steps.
 *
 * Properties:
 *  - the parsers accept exactly what an independent model of the grammar
 *    accepts (pci.h), with the model's values; the output untouched on
 *    error; an accepted address re-parses to itself;
 *  - a spec resolves to a device directory that exists, and a vendor:device
 *    spec to the only one whose attributes read (as parse.h reads numbers)
 *    as that ID: -ENOTUNIQ when there are two, -ENODEV when none;
 *  - udrv_vfio_open() fails with a message; -ENXIO exactly when the device
 *    it names has no iommu_group link; -EBUSY names the link's driver;
 *  - udrv_vfio_list() returns the canonical addresses among the entries of
 *    drivers/vfio-pci, sorted, no other names;
 *  - the IOVA ranges are within the buffer (ASan), at most the maximum,
 *    each start <= end.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/udrv.h>

#include "fuzz.h"
#include "internal.h"
#include "vfio/pci.h"
#include "vfio/vfio_priv.h"

#define DEVS	"sys/bus/pci/devices/"

/* An ID attribute holds a NUL: C reads it up to there, as the library does
 * with every attribute (fuzz_uio.c's rule): the ID properties are not
 * checked. */
static bool ids_with_nul;
#define VFIO_DIR "sys/bus/pci/drivers/vfio-pci"

static int hexval(char c)
{
	const char *digits = "0123456789abcdef";
	const char *p;

	if (c >= 'A' && c <= 'F')
		c = (char)(c - 'A' + 'a');
	p = c ? strchr(digits, c) : NULL;
	return p ? (int)(p - digits) : -1;
}

/* @n hex digits at @s (all there and hex) -> value, or -1. */
static long model_hex(const char *s, size_t n)
{
	long v = 0;

	for (size_t i = 0; i < n; i++) {
		if (hexval(s[i]) < 0)
			return -1;
		v = v * 16 + hexval(s[i]);
	}
	return v;
}

/* The grammar of pci.h, by lengths: "BB:DD.F" (7), "DDDD:BB:DD.F" (12),
 * "DDDDD:BB:DD.F" (13, no leading 0). */
static bool model_bdf(const char *s, char *out)
{
	size_t len = strlen(s), dlen;
	long dom = 0, bus, dev, fn;
	const char *t;

	if (len == 7)
		dlen = 0;
	else if (len == 12 || len == 13)
		dlen = len - 8;
	else
		return false;
	if (dlen && (s[dlen] != ':' || (dlen == 5 && s[0] == '0')))
		return false;
	if (dlen && (dom = model_hex(s, dlen)) < 0)
		return false;
	t = dlen ? s + dlen + 1 : s;
	bus = model_hex(t, 2);
	dev = model_hex(t + 3, 2);
	fn = t[6] >= '0' && t[6] <= '7' ? t[6] - '0' : -1;
	if (bus < 0 || t[2] != ':' || dev < 0 || dev > 0x1f || t[5] != '.' ||
	    fn < 0)
		return false;
	sprintf(out, "%04lx:%02lx:%02lx.%ld", dom, bus, dev, fn);
	return true;
}

static void check_parsers(const char *spec)
{
	char got[UDRV_PCI_BDF_LEN] = "untouched", want[32], again[UDRV_PCI_BDF_LEN];
	uint16_t v = 7, d = 7;
	bool ok = model_bdf(spec, want);
	int ret = udrv_pci_parse_bdf(spec, got);

	if (!fuzz_skip("vfio-bdf")) {
		FUZZ_CHECK((ret == 0) == ok, "parse_bdf(\"%s\") = %d, the model %s", spec,
			   ret, ok ? "accepts" : "refuses");
		FUZZ_CHECK(ret != 0 || !strcmp(got, want), "\"%s\" -> %s, the model %s", spec,
			   got, want);
		FUZZ_CHECK(ret == 0 || !strcmp(got, "untouched"), "\"%s\": output written on error",
			   spec);
		FUZZ_CHECK(ret != 0 || (udrv_pci_parse_bdf(got, again) == 0 &&
					!strcmp(again, got)), "%s does not re-parse", got);
	}
	ok = strlen(spec) == 9 && spec[4] == ':' && model_hex(spec, 4) >= 0 &&
	     model_hex(spec + 5, 4) >= 0;
	ret = udrv_pci_parse_id(spec, &v, &d);
	if (!fuzz_skip("vfio-id")) {
		FUZZ_CHECK((ret == 0) == ok, "parse_id(\"%s\") = %d", spec, ret);
		FUZZ_CHECK(ok ? v == model_hex(spec, 4) && d == model_hex(spec + 5, 4) :
			   v == 7 && d == 7, "\"%s\" -> %04x:%04x", spec, v, d);
	}
}

/* A directory-entry name from part @i, or @dflt. */
static char *entry_name(const struct fuzz_parts *parts, size_t i, const char *dflt)
{
	char *s = fuzz_str(parts, i);

	if (!fuzz_has(parts, i) || memchr(parts->p[i], 0, parts->len[i]) || !s[0] ||
	    strchr(s, '/') || !strcmp(s, ".") || !strcmp(s, "..") || strlen(s) > 64) {
		free(s);
		s = strdup(dflt);
	}
	return s;
}

static void write_attr(const struct fuzz_parts *parts, size_t i, const char *dev,
		       const char *attr)
{
	char rel[160];

	snprintf(rel, sizeof(rel), DEVS "%s/%s", dev, attr);
	fuzz_write_part(parts, i, rel);
}

static void link_part(const struct fuzz_parts *parts, size_t i, const char *dev,
		      const char *attr)
{
	char rel[160], *target;

	if (!fuzz_has(parts, i) || memchr(parts->p[i], 0, parts->len[i]) ||
	    !parts->len[i])
		return;
	target = fuzz_str(parts, i);
	snprintf(rel, sizeof(rel), DEVS "%s/%s", dev, attr);
	fuzz_symlink(target, rel);
	free(target);
}

/* Does @dev's vendor:device read (as the library reads numbers) as v:d? */
static bool has_id(const char *dev, uint16_t v, uint16_t d)
{
	char rel[160];
	const char *t;
	uint64_t x, y;

	snprintf(rel, sizeof(rel), DEVS "%s/vendor", dev);
	t = fuzz_text(rel, 64);
	if (!t || udrv_parse_u64(t, 0xffff, &x))
		return false;
	snprintf(rel, sizeof(rel), DEVS "%s/device", dev);
	t = fuzz_text(rel, 64);
	if (!t || udrv_parse_u64(t, 0xffff, &y))
		return false;
	return x == v && y == d;
}

static bool canonical(const char *name)
{
	char bdf[UDRV_PCI_BDF_LEN];

	return !udrv_pci_parse_bdf(name, bdf) && !strcmp(bdf, name);
}

static void check_resolve(const char *spec, const char *a, const char *b)
{
	char bdf[UDRV_PCI_BDF_LEN], msg[UDRV_ERRMSG_LEN] = "", rel[160], path[600];
	int ret = udrv_pci_resolve(spec, bdf, msg), matches = 0;
	uint16_t v, d;

	if (ret) {
		FUZZ_CHECK(msg[0], "resolve(\"%s\") = %d without a message", spec, ret);
		return;
	}
	snprintf(rel, sizeof(rel), DEVS "%s", bdf);
	fuzz_path(path, sizeof(path), rel);
	FUZZ_CHECK(access(path, F_OK) == 0, "\"%s\" resolved to %s, which is not there",
		   spec, bdf);
	if (udrv_pci_parse_id(spec, &v, &d) || ids_with_nul || fuzz_skip("vfio-resolve"))
		return;
	matches = (canonical(a) && has_id(a, v, d)) +
		  (b && strcmp(a, b) && canonical(b) && has_id(b, v, d));
	FUZZ_CHECK(matches == 1 && has_id(bdf, v, d),
		   "\"%s\" resolved to %s; %d devices have that ID", spec, bdf, matches);
}

static void check_resolve_errors(const char *spec, const char *a, const char *b)
{
	char bdf[UDRV_PCI_BDF_LEN], msg[UDRV_ERRMSG_LEN] = "";
	int ret = udrv_pci_resolve(spec, bdf, msg), matches;
	uint16_t v, d;

	if (udrv_pci_parse_id(spec, &v, &d) || ids_with_nul || fuzz_skip("vfio-resolve"))
		return;
	matches = (canonical(a) && has_id(a, v, d)) +
		  (b && strcmp(a, b) && canonical(b) && has_id(b, v, d));
	FUZZ_CHECK(ret == (matches == 0 ? -ENODEV : matches == 1 ? 0 : -ENOTUNIQ),
		   "\"%s\": %d with %d matching devices (%s)", spec, ret, matches, msg);
}

static void check_open(const char *spec, const char *a, bool a_group,
		       const char *driver)
{
	struct udrv_vfio *v = udrv_vfio_new();
	char bdf[UDRV_PCI_BDF_LEN], msg[UDRV_ERRMSG_LEN];
	int ret;

	if (!v)
		return;
	ret = udrv_vfio_open(v, spec);
	FUZZ_CHECK(ret < 0 && udrv_vfio_errmsg(v)[0], "open(\"%s\") = %d: %s", spec, ret,
		   udrv_vfio_errmsg(v));
	if (!udrv_pci_resolve(spec, bdf, msg) && !strcmp(bdf, a) &&
	    !fuzz_skip("vfio-open")) {
		FUZZ_CHECK((ret == -ENXIO) == !a_group, "%s: %d, iommu_group link %s: %s",
			   a, ret, a_group ? "there" : "absent", udrv_vfio_errmsg(v));
		if (ret == -EBUSY && driver)
			FUZZ_CHECK(strstr(udrv_vfio_errmsg(v), driver) ||
				   strstr(udrv_vfio_errmsg(v), "not viable"),
				   "-EBUSY without the driver %s: %s", driver,
				   udrv_vfio_errmsg(v));
	}
	udrv_vfio_free(v);
}

static void check_list(const char *a, const char *b)
{
	char **bdfs = NULL;
	int n, want = canonical(a) + (b && strcmp(a, b) && canonical(b));

	n = udrv_vfio_list(&bdfs);
	FUZZ_CHECK(n == want && bdfs, "udrv_vfio_list = %d, %d canonical entries", n, want);
	for (int i = 0; i < n; i++) {
		FUZZ_CHECK(canonical(bdfs[i]), "listed \"%s\"", bdfs[i]);
		FUZZ_CHECK(i == 0 || strcmp(bdfs[i - 1], bdfs[i]) < 0, "not sorted: %s, %s",
			   bdfs[i - 1], bdfs[i]);
	}
	FUZZ_CHECK(bdfs[n] == NULL, "no NULL after %d", n);
	udrv_strv_free(bdfs);
}

static void check_iova(const struct fuzz_parts *parts)
{
	struct vfio_iova_window w[4];
	void *buf;
	int n;

	if (!fuzz_has(parts, 11))
		return;
	buf = malloc(parts->len[11] ? parts->len[11] : 1);
	if (!buf)
		return;
	memcpy(buf, parts->p[11], parts->len[11]);
	n = udrv_vfio_parse_iova_caps(buf, parts->len[11], w, 4);
	FUZZ_CHECK(n == -EINVAL || (n >= 0 && n <= 4), "parse_iova_caps = %d", n);
	for (int i = 0; i < n; i++)
		FUZZ_CHECK(w[i].start <= w[i].end, "window %d: 0x%" PRIx64 " > 0x%" PRIx64,
			   i, w[i].start, w[i].end);
	free(buf);
}

static void make_tree(const struct fuzz_parts *parts, const char *a, const char *b)
{
	char rel[160];

	fuzz_reset();
	fuzz_mkdir("sys/kernel");
	snprintf(rel, sizeof(rel), DEVS "%s", a);
	fuzz_mkdir(rel);
	write_attr(parts, 2, a, "vendor");
	write_attr(parts, 3, a, "device");
	write_attr(parts, 4, a, "class");
	link_part(parts, 5, a, "iommu_group");
	link_part(parts, 6, a, "driver");
	if (b) {
		snprintf(rel, sizeof(rel), DEVS "%s", b);
		fuzz_mkdir(rel);
		write_attr(parts, 8, b, "vendor");
		write_attr(parts, 9, b, "device");
	}
	if (fuzz_has(parts, 10)) {
		fuzz_mkdir(VFIO_DIR);
		snprintf(rel, sizeof(rel), VFIO_DIR "/%s", a);
		fuzz_symlink("x", rel);
		if (b && strcmp(a, b)) {
			snprintf(rel, sizeof(rel), VFIO_DIR "/%s", b);
			fuzz_symlink("x", rel);
		}
		fuzz_write_str(VFIO_DIR "/new_id", "");
	}
}

/* The last component of link part @i, as the library would see it. */
static char *driver_name(const struct fuzz_parts *parts)
{
	char *t, *base;

	if (!fuzz_has(parts, 6) || !parts->len[6] || memchr(parts->p[6], 0, parts->len[6]))
		return NULL;
	t = fuzz_str(parts, 6);
	base = strrchr(t, '/');
	base = strdup(base ? base + 1 : t);
	free(t);
	return base;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_parts parts;
	char *spec, *a, *b = NULL, *driver;
	bool a_group;

	fuzz_split(data, size, &parts);
	ids_with_nul = false;
	for (size_t i = 2; i <= 9; i++)
		if (i != 5 && i != 6 && i != 7 && fuzz_has(&parts, i) &&
		    memchr(parts.p[i], 0, parts.len[i]))
			ids_with_nul = true;
	spec = fuzz_str(&parts, 0);
	check_parsers(spec);
	a = entry_name(&parts, 1, "0000:00:01.0");
	if (fuzz_has(&parts, 7))
		b = entry_name(&parts, 7, "0000:00:02.0");
	make_tree(&parts, a, b);
	a_group = fuzz_has(&parts, 5) && parts.len[5] &&
		  !memchr(parts.p[5], 0, parts.len[5]);
	driver = driver_name(&parts);
	check_resolve(spec, a, b);
	check_resolve_errors(spec, a, b);
	check_open(spec, a, a_group, driver);
	if (fuzz_has(&parts, 10))
		check_list(a, b);
	check_iova(&parts);
	free(driver);
	free(spec);
	free(a);
	free(b);
	return 0;
}
