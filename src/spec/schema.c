/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/schema: type strings and schema JSON (spec "Schemas and Data Types",
 * "Appendix C: JSON serialization" — Schemas), field defaults in the JSON
 * single-value serialization, and field lookup by id and by dotted name.
 */
#include "spec/spec.h"
#include "util/json_writer.h"
#include "spec/value.h"
#include "util/civil.h"
#include "util/time.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    floe_type_id id;
    const char *name;
} type_names[] = {
    {FLOE_T_BOOLEAN, "boolean"},     {FLOE_T_INT, "int"},
    {FLOE_T_LONG, "long"},           {FLOE_T_FLOAT, "float"},
    {FLOE_T_DOUBLE, "double"},       {FLOE_T_DECIMAL, "decimal"},
    {FLOE_T_DATE, "date"},           {FLOE_T_TIME, "time"},
    {FLOE_T_TIMESTAMP, "timestamp"}, {FLOE_T_TIMESTAMPTZ, "timestamptz"},
    {FLOE_T_TIMESTAMP_NS, "timestamp_ns"}, {FLOE_T_TIMESTAMPTZ_NS, "timestamptz_ns"},
    {FLOE_T_STRING, "string"},       {FLOE_T_UUID, "uuid"},
    {FLOE_T_FIXED, "fixed"},         {FLOE_T_BINARY, "binary"},
    {FLOE_T_UNKNOWN, "unknown"},     {FLOE_T_VARIANT, "variant"},
    {FLOE_T_GEOMETRY, "geometry"},   {FLOE_T_GEOGRAPHY, "geography"},
    {FLOE_T_STRUCT, "struct"},       {FLOE_T_LIST, "list"},
    {FLOE_T_MAP, "map"},
};

/* Parameterless primitives are shared static objects: schemas with many
 * columns then cost no allocation per type. */
static const floe_type static_types[] = {
    {.id = FLOE_T_BOOLEAN}, {.id = FLOE_T_INT}, {.id = FLOE_T_LONG},
    {.id = FLOE_T_FLOAT}, {.id = FLOE_T_DOUBLE}, {.id = FLOE_T_DATE},
    {.id = FLOE_T_TIME}, {.id = FLOE_T_TIMESTAMP}, {.id = FLOE_T_TIMESTAMPTZ},
    {.id = FLOE_T_TIMESTAMP_NS}, {.id = FLOE_T_TIMESTAMPTZ_NS}, {.id = FLOE_T_STRING},
    {.id = FLOE_T_UUID}, {.id = FLOE_T_BINARY}, {.id = FLOE_T_UNKNOWN},
    {.id = FLOE_T_VARIANT}, {.id = FLOE_T_GEOMETRY}, {.id = FLOE_T_GEOGRAPHY},
};

const char *floe__type_name(floe_type_id id)
{
    for (size_t i = 0; i < FLOE_ARRAY_LEN(type_names); i++)
        if (type_names[i].id == id)
            return type_names[i].name;
    return "invalid";
}

static const floe_type *static_type(floe_type_id id)
{
    for (size_t i = 0; i < FLOE_ARRAY_LEN(static_types); i++)
        if (static_types[i].id == id)
            return &static_types[i];
    return NULL;
}

static const char *skip_ws(const char *p)
{
    while (*p == ' ')
        p++;
    return p;
}

static bool parse_uint(const char **pp, int32_t *out)
{
    const char *p = skip_ws(*pp);
    if (*p < '0' || *p > '9')
        return false;
    int64_t v = 0;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (*p++ - '0');
        if (v > INT32_MAX)
            return false;
    }
    *out = (int32_t)v;
    *pp = skip_ws(p);
    return true;
}

int floe__type_parse(const char *s, floe_arena *a, const floe_type **out)
{
    if (strncmp(s, "decimal", 7) == 0 && skip_ws(s + 7)[0] == '(') {
        const char *p = skip_ws(s + 7) + 1;
        int32_t prec, scale;
        if (!parse_uint(&p, &prec) || *p++ != ',' || !parse_uint(&p, &scale) || *p++ != ')' ||
            *skip_ws(p) != '\0')
            goto bad;
        if (prec < 1 || prec > 38 || scale > prec)
            return floe__error(FLOE_EINVALID, "schema", "invalid decimal type '%s' (precision 1..38, scale <= precision)", s);
        floe_type *t = floe__arena_calloc(a, 1, sizeof *t);
        if (!t)
            return floe__error_nomem();
        t->id = FLOE_T_DECIMAL;
        t->precision = prec;
        t->scale = scale;
        *out = t;
        return 0;
    }
    if (strncmp(s, "fixed", 5) == 0 && s[5] == '[') {
        const char *p = s + 6;
        int32_t len;
        if (!parse_uint(&p, &len) || *p++ != ']' || *p != '\0' || len < 1)
            goto bad;
        floe_type *t = floe__arena_calloc(a, 1, sizeof *t);
        if (!t)
            return floe__error_nomem();
        t->id = FLOE_T_FIXED;
        t->length = len;
        *out = t;
        return 0;
    }
    /* v3 geometry(crs) / geography(crs, algorithm): parameters not modelled. */
    if ((strncmp(s, "geometry(", 9) == 0 || strncmp(s, "geography(", 10) == 0) &&
        s[strlen(s) - 1] == ')') {
        *out = static_type(s[3] == 'm' ? FLOE_T_GEOMETRY : FLOE_T_GEOGRAPHY);
        return 0;
    }
    for (size_t i = 0; i < FLOE_ARRAY_LEN(type_names); i++) {
        if (strcmp(s, type_names[i].name) == 0 && static_type(type_names[i].id)) {
            *out = static_type(type_names[i].id);
            return 0;
        }
    }
bad:
    return floe__error(FLOE_EINVALID, "schema", "unknown type '%s'", s);
}

int floe__type_format(const floe_type *t, floe_buf *out)
{
    if (t->id == FLOE_T_DECIMAL)
        return floe__buf_printf(out, "decimal(%d, %d)", (int)t->precision, (int)t->scale);
    if (t->id == FLOE_T_FIXED)
        return floe__buf_printf(out, "fixed[%d]", (int)t->length);
    return floe__buf_puts(out, floe__type_name(t->id));
}

/* ---------------------------------------------------------------- values in JSON */

static int bad_value(const floe_type *t, const char *why)
{
    return floe__error(FLOE_EINVALID, "schema", "invalid JSON value for type %s: %s",
                       floe__type_name(t->id), why);
}

/* "HH:MM:SS[.ffffff...]" -> units of 10^-digits seconds. */
static bool parse_time_of_day(const char *s, int64_t unit_per_s, int64_t *out)
{
    int h, m, sec, n = 0;
    if (sscanf(s, "%2d:%2d:%2d%n", &h, &m, &sec, &n) != 3 || n != 8 || h > 23 || m > 59 ||
        sec > 59 || h < 0 || m < 0 || sec < 0)
        return false;
    int64_t v = ((int64_t)h * 3600 + (int64_t)m * 60 + sec) * unit_per_s;
    const char *p = s + 8;
    if (*p == '.') {
        p++;
        int64_t scale = unit_per_s / 10;
        int digits = 0;
        while (*p >= '0' && *p <= '9') {
            v += (*p++ - '0') * scale;
            scale /= 10;
            if (++digits > 9)
                return false;
        }
        if (digits == 0)
            return false;
    }
    *out = v;
    return *p == '\0';
}

static int parse_ts(const char *s, const floe_type *t, int64_t *out)
{
    bool ns = t->id == FLOE_T_TIMESTAMP_NS || t->id == FLOE_T_TIMESTAMPTZ_NS;
    int64_t us;
    FLOE_TRY(floe__time_parse_us(s, NULL, &us));
    if (!ns) {
        *out = us;
        return 0;
    }
    /* Recover the nanosecond digits the microsecond parser dropped. */
    int64_t extra = 0;
    const char *dot = strchr(s, '.');
    if (dot) {
        const char *p = dot + 1;
        for (int i = 0; i < 9 && p[i] >= '0' && p[i] <= '9'; i++)
            if (i >= 6)
                extra = extra * 10 + (p[i] - '0');
        size_t nd = strspn(dot + 1, "0123456789");
        for (size_t i = nd; i < 9 && nd > 6; i++)
            extra *= 10;
        if (nd <= 6)
            extra = 0;
    }
    *out = us * 1000 + extra;
    return 0;
}

int floe__value_from_json(floe_value *out, const floe_json *j, const floe_type *t, floe_arena *a)
{
    if (floe__json_is_null(j)) {
        *out = floe_value_null(t->id);
        return 0;
    }
    const char *s = floe__json_is_string(j) ? floe__json_sval(j) : NULL;
    size_t slen = s ? floe__json_slen(j) : 0;
    switch (t->id) {
    case FLOE_T_BOOLEAN:
        if (!floe__json_is_boolean(j))
            return bad_value(t, "expected true or false");
        *out = floe_value_bool(floe__json_is_true(j));
        return 0;
    case FLOE_T_INT:
        if (!floe__json_is_integer(j) || floe__json_ival(j) < INT32_MIN ||
            floe__json_ival(j) > INT32_MAX)
            return bad_value(t, "expected a 32-bit integer");
        *out = floe_value_int((int32_t)floe__json_ival(j));
        return 0;
    case FLOE_T_LONG:
        if (!floe__json_is_integer(j))
            return bad_value(t, "expected an integer");
        *out = floe_value_long((int64_t)floe__json_ival(j));
        return 0;
    case FLOE_T_FLOAT:
    case FLOE_T_DOUBLE:
        if (!floe__json_is_number(j))
            return bad_value(t, "expected a number");
        *out = t->id == FLOE_T_FLOAT ? floe_value_float((float)floe__json_num(j))
                                     : floe_value_double(floe__json_num(j));
        return 0;
    default: break;
    }
    if (!s)
        return bad_value(t, "expected a string");
    switch (t->id) {
    case FLOE_T_DECIMAL: {
        floe_i128 v = 0;
        const char *p = s;
        bool neg = *p == '-';
        if (neg || *p == '+')
            p++;
        int digits = 0, frac = -1;
        for (; *p; p++) {
            if (*p == '.' && frac < 0) {
                frac = 0;
                continue;
            }
            if (*p < '0' || *p > '9' || ++digits > 38)
                return bad_value(t, "malformed decimal");
            v = v * 10 + (*p - '0');
            if (frac >= 0)
                frac++;
        }
        if (digits == 0)
            return bad_value(t, "malformed decimal");
        if (frac < 0)
            frac = 0;
        if (frac > t->scale)
            return bad_value(t, "more fraction digits than the scale");
        for (; frac < t->scale; frac++)
            v *= 10;
        *out = floe_value_decimal(neg ? -v : v, t->scale);
        return 0;
    }
    case FLOE_T_DATE: {
        int64_t us;
        if (slen != 10 && !(slen == 11 && (s[0] == '-' || s[0] == '+')))
            return bad_value(t, "expected YYYY-MM-DD");
        FLOE_TRY(floe__time_parse_us(s, NULL, &us));
        *out = floe_value_date((int32_t)(us / 86400000000LL));
        return 0;
    }
    case FLOE_T_TIME: {
        int64_t us;
        if (!parse_time_of_day(s, 1000000, &us))
            return bad_value(t, "expected HH:MM:SS[.ffffff]");
        *out = floe_value_i64(FLOE_T_TIME, us);
        return 0;
    }
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS: {
        int64_t v;
        FLOE_TRY(parse_ts(s, t, &v));
        *out = floe_value_i64(t->id, v);
        return 0;
    }
    case FLOE_T_STRING: {
        void *p = floe__arena_memdup(a, s, slen + 1);
        if (!p)
            return floe__error_nomem();
        *out = floe_value_bytes(FLOE_T_STRING, p, slen);
        return 0;
    }
    case FLOE_T_UUID: {
        uint8_t *p = floe__arena_alloc(a, 16);
        if (!p)
            return floe__error_nomem();
        if (floe__uuid_parse(s, p) < 0)
            return bad_value(t, "malformed uuid");
        *out = floe_value_bytes(FLOE_T_UUID, p, 16);
        return 0;
    }
    case FLOE_T_FIXED:
    case FLOE_T_BINARY: {
        if (slen % 2)
            return bad_value(t, "odd number of hex digits");
        uint8_t *p = floe__arena_alloc(a, slen / 2 + 1);
        if (!p)
            return floe__error_nomem();
        for (size_t i = 0; i < slen / 2; i++) {
            int hi = floe__hex_digit(s[2 * i]), lo = floe__hex_digit(s[2 * i + 1]);
            if (hi < 0 || lo < 0)
                return bad_value(t, "malformed hex");
            p[i] = (uint8_t)(hi << 4 | lo);
        }
        if (t->id == FLOE_T_FIXED && slen / 2 != (size_t)t->length)
            return bad_value(t, "length differs from the fixed length");
        *out = floe_value_bytes(t->id, p, slen / 2);
        return 0;
    }
    default: return bad_value(t, "defaults of this type are not supported");
    }
}

int floe__value_to_json(const floe_value *v, floe_buf *out)
{
    if (v->is_null)
        return floe__buf_puts(out, "null");
    switch (v->type) {
    case FLOE_T_BOOLEAN:
    case FLOE_T_INT:
    case FLOE_T_LONG: return floe_value_format(v, out);
    case FLOE_T_FLOAT: return floe__buf_printf(out, "%.9g", (double)v->v.f32);
    case FLOE_T_DOUBLE: return floe__buf_printf(out, "%.17g", v->v.f64);
    case FLOE_T_STRING:
        FLOE_TRY(floe__buf_putc(out, '"'));
        FLOE_TRY(floe__buf_put_json_escaped(out, (const char *)v->v.bytes.ptr, v->v.bytes.len));
        return floe__buf_putc(out, '"');
    default:
        FLOE_TRY(floe__buf_putc(out, '"'));
        FLOE_TRY(floe_value_format(v, out));
        return floe__buf_putc(out, '"');
    }
}

/* ---------------------------------------------------------------- schema JSON */

static int field_from_json(floe_field *f, const floe_json *j, floe_arena *a, int depth);

static int nested_child(const floe_field **out, const floe_json *j, const char *id_key,
                        const char *type_key, const char *req_key, const char *name,
                        floe_arena *a, int depth)
{
    const char *ctx = name[0] == 'e' ? "list type" : "map type";
    floe_field *f = floe__arena_calloc(a, 1, sizeof *f);
    if (!f)
        return floe__error_nomem();
    FLOE_TRY(floe__json_i32(j, id_key, ctx, &f->id));
    f->name = name;
    bool req = false, present;
    if (req_key) {
        FLOE_TRY(floe__json_bool_opt(j, req_key, ctx, &req, &present));
        if (!present)
            return floe__error(FLOE_EINVALID, "schema", "missing required field '%s' in %s",
                               req_key, ctx);
    } else {
        req = true; /* map keys are always required */
    }
    f->required = req;
    floe_json *t = floe__json_get(j, type_key);
    if (!t)
        return floe__error(FLOE_EINVALID, "schema", "missing required field '%s' in %s",
                           type_key, ctx);
    FLOE_TRY(floe__type_from_json(&f->type, t, a, depth + 1));
    *out = f;
    return 0;
}

int floe__type_from_json(const floe_type **out, const floe_json *j, floe_arena *a, int depth)
{
    if (depth > FLOE_MAX_TYPE_DEPTH)
        return floe__error(FLOE_EINVALID, "schema", "types nested deeper than %d levels",
                           FLOE_MAX_TYPE_DEPTH);
    if (floe__json_is_string(j))
        return floe__type_parse(floe__json_sval(j), a, out);
    if (!floe__json_is_object(j))
        return floe__error(FLOE_EINVALID, "schema", "a type must be a string or an object");
    const char *kind = floe__json_sval(floe__json_get(j, "type"));
    if (!kind)
        return floe__error(FLOE_EINVALID, "schema", "missing required field 'type' in nested type");
    floe_type *t = floe__arena_calloc(a, 1, sizeof *t);
    if (!t)
        return floe__error_nomem();
    if (strcmp(kind, "struct") == 0) {
        t->id = FLOE_T_STRUCT;
        floe_json *fields = floe__json_get(j, "fields");
        if (!floe__json_is_array(fields))
            return floe__error(FLOE_EINVALID, "schema",
                               fields ? "field 'fields' in struct must be an array"
                                      : "missing required field 'fields' in struct");
        size_t n = floe__json_len(fields);
        floe_field *fs = floe__arena_calloc(a, n ? n : 1, sizeof *fs);
        if (!fs)
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++)
            FLOE_TRY(field_from_json(&fs[i], floe__json_at(fields, i), a, depth));
        t->nfields = n;
        t->fields = fs;
    } else if (strcmp(kind, "list") == 0) {
        t->id = FLOE_T_LIST;
        FLOE_TRY(nested_child(&t->element, j, "element-id", "element", "element-required",
                              "element", a, depth));
    } else if (strcmp(kind, "map") == 0) {
        t->id = FLOE_T_MAP;
        FLOE_TRY(nested_child(&t->key, j, "key-id", "key", NULL, "key", a, depth));
        FLOE_TRY(nested_child(&t->value, j, "value-id", "value", "value-required", "value", a,
                              depth));
    } else {
        return floe__error(FLOE_EINVALID, "schema", "unknown nested type '%s'", kind);
    }
    *out = t;
    return 0;
}

/* ---------------------------------------------------------------- defaults of any type */

static const floe_field *struct_member(const floe_type *t, int32_t id)
{
    for (size_t i = 0; i < t->nfields; i++)
        if (t->fields[i].id == id)
            return &t->fields[i];
    return NULL;
}

/* A value of any type from the spec's JSON single-value serialization
 * (struct: object by field id; list: array; map: {"keys":[...],
 * "values":[...]}), checked against `t`: what defaults are stored as. */
static int any_value_from_json(floe_value *out, const floe_json *j, const floe_type *t,
                               floe_arena *a, int depth)
{
    if (!floe_type_is_nested(t))
        return floe__value_from_json(out, j, t, a);
    memset(out, 0, sizeof *out);
    out->type = t->id;
    if (depth > 32)
        return bad_value(t, "nested too deeply");
    if (floe__json_is_null(j)) {
        out->is_null = true;
        return 0;
    }
    const floe_json *keys = NULL, *vals = NULL;
    size_t n;
    if (t->id == FLOE_T_STRUCT) {
        if (!floe__json_is_object(j))
            return bad_value(t, "expected an object of values by field id");
        n = floe__json_len(j);
    } else if (t->id == FLOE_T_LIST) {
        if (!floe__json_is_array(j))
            return bad_value(t, "expected an array");
        n = floe__json_len(j);
    } else {
        keys = floe__json_get(j, "keys");
        vals = floe__json_get(j, "values");
        if (!floe__json_is_array(keys) || !floe__json_is_array(vals) ||
            floe__json_len(keys) != floe__json_len(vals))
            return bad_value(t, "expected {\"keys\": [...], \"values\": [...]} of equal length");
        n = floe__json_len(keys);
    }
    size_t nitems = t->id == FLOE_T_MAP ? 2 * n : n;
    floe_nested_value *nv = floe__arena_calloc(a, 1, sizeof *nv);
    floe_value *items = floe__arena_calloc(a, nitems ? nitems : 1, sizeof *items);
    int32_t *ids = floe__arena_calloc(a, n ? n : 1, sizeof *ids);
    if (!nv || !items || !ids)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        if (t->id == FLOE_T_STRUCT) {
            char *end;
            long id = strtol(j->keys[i], &end, 10);
            const floe_field *m = *end || end == j->keys[i] ? NULL : struct_member(t, (int32_t)id);
            if (!m)
                return floe__error(FLOE_EINVALID, "schema",
                                   "invalid JSON value for type struct: no field with id '%s'",
                                   j->keys[i]);
            ids[i] = m->id;
            FLOE_TRY(any_value_from_json(&items[i], floe__json_at(j, i), m->type, a, depth + 1));
        } else if (t->id == FLOE_T_LIST) {
            FLOE_TRY(any_value_from_json(&items[i], floe__json_at(j, i), t->element->type, a,
                                         depth + 1));
        } else {
            FLOE_TRY(any_value_from_json(&items[2 * i], floe__json_at(keys, i), t->key->type, a,
                                         depth + 1));
            FLOE_TRY(any_value_from_json(&items[2 * i + 1], floe__json_at(vals, i),
                                         t->value->type, a, depth + 1));
        }
    }
    nv->n = n;
    nv->ids = ids;
    nv->items = items;
    out->v.nested = nv;
    return 0;
}

/* A default value: primitives in the spec's single-value form, structs as
 * {"<field id>": value}, lists as arrays, maps as {"keys":[..],"values":[..]}. */
static int any_value_to_json(floe_jw *w, const floe_value *v, const floe_type *t)
{
    if (!floe_type_is_nested(t)) {
        FLOE_TRY(floe__jw_begin_raw(w));
        return floe__value_to_json(v, w->out);
    }
    if (v->is_null)
        return floe__jw_null(w);
    const floe_nested_value *d = v->v.nested;
    if (t->id == FLOE_T_STRUCT) {
        FLOE_TRY(floe__jw_obj(w));
        for (size_t i = 0; i < d->n; i++) {
            char id[16];
            snprintf(id, sizeof id, "%d", (int)d->ids[i]);
            FLOE_TRY(floe__jw_key(w, id));
            FLOE_TRY(any_value_to_json(w, &d->items[i], struct_member(t, d->ids[i])->type));
        }
        return floe__jw_obj_end(w);
    }
    if (t->id == FLOE_T_LIST) {
        FLOE_TRY(floe__jw_arr(w));
        for (size_t i = 0; i < d->n; i++)
            FLOE_TRY(any_value_to_json(w, &d->items[i], t->element->type));
        return floe__jw_arr_end(w);
    }
    FLOE_TRY(floe__jw_obj(w));
    for (int part = 0; part < 2; part++) {
        FLOE_TRY(floe__jw_key(w, part ? "values" : "keys"));
        FLOE_TRY(floe__jw_arr(w));
        for (size_t i = 0; i < d->n; i++)
            FLOE_TRY(any_value_to_json(w, &d->items[2 * i + (size_t)part],
                                       part ? t->value->type : t->key->type));
        FLOE_TRY(floe__jw_arr_end(w));
    }
    return floe__jw_obj_end(w);
}

static int field_from_json(floe_field *f, const floe_json *j, floe_arena *a, int depth)
{
    if (!floe__json_is_object(j))
        return floe__error(FLOE_EINVALID, "schema", "a struct field must be an object");
    FLOE_TRY(floe__json_str(j, "name", "schema field", a, &f->name));
    char ctx[160];
    snprintf(ctx, sizeof ctx, "schema field '%.120s'", f->name);
    FLOE_TRY(floe__json_i32(j, "id", ctx, &f->id));
    bool present;
    FLOE_TRY(floe__json_bool_opt(j, "required", ctx, &f->required, &present));
    if (!present)
        return floe__error(FLOE_EINVALID, "schema", "missing required field 'required' in %s", ctx);
    floe_json *t = floe__json_get(j, "type");
    if (!t)
        return floe__error(FLOE_EINVALID, "schema", "missing required field 'type' in %s", ctx);
    FLOE_TRY(floe__type_from_json(&f->type, t, a, depth + 1));
    FLOE_TRY(floe__json_str_opt(j, "doc", ctx, a, &f->doc));
    static const char *const dkeys[2] = {"initial-default", "write-default"};
    for (int k = 0; k < 2; k++) {
        floe_json *d = floe__json_get(j, dkeys[k]);
        if (!d || floe__json_is_null(d))
            continue;
        floe_value *v = floe__arena_calloc(a, 1, sizeof *v);
        if (!v)
            return floe__error_nomem();
        int rc = any_value_from_json(v, d, f->type, a, 0);
        if (rc < 0)
            return floe__error_context("%s of %s", dkeys[k], ctx);
        if (k == 0)
            f->initial_default = v;
        else
            f->write_default = v;
    }
    return 0;
}

static int index_type(floe_schema *s, const floe_type *t, int32_t parent);

static int index_field(floe_schema *s, const floe_field *f, int32_t parent)
{
    if (floe__intmap_has(s->by_id, f->id))
        return floe__error(FLOE_EINVALID, "schema", "duplicate field id %d in schema %d",
                           (int)f->id, (int)s->schema_id);
    FLOE_TRY(floe__intmap_put(s->by_id, f->id, (void *)f));
    FLOE_TRY(floe__intmap_put(s->parent_of, f->id, (void *)(intptr_t)parent));
    if (f->id > s->highest_field_id)
        s->highest_field_id = f->id;
    return index_type(s, f->type, f->id);
}

static int index_type(floe_schema *s, const floe_type *t, int32_t parent)
{
    switch (t->id) {
    case FLOE_T_STRUCT:
        for (size_t i = 0; i < t->nfields; i++)
            FLOE_TRY(index_field(s, &t->fields[i], parent));
        return 0;
    case FLOE_T_LIST: return index_field(s, t->element, parent);
    case FLOE_T_MAP:
        FLOE_TRY(index_field(s, t->key, parent));
        return index_field(s, t->value, parent);
    default: return 0;
    }
}

int floe__schema_from_json(floe_schema **out, const floe_json *j, int32_t default_id, floe_arena *a)
{
    *out = NULL;
    if (!floe__json_is_object(j))
        return floe__error(FLOE_EINVALID, "schema", "a schema must be a JSON object");
    floe_schema *s = floe__arena_calloc(a, 1, sizeof *s);
    if (!s)
        return floe__error_nomem();
    int64_t id = default_id;
    bool present;
    FLOE_TRY(floe__json_int_opt(j, "schema-id", "schema", &id, &present));
    if (id < INT32_MIN || id > INT32_MAX)
        return floe__error(FLOE_EINVALID, "schema", "schema-id out of range");
    s->schema_id = (int32_t)id;
    const char *kind = floe__json_sval(floe__json_get(j, "type"));
    if (kind && strcmp(kind, "struct") != 0)
        return floe__error(FLOE_EINVALID, "schema", "schema %d: type must be 'struct'", (int)id);
    FLOE_TRY(floe__type_from_json(&s->root, j, a, 0));
    floe_json *ids;
    FLOE_TRY(floe__json_array_opt(j, "identifier-field-ids", "schema", &ids));
    if (ids && floe__json_len(ids)) {
        size_t n = floe__json_len(ids);
        int32_t *v = floe__arena_alloc(a, n * sizeof *v);
        if (!v)
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++) {
            floe_json *e = floe__json_at(ids, i);
            if (!floe__json_is_integer(e))
                return floe__error(FLOE_EINVALID, "schema",
                                   "identifier-field-ids of schema %d must be integers", (int)id);
            v[i] = (int32_t)floe__json_ival(e);
        }
        s->n_identifier_field_ids = n;
        s->identifier_field_ids = v;
    }
    s->by_id = floe__intmap_new();
    s->parent_of = floe__intmap_new();
    int rc = (s->by_id && s->parent_of) ? index_type(s, s->root, 0) : floe__error_nomem();
    if (rc < 0) {
        floe__schema_release(s);
        return rc;
    }
    *out = s;
    return 0;
}

void floe__schema_release(floe_schema *s)
{
    if (!s)
        return;
    floe__intmap_free(s->by_id);
    floe__intmap_free(s->parent_of);
    s->by_id = s->parent_of = NULL;
}

static int type_to_json(floe_jw *w, const floe_type *t);

static int field_to_json(floe_jw *w, const floe_field *f)
{
    FLOE_TRY(floe__jw_obj(w));
    FLOE_TRY(floe__jw_kint(w, "id", f->id));
    FLOE_TRY(floe__jw_kstr(w, "name", f->name));
    FLOE_TRY(floe__jw_kbool(w, "required", f->required));
    FLOE_TRY(floe__jw_key(w, "type"));
    FLOE_TRY(type_to_json(w, f->type));
    if (f->doc)
        FLOE_TRY(floe__jw_kstr(w, "doc", f->doc));
    if (f->initial_default) {
        FLOE_TRY(floe__jw_key(w, "initial-default"));
        FLOE_TRY(any_value_to_json(w, f->initial_default, f->type));
    }
    if (f->write_default) {
        FLOE_TRY(floe__jw_key(w, "write-default"));
        FLOE_TRY(any_value_to_json(w, f->write_default, f->type));
    }
    return floe__jw_obj_end(w);
}

static int fields_to_json(floe_jw *w, const floe_type *t)
{
    FLOE_TRY(floe__jw_key(w, "fields"));
    FLOE_TRY(floe__jw_arr(w));
    for (size_t i = 0; i < t->nfields; i++)
        FLOE_TRY(field_to_json(w, &t->fields[i]));
    return floe__jw_arr_end(w);
}

static int type_to_json(floe_jw *w, const floe_type *t)
{
    switch (t->id) {
    case FLOE_T_STRUCT:
        FLOE_TRY(floe__jw_obj(w));
        FLOE_TRY(floe__jw_kstr(w, "type", "struct"));
        FLOE_TRY(fields_to_json(w, t));
        return floe__jw_obj_end(w);
    case FLOE_T_LIST:
        FLOE_TRY(floe__jw_obj(w));
        FLOE_TRY(floe__jw_kstr(w, "type", "list"));
        FLOE_TRY(floe__jw_kint(w, "element-id", t->element->id));
        FLOE_TRY(floe__jw_key(w, "element"));
        FLOE_TRY(type_to_json(w, t->element->type));
        FLOE_TRY(floe__jw_kbool(w, "element-required", t->element->required));
        return floe__jw_obj_end(w);
    case FLOE_T_MAP:
        FLOE_TRY(floe__jw_obj(w));
        FLOE_TRY(floe__jw_kstr(w, "type", "map"));
        FLOE_TRY(floe__jw_kint(w, "key-id", t->key->id));
        FLOE_TRY(floe__jw_key(w, "key"));
        FLOE_TRY(type_to_json(w, t->key->type));
        FLOE_TRY(floe__jw_kint(w, "value-id", t->value->id));
        FLOE_TRY(floe__jw_key(w, "value"));
        FLOE_TRY(type_to_json(w, t->value->type));
        FLOE_TRY(floe__jw_kbool(w, "value-required", t->value->required));
        return floe__jw_obj_end(w);
    default: {
        floe_buf tmp = FLOE_BUF_INIT;
        int rc = floe__type_format(t, &tmp);
        if (rc == 0)
            rc = floe__jw_strn(w, tmp.len ? tmp.ptr : "", tmp.len);
        floe__buf_free(&tmp);
        return rc;
    }
    }
}

int floe__schema_to_json(const floe_schema *s, floe_buf *out)
{
    floe_jw w;
    floe__jw_init(&w, out);
    FLOE_TRY(floe__jw_obj(&w));
    FLOE_TRY(floe__jw_kstr(&w, "type", "struct"));
    FLOE_TRY(floe__jw_kint(&w, "schema-id", s->schema_id));
    if (s->n_identifier_field_ids) {
        FLOE_TRY(floe__jw_key(&w, "identifier-field-ids"));
        FLOE_TRY(floe__jw_arr(&w));
        for (size_t i = 0; i < s->n_identifier_field_ids; i++)
            FLOE_TRY(floe__jw_int(&w, s->identifier_field_ids[i]));
        FLOE_TRY(floe__jw_arr_end(&w));
    }
    FLOE_TRY(fields_to_json(&w, s->root));
    FLOE_TRY(floe__jw_obj_end(&w));
    return floe__jw_finish(&w);
}

/* ---------------------------------------------------------------- lookup */

const floe_field *floe__schema_field_by_id(const floe_schema *s, int32_t id)
{
    return s->by_id ? floe__intmap_get(s->by_id, id) : NULL;
}

static const floe_field *child_by_name(const floe_type *t, const char *name, size_t len)
{
    if (t->id == FLOE_T_STRUCT) {
        for (size_t i = 0; i < t->nfields; i++)
            if (strlen(t->fields[i].name) == len && memcmp(t->fields[i].name, name, len) == 0)
                return &t->fields[i];
    } else if (t->id == FLOE_T_LIST) {
        if (len == 7 && memcmp(name, "element", 7) == 0)
            return t->element;
    } else if (t->id == FLOE_T_MAP) {
        if (len == 3 && memcmp(name, "key", 3) == 0)
            return t->key;
        if (len == 5 && memcmp(name, "value", 5) == 0)
            return t->value;
    }
    return NULL;
}

/* Names may themselves contain dots, so at each level try the longest
 * prefix that names a child first. */
static const floe_field *lookup_dotted(const floe_type *t, const char *name)
{
    size_t n = strlen(name);
    const floe_field *f = child_by_name(t, name, n);
    if (f)
        return f;
    for (size_t i = n; i-- > 0;) {
        if (name[i] != '.')
            continue;
        f = child_by_name(t, name, i);
        if (f) {
            const floe_field *g = lookup_dotted(f->type, name + i + 1);
            if (g)
                return g;
        }
    }
    return NULL;
}

const floe_field *floe__schema_field_by_name(const floe_schema *s, const char *name)
{
    return lookup_dotted(s->root, name);
}

/* ---------------------------------------------------------------- format versions */

/* Java's Schema.MIN_FORMAT_VERSIONS: the types a v1/v2 table cannot hold. */
static bool v3_only(floe_type_id id)
{
    return id == FLOE_T_TIMESTAMP_NS || id == FLOE_T_TIMESTAMPTZ_NS || id == FLOE_T_UNKNOWN ||
           id == FLOE_T_VARIANT || id == FLOE_T_GEOMETRY || id == FLOE_T_GEOGRAPHY;
}

static int check_type(const floe_field *f, const char *prefix, int fv, floe_buf *problems,
                      int depth)
{
    if (depth > 64)
        return 0;
    floe_buf name = FLOE_BUF_INIT;
    int rc = floe__buf_printf(&name, "%s%s%s", prefix, *prefix ? "." : "", f->name);
    const floe_type *t = f->type;
    /* Java's NestedField constructor, before any format check */
    if (rc == 0 && t->id == FLOE_T_UNKNOWN && f->required)
        rc = floe__error(FLOE_EINVALID, "spec",
                         "Cannot create required field with unknown type: %s", f->name);
    if (rc == 0 && fv < 3 && v3_only(t->id))
        rc = floe__buf_printf(problems, "\n- Invalid type for %s: %s is not supported until v3",
                              name.ptr, floe__type_name(t->id));
    for (size_t i = 0; rc == 0 && t->id == FLOE_T_STRUCT && i < t->nfields; i++)
        rc = check_type(&t->fields[i], name.ptr, fv, problems, depth + 1);
    if (rc == 0 && t->id == FLOE_T_LIST)
        rc = check_type(t->element, name.ptr, fv, problems, depth + 1);
    if (rc == 0 && t->id == FLOE_T_MAP)
        rc = check_type(t->key, name.ptr, fv, problems, depth + 1);
    if (rc == 0 && t->id == FLOE_T_MAP)
        rc = check_type(t->value, name.ptr, fv, problems, depth + 1);
    floe__buf_free(&name);
    return rc;
}

int floe__schema_check_format(const floe_schema *s, int format_version)
{
    if (!s || !s->root)
        return 0;
    floe_buf problems = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < s->root->nfields; i++)
        rc = check_type(&s->root->fields[i], "", format_version, &problems, 0);
    if (rc == 0 && problems.len)
        rc = floe__error(FLOE_EINVALID, "spec", "Invalid schema for v%d:%s", format_version,
                         problems.ptr);
    floe__buf_free(&problems);
    return rc;
}
