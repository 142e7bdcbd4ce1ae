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
#include "table/table.h"

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
    char commit_uuid[37];
    int64_t snapshot_id;
    int next_manifest;  /* N of <uuid>-m<N>.avro */
    floe_vec own_files; /* char* (heap): data files and manifests of this append */
    floe_manifest_file new_mf;
    bool have_new_mf;
    int attempt;
    bool done;
    floe_data_writer *writer;
    const char *target;  /* branch override (cherry-pick: main); NULL = the handle's */
    bool no_stage;       /* never stage (cherry-pick publishes) */
    int (*validate)(const floe_table_metadata *base, void *payload);
    void *validate_payload;
    int64_t target_size; /* > 0: rolls data files here, not at the table property */
    bool sort_set;                /* floe__append_set_sort_order was called */
    const floe_sort_order *sort;  /* then: the write order (NULL: unsorted) */
};

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
    return a->snapshot_id;
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

static int copy_manifest_file(floe_arena *a, floe_manifest_file *d, const floe_manifest_file *s)
{
    *d = *s;
    if (!(d->manifest_path = floe__arena_strdup(a, s->manifest_path)))
        return floe__error_nomem();
    if (s->npartitions) {
        floe_field_summary *p = floe__arena_alloc(a, s->npartitions * sizeof *p);
        if (!p)
            return floe__error_nomem();
        for (size_t i = 0; i < s->npartitions; i++) {
            p[i] = s->partitions[i];
            if (p[i].lower_bound.set &&
                !(p[i].lower_bound.ptr = dup_bytes(a, s->partitions[i].lower_bound.ptr,
                                                   s->partitions[i].lower_bound.len)))
                return floe__error_nomem();
            if (p[i].upper_bound.set &&
                !(p[i].upper_bound.ptr = dup_bytes(a, s->partitions[i].upper_bound.ptr,
                                                   s->partitions[i].upper_bound.len)))
                return floe__error_nomem();
        }
        d->partitions = p;
    }
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
        rc = floe__uuid4(a->commit_uuid);
    if (rc == 0)
        rc = floe__snapshot_id(&a->snapshot_id);
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

floe_avro_codec floe__table_avro_codec(const floe_table_metadata *m)
{
    const char *c = floe__props_get(&m->properties, "write.avro.compression-codec");
    if (!c || strcmp(c, "gzip") == 0)
        return FLOE_AVRO_CODEC_DEFLATE; /* Java's default */
    floe_avro_codec out;
    if (strcmp(c, "uncompressed") == 0)
        return FLOE_AVRO_CODEC_NULL;
    if (floe_avro_codec_from_name(c, strlen(c), &out) == 0)
        return out;
    return FLOE_AVRO_CODEC_DEFLATE;
}

/* Partition fields (id, name, result type) and the `partition-spec` header. */
static int spec_fields(const floe_table_metadata *m, const floe_partition_spec *spec,
                       floe_arena *ar, floe_manifest_partition_field **out, floe_buf *json)
{
    const floe_schema *schema = floe__metadata_current_schema(m);
    floe_manifest_partition_field *pf =
        floe__arena_calloc(ar, spec->nfields ? spec->nfields : 1, sizeof *pf);
    if (!pf)
        return floe__error_nomem();
    FLOE_TRY(floe__buf_putc(json, '['));
    for (size_t i = 0; i < spec->nfields; i++) {
        const floe_partition_field *f = &spec->fields[i];
        const floe_field *src = floe__schema_field_by_id(schema, f->source_id);
        const floe_type *rt = src ? floe_transform_result_type(&f->transform, src->type) : NULL;
        if (!rt)
            return floe__error(FLOE_EINVALID, "table",
                               "partition field %s: source %d missing or transform not applicable",
                               f->name, (int)f->source_id);
        pf[i].field_id = f->field_id;
        pf[i].name = f->name;
        pf[i].type = rt;
        FLOE_TRY(floe__buf_printf(json, "%s{\"name\":", i ? "," : ""));
        FLOE_TRY(floe__json_put_str(json, f->name));
        FLOE_TRY(floe__buf_puts(json, ",\"transform\":\""));
        FLOE_TRY(floe__transform_format(&f->transform, json));
        FLOE_TRY(floe__buf_printf(json, "\",\"source-id\":%d,\"field-id\":%d}", (int)f->source_id,
                                  (int)f->field_id));
    }
    FLOE_TRY(floe__buf_putc(json, ']'));
    *out = pf;
    return 0;
}

typedef struct mwriter {
    floe_manifest_writer *w;
    floe_buf bytes;
    floe_buf spec_json, schema_json;
    char *path;
} mwriter;

static int mwriter_open(floe_append *a, const floe_table_metadata *m, int32_t spec_id,
                        mwriter *mw)
{
    memset(mw, 0, sizeof *mw);
    const floe_partition_spec *spec = floe__metadata_spec(m, spec_id);
    if (!spec)
        return floe__error(FLOE_EINVALID, "table", "unknown partition spec %d", (int)spec_id);
    floe_manifest_partition_field *pf = NULL;
    FLOE_TRY(spec_fields(m, spec, a->arena, &pf, &mw->spec_json));
    FLOE_TRY(floe__schema_to_json(floe__metadata_current_schema(m), &mw->schema_json));
    const char *dir = floe__props_get(&m->properties, "write.metadata.path");
    mw->path = dir ? floe__sprintf("%s/%s-m%d.avro", dir, a->commit_uuid, a->next_manifest)
                   : floe__sprintf("%s/metadata/%s-m%d.avro", m->location, a->commit_uuid,
                                   a->next_manifest);
    if (!mw->path)
        return floe__error_nomem();
    a->next_manifest++;
    floe_manifest_writer_options o = {0};
    o.format_version = m->format_version >= 2 ? 2 : 1;
    o.content = FLOE_MANIFEST_DATA;
    o.partition_spec_id = spec_id;
    o.npartition_fields = spec->nfields;
    o.partition_fields = pf;
    o.schema_json = mw->schema_json.ptr;
    o.partition_spec_json = mw->spec_json.ptr;
    o.snapshot_id = a->snapshot_id;
    o.sequence_number = FLOE_SEQ_UNASSIGNED;
    o.manifest_path = mw->path;
    o.codec = floe__table_avro_codec(m);
    o.compression_level = -1;
    return floe_manifest_writer_new(&mw->w, &o, &mw->bytes);
}

/* Finish, write create-new, copy the list entry into the append's arena. */
static int mwriter_close(floe_append *a, mwriter *mw, floe_manifest_file *out)
{
    floe_manifest_file mf;
    int rc = floe_manifest_writer_finish(mw->w, &mf);
    if (rc == 0)
        rc = floe__io_write_new(a->t->io, mw->path, mw->bytes.ptr, mw->bytes.len);
    if (rc == 0)
        rc = floe__append_own_file(a, mw->path);
    if (rc == 0)
        rc = copy_manifest_file(a->arena, out, &mf);
    return rc;
}

static void mwriter_free(mwriter *mw)
{
    floe_manifest_writer_free(mw->w);
    floe__buf_free(&mw->bytes);
    floe__buf_free(&mw->spec_json);
    floe__buf_free(&mw->schema_json);
    floe__free(mw->path);
}

static int write_new_manifest(floe_append *a, const floe_table_metadata *m)
{
    mwriter mw;
    int rc = mwriter_open(a, m, a->spec_id, &mw);
    for (size_t i = 0; rc == 0 && i < a->files.len; i++) {
        floe_manifest_entry e = {0};
        e.status = FLOE_ENTRY_ADDED;
        e.has_snapshot_id = true;
        e.snapshot_id = a->snapshot_id;
        e.sequence_number = FLOE_SEQ_UNASSIGNED;
        e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
        e.data_file = ((floe_data_file *)a->files.items)[i];
        rc = floe_manifest_writer_add(mw.w, &e);
    }
    if (rc == 0)
        rc = mwriter_close(a, &mw, &a->new_mf);
    mwriter_free(&mw);
    if (rc == 0)
        a->have_new_mf = true;
    return rc;
}

/* ---------------------------------------------------------------- merging */

/* Rewrite the manifests of one bin into one (live entries EXISTING with
 * their sequence numbers; this snapshot's ADDED stay ADDED). */
static int merge_bin(floe_append *a, const floe_table_metadata *m, int32_t spec_id,
                     const floe_manifest_file *const *bin, size_t n, floe_manifest_file *out)
{
    mwriter mw;
    int rc = mwriter_open(a, m, spec_id, &mw);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        floe_buf data = FLOE_BUF_INIT;
        floe_manifest *man = NULL;
        rc = floe__io_read_all(a->t->io, bin[i]->manifest_path, (size_t)1 << 31, &data);
        if (rc == 0)
            rc = floe_manifest_read(&man, (const uint8_t *)data.ptr, data.len,
                                    bin[i]->manifest_path, bin[i]);
        for (size_t k = 0; rc == 0 && k < man->nentries; k++) {
            floe_manifest_entry e = man->entries[k];
            bool ours = e.has_snapshot_id && e.snapshot_id == a->snapshot_id;
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
        rc = mwriter_close(a, &mw, out);
    mwriter_free(&mw);
    return rc;
}

/* Java's ManifestMergeManager over the list [new, parent's...]. `in` and
 * the result hold pointers to manifest entries living in a->arena or the
 * parent list (alive until the list is freed). */
static int merge_manifests(floe_append *a, const floe_table_metadata *m,
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
    const floe_manifest_file **group = floe__malloc(n * sizeof *group);
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
            bool has_first = a->have_new_mf && from == 0 && group[0] == in[0];
            if (cnt == 1 || (has_first && (int64_t)cnt < min_count)) {
                for (size_t k = from; k < to && rc == 0; k++) {
                    const floe_manifest_file **slot = floe__vec_push(out);
                    if (!slot)
                        rc = floe__error_nomem();
                    else
                        *slot = group[k];
                }
            } else if (cnt > 1) {
                floe_manifest_file *merged = floe__arena_calloc(a->arena, 1, sizeof *merged);
                if (!merged)
                    rc = floe__error_nomem();
                if (rc == 0)
                    rc = merge_bin(a, m, specs[s], &group[from], cnt, merged);
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

int64_t floe__summary_int(const floe_snapshot *s, const char *key, bool *ok)
{
    const char *v = s ? floe__snapshot_summary(s, key) : NULL;
    *ok = false;
    if (!v || !*v)
        return 0;
    char *end;
    long long n = strtoll(v, &end, 10);
    *ok = *end == '\0';
    return n;
}

int floe__summary_put(floe_table_change *c, floe_vec *kv, const char *k, const char *fmt, ...)
{
    floe_buf tmp = FLOE_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    int rc = floe__buf_vprintf(&tmp, fmt, ap);
    va_end(ap);
    floe_kv *slot = rc == 0 ? floe__vec_push(kv) : NULL;
    if (slot) {
        slot->key = floe__arena_strdup(c->arena, k);
        slot->value = floe__arena_strdup(c->arena, tmp.ptr ? tmp.ptr : "");
    }
    floe__buf_free(&tmp);
    if (rc < 0)
        return rc;
    return slot && slot->key && slot->value ? 0 : floe__error_nomem();
}

/* Java's SnapshotSummary for an append of data files, then the totals
 * updated from the parent's summary (0 when there is no parent). */
static int build_summary(floe_append *a, const floe_snapshot *parent, floe_table_change *c,
                         floe_vec *kv, bool staged_wap)
{
    int64_t files = (int64_t)a->files.len, records = 0, size = 0;
    floe_strmap *parts = floe__strmap_new();
    floe_vec keys = FLOE_VEC_INIT(char *);
    int rc = parts ? 0 : floe__error_nomem();
    const floe_partition_spec *spec = floe__metadata_spec(a->t->metadata, a->spec_id);
    for (size_t i = 0; rc == 0 && i < a->files.len; i++) {
        const floe_data_file *d = &((floe_data_file *)a->files.items)[i];
        records += d->record_count;
        size += d->file_size_in_bytes;
        floe_buf path = FLOE_BUF_INIT;
        if (spec && d->partition.n == spec->nfields)
            rc = floe_partition_path(spec, &d->partition, &path);
        if (rc == 0 && !path.ptr)
            rc = floe__buf_puts(&path, "");
        if (rc == 0 && !floe__strmap_has(parts, path.ptr)) {
            char **slot = floe__vec_push(&keys);
            if (!slot) {
                rc = floe__error_nomem();
            } else {
                *slot = floe__buf_detach(&path);
                rc = floe__strmap_put(parts, *slot, NULL);
            }
        }
        floe__buf_free(&path);
    }
    int64_t changed = parts ? (int64_t)floe__strmap_len(parts) : 0;
    floe__strmap_free(parts);
    for (size_t i = 0; i < keys.len; i++)
        floe__free(((char **)keys.items)[i]);
    floe__vec_free(&keys);
    FLOE_TRY(rc);
    FLOE_TRY(floe__summary_put(c, kv, "operation", "append"));
    for (size_t i = 0; i < a->extra.n; i++)
        FLOE_TRY(floe__summary_put(c, kv, a->extra.items[i].key, "%s", a->extra.items[i].value));
    if (staged_wap && a->t->wap_id)
        FLOE_TRY(floe__summary_put(c, kv, "wap.id", "%s", a->t->wap_id));
    if (files > 0)
        FLOE_TRY(floe__summary_put(c, kv, "added-data-files", "%lld", (long long)files));
    if (records > 0)
        FLOE_TRY(floe__summary_put(c, kv, "added-records", "%lld", (long long)records));
    if (size > 0)
        FLOE_TRY(floe__summary_put(c, kv, "added-files-size", "%lld", (long long)size));
    FLOE_TRY(floe__summary_put(c, kv, "changed-partition-count", "%lld", (long long)changed));
    static const struct {
        const char *total;
        int which;
    } totals[] = {{"total-records", 0},        {"total-files-size", 1},
                  {"total-data-files", 2},     {"total-delete-files", 3},
                  {"total-position-deletes", 3}, {"total-equality-deletes", 3}};
    int64_t added[4] = {records, size, files, 0};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(totals); i++) {
        bool ok = true;
        int64_t prev = parent ? floe__summary_int(parent, totals[i].total, &ok) : 0;
        if (ok)
            FLOE_TRY(floe__summary_put(c, kv, totals[i].total, "%lld",
                            (long long)(prev + added[totals[i].which])));
    }
    return 0;
}

/* ---------------------------------------------------------------- commit */

static int append_prepare(const floe_table_metadata *base, floe_table_change *c, void *payload)
{
    floe_append *a = payload;
    if (a->validate)
        FLOE_TRY(a->validate(base, a->validate_payload));
    a->attempt++;
    if (!a->have_new_mf)
        FLOE_TRY(write_new_manifest(a, base));
    const char *branch = a->target ? a->target : a->t->branch;
    bool wap_enabled = false;
    FLOE_TRY(floe__props_get_bool(&base->properties, "write.wap.enabled", false, &wap_enabled));
    bool stage = wap_enabled && a->t->wap_id != NULL && !a->no_stage;
    const floe_snapshot_ref *head = floe__metadata_ref(base, branch), *from = NULL;
    FLOE_TRY(floe__table_write_head(base, branch, !a->target && a->t->create_branch, &from));
    const floe_snapshot *parent = from ? floe__metadata_snapshot(base, from->snapshot_id) : NULL;
    if (floe__metadata_snapshot(base, a->snapshot_id))
        FLOE_TRY(floe__snapshot_id(&a->snapshot_id)); /* vanishingly rare collision */

    /* the parent's manifests */
    floe_buf pdata = FLOE_BUF_INIT, ppath = FLOE_BUF_INIT;
    floe_manifest_list *plist = NULL;
    const char *parent_list = NULL;
    int rc = parent ? floe__snapshot_manifest_list(parent, &ppath, &parent_list) : 0;
    if (rc < 0) {
    } else if (parent && parent_list) {
        rc = floe__io_read_all(a->t->io, parent_list, (size_t)1 << 31, &pdata);
        if (rc == 0)
            rc = floe_manifest_list_read(&plist, (const uint8_t *)pdata.ptr, pdata.len,
                                         parent_list);
    } else if (parent && parent->n_manifests) {
        rc = floe__error(FLOE_EUNSUPPORTED, "table",
                         "appending to a v1 snapshot without a manifest list is not supported");
    }
    size_t nin = 1 + (plist ? plist->nentries : 0);
    const floe_manifest_file **in = rc == 0 ? floe__malloc(nin * sizeof *in) : NULL;
    if (rc == 0 && !in)
        rc = floe__error_nomem();
    floe_vec manifests = FLOE_VEC_INIT(const floe_manifest_file *);
    if (rc == 0) {
        /* Data manifests are merged (Java's mergeManager); delete manifests
         * never go into a data manifest: they follow, carried over as they
         * are (Java merges them apart, in its deleteMergeManager). */
        size_t ndata = 0;
        in[ndata++] = &a->new_mf;
        for (size_t i = 0; plist && i < plist->nentries; i++)
            if (plist->entries[i].content == FLOE_MANIFEST_DATA)
                in[ndata++] = &plist->entries[i];
        size_t ndel = ndata;
        for (size_t i = 0; plist && i < plist->nentries; i++)
            if (plist->entries[i].content != FLOE_MANIFEST_DATA)
                in[ndel++] = &plist->entries[i];
        size_t before = a->own_files.len;
        rc = merge_manifests(a, base, in, ndata, &manifests);
        for (size_t i = ndata; rc == 0 && i < ndel; i++) {
            const floe_manifest_file **slot = floe__vec_push(&manifests);
            if (!slot)
                rc = floe__error_nomem();
            else
                *slot = in[i];
        }
        /* merged manifests belong to this attempt only */
        for (size_t i = before; rc == 0 && i < a->own_files.len; i++) {
            const char **slot = floe__vec_push(&c->written);
            char *copy = floe__arena_strdup(c->arena, ((char **)a->own_files.items)[i]);
            if (!slot || !copy)
                rc = floe__error_nomem();
            else
                *slot = copy;
        }
        floe__paths_truncate(&a->own_files, before);
    }
    /* manifest list */
    int64_t seq = base->format_version >= 2 ? base->last_sequence_number + 1 : 0;
    char *list_path = NULL;
    if (rc == 0)
        rc = floe__change_write_list(c, a->t->io, base, a->snapshot_id, a->attempt, a->commit_uuid,
                                     parent, seq, &manifests, &list_path);
    floe__vec_free(&manifests);
    floe__free(in);
    /* snapshot */
    floe_vec kv = FLOE_VEC_INIT(floe_kv);
    if (rc == 0)
        rc = build_summary(a, parent, c, &kv, stage);
    if (rc == 0) {
        int64_t rows = 0;
        for (size_t i = 0; i < a->files.len; i++)
            rows += ((floe_data_file *)a->files.items)[i].record_count;
        rc = floe__change_add_snapshot(c, base, a->snapshot_id, parent, seq, list_path, &kv, rows);
    }
    floe__vec_free(&kv);
    if (rc == 0)
        rc = floe__change_advance_branch(c, base, branch, head, stage ? -1 : a->snapshot_id);
    floe_manifest_list_free(plist);
    floe__buf_free(&pdata);
    floe__buf_free(&ppath);
    return rc;
}

int floe__change_write_list(floe_table_change *c, floe_fileio *io,
                            const floe_table_metadata *base, int64_t snapshot_id, int attempt,
                            const char *commit_uuid, const floe_snapshot *parent, int64_t seq,
                            const floe_vec *manifests, char **list_path)
{
    const char *dir = floe__props_get(&base->properties, "write.metadata.path");
    char *path = dir ? floe__arena_sprintf(c->arena, "%s/snap-%lld-%d-%s.avro", dir,
                                           (long long)snapshot_id, attempt, commit_uuid)
                     : floe__arena_sprintf(c->arena, "%s/metadata/snap-%lld-%d-%s.avro",
                                           base->location, (long long)snapshot_id, attempt,
                                           commit_uuid);
    if (!path)
        return floe__error_nomem();
    floe_manifest_list_writer_options lo = {0};
    lo.format_version = base->format_version >= 2 ? 2 : 1;
    lo.snapshot_id = snapshot_id;
    lo.has_parent_snapshot_id = parent != NULL;
    lo.parent_snapshot_id = parent ? parent->snapshot_id : 0;
    lo.sequence_number = seq;
    lo.codec = floe__table_avro_codec(base);
    lo.compression_level = -1;
    floe_buf bytes = FLOE_BUF_INIT;
    floe_manifest_list_writer *lw = NULL;
    int rc = floe_manifest_list_writer_new(&lw, &lo, &bytes);
    for (size_t i = 0; rc == 0 && i < manifests->len; i++)
        rc = floe_manifest_list_writer_add(lw, ((const floe_manifest_file **)manifests->items)[i]);
    if (rc == 0)
        rc = floe_manifest_list_writer_finish(lw);
    floe_manifest_list_writer_free(lw);
    if (rc == 0)
        rc = floe__io_write_new(io, path, bytes.ptr, bytes.len);
    floe__buf_free(&bytes);
    const char **slot = rc == 0 ? floe__vec_push(&c->written) : NULL;
    if (rc == 0 && !slot)
        rc = floe__error_nomem();
    if (rc < 0)
        return rc;
    *slot = path;
    *list_path = path;
    return 0;
}

int floe__change_add_snapshot(floe_table_change *c, const floe_table_metadata *base,
                              int64_t snapshot_id, const floe_snapshot *parent, int64_t seq,
                              const char *list_path, const floe_vec *kv, int64_t added_rows)
{
    floe_table_update *u = floe__change_update(c, FLOE_UPD_ADD_SNAPSHOT);
    floe_kv *kvs =
        kv->len ? floe__arena_memdup(c->arena, kv->items, kv->len * sizeof(floe_kv)) : NULL;
    if (!u || (kv->len && !kvs))
        return floe__error_nomem();
    floe_snapshot *s = &u->snapshot;
    s->snapshot_id = snapshot_id;
    s->has_parent = parent != NULL;
    s->parent_snapshot_id = parent ? parent->snapshot_id : 0;
    s->sequence_number = seq;
    /* never before the base's last update (clocks of other writers) */
    s->timestamp_ms = floe__now_ms();
    if (s->timestamp_ms < base->last_updated_ms)
        s->timestamp_ms = base->last_updated_ms;
    s->has_schema_id = true;
    s->schema_id = base->current_schema_id;
    if (base->format_version >= 3) {
        s->has_first_row_id = true;
        s->first_row_id = base->has_next_row_id ? base->next_row_id : 0;
        s->has_added_rows = true;
        s->added_rows = added_rows;
    }
    FLOE_TRY(floe__snapshot_pack_manifest_list(s, c->arena, list_path));
    return floe__snapshot_pack_summary(s, c->arena, kvs, kv->len);
}

int floe__change_advance_branch(floe_table_change *c, const floe_table_metadata *base,
                                const char *branch, const floe_snapshot_ref *head,
                                int64_t snapshot_id)
{
    FLOE_TRY(floe__change_assert_ref(c, base, branch));
    if (snapshot_id < 0)
        return 0;
    floe_snapshot_ref r = {0};
    if (head)
        r = *head;
    r.name = branch;
    r.type = FLOE_REF_BRANCH;
    r.snapshot_id = snapshot_id;
    return floe__change_set_ref(c, &r);
}

int floe_append_commit(floe_append *a, int64_t *snapshot_id)
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
            *snapshot_id = a->snapshot_id;
        return rc;
    }
    floe__paths_remove(&a->own_files, a->t->io);
    a->done = true;
    return rc;
}
