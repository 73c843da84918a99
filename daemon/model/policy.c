// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's policy file (udrvd.conf(5)): parsing and the checks.
 *
 *	allow WHO PERMS gpio CHIP LINE		(read, drive, watch, configure,
 *						 all of those four, admin)
 *	allow WHO open uio NAME | device:DEVICE
 *	allow WHO open vfio PCI-ADDRESS
 *	allow WHO open spi B.C | NAME | device:CONTROLLER/CS
 *	allow WHO transfer i2c BUS ADDRESS[-ADDRESS]	(BUS: i2c-N | name:NAME |
 *						 device:DEVICE; ADDRESS 0xNN,
 *						 ten:0xNNN for 10-bit)
 *	allow WHO open i2c-bus BUS		(the whole bus: every address)
 *	restore gpio CHIP LINE
 *
 * One rule a line; '#' starts a comment; words are separated by spaces or
 * tabs. See policy.h for the API.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <udrv/parse.h>

#include "spi/spi_priv.h"
#include "vfio/pci.h"
#include "policy_priv.h"

static const struct {
	const char *word;
	unsigned int perms;
} perm_words[] = {
	{ "read", UDRVD_READ },
	{ "drive", UDRVD_DRIVE },
	{ "watch", UDRVD_WATCH },
	{ "configure", UDRVD_CONFIGURE },
	{ "open", UDRVD_OPEN },
	{ "admin", UDRVD_ADMIN },
	{ "transfer", UDRVD_TRANSFER },
	{ "all", UDRVD_GPIO_PERMS },	/* last: udrvd_perm_str() names its parts */
};

__attribute__((format(printf, 4, 5)))
static int fail(char *msg, const char *path, unsigned int lineno,
		const char *fmt, ...)
{
	int n = snprintf(msg, UDRVD_MSG_LEN, "%s:%u: ", path, lineno);
	va_list ap;

	va_start(ap, fmt);
	if (n > 0 && n < UDRVD_MSG_LEN)
		vsnprintf(msg + n, UDRVD_MSG_LEN - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void copy(char *dst, const char *src, size_t len)
{
	snprintf(dst, len, "%s", src);
}

const char *udrvd_perm_str(unsigned int perms, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(perm_words) / sizeof(perm_words[0]) - 1; i++) {
		if (!(perms & perm_words[i].perms))
			continue;
		int n = snprintf(buf + used, len - used, "%s%s", used ? "," : "",
				 perm_words[i].word);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return buf;
}

static int default_uid(const char *name, uid_t *uid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	if (getpwnam_r(name, &pw, buf, sizeof(buf), &res) || !res)
		return -ENOENT;
	*uid = res->pw_uid;
	return 0;
}

static int default_gid(const char *name, gid_t *gid)
{
	struct group gr, *res = NULL;
	char buf[16384];

	if (getgrnam_r(name, &gr, buf, sizeof(buf), &res) || !res)
		return -ENOENT;
	*gid = res->gr_gid;
	return 0;
}

static const struct udrvd_names system_names = { default_uid, default_gid };

/* A name the kernel or sysfs could give: printable ASCII, no space, at
 * most @max bytes. */
static bool good_name(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n > max)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s > '~')
			return false;
	return true;
}

/* Decimal digits only (udrv_parse_uint() also takes 0x hex), at most @max. */
static int parse_decimal(const char *s, unsigned int max, unsigned int *v)
{
	if (strspn(s, "0123456789") != strlen(s))
		return -EINVAL;
	return udrv_parse_uint(s, max, v);
}

struct ctx {
	const char *path;
	unsigned int lineno;
	const struct udrvd_names *names;
	char *msg;
};

static int parse_who(struct ctx *c, const char *w, struct rule *r)
{
	const char *colon = strchr(w, ':');
	const char *v = colon ? colon + 1 : "";
	size_t klen = colon ? (size_t)(colon - w) : 0;
	bool user = klen == 4 && !strncmp(w, "user", 4);
	bool group = klen == 5 && !strncmp(w, "group", 5);
	bool uid = klen == 3 && !strncmp(w, "uid", 3);
	bool gid = klen == 3 && !strncmp(w, "gid", 3);

	if (!(user || group || uid || gid) || !*v)
		return fail(c->msg, c->path, c->lineno,
			    "'%s' is not a user or group: write user:NAME, uid:N, group:NAME or gid:N", w);
	r->who = user || uid ? WHO_UID : WHO_GID;
	if (uid || gid) {
		/* (uid_t)-1 means "no id" to the kernel: never a caller */
		if (parse_decimal(v, (unsigned int)-2, &r->id))
			return fail(c->msg, c->path, c->lineno,
				    "'%s': the id must be a decimal number below 4294967295", w);
		return 0;
	}
	uid_t u = 0;
	gid_t g = 0;
	int err = user ? c->names->uid(v, &u) : c->names->gid(v, &g);

	if (err)
		return fail(c->msg, c->path, c->lineno,
			    "no %s '%s' on this system (getent %s %s); for one made later, write %s:N with its id",
			    user ? "user" : "group", v, user ? "passwd" : "group", v,
			    user ? "uid" : "gid");
	r->id = user ? (unsigned int)u : (unsigned int)g;
	return 0;
}

static int parse_perms(struct ctx *c, const char *w, struct rule *r)
{
	char buf[UDRVD_POLICY_MAX_LINE];
	char *save = NULL;
	size_t n = strlen(w);

	if (w[0] == ',' || w[n - 1] == ',' || strstr(w, ",,"))
		return fail(c->msg, c->path, c->lineno,
			    "'%s': an empty permission; write them as read,drive", w);
	copy(buf, w, sizeof(buf));
	for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(perm_words) / sizeof(perm_words[0]); i++)
			if (!strcmp(p, perm_words[i].word))
				break;
		if (i == sizeof(perm_words) / sizeof(perm_words[0]))
			return fail(c->msg, c->path, c->lineno,
				    "unknown permission '%s': read, drive, watch, configure, all or admin for gpio, open for uio, vfio, spi and i2c-bus, transfer for i2c", p);
		if (r->perms & perm_words[i].perms)
			return fail(c->msg, c->path, c->lineno,
				    "permission '%s' given twice in '%s'", p, w);
		r->perms |= perm_words[i].perms;
	}
	return 0;
}

static int parse_chip(struct ctx *c, const char *w, struct rule *r)
{
	unsigned int num;

	if (!strcmp(w, "*")) {
		r->chip_kind = CHIP_ANY;
		return 0;
	}
	if (!strncmp(w, "gpiochip", 8) || !strncmp(w, "/dev/", 5)) {
		if (udrv_parse_devnum(w, "gpiochip", &num))
			return fail(c->msg, c->path, c->lineno,
				    "'%s' is not a chip name: gpiochipN (no leading zeros), or the chip's label", w);
		r->chip_kind = CHIP_NAME;
		snprintf(r->chip, sizeof(r->chip), "gpiochip%u", num);
		return 0;
	}
	if (!good_name(w, KERNEL_NAME_MAX))
		return fail(c->msg, c->path, c->lineno,
			    "'%s' is not a chip label the kernel can report (printable, at most %d bytes)",
			    w, KERNEL_NAME_MAX);
	r->chip_kind = CHIP_LABEL;
	copy(r->chip, w, sizeof(r->chip));
	return 0;
}

/* "N" or "N-M" (decimal offsets, N <= M) */
static int parse_range(struct ctx *c, const char *w, struct rule *r)
{
	char lo[32];
	const char *dash = strchr(w, '-');
	size_t n = dash ? (size_t)(dash - w) : strlen(w);

	if (n >= sizeof(lo))
		goto bad;
	memcpy(lo, w, n);
	lo[n] = '\0';
	if (parse_decimal(lo, MAX_OFFSET, &r->lo))
		goto bad;
	r->hi = r->lo;
	if (dash && parse_decimal(dash + 1, MAX_OFFSET, &r->hi))
		goto bad;
	if (r->hi < r->lo)
		return fail(c->msg, c->path, c->lineno,
			    "'%s': a range runs from the lower offset to the higher", w);
	r->line_kind = LINE_RANGE;
	return 0;
bad:
	return fail(c->msg, c->path, c->lineno,
		    "'%s' is not a line offset or range: decimal N or N-M, at most %d",
		    w, MAX_OFFSET);
}

static int parse_line(struct ctx *c, const char *w, struct rule *r)
{
	if (!strcmp(w, "*")) {
		r->line_kind = LINE_ANY;
		return 0;
	}
	if (w[0] >= '0' && w[0] <= '9')
		return parse_range(c, w, r);
	if (!good_name(w, KERNEL_NAME_MAX))
		return fail(c->msg, c->path, c->lineno,
			    "'%s' is not a line name the kernel can report (printable, at most %d bytes)",
			    w, KERNEL_NAME_MAX);
	r->line_kind = LINE_NAME;
	copy(r->name, w, sizeof(r->name));
	return 0;
}

/*
 * "NAME": the UIO devices whose driver calls them NAME (granted only while
 * one device has it); "device:DEVICE": the one whose parent device
 * (/sys/class/uio/uioN/device) is DEVICE, a PCI address in any spelling
 * udrv_pci_parse_bdf() takes or a platform device's name.
 */
static int parse_uio(struct ctx *c, const char *w, struct rule *r)
{
	const char *dev = !strncmp(w, "device:", 7) ? w + 7 : NULL;
	char bdf[UDRV_PCI_BDF_LEN];

	if (dev && !udrv_pci_parse_bdf(dev, bdf)) {
		r->by_device = true;
		copy(r->name, bdf, sizeof(r->name));
		return 0;
	}
	if (!good_name(dev ? dev : w, UDRVD_NAME_MAX - 1) || (dev && strchr(dev, '/')))
		return fail(c->msg, c->path, c->lineno,
			    "'%s' is not a UIO device's name nor device:DEVICE (printable, no '/', at most %d bytes)",
			    w, UDRVD_NAME_MAX - 1);
	r->by_device = dev;
	copy(r->name, dev ? dev : w, sizeof(r->name));
	return 0;
}

/* "device:X": X as a UIO rule's parent device takes it (a PCI address in
 * the kernel's spelling, or a device's name: printable, no '/'), into
 * @r->name; @end ends X (NULL: the word's end). */
static int parse_parent(const char *x, size_t len, struct rule *r)
{
	char buf[UDRVD_NAME_MAX], bdf[UDRV_PCI_BDF_LEN];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, x, len);
	buf[len] = '\0';
	if (!udrv_pci_parse_bdf(buf, bdf)) {
		copy(r->name, bdf, sizeof(r->name));
		return 0;
	}
	if (!good_name(buf, UDRVD_NAME_MAX - 1) || strchr(buf, '/'))
		return -EINVAL;
	copy(r->name, buf, sizeof(r->name));
	return 0;
}

/*
 * An SPI device: "B.C" (bus and chip select, also spidevB.C), "NAME" (its
 * modalias's name, granted while one device has it) or
 * "device:CONTROLLER/CS" (the controller's own device, which stays when bus
 * numbers change, and the chip select).
 */
static int parse_spi(struct ctx *c, const char *w, struct rule *r)
{
	const char *dev = !strncmp(w, "device:", 7) ? w + 7 : NULL;
	const char *slash = dev ? strrchr(dev, '/') : NULL;

	r->obj = OBJ_SPI;
	if (dev) {
		r->bus_kind = BUS_DEVICE;
		if (!slash || parse_parent(dev, (size_t)(slash - dev), r) ||
		    parse_decimal(slash + 1, 65535, &r->cs) || (slash[1] == '0' && slash[2]))
			return fail(c->msg, c->path, c->lineno,
				    "'%s' is not device:CONTROLLER/CS: the SPI controller's device (fe204000.spi, 0000:00:1e.2) and the chip select (decimal)", w);
		return 0;
	}
	int err = udrv_spi_parse_devspec(w, &r->num, &r->cs);

	if (err == -ERANGE)
		return fail(c->msg, c->path, c->lineno, "'%s': a number out of range", w);
	if (!err) {
		r->bus_kind = BUS_NUMBER;
		return 0;
	}
	/* a name is no misspelt B.C (0.01) */
	if (!good_name(w, UDRVD_NAME_MAX - 1) || strchr(w, '/') || strchr(w, ':') ||
	    strspn(w, "0123456789.") == strlen(w))
		return fail(c->msg, c->path, c->lineno,
			    "'%s' is not an SPI device: B.C (decimal, no leading zeros) (bus and chip select), its name as its modalias says it (mcp3008) or device:CONTROLLER/CS", w);
	r->bus_kind = BUS_NAME;
	copy(r->name, w, sizeof(r->name));
	return 0;
}

/*
 * An I2C bus: "i2c-N" (its number, which can change between boots),
 * "name:NAME" (the adapter's name, its spaces written as '_', granted while
 * one adapter has it) or "device:DEVICE" (the adapter's controller device).
 */
static int parse_i2c_bus(struct ctx *c, const char *w, struct rule *r)
{
	if (!strncmp(w, "device:", 7)) {
		r->bus_kind = BUS_DEVICE;
		if (parse_parent(w + 7, strlen(w + 7), r))
			return fail(c->msg, c->path, c->lineno,
				    "'%s' is not device:DEVICE: the I2C controller's device (0000:00:1f.4, fe804000.i2c; printable, no '/')", w);
		return 0;
	}
	if (!strncmp(w, "name:", 5)) {
		r->bus_kind = BUS_NAME;
		if (!good_name(w + 5, UDRVD_NAME_MAX - 1))
			return fail(c->msg, c->path, c->lineno,
				    "'%s' is not name:NAME: the adapter's name (/sys/bus/i2c/devices/i2c-N/name) with '_' for each space, at most %d bytes",
				    w, UDRVD_NAME_MAX - 1);
		copy(r->name, w + 5, sizeof(r->name));
		return 0;
	}
	if (!strncmp(w, "i2c-", 4) || !strncmp(w, "/dev/i2c-", 9)) {
		const char *num = w + (w[0] == '/' ? 9 : 4);

		if (!*num || (num[0] == '0' && num[1]) ||
		    parse_decimal(num, 0x7fffffff, &r->num))
			return fail(c->msg, c->path, c->lineno,
				    "'%s' is not a bus number: i2c-N (no leading zeros)", w);
		r->bus_kind = BUS_NUMBER;
		return 0;
	}
	return fail(c->msg, c->path, c->lineno,
		    "'%s' is not an I2C bus: i2c-N (its number), name:NAME (its adapter's name, '_' for spaces) or device:DEVICE (its controller)", w);
}

/* "0xNN" (hex, as i2cdetect prints it) at most @max: 0 or -EINVAL. */
static int parse_addr(const char *s, size_t len, unsigned int max, unsigned int *v)
{
	char buf[8];

	if (len < 3 || len > 5 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -EINVAL;
	memcpy(buf, s + 2, len - 2);
	buf[len - 2] = '\0';
	if (strspn(buf, "0123456789abcdefABCDEF") != len - 2)
		return -EINVAL;
	*v = (unsigned int)strtoul(buf, NULL, 16);
	return *v <= max ? 0 : -EINVAL;
}

/* "0xNN" or "0xNN-0xMM" (7-bit, 0x00-0x7f), "ten:" before them for 10-bit
 * (0x000-0x3ff). */
static int parse_i2c_addrs(struct ctx *c, const char *w, struct rule *r)
{
	const char *a = w;
	const char *dash;
	unsigned int max = 0x7f;

	if (!strncmp(a, "ten:", 4)) {
		r->ten = true;
		a += 4;
		max = 0x3ff;
	}
	dash = strchr(a, '-');
	if (parse_addr(a, dash ? (size_t)(dash - a) : strlen(a), max, &r->lo))
		goto bad;
	r->hi = r->lo;
	if (dash && parse_addr(dash + 1, strlen(dash + 1), max, &r->hi))
		goto bad;
	if (r->hi < r->lo)
		return fail(c->msg, c->path, c->lineno,
			    "'%s': a range runs from the lower address to the higher", w);
	return 0;
bad:
	return fail(c->msg, c->path, c->lineno,
		    "'%s' is not an I2C address or range: 0xNN or 0xNN-0xMM (7-bit, 0x00-0x7f), ten:0xNNN[-0xNNN] (10-bit, 0x000-0x3ff)", w);
}

static int parse_bus_object(struct ctx *c, char **w, size_t n, struct rule *r)
{
	if (!strcmp(w[0], "spi")) {
		if (n != 2)
			return fail(c->msg, c->path, c->lineno,
				    "spi takes one device: spi B.C, spi NAME (its modalias's name) or spi device:CONTROLLER/CS");
		return parse_spi(c, w[1], r);
	}
	if (!strcmp(w[0], "i2c-bus")) {
		if (n != 2)
			return fail(c->msg, c->path, c->lineno,
				    "i2c-bus takes one bus, which it gives whole: i2c-bus i2c-N, name:NAME or device:DEVICE");
		r->obj = OBJ_I2C_BUS;
		return parse_i2c_bus(c, w[1], r);
	}
	if (n != 3)
		return fail(c->msg, c->path, c->lineno,
			    "i2c takes a bus and addresses: i2c BUS 0xNN[-0xMM] (the whole bus is i2c-bus BUS)");
	r->obj = OBJ_I2C;
	int err = parse_i2c_bus(c, w[1], r);

	return err ? err : parse_i2c_addrs(c, w[2], r);
}

static int parse_object(struct ctx *c, char **w, size_t n, struct rule *r)
{
	if (!strcmp(w[0], "spi") || !strcmp(w[0], "i2c") || !strcmp(w[0], "i2c-bus"))
		return parse_bus_object(c, w, n, r);
	if (!strcmp(w[0], "gpio")) {
		if (n != 3)
			return fail(c->msg, c->path, c->lineno,
				    "gpio takes a chip and a line: gpio CHIP LINE ('*' for any)");
		r->obj = OBJ_GPIO;
		int err = parse_chip(c, w[1], r);

		return err ? err : parse_line(c, w[2], r);
	}
	if (strcmp(w[0], "uio") && strcmp(w[0], "vfio"))
		return fail(c->msg, c->path, c->lineno,
			    "unknown device kind '%s': gpio, uio, vfio, spi, i2c or i2c-bus", w[0]);
	if (n != 2)
		return fail(c->msg, c->path, c->lineno,
			    "%s takes one device: %s", w[0],
			    w[0][0] == 'u' ? "uio NAME (its name in /sys/class/uio/uioN/name) or uio device:DEVICE (its parent: 0000:00:04.0, 40000000.fpga)" :
					     "vfio PCI-ADDRESS (0000:00:04.0)");
	if (w[0][0] == 'u') {
		r->obj = OBJ_UIO;
		return parse_uio(c, w[1], r);
	}
	r->obj = OBJ_VFIO;
	char bdf[UDRV_PCI_BDF_LEN];

	if (udrv_pci_parse_bdf(w[1], bdf))
		return fail(c->msg, c->path, c->lineno,
			    "'%s' is not a PCI address: DDDD:BB:DD.F or BB:DD.F (lspci -D)", w[1]);
	copy(r->name, bdf, sizeof(r->name));
	return 0;
}

static const char *const obj_words[] = {
	[OBJ_GPIO] = "gpio", [OBJ_UIO] = "uio", [OBJ_VFIO] = "vfio", [OBJ_SPI] = "spi",
	[OBJ_I2C] = "i2c", [OBJ_I2C_BUS] = "i2c-bus",
};

static int check_perms(struct ctx *c, struct rule *r)
{
	bool gpio = r->obj == OBJ_GPIO;

	if (gpio && (r->perms & (UDRVD_OPEN | UDRVD_TRANSFER)))
		return fail(c->msg, c->path, c->lineno,
			    "%s; a gpio line takes read, drive, watch, configure, all or admin",
			    r->perms & UDRVD_OPEN ? "'open' is for uio, vfio, spi and i2c-bus" :
			    "'transfer' is for i2c");
	if (r->obj == OBJ_I2C && r->perms != UDRVD_TRANSFER)
		return fail(c->msg, c->path, c->lineno,
			    "i2c addresses take the permission 'transfer' only (udrvd makes the transfers); the whole bus's fd is 'open i2c-bus BUS'");
	if (!gpio && r->obj != OBJ_I2C && r->perms != UDRVD_OPEN)
		return fail(c->msg, c->path, c->lineno,
			    "%s takes the permission 'open' only", obj_words[r->obj]);
	return 0;
}

static int parse_rule(struct ctx *c, char **w, size_t n, struct rule *r)
{
	int err;

	if (!strcmp(w[0], "restore")) {
		r->restore = true;
		if (n < 2 || strcmp(w[1], "gpio"))
			return fail(c->msg, c->path, c->lineno,
				    "restore takes GPIO lines: restore gpio CHIP LINE");
		return parse_object(c, w + 1, n - 1, r);
	}
	if (strcmp(w[0], "allow"))
		return fail(c->msg, c->path, c->lineno,
			    "unknown rule '%s': a rule starts with allow or restore", w[0]);
	if (n < 4)
		return fail(c->msg, c->path, c->lineno,
			    "allow needs who, what and which: allow WHO PERMS gpio CHIP LINE (udrvd.conf(5))");
	err = parse_who(c, w[1], r);
	if (!err)
		err = parse_perms(c, w[2], r);
	if (!err)
		err = parse_object(c, w + 3, n - 3, r);
	return err ? err : check_perms(c, r);
}

/* Split @line (modified) into words; a '#' ends it. */
static size_t split(char *line, char **w, size_t max, bool *too_many)
{
	size_t n = 0;
	char *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	*too_many = false;
	for (char *p = line; *p;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		if (n == max) {
			*too_many = true;
			break;
		}
		w[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	return n;
}

static void rule_text(struct rule *r, char **w, size_t n)
{
	size_t used = 0;

	for (size_t i = 0; i < n && used < sizeof(r->text); i++) {
		int k = snprintf(r->text + used, sizeof(r->text) - used, "%s%s",
				 i ? " " : "", w[i]);
		if (k < 0)
			break;
		used += (size_t)k;
	}
}

static int bad_bytes(struct ctx *c, const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)line[i];

		if (ch == '\r')
			return fail(c->msg, c->path, c->lineno,
				    "a carriage return: save the file with Unix line ends");
		if (ch == '\0' || (ch < ' ' && ch != '\t') || ch == 0x7f)
			return fail(c->msg, c->path, c->lineno,
				    "a control character (byte 0x%02x at column %zu)", ch, i + 1);
	}
	return 0;
}

/* One line of the file: a rule into @p, or nothing (blank, comment). */
static int parse_line_of_file(struct ctx *c, const char *line, size_t len,
			      struct udrvd_policy *p)
{
	char buf[UDRVD_POLICY_MAX_LINE + 1];
	char *w[MAX_WORDS];
	bool too_many;
	size_t n;
	int err;

	if (len > UDRVD_POLICY_MAX_LINE)
		return fail(c->msg, c->path, c->lineno,
			    "longer than %d bytes", UDRVD_POLICY_MAX_LINE);
	err = bad_bytes(c, line, len);
	if (err)
		return err;
	memcpy(buf, line, len);
	buf[len] = '\0';
	n = split(buf, w, MAX_WORDS, &too_many);
	if (too_many)
		return fail(c->msg, c->path, c->lineno,
			    "more than %d words: one rule a line", MAX_WORDS);
	if (!n)
		return 0;
	if (p->n == UDRVD_POLICY_MAX_RULES)
		return fail(c->msg, c->path, c->lineno,
			    "more than %d rules", UDRVD_POLICY_MAX_RULES);

	struct rule *r = &p->rules[p->n];

	memset(r, 0, sizeof(*r));
	r->lineno = c->lineno;
	err = parse_rule(c, w, n, r);
	if (err)
		return err;
	rule_text(r, w, n);
	p->n++;
	return 0;
}

static size_t count_lines(const char *text, size_t len)
{
	size_t n = 1;

	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

int udrvd_policy_parse(const char *text, size_t len, const char *path,
		       const struct udrvd_names *names,
		       struct udrvd_policy **out, char msg[UDRVD_MSG_LEN])
{
	struct ctx c = { path, 0, names ? names : &system_names, msg };
	size_t max = count_lines(text, len);
	struct udrvd_policy *p;

	if (max > UDRVD_POLICY_MAX_RULES + 1)
		max = UDRVD_POLICY_MAX_RULES + 1;
	p = calloc(1, sizeof(*p) + max * sizeof(p->rules[0]));
	if (!p) {
		snprintf(msg, UDRVD_MSG_LEN, "%s: out of memory", path);
		return -ENOMEM;
	}
	copy(p->path, path, sizeof(p->path));
	for (size_t start = 0; start < len;) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len;
		int err;

		c.lineno++;
		err = parse_line_of_file(&c, text + start, end - start, p);
		if (err) {
			free(p);
			return err;
		}
		start = end + 1;
	}
	*out = p;
	msg[0] = '\0';
	return 0;
}

int udrvd_policy_load(const char *path, const struct udrvd_names *names,
		      struct udrvd_policy **out, char msg[UDRVD_MSG_LEN])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *text;
	size_t len = 0;
	int err = 0;

	if (fd < 0) {
		err = -errno;
		snprintf(msg, UDRVD_MSG_LEN, "cannot read the policy %s: %s%s", path,
			 strerror(-err), err == -ENOENT ?
			 " (write one: udrvd.conf(5); without rules nobody has access)" : "");
		return err;
	}
	text = malloc(MAX_FILE + 1);
	while (text) {
		ssize_t n = read(fd, text + len, MAX_FILE + 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		len += (size_t)n;
		if (len > MAX_FILE) {
			err = -EFBIG;
			break;
		}
	}
	close(fd);
	if (!text)
		err = -ENOMEM;
	if (err)
		snprintf(msg, UDRVD_MSG_LEN, "cannot read the policy %s: %s", path,
			 err == -EFBIG ? "larger than 1 MiB" : strerror(-err));
	else
		err = udrvd_policy_parse(text, len, path, names, out, msg);
	free(text);
	return err;
}

void udrvd_policy_free(struct udrvd_policy *policy)
{
	free(policy);
}

size_t udrvd_policy_rules(const struct udrvd_policy *policy)
{
	return policy->n;
}

const char *udrvd_policy_rule_str(const struct udrvd_policy *policy, size_t i,
				  char *buf, size_t len)
{
	const struct rule *r = &policy->rules[i];

	snprintf(buf, len, "%s:%u: %s", policy->path, r->lineno, r->text);
	return buf;
}
