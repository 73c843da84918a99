// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd's state file (daemon/model/state.c). The input is the file's bytes.
 *
 * Properties:
 *  - state-result: accepted with no message, or -EINVAL with "fuzz.state:N: "
 *    where N is a line of the input (or the one after its last newline);
 *  - state-valid: what is accepted is what the file format allows (at most
 *    1024 requests of 1 to 64 lines, offsets distinct and at most 65534,
 *    values and active-low 0 or 1, names 1 to 31 bytes without a NUL);
 *  - state-round-trip: an accepted file written back (udrvd_state_format)
 *    parses to the same requests, and writes back to the same text.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "state.h"

#define PATH	"fuzz.state"

static void check_valid(const struct udrvd_state *st)
{
	FUZZ_CHECK(st->n <= UDRVD_STATE_MAX_REQS, "%zu requests", st->n);
	for (size_t i = 0; i < st->n; i++) {
		const struct udrvd_state_req *r = &st->reqs[i];

		FUZZ_CHECK(r->n >= 1 && r->n <= UDRV_LINES_MAX, "request %zu: %zu lines", i, r->n);
		FUZZ_CHECK(r->chip[0] && r->label[0] && r->consumer[0], "request %zu: empty name", i);
		for (size_t k = 0; k < r->n; k++) {
			FUZZ_CHECK(r->offsets[k] <= 65534, "offset %u", r->offsets[k]);
			FUZZ_CHECK((r->settings[k].value == 0 || r->settings[k].value == 1),
				   "value %d", r->settings[k].value);
			for (size_t j = 0; j < k; j++)
				FUZZ_CHECK(r->offsets[j] != r->offsets[k], "offset %u twice",
					   r->offsets[k]);
		}
	}
}

static void check_result(const uint8_t *data, size_t size, int ret, const char *msg)
{
	unsigned int at = 0, lines = 1;
	char colon = 0;

	if (!ret) {
		FUZZ_CHECK(!msg[0], "accepted with message '%s'", msg);
		return;
	}
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	FUZZ_CHECK(ret == -EINVAL, "refused with %d: '%s'", ret, msg);
	FUZZ_CHECK(sscanf(msg, PATH ":%u%c", &at, &colon) == 2 && colon == ':' && at <= lines,
		   "message '%s' names no line of %u", msg, lines);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char msg[UDRVD_STATE_MSG_LEN], msg2[UDRVD_STATE_MSG_LEN];
	struct udrvd_state st, again;
	char *text = NULL, *text2 = NULL;
	size_t len = 0, len2 = 0;
	int ret = udrvd_state_parse((const char *)data, size, PATH, &st, msg);

	if (!fuzz_skip("state-result"))
		check_result(data, size, ret, msg);
	if (ret)
		return 0;
	if (!fuzz_skip("state-valid"))
		check_valid(&st);
	if (!fuzz_skip("state-round-trip")) {
		FUZZ_CHECK(!udrvd_state_format(&st, &text, &len), "format failed");
		FUZZ_CHECK(!udrvd_state_parse(text, len, PATH, &again, msg2),
			   "written back, refused: %s\n%s", msg2, text);
		FUZZ_CHECK(again.n == st.n && (!st.n || !memcmp(again.reqs, st.reqs,
								st.n * sizeof(st.reqs[0]))),
			   "written back, parsed to other requests:\n%s", text);
		FUZZ_CHECK(!udrvd_state_format(&again, &text2, &len2) && len2 == len &&
			   !memcmp(text, text2, len), "written twice, two texts");
		udrvd_state_free(&again);
		free(text);
		free(text2);
	}
	udrvd_state_free(&st);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}
