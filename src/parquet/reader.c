/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/reader: Parquet file -> Arrow struct batches (one per row group),
 * projected by Iceberg field id.
 *
 * The footer is located from the input's real size (the last 8 bytes: footer
 * length + "PAR1"). Each projected field is matched to a Parquet node by
 * field_id (or, in files without ids, by the caller's name mapping or by
 * name). Column chunks decode to levels + values (column.c); nested values
 * are assembled from levels: a slot of a node exists at level entries where
 * rep <= R and def >= D (R, D: the repetition and definition levels of the
 * node's nearest repeated ancestor), and is non-null where def reaches the
 * node's own definition level.
 */
#include "parquet/column.h"
#include "parquet/parquet.h"

#include <stdio.h>
#include <string.h>

const floe_pq_node *floe__pq_list_element(const floe_pq_node *list);

typedef struct rnode rnode;
struct rnode {
    const floe_field *field;
    const floe_pq_node *pq; /* NULL: not in the file (all nulls) */
    int16_t slot_rep, slot_def;
    int leaf;               /* index into reader leaf data for primitives */
    size_t nchildren;
    rnode **children;       /* struct fields; list: [element]; map: [key, value] */
    int ref_leaf;           /* a leaf under this node present in the file, -1 if none */
};

struct floe_pq_reader {
    floe_input *in;
    floe_arena *arena;
    floe_pq_file_meta meta;
    floe_pq_tree tree;
    const floe_schema *schema;
    floe_pq_read_options opts;
    rnode *root;
    size_t nread; /* leaves read */
    const floe_pq_node **read_leaves;
    floe_pq_leafdata *data;
    floe_arrow_builder *builder;
    size_t next_rg;
    bool have_rg;       /* a decoded row group is being handed out */
    size_t cur_rg;
    int64_t rows_done;
    bool own_input;
    void *zctx; /* zstd decompression context shared by every column chunk */
    floe_pq_pool *pool; /* buffers of released batches, decoded into again */
    int64_t *rg_row;    /* first row of each row group (nrow_groups + 1) */
    int64_t *rg_stripe; /* stripe mode: first stripe of each row group */
    int64_t next_stripe;
    size_t stripe_rg;   /* row group of the last stripe */
    size_t skipped_rg;  /* stripe mode: row group the callback skipped */
    int64_t batch_row;  /* file row of the last batch's first row */
    char last_error[512];
};

/* ---------------------------------------------------------------- open */

static int stripes_setup(floe_pq_reader *r);

static bool file_has_ids(const floe_pq_tree *t)
{
    for (size_t i = 0; i < t->nleaves; i++)
        if (t->leaves[i]->el->has_field_id)
            return true;
    return false;
}

typedef struct plan_ctx {
    floe_pq_reader *r;
    bool use_ids;
    floe_vec leaves; /* const floe_pq_node* */
    const char *path[72];
} plan_ctx;

static int add_leaf(plan_ctx *c, const floe_pq_node *n)
{
    for (size_t i = 0; i < c->leaves.len; i++)
        if (*(const floe_pq_node **)floe__vec_at(&c->leaves, i) == n)
            return (int)i;
    const floe_pq_node **slot = floe__vec_push(&c->leaves);
    if (!slot)
        return floe__error_nomem();
    *slot = n;
    return (int)(c->leaves.len - 1);
}

static const floe_pq_node *match_child(plan_ctx *c, const floe_pq_node *group, const floe_field *f,
                                       int depth)
{
    if (!group)
        return NULL;
    for (size_t i = 0; i < group->nchildren; i++) {
        const floe_pq_node *ch = group->children[i];
        if (c->use_ids) {
            if (ch->el->has_field_id && ch->el->field_id == f->id)
                return ch;
        } else if (c->r->opts.name_mapping) {
            c->path[depth] = ch->el->name;
            /* path from the first level below the root (path[0] is the root) */
            if (c->r->opts.name_mapping(c->path + 1, (size_t)depth,
                                        c->r->opts.name_mapping_payload) == f->id)
                return ch;
        } else if (!strcmp(ch->el->name, f->name)) {
            return ch;
        }
    }
    return NULL;
}

static int plan(plan_ctx *c, const floe_field *f, const floe_pq_node *pq, int16_t srep,
                int16_t sdef, rnode **out, int depth)
{
    if (depth > 60)
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "schema nested too deep");
    rnode *n = floe__arena_calloc(c->r->arena, 1, sizeof(*n));
    if (!n)
        return floe__error_nomem();
    *out = n;
    n->field = f;
    n->pq = pq;
    n->slot_rep = srep;
    n->slot_def = sdef;
    n->leaf = -1;
    n->ref_leaf = -1;
    const floe_type *t = f->type;
    if (pq)
        c->path[depth] = pq->el->name;
    if (!floe_type_is_nested(t)) {
        if (pq) {
            if (pq->el->type < 0)
                return floe__error(FLOE_EINVALID, "parquet",
                                   "field %s (id %d) is a group in %s, expected a primitive",
                                   f->name, f->id, c->r->in->uri);
            int li = add_leaf(c, pq);
            if (li < 0)
                return li;
            n->leaf = n->ref_leaf = li;
        }
        return 0;
    }
    if (pq && pq->el->type >= 0 && t->id != FLOE_T_LIST)
        return floe__error(FLOE_EINVALID, "parquet", "field %s (id %d) is not a group in %s",
                           f->name, f->id, c->r->in->uri);
    if (t->id == FLOE_T_STRUCT) {
        n->nchildren = t->nfields;
        n->children = floe__arena_calloc(c->r->arena, t->nfields ? t->nfields : 1, sizeof(rnode *));
        if (!n->children)
            return floe__error_nomem();
        for (size_t i = 0; i < t->nfields; i++) {
            const floe_pq_node *cp = match_child(c, pq, &t->fields[i], depth + 1);
            FLOE_TRY(plan(c, &t->fields[i], cp, srep, sdef, &n->children[i], depth + 1));
            if (n->ref_leaf < 0)
                n->ref_leaf = n->children[i]->ref_leaf;
        }
        if (pq && n->ref_leaf < 0) {
            /* none of the read members is in the file (all take defaults):
             * the struct's own nulls still come from any leaf under it */
            const floe_pq_node *lf = pq;
            while (lf->nchildren)
                lf = lf->children[0];
            if (lf != pq && lf->el->type >= 0 && (n->ref_leaf = add_leaf(c, lf)) < 0)
                return n->ref_leaf;
        }
        return 0;
    }
    if (t->id == FLOE_T_LIST) {
        n->nchildren = 1;
        n->children = floe__arena_calloc(c->r->arena, 1, sizeof(rnode *));
        if (!n->children)
            return floe__error_nomem();
        const floe_pq_node *en = NULL, *rep = NULL;
        if (pq) {
            if (pq->el->repetition == FLOE_PQ_REPEATED) {
                /* unannotated repeated field: the list and its elements */
                rep = en = pq;
            } else {
                en = floe__pq_list_element(pq);
                if (!en)
                    return floe__error(FLOE_EUNSUPPORTED, "parquet", "unsupported list %s in %s",
                                       f->name, c->r->in->uri);
                rep = pq->children[0];
            }
        }
        FLOE_TRY(plan(c, t->element, en, rep ? rep->max_rep : srep, rep ? rep->max_def : sdef,
                      &n->children[0], depth + 2));
        n->ref_leaf = n->children[0]->ref_leaf;
        return 0;
    }
    /* map */
    n->nchildren = 2;
    n->children = floe__arena_calloc(c->r->arena, 2, sizeof(rnode *));
    if (!n->children)
        return floe__error_nomem();
    const floe_pq_node *kv = NULL, *kn = NULL, *vn = NULL;
    if (pq) {
        if (pq->nchildren != 1 || pq->children[0]->nchildren != 2)
            return floe__error(FLOE_EUNSUPPORTED, "parquet", "unsupported map %s in %s", f->name,
                               c->r->in->uri);
        kv = pq->children[0];
        kn = kv->children[0];
        vn = kv->children[1];
    }
    FLOE_TRY(plan(c, t->key, kn, kv ? kv->max_rep : srep, kv ? kv->max_def : sdef,
                  &n->children[0], depth + 2));
    FLOE_TRY(plan(c, t->value, vn, kv ? kv->max_rep : srep, kv ? kv->max_def : sdef,
                  &n->children[1], depth + 2));
    n->ref_leaf = n->children[0]->ref_leaf >= 0 ? n->children[0]->ref_leaf
                                                : n->children[1]->ref_leaf;
    return 0;
}

static int read_footer(floe_pq_reader *r)
{
    floe_input *in = r->in;
    if (in->size < 12)
        return floe__error(FLOE_ECORRUPT, "parquet",
                           "not a Parquet file (%lld bytes) at offset 0 in %s",
                           (long long)in->size, in->uri);
    uint8_t tail[8];
    FLOE_TRY(in->read_at(in, in->size - 8, tail, 8));
    if (memcmp(tail + 4, "PAR1", 4) != 0)
        return floe__error(FLOE_ECORRUPT, "parquet", "missing PAR1 magic at offset %lld in %s",
                           (long long)(in->size - 4), in->uri);
    uint32_t flen;
    memcpy(&flen, tail, 4);
    if ((int64_t)flen > in->size - 12)
        return floe__error(FLOE_ECORRUPT, "parquet",
                           "footer length %u larger than the file at offset %lld in %s", flen,
                           (long long)(in->size - 8), in->uri);
    int64_t at = in->size - 8 - flen;
    uint8_t *buf = floe__malloc(flen ? flen : 1);
    if (!buf)
        return floe__error_nomem();
    int rc = in->read_at(in, at, buf, flen);
    if (rc == 0)
        rc = floe__pq_decode_file_meta(&r->meta, r->arena, buf, flen, at, in->uri);
    floe__free(buf);
    return rc;
}

int floe__pq_reader_open(floe_pq_reader **out, floe_input *in, const floe_pq_read_options *opts)
{
    *out = NULL;
    floe_pq_reader *r = floe__calloc(1, sizeof(*r));
    if (!r)
        return floe__error_nomem();
    r->in = in;
    if (opts)
        r->opts = *opts;
    int rc;
    plan_ctx c = {r, false, FLOE_VEC_INIT(const floe_pq_node *), {0}};
    if (!(r->arena = floe__arena_new(8192))) {
        rc = floe__error_nomem();
        goto fail;
    }
    if ((rc = read_footer(r)) < 0 ||
        (rc = floe__pq_tree_build(&r->tree, r->arena, r->meta.schema, r->meta.nschema, in->uri)) < 0)
        goto fail;
    for (size_t i = 0; i < r->meta.nrow_groups; i++)
        if (r->meta.row_groups[i].ncolumns != r->tree.nleaves || r->meta.row_groups[i].num_rows < 0) {
            rc = floe__error(FLOE_ECORRUPT, "parquet",
                             "row group %zu has %zu columns, schema has %zu leaves in %s", i,
                             r->meta.row_groups[i].ncolumns, r->tree.nleaves, in->uri);
            goto fail;
        }
    if (r->opts.projection) {
        r->schema = r->opts.projection;
        c.use_ids = file_has_ids(&r->tree);
    } else {
        floe_schema *s;
        if ((rc = floe__pq_infer_schema(&s, r->arena, &r->tree)) < 0)
            goto fail;
        r->schema = s;
        c.use_ids = file_has_ids(&r->tree);
        if (!c.use_ids)
            r->opts.name_mapping = NULL; /* inferred names match the file */
    }
    {
        static const floe_field root_field = {0, "", true, NULL, NULL, NULL, NULL};
        floe_field *rf = floe__arena_memdup(r->arena, &root_field, sizeof(root_field));
        if (!rf) {
            rc = floe__error_nomem();
            goto fail;
        }
        rf->type = r->schema->root;
        if ((rc = plan(&c, rf, r->tree.root, 0, 0, &r->root, 0)) < 0)
            goto fail;
    }
    r->nread = c.leaves.len;
    r->read_leaves = floe__arena_calloc(r->arena, c.leaves.len + 1, sizeof(void *));
    if (r->read_leaves && c.leaves.len)
        memcpy((void *)r->read_leaves, c.leaves.items, c.leaves.len * sizeof(void *));
    r->data = floe__calloc(r->nread ? r->nread : 1, sizeof(floe_pq_leafdata));
    if (!r->read_leaves || !r->data) {
        rc = floe__error_nomem();
        goto fail;
    }
    if ((rc = floe__arrow_builder_new(&r->builder, r->schema->root)) < 0)
        goto fail;
    /* one batch's worth of buffers: validity, values/offsets, data */
    if (!(r->pool = floe__pq_pool_new(3 * r->builder->nchildren + 2 * r->nread + 4))) {
        rc = floe__error_nomem();
        goto fail;
    }
    if (r->opts.stripe_count > 1) {
        /* stripes start anywhere in a row group: every leaf must be flat */
        for (size_t i = 0; i < r->nread; i++)
            if (r->read_leaves[i]->max_rep > 0) {
                rc = floe__error(FLOE_EUNSUPPORTED, "parquet",
                                 "striped reads of repeated column %s", r->read_leaves[i]->el->name);
                goto fail;
            }
        if (r->opts.stripe_rows <= 0 || r->opts.stripe_index < 0 ||
            r->opts.stripe_index >= r->opts.stripe_count) {
            rc = floe__error(FLOE_EINVALID, "parquet", "bad stripe %d of %d (%lld rows)",
                             r->opts.stripe_index, r->opts.stripe_count,
                             (long long)r->opts.stripe_rows);
            goto fail;
        }
        r->opts.batch_rows = r->opts.stripe_rows;
    }
    if ((rc = stripes_setup(r)) < 0)
        goto fail;
    floe__vec_free(&c.leaves);
    *out = r;
    return 0;
fail:
    floe__vec_free(&c.leaves);
    floe__error_context("reading %s", in->uri);
    floe__pq_reader_free(r);
    return rc;
}

void floe__pq_reader_free(floe_pq_reader *r)
{
    if (!r)
        return;
    for (size_t i = 0; r->data && i < r->nread; i++)
        floe__pq_leafdata_free(&r->data[i]);
    floe__free(r->data);
    floe__pq_zstd_dctx_free(r->zctx);
    floe__pq_pool_release(r->pool);
    floe__arrow_builder_free(r->builder);
    if (r->own_input && r->in)
        r->in->close(r->in);
    floe__arena_free(r->arena);
    floe__free(r);
}

const floe_pq_file_meta *floe__pq_reader_meta(const floe_pq_reader *r)
{
    return &r->meta;
}

const floe_schema *floe__pq_reader_schema(const floe_pq_reader *r)
{
    return r->schema;
}

const floe_pq_tree *floe__pq_reader_tree(const floe_pq_reader *r)
{
    return &r->tree;
}

int floe__pq_reader_arrow_schema(floe_pq_reader *r, struct ArrowSchema *out)
{
    return floe__arrow_schema_from_struct(out, r->schema->root);
}

/* ---------------------------------------------------------------- conversion */

enum {
    CV_COPY = 1,
    CV_I32_TO_I64,
    CV_I64_MUL,
    CV_I64_DIV,
    CV_I32_MUL,
    CV_F32_TO_F64,
    CV_INT96,
    CV_DEC_I32,
    CV_DEC_I64,
    CV_DEC_BE,
    CV_DEC_BIN,
    CV_BOOL,
    CV_BIN,
    CV_FIXED_BIN,
    CV_BIN_FIXED,
};

typedef struct conv {
    int kind;
    int64_t factor;
    bool nanos; /* INT96 target unit */
} conv;

static int unit_of(const floe_pq_schema_element *el)
{
    if (el->logical == FLOE_PQ_LT_TIMESTAMP || el->logical == FLOE_PQ_LT_TIME)
        return el->lt_unit;
    if (el->converted_type == FLOE_PQ_CT_TIMESTAMP_MILLIS || el->converted_type == FLOE_PQ_CT_TIME_MILLIS)
        return FLOE_PQ_UNIT_MILLIS;
    return FLOE_PQ_UNIT_MICROS;
}

static int64_t unit_scale(int unit)
{
    return unit == FLOE_PQ_UNIT_MILLIS ? 1000000 : unit == FLOE_PQ_UNIT_MICROS ? 1000 : 1;
}

static int pick_conv(const floe_pq_reader *r, const floe_field *f, const floe_pq_node *pq, conv *cv)
{
    const floe_type *t = f->type;
    const floe_pq_schema_element *el = pq->el;
    int pt = el->type;
    memset(cv, 0, sizeof(*cv));
    switch (t->id) {
    case FLOE_T_BOOLEAN:
        if (pt == FLOE_PQ_BOOLEAN) cv->kind = CV_BOOL;
        break;
    case FLOE_T_INT:
    case FLOE_T_DATE:
        if (pt == FLOE_PQ_INT32) cv->kind = CV_COPY;
        break;
    case FLOE_T_LONG:
        if (pt == FLOE_PQ_INT64) cv->kind = CV_COPY;
        else if (pt == FLOE_PQ_INT32) cv->kind = CV_I32_TO_I64;
        break;
    case FLOE_T_FLOAT:
        if (pt == FLOE_PQ_FLOAT) cv->kind = CV_COPY;
        break;
    case FLOE_T_DOUBLE:
        if (pt == FLOE_PQ_DOUBLE) cv->kind = CV_COPY;
        else if (pt == FLOE_PQ_FLOAT) cv->kind = CV_F32_TO_F64;
        break;
    case FLOE_T_TIME:
        if (pt == FLOE_PQ_INT64) {
            int u = unit_of(el);
            cv->kind = u == FLOE_PQ_UNIT_MICROS ? CV_COPY : u == FLOE_PQ_UNIT_NANOS ? CV_I64_DIV : CV_I64_MUL;
            cv->factor = 1000;
        } else if (pt == FLOE_PQ_INT32) {
            cv->kind = CV_I32_MUL;
            cv->factor = 1000;
        }
        break;
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS: {
        bool ns = t->id == FLOE_T_TIMESTAMP_NS || t->id == FLOE_T_TIMESTAMPTZ_NS;
        if (pt == FLOE_PQ_INT96) {
            cv->kind = CV_INT96;
            cv->nanos = ns;
        } else if (pt == FLOE_PQ_INT64) {
            int64_t have = unit_scale(unit_of(el)), want = ns ? 1 : 1000;
            if (have == want)
                cv->kind = CV_COPY;
            else if (have > want) {
                cv->kind = CV_I64_MUL;
                cv->factor = have / want;
            } else {
                cv->kind = CV_I64_DIV;
                cv->factor = want / have;
            }
        }
        break;
    }
    case FLOE_T_DECIMAL:
        cv->kind = pt == FLOE_PQ_INT32                  ? CV_DEC_I32
                   : pt == FLOE_PQ_INT64                ? CV_DEC_I64
                   : pt == FLOE_PQ_FIXED_LEN_BYTE_ARRAY ? (el->type_length <= 16 ? CV_DEC_BE : 0)
                   : pt == FLOE_PQ_BYTE_ARRAY           ? CV_DEC_BIN
                                                        : 0;
        break;
    case FLOE_T_STRING:
    case FLOE_T_BINARY:
        if (pt == FLOE_PQ_BYTE_ARRAY) cv->kind = CV_BIN;
        else if (pt == FLOE_PQ_FIXED_LEN_BYTE_ARRAY) cv->kind = CV_FIXED_BIN;
        break;
    case FLOE_T_UUID:
    case FLOE_T_FIXED: {
        int len = t->id == FLOE_T_UUID ? 16 : t->length;
        if (pt == FLOE_PQ_FIXED_LEN_BYTE_ARRAY && el->type_length == len) cv->kind = CV_COPY;
        else if (pt == FLOE_PQ_BYTE_ARRAY) cv->kind = CV_BIN_FIXED;
        break;
    }
    default: break;
    }
    if (!cv->kind)
        return floe__error(FLOE_EINVALID, "parquet",
                           "cannot read Parquet %s column %s as Iceberg type %d in %s",
                           floe__pq_type_name(pt), el->name, t->id, r->in->uri);
    return 0;
}

static floe_i128 be_signed(const uint8_t *p, size_t n)
{
    floe_u128 v = 0;
    for (size_t i = 0; i < n; i++)
        v = (v << 8) | p[i];
    if (n && n < 16 && (p[0] & 0x80))
        v |= ~(floe_u128)0 << (8 * n);
    return (floe_i128)v;
}

/* Append values [vi, vi + count) of d to b's value buffer (validity handled
 * by the caller). */
static int append_values(floe_arrow_builder *b, const floe_pq_leafdata *d, const conv *cv,
                         size_t vi, size_t count, const char *file)
{
    if (b->kind == FLOE_AK_BINARY) {
        const floe_pq_binvals *bv = &d->bin;
        if (cv->kind == CV_FIXED_BIN) {
            size_t w = (size_t)d->width;
            FLOE_TRY(floe__buf_put(&b->data, d->fixed.ptr + vi * w, count * w));
            FLOE_TRY(floe__buf_reserve(&b->offsets, count * 4));
            int32_t *o = (int32_t *)(b->offsets.ptr + b->offsets.len);
            int32_t base = (int32_t)(b->data.len - count * w);
            for (size_t i = 0; i < count; i++)
                o[i] = base + (int32_t)((i + 1) * w);
            b->offsets.len += count * 4;
            return 0;
        }
        int32_t a = bv->offsets[vi], e = bv->offsets[vi + count];
        if (b->data.len + (size_t)(e - a) > INT32_MAX)
            return floe__error(FLOE_EUNSUPPORTED, "parquet", "string column over 2 GiB in %s",
                               file);
        int32_t base = (int32_t)b->data.len - a;
        FLOE_TRY(floe__buf_put(&b->data, bv->data.ptr + a, (size_t)(e - a)));
        FLOE_TRY(floe__buf_reserve(&b->offsets, count * 4));
        int32_t *o = (int32_t *)(b->offsets.ptr + b->offsets.len);
        for (size_t i = 0; i < count; i++)
            o[i] = bv->offsets[vi + i + 1] + base;
        b->offsets.len += count * 4;
        return 0;
    }
    if (b->kind == FLOE_AK_BOOL) {
        size_t need = (size_t)((b->length + (int64_t)count + 7) / 8);
        if (need > b->values.len) {
            size_t extra = need - b->values.len;
            FLOE_TRY(floe__buf_reserve(&b->values, extra));
            memset(b->values.ptr + b->values.len, 0, extra);
            b->values.len = need;
        }
        uint8_t *bits = (uint8_t *)b->values.ptr;
        for (size_t i = 0; i < count; i++)
            floe__arrow_bit_set(bits, b->length + (int64_t)i, d->fixed.ptr[vi + i] != 0);
        return 0;
    }
    size_t bw = (size_t)b->width;
    FLOE_TRY(floe__buf_reserve(&b->values, count * bw));
    uint8_t *dst = (uint8_t *)b->values.ptr + b->values.len;
    const uint8_t *src = (const uint8_t *)d->fixed.ptr;
    size_t sw = (size_t)d->width;
    switch (cv->kind) {
    case CV_COPY: memcpy(dst, src + vi * sw, count * sw); break;
    case CV_I32_TO_I64:
    case CV_I32_MUL:
        for (size_t i = 0; i < count; i++) {
            int32_t v;
            memcpy(&v, src + (vi + i) * 4, 4);
            int64_t x = (int64_t)((uint64_t)(int64_t)v *
                                  (uint64_t)(cv->kind == CV_I32_MUL ? cv->factor : 1));
            memcpy(dst + i * 8, &x, 8);
        }
        break;
    case CV_I64_MUL:
    case CV_I64_DIV:
        for (size_t i = 0; i < count; i++) {
            int64_t v;
            memcpy(&v, src + (vi + i) * 8, 8);
            if (cv->kind == CV_I64_MUL)
                v = (int64_t)((uint64_t)v * (uint64_t)cv->factor);
            else
                v = v >= 0 ? v / cv->factor : -1 - (-(v + 1)) / cv->factor;
            memcpy(dst + i * 8, &v, 8);
        }
        break;
    case CV_F32_TO_F64:
        for (size_t i = 0; i < count; i++) {
            float f;
            memcpy(&f, src + (vi + i) * 4, 4);
            double x = f;
            memcpy(dst + i * 8, &x, 8);
        }
        break;
    case CV_INT96:
        for (size_t i = 0; i < count; i++) {
            int64_t nanos;
            int32_t jd;
            memcpy(&nanos, src + (vi + i) * 12, 8);
            memcpy(&jd, src + (vi + i) * 12 + 8, 4);
            int64_t days = (int64_t)jd - 2440588;
            /* wrapping arithmetic: hostile values must not be UB */
            int64_t x = cv->nanos
                            ? (int64_t)((uint64_t)days * 86400000000000ULL + (uint64_t)nanos)
                            : (int64_t)((uint64_t)days * 86400000000ULL + (uint64_t)(nanos / 1000));
            memcpy(dst + i * 8, &x, 8);
        }
        break;
    case CV_DEC_I32:
        for (size_t i = 0; i < count; i++) {
            int32_t v;
            memcpy(&v, src + (vi + i) * 4, 4);
            floe_i128 x = v;
            memcpy(dst + i * 16, &x, 16);
        }
        break;
    case CV_DEC_I64:
        for (size_t i = 0; i < count; i++) {
            int64_t v;
            memcpy(&v, src + (vi + i) * 8, 8);
            floe_i128 x = v;
            memcpy(dst + i * 16, &x, 16);
        }
        break;
    case CV_DEC_BE:
        for (size_t i = 0; i < count; i++) {
            floe_i128 x = be_signed(src + (vi + i) * sw, sw);
            memcpy(dst + i * 16, &x, 16);
        }
        break;
    case CV_DEC_BIN:
        for (size_t i = 0; i < count; i++) {
            int32_t a = d->bin.offsets[vi + i], e = d->bin.offsets[vi + i + 1];
            if (e - a > 16)
                return floe__error(FLOE_ECORRUPT, "parquet", "decimal of %d bytes in %s", e - a,
                                   file);
            floe_i128 x = be_signed((const uint8_t *)d->bin.data.ptr + a, (size_t)(e - a));
            memcpy(dst + i * 16, &x, 16);
        }
        break;
    case CV_BIN_FIXED:
        for (size_t i = 0; i < count; i++) {
            int32_t a = d->bin.offsets[vi + i], e = d->bin.offsets[vi + i + 1];
            if ((size_t)(e - a) != bw)
                return floe__error(FLOE_ECORRUPT, "parquet", "fixed value of %d bytes in %s",
                                   e - a, file);
            memcpy(dst + i * bw, d->bin.data.ptr + a, bw);
        }
        break;
    default: return floe__error(FLOE_EINVALID, "parquet", "bad conversion");
    }
    b->values.len += count * bw;
    return 0;
}

static int append_empty(floe_arrow_builder *b, size_t count)
{
    if (b->kind == FLOE_AK_BINARY) {
        int32_t last;
        memcpy(&last, b->offsets.ptr + b->offsets.len - 4, 4);
        FLOE_TRY(floe__buf_reserve(&b->offsets, count * 4));
        for (size_t i = 0; i < count; i++)
            memcpy(b->offsets.ptr + b->offsets.len + i * 4, &last, 4);
        b->offsets.len += count * 4;
    } else if (b->kind == FLOE_AK_BOOL) {
        size_t need = (size_t)((b->length + (int64_t)count + 7) / 8);
        if (need > b->values.len) {
            size_t extra = need - b->values.len;
            FLOE_TRY(floe__buf_reserve(&b->values, extra));
            memset(b->values.ptr + b->values.len, 0, extra);
            b->values.len = need;
        }
    } else if (b->kind == FLOE_AK_FIXED) {
        size_t n = count * (size_t)b->width;
        FLOE_TRY(floe__buf_reserve(&b->values, n));
        memset(b->values.ptr + b->values.len, 0, n);
        b->values.len += n;
    }
    return 0;
}

/* ---------------------------------------------------------------- assembly */

static inline bool is_slot(const floe_pq_leafdata *d, size_t i, int16_t srep, int16_t sdef)
{
    if (d->rep.len && ((const uint16_t *)d->rep.ptr)[i] > srep)
        return false;
    if (sdef > 0 && ((const uint16_t *)d->def.ptr)[i] < sdef)
        return false;
    return true;
}

static inline uint16_t def_at(const floe_pq_leafdata *d, size_t i)
{
    return d->def.len ? ((const uint16_t *)d->def.ptr)[i] : 0;
}

static int assemble(floe_pq_reader *r, const rnode *n, floe_arrow_builder *b, int64_t nslots);

static int append_nulls(floe_arrow_builder *b, int64_t count)
{
    for (int64_t i = 0; i < count; i++)
        FLOE_TRY(floe__arrow_builder_append_null(b));
    return 0;
}

static void set_valid_range(uint8_t *bits, int64_t start, int64_t n)
{
    int64_t i = start, end = start + n;
    for (; i < end && (i & 7); i++)
        floe__arrow_bit_set(bits, i, true);
    if (end - i >= 8) {
        memset(bits + (i >> 3), 0xff, (size_t)((end - i) >> 3));
        i += (end - i) & ~(int64_t)7;
    }
    for (; i < end; i++)
        floe__arrow_bit_set(bits, i, true);
}

static void swap_buf(floe_buf *a, floe_buf *b)
{
    floe_buf t = *a;
    *a = *b;
    *b = t;
}

/* A flat column without nulls: hand the decoded buffers to the builder when
 * no conversion is needed (no copy), else convert in bulk. */
static int flat_all_valid(floe_pq_reader *r, floe_pq_leafdata *d, const conv *cv,
                          floe_arrow_builder *b, int64_t nslots)
{
    FLOE_TRY(floe__arrow_validity_reserve(b, nslots));
    set_valid_range((uint8_t *)b->validity.ptr, b->length, nslots);
    bool whole = d->eb == 0 && d->ee == d->n && !d->moved;
    if (d->moved)
        return floe__error(FLOE_EINVALID, "parquet", "a column is projected twice in %s",
                           r->in->uri);
    if (whole && b->length == 0 && b->kind == FLOE_AK_FIXED && cv->kind == CV_COPY &&
        d->width == b->width) {
        d->moved = true;
        floe__buf_clear(&b->values);
        swap_buf(&b->values, &d->fixed);
    } else if (whole && b->length == 0 && b->kind == FLOE_AK_BINARY && cv->kind == CV_BIN &&
               d->bin.offsets) {
        d->moved = true;
        floe__buf_free(&b->offsets);
        b->offsets.ptr = (char *)d->bin.offsets;
        b->offsets.len = (d->bin.n + 1) * 4;
        b->offsets.cap = (d->bin.cap + 1) * 4;
        d->bin.offsets = NULL;
        d->bin.n = d->bin.cap = 0;
        floe__buf_clear(&b->data);
        swap_buf(&b->data, &d->bin.data);
    } else {
        FLOE_TRY(append_values(b, d, cv, d->vb, d->ee - d->eb, r->in->uri));
    }
    b->length += nslots;
    return 0;
}

static int assemble_primitive(floe_pq_reader *r, const rnode *n, floe_arrow_builder *b,
                              int64_t nslots)
{
    floe_pq_leafdata *d = &r->data[n->leaf];
    conv cv;
    FLOE_TRY(pick_conv(r, n->field, n->pq, &cv));
    int16_t present = n->pq->max_def;
    const uint16_t *def = (const uint16_t *)d->def.ptr;
    if (d->rep.len == 0 && n->slot_def == 0) {
        /* flat: every level entry is a slot */
        if ((int64_t)(d->ee - d->eb) != nslots)
            return floe__error(FLOE_ECORRUPT, "parquet", "column %s has %zu values for %lld rows in %s",
                               n->pq->el->name, d->ee - d->eb, (long long)nslots, r->in->uri);
        if (d->moved)
            return floe__error(FLOE_EINVALID, "parquet", "a column is projected twice in %s",
                               r->in->uri);
        if (present == 0 || d->ve - d->vb == d->ee - d->eb)
            return flat_all_valid(r, d, &cv, b, nslots);
        /* runs of values and of nulls, appended in bulk */
        FLOE_TRY(floe__arrow_validity_reserve(b, nslots));
        size_t vi = d->vb;
        for (size_t i = d->eb; i < d->ee;) {
            size_t j = i;
            bool valid = def[i] >= present;
            while (j < d->ee && (def[j] >= present) == valid)
                j++;
            size_t run = j - i;
            if (valid) {
                if (vi + run > d->ve)
                    return floe__error(FLOE_ECORRUPT, "parquet", "too few values in %s of %s",
                                       n->pq->el->name, r->in->uri);
                set_valid_range((uint8_t *)b->validity.ptr, b->length, (int64_t)run);
                FLOE_TRY(append_values(b, d, &cv, vi, run, r->in->uri));
                vi += run;
            } else {
                FLOE_TRY(append_empty(b, run));
                b->null_count += (int64_t)run;
            }
            b->length += (int64_t)run;
            i = j;
        }
        return 0;
    }
    if (d->moved)
        return floe__error(FLOE_EINVALID, "parquet", "a column is projected twice in %s",
                           r->in->uri);
    FLOE_TRY(floe__arrow_validity_reserve(b, nslots));
    size_t vi = d->vb;
    int64_t got = 0;
    for (size_t i = d->eb; i < d->ee; i++) {
        if (!is_slot(d, i, n->slot_rep, n->slot_def))
            continue;
        if (got >= nslots)
            return floe__error(FLOE_ECORRUPT, "parquet", "levels of %s disagree in %s",
                               n->pq->el->name, r->in->uri);
        bool valid = present == 0 || def[i] >= present;
        uint8_t *bits = (uint8_t *)b->validity.ptr;
        floe__arrow_bit_set(bits, b->length, valid);
        if (valid) {
            if (vi >= d->ve)
                return floe__error(FLOE_ECORRUPT, "parquet", "too few values in %s of %s",
                                   n->pq->el->name, r->in->uri);
            FLOE_TRY(append_values(b, d, &cv, vi++, 1, r->in->uri));
        } else {
            b->null_count++;
            FLOE_TRY(append_empty(b, 1));
        }
        b->length++;
        got++;
    }
    if (got != nslots)
        return floe__error(FLOE_ECORRUPT, "parquet", "levels of %s disagree in %s (%lld of %lld)",
                           n->pq->el->name, r->in->uri, (long long)got, (long long)nslots);
    return 0;
}

/* A field the file lacks reads its initial-default, at every nesting level
 * (spec "Column Projection" and "Default values"): a column added with a
 * default, or a member added to a struct (also inside lists and maps) after
 * the file was written. */
static int append_defaults(floe_arrow_builder *b, const floe_field *f, int64_t count)
{
    if (!f->initial_default || f->initial_default->is_null)
        return append_nulls(b, count);
    for (int64_t i = 0; i < count; i++)
        FLOE_TRY(floe__arrow_builder_append_default(b, f));
    return 0;
}

static int assemble(floe_pq_reader *r, const rnode *n, floe_arrow_builder *b, int64_t nslots)
{
    if (!n->pq)
        return append_defaults(b, n->field, nslots);
    if (n->ref_leaf < 0)
        return append_nulls(b, nslots);
    const floe_type *t = n->field->type;
    if (!floe_type_is_nested(t))
        return assemble_primitive(r, n, b, nslots);
    const floe_pq_leafdata *d = &r->data[n->ref_leaf];
    int16_t present = n->pq->max_def;
    if (t->id == FLOE_T_STRUCT) {
        FLOE_TRY(floe__arrow_validity_reserve(b, nslots));
        int64_t got = 0;
        for (size_t i = d->eb; i < d->ee; i++) {
            if (!is_slot(d, i, n->slot_rep, n->slot_def))
                continue;
            if (got >= nslots)
                return floe__error(FLOE_ECORRUPT, "parquet", "levels disagree in %s", r->in->uri);
            bool valid = def_at(d, i) >= present;
            floe__arrow_bit_set((uint8_t *)b->validity.ptr, b->length + got, valid);
            if (!valid)
                b->null_count++;
            got++;
        }
        if (got != nslots)
            return floe__error(FLOE_ECORRUPT, "parquet", "levels disagree in %s", r->in->uri);
        b->length += nslots;
        for (size_t k = 0; k < n->nchildren; k++)
            FLOE_TRY(assemble(r, n->children[k], b->children[k], nslots));
        return 0;
    }
    /* list / map: the child's slots are this node's elements */
    const rnode *e = n->children[0];
    int16_t erep = e->slot_rep, edef = e->slot_def;
    int64_t got = 0, elems = 0, cur = -1;
    bool cur_valid = false;
    for (size_t i = d->eb; i < d->ee; i++) {
        if (is_slot(d, i, n->slot_rep, n->slot_def)) {
            if (cur >= 0)
                FLOE_TRY(floe__arrow_builder_list_append(b, cur_valid, cur));
            if (got >= nslots)
                return floe__error(FLOE_ECORRUPT, "parquet", "levels disagree in %s", r->in->uri);
            got++;
            cur = 0;
            cur_valid = def_at(d, i) >= present;
        }
        if (is_slot(d, i, erep, edef)) {
            if (cur < 0)
                return floe__error(FLOE_ECORRUPT, "parquet", "list element before its list in %s",
                                   r->in->uri);
            cur++;
            elems++;
        }
    }
    if (cur >= 0)
        FLOE_TRY(floe__arrow_builder_list_append(b, cur_valid, cur));
    if (got != nslots)
        return floe__error(FLOE_ECORRUPT, "parquet", "levels disagree in %s", r->in->uri);
    for (size_t k = 0; k < n->nchildren; k++)
        FLOE_TRY(assemble(r, n->children[k], b->children[k], elems));
    return 0;
}

/* A leaf decoded a batch at a time (batches of batch_rows rows): flat
 * leaves, whose level entries are rows. Repeated ones are decoded whole. */
static bool streams(const floe_pq_reader *r, const floe_pq_node *leaf)
{
    return r->opts.batch_rows > 0 && leaf->max_rep == 0;
}

/* Decode the chunks of row group rg (or start them, streamed leaves) and
 * check its row count. */
static int load_row_group(floe_pq_reader *r, size_t rg)
{
    const floe_pq_row_group *g = &r->meta.row_groups[rg];
    for (size_t i = 0; i < r->nread; i++) {
        const floe_pq_node *leaf = r->read_leaves[i];
        const floe_pq_column_chunk *cc = &g->columns[leaf->leaf];
        if (!r->zctx && cc->has_meta_data && cc->meta_data.codec == FLOE_PQ_CODEC_ZSTD &&
            !(r->zctx = floe__pq_zstd_dctx_new()))
            return floe__error_nomem();
        r->data[i].zctx = r->zctx;
        if (streams(r, leaf)) {
            /* decoded a batch at a time into the leaf's own reused buffers */
            if (!cc->has_meta_data || cc->meta_data.num_values != g->num_rows)
                return floe__error(FLOE_ECORRUPT, "parquet",
                                   "row group %zu: column %s holds %lld values for %lld rows in %s",
                                   rg, leaf->el->name,
                                   (long long)(cc->has_meta_data ? cc->meta_data.num_values : -1),
                                   (long long)g->num_rows, r->in->uri);
            FLOE_TRY(floe__pq_chunk_begin(r->in, cc, leaf, &r->data[i], false));
            continue;
        }
        if (cc->has_meta_data && cc->meta_data.num_values > 0 &&
            cc->meta_data.num_values < ((int64_t)1 << 40)) {
            /* recycled buffers, best fit to the chunk's value count */
            size_t nv = (size_t)cc->meta_data.num_values;
            const floe_pq_schema_element *el = leaf->el;
            size_t width = el->type == FLOE_PQ_BOOLEAN ? 1
                           : el->type == FLOE_PQ_INT32 || el->type == FLOE_PQ_FLOAT ? 4
                           : el->type == FLOE_PQ_INT96 ? 12
                           : el->type == FLOE_PQ_FIXED_LEN_BYTE_ARRAY
                               ? (size_t)(el->type_length > 0 ? el->type_length : 1)
                           : el->type == FLOE_PQ_BYTE_ARRAY ? 0
                                                              : 8;
            if (width) {
                floe__pq_pool_fill(r->pool, &r->data[i].fixed, nv * width);
            } else {
                floe__pq_pool_fill_bin(r->pool, &r->data[i].bin, nv);
                floe__pq_pool_fill(r->pool, &r->data[i].bin.data, nv * 8);
            }
        }
        FLOE_TRY(floe__pq_read_chunk(r->in, cc, leaf, &r->data[i]));
    }
    /* num_rows comes from the footer: check it against the decoded levels
     * (rows start where rep == 0) before trusting it for columns missing
     * from the file (a streamed column was checked above) */
    if (r->nread > 0 && streams(r, r->read_leaves[0])) {
        return 0;
    } else if (r->nread > 0) {
        const floe_pq_leafdata *d0 = &r->data[0];
        int64_t starts = (int64_t)d0->n;
        if (d0->rep.len) {
            starts = 0;
            for (size_t i = 0; i < d0->n; i++)
                starts += ((const uint16_t *)d0->rep.ptr)[i] == 0;
        }
        if (starts != g->num_rows)
            return floe__error(FLOE_ECORRUPT, "parquet",
                               "row group %zu holds %lld rows, footer says %lld in %s", rg,
                               (long long)starts, (long long)g->num_rows, r->in->uri);
    } else if (g->ncolumns > 0 && g->columns[0].has_meta_data &&
               g->num_rows > g->columns[0].meta_data.num_values) {
        return floe__error(FLOE_ECORRUPT, "parquet", "row group %zu: %lld rows but %lld values in %s",
                           rg, (long long)g->num_rows,
                           (long long)g->columns[0].meta_data.num_values, r->in->uri);
    }
    return 0;
}

/* Level and value ranges of the next `nrows` rows of every leaf. */
static int slice_rows(floe_pq_reader *r, int64_t nrows)
{
    for (size_t i = 0; i < r->nread; i++) {
        floe_pq_leafdata *d = &r->data[i];
        const floe_pq_node *leaf = r->read_leaves[i];
        if (streams(r, leaf))
            FLOE_TRY(floe__pq_chunk_more(d, (size_t)nrows));
        d->eb = d->epos;
        d->vb = d->vpos;
        if (!d->rep.len) {
            d->ee = d->eb + (size_t)nrows;
            if (d->ee > d->n)
                return floe__error(FLOE_ECORRUPT, "parquet", "column %s too short in %s",
                                   leaf->el->name, r->in->uri);
        } else {
            const uint16_t *rep = (const uint16_t *)d->rep.ptr;
            size_t j = d->eb;
            int64_t rows = 0;
            for (; j < d->n; j++) {
                if (rep[j] == 0) {
                    if (rows == nrows)
                        break;
                    rows++;
                }
            }
            d->ee = j;
        }
        size_t nv = d->ee - d->eb;
        if (d->eb == 0 && d->ee == d->n)
            nv = d->nvals; /* the whole row group: counted while decoding */
        else if (d->nvals - d->vb == d->n - d->eb)
            nv = d->ee - d->eb; /* every entry from here on has its value */
        else if (leaf->max_def > 0) {
            const uint16_t *def = (const uint16_t *)d->def.ptr;
            nv = 0;
            for (size_t j = d->eb; j < d->ee; j++)
                nv += def[j] == leaf->max_def;
        }
        d->ve = d->vb + nv;
        if (d->ve > d->nvals)
            return floe__error(FLOE_ECORRUPT, "parquet", "too few values in %s of %s",
                               leaf->el->name, r->in->uri);
    }
    return 0;
}

static void drop_row_group(floe_pq_reader *r)
{
    for (size_t i = 0; i < r->nread; i++)
        floe__pq_leafdata_reset(&r->data[i]);
    r->have_rg = false;
}

/* Assemble the next `nrows` rows of the loaded row group (0: an empty
 * batch, no row group needed) into `out`. */
static int emit_rows(floe_pq_reader *r, int64_t nrows, struct ArrowArray *out)
{
    int rc = nrows > 0 ? slice_rows(r, nrows) : 0;
    floe__arrow_builder_reset(r->builder);
    for (size_t k = 0; nrows > 0 && k < r->builder->nchildren; k++) {
        floe_arrow_builder *c = r->builder->children[k];
        if (c->kind == FLOE_AK_FIXED)
            floe__pq_pool_fill(r->pool, &c->values, (size_t)nrows * (size_t)c->width);
    }
    /* root struct: one slot per row, all valid */
    for (size_t k = 0; rc == 0 && nrows > 0 && k < r->root->nchildren; k++)
        rc = assemble(r, r->root->children[k], r->builder->children[k], nrows);
    if (rc == 0 && (rc = floe__arrow_validity_reserve(r->builder, nrows)) == 0) {
        r->builder->length = nrows;
        size_t nch = r->builder->nchildren;
        size_t(*caps)[3] = floe__malloc((nch ? nch : 1) * sizeof(*caps));
        if (!caps)
            rc = floe__error_nomem();
        size_t bytes = 0;
        for (size_t k = 0; rc == 0 && k < nch; k++) {
            floe__pq_pool_caps(r->builder->children[k], caps[k]);
            bytes += caps[k][0] + caps[k][1] + caps[k][2];
        }
        floe__pq_pool_batch(r->pool, bytes);
        if (rc == 0)
            rc = floe__arrow_builder_finish(r->builder, out);
        for (size_t k = 0; rc == 0 && k < nch; k++)
            if ((rc = floe__pq_pool_wrap(r->pool, out->children[k], caps[k])) < 0)
                out->release(out);
        floe__free(caps);
    }
    if (rc < 0) {
        floe__arrow_builder_reset(r->builder);
        return rc;
    }
    for (size_t i = 0; nrows > 0 && i < r->nread; i++) {
        r->data[i].epos = r->data[i].ee;
        r->data[i].vpos = r->data[i].ve;
    }
    return 0;
}

/* First row (in the file) of row group rg and of the stripes before it. */
static int stripes_setup(floe_pq_reader *r)
{
    size_t n = r->meta.nrow_groups;
    int64_t sr = r->opts.stripe_rows;
    r->rg_row = floe__arena_calloc(r->arena, n + 1, sizeof(int64_t));
    r->rg_stripe = floe__arena_calloc(r->arena, n + 1, sizeof(int64_t));
    if (!r->rg_row || !r->rg_stripe)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        int64_t rows = r->meta.row_groups[i].num_rows;
        if (rows > ((int64_t)1 << 48) || r->rg_row[i] > ((int64_t)1 << 56))
            return floe__error(FLOE_ECORRUPT, "parquet", "row group %zu claims %lld rows in %s", i,
                               (long long)rows, r->in->uri);
        r->rg_row[i + 1] = r->rg_row[i] + rows;
        r->rg_stripe[i + 1] = r->rg_stripe[i] + (sr > 0 ? (rows + sr - 1) / sr : 0);
    }
    r->next_stripe = (int64_t)r->opts.stripe_index;
    r->skipped_rg = SIZE_MAX;
    return 0;
}

/* Stripe mode: the next stripe of this reader (stripe_index, then every
 * stripe_count-th), one batch each, empty when its row group is skipped. */
static int next_striped(floe_pq_reader *r, struct ArrowArray *out)
{
    size_t nrg = r->meta.nrow_groups;
    int64_t g = r->next_stripe;
    if (g >= r->rg_stripe[nrg])
        return FLOE_ITEROVER;
    r->next_stripe += r->opts.stripe_count;
    size_t rg = r->stripe_rg;
    while (r->rg_stripe[rg + 1] <= g)
        rg++;
    r->stripe_rg = rg;
    const floe_pq_row_group *grp = &r->meta.row_groups[rg];
    int64_t local = (g - r->rg_stripe[rg]) * r->opts.stripe_rows;
    int64_t nrows = grp->num_rows - local;
    if (nrows > r->opts.stripe_rows)
        nrows = r->opts.stripe_rows;
    r->batch_row = r->rg_row[rg] + local;
    int rc = 0;
    if (!r->have_rg || r->cur_rg != rg) {
        if (r->have_rg)
            drop_row_group(r);
        if (r->skipped_rg == rg ||
            (r->opts.keep_row_group &&
             !r->opts.keep_row_group(r, rg, r->opts.keep_row_group_payload))) {
            r->skipped_rg = rg;
            return emit_rows(r, 0, out);
        }
        if ((rc = load_row_group(r, rg)) < 0) {
            drop_row_group(r);
            return floe__error_context("row group %zu", rg);
        }
        r->have_rg = true;
        r->cur_rg = rg;
        r->rows_done = 0;
    }
    for (size_t i = 0; rc == 0 && i < r->nread; i++)
        rc = floe__pq_chunk_skip(&r->data[i], (size_t)(local - r->rows_done));
    if (rc == 0)
        rc = emit_rows(r, nrows, out);
    if (rc < 0) {
        drop_row_group(r);
        return floe__error_context("row group %zu", rg);
    }
    r->rows_done = local + nrows;
    if (r->rows_done >= grp->num_rows)
        drop_row_group(r);
    return 0;
}

int floe__pq_reader_next(floe_pq_reader *r, struct ArrowArray *out)
{
    memset(out, 0, sizeof(*out));
    if (r->opts.stripe_count > 1)
        return next_striped(r, out);
    while (!r->have_rg) {
        if (r->next_rg >= r->meta.nrow_groups)
            return FLOE_ITEROVER;
        size_t rg = r->next_rg++;
        if (r->meta.row_groups[rg].num_rows == 0)
            continue;
        if (r->opts.keep_row_group &&
            !r->opts.keep_row_group(r, rg, r->opts.keep_row_group_payload))
            continue;
        int rc = load_row_group(r, rg);
        if (rc < 0) {
            drop_row_group(r);
            return floe__error_context("row group %zu", rg);
        }
        r->have_rg = true;
        r->cur_rg = rg;
        r->rows_done = 0;
    }
    const floe_pq_row_group *g = &r->meta.row_groups[r->cur_rg];
    int64_t nrows = g->num_rows - r->rows_done;
    if (r->opts.batch_rows > 0 && nrows > r->opts.batch_rows)
        nrows = r->opts.batch_rows;
    r->batch_row = r->rg_row ? r->rg_row[r->cur_rg] + r->rows_done : -1;
    int rc = emit_rows(r, nrows, out);
    if (rc < 0) {
        size_t rg = r->cur_rg;
        drop_row_group(r);
        return floe__error_context("row group %zu", rg);
    }
    r->rows_done += nrows;
    if (r->rows_done >= g->num_rows)
        drop_row_group(r);
    return 0;
}

int64_t floe__pq_reader_batch_row(const floe_pq_reader *r)
{
    return r->batch_row;
}

/* ---------------------------------------------------------------- statistics */

/* A primitive reachable through structs only (statistics of fields inside
 * lists and maps describe elements, not rows). */
static const rnode *find_struct_field(const rnode *n, int32_t id, int depth)
{
    if (depth > 64 || n->field->type->id != FLOE_T_STRUCT)
        return NULL;
    for (size_t k = 0; k < n->nchildren; k++) {
        const rnode *c = n->children[k];
        if (c->field->id == id)
            return c;
        const rnode *f = find_struct_field(c, id, depth + 1);
        if (f)
            return f;
    }
    return NULL;
}

int floe__pq_reader_chunk_stats(floe_pq_reader *r, size_t rg, int32_t field_id,
                                floe_pq_chunk_stats *out)
{
    memset(out, 0, sizeof(*out));
    if (rg >= r->meta.nrow_groups || !r->root)
        return floe__error(FLOE_EINVALID, "parquet", "no row group %zu", rg);
    const rnode *n = find_struct_field(r->root, field_id, 0);
    if (!n || !n->pq || n->leaf < 0)
        return 0;
    const floe_pq_column_chunk *cc = &r->meta.row_groups[rg].columns[n->pq->leaf];
    const floe_pq_column_meta *m = &cc->meta_data;
    out->present = true;
    out->total_compressed_size = m->total_compressed_size;
    out->num_values = m->num_values;
    if (!m->has_statistics)
        return 0;
    const floe_pq_statistics *s = &m->statistics;
    out->has_null_count = s->has_null_count;
    out->null_count = s->null_count;
    floe_pq_bytes mn = s->min_value, mx = s->max_value;
    const floe_pq_schema_element *el = n->pq->el;
    bool sign_ok = el->type != FLOE_PQ_BYTE_ARRAY && el->type != FLOE_PQ_FIXED_LEN_BYTE_ARRAY;
    if ((!mn.set || !mx.set) && sign_ok && s->min.set && s->max.set) {
        mn = s->min;
        mx = s->max;
    }
    if (!mn.set || !mx.set)
        return 0;
    conv cv;
    if (pick_conv(r, n->field, n->pq, &cv) < 0) {
        floe_error_clear();
        return 0;
    }
    const floe_type *t = n->field->type;
    floe_value *vals[2] = {&out->min, &out->max};
    floe_pq_bytes src[2] = {mn, mx};
    for (int k = 0; k < 2; k++) {
        floe_value *v = vals[k];
        const uint8_t *p = src[k].ptr;
        size_t len = src[k].len;
        v->type = t->id;
        switch (cv.kind) {
        case CV_BIN:
        case CV_FIXED_BIN:
        case CV_BIN_FIXED:
            v->v.bytes.ptr = p;
            v->v.bytes.len = len;
            break;
        case CV_COPY:
            if (t->id == FLOE_T_UUID || t->id == FLOE_T_FIXED) {
                v->v.bytes.ptr = p;
                v->v.bytes.len = len;
                break;
            }
            if (len != (size_t)(t->id == FLOE_T_INT || t->id == FLOE_T_DATE || t->id == FLOE_T_FLOAT ? 4 : 8))
                return 0;
            memcpy(&v->v.i64, p, len);
            break;
        case CV_I32_TO_I64: {
            int32_t x;
            if (len != 4) return 0;
            memcpy(&x, p, 4);
            v->v.i64 = x;
            break;
        }
        case CV_F32_TO_F64: {
            float x;
            if (len != 4) return 0;
            memcpy(&x, p, 4);
            v->v.f64 = x;
            break;
        }
        case CV_DEC_I32:
        case CV_DEC_I64: {
            if (len != (cv.kind == CV_DEC_I32 ? 4u : 8u)) return 0;
            if (len == 4) {
                int32_t x;
                memcpy(&x, p, 4);
                v->v.dec = x;
            } else {
                int64_t x;
                memcpy(&x, p, 8);
                v->v.dec = x;
            }
            v->scale = t->scale;
            break;
        }
        case CV_DEC_BE:
        case CV_DEC_BIN:
            if (len > 16) return 0;
            v->v.dec = be_signed(p, len);
            v->scale = t->scale;
            break;
        case CV_BOOL:
            if (len != 1) return 0;
            v->v.b = p[0] != 0;
            break;
        default:
            return 0; /* unit conversions: no pruning */
        }
    }
    if (t->id == FLOE_T_FLOAT || t->id == FLOE_T_DOUBLE)
        if (!s->has_nan_count || s->nan_count > 0)
            return 0; /* NaN may hide outside [min, max] */
    out->has_min_max = true;
    return 0;
}

/* ---------------------------------------------------------------- stream */

static int stream_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    floe_pq_reader *r = s->private_data;
    int rc = floe__pq_reader_arrow_schema(r, out);
    if (rc < 0) {
        snprintf(r->last_error, sizeof(r->last_error), "%s", floe_error_last()->message);
        return floe__arrow_errno(rc);
    }
    return 0;
}

static int stream_get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    floe_pq_reader *r = s->private_data;
    int rc = floe__pq_reader_next(r, out);
    if (rc == FLOE_ITEROVER) {
        memset(out, 0, sizeof(*out));
        return 0;
    }
    if (rc < 0) {
        const floe_error *e = floe_error_last();
        snprintf(r->last_error, sizeof(r->last_error), "%s", e ? e->message : "error");
        return floe__arrow_errno(rc);
    }
    return 0;
}

static const char *stream_last_error(struct ArrowArrayStream *s)
{
    floe_pq_reader *r = s->private_data;
    return r->last_error[0] ? r->last_error : NULL;
}

static void stream_release(struct ArrowArrayStream *s)
{
    if (!s->release)
        return;
    floe__pq_reader_free(s->private_data);
    s->release = NULL;
}

int floe__pq_reader_stream(floe_pq_reader *r, bool own_input, struct ArrowArrayStream *out)
{
    r->own_input = own_input;
    out->get_schema = stream_get_schema;
    out->get_next = stream_get_next;
    out->get_last_error = stream_last_error;
    out->release = stream_release;
    out->private_data = r;
    return 0;
}
