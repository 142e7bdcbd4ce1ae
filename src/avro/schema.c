/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Avro schema JSON (Avro 1.11 "Schema Declaration") parsed into
 * floe_avro_schema and emitted back. Iceberg's attributes are kept: the
 * `field-id` of record fields, `element-id` of arrays, `key-id`/`value-id`
 * of maps, `logicalType` (including Iceberg's "map" arrays of k<id>_v<id>
 * records, decimal, uuid, date, time-micros, timestamp-micros/-nanos) and
 * `adjust-to-utc` (spec Appendix A, "Avro").
 */
#include "avro.h"

#include "spec/spec.h"
#include "util/json_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parse_ctx {
    floe_arena *arena;
    const char *source;
    /* named types defined so far (for references by name) */
    size_t nnamed;
    const floe_avro_schema *named[256];
} parse_ctx;

static int bad(const parse_ctx *ctx, const char *fmt, const char *arg)
{
    return floe__error(FLOE_ECORRUPT, "avro", "invalid Avro schema in %s: %s%s", ctx->source, fmt,
                       arg ? arg : "");
}

static const struct {
    const char *name;
    floe_avro_kind kind;
} primitives[] = {
    {"null", FLOE_AVRO_NULL},   {"boolean", FLOE_AVRO_BOOLEAN}, {"int", FLOE_AVRO_INT},
    {"long", FLOE_AVRO_LONG},   {"float", FLOE_AVRO_FLOAT},     {"double", FLOE_AVRO_DOUBLE},
    {"bytes", FLOE_AVRO_BYTES}, {"string", FLOE_AVRO_STRING},
};

const char *floe_avro_kind_name(floe_avro_kind k)
{
    static const char *names[] = {"null",   "boolean", "int",  "long",  "float", "double", "bytes",
                                  "string", "record",  "enum", "array", "map",   "union",  "fixed"};
    return (unsigned)k < FLOE_ARRAY_LEN(names) ? names[k] : "?";
}

static floe_avro_schema *new_schema(parse_ctx *ctx, floe_avro_kind kind)
{
    floe_avro_schema *s = floe__arena_calloc(ctx->arena, 1, sizeof *s);
    if (!s)
        return NULL;
    s->kind = kind;
    s->element_id = s->key_id = s->value_id = FLOE_AVRO_NO_ID;
    return s;
}

static int get_id(const parse_ctx *ctx, const floe_json *obj, const char *key, int32_t *out)
{
    const floe_json *v = floe__json_get(obj, key);
    *out = FLOE_AVRO_NO_ID;
    if (!v)
        return 0;
    int64_t n;
    if (floe__json_is_integer(v)) {
        n = floe__json_ival(v);
    } else if (floe__json_is_string(v)) {
        /* some writers quote ids */
        const char *s = floe__json_sval(v);
        char *end;
        long long x = strtoll(s, &end, 10);
        if (!*s || *end)
            return bad(ctx, "non-numeric ", key);
        n = x;
    } else {
        return bad(ctx, "non-integer ", key);
    }
    if (n < INT32_MIN + 1 || n > INT32_MAX)
        return bad(ctx, "out-of-range ", key);
    *out = (int32_t)n;
    return 0;
}

static int parse_type(parse_ctx *ctx, const floe_json *j, int depth, const floe_avro_schema **out);

static int register_named(parse_ctx *ctx, const floe_avro_schema *s)
{
    for (size_t i = 0; i < ctx->nnamed; i++)
        if (strcmp(ctx->named[i]->name, s->name) == 0)
            return bad(ctx, "redefined named type ", s->name);
    if (ctx->nnamed >= FLOE_ARRAY_LEN(ctx->named))
        return bad(ctx, "too many named types", NULL);
    ctx->named[ctx->nnamed++] = s;
    return 0;
}

static int parse_name(parse_ctx *ctx, const floe_json *j, floe_avro_schema *s)
{
    const floe_json *n = floe__json_get(j, "name");
    if (!floe__json_is_string(n))
        return bad(ctx, "named type without a name", NULL);
    s->name = floe__arena_strdup(ctx->arena, floe__json_sval(n));
    if (!s->name)
        return floe__error_nomem();
    return 0;
}

static int parse_record(parse_ctx *ctx, const floe_json *j, floe_avro_schema *s, int depth)
{
    FLOE_TRY(parse_name(ctx, j, s));
    FLOE_TRY(register_named(ctx, s));
    const floe_json *fields = floe__json_get(j, "fields");
    if (!floe__json_is_array(fields))
        return bad(ctx, "record without fields: ", s->name);
    size_t n = floe__json_len(fields);
    floe_avro_field *f = n ? floe__arena_calloc(ctx->arena, n, sizeof *f) : NULL;
    if (n && !f)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const floe_json *jf = floe__json_at(fields, i);
        const floe_json *name = floe__json_get(jf, "name");
        const floe_json *type = floe__json_get(jf, "type");
        if (!floe__json_is_string(name) || !type)
            return bad(ctx, "field without name or type in record ", s->name);
        f[i].name = floe__arena_strdup(ctx->arena, floe__json_sval(name));
        if (!f[i].name)
            return floe__error_nomem();
        FLOE_TRY(get_id(ctx, jf, "field-id", &f[i].field_id));
        const floe_json *doc = floe__json_get(jf, "doc");
        if (floe__json_is_string(doc) &&
            !(f[i].doc = floe__arena_strdup(ctx->arena, floe__json_sval(doc))))
            return floe__error_nomem();
        const floe_json *def = floe__json_get(jf, "default");
        if (def) {
            floe_buf txt = FLOE_BUF_INIT;
            floe_jw w;
            floe__jw_init(&w, &txt);
            int rc = floe__json_write(&w, def);
            if (rc == 0 && !(f[i].default_json = floe__arena_strndup(ctx->arena, txt.ptr, txt.len)))
                rc = floe__error_nomem();
            floe__buf_free(&txt);
            FLOE_TRY(rc);
            f[i].has_default = true;
        }
        FLOE_TRY(parse_type(ctx, type, depth + 1, &f[i].type));
        for (size_t k = 0; k < i; k++)
            if (strcmp(f[k].name, f[i].name) == 0)
                return bad(ctx, "duplicate field ", f[i].name);
    }
    s->nfields = n;
    s->fields = f;
    return 0;
}

static int parse_object(parse_ctx *ctx, const floe_json *j, int depth, const floe_avro_schema **out)
{
    const floe_json *type = floe__json_get(j, "type");
    if (!type)
        return bad(ctx, "object without \"type\"", NULL);
    if (!floe__json_is_string(type)) /* {"type": {...}} or {"type": [...]} */
        return parse_type(ctx, type, depth + 1, out);
    const char *t = floe__json_sval(type);
    floe_avro_schema *s = NULL;
    bool primitive = false;
    for (size_t i = 0; i < FLOE_ARRAY_LEN(primitives) && !primitive; i++)
        if (strcmp(t, primitives[i].name) == 0) {
            primitive = true;
            if (!(s = new_schema(ctx, primitives[i].kind)))
                return floe__error_nomem();
        }
    if (!primitive) {
        if (strcmp(t, "record") == 0 || strcmp(t, "error") == 0) {
            if (!(s = new_schema(ctx, FLOE_AVRO_RECORD)))
                return floe__error_nomem();
            FLOE_TRY(parse_record(ctx, j, s, depth));
        } else if (strcmp(t, "enum") == 0) {
            if (!(s = new_schema(ctx, FLOE_AVRO_ENUM)))
                return floe__error_nomem();
            FLOE_TRY(parse_name(ctx, j, s));
            FLOE_TRY(register_named(ctx, s));
            const floe_json *syms = floe__json_get(j, "symbols");
            if (!floe__json_is_array(syms) || floe__json_len(syms) == 0)
                return bad(ctx, "enum without symbols: ", s->name);
            size_t n = floe__json_len(syms);
            const char **sy = floe__arena_calloc(ctx->arena, n, sizeof *sy);
            if (!sy)
                return floe__error_nomem();
            for (size_t i = 0; i < n; i++) {
                const floe_json *x = floe__json_at(syms, i);
                if (!floe__json_is_string(x))
                    return bad(ctx, "non-string enum symbol in ", s->name);
                if (!(sy[i] = floe__arena_strdup(ctx->arena, floe__json_sval(x))))
                    return floe__error_nomem();
            }
            s->nsymbols = n;
            s->symbols = sy;
        } else if (strcmp(t, "array") == 0) {
            if (!(s = new_schema(ctx, FLOE_AVRO_ARRAY)))
                return floe__error_nomem();
            const floe_json *items = floe__json_get(j, "items");
            if (!items)
                return bad(ctx, "array without items", NULL);
            FLOE_TRY(get_id(ctx, j, "element-id", &s->element_id));
            FLOE_TRY(parse_type(ctx, items, depth + 1, &s->items));
        } else if (strcmp(t, "map") == 0) {
            if (!(s = new_schema(ctx, FLOE_AVRO_MAP)))
                return floe__error_nomem();
            const floe_json *values = floe__json_get(j, "values");
            if (!values)
                return bad(ctx, "map without values", NULL);
            FLOE_TRY(get_id(ctx, j, "key-id", &s->key_id));
            FLOE_TRY(get_id(ctx, j, "value-id", &s->value_id));
            FLOE_TRY(parse_type(ctx, values, depth + 1, &s->items));
        } else if (strcmp(t, "fixed") == 0) {
            if (!(s = new_schema(ctx, FLOE_AVRO_FIXED)))
                return floe__error_nomem();
            FLOE_TRY(parse_name(ctx, j, s));
            FLOE_TRY(register_named(ctx, s));
            const floe_json *size = floe__json_get(j, "size");
            if (!floe__json_is_integer(size) || floe__json_ival(size) < 0 ||
                floe__json_ival(size) > (1 << 20))
                return bad(ctx, "fixed without a valid size: ", s->name);
            s->size = (size_t)floe__json_ival(size);
        } else {
            /* a reference to a named type written as {"type": "name"} */
            for (size_t i = 0; i < ctx->nnamed; i++)
                if (strcmp(ctx->named[i]->name, t) == 0) {
                    *out = ctx->named[i];
                    return 0;
                }
            return bad(ctx, "unknown type ", t);
        }
    }
    if (!s)
        return floe__error_nomem();
    const floe_json *lt = floe__json_get(j, "logicalType");
    if (floe__json_is_string(lt) &&
        !(s->logical_type = floe__arena_strdup(ctx->arena, floe__json_sval(lt))))
        return floe__error_nomem();
    const floe_json *p = floe__json_get(j, "precision"), *sc = floe__json_get(j, "scale");
    if (floe__json_is_integer(p))
        s->precision = (int32_t)floe__json_ival(p);
    if (floe__json_is_integer(sc))
        s->scale = (int32_t)floe__json_ival(sc);
    const floe_json *utc = floe__json_get(j, "adjust-to-utc");
    if (floe__json_is_boolean(utc)) {
        s->has_adjust_to_utc = true;
        s->adjust_to_utc = floe__json_is_true(utc);
    }
    *out = s;
    return 0;
}

static int parse_type(parse_ctx *ctx, const floe_json *j, int depth, const floe_avro_schema **out)
{
    if (depth > FLOE_AVRO_MAX_DEPTH)
        return bad(ctx, "nesting too deep", NULL);
    if (floe__json_is_string(j)) {
        const char *t = floe__json_sval(j);
        for (size_t i = 0; i < FLOE_ARRAY_LEN(primitives); i++)
            if (strcmp(t, primitives[i].name) == 0) {
                floe_avro_schema *s = new_schema(ctx, primitives[i].kind);
                if (!s)
                    return floe__error_nomem();
                *out = s;
                return 0;
            }
        for (size_t i = 0; i < ctx->nnamed; i++)
            if (strcmp(ctx->named[i]->name, t) == 0) {
                *out = ctx->named[i];
                return 0;
            }
        return bad(ctx, "unknown type ", t);
    }
    if (floe__json_is_array(j)) {
        size_t n = floe__json_len(j);
        if (n == 0)
            return bad(ctx, "empty union", NULL);
        floe_avro_schema *s = new_schema(ctx, FLOE_AVRO_UNION);
        const floe_avro_schema **br = floe__arena_calloc(ctx->arena, n, sizeof(floe_avro_schema *));
        if (!s || !br)
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++) {
            FLOE_TRY(parse_type(ctx, floe__json_at(j, i), depth + 1, &br[i]));
            if (br[i]->kind == FLOE_AVRO_UNION)
                return bad(ctx, "union directly inside a union", NULL);
        }
        s->nbranches = n;
        s->branches = br;
        *out = s;
        return 0;
    }
    if (floe__json_is_object(j))
        return parse_object(ctx, j, depth, out);
    return bad(ctx, "a type must be a string, an array or an object", NULL);
}

int floe_avro_schema_parse(const floe_avro_schema **out, floe_arena *arena, const char *json,
                           size_t len, const char *source)
{
    char what[320];
    snprintf(what, sizeof what, "invalid Avro schema JSON in %.280s", source);
    floe_json *root = NULL;
    FLOE_TRY(floe__json_parse(&root, json, len, what));
    parse_ctx *ctx = floe__calloc(1, sizeof *ctx);
    if (!ctx) {
        floe__json_free(root);
        return floe__error_nomem();
    }
    ctx->arena = arena;
    ctx->source = source;
    int rc = parse_type(ctx, root, 0, out);
    floe__free(ctx);
    floe__json_free(root);
    return rc;
}

const floe_avro_schema *floe_avro_unwrap_optional(const floe_avro_schema *s, int *null_index)
{
    *null_index = -1;
    if (s->kind != FLOE_AVRO_UNION || s->nbranches != 2)
        return s;
    if (s->branches[0]->kind == FLOE_AVRO_NULL && s->branches[1]->kind != FLOE_AVRO_NULL) {
        *null_index = 0;
        return s->branches[1];
    }
    if (s->branches[1]->kind == FLOE_AVRO_NULL && s->branches[0]->kind != FLOE_AVRO_NULL) {
        *null_index = 1;
        return s->branches[0];
    }
    return s;
}

/* ---------------------------------------------------------------- emit */

typedef struct emit_ctx {
    floe_buf *out;
    size_t nnamed;
    const floe_avro_schema *named[256];
} emit_ctx;

static int put_str(floe_buf *b, const char *s)
{
    FLOE_TRY(floe__buf_putc(b, '"'));
    FLOE_TRY(floe__buf_put_json_escaped(b, s, strlen(s)));
    return floe__buf_putc(b, '"');
}

static int emit_type(emit_ctx *e, const floe_avro_schema *s);

static int emit_attrs(emit_ctx *e, const floe_avro_schema *s)
{
    floe_buf *b = e->out;
    if (s->logical_type) {
        FLOE_TRY(floe__buf_puts(b, ",\"logicalType\":"));
        FLOE_TRY(put_str(b, s->logical_type));
        if (strcmp(s->logical_type, "decimal") == 0)
            FLOE_TRY(floe__buf_printf(b, ",\"precision\":%d,\"scale\":%d", (int)s->precision,
                                      (int)s->scale));
    }
    if (s->has_adjust_to_utc)
        FLOE_TRY(floe__buf_printf(b, ",\"adjust-to-utc\":%s", s->adjust_to_utc ? "true" : "false"));
    return 0;
}

static int emit_named_ref(emit_ctx *e, const floe_avro_schema *s, bool *done)
{
    *done = false;
    for (size_t i = 0; i < e->nnamed; i++)
        if (e->named[i] == s || strcmp(e->named[i]->name, s->name) == 0) {
            *done = true;
            return put_str(e->out, s->name);
        }
    if (e->nnamed >= FLOE_ARRAY_LEN(e->named))
        return floe__error(FLOE_EINVALID, "avro", "too many named types to emit");
    e->named[e->nnamed++] = s;
    return 0;
}

static int emit_type(emit_ctx *e, const floe_avro_schema *s)
{
    floe_buf *b = e->out;
    bool done;
    switch (s->kind) {
    case FLOE_AVRO_UNION:
        FLOE_TRY(floe__buf_putc(b, '['));
        for (size_t i = 0; i < s->nbranches; i++) {
            if (i)
                FLOE_TRY(floe__buf_putc(b, ','));
            FLOE_TRY(emit_type(e, s->branches[i]));
        }
        return floe__buf_putc(b, ']');
    case FLOE_AVRO_RECORD:
        FLOE_TRY(emit_named_ref(e, s, &done));
        if (done)
            return 0;
        FLOE_TRY(floe__buf_puts(b, "{\"type\":\"record\",\"name\":"));
        FLOE_TRY(put_str(b, s->name));
        FLOE_TRY(floe__buf_puts(b, ",\"fields\":["));
        for (size_t i = 0; i < s->nfields; i++) {
            const floe_avro_field *f = &s->fields[i];
            FLOE_TRY(floe__buf_puts(b, i ? ",{\"name\":" : "{\"name\":"));
            FLOE_TRY(put_str(b, f->name));
            FLOE_TRY(floe__buf_puts(b, ",\"type\":"));
            FLOE_TRY(emit_type(e, f->type));
            if (f->doc) {
                FLOE_TRY(floe__buf_puts(b, ",\"doc\":"));
                FLOE_TRY(put_str(b, f->doc));
            }
            if (f->has_default)
                FLOE_TRY(floe__buf_printf(b, ",\"default\":%s", f->default_json));
            if (f->field_id != FLOE_AVRO_NO_ID)
                FLOE_TRY(floe__buf_printf(b, ",\"field-id\":%d", (int)f->field_id));
            FLOE_TRY(floe__buf_putc(b, '}'));
        }
        FLOE_TRY(floe__buf_puts(b, "]"));
        FLOE_TRY(emit_attrs(e, s));
        return floe__buf_putc(b, '}');
    case FLOE_AVRO_ENUM:
        FLOE_TRY(emit_named_ref(e, s, &done));
        if (done)
            return 0;
        FLOE_TRY(floe__buf_puts(b, "{\"type\":\"enum\",\"name\":"));
        FLOE_TRY(put_str(b, s->name));
        FLOE_TRY(floe__buf_puts(b, ",\"symbols\":["));
        for (size_t i = 0; i < s->nsymbols; i++) {
            if (i)
                FLOE_TRY(floe__buf_putc(b, ','));
            FLOE_TRY(put_str(b, s->symbols[i]));
        }
        return floe__buf_puts(b, "]}");
    case FLOE_AVRO_FIXED:
        FLOE_TRY(emit_named_ref(e, s, &done));
        if (done)
            return 0;
        FLOE_TRY(floe__buf_puts(b, "{\"type\":\"fixed\",\"name\":"));
        FLOE_TRY(put_str(b, s->name));
        FLOE_TRY(floe__buf_printf(b, ",\"size\":%zu", s->size));
        FLOE_TRY(emit_attrs(e, s));
        return floe__buf_putc(b, '}');
    case FLOE_AVRO_ARRAY:
        FLOE_TRY(floe__buf_puts(b, "{\"type\":\"array\",\"items\":"));
        FLOE_TRY(emit_type(e, s->items));
        if (s->element_id != FLOE_AVRO_NO_ID)
            FLOE_TRY(floe__buf_printf(b, ",\"element-id\":%d", (int)s->element_id));
        FLOE_TRY(emit_attrs(e, s));
        return floe__buf_putc(b, '}');
    case FLOE_AVRO_MAP:
        FLOE_TRY(floe__buf_puts(b, "{\"type\":\"map\",\"values\":"));
        FLOE_TRY(emit_type(e, s->items));
        if (s->key_id != FLOE_AVRO_NO_ID)
            FLOE_TRY(floe__buf_printf(b, ",\"key-id\":%d", (int)s->key_id));
        if (s->value_id != FLOE_AVRO_NO_ID)
            FLOE_TRY(floe__buf_printf(b, ",\"value-id\":%d", (int)s->value_id));
        FLOE_TRY(emit_attrs(e, s));
        return floe__buf_putc(b, '}');
    default:
        if (!s->logical_type && !s->has_adjust_to_utc)
            return put_str(b, floe_avro_kind_name(s->kind));
        FLOE_TRY(floe__buf_puts(b, "{\"type\":"));
        FLOE_TRY(put_str(b, floe_avro_kind_name(s->kind)));
        FLOE_TRY(emit_attrs(e, s));
        return floe__buf_putc(b, '}');
    }
}

int floe_avro_schema_emit(const floe_avro_schema *s, floe_buf *out)
{
    emit_ctx *e = floe__calloc(1, sizeof *e);
    if (!e)
        return floe__error_nomem();
    e->out = out;
    int rc = emit_type(e, s);
    floe__free(e);
    return rc;
}
