/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec: the executor of `floe sql` — a session (SQLite connection,
 * catalog, session options, variables, time zone) that runs the statements
 * the front end (sqlfront.h) parses, and the result formatter (table, csv,
 * json). docs/sql.md, "The executor", describes the behaviour.
 *
 * The library never prints: results and notices go through the session's
 * write callback; errors are returned (negative FLOE_E*) with
 * floe_error_last() set, and floe__sql_error_class() names the Java
 * exception class Spark would show for them.
 */
#ifndef FLOE_SQL_EXEC_H
#define FLOE_SQL_EXEC_H

#include "floe/catalog.h"
#include "floe/progress.h"
#include "sql/sqlfront.h"

#include <sqlite3.h>

/* ---------------------------------------------------------------- output */

typedef enum floe_sql_format {
    FLOE_SQLFMT_TABLE = 0, /* Spark show(truncate=False) boxes */
    FLOE_SQLFMT_CSV,       /* RFC 4180 with a header row */
    FLOE_SQLFMT_JSON,      /* one JSON object per row and line */
} floe_sql_format;

/* Where output bytes go: return 0, or negative to stop. */
typedef int (*floe_sql_write_fn)(const char *data, size_t len, void *payload);

/* One result cell, already typed for display. */
typedef enum floe_sql_cell_kind {
    FLOE_SQLC_NULL = 0,
    FLOE_SQLC_INT,  /* i */
    FLOE_SQLC_REAL, /* d */
    FLOE_SQLC_BOOL, /* i (0/1) */
    FLOE_SQLC_TEXT, /* s, n */
    FLOE_SQLC_JSON, /* s, n: JSON text (embedded as is in json output) */
    FLOE_SQLC_BLOB, /* s, n: bytes (hex in text formats) */
} floe_sql_cell_kind;

typedef struct floe_sql_cell {
    floe_sql_cell_kind kind;
    int64_t i;
    double d;
    const char *s;
    size_t n;
} floe_sql_cell;

static inline floe_sql_cell floe__sql_cell_int(int64_t v)
{
    floe_sql_cell c = {FLOE_SQLC_INT, v, 0, NULL, 0};
    return c;
}
static inline floe_sql_cell floe__sql_cell_text(const char *s)
{
    floe_sql_cell c = {s ? FLOE_SQLC_TEXT : FLOE_SQLC_NULL, 0, 0, s, 0};
    for (const char *p = s; p && *p; p++)
        c.n++;
    return c;
}
static inline floe_sql_cell floe__sql_cell_bool(bool b)
{
    floe_sql_cell c = {FLOE_SQLC_BOOL, b ? 1 : 0, 0, NULL, 0};
    return c;
}
static inline floe_sql_cell floe__sql_cell_null(void)
{
    floe_sql_cell c = {FLOE_SQLC_NULL, 0, 0, NULL, 0};
    return c;
}

/* A result set being written: begin, rows, end. Table output buffers the
 * rows (column widths); csv and json stream each row. */
typedef struct floe_sql_out floe_sql_out;

int floe__sql_out_new(floe_sql_out **out, floe_sql_format fmt, floe_sql_write_fn write,
                      void *payload);
void floe__sql_out_free(floe_sql_out *o);
int floe__sql_out_begin(floe_sql_out *o, const char *const *names, size_t ncols);
int floe__sql_out_row(floe_sql_out *o, const floe_sql_cell *cells);
int floe__sql_out_end(floe_sql_out *o);
/* Step a prepared statement to its end, writing every row as one result set.
 * Column display types come from the value (INTEGER, REAL, TEXT, BLOB,
 * JSON subtype) and the declared type (BOOLEAN, DECIMAL(p,s)). Errors:
 * FLOE_EINVALID with SQLite's message. */
/* Output columns (bit c: column c) of the next floe__sql_out_stmt that are
 * booleans although SQLite computes them as 0/1 (floe_sql_query.bool_columns). */
void floe__sql_out_set_bool_columns(floe_sql_out *o, uint64_t bits);
int floe__sql_out_stmt(floe_sql_out *o, sqlite3_stmt *st);
/* The cell floe__sql_out_stmt shows for a decimal result of scale `scale`
 * (exec_funcs.c's exact sum) whose double is `d`; text holds its bytes. */
int floe__sql_out_decimal_cell(const floe_sql_out *o, double d, int scale, floe_buf *text,
                               floe_sql_cell *c);
/* Optional: the display type of a result column that comes straight from a
 * table column (origin table and column as SQLite reports them):
 * FLOE_SQL_HINT_BOOL for booleans (SQLite stores 0/1), a decimal scale
 * >= 0, FLOE_SQL_HINT_JSON for nested columns (JSON text), or
 * FLOE_SQL_HINT_NONE. */
enum { FLOE_SQL_HINT_NONE = -1, FLOE_SQL_HINT_BOOL = -2, FLOE_SQL_HINT_JSON = -3 };
/* A REAL or TEXT result whose SQLite subtype is FLOE_SQL_SUBTYPE_SCALE + s
 * (s in 0..38) is a decimal of scale s (exec_funcs.c's exact sum, cells of
 * decimal columns: doubles up to 15 digits, exact text beyond). */
#define FLOE_SQL_SUBTYPE_SCALE 0xA0
typedef int (*floe_sql_type_hint_fn)(const char *table, const char *column, void *payload);
void floe__sql_out_set_hint(floe_sql_out *o, floe_sql_type_hint_fn fn, void *payload);
/* Optional (with the hint's payload): append to `out` the Spark type text
 * ("array<int>", "struct<x:int,y:string>") of a nested table column, for
 * table output's show() form of nested values; nothing for others. */
typedef int (*floe_sql_type_text_fn)(const char *table, const char *column, void *payload,
                                     floe_buf *out);
void floe__sql_out_set_type_text(floe_sql_out *o, floe_sql_type_text_fn fn);
/* The query whose rows the next floe__sql_out_stmt shows (NULL: none): the
 * binder's types of its nested output columns (ast.h
 * floe__sql_tree_nested_type) pick their show() form in table output. */
struct sql_node;
void floe__sql_out_set_query_tree(floe_sql_out *o, const struct sql_node *tree);
/* JSON text [json, json+n) of a nested value of Spark type text `type` as
 * Spark's show() prints it ([1, 2], {a -> 1}, {1, x}, NULL inside),
 * appended to b: 0; 1 (b unchanged) when the text is not JSON or the type
 * does not tell how to show it; FLOE_ENOMEM. */
int floe__sql_nested_show(const char *json, size_t n, const char *type, floe_buf *b);
/* Optional: hand result sets to `sink` instead of formatting them (the
 * public SQL API, src/sql/api.c, collects typed cells this way). The cells
 * passed to row() are borrowed for the call. NULL restores formatting. */
typedef struct floe_sql_out_sink {
    int (*begin)(const char *const *names, size_t ncols, void *payload);
    int (*row)(const floe_sql_cell *cells, size_t ncols, void *payload);
    void *payload;
} floe_sql_out_sink;
void floe__sql_out_set_sink(floe_sql_out *o, const floe_sql_out_sink *sink);
/* Remove, in place, the suffixes SQLite knows case-twin columns by
 * (sqlfront.h floe__sql_case_twin_name) from a result column name. */
void floe__sql_strip_twin_marks(char *name);
/* Display helpers shared with the executor (tests use them too). */
int floe__sql_cell_render(const floe_sql_cell *c, floe_buf *b);
/* Is `s` exactly "YYYY-MM-DD HH:MM:SS.ffffff" (floe's timestamp text)? */
bool floe__sql_is_micro_timestamp(const char *s, size_t n);
/* The length Spark prints of such a text: the fraction's trailing zeros
 * dropped, and the '.' when nothing is left ("… 10:00:00.5", "… 10:00:00"). */
size_t floe__sql_timestamp_len(const char *s, size_t n);

/* ---------------------------------------------------------------- session */

typedef struct floe_sql_session floe_sql_session;

/* Called for a failing statement when the session option
 * floe.continue-on-error is true (the script then goes on); floe_error_last()
 * and floe__sql_session_error_class() describe the failure. */
typedef void (*floe_sql_error_fn)(floe_sql_session *s, void *payload);

typedef struct floe_sql_session_options {
    unsigned version;         /* FLOE_SQL_SESSION_OPTIONS_VERSION */
    const char *warehouse;    /* directory; NULL = "./warehouse" */
    const char *catalog_name; /* NULL = "local" */
    const char *catalog_uri;  /* NULL = <warehouse>/catalog.db */
    const floe_props *conf;   /* --conf KEY=VALUE (copied); may be NULL */
    floe_sql_format format;
    floe_sql_write_fn write; /* results; NULL = discard */
    void *payload;           /* of write and on_error */
    floe_sql_error_fn on_error; /* NULL: floe.continue-on-error is ignored */
    /* Progress of long statements (include/floe/progress.h): scan planning
     * ("reading manifests") and the rows of INSERT / CTAS / INSERT
     * OVERWRITE ("writing rows"); NULL for none. */
    floe_progress_fn progress;
    void *progress_payload;
} floe_sql_session_options;

#define FLOE_SQL_SESSION_OPTIONS_VERSION 1
#define FLOE_SQL_SESSION_OPTIONS_INIT                                                              \
    {                                                                                              \
        FLOE_SQL_SESSION_OPTIONS_VERSION, NULL, NULL, NULL, NULL, FLOE_SQLFMT_TABLE, NULL, NULL,   \
            NULL, NULL, NULL                                                                       \
    }

/* Open a session: create the warehouse directory and the catalog on first
 * use, open an in-memory SQLite connection. Errors: FLOE_EIO, FLOE_EINVALID
 * (bad --conf value), FLOE_ENOMEM. */
int floe__sql_session_open(floe_sql_session **out, const floe_sql_session_options *opts);
void floe__sql_session_free(floe_sql_session *s);

/* Open one catalog the way a session opens its own (the one mapping of
 * catalog keys onto floe_catalog_open_sql/_rest/_hive): `conf` holds --conf
 * KEY=VALUE (the plain catalog keys type, uri, warehouse, the REST and Hive
 * keys, or spark.sql.catalog.<name>.<key>; FileIO keys are skipped; every
 * key is checked as floe sql checks it), `uri` is --catalog-uri (NULL: the
 * conf's uri), `warehouse` the default warehouse of new namespaces. With
 * no uri at all, *out stays NULL and 0 is returned (the caller opens its
 * local catalog). Used by the floe commands other than floe sql. */
int floe__sql_catalog_open(floe_catalog **out, const char *name, const char *uri,
                           const floe_props *conf, const char *warehouse);

/* Run every statement of `script` in order; stop at the first failing one
 * and return its error (the statement's error class is then in
 * floe__sql_session_error_class). `origin` names the script in messages
 * ("-c", a file name); may be NULL. */
int floe__sql_session_run(floe_sql_session *s, const char *script, const char *origin);

/* Java exception class of the last failing statement ("IllegalArgumentException",
 * "ValidationException", ...), or NULL when Spark would show none. */
const char *floe__sql_session_error_class(const floe_sql_session *s);

/* Output format (SET floe.format = csv changes it too). */
void floe__sql_session_set_format(floe_sql_session *s, floe_sql_format fmt);

/* Session option / variable lookups (tests). NULL when unset. */
const char *floe__sql_session_option(const floe_sql_session *s, const char *key);
const char *floe__sql_session_var(const floe_sql_session *s, const char *name);

/* Parse "table" / "csv" / "json". FLOE_EINVALID otherwise. */
int floe__sql_format_parse(const char *name, floe_sql_format *out);

/* Java exception class for the error `code` floe just raised: the one its
 * kind names (set where it was raised), else the one for the code (never
 * NULL; floe_error_exception). Every error the floe command prints is named
 * by it. */
const char *floe__sql_error_class(int code);

#endif
