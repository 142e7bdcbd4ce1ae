/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maint/xsort: an external merge sort of (location, int64) records, the
 * building block of the orphan sweep's anti-join. A run collects records
 * in one buffer until it holds `run_bytes`; it is then sorted and written
 * to an anonymous temporary file (tmpfile(): unlinked, gone on exit). The
 * reader merges every run with a small binary heap. Memory is one run plus
 * one record per spilled run, whatever the number of records, so listing
 * ten million objects costs the same RAM as listing one million.
 *
 * Order: the location's path part (what follows "scheme://authority"),
 * then the whole location, so that s3://b/x and s3a://b/x sort together and
 * the caller can compare their schemes and authorities.
 */
#include "maint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_RUN_BYTES ((size_t)8 << 20)
#define MAX_LOCATION 65535u

size_t floe__location_path_offset(const char *loc)
{
    const char *p = loc;
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
        return 0;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
           *p == '+' || *p == '.' || *p == '-')
        p++;
    if (*p != ':')
        return 0;
    p++;
    if (p[0] == '/' && p[1] == '/') {
        p += 2;
        while (*p && *p != '/')
            p++;
    }
    return (size_t)(p - loc);
}

/* record header in a run buffer / file: len (u32), path offset (u32), aux */
typedef struct rec_hdr {
    uint32_t len;
    uint32_t off;
    int64_t aux;
} rec_hdr;

typedef struct source {
    FILE *f;      /* spilled run, or NULL for the in-memory run */
    size_t next;  /* in-memory: next index */
    floe_buf cur; /* current record's location */
    rec_hdr hdr;
    bool live;
} source;

struct floe_xsort {
    size_t run_bytes;
    char *buf; /* packed records of the current run */
    size_t len, cap;
    floe_vec index; /* size_t offsets into buf */
    floe_vec runs;  /* FILE* */
    bool finished;
    source *src;
    size_t nsrc;
    size_t *heap;
    size_t nheap;
    size_t peak;
    bool started;
    size_t last; /* source index of the record last returned */
};

int floe__xsort_new(floe_xsort **out, size_t run_bytes)
{
    floe_xsort *s = floe__calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return FLOE_ENOMEM;
    s->run_bytes = run_bytes ? run_bytes : DEFAULT_RUN_BYTES;
    s->index = (floe_vec)FLOE_VEC_INIT(uintptr_t);
    s->runs = (floe_vec)FLOE_VEC_INIT(FILE *);
    return 0;
}

static const char *rec_loc(const char *buf, size_t at)
{
    return buf + at + sizeof(rec_hdr);
}

static int cmp_loc(const char *a, uint32_t aoff, const char *b, uint32_t boff)
{
    int c = strcmp(a + aoff, b + boff);
    return c ? c : strcmp(a, b);
}

/* qsort has no payload argument: while sorting, the index holds record
 * addresses instead of offsets (no global state). */
static int cmp_index(const void *x, const void *y)
{
    const char *a = (const char *)*(const uintptr_t *)x, *b = (const char *)*(const uintptr_t *)y;
    rec_hdr ha, hb;
    memcpy(&ha, a, sizeof ha);
    memcpy(&hb, b, sizeof hb);
    return cmp_loc(a + sizeof ha, ha.off, b + sizeof hb, hb.off);
}

static void sort_run(floe_xsort *s)
{
    if (s->index.len < 2)
        return;
    uintptr_t *ix = (uintptr_t *)s->index.items;
    for (size_t i = 0; i < s->index.len; i++)
        ix[i] = (uintptr_t)(s->buf + ix[i]);
    qsort(ix, s->index.len, sizeof *ix, cmp_index);
    for (size_t i = 0; i < s->index.len; i++)
        ix[i] = (uintptr_t)((const char *)ix[i] - s->buf);
}

static int spill(floe_xsort *s)
{
    sort_run(s);
    FILE *f = tmpfile();
    if (!f)
        return floe__error(FLOE_EIO, "maint", "cannot create a temporary file for sorting");
    FILE **slot = floe__vec_push(&s->runs);
    if (!slot) {
        fclose(f);
        return FLOE_ENOMEM;
    }
    *slot = f;
    for (size_t i = 0; i < s->index.len; i++) {
        size_t at = (size_t) * (uintptr_t *)floe__vec_at(&s->index, i);
        rec_hdr h;
        memcpy(&h, s->buf + at, sizeof h);
        if (fwrite(s->buf + at, 1, sizeof h + h.len, f) != sizeof h + h.len)
            return floe__error(FLOE_EIO, "maint", "writing a sort run failed (disk full?)");
    }
    if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0)
        return floe__error(FLOE_EIO, "maint", "writing a sort run failed (disk full?)");
    s->len = 0;
    s->index.len = 0;
    return 0;
}

static void note_peak(floe_xsort *s)
{
    size_t now = s->cap + s->index.cap * sizeof(uintptr_t);
    if (now > s->peak)
        s->peak = now;
}

int floe__xsort_add(floe_xsort *s, const char *location, int64_t aux)
{
    return floe__xsort_add_keyed(s, location, NULL, aux);
}

int floe__xsort_add_keyed(floe_xsort *s, const char *key, const char *original, int64_t aux)
{
    size_t n = strlen(key), no = original ? strlen(original) : 0;
    if (n > MAX_LOCATION || no > MAX_LOCATION)
        return floe__error(FLOE_EINVALID, "maint", "location longer than %u bytes", MAX_LOCATION);
    /* key NUL original NUL (an empty original: the key itself) */
    size_t need = sizeof(rec_hdr) + n + 1 + no + 1;
    need = (need + 7) & ~(size_t)7;
    if (s->len + need > s->run_bytes && s->index.len)
        FLOE_TRY(spill(s));
    if (s->len + need > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->len + need)
            cap *= 2;
        if (cap > s->run_bytes + need && s->run_bytes + need > s->len + need)
            cap = s->run_bytes + need;
        char *nb = floe__realloc(s->buf, cap);
        if (!nb)
            return FLOE_ENOMEM;
        s->buf = nb;
        s->cap = cap;
    }
    rec_hdr h = {(uint32_t)(need - sizeof(rec_hdr)), (uint32_t)floe__location_path_offset(key), aux};
    char *at = s->buf + s->len;
    memset(at, 0, need);
    memcpy(at, &h, sizeof h);
    memcpy(at + sizeof h, key, n + 1);
    if (no)
        memcpy(at + sizeof h + n + 1, original, no + 1);
    uintptr_t *slot = floe__vec_push(&s->index);
    if (!slot)
        return FLOE_ENOMEM;
    *slot = s->len;
    s->len += need;
    note_peak(s);
    return 0;
}

/* Load the next record of a source; live=false at its end. */
static int advance(floe_xsort *s, source *src)
{
    if (!src->f) {
        /* records in memory live in buf: no buf, no records */
        if (src->next >= s->index.len || !s->buf) {
            src->live = false;
            return 0;
        }
        size_t at = (size_t) * (uintptr_t *)floe__vec_at(&s->index, src->next++);
        memcpy(&src->hdr, s->buf + at, sizeof src->hdr);
        floe__buf_clear(&src->cur);
        FLOE_TRY(floe__buf_put(&src->cur, rec_loc(s->buf, at), src->hdr.len));
        src->cur.len = strlen(src->cur.ptr);
        src->live = true;
        return 0;
    }
    size_t got = fread(&src->hdr, 1, sizeof src->hdr, src->f);
    if (got == 0) {
        src->live = false;
        return 0;
    }
    if (got != sizeof src->hdr || src->hdr.len > 2 * MAX_LOCATION + 10)
        return floe__error(FLOE_EIO, "maint", "reading a sort run failed");
    floe__buf_clear(&src->cur);
    FLOE_TRY(floe__buf_reserve(&src->cur, src->hdr.len));
    if (fread(src->cur.ptr, 1, src->hdr.len, src->f) != src->hdr.len)
        return floe__error(FLOE_EIO, "maint", "reading a sort run failed");
    src->cur.len = strlen(src->cur.ptr);
    src->live = true;
    return 0;
}

static bool less(const floe_xsort *s, size_t a, size_t b)
{
    const source *x = &s->src[a], *y = &s->src[b];
    return cmp_loc(x->cur.ptr, x->hdr.off, y->cur.ptr, y->hdr.off) < 0;
}

static void sift_down(floe_xsort *s, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->nheap && less(s, s->heap[l], s->heap[m]))
            m = l;
        if (r < s->nheap && less(s, s->heap[r], s->heap[m]))
            m = r;
        if (m == i)
            return;
        size_t t = s->heap[i];
        s->heap[i] = s->heap[m];
        s->heap[m] = t;
        i = m;
    }
}

int floe__xsort_finish(floe_xsort *s)
{
    if (s->finished)
        return 0;
    s->finished = true;
    if (s->runs.len && s->index.len)
        FLOE_TRY(spill(s));
    else
        sort_run(s);
    size_t nsrc = s->runs.len ? s->runs.len : 1;
    s->src = floe__calloc(nsrc, sizeof *s->src);
    s->heap = floe__calloc(nsrc, sizeof *s->heap);
    if (!s->src || !s->heap)
        return FLOE_ENOMEM;
    s->nsrc = nsrc;
    if (s->runs.len) {
        /* the run buffer is not needed while merging files */
        floe__free(s->buf);
        s->buf = NULL;
        s->cap = s->len = 0;
    }
    for (size_t i = 0; i < s->nsrc; i++) {
        s->src[i].f = s->runs.len ? *(FILE **)floe__vec_at(&s->runs, i) : NULL;
        FLOE_TRY(advance(s, &s->src[i]));
        if (s->src[i].live)
            s->heap[s->nheap++] = i;
    }
    for (size_t i = s->nheap; i-- > 0;)
        sift_down(s, i);
    return 0;
}

int floe__xsort_next(floe_xsort *s, const char **location, int64_t *aux)
{
    return floe__xsort_next_keyed(s, location, NULL, aux);
}

int floe__xsort_next_keyed(floe_xsort *s, const char **key, const char **original, int64_t *aux)
{
    if (!s->finished)
        FLOE_TRY(floe__xsort_finish(s));
    if (s->started) {
        /* refill the source of the record returned last */
        source *src = &s->src[s->last];
        FLOE_TRY(advance(s, src));
        if (!src->live) {
            s->heap[0] = s->heap[--s->nheap];
        }
        if (s->nheap)
            sift_down(s, 0);
    }
    if (!s->nheap)
        return FLOE_ITEROVER;
    s->started = true;
    s->last = s->heap[0];
    /* valid until the next call, which refills this source */
    source *top = &s->src[s->last];
    *key = top->cur.ptr;
    if (original) {
        const char *o = top->cur.ptr + top->cur.len + 1;
        *original = top->cur.len + 1 < top->hdr.len && *o ? o : top->cur.ptr;
    }
    if (aux)
        *aux = top->hdr.aux;
    return 0;
}

size_t floe__xsort_runs(const floe_xsort *s)
{
    return s->runs.len;
}

size_t floe__xsort_peak_bytes(const floe_xsort *s)
{
    return s->peak;
}

void floe__xsort_free(floe_xsort *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->runs.len; i++)
        fclose(*(FILE **)floe__vec_at(&s->runs, i));
    floe__vec_free(&s->runs);
    for (size_t i = 0; i < s->nsrc; i++)
        floe__buf_free(&s->src[i].cur);
    floe__free(s->src);
    floe__free(s->heap);
    floe__free(s->buf);
    floe__vec_free(&s->index);
    floe__free(s);
}
