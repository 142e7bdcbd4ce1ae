/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/json: small helpers over jansson shared by the metadata parsers —
 * allocation routed through floe__malloc, parse errors as FLOE_ECORRUPT with
 * line/column, typed member access whose messages name the field (so a user
 * can find it in the file), and JSON string output.
 */
#include "spec/spec.h"

#include <pthread.h>
#include <string.h>

/* jansson turns some failed allocations into syntax errors ("string or '}'
 * expected"), so remember on this thread whether one failed during a parse. */
static _Thread_local bool json_oom;

static void *json_malloc(size_t n)
{
    void *p = floe__malloc(n);
    if (!p)
        json_oom = true;
    return p;
}

static void json_alloc_init(void)
{
    json_set_alloc_funcs(json_malloc, floe__free);
}

void floe__json_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, json_alloc_init);
}

int floe__json_parse(json_t **out, const void *data, size_t len, const char *what)
{
    floe__json_init();
    json_error_t err;
    json_oom = false;
    *out = json_loadb(data, len, JSON_ALLOW_NUL, &err);
    if (*out)
        return 0;
    if (json_oom || json_error_code(&err) == json_error_out_of_memory)
        return floe__error_nomem();
    return floe__error(FLOE_ECORRUPT, "json", "%s: malformed JSON at line %d column %d (offset %d): %s",
                       what, err.line, err.column, err.position, err.text);
}

static int missing(const char *key, const char *ctx)
{
    return floe__error(FLOE_EINVALID, "json", "missing required field '%s' in %s", key, ctx);
}

static int wrong(const char *key, const char *ctx, const char *want)
{
    return floe__error(FLOE_EINVALID, "json", "field '%s' in %s must be %s", key, ctx, want);
}

int floe__json_int_opt(const json_t *o, const char *key, const char *ctx, int64_t *out,
                       bool *present)
{
    json_t *v = json_object_get(o, key);
    *present = false;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_integer(v))
        return wrong(key, ctx, "an integer");
    *out = (int64_t)json_integer_value(v);
    *present = true;
    return 0;
}

int floe__json_int(const json_t *o, const char *key, const char *ctx, int64_t *out)
{
    bool present;
    FLOE_TRY(floe__json_int_opt(o, key, ctx, out, &present));
    return present ? 0 : missing(key, ctx);
}

int floe__json_i32(const json_t *o, const char *key, const char *ctx, int32_t *out)
{
    int64_t v;
    FLOE_TRY(floe__json_int(o, key, ctx, &v));
    if (v < INT32_MIN || v > INT32_MAX)
        return wrong(key, ctx, "a 32-bit integer");
    *out = (int32_t)v;
    return 0;
}

int floe__json_str_opt(const json_t *o, const char *key, const char *ctx, floe_arena *a,
                       const char **out)
{
    json_t *v = json_object_get(o, key);
    *out = NULL;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return wrong(key, ctx, "a string");
    *out = floe__arena_strndup(a, json_string_value(v), json_string_length(v));
    return *out ? 0 : floe__error_nomem();
}

int floe__json_str(const json_t *o, const char *key, const char *ctx, floe_arena *a,
                   const char **out)
{
    FLOE_TRY(floe__json_str_opt(o, key, ctx, a, out));
    return *out ? 0 : missing(key, ctx);
}

int floe__json_bool_opt(const json_t *o, const char *key, const char *ctx, bool *out,
                        bool *present)
{
    json_t *v = json_object_get(o, key);
    *present = false;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_boolean(v))
        return wrong(key, ctx, "a boolean");
    *out = json_is_true(v);
    *present = true;
    return 0;
}

int floe__json_array_opt(const json_t *o, const char *key, const char *ctx, json_t **out)
{
    json_t *v = json_object_get(o, key);
    *out = NULL;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_array(v))
        return wrong(key, ctx, "an array");
    *out = v;
    return 0;
}

int floe__json_object_opt(const json_t *o, const char *key, const char *ctx, json_t **out)
{
    json_t *v = json_object_get(o, key);
    *out = NULL;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_object(v))
        return wrong(key, ctx, "an object");
    *out = v;
    return 0;
}

int floe__json_put_str(floe_buf *b, const char *s)
{
    FLOE_TRY(floe__buf_putc(b, '"'));
    FLOE_TRY(floe__buf_put_json_escaped(b, s, strlen(s)));
    return floe__buf_putc(b, '"');
}
