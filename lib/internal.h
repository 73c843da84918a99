/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal helpers shared by the library's files (not installed).
 */
#ifndef UDRV_INTERNAL_H
#define UDRV_INTERNAL_H

#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <udrv/parse.h>

#define UDRV_ERRMSG_LEN		384
#define UDRV_PATH_LEN		512
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#define udrv_printf(a, b)	__attribute__((format(printf, a, b)))

/*
 * Format an error message into @buf (UDRV_ERRMSG_LEN bytes) and return
 * -@err, so that callers can write: return udrv_err(h->errmsg, EBUSY, ...);
 */
udrv_printf(3, 4)
int udrv_err(char *buf, int err, const char *fmt, ...);

/*
 * The root under which /sys, /dev and /proc are looked up. Empty on a real
 * system; tests point UDRV_SYSROOT at a fake tree in a temporary directory.
 */
const char *udrv_sysroot(void);

/* A PREEMPT_RT kernel (rt_check.c): /sys/kernel/realtime is 1, or uname's
 * version says PREEMPT_RT; under the sysroot. */
bool udrv_kernel_realtime(void);

#define udrv_must_check		__attribute__((warn_unused_result))

/* @buf <- sysroot + formatted path. Returns 0 or -ENAMETOOLONG (then @buf
 * is the empty string: never a half path). */
udrv_printf(3, 4) udrv_must_check
int udrv_path(char *buf, size_t len, const char *fmt, ...);

/* The message for a udrv_path() that failed: which path, and why. */
int udrv_path_err(char *errmsg, const char *what);

/* Read a small text file, strip the trailing newline; length or -errno
 * (-EOVERFLOW when it does not fit @len: never a truncated value). */
int udrv_read_str(const char *path, char *buf, size_t len);
int udrv_read_long(const char *path, long *value);
/* udrv_read_str() of a text the kernel writes (a name): one that holds a
 * NUL byte is no such text: -EINVAL and "", never the part before it. */
int udrv_read_text(const char *path, char *buf, size_t len);
int udrv_read_u64(const char *path, uint64_t *value);	/* accepts 0x.. */
/* Write @s to an existing file (sysfs attribute); 0 or -errno. */
udrv_must_check int udrv_write_str(const char *path, const char *s);
bool udrv_path_exists(const char *path);
/* The last part of the target of the link @path ("uio0" of
 * ../../devices/.../uio/uio0); 0, -EINVAL (empty, longer than @len) or -errno. */
int udrv_link_name(const char *path, char *buf, size_t len);
/*
 * Is @fd the file @path names? Device nodes compare by device number (a
 * node in another /dev, a container's, is the same device), other files by
 * inode (the tests' fake trees). 0, -EBADF (@fd not open), -errno of
 * stat(@path), or -EINVAL: another file.
 */
int udrv_fd_is(int fd, const char *path);

/*
 * poll() @n fds for @ms (-1: forever); with @mask (a wait's signal mask,
 * udrv_*_set_wait_sigmask()) ppoll() under it instead, else poll() as
 * before 1.2: the system call the benches measured.
 */
int udrv_poll_masked(struct pollfd *fds, nfds_t n, int ms,
		     const sigset_t *mask);

/* Copy with truncation, always NUL-terminated. */
void udrv_strlcpy(char *dst, const char *src, size_t len);

/*
 * "What to do" for an errno from open()/write() of a device or sysfs file:
 * for EACCES/EPERM it names the file's group and mode (add the user to that
 * group) or the capability needed; for ENOENT that the device is missing.
 */
void udrv_access_hint(char *buf, size_t len, int err, const char *path);

/* Field @n (from 1) of a /proc/PID/stat line, after the "(comm)". */
bool udrv_proc_stat_field(const char *stat, int n, long *value);

/* The process's memory lock, which mlockall() makes for every thread, held
 * by libudrv's real-time threads (the responder, the software PWMs)
 * together: the first hold locks it (udrv_rt_lock_memory(@rt, @stack_bytes))
 * unless it was locked before; the last release unlocks it only if a hold
 * locked it. 0, or the lock's error (its message in @rt). */
struct udrv_rt;
int udrv_rt_hold_memory(struct udrv_rt *rt, size_t stack_bytes);
void udrv_rt_release_memory(void);

/* udrv_rt_threads("irq/") of kernel threads only (PF_KTHREAD in their
 * stat): the kernel's irq threads, not a process that took such a name. */
struct udrv_rt_thread;
int udrv_rt_irq_threads(struct udrv_rt_thread *threads, size_t max);
/* The same for the kernel threads named @prefix ("irq/24-"). */
int udrv_rt_kthreads(const char *prefix, struct udrv_rt_thread *threads,
		     size_t max);
/* One thread by pid: name, policy and priority (-1: unreadable) and its
 * start time (/proc/PID/stat field 22; 0 unknown), which tells a thread
 * from a later one that got its pid. false: no such thread. */
bool udrv_rt_thread_read(pid_t pid, struct udrv_rt_thread *t,
			 unsigned long long *start);

/* Collect names in @dir starting with @prefix followed by a number, sorted
 * by that number, as a NULL-terminated strv. Returns the count or -errno. */
udrv_must_check int udrv_list_numbered(const char *dir, const char *prefix, char ***names);

#endif /* UDRV_INTERNAL_H */
