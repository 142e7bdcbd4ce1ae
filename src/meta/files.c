/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta/files: the files family (files, data_files, delete_files, all_files,
 * all_data_files, all_delete_files) and the entries family (entries,
 * all_entries), streamed from manifest entries (spec "Manifests",
 * "Manifest Entry Fields") with the columns of Java's BaseFilesTable and
 * BaseEntriesTable: DataFile.getType() of the unified partition type (the
 * partition column left out for unpartitioned tables) plus readable_metrics.
 *
 * files: the live entries (ADDED, EXISTING) of one snapshot's manifests.
 * entries: every entry of them, DELETED included.
 * all_files: the live entries of every manifest reachable from a retained
 * snapshot, each manifest once. A file is shown once: an EXISTING entry is
 * skipped when the snapshot that added the file (its snapshot_id) is still
 * retained, because that snapshot's own manifests carry the ADDED entry.
 * (Java shows such copies twice; the docs warn that all_* "may produce more
 * than one row per data file".)
 * all_entries: every entry of every reachable manifest, each manifest once.
 */
#include "meta/scan.h"

#include "arrow/arrow.h"
#include "spec/value.h"

#include <stdlib.h>
#include <string.h>

typedef struct files_source {
    floe_rowsource rs;
    meta_files_kind kind;
    floe_meta_options o;
    meta_info *info;
    floe_rs_column *cols;
    int *logical; /* column index -> DF_* (files) or entries column */
} files_source;

enum { EN_STATUS, EN_SNAPSHOT_ID, EN_SEQ, EN_FILE_SEQ, EN_DATA_FILE, EN_READABLE_METRICS };

typedef struct files_cursor {
    floe_rowcursor base;
    files_source *src;
    meta_walker *w;
    const floe_manifest_entry *e;
    const floe_manifest_file *mf;
    const floe_manifest_info *minfo;
    /* The current row's cells by column, each computed once (bit i of
     * `have`): a nested cell's JSON lives in its column's buffer until the
     * next row, so no copy is made and a second read costs nothing. */
    uint32_t have;
    floe_rs_cell cell[DF_NCOLS];
    floe_buf text[DF_NCOLS];
} files_cursor;

static bool is_entries(meta_files_kind k)
{
    return k == MF_ENTRIES || k == MF_ALL_ENTRIES;
}
static bool is_all(meta_files_kind k)
{
    return k == MF_ALL_FILES || k == MF_ALL_DATA_FILES || k == MF_ALL_DELETE_FILES ||
           k == MF_ALL_ENTRIES;
}

static unsigned contents_of(meta_files_kind k)
{
    switch (k) {
    case MF_DATA_FILES:
    case MF_ALL_DATA_FILES: return WALK_DATA;
    case MF_DELETE_FILES:
    case MF_ALL_DELETE_FILES: return WALK_DELETES;
    default: return WALK_DATA | WALK_DELETES;
    }
}

/* `content = n` reads only the manifests that can hold such files, as
 * Java's ManifestContentEvaluator (data files live in data manifests,
 * delete files in delete manifests). */
static unsigned pushed_contents(const files_source *s, const floe_rs_constraint *cons, size_t ncons)
{
    unsigned contents = contents_of(s->kind);
    for (size_t i = 0; i < ncons; i++) {
        if (cons[i].op != FLOE_RS_EQ || s->logical[cons[i].column] != DF_CONTENT ||
            is_entries(s->kind) || cons[i].value.type != FLOE_T_INT)
            continue;
        int32_t v = cons[i].value.v.i32;
        contents &= v == FLOE_FILE_DATA ? WALK_DATA
                    : v == FLOE_FILE_POSITION_DELETES || v == FLOE_FILE_EQUALITY_DELETES
                        ? WALK_DELETES
                        : 0;
    }
    return contents;
}

static int f_open(floe_rowsource *rs, const floe_rs_constraint *cons, size_t ncons,
                  floe_rowcursor **out)
{
    files_source *s = rs->impl;
    files_cursor *c = floe__calloc(1, sizeof *c);
    if (!c)
        return floe__error_nomem();
    c->src = s;
    int rc = floe__meta_walker_new(&c->w, &s->o, is_all(s->kind) ? WALK_ALL : WALK_SNAPSHOT,
                                   is_all(s->kind) ? NULL : floe__meta_selected_snapshot(&s->o),
                                   pushed_contents(s, cons, ncons));
    if (rc < 0) {
        floe__free(c);
        return rc;
    }
    /* entries WHERE status = n: only manifests whose counts allow it */
    for (size_t i = 0; is_entries(s->kind) && i < ncons; i++)
        if (cons[i].op == FLOE_RS_EQ && s->logical[cons[i].column] == EN_STATUS &&
            cons[i].value.type == FLOE_T_INT && cons[i].value.v.i32 >= 0 &&
            cons[i].value.v.i32 <= 2)
            floe__meta_walker_want_statuses(c->w, 1u << cons[i].value.v.i32);
    *out = &c->base;
    return 0;
}

static int f_next(floe_rowcursor *base)
{
    files_cursor *c = (files_cursor *)base;
    const floe_table_metadata *m = c->src->o.metadata;
    c->have = 0;
    for (;;) {
        FLOE_TRY(floe__meta_walker_next_entry(c->w, &c->e, &c->mf, &c->minfo));
        if (is_entries(c->src->kind))
            return 0;
        if (c->e->status == FLOE_ENTRY_DELETED)
            continue;
        if (is_all(c->src->kind) && c->e->status == FLOE_ENTRY_EXISTING && c->e->has_snapshot_id &&
            floe__metadata_snapshot(m, c->e->snapshot_id))
            continue;
        return 0;
    }
}

/* The JSON written into *buf (rc: how that went) as a cell. */
static int json_cell(const floe_buf *buf, int rc, floe_rs_cell *out)
{
    if (rc < 0)
        return rc;
    *out = floe__rs_json(FLOE_T_STRUCT, buf->ptr ? buf->ptr : "", buf->len);
    return 0;
}

static int32_t spec_id_of(const files_cursor *c)
{
    return c->mf->partition_spec_id >= 0 ? c->mf->partition_spec_id : c->minfo->partition_spec_id;
}

static int df_cell(files_cursor *c, int col, floe_buf *tmp, floe_rs_cell *out)
{
    const floe_data_file *df = &c->e->data_file;
    const meta_info *info = c->src->info;
    switch (col) {
    case DF_CONTENT: *out = floe__rs_int(df->content); return 0;
    case DF_FILE_PATH: *out = floe__rs_str(df->file_path); return 0;
    case DF_FILE_FORMAT: *out = floe__rs_str(df->file_format); return 0;
    case DF_SPEC_ID: *out = floe__rs_int(spec_id_of(c)); return 0;
    case DF_PARTITION:
        return json_cell(tmp,
                         floe__meta_json_partition(info, &df->partition,
                                                   c->minfo->partition_field_ids,
                                                   c->minfo->npartition_fields, tmp),
                         out);
    case DF_RECORD_COUNT: *out = floe__rs_long(df->record_count); return 0;
    case DF_FILE_SIZE: *out = floe__rs_long(df->file_size_in_bytes); return 0;
    case DF_COLUMN_SIZES:
    case DF_VALUE_COUNTS:
    case DF_NULL_VALUE_COUNTS:
    case DF_NAN_VALUE_COUNTS: {
        const floe_col_longs *m = col == DF_COLUMN_SIZES        ? &df->column_sizes
                                  : col == DF_VALUE_COUNTS      ? &df->value_counts
                                  : col == DF_NULL_VALUE_COUNTS ? &df->null_value_counts
                                                                : &df->nan_value_counts;
        if (!m->set) {
            *out = floe__rs_null(FLOE_T_MAP);
            return 0;
        }
        return json_cell(tmp, floe__meta_json_longs(m, tmp), out);
    }
    case DF_LOWER_BOUNDS:
    case DF_UPPER_BOUNDS: {
        const floe_col_bytes_map *m =
            col == DF_LOWER_BOUNDS ? &df->lower_bounds : &df->upper_bounds;
        if (!m->set) {
            *out = floe__rs_null(FLOE_T_MAP);
            return 0;
        }
        return json_cell(tmp, floe__meta_json_bytes_map(m, tmp), out);
    }
    case DF_KEY_METADATA:
        *out = floe__rs_null(FLOE_T_BINARY);
        if (df->key_metadata.set)
            out->value =
                floe_value_bytes(FLOE_T_BINARY, df->key_metadata.ptr, df->key_metadata.len);
        return 0;
    case DF_SPLIT_OFFSETS:
        if (!df->has_split_offsets) {
            *out = floe__rs_null(FLOE_T_LIST);
            return 0;
        }
        return json_cell(tmp, floe__meta_json_split_offsets(df, tmp), out);
    case DF_EQUALITY_IDS:
        if (!df->has_equality_ids) {
            *out = floe__rs_null(FLOE_T_LIST);
            return 0;
        }
        return json_cell(tmp, floe__meta_json_equality_ids(df, tmp), out);
    case DF_SORT_ORDER_ID:
        *out = df->has_sort_order_id ? floe__rs_int(df->sort_order_id) : floe__rs_null(FLOE_T_INT);
        return 0;
    case DF_FIRST_ROW_ID:
        *out = df->has_first_row_id ? floe__rs_long(df->first_row_id) : floe__rs_null(FLOE_T_LONG);
        return 0;
    case DF_REFERENCED_DATA_FILE: *out = floe__rs_str(df->referenced_data_file); return 0;
    case DF_CONTENT_OFFSET:
        *out =
            df->has_content_offset ? floe__rs_long(df->content_offset) : floe__rs_null(FLOE_T_LONG);
        return 0;
    case DF_CONTENT_SIZE:
        *out = df->has_content_size_in_bytes ? floe__rs_long(df->content_size_in_bytes)
                                             : floe__rs_null(FLOE_T_LONG);
        return 0;
    default: return json_cell(tmp, floe__meta_json_readable_metrics(info, df, tmp), out);
    }
}

static floe_rs_cell seq_cell(int64_t v)
{
    return v == FLOE_SEQ_UNASSIGNED ? floe__rs_null(FLOE_T_LONG) : floe__rs_long(v);
}

static int entry_cell(files_cursor *c, int lc, floe_buf *tmp, floe_rs_cell *out)
{
    const floe_manifest_entry *e = c->e;
    switch (lc) {
    case EN_STATUS: *out = floe__rs_int(e->status); return 0;
    case EN_SNAPSHOT_ID:
        *out = e->has_snapshot_id ? floe__rs_long(e->snapshot_id) : floe__rs_null(FLOE_T_LONG);
        return 0;
    case EN_SEQ: *out = seq_cell(e->sequence_number); return 0;
    case EN_FILE_SEQ: *out = seq_cell(e->file_sequence_number); return 0;
    case EN_DATA_FILE:
        return json_cell(tmp,
                         floe__meta_json_data_file(c->src->info, &e->data_file, spec_id_of(c),
                                                   c->minfo->partition_field_ids,
                                                   c->minfo->npartition_fields, tmp),
                         out);
    default:
        return json_cell(tmp, floe__meta_json_readable_metrics(c->src->info, &e->data_file, tmp),
                         out);
    }
}

static int f_column(floe_rowcursor *base, size_t col, floe_rs_cell *out)
{
    files_cursor *c = (files_cursor *)base;
    if (c->have >> col & 1u) {
        *out = c->cell[col];
        return 0;
    }
    floe_buf *tmp = &c->text[col];
    floe__buf_clear(tmp);
    int lc = c->src->logical[col];
    FLOE_TRY(is_entries(c->src->kind) ? entry_cell(c, lc, tmp, out) : df_cell(c, lc, tmp, out));
    c->cell[col] = *out;
    c->have |= 1u << col;
    return 0;
}

/* ---------------------------------------------------------------- Arrow
 * Nested cells appended straight from the decoded entry (column_arrow),
 * the same values the JSON cells hold. */

/* The partition value of unified field i, or NULL. */
static const floe_value *part_value(const files_cursor *c, size_t i)
{
    const floe_partition_value *pv = &c->e->data_file.partition;
    for (size_t j = 0; j < c->minfo->npartition_fields && j < pv->n; j++)
        if (c->minfo->partition_field_ids[j] == c->src->info->part[i].field_id)
            return &pv->values[j];
    return NULL;
}

/* Can the partition tuple go in as it is (every value of its field's
 * type)? Otherwise its text form converts it. */
static bool part_direct(const files_cursor *c)
{
    for (size_t i = 0; i < c->src->info->npart; i++) {
        const floe_value *v = part_value(c, i);
        if (v && !v->is_null && v->type != c->src->info->part[i].type->id)
            return false;
    }
    return true;
}

static int arrow_partition(const files_cursor *c, floe_arrow_builder *b)
{
    for (size_t i = 0; i < c->src->info->npart; i++)
        FLOE_TRY(floe__arrow_builder_append(b->children[i], part_value(c, i)));
    return floe__arrow_builder_struct_append(b, true);
}

static int arrow_longs(const floe_col_longs *m, floe_arrow_builder *b)
{
    if (!m->set)
        return floe__arrow_builder_append_null(b);
    for (size_t i = 0; i < m->n; i++) {
        floe_value k = floe_value_int(m->items[i].field_id), v = floe_value_long(m->items[i].value);
        FLOE_TRY(floe__arrow_builder_append(b->children[0], &k));
        FLOE_TRY(floe__arrow_builder_append(b->children[1], &v));
    }
    return floe__arrow_builder_list_append(b, true, (int64_t)m->n);
}

static int arrow_bytes_map(const floe_col_bytes_map *m, floe_arrow_builder *b)
{
    if (!m->set)
        return floe__arrow_builder_append_null(b);
    for (size_t i = 0; i < m->n; i++) {
        floe_value k = floe_value_int(m->items[i].field_id),
                   v = floe_value_bytes(FLOE_T_BINARY, m->items[i].ptr, m->items[i].len);
        FLOE_TRY(floe__arrow_builder_append(b->children[0], &k));
        FLOE_TRY(floe__arrow_builder_append(b->children[1], &v));
    }
    return floe__arrow_builder_list_append(b, true, (int64_t)m->n);
}

/* A list of n integers (int64_t when wide, else int32_t), or null. */
static int arrow_ints(bool has, size_t n, const void *vals, bool wide, floe_arrow_builder *b)
{
    if (!has)
        return floe__arrow_builder_append_null(b);
    for (size_t i = 0; i < n; i++) {
        floe_value v = wide ? floe_value_long(((const int64_t *)vals)[i])
                            : floe_value_int(((const int32_t *)vals)[i]);
        FLOE_TRY(floe__arrow_builder_append(b->children[0], &v));
    }
    return floe__arrow_builder_list_append(b, true, (int64_t)n);
}

static const floe_col_long *find_metric(const floe_col_longs *m, int32_t id)
{
    for (size_t i = 0; m->set && i < m->n; i++)
        if (m->items[i].field_id == id)
            return &m->items[i];
    return NULL;
}

/* A bound decoded as its column's type; null when absent or undecodable. */
static int arrow_bound(const floe_col_bytes_map *m, const floe_field *f, floe_arrow_builder *b)
{
    for (size_t i = 0; m->set && i < m->n; i++) {
        if (m->items[i].field_id != f->id)
            continue;
        floe_value v;
        if (floe_value_from_single(f->type, m->items[i].ptr, m->items[i].len, &v) < 0) {
            floe_error_clear();
            break;
        }
        return floe__arrow_builder_append(b, &v);
    }
    return floe__arrow_builder_append_null(b);
}

static int arrow_readable_metrics(const meta_info *info, const floe_data_file *df,
                                  floe_arrow_builder *b)
{
    const floe_col_longs *maps[4] = {&df->column_sizes, &df->value_counts, &df->null_value_counts,
                                     &df->nan_value_counts};
    for (size_t i = 0; i < info->nmetric; i++) {
        const floe_field *f = info->metric[i].field;
        floe_arrow_builder *mb = b->children[i];
        for (int k = 0; k < 4; k++) {
            const floe_col_long *hit = find_metric(maps[k], f->id);
            floe_value v = hit ? floe_value_long(hit->value) : floe_value_null(FLOE_T_LONG);
            FLOE_TRY(floe__arrow_builder_append(mb->children[k], &v));
        }
        FLOE_TRY(arrow_bound(&df->lower_bounds, f, mb->children[4]));
        FLOE_TRY(arrow_bound(&df->upper_bounds, f, mb->children[5]));
        FLOE_TRY(floe__arrow_builder_struct_append(mb, true));
    }
    return floe__arrow_builder_struct_append(b, true);
}

/* Files-table column lc (DF_*) of the current entry into b. */
static int arrow_df(files_cursor *c, int lc, floe_buf *tmp, floe_arrow_builder *b)
{
    const floe_data_file *df = &c->e->data_file;
    switch (lc) {
    case DF_PARTITION: return arrow_partition(c, b);
    case DF_COLUMN_SIZES: return arrow_longs(&df->column_sizes, b);
    case DF_VALUE_COUNTS: return arrow_longs(&df->value_counts, b);
    case DF_NULL_VALUE_COUNTS: return arrow_longs(&df->null_value_counts, b);
    case DF_NAN_VALUE_COUNTS: return arrow_longs(&df->nan_value_counts, b);
    case DF_LOWER_BOUNDS: return arrow_bytes_map(&df->lower_bounds, b);
    case DF_UPPER_BOUNDS: return arrow_bytes_map(&df->upper_bounds, b);
    case DF_SPLIT_OFFSETS:
        return arrow_ints(df->has_split_offsets, df->nsplit_offsets, df->split_offsets, true, b);
    case DF_EQUALITY_IDS:
        return arrow_ints(df->has_equality_ids, df->nequality_ids, df->equality_ids, false, b);
    case DF_READABLE_METRICS: return arrow_readable_metrics(c->src->info, df, b);
    default: {
        floe_rs_cell cell;
        FLOE_TRY(df_cell(c, lc, tmp, &cell));
        return floe__arrow_builder_append(b, &cell.value);
    }
    }
}

static int f_column_arrow(floe_rowcursor *base, size_t col, floe_arrow_builder *b)
{
    files_cursor *c = (files_cursor *)base;
    int lc = c->src->logical[col];
    bool entries = is_entries(c->src->kind);
    if ((entries ? lc == EN_DATA_FILE : lc == DF_PARTITION) && !part_direct(c))
        return 1;
    if (!entries)
        return arrow_df(c, lc, &c->text[col], b);
    if (lc == EN_READABLE_METRICS)
        return arrow_readable_metrics(c->src->info, &c->e->data_file, b);
    /* data_file: its fields are the files-table columns before readable_metrics */
    size_t n = 0;
    for (int i = 0; i < DF_READABLE_METRICS; i++)
        if (i != DF_PARTITION || c->src->info->npart)
            FLOE_TRY(arrow_df(c, i, &c->text[col], b->children[n++]));
    return floe__arrow_builder_struct_append(b, true);
}

static void f_close(floe_rowcursor *base)
{
    files_cursor *c = (files_cursor *)base;
    floe__meta_walker_free(c->w);
    for (size_t i = 0; i < DF_NCOLS; i++)
        floe__buf_free(&c->text[i]);
    floe__free(c);
}

static void f_free(floe_rowsource *rs)
{
    files_source *s = rs->impl;
    floe__meta_info_free(s->info);
    floe__free(s->cols);
    floe__free(s->logical);
    floe__free(s);
}

static const floe_rowsource_ops files_ops = {f_open, f_next, f_column, f_close, f_free};

int floe__meta_open_files(floe_rowsource **out, const floe_meta_options *o, meta_files_kind kind,
                          const char *name)
{
    *out = NULL;
    if (!o->io)
        return floe__error(FLOE_EINVALID, "meta", "metadata table %s needs a FileIO", name);
    files_source *s = floe__calloc(1, sizeof *s);
    if (!s)
        return floe__error_nomem();
    s->kind = kind;
    s->o = *o;
    int rc = floe__meta_info_new(&s->info, o->metadata);
    size_t ncols = 0;
    if (rc == 0) {
        s->cols = floe__calloc(DF_NCOLS, sizeof *s->cols);
        s->logical = floe__calloc(DF_NCOLS, sizeof *s->logical);
        if (!s->cols || !s->logical)
            rc = floe__error_nomem();
    }
    if (rc == 0 && is_entries(kind)) {
        static const char *const names[] = {"status",          "snapshot_id",
                                            "sequence_number", "file_sequence_number",
                                            "data_file",       "readable_metrics"};
        for (int i = 0; i < 6; i++) {
            s->cols[ncols].name = names[i];
            s->cols[ncols].type = i == EN_STATUS             ? &floe__rs_t_int
                                  : i == EN_DATA_FILE        ? s->info->data_file_type
                                  : i == EN_READABLE_METRICS ? s->info->metrics_type
                                                             : &floe__rs_t_long;
            s->cols[ncols].required = i == EN_STATUS || i == EN_DATA_FILE;
            s->cols[ncols].push = i == EN_STATUS ? FLOE_RS_PUSH_EQ : 0;
            s->logical[ncols++] = i;
        }
    } else if (rc == 0) {
        for (int i = 0; i < DF_NCOLS; i++) {
            if (i == DF_PARTITION && s->info->npart == 0)
                continue;
            s->cols[ncols].name = floe__meta_df_names[i];
            s->cols[ncols].type = floe__meta_df_type(s->info, i);
            s->cols[ncols].required = i == DF_FILE_PATH || i == DF_FILE_FORMAT ||
                                      i == DF_RECORD_COUNT || i == DF_FILE_SIZE ||
                                      i == DF_PARTITION;
            s->cols[ncols].push = i == DF_CONTENT ? FLOE_RS_PUSH_EQ : 0;
            s->logical[ncols++] = i;
        }
    }
    if (rc < 0) {
        s->rs.impl = s;
        f_free(&s->rs);
        return rc;
    }
    /* the selected snapshot's summary says how many files it holds */
    const floe_snapshot *snap = floe__meta_selected_snapshot(o);
    static const char *const totals[] = {"total-data-files", "total-delete-files"};
    for (size_t i = 0; snap && i < 2; i++) {
        const char *v = floe__snapshot_summary(snap, totals[i]);
        if (v)
            s->rs.estimated_rows += strtod(v, NULL);
    }
    s->rs.ops = &files_ops;
    s->rs.column_arrow = f_column_arrow;
    s->rs.name = name;
    s->rs.ncolumns = ncols;
    s->rs.columns = s->cols;
    s->rs.impl = s;
    *out = &s->rs;
    return 0;
}
