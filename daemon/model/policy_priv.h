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
enum obj_kind { OBJ_GPIO, OBJ_UIO, OBJ_VFIO };
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
	char chip[UDRVD_NAME_MAX];	/* chip name or label */
	char name[UDRVD_NAME_MAX];	/* line name, UIO name or PCI address */
	char text[RULE_TEXT];		/* the rule's words, for messages */
};

struct udrvd_policy {
	char path[256];
	size_t n;
	struct rule rules[];
};

#endif /* UDRVD_POLICY_PRIV_H */
