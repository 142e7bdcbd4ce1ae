/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A model of an Iceberg table's history for the incremental/changelog
 * tests and the changelog benchmark: an `orders` table (order_id long
 * required, status string, amount long; identifier order_id) whose commits
 * are written with the real Parquet, manifest and manifest-list writers and
 * a hand-written metadata.json (the table layer is not used), so that
 * copy-on-write rewrites, merge-on-read position deletes, equality deletes
 * and rollbacks can be produced exactly. The model also keeps the logical
 * rows of every snapshot ("id|status|amount") to compare against.
 */
#ifndef FLOE_TEST_INCR_HIST_H
#define FLOE_TEST_INCR_HIST_H

#include "../scan/gentable.h"
#include "util/util.h"

#include <stdlib.h>

#define H_SCHEMA_JSON                                                                              \
    "{\"type\":\"struct\",\"schema-id\":0,\"identifier-field-ids\":[1],\"fields\":["               \
    "{\"id\":1,\"name\":\"order_id\",\"required\":true,\"type\":\"long\"},"                        \
    "{\"id\":2,\"name\":\"status\",\"required\":false,\"type\":\"string\"},"                       \
    "{\"id\":3,\"name\":\"amount\",\"required\":false,\"type\":\"long\"}]}"
#define H_POS_SCHEMA_JSON                                                                          \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":2147483546,\"name\":\"file_path\",\"required\":true,\"type\":\"string\"},"            \
    "{\"id\":2147483545,\"name\":\"pos\",\"required\":true,\"type\":\"long\"}]}"

typedef struct h_row {
    int64_t id;
    char status[16];
    int64_t amount;
} h_row;

enum { H_DATA = 0, H_POS = 1, H_EQ = 2 };

typedef struct h_file {
    char *path;
    int content;
    int64_t seq, added_snap;
    bool live;
    int64_t removed_in; /* snapshot id that removed it, 0 if none */
    size_t n;
    h_row *rows;   /* data / equality rows */
    bool *deleted; /* data: row deleted by a delete file */
    int64_t *pos;  /* position deletes */
    char *ref;     /* position deletes: the data file */
    floe_data_file df;
    floe_arena *a;
} h_file;

typedef struct h_snap {
    int64_t id, parent;
    bool has_parent;
    int64_t seq;
    const char *op;
    char *list;
    size_t nrows;
    char **rows; /* sorted logical rows */
} h_snap;

typedef struct h_table {
    char dir[1024];
    size_t nfiles, capfiles;
    h_file *files;
    size_t nsnaps;
    h_snap snaps[256];
    int64_t main; /* main's snapshot (0: none) */
    int version;  /* metadata file counter */
    char meta[1200];
    int64_t next_seq;
    int64_t id_base;
    /* pending snapshot: files added / removed in it */
    int64_t cur;
    bool no_model; /* benchmarks: keep no logical rows per snapshot */
} h_table;

static floe_arena *h_schema_arenas[2];

static inline const floe_schema *h_parse_schema(const char *json)
{
    /* kept reachable for the process (leak checkers) */
    floe_arena *a = floe__arena_new(4096);
    h_schema_arenas[h_schema_arenas[0] ? 1 : 0] = a;
    floe_json *j;
    floe_schema *s = NULL;
    if (floe__json_parse(&j, json, strlen(json), "h") < 0)
        return NULL;
    if (floe__schema_from_json(&s, j, 0, a) < 0)
        s = NULL;
    floe__json_free(j);
    return s; /* the arena lives for the process */
}

static inline const floe_schema *h_schema(void)
{
    static const floe_schema *s;
    if (!s)
        s = h_parse_schema(H_SCHEMA_JSON);
    return s;
}

static inline const floe_schema *h_pos_schema(void)
{
    static const floe_schema *s;
    if (!s)
        s = h_parse_schema(H_POS_SCHEMA_JSON);
    return s;
}

static inline void h_init(h_table *h, const char *dir, int64_t id_base)
{
    memset(h, 0, sizeof *h);
    snprintf(h->dir, sizeof h->dir, "%s", dir);
    gt_mkdirs(dir);
    h->next_seq = 1;
    h->id_base = id_base;
}

static inline void h_free(h_table *h)
{
    for (size_t i = 0; i < h->nfiles; i++) {
        h_file *f = &h->files[i];
        free(f->path);
        free(f->rows);
        free(f->deleted);
        free(f->pos);
        free(f->ref);
        floe__arena_free(f->a);
    }
    free(h->files);
    for (size_t i = 0; i < h->nsnaps; i++) {
        free(h->snaps[i].list);
        for (size_t k = 0; k < h->snaps[i].nrows; k++)
            free(h->snaps[i].rows[k]);
        free(h->snaps[i].rows);
    }
}

/* Start a snapshot on top of main. */
static inline void h_begin(h_table *h)
{
    h->cur = h->id_base + (int64_t)h->nsnaps * 7919 + 13;
}

static inline h_file *h_new_file(h_table *h, int content)
{
    if (h->nfiles == h->capfiles) {
        h->capfiles = h->capfiles ? h->capfiles * 2 : 64;
        h->files = realloc(h->files, h->capfiles * sizeof(h_file));
    }
    h_file *f = &h->files[h->nfiles++];
    memset(f, 0, sizeof *f);
    f->content = content;
    f->seq = h->next_seq;
    f->added_snap = h->cur;
    f->live = true;
    f->a = floe__arena_new(4096);
    f->path = floe__sprintf("%s/data/f%05zu-%s.parquet", h->dir, h->nfiles,
                            content == H_DATA ? "data" : content == H_POS ? "pos" : "eq");
    return f;
}

static inline int h_fill_row(floe_arrow_builder *b, int64_t i, void *payload)
{
    const h_row *r = (const h_row *)payload + i;
    floe_value v = floe_value_long(r->id);
    FLOE_TRY(floe__arrow_builder_append(b->children[0], &v));
    v = floe_value_bytes(FLOE_T_STRING, r->status, strlen(r->status));
    FLOE_TRY(floe__arrow_builder_append(b->children[1], &v));
    v = floe_value_long(r->amount);
    return floe__arrow_builder_append(b->children[2], &v);
}

typedef struct h_posfill {
    const char *path;
    const int64_t *pos;
} h_posfill;

static inline int h_fill_pos(floe_arrow_builder *b, int64_t i, void *payload)
{
    const h_posfill *p = payload;
    floe_value v = floe_value_bytes(FLOE_T_STRING, p->path, strlen(p->path));
    FLOE_TRY(floe__arrow_builder_append(b->children[0], &v));
    v = floe_value_long(p->pos[i]);
    return floe__arrow_builder_append(b->children[1], &v);
}

static inline int h_finish_file(h_file *f, const floe_schema *schema, int64_t n, gt_fill_fn fill,
                                void *payload)
{
    floe_pq_metrics pm;
    memset(&pm, 0, sizeof pm);
    int rc = gt_write_parquet(f->path, schema, n, fill, payload, &pm);
    floe_data_file *df = &f->df;
    df->content = f->content;
    df->file_path = f->path;
    df->file_format = "PARQUET";
    df->block_size_in_bytes = -1;
    if (rc == 0)
        rc = gt_metrics_to_entry(&pm, f->a, df);
    /* bounds point into pm: copy */
    for (size_t k = 0; rc == 0 && k < df->lower_bounds.n; k++) {
        floe_col_bytes *lo = (floe_col_bytes *)&df->lower_bounds.items[k];
        floe_col_bytes *hi = (floe_col_bytes *)&df->upper_bounds.items[k];
        lo->ptr = floe__arena_memdup(f->a, lo->ptr, lo->len + 1);
        hi->ptr = floe__arena_memdup(f->a, hi->ptr, hi->len + 1);
    }
    floe__pq_metrics_free(&pm);
    return rc;
}

/* A data file with these rows. */
static inline int h_add_data(h_table *h, const h_row *src_rows, size_t n)
{
    h_file *f = h_new_file(h, H_DATA);
    f->n = n;
    f->rows = calloc(n + 1, sizeof(h_row));
    f->deleted = calloc(n + 1, sizeof(bool));
    memcpy(f->rows, src_rows, n * sizeof(h_row));
    return h_finish_file(f, h_schema(), (int64_t)n, h_fill_row, f->rows);
}

/* Where a live row `id` is: data file index and row. */
static inline bool h_find(const h_table *h, int64_t id, size_t *fi, size_t *ri)
{
    for (size_t i = 0; i < h->nfiles; i++) {
        const h_file *f = &h->files[i];
        if (f->content != H_DATA || !f->live)
            continue;
        for (size_t r = 0; r < f->n; r++)
            if (!f->deleted[r] && f->rows[r].id == id) {
                *fi = i;
                *ri = r;
                return true;
            }
    }
    return false;
}

/* Copy-on-write: remove the file holding `id`, re-add its other live rows
 * (with `repl` replacing the row when not NULL). */
static inline int h_cow(h_table *h, int64_t id, const h_row *repl)
{
    size_t fi, ri;
    if (!h_find(h, id, &fi, &ri))
        return -1;
    h_file *old = &h->files[fi];
    old->live = false;
    old->removed_in = h->cur;
    h_row *keep = calloc(old->n + 1, sizeof(h_row));
    size_t k = 0;
    for (size_t r = 0; r < old->n; r++) {
        if (old->deleted[r])
            continue;
        if (r == ri) {
            if (repl)
                keep[k++] = *repl;
        } else
            keep[k++] = old->rows[r];
    }
    int rc = k ? h_add_data(h, keep, k) : 0;
    free(keep);
    return rc;
}

/* Merge-on-read: a position delete file for the row `id`; then `repl` (if
 * any) in a new data file. */
static inline int h_mor_pos(h_table *h, int64_t id, const h_row *repl)
{
    size_t fi, ri;
    if (!h_find(h, id, &fi, &ri))
        return -1;
    h->files[fi].deleted[ri] = true;
    char *target = strdup(h->files[fi].path);
    h_file *f = h_new_file(h, H_POS);
    f->ref = target;
    f->n = 1;
    f->pos = calloc(1, sizeof(int64_t));
    f->pos[0] = (int64_t)ri;
    h_posfill pf = {f->ref, f->pos};
    int rc = h_finish_file(f, h_pos_schema(), 1, h_fill_pos, &pf);
    f->df.referenced_data_file = f->ref;
    if (rc == 0 && repl)
        rc = h_add_data(h, repl, 1);
    return rc;
}

/* Merge-on-read with an equality delete on order_id (the old row's full
 * values, as Java writes them); then `repl` in a new data file. */
static inline int h_mor_eq(h_table *h, int64_t id, const h_row *repl)
{
    size_t fi, ri;
    if (!h_find(h, id, &fi, &ri))
        return -1;
    h_row old = h->files[fi].rows[ri];
    /* every older row with this id is gone */
    for (size_t i = 0; i < h->nfiles; i++)
        if (h->files[i].content == H_DATA && h->files[i].seq < h->next_seq)
            for (size_t r = 0; r < h->files[i].n; r++)
                if (h->files[i].rows[r].id == id)
                    h->files[i].deleted[r] = true;
    h_file *f = h_new_file(h, H_EQ);
    f->n = 1;
    f->rows = calloc(1, sizeof(h_row));
    f->rows[0] = old;
    int rc = h_finish_file(f, h_schema(), 1, h_fill_row, f->rows);
    static const int32_t eq_ids[1] = {1};
    f->df.has_equality_ids = true;
    f->df.nequality_ids = 1;
    f->df.equality_ids = eq_ids;
    if (rc == 0 && repl)
        rc = h_add_data(h, repl, 1);
    return rc;
}

static inline int h_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline int h_write_manifest(h_table *h, int content, const char *path,
                                   floe_manifest_file *mf, floe_buf *out,
                                   floe_manifest_writer **w, bool *any)
{
    *any = false;
    int rc = gt_manifest_new(w, out, false, content, h->cur, path);
    for (size_t i = 0; rc == 0 && i < h->nfiles; i++) {
        h_file *f = &h->files[i];
        if ((content == FLOE_MANIFEST_DATA) != (f->content == H_DATA))
            continue;
        if (!f->live && f->removed_in != h->cur)
            continue;
        floe_manifest_entry e;
        memset(&e, 0, sizeof e);
        e.has_snapshot_id = true;
        if (!f->live) {
            e.status = FLOE_ENTRY_DELETED;
            e.snapshot_id = h->cur;
            e.sequence_number = e.file_sequence_number = f->seq;
        } else if (f->added_snap == h->cur) {
            e.status = FLOE_ENTRY_ADDED;
            e.snapshot_id = h->cur;
            e.sequence_number = e.file_sequence_number = FLOE_SEQ_UNASSIGNED;
        } else {
            e.status = FLOE_ENTRY_EXISTING;
            e.snapshot_id = f->added_snap;
            e.sequence_number = e.file_sequence_number = f->seq;
        }
        e.data_file = f->df;
        rc = floe_manifest_writer_add(*w, &e);
        *any = true;
    }
    if (rc == 0)
        rc = floe_manifest_writer_finish(*w, mf);
    if (rc == 0 && *any)
        rc = gt_write_bytes(path, out->ptr, out->len);
    return rc;
}

/* Write the metadata file: every snapshot; main -> h->main. */
static inline int h_write_metadata(h_table *h)
{
    floe_buf b = FLOE_BUF_INIT;
    floe__buf_printf(&b,
                     "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
                     "\"location\":\"%s\",\"last-sequence-number\":%lld,"
                     "\"last-updated-ms\":1700000000000,"
                     "\"last-column-id\":3,\"current-schema-id\":0,\"schemas\":[%s],"
                     "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[]}],"
                     "\"last-partition-id\":999,\"default-sort-order-id\":0,"
                     "\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{},",
                     h->dir, (long long)(h->next_seq - 1), H_SCHEMA_JSON);
    if (h->main)
        floe__buf_printf(&b, "\"current-snapshot-id\":%lld,", (long long)h->main);
    floe__buf_puts(&b, "\"snapshots\":[");
    for (size_t i = 0; i < h->nsnaps; i++) {
        const h_snap *s = &h->snaps[i];
        floe__buf_printf(&b, "%s{\"snapshot-id\":%lld,", i ? "," : "", (long long)s->id);
        if (s->has_parent)
            floe__buf_printf(&b, "\"parent-snapshot-id\":%lld,", (long long)s->parent);
        floe__buf_printf(&b,
                         "\"sequence-number\":%lld,\"timestamp-ms\":%lld,\"manifest-list\":\"%s\","
                         "\"summary\":{\"operation\":\"%s\"},\"schema-id\":0}",
                         (long long)s->seq, (long long)(1700000000000LL + s->seq * 1000), s->list,
                         s->op);
    }
    floe__buf_puts(&b, "],\"snapshot-log\":[");
    for (size_t i = 0; i < h->nsnaps; i++)
        floe__buf_printf(&b, "%s{\"timestamp-ms\":%lld,\"snapshot-id\":%lld}", i ? "," : "",
                         (long long)(1700000000000LL + h->snaps[i].seq * 1000),
                         (long long)h->snaps[i].id);
    floe__buf_puts(&b, "],\"metadata-log\":[]");
    if (h->main)
        floe__buf_printf(&b, ",\"refs\":{\"main\":{\"snapshot-id\":%lld,\"type\":\"branch\"}}",
                         (long long)h->main);
    floe__buf_puts(&b, "}");
    snprintf(h->meta, sizeof h->meta, "%s/metadata/v%d.metadata.json", h->dir, ++h->version);
    int rc = gt_write_bytes(h->meta, b.ptr, b.len);
    floe__buf_free(&b);
    return rc;
}

/* Logical rows of the live files (sorted "id|status|amount"). */
static inline void h_logical(const h_table *h, h_snap *s)
{
    size_t cap = 16;
    s->rows = malloc(cap * sizeof(char *));
    s->nrows = 0;
    for (size_t i = 0; i < h->nfiles; i++) {
        const h_file *f = &h->files[i];
        if (f->content != H_DATA || !f->live)
            continue;
        for (size_t r = 0; r < f->n; r++) {
            if (f->deleted[r])
                continue;
            if (s->nrows == cap)
                s->rows = realloc(s->rows, (cap *= 2) * sizeof(char *));
            s->rows[s->nrows++] = floe__sprintf("%lld|%s|%lld", (long long)f->rows[r].id,
                                                f->rows[r].status, (long long)f->rows[r].amount);
        }
    }
    qsort(s->rows, s->nrows, sizeof(char *), h_cmp_str);
}

/* Commit the pending snapshot with operation `op`; main moves to it. */
static inline int64_t h_commit(h_table *h, const char *op)
{
    h_snap *s = &h->snaps[h->nsnaps];
    memset(s, 0, sizeof *s);
    s->id = h->cur;
    s->has_parent = h->main != 0;
    s->parent = h->main;
    s->seq = h->next_seq;
    s->op = op;
    char dpath[1200], xpath[1200];
    snprintf(dpath, sizeof dpath, "%s/metadata/m-%lld-d.avro", h->dir, (long long)h->cur);
    snprintf(xpath, sizeof xpath, "%s/metadata/m-%lld-x.avro", h->dir, (long long)h->cur);
    floe_manifest_file mfs[2];
    floe_buf o1 = FLOE_BUF_INIT, o2 = FLOE_BUF_INIT;
    floe_manifest_writer *w1 = NULL, *w2 = NULL;
    bool any1 = false, any2 = false; /* a failed write adds no manifest */
    int rc = h_write_manifest(h, FLOE_MANIFEST_DATA, dpath, &mfs[0], &o1, &w1, &any1);
    if (rc == 0)
        rc = h_write_manifest(h, FLOE_MANIFEST_DELETES, xpath, &mfs[1], &o2, &w2, &any2);
    size_t n = 0;
    floe_manifest_file use[2];
    if (any1)
        use[n++] = mfs[0];
    if (any2)
        use[n++] = mfs[1];
    s->list = floe__sprintf("%s/metadata/snap-%lld.avro", h->dir, (long long)h->cur);
    if (rc == 0) {
        floe_buf out = FLOE_BUF_INIT;
        floe_manifest_list_writer_options lo = {2, h->cur, s->has_parent, s->parent, s->seq,
                                                FLOE_AVRO_CODEC_NULL, -1, 0};
        floe_manifest_list_writer *lw;
        rc = floe_manifest_list_writer_new(&lw, &lo, &out);
        for (size_t i = 0; rc == 0 && i < n; i++)
            rc = floe_manifest_list_writer_add(lw, &use[i]);
        if (rc == 0)
            rc = floe_manifest_list_writer_finish(lw);
        floe_manifest_list_writer_free(lw);
        if (rc == 0)
            rc = gt_write_bytes(s->list, out.ptr, out.len);
        floe__buf_free(&out);
    }
    floe_manifest_writer_free(w1);
    floe_manifest_writer_free(w2);
    floe__buf_free(&o1);
    floe__buf_free(&o2);
    if (!h->no_model)
        h_logical(h, s);
    h->nsnaps++;
    h->next_seq++;
    h->main = h->cur;
    if (rc == 0)
        rc = h_write_metadata(h);
    return rc < 0 ? rc : s->id;
}

static inline const h_snap *h_snap_by_id(const h_table *h, int64_t id)
{
    for (size_t i = 0; i < h->nsnaps; i++)
        if (h->snaps[i].id == id)
            return &h->snaps[i];
    return NULL;
}

#endif
