/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table: private side of include/floe/table.h — the handle, the commit
 * model (REST TableCommit requirements + updates) and the commit protocol
 * (ARCHITECTURE.md "The commit protocol").
 *
 * A change is produced by a `prepare` callback from a base metadata, so a
 * retry after a lost compare-and-set re-runs the operation's validation on
 * the new base (what Java's SnapshotProducer / SetSnapshotOperation do by
 * refreshing in apply()). The requirements + updates a prepare emits are
 * exactly what a REST catalog client would send in a CommitTableRequest;
 * the "committer" (floe__table_committer) turns them into a new pointer:
 * for the SQLite catalog by building the metadata here, writing it
 * create-new and swapping the pointer with compare-and-set.
 */
#ifndef FLOE_TABLE_TABLE_H
#define FLOE_TABLE_TABLE_H

#include "avro/avro.h"
#include "floe/table.h"
#include "io/io.h"
#include "spec/metadata.h"
#include "spec/commit.h"
#include "util/util.h"

/* ---------------------------------------------------------------- the handle */

typedef struct floe_staged_replace floe_staged_replace;

struct floe_table {
    floe_catalog *catalog; /* borrowed */
    char *ident;
    floe_fileio *io;
    bool own_io;
    char *metadata_location;
    floe_table_metadata *metadata;
    floe_table_freshness freshness;
    floe_intmap *ancestors; /* lazily built: ids on main's parent chain */
    floe_intmap *ml_cache;  /* snapshot id -> decoded manifest-list path (in ml_arena) */
    floe_arena *ml_arena;
    char *branch; /* write target; "main" unless the options name one */
    char *wap_id; /* NULL unless the options set one */
    bool create_branch; /* a missing branch forks from main's head on write */
    /* Set on the handle of a staged replacement (floe_table_replace_begin,
     * replace.c): its metadata is the replaced definition, never committed
     * by itself; commits through it go to the table being replaced. */
    struct floe_staged_replace *staged;
};

/* Replace the handle's state with `m` loaded from `location` (both taken). */
void floe__table_set_state(floe_table *t, floe_table_metadata *m, char *location);
/* The manifest-list path of a snapshot of the handle's current metadata
 * (decoded once, valid until the state changes); NULL when it has none or
 * on out-of-memory. */
const char *floe__table_manifest_list(const floe_table *t, const floe_snapshot *s);
/* The ref a write to `branch` builds on (*out, NULL when it is empty): the
 * branch's head, or for a missing branch that `create` allows main's head
 * (the branch forks from there). Errors: FLOE_EINVALID "Ref <b> is a tag
 * not a branch", FLOE_ENOTFOUND "Cannot use branch (does not exist): <b>". */
int floe__table_write_head(const floe_table_metadata *base, const char *branch, bool create,
                           const floe_snapshot_ref **out);
/* Make `location` the handle's state (read and parsed; nothing happens
 * when it is the current one already). */
int floe__table_adopt(floe_table *t, const char *location);
/* Read + parse a metadata file through the handle's FileIO. */
int floe__table_read_metadata(floe_fileio *io, const char *location, floe_table_metadata **out);

/* ---------------------------------------------------------------- commit model */

/* The requirement and update types are spec/commit.h's. */

/* One attempt's change. Everything it points to lives in `arena` (or is
 * static / outlives the commit). */
typedef struct floe_table_change {
    floe_arena *arena;
    floe_vec requirements; /* floe_requirement */
    floe_vec updates;      /* floe_table_update */
    /* Files this attempt wrote besides the metadata.json (manifest lists,
     * manifests): deleted when the attempt fails for sure. */
    floe_vec written; /* char* in arena */
} floe_table_change;

int floe__change_init(floe_table_change *c);

/* append.c: the files an uncommitted operation wrote (a floe_vec of heap
 * char* paths), removed from storage unless its commit keeps them. */
int floe__paths_add(floe_vec *paths, const char *path);
/* Forget (free) the entries from index n on. */
void floe__paths_truncate(floe_vec *paths, size_t n);
/* Delete every listed file from `io` (best effort) and forget them. */
void floe__paths_remove(floe_vec *paths, floe_fileio *io);
void floe__paths_free(floe_vec *paths);

void floe__change_free(floe_table_change *c);
void floe__change_reset(floe_table_change *c);
floe_requirement *floe__change_require(floe_table_change *c, floe_requirement_type type);
floe_table_update *floe__change_update(floe_table_change *c, floe_update_type type);
/* Convenience: set-snapshot-ref copying `ref` (name copied into the arena). */
int floe__change_set_ref(floe_table_change *c, const floe_snapshot_ref *ref);
/* assert-ref-snapshot-id for the ref's state in `base`. */
int floe__change_assert_ref(floe_table_change *c, const floe_table_metadata *base,
                            const char *ref);
/* producer.c: the Avro codec for manifests and lists of `m`
 * (write.avro.compression-codec, gzip = deflate by default as Java). */
floe_avro_codec floe__table_avro_codec(const floe_table_metadata *m);
/* Parse one REST TableUpdate object into the change (its arena);
 * *format_version as in floe__update_parse. */
int floe__change_update_parse(floe_table_change *c, const struct floe_json *u,
                              int *format_version);

/* Produce the change for one attempt from `base`. A negative return is the
 * operation's validation failure and ends the commit (not retried). */
typedef int (*floe_prepare_fn)(const floe_table_metadata *base, floe_table_change *change,
                               void *payload);

/* Run the commit protocol on a table handle: prepare on the handle's
 * metadata, check requirements, build, write metadata (create-new), CAS;
 * on FLOE_ECONFLICT refresh and retry with exponential backoff per
 * commit.retry.*. The handle ends at the committed state. */
int floe__table_commit(floe_table *t, floe_prepare_fn prepare, void *payload);

/* Catalog side of a commit (what the REST server's commit endpoint does and
 * what the REST client delegates): check the change's requirements on
 * `base`, build, write the next metadata file and swap the pointer.
 * *new_location / *new_metadata are set when the swap happened (or may
 * have: FLOE_ECOMMITUNKNOWN keeps *new_location set). */
int floe__table_commit_sql(floe_catalog *cat, floe_fileio *io, const char *ident,
                           const floe_table_metadata *base, const char *base_location,
                           const floe_table_change *change, char **new_location,
                           floe_table_metadata **new_metadata);

/* The first half of floe__table_commit_sql: check the requirements on
 * `base`, build and write the next metadata file (create-new); nothing is
 * swapped. A caller swapping several tables at once (REST transactions)
 * removes the file if its swap does not happen. */
int floe__table_commit_write(floe_fileio *io, const floe_table_metadata *base,
                             const char *base_location, const floe_table_change *change,
                             char **new_location, floe_table_metadata **new_metadata);

/* transaction.c: the catalog side of a multi-table commit over a catalog
 * that swaps several pointers at once (SQLite): load each of the n tables
 * (with `opts`, may be NULL), let `fill` produce its change on its current
 * metadata (a change whose arena `fill` leaves NULL is borrowed and not
 * freed), check the requirements and write each next metadata file, then
 * compare-and-set every pointer in one catalog transaction. All or none:
 * on a sure failure the written files are removed. *failed = the index of
 * the table that failed (n: the swap). Errors: those of floe_table_load,
 * of `fill`, FLOE_ECONFLICT (a requirement or the swap), FLOE_ECOMMITUNKNOWN,
 * FLOE_EUNSUPPORTED (the catalog cannot swap several pointers). */
typedef int (*floe_change_fill_fn)(size_t i, const floe_table_metadata *base,
                                   floe_table_change *change, void *payload);
int floe__table_commit_tables(floe_catalog *cat, const floe_table_options *opts, size_t n,
                              const char *const *idents, floe_change_fill_fn fill, void *payload,
                              size_t *failed);

/* Remove files a failed commit wrote (NULL entries skipped), keeping the
 * commit's error (cleanup failures only leave orphans). */
void floe__table_remove_quietly(floe_fileio *io, const char *const *uris, size_t n);

/* The change as a REST CommitTableRequest JSON ({"requirements":[...],
 * "updates":[...]}), appended to `out`; an assert-table-uuid for `base` is
 * added when the change has none. */
int floe__change_to_json(const floe_table_metadata *base, const floe_table_change *c,
                         floe_buf *out);

/* Metadata of a new table from create options (what floe_table_create
 * writes as version 0), at `location`; nothing is written. */
int floe__table_initial_metadata(const floe_table_create_options *c, const char *location,
                                 floe_table_metadata **out);

/* Commit through a staged replacement's handle (floe__table_commit hands
 * over when t->staged is set, replace.c): ONE commit on the table being
 * replaced of the replace updates followed by what `prepare` produces on
 * the replaced definition (NULL: the replacement alone). */
int floe__staged_commit(floe_table *t, floe_prepare_fn prepare, void *payload);
void floe__staged_free(struct floe_staged_replace *s);

/* Location of metadata file number `version`: <location>/metadata/ or
 * write.metadata.path, %05d-<uuid>.metadata.json (".gz.metadata.json" with
 * write.metadata.compression-codec=gzip). */
int floe__metadata_file_name(const floe_table_metadata *m, int version, char **out);
/* Version number of a metadata file name ("00012-..." -> 12, else -1). */
int floe__metadata_file_version(const char *location);
/* Serialize (and gzip if the table asks for it). */
int floe__metadata_serialize(const floe_table_metadata *m, floe_buf *out);

/* ---------------------------------------------------------------- rewrite_manifests */

typedef struct floe_rewrite_manifests_stats {
    int64_t rewritten_manifests_count;
    int64_t added_manifests_count;
    int64_t entries_processed;
} floe_rewrite_manifests_stats;

/* rewrite_manifests.c: replace the data and delete manifests of spec
 * `spec_id` (-1: the default spec) of the handle's branch head by new ones
 * of about `target_bytes` (0: commit.manifest.target-size-bytes, 8 MiB)
 * clustered by partition, in a `replace` snapshot (nothing is committed
 * when there is nothing to rewrite). FLOE_EINVALID for an unknown spec,
 * FLOE_EUNSUPPORTED (v1 snapshot without a list, v3 manifests), commit
 * errors. */
int floe__table_rewrite_manifests(floe_table *t, int32_t spec_id, int64_t target_bytes,
                                  floe_rewrite_manifests_stats *out);

/* Test hooks: sleep function for backoff (NULL = nanosleep) and a call
 * made at each step of a commit: "write-metadata" (before the create-new
 * write), "swap" (before the compare-and-set), "committed" (right after a
 * successful swap), "cleanup" (before deleting files). */
void floe__table_set_sleep_hook(void (*fn)(int64_t ms));
void floe__table_set_step_hook(void (*fn)(const char *step));

/* Cache clock for tests (NULL = floe__mono_ns based ms). */
void floe__table_cache_set_clock(int64_t (*now_ms)(void));

#endif
