/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maint/rewrite_path: rewrite_table_path (include/floe/maint.h), Java's
 * RewriteTablePathSparkAction and RewriteTablePathUtil (read, not copied):
 * a copy of a table's metadata tree in which every path under
 * source_prefix is under target_prefix instead, so that the copied table
 * reads without the original (spec "Table Metadata", "Manifest Lists",
 * "Manifests", "Position Delete Files").
 *
 * The order makes every length known before it is written: read every
 * version and every snapshot's manifest list first; rewrite each manifest
 * once (and each live position delete file it names once); then write the
 * manifest lists with the rewritten manifests' lengths; then the metadata
 * versions; then the file list.
 *
 * Two deliberate differences from Java 1.11, both about what gets copied:
 *  - a live entry is copied whatever snapshot added it (Java copies only
 *    entries whose snapshot id is in the rewritten set, so the EXISTING
 *    entry of a file added by an expired snapshot was dropped at the
 *    target: apache/iceberg#16220); with start_version, entries added by
 *    a snapshot of the start version are left out (the earlier run copied
 *    them);
 *  - a position delete file is rewritten only when its entry is live:
 *    DELETED entries keep their metadata, and their files — often already
 *    removed by expiry — are never opened (apache/iceberg#17498).
 */
#include "arrow/arrow.h"
#include "maint.h"
#include "parquet/parquet.h"
#include "spec/spec.h"
#include "spec/value.h"
#include "table/producer.h"
#include "table/puffin.h"
#include "table/rowdelta.h"
#include "table/table.h"
#include "util/progress.h"

#include <string.h>
#include <strings.h>

#define FIELD_FILE_PATH 2147483546
#define FIELD_POS 2147483545
#define COPY_CHUNK ((size_t)4 << 20)

#define POS_DELETE_SCHEMA FLOE_POS_DELETE_SCHEMA_JSON

/* One snapshot whose manifest list is rewritten. */
typedef struct rtp_snap {
    const floe_snapshot *s;
    const char *list_path; /* original; NULL: v1 snapshot without a list */
    floe_manifest_list *list;
    floe_buf bytes;
    const floe_manifest_file *mfs;
    size_t n;
} rtp_snap;

typedef struct rtp {
    floe_fileio *io;    /* source objects */
    floe_fileio *stage; /* staging writes */
    floe_fileio *dst;   /* copy targets (with copy) */
    bool own_stage;
    const floe_table_metadata *end;
    const char *src, *tgt, *staging; /* src/tgt without a trailing '/', staging with one */
    size_t src_len;
    floe_intmap *start_ids; /* snapshots of the start version; NULL: none */
    floe_intmap *delta;     /* snapshots rewritten (those of the versions, not of start) */
    floe_arena *arena;
    floe_strmap *plan;      /* from -> to */
    floe_vec plan_from;     /* const char*: plan keys in order */
    floe_strmap *manifests; /* original path -> int64_t* rewritten length */
    floe_strmap *deletes;   /* original path -> int64_t* rewritten size */
    floe_vec snaps;         /* rtp_snap */
    floe_buf bytes, out;
    floe_schema *pos_schema;
    floe_avro_codec codec;
    int64_t n_manifests, n_deletes, n_copied;
    floe__progress *progress; /* bytes written and copied; NULL: none */
} rtp;

/* ---------------------------------------------------------------- paths */

/* Java's relativize: the part of `path` after source_prefix + "/". */
static int relativize(rtp *r, const char *path, const char **rel)
{
    if (path && strncmp(path, r->src, r->src_len) == 0 &&
        (path[r->src_len] == '/' || path[r->src_len] == '\0')) {
        *rel = path[r->src_len] ? path + r->src_len + 1 : "";
        return 0;
    }
    return floe__error(FLOE_EINVALID, "maint", "Path %s does not start with %s/",
                       path ? path : "(null)", r->src);
}

static bool under_source(const rtp *r, const char *path)
{
    return path && strncmp(path, r->src, r->src_len) == 0 &&
           (path[r->src_len] == '/' || path[r->src_len] == '\0');
}

static int new_path(rtp *r, const char *path, const char **out)
{
    const char *rel;
    FLOE_TRY(relativize(r, path, &rel));
    *out = *rel ? floe__arena_sprintf(r->arena, "%s/%s", r->tgt, rel)
                : floe__arena_strdup(r->arena, r->tgt);
    return *out ? 0 : floe__error_nomem();
}

static int stage_path(rtp *r, const char *path, const char **out)
{
    const char *rel;
    FLOE_TRY(relativize(r, path, &rel));
    *out = floe__arena_sprintf(r->arena, "%s%s", r->staging, rel);
    return *out ? 0 : floe__error_nomem();
}

static int plan_add(rtp *r, const char *from, const char *to)
{
    if (floe__strmap_has(r->plan, from))
        return 0;
    const char *f = floe__arena_strdup(r->arena, from), *t = floe__arena_strdup(r->arena, to);
    const char **slot = f && t ? floe__vec_push(&r->plan_from) : NULL;
    if (!slot || floe__strmap_put(r->plan, f, (void *)t) < 0)
        return floe__error_nomem();
    *slot = f;
    return 0;
}

static int write_staged(rtp *r, const char *staged, const void *data, size_t len)
{
    int rc = floe__io_write_new(r->stage, staged, data, len);
    if (rc == 0 && r->progress)
        floe__progress_add(r->progress, 0, len);
    if (rc < 0)
        floe__error_context("writing %s", staged);
    return rc;
}

/* ---------------------------------------------------------------- position delete files */

static int child_index(const floe_type *root, int32_t id)
{
    for (size_t i = 0; i < root->nfields; i++)
        if (root->fields[i].id == id)
            return (int)i;
    return -1;
}

/* Copy rows of one batch into the builder with file_path rewritten. */
static int copy_rows(rtp *r, const floe_type *in_root, const struct ArrowArray *batch,
                     floe_arrow_builder *b, const char *file)
{
    int ip = child_index(in_root, FIELD_FILE_PATH), iq = child_index(in_root, FIELD_POS);
    if (ip < 0 || iq < 0 || batch->n_children != (int64_t)in_root->nfields)
        return floe__error(FLOE_ECORRUPT, "maint", "%s: not a position delete file", file);
    floe_buf tmp = FLOE_BUF_INIT;
    int rc = 0;
    for (int64_t i = 0; rc == 0 && i < batch->length; i++) {
        floe_value p, q;
        rc = floe__arrow_value_at(batch->children[ip], in_root->fields[ip].type, i, &p);
        if (rc == 0)
            rc = floe__arrow_value_at(batch->children[iq], in_root->fields[iq].type, i, &q);
        if (rc == 0 && (p.is_null || q.is_null))
            rc = floe__error(FLOE_ECORRUPT, "maint", "%s: null file_path or pos at row %lld", file,
                             (long long)i);
        floe__buf_clear(&tmp);
        if (rc == 0)
            rc = floe__buf_put(&tmp, p.v.bytes.ptr, p.v.bytes.len);
        const char *np = NULL;
        if (rc == 0)
            rc = under_source(r, tmp.ptr) ? new_path(r, tmp.ptr, &np) : 0;
        floe_value pv = np ? floe_value_bytes(FLOE_T_STRING, np, strlen(np)) : p;
        if (rc == 0)
            rc = floe__arrow_builder_append(b->children[0], &pv);
        if (rc == 0)
            rc = floe__arrow_builder_append(b->children[1], &q);
        if (rc == 0)
            rc = floe__arrow_builder_struct_append(b, true);
    }
    floe__buf_free(&tmp);
    return rc;
}

/* Rewrite one position delete file into staging; *size is the new size. */
static int rewrite_pos_file(rtp *r, const char *file, const char *staged, int64_t *size)
{
    if (!r->pos_schema) {
        floe_json *j = NULL;
        FLOE_TRY(floe__json_parse(&j, POS_DELETE_SCHEMA, strlen(POS_DELETE_SCHEMA),
                                  "position delete schema"));
        int rc = floe__schema_from_json(&r->pos_schema, j, 0, r->arena);
        floe__json_free(j);
        FLOE_TRY(rc);
    }
    floe_input *in = NULL;
    FLOE_TRY(floe_fileio_open_input(&in, r->io, file));
    floe_pq_reader *rd = NULL;
    floe_pq_read_options ro = {0};
    int rc = floe__pq_reader_open(&rd, in, &ro);
    const floe_type *root = rc == 0 ? floe__pq_reader_schema(rd)->root : NULL;
    if (rc == 0 && root->nfields != 2)
        rc = floe__error(FLOE_EUNSUPPORTED, "maint",
                         "cannot rewrite position delete file %s: it stores deleted rows "
                         "(a `row` column)",
                         file);
    floe_arrow_builder *b = NULL;
    if (rc == 0)
        rc = floe__arrow_builder_new(&b, r->pos_schema->root);
    struct ArrowArray batch;
    while (rc == 0) {
        memset(&batch, 0, sizeof batch);
        rc = floe__pq_reader_next(rd, &batch);
        if (rc == FLOE_ITEROVER) {
            rc = 0;
            break;
        }
        if (rc == 0)
            rc = copy_rows(r, root, &batch, b, file);
        if (batch.release)
            batch.release(&batch);
    }
    floe__pq_reader_free(rd);
    in->close(in);
    struct ArrowArray arr;
    memset(&arr, 0, sizeof arr);
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, &arr);
    floe__arrow_builder_free(b);
    floe_pq_metrics m;
    memset(&m, 0, sizeof m);
    if (rc == 0)
        rc = floe__write_delete_parquet(r->stage, staged, r->pos_schema, &arr, &r->end->properties,
                                        true, &m);
    if (rc == 0)
        *size = m.file_size_in_bytes;
    if (arr.release)
        arr.release(&arr);
    floe__pq_metrics_free(&m);
    if (rc < 0)
        floe__error_context("rewriting position delete file %s", file);
    return rc;
}

static int dv_ref_map(void *payload, const char *from, const char **to)
{
    rtp *r = payload;
    *to = from;
    return under_source(r, from) ? new_path(r, from, to) : 0;
}

/* Rewrite one Puffin file of deletion vectors into staging: the footer's
 * `referenced-data-file` blob properties under the source prefix move
 * under the target (Java's rewriteDVFile); the blobs keep their offsets,
 * so the manifest entries' content_offset and content_size_in_bytes hold.
 * *size is the new file size. */
static int rewrite_dv_file(rtp *r, const char *file, const char *staged, int64_t *size)
{
    /* r->bytes and r->out hold the manifest being rewritten */
    floe_buf in = FLOE_BUF_INIT, out = FLOE_BUF_INIT;
    int rc = floe__io_read_all(r->io, file, FLOE_MAINT_MAX_OBJECT, &in);
    if (rc == 0)
        rc = floe__puffin_rewrite_refs((const uint8_t *)in.ptr, in.len, dv_ref_map, r, &out);
    if (rc == 0)
        rc = write_staged(r, staged, out.ptr, out.len);
    if (rc == 0)
        *size = (int64_t)out.len;
    floe__buf_free(&in);
    floe__buf_free(&out);
    if (rc < 0)
        floe__error_context("rewriting deletion vector file %s", file);
    return rc;
}

/* Bounds map with the file_path bounds (a path: full, as written) moved
 * under the target prefix, like Java's ContentFileUtil.replacePathBounds. */
static int replace_path_bound(rtp *r, floe_col_bytes_map *map)
{
    if (!map->set)
        return 0;
    for (size_t i = 0; i < map->n; i++) {
        if (map->items[i].field_id != FIELD_FILE_PATH)
            continue;
        char *old =
            floe__arena_strndup(r->arena, (const char *)map->items[i].ptr, map->items[i].len);
        if (!old)
            return floe__error_nomem();
        if (!under_source(r, old))
            return 0; /* a truncated bound: leave it (it still bounds nothing of the copy) */
        const char *np;
        FLOE_TRY(new_path(r, old, &np));
        floe_col_bytes *items = floe__arena_memdup(r->arena, map->items, map->n * sizeof *items);
        if (!items)
            return floe__error_nomem();
        items[i].ptr = (const uint8_t *)np;
        items[i].len = strlen(np);
        map->items = items;
        return 0;
    }
    return 0;
}

/* ---------------------------------------------------------------- manifests */

static bool entry_copied(const rtp *r, const floe_manifest_entry *e, const floe_manifest_file *mf)
{
    if (!FLOE_ENTRY_IS_LIVE(e->status))
        return false;
    int64_t sid = e->has_snapshot_id ? e->snapshot_id : mf->added_snapshot_id;
    return !r->start_ids || !floe__intmap_has(r->start_ids, sid);
}

static int rewrite_entry(rtp *r, const floe_manifest_file *mf, floe_manifest_entry *e)
{
    floe_data_file *df = &e->data_file;
    const char *orig = df->file_path;
    bool copy = entry_copied(r, e, mf);
    const char *what = df->content == FLOE_FILE_DATA ? "data" : "delete";
    if (!under_source(r, orig))
        return floe__error(FLOE_EINVALID, "maint",
                           "Encountered %s file %s not under the source "
                           "prefix %s",
                           what, orig ? orig : "(null)", r->src);
    const char *np;
    FLOE_TRY(new_path(r, orig, &np));
    df->file_path = np;
    if (df->content == FLOE_FILE_POSITION_DELETES) {
        bool dv = (df->file_format && strcasecmp(df->file_format, "PUFFIN") == 0) ||
                  df->has_content_offset;
        if (df->referenced_data_file && under_source(r, df->referenced_data_file))
            FLOE_TRY(new_path(r, df->referenced_data_file, &df->referenced_data_file));
        FLOE_TRY(replace_path_bound(r, &df->lower_bounds));
        FLOE_TRY(replace_path_bound(r, &df->upper_bounds));
        if (copy) {
            int64_t *size = floe__strmap_get(r->deletes, orig);
            const char *staged;
            FLOE_TRY(stage_path(r, orig, &staged));
            if (!size) {
                size = floe__arena_alloc(r->arena, sizeof *size);
                if (!size)
                    return floe__error_nomem();
                FLOE_TRY(dv ? rewrite_dv_file(r, orig, staged, size)
                            : rewrite_pos_file(r, orig, staged, size));
                const char *key = floe__arena_strdup(r->arena, orig);
                if (!key || floe__strmap_put(r->deletes, key, size) < 0)
                    return floe__error_nomem();
                r->n_deletes++;
            }
            df->file_size_in_bytes = *size;
            FLOE_TRY(plan_add(r, staged, np));
        }
        return 0;
    }
    return copy ? plan_add(r, orig, np) : 0;
}

static int rewrite_manifest(rtp *r, const floe_manifest_file *mf)
{
    if (floe__strmap_has(r->manifests, mf->manifest_path))
        return 0;
    if (!under_source(r, mf->manifest_path))
        return floe__error(FLOE_EINVALID, "maint",
                           "Encountered manifest file %s not under the source prefix %s",
                           mf->manifest_path, r->src);
    floe__buf_clear(&r->bytes);
    FLOE_TRY(floe__io_read_all(r->io, mf->manifest_path, FLOE_MAINT_MAX_OBJECT, &r->bytes));
    floe_manifest_reader *rd = NULL;
    /* no inheritance: null snapshot ids and sequence numbers stay null */
    FLOE_TRY(floe_manifest_reader_open(&rd, (const uint8_t *)r->bytes.ptr, r->bytes.len,
                                       mf->manifest_path, NULL));
    const floe_manifest_info *info = floe_manifest_reader_info(rd);
    const char *np = NULL, *staged = NULL;
    int rc = new_path(r, mf->manifest_path, &np);
    if (rc == 0)
        rc = stage_path(r, mf->manifest_path, &staged);
    floe_manifest_writer *w = NULL;
    floe__buf_clear(&r->out);
    if (rc == 0)
        rc = floe__manifest_writer_like(&w, info, mf->added_snapshot_id, np, r->codec, r->arena,
                                        &r->out);
    const floe_manifest_entry *e;
    while (rc == 0 && (rc = floe_manifest_reader_next(rd, &e)) == 0) {
        floe_manifest_entry copy = *e;
        rc = rewrite_entry(r, mf, &copy);
        if (rc == 0)
            rc = floe_manifest_writer_add(w, &copy);
    }
    if (rc == FLOE_ITEROVER)
        rc = 0;
    floe_manifest_file done;
    if (rc == 0)
        rc = floe_manifest_writer_finish(w, &done);
    floe_manifest_writer_free(w);
    floe_manifest_reader_free(rd);
    if (rc == 0)
        rc = write_staged(r, staged, r->out.ptr, r->out.len);
    int64_t *len = rc == 0 ? floe__arena_alloc(r->arena, sizeof *len) : NULL;
    const char *key = rc == 0 ? floe__arena_strdup(r->arena, mf->manifest_path) : NULL;
    if (rc == 0 && (!len || !key || floe__strmap_put(r->manifests, key, len) < 0))
        rc = floe__error_nomem();
    if (rc == 0) {
        *len = (int64_t)r->out.len;
        r->n_manifests++;
        rc = plan_add(r, staged, np);
    }
    if (rc < 0)
        floe__error_context("rewriting manifest %s", mf->manifest_path);
    return rc;
}

/* Java's rule: a manifest added by a rewritten snapshot (the others were
 * rewritten by the run that copied the start version). */
static bool manifest_rewritten(const rtp *r, const floe_manifest_file *mf)
{
    return !r->start_ids || floe__intmap_has(r->delta, mf->added_snapshot_id);
}

/* ---------------------------------------------------------------- manifest lists */

static int write_list(rtp *r, const rtp_snap *sn)
{
    const floe_manifest_list *l = sn->list;
    floe_manifest_list_writer_options lo;
    /* v3: the snapshot's first-row-id; every data manifest keeps its own */
    floe__manifest_list_options(&lo, l->format_version, sn->s->snapshot_id, sn->s->has_parent,
                                sn->s->parent_snapshot_id, sn->s->sequence_number,
                                sn->s->has_first_row_id ? sn->s->first_row_id : 0, r->codec);
    floe_manifest_list_writer *w = NULL;
    floe__buf_clear(&r->out);
    FLOE_TRY(floe_manifest_list_writer_new(&w, &lo, &r->out));
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < l->nentries; i++) {
        floe_manifest_file mf = l->entries[i];
        const int64_t *len = floe__strmap_get(r->manifests, mf.manifest_path);
        if (!under_source(r, mf.manifest_path))
            rc = floe__error(FLOE_EINVALID, "maint",
                             "Encountered manifest file %s not under the source prefix %s",
                             mf.manifest_path, r->src);
        if (rc == 0)
            rc = new_path(r, mf.manifest_path, &mf.manifest_path);
        if (len)
            mf.manifest_length = *len;
        if (rc == 0)
            rc = floe_manifest_list_writer_add(w, &mf);
    }
    if (rc == 0)
        rc = floe_manifest_list_writer_finish(w);
    floe_manifest_list_writer_free(w);
    const char *staged = NULL, *np = NULL;
    if (rc == 0)
        rc = stage_path(r, sn->list_path, &staged);
    if (rc == 0)
        rc = new_path(r, sn->list_path, &np);
    if (rc == 0)
        rc = write_staged(r, staged, r->out.ptr, r->out.len);
    if (rc == 0)
        rc = plan_add(r, staged, np);
    if (rc < 0)
        floe__error_context("rewriting manifest list %s", sn->list_path);
    return rc;
}

/* ---------------------------------------------------------------- metadata versions */

static const char *const path_props[] = {"write.object-storage.path", "write.folder-storage.path",
                                         "write.data.path", "write.metadata.path"};

/* Java's RewriteTablePathUtil.replacePaths on a parsed version (ours to
 * change), written to staging. */
static int rewrite_version(rtp *r, floe_table_metadata *m, const char *location)
{
    FLOE_TRY(new_path(r, m->location, &m->location));
    floe_buf lp = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < m->nsnapshots; i++) {
        floe_snapshot *s = &m->snapshots[i];
        const char *p = NULL, *np = NULL;
        rc = floe__snapshot_manifest_list(s, &lp, &p);
        if (rc == 0 && p)
            rc = new_path(r, p, &np);
        if (rc == 0 && np)
            rc = floe__snapshot_pack_manifest_list(s, m->arena, np);
        if (rc == 0 && s->n_manifests) {
            const char **v1 = floe__arena_calloc(m->arena, s->n_manifests, sizeof *v1);
            if (!v1)
                rc = floe__error_nomem();
            for (uint32_t k = 0; rc == 0 && k < s->n_manifests; k++)
                rc = new_path(r, s->manifests[k], &v1[k]);
            if (rc == 0)
                s->manifests = v1;
        }
    }
    floe__buf_free(&lp);
    for (size_t i = 0; rc == 0 && i < m->n_metadata_log; i++)
        rc = new_path(r, m->metadata_log[i].metadata_file, &m->metadata_log[i].metadata_file);
    for (size_t i = 0; rc == 0 && i < m->nstatistics; i++) {
        const char *old = m->statistics[i].statistics_path;
        rc = new_path(r, old, &m->statistics[i].statistics_path);
        if (rc == 0)
            rc = plan_add(r, old, m->statistics[i].statistics_path);
    }
    for (size_t i = 0; rc == 0 && i < m->npartition_statistics; i++) {
        const char *old = m->partition_statistics[i].statistics_path;
        rc = new_path(r, old, &m->partition_statistics[i].statistics_path);
        if (rc == 0)
            rc = plan_add(r, old, m->partition_statistics[i].statistics_path);
    }
    for (size_t i = 0; rc == 0 && i < FLOE_ARRAY_LEN(path_props); i++) {
        const char *v = floe__props_get(&m->properties, path_props[i]);
        const char *np = NULL;
        if (v)
            rc = new_path(r, v, &np);
        if (rc == 0 && np)
            rc = floe__props_set(&m->properties, path_props[i], np);
    }
    floe_buf text = FLOE_BUF_INIT;
    const char *staged = NULL, *np = NULL;
    if (rc == 0)
        rc = floe__metadata_write(m, &text);
    if (rc == 0)
        rc = stage_path(r, location, &staged);
    if (rc == 0)
        rc = new_path(r, location, &np);
    if (rc == 0)
        rc = write_staged(r, staged, text.ptr, text.len);
    if (rc == 0)
        rc = plan_add(r, staged, np);
    floe__buf_free(&text);
    if (rc < 0)
        floe__error_context("rewriting metadata %s", location);
    return rc;
}

/* ---------------------------------------------------------------- copy */

static int copy_one(rtp *r, floe_fileio *from_io, const char *from, const char *to, char **chunk)
{
    floe_input *in = NULL;
    floe_output *out = NULL;
    FLOE_TRY(floe_fileio_open_input(&in, from_io, from));
    int rc = floe_fileio_create_output(&out, r->dst, to);
    if (rc == 0 && !*chunk && !(*chunk = floe__malloc(COPY_CHUNK)))
        rc = floe__error_nomem();
    for (int64_t off = 0; rc == 0 && off < in->size;) {
        size_t len = (size_t)(in->size - off) < COPY_CHUNK ? (size_t)(in->size - off) : COPY_CHUNK;
        rc = in->read_at(in, off, *chunk, len);
        if (rc == 0)
            rc = out->write(out, *chunk, len);
        if (rc == 0 && r->progress)
            floe__progress_add(r->progress, 0, len);
        off += (int64_t)len;
    }
    in->close(in);
    if (out) {
        if (rc == 0)
            rc = out->commit(out);
        else
            out->abort(out);
    }
    if (rc < 0)
        floe__error_context("copying %s to %s", from, to);
    return rc;
}

/* Copy every planned object; staged ones come from the staging FileIO and
 * are removed after their copy (a staged file already at its target stays). */
static int run_copy(rtp *r)
{
    char *chunk = NULL;
    int rc = floe__fileio_for_uri(&r->dst, r->tgt, NULL);
    size_t slen = strlen(r->staging);
    for (size_t i = 0; rc == 0 && i < r->plan_from.len; i++) {
        const char *from = *(const char **)floe__vec_at(&r->plan_from, i);
        const char *to = floe__strmap_get(r->plan, from);
        if (strcmp(from, to) == 0)
            continue;
        bool staged = strncmp(from, r->staging, slen) == 0;
        rc = copy_one(r, staged ? r->stage : r->io, from, to, &chunk);
        if (rc == 0 && staged)
            rc = floe_fileio_remove(r->stage, &from, 1);
        if (rc == 0)
            r->n_copied++;
    }
    floe__free(chunk);
    return rc;
}

static int write_file_list(rtp *r, char **location)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < r->plan_from.len; i++) {
        const char *from = *(const char **)floe__vec_at(&r->plan_from, i);
        rc = floe__buf_printf(&b, "%s,%s\n", from, (const char *)floe__strmap_get(r->plan, from));
    }
    char *path = rc == 0 ? floe__sprintf("%sfile-list", r->staging) : NULL;
    if (rc == 0 && !path)
        rc = floe__error_nomem();
    if (rc == 0)
        rc = write_staged(r, path, b.ptr ? b.ptr : "", b.len);
    floe__buf_free(&b);
    if (rc < 0) {
        floe__free(path);
        return rc;
    }
    *location = path;
    return 0;
}

/* ---------------------------------------------------------------- the run */

static void rtp_free(rtp *r)
{
    for (size_t i = 0; i < r->snaps.len; i++) {
        rtp_snap *sn = floe__vec_at(&r->snaps, i);
        floe_manifest_list_free(sn->list);
        floe__buf_free(&sn->bytes);
    }
    floe__vec_free(&r->snaps);
    floe__vec_free(&r->plan_from);
    floe__strmap_free(r->plan);
    floe__strmap_free(r->manifests);
    floe__strmap_free(r->deletes);
    floe__intmap_free(r->start_ids);
    floe__intmap_free(r->delta);
    floe__buf_free(&r->bytes);
    floe__buf_free(&r->out);
    if (r->pos_schema)
        floe__schema_release(r->pos_schema);
    floe__arena_free(r->arena);
}

/* Read the manifest list of every snapshot of the versions (once per id),
 * except those of the start version. */
static int collect_snapshots(rtp *r, floe_table_metadata *const *versions, size_t nversions)
{
    floe_intmap *seen = r->delta = floe__intmap_new();
    if (!seen)
        return floe__error_nomem();
    int rc = 0;
    for (size_t v = 0; rc == 0 && v < nversions; v++) {
        const floe_table_metadata *m = versions[v];
        for (size_t i = 0; rc == 0 && i < m->nsnapshots; i++) {
            const floe_snapshot *s = &m->snapshots[i];
            if (floe__intmap_has(seen, s->snapshot_id) ||
                (r->start_ids && floe__intmap_has(r->start_ids, s->snapshot_id)))
                continue;
            rc = floe__intmap_put(seen, s->snapshot_id, (void *)1);
            rtp_snap *sn = rc == 0 ? floe__vec_push(&r->snaps) : NULL;
            if (rc == 0 && !sn)
                rc = floe__error_nomem();
            if (rc != 0) /* intmap_put returns 0 or negative */
                break;
            sn->s = s;
            rc = floe__maint_list_path(s, r->arena, &sn->list_path);
            if (rc == 0)
                rc = floe__maint_snapshot_manifests(r->io, s, &sn->bytes, &sn->list, r->arena,
                                                    &sn->mfs, &sn->n);
            if (rc == FLOE_ENOTFOUND && v > 0 && !floe__metadata_snapshot(r->end, s->snapshot_id)) {
                /* expired since that version: its copy keeps the dangling name */
                floe_error_clear();
                rc = 0;
                sn->n = 0;
                sn->list_path = NULL;
            }
        }
    }
    return rc;
}

/* The versions to rewrite: `end` (index 0, borrowed location) and the
 * metadata-log entries before it, newest first, down to (not including)
 * start_location. */
static int load_versions(floe_fileio *io, floe_table_metadata *end, const char *start_location,
                         floe_vec *versions, floe_vec *locations)
{
    floe_table_metadata **slot = floe__vec_push(versions);
    const char **lslot = slot ? floe__vec_push(locations) : NULL;
    if (!lslot)
        return floe__error_nomem();
    *slot = end;
    for (size_t i = end->n_metadata_log; i-- > 0;) {
        const char *f = end->metadata_log[i].metadata_file;
        if (start_location && strcmp(f, start_location) == 0)
            break;
        floe_table_metadata *m = NULL;
        int rc = floe__maint_read_metadata(io, f, &m);
        if (rc == FLOE_ENOTFOUND)
            return floe__error(FLOE_EINVALID, "maint", "Version file %s doesn't exist", f);
        FLOE_TRY(rc);
        slot = floe__vec_push(versions);
        lslot = slot ? floe__vec_push(locations) : NULL;
        if (!lslot) {
            floe__metadata_free(m);
            if (slot)
                versions->len--;
            return floe__error_nomem();
        }
        *slot = m;
        *lslot = f;
    }
    return 0;
}

static const char *file_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Java's validateVersion: a file name in the metadata log (or the current). */
static int find_version(const floe_table_metadata *m, const char *current, const char *name,
                        const char **out)
{
    *out = NULL;
    if (strcmp(file_name(current), name) == 0)
        *out = current;
    for (size_t i = 0; i < m->n_metadata_log; i++)
        if (strcmp(file_name(m->metadata_log[i].metadata_file), name) == 0)
            *out = m->metadata_log[i].metadata_file;
    if (!*out)
        return floe__error(FLOE_EINVALID, "maint",
                           "Cannot find provided version file %s in metadata log.", name);
    return 0;
}

static char *trim_slash(const char *s)
{
    char *c = floe__strdup(s);
    size_t n = c ? strlen(c) : 0;
    while (n > 1 && c[n - 1] == '/')
        c[--n] = '\0';
    return c;
}

int floe__rewrite_path_run(floe_fileio *io, floe_table_metadata *end, const char *end_location,
                           const floe_table_metadata *start, const char *start_location,
                           const floe_maint_rewrite_path_options *o, floe__progress *progress,
                           floe_maint_rewrite_path_result *res)
{
    rtp r;
    memset(&r, 0, sizeof r);
    r.progress = progress;
    r.io = io;
    r.end = end;
    r.snaps.item_size = sizeof(rtp_snap);
    r.plan_from.item_size = sizeof(const char *);
    char *src = trim_slash(o->source_prefix), *tgt = trim_slash(o->target_prefix);
    char *staging = NULL;
    floe_vec versions = FLOE_VEC_INIT(floe_table_metadata *);
    floe_vec locations = FLOE_VEC_INIT(const char *);
    int rc = src && tgt ? 0 : floe__error_nomem();
    if (rc == 0) {
        r.src = src;
        r.src_len = strlen(src);
        r.tgt = tgt;
        r.arena = floe__arena_new(1 << 16);
        r.plan = floe__strmap_new();
        r.manifests = floe__strmap_new();
        r.deletes = floe__strmap_new();
        if (!r.arena || !r.plan || !r.manifests || !r.deletes)
            rc = floe__error_nomem();
    }
    if (rc == 0 && o->staging_location) {
        size_t n = strlen(o->staging_location);
        staging = floe__sprintf("%s%s", o->staging_location,
                                n && o->staging_location[n - 1] == '/' ? "" : "/");
    } else if (rc == 0) {
        char uuid[37];
        rc = floe__uuid4(uuid);
        const char *md = floe__props_get(&end->properties, "write.metadata.path");
        if (rc == 0)
            staging = md ? floe__sprintf("%s/copy-table-staging-%s/", md, uuid)
                         : floe__sprintf("%s/metadata/copy-table-staging-%s/", end->location, uuid);
    }
    if (rc == 0 && !staging)
        rc = floe__error_nomem();
    r.staging = staging;
    /* the default staging is under the table's metadata: the table's FileIO
     * (Java: table.io()); one given explicitly gets its own */
    if (rc == 0 && o->staging_location) {
        rc = floe__fileio_for_uri(&r.stage, staging, o->io_conf);
        r.own_stage = true;
    } else {
        r.stage = io;
    }
    r.codec = floe__table_avro_codec(end);
    if (rc == 0 && start) {
        if (!(r.start_ids = floe__intmap_new()))
            rc = floe__error_nomem();
        for (size_t i = 0; rc == 0 && i < start->nsnapshots; i++)
            rc = floe__intmap_put(r.start_ids, start->snapshots[i].snapshot_id, (void *)1);
    }
    if (rc == 0)
        rc = load_versions(io, end, start_location, &versions, &locations);
    if (rc == 0)
        *(const char **)floe__vec_at(&locations, 0) = end_location;
    if (rc == 0)
        rc = collect_snapshots(&r, (floe_table_metadata *const *)versions.items, versions.len);
    for (size_t i = 0; rc == 0 && i < r.snaps.len; i++) {
        const rtp_snap *sn = floe__vec_at(&r.snaps, i);
        for (size_t k = 0; rc == 0 && k < sn->n; k++)
            if (manifest_rewritten(&r, &sn->mfs[k]))
                rc = rewrite_manifest(&r, &sn->mfs[k]);
    }
    for (size_t i = 0; rc == 0 && i < r.snaps.len; i++) {
        const rtp_snap *sn = floe__vec_at(&r.snaps, i);
        if (sn->list && sn->list_path)
            rc = write_list(&r, sn);
    }
    for (size_t i = 0; rc == 0 && i < versions.len; i++)
        rc = rewrite_version(&r, *(floe_table_metadata **)floe__vec_at(&versions, i),
                             *(const char **)floe__vec_at(&locations, i));
    char *list = NULL;
    if (rc == 0 && o->create_file_list)
        rc = write_file_list(&r, &list);
    if (rc == 0 && o->copy)
        rc = run_copy(&r);
    if (rc == 0) {
        res->latest_version = floe__strdup(file_name(end_location));
        res->file_list_location = list ? list : floe__strdup("N/A");
        list = NULL;
        res->staging_location = staging;
        staging = NULL;
        res->rewritten_manifest_file_paths_count = r.n_manifests;
        res->rewritten_delete_file_paths_count = r.n_deletes;
        res->copied_files_count = r.n_copied;
        if (!res->latest_version || !res->file_list_location)
            rc = floe__error_nomem();
    }
    floe__free(list);
    for (size_t i = 1; i < versions.len; i++)
        floe__metadata_free(*(floe_table_metadata **)floe__vec_at(&versions, i));
    floe__vec_free(&versions);
    floe__vec_free(&locations);
    if (r.own_stage)
        floe_fileio_free(r.stage);
    floe_fileio_free(r.dst);
    rtp_free(&r);
    floe__free(src);
    floe__free(tgt);
    floe__free(staging);
    return rc;
}

void floe_maint_rewrite_path_result_free(floe_maint_rewrite_path_result *r)
{
    if (!r)
        return;
    floe__free(r->latest_version);
    floe__free(r->file_list_location);
    floe__free(r->staging_location);
    memset(r, 0, sizeof *r);
}

int floe_maint_rewrite_table_path(floe_maint_rewrite_path_result *out, floe_catalog *catalog,
                                  const char *ident, const floe_maint_rewrite_path_options *opts)
{
    memset(out, 0, sizeof *out);
    if (!opts || opts->version != FLOE_MAINT_REWRITE_PATH_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "maint", "unsupported rewrite_table_path options");
    const floe_maint_rewrite_path_options *o = opts;
    if (!o->source_prefix || !*o->source_prefix)
        return floe__error(FLOE_EINVALID, "maint", "Source prefix('%s') cannot be empty.",
                           o->source_prefix ? o->source_prefix : "null");
    if (!o->target_prefix || !*o->target_prefix)
        return floe__error(FLOE_EINVALID, "maint", "Target prefix('%s') cannot be empty.",
                           o->target_prefix ? o->target_prefix : "null");
    if (strcmp(o->source_prefix, o->target_prefix) == 0)
        return floe__error(FLOE_EINVALID, "maint",
                           "Source prefix cannot be the same as target prefix (%s)",
                           o->source_prefix);
    if (o->start_version && !*o->start_version)
        return floe__error(FLOE_EINVALID, "maint", "Start version('%s') cannot be empty.",
                           o->start_version);
    if (o->end_version && !*o->end_version)
        return floe__error(FLOE_EINVALID, "maint", "End version('%s') cannot be empty.",
                           o->end_version);
    if (o->staging_location && !*o->staging_location)
        return floe__error(FLOE_EINVALID, "maint", "Staging location('%s') cannot be empty.",
                           o->staging_location);
    floe_maint_table t;
    FLOE_TRY(floe__maint_table_load(&t, catalog, ident, o->io, o->io_conf));
    const char *end_loc = t.metadata_location, *start_loc = NULL;
    int rc = 0;
    if (o->end_version)
        rc = find_version(t.metadata, t.metadata_location, o->end_version, &end_loc);
    if (rc == 0 && o->start_version)
        rc = find_version(t.metadata, t.metadata_location, o->start_version, &start_loc);
    floe_table_metadata *end = NULL, *start = NULL;
    if (rc == 0) {
        rc = floe__maint_read_metadata(t.io, end_loc, &end);
        if (rc == FLOE_ENOTFOUND)
            rc = floe__error(FLOE_EINVALID, "maint", "Version file %s does not exist.", end_loc);
    }
    if (rc == 0 && start_loc) {
        rc = floe__maint_read_metadata(t.io, start_loc, &start);
        if (rc == FLOE_ENOTFOUND)
            rc = floe__error(FLOE_EINVALID, "maint", "Version file %s does not exist.", start_loc);
    }
    if (rc == 0)
        rc = floe__rewrite_path_run(t.io, end, end_loc, start, start_loc, o, NULL, out);
    floe__metadata_free(end);
    floe__metadata_free(start);
    floe__maint_table_free(&t);
    return rc;
}
