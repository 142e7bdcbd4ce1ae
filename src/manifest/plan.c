/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Schema resolution for manifest and manifest-list readers: each field of
 * the writer's record is matched to a known Iceberg field by `field-id`
 * (Appendix C ids; names changed over time, e.g. added_data_files_count ->
 * added_files_count, ids did not), or by name when a writer left field ids
 * out. Unknown fields are skipped; type classes are checked once here so the
 * per-entry decode loop only switches on targets.
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

static bool is_intlike(const floe_avro_schema *s)
{
    return s->kind == FLOE_AVRO_INT || s->kind == FLOE_AVRO_LONG;
}

static const floe_avro_field *rec_field(const floe_avro_schema *rec, const char *name)
{
    for (size_t i = 0; i < rec->nfields; i++)
        if (strcmp(rec->fields[i].name, name) == 0)
            return &rec->fields[i];
    return NULL;
}

/* array<record{key, value}> with the given value check; sets key_first. */
static bool check_kv(const floe_avro_schema *t, bool bytes_value, bool *key_first)
{
    if (t->kind != FLOE_AVRO_ARRAY || t->items->kind != FLOE_AVRO_RECORD || t->items->nfields != 2)
        return false;
    const floe_avro_schema *r = t->items;
    const floe_avro_field *k = rec_field(r, "key"), *v = rec_field(r, "value");
    if (!k || !v || !is_intlike(k->type))
        return false;
    if (bytes_value ? !(v->type->kind == FLOE_AVRO_BYTES || v->type->kind == FLOE_AVRO_FIXED)
                    : !is_intlike(v->type))
        return false;
    *key_first = k == &r->fields[0];
    return true;
}

static bool check_kind(mf_field_plan *p)
{
    const floe_avro_schema *t = p->type;
    switch (p->vk) {
    case MF_VK_INT:
    case MF_VK_LONG: return is_intlike(t);
    case MF_VK_BOOL: return t->kind == FLOE_AVRO_BOOLEAN;
    case MF_VK_STRING: return t->kind == FLOE_AVRO_STRING || t->kind == FLOE_AVRO_BYTES;
    case MF_VK_BYTES: return t->kind == FLOE_AVRO_BYTES || t->kind == FLOE_AVRO_FIXED;
    case MF_VK_LONGMAP: return check_kv(t, false, &p->key_first);
    case MF_VK_BYTESMAP: return check_kv(t, true, &p->key_first);
    case MF_VK_LONGLIST:
    case MF_VK_INTLIST: return t->kind == FLOE_AVRO_ARRAY && is_intlike(t->items);
    case MF_VK_RECORD:
    case MF_VK_PARTITION: return t->kind == FLOE_AVRO_RECORD;
    case MF_VK_SUMMARIES: return t->kind == FLOE_AVRO_ARRAY && t->items->kind == FLOE_AVRO_RECORD;
    }
    return false;
}

int floe__mf_plan_record(mf_record_plan *out, floe_arena *arena, const floe_avro_schema *rec,
                         const mf_known *known, size_t nknown, const mf_sub *subs, size_t nsubs,
                         const char *source, const char *what)
{
    if (rec->kind != FLOE_AVRO_RECORD)
        return floe__error(FLOE_ECORRUPT, "manifest",
                           "schema/metadata mismatch in %s: %s is a %s, not a record", source, what,
                           floe_avro_kind_name(rec->kind));
    out->nfields = rec->nfields;
    out->fields =
        rec->nfields ? floe__arena_calloc(arena, rec->nfields, sizeof *out->fields) : NULL;
    if (rec->nfields && !out->fields)
        return floe__error_nomem();
    bool seen[64] = {false};
    for (size_t i = 0; i < rec->nfields; i++) {
        const floe_avro_field *f = &rec->fields[i];
        mf_field_plan *p = &out->fields[i];
        p->target = -1;
        p->full = f->type;
        p->type = floe_avro_unwrap_optional(f->type, &p->null_index);
        const mf_known *k = NULL;
        for (size_t j = 0; j < nknown && !k; j++) {
            if (f->field_id != FLOE_AVRO_NO_ID
                    ? known[j].id == f->field_id
                    : (strcmp(known[j].name, f->name) == 0 ||
                       (known[j].old_name && strcmp(known[j].old_name, f->name) == 0)))
                k = &known[j];
        }
        if (!k)
            continue;
        size_t ki = (size_t)(k - known);
        if (ki < 64 && seen[ki])
            return floe__error(FLOE_ECORRUPT, "manifest",
                               "schema/metadata mismatch in %s: field id %d appears twice in %s",
                               source, (int)k->id, what);
        if (ki < 64)
            seen[ki] = true;
        p->vk = k->vk;
        if (p->type->kind == FLOE_AVRO_UNION || !check_kind(p))
            return floe__error(FLOE_ECORRUPT, "manifest",
                               "schema/metadata mismatch in %s: field %s (id %d) of %s has "
                               "an unexpected Avro type %s",
                               source, k->name, (int)k->id, what,
                               floe_avro_kind_name(p->type->kind));
        p->target = k->target;
        if (k->vk == MF_VK_RECORD || k->vk == MF_VK_SUMMARIES) {
            const mf_sub *s = NULL;
            for (size_t j = 0; j < nsubs; j++)
                if (subs[j].target == k->target)
                    s = &subs[j];
            if (s) {
                mf_record_plan *sub = floe__arena_calloc(arena, 1, sizeof *sub);
                if (!sub)
                    return floe__error_nomem();
                const floe_avro_schema *r = k->vk == MF_VK_RECORD ? p->type : p->type->items;
                FLOE_TRY(floe__mf_plan_record(sub, arena, r, s->known, s->nknown, NULL, 0, source,
                                              k->name));
                p->sub = sub;
            }
        }
    }
    for (size_t j = 0; j < nknown && j < 64; j++)
        if (known[j].required && !seen[j])
            return floe__error(FLOE_ECORRUPT, "manifest",
                               "schema/metadata mismatch in %s: %s lacks required field %s (id %d)",
                               source, what, known[j].name, (int)known[j].id);
    return 0;
}

floe_type_id floe__mf_avro_to_type(const floe_avro_schema *s)
{
    const char *lt = s->logical_type ? s->logical_type : "";
    switch (s->kind) {
    case FLOE_AVRO_BOOLEAN: return FLOE_T_BOOLEAN;
    case FLOE_AVRO_INT: return strcmp(lt, "date") == 0 ? FLOE_T_DATE : FLOE_T_INT;
    case FLOE_AVRO_LONG:
        if (strcmp(lt, "time-micros") == 0)
            return FLOE_T_TIME;
        if (strcmp(lt, "timestamp-micros") == 0)
            return s->has_adjust_to_utc && !s->adjust_to_utc ? FLOE_T_TIMESTAMP
                                                             : FLOE_T_TIMESTAMPTZ;
        if (strcmp(lt, "local-timestamp-micros") == 0)
            return FLOE_T_TIMESTAMP;
        if (strcmp(lt, "timestamp-nanos") == 0)
            return s->has_adjust_to_utc && !s->adjust_to_utc ? FLOE_T_TIMESTAMP_NS
                                                             : FLOE_T_TIMESTAMPTZ_NS;
        if (strcmp(lt, "local-timestamp-nanos") == 0)
            return FLOE_T_TIMESTAMP_NS;
        return FLOE_T_LONG;
    case FLOE_AVRO_NULL: return FLOE_T_UNKNOWN; /* v3 unknown partition values */
    case FLOE_AVRO_FLOAT: return FLOE_T_FLOAT;
    case FLOE_AVRO_DOUBLE: return FLOE_T_DOUBLE;
    case FLOE_AVRO_STRING: return FLOE_T_STRING;
    case FLOE_AVRO_BYTES: return strcmp(lt, "decimal") == 0 ? FLOE_T_DECIMAL : FLOE_T_BINARY;
    case FLOE_AVRO_FIXED:
        if (strcmp(lt, "decimal") == 0)
            return s->size <= 16 ? FLOE_T_DECIMAL : FLOE_T_INVALID;
        if (strcmp(lt, "uuid") == 0)
            return s->size == 16 ? FLOE_T_UUID : FLOE_T_INVALID;
        return FLOE_T_FIXED;
    default: return FLOE_T_INVALID;
    }
}

static const uint8_t *keep(floe_arena *a, const uint8_t *p, size_t n)
{
    if (!a)
        return p;
    return floe__arena_memdup(a, p, n ? n : 1);
}

int floe__mf_read_value(floe_avro_cursor *c, const floe_avro_schema *s, floe_type_id t,
                        floe_arena *copy_to, floe_value *out)
{
    memset(out, 0, sizeof *out);
    out->type = t;
    int64_t v;
    const uint8_t *p;
    size_t n;
    switch (s->kind) {
    case FLOE_AVRO_NULL: out->is_null = true; return 0;
    case FLOE_AVRO_BOOLEAN: return floe_avro_read_bool(c, &out->v.b);
    case FLOE_AVRO_INT: return floe_avro_read_int(c, &out->v.i32);
    case FLOE_AVRO_LONG:
        FLOE_TRY(floe_avro_read_long(c, &v));
        out->v.i64 = v;
        return 0;
    case FLOE_AVRO_FLOAT: return floe_avro_read_float(c, &out->v.f32);
    case FLOE_AVRO_DOUBLE: return floe_avro_read_double(c, &out->v.f64);
    case FLOE_AVRO_STRING:
    case FLOE_AVRO_BYTES:
    case FLOE_AVRO_FIXED:
        if (s->kind == FLOE_AVRO_FIXED) {
            FLOE_TRY(floe_avro_read_raw(c, s->size, &p));
            n = s->size;
        } else {
            FLOE_TRY(floe_avro_read_bytes(c, &p, &n));
        }
        if (t == FLOE_T_DECIMAL) {
            if (n > 16)
                return floe_avro_cursor_error(c, "decimal of %zu bytes", n);
            floe_u128 u = 0;
            for (size_t i = 0; i < n; i++)
                u = u << 8 | p[i];
            if (n > 0 && n < 16 && (p[0] & 0x80))
                u |= ~(floe_u128)0 << (8 * n); /* sign-extend */
            out->v.dec = (floe_i128)u;
            out->scale = s->scale;
            return 0;
        }
        if (copy_to && !(p = keep(copy_to, p, n)))
            return floe__error_nomem();
        out->v.bytes.ptr = p;
        out->v.bytes.len = n;
        return 0;
    default:
        return floe_avro_cursor_error(c, "unsupported partition value type %s",
                                      floe_avro_kind_name(s->kind));
    }
}

int floe__mf_read_longlist(floe_avro_cursor *c, const mf_field_plan *f, floe_arena *a, size_t *nout,
                           const int64_t **out)
{
    int64_t *items = NULL;
    size_t n = 0;
    for (;;) {
        int64_t cnt;
        FLOE_TRY(floe_avro_read_block_count(c, 1, &cnt));
        if (cnt == 0)
            break;
        if (!(items = mf_grow_items(a, items, n, (size_t)cnt, sizeof *items)))
            return floe__error_nomem();
        for (int64_t i = 0; i < cnt; i++)
            FLOE_TRY(floe_avro_read_long(c, &items[n++]));
    }
    (void)f;
    *nout = n;
    *out = items;
    return 0;
}

int floe__mf_read_intlist(floe_avro_cursor *c, const mf_field_plan *f, floe_arena *a, size_t *nout,
                          const int32_t **out)
{
    int32_t *items = NULL;
    size_t n = 0;
    for (;;) {
        int64_t cnt;
        FLOE_TRY(floe_avro_read_block_count(c, 1, &cnt));
        if (cnt == 0)
            break;
        if (!(items = mf_grow_items(a, items, n, (size_t)cnt, sizeof *items)))
            return floe__error_nomem();
        for (int64_t i = 0; i < cnt; i++)
            FLOE_TRY(floe_avro_read_int(c, &items[n++]));
    }
    (void)f;
    *nout = n;
    *out = items;
    return 0;
}

int floe__mf_read_opt_bytes(floe_avro_cursor *c, const floe_avro_schema *t, floe_arena *a,
                            bool copy, floe_opt_bytes *out)
{
    const uint8_t *p;
    size_t n;
    if (t->kind == FLOE_AVRO_FIXED) {
        FLOE_TRY(floe_avro_read_raw(c, t->size, &p));
        n = t->size;
    } else {
        FLOE_TRY(floe_avro_read_bytes(c, &p, &n));
    }
    if (copy && !(p = keep(a, p, n)))
        return floe__error_nomem();
    out->ptr = p;
    out->len = n;
    out->set = true;
    return 0;
}

bool floe__mf_meta_int64(floe_avro_file *f, const char *key, int64_t *out)
{
    size_t len;
    const uint8_t *v = floe_avro_file_meta(f, key, &len);
    if (!v || len == 0 || len > 24)
        return false;
    char buf[32];
    memcpy(buf, v, len);
    buf[len] = 0;
    char *end;
    long long x = strtoll(buf, &end, 10);
    if (*end)
        return false;
    *out = x;
    return true;
}
