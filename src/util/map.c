/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Open-addressing hash maps (linear probing, tombstones) keyed by borrowed
 * C strings or by 64-bit integers (snapshot ids, field ids).
 */
#include "util.h"

#include <string.h>

uint64_t floe__hash_bytes(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static uint64_t hash_int(int64_t k)
{
    uint64_t x = (uint64_t)k;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

enum { SLOT_EMPTY = 0, SLOT_FULL = 1, SLOT_DEAD = 2 };

typedef struct map_slot {
    union {
        const char *s;
        int64_t i;
    } key;
    void *value;
    uint64_t hash;
    unsigned char state;
} map_slot;

typedef struct map {
    map_slot *slots;
    size_t cap; /* power of two */
    size_t len;
    size_t used; /* full + dead */
    bool strkeys;
} map;

struct floe_strmap {
    map m;
};
struct floe_intmap {
    map m;
};

static bool key_eq(const map *m, const map_slot *s, const char *skey, int64_t ikey)
{
    /* string maps are always looked up with a string key (the analyzer
     * does not relate skey to m->strkeys) */
    /* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
    return m->strkeys ? strcmp(s->key.s, skey) == 0 : s->key.i == ikey;
}

static map_slot *find(const map *m, uint64_t h, const char *skey, int64_t ikey)
{
    if (!m->cap)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        map_slot *s = &m->slots[i];
        if (s->state == SLOT_EMPTY)
            return NULL;
        if (s->state == SLOT_FULL && s->hash == h && key_eq(m, s, skey, ikey))
            return s;
    }
}

static int grow(map *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 16;
    if (m->len * 4 < m->cap) /* mostly tombstones: rehash in place size */
        ncap = m->cap;
    map_slot *ns = floe__calloc(ncap, sizeof *ns);
    if (!ns)
        return FLOE_ENOMEM;
    for (size_t i = 0; i < m->cap; i++) {
        map_slot *s = &m->slots[i];
        if (s->state != SLOT_FULL)
            continue;
        size_t j = s->hash & (ncap - 1);
        while (ns[j].state == SLOT_FULL)
            j = (j + 1) & (ncap - 1);
        ns[j] = *s;
    }
    floe__free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    m->used = m->len;
    return 0;
}

static int put(map *m, uint64_t h, const char *skey, int64_t ikey, void *value)
{
    map_slot *s = find(m, h, skey, ikey);
    if (s) {
        s->value = value;
        return 0;
    }
    if ((m->used + 1) * 4 > m->cap * 3)
        FLOE_TRY(grow(m));
    size_t mask = m->cap - 1;
    size_t i = h & mask;
    while (m->slots[i].state == SLOT_FULL)
        i = (i + 1) & mask;
    s = &m->slots[i];
    if (s->state == SLOT_EMPTY)
        m->used++;
    s->state = SLOT_FULL;
    s->hash = h;
    if (m->strkeys)
        s->key.s = skey;
    else
        s->key.i = ikey;
    s->value = value;
    m->len++;
    return 0;
}

static bool del(map *m, uint64_t h, const char *skey, int64_t ikey)
{
    map_slot *s = find(m, h, skey, ikey);
    if (!s)
        return false;
    s->state = SLOT_DEAD;
    m->len--;
    return true;
}

static bool next(const map *m, size_t *iter, map_slot **out)
{
    while (*iter < m->cap) {
        map_slot *s = &m->slots[(*iter)++];
        if (s->state == SLOT_FULL) {
            *out = s;
            return true;
        }
    }
    return false;
}

floe_strmap *floe__strmap_new(void)
{
    floe_strmap *m = floe__calloc(1, sizeof *m);
    if (m)
        m->m.strkeys = true;
    return m;
}
void floe__strmap_free(floe_strmap *m)
{
    if (m) {
        floe__free(m->m.slots);
        floe__free(m);
    }
}
int floe__strmap_put(floe_strmap *m, const char *key, void *value)
{
    return put(&m->m, floe__hash_bytes(key, strlen(key)), key, 0, value);
}
void *floe__strmap_get(const floe_strmap *m, const char *key)
{
    map_slot *s = find(&m->m, floe__hash_bytes(key, strlen(key)), key, 0);
    return s ? s->value : NULL;
}
bool floe__strmap_has(const floe_strmap *m, const char *key)
{
    return find(&m->m, floe__hash_bytes(key, strlen(key)), key, 0) != NULL;
}
bool floe__strmap_del(floe_strmap *m, const char *key)
{
    return del(&m->m, floe__hash_bytes(key, strlen(key)), key, 0);
}
size_t floe__strmap_len(const floe_strmap *m)
{
    return m->m.len;
}
bool floe__strmap_next(const floe_strmap *m, size_t *iter, const char **key, void **value)
{
    map_slot *s;
    if (!next(&m->m, iter, &s))
        return false;
    if (key)
        *key = s->key.s;
    if (value)
        *value = s->value;
    return true;
}

floe_intmap *floe__intmap_new(void)
{
    return floe__calloc(1, sizeof(floe_intmap));
}
void floe__intmap_free(floe_intmap *m)
{
    if (m) {
        floe__free(m->m.slots);
        floe__free(m);
    }
}
int floe__intmap_put(floe_intmap *m, int64_t key, void *value)
{
    return put(&m->m, hash_int(key), NULL, key, value);
}
void *floe__intmap_get(const floe_intmap *m, int64_t key)
{
    map_slot *s = find(&m->m, hash_int(key), NULL, key);
    return s ? s->value : NULL;
}
bool floe__intmap_has(const floe_intmap *m, int64_t key)
{
    return find(&m->m, hash_int(key), NULL, key) != NULL;
}
bool floe__intmap_del(floe_intmap *m, int64_t key)
{
    return del(&m->m, hash_int(key), NULL, key);
}
size_t floe__intmap_len(const floe_intmap *m)
{
    return m->m.len;
}
bool floe__intmap_next(const floe_intmap *m, size_t *iter, int64_t *key, void **value)
{
    map_slot *s;
    if (!next(&m->m, iter, &s))
        return false;
    if (key)
        *key = s->key.i;
    if (value)
        *value = s->value;
    return true;
}
