/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Manifest reader (spec "Manifests", "Manifest Entry Fields", "Sequence
 * Number Inheritance"). Streams `manifest_entry` records block by block:
 * strings and arrays go to an arena that is reset at each block (so memory
 * stays bounded however many entries a manifest has), bounds and other
 * bytes are borrowed from the block. Partition tuples are typed from the
 * writer's Avro schema of data_file.partition (logical types included).
 *
 * Inheritance on read: in v1 every sequence number is 0; in v2+ an ADDED
 * entry with a null data or file sequence number inherits the manifest's
 * sequence_number from its manifest-list entry, and a null snapshot_id
 * inherits the list entry's added_snapshot_id. A v3 data manifest's
 * first_row_id goes to its live files without one, in order, each taking
 * record_count ids (row lineage, as Java's ManifestReader).
 */
#include "plan.h"

#include "spec/value.h"

#include <string.h>

enum { E_STATUS, E_SNAPSHOT_ID, E_SEQ, E_FILE_SEQ, E_DATA_FILE };
enum {
    D_CONTENT,
    D_PATH,
    D_FORMAT,
    D_PARTITION,
    D_RECORD_COUNT,
    D_FILE_SIZE,
    D_BLOCK_SIZE,
    D_COLUMN_SIZES,
    D_VALUE_COUNTS,
    D_NULL_COUNTS,
    D_NAN_COUNTS,
    D_LOWER,
    D_UPPER,
    D_KEY_METADATA,
    D_SPLIT_OFFSETS,
    D_EQUALITY_IDS,
    D_SORT_ORDER_ID,
    D_FIRST_ROW_ID,
    D_REFERENCED,
    D_CONTENT_OFFSET,
    D_CONTENT_SIZE,
};

static const mf_known entry_known[] = {
    {0, "status", NULL, E_STATUS, MF_VK_INT, true},
    {1, "snapshot_id", NULL, E_SNAPSHOT_ID, MF_VK_LONG, false},
    {3, "sequence_number", NULL, E_SEQ, MF_VK_LONG, false},
    {4, "file_sequence_number", NULL, E_FILE_SEQ, MF_VK_LONG, false},
    {2, "data_file", NULL, E_DATA_FILE, MF_VK_RECORD, true},
};

static const mf_known data_file_known[] = {
    {134, "content", NULL, D_CONTENT, MF_VK_INT, false},
    {100, "file_path", NULL, D_PATH, MF_VK_STRING, true},
    {101, "file_format", NULL, D_FORMAT, MF_VK_STRING, true},
    {102, "partition", NULL, D_PARTITION, MF_VK_PARTITION, false},
    {103, "record_count", NULL, D_RECORD_COUNT, MF_VK_LONG, true},
    {104, "file_size_in_bytes", NULL, D_FILE_SIZE, MF_VK_LONG, true},
    {105, "block_size_in_bytes", NULL, D_BLOCK_SIZE, MF_VK_LONG, false},
    {108, "column_sizes", NULL, D_COLUMN_SIZES, MF_VK_LONGMAP, false},
    {109, "value_counts", NULL, D_VALUE_COUNTS, MF_VK_LONGMAP, false},
    {110, "null_value_counts", NULL, D_NULL_COUNTS, MF_VK_LONGMAP, false},
    {137, "nan_value_counts", NULL, D_NAN_COUNTS, MF_VK_LONGMAP, false},
    {125, "lower_bounds", NULL, D_LOWER, MF_VK_BYTESMAP, false},
    {128, "upper_bounds", NULL, D_UPPER, MF_VK_BYTESMAP, false},
    {131, "key_metadata", NULL, D_KEY_METADATA, MF_VK_BYTES, false},
    {132, "split_offsets", NULL, D_SPLIT_OFFSETS, MF_VK_LONGLIST, false},
    {135, "equality_ids", NULL, D_EQUALITY_IDS, MF_VK_INTLIST, false},
    {140, "sort_order_id", NULL, D_SORT_ORDER_ID, MF_VK_INT, false},
    {142, "first_row_id", NULL, D_FIRST_ROW_ID, MF_VK_LONG, false},
    {143, "referenced_data_file", NULL, D_REFERENCED, MF_VK_STRING, false},
    {144, "content_offset", NULL, D_CONTENT_OFFSET, MF_VK_LONG, false},
    {145, "content_size_in_bytes", NULL, D_CONTENT_SIZE, MF_VK_LONG, false},
};

static const mf_sub entry_subs[] = {
    {E_DATA_FILE, data_file_known, FLOE_ARRAY_LEN(data_file_known)},
};

typedef struct part_plan {
    int null_index;
    const floe_avro_schema *full;
    const floe_avro_schema *type;
    floe_type_id tid;
} part_plan;

struct floe_manifest_reader {
    floe_avro_file *file;
    floe_arena *meta;  /* plan, info: lives as long as the reader */
    floe_arena *arena; /* entries: reset per block unless keep */
    bool keep;
    floe_manifest_info info;
    mf_record_plan plan;
    const mf_record_plan *df_plan;
    size_t npart;
    part_plan *part;
    /* inheritance */
    bool inherit;
    int64_t inherit_seq;
    int64_t inherit_snapshot_id;
    /* v3 row lineage: a committed data manifest's first_row_id is handed
     * out to its live files without one (Java's ManifestReader.idAssigner) */
    bool assign_row_ids, clear_row_ids;
    int64_t next_row_id;
    /* lazy_metrics: the metrics fields' plans (D_COLUMN_SIZES .. D_UPPER;
     * NULL when the writer's schema lacks one) and where each starts in the
     * current entry; `pending` until floe_manifest_reader_metrics() */
    bool lazy, pending;
    const mf_field_plan *mfield[D_UPPER - D_COLUMN_SIZES + 1];
    const uint8_t *mpos[D_UPPER - D_COLUMN_SIZES + 1];
    /* streaming */
    floe_avro_cursor cur;
    int64_t left; /* objects left in the current block */
    bool in_block;
    floe_manifest_entry entry;
};

void floe_manifest_reader_free(floe_manifest_reader *r)
{
    if (!r)
        return;
    floe_avro_file_free(r->file);
    floe__arena_free(r->arena);
    floe__arena_free(r->meta);
    floe__free(r);
}

const floe_manifest_info *floe_manifest_reader_info(const floe_manifest_reader *r)
{
    return &r->info;
}

size_t floe_manifest_reader_memory(const floe_manifest_reader *r)
{
    return floe__arena_bytes(r->arena) + r->file->block.cap;
}

floe_avro_file *floe_manifest_reader_file(floe_manifest_reader *r)
{
    return r->file;
}

static int plan_partition(floe_manifest_reader *r, const floe_avro_schema *rec)
{
    size_t n = rec->nfields;
    r->npart = n;
    if (!n)
        return 0;
    r->part = floe__arena_calloc(r->meta, n, sizeof *r->part);
    int32_t *ids = floe__arena_calloc(r->meta, n, sizeof *ids);
    const char **names = floe__arena_calloc(r->meta, n, sizeof *names);
    floe_type *types = floe__arena_calloc(r->meta, n, sizeof *types);
    if (!r->part || !ids || !names || !types)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const floe_avro_field *f = &rec->fields[i];
        part_plan *p = &r->part[i];
        p->full = f->type;
        p->type = floe_avro_unwrap_optional(f->type, &p->null_index);
        p->tid = floe__mf_avro_to_type(p->type);
        if (p->tid == FLOE_T_INVALID)
            return floe__error(FLOE_ECORRUPT, "manifest",
                               "schema/metadata mismatch in %s: partition field %s has "
                               "unsupported Avro type %s",
                               r->file->source, f->name, floe_avro_kind_name(p->type->kind));
        ids[i] = f->field_id;
        names[i] = f->name;
        types[i].id = p->tid;
        if (p->tid == FLOE_T_DECIMAL) {
            types[i].precision = p->type->precision;
            types[i].scale = p->type->scale;
        } else if (p->tid == FLOE_T_FIXED) {
            types[i].length = (int32_t)p->type->size;
        }
    }
    r->info.npartition_fields = n;
    r->info.partition_field_ids = ids;
    r->info.partition_field_names = names;
    r->info.partition_types = types;
    return 0;
}

static int setup(floe_manifest_reader *r, const floe_manifest_read_options *opts)
{
    floe_avro_file *f = r->file;
    const char *src = f->source;
    FLOE_TRY(floe__mf_plan_record(&r->plan, r->meta, f->schema, entry_known,
                                  FLOE_ARRAY_LEN(entry_known), entry_subs,
                                  FLOE_ARRAY_LEN(entry_subs), src, "manifest_entry"));
    bool has_content = false, has_seq = false, has_v3 = false;
    for (size_t i = 0; i < r->plan.nfields; i++) {
        const mf_field_plan *p = &r->plan.fields[i];
        has_seq |= p->target == E_SEQ;
        if (p->target == E_DATA_FILE) {
            r->df_plan = p->sub;
            for (size_t k = 0; k < p->sub->nfields; k++) {
                const mf_field_plan *q = &p->sub->fields[k];
                has_content |= q->target == D_CONTENT;
                has_v3 |= q->target == D_FIRST_ROW_ID;
                if (q->target >= D_COLUMN_SIZES && q->target <= D_UPPER)
                    r->mfield[q->target - D_COLUMN_SIZES] = q;
                if (q->target == D_PARTITION)
                    FLOE_TRY(plan_partition(r, q->type));
            }
        }
    }
    int64_t v;
    if (floe__mf_meta_int64(f, "format-version", &v)) {
        if (v < 1 || v > 3)
            return floe__error(FLOE_ECORRUPT, "manifest", "unsupported format-version %lld in %s",
                               (long long)v, src);
        r->info.format_version = (int)v;
    } else {
        r->info.format_version = has_v3 ? 3 : (has_content || has_seq) ? 2 : 1;
    }
    size_t clen;
    const uint8_t *content = floe_avro_file_meta(f, "content", &clen);
    r->info.content = FLOE_MANIFEST_DATA;
    if (content) {
        if (clen == 7 && memcmp(content, "deletes", 7) == 0)
            r->info.content = FLOE_MANIFEST_DELETES;
        else if (!(clen == 4 && memcmp(content, "data", 4) == 0))
            return floe__error(FLOE_ECORRUPT, "manifest", "invalid content '%.*s' in %s",
                               (int)(clen > 32 ? 32 : clen), (const char *)content, src);
    } else if (opts && opts->manifest) {
        r->info.content = opts->manifest->content;
    }
    r->info.partition_spec_id = 0;
    if (floe__mf_meta_int64(f, "partition-spec-id", &v))
        r->info.partition_spec_id = (int32_t)v;
    else if (opts && opts->manifest)
        r->info.partition_spec_id = opts->manifest->partition_spec_id;
    r->info.schema_json = floe_avro_file_meta_str(f, "schema");
    if (!r->info.schema_json && floe_avro_file_meta(f, "schema", NULL))
        return FLOE_ENOMEM;
    r->info.partition_spec_json = floe_avro_file_meta_str(f, "partition-spec");
    if (!r->info.partition_spec_json && floe_avro_file_meta(f, "partition-spec", NULL))
        return FLOE_ENOMEM;
    if (opts && opts->manifest) {
        r->inherit = true;
        r->inherit_seq = opts->manifest->sequence_number;
        r->inherit_snapshot_id = opts->manifest->added_snapshot_id;
        if (opts->manifest->has_first_row_id && opts->manifest->content == FLOE_MANIFEST_DATA) {
            r->assign_row_ids = true;
            r->next_row_id = opts->manifest->first_row_id;
        } else {
            r->clear_row_ids = true; /* a committed manifest without one (pre-v3) */
        }
    }
    return 0;
}

int floe_manifest_reader_open(floe_manifest_reader **out, const uint8_t *data, size_t len,
                              const char *source, const floe_manifest_read_options *opts)
{
    *out = NULL;
    floe_manifest_reader *r = floe__calloc(1, sizeof *r);
    if (!r)
        return floe__error_nomem();
    int rc;
    r->keep = opts && opts->keep_entries;
    r->entry.sequence_number = r->entry.file_sequence_number = FLOE_SEQ_UNASSIGNED;
    r->entry.data_file.block_size_in_bytes = -1;
    if (!(r->meta = floe__arena_new(4096)) || !(r->arena = floe__arena_new((size_t)64 * 1024))) {
        rc = floe__error_nomem();
        goto fail;
    }
    if ((rc = floe_avro_file_open(&r->file, data, len, source)) < 0)
        goto fail;
    if ((rc = setup(r, opts)) < 0)
        goto fail;
    *out = r;
    return 0;
fail:
    floe_manifest_reader_free(r);
    return rc;
}

static int read_partition(floe_manifest_reader *r, floe_avro_cursor *c, floe_data_file *df)
{
    floe_value *vals = r->npart ? floe__arena_alloc(r->arena, r->npart * sizeof *vals) : NULL;
    if (r->npart && !vals)
        return floe__error_nomem();
    floe_arena *copy = r->keep ? r->arena : NULL;
    for (size_t i = 0; i < r->npart; i++) {
        const part_plan *p = &r->part[i];
        if (p->null_index >= 0) {
            int64_t b;
            FLOE_TRY(floe_avro_read_long(c, &b));
            if (b != 0 && b != 1)
                return floe_avro_cursor_error(c, "union branch %lld out of range", (long long)b);
            if (b == p->null_index) {
                vals[i] = (floe_value){.type = p->tid, .is_null = true};
                continue;
            }
        }
        /* int-like results (identity ints, dates, buckets, years/months/days,
         * hours, timestamps) are most partition values: decode them inline */
        if (p->type->kind == FLOE_AVRO_INT) {
            vals[i] = (floe_value){.type = p->tid};
            FLOE_TRY(floe_avro_read_int(c, &vals[i].v.i32));
            continue;
        }
        if (p->type->kind == FLOE_AVRO_LONG) {
            vals[i] = (floe_value){.type = p->tid};
            FLOE_TRY(floe_avro_read_long(c, &vals[i].v.i64));
            continue;
        }
        FLOE_TRY(floe__mf_read_value(c, p->type, p->tid, copy, &vals[i]));
    }
    df->partition.n = r->npart;
    df->partition.values = vals;
    return 0;
}

static int read_string(floe_manifest_reader *r, floe_avro_cursor *c, const char **out)
{
    const uint8_t *p;
    size_t n;
    FLOE_TRY(floe_avro_read_bytes(c, &p, &n));
    if (!(*out = floe__arena_strndup(r->arena, (const char *)p, n)))
        return floe__error_nomem();
    return 0;
}

/* The entry struct is reused from entry to entry and not cleared (clearing
 * ~400 bytes per entry was a measurable share of decoding): a field that
 * is null in this entry gets its default here; a field absent from the
 * writer's schema keeps the default set once at open. */
static void reset_df_field(floe_data_file *df, int target)
{
    switch (target) {
    case D_CONTENT: df->content = 0; break;
    case D_PATH: df->file_path = NULL; break;
    case D_FORMAT: df->file_format = NULL; break;
    case D_PARTITION:
        df->partition.n = 0;
        df->partition.values = NULL;
        break;
    case D_RECORD_COUNT: df->record_count = 0; break;
    case D_FILE_SIZE: df->file_size_in_bytes = 0; break;
    case D_BLOCK_SIZE: df->block_size_in_bytes = -1; break;
    case D_KEY_METADATA: df->key_metadata = (floe_opt_bytes){NULL, 0, false}; break;
    case D_SPLIT_OFFSETS:
        df->has_split_offsets = false;
        df->nsplit_offsets = 0;
        df->split_offsets = NULL;
        break;
    case D_EQUALITY_IDS:
        df->has_equality_ids = false;
        df->nequality_ids = 0;
        df->equality_ids = NULL;
        break;
    case D_SORT_ORDER_ID:
        df->has_sort_order_id = false;
        df->sort_order_id = 0;
        break;
    case D_FIRST_ROW_ID:
        df->has_first_row_id = false;
        df->first_row_id = 0;
        break;
    case D_REFERENCED: df->referenced_data_file = NULL; break;
    case D_CONTENT_OFFSET:
        df->has_content_offset = false;
        df->content_offset = 0;
        break;
    case D_CONTENT_SIZE:
        df->has_content_size_in_bytes = false;
        df->content_size_in_bytes = 0;
        break;
    default: break; /* metrics maps clear themselves */
    }
}

static void reset_data_file(floe_data_file *df)
{
    *df = (floe_data_file){.block_size_in_bytes = -1};
}

/* The metrics map of target D_COLUMN_SIZES .. D_NAN_COUNTS, D_LOWER or D_UPPER. */
static floe_col_longs *longs_of(floe_data_file *df, int target)
{
    switch (target) {
    case D_COLUMN_SIZES: return &df->column_sizes;
    case D_VALUE_COUNTS: return &df->value_counts;
    case D_NULL_COUNTS: return &df->null_value_counts;
    default: return &df->nan_value_counts;
    }
}

static floe_col_bytes_map *bytes_of(floe_data_file *df, int target)
{
    return target == D_LOWER ? &df->lower_bounds : &df->upper_bounds;
}

static int read_data_file(floe_manifest_reader *r, floe_avro_cursor *c, floe_data_file *df)
{
    const mf_record_plan *plan = r->df_plan;
    floe_arena *a = r->arena;
    for (size_t i = 0; i < plan->nfields; i++) {
        const mf_field_plan *f = &plan->fields[i];
        if (f->target < 0) {
            FLOE_TRY(floe_avro_skip(c, f->full, 2));
            continue;
        }
        bool is_null;
        if (r->lazy && f->target >= D_COLUMN_SIZES && f->target <= D_UPPER) {
            r->mpos[f->target - D_COLUMN_SIZES] = c->p;
            if (f->target >= D_LOWER)
                *bytes_of(df, f->target) = (floe_col_bytes_map){0, NULL, false};
            else
                *longs_of(df, f->target) = (floe_col_longs){0, NULL, false};
            FLOE_TRY(mf_skip_map(c, f));
            continue;
        }
        switch (f->target) {
        case D_COLUMN_SIZES: FLOE_TRY(mf_read_longmap(c, f, a, &df->column_sizes)); continue;
        case D_VALUE_COUNTS: FLOE_TRY(mf_read_longmap(c, f, a, &df->value_counts)); continue;
        case D_NULL_COUNTS: FLOE_TRY(mf_read_longmap(c, f, a, &df->null_value_counts)); continue;
        case D_NAN_COUNTS: FLOE_TRY(mf_read_longmap(c, f, a, &df->nan_value_counts)); continue;
        case D_LOWER: FLOE_TRY(mf_read_bytesmap(c, f, a, r->keep, &df->lower_bounds)); continue;
        case D_UPPER: FLOE_TRY(mf_read_bytesmap(c, f, a, r->keep, &df->upper_bounds)); continue;
        case D_PARTITION:
            FLOE_TRY(mf_read_null(c, f, &is_null));
            if (!is_null)
                FLOE_TRY(read_partition(r, c, df));
            else
                reset_df_field(df, D_PARTITION);
            continue;
        default: break;
        }
        FLOE_TRY(mf_read_null(c, f, &is_null));
        if (is_null) {
            reset_df_field(df, f->target);
            continue;
        }
        switch (f->target) {
        case D_CONTENT:
            FLOE_TRY(floe_avro_read_int(c, &df->content));
            if (df->content < 0 || df->content > 2)
                return floe_avro_cursor_error(c, "invalid data_file content %d", (int)df->content);
            break;
        case D_PATH: FLOE_TRY(read_string(r, c, &df->file_path)); break;
        case D_FORMAT: FLOE_TRY(read_string(r, c, &df->file_format)); break;
        case D_RECORD_COUNT: FLOE_TRY(floe_avro_read_long(c, &df->record_count)); break;
        case D_FILE_SIZE: FLOE_TRY(floe_avro_read_long(c, &df->file_size_in_bytes)); break;
        case D_BLOCK_SIZE: FLOE_TRY(floe_avro_read_long(c, &df->block_size_in_bytes)); break;
        case D_KEY_METADATA:
            FLOE_TRY(floe__mf_read_opt_bytes(c, f->type, a, r->keep, &df->key_metadata));
            break;
        case D_SPLIT_OFFSETS:
            FLOE_TRY(floe__mf_read_longlist(c, f, a, &df->nsplit_offsets, &df->split_offsets));
            df->has_split_offsets = true;
            break;
        case D_EQUALITY_IDS:
            FLOE_TRY(floe__mf_read_intlist(c, f, a, &df->nequality_ids, &df->equality_ids));
            df->has_equality_ids = true;
            break;
        case D_SORT_ORDER_ID:
            FLOE_TRY(floe_avro_read_int(c, &df->sort_order_id));
            df->has_sort_order_id = true;
            break;
        case D_FIRST_ROW_ID:
            FLOE_TRY(floe_avro_read_long(c, &df->first_row_id));
            df->has_first_row_id = true;
            break;
        case D_REFERENCED: FLOE_TRY(read_string(r, c, &df->referenced_data_file)); break;
        case D_CONTENT_OFFSET:
            FLOE_TRY(floe_avro_read_long(c, &df->content_offset));
            df->has_content_offset = true;
            break;
        case D_CONTENT_SIZE:
            FLOE_TRY(floe_avro_read_long(c, &df->content_size_in_bytes));
            df->has_content_size_in_bytes = true;
            break;
        }
    }
    return 0;
}

static int read_entry(floe_manifest_reader *r, floe_avro_cursor *c, floe_manifest_entry *e)
{
    /* e is reused (see reset_df_field); the snapshot id and sequence numbers
     * are rewritten by inheritance below, so restore their read state */
    e->status = 0;
    e->has_snapshot_id = false;
    e->snapshot_id = 0;
    e->sequence_number = e->file_sequence_number = FLOE_SEQ_UNASSIGNED;
    for (size_t i = 0; i < r->plan.nfields; i++) {
        const mf_field_plan *f = &r->plan.fields[i];
        if (f->target < 0) {
            FLOE_TRY(floe_avro_skip(c, f->full, 1));
            continue;
        }
        bool is_null;
        FLOE_TRY(mf_read_null(c, f, &is_null));
        if (is_null) {
            switch (f->target) {
            case E_STATUS: e->status = 0; break;
            case E_SNAPSHOT_ID:
                e->has_snapshot_id = false;
                e->snapshot_id = 0;
                break;
            case E_SEQ: e->sequence_number = FLOE_SEQ_UNASSIGNED; break;
            case E_FILE_SEQ: e->file_sequence_number = FLOE_SEQ_UNASSIGNED; break;
            case E_DATA_FILE: reset_data_file(&e->data_file); break;
            }
            continue;
        }
        switch (f->target) {
        case E_STATUS:
            FLOE_TRY(floe_avro_read_int(c, &e->status));
            if (e->status < 0 || e->status > 2)
                return floe_avro_cursor_error(c, "invalid manifest entry status %d",
                                              (int)e->status);
            break;
        case E_SNAPSHOT_ID:
            FLOE_TRY(floe_avro_read_long(c, &e->snapshot_id));
            e->has_snapshot_id = true;
            break;
        case E_SEQ: FLOE_TRY(floe_avro_read_long(c, &e->sequence_number)); break;
        case E_FILE_SEQ: FLOE_TRY(floe_avro_read_long(c, &e->file_sequence_number)); break;
        case E_DATA_FILE: FLOE_TRY(read_data_file(r, c, &e->data_file)); break;
        }
    }
    if (!e->data_file.file_path || !e->data_file.file_format)
        return floe_avro_cursor_error(c, "manifest entry without file_path or file_format");
    if (r->npart && !e->data_file.partition.values)
        return floe_avro_cursor_error(c, "manifest entry with a null partition");
    /* sequence number inheritance */
    if (r->info.format_version == 1) {
        e->sequence_number = e->file_sequence_number = 0;
    } else if (r->inherit) {
        if (e->sequence_number == FLOE_SEQ_UNASSIGNED && e->status == FLOE_ENTRY_ADDED)
            e->sequence_number = r->inherit_seq;
        if (e->file_sequence_number == FLOE_SEQ_UNASSIGNED && e->status == FLOE_ENTRY_ADDED)
            e->file_sequence_number = r->inherit_seq;
    }
    if (r->assign_row_ids && e->status != FLOE_ENTRY_DELETED && !e->data_file.has_first_row_id) {
        e->data_file.has_first_row_id = true;
        e->data_file.first_row_id = r->next_row_id;
        r->next_row_id += e->data_file.record_count;
    } else if (r->clear_row_ids) {
        e->data_file.has_first_row_id = false;
        e->data_file.first_row_id = 0;
    }
    if (!e->has_snapshot_id && r->inherit && r->inherit_snapshot_id >= 0) {
        e->snapshot_id = r->inherit_snapshot_id;
        e->has_snapshot_id = true;
    }
    return 0;
}

void floe_manifest_reader_lazy_metrics(floe_manifest_reader *r)
{
    r->lazy = true;
}

int floe_manifest_reader_metrics(floe_manifest_reader *r)
{
    if (!r->pending)
        return 0;
    r->pending = false;
    floe_data_file *df = &r->entry.data_file;
    for (int k = 0; k <= D_UPPER - D_COLUMN_SIZES; k++) {
        const mf_field_plan *f = r->mfield[k];
        if (!f)
            continue;
        floe_avro_cursor c = r->cur;
        c.p = r->mpos[k];
        if (f->target >= D_LOWER)
            FLOE_TRY(mf_read_bytesmap(&c, f, r->arena, r->keep, bytes_of(df, f->target)));
        else
            FLOE_TRY(mf_read_longmap(&c, f, r->arena, longs_of(df, f->target)));
    }
    return 0;
}

int floe_manifest_reader_next(floe_manifest_reader *r, const floe_manifest_entry **entry)
{
    *entry = NULL;
    while (!r->in_block || r->left == 0) {
        if (r->in_block && r->cur.p != r->cur.end)
            return floe_avro_cursor_error(&r->cur, "%lld trailing bytes after the block's objects",
                                          (long long)(r->cur.end - r->cur.p));
        r->in_block = false;
        if (!r->keep)
            floe__arena_reset(r->arena);
        int rc = floe_avro_file_next_block(r->file, &r->cur, &r->left);
        if (rc < 0)
            return rc;
        r->in_block = true;
    }
    FLOE_TRY(read_entry(r, &r->cur, &r->entry));
    r->pending = r->lazy;
    r->left--;
    *entry = &r->entry;
    return 0;
}

/* ---------------------------------------------------------------- whole manifest */

void floe_manifest_free(floe_manifest *m)
{
    if (!m)
        return;
    floe_manifest_reader_free(m->reader);
    floe__free((void *)m->entries);
    floe__free(m);
}

int floe_manifest_read(floe_manifest **out, const uint8_t *data, size_t len, const char *source,
                       const floe_manifest_file *manifest)
{
    *out = NULL;
    floe_manifest *m = floe__calloc(1, sizeof *m);
    if (!m)
        return floe__error_nomem();
    floe_manifest_read_options o = {manifest, true};
    int rc = floe_manifest_reader_open(&m->reader, data, len, source, &o);
    size_t cap = 0, n = 0;
    floe_manifest_entry *items = NULL;
    while (rc == 0) {
        const floe_manifest_entry *e;
        rc = floe_manifest_reader_next(m->reader, &e);
        if (rc != 0)
            break;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 16;
            floe_manifest_entry *g = floe__realloc(items, ncap * sizeof *g);
            if (!g) {
                rc = floe__error_nomem();
                break;
            }
            items = g;
            cap = ncap;
        }
        items[n++] = *e;
    }
    m->entries = items;
    m->nentries = n;
    if (rc != FLOE_ITEROVER) {
        floe_manifest_free(m);
        return rc;
    }
    *out = m;
    return 0;
}
