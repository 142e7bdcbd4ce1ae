/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/writer: Arrow batches -> partitioned Parquet data files (spec
 * "Partitioning", "Partition Transforms", "Parquet"; Java's file layout
 * `<data>/<partition path>/<NNNNN>-<task>-<uuid>-<NNNNN>.parquet`).
 *
 * Every row's partition tuple is computed from the top-level source
 * columns with the spec's transforms; a batch whose rows all fall in one
 * partition goes to that partition's writer as is, otherwise its rows are
 * copied into one Arrow builder per partition (primitive columns only).
 * One Parquet file is open per partition, at most WRITER_MAX_OPEN at once
 * (a write touching more partitions closes the least recently opened file
 * first, so an append of 100,000 partitions does not run out of file
 * descriptors; a partition written again later gets another file); a file
 * is rolled when its size reaches write.target-file-size-bytes (512 MiB by
 * default). Closed files
 * become data files with the Parquet writer's metrics (column sizes,
 * value/null/NaN counts, bounds, split offsets).
 *
 * With a write sort order (spec "Sorting"; ALTER TABLE ... WRITE ORDERED
 * BY) the rows of each partition are kept until the writer closes and
 * written in that order, so every file is sorted (Spark sorts the rows of
 * a task before writing). Only top-level sort sources are used.
 */
#include "table/writer.h"

#include "arrow/arrow.h"
#include "parquet/parquet.h"
#include "scan/scan.h"
#include "spec/spec.h"
#include "spec/transform.h"
#include "spec/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WRITER_MAX_OPEN 256

typedef struct part {
    char *key;             /* partition path ("" when unpartitioned) */
    floe_value *values;    /* partition tuple (arena) */
    floe_pq_writer *pw;    /* open file, or NULL */
    floe_output *out;
    char *path;
    floe_arrow_builder *rows; /* rows routed here from a mixed batch */
} part;

struct floe_data_writer {
    floe_append *a;
    floe_table *t;
    const floe_schema *schema;
    /* the rows' layout: the schema's root, or with row lineage that root
     * followed by _row_id and _last_updated_sequence_number */
    const floe_type *root;
    floe_schema file_schema; /* what the Parquet files hold (root above) */
    bool lineage;
    const floe_partition_spec *spec;
    int *source_col;       /* per partition field: top-level column index */
    const floe_type **source_type;
    floe_arena *arena;
    floe_strmap *parts;    /* key -> part* */
    floe_vec order;        /* part* in creation order */
    int64_t target_size;
    char uuid[37];
    int file_count;
    char *schema_json;
    const char *data_dir;  /* write.data.path or <location>/data */
    char *data_dir_owned;
    size_t nopen;          /* parts with an open file */
    size_t evict_at;       /* where the search for a file to close resumes */
    const floe_sort_order *sort; /* the write order, NULL when unsorted */
    int *sort_col;               /* per sort field: top-level column index */
};

/* The table's write order, when every source is a top-level column. */
static int sort_setup(floe_data_writer *w, const floe_table_metadata *m)
{
    const floe_sort_order *o = NULL;
    if (!floe__append_sort_order(w->a, &o))
        o = floe__metadata_sort_order(m, m->default_sort_order_id);
    if (!o || !o->nfields)
        return 0;
    if (!(w->sort_col = floe__arena_calloc(w->arena, o->nfields, sizeof *w->sort_col)))
        return floe__error_nomem();
    for (size_t i = 0; i < o->nfields; i++) {
        w->sort_col[i] = -1;
        for (size_t c = 0; c < w->schema->root->nfields; c++)
            if (w->schema->root->fields[c].id == o->fields[i].source_id &&
                !floe_type_is_nested(w->schema->root->fields[c].type))
                w->sort_col[i] = (int)c;
        if (w->sort_col[i] < 0)
            return 0; /* not a top-level primitive: write unsorted */
    }
    w->sort = o;
    return 0;
}

/* ---------------------------------------------------------------- lifecycle */

int floe__data_writer_new(floe_data_writer **out, floe_append *a)
{
    *out = NULL;
    floe_table *t = floe__append_table(a);
    const floe_table_metadata *m = t->metadata;
    floe_data_writer *w = floe__calloc(1, sizeof *w);
    if (!w)
        return floe__error_nomem();
    w->a = a;
    w->t = t;
    w->order.item_size = sizeof(part *);
    w->schema = floe__metadata_current_schema(m);
    w->spec = floe__metadata_spec(m, m->default_spec_id);
    w->root = w->schema->root;
    w->file_schema = *w->schema;
    w->lineage = floe__append_lineage(a);
    int rc = (w->arena = floe__arena_new(4096)) && (w->parts = floe__strmap_new())
                 ? 0
                 : floe__error_nomem();
    if (rc == 0 && w->lineage)
        rc = floe__lineage_root(w->arena, w->schema->root, &w->root);
    w->file_schema.root = w->root;
    if (rc == 0)
        rc = floe__props_get_int64(&m->properties, "write.target-file-size-bytes", 536870912,
                                   &w->target_size);
    if (rc == 0 && floe__append_target_size(a) > 0)
        w->target_size = floe__append_target_size(a);
    if (rc == 0)
        rc = floe__uuid4(w->uuid);
    if (rc == 0) {
        floe_buf sj = FLOE_BUF_INIT;
        rc = floe__schema_to_json(w->schema, &sj);
        w->schema_json = floe__buf_detach(&sj);
        if (rc == 0 && !w->schema_json)
            rc = floe__error_nomem();
    }
    if (rc == 0) {
        const char *dp = floe__props_get(&m->properties, "write.data.path");
        w->data_dir_owned = dp ? floe__strdup(dp) : floe__sprintf("%s/data", m->location);
        w->data_dir = w->data_dir_owned;
        if (!w->data_dir)
            rc = floe__error_nomem();
    }
    if (rc == 0)
        rc = sort_setup(w, m);
    size_t nf = w->spec ? w->spec->nfields : 0;
    if (rc == 0 && nf) {
        w->source_col = floe__arena_calloc(w->arena, nf, sizeof *w->source_col);
        w->source_type = floe__arena_calloc(w->arena, nf, sizeof(floe_type *));
        if (!w->source_col || !w->source_type)
            rc = floe__error_nomem();
        for (size_t i = 0; rc == 0 && i < nf; i++) {
            int32_t src = w->spec->fields[i].source_id;
            w->source_col[i] = -1;
            for (size_t c = 0; c < w->schema->root->nfields; c++)
                if (w->schema->root->fields[c].id == src) {
                    w->source_col[i] = (int)c;
                    w->source_type[i] = w->schema->root->fields[c].type;
                }
            if (w->source_col[i] < 0)
                rc = floe__error(FLOE_EUNSUPPORTED, "table",
                                 "partition source field %d is not a top-level column",
                                 (int)src);
        }
    }
    if (rc < 0) {
        floe__data_writer_free(w);
        return rc;
    }
    *out = w;
    return 0;
}

static void part_abort(part *p)
{
    floe__pq_writer_free(p->pw);
    p->pw = NULL;
    if (p->out)
        p->out->abort(p->out);
    p->out = NULL;
    floe__free(p->path);
    p->path = NULL;
}

void floe__data_writer_free(floe_data_writer *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->order.len; i++) {
        part *p = ((part **)w->order.items)[i];
        part_abort(p);
        floe__arrow_builder_free(p->rows);
        floe__free(p->key);
        floe__free(p);
    }
    floe__vec_free(&w->order);
    floe__strmap_free(w->parts);
    floe__free(w->schema_json);
    floe__free(w->data_dir_owned);
    floe__arena_free(w->arena);
    floe__free(w);
}

/* ---------------------------------------------------------------- files */

static int sink(const void *data, size_t len, void *payload)
{
    floe_output *out = payload;
    return out->write(out, data, len);
}

static int part_open(floe_data_writer *w, part *p)
{
    w->file_count++;
    p->path = *p->key ? floe__sprintf("%s/%s/00000-0-%s-%05d.parquet", w->data_dir, p->key,
                                      w->uuid, w->file_count)
                      : floe__sprintf("%s/00000-0-%s-%05d.parquet", w->data_dir, w->uuid,
                                      w->file_count);
    if (!p->path)
        return floe__error_nomem();
    FLOE_TRY(floe_fileio_create_output(&p->out, w->t->io, p->path));
    floe_pq_write_options o = {0};
    o.props = &w->t->metadata->properties;
    o.iceberg_schema_json = w->schema_json;
    o.sink = sink;
    o.sink_payload = p->out;
    int rc = floe__pq_writer_new(&p->pw, &w->file_schema, &o);
    if (rc < 0)
        part_abort(p);
    return rc;
}

static int longs_from(floe_arena *a, const floe_pq_metrics *m, int which, floe_col_longs *out)
{
    floe_col_long *items = floe__arena_calloc(a, m->nfields ? m->nfields : 1, sizeof *items);
    if (!items)
        return floe__error_nomem();
    size_t n = 0;
    for (size_t i = 0; i < m->nfields; i++) {
        const floe_pq_field_metrics *f = &m->fields[i];
        bool has = which == 0 ? f->has_column_size : which == 3 ? f->has_nan_count : f->has_counts;
        if (!has)
            continue;
        items[n].field_id = f->field_id;
        items[n].value = which == 0   ? f->column_size
                         : which == 1 ? f->value_count
                         : which == 2 ? f->null_value_count
                                      : f->nan_value_count;
        n++;
    }
    out->n = n;
    out->items = items;
    out->set = true;
    return 0;
}

static int bounds_from(floe_arena *a, const floe_pq_metrics *m, bool upper,
                       floe_col_bytes_map *out)
{
    floe_col_bytes *items = floe__arena_calloc(a, m->nfields ? m->nfields : 1, sizeof *items);
    if (!items)
        return floe__error_nomem();
    size_t n = 0;
    for (size_t i = 0; i < m->nfields; i++) {
        const floe_pq_field_metrics *f = &m->fields[i];
        const uint8_t *p = upper ? f->upper_bound : f->lower_bound;
        size_t len = upper ? f->upper_bound_len : f->lower_bound_len;
        if (!p)
            continue;
        items[n].field_id = f->field_id;
        items[n].ptr = p;
        items[n].len = len;
        n++;
    }
    out->n = n;
    out->items = items;
    out->set = true;
    return 0;
}

int floe__data_file_set_metrics(floe_arena *a, const floe_pq_metrics *m, floe_data_file *df)
{
    FLOE_TRY(longs_from(a, m, 0, &df->column_sizes));
    FLOE_TRY(longs_from(a, m, 1, &df->value_counts));
    FLOE_TRY(longs_from(a, m, 2, &df->null_value_counts));
    FLOE_TRY(longs_from(a, m, 3, &df->nan_value_counts));
    FLOE_TRY(bounds_from(a, m, false, &df->lower_bounds));
    return bounds_from(a, m, true, &df->upper_bounds);
}

/* Close the part's file and hand it to the append as a data file. */
static int part_close(floe_data_writer *w, part *p)
{
    if (!p->pw)
        return 0;
    w->nopen--;
    floe_pq_metrics m;
    memset(&m, 0, sizeof m);
    int rc = floe__pq_writer_close(p->pw, &m);
    floe__pq_writer_free(p->pw);
    p->pw = NULL;
    if (rc == 0) {
        floe_output *out = p->out;
        p->out = NULL;
        rc = out->commit(out); /* frees the output */
    }
    if (rc == 0)
        rc = floe__append_own_file(w->a, p->path);
    floe_arena *tmp = rc == 0 ? floe__arena_new(4096) : NULL;
    if (rc == 0 && !tmp)
        rc = floe__error_nomem();
    if (rc == 0) {
        floe_data_file df;
        memset(&df, 0, sizeof df);
        df.content = FLOE_FILE_DATA;
        df.file_path = p->path;
        df.file_format = "PARQUET";
        df.partition.n = w->spec ? w->spec->nfields : 0;
        df.partition.values = p->values;
        df.record_count = m.record_count;
        df.file_size_in_bytes = m.file_size_in_bytes;
        df.block_size_in_bytes = 67108864; /* v1 field; Java writes 64 MiB */
        df.has_sort_order_id = floe__append_sort_order_id(w->a, &df.sort_order_id);
        rc = floe__data_file_set_metrics(tmp, &m, &df);
        if (m.nsplit_offsets) {
            df.has_split_offsets = true;
            df.nsplit_offsets = m.nsplit_offsets;
            df.split_offsets = m.split_offsets;
        }
        if (rc == 0)
            rc = floe__append_add_file(w->a, &df);
    }
    floe__arena_free(tmp);
    floe__pq_metrics_free(&m);
    if (p->out) {
        p->out->abort(p->out);
        p->out = NULL;
    }
    floe__free(p->path);
    p->path = NULL;
    return rc;
}

static int part_write(floe_data_writer *w, part *p, const struct ArrowArray *batch)
{
    if (batch->length == 0)
        return 0;
    if (!p->pw) {
        /* close the oldest open file first when at the limit (round robin
         * over the parts in creation order) */
        for (size_t k = 0; w->nopen >= WRITER_MAX_OPEN && k < w->order.len; k++) {
            part *q = ((part **)w->order.items)[w->evict_at];
            w->evict_at = (w->evict_at + 1) % w->order.len;
            if (q != p && q->pw)
                FLOE_TRY(part_close(w, q));
        }
        FLOE_TRY(part_open(w, p));
        w->nopen++;
    }
    FLOE_TRY(floe__pq_writer_write(p->pw, batch));
    if (floe__pq_writer_bytes(p->pw) >= w->target_size)
        return part_close(w, p);
    return 0;
}

/* ---------------------------------------------------------------- routing */

static int part_get(floe_data_writer *w, const floe_value *tuple, part **out)
{
    floe_buf key = FLOE_BUF_INIT;
    size_t nf = w->spec ? w->spec->nfields : 0;
    int rc = 0;
    if (nf) {
        floe_partition_value pv = {nf, tuple};
        rc = floe_partition_path(w->spec, &pv, &key);
    }
    if (rc == 0 && !key.ptr)
        rc = floe__buf_puts(&key, "");
    part *p = rc == 0 ? floe__strmap_get(w->parts, key.ptr) : NULL;
    if (rc == 0 && !p) {
        p = floe__calloc(1, sizeof *p);
        part **slot = p ? floe__vec_push(&w->order) : NULL;
        if (!slot) {
            floe__free(p);
            rc = floe__error_nomem();
        } else {
            *slot = p;
            p->key = floe__buf_detach(&key);
            if (nf)
                p->values = floe__arena_calloc(w->arena, nf, sizeof *p->values);
            if (!p->key || (nf && !p->values))
                rc = floe__error_nomem();
            for (size_t i = 0; rc == 0 && i < nf; i++) {
                /* keep the tuple: byte values point into the caller's batch */
                p->values[i] = tuple[i];
                if ((tuple[i].type == FLOE_T_STRING || tuple[i].type == FLOE_T_BINARY ||
                     tuple[i].type == FLOE_T_FIXED || tuple[i].type == FLOE_T_UUID) &&
                    !tuple[i].is_null) {
                    void *copy = floe__arena_memdup(w->arena, tuple[i].v.bytes.ptr,
                                                    tuple[i].v.bytes.len ? tuple[i].v.bytes.len
                                                                         : 1);
                    if (!copy)
                        rc = floe__error_nomem();
                    p->values[i].v.bytes.ptr = copy;
                }
            }
            if (rc == 0)
                rc = floe__strmap_put(w->parts, p->key, p);
        }
    }
    floe__buf_free(&key);
    if (rc == 0)
        *out = p;
    return rc;
}

static int row_tuple(floe_data_writer *w, const struct ArrowArray *batch, int64_t row,
                     floe_value *tuple)
{
    for (size_t f = 0; f < w->spec->nfields; f++) {
        floe_value v;
        const struct ArrowArray *col = batch->children[w->source_col[f]];
        FLOE_TRY(floe__arrow_value_at(col, w->source_type[f], row, &v));
        FLOE_TRY(floe_transform_apply(&w->spec->fields[f].transform, &v, &tuple[f]));
    }
    return 0;
}

static bool same_tuple(const floe_value *a, const floe_value *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i].is_null != b[i].is_null)
            return false;
        if (!a[i].is_null && floe_value_compare(&a[i], &b[i]) != 0)
            return false;
    }
    return true;
}

/* Append row r of `batch` to `dst` (a builder of the schema's struct). */
static int copy_row(const floe_type *root, floe_arrow_builder *dst,
                    const struct ArrowArray *batch, int64_t r)
{
    int rc = 0;
    for (size_t c = 0; rc == 0 && c < root->nfields; c++) {
        floe_value v;
        if (floe_type_is_nested(root->fields[c].type)) { /* as the scan copies rows */
            rc = floe__scan_copy_slot(dst->children[c], batch->children[c],
                                      root->fields[c].type, r);
            continue;
        }
        rc = floe__arrow_value_at(batch->children[c], root->fields[c].type, r, &v);
        if (rc == 0)
            rc = floe__arrow_builder_append(dst->children[c], &v);
    }
    return rc == 0 ? floe__arrow_builder_struct_append(dst, true) : rc;
}

/* Sorted writes: route every row into its partition's builder. */
static int keep_rows(floe_data_writer *w, const struct ArrowArray *batch)
{
    const floe_type *root = w->root;
    size_t nf = w->spec ? w->spec->nfields : 0;
    floe_value cur[64];
    if (nf > FLOE_ARRAY_LEN(cur))
        return floe__error(FLOE_EUNSUPPORTED, "table", "more than 64 partition fields");
    int rc = 0;
    for (int64_t r = 0; rc == 0 && r < batch->length; r++) {
        part *p = NULL;
        if (nf)
            rc = row_tuple(w, batch, r, cur);
        if (rc == 0)
            rc = part_get(w, nf ? cur : NULL, &p);
        if (rc == 0 && !p->rows)
            rc = floe__arrow_builder_new(&p->rows, root);
        if (rc == 0)
            rc = copy_row(root, p->rows, batch, r);
    }
    return rc;
}

typedef struct sort_ctx {
    const floe_sort_order *o;
    const floe_value *keys; /* field f of row r at keys[r * nfields + f] */
} sort_ctx;

static int row_cmp(const void *x, const void *y, void *payload)
{
    const sort_ctx *c = payload;
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    size_t nf = c->o->nfields;
    for (size_t f = 0; f < nf; f++) {
        const floe_value *va = &c->keys[(size_t)a * nf + f], *vb = &c->keys[(size_t)b * nf + f];
        const floe_sort_field *sf = &c->o->fields[f];
        int r;
        if (va->is_null || vb->is_null)
            r = va->is_null == vb->is_null ? 0 : (va->is_null == sf->nulls_first ? -1 : 1);
        else
            r = sf->descending ? -floe_value_compare(va, vb) : floe_value_compare(va, vb);
        if (r)
            return r;
    }
    return a < b ? -1 : a > b; /* stable */
}

/* Write a part's kept rows in the sort order. */
static int write_sorted(floe_data_writer *w, part *p)
{
    if (!p->rows || p->rows->length == 0)
        return 0;
    const floe_type *root = w->root;
    size_t nf = w->sort->nfields;
    struct ArrowArray all, sorted;
    memset(&all, 0, sizeof all);
    memset(&sorted, 0, sizeof sorted);
    FLOE_TRY(floe__arrow_builder_finish(p->rows, &all));
    size_t n = (size_t)all.length;
    int64_t *perm = floe__calloc(n ? n : 1, sizeof *perm);
    floe_value *keys = floe__calloc((n * nf) > 0 ? n * nf : 1, sizeof *keys);
    floe_arrow_builder *b = NULL;
    int rc = perm && keys ? 0 : floe__error_nomem();
    for (size_t r = 0; rc == 0 && r < n; r++) {
        perm[r] = (int64_t)r;
        for (size_t f = 0; rc == 0 && f < nf; f++) {
            int col = w->sort_col[f];
            floe_value v;
            rc = floe__arrow_value_at(all.children[col], root->fields[col].type, (int64_t)r, &v);
            if (rc == 0 && v.is_null)
                keys[r * nf + f] = v;
            else if (rc == 0)
                rc = floe_transform_apply(&w->sort->fields[f].transform, &v, &keys[r * nf + f]);
        }
    }
    if (rc == 0) {
        sort_ctx ctx = {w->sort, keys};
        qsort_r(perm, n, sizeof *perm, row_cmp, &ctx);
        rc = floe__arrow_builder_new(&b, root);
    }
    for (size_t k = 0; rc == 0 && k < n; k++)
        rc = copy_row(root, b, &all, perm[k]);
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, &sorted);
    if (rc == 0)
        rc = part_write(w, p, &sorted);
    if (sorted.release)
        sorted.release(&sorted);
    all.release(&all);
    floe__arrow_builder_free(b);
    floe__free(perm);
    floe__free(keys);
    return rc;
}

static void no_release(struct ArrowArray *a)
{
    a->release = NULL;
}

/* A batch of the table schema's layout written with row lineage: the same
 * columns (borrowed) followed by two null lineage columns (inherited). */
static int lineage_pad(floe_data_writer *w, const struct ArrowArray *batch)
{
    size_t nf = w->schema->root->nfields;
    struct ArrowArray **kids = floe__calloc(nf + 2, sizeof(struct ArrowArray *));
    struct ArrowArray nulls[2], padded = *batch;
    memset(nulls, 0, sizeof nulls);
    int rc = kids ? 0 : floe__error_nomem();
    for (int k = 0; rc == 0 && k < 2; k++) {
        floe_arrow_builder *b = NULL;
        floe_value v = floe_value_null(FLOE_T_LONG);
        rc = floe__arrow_builder_new(&b, w->root->fields[nf + (size_t)k].type);
        for (int64_t r = 0; rc == 0 && r < batch->length; r++)
            rc = floe__arrow_builder_append(b, &v);
        if (rc == 0)
            rc = floe__arrow_builder_finish(b, &nulls[k]);
        floe__arrow_builder_free(b);
    }
    if (rc == 0) {
        for (size_t c = 0; c < nf; c++)
            kids[c] = batch->children[c];
        kids[nf] = &nulls[0];
        kids[nf + 1] = &nulls[1];
        padded.n_children = (int64_t)nf + 2;
        padded.children = kids;
        padded.release = no_release;
        rc = floe__data_writer_write(w, &padded);
    }
    floe__free(kids);
    for (int k = 0; k < 2; k++)
        if (nulls[k].release)
            nulls[k].release(&nulls[k]);
    return rc;
}

int floe__data_writer_write(floe_data_writer *w, const struct ArrowArray *batch)
{
    const floe_type *root = w->root;
    if (w->lineage && batch->n_children == (int64_t)w->schema->root->nfields)
        return lineage_pad(w, batch);
    if (batch->n_children != (int64_t)root->nfields)
        return floe__error(FLOE_EINVALID, "table",
                           "batch has %lld columns, the table schema %zu",
                           (long long)batch->n_children, root->nfields);
    if (w->sort)
        return keep_rows(w, batch);
    size_t nf = w->spec ? w->spec->nfields : 0;
    if (nf == 0) {
        part *p;
        int rc = part_get(w, NULL, &p); /* 0 (p set) or negative */
        return rc != 0 ? rc : part_write(w, p, batch);
    }
    if (batch->length == 0)
        return 0;
    floe_value first[64], cur[64];
    if (nf > FLOE_ARRAY_LEN(first))
        return floe__error(FLOE_EUNSUPPORTED, "table", "more than 64 partition fields");
    FLOE_TRY(row_tuple(w, batch, 0, first));
    bool uniform = true;
    for (int64_t r = 1; r < batch->length && uniform; r++) {
        FLOE_TRY(row_tuple(w, batch, r, cur));
        uniform = same_tuple(first, cur, nf);
    }
    if (uniform) {
        part *p;
        int rc = part_get(w, first, &p); /* 0 (p set) or negative */
        return rc != 0 ? rc : part_write(w, p, batch);
    }
    /* mixed batch: copy rows into per-partition builders */
    int rc = 0;
    floe_vec touched = FLOE_VEC_INIT(part *);
    for (int64_t r = 0; rc == 0 && r < batch->length; r++) {
        part *p = NULL;
        rc = row_tuple(w, batch, r, cur);
        if (rc == 0)
            rc = part_get(w, cur, &p);
        if (rc == 0 && !p->rows)
            rc = floe__arrow_builder_new(&p->rows, root);
        if (rc == 0 && p->rows->length == 0) {
            part **slot = floe__vec_push(&touched);
            if (!slot)
                rc = floe__error_nomem();
            else
                *slot = p;
        }
        if (rc == 0)
            rc = copy_row(root, p->rows, batch, r);
    }
    for (size_t i = 0; i < touched.len; i++) {
        part *p = ((part **)touched.items)[i];
        struct ArrowArray arr;
        memset(&arr, 0, sizeof arr);
        if (rc == 0)
            rc = floe__arrow_builder_finish(p->rows, &arr);
        else
            floe__arrow_builder_reset(p->rows);
        if (rc == 0) {
            rc = part_write(w, p, &arr);
            arr.release(&arr);
        }
    }
    floe__vec_free(&touched);
    return rc;
}

int floe__data_writer_close(floe_data_writer *w)
{
    int rc = 0;
    for (size_t i = 0; rc == 0 && w->sort && i < w->order.len; i++)
        rc = write_sorted(w, ((part **)w->order.items)[i]);
    for (size_t i = 0; rc == 0 && i < w->order.len; i++)
        rc = part_close(w, ((part **)w->order.items)[i]);
    return rc;
}

/* ---------------------------------------------------------------- row lineage */

static const floe_type lineage_long = {.id = FLOE_T_LONG};
static const floe_field lineage_fields[2] = {
    {.id = FLOE_ROW_ID_FIELD_ID, .name = "_row_id", .required = false, .type = &lineage_long},
    {.id = FLOE_LAST_UPDATED_SEQ_FIELD_ID,
     .name = "_last_updated_sequence_number",
     .required = false,
     .type = &lineage_long},
};

int floe__lineage_root(floe_arena *a, const floe_type *root, const floe_type **out)
{
    floe_field *f = floe__arena_calloc(a, root->nfields + 2, sizeof *f);
    floe_type *t = floe__arena_calloc(a, 1, sizeof *t);
    if (!f || !t)
        return floe__error_nomem();
    if (root->nfields)
        memcpy(f, root->fields, root->nfields * sizeof *f);
    f[root->nfields] = lineage_fields[0];
    f[root->nfields + 1] = lineage_fields[1];
    t->id = FLOE_T_STRUCT;
    t->nfields = root->nfields + 2;
    t->fields = f;
    *out = t;
    return 0;
}

int floe__lineage_copy(floe_arrow_builder *dst, const struct ArrowArray *src, size_t nf,
                       int64_t row, int64_t pos, const floe_scan_file *f)
{
    floe_value id, seq;
    FLOE_TRY(floe__arrow_value_at(src->children[nf], &lineage_long, row, &id));
    FLOE_TRY(floe__arrow_value_at(src->children[nf + 1], &lineage_long, row, &seq));
    if (f->has_first_row_id && id.is_null) /* spec: inherited, so made explicit */
        id = floe_value_long(f->first_row_id + pos);
    if (f->has_first_row_id && seq.is_null)
        seq = floe_value_long(f->data_sequence_number);
    FLOE_TRY(floe__arrow_builder_append(dst->children[nf], &id));
    return floe__arrow_builder_append(dst->children[nf + 1], &seq);
}

int floe_table_arrow_schema(struct ArrowSchema *out, const floe_table *t)
{
    if (!t || !out)
        return floe__error(FLOE_EINVALID, "table", "NULL argument");
    return floe__arrow_schema_from_struct(out, floe__metadata_current_schema(t->metadata)->root);
}
