/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrvd's policy: who may use which GPIO line, UIO, VFIO or SPI device, I2C
 * address or whole I2C bus through the daemon (udrvd.conf(5)). Allow rules only: a call is granted
 * when the rules that match the caller and the object grant every
 * permission it needs together; no rule, no access. The parser is strict:
 * an unknown word, a bad number, a user or group the system does not know,
 * an over-long line are errors naming the file, its line and the fix, and
 * udrvd does not start on them.
 */
#ifndef UDRVD_POLICY_H
#define UDRVD_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What a rule grants (udrvd.conf(5)). */
enum udrvd_perm {
	UDRVD_READ	= 1 << 0,	/* request as input, get values */
	UDRVD_DRIVE	= 1 << 1,	/* request as output, set values */
	UDRVD_WATCH	= 1 << 2,	/* edge detection and its events */
	UDRVD_CONFIGURE	= 1 << 3,	/* bias, drive, active-low, debounce, reconfigure */
	UDRVD_OPEN	= 1 << 4,	/* a UIO, VFIO, SPI device's or I2C bus's fd */
	UDRVD_ADMIN	= 1 << 5,	/* release anyone's request on the line */
	UDRVD_TRANSFER	= 1 << 6,	/* I2C transfers udrvd makes, at an address */
};
#define UDRVD_GPIO_PERMS	(UDRVD_READ | UDRVD_DRIVE | UDRVD_WATCH | UDRVD_CONFIGURE)

#define UDRVD_POLICY_MAX_LINE	1024	/* bytes in one line of the file */
#define UDRVD_POLICY_MAX_RULES	4096
#define UDRVD_NAME_MAX		64	/* chip label, line name, UIO name */
#define UDRVD_MSG_LEN		512

struct udrvd_policy;

/* How user and group names become ids: getpwnam_r()/getgrnam_r() by
 * default (NULL); tests and the fuzzer give their own. 0 or -ENOENT. */
struct udrvd_names {
	int (*uid)(const char *name, uid_t *uid);
	int (*gid)(const char *name, gid_t *gid);
};

/*
 * Parse @len bytes of @text (a NUL byte in it is an error), read from
 * @path (for messages). 0 and *@out, or -EINVAL (-ENOMEM, -E2BIG) and
 * @msg ("PATH:LINE: what is wrong; what to write instead").
 */
int udrvd_policy_parse(const char *text, size_t len, const char *path,
		       const struct udrvd_names *names,
		       struct udrvd_policy **out, char msg[UDRVD_MSG_LEN]);
/* Read and parse the file @path; -errno and @msg when it cannot be read. */
int udrvd_policy_load(const char *path, const struct udrvd_names *names,
		      struct udrvd_policy **out, char msg[UDRVD_MSG_LEN]);
void udrvd_policy_free(struct udrvd_policy *policy);
size_t udrvd_policy_rules(const struct udrvd_policy *policy);
/* Rule @i (below udrvd_policy_rules()) as "PATH:LINE: its words" in @buf. */
const char *udrvd_policy_rule_str(const struct udrvd_policy *policy, size_t i,
				  char *buf, size_t len);

/* A caller's credentials, as the bus reports them for its connection. */
struct udrvd_caller {
	uid_t uid;
	gid_t gid;
	const gid_t *groups;	/* supplementary groups */
	size_t ngroups;
};

/* The caller @uid whose groups are the set @groups (@n of them: the bus's,
 * or the user database's): the first named as its gid, the others its
 * supplementary groups; none: no group ((gid_t)-1). @c points into @groups. */
void udrvd_caller_set(struct udrvd_caller *c, uid_t uid, const gid_t *groups, size_t n);

/* A GPIO line as the kernel names it. */
struct udrvd_gpio_line {
	const char *chip;	/* "gpiochip0" */
	const char *label;	/* "pinctrl-bcm2835" */
	unsigned int offset;
	const char *name;	/* "GPIO17", "" when unnamed */
};

/*
 * May @caller do everything in @want (enum udrvd_perm) on @line? 0, or
 * -EACCES and @msg: what was refused, to whom, and the rules that match
 * the caller on that chip (or that none does).
 */
int udrvd_policy_gpio(const struct udrvd_policy *policy,
		      const struct udrvd_caller *caller,
		      const struct udrvd_gpio_line *line, unsigned int want,
		      char msg[UDRVD_MSG_LEN]);

/* A UIO device as the sysfs of its node's dev_t names it. */
struct udrvd_uio_dev {
	const char *node;	/* "uio0" */
	const char *name;	/* the driver's name for it: "uio_pci_generic" */
	const char *device;	/* its parent: "0000:00:04.0", "" without one */
	unsigned int same_name;	/* UIO devices with that name now, it included */
};

/*
 * May @caller open UIO device @dev? A rule `uio device:DEVICE` grants the
 * device with that parent; a rule `uio NAME` the device of that name while
 * it is the only one (uio_pci_generic names all its devices alike: such a
 * rule would give every one, also those bound later). 0, or -EACCES and
 * @msg, which says when a NAME rule matched a name several devices have.
 */
int udrvd_policy_uio_dev(const struct udrvd_policy *policy,
			 const struct udrvd_caller *caller,
			 const struct udrvd_uio_dev *dev, char msg[UDRVD_MSG_LEN]);
/* The same for opening UIO device @name ("uio-ticker", its sysfs name,
 * the only device with it, no parent) and VFIO device @bdf
 * ("0000:00:04.0"). */
int udrvd_policy_uio(const struct udrvd_policy *policy,
		     const struct udrvd_caller *caller, const char *name,
		     char msg[UDRVD_MSG_LEN]);
int udrvd_policy_vfio(const struct udrvd_policy *policy,
		      const struct udrvd_caller *caller, const char *bdf,
		      char msg[UDRVD_MSG_LEN]);

/*
 * An SPI device (spidev) or an I2C adapter as the sysfs of its node's dev_t
 * names it (model/sysfs_buses.h).
 */
struct udrvd_bus_dev {
	const char *node;	/* "spidev0.1", "i2c-1" */
	unsigned int bus;	/* B of spiB.C, N of i2c-N */
	unsigned int cs;	/* SPI: the chip select */
	const char *name;	/* SPI: its modalias's name ("mcp3008"); I2C: the
				 * adapter's ("SMBus I801 adapter at f040"); "" none */
	const char *device;	/* the controller's device ("fe204000.spi",
				 * "0000:00:1f.4"), "" without one */
	unsigned int same_name;	/* devices (adapters) with that name now, it included */
};

/*
 * May @caller open SPI device @dev (`open spi B.C | NAME | device:CONTROLLER/CS`),
 * or the whole I2C bus @adapter (`open i2c-bus i2c-N | name:NAME |
 * device:DEVICE`)? A NAME rule grants while one device (adapter) has the
 * name, as for UIO. 0, or -EACCES and @msg naming the caller's rules.
 */
int udrvd_policy_spi(const struct udrvd_policy *policy, const struct udrvd_caller *caller,
		     const struct udrvd_bus_dev *dev, char msg[UDRVD_MSG_LEN]);
int udrvd_policy_i2c_bus(const struct udrvd_policy *policy, const struct udrvd_caller *caller,
			 const struct udrvd_bus_dev *adapter, char msg[UDRVD_MSG_LEN]);
/*
 * May @caller have udrvd talk to address @addr (10-bit when @ten) of bus
 * @adapter (`transfer i2c BUS ADDRESS[-ADDRESS]`)? A reserved 7-bit address
 * (0x00-0x02, 0x78-0x7f) and a 10-bit one are granted only by a rule whose
 * range holds them (ten:ADDRESS for 10-bit). 0, or -EACCES and @msg.
 */
int udrvd_policy_i2c(const struct udrvd_policy *policy, const struct udrvd_caller *caller,
		     const struct udrvd_bus_dev *adapter, unsigned int addr, bool ten,
		     char msg[UDRVD_MSG_LEN]);

/*
 * Does an allow rule name @caller and @line, whatever it grants? Such a
 * caller is shown the line's state (its consumer, direction, request).
 */
bool udrvd_policy_gpio_names(const struct udrvd_policy *policy,
			     const struct udrvd_caller *caller,
			     const struct udrvd_gpio_line *line);

/* Does a restore rule cover @line (its held state comes back at start)? */
bool udrvd_policy_restores(const struct udrvd_policy *policy,
			   const struct udrvd_gpio_line *line);

/* "read,drive" for @perms (into @buf). */
const char *udrvd_perm_str(unsigned int perms, char *buf, size_t len);

#endif /* UDRVD_POLICY_H */
