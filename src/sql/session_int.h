/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/session_int: the session structure shared by session.c, exec*.c and
 * procs*.c (private to the executor).
 */
#ifndef FLOE_SQL_SESSION_INT_H
#define FLOE_SQL_SESSION_INT_H

#include "floe/catalog.h"
#include "sql/exec.h"
#include "util/time.h"

#include <regex.h>

struct floe_sql_engine; /* exec_refs.c: table cache, vtab registry */
struct floe_table_cache;

/* One catalog of the session, as Spark's spark.sql.catalog.<name>: the
 * session's own (--catalog-name, the plain --conf catalog keys) and each
 * one defined with --conf spark.sql.catalog.<name>=...SparkCatalog. */
typedef struct floe_sql_catalog {
    char *name;                     /* first part of three-part names and of CALL */
    floe_catalog *catalog;          /* owned unless `shared` */
    bool shared;                    /* the session catalog's, seen with other settings */
    bool spark;                     /* defined Spark-style: Spark's defaults (cache-enabled=true) */
    floe_props props;               /* its catalog properties (type, uri, cache-enabled, ...) */
    struct floe_table_cache *cache; /* exec_refs.c */
    bool expiring;                  /* cache-enabled=true */
} floe_sql_catalog;

struct floe_sql_session {
    char *warehouse;    /* absolute */
    floe_sql_catalog *cats;
    size_t ncats;
    size_t dflt;              /* the catalog of names without one (--catalog-name, USE) */
    size_t cur;               /* the catalog of the running statement */
    const char **cat_names;   /* the front end's catalog names (ncats) */
    const char *catalog_name; /* cats[cur].name */
    floe_catalog *catalog;    /* cats[cur].catalog */
    floe_props conf;    /* --conf: catalog and session properties */
    floe_props options; /* SET key = value */
    floe_props vars;    /* SET VAR name = ... ; ${name} */
    floe_tz *tz;        /* NULL = UTC */
    char *current_ns;   /* USE; NULL = none */
    sqlite3 *db;
    floe_sql_options fopt; /* front-end options (catalog name, ref_base, ...) */
    floe_sql_format fmt;
    floe_sql_format fmt0; /* the session's --format (RESET floe.format) */
    floe_sql_out *out;
    floe_sql_write_fn write;
    void *payload;
    floe_sql_error_fn on_error;
    floe_progress_fn progress; /* NULL: no progress reports */
    void *progress_payload;
    const char *error_class; /* static string or NULL */
    struct floe_sql_engine *engine;
    floe_vec view_objs; /* char*: temp objects of Iceberg view expansions (exec_view.c) */
    int view_depth;     /* views being expanded */
    uint64_t view_seq;  /* reference numbers used inside views */
    floe_buf struct_cols; /* struct (and non-string-keyed map) column names of
                           * the statement's tables, "<kind><name>\0" each
                           * (exec.c; `a.b` field access, `m[1]`) */
    floe_buf view_types;  /* nested column types of temporary views, as
                           * struct_cols' 't' entries (exec.c) */
};

/* Default namespace of a one-part name when no USE was run (Spark's). */
#define FLOE_SQL_DEFAULT_NAMESPACE "default"

int floe__sql_session_set_time_zone(floe_sql_session *s, const char *name);
/* Run the next statement in catalog cats[k] (s->catalog, s->catalog_name
 * and the table cache follow). */
void floe__sql_use_catalog(floe_sql_session *s, size_t k);
/* The index of catalog `name` (case-insensitive), or -1. */
int floe__sql_catalog_index(const floe_sql_session *s, const char *name);
/* SET / RESET of `key` mid-session: 0 when the key is a session option or
 * a variable; catalog and FileIO properties (fixed when the session
 * opened), Spark properties floe does not implement and unknown floe.*
 * keys fail with a message saying what to do instead. */
int floe__sql_check_set_key(floe_sql_session *s, const char *key);

/* exec_funcs.c: functions registered on the connection (exact sum()). */
int floe__sql_register_functions(floe_sql_session *s);
/* fn_agg.c: Spark's aggregates SQLite lacks (stddev, first, max_by, ...) */
int floe__sql_register_aggregate_functions(floe_sql_session *s);
/* exec_spark.c: like/regexp/floe_cast with Spark's semantics */
int floe__sql_register_spark_functions(floe_sql_session *s);
/* Spark's CAST(x AS DATE / TIMESTAMP) with ANSI off (NULL when x is not one);
 * the function's user data is the session (its time zone). */
void floe__sql_cast_datetime(sqlite3_context *ctx, sqlite3_value *x, bool ts);
/* A text-valued function's result from its status: FLOE_ENOMEM (or rc 0
 * with no text) is SQLite's out-of-memory error, another rc < 0 is SQL NULL
 * (Spark's answer to a value that is no date / out of range), else `text`
 * (copied). */
void floe__sql_result_text(sqlite3_context *ctx, int rc, const char *text);
struct floe_jw;
/* A nested value's result: the JSON writer `w`'s text (into `b`) with
 * SQLite's JSON subtype, or out of memory; frees `b`. */
void floe__sql_result_json(sqlite3_context *ctx, struct floe_jw *w, floe_buf *b);
/* fn_scalar.c: Spark's scalar math, string, hash and conversion functions */
int floe__sql_register_scalar_functions(floe_sql_session *s);
/* fn_array.c: Spark's array and map functions (size, element_at, ...) */
int floe__sql_register_array_functions(floe_sql_session *s);
/* The POSIX extended regex of argv[k], compiled once per statement (auxdata);
 * NULL after setting the function's error (bad pattern, no memory). */
regex_t *floe__sql_regex(sqlite3_context *ctx, sqlite3_value **argv, int k);
/* fn_format.c: format_number, format_string (printf) */
int floe__sql_register_format_functions(floe_sql_session *s);
/* fn_datetime.c: Spark's date/timestamp functions (date_trunc, add_months, ...) */
int floe__sql_register_datetime_functions(floe_sql_session *s);
/* vtab_explode.c: floe_explode(json), the rows of explode / LATERAL VIEW */
int floe__sql_register_explode(sqlite3 *db);

/* exec_refs.c: the Iceberg side of a session. */
int floe__sql_engine_init(floe_sql_session *s);
void floe__sql_engine_fini(floe_sql_session *s);
void floe__sql_engine_time_zone_changed(floe_sql_session *s);
/* s->cur changed: the table cache and handle options follow. */
void floe__sql_engine_catalog_changed(floe_sql_session *s);
/* Drop the objects view expansions created (after a statement), or keep
 * them for the session (a temporary view over an Iceberg view;
 * at session close: the names only). */
void floe__sql_view_objects_drop(floe_sql_session *s);
void floe__sql_view_objects_keep(floe_sql_session *s);
/* Create the virtual tables of st->refs (in temp). */
int floe__sql_refs_create(floe_sql_session *s, const floe_sql_stmt *st);
/* Drop them again (errors ignored). */
void floe__sql_refs_drop(floe_sql_session *s, const floe_sql_stmt *st);
/* Table statements: CREATE/DROP/ALTER/DESCRIBE/REFRESH/INSERT/refs/... .
 * Returns 1 when `st` is not one of them. */
int floe__sql_exec_table_stmt(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);
/* CALL <cat>.system.<proc>(...) */
int floe__sql_exec_call(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);
/* EXPLAIN lines for the Iceberg references of a statement (one per ref). */
int floe__sql_explain_refs(floe_sql_session *s, const floe_sql_stmt *st, floe_vec *lines,
                           floe_arena *a);

/* exec.c helpers shared with the other files. */
/* "ns.table" of a resolved name (namespace default applied), in `a`. */
/* `cat`.`ns`.`t` as Spark quotes a table in its messages (exec_alter.c). */
int floe__sql_quoted_table(const floe_sql_session *s, const char *ident, floe_buf *q);
const char *floe__sql_table_ident(floe_sql_session *s, const floe_sql_name *n, floe_arena *a);
/* Dotted namespace of ns[0..nns) in `a` ("" when nns == 0). */
const char *floe__sql_join(floe_arena *a, const char *const *parts, size_t n);
/* Write a result set of text cells: names[ncols], rows of ncols cells. */
int floe__sql_emit(floe_sql_session *s, const char *const *names, size_t ncols,
                   const floe_sql_cell *cells, size_t nrows);
/* Set the Java class for the current error (returns rc). Inline, like
 * floe__error's macro, so that callers (and the static analyzer) see that
 * the result is rc. */
static inline int floe__sql_fail(floe_sql_session *s, int rc, const char *java_class)
{
    s->error_class = java_class;
    return rc;
}
/* A failure of the library (rc < 0): unless the statement already named
 * its class, the class is the one of the error's kind, set where it was
 * raised (floe__sql_error_class); returns rc. The one place where the SQL
 * layer names a library error: no guess from codes or messages. */
static inline int floe__sql_classify(floe_sql_session *s, int rc)
{
    if (rc < 0 && !s->error_class)
        s->error_class = floe__sql_error_class(rc);
    return rc;
}

#endif
