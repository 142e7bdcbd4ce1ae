/* SPDX-License-Identifier: Apache-2.0 */
/*
 * manifest/plan: resolution of a writer's Avro record schema against the
 * fields floe knows (by field id, else by name), shared by the manifest and
 * manifest-list readers. Private to the manifest module.
 */
#ifndef FLOE_MANIFEST_PLAN_H
#define FLOE_MANIFEST_PLAN_H

#include "manifest/manifest.h"

#include <string.h>

/* Value classes a known field may have. */
typedef enum mf_vk {
    MF_VK_INT,  /* int (long accepted, range-checked) */
    MF_VK_LONG, /* long or int */
    MF_VK_BOOL,
    MF_VK_STRING,    /* string or bytes */
    MF_VK_BYTES,     /* bytes or fixed */
    MF_VK_LONGMAP,   /* array<record{key:int, value:long}> */
    MF_VK_BYTESMAP,  /* array<record{key:int, value:bytes}> */
    MF_VK_LONGLIST,  /* array<long> */
    MF_VK_INTLIST,   /* array<int> */
    MF_VK_RECORD,    /* a nested known record (data_file, field summary) */
    MF_VK_PARTITION, /* data_file.partition: any record of primitives */
    MF_VK_SUMMARIES, /* array<field_summary record> */
} mf_vk;

/* A field floe knows: id, current name, older name (or NULL), class. */
typedef struct mf_known {
    int32_t id;
    const char *name;
    const char *old_name;
    int target;
    mf_vk vk;
    bool required;
} mf_known;

typedef struct mf_field_plan {
    int target; /* -1: skip */
    mf_vk vk;
    int null_index;                   /* -1: not an optional union */
    const floe_avro_schema *full;     /* writer type */
    const floe_avro_schema *type;     /* writer type without the null branch */
    bool key_first;                   /* maps: key field precedes value */
    const struct mf_record_plan *sub; /* MF_VK_RECORD / MF_VK_SUMMARIES element */
} mf_field_plan;

typedef struct mf_record_plan {
    size_t nfields;
    mf_field_plan *fields;
} mf_record_plan;

/* Resolve `rec` (an Avro record) against `known`. Every required known
 * field must be present; a known field with an incompatible type is
 * FLOE_ECORRUPT ("schema/metadata mismatch"). `sub_for` maps a target with
 * MF_VK_RECORD / MF_VK_SUMMARIES to its nested known table. */
typedef struct mf_sub {
    int target;
    const mf_known *known;
    size_t nknown;
} mf_sub;

int floe__mf_plan_record(mf_record_plan *out, floe_arena *arena, const floe_avro_schema *rec,
                         const mf_known *known, size_t nknown, const mf_sub *subs, size_t nsubs,
                         const char *source, const char *what);

/* Read a (possibly optional) field's union branch: *is_null true for null. */
static inline int mf_read_null(floe_avro_cursor *c, const mf_field_plan *f, bool *is_null)
{
    *is_null = false;
    if (f->null_index < 0)
        return 0;
    int64_t b;
    FLOE_TRY(floe_avro_read_long(c, &b));
    if (FLOE_UNLIKELY(b != 0 && b != 1))
        return floe_avro_cursor_error(c, "union branch %lld out of range", (long long)b);
    *is_null = b == f->null_index;
    return 0;
}

/* Iceberg type of a primitive Avro partition field (logical types, fixed
 * decimal/uuid, adjust-to-utc); FLOE_T_INVALID when not a primitive. */
floe_type_id floe__mf_avro_to_type(const floe_avro_schema *s);

/* Decode one primitive datum of Avro type `s` as a value of `t`. Byte
 * values are borrowed from the cursor's buffer, or copied into `copy_to`
 * when non-NULL. */
int floe__mf_read_value(floe_avro_cursor *c, const floe_avro_schema *s, floe_type_id t,
                        floe_arena *copy_to, floe_value *out);

/* Metrics maps and lists into `arena` (the two maps are inline: they are
 * most of the work of decoding a manifest entry). */
/* Append `n` more slots to an arena array (copies the old ones). */
static inline void *mf_grow_items(floe_arena *a, void *old, size_t have, size_t more, size_t size)
{
    void *p = floe__arena_alloc(a, (have + more) * size);
    if (p && have)
        memcpy(p, old, have * size);
    return p;
}

/* Decode one varint at *pp; the caller guarantees 10 readable bytes.
 * False for a varint longer than 10 bytes (the caller reports it). */
static inline bool mf_varint10(const uint8_t **pp, int64_t *out)
{
    const uint8_t *p = *pp;
    uint64_t b = *p++;
    uint64_t v = b & 0x7f;
    unsigned shift = 7;
    while (b & 0x80) {
        if (FLOE_UNLIKELY(shift > 63))
            return false;
        b = *p++;
        v |= (b & 0x7f) << shift;
        shift += 7;
    }
    *pp = p;
    *out = (int64_t)((v >> 1) ^ (~(v & 1) + 1));
    return true;
}

static inline int mf_read_longmap(floe_avro_cursor *c, const mf_field_plan *f, floe_arena *a,
                                  floe_col_longs *out)
{
    bool is_null;
    memset(out, 0, sizeof *out);
    FLOE_TRY(mf_read_null(c, f, &is_null));
    if (is_null)
        return 0;
    out->set = true;
    floe_col_long *items = NULL;
    size_t n = 0;
    bool key_first = f->key_first;
    for (;;) {
        int64_t cnt;
        FLOE_TRY(floe_avro_read_block_count(c, 2, &cnt));
        if (cnt == 0)
            break;
        if (!(items = mf_grow_items(a, items, n, (size_t)cnt, sizeof *items)))
            return floe__error_nomem();
        floe_col_long *it = items + n;
        /* the read position lives in a local in this loop (no stores back
         * to the cursor between pairs); the tail of the block and errors go
         * through the checked cursor functions */
        const uint8_t *p = c->p, *end = c->end;
        for (int64_t i = 0; i < cnt; i++) {
            int64_t x, y;
            if (FLOE_LIKELY(end - p >= 20) && mf_varint10(&p, &x) && mf_varint10(&p, &y)) {
                /* fast */
            } else {
                c->p = p;
                FLOE_TRY(floe_avro_read_long(c, &x));
                FLOE_TRY(floe_avro_read_long(c, &y));
                p = c->p;
            }
            int64_t k = key_first ? x : y;
            if (FLOE_UNLIKELY(k < INT32_MIN || k > INT32_MAX)) {
                c->p = p;
                return floe_avro_cursor_error(c, "field id %lld out of range", (long long)k);
            }
            it[i].field_id = (int32_t)k;
            it[i].value = key_first ? y : x;
        }
        c->p = p;
        n += (size_t)cnt;
    }
    out->n = n;
    out->items = items;
    return 0;
}

static inline int mf_read_bytesmap(floe_avro_cursor *c, const mf_field_plan *f, floe_arena *a,
                                   bool copy, floe_col_bytes_map *out)
{
    bool is_null;
    memset(out, 0, sizeof *out);
    FLOE_TRY(mf_read_null(c, f, &is_null));
    if (is_null)
        return 0;
    out->set = true;
    const floe_avro_schema *r = f->type->items;
    const floe_avro_schema *vt = r->fields[f->key_first ? 1 : 0].type;
    bool fast_ok = f->key_first && vt->kind == FLOE_AVRO_BYTES; /* Iceberg's layout */
    floe_col_bytes *items = NULL;
    size_t n = 0;
    for (;;) {
        int64_t cnt;
        FLOE_TRY(floe_avro_read_block_count(c, 2, &cnt));
        if (cnt == 0)
            break;
        if (!(items = mf_grow_items(a, items, n, (size_t)cnt, sizeof *items)))
            return floe__error_nomem();
        for (int64_t i = 0; i < cnt; i++, n++) {
            int64_t k = 0, blen;
            const uint8_t *p, *q = c->p;
            size_t len;
            if (fast_ok && FLOE_LIKELY(c->end - q >= 20) && mf_varint10(&q, &k) &&
                mf_varint10(&q, &blen) && FLOE_LIKELY(blen >= 0 && blen <= c->end - q)) {
                p = q;
                len = (size_t)blen;
                c->p = q + len;
            } else {
                if (f->key_first)
                    FLOE_TRY(floe_avro_read_long(c, &k));
                if (vt->kind == FLOE_AVRO_FIXED) {
                    FLOE_TRY(floe_avro_read_raw(c, vt->size, &p));
                    len = vt->size;
                } else {
                    FLOE_TRY(floe_avro_read_bytes(c, &p, &len));
                }
                if (!f->key_first)
                    FLOE_TRY(floe_avro_read_long(c, &k));
            }
            if (FLOE_UNLIKELY(k < INT32_MIN || k > INT32_MAX))
                return floe_avro_cursor_error(c, "field id %lld out of range", (long long)k);
            if (copy && !(p = floe__arena_memdup(a, p, len ? len : 1)))
                return floe__error_nomem();
            items[n].field_id = (int32_t)k;
            items[n].ptr = p;
            items[n].len = len;
        }
    }
    out->n = n;
    out->items = items;
    return 0;
}

/* Skip the cnt (int, long) pairs of one block of a metrics map: 2 * cnt
 * varints, each ending at a byte without the high bit, counted 8 bytes at
 * a time while more than 8 remain. */
static inline int mf_skip_long_pairs(floe_avro_cursor *c, int64_t cnt)
{
    const uint8_t *p = c->p, *end = c->end;
    int64_t left = 2 * cnt;
    unsigned run = 0;
    while (left > 8 && end - p >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        int ends = __builtin_popcountll(~w & UINT64_C(0x8080808080808080));
        if (ends >= left)
            break;
        left -= ends;
        p += 8;
    }
    while (left) {
        if (FLOE_UNLIKELY(p == end)) {
            c->p = p;
            return floe_avro_cursor_error(c, "truncated metrics map");
        }
        if (*p++ & 0x80) {
            if (FLOE_UNLIKELY(++run >= 10)) {
                c->p = p;
                return floe_avro_cursor_error(c, "varint longer than 10 bytes");
            }
        } else {
            run = 0;
            left--;
        }
    }
    c->p = p;
    return 0;
}

/* The same for cnt (int key, bytes value) pairs. */
static inline int mf_skip_bytes_pairs(floe_avro_cursor *c, int64_t cnt)
{
    for (int64_t i = 0; i < cnt; i++) {
        int64_t k, len;
        const uint8_t *q = c->p;
        if (FLOE_LIKELY(c->end - q >= 20) && mf_varint10(&q, &k) && mf_varint10(&q, &len) &&
            FLOE_LIKELY(len >= 0 && len <= c->end - q)) {
            c->p = q + len;
            continue;
        }
        const uint8_t *b;
        size_t n;
        FLOE_TRY(floe_avro_read_long(c, &k));
        FLOE_TRY(floe_avro_read_bytes(c, &b, &n));
    }
    return 0;
}

/* Skip a (possibly optional) metrics map (MF_VK_LONGMAP / MF_VK_BYTESMAP)
 * as mf_read_longmap / mf_read_bytesmap would read it, storing nothing. */
static inline int mf_skip_map(floe_avro_cursor *c, const mf_field_plan *f)
{
    bool bytes = f->vk == MF_VK_BYTESMAP;
    if (bytes && (!f->key_first || f->type->items->fields[1].type->kind != FLOE_AVRO_BYTES))
        return floe_avro_skip(c, f->full, 2); /* not Iceberg's layout */
    bool is_null;
    FLOE_TRY(mf_read_null(c, f, &is_null));
    if (is_null)
        return 0;
    for (;;) {
        int64_t cnt;
        FLOE_TRY(floe_avro_read_block_count(c, 2, &cnt));
        if (cnt == 0)
            return 0;
        FLOE_TRY(bytes ? mf_skip_bytes_pairs(c, cnt) : mf_skip_long_pairs(c, cnt));
    }
}

int floe__mf_read_longlist(floe_avro_cursor *c, const mf_field_plan *f, floe_arena *a, size_t *n,
                           const int64_t **items);
int floe__mf_read_intlist(floe_avro_cursor *c, const mf_field_plan *f, floe_arena *a, size_t *n,
                          const int32_t **items);
int floe__mf_read_opt_bytes(floe_avro_cursor *c, const floe_avro_schema *t, floe_arena *a,
                            bool copy, floe_opt_bytes *out);

/* Header integer (decimal text) -> value; false when absent or malformed. */
bool floe__mf_meta_int64(floe_avro_file *f, const char *key, int64_t *out);

#endif
