/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/rowdelta: row-level operations as one snapshot — DELETE, UPDATE,
 * MERGE, INSERT OVERWRITE (include/floe/table.h floe_rowlevel_*; spec
 * "Snapshots", "Manifests", "Manifest Lists", "Row-level Deletes",
 * "Sequence Numbers"; the semantics of Java's BaseOverwriteFiles,
 * BaseRowDelta, BaseReplacePartitions, MergingSnapshotProducer validation
 * and SnapshotSummary).
 *
 * Each commit attempt writes, on the current base:
 *  - one data manifest with the added data files (rewritten and new rows),
 *  - one delete manifest per partition spec with the added delete files,
 *  - a rewrite of every parent data manifest holding a removed data file
 *    (that entry DELETED, the other live entries EXISTING with their
 *    sequence numbers), the other parent manifests unchanged,
 *  - the manifest list, and the snapshot + branch update.
 * Before that, when the branch moved since the operation's base snapshot
 * (a lost compare-and-set, or a writer that committed meanwhile), every
 * snapshot in between is checked for files that conflict with the rows the
 * operation read (see include/floe/table.h for the rules and messages).
 */
#include "table/rowdelta.h"

#include "scan/scan.h"
#include "spec/spec.h"
#include "spec/transform.h"
#include "spec/value.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- properties */

static const char *kind_word(floe_rowlevel_kind k)
{
    switch (k) {
    case FLOE_ROWLEVEL_UPDATE: return "update";
    case FLOE_ROWLEVEL_MERGE: return "merge";
    default: return "delete";
    }
}

static int resolve_mode(floe_rowlevel *op, const floe_rowlevel_options *o)
{
    const floe_props *p = &op->t->metadata->properties;
    char key[64];
    op->mode = o ? o->mode : FLOE_ROWLEVEL_MODE_TABLE;
    if (op->kind == FLOE_ROWLEVEL_OVERWRITE_DYNAMIC || op->kind == FLOE_ROWLEVEL_REWRITE) {
        op->mode = FLOE_ROWLEVEL_MODE_COPY_ON_WRITE;
    } else if (op->mode == FLOE_ROWLEVEL_MODE_TABLE) {
        snprintf(key, sizeof key, "write.%s.mode", kind_word(op->kind));
        const char *v = floe__props_get(p, key);
        if (!v || strcmp(v, "copy-on-write") == 0)
            op->mode = FLOE_ROWLEVEL_MODE_COPY_ON_WRITE;
        else if (strcmp(v, "merge-on-read") == 0)
            op->mode = FLOE_ROWLEVEL_MODE_MERGE_ON_READ;
        else
            return floe__error(FLOE_EINVALID, "table", "Unknown row-level operation mode: %s", v);
    } else if (op->mode != FLOE_ROWLEVEL_MODE_COPY_ON_WRITE &&
               op->mode != FLOE_ROWLEVEL_MODE_MERGE_ON_READ) {
        return floe__error(FLOE_EINVALID, "table", "bad row-level mode %d", (int)op->mode);
    }
    if (op->mode == FLOE_ROWLEVEL_MODE_MERGE_ON_READ && op->t->metadata->format_version < 2)
        return floe__error(FLOE_EUNSUPPORTED, "table",
                           "merge-on-read needs format version 2 or later");
    op->isolation = o ? o->isolation : FLOE_ISOLATION_TABLE;
    if (op->kind == FLOE_ROWLEVEL_REWRITE)
        op->isolation = FLOE_ISOLATION_SNAPSHOT; /* appends never conflict with a rewrite */
    if (op->isolation == FLOE_ISOLATION_TABLE) {
        snprintf(key, sizeof key, "write.%s.isolation-level", kind_word(op->kind));
        const char *v = floe__props_get(p, key);
        if (!v || strcmp(v, "serializable") == 0)
            op->isolation = FLOE_ISOLATION_SERIALIZABLE;
        else if (strcmp(v, "snapshot") == 0)
            op->isolation = FLOE_ISOLATION_SNAPSHOT;
        else
            return floe__error(FLOE_EINVALID, "table", "Unsupported isolation level: %s", v);
    }
    return 0;
}

/* ---------------------------------------------------------------- lifecycle */

int floe_rowlevel_new(floe_rowlevel **out, floe_table *t, const floe_rowlevel_options *o)
{
    *out = NULL;
    if (!t)
        return floe__error(FLOE_EINVALID, "table", "NULL table");
    if (o && (o->version == 0 || o->version > FLOE_ROWLEVEL_OPTIONS_VERSION))
        return floe__error(FLOE_EINVALID, "table", "unsupported options version %u", o->version);
    int rc = floe_table_ensure_fresh(t);
    if (rc < 0)
        return rc;
    floe_rowlevel *op = floe__calloc(1, sizeof *op);
    if (!op)
        return floe__error_nomem();
    op->t = t;
    op->kind = o ? o->kind : FLOE_ROWLEVEL_DELETE;
    op->positions.item_size = sizeof(floe_rl_positions);
    op->touched.item_size = sizeof(floe_rl_touched);
    op->delete_files.item_size = sizeof(floe_data_file);
    op->delete_specs.item_size = sizeof(int32_t);
    op->own_files.item_size = sizeof(char *);
    op->dvs.item_size = sizeof(floe_rl_dv);
    rc = (op->arena = floe__arena_new(16384)) ? 0 : floe__error_nomem();
    if (rc == 0 && (op->kind < FLOE_ROWLEVEL_DELETE || op->kind > FLOE_ROWLEVEL_REWRITE))
        rc = floe__error(FLOE_EINVALID, "table", "bad row-level kind %d", (int)op->kind);
    if (rc == 0)
        rc = resolve_mode(op, o);
    if (rc == 0 && !(op->branch = floe__arena_strdup(op->arena, t->branch)))
        rc = floe__error_nomem();
    if (rc == 0) {
        const floe_snapshot_ref *head = NULL;
        rc = floe__table_write_head(t->metadata, op->branch, t->create_branch, &head);
        if (rc == 0 && head) {
            op->has_base = true;
            op->base_id = head->snapshot_id;
        }
    }
    if (rc == 0)
        rc = floe__producer_init(&op->prod, t->io);
    if (rc < 0) {
        floe_rowlevel_free(op);
        return rc;
    }
    *out = op;
    return 0;
}

void floe_rowlevel_free(floe_rowlevel *op)
{
    if (!op)
        return;
    if (!op->done)
        floe__paths_remove(&op->own_files, op->t->io);
    floe_append_free(op->writer); /* deletes its files unless kept */
    floe__paths_free(&op->own_files);
    for (size_t i = 0; i < op->positions.len; i++)
        floe__vec_free(&((floe_rl_positions *)floe__vec_at(&op->positions, i))->pos);
    floe__vec_free(&op->positions);
    floe__vec_free(&op->touched);
    floe__vec_free(&op->delete_files);
    floe__vec_free(&op->delete_specs);
    for (size_t i = 0; i < op->dvs.len; i++) {
        floe_rl_dv *d = floe__vec_at(&op->dvs, i);
        floe__free(d->pos);
        floe__free(d->mpos);
    }
    floe__vec_free(&op->dvs);
    floe__props_free(&op->extra);
    floe__arena_free(op->arena);
    floe__free(op);
}

int64_t floe_rowlevel_base_snapshot(const floe_rowlevel *op)
{
    return op && op->has_base ? op->base_id : -1;
}

floe_rowlevel_mode floe_rowlevel_mode_of(const floe_rowlevel *op)
{
    return op ? op->mode : FLOE_ROWLEVEL_MODE_TABLE;
}

static int check_open(const floe_rowlevel *op)
{
    if (!op)
        return floe__error(FLOE_EINVALID, "table", "NULL operation");
    if (op->done || op->resolved)
        return floe__error(FLOE_EINVALID, "table", "operation already committed");
    return 0;
}

/* A deep copy of an unbound expression into `a`. */
static const floe_expr *copy_expr(floe_arena *a, const floe_expr *e)
{
    switch (e->kind) {
    case FLOE_EXPR_TRUE: return floe_expr_true();
    case FLOE_EXPR_FALSE: return floe_expr_false();
    case FLOE_EXPR_AND: return floe_expr_and(a, copy_expr(a, e->left), copy_expr(a, e->right));
    case FLOE_EXPR_OR: return floe_expr_or(a, copy_expr(a, e->left), copy_expr(a, e->right));
    case FLOE_EXPR_NOT: return floe_expr_not(a, copy_expr(a, e->left));
    default: return floe_expr_pred(a, e->op, e->name, e->lits, e->nlits);
    }
}

static int add_filter(floe_rowlevel *op, const floe_expr *e)
{
    const floe_schema *schema = floe__metadata_current_schema(op->t->metadata);
    /* bind now so a bad column is reported by this call */
    floe_arena *scratch = floe__arena_new(1024);
    if (!scratch)
        return floe__error_nomem();
    const floe_expr *bound = NULL;
    int rc = floe_expr_bind(&bound, scratch, schema, e, false);
    floe__arena_free(scratch);
    FLOE_TRY(rc);
    if (op->filter) {
        e = floe_expr_or(op->arena, op->filter, e);
        if (!e)
            return floe__error_nomem();
    }
    op->filter = e;
    return 0;
}

int floe_rowlevel_delete_where(floe_rowlevel *op, const char *filter)
{
    FLOE_TRY(check_open(op));
    if (!filter || !*filter) {
        op->delete_all = true;
        return 0;
    }
    const floe_expr *e = NULL;
    FLOE_TRY(floe__scan_filter_parse(&e, op->arena, filter,
                                     floe__metadata_current_schema(op->t->metadata)));
    return add_filter(op, e);
}

int floe__rowlevel_delete_where_expr(floe_rowlevel *op, const floe_expr *e)
{
    FLOE_TRY(check_open(op));
    if (!e) {
        op->delete_all = true;
        return 0;
    }
    const floe_expr *copy = copy_expr(op->arena, e);
    if (!copy)
        return floe__error_code() ? floe__error_code() : floe__error_nomem();
    return add_filter(op, copy);
}

void floe__rowlevel_conflict_all(floe_rowlevel *op)
{
    if (op)
        op->conflict_all = true;
}

int floe_rowlevel_delete_positions(floe_rowlevel *op, const char *path, const int64_t *pos,
                                   size_t n)
{
    FLOE_TRY(check_open(op));
    if (!path || (n && !pos))
        return floe__error(FLOE_EINVALID, "table", "NULL argument");
    floe_rl_positions *p = NULL;
    for (size_t i = 0; i < op->positions.len && !p; i++) {
        floe_rl_positions *q = floe__vec_at(&op->positions, i);
        if (strcmp(q->path, path) == 0)
            p = q;
    }
    if (!p) {
        p = floe__vec_push(&op->positions);
        if (!p)
            return floe__error_nomem();
        p->pos.item_size = sizeof(int64_t);
        if (!(p->path = floe__arena_strdup(op->arena, path))) {
            op->positions.len--;
            return floe__error_nomem();
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (pos[i] < 0)
            return floe__error(FLOE_EINVALID, "table", "negative position %lld", (long long)pos[i]);
        int64_t *slot = floe__vec_push(&p->pos);
        if (!slot)
            return floe__error_nomem();
        *slot = pos[i];
    }
    return 0;
}

/* The data writer; on a v3 table it keeps row lineage (copy-on-write
 * survivors and UPDATE's new versions keep their _row_id). */
int floe__rl_open_writer(floe_rowlevel *op)
{
    if (op->writer)
        return 0;
    FLOE_TRY(floe_append_new(&op->writer, op->t));
    if (op->t->metadata->format_version >= 3)
        floe__append_set_lineage(op->writer);
    return 0;
}

int floe__rowlevel_writer(floe_rowlevel *op, floe_append **out)
{
    FLOE_TRY(check_open(op));
    FLOE_TRY(floe__rl_open_writer(op));
    *out = op->writer;
    return 0;
}

bool floe__rowlevel_lineage(const floe_rowlevel *op)
{
    return op->t->metadata->format_version >= 3;
}

int floe_rowlevel_write(floe_rowlevel *op, const struct ArrowArray *batch)
{
    floe_append *w = NULL;
    FLOE_TRY(floe__rowlevel_writer(op, &w));
    op->wrote_rows = true;
    return floe_append_write(w, batch);
}

int floe_rowlevel_write_equality_deletes(floe_rowlevel *op, const int32_t *ids, size_t nids,
                                         const struct ArrowArray *batch)
{
    FLOE_TRY(check_open(op));
    if (!ids)
        return floe__error(FLOE_EINVALID, "table", "NULL equality_ids");
    return floe__rl_write_eq_deletes(op, ids, nids, batch);
}

int floe_rowlevel_set(floe_rowlevel *op, const char *key, const char *value)
{
    if (!op || !key || !value)
        return floe__error(FLOE_EINVALID, "table", "NULL argument");
    return floe__props_set(&op->extra, key, value);
}

/* ---------------------------------------------------------------- manifests */

static int read_manifest(floe_rowlevel *op, const floe_manifest_file *mf, floe_buf *data,
                         floe_manifest **out)
{
    FLOE_TRY(floe__io_read_all(op->t->io, mf->manifest_path, (size_t)1 << 31, data));
    return floe_manifest_read(out, (const uint8_t *)data->ptr, data->len, mf->manifest_path, mf);
}

/* ---------------------------------------------------------------- validation */

/* Did the operation read or name this data file? */
static bool touched_by_path(floe_rowlevel *op, const char *path)
{
    for (size_t i = 0; i < op->touched.len; i++)
        if (strcmp(((floe_rl_touched *)floe__vec_at(&op->touched, i))->path, path) == 0)
            return true;
    for (size_t i = 0; i < op->positions.len; i++)
        if (strcmp(((floe_rl_positions *)floe__vec_at(&op->positions, i))->path, path) == 0)
            return true;
    return false;
}

static bool same_partition(const floe_partition_value *a, const floe_partition_value *b)
{
    if (a->n != b->n)
        return false;
    for (size_t k = 0; k < a->n; k++) {
        const floe_value *x = &a->values[k], *y = &b->values[k];
        if (x->is_null != y->is_null || (!x->is_null && floe_value_compare(x, y) != 0))
            return false;
    }
    return true;
}

/* Is delete file `d` a deletion vector (one blob of a Puffin file)? */
bool floe__data_file_is_dv(const floe_data_file *d)
{
    return d->content == FLOE_FILE_POSITION_DELETES && d->has_content_offset &&
           d->file_format && strcmp(d->file_format, "PUFFIN") == 0;
}

/* Does the operation add a DV for data file `path`? (Java's
 * validateAddedDVs: two DVs for one data file in a snapshot are invalid.) */
static bool adds_dv_for(const floe_rowlevel *op, const char *path)
{
    for (size_t i = 0; i < op->delete_files.len; i++) {
        const floe_data_file *d = floe__vec_at(&op->delete_files, i);
        if (floe__data_file_is_dv(d) && d->referenced_data_file &&
            strcmp(d->referenced_data_file, path) == 0)
            return true;
    }
    return false;
}

static bool delete_applies(floe_rowlevel *op, const floe_data_file *d, int32_t spec_id)
{
    for (size_t i = 0; i < op->touched.len; i++) {
        const floe_rl_touched *t = floe__vec_at(&op->touched, i);
        if (d->referenced_data_file) {
            if (strcmp(d->referenced_data_file, t->path) == 0)
                return true;
            continue;
        }
        if (d->content == FLOE_FILE_EQUALITY_DELETES)
            return true; /* conservative: keys may hit any touched file */
        if (spec_id == t->spec_id && same_partition(&d->partition, &t->partition))
            return true;
    }
    return false;
}

static int metrics_of(const floe_data_file *d, floe_arena *a, floe_file_metrics *fm)
{
    memset(fm, 0, sizeof *fm);
    fm->record_count = d->record_count;
#define COUNTS(src, dst, cnt)                                                                      \
    do {                                                                                           \
        if ((src).set && (src).n) {                                                                \
            floe_metric_count *mc = floe__arena_alloc(a, (src).n * sizeof *mc);                    \
            if (!mc)                                                                               \
                return floe__error_nomem();                                                        \
            for (size_t i = 0; i < (src).n; i++)                                                   \
                mc[i] = (floe_metric_count){(src).items[i].field_id, (src).items[i].value};        \
            (dst) = mc;                                                                            \
            (cnt) = (src).n;                                                                       \
        }                                                                                          \
    } while (0)
#define BOUNDS(src, dst, cnt)                                                                      \
    do {                                                                                           \
        if ((src).set && (src).n) {                                                                \
            floe_metric_bound *mb = floe__arena_alloc(a, (src).n * sizeof *mb);                    \
            if (!mb)                                                                               \
                return floe__error_nomem();                                                        \
            for (size_t i = 0; i < (src).n; i++)                                                   \
                mb[i] = (floe_metric_bound){(src).items[i].field_id, (src).items[i].ptr,           \
                                            (src).items[i].len};                                   \
            (dst) = mb;                                                                            \
            (cnt) = (src).n;                                                                       \
        }                                                                                          \
    } while (0)
    COUNTS(d->value_counts, fm->value_counts, fm->n_value_counts);
    COUNTS(d->null_value_counts, fm->null_value_counts, fm->n_null_value_counts);
    COUNTS(d->nan_value_counts, fm->nan_value_counts, fm->n_nan_value_counts);
    BOUNDS(d->lower_bounds, fm->lower_bounds, fm->n_lower_bounds);
    BOUNDS(d->upper_bounds, fm->upper_bounds, fm->n_upper_bounds);
#undef COUNTS
#undef BOUNDS
    return 0;
}

typedef struct conflicts {
    floe_buf added, deleted, deletes; /* ", "-separated paths */
    floe_arena *arena;                /* the attempt's: the DVs to merge */
    floe_vec merges;                  /* floe_data_file: concurrent DVs to merge, newest first */
} conflicts;

/* Beyond Java (apache/iceberg#17754): a concurrent DV for a data file this
 * operation writes a DV for commutes with ours when both commits only
 * delete positions — this operation is a DELETE that writes no rows, the
 * concurrent snapshot a `delete` that added no data file — and is then
 * merged into our DV on retry instead of failing. */
static bool dv_commutes(const floe_rowlevel *op, const floe_snapshot *s)
{
    const char *o = floe__snapshot_summary(s, "operation");
    const char *added = floe__snapshot_summary(s, "added-data-files");
    return op->kind == FLOE_ROWLEVEL_DELETE && !op->wrote_rows && op->nnew_files == 0 && o &&
           strcmp(o, "delete") == 0 && (!added || strcmp(added, "0") == 0);
}

/* Record the concurrent DV `d` for merging; only the newest of a data file
 * (the first met walking back from the head) is live, and it holds the
 * older ones' positions. */
static int note_merge(conflicts *cf, const floe_data_file *d)
{
    for (size_t i = 0; i < cf->merges.len; i++)
        if (!strcmp(((floe_data_file *)floe__vec_at(&cf->merges, i))->referenced_data_file,
                    d->referenced_data_file))
            return 0;
    floe_data_file *slot = floe__vec_push(&cf->merges);
    if (!slot)
        return floe__error_nomem();
    int rc = floe__data_file_copy(cf->arena, slot, d);
    if (rc < 0)
        cf->merges.len--;
    return rc;
}

static int add_path(floe_buf *b, const char *p)
{
    return floe__buf_printf(b, "%s%s", b->len ? ", " : "", p);
}

/* Check the entries one concurrent snapshot added or removed. */
static int check_snapshot(floe_rowlevel *op, const floe_table_metadata *base,
                          const floe_snapshot *s, const floe_expr *bound, floe_arena *scratch,
                          conflicts *cf)
{
    floe_buf ldata = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    int rc = floe__producer_read_list(&op->prod, s, &ldata, &l);
    for (size_t i = 0; rc == 0 && l && i < l->nentries; i++) {
        const floe_manifest_file *mf = &l->entries[i];
        if (mf->added_snapshot_id != s->snapshot_id)
            continue;
        floe_buf mdata = FLOE_BUF_INIT;
        floe_manifest *man = NULL;
        rc = read_manifest(op, mf, &mdata, &man);
        for (size_t k = 0; rc == 0 && k < man->nentries; k++) {
            const floe_manifest_entry *e = &man->entries[k];
            if (!e->has_snapshot_id || e->snapshot_id != s->snapshot_id)
                continue;
            const floe_data_file *d = &e->data_file;
            if (d->content == FLOE_FILE_DATA && e->status == FLOE_ENTRY_ADDED &&
                op->kind == FLOE_ROWLEVEL_OVERWRITE_DYNAMIC) {
                /* ReplacePartitions: new data in a replaced partition */
                bool hit = false;
                for (size_t f = 0; f < op->nnew_files && !hit; f++)
                    hit = mf->partition_spec_id == base->default_spec_id &&
                          same_partition(&d->partition, &op->new_files[f].partition);
                if (hit && op->isolation == FLOE_ISOLATION_SERIALIZABLE)
                    rc = add_path(&cf->added, d->file_path);
            } else if (d->content == FLOE_FILE_DATA && e->status == FLOE_ENTRY_ADDED) {
                if (op->isolation != FLOE_ISOLATION_SERIALIZABLE ||
                    (!bound && !op->delete_all && !op->conflict_all))
                    continue;
                bool might = true;
                if (bound) {
                    floe_file_metrics fm;
                    rc = metrics_of(d, scratch, &fm);
                    if (rc == 0)
                        rc = floe_expr_metrics_might_match(&might, bound, &fm);
                }
                if (rc == 0 && might)
                    rc = add_path(&cf->added, d->file_path);
            } else if (d->content == FLOE_FILE_DATA && e->status == FLOE_ENTRY_DELETED) {
                if (touched_by_path(op, d->file_path))
                    rc = add_path(&cf->deleted, d->file_path);
            } else if (d->content != FLOE_FILE_DATA && e->status == FLOE_ENTRY_ADDED) {
                bool dv_conflict = floe__data_file_is_dv(d) && d->referenced_data_file &&
                                   adds_dv_for(op, d->referenced_data_file);
                if (dv_conflict && dv_commutes(op, s))
                    rc = note_merge(cf, d);
                else if (dv_conflict)
                    rc = floe__error(FLOE_EINVALID, "table",
                                     "Found concurrently added DV for %s: DV{location=%s, "
                                     "offset=%lld, length=%lld, referencedDataFile=%s}",
                                     d->referenced_data_file, d->file_path,
                                     (long long)d->content_offset,
                                     (long long)d->content_size_in_bytes, d->referenced_data_file);
                else if (delete_applies(op, d, mf->partition_spec_id))
                    rc = add_path(&cf->deletes, d->file_path);
            }
        }
        floe_manifest_free(man);
        floe__buf_free(&mdata);
    }
    floe_manifest_list_free(l);
    floe__buf_free(&ldata);
    return rc;
}

/* Check the snapshots committed since the operation's base; the
 * concurrent DVs to merge (commuting deletes) go to *merges (floe_data_file
 * copies in `arena`). */
static int validate(floe_rowlevel *op, const floe_table_metadata *base,
                    const floe_snapshot_ref *head, floe_arena *arena, floe_vec *merges)
{
    int64_t cur = head ? head->snapshot_id : -1;
    if ((!op->has_base && cur < 0) || (op->has_base && cur == op->base_id))
        return 0;
    floe_arena *scratch = floe__arena_new(4096);
    if (!scratch)
        return floe__error_nomem();
    const floe_expr *bound = NULL;
    floe_buf text = FLOE_BUF_INIT;
    conflicts cf = {FLOE_BUF_INIT, FLOE_BUF_INIT, FLOE_BUF_INIT, arena, *merges};
    int rc = 0;
    if (op->filter)
        rc =
            floe_expr_bind(&bound, scratch, floe__metadata_current_schema(base), op->filter, false);
    if (rc == 0)
        rc = bound ? floe_expr_format(bound, &text) : floe__buf_puts(&text, "true");
    /* snapshots committed on the branch since the base, newest first */
    const floe_snapshot *s = cur >= 0 ? floe__metadata_snapshot(base, cur) : NULL;
    size_t guard = 0;
    while (rc == 0 && s && !(op->has_base && s->snapshot_id == op->base_id)) {
        rc = check_snapshot(op, base, s, bound, scratch, &cf);
        if (++guard > 1000000)
            break;
        s = s->has_parent ? floe__metadata_snapshot(base, s->parent_snapshot_id) : NULL;
    }
    if (rc == 0 && !s && op->has_base)
        rc = floe__error(FLOE_EINVALID, "table",
                         "Cannot determine history between starting snapshot %lld and the last "
                         "known ancestor of %s",
                         (long long)op->base_id, op->branch);
    if (rc == 0 && cf.added.len)
        rc = floe__error(FLOE_EINVALID, "table",
                         "Found conflicting files that can contain records matching %s: [%s]",
                         text.ptr, cf.added.ptr);
    if (rc == 0 && cf.deleted.len && op->kind == FLOE_ROWLEVEL_REWRITE)
        rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "table",
                            "Missing required files to delete: [%s]", cf.deleted.ptr);
    if (rc == 0 && cf.deletes.len && op->kind == FLOE_ROWLEVEL_REWRITE)
        rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "table",
                            "Cannot commit, found new delete for replaced data file: [%s]",
                            cf.deletes.ptr);
    if (rc == 0 && cf.deleted.len) {
        if (op->mode == FLOE_ROWLEVEL_MODE_MERGE_ON_READ)
            rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "table",
                                "Cannot commit, missing data files: [%s]", cf.deleted.ptr);
        else
            rc = floe__error(FLOE_EINVALID, "table",
                             "Found conflicting deleted files that can contain records matching "
                             "%s: [%s]",
                             text.ptr, cf.deleted.ptr);
    }
    if (rc == 0 && cf.deletes.len)
        rc = floe__error(FLOE_EINVALID, "table",
                         "Found new conflicting delete files that can apply to records matching "
                         "%s: [%s]",
                         text.ptr, cf.deletes.ptr);
    *merges = cf.merges;
    floe__buf_free(&cf.added);
    floe__buf_free(&cf.deleted);
    floe__buf_free(&cf.deletes);
    floe__buf_free(&text);
    floe__arena_free(scratch);
    return rc;
}

bool floe__scan_file_is_dv(const floe_scan_file *f)
{
    return f->content == FLOE_FILE_POSITION_DELETES &&
           floe__scan_delete_info(f)->has_content_offset && f->format &&
           strcmp(f->format, "PUFFIN") == 0;
}

/* ---------------------------------------------------------------- summary */

typedef floe_summary_counts counts;

static const char *operation_of(const floe_rowlevel *op, const counts *n)
{
    if (op->kind == FLOE_ROWLEVEL_OVERWRITE_DYNAMIC)
        return "overwrite";
    if (op->kind == FLOE_ROWLEVEL_REWRITE)
        return "replace";
    bool adds = n->added_files > 0, deletes = n->pos_files + n->eq_files + n->dvs > 0;
    bool removes = n->removed_files > 0;
    if (adds && !deletes && !removes)
        return "append";
    if (!adds)
        return "delete";
    return "overwrite";
}

/* ---------------------------------------------------------------- commit */

typedef struct rl_commit {
    floe_rowlevel *op;
    const floe_data_file *files; /* added data files (the writer's) */
    size_t nfiles;
    floe_strmap *removed; /* path -> floe_rl_touched* (copy-on-write removals) */
    size_t nremoved;
    bool removes_deletes; /* some removals are delete files: filter delete manifests too */
    bool removes_data;    /* v3: their DVs go too (dangling_dv) */
} rl_commit;

/* cm->removed from op->touched: the files this commit removes, a DV keyed
 * by path and content offset (one Puffin file may hold several). Re-built
 * when a retry's merge changed which DV is replaced. */
static int removals(rl_commit *cm)
{
    floe_rowlevel *op = cm->op;
    floe__strmap_free(cm->removed);
    cm->nremoved = 0;
    cm->removes_deletes = false;
    cm->removes_data = false;
    if (!(cm->removed = floe__strmap_new()))
        return floe__error_nomem();
    for (size_t i = 0; i < op->touched.len; i++) {
        floe_rl_touched *t = floe__vec_at(&op->touched, i);
        if (!t->removed)
            continue;
        const char *key = !t->is_dv ? t->path
                                    : floe__arena_sprintf(op->arena, "%s#%lld", t->path,
                                                          (long long)t->content_offset);
        if (!key)
            return floe__error_nomem();
        if (floe__strmap_has(cm->removed, key))
            continue;
        FLOE_TRY(floe__strmap_put(cm->removed, key, t));
        cm->nremoved++;
        cm->removes_deletes = cm->removes_deletes || t->content != FLOE_FILE_DATA;
        cm->removes_data = cm->removes_data || t->content == FLOE_FILE_DATA;
    }
    return 0;
}

/* A DV of a data file this commit removes applies to nothing any more: it
 * goes in the same commit, as Java's MergingSnapshotProducer does
 * (removeDanglingDeletesFor; at most one DV per data file, spec "Deletion
 * Vectors"). */
static bool dangling_dv(const rl_commit *cm, const floe_data_file *d)
{
    if (!cm->removes_data || !floe__data_file_is_dv(d) || !d->referenced_data_file)
        return false;
    const floe_rl_touched *t = floe__strmap_get(cm->removed, d->referenced_data_file);
    return t && t->content == FLOE_FILE_DATA;
}

/* A retry that met concurrent DVs of commuting deletes: each of our DVs
 * for such a data file becomes ours merged with the concurrent one (which
 * holds the positions of the DV we read, if any), and replaces it instead
 * of the one we read; the Puffin file is re-written when that changed. */
static int dv_merge(rl_commit *cm, const floe_vec *merges)
{
    floe_rowlevel *op = cm->op;
    bool changed = false;
    floe_buf key = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < op->dvs.len; i++) {
        floe_rl_dv *d = floe__vec_at(&op->dvs, i);
        const floe_data_file *m = NULL;
        for (size_t k = 0; k < merges->len && !m; k++) {
            const floe_data_file *x = floe__vec_at(merges, k);
            if (!strcmp(x->referenced_data_file, d->path))
                m = x;
        }
        if (!m)
            continue;
        floe__buf_clear(&key);
        if ((rc = floe__buf_printf(&key, "%s#%lld", m->file_path,
                                   (long long)m->content_offset)) < 0)
            break;
        if (d->merged_key && !strcmp(d->merged_key, key.ptr))
            continue; /* an earlier attempt merged this one */
        floe_scan_file dv = {0}, data = {0};
        floe_scan_delete_info dvi = {0};
        dv.path = m->file_path;
        dv.format = m->file_format;
        dv.content = (int8_t)m->content;
        dv.record_count = m->record_count;
        dv.file_size_in_bytes = m->file_size_in_bytes;
        dvi.has_content_offset = true;
        dvi.content_offset = m->content_offset;
        dvi.content_size_in_bytes = m->content_size_in_bytes;
        dvi.referenced_data_file = m->referenced_data_file;
        dv.del = &dvi;
        data.path = d->path;
        data.record_count = d->record_count;
        const floe_scan_file *dl[1] = {&dv};
        floe_scan_posdel pd = {0, NULL};
        rc = floe__scan_load_posdeletes(op->t->io, &data, dl, 1, &pd);
        floe__free(d->mpos);
        d->mpos = NULL;
        if (rc == 0)
            rc = floe__rl_pos_union(d->pos, d->n, pd.pos, pd.n, &d->mpos, &d->mn);
        floe__free(pd.pos);
        if (rc == 0 && !(d->merged_key = floe__arena_strdup(op->arena, key.ptr)))
            rc = floe__error_nomem();
        /* the concurrent DV leaves the table in our commit, not the one we read */
        if (rc == 0 && d->removal == SIZE_MAX) {
            floe_scan_file f = dv;
            f.partition = d->partition;
            f.spec_id = d->spec_id;
            rc = floe__rowlevel_remove_file(op, &f);
            if (rc == 0)
                d->removal = op->touched.len - 1;
        }
        if (rc == 0) {
            floe_rl_touched *t = floe__vec_at(&op->touched, d->removal);
            if (!(t->path = floe__arena_strdup(op->arena, m->file_path)))
                rc = floe__error_nomem();
            t->content = FLOE_FILE_POSITION_DELETES;
            t->is_dv = true;
            t->content_offset = m->content_offset;
            t->record_count = m->record_count;
        }
        changed = true;
    }
    floe__buf_free(&key);
    if (rc == 0 && changed)
        rc = floe__rl_write_dvs(op);
    if (rc == 0 && changed)
        rc = removals(cm);
    return rc;
}

static int push_mf(floe_vec *v, const floe_manifest_file *mf)
{
    const floe_manifest_file **slot = floe__vec_push(v);
    if (!slot)
        return floe__error_nomem();
    *slot = mf;
    return 0;
}

const char *floe__rowlevel_file_key(floe_buf *b, const char *path, bool dv, int64_t offset)
{
    if (!dv)
        return path;
    floe__buf_clear(b);
    if (floe__buf_printf(b, "%s#%lld", path, (long long)offset) < 0)
        return NULL;
    return b->ptr;
}


/* Rewrite a parent data manifest that holds removed files; `found` counts
 * them. Returns 1 through *rewritten when it did. */
static int filter_manifest(rl_commit *rc_, const floe_table_metadata *base, floe_table_change *c,
                           const floe_manifest_file *mf, floe_vec *out, size_t *found, counts *n)
{
    floe_rowlevel *op = rc_->op;
    floe_buf data = FLOE_BUF_INIT;
    floe_manifest *man = NULL;
    int rc = read_manifest(op, mf, &data, &man);
    bool hit = false;
    floe_buf key = FLOE_BUF_INIT;
    for (size_t k = 0; rc == 0 && k < man->nentries && !hit; k++) {
        const floe_data_file *d = &man->entries[k].data_file;
        const char *kk = floe__rowlevel_file_key(&key, d->file_path, floe__data_file_is_dv(d),
                                                 d->content_offset);
        if (!kk)
            rc = floe__error_nomem();
        hit = kk && man->entries[k].status != FLOE_ENTRY_DELETED &&
              (floe__strmap_has(rc_->removed, kk) || dangling_dv(rc_, d));
    }
    if (rc == 0 && !hit)
        rc = push_mf(out, mf);
    if (rc == 0 && hit) {
        floe_producer_manifest mw;
        floe_manifest_file *nmf = NULL;
        rc = floe__producer_manifest_open(&op->prod, base, mf->partition_spec_id, mf->content,
                                          c->arena, &mw);
        for (size_t k = 0; rc == 0 && k < man->nentries; k++) {
            floe_manifest_entry e = man->entries[k];
            if (e.status == FLOE_ENTRY_DELETED)
                continue;
            const floe_data_file *d = &e.data_file;
            const char *kk = floe__rowlevel_file_key(&key, d->file_path, floe__data_file_is_dv(d),
                                                     d->content_offset);
            if (!kk) {
                rc = floe__error_nomem();
                break;
            }
            bool named = floe__strmap_has(rc_->removed, kk);
            if (named || dangling_dv(rc_, d)) {
                e.status = FLOE_ENTRY_DELETED;
                e.has_snapshot_id = true;
                e.snapshot_id = op->prod.snapshot_id;
                *found += named;
                if (d->content == FLOE_FILE_DATA) {
                    n->removed_files++;
                    n->removed_records += d->record_count;
                    n->removed_size += d->file_size_in_bytes;
                } else if (floe__data_file_is_dv(d)) {
                    n->removed_dvs++;
                    n->removed_pos_records += d->record_count;
                    n->removed_delete_size += d->content_size_in_bytes;
                } else if (d->content == FLOE_FILE_POSITION_DELETES) {
                    n->removed_pos_files++;
                    n->removed_pos_records += d->record_count;
                    n->removed_delete_size += d->file_size_in_bytes;
                } else {
                    n->removed_eq_files++;
                    n->removed_eq_records += d->record_count;
                    n->removed_delete_size += d->file_size_in_bytes;
                }
            } else {
                e.status = FLOE_ENTRY_EXISTING;
            }
            rc = floe_manifest_writer_add(mw.w, &e);
        }
        if (rc == 0)
            rc = floe__producer_manifest_close(&mw, op->t->io, c, NULL, c->arena, &nmf);
        floe__producer_manifest_free(&mw);
        if (rc == 0)
            rc = push_mf(out, nmf);
    }
    floe__buf_free(&key);
    floe_manifest_free(man);
    floe__buf_free(&data);
    return rc;
}

static int rl_prepare(const floe_table_metadata *base, floe_table_change *c, void *payload)
{
    rl_commit *cm = payload;
    floe_rowlevel *op = cm->op;
    FLOE_TRY(floe__producer_begin(&op->prod, base));
    const floe_snapshot_ref *head = floe__metadata_ref(base, op->branch), *from = NULL;
    FLOE_TRY(floe__table_write_head(base, op->branch, op->t->create_branch, &from));
    floe_vec merges = FLOE_VEC_INIT(floe_data_file);
    int vrc = validate(op, base, from, c->arena, &merges);
    if (vrc == 0 && merges.len)
        vrc = dv_merge(cm, &merges);
    floe__vec_free(&merges);
    FLOE_TRY(vrc);
    const floe_snapshot *parent = from ? floe__metadata_snapshot(base, from->snapshot_id) : NULL;
    counts n;
    memset(&n, 0, sizeof n);
    floe_vec manifests = FLOE_VEC_INIT(const floe_manifest_file *);
    floe_buf ldata = FLOE_BUF_INIT;
    floe_manifest_list *plist = NULL;
    int rc = parent ? floe__producer_read_list(&op->prod, parent, &ldata, &plist) : 0;
    /* the new data manifest */
    if (rc == 0 && cm->nfiles) {
        floe_producer_manifest mw;
        floe_manifest_file *mf = NULL;
        rc = floe__producer_manifest_open(&op->prod, base, base->default_spec_id,
                                          FLOE_MANIFEST_DATA, c->arena, &mw);
        for (size_t i = 0; rc == 0 && i < cm->nfiles; i++) {
            n.added_files++;
            n.added_records += cm->files[i].record_count;
            n.added_size += cm->files[i].file_size_in_bytes;
            rc = floe__producer_manifest_add_new(&mw, &cm->files[i]);
        }
        if (rc == 0)
            rc = floe__producer_manifest_close(&mw, op->t->io, c, NULL, c->arena, &mf);
        floe__producer_manifest_free(&mw);
        if (rc == 0)
            rc = push_mf(&manifests, mf);
    }
    /* delete manifests, one per spec */
    const int32_t *specs = op->delete_specs.items;
    for (size_t i = 0; rc == 0 && i < op->delete_files.len; i++) {
        bool first = true;
        for (size_t k = 0; k < i && first; k++)
            first = specs[k] != specs[i];
        if (!first)
            continue;
        floe_producer_manifest mw;
        floe_manifest_file *mf = NULL;
        rc = floe__producer_manifest_open(&op->prod, base, specs[i], FLOE_MANIFEST_DELETES,
                                          c->arena, &mw);
        for (size_t k = i; rc == 0 && k < op->delete_files.len; k++) {
            if (specs[k] != specs[i])
                continue;
            const floe_data_file *d = floe__vec_at(&op->delete_files, k);
            if (floe__data_file_is_dv(d)) {
                n.dvs++;
                n.pos_records += d->record_count;
                n.delete_size += d->content_size_in_bytes;
            } else if (d->content == FLOE_FILE_POSITION_DELETES) {
                n.pos_files++;
                n.pos_records += d->record_count;
                n.delete_size += d->file_size_in_bytes;
            } else {
                n.eq_files++;
                n.eq_records += d->record_count;
                n.delete_size += d->file_size_in_bytes;
            }
            rc = floe__producer_manifest_add_new(&mw, d);
        }
        if (rc == 0)
            rc = floe__producer_manifest_close(&mw, op->t->io, c, NULL, c->arena, &mf);
        floe__producer_manifest_free(&mw);
        if (rc == 0)
            rc = push_mf(&manifests, mf);
    }
    /* the parent's manifests, filtered */
    size_t found = 0;
    for (size_t i = 0; rc == 0 && plist && i < plist->nentries; i++) {
        const floe_manifest_file *mf = &plist->entries[i];
        if (cm->nremoved &&
            (mf->content == FLOE_MANIFEST_DATA || cm->removes_deletes ||
             (cm->removes_data && base->format_version >= 3)) &&
            (mf->added_files_count != 0 || mf->existing_files_count != 0))
            rc = filter_manifest(cm, base, c, mf, &manifests, &found, &n);
        else
            rc = push_mf(&manifests, mf);
    }
    if (rc == 0 && found < cm->nremoved)
        rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "table",
                            "Missing required files to delete: %zu of %zu", cm->nremoved - found,
                            cm->nremoved);
    /* changed partitions */
    floe_partition_set parts;
    if (rc == 0)
        rc = floe__partition_set_init(&parts);
    else
        memset(&parts, 0, sizeof parts);
    for (size_t i = 0; rc == 0 && i < cm->nfiles; i++)
        rc = floe__partition_set_add(&parts, base, base->default_spec_id, &cm->files[i].partition);
    for (size_t i = 0; rc == 0 && i < op->delete_files.len; i++)
        rc = floe__partition_set_add(
            &parts, base, specs[i],
            &((floe_data_file *)floe__vec_at(&op->delete_files, i))->partition);
    for (size_t i = 0; rc == 0 && i < op->touched.len; i++) {
        const floe_rl_touched *t = floe__vec_at(&op->touched, i);
        if (t->removed)
            rc = floe__partition_set_add(&parts, base, t->spec_id, &t->partition);
    }
    floe_summary_options so = {0};
    so.operation = operation_of(op, &n);
    so.extra = &op->extra;
    so.replace_partitions = op->kind == FLOE_ROWLEVEL_OVERWRITE_DYNAMIC;
    so.changed_partitions = floe__partition_set_count(&parts);
    floe__partition_set_free(&parts);
    /* snapshot + branch */
    floe_vec kv = FLOE_VEC_INIT(floe_kv);
    if (rc == 0)
        rc = floe__producer_summary(c, &kv, &so, &n, parent);
    floe_producer_snapshot ps = {0};
    ps.parent = parent;
    ps.manifests = &manifests;
    ps.summary = &kv;
    ps.branch = op->branch;
    ps.head = head;
    if (rc == 0)
        rc = floe__producer_commit(&op->prod, c, base, &ps);
    floe__vec_free(&kv);
    floe__vec_free(&manifests);
    floe_manifest_list_free(plist);
    floe__buf_free(&ldata);
    return rc;
}

int floe__rl_copy_partition(floe_rowlevel *op, floe_partition_value *dst,
                            const floe_partition_value *src)
{
    floe_value *vals = floe__arena_calloc(op->arena, src->n ? src->n : 1, sizeof *vals);
    dst->n = 0;
    dst->values = vals;
    if (!vals)
        return floe__error_nomem();
    for (size_t k = 0; k < src->n; k++)
        FLOE_TRY(floe__value_copy(op->arena, &vals[k], &src->values[k]));
    dst->n = src->n;
    return 0;
}

int floe__rowlevel_remove_file(floe_rowlevel *op, const floe_scan_file *f)
{
    floe_rl_touched *t = floe__vec_push(&op->touched);
    if (!t)
        return floe__error_nomem();
    t->path = floe__arena_strdup(op->arena, f->path);
    t->content = (uint8_t)f->content; /* FLOE_FILE_* are 0..2 */
    t->spec_id = f->spec_id;
    t->record_count = f->record_count;
    t->file_size_in_bytes = f->file_size_in_bytes;
    t->rows_deleted = f->record_count;
    t->removed = true;
    /* a deletion vector is one blob of its Puffin file (floe__rowlevel_file_key) */
    t->is_dv = floe__scan_file_is_dv(f);
    t->content_offset = floe__scan_delete_info(f)->content_offset;
    int rc =
        t->path ? floe__rl_copy_partition(op, &t->partition, &f->partition) : floe__error_nomem();
    if (f->content == FLOE_FILE_DATA) {
        op->stats.data_files_removed++;
        op->stats.rows_deleted += f->record_count;
    }
    return rc;
}

/* INSERT OVERWRITE (dynamic): every live data file of the base in a
 * partition the new rows land in is removed. */
static int replace_partitions(floe_rowlevel *op, const floe_data_file *files, size_t nfiles)
{
    if (!op->has_base || nfiles == 0)
        return 0;
    const floe_table_metadata *m = op->t->metadata;
    const floe_snapshot *snap = NULL;
    floe_snapshot_selector sel = {.kind = FLOE_SNAP_ID, .snapshot_id = op->base_id};
    FLOE_TRY(floe__snapshot_select(&snap, m, &sel, "table"));
    floe_scan_plan_options po;
    memset(&po, 0, sizeof po);
    po.threads = 1;
    floe_scan_plan *plan = NULL;
    FLOE_TRY(floe__scan_plan(&plan, m, op->t->io, snap, NULL, &po));
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < plan->ntasks; i++) {
        const floe_scan_file *f = plan->tasks[i].file;
        if (touched_by_path(op, f->path))
            continue;
        bool hit = false;
        for (size_t k = 0; k < nfiles && !hit; k++)
            hit = f->spec_id == m->default_spec_id &&
                  same_partition(&f->partition, &files[k].partition);
        if (!hit)
            continue;
        rc = floe__rowlevel_remove_file(op, f);
    }
    floe__scan_plan_free(plan);
    return rc;
}

int floe_rowlevel_commit(int64_t *snapshot_id, floe_rowlevel_stats *stats, floe_rowlevel *op)
{
    if (snapshot_id)
        *snapshot_id = -1;
    if (stats)
        memset(stats, 0, sizeof *stats);
    FLOE_TRY(check_open(op));
    op->resolved = true;
    int rc = floe__rl_resolve(op);
    const floe_data_file *files = NULL;
    size_t nfiles = 0;
    if (rc == 0 && op->writer)
        rc = floe__append_files(op->writer, &files, &nfiles);
    if (rc == 0 && op->kind == FLOE_ROWLEVEL_OVERWRITE_DYNAMIC)
        rc = replace_partitions(op, files, nfiles);
    op->new_files = files;
    op->nnew_files = nfiles;
    rl_commit cm = {op, files, nfiles, NULL, 0, false, false};
    if (rc == 0)
        rc = removals(&cm);
    for (size_t i = 0; i < nfiles; i++) {
        op->stats.data_files_added++;
        op->stats.bytes_written += files[i].file_size_in_bytes;
    }
    if (rc == 0 && nfiles == 0 && cm.nremoved == 0 && op->delete_files.len == 0) {
        op->done = true; /* nothing to commit */
    } else if (rc == 0) {
        rc = floe__table_commit(op->t, rl_prepare, &cm);
        if (rc == 0 || rc == FLOE_ECOMMITUNKNOWN) {
            op->done = true;
            if (op->writer)
                floe__append_keep(op->writer);
            if (rc == 0 && snapshot_id)
                *snapshot_id = op->prod.snapshot_id;
        }
    }
    floe__strmap_free(cm.removed);
    if (rc == 0 && stats)
        *stats = op->stats;
    if (rc < 0 && rc != FLOE_ECOMMITUNKNOWN) {
        floe__paths_remove(&op->own_files, op->t->io);
    }
    return rc;
}
