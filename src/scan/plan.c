/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan/plan: scan planning (spec "Scan Planning", "Manifest Lists",
 * "Manifests", "Sequence Number Inheritance").
 *
 * Two pruning levels, both from the bound filter's inclusive projection
 * onto each partition spec (a filter on rows becomes a predicate on
 * partition tuples that is true for every partition holding a matching row):
 *   1. the manifest list's partition field summaries skip whole manifests;
 *   2. in the manifests that remain, each live data file is skipped when its
 *      partition tuple fails the projection or its column metrics show no
 *      row can match (InclusiveMetricsEvaluator).
 * Manifests are read in parallel (one job per manifest on the util pool;
 * by default as many threads as CPUs, or s3.read.parallelism when that is
 * more and the FileIO is S3, where a job waits on the network, not the CPU);
 * each job streams its entries and keeps only what a task needs, interned in
 * the job's own arena, so memory grows with planned files, not with the
 * manifests' size.
 */
#include "scan/scan.h"

#include "expr/expr.h"
#include "io/s3.h"
#include "manifest/manifest.h"
#include "util/progress.h"

#include <pthread.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Read a whole local object into `b` (cleared first; its capacity is
 * reused): with the 1 MB-sized manifests of a big table a fresh buffer per
 * manifest cost a page fault per 4 KiB and an munmap. */
static int read_local(floe_fileio *io, const char *uri, floe_buf *b)
{
    floe__buf_clear(b);
    floe_input *in;
    FLOE_TRY(floe_fileio_open_input(&in, io, uri));
    if (in->size < 0 || (uint64_t)in->size > ((uint64_t)1 << 40)) {
        in->close(in);
        return floe__error(FLOE_ECORRUPT, "scan", "object %s has an unusable size", uri);
    }
    size_t n = (size_t)in->size;
    int rc = floe__buf_reserve(b, n);
    if (rc == 0 && n)
        rc = in->read_at(in, 0, b->ptr, n);
    in->close(in);
    if (rc < 0)
        return rc;
    b->len = n;
    return 0;
}

int floe__scan_read_object(floe_fileio *io, const char *uri, uint8_t **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    if (floe__s3_is_s3(io)) {
        /* One whole-object GET instead of HEAD + ranged GET: half the round
         * trips per manifest */
        floe_s3_get g = {.uri = uri, .offset = 0, .length = -1};
        FLOE_TRY(floe__s3_get_many(io, &g, 1, 1));
        *data = g.data;
        *len = g.size;
        return 0;
    }
    floe_buf b = FLOE_BUF_INIT;
    int rc = read_local(io, uri, &b);
    if (rc < 0) {
        floe__buf_free(&b);
        return rc;
    }
    *data = (uint8_t *)b.ptr;
    *len = b.len;
    return 0;
}

/* One manifest to read. */
typedef struct job {
    const floe_manifest_file *mf; /* list entry; synthesized for v1 inline manifests */
    bool inherit;                 /* mf came from a manifest list */
    floe_arena **arena;           /* made at the first file kept (job_arena) */
    size_t expect;                /* live files the list counts; 0: unknown */
    /* tasks go straight into the plan's array, at the slot the manifest
     * list's live-file counts reserve for this manifest (`slot`, room for
     * `cap`); any beyond that (counts absent or wrong) into `tasks` */
    floe_scan_task *slot;
    size_t cap, nslot;
    floe_vec tasks;   /* floe_scan_task */
    floe_vec deletes; /* const floe_scan_file* */
    int64_t data_total, data_skipped, delete_total;
} job;

/* The job's arena, made at its first file with blocks sized for the files
 * the list expects (records and paths like this one's): the arena's
 * doubling blocks otherwise end up with up to half their bytes unused. */
static floe_arena *job_arena(job *j, const char *path)
{
    floe_arena *made = *j->arena;
    if (made)
        return made;
    size_t per = sizeof(floe_scan_file) + ((strlen(path) + 16) & ~(size_t)15);
    size_t block = 32768;
    if (j->expect && j->expect < ((size_t)4 << 20) / per)
        block = j->expect * per + 4096;
    else if (j->expect)
        block = (size_t)4 << 20;
    if (block < 32768)
        block = 32768;
    if (!(*j->arena = floe__arena_new(block)))
        floe__error_nomem();
    return *j->arena;
}

static floe_scan_task *push_task(job *j)
{
    if (j->nslot < j->cap)
        return &j->slot[j->nslot++];
    return floe__vec_push(&j->tasks);
}

typedef struct plan_ctx {
    floe_scan_plan *p;
    floe_fileio *io;
    bool prune;   /* filter is not `true` and pruning is on */
    bool filter;  /* filter is not `true` */
    const floe_expr **projected; /* per meta->specs index */
    job *jobs;
    floe__progress progress; /* items: manifests read; bytes: their size */
    /* read buffers of local manifests, reused across jobs: at most one per
     * thread is in use, the others wait in `spare` */
    pthread_mutex_t spare_lock;
    floe_buf **spare;
    size_t nspare, spare_cap;
} plan_ctx;

static floe_buf *take_buf(plan_ctx *c)
{
    floe_buf *b = NULL;
    pthread_mutex_lock(&c->spare_lock);
    if (c->nspare)
        b = c->spare[--c->nspare];
    pthread_mutex_unlock(&c->spare_lock);
    if (!b && (b = floe__malloc(sizeof *b)))
        *b = (floe_buf)FLOE_BUF_INIT;
    return b;
}

/* Back to the spare list (spare_cap slots: one per thread), else freed. */
static void give_buf(plan_ctx *c, floe_buf *b)
{
    pthread_mutex_lock(&c->spare_lock);
    if (c->nspare < c->spare_cap) {
        c->spare[c->nspare++] = b;
        b = NULL;
    }
    pthread_mutex_unlock(&c->spare_lock);
    if (b) {
        floe__buf_free(b);
        floe__free(b);
    }
}

static int spec_index(const floe_table_metadata *m, int32_t spec_id)
{
    for (size_t i = 0; i < m->nspecs; i++)
        if (m->specs[i]->spec_id == spec_id)
            return (int)i;
    return -1;
}

static const char *intern_format(floe_arena *a, const char *f)
{
    if (!strcasecmp(f, "PARQUET"))
        return "PARQUET";
    if (!strcasecmp(f, "PUFFIN"))
        return "PUFFIN";
    return floe__arena_strdup(a, f);
}

/* A float's bits: NaN equals NaN and -0.0 differs from 0.0, as a copy
 * of the value would. */
static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* The same value, bit for bit where it matters: a tuple shared between
 * files must read the same as a copy of each would. */
static bool same_value(const floe_value *v, const floe_value *w)
{
    if (v->type != w->type || v->is_null != w->is_null)
        return false;
    if (v->is_null)
        return true;
    switch (v->type) {
    case FLOE_T_BOOLEAN: return v->v.b == w->v.b;
    case FLOE_T_INT:
    case FLOE_T_DATE: return v->v.i32 == w->v.i32;
    case FLOE_T_FLOAT: return float_bits(v->v.f32) == float_bits(w->v.f32);
    case FLOE_T_DOUBLE: return double_bits(v->v.f64) == double_bits(w->v.f64);
    case FLOE_T_DECIMAL: return v->scale == w->scale && v->v.dec == w->v.dec;
    case FLOE_T_STRING:
    case FLOE_T_BINARY:
    case FLOE_T_FIXED:
    case FLOE_T_UUID:
        return v->v.bytes.len == w->v.bytes.len &&
               (!v->v.bytes.len || !memcmp(v->v.bytes.ptr, w->v.bytes.ptr, v->v.bytes.len));
    default: return v->v.i64 == w->v.i64;
    }
}

bool floe__scan_same_partition(const floe_partition_value *a, const floe_partition_value *b)
{
    if (a->n != b->n)
        return false;
    if (a->values == b->values)
        return true;
    for (size_t i = 0; i < a->n; i++)
        if (!same_value(&a->values[i], &b->values[i]))
            return false;
    return true;
}

/* `prev`: the file copied before this one from the same manifest (NULL for
 * the first): files of a manifest are mostly written partition by
 * partition, so an equal tuple is shared with it instead of copied. */
static int copy_file(floe_scan_file **out, floe_arena *a, const floe_manifest_entry *e,
                     int32_t spec_id, const floe_scan_file *prev)
{
    const floe_data_file *df = &e->data_file;
    floe_scan_file *f = floe__arena_calloc(a, 1, sizeof(*f));
    if (!f)
        return floe__error_nomem();
    f->path = floe__arena_strdup(a, df->file_path);
    f->format = intern_format(a, df->file_format);
    if (!f->path || !f->format)
        return floe__error_nomem();
    f->content = (int8_t)df->content;
    f->spec_id = spec_id;
    f->record_count = df->record_count;
    f->file_size_in_bytes = df->file_size_in_bytes;
    f->data_sequence_number = e->sequence_number < 0 ? 0 : e->sequence_number;
    f->has_first_row_id = df->has_first_row_id;
    f->first_row_id = df->first_row_id;
    if (prev && df->partition.n && floe__scan_same_partition(&df->partition, &prev->partition)) {
        f->partition = prev->partition;
    } else if (df->partition.n) {
        floe_value *vals = floe__arena_alloc(a, df->partition.n * sizeof(*vals));
        if (!vals)
            return floe__error_nomem();
        for (size_t i = 0; i < df->partition.n; i++) {
            vals[i] = df->partition.values[i];
            floe_type_id t = vals[i].type;
            if (!vals[i].is_null &&
                (t == FLOE_T_STRING || t == FLOE_T_BINARY || t == FLOE_T_FIXED || t == FLOE_T_UUID)) {
                const void *b = floe__arena_memdup(a, vals[i].v.bytes.ptr,
                                                   vals[i].v.bytes.len ? vals[i].v.bytes.len : 1);
                if (!b)
                    return floe__error_nomem();
                vals[i].v.bytes.ptr = b;
            }
        }
        f->partition.n = df->partition.n;
        f->partition.values = vals;
    }
    bool eq =
        df->content == FLOE_FILE_EQUALITY_DELETES && df->has_equality_ids && df->nequality_ids;
    if (df->content != FLOE_FILE_DATA || eq || df->referenced_data_file || df->has_content_offset ||
        df->has_content_size_in_bytes) {
        floe_scan_delete_info *d = floe__arena_calloc(a, 1, sizeof(*d));
        if (!d)
            return floe__error_nomem();
        if (eq) {
            int32_t *ids =
                floe__arena_memdup(a, df->equality_ids, df->nequality_ids * sizeof(int32_t));
            if (!ids)
                return floe__error_nomem();
            d->equality_ids = ids;
            d->nequality_ids = df->nequality_ids;
        }
        if (df->referenced_data_file &&
            !(d->referenced_data_file = floe__arena_strdup(a, df->referenced_data_file)))
            return floe__error_nomem();
        d->has_content_offset = df->has_content_offset;
        d->content_offset = df->content_offset;
        d->content_size_in_bytes = df->has_content_size_in_bytes ? df->content_size_in_bytes : -1;
        f->del = d;
    }
    *out = f;
    return 0;
}

/* Metrics of a data file in the evaluator's shape (scratch vectors reused
 * across entries of one job). */
typedef struct metrics_scratch {
    floe_vec counts[3]; /* value, null, nan */
    floe_vec bounds[2]; /* lower, upper */
} metrics_scratch;

static int fill_counts(floe_vec *v, const floe_col_longs *src, const floe_metric_count **out,
                       size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!src->set)
        return 0;
    v->len = 0;
    for (size_t i = 0; i < src->n; i++) {
        floe_metric_count *c = floe__vec_push(v);
        if (!c)
            return floe__error_nomem();
        c->field_id = src->items[i].field_id;
        c->count = src->items[i].value;
    }
    *out = v->items;
    *n = src->n;
    return 0;
}

static int fill_bounds(floe_vec *v, const floe_col_bytes_map *src, const floe_metric_bound **out,
                       size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!src->set)
        return 0;
    v->len = 0;
    for (size_t i = 0; i < src->n; i++) {
        floe_metric_bound *b = floe__vec_push(v);
        if (!b)
            return floe__error_nomem();
        b->field_id = src->items[i].field_id;
        b->ptr = src->items[i].ptr;
        b->len = src->items[i].len;
    }
    *out = v->items;
    *n = src->n;
    return 0;
}

static int metrics_match(bool *out, const floe_expr *bound, const floe_data_file *df,
                         metrics_scratch *s)
{
    floe_file_metrics m;
    memset(&m, 0, sizeof m);
    m.record_count = df->record_count;
    FLOE_TRY(fill_counts(&s->counts[0], &df->value_counts, &m.value_counts, &m.n_value_counts));
    FLOE_TRY(fill_counts(&s->counts[1], &df->null_value_counts, &m.null_value_counts,
                         &m.n_null_value_counts));
    FLOE_TRY(fill_counts(&s->counts[2], &df->nan_value_counts, &m.nan_value_counts,
                         &m.n_nan_value_counts));
    FLOE_TRY(fill_bounds(&s->bounds[0], &df->lower_bounds, &m.lower_bounds, &m.n_lower_bounds));
    FLOE_TRY(fill_bounds(&s->bounds[1], &df->upper_bounds, &m.upper_bounds, &m.n_upper_bounds));
    return floe_expr_metrics_might_match(out, bound, &m);
}

static int read_entries(plan_ctx *c, job *j, floe_manifest_reader *r, const char *path)
{
    floe_scan_plan *p = c->p;
    const floe_manifest_info *info = floe_manifest_reader_info(r);
    int32_t spec_id = j->inherit ? j->mf->partition_spec_id : info->partition_spec_id;
    int si = spec_index(p->meta, spec_id);
    if (si < 0)
        return floe__error(FLOE_EINVALID, "scan", "manifest %s uses unknown partition spec %d",
                           path, spec_id);
    const floe_partition_spec *spec = p->meta->specs[si];
    const floe_expr *proj = c->projected ? c->projected[si] : NULL;
    metrics_scratch ms;
    for (int k = 0; k < 3; k++)
        ms.counts[k] = (floe_vec)FLOE_VEC_INIT(floe_metric_count);
    for (int k = 0; k < 2; k++)
        ms.bounds[k] = (floe_vec)FLOE_VEC_INIT(floe_metric_bound);
    int rc;
    const floe_scan_file *prev = NULL;
    /* the residual last computed, and the tuple it was computed for */
    const floe_expr *res = NULL;
    const floe_value *res_vals = NULL;
    for (;;) {
        const floe_manifest_entry *e;
        rc = floe_manifest_reader_next(r, &e);
        if (rc == FLOE_ITEROVER) {
            rc = 0;
            break;
        }
        if (rc < 0)
            break;
        if (e->status == FLOE_ENTRY_DELETED)
            continue;
        const floe_data_file *df = &e->data_file;
        bool part_ok = df->partition.n == spec->nfields;
        if (df->content == FLOE_FILE_DATA) {
            j->data_total++;
            bool keep = true;
            if (c->prune && proj && part_ok && spec->nfields) {
                if ((rc = floe_expr_eval_partition(&keep, proj, spec, &df->partition)) < 0)
                    break;
            }
            /* metrics are decoded only for a file the partition kept */
            if (keep && c->prune &&
                ((rc = floe_manifest_reader_metrics(r)) < 0 ||
                 (rc = metrics_match(&keep, p->filter, df, &ms)) < 0))
                break;
            if (!keep) {
                j->data_skipped++;
                continue;
            }
            floe_scan_task *t = push_task(j);
            floe_scan_file *f;
            if (!t) {
                rc = floe__error_nomem();
                break;
            }
            floe_arena *a = job_arena(j, df->file_path);
            if (!a || (rc = copy_file(&f, a, e, spec_id, prev)) < 0) {
                rc = a ? rc : FLOE_ENOMEM;
                break;
            }
            *t = (floe_scan_task){.file = f, .residual = p->filter};
            /* the residual depends on the filter and the tuple only: a
             * shared tuple shares the residual of the task before */
            if (c->prune && part_ok && res_vals && res_vals == f->partition.values)
                t->residual = res;
            else if (c->prune && part_ok &&
                     (rc = floe_expr_residual(&t->residual, a, p->filter, spec, &f->partition)) < 0)
                break;
            prev = f;
            res = t->residual;
            res_vals = f->partition.values;
        } else {
            j->delete_total++;
            bool keep = true;
            if (c->prune && proj && part_ok && spec->nfields) {
                if ((rc = floe_expr_eval_partition(&keep, proj, spec, &df->partition)) < 0)
                    break;
            }
            if (!keep)
                continue;
            const floe_scan_file **slot = floe__vec_push(&j->deletes);
            floe_scan_file *f;
            if (!slot) {
                rc = floe__error_nomem();
                break;
            }
            floe_arena *a = job_arena(j, df->file_path);
            if (!a || (rc = copy_file(&f, a, e, spec_id, prev)) < 0) {
                rc = a ? rc : FLOE_ENOMEM;
                break;
            }
            *slot = f;
            prev = f;
        }
    }
    for (int k = 0; k < 3; k++)
        floe__vec_free(&ms.counts[k]);
    for (int k = 0; k < 2; k++)
        floe__vec_free(&ms.bounds[k]);
    return rc;
}

static int read_manifest(size_t i, void *payload)
{
    plan_ctx *c = payload;
    job *j = &c->jobs[i];
    const char *path = j->mf->manifest_path;
    uint8_t *data = NULL;
    size_t len = 0;
    floe_buf *b = NULL;
    int rc;
    if (floe__s3_is_s3(c->io)) {
        rc = floe__scan_read_object(c->io, path, &data, &len);
    } else if (!(b = take_buf(c))) {
        rc = floe__error_nomem();
    } else if ((rc = read_local(c->io, path, b)) == 0) {
        data = (uint8_t *)b->ptr;
        len = b->len;
    }
    if (rc < 0) {
        if (b)
            give_buf(c, b);
        return floe__error_context("reading manifest %s", path);
    }
    floe_manifest_read_options ro = {j->inherit ? j->mf : NULL, false};
    floe_manifest_reader *r;
    if ((rc = floe_manifest_reader_open(&r, data, len, path, &ro)) == 0) {
        floe_manifest_reader_lazy_metrics(r);
        rc = read_entries(c, j, r, path);
        floe_manifest_reader_free(r);
    }
    if (b)
        give_buf(c, b);
    else
        floe__free(data);
    floe__progress_add(&c->progress, 1, len);
    return rc;
}

/* Does the manifest's partition summary admit a match? */
static int manifest_match(bool *out, plan_ctx *c, const floe_manifest_file *mf)
{
    *out = true;
    if (!c->prune || !mf->has_partitions)
        return 0;
    int si = spec_index(c->p->meta, mf->partition_spec_id);
    if (si < 0 || !c->projected[si])
        return 0;
    const floe_partition_spec *spec = c->p->meta->specs[si];
    if (mf->npartitions != spec->nfields || !spec->nfields)
        return 0;
    floe_expr_field_summary sums[64];
    if (spec->nfields > FLOE_ARRAY_LEN(sums))
        return 0;
    for (size_t i = 0; i < spec->nfields; i++) {
        const floe_field_summary *s = &mf->partitions[i];
        sums[i].contains_null = s->contains_null;
        sums[i].contains_nan = s->has_contains_nan ? (int8_t)s->contains_nan : -1;
        sums[i].lower_bound = s->lower_bound.set ? s->lower_bound.ptr : NULL;
        sums[i].lower_len = s->lower_bound.set ? s->lower_bound.len : 0;
        sums[i].upper_bound = s->upper_bound.set ? s->upper_bound.ptr : NULL;
        sums[i].upper_len = s->upper_bound.set ? s->upper_bound.len : 0;
    }
    int rc = floe_expr_manifest_might_match(out, c->projected[si], spec, sums, spec->nfields);
    if (rc < 0)
        return floe__error_context("manifest %s", mf->manifest_path);
    return 0;
}

void floe__scan_plan_free(floe_scan_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->narenas; i++)
        floe__arena_free(p->arenas[i]);
    floe__free(p->arenas);
    floe__free(p->tasks);
    floe__arena_free(p->arena);
    floe__free(p);
}

/* Reserve the plan's task array once, a slot per live file the manifest
 * list counts in each data manifest (bounded by the manifest's length: a
 * list cannot make the plan reserve more than its manifests could hold),
 * so that tasks are written where they stay instead of into per-manifest
 * vectors copied at the end. Without counts (v1 inline manifests, nulls),
 * or when the array cannot be had, every job pushes into its vector. */
static void reserve_tasks(floe_scan_plan *p, job *jobs, size_t njobs)
{
    size_t total = 0;
    for (size_t i = 0; i < njobs; i++) {
        const floe_manifest_file *mf = jobs[i].mf;
        if (!jobs[i].inherit || mf->added_files_count < 0 || mf->existing_files_count < 0 ||
            mf->manifest_length <= 0)
            continue;
        uint64_t n = (uint64_t)mf->added_files_count + (uint64_t)mf->existing_files_count;
        if (n > (uint64_t)mf->manifest_length)
            n = (uint64_t)mf->manifest_length;
        jobs[i].expect = (size_t)n;
        if (mf->content != FLOE_MANIFEST_DATA)
            continue;
        if (n > (SIZE_MAX / sizeof(floe_scan_task)) - total) {
            total = 0; /* no slots at all */
            break;
        }
        jobs[i].cap = (size_t)n;
        total += (size_t)n;
    }
    if (!total || !(p->tasks = floe__malloc(total * sizeof(floe_scan_task)))) {
        for (size_t i = 0; i < njobs; i++)
            jobs[i].cap = 0;
        return;
    }
    size_t at = 0;
    for (size_t i = 0; i < njobs; i++) {
        jobs[i].slot = p->tasks + at;
        at += jobs[i].cap;
    }
}

/* The jobs' tasks, in manifest-list order, as p->tasks: moved down inside
 * the reserved array when every task found its slot, else copied into a
 * new one. */
static int gather_tasks(floe_scan_plan *p, job *jobs, size_t njobs, size_t ntasks, bool in_place)
{
    floe_scan_task *all = in_place ? p->tasks : floe__malloc((ntasks ? ntasks : 1) * sizeof *all);
    if (!all)
        return floe__error_nomem();
    size_t at = 0;
    for (size_t i = 0; i < njobs; i++) {
        job *j = &jobs[i];
        if (j->nslot && all + at != j->slot)
            memmove(all + at, j->slot, j->nslot * sizeof *all);
        at += j->nslot;
        if (j->tasks.len)
            memcpy(all + at, j->tasks.items, j->tasks.len * sizeof *all);
        at += j->tasks.len;
        floe__vec_free(&j->tasks);
    }
    if (!in_place) {
        floe__free(p->tasks);
        p->tasks = all;
    } else if (ntasks) {
        /* give back what pruning left unused (shrinks in place) */
        floe_scan_task *fit = floe__realloc(p->tasks, ntasks * sizeof *fit);
        if (fit)
            p->tasks = fit;
    }
    return 0;
}

static int plan_manifests(floe_scan_plan *p, floe_fileio *io, const floe_scan_plan_options *o,
                          const floe_manifest_file *mfs, size_t nmf, bool inherit)
{
    plan_ctx c = {.p = p, .io = io, .spare_lock = PTHREAD_MUTEX_INITIALIZER};
    c.filter = p->filter->kind != FLOE_EXPR_TRUE;
    c.prune = c.filter && !o->no_pruning;
    int rc = 0;
    floe_pool *pool = NULL;
    if (c.prune) {
        c.projected = floe__arena_calloc(p->arena, p->meta->nspecs + 1, sizeof(const floe_expr *));
        if (!c.projected)
            return floe__error_nomem();
        for (size_t i = 0; i < p->meta->nspecs; i++)
            FLOE_TRY(floe_expr_project_inclusive(&c.projected[i], p->arena, p->filter,
                                                 p->meta->specs[i]));
    }
    p->report.manifests_total = (int64_t)nmf;
    /* level 1: manifest list */
    size_t njobs = 0;
    c.jobs = floe__calloc(nmf ? nmf : 1, sizeof(job));
    if (!c.jobs)
        return floe__error_nomem();
    for (size_t i = 0; i < nmf; i++) {
        bool keep;
        if ((rc = manifest_match(&keep, &c, &mfs[i])) < 0)
            goto done;
        if (!keep) {
            p->report.manifests_skipped++;
            continue;
        }
        job *j = &c.jobs[njobs++];
        j->mf = &mfs[i];
        j->inherit = inherit;
        j->tasks = (floe_vec)FLOE_VEC_INIT(floe_scan_task);
        j->deletes = (floe_vec)FLOE_VEC_INIT(const floe_scan_file *);
    }
    p->arenas = floe__calloc(njobs ? njobs : 1, sizeof(floe_arena *));
    if (!p->arenas) {
        rc = floe__error_nomem();
        goto done;
    }
    for (size_t i = 0; i < njobs; i++)
        c.jobs[i].arena = &p->arenas[i];
    p->narenas = njobs;
    reserve_tasks(p, c.jobs, njobs);
    /* level 2: manifests, in parallel */
    if (njobs > 1 && o->threads != 1) {
        int threads = o->threads;
        if (threads <= 0) {
            long cpus = sysconf(_SC_NPROCESSORS_ONLN);
            int net = floe__s3_read_parallelism(io);
            threads = net > cpus ? net : 0;
        }
        if ((size_t)threads > njobs)
            threads = (int)njobs;
        if (!(pool = floe__pool_new(threads))) {
            rc = floe__error_nomem();
            goto done;
        }
    }
    c.spare_cap = (size_t)(pool ? floe__pool_threads(pool) : 1);
    if (!(c.spare = floe__calloc(c.spare_cap, sizeof(floe_buf *)))) {
        rc = floe__error_nomem();
        goto done;
    }
    floe__progress_init(&c.progress, o->progress, o->progress_payload, "reading manifests",
                        (uint64_t)njobs, 0);
    rc = floe__pool_for(pool, njobs, read_manifest, &c);
    floe__progress_finish(&c.progress);
    if (rc < 0)
        goto done;
    size_t ntasks = 0, ndel = 0;
    bool in_place = p->tasks != NULL;
    for (size_t i = 0; i < njobs; i++) {
        ntasks += c.jobs[i].nslot + c.jobs[i].tasks.len;
        in_place &= c.jobs[i].tasks.len == 0;
        ndel += c.jobs[i].deletes.len;
        p->report.data_files_total += c.jobs[i].data_total;
        p->report.data_files_skipped += c.jobs[i].data_skipped;
        p->report.delete_files_total += c.jobs[i].delete_total;
    }
    const floe_scan_file **dels = floe__malloc((ndel ? ndel : 1) * sizeof(const floe_scan_file *));
    if (!dels) {
        rc = floe__error_nomem();
        goto done;
    }
    if ((rc = gather_tasks(p, c.jobs, njobs, ntasks, in_place)) < 0) {
        floe__free(dels);
        goto done;
    }
    size_t dat = 0;
    for (size_t i = 0; i < njobs; i++) {
        const floe_scan_file *const *from = c.jobs[i].deletes.items;
        for (size_t k = 0; k < c.jobs[i].deletes.len; k++)
            dels[dat++] = from[k];
        floe__vec_free(&c.jobs[i].deletes);
    }
    p->ntasks = ntasks;
    p->report.tasks = (int64_t)ntasks;
    for (size_t i = 0; i < ntasks; i++)
        p->report.records_planned += p->tasks[i].file->record_count;
    rc = floe__scan_assign_deletes(p, dels, ndel);
    floe__free(dels);
done:
    floe__pool_free(pool);
    for (size_t i = 0; i < c.nspare; i++) {
        floe__buf_free(c.spare[i]);
        floe__free(c.spare[i]);
    }
    floe__free(c.spare);
    pthread_mutex_destroy(&c.spare_lock);
    for (size_t i = 0; i < nmf; i++) {
        floe__vec_free(&c.jobs[i].tasks);
        floe__vec_free(&c.jobs[i].deletes);
    }
    floe__free(c.jobs);
    return rc;
}

int floe__scan_plan(floe_scan_plan **out, const floe_table_metadata *meta, floe_fileio *io,
                    const floe_snapshot *snapshot, const floe_schema *schema,
                    const floe_scan_plan_options *opts)
{
    *out = NULL;
    int64_t t0 = floe__mono_ns();
    floe_scan_plan_options defaults = {NULL, true, false, 0, NULL, NULL};
    const floe_scan_plan_options *o = opts ? opts : &defaults;
    floe_scan_plan *p = floe__calloc(1, sizeof(*p));
    if (!p)
        return floe__error_nomem();
    int rc = 0;
    uint8_t *list_bytes = NULL;
    floe_manifest_list *list = NULL;
    floe_manifest_file *synth = NULL;
    floe_buf list_path_buf = FLOE_BUF_INIT;
    if (!(p->arena = floe__arena_new(8192))) {
        rc = floe__error_nomem();
        goto fail;
    }
    p->meta = meta;
    p->snapshot = snapshot;
    p->schema = schema ? schema : floe__metadata_current_schema(meta);
    if (!p->schema) {
        rc = floe__error(FLOE_EINVALID, "scan", "table metadata has no current schema");
        goto fail;
    }
    p->filter = floe_expr_true();
    if (o->filter && (rc = floe_expr_bind(&p->filter, p->arena, p->schema, o->filter,
                                          o->case_sensitive)) < 0)
        goto fail;
    p->report.snapshot_id = snapshot ? snapshot->snapshot_id : -1;
    if (snapshot) {
        const char *list_path = NULL;
        if ((rc = floe__snapshot_manifest_list(snapshot, &list_path_buf, &list_path)) < 0)
            goto fail;
        if (list_path) {
            size_t len;
            if ((rc = floe__scan_read_object(io, list_path, &list_bytes, &len)) < 0 ||
                (rc = floe_manifest_list_read(&list, list_bytes, len, list_path)) < 0) {
                floe__error_context("reading manifest list of snapshot %lld",
                                    (long long)snapshot->snapshot_id);
                goto fail;
            }
            rc = plan_manifests(p, io, o, list->entries, list->nentries, true);
        } else {
            /* v1 snapshot listing its manifests inline: no summaries, no
             * sequence numbers (all 0), spec id from each manifest's header */
            size_t n = snapshot->n_manifests;
            synth = floe__calloc(n ? n : 1, sizeof(*synth));
            if (!synth) {
                rc = floe__error_nomem();
                goto fail;
            }
            for (size_t i = 0; i < n; i++) {
                synth[i].manifest_path = snapshot->manifests[i];
                synth[i].added_snapshot_id = snapshot->snapshot_id;
            }
            rc = plan_manifests(p, io, o, synth, n, false);
        }
        if (rc < 0)
            goto fail;
    }
    floe_manifest_list_free(list);
    floe__free(list_bytes);
    floe__free(synth);
    floe__buf_free(&list_path_buf);
    p->report.plan_ns = floe__mono_ns() - t0;
    *out = p;
    return 0;
fail:
    floe__buf_free(&list_path_buf);
    floe_manifest_list_free(list);
    floe__free(list_bytes);
    floe__free(synth);
    floe__scan_plan_free(p);
    return rc;
}
