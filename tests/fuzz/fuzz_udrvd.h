/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pieces of udrvd's harness (fuzz_udrvd.c says what it does and
 * checks):
 *   fuzz_udrvd.c		the input's world (callers, chips, the policy's
 *				names) and libFuzzer's entry
 *   fuzz_udrvd_bus.c		the bus end: the bus daemon's answers to udrvd
 *				(Hello, RequestName, AddMatch, a caller's
 *				credentials), udrvd's thread, a caller's call sent
 *				and its answer awaited, a caller leaving
 *   fuzz_udrvd_kernel.c	the fake tree, and what happens on udrvd's side
 *				between two calls: a chip going or coming, an
 *				edge or a line change from the kernel
 *   fuzz_udrvd_calls.c		the calls built from the input
 *   fuzz_udrvd_checks.c	the properties checked of udrvd's answers and
 *				signals
 */
#ifndef UDRV_FUZZ_UDRVD_H
#define UDRV_FUZZ_UDRVD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <systemd/sd-bus.h>

#include "fuzz.h"
#include "fuzz_sdbus.h"
#include "broker.h"
#include "daemon.h"
#include "export.h"
#include "linecfg.h"

#define UDRVD_UNIQUE	":1.1"
#define MAX_REQS	64
#define NCALLERS	8
#define NCHIPS		3
#define HOTPLUG_PATH	"/fuzz/hotplug"
#define HOTPLUG_IFACE	"io.udrv1.FuzzHotplug"
#define KERNEL_PATH	"/fuzz/kernel"
#define KERNEL_IFACE	"io.udrv1.FuzzKernel"

/* The callers: a uid and its groups (the primary first), or one the bus
 * does not know (a connection that has left: its credentials are an error). */
struct caller {
	uid_t uid;
	gid_t groups[3];
	size_t ngroups;
	bool unknown;
};

extern const struct caller CALLERS[NCALLERS];
/* udrvd's own connection, as the bus reports it (root, as in the tests). */
extern const struct caller UDRVD_ITSELF;

struct chip {
	const char *label;
	unsigned int nlines;
	const char *const *lines;	/* NULL: all unnamed */
};

extern const struct chip CHIPS[NCHIPS];

/* The bus end: what the harness knows of this input's run. */
struct bus {
	sd_bus *bus;
	struct udrvd d;
	pthread_t thread;
	bool groups;			/* UnixGroupIDs reported */
	bool named;			/* udrvd asked for its name */
	char names[NCALLERS][32];	/* each caller's connection now */
	struct {
		char path[UDRVD_PATH_LEN];
		uid_t owner;
	} reqs[MAX_REQS];
	size_t nreqs;
};

/* what a call of the input is (fuzz_udrvd_calls.c) */
enum step {
	REQUEST_LINES, RELEASE, RECONFIGURE, GET_VALUES, SET_VALUES, GET_FD, OPEN_UIO,
	OPEN_VFIO, PROP_GET, PROP_GET_ALL, PROP_SET, MANAGED_OBJECTS, INTROSPECT, PING, ANY,
	LEAVE, HOTPLUG, KERNEL, OPEN_SPI, OPEN_I2C_BUS, I2C_TRANSFER, I2C_READ_BYTE,
	I2C_WRITE_WORD, NSTEPS
};

struct step_call {
	const char *iface, *member, *sig;
};

extern const struct step_call STEPS[NSTEPS];

/* fuzz_udrvd_bus.c */
/* A new connection of caller @caller's: its unique name, never given twice
 * in the process. */
void bus_new_name(struct bus *b, size_t caller);
/* The caller whose connection @name is (NULL: none the bus knows). */
const struct caller *bus_caller(const struct bus *b, const char *name);
/* The bus's end and udrvd's, udrvd serving @policy in its own thread. */
void bus_start(struct bus *b, const struct udrvd_policy *policy);
/* Wait until udrvd has its name and answers. */
void bus_wait_serving(struct bus *b);
/* Send @m and wait for udrvd's answer (NULL: none, udrvd ended). */
sd_bus_message *bus_call(struct bus *b, sd_bus_message *m, const char *what);
/* Caller @who leaves the bus; its next call comes from a new connection. */
void bus_leave(struct bus *b, size_t who);

/* fuzz_udrvd_kernel.c */
/* The tree for one input: the chips, the UIO device, the policy (@parts'
 * part 0, else @policy) and the state file (part 1). */
void make_tree(const struct fuzz_parts *parts, const char *policy);
/* The harness's objects on udrvd's connection, called in udrvd's thread. */
extern const sd_bus_vtable hotplug_vtable[];
extern const sd_bus_vtable kernel_vtable[];

/* fuzz_udrvd_calls.c */
/* The next call of @s made and answered; false at its end. */
bool next_call(struct bus *b, struct fuzz_stream *s);

/* fuzz_udrvd_checks.c */
/* udrvd-edges: a filter of the bus end's messages. */
int check_edges(sd_bus_message *m, void *data, sd_bus_error *error);
/* udrvd-error: @reply to @what, if an error, has a name and a message. */
void check_error(sd_bus_message *reply, const char *what);
/* udrvd-policy and udrvd-owner: @reply to call @m (@step on @path) from
 * @who (NULL: a caller the bus does not know). */
void check_answer(struct bus *b, enum step step, const char *path, sd_bus_message *m,
		  sd_bus_message *reply, const struct caller *who);

#endif /* UDRV_FUZZ_UDRVD_H */
