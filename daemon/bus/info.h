/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Line changes made by others (info.c): PropertiesChanged when another
 * process changes a line of a chip.
 */
#ifndef UDRVD_INFO_H
#define UDRVD_INFO_H

#include "chip.h"

int udrvd_info_watch(struct udrvd_chip *chip);
void udrvd_info_stop(struct udrvd_chip *chip);

#endif /* UDRVD_INFO_H */
