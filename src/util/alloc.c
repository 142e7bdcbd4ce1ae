/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Allocation: every byte the library allocates goes through these wrappers,
 * so callers can install their own allocator and tests can fail the Nth
 * allocation to prove that out-of-memory is reported cleanly (SQLite's and
 * libgit2's fail-allocator technique).
 */
#include "util.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *default_malloc(size_t size, void *payload)
{
    (void)payload;
    return malloc(size);
}
static void *default_realloc(void *ptr, size_t size, void *payload)
{
    (void)payload;
    return realloc(ptr, size);
}
static void default_free(void *ptr, void *payload)
{
    (void)payload;
    free(ptr);
}

static floe_allocator alloc_hooks = {default_malloc, default_realloc, default_free, NULL};

static atomic_long fail_at;    /* 0: disarmed; otherwise countdown target */
static atomic_long alloc_seen; /* allocations since arming */

int floe_set_allocator(const floe_allocator *a)
{
    if (!a) {
        alloc_hooks = (floe_allocator){default_malloc, default_realloc, default_free, NULL};
        return 0;
    }
    if ((a->malloc_fn == NULL) != (a->free_fn == NULL))
        return floe__error(FLOE_EINVALID, "alloc", "malloc_fn and free_fn must be set together");
    alloc_hooks.malloc_fn = a->malloc_fn ? a->malloc_fn : default_malloc;
    alloc_hooks.realloc_fn = a->realloc_fn ? a->realloc_fn : default_realloc;
    alloc_hooks.free_fn = a->free_fn ? a->free_fn : default_free;
    alloc_hooks.payload = a->payload;
    return 0;
}

void floe__alloc_fail_at(long nth)
{
    atomic_store(&alloc_seen, 0);
    atomic_store(&fail_at, nth);
}

long floe__alloc_count(void)
{
    return atomic_load(&alloc_seen);
}

static bool should_fail(void)
{
    long target = atomic_load_explicit(&fail_at, memory_order_relaxed);
    long n = atomic_fetch_add_explicit(&alloc_seen, 1, memory_order_relaxed) + 1;
    return target > 0 && n >= target;
}

void *floe__malloc(size_t size)
{
    if (should_fail()) {
        floe__error_nomem();
        return NULL;
    }
    void *p = alloc_hooks.malloc_fn(size ? size : 1, alloc_hooks.payload);
    if (!p)
        floe__error_nomem();
    return p;
}

void *floe__calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) {
        floe__error_nomem();
        return NULL;
    }
    void *p = floe__malloc(n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

void *floe__realloc(void *ptr, size_t size)
{
    if (should_fail()) {
        floe__error_nomem();
        return NULL;
    }
    void *p = alloc_hooks.realloc_fn(ptr, size ? size : 1, alloc_hooks.payload);
    if (!p)
        floe__error_nomem();
    return p;
}

void floe__free(void *ptr)
{
    if (ptr)
        alloc_hooks.free_fn(ptr, alloc_hooks.payload);
}

void floe_string_free(char *s)
{
    floe__free(s);
}

char *floe__strndup(const char *s, size_t n)
{
    char *p = floe__malloc(n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *floe__strdup(const char *s)
{
    return floe__strndup(s, strlen(s));
}

char *floe__sprintf(const char *fmt, ...)
{
    floe_buf b = FLOE_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    int rc = floe__buf_vprintf(&b, fmt, ap);
    va_end(ap);
    if (rc < 0) {
        floe__buf_free(&b);
        return NULL;
    }
    return floe__buf_detach(&b);
}
