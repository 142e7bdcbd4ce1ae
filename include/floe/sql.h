/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQL session as a library: the same Spark-dialect SQL that `floe sql`
 * runs (docs/sql.md), on a catalog opened from a warehouse / URI and
 * --conf-style properties, with results handed back as typed values
 * (or rendered in Spark's show() boxes, CSV or JSON lines) instead of
 * printed. Bindings (python/, issue #29) sit on this header.
 *
 * Ownership: a session and a result are the caller's (floe_sql_close,
 * floe_sql_result_free); strings returned by accessors are borrowed from
 * their object unless said otherwise. A session is not thread-safe: use
 * one per thread (or serialise calls); results may outlive their session.
 * Errors are negative FLOE_E* codes with floe_error_last() set; the Java
 * exception class Spark would show is floe_sql_error_class().
 */
#ifndef FLOE_SQL_H
#define FLOE_SQL_H

#include "floe/catalog.h"
#include "floe/common.h"
#include "floe/io.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct floe_sql_session floe_sql_session;
typedef struct floe_sql_result floe_sql_result;

#define FLOE_SQL_OPEN_OPTIONS_VERSION 1u

/* How to open a session. Initialise with FLOE_SQL_OPEN_OPTIONS_INIT: later
 * versions append fields and bump `version`. */
typedef struct floe_sql_open_options {
    unsigned version;         /* FLOE_SQL_OPEN_OPTIONS_VERSION */
    const char *warehouse;    /* directory or s3:// URI; NULL = "./warehouse" */
    const char *catalog_name; /* NULL = "local" */
    /* SQLite catalog file or http(s):// REST catalog URI; NULL = the
     * "uri" conf key, else <warehouse>/catalog.db */
    const char *catalog_uri;
    /* --conf KEY=VALUE pairs as conf[2*i], conf[2*i+1] (copied): catalog
     * properties (token, credential, s3.*) and session options (floe.*,
     * spark.wap.id, ...). May be NULL when nconf == 0. */
    const char *const *conf;
    size_t nconf;
} floe_sql_open_options;

#define FLOE_SQL_OPEN_OPTIONS_INIT                                                                 \
    {                                                                                              \
        FLOE_SQL_OPEN_OPTIONS_VERSION, NULL, NULL, NULL, NULL, 0                                   \
    }

/* Open a session: create the warehouse directory and catalog on first use.
 * opts may be NULL (defaults). Errors: FLOE_EIO, FLOE_EINVALID (bad conf
 * value, unknown options version), FLOE_ENOMEM. */
FLOE_EXTERN int floe_sql_open(floe_sql_session **out, const floe_sql_open_options *opts);

/* Close a session (NULL is fine). Results already returned stay valid. */
FLOE_EXTERN void floe_sql_close(floe_sql_session *s);

/* The session's catalog (borrowed; valid until floe_sql_close): the table
 * API (include/floe/table.h) on the same catalog the SQL runs on. */
FLOE_EXTERN floe_catalog *floe_sql_session_catalog(floe_sql_session *s);

/* The session's FileIO (borrowed; valid until floe_sql_close): the one its
 * statements read and write tables through, configured from the session's
 * s3.* and io.location-map keys. Pass it as floe_table_options.io so that the
 * table API reaches the same storage (an s3:// warehouse, say). */
FLOE_EXTERN floe_fileio *floe_sql_session_fileio(floe_sql_session *s);

/* Run the statements of `text` in order, stopping at the first failing one.
 * On success *out (may be NULL to discard) holds the last result set any
 * statement produced (a query, SHOW, DESCRIBE, CALL); statements without
 * one leave it empty (floe_sql_result_has_rows() false). Errors: the
 * failing statement's (FLOE_EINVALID for parse errors and bad input,
 * FLOE_ENOTFOUND, FLOE_ECONFLICT, ...) with floe_sql_error_class() set. */
FLOE_EXTERN int floe_sql_execute(floe_sql_result **out, floe_sql_session *s, const char *text);

/* The Java exception class of the last failing statement
 * ("ValidationException", "NoSuchTableException", "ParseException", ...),
 * or NULL when Spark would show none. Static string. */
FLOE_EXTERN const char *floe_sql_error_class(const floe_sql_session *s);

/* For an error a floe call outside SQL returned, floe_error_exception()
 * (floe/common.h) names the exception: bindings name theirs with it. */

/* ---------------------------------------------------------------- results */

typedef enum floe_sql_datum_kind {
    FLOE_SQL_DATUM_NULL = 0,
    FLOE_SQL_DATUM_INT,  /* i */
    FLOE_SQL_DATUM_REAL, /* d */
    FLOE_SQL_DATUM_BOOL, /* i: 0 or 1 */
    FLOE_SQL_DATUM_TEXT, /* s, n (UTF-8; timestamps and dates as Spark shows them) */
    FLOE_SQL_DATUM_JSON, /* s, n: nested values as JSON text */
    FLOE_SQL_DATUM_BLOB, /* s, n: bytes */
} floe_sql_datum_kind;

/* One value of a result (s is borrowed from the result). */
typedef struct floe_sql_datum {
    floe_sql_datum_kind kind;
    int64_t i;
    double d;
    const char *s;
    size_t n;
} floe_sql_datum;

/* Whether a statement produced a result set (possibly with zero rows). */
FLOE_EXTERN bool floe_sql_result_has_rows(const floe_sql_result *r);
FLOE_EXTERN size_t floe_sql_result_ncols(const floe_sql_result *r);
FLOE_EXTERN size_t floe_sql_result_nrows(const floe_sql_result *r);
/* Column name (borrowed), NULL when col is out of range. */
FLOE_EXTERN const char *floe_sql_result_column(const floe_sql_result *r, size_t col);
/* The value at (row, col): FLOE_EINVALID when out of range. */
FLOE_EXTERN int floe_sql_result_get(floe_sql_datum *out, const floe_sql_result *r, size_t row,
                                    size_t col);
/* The values of column `col`, rows [0, nrows) (borrowed array of nrows), or
 * NULL when col is out of range: one call per column for bindings. */
FLOE_EXTERN const floe_sql_datum *floe_sql_result_column_values(const floe_sql_result *r,
                                                                size_t col);

typedef enum floe_sql_render {
    FLOE_SQL_RENDER_TABLE = 0, /* Spark show(truncate=False) boxes, as `floe sql` prints */
    FLOE_SQL_RENDER_CSV,       /* RFC 4180 with a header row */
    FLOE_SQL_RENDER_JSON,      /* one JSON object per row and line */
} floe_sql_render;

/* The result as text in `how` (caller's string: floe_string_free).
 * An empty result set renders as "" (nothing was shown). Errors:
 * FLOE_EINVALID (unknown `how`), FLOE_ENOMEM. */
FLOE_EXTERN int floe_sql_result_render(char **out, const floe_sql_result *r, floe_sql_render how);

/* Free a result (NULL is fine). */
FLOE_EXTERN void floe_sql_result_free(floe_sql_result *r);

#ifdef __cplusplus
}
#endif

#endif
