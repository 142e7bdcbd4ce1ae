/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan/read: scan tasks -> ArrowArrayStream (spec "Column Projection",
 * "Schema Evolution", "Default values", "Row-level Deletes", "Column
 * Projection" on identity partition values, "Name Mapping Serialization").
 *
 * Each task's data file is read with the Parquet reader, projected by field
 * id onto the read schema: the requested columns first, then any column the
 * residual filter or the equality deletes need. The Parquet reader already
 * resolves renames and drops (ids), promotions (int->long, float->double,
 * decimal precision) and gives nulls for columns the file lacks; this file
 * then
 *   - fills a missing column with the file's identity partition value (files
 *     written without their partition columns, e.g. Hive migrations); the
 *     reader has already given every field the file lacks, at any nesting
 *     level, its initial-default (v3 defaults);
 *   - drops rows deleted by position (positions counted from the file's
 *     first row) or by equality (null-safe, only deletes whose data
 *     sequence number is greater; pairing is done in planning);
 *   - drops rows failing the task's residual filter;
 *   - and emits only the requested columns.
 * Batches that lose no rows pass through without copying; the others are
 * compacted inside their own buffers (floe__scan_compact), nested columns
 * copied.
 *
 * Two metadata columns may be requested by name besides the schema's
 * (Java's MetadataColumns, the ids reserved by the spec's "Reserved Field
 * IDs"): `_file` (string, id 2147483646: the data file's path) and `_pos`
 * (long, id 2147483645: the row's 0-based position in the file, counted
 * before deletes and filters, as position delete files count). Row-level
 * SQL uses them to name the rows it removes.
 *
 * And the v3 row lineage columns (spec "Row Lineage"): `_row_id` (long, id
 * 2147483540) and `_last_updated_sequence_number` (long, id 2147483539).
 * They are read from the data file like any column (null when the file
 * lacks them); a null `_row_id` is the file's first_row_id plus the row's
 * position, a null `_last_updated_sequence_number` the file's data
 * sequence number. Files without a first_row_id (written before v3) keep
 * both null.
 */
#include "scan/scan.h"

#include "arrow/arrow.h"
#include "manifest/manifest.h"
#include "parquet/parquet.h"
#include "spec/spec.h"
#include "spec/value.h"
#include "expr/expr.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Append slot i of `a` (type t) to builder b. */
int floe__scan_copy_slot(floe_arrow_builder *b, const struct ArrowArray *a, const floe_type *t,
                         int64_t i)
{
    if (!floe_type_is_nested(t)) {
        floe_value v;
        FLOE_TRY(floe__arrow_value_at(a, t, i, &v));
        return floe__arrow_builder_append(b, &v);
    }
    bool valid = floe__arrow_is_valid(a, i);
    if (t->id == FLOE_T_STRUCT) {
        for (size_t k = 0; k < t->nfields; k++)
            FLOE_TRY(floe__scan_copy_slot(b->children[k], a->children[k], t->fields[k].type, i));
        return floe__arrow_builder_struct_append(b, valid);
    }
    const int32_t *off = (const int32_t *)a->buffers[1] + a->offset;
    int64_t lo = off[i], hi = off[i + 1];
    if (t->id == FLOE_T_LIST) {
        for (int64_t j = lo; j < hi; j++)
            FLOE_TRY(floe__scan_copy_slot(b->children[0], a->children[0], t->element->type, j));
    } else {
        const struct ArrowArray *ent = a->children[0];
        for (int64_t j = lo; j < hi; j++) {
            FLOE_TRY(floe__scan_copy_slot(b->children[0], ent->children[0], t->key->type, j + ent->offset));
            FLOE_TRY(floe__scan_copy_slot(b->children[1], ent->children[1], t->value->type, j + ent->offset));
        }
    }
    return floe__arrow_builder_list_append(b, valid, hi - lo);
}

/* ---------------------------------------------------------------- metadata columns */

#define META_FILE_ID 2147483646
#define META_POS_ID 2147483645
#define META_ROW_ID_ID 2147483540
#define META_LAST_SEQ_ID 2147483539

static const floe_type meta_string = {.id = FLOE_T_STRING};
static const floe_type meta_long = {.id = FLOE_T_LONG};
static const floe_field meta_fields[4] = {
    {.id = META_FILE_ID, .name = "_file", .required = true, .type = &meta_string},
    {.id = META_POS_ID, .name = "_pos", .required = true, .type = &meta_long},
    {.id = META_ROW_ID_ID, .name = "_row_id", .required = false, .type = &meta_long},
    {.id = META_LAST_SEQ_ID, .name = "_last_updated_sequence_number", .required = false,
     .type = &meta_long},
};

static bool is_meta_id(int32_t id)
{
    return id == META_FILE_ID || id == META_POS_ID;
}

/* ---------------------------------------------------------------- name mapping */

typedef struct nm_node nm_node;
struct nm_node {
    int32_t field_id; /* 0: none */
    size_t nnames;
    const char **names;
    size_t nchildren;
    nm_node *children;
};

static int nm_parse(nm_node *out, const floe_json *arr, floe_arena *a, int depth)
{
    if (depth > 32 || !floe__json_is_array(arr))
        return floe__error(FLOE_EINVALID, "scan", "schema.name-mapping.default: expected an array");
    size_t n = floe__json_len(arr);
    out->nchildren = n;
    out->children = floe__arena_calloc(a, n ? n : 1, sizeof(nm_node));
    if (!out->children)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const floe_json *o = floe__json_at(arr, i);
        nm_node *c = &out->children[i];
        const floe_json *id = floe__json_get(o, "field-id"), *names = floe__json_get(o, "names"),
                        *fields = floe__json_get(o, "fields");
        if (id && floe__json_is_integer(id))
            c->field_id = (int32_t)floe__json_ival(id);
        if (names && floe__json_is_array(names)) {
            c->nnames = floe__json_len(names);
            c->names = floe__arena_calloc(a, c->nnames ? c->nnames : 1, sizeof(char *));
            if (!c->names)
                return floe__error_nomem();
            for (size_t k = 0; k < c->nnames; k++)
                c->names[k] = floe__json_sval(floe__json_at(names, k));
        }
        if (fields && floe__json_is_array(fields))
            FLOE_TRY(nm_parse(c, fields, a, depth + 1));
    }
    return 0;
}

static int32_t nm_lookup(const char *const *path, size_t depth, void *payload)
{
    const nm_node *n = payload;
    int32_t id = 0;
    for (size_t d = 0; d < depth && n; d++) {
        const nm_node *next = NULL;
        for (size_t i = 0; i < n->nchildren && !next; i++)
            for (size_t k = 0; k < n->children[i].nnames; k++)
                if (n->children[i].names[k] && path[d] && !strcmp(n->children[i].names[k], path[d])) {
                    next = &n->children[i];
                    break;
                }
        n = next;
        id = n ? n->field_id : 0;
    }
    return id;
}

/* ---------------------------------------------------------------- stream */

typedef struct scan_stream {
    const floe_scan_plan *plan;
    floe_fileio *io;
    floe_arena *arena;
    floe_type read_root;
    floe_schema read_schema;
    floe_field *fields; /* read fields: output columns first */
    size_t nread, nout;
    floe_type out_root;
    nm_node *mapping; /* NULL: none */
    size_t next_task;
    size_t nlanes;
    struct lane *lanes;
    size_t emit; /* next lane to emit a ready batch from */
    bool striped; /* all lanes read one task, in stripes (SCAN_STRIPE_ROWS) */
    floe_pool *pool;
    char last_error[1024]; /* "<FLOE_E* name>: <message>" for Arrow consumers */
    int last_code;         /* the FLOE_E* code of that failure */
    size_t message_at;     /* where <message> starts in last_error */
} scan_stream;

/* One task being read. Several lanes decode batches of different tasks in
 * parallel (one call of floe__pool_for per round); a lane touches only its
 * own state and the stream's read-only setup. */
typedef struct lane {
    const floe_scan_task *task; /* NULL: idle */
    floe_input *in;
    floe_pq_reader *r;
    floe_scan_posdel pd;
    size_t pd_at;
    floe_scan_eqset **eq;
    size_t neq;
    int **eq_cols; /* per set: read column index of each id */
    const floe_value **fill; /* per read field: value for a column the file lacks */
    int64_t row_off;
    uint8_t *keep;
    size_t keep_cap;
    int64_t *idx; /* kept row indices (keep_cap of them) */
    bool ready; /* `out` holds a batch to emit */
    struct ArrowArray out;
    int64_t rg_skipped; /* row groups skipped by the residual (statistics) */
} lane;

static void task_close(lane *s)
{
    floe__pq_reader_free(s->r);
    s->r = NULL;
    if (s->in)
        s->in->close(s->in);
    s->in = NULL;
    floe__free(s->pd.pos);
    s->pd.pos = NULL;
    s->pd.n = 0;
    for (size_t i = 0; i < s->neq; i++) {
        floe__scan_eqset_free(s->eq[i]);
        if (s->eq_cols)
            floe__free(s->eq_cols[i]);
    }
    floe__free(s->eq);
    floe__free(s->eq_cols);
    s->eq = NULL;
    s->eq_cols = NULL;
    s->neq = 0;
    s->task = NULL;
    if (s->ready && s->out.release)
        s->out.release(&s->out);
    s->ready = false;
}

static bool file_has_field(const floe_pq_tree *tree, const floe_field *f, const nm_node *mapping)
{
    const floe_pq_node *root = tree->root;
    bool ids = false;
    for (size_t i = 0; i < tree->nleaves; i++)
        if (tree->leaves[i]->el->has_field_id)
            ids = true;
    for (size_t i = 0; i < root->nchildren; i++) {
        const floe_pq_schema_element *el = root->children[i]->el;
        if (ids) {
            if (el->has_field_id && el->field_id == f->id)
                return true;
        } else if (mapping) {
            const char *p[1] = {el->name};
            if (nm_lookup(p, 1, (void *)mapping) == f->id)
                return true;
        } else if (!strcmp(el->name, f->name)) {
            return true;
        }
    }
    return false;
}

static int read_col_of(const scan_stream *s, int32_t id)
{
    for (size_t i = 0; i < s->nread; i++)
        if (s->fields[i].id == id)
            return (int)i;
    return -1;
}

static bool keep_row_group(floe_pq_reader *r, size_t rg, void *payload);

/* Rows per batch: a row group is decoded this many rows at a time into
 * buffers reused from batch to batch (parquet/reader.c), so a scan's memory
 * and page faults do not grow with the row group (Java writes 128 MiB
 * ones), and a batch's columns stay in cache between decoding, deletes,
 * filter and the consumer. */
#define SCAN_BATCH_ROWS 65536

/* Striped reading (a table of fewer data files than threads): every lane
 * reads the same file, lane i the stripes i, i + nlanes, ... of this many
 * rows (parquet/reader.c stripe mode; pages of other stripes are not even
 * decompressed), and a round emits lane 0's stripe, then lane 1's: the
 * file's rows in order, on every core. One batch a stripe: larger stripes
 * would waste less on the page a stripe starts or ends inside (decoded by
 * both lanes: ~30 % more pages with Java's 20,000-row pages) but lose the
 * cache locality of 64Ki-row batches, which costs more (measured). */
#define SCAN_STRIPE_ROWS 65536

static int task_open(scan_stream *s, lane *L, const floe_scan_task *t)
{
    const floe_scan_file *f = t->file;
    L->task = t;
    L->row_off = 0;
    L->pd_at = 0;
    if (strcmp(f->format, "PARQUET") != 0)
        return floe__error(FLOE_EUNSUPPORTED, "scan", "data file format %s is not supported: %s",
                           f->format, f->path);
    FLOE_TRY(floe_fileio_open_input(&L->in, s->io, f->path));
    floe_pq_read_options o;
    memset(&o, 0, sizeof o);
    o.projection = &s->read_schema;
    if (s->mapping) {
        o.name_mapping = nm_lookup;
        o.name_mapping_payload = s->mapping;
    }
    o.keep_row_group = keep_row_group;
    o.keep_row_group_payload = L;
    o.batch_rows = SCAN_BATCH_ROWS;
    if (s->striped) {
        o.stripe_rows = SCAN_STRIPE_ROWS;
        o.stripe_index = (int)(L - s->lanes);
        o.stripe_count = (int)s->nlanes;
    }
    FLOE_TRY(floe__pq_reader_open(&L->r, L->in, &o));
    /* columns the file lacks: the identity partition value (the Parquet
     * reader has filled them with their initial-default, at every level) */
    const floe_pq_tree *tree = floe__pq_reader_tree(L->r);
    const floe_partition_spec *spec = floe__metadata_spec(s->plan->meta, f->spec_id);
    for (size_t i = 0; i < s->nread; i++) {
        const floe_field *fd = &s->fields[i];
        L->fill[i] = NULL;
        if (is_meta_id(fd->id) || file_has_field(tree, fd, s->mapping))
            continue;
        for (size_t k = 0; spec && k < spec->nfields && k < f->partition.n; k++)
            if (spec->fields[k].source_id == fd->id &&
                spec->fields[k].transform.kind == FLOE_TR_IDENTITY)
                L->fill[i] = &f->partition.values[k];
        if (L->fill[i] && L->fill[i]->is_null)
            L->fill[i] = NULL;
    }
    if (t->ndeletes) {
        FLOE_TRY(floe__scan_load_posdeletes(s->io, f, t->deletes, t->ndeletes, &L->pd));
        FLOE_TRY(floe__scan_load_eqdeletes(s->io, s->plan->schema, t->deletes, t->ndeletes, &L->eq,
                                           &L->neq));
        if (L->neq && !(L->eq_cols = floe__calloc(L->neq, sizeof(int *))))
            return floe__error_nomem();
        for (size_t e = 0; e < L->neq; e++) {
            size_t n = floe__scan_eqset_nids(L->eq[e]);
            const int32_t *ids = floe__scan_eqset_ids(L->eq[e]);
            if (!(L->eq_cols[e] = floe__malloc(n * sizeof(int))))
                return floe__error_nomem();
            for (size_t k = 0; k < n; k++)
                if ((L->eq_cols[e][k] = read_col_of(s, ids[k])) < 0)
                    return floe__error(FLOE_EUNSUPPORTED, "scan",
                                       "equality deletes on nested field %d are not supported",
                                       ids[k]);
        }
    }
    return 0;
}

/* Row-group pruning: the task's residual against the row group's column
 * statistics (as Iceberg metrics, through the inclusive metrics evaluator).
 * Only types whose Parquet min/max are exact are used (not strings or
 * binary, whose statistics writers may truncate). A skipped row group
 * still advances the row position used by position deletes. */
static bool keep_row_group(floe_pq_reader *r, size_t rg, void *payload)
{
    lane *L = payload;
    const floe_expr *res = L->task->residual;
    if (!res || res->kind == FLOE_EXPR_TRUE)
        return true;
    floe_vec ids = FLOE_VEC_INIT(int32_t);
    floe_metric_count vc[16], nc[16];
    floe_metric_bound lo[16], hi[16];
    floe_buf bytes[32];
    size_t n = 0, nb = 0;
    bool keep = true;
    if (floe_expr_field_ids(res, &ids) < 0) {
        floe_error_clear();
        floe__vec_free(&ids);
        return true;
    }
    for (size_t i = 0; i < ids.len && n < 16; i++) {
        int32_t id = *(int32_t *)floe__vec_at(&ids, i);
        floe_pq_chunk_stats st;
        if (floe__pq_reader_chunk_stats(r, rg, id, &st) < 0) {
            floe_error_clear();
            continue;
        }
        if (!st.num_values && !st.has_min_max)
            continue; /* not in the file (filled from partition or default) */
        vc[n] = (floe_metric_count){id, st.num_values};
        nc[n] = (floe_metric_count){id, st.has_null_count ? st.null_count : -1};
        lo[n] = hi[n] = (floe_metric_bound){id, NULL, 0};
        floe_type_id t = st.min.type;
        if (st.has_min_max && t != FLOE_T_STRING && t != FLOE_T_BINARY && t != FLOE_T_FIXED &&
            t != FLOE_T_UUID) {
            bytes[nb] = (floe_buf)FLOE_BUF_INIT;
            bytes[nb + 1] = (floe_buf)FLOE_BUF_INIT;
            if (floe_value_to_single(&st.min, &bytes[nb]) == 0 &&
                floe_value_to_single(&st.max, &bytes[nb + 1]) == 0) {
                lo[n] = (floe_metric_bound){id, (const uint8_t *)bytes[nb].ptr, bytes[nb].len};
                hi[n] = (floe_metric_bound){id, (const uint8_t *)bytes[nb + 1].ptr,
                                            bytes[nb + 1].len};
            }
            nb += 2;
        }
        n++;
    }
    floe__vec_free(&ids);
    if (n) {
        /* compact the bounds (only fields that have them) */
        floe_metric_bound blo[16], bhi[16];
        floe_metric_count cnc[16];
        size_t k = 0, kn = 0;
        for (size_t i = 0; i < n; i++) {
            if (lo[i].ptr) {
                blo[k] = lo[i];
                bhi[k++] = hi[i];
            }
            if (nc[i].count >= 0)
                cnc[kn++] = nc[i];
        }
        floe_file_metrics m;
        memset(&m, 0, sizeof m);
        m.record_count = floe__pq_reader_meta(r)->row_groups[rg].num_rows;
        m.value_counts = vc;
        m.n_value_counts = n;
        m.null_value_counts = cnc;
        m.n_null_value_counts = kn;
        m.lower_bounds = blo;
        m.n_lower_bounds = k;
        m.upper_bounds = bhi;
        m.n_upper_bounds = k;
        if (floe_expr_metrics_might_match(&keep, res, &m) < 0) {
            floe_error_clear();
            keep = true;
        }
    }
    for (size_t i = 0; i < nb; i++)
        floe__buf_free(&bytes[i]);
    if (!keep)
        L->rg_skipped++;
    return keep;
}

/* A constant column of n copies of v. */
static int fill_column(struct ArrowArray *out, int64_t n, const floe_field *fd, const floe_value *v)
{
    floe_arrow_builder *bl;
    FLOE_TRY(floe__arrow_builder_new(&bl, fd->type));
    int rc = 0;
    for (int64_t i = 0; i < n && rc == 0; i++)
        rc = floe__arrow_builder_append(bl, v);
    if (rc == 0)
        rc = floe__arrow_builder_finish(bl, out);
    floe__arrow_builder_free(bl);
    return rc;
}

/* A long column of n rows: row r is stored's value where that is not null
 * (stored may be NULL), else base + r * step. */
static int long_column(struct ArrowArray *out, int64_t n, const floe_field *fd,
                       const struct ArrowArray *stored, int64_t base, int64_t step)
{
    floe_arrow_builder *bl;
    FLOE_TRY(floe__arrow_builder_new(&bl, fd->type));
    int rc = 0;
    for (int64_t r = 0; r < n && rc == 0; r++) {
        floe_value v = floe_value_long(base + r * step);
        if (stored && floe__arrow_is_valid(stored, r))
            rc = floe__arrow_value_at(stored, fd->type, r, &v);
        if (rc == 0)
            rc = floe__arrow_builder_append(bl, &v);
    }
    if (rc == 0)
        rc = floe__arrow_builder_finish(bl, out);
    floe__arrow_builder_free(bl);
    return rc;
}

static int process(const scan_stream *s, lane *L, struct ArrowArray *b, struct ArrowArray *out)
{
    int64_t n = b->length;
    for (size_t i = 0; i < s->nread; i++) {
        if (!L->fill[i])
            continue;
        struct ArrowArray col;
        FLOE_TRY(fill_column(&col, n, &s->fields[i], L->fill[i]));
        struct ArrowArray *slot = b->children[i];
        if (slot->release)
            slot->release(slot);
        *slot = col;
    }
    for (size_t i = 0; i < s->nread; i++) {
        if (!is_meta_id(s->fields[i].id))
            continue;
        struct ArrowArray col;
        if (s->fields[i].id == META_FILE_ID) {
            const char *path = L->task->file->path;
            floe_value v = floe_value_bytes(FLOE_T_STRING, path, strlen(path));
            FLOE_TRY(fill_column(&col, n, &s->fields[i], &v));
        } else {
            FLOE_TRY(long_column(&col, n, &s->fields[i], NULL, L->row_off, 1));
        }
        struct ArrowArray *slot = b->children[i];
        if (slot->release)
            slot->release(slot);
        *slot = col;
    }
    const floe_scan_file *f = L->task->file;
    for (size_t i = 0; f->has_first_row_id && i < s->nread; i++) {
        int32_t id = s->fields[i].id;
        struct ArrowArray *slot = b->children[i];
        if ((id != META_ROW_ID_ID && id != META_LAST_SEQ_ID) || slot->null_count == 0)
            continue;
        /* inherited where the file stores null (or lacks the column) */
        struct ArrowArray col;
        if (id == META_ROW_ID_ID)
            FLOE_TRY(long_column(&col, n, &s->fields[i], slot, f->first_row_id + L->row_off, 1));
        else
            FLOE_TRY(long_column(&col, n, &s->fields[i], slot, f->data_sequence_number, 0));
        if (slot->release)
            slot->release(slot);
        *slot = col;
    }
    const floe_expr *res = L->task->residual;
    bool filter = res && res->kind != FLOE_EXPR_TRUE;
    int64_t kept = n;
    if (L->pd.n || L->neq || filter) {
        if ((size_t)n > L->keep_cap) {
            uint8_t *k = floe__realloc(L->keep, (size_t)n);
            if (!k)
                return floe__error_nomem();
            L->keep = k;
            int64_t *ix = floe__realloc(L->idx, (size_t)n * sizeof *ix);
            if (!ix)
                return floe__error_nomem();
            L->idx = ix;
            L->keep_cap = (size_t)n;
        }
        memset(L->keep, 1, (size_t)n);
        /* the sorted deleted positions inside this batch, one step each */
        while (L->pd_at < L->pd.n && L->pd.pos[L->pd_at] < L->row_off)
            L->pd_at++;
        for (; L->pd_at < L->pd.n && L->pd.pos[L->pd_at] < L->row_off + n; L->pd_at++)
            L->keep[L->pd.pos[L->pd_at] - L->row_off] = 0;
        floe_value vals[64];
        for (size_t e = 0; e < L->neq; e++) {
            size_t nid = floe__scan_eqset_nids(L->eq[e]);
            if (nid > FLOE_ARRAY_LEN(vals))
                return floe__error(FLOE_EUNSUPPORTED, "scan", "too many equality columns");
            for (int64_t i = 0; i < n; i++) {
                if (!L->keep[i])
                    continue;
                for (size_t k = 0; k < nid; k++) {
                    int c = L->eq_cols[e][k];
                    FLOE_TRY(floe__arrow_value_at(b->children[c], s->fields[c].type, i, &vals[k]));
                }
                if (floe__scan_eqset_has(L->eq[e], vals))
                    L->keep[i] = 0;
            }
        }
        if (filter)
            FLOE_TRY(floe__scan_filter_rows(L->keep, res, &s->read_root, b, n));
        kept = floe__scan_kept_rows(L->keep, n, L->idx);
    }
    L->row_off += n;
    if (kept == n && s->nread == s->nout) {
        *out = *b;
        b->release = NULL;
        return 0;
    }
    FLOE_TRY(floe__arrow_array_alloc(out, 1, (int64_t)s->nout));
    out->length = kept;
    out->null_count = 0;
    int rc = 0;
    for (size_t c = 0; c < s->nout && rc == 0; c++) {
        if (kept == n) {
            *out->children[c] = *b->children[c];
            b->children[c]->release = NULL;
            continue;
        }
        /* in place when the column allows it (the batch is ours) */
        rc = floe__scan_compact(b->children[c], s->fields[c].type, L->idx, kept);
        if (rc == 0) {
            *out->children[c] = *b->children[c];
            b->children[c]->release = NULL;
        } else if (rc == 1) {
            rc = floe__scan_take(out->children[c], b->children[c], s->fields[c].type, L->idx,
                                 kept);
        }
    }
    if (rc < 0) {
        out->release(out);
        return rc;
    }
    return 0;
}

/* One round for lane i: open its task if needed and decode one non-empty
 * batch into lane->out (or finish the task). A striped lane decodes its
 * next stripe, even when no row of it survives (an empty batch keeps the
 * lanes' turns, next_batch drops it). */
static int lane_step(size_t i, void *payload)
{
    scan_stream *s = payload;
    lane *L = &s->lanes[i];
    if (!L->task || L->ready)
        return 0;
    int rc;
    if (!L->r && (rc = task_open(s, L, L->task)) < 0) {
        floe__error_context("reading %s", L->task->file->path);
        task_close(L);
        return rc;
    }
    for (;;) {
        struct ArrowArray b;
        rc = floe__pq_reader_next(L->r, &b);
        if (rc == FLOE_ITEROVER) {
            task_close(L);
            return 0;
        }
        if (rc < 0)
            return rc;
        /* positions (deletes, _pos, _row_id) count from the file's first row */
        L->row_off = floe__pq_reader_batch_row(L->r);
        rc = process(s, L, &b, &L->out);
        if (b.release)
            b.release(&b);
        if (rc < 0)
            return rc;
        if (L->out.length == 0 && !s->striped) {
            L->out.release(&L->out);
            continue;
        }
        L->ready = true;
        return 0;
    }
}

static int next_batch(scan_stream *s, struct ArrowArray *out)
{
    for (;;) {
        for (; s->emit < s->nlanes; s->emit++) {
            lane *L = &s->lanes[s->emit];
            if (L->ready) {
                L->ready = false;
                if (L->out.length == 0) { /* a striped lane's empty turn */
                    L->out.release(&L->out);
                    memset(&L->out, 0, sizeof L->out);
                    continue;
                }
                *out = L->out;
                memset(&L->out, 0, sizeof L->out);
                s->emit++;
                return 0;
            }
        }
        /* new round: give idle lanes the next tasks (striped: all lanes the
         * same task, once every lane is done with the last one) */
        bool busy = false;
        for (size_t i = 0; i < s->nlanes; i++)
            busy |= s->lanes[i].task != NULL;
        if (s->striped && !busy && s->next_task < s->plan->ntasks) {
            const floe_scan_task *t = &s->plan->tasks[s->next_task++];
            for (size_t i = 0; i < s->nlanes; i++)
                s->lanes[i].task = t;
            busy = true;
        }
        for (size_t i = 0; i < s->nlanes && !s->striped; i++) {
            lane *L = &s->lanes[i];
            if (!L->task && s->next_task < s->plan->ntasks)
                L->task = &s->plan->tasks[s->next_task++];
            busy |= L->task != NULL;
        }
        if (!busy) {
            memset(out, 0, sizeof *out);
            return FLOE_ITEROVER;
        }
        s->emit = 0;
        FLOE_TRY(floe__pool_for(s->pool, s->nlanes, lane_step, s));
    }
}

static int st_get_schema(struct ArrowArrayStream *st, struct ArrowSchema *out)
{
    scan_stream *s = st->private_data;
    int rc = floe__arrow_schema_from_struct(out, &s->out_root);
    if (rc < 0) {
        snprintf(s->last_error, sizeof s->last_error, "%s",
                 floe_error_last() ? floe_error_last()->message : "error");
        return floe__arrow_errno(rc);
    }
    return 0;
}

static int st_get_next(struct ArrowArrayStream *st, struct ArrowArray *out)
{
    scan_stream *s = st->private_data;
    int rc = next_batch(s, out);
    if (rc == FLOE_ITEROVER) {
        out->release = NULL;
        return 0;
    }
    if (rc < 0) {
        memset(out, 0, sizeof *out);
        const floe_error *e = floe_error_last();
        const char *name = floe_error_code_name(rc);
        snprintf(s->last_error, sizeof s->last_error, "%s: %s", name,
                 e && e->message ? e->message : "error");
        s->last_code = rc;
        s->message_at = strlen(name) + 2;
        return floe__arrow_errno(rc);
    }
    return 0;
}

static const char *st_last_error(struct ArrowArrayStream *st)
{
    scan_stream *s = st->private_data;
    return s->last_error[0] ? s->last_error : NULL;
}

int floe__scan_stream_error(struct ArrowArrayStream *st, const char *subsystem)
{
    if (!st || st->get_last_error != st_last_error || !st->private_data)
        return 0;
    const scan_stream *s = st->private_data;
    if (s->last_code >= 0 || s->message_at >= sizeof s->last_error)
        return 0;
    return floe__error(s->last_code, subsystem, "%s", s->last_error + s->message_at);
}

static void st_release(struct ArrowArrayStream *st)
{
    if (!st || !st->release)
        return;
    scan_stream *s = st->private_data;
    if (s) {
        for (size_t i = 0; i < s->nlanes; i++) {
            task_close(&s->lanes[i]);
            floe__free(s->lanes[i].keep);
            floe__free(s->lanes[i].idx);
        }
        floe__free(s->lanes);
        floe__pool_free(s->pool);
        floe__arena_free(s->arena);
        floe__free(s);
    }
    st->release = NULL;
    st->private_data = NULL;
}

static bool name_eq(const char *a, const char *b, bool cs)
{
    return cs ? !strcmp(a, b) : !strcasecmp(a, b);
}

static int add_read_field(scan_stream *s, const floe_field *f, size_t cap)
{
    for (size_t i = 0; i < s->nread; i++)
        if (s->fields[i].id == f->id)
            return 0;
    if (s->nread >= cap)
        return floe__error(FLOE_EINVALID, "scan", "too many columns");
    s->fields[s->nread] = *f;
    /* a required column may still be missing in old files (added later) */
    s->fields[s->nread].required = false;
    s->nread++;
    return 0;
}

/* The top-level field of `schema` containing field id `id` (NULL if none). */
static const floe_field *top_field_of(const floe_schema *schema, int32_t id)
{
    const floe_type *root = schema->root;
    for (size_t i = 0; i < root->nfields; i++) {
        const floe_field *f = &root->fields[i];
        if (f->id == id)
            return f;
        if (floe_type_is_nested(f->type)) {
            /* search below */
            const floe_type *stack[64];
            size_t sp = 0;
            stack[sp++] = f->type;
            while (sp) {
                const floe_type *t = stack[--sp];
                if (t->id == FLOE_T_STRUCT) {
                    for (size_t k = 0; k < t->nfields; k++) {
                        if (t->fields[k].id == id)
                            return f;
                        if (floe_type_is_nested(t->fields[k].type) && sp < 63)
                            stack[sp++] = t->fields[k].type;
                    }
                } else if (t->id == FLOE_T_LIST) {
                    if (t->element->id == id)
                        return f;
                    if (floe_type_is_nested(t->element->type) && sp < 63)
                        stack[sp++] = t->element->type;
                } else if (t->id == FLOE_T_MAP) {
                    if (t->key->id == id || t->value->id == id)
                        return f;
                    if (floe_type_is_nested(t->value->type) && sp < 62)
                        stack[sp++] = t->value->type;
                    if (floe_type_is_nested(t->key->type) && sp < 63)
                        stack[sp++] = t->key->type;
                }
            }
        }
    }
    return NULL;
}

static int stream_setup(scan_stream *s, const char *const *columns, size_t ncolumns)
{
    const floe_scan_plan *p = s->plan;
    const floe_type *root = p->schema->root;
    size_t cap = root->nfields + 1 + FLOE_ARRAY_LEN(meta_fields);
    s->fields = floe__arena_calloc(s->arena, cap, sizeof(floe_field));
    if (!s->fields)
        return floe__error_nomem();
    if (columns && ncolumns) {
        for (size_t c = 0; c < ncolumns; c++) {
            const floe_field *hit = NULL;
            for (size_t i = 0; i < root->nfields && !hit; i++)
                if (columns[c] && name_eq(root->fields[i].name, columns[c], true))
                    hit = &root->fields[i];
            for (size_t i = 0; i < root->nfields && !hit; i++)
                if (columns[c] && name_eq(root->fields[i].name, columns[c], false))
                    hit = &root->fields[i];
            for (size_t m = 0; m < FLOE_ARRAY_LEN(meta_fields) && !hit; m++)
                if (columns[c] && name_eq(meta_fields[m].name, columns[c], false))
                    hit = &meta_fields[m];
            if (!hit)
                return floe__error(FLOE_EINVALID, "scan", "Cannot find column '%s' in table schema",
                                   columns[c] ? columns[c] : "(null)");
            size_t before = s->nread;
            FLOE_TRY(add_read_field(s, hit, cap));
            if (s->nread == before)
                return floe__error(FLOE_EINVALID, "scan", "column '%s' projected twice",
                                   columns[c]);
        }
    } else {
        for (size_t i = 0; i < root->nfields; i++)
            FLOE_TRY(add_read_field(s, &root->fields[i], cap));
    }
    s->nout = s->nread;
    /* extra columns: residual filter and equality deletes */
    floe_vec ids = FLOE_VEC_INIT(int32_t);
    int rc = floe_expr_field_ids(p->filter, &ids);
    for (size_t t = 0; rc == 0 && t < p->ntasks; t++)
        for (size_t d = 0; rc == 0 && d < p->tasks[t].ndeletes; d++) {
            const floe_scan_delete_info *df = floe__scan_delete_info(p->tasks[t].deletes[d]);
            for (size_t k = 0; rc == 0 && k < df->nequality_ids; k++) {
                int32_t *slot = floe__vec_push(&ids);
                if (!slot)
                    rc = floe__error_nomem();
                else
                    *slot = df->equality_ids[k];
            }
        }
    for (size_t i = 0; rc == 0 && i < ids.len; i++) {
        const floe_field *f = top_field_of(p->schema, *(int32_t *)floe__vec_at(&ids, i));
        if (f)
            rc = add_read_field(s, f, cap);
    }
    floe__vec_free(&ids);
    FLOE_TRY(rc);
    s->read_root.id = FLOE_T_STRUCT;
    s->read_root.nfields = s->nread;
    s->read_root.fields = s->fields;
    s->read_schema.root = &s->read_root;
    s->read_schema.schema_id = p->schema->schema_id;
    s->out_root.id = FLOE_T_STRUCT;
    s->out_root.nfields = s->nout;
    s->out_root.fields = s->fields;
    const char *nm = floe__props_get(&p->meta->properties, "schema.name-mapping.default");
    if (nm) {
        floe_json *j;
        FLOE_TRY(floe__json_parse(&j, nm, strlen(nm), "schema.name-mapping.default"));
        nm_node *n = floe__arena_calloc(s->arena, 1, sizeof(*n));
        rc = n ? nm_parse(n, j, s->arena, 0) : floe__error_nomem();
        /* names point into the JSON tree: copy them into the arena */
        if (rc == 0) {
            nm_node *stack[256];
            size_t sp = 0;
            stack[sp++] = n;
            while (sp && rc == 0) {
                nm_node *x = stack[--sp];
                for (size_t k = 0; k < x->nnames && rc == 0; k++)
                    if (x->names[k] && !(x->names[k] = floe__arena_strdup(s->arena, x->names[k])))
                        rc = floe__error_nomem();
                for (size_t k = 0; k < x->nchildren && sp < 256; k++)
                    stack[sp++] = &x->children[k];
            }
        }
        floe__json_free(j);
        FLOE_TRY(rc);
        s->mapping = n;
    }
    return 0;
}

static bool has_repeated(const floe_type *t, int depth)
{
    if (t->id == FLOE_T_LIST || t->id == FLOE_T_MAP || depth > FLOE_MAX_TYPE_DEPTH)
        return true;
    for (size_t i = 0; t->id == FLOE_T_STRUCT && i < t->nfields; i++)
        if (has_repeated(t->fields[i].type, depth + 1))
            return true;
    return false;
}

static bool big_task(const floe_scan_plan *p)
{
    for (size_t t = 0; t < p->ntasks; t++)
        if (p->tasks[t].file->record_count > SCAN_STRIPE_ROWS)
            return true;
    return false;
}

/* Fewer data files than threads, one of them more than a stripe, and no
 * list or map read (stripes need flat columns): read files in stripes. */
static bool want_stripes(const scan_stream *s, size_t threads)
{
    const floe_scan_plan *p = s->plan;
    if (threads < 2 || p->ntasks == 0 || p->ntasks >= threads ||
        has_repeated(&s->read_root, 0))
        return false;
    return big_task(p);
}

static int lanes_setup(scan_stream *s, int threads)
{
    size_t n = 1;
    if (threads != 1 && (s->plan->ntasks > 1 || big_task(s->plan))) {
        if (!(s->pool = floe__pool_new(threads > 0 ? threads : 0)))
            return floe__error_nomem();
        n = (size_t)floe__pool_threads(s->pool);
        if ((s->striped = want_stripes(s, n)))
            ; /* every lane on each task */
        else if (n > s->plan->ntasks)
            n = s->plan->ntasks;
        if (n < 1)
            n = 1;
        if (n == 1) {
            floe__pool_free(s->pool);
            s->pool = NULL;
        }
    }
    if (!(s->lanes = floe__calloc(n, sizeof(lane))))
        return floe__error_nomem();
    s->nlanes = n;
    s->emit = n;
    for (size_t i = 0; i < n; i++)
        if (!(s->lanes[i].fill = floe__arena_calloc(s->arena, s->nread + 1, sizeof(void *))))
            return floe__error_nomem();
    return 0;
}

int floe__scan_stream(const floe_scan_plan *plan, floe_fileio *io, const char *const *columns,
                      size_t ncolumns, int threads, struct ArrowArrayStream *out)
{
    memset(out, 0, sizeof *out);
    scan_stream *s = floe__calloc(1, sizeof(*s));
    if (!s)
        return floe__error_nomem();
    s->plan = plan;
    s->io = io;
    int rc;
    if (!(s->arena = floe__arena_new(4096)))
        rc = floe__error_nomem();
    else if ((rc = stream_setup(s, columns, ncolumns)) == 0)
        rc = lanes_setup(s, threads);
    if (rc < 0) {
        floe__free(s->lanes);
        floe__pool_free(s->pool);
        floe__arena_free(s->arena);
        floe__free(s);
        return rc;
    }
    out->get_schema = st_get_schema;
    out->get_next = st_get_next;
    out->get_last_error = st_last_error;
    out->release = st_release;
    out->private_data = s;
    return 0;
}
