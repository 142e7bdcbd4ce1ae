/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/producer: the one snapshot producer every write of src/table/ (and
 * of the layers above it) is built on — Java's SnapshotProducer, read, not
 * copied; spec "Snapshots", "Manifests", "Manifest Lists", "Sequence Number
 * Inheritance", "Row Lineage".
 *
 * An operation embeds one floe_producer (commit uuid, snapshot id, attempt
 * and manifest counters) and, in its prepare callback (table.h):
 *
 *   floe__producer_begin(p, base)           each attempt: attempt + 1, a new
 *                                           snapshot id if the base holds it
 *   floe__producer_read_list(p, parent, …)  the parent's manifest list
 *   floe__producer_manifest_open/add/close  new manifests
 *                                           <metadata>/<uuid>-m<N>.avro
 *   floe__producer_summary(c, &kv, …)       Java's SnapshotSummary
 *   floe__producer_commit(p, c, base, &s)   the manifest list
 *                                           <metadata>/snap-<id>-<attempt>-<uuid>.avro,
 *                                           add-snapshot, set-snapshot-ref
 *
 * A manifest closed with a change belongs to that attempt (deleted with
 * it when the attempt fails); one closed without belongs to the operation
 * (kept across retries, e.g. an append's new-files manifest, which every
 * attempt lists again). The retry loop itself is floe__table_commit's.
 */
#ifndef FLOE_TABLE_PRODUCER_H
#define FLOE_TABLE_PRODUCER_H

#include "manifest/manifest.h"
#include "table/table.h"

typedef struct floe_producer {
    floe_fileio *io;
    char commit_uuid[37];
    int64_t snapshot_id;
    int attempt;       /* counted by floe__producer_begin, from 1 */
    int next_manifest; /* N of the next <uuid>-m<N>.avro, from 0 */
} floe_producer;

/* A fresh commit uuid and snapshot id. */
int floe__producer_init(floe_producer *p, floe_fileio *io);
/* Start an attempt on `base`. */
int floe__producer_begin(floe_producer *p, const floe_table_metadata *base);

/* The manifest list of `s` (NULL *out for a snapshot without manifests),
 * decoded over `data` (the caller frees both). FLOE_EUNSUPPORTED for a v1
 * snapshot that inlines its manifests. */
int floe__producer_read_list(const floe_producer *p, const floe_snapshot *s, floe_buf *data,
                             floe_manifest_list **out);

/* A manifest being written. */
typedef struct floe_producer_manifest {
    floe_manifest_writer *w;
    floe_buf bytes, spec_json, schema_json;
    char *path; /* heap */
    int64_t snapshot_id;
} floe_producer_manifest;

/* A new manifest of `content` for partition spec `spec_id` of `m` with the
 * current schema (header JSON written here); partition field types live in
 * `arena`, which must outlive the writer. */
int floe__producer_manifest_open(floe_producer *p, const floe_table_metadata *m, int32_t spec_id,
                                 int32_t content, floe_arena *arena, floe_producer_manifest *mw);
/* The same with the header (schema, spec JSON, partition fields) of an
 * existing manifest `model` (rewrites keep what the entries were written
 * with). */
int floe__producer_manifest_open_like(floe_producer *p, const floe_table_metadata *m,
                                      const floe_manifest_info *model, int32_t spec_id,
                                      int32_t content, floe_arena *arena,
                                      floe_producer_manifest *mw);
/* A writer (bytes into `out`) of a manifest with the header of `model`
 * (format version, content, spec id, schema and spec JSON, partition
 * fields, whose types live in `arena`) at `path`, added by `snapshot_id`:
 * a rewrite that keeps every entry as it was written except what it
 * changes (rewrite_table_path). FLOE_EUNSUPPORTED for a header without a
 * schema or partition spec. */
int floe__manifest_writer_like(floe_manifest_writer **w, const floe_manifest_info *model,
                               int64_t snapshot_id, const char *path, floe_avro_codec codec,
                               floe_arena *arena, floe_buf *out);
/* Add `df` as ADDED by this snapshot (sequence numbers inherited). */
int floe__producer_manifest_add_new(floe_producer_manifest *mw, const floe_data_file *df);
/* Finish and write the manifest create-new; *out (in `arena`) is its list
 * entry. With `c` the file is the attempt's (c->written), else it is
 * added to `kept` (heap paths, see floe__paths_add). */
int floe__producer_manifest_close(floe_producer_manifest *mw, floe_fileio *io,
                                  floe_table_change *c, floe_vec *kept, floe_arena *arena,
                                  floe_manifest_file **out);
void floe__producer_manifest_free(floe_producer_manifest *mw);

/* Does a parent's manifest still list a live file (Java's shouldKeep:
 * added or existing files, unknown counts counting as some)? A new
 * snapshot drops the parent's manifests that hold only DELETED entries. */
bool floe__manifest_has_live(const floe_manifest_file *mf);

/* A manifest-list entry deep-copied into `a`. */
int floe__manifest_file_copy(floe_arena *a, floe_manifest_file *d, const floe_manifest_file *s);

/* ---------------------------------------------------------------- summary */

/* What a snapshot adds and removes (Java's SnapshotSummary.Builder). */
typedef struct floe_summary_counts {
    int64_t added_files, added_records, added_size;
    int64_t removed_files, removed_records, removed_size;
    int64_t pos_files, eq_files, pos_records, eq_records, delete_size;
    int64_t removed_pos_files, removed_eq_files, removed_pos_records, removed_eq_records,
        removed_delete_size;
    int64_t dvs, removed_dvs; /* deletion vectors (counted apart from pos_files) */
} floe_summary_counts;

/* Distinct partitions changed (changed-partition-count): "<spec>/<path>". */
typedef struct floe_partition_set {
    floe_strmap *seen;
    floe_vec keys; /* char* heap */
} floe_partition_set;

int floe__partition_set_init(floe_partition_set *s);
int floe__partition_set_add(floe_partition_set *s, const floe_table_metadata *m, int32_t spec_id,
                            const floe_partition_value *pv);
int64_t floe__partition_set_count(const floe_partition_set *s);
void floe__partition_set_free(floe_partition_set *s);

/* An integer summary value (*ok false when absent or not a number), and one
 * "key" = printf(...) entry added to `kv` (floe_kv in the change's arena). */
int64_t floe__summary_int(const floe_snapshot *s, const char *key, bool *ok);
int floe__summary_put(floe_table_change *c, floe_vec *kv, const char *k, const char *fmt, ...)
    FLOE_PRINTF(4, 5);

typedef struct floe_summary_options {
    const char *operation;      /* append, overwrite, delete, replace */
    const floe_props *extra;    /* custom properties (may be NULL) */
    bool replace_partitions;    /* replace-partitions=true */
    const char *wap_id;         /* wap.id of a staged snapshot (may be NULL) */
    int64_t changed_partitions; /* changed-partition-count */
} floe_summary_options;

/* Java's summary of `n` into `kv`: operation, extra, the added / removed
 * figures that are not zero, changed-partition-count, and the totals
 * carried from the parent's (0 without a parent; left out when the
 * parent's value is not a number). */
int floe__producer_summary(floe_table_change *c, floe_vec *kv, const floe_summary_options *o,
                           const floe_summary_counts *n, const floe_snapshot *parent);

/* ---------------------------------------------------------------- the snapshot */

typedef struct floe_producer_snapshot {
    const floe_snapshot *parent;     /* NULL: the first snapshot of the branch */
    const floe_vec *manifests;       /* const floe_manifest_file *, list order */
    const floe_vec *summary;         /* floe_kv */
    const char *branch;              /* the branch the snapshot is for */
    const floe_snapshot_ref *head;   /* its ref in the base (NULL: new branch) */
    bool stage;                      /* add the snapshot, leave the branch */
} floe_producer_snapshot;

/* The manifest-list writer options of a snapshot (v3: `first_row_id`,
 * the snapshot's first-row-id; manifests without one get theirs from it). */
void floe__manifest_list_options(floe_manifest_list_writer_options *lo, int format_version,
                                 int64_t snapshot_id, bool has_parent, int64_t parent_id,
                                 int64_t sequence_number, int64_t first_row_id,
                                 floe_avro_codec codec);

/* Write the manifest list (c->written), push add-snapshot (sequence number
 * last + 1 from v2; timestamp never before the base's last update; current
 * schema; v3: first-row-id = next-row-id, first_row_id handed to the data
 * manifests without one, added-rows = the row ids they took) and assert-ref-snapshot-id plus,
 * unless staged, set-snapshot-ref for the branch (head's retention kept). */
int floe__producer_commit(floe_producer *p, floe_table_change *c, const floe_table_metadata *base,
                          const floe_producer_snapshot *s);

#endif
