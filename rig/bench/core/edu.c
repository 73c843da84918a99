// SPDX-License-Identifier: GPL-2.0-only
/*
 * QEMU's edu device as an interrupt source (edu.h): the raise -> wake-up
 * measurement and re-arm shared by 'udrv-bench uio' and 'udrv-bench pci',
 * and edu on uio_pci_generic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edu.h"
#include "fields.h"
#include "msg.h"
#include "spike.h"
#include <udrv/parse.h>
#include <udrv/uio.h>

void bench_loss_set(struct bench_row *row, const struct bench_loss *l)
{
	row->has_loss = true;
	row->sent = l->sent;
	row->received = l->received;
	row->lost = l->lost;
}

int bench_loss_check(const char *what, const struct bench_loss *l)
{
	if (l->sent == l->received + l->lost)
		return EXIT_OK;
	return bench_error(EXIT_FAIL, "%s: %llu interrupts raised, but %llu received + %llu lost",
			 what, (unsigned long long)l->sent,
			 (unsigned long long)l->received,
			 (unsigned long long)l->lost);
}

static void on_alarm(int sig)
{
	(void)sig;
}

void bench_watchdog_start(struct sigaction *old)
{
	struct sigaction sa = { .sa_handler = on_alarm };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, old);
}

void bench_watchdog_stop(const struct sigaction *old)
{
	alarm(0);
	sigaction(SIGALRM, old, NULL);
}

int bench_wait_failed(int ret, const char *what, const char *errmsg)
{
	if (ret == -EINTR && bench_interrupted())
		return EXIT_FAIL;	/* SIGINT/SIGTERM: bench_end says so */
	if (ret == -EINTR)
		return bench_error(EXIT_FAIL, "%s: no interrupt within %d s", what,
				 EDU_WATCHDOG_S);
	return bench_error(EXIT_FAIL, "%s: %s", what, errmsg);
}

/* Acknowledge @value and re-arm; returns the time it took. */
static int edu_rearm(const struct edu_path *p, uint32_t value, uint64_t *ns)
{
	uint32_t status = udrv_read32(&p->regs, EDU_IRQ_STATUS);
	uint64_t t0;
	int ret;

	if (status != value)
		return bench_error(EXIT_FAIL, "%s: interrupt status 0x%x after raising 0x%x",
				 p->what, status, value);
	t0 = bench_now_ns();
	udrv_write32(&p->regs, EDU_IRQ_ACK, status);
	if (p->unmask) {
		ret = p->unmask(p->ctx);
		if (ret)
			return ret;
	}
	*ns = bench_now_ns() - t0;
	return EXIT_OK;
}

int edu_clear(const struct edu_path *p)
{
	uint32_t status = udrv_read32(&p->regs, EDU_IRQ_STATUS);

	if (status)
		udrv_write32(&p->regs, EDU_IRQ_ACK, status);
	return p->unmask ? p->unmask(p->ctx) : EXIT_OK;
}

int edu_irq(const struct edu_path *p, uint32_t value, struct bench_row *wake,
	    struct bench_row *rearm)
{
	uint64_t t0, t1, ns = 0;
	int ret;

	alarm(EDU_WATCHDOG_S);
	t0 = bench_now_ns();
	udrv_write32(&p->regs, EDU_IRQ_RAISE, value);
	ret = p->wait(p->ctx);
	t1 = bench_now_ns();
	if (ret)
		return ret;
	ret = edu_rearm(p, value, &ns);
	if (ret)
		return ret;
	if (wake) {
		udrv_hist_record(wake->hist, t1 - t0);
		bench_spike_check(wake, t0, t1);
	}
	if (wake && rearm)
		udrv_hist_record(rearm->hist, ns);
	return EXIT_OK;
}

int edu_loop(struct bench_run *run, const struct edu_path *p,
	     struct bench_row *wake, struct bench_row *rearm, uint64_t dflt)
{
	uint64_t n = bench_samples(run, dflt), t0, i, missed0;
	struct bench_loss l = { 0 };
	int ret = EXIT_OK;

	missed0 = p->missed(p->ctx);
	for (t0 = bench_now_ns(), i = 0; !ret && bench_more(run, t0, i, n); i++) {
		l.sent++;
		ret = edu_irq(p, 0x10000u | (uint32_t)(i & 0xffff), wake, rearm);
		if (!ret)
			l.received++;
		bench_progress(run, wake, i, n);
	}
	l.lost = p->missed(p->ctx) - missed0;
	bench_loss_set(wake, &l);
	return ret ? ret : bench_loss_check(p->what, &l);
}

/* A PCI ID attribute ("0x1234\n") of @dir, read strictly; 0 if unreadable. */
static unsigned int pci_id(const char *dir, const char *attr)
{
	char path[512], buf[16];
	unsigned int v = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, attr) >= (int)sizeof(path))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		if (strncmp(buf, "0x", 2) || udrv_parse_uint(buf, 0xffff, &v))
			v = 0;
	}
	fclose(f);
	return v;
}

bool edu_is_edu(const char *dir)
{
	return pci_id(dir, "vendor") == EDU_VENDOR &&
	       pci_id(dir, "device") == EDU_DEVICE;
}

/* edu on uio_pci_generic */

static int uio_wait(void *ctx)
{
	struct edu_uio *e = ctx;
	struct udrv_uio_irq irq;
	int ret = udrv_uio_wait(e->uio, -1, &irq);

	return ret == 1 ? EXIT_OK :
	       bench_wait_failed(ret, e->path.what, udrv_uio_errmsg(e->uio));
}

static int uio_unmask(void *ctx)
{
	struct edu_uio *e = ctx;

	if (udrv_uio_pci_intx_unmask(e->uio))
		return bench_error(EXIT_FAIL, "%s", udrv_uio_errmsg(e->uio));
	return EXIT_OK;
}

static uint64_t uio_missed(void *ctx)
{
	const struct edu_uio *e = ctx;

	return udrv_uio_missed(e->uio);
}

int edu_uio_open(struct edu_uio *e, const char *dev)
{
	int ret;

	e->uio = udrv_uio_new();
	if (!e->uio)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_uio_open(e->uio, dev))
		return bench_error(EXIT_FAIL, "%s", udrv_uio_errmsg(e->uio));
	/* BAR 0: UIO map 0 on 6.1; the sysfs resource file on older kernels */
	ret = udrv_uio_num_maps(e->uio) > 0 ?
	      udrv_uio_map(e->uio, 0, &e->bar) :
	      udrv_uio_pci_map_bar(e->uio, 0, &e->bar);
	if (ret)
		return bench_error(EXIT_FAIL, "map BAR 0: %s", udrv_uio_errmsg(e->uio));
	e->path = (struct edu_path){
		.what = "edu", .regs = udrv_region_mmio(e->bar),
		.wait = uio_wait, .unmask = uio_unmask, .missed = uio_missed,
		.ctx = e,
	};
	return EXIT_OK;
}

void edu_uio_close(struct edu_uio *e)
{
	udrv_region_unmap(e->bar);
	udrv_uio_free(e->uio);
	e->bar = NULL;
	e->uio = NULL;
}

int edu_uio_wake_threads(struct bench_run *run, struct edu_uio *e)
{
	char path[96], prefix[24];
	uint64_t irq;
	int ret;

	snprintf(path, sizeof(path), "/sys/class/uio/%s/device/irq",
		 udrv_uio_devname(e->uio));
	ret = bench_file_u64(path, &irq);
	if (ret)
		return bench_error(EXIT_FAIL, "cannot read %s: %s", path, strerror(-ret));
	snprintf(prefix, sizeof(prefix), "irq/%llu-", (unsigned long long)irq);
	return bench_wake_threads(run, prefix);
}
