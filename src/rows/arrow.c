/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rows/arrow: any row source as an Arrow C stream (include/floe/arrow.h):
 * each batch is a struct array whose children are the source's columns,
 * typed from their Iceberg types as the arrow module maps them (nested
 * columns become real Arrow structs, lists and maps, appended by the source
 * itself when it has column_arrow, else rebuilt from the cells' JSON text;
 * see rowsource.h for that encoding). One batch holds at
 * most `batch_rows` rows, so memory stays bounded whatever the row count.
 */
#include "rows/rowsource.h"

#include "arrow/arrow.h"
#include "spec/spec.h"
#include "spec/value.h"
#include "util/civil.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rs_stream {
    floe_rowsource *rs;
    floe_rowcursor *cur;
    floe_type root;
    floe_field *fields;
    floe_arrow_builder *b;
    floe_arena *scratch; /* bytes decoded from JSON cells, per batch */
    size_t batch_rows;
    bool done;
    char *err;
} rs_stream;

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

static int bad_cell(const char *what, const char *text)
{
    return floe__error(FLOE_ECORRUPT, "meta", "cannot read %s from JSON cell value '%.40s'", what,
                       text ? text : "");
}

/* A primitive of type t from its text (a JSON string or a map key). */
static int value_from_text(rs_stream *st, const floe_type *t, const char *s, size_t n,
                           floe_value *out)
{
    switch (t->id) {
    case FLOE_T_INT:
    case FLOE_T_LONG: {
        char *end;
        long long x = strtoll(s, &end, 10);
        if (end == s)
            return bad_cell("an integer", s);
        *out = t->id == FLOE_T_INT ? floe_value_int((int32_t)x) : floe_value_long(x);
        return 0;
    }
    case FLOE_T_FLOAT:
    case FLOE_T_DOUBLE: {
        double d = strcmp(s, "NaN") == 0         ? NAN
                   : strcmp(s, "Infinity") == 0  ? INFINITY
                   : strcmp(s, "-Infinity") == 0 ? -INFINITY
                                                 : strtod(s, NULL);
        *out = t->id == FLOE_T_FLOAT ? floe_value_float((float)d) : floe_value_double(d);
        return 0;
    }
    case FLOE_T_DATE: {
        int y, m, d;
        if (sscanf(s, "%d-%d-%d", &y, &m, &d) != 3)
            return bad_cell("a date", s);
        *out = floe_value_date((int32_t)floe__days_from_civil(y, (unsigned)m, (unsigned)d));
        return 0;
    }
    case FLOE_T_TIME: {
        int h, mi, sec;
        long us = 0;
        if (sscanf(s, "%d:%d:%d.%ld", &h, &mi, &sec, &us) < 3)
            return bad_cell("a time", s);
        *out = floe_value_i64(FLOE_T_TIME,
                              ((int64_t)h * 3600 + (int64_t)mi * 60 + sec) * 1000000 + us);
        return 0;
    }
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS: {
        int64_t us;
        if (floe__time_parse_us(s, NULL, &us) < 0)
            return bad_cell("a timestamp", s);
        bool ns = t->id == FLOE_T_TIMESTAMP_NS || t->id == FLOE_T_TIMESTAMPTZ_NS;
        *out = floe_value_i64(t->id, ns ? us * 1000 : us);
        return 0;
    }
    case FLOE_T_UUID: {
        uint8_t *b = floe__arena_alloc(st->scratch, 16);
        if (!b)
            return floe__error_nomem();
        if (floe__uuid_parse(s, b) < 0)
            return bad_cell("a uuid", s);
        *out = floe_value_bytes(FLOE_T_UUID, b, 16);
        return 0;
    }
    case FLOE_T_FIXED:
    case FLOE_T_BINARY: {
        if (n % 2)
            return bad_cell("hex bytes", s);
        uint8_t *b = floe__arena_alloc(st->scratch, n / 2 + 1);
        if (!b)
            return floe__error_nomem();
        for (size_t i = 0; i + 1 < n; i += 2) {
            int hi = hexval(s[i]), lo = hexval(s[i + 1]);
            if (hi < 0 || lo < 0)
                return bad_cell("hex bytes", s);
            b[i / 2] = (uint8_t)(hi << 4 | lo);
        }
        *out = floe_value_bytes(t->id, b, n / 2);
        return 0;
    }
    default: /* string */ *out = floe_value_bytes(FLOE_T_STRING, s, n); return 0;
    }
}

static int append_json(rs_stream *st, floe_arrow_builder *b, const floe_type *t, const floe_json *j,
                       int depth)
{
    if (!j || floe__json_is_null(j))
        return floe__arrow_builder_append_null(b);
    if (depth > FLOE_MAX_TYPE_DEPTH)
        return bad_cell("a value this deep", "");
    switch (t->id) {
    case FLOE_T_STRUCT:
        if (!floe__json_is_object(j))
            return bad_cell("a struct", "");
        for (size_t i = 0; i < t->nfields; i++)
            FLOE_TRY(append_json(st, b->children[i], t->fields[i].type,
                                 floe__json_get(j, t->fields[i].name), depth + 1));
        return floe__arrow_builder_struct_append(b, true);
    case FLOE_T_LIST:
        if (!floe__json_is_array(j))
            return bad_cell("a list", "");
        for (size_t i = 0; i < floe__json_len(j); i++)
            FLOE_TRY(
                append_json(st, b->children[0], t->element->type, floe__json_at(j, i), depth + 1));
        return floe__arrow_builder_list_append(b, true, (int64_t)floe__json_len(j));
    case FLOE_T_MAP: {
        if (!floe__json_is_object(j))
            return bad_cell("a map", "");
        const char *key;
        floe_json *val;
        FLOE_JSON_FOREACH(j, key, val)
        {
            floe_value kv;
            FLOE_TRY(value_from_text(st, t->key->type, key, strlen(key), &kv));
            FLOE_TRY(floe__arrow_builder_append(b->children[0], &kv));
            FLOE_TRY(append_json(st, b->children[1], t->value->type, val, depth + 1));
        }
        return floe__arrow_builder_list_append(b, true, (int64_t)floe__json_len(j));
    }
    default: break;
    }
    floe_value v;
    switch (j->type) {
    case FLOE_JSON_TRUE:
    case FLOE_JSON_FALSE: v = floe_value_bool(j->type == FLOE_JSON_TRUE); break;
    case FLOE_JSON_INTEGER:
    case FLOE_JSON_REAL:
        if (t->id == FLOE_T_DECIMAL) {
            /* exact for integers; reals go through a double */
            double d = floe__json_num(j) * pow(10, t->scale);
            v = floe_value_decimal((floe_i128)llround(d), t->scale);
        } else if (t->id == FLOE_T_FLOAT || t->id == FLOE_T_DOUBLE) {
            double d = floe__json_num(j);
            v = t->id == FLOE_T_FLOAT ? floe_value_float((float)d) : floe_value_double(d);
        } else if (j->type == FLOE_JSON_INTEGER) {
            v = t->id == FLOE_T_INT ? floe_value_int((int32_t)j->u.i) : floe_value_long(j->u.i);
        } else {
            return bad_cell("an integer", "real");
        }
        break;
    case FLOE_JSON_STRING: FLOE_TRY(value_from_text(st, t, j->u.s, j->n, &v)); break;
    default: return bad_cell("a primitive", "");
    }
    return floe__arrow_builder_append(b, &v);
}

static int append_cell(rs_stream *st, floe_arrow_builder *b, const floe_type *t,
                       const floe_rs_cell *cell)
{
    if (!cell->json)
        return floe__arrow_builder_append(b, cell->value.is_null ? NULL : &cell->value);
    floe_json *j;
    FLOE_TRY(floe__json_parse(&j, cell->json, cell->json_len, "cell"));
    int rc = append_json(st, b, t, j, 0);
    floe__json_free(j);
    return rc;
}

static void set_error(rs_stream *st)
{
    const floe_error *e = floe_error_last();
    floe__free(st->err);
    st->err = floe__strdup(e && e->message ? e->message : "floe error");
}

static int s_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    rs_stream *st = s->private_data;
    int rc = floe__arrow_schema_from_struct(out, &st->root);
    if (rc < 0) {
        set_error(st);
        return floe__arrow_errno(rc);
    }
    return 0;
}

static int fill_batch(rs_stream *st)
{
    floe__arrow_builder_reset(st->b);
    floe__arena_reset(st->scratch);
    int (*direct)(floe_rowcursor *, size_t, floe_arrow_builder *) = st->rs->column_arrow;
    while (!st->done && (size_t)st->b->length < st->batch_rows) {
        int rc = floe__rs_next(st->cur);
        if (rc == FLOE_ITEROVER) {
            st->done = true;
            break;
        }
        FLOE_TRY(rc);
        for (size_t i = 0; i < st->rs->ncolumns; i++) {
            if (direct && floe_type_is_nested(st->rs->columns[i].type)) {
                rc = direct(st->cur, i, st->b->children[i]);
                FLOE_TRY(rc);
                if (rc == 0)
                    continue;
            }
            floe_rs_cell cell;
            FLOE_TRY(floe__rs_column(st->cur, i, &cell));
            FLOE_TRY(append_cell(st, st->b->children[i], st->rs->columns[i].type, &cell));
        }
        FLOE_TRY(floe__arrow_builder_struct_append(st->b, true));
    }
    return 0;
}

static int s_get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    rs_stream *st = s->private_data;
    memset(out, 0, sizeof *out);
    if (st->done && st->b->length == 0)
        return 0; /* released array: end of stream */
    int rc = fill_batch(st);
    if (rc == 0 && st->b->length == 0)
        return 0;
    if (rc == 0)
        rc = floe__arrow_builder_finish(st->b, out);
    if (rc < 0) {
        set_error(st);
        memset(out, 0, sizeof *out);
        return floe__arrow_errno(rc);
    }
    return 0;
}

static const char *s_last_error(struct ArrowArrayStream *s)
{
    return ((rs_stream *)s->private_data)->err;
}

static void stream_free(rs_stream *st)
{
    if (!st)
        return;
    floe__rs_close(st->cur);
    floe__arrow_builder_free(st->b);
    floe__arena_free(st->scratch);
    floe__free(st->fields);
    floe__free(st->err);
    floe__free(st);
}

static void s_release(struct ArrowArrayStream *s)
{
    stream_free(s->private_data);
    s->release = NULL;
}

int floe__rs_arrow_stream(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                          size_t batch_rows, struct ArrowArrayStream *out)
{
    memset(out, 0, sizeof *out);
    rs_stream *st = floe__calloc(1, sizeof *st);
    if (!st)
        return floe__error_nomem();
    st->rs = rs;
    st->batch_rows = batch_rows ? batch_rows : 8192;
    st->fields = floe__calloc(rs->ncolumns + 1, sizeof *st->fields);
    st->scratch = floe__arena_new(0);
    int rc = st->fields && st->scratch ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < rs->ncolumns; i++) {
        /* rc == 0: fields was allocated (the analyzer does not know that
         * floe__error_nomem() is negative) */
        st->fields[i].id = (int32_t)i + 1; /* NOLINT(clang-analyzer-core.NullDereference) */
        st->fields[i].name = rs->columns[i].name;
        st->fields[i].required = rs->columns[i].required;
        st->fields[i].type = rs->columns[i].type;
    }
    st->root.id = FLOE_T_STRUCT;
    st->root.nfields = rs->ncolumns;
    st->root.fields = st->fields;
    if (rc == 0)
        rc = floe__arrow_builder_new(&st->b, &st->root);
    if (rc == 0)
        rc = floe__rs_open(rs, cons, ncons, &st->cur);
    if (rc < 0) {
        stream_free(st);
        return rc;
    }
    out->get_schema = s_get_schema;
    out->get_next = s_get_next;
    out->get_last_error = s_last_error;
    out->release = s_release;
    out->private_data = st;
    return 0;
}
