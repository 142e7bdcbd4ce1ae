/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Avro Object Container Files (Avro 1.11 "Object Container Files"):
 *   header = "Obj" 0x01, metadata map<bytes> (avro.schema, avro.codec and
 *            Iceberg's own keys), 16-byte sync marker;
 *   block  = object count (long), byte size (long), the (compressed)
 *            objects, the sync marker again.
 * The reader walks blocks over a caller-owned memory buffer; with the null
 * codec block bytes are decoded in place. The writer buffers objects of the
 * current block and compresses it when it passes the block size.
 */
#include "avro.h"

#include <string.h>

static const uint8_t magic[4] = {'O', 'b', 'j', 1};

static int hdr_error(const floe_avro_file *f, size_t off, const char *what)
{
    return floe__error(FLOE_ECORRUPT, "avro", "%s at offset %zu in %s", what, off, f->source);
}

void floe_avro_file_free(floe_avro_file *f)
{
    if (!f)
        return;
    floe__arena_free(f->arena);
    floe__buf_free(&f->block);
    floe__free(f);
}

static int parse_header(floe_avro_file *f)
{
    if (f->len < 4 || memcmp(f->data, magic, 4) != 0)
        return hdr_error(f, 0, "not an Avro object container file (bad magic)");
    floe_avro_cursor c = {f->data + 4, f->data + f->len, f->data, f->source, 0, -1};
    size_t cap = 0;
    for (;;) {
        int64_t n;
        FLOE_TRY(floe_avro_read_block_count(&c, 2, &n));
        if (n == 0)
            break;
        if (f->nmeta + (size_t)n > 4096)
            return hdr_error(f, (size_t)(c.p - c.start), "too many header metadata entries");
        if (f->nmeta + (size_t)n > cap) {
            size_t ncap = f->nmeta + (size_t)n;
            floe_avro_meta *m = floe__arena_alloc(f->arena, ncap * sizeof *m);
            if (!m)
                return floe__error_nomem();
            if (f->nmeta)
                memcpy(m, f->meta, f->nmeta * sizeof *m);
            f->meta = m;
            cap = ncap;
        }
        for (int64_t i = 0; i < n; i++) {
            const uint8_t *k, *v;
            size_t klen, vlen;
            FLOE_TRY(floe_avro_read_bytes(&c, &k, &klen));
            FLOE_TRY(floe_avro_read_bytes(&c, &v, &vlen));
            if (vlen > FLOE_AVRO_MAX_META)
                return hdr_error(f, (size_t)(c.p - c.start), "header metadata value too large");
            floe_avro_meta *m = &f->meta[f->nmeta++];
            if (!(m->key = floe__arena_strndup(f->arena, (const char *)k, klen)))
                return floe__error_nomem();
            m->value = v;
            m->len = vlen;
        }
    }
    const uint8_t *sync;
    FLOE_TRY(floe_avro_read_raw(&c, 16, &sync));
    memcpy(f->sync, sync, 16);
    f->header_len = f->pos = (size_t)(c.p - c.start);

    size_t slen;
    const uint8_t *sj = floe_avro_file_meta(f, "avro.schema", &slen);
    if (!sj)
        return hdr_error(f, 4, "header without avro.schema");
    char *copy = floe__arena_strndup(f->arena, (const char *)sj, slen);
    if (!copy)
        return floe__error_nomem();
    f->schema_json = copy;
    FLOE_TRY(floe_avro_schema_parse(&f->schema, f->arena, copy, slen, f->source));

    size_t clen;
    const uint8_t *cn = floe_avro_file_meta(f, "avro.codec", &clen);
    f->codec = FLOE_AVRO_CODEC_NULL;
    if (cn && floe_avro_codec_from_name((const char *)cn, clen, &f->codec) < 0)
        return floe__error(FLOE_ECORRUPT, "avro", "unknown codec '%.*s' in %s",
                           (int)(clen > 64 ? 64 : clen), (const char *)cn, f->source);
    return 0;
}

int floe_avro_file_open(floe_avro_file **out, const uint8_t *data, size_t len, const char *source)
{
    *out = NULL;
    floe_avro_file *f = floe__calloc(1, sizeof *f);
    if (!f)
        return floe__error_nomem();
    f->source = source ? source : "(memory)";
    f->data = data;
    f->len = len;
    f->arena = floe__arena_new(4096);
    if (!f->arena) {
        floe__free(f);
        return floe__error_nomem();
    }
    int rc = parse_header(f);
    if (rc < 0) {
        floe_avro_file_free(f);
        return rc;
    }
    *out = f;
    return 0;
}

const uint8_t *floe_avro_file_meta(const floe_avro_file *f, const char *key, size_t *len)
{
    for (size_t i = 0; i < f->nmeta; i++)
        if (strcmp(f->meta[i].key, key) == 0) {
            if (len)
                *len = f->meta[i].len;
            return f->meta[i].value ? f->meta[i].value : (const uint8_t *)"";
        }
    return NULL;
}

const char *floe_avro_file_meta_str(floe_avro_file *f, const char *key)
{
    size_t len;
    const uint8_t *v = floe_avro_file_meta(f, key, &len);
    if (!v)
        return NULL;
    char *s = floe__arena_strndup(f->arena, (const char *)v, len);
    if (!s)
        floe__error_nomem();
    return s;
}

int floe_avro_file_next_block(floe_avro_file *f, floe_avro_cursor *cur, int64_t *count)
{
    if (f->pos == f->len)
        return FLOE_ITEROVER;
    floe_avro_cursor c = {f->data + f->pos, f->data + f->len, f->data, f->source, 0, -1};
    size_t block_off = f->pos;
    int64_t n, size;
    FLOE_TRY(floe_avro_read_long(&c, &n));
    if (n < 0)
        return hdr_error(f, block_off, "negative block object count");
    FLOE_TRY(floe_avro_read_long(&c, &size));
    if (size < 0)
        return hdr_error(f, block_off, "negative block size");
    if ((uint64_t)size > (uint64_t)(c.end - c.p) || (size_t)(c.end - c.p) - (size_t)size < 16)
        return hdr_error(f, block_off, "truncated block (size exceeds the file)");
    const uint8_t *payload = c.p;
    size_t payload_off = (size_t)(c.p - c.start);
    const uint8_t *sync = payload + size;
    if (memcmp(sync, f->sync, 16) != 0)
        return hdr_error(f, (size_t)(sync - f->data), "sync marker mismatch");
    if (f->codec == FLOE_AVRO_CODEC_NULL) {
        if ((uint64_t)size > FLOE_AVRO_MAX_BLOCK)
            return hdr_error(f, block_off, "block larger than the 256 MiB limit");
        cur->p = cur->start = payload;
        cur->end = payload + size;
        cur->file_offset = (int64_t)payload_off;
        cur->block_offset = -1;
    } else {
        FLOE_TRY(floe_avro_decompress(f->codec, payload, (size_t)size, &f->block, f->source,
                                      (int64_t)block_off));
        cur->p = cur->start = (const uint8_t *)f->block.ptr;
        cur->end = cur->p + f->block.len;
        cur->file_offset = -1;
        cur->block_offset = (int64_t)block_off;
    }
    cur->source = f->source;
    size_t decoded = (size_t)(cur->end - cur->p);
    size_t min = floe_avro_min_size(f->schema);
    if ((min > 0 && (uint64_t)n > decoded / min) || (min == 0 && n > (int64_t)1 << 24))
        return hdr_error(f, block_off, "block object count exceeds the block size");
    f->pos = (size_t)(sync - f->data) + 16;
    f->blocks++;
    *count = n;
    return 0;
}

/* ---------------------------------------------------------------- writer */

struct floe_avro_writer {
    floe_buf *dst;
    floe_avro_codec codec;
    int level;
    uint8_t sync[16];
    floe_buf objects; /* encoded objects of the current block */
    floe_buf packed;  /* compressed block (reused) */
    int64_t count;
    size_t block_size;
};

static int put_meta(floe_buf *b, const char *k, const char *v)
{
    FLOE_TRY(floe_avro_put_string(b, k));
    return floe_avro_put_string(b, v);
}

int floe_avro_writer_new(floe_avro_writer **out, floe_buf *dst, const char *schema_json,
                         floe_avro_codec codec, int level, const floe_kv *meta, size_t nmeta)
{
    *out = NULL;
    floe_avro_writer *w = floe__calloc(1, sizeof *w);
    if (!w)
        return floe__error_nomem();
    w->dst = dst;
    w->codec = codec;
    w->level = level;
    w->block_size = (size_t)64 * 1024;
    int rc = floe__random_bytes(w->sync, 16);
    if (rc < 0)
        goto fail;
    if ((rc = floe__buf_put(dst, magic, 4)) < 0 ||
        (rc = floe_avro_put_long(dst, (int64_t)nmeta + 2)) < 0)
        goto fail;
    for (size_t i = 0; i < nmeta; i++)
        if ((rc = put_meta(dst, meta[i].key, meta[i].value)) < 0)
            goto fail;
    if ((rc = put_meta(dst, "avro.schema", schema_json)) < 0 ||
        (rc = put_meta(dst, "avro.codec", floe_avro_codec_name(codec))) < 0 ||
        (rc = floe_avro_put_long(dst, 0)) < 0 || (rc = floe__buf_put(dst, w->sync, 16)) < 0)
        goto fail;
    *out = w;
    return 0;
fail:
    floe_avro_writer_free(w);
    return rc;
}

floe_buf *floe_avro_writer_buf(floe_avro_writer *w)
{
    return &w->objects;
}

void floe_avro_writer_set_block_size(floe_avro_writer *w, size_t bytes)
{
    w->block_size = bytes ? bytes : 1;
}

static int flush(floe_avro_writer *w)
{
    if (w->count == 0)
        return 0;
    floe__buf_clear(&w->packed);
    FLOE_TRY(floe_avro_compress(w->codec, w->level, (const uint8_t *)w->objects.ptr, w->objects.len,
                                &w->packed));
    FLOE_TRY(floe_avro_put_long(w->dst, w->count));
    FLOE_TRY(floe_avro_put_long(w->dst, (int64_t)w->packed.len));
    FLOE_TRY(floe__buf_put(w->dst, w->packed.ptr, w->packed.len));
    FLOE_TRY(floe__buf_put(w->dst, w->sync, 16));
    floe__buf_clear(&w->objects);
    w->count = 0;
    return 0;
}

int floe_avro_writer_commit(floe_avro_writer *w)
{
    w->count++;
    if (w->objects.len >= w->block_size)
        return flush(w);
    return 0;
}

int floe_avro_writer_finish(floe_avro_writer *w)
{
    return flush(w);
}

void floe_avro_writer_free(floe_avro_writer *w)
{
    if (!w)
        return;
    floe__buf_free(&w->objects);
    floe__buf_free(&w->packed);
    floe__free(w);
}
