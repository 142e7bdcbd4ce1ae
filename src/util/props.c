/* SPDX-License-Identifier: Apache-2.0 */
/* Ordered string properties (table properties, IO/catalog configuration). */
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static floe_kv *find(const floe_props *p, const char *key)
{
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->items[i].key, key) == 0)
            return &p->items[i];
    return NULL;
}

int floe__props_set(floe_props *p, const char *key, const char *value)
{
    char *v = floe__strdup(value);
    if (!v)
        return FLOE_ENOMEM;
    floe_kv *kv = find(p, key);
    if (kv) {
        floe__free(kv->value);
        kv->value = v;
        return 0;
    }
    char *k = floe__strdup(key);
    if (!k) {
        floe__free(v);
        return FLOE_ENOMEM;
    }
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 8;
        floe_kv *items = floe__realloc(p->items, cap * sizeof *items);
        if (!items) {
            floe__free(k);
            floe__free(v);
            return FLOE_ENOMEM;
        }
        p->items = items;
        p->cap = cap;
    }
    p->items[p->n].key = k;
    p->items[p->n].value = v;
    p->n++;
    return 0;
}

const char *floe__props_get(const floe_props *p, const char *key)
{
    floe_kv *kv = find(p, key);
    return kv ? kv->value : NULL;
}

bool floe__props_del(floe_props *p, const char *key)
{
    floe_kv *kv = find(p, key);
    if (!kv)
        return false;
    floe__free(kv->key);
    floe__free(kv->value);
    size_t i = (size_t)(kv - p->items);
    memmove(&p->items[i], &p->items[i + 1], (p->n - i - 1) * sizeof *kv);
    p->n--;
    return true;
}

int floe__props_copy(floe_props *dst, const floe_props *src)
{
    for (size_t i = 0; i < src->n; i++)
        FLOE_TRY(floe__props_set(dst, src->items[i].key, src->items[i].value));
    return 0;
}

int floe__props_get_int64(const floe_props *p, const char *key, int64_t def, int64_t *out)
{
    const char *v = floe__props_get(p, key);
    if (!v) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end != '\0')
        return floe__error(FLOE_EINVALID, "props", "property %s: not an integer: %s", key, v);
    *out = x;
    return 0;
}

int floe__props_get_bool(const floe_props *p, const char *key, bool def, bool *out)
{
    const char *v = floe__props_get(p, key);
    if (!v) {
        *out = def;
        return 0;
    }
    if (strcasecmp(v, "true") == 0) {
        *out = true;
        return 0;
    }
    if (strcasecmp(v, "false") == 0) {
        *out = false;
        return 0;
    }
    return floe__error(FLOE_EINVALID, "props", "property %s: not a boolean: %s", key, v);
}

void floe__props_free(floe_props *p)
{
    for (size_t i = 0; i < p->n; i++) {
        floe__free(p->items[i].key);
        floe__free(p->items[i].value);
    }
    floe__free(p->items);
    p->items = NULL;
    p->n = p->cap = 0;
}

/* ---------------------------------------------------------------- public API
 * (include/floe/common.h) */

int floe_props_new(floe_props **out)
{
    if (!out)
        return floe__error(FLOE_EINVALID, "props", "floe_props_new: out is NULL");
    *out = floe__calloc(1, sizeof **out);
    return *out ? 0 : floe__error_nomem();
}

int floe_props_set(floe_props *props, const char *key, const char *value)
{
    if (!props || !key || !value)
        return floe__error(FLOE_EINVALID, "props", "floe_props_set: %s is NULL",
                           !props ? "props"
                           : !key ? "key"
                                  : "value");
    /* the internal setter returns FLOE_ENOMEM without raising it */
    return floe__props_set(props, key, value) == 0 ? 0 : floe__error_nomem();
}

const char *floe_props_get(const floe_props *props, const char *key)
{
    return props && key ? floe__props_get(props, key) : NULL;
}

bool floe_props_remove(floe_props *props, const char *key)
{
    return props && key && floe__props_del(props, key);
}

size_t floe_props_count(const floe_props *props)
{
    return props ? props->n : 0;
}

const char *floe_props_key_at(const floe_props *props, size_t i)
{
    return props && i < props->n ? props->items[i].key : NULL;
}

const char *floe_props_value_at(const floe_props *props, size_t i)
{
    return props && i < props->n ? props->items[i].value : NULL;
}

void floe_props_free(floe_props *props)
{
    if (!props)
        return;
    floe__props_free(props);
    floe__free(props);
}
