/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/fn_array: Spark 3.5's array and map functions
 * (spark.sql.ansi.enabled=false) over floe's nested values, which SQLite
 * holds as JSON text (sql/nested.c: a list is a JSON array, a map an object
 * keyed by the keys' text). Registered under their Spark names so the
 * printer passes calls through (docs/sql.md "Array and map functions").
 *
 * Results that are arrays or maps are JSON text with SQLite's JSON subtype
 * (as json_array() makes); an element taken out (element_at, array_max) is
 * a plain SQLite value (a nested one stays JSON). Elements compare as
 * Spark's ordering does for one element type: numbers by value, strings by
 * their bytes (UTF-8, Spark's binary order), arrays element by element;
 * NULL sorts first ascending. A NULL array or map gives NULL, except size()
 * (-1, Spark's default spark.sql.legacy.sizeOfNull=true).
 */
#include "sql/exec_int.h"

#include "spec/spec.h"
#include "util/json_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- values */

/* argv[k] parsed as JSON into *out (NULL for SQL NULL). A text that is not
 * a JSON array (want 'a'), object ('o') or either (0) is the function's
 * error. Returns false when the call is over (NULL result or error set). */
static bool arg_json(sqlite3_context *ctx, sqlite3_value **argv, int k, char want, floe_json **out)
{
    *out = NULL;
    if (sqlite3_value_type(argv[k]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return false;
    }
    const char *s = (const char *)sqlite3_value_text(argv[k]);
    if (!s) {
        sqlite3_result_error_nomem(ctx);
        return false;
    }
    int rc = floe__json_parse(out, s, (size_t)sqlite3_value_bytes(argv[k]), "argument");
    if (rc == FLOE_ENOMEM) {
        sqlite3_result_error_nomem(ctx);
        return false;
    }
    floe_error_clear();
    bool ok = rc == 0 && (want == 'a'   ? floe__json_is_array(*out)
                          : want == 'o' ? floe__json_is_object(*out)
                                        : floe__json_is_array(*out) || floe__json_is_object(*out));
    if (!ok) {
        floe__json_free(*out);
        *out = NULL;
        char msg[160];
        snprintf(msg, sizeof msg, "%s: argument %d is not %s", (const char *)sqlite3_user_data(ctx),
                 k + 1,
                 want == 'a'   ? "an array"
                 : want == 'o' ? "a map"
                               : "an array or a map");
        sqlite3_result_error(ctx, msg, -1);
    }
    return ok;
}

/* A SQLite value as a JSON value in `tmp` (its strings point into the
 * value; a JSON-subtyped text is parsed into *owned, freed by the caller).
 * NULL: a JSON null. Returns <0 on no memory. */
static int value_json(sqlite3_value *v, floe_json *tmp, floe_json **owned)
{
    memset(tmp, 0, sizeof *tmp);
    *owned = NULL;
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL: tmp->type = FLOE_JSON_NULL; return 0;
    case SQLITE_INTEGER:
        tmp->type = FLOE_JSON_INTEGER;
        tmp->u.i = sqlite3_value_int64(v);
        return 0;
    case SQLITE_FLOAT:
        tmp->type = FLOE_JSON_REAL;
        tmp->u.d = sqlite3_value_double(v);
        return 0;
    default: break;
    }
    const char *s = (const char *)sqlite3_value_text(v);
    if (!s)
        return FLOE_ENOMEM;
    size_t n = (size_t)sqlite3_value_bytes(v);
    if (sqlite3_value_subtype(v) == 'J') {
        int rc = floe__json_parse(owned, s, n, "value");
        if (rc == 0) {
            *tmp = **owned;
            return 0;
        }
        if (rc == FLOE_ENOMEM)
            return rc;
        floe_error_clear();
    }
    tmp->type = FLOE_JSON_STRING;
    tmp->u.s = s;
    tmp->n = (uint32_t)n;
    return 0;
}

static bool is_num(const floe_json *j)
{
    return j->type == FLOE_JSON_INTEGER || j->type == FLOE_JSON_REAL;
}

/* Spark's ordering of two elements (NULL first); kinds that differ order by
 * kind. */
static int cmp(const floe_json *a, const floe_json *b, int depth)
{
    bool an = a->type == FLOE_JSON_NULL, bn = b->type == FLOE_JSON_NULL;
    if (an || bn)
        return an && bn ? 0 : an ? -1 : 1;
    if (is_num(a) && is_num(b)) {
        if (a->type == FLOE_JSON_INTEGER && b->type == FLOE_JSON_INTEGER)
            return a->u.i < b->u.i ? -1 : a->u.i > b->u.i;
        double x = floe__json_num(a), y = floe__json_num(b);
        if (isnan(x) || isnan(y)) /* NaN is the largest, equal to itself */
            return isnan(x) && isnan(y) ? 0 : isnan(x) ? 1 : -1;
        return x < y ? -1 : x > y;
    }
    bool ab = a->type == FLOE_JSON_TRUE || a->type == FLOE_JSON_FALSE;
    bool bb = b->type == FLOE_JSON_TRUE || b->type == FLOE_JSON_FALSE;
    if (ab && bb)
        return (a->type == FLOE_JSON_TRUE) - (b->type == FLOE_JSON_TRUE);
    if (a->type != b->type || ab || bb)
        return (int)a->type < (int)b->type ? -1 : 1;
    if (a->type == FLOE_JSON_STRING) {
        size_t n = a->n < b->n ? a->n : b->n;
        int c = memcmp(a->u.s, b->u.s, n);
        return c ? (c < 0 ? -1 : 1) : a->n < b->n ? -1 : a->n > b->n;
    }
    if (depth > FLOE_JSON_MAX_DEPTH)
        return 0;
    for (size_t k = 0; k < a->n && k < b->n; k++) {
        if (a->type == FLOE_JSON_OBJECT) {
            int c = strcmp(a->keys[k], b->keys[k]);
            if (c)
                return c < 0 ? -1 : 1;
        }
        int c = cmp(&a->u.items[k], &b->u.items[k], depth + 1);
        if (c)
            return c;
    }
    return a->n < b->n ? -1 : a->n > b->n;
}

static bool eq(const floe_json *a, const floe_json *b)
{
    return cmp(a, b, 0) == 0;
}

static int put(floe_jw *w, const floe_json *j, int depth)
{
    if (depth > FLOE_JW_MAX_DEPTH)
        return floe__error(FLOE_EINVALID, "sql", "nested value too deep");
    switch (j->type) {
    case FLOE_JSON_NULL: return floe__jw_null(w);
    case FLOE_JSON_TRUE: return floe__jw_bool(w, true);
    case FLOE_JSON_FALSE: return floe__jw_bool(w, false);
    case FLOE_JSON_INTEGER: return floe__jw_int(w, j->u.i);
    case FLOE_JSON_REAL:
        if (!isfinite(j->u.d))
            return floe__jw_null(w);
        return floe__jw_double(w, j->u.d);
    case FLOE_JSON_STRING: return floe__jw_strn(w, j->u.s, j->n);
    case FLOE_JSON_ARRAY:
    case FLOE_JSON_OBJECT:
        FLOE_TRY(j->type == FLOE_JSON_ARRAY ? floe__jw_arr(w) : floe__jw_obj(w));
        for (size_t k = 0; k < j->n; k++) {
            if (j->type == FLOE_JSON_OBJECT)
                FLOE_TRY(floe__jw_key(w, j->keys[k]));
            FLOE_TRY(put(w, &j->u.items[k], depth + 1));
        }
        return j->type == FLOE_JSON_ARRAY ? floe__jw_arr_end(w) : floe__jw_obj_end(w);
    default: return floe__error(FLOE_EINVALID, "sql", "unexpected JSON value");
    }
}

/* An array of the elements `v[0..n)` (pointers) as the JSON result. */
static void result_array(sqlite3_context *ctx, const floe_json *const *v, size_t n)
{
    floe_buf b = FLOE_BUF_INIT;
    floe_jw w;
    floe__jw_init(&w, &b);
    floe__jw_arr(&w);
    for (size_t k = 0; k < n; k++)
        put(&w, v[k], 0);
    floe__jw_arr_end(&w);
    floe__sql_result_json(ctx, &w, &b);
}

void floe__sql_result_json(sqlite3_context *ctx, floe_jw *w, floe_buf *b)
{
    if (floe__jw_finish(w) < 0 || !b->ptr) {
        sqlite3_result_error_nomem(ctx);
    } else {
        sqlite3_result_text(ctx, b->ptr, (int)b->len, SQLITE_TRANSIENT);
        sqlite3_result_subtype(ctx, 'J');
    }
    floe__buf_free(b);
}

/* One element as the SQLite result: a primitive as its value, a nested one
 * as JSON. */
static void result_elem(sqlite3_context *ctx, const floe_json *j)
{
    switch (j->type) {
    case FLOE_JSON_NULL: sqlite3_result_null(ctx); return;
    case FLOE_JSON_TRUE: sqlite3_result_int(ctx, 1); return;
    case FLOE_JSON_FALSE: sqlite3_result_int(ctx, 0); return;
    case FLOE_JSON_INTEGER: sqlite3_result_int64(ctx, j->u.i); return;
    case FLOE_JSON_REAL: sqlite3_result_double(ctx, j->u.d); return;
    case FLOE_JSON_STRING: sqlite3_result_text(ctx, j->u.s, (int)j->n, SQLITE_TRANSIENT); return;
    default: break;
    }
    floe_buf b = FLOE_BUF_INIT;
    floe_jw w;
    floe__jw_init(&w, &b);
    put(&w, j, 0);
    floe__sql_result_json(ctx, &w, &b);
}

/* Element pointers of array j (n of them; NULL on no memory, error set). */
static const floe_json **elems(sqlite3_context *ctx, const floe_json *j, size_t extra)
{
    const floe_json **v = floe__calloc(j->n + extra + 1, sizeof(const floe_json *));
    if (!v) {
        sqlite3_result_error_nomem(ctx);
        return NULL;
    }
    for (size_t k = 0; k < j->n; k++)
        v[k] = &j->u.items[k];
    return v;
}

/* Drop later duplicates of v[0..n) in place; returns the new count. */
static size_t distinct(const floe_json **v, size_t n)
{
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = 0;
        while (i < m && !eq(v[i], v[k]))
            i++;
        if (i == m)
            v[m++] = v[k];
    }
    return m;
}

static bool contains(const floe_json *arr, const floe_json *x)
{
    for (size_t k = 0; k < arr->n; k++)
        if (eq(&arr->u.items[k], x))
            return true;
    return false;
}

/* ------------------------------------------------------------- functions */

/* size(x) / cardinality(x): elements of an array, entries of a map; -1 for
 * NULL. */
static void size_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_int(ctx, -1);
        return;
    }
    floe_json *j;
    if (!arg_json(ctx, argv, 0, 0, &j))
        return;
    sqlite3_result_int64(ctx, (int64_t)j->n);
    floe__json_free(j);
}

/* element_at(array, i): 1-based, negative from the end, NULL beyond;
 * element_at(map, key): the key's value or NULL. */
static void element_at_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    floe_json *j;
    if (!arg_json(ctx, argv, 0, 0, &j))
        return;
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
    } else if (floe__json_is_object(j)) {
        const char *key = (const char *)sqlite3_value_text(argv[1]);
        const floe_json *v = key ? floe__json_get(j, key) : NULL;
        if (!key)
            sqlite3_result_error_nomem(ctx);
        else if (v)
            result_elem(ctx, v);
        else
            sqlite3_result_null(ctx);
    } else {
        int64_t i = sqlite3_value_int64(argv[1]);
        if (i == 0)
            sqlite3_result_error(ctx, "[INVALID_INDEX_OF_ZERO] The index 0 is invalid.", -1);
        else if (i > (int64_t)j->n || -i > (int64_t)j->n)
            sqlite3_result_null(ctx);
        else
            result_elem(ctx, &j->u.items[i > 0 ? i - 1 : (int64_t)j->n + i]);
    }
    floe__json_free(j);
}

/* map_keys (user data "map_keys") / map_values: arrays of a map's keys or
 * values in the map's order. */
static void map_parts_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    floe_json *j;
    if (!arg_json(ctx, argv, 0, 'o', &j))
        return;
    bool keys = strcmp((const char *)sqlite3_user_data(ctx), "map_keys") == 0;
    floe_json *ks = keys ? floe__calloc(j->n + 1, sizeof *ks) : NULL;
    const floe_json **v = elems(ctx, j, 0);
    if (keys && !ks && v) {
        floe__free(v);
        v = NULL;
        sqlite3_result_error_nomem(ctx);
    }
    if (v) {
        for (size_t k = 0; keys && k < j->n; k++) {
            ks[k].type = FLOE_JSON_STRING;
            ks[k].u.s = j->keys[k];
            ks[k].n = (uint32_t)strlen(j->keys[k]);
            v[k] = &ks[k];
        }
        result_array(ctx, v, j->n);
    }
    floe__free(ks);
    floe__free(v);
    floe__json_free(j);
}

/* array_join(array, delimiter [, nullReplacement]): NULL elements skipped
 * unless replaced. */
static void array_join_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    for (int k = 1; k < argc; k++)
        if (sqlite3_value_type(argv[k]) == SQLITE_NULL) {
            sqlite3_result_null(ctx);
            return;
        }
    floe_json *j;
    if (!arg_json(ctx, argv, 0, 'a', &j))
        return;
    const char *sep = (const char *)sqlite3_value_text(argv[1]);
    const char *rep = argc > 2 ? (const char *)sqlite3_value_text(argv[2]) : NULL;
    floe_buf b = FLOE_BUF_INIT;
    int rc = sep ? 0 : FLOE_ENOMEM;
    bool first = true;
    for (size_t k = 0; rc == 0 && k < j->n; k++) {
        const floe_json *e = &j->u.items[k];
        if (e->type == FLOE_JSON_NULL && !rep)
            continue;
        if (!first)
            rc = floe__buf_puts(&b, sep);
        first = false;
        if (rc < 0)
            break;
        switch (e->type) {
        case FLOE_JSON_NULL: rc = floe__buf_puts(&b, rep); break;
        case FLOE_JSON_STRING: rc = floe__buf_put(&b, e->u.s, e->n); break;
        case FLOE_JSON_INTEGER: rc = floe__buf_printf(&b, "%lld", (long long)e->u.i); break;
        case FLOE_JSON_TRUE:
        case FLOE_JSON_FALSE:
            rc = floe__buf_puts(&b, e->type == FLOE_JSON_TRUE ? "true" : "false");
            break;
        default: {
            floe_jw w;
            floe__jw_init(&w, &b);
            put(&w, e, 0);
            rc = floe__jw_finish(&w);
        }
        }
    }
    if (rc < 0)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_text(ctx, b.ptr ? b.ptr : "", (int)b.len, SQLITE_TRANSIENT);
    floe__buf_free(&b);
    floe__json_free(j);
}

static int asc_cmp(const void *a, const void *b)
{
    return cmp(*(const floe_json *const *)a, *(const floe_json *const *)b, 0);
}

/* array_sort(array): ascending, NULLs last; sort_array(array [, asc]):
 * ascending with NULLs first, descending with NULLs last. The sort is
 * stable (qsort over equal elements is harmless: they print alike). */
static void sort_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    bool array_sort = strcmp((const char *)sqlite3_user_data(ctx), "array_sort") == 0;
    if (argc > 1 && sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    bool asc = argc < 2 || sqlite3_value_int64(argv[1]) != 0;
    floe_json *j;
    if (!arg_json(ctx, argv, 0, 'a', &j))
        return;
    const floe_json **v = elems(ctx, j, 0);
    if (v) {
        size_t n = 0, nulls = 0;
        for (size_t k = 0; k < j->n; k++) {
            if (v[k]->type == FLOE_JSON_NULL)
                nulls++;
            else
                v[n++] = v[k];
        }
        qsort(v, n, sizeof(const floe_json *), asc_cmp);
        if (!asc)
            for (size_t a = 0, z = n; a + 1 < z; a++, z--) {
                const floe_json *t = v[a];
                v[a] = v[z - 1];
                v[z - 1] = t;
            }
        /* NULLs: first for sort_array ascending, else last */
        static const floe_json null_json = {.type = FLOE_JSON_NULL};
        if (!array_sort && asc) {
            memmove(v + nulls, v, n * sizeof(const floe_json *));
            for (size_t k = 0; k < nulls; k++)
                v[k] = &null_json;
        } else {
            for (size_t k = 0; k < nulls; k++)
                v[n + k] = &null_json;
        }
        result_array(ctx, v, n + nulls);
        floe__free(v);
    }
    floe__json_free(j);
}

/* array_max (user data "array_max") / array_min: NULLs skipped. */
static void minmax_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    bool max = strcmp((const char *)sqlite3_user_data(ctx), "array_max") == 0;
    floe_json *j;
    if (!arg_json(ctx, argv, 0, 'a', &j))
        return;
    const floe_json *best = NULL;
    for (size_t k = 0; k < j->n; k++) {
        const floe_json *e = &j->u.items[k];
        if (e->type == FLOE_JSON_NULL)
            continue;
        if (!best || (max ? cmp(e, best, 0) > 0 : cmp(e, best, 0) < 0))
            best = e;
    }
    if (best)
        result_elem(ctx, best);
    else
        sqlite3_result_null(ctx);
    floe__json_free(j);
}

/* array_position(array, x): 1-based index of the first x, 0 if none;
 * array_remove(array, x): without every x. NULL x: NULL. */
static void position_remove_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    bool remove = strcmp((const char *)sqlite3_user_data(ctx), "array_remove") == 0;
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    floe_json *j;
    if (!arg_json(ctx, argv, 0, 'a', &j))
        return;
    floe_json x, *owned = NULL;
    if (value_json(argv[1], &x, &owned) < 0) {
        sqlite3_result_error_nomem(ctx);
    } else if (!remove) {
        int64_t at = 0;
        for (size_t k = 0; k < j->n && !at; k++)
            if (j->u.items[k].type != FLOE_JSON_NULL && eq(&j->u.items[k], &x))
                at = (int64_t)k + 1;
        sqlite3_result_int64(ctx, at);
    } else {
        const floe_json **v = elems(ctx, j, 0);
        if (v) {
            size_t n = 0;
            for (size_t k = 0; k < j->n; k++)
                if (v[k]->type == FLOE_JSON_NULL || !eq(v[k], &x))
                    v[n++] = v[k];
            result_array(ctx, v, n);
            floe__free(v);
        }
    }
    floe__json_free(owned);
    floe__json_free(j);
}

/* array_distinct(a); array_union(a, b), array_except(a, b),
 * array_intersect(a, b) (user data: the name): distinct elements in the
 * order of their first occurrence. */
static void set_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *name = sqlite3_user_data(ctx);
    floe_json *a, *b = NULL;
    if (!arg_json(ctx, argv, 0, 'a', &a))
        return;
    if (argc > 1 && !arg_json(ctx, argv, 1, 'a', &b)) {
        floe__json_free(a);
        return;
    }
    const floe_json **v = elems(ctx, a, b ? b->n : 0);
    if (v) {
        size_t n = a->n;
        if (b && !strcmp(name, "array_union")) {
            for (size_t k = 0; k < b->n; k++)
                v[n++] = &b->u.items[k];
        } else if (b) {
            bool keep_common = !strcmp(name, "array_intersect");
            size_t m = 0;
            for (size_t k = 0; k < n; k++)
                if (contains(b, v[k]) == keep_common)
                    v[m++] = v[k];
            n = m;
        }
        result_array(ctx, v, distinct(v, n));
        floe__free(v);
    }
    floe__json_free(b);
    floe__json_free(a);
}

/* slice(array, start, length): start 1-based (negative from the end). */
static void slice_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    if (sqlite3_value_type(argv[1]) == SQLITE_NULL || sqlite3_value_type(argv[2]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    int64_t start = sqlite3_value_int64(argv[1]), len = sqlite3_value_int64(argv[2]);
    if (start == 0) {
        sqlite3_result_error(ctx,
                             "Unexpected value for start in function slice: SQL array indices "
                             "start at 1.",
                             -1);
        return;
    }
    if (len < 0) {
        sqlite3_result_error(ctx,
                             "Unexpected value for length in function slice: length must be "
                             "greater than or equal to 0.",
                             -1);
        return;
    }
    floe_json *j;
    if (!arg_json(ctx, argv, 0, 'a', &j))
        return;
    int64_t n = (int64_t)j->n, from = start > 0 ? start - 1 : n + start;
    const floe_json **v = elems(ctx, j, 0);
    if (v) {
        if (from < 0 || from >= n)
            result_array(ctx, v, 0);
        else
            result_array(ctx, v + from, (size_t)(len < n - from ? len : n - from));
        floe__free(v);
    }
    floe__json_free(j);
}

/* flatten(array of arrays): NULL if an inner array is NULL. */
static void flatten_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    floe_json *j;
    if (!arg_json(ctx, argv, 0, 'a', &j))
        return;
    size_t total = 0;
    bool null = false, bad = false;
    for (size_t k = 0; k < j->n; k++) {
        const floe_json *e = &j->u.items[k];
        null |= e->type == FLOE_JSON_NULL;
        bad |= e->type != FLOE_JSON_NULL && e->type != FLOE_JSON_ARRAY;
        total += e->type == FLOE_JSON_ARRAY ? e->n : 0;
    }
    if (bad) {
        sqlite3_result_error(ctx, "flatten: argument 1 is not an array of arrays", -1);
    } else if (null) {
        sqlite3_result_null(ctx);
    } else {
        const floe_json **v = floe__calloc(total + 1, sizeof(const floe_json *));
        if (!v) {
            sqlite3_result_error_nomem(ctx);
        } else {
            size_t n = 0;
            for (size_t k = 0; k < j->n; k++)
                for (size_t i = 0; i < j->u.items[k].n; i++)
                    v[n++] = &j->u.items[k].u.items[i];
            result_array(ctx, v, n);
            floe__free(v);
        }
    }
    floe__json_free(j);
}

/* arrays_zip(a1, ...): an array of structs (objects keyed "0", "1", ...)
 * as long as the longest argument, NULL where one is shorter. */
static void arrays_zip_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    floe_json **a = floe__calloc((size_t)argc + 1, sizeof(floe_json *));
    if (!a) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    int got = 0;
    size_t n = 0;
    while (got < argc && arg_json(ctx, argv, got, 'a', &a[got])) {
        if (a[got]->n > n)
            n = a[got]->n;
        got++;
    }
    if (got == argc) {
        floe_buf b = FLOE_BUF_INIT;
        floe_jw w;
        floe__jw_init(&w, &b);
        floe__jw_arr(&w);
        for (size_t k = 0; k < n; k++) {
            floe__jw_obj(&w);
            for (int i = 0; i < argc; i++) {
                char key[16];
                snprintf(key, sizeof key, "%d", i);
                floe__jw_key(&w, key);
                if (k < a[i]->n)
                    put(&w, &a[i]->u.items[k], 0);
                else
                    floe__jw_null(&w);
            }
            floe__jw_obj_end(&w);
        }
        floe__jw_arr_end(&w);
        floe__sql_result_json(ctx, &w, &b);
    }
    for (int i = 0; i < got; i++)
        floe__json_free(a[i]);
    floe__free(a);
}

/* floe_concat_ws_array(sep, array): each non-NULL element preceded by sep
 * (concat_ws's part for an array argument, see print.c); NULL when there
 * is none. */
static void concat_ws_array_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    FLOE_UNUSED(argc);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    floe_json *j;
    if (!arg_json(ctx, argv, 1, 'a', &j))
        return;
    const char *sep = (const char *)sqlite3_value_text(argv[0]);
    floe_buf b = FLOE_BUF_INIT;
    int rc = sep ? 0 : FLOE_ENOMEM;
    bool any = false;
    for (size_t k = 0; rc == 0 && k < j->n; k++) {
        const floe_json *e = &j->u.items[k];
        if (e->type == FLOE_JSON_NULL)
            continue;
        any = true;
        rc = floe__buf_puts(&b, sep);
        if (rc == 0 && e->type == FLOE_JSON_STRING)
            rc = floe__buf_put(&b, e->u.s, e->n);
        else if (rc == 0 && e->type == FLOE_JSON_INTEGER)
            rc = floe__buf_printf(&b, "%lld", (long long)e->u.i);
        else if (rc == 0) {
            floe_jw w;
            floe__jw_init(&w, &b);
            put(&w, e, 0);
            rc = floe__jw_finish(&w);
        }
    }
    if (rc < 0)
        sqlite3_result_error_nomem(ctx);
    else if (!any)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_text(ctx, b.ptr ? b.ptr : "", (int)b.len, SQLITE_TRANSIENT);
    floe__buf_free(&b);
    floe__json_free(j);
}

/* ------------------------------------------------------------- registry */

int floe__sql_register_array_functions(floe_sql_session *s)
{
    const int det = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    static const struct {
        const char *name;
        int nargs;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {
        {"size", 1, size_fn},
        {"cardinality", 1, size_fn},
        {"element_at", 2, element_at_fn},
        {"map_keys", 1, map_parts_fn},
        {"map_values", 1, map_parts_fn},
        {"array_join", 2, array_join_fn},
        {"array_join", 3, array_join_fn},
        {"array_sort", 1, sort_fn},
        {"sort_array", 1, sort_fn},
        {"sort_array", 2, sort_fn},
        {"array_max", 1, minmax_fn},
        {"array_min", 1, minmax_fn},
        {"array_position", 2, position_remove_fn},
        {"array_remove", 2, position_remove_fn},
        {"array_distinct", 1, set_fn},
        {"array_union", 2, set_fn},
        {"array_except", 2, set_fn},
        {"array_intersect", 2, set_fn},
        {"slice", 3, slice_fn},
        {"flatten", 1, flatten_fn},
        {"arrays_zip", -1, arrays_zip_fn},
        {"floe_concat_ws_array", 2, concat_ws_array_fn},
    };
    for (size_t k = 0; k < FLOE_ARRAY_LEN(fns); k++)
        if (sqlite3_create_function(s->db, fns[k].name, fns[k].nargs, det, (void *)fns[k].name,
                                    fns[k].fn, NULL, NULL) != SQLITE_OK)
            return floe__error(FLOE_ENOMEM, "sql", "cannot register %s(): %s", fns[k].name,
                               sqlite3_errmsg(s->db));
    return 0;
}
