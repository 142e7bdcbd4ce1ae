/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Manifest lists (spec "Manifest Lists"): one `manifest_file` record per
 * manifest of a snapshot, with partition field summaries and entry counts.
 * Header keys as Iceberg Java writes them: `snapshot-id`,
 * `parent-snapshot-id` (the string "null" when there is none),
 * `sequence-number` (v2), `format-version`, `iceberg.schema`.
 */
#include "gen.h"
#include "plan.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum {
    L_PATH,
    L_LENGTH,
    L_SPEC,
    L_CONTENT,
    L_SEQ,
    L_MINSEQ,
    L_SNAP,
    L_ADDED_FILES,
    L_EXISTING_FILES,
    L_DELETED_FILES,
    L_ADDED_ROWS,
    L_EXISTING_ROWS,
    L_DELETED_ROWS,
    L_PARTITIONS,
    L_KEY_METADATA,
    L_FIRST_ROW_ID,
};
enum { S_CONTAINS_NULL, S_CONTAINS_NAN, S_LOWER, S_UPPER };

static const mf_known list_known[] = {
    {500, "manifest_path", NULL, L_PATH, MF_VK_STRING, true},
    {501, "manifest_length", NULL, L_LENGTH, MF_VK_LONG, true},
    {502, "partition_spec_id", NULL, L_SPEC, MF_VK_INT, true},
    {517, "content", NULL, L_CONTENT, MF_VK_INT, false},
    {515, "sequence_number", NULL, L_SEQ, MF_VK_LONG, false},
    {516, "min_sequence_number", NULL, L_MINSEQ, MF_VK_LONG, false},
    {503, "added_snapshot_id", NULL, L_SNAP, MF_VK_LONG, false},
    {504, "added_files_count", "added_data_files_count", L_ADDED_FILES, MF_VK_INT, false},
    {505, "existing_files_count", "existing_data_files_count", L_EXISTING_FILES, MF_VK_INT, false},
    {506, "deleted_files_count", "deleted_data_files_count", L_DELETED_FILES, MF_VK_INT, false},
    {512, "added_rows_count", NULL, L_ADDED_ROWS, MF_VK_LONG, false},
    {513, "existing_rows_count", NULL, L_EXISTING_ROWS, MF_VK_LONG, false},
    {514, "deleted_rows_count", NULL, L_DELETED_ROWS, MF_VK_LONG, false},
    {507, "partitions", NULL, L_PARTITIONS, MF_VK_SUMMARIES, false},
    {519, "key_metadata", NULL, L_KEY_METADATA, MF_VK_BYTES, false},
    {520, "first_row_id", NULL, L_FIRST_ROW_ID, MF_VK_LONG, false},
};

static const mf_known summary_known[] = {
    {509, "contains_null", NULL, S_CONTAINS_NULL, MF_VK_BOOL, true},
    {518, "contains_nan", NULL, S_CONTAINS_NAN, MF_VK_BOOL, false},
    {510, "lower_bound", NULL, S_LOWER, MF_VK_BYTES, false},
    {511, "upper_bound", NULL, S_UPPER, MF_VK_BYTES, false},
};

static const mf_sub list_subs[] = {
    {L_PARTITIONS, summary_known, FLOE_ARRAY_LEN(summary_known)},
};

floe_manifest_kind floe_manifest_detect(const floe_avro_file *f)
{
    const floe_avro_schema *s = f->schema;
    if (s->kind != FLOE_AVRO_RECORD)
        return FLOE_KIND_OTHER;
    for (size_t i = 0; i < s->nfields; i++) {
        const floe_avro_field *fl = &s->fields[i];
        if (fl->field_id == 500 ||
            (fl->field_id == FLOE_AVRO_NO_ID && strcmp(fl->name, "manifest_path") == 0))
            return FLOE_KIND_MANIFEST_LIST;
        if (fl->field_id == 2 ||
            (fl->field_id == FLOE_AVRO_NO_ID && strcmp(fl->name, "data_file") == 0))
            return FLOE_KIND_MANIFEST;
    }
    return FLOE_KIND_OTHER;
}

void floe_manifest_list_free(floe_manifest_list *l)
{
    if (!l)
        return;
    floe_avro_file_free(l->file);
    floe__arena_free(l->arena);
    floe__free(l);
}

static int read_summary(floe_avro_cursor *c, const mf_record_plan *sp, floe_field_summary *s)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < sp->nfields; i++) {
        const mf_field_plan *f = &sp->fields[i];
        if (f->target < 0) {
            FLOE_TRY(floe_avro_skip(c, f->full, 1));
            continue;
        }
        bool is_null;
        FLOE_TRY(mf_read_null(c, f, &is_null));
        if (is_null)
            continue;
        switch (f->target) {
        case S_CONTAINS_NULL: FLOE_TRY(floe_avro_read_bool(c, &s->contains_null)); break;
        case S_CONTAINS_NAN:
            FLOE_TRY(floe_avro_read_bool(c, &s->contains_nan));
            s->has_contains_nan = true;
            break;
        case S_LOWER:
            FLOE_TRY(floe__mf_read_opt_bytes(c, f->type, NULL, false, &s->lower_bound));
            break;
        case S_UPPER:
            FLOE_TRY(floe__mf_read_opt_bytes(c, f->type, NULL, false, &s->upper_bound));
            break;
        }
    }
    return 0;
}

static int read_int_field(floe_avro_cursor *c, int32_t *out)
{
    return floe_avro_read_int(c, out);
}

static int read_entry(floe_avro_cursor *c, const mf_record_plan *plan, floe_arena *a,
                      floe_manifest_file *m)
{
    memset(m, 0, sizeof *m);
    m->added_snapshot_id = -1;
    m->added_files_count = m->existing_files_count = m->deleted_files_count = -1;
    m->added_rows_count = m->existing_rows_count = m->deleted_rows_count = -1;
    for (size_t i = 0; i < plan->nfields; i++) {
        const mf_field_plan *f = &plan->fields[i];
        if (f->target < 0) {
            FLOE_TRY(floe_avro_skip(c, f->full, 1));
            continue;
        }
        bool is_null;
        FLOE_TRY(mf_read_null(c, f, &is_null));
        if (is_null)
            continue;
        const uint8_t *p;
        size_t n;
        switch (f->target) {
        case L_PATH:
            FLOE_TRY(floe_avro_read_bytes(c, &p, &n));
            if (!(m->manifest_path = floe__arena_strndup(a, (const char *)p, n)))
                return floe__error_nomem();
            break;
        case L_LENGTH: FLOE_TRY(floe_avro_read_long(c, &m->manifest_length)); break;
        case L_SPEC: FLOE_TRY(read_int_field(c, &m->partition_spec_id)); break;
        case L_CONTENT:
            FLOE_TRY(read_int_field(c, &m->content));
            if (m->content != FLOE_MANIFEST_DATA && m->content != FLOE_MANIFEST_DELETES)
                return floe_avro_cursor_error(c, "invalid manifest content %d", (int)m->content);
            break;
        case L_SEQ: FLOE_TRY(floe_avro_read_long(c, &m->sequence_number)); break;
        case L_MINSEQ: FLOE_TRY(floe_avro_read_long(c, &m->min_sequence_number)); break;
        case L_SNAP: FLOE_TRY(floe_avro_read_long(c, &m->added_snapshot_id)); break;
        case L_ADDED_FILES: FLOE_TRY(read_int_field(c, &m->added_files_count)); break;
        case L_EXISTING_FILES: FLOE_TRY(read_int_field(c, &m->existing_files_count)); break;
        case L_DELETED_FILES: FLOE_TRY(read_int_field(c, &m->deleted_files_count)); break;
        case L_ADDED_ROWS: FLOE_TRY(floe_avro_read_long(c, &m->added_rows_count)); break;
        case L_EXISTING_ROWS: FLOE_TRY(floe_avro_read_long(c, &m->existing_rows_count)); break;
        case L_DELETED_ROWS: FLOE_TRY(floe_avro_read_long(c, &m->deleted_rows_count)); break;
        case L_KEY_METADATA:
            FLOE_TRY(floe__mf_read_opt_bytes(c, f->type, NULL, false, &m->key_metadata));
            break;
        case L_FIRST_ROW_ID:
            FLOE_TRY(floe_avro_read_long(c, &m->first_row_id));
            m->has_first_row_id = true;
            break;
        case L_PARTITIONS: {
            floe_field_summary *items = NULL;
            size_t have = 0;
            m->has_partitions = true;
            size_t min = floe_avro_min_size(f->type->items);
            for (;;) {
                int64_t cnt;
                FLOE_TRY(floe_avro_read_block_count(c, min ? min : 1, &cnt));
                if (cnt == 0)
                    break;
                floe_field_summary *grown =
                    floe__arena_alloc(a, (have + (size_t)cnt) * sizeof *grown);
                if (!grown)
                    return floe__error_nomem();
                if (have)
                    memcpy(grown, items, have * sizeof *items);
                items = grown;
                for (int64_t k = 0; k < cnt; k++)
                    FLOE_TRY(read_summary(c, f->sub, &items[have++]));
            }
            m->npartitions = have;
            m->partitions = items;
            break;
        }
        }
    }
    return 0;
}

static int list_read(floe_manifest_list *l, const char *source)
{
    floe_avro_file *f = l->file;
    mf_record_plan plan;
    FLOE_TRY(floe__mf_plan_record(&plan, l->arena, f->schema, list_known,
                                  FLOE_ARRAY_LEN(list_known), list_subs, FLOE_ARRAY_LEN(list_subs),
                                  source, "manifest_file"));
    bool has_content = false, has_first_row = false;
    for (size_t i = 0; i < plan.nfields; i++) {
        has_content |= plan.fields[i].target == L_CONTENT;
        has_first_row |= plan.fields[i].target == L_FIRST_ROW_ID;
    }
    int64_t v;
    if (floe__mf_meta_int64(f, "format-version", &v)) {
        if (v < 1 || v > 3)
            return floe__error(FLOE_ECORRUPT, "manifest", "unsupported format-version %lld in %s",
                               (long long)v, source);
        l->format_version = (int)v;
    } else {
        l->format_version = has_first_row ? 3 : has_content ? 2 : 1;
    }
    l->has_snapshot_id = floe__mf_meta_int64(f, "snapshot-id", &l->snapshot_id);
    l->has_parent_snapshot_id =
        floe__mf_meta_int64(f, "parent-snapshot-id", &l->parent_snapshot_id);
    l->has_sequence_number = floe__mf_meta_int64(f, "sequence-number", &l->sequence_number);

    size_t cap = 0;
    floe_avro_cursor c;
    int64_t count;
    int rc;
    while ((rc = floe_avro_file_next_block(f, &c, &count)) == 0) {
        if (l->nentries + (size_t)count > cap) {
            size_t ncap = l->nentries + (size_t)count;
            if (ncap < cap * 2)
                ncap = cap * 2;
            floe_manifest_file *e = floe__arena_alloc(l->arena, ncap * sizeof *e);
            if (!e)
                return floe__error_nomem();
            if (l->nentries)
                memcpy(e, l->entries, l->nentries * sizeof *e);
            l->entries = e;
            cap = ncap;
        }
        for (int64_t i = 0; i < count; i++) {
            floe_manifest_file *m = &l->entries[l->nentries];
            FLOE_TRY(read_entry(&c, &plan, l->arena, m));
            if (l->format_version == 1) {
                /* v1 has no sequence numbers or delete manifests: all 0 / data */
                m->sequence_number = m->min_sequence_number = 0;
                m->content = FLOE_MANIFEST_DATA;
            }
            /* summaries borrowed from a decompressed block must be kept */
            if (f->codec != FLOE_AVRO_CODEC_NULL) {
                floe_field_summary *s = (floe_field_summary *)m->partitions;
                for (size_t k = 0; k < m->npartitions; k++) {
                    floe_opt_bytes *bs[2] = {&s[k].lower_bound, &s[k].upper_bound};
                    for (int j = 0; j < 2; j++)
                        if (bs[j]->set && !(bs[j]->ptr = floe__arena_memdup(
                                                l->arena, bs[j]->ptr, bs[j]->len ? bs[j]->len : 1)))
                            return floe__error_nomem();
                }
                if (m->key_metadata.set && !(m->key_metadata.ptr = floe__arena_memdup(
                                                 l->arena, m->key_metadata.ptr,
                                                 m->key_metadata.len ? m->key_metadata.len : 1)))
                    return floe__error_nomem();
            }
            l->nentries++;
        }
        if (c.p != c.end)
            return floe_avro_cursor_error(&c, "%lld trailing bytes after the block's objects",
                                          (long long)(c.end - c.p));
    }
    return rc == FLOE_ITEROVER ? 0 : rc;
}

int floe_manifest_list_read(floe_manifest_list **out, const uint8_t *data, size_t len,
                            const char *source)
{
    *out = NULL;
    floe_manifest_list *l = floe__calloc(1, sizeof *l);
    if (!l)
        return floe__error_nomem();
    int rc;
    if (!(l->arena = floe__arena_new(16384))) {
        rc = floe__error_nomem();
        goto fail;
    }
    if ((rc = floe_avro_file_open(&l->file, data, len, source)) < 0)
        goto fail;
    if ((rc = list_read(l, l->file->source)) < 0)
        goto fail;
    *out = l;
    return 0;
fail:
    floe_manifest_list_free(l);
    return rc;
}

/* ---------------------------------------------------------------- writer */

static const gen_field summary_fields[] = {
    {509, "contains_null", "True if any file has a null partition value", false, G_BOOL, 0, 0, NULL,
     NULL, 0},
    {518, "contains_nan", "True if any file has a nan partition value", true, G_BOOL, 0, 0, NULL,
     NULL, 0},
    {510, "lower_bound", "Partition lower bound for all files", true, G_BYTES, 0, 0, NULL, NULL, 0},
    {511, "upper_bound", "Partition upper bound for all files", true, G_BYTES, 0, 0, NULL, NULL, 0},
};

#define F(id, name, doc, opt, kind)                                                                \
    {                                                                                              \
        id, name, doc, opt, kind, 0, 0, NULL, NULL, 0                                              \
    }
#define PARTITIONS                                                                                 \
    {                                                                                              \
        507, "partitions", "Summary for each partition", true, G_SUMMARIES, 508, 0, "r508",        \
            summary_fields, FLOE_ARRAY_LEN(summary_fields)                                         \
    }

/* The v2 fields; v3 adds first_row_id (520). */
#define LIST_V2_FIELDS                                                                             \
    F(500, "manifest_path", "Location URI with FS scheme", false, G_STRING),                       \
        F(501, "manifest_length", "Total file size in bytes", false, G_LONG),                      \
        F(502, "partition_spec_id", "Spec ID used to write", false, G_INT),                        \
        F(517, "content", "Contents of the manifest: 0=data, 1=deletes", false, G_INT),            \
        F(515, "sequence_number", "Sequence number when the manifest was added", false, G_LONG),   \
        F(516, "min_sequence_number", "Lowest sequence number in the manifest", false, G_LONG),    \
        F(503, "added_snapshot_id", "Snapshot ID that added the manifest", false, G_LONG),         \
        F(504, "added_files_count", "Added entry count", false, G_INT),                            \
        F(505, "existing_files_count", "Existing entry count", false, G_INT),                      \
        F(506, "deleted_files_count", "Deleted entry count", false, G_INT),                        \
        F(512, "added_rows_count", "Added rows count", false, G_LONG),                             \
        F(513, "existing_rows_count", "Existing rows count", false, G_LONG),                       \
        F(514, "deleted_rows_count", "Deleted rows count", false, G_LONG), PARTITIONS,             \
        F(519, "key_metadata", "Encryption key metadata blob", true, G_BYTES)

static const gen_field list_v2[] = {LIST_V2_FIELDS};

static const gen_field list_v3[] = {
    LIST_V2_FIELDS,
    F(520, "first_row_id", "Starting row ID to assign to new rows in ADDED data files", true,
      G_LONG),
};

static const gen_field list_v1[] = {
    F(500, "manifest_path", "Location URI with FS scheme", false, G_STRING),
    F(501, "manifest_length", "Total file size in bytes", false, G_LONG),
    F(502, "partition_spec_id", "Spec ID used to write", false, G_INT),
    F(503, "added_snapshot_id", "Snapshot ID that added the manifest", true, G_LONG),
    F(504, "added_files_count", "Added entry count", true, G_INT),
    F(505, "existing_files_count", "Existing entry count", true, G_INT),
    F(506, "deleted_files_count", "Deleted entry count", true, G_INT),
    PARTITIONS,
    F(512, "added_rows_count", "Added rows count", true, G_LONG),
    F(513, "existing_rows_count", "Existing rows count", true, G_LONG),
    F(514, "deleted_rows_count", "Deleted rows count", true, G_LONG),
    F(519, "key_metadata", "Encryption key metadata blob", true, G_BYTES),
};

struct floe_manifest_list_writer {
    floe_manifest_list_writer_options o;
    floe_avro_writer *avro;
    int64_t next_row_id; /* v3: the next first_row_id to assign */
};

int64_t floe_manifest_list_writer_next_row_id(const floe_manifest_list_writer *w)
{
    return w->next_row_id;
}

void floe_manifest_list_writer_free(floe_manifest_list_writer *w)
{
    if (!w)
        return;
    floe_avro_writer_free(w->avro);
    floe__free(w);
}

int floe_manifest_list_writer_new(floe_manifest_list_writer **out,
                                  const floe_manifest_list_writer_options *opts, floe_buf *dst)
{
    *out = NULL;
    if (opts->format_version < 1 || opts->format_version > 3)
        return floe__error(FLOE_EINVALID, "manifest",
                           "cannot write a format v%d manifest list (only 1, 2 and 3)",
                           opts->format_version);
    const gen_field *fields = opts->format_version == 1   ? list_v1
                              : opts->format_version == 2 ? list_v2
                                                          : list_v3;
    size_t n = opts->format_version == 1   ? FLOE_ARRAY_LEN(list_v1)
               : opts->format_version == 2 ? FLOE_ARRAY_LEN(list_v2)
                                           : FLOE_ARRAY_LEN(list_v3);
    gen_ctx ctx = {0, NULL};
    floe_buf avro = FLOE_BUF_INIT, ice = FLOE_BUF_INIT;
    char snap[32], parent[32], seq[32], fv[8], first[32];
    snprintf(first, sizeof first, "%" PRId64, opts->first_row_id);
    snprintf(snap, sizeof snap, "%" PRId64, opts->snapshot_id);
    if (opts->has_parent_snapshot_id)
        snprintf(parent, sizeof parent, "%" PRId64, opts->parent_snapshot_id);
    else
        snprintf(parent, sizeof parent, "null");
    snprintf(seq, sizeof seq, "%" PRId64, opts->sequence_number);
    snprintf(fv, sizeof fv, "%d", opts->format_version);
    floe_manifest_list_writer *w = NULL;
    int rc;
    if ((rc = floe__gen_avro_record(&avro, &ctx, "manifest_file", fields, n)) < 0 ||
        (rc = floe__gen_iceberg_struct(&ice, &ctx, fields, n, true)) < 0)
        goto done;
    floe_kv meta[6];
    size_t nmeta = 0;
    meta[nmeta++] = (floe_kv){(char *)"snapshot-id", snap};
    meta[nmeta++] = (floe_kv){(char *)"parent-snapshot-id", parent};
    if (opts->format_version >= 2)
        meta[nmeta++] = (floe_kv){(char *)"sequence-number", seq};
    if (opts->format_version >= 3)
        meta[nmeta++] = (floe_kv){(char *)"first-row-id", first};
    meta[nmeta++] = (floe_kv){(char *)"format-version", fv};
    meta[nmeta++] = (floe_kv){(char *)"iceberg.schema", ice.ptr};
    if (!(w = floe__calloc(1, sizeof *w))) {
        rc = floe__error_nomem();
        goto done;
    }
    w->o = *opts;
    w->next_row_id = opts->first_row_id;
    if ((rc = floe_avro_writer_new(&w->avro, dst, avro.ptr, opts->codec, opts->compression_level,
                                   meta, nmeta)) < 0)
        goto done;
    *out = w;
    w = NULL;
done:
    floe_manifest_list_writer_free(w);
    floe__buf_free(&avro);
    floe__buf_free(&ice);
    return rc;
}

static int put_opt_long(floe_buf *b, bool v1_optional, int64_t v)
{
    if (v1_optional) {
        if (v < 0)
            return floe_avro_put_long(b, 0);
        FLOE_TRY(floe_avro_put_long(b, 1));
    }
    return floe_avro_put_long(b, v);
}

static int put_summaries(floe_buf *b, const floe_manifest_file *mf)
{
    if (!mf->has_partitions)
        return floe_avro_put_long(b, 0);
    FLOE_TRY(floe_avro_put_long(b, 1));
    if (mf->npartitions) {
        FLOE_TRY(floe_avro_put_long(b, (int64_t)mf->npartitions));
        for (size_t i = 0; i < mf->npartitions; i++) {
            const floe_field_summary *s = &mf->partitions[i];
            FLOE_TRY(floe_avro_put_bool(b, s->contains_null));
            if (s->has_contains_nan) {
                FLOE_TRY(floe_avro_put_long(b, 1));
                FLOE_TRY(floe_avro_put_bool(b, s->contains_nan));
            } else {
                FLOE_TRY(floe_avro_put_long(b, 0));
            }
            const floe_opt_bytes *bs[2] = {&s->lower_bound, &s->upper_bound};
            for (int j = 0; j < 2; j++) {
                if (bs[j]->set) {
                    FLOE_TRY(floe_avro_put_long(b, 1));
                    FLOE_TRY(floe_avro_put_bytes(b, bs[j]->ptr, bs[j]->len));
                } else {
                    FLOE_TRY(floe_avro_put_long(b, 0));
                }
            }
        }
    }
    return floe_avro_put_long(b, 0);
}

int floe_manifest_list_writer_add(floe_manifest_list_writer *w, const floe_manifest_file *mf)
{
    if (!mf->manifest_path)
        return floe__error(FLOE_EINVALID, "manifest", "manifest list entry without a path");
    floe_buf *b = floe_avro_writer_buf(w->avro);
    size_t mark = b->len;
    int rc;
    bool v1 = w->o.format_version == 1;
#define T(x)                                                                                       \
    if ((rc = (x)) < 0)                                                                            \
    goto fail
    T(floe_avro_put_string(b, mf->manifest_path));
    T(floe_avro_put_long(b, mf->manifest_length));
    T(floe_avro_put_int(b, mf->partition_spec_id));
    if (!v1) {
        if (mf->added_snapshot_id < 0) {
            rc = floe__error(FLOE_EINVALID, "manifest", "manifest %s has no added_snapshot_id",
                             mf->manifest_path);
            goto fail;
        }
        int64_t seq =
            mf->sequence_number == FLOE_SEQ_UNASSIGNED ? w->o.sequence_number : mf->sequence_number;
        int64_t minseq = mf->min_sequence_number == FLOE_SEQ_UNASSIGNED ? w->o.sequence_number
                                                                        : mf->min_sequence_number;
        T(floe_avro_put_int(b, mf->content));
        T(floe_avro_put_long(b, seq));
        T(floe_avro_put_long(b, minseq));
        T(floe_avro_put_long(b, mf->added_snapshot_id));
        T(floe_avro_put_int(b, mf->added_files_count < 0 ? 0 : mf->added_files_count));
        T(floe_avro_put_int(b, mf->existing_files_count < 0 ? 0 : mf->existing_files_count));
        T(floe_avro_put_int(b, mf->deleted_files_count < 0 ? 0 : mf->deleted_files_count));
        T(floe_avro_put_long(b, mf->added_rows_count < 0 ? 0 : mf->added_rows_count));
        T(floe_avro_put_long(b, mf->existing_rows_count < 0 ? 0 : mf->existing_rows_count));
        T(floe_avro_put_long(b, mf->deleted_rows_count < 0 ? 0 : mf->deleted_rows_count));
        T(put_summaries(b, mf));
    } else {
        if (mf->content != FLOE_MANIFEST_DATA) {
            rc = floe__error(FLOE_EINVALID, "manifest", "format v1 has no delete manifests");
            goto fail;
        }
        T(put_opt_long(b, true, mf->added_snapshot_id));
        T(put_opt_long(b, true, mf->added_files_count));
        T(put_opt_long(b, true, mf->existing_files_count));
        T(put_opt_long(b, true, mf->deleted_files_count));
        T(put_summaries(b, mf));
        T(put_opt_long(b, true, mf->added_rows_count));
        T(put_opt_long(b, true, mf->existing_rows_count));
        T(put_opt_long(b, true, mf->deleted_rows_count));
    }
    if (mf->key_metadata.set) {
        T(floe_avro_put_long(b, 1));
        T(floe_avro_put_bytes(b, mf->key_metadata.ptr, mf->key_metadata.len));
    } else {
        T(floe_avro_put_long(b, 0));
    }
    int64_t next = w->next_row_id;
    if (w->o.format_version >= 3) {
        /* Java's ManifestListWriter.V3Writer: a data manifest without a
         * first_row_id gets the next one and room for its added and existing
         * rows (existing files from before v3 may have no row ids yet) */
        bool assign = mf->content == FLOE_MANIFEST_DATA && !mf->has_first_row_id;
        bool has = mf->content == FLOE_MANIFEST_DATA && (mf->has_first_row_id || assign);
        T(floe_avro_put_long(b, has ? 1 : 0));
        if (has)
            T(floe_avro_put_long(b, assign ? next : mf->first_row_id));
        if (assign)
            next += (mf->added_rows_count > 0 ? mf->added_rows_count : 0) +
                    (mf->existing_rows_count > 0 ? mf->existing_rows_count : 0);
    }
#undef T
    rc = floe_avro_writer_commit(w->avro);
    if (rc == 0)
        w->next_row_id = next;
    return rc;
fail:
    b->len = mark; /* drop the partial object */
    return rc;
}

int floe_manifest_list_writer_finish(floe_manifest_list_writer *w)
{
    return floe_avro_writer_finish(w->avro);
}
