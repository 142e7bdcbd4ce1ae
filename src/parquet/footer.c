/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/footer: decode and encode the Parquet footer (FileMetaData) and
 * page headers (PageHeader) of parquet.thrift over the compact protocol.
 * Unknown fields are skipped so newer writers stay readable; required fields
 * that are missing are reported as corruption.
 */
#include "parquet/format.h"
#include "parquet/thrift.h"

#include <string.h>

#define TRY FLOE_TRY

static int dec_string(floe_tdec *d, int t, floe_arena *a, const char **out)
{
    const uint8_t *p;
    size_t n;
    TRY(floe__tdec_binary(d, t, &p, &n));
    char *s = floe__arena_strndup(a, (const char *)p, n);
    if (!s)
        return floe__error_nomem();
    *out = s;
    return 0;
}

static int dec_bytes(floe_tdec *d, int t, floe_arena *a, floe_pq_bytes *out)
{
    const uint8_t *p;
    size_t n;
    TRY(floe__tdec_binary(d, t, &p, &n));
    out->ptr = n ? floe__arena_memdup(a, p, n) : (const uint8_t *)"";
    if (!out->ptr)
        return floe__error_nomem();
    out->len = n;
    out->set = true;
    return 0;
}

static int dec_statistics(floe_tdec *d, floe_arena *a, floe_pq_statistics *s)
{
    TRY(floe__tdec_struct_begin(d));
    for (;;) {
        int16_t id;
        int t;
        TRY(floe__tdec_field(d, &id, &t));
        if (t == FLOE_TC_STOP)
            break;
        switch (id) {
        case 1: TRY(dec_bytes(d, t, a, &s->max)); break;
        case 2: TRY(dec_bytes(d, t, a, &s->min)); break;
        case 3: TRY(floe__tdec_i64(d, t, &s->null_count)); s->has_null_count = true; break;
        case 4: TRY(floe__tdec_i64(d, t, &s->distinct_count)); s->has_distinct_count = true; break;
        case 5: TRY(dec_bytes(d, t, a, &s->max_value)); break;
        case 6: TRY(dec_bytes(d, t, a, &s->min_value)); break;
        case 9: TRY(floe__tdec_i64(d, t, &s->nan_count)); s->has_nan_count = true; break;
        default: TRY(floe__tdec_skip(d, t)); break;
        }
    }
    return floe__tdec_struct_end(d);
}

/* TimeUnit union: returns the member id. */
static int dec_time_unit(floe_tdec *d, int *unit)
{
    TRY(floe__tdec_struct_begin(d));
    for (;;) {
        int16_t id;
        int t;
        TRY(floe__tdec_field(d, &id, &t));
        if (t == FLOE_TC_STOP)
            break;
        if (id >= 1 && id <= 3)
            *unit = id;
        TRY(floe__tdec_skip(d, t));
    }
    return floe__tdec_struct_end(d);
}

static int dec_logical(floe_tdec *d, floe_pq_schema_element *e)
{
    TRY(floe__tdec_struct_begin(d));
    for (;;) {
        int16_t id;
        int t;
        TRY(floe__tdec_field(d, &id, &t));
        if (t == FLOE_TC_STOP)
            break;
        if (t != FLOE_TC_STRUCT) {
            TRY(floe__tdec_skip(d, t));
            continue;
        }
        e->logical = id;
        if (id == FLOE_PQ_LT_DECIMAL || id == FLOE_PQ_LT_TIME || id == FLOE_PQ_LT_TIMESTAMP ||
            id == FLOE_PQ_LT_INTEGER) {
            TRY(floe__tdec_struct_begin(d));
            for (;;) {
                int16_t fid;
                int ft;
                TRY(floe__tdec_field(d, &fid, &ft));
                if (ft == FLOE_TC_STOP)
                    break;
                if (id == FLOE_PQ_LT_DECIMAL && fid == 1)
                    TRY(floe__tdec_i32(d, ft, &e->lt_scale));
                else if (id == FLOE_PQ_LT_DECIMAL && fid == 2)
                    TRY(floe__tdec_i32(d, ft, &e->lt_precision));
                else if ((id == FLOE_PQ_LT_TIME || id == FLOE_PQ_LT_TIMESTAMP) && fid == 1)
                    TRY(floe__tdec_bool(d, ft, &e->lt_utc));
                else if ((id == FLOE_PQ_LT_TIME || id == FLOE_PQ_LT_TIMESTAMP) && fid == 2 &&
                         ft == FLOE_TC_STRUCT)
                    TRY(dec_time_unit(d, &e->lt_unit));
                else if (id == FLOE_PQ_LT_INTEGER && fid == 1)
                    TRY(floe__tdec_i32(d, ft, &e->lt_bit_width));
                else if (id == FLOE_PQ_LT_INTEGER && fid == 2)
                    TRY(floe__tdec_bool(d, ft, &e->lt_signed));
                else
                    TRY(floe__tdec_skip(d, ft));
            }
            TRY(floe__tdec_struct_end(d));
        } else {
            TRY(floe__tdec_skip(d, t));
        }
    }
    return floe__tdec_struct_end(d);
}

static int dec_schema_element(floe_tdec *d, floe_arena *a, floe_pq_schema_element *e)
{
    memset(e, 0, sizeof(*e));
    e->type = -1;
    e->repetition = -1;
    e->converted_type = -1;
    TRY(floe__tdec_struct_begin(d));
    for (;;) {
        int16_t id;
        int t;
        int32_t v;
        TRY(floe__tdec_field(d, &id, &t));
        if (t == FLOE_TC_STOP)
            break;
        switch (id) {
        case 1: TRY(floe__tdec_i32(d, t, &v)); e->type = v; break;
        case 2: TRY(floe__tdec_i32(d, t, &e->type_length)); break;
        case 3: TRY(floe__tdec_i32(d, t, &v)); e->repetition = v; break;
        case 4: TRY(dec_string(d, t, a, &e->name)); break;
        case 5: TRY(floe__tdec_i32(d, t, &e->num_children)); break;
        case 6: TRY(floe__tdec_i32(d, t, &v)); e->converted_type = v; break;
        case 7: TRY(floe__tdec_i32(d, t, &e->scale)); break;
        case 8: TRY(floe__tdec_i32(d, t, &e->precision)); break;
        case 9: TRY(floe__tdec_i32(d, t, &e->field_id)); e->has_field_id = true; break;
        case 10:
            if (t == FLOE_TC_STRUCT)
                TRY(dec_logical(d, e));
            else
                TRY(floe__tdec_skip(d, t));
            break;
        default: TRY(floe__tdec_skip(d, t)); break;
        }
    }
    if (!e->name)
        return floe__tdec_corrupt(d, "schema element without name");
    if (e->num_children < 0 || e->type < -1 || e->type > FLOE_PQ_FIXED_LEN_BYTE_ARRAY ||
        e->type_length < 0)
        return floe__tdec_corrupt(d, "bad schema element");
    return floe__tdec_struct_end(d);
}

static int dec_column_meta(floe_tdec *d, floe_arena *a, floe_pq_column_meta *m)
{
    TRY(floe__tdec_struct_begin(d));
    for (;;) {
        int16_t id;
        int t;
        int32_t v;
        TRY(floe__tdec_field(d, &id, &t));
        if (t == FLOE_TC_STOP)
            break;
        switch (id) {
        case 1: TRY(floe__tdec_i32(d, t, &v)); m->type = v; break;
        case 2: {
            int et;
            uint32_t n;
            TRY(floe__tdec_list(d, t, &et, &n));
            for (uint32_t i = 0; i < n; i++) {
                TRY(floe__tdec_i32(d, et, &v));
                if (v >= 0 && v < 32)
                    m->encodings |= 1u << v;
            }
            break;
        }
        case 3: {
            int et;
            uint32_t n;
            TRY(floe__tdec_list(d, t, &et, &n));
            m->path = floe__arena_calloc(a, n ? n : 1, sizeof(char *));
            if (!m->path)
                return floe__error_nomem();
            for (uint32_t i = 0; i < n; i++)
                TRY(dec_string(d, et, a, &m->path[i]));
            m->npath = n;
            break;
        }
        case 4: TRY(floe__tdec_i32(d, t, &v)); m->codec = v; break;
        case 5: TRY(floe__tdec_i64(d, t, &m->num_values)); break;
        case 6: TRY(floe__tdec_i64(d, t, &m->total_uncompressed_size)); break;
        case 7: TRY(floe__tdec_i64(d, t, &m->total_compressed_size)); break;
        case 9: TRY(floe__tdec_i64(d, t, &m->data_page_offset)); break;
        case 11:
            TRY(floe__tdec_i64(d, t, &m->dictionary_page_offset));
            m->has_dictionary_page_offset = true;
            break;
        case 12:
            if (t != FLOE_TC_STRUCT)
                return floe__tdec_corrupt(d, "statistics not a struct");
            TRY(dec_statistics(d, a, &m->statistics));
            m->has_statistics = true;
            break;
        default: TRY(floe__tdec_skip(d, t)); break;
        }
    }
    return floe__tdec_struct_end(d);
}

static int dec_column_chunk(floe_tdec *d, floe_arena *a, floe_pq_column_chunk *c)
{
    TRY(floe__tdec_struct_begin(d));
    for (;;) {
        int16_t id;
        int t;
        TRY(floe__tdec_field(d, &id, &t));
        if (t == FLOE_TC_STOP)
            break;
        switch (id) {
        case 1: TRY(dec_string(d, t, a, &c->file_path)); break;
        case 2: TRY(floe__tdec_i64(d, t, &c->file_offset)); break;
        case 3:
            if (t != FLOE_TC_STRUCT)
                return floe__tdec_corrupt(d, "meta_data not a struct");
            TRY(dec_column_meta(d, a, &c->meta_data));
            c->has_meta_data = true;
            break;
        default: TRY(floe__tdec_skip(d, t)); break;
        }
    }
    return floe__tdec_struct_end(d);
}

static int dec_row_group(floe_tdec *d, floe_arena *a, floe_pq_row_group *rg)
{
    TRY(floe__tdec_struct_begin(d));
    for (;;) {
        int16_t id;
        int t;
        TRY(floe__tdec_field(d, &id, &t));
        if (t == FLOE_TC_STOP)
            break;
        switch (id) {
        case 1: {
            int et;
            uint32_t n;
            TRY(floe__tdec_list(d, t, &et, &n));
            if (et != FLOE_TC_STRUCT && n)
                return floe__tdec_corrupt(d, "columns not structs");
            rg->columns = floe__arena_calloc(a, n ? n : 1, sizeof(*rg->columns));
            if (!rg->columns)
                return floe__error_nomem();
            for (uint32_t i = 0; i < n; i++)
                TRY(dec_column_chunk(d, a, &rg->columns[i]));
            rg->ncolumns = n;
            break;
        }
        case 2: TRY(floe__tdec_i64(d, t, &rg->total_byte_size)); break;
        case 3: TRY(floe__tdec_i64(d, t, &rg->num_rows)); break;
        case 5: TRY(floe__tdec_i64(d, t, &rg->file_offset)); rg->has_file_offset = true; break;
        case 6:
            TRY(floe__tdec_i64(d, t, &rg->total_compressed_size));
            rg->has_total_compressed_size = true;
            break;
        default: TRY(floe__tdec_skip(d, t)); break;
        }
    }
    return floe__tdec_struct_end(d);
}

int floe__pq_decode_file_meta(floe_pq_file_meta *out, floe_arena *a, const void *buf, size_t len,
                              int64_t file_offset, const char *what)
{
    floe_tdec d;
    floe__tdec_init(&d, buf, len, file_offset, what);
    memset(out, 0, sizeof(*out));
    bool have_schema = false;
    TRY(floe__tdec_struct_begin(&d));
    for (;;) {
        int16_t id;
        int t;
        TRY(floe__tdec_field(&d, &id, &t));
        if (t == FLOE_TC_STOP)
            break;
        int et;
        uint32_t n;
        switch (id) {
        case 1: TRY(floe__tdec_i32(&d, t, &out->version)); break;
        case 2:
            TRY(floe__tdec_list(&d, t, &et, &n));
            if (et != FLOE_TC_STRUCT && n)
                return floe__tdec_corrupt(&d, "schema not structs");
            out->schema = floe__arena_calloc(a, n ? n : 1, sizeof(*out->schema));
            if (!out->schema)
                return floe__error_nomem();
            for (uint32_t i = 0; i < n; i++)
                TRY(dec_schema_element(&d, a, &out->schema[i]));
            out->nschema = n;
            have_schema = true;
            break;
        case 3: TRY(floe__tdec_i64(&d, t, &out->num_rows)); break;
        case 4:
            TRY(floe__tdec_list(&d, t, &et, &n));
            if (et != FLOE_TC_STRUCT && n)
                return floe__tdec_corrupt(&d, "row_groups not structs");
            out->row_groups = floe__arena_calloc(a, n ? n : 1, sizeof(*out->row_groups));
            if (!out->row_groups)
                return floe__error_nomem();
            for (uint32_t i = 0; i < n; i++)
                TRY(dec_row_group(&d, a, &out->row_groups[i]));
            out->nrow_groups = n;
            break;
        case 5:
            TRY(floe__tdec_list(&d, t, &et, &n));
            if (et != FLOE_TC_STRUCT && n)
                return floe__tdec_corrupt(&d, "key_value_metadata not structs");
            out->kv = floe__arena_calloc(a, n ? n : 1, sizeof(*out->kv));
            if (!out->kv)
                return floe__error_nomem();
            for (uint32_t i = 0; i < n; i++) {
                TRY(floe__tdec_struct_begin(&d));
                for (;;) {
                    int16_t kid;
                    int kt;
                    TRY(floe__tdec_field(&d, &kid, &kt));
                    if (kt == FLOE_TC_STOP)
                        break;
                    if (kid == 1)
                        TRY(dec_string(&d, kt, a, &out->kv[i].key));
                    else if (kid == 2)
                        TRY(dec_string(&d, kt, a, &out->kv[i].value));
                    else
                        TRY(floe__tdec_skip(&d, kt));
                }
                TRY(floe__tdec_struct_end(&d));
                if (!out->kv[i].key)
                    out->kv[i].key = "";
            }
            out->nkv = n;
            break;
        case 6: TRY(dec_string(&d, t, a, &out->created_by)); break;
        case 7: out->has_column_orders = true; TRY(floe__tdec_skip(&d, t)); break;
        default: TRY(floe__tdec_skip(&d, t)); break;
        }
    }
    if (!have_schema || out->nschema == 0)
        return floe__tdec_corrupt(&d, "footer without schema");
    if (out->num_rows < 0)
        return floe__tdec_corrupt(&d, "negative num_rows");
    return 0;
}

int floe__pq_decode_page_header(floe_pq_page_header *ph, const void *buf, size_t len,
                                int64_t file_offset, const char *what, size_t *header_len)
{
    floe_tdec d;
    floe__tdec_init(&d, buf, len, file_offset, what);
    memset(ph, 0, sizeof(*ph));
    ph->type = -1;
    ph->is_compressed = true;
    TRY(floe__tdec_struct_begin(&d));
    for (;;) {
        int16_t id;
        int t;
        int32_t v;
        TRY(floe__tdec_field(&d, &id, &t));
        if (t == FLOE_TC_STOP)
            break;
        switch (id) {
        case 1: TRY(floe__tdec_i32(&d, t, &ph->type)); break;
        case 2: TRY(floe__tdec_i32(&d, t, &ph->uncompressed_page_size)); break;
        case 3: TRY(floe__tdec_i32(&d, t, &ph->compressed_page_size)); break;
        case 4: TRY(floe__tdec_i32(&d, t, &ph->crc)); ph->has_crc = true; break;
        case 5:
        case 7:
        case 8:
            if (t != FLOE_TC_STRUCT)
                return floe__tdec_corrupt(&d, "page header member not a struct");
            TRY(floe__tdec_struct_begin(&d));
            for (;;) {
                int16_t fid;
                int ft;
                TRY(floe__tdec_field(&d, &fid, &ft));
                if (ft == FLOE_TC_STOP)
                    break;
                if (id == 5) {
                    ph->has_data = true;
                    if (fid == 1) TRY(floe__tdec_i32(&d, ft, &ph->num_values));
                    else if (fid == 2) { TRY(floe__tdec_i32(&d, ft, &v)); ph->encoding = v; }
                    else if (fid == 3) { TRY(floe__tdec_i32(&d, ft, &v)); ph->def_encoding = v; }
                    else if (fid == 4) { TRY(floe__tdec_i32(&d, ft, &v)); ph->rep_encoding = v; }
                    else TRY(floe__tdec_skip(&d, ft));
                } else if (id == 7) {
                    ph->has_dict = true;
                    if (fid == 1) TRY(floe__tdec_i32(&d, ft, &ph->dict_num_values));
                    else if (fid == 2) { TRY(floe__tdec_i32(&d, ft, &v)); ph->dict_encoding = v; }
                    else TRY(floe__tdec_skip(&d, ft));
                } else {
                    ph->has_v2 = true;
                    if (fid == 1) TRY(floe__tdec_i32(&d, ft, &ph->num_values));
                    else if (fid == 2) TRY(floe__tdec_i32(&d, ft, &ph->num_nulls));
                    else if (fid == 3) TRY(floe__tdec_i32(&d, ft, &ph->num_rows));
                    else if (fid == 4) { TRY(floe__tdec_i32(&d, ft, &v)); ph->encoding = v; }
                    else if (fid == 5) TRY(floe__tdec_i32(&d, ft, &ph->def_levels_byte_length));
                    else if (fid == 6) TRY(floe__tdec_i32(&d, ft, &ph->rep_levels_byte_length));
                    else if (fid == 7) TRY(floe__tdec_bool(&d, ft, &ph->is_compressed));
                    else TRY(floe__tdec_skip(&d, ft));
                }
            }
            TRY(floe__tdec_struct_end(&d));
            break;
        default: TRY(floe__tdec_skip(&d, t)); break;
        }
    }
    if (ph->type < 0 || ph->compressed_page_size < 0 || ph->uncompressed_page_size < 0 ||
        ph->num_values < 0 || ph->dict_num_values < 0 || ph->num_nulls < 0 ||
        ph->def_levels_byte_length < 0 || ph->rep_levels_byte_length < 0)
        return floe__tdec_corrupt(&d, "bad page header");
    *header_len = (size_t)(d.p - d.base);
    return 0;
}

/* ---------------------------------------------------------------- encoders */

static int enc_statistics(floe_tenc *e, int16_t id, const floe_pq_statistics *s)
{
    TRY(floe__tenc_field(e, id, FLOE_TC_STRUCT));
    TRY(floe__tenc_struct_begin(e));
    if (s->max.set)
        TRY(floe__tenc_binary(e, 1, s->max.ptr, s->max.len));
    if (s->min.set)
        TRY(floe__tenc_binary(e, 2, s->min.ptr, s->min.len));
    if (s->has_null_count)
        TRY(floe__tenc_i64(e, 3, s->null_count));
    if (s->has_distinct_count)
        TRY(floe__tenc_i64(e, 4, s->distinct_count));
    if (s->max_value.set)
        TRY(floe__tenc_binary(e, 5, s->max_value.ptr, s->max_value.len));
    if (s->min_value.set)
        TRY(floe__tenc_binary(e, 6, s->min_value.ptr, s->min_value.len));
    if (s->has_nan_count)
        TRY(floe__tenc_i64(e, 9, s->nan_count));
    return floe__tenc_struct_end(e);
}

static int enc_empty_struct(floe_tenc *e, int16_t id)
{
    TRY(floe__tenc_field(e, id, FLOE_TC_STRUCT));
    TRY(floe__tenc_struct_begin(e));
    return floe__tenc_struct_end(e);
}

static int enc_logical(floe_tenc *e, const floe_pq_schema_element *s)
{
    TRY(floe__tenc_field(e, 10, FLOE_TC_STRUCT));
    TRY(floe__tenc_struct_begin(e));
    switch (s->logical) {
    case FLOE_PQ_LT_DECIMAL:
        TRY(floe__tenc_field(e, FLOE_PQ_LT_DECIMAL, FLOE_TC_STRUCT));
        TRY(floe__tenc_struct_begin(e));
        TRY(floe__tenc_i32(e, 1, s->lt_scale));
        TRY(floe__tenc_i32(e, 2, s->lt_precision));
        TRY(floe__tenc_struct_end(e));
        break;
    case FLOE_PQ_LT_TIME:
    case FLOE_PQ_LT_TIMESTAMP:
        TRY(floe__tenc_field(e, (int16_t)s->logical, FLOE_TC_STRUCT));
        TRY(floe__tenc_struct_begin(e));
        TRY(floe__tenc_bool(e, 1, s->lt_utc));
        TRY(floe__tenc_field(e, 2, FLOE_TC_STRUCT));
        TRY(floe__tenc_struct_begin(e));
        TRY(enc_empty_struct(e, (int16_t)s->lt_unit));
        TRY(floe__tenc_struct_end(e));
        TRY(floe__tenc_struct_end(e));
        break;
    case FLOE_PQ_LT_INTEGER:
        TRY(floe__tenc_field(e, FLOE_PQ_LT_INTEGER, FLOE_TC_STRUCT));
        TRY(floe__tenc_struct_begin(e));
        TRY(floe__tenc_field(e, 1, FLOE_TC_I8));
        TRY(floe__buf_putc(e->out, (char)s->lt_bit_width));
        TRY(floe__tenc_bool(e, 2, s->lt_signed));
        TRY(floe__tenc_struct_end(e));
        break;
    default:
        TRY(enc_empty_struct(e, (int16_t)s->logical));
        break;
    }
    return floe__tenc_struct_end(e);
}

int floe__pq_encode_file_meta(const floe_pq_file_meta *fm, floe_buf *out)
{
    floe_tenc e;
    floe__tenc_init(&e, out);
    TRY(floe__tenc_struct_begin(&e));
    TRY(floe__tenc_i32(&e, 1, fm->version));
    TRY(floe__tenc_list_begin(&e, 2, FLOE_TC_STRUCT, (uint32_t)fm->nschema));
    for (size_t i = 0; i < fm->nschema; i++) {
        const floe_pq_schema_element *s = &fm->schema[i];
        TRY(floe__tenc_struct_begin(&e));
        if (s->type >= 0)
            TRY(floe__tenc_i32(&e, 1, s->type));
        if (s->type == FLOE_PQ_FIXED_LEN_BYTE_ARRAY)
            TRY(floe__tenc_i32(&e, 2, s->type_length));
        if (s->repetition >= 0)
            TRY(floe__tenc_i32(&e, 3, s->repetition));
        TRY(floe__tenc_binary(&e, 4, s->name, strlen(s->name)));
        if (s->type < 0)
            TRY(floe__tenc_i32(&e, 5, s->num_children));
        if (s->converted_type >= 0)
            TRY(floe__tenc_i32(&e, 6, s->converted_type));
        if (s->converted_type == FLOE_PQ_CT_DECIMAL) {
            TRY(floe__tenc_i32(&e, 7, s->scale));
            TRY(floe__tenc_i32(&e, 8, s->precision));
        }
        if (s->has_field_id)
            TRY(floe__tenc_i32(&e, 9, s->field_id));
        if (s->logical != FLOE_PQ_LT_NONE)
            TRY(enc_logical(&e, s));
        TRY(floe__tenc_struct_end(&e));
    }
    TRY(floe__tenc_i64(&e, 3, fm->num_rows));
    TRY(floe__tenc_list_begin(&e, 4, FLOE_TC_STRUCT, (uint32_t)fm->nrow_groups));
    for (size_t r = 0; r < fm->nrow_groups; r++) {
        const floe_pq_row_group *rg = &fm->row_groups[r];
        TRY(floe__tenc_struct_begin(&e));
        TRY(floe__tenc_list_begin(&e, 1, FLOE_TC_STRUCT, (uint32_t)rg->ncolumns));
        for (size_t c = 0; c < rg->ncolumns; c++) {
            const floe_pq_column_chunk *cc = &rg->columns[c];
            const floe_pq_column_meta *m = &cc->meta_data;
            TRY(floe__tenc_struct_begin(&e));
            TRY(floe__tenc_i64(&e, 2, cc->file_offset));
            TRY(floe__tenc_field(&e, 3, FLOE_TC_STRUCT));
            TRY(floe__tenc_struct_begin(&e));
            TRY(floe__tenc_i32(&e, 1, m->type));
            uint32_t nenc = 0;
            for (int b = 0; b < 32; b++)
                nenc += (m->encodings >> b) & 1;
            TRY(floe__tenc_list_begin(&e, 2, FLOE_TC_I32, nenc));
            for (int b = 0; b < 32; b++)
                if ((m->encodings >> b) & 1)
                    TRY(floe__tenc_raw_i32(&e, b));
            TRY(floe__tenc_list_begin(&e, 3, FLOE_TC_BINARY, (uint32_t)m->npath));
            for (size_t k = 0; k < m->npath; k++)
                TRY(floe__tenc_raw_binary(&e, m->path[k], strlen(m->path[k])));
            TRY(floe__tenc_i32(&e, 4, m->codec));
            TRY(floe__tenc_i64(&e, 5, m->num_values));
            TRY(floe__tenc_i64(&e, 6, m->total_uncompressed_size));
            TRY(floe__tenc_i64(&e, 7, m->total_compressed_size));
            TRY(floe__tenc_i64(&e, 9, m->data_page_offset));
            if (m->has_dictionary_page_offset)
                TRY(floe__tenc_i64(&e, 11, m->dictionary_page_offset));
            if (m->has_statistics)
                TRY(enc_statistics(&e, 12, &m->statistics));
            TRY(floe__tenc_struct_end(&e));
            TRY(floe__tenc_struct_end(&e));
        }
        TRY(floe__tenc_i64(&e, 2, rg->total_byte_size));
        TRY(floe__tenc_i64(&e, 3, rg->num_rows));
        if (rg->has_file_offset)
            TRY(floe__tenc_i64(&e, 5, rg->file_offset));
        if (rg->has_total_compressed_size)
            TRY(floe__tenc_i64(&e, 6, rg->total_compressed_size));
        TRY(floe__tenc_field(&e, 7, FLOE_TC_I16));
        TRY(floe__tenc_varint(&e, (uint64_t)((int64_t)r << 1)));
        TRY(floe__tenc_struct_end(&e));
    }
    if (fm->nkv) {
        TRY(floe__tenc_list_begin(&e, 5, FLOE_TC_STRUCT, (uint32_t)fm->nkv));
        for (size_t i = 0; i < fm->nkv; i++) {
            TRY(floe__tenc_struct_begin(&e));
            TRY(floe__tenc_binary(&e, 1, fm->kv[i].key, strlen(fm->kv[i].key)));
            if (fm->kv[i].value)
                TRY(floe__tenc_binary(&e, 2, fm->kv[i].value, strlen(fm->kv[i].value)));
            TRY(floe__tenc_struct_end(&e));
        }
    }
    if (fm->created_by)
        TRY(floe__tenc_binary(&e, 6, fm->created_by, strlen(fm->created_by)));
    if (fm->has_column_orders) {
        /* One TypeDefinedOrder per leaf column: min_value/max_value use the
         * logical type's order (unsigned bytes for strings). */
        uint32_t nleaves = 0;
        for (size_t i = 1; i < fm->nschema; i++)
            nleaves += fm->schema[i].type >= 0;
        TRY(floe__tenc_list_begin(&e, 7, FLOE_TC_STRUCT, nleaves));
        for (uint32_t i = 0; i < nleaves; i++) {
            TRY(floe__tenc_struct_begin(&e));
            TRY(enc_empty_struct(&e, 1));
            TRY(floe__tenc_struct_end(&e));
        }
    }
    return floe__tenc_struct_end(&e);
}

int floe__pq_encode_page_header(const floe_pq_page_header *ph, floe_buf *out)
{
    floe_tenc e;
    floe__tenc_init(&e, out);
    TRY(floe__tenc_struct_begin(&e));
    TRY(floe__tenc_i32(&e, 1, ph->type));
    TRY(floe__tenc_i32(&e, 2, ph->uncompressed_page_size));
    TRY(floe__tenc_i32(&e, 3, ph->compressed_page_size));
    if (ph->has_crc)
        TRY(floe__tenc_i32(&e, 4, ph->crc));
    if (ph->type == FLOE_PQ_PAGE_DATA) {
        TRY(floe__tenc_field(&e, 5, FLOE_TC_STRUCT));
        TRY(floe__tenc_struct_begin(&e));
        TRY(floe__tenc_i32(&e, 1, ph->num_values));
        TRY(floe__tenc_i32(&e, 2, ph->encoding));
        TRY(floe__tenc_i32(&e, 3, ph->def_encoding));
        TRY(floe__tenc_i32(&e, 4, ph->rep_encoding));
        TRY(floe__tenc_struct_end(&e));
    } else if (ph->type == FLOE_PQ_PAGE_DICTIONARY) {
        TRY(floe__tenc_field(&e, 7, FLOE_TC_STRUCT));
        TRY(floe__tenc_struct_begin(&e));
        TRY(floe__tenc_i32(&e, 1, ph->dict_num_values));
        TRY(floe__tenc_i32(&e, 2, ph->dict_encoding));
        TRY(floe__tenc_struct_end(&e));
    } else if (ph->type == FLOE_PQ_PAGE_DATA_V2) {
        TRY(floe__tenc_field(&e, 8, FLOE_TC_STRUCT));
        TRY(floe__tenc_struct_begin(&e));
        TRY(floe__tenc_i32(&e, 1, ph->num_values));
        TRY(floe__tenc_i32(&e, 2, ph->num_nulls));
        TRY(floe__tenc_i32(&e, 3, ph->num_rows));
        TRY(floe__tenc_i32(&e, 4, ph->encoding));
        TRY(floe__tenc_i32(&e, 5, ph->def_levels_byte_length));
        TRY(floe__tenc_i32(&e, 6, ph->rep_levels_byte_length));
        if (!ph->is_compressed)
            TRY(floe__tenc_bool(&e, 7, false));
        TRY(floe__tenc_struct_end(&e));
    }
    return floe__tenc_struct_end(&e);
}

const char *floe__pq_type_name(int type)
{
    static const char *const names[] = {"BOOLEAN", "INT32",  "INT64",      "INT96",
                                        "FLOAT",   "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return type >= 0 && type < 8 ? names[type] : "GROUP";
}

const char *floe__pq_codec_name(int codec)
{
    static const char *const names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                        "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
    return codec >= 0 && codec < 8 ? names[codec] : "UNKNOWN";
}

const char *floe__pq_encoding_name(int enc)
{
    static const char *const names[] = {"PLAIN",
                                        "GROUP_VAR_INT",
                                        "PLAIN_DICTIONARY",
                                        "RLE",
                                        "BIT_PACKED",
                                        "DELTA_BINARY_PACKED",
                                        "DELTA_LENGTH_BYTE_ARRAY",
                                        "DELTA_BYTE_ARRAY",
                                        "RLE_DICTIONARY",
                                        "BYTE_STREAM_SPLIT"};
    return enc >= 0 && enc < 10 ? names[enc] : "UNKNOWN";
}
