/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan/changelog: the changes of a range of snapshots as rows (Spark's
 * changelog view / create_changelog_view: the table's columns plus
 * _change_type, _change_ordinal, _commit_snapshot_id). docs/changelog.md.
 *
 * One rule covers every way a snapshot can change rows (spec "Snapshots",
 * "Row-level Deletes", "Scan Planning"): for snapshot S with parent P, the
 * data files S touched are those live in only one of P and S, or live in
 * both with a different set of applicable delete files. Their rows as read
 * at P (P's deletes applied) and as read at S (S's deletes applied) are
 * compared as multisets: rows only at P are DELETEs, rows only at S are
 * INSERTs, rows in both are copy-on-write carry-overs and never appear.
 * Appends, copy-on-write deletes and overwrites, merge-on-read position
 * and equality deletes and deletion vectors therefore all give the same
 * changelog for the same logical change.
 *
 * Unlike Iceberg's changelog scan, which refuses snapshots that add delete
 * files, this reads them (docs/changelog.md "Merge-on-read snapshots").
 * compute_updates pairs a DELETE and an INSERT of one snapshot by the
 * identifier columns, or on a v3 table without them by `_row_id` (spec
 * "Row Lineage"), read for the touched files only.
 *
 * Streaming: one snapshot at a time, so memory holds the rows of the files
 * that snapshot touched; net_changes needs the whole range's net set.
 */
#include "scan/incremental.h"

#include "arrow/arrow.h"
#define floe_field_summary floe_expr_field_summary
#include "expr/expr.h"
#undef floe_field_summary
#include "spec/value.h"

#include <string.h>

enum { CT_INSERT = 0, CT_DELETE, CT_UPDATE_BEFORE, CT_UPDATE_AFTER };
static const char *const change_names[] = {"INSERT", "DELETE", "UPDATE_BEFORE", "UPDATE_AFTER"};

static const floe_type t_string = {.id = FLOE_T_STRING};
static const floe_type t_int = {.id = FLOE_T_INT};
static const floe_type t_long = {.id = FLOE_T_LONG};

/* v3 row lineage: the _row_id of one occurrence of a row (NULL-free list;
 * a row read without a _row_id has none). */
typedef struct cl_rid {
    struct cl_rid *next;
    int64_t id;
} cl_rid;

typedef struct cl_row {
    struct cl_row *next; /* hash chain */
    uint64_t hash;
    const uint8_t *key;
    size_t keylen;
    floe_value *vals;
    int64_t count; /* multiset count; net mode: inserts - deletes */
    int32_t ordinal;
    int64_t snapshot_id;
    cl_rid *rids;    /* lineage: row ids of the occurrences still counted */
    bool has_rid;    /* lineage, an inserted row: rid is its _row_id */
    int64_t rid;
} cl_row;

typedef struct cl_out {
    const cl_row *row;
    int type;
    int32_t ordinal;
    int64_t snapshot_id;
} cl_out;

/* A multiset of rows keyed by their encoded values. */
typedef struct cl_set {
    floe_intmap *map; /* hash -> cl_row* chain */
    floe_vec order;   /* cl_row*, insertion order */
} cl_set;

static int set_init(cl_set *s)
{
    s->order = (floe_vec)FLOE_VEC_INIT(cl_row *);
    return (s->map = floe__intmap_new()) ? 0 : floe__error_nomem();
}

static void set_free(cl_set *s)
{
    floe__intmap_free(s->map);
    s->map = NULL;
    floe__vec_free(&s->order);
}

static cl_row *set_find(const cl_set *s, uint64_t h, const void *key, size_t len)
{
    for (cl_row *r = floe__intmap_get(s->map, (int64_t)h); r; r = r->next)
        if (r->hash == h && r->keylen == len && memcmp(r->key, key, len) == 0)
            return r;
    return NULL;
}

static int set_add(cl_set *s, cl_row *r)
{
    r->next = floe__intmap_get(s->map, (int64_t)r->hash);
    FLOE_TRY(floe__intmap_put(s->map, (int64_t)r->hash, r));
    cl_row **slot = floe__vec_push(&s->order);
    if (!slot)
        return floe__error_nomem();
    *slot = r;
    return 0;
}

/* ---------------------------------------------------------------- state */

typedef struct cl_source {
    floe_incr_owned own;
    floe_fileio *io;
    const floe_table_metadata *meta;
    const floe_schema *schema;
    floe_incr_range range;
    floe_rs_column *cols;
    size_t ncols; /* table columns */
    bool compute_updates, net_changes;
    size_t nids;
    size_t *ids;  /* identifier column indexes */
    bool lineage; /* compute_updates pairs by _row_id (v3, no identifier columns) */
    int threads;
} cl_source;

typedef struct cl_cursor {
    floe_rowcursor base;
    cl_source *src;
    size_t next_snap;              /* next range index to process */
    floe_scan_plan *prev;          /* plan of the previous snapshot processed */
    const floe_snapshot *prev_snap;
    floe_arena *arena;             /* rows of the current snapshot */
    floe_arena *net_arena;         /* net mode: rows of the range */
    cl_set net;
    floe_vec out;                  /* cl_out */
    size_t pos;                    /* next out index */
    const cl_out *cur;
    floe_buf key;
    bool net_done;
} cl_cursor;

static int copy_values(floe_arena *a, floe_value *vals, size_t n)
{
    for (size_t i = 0; i < n; i++)
        FLOE_TRY(floe__value_copy(a, &vals[i], &vals[i]));
    return 0;
}

static cl_row *new_row(floe_arena *a, const floe_value *vals, size_t n, const floe_buf *key,
                       uint64_t h)
{
    cl_row *r = floe__arena_calloc(a, 1, sizeof(*r));
    if (!r)
        return NULL;
    r->vals = floe__arena_alloc(a, n * sizeof(floe_value) + 1);
    r->key = floe__arena_memdup(a, key->ptr ? key->ptr : "", key->len + 1);
    if (!r->vals || !r->key)
        return NULL;
    if (n)
        memcpy(r->vals, vals, n * sizeof(floe_value));
    if (copy_values(a, r->vals, n) < 0)
        return NULL;
    r->keylen = key->len;
    r->hash = h;
    return r;
}

/* Do two tasks of the same data file have the same delete files? */
static bool same_deletes(const floe_scan_task *a, const floe_scan_task *b)
{
    if (a->ndeletes != b->ndeletes)
        return false;
    for (size_t i = 0; i < a->ndeletes; i++) {
        bool found = false;
        for (size_t j = 0; j < b->ndeletes && !found; j++)
            found = strcmp(a->deletes[i]->path, b->deletes[j]->path) == 0;
        if (!found)
            return false;
    }
    return true;
}

typedef int (*row_fn)(cl_cursor *c, const floe_value *vals, void *payload);

/* Stream the rows of `tasks` (files of `from`'s plan) read with the
 * current schema; call fn for each. */
static int read_rows(cl_cursor *c, const floe_scan_plan *from, floe_vec *tasks, row_fn fn,
                     void *payload)
{
    if (!tasks->len)
        return 0;
    cl_source *src = c->src;
    floe_scan_plan p;
    memset(&p, 0, sizeof(p));
    p.meta = src->meta;
    p.snapshot = from->snapshot;
    p.schema = src->schema;
    p.filter = floe_expr_true();
    p.tasks = tasks->items;
    p.ntasks = tasks->len;
    /* lineage: the table's columns by name, then _row_id (the value after
     * the row's columns; null when the file has none to inherit) */
    const floe_type *root = src->schema->root;
    const char **names = NULL;
    if (src->lineage) {
        if (!(names = floe__calloc(src->ncols + 1, sizeof *names)))
            return floe__error_nomem();
        for (size_t k = 0; k < src->ncols; k++)
            names[k] = root->fields[k].name;
        names[src->ncols] = "_row_id";
    }
    struct ArrowArrayStream st;
    int rc = floe__scan_stream(&p, src->io, names, names ? src->ncols + 1 : 0, src->threads, &st);
    floe__free(names);
    FLOE_TRY(rc);
    struct ArrowArray batch;
    bool have = false;
    int64_t row = 0;
    floe_value *vals = floe__calloc(src->ncols + 1, sizeof(floe_value));
    rc = vals ? 0 : floe__error_nomem();
    while (rc == 0 && (rc = floe__incr_stream_next(&st, &batch, &have, &row)) == 0) {
        for (size_t k = 0; rc == 0 && k < src->ncols; k++)
            rc = floe__arrow_value_at(batch.children[k], root->fields[k].type, row, &vals[k]);
        if (rc == 0 && src->lineage)
            rc = floe__arrow_value_at(batch.children[src->ncols], &t_long, row,
                                      &vals[src->ncols]);
        if (rc == 0)
            rc = fn(c, vals, payload);
    }
    if (rc == FLOE_ITEROVER)
        rc = 0;
    if (have)
        batch.release(&batch);
    st.release(&st);
    floe__free(vals);
    return rc;
}

static int key_of(cl_cursor *c, const floe_value *vals, size_t n, uint64_t *h)
{
    floe__buf_clear(&c->key);
    FLOE_TRY(floe__scan_key(&c->key, vals, n));
    FLOE_TRY(floe__buf_putc(&c->key, 0)); /* keep ptr non-NULL */
    c->key.len--;
    *h = floe__hash_bytes(c->key.ptr, c->key.len);
    return 0;
}

static int on_before(cl_cursor *c, const floe_value *vals, void *payload)
{
    cl_set *before = payload;
    uint64_t h;
    FLOE_TRY(key_of(c, vals, c->src->ncols, &h));
    cl_row *r = set_find(before, h, c->key.ptr, c->key.len);
    if (!r) {
        if (!(r = new_row(c->arena, vals, c->src->ncols, &c->key, h)))
            return floe__error_nomem();
        FLOE_TRY(set_add(before, r));
    }
    r->count++;
    const floe_value *rid = &vals[c->src->ncols];
    if (c->src->lineage && !rid->is_null) {
        cl_rid *n = floe__arena_alloc(c->arena, sizeof *n);
        if (!n)
            return floe__error_nomem();
        n->id = rid->v.i64;
        n->next = r->rids;
        r->rids = n;
    }
    return 0;
}

/* Lineage: a carry-over of `r` consumed one occurrence; drop the row id
 * it carries (a rewrite that kept it), or else one of the ids beyond the
 * count, so that the ids left are those of the deleted occurrences. */
static void take_rid(cl_row *r, const floe_value *rid)
{
    cl_rid **pp = &r->rids;
    while (!rid->is_null && *pp && (*pp)->id != rid->v.i64)
        pp = &(*pp)->next;
    if (!rid->is_null && *pp) {
        *pp = (*pp)->next;
        return;
    }
    int64_t n = 0;
    for (const cl_rid *q = r->rids; q; q = q->next)
        n++;
    if (n > r->count)
        r->rids = r->rids->next;
}

typedef struct after_ctx {
    cl_set *before;
    floe_vec *inserts; /* cl_row* */
} after_ctx;

static int on_after(cl_cursor *c, const floe_value *vals, void *payload)
{
    after_ctx *a = payload;
    uint64_t h;
    FLOE_TRY(key_of(c, vals, c->src->ncols, &h));
    cl_row *r = set_find(a->before, h, c->key.ptr, c->key.len);
    const floe_value *rid = &vals[c->src->ncols];
    if (r && r->count > 0) {
        r->count--; /* carry-over */
        if (c->src->lineage)
            take_rid(r, rid);
        return 0;
    }
    if (!(r = new_row(c->arena, vals, c->src->ncols, &c->key, h)))
        return floe__error_nomem();
    if (c->src->lineage && !rid->is_null) {
        r->has_rid = true;
        r->rid = rid->v.i64;
    }
    cl_row **slot = floe__vec_push(a->inserts);
    if (!slot)
        return floe__error_nomem();
    *slot = r;
    return 0;
}

static int plan_of(floe_scan_plan **out, cl_source *src, const floe_snapshot *s)
{
    *out = NULL;
    if (!s)
        return 0;
    floe_scan_plan_options po = {NULL, true, true, src->threads, NULL, NULL};
    return floe__scan_plan(out, src->meta, src->io, s, NULL, &po);
}

static int emit(cl_cursor *c, const cl_row *r, int type, int32_t ord, int64_t sid)
{
    cl_out *o = floe__vec_push(&c->out);
    if (!o)
        return floe__error_nomem();
    o->row = r;
    o->type = type;
    o->ordinal = ord;
    o->snapshot_id = sid;
    return 0;
}

static int id_key(cl_cursor *c, const cl_row *r, uint64_t *h)
{
    cl_source *src = c->src;
    floe_value tmp[64];
    for (size_t i = 0; i < src->nids; i++)
        tmp[i] = r->vals[src->ids[i]];
    return key_of(c, tmp, src->nids, h);
}

/* The key that pairs a DELETE with an INSERT of one snapshot: the
 * identifier columns, or (lineage) the row's _row_id; *has is false when
 * the row has no _row_id (it is then never paired). */
static int pair_key(cl_cursor *c, const cl_row *r, bool has_rid, int64_t rid, uint64_t *h,
                    bool *has)
{
    *has = true;
    if (!c->src->lineage)
        return id_key(c, r, h);
    *has = has_rid;
    floe_value v = floe_value_long(rid);
    return has_rid ? key_of(c, &v, 1, h) : 0;
}

static int dup_identifier(cl_cursor *c, const cl_row *r, const cl_rid *rid, const char *what,
                          int64_t sid)
{
    floe_buf b = FLOE_BUF_INIT;
    if (c->src->lineage && rid)
        floe__buf_printf(&b, "_row_id %lld", (long long)rid->id);
    for (size_t i = 0; !c->src->lineage && i < c->src->nids; i++) {
        if (i)
            floe__buf_puts(&b, ", ");
        floe_value_format(&r->vals[c->src->ids[i]], &b);
    }
    int rc = floe__error(FLOE_EINVALID, "scan",
                         "Cannot compute updates: several rows with the same identifier (%s) "
                         "were %s in snapshot %lld",
                         b.ptr ? b.ptr : "", what, (long long)sid);
    floe__buf_free(&b);
    return rc;
}

/* The changes of range index i into c->out (or into the net set). */
static int process_snapshot(cl_cursor *c, size_t i)
{
    cl_source *src = c->src;
    const floe_snapshot *s = src->range.snaps[i];
    const floe_table_metadata *m = src->meta;
    int32_t ord = (int32_t)i;
    floe__arena_reset(c->arena);
    if (!(c->prev_snap && s->has_parent && c->prev_snap->snapshot_id == s->parent_snapshot_id)) {
        floe__scan_plan_free(c->prev);
        c->prev = NULL;
        c->prev_snap = NULL;
        const floe_snapshot *par =
            s->has_parent ? floe__metadata_snapshot(m, s->parent_snapshot_id) : NULL;
        FLOE_TRY(plan_of(&c->prev, src, par));
        c->prev_snap = par;
    }
    floe_scan_plan *cur = NULL;
    FLOE_TRY(plan_of(&cur, src, s));
    floe_strmap *pm = floe__strmap_new(), *cm = floe__strmap_new();
    floe_vec before_tasks = FLOE_VEC_INIT(floe_scan_task);
    floe_vec after_tasks = FLOE_VEC_INIT(floe_scan_task);
    floe_vec inserts = FLOE_VEC_INIT(cl_row *);
    cl_set before = {0};
    int rc = (pm && cm) ? set_init(&before) : floe__error_nomem();
    const floe_scan_plan *prev = c->prev;
    for (size_t t = 0; rc == 0 && prev && t < prev->ntasks; t++)
        rc = floe__strmap_put(pm, prev->tasks[t].file->path, &prev->tasks[t]);
    for (size_t t = 0; rc == 0 && t < cur->ntasks; t++)
        rc = floe__strmap_put(cm, cur->tasks[t].file->path, &cur->tasks[t]);
    for (size_t t = 0; rc == 0 && prev && t < prev->ntasks; t++) {
        const floe_scan_task *o = floe__strmap_get(cm, prev->tasks[t].file->path);
        if (o && same_deletes(o, &prev->tasks[t]))
            continue;
        floe_scan_task *slot = floe__vec_push(&before_tasks);
        if (!slot)
            rc = floe__error_nomem();
        else
            *slot = prev->tasks[t];
    }
    for (size_t t = 0; rc == 0 && t < cur->ntasks; t++) {
        const floe_scan_task *o = floe__strmap_get(pm, cur->tasks[t].file->path);
        if (o && same_deletes(o, &cur->tasks[t]))
            continue;
        floe_scan_task *slot = floe__vec_push(&after_tasks);
        if (!slot)
            rc = floe__error_nomem();
        else
            *slot = cur->tasks[t];
    }
    if (rc == 0 && prev)
        rc = read_rows(c, prev, &before_tasks, on_before, &before);
    after_ctx ac = {&before, &inserts};
    if (rc == 0)
        rc = read_rows(c, cur, &after_tasks, on_after, &ac);
    /* deletes: rows of P that S no longer has */
    floe_vec deletes = FLOE_VEC_INIT(cl_row *);
    floe_vec drids = FLOE_VEC_INIT(const cl_rid *); /* lineage: each delete's row id */
    for (size_t k = 0; rc == 0 && k < before.order.len; k++) {
        cl_row *r = *(cl_row **)floe__vec_at(&before.order, k);
        const cl_rid *id = r->rids;
        for (int64_t n = 0; rc == 0 && n < r->count; n++) {
            cl_row **slot = floe__vec_push(&deletes);
            const cl_rid **rs = floe__vec_push(&drids);
            if (!slot || !rs) {
                rc = floe__error_nomem();
                break;
            }
            *slot = r;
            *rs = id;
            if (id)
                id = id->next;
        }
    }
    cl_row **dels = deletes.items, **ins = inserts.items;
    if (rc == 0 && src->net_changes) {
        for (int pass = 0; rc == 0 && pass < 2; pass++) {
            cl_row **list = pass ? ins : dels;
            size_t n = pass ? inserts.len : deletes.len;
            for (size_t k = 0; rc == 0 && k < n; k++) {
                cl_row *r = list[k];
                cl_row *nr = set_find(&c->net, r->hash, r->key, r->keylen);
                if (!nr) {
                    floe_buf kb = {(char *)r->key, r->keylen, r->keylen + 1};
                    if (!(nr = new_row(c->net_arena, r->vals, src->ncols, &kb, r->hash)))
                        rc = floe__error_nomem();
                    else
                        rc = set_add(&c->net, nr);
                }
                if (rc == 0) {
                    nr->count += pass ? 1 : -1;
                    nr->ordinal = ord;
                    nr->snapshot_id = s->snapshot_id;
                }
            }
        }
    } else if (rc == 0 && src->compute_updates) {
        /* pair by identifier: DELETE + INSERT of one id -> UPDATE_BEFORE/AFTER */
        cl_set ids = {0};
        floe_arena *ka = floe__arena_new(4096);
        bool *paired_ins = floe__calloc(inserts.len + 1, 1);
        bool *paired_del = floe__calloc(deletes.len + 1, 1);
        size_t *match = floe__calloc(inserts.len + 1, sizeof(size_t));
        rc = (ka && paired_ins && paired_del && match) ? set_init(&ids) : floe__error_nomem();
        const cl_rid **dr = drids.items;
        for (size_t k = 0; rc == 0 && k < deletes.len; k++) {
            uint64_t h;
            bool has;
            if ((rc = pair_key(c, dels[k], dr[k] != NULL, dr[k] ? dr[k]->id : 0, &h, &has)) < 0)
                break;
            if (!has)
                continue;
            if (set_find(&ids, h, c->key.ptr, c->key.len)) {
                rc = dup_identifier(c, dels[k], dr[k], "deleted", s->snapshot_id);
                break;
            }
            cl_row *r = new_row(ka, NULL, 0, &c->key, h);
            if (!r) {
                rc = floe__error_nomem();
                break;
            }
            r->count = (int64_t)k;
            rc = set_add(&ids, r);
        }
        cl_set seen = {0};
        if (rc == 0)
            rc = set_init(&seen);
        for (size_t k = 0; rc == 0 && k < inserts.len; k++) {
            uint64_t h;
            bool has;
            if ((rc = pair_key(c, ins[k], ins[k]->has_rid, ins[k]->rid, &h, &has)) < 0)
                break;
            if (!has)
                continue;
            if (set_find(&seen, h, c->key.ptr, c->key.len)) {
                cl_rid one = {NULL, ins[k]->rid};
                rc = dup_identifier(c, ins[k], &one, "inserted", s->snapshot_id);
                break;
            }
            cl_row *sr = new_row(ka, NULL, 0, &c->key, h);
            if (!sr || set_add(&seen, sr) < 0) {
                rc = floe__error_nomem();
                break;
            }
            cl_row *d = set_find(&ids, h, c->key.ptr, c->key.len);
            if (d) {
                paired_ins[k] = true;
                paired_del[d->count] = true;
                match[k] = (size_t)d->count;
            }
        }
        for (size_t k = 0; rc == 0 && k < deletes.len; k++)
            if (!paired_del[k])
                rc = emit(c, dels[k], CT_DELETE, ord, s->snapshot_id);
        for (size_t k = 0; rc == 0 && k < inserts.len; k++)
            if (paired_ins[k]) {
                rc = emit(c, dels[match[k]], CT_UPDATE_BEFORE, ord, s->snapshot_id);
                if (rc == 0)
                    rc = emit(c, ins[k], CT_UPDATE_AFTER, ord, s->snapshot_id);
            }
        for (size_t k = 0; rc == 0 && k < inserts.len; k++)
            if (!paired_ins[k])
                rc = emit(c, ins[k], CT_INSERT, ord, s->snapshot_id);
        set_free(&seen);
        set_free(&ids);
        floe__arena_free(ka);
        floe__free(paired_ins);
        floe__free(paired_del);
        floe__free(match);
    } else {
        for (size_t k = 0; rc == 0 && k < deletes.len; k++)
            rc = emit(c, dels[k], CT_DELETE, ord, s->snapshot_id);
        for (size_t k = 0; rc == 0 && k < inserts.len; k++)
            rc = emit(c, ins[k], CT_INSERT, ord, s->snapshot_id);
    }
    floe__vec_free(&deletes);
    floe__vec_free(&drids);
    floe__vec_free(&inserts);
    set_free(&before);
    floe__vec_free(&before_tasks);
    floe__vec_free(&after_tasks);
    floe__strmap_free(pm);
    floe__strmap_free(cm);
    floe__scan_plan_free(c->prev);
    c->prev = cur;
    c->prev_snap = s;
    return rc;
}

/* ---------------------------------------------------------------- cursor */

static void cl_close(floe_rowcursor *cur)
{
    cl_cursor *c = (cl_cursor *)cur;
    if (!c)
        return;
    floe__scan_plan_free(c->prev);
    floe__arena_free(c->arena);
    floe__arena_free(c->net_arena);
    set_free(&c->net);
    floe__vec_free(&c->out);
    floe__buf_free(&c->key);
    floe__free(c);
}

static int cl_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                   floe_rowcursor **out)
{
    (void)cons;
    (void)ncons;
    cl_cursor *c = floe__calloc(1, sizeof(*c));
    if (!c)
        return floe__error_nomem();
    c->base.rs = rs;
    c->src = rs->impl;
    c->out = (floe_vec)FLOE_VEC_INIT(cl_out);
    c->net.order = (floe_vec)FLOE_VEC_INIT(cl_row *);
    int rc = (c->arena = floe__arena_new((size_t)64 * 1024)) ? 0 : floe__error_nomem();
    if (rc == 0 && c->src->net_changes) {
        rc = (c->net_arena = floe__arena_new((size_t)64 * 1024)) ? 0 : floe__error_nomem();
        if (rc == 0)
            rc = set_init(&c->net);
    }
    if (rc < 0) {
        cl_close(&c->base);
        return rc;
    }
    *out = &c->base;
    return 0;
}

static int cl_next(floe_rowcursor *cur)
{
    cl_cursor *c = (cl_cursor *)cur;
    cl_source *src = c->src;
    for (;;) {
        if (c->pos < c->out.len) {
            c->cur = floe__vec_at(&c->out, c->pos++);
            return 0;
        }
        c->out.len = 0;
        c->pos = 0;
        if (src->net_changes) {
            if (c->net_done)
                return FLOE_ITEROVER;
            while (c->next_snap < src->range.n)
                FLOE_TRY(process_snapshot(c, c->next_snap++));
            floe__scan_plan_free(c->prev);
            c->prev = NULL;
            for (size_t k = 0; k < c->net.order.len; k++) {
                cl_row *r = *(cl_row **)floe__vec_at(&c->net.order, k);
                int64_t n = r->count < 0 ? -r->count : r->count;
                for (int64_t j = 0; j < n; j++)
                    FLOE_TRY(emit(c, r, r->count > 0 ? CT_INSERT : CT_DELETE, r->ordinal,
                                  r->snapshot_id));
            }
            c->net_done = true;
            continue;
        }
        if (c->next_snap >= src->range.n)
            return FLOE_ITEROVER;
        FLOE_TRY(process_snapshot(c, c->next_snap++));
    }
}

static int cl_column(floe_rowcursor *cur, size_t col, floe_rs_cell *out)
{
    cl_cursor *c = (cl_cursor *)cur;
    size_t n = c->src->ncols;
    const cl_out *o = c->cur;
    if (col < n)
        *out = floe__rs_cell(o->row->vals[col]);
    else if (col == n) {
        const char *t = change_names[o->type];
        *out = floe__rs_cell(floe_value_bytes(FLOE_T_STRING, t, strlen(t)));
    } else if (col == n + 1)
        *out = floe__rs_cell(floe_value_int(o->ordinal));
    else
        *out = floe__rs_cell(floe_value_long(o->snapshot_id));
    return 0;
}

static void cl_free(floe_rowsource *rs)
{
    if (!rs)
        return;
    cl_source *src = rs->impl;
    if (src) {
        floe__incr_range_free(&src->range);
        floe__free(src->cols);
        floe__free(src->ids);
        floe__incr_owned_free(&src->own);
        floe__free(src);
    }
    floe__free(rs);
}

static const floe_rowsource_ops cl_ops = {cl_open, cl_next, cl_column, cl_close, cl_free};

static int resolve_ids(cl_source *src, const floe_incremental_options *o)
{
    const floe_type *root = src->schema->root;
    size_t n = o->nidentifier_columns ? o->nidentifier_columns
                                      : src->schema->n_identifier_field_ids;
    if (!n && src->meta->format_version >= 3) {
        src->lineage = true; /* row lineage: pair by _row_id */
        return 0;
    }
    if (!n)
        return floe__error(FLOE_EINVALID, "scan",
                           "Cannot compute updates without identifier columns: set "
                           "identifier_columns or the table's identifier fields (or use a "
                           "format-version 3 table, paired by _row_id)");
    if (n > 64)
        return floe__error(FLOE_EINVALID, "scan", "too many identifier columns (%zu)", n);
    if (!(src->ids = floe__calloc(n, sizeof(size_t))))
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        size_t k = root->nfields;
        for (size_t j = 0; j < root->nfields && k == root->nfields; j++) {
            if (o->nidentifier_columns
                    ? o->identifier_columns[i] && !strcmp(root->fields[j].name,
                                                          o->identifier_columns[i])
                    : root->fields[j].id == src->schema->identifier_field_ids[i])
                k = j;
        }
        if (k == root->nfields) {
            if (o->nidentifier_columns)
                return floe__error(FLOE_EINVALID, "scan", "Cannot find identifier column %s",
                                   o->identifier_columns[i] ? o->identifier_columns[i] : "");
            return floe__error(FLOE_EUNSUPPORTED, "scan",
                               "identifier field %d is not a top-level column",
                               (int)src->schema->identifier_field_ids[i]);
        }
        src->ids[i] = k;
    }
    src->nids = n;
    return 0;
}

int floe__changelog_rowsource(floe_rowsource **out, const floe_table_metadata *m,
                              floe_fileio *io, const floe_incremental_options *opts)
{
    *out = NULL;
    floe_incremental_options defaults = FLOE_INCREMENTAL_OPTIONS_INIT;
    const floe_incremental_options *o = opts ? opts : &defaults;
    if (o->version < 1 || o->version > FLOE_INCREMENTAL_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "scan", "unknown floe_incremental_options version %u",
                           o->version);
    if (o->compute_updates && o->net_changes)
        return floe__error(FLOE_EINVALID, "scan",
                           "Cannot compute updates and net changes together");
    floe_rowsource *rs = floe__calloc(1, sizeof(*rs));
    cl_source *src = floe__calloc(1, sizeof(*src));
    if (!rs || !src) {
        floe__free(rs);
        floe__free(src);
        return floe__error_nomem();
    }
    rs->ops = &cl_ops;
    rs->name = "table_changes";
    rs->impl = src;
    src->io = io;
    src->meta = m;
    src->schema = floe__metadata_current_schema(m);
    src->compute_updates = o->compute_updates;
    src->net_changes = o->net_changes;
    src->threads = o->threads;
    src->ncols = src->schema->root->nfields;
    int rc = floe__incr_schema_columns(src->schema, 3, &src->cols);
    if (rc == 0 && o->compute_updates)
        rc = resolve_ids(src, o);
    if (rc == 0)
        rc = floe__incr_range_resolve(&src->range, m, o);
    if (rc < 0) {
        cl_free(rs);
        return rc;
    }
    floe_rs_column *extra = &src->cols[src->ncols];
    extra[0] = (floe_rs_column){"_change_type", &t_string, true, 0};
    extra[1] = (floe_rs_column){"_change_ordinal", &t_int, true, 0};
    extra[2] = (floe_rs_column){"_commit_snapshot_id", &t_long, true, 0};
    rs->columns = src->cols;
    rs->ncolumns = src->ncols + 3;
    *out = rs;
    return 0;
}

int floe__changelog_rowsource_open(floe_rowsource **out, floe_fileio *io,
                                   const char *metadata_location,
                                   const floe_incremental_options *opts)
{
    *out = NULL;
    floe_incr_owned own;
    const floe_table_metadata *m;
    FLOE_TRY(floe__incr_own(&own, io, metadata_location, opts ? opts->io_conf : NULL, &io, &m));
    int rc = floe__changelog_rowsource(out, m, io, opts);
    if (rc < 0) {
        floe__incr_owned_free(&own);
        return rc;
    }
    ((cl_source *)(*out)->impl)->own = own;
    return 0;
}

/* ---------------------------------------------------------------- public API */

struct floe_changelog {
    floe_fileio *io;
    bool own_io;
    floe_table_metadata *meta;
    floe_rowsource *rs;
};

void floe_changelog_free(floe_changelog *cl)
{
    if (!cl)
        return;
    if (cl->rs)
        cl->rs->ops->free(cl->rs);
    floe__metadata_free(cl->meta);
    if (cl->own_io)
        floe_fileio_free(cl->io);
    floe__free(cl);
}

int floe_changelog_open(floe_changelog **out, floe_fileio *io, const char *metadata_location,
                        const floe_incremental_options *opts)
{
    if (!out || !metadata_location)
        return floe__error(FLOE_EINVALID, "scan", "floe_changelog_open: NULL argument");
    *out = NULL;
    floe_changelog *cl = floe__calloc(1, sizeof(*cl));
    if (!cl)
        return floe__error_nomem();
    int rc = 0;
    if (io)
        cl->io = io;
    else {
        cl->own_io = true;
        rc = floe_fileio_open(&cl->io, metadata_location, opts ? opts->io_conf : NULL);
    }
    if (rc == 0)
        rc = floe__incr_load_metadata(cl->io, metadata_location, &cl->meta);
    if (rc == 0)
        rc = floe__changelog_rowsource(&cl->rs, cl->meta, cl->io, opts);
    if (rc < 0) {
        floe_changelog_free(cl);
        return rc;
    }
    *out = cl;
    return 0;
}

void floe_changelog_range(int64_t *start, int64_t *end, const floe_changelog *cl)
{
    const cl_source *src = cl->rs->impl;
    if (start)
        *start = src->range.has_start ? src->range.start : -1;
    if (end)
        *end = src->range.has_end ? src->range.end : -1;
}

int floe_changelog_to_stream(struct ArrowArrayStream *out, floe_changelog *cl)
{
    if (!cl || !out)
        return floe__error(FLOE_EINVALID, "scan", "floe_changelog_to_stream: NULL argument");
    return floe__rs_arrow_stream(cl->rs, NULL, 0, 0, out);
}
