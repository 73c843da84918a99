// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of udrvd's state file (daemon/model/state.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "state.h"

#define PATH	"/var/lib/udrvd/state"

static char msg[UDRVD_STATE_MSG_LEN];

static const char good[] =
	"udrvd-state 1\n"
	"request 1001 gpiochip0 pinctrl-bcm2835 door%20lock\n"
	"line 17 output 1 0 as-is push-pull none 0 monotonic\n"
	"line 27 input 0 1 pull-up open-drain both 5000 realtime\n"
	"end\n"
	"request 0 gpiochip3 gpio-wire udrvd\n"
	"line 0 output 0 0 disabled open-source rising 0 hte\n"
	"end\n";

static void test_round_trip(void)
{
	struct udrvd_state st;
	char *text = NULL;
	size_t len = 0;

	CHECK_INT(udrvd_state_parse(good, strlen(good), PATH, &st, msg), 0);
	CHECK_INT(st.n, 2);
	CHECK_INT(st.reqs[0].owner, 1001);
	CHECK_STR(st.reqs[0].consumer, "door lock");
	CHECK_STR(st.reqs[0].label, "pinctrl-bcm2835");
	CHECK_INT(st.reqs[0].n, 2);
	CHECK_INT(st.reqs[0].offsets[1], 27);
	CHECK_INT(st.reqs[0].settings[1].bias, UDRV_BIAS_PULL_UP);
	CHECK_INT(st.reqs[0].settings[1].drive, UDRV_DRIVE_OPEN_DRAIN);
	CHECK_INT(st.reqs[0].settings[1].edge, UDRV_EDGE_BOTH);
	CHECK_INT(st.reqs[0].settings[1].debounce_us, 5000);
	CHECK(st.reqs[0].settings[1].active_low);
	CHECK_INT(st.reqs[1].settings[0].event_clock, UDRV_CLOCK_HTE);
	CHECK_INT(udrvd_state_format(&st, &text, &len), 0);
	CHECK_INT(len, strlen(good));
	CHECK(text && !memcmp(text, good, len));
	free(text);
	udrvd_state_free(&st);
}

static void test_escapes(void)
{
	struct udrvd_state st = { 0 };
	struct udrvd_state_req *r = udrvd_state_add(&st);
	char *text = NULL;
	size_t len = 0;

	r->owner = 7;
	strcpy(r->chip, "gpiochip1");
	strcpy(r->label, "a%b c");
	strcpy(r->consumer, "\xc3\xa9t\xc3\xa9\t");
	r->n = 1;
	st.n = 1;
	CHECK_INT(udrvd_state_format(&st, &text, &len), 0);
	CHECK_CONTAINS(text, "request 7 gpiochip1 a%25b%20c %C3%A9t%C3%A9%09\n");
	udrvd_state_free(&st);
	CHECK_INT(udrvd_state_parse(text, len, PATH, &st, msg), 0);
	CHECK_STR(st.reqs[0].label, "a%b c");
	CHECK_STR(st.reqs[0].consumer, "\xc3\xa9t\xc3\xa9\t");
	udrvd_state_free(&st);
	free(text);
}

#define CHECK_BAD(text, where, what)						\
	do {									\
		struct udrvd_state _st;						\
		const char *_t = (text);					\
		CHECK_INT(udrvd_state_parse(_t, strlen(_t), PATH, &_st, msg), -EINVAL); \
		CHECK_CONTAINS(msg, where);					\
		CHECK_CONTAINS(msg, what);					\
	} while (0)

#define H	"udrvd-state 1\n"
#define REQ	"request 1 gpiochip0 l c\n"
#define LINE	"line 1 output 1 0 as-is push-pull none 0 monotonic\n"

static void test_refusals(void)
{
	struct udrvd_state st;

	CHECK_BAD("", PATH ":0:", "empty");
	CHECK_BAD("udrvd-state 2\n", ":1:", "not a udrvd state file");
	CHECK_BAD(H REQ LINE "end", ":4:", "cut short");
	CHECK_BAD(H REQ LINE, ":3:", "the last request has no 'end'");
	CHECK_BAD(H LINE, ":2:", "expected 'request OWNER CHIP LABEL CONSUMER'");
	CHECK_BAD(H REQ "end\n", ":3:", "a request without lines");
	CHECK_BAD(H REQ REQ, ":3:", "expected 'line' with 9 fields or 'end'");
	CHECK_BAD(H "request x gpiochip0 l c\n", ":2:", "not an owner's uid");
	CHECK_BAD(H "request 4294967295 gpiochip0 l c\n", ":2:", "not an owner's uid");
	CHECK_BAD(H "request 1 gpiochip0 l%41 c\n", ":2:", "badly escaped");
	CHECK_BAD(H "request 1 gpiochip0 l%0 c\n", ":2:", "badly escaped");
	CHECK_BAD(H "request 1 gpiochip0 l%00 c\n", ":2:", "badly escaped");
	CHECK_BAD(H "request 1 gpiochip0 01234567890123456789012345678901 c\n", ":2:", "too long");
	CHECK_BAD(H REQ "line 65535 output 1 0 as-is push-pull none 0 monotonic\n", ":3:",
		  "not a number in range");
	CHECK_BAD(H REQ "line 1 output 2 0 as-is push-pull none 0 monotonic\n", ":3:",
		  "not a number in range");
	CHECK_BAD(H REQ "line 1 output 1 0 as-is push-pull none 4294967296 monotonic\n", ":3:",
		  "not a number in range");
	CHECK_BAD(H REQ "line 1 sideways 1 0 as-is push-pull none 0 monotonic\n", ":3:",
		  "not one of libudrv's words");
	CHECK_BAD(H REQ "line 1 output 1 0 as-is push-pull none 0\n", ":3:", "9 fields");
	CHECK_BAD(H REQ LINE LINE, ":4:", "offset 1 twice");
	CHECK_BAD(H REQ "line 1 output 1 0 as-is push-pull none 0 monotonic x\n", ":3:", "9 fields");
	CHECK_INT(udrvd_state_parse(H "\0\n", 16, PATH, &st, msg), -EINVAL);
	CHECK_CONTAINS(msg, "NUL byte");
}

static void test_limits(void)
{
	size_t cap = 40 + 65 * 60;
	char *text = malloc(cap);
	size_t len = 0;
	struct udrvd_state st;

	len += (size_t)snprintf(text + len, cap - len, H REQ);
	for (int i = 0; i < 65; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"line %d input 0 0 as-is push-pull none 0 monotonic\n", i);
	len += (size_t)snprintf(text + len, cap - len, "end\n");
	CHECK_INT(udrvd_state_parse(text, len, PATH, &st, msg), -EINVAL);
	CHECK_CONTAINS(msg, ":67: more than 64 lines");
	free(text);
}

static void test_save_and_load(void)
{
	struct udrvd_state st, back;
	char path[512], tmp[520];
	struct stat sb;

	fake_root();
	fake_dir("var/lib/udrvd");
	fake_path(path, sizeof(path), "var/lib/udrvd/state");
	CHECK_INT(udrvd_state_load(path, &back, msg), 0);	/* no file: empty */
	CHECK_INT(back.n, 0);
	CHECK_INT(udrvd_state_parse(good, strlen(good), PATH, &st, msg), 0);
	CHECK_INT(udrvd_state_save(path, &st, msg), 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	CHECK(stat(tmp, &sb) < 0);		/* renamed away */
	CHECK_INT(udrvd_state_load(path, &back, msg), 0);
	CHECK_INT(back.n, 2);
	CHECK_INT(memcmp(back.reqs, st.reqs, 2 * sizeof(st.reqs[0])), 0);
	udrvd_state_free(&back);
	/* a write that a kill cut short leaves the tmp file: the state is whole */
	fake_file("var/lib/udrvd/state.tmp", "udrvd-state 1\nrequest 1 gpio");
	CHECK_INT(udrvd_state_load(path, &back, msg), 0);
	CHECK_INT(back.n, 2);
	udrvd_state_free(&back);
	CHECK_INT(udrvd_state_save(path, &st, msg), 0);
	fake_path(path, sizeof(path), "no/such/dir/state");
	CHECK_INT(udrvd_state_save(path, &st, msg), -ENOENT);
	CHECK_CONTAINS(msg, "cannot make the state's folder");
	CHECK_CONTAINS(msg, "StateDirectory=");
	udrvd_state_free(&st);
}

static mode_t mode_of(const char *path)
{
	struct stat sb;

	return lstat(path, &sb) ? (mode_t)-1 : sb.st_mode;
}

/* The file is 0600 whatever the umask lets through, and a missing folder
 * (one level) is made 0700. */
static void test_modes(void)
{
	struct udrvd_state st = { 0 };
	char path[512], dir[512];
	mode_t old = umask(0);

	fake_root();
	fake_path(dir, sizeof(dir), "udrvd");
	fake_path(path, sizeof(path), "udrvd/state");
	CHECK_INT(udrvd_state_save(path, &st, msg), 0);
	CHECK_INT(mode_of(path) & 07777, 0600);
	CHECK_INT(mode_of(dir) & 07777, 0700);
	CHECK(S_ISREG(mode_of(path)));
	umask(old);
}

/* A link planted as the temporary file (or as the state) is not followed:
 * its target keeps its bytes and the state is written. */
static void test_a_planted_link_is_not_followed(void)
{
	struct udrvd_state st, back;
	char path[512], tmp[520], target[512];
	char *kept;

	fake_root();
	fake_dir("var/lib/udrvd");
	fake_file("etc/shadow", "root:secret\n");
	fake_path(target, sizeof(target), "etc/shadow");
	fake_path(path, sizeof(path), "var/lib/udrvd/state");
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	CHECK_INT(symlink(target, tmp), 0);
	CHECK_INT(udrvd_state_parse(good, strlen(good), PATH, &st, msg), 0);
	CHECK_INT(udrvd_state_save(path, &st, msg), 0);
	kept = fake_read("etc/shadow");
	CHECK_STR(kept, "root:secret\n");
	free(kept);
	CHECK(S_ISREG(mode_of(path)));
	CHECK_INT(mode_of(tmp), (mode_t)-1);
	CHECK_INT(udrvd_state_load(path, &back, msg), 0);
	CHECK_INT(back.n, 2);
	udrvd_state_free(&back);
	/* the state itself a link: not read, and replaced when written */
	CHECK_INT(unlink(path), 0);
	CHECK_INT(symlink(target, path), 0);
	CHECK_INT(udrvd_state_load(path, &back, msg), -ELOOP);
	CHECK_CONTAINS(msg, "is a symbolic link");
	CHECK_INT(udrvd_state_save(path, &st, msg), 0);
	CHECK(S_ISREG(mode_of(path)));
	kept = fake_read("etc/shadow");
	CHECK_STR(kept, "root:secret\n");
	free(kept);
	udrvd_state_free(&st);
}

/* A folder others may write, or a state another user owns or may write,
 * is neither read nor written: whoever planted it would choose whose
 * requests come back. */
static void test_a_folder_or_file_others_can_write_is_refused(void)
{
	struct udrvd_state st = { 0 }, back;
	char path[512], dir[512];

	fake_root();
	fake_dir("var/lib/udrvd");
	fake_path(dir, sizeof(dir), "var/lib/udrvd");
	fake_path(path, sizeof(path), "var/lib/udrvd/state");
	CHECK_INT(udrvd_state_save(path, &st, msg), 0);
	CHECK_INT(chmod(dir, 0777), 0);
	CHECK_INT(udrvd_state_save(path, &st, msg), -EPERM);
	CHECK_CONTAINS(msg, "mode 0777: another user could plant the state");
	CHECK_CONTAINS(msg, "chmod 0700");
	CHECK_INT(udrvd_state_load(path, &back, msg), -EPERM);
	CHECK_INT(chmod(dir, 0755), 0);
	CHECK_INT(udrvd_state_load(path, &back, msg), 0);
	CHECK_INT(chmod(path, 0666), 0);
	CHECK_INT(udrvd_state_load(path, &back, msg), -EPERM);
	CHECK_CONTAINS(msg, "is not udrvd's: a file, owned by uid");
	CHECK_CONTAINS(msg, "mode 0666");
	CHECK_INT(chmod(path, 0600), 0);
	if (geteuid() == 0) {	/* a file of another user */
		CHECK_INT(chown(path, 1, 1), 0);
		CHECK_INT(udrvd_state_load(path, &back, msg), -EPERM);
		CHECK_CONTAINS(msg, "owned by uid 1");
		CHECK_INT(chown(dir, 1, 1), 0);
		CHECK_INT(udrvd_state_save(path, &st, msg), -EPERM);
		CHECK_CONTAINS(msg, "is owned by uid 1");
	}
}

UDRV_TESTS(UDRV_T(test_round_trip), UDRV_T(test_escapes), UDRV_T(test_refusals),
	   UDRV_T(test_limits), UDRV_T(test_save_and_load), UDRV_T(test_modes),
	   UDRV_T(test_a_planted_link_is_not_followed),
	   UDRV_T(test_a_folder_or_file_others_can_write_is_refused))
