/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/metadata: the TableMetadata file (spec "Table Metadata", "Table
 * Metadata Fields", "Snapshots", "Snapshot References", "Table Statistics",
 * "Partition Statistics", "Appendix C: JSON serialization") as an immutable
 * struct owning one arena, plus JSON read (format v1, v2 and the v3 fields
 * the fixtures use; plain or gzip) and write.
 *
 * Optional numbers use an explicit `has_*` flag rather than a sentinel so
 * that every 64-bit value, negative ones included, round-trips exactly.
 */
#ifndef FLOE_SPEC_METADATA_H
#define FLOE_SPEC_METADATA_H

#include "spec/types.h"
#include "util/json_writer.h"

/* Highest table format version floe reads. */
#define FLOE_MAX_FORMAT_VERSION 3
/* Upper bound for decompressed metadata (a hostile gzip cannot exhaust memory). */
#define FLOE_MAX_METADATA_BYTES ((size_t)1 << 30)

/* One snapshot. The table of a busy writer holds 100,000 of these, so the
 * layout is lean (~100 bytes plus two packed byte strings): the summary and
 * the manifest-list path are stored packed and read through the accessors
 * below (floe__snapshot_summary, floe__summary_next,
 * floe__snapshot_manifest_list); build them for an add-snapshot with
 * floe__snapshot_pack_summary / floe__snapshot_pack_manifest_list. */
typedef struct floe_snapshot {
    int64_t snapshot_id;
    int64_t parent_snapshot_id; /* valid when has_parent */
    int64_t sequence_number;    /* 0 for v1 snapshots */
    int64_t timestamp_ms;
    int64_t first_row_id;       /* v3 row lineage, valid when has_first_row_id */
    int64_t added_rows;         /* valid when has_added_rows */
    const uint8_t *manifest_list_packed; /* NULL for v1 snapshots listing `manifests` */
    const char *const *manifests;        /* v1 `manifests` */
    const char *operation;               /* summary["operation"]; NULL if no summary (v1) */
    const uint8_t *summary_packed;       /* summary in file order, "operation" included */
    const char *key_id;                  /* v3 encryption key id, NULL if none */
    uint32_t n_manifests;
    uint32_t n_summary;
    int32_t schema_id;
    bool has_parent;
    bool has_schema_id;
    bool has_first_row_id;
    bool has_added_rows;
} floe_snapshot;

/* Summary value of `key`, NULL if absent (pointer valid as long as the snapshot). */
const char *floe__snapshot_summary(const floe_snapshot *s, const char *key);
/* Iterate a summary in file order:
 *   const uint8_t *it = s->summary_packed; const char *k, *v;
 *   while (floe__summary_next(&it, &k, &v)) ...
 * (false at the end or for a NULL summary). */
bool floe__summary_next(const uint8_t **it, const char **key, const char **value);
/* Pack `kv` into `a` and set summary_packed, n_summary and operation. */
int floe__snapshot_pack_summary(floe_snapshot *s, floe_arena *a, const floe_kv *kv, size_t n);
/* Pack a manifest-list path (NULL clears it) into `a`. */
int floe__snapshot_pack_manifest_list(floe_snapshot *s, floe_arena *a, const char *path);
/* The manifest-list path, written into `buf` (cleared first); *out is
 * buf->ptr, or NULL for a v1 snapshot without one. FLOE_ENOMEM. */
int floe__snapshot_manifest_list(const floe_snapshot *s, floe_buf *buf, const char **out);
/* Append the manifest-list path as a JSON string (with quotes). */
int floe__snapshot_manifest_list_json(const floe_snapshot *s, floe_buf *out);

typedef enum floe_ref_type { FLOE_REF_BRANCH = 0, FLOE_REF_TAG = 1 } floe_ref_type;

typedef struct floe_snapshot_ref {
    const char *name;
    int64_t snapshot_id;
    floe_ref_type type;
    bool has_min_snapshots_to_keep; /* branches only */
    int32_t min_snapshots_to_keep;
    bool has_max_snapshot_age_ms;   /* branches only */
    int64_t max_snapshot_age_ms;
    bool has_max_ref_age_ms;
    int64_t max_ref_age_ms;
} floe_snapshot_ref;

typedef struct floe_snapshot_log_entry {
    int64_t timestamp_ms;
    int64_t snapshot_id;
} floe_snapshot_log_entry;

typedef struct floe_metadata_log_entry {
    int64_t timestamp_ms;
    const char *metadata_file;
} floe_metadata_log_entry;

typedef struct floe_blob_metadata {
    const char *type;
    int64_t snapshot_id;
    int64_t sequence_number;
    size_t nfields;
    const int32_t *fields;
    size_t nproperties;
    const floe_kv *properties;
} floe_blob_metadata;

typedef struct floe_statistics_file {
    int64_t snapshot_id;
    const char *statistics_path;
    int64_t file_size_in_bytes;
    int64_t file_footer_size_in_bytes;
    const char *key_metadata; /* base64 text as stored, NULL if none */
    size_t nblobs;
    const floe_blob_metadata *blob_metadata;
} floe_statistics_file;

typedef struct floe_partition_statistics_file {
    int64_t snapshot_id;
    const char *statistics_path;
    int64_t file_size_in_bytes;
} floe_partition_statistics_file;

typedef struct floe_table_metadata {
    floe_arena *arena; /* owns everything below except the heap maps/props */
    int format_version;
    const char *table_uuid; /* may be NULL in v1 */
    const char *location;
    int64_t last_sequence_number;
    int64_t last_updated_ms;
    int32_t last_column_id;
    size_t nschemas;
    floe_schema **schemas;
    int32_t current_schema_id;
    size_t nspecs;
    floe_partition_spec **specs;
    int32_t default_spec_id;
    int32_t last_partition_id;
    floe_props properties; /* file order */
    bool has_current_snapshot;
    int64_t current_snapshot_id;
    size_t nsnapshots;
    floe_snapshot *snapshots; /* file order; heap array (floe__realloc), not in the arena */
    size_t n_snapshot_log;
    floe_snapshot_log_entry *snapshot_log;
    size_t n_metadata_log;
    floe_metadata_log_entry *metadata_log;
    size_t nsort_orders;
    floe_sort_order **sort_orders;
    int32_t default_sort_order_id;
    size_t nrefs;
    floe_snapshot_ref *refs; /* file order; `main` synthesized for legacy files */
    size_t nstatistics;
    floe_statistics_file *statistics;
    size_t npartition_statistics;
    floe_partition_statistics_file *partition_statistics;
    bool has_next_row_id; /* v3 */
    int64_t next_row_id;
    uint32_t *snapshot_order;    /* heap: indexes of `snapshots` sorted by id (lookup) */
    floe_strmap *ref_by_name;    /* name -> floe_snapshot_ref* */
} floe_table_metadata;

/* Parse metadata JSON (gzip detected by its magic bytes). `what` names the
 * source in messages (a path). Errors: FLOE_ECORRUPT (malformed JSON,
 * truncated or bad gzip), FLOE_EINVALID (missing/ill-typed field, dangling
 * ids, duplicates; the message names the field), FLOE_EUNSUPPORTED (format
 * version above FLOE_MAX_FORMAT_VERSION), FLOE_ENOMEM. On success *out is
 * the caller's, freed with floe__metadata_free. */
int floe__metadata_parse(floe_table_metadata **out, const void *data, size_t len,
                         const char *what);
/* Read a local file and parse it (FLOE_EIO / FLOE_ENOTFOUND on open/read).
 * The file is streamed (one read chunk and one snapshot in memory at a
 * time); files with errors are read again whole and parsed by
 * floe__metadata_parse, so results and messages are the same either way. */
int floe__metadata_read_file(floe_table_metadata **out, const char *path);
/* The same from a FileIO object (S3, local, ...), read in 64 KiB ranges;
 * read_at errors are returned as they are. FLOE_EINVALID above
 * FLOE_MAX_METADATA_BYTES. The input stays the caller's. */
struct floe_input;
int floe__metadata_read_input(floe_table_metadata **out, struct floe_input *in);
/* How many reads fell back to the whole-text path (tests). */
unsigned long floe__metadata_stream_fallbacks(void);
void floe__metadata_free(floe_table_metadata *m);

/* True when `location` names a table metadata file: a `metadata/` directory
 * holding `<anything>.metadata.json` (the spec's file naming, including the
 * `.gz.metadata.json` of compressed metadata). What create and the orphan
 * sweep look for to find another table living at a location. */
bool floe__metadata_file_location(const char *location);

/* Append the metadata as JSON with the spec's field names (compact; ids as
 * JSON integers). Format v1 tables also get the legacy `schema` and
 * `partition-spec` fields, as Java writes them. */
int floe__metadata_write(const floe_table_metadata *m, floe_buf *out);

/* Rebuild the id index of m->snapshots (after adding/removing snapshots):
 * FLOE_EINVALID on a duplicate id, FLOE_ENOMEM. */
int floe__metadata_index_snapshots(floe_table_metadata *m);

/* Lookups (NULL when absent; snapshots by binary search over the index). */
const floe_snapshot *floe__metadata_snapshot(const floe_table_metadata *m, int64_t snapshot_id);
const floe_snapshot *floe__metadata_current_snapshot(const floe_table_metadata *m);
const floe_snapshot_ref *floe__metadata_ref(const floe_table_metadata *m, const char *name);
const floe_schema *floe__metadata_schema(const floe_table_metadata *m, int32_t schema_id);
const floe_schema *floe__metadata_current_schema(const floe_table_metadata *m);
const floe_partition_spec *floe__metadata_spec(const floe_table_metadata *m, int32_t spec_id);
const floe_sort_order *floe__metadata_sort_order(const floe_table_metadata *m, int32_t order_id);

/* JSON emitters on util/json_writer (metadata_write.c), shared by the
 * metadata file and the REST commit serializer. A snapshot gets
 * sequence-number unless format_version is 1 and it is 0 (format_version 0:
 * unknown, always written); `rest` writes the REST model's form (summary
 * with an operation always, no v1 inline manifest list). The ref emitter
 * writes the fields of a SnapshotReference into the open object. */
int floe__snapshot_write(floe_jw *w, const floe_snapshot *s, int format_version, bool rest);
int floe__ref_fields_write(floe_jw *w, const floe_snapshot_ref *r);
int floe__statistics_write(floe_jw *w, const floe_statistics_file *s);
int floe__partition_statistics_write(floe_jw *w, const floe_partition_statistics_file *s);
int floe__schema_write(floe_jw *w, const floe_schema *s);
int floe__partition_spec_write(floe_jw *w, const floe_partition_spec *s);
int floe__sort_order_write(floe_jw *w, const floe_sort_order *o);

/* ---------------------------------------------------------------- which snapshot (snapshot_select.c) */

/* One way to name a snapshot; every caller that picks one (scans, metadata
 * tables, procedures, SQL time travel, the CLI) goes through
 * floe__snapshot_select, so each form has one answer and one message. */
typedef enum floe_snapshot_select_kind {
    FLOE_SNAP_CURRENT = 0, /* the table's current snapshot (main); NULL when none */
    FLOE_SNAP_ID,          /* `snapshot_id` */
    FLOE_SNAP_REF,         /* branch or tag `ref` (VERSION AS OF 'name', scan ref option) */
    FLOE_SNAP_BRANCH,      /* the head of branch `ref` read as `t.branch_<ref>` */
    FLOE_SNAP_AS_OF,       /* current at `timestamp_ms` by the snapshot-log */
} floe_snapshot_select_kind;

typedef struct floe_snapshot_selector {
    floe_snapshot_select_kind kind;
    int64_t snapshot_id;
    const char *ref;
    int64_t timestamp_ms;
} floe_snapshot_selector;

/* The snapshot `sel` names (borrowed from m). *out is NULL without an
 * error only for FLOE_SNAP_CURRENT on a table without a current snapshot
 * and FLOE_SNAP_BRANCH "main" before the first commit. FLOE_ENOTFOUND,
 * raised under `subsystem`, with Java's / Spark's messages:
 * "Cannot find snapshot with ID 42" (also for a ref or log entry whose
 * snapshot is gone), "Cannot find matching snapshot ID or reference name
 * for version nope", "Cannot use branch (does not exist): nope",
 * "Cannot find a snapshot older than 2020-01-01T00:00:00+00:00". */
int floe__snapshot_select(const floe_snapshot **out, const floe_table_metadata *m,
                          const floe_snapshot_selector *sel, const char *subsystem);
/* Whether a read of `sel` uses the selected snapshot's schema (Java's
 * SnapshotUtil.schemaFor): a snapshot id, tag or time does; the current
 * snapshot and a branch read with the table's current schema. */
bool floe__snapshot_selector_pins_schema(const floe_table_metadata *m,
                                         const floe_snapshot_selector *sel);
/* The snapshot-log entry current at ts_ms — the last one at or before it,
 * Java's SnapshotUtil.nullableSnapshotIdAsOfTime — into *id; false when
 * there is none (the snapshot may since have been expired). */
bool floe__snapshot_log_as_of(const floe_table_metadata *m, int64_t ts_ms, int64_t *id);

/* ---------------------------------------------------------------- copies (metadata_copy.c) */

/* A deep copy of `src` in a fresh arena (the builder's starting point); it
 * serializes byte for byte like `src` and shares nothing with it.
 * FLOE_ENOMEM. *out is the caller's (floe__metadata_free). */
int floe__metadata_copy(floe_table_metadata **out, const floe_table_metadata *src);
/* Copies of single parts into arena `a` (strings, packed summary and
 * manifest list, blobs). The statistics copies fail with FLOE_EINVALID
 * without a statistics-path; schema, spec and order copies keep their ids
 * and are FLOE_ENOMEM only (the copied schema has its lookup maps: release
 * it with floe__schema_release). */
int floe__snapshot_copy(floe_snapshot *dst, const floe_snapshot *src, floe_arena *a);
int floe__statistics_copy(floe_statistics_file *dst, const floe_statistics_file *src,
                          floe_arena *a);
int floe__partition_statistics_copy(floe_partition_statistics_file *dst,
                                    const floe_partition_statistics_file *src, floe_arena *a);
int floe__schema_copy(floe_schema **out, const floe_schema *s, floe_arena *a);
int floe__partition_spec_copy(floe_partition_spec **out, const floe_partition_spec *s,
                              floe_arena *a);
int floe__sort_order_copy(floe_sort_order **out, const floe_sort_order *o, floe_arena *a);

/* ---------------------------------------------------------------- builder (builder.c) */

/* Metadata of a new, empty table (what a create-table commit writes):
 * format `format_version` (2 or 3), a fresh table-uuid, schema id 0, the
 * given partition spec as spec 0 (NULL: unpartitioned), the given sort order
 * (NULL or no fields: unsorted order 0; otherwise order 1), no snapshots.
 * Field ids are kept as given (the caller assigns them); last-column-id and
 * last-partition-id follow from them. FLOE_EINVALID for an empty location or
 * an unsupported version. */
int floe__metadata_new(floe_table_metadata **out, const floe_schema *schema,
                       const floe_partition_spec *spec, const floe_sort_order *order,
                       const char *location, const floe_props *properties, int format_version,
                       int64_t now_ms);


/* Produces the next metadata of a commit from a base, applying the REST
 * TableCommit update kinds in order, like Java's TableMetadata.Builder:
 * add-snapshot, set-snapshot-ref, remove-snapshots, remove-snapshot-ref,
 * set-properties, remove-properties, add-schema, set-current-schema,
 * add-spec, set-default-spec, add-sort-order, set-default-sort-order,
 * set-location, set-statistics, remove-statistics, set-partition-statistics,
 * remove-partition-statistics, upgrade-format-version, assign-uuid. The snapshot-log gets an entry whenever
 * `main` moves; on build the base file joins the metadata-log, which keeps
 * at most `write.metadata.previous-versions-max` (default 100) entries.
 * Ids passed as -1 to the set-current/default calls mean "the one added last
 * in this builder" (the REST convention). Errors: FLOE_EINVALID naming the
 * rule that failed (unknown snapshot, stale sequence number, ...), FLOE_ENOMEM.
 * A failed update leaves the builder usable but in an unspecified state; the
 * caller normally frees it. */
typedef struct floe_metadata_builder floe_metadata_builder;

/* `base_location` is the base's metadata file (NULL for a new table). */
int floe__metadata_builder_new(floe_metadata_builder **out, const floe_table_metadata *base,
                               const char *base_location);
void floe__metadata_builder_free(floe_metadata_builder *b);
/* The metadata as built so far (borrowed; changes with further updates). */
const floe_table_metadata *floe__metadata_builder_peek(const floe_metadata_builder *b);

int floe__mb_add_snapshot(floe_metadata_builder *b, const floe_snapshot *s);
int floe__mb_set_snapshot_ref(floe_metadata_builder *b, const floe_snapshot_ref *ref);
int floe__mb_remove_snapshots(floe_metadata_builder *b, const int64_t *ids, size_t n);
int floe__mb_remove_snapshot_ref(floe_metadata_builder *b, const char *name);
int floe__mb_set_properties(floe_metadata_builder *b, const floe_kv *kv, size_t n);
int floe__mb_remove_properties(floe_metadata_builder *b, const char *const *keys, size_t n);
/* Adds a copy of `s` with a fresh schema id (returned in *schema_id). */
int floe__mb_add_schema(floe_metadata_builder *b, const floe_schema *s, int32_t *schema_id);
int floe__mb_set_current_schema(floe_metadata_builder *b, int32_t schema_id);
int floe__mb_add_spec(floe_metadata_builder *b, const floe_partition_spec *spec, int32_t *spec_id);
int floe__mb_set_default_spec(floe_metadata_builder *b, int32_t spec_id);
/* remove-schemas / remove-partition-specs (Java's removeSchemas /
 * removeSpecs): ids that are not there are ignored; the current schema and
 * the default spec cannot be removed ("Cannot remove the current schema",
 * "Cannot remove the default partition spec"). */
int floe__mb_remove_schemas(floe_metadata_builder *b, const int64_t *ids, size_t n);
int floe__mb_remove_specs(floe_metadata_builder *b, const int64_t *ids, size_t n);
int floe__mb_add_sort_order(floe_metadata_builder *b, const floe_sort_order *o, int32_t *order_id);
int floe__mb_set_default_sort_order(floe_metadata_builder *b, int32_t order_id);
int floe__mb_set_location(floe_metadata_builder *b, const char *location);
/* Replaces the statistics file of the same snapshot, or adds it. */
int floe__mb_set_statistics(floe_metadata_builder *b, const floe_statistics_file *st);
/* Drops the statistics file of a snapshot (no-op when there is none). */
int floe__mb_remove_statistics(floe_metadata_builder *b, int64_t snapshot_id);
/* Replaces the partition statistics file of the same snapshot, or adds it. */
int floe__mb_set_partition_statistics(floe_metadata_builder *b,
                                      const floe_partition_statistics_file *st);
/* Drops the partition statistics file of a snapshot (no-op when none). */
int floe__mb_remove_partition_statistics(floe_metadata_builder *b, int64_t snapshot_id);
/* Raises the format version (Java's messages: "Cannot downgrade v2 table to
 * v1", "Cannot upgrade table to unsupported format version: v4 (supported:
 * v3)"); the same version is a no-op. To v3: next-row-id starts at 0 (spec
 * Appendix E). From v1: v1 snapshots stay as they are (sequence number 0,
 * spec Appendix E); the table needs a uuid by build time (assign-uuid). */
int floe__mb_upgrade_format_version(floe_metadata_builder *b, int format_version);
/* Sets table-uuid (Java's TableMetadata.Builder.assignUUID: any non-empty
 * value, replacing the old one). */
int floe__mb_assign_uuid(floe_metadata_builder *b, const char *uuid);

/* Finish: stamps last-updated-ms (now_ms unless an added snapshot set it),
 * extends the metadata-log and validates. *out is the caller's; the builder
 * is left empty (free it). */
int floe__metadata_builder_build(floe_metadata_builder *b, int64_t now_ms,
                                 floe_table_metadata **out);

/* Parse one snapshot / statistics-file object with the rules of `m`'s format
 * version; strings are allocated in m's arena. */
struct floe_json;
int floe__snapshot_from_json(floe_snapshot *out, const struct floe_json *j, floe_table_metadata *m);
int floe__statistics_from_json(floe_statistics_file *out, const struct floe_json *j,
                               floe_table_metadata *m);

/* gzip/zlib inflate helper shared with other readers: FLOE_ECORRUPT on a
 * truncated or malformed stream, FLOE_EINVALID past `max` bytes. */
int floe__gunzip(const void *data, size_t len, size_t max, floe_buf *out, const char *what);
/* gzip `in` (a whole metadata file) onto the end of `out`. */
int floe__gzip(const floe_buf *in, floe_buf *out);

#endif
