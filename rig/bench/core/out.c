// SPDX-License-Identifier: GPL-2.0-only
/*
 * The results of a bench run: the JSON document (docs/rig/results.md) and the
 * table for people, with each udrv row's ratio to its in-run reference.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"
#include "spike.h"

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Device tree model (ARM boards) or DMI product name (PCs, QEMU). */
static void board_name(const struct bench_run *run, char *buf, size_t len)
{
	if (run->o.board) {
		snprintf(buf, len, "%s", run->o.board);
		return;
	}
	read_line("/proc/device-tree/model", buf, len);
	if (!buf[0])
		read_line("/sys/class/dmi/id/product_name", buf, len);
	if (!buf[0])
		snprintf(buf, len, "unknown");
}

static double ratio(const struct bench_row *row, const struct bench_row *ref,
		    bool median)
{
	double a = median ? (double)udrv_hist_percentile(row->hist, 50) :
			    udrv_hist_mean(row->hist);
	double b = median ? (double)udrv_hist_percentile(ref->hist, 50) :
			    udrv_hist_mean(ref->hist);

	return b > 0 ? a / b : 0;
}

static void json_reference(const struct bench_run *run,
			   const struct bench_row *row, struct udrv_json *j)
{
	const struct bench_row *ref;

	udrv_json_key(j, "reference");
	if (row->reference < 0) {
		udrv_json_null(j);
		return;
	}
	ref = &run->rows[row->reference];
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "mechanism", ref->mechanism);
	udrv_json_kstr(j, "implementation", ref->implementation);
	udrv_json_kdouble(j, "ratio_avg", ratio(row, ref, false));
	udrv_json_kdouble(j, "ratio_p50", ratio(row, ref, true));
	udrv_json_obj_end(j);
}

static void json_row(const struct bench_run *run, const struct bench_row *row,
		     struct udrv_json *j)
{
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "mechanism", row->mechanism);
	udrv_json_kstr(j, "implementation", row->implementation);
	udrv_json_kstr(j, "wait", row->wait);
	udrv_json_kstr(j, "sample", row->what);
	udrv_json_kstr(j, "unit", "ns");
	udrv_json_key(j, "stats");
	udrv_hist_write_json(row->hist, j);
	udrv_json_key(j, "loss");
	if (row->has_loss) {
		udrv_json_obj_begin(j);
		udrv_json_kuint(j, "sent", row->sent);
		udrv_json_kuint(j, "received", row->received);
		udrv_json_kuint(j, "lost", row->lost);
		udrv_json_obj_end(j);
	} else {
		udrv_json_null(j);
	}
	udrv_json_key(j, "rate_per_s");
	if (row->rate_per_s > 0)
		udrv_json_double(j, row->rate_per_s);
	else
		udrv_json_null(j);
	json_reference(run, row, j);
	udrv_json_kstr(j, "note", row->note[0] ? row->note : NULL);
	udrv_json_obj_end(j);
}

static void json_header(const struct bench_run *run, struct udrv_json *j)
{
	struct udrv_rt_report rep;
	struct udrv_rt_state st;
	char board[128];

	udrv_rt_check(&rep);
	board_name(run, board, sizeof(board));
	udrv_json_kstr(j, "schema", BENCH_SCHEMA);
	udrv_json_key(j, "tool");
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "name", "udrv");
	udrv_json_kstr(j, "version", udrv_version());
	udrv_json_obj_end(j);
	udrv_json_kstr(j, "bench", run->bench);
	udrv_json_kstr(j, "board", board);
	udrv_json_key(j, "kernel");
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "release", rep.release);
	udrv_json_kstr(j, "version", rep.version);
	udrv_json_kstr(j, "preempt_model", rep.preempt_model);
	udrv_json_kbool(j, "realtime", rep.realtime);
	udrv_json_obj_end(j);
	udrv_json_kstr(j, "load", run->o.load ? run->o.load : "none");
	udrv_json_key(j, "rt");
	udrv_rt_get_state(run->rt, &st);
	udrv_rt_state_write_json(&st, j);
	bench_wake_json(run, j);
	if (run->json_extra)
		run->json_extra(run, j);
	if (bench_interrupted())
		udrv_json_kstr(j, "interrupted",
			       bench_interrupted() == SIGINT ? "SIGINT" : "SIGTERM");
}

static int write_document(const struct bench_run *run, FILE *f)
{
	struct udrv_json *j = udrv_json_new(f, true);

	if (!j)
		return -1;
	udrv_json_obj_begin(j);
	json_header(run, j);
	udrv_json_key(j, "rows");
	udrv_json_arr_begin(j);
	for (size_t i = 0; i < run->num_rows; i++)
		if (!bench_interrupted() || udrv_hist_count(run->rows[i].hist))
			json_row(run, &run->rows[i], j);
	udrv_json_arr_end(j);
	bench_spike_json(j);
	udrv_json_obj_end(j);
	return udrv_json_free(j);
}

static void print_row(const struct bench_run *run, const struct bench_row *r)
{
	const struct udrv_hist *h = r->hist;
	char label[64], extra[96] = "";

	snprintf(label, sizeof(label), "%s/%s%s%s %s", r->mechanism,
		 r->implementation, r->wait ? "/" : "", r->wait ? r->wait : "",
		 r->what);
	if (r->reference >= 0) {
		const struct bench_row *ref = &run->rows[r->reference];
		bool other = strcmp(ref->mechanism, r->mechanism) != 0;

		/* another mechanism (bench pci's VFIO vs UIO): name it too */
		snprintf(extra, sizeof(extra), " x%.3f vs %s%s%s",
			 ratio(r, ref, false), other ? ref->mechanism : "",
			 other ? "/" : "", ref->implementation);
	}
	if (r->has_loss)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " lost %llu/%llu", (unsigned long long)r->lost,
			 (unsigned long long)r->sent);
	printf("%-40s %9llu %9llu %9.0f %9llu %9llu %10llu%s\n", label,
	       (unsigned long long)udrv_hist_count(h),
	       (unsigned long long)udrv_hist_min(h), udrv_hist_mean(h),
	       (unsigned long long)udrv_hist_percentile(h, 50),
	       (unsigned long long)udrv_hist_percentile(h, 99),
	       (unsigned long long)udrv_hist_max(h), extra);
}

static void print_table(const struct bench_run *run)
{
	char board[128];

	board_name(run, board, sizeof(board));
	printf("udrv-bench %s on %s, load %s\n", run->bench, board,
	       run->o.load ? run->o.load : "none");
	printf("%-40s %9s %9s %9s %9s %9s %10s  (ns)\n", "mechanism/impl/wait sample",
	       "samples", "min", "avg", "p50", "p99", "max");
	for (size_t i = 0; i < run->num_rows; i++)
		print_row(run, &run->rows[i]);
}

int bench_end(struct bench_run *run, int status)
{
	int sig = bench_interrupted();
	FILE *f;

	load_stop(run->load_pid);
	bench_spike_finish(run);
	if (sig) {
		/* the rows so far are results; the failure is the signal */
		fprintf(stderr, "udrv-bench: %s interrupted by %s: rows measured so far follow\n",
			run->bench, sig == SIGINT ? "SIGINT" : "SIGTERM");
		status = 0;
	}
	if (!run->o.quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (!status && run->o.out) {
		f = fopen(run->o.out, "w");
		if (!f || write_document(run, f) || fclose(f))
			status = bench_error(EXIT_FAIL, "cannot write %s", run->o.out);
	}
	if (!status && run->o.json)
		write_document(run, stdout);
	else if (!status)
		print_table(run);
	bench_wake_restore(run);
	bench_spike_restore();
	for (size_t i = 0; i < run->num_rows; i++)
		udrv_hist_free(run->rows[i].hist);
	udrv_rt_free(run->rt);
	return sig && !status ? 128 + sig : status;
}
