/* SPDX-License-Identifier: Apache-2.0 */
/*
 * In-memory FileIO backend (mem://...), for tests and scratch tables. Objects
 * are immutable byte strings keyed by their full URI; create-new, listing by
 * prefix and batched removal behave as on an object store. One mutex guards
 * the store, so several threads may write through one instance. Inputs keep
 * a reference to the object's bytes, so removing an object does not disturb
 * a reader that opened it earlier.
 */
#include "io.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct mem_blob {
    long refs; /* guarded by the store mutex */
    size_t len;
    int64_t mtime_ms;
    unsigned char data[];
} mem_blob;

typedef struct mem_store {
    pthread_mutex_t lock;
    floe_strmap *objects; /* uri (owned by the map entry) -> mem_blob */
} mem_store;

static mem_store *store_of(floe_fileio *io)
{
    return io->impl;
}

static void blob_unref(mem_store *s, mem_blob *b)
{
    pthread_mutex_lock(&s->lock);
    long left = --b->refs;
    pthread_mutex_unlock(&s->lock);
    if (left == 0)
        floe__free(b);
}

/* ---------------------------------------------------------------- input */

typedef struct mem_input {
    floe_input base;
    mem_store *store;
    mem_blob *blob;
} mem_input;

static int mem_read_at(floe_input *in, int64_t offset, void *buf, size_t len)
{
    mem_input *mi = (mem_input *)in;
    if (offset < 0 || (uint64_t)offset > mi->blob->len || len > mi->blob->len - (size_t)offset)
        return floe__error(FLOE_ECORRUPT, "io",
                           "read of %zu bytes at offset %lld is past the end of %s (%zu bytes)",
                           len, (long long)offset, in->uri, mi->blob->len);
    if (len)
        memcpy(buf, mi->blob->data + offset, len);
    return 0;
}

static void mem_close(floe_input *in)
{
    mem_input *mi = (mem_input *)in;
    if (!mi)
        return;
    blob_unref(mi->store, mi->blob);
    floe__free((char *)in->uri);
    floe__free(mi);
}

static int mem_open_input(floe_input **out, floe_fileio *io, const char *uri)
{
    mem_store *s = store_of(io);
    *out = NULL;
    mem_input *mi = floe__calloc(1, sizeof *mi);
    char *u = floe__strdup(uri);
    if (!mi || !u) {
        floe__free(mi);
        floe__free(u);
        return FLOE_ENOMEM;
    }
    pthread_mutex_lock(&s->lock);
    mem_blob *b = floe__strmap_get(s->objects, uri);
    if (b)
        b->refs++;
    pthread_mutex_unlock(&s->lock);
    if (!b) {
        floe__free(mi);
        floe__free(u);
        return floe__error(FLOE_ENOTFOUND, "io", "opening %s: not found", uri);
    }
    mi->store = s;
    mi->blob = b;
    mi->base.uri = u;
    mi->base.size = (int64_t)b->len;
    mi->base.read_at = mem_read_at;
    mi->base.close = mem_close;
    *out = &mi->base;
    return 0;
}

/* ---------------------------------------------------------------- output */

typedef struct mem_output {
    floe_output base;
    mem_store *store;
    floe_buf data;
} mem_output;

static void mem_output_free(mem_output *mo)
{
    floe__buf_free(&mo->data);
    floe__free((char *)mo->base.uri);
    floe__free(mo);
}

static int mem_write(floe_output *out, const void *data, size_t len)
{
    mem_output *mo = (mem_output *)out;
    return floe__buf_put(&mo->data, data, len);
}

static int mem_commit(floe_output *out)
{
    mem_output *mo = (mem_output *)out;
    mem_store *s = mo->store;
    int rc = 0;
    mem_blob *b = NULL;
    char *key = NULL;
    if (mo->data.len > SIZE_MAX - sizeof *b) {
        rc = floe__error(FLOE_ENOMEM, "io", "object %s too large", out->uri);
        goto done;
    }
    b = floe__malloc(sizeof *b + mo->data.len);
    key = floe__strdup(out->uri);
    if (!b || !key) {
        rc = FLOE_ENOMEM;
        goto done;
    }
    b->refs = 1;
    b->len = mo->data.len;
    b->mtime_ms = floe__now_ms();
    if (b->len)
        memcpy(b->data, mo->data.ptr, b->len);
    pthread_mutex_lock(&s->lock);
    if (floe__strmap_has(s->objects, key))
        rc = floe__error(FLOE_EEXISTS, "io", "Cannot create %s: already exists", out->uri);
    else
        rc = floe__strmap_put(s->objects, key, b);
    pthread_mutex_unlock(&s->lock);
    if (rc == 0)
        b = NULL, key = NULL; /* owned by the store now */
done:
    floe__free(b);
    floe__free(key);
    mem_output_free(mo);
    return rc;
}

static void mem_abort(floe_output *out)
{
    if (out)
        mem_output_free((mem_output *)out);
}

static int mem_create_output(floe_output **out, floe_fileio *io, const char *uri)
{
    mem_store *s = store_of(io);
    *out = NULL;
    pthread_mutex_lock(&s->lock);
    bool exists = floe__strmap_has(s->objects, uri);
    pthread_mutex_unlock(&s->lock);
    if (exists)
        return floe__error(FLOE_EEXISTS, "io", "Cannot create %s: already exists", uri);
    mem_output *mo = floe__calloc(1, sizeof *mo);
    if (!mo)
        return FLOE_ENOMEM;
    mo->base.uri = floe__strdup(uri);
    if (!mo->base.uri) {
        floe__free(mo);
        return FLOE_ENOMEM;
    }
    mo->store = s;
    mo->base.write = mem_write;
    mo->base.commit = mem_commit;
    mo->base.abort = mem_abort;
    *out = &mo->base;
    return 0;
}

/* ---------------------------------------------------------------- remove, stat, list */

static int mem_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    mem_store *s = store_of(io);
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&s->lock);
        /* Find the stored key (owned by the map) to free it after deletion. */
        size_t it = 0;
        const char *k;
        void *v;
        char *owned = NULL;
        mem_blob *b = NULL;
        while (floe__strmap_next(s->objects, &it, &k, &v)) {
            if (strcmp(k, uris[i]) == 0) {
                owned = (char *)k;
                b = v;
                break;
            }
        }
        long left = 1;
        if (owned) {
            floe__strmap_del(s->objects, owned);
            left = --b->refs;
        }
        pthread_mutex_unlock(&s->lock);
        floe__free(owned);
        if (b && left == 0)
            floe__free(b);
    }
    return 0;
}

static int mem_stat(floe_file_info *out, floe_fileio *io, const char *uri)
{
    mem_store *s = store_of(io);
    pthread_mutex_lock(&s->lock);
    mem_blob *b = floe__strmap_get(s->objects, uri);
    if (b) {
        out->uri = uri;
        out->size = (int64_t)b->len;
        out->mtime_ms = b->mtime_ms;
    }
    pthread_mutex_unlock(&s->lock);
    return b ? 0 : floe__error(FLOE_ENOTFOUND, "io", "stat %s: not found", uri);
}

typedef struct mem_entry {
    char *uri;
    int64_t size;
    int64_t mtime_ms;
} mem_entry;

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const mem_entry *)a)->uri, ((const mem_entry *)b)->uri);
}

static int mem_list(floe_fileio *io, const char *prefix,
                    int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    mem_store *s = store_of(io);
    size_t plen = strlen(prefix);
    floe_vec found = FLOE_VEC_INIT(mem_entry);
    int rc = 0;
    /* Snapshot the matches first so the callback may use the FileIO. */
    pthread_mutex_lock(&s->lock);
    size_t it = 0;
    const char *k;
    void *v;
    while (floe__strmap_next(s->objects, &it, &k, &v)) {
        if (strncmp(k, prefix, plen) != 0)
            continue;
        mem_entry *e = floe__vec_push(&found);
        if (!e) {
            rc = FLOE_ENOMEM;
            break;
        }
        e->uri = floe__strdup(k);
        if (!e->uri) {
            found.len--;
            rc = FLOE_ENOMEM;
            break;
        }
        e->size = (int64_t)((mem_blob *)v)->len;
        e->mtime_ms = ((mem_blob *)v)->mtime_ms;
    }
    pthread_mutex_unlock(&s->lock);
    if (rc == 0 && found.len > 1)
        qsort(found.items, found.len, sizeof(mem_entry), cmp_entry);
    for (size_t i = 0; rc == 0 && i < found.len; i++) {
        mem_entry *e = floe__vec_at(&found, i);
        floe_file_info info = {e->uri, e->size, e->mtime_ms};
        rc = cb(&info, payload);
    }
    for (size_t i = 0; i < found.len; i++)
        floe__free(((mem_entry *)floe__vec_at(&found, i))->uri);
    floe__vec_free(&found);
    return rc;
}

static void mem_free(floe_fileio *io)
{
    mem_store *s = store_of(io);
    size_t it = 0;
    const char *k;
    void *v;
    while (floe__strmap_next(s->objects, &it, &k, &v)) {
        mem_blob *b = v;
        if (--b->refs == 0)
            floe__free(b);
        floe__free((char *)k);
    }
    floe__strmap_free(s->objects);
    pthread_mutex_destroy(&s->lock);
    floe__free(s);
    floe__free(io);
}

static const floe_fileio_ops mem_ops = {FLOE_FILEIO_OPS_VERSION,
                                        mem_open_input,
                                        mem_create_output,
                                        mem_remove,
                                        mem_list,
                                        mem_stat,
                                        mem_free};

int floe__fileio_mem_new(floe_fileio **out)
{
    *out = NULL;
    floe_fileio *io = floe__calloc(1, sizeof *io);
    mem_store *s = floe__calloc(1, sizeof *s);
    if (!io || !s || !(s->objects = floe__strmap_new())) {
        floe__free(io);
        floe__free(s);
        return FLOE_ENOMEM;
    }
    pthread_mutex_init(&s->lock, NULL);
    io->ops = &mem_ops;
    io->impl = s;
    *out = io;
    return 0;
}
