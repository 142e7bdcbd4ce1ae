/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers for tests that compare floe with independent engines through
 * tests/interop/parquet_engines.mjs (DuckDB, hyparquet): canonical value
 * text, JSON of nested Arrow values, and a whole-file comparison.
 */
#ifndef FLOE_TEST_PQENGINES_H
#define FLOE_TEST_PQENGINES_H

#include "pqtest.h"

#include <jansson.h>

__attribute__((unused)) static const char *engines(void)
{
    static char path[1024];
    snprintf(path, sizeof(path), "%s/tests/interop/parquet_engines.mjs", ft_source_dir());
    char mods[1024];
    snprintf(mods, sizeof(mods), "%s/tests/interop/node_modules/@duckdb/node-api", ft_source_dir());
    FILE *f = fopen(mods, "r");
    if (!f || ft_run(NULL, "node --version >/dev/null 2>&1") != 0) {
        if (f)
            fclose(f);
        ft_skip("node or tests/interop/node_modules missing");
        return NULL;
    }
    fclose(f);
    return path;
}

__attribute__((unused)) static json_t *run_json(const char *fmt, const char *a, const char *b)
{
    char *out = NULL;
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), fmt, a, b);
    int st = ft_run(&out, "%s", cmd);
    if (st != 0) {
        ft_fail(__FILE__, __LINE__, "command failed (%d): %s\n%s", st, cmd, out ? out : "");
        free(out);
        return NULL;
    }
    json_error_t err;
    json_t *j = json_loads(out, 0, &err);
    if (!j)
        ft_fail(__FILE__, __LINE__, "bad JSON from %s: %s", cmd, err.text);
    free(out);
    return j;
}

/* ---------------------------------------------------------------- canonical values */

static void hexs(floe_buf *b, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        floe__buf_printf(b, "%02x", p[i]);
}

/* Canonical text of a non-null primitive value (see parquet_engines.mjs). */
static char *canon(const floe_value *v)
{
    floe_buf b = FLOE_BUF_INIT;
    switch (v->type) {
    case FLOE_T_BOOLEAN: floe__buf_puts(&b, v->v.b ? "true" : "false"); break;
    case FLOE_T_INT:
    case FLOE_T_DATE: floe__buf_printf(&b, "%d", v->v.i32); break;
    case FLOE_T_FLOAT: floe__buf_printf(&b, "%.9g", v->v.f32); break;
    case FLOE_T_DOUBLE: floe__buf_printf(&b, "%.17g", v->v.f64); break;
    case FLOE_T_DECIMAL: floe_decimal_format(v->v.dec, v->scale, &b); break;
    case FLOE_T_STRING: floe__buf_put(&b, v->v.bytes.ptr, v->v.bytes.len); break;
    case FLOE_T_BINARY:
    case FLOE_T_FIXED:
    case FLOE_T_UUID: hexs(&b, v->v.bytes.ptr, v->v.bytes.len); break;
    default: floe__buf_printf(&b, "%lld", (long long)v->v.i64); break;
    }
    floe__buf_putc(&b, 0);
    return floe__buf_detach(&b);
}

/* Compare a canonical string from an engine with a floe value. Floats
 * compare numerically (engines print shortest round-trip forms). */
__attribute__((unused)) static bool same(const floe_value *v, json_t *j, bool approx_decimal)
{
    if (!j)
        return false;
    if (json_is_null(j))
        return v->is_null;
    if (v->is_null)
        return false;
    if (v->type == FLOE_T_FLOAT || v->type == FLOE_T_DOUBLE || (approx_decimal && v->type == FLOE_T_DECIMAL)) {
        double want = json_is_number(j) ? json_number_value(j) : strtod(json_string_value(j), NULL);
        double got;
        if (v->type == FLOE_T_FLOAT)
            return (float)want == v->v.f32 || (isnan(want) && isnan(v->v.f32));
        if (v->type == FLOE_T_DOUBLE)
            return want == v->v.f64 || (isnan(want) && isnan(v->v.f64));
        char *s = canon(v);
        got = strtod(s, NULL);
        floe__free(s);
        return fabs(got - want) <= 1e-9 * fabs(want) + 1e-12;
    }
    char *s = canon(v);
    bool ok;
    if (json_is_string(j))
        ok = !strcmp(s, json_string_value(j));
    else if (json_is_integer(j)) {
        char t[32];
        snprintf(t, sizeof(t), "%lld", (long long)json_integer_value(j));
        ok = !strcmp(s, t);
    } else if (json_is_boolean(j))
        ok = !strcmp(s, json_is_true(j) ? "true" : "false");
    else
        ok = false;
    floe__free(s);
    return ok;
}

/* JSON of an Arrow value (nested), shaped like DuckDB's to_json. */
static json_t *to_json_value(const struct ArrowArray *a, const floe_type *t, int64_t i)
{
    if (!floe__arrow_is_valid(a, i))
        return json_null();
    int64_t j = i + a->offset;
    if (t->id == FLOE_T_STRUCT) {
        json_t *o = json_object();
        for (size_t k = 0; k < t->nfields; k++)
            json_object_set_new(o, t->fields[k].name, to_json_value(a->children[k], t->fields[k].type, j));
        return o;
    }
    if (t->id == FLOE_T_LIST || t->id == FLOE_T_MAP) {
        const int32_t *off = a->buffers[1];
        const struct ArrowArray *c = a->children[0];
        if (t->id == FLOE_T_LIST) {
            json_t *arr = json_array();
            for (int32_t k = off[j]; k < off[j + 1]; k++)
                json_array_append_new(arr, to_json_value(c, t->element->type, k));
            return arr;
        }
        json_t *o = json_object();
        for (int32_t k = off[j]; k < off[j + 1]; k++) {
            int64_t kk = k + c->offset;
            floe_value key = pt_arrow_value(c->children[0], t->key->type, kk);
            char *ks = canon(&key);
            json_object_set_new(o, ks, to_json_value(c->children[1], t->value->type, kk));
            floe__free(ks);
        }
        return o;
    }
    floe_value v = pt_arrow_value(a, t, i);
    switch (t->id) {
    case FLOE_T_BOOLEAN: return json_boolean(v.v.b);
    case FLOE_T_INT: return json_integer(v.v.i32);
    case FLOE_T_LONG: return json_integer(v.v.i64);
    case FLOE_T_DOUBLE: return json_real(v.v.f64);
    case FLOE_T_FLOAT: return json_real(v.v.f32);
    case FLOE_T_STRING: return json_stringn((const char *)v.v.bytes.ptr, v.v.bytes.len);
    default: {
        char *s = canon(&v);
        json_t *r = json_string(s);
        floe__free(s);
        return r;
    }
    }
}

/* Read `path` with floe and compare every value with DuckDB's output. */
__attribute__((unused)) static void floe_matches_duckdb(const char *path, json_t *duck, int64_t batch_rows)
{
    json_t *rows = json_object_get(duck, "rows");
    json_t *cols = json_object_get(duck, "columns");
    floe_input *in;
    FT_OK(floe__pq_input_file(&in, path));
    floe_pq_reader *r;
    floe_pq_read_options ro = {0};
    ro.batch_rows = batch_rows;
    int rc = floe__pq_reader_open(&r, in, &ro);
    if (rc < 0) {
        in->close(in);
        FT_OK(rc);
    }
    const floe_schema *s = floe__pq_reader_schema(r);
    FT_EQ_INT(s->root->nfields, json_array_size(cols));
    size_t row = 0;
    int bad = 0;
    for (;;) {
        struct ArrowArray a;
        rc = floe__pq_reader_next(r, &a);
        if (rc == FLOE_ITEROVER)
            break;
        if (rc < 0) {
            ft_fail(__FILE__, __LINE__, "%s: %s", path, ft_floe_err());
            break;
        }
        for (int64_t i = 0; i < a.length; i++, row++) {
            json_t *jr = json_array_get(rows, row);
            for (size_t c = 0; c < s->root->nfields && jr; c++) {
                const floe_type *t = s->root->fields[c].type;
                json_t *want = json_array_get(jr, c);
                bool ok;
                if (floe_type_is_nested(t)) {
                    json_t *got = to_json_value(a.children[c], t, i);
                    json_t *wj = json_is_string(want) ? json_loads(json_string_value(want), 0, NULL)
                                                      : json_null();
                    ok = json_equal(got, wj);
                    if (!ok && bad < 5) {
                        char *g = json_dumps(got, JSON_COMPACT);
                        ft_fail(__FILE__, __LINE__, "%s row %zu col %s: DuckDB %s floe %s", path, row,
                                s->root->fields[c].name, json_string_value(want), g);
                        free(g);
                        bad++;
                    }
                    json_decref(got);
                    json_decref(wj);
                    continue;
                }
                floe_value v = pt_arrow_value(a.children[c], t, i);
                ok = same(&v, want, false);
                if (!ok && bad++ < 5) {
                    char *w = json_dumps(want, JSON_ENCODE_ANY);
                    ft_fail(__FILE__, __LINE__, "%s row %zu col %s: DuckDB %s floe %s", path, row,
                            s->root->fields[c].name, w, v.is_null ? "null" : pt_fmt(&v));
                    free(w);
                }
            }
        }
        a.release(&a);
    }
    FT_EQ_INT(row, json_array_size(rows));
    floe__pq_reader_free(r);
    in->close(in);
}

#endif
