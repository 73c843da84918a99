// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv uio info|wait|peek|poke: UIO devices, their maps and interrupts.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_region.h"
#include "commands.h"

static const char uio_help[] =
"Usage: udrv uio COMMAND [OPTIONS] DEVICE ...\n"
"\n"
"UIO devices are kernel drivers that hand a device's registers and interrupt\n"
"to userspace. DEVICE is the driver's name (uio_pci_generic), uioN or\n"
"/dev/uioN.\n"
"\n"
"Commands:\n"
"  info   list UIO devices with their memory maps and port regions\n"
"  wait   wait for interrupts; print counts and missed interrupts\n"
"  peek   read registers from a map (or a PCI BAR)\n"
"  poke   write a register\n"
"\n"
"Examples:\n"
"  udrv uio info\n"
"  udrv uio wait -n 10 --timeout 1s uio-ticker\n"
"  udrv uio peek --bar 0 uio_pci_generic 0x0\n"
"  udrv uio poke --bar 0 -w 32 uio_pci_generic 0x4 0x12345678\n";

static void json_map(struct udrv_json *j, const struct udrv_uio_map_info *m)
{
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "index", m->index);
	udrv_json_kstr(j, "name", m->name);
	udrv_json_kuint(j, "addr", m->addr);
	udrv_json_kuint(j, "size", m->size);
	udrv_json_kuint(j, "offset", m->offset);
	udrv_json_obj_end(j);
}

static void json_port(struct udrv_json *j, const struct udrv_uio_port_info *p)
{
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "index", p->index);
	udrv_json_kstr(j, "name", p->name);
	udrv_json_kuint(j, "start", p->start);
	udrv_json_kuint(j, "size", p->size);
	udrv_json_kstr(j, "porttype", p->porttype);
	udrv_json_obj_end(j);
}

static void show_regions_json(struct udrv_uio *uio, struct udrv_json *j)
{
	struct udrv_uio_map_info m;
	struct udrv_uio_port_info p;

	udrv_json_key(j, "maps");
	udrv_json_arr_begin(j);
	for (int i = 0; i < udrv_uio_num_maps(uio); i++)
		if (!udrv_uio_map_info(uio, (unsigned int)i, &m))
			json_map(j, &m);
	udrv_json_arr_end(j);
	udrv_json_key(j, "ports");
	udrv_json_arr_begin(j);
	for (int i = 0; i < udrv_uio_num_ports(uio); i++)
		if (!udrv_uio_port_info(uio, (unsigned int)i, &p))
			json_port(j, &p);
	udrv_json_arr_end(j);
}

static void show_regions_text(struct udrv_uio *uio)
{
	struct udrv_uio_map_info m;
	struct udrv_uio_port_info p;

	for (int i = 0; i < udrv_uio_num_maps(uio); i++)
		if (!udrv_uio_map_info(uio, (unsigned int)i, &m))
			printf("  map%u  %-16s addr 0x%" PRIx64 " size 0x%" PRIx64
			       " offset 0x%" PRIx64 "\n", m.index,
			       m.name[0] ? m.name : "-", m.addr, m.size,
			       m.offset);
	for (int i = 0; i < udrv_uio_num_ports(uio); i++)
		if (!udrv_uio_port_info(uio, (unsigned int)i, &p))
			printf("  port%u %-16s start 0x%" PRIx64 " size 0x%"
			       PRIx64 " %s\n", p.index, p.name[0] ? p.name : "-",
			       p.start, p.size, p.porttype);
	if (!udrv_uio_num_maps(uio) && !udrv_uio_num_ports(uio))
		printf("  no maps or ports (a PCI device's BARs: 'udrv uio peek --bar N')\n");
}

int uio_show_device(struct udrv_uio *uio, struct udrv_json *j)
{
	if (!j) {
		printf("%s [%s] version %s\n", udrv_uio_devname(uio),
		       udrv_uio_name(uio), udrv_uio_version(uio));
		show_regions_text(uio);
		return EXIT_OK;
	}
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "device", udrv_uio_devname(uio));
	udrv_json_kstr(j, "name", udrv_uio_name(uio));
	udrv_json_kstr(j, "version", udrv_uio_version(uio));
	show_regions_json(uio, j);
	udrv_json_obj_end(j);
	return EXIT_OK;
}

int uio_show_devices(char **names, int n, struct udrv_json *j)
{
	struct udrv_uio *uio = udrv_uio_new();
	int ret = EXIT_OK;

	if (!uio)
		return cli_error(EXIT_FAIL, "out of memory");
	for (int i = 0; i < n; i++) {
		int err = udrv_uio_open(uio, names[i]);

		if (err) {
			/* a bad spec is a usage error even among good ones */
			cli_error(EXIT_FAIL, "%s", udrv_uio_errmsg(uio));
			if (ret != EXIT_USAGE)
				ret = err == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
			continue;
		}
		uio_show_device(uio, j);
	}
	udrv_uio_free(uio);
	return ret;
}

struct uio_opts {
	bool json;
	int map;		/* -1: none given */
	int bar;
	unsigned int width;	/* bits */
	uint64_t count;
	int timeout_ms;		/* -1: wait forever */
	bool enable;
	bool pci_unmask;
};

static const struct option uio_long_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "map", required_argument, NULL, 'm' },
	{ "bar", required_argument, NULL, 'B' },
	{ "width", required_argument, NULL, 'w' },
	{ "num", required_argument, NULL, 'n' },
	{ "timeout", required_argument, NULL, 't' },
	{ "enable", no_argument, NULL, 'e' },
	{ "pci-unmask", no_argument, NULL, 'u' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int uio_opt(struct uio_opts *o, int opt, const char *arg,
		   const char *cmd)
{
	long v;

	switch (opt) {
	case 'j':
		o->json = true;
		return 0;
	case 'm':
	case 'B':
		if (cli_parse_int(arg, 0, opt == 'm' ? 4 : 5, &v))
			return cli_usage(cmd, "bad %s '%s': %s", opt == 'm' ? "--map" : "--bar",
					 arg, opt == 'm' ? "0..4" : "0..5");
		*(opt == 'm' ? &o->map : &o->bar) = (int)v;
		return 0;
	case 'w':
		if (cli_parse_int(arg, 8, 64, &v) || (v != 8 && v != 16 && v != 32 && v != 64))
			return cli_usage(cmd, "bad --width '%s': 8, 16, 32 or 64", arg);
		o->width = (unsigned int)v;
		return 0;
	case 'n':
		if (cli_parse_u64(arg, &o->count))
			return cli_usage(cmd, "bad --num '%s'", arg);
		return 0;
	case 't':
		if (cli_parse_timeout_ms(arg, &o->timeout_ms))
			return cli_usage(cmd, "bad --timeout '%s': e.g. 1s, 200ms", arg);
		return 0;
	case 'e':
		o->enable = true;
		return 0;
	case 'u':
		o->pci_unmask = true;
		return 0;
	default:
		return cli_usage(cmd, "bad option");
	}
}

static int parse_uio(int argc, char **argv, struct uio_opts *o,
		     const char *cmd, const char *help)
{
	int opt;

	*o = (struct uio_opts){ 0 };
	o->map = o->bar = -1;
	o->width = 32;
	o->timeout_ms = -1;
	while ((opt = getopt_long(argc, argv, "jm:B:w:n:t:euh", uio_long_opts,
				  NULL)) != -1) {
		if (opt == 'h') {
			cli_print_help(help);
			return -1;
		}
		if (uio_opt(o, opt, optarg, cmd))
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int open_uio(const char *spec, struct udrv_uio **uiop)
{
	int ret;

	*uiop = udrv_uio_new();
	if (!*uiop)
		return cli_error(EXIT_FAIL, "out of memory");
	ret = udrv_uio_open(*uiop, spec);
	if (ret) {
		/* -EINVAL: the spec itself is bad (out of range, empty) */
		ret = cli_error(ret == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s",
				udrv_uio_errmsg(*uiop));
		udrv_uio_free(*uiop);
		*uiop = NULL;
		return ret;
	}
	return EXIT_OK;
}

static const char info_help[] =
"Usage: udrv uio info [--json] [DEVICE...]\n"
"\n"
"List UIO devices (all, or the ones given) with the driver's name and\n"
"version, its memory maps (index, name, physical address, size, sub-page\n"
"offset) and port regions.\n";

static int uio_info(int argc, char **argv)
{
	struct uio_opts o = { 0 };
	char **names = NULL;
	int n, ret;

	ret = parse_uio(argc, argv, &o, "uio info", info_help);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	n = argc - optind;
	if (n == 0)
		n = udrv_uio_list(&names);
	return cli_show_list(o.json, names, argv + optind, n,
			     udrv_uio_absent_reason, uio_show_devices);
}

static const char wait_help[] =
"Usage: udrv uio wait [OPTIONS] DEVICE\n"
"\n"
"Wait for interrupts and print, for each, the kernel's interrupt count, the\n"
"delta since the previous wait and how many were missed (delta - 1): an\n"
"interrupt that came while nobody waited is counted, never hidden.\n"
"\n"
"Options:\n"
"  -n, --num N        stop after N interrupts (default 1)\n"
"  -t, --timeout D    give up when no interrupt came for D (e.g. 1s)\n"
"  -e, --enable       write 1 to irqcontrol before each wait (drivers that\n"
"                     disable the interrupt in their handler)\n"
"  -u, --pci-unmask   clear INTx-disable in the PCI command register before\n"
"                     each wait (uio_pci_generic)\n"
"  -j, --json         one JSON object per interrupt, then a summary\n"
"\n"
"SIGINT (Ctrl-C) or SIGTERM ends the wait cleanly, with the summary.\n"
"Exit status: 0, also when ended by SIGINT or SIGTERM; 1 on timeout or\n"
"error (e.g. the device is gone: its driver was unloaded or unbound).\n";

static int rearm(struct udrv_uio *uio, const struct uio_opts *o)
{
	if (o->enable && udrv_uio_irq_enable(uio, true))
		return cli_error(EXIT_FAIL, "%s", udrv_uio_errmsg(uio));
	if (o->pci_unmask && udrv_uio_pci_intx_unmask(uio))
		return cli_error(EXIT_FAIL, "%s", udrv_uio_errmsg(uio));
	return EXIT_OK;
}

static void print_irq(const struct udrv_uio_irq *irq, uint64_t t, bool json)
{
	struct udrv_json *j;

	if (!json) {
		printf("%llu.%09llu count=%u delta=%u missed=%u\n",
		       (unsigned long long)(t / 1000000000ULL),
		       (unsigned long long)(t % 1000000000ULL), irq->count,
		       irq->delta, irq->missed);
		return;
	}
	j = udrv_json_new(stdout, false);
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "time_ns", t);
	udrv_json_kuint(j, "count", irq->count);
	udrv_json_kuint(j, "delta", irq->delta);
	udrv_json_kuint(j, "missed", irq->missed);
	udrv_json_obj_end(j);
	udrv_json_free(j);
}

static int wait_irqs(struct udrv_uio *uio, const struct uio_opts *o,
		     uint64_t *seen)
{
	int timeout = o->timeout_ms;
	struct udrv_uio_irq irq;
	int ret;

	for (*seen = 0; *seen < o->count && !cli_stop; (*seen)++) {
		ret = rearm(uio, o);
		if (ret)
			return ret;
		ret = udrv_uio_wait(uio, timeout, &irq);
		if (ret == -EINTR && cli_stop)
			break;
		if (ret < 0)
			return cli_error(EXIT_FAIL, "%s", udrv_uio_errmsg(uio));
		if (ret == 0)
			return cli_error(EXIT_FAIL, "%s: no interrupt within %d ms",
					 udrv_uio_devname(uio), timeout);
		print_irq(&irq, cli_now_ns(), o->json);
		fflush(stdout);
	}
	return EXIT_OK;
}

/*
 * The stop signals stay blocked but while a wait sleeps (its ppoll mask):
 * one that comes after the check of cli_stop ends that wait (-EINTR); with
 * poll() it was lost when no --timeout ended the wait.
 */
static int wait_loop(struct udrv_uio *uio, const struct uio_opts *o,
		     uint64_t *seen)
{
	sigset_t old;
	int ret;

	cli_block_stop_signals(&old);
	udrv_uio_set_wait_sigmask(uio, &old);
	ret = wait_irqs(uio, o, seen);
	sigprocmask(SIG_SETMASK, &old, NULL);	/* a stop that came: handled */
	return ret;
}

static int uio_wait_cmd(int argc, char **argv)
{
	struct uio_opts o = { 0 };
	struct udrv_uio *uio;
	struct udrv_json *j;
	uint64_t seen;
	int ret;

	o.count = 1;
	ret = parse_uio(argc, argv, &o, "uio wait", wait_help);
	if (o.count == 0)
		o.count = 1;
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (argc - optind != 1)
		return cli_usage("uio wait", "give exactly one DEVICE");
	cli_catch_stop_signals();
	ret = open_uio(argv[optind], &uio);
	if (ret)
		return ret;
	ret = wait_loop(uio, &o, &seen);
	if (o.json) {
		j = udrv_json_new(stdout, false);
		udrv_json_obj_begin(j);
		udrv_json_kuint(j, "interrupts", seen);
		udrv_json_kuint(j, "missed", udrv_uio_missed(uio));
		udrv_json_obj_end(j);
		udrv_json_free(j);
	} else {
		fprintf(stderr, "%llu interrupt%s, %llu missed\n",
			(unsigned long long)seen, seen == 1 ? "" : "s",
			(unsigned long long)udrv_uio_missed(uio));
	}
	udrv_uio_free(uio);
	return ret;
}

static const char peek_help[] =
"Usage: udrv uio peek [OPTIONS] DEVICE OFFSET [COUNT]\n"
"       udrv uio poke [OPTIONS] DEVICE OFFSET VALUE\n"
"\n"
"Read COUNT registers (default 1) from, or write VALUE to, a UIO map or a\n"
"PCI BAR, at a byte OFFSET (decimal or 0x hex). Accesses are bounds\n"
"checked against the region.\n"
"\n"
"Options:\n"
"  -m, --map N      UIO map N (default 0)\n"
"  -B, --bar N      PCI BAR N instead, through sysfs (for uio_pci_generic on\n"
"                   kernels that export no maps)\n"
"  -w, --width W    access width in bits: 8, 16, 32 (default) or 64\n"
"  -j, --json       machine-readable output\n";

static int map_region(struct udrv_uio *uio, const struct uio_opts *o,
		      struct udrv_region **r)
{
	int ret;

	if (o->bar >= 0)
		ret = udrv_uio_pci_map_bar(uio, (unsigned int)o->bar, r);
	else
		ret = udrv_uio_map(uio, o->map < 0 ? 0 : (unsigned int)o->map, r);
	if (ret)
		return cli_error(EXIT_FAIL, "%s", udrv_uio_errmsg(uio));
	return EXIT_OK;
}

static int peek_poke(int argc, char **argv, bool poke)
{
	const char *cmd = poke ? "uio poke" : "uio peek";
	struct uio_opts o = { 0 };
	struct udrv_region *r = NULL;
	struct udrv_uio *uio = NULL;
	uint64_t off, arg;
	int ret;

	ret = parse_uio(argc, argv, &o, cmd, peek_help);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = cli_peek_args(cmd, argc, argv, poke, o.width, &off, &arg);
	if (!ret)
		ret = open_uio(argv[optind], &uio);
	if (!ret)
		ret = map_region(uio, &o, &r);
	if (!ret)
		ret = cli_peek_poke(r, poke, o.json, o.width, off, arg);
	udrv_region_unmap(r);
	udrv_uio_free(uio);
	return ret;
}

static int uio_peek(int argc, char **argv)
{
	return peek_poke(argc, argv, false);
}

static int uio_poke(int argc, char **argv)
{
	return peek_poke(argc, argv, true);
}

int cmd_uio(int argc, char **argv)
{
	static const struct cli_cmd cmds[] = {
		{ "info", uio_info, "list devices" },
		{ "wait", uio_wait_cmd, "wait for interrupts" },
		{ "peek", uio_peek, "read registers" },
		{ "poke", uio_poke, "write a register" },
		{ NULL, NULL, NULL },
	};

	return cli_dispatch("uio", cmds, argc - 1, argv + 1, uio_help);
}
