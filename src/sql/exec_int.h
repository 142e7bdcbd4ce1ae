/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_int: the executor's access to tables (private). Implemented in
 * exec_refs.c and exec_insert.c.
 */
#ifndef FLOE_SQL_EXEC_INT_H
#define FLOE_SQL_EXEC_INT_H

#include "floe/evolve.h"
#include "floe/table.h"
#include "spec/metadata.h"
#include "spec/types.h"
#include "sql/session_int.h"

/* Handle options for tables the session loads or creates (FileIO conf). */
const floe_table_options *floe__sql_table_options(floe_sql_session *s);
/* The table `ident` ("ns.t") through the session's cache (borrowed until the
 * next get of the same table). Errors: FLOE_ENOTFOUND "Table does not
 * exist: ident" with class NoSuchTableException set on the session. */
int floe__sql_get_table(floe_sql_session *s, const char *ident, floe_table **out);
/* exec_table.c: the statement's target table (a plain table, not a
 * metadata table, branch or tag: UnsupportedOperationException naming `what`). */
int floe__sql_target_table(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a,
                           const char *what, const char **ident, floe_table **t);
/* exec_show.c: SHOW TBLPROPERTIES t [('key')] */
int floe__sql_exec_show_tblproperties(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);
/* SHOW CREATE TABLE t as Spark 3.5's ShowCreateTableExec prints an Iceberg table. */
int floe__sql_exec_show_create(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);
/* exec_table.c: the result columns of a query (CTAS, CREATE VIEW), typed
 * from the table columns they read or from the first row; and an Iceberg
 * schema JSON object of columns (schema-id 0, ids 1..n, nested after). */
int floe__sql_infer_columns(floe_sql_session *s, const floe_sql_query *q, floe_arena *a,
                            floe_sql_column **out, size_t *n);
struct json_t;
struct json_t *floe__sql_columns_schema(const floe_sql_column *cols, size_t n);
/* exec_view.c: Iceberg views in `floe sql` (CREATE VIEW db.v, DROP VIEW,
 * SHOW VIEWS, and a query naming a view: its SQL expanded as a temporary
 * SQLite view under the reference's name). floe__sql_view_ref answers 1
 * when `ident` is no view (the caller keeps its "not found"). */
int floe__sql_exec_create_iceberg_view(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);
int floe__sql_exec_drop_iceberg_view(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);
int floe__sql_exec_show_views(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);
int floe__sql_view_ref(floe_sql_session *s, const floe_sql_tref *r, const char *ident);
/* DESCRIBE [EXTENDED] of a view (Spark's DescribeV2ViewExec); 1 when
 * `ident` is no view (the table's "not found" error is kept). */
int floe__sql_describe_view(floe_sql_session *s, const floe_sql_stmt *st, const char *ident,
                            floe_arena *a);
/* SparkTable.properties() as DESCRIBE EXTENDED and SHOW CREATE TABLE show
 * them: the table's properties plus current-snapshot-id, format,
 * format-version, sort-order and identifier-fields, without Spark's
 * reserved ones (comment, location, provider, owner, external,
 * is_managed_location), sorted by key. In `a`. */
int floe__sql_spark_props(const floe_table_metadata *m, floe_arena *a, floe_kv **out, size_t *n);
/* Spark's name of a partition transform of column `col` ("bucket(16, id)",
 * "days(ts)", `col` for identity); NULL for void (Spark3Util.toTransforms
 * leaves it out). In `a`. */
const char *floe__sql_transform_text(floe_arena *a, const floe_partition_field *f, const char *col);
/* The same in the session's catalog number `cat` (a row source created in
 * one statement keeps reading its catalog's cache in later ones). */
int floe__sql_get_table_in(floe_sql_session *s, size_t cat, const char *ident, floe_table **out);
/* Forget a cached table (DROP, RENAME). */
void floe__sql_forget_table(floe_sql_session *s, const char *ident);
/* A write committed through handle `written` (not the cached one): the
 * cached table takes its state, so the session reads its own writes (as
 * Java's cached Table, the object that committed). */
int floe__sql_table_committed(floe_sql_session *s, const struct floe_table *written);
/* The same after a commit made without a handle (expire_snapshots,
 * remove_orphan_files): the cached table is reloaded from the catalog. */
int floe__sql_table_changed(floe_sql_session *s, const char *ident);
/* The state a row-level statement (DELETE, UPDATE, MERGE) starts from, as
 * Spark's: its scan reads the catalog's Table object, which with
 * cache-enabled=true is the cached one (SparkTable does not refresh it);
 * the commit then refreshes, validates from that snapshot (isolation
 * level) and retries. Makes write handle `t` (opened on the statement's
 * branch) take the cached state; a no-op in the other cache modes. */
int floe__sql_write_base(floe_sql_session *s, const char *ident, struct floe_table *t);
/* The Iceberg type of column `column` of the live virtual table `table`
 * (NULL when unknown or either name is NULL). */
const floe_type *floe__sql_live_column_type(floe_sql_session *s, const char *table,
                                            const char *column);
/* The exact row count of the live virtual table `sqlite_name` without
 * reading rows (floe__rs_count): 0 with *out set, 1 when its source cannot
 * tell (not a data table, deletes to apply), negative on error. */
int floe__sql_live_count(floe_sql_session *s, const char *sqlite_name, int64_t *out);
/* exec_fast.c: answer `q` (prepared from st's query) when it is a bare
 * `SELECT count(*) FROM <table>` whose count is exact without reading rows;
 * *done tells whether the result was written. */
int floe__sql_fast_count(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q,
                         bool *done);
/* exec_fast.c: answer `q` (prepared from st's query) when it is
 * `SELECT agg(col), ... FROM <table> [WHERE col op literal AND ...]` over a
 * data table (agg: count, sum, min, max, avg on numeric and date columns)
 * by reading the scan's Arrow batches directly, with SQLite's exact
 * results; *done tells whether the result was written. Off with
 * SET floe.fast-aggregates = false. */
int floe__sql_fast_aggregate(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q,
                             bool *done);
/* exec_fast.c: EXPLAIN of `q`: runs it on the fast path without output
 * when it applies and sets *line (arena-allocated) saying so, else *line
 * is NULL and the caller runs `q` on SQLite. */
int floe__sql_fast_explain(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q,
                           floe_arena *a, const char **line);
/* The row source behind the live virtual table `sqlite_name` (NULL: none). */
struct floe_rowsource *floe__sql_live_source(floe_sql_session *s, const char *sqlite_name);

/* exec_funcs.c: the exact sum behind sum() (one implementation for SQLite's
 * aggregate and the fast path). Zero-initialise; 8-byte alignment suffices
 * (SQLite's aggregate context), so the 128-bit accumulator is bytes. */
/* Register floe_cast_decimal(x, p, s), Spark's CAST(x AS DECIMAL(p, s))
 * (exec_decimal.c). */
int floe__sql_register_decimal(sqlite3 *db);
/* floe_cast_decimal(x, p, s) of a double x for p <= 15 (exec_decimal.c):
 * the exact decimal of x's shortest text rounded HALF_UP to s digits, as
 * a double; false for NaN and infinities. */
bool floe__sql_decimal_round_double(double x, int scale, double *out);

typedef struct floe_sql_dsum {
    unsigned char acc_bytes[16]; /* i128: exact sum * 10^scale = hi * 10^36 + acc */
    unsigned char hi_bytes[16];  /* i128: what acc spilled past 10^36 */
    int scale;
    bool any;     /* at least one non-NULL value */
    bool real;    /* a REAL was seen */
    bool inexact; /* fell back to doubles */
    bool wide;    /* a wide decimal (exact text) was seen: the result is text */
    double d, c;  /* Kahan-Babuska sum for the fallback */
} floe_sql_dsum;
/* One non-NULL value: `t` its SQLite numeric type (SQLITE_INTEGER: iv;
 * SQLITE_FLOAT: x; SQLITE_TEXT: x is its numeric prefix), x its double. */
void floe__sql_dsum_step(floe_sql_dsum *s, int t, int64_t iv, double x);
/* Add v * 10^-scale (scale <= 38), exactly what stepping values of that sum
 * one by one gives when none makes the sum inexact: integers (real false)
 * or decimals whose shortest form has at most `scale` fraction digits. */
void floe__sql_dsum_add_exact(floe_sql_dsum *s, floe_i128 v, int scale, bool real);
enum {
    FLOE_SQL_DSUM_NULL,
    FLOE_SQL_DSUM_INT,      /* *i */
    FLOE_SQL_DSUM_REAL,     /* *d: a plain double (inexact fallback) */
    FLOE_SQL_DSUM_DECIMAL,  /* *d shown with *scale fraction digits */
    FLOE_SQL_DSUM_OVERFLOW, /* SQLite's "integer overflow" */
    FLOE_SQL_DSUM_TEXT,     /* floe__sql_dsum_text: the exact decimal text (wide decimals) */
};
int floe__sql_dsum_result(const floe_sql_dsum *s, int64_t *i, double *d, int *scale);
/* Add a wide decimal cell's exact text (scale `scale`, the column's); false
 * when it is not a plain decimal number (then step it as SQLite would). */
bool floe__sql_dsum_add_text(floe_sql_dsum *s, const char *text, size_t n, int scale);
/* The exact sum as decimal text at its scale into buf (64 bytes); false
 * when it has more than 38 digits (Spark's decimal overflow: NULL). */
bool floe__sql_dsum_text(const floe_sql_dsum *s, char buf[64]);
/* Does top-level column i of `sc` differ from another only in case? (The
 * virtual tables declare such columns as floe__sql_case_twin_name.) */
bool floe__sql_schema_case_twin(const floe_schema *sc, size_t i);
/* SQLite's last error on the session's connection as an AnalysisException
 * (an unknown column that names case twins: Spark's AMBIGUOUS_REFERENCE). */
int floe__sql_sqlite_fail(floe_sql_session *s);
/* exec_view.c: does `name` match Spark's SHOW ... LIKE `pattern` ('*' any
 * characters, '|' alternatives, case-insensitive; NULL matches all)? */
bool floe__sql_show_matches(const char *pattern, const char *name);
/* REFRESH TABLE. */
int floe__sql_refresh_table(floe_sql_session *s, const char *ident);

/* INSERT INTO / INSERT OVERWRITE. */
/* exec_table.c: Spark's name of an Iceberg type, catalogString or (sql)
 * the SQL form of messages ("STRUCT<a: INT, b: STRING>"). */
int floe__sql_spark_type(const struct floe_type *t, bool sql, floe_buf *b);
/* QuotingUtils.quoteIfNeeded: `name` in backticks unless [A-Za-z0-9_]+ and not all digits. */
int floe__sql_quote_if_needed(const char *name, floe_buf *b);
/* '...' with ' escaped as \' (Spark's escapeSingleQuotedString). */
int floe__sql_single_quoted(const char *text, floe_buf *b);
/* exec_alter.c: ALTER TABLE evolution DDL (FLOE_SQL_ALTER_SCHEMA). */
int floe__sql_exec_alter(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);
int floe__sql_exec_insert(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);
/* exec_refs.c: whether table `ident` (as the session sees it) has
 * write.wap.enabled=true, which makes spark.wap.branch apply (Spark's
 * SparkWriteConf / SparkReadConf). */
int floe__sql_wap_enabled(floe_sql_session *s, const char *ident, bool *out);
/* exec_insert.c: the table a write statement targets, on its branch (t.branch_x
 * or spark.wap.branch) with spark.wap.id; sets the error class when missing. */
int floe__sql_load_target(floe_sql_session *s, const floe_sql_stmt *st, const char *ident,
                          struct floe_table **t);
/* Append the rows of `q` (refs of `st` already usable) to table `ident`
 * (branch NULL = main, or the WAP branch) mapping them to `columns` (NULL:
 * all, in order). One snapshot. */
int floe__sql_insert_query(floe_sql_session *s, const floe_sql_stmt *st, const char *ident,
                           const floe_sql_query *q, const char *const *columns, size_t ncolumns,
                           floe_arena *a);
/* The same on an open table handle `t` (borrowed; `ident` names it in
 * messages): the rows of a REPLACE TABLE AS SELECT go to the staged
 * replacement's handle. */
int floe__sql_insert_into(floe_sql_session *s, const floe_sql_stmt *st, struct floe_table *t,
                          const char *ident, const floe_sql_query *q,
                          const char *const *columns, size_t ncolumns);

/* One SQLite value as the Iceberg value of field `f` (exact conversion as
 * INSERT does; errors name the column). Strings point into `sv`. */
int floe__sql_convert_value(floe_sql_session *s, sqlite3_value *sv, const floe_field *f,
                            floe_value *out);
struct floe_rowsource;
/* Expose row source `rs` (ownership as floe__vtab_create) as temp table
 * `sqlite_name` until DROP TABLE temp."name". */
int floe__sql_live_create(floe_sql_session *s, const char *sqlite_name,
                          struct floe_rowsource *rs);
/* exec_changes.c: incremental_append(...) / table_changes(...) in FROM. */
int floe__sql_tvf_source(floe_sql_session *s, const floe_sql_tref *r,
                         struct floe_rowsource **out);
/* vtab_parquet.c: read_parquet('path' | 'glob' | array(...), ...) in FROM. */
int floe__sql_read_parquet_source(floe_sql_session *s, const floe_sql_tref *r,
                                  struct floe_rowsource **out);
/* Append to `out` (a floe_vec of heap char*) the objects `pattern` names:
 * itself when it has no wildcard, else the listed matches in order
 * (FLOE_ENOTFOUND "No files found that match the pattern ..." when none). */
int floe__sql_parquet_glob(floe_fileio *io, const char *pattern, floe_vec *out);
/* The row source of table `table` ("[cat.]ns.t") between start (exclusive)
 * and end (inclusive), each NULL / id / timestamp; opts carries mode and
 * changelog options. changelog: table_changes, else incremental_append. */
struct floe_incremental_options;
int floe__sql_changes_source(floe_sql_session *s, const char *table, const floe_sql_value *start,
                             const floe_sql_value *end, struct floe_incremental_options *opts,
                             bool changelog, struct floe_rowsource **out);
/* CALL system.create_changelog_view: a session-temporary view `view`
 * (NULL: "<table>_changes") over the changelog of `ident`. options: map of
 * start-/end-snapshot-id, start-/end-timestamp (ms); compute_updates -1 =
 * default (true when identifier columns are given). Prints the view name. */
int floe__sql_changelog_view(floe_sql_session *s, const char *ident, const char *view,
                             const floe_sql_value *options, int compute_updates,
                             const floe_sql_value *identifier_columns, bool net_changes);
/* DELETE FROM / UPDATE (exec_rowlevel.c). */
int floe__sql_exec_rowlevel(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);
/* MERGE INTO (exec_merge.c). */
int floe__sql_exec_merge(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);

/* exec_rowlevel.c helpers shared with MERGE. */
struct floe_arrow_builder;
/* Write the builder's rows (if any) to the operation and reset it. */
int floe__sql_rl_flush(floe_rowlevel *op, struct floe_arrow_builder *b);
/* The builder of the operation's new rows: the schema's columns, and on a
 * v3 table the row lineage columns after them (types in `a`). */
int floe__sql_rl_builder(floe_rowlevel *op, const floe_schema *sc, floe_arena *a,
                         struct floe_arrow_builder **out);
/* After a row's nf values: on a v3 table its lineage, `row_id` the id the
 * row keeps (an UPDATE's new version; NULL or SQL NULL: a new row) and
 * _last_updated_sequence_number null (the commit's, spec "Row Lineage").
 * No-op on older tables. */
int floe__sql_rl_lineage(floe_rowlevel *op, struct floe_arrow_builder *b, size_t nf,
                         sqlite3_value *row_id);
/* Temp virtual table `vt` over the operation's base snapshot of st->target
 * (an empty scan when the table has no snapshot), with the hidden metadata
 * columns _file and _pos read; with `filter` (an unbound expression,
 * borrowed until the table is dropped; NULL: none) only the rows matching
 * it. Drop it with floe__sql_drop_vtab. */
struct floe_expr;
int floe__sql_base_vtab(floe_sql_session *s, const floe_sql_stmt *st, const char *ident,
                        floe_table *t, floe_rowlevel *op, const char *vt,
                        const struct floe_expr *filter);
void floe__sql_drop_vtab(floe_sql_session *s, const char *vt);
/* Replace the statement's data-table references (floe_ref_N virtual
 * tables, created by floe__sql_refs_create) by SQLite temp tables holding
 * their rows (with _file/_pos when the text names them): a correlated
 * subquery of a row-level statement then reads each Iceberg table once
 * (SQLite indexes temp tables automatically) instead of re-scanning it for
 * every target row. floe__sql_refs_drop drops them as before. */
int floe__sql_refs_materialize(floe_sql_session *s, const floe_sql_stmt *st);
/* Positions to delete, collected row by row and handed to
 * floe_rowlevel_delete_positions per run of one file. Zero-initialise. */
typedef struct floe_sql_rl_positions {
    char *file;
    int64_t *pos;
    size_t n, cap;
    int64_t total; /* positions added */
} floe_sql_rl_positions;
int floe__sql_rl_positions_add(floe_sql_rl_positions *p, floe_rowlevel *op, const char *file,
                               int64_t pos);
int floe__sql_rl_positions_flush(floe_sql_rl_positions *p, floe_rowlevel *op);
void floe__sql_rl_positions_free(floe_sql_rl_positions *p);

/* exec_alter.c: parsed order items as the evolve API's sort terms (in `a`;
 * NULL when out of memory). */
floe_sort_term *floe__sql_sort_terms(floe_arena *a, const floe_sql_sort_item *items, size_t n);

#endif
