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

#include <jansson.h>
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

static int get_id(const parse_ctx *ctx, json_t *obj, const char *key, int32_t *out)
{
    json_t *v = json_object_get(obj, key);
    *out = FLOE_AVRO_NO_ID;
    if (!v)
        return 0;
    json_int_t n;
    if (json_is_integer(v)) {
        n = json_integer_value(v);
    } else if (json_is_string(v)) {
        /* some writers quote ids */
        const char *s = json_string_value(v);
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

static int parse_type(parse_ctx *ctx, json_t *j, int depth, const floe_avro_schema **out);

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

static int parse_name(parse_ctx *ctx, json_t *j, floe_avro_schema *s)
{
    json_t *n = json_object_get(j, "name");
    if (!json_is_string(n))
        return bad(ctx, "named type without a name", NULL);
    s->name = floe__arena_strdup(ctx->arena, json_string_value(n));
    if (!s->name)
        return floe__error_nomem();
    return 0;
}

static int parse_record(parse_ctx *ctx, json_t *j, floe_avro_schema *s, int depth)
{
    FLOE_TRY(parse_name(ctx, j, s));
    FLOE_TRY(register_named(ctx, s));
    json_t *fields = json_object_get(j, "fields");
    if (!json_is_array(fields))
        return bad(ctx, "record without fields: ", s->name);
    size_t n = json_array_size(fields);
    floe_avro_field *f = n ? floe__arena_calloc(ctx->arena, n, sizeof *f) : NULL;
    if (n && !f)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        json_t *jf = json_array_get(fields, i);
        json_t *name = json_object_get(jf, "name");
        json_t *type = json_object_get(jf, "type");
        if (!json_is_string(name) || !type)
            return bad(ctx, "field without name or type in record ", s->name);
        f[i].name = floe__arena_strdup(ctx->arena, json_string_value(name));
        if (!f[i].name)
            return floe__error_nomem();
        FLOE_TRY(get_id(ctx, jf, "field-id", &f[i].field_id));
        json_t *doc = json_object_get(jf, "doc");
        if (json_is_string(doc) &&
            !(f[i].doc = floe__arena_strdup(ctx->arena, json_string_value(doc))))
            return floe__error_nomem();
        json_t *def = json_object_get(jf, "default");
        if (def) {
            char *txt = json_dumps(def, JSON_ENCODE_ANY | JSON_COMPACT);
            if (!txt)
                return floe__error_nomem();
            f[i].default_json = floe__arena_strdup(ctx->arena, txt);
            free(txt);
            if (!f[i].default_json)
                return floe__error_nomem();
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

static int parse_object(parse_ctx *ctx, json_t *j, int depth, const floe_avro_schema **out)
{
    json_t *type = json_object_get(j, "type");
    if (!type)
        return bad(ctx, "object without \"type\"", NULL);
    if (!json_is_string(type)) /* {"type": {...}} or {"type": [...]} */
        return parse_type(ctx, type, depth + 1, out);
    const char *t = json_string_value(type);
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
            json_t *syms = json_object_get(j, "symbols");
            if (!json_is_array(syms) || json_array_size(syms) == 0)
                return bad(ctx, "enum without symbols: ", s->name);
            size_t n = json_array_size(syms);
            const char **sy = floe__arena_calloc(ctx->arena, n, sizeof *sy);
            if (!sy)
                return floe__error_nomem();
            for (size_t i = 0; i < n; i++) {
                json_t *x = json_array_get(syms, i);
                if (!json_is_string(x))
                    return bad(ctx, "non-string enum symbol in ", s->name);
                if (!(sy[i] = floe__arena_strdup(ctx->arena, json_string_value(x))))
                    return floe__error_nomem();
            }
            s->nsymbols = n;
            s->symbols = sy;
        } else if (strcmp(t, "array") == 0) {
            if (!(s = new_schema(ctx, FLOE_AVRO_ARRAY)))
                return floe__error_nomem();
            json_t *items = json_object_get(j, "items");
            if (!items)
                return bad(ctx, "array without items", NULL);
            FLOE_TRY(get_id(ctx, j, "element-id", &s->element_id));
            FLOE_TRY(parse_type(ctx, items, depth + 1, &s->items));
        } else if (strcmp(t, "map") == 0) {
            if (!(s = new_schema(ctx, FLOE_AVRO_MAP)))
                return floe__error_nomem();
            json_t *values = json_object_get(j, "values");
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
            json_t *size = json_object_get(j, "size");
            if (!json_is_integer(size) || json_integer_value(size) < 0 ||
                json_integer_value(size) > (1 << 20))
                return bad(ctx, "fixed without a valid size: ", s->name);
            s->size = (size_t)json_integer_value(size);
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
    json_t *lt = json_object_get(j, "logicalType");
    if (json_is_string(lt) &&
        !(s->logical_type = floe__arena_strdup(ctx->arena, json_string_value(lt))))
        return floe__error_nomem();
    json_t *p = json_object_get(j, "precision"), *sc = json_object_get(j, "scale");
    if (json_is_integer(p))
        s->precision = (int32_t)json_integer_value(p);
    if (json_is_integer(sc))
        s->scale = (int32_t)json_integer_value(sc);
    json_t *utc = json_object_get(j, "adjust-to-utc");
    if (json_is_boolean(utc)) {
        s->has_adjust_to_utc = true;
        s->adjust_to_utc = json_is_true(utc);
    }
    *out = s;
    return 0;
}

static int parse_type(parse_ctx *ctx, json_t *j, int depth, const floe_avro_schema **out)
{
    if (depth > FLOE_AVRO_MAX_DEPTH)
        return bad(ctx, "nesting too deep", NULL);
    if (json_is_string(j)) {
        const char *t = json_string_value(j);
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
    if (json_is_array(j)) {
        size_t n = json_array_size(j);
        if (n == 0)
            return bad(ctx, "empty union", NULL);
        floe_avro_schema *s = new_schema(ctx, FLOE_AVRO_UNION);
        const floe_avro_schema **br = floe__arena_calloc(ctx->arena, n, sizeof(floe_avro_schema *));
        if (!s || !br)
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++) {
            FLOE_TRY(parse_type(ctx, json_array_get(j, i), depth + 1, &br[i]));
            if (br[i]->kind == FLOE_AVRO_UNION)
                return bad(ctx, "union directly inside a union", NULL);
        }
        s->nbranches = n;
        s->branches = br;
        *out = s;
        return 0;
    }
    if (json_is_object(j))
        return parse_object(ctx, j, depth, out);
    return bad(ctx, "a type must be a string, an array or an object", NULL);
}

int floe_avro_schema_parse(const floe_avro_schema **out, floe_arena *arena, const char *json,
                           size_t len, const char *source)
{
    json_error_t jerr;
    json_t *root = json_loadb(json, len, JSON_DECODE_ANY, &jerr);
    if (!root)
        return floe__error(FLOE_ECORRUPT, "avro", "invalid Avro schema JSON in %s: %s", source,
                           jerr.text);
    parse_ctx *ctx = floe__calloc(1, sizeof *ctx);
    if (!ctx) {
        json_decref(root);
        return floe__error_nomem();
    }
    ctx->arena = arena;
    ctx->source = source;
    int rc = parse_type(ctx, root, 0, out);
    floe__free(ctx);
    json_decref(root);
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
