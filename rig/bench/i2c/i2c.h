/* SPDX-License-Identifier: GPL-2.0-only */
/* udrv-bench i2c's parts: the command rows (i2c_cmd.c). */
#ifndef UDRV_BENCH_I2C_H
#define UDRV_BENCH_I2C_H

#include <stdint.h>

#include "bench.h"

#define I2C_CMD_REG	0x10	/* the register the commands read */

/* The command rows (i2cget, udrv i2c get) on bus @bus, device @addr, whose
 * register I2C_CMD_REG holds @value: 0 or an exit code; none (0, said on
 * stderr) where either tool is not on PATH. */
int i2c_bench_commands(struct bench_run *run, unsigned int bus, unsigned int addr,
		       uint8_t value, uint64_t samples);

#endif /* UDRV_BENCH_I2C_H */
