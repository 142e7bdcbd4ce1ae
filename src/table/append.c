/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/append: committing new data files as one snapshot (spec "Snapshots",
 * "Manifests", "Manifest Lists", "Sequence Number Inheritance"; Java's
 * FastAppend / MergeAppend and SnapshotSummary).
 *
 * The new files go into one new manifest `<commit-uuid>-m0.avro`, written
 * once and reused by every retry (its entries carry the snapshot id and an
 * unassigned sequence number, inherited from the manifest list). Each
 * attempt writes `snap-<id>-<attempt>-<commit-uuid>.avro`: the new manifest
 * followed by the parent's manifests, merged first when merging is enabled
 * and a bin reaches commit.manifest.min-count-to-merge (Java's
 * ManifestMergeManager: bins of commit.manifest.target-size-bytes packed
 * from the end with a lookback of 1; a bin of one is kept; the bin holding
 * the new manifest is merged only when it reaches the minimum count).
 * A lost compare-and-set re-applies the append on the new parent.
 */
#include "table/producer.h"

#include "manifest/manifest.h"
#include "spec/spec.h"
#include "spec/value.h"
#include "spec/transform.h"
#include "table/writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct floe_append {
    floe_table *t;
    floe_arena *arena;
    floe_vec files;     /* floe_data_file, deep copies in arena */
    int32_t spec_id;    /* spec the data files were written with */
    floe_props extra;   /* custom summary properties */
    floe_producer prod; /* commit uuid, snapshot id, attempts */
    floe_vec own_files; /* char* (heap): data files and manifests of this append */
    floe_manifest_file *new_mf; /* written once, kept across retries (arena) */
    bool done;
    floe_data_writer *writer;
    const char *target;  /* branch override (cherry-pick: main); NULL = the handle's */
    bool no_stage;       /* never stage (cherry-pick publishes) */
    int (*validate)(const floe_table_metadata *base, void *payload);
    void *validate_payload;
    int64_t target_size; /* > 0: rolls data files here, not at the table property */
    bool sort_set;                /* floe__append_set_sort_order was called */
    const floe_sort_order *sort;  /* then: the write order (NULL: unsorted) */
    bool lineage;                 /* floe__append_set_lineage */
    bool has_sort_order_id;       /* data files get sort_order_id */
    int32_t sort_order_id;
};

void floe__append_set_lineage(floe_append *a)
{
    a->lineage = true;
}

bool floe__append_lineage(const floe_append *a)
{
    return a->lineage;
}

void floe__append_set_sort_order_id(floe_append *a, int32_t id)
{
    a->has_sort_order_id = true;
    a->sort_order_id = id;
}

bool floe__append_sort_order_id(const floe_append *a, int32_t *id)
{
    *id = a->sort_order_id;
    return a->has_sort_order_id;
}

void floe__append_set_sort_order(floe_append *a, const floe_sort_order *order)
{
    a->sort_set = true;
    a->sort = order;
}

bool floe__append_sort_order(const floe_append *a, const floe_sort_order **order)
{
    *order = a->sort;
    return a->sort_set;
}

void floe__append_set_target_size(floe_append *a, int64_t bytes)
{
    a->target_size = bytes;
}

int64_t floe__append_target_size(const floe_append *a)
{
    return a->target_size;
}

void floe__append_configure(floe_append *a, const char *target, bool no_stage, int32_t spec_id,
                            int (*validate)(const floe_table_metadata *base, void *payload),
                            void *payload)
{
    a->target = target;
    a->no_stage = no_stage;
    a->spec_id = spec_id;
    a->validate = validate;
    a->validate_payload = payload;
}

int64_t floe__append_snapshot_id(const floe_append *a)
{
    return a->prod.snapshot_id;
}

/* ---------------------------------------------------------------- copies */

static const uint8_t *dup_bytes(floe_arena *a, const uint8_t *p, size_t n)
{
    if (!p)
        return NULL;
    return floe__arena_memdup(a, p, n ? n : 1);
}

static int copy_longs(floe_arena *a, floe_col_longs *d, const floe_col_longs *s)
{
    *d = *s;
    if (s->n && !(d->items = floe__arena_memdup(a, s->items, s->n * sizeof *s->items)))
        return floe__error_nomem();
    return 0;
}

static int copy_bytes_map(floe_arena *a, floe_col_bytes_map *d, const floe_col_bytes_map *s)
{
    *d = *s;
    if (!s->n)
        return 0;
    floe_col_bytes *items = floe__arena_alloc(a, s->n * sizeof *items);
    if (!items)
        return floe__error_nomem();
    for (size_t i = 0; i < s->n; i++) {
        items[i] = s->items[i];
        if (s->items[i].len && !(items[i].ptr = dup_bytes(a, s->items[i].ptr, s->items[i].len)))
            return floe__error_nomem();
    }
    d->items = items;
    return 0;
}

int floe__data_file_copy(floe_arena *a, floe_data_file *d, const floe_data_file *s)
{
    *d = *s;
    if (!(d->file_path = floe__arena_strdup(a, s->file_path)) ||
        !(d->file_format = floe__arena_strdup(a, s->file_format ? s->file_format : "PARQUET")))
        return floe__error_nomem();
    if (s->partition.n) {
        floe_value *v = floe__arena_alloc(a, s->partition.n * sizeof *v);
        if (!v)
            return floe__error_nomem();
        for (size_t i = 0; i < s->partition.n; i++)
            FLOE_TRY(floe__value_copy(a, &v[i], &s->partition.values[i]));
        d->partition.values = v;
    }
    FLOE_TRY(copy_longs(a, &d->column_sizes, &s->column_sizes));
    FLOE_TRY(copy_longs(a, &d->value_counts, &s->value_counts));
    FLOE_TRY(copy_longs(a, &d->null_value_counts, &s->null_value_counts));
    FLOE_TRY(copy_longs(a, &d->nan_value_counts, &s->nan_value_counts));
    FLOE_TRY(copy_bytes_map(a, &d->lower_bounds, &s->lower_bounds));
    FLOE_TRY(copy_bytes_map(a, &d->upper_bounds, &s->upper_bounds));
    if (s->key_metadata.set && s->key_metadata.len &&
        !(d->key_metadata.ptr = dup_bytes(a, s->key_metadata.ptr, s->key_metadata.len)))
        return floe__error_nomem();
    if (s->nsplit_offsets &&
        !(d->split_offsets = floe__arena_memdup(a, s->split_offsets,
                                                s->nsplit_offsets * sizeof *s->split_offsets)))
        return floe__error_nomem();
    if (s->nequality_ids &&
        !(d->equality_ids = floe__arena_memdup(a, s->equality_ids,
                                               s->nequality_ids * sizeof *s->equality_ids)))
        return floe__error_nomem();
    if (s->referenced_data_file &&
        !(d->referenced_data_file = floe__arena_strdup(a, s->referenced_data_file)))
        return floe__error_nomem();
    return 0;
}

/* ---------------------------------------------------------------- lifecycle */

int floe_append_new(floe_append **out, floe_table *t)
{
    *out = NULL;
    if (!t)
        return floe__error(FLOE_EINVALID, "table", "NULL table");
    floe_append *a = floe__calloc(1, sizeof *a);
    if (!a)
        return floe__error_nomem();
    a->t = t;
    a->files.item_size = sizeof(floe_data_file);
    a->own_files.item_size = sizeof(char *);
    a->spec_id = t->metadata->default_spec_id;
    int rc = (a->arena = floe__arena_new(16384)) ? 0 : floe__error_nomem();
    if (rc == 0)
        rc = floe__producer_init(&a->prod, t->io);
    if (rc < 0) {
        floe_append_free(a);
        return rc;
    }
    *out = a;
    return 0;
}

/* ---------------------------------------------------------------- files an operation wrote */

int floe__paths_add(floe_vec *paths, const char *path)
{
    char **slot = floe__vec_push(paths);
    if (!slot || !(*slot = floe__strdup(path))) {
        if (slot)
            paths->len--;
        return floe__error_nomem();
    }
    return 0;
}

void floe__paths_truncate(floe_vec *paths, size_t n)
{
    for (size_t i = n; i < paths->len; i++)
        floe__free(((char **)paths->items)[i]);
    if (n < paths->len)
        paths->len = n;
}

void floe__paths_remove(floe_vec *paths, floe_fileio *io)
{
    if (paths->len)
        floe_fileio_remove(io, paths->items, paths->len);
    floe__paths_truncate(paths, 0);
}

void floe__paths_free(floe_vec *paths)
{
    floe__paths_truncate(paths, 0);
    floe__vec_free(paths);
}

void floe_append_free(floe_append *a)
{
    if (!a)
        return;
    if (a->writer)
        floe__data_writer_free(a->writer);
    if (!a->done)
        floe__paths_remove(&a->own_files, a->t->io);
    floe__paths_free(&a->own_files);
    floe__vec_free(&a->files);
    floe__props_free(&a->extra);
    floe__arena_free(a->arena);
    floe__free(a);
}

int floe__append_own_file(floe_append *a, const char *path)
{
    return floe__paths_add(&a->own_files, path);
}

int floe__append_add_file(floe_append *a, const floe_data_file *df)
{
    if (a->done)
        return floe__error(FLOE_EINVALID, "table", "append already committed");
    floe_data_file *d = floe__vec_push(&a->files);
    if (!d)
        return floe__error_nomem();
    int rc = floe__data_file_copy(a->arena, d, df);
    if (rc < 0)
        a->files.len--;
    return rc;
}

int floe_append_set(floe_append *a, const char *key, const char *value)
{
    if (!a || !key || !value)
        return floe__error(FLOE_EINVALID, "table", "NULL argument");
    return floe__props_set(&a->extra, key, value);
}

int floe_append_write(floe_append *a, const struct ArrowArray *batch)
{
    if (!a || !batch)
        return floe__error(FLOE_EINVALID, "table", "NULL argument");
    if (a->done)
        return floe__error(FLOE_EINVALID, "table", "append already committed");
    if (!a->writer)
        FLOE_TRY(floe__data_writer_new(&a->writer, a));
    return floe__data_writer_write(a->writer, batch);
}

floe_table *floe__append_table(const floe_append *a)
{
    return a->t;
}

int floe__append_files(floe_append *a, const floe_data_file **files, size_t *n)
{
    *files = NULL;
    *n = 0;
    if (a->writer) {
        int rc = floe__data_writer_close(a->writer);
        floe__data_writer_free(a->writer);
        a->writer = NULL;
        if (rc < 0)
            return rc;
    }
    *n = a->files.len;
    *files = a->files.items;
    return 0;
}

void floe__append_keep(floe_append *a)
{
    a->done = true;
}

/* ---------------------------------------------------------------- manifest helpers */

static int write_new_manifest(floe_append *a, const floe_table_metadata *m)
{
    floe_producer_manifest mw;
    int rc = floe__producer_manifest_open(&a->prod, m, a->spec_id, FLOE_MANIFEST_DATA, a->arena,
                                          &mw);
    for (size_t i = 0; rc == 0 && i < a->files.len; i++)
        rc = floe__producer_manifest_add_new(&mw, &((floe_data_file *)a->files.items)[i]);
    if (rc == 0)
        rc = floe__producer_manifest_close(&mw, a->t->io, NULL, &a->own_files, a->arena,
                                           &a->new_mf);
    floe__producer_manifest_free(&mw);
    return rc;
}

/* ---------------------------------------------------------------- merging */

/* Rewrite the manifests of one bin into one (live entries EXISTING with
 * their sequence numbers; this snapshot's ADDED stay ADDED). */
static int merge_bin(floe_append *a, const floe_table_metadata *m, floe_table_change *c,
                     int32_t spec_id, const floe_manifest_file *const *bin, size_t n,
                     floe_manifest_file **out)
{
    floe_producer_manifest mw;
    int rc = floe__producer_manifest_open(&a->prod, m, spec_id, FLOE_MANIFEST_DATA, c->arena, &mw);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        floe_buf data = FLOE_BUF_INIT;
        floe_manifest *man = NULL;
        rc = floe__io_read_all(a->t->io, bin[i]->manifest_path, (size_t)1 << 31, &data);
        if (rc == 0)
            rc = floe_manifest_read(&man, (const uint8_t *)data.ptr, data.len,
                                    bin[i]->manifest_path, bin[i]);
        for (size_t k = 0; rc == 0 && k < man->nentries; k++) {
            floe_manifest_entry e = man->entries[k];
            bool ours = e.has_snapshot_id && e.snapshot_id == a->prod.snapshot_id;
            if (e.status == FLOE_ENTRY_DELETED && !ours)
                continue;
            if (ours && e.status == FLOE_ENTRY_ADDED) {
                e.sequence_number = FLOE_SEQ_UNASSIGNED;
                e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
            } else if (!ours) {
                e.status = FLOE_ENTRY_EXISTING;
            }
            rc = floe_manifest_writer_add(mw.w, &e);
        }
        floe_manifest_free(man);
        floe__buf_free(&data);
    }
    if (rc == 0)
        rc = floe__producer_manifest_close(&mw, a->t->io, c, NULL, c->arena, out);
    floe__producer_manifest_free(&mw);
    return rc;
}

/* Java's ManifestMergeManager over the list [new, parent's...]. `in` and
 * the result hold pointers to manifest entries living in a->arena or the
 * parent list (alive until the list is freed). */
static int merge_manifests(floe_append *a, const floe_table_metadata *m, floe_table_change *c,
                           const floe_manifest_file **in, size_t n, floe_vec *out)
{
    bool enabled = true;
    int64_t min_count = 100, target = 8388608;
    FLOE_TRY(floe__props_get_bool(&m->properties, "commit.manifest-merge.enabled", true, &enabled));
    FLOE_TRY(floe__props_get_int64(&m->properties, "commit.manifest.min-count-to-merge", 100,
                                   &min_count));
    FLOE_TRY(floe__props_get_int64(&m->properties, "commit.manifest.target-size-bytes", 8388608,
                                   &target));
    if (!enabled || n == 0) {
        for (size_t i = 0; i < n; i++) {
            const floe_manifest_file **slot = floe__vec_push(out);
            if (!slot)
                return floe__error_nomem();
            *slot = in[i];
        }
        return 0;
    }
    /* group by spec id, in order of first appearance (Java uses a sorted
     * map keyed by spec id, descending; `in` holds data manifests only) */
    int32_t specs[64] = {0}; /* [0, nspecs) set below (cppcheck cannot tell) */
    size_t nspecs = 0;
    for (size_t i = 0; i < n; i++) {
        bool seen = false;
        for (size_t k = 0; k < nspecs && !seen; k++)
            seen = specs[k] == in[i]->partition_spec_id;
        if (!seen) {
            if (nspecs == FLOE_ARRAY_LEN(specs))
                return floe__error(FLOE_EUNSUPPORTED, "table", "more than 64 partition specs");
            specs[nspecs++] = in[i]->partition_spec_id;
        }
    }
    /* descending spec id, as Java's TreeMap(reverseOrder) */
    for (size_t i = 1; i < nspecs; i++)
        for (size_t k = i; k > 0 && specs[k] > specs[k - 1]; k--) {
            int32_t tmp = specs[k];
            specs[k] = specs[k - 1];
            specs[k - 1] = tmp;
        }
    const floe_manifest_file **group = floe__malloc(n * sizeof(floe_manifest_file *));
    size_t *bin_start = floe__malloc((n + 1) * sizeof *bin_start);
    if (!group || !bin_start) {
        floe__free(group);
        floe__free(bin_start);
        return floe__error_nomem();
    }
    int rc = 0;
    for (size_t s = 0; rc == 0 && s < nspecs; s++) {
        size_t g = 0;
        for (size_t i = 0; i < n; i++)
            if (in[i]->partition_spec_id == specs[s])
                group[g++] = in[i];
        /* packEnd with lookback 1: walk from the end, closing the open
         * bin when the next manifest does not fit; bins stay contiguous */
        size_t nb = 0;
        int64_t size = 0;
        for (size_t i = g; i-- > 0;) {
            int64_t len = group[i]->manifest_length;
            if (size > 0 && size + len > target) {
                bin_start[nb++] = i + 1;
                size = 0;
            }
            size += len;
        }
        bin_start[nb++] = 0;
        /* bin_start holds bin starts from the last bin to the first */
        for (size_t b = nb; rc == 0 && b-- > 0;) {
            size_t from = bin_start[b];
            size_t to = b > 0 ? bin_start[b - 1] : g;
            size_t cnt = to - from;
            bool has_first = a->new_mf && from == 0 && group[0] == in[0];
            if (cnt == 1 || (has_first && (int64_t)cnt < min_count)) {
                for (size_t k = from; k < to && rc == 0; k++) {
                    const floe_manifest_file **slot = floe__vec_push(out);
                    if (!slot)
                        rc = floe__error_nomem();
                    else
                        *slot = group[k];
                }
            } else if (cnt > 1) {
                floe_manifest_file *merged = NULL;
                rc = merge_bin(a, m, c, specs[s], &group[from], cnt, &merged);
                const floe_manifest_file **slot = rc == 0 ? floe__vec_push(out) : NULL;
                if (rc == 0 && !slot)
                    rc = floe__error_nomem();
                if (rc == 0)
                    *slot = merged;
            }
        }
    }
    floe__free(group);
    floe__free(bin_start);
    return rc;
}

/* ---------------------------------------------------------------- summary */

/* Java's SnapshotSummary for an append of data files. */
static int build_summary(floe_append *a, const floe_table_metadata *base,
                         const floe_snapshot *parent, floe_table_change *c, floe_vec *kv,
                         bool staged_wap)
{
    floe_summary_counts n;
    memset(&n, 0, sizeof n);
    floe_partition_set parts;
    int rc = floe__partition_set_init(&parts);
    for (size_t i = 0; rc == 0 && i < a->files.len; i++) {
        const floe_data_file *d = &((floe_data_file *)a->files.items)[i];
        n.added_files++;
        n.added_records += d->record_count;
        n.added_size += d->file_size_in_bytes;
        rc = floe__partition_set_add(&parts, base, a->spec_id, &d->partition);
    }
    floe_summary_options o = {0};
    o.operation = "append";
    o.extra = &a->extra;
    o.wap_id = staged_wap ? a->t->wap_id : NULL;
    o.changed_partitions = floe__partition_set_count(&parts);
    floe__partition_set_free(&parts);
    if (rc == 0)
        rc = floe__producer_summary(c, kv, &o, &n, parent);
    return rc;
}

/* ---------------------------------------------------------------- commit */

static int append_prepare(const floe_table_metadata *base, floe_table_change *c, void *payload)
{
    floe_append *a = payload;
    if (a->validate)
        FLOE_TRY(a->validate(base, a->validate_payload));
    FLOE_TRY(floe__producer_begin(&a->prod, base));
    if (!a->new_mf)
        FLOE_TRY(write_new_manifest(a, base));
    const char *branch = a->target ? a->target : a->t->branch;
    bool wap_enabled = false;
    FLOE_TRY(floe__props_get_bool(&base->properties, "write.wap.enabled", false, &wap_enabled));
    bool stage = wap_enabled && a->t->wap_id != NULL && !a->no_stage;
    const floe_snapshot_ref *head = floe__metadata_ref(base, branch), *from = NULL;
    FLOE_TRY(floe__table_write_head(base, branch, !a->target && a->t->create_branch, &from));
    const floe_snapshot *parent = from ? floe__metadata_snapshot(base, from->snapshot_id) : NULL;

    /* the parent's manifests */
    floe_buf pdata = FLOE_BUF_INIT;
    floe_manifest_list *plist = NULL;
    int rc = parent ? floe__producer_read_list(&a->prod, parent, &pdata, &plist) : 0;
    size_t nin = 1 + (plist ? plist->nentries : 0);
    const floe_manifest_file **in =
        rc == 0 ? floe__malloc(nin * sizeof(floe_manifest_file *)) : NULL;
    if (rc == 0 && !in)
        rc = floe__error_nomem();
    floe_vec manifests = FLOE_VEC_INIT(const floe_manifest_file *);
    if (rc == 0) {
        /* Data manifests are merged (Java's mergeManager); delete manifests
         * never go into a data manifest: they follow, carried over as they
         * are (Java merges them apart, in its deleteMergeManager). */
        size_t ndata = 0;
        in[ndata++] = a->new_mf;
        for (size_t i = 0; plist && i < plist->nentries; i++)
            if (plist->entries[i].content == FLOE_MANIFEST_DATA &&
                floe__manifest_has_live(&plist->entries[i]))
                in[ndata++] = &plist->entries[i];
        size_t ndel = ndata;
        for (size_t i = 0; plist && i < plist->nentries; i++)
            if (plist->entries[i].content != FLOE_MANIFEST_DATA &&
                floe__manifest_has_live(&plist->entries[i]))
                in[ndel++] = &plist->entries[i];
        rc = merge_manifests(a, base, c, in, ndata, &manifests);
        for (size_t i = ndata; rc == 0 && i < ndel; i++) {
            const floe_manifest_file **slot = floe__vec_push(&manifests);
            if (!slot)
                rc = floe__error_nomem();
            else
                *slot = in[i];
        }
    }
    floe_vec kv = FLOE_VEC_INIT(floe_kv);
    floe_producer_snapshot ps = {0};
    if (rc == 0)
        rc = build_summary(a, base, parent, c, &kv, stage);
    ps.parent = parent;
    ps.manifests = &manifests;
    ps.summary = &kv;
    ps.branch = branch;
    ps.head = head;
    ps.stage = stage;
    if (rc == 0)
        rc = floe__producer_commit(&a->prod, c, base, &ps);
    floe__vec_free(&kv);
    floe__vec_free(&manifests);
    floe__free(in);
    floe_manifest_list_free(plist);
    floe__buf_free(&pdata);
    return rc;
}

int floe_append_commit(int64_t *snapshot_id, floe_append *a)
{
    if (snapshot_id)
        *snapshot_id = -1;
    if (!a)
        return floe__error(FLOE_EINVALID, "table", "NULL append");
    if (a->done)
        return floe__error(FLOE_EINVALID, "table", "append already committed");
    int rc = 0;
    if (a->writer) {
        rc = floe__data_writer_close(a->writer);
        floe__data_writer_free(a->writer);
        a->writer = NULL;
        if (rc < 0)
            return rc;
    }
    if (a->files.len == 0) {
        a->done = true;
        return 0;
    }
    rc = floe__table_commit(a->t, append_prepare, a);
    if (rc == 0 || rc == FLOE_ECOMMITUNKNOWN) {
        a->done = true; /* keep every file */
        if (rc == 0 && snapshot_id)
            *snapshot_id = a->prod.snapshot_id;
        return rc;
    }
    floe__paths_remove(&a->own_files, a->t->io);
    a->done = true;
    return rc;
}
