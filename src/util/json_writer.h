/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util/json_writer: floe's one JSON emitter (RFC 8259) into a floe_buf —
 * objects, arrays, keys, strings with JSON escaping, 64-bit integers,
 * doubles (shortest text that reads back to the same value), booleans, null
 * and pre-serialized raw text. Commas and colons are placed by the writer,
 * so emitters say what they write, not how. Output is compact (no spaces).
 *
 * Errors are sticky: after the first failure (FLOE_ENOMEM, FLOE_EINVALID for
 * a misuse such as a value where a key is due, a non-finite double, nesting
 * past FLOE_JW_MAX_DEPTH) every call returns it again, so long emitters may
 * check once at the end with floe__jw_finish.
 */
#ifndef FLOE_UTIL_JSON_WRITER_H
#define FLOE_UTIL_JSON_WRITER_H

#include "util/util.h"

#define FLOE_JW_MAX_DEPTH 256 /* as the parser's FLOE_JSON_MAX_DEPTH */

typedef struct floe_jw {
    floe_buf *out;
    int err;            /* first failure, sticky */
    int depth;          /* open containers */
    bool after_key;     /* a key was written, its value is due */
    uint8_t kind[FLOE_JW_MAX_DEPTH]; /* 'o' object, 'a' array */
    uint8_t count[FLOE_JW_MAX_DEPTH]; /* 0: container still empty */
} floe_jw;

/* Start writing at the end of `out` (its content is kept). */
void floe__jw_init(floe_jw *w, floe_buf *out);
/* 0, or the first error; FLOE_EINVALID when containers are left open. */
int floe__jw_finish(const floe_jw *w);

int floe__jw_obj(floe_jw *w);     /* { */
int floe__jw_obj_end(floe_jw *w); /* } */
int floe__jw_arr(floe_jw *w);     /* [ */
int floe__jw_arr_end(floe_jw *w); /* ] */
int floe__jw_key(floe_jw *w, const char *key);

int floe__jw_str(floe_jw *w, const char *s); /* NULL writes null */
int floe__jw_strn(floe_jw *w, const char *s, size_t len);
int floe__jw_int(floe_jw *w, int64_t v);
int floe__jw_double(floe_jw *w, double v); /* FLOE_EINVALID for NaN / infinity */
int floe__jw_bool(floe_jw *w, bool v);
int floe__jw_null(floe_jw *w);
/* One complete JSON value already serialized (not checked). */
int floe__jw_raw(floe_jw *w, const char *json, size_t len);

/* Place the separator for one value the caller then appends to w->out
 * itself (an emitter that writes into a floe_buf). */
int floe__jw_begin_raw(floe_jw *w);
/* Write a {"key":"value",...} object of n pairs. */
int floe__jw_kv_object(floe_jw *w, const floe_kv *kv, size_t n);

/* key + value shorthands */
int floe__jw_kstr(floe_jw *w, const char *key, const char *s);
int floe__jw_kint(floe_jw *w, const char *key, int64_t v);
int floe__jw_kdouble(floe_jw *w, const char *key, double v);
int floe__jw_kbool(floe_jw *w, const char *key, bool v);

#endif
