/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/nested: nested column values (spec "Schemas and Data Types": struct,
 * list, map) between SQLite and Arrow for `floe sql`.
 *
 * Inside SQLite a nested value is JSON text in the shape of Spark's to_json:
 * a list is a JSON array, a map a JSON object whose keys are the keys' text
 * (a map<int,..> key 1 is "1"), a struct a JSON object keyed by field name
 * (null fields kept as null). Primitives inside follow the metadata tables'
 * cells (rows/rowsource.h floe__rs_json_value: decimals as numbers at their
 * scale, dates and timestamps as text, binary as hex), except that
 * timestamptz is shown in the session time zone as top-level columns are.
 *
 * Reading (floe__sql_nested_json): one slot of a nested Arrow array from the
 * scan rendered as that JSON. Writing (floe__sql_append_value): a SQLite
 * value (NULL or JSON text, as array()/map()/named_struct()/struct() produce
 * or as a string literal) appended to an Arrow builder: JSON null is a null
 * list/map/struct/element, [] an empty list, {} an empty map; a struct is
 * taken from an object by field name (missing fields get their
 * write-default, else null) or, when
 * the keys are not all field names, by position, or from an array by
 * position. Leaves are converted exactly as top-level INSERT values
 * (floe__sql_convert_scalar); required fields, elements and values refuse
 * null with the column path in the message; duplicate map keys are refused
 * as Spark does by default.
 */
#include "sql/nested.h"

#include "arrow/arrow.h"
#include "rows/rowsource.h"
#include "scan/scan.h"
#include "spec/spec.h"
#include "spec/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- Arrow -> JSON */

static int leaf_json(const struct ArrowArray *a, const floe_type *t, int64_t i, const floe_tz *tz,
                     floe_buf *out)
{
    floe_value v;
    FLOE_TRY(floe__arrow_value_at(a, t, i, &v));
    if (!v.is_null && v.type == FLOE_T_TIMESTAMPTZ && tz) {
        FLOE_TRY(floe__buf_putc(out, '"'));
        FLOE_TRY(floe__rs_format_timestamp_us(v.v.i64, tz, out));
        return floe__buf_putc(out, '"');
    }
    return floe__rs_json_value(&v, out);
}

/* A map key as a JSON object key: strings as they are, other types by their
 * JSON text, quoted when it is not already a string. */
static int key_json(const struct ArrowArray *a, const floe_type *t, int64_t i, const floe_tz *tz,
                    floe_buf *out)
{
    size_t at = out->len;
    FLOE_TRY(leaf_json(a, t, i, tz, out));
    if (out->len > at && out->ptr[at] == '"')
        return 0;
    size_t n = out->len - at;
    FLOE_TRY(floe__buf_putc(out, '"'));
    memmove(out->ptr + at + 1, out->ptr + at, n);
    out->ptr[at] = '"';
    return floe__buf_putc(out, '"');
}

static int render(const struct ArrowArray *a, const floe_type *t, int64_t i, const floe_tz *tz,
                  floe_buf *out, int depth)
{
    if (depth > FLOE_MAX_TYPE_DEPTH)
        return floe__error(FLOE_EINVALID, "sql", "nested value too deep");
    if (!floe_type_is_nested(t))
        return leaf_json(a, t, i, tz, out);
    if (!floe__arrow_is_valid(a, i))
        return floe__buf_puts(out, "null");
    if (t->id == FLOE_T_STRUCT) {
        FLOE_TRY(floe__buf_putc(out, '{'));
        for (size_t k = 0; k < t->nfields; k++) {
            if (k)
                FLOE_TRY(floe__buf_putc(out, ','));
            FLOE_TRY(floe__json_put_str(out, t->fields[k].name));
            FLOE_TRY(floe__buf_putc(out, ':'));
            /* struct children are indexed with the parent's offset */
            FLOE_TRY(render(a->children[k], t->fields[k].type, i + a->offset, tz, out, depth + 1));
        }
        return floe__buf_putc(out, '}');
    }
    const int32_t *off = (const int32_t *)a->buffers[1] + a->offset;
    int64_t lo = off[i], hi = off[i + 1];
    if (t->id == FLOE_T_LIST) {
        FLOE_TRY(floe__buf_putc(out, '['));
        for (int64_t j = lo; j < hi; j++) {
            if (j > lo)
                FLOE_TRY(floe__buf_putc(out, ','));
            FLOE_TRY(render(a->children[0], t->element->type, j, tz, out, depth + 1));
        }
        return floe__buf_putc(out, ']');
    }
    const struct ArrowArray *ent = a->children[0];
    FLOE_TRY(floe__buf_putc(out, '{'));
    for (int64_t j = lo; j < hi; j++) {
        if (j > lo)
            FLOE_TRY(floe__buf_putc(out, ','));
        FLOE_TRY(key_json(ent->children[0], t->key->type, j + ent->offset, tz, out));
        FLOE_TRY(floe__buf_putc(out, ':'));
        FLOE_TRY(render(ent->children[1], t->value->type, j + ent->offset, tz, out, depth + 1));
    }
    return floe__buf_putc(out, '}');
}

int floe__sql_nested_json(const struct ArrowArray *a, const floe_type *t, int64_t i,
                          const floe_tz *tz, floe_buf *out)
{
    floe__buf_clear(out);
    return render(a, t, i, tz, out, 0);
}

/* ---------------------------------------------------------------- JSON -> Arrow */

typedef struct nest_ctx {
    floe_sql_session *s;
    const char *column; /* top-level column name */
    floe_buf path;      /* "col.field.element" of the value being converted */
    floe_buf num;       /* text of a JSON number */
} nest_ctx;

static int value_error(nest_ctx *c, const char *what)
{
    return floe__sql_fail(
        c->s, floe__error(FLOE_EINVALID, "sql", "Cannot write to '%s': %s", c->path.ptr, what),
        "AnalysisException");
}

static int append_json(nest_ctx *c, floe_arrow_builder *b, const floe_field *f, const floe_json *j,
                       int depth);

/* Enter path component `name` (returns the length to restore). */
static size_t path_push(nest_ctx *c, const char *name, int *rc)
{
    size_t at = c->path.len;
    *rc = floe__buf_printf(&c->path, ".%s", name);
    return at;
}

static void path_pop(nest_ctx *c, size_t at)
{
    c->path.len = at;
    c->path.ptr[at] = '\0';
}

static int append_child(nest_ctx *c, floe_arrow_builder *b, const floe_field *f, const floe_json *j,
                        int depth)
{
    int rc;
    size_t at = path_push(c, f->name, &rc);
    if (rc == 0)
        rc = append_json(c, b, f, j, depth + 1);
    path_pop(c, at);
    return rc;
}

static bool all_keys_are_fields(const floe_json *j, const floe_type *t)
{
    for (size_t k = 0; k < j->n; k++) {
        size_t i = 0;
        while (i < t->nfields && strcasecmp(t->fields[i].name, j->keys[k]) != 0)
            i++;
        if (i == t->nfields)
            return false;
    }
    return true;
}

static int append_struct(nest_ctx *c, floe_arrow_builder *b, const floe_type *t, const floe_json *j,
                         int depth)
{
    bool by_name = floe__json_is_object(j) && all_keys_are_fields(j, t);
    if (!by_name && j->n != t->nfields)
        return value_error(c, floe__json_is_object(j)
                                  ? "the struct value's fields do not match the struct type"
                                  : "the struct value has a different number of fields");
    for (size_t i = 0; i < t->nfields; i++) {
        const floe_json *v = NULL;
        if (by_name) {
            for (size_t k = 0; k < j->n && !v; k++)
                if (strcasecmp(t->fields[i].name, j->keys[k]) == 0)
                    v = &j->u.items[k];
        } else {
            v = &j->u.items[i];
        }
        /* spec "Default values": a field the value omits gets its
         * write-default (Spark 3.5 refuses the value: STRUCT_MISSING_FIELDS) */
        if (!v && t->fields[i].write_default) {
            FLOE_TRY(floe__arrow_builder_append_write_default(b->children[i], &t->fields[i]));
            continue;
        }
        FLOE_TRY(append_child(c, b->children[i], &t->fields[i], v, depth));
    }
    return floe__arrow_builder_struct_append(b, true);
}

static int append_map(nest_ctx *c, floe_arrow_builder *b, const floe_type *t, const floe_json *j,
                      int depth)
{
    floe_strmap *seen = j->n > 1 ? floe__strmap_new() : NULL;
    if (j->n > 1 && !seen)
        return floe__error_nomem();
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < j->n; k++) {
        if (seen && floe__strmap_has(seen, j->keys[k])) {
            char msg[160];
            snprintf(msg, sizeof msg, "duplicate map key '%.100s'", j->keys[k]);
            rc = value_error(c, msg);
            break;
        }
        if (seen && (rc = floe__strmap_put(seen, j->keys[k], NULL)) < 0)
            break;
        floe_json key = {
            .type = FLOE_JSON_STRING, .n = (uint32_t)strlen(j->keys[k]), .u.s = j->keys[k]};
        rc = append_child(c, b->children[0], t->key, &key, depth);
        if (rc == 0)
            rc = append_child(c, b->children[1], t->value, &j->u.items[k], depth);
    }
    floe__strmap_free(seen);
    FLOE_TRY(rc);
    return floe__arrow_builder_list_append(b, true, (int64_t)j->n);
}

static int append_leaf(nest_ctx *c, floe_arrow_builder *b, const floe_field *f, const floe_json *j)
{
    floe_sql_scalar x;
    memset(&x, 0, sizeof x);
    floe__buf_clear(&c->num);
    switch (j->type) {
    case FLOE_JSON_TRUE:
    case FLOE_JSON_FALSE:
        x.type = SQLITE_INTEGER;
        x.i = j->type == FLOE_JSON_TRUE;
        FLOE_TRY(floe__buf_puts(&c->num, x.i ? "true" : "false"));
        x.text = c->num.ptr;
        x.len = c->num.len;
        break;
    case FLOE_JSON_INTEGER:
        x.type = SQLITE_INTEGER;
        x.i = j->u.i;
        FLOE_TRY(floe__buf_printf(&c->num, "%lld", (long long)j->u.i));
        x.text = c->num.ptr;
        x.len = c->num.len;
        break;
    case FLOE_JSON_REAL: {
        x.type = SQLITE_FLOAT;
        x.d = j->u.d;
        /* the shortest text that reads back as the same double (decimals
         * are parsed from it) */
        for (int prec = 15; prec <= 17; prec++) {
            floe__buf_clear(&c->num);
            FLOE_TRY(floe__buf_printf(&c->num, "%.*g", prec, j->u.d));
            if (strtod(c->num.ptr, NULL) == j->u.d)
                break;
        }
        x.text = c->num.ptr;
        x.len = c->num.len;
        break;
    }
    case FLOE_JSON_STRING:
        x.type = SQLITE_TEXT;
        x.text = j->u.s;
        x.len = j->n;
        break;
    default: return value_error(c, "a list, map or struct where a primitive value is expected");
    }
    floe_field named = *f;
    named.name = c->path.ptr;
    floe_value v;
    FLOE_TRY(floe__sql_convert_scalar(c->s, &x, &named, &v));
    return floe__arrow_builder_append(b, &v);
}

static int append_json(nest_ctx *c, floe_arrow_builder *b, const floe_field *f, const floe_json *j,
                       int depth)
{
    if (!j || floe__json_is_null(j)) {
        if (f->required)
            return floe__sql_fail(c->s,
                                  floe__error(FLOE_EINVALID, "sql",
                                              "Cannot write nullable values to non-null %s '%s'",
                                              strcmp(f->name, "element") == 0 ? "list element"
                                              : strcmp(f->name, "key") == 0   ? "map key"
                                              : strcmp(f->name, "value") == 0 ? "map value"
                                                                              : "field",
                                              c->path.ptr),
                                  "AnalysisException");
        return floe__arrow_builder_append_null(b);
    }
    if (depth > FLOE_MAX_TYPE_DEPTH)
        return value_error(c, "value nested too deeply");
    const floe_type *t = f->type;
    switch (t->id) {
    case FLOE_T_STRUCT:
        if (!floe__json_is_object(j) && !floe__json_is_array(j))
            return value_error(c, "expected a struct (a JSON object)");
        return append_struct(c, b, t, j, depth);
    case FLOE_T_LIST:
        if (!floe__json_is_array(j))
            return value_error(c, "expected a list (a JSON array)");
        for (size_t k = 0; k < j->n; k++)
            FLOE_TRY(append_child(c, b->children[0], t->element, &j->u.items[k], depth));
        return floe__arrow_builder_list_append(b, true, (int64_t)j->n);
    case FLOE_T_MAP:
        if (!floe__json_is_object(j))
            return value_error(c, "expected a map (a JSON object)");
        return append_map(c, b, t, j, depth);
    default: return append_leaf(c, b, f, j);
    }
}

int floe__sql_append_value(floe_sql_session *s, sqlite3_value *sv, const floe_field *f,
                           floe_arrow_builder *b)
{
    if (!floe_type_is_nested(f->type)) {
        floe_value v;
        FLOE_TRY(floe__sql_convert_value(s, sv, f, &v));
        return floe__arrow_builder_append(b, &v);
    }
    if (sqlite3_value_type(sv) == SQLITE_NULL) {
        floe_value v; /* the top-level NOT NULL check */
        FLOE_TRY(floe__sql_convert_value(s, sv, f, &v));
        return floe__arrow_builder_append_null(b);
    }
    const char *text = (const char *)sqlite3_value_text(sv);
    int len = sqlite3_value_bytes(sv);
    if (!text)
        return floe__error_nomem();
    nest_ctx c = {s, f->name, FLOE_BUF_INIT, FLOE_BUF_INIT};
    floe_json *j = NULL;
    int rc = floe__buf_puts(&c.path, f->name);
    if (rc == 0 && (rc = floe__json_parse(&j, text, (size_t)len, f->name)) < 0 &&
        rc != FLOE_ENOMEM) {
        char msg[120];
        snprintf(msg, sizeof msg, "'%.60s%s' is not a JSON value of type %s", text,
                 len > 60 ? "..." : "", floe__type_name(f->type->id));
        rc = value_error(&c, msg);
    }
    if (rc == 0)
        rc = append_json(&c, b, f, j, 0);
    floe__json_free(j);
    floe__buf_free(&c.path);
    floe__buf_free(&c.num);
    return rc;
}
