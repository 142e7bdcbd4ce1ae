/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/writer: Arrow batches -> Parquet file, streamed to a sink.
 *
 * Each leaf column accumulates one page (levels + PLAIN values or
 * dictionary indices); full pages are compressed into an in-memory column
 * chunk; when the row group reaches write.parquet.row-group-size-bytes the
 * chunks are written (dictionary page first) and their ColumnMetaData kept
 * for the footer. Dictionary encoding falls back to PLAIN for the rest of the
 * chunk once the dictionary passes write.parquet.dict-size-bytes.
 *
 * Nested values are shredded into definition/repetition levels (Dremel) by
 * a recursion over the Iceberg type and the Arrow arrays; flat columns take a
 * direct loop. Statistics are kept per chunk (Parquet Statistics) and per
 * file (Iceberg metrics: counts, bounds with truncate(N) modes).
 */
#include "parquet/encoding.h"
#include "parquet/parquet.h"
#include "spec/value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SK_BOOL, SK_I32, SK_I64, SK_F32, SK_F64, SK_DEC, SK_BYTES };

/* Dictionary hash slot: the first 8 bytes of the value and its hash are
 * kept inline so most probes touch one cache line. */
struct dslot {
    uint64_t key;
    uint32_t hash;
    uint32_t idx1; /* dictionary index + 1; 0 = empty */
};

/* Appends without a function call in the common case. */
static inline int put_fast(floe_buf *b, const void *p, size_t n)
{
    if (FLOE_LIKELY(b->len + n < b->cap)) {
        memcpy(b->ptr + b->len, p, n);
        b->len += n;
        return 0;
    }
    return floe__buf_put(b, p, n);
}
enum {
    MM_NONE = FLOE_PQ_MM_NONE,
    MM_COUNTS = FLOE_PQ_MM_COUNTS,
    MM_TRUNCATE = FLOE_PQ_MM_TRUNCATE,
    MM_FULL = FLOE_PQ_MM_FULL
};

typedef struct vstats {
    bool has;
    union {
        int64_t i;
        double d;
        floe_i128 dec;
    } min, max;
    floe_buf minb, maxb;
    int64_t nulls, nans;
} vstats;

typedef struct wcol {
    const floe_field *field;
    const floe_pq_node *node;
    const char *name; /* dotted Iceberg name */
    int sk;           /* stats kind */
    int ptype;
    int32_t tlen;
    int16_t max_def, max_rep;
    bool under_repeated;
    int mode, trunc;
    /* current page */
    floe_buf def, rep; /* uint16 levels */
    size_t nlevels;
    int64_t page_nulls, page_rows;
    floe_buf plain; /* PLAIN values (booleans: one byte each, packed at flush) */
    floe_buf idx;   /* uint32 dictionary indices */
    size_t nvals;   /* non-null values in page */
    /* dictionary of the current chunk */
    bool use_dict, dict_overflow, chunk_used_dict;
    struct dslot *htab;
    size_t hcap;
    size_t ndict;
    floe_buf dict_plain;
    floe_buf dict_off; /* uint32 start, uint32 len per entry (values without prefix) */
    /* current chunk */
    floe_buf chunk;
    int64_t chunk_values, chunk_uncomp;
    uint32_t encodings;
    vstats cs;
    /* whole file */
    vstats fs;
    int64_t value_count, column_size;
} wcol;

struct floe_pq_writer {
    const floe_schema *schema;
    floe_pq_write_options opts;
    floe_arena *arena;
    floe_pq_schema_element *els;
    size_t nels;
    floe_pq_tree tree;
    size_t ncols;
    wcol *cols;
    int codec;
    int64_t level; /* write.parquet.compression-level, -1: codec default */
    int64_t row_group_size, page_size, page_rows, dict_size;
    int64_t offset;      /* bytes written to the sink */
    int64_t rg_rows, total_rows;
    floe_vec row_groups; /* floe_pq_row_group */
    floe_vec splits;     /* int64_t */
    floe_buf scratch, comp, hdr;
    bool closed, failed;
};

/* ---------------------------------------------------------------- sink */

static int sink(floe_pq_writer *w, const void *p, size_t n)
{
    if (!n)
        return 0;
    int rc = w->opts.sink(p, n, w->opts.sink_payload);
    if (rc < 0) {
        w->failed = true;
        return floe__error_context("writing parquet");
    }
    w->offset += (int64_t)n;
    return 0;
}

/* ---------------------------------------------------------------- setup */

static int parse_mode(const char *s, int *mode, int *trunc)
{
    if (!strcmp(s, "none"))
        *mode = MM_NONE;
    else if (!strcmp(s, "counts"))
        *mode = MM_COUNTS;
    else if (!strcmp(s, "full"))
        *mode = MM_FULL;
    else if (!strncmp(s, "truncate(", 9)) {
        char *end;
        long n = strtol(s + 9, &end, 10);
        if (end == s + 9 || strcmp(end, ")") != 0 || n <= 0)
            return floe__error(FLOE_EINVALID, "parquet", "Invalid metrics mode: %s", s);
        *mode = MM_TRUNCATE;
        *trunc = (int)n;
    } else
        return floe__error(FLOE_EINVALID, "parquet", "Invalid metrics mode: %s", s);
    return 0;
}

static int sk_of(const floe_type *t)
{
    switch (t->id) {
    case FLOE_T_BOOLEAN: return SK_BOOL;
    case FLOE_T_INT:
    case FLOE_T_DATE: return SK_I32;
    case FLOE_T_FLOAT: return SK_F32;
    case FLOE_T_DOUBLE: return SK_F64;
    case FLOE_T_DECIMAL: return SK_DEC;
    case FLOE_T_STRING:
    case FLOE_T_BINARY:
    case FLOE_T_UUID:
    case FLOE_T_FIXED: return SK_BYTES;
    default: return SK_I64;
    }
}

typedef struct setup_ctx {
    floe_pq_writer *w;
    size_t next;
    int default_mode, default_trunc;
    bool default_explicit;
    int64_t max_inferred;
} setup_ctx;

int floe__pq_metrics_mode(const floe_props *p, const char *name, size_t index, int *mode,
                          int *trunc)
{
    *mode = MM_TRUNCATE;
    *trunc = 16;
    const char *dm = p ? floe__props_get(p, "write.metadata.metrics.default") : NULL;
    if (dm) {
        FLOE_TRY(parse_mode(dm, mode, trunc));
    } else {
        int64_t max_inferred = 100;
        if (p)
            FLOE_TRY(floe__props_get_int64(
                p, "write.metadata.metrics.max-inferred-column-defaults", 100, &max_inferred));
        if ((int64_t)index >= max_inferred)
            *mode = MM_NONE;
    }
    char key[512];
    snprintf(key, sizeof(key), "write.metadata.metrics.column.%s", name);
    const char *m = p ? floe__props_get(p, key) : NULL;
    if (m)
        FLOE_TRY(parse_mode(m, mode, trunc));
    return 0;
}

static int setup_leaves(setup_ctx *c, const floe_field *f, const char *prefix, bool under_rep)
{
    floe_pq_writer *w = c->w;
    char *name = prefix ? floe__arena_sprintf(w->arena, "%s.%s", prefix, f->name)
                        : floe__arena_strdup(w->arena, f->name);
    if (!name)
        return floe__error_nomem();
    const floe_type *t = f->type;
    if (t->id == FLOE_T_UNKNOWN)
        return 0; /* never written */
    if (t->id == FLOE_T_STRUCT) {
        for (size_t i = 0; i < t->nfields; i++)
            FLOE_TRY(setup_leaves(c, &t->fields[i], name, under_rep));
        return 0;
    }
    if (t->id == FLOE_T_LIST)
        return setup_leaves(c, t->element, name, true);
    if (t->id == FLOE_T_MAP) {
        FLOE_TRY(setup_leaves(c, t->key, name, true));
        return setup_leaves(c, t->value, name, true);
    }
    if (c->next >= w->ncols)
        return floe__error(FLOE_EINVALID, "parquet", "schema/leaf mismatch");
    wcol *col = &w->cols[c->next];
    col->field = f;
    col->node = w->tree.leaves[c->next];
    col->name = name;
    col->sk = sk_of(t);
    col->ptype = col->node->el->type;
    col->tlen = col->node->el->type_length;
    col->max_def = col->node->max_def;
    col->max_rep = col->node->max_rep;
    col->under_repeated = under_rep;
    col->use_dict = !w->opts.dictionary_disabled && t->id != FLOE_T_BOOLEAN;
    FLOE_TRY(floe__pq_metrics_mode(w->opts.props, name, c->next, &col->mode, &col->trunc));
    c->next++;
    return 0;
}

int floe__pq_writer_new(floe_pq_writer **out, const floe_schema *schema,
                        const floe_pq_write_options *opts)
{
    *out = NULL;
    if (!opts || !opts->sink || !schema || !schema->root || schema->root->id != FLOE_T_STRUCT)
        return floe__error(FLOE_EINVALID, "parquet", "writer needs a struct schema and a sink");
    floe_pq_writer *w = floe__calloc(1, sizeof(*w));
    if (!w)
        return floe__error_nomem();
    w->schema = schema;
    w->opts = *opts;
    w->row_groups = (floe_vec)FLOE_VEC_INIT(floe_pq_row_group);
    w->splits = (floe_vec)FLOE_VEC_INIT(int64_t);
    int rc;
    if (!(w->arena = floe__arena_new(4096))) {
        rc = floe__error_nomem();
        goto fail;
    }
    const floe_props *p = opts->props;
    const char *codec = p ? floe__props_get(p, "write.parquet.compression-codec") : NULL;
    if ((rc = floe__pq_codec_from_name(codec, &w->codec)) < 0)
        goto fail;
    if ((rc = floe__props_get_int64(p ? p : &(floe_props)FLOE_PROPS_INIT,
                                    "write.parquet.row-group-size-bytes", 128 << 20,
                                    &w->row_group_size)) < 0 ||
        (rc = floe__props_get_int64(p ? p : &(floe_props)FLOE_PROPS_INIT,
                                    "write.parquet.page-size-bytes", 1 << 20, &w->page_size)) < 0 ||
        (rc = floe__props_get_int64(p ? p : &(floe_props)FLOE_PROPS_INIT,
                                    "write.parquet.page-row-limit", 20000, &w->page_rows)) < 0 ||
        (rc = floe__props_get_int64(p ? p : &(floe_props)FLOE_PROPS_INIT,
                                    "write.parquet.dict-size-bytes", 2 << 20, &w->dict_size)) < 0)
        goto fail;
    if ((rc = floe__props_get_int64(p ? p : &(floe_props)FLOE_PROPS_INIT,
                                    "write.parquet.compression-level", -1, &w->level)) < 0)
        goto fail;
    if (w->row_group_size < 1)
        w->row_group_size = 1;
    if (w->page_size < 1)
        w->page_size = 1;
    if (w->page_rows < 1)
        w->page_rows = 1;
    if ((rc = floe__pq_schema_from_iceberg(&w->els, &w->nels, w->arena, schema)) < 0 ||
        (rc = floe__pq_tree_build(&w->tree, w->arena, w->els, w->nels, "writer")) < 0)
        goto fail;
    w->ncols = w->tree.nleaves;
    w->cols = floe__calloc(w->ncols ? w->ncols : 1, sizeof(wcol));
    if (!w->cols) {
        rc = floe__error_nomem();
        goto fail;
    }
    setup_ctx sc = {w, 0, MM_TRUNCATE, 16, false, 100};
    const char *dm = p ? floe__props_get(p, "write.metadata.metrics.default") : NULL;
    if (dm) {
        sc.default_explicit = true;
        if ((rc = parse_mode(dm, &sc.default_mode, &sc.default_trunc)) < 0)
            goto fail;
    }
    if (p && (rc = floe__props_get_int64(p, "write.metadata.metrics.max-inferred-column-defaults",
                                         100, &sc.max_inferred)) < 0)
        goto fail;
    for (size_t i = 0; i < schema->root->nfields; i++)
        if ((rc = setup_leaves(&sc, &schema->root->fields[i], NULL, false)) < 0)
            goto fail;
    if (opts->data_page_version != 0 && opts->data_page_version != 1 &&
        opts->data_page_version != 2) {
        rc = floe__error(FLOE_EINVALID, "parquet", "data page version %d",
                         opts->data_page_version);
        goto fail;
    }
    if ((rc = sink(w, "PAR1", 4)) < 0)
        goto fail;
    *out = w;
    return 0;
fail:
    floe__pq_writer_free(w);
    return rc;
}

static void vstats_free(vstats *s)
{
    floe__buf_free(&s->minb);
    floe__buf_free(&s->maxb);
}

static void vstats_reset(vstats *s)
{
    s->has = false;
    s->nulls = s->nans = 0;
    floe__buf_clear(&s->minb);
    floe__buf_clear(&s->maxb);
}

void floe__pq_writer_free(floe_pq_writer *w)
{
    if (!w)
        return;
    for (size_t i = 0; w->cols && i < w->ncols; i++) {
        wcol *c = &w->cols[i];
        floe__buf_free(&c->def);
        floe__buf_free(&c->rep);
        floe__buf_free(&c->plain);
        floe__buf_free(&c->idx);
        floe__free(c->htab);
        floe__buf_free(&c->dict_plain);
        floe__buf_free(&c->dict_off);
        floe__buf_free(&c->chunk);
        vstats_free(&c->cs);
        vstats_free(&c->fs);
    }
    floe__free(w->cols);
    floe__vec_free(&w->row_groups);
    floe__vec_free(&w->splits);
    floe__buf_free(&w->scratch);
    floe__buf_free(&w->comp);
    floe__buf_free(&w->hdr);
    floe__arena_free(w->arena);
    floe__free(w);
}

/* ---------------------------------------------------------------- statistics */

static int stats_bytes(vstats *s, const uint8_t *p, size_t n)
{
    if (!s->has) {
        floe__buf_clear(&s->minb);
        floe__buf_clear(&s->maxb);
        FLOE_TRY(floe__buf_put(&s->minb, p, n));
        FLOE_TRY(floe__buf_put(&s->maxb, p, n));
        s->has = true;
        return 0;
    }
    size_t ml = s->minb.len < n ? s->minb.len : n;
    int c = memcmp(p, s->minb.ptr, ml);
    if (c < 0 || (c == 0 && n < s->minb.len)) {
        floe__buf_clear(&s->minb);
        FLOE_TRY(floe__buf_put(&s->minb, p, n));
    }
    ml = s->maxb.len < n ? s->maxb.len : n;
    c = memcmp(p, s->maxb.ptr, ml);
    if (c > 0 || (c == 0 && n > s->maxb.len)) {
        floe__buf_clear(&s->maxb);
        FLOE_TRY(floe__buf_put(&s->maxb, p, n));
    }
    return 0;
}

static int stats_merge(vstats *dst, const vstats *src, int sk)
{
    dst->nulls += src->nulls;
    dst->nans += src->nans;
    if (!src->has)
        return 0;
    if (sk == SK_BYTES) {
        FLOE_TRY(stats_bytes(dst, (const uint8_t *)src->minb.ptr, src->minb.len));
        return stats_bytes(dst, (const uint8_t *)src->maxb.ptr, src->maxb.len);
    }
    if (!dst->has) {
        dst->min = src->min;
        dst->max = src->max;
        dst->has = true;
        return 0;
    }
    switch (sk) {
    case SK_F32:
    case SK_F64:
        if (src->min.d < dst->min.d ||
            (src->min.d == dst->min.d && signbit(src->min.d) && !signbit(dst->min.d)))
            dst->min.d = src->min.d;
        if (src->max.d > dst->max.d ||
            (src->max.d == dst->max.d && !signbit(src->max.d) && signbit(dst->max.d)))
            dst->max.d = src->max.d;
        break;
    case SK_DEC:
        if (src->min.dec < dst->min.dec) dst->min.dec = src->min.dec;
        if (src->max.dec > dst->max.dec) dst->max.dec = src->max.dec;
        break;
    default:
        if (src->min.i < dst->min.i) dst->min.i = src->min.i;
        if (src->max.i > dst->max.i) dst->max.i = src->max.i;
        break;
    }
    return 0;
}

/* ---------------------------------------------------------------- dictionary */

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        h = (h ^ v) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    uint64_t v = 0;
    memcpy(&v, p, n);
    h = (h ^ v) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 29;
    return h;
}

static const uint8_t *dict_entry(const wcol *c, uint32_t i, size_t *len)
{
    uint32_t se[2];
    memcpy(se, c->dict_off.ptr + (size_t)i * 8, 8);
    *len = se[1];
    return (const uint8_t *)c->dict_plain.ptr + se[0];
}

static inline uint64_t key8(const uint8_t *p, size_t n)
{
    uint64_t k = 0;
    memcpy(&k, p, n < 8 ? n : 8);
    return k;
}

static inline uint32_t mix64(uint64_t k)
{
    k ^= k >> 31;
    k *= 0xbf58476d1ce4e5b9ull;
    k ^= k >> 29;
    return (uint32_t)(k >> 32) ^ (uint32_t)k;
}

/* Short values (every fixed-width value, short strings) hash their
 * zero-padded first 8 bytes and length in one step. */
static inline uint32_t hash_value(const uint8_t *p, size_t len, uint64_t key)
{
    if (len <= 8)
        return mix64(key ^ ((uint64_t)len << 56) ^ ((uint64_t)len * 0x9e3779b97f4a7c15ull));
    return (uint32_t)hash_bytes(p, len);
}

static int dict_grow(wcol *c)
{
    size_t ncap = c->hcap ? c->hcap * 2 : 1024;
    struct dslot *nt = floe__calloc(ncap, sizeof(*nt));
    if (!nt)
        return floe__error_nomem();
    for (size_t i = 0; i < c->hcap; i++) {
        if (!c->htab[i].idx1)
            continue;
        size_t h = c->htab[i].hash & (ncap - 1);
        while (nt[h].idx1)
            h = (h + 1) & (ncap - 1);
        nt[h] = c->htab[i];
    }
    floe__free(c->htab);
    c->htab = nt;
    c->hcap = ncap;
    return 0;
}

/* Index of a value in the chunk dictionary (inserting it). */
static int dict_index(floe_pq_writer *w, wcol *c, const uint8_t *p, size_t len, uint32_t *out)
{
    if ((c->ndict + 1) * 2 > c->hcap)
        FLOE_TRY(dict_grow(c));
    uint64_t key = key8(p, len);
    uint32_t hash = hash_value(p, len, key);
    size_t h = hash & (c->hcap - 1);
    bool fixed = c->ptype != FLOE_PQ_BYTE_ARRAY;
    while (c->htab[h].idx1) {
        const struct dslot *sl = &c->htab[h];
        if (sl->hash == hash && sl->key == key) {
            if (fixed && len <= 8) {
                *out = sl->idx1 - 1;
                return 0;
            }
            size_t el;
            const uint8_t *e = dict_entry(c, sl->idx1 - 1, &el);
            if (el == len && !memcmp(e, p, len)) {
                *out = sl->idx1 - 1;
                return 0;
            }
        }
        h = (h + 1) & (c->hcap - 1);
    }
    if (!fixed) {
        uint32_t l = (uint32_t)len;
        FLOE_TRY(floe__buf_put(&c->dict_plain, &l, 4));
    }
    uint32_t se[2] = {(uint32_t)c->dict_plain.len, (uint32_t)len};
    FLOE_TRY(floe__buf_put(&c->dict_plain, p, len));
    FLOE_TRY(floe__buf_put(&c->dict_off, se, 8));
    c->htab[h].key = key;
    c->htab[h].hash = hash;
    c->htab[h].idx1 = (uint32_t)c->ndict + 1;
    *out = (uint32_t)c->ndict++;
    if ((int64_t)c->dict_plain.len > w->dict_size)
        c->dict_overflow = true;
    return 0;
}

/* Byte-array statistics of dictionary-encoded values come from the
 * dictionary (every entry was used) instead of one compare per value. */
static int dict_stats(wcol *c)
{
    if (c->sk != SK_BYTES)
        return 0;
    for (uint32_t i = 0; i < c->ndict; i++) {
        size_t len;
        const uint8_t *p = dict_entry(c, i, &len);
        FLOE_TRY(stats_bytes(&c->cs, p, len));
    }
    return 0;
}

/* ---------------------------------------------------------------- pages */

static int put_levels(floe_buf *out, const floe_buf *lv, size_t n, int16_t max, bool v1)
{
    size_t at = out->len;
    if (v1)
        FLOE_TRY(floe__buf_put(out, "\0\0\0\0", 4));
    FLOE_TRY(floe__pq_rle_encode16((const uint16_t *)lv->ptr, n, floe__pq_bit_width((uint64_t)max),
                                   out));
    if (v1) {
        uint32_t len = (uint32_t)(out->len - at - 4);
        memcpy(out->ptr + at, &len, 4);
    }
    return 0;
}

static int flush_page(floe_pq_writer *w, wcol *c)
{
    if (!c->nlevels)
        return 0;
    bool v1 = w->opts.data_page_version != 2;
    bool dict = c->use_dict;
    floe_buf *s = &w->scratch;
    floe__buf_clear(s);
    floe__buf_clear(&w->comp);
    floe__buf_clear(&w->hdr);
    if (c->max_rep > 0)
        FLOE_TRY(put_levels(s, &c->rep, c->nlevels, c->max_rep, v1));
    size_t rep_len = s->len;
    if (c->max_def > 0)
        FLOE_TRY(put_levels(s, &c->def, c->nlevels, c->max_def, v1));
    size_t levels_len = s->len;
    if (dict) {
        int bw = floe__pq_bit_width(c->ndict ? c->ndict - 1 : 0);
        FLOE_TRY(floe__buf_putc(s, (char)bw));
        FLOE_TRY(floe__pq_rle_encode32((const uint32_t *)c->idx.ptr, c->nvals, bw, s));
        c->chunk_used_dict = true;
    } else if (c->ptype == FLOE_PQ_BOOLEAN) {
        size_t nb = (c->nvals + 7) / 8;
        FLOE_TRY(floe__buf_reserve(s, nb));
        uint8_t *o = (uint8_t *)s->ptr + s->len;
        memset(o, 0, nb);
        for (size_t i = 0; i < c->nvals; i++)
            if (c->plain.ptr[i])
                o[i >> 3] |= (uint8_t)(1u << (i & 7));
        s->len += nb;
    } else {
        FLOE_TRY(floe__buf_put(s, c->plain.ptr, c->plain.len));
    }
    floe_pq_page_header ph = {0};
    ph.uncompressed_page_size = (int32_t)s->len;
    ph.num_values = (int32_t)c->nlevels;
    ph.encoding = dict ? (v1 ? FLOE_PQ_ENC_PLAIN_DICTIONARY : FLOE_PQ_ENC_RLE_DICTIONARY)
                       : FLOE_PQ_ENC_PLAIN;
    if (v1) {
        ph.type = FLOE_PQ_PAGE_DATA;
        ph.def_encoding = FLOE_PQ_ENC_RLE;
        ph.rep_encoding = FLOE_PQ_ENC_RLE;
        FLOE_TRY(floe__pq_compress_level(w->codec, (int)w->level, s->ptr, s->len, &w->comp));
    } else {
        ph.type = FLOE_PQ_PAGE_DATA_V2;
        ph.num_nulls = (int32_t)c->page_nulls;
        ph.num_rows = (int32_t)c->page_rows;
        ph.rep_levels_byte_length = (int32_t)rep_len;
        ph.def_levels_byte_length = (int32_t)(levels_len - rep_len);
        ph.is_compressed = w->codec != FLOE_PQ_CODEC_UNCOMPRESSED;
        FLOE_TRY(floe__buf_put(&w->comp, s->ptr, levels_len));
        FLOE_TRY(floe__pq_compress_level(w->codec, (int)w->level, s->ptr + levels_len, s->len - levels_len, &w->comp));
    }
    ph.compressed_page_size = (int32_t)w->comp.len;
    FLOE_TRY(floe__pq_encode_page_header(&ph, &w->hdr));
    FLOE_TRY(floe__buf_put(&c->chunk, w->hdr.ptr, w->hdr.len));
    FLOE_TRY(floe__buf_put(&c->chunk, w->comp.ptr, w->comp.len));
    c->chunk_uncomp += (int64_t)(w->hdr.len + s->len);
    c->chunk_values += (int64_t)c->nlevels;
    c->encodings |= 1u << ph.encoding;
    if (c->max_def || c->max_rep)
        c->encodings |= 1u << FLOE_PQ_ENC_RLE;
    c->nlevels = 0;
    c->nvals = 0;
    c->page_nulls = c->page_rows = 0;
    floe__buf_clear(&c->def);
    floe__buf_clear(&c->rep);
    floe__buf_clear(&c->plain);
    floe__buf_clear(&c->idx);
    if (c->dict_overflow) {
        c->use_dict = false; /* fall back to PLAIN for the rest of the chunk */
        c->dict_overflow = false;
    }
    return 0;
}

static int64_t page_bytes(const wcol *c)
{
    if (c->use_dict)
        return (int64_t)(c->nvals * (size_t)(floe__pq_bit_width(c->ndict) + 7) / 8);
    return (int64_t)c->plain.len;
}

/* At a row boundary: flush the page when full. */
static int row_done(floe_pq_writer *w, wcol *c)
{
    c->page_rows++;
    if (page_bytes(c) >= w->page_size || (int64_t)c->page_rows >= w->page_rows ||
        c->dict_overflow)
        return flush_page(w, c);
    return 0;
}

/* ---------------------------------------------------------------- values */

static inline int push_level(wcol *c, uint16_t def, uint16_t rep)
{
    if (c->max_def > 0)
        FLOE_TRY(put_fast(&c->def, &def, 2));
    if (c->max_rep > 0)
        FLOE_TRY(put_fast(&c->rep, &rep, 2));
    c->nlevels++;
    return 0;
}

static int push_null(wcol *c, uint16_t def, uint16_t rep)
{
    c->cs.nulls++;
    c->page_nulls++;
    return push_level(c, def, rep);
}

/* Physical bytes of the value at physical index j of leaf array a. */
/* Widen integer bounds (booleans, int32, int64) by v. */
static void stats_int(vstats *s, int64_t v)
{
    if (!s->has) {
        s->min.i = s->max.i = v;
        s->has = true;
    } else if (v < s->min.i) {
        s->min.i = v;
    } else if (v > s->max.i) {
        s->max.i = v;
    }
}

static int push_value(floe_pq_writer *w, wcol *c, const struct ArrowArray *a, int64_t j,
                      uint16_t rep)
{
    uint8_t tmp[16];
    const uint8_t *p = tmp;
    size_t n;
    vstats *s = &c->cs;
    const uint8_t *vals = a->buffers[1];
    switch (c->sk) {
    case SK_BOOL: {
        bool b = floe__arrow_bit_get(vals, j);
        tmp[0] = b;
        n = 1;
        stats_int(s, b);
        break;
    }
    case SK_I32: {
        int32_t v;
        memcpy(&v, vals + j * 4, 4);
        memcpy(tmp, &v, 4);
        n = 4;
        stats_int(s, v);
        break;
    }
    case SK_I64: {
        int64_t v;
        memcpy(&v, vals + j * 8, 8);
        memcpy(tmp, &v, 8);
        n = 8;
        stats_int(s, v);
        break;
    }
    case SK_F32:
    case SK_F64: {
        double d;
        if (c->sk == SK_F32) {
            float f;
            memcpy(&f, vals + j * 4, 4);
            memcpy(tmp, &f, 4);
            n = 4;
            d = f;
        } else {
            memcpy(&d, vals + j * 8, 8);
            memcpy(tmp, &d, 8);
            n = 8;
        }
        /* NaN is counted, never a bound; -0.0 orders below +0.0 (Iceberg's
         * total order, and parquet-format's advice for statistics) */
        if (isnan(d)) {
            s->nans++;
        } else if (!s->has) {
            s->min.d = s->max.d = d;
            s->has = true;
        } else {
            if (d < s->min.d || (d == s->min.d && signbit(d) && !signbit(s->min.d)))
                s->min.d = d;
            if (d > s->max.d || (d == s->max.d && !signbit(d) && signbit(s->max.d)))
                s->max.d = d;
        }
        break;
    }
    case SK_DEC: {
        floe_i128 v;
        memcpy(&v, vals + j * 16, 16);
        if (!s->has) {
            s->min.dec = s->max.dec = v;
            s->has = true;
        } else {
            if (v < s->min.dec) s->min.dec = v;
            if (v > s->max.dec) s->max.dec = v;
        }
        if (c->ptype == FLOE_PQ_INT32) {
            int32_t x = (int32_t)v;
            memcpy(tmp, &x, 4);
            n = 4;
        } else if (c->ptype == FLOE_PQ_INT64) {
            int64_t x = (int64_t)v;
            memcpy(tmp, &x, 8);
            n = 8;
        } else {
            n = (size_t)c->tlen;
            for (size_t k = 0; k < n; k++)
                tmp[n - 1 - k] = (uint8_t)(v >> (8 * k));
        }
        break;
    }
    default: {
        if (c->ptype == FLOE_PQ_FIXED_LEN_BYTE_ARRAY) {
            n = (size_t)c->tlen;
            p = vals + j * (int64_t)n;
        } else {
            int32_t o[2];
            memcpy(o, (const int32_t *)a->buffers[1] + j, 8);
            if (o[1] < o[0])
                return floe__error(FLOE_EINVALID, "parquet", "bad Arrow offsets for %s", c->name);
            n = (size_t)(o[1] - o[0]);
            p = (const uint8_t *)a->buffers[2] + o[0];
        }
        if (!c->use_dict)
            FLOE_TRY(stats_bytes(s, p, n));
        break;
    }
    }
    FLOE_TRY(push_level(c, (uint16_t)c->max_def, rep));
    c->nvals++;
    if (c->use_dict) {
        uint32_t ix;
        FLOE_TRY(dict_index(w, c, p, n, &ix));
        return put_fast(&c->idx, &ix, 4);
    }
    if (c->ptype == FLOE_PQ_BYTE_ARRAY) {
        uint32_t l = (uint32_t)n;
        FLOE_TRY(put_fast(&c->plain, &l, 4));
    }
    return put_fast(&c->plain, p, n);
}

/* ---------------------------------------------------------------- shredding */

static size_t count_leaves(const floe_type *t)
{
    switch (t->id) {
    case FLOE_T_STRUCT: {
        size_t n = 0;
        for (size_t i = 0; i < t->nfields; i++)
            n += count_leaves(t->fields[i].type);
        return n;
    }
    case FLOE_T_LIST: return count_leaves(t->element->type);
    case FLOE_T_MAP: return count_leaves(t->key->type) + count_leaves(t->value->type);
    case FLOE_T_UNKNOWN: return 0;
    default: return 1;
    }
}

static int nulls_for(wcol *cols, size_t first, size_t n, uint16_t def, uint16_t rep)
{
    for (size_t k = 0; k < n; k++)
        FLOE_TRY(push_null(&cols[first + k], def, rep));
    return 0;
}

static int check_array(const struct ArrowArray *a, const floe_type *t, const char *name)
{
    if (t->id == FLOE_T_UNKNOWN) /* Arrow null: no buffers, nothing read */
        return !a || !a->release || a->length < 0 || a->offset < 0
                   ? floe__error(FLOE_EINVALID, "parquet",
                                 "Arrow array for %s does not match its type", name)
                   : 0;
    int64_t nb = t->id == FLOE_T_STRING || t->id == FLOE_T_BINARY ? 3
                 : t->id == FLOE_T_STRUCT                          ? 1
                                                                   : 2;
    int64_t nc = t->id == FLOE_T_STRUCT ? (int64_t)t->nfields
                 : (t->id == FLOE_T_LIST || t->id == FLOE_T_MAP) ? 1
                                                                 : 0;
    if (!a || !a->release || a->n_buffers != nb || a->n_children != nc || a->length < 0 ||
        a->offset < 0 || (nb > 1 && !a->buffers[1]) || (nb > 2 && !a->buffers[2]))
        return floe__error(FLOE_EINVALID, "parquet", "Arrow array for %s does not match its type",
                           name);
    if (t->id == FLOE_T_MAP &&
        (a->children[0]->n_children != 2 || a->children[0]->n_buffers != 1))
        return floe__error(FLOE_EINVALID, "parquet", "Arrow map for %s needs key/value entries",
                           name);
    return 0;
}

/* Shred slot i (logical, without a->offset) of field f into its leaves
 * starting at column `first`. def: level of the parent; rep: repetition
 * level of this slot; rdepth: repeated ancestors so far. */
static int shred(floe_pq_writer *w, const floe_field *f, const struct ArrowArray *a, int64_t i,
                 uint16_t def, uint16_t rep, uint16_t rdepth, size_t first, int depth)
{
    const floe_type *t = f->type;
    size_t nleaves = count_leaves(t);
    if (depth > 64)
        return floe__error(FLOE_EINVALID, "parquet", "nesting too deep");
    if (t->id == FLOE_T_UNKNOWN)
        return 0;
    FLOE_TRY(check_array(a, t, f->name));
    if (i >= a->length)
        return floe__error(FLOE_EINVALID, "parquet", "Arrow child of %s too short", f->name);
    int64_t j = i + a->offset;
    bool valid = floe__arrow_is_valid(a, i);
    if (!valid) {
        if (f->required)
            return floe__error(FLOE_EINVALID, "parquet", "Null value in required field: %s",
                               f->name);
        return nulls_for(w->cols, first, nleaves, def, rep);
    }
    uint16_t d = (uint16_t)(def + (f->required ? 0 : 1));
    switch (t->id) {
    case FLOE_T_STRUCT: {
        size_t at = first;
        for (size_t k = 0; k < t->nfields; k++) {
            FLOE_TRY(shred(w, &t->fields[k], a->children[k], j, d, rep, rdepth, at, depth + 1));
            at += count_leaves(t->fields[k].type);
        }
        return 0;
    }
    case FLOE_T_LIST:
    case FLOE_T_MAP: {
        const int32_t *off = a->buffers[1];
        int32_t s = off[j], e = off[j + 1];
        if (e < s)
            return floe__error(FLOE_EINVALID, "parquet", "bad Arrow list offsets for %s", f->name);
        if (s == e)
            return nulls_for(w->cols, first, nleaves, d, rep);
        const struct ArrowArray *child = a->children[0];
        for (int32_t k = s; k < e; k++) {
            uint16_t r = k == s ? rep : (uint16_t)(rdepth + 1);
            uint16_t dd = (uint16_t)(d + 1);
            if (t->id == FLOE_T_LIST) {
                FLOE_TRY(shred(w, t->element, child, k, dd, r, (uint16_t)(rdepth + 1), first,
                               depth + 1));
            } else {
                if (k >= child->length)
                    return floe__error(FLOE_EINVALID, "parquet", "Arrow map entries too short");
                int64_t kk = k + child->offset;
                FLOE_TRY(shred(w, t->key, child->children[0], kk, dd, r, (uint16_t)(rdepth + 1),
                               first, depth + 1));
                FLOE_TRY(shred(w, t->value, child->children[1], kk, dd, r,
                               (uint16_t)(rdepth + 1), first + count_leaves(t->key->type),
                               depth + 1));
            }
        }
        return 0;
    }
    default:
        return push_value(w, &w->cols[first], a, j, rep);
    }
}

/* ---------------------------------------------------------------- row groups */

static int stats_to_parquet(floe_pq_writer *w, const wcol *c, floe_pq_statistics *st)
{
    st->has_null_count = true;
    st->null_count = c->cs.nulls;
    if (c->sk == SK_F32 || c->sk == SK_F64) {
        st->has_nan_count = true;
        st->nan_count = c->cs.nans;
    }
    if (!c->cs.has)
        return 0;
    uint8_t mn[16], mx[16];
    size_t n = 0;
    const uint8_t *pmn = mn, *pmx = mx;
    switch (c->sk) {
    case SK_BOOL: mn[0] = (uint8_t)c->cs.min.i; mx[0] = (uint8_t)c->cs.max.i; n = 1; break;
    case SK_I32: {
        int32_t a = (int32_t)c->cs.min.i, b = (int32_t)c->cs.max.i;
        memcpy(mn, &a, 4), memcpy(mx, &b, 4), n = 4;
        break;
    }
    case SK_I64: memcpy(mn, &c->cs.min.i, 8), memcpy(mx, &c->cs.max.i, 8), n = 8; break;
    case SK_F32: {
        float a = (float)c->cs.min.d, b = (float)c->cs.max.d;
        memcpy(mn, &a, 4), memcpy(mx, &b, 4), n = 4;
        break;
    }
    case SK_F64: memcpy(mn, &c->cs.min.d, 8), memcpy(mx, &c->cs.max.d, 8), n = 8; break;
    case SK_DEC:
        if (c->ptype == FLOE_PQ_INT32) {
            int32_t a = (int32_t)c->cs.min.dec, b = (int32_t)c->cs.max.dec;
            memcpy(mn, &a, 4), memcpy(mx, &b, 4), n = 4;
        } else if (c->ptype == FLOE_PQ_INT64) {
            int64_t a = (int64_t)c->cs.min.dec, b = (int64_t)c->cs.max.dec;
            memcpy(mn, &a, 8), memcpy(mx, &b, 8), n = 8;
        } else {
            n = (size_t)c->tlen;
            for (size_t k = 0; k < n; k++) {
                mn[n - 1 - k] = (uint8_t)(c->cs.min.dec >> (8 * k));
                mx[n - 1 - k] = (uint8_t)(c->cs.max.dec >> (8 * k));
            }
        }
        break;
    default: {
        pmn = (const uint8_t *)c->cs.minb.ptr;
        pmx = (const uint8_t *)c->cs.maxb.ptr;
        size_t a = c->cs.minb.len, b = c->cs.maxb.len;
        st->min_value.ptr = a ? floe__arena_memdup(w->arena, pmn, a) : (const uint8_t *)"";
        st->max_value.ptr = b ? floe__arena_memdup(w->arena, pmx, b) : (const uint8_t *)"";
        if (!st->min_value.ptr || !st->max_value.ptr)
            return floe__error_nomem();
        st->min_value.len = a;
        st->max_value.len = b;
        st->min_value.set = st->max_value.set = true;
        return 0;
    }
    }
    st->min_value.ptr = floe__arena_memdup(w->arena, pmn, n);
    st->max_value.ptr = floe__arena_memdup(w->arena, pmx, n);
    if (!st->min_value.ptr || !st->max_value.ptr)
        return floe__error_nomem();
    st->min_value.len = st->max_value.len = n;
    st->min_value.set = st->max_value.set = true;
    /* signed-order types: the deprecated fields carry the same values */
    st->min = st->min_value;
    st->max = st->max_value;
    return 0;
}

static int flush_row_group(floe_pq_writer *w)
{
    if (w->rg_rows == 0)
        return 0;
    floe_pq_row_group rg = {0};
    rg.num_rows = w->rg_rows;
    rg.columns = floe__arena_calloc(w->arena, w->ncols ? w->ncols : 1, sizeof(*rg.columns));
    if (!rg.columns)
        return floe__error_nomem();
    rg.ncolumns = w->ncols;
    rg.has_file_offset = true;
    rg.file_offset = w->offset;
    rg.has_total_compressed_size = true;
    int64_t *split = floe__vec_push(&w->splits);
    if (!split)
        return floe__error_nomem();
    *split = w->offset;
    for (size_t i = 0; i < w->ncols; i++) {
        wcol *c = &w->cols[i];
        FLOE_TRY(flush_page(w, c));
        floe_pq_column_chunk *cc = &rg.columns[i];
        floe_pq_column_meta *m = &cc->meta_data;
        cc->has_meta_data = true;
        m->type = c->ptype;
        m->codec = w->codec;
        m->num_values = c->chunk_values;
        m->npath = 0;
        /* path_in_schema: names from the root's child down to the leaf */
        const floe_pq_node *nodes[80];
        size_t depth = 0;
        for (const floe_pq_node *n = c->node; n && n->parent && depth < 80; n = n->parent)
            nodes[depth++] = n;
        m->path = floe__arena_calloc(w->arena, depth ? depth : 1, sizeof(char *));
        if (!m->path)
            return floe__error_nomem();
        for (size_t k = 0; k < depth; k++)
            m->path[k] = nodes[depth - 1 - k]->el->name;
        m->npath = depth;
        int64_t start = w->offset;
        int64_t uncomp = c->chunk_uncomp;
        if (c->chunk_used_dict) {
            floe_buf *s = &w->scratch;
            floe__buf_clear(s);
            floe__buf_clear(&w->comp);
            FLOE_TRY(floe__pq_compress_level(w->codec, (int)w->level, c->dict_plain.ptr, c->dict_plain.len, &w->comp));
            floe_pq_page_header ph = {0};
            ph.type = FLOE_PQ_PAGE_DICTIONARY;
            ph.uncompressed_page_size = (int32_t)c->dict_plain.len;
            ph.compressed_page_size = (int32_t)w->comp.len;
            ph.dict_num_values = (int32_t)c->ndict;
            ph.dict_encoding = w->opts.data_page_version == 2 ? FLOE_PQ_ENC_PLAIN
                                                              : FLOE_PQ_ENC_PLAIN_DICTIONARY;
            FLOE_TRY(floe__pq_encode_page_header(&ph, s));
            m->has_dictionary_page_offset = true;
            m->dictionary_page_offset = w->offset;
            uncomp += (int64_t)(s->len + c->dict_plain.len);
            FLOE_TRY(sink(w, s->ptr, s->len));
            FLOE_TRY(sink(w, w->comp.ptr, w->comp.len));
            c->encodings |= 1u << ph.dict_encoding;
        }
        m->data_page_offset = w->offset;
        FLOE_TRY(sink(w, c->chunk.ptr, c->chunk.len));
        m->total_compressed_size = w->offset - start;
        m->total_uncompressed_size = uncomp;
        m->encodings = c->encodings;
        cc->file_offset = start;
        m->has_statistics = true;
        FLOE_TRY(dict_stats(c));
        FLOE_TRY(stats_to_parquet(w, c, &m->statistics));
        rg.total_byte_size += uncomp;
        rg.total_compressed_size += m->total_compressed_size;
        /* file-level metrics */
        c->value_count += c->chunk_values;
        c->column_size += m->total_compressed_size;
        FLOE_TRY(stats_merge(&c->fs, &c->cs, c->sk));
        vstats_reset(&c->cs);
        /* next chunk starts with a fresh dictionary */
        floe__buf_clear(&c->chunk);
        floe__buf_clear(&c->dict_plain);
        floe__buf_clear(&c->dict_off);
        if (c->htab)
            memset(c->htab, 0, c->hcap * sizeof(*c->htab));
        c->ndict = 0;
        c->chunk_values = c->chunk_uncomp = 0;
        c->encodings = 0;
        c->chunk_used_dict = false;
        c->dict_overflow = false;
        c->use_dict = !w->opts.dictionary_disabled && c->sk != SK_BOOL;
    }
    floe_pq_row_group *slot = floe__vec_push(&w->row_groups);
    if (!slot)
        return floe__error_nomem();
    *slot = rg;
    w->total_rows += w->rg_rows;
    w->rg_rows = 0;
    return 0;
}

static int64_t buffered_bytes(const floe_pq_writer *w)
{
    int64_t n = 0;
    for (size_t i = 0; i < w->ncols; i++) {
        const wcol *c = &w->cols[i];
        n += (int64_t)c->chunk.len + page_bytes(c) + (int64_t)c->dict_plain.len +
             (int64_t)(c->def.len + c->rep.len) / 8;
    }
    return n;
}

int64_t floe__pq_writer_bytes(const floe_pq_writer *w)
{
    return w->offset + buffered_bytes(w);
}

/* ---------------------------------------------------------------- write */

/* Fast path for flat fixed-width columns with INT32/INT64/FLOAT/DOUBLE
 * physical types (ints, dates, times, timestamps, floats, decimals of
 * precision <= 18): levels, statistics, dictionary probing and PLAIN stores
 * in one tight loop. Returns 1 when the column does not qualify. */
static int flat_fixed(floe_pq_writer *w, wcol *c, const floe_field *f,
                      const struct ArrowArray *a, int64_t from, int64_t to)
{
    int pw = c->ptype == FLOE_PQ_INT32 || c->ptype == FLOE_PQ_FLOAT ? 4
             : c->ptype == FLOE_PQ_INT64 || c->ptype == FLOE_PQ_DOUBLE ? 8
                                                                      : 0;
    if (!pw || c->sk == SK_BOOL || c->sk == SK_BYTES || c->sk == SK_F32 || c->sk == SK_F64)
        return 1;
    int aw = c->sk == SK_DEC ? 16 : c->sk == SK_I32 ? 4 : 8;
    const uint8_t *bits = a->null_count != 0 ? a->buffers[0] : NULL;
    const uint8_t *vals = a->buffers[1];
    vstats *s = &c->cs;
    for (int64_t i0 = from; i0 < to; i0 += 256) {
        int64_t i1 = to - i0 < 256 ? to : i0 + 256;
        size_t k = (size_t)(i1 - i0);
        if (c->max_def > 0)
            FLOE_TRY(floe__buf_reserve(&c->def, k * 2));
        if (c->use_dict)
            FLOE_TRY(floe__buf_reserve(&c->idx, k * 4));
        else
            FLOE_TRY(floe__buf_reserve(&c->plain, k * (size_t)pw));
        uint64_t keys[256];
        uint32_t hashes[256];
        size_t nk = 0;
        int64_t mn = s->has ? (c->sk == SK_DEC ? (int64_t)s->min.dec : s->min.i) : INT64_MAX;
        int64_t mx = s->has ? (c->sk == SK_DEC ? (int64_t)s->max.dec : s->max.i) : INT64_MIN;
        bool any = s->has;
        for (int64_t i = i0; i < i1; i++) {
            int64_t j = i + a->offset;
            bool valid = !bits || floe__arrow_bit_get(bits, j);
            if (c->max_def > 0) {
                uint16_t d = (uint16_t)(valid ? c->max_def : 0);
                memcpy(c->def.ptr + c->def.len, &d, 2);
                c->def.len += 2;
            }
            c->nlevels++;
            c->page_rows++;
            if (!valid) {
                if (f->required)
                    return floe__error(FLOE_EINVALID, "parquet",
                                       "Null value in required field: %s", f->name);
                s->nulls++;
                c->page_nulls++;
                continue;
            }
            int64_t v;
            if (aw == 4) {
                int32_t x;
                memcpy(&x, vals + j * 4, 4);
                v = x;
            } else if (aw == 8) {
                memcpy(&v, vals + j * 8, 8);
            } else {
                floe_i128 x;
                memcpy(&x, vals + j * 16, 16);
                v = (int64_t)x; /* precision <= 18 fits */
            }
            if (v < mn)
                mn = v;
            if (v > mx)
                mx = v;
            any = true;
            uint64_t key;
            if (pw == 4) {
                int32_t x = (int32_t)v;
                uint32_t ux;
                memcpy(&ux, &x, 4);
                key = ux;
            } else {
                memcpy(&key, &v, 8);
            }
            c->nvals++;
            if (c->use_dict) {
                uint32_t hash = mix64(key ^ ((uint64_t)pw << 56) ^ ((uint64_t)pw * 0x9e3779b97f4a7c15ull));
                keys[nk] = key;
                hashes[nk++] = hash;
                if (c->hcap)
                    __builtin_prefetch(&c->htab[hash & (c->hcap - 1)]);
            } else {
                memcpy(c->plain.ptr + c->plain.len, &key, (size_t)pw);
                c->plain.len += (size_t)pw;
            }
        }
        /* second pass: probe the dictionary (slots were prefetched) */
        for (size_t q = 0; q < nk; q++) {
            uint64_t key = keys[q];
            uint32_t hash = hashes[q];
            uint32_t ix = UINT32_MAX;
            if (c->hcap) {
                size_t h = hash & (c->hcap - 1);
                while (c->htab[h].idx1) {
                    if (c->htab[h].hash == hash && c->htab[h].key == key) {
                        ix = c->htab[h].idx1 - 1;
                        break;
                    }
                    h = (h + 1) & (c->hcap - 1);
                }
            }
            if (ix == UINT32_MAX)
                FLOE_TRY(dict_index(w, c, (const uint8_t *)&key, (size_t)pw, &ix));
            memcpy(c->idx.ptr + c->idx.len, &ix, 4);
            c->idx.len += 4;
        }
        if (any) {
            if (c->sk == SK_DEC) {
                s->min.dec = mn;
                s->max.dec = mx;
            } else {
                s->min.i = mn;
                s->max.i = mx;
            }
            s->has = true;
        }
        if (page_bytes(c) >= w->page_size || c->page_rows >= w->page_rows || c->dict_overflow)
            FLOE_TRY(flush_page(w, c));
    }
    return 0;
}

static int write_flat(floe_pq_writer *w, wcol *c, const floe_field *f, const struct ArrowArray *a,
                      int64_t from, int64_t to)
{
    int fr = flat_fixed(w, c, f, a, from, to);
    if (fr <= 0)
        return fr;
    const uint8_t *bits = a->null_count != 0 ? a->buffers[0] : NULL;
    for (int64_t i = from; i < to; i++) {
        int64_t j = i + a->offset;
        if (bits && !floe__arrow_bit_get(bits, j)) {
            if (f->required)
                return floe__error(FLOE_EINVALID, "parquet", "Null value in required field: %s",
                                   f->name);
            FLOE_TRY(push_null(c, 0, 0));
        } else {
            FLOE_TRY(push_value(w, c, a, j, 0));
        }
        c->page_rows++;
        if ((i & 255) == 255 || c->dict_overflow) {
            if (page_bytes(c) >= w->page_size || c->page_rows >= w->page_rows || c->dict_overflow)
                FLOE_TRY(flush_page(w, c));
        }
    }
    return 0;
}

/* Rows are processed in slices so a large batch still rolls row groups at
 * write.parquet.row-group-size-bytes (memory: one row group). */
#define SLICE_ROWS 1024

static int write_batch(floe_pq_writer *w, const struct ArrowArray *batch)
{
    const floe_type *root = w->schema->root;
    if (!batch || !batch->release || batch->n_children != (int64_t)root->nfields)
        return floe__error(FLOE_EINVALID, "parquet",
                           "batch has %lld columns, schema has %zu",
                           batch ? (long long)batch->n_children : -1LL, root->nfields);
    int64_t nrows = batch->length;
    for (size_t k = 0; k < root->nfields; k++) {
        const floe_field *f = &root->fields[k];
        FLOE_TRY(check_array(batch->children[k], f->type, f->name));
        if (batch->children[k]->length < nrows + batch->offset)
            return floe__error(FLOE_EINVALID, "parquet", "column %s shorter than the batch",
                               f->name);
    }
    for (int64_t from = 0; from < nrows; from += SLICE_ROWS) {
        int64_t to = nrows - from < SLICE_ROWS ? nrows : from + SLICE_ROWS;
        size_t first = 0;
        for (size_t k = 0; k < root->nfields; k++) {
            const floe_field *f = &root->fields[k];
            const struct ArrowArray *a = batch->children[k];
            if (f->type->id == FLOE_T_UNKNOWN)
                continue;
            if (!floe_type_is_nested(f->type)) {
                /* the struct's own offset applies to its children */
                FLOE_TRY(write_flat(w, &w->cols[first], f, a, from + batch->offset,
                                    to + batch->offset));
                first++;
                continue;
            }
            size_t n = count_leaves(f->type);
            for (int64_t i = from; i < to; i++) {
                FLOE_TRY(shred(w, f, a, i + batch->offset, 0, 0, 0, first, 0));
                for (size_t l = 0; l < n; l++)
                    FLOE_TRY(row_done(w, &w->cols[first + l]));
            }
            first += n;
        }
        w->rg_rows += to - from;
        if (buffered_bytes(w) >= w->row_group_size)
            FLOE_TRY(flush_row_group(w));
    }
    return 0;
}

int floe__pq_writer_write(floe_pq_writer *w, const struct ArrowArray *batch)
{
    if (w->closed || w->failed)
        return floe__error(FLOE_EINVALID, "parquet", "writer is closed or failed");
    int rc = write_batch(w, batch);
    if (rc < 0)
        w->failed = true; /* partial rows may be buffered: the file is unusable */
    return rc;
}

/* ---------------------------------------------------------------- metrics */

static floe_value stats_value(const wcol *c, const vstats *s, bool upper)
{
    const floe_type *t = c->field->type;
    floe_value v;
    memset(&v, 0, sizeof(v));
    v.type = t->id;
    switch (c->sk) {
    case SK_BOOL: v.v.b = upper ? s->max.i : s->min.i; break;
    case SK_I32: v.v.i32 = (int32_t)(upper ? s->max.i : s->min.i); break;
    case SK_I64: v.v.i64 = upper ? s->max.i : s->min.i; break;
    case SK_F32: v.v.f32 = (float)(upper ? s->max.d : s->min.d); break;
    case SK_F64: v.v.f64 = upper ? s->max.d : s->min.d; break;
    case SK_DEC:
        v.v.dec = upper ? s->max.dec : s->min.dec;
        v.scale = t->scale;
        break;
    default: {
        const floe_buf *b = upper ? &s->maxb : &s->minb;
        v.v.bytes.ptr = (const uint8_t *)(b->ptr ? b->ptr : "");
        v.v.bytes.len = b->len;
        break;
    }
    }
    return v;
}

/* Length in bytes of the first n code points of UTF-8 s. */
static size_t utf8_prefix(const uint8_t *s, size_t len, int n)
{
    size_t i = 0;
    for (int k = 0; k < n && i < len; k++) {
        i++;
        while (i < len && (s[i] & 0xc0) == 0x80)
            i++;
    }
    return i;
}

static size_t utf8_encode(uint32_t cp, uint8_t *o)
{
    if (cp < 0x80) { o[0] = (uint8_t)cp; return 1; }
    if (cp < 0x800) { o[0] = (uint8_t)(0xc0 | (cp >> 6)); o[1] = (uint8_t)(0x80 | (cp & 0x3f)); return 2; }
    if (cp < 0x10000) {
        o[0] = (uint8_t)(0xe0 | (cp >> 12));
        o[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (uint8_t)(0xf0 | (cp >> 18));
    o[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (uint8_t)(0x80 | (cp & 0x3f));
    return 4;
}

/* Upper bound of a string truncated to n code points: increment the last
 * code point that can be incremented (skipping surrogates), dropping what
 * follows. Returns false when no bound exists. */
static bool truncate_string_upper(const uint8_t *s, size_t len, int n, floe_buf *out)
{
    size_t cut = utf8_prefix(s, len, n);
    if (cut >= len) {
        floe__buf_clear(out);
        return floe__buf_put(out, s, len) == 0;
    }
    /* starts of the code points in [0, cut) */
    size_t starts[64] = {0}; /* [0, ns) set below (cppcheck cannot tell) */
    size_t ns = 0;
    for (size_t i = 0; i < cut && ns < 64; ns++) {
        starts[ns] = i;
        i++;
        while (i < cut && (s[i] & 0xc0) == 0x80)
            i++;
    }
    for (size_t k = ns; k-- > 0;) {
        size_t a = starts[k], b = k + 1 < ns ? starts[k + 1] : cut;
        uint32_t cp;
        uint8_t c0 = s[a];
        if (c0 < 0x80) cp = c0;
        else if ((c0 & 0xe0) == 0xc0) cp = c0 & 0x1f;
        else if ((c0 & 0xf0) == 0xe0) cp = c0 & 0x0f;
        else cp = c0 & 0x07;
        for (size_t i = a + 1; i < b; i++)
            cp = (cp << 6) | (s[i] & 0x3f);
        if (cp >= 0x10ffff)
            continue;
        uint32_t next = cp + 1;
        if (next >= 0xd800 && next <= 0xdfff)
            next = 0xe000;
        uint8_t enc[4];
        size_t el = utf8_encode(next, enc);
        floe__buf_clear(out);
        if (floe__buf_put(out, s, a) < 0 || floe__buf_put(out, enc, el) < 0)
            return false;
        return true;
    }
    return false;
}

static bool truncate_binary_upper(const uint8_t *s, size_t len, int n, floe_buf *out)
{
    size_t cut = (size_t)n < len ? (size_t)n : len;
    floe__buf_clear(out);
    if (cut == len)
        return floe__buf_put(out, s, len) == 0;
    for (size_t k = cut; k-- > 0;) {
        if (s[k] != 0xff) {
            if (floe__buf_put(out, s, k + 1) < 0)
                return false;
            out->ptr[k] = (char)(s[k] + 1);
            return true;
        }
    }
    return false;
}

static int bound_bytes(const floe_value *v, uint8_t **out, size_t *len)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe_value_to_single(v, &b);
    if (rc < 0) {
        floe__buf_free(&b);
        return rc;
    }
    *len = b.len;
    *out = (uint8_t *)floe__buf_detach(&b);
    if (!*out) {
        *out = floe__malloc(1);
        if (!*out)
            return floe__error_nomem();
    }
    return 0;
}

static int field_metrics(const wcol *c, floe_pq_field_metrics *m)
{
    m->field_id = c->field->id;
    if (c->mode == MM_NONE)
        return 0;
    m->has_column_size = true;
    m->column_size = c->column_size;
    m->has_counts = true;
    m->value_count = c->value_count;
    m->null_value_count = c->fs.nulls;
    if (c->sk == SK_F32 || c->sk == SK_F64) {
        m->has_nan_count = true;
        m->nan_value_count = c->fs.nans;
    }
    if (!c->fs.has || c->under_repeated)
        return 0;
    floe_value lo = stats_value(c, &c->fs, false), hi = stats_value(c, &c->fs, true);
    return floe__pq_metrics_bounds(&lo, &hi, c->mode, c->trunc, m);
}

int floe__pq_metrics_bounds(const floe_value *lo_in, const floe_value *hi_in, int mode,
                            int trunc, floe_pq_field_metrics *m)
{
    if (mode == MM_NONE || mode == MM_COUNTS)
        return 0;
    floe_value lo = *lo_in, hi = *hi_in;
    floe_type_id tid = lo.type;
    floe_buf tb = FLOE_BUF_INIT;
    int rc = 0;
    if (mode == MM_TRUNCATE && (tid == FLOE_T_STRING || tid == FLOE_T_BINARY)) {
        size_t cut = tid == FLOE_T_STRING ? utf8_prefix(lo.v.bytes.ptr, lo.v.bytes.len, trunc)
                                          : ((size_t)trunc < lo.v.bytes.len ? (size_t)trunc
                                                                            : lo.v.bytes.len);
        lo.v.bytes.len = cut;
        if ((rc = bound_bytes(&lo, &m->lower_bound, &m->lower_bound_len)) < 0)
            goto done;
        bool ok = tid == FLOE_T_STRING
                      ? truncate_string_upper(hi.v.bytes.ptr, hi.v.bytes.len, trunc, &tb)
                      : truncate_binary_upper(hi.v.bytes.ptr, hi.v.bytes.len, trunc, &tb);
        if (ok) {
            hi.v.bytes.ptr = (const uint8_t *)(tb.ptr ? tb.ptr : "");
            hi.v.bytes.len = tb.len;
            rc = bound_bytes(&hi, &m->upper_bound, &m->upper_bound_len);
        }
        goto done;
    }
    if ((rc = bound_bytes(&lo, &m->lower_bound, &m->lower_bound_len)) < 0)
        goto done;
    rc = bound_bytes(&hi, &m->upper_bound, &m->upper_bound_len);
done:
    floe__buf_free(&tb);
    return rc;
}

static int cmp_metrics(const void *a, const void *b)
{
    int32_t x = ((const floe_pq_field_metrics *)a)->field_id;
    int32_t y = ((const floe_pq_field_metrics *)b)->field_id;
    return x < y ? -1 : x > y;
}

void floe__pq_metrics_free(floe_pq_metrics *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nfields; i++) {
        floe__free(m->fields[i].lower_bound);
        floe__free(m->fields[i].upper_bound);
    }
    floe__free(m->fields);
    floe__free(m->split_offsets);
    memset(m, 0, sizeof(*m));
}

static int build_metrics(floe_pq_writer *w, floe_pq_metrics *m)
{
    memset(m, 0, sizeof(*m));
    m->record_count = w->total_rows;
    m->file_size_in_bytes = w->offset;
    /* allocated before they are *m's: nothing of *m to free when one fails */
    floe_pq_field_metrics *fields = floe__calloc(w->ncols ? w->ncols : 1, sizeof(*fields));
    int64_t *splits = floe__malloc((w->splits.len ? w->splits.len : 1) * sizeof(int64_t));
    if (!fields || !splits) {
        floe__free(fields);
        floe__free(splits);
        return floe__error_nomem();
    }
    m->fields = fields;
    m->split_offsets = splits;
    m->nsplit_offsets = w->splits.len;
    if (w->splits.len)
        memcpy(m->split_offsets, w->splits.items, w->splits.len * sizeof(int64_t));
    for (size_t i = 0; i < w->ncols; i++) {
        m->nfields++;
        int rc = field_metrics(&w->cols[i], &m->fields[i]);
        if (rc < 0) {
            floe__pq_metrics_free(m);
            return rc;
        }
    }
    qsort(m->fields, m->nfields, sizeof(*m->fields), cmp_metrics);
    return 0;
}

int floe__pq_writer_close(floe_pq_writer *w, floe_pq_metrics *metrics)
{
    if (w->closed || w->failed)
        return floe__error(FLOE_EINVALID, "parquet", "writer is closed or failed");
    int rc = flush_row_group(w);
    if (rc < 0) {
        w->failed = true;
        return rc;
    }
    floe_pq_file_meta fm = {0};
    fm.version = w->opts.data_page_version == 2 ? 2 : 1;
    fm.schema = w->els;
    fm.nschema = w->nels;
    fm.num_rows = w->total_rows;
    fm.row_groups = w->row_groups.items;
    fm.nrow_groups = w->row_groups.len;
    fm.created_by = "floe version " FLOE_VERSION;
    fm.has_column_orders = true;
    size_t nkv = (w->opts.iceberg_schema_json ? 1 : 0) + (w->opts.extra_kv ? w->opts.extra_kv->n : 0);
    floe_pq_key_value *kv = floe__arena_calloc(w->arena, nkv ? nkv : 1, sizeof(*kv));
    if (!kv)
        return floe__error_nomem();
    size_t k = 0;
    if (w->opts.iceberg_schema_json) {
        kv[k].key = "iceberg.schema";
        kv[k++].value = w->opts.iceberg_schema_json;
    }
    for (size_t i = 0; w->opts.extra_kv && i < w->opts.extra_kv->n; i++) {
        kv[k].key = w->opts.extra_kv->items[i].key;
        kv[k++].value = w->opts.extra_kv->items[i].value;
    }
    fm.kv = kv;
    fm.nkv = k;
    floe_buf *s = &w->scratch;
    floe__buf_clear(s);
    if ((rc = floe__pq_encode_file_meta(&fm, s)) < 0)
        return rc;
    uint32_t flen = (uint32_t)s->len;
    if ((rc = floe__buf_put(s, &flen, 4)) < 0 || (rc = floe__buf_put(s, "PAR1", 4)) < 0)
        return rc;
    if ((rc = sink(w, s->ptr, s->len)) < 0)
        return rc;
    w->closed = true;
    if (metrics)
        return build_metrics(w, metrics);
    return 0;
}
