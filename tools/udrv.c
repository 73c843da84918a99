// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv: inspect and drive GPIO lines, UIO devices, PCI devices on vfio-pci,
 * I2C buses, SPI devices and hardware PWM. The benches are udrv-bench's (rig/bench/).
 * A thin layer over libudrv: each command is one file (cmd_*.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char main_help[] =
"Usage: udrv [--version] [--help] COMMAND [ARGS]\n"
"\n"
"udrv drives GPIO lines (GPIO character device or legacy sysfs), UIO\n"
"devices, PCI devices on vfio-pci, I2C buses, SPI devices and hardware PWM\n"
"from userspace, and reports how ready the system is for real-time work. Every\n"
"command takes --help, and every command that reports something takes\n"
"--json for machine-readable output.\n"
"\n"
"Commands:\n"
"  info        GPIO chips and lines, UIO devices, real-time readiness\n"
"  gpio        info | get | set | release | mon | toggle | watch\n"
"  uio         info | wait | peek | poke\n"
"  pci         list | info | peek | poke | wait | bind (VFIO: MSI, DMA)\n"
"  i2c         list | detect | get | set (i2c-dev)\n"
"  spi         list | transfer (spidev)\n"
"  pwm         list | get | set (hardware PWM, /sys/class/pwm)\n"
"  rt          check\n"
"\n"
"Forwarded to udrv-bench(1), the latency suite, for a while:\n"
"  bench       'udrv bench ARGS' runs 'udrv-bench ARGS'\n"
"  load        'udrv load ARGS' runs 'udrv-bench load ARGS'\n"
"\n"
"Examples:\n"
"  udrv info\n"
"  udrv gpio get -c gpiochip0 4\n"
"  udrv gpio mon -c gpiochip0 -n 10 4\n"
"  udrv uio wait -n 5 uio_pci_generic --pci-unmask\n"
"  udrv rt check\n"
"\n"
"Exit status: 0 success, 1 failure (the message says what and why),\n"
"2 bad command line. See udrv(1).\n";

int main(int argc, char **argv)
{
	static const struct cli_cmd cmds[] = {
		{ "info", cmd_info, "everything" },
		{ "gpio", cmd_gpio, "GPIO lines" },
		{ "uio", cmd_uio, "UIO devices" },
		{ "pci", cmd_pci, "PCI devices on vfio-pci" },
		{ "i2c", cmd_i2c, "I2C buses" },
		{ "spi", cmd_spi, "SPI devices" },
		{ "pwm", cmd_pwm, "hardware PWM" },
		{ "rt", cmd_rt, "real-time readiness" },
		{ "bench", cmd_forward_bench, "forwarded to udrv-bench" },
		{ "load", cmd_forward_load, "forwarded to udrv-bench load" },
		{ NULL, NULL, NULL },
	};

	if (argc > 1 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("udrv %s\n", udrv_version());
		return EXIT_OK;
	}
	return cli_dispatch("", cmds, argc - 1, argv + 1, main_help);
}
