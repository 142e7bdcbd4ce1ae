/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/column: read a column chunk: page headers, decompression,
 * definition/repetition levels (RLE hybrid), and values in every encoding a
 * data page may use (PLAIN, dictionary, DELTA_*, BYTE_STREAM_SPLIT, RLE
 * booleans), for data pages v1 and v2 (parquet.thrift PageHeader).
 */
#include "parquet/column.h"

#include "lazy/snappy.h"
#include <zstd.h>

#include <string.h>

void floe__pq_leafdata_reset(floe_pq_leafdata *d)
{
    d->n = d->nvals = d->ndict = 0;
    d->eb = d->ee = d->vb = d->ve = d->epos = d->vpos = 0;
    d->moved = false;
    floe__buf_clear(&d->def);
    floe__buf_clear(&d->rep);
    floe__buf_clear(&d->fixed);
    floe__buf_clear(&d->dict_fixed);
    d->bin.n = 0;
    floe__buf_clear(&d->bin.data);
    d->dict_bin.n = 0;
    floe__buf_clear(&d->dict_bin.data);
}

void floe__pq_leafdata_free(floe_pq_leafdata *d)
{
    floe__buf_free(&d->def);
    floe__buf_free(&d->rep);
    floe__buf_free(&d->fixed);
    floe__buf_free(&d->dict_fixed);
    floe__pq_binvals_free(&d->bin);
    floe__pq_binvals_free(&d->dict_bin);
    floe__buf_free(&d->page);
    floe__buf_free(&d->raw);
    floe__free(d->idx);
    memset(d, 0, sizeof(*d));
}

static int phys_width(const floe_pq_schema_element *el)
{
    switch (el->type) {
    case FLOE_PQ_BOOLEAN: return 1;
    case FLOE_PQ_INT32:
    case FLOE_PQ_FLOAT: return 4;
    case FLOE_PQ_INT64:
    case FLOE_PQ_DOUBLE: return 8;
    case FLOE_PQ_INT96: return 12;
    case FLOE_PQ_FIXED_LEN_BYTE_ARRAY: return el->type_length;
    default: return 0;
    }
}

/* A page whose levels are one RLE run of `max` (no nulls, or no repeated
 * entries): fill without decoding and report it, so the caller need not
 * count the defined values one by one. */
static bool levels_one_run(const uint8_t *p, size_t len, size_t n, int16_t max, uint16_t *dst)
{
    uint64_t h = 0;
    size_t i = 0;
    for (int shift = 0; i < len && shift < 64; shift += 7) {
        uint8_t b = p[i++];
        h |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
        if (i == len)
            return false;
    }
    if (i == 0 || (h & 1) || (h >> 1) < n)
        return false;
    size_t vbytes = (size_t)(floe__pq_bit_width((uint64_t)max) + 7) / 8;
    if (len - i < vbytes)
        return false;
    uint32_t v = 0;
    for (size_t b = 0; b < vbytes; b++)
        v |= (uint32_t)p[i + b] << (8 * b);
    if (v != (uint32_t)max)
        return false;
    uint64_t pat = (uint64_t)(uint16_t)max * 0x0001000100010001ull;
    size_t k = 0;
    for (; k + 4 <= n; k += 4)
        memcpy(dst + k, &pat, 8);
    for (; k < n; k++)
        dst[k] = (uint16_t)max;
    return true;
}

/* Decode `n` levels (RLE hybrid) of max `max` into out (appended). *all_max
 * (when given) is set when every level equals max. */
static int read_levels(const uint8_t *p, size_t len, size_t n, int16_t max, floe_buf *out,
                       const floe_pq_where *w, bool *all_max)
{
    FLOE_TRY(floe__buf_reserve(out, n * 2));
    uint16_t *dst = (uint16_t *)(out->ptr + out->len);
    if (all_max)
        *all_max = false;
    if (n && levels_one_run(p, len, n, max, dst)) {
        if (all_max)
            *all_max = true;
        out->len += n * 2;
        return 0;
    }
    int64_t used = floe__pq_rle_decode16(p, len, floe__pq_bit_width((uint64_t)max), dst, n, w);
    if (used < 0)
        return (int)used;
    /* values of bit width w cannot exceed 2^w - 1: check only when max is
     * smaller than that */
    int bw = floe__pq_bit_width((uint64_t)max);
    if (((1 << bw) - 1) != max)
        for (size_t i = 0; i < n; i++)
            if (dst[i] > max)
                return floe__pq_corrupt(w, "level %u above max %d", dst[i], max);
    out->len += n * 2;
    return 0;
}

static int ensure_idx(floe_pq_leafdata *d, size_t n)
{
    if (d->idx_cap >= n)
        return 0;
    uint32_t *p = floe__realloc(d->idx, (n ? n : 1) * sizeof(uint32_t));
    if (!p)
        return floe__error_nomem();
    d->idx = p;
    d->idx_cap = n;
    return 0;
}

/* Bytes readable past the end of the dictionary's and the output's string
 * data (reserved), so that short strings copy with one fixed-size memcpy. */
#define DICT_SLACK 16

static int decode_values(floe_pq_leafdata *d, const floe_pq_schema_element *el, int encoding,
                         const uint8_t *p, size_t len, size_t nv, const floe_pq_where *w)
{
    int width = d->width;
    if (encoding == FLOE_PQ_ENC_PLAIN_DICTIONARY || encoding == FLOE_PQ_ENC_RLE_DICTIONARY) {
        if (nv == 0)
            return 0;
        if (len < 1)
            return floe__pq_corrupt(w, "missing dictionary index width");
        int bw = p[0];
        if (bw > 32)
            return floe__pq_corrupt(w, "dictionary index width %d", bw);
        FLOE_TRY(ensure_idx(d, nv));
        int64_t used = floe__pq_rle_decode(p + 1, len - 1, bw, d->idx, nv, w);
        if (used < 0)
            return (int)used;
        /* bounds first (a branch-free max), then gathers without checks */
        uint32_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, top;
        size_t i4 = 0;
        for (; i4 + 4 <= nv; i4 += 4) {
            t0 = d->idx[i4] > t0 ? d->idx[i4] : t0;
            t1 = d->idx[i4 + 1] > t1 ? d->idx[i4 + 1] : t1;
            t2 = d->idx[i4 + 2] > t2 ? d->idx[i4 + 2] : t2;
            t3 = d->idx[i4 + 3] > t3 ? d->idx[i4 + 3] : t3;
        }
        for (; i4 < nv; i4++)
            t0 = d->idx[i4] > t0 ? d->idx[i4] : t0;
        top = t0 > t1 ? t0 : t1;
        top = top > t2 ? top : t2;
        top = top > t3 ? top : t3;
        if (top >= d->ndict)
            return floe__pq_corrupt(w, "dictionary index %u out of range (%zu)", top, d->ndict);
        const uint32_t *idx = d->idx;
        if (width) {
            FLOE_TRY(floe__buf_reserve(&d->fixed, nv * (size_t)width));
            uint8_t *dst = (uint8_t *)d->fixed.ptr + d->fixed.len;
            const uint8_t *dict = (const uint8_t *)d->dict_fixed.ptr;
            if (width == 8)
                for (size_t i = 0; i < nv; i++)
                    memcpy(dst + i * 8, dict + (size_t)idx[i] * 8, 8);
            else if (width == 4)
                for (size_t i = 0; i < nv; i++)
                    memcpy(dst + i * 4, dict + (size_t)idx[i] * 4, 4);
            else
                for (size_t i = 0; i < nv; i++)
                    memcpy(dst + i * (size_t)width, dict + (size_t)idx[i] * (size_t)width,
                           (size_t)width);
            d->fixed.len += nv * (size_t)width;
        } else {
            /* two passes: total size, then copies into reserved space; short
             * values (the common case) move as one 16-byte copy, which the
             * slack reserved after the dictionary and the output allows */
            FLOE_TRY(floe__pq_binvals_reserve(&d->bin, nv));
            const int32_t *doff = d->dict_bin.offsets;
            uint64_t total = 0;
            for (size_t i = 0; i < nv; i++)
                total += (uint64_t)(doff[idx[i] + 1] - doff[idx[i]]);
            if (d->bin.data.len + total > INT32_MAX)
                return floe__error(FLOE_EUNSUPPORTED, "parquet", "byte array batch over 2 GiB");
            FLOE_TRY(floe__buf_reserve(&d->bin.data, (size_t)total + DICT_SLACK));
            FLOE_TRY(floe__buf_reserve(&d->dict_bin.data, DICT_SLACK));
            char *dst = d->bin.data.ptr;
            const char *src = d->dict_bin.data.ptr;
            size_t at = d->bin.data.len;
            int32_t *off = d->bin.offsets + d->bin.n;
            for (size_t i = 0; i < nv; i++) {
                uint32_t ix = idx[i];
                size_t l = (size_t)(doff[ix + 1] - doff[ix]);
                if (l <= DICT_SLACK)
                    memcpy(dst + at, src + doff[ix], DICT_SLACK);
                else
                    memcpy(dst + at, src + doff[ix], l);
                at += l;
                off[i + 1] = (int32_t)at;
            }
            d->bin.data.len = at;
            d->bin.n += nv;
        }
        d->nvals += nv;
        return 0;
    }
    if (el->type == FLOE_PQ_BOOLEAN) {
        FLOE_TRY(floe__buf_reserve(&d->fixed, nv));
        uint8_t *dst = (uint8_t *)d->fixed.ptr + d->fixed.len;
        if (encoding == FLOE_PQ_ENC_PLAIN) {
            if (len * 8 < nv)
                return floe__pq_corrupt(w, "PLAIN booleans past end of page");
            for (size_t i = 0; i < nv; i++)
                dst[i] = (p[i >> 3] >> (i & 7)) & 1;
        } else if (encoding == FLOE_PQ_ENC_RLE) {
            if (len < 4)
                return floe__pq_corrupt(w, "truncated RLE booleans");
            FLOE_TRY(ensure_idx(d, nv));
            int64_t used = floe__pq_rle_decode(p + 4, len - 4, 1, d->idx, nv, w);
            if (used < 0)
                return (int)used;
            for (size_t i = 0; i < nv; i++)
                dst[i] = (uint8_t)d->idx[i];
        } else {
            return floe__error(FLOE_EUNSUPPORTED, "parquet", "boolean encoding %s in %s",
                               floe__pq_encoding_name(encoding), w->file);
        }
        d->fixed.len += nv;
        d->nvals += nv;
        return 0;
    }
    if (!width) {
        FLOE_TRY(floe__pq_decode_bytes(encoding, p, len, nv, 0, &d->bin, w));
        d->nvals += nv;
        return 0;
    }
    FLOE_TRY(floe__buf_reserve(&d->fixed, nv * (size_t)width));
    uint8_t *dst = (uint8_t *)d->fixed.ptr + d->fixed.len;
    switch (encoding) {
    case FLOE_PQ_ENC_PLAIN:
        if (len < nv * (size_t)width)
            return floe__pq_corrupt(w, "PLAIN values past end of page");
        memcpy(dst, p, nv * (size_t)width);
        break;
    case FLOE_PQ_ENC_BYTE_STREAM_SPLIT:
        FLOE_TRY(floe__pq_bss_decode(p, len, nv, width, dst, w));
        break;
    case FLOE_PQ_ENC_DELTA_BINARY_PACKED: {
        if (el->type != FLOE_PQ_INT32 && el->type != FLOE_PQ_INT64)
            return floe__pq_corrupt(w, "DELTA_BINARY_PACKED on a non-integer column");
        int64_t *tmp = floe__malloc((nv ? nv : 1) * sizeof(int64_t));
        if (!tmp)
            return floe__error_nomem();
        size_t cnt;
        int64_t used = floe__pq_delta_decode(p, len, tmp, nv, &cnt, w);
        int rc = used < 0 ? (int)used : 0;
        if (rc == 0 && cnt != nv)
            rc = floe__pq_corrupt(w, "DELTA_BINARY_PACKED holds %zu values, expected %zu", cnt, nv);
        if (rc == 0) {
            for (size_t i = 0; i < nv; i++) {
                if (width == 4) {
                    int32_t v = (int32_t)tmp[i];
                    memcpy(dst + i * 4, &v, 4);
                } else {
                    memcpy(dst + i * 8, &tmp[i], 8);
                }
            }
        }
        floe__free(tmp);
        FLOE_TRY(rc);
        break;
    }
    case FLOE_PQ_ENC_DELTA_BYTE_ARRAY:
    case FLOE_PQ_ENC_DELTA_LENGTH_BYTE_ARRAY: {
        /* fixed-length values stored with a byte-array encoding */
        floe_pq_binvals tmp = {0};
        int rc = floe__pq_decode_bytes(encoding, p, len, nv, 0, &tmp, w);
        for (size_t i = 0; rc == 0 && i < nv; i++) {
            if (tmp.offsets[i + 1] - tmp.offsets[i] != width)
                rc = floe__pq_corrupt(w, "fixed value of wrong length");
            else
                memcpy(dst + i * (size_t)width, tmp.data.ptr + tmp.offsets[i], (size_t)width);
        }
        floe__pq_binvals_free(&tmp);
        FLOE_TRY(rc);
        break;
    }
    default:
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "unsupported encoding %s in %s",
                           floe__pq_encoding_name(encoding), w->file);
    }
    d->fixed.len += nv * (size_t)width;
    d->nvals += nv;
    return 0;
}

static size_t count_defined(const floe_pq_leafdata *d, size_t from, size_t n, int16_t max_def)
{
    if (max_def == 0)
        return n;
    const uint16_t *def = (const uint16_t *)d->def.ptr + from;
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += def[i] == max_def;
    return c;
}

/* Before allocating a page's decompression buffer: the size must be sane
 * and agree with what the compressed stream itself declares (zstd frame
 * header, snappy preamble), so a hostile header cannot demand gigabytes. */
#define MAX_PAGE_BYTES ((size_t)1 << 30)

static int check_page_size(int codec, const uint8_t *src, size_t n, size_t ulen,
                           const floe_pq_where *w)
{
    if (ulen > MAX_PAGE_BYTES)
        return floe__pq_corrupt(w, "page of %zu uncompressed bytes", ulen);
    if (codec == FLOE_PQ_CODEC_ZSTD) {
        unsigned long long fs = ZSTD_getFrameContentSize(src, n);
        if (fs == ZSTD_CONTENTSIZE_ERROR)
            return floe__pq_corrupt(w, "zstd: bad frame header");
        if (fs != ZSTD_CONTENTSIZE_UNKNOWN && fs != ulen && n && ulen &&
            ZSTD_findFrameCompressedSize(src, n) == n)
            return floe__pq_corrupt(w, "zstd frame holds %llu bytes, page header says %zu", fs,
                                    ulen);
    } else if (codec == FLOE_PQ_CODEC_SNAPPY) {
        size_t sl;
        if (snappy_uncompressed_length((const char *)src, n, &sl) != SNAPPY_OK || sl != ulen)
            return floe__pq_corrupt(w, "snappy length disagrees with the page header");
    } else if (codec == FLOE_PQ_CODEC_UNCOMPRESSED && n != ulen) {
        return floe__pq_corrupt(w, "uncompressed page size %zu != %zu", n, ulen);
    }
    return 0;
}

int floe__pq_chunk_begin(floe_input *in, const floe_pq_column_chunk *cc, const floe_pq_node *leaf,
                         floe_pq_leafdata *d, bool whole)
{
    const floe_pq_column_meta *m = &cc->meta_data;
    const floe_pq_schema_element *el = leaf->el;
    floe_pq_where w = {in->uri, 0};
    floe__pq_leafdata_reset(d);
    d->in = in;
    d->cc = cc;
    d->leaf = leaf;
    d->width = phys_width(el);
    if (el->type == FLOE_PQ_FIXED_LEN_BYTE_ARRAY && d->width <= 0)
        return floe__pq_corrupt(&w, "fixed column without length");
    if (!cc->has_meta_data)
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "column chunk without metadata in %s",
                           in->uri);
    if (cc->file_path)
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "column chunk in another file (%s) in %s",
                           cc->file_path, in->uri);
    int64_t start = m->data_page_offset;
    if (m->has_dictionary_page_offset && m->dictionary_page_offset > 0 &&
        m->dictionary_page_offset < start)
        start = m->dictionary_page_offset;
    int64_t size = m->total_compressed_size;
    w.offset = start;
    if (start < 4 || size < 0 || start > in->size || size > in->size - start)
        return floe__pq_corrupt(&w, "column chunk [%lld, +%lld) outside the file",
                                (long long)start, (long long)size);
    if (m->num_values < 0)
        return floe__pq_corrupt(&w, "negative num_values");
    floe__buf_clear(&d->raw);
    FLOE_TRY(floe__buf_reserve(&d->raw, (size_t)size));
    FLOE_TRY(in->read_at(in, start, d->raw.ptr, (size_t)size));
    d->raw.len = (size_t)size;
    d->start = start;
    d->at = 0;
    d->total = 0;
    d->seen_data = false;
    if (!whole)
        return 0;
    /* Size the outputs once from the footer's count (bounded by what the
     * chunk's bytes could plausibly hold, so a hostile count cannot force a
     * huge allocation up front; growth past it is incremental). */
    uint64_t cap = (uint64_t)size * 64 + 4096;
    int64_t want = m->num_values;
    size_t pre = (size_t)((uint64_t)want < cap ? (uint64_t)want : cap);
    if (leaf->max_def > 0)
        FLOE_TRY(floe__buf_reserve(&d->def, pre * 2));
    if (leaf->max_rep > 0)
        FLOE_TRY(floe__buf_reserve(&d->rep, pre * 2));
    if (d->width)
        FLOE_TRY(floe__buf_reserve(&d->fixed, pre * (size_t)d->width));
    else
        FLOE_TRY(floe__pq_binvals_reserve(&d->bin, pre));
    return 0;
}

/* Drop the level entries [0, epos) and values [0, vpos) a batch has
 * consumed, moving the rest to the front (a page decoded past the batch's
 * end). Buffers handed to a batch whole (`moved`) hold nothing to keep. */
static void drop_consumed(floe_pq_leafdata *d)
{
    size_t e = d->epos, v = d->vpos;
    size_t ne = d->n - e, nv = d->nvals - v;
    if (d->def.len) {
        memmove(d->def.ptr, d->def.ptr + e * 2, ne * 2);
        d->def.len = ne * 2;
    }
    if (d->rep.len) {
        memmove(d->rep.ptr, d->rep.ptr + e * 2, ne * 2);
        d->rep.len = ne * 2;
    }
    if (d->width) {
        if (nv)
            memmove(d->fixed.ptr, d->fixed.ptr + v * (size_t)d->width, nv * (size_t)d->width);
        d->fixed.len = nv * (size_t)d->width;
    } else if (d->bin.offsets) {
        int32_t base = d->bin.offsets[v], endo = d->bin.offsets[v + nv];
        if (endo > base)
            memmove(d->bin.data.ptr, d->bin.data.ptr + base, (size_t)(endo - base));
        for (size_t k = 0; k <= nv; k++)
            d->bin.offsets[k] = d->bin.offsets[v + k] - base;
        d->bin.n = nv;
        d->bin.data.len = (size_t)(endo - base);
    } else {
        d->bin.n = 0;
        d->bin.data.len = 0;
    }
    d->n = ne;
    d->nvals = nv;
    d->eb = d->ee = d->epos = 0;
    d->vb = d->ve = d->vpos = 0;
    d->moved = false;
}

int floe__pq_chunk_more(floe_pq_leafdata *d, size_t need)
{
    floe_input *in = d->in;
    const floe_pq_column_chunk *cc = d->cc;
    const floe_pq_column_meta *m = &cc->meta_data;
    const floe_pq_node *leaf = d->leaf;
    const floe_pq_schema_element *el = leaf->el;
    floe_pq_where w = {in->uri, d->start + (int64_t)d->at};
    if (d->n - d->epos >= need)
        return 0;
    if (d->epos || d->vpos || d->moved)
        drop_consumed(d);
    size_t target = need;
    int64_t want = m->num_values;
    int64_t start = d->start;
    const uint8_t *raw = (const uint8_t *)d->raw.ptr;
    const uint8_t *p = raw + d->at, *end = raw + d->raw.len;
    while (d->n < target && (int64_t)d->total < want && p < end) {
        floe_pq_page_header ph;
        size_t hl;
        int64_t here = start + (p - (const uint8_t *)d->raw.ptr);
        FLOE_TRY(floe__pq_decode_page_header(&ph, p, (size_t)(end - p), here, in->uri, &hl));
        p += hl;
        w.offset = here + (int64_t)hl;
        if (ph.compressed_page_size > end - p)
            return floe__pq_corrupt(&w, "page of %d bytes past end of column chunk",
                                    ph.compressed_page_size);
        const uint8_t *body = p;
        size_t blen = (size_t)ph.compressed_page_size;
        p += blen;
        if (ph.type == FLOE_PQ_PAGE_DICTIONARY) {
            if (d->seen_data || d->ndict)
                return floe__pq_corrupt(&w, "dictionary page after data");
            if (!ph.has_dict)
                return floe__pq_corrupt(&w, "dictionary page without header");
            floe__buf_clear(&d->page);
            FLOE_TRY(check_page_size(m->codec, body, blen, (size_t)ph.uncompressed_page_size, &w));
            FLOE_TRY(floe__buf_reserve(&d->page, (size_t)ph.uncompressed_page_size));
            FLOE_TRY(floe__pq_decompress_ctx(m->codec, d->zctx, body, blen, d->page.ptr,
                                         (size_t)ph.uncompressed_page_size, &w));
            size_t nd = (size_t)ph.dict_num_values;
            const uint8_t *dp = (const uint8_t *)d->page.ptr;
            size_t dl = (size_t)ph.uncompressed_page_size;
            if (d->width) {
                if (nd * (size_t)d->width > dl)
                    return floe__pq_corrupt(&w, "dictionary of %zu values past end of page", nd);
                FLOE_TRY(floe__buf_put(&d->dict_fixed, dp, nd * (size_t)d->width));
            } else {
                if (nd > dl / 4 + 1)
                    return floe__pq_corrupt(&w, "dictionary count %zu too large", nd);
                FLOE_TRY(floe__pq_decode_bytes(FLOE_PQ_ENC_PLAIN, dp, dl, nd, 0, &d->dict_bin, &w));
            }
            d->ndict = nd;
            continue;
        }
        if (ph.type != FLOE_PQ_PAGE_DATA && ph.type != FLOE_PQ_PAGE_DATA_V2)
            continue; /* index pages and unknown pages are skipped */
        d->seen_data = true;
        size_t nlev = (size_t)ph.num_values;
        if ((int64_t)nlev > want - (int64_t)d->total)
            return floe__pq_corrupt(&w, "page holds more values than the column chunk");
        /* RLE runs describe many values in few bytes, but not without limit:
         * refuse counts no writer produces, before allocating for them */
        if (nlev > ((size_t)1 << 24) && nlev / 64 > (size_t)ph.uncompressed_page_size)
            return floe__pq_corrupt(&w, "page claims %zu values in %d bytes", nlev,
                                    ph.uncompressed_page_size);
        const uint8_t *vals;
        size_t vlen;
        size_t lev_at = d->n;
        bool all_defined = false;
        if (ph.type == FLOE_PQ_PAGE_DATA) {
            if (!ph.has_data)
                return floe__pq_corrupt(&w, "data page without header");
            floe__buf_clear(&d->page);
            FLOE_TRY(check_page_size(m->codec, body, blen, (size_t)ph.uncompressed_page_size, &w));
            FLOE_TRY(floe__buf_reserve(&d->page, (size_t)ph.uncompressed_page_size));
            FLOE_TRY(floe__pq_decompress_ctx(m->codec, d->zctx, body, blen, d->page.ptr,
                                         (size_t)ph.uncompressed_page_size, &w));
            const uint8_t *q = (const uint8_t *)d->page.ptr;
            const uint8_t *qe = q + ph.uncompressed_page_size;
            if (leaf->max_rep > 0) {
                if (ph.rep_encoding != FLOE_PQ_ENC_RLE)
                    return floe__error(FLOE_EUNSUPPORTED, "parquet",
                                       "repetition level encoding %s in %s",
                                       floe__pq_encoding_name(ph.rep_encoding), in->uri);
                uint32_t l;
                if (qe - q < 4 || (memcpy(&l, q, 4), l > (size_t)(qe - q - 4)))
                    return floe__pq_corrupt(&w, "bad repetition levels length");
                FLOE_TRY(read_levels(q + 4, l, nlev, leaf->max_rep, &d->rep, &w, NULL));
                q += 4 + l;
            }
            if (leaf->max_def > 0) {
                if (ph.def_encoding != FLOE_PQ_ENC_RLE)
                    return floe__error(FLOE_EUNSUPPORTED, "parquet",
                                       "definition level encoding %s in %s",
                                       floe__pq_encoding_name(ph.def_encoding), in->uri);
                uint32_t l;
                if (qe - q < 4 || (memcpy(&l, q, 4), l > (size_t)(qe - q - 4)))
                    return floe__pq_corrupt(&w, "bad definition levels length");
                FLOE_TRY(read_levels(q + 4, l, nlev, leaf->max_def, &d->def, &w, &all_defined));
                q += 4 + l;
            }
            vals = q;
            vlen = (size_t)(qe - q);
        } else {
            if (!ph.has_v2)
                return floe__pq_corrupt(&w, "data page v2 without header");
            size_t rl = (size_t)ph.rep_levels_byte_length, dl = (size_t)ph.def_levels_byte_length;
            if (rl + dl > blen || rl + dl > (size_t)ph.uncompressed_page_size)
                return floe__pq_corrupt(&w, "levels past end of page");
            if (leaf->max_rep > 0)
                FLOE_TRY(read_levels(body, rl, nlev, leaf->max_rep, &d->rep, &w, NULL));
            if (leaf->max_def > 0)
                FLOE_TRY(read_levels(body + rl, dl, nlev, leaf->max_def, &d->def, &w,
                                     &all_defined));
            size_t ulen = (size_t)ph.uncompressed_page_size - rl - dl;
            if (ph.is_compressed && m->codec != FLOE_PQ_CODEC_UNCOMPRESSED) {
                floe__buf_clear(&d->page);
                FLOE_TRY(check_page_size(m->codec, body + rl + dl, blen - rl - dl, ulen, &w));
                FLOE_TRY(floe__buf_reserve(&d->page, ulen));
                FLOE_TRY(floe__pq_decompress_ctx(m->codec, d->zctx, body + rl + dl, blen - rl - dl,
                                             d->page.ptr, ulen, &w));
                vals = (const uint8_t *)d->page.ptr;
                vlen = ulen;
            } else {
                vals = body + rl + dl;
                vlen = blen - rl - dl;
            }
        }
        d->n += nlev;
        d->total += nlev;
        size_t nv = all_defined ? nlev : count_defined(d, lev_at, nlev, leaf->max_def);
        FLOE_TRY(decode_values(d, el, ph.encoding, vals, vlen, nv, &w));
    }
    d->at = (size_t)(p - (const uint8_t *)d->raw.ptr);
    if ((int64_t)d->total >= want || p >= end) {
        if ((int64_t)d->total != want)
            return floe__pq_corrupt(&w, "column chunk holds %zu values, footer says %lld",
                                    d->total, (long long)want);
    }
    return 0;
}

int floe__pq_read_chunk(floe_input *in, const floe_pq_column_chunk *cc, const floe_pq_node *leaf,
                        floe_pq_leafdata *d)
{
    FLOE_TRY(floe__pq_chunk_begin(in, cc, leaf, d, true));
    return floe__pq_chunk_more(d, SIZE_MAX);
}

/* Values among level entries [from, from + k) (defined ones). */
static size_t values_in(const floe_pq_leafdata *d, size_t from, size_t k)
{
    if (d->nvals - d->vpos == d->n - d->epos)
        return k; /* every entry from epos on has its value */
    return count_defined(d, from, k, d->leaf->max_def);
}

int floe__pq_chunk_skip(floe_pq_leafdata *d, size_t skip)
{
    const floe_pq_column_meta *m = &d->cc->meta_data;
    floe_input *in = d->in;
    while (skip) {
        size_t avail = d->n - d->epos;
        if (avail) {
            size_t k = avail < skip ? avail : skip;
            d->vpos += values_in(d, d->epos, k);
            d->epos += k;
            skip -= k;
            continue;
        }
        /* nothing decoded is left: pass over whole data pages unread */
        const uint8_t *raw = (const uint8_t *)d->raw.ptr;
        const uint8_t *p = raw + d->at, *end = raw + d->raw.len;
        if (p < end && (int64_t)d->total < m->num_values) {
            floe_pq_page_header ph;
            size_t hl;
            int64_t here = d->start + (int64_t)d->at;
            FLOE_TRY(floe__pq_decode_page_header(&ph, p, (size_t)(end - p), here, in->uri, &hl));
            bool data = ph.type == FLOE_PQ_PAGE_DATA || ph.type == FLOE_PQ_PAGE_DATA_V2;
            if (data && ph.num_values >= 0 && (size_t)ph.num_values <= skip &&
                ph.compressed_page_size <= end - p - (ptrdiff_t)hl) {
                floe_pq_where w = {in->uri, here};
                if ((int64_t)ph.num_values > m->num_values - (int64_t)d->total)
                    return floe__pq_corrupt(&w, "page holds more values than the column chunk");
                d->at += hl + (size_t)ph.compressed_page_size;
                d->total += (size_t)ph.num_values ;
                d->seen_data = true;
                skip -= (size_t)ph.num_values;
                continue;
            }
        }
        /* a dictionary page, or a page the skip ends inside: decode it */
        size_t before = d->total;
        FLOE_TRY(floe__pq_chunk_more(d, 1));
        if (d->total == before && d->n == d->epos)
            return floe__pq_corrupt(&(floe_pq_where){in->uri, d->start + (int64_t)d->at},
                                    "column chunk ends %zu values early", skip);
    }
    return 0;
}
