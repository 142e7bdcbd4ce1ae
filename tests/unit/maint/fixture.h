/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test tables for the maint tests, written with the layers below the table
 * layer (spec builder, manifest writers, FileIO, SQLite catalog): appends,
 * copy-on-write deletes (manifest rewritten with DELETED entries),
 * merge-on-read deletes (a position-delete file in a delete manifest),
 * branches, tags, rollbacks and property changes, each committed with a
 * create-new metadata file and a catalog compare-and-set. Snapshot times
 * come from a fake clock so that retention tests are deterministic.
 * Data files hold a few opaque bytes: the maint tests check reachability
 * and bytes, not rows.
 */
#ifndef FLOE_TEST_MAINT_FIXTURE_H
#define FLOE_TEST_MAINT_FIXTURE_H

#include "harness.h"

#include "floe/catalog.h"
#include "floe/maint.h"
#include "io/io.h"
#include "manifest/manifest.h"
#include "spec/metadata.h"
#include "spec/spec.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FX_SCHEMA                                                                                  \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":"     \
    "true,\"type\":\"long\"}]}"

typedef struct fx_table {
    floe_catalog *cat; /* borrowed */
    floe_fileio *io;   /* borrowed */
    char ident[128];
    char *meta_loc;
    floe_table_metadata *m;
    int64_t clock;       /* ms; each commit advances it */
    int nfiles;          /* names */
    char last_path[512]; /* last data file written */
} fx_table;

static inline int fx_commit_built(fx_table *t, floe_metadata_builder *b)
{
    floe_table_metadata *m = NULL;
    floe_buf text = FLOE_BUF_INIT;
    int rc = floe__metadata_builder_build(b, t->clock, &m);
    floe__metadata_builder_free(b);
    if (rc == 0)
        rc = floe__metadata_write(m, &text);
    char uuid[37];
    floe__uuid4(uuid);
    int v = t->m ? (int)t->m->n_metadata_log + 1 : 0;
    char *path = floe__sprintf("%s/metadata/%05d-%s.metadata.json", m ? m->location : "", v, uuid);
    if (rc == 0)
        rc = floe__io_write_new(t->io, path, text.ptr, text.len);
    if (rc == 0 && t->cat)
        rc = t->meta_loc ? floe_catalog_commit_table(t->cat, t->ident, t->meta_loc, path)
                         : floe_catalog_register_table(t->cat, t->ident, path);
    floe__buf_free(&text);
    if (rc < 0) {
        floe__metadata_free(m);
        floe__free(path);
        return rc;
    }
    floe__metadata_free(t->m);
    floe__free(t->meta_loc);
    t->m = m;
    t->meta_loc = path;
    return 0;
}

/* Reload after a maint operation committed. */
static inline int fx_reload(fx_table *t)
{
    char *loc = NULL;
    FLOE_TRY(floe_catalog_load_table(&loc, NULL, t->cat, t->ident));
    floe_buf b = FLOE_BUF_INIT;
    floe_table_metadata *m = NULL;
    int rc = floe__io_read_all(t->io, loc, (size_t)1 << 30, &b);
    if (rc == 0)
        rc = floe__metadata_parse(&m, b.ptr, b.len, loc);
    floe__buf_free(&b);
    if (rc < 0) {
        floe__free(loc);
        return rc;
    }
    floe__metadata_free(t->m);
    floe__free(t->meta_loc);
    t->m = m;
    t->meta_loc = loc;
    return 0;
}

static inline int fx_create(fx_table *t, floe_catalog *cat, floe_fileio *io, const char *ident,
                            const char *location, int64_t clock)
{
    memset(t, 0, sizeof *t);
    t->cat = cat;
    t->io = io;
    t->clock = clock;
    snprintf(t->ident, sizeof t->ident, "%s", ident);
    char ns[128];
    snprintf(ns, sizeof ns, "%s", ident);
    char *dot = strrchr(ns, '.');
    if (dot)
        *dot = '\0';
    if (cat && floe_catalog_namespace_exists(cat, ns) == 0)
        FLOE_TRY(floe_catalog_create_namespace(cat, ns, NULL));
    floe_arena *a = floe__arena_new(0);
    floe_json *j = NULL;
    floe_schema *s = NULL;
    int rc = floe__json_parse(&j, FX_SCHEMA, strlen(FX_SCHEMA), "schema");
    if (rc == 0)
        rc = floe__schema_from_json(&s, j, 0, a);
    floe__json_free(j);
    floe_table_metadata *m = NULL;
    if (rc == 0)
        rc = floe__metadata_new(&m, s, NULL, NULL, location, NULL, 2, clock);
    floe__schema_release(s);
    floe__arena_free(a);
    if (rc < 0)
        return rc;
    floe_metadata_builder *b = NULL;
    rc = floe__metadata_builder_new(&b, m, NULL);
    if (rc == 0)
        rc = fx_commit_built(t, b);
    floe__metadata_free(m);
    return rc;
}

static void fx_free(fx_table *t)
{
    floe__metadata_free(t->m);
    floe__free(t->meta_loc);
    t->m = NULL;
    t->meta_loc = NULL;
}

static inline int64_t fx_head(const fx_table *t, const char *branch)
{
    const floe_snapshot_ref *r = floe__metadata_ref(t->m, branch);
    return r ? r->snapshot_id : -1;
}

/* Manifests of a snapshot (or none for -1), as a read list (caller frees
 * list + bytes). */
static inline int fx_manifests(fx_table *t, int64_t snap, floe_buf *bytes,
                               floe_manifest_list **list)
{
    *list = NULL;
    const floe_snapshot *s = snap < 0 ? NULL : floe__metadata_snapshot(t->m, snap);
    if (!s)
        return 0;
    floe_buf pb = FLOE_BUF_INIT;
    const char *path = NULL;
    int rc = floe__snapshot_manifest_list(s, &pb, &path);
    if (rc == 0)
        rc = floe__io_read_all(t->io, path, (size_t)1 << 30, bytes);
    if (rc == 0)
        rc = floe_manifest_list_read(list, (const uint8_t *)bytes->ptr, bytes->len, path);
    floe__buf_free(&pb);
    return rc;
}

static inline int fx_write_manifest(fx_table *t, int32_t content, int64_t snap, int64_t seq,
                                    const floe_manifest_entry *es, size_t n, floe_manifest_file *mf,
                                    floe_arena *a)
{
    char uuid[37];
    floe__uuid4(uuid);
    char *path = floe__arena_sprintf(a, "%s/metadata/%s-m0.avro", t->m->location, uuid);
    floe_manifest_writer_options wo;
    memset(&wo, 0, sizeof wo);
    wo.format_version = 2;
    wo.content = content;
    wo.schema_json = FX_SCHEMA;
    wo.partition_spec_json = "[]";
    wo.snapshot_id = snap;
    wo.sequence_number = seq;
    wo.manifest_path = path;
    floe_buf out = FLOE_BUF_INIT;
    floe_manifest_writer *w = NULL;
    int rc = floe_manifest_writer_new(&w, &wo, &out);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = floe_manifest_writer_add(w, &es[i]);
    if (rc == 0)
        rc = floe_manifest_writer_finish(w, mf);
    if (rc == 0) {
        mf->manifest_path = path;
        mf->partitions = NULL;
        mf->npartitions = 0;
        mf->has_partitions = false;
    }
    floe_manifest_writer_free(w);
    if (rc == 0)
        rc = floe__io_write_new(t->io, path, out.ptr, out.len);
    floe__buf_free(&out);
    return rc;
}

static inline char *fx_new_file(fx_table *t, floe_arena *a, const char *ext, int64_t *size)
{
    char uuid[37];
    floe__uuid4(uuid);
    char *path =
        floe__arena_sprintf(a, "%s/data/%05d-%s.%s", t->m->location, t->nfiles++, uuid, ext);
    char body[64];
    int n = snprintf(body, sizeof body, "file %s", path + strlen(path) - 20);
    *size = n;
    if (floe__io_write_new(t->io, path, body, (size_t)n) < 0)
        return NULL;
    snprintf(t->last_path, sizeof t->last_path, "%s", path);
    return path;
}

/* Commit a snapshot on `branch` whose manifests are `keep` (reused entries
 * of the parent's list, may be NULL) plus `extra`. */
static inline int fx_commit_snapshot(fx_table *t, const char *branch, const char *op, int64_t snap,
                                     int64_t seq, int64_t parent, const floe_manifest_file *keep,
                                     size_t nkeep, const floe_manifest_file *extra, size_t nextra,
                                     floe_arena *a)
{
    char uuid[37];
    floe__uuid4(uuid);
    char *list_path = floe__arena_sprintf(a, "%s/metadata/snap-%lld-1-%s.avro", t->m->location,
                                          (long long)snap, uuid);
    floe_manifest_list_writer_options lo;
    memset(&lo, 0, sizeof lo);
    lo.format_version = 2;
    lo.snapshot_id = snap;
    lo.has_parent_snapshot_id = parent >= 0;
    lo.parent_snapshot_id = parent;
    lo.sequence_number = seq;
    floe_buf out = FLOE_BUF_INIT;
    floe_manifest_list_writer *lw = NULL;
    int rc = floe_manifest_list_writer_new(&lw, &lo, &out);
    for (size_t i = 0; rc == 0 && i < nextra; i++)
        rc = floe_manifest_list_writer_add(lw, &extra[i]);
    for (size_t i = 0; rc == 0 && i < nkeep; i++)
        rc = floe_manifest_list_writer_add(lw, &keep[i]);
    if (rc == 0)
        rc = floe_manifest_list_writer_finish(lw);
    floe_manifest_list_writer_free(lw);
    if (rc == 0)
        rc = floe__io_write_new(t->io, list_path, out.ptr, out.len);
    floe__buf_free(&out);
    if (rc < 0)
        return rc;
    floe_kv summary[] = {{"operation", (char *)op}};
    floe_snapshot s;
    memset(&s, 0, sizeof s);
    s.snapshot_id = snap;
    s.has_parent = parent >= 0;
    s.parent_snapshot_id = parent;
    s.sequence_number = seq;
    s.timestamp_ms = t->clock;
    if (floe__snapshot_pack_manifest_list(&s, a, list_path) < 0 ||
        floe__snapshot_pack_summary(&s, a, summary, 1) < 0)
        return FLOE_ENOMEM;
    s.has_schema_id = true;
    s.schema_id = 0;
    floe_metadata_builder *b = NULL;
    rc = floe__metadata_builder_new(&b, t->m, t->meta_loc);
    if (rc == 0)
        rc = floe__mb_add_snapshot(b, &s);
    floe_snapshot_ref ref = {.name = branch, .snapshot_id = snap, .type = FLOE_REF_BRANCH};
    const floe_snapshot_ref *old = floe__metadata_ref(t->m, branch);
    if (old) {
        ref = *old;
        ref.snapshot_id = snap;
    }
    if (rc == 0)
        rc = floe__mb_set_snapshot_ref(b, &ref);
    if (rc < 0) {
        floe__metadata_builder_free(b);
        return rc;
    }
    return fx_commit_built(t, b);
}

/* Append `n` data files to `branch`. Their paths are returned in `paths`
 * (arena strings) when not NULL. */
static inline int fx_append(fx_table *t, const char *branch, int n, int64_t *snap_out)
{
    t->clock += 1000;
    floe_arena *a = floe__arena_new(0);
    int64_t snap, seq = t->m->last_sequence_number + 1, parent = fx_head(t, branch);
    floe__snapshot_id(&snap);
    floe_manifest_entry *es = floe__arena_calloc(a, (size_t)n, sizeof *es);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        es[i].status = FLOE_ENTRY_ADDED;
        es[i].has_snapshot_id = true;
        es[i].snapshot_id = snap;
        es[i].sequence_number = es[i].file_sequence_number = FLOE_SEQ_UNASSIGNED;
        es[i].data_file.file_path =
            fx_new_file(t, a, "parquet", &es[i].data_file.file_size_in_bytes);
        es[i].data_file.file_format = "PARQUET";
        es[i].data_file.record_count = 1;
        es[i].data_file.block_size_in_bytes = -1;
        if (!es[i].data_file.file_path)
            rc = FLOE_EIO;
    }
    floe_manifest_file mf;
    if (rc == 0)
        rc = fx_write_manifest(t, FLOE_MANIFEST_DATA, snap, FLOE_SEQ_UNASSIGNED, es, (size_t)n, &mf,
                               a);
    floe_buf bytes = FLOE_BUF_INIT;
    floe_manifest_list *list = NULL;
    if (rc == 0)
        rc = fx_manifests(t, parent, &bytes, &list);
    if (rc == 0)
        rc = fx_commit_snapshot(t, branch, "append", snap, seq, parent, list ? list->entries : NULL,
                                list ? list->nentries : 0, &mf, 1, a);
    floe_manifest_list_free(list);
    floe__buf_free(&bytes);
    floe__arena_free(a);
    if (rc == 0 && snap_out)
        *snap_out = snap;
    return rc;
}

/* Live data files of a snapshot, sorted, newline separated (caller frees). */
static inline int fx_live_cmp(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static inline char *fx_live(fx_table *t, int64_t snap, int data_only)
{
    floe_buf bytes = FLOE_BUF_INIT, mb = FLOE_BUF_INIT, out = FLOE_BUF_INIT;
    floe_manifest_list *list = NULL;
    floe_vec paths = FLOE_VEC_INIT(char *);
    if (fx_manifests(t, snap, &bytes, &list) < 0)
        goto done;
    for (size_t i = 0; list && i < list->nentries; i++) {
        floe__buf_clear(&mb);
        floe_manifest *man = NULL;
        if (floe__io_read_all(t->io, list->entries[i].manifest_path, (size_t)1 << 30, &mb) < 0 ||
            floe_manifest_read(&man, (const uint8_t *)mb.ptr, mb.len,
                               list->entries[i].manifest_path, &list->entries[i]) < 0)
            goto done;
        for (size_t k = 0; k < man->nentries; k++) {
            const floe_manifest_entry *e = &man->entries[k];
            if (e->status == FLOE_ENTRY_DELETED || (data_only && e->data_file.content != 0))
                continue;
            *(char **)floe__vec_push(&paths) = floe__strdup(e->data_file.file_path);
        }
        floe_manifest_free(man);
    }
    if (paths.len)
        qsort(paths.items, paths.len, sizeof(char *), fx_live_cmp);
    for (size_t i = 0; i < paths.len; i++)
        floe__buf_printf(&out, "%s\n", *(char **)floe__vec_at(&paths, i));
    floe__buf_puts(&out, "");
done:
    for (size_t i = 0; i < paths.len; i++)
        floe__free(*(char **)floe__vec_at(&paths, i));
    floe__vec_free(&paths);
    floe_manifest_list_free(list);
    floe__buf_free(&bytes);
    floe__buf_free(&mb);
    return floe__buf_detach(&out);
}

/* Copy-on-write delete: drop the live data file number `victim` (modulo
 * the live count) of `branch`: its manifest is rewritten with the file
 * DELETED and the rest EXISTING; other manifests are reused. */
static inline int fx_rewrite(fx_table *t, const char *branch, unsigned victim,
                             const char *victim_path, int add, int64_t *snap_out)
{
    int64_t parent = fx_head(t, branch);
    if (parent < 0)
        return 0;
    t->clock += 1000;
    floe_arena *a = floe__arena_new(0);
    floe_buf bytes = FLOE_BUF_INIT, mb = FLOE_BUF_INIT;
    floe_manifest_list *list = NULL;
    int64_t snap, seq = t->m->last_sequence_number + 1;
    floe__snapshot_id(&snap);
    int rc = fx_manifests(t, parent, &bytes, &list);
    /* count live data files to pick the victim */
    size_t live = 0;
    size_t nm = list ? list->nentries : 0;
    floe_manifest **mans = floe__arena_calloc(a, nm + 1, sizeof *mans);
    floe_buf *owns = floe__arena_calloc(a, nm + 1, sizeof *owns);
    for (size_t i = 0; rc == 0 && i < nm; i++) {
        floe_buf *own = &owns[i];
        rc = floe__io_read_all(t->io, list->entries[i].manifest_path, (size_t)1 << 30, own);
        if (rc == 0)
            rc = floe_manifest_read(&mans[i], (const uint8_t *)own->ptr, own->len,
                                    list->entries[i].manifest_path, &list->entries[i]);
        for (size_t k = 0; rc == 0 && k < mans[i]->nentries; k++)
            if (mans[i]->entries[k].status != FLOE_ENTRY_DELETED &&
                mans[i]->entries[k].data_file.content == 0)
                live++;
    }
    if (rc < 0 || live == 0) {
        for (size_t i = 0; i < nm; i++) {
            floe_manifest_free(mans[i]);
            floe__buf_free(&owns[i]);
        }
        floe_manifest_list_free(list);
        floe__buf_free(&bytes);
        floe__arena_free(a);
        return rc;
    }
    size_t target = victim % live, seen = 0;
    floe_manifest_file *keep = floe__arena_calloc(a, list->nentries, sizeof *keep);
    size_t nkeep = 0;
    floe_manifest_file rewritten;
    bool did = false;
    for (size_t i = 0; rc == 0 && i < list->nentries; i++) {
        floe_manifest *man = mans[i];
        bool here = false;
        size_t vk = 0;
        for (size_t k = 0; k < man->nentries; k++) {
            const floe_manifest_entry *e = &man->entries[k];
            if (e->status == FLOE_ENTRY_DELETED || e->data_file.content != 0)
                continue;
            bool hit =
                victim_path ? strcmp(e->data_file.file_path, victim_path) == 0 : seen == target;
            seen++;
            if (hit) {
                here = true;
                vk = k;
            }
        }
        if (!here) {
            keep[nkeep++] = list->entries[i];
            continue;
        }
        /* rewrite: victim DELETED, other live entries EXISTING */
        floe_manifest_entry *es = floe__arena_calloc(a, man->nentries + 1, sizeof *es);
        size_t ne = 0;
        for (size_t k = 0; k < man->nentries; k++) {
            const floe_manifest_entry *e = &man->entries[k];
            if (e->status == FLOE_ENTRY_DELETED)
                continue;
            es[ne] = *e;
            es[ne].status = k == vk ? FLOE_ENTRY_DELETED : FLOE_ENTRY_EXISTING;
            if (k == vk) {
                es[ne].snapshot_id = snap;
                es[ne].has_snapshot_id = true;
            }
            ne++;
        }
        rc = fx_write_manifest(t, FLOE_MANIFEST_DATA, snap, FLOE_SEQ_UNASSIGNED, es, ne, &rewritten,
                               a);
        did = true;
    }
    floe_manifest_file extra[2];
    size_t nextra = 0;
    if (did)
        extra[nextra++] = rewritten;
    if (rc == 0 && did && add > 0) {
        floe_manifest_entry *ae = floe__arena_calloc(a, (size_t)add, sizeof *ae);
        for (int i = 0; i < add && rc == 0; i++) {
            ae[i].status = FLOE_ENTRY_ADDED;
            ae[i].has_snapshot_id = true;
            ae[i].snapshot_id = snap;
            ae[i].sequence_number = ae[i].file_sequence_number = FLOE_SEQ_UNASSIGNED;
            ae[i].data_file.file_path =
                fx_new_file(t, a, "parquet", &ae[i].data_file.file_size_in_bytes);
            ae[i].data_file.file_format = "PARQUET";
            ae[i].data_file.record_count = 1;
            ae[i].data_file.block_size_in_bytes = -1;
            if (!ae[i].data_file.file_path)
                rc = FLOE_EIO;
        }
        if (rc == 0)
            rc = fx_write_manifest(t, FLOE_MANIFEST_DATA, snap, FLOE_SEQ_UNASSIGNED, ae,
                                   (size_t)add, &extra[nextra++], a);
    }
    if (rc == 0 && did)
        rc = fx_commit_snapshot(t, branch, add > 0 ? "overwrite" : "delete", snap, seq, parent,
                                keep, nkeep, extra, nextra, a);
    for (size_t i = 0; i < nm; i++) {
        floe_manifest_free(mans[i]);
        floe__buf_free(&owns[i]);
    }
    floe_manifest_list_free(list);
    floe__buf_free(&bytes);
    floe__buf_free(&mb);
    floe__arena_free(a);
    if (rc == 0 && snap_out)
        *snap_out = snap;
    return rc;
}

static inline int fx_delete(fx_table *t, const char *branch, unsigned victim, int64_t *snap_out)
{
    return fx_rewrite(t, branch, victim, NULL, 0, snap_out);
}

/* Merge-on-read delete: add one position-delete file to `branch`. */
static inline int fx_pos_delete(fx_table *t, const char *branch, int64_t *snap_out)
{
    int64_t parent = fx_head(t, branch);
    t->clock += 1000;
    floe_arena *a = floe__arena_new(0);
    int64_t snap, seq = t->m->last_sequence_number + 1;
    floe__snapshot_id(&snap);
    floe_manifest_entry e;
    memset(&e, 0, sizeof e);
    e.status = FLOE_ENTRY_ADDED;
    e.has_snapshot_id = true;
    e.snapshot_id = snap;
    e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
    e.data_file.content = FLOE_FILE_POSITION_DELETES;
    e.data_file.file_path = fx_new_file(t, a, "pos.parquet", &e.data_file.file_size_in_bytes);
    e.data_file.file_format = "PARQUET";
    e.data_file.record_count = 1;
    e.data_file.block_size_in_bytes = -1;
    floe_manifest_file mf;
    int rc = e.data_file.file_path ? 0 : FLOE_EIO;
    if (rc == 0)
        rc = fx_write_manifest(t, FLOE_MANIFEST_DELETES, snap, FLOE_SEQ_UNASSIGNED, &e, 1, &mf, a);
    floe_buf bytes = FLOE_BUF_INIT;
    floe_manifest_list *list = NULL;
    if (rc == 0)
        rc = fx_manifests(t, parent, &bytes, &list);
    if (rc == 0)
        rc = fx_commit_snapshot(t, branch, "delete", snap, seq, parent, list ? list->entries : NULL,
                                list ? list->nentries : 0, &mf, 1, a);
    floe_manifest_list_free(list);
    floe__buf_free(&bytes);
    floe__arena_free(a);
    if (rc == 0 && snap_out)
        *snap_out = snap;
    return rc;
}

/* Point a ref at a snapshot (create, move, rollback). */
static inline int fx_set_ref(fx_table *t, const char *name, floe_ref_type type, int64_t snap,
                             int64_t max_ref_age_ms)
{
    t->clock += 10;
    floe_snapshot_ref ref = {.name = name, .snapshot_id = snap, .type = type};
    if (max_ref_age_ms > 0) {
        ref.has_max_ref_age_ms = true;
        ref.max_ref_age_ms = max_ref_age_ms;
    }
    floe_metadata_builder *b = NULL;
    FLOE_TRY(floe__metadata_builder_new(&b, t->m, t->meta_loc));
    int rc = floe__mb_set_snapshot_ref(b, &ref);
    if (rc < 0) {
        floe__metadata_builder_free(b);
        return rc;
    }
    return fx_commit_built(t, b);
}

static inline int fx_drop_ref(fx_table *t, const char *name)
{
    t->clock += 10;
    floe_metadata_builder *b = NULL;
    FLOE_TRY(floe__metadata_builder_new(&b, t->m, t->meta_loc));
    int rc = floe__mb_remove_snapshot_ref(b, name);
    if (rc < 0) {
        floe__metadata_builder_free(b);
        return rc;
    }
    return fx_commit_built(t, b);
}

static inline int fx_set_props(fx_table *t, const floe_kv *kv, size_t n)
{
    t->clock += 10;
    floe_metadata_builder *b = NULL;
    FLOE_TRY(floe__metadata_builder_new(&b, t->m, t->meta_loc));
    int rc = floe__mb_set_properties(b, kv, n);
    if (rc < 0) {
        floe__metadata_builder_free(b);
        return rc;
    }
    return fx_commit_built(t, b);
}

#endif
