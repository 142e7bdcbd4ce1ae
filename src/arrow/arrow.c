/* SPDX-License-Identifier: Apache-2.0 */
/*
 * arrow: ArrowSchema construction from Iceberg types, ArrowArray builders and
 * release callbacks (Arrow "C data interface": ownership passes to the
 * consumer, which calls release exactly once; release frees the children).
 */
#include "arrow/arrow.h"
#include "spec/spec.h"
#include "spec/value.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- schema */

const char *floe__arrow_format(const floe_type *t, char buf[32])
{
    switch (t->id) {
    case FLOE_T_BOOLEAN: return "b";
    case FLOE_T_INT: return "i";
    case FLOE_T_LONG: return "l";
    case FLOE_T_FLOAT: return "f";
    case FLOE_T_DOUBLE: return "g";
    case FLOE_T_DECIMAL: snprintf(buf, 32, "d:%d,%d", t->precision, t->scale); return buf;
    case FLOE_T_DATE: return "tdD";
    case FLOE_T_TIME: return "ttu";
    case FLOE_T_TIMESTAMP: return "tsu:";
    case FLOE_T_TIMESTAMPTZ: return "tsu:UTC";
    case FLOE_T_TIMESTAMP_NS: return "tsn:";
    case FLOE_T_TIMESTAMPTZ_NS: return "tsn:UTC";
    case FLOE_T_STRING: return "u";
    case FLOE_T_UUID: return "w:16";
    case FLOE_T_FIXED: snprintf(buf, 32, "w:%d", t->length); return buf;
    case FLOE_T_BINARY: return "z";
    case FLOE_T_UNKNOWN: return "n";
    case FLOE_T_STRUCT: return "+s";
    case FLOE_T_LIST: return "+l";
    case FLOE_T_MAP: return "+m";
    default: return NULL;
    }
}

typedef struct schema_priv {
    char *format, *name, *metadata;
    struct ArrowSchema **child_ptrs;
    struct ArrowSchema *child_mem;
} schema_priv;

static void schema_release(struct ArrowSchema *s)
{
    if (!s || !s->release)
        return;
    schema_priv *p = s->private_data;
    for (int64_t i = 0; i < s->n_children; i++)
        if (s->children[i]->release)
            s->children[i]->release(s->children[i]);
    if (p) {
        floe__free(p->format);
        floe__free(p->name);
        floe__free(p->metadata);
        floe__free(p->child_ptrs);
        floe__free(p->child_mem);
        floe__free(p);
    }
    s->release = NULL;
}

/* Metadata blob: int32 count, then (int32 len, bytes) for key and value. */
static char *field_id_metadata(int32_t id)
{
    char val[16];
    int vl = snprintf(val, sizeof(val), "%d", id);
    const char *key = "PARQUET:field_id";
    int32_t kl = (int32_t)strlen(key);
    size_t total = 4 + 4 + (size_t)kl + 4 + (size_t)vl;
    char *m = floe__malloc(total);
    if (!m)
        return NULL;
    int32_t one = 1, vl32 = vl;
    char *p = m;
    memcpy(p, &one, 4), p += 4;
    memcpy(p, &kl, 4), p += 4;
    memcpy(p, key, (size_t)kl), p += kl;
    memcpy(p, &vl32, 4), p += 4;
    memcpy(p, val, (size_t)vl);
    return m;
}

static int schema_init(struct ArrowSchema *out, const char *name, const floe_type *t, int32_t id,
                       bool nullable, int64_t nchildren)
{
    memset(out, 0, sizeof(*out));
    schema_priv *p = floe__calloc(1, sizeof(*p));
    if (!p)
        return floe__error_nomem();
    out->private_data = p;
    out->release = schema_release;
    char fbuf[32];
    const char *fmt = floe__arrow_format(t, fbuf);
    if (!fmt)
        return floe__error(FLOE_EUNSUPPORTED, "arrow", "no Arrow type for Iceberg type %d", t->id);
    p->format = floe__strdup(fmt);
    p->name = floe__strdup(name ? name : "");
    if (!p->format || !p->name)
        return floe__error_nomem();
    if (id > 0 && !(p->metadata = field_id_metadata(id)))
        return floe__error_nomem();
    out->format = p->format;
    out->name = p->name;
    out->metadata = p->metadata;
    out->flags = nullable ? ARROW_FLAG_NULLABLE : 0;
    if (nchildren) {
        p->child_mem = floe__calloc((size_t)nchildren, sizeof(struct ArrowSchema));
        p->child_ptrs = floe__calloc((size_t)nchildren, sizeof(struct ArrowSchema *));
        if (!p->child_mem || !p->child_ptrs)
            return floe__error_nomem();
        for (int64_t i = 0; i < nchildren; i++)
            p->child_ptrs[i] = &p->child_mem[i];
        out->children = p->child_ptrs;
        out->n_children = nchildren;
    }
    return 0;
}

static int schema_type(struct ArrowSchema *out, const char *name, const floe_type *t, int32_t id,
                       bool nullable);

static int schema_children(struct ArrowSchema *out, const floe_type *t)
{
    if (t->id == FLOE_T_STRUCT) {
        for (size_t i = 0; i < t->nfields; i++) {
            const floe_field *f = &t->fields[i];
            FLOE_TRY(schema_type(out->children[i], f->name, f->type, f->id, !f->required));
        }
    } else if (t->id == FLOE_T_LIST) {
        const floe_field *e = t->element;
        FLOE_TRY(schema_type(out->children[0], "element", e->type, e->id, !e->required));
    } else if (t->id == FLOE_T_MAP) {
        static const floe_type entries_type = {.id = FLOE_T_STRUCT};
        struct ArrowSchema *ent = out->children[0];
        FLOE_TRY(schema_init(ent, "entries", &entries_type, 0, false, 2));
        FLOE_TRY(schema_type(ent->children[0], "key", t->key->type, t->key->id, false));
        FLOE_TRY(schema_type(ent->children[1], "value", t->value->type, t->value->id,
                             !t->value->required));
    }
    return 0;
}

static int schema_type(struct ArrowSchema *out, const char *name, const floe_type *t, int32_t id,
                       bool nullable)
{
    int64_t n = t->id == FLOE_T_STRUCT ? (int64_t)t->nfields
                : (t->id == FLOE_T_LIST || t->id == FLOE_T_MAP) ? 1
                                                               : 0;
    int rc = schema_init(out, name, t, id, nullable, n);
    if (rc == 0)
        rc = schema_children(out, t);
    return rc;
}

int floe__arrow_schema_from_struct(struct ArrowSchema *out, const floe_type *struct_type)
{
    int rc = schema_type(out, "", struct_type, 0, false);
    if (rc < 0 && out->release)
        out->release(out);
    return rc;
}

int floe__arrow_schema_from_field(struct ArrowSchema *out, const floe_field *f)
{
    int rc = schema_type(out, f->name, f->type, f->id, !f->required);
    if (rc < 0 && out->release)
        out->release(out);
    return rc;
}

/* ---------------------------------------------------------------- arrays */

typedef struct array_priv {
    const void **buffers;
    struct ArrowArray **child_ptrs;
    struct ArrowArray *child_mem;
} array_priv;

static void array_release(struct ArrowArray *a)
{
    if (!a || !a->release)
        return;
    array_priv *p = a->private_data;
    for (int64_t i = 0; i < a->n_children; i++)
        if (a->children[i]->release)
            a->children[i]->release(a->children[i]);
    if (p) {
        for (int64_t i = 0; i < a->n_buffers; i++)
            floe__free((void *)p->buffers[i]);
        floe__free(p->buffers);
        floe__free(p->child_ptrs);
        floe__free(p->child_mem);
        floe__free(p);
    }
    a->release = NULL;
}

int floe__arrow_array_alloc(struct ArrowArray *out, int64_t n_buffers, int64_t n_children)
{
    memset(out, 0, sizeof(*out));
    array_priv *p = floe__calloc(1, sizeof(*p));
    if (!p)
        return floe__error_nomem();
    p->buffers = floe__calloc((size_t)(n_buffers ? n_buffers : 1), sizeof(void *));
    if (n_children) {
        p->child_mem = floe__calloc((size_t)n_children, sizeof(struct ArrowArray));
        p->child_ptrs = floe__calloc((size_t)n_children, sizeof(struct ArrowArray *));
    }
    if (!p->buffers || (n_children && (!p->child_mem || !p->child_ptrs))) {
        floe__free(p->buffers);
        floe__free(p->child_mem);
        floe__free(p->child_ptrs);
        floe__free(p);
        return floe__error_nomem();
    }
    for (int64_t i = 0; i < n_children; i++)
        p->child_ptrs[i] = &p->child_mem[i];
    out->private_data = p;
    out->release = array_release;
    out->n_buffers = n_buffers;
    out->n_children = n_children;
    out->buffers = p->buffers;
    out->children = n_children ? p->child_ptrs : NULL;
    return 0;
}

bool floe__arrow_is_valid(const struct ArrowArray *a, int64_t i)
{
    const uint8_t *bits = a->n_buffers > 0 ? a->buffers[0] : NULL;
    if (!bits || a->null_count == 0)
        return true;
    return floe__arrow_bit_get(bits, i + a->offset);
}

int floe__arrow_errno(int floe_code)
{
    switch (floe_code) {
    case FLOE_ENOMEM: return ENOMEM;
    case FLOE_EINVALID: return EINVAL;
    case FLOE_EUNSUPPORTED: return ENOSYS;
    case FLOE_ENOTFOUND: return ENOENT;
    default: return EIO;
    }
}

/* ---------------------------------------------------------------- builders */

int floe__arrow_kind_of(const floe_type *t, floe_arrow_kind *kind, int *width)
{
    *width = 0;
    switch (t->id) {
    case FLOE_T_BOOLEAN: *kind = FLOE_AK_BOOL; return 0;
    case FLOE_T_INT:
    case FLOE_T_FLOAT:
    case FLOE_T_DATE: *kind = FLOE_AK_FIXED; *width = 4; return 0;
    case FLOE_T_LONG:
    case FLOE_T_DOUBLE:
    case FLOE_T_TIME:
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS: *kind = FLOE_AK_FIXED; *width = 8; return 0;
    case FLOE_T_DECIMAL: *kind = FLOE_AK_FIXED; *width = 16; return 0;
    case FLOE_T_UUID: *kind = FLOE_AK_FIXED; *width = 16; return 0;
    case FLOE_T_FIXED:
        if (t->length <= 0)
            return floe__error(FLOE_EINVALID, "arrow", "fixed length %d", t->length);
        *kind = FLOE_AK_FIXED;
        *width = t->length;
        return 0;
    case FLOE_T_STRING:
    case FLOE_T_BINARY: *kind = FLOE_AK_BINARY; return 0;
    case FLOE_T_STRUCT: *kind = FLOE_AK_STRUCT; return 0;
    case FLOE_T_LIST: *kind = FLOE_AK_LIST; return 0;
    case FLOE_T_MAP: *kind = FLOE_AK_MAP; return 0;
    case FLOE_T_UNKNOWN: *kind = FLOE_AK_NULL; return 0;
    default:
        return floe__error(FLOE_EUNSUPPORTED, "arrow", "no Arrow builder for Iceberg type %d",
                           t->id);
    }
}

static int offsets_init(floe_arrow_builder *b)
{
    int32_t zero = 0;
    floe__buf_clear(&b->offsets);
    return floe__buf_put(&b->offsets, &zero, 4);
}

int floe__arrow_builder_new(floe_arrow_builder **out, const floe_type *t)
{
    *out = NULL;
    floe_arrow_builder *b = floe__calloc(1, sizeof(*b));
    if (!b)
        return floe__error_nomem();
    b->type = t;
    int rc = floe__arrow_kind_of(t, &b->kind, &b->width);
    if (rc < 0)
        goto fail;
    if (b->kind == FLOE_AK_BINARY || b->kind == FLOE_AK_LIST || b->kind == FLOE_AK_MAP)
        if ((rc = offsets_init(b)) < 0)
            goto fail;
    size_t n = b->kind == FLOE_AK_STRUCT ? t->nfields
               : b->kind == FLOE_AK_LIST ? 1
               : b->kind == FLOE_AK_MAP  ? 2
                                         : 0;
    if (n) {
        b->children = floe__calloc(n, sizeof(floe_arrow_builder *));
        if (!b->children) {
            rc = floe__error_nomem();
            goto fail;
        }
        b->nchildren = n;
        for (size_t i = 0; i < n; i++) {
            const floe_type *ct = b->kind == FLOE_AK_STRUCT ? t->fields[i].type
                                  : b->kind == FLOE_AK_LIST ? t->element->type
                                  : i == 0                  ? t->key->type
                                                            : t->value->type;
            if ((rc = floe__arrow_builder_new(&b->children[i], ct)) < 0)
                goto fail;
        }
    }
    *out = b;
    return 0;
fail:
    floe__arrow_builder_free(b);
    return rc;
}

void floe__arrow_builder_free(floe_arrow_builder *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->nchildren; i++)
        floe__arrow_builder_free(b->children[i]);
    floe__free(b->children);
    floe__buf_free(&b->validity);
    floe__buf_free(&b->values);
    floe__buf_free(&b->offsets);
    floe__buf_free(&b->data);
    floe__free(b);
}

void floe__arrow_builder_reset(floe_arrow_builder *b)
{
    b->length = 0;
    b->null_count = 0;
    floe__buf_clear(&b->validity);
    floe__buf_clear(&b->values);
    floe__buf_clear(&b->data);
    if (b->kind == FLOE_AK_BINARY || b->kind == FLOE_AK_LIST || b->kind == FLOE_AK_MAP) {
        int32_t zero = 0;
        floe__buf_clear(&b->offsets);
        /* capacity is kept, so this cannot fail once the buffer exists */
        (void)floe__buf_put(&b->offsets, &zero, 4);
    }
    for (size_t i = 0; i < b->nchildren; i++)
        floe__arrow_builder_reset(b->children[i]);
}

int floe__arrow_validity_reserve(floe_arrow_builder *b, int64_t n)
{
    size_t need = (size_t)((b->length + n + 7) / 8);
    if (need > b->validity.len) {
        size_t extra = need - b->validity.len;
        FLOE_TRY(floe__buf_reserve(&b->validity, extra));
        memset(b->validity.ptr + b->validity.len, 0, extra);
        b->validity.len = need;
    }
    return 0;
}

/* Offsets always start with one 0 entry (lost after a finish). */
static int ensure_offsets(floe_arrow_builder *b)
{
    if (b->offsets.len >= 4)
        return 0;
    return offsets_init(b);
}

static int push_valid(floe_arrow_builder *b, bool valid)
{
    FLOE_TRY(floe__arrow_validity_reserve(b, 1));
    floe__arrow_bit_set((uint8_t *)b->validity.ptr, b->length, valid);
    if (!valid)
        b->null_count++;
    return 0;
}

static int push_empty_value(floe_arrow_builder *b)
{
    switch (b->kind) {
    case FLOE_AK_BOOL: {
        size_t need = (size_t)((b->length + 1 + 7) / 8);
        if (need > b->values.len)
            FLOE_TRY(floe__buf_putc(&b->values, 0));
        return 0;
    }
    case FLOE_AK_FIXED: {
        FLOE_TRY(floe__buf_reserve(&b->values, (size_t)b->width));
        memset(b->values.ptr + b->values.len, 0, (size_t)b->width);
        b->values.len += (size_t)b->width;
        return 0;
    }
    case FLOE_AK_BINARY: {
        FLOE_TRY(ensure_offsets(b));
        int32_t end = (int32_t)b->data.len;
        return floe__buf_put(&b->offsets, &end, 4);
    }
    default:
        return 0;
    }
}

int floe__arrow_builder_append_null(floe_arrow_builder *b)
{
    if (b->kind == FLOE_AK_STRUCT) {
        for (size_t i = 0; i < b->nchildren; i++)
            FLOE_TRY(floe__arrow_builder_append_null(b->children[i]));
        return floe__arrow_builder_struct_append(b, false);
    }
    if (b->kind == FLOE_AK_LIST || b->kind == FLOE_AK_MAP)
        return floe__arrow_builder_list_append(b, false, 0);
    if (b->kind == FLOE_AK_NULL) {
        b->null_count++;
        b->length++;
        return 0;
    }
    FLOE_TRY(push_valid(b, false));
    FLOE_TRY(push_empty_value(b));
    b->length++;
    return 0;
}

/* A value of any type: primitives as floe__arrow_builder_append, nested
 * ones (defaults) member by member; struct members the value does not name
 * take their initial-default, or their write-default when `write`. */
static int append_any(floe_arrow_builder *b, const floe_type *t, const floe_value *v, bool write,
                      int depth)
{
    if (!floe_type_is_nested(t))
        return floe__arrow_builder_append(b, v);
    if (!v || v->is_null || v->type != t->id || depth > 32)
        return floe__arrow_builder_append_null(b);
    const floe_nested_value *d = v->v.nested;
    if (t->id == FLOE_T_STRUCT) {
        for (size_t k = 0; k < t->nfields; k++) {
            const floe_field *m = &t->fields[k];
            /* members it does not name */
            const floe_value *mv = write ? m->write_default : m->initial_default;
            for (size_t i = 0; i < d->n; i++)
                if (d->ids[i] == m->id)
                    mv = &d->items[i];
            FLOE_TRY(append_any(b->children[k], m->type, mv, write, depth + 1));
        }
        return floe__arrow_builder_struct_append(b, true);
    }
    for (size_t i = 0; i < d->n; i++) {
        if (t->id == FLOE_T_LIST) {
            FLOE_TRY(
                append_any(b->children[0], t->element->type, &d->items[i], write, depth + 1));
        } else {
            FLOE_TRY(append_any(b->children[0], t->key->type, &d->items[2 * i], write, depth + 1));
            FLOE_TRY(append_any(b->children[1], t->value->type, &d->items[2 * i + 1], write,
                                depth + 1));
        }
    }
    return floe__arrow_builder_list_append(b, true, (int64_t)d->n);
}

int floe__arrow_builder_append_default(floe_arrow_builder *b, const floe_field *f)
{
    return append_any(b, f->type, f->initial_default, false, 0);
}

int floe__arrow_builder_append_write_default(floe_arrow_builder *b, const floe_field *f)
{
    return append_any(b, f->type, f->write_default, true, 0);
}

int floe__arrow_builder_append(floe_arrow_builder *b, const floe_value *v)
{
    if (!v || v->is_null)
        return floe__arrow_builder_append_null(b);
    if (b->kind == FLOE_AK_NULL)
        return floe__error(FLOE_EINVALID, "arrow", "a column of type unknown holds only nulls");
    FLOE_TRY(push_valid(b, true));
    switch (b->kind) {
    case FLOE_AK_BOOL: {
        FLOE_TRY(push_empty_value(b));
        floe__arrow_bit_set((uint8_t *)b->values.ptr, b->length, v->v.b);
        break;
    }
    case FLOE_AK_FIXED: {
        uint8_t tmp[16];
        const void *src = tmp;
        size_t w = (size_t)b->width;
        switch (b->type->id) {
        case FLOE_T_INT:
        case FLOE_T_DATE: memcpy(tmp, &v->v.i32, 4); break;
        case FLOE_T_FLOAT: memcpy(tmp, &v->v.f32, 4); break;
        case FLOE_T_DOUBLE:
            if (v->type == FLOE_T_FLOAT) {
                double d = v->v.f32;
                memcpy(tmp, &d, 8);
            } else {
                memcpy(tmp, &v->v.f64, 8);
            }
            break;
        case FLOE_T_LONG:
            if (v->type == FLOE_T_INT) {
                int64_t l = v->v.i32;
                memcpy(tmp, &l, 8);
            } else {
                memcpy(tmp, &v->v.i64, 8);
            }
            break;
        case FLOE_T_DECIMAL: memcpy(tmp, &v->v.dec, 16); break;
        case FLOE_T_UUID:
        case FLOE_T_FIXED:
            if (v->v.bytes.len != w)
                return floe__error(FLOE_EINVALID, "arrow", "fixed value of %zu bytes, expected %zu",
                                   v->v.bytes.len, w);
            src = v->v.bytes.ptr;
            break;
        default: memcpy(tmp, &v->v.i64, 8); break;
        }
        FLOE_TRY(floe__buf_put(&b->values, src, w));
        break;
    }
    case FLOE_AK_BINARY: {
        FLOE_TRY(ensure_offsets(b));
        if (b->data.len + v->v.bytes.len > INT32_MAX)
            return floe__error(FLOE_EUNSUPPORTED, "arrow", "binary column over 2 GiB");
        FLOE_TRY(floe__buf_put(&b->data, v->v.bytes.ptr, v->v.bytes.len));
        int32_t end = (int32_t)b->data.len;
        FLOE_TRY(floe__buf_put(&b->offsets, &end, 4));
        break;
    }
    default:
        return floe__error(FLOE_EINVALID, "arrow", "append of a value to a nested builder");
    }
    b->length++;
    return 0;
}

int floe__arrow_builder_struct_append(floe_arrow_builder *b, bool valid)
{
    FLOE_TRY(push_valid(b, valid));
    b->length++;
    return 0;
}

int floe__arrow_builder_list_append(floe_arrow_builder *b, bool valid, int64_t n)
{
    FLOE_TRY(ensure_offsets(b));
    int32_t last;
    memcpy(&last, b->offsets.ptr + b->offsets.len - 4, 4);
    if (!valid)
        n = 0;
    if (n < 0 || last + n > INT32_MAX)
        return floe__error(FLOE_EINVALID, "arrow", "bad list length");
    FLOE_TRY(push_valid(b, valid));
    int32_t end = last + (int32_t)n;
    FLOE_TRY(floe__buf_put(&b->offsets, &end, 4));
    b->length++;
    return 0;
}

/* Take a buffer's memory (at least 8 bytes so consumers never see NULL). */
static void *take(floe_buf *buf)
{
    if (floe__buf_reserve(buf, 8) < 0)
        return NULL;
    char *p = buf->ptr;
    buf->ptr = NULL;
    buf->len = buf->cap = 0;
    return p;
}

int floe__arrow_builder_finish(floe_arrow_builder *b, struct ArrowArray *out)
{
    /* read once: the calls below cannot change it, which the analyzer cannot see */
    const floe_arrow_kind kind = b->kind;
    int64_t nbuf = kind == FLOE_AK_BINARY   ? 3
                   : kind == FLOE_AK_STRUCT ? 1
                   : kind == FLOE_AK_NULL   ? 0
                                            : 2;
    int64_t nch = kind == FLOE_AK_STRUCT                          ? (int64_t)b->nchildren
                  : (kind == FLOE_AK_LIST || kind == FLOE_AK_MAP) ? 1
                                                                  : 0;
    FLOE_TRY(floe__arrow_array_alloc(out, nbuf, nch));
    array_priv *p = out->private_data;
    int rc = 0;
    out->length = b->length;
    out->null_count = b->null_count;
    if (b->null_count && kind != FLOE_AK_NULL) {
        if (!(p->buffers[0] = take(&b->validity)))
            goto nomem;
    }
    if (kind == FLOE_AK_BOOL || kind == FLOE_AK_FIXED) {
        if (!(p->buffers[1] = take(&b->values)))
            goto nomem;
    } else if (kind == FLOE_AK_BINARY) {
        if (!(p->buffers[1] = take(&b->offsets)) || !(p->buffers[2] = take(&b->data)))
            goto nomem;
    } else if (kind == FLOE_AK_LIST || kind == FLOE_AK_MAP) {
        if (!(p->buffers[1] = take(&b->offsets)))
            goto nomem;
    }
    if (kind == FLOE_AK_STRUCT) {
        for (int64_t i = 0; i < nch; i++)
            if ((rc = floe__arrow_builder_finish(b->children[i], out->children[i])) < 0)
                goto fail;
    } else if (kind == FLOE_AK_LIST) {
        if ((rc = floe__arrow_builder_finish(b->children[0], out->children[0])) < 0)
            goto fail;
    } else if (kind == FLOE_AK_MAP) {
        /* map child: a non-null struct "entries" of key and value */
        struct ArrowArray *ent = out->children[0];
        if ((rc = floe__arrow_array_alloc(ent, 1, 2)) < 0)
            goto fail;
        ent->length = b->children[0]->length;
        for (int i = 0; i < 2; i++)
            if ((rc = floe__arrow_builder_finish(b->children[i], ent->children[i])) < 0)
                goto fail;
    }
    floe__arrow_builder_reset(b);
    return 0;
nomem:
    rc = floe__error_nomem();
fail:
    out->release(out);
    floe__arrow_builder_reset(b);
    return rc;
}

/* ---------------------------------------------------------------- reading values */

static bool arrow_valid(const struct ArrowArray *arr, int64_t i)
{
    const uint8_t *bits = arr->n_buffers > 0 ? arr->buffers[0] : NULL;
    return !bits || floe__arrow_bit_get(bits, i + arr->offset);
}

int floe__arrow_value_at(const struct ArrowArray *arr, const floe_type *t, int64_t i,
                         floe_value *out)
{
    if (i < 0 || i >= arr->length)
        return floe__error(FLOE_EINVALID, "arrow", "row %lld out of range", (long long)i);
    if (t->id == FLOE_T_UNKNOWN || !arrow_valid(arr, i)) {
        *out = floe_value_null(t->id);
        return 0;
    }
    int64_t k = i + arr->offset;
    const void *vals = arr->n_buffers > 1 ? arr->buffers[1] : NULL;
    if (!vals)
        return floe__error(FLOE_EINVALID, "arrow", "Arrow column without a values buffer");
    switch (t->id) {
    case FLOE_T_BOOLEAN:
        *out = floe_value_bool(floe__arrow_bit_get(vals, k));
        return 0;
    case FLOE_T_INT:
        *out = floe_value_int(((const int32_t *)vals)[k]);
        return 0;
    case FLOE_T_DATE:
        *out = floe_value_date(((const int32_t *)vals)[k]);
        return 0;
    case FLOE_T_LONG:
        *out = floe_value_long(((const int64_t *)vals)[k]);
        return 0;
    case FLOE_T_TIME:
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS:
        *out = floe_value_i64(t->id, ((const int64_t *)vals)[k]);
        return 0;
    case FLOE_T_FLOAT:
        *out = floe_value_float(((const float *)vals)[k]);
        return 0;
    case FLOE_T_DOUBLE:
        *out = floe_value_double(((const double *)vals)[k]);
        return 0;
    case FLOE_T_DECIMAL: {
        floe_i128 v;
        memcpy(&v, (const uint8_t *)vals + 16 * k, 16); /* little-endian decimal128 */
        *out = floe_value_decimal(v, t->scale);
        return 0;
    }
    case FLOE_T_STRING:
    case FLOE_T_BINARY: {
        const int32_t *off = vals;
        const uint8_t *data = arr->n_buffers > 2 ? arr->buffers[2] : NULL;
        if (off[k + 1] < off[k] || (!data && off[k + 1] > off[k]))
            return floe__error(FLOE_EINVALID, "arrow", "bad Arrow offsets at row %lld",
                               (long long)i);
        *out = floe_value_bytes(t->id, data ? data + off[k] : (const uint8_t *)"",
                                (size_t)(off[k + 1] - off[k]));
        return 0;
    }
    case FLOE_T_UUID:
    case FLOE_T_FIXED: {
        size_t w = t->id == FLOE_T_UUID ? 16 : (size_t)t->length;
        *out = floe_value_bytes(t->id, (const uint8_t *)vals + w * (size_t)k, w);
        return 0;
    }
    default:
        return floe__error(FLOE_EUNSUPPORTED, "arrow",
                           "cannot read Arrow values of type %s", floe__type_name(t->id));
    }
}

static int find_value(const floe_type *st, const struct ArrowArray *arr, int64_t row, int32_t id,
                      floe_value *out, int depth)
{
    for (size_t k = 0; k < st->nfields; k++) {
        const floe_field *f = &st->fields[k];
        if (f->id == id)
            return floe__arrow_value_at(arr->children[k], f->type, row, out) == 0 ? 1 : -1;
        if (f->type->id == FLOE_T_STRUCT && depth < FLOE_MAX_TYPE_DEPTH) {
            int r = find_value(f->type, arr->children[k], row, id, out, depth + 1);
            if (r != 0) {
                if (r > 0 && !floe__arrow_is_valid(arr->children[k], row))
                    *out = floe_value_null(out->type);
                return r;
            }
        }
    }
    return 0;
}

int floe__arrow_row_value(int32_t field_id, floe_value *out, void *payload)
{
    const floe_arrow_row *g = payload;
    int r = find_value(g->root, g->batch, g->row, field_id, out, 0);
    if (r < 0)
        return floe__error_code() ? floe__error_code() : FLOE_ERROR;
    if (r == 0)
        *out = floe_value_null(FLOE_T_INT);
    return 0;
}
