/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/puffin: deletion-vector blobs and the Puffin files holding them
 * (puffin.h).
 */
#include "table/puffin.h"
#include "lazy/lz4.h"
#include "spec/spec.h"

#include <string.h>
#include <zlib.h>

#define SERIAL_COOKIE_NO_RUN 12346
#define SERIAL_COOKIE 12347
#define NO_OFFSET_THRESHOLD 4
#define ARRAY_MAX 4096 /* containers above this cardinality are bitmaps */

static int put_u16le(floe_buf *b, uint32_t v)
{
    uint8_t p[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    return floe__buf_put(b, p, 2);
}

static int put_u32le(floe_buf *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return floe__buf_put(b, p, 4);
}

static int put_u32be(floe_buf *b, uint32_t v)
{
    uint8_t p[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    return floe__buf_put(b, p, 4);
}

/* One 16-bit container: the low 16 bits of pos[from, to). */
typedef struct container {
    uint16_t key;
    size_t from, to;
    size_t runs;
    int kind; /* 0 array, 1 bitmap, 2 run */
} container;

static size_t container_size(const container *c)
{
    size_t card = c->to - c->from;
    return c->kind == 2 ? 2 + 4 * c->runs : c->kind == 1 ? 8192 : 2 * card;
}

static int put_container(floe_buf *b, const container *c, const int64_t *pos)
{
    if (c->kind == 0) {
        for (size_t i = c->from; i < c->to; i++)
            FLOE_TRY(put_u16le(b, (uint32_t)(pos[i] & 0xffff)));
        return 0;
    }
    if (c->kind == 2) {
        FLOE_TRY(put_u16le(b, (uint32_t)c->runs));
        for (size_t i = c->from; i < c->to;) {
            size_t j = i;
            while (j + 1 < c->to && pos[j + 1] == pos[j] + 1)
                j++;
            FLOE_TRY(put_u16le(b, (uint32_t)(pos[i] & 0xffff)));
            FLOE_TRY(put_u16le(b, (uint32_t)(j - i)));
            i = j + 1;
        }
        return 0;
    }
    uint64_t words[1024];
    memset(words, 0, sizeof words);
    for (size_t i = c->from; i < c->to; i++) {
        uint32_t low = (uint32_t)(pos[i] & 0xffff);
        words[low >> 6] |= (uint64_t)1 << (low & 63);
    }
    for (size_t w = 0; w < 1024; w++) {
        uint8_t p[8];
        for (int k = 0; k < 8; k++)
            p[k] = (uint8_t)(words[w] >> (8 * k));
        FLOE_TRY(floe__buf_put(b, p, 8));
    }
    return 0;
}

/* The 32-bit portable Roaring format of pos[from, to) (one high key). */
static int roaring32(floe_buf *b, const int64_t *pos, size_t from, size_t to)
{
    size_t ncont = 0;
    for (size_t i = from; i < to; i++)
        if (i == from || ((pos[i] >> 16) & 0xffff) != ((pos[i - 1] >> 16) & 0xffff))
            ncont++;
    container *cs = floe__calloc(ncont ? ncont : 1, sizeof *cs);
    if (!cs)
        return floe__error_nomem();
    size_t k = 0;
    bool has_run = false;
    for (size_t i = from; i < to; k++) {
        container *c = &cs[k];
        c->key = (uint16_t)((pos[i] >> 16) & 0xffff);
        c->from = i;
        while (i < to && (uint16_t)((pos[i] >> 16) & 0xffff) == c->key) {
            if (i == c->from || pos[i] != pos[i - 1] + 1)
                c->runs++;
            i++;
        }
        c->to = i;
        size_t card = c->to - c->from;
        c->kind = card <= ARRAY_MAX ? 0 : 1;
        /* runOptimize: a run container when it is smaller */
        if (2 + 4 * c->runs < container_size(c)) {
            c->kind = 2;
            has_run = true;
        }
    }
    size_t start = b->len;
    int rc;
    if (has_run) {
        rc = put_u32le(b, SERIAL_COOKIE | ((uint32_t)(ncont - 1) << 16));
        for (size_t byte = 0; rc == 0 && byte < (ncont + 7) / 8; byte++) {
            uint8_t bits = 0;
            for (size_t j = 0; j < 8 && byte * 8 + j < ncont; j++)
                if (cs[byte * 8 + j].kind == 2)
                    bits |= (uint8_t)(1u << j);
            rc = floe__buf_put(b, &bits, 1);
        }
    } else {
        rc = put_u32le(b, SERIAL_COOKIE_NO_RUN);
        if (rc == 0)
            rc = put_u32le(b, (uint32_t)ncont);
    }
    for (size_t i = 0; rc == 0 && i < ncont; i++) {
        rc = put_u16le(b, cs[i].key);
        if (rc == 0)
            rc = put_u16le(b, (uint32_t)(cs[i].to - cs[i].from - 1));
    }
    if (rc == 0 && (!has_run || ncont >= NO_OFFSET_THRESHOLD)) {
        size_t off = b->len - start + 4 * ncont;
        for (size_t i = 0; rc == 0 && i < ncont; i++) {
            rc = put_u32le(b, (uint32_t)off);
            off += container_size(&cs[i]);
        }
    }
    for (size_t i = 0; rc == 0 && i < ncont; i++)
        rc = put_container(b, &cs[i], pos);
    floe__free(cs);
    return rc;
}

int floe__dv_encode(const int64_t *pos, size_t n, floe_buf *out)
{
    for (size_t i = 0; i < n; i++)
        if (pos[i] < 0 || (i && pos[i] <= pos[i - 1]))
            return floe__error(FLOE_EINVALID, "table",
                               "deletion vector positions must be sorted, distinct and >= 0");
    size_t start = out->len;
    FLOE_TRY(put_u32be(out, 0)); /* length, set below */
    static const uint8_t magic[4] = {0xD1, 0xD3, 0x39, 0x64};
    FLOE_TRY(floe__buf_put(out, magic, 4));
    uint64_t nkeys = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || (pos[i] >> 32) != (pos[i - 1] >> 32))
            nkeys++;
    FLOE_TRY(put_u32le(out, (uint32_t)nkeys));
    FLOE_TRY(put_u32le(out, (uint32_t)(nkeys >> 32)));
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && (pos[j] >> 32) == (pos[i] >> 32))
            j++;
        FLOE_TRY(put_u32le(out, (uint32_t)(pos[i] >> 32)));
        FLOE_TRY(roaring32(out, pos, i, j));
        i = j;
    }
    size_t len = out->len - start - 4;
    if (len > UINT32_MAX)
        return floe__error(FLOE_EUNSUPPORTED, "table", "deletion vector over 4 GiB");
    uint8_t *p = (uint8_t *)out->ptr + start;
    p[0] = (uint8_t)(len >> 24);
    p[1] = (uint8_t)(len >> 16);
    p[2] = (uint8_t)(len >> 8);
    p[3] = (uint8_t)len;
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, (const Bytef *)out->ptr + start + 4, (uInt)len);
    return put_u32be(out, (uint32_t)crc);
}

/* ---------------------------------------------------------------- Puffin files */

static const char PUFFIN_MAGIC[4] = {'P', 'F', 'A', '1'};

int floe__puffin_writer_init(floe_puffin_writer *w)
{
    memset(w, 0, sizeof *w);
    return floe__buf_put(&w->bytes, PUFFIN_MAGIC, 4);
}

int floe__puffin_add_dv(floe_puffin_writer *w, const char *referenced_data_file,
                        const int64_t *pos, size_t n, floe_puffin_blob_info *out)
{
    size_t start = w->bytes.len;
    int rc = floe__dv_encode(pos, n, &w->bytes);
    if (rc < 0) {
        w->bytes.len = start;
        return rc;
    }
    out->offset = (int64_t)start;
    out->length = (int64_t)(w->bytes.len - start);
    FLOE_TRY(floe__buf_printf(&w->footer,
                              "%s{\"type\":\"deletion-vector-v1\",\"fields\":[],"
                              "\"snapshot-id\":-1,\"sequence-number\":-1,\"offset\":%lld,"
                              "\"length\":%lld,\"properties\":{\"referenced-data-file\":",
                              w->nblobs ? "," : "", (long long)out->offset,
                              (long long)out->length));
    FLOE_TRY(floe__json_put_str(&w->footer, referenced_data_file));
    FLOE_TRY(floe__buf_printf(&w->footer, ",\"cardinality\":\"%zu\"}}", n));
    w->nblobs++;
    return 0;
}

int floe__puffin_finish(floe_puffin_writer *w)
{
    FLOE_TRY(floe__buf_put(&w->bytes, PUFFIN_MAGIC, 4));
    size_t start = w->bytes.len;
    FLOE_TRY(floe__buf_puts(&w->bytes, "{\"blobs\":["));
    if (w->footer.len)
        FLOE_TRY(floe__buf_put(&w->bytes, w->footer.ptr, w->footer.len));
    FLOE_TRY(floe__buf_puts(&w->bytes, "],\"properties\":{\"created-by\":\"floe\"}}"));
    size_t len = w->bytes.len - start;
    FLOE_TRY(put_u32le(&w->bytes, (uint32_t)len));
    uint8_t flags[4] = {0, 0, 0, 0};
    FLOE_TRY(floe__buf_put(&w->bytes, flags, 4));
    FLOE_TRY(floe__buf_put(&w->bytes, PUFFIN_MAGIC, 4));
    return 0;
}

void floe__puffin_writer_free(floe_puffin_writer *w)
{
    floe__buf_free(&w->bytes);
    floe__buf_free(&w->footer);
}

/* ---------------------------------------------------------------- path rewrites */

static uint32_t get_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A string map ({"k":"v",...}) written again, `ref` passed through `map`. */
static int put_props(floe_buf *b, const floe_json *props, floe_puffin_ref_map map, void *payload)
{
    FLOE_TRY(floe__buf_putc(b, '{'));
    for (size_t i = 0; i < floe__json_len(props); i++) {
        const floe_json *v = floe__json_at(props, i);
        const char *s = floe__json_sval(v);
        if (!s)
            return floe__error(FLOE_ECORRUPT, "puffin", "footer property %s is not a string",
                               props->keys[i]);
        if (map && strcmp(props->keys[i], "referenced-data-file") == 0)
            FLOE_TRY(map(payload, s, &s));
        FLOE_TRY(floe__buf_puts(b, i ? "," : ""));
        FLOE_TRY(floe__json_put_str(b, props->keys[i]));
        FLOE_TRY(floe__buf_putc(b, ':'));
        FLOE_TRY(floe__json_put_str(b, s));
    }
    return floe__buf_putc(b, '}');
}

static int put_blob(floe_buf *b, const floe_json *blob, floe_puffin_ref_map map, void *payload)
{
    const floe_json *type = floe__json_get(blob, "type"), *fields = floe__json_get(blob, "fields"),
                    *sid = floe__json_get(blob, "snapshot-id"),
                    *seq = floe__json_get(blob, "sequence-number"),
                    *off = floe__json_get(blob, "offset"), *len = floe__json_get(blob, "length"),
                    *codec = floe__json_get(blob, "compression-codec"),
                    *props = floe__json_get(blob, "properties");
    if (!floe__json_is_string(type) || !floe__json_is_array(fields) ||
        !floe__json_is_integer(sid) || !floe__json_is_integer(seq) ||
        !floe__json_is_integer(off) || !floe__json_is_integer(len) ||
        (codec && !floe__json_is_string(codec) && !floe__json_is_null(codec)) ||
        (props && !floe__json_is_object(props)))
        return floe__error(FLOE_ECORRUPT, "puffin", "malformed blob metadata in the footer");
    FLOE_TRY(floe__buf_puts(b, "{\"type\":"));
    FLOE_TRY(floe__json_put_str(b, floe__json_sval(type)));
    FLOE_TRY(floe__buf_puts(b, ",\"fields\":["));
    for (size_t i = 0; i < floe__json_len(fields); i++) {
        const floe_json *f = floe__json_at(fields, i);
        if (!floe__json_is_integer(f))
            return floe__error(FLOE_ECORRUPT, "puffin", "blob field id is not an integer");
        FLOE_TRY(floe__buf_printf(b, "%s%lld", i ? "," : "", (long long)floe__json_ival(f)));
    }
    FLOE_TRY(floe__buf_printf(b, "],\"snapshot-id\":%lld,\"sequence-number\":%lld,\"offset\":%lld,"
                                 "\"length\":%lld",
                              (long long)floe__json_ival(sid), (long long)floe__json_ival(seq),
                              (long long)floe__json_ival(off), (long long)floe__json_ival(len)));
    if (floe__json_is_string(codec)) {
        FLOE_TRY(floe__buf_puts(b, ",\"compression-codec\":"));
        FLOE_TRY(floe__json_put_str(b, floe__json_sval(codec)));
    }
    if (props) {
        FLOE_TRY(floe__buf_puts(b, ",\"properties\":"));
        FLOE_TRY(put_props(b, props, map, payload));
    }
    return floe__buf_putc(b, '}');
}

/* An LZ4 frame expands at most ~255 times (a match of one byte run per
 * literal); a declared or decoded size beyond that, or beyond the cap, is
 * corrupt, so a small file cannot make floe allocate without bound. */
#define FOOTER_MAX ((size_t)256 << 20)
#define LZ4_MAX_RATIO 256

/* The compressed footer payload `p` (plen bytes, spec "Footer Payload": a
 * single LZ4 frame, content size present) decompressed into `out`. */
static int footer_lz4(const uint8_t *p, size_t plen, floe_buf *out)
{
    LZ4F_dctx *dctx = NULL;
    size_t e = LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION);
    if (LZ4F_isError(e) || !dctx)
        return floe__error(FLOE_EUNSUPPORTED, "puffin",
                           "cannot read an LZ4-compressed Puffin footer: %s", LZ4F_getErrorName(e));
    size_t bound = plen < FOOTER_MAX / LZ4_MAX_RATIO ? plen * LZ4_MAX_RATIO + 64 : FOOTER_MAX;
    LZ4F_frameInfo_t fi;
    memset(&fi, 0, sizeof fi);
    size_t off = plen;
    e = LZ4F_getFrameInfo(dctx, &fi, p, &off);
    int rc = 0;
    if (LZ4F_isError(e))
        rc = floe__error(FLOE_ECORRUPT, "puffin", "bad LZ4 frame in the Puffin footer: %s",
                         LZ4F_getErrorName(e));
    else if (fi.contentSize > bound)
        rc = floe__error(FLOE_ECORRUPT, "puffin",
                         "LZ4 Puffin footer of %zu bytes declares %llu bytes of content", plen,
                         (unsigned long long)fi.contentSize);
    if (rc == 0)
        rc = floe__buf_reserve(out, fi.contentSize ? (size_t)fi.contentSize : plen * 4);
    size_t start = out->len;
    while (rc == 0) {
        if (out->cap - out->len < 2 && (rc = floe__buf_reserve(out, out->cap)) < 0)
            break;
        size_t dst = out->cap - out->len - 1, src = plen - off;
        e = LZ4F_decompress(dctx, out->ptr + out->len, &dst, p + off, &src, NULL);
        off += src;
        out->len += dst;
        if (LZ4F_isError(e))
            rc = floe__error(FLOE_ECORRUPT, "puffin", "bad LZ4 frame in the Puffin footer: %s",
                             LZ4F_getErrorName(e));
        else if (out->len - start > bound)
            rc = floe__error(FLOE_ECORRUPT, "puffin",
                             "LZ4 Puffin footer of %zu bytes expands past %zu bytes", plen, bound);
        else if (e == 0)
            break; /* the end of the frame */
        else if (off == plen && !dst)
            rc = floe__error(FLOE_ECORRUPT, "puffin", "LZ4 Puffin footer ends inside its frame");
    }
    if (rc == 0 && off != plen)
        rc = floe__error(FLOE_ECORRUPT, "puffin",
                         "%zu bytes after the LZ4 frame of the Puffin footer", plen - off);
    if (rc == 0 && fi.contentSize && out->len - start != fi.contentSize)
        rc = floe__error(FLOE_ECORRUPT, "puffin",
                         "LZ4 Puffin footer holds %zu bytes, its frame declares %llu",
                         out->len - start, (unsigned long long)fi.contentSize);
    if (out->ptr)
        out->ptr[out->len] = '\0';
    LZ4F_freeDecompressionContext(dctx);
    return rc;
}

int floe__puffin_rewrite_refs(const uint8_t *in, size_t n, floe_puffin_ref_map map, void *payload,
                              floe_buf *out)
{
    /* magic, blobs, magic, footer payload, u32 payload size, 4 flag bytes, magic */
    if (n < 20 || memcmp(in, PUFFIN_MAGIC, 4) != 0 || memcmp(in + n - 4, PUFFIN_MAGIC, 4) != 0)
        return floe__error(FLOE_ECORRUPT, "puffin", "not a Puffin file");
    size_t plen = get_u32le(in + n - 12);
    if (plen > n - 20 || memcmp(in + n - 12 - plen - 4, PUFFIN_MAGIC, 4) != 0)
        return floe__error(FLOE_ECORRUPT, "puffin", "bad Puffin footer length %zu", plen);
    size_t fstart = n - 12 - plen; /* the footer payload */
    floe_json *j = NULL;
    if (in[n - 8] & 1) { /* FooterPayloadCompressed: one LZ4 frame */
        floe_buf text = FLOE_BUF_INIT;
        int e = footer_lz4(in + fstart, plen, &text);
        if (e == 0)
            e = floe__json_parse(&j, (const uint8_t *)text.ptr, text.len, "Puffin footer");
        floe__buf_free(&text);
        FLOE_TRY(e);
    } else {
        FLOE_TRY(floe__json_parse(&j, in + fstart, plen, "Puffin footer"));
    }
    const floe_json *blobs = floe__json_get(j, "blobs"), *props = floe__json_get(j, "properties");
    int rc = floe__json_is_array(blobs) && (!props || floe__json_is_object(props))
                 ? 0
                 : floe__error(FLOE_ECORRUPT, "puffin", "malformed Puffin footer");
    /* the blobs stay where they are: their offsets hold */
    if (rc == 0)
        rc = floe__buf_put(out, in, fstart);
    size_t pstart = out->len;
    if (rc == 0)
        rc = floe__buf_puts(out, "{\"blobs\":[");
    for (size_t i = 0; rc == 0 && i < floe__json_len(blobs); i++) {
        rc = i ? floe__buf_putc(out, ',') : 0;
        if (rc == 0)
            rc = put_blob(out, floe__json_at(blobs, i), map, payload);
    }
    if (rc == 0 && props) {
        rc = floe__buf_puts(out, "],\"properties\":");
        if (rc == 0)
            rc = put_props(out, props, NULL, NULL);
        if (rc == 0)
            rc = floe__buf_putc(out, '}');
    } else if (rc == 0) {
        rc = floe__buf_puts(out, "]}");
    }
    floe__json_free(j);
    size_t len = out->len - pstart;
    uint8_t flags[4] = {0, 0, 0, 0};
    if (rc == 0)
        rc = put_u32le(out, (uint32_t)len);
    if (rc == 0)
        rc = floe__buf_put(out, flags, 4);
    if (rc == 0)
        rc = floe__buf_put(out, PUFFIN_MAGIC, 4);
    return rc;
}
