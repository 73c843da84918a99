/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracefs for the benches that trace (tracefs.c): one user at a time, every
 * setting it changes put back.
 */
#ifndef UDRV_BENCH_TRACEFS_H
#define UDRV_BENCH_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TRACEFS_BUFFER_KB	1024		/* per CPU, at least */

/*
 * Set tracefs up for @who (--trace-on-spike, reply --breakdown):
 * tracefs found or mounted, tracing_on 0, current_tracer nop, trace_clock
 * mono, the buffer at TRACEFS_BUFFER_KB at least, and @ev's events on with
 * their filters (NULL: none), every old value saved for
 * bench_trace_restore(). @who names the option in messages; @absent[i]
 * (NULL: not wanted) says that optional event i is not in this kernel.
 * One user at a time. 0 or an exit code, tracefs put back on error.
 */
struct bench_trace_event {
	const char *path;	/* "system/name" */
	const char *filter;	/* tracefs filter expression, NULL: none */
	bool optional;		/* may be absent (irq_vectors: x86 only) */
};
int bench_trace_setup(const char *who, const struct bench_trace_event *ev,
		      size_t n, bool *absent);
/* Clear the buffer and start tracing; 0 or an exit code (put back). */
int bench_trace_start(void);
/* Stop tracing (one write to tracing_on). */
void bench_trace_stop(void);
/*
 * Set tracefs file @name ("options/raw") to @value while tracing is set up
 * (put back with the rest); 0 or an exit code.
 */
int bench_trace_set(const char *name, const char *value);
/* The trace file to read, or NULL (a message printed). */
FILE *bench_trace_open(void);

/* tracefs's file @name ("trace") into @buf. */
void bench_trace_path(char *buf, size_t len, const char *name);
/* The tracefs in use, and its buffer size in KiB while tracing. */
const char *bench_trace_dir(void);
unsigned long bench_trace_buffer_kb(void);
/* Put tracefs back; messages on failure. */
void bench_trace_restore(void);
/* The same with open/write/close/umount2 only: from a signal handler. */
void bench_trace_restore_signal_safe(void);

#endif /* UDRV_BENCH_TRACEFS_H */
