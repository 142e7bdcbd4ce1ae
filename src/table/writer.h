/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/writer: the data writer behind floe_append_write — Arrow batches in
 * the table schema's layout -> partitioned Parquet files (one open file per
 * partition, rolled at write.target-file-size-bytes), each closed file
 * becoming a data file (metrics included) of the append.
 */
#ifndef FLOE_TABLE_WRITER_H
#define FLOE_TABLE_WRITER_H

#include "manifest/manifest.h"
#include "table/table.h"

typedef struct floe_data_writer floe_data_writer;

int floe__data_writer_new(floe_data_writer **out, floe_append *a);
int floe__data_writer_write(floe_data_writer *w, const struct ArrowArray *batch);
/* Close every open file and hand the data files to the append. */
int floe__data_writer_close(floe_data_writer *w);
/* Abort open files (nothing of them stays) and free. */
void floe__data_writer_free(floe_data_writer *w);

/* Append internals the writer uses. */
floe_table *floe__append_table(const floe_append *a);
int floe__append_add_file(floe_append *a, const floe_data_file *df);
/* Remember a file the append wrote (deleted if the append fails). */
int floe__append_own_file(floe_append *a, const char *path);
/* Cherry-pick support: commit to `target` (NULL: the handle's branch),
 * never staged when `no_stage`, files of partition spec `spec_id`, and run
 * `validate` on every base before an attempt (a negative return ends the
 * commit). */
void floe__append_configure(floe_append *a, const char *target, bool no_stage, int32_t spec_id,
                            int (*validate)(const floe_table_metadata *base, void *payload),
                            void *payload);
int64_t floe__append_snapshot_id(const floe_append *a);
/* Roll data files at `bytes` instead of write.target-file-size-bytes
 * (rewrite_data_files' target-file-size-bytes); 0: the property. */
void floe__append_set_target_size(floe_append *a, int64_t bytes);
int64_t floe__append_target_size(const floe_append *a);
/* Write rows in `order` instead of the table's write order (NULL:
 * unsorted; rewrite_data_files' sort and z-order strategies); the order is
 * borrowed. floe__append_sort_order: true when one was set. */
void floe__append_set_sort_order(floe_append *a, const floe_sort_order *order);
bool floe__append_sort_order(const floe_append *a, const floe_sort_order **order);
/* The data files written get sort_order_id `id` (Java's
 * output-sort-order-id); floe__append_sort_order_id: true when set. */
void floe__append_set_sort_order_id(floe_append *a, int32_t id);
bool floe__append_sort_order_id(const floe_append *a, int32_t *id);
/* Row-level operations use an append as their data writer: close the open
 * files and give the data files written (borrowed from the append); keep
 * them (the append will not delete them when freed). */
int floe__append_files(floe_append *a, const floe_data_file **files, size_t *n);
void floe__append_keep(floe_append *a);

/* The column metrics maps of `df` (column_sizes, value/null/nan counts,
 * lower/upper bounds) from Parquet metrics; arrays in `a`, bound bytes
 * borrowed from `m`. */
struct floe_pq_metrics;
int floe__data_file_set_metrics(floe_arena *a, const struct floe_pq_metrics *m,
                                floe_data_file *df);

/* ---------------------------------------------------------------- row lineage
 * v3 (spec "Row Lineage"): a row copied into a new data file keeps its
 * _row_id and _last_updated_sequence_number by writing them as the reserved
 * columns; null means "inherit" (first_row_id + position, the file's data
 * sequence number). Copy-on-write rewrites, UPDATE/MERGE's new versions of
 * rows and compaction write through an append with lineage. */
#define FLOE_ROW_ID_FIELD_ID 2147483540
#define FLOE_LAST_UPDATED_SEQ_FIELD_ID 2147483539

/* Batches written through `a` carry, after the table schema's columns,
 * _row_id and _last_updated_sequence_number (longs, null = inherit), and
 * every data file gets those columns; a batch of the schema's columns only
 * is written with both null. Call before the first write. */
void floe__append_set_lineage(floe_append *a);
bool floe__append_lineage(const floe_append *a);
/* `root` followed by the two lineage fields (optional longs, the reserved
 * ids): the layout of lineage batches, and the projection to read a data
 * file with its stored lineage (null where the file lacks it). In `a`. */
int floe__lineage_root(floe_arena *a, const floe_type *root, const floe_type **out);
/* The primitive of every lineage-keeping rewrite: append the lineage of row
 * `row` of `src` (read with floe__lineage_root's layout; its columns nf and
 * nf + 1) to the children nf and nf + 1 of `dst`, with the values `f`
 * (the data file it was read from; `pos` the row's position in it) lets
 * readers inherit made explicit, since the new file inherits other ones. */
struct floe_scan_file;
struct floe_arrow_builder;
int floe__lineage_copy(struct floe_arrow_builder *dst, const struct ArrowArray *src, size_t nf,
                       int64_t row, int64_t pos, const struct floe_scan_file *f);

/* Deep copy of a data file into `arena`. */
int floe__data_file_copy(floe_arena *arena, floe_data_file *d, const floe_data_file *s);


#endif
