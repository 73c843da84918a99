// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of udrvd's policy (daemon/model/policy.c, policy_check.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "policy.h"

#define PATH	"/etc/udrv/udrvd.conf"

static int fake_uid(const char *name, uid_t *uid)
{
	if (!strcmp(name, "alice"))
		*uid = 1001;
	else if (!strcmp(name, "bob"))
		*uid = 1002;
	else
		return -ENOENT;
	return 0;
}

static int fake_gid(const char *name, gid_t *gid)
{
	if (!strcmp(name, "door"))
		*gid = 2001;
	else if (!strcmp(name, "gpio"))
		*gid = 2002;
	else
		return -ENOENT;
	return 0;
}

static const struct udrvd_names names = { fake_uid, fake_gid };
static char msg[UDRVD_MSG_LEN];

static struct udrvd_policy *parse(const char *text)
{
	struct udrvd_policy *p = NULL;
	int err = udrvd_policy_parse(text, strlen(text), PATH, &names, &p, msg);

	if (err)
		harness_fail(__FILE__, __LINE__, "refused: %s", msg);
	return p;
}

/* @text is refused with a message holding @where and @what. */
#define CHECK_REFUSED(text, where, what)				\
	do {								\
		struct udrvd_policy *_p = NULL;				\
		const char *_t = (text);				\
		int _e = udrvd_policy_parse(_t, strlen(_t), PATH, &names, &_p, msg); \
		CHECK_INT(_e, -EINVAL);					\
		CHECK(_p == NULL);					\
		CHECK_CONTAINS(msg, where);				\
		CHECK_CONTAINS(msg, what);				\
	} while (0)

static const struct udrvd_gpio_line gpio17 = { "gpiochip0", "pinctrl-bcm2835", 17, "GPIO17" };
static const struct udrvd_gpio_line gpio18 = { "gpiochip0", "pinctrl-bcm2835", 18, "GPIO18" };
static const struct udrvd_caller alice = { 1001, 1001, NULL, 0 };
static const gid_t bob_groups[] = { 27, 2001 };
static const struct udrvd_caller bob = { 1002, 1002, bob_groups, 2 };
static const struct udrvd_caller carol = { 1003, 2002, NULL, 0 };

static void test_every_form(void)
{
	struct udrvd_policy *p = parse(
		"# who may use what\n"
		"\n"
		"allow user:alice read,drive gpio pinctrl-bcm2835 GPIO17\n"
		"  allow\tgroup:door watch gpio gpiochip0 20-23   # the door's sensors\n"
		"allow uid:1003 all gpio /dev/gpiochip1 *\n"
		"allow gid:2002 configure gpio * 5\n"
		"allow user:bob open uio uio-ticker\n"
		"allow user:bob open vfio 00:04.0\n"
		"restore gpio pinctrl-bcm2835 GPIO17\n"
		"allow group:gpio read gpio * *");

	CHECK_INT(udrvd_policy_rules(p), 8);
	udrvd_policy_free(p);
}

static void test_empty_policy_grants_nothing(void)
{
	struct udrvd_policy *p = parse("# nothing yet\n\n");

	CHECK_INT(udrvd_policy_rules(p), 0);
	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio17, UDRVD_READ, msg), -EACCES);
	CHECK_CONTAINS(msg, "no rule in " PATH " names the caller on this chip");
	CHECK_INT(udrvd_policy_uio(p, &alice, "uio-ticker", msg), -EACCES);
	CHECK_INT(udrvd_policy_vfio(p, &alice, "0000:00:04.0", msg), -EACCES);
	CHECK(!udrvd_policy_restores(p, &gpio17));
	udrvd_policy_free(p);
}

static void test_one_line_not_the_next(void)
{
	struct udrvd_policy *p = parse("# header\nallow user:alice read,drive gpio pinctrl-bcm2835 GPIO17\n");

	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio17, UDRVD_DRIVE, msg), 0);
	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio17, UDRVD_READ | UDRVD_DRIVE, msg), 0);
	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio18, UDRVD_DRIVE, msg), -EACCES);
	CHECK_CONTAINS(msg, "refuses uid 1001 (gid 1001) 'drive' on line 18 (GPIO18) of gpiochip0 (pinctrl-bcm2835)");
	/* the refusal names the rule that does not cover the line */
	CHECK_CONTAINS(msg, PATH ":2 (allow user:alice read,drive gpio pinctrl-bcm2835 GPIO17)");
	/* another user, same line */
	CHECK_INT(udrvd_policy_gpio(p, &bob, &gpio17, UDRVD_READ, msg), -EACCES);
	CHECK_CONTAINS(msg, "no rule in " PATH " names the caller on this chip");
	udrvd_policy_free(p);
}

static void test_missing_permission_is_named(void)
{
	struct udrvd_policy *p = parse("allow user:alice read gpio * 17\n");

	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio17, UDRVD_READ, msg), 0);
	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio17, UDRVD_READ | UDRVD_WATCH, msg), -EACCES);
	CHECK_CONTAINS(msg, "'read,watch'");
	CHECK_CONTAINS(msg, "no rule grants watch");
	udrvd_policy_free(p);
}

static void test_rules_add_up(void)
{
	struct udrvd_policy *p = parse("allow user:alice read gpio gpiochip0 17\n"
				       "allow group:gpio drive gpio pinctrl-bcm2835 10-20\n");
	const gid_t groups[] = { 2002 };
	const struct udrvd_caller alice_gpio = { 1001, 1001, groups, 1 };

	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio17, UDRVD_READ | UDRVD_DRIVE, msg), -EACCES);
	CHECK_INT(udrvd_policy_gpio(p, &alice_gpio, &gpio17, UDRVD_READ | UDRVD_DRIVE, msg), 0);
	CHECK_INT(udrvd_policy_gpio(p, &alice_gpio, &gpio18, UDRVD_DRIVE, msg), 0);
	CHECK_INT(udrvd_policy_gpio(p, &alice_gpio, &gpio18, UDRVD_READ, msg), -EACCES);
	udrvd_policy_free(p);
}

static void test_groups_primary_and_supplementary(void)
{
	struct udrvd_policy *p = parse("allow group:door read gpio * *\n"
				       "allow gid:2002 drive gpio * *\n");

	CHECK_INT(udrvd_policy_gpio(p, &bob, &gpio17, UDRVD_READ, msg), 0);	/* supplementary */
	CHECK_INT(udrvd_policy_gpio(p, &bob, &gpio17, UDRVD_DRIVE, msg), -EACCES);
	CHECK_INT(udrvd_policy_gpio(p, &carol, &gpio17, UDRVD_DRIVE, msg), 0);	/* primary */
	CHECK_INT(udrvd_policy_gpio(p, &carol, &gpio17, UDRVD_READ, msg), -EACCES);
	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio17, UDRVD_READ, msg), -EACCES);
	udrvd_policy_free(p);
}

static void test_chip_by_name_label_and_line_by_name(void)
{
	struct udrvd_policy *p = parse("allow uid:1001 read gpio gpiochip1 *\n"
				       "allow uid:1001 drive gpio gpio-wire out0\n");
	struct udrvd_gpio_line wire = { "gpiochip1", "gpio-wire", 0, "out0" };
	struct udrvd_gpio_line other = { "gpiochip2", "gpio-wire", 1, "" };

	CHECK_INT(udrvd_policy_gpio(p, &alice, &wire, UDRVD_READ | UDRVD_DRIVE, msg), 0);
	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio17, UDRVD_READ, msg), -EACCES);
	/* an unnamed line never matches a name rule */
	CHECK_INT(udrvd_policy_gpio(p, &alice, &other, UDRVD_DRIVE, msg), -EACCES);
	CHECK_CONTAINS(msg, "line 1 of gpiochip2 (gpio-wire)");
	udrvd_policy_free(p);
}

static void test_devices(void)
{
	struct udrvd_policy *p = parse("allow user:bob open uio uio-ticker\n"
				       "allow user:bob open vfio 0000:00:04.0\n"
				       "allow user:alice read gpio * *\n");

	CHECK_INT(udrvd_policy_uio(p, &bob, "uio-ticker", msg), 0);
	CHECK_INT(udrvd_policy_uio(p, &bob, "uio-other", msg), -EACCES);
	CHECK_CONTAINS(msg, "'open' on uio device uio-other");
	CHECK_CONTAINS(msg, PATH ":1 (allow user:bob open uio uio-ticker)");
	CHECK_INT(udrvd_policy_vfio(p, &bob, "0000:00:04.0", msg), 0);
	CHECK_INT(udrvd_policy_vfio(p, &bob, "0000:00:05.0", msg), -EACCES);
	CHECK_INT(udrvd_policy_uio(p, &alice, "uio-ticker", msg), -EACCES);
	CHECK_CONTAINS(msg, "no rule in " PATH " names the caller for such devices");
	/* a gpio rule does not open devices, nor a device rule lines */
	CHECK_INT(udrvd_policy_gpio(p, &bob, &gpio17, UDRVD_READ, msg), -EACCES);
	udrvd_policy_free(p);
}

static void test_restore(void)
{
	struct udrvd_policy *p = parse("restore gpio pinctrl-bcm2835 17\n");

	CHECK(udrvd_policy_restores(p, &gpio17));
	CHECK(!udrvd_policy_restores(p, &gpio18));
	/* a restore rule grants nobody anything */
	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio17, UDRVD_READ, msg), -EACCES);
	udrvd_policy_free(p);
}

/* admin: its own word, for gpio only, not part of all; any rule for a line
 * (admin included) names the caller for it (the line's state is shown). */
static void test_admin(void)
{
	struct udrvd_policy *p = parse("allow user:alice admin gpio pinctrl-bcm2835 17\n"
				       "allow user:bob all gpio * 18\n");
	char buf[64];

	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio17, UDRVD_ADMIN, msg), 0);
	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio17, UDRVD_READ, msg), -EACCES);
	CHECK_INT(udrvd_policy_gpio(p, &alice, &gpio18, UDRVD_ADMIN, msg), -EACCES);
	CHECK_CONTAINS(msg, "no rule grants admin");
	CHECK_INT(udrvd_policy_gpio(p, &bob, &gpio18, UDRVD_GPIO_PERMS, msg), 0);
	CHECK_INT(udrvd_policy_gpio(p, &bob, &gpio18, UDRVD_ADMIN, msg), -EACCES);
	CHECK(udrvd_policy_gpio_names(p, &alice, &gpio17));
	CHECK(!udrvd_policy_gpio_names(p, &alice, &gpio18));
	CHECK(udrvd_policy_gpio_names(p, &bob, &gpio18));
	CHECK(!udrvd_policy_gpio_names(p, &carol, &gpio17));
	CHECK_STR(udrvd_perm_str(UDRVD_READ | UDRVD_ADMIN, buf, sizeof(buf)), "read,admin");
	udrvd_policy_free(p);
	p = parse("restore gpio * *\nallow user:alice open uio u0\n");
	CHECK(!udrvd_policy_gpio_names(p, &alice, &gpio17));	/* neither names a line */
	udrvd_policy_free(p);
	CHECK_REFUSED("allow uid:10 admin uio uio0", ":1:", "takes the permission 'open' only");
	CHECK_REFUSED("allow uid:10 admin,admin gpio * *", ":1:", "given twice");
	CHECK_REFUSED("allow uid:10 admn gpio * *", ":1:", "all or admin for gpio");
}

static void test_refusals(void)
{
	CHECK_REFUSED("deny user:alice read gpio * *", PATH ":1:", "starts with allow or restore");
	CHECK_REFUSED("\n\nallow alice read gpio * *", PATH ":3:", "user:NAME, uid:N");
	CHECK_REFUSED("allow user: read gpio * *", ":1:", "is not a user or group");
	CHECK_REFUSED("allow user:mallory read gpio * *", ":1:", "no user 'mallory' on this system");
	CHECK_REFUSED("allow group:nobodys read gpio * *", ":1:", "getent group nobodys");
	CHECK_REFUSED("allow uid:-1 read gpio * *", ":1:", "decimal number");
	CHECK_REFUSED("allow uid:4294967295 read gpio * *", ":1:", "decimal number");
	CHECK_REFUSED("allow uid:0x10 read gpio * *", ":1:", "decimal number");
	CHECK_REFUSED("allow uid:10 wrte gpio * *", ":1:", "unknown permission 'wrte'");
	CHECK_REFUSED("allow uid:10 read,,drive gpio * *", ":1:", "an empty permission");
	CHECK_REFUSED("allow uid:10 read, gpio * *", ":1:", "an empty permission");
	CHECK_REFUSED("allow uid:10 read,read gpio * *", ":1:", "given twice");
	CHECK_REFUSED("allow uid:10 open gpio * *", ":1:", "'open' is for uio, vfio, spi and i2c-bus");
	CHECK_REFUSED("allow uid:10 read uio uio0", ":1:", "takes the permission 'open' only");
	CHECK_REFUSED("allow uid:10 read gpio *", ":1:", "gpio CHIP LINE");
	CHECK_REFUSED("allow uid:10 read gpio * * 3", ":1:", "gpio CHIP LINE");
	CHECK_REFUSED("allow uid:10 read spi * *", ":1:", "spi takes one device");
	CHECK_REFUSED("allow uid:10 read can can0", ":1:", "unknown device kind 'can'");
	CHECK_REFUSED("allow uid:10 read gpio gpiochip04 1", ":1:", "not a chip name");
	CHECK_REFUSED("allow uid:10 read gpio gpiochip 1", ":1:", "not a chip name");
	CHECK_REFUSED("allow uid:10 read gpio 0123456789012345678901234567890123 1", ":1:",
		      "at most 31 bytes");
	CHECK_REFUSED("allow uid:10 read gpio * 5-3", ":1:", "from the lower offset");
	CHECK_REFUSED("allow uid:10 read gpio * 65535", ":1:", "at most 65534");
	CHECK_REFUSED("allow uid:10 read gpio * 0x10", ":1:", "decimal N or N-M");
	CHECK_REFUSED("allow uid:10 read gpio * 1-", ":1:", "decimal N or N-M");
	CHECK_REFUSED("allow uid:10 read gpio * 1-2-3", ":1:", "decimal N or N-M");
	CHECK_REFUSED("allow uid:10 read gpio * 99999999999999999999", ":1:", "decimal N or N-M");
	CHECK_REFUSED("allow uid:10 open vfio 00:04", ":1:", "not a PCI address");
	CHECK_REFUSED("allow uid:10 open vfio", ":1:", "vfio PCI-ADDRESS");
	CHECK_REFUSED("allow uid:10 open uio", ":1:", "uio NAME");
	CHECK_REFUSED("restore uio uio0", ":1:", "restore gpio CHIP LINE");
	CHECK_REFUSED("restore", ":1:", "restore gpio CHIP LINE");
	CHECK_REFUSED("allow uid:10 read gpio * 1\r\n", ":1:", "carriage return");
	CHECK_REFUSED("allow uid:10 read gpio * 1\v", ":1:", "control character");
	CHECK_REFUSED("allow uid:10 read gpio * 1 a b", ":1:", "gpio CHIP LINE");
	CHECK_REFUSED("allow uid:10 read gpio * 1 a b c", ":1:", "more than 8 words");
}

static void test_nul_and_size_limits(void)
{
	static const char with_nul[] = "allow uid:10 read gpio * 1\n\0allow";
	struct udrvd_policy *p = NULL;
	char *long_line = malloc(UDRVD_POLICY_MAX_LINE + 2);
	size_t big = (size_t)(UDRVD_POLICY_MAX_RULES + 1) * 27;
	char *many = malloc(big + 1);

	CHECK_INT(udrvd_policy_parse(with_nul, sizeof(with_nul) - 1, PATH, &names, &p, msg), -EINVAL);
	CHECK_CONTAINS(msg, PATH ":2: a control character (byte 0x00");

	memset(long_line, '#', UDRVD_POLICY_MAX_LINE + 1);
	long_line[UDRVD_POLICY_MAX_LINE + 1] = '\0';
	CHECK_REFUSED(long_line, ":1:", "longer than 1024 bytes");
	long_line[UDRVD_POLICY_MAX_LINE] = '\0';	/* exactly the limit */
	udrvd_policy_free(parse(long_line));

	for (size_t i = 0; i < UDRVD_POLICY_MAX_RULES + 1; i++)
		memcpy(many + i * 27, "allow uid:10 read gpio * 1\n", 27);
	many[big] = '\0';
	CHECK_REFUSED(many, ":4097:", "more than 4096 rules");
	many[big - 27] = '\0';
	p = parse(many);
	CHECK_INT(udrvd_policy_rules(p), UDRVD_POLICY_MAX_RULES);
	udrvd_policy_free(p);
	free(long_line);
	free(many);
}

static void test_load(void)
{
	struct udrvd_policy *p = NULL;
	char path[512];

	fake_root();
	fake_path(path, sizeof(path), "missing.conf");
	CHECK_INT(udrvd_policy_load(path, &names, &p, msg), -ENOENT);
	CHECK_CONTAINS(msg, "cannot read the policy");
	CHECK_CONTAINS(msg, "without rules nobody has access");
	fake_file("udrvd.conf", "allow user:alice read gpio * *\nallow bob read gpio * *\n");
	fake_path(path, sizeof(path), "udrvd.conf");
	CHECK_INT(udrvd_policy_load(path, &names, &p, msg), -EINVAL);
	CHECK_CONTAINS(msg, "udrvd.conf:2: 'bob' is not a user or group");
	fake_file("udrvd.conf", "allow user:alice read gpio * *\n");
	CHECK_INT(udrvd_policy_load(path, &names, &p, msg), 0);
	CHECK_INT(udrvd_policy_rules(p), 1);
	udrvd_policy_free(p);
}

/* udrvd.conf(5)'s EXAMPLES, and the refusal it shows for them */
static void test_man_page_example(void)
{
	struct udrvd_policy *p = parse(
		"# the door service drives the lock and reads the door contact\n"
		"allow group:door drive gpio pinctrl-bcm2835 GPIO17\n"
		"allow group:door read,watch gpio pinctrl-bcm2835 GPIO27\n"
		"\n"
		"# alice may do anything with the lines of the FPGA's GPIO block\n"
		"allow user:alice all gpio fpga-gpio *\n"
		"\n"
		"# bob's process gets the FPGA's interrupt device and the PCI card\n"
		"allow user:bob open uio fpga-irq\n"
		"allow user:bob open vfio 0000:01:00.0\n"
		"\n"
		"# the lock's line comes back as it was when udrvd starts again\n"
		"restore gpio pinctrl-bcm2835 GPIO17\n"
		"\n"
		"# bob looks after the FPGA: he releases whatever holds its lines\n"
		"allow user:bob admin gpio fpga-gpio *\n");
	const gid_t door[] = { 2001 };
	const struct udrvd_caller service = { 998, 998, door, 1 };

	CHECK_INT(udrvd_policy_rules(p), 7);
	CHECK_INT(udrvd_policy_gpio(p, &service, &gpio17, UDRVD_DRIVE, msg), 0);
	CHECK_INT(udrvd_policy_gpio(p, &service, &gpio18, UDRVD_DRIVE, msg), -EACCES);
	CHECK_STR(msg, "the policy refuses uid 998 (gid 998 and its groups) 'drive' on line 18 "
		  "(GPIO18) of gpiochip0 (pinctrl-bcm2835): no rule grants drive; the caller's "
		  "rules on this chip: " PATH ":2 (allow group:door drive gpio pinctrl-bcm2835 "
		  "GPIO17), " PATH ":3 (allow group:door read,watch gpio pinctrl-bcm2835 GPIO27)");
	CHECK(udrvd_policy_restores(p, &gpio17));
	udrvd_policy_free(p);
}

/* The shipped daemon/udrvd.conf grants nothing; its examples, uncommented,
 * are rules the parser takes. */
static void test_shipped_file(void)
{
	struct udrvd_policy *p = NULL;
	size_t len;
	char *text = harness_load(SRC_DIR "/daemon", "udrvd.conf", &len);

	CHECK_INT(udrvd_policy_load(SRC_DIR "/daemon/udrvd.conf", &names, &p, msg), 0);
	CHECK_INT(udrvd_policy_rules(p), 0);
	udrvd_policy_free(p);
	for (char *at = text; (at = strstr(at, "\n# ")); at++) {
		if (!strncmp(at + 3, "allow ", 6) || !strncmp(at + 3, "restore ", 8))
			memset(at + 1, ' ', 2);
	}
	p = parse(text);
	CHECK_INT(udrvd_policy_rules(p), 8);
	udrvd_policy_free(p);
	free(text);
}

static void test_perm_str(void)
{
	char buf[64];

	CHECK_STR(udrvd_perm_str(UDRVD_GPIO_PERMS, buf, sizeof(buf)), "read,drive,watch,configure");
	CHECK_STR(udrvd_perm_str(UDRVD_OPEN, buf, sizeof(buf)), "open");
	CHECK_STR(udrvd_perm_str(0, buf, sizeof(buf)), "");
}

/* uio NAME grants the device of that name while it is the only one;
 * uio device:DEVICE the device with that parent (any PCI spelling). */
static void test_uio_by_device_or_unique_name(void)
{
	struct udrvd_policy *p = parse("allow user:alice open uio uio_pci_generic\n"
				       "allow user:bob open uio device:00:04.0\n"
				       "allow user:bob open uio device:40000000.fpga\n");
	struct udrvd_uio_dev one = { "uio0", "uio_pci_generic", "0000:00:04.0", 1 };
	struct udrvd_uio_dev twin = { "uio1", "uio_pci_generic", "0000:00:05.0", 2 };
	struct udrvd_uio_dev fpga = { "uio2", "fpga", "40000000.fpga", 1 };
	struct udrvd_uio_dev orphan = { "uio3", "uio_pci_generic", "", 1 };

	CHECK_INT(udrvd_policy_uio_dev(p, &alice, &one, msg), 0);
	CHECK_INT(udrvd_policy_uio_dev(p, &alice, &orphan, msg), 0);
	CHECK_INT(udrvd_policy_uio_dev(p, &alice, &twin, msg), -EACCES);
	CHECK_CONTAINS(msg, "on uio device uio1 (uio_pci_generic at 0000:00:05.0); " PATH
		       ":1 (allow user:alice open uio uio_pci_generic) names a driver that 2 devices have now");
	CHECK_CONTAINS(msg, "(allow ... open uio device:0000:00:05.0)");
	one.same_name = 2;
	CHECK_INT(udrvd_policy_uio_dev(p, &alice, &one, msg), -EACCES);
	CHECK_INT(udrvd_policy_uio_dev(p, &bob, &one, msg), 0);
	CHECK_INT(udrvd_policy_uio_dev(p, &bob, &twin, msg), -EACCES);
	CHECK_CONTAINS(msg, "the caller's rules for such devices: " PATH
		       ":2 (allow user:bob open uio device:00:04.0)");
	CHECK_INT(udrvd_policy_uio_dev(p, &bob, &fpga, msg), 0);
	CHECK_INT(udrvd_policy_uio_dev(p, &bob, &orphan, msg), -EACCES);
	CHECK_CONTAINS(msg, "(uio_pci_generic, no parent device)");
	/* a device rule is not a name rule: no driver is called 40000000.fpga */
	fpga.device = "";
	fpga.name = "40000000.fpga";
	CHECK_INT(udrvd_policy_uio_dev(p, &bob, &fpga, msg), -EACCES);
	udrvd_policy_free(p);
	CHECK_REFUSED("allow uid:10 open uio device:", ":1:", "not a UIO device's name nor device:DEVICE");
	CHECK_REFUSED("allow uid:10 open uio device:a/b", ":1:", "no '/'");
}

/* spi B.C | NAME | device:CONTROLLER/CS: by numbers, by a name one device
 * has, by the controller's device and chip select. */
static void test_spi(void)
{
	struct udrvd_policy *p = parse("allow user:alice open spi 0.1\n"
				       "allow user:bob open spi mcp3008\n"
				       "allow group:door open spi device:fe204000.spi/0\n"
				       "allow user:alice open spi device:00:1e.2/1\n");
	struct udrvd_bus_dev adc = { "spidev0.1", 0, 1, "mcp3008", "fe204000.spi", 1 };
	struct udrvd_bus_dev cs0 = { "spidev0.0", 0, 0, "spidev", "fe204000.spi", 1 };
	struct udrvd_bus_dev pci = { "spidev2.1", 2, 1, "spi-nor", "0000:00:1e.2", 1 };

	CHECK_INT(udrvd_policy_spi(p, &alice, &adc, msg), 0);
	CHECK_INT(udrvd_policy_spi(p, &alice, &cs0, msg), -EACCES);
	CHECK_STR(msg, "the policy refuses uid 1001 (gid 1001) 'open' on spi device spidev0.0 "
		  "(spidev at fe204000.spi); the caller's rules for such devices: " PATH
		  ":1 (allow user:alice open spi 0.1), " PATH
		  ":4 (allow user:alice open spi device:00:1e.2/1)");
	CHECK_INT(udrvd_policy_spi(p, &alice, &pci, msg), 0);
	CHECK_INT(udrvd_policy_spi(p, &bob, &adc, msg), 0);	/* by name, and by group */
	CHECK_INT(udrvd_policy_spi(p, &bob, &cs0, msg), 0);
	CHECK_INT(udrvd_policy_spi(p, &carol, &cs0, msg), -EACCES);
	CHECK_CONTAINS(msg, "no rule in " PATH " names the caller for such devices");
	adc.same_name = 2;
	CHECK_INT(udrvd_policy_spi(p, &alice, &adc, msg), 0);
	CHECK_INT(udrvd_policy_spi(p, &carol, &adc, msg), -EACCES);
	const struct udrvd_caller bob_alone = { 1002, 1002, NULL, 0 };

	CHECK_INT(udrvd_policy_spi(p, &bob_alone, &adc, msg), -EACCES);
	CHECK_CONTAINS(msg, PATH ":2 (allow user:bob open spi mcp3008) names a device that 2 have "
		       "now, which gives none of them: name it by its controller "
		       "(device:fe204000.spi/CS)");
	udrvd_policy_free(p);
	CHECK_REFUSED("allow uid:10 read spi 0.1", ":1:", "spi takes the permission 'open' only");
	CHECK_REFUSED("allow uid:10 open spi 0.01", ":1:", "not an SPI device");
	CHECK_REFUSED("allow uid:10 open spi 0.99999999999", ":1:", "out of range");
	CHECK_REFUSED("allow uid:10 open spi device:fe204000.spi", ":1:", "device:CONTROLLER/CS");
	CHECK_REFUSED("allow uid:10 open spi device:fe204000.spi/01", ":1:", "device:CONTROLLER/CS");
	CHECK_REFUSED("allow uid:10 open spi device:/0", ":1:", "device:CONTROLLER/CS");
	CHECK_REFUSED("allow uid:10 open spi a:b", ":1:", "not an SPI device");
	CHECK_REFUSED("allow uid:10 open spi 0.1 0.2", ":1:", "spi takes one device");
}

/* i2c BUS ADDRESSES: each address of a bus by number, adapter name or
 * controller; reserved and 10-bit addresses only where a rule names them. */
static void test_i2c(void)
{
	struct udrvd_policy *p = parse("allow user:alice transfer i2c i2c-1 0x48-0x4f\n"
				       "allow user:alice transfer i2c name:SMBus_stub_driver 0x50\n"
				       "allow user:bob transfer i2c device:0000:00:1f.4 0x00-0x7f\n"
				       "allow user:bob transfer i2c i2c-1 ten:0x150-0x3ff\n"
				       "allow group:door open i2c-bus device:fe804000.i2c\n");
	struct udrvd_bus_dev one = { "i2c-1", 1, 0, "SMBus I801 adapter at f040", "0000:00:1f.4", 1 };
	struct udrvd_bus_dev stub = { "i2c-7", 7, 0, "SMBus stub driver", "", 1 };
	struct udrvd_bus_dev rpi = { "i2c-1", 1, 0, "bcm2835 (i2c@7e804000)", "fe804000.i2c", 1 };

	CHECK_INT(udrvd_policy_i2c(p, &alice, &one, 0x48, false, msg), 0);
	CHECK_INT(udrvd_policy_i2c(p, &alice, &one, 0x4f, false, msg), 0);
	CHECK_INT(udrvd_policy_i2c(p, &alice, &one, 0x50, false, msg), -EACCES);
	CHECK_STR(msg, "the policy refuses uid 1001 (gid 1001) 'transfer' at address 0x50 of i2c-1 "
		  "(SMBus I801 adapter at f040 at 0000:00:1f.4); the caller's rules on this bus: "
		  PATH ":1 (allow user:alice transfer i2c i2c-1 0x48-0x4f)");
	CHECK_INT(udrvd_policy_i2c(p, &alice, &one, 0x48, true, msg), -EACCES);
	CHECK_CONTAINS(msg, "'transfer' at 10-bit address 0x48 of i2c-1");
	CHECK_INT(udrvd_policy_i2c(p, &alice, &stub, 0x50, false, msg), 0);
	CHECK_INT(udrvd_policy_i2c(p, &alice, &stub, 0x51, false, msg), -EACCES);
	stub.same_name = 2;
	CHECK_INT(udrvd_policy_i2c(p, &alice, &stub, 0x50, false, msg), -EACCES);
	CHECK_CONTAINS(msg, "names an adapter that 2 have now, which gives none of them");
	/* a whole-bus rule gives the fd, not transfers; a transfer rule no fd */
	CHECK_INT(udrvd_policy_i2c_bus(p, &bob, &rpi, msg), 0);
	CHECK_INT(udrvd_policy_i2c(p, &bob, &rpi, 0x50, false, msg), -EACCES);
	CHECK_INT(udrvd_policy_i2c_bus(p, &alice, &one, msg), -EACCES);
	CHECK_STR(msg, "the policy refuses uid 1001 (gid 1001) 'open' on the whole i2c bus i2c-1 "
		  "(SMBus I801 adapter at f040 at 0000:00:1f.4); no rule in " PATH
		  " names the caller for such devices (udrvd.conf(5))");
	/* reserved addresses: a range that holds them */
	CHECK_INT(udrvd_policy_i2c(p, &bob, &one, 0x00, false, msg), 0);
	CHECK_INT(udrvd_policy_i2c(p, &bob, &one, 0x7f, false, msg), 0);
	CHECK_INT(udrvd_policy_i2c(p, &alice, &one, 0x78, false, msg), -EACCES);
	CHECK_CONTAINS(msg, "(a reserved address, 0x00-0x02 or 0x78-0x7f");
	CHECK_INT(udrvd_policy_i2c(p, &bob, &one, 0x150, true, msg), 0);
	CHECK_INT(udrvd_policy_i2c(p, &bob, &one, 0x14f, true, msg), -EACCES);
	CHECK_CONTAINS(msg, "granted only by a rule that names it: ten:0xNNN");
	CHECK_INT(udrvd_policy_i2c(p, &bob, &stub, 0x50, false, msg), -EACCES);
	udrvd_policy_free(p);
	CHECK_REFUSED("allow uid:10 open i2c i2c-1 0x50", ":1:", "'transfer' only");
	CHECK_REFUSED("allow uid:10 transfer i2c-bus i2c-1", ":1:", "i2c-bus takes the permission 'open'");
	CHECK_REFUSED("allow uid:10 transfer gpio * *", ":1:", "'transfer' is for i2c");
	CHECK_REFUSED("allow uid:10 transfer i2c 1 0x50", ":1:", "not an I2C bus");
	CHECK_REFUSED("allow uid:10 transfer i2c i2c-01 0x50", ":1:", "not a bus number");
	CHECK_REFUSED("allow uid:10 transfer i2c i2c-1 0x80", ":1:", "not an I2C address");
	CHECK_REFUSED("allow uid:10 transfer i2c i2c-1 80", ":1:", "not an I2C address");
	CHECK_REFUSED("allow uid:10 transfer i2c i2c-1 0x", ":1:", "not an I2C address");
	CHECK_REFUSED("allow uid:10 transfer i2c i2c-1 0x50-", ":1:", "not an I2C address");
	CHECK_REFUSED("allow uid:10 transfer i2c i2c-1 ten:0x400", ":1:", "not an I2C address");
	CHECK_REFUSED("allow uid:10 transfer i2c i2c-1 0x57-0x50", ":1:", "from the lower address");
	CHECK_REFUSED("allow uid:10 transfer i2c i2c-1", ":1:", "i2c takes a bus and addresses");
	CHECK_REFUSED("allow uid:10 transfer i2c name: 0x50", ":1:", "not name:NAME");
	CHECK_REFUSED("allow uid:10 open i2c-bus device:a/b", ":1:", "not device:DEVICE");
	CHECK_REFUSED("allow uid:10 open i2c-bus i2c-1 0x50", ":1:", "i2c-bus takes one bus");
}

UDRV_TESTS(UDRV_T(test_every_form), UDRV_T(test_empty_policy_grants_nothing),
	   UDRV_T(test_one_line_not_the_next), UDRV_T(test_missing_permission_is_named),
	   UDRV_T(test_rules_add_up), UDRV_T(test_groups_primary_and_supplementary),
	   UDRV_T(test_chip_by_name_label_and_line_by_name), UDRV_T(test_devices),
	   UDRV_T(test_restore), UDRV_T(test_admin), UDRV_T(test_refusals), UDRV_T(test_nul_and_size_limits),
	   UDRV_T(test_load), UDRV_T(test_man_page_example), UDRV_T(test_shipped_file),
	   UDRV_T(test_perm_str), UDRV_T(test_uio_by_device_or_unique_name),
	   UDRV_T(test_spi), UDRV_T(test_i2c))
