/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maint: private side of include/floe/maint.h. The expiry is split so that
 * the table layer's commit protocol can drive it: floe__expire_plan() turns
 * a base metadata into the updates to commit (refs to remove, snapshot ids
 * to remove) without I/O; a commit function applies them; then
 * floe__expire_cleanup() deletes what the committed state no longer
 * reaches. The orphan sweep uses an external sort (xsort.c) so that its
 * memory does not grow with the number of objects.
 */
#ifndef FLOE_MAINT_MAINT_H
#define FLOE_MAINT_MAINT_H

#include "floe/maint.h"
#include "io/io.h"
#include "manifest/manifest.h"
#include "spec/metadata.h"
#include "util/util.h"

/* Retention property names and defaults (Iceberg TableProperties). */
#define FLOE_PROP_MAX_SNAPSHOT_AGE "history.expire.max-snapshot-age-ms"
#define FLOE_PROP_MIN_SNAPSHOTS "history.expire.min-snapshots-to-keep"
#define FLOE_PROP_MAX_REF_AGE "history.expire.max-ref-age-ms"
#define FLOE_DEFAULT_MAX_SNAPSHOT_AGE_MS (5LL * 24 * 3600 * 1000)
#define FLOE_DEFAULT_MIN_SNAPSHOTS 1
#define FLOE_DEFAULT_ORPHAN_AGE_MS (3LL * 24 * 3600 * 1000)
/* Largest manifest list / manifest / metadata file read (bounded reads). */
#define FLOE_MAINT_MAX_OBJECT ((size_t)1 << 30)

/* ---------------------------------------------------------------- table access (table.c) */

typedef struct floe_maint_table {
    floe_fileio *io; /* borrowed or owned (own_io) */
    bool own_io;
    char *metadata_location;
    floe_table_metadata *metadata;
} floe_maint_table;

/* Load `ident` through the catalog; io NULL opens one for the location. */
int floe__maint_table_load(floe_maint_table *t, floe_catalog *cat, const char *ident,
                           floe_fileio *io, const floe_props *io_conf);
void floe__maint_table_free(floe_maint_table *t);
int floe__maint_read_metadata(floe_fileio *io, const char *location, floe_table_metadata **out);

/* The manifest-list path of `s` (spec stores it packed), copied into `a`;
 * *out is NULL for a v1 snapshot without one. FLOE_ENOMEM. */
int floe__maint_list_path(const floe_snapshot *s, floe_arena *a, const char **out);

/* Manifest-list entries of a snapshot: reads its manifest list (v2) or
 * synthesizes entries from the v1 `manifests` field. *list may be NULL for
 * v1 (no list file); entries/n point into *list or into `arena`. The bytes
 * behind the list are kept in `bytes` (the caller frees both). */
int floe__maint_snapshot_manifests(floe_fileio *io, const floe_snapshot *s, floe_buf *bytes,
                                   floe_manifest_list **list, floe_arena *arena,
                                   const floe_manifest_file **entries, size_t *n);

/* Open one manifest: reads its bytes into `bytes` (cleared first). */
int floe__maint_open_manifest(floe_fileio *io, const floe_manifest_file *mf, floe_buf *bytes,
                              floe_manifest_reader **out);

/* Snapshot selection shared by inventory and retention: id / ref /
 * timestamp (snapshot-log) / current. FLOE_ENOTFOUND with Iceberg's words. */
int floe__maint_select(const floe_table_metadata *m, bool has_id, int64_t id, const char *ref,
                       bool has_ts, int64_t ts, const floe_snapshot **out);

/* ---------------------------------------------------------------- expire (expire.c) */

typedef struct floe_expire_plan {
    floe_vec remove_ids;   /* int64_t: snapshots to remove */
    floe_vec remove_refs;  /* const char* borrowed from the base metadata */
    floe_intmap *retained; /* snapshot id -> (void*)1 */
    /* clean_expired_metadata (floe__expire_plan_metadata): int64_t ids */
    floe_vec remove_specs, remove_schemas;
} floe_expire_plan;

void floe__expire_plan_free(floe_expire_plan *p);

/* Compute the updates of an expiry (Java's RemoveSnapshots rules) from
 * `base`; no I/O. Also used by the retention report (per-ref windows
 * through floe__branch_retained). */
int floe__expire_plan(floe_expire_plan *p, const floe_table_metadata *base,
                      const floe_maint_expire_options *o, int64_t now_ms);

/* clean_expired_metadata (Java 1.11 RemoveSnapshots.cleanExpiredMetadata):
 * the partition specs no manifest of a retained snapshot was written with
 * and the schemas no retained snapshot names go, never the default spec or
 * the current schema. Reads the retained snapshots' manifest lists (only
 * when the table has more than one spec). */
int floe__expire_plan_metadata(floe_expire_plan *p, floe_fileio *io,
                               const floe_table_metadata *base);

/* Effective retention of one ref under `base` and `o`. */
typedef struct floe_ref_policy {
    int64_t min_snapshots_to_keep;
    int64_t expire_older_than_ms; /* snapshots at or after this are kept */
    int64_t max_snapshot_age_ms;
    int64_t max_ref_age_ms; /* INT64_MAX: forever */
} floe_ref_policy;
int floe__ref_policy(const floe_table_metadata *base, const floe_maint_expire_options *o,
                     int64_t now_ms, const floe_snapshot_ref *ref, floe_ref_policy *out);

/* Commit the plan: applies remove-snapshot-ref then remove-snapshots to
 * `base` and makes the result current. On success *committed is the new
 * metadata (caller's) and *location its file (caller's). */
typedef int (*floe_expire_commit_fn)(const floe_table_metadata *base, const char *base_location,
                                     const floe_expire_plan *plan, floe_table_metadata **committed,
                                     char **location, void *payload);

/* Delete (or with dry_run only report) what `base` reaches and
 * `retained_ids` do not: the whole reachable cleanup, every manifest read
 * at most once. `committed` / `committed_location` (NULL for a dry run)
 * give the metadata-log after the commit for the old metadata files. */
int floe__expire_cleanup(floe_fileio *io, const floe_table_metadata *base,
                         const char *base_location, const floe_table_metadata *committed,
                         const char *committed_location, const floe_intmap *retained_ids,
                         const floe_maint_expire_options *o, floe_maint_expire_result *r,
                         int64_t *freed_bytes);

/* The whole operation on loaded metadata with a given commit function:
 * plan, commit (unless dry run or nothing to do), cleanup. */
int floe__expire_run(floe_fileio *io, const floe_table_metadata *base, const char *base_location,
                     const floe_maint_expire_options *o, floe_expire_commit_fn commit,
                     void *commit_payload, floe_maint_expire_result *r);

/* ---------------------------------------------------------------- rewrite_table_path
 * (rewrite_path.c) */

struct floe__progress;

/* The rewrite of `end` (at end_location; parsed, changed in place) and the
 * metadata-log versions before it down to start_location (exclusive),
 * with `start` the start version's metadata (NULL: everything). The
 * inventory's backup passes an end version built in memory. Errors as
 * floe_maint_rewrite_table_path. `progress` (may be NULL) gets the bytes written
 * and copied. */
int floe__rewrite_path_run(floe_fileio *io, floe_table_metadata *end, const char *end_location,
                           const floe_table_metadata *start, const char *start_location,
                           const floe_maint_rewrite_path_options *o,
                           struct floe__progress *progress, floe_maint_rewrite_path_result *res);

/* ---------------------------------------------------------------- external sort (xsort.c) */

/* Records (a location string + an int64) sorted by the location's path
 * part (after "scheme://authority"), then the whole string. Records are
 * kept in memory up to `run_bytes`, then the run is sorted and spilled to
 * an anonymous temporary file; reading merges the runs. */
typedef struct floe_xsort floe_xsort;
int floe__xsort_new(floe_xsort **out, size_t run_bytes);
int floe__xsort_add(floe_xsort *s, const char *location, int64_t aux);
/* A record sorted by `key` that carries `original` (NULL: the key) back out
 * of _next_keyed: the orphan sweep sorts normalised locations but must
 * report and delete the object under the name the listing gave. */
int floe__xsort_add_keyed(floe_xsort *s, const char *key, const char *original, int64_t aux);
/* Finish adding; then read in order with _next (FLOE_ITEROVER at the end).
 * The returned string is valid until the next call. */
int floe__xsort_finish(floe_xsort *s);
int floe__xsort_next(floe_xsort *s, const char **location, int64_t *aux);
int floe__xsort_next_keyed(floe_xsort *s, const char **key, const char **original, int64_t *aux);
size_t floe__xsort_runs(const floe_xsort *s);
size_t floe__xsort_peak_bytes(const floe_xsort *s);
void floe__xsort_free(floe_xsort *s);

/* Offset of the path part of a location: after "scheme://authority" (or
 * "scheme:" for "file:/x"), 0 for a plain path. */
size_t floe__location_path_offset(const char *location);

#endif
