// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of the streaming JSON writer (lib/measure/json.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <udrv/json.h>

#include "harness.h"

/* A writer into a memory buffer; finish() frees it and returns the text. */
struct sink {
	FILE *f;
	char *buf;
	size_t len;
	struct udrv_json *j;
	int ret;
};

static void start(struct sink *s, bool pretty)
{
	s->buf = NULL;
	s->f = open_memstream(&s->buf, &s->len);
	CHECK(s->f != NULL);
	s->j = udrv_json_new(s->f, pretty);
	CHECK(s->j != NULL);
}

static const char *finish(struct sink *s)
{
	s->ret = udrv_json_free(s->j);
	fclose(s->f);
	return s->buf;
}

static void nested(struct udrv_json *j)
{
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "name", "gpio");
	udrv_json_key(j, "lines");
	udrv_json_arr_begin(j);
	udrv_json_int(j, 1);
	udrv_json_int(j, 2);
	udrv_json_obj_begin(j);
	udrv_json_kbool(j, "up", true);
	udrv_json_obj_end(j);
	udrv_json_arr_end(j);
	udrv_json_key(j, "empty");
	udrv_json_obj_begin(j);
	udrv_json_obj_end(j);
	udrv_json_key(j, "none");
	udrv_json_arr_begin(j);
	udrv_json_arr_end(j);
	udrv_json_key(j, "n");
	udrv_json_null(j);
	udrv_json_obj_end(j);
}

static void test_compact(void)
{
	struct sink s;

	start(&s, false);
	nested(s.j);
	CHECK_STR(finish(&s),
		  "{\"name\":\"gpio\",\"lines\":[1,2,{\"up\":true}],"
		  "\"empty\":{},\"none\":[],\"n\":null}\n");
	CHECK_INT(s.ret, 0);
	free(s.buf);
}

static void test_pretty(void)
{
	struct sink s;

	start(&s, true);
	nested(s.j);
	CHECK_STR(finish(&s),
		  "{\n"
		  "  \"name\": \"gpio\",\n"
		  "  \"lines\": [\n"
		  "    1,\n"
		  "    2,\n"
		  "    {\n"
		  "      \"up\": true\n"
		  "    }\n"
		  "  ],\n"
		  "  \"empty\": {},\n"
		  "  \"none\": [],\n"
		  "  \"n\": null\n"
		  "}\n");
	CHECK_INT(s.ret, 0);
	free(s.buf);
}

static void test_escaping(void)
{
	struct sink s;

	start(&s, false);
	udrv_json_arr_begin(s.j);
	udrv_json_str(s.j, "a\"b\\c/d");
	udrv_json_str(s.j, "\n\r\t\x01\x1f\x7f");
	udrv_json_str(s.j, "\xc2\xb5s \xe2\x80\x94 \xf0\x9f\x98\x80");
	udrv_json_str(s.j, "bad \xff \xc0\x80 \xe2\x80 \xed\xa0\x80!");
	udrv_json_str(s.j, "");
	udrv_json_str(s.j, NULL);
	udrv_json_arr_end(s.j);
	CHECK_STR(finish(&s),
		  "[\"a\\\"b\\\\c/d\","
		  "\"\\n\\r\\t\\u0001\\u001f\x7f\","
		  "\"\xc2\xb5s \xe2\x80\x94 \xf0\x9f\x98\x80\","
		  "\"bad \\ufffd \\ufffd\\ufffd \\ufffd\\ufffd "
		  "\\ufffd\\ufffd\\ufffd!\","
		  "\"\",null]\n");
	CHECK_INT(s.ret, 0);
	free(s.buf);
}

static void test_key_escaping(void)
{
	struct sink s;

	start(&s, false);
	udrv_json_obj_begin(s.j);
	udrv_json_kint(s.j, "a\"\n", -1);
	udrv_json_obj_end(s.j);
	CHECK_STR(finish(&s), "{\"a\\\"\\n\":-1}\n");
	CHECK_INT(s.ret, 0);
	free(s.buf);
}

static void test_integers(void)
{
	struct sink s;

	start(&s, false);
	udrv_json_arr_begin(s.j);
	udrv_json_int(s.j, INT64_MIN);
	udrv_json_int(s.j, INT64_MAX);
	udrv_json_int(s.j, 0);
	udrv_json_uint(s.j, UINT64_MAX);
	udrv_json_uint(s.j, 0);
	udrv_json_arr_end(s.j);
	CHECK_STR(finish(&s),
		  "[-9223372036854775808,9223372036854775807,0,"
		  "18446744073709551615,0]\n");
	CHECK_INT(s.ret, 0);
	free(s.buf);
}

static void test_doubles(void)
{
	struct sink s;

	start(&s, false);
	udrv_json_arr_begin(s.j);
	udrv_json_double(s.j, 0.1);
	udrv_json_double(s.j, 1.5);
	udrv_json_double(s.j, -2.0);
	udrv_json_double(s.j, 1e300);
	udrv_json_double(s.j, 1.0 / 3.0);
	udrv_json_double(s.j, 0.1 + 0.2);
	udrv_json_double(s.j, 5e-324);
	udrv_json_double(s.j, NAN);
	udrv_json_double(s.j, INFINITY);
	udrv_json_double(s.j, -INFINITY);
	udrv_json_arr_end(s.j);
	CHECK_STR(finish(&s),
		  "[0.1,1.5,-2,1e+300,0.3333333333333333,"
		  "0.30000000000000004,4.94065645841247e-324,"
		  "null,null,null]\n");
	CHECK_INT(s.ret, 0);
	free(s.buf);
}

/* Every printed double reads back exactly. */
static void test_double_roundtrip(void)
{
	unsigned int seed = 12345;
	struct sink s;
	char *p, *end;
	double v[1000];
	int i;

	for (i = 0; i < 1000; i++)
		v[i] = (rand_r(&seed) - RAND_MAX / 2) *
		       pow(10.0, rand_r(&seed) % 40 - 20) / 7.0;
	start(&s, false);
	udrv_json_arr_begin(s.j);
	for (i = 0; i < 1000; i++)
		udrv_json_double(s.j, v[i]);
	udrv_json_arr_end(s.j);
	p = (char *)finish(&s) + 1;
	for (i = 0; i < 1000; i++) {
		double r = strtod(p, &end);

		if (r != v[i]) {
			CHECK(r == v[i]);
			break;
		}
		p = end + 1;
	}
	free(s.buf);
}

static void test_kv_helpers(void)
{
	struct sink s;

	start(&s, false);
	udrv_json_obj_begin(s.j);
	udrv_json_kstr(s.j, "s", "x");
	udrv_json_kstr(s.j, "z", NULL);
	udrv_json_kint(s.j, "i", -3);
	udrv_json_kuint(s.j, "u", 3);
	udrv_json_kdouble(s.j, "d", 2.25);
	udrv_json_kbool(s.j, "b", false);
	udrv_json_obj_end(s.j);
	CHECK_STR(finish(&s),
		  "{\"s\":\"x\",\"z\":null,\"i\":-3,\"u\":3,\"d\":2.25,"
		  "\"b\":false}\n");
	CHECK_INT(s.ret, 0);
	free(s.buf);
}

static void test_top_level_values(void)
{
	struct sink s;

	start(&s, true);
	udrv_json_int(s.j, 1);
	udrv_json_str(s.j, "two");
	CHECK_STR(finish(&s), "1\n\"two\"\n");
	CHECK_INT(s.ret, 0);
	free(s.buf);

	start(&s, true);
	CHECK_STR(finish(&s), "");
	CHECK_INT(s.ret, 0);
	free(s.buf);
}

static void test_unbalanced(void)
{
	struct sink s;

	start(&s, false);
	udrv_json_obj_begin(s.j);
	udrv_json_kint(s.j, "a", 1);
	CHECK_STR(finish(&s), "{\"a\":1\n");
	CHECK_INT(s.ret, -EINVAL);
	free(s.buf);

	start(&s, false);
	udrv_json_arr_begin(s.j);
	udrv_json_arr_end(s.j);
	udrv_json_arr_end(s.j);
	finish(&s);
	CHECK_INT(s.ret, -EINVAL);
	free(s.buf);

	start(&s, false);
	udrv_json_arr_begin(s.j);
	udrv_json_obj_end(s.j);
	finish(&s);
	CHECK_INT(s.ret, -EINVAL);
	free(s.buf);

	/* a key whose value never came */
	start(&s, false);
	udrv_json_obj_begin(s.j);
	udrv_json_key(s.j, "k");
	udrv_json_obj_end(s.j);
	finish(&s);
	CHECK_INT(s.ret, -EINVAL);
	free(s.buf);
}

static void test_misuse(void)
{
	struct sink s;

	/* a value in an object without a key: nothing more is written */
	start(&s, false);
	udrv_json_obj_begin(s.j);
	udrv_json_int(s.j, 1);
	udrv_json_obj_end(s.j);
	CHECK_STR(finish(&s), "{\n");
	CHECK_INT(s.ret, -EINVAL);
	free(s.buf);

	/* a key in an array */
	start(&s, false);
	udrv_json_arr_begin(s.j);
	udrv_json_key(s.j, "k");
	udrv_json_arr_end(s.j);
	finish(&s);
	CHECK_INT(s.ret, -EINVAL);
	free(s.buf);

	/* a key at the top level */
	start(&s, false);
	udrv_json_key(s.j, "k");
	finish(&s);
	CHECK_INT(s.ret, -EINVAL);
	free(s.buf);
}

static void test_depth_limit(void)
{
	struct sink s;
	int i;

	start(&s, false);
	for (i = 0; i < 32; i++)
		udrv_json_arr_begin(s.j);
	for (i = 0; i < 32; i++)
		udrv_json_arr_end(s.j);
	finish(&s);
	CHECK_INT(s.ret, 0);
	CHECK_INT(strlen(s.buf), 65);
	free(s.buf);

	start(&s, false);
	for (i = 0; i < 1000; i++)
		udrv_json_arr_begin(s.j);
	for (i = 0; i < 1000; i++)
		udrv_json_arr_end(s.j);
	finish(&s);
	CHECK_INT(s.ret, -EINVAL);
	CHECK_INT(strlen(s.buf), 33);
	free(s.buf);
}

static void test_null_writer(void)
{
	udrv_json_obj_begin(NULL);
	udrv_json_kint(NULL, "a", 1);
	udrv_json_obj_end(NULL);
	CHECK_INT(udrv_json_free(NULL), 0);
	CHECK(udrv_json_new(NULL, false) == NULL);
}

UDRV_TESTS(
	UDRV_T(test_compact),
	UDRV_T(test_pretty),
	UDRV_T(test_escaping),
	UDRV_T(test_key_escaping),
	UDRV_T(test_integers),
	UDRV_T(test_doubles),
	UDRV_T(test_double_roundtrip),
	UDRV_T(test_kv_helpers),
	UDRV_T(test_top_level_values),
	UDRV_T(test_unbalanced),
	UDRV_T(test_misuse),
	UDRV_T(test_depth_limit),
	UDRV_T(test_null_writer),
)
