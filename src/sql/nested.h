/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/nested: nested column values (struct, list, map) between SQLite's JSON
 * text and Arrow (nested.c), and the scalar form shared by the INSERT
 * conversion of top-level values and of leaves inside nested values
 * (exec_insert.c).
 */
#ifndef FLOE_SQL_NESTED_H
#define FLOE_SQL_NESTED_H

#include "arrow/arrow.h"
#include "sql/exec_int.h"
#include "util/time.h"

/* A SQLite-like scalar: `type` is SQLITE_NULL/INTEGER/FLOAT/TEXT/BLOB; i or
 * d hold INTEGER/FLOAT; text/len the value as text (for numbers their text
 * form, used by decimal parsing and in messages) or the BLOB bytes. */
typedef struct floe_sql_scalar {
    int type;
    int64_t i;
    double d;
    const char *text;
    size_t len;
} floe_sql_scalar;

/* Scalar `x` as the Iceberg value of primitive field `f` (errors name
 * f->name). Strings point into x. */
int floe__sql_convert_scalar(floe_sql_session *s, const floe_sql_scalar *x, const floe_field *f,
                             floe_value *out);

/* Slot i of Arrow array `a` of nested type `t` as JSON text into `out`
 * (cleared first; NUL-terminated). timestamptz leaves are shown in `tz`
 * (NULL: UTC). Errors: FLOE_ENOMEM, FLOE_EINVALID beyond the depth limit. */
int floe__sql_nested_json(const struct ArrowArray *a, const floe_type *t, int64_t i,
                          const floe_tz *tz, floe_buf *out);

/* Append SQLite value `sv` as one slot of field `f` (primitive: converted as
 * floe__sql_convert_value; nested: NULL or JSON text, see nested.c) to `b`.
 * Errors (class AnalysisException set on the session): FLOE_EINVALID for a
 * value that does not fit, a null in a required field; FLOE_ENOMEM. */
int floe__sql_append_value(floe_sql_session *s, sqlite3_value *sv, const floe_field *f,
                           floe_arrow_builder *b);

#endif
