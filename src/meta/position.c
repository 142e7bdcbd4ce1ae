/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta/position: the position_deletes table — the rows of the selected
 * snapshot's live position-delete files (spec "Position Delete Files":
 * file_path, pos), with the partition, spec id and path of the delete file
 * they come from, as Java's PositionDeletesTable. Delete files are Parquet
 * read through src/parquet one row group at a time; the optional `row`
 * column (the deleted row, rarely written) is always null here, and
 * deletion vectors (v3 Puffin blobs) are refused with FLOE_EUNSUPPORTED.
 */
#include "meta/scan.h"

#include "floe/arrow.h"
#include "floe/io.h"
#include "parquet/parquet.h"
#include "spec/value.h"

#include <string.h>
#include <strings.h>

enum { PD_FILE_PATH, PD_POS, PD_ROW, PD_PARTITION, PD_SPEC_ID, PD_DELETE_FILE_PATH };

typedef struct pos_source {
    floe_rowsource rs;
    floe_meta_options o;
    meta_info *info;
    floe_rs_column cols[6];
    int logical[6];
} pos_source;

/* The columns the spec gives position delete files (reserved field ids). */
static const floe_field pd_fields[] = {
    {.id = 2147483546, .name = "file_path", .required = true, .type = &floe__rs_t_string},
    {.id = 2147483545, .name = "pos", .required = true, .type = &floe__rs_t_long},
};
static const floe_type pd_struct = {.id = FLOE_T_STRUCT, .nfields = 2, .fields = pd_fields};
static const floe_schema pd_schema = {.schema_id = 0, .root = &pd_struct};

typedef struct pos_cursor {
    floe_rowcursor base;
    pos_source *src;
    meta_walker *w;
    floe_input *in;
    floe_pq_reader *reader;
    struct ArrowArray batch;
    int64_t row;
    floe_arena *file; /* per delete file: its path and partition JSON */
    char *delete_path;
    char *partition;
    int32_t spec_id;
} pos_cursor;

static void close_file(pos_cursor *c)
{
    if (c->batch.release)
        c->batch.release(&c->batch);
    memset(&c->batch, 0, sizeof c->batch);
    floe__pq_reader_free(c->reader);
    c->reader = NULL;
    if (c->in)
        c->in->close(c->in);
    c->in = NULL;
}

static int open_next_file(pos_cursor *c)
{
    const floe_manifest_entry *e;
    const floe_manifest_file *mf;
    const floe_manifest_info *mi;
    for (;;) {
        FLOE_TRY(floe__meta_walker_next_entry(c->w, &e, &mf, &mi));
        const floe_data_file *df = &e->data_file;
        if (e->status == FLOE_ENTRY_DELETED || df->content != FLOE_FILE_POSITION_DELETES)
            continue;
        if (strcasecmp(df->file_format, "PARQUET") != 0)
            return floe__error(FLOE_EUNSUPPORTED, "meta",
                               "position_deletes: %s delete files are not supported (%s)",
                               df->file_format, df->file_path);
        floe__arena_reset(c->file);
        c->delete_path = floe__arena_strdup(c->file, df->file_path);
        floe_buf b = FLOE_BUF_INIT;
        int rc = floe__meta_json_partition(c->src->info, &df->partition, mi->partition_field_ids,
                                           mi->npartition_fields, &b);
        c->partition = rc == 0 ? floe__arena_strndup(c->file, b.ptr ? b.ptr : "", b.len) : NULL;
        floe__buf_free(&b);
        FLOE_TRY(rc);
        if (!c->delete_path || !c->partition)
            return floe__error_nomem();
        c->spec_id = mf->partition_spec_id >= 0 ? mf->partition_spec_id : mi->partition_spec_id;
        FLOE_TRY(floe_fileio_open_input(&c->in, c->src->o.io, df->file_path));
        floe_pq_read_options ro = {0};
        ro.projection = &pd_schema;
        rc = floe__pq_reader_open(&c->reader, c->in, &ro);
        if (rc < 0) {
            c->reader = NULL;
            return rc;
        }
        return 0;
    }
}

static int pd_next(floe_rowcursor *base)
{
    pos_cursor *c = (pos_cursor *)base;
    for (;;) {
        if (c->batch.release && c->row + 1 < c->batch.length) {
            c->row++;
            return 0;
        }
        if (c->batch.release)
            c->batch.release(&c->batch);
        memset(&c->batch, 0, sizeof c->batch);
        if (c->reader) {
            int rc = floe__pq_reader_next(c->reader, &c->batch);
            if (rc == 0) {
                if (c->batch.n_children != 2) {
                    close_file(c);
                    return floe__error(FLOE_ECORRUPT, "meta", "position delete batch shape");
                }
                c->row = -1;
                continue;
            }
            if (rc != FLOE_ITEROVER)
                return rc;
            close_file(c);
        }
        FLOE_TRY(open_next_file(c));
    }
}

static int pd_column(floe_rowcursor *base, size_t col, floe_rs_cell *out)
{
    pos_cursor *c = (pos_cursor *)base;
    memset(out, 0, sizeof *out);
    int64_t i = c->row;
    switch (c->src->logical[col]) {
    case PD_FILE_PATH: {
        const struct ArrowArray *a = c->batch.children[0];
        if (!floe__arrow_is_valid(a, i)) {
            out->value = floe_value_null(FLOE_T_STRING);
            return 0;
        }
        const int32_t *off = (const int32_t *)a->buffers[1] + a->offset;
        const char *data = (const char *)a->buffers[2];
        out->value = floe_value_bytes(FLOE_T_STRING, data + off[i], (size_t)(off[i + 1] - off[i]));
        return 0;
    }
    case PD_POS: {
        const struct ArrowArray *a = c->batch.children[1];
        if (!floe__arrow_is_valid(a, i)) {
            out->value = floe_value_null(FLOE_T_LONG);
            return 0;
        }
        int64_t v;
        memcpy(&v, (const uint8_t *)a->buffers[1] + 8 * (a->offset + i), 8);
        out->value = floe_value_long(v);
        return 0;
    }
    case PD_ROW: out->value = floe_value_null(FLOE_T_STRUCT); return 0;
    case PD_PARTITION:
        *out = floe__rs_json(FLOE_T_STRUCT, c->partition, strlen(c->partition));
        return 0;
    case PD_SPEC_ID: out->value = floe_value_int(c->spec_id); return 0;
    default:
        out->value = floe_value_bytes(FLOE_T_STRING, c->delete_path, strlen(c->delete_path));
        return 0;
    }
}

static void pd_close(floe_rowcursor *base)
{
    pos_cursor *c = (pos_cursor *)base;
    close_file(c);
    floe__meta_walker_free(c->w);
    floe__arena_free(c->file);
    floe__free(c);
}

static int pd_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                   floe_rowcursor **out)
{
    FLOE_UNUSED(cons);
    FLOE_UNUSED(ncons);
    pos_source *s = rs->impl;
    pos_cursor *c = floe__calloc(1, sizeof *c);
    if (!c)
        return floe__error_nomem();
    c->src = s;
    c->file = floe__arena_new(0);
    int rc = c->file ? 0 : floe__error_nomem();
    if (rc == 0)
        rc = floe__meta_walker_new(&c->w, &s->o, WALK_SNAPSHOT, floe__meta_selected_snapshot(&s->o),
                                   WALK_DELETES);
    if (rc < 0) {
        pd_close(&c->base);
        return rc;
    }
    *out = &c->base;
    return 0;
}

static void pd_free(floe_rowsource *rs)
{
    pos_source *s = rs->impl;
    floe__meta_info_free(s->info);
    floe__free(s);
}

static const floe_rowsource_ops pos_ops = {pd_open, pd_next, pd_column, pd_close, pd_free};

int floe__meta_open_position_deletes(floe_rowsource **out, const floe_meta_options *o)
{
    *out = NULL;
    if (!o->io)
        return floe__error(FLOE_EINVALID, "meta", "metadata table position_deletes needs a FileIO");
    pos_source *s = floe__calloc(1, sizeof *s);
    if (!s)
        return floe__error_nomem();
    s->o = *o;
    int rc = floe__meta_info_new(&s->info, o->metadata);
    if (rc < 0) {
        floe__free(s);
        return rc;
    }
    const floe_schema *schema = floe__metadata_current_schema(o->metadata);
    static const char *const names[] = {"file_path", "pos",     "row",
                                        "partition", "spec_id", "delete_file_path"};
    size_t n = 0;
    for (int i = 0; i < 6; i++) {
        if (i == PD_PARTITION && s->info->npart == 0)
            continue;
        s->cols[n].name = names[i];
        s->cols[n].type = i == PD_POS         ? &floe__rs_t_long
                          : i == PD_ROW       ? (schema ? schema->root : &pd_struct)
                          : i == PD_PARTITION ? s->info->part_type
                          : i == PD_SPEC_ID   ? &floe__rs_t_int
                                              : &floe__rs_t_string;
        s->cols[n].required = i != PD_ROW;
        s->logical[n++] = i;
    }
    s->rs.ops = &pos_ops;
    s->rs.name = "position_deletes";
    s->rs.columns = s->cols;
    s->rs.ncolumns = n;
    s->rs.impl = s;
    *out = &s->rs;
    return 0;
}
