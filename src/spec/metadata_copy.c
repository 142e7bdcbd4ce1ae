/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/metadata_copy: a deep copy of a parsed TableMetadata into a fresh
 * arena, the base a metadata builder edits (spec "Table Metadata").
 *
 * A commit at 10,000 snapshots used to copy its base by writing it as JSON
 * and parsing that back, which cost more than the rest of the commit. Here
 * the snapshot array is copied as structs and each snapshot's packed summary
 * and manifest-list (snapshot_pack.c) as bytes; the manifest-list directory,
 * shared by every snapshot of a table, is copied once. Schemas, partition
 * specs and sort orders (a handful, with nested types and defaults) are
 * copied through their JSON reader and writer, the tested path that builds
 * their lookup maps. The result serializes byte for byte like the source.
 */
#include "spec/metadata.h"

#include "spec/spec.h"

#include <string.h>

typedef struct copier {
    floe_strpool pool;
    floe_strmap *dirs; /* manifest-list directory (text) -> copy in the new arena */
    const char *last_old, *last_new;
} copier;

static const char *dup(floe_arena *a, const char *s)
{
    return s ? floe__arena_strdup(a, s) : NULL;
}

/* ---------------------------------------------------------------- snapshots */

/* Bytes of a packed summary, its 0 terminator included. */
static size_t summary_size(const uint8_t *blob)
{
    const uint8_t *it = blob;
    const char *k, *v;
    while (floe__summary_next(&it, &k, &v))
        ;
    return (size_t)(it - blob) + 1;
}

static const char *copy_dir(copier *c, const char *dir)
{
    if (dir == c->last_old)
        return c->last_new;
    const char *have = c->dirs ? floe__strmap_get(c->dirs, dir) : NULL;
    if (!have) {
        char *d = floe__strpool_dup(&c->pool, dir, strlen(dir));
        if (!d || (c->dirs && floe__strmap_put(c->dirs, d, d) < 0))
            return NULL;
        have = d;
    }
    c->last_old = dir;
    c->last_new = have;
    return have;
}

static int copy_snapshot(copier *c, floe_snapshot *d, const floe_snapshot *s)
{
    floe_arena *a = c->pool.a;
    *d = *s;
    if (s->key_id && !(d->key_id = dup(a, s->key_id)))
        return floe__error_nomem();
    if (s->summary_packed) {
        size_t n = summary_size(s->summary_packed);
        uint8_t *blob = (uint8_t *)floe__strpool_alloc(&c->pool, n);
        if (!blob)
            return floe__error_nomem();
        memcpy(blob, s->summary_packed, n);
        d->summary_packed = blob;
        const uint8_t *op = (const uint8_t *)s->operation;
        if (op >= s->summary_packed && op < s->summary_packed + n)
            d->operation = (const char *)blob + (op - s->summary_packed);
        else if (s->operation && !(d->operation = dup(a, s->operation)))
            return floe__error_nomem();
    }
    if (s->manifest_list_packed) {
        /* layout (snapshot_pack.c): directory pointer, flag byte, rest of the name */
        const char *dir;
        memcpy(&dir, s->manifest_list_packed, sizeof dir);
        const char *rest = (const char *)s->manifest_list_packed + sizeof dir + 1;
        size_t n = sizeof dir + 1 + strlen(rest) + 1;
        uint8_t *blob = (uint8_t *)floe__strpool_alloc(&c->pool, n);
        if (!blob || !(dir = copy_dir(c, dir)))
            return floe__error_nomem();
        memcpy(blob, s->manifest_list_packed, n);
        memcpy(blob, &dir, sizeof dir);
        d->manifest_list_packed = blob;
    }
    if (s->n_manifests) {
        const char **v = floe__arena_alloc(a, s->n_manifests * sizeof *v);
        if (!v)
            return floe__error_nomem();
        for (size_t i = 0; i < s->n_manifests; i++)
            if (!(v[i] = dup(a, s->manifests[i])))
                return floe__error_nomem();
        d->manifests = v;
    }
    return 0;
}

int floe__snapshot_copy(floe_snapshot *dst, const floe_snapshot *src, floe_arena *a)
{
    copier c = {{a, NULL, 0}, NULL, NULL, NULL};
    return copy_snapshot(&c, dst, src);
}

/* ---------------------------------------------------------------- statistics */

static int copy_kv(floe_arena *a, const floe_kv **out, const floe_kv *src, size_t n)
{
    *out = NULL;
    if (n == 0)
        return 0;
    floe_kv *kv = floe__arena_alloc(a, n * sizeof *kv);
    if (!kv)
        return floe__error_nomem();
    for (size_t k = 0; k < n; k++) {
        kv[k].key = (char *)dup(a, src[k].key);
        kv[k].value = (char *)dup(a, src[k].value);
        if (!kv[k].key || !kv[k].value)
            return floe__error_nomem();
    }
    *out = kv;
    return 0;
}

int floe__statistics_copy(floe_statistics_file *dst, const floe_statistics_file *src,
                          floe_arena *a)
{
    *dst = *src;
    if (!src->statistics_path)
        return floe__error(FLOE_EINVALID, "metadata", "statistics need a statistics-path");
    if (!(dst->statistics_path = dup(a, src->statistics_path)) ||
        (src->key_metadata && !(dst->key_metadata = dup(a, src->key_metadata))))
        return floe__error_nomem();
    if (src->nblobs == 0)
        return 0;
    floe_blob_metadata *bl = floe__arena_calloc(a, src->nblobs, sizeof *bl);
    if (!bl)
        return floe__error_nomem();
    for (size_t i = 0; i < src->nblobs; i++) {
        const floe_blob_metadata *s = &src->blob_metadata[i];
        bl[i] = *s;
        if (!(bl[i].type = dup(a, s->type)) ||
            (s->nfields &&
             !(bl[i].fields = floe__arena_memdup(a, s->fields, s->nfields * sizeof *s->fields))))
            return floe__error_nomem();
        FLOE_TRY(copy_kv(a, &bl[i].properties, s->properties, s->nproperties));
    }
    dst->blob_metadata = bl;
    return 0;
}

int floe__partition_statistics_copy(floe_partition_statistics_file *dst,
                                    const floe_partition_statistics_file *src, floe_arena *a)
{
    *dst = *src;
    if (!src->statistics_path)
        return floe__error(FLOE_EINVALID, "metadata",
                           "partition statistics need a statistics-path");
    return (dst->statistics_path = dup(a, src->statistics_path)) ? 0 : floe__error_nomem();
}

/* ---------------------------------------------------------------- schemas, specs, orders */

/* Through JSON: the representation every part already has a tested reader
 * and writer for (the reader builds the schema's lookup maps). */
enum part { SCHEMA, SPEC, ORDER };

static int copy_part(enum part kind, const void *src, void *out, floe_arena *a)
{
    floe_buf text = FLOE_BUF_INIT;
    floe_json *j = NULL;
    int rc = kind == SCHEMA ? floe__schema_to_json(src, &text)
             : kind == SPEC ? floe__partition_spec_to_json(src, &text)
                            : floe__sort_order_to_json(src, &text);
    if (rc == 0)
        rc = floe__json_parse(&j, text.ptr, text.len, "copy");
    floe__buf_free(&text);
    if (rc == 0 && kind == SCHEMA)
        rc = floe__schema_from_json(out, j, ((const floe_schema *)src)->schema_id, a);
    else if (rc == 0 && kind == SPEC)
        rc = floe__partition_spec_from_json(out, j, ((const floe_partition_spec *)src)->spec_id,
                                            true, a);
    else if (rc == 0)
        rc = floe__sort_order_from_json(out, j, a);
    floe__json_free(j);
    return rc;
}

int floe__schema_copy(floe_schema **out, const floe_schema *s, floe_arena *a)
{
    return copy_part(SCHEMA, s, out, a);
}

int floe__partition_spec_copy(floe_partition_spec **out, const floe_partition_spec *s,
                              floe_arena *a)
{
    return copy_part(SPEC, s, out, a);
}

int floe__sort_order_copy(floe_sort_order **out, const floe_sort_order *o, floe_arena *a)
{
    return copy_part(ORDER, o, out, a);
}

/* ---------------------------------------------------------------- whole metadata */

static int copy_types(floe_table_metadata *d, const floe_table_metadata *s)
{
    floe_arena *a = d->arena;
    d->schemas = NULL;
    d->specs = NULL;
    d->sort_orders = NULL;
    d->nschemas = d->nspecs = d->nsort_orders = 0; /* what metadata_free releases */
    if (s->nschemas && !(d->schemas = floe__arena_calloc(a, s->nschemas, sizeof(floe_schema *))))
        return floe__error_nomem();
    for (size_t i = 0; i < s->nschemas; i++) {
        FLOE_TRY(floe__schema_copy(&d->schemas[i], s->schemas[i], a));
        d->nschemas = i + 1;
    }
    if (s->nspecs && !(d->specs = floe__arena_calloc(a, s->nspecs, sizeof(floe_partition_spec *))))
        return floe__error_nomem();
    for (size_t i = 0; i < s->nspecs; i++)
        FLOE_TRY(floe__partition_spec_copy(&d->specs[i], s->specs[i], a));
    d->nspecs = s->nspecs;
    if (s->nsort_orders &&
        !(d->sort_orders = floe__arena_calloc(a, s->nsort_orders, sizeof(floe_sort_order *))))
        return floe__error_nomem();
    for (size_t i = 0; i < s->nsort_orders; i++)
        FLOE_TRY(floe__sort_order_copy(&d->sort_orders[i], s->sort_orders[i], a));
    d->nsort_orders = s->nsort_orders;
    return 0;
}

static int copy_snapshots(floe_table_metadata *d, const floe_table_metadata *s)
{
    d->snapshots = NULL;
    d->snapshot_order = NULL;
    size_t n = s->nsnapshots;
    d->nsnapshots = 0;
    if (n == 0)
        return 0;
    if (!(d->snapshots = floe__malloc(n * sizeof *d->snapshots)))
        return floe__error_nomem();
    copier c = {{d->arena, NULL, 0}, floe__strmap_new(), NULL, NULL};
    int rc = c.dirs ? 0 : floe__error_nomem();
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = copy_snapshot(&c, &d->snapshots[i], &s->snapshots[i]);
        d->nsnapshots = i + 1;
    }
    floe__strmap_free(c.dirs);
    FLOE_TRY(rc);
    if (s->snapshot_order &&
        !(d->snapshot_order = floe__malloc(n * sizeof *d->snapshot_order)))
        return floe__error_nomem();
    if (s->snapshot_order)
        memcpy(d->snapshot_order, s->snapshot_order, n * sizeof *d->snapshot_order);
    else
        return floe__metadata_index_snapshots(d);
    return 0;
}

static int copy_refs(floe_table_metadata *d, const floe_table_metadata *s)
{
    d->refs = NULL;
    d->nrefs = 0;
    if (!(d->ref_by_name = floe__strmap_new()))
        return floe__error_nomem();
    if (s->nrefs == 0)
        return 0;
    if (!(d->refs = floe__arena_memdup(d->arena, s->refs, s->nrefs * sizeof *d->refs)))
        return floe__error_nomem();
    d->nrefs = s->nrefs;
    for (size_t i = 0; i < d->nrefs; i++)
        if (!(d->refs[i].name = dup(d->arena, s->refs[i].name)) ||
            floe__strmap_put(d->ref_by_name, d->refs[i].name, &d->refs[i]) < 0)
            return floe__error_nomem();
    return 0;
}

static int copy_logs(floe_table_metadata *d, const floe_table_metadata *s)
{
    floe_arena *a = d->arena;
    d->snapshot_log = NULL;
    d->metadata_log = NULL;
    d->n_metadata_log = 0;
    if (s->n_snapshot_log &&
        !(d->snapshot_log = floe__malloc(s->n_snapshot_log * sizeof *d->snapshot_log)))
        return floe__error_nomem();
    if (s->n_snapshot_log)
        memcpy(d->snapshot_log, s->snapshot_log, s->n_snapshot_log * sizeof *d->snapshot_log);
    if (s->n_metadata_log == 0)
        return 0;
    if (!(d->metadata_log = floe__arena_memdup(a, s->metadata_log,
                                               s->n_metadata_log * sizeof *d->metadata_log)))
        return floe__error_nomem();
    for (size_t i = 0; i < s->n_metadata_log; i++)
        if (!(d->metadata_log[i].metadata_file = dup(a, s->metadata_log[i].metadata_file)))
            return floe__error_nomem();
    d->n_metadata_log = s->n_metadata_log;
    return 0;
}

static int copy_stats(floe_table_metadata *d, const floe_table_metadata *s)
{
    floe_arena *a = d->arena;
    d->statistics = NULL;
    d->partition_statistics = NULL;
    if (s->nstatistics &&
        !(d->statistics = floe__arena_calloc(a, s->nstatistics, sizeof *d->statistics)))
        return floe__error_nomem();
    for (size_t i = 0; i < s->nstatistics; i++)
        FLOE_TRY(floe__statistics_copy(&d->statistics[i], &s->statistics[i], a));
    if (s->npartition_statistics &&
        !(d->partition_statistics = floe__arena_calloc(a, s->npartition_statistics,
                                                       sizeof *d->partition_statistics)))
        return floe__error_nomem();
    for (size_t i = 0; i < s->npartition_statistics; i++)
        FLOE_TRY(floe__partition_statistics_copy(&d->partition_statistics[i],
                                                 &s->partition_statistics[i], a));
    return 0;
}

int floe__metadata_copy(floe_table_metadata **out, const floe_table_metadata *src)
{
    *out = NULL;
    floe_table_metadata *m = floe__calloc(1, sizeof *m);
    if (!m)
        return floe__error_nomem();
    *m = *src;
    /* nothing below is the source's until copied: a failure frees only ours */
    m->properties = (floe_props)FLOE_PROPS_INIT;
    m->ref_by_name = NULL;
    m->snapshots = NULL;
    m->snapshot_log = NULL;
    m->snapshot_order = NULL;
    m->nschemas = 0;
    int rc = (m->arena = floe__arena_new(65536)) ? 0 : floe__error_nomem();
    if (rc == 0 && ((src->table_uuid && !(m->table_uuid = dup(m->arena, src->table_uuid))) ||
                    !(m->location = dup(m->arena, src->location))))
        rc = floe__error_nomem();
    if (rc == 0)
        rc = floe__props_copy(&m->properties, &src->properties);
    if (rc == 0)
        rc = copy_types(m, src);
    if (rc == 0)
        rc = copy_snapshots(m, src);
    if (rc == 0)
        rc = copy_refs(m, src);
    if (rc == 0)
        rc = copy_logs(m, src);
    if (rc == 0)
        rc = copy_stats(m, src);
    if (rc < 0) {
        floe__metadata_free(m);
        return rc;
    }
    *out = m;
    return 0;
}
