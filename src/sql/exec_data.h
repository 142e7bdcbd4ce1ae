/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_data: Iceberg data tables as row sources for the shell's virtual
 * tables (exec_data.c).
 */
#ifndef FLOE_SQL_EXEC_DATA_H
#define FLOE_SQL_EXEC_DATA_H

#include "spec/types.h"
#include "sql/session_int.h"

struct floe_rowsource;
struct floe_table;
struct ArrowArrayStream;
struct ArrowArray;

/* A row source over the table `ident` with the selection of `r` (time
 * travel, branch_/tag_ suffix); `t` is the table as the cache holds it.
 * Unknown snapshots/refs fail now with Iceberg's messages. */
int floe__sql_data_source(struct floe_rowsource **out, floe_sql_session *s,
                          const floe_sql_tref *r, const char *ident, struct floe_table *t);
/* Plan the scans of data source `rs` (floe__sql_data_source) with the
 * unbound expression `e` (borrowed: it must outlive the source; NULL:
 * none) as their filter instead of SQLite's pushed constraints: rows not
 * matching it are never returned. No-op on another kind of source. */
struct floe_expr;
void floe__sql_data_source_set_filter(struct floe_rowsource *rs, const struct floe_expr *e);
/* A row source over Arrow struct batches from another producer (read_parquet):
 * columns are the top-level fields of `schema`, typed and converted exactly
 * as a data table's (decimals <= 15 digits as doubles, ...). Each open calls
 * fns->open(payload, stream) for a stream whose batches' children follow
 * `schema`; fns->free(payload) runs with the source (also when this call
 * fails). `schema` must live as long as the payload. explain (may be NULL)
 * writes the EXPLAIN line. */
typedef struct floe_sql_stream_fns {
    int (*open)(void *payload, struct ArrowArrayStream *out);
    void (*free)(void *payload);
    int (*explain)(void *payload, floe_buf *out);
} floe_sql_stream_fns;
int floe__sql_stream_source(struct floe_rowsource **out, floe_sql_session *s, const char *name,
                            const floe_schema *schema, const floe_sql_stream_fns *fns,
                            void *payload);
struct floe_catalog;
/* A standalone row source (no session: the SQLite loadable extension) over
 * table `t` at main's head, snapshot `snapshot_id` or ref `ref`; it owns
 * `t` and `cat` (may be NULL), also on failure, and checks at each scan
 * whether the table moved (floe_table_ensure_fresh). */
int floe__sql_data_source_table(struct floe_rowsource **out, struct floe_table *t,
                                struct floe_catalog *cat, bool has_snapshot_id,
                                int64_t snapshot_id, const char *ref);
/* Display hint of a column of a data row source (see floe_sql_type_hint_fn);
 * FLOE_SQL_HINT_NONE - 1 when `rs` is not one. */
int floe__sql_data_hint(const struct floe_rowsource *rs, const char *column);
/* The Iceberg type of a column of a data row source (NULL: not one). */
const struct floe_type *floe__sql_data_type(const struct floe_rowsource *rs, const char *column);
/* EXPLAIN line of a data row source after it was opened (1: not one). */
int floe__sql_data_explain(const struct floe_rowsource *rs, const char *ident, floe_buf *out);
/* Read a data table's rows batch by batch (the fast aggregates of
 * exec_fast.c): plans the scan with the unbound expression `filter` (NULL:
 * none; borrowed, it must outlive the call) as its filter (pruning, and
 * the scan drops the rows not matching it while decoding), projected to
 * the visible columns `cols` (indices into rs->columns), and calls
 * fn(payload, arrays, length) for each batch, arrays[i] being the Arrow
 * array of cols[i] (arrays is NULL when ncols is 0: then the length may be
 * the whole count from the manifests). Delete files are applied by the
 * scan. 1: `rs` is not a data table, or a filter without a column (nothing
 * read); fn's negative return stops and is returned, its 1 stops and is
 * returned as 1. */
typedef int (*floe_sql_batch_fn)(void *payload, const struct ArrowArray *const *arrays,
                                 int64_t length);
int floe__sql_data_each_batch(struct floe_rowsource *rs, const struct floe_expr *filter,
                              const size_t *cols, size_t ncols, floe_sql_batch_fn fn,
                              void *payload);
/* The schema whose top-level fields are the columns of a data row source
 * (NULL: not one, or a stream source); borrowed from the source. */
const floe_schema *floe__sql_data_schema(const struct floe_rowsource *rs);
/* Does a statement's text name a metadata column (_file, _pos, _row_id,
 * _last_updated_sequence_number; whole identifiers)? */
bool floe__sql_text_wants_meta(const char *text);
/* exec_refs.c: forget a live virtual table's row source (when freed). */
void floe__sql_live_forget(floe_sql_session *s, const struct floe_rowsource *rs);

#endif
