/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * udrvd's objects (internal): the daemon, the GPIO chips and their lines it
 * exports on the bus, and the line requests it holds for clients.
 *
 * The bus side speaks libgpiod's io.gpiod1 interface (its object paths:
 * /io/gpiod1/chips/gpiochipN, .../gpiochipN/lineM, /io/gpiod1/requests/
 * requestN, each level an org.freedesktop.DBus.ObjectManager), written
 * from the interface's description. Every call is checked against the
 * policy (policy.h) with the caller's credentials (caller.c).
 */
#ifndef UDRVD_H
#define UDRVD_H

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>
#include <udrv/line.h>

#include "policy.h"
#include "state.h"

#define UDRVD_BUS_NAME		"io.gpiod1"
#define UDRVD_CHIPS_PATH	"/io/gpiod1/chips"
#define UDRVD_REQUESTS_PATH	"/io/gpiod1/requests"
#define UDRVD_DEVICES_PATH	"/io/udrv1"
#define UDRVD_PATH_LEN		96
#define UDRVD_CONSUMER		"udrvd"
#define UDRVD_BUS_NAME_LEN	64	/* a client's unique name (":1.42") */
#define UDRVD_WATCHERS_MAX	64	/* watchers of one line's edge events */
/* Per-user quotas (udrvd(8), LIMITS): the requests udrvd holds for one uid,
 * and the watchers (a line watched by a connection) one uid's connections
 * make together. Over them a call gets LimitsExceeded naming the quota. */
#define UDRVD_USER_REQUESTS	256
#define UDRVD_USER_WATCHERS	256

struct udrvd_chip;
struct udrvd_req;
struct udrvd_watcher;
struct udrvd_watching;

struct udrvd {
	sd_event *event;
	sd_bus *bus;
	struct udrvd_policy *policy;
	const char *policy_path;
	const char *state_path;		/* NULL: no state file */
	bool restoring;			/* no state writes until restored */
	sd_event_source *state_timer;	/* a state write that is due */
	char *state_text;		/* what the state file holds (as written) */
	uint64_t state_written_us;	/* when udrvd wrote it last (CLOCK_MONOTONIC) */
	unsigned long state_writes;	/* since start, said at stop */
	bool serving;
	struct udrvd_chip **chips;
	size_t nchips;
	struct udrvd_req *reqs;		/* list of held requests */
	unsigned int next_req;
	sd_bus_slot *managers[2];	/* chips, requests */
	sd_bus_slot *devices;		/* io.udrv1.Devices */
	sd_bus_slot *watch_filter;	/* who reads a Line's properties */
	sd_bus_slot *objects_filter;	/* GetManagedObjects, answered by udrvd */
	struct udrvd_watching *watching; /* connections that watch lines */
	bool viewing;			/* GetManagedObjects answered for @viewer */
	const struct udrvd_caller *viewer;
	sd_bus_slot *watchers_gone;	/* their ends heard (while there are any) */
	sd_event_source *hotplug;	/* chips that come and go */
};

/* The line of a chip that a request holds, for the Line objects. */
struct udrvd_line {
	struct udrvd_chip *chip;
	unsigned int offset;
	char name[32];			/* "" when the driver names none */
	char path[UDRVD_PATH_LEN];
	sd_bus_slot *slot;
	struct udrvd_req *req;		/* the request holding it, or NULL */
	struct udrvd_watcher *watchers;	/* who gets its EdgeEvent signals */
};

struct udrvd_chip {
	struct udrvd *d;
	struct udrv_chip *chip;
	char path[UDRVD_PATH_LEN];
	sd_bus_slot *slot, *manager;
	struct udrvd_line *lines;
	unsigned int nlines;
	int info_fd;			/* the chip again, watching its lines */
	sd_event_source *info;
};

struct udrvd_req {
	struct udrvd *d;
	struct udrvd_req *next;
	struct udrvd_chip *chip;
	struct udrv_request *req;
	unsigned int id;
	uid_t owner;
	char consumer[32];
	char path[UDRVD_PATH_LEN];
	sd_bus_slot *slot, *udrv1_slot;
	sd_event_source *events;	/* its fd, when a line has edge detection */
	/* the owner's groups it was granted with (the caller's at RequestLines,
	 * the user database's at a restore): checked again by each policy */
	gid_t owner_gid;
	size_t owner_ngroups;
	gid_t *owner_groups;
	bool fd_given;			/* GetFd handed its fd out */
	size_t n;
	unsigned int offsets[UDRV_LINES_MAX];
	struct udrv_line_settings settings[UDRV_LINES_MAX];
};

/* serve.c: serve @d->policy on @d->bus (connected) from @d->event: the
 * objects exported, the name taken, the state restored, the bus attached to
 * the loop; 0 or a negative errno (said on stderr). udrvd_teardown() releases
 * everything @d holds, the bus, the loop and the policy with it. */
int udrvd_serve(struct udrvd *d);
void udrvd_teardown(struct udrvd *d);

/* caller.c: the credentials of @m's sender, its uid and groups as the bus
 * read them from its socket when it connected; 0 or a negative errno with
 * @error set. They are valid until udrvd_caller_done(), and at most until
 * the next udrvd_caller_of() (they live in caller.c's cache). */
struct udrvd_creds {
	struct udrvd_caller caller;
};
int udrvd_caller_of(sd_bus_message *m, struct udrvd_creds *c, sd_bus_error *error);
void udrvd_caller_done(struct udrvd_creds *c);
/* @ids (creds.h: the bus's, or the user database's) as the policy takes a
 * caller; @c points into @ids. */
struct udrvd_ids;
void udrvd_caller_from_ids(const struct udrvd_ids *ids, struct udrvd_caller *c);

/* The udrvd_gpio_line of @chip's line @offset, for the policy (its name
 * as the driver gave it when udrvd started: names do not change). */
void udrvd_chip_line_id(struct udrvd_chip *chip, unsigned int offset,
			struct udrvd_gpio_line *id);

/* chip.c: export every GPIO chip there is (and its lines); free them. */
int udrvd_chips_export(struct udrvd *d);
void udrvd_chips_free(struct udrvd *d);
/* A chip that came (its node @name, "gpiochipN"): exported unless it is
 * already; one that went: its objects and udrvd's requests on it dropped. */
void udrvd_chip_add(struct udrvd *d, const char *name);
void udrvd_chip_remove(struct udrvd *d, const char *name);

/* objects.c: GetManagedObjects with udrvd's interfaces alone (a filter);
 * "{iface: {property: value}}" of @vtable's properties into @reply. Each
 * kind of object appends its interfaces with it (the InterfacesAdded and
 * InterfacesRemoved it emits name the same). */
int udrvd_objects_start(struct udrvd *d);
void udrvd_objects_stop(struct udrvd *d);
int udrvd_append_interface(sd_bus_message *reply, const char *path, const char *iface,
			   const sd_bus_vtable *vtable, void *userdata);
int udrvd_chip_interfaces(struct udrvd_chip *c, sd_bus_message *reply);
int udrvd_line_interfaces(struct udrvd_line *l, sd_bus_message *reply);
int udrvd_req_interfaces(struct udrvd_req *r, sd_bus_message *reply);
/*
 * Whom the properties being read are for: the caller a GetManagedObjects
 * is answered for, or the sender of the Properties.Get or GetAll that
 * sd-bus answers (@c holds its credentials: udrvd_caller_done() after);
 * NULL for anyone (a signal every listener gets, a caller udrvd cannot
 * tell): a line's state and a request are shown only to those the policy
 * names (udrvd_line_shown(), udrvd_req_shown()).
 */
const struct udrvd_caller *udrvd_viewer(struct udrvd *d, struct udrvd_creds *c);
/* InterfacesAdded for @path's @ifaces (NULL-terminated), their properties
 * left out: listeners Get what the policy shows them. */
int udrvd_emit_added(struct udrvd *d, const char *path, const char *const *ifaces);
/* Is @r shown to @who: its owner, root, a caller with a rule for one of its
 * lines? */
bool udrvd_req_shown(const struct udrvd_req *r, const struct udrvd_caller *who);

/* hotplug.c: chips that come and go, from the device directory (inotify) */
int udrvd_hotplug_start(struct udrvd *d);
void udrvd_hotplug_stop(struct udrvd *d);

/* line.c: a chip's Line objects; PropertiesChanged for @l's properties
 * (their names: their values are not for every listener). A line's state
 * is shown to root and to the callers with a rule for it; others read its
 * name and offset, and the rest as a free input's (udrvd.conf(5)). */
bool udrvd_line_shown(const struct udrvd_line *l, const struct udrvd_caller *who);
int udrvd_lines_export(struct udrvd_chip *chip);
void udrvd_lines_free(struct udrvd_chip *chip);
void udrvd_line_changed(struct udrvd_line *l);

/* info.c: PropertiesChanged when another process changes a line of @chip */
int udrvd_info_watch(struct udrvd_chip *chip);
void udrvd_info_stop(struct udrvd_chip *chip);

/* linecfg.c: io.gpiod1's line_config and request_config arguments */
struct udrvd_linecfg {
	size_t n;
	size_t nvalues;				/* output values given */
	unsigned int offsets[UDRV_LINES_MAX];
	struct udrv_line_settings settings[UDRV_LINES_MAX];
	unsigned int perms[UDRV_LINES_MAX];	/* what each line's settings need */
	char consumer[32];
	uint32_t event_buffer_size;
};
int udrvd_linecfg_read(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error);
/* What the policy must grant for settings @s (udrvd.conf(5)): read or
 * drive by direction, watch with an edge, configure with bias, drive other
 * than push-pull, active-low or debounce. */
unsigned int udrvd_settings_perms(const struct udrv_line_settings *s);
/* ... on a line the kernel reports as @now: an input or as-is request of a
 * line that is an output (or whose state cannot be read) needs drive too. */
unsigned int udrvd_settings_perms_on(const struct udrv_line_settings *s,
				     const struct udrv_line_info *now);
int udrvd_reqcfg_read(sd_bus_message *m, struct udrvd_linecfg *cfg, sd_bus_error *error);

/* chip.c: every line of @cfg is on @chip and granted to @who (the policy
 * for the settings @cfg gives each); 0 or a D-Bus error. */
int udrvd_chip_check_lines(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
			   const struct udrvd_caller *who, sd_bus_error *error);

/* request.c: a new request for @chip as @cfg says, held for @owner (its
 * credentials are kept, for udrvd_reqs_revoke()). */
int udrvd_req_new(struct udrvd_chip *chip, const struct udrvd_linecfg *cfg,
		  const struct udrvd_caller *owner, struct udrvd_req **out, sd_bus_error *error);
void udrvd_reqs_free(struct udrvd *d);
/* The policy changed: release each request whose owner it no longer grants
 * what the request's settings need on each of its lines (said in the log,
 * which line and why); their number. */
size_t udrvd_reqs_revoke(struct udrvd *d);
/* Drop udrvd's requests on @chip, which went away; their number. */
size_t udrvd_reqs_drop(struct udrvd_chip *chip);

/* watch.c: EdgeEvent signals to the clients that may watch the line and
 * read its properties. udrvd_req_events() (again after a reconfiguration)
 * reads @r's events when a line of it has edge detection. */
int udrvd_watch_start(struct udrvd *d);
void udrvd_watch_stop(struct udrvd *d);
void udrvd_watchers_free(struct udrvd_line *l);
int udrvd_req_events(struct udrvd_req *r);
void udrvd_req_events_stop(struct udrvd_req *r);

/* devices.c: io.udrv1.Devices, UIO and VFIO devices for clients. */
int udrvd_devices_export(struct udrvd *d);

/* restore.c: the state file keeps the held lines the policy's restore rules
 * cover. udrvd_state_sync() writes it now (@refresh: the outputs' values
 * read from the kernel first), unless it holds that already;
 * udrvd_state_dirty() after a change: written @delay_us later (0: a request
 * made or released; UDRVD_STATE_DELAY_US: a value, one write for a burst of
 * them), and never sooner than UDRVD_STATE_INTERVAL_US after the last
 * write (each is an fsync: an SD card wears). */
void udrvd_state_sync(struct udrvd *d, bool refresh);
#define UDRVD_STATE_DELAY_US		100000
#define UDRVD_STATE_INTERVAL_US		1000000
void udrvd_state_dirty(struct udrvd *d, uint64_t delay_us);
/* Request again what the state file and the restore rules say, for owners
 * the policy still grants it. */
int udrvd_state_restore(struct udrvd *d);

#endif /* UDRVD_H */
