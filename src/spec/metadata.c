/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/metadata: reading TableMetadata JSON (spec "Table Metadata Fields",
 * "Snapshots", "Snapshot References", "Table Statistics", "Appendix C").
 *
 * Version rules: v2 requires table-uuid, last-sequence-number, schemas,
 * current-schema-id, partition-specs, default-spec-id, last-partition-id,
 * sort-orders, default-sort-order-id and per-snapshot sequence-number and
 * manifest-list. v1 files may carry only the legacy `schema` and
 * `partition-spec` (field ids then assigned from 1000), snapshots without
 * sequence numbers (0) and with inline `manifests`. Files without `refs` get
 * a `main` branch at current-snapshot-id. Unknown fields are ignored.
 *
 * Snapshots land in a heap array with their summary and manifest-list packed
 * (snapshot_pack.c) and are found by id through a sorted index. The reader
 * state is also driven element by element by the file streamer
 * (metadata_stream.c, through metadata_read.h).
 */
#include "spec/metadata.h"

#include "spec/metadata_read.h"
#include "spec/spec.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- helpers */

typedef struct parser {
    floe_table_metadata *m;
    floe_arena *a;
    const char *what;
    floe_strpool pool;
    floe_strmap *interned; /* summary keys and manifest-list directories repeat: store once */
    floe_kv *kv;           /* scratch for one summary */
    size_t kv_cap;
    size_t snap_cap, log_cap; /* capacity of the heap arrays m->snapshots / m->snapshot_log */
    bool streamed_snapshots, streamed_log; /* filled by the file streamer */
    bool v2_violation; /* a snapshot read before format-version breaks a v2 rule */
} parser;

static const char *intern(parser *p, const char *s, size_t n)
{
    const char *have = floe__strmap_get(p->interned, s);
    if (have)
        return have;
    char *c = floe__strpool_dup(&p->pool, s, n);
    if (!c || floe__strmap_put(p->interned, c, c) < 0)
        return NULL;
    return c;
}

static int invalid(const parser *p, const char *fmt, ...) FLOE_PRINTF(2, 3);
static int invalid(const parser *p, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return floe__error(FLOE_EINVALID, "metadata", "%s: %s", p->what, msg);
}

static int i32_range(const parser *p, int64_t v, const char *field, int32_t *out)
{
    if (v < INT32_MIN || v > INT32_MAX)
        return invalid(p, "field '%s' out of range", field);
    *out = (int32_t)v;
    return 0;
}

/* An ordered string map (summary, blob properties) into the arena. */
static int string_map(parser *p, const floe_json *o, const char *ctx, const floe_kv **out,
                      size_t *n)
{
    *out = NULL;
    *n = floe__json_len(o);
    if (*n == 0)
        return 0;
    floe_kv *kv = floe__arena_alloc(p->a, *n * sizeof *kv);
    if (!kv)
        return floe__error_nomem();
    size_t i = 0;
    const char *key;
    floe_json *v;
    FLOE_JSON_FOREACH((floe_json *)o, key, v) {
        if (!floe__json_is_string(v))
            return invalid(p, "value of '%s' in %s must be a string", key, ctx);
        kv[i].key = (char *)intern(p, key, strlen(key));
        kv[i].value = floe__strpool_dup(&p->pool, floe__json_sval(v), floe__json_slen(v));
        if (!kv[i].key || !kv[i].value)
            return floe__error_nomem();
        i++;
    }
    *out = kv;
    return 0;
}

/* ---------------------------------------------------------------- snapshots */

static int parse_snapshot(parser *p, floe_snapshot *s, const floe_json *j, size_t idx)
{
    char ctx[64];
    snprintf(ctx, sizeof ctx, "snapshot %zu", idx);
    if (!floe__json_is_object(j))
        return invalid(p, "%s must be an object", ctx);
    bool present;
    FLOE_TRY(floe__json_int(j, "snapshot-id", ctx, &s->snapshot_id));
    snprintf(ctx, sizeof ctx, "snapshot %lld", (long long)s->snapshot_id);
    FLOE_TRY(floe__json_int_opt(j, "parent-snapshot-id", ctx, &s->parent_snapshot_id,
                                &s->has_parent));
    FLOE_TRY(floe__json_int_opt(j, "sequence-number", ctx, &s->sequence_number, &present));
    if (!present && p->m->format_version >= 2)
        return invalid(p, "missing required field 'sequence-number' in %s", ctx);
    FLOE_TRY(floe__json_int(j, "timestamp-ms", ctx, &s->timestamp_ms));
    /* Spec Appendix E: tables upgraded from v1 keep their v1 snapshots
     * (sequence number 0), which may list `manifests` and lack a summary. */
    bool v1_era = present && s->sequence_number == 0;
    floe_json *ml = floe__json_get(j, "manifest-list");
    if (ml && !floe__json_is_null(ml)) {
        if (!floe__json_is_string(ml))
            return invalid(p, "field 'manifest-list' in %s must be a string", ctx);
        const char *path = floe__json_sval(ml);
        size_t len = strlen(path), dlen = 0;
        for (size_t i = len; i > 0; i--)
            if (path[i - 1] == '/') {
                dlen = i;
                break;
            }
        const char *dir = NULL;
        char tmp[512];
        if (dlen < sizeof tmp) {
            memcpy(tmp, path, dlen);
            tmp[dlen] = '\0';
            if (!(dir = intern(p, tmp, dlen)))
                return floe__error_nomem();
        }
        FLOE_TRY(floe__manifest_list_pack_pool(s, &p->pool, path, len, dir));
    }
    floe_json *manifests;
    FLOE_TRY(floe__json_array_opt(j, "manifests", ctx, &manifests));
    if (!s->manifest_list_packed) {
        if ((p->m->format_version >= 2 && !v1_era) || !manifests)
            return invalid(p, "missing required field 'manifest-list' in %s", ctx);
        size_t n = floe__json_len(manifests);
        const char **v = floe__arena_calloc(p->a, n ? n : 1, sizeof *v);
        if (!v)
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++) {
            floe_json *e = floe__json_at(manifests, i);
            if (!floe__json_is_string(e))
                return invalid(p, "field 'manifests' in %s must hold strings", ctx);
            if (!(v[i] = floe__arena_strdup(p->a, floe__json_sval(e))))
                return floe__error_nomem();
        }
        if (n > UINT32_MAX)
            return invalid(p, "too many manifests in %s", ctx);
        s->n_manifests = (uint32_t)n;
        s->manifests = v;
    }
    floe_json *summary;
    FLOE_TRY(floe__json_object_opt(j, "summary", ctx, &summary));
    if (summary) {
        size_t n = floe__json_len(summary);
        if (n > p->kv_cap) {
            floe_kv *kv = floe__realloc(p->kv, n * sizeof *kv);
            if (!kv)
                return floe__error_nomem();
            p->kv = kv;
            p->kv_cap = n;
        }
        size_t i = 0;
        const char *key;
        floe_json *v;
        FLOE_JSON_FOREACH(summary, key, v) {
            if (!floe__json_is_string(v))
                return invalid(p, "value of '%s' in %s must be a string", key, ctx);
            p->kv[i].key = (char *)key;
            p->kv[i].value = (char *)floe__json_sval(v);
            i++;
        }
        FLOE_TRY(floe__summary_pack_pool(s, &p->pool, p->kv, n));
    }
    if (p->m->format_version >= 2 && !v1_era && !s->operation)
        return invalid(p, "missing required field '%s' in %s",
                       summary ? "summary.operation" : "summary", ctx);
    /* Streamed before format-version was seen (PyIceberg writes it last):
     * remember whether the v2 rules would fail; checked once it is known. */
    if (p->m->format_version == 0 &&
        (!present || (!v1_era && (!s->manifest_list_packed || !s->operation))))
        p->v2_violation = true;
    int64_t v;
    FLOE_TRY(floe__json_int_opt(j, "schema-id", ctx, &v, &s->has_schema_id));
    if (s->has_schema_id)
        FLOE_TRY(i32_range(p, v, "schema-id", &s->schema_id));
    FLOE_TRY(floe__json_int_opt(j, "first-row-id", ctx, &s->first_row_id, &s->has_first_row_id));
    FLOE_TRY(floe__json_int_opt(j, "added-rows", ctx, &s->added_rows, &s->has_added_rows));
    FLOE_TRY(floe__json_str_opt(j, "key-id", ctx, p->a, &s->key_id));
    return 0;
}

static int parse_ref(parser *p, floe_snapshot_ref *r, const char *name, const floe_json *j)
{
    char ctx[160];
    snprintf(ctx, sizeof ctx, "ref '%.120s'", name);
    if (!floe__json_is_object(j))
        return invalid(p, "%s must be an object", ctx);
    if (!(r->name = floe__arena_strdup(p->a, name)))
        return floe__error_nomem();
    FLOE_TRY(floe__json_int(j, "snapshot-id", ctx, &r->snapshot_id));
    const char *type;
    FLOE_TRY(floe__json_str(j, "type", ctx, p->a, &type));
    if (strcmp(type, "branch") == 0)
        r->type = FLOE_REF_BRANCH;
    else if (strcmp(type, "tag") == 0)
        r->type = FLOE_REF_TAG;
    else
        return invalid(p, "field 'type' in %s must be 'branch' or 'tag', not '%s'", ctx, type);
    int64_t v;
    FLOE_TRY(floe__json_int_opt(j, "min-snapshots-to-keep", ctx, &v, &r->has_min_snapshots_to_keep));
    if (r->has_min_snapshots_to_keep)
        FLOE_TRY(i32_range(p, v, "min-snapshots-to-keep", &r->min_snapshots_to_keep));
    FLOE_TRY(floe__json_int_opt(j, "max-snapshot-age-ms", ctx, &r->max_snapshot_age_ms,
                                &r->has_max_snapshot_age_ms));
    FLOE_TRY(floe__json_int_opt(j, "max-ref-age-ms", ctx, &r->max_ref_age_ms,
                                &r->has_max_ref_age_ms));
    if (r->type == FLOE_REF_TAG && (r->has_min_snapshots_to_keep || r->has_max_snapshot_age_ms))
        return invalid(p, "%s: tags cannot set min-snapshots-to-keep or max-snapshot-age-ms", ctx);
    return 0;
}

static int parse_statistics(parser *p, floe_statistics_file *s, const floe_json *j)
{
    const char *ctx = "statistics";
    if (!floe__json_is_object(j))
        return invalid(p, "statistics entries must be objects");
    FLOE_TRY(floe__json_int(j, "snapshot-id", ctx, &s->snapshot_id));
    FLOE_TRY(floe__json_str(j, "statistics-path", ctx, p->a, &s->statistics_path));
    FLOE_TRY(floe__json_int(j, "file-size-in-bytes", ctx, &s->file_size_in_bytes));
    FLOE_TRY(floe__json_int(j, "file-footer-size-in-bytes", ctx, &s->file_footer_size_in_bytes));
    FLOE_TRY(floe__json_str_opt(j, "key-metadata", ctx, p->a, &s->key_metadata));
    floe_json *blobs;
    FLOE_TRY(floe__json_array_opt(j, "blob-metadata", ctx, &blobs));
    size_t n = blobs ? floe__json_len(blobs) : 0;
    floe_blob_metadata *b = floe__arena_calloc(p->a, n ? n : 1, sizeof *b);
    if (!b)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const floe_json *e = floe__json_at(blobs, i);
        const char *bctx = "statistics blob-metadata";
        if (!floe__json_is_object(e))
            return invalid(p, "blob-metadata entries must be objects");
        FLOE_TRY(floe__json_str(e, "type", bctx, p->a, &b[i].type));
        FLOE_TRY(floe__json_int(e, "snapshot-id", bctx, &b[i].snapshot_id));
        FLOE_TRY(floe__json_int(e, "sequence-number", bctx, &b[i].sequence_number));
        floe_json *fields;
        FLOE_TRY(floe__json_array_opt(e, "fields", bctx, &fields));
        if (!fields)
            return invalid(p, "missing required field 'fields' in %s", bctx);
        size_t nf = floe__json_len(fields);
        int32_t *f = floe__arena_calloc(p->a, nf ? nf : 1, sizeof *f);
        if (!f)
            return floe__error_nomem();
        for (size_t k = 0; k < nf; k++) {
            floe_json *x = floe__json_at(fields, k);
            if (!floe__json_is_integer(x))
                return invalid(p, "field 'fields' in %s must hold integers", bctx);
            f[k] = (int32_t)floe__json_ival(x);
        }
        b[i].nfields = nf;
        b[i].fields = f;
        floe_json *props;
        FLOE_TRY(floe__json_object_opt(e, "properties", bctx, &props));
        if (props)
            FLOE_TRY(string_map(p, props, bctx, &b[i].properties, &b[i].nproperties));
    }
    s->nblobs = n;
    s->blob_metadata = b;
    return 0;
}

/* Entry points for single objects (REST update payloads): the strings go
 * into the metadata's arena. */
int floe__snapshot_from_json(floe_snapshot *out, const floe_json *j, floe_table_metadata *m)
{
    memset(out, 0, sizeof *out);
    parser p = {m, m->arena, "snapshot", {m->arena, NULL, 0}, floe__strmap_new(), NULL, 0, 0, 0,
                false, false, false};
    int rc = p.interned ? parse_snapshot(&p, out, j, 0) : floe__error_nomem();
    floe__strmap_free(p.interned);
    floe__free(p.kv);
    return rc;
}

int floe__statistics_from_json(floe_statistics_file *out, const floe_json *j,
                               floe_table_metadata *m)
{
    memset(out, 0, sizeof *out);
    /* blob properties are interned like every string map */
    parser p = {m, m->arena, "statistics", {m->arena, NULL, 0}, floe__strmap_new(), NULL, 0, 0, 0,
                false, false, false};
    int rc = p.interned ? parse_statistics(&p, out, j) : floe__error_nomem();
    floe__strmap_free(p.interned);
    floe__free(p.kv);
    return rc;
}

/* ---------------------------------------------------------------- top level */

/* Array member under its spec name, or a legacy alias some writers used. */
static int array_member(parser *p, const floe_json *root, const char *key, const char *alias,
                        floe_json **out)
{
    FLOE_TRY(floe__json_array_opt(root, key, "table metadata", out));
    if (!*out && alias)
        FLOE_TRY(floe__json_array_opt(root, alias, "table metadata", out));
    (void)p;
    return 0;
}

static int parse_schemas(parser *p, const floe_json *root)
{
    floe_table_metadata *m = p->m;
    floe_json *schemas;
    FLOE_TRY(floe__json_array_opt(root, "schemas", "table metadata", &schemas));
    if (schemas && floe__json_len(schemas) > 0) {
        size_t n = floe__json_len(schemas);
        if (!(m->schemas = floe__arena_calloc(p->a, n, sizeof(floe_schema *))))
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++) {
            int rc = floe__schema_from_json(&m->schemas[i], floe__json_at(schemas, i), 0, p->a);
            if (rc < 0)
                return floe__error_context("%s: schemas[%zu]", p->what, i);
            m->nschemas = i + 1;
            for (size_t k = 0; k < i; k++)
                if (m->schemas[k]->schema_id == m->schemas[i]->schema_id)
                    return invalid(p, "duplicate schema-id %d", (int)m->schemas[i]->schema_id);
        }
        if (m->format_version >= 2 || floe__json_get(root, "current-schema-id"))
            return floe__json_i32(root, "current-schema-id", "table metadata",
                                  &m->current_schema_id);
        m->current_schema_id = m->schemas[0]->schema_id;
    } else {
        if (m->format_version >= 2)
            return invalid(p, "missing required field 'schemas'");
        floe_json *legacy = floe__json_get(root, "schema");
        if (!legacy)
            return invalid(p, "missing required field 'schema'");
        if (!(m->schemas = floe__arena_calloc(p->a, 1, sizeof(floe_schema *))))
            return floe__error_nomem();
        int rc = floe__schema_from_json(&m->schemas[0], legacy, 0, p->a);
        if (rc < 0)
            return floe__error_context("%s: schema", p->what);
        m->nschemas = 1;
        m->current_schema_id = m->schemas[0]->schema_id;
    }
    if (!floe__metadata_schema(m, m->current_schema_id))
        return invalid(p, "current-schema-id %d is not in schemas", (int)m->current_schema_id);
    return 0;
}

static int parse_specs(parser *p, const floe_json *root)
{
    floe_table_metadata *m = p->m;
    floe_json *specs;
    FLOE_TRY(floe__json_array_opt(root, "partition-specs", "table metadata", &specs));
    if (specs && floe__json_len(specs) > 0) {
        size_t n = floe__json_len(specs);
        if (!(m->specs = floe__arena_calloc(p->a, n, sizeof(floe_partition_spec *))))
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++) {
            int rc = floe__partition_spec_from_json(&m->specs[i], floe__json_at(specs, i), 0,
                                                    m->format_version >= 2, p->a);
            if (rc < 0)
                return floe__error_context("%s: partition-specs[%zu]", p->what, i);
            m->nspecs = i + 1;
            for (size_t k = 0; k < i; k++)
                if (m->specs[k]->spec_id == m->specs[i]->spec_id)
                    return invalid(p, "duplicate spec-id %d", (int)m->specs[i]->spec_id);
        }
        if (m->format_version >= 2 || floe__json_get(root, "default-spec-id"))
            FLOE_TRY(floe__json_i32(root, "default-spec-id", "table metadata", &m->default_spec_id));
        else
            m->default_spec_id = m->specs[0]->spec_id;
    } else {
        if (m->format_version >= 2)
            return invalid(p, "missing required field 'partition-specs'");
        floe_json *legacy;
        FLOE_TRY(floe__json_array_opt(root, "partition-spec", "table metadata", &legacy));
        if (!legacy)
            return invalid(p, "missing required field 'partition-spec'");
        if (!(m->specs = floe__arena_calloc(p->a, 1, sizeof(floe_partition_spec *))))
            return floe__error_nomem();
        int rc = floe__partition_spec_from_json(&m->specs[0], legacy, 0, false, p->a);
        if (rc < 0)
            return floe__error_context("%s: partition-spec", p->what);
        m->nspecs = 1;
        m->default_spec_id = 0;
    }
    if (!floe__metadata_spec(m, m->default_spec_id))
        return invalid(p, "default-spec-id %d is not in partition-specs", (int)m->default_spec_id);
    int32_t highest = 999;
    for (size_t i = 0; i < m->nspecs; i++)
        for (size_t k = 0; k < m->specs[i]->nfields; k++)
            if (m->specs[i]->fields[k].field_id > highest)
                highest = m->specs[i]->fields[k].field_id;
    int64_t v;
    bool present;
    FLOE_TRY(floe__json_int_opt(root, "last-partition-id", "table metadata", &v, &present));
    if (!present && m->format_version >= 2)
        return invalid(p, "missing required field 'last-partition-id'");
    if (present)
        FLOE_TRY(i32_range(p, v, "last-partition-id", &m->last_partition_id));
    else
        m->last_partition_id = highest;
    return 0;
}

static int parse_sort_orders(parser *p, const floe_json *root)
{
    floe_table_metadata *m = p->m;
    floe_json *orders;
    FLOE_TRY(floe__json_array_opt(root, "sort-orders", "table metadata", &orders));
    size_t n = orders ? floe__json_len(orders) : 0;
    if (n == 0) {
        if (m->format_version >= 2)
            return invalid(p, "missing required field 'sort-orders'");
        /* v1 without sort orders: the unsorted order 0 */
        if (!(m->sort_orders = floe__arena_calloc(p->a, 1, sizeof(floe_sort_order *))) ||
            !(m->sort_orders[0] = floe__arena_calloc(p->a, 1, sizeof **m->sort_orders)))
            return floe__error_nomem();
        m->nsort_orders = 1;
        m->default_sort_order_id = 0;
        return 0;
    }
    if (!(m->sort_orders = floe__arena_calloc(p->a, n, sizeof(floe_sort_order *))))
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        int rc = floe__sort_order_from_json(&m->sort_orders[i], floe__json_at(orders, i), p->a);
        if (rc < 0)
            return floe__error_context("%s: sort-orders[%zu]", p->what, i);
        m->nsort_orders = i + 1;
    }
    if (m->format_version >= 2 || floe__json_get(root, "default-sort-order-id"))
        FLOE_TRY(floe__json_i32(root, "default-sort-order-id", "table metadata",
                                &m->default_sort_order_id));
    else
        m->default_sort_order_id = m->sort_orders[0]->order_id;
    if (!floe__metadata_sort_order(m, m->default_sort_order_id))
        return invalid(p, "default-sort-order-id %d is not in sort-orders",
                       (int)m->default_sort_order_id);
    return 0;
}

/* Grow a heap array to hold index i (doubling; large blocks grow by mremap,
 * so a 100,000-snapshot array is never held twice). */
static int reserve(void **arr, size_t *cap, size_t i, size_t size)
{
    if (i < *cap)
        return 0;
    size_t n = *cap ? *cap * 2 : 16;
    if (n <= i)
        n = i + 1;
    if (n > SIZE_MAX / size)
        return floe__error_nomem();
    void *a = floe__realloc(*arr, n * size);
    if (!a)
        return floe__error_nomem();
    *arr = a;
    *cap = n;
    return 0;
}

static int snapshot_cb(const floe_json *e, size_t i, void *payload)
{
    parser *p = payload;
    floe_table_metadata *m = p->m;
    void *arr = m->snapshots;
    int rc = reserve(&arr, &p->snap_cap, i, sizeof *m->snapshots);
    m->snapshots = arr;
    FLOE_TRY(rc);
    floe_snapshot *s = &m->snapshots[i];
    memset(s, 0, sizeof *s);
    FLOE_TRY(parse_snapshot(p, s, e, i));
    m->nsnapshots = i + 1;
    return 0;
}

/* In-place heapsort of snapshot indexes by id (no qsort: it has no context). */
static void sift(const floe_snapshot *s, uint32_t *o, size_t root, size_t n)
{
    for (;;) {
        size_t c = 2 * root + 1;
        if (c >= n)
            return;
        if (c + 1 < n && s[o[c + 1]].snapshot_id > s[o[c]].snapshot_id)
            c++;
        if (s[o[c]].snapshot_id <= s[o[root]].snapshot_id)
            return;
        uint32_t t = o[c];
        o[c] = o[root];
        o[root] = t;
        root = c;
    }
}

static int index_snapshots(floe_table_metadata *m, const char *what)
{
    size_t n = m->nsnapshots;
    floe__free(m->snapshot_order);
    m->snapshot_order = NULL;
    if (n == 0)
        return 0;
    if (n > UINT32_MAX)
        return floe__error(FLOE_EINVALID, "metadata", "too many snapshots");
    uint32_t *o = floe__malloc(n * sizeof *o);
    if (!o)
        return floe__error_nomem();
    const floe_snapshot *s = m->snapshots;
    bool sorted = true;
    for (size_t i = 0; i < n; i++) {
        o[i] = (uint32_t)i;
        if (i && s[i - 1].snapshot_id >= s[i].snapshot_id)
            sorted = false;
    }
    if (!sorted) {
        for (size_t i = n / 2; i-- > 0;)
            sift(s, o, i, n);
        for (size_t end = n - 1; end > 0; end--) {
            uint32_t t = o[0];
            o[0] = o[end];
            o[end] = t;
            sift(s, o, 0, end);
        }
        for (size_t i = 1; i < n; i++)
            if (s[o[i - 1]].snapshot_id == s[o[i]].snapshot_id) {
                int64_t id = s[o[i]].snapshot_id;
                floe__free(o);
                return floe__error(FLOE_EINVALID, "metadata", "%s%sduplicate snapshot-id %lld",
                                   what ? what : "", what ? ": " : "", (long long)id);
            }
    }
    m->snapshot_order = o;
    return 0;
}

int floe__metadata_index_snapshots(floe_table_metadata *m)
{
    return index_snapshots(m, NULL);
}

/* `snapshots` and `snapshot-log` may be lazy arrays (parsed element by
 * element straight into the metadata). */
static int lazy_array(parser *p, const floe_json *root, const char *key, const floe_json **out)
{
    floe_json *v = floe__json_get(root, key);
    *out = NULL;
    if (!v || floe__json_is_null(v))
        return 0;
    if (!floe__json_is_array(v) && v->type != FLOE_JSON_LAZY)
        return invalid(p, "field '%s' in table metadata must be an array", key);
    *out = v;
    return 0;
}

static int parse_snapshots(parser *p, const floe_json *root)
{
    floe_table_metadata *m = p->m;
    if (!p->streamed_snapshots) {
        const floe_json *snaps;
        FLOE_TRY(lazy_array(p, root, "snapshots", &snaps));
        size_t n = floe__json_count(snaps);
        if (n) {
            void *arr = m->snapshots;
            int rc = reserve(&arr, &p->snap_cap, n - 1, sizeof *m->snapshots);
            m->snapshots = arr;
            FLOE_TRY(rc);
            FLOE_TRY(floe__json_each(snaps, p->what, snapshot_cb, p));
        }
    }
    return index_snapshots(m, p->what);
}

static int parse_refs(parser *p, const floe_json *root)
{
    floe_table_metadata *m = p->m;
    floe_json *refs;
    FLOE_TRY(floe__json_object_opt(root, "refs", "table metadata", &refs));
    if (!(m->ref_by_name = floe__strmap_new()))
        return floe__error_nomem();
    size_t n = refs ? floe__json_len(refs) : 0;
    bool need_main = !refs && m->has_current_snapshot; /* legacy: main is implied */
    if (n + need_main == 0)
        return 0;
    if (!(m->refs = floe__arena_calloc(p->a, n + need_main, sizeof *m->refs)))
        return floe__error_nomem();
    if (refs) {
        const char *name;
        floe_json *v;
        FLOE_JSON_FOREACH(refs, name, v) {
            floe_snapshot_ref *r = &m->refs[m->nrefs];
            FLOE_TRY(parse_ref(p, r, name, v));
            if (!floe__metadata_snapshot(m, r->snapshot_id))
                return invalid(p, "ref '%s' points to snapshot %lld, which is not in snapshots",
                               name, (long long)r->snapshot_id);
            m->nrefs++;
            FLOE_TRY(floe__strmap_put(m->ref_by_name, r->name, r));
        }
    }
    if (need_main) {
        floe_snapshot_ref *r = &m->refs[m->nrefs++];
        r->name = "main";
        r->snapshot_id = m->current_snapshot_id;
        r->type = FLOE_REF_BRANCH;
        FLOE_TRY(floe__strmap_put(m->ref_by_name, r->name, r));
    }
    return 0;
}

static int snapshot_log_cb(const floe_json *e, size_t i, void *payload)
{
    parser *p = payload;
    floe_table_metadata *m = p->m;
    void *arr = m->snapshot_log;
    int rc = reserve(&arr, &p->log_cap, i, sizeof *m->snapshot_log);
    m->snapshot_log = arr;
    FLOE_TRY(rc);
    floe_snapshot_log_entry *l = &m->snapshot_log[i];
    if (!floe__json_is_object(e))
        return invalid(p, "snapshot-log entries must be objects");
    FLOE_TRY(floe__json_int(e, "timestamp-ms", "snapshot-log entry", &l->timestamp_ms));
    FLOE_TRY(floe__json_int(e, "snapshot-id", "snapshot-log entry", &l->snapshot_id));
    m->n_snapshot_log = i + 1;
    return 0;
}

static int parse_logs(parser *p, const floe_json *root)
{
    floe_table_metadata *m = p->m;
    size_t n;
    if (!p->streamed_log) {
        const floe_json *slog;
        FLOE_TRY(lazy_array(p, root, "snapshot-log", &slog));
        n = floe__json_count(slog);
        if (n) {
            void *arr = m->snapshot_log;
            int rc = reserve(&arr, &p->log_cap, n - 1, sizeof *m->snapshot_log);
            m->snapshot_log = arr;
            FLOE_TRY(rc);
            FLOE_TRY(floe__json_each(slog, p->what, snapshot_log_cb, p));
        }
    }
    floe_json *log;
    FLOE_TRY(floe__json_array_opt(root, "metadata-log", "table metadata", &log));
    n = log ? floe__json_len(log) : 0;
    if (n) {
        if (!(m->metadata_log = floe__arena_calloc(p->a, n, sizeof *m->metadata_log)))
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++) {
            floe_json *e = floe__json_at(log, i);
            if (!floe__json_is_object(e))
                return invalid(p, "metadata-log entries must be objects");
            FLOE_TRY(floe__json_int(e, "timestamp-ms", "metadata-log entry",
                                    &m->metadata_log[i].timestamp_ms));
            FLOE_TRY(floe__json_str(e, "metadata-file", "metadata-log entry", p->a,
                                    &m->metadata_log[i].metadata_file));
        }
        m->n_metadata_log = n;
    }
    return 0;
}

static int parse_stats(parser *p, const floe_json *root)
{
    floe_table_metadata *m = p->m;
    floe_json *stats;
    FLOE_TRY(array_member(p, root, "statistics", "statistics-files", &stats));
    size_t n = stats ? floe__json_len(stats) : 0;
    if (n) {
        if (!(m->statistics = floe__arena_calloc(p->a, n, sizeof *m->statistics)))
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++)
            FLOE_TRY(parse_statistics(p, &m->statistics[i], floe__json_at(stats, i)));
        m->nstatistics = n;
    }
    FLOE_TRY(array_member(p, root, "partition-statistics", "partition-statistics-files", &stats));
    n = stats ? floe__json_len(stats) : 0;
    if (n) {
        if (!(m->partition_statistics =
                  floe__arena_calloc(p->a, n, sizeof *m->partition_statistics)))
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++) {
            floe_json *e = floe__json_at(stats, i);
            floe_partition_statistics_file *s = &m->partition_statistics[i];
            const char *ctx = "partition-statistics";
            if (!floe__json_is_object(e))
                return invalid(p, "partition-statistics entries must be objects");
            FLOE_TRY(floe__json_int(e, "snapshot-id", ctx, &s->snapshot_id));
            FLOE_TRY(floe__json_str(e, "statistics-path", ctx, p->a, &s->statistics_path));
            FLOE_TRY(floe__json_int(e, "file-size-in-bytes", ctx, &s->file_size_in_bytes));
        }
        m->npartition_statistics = n;
    }
    return 0;
}

static int parse_root(parser *p, const floe_json *root)
{
    floe_table_metadata *m = p->m;
    const char *ctx = "table metadata";
    if (!floe__json_is_object(root))
        return invalid(p, "table metadata must be a JSON object");
    int64_t v;
    bool present;
    FLOE_TRY(floe__json_int(root, "format-version", ctx, &v));
    if (v < 1 || v > FLOE_MAX_FORMAT_VERSION)
        return floe__error(FLOE_EUNSUPPORTED, "metadata", "%s: unsupported format version %lld",
                           p->what, (long long)v);
    m->format_version = (int)v;
    if (m->format_version >= 2)
        FLOE_TRY(floe__json_str(root, "table-uuid", ctx, p->a, &m->table_uuid));
    else
        FLOE_TRY(floe__json_str_opt(root, "table-uuid", ctx, p->a, &m->table_uuid));
    FLOE_TRY(floe__json_str(root, "location", ctx, p->a, &m->location));
    FLOE_TRY(floe__json_int_opt(root, "last-sequence-number", ctx, &m->last_sequence_number,
                                &present));
    if (!present && m->format_version >= 2)
        return invalid(p, "missing required field 'last-sequence-number'");
    FLOE_TRY(floe__json_int(root, "last-updated-ms", ctx, &m->last_updated_ms));
    FLOE_TRY(floe__json_int(root, "last-column-id", ctx, &v));
    FLOE_TRY(i32_range(p, v, "last-column-id", &m->last_column_id));
    FLOE_TRY(parse_schemas(p, root));
    FLOE_TRY(parse_specs(p, root));
    floe_json *props;
    FLOE_TRY(floe__json_object_opt(root, "properties", ctx, &props));
    if (props) {
        const char *key;
        floe_json *pv;
        FLOE_JSON_FOREACH(props, key, pv) {
            if (!floe__json_is_string(pv))
                return invalid(p, "field 'properties.%s' must be a string", key);
            FLOE_TRY(floe__props_set(&m->properties, key, floe__json_sval(pv)));
        }
    }
    FLOE_TRY(floe__json_int_opt(root, "current-snapshot-id", ctx, &m->current_snapshot_id,
                                &m->has_current_snapshot));
    if (m->has_current_snapshot && m->current_snapshot_id == -1)
        m->has_current_snapshot = false;
    FLOE_TRY(parse_snapshots(p, root));
    if (m->has_current_snapshot && !floe__metadata_snapshot(m, m->current_snapshot_id))
        return invalid(p, "current-snapshot-id %lld is not in snapshots",
                       (long long)m->current_snapshot_id);
    FLOE_TRY(parse_logs(p, root));
    FLOE_TRY(parse_sort_orders(p, root));
    FLOE_TRY(parse_refs(p, root));
    FLOE_TRY(parse_stats(p, root));
    FLOE_TRY(floe__json_int_opt(root, "next-row-id", ctx, &m->next_row_id, &m->has_next_row_id));
    if (m->format_version >= 3 && !m->has_next_row_id)
        return invalid(p, "missing required field 'next-row-id'");
    return 0;
}

static int new_metadata(floe_table_metadata **out, parser *p, const char *what)
{
    *out = NULL;
    floe_table_metadata *m = floe__calloc(1, sizeof *m);
    if (!m || !(m->arena = floe__arena_new(65536))) {
        floe__free(m);
        return floe__error_nomem();
    }
    *p = (parser){m, m->arena, what, {m->arena, NULL, 0}, floe__strmap_new(), NULL, 0, 0, 0,
                  false, false, false};
    if (!p->interned) {
        floe__metadata_free(m);
        return floe__error_nomem();
    }
    *out = m;
    return 0;
}

static void parser_done(parser *p)
{
    floe__strmap_free(p->interned);
    floe__free(p->kv);
}

int floe__metadata_parse(floe_table_metadata **out, const void *data, size_t len,
                         const char *what)
{
    *out = NULL;
    if (!what)
        what = "metadata";
    floe_buf plain = FLOE_BUF_INIT;
    const uint8_t *b = data;
    if (len >= 2 && b[0] == 0x1f && b[1] == 0x8b) {
        int rc = floe__gunzip(data, len, FLOE_MAX_METADATA_BYTES, &plain, what);
        if (rc < 0) {
            floe__buf_free(&plain);
            return rc;
        }
        data = plain.ptr ? plain.ptr : "";
        len = plain.len;
    }
    /* The two arrays that grow with every commit are parsed element by
     * element from the text, which therefore stays alive until the end. */
    static const char *const lazy[] = {"snapshots", "snapshot-log"};
    floe_json *root = NULL;
    int rc = floe__json_parse_lazy(&root, data, len, what, lazy, 2);
    if (rc < 0) {
        floe__buf_free(&plain);
        return rc;
    }
    floe_table_metadata *m = NULL;
    parser p;
    rc = new_metadata(&m, &p, what);
    if (rc == 0) {
        rc = parse_root(&p, root);
        parser_done(&p);
    }
    floe__json_free(root);
    floe__buf_free(&plain);
    if (rc < 0) {
        floe__metadata_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

/* ---------------------------------------------------------------- reader API for the streamer */

struct floe_md_reader {
    parser p;
};

int floe__md_reader_new(floe_md_reader **out, const char *what)
{
    *out = floe__calloc(1, sizeof **out);
    if (!*out)
        return floe__error_nomem();
    floe_table_metadata *m;
    int rc = new_metadata(&m, &(*out)->p, what);
    if (rc < 0) {
        floe__free(*out);
        *out = NULL;
    }
    return rc;
}

void floe__md_reader_free(floe_md_reader *r)
{
    if (!r)
        return;
    parser_done(&r->p);
    floe__metadata_free(r->p.m);
    floe__free(r);
}

int floe__md_reader_version(const floe_md_reader *r)
{
    return r->p.m->format_version;
}

void floe__md_reader_set_version(floe_md_reader *r, int format_version)
{
    r->p.m->format_version = format_version;
}

int floe__md_reader_snapshot(const floe_json *e, size_t i, void *reader)
{
    floe_md_reader *r = reader;
    return snapshot_cb(e, i, &r->p);
}

int floe__md_reader_log_entry(const floe_json *e, size_t i, void *reader)
{
    floe_md_reader *r = reader;
    return snapshot_log_cb(e, i, &r->p);
}

void floe__md_reader_streamed(floe_md_reader *r, bool snapshots)
{
    if (snapshots)
        r->p.streamed_snapshots = true;
    else
        r->p.streamed_log = true;
}

int floe__md_reader_finish(floe_md_reader *r, const floe_json *root, floe_table_metadata **out)
{
    *out = NULL;
    FLOE_TRY(parse_root(&r->p, root));
    if (r->p.v2_violation && r->p.m->format_version >= 2)
        return 1; /* a v2 rule broken before the version was known */
    *out = r->p.m;
    r->p.m = NULL;
    return 0;
}

bool floe__metadata_file_location(const char *location)
{
    static const char ext[] = ".metadata.json", dir[] = "metadata/";
    size_t n = strlen(location), ne = sizeof ext - 1, nd = sizeof dir - 1;
    const char *name = strrchr(location, '/');
    if (!name || n < ne || strcmp(location + n - ne, ext) != 0)
        return false;
    name++;
    return (size_t)(name - location) >= nd && strncmp(name - nd, dir, nd) == 0 &&
           (name - location == (ptrdiff_t)nd || name[-nd - 1] == '/') &&
           strlen(name) > ne;
}

void floe__metadata_free(floe_table_metadata *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nschemas; i++)
        floe__schema_release(m->schemas[i]);
    floe__free(m->snapshots);
    floe__free(m->snapshot_log);
    floe__free(m->snapshot_order);
    floe__strmap_free(m->ref_by_name);
    floe__props_free(&m->properties);
    floe__arena_free(m->arena);
    floe__free(m);
}

/* ---------------------------------------------------------------- lookups */

const floe_snapshot *floe__metadata_snapshot(const floe_table_metadata *m, int64_t id)
{
    const uint32_t *o = m->snapshot_order;
    size_t lo = 0, hi = o ? m->nsnapshots : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int64_t v = m->snapshots[o[mid]].snapshot_id;
        if (v == id)
            return &m->snapshots[o[mid]];
        if (v < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const floe_snapshot *floe__metadata_current_snapshot(const floe_table_metadata *m)
{
    return m->has_current_snapshot ? floe__metadata_snapshot(m, m->current_snapshot_id) : NULL;
}

const floe_snapshot_ref *floe__metadata_ref(const floe_table_metadata *m, const char *name)
{
    return m->ref_by_name ? floe__strmap_get(m->ref_by_name, name) : NULL;
}

const floe_schema *floe__metadata_schema(const floe_table_metadata *m, int32_t id)
{
    for (size_t i = 0; i < m->nschemas; i++)
        if (m->schemas[i]->schema_id == id)
            return m->schemas[i];
    return NULL;
}

const floe_schema *floe__metadata_current_schema(const floe_table_metadata *m)
{
    return floe__metadata_schema(m, m->current_schema_id);
}

const floe_partition_spec *floe__metadata_spec(const floe_table_metadata *m, int32_t id)
{
    for (size_t i = 0; i < m->nspecs; i++)
        if (m->specs[i]->spec_id == id)
            return m->specs[i];
    return NULL;
}

const floe_sort_order *floe__metadata_sort_order(const floe_table_metadata *m, int32_t id)
{
    for (size_t i = 0; i < m->nsort_orders; i++)
        if (m->sort_orders[i]->order_id == id)
            return m->sort_orders[i];
    return NULL;
}
