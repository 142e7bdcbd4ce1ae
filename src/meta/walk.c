/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta/walk: the manifest walker under the files, entries, manifests and
 * partitions tables. It streams the manifest-list entries of one snapshot,
 * or of every retained snapshot (spec "Manifest Lists"; v1 snapshots that
 * list `manifests` directly are read too), optionally each manifest path
 * once, and the entries of those manifests (spec "Manifests") with
 * sequence-number inheritance from their list entry. At any time it holds
 * one manifest list and one manifest in memory, plus the set of manifest
 * paths already seen when deduplicating: memory grows with the number of
 * manifests, never with the number of files.
 *
 * Entry reads fetch the bytes of the next few manifests at once on a small
 * thread pool (object stores answer in tens of milliseconds; hundreds of
 * manifests read one after the other would wait that long each), then
 * decode them one at a time, so at most WALK_PREFETCH manifests are held.
 */
#include "meta/scan.h"

#include "io/io.h"

#include <string.h>

enum { WALK_PREFETCH = 8, WALK_THREADS = 4 };

typedef struct prefetched {
    floe_manifest_file mf; /* the list entry (path owned; no summaries) */
    floe_buf bytes;
} prefetched;

struct meta_walker {
    floe_fileio *io;
    const floe_table_metadata *m;
    meta_walk_mode mode;
    unsigned contents;
    unsigned statuses; /* entries wanted: bit FLOE_ENTRY_*; 0 = all */
    const floe_snapshot *single;
    size_t snap_i;             /* next snapshot to load (ALL modes) */
    const floe_snapshot *snap; /* snapshot whose manifests are loaded */
    bool loaded;
    floe_buf list_path;
    floe_buf list_buf;
    floe_manifest_list *list;
    size_t list_i;
    floe_manifest_file v1mf; /* v1 snapshot with a `manifests` array */
    floe_strmap *seen;       /* WALK_ALL: manifest paths already walked */
    floe_arena *seen_arena;
    /* the manifest whose entries are being read, and the ones fetched */
    const floe_manifest_file *mf;
    floe_manifest_reader *reader;
    prefetched slots[WALK_PREFETCH];
    size_t nslots, slot_i;
    floe_pool *pool;
    bool pool_tried;
};

const floe_snapshot *floe__meta_selected_snapshot(const floe_meta_options *o)
{
    if (o->has_snapshot_id)
        return floe__metadata_snapshot(o->metadata, o->snapshot_id);
    return floe__metadata_current_snapshot(o->metadata);
}

int floe__meta_walker_new(meta_walker **out, const floe_meta_options *o, meta_walk_mode mode,
                          const floe_snapshot *snapshot, unsigned contents)
{
    *out = NULL;
    if (!o->io)
        return floe__error(FLOE_EINVALID, "meta", "metadata tables over manifests need a FileIO");
    meta_walker *w = floe__calloc(1, sizeof *w);
    if (!w)
        return floe__error_nomem();
    w->io = o->io;
    w->m = o->metadata;
    w->mode = mode;
    w->contents = contents;
    w->single = snapshot;
    if (mode == WALK_ALL) {
        w->seen = floe__strmap_new();
        w->seen_arena = floe__arena_new(0);
        if (!w->seen || !w->seen_arena) {
            floe__meta_walker_free(w);
            return floe__error_nomem();
        }
    }
    *out = w;
    return 0;
}

static void close_manifest(meta_walker *w)
{
    floe_manifest_reader_free(w->reader);
    w->reader = NULL;
    w->mf = NULL;
}

static void unload(meta_walker *w)
{
    floe_manifest_list_free(w->list);
    w->list = NULL;
    w->list_i = 0;
    w->loaded = false;
}

void floe__meta_walker_free(meta_walker *w)
{
    if (!w)
        return;
    close_manifest(w);
    unload(w);
    floe__buf_free(&w->list_buf);
    floe__buf_free(&w->list_path);
    for (size_t i = 0; i < WALK_PREFETCH; i++) {
        floe__free((char *)w->slots[i].mf.manifest_path);
        floe__buf_free(&w->slots[i].bytes);
    }
    floe__pool_free(w->pool);
    floe__strmap_free(w->seen);
    floe__arena_free(w->seen_arena);
    floe__free(w);
}

/* Load the next snapshot's manifest list; FLOE_ITEROVER when none is left. */
static int load_next_snapshot(meta_walker *w)
{
    unload(w);
    if (w->mode == WALK_SNAPSHOT) {
        if (!w->single || w->snap_i > 0)
            return FLOE_ITEROVER;
        w->snap = w->single;
        w->snap_i = 1;
    } else {
        if (w->snap_i >= w->m->nsnapshots)
            return FLOE_ITEROVER;
        w->snap = &w->m->snapshots[w->snap_i++];
    }
    w->loaded = true;
    const char *path;
    FLOE_TRY(floe__snapshot_manifest_list(w->snap, &w->list_path, &path));
    if (!path)
        return 0; /* v1: the snapshot's `manifests` array */
    floe__buf_clear(&w->list_buf);
    int rc = floe__io_read_all(w->io, path, FLOE_META_MAX_MANIFEST_BYTES, &w->list_buf);
    if (rc == 0)
        rc = floe_manifest_list_read(&w->list, (const uint8_t *)w->list_buf.ptr, w->list_buf.len,
                                     path);
    if (rc < 0)
        return floe__error_context("reading the manifest list of snapshot %lld",
                                   (long long)w->snap->snapshot_id);
    return 0;
}

/* Next list entry of the loaded snapshot, NULL when exhausted. */
static const floe_manifest_file *next_in_snapshot(meta_walker *w)
{
    if (w->list) {
        if (w->list_i >= w->list->nentries)
            return NULL;
        return &w->list->entries[w->list_i++];
    }
    if (w->list_i >= w->snap->n_manifests)
        return NULL;
    memset(&w->v1mf, 0, sizeof w->v1mf);
    w->v1mf.manifest_path = w->snap->manifests[w->list_i++];
    w->v1mf.manifest_length = -1;
    w->v1mf.partition_spec_id = 0; /* what Java assumes for these */
    w->v1mf.content = FLOE_MANIFEST_DATA;
    w->v1mf.added_snapshot_id = w->snap->snapshot_id;
    w->v1mf.added_files_count = w->v1mf.existing_files_count = w->v1mf.deleted_files_count = -1;
    w->v1mf.added_rows_count = w->v1mf.existing_rows_count = w->v1mf.deleted_rows_count = -1;
    return &w->v1mf;
}

void floe__meta_walker_want_statuses(meta_walker *w, unsigned statuses)
{
    w->statuses = statuses;
}

/* Whether a manifest may hold entries of the wanted statuses, judged from
 * its list entry's file counts (unknown counts, -1, may hold anything). */
static bool may_hold(const floe_manifest_file *f, unsigned statuses)
{
    const int32_t counts[3] = {f->existing_files_count, f->added_files_count,
                               f->deleted_files_count};
    for (int st = 0; st < 3; st++)
        if ((statuses & (1u << st)) && counts[st] != 0)
            return true;
    return false;
}

int floe__meta_walker_next_manifest(meta_walker *w, const floe_manifest_file **mf,
                                    const floe_snapshot **snap)
{
    for (;;) {
        if (!w->loaded)
            FLOE_TRY(load_next_snapshot(w));
        const floe_manifest_file *f = next_in_snapshot(w);
        if (!f) {
            w->loaded = false;
            continue;
        }
        if (f->content < 0 || f->content > 1 || !(w->contents & (1u << f->content)))
            continue;
        if (w->statuses && !may_hold(f, w->statuses))
            continue;
        if (w->mode == WALK_ALL) {
            if (floe__strmap_has(w->seen, f->manifest_path))
                continue;
            char *key = floe__arena_strdup(w->seen_arena, f->manifest_path);
            if (!key || floe__strmap_put(w->seen, key, key) < 0)
                return floe__error_nomem();
        }
        *mf = f;
        *snap = w->snap;
        return 0;
    }
}

static int fetch_one(size_t i, void *payload)
{
    meta_walker *w = payload;
    prefetched *p = &w->slots[i];
    floe__buf_clear(&p->bytes);
    return floe__io_read_all(w->io, p->mf.manifest_path, FLOE_META_MAX_MANIFEST_BYTES, &p->bytes);
}

/* The next WALK_PREFETCH manifests of the walk, their bytes read in
 * parallel. nslots == 0 at the end of the walk. */
static int fill(meta_walker *w)
{
    for (size_t i = 0; i < w->nslots; i++) {
        floe__free((char *)w->slots[i].mf.manifest_path);
        w->slots[i].mf.manifest_path = NULL;
    }
    w->nslots = w->slot_i = 0;
    while (w->nslots < WALK_PREFETCH) {
        const floe_manifest_file *mf;
        const floe_snapshot *snap;
        int rc = floe__meta_walker_next_manifest(w, &mf, &snap);
        if (rc == FLOE_ITEROVER)
            break;
        FLOE_TRY(rc);
        prefetched *p = &w->slots[w->nslots];
        p->mf = *mf;
        /* the list entry's memory goes with its list: keep what readers use */
        p->mf.partitions = NULL;
        p->mf.npartitions = 0;
        p->mf.has_partitions = false;
        p->mf.key_metadata.set = false;
        p->mf.manifest_path = floe__strdup(mf->manifest_path);
        if (!p->mf.manifest_path)
            return floe__error_nomem();
        w->nslots++;
    }
    if (w->nslots > 1 && !w->pool_tried) {
        w->pool_tried = true;
        w->pool = floe__pool_new(WALK_THREADS); /* NULL: read inline */
        if (!w->pool)
            floe_error_clear();
    }
    return floe__pool_for(w->nslots > 1 ? w->pool : NULL, w->nslots, fetch_one, w);
}

int floe__meta_walker_next_entry(meta_walker *w, const floe_manifest_entry **e,
                                 const floe_manifest_file **mf, const floe_manifest_info **info)
{
    for (;;) {
        if (w->reader) {
            int rc = floe_manifest_reader_next(w->reader, e);
            if (rc == 0) {
                *mf = w->mf;
                *info = floe_manifest_reader_info(w->reader);
                return 0;
            }
            if (rc != FLOE_ITEROVER)
                return rc;
            close_manifest(w);
        }
        if (w->slot_i >= w->nslots) {
            FLOE_TRY(fill(w));
            if (w->nslots == 0)
                return FLOE_ITEROVER;
        }
        prefetched *p = &w->slots[w->slot_i++];
        floe_manifest_read_options opts = {&p->mf, false};
        int rc = floe_manifest_reader_open(&w->reader, (const uint8_t *)p->bytes.ptr, p->bytes.len,
                                           p->mf.manifest_path, &opts);
        if (rc < 0) {
            w->reader = NULL;
            return rc;
        }
        w->mf = &p->mf;
    }
}
