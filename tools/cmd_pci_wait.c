// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv pci wait: enable INTx, MSI or MSI-X of a device on vfio-pci and wait
 * for its interrupts, raising and acknowledging them with register writes.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <udrv/vfio.h>

#include "cli.h"
#include "cli_region.h"
#include "cmd_pci.h"

static const char wait_help[] =
"Usage: udrv pci wait [OPTIONS] DEVICE\n"
"\n"
"Enable one interrupt type of a device on vfio-pci (one eventfd per vector)\n"
"and wait for interrupts; print, for each, its type, vector, the eventfd's\n"
"count and how many were missed (count - 1: interrupts that came while\n"
"nobody waited are counted, never hidden).\n"
"\n"
"A VFIO device belongs to one process at a time, so a register write that\n"
"makes the device interrupt cannot come from another 'udrv pci poke' while\n"
"this waits: --raise writes it before each wait, --ack after each interrupt\n"
"(32-bit writes to the BAR of --bar). INTx is level-triggered and the kernel\n"
"masks it when it fires: after --ack, wait unmasks it (VFIO's UNMASK); with\n"
"no --ack the device must drop its line by itself. MSI needs neither.\n"
"\n"
"Options:\n"
"  -i, --irq T        intx, msi or msix (default: msi if the device has\n"
"                     it, else intx)\n"
"  -V, --vectors N    enable vectors 0..N-1 (default 1)\n"
"  -n, --num N        stop after N interrupts (default 1)\n"
"  -t, --timeout D    give up when no interrupt came for D (e.g. 1s)\n"
"  -r, --raise O:V    write V at offset O before each wait (edu: 0x60:1)\n"
"  -a, --ack O:V      write V at offset O after each interrupt (edu: 0x64:1)\n"
"  -B, --bar N        the BAR of --raise and --ack (default 0)\n"
"  -j, --json         one JSON object per interrupt, then a summary\n"
"\n"
"SIGINT (Ctrl-C) or SIGTERM ends the wait cleanly, with the summary; the\n"
"interrupts are disabled again when the command ends.\n"
"Exit status: 0, also when ended by SIGINT or SIGTERM; 1 on timeout or\n"
"error; 2 on a usage error (a --raise/--ack offset beyond the BAR too).\n"
"\n"
"Example (QEMU's edu device, three MSI round trips):\n"
"  udrv pci wait --irq msi -n 3 -t 1s --raise 0x60:1 --ack 0x64:1 0000:00:01.0\n";

struct pci_waiter {
	struct udrv_vfio *v;
	struct udrv_region *bar;
	struct udrv_mmio regs;
	const struct pci_opts *o;
	unsigned int type;
};

static int waiter_bar(struct pci_waiter *w)
{
	const struct pci_opts *o = w->o;

	if (!o->raise.set && !o->ack.set)
		return EXIT_OK;
	if (udrv_vfio_map_bar(w->v, o->bar, &w->bar))
		return cli_error(EXIT_FAIL, "%s", udrv_vfio_errmsg(w->v));
	if ((o->raise.set && cli_region_check(w->bar, o->raise.off, 1, 32)) ||
	    (o->ack.set && cli_region_check(w->bar, o->ack.off, 1, 32)))
		return EXIT_USAGE;
	w->regs = udrv_region_mmio(w->bar);
	return EXIT_OK;
}

static int waiter_irq(struct pci_waiter *w)
{
	struct udrv_vfio_info in;
	int type = w->o->irq;

	if (udrv_vfio_info(w->v, &in))
		return cli_error(EXIT_FAIL, "%s", udrv_vfio_errmsg(w->v));
	if (type < 0)
		type = in.irq_count[UDRV_VFIO_MSI] ? UDRV_VFIO_MSI : UDRV_VFIO_INTX;
	w->type = (unsigned int)type;
	if (udrv_vfio_irq_enable(w->v, (enum udrv_vfio_irq_type)type,
				 w->o->vectors))
		return cli_error(EXIT_FAIL, "%s", udrv_vfio_errmsg(w->v));
	return EXIT_OK;
}

static void print_irq(const struct udrv_vfio_irq *irq, uint64_t t, bool json)
{
	struct udrv_json *j;

	if (!json) {
		printf("%llu.%09llu %s vector=%u count=%llu missed=%llu\n",
		       (unsigned long long)(t / 1000000000ULL),
		       (unsigned long long)(t % 1000000000ULL),
		       pci_irq_names[irq->type < 3 ? irq->type : 0], irq->vector,
		       (unsigned long long)irq->count,
		       (unsigned long long)irq->missed);
		return;
	}
	j = udrv_json_new(stdout, false);
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "time_ns", t);
	udrv_json_kstr(j, "irq", pci_irq_names[irq->type < 3 ? irq->type : 0]);
	udrv_json_kuint(j, "vector", irq->vector);
	udrv_json_kuint(j, "count", irq->count);
	udrv_json_kuint(j, "missed", irq->missed);
	udrv_json_obj_end(j);
	udrv_json_free(j);
}

/* After an interrupt: the device's acknowledge, then INTx's unmask. */
static int rearm(struct pci_waiter *w)
{
	if (w->o->ack.set)
		udrv_write32(&w->regs, (size_t)w->o->ack.off, w->o->ack.value);
	if (w->type == UDRV_VFIO_INTX && w->o->ack.set &&
	    udrv_vfio_intx_unmask(w->v))
		return cli_error(EXIT_FAIL, "%s", udrv_vfio_errmsg(w->v));
	return EXIT_OK;
}

static int wait_irqs(struct pci_waiter *w, uint64_t *seen)
{
	const struct pci_opts *o = w->o;
	struct udrv_vfio_irq irq;
	int ret;

	for (*seen = 0; *seen < o->count && !cli_stop; (*seen)++) {
		if (o->raise.set)
			udrv_write32(&w->regs, (size_t)o->raise.off, o->raise.value);
		ret = udrv_vfio_wait(w->v, o->timeout_ms, &irq);
		if (ret == -EINTR && cli_stop)
			break;
		if (ret < 0)
			return cli_error(EXIT_FAIL, "%s", udrv_vfio_errmsg(w->v));
		if (ret == 0)
			return cli_error(EXIT_FAIL, "%s: no %s interrupt within %d ms",
					 udrv_vfio_bdf(w->v), pci_irq_names[w->type],
					 o->timeout_ms);
		print_irq(&irq, cli_now_ns(), o->json);
		fflush(stdout);
		ret = rearm(w);
		if (ret)
			return ret;
	}
	return EXIT_OK;
}

/*
 * The stop signals stay blocked but while a wait sleeps (its ppoll mask):
 * one that comes after the check of cli_stop ends that wait (-EINTR); with
 * poll() it was lost when no --timeout ended the wait.
 */
static int wait_loop(struct pci_waiter *w, uint64_t *seen)
{
	sigset_t old;
	int ret;

	cli_block_stop_signals(&old);
	udrv_vfio_set_wait_sigmask(w->v, &old);
	ret = wait_irqs(w, seen);
	sigprocmask(SIG_SETMASK, &old, NULL);	/* a stop that came: handled */
	return ret;
}

static void wait_summary(struct pci_waiter *w, uint64_t seen)
{
	struct udrv_json *j;

	if (!w->o->json) {
		fprintf(stderr, "%llu interrupt%s, %llu missed\n",
			(unsigned long long)seen, seen == 1 ? "" : "s",
			(unsigned long long)udrv_vfio_missed(w->v));
		return;
	}
	j = udrv_json_new(stdout, false);
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "irq", pci_irq_names[w->type]);
	udrv_json_kuint(j, "interrupts", seen);
	udrv_json_kuint(j, "missed", udrv_vfio_missed(w->v));
	udrv_json_obj_end(j);
	udrv_json_free(j);
}

int pci_wait(int argc, char **argv)
{
	struct pci_waiter w = { 0 };
	struct pci_opts o;
	uint64_t seen = 0;
	int ret;

	ret = parse_pci(argc, argv, &o, "pci wait", wait_help);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (argc - optind != 1)
		return cli_usage("pci wait", "give exactly one DEVICE");
	w.o = &o;
	cli_catch_stop_signals();
	ret = open_pci(argv[optind], &w.v);
	if (!ret)
		ret = waiter_bar(&w);
	if (!ret)
		ret = waiter_irq(&w);
	if (!ret) {
		ret = wait_loop(&w, &seen);
		wait_summary(&w, seen);
	}
	udrv_region_unmap(w.bar);
	udrv_vfio_free(w.v);	/* disables the interrupts */
	return ret;
}
