/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta/partitions: the partitions table — per partition of the selected
 * snapshot's live files (spec "Manifests": ADDED and EXISTING entries; delete
 * files are counted, not applied), record and file counts by content, data
 * bytes, and the newest snapshot that added a file there, as Java's
 * PartitionsTable. Partitions are keyed by their tuple over the unified
 * partition type, so files written under older specs land in the same
 * partition when their values agree. Unpartitioned tables have one row and
 * no partition/spec_id columns.
 *
 * The aggregation is built at open time: memory grows with the number of
 * partitions, not with the number of files.
 */
#include "meta/scan.h"

#include "spec/value.h"

#include <string.h>

typedef struct part_agg {
    char *key; /* partition JSON */
    int32_t spec_id;
    int64_t record_count;
    int32_t file_count;
    int64_t data_bytes;
    int64_t pos_records;
    int32_t pos_files;
    int64_t eq_records;
    int32_t eq_files;
    bool has_last;
    int64_t last_updated_us;
    int64_t last_snapshot_id;
} part_agg;

typedef struct parts_source {
    floe_rowsource rs;
    floe_meta_options o;
    meta_info *info;
    floe_rs_column cols[11];
    int logical[11];
} parts_source;

typedef struct parts_cursor {
    floe_rowcursor base;
    parts_source *src;
    floe_arena *arena;
    floe_vec rows; /* part_agg */
    size_t i;
    bool started;
} parts_cursor;

static const char *const part_names[11] = {
    "partition",
    "spec_id",
    "record_count",
    "file_count",
    "total_data_file_size_in_bytes",
    "position_delete_record_count",
    "position_delete_file_count",
    "equality_delete_record_count",
    "equality_delete_file_count",
    "last_updated_at",
    "last_updated_snapshot_id",
};

static int aggregate(parts_cursor *c)
{
    parts_source *s = c->src;
    const floe_table_metadata *m = s->o.metadata;
    meta_walker *w;
    FLOE_TRY(floe__meta_walker_new(&w, &s->o, WALK_SNAPSHOT, floe__meta_selected_snapshot(&s->o),
                                   WALK_DATA | WALK_DELETES));
    floe_strmap *index = floe__strmap_new();
    floe_buf key = FLOE_BUF_INIT;
    int rc = index ? 0 : floe__error_nomem();
    const floe_manifest_entry *e;
    const floe_manifest_file *mf;
    const floe_manifest_info *mi;
    while (rc == 0 && (rc = floe__meta_walker_next_entry(w, &e, &mf, &mi)) == 0) {
        if (e->status == FLOE_ENTRY_DELETED)
            continue;
        const floe_data_file *df = &e->data_file;
        floe__buf_clear(&key);
        if (s->info->npart) {
            rc = floe__meta_json_partition(s->info, &df->partition, mi->partition_field_ids,
                                           mi->npartition_fields, &key);
            if (rc < 0)
                break;
        }
        const char *k = key.ptr ? key.ptr : "";
        void *slot = floe__strmap_get(index, k);
        part_agg *p;
        if (slot) {
            p = floe__vec_at(&c->rows, (size_t)(uintptr_t)slot - 1);
        } else {
            p = floe__vec_push(&c->rows);
            char *kc = p ? floe__arena_strdup(c->arena, k) : NULL;
            if (!kc || floe__strmap_put(index, kc, (void *)(uintptr_t)c->rows.len) < 0) {
                rc = floe__error_nomem();
                break;
            }
            p->key = kc;
        }
        const floe_snapshot *snap =
            e->has_snapshot_id ? floe__metadata_snapshot(m, e->snapshot_id) : NULL;
        int32_t spec_id =
            mf->partition_spec_id >= 0 ? mf->partition_spec_id : mi->partition_spec_id;
        if (!slot)
            p->spec_id = spec_id;
        if (snap && (!p->has_last || snap->timestamp_ms * 1000 > p->last_updated_us)) {
            p->has_last = true;
            p->last_updated_us = snap->timestamp_ms * 1000;
            p->last_snapshot_id = snap->snapshot_id;
            p->spec_id = spec_id;
        }
        switch (df->content) {
        case FLOE_FILE_DATA:
            p->record_count += df->record_count;
            p->file_count++;
            p->data_bytes += df->file_size_in_bytes;
            break;
        case FLOE_FILE_POSITION_DELETES:
            p->pos_records += df->record_count;
            p->pos_files++;
            break;
        default:
            p->eq_records += df->record_count;
            p->eq_files++;
            break;
        }
    }
    if (rc == FLOE_ITEROVER)
        rc = 0;
    floe__buf_free(&key);
    floe__strmap_free(index);
    floe__meta_walker_free(w);
    return rc;
}

static void p_close(floe_rowcursor *base)
{
    parts_cursor *c = (parts_cursor *)base;
    floe__vec_free(&c->rows);
    floe__arena_free(c->arena);
    floe__free(c);
}

static int p_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                  floe_rowcursor **out)
{
    FLOE_UNUSED(cons);
    FLOE_UNUSED(ncons);
    parts_cursor *c = floe__calloc(1, sizeof *c);
    if (!c)
        return floe__error_nomem();
    c->src = rs->impl;
    c->rows = (floe_vec)FLOE_VEC_INIT(part_agg);
    c->arena = floe__arena_new(0);
    int rc = c->arena ? aggregate(c) : floe__error_nomem();
    if (rc < 0) {
        c->base.rs = rs;
        p_close(&c->base);
        return rc;
    }
    *out = &c->base;
    return 0;
}

static int p_next(floe_rowcursor *base)
{
    parts_cursor *c = (parts_cursor *)base;
    if (c->started)
        c->i++;
    c->started = true;
    return c->i < c->rows.len ? 0 : FLOE_ITEROVER;
}

static int p_column(floe_rowcursor *base, size_t col, floe_rs_cell *out)
{
    parts_cursor *c = (parts_cursor *)base;
    const part_agg *p = floe__vec_at(&c->rows, c->i);
    memset(out, 0, sizeof *out);
    switch (c->src->logical[col]) {
    case 0:
        *out = floe__rs_json(FLOE_T_STRUCT, p->key, strlen(p->key));
        return 0;
    case 1: out->value = floe_value_int(p->spec_id); return 0;
    case 2: out->value = floe_value_long(p->record_count); return 0;
    case 3: out->value = floe_value_int(p->file_count); return 0;
    case 4: out->value = floe_value_long(p->data_bytes); return 0;
    case 5: out->value = floe_value_long(p->pos_records); return 0;
    case 6: out->value = floe_value_int(p->pos_files); return 0;
    case 7: out->value = floe_value_long(p->eq_records); return 0;
    case 8: out->value = floe_value_int(p->eq_files); return 0;
    case 9:
        out->value = p->has_last ? floe_value_i64(FLOE_T_TIMESTAMPTZ, p->last_updated_us)
                                 : floe_value_null(FLOE_T_TIMESTAMPTZ);
        return 0;
    default:
        out->value =
            p->has_last ? floe_value_long(p->last_snapshot_id) : floe_value_null(FLOE_T_LONG);
        return 0;
    }
}

static void p_free(floe_rowsource *rs)
{
    parts_source *s = rs->impl;
    floe__meta_info_free(s->info);
    floe__free(s);
}

static const floe_rowsource_ops parts_ops = {p_open, p_next, p_column, p_close, p_free};

int floe__meta_open_partitions(floe_rowsource **out, const floe_meta_options *o)
{
    *out = NULL;
    if (!o->io)
        return floe__error(FLOE_EINVALID, "meta", "metadata table partitions needs a FileIO");
    parts_source *s = floe__calloc(1, sizeof *s);
    if (!s)
        return floe__error_nomem();
    s->o = *o;
    int rc = floe__meta_info_new(&s->info, o->metadata);
    if (rc < 0) {
        floe__free(s);
        return rc;
    }
    size_t n = 0;
    for (int i = 0; i < 11; i++) {
        if (i < 2 && s->info->npart == 0)
            continue;
        s->cols[n].name = part_names[i];
        s->cols[n].type = i == 0                                   ? s->info->part_type
                          : (i == 1 || i == 3 || i == 6 || i == 8) ? &floe__rs_t_int
                          : i == 9                                 ? &floe__rs_t_timestamptz
                                                                   : &floe__rs_t_long;
        s->cols[n].required = i < 9;
        s->logical[n++] = i;
    }
    s->rs.ops = &parts_ops;
    s->rs.name = "partitions";
    s->rs.columns = s->cols;
    s->rs.ncolumns = n;
    s->rs.impl = s;
    *out = &s->rs;
    return 0;
}
