/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The policy's rules, shared by policy.c (the parser) and policy_check.c
 * (the checks); not for the rest of udrvd.
 */
#ifndef UDRVD_POLICY_PRIV_H
#define UDRVD_POLICY_PRIV_H

#include "policy.h"

#define MAX_WORDS	8
#define RULE_TEXT	160
#define MAX_FILE	(1 << 20)
#define MAX_OFFSET	65534	/* the kernel counts a chip's lines in 16 bits */
#define KERNEL_NAME_MAX	31	/* GPIO_MAX_NAME_SIZE less its NUL */

enum who_kind { WHO_NONE, WHO_UID, WHO_GID };
enum obj_kind { OBJ_GPIO, OBJ_UIO, OBJ_VFIO, OBJ_SPI, OBJ_I2C, OBJ_I2C_BUS };
/* how a spi, i2c or i2c-bus rule names its device or bus */
enum bus_kind { BUS_NUMBER, BUS_DEVICE, BUS_NAME };
enum chip_kind { CHIP_ANY, CHIP_NAME, CHIP_LABEL };
enum line_kind { LINE_ANY, LINE_RANGE, LINE_NAME };

struct rule {
	unsigned int lineno;
	bool restore;
	enum who_kind who;
	unsigned int id;		/* uid or gid */
	unsigned int perms;
	enum obj_kind obj;
	enum chip_kind chip_kind;
	enum line_kind line_kind;
	unsigned int lo, hi;		/* LINE_RANGE */
	bool by_device;			/* uio device:DEVICE, not the driver's NAME */
	enum bus_kind bus_kind;		/* OBJ_SPI, OBJ_I2C, OBJ_I2C_BUS */
	unsigned int num, cs;		/* BUS_NUMBER: spi B.C, i2c-N; BUS_DEVICE: spi's CS */
	bool ten;			/* OBJ_I2C: lo-hi are 10-bit addresses */
	char chip[UDRVD_NAME_MAX];	/* chip name or label */
	char name[UDRVD_NAME_MAX];	/* line name, UIO name, PCI address, SPI or
					 * I2C device or name */
	char text[RULE_TEXT];		/* the rule's words, for messages */
};

struct udrvd_policy {
	char path[256];
	size_t n;
	struct rule rules[];
};

#endif /* UDRVD_POLICY_PRIV_H */
