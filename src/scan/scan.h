/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan: planning and reading an Iceberg table snapshot (spec "Scan
 * Planning", "Delete Formats", "Position Delete Files", "Equality Delete
 * Files", "Sequence Numbers", "Schema Evolution", "Column Projection",
 * "Default values"). Private to libfloe; the public face is
 * include/floe/scan.h.
 *
 * Input is always a parsed floe_table_metadata, a FileIO and a resolved
 * snapshot: the table handle (src/table) owns snapshot selection.
 *
 *   plan.c     manifest list -> manifests (in parallel) -> pruned data files
 *   deletes.c  pairing delete files with data files; loading their contents
 *   read.c     scan tasks -> ArrowArrayStream (projection, evolution, deletes,
 *              residual filtering)
 *   filter.c   the textual filter form ("a > 5 AND b IS NULL")
 *   api.c      include/floe/scan.h
 */
#ifndef FLOE_SCAN_H_PRIVATE
#define FLOE_SCAN_H_PRIVATE

#include "floe/scan.h"
#include "floe/arrow.h"
#include "spec/metadata.h"

struct floe_expr;

/* What only delete files carry (spec "Delete Formats", "Deletion
 * Vectors"), kept beside the per-file record: a plan holds one record per
 * data file, and these five fields were a third of it. */
typedef struct floe_scan_delete_info {
    size_t nequality_ids;
    const int32_t *equality_ids;
    const char *referenced_data_file; /* NULL when null */
    bool has_content_offset;
    int64_t content_offset;
    int64_t content_size_in_bytes; /* -1 when null */
} floe_scan_delete_info;

/* One data or delete file of the plan. Strings and values live in the
 * plan's arenas (one per manifest). */
typedef struct floe_scan_file {
    const char *path;
    const char *format; /* "PARQUET", "PUFFIN", ... as written */
    int32_t spec_id;
    int8_t content;        /* FLOE_FILE_* (manifest.h) */
    bool has_first_row_id; /* v3 row lineage (inherited from the manifest) */
    int64_t record_count;
    int64_t file_size_in_bytes;
    int64_t data_sequence_number;
    int64_t first_row_id;
    floe_partition_value partition; /* spec order */
    /* delete files (and a data file that carries any of these in its
     * manifest entry); NULL: all null. Read through floe__scan_delete_info. */
    const floe_scan_delete_info *del;
} floe_scan_file;

/* f's delete-only fields: f->del, else all null (content size -1). */
static inline const floe_scan_delete_info *floe__scan_delete_info(const floe_scan_file *f)
{
    static const floe_scan_delete_info none = {0, NULL, NULL, false, 0, -1};
    return f->del ? f->del : &none;
}

typedef struct floe_scan_task {
    const floe_scan_file *file;
    size_t ndeletes;
    const floe_scan_file *const *deletes;
    const struct floe_expr *residual; /* bound; floe_expr_true() when none */
} floe_scan_task;

typedef struct floe_scan_plan_options {
    /* Unbound filter (names), or NULL for every row. */
    const struct floe_expr *filter;
    bool case_sensitive;
    /* false: evaluate nothing against partitions or metrics (every live file
     * is planned; residual = the whole filter). For tests and comparisons. */
    bool no_pruning;
    int threads; /* manifests read in parallel; 0: online CPUs, 1: inline */
    floe_progress_fn progress; /* manifests read / to read; NULL: none */
    void *progress_payload;
} floe_scan_plan_options;

typedef struct floe_scan_plan {
    floe_arena *arena;
    const floe_table_metadata *meta;
    const floe_snapshot *snapshot; /* NULL: table without snapshots (empty plan) */
    const floe_schema *schema;     /* schema the filter is bound to and rows are read with */
    const struct floe_expr *filter; /* bound (floe_expr_true() when none) */
    size_t ntasks;
    floe_scan_task *tasks;
    floe_scan_report report;
    /* internals: one arena per manifest read */
    size_t narenas;
    floe_arena **arenas;
} floe_scan_plan;

/* The scan options `opts` stands for (*defaults, FLOE_SCAN_OPTIONS_INIT, when
 * NULL); FLOE_EINVALID for a version this library does not know. */
int floe__scan_options_get(const floe_scan_options *opts, floe_scan_options *defaults,
                           const floe_scan_options **out);
/* The snapshot the options name (id, else ref, else as-of time, else the
 * current one); true when one is pinned (read with its own schema). */
bool floe__scan_options_selector(const floe_scan_options *o, floe_snapshot_selector *sel);
/* A scan of `snap` (NULL: an empty table) of `meta` through `io`, both
 * borrowed: they must outlive the scan. `pinned`: a snapshot chosen by id,
 * ref or time, read with its own schema (else the current schema). The
 * options' snapshot selection is not looked at (the caller made it). */
int floe__scan_open_snapshot(floe_scan **out, floe_fileio *io, floe_table_metadata *meta,
                             const floe_snapshot *snap, bool pinned, const floe_scan_options *o);

/* The same scan with its tasks taken from server-side planning responses
 * (floe__scan_plan_from_responses) instead of planned here. */
int floe__scan_open_remote(floe_scan **out, floe_fileio *io, floe_table_metadata *meta,
                           const floe_snapshot *snap, bool pinned, const floe_scan_options *o,
                           const char *const *bodies, const size_t *lens, size_t n);
/* The plan of a scan (owned by the scan). */
const floe_scan_plan *floe__scan_get_plan(const floe_scan *s);

/* Plan a scan of `snapshot` (NULL: the empty table) with rows read as
 * `schema` (NULL: the table's current schema). `io` is borrowed only for
 * the call. Errors: FLOE_EINVALID (filter does not bind, unknown spec id),
 * FLOE_ECORRUPT (manifest bytes), FLOE_EUNSUPPORTED (delete files in
 * other formats), FLOE_ENOTFOUND / FLOE_EIO (FileIO), FLOE_ENOMEM. */
int floe__scan_plan(floe_scan_plan **out, const floe_table_metadata *meta, floe_fileio *io,
                    const floe_snapshot *snapshot, const floe_schema *schema,
                    const floe_scan_plan_options *opts);
void floe__scan_plan_free(floe_scan_plan *p);

/* Do two partition tuples hold the same values (type, nullness and bits;
 * pointer-equal tuples trivially)? Planning shares one tuple between
 * neighbouring files of a manifest when this holds (plan.c). */
bool floe__scan_same_partition(const floe_partition_value *a, const floe_partition_value *b);

/* Pair delete files with the data files (deletes.c): fills task->deletes.
 * `deletes` are the live delete files of the snapshot. */
int floe__scan_assign_deletes(floe_scan_plan *p, const floe_scan_file *const *deletes,
                              size_t ndeletes);

/* Read the whole contents of an object through FileIO (heap buffer). */
int floe__scan_read_object(floe_fileio *io, const char *uri, uint8_t **data, size_t *len);

/* Rows of a plan as an ArrowArrayStream of struct batches whose children
 * are the `columns` (top-level field names of plan->schema; NULL: every
 * column). Up to `threads` tasks (0: online CPUs, 1: the calling thread)
 * are decoded in parallel; batches of different tasks then interleave.
 * The stream borrows `plan`, `io` and the metadata: keep them alive until
 * it is released. */
int floe__scan_stream(const floe_scan_plan *plan, floe_fileio *io, const char *const *columns,
                      size_t ncolumns, int threads, struct ArrowArrayStream *out);
/* After get_next of a floe scan stream failed: raise that failure again
 * under `subsystem` with its FLOE_E* code and message (Arrow consumers see
 * only an errno and "<FLOE_E* name>: <message>") and return the code; 0
 * when `st` is not a floe scan stream or has not failed. */
int floe__scan_stream_error(struct ArrowArrayStream *st, const char *subsystem);

/* Position deletes of one data file: sorted, distinct row positions. */
typedef struct floe_scan_posdel {
    size_t n;
    int64_t *pos;
} floe_scan_posdel;

/* Equality-delete keys (a hash set of encoded value tuples) of one file
 * or of several sharing the same equality ids. */
typedef struct floe_scan_eqset floe_scan_eqset;

/* Positions deleted in data file `data` by the position delete files and
 * deletion vectors among `deletes`. */
int floe__scan_load_posdeletes(floe_fileio *io, const floe_scan_file *data,
                               const floe_scan_file *const *deletes, size_t n,
                               floe_scan_posdel *out);

/* Append the positions (< limit) of one deletion-vector blob (`n` bytes
 * read at file offset `base` of `file`) to `out` (a floe_vec of int64_t).
 * FLOE_ECORRUPT naming the file and offset for a bad length, magic, CRC or
 * Roaring structure. */
int floe__scan_dv_decode(const uint8_t *blob, size_t n, const char *file, int64_t base,
                         uint64_t limit, floe_vec *out);
/* One equality set per distinct equality-id list among `deletes` (equality
 * files only), written to *out (a heap array, *nout entries). */
int floe__scan_load_eqdeletes(floe_fileio *io, const floe_schema *schema,
                              const floe_scan_file *const *deletes, size_t n,
                              floe_scan_eqset ***out, size_t *nout);
void floe__scan_eqset_free(floe_scan_eqset *s);
size_t floe__scan_eqset_nids(const floe_scan_eqset *s);
const int32_t *floe__scan_eqset_ids(const floe_scan_eqset *s);
/* Is the key (values of the set's equality ids, in order) deleted? */
bool floe__scan_eqset_has(const floe_scan_eqset *s, const floe_value *vals);

/* Encode a tuple of values as a byte key (null-safe, type-tagged). */
int floe__scan_key(floe_buf *out, const floe_value *vals, size_t n);


/* Append slot i of Arrow array `a` (Iceberg type t, primitive or nested) to
 * builder b (whose type is t). */
struct floe_arrow_builder;
int floe__scan_copy_slot(struct floe_arrow_builder *b, const struct ArrowArray *a,
                         const floe_type *t, int64_t i);

/* The residual filter on a decoded batch (vfilter.c): keep[i] stays 1 only
 * where it was 1 and row i of `batch` (a struct array of `root`'s fields,
 * n rows) matches the bound expression `res` -- the answers of
 * floe_expr_eval with floe__arrow_row_value, a column at a time. */
int floe__scan_filter_rows(uint8_t *keep, const struct floe_expr *res, const floe_type *root,
                           const struct ArrowArray *batch, int64_t n);
/* The indices i < n where keep[i] != 0, ascending, into idx (room for n);
 * returns how many. */
int64_t floe__scan_kept_rows(const uint8_t *keep, int64_t n, int64_t *idx);
/* Rows idx[0..kept) (ascending) of column `in` (Iceberg type t) as a new
 * array `out`. */
int floe__scan_take(struct ArrowArray *out, const struct ArrowArray *in, const floe_type *t,
                    const int64_t *idx, int64_t kept);
/* The same inside `a`'s own buffers (the caller owns `a` and nothing else
 * shares them): rows idx[0..kept) (ascending) move to 0..kept, a->length
 * and a->null_count follow. 1 (a unchanged) when `a` cannot be compacted in
 * place (nested types, a non-zero offset): use floe__scan_take;
 * FLOE_EINVALID for bad offsets. */
int floe__scan_compact(struct ArrowArray *a, const floe_type *t, const int64_t *idx,
                       int64_t kept);

/* Parse the textual filter form into an unbound expression in `a`.
 * `schema` (may be NULL) only steers literal typing (fractions on decimal
 * columns stay exact). FLOE_EINVALID naming the offset on a syntax error. */
int floe__scan_filter_parse(const struct floe_expr **out, floe_arena *a, const char *text,
                            const floe_schema *schema);

/* ---------------------------------------------------------------- remote.c */

/* Tasks [first, first + count) of `p` in the REST wire form (open-api
 * ScanTasks): `"delete-files":[...],` (when any task has deletes) then
 * `"file-scan-tasks":[...]`, appended to `out` without the enclosing braces.
 * Residuals are written as REST expression JSON. */
int floe__scan_tasks_to_json(const floe_scan_plan *p, size_t first, size_t count, floe_buf *out);

/* A plan from the ScanTasks of `n` REST responses (bodies[i], lens[i] bytes:
 * a completed PlanTableScanResponse / FetchPlanningResultResponse and the
 * FetchScanTasksResponse of each plan task), read with `schema` (NULL: the
 * current one) for `snapshot` of `meta` (both borrowed). `filter`
 * (unbound, may be NULL) is bound for tasks without a residual-filter.
 * FLOE_EINVALID "invalid scan planning response: ..." for malformed task
 * JSON (unknown spec id, partition arity, delete reference out of range),
 * FLOE_ECORRUPT for text that is not JSON, FLOE_ENOMEM. */
int floe__scan_plan_from_responses(floe_scan_plan **out, const floe_table_metadata *meta,
                                   const floe_snapshot *snapshot, const floe_schema *schema,
                                   const struct floe_expr *filter, bool case_sensitive,
                                   const char *const *bodies, const size_t *lens, size_t n);

#endif
