/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/delete_files: the row side of row-level operations (spec
 * "Row-level Deletes", "Position Delete Files", "Equality Delete Files",
 * "Scan Planning" for which deletes already apply).
 *
 * floe__rl_resolve plans the operation's base snapshot (pruned by the
 * delete filter when there are no explicit positions), reads every
 * candidate data file with the deletes that already apply to it, and marks
 * the live rows to remove. Then, per affected file:
 *  - copy-on-write: a file whose live rows all go is removed; otherwise it
 *    is read a second time and its remaining live rows are written through
 *    the operation's data writer (a floe_append used only as a writer);
 *  - merge-on-read: (file_path, pos) pairs are grouped by spec and
 *    partition (a position delete file applies only within its partition)
 *    and each group becomes one Parquet position delete file, sorted by
 *    file_path then pos as the spec requires, with referenced_data_file set
 *    when it covers one data file (Java does the same).
 * Equality delete files are written from the caller's key batches.
 */
#include "table/rowdelta.h"
#include "table/puffin.h"

#include "arrow/arrow.h"
#include "parquet/parquet.h"
#include "scan/scan.h"
#include "spec/spec.h"
#include "spec/transform.h"
#include "spec/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- small helpers */

int floe__rl_add_delete_file(floe_rowlevel *op, const floe_data_file *df, int32_t spec_id)
{
    int32_t *sp = floe__vec_push(&op->delete_specs);
    if (!sp)
        return floe__error_nomem();
    *sp = spec_id;
    floe_data_file *d = floe__vec_push(&op->delete_files);
    int rc = d ? floe__data_file_copy(op->arena, d, df) : floe__error_nomem();
    if (rc < 0) {
        if (d)
            op->delete_files.len--;
        op->delete_specs.len--;
    }
    return rc;
}

static int out_sink(const void *data, size_t len, void *payload)
{
    floe_output *o = payload;
    return o->write(o, data, len);
}

int floe__write_delete_parquet(floe_fileio *io, const char *path, const floe_schema *schema,
                               const struct ArrowArray *batch, const floe_props *table_props,
                               bool position, struct floe_pq_metrics *m)
{
    memset(m, 0, sizeof *m);
    floe_output *o = NULL;
    FLOE_TRY(floe_fileio_create_output(&o, io, path));
    floe_props props = FLOE_PROPS_INIT;
    floe_buf sj = FLOE_BUF_INIT;
    int rc = floe__props_copy(&props, table_props);
    /* exact bounds on file_path (Java keeps them full for delete files):
     * readers prune position deletes by the referenced path */
    if (rc == 0 && position)
        rc = floe__props_set(&props, "write.metadata.metrics.default", "full");
    if (rc == 0)
        rc = floe__schema_to_json(schema, &sj);
    floe_pq_writer *w = NULL;
    if (rc == 0) {
        floe_pq_write_options wo = {0};
        wo.props = &props;
        wo.iceberg_schema_json = sj.ptr;
        wo.sink = out_sink;
        wo.sink_payload = o;
        rc = floe__pq_writer_new(&w, schema, &wo);
    }
    if (rc == 0)
        rc = floe__pq_writer_write(w, batch);
    if (rc == 0)
        rc = floe__pq_writer_close(w, m);
    floe__pq_writer_free(w);
    if (rc == 0)
        rc = o->commit(o);
    else
        o->abort(o);
    floe__buf_free(&sj);
    floe__props_free(&props);
    return rc;
}

/* Write `batch` (rows of `schema`) as one Parquet delete file at `path` and
 * register it with the operation as a delete file of `content`. */
static int write_delete_file(floe_rowlevel *op, const char *path, const floe_schema *schema,
                             const struct ArrowArray *batch, int32_t content, int32_t spec_id,
                             const floe_partition_value *partition, const int32_t *eq_ids,
                             size_t neq, const char *referenced)
{
    floe_pq_metrics m;
    const floe_props *tp = &op->t->metadata->properties;
    int rc = floe__write_delete_parquet(op->t->io, path, schema, batch, tp,
                                        content == FLOE_FILE_POSITION_DELETES, &m);
    if (rc == 0)
        rc = floe__paths_add(&op->own_files, path);
    floe_arena *ar = rc == 0 ? floe__arena_new(4096) : NULL;
    if (rc == 0 && !ar)
        rc = floe__error_nomem();
    if (rc == 0) {
        floe_data_file df;
        memset(&df, 0, sizeof df);
        df.content = content;
        df.file_path = path;
        df.file_format = "PARQUET";
        df.partition = *partition;
        df.record_count = m.record_count;
        df.file_size_in_bytes = m.file_size_in_bytes;
        df.block_size_in_bytes = 67108864;
        rc = floe__data_file_set_metrics(ar, &m, &df);
        if (m.nsplit_offsets) {
            df.has_split_offsets = true;
            df.nsplit_offsets = m.nsplit_offsets;
            df.split_offsets = m.split_offsets;
        }
        if (neq) {
            df.has_equality_ids = true;
            df.nequality_ids = neq;
            df.equality_ids = eq_ids;
        }
        df.referenced_data_file = referenced;
        if (rc == 0)
            rc = floe__rl_add_delete_file(op, &df, spec_id);
        if (rc == 0) {
            op->stats.delete_files_added++;
            op->stats.bytes_written += m.file_size_in_bytes;
        }
    }
    floe__arena_free(ar);
    floe__pq_metrics_free(&m);
    return rc;
}

static int parse_schema(const char *json, floe_arena *a, floe_schema **out)
{
    floe_json *j = NULL;
    FLOE_TRY(floe__json_parse(&j, json, strlen(json), "delete file schema"));
    int rc = floe__schema_from_json(out, j, 0, a);
    floe__json_free(j);
    return rc;
}

/* Location of a new delete file: the data directory and partition path
 * (Java: <data>/<partition>/<NNNNN>-<task>-<uuid>-<NNNNN>-deletes.parquet). */
static char *delete_path(floe_rowlevel *op, const floe_partition_spec *spec,
                         const floe_partition_value *pv, const char *ext)
{
    const floe_table_metadata *m = op->t->metadata;
    const char *dir = floe__props_get(&m->properties, "write.data.path");
    floe_buf part = FLOE_BUF_INIT;
    if (spec && spec->nfields && pv->n == spec->nfields &&
        floe_partition_path(spec, pv, &part) < 0) {
        floe__buf_free(&part);
        return NULL;
    }
    op->next_file++; /* unique file numbers per operation */
    char *p = floe__arena_sprintf(op->arena, "%s%s%s%s/00000-0-%s-%05d-deletes.%s",
                                  dir ? dir : m->location, dir ? "" : "/data", part.len ? "/" : "",
                                  part.len ? part.ptr : "", op->prod.commit_uuid, op->next_file, ext);
    floe__buf_free(&part);
    if (!p)
        floe__error_nomem();
    return p;
}

/* ---------------------------------------------------------------- position delete files */

#define POS_DELETE_SCHEMA FLOE_POS_DELETE_SCHEMA_JSON

typedef struct pd_pair {
    const char *path; /* the touched file's (op arena: stable) */
    int64_t pos;
} pd_pair;

typedef struct pd_group {
    int32_t spec_id;
    floe_partition_value partition;
    floe_vec pairs; /* pd_pair */
} pd_group;

static int pair_cmp(const void *x, const void *y)
{
    const pd_pair *a = x, *b = y;
    if (a->path != b->path) {
        int c = strcmp(a->path, b->path);
        if (c)
            return c;
    }
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int write_pos_group(floe_rowlevel *op, const floe_schema *schema, pd_group *g)
{
    if (g->pairs.len == 0) /* a group is made for its first pair: never empty */
        return 0;
    if (g->pairs.len > 1)
        qsort(g->pairs.items, g->pairs.len, sizeof(pd_pair), pair_cmp);
    const pd_pair *pp = g->pairs.items;
    bool single = true;
    for (size_t i = 1; i < g->pairs.len && single; i++)
        single = pp[i].path == pp[0].path;
    floe_arrow_builder *b = NULL;
    FLOE_TRY(floe__arrow_builder_new(&b, schema->root));
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < g->pairs.len; i++) {
        floe_value path = floe_value_bytes(FLOE_T_STRING, pp[i].path, strlen(pp[i].path));
        floe_value pos = floe_value_long(pp[i].pos);
        rc = floe__arrow_builder_append(b->children[0], &path);
        if (rc == 0)
            rc = floe__arrow_builder_append(b->children[1], &pos);
        if (rc == 0)
            rc = floe__arrow_builder_struct_append(b, true);
    }
    struct ArrowArray arr;
    memset(&arr, 0, sizeof arr);
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, &arr);
    floe__arrow_builder_free(b);
    const floe_partition_spec *spec = floe__metadata_spec(op->t->metadata, g->spec_id);
    char *path = rc == 0 ? delete_path(op, spec, &g->partition, "parquet") : NULL;
    if (rc == 0 && !path)
        rc = floe__error_code() ? floe__error_code() : FLOE_ENOMEM;
    if (rc == 0)
        rc = write_delete_file(op, path, schema, &arr, FLOE_FILE_POSITION_DELETES, g->spec_id,
                               &g->partition, NULL, 0, single ? pp[0].path : NULL);
    if (arr.release)
        arr.release(&arr);
    return rc;
}

/* ---------------------------------------------------------------- deletion vectors */

int floe__rl_pos_union(const int64_t *a, size_t na, const int64_t *b, size_t nb, int64_t **out,
                       size_t *n)
{
    int64_t *p = floe__malloc((na + nb + 1) * sizeof *p);
    if (!p)
        return floe__error_nomem();
    size_t i = 0, j = 0, k = 0;
    while (i < na || j < nb) {
        int64_t v = j >= nb || (i < na && a[i] <= b[j]) ? a[i] : b[j];
        if (i < na && a[i] == v)
            i++;
        if (j < nb && b[j] == v)
            j++;
        p[k++] = v;
    }
    *out = p;
    *n = k;
    return 0;
}

/* The data file's new DV: its removed positions merged with those of the
 * deletes that apply to it; the file-scoped ones among them (its DV, a
 * position delete file naming only it) leave the table in this commit
 * (Java's BaseDVFileWriter with previous deletes; partition-scoped files
 * stay, their positions are carried). */
static int dv_note(floe_rowlevel *op, const floe_rl_touched *t, const floe_scan_task *task,
                   const floe_scan_posdel *pd, const floe_vec *gone)
{
    floe_rl_dv *d = floe__vec_push(&op->dvs);
    if (!d)
        return floe__error_nomem();
    memset(d, 0, sizeof *d);
    d->path = t->path;
    d->spec_id = t->spec_id;
    d->partition = t->partition;
    d->record_count = t->record_count;
    d->df_index = SIZE_MAX;
    d->removal = SIZE_MAX;
    FLOE_TRY(floe__rl_pos_union(pd->pos, pd->n, gone->items, gone->len, &d->pos, &d->n));
    for (size_t k = 0; k < task->ndeletes; k++) {
        const floe_scan_file *old = task->deletes[k];
        const floe_scan_delete_info *od = floe__scan_delete_info(old);
        if (old->content != FLOE_FILE_POSITION_DELETES || !od->referenced_data_file ||
            strcmp(od->referenced_data_file, d->path) != 0)
            continue;
        FLOE_TRY(floe__rowlevel_remove_file(op, old)); /* may move op->touched (and t) */
        /* floe__rowlevel_remove_file recorded whether it is a DV, and where */
        ((floe_rl_dv *)floe__vec_at(&op->dvs, op->dvs.len - 1))->removal = op->touched.len - 1;
    }
    return 0;
}

int floe__rl_write_dvs(floe_rowlevel *op)
{
    const floe_vec *dvs = &op->dvs;
    if (!dvs->len)
        return 0;
    floe_puffin_writer w;
    floe_puffin_blob_info *bi = floe__calloc(dvs->len, sizeof *bi);
    int rc = bi ? floe__puffin_writer_init(&w) : floe__error_nomem();
    if (!bi)
        memset(&w, 0, sizeof w);
    for (size_t i = 0; rc == 0 && i < dvs->len; i++) {
        const floe_rl_dv *d = floe__vec_at(dvs, i);
        rc = floe__puffin_add_dv(&w, d->path, d->mpos ? d->mpos : d->pos,
                                 d->mpos ? d->mn : d->n, &bi[i]);
    }
    if (rc == 0)
        rc = floe__puffin_finish(&w);
    floe_partition_value none = {0, NULL};
    char *path = rc == 0 ? delete_path(op, NULL, &none, "puffin") : NULL;
    if (rc == 0 && !path)
        rc = floe__error_code() ? floe__error_code() : FLOE_ENOMEM;
    if (rc == 0)
        rc = floe__io_write_new(op->t->io, path, w.bytes.ptr, w.bytes.len);
    if (rc == 0)
        rc = floe__paths_add(&op->own_files, path);
    for (size_t i = 0; rc == 0 && i < dvs->len; i++) {
        floe_rl_dv *d = floe__vec_at(dvs, i);
        if (d->df_index != SIZE_MAX) { /* a rewrite after a merge: the entry in place */
            floe_data_file *df = floe__vec_at(&op->delete_files, d->df_index);
            df->file_path = path;
            df->record_count = (int64_t)(d->mpos ? d->mn : d->n);
            df->file_size_in_bytes = (int64_t)w.bytes.len;
            df->content_offset = bi[i].offset;
            df->content_size_in_bytes = bi[i].length;
            continue;
        }
        floe_data_file df;
        memset(&df, 0, sizeof df);
        df.content = FLOE_FILE_POSITION_DELETES;
        df.file_path = path;
        df.file_format = "PUFFIN";
        df.partition = d->partition;
        df.record_count = (int64_t)d->n;
        df.file_size_in_bytes = (int64_t)w.bytes.len;
        df.referenced_data_file = d->path;
        df.has_content_offset = true;
        df.content_offset = bi[i].offset;
        df.has_content_size_in_bytes = true;
        df.content_size_in_bytes = bi[i].length;
        rc = floe__rl_add_delete_file(op, &df, d->spec_id);
        if (rc == 0) {
            d->df_index = op->delete_files.len - 1;
            op->stats.delete_files_added++;
        }
    }
    /* the Puffin file of an earlier attempt is superseded: never committed */
    if (rc == 0 && op->dv_puffin) {
        floe_fileio_remove(op->t->io, &op->dv_puffin, 1);
        op->stats.bytes_written -= op->dv_puffin_bytes;
    }
    if (rc == 0) {
        op->dv_puffin = path;
        op->dv_puffin_bytes = (int64_t)w.bytes.len;
        op->stats.bytes_written += (int64_t)w.bytes.len;
    }
    floe__puffin_writer_free(&w);
    floe__free(bi);
    return rc;
}

/* rewrite_position_delete_files on v3 (maint/compact.c): the DV of the
 * data file `data` over `pos` (sorted, distinct; heap, taken over even on
 * failure), written by the next floe__rl_write_dvs. */
int floe__rowlevel_add_dv(floe_rowlevel *op, const floe_scan_file *data, int64_t *pos, size_t n)
{
    floe_rl_dv *d = floe__vec_push(&op->dvs);
    if (!d) {
        floe__free(pos);
        return floe__error_nomem();
    }
    memset(d, 0, sizeof *d);
    d->pos = pos;
    d->n = n;
    d->df_index = SIZE_MAX;
    d->removal = SIZE_MAX;
    d->spec_id = data->spec_id;
    d->record_count = data->record_count;
    d->path = floe__arena_strdup(op->arena, data->path);
    return d->path ? floe__rl_copy_partition(op, &d->partition, &data->partition)
                   : floe__error_nomem();
}

/* rewrite_position_delete_files (maint/compact.c): one position delete
 * file of the pairs, added to the operation. */
int floe__rowlevel_write_position_deletes(floe_rowlevel *op, int32_t spec_id,
                                          const floe_partition_value *partition,
                                          const char *const *paths, const int64_t *pos, size_t n)
{
    floe_arena *scratch = floe__arena_new(1024);
    floe_schema *schema = NULL;
    pd_group g;
    memset(&g, 0, sizeof g);
    g.spec_id = spec_id;
    g.partition = *partition;
    g.pairs.item_size = sizeof(pd_pair);
    int rc = scratch ? parse_schema(POS_DELETE_SCHEMA, scratch, &schema) : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < n; i++) {
        pd_pair *pp = floe__vec_push(&g.pairs);
        if (!pp)
            rc = floe__error_nomem();
        else
            *pp = (pd_pair){paths[i], pos[i]};
    }
    if (rc == 0)
        rc = write_pos_group(op, schema, &g);
    floe__vec_free(&g.pairs);
    if (schema)
        floe__schema_release(schema);
    floe__arena_free(scratch);
    return rc;
}

/* ---------------------------------------------------------------- finding rows */

static int i64_cmp(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

static bool sorted_has(const int64_t *v, size_t n, int64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo] == x;
}

/* What one pass over a data file needs. */
typedef struct file_pass {
    floe_rowlevel *op;
    const floe_scan_plan *plan;
    const floe_scan_task *task;
    const floe_schema *lineage; /* v3: the plan's schema with the lineage columns */
    const floe_expr *cond; /* bound condition; NULL: none (positions only) */
    const int64_t *given;  /* sorted explicit positions, or NULL */
    size_t ngiven;
    floe_scan_posdel pd;
    floe_scan_eqset **eq;
    size_t neq;
} file_pass;

static void pass_free(file_pass *fp)
{
    floe__free(fp->pd.pos);
    for (size_t i = 0; i < fp->neq; i++)
        floe__scan_eqset_free(fp->eq[i]);
    floe__free(fp->eq);
}

/* Is row `r` of the batch (file position `pos`) live, and does it go? */
static int classify(file_pass *fp, const struct ArrowArray *b, int64_t r, int64_t pos, bool *live,
                    bool *gone)
{
    *live = !(fp->pd.n && sorted_has(fp->pd.pos, fp->pd.n, pos));
    *gone = false;
    floe_arrow_row g = {fp->plan->schema->root, b, r};
    for (size_t e = 0; *live && e < fp->neq; e++) {
        size_t n = floe__scan_eqset_nids(fp->eq[e]);
        const int32_t *ids = floe__scan_eqset_ids(fp->eq[e]);
        floe_value vals[32];
        if (n > 32)
            return floe__error(FLOE_EUNSUPPORTED, "table", "more than 32 equality ids");
        for (size_t k = 0; k < n; k++)
            FLOE_TRY(floe__arrow_row_value(ids[k], &vals[k], &g));
        if (floe__scan_eqset_has(fp->eq[e], vals))
            *live = false;
    }
    if (!*live)
        return 0;
    if (fp->given && sorted_has(fp->given, fp->ngiven, pos))
        *gone = true;
    if (!*gone && fp->cond) {
        bool m = false;
        FLOE_TRY(floe_expr_eval(&m, fp->cond, floe__arrow_row_value, &g));
        *gone = m;
    }
    return 0;
}

/* One pass: count live and removed rows (collect removed positions into
 * `gone` when not NULL), or, with `keep`, copy the remaining live rows
 * into it batch by batch and write them through the op's writer. */
static int run_pass(file_pass *fp, floe_vec *gone, int64_t *nlive, floe_arrow_builder *keep)
{
    floe_input *in = NULL;
    floe_pq_reader *r = NULL;
    const char *path = fp->task->file->path;
    if (strcmp(fp->task->file->format, "PARQUET") != 0)
        return floe__error(FLOE_EUNSUPPORTED, "table", "data file format %s is not supported: %s",
                           fp->task->file->format, path);
    FLOE_TRY(floe_fileio_open_input(&in, fp->op->t->io, path));
    floe_pq_read_options o;
    memset(&o, 0, sizeof o);
    /* the copy keeps each row's lineage: read it with the rows */
    o.projection = keep && fp->lineage ? fp->lineage : fp->plan->schema;
    int rc = floe__pq_reader_open(&r, in, &o);
    int64_t pos = 0;
    *nlive = 0;
    while (rc == 0) {
        struct ArrowArray b;
        memset(&b, 0, sizeof b);
        rc = floe__pq_reader_next(r, &b);
        if (rc == FLOE_ITEROVER) {
            rc = 0;
            break;
        }
        if (rc < 0)
            break;
        for (int64_t i = 0; rc == 0 && i < b.length; i++, pos++) {
            bool live, out;
            rc = classify(fp, &b, i, pos, &live, &out);
            if (rc < 0)
                break;
            *nlive += live;
            if (live && out && gone) {
                int64_t *slot = floe__vec_push(gone);
                if (!slot)
                    rc = floe__error_nomem();
                else
                    *slot = pos;
            }
            if (live && !out && keep) {
                const floe_type *root = fp->plan->schema->root;
                for (size_t k = 0; rc == 0 && k < root->nfields; k++)
                    rc = floe__scan_copy_slot(keep->children[k], b.children[k],
                                              root->fields[k].type, i);
                if (rc == 0 && fp->lineage)
                    rc = floe__lineage_copy(keep, &b, root->nfields, i, pos, fp->task->file);
                if (rc == 0)
                    rc = floe__arrow_builder_struct_append(keep, true);
            }
        }
        if (b.release)
            b.release(&b);
        if (rc == 0 && keep && keep->length > 0) {
            struct ArrowArray kb;
            memset(&kb, 0, sizeof kb);
            rc = floe__arrow_builder_finish(keep, &kb);
            if (rc == 0)
                rc = floe_append_write(fp->op->writer, &kb);
            if (kb.release)
                kb.release(&kb);
        }
    }
    floe__pq_reader_free(r);
    in->close(in);
    if (rc < 0)
        floe__error_context("reading %s", path);
    return rc;
}

static const floe_rl_positions *given_for(floe_rowlevel *op, const char *path)
{
    for (size_t i = 0; i < op->positions.len; i++) {
        floe_rl_positions *p = floe__vec_at(&op->positions, i);
        if (strcmp(p->path, path) == 0)
            return p;
    }
    return NULL;
}

static int group_for(floe_vec *groups, const floe_rl_touched *t, pd_group **out)
{
    for (size_t i = 0; i < groups->len; i++) {
        pd_group *g = floe__vec_at(groups, i);
        if (g->spec_id != t->spec_id || g->partition.n != t->partition.n)
            continue;
        bool same = true;
        for (size_t k = 0; k < t->partition.n && same; k++) {
            const floe_value *a = &g->partition.values[k], *b = &t->partition.values[k];
            same = a->is_null == b->is_null && (a->is_null || floe_value_compare(a, b) == 0);
        }
        if (same) {
            *out = g;
            return 0;
        }
    }
    pd_group *g = floe__vec_push(groups);
    if (!g)
        return floe__error_nomem();
    g->spec_id = t->spec_id;
    g->partition = t->partition;
    g->pairs.item_size = sizeof(pd_pair);
    *out = g;
    return 0;
}

static int touch(floe_rowlevel *op, const floe_scan_file *f, floe_rl_touched **out)
{
    floe_rl_touched *t = floe__vec_push(&op->touched);
    if (!t)
        return floe__error_nomem();
    t->path = floe__arena_strdup(op->arena, f->path);
    t->spec_id = f->spec_id;
    t->record_count = f->record_count;
    t->file_size_in_bytes = f->file_size_in_bytes;
    floe_value *vals =
        floe__arena_calloc(op->arena, f->partition.n ? f->partition.n : 1, sizeof *vals);
    if (!t->path || !vals)
        return floe__error_nomem();
    for (size_t k = 0; k < f->partition.n; k++)
        FLOE_TRY(floe__value_copy(op->arena, &vals[k], &f->partition.values[k]));
    t->partition.n = f->partition.n;
    t->partition.values = vals;
    *out = t;
    return 0;
}

int floe__rl_resolve(floe_rowlevel *op)
{
    if (!op->has_base || (!op->filter && !op->delete_all && op->positions.len == 0))
        return 0;
    const floe_table_metadata *m = op->t->metadata;
    const floe_snapshot *snap = NULL;
    floe_snapshot_selector sel = {.kind = FLOE_SNAP_ID, .snapshot_id = op->base_id};
    FLOE_TRY(floe__snapshot_select(&snap, m, &sel, "table"));
    floe_scan_plan_options po;
    memset(&po, 0, sizeof po);
    po.case_sensitive = false;
    po.threads = 1;
    bool plan_filtered = op->filter && !op->delete_all && op->positions.len == 0;
    po.filter = plan_filtered ? op->filter : NULL;
    floe_scan_plan *plan = NULL;
    FLOE_TRY(floe__scan_plan(&plan, m, op->t->io, snap, NULL, &po));
    floe_arena *scratch = floe__arena_new(4096);
    floe_schema *pd_schema = NULL;
    const floe_expr *bound = NULL;
    int rc = scratch ? 0 : floe__error_nomem();
    /* merge-on-read writes delete files (pd_schema); copy-on-write rewrites */
    const bool mor = op->mode == FLOE_ROWLEVEL_MODE_MERGE_ON_READ;
    if (rc == 0 && mor)
        rc = parse_schema(POS_DELETE_SCHEMA, scratch, &pd_schema);
    if (rc == 0 && op->filter && !op->delete_all && !plan_filtered)
        rc = floe_expr_bind(&bound, scratch, plan->schema, op->filter, false);
    floe_vec groups = FLOE_VEC_INIT(pd_group);
    bool use_dvs = mor && m->format_version >= 3;
    floe_vec gone = FLOE_VEC_INIT(int64_t);
    floe_vec given = FLOE_VEC_INIT(int64_t);
    floe_arrow_builder *keep = NULL;
    floe_schema *lineage = NULL; /* v3: survivors keep _row_id (spec "Row Lineage") */
    if (rc == 0 && floe__rowlevel_lineage(op) && !mor) {
        lineage = floe__arena_calloc(scratch, 1, sizeof *lineage);
        rc = lineage ? 0 : floe__error_nomem();
        if (rc == 0) {
            *lineage = *plan->schema;
            rc = floe__lineage_root(scratch, plan->schema->root, &lineage->root);
        }
    }
    for (size_t i = 0; rc == 0 && i < plan->ntasks; i++) {
        const floe_scan_task *task = &plan->tasks[i];
        file_pass fp;
        memset(&fp, 0, sizeof fp);
        fp.op = op;
        fp.plan = plan;
        fp.task = task;
        fp.lineage = lineage;
        if (op->delete_all)
            fp.cond = floe_expr_true();
        else if (plan_filtered)
            fp.cond = task->residual;
        else
            fp.cond = bound;
        const floe_rl_positions *gp = given_for(op, task->file->path);
        given.len = 0;
        if (gp) {
            for (size_t k = 0; rc == 0 && k < gp->pos.len; k++) {
                int64_t *slot = floe__vec_push(&given);
                if (!slot)
                    rc = floe__error_nomem();
                else
                    *slot = ((int64_t *)gp->pos.items)[k];
            }
            qsort(given.items, given.len, sizeof(int64_t), i64_cmp);
            fp.given = given.items;
            fp.ngiven = given.len;
        }
        if (!fp.cond && !fp.given)
            continue;
        if (rc == 0 && task->ndeletes)
            rc = floe__scan_load_posdeletes(op->t->io, task->file, task->deletes, task->ndeletes,
                                            &fp.pd);
        if (rc == 0 && task->ndeletes)
            rc = floe__scan_load_eqdeletes(op->t->io, plan->schema, task->deletes, task->ndeletes,
                                           &fp.eq, &fp.neq);
        int64_t nlive = 0;
        gone.len = 0;
        if (rc == 0) {
            op->stats.files_read++;
            rc = run_pass(&fp, &gone, &nlive, NULL);
        }
        if (rc == 0 && gone.len > 0) {
            floe_rl_touched *t = NULL;
            rc = touch(op, task->file, &t);
            if (rc == 0) {
                t->rows_deleted = (int64_t)gone.len;
                op->stats.rows_deleted += (int64_t)gone.len;
            }
            if (rc == 0 && use_dvs) {
                rc = dv_note(op, t, task, &fp.pd, &gone);
            } else if (rc == 0 && mor) {
                pd_group *g = NULL;
                rc = group_for(&groups, t, &g);
                for (size_t k = 0; rc == 0 && k < gone.len; k++) {
                    pd_pair *pp = floe__vec_push(&g->pairs);
                    if (!pp)
                        rc = floe__error_nomem();
                    else
                        *pp = (pd_pair){t->path, ((int64_t *)gone.items)[k]};
                }
            } else if (rc == 0) {
                t->removed = true;
                op->stats.data_files_removed++;
                if ((int64_t)gone.len < nlive) {
                    if (!keep)
                        rc = floe__arrow_builder_new(&keep, lineage ? lineage->root
                                                                    : plan->schema->root);
                    if (rc == 0)
                        rc = floe__rl_open_writer(op);
                    int64_t dummy = 0;
                    if (rc == 0)
                        rc = run_pass(&fp, NULL, &dummy, keep);
                }
            }
        }
        pass_free(&fp);
    }
    for (size_t i = 0; rc == 0 && i < groups.len; i++)
        rc = write_pos_group(op, pd_schema, floe__vec_at(&groups, i));
    if (rc == 0)
        rc = floe__rl_write_dvs(op);
    for (size_t i = 0; i < groups.len; i++)
        floe__vec_free(&((pd_group *)floe__vec_at(&groups, i))->pairs);
    floe__vec_free(&groups);
    floe__vec_free(&gone);
    floe__vec_free(&given);
    floe__arrow_builder_free(keep);
    if (pd_schema)
        floe__schema_release(pd_schema);
    floe__arena_free(scratch);
    floe__scan_plan_free(plan);
    return rc;
}

/* ---------------------------------------------------------------- equality deletes */

int floe__rl_write_eq_deletes(floe_rowlevel *op, const int32_t *ids, size_t nids,
                              const struct ArrowArray *batch)
{
    const floe_table_metadata *m = op->t->metadata;
    if (m->format_version < 2)
        return floe__error(FLOE_EUNSUPPORTED, "table",
                           "equality delete files need format version 2 or later");
    const floe_partition_spec *spec = floe__metadata_spec(m, m->default_spec_id);
    if (spec && spec->nfields)
        return floe__error(FLOE_EUNSUPPORTED, "table",
                           "equality deletes on a partitioned table are not supported yet");
    if (nids == 0 || nids > 32)
        return floe__error(FLOE_EINVALID, "table", "equality_ids: 1 to 32 field ids");
    if (!batch || batch->n_children != (int64_t)nids)
        return floe__error(FLOE_EINVALID, "table",
                           "equality delete batch must have one column per equality id");
    const floe_schema *schema = floe__metadata_current_schema(m);
    floe_buf json = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&json, "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[");
    floe_arena *scratch = floe__arena_new(4096);
    if (!scratch)
        rc = floe__error_nomem();
    /* the delete file's schema: the equality fields as the table has them */
    for (size_t i = 0; rc == 0 && i < nids; i++) {
        const floe_field *f = floe__schema_field_by_id(schema, ids[i]);
        if (!f)
            rc = floe__error(FLOE_EINVALID, "table", "Cannot find equality field id %d",
                             (int)ids[i]);
        else if (floe_type_is_nested(f->type))
            rc = floe__error(FLOE_EINVALID, "table", "equality field %s must be a primitive column",
                             f->name);
        floe_buf ts = FLOE_BUF_INIT;
        if (rc == 0)
            rc = floe_manifest_type_string(f->type, &ts);
        if (rc == 0)
            rc = floe__buf_printf(&json, "%s{\"id\":%d,\"name\":", i ? "," : "", (int)f->id);
        if (rc == 0)
            rc = floe__json_put_str(&json, f->name);
        if (rc == 0)
            rc = floe__buf_printf(&json, ",\"required\":%s,\"type\":\"%s\"}",
                                  f->required ? "true" : "false", ts.ptr);
        floe__buf_free(&ts);
    }
    if (rc == 0)
        rc = floe__buf_puts(&json, "]}");
    floe_schema *es = NULL;
    if (rc == 0)
        rc = parse_schema(json.ptr, scratch, &es);
    int32_t *idcopy = rc == 0 ? floe__arena_memdup(op->arena, ids, nids * sizeof *ids) : NULL;
    if (rc == 0 && !idcopy)
        rc = floe__error_nomem();
    floe_partition_value none = {0, NULL};
    char *path = rc == 0 ? delete_path(op, spec, &none, "parquet") : NULL;
    if (rc == 0 && !path)
        rc = floe__error_code() ? floe__error_code() : FLOE_ENOMEM;
    if (rc == 0)
        rc = write_delete_file(op, path, es, batch, FLOE_FILE_EQUALITY_DELETES, m->default_spec_id,
                               &none, idcopy, nids, NULL);
    if (es)
        floe__schema_release(es);
    floe__arena_free(scratch);
    floe__buf_free(&json);
    return rc;
}
