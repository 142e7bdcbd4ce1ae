/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/add_files: adopting existing Parquet files into a table without
 * rewriting them (Spark's CALL system.add_files with a `parquet`.`<path>`
 * source; Java's SparkTableUtil / TableMigrationUtil / ParquetUtil).
 *
 * Each file becomes a data-file entry (spec "Manifests": data_file) built
 * from its footer: record_count, file_size_in_bytes (the object's real
 * size), and per column — matched to the table schema by the file's field
 * ids, else by name (spec "Column Projection", name mapping) — the column
 * size, value and null counts and lower/upper bounds in Appendix D bytes,
 * under the table's write.metadata.metrics.* modes exactly as the writer
 * applies them (parquet/writer.c's floe__pq_metrics_mode/_bounds). Columns
 * inside lists and maps get no metrics. As Java's builder, no split offsets
 * and sort_order_id 0.
 *
 * Partitioned tables: Hive directories `<col>=<value>` (values %XX-escaped,
 * `__HIVE_DEFAULT_PARTITION__` = null) give the partition tuple; their
 * columns must equal, in order and ignoring case, the identity fields of one
 * of the table's specs (Java's findCompatibleSpec), and the values parse as
 * Java's Conversions.fromPartitionString does.
 *
 * Order: everything is listed, read and checked first (partition filter,
 * duplicates against the live manifest entries of the branch head); then,
 * when the table has no schema.name-mapping.default, one built from the
 * current schema is committed (Java's ensureNameMappingPresent); then one
 * append (table/append.c) commits the files as an `append` snapshot.
 */
#include "table/table.h"

#include "floe/io.h"
#include "manifest/manifest.h"
#include "parquet/parquet.h"
#include "spec/spec.h"
#include "spec/value.h"
#include "table/writer.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct cand {
    char *path;
    int64_t size;
    size_t nparts;     /* Hive directories */
    char **keys;       /* unescaped, in the arena */
    char **values;     /* unescaped; NULL for __HIVE_DEFAULT_PARTITION__ */
} cand;

typedef struct add_ctx {
    floe_table *t;
    const floe_table_metadata *m;
    floe_arena *arena;
    floe_vec cands; /* cand */
    const char *prefix;
} add_ctx;

/* ---------------------------------------------------------------- listing */

static int unescape(floe_arena *a, const char *s, size_t n, char **out)
{
    char *o = floe__arena_alloc(a, n + 1);
    if (!o)
        return floe__error_nomem();
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
            isxdigit((unsigned char)s[i + 2])) {
            char hex[3] = {s[i + 1], s[i + 2], 0};
            o[k++] = (char)strtol(hex, NULL, 16);
            i += 2;
        } else {
            o[k++] = s[i];
        }
    }
    o[k] = 0;
    *out = o;
    return 0;
}

/* One listed object: keep it unless a path segment is hidden; split the
 * directories into Hive key=value pairs (nparts = SIZE_MAX: a directory that
 * is not one). */
static int list_cb(const floe_file_info *info, void *payload)
{
    add_ctx *c = payload;
    const char *rel = info->uri + strlen(c->prefix);
    size_t nseg = 1;
    for (const char *p = rel; *p; p++)
        nseg += *p == '/';
    cand cd;
    memset(&cd, 0, sizeof cd);
    cd.keys = floe__arena_calloc(c->arena, nseg, sizeof(char *));
    cd.values = floe__arena_calloc(c->arena, nseg, sizeof(char *));
    cd.path = floe__arena_strdup(c->arena, info->uri);
    if (!cd.keys || !cd.values || !cd.path)
        return floe__error_nomem();
    cd.size = info->size;
    const char *seg = rel;
    while (seg) {
        const char *slash = strchr(seg, '/');
        size_t n = slash ? (size_t)(slash - seg) : strlen(seg);
        if (n == 0 || seg[0] == '_' || seg[0] == '.')
            return 0; /* hidden (Java's HIDDEN_PATH_FILTER) */
        if (slash) {
            const char *eq = memchr(seg, '=', n);
            if (!eq || eq == seg) {
                cd.nparts = SIZE_MAX;
            } else if (cd.nparts != SIZE_MAX) {
                FLOE_TRY(unescape(c->arena, seg, (size_t)(eq - seg), &cd.keys[cd.nparts]));
                FLOE_TRY(unescape(c->arena, eq + 1, n - (size_t)(eq - seg) - 1,
                                  &cd.values[cd.nparts]));
                if (strcmp(cd.values[cd.nparts], "__HIVE_DEFAULT_PARTITION__") == 0)
                    cd.values[cd.nparts] = NULL;
                cd.nparts++;
            }
        }
        seg = slash ? slash + 1 : NULL;
    }
    if (cd.nparts == SIZE_MAX)
        return 0; /* not below Hive directories only */
    cand *slot = floe__vec_push(&c->cands);
    if (!slot)
        return floe__error_nomem();
    *slot = cd;
    return 0;
}

static int list_files(add_ctx *c, const char *location)
{
    size_t n = strlen(location);
    while (n > 1 && location[n - 1] == '/')
        n--;
    char *prefix = floe__arena_alloc(c->arena, n + 2);
    if (!prefix)
        return floe__error_nomem();
    memcpy(prefix, location, n);
    prefix[n] = '/';
    prefix[n + 1] = 0;
    c->prefix = prefix;
    FLOE_TRY(floe_fileio_list(c->t->io, prefix, list_cb, c));
    if (c->cands.len)
        return 0;
    /* a single file */
    floe_file_info fi;
    int rc = floe_fileio_stat(&fi, c->t->io, location);
    if (rc == FLOE_ENOTFOUND)
        return floe__error(FLOE_ENOTFOUND, "table", "Path does not exist: %s", location);
    FLOE_TRY(rc);
    cand *slot = floe__vec_push(&c->cands);
    if (!slot)
        return floe__error_nomem();
    memset(slot, 0, sizeof *slot);
    slot->size = fi.size;
    if (!(slot->path = floe__arena_strdup(c->arena, location)))
        return floe__error_nomem();
    return 0;
}

/* ---------------------------------------------------------------- partitions */

static const floe_partition_spec *find_spec(const floe_table_metadata *m, const floe_schema *sc,
                                            const cand *cd)
{
    for (size_t i = 0; i < m->nspecs; i++) {
        const floe_partition_spec *sp = m->specs[i];
        bool ok = sp->nfields == cd->nparts && sp->nfields > 0;
        for (size_t k = 0; ok && k < sp->nfields; k++)
            ok = sp->fields[k].transform.kind == FLOE_TR_IDENTITY &&
                 strcasecmp(sp->fields[k].name, cd->keys[k]) == 0 &&
                 floe__schema_field_by_id(sc, sp->fields[k].source_id) != NULL;
        if (ok)
            return sp;
    }
    return NULL;
}

/* Java's Conversions.fromPartitionString. */
static int parse_value(floe_arena *a, const floe_type *t, const char *text, const char *col,
                       floe_value *out)
{
    if (!text) {
        *out = floe_value_null(t->id);
        return 0;
    }
    floe_buf j = FLOE_BUF_INIT;
    int rc = 0;
    switch (t->id) {
    case FLOE_T_BOOLEAN: /* Boolean.valueOf: anything but "true" is false */
        rc = floe__buf_puts(&j, strcasecmp(text, "true") == 0 ? "true" : "false");
        break;
    case FLOE_T_INT:
    case FLOE_T_LONG:
    case FLOE_T_FLOAT:
    case FLOE_T_DOUBLE: {
        char *end = NULL;
        (void)strtod(text, &end);
        if (!*text || *end)
            rc = floe__error(FLOE_EINVALID, "table",
                             "Cannot parse partition value '%s' of column %s", text, col);
        else
            rc = floe__buf_puts(&j, text);
        break;
    }
    case FLOE_T_STRING:
    case FLOE_T_DECIMAL:
    case FLOE_T_DATE:
    case FLOE_T_UUID: rc = floe__json_put_str(&j, text); break;
    default: {
        floe_buf tn = FLOE_BUF_INIT;
        rc = floe__type_format(t, &tn);
        if (rc == 0)
            rc = floe__error(FLOE_EUNSUPPORTED, "table",
                             "Unsupported type for fromPartitionString: %s (column %s)", tn.ptr,
                             col);
        floe__buf_free(&tn);
    }
    }
    floe_json *js = NULL;
    if (rc == 0)
        rc = floe__json_parse(&js, j.ptr, j.len, "partition value");
    if (rc == 0)
        rc = floe__value_from_json(out, js, t, a);
    if (rc < 0 && rc != FLOE_ENOMEM && rc != FLOE_EUNSUPPORTED)
        rc = floe__error(FLOE_EINVALID, "table", "Cannot parse partition value '%s' of column %s",
                         text, col);
    floe__json_free(js);
    floe__buf_free(&j);
    return rc;
}

static int check_filter(add_ctx *c, const floe_partition_spec *spec, const floe_props *filter)
{
    const char *name = floe_table_ident(c->t);
    if (!spec || spec->nfields == 0)
        return floe__error(FLOE_EINVALID, "table",
                           "Cannot use partition filter with an unpartitioned table %s", name);
    if (filter->n > spec->nfields)
        return floe__error(FLOE_EINVALID, "table",
                           "Cannot add data files to target table %s because that table is "
                           "partitioned, but the number of columns in the provided partition "
                           "filter (%zu) is greater than the number of partitioned columns in "
                           "table (%zu)",
                           name, filter->n, spec->nfields);
    for (size_t i = 0; i < filter->n; i++) {
        bool found = false;
        for (size_t k = 0; !found && k < spec->nfields; k++)
            found = strcmp(spec->fields[k].name, filter->items[i].key) == 0;
        if (found)
            continue;
        floe_buf valid = FLOE_BUF_INIT;
        for (size_t k = 0; k < spec->nfields; k++)
            if (floe__buf_printf(&valid, "%s%s", k ? ", " : "", spec->fields[k].name) < 0)
                break;
        int rc = floe__error(FLOE_EINVALID, "table",
                             "Cannot add files to target table %s. %s is partitioned but the "
                             "specified partition filter refers to columns that are not "
                             "partitioned: %s . Valid partition columns: [%s]",
                             name, name, filter->items[i].key, valid.ptr ? valid.ptr : "");
        floe__buf_free(&valid);
        return rc;
    }
    return 0;
}

static bool filter_keeps(const cand *cd, const floe_props *filter)
{
    for (size_t i = 0; filter && i < filter->n; i++) {
        bool ok = false;
        for (size_t k = 0; !ok && k < cd->nparts; k++)
            ok = strcmp(cd->keys[k], filter->items[i].key) == 0 && cd->values[k] &&
                 strcmp(cd->values[k], filter->items[i].value) == 0;
        if (!ok)
            return false;
    }
    return true;
}

/* ---------------------------------------------------------------- duplicates */

typedef struct dup_ctx {
    floe_strmap *want; /* candidate path -> non-NULL */
    floe_strmap *seen;
    floe_buf list;
    int nlisted;
} dup_ctx;

static int dup_manifest(floe_table *t, const floe_manifest_file *mf, dup_ctx *d)
{
    floe_buf bytes = FLOE_BUF_INIT;
    floe_manifest_reader *r = NULL;
    int rc = floe__io_read_all(t->io, mf->manifest_path, (size_t)1 << 31, &bytes);
    floe_manifest_read_options o = {0};
    o.manifest = mf;
    if (rc == 0)
        rc = floe_manifest_reader_open(&r, (const uint8_t *)bytes.ptr, bytes.len,
                                       mf->manifest_path, &o);
    const floe_manifest_entry *e;
    while (rc == 0 && (rc = floe_manifest_reader_next(r, &e)) == 0) {
        if (e->status == FLOE_ENTRY_DELETED)
            continue;
        const char *p = e->data_file.file_path;
        const char *key = NULL;
        size_t it = 0;
        void *v;
        if (!p || !floe__strmap_has(d->want, p) || floe__strmap_has(d->seen, p))
            continue;
        /* the map borrows keys: use the candidate's own copy */
        while (floe__strmap_next(d->want, &it, &key, &v))
            if (strcmp(key, p) == 0)
                break;
        if ((rc = floe__strmap_put(d->seen, key, (void *)key)) < 0)
            break;
        if (d->nlisted++ < 10)
            rc = floe__buf_printf(&d->list, "%s%s", d->nlisted > 1 ? "," : "", p);
    }
    if (rc == FLOE_ITEROVER)
        rc = 0;
    floe_manifest_reader_free(r);
    floe__buf_free(&bytes);
    return rc;
}

static int check_duplicates(floe_table *t, const cand *const *files, size_t n)
{
    const floe_table_metadata *m = t->metadata;
    const floe_snapshot_ref *head = floe__metadata_ref(m, t->branch);
    const floe_snapshot *s = head ? floe__metadata_snapshot(m, head->snapshot_id) : NULL;
    const char *ml = s ? floe__table_manifest_list(t, s) : NULL;
    if (!ml)
        return 0;
    dup_ctx d = {floe__strmap_new(), floe__strmap_new(), FLOE_BUF_INIT, 0};
    int rc = d.want && d.seen ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = floe__strmap_put(d.want, files[i]->path, files[i]->path);
    floe_buf bytes = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    if (rc == 0)
        rc = floe__io_read_all(t->io, ml, (size_t)1 << 31, &bytes);
    if (rc == 0)
        rc = floe_manifest_list_read(&l, (const uint8_t *)bytes.ptr, bytes.len, ml);
    for (size_t i = 0; rc == 0 && i < l->nentries; i++)
        rc = dup_manifest(t, &l->entries[i], &d);
    if (rc == 0 && d.nlisted)
        rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ILLEGAL_STATE, "table",
                            "Cannot complete import because data files to be imported already "
                            "exist within the target table: %s.  This is disabled by default as "
                            "Iceberg is not designed for multiple references to the same file "
                            "within the same table.  If you are sure, you may set "
                            "'check_duplicate_files' to false to force the import.",
                            d.list.ptr);
    floe_manifest_list_free(l);
    floe__buf_free(&bytes);
    floe__buf_free(&d.list);
    floe__strmap_free(d.want);
    floe__strmap_free(d.seen);
    return rc;
}

/* ---------------------------------------------------------------- footer metrics */

typedef struct mctx {
    floe_pq_reader *r;
    const floe_props *props;
    floe_vec fields; /* floe_pq_field_metrics */
    size_t leaf;     /* leaf index in schema order (max-inferred-column-defaults) */
} mctx;

static bool is_nan(const floe_value *v)
{
    return (v->type == FLOE_T_FLOAT && isnan(v->v.f32)) ||
           (v->type == FLOE_T_DOUBLE && isnan(v->v.f64));
}

/* Metrics of one primitive column: sums over the row groups of the chunk
 * sizes and counts; bounds when every row group with a non-null value has
 * usable min/max statistics. */
static int leaf_metrics(mctx *c, const floe_field *f, const char *name, size_t index)
{
    int mode, trunc;
    FLOE_TRY(floe__pq_metrics_mode(c->props, name, index, &mode, &trunc));
    if (mode == FLOE_PQ_MM_NONE)
        return 0;
    const floe_pq_file_meta *fm = floe__pq_reader_meta(c->r);
    floe_pq_field_metrics m;
    memset(&m, 0, sizeof m);
    m.field_id = f->id;
    bool present = false, nulls_ok = true, bounds_ok = true, has_bounds = false;
    floe_value lo, hi;
    memset(&lo, 0, sizeof lo);
    memset(&hi, 0, sizeof hi);
    for (size_t rg = 0; rg < fm->nrow_groups; rg++) {
        floe_pq_chunk_stats st;
        FLOE_TRY(floe__pq_reader_chunk_stats(c->r, rg, f->id, &st));
        if (!st.present)
            continue;
        present = true;
        m.column_size += st.total_compressed_size;
        m.value_count += st.num_values;
        if (st.has_null_count)
            m.null_value_count += st.null_count;
        else
            nulls_ok = false;
        if (st.has_null_count && st.null_count == st.num_values)
            continue; /* all null: nothing to bound */
        if (!st.has_min_max || is_nan(&st.min) || is_nan(&st.max)) {
            bounds_ok = false;
            continue;
        }
        if (!has_bounds || floe_value_compare(&st.min, &lo) < 0)
            lo = st.min;
        if (!has_bounds || floe_value_compare(&st.max, &hi) > 0)
            hi = st.max;
        has_bounds = true;
    }
    if (!present)
        return 0;
    m.has_column_size = true;
    m.has_counts = nulls_ok;
    int rc = bounds_ok && has_bounds ? floe__pq_metrics_bounds(&lo, &hi, mode, trunc, &m) : 0;
    floe_pq_field_metrics *slot = rc == 0 ? floe__vec_push(&c->fields) : NULL;
    if (!slot) {
        floe__free(m.lower_bound);
        floe__free(m.upper_bound);
        return rc < 0 ? rc : floe__error_nomem();
    }
    *slot = m;
    return 0;
}

static int walk(mctx *c, const floe_type *st, const char *prefix, bool under_rep, int depth)
{
    if (depth > 64)
        return floe__error(FLOE_EINVALID, "table", "schema nested too deep");
    for (size_t i = 0; i < st->nfields; i++) {
        const floe_field *f = &st->fields[i];
        char *name = prefix ? floe__sprintf("%s.%s", prefix, f->name) : floe__strdup(f->name);
        if (!name)
            return floe__error_nomem();
        int rc = 0;
        const floe_type *t = f->type;
        if (t->id == FLOE_T_STRUCT) {
            rc = walk(c, t, name, under_rep, depth + 1);
        } else if (t->id == FLOE_T_LIST || t->id == FLOE_T_MAP) {
            /* leaves under repeated fields: counted, never measured */
            floe_field one[2];
            floe_type group = {0};
            group.id = FLOE_T_STRUCT;
            group.fields = one;
            if (t->id == FLOE_T_LIST) {
                one[0] = *t->element;
                group.nfields = 1;
            } else {
                one[0] = *t->key;
                one[1] = *t->value;
                group.nfields = 2;
            }
            rc = walk(c, &group, name, true, depth + 1);
        } else {
            size_t index = c->leaf++;
            if (!under_rep)
                rc = leaf_metrics(c, f, name, index);
        }
        floe__free(name);
        FLOE_TRY(rc);
    }
    return 0;
}

static int cmp_metrics(const void *a, const void *b)
{
    int32_t x = ((const floe_pq_field_metrics *)a)->field_id;
    int32_t y = ((const floe_pq_field_metrics *)b)->field_id;
    return x < y ? -1 : x > y;
}

/* The data file of one candidate, handed to the append. */
static int add_one(floe_append *ap, floe_table *t, const floe_schema *sc,
                   const floe_partition_spec *spec, const cand *cd)
{
    floe_input *in = NULL;
    floe_pq_reader *r = NULL;
    floe_arena *a = floe__arena_new(1024);
    mctx c = {NULL, &t->metadata->properties, FLOE_VEC_INIT(floe_pq_field_metrics), 0};
    floe_pq_metrics pm;
    memset(&pm, 0, sizeof pm);
    int rc = a ? floe_fileio_open_input(&in, t->io, cd->path) : floe__error_nomem();
    floe_pq_read_options o = {0};
    o.projection = sc; /* by field id, else by name */
    if (rc == 0 && (rc = floe__pq_reader_open(&r, in, &o)) < 0)
        floe__error_context("adding %s", cd->path);
    c.r = r;
    if (rc == 0)
        rc = walk(&c, sc->root, NULL, false, 0);
    floe_data_file df;
    memset(&df, 0, sizeof df);
    if (rc == 0) {
        if (c.fields.len > 1) /* items is NULL when empty: qsort wants a valid pointer */
            qsort(c.fields.items, c.fields.len, sizeof(floe_pq_field_metrics), cmp_metrics);
        pm.record_count = floe__pq_reader_meta(r)->num_rows;
        pm.file_size_in_bytes = in->size;
        pm.nfields = c.fields.len;
        pm.fields = c.fields.items;
        c.fields = (floe_vec)FLOE_VEC_INIT(floe_pq_field_metrics);
        df.content = FLOE_FILE_DATA;
        df.file_path = cd->path;
        df.file_format = "PARQUET";
        df.record_count = pm.record_count;
        df.file_size_in_bytes = pm.file_size_in_bytes;
        df.block_size_in_bytes = 67108864;
        df.has_sort_order_id = true;
        df.sort_order_id = 0;
        rc = floe__data_file_set_metrics(a, &pm, &df);
    }
    size_t np = spec ? spec->nfields : 0;
    floe_value *pv = rc == 0 ? floe__arena_calloc(a, np ? np : 1, sizeof *pv) : NULL;
    if (rc == 0 && !pv)
        rc = floe__error_nomem();
    for (size_t k = 0; rc == 0 && k < np; k++) {
        const floe_field *src = floe__schema_field_by_id(sc, spec->fields[k].source_id);
        if (!src)
            rc = floe__error(FLOE_EINVALID, "table", "partition source %d is not in the schema",
                             spec->fields[k].source_id);
        else
            rc = parse_value(a, src->type, cd->values[k], cd->keys[k], &pv[k]);
    }
    if (rc == 0) {
        df.partition.n = np;
        df.partition.values = pv;
        rc = floe__append_add_file(ap, &df);
    }
    floe__pq_metrics_free(&pm);
    for (size_t i = 0; i < c.fields.len; i++) {
        floe_pq_field_metrics *f = floe__vec_at(&c.fields, i);
        floe__free(f->lower_bound);
        floe__free(f->upper_bound);
    }
    floe__vec_free(&c.fields);
    floe__pq_reader_free(r);
    if (in)
        in->close(in);
    floe__arena_free(a);
    return rc;
}

/* ---------------------------------------------------------------- name mapping */

static int mapping_fields(floe_buf *b, const floe_type *st, int depth);

static int mapping_field(floe_buf *b, int32_t id, const char *name, const floe_type *t, int depth)
{
    FLOE_TRY(floe__buf_printf(b, "{\"field-id\":%d,\"names\":[", (int)id));
    FLOE_TRY(floe__json_put_str(b, name));
    FLOE_TRY(floe__buf_puts(b, "]"));
    if (t->id == FLOE_T_STRUCT) {
        FLOE_TRY(floe__buf_puts(b, ",\"fields\":"));
        FLOE_TRY(mapping_fields(b, t, depth + 1));
    } else if (t->id == FLOE_T_LIST) {
        FLOE_TRY(floe__buf_puts(b, ",\"fields\":["));
        FLOE_TRY(mapping_field(b, t->element->id, "element", t->element->type, depth + 1));
        FLOE_TRY(floe__buf_puts(b, "]"));
    } else if (t->id == FLOE_T_MAP) {
        FLOE_TRY(floe__buf_puts(b, ",\"fields\":["));
        FLOE_TRY(mapping_field(b, t->key->id, "key", t->key->type, depth + 1));
        FLOE_TRY(floe__buf_puts(b, ","));
        FLOE_TRY(mapping_field(b, t->value->id, "value", t->value->type, depth + 1));
        FLOE_TRY(floe__buf_puts(b, "]"));
    }
    return floe__buf_puts(b, "}");
}

/* Java's MappingUtil.create: one name per field, lists "element", maps
 * "key"/"value". */
static int mapping_fields(floe_buf *b, const floe_type *st, int depth)
{
    if (depth > 64)
        return floe__error(FLOE_EINVALID, "table", "schema nested too deep");
    FLOE_TRY(floe__buf_puts(b, "["));
    for (size_t i = 0; i < st->nfields; i++) {
        if (i)
            FLOE_TRY(floe__buf_puts(b, ","));
        FLOE_TRY(mapping_field(b, st->fields[i].id, st->fields[i].name, st->fields[i].type,
                               depth));
    }
    return floe__buf_puts(b, "]");
}

static int ensure_name_mapping(floe_table *t)
{
    if (floe__props_get(&t->metadata->properties, "schema.name-mapping.default"))
        return 0;
    const floe_schema *sc = floe__metadata_current_schema(t->metadata);
    floe_buf b = FLOE_BUF_INIT;
    floe_props set = FLOE_PROPS_INIT;
    int rc = mapping_fields(&b, sc->root, 0);
    if (rc == 0)
        rc = floe__props_set(&set, "schema.name-mapping.default", b.ptr);
    if (rc == 0)
        rc = floe_table_update_properties(t, &set, NULL, 0);
    floe__props_free(&set);
    floe__buf_free(&b);
    return rc;
}

/* ---------------------------------------------------------------- entry point */

int floe_table_add_files(floe_add_files_result *out, floe_table *t, const char *location,
                         const floe_add_files_options *opts)
{
    floe_add_files_options dflt = FLOE_ADD_FILES_OPTIONS_INIT;
    if (!opts)
        opts = &dflt;
    if (out) {
        out->added_files_count = 0;
        out->changed_partition_count = 0;
        out->snapshot_id = -1;
    }
    if (!t || !location || !*location)
        return floe__error(FLOE_EINVALID, "table", "add_files needs a table and a location");
    add_ctx c = {t, t->metadata, floe__arena_new(4096), FLOE_VEC_INIT(cand), NULL};
    const cand **keep = NULL;
    size_t nkeep = 0;
    floe_append *ap = NULL;
    const char *name = floe_table_ident(t);
    int rc = c.arena ? 0 : floe__error_nomem();
    const floe_schema *sc = floe__metadata_current_schema(c.m);
    const floe_partition_spec *cur = floe__metadata_spec(c.m, c.m->default_spec_id);
    bool partitioned = cur && cur->nfields > 0;
    const floe_props *filter = opts->partition_filter;
    if (rc == 0 && !sc)
        rc = floe__error(FLOE_ECORRUPT, "table", "table %s has no current schema", name);
    if (rc == 0 && filter && filter->n && !partitioned)
        rc = check_filter(&c, NULL, filter);
    if (rc == 0)
        rc = list_files(&c, location);
    /* the partition columns of the first file decide the spec */
    const floe_partition_spec *spec = NULL;
    const cand *first = NULL;
    for (size_t i = 0; rc == 0 && i < c.cands.len; i++) {
        const cand *cd = floe__vec_at(&c.cands, i);
        if (!partitioned && cd->nparts)
            rc = floe__error(FLOE_EINVALID, "table",
                             "Cannot add partitioned files to an unpartitioned table");
        else if (partitioned && cd->nparts && !first)
            first = cd;
    }
    if (rc == 0 && partitioned) {
        if (!first) {
            rc = floe__error(FLOE_EINVALID, "table", "Cannot find any matching partitions in table %s",
                             name);
        } else if (!(spec = find_spec(c.m, sc, first))) {
            floe_buf cols = FLOE_BUF_INIT;
            for (size_t k = 0; k < first->nparts; k++)
                if (floe__buf_printf(&cols, "%s%s", k ? ", " : "", first->keys[k]) < 0)
                    break;
            rc = floe__error(FLOE_EINVALID, "table",
                             "Cannot find a partition spec in Iceberg table %s that matches the "
                             "partition columns (%s) in input table",
                             name, cols.ptr ? cols.ptr : "");
            floe__buf_free(&cols);
        }
        if (rc == 0 && filter && filter->n)
            rc = check_filter(&c, spec, filter);
    }
    if (rc == 0 && !(keep = floe__calloc(c.cands.len ? c.cands.len : 1, sizeof(cand *))))
        rc = floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < c.cands.len; i++) {
        const cand *cd = floe__vec_at(&c.cands, i);
        if (partitioned) {
            if (cd->nparts != first->nparts) {
                rc = floe__error(FLOE_EINVALID, "table",
                                 "Conflicting partition column names detected in %s", cd->path);
                break;
            }
            for (size_t k = 0; rc == 0 && k < cd->nparts; k++)
                if (strcasecmp(cd->keys[k], first->keys[k]) != 0)
                    rc = floe__error(FLOE_EINVALID, "table",
                                     "Conflicting partition column names detected in %s",
                                     cd->path);
            if (rc == 0 && !filter_keeps(cd, filter))
                continue;
        }
        keep[nkeep++] = cd;
    }
    if (rc == 0 && nkeep == 0)
        rc = partitioned ? floe__error(FLOE_EINVALID, "table",
                                       "Cannot find any matching partitions in table %s", name)
                         : floe__error(FLOE_ENOTFOUND, "table", "No data files found in %s",
                                       location);
    if (rc == 0 && opts->check_duplicate_files)
        rc = check_duplicates(t, keep, nkeep);
    if (rc == 0)
        rc = floe_append_new(&ap, t);
    if (rc == 0)
        floe__append_configure(ap, NULL, false, spec ? spec->spec_id : c.m->default_spec_id,
                               NULL, NULL);
    for (size_t i = 0; rc == 0 && i < nkeep; i++)
        rc = add_one(ap, t, sc, spec, keep[i]);
    if (rc == 0)
        rc = ensure_name_mapping(t);
    int64_t sid = -1;
    if (rc == 0)
        rc = floe_append_commit(&sid, ap);
    if (rc == 0 && out) {
        out->added_files_count = (int64_t)nkeep;
        out->snapshot_id = sid;
        const char *v = floe_table_snapshot_summary(t, sid, "changed-partition-count");
        out->changed_partition_count = v ? strtoll(v, NULL, 10) : 0;
    }
    floe_append_free(ap);
    floe__free(keep);
    floe__vec_free(&c.cands);
    floe__arena_free(c.arena);
    return rc;
}
