/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/rowdelta: private side of the row-level operations of
 * include/floe/table.h (floe_rowlevel_*): the operation's state, shared by
 * rowdelta.c (API, manifests, snapshot, summary, conflict validation) and
 * delete_files.c (finding the affected rows, copy-on-write rewrites,
 * position and equality delete files). Spec "Row-level Deletes",
 * "Position Delete Files", "Equality Delete Files".
 */
#ifndef FLOE_TABLE_ROWDELTA_H
#define FLOE_TABLE_ROWDELTA_H

#include "expr/expr.h"
#include "manifest/manifest.h"
#include "table/producer.h"
#include "table/table.h"
#include "table/writer.h"

/* The position delete file schema (spec "Position Delete Files"):
 * file_path (2147483546) and pos (2147483545). */
#define FLOE_POS_DELETE_SCHEMA_JSON                                                                \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":2147483546,\"name\":\"file_path\",\"required\":true,\"type\":\"string\"},"            \
    "{\"id\":2147483545,\"name\":\"pos\",\"required\":true,\"type\":\"long\"}]}"

/* Positions given for one data file by floe_rowlevel_delete_positions. */
typedef struct floe_rl_positions {
    char *path;   /* arena */
    floe_vec pos; /* int64_t */
} floe_rl_positions;

/* A data file of the base snapshot whose rows the operation changes. */
typedef struct floe_rl_touched {
    const char *path; /* arena */
    int32_t content;  /* FLOE_FILE_*: a REWRITE also removes dangling delete files */
    int32_t spec_id;
    floe_partition_value partition; /* arena copy */
    int64_t record_count;
    int64_t file_size_in_bytes;
    int64_t rows_deleted; /* live rows removed */
    bool removed;         /* copy-on-write: the file leaves the table */
    bool is_dv;           /* a deletion vector: one blob of `path` at content_offset */
    int64_t content_offset;
} floe_rl_touched;

/* v3 merge-on-read: the new DV of one touched data file (spec "Deletion
 * Vectors": at most one per data file in a snapshot, so it holds the
 * positions of the deletes it replaces too). */
typedef struct floe_rl_dv {
    const char *path; /* the data file's (op arena) */
    int32_t spec_id;
    floe_partition_value partition;
    int64_t record_count; /* the data file's */
    int64_t *pos; /* heap, sorted, distinct: this operation's and the base's */
    size_t n;
    int64_t *mpos; /* heap: pos merged with a concurrent DV (retry), or NULL */
    size_t mn;
    const char *merged_key; /* op arena: "<puffin>#<offset>" of the DV merged */
    size_t df_index;        /* its entry in delete_files (SIZE_MAX: not written) */
    size_t removal;         /* touched entry of the DV it replaces (SIZE_MAX: none) */
} floe_rl_dv;

struct floe_rowlevel {
    floe_table *t;
    floe_rowlevel_kind kind;
    floe_rowlevel_mode mode;
    floe_isolation isolation;
    floe_arena *arena;
    const char *branch; /* arena */
    bool has_base;
    int64_t base_id;
    const floe_expr *filter; /* unbound OR of the delete_where filters; NULL: none */
    bool delete_all;         /* delete_where(NULL): every row */
    bool conflict_all;       /* serializable: any concurrent data file conflicts */
    floe_vec positions;      /* floe_rl_positions */
    floe_append *writer;     /* new and rewritten rows (its files, kept on success) */
    bool wrote_rows;         /* floe_rowlevel_write was called */
    floe_vec touched;        /* floe_rl_touched */
    floe_vec delete_files;   /* floe_data_file (arena copies): added delete files */
    floe_vec delete_specs;   /* int32_t: partition spec id of each delete file */
    floe_vec own_files;      /* char* heap: delete files written */
    floe_vec dvs;            /* floe_rl_dv: v3 merge-on-read */
    const char *dv_puffin;   /* the Puffin file of dvs written last (own_files has it) */
    int64_t dv_puffin_bytes; /* its size (in stats.bytes_written) */
    floe_props extra;
    floe_producer prod; /* commit uuid, snapshot id, attempts, manifests */
    int next_file;      /* N of the delete files' names */
    const floe_data_file *new_files; /* at commit: the added data files (writer's) */
    size_t nnew_files;
    bool resolved; /* rows found, files written */
    bool done;
    floe_rowlevel_stats stats;
    /* per attempt: the parent's manifests that hold removed files, found
     * while rewriting; lives in the change arena */
};

/* floe_rowlevel_delete_where with an unbound expression (names, not ids)
 * built by an in-tree caller such as the SQL front end; copied into the
 * operation (`e` may be freed afterwards). NULL = every row. */
int floe__rowlevel_delete_where_expr(floe_rowlevel *op, const floe_expr *e);

/* For callers that name rows by position (floe_rowlevel_delete_positions)
 * after evaluating a condition the filter grammar cannot express (SQL
 * subqueries, MERGE joins): under serializable isolation every data file
 * added concurrently conflicts, as Java's conflict-detection filter
 * `true` ("Found conflicting files that can contain records matching
 * true: [...]"). Snapshot isolation is unaffected. */
void floe__rowlevel_conflict_all(floe_rowlevel *op);

/* FLOE_ROWLEVEL_REWRITE: the data file (or, for dangling deletes, the
 * delete file) `f` of the operation's base snapshot leaves the table (copied into the operation; `f` may be freed after). */
struct floe_scan_file;
int floe__rowlevel_remove_file(floe_rowlevel *op, const struct floe_scan_file *f);

/* The key of a delete or data file in a snapshot: its path, and for a
 * deletion vector (one blob of a Puffin file that may hold others) its
 * content offset too ("<path>#<offset>", in `b`). NULL: out of memory. */
const char *floe__rowlevel_file_key(floe_buf *b, const char *path, bool dv, int64_t offset);
/* Is the delete file a deletion vector (a PUFFIN position delete with a
 * content offset)? */
bool floe__data_file_is_dv(const floe_data_file *d);
bool floe__scan_file_is_dv(const struct floe_scan_file *f);

/* *dst = a copy of `src` in the operation's arena. */
int floe__rl_copy_partition(floe_rowlevel *op, floe_partition_value *dst,
                            const floe_partition_value *src);

/* The operation's data writer (created on first use), e.g. to set its
 * target file size. On a v3 table it keeps row lineage
 * (floe__append_set_lineage): floe_rowlevel_write then takes batches of
 * the schema's columns followed by _row_id and
 * _last_updated_sequence_number, or of the schema's columns only. */
int floe__rowlevel_writer(floe_rowlevel *op, floe_append **out);
int floe__rl_open_writer(floe_rowlevel *op);
/* Does the operation keep row lineage (a v3 table)? */
bool floe__rowlevel_lineage(const floe_rowlevel *op);

/* delete_files.c: write `batch` (rows of `schema`) as a new Parquet delete
 * file at `path` with the table's Parquet properties (position deletes:
 * full file_path bounds); *m gets the metrics (floe__pq_metrics_free). */
struct floe_pq_metrics;
int floe__write_delete_parquet(floe_fileio *io, const char *path, const floe_schema *schema,
                               const struct ArrowArray *batch, const floe_props *table_props,
                               bool position, struct floe_pq_metrics *m);

/* delete_files.c: read the base snapshot, find the rows to remove, write
 * copy-on-write rewrites into op->writer or position delete files; fill
 * op->touched. */
int floe__rl_resolve(floe_rowlevel *op);
/* (Re)write one Puffin file of op->dvs (each DV's merged positions when
 * set); first call: adds their delete files; later (a retry that merged a
 * concurrent DV): updates those entries and removes the superseded file. */
int floe__rl_write_dvs(floe_rowlevel *op);
/* *out (heap) = the union of two sorted, distinct position lists. */
int floe__rl_pos_union(const int64_t *a, size_t na, const int64_t *b, size_t nb, int64_t **out,
                       size_t *n);
/* Write one equality delete file (unpartitioned spec). */
int floe__rl_write_eq_deletes(floe_rowlevel *op, const int32_t *ids, size_t nids,
                              const struct ArrowArray *batch);
/* Add a delete file of spec `spec_id` (deep-copied into the op's arena). */
int floe__rl_add_delete_file(floe_rowlevel *op, const floe_data_file *df, int32_t spec_id);
/* The DV of data file `data` over `pos` (sorted, distinct, heap: the
 * operation takes it over, also on failure), written with the others by
 * floe__rl_write_dvs (rewrite_position_delete_files on v3). */
int floe__rowlevel_add_dv(floe_rowlevel *op, const struct floe_scan_file *data, int64_t *pos,
                          size_t n);
/* Write one position delete file of the pairs (paths[i], pos[i]) of spec
 * `spec_id` / `partition` (sorted here) and add it to the operation
 * (rewrite_position_delete_files). */
int floe__rowlevel_write_position_deletes(floe_rowlevel *op, int32_t spec_id,
                                          const floe_partition_value *partition,
                                          const char *const *paths, const int64_t *pos, size_t n);

#endif
