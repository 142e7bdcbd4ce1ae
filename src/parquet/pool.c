/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/pool: recycling of the buffers the reader hands out in Arrow
 * batches. A batch owns its buffers (Arrow C data interface), so without
 * recycling every row group is decoded into freshly allocated memory, and
 * the allocator returns large freed blocks to the kernel: each page of the
 * next row group's output faulted in again (about a sixth of the read time).
 * Here the release callback of each top-level column of a batch gives the
 * column's buffers back to a pool shared with the reader, which decodes the
 * next row group into them. Batches may outlive the reader and be released
 * from any thread: the pool is reference counted and locked.
 */
#include "parquet/column.h"

#include <pthread.h>
#include <string.h>

typedef struct pool_entry {
    void *ptr;
    size_t cap;
} pool_entry;

struct floe_pq_pool {
    pthread_mutex_t mu;
    int refs;          /* the reader + every wrapped column not yet released */
    size_t n, max;
    pool_entry *items; /* max entries */
    size_t bytes;      /* held in items */
    size_t max_bytes;  /* the largest batch handed out: the pool never holds more */
};

/* A wrapped column: the builder's release and private data, restored before
 * calling it, and the capacity of each buffer (0: not recycled). */
typedef struct pooled {
    void *priv;
    void (*release)(struct ArrowArray *);
    floe_pq_pool *pool;
    size_t cap[3];
} pooled;

static void pool_destroy(floe_pq_pool *p)
{
    for (size_t i = 0; i < p->n; i++)
        floe__free(p->items[i].ptr);
    floe__free(p->items);
    pthread_mutex_destroy(&p->mu);
    floe__free(p);
}

floe_pq_pool *floe__pq_pool_new(size_t max)
{
    floe_pq_pool *p = floe__calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    p->items = floe__calloc(max ? max : 1, sizeof(pool_entry));
    if (!p->items || pthread_mutex_init(&p->mu, NULL) != 0) {
        floe__free(p->items);
        floe__free(p);
        return NULL;
    }
    p->max = max;
    p->refs = 1;
    return p;
}

static void pool_unref(floe_pq_pool *p)
{
    pthread_mutex_lock(&p->mu);
    bool last = --p->refs == 0;
    pthread_mutex_unlock(&p->mu);
    if (last)
        pool_destroy(p);
}

void floe__pq_pool_release(floe_pq_pool *p)
{
    if (p)
        pool_unref(p);
}

/* The smallest pooled buffer of at least `want` bytes, else the largest. */
static bool pool_get(floe_pq_pool *p, size_t want, pool_entry *out)
{
    pthread_mutex_lock(&p->mu);
    size_t best = SIZE_MAX, big = SIZE_MAX;
    for (size_t i = 0; i < p->n; i++) {
        if (p->items[i].cap >= want && (best == SIZE_MAX || p->items[i].cap < p->items[best].cap))
            best = i;
        if (big == SIZE_MAX || p->items[i].cap > p->items[big].cap)
            big = i;
    }
    size_t k = best != SIZE_MAX ? best : big;
    bool found = k != SIZE_MAX;
    if (found) {
        *out = p->items[k];
        p->bytes -= out->cap;
        p->items[k] = p->items[--p->n];
    }
    pthread_mutex_unlock(&p->mu);
    return found;
}

void floe__pq_pool_fill(floe_pq_pool *p, floe_buf *b, size_t want)
{
    pool_entry e;
    if (!p || b->ptr || !pool_get(p, want, &e))
        return;
    b->ptr = e.ptr;
    b->cap = e.cap;
    b->len = 0;
    b->ptr[0] = '\0';
}

void floe__pq_pool_fill_bin(floe_pq_pool *p, floe_pq_binvals *b, size_t want_values)
{
    pool_entry e;
    if (!p || b->offsets || want_values > SIZE_MAX / 4 - 1 ||
        !pool_get(p, (want_values + 1) * 4, &e))
        return;
    if (e.cap < 8) {
        floe__free(e.ptr);
        return;
    }
    b->offsets = e.ptr;
    b->offsets[0] = 0;
    b->cap = e.cap / 4 - 1;
    b->n = 0;
}

static void pooled_release(struct ArrowArray *a)
{
    if (!a || !a->release)
        return;
    pooled *q = a->private_data;
    floe_pq_pool *p = q->pool;
    pthread_mutex_lock(&p->mu);
    for (int64_t i = 0; i < a->n_buffers && i < 3; i++) {
        if (a->buffers[i] && q->cap[i] >= 64 && p->n < p->max &&
            q->cap[i] <= p->max_bytes - p->bytes) {
            p->items[p->n].ptr = (void *)(uintptr_t)a->buffers[i];
            p->items[p->n].cap = q->cap[i];
            p->bytes += q->cap[i];
            p->n++;
            a->buffers[i] = NULL; /* the builder's release frees NULL: nothing */
        }
    }
    pthread_mutex_unlock(&p->mu);
    a->private_data = q->priv;
    a->release = q->release;
    floe__free(q);
    a->release(a);
    pool_unref(p);
}

void floe__pq_pool_caps(const floe_arrow_builder *b, size_t cap[3])
{
    cap[0] = cap[1] = cap[2] = 0;
    if (b->nchildren)
        return;
    if (b->null_count)
        cap[0] = b->validity.cap;
    if (b->kind == FLOE_AK_BOOL || b->kind == FLOE_AK_FIXED) {
        cap[1] = b->values.cap;
    } else if (b->kind == FLOE_AK_BINARY) {
        cap[1] = b->offsets.cap;
        cap[2] = b->data.cap;
    }
}

void floe__pq_pool_batch(floe_pq_pool *p, size_t bytes)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    if (bytes > p->max_bytes)
        p->max_bytes = bytes;
    pthread_mutex_unlock(&p->mu);
}

int floe__pq_pool_wrap(floe_pq_pool *p, struct ArrowArray *a, const size_t cap[3])
{
    if (!p || !a->release || a->n_children || a->n_buffers > 3)
        return 0;
    pooled *q = floe__malloc(sizeof(*q));
    if (!q)
        return floe__error_nomem();
    q->priv = a->private_data;
    q->release = a->release;
    q->pool = p;
    memcpy(q->cap, cap, sizeof(q->cap));
    pthread_mutex_lock(&p->mu);
    p->refs++;
    pthread_mutex_unlock(&p->mu);
    a->private_data = q;
    a->release = pooled_release;
    return 0;
}
