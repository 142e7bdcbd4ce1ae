/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Arena (bump) allocator. Parsed immutable objects own one arena, so freeing
 * a whole manifest or table metadata is one call. In debug mode
 * (FLOE_ARENA_DEBUG=1) each allocation is a separate heap block, so ASan sees
 * out-of-bounds accesses inside what would otherwise be one big block.
 */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct arena_block {
    struct arena_block *next;
    size_t size;
    size_t used;
    _Alignas(16) unsigned char data[];
} arena_block;

struct floe_arena {
    arena_block *head;
    size_t block_size;
    size_t bytes;
    bool debug;
};

static bool arena_debug_env(void)
{
    static int cached = -1;
    if (cached < 0) {
        const char *v = getenv("FLOE_ARENA_DEBUG");
        cached = (v && v[0] == '1') ? 1 : 0;
    }
    return cached == 1;
}

floe_arena *floe__arena_new(size_t block_size)
{
    floe_arena *a = floe__calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->block_size = block_size ? block_size : 8192;
    a->debug = arena_debug_env();
    return a;
}

void floe__arena_reset(floe_arena *a)
{
    if (!a)
        return;
    arena_block *b = a->head;
    arena_block *keep = NULL;
    while (b) {
        arena_block *next = b->next;
        if (!next && !a->debug) {
            keep = b; /* oldest block, the one of the configured size */
            break;
        }
        floe__free(b);
        b = next;
    }
    if (keep) {
        keep->used = 0;
        keep->next = NULL;
    }
    a->head = keep;
    a->bytes = 0;
}

void floe__arena_free(floe_arena *a)
{
    if (!a)
        return;
    arena_block *b = a->head;
    while (b) {
        arena_block *next = b->next;
        floe__free(b);
        b = next;
    }
    floe__free(a);
}

void *floe__arena_alloc(floe_arena *a, size_t size)
{
    size_t need = (size + 15) & ~(size_t)15;
    if (need < size) {
        floe__error_nomem();
        return NULL;
    }
    if (a->debug) {
        arena_block *b = floe__malloc(sizeof *b + (size ? size : 1));
        if (!b)
            return NULL;
        b->size = size;
        b->used = size;
        b->next = a->head;
        a->head = b;
        a->bytes += size;
        return b->data;
    }
    arena_block *h = a->head;
    if (!h || h->size - h->used < need) {
        size_t bsize = a->block_size;
        if (need > bsize / 4) {
            /* Big object: its own block, linked behind the head so the
             * current head keeps serving small allocations. */
            arena_block *big = floe__malloc(sizeof *big + need);
            if (!big)
                return NULL;
            big->size = need;
            big->used = need;
            if (h) {
                big->next = h->next;
                h->next = big;
            } else {
                big->next = NULL;
                a->head = big;
            }
            a->bytes += size;
            return big->data;
        }
        arena_block *nb = floe__malloc(sizeof *nb + bsize);
        if (!nb)
            return NULL;
        nb->size = bsize;
        nb->used = 0;
        nb->next = h;
        a->head = nb;
        h = nb;
        /* Grow blocks geometrically up to 1 MiB: big parses make few blocks. */
        if (a->block_size < (1u << 20))
            a->block_size *= 2;
    }
    void *p = h->data + h->used;
    h->used += need;
    a->bytes += size;
    return p;
}

void *floe__arena_calloc(floe_arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) {
        floe__error_nomem();
        return NULL;
    }
    void *p = floe__arena_alloc(a, n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

void *floe__arena_memdup(floe_arena *a, const void *src, size_t n)
{
    void *p = floe__arena_alloc(a, n);
    if (p && n)
        memcpy(p, src, n);
    return p;
}

char *floe__arena_strndup(floe_arena *a, const char *s, size_t n)
{
    char *p = floe__arena_alloc(a, n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *floe__arena_strdup(floe_arena *a, const char *s)
{
    return floe__arena_strndup(a, s, strlen(s));
}

char *floe__arena_sprintf(floe_arena *a, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        floe__error(FLOE_EINVALID, "arena", "bad format");
        return NULL;
    }
    char *p = floe__arena_alloc(a, (size_t)n + 1);
    if (!p)
        return NULL;
    if ((size_t)n < sizeof small) {
        memcpy(p, small, (size_t)n + 1);
    } else {
        va_start(ap, fmt);
        vsnprintf(p, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return p;
}

size_t floe__arena_bytes(const floe_arena *a)
{
    return a ? a->bytes : 0;
}
