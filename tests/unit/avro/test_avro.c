/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Avro codec: schema JSON with Iceberg attributes, the four block
 * codecs, container round trips, and corrupt / truncated / hostile inputs,
 * which must fail with FLOE_ECORRUPT naming the file and a byte offset,
 * never crash and never allocate what a hostile length asks for.
 */
#include "../manifest/gen_fixture.h"
#include "avro/avro.h"
#include "harness.h"

#include <stdlib.h>
#include <zlib.h>

static const char *SCHEMA =
    "{\"type\":\"record\",\"name\":\"r\",\"fields\":["
    "{\"name\":\"id\",\"type\":\"long\",\"field-id\":1},"
    "{\"name\":\"name\",\"type\":[\"null\",\"string\"],\"default\":null,\"field-id\":2},"
    "{\"name\":\"m\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":"
    "\"k3_v4\",\"fields\":[{\"name\":\"key\",\"type\":\"int\",\"field-id\":3},{\"name\":"
    "\"value\",\"type\":\"bytes\",\"field-id\":4}]},\"logicalType\":\"map\"},\"field-id\":5},"
    "{\"name\":\"l\",\"type\":{\"type\":\"array\",\"items\":\"int\",\"element-id\":6},"
    "\"field-id\":7},"
    "{\"name\":\"sm\",\"type\":{\"type\":\"map\",\"values\":\"long\",\"key-id\":8,"
    "\"value-id\":9},\"field-id\":10},"
    "{\"name\":\"d\",\"type\":{\"type\":\"fixed\",\"name\":\"decimal_9_2\",\"size\":4,"
    "\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2},\"field-id\":11},"
    "{\"name\":\"d2\",\"type\":\"decimal_9_2\",\"field-id\":12},"
    "{\"name\":\"ts\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\","
    "\"adjust-to-utc\":true},\"field-id\":13},"
    "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]},"
    "\"field-id\":14},"
    "{\"name\":\"f\",\"type\":\"double\",\"field-id\":15},"
    "{\"name\":\"b\",\"type\":\"boolean\",\"field-id\":16}]}";

static void test_schema_roundtrip(void)
{
    floe_arena *a = floe__arena_new(0);
    const floe_avro_schema *s;
    FT_OK(floe_avro_schema_parse(&s, a, SCHEMA, strlen(SCHEMA), "t"));
    FT_EQ_INT(s->kind, FLOE_AVRO_RECORD);
    FT_EQ_INT(s->nfields, 11);
    FT_EQ_INT(s->fields[0].field_id, 1);
    int ni;
    const floe_avro_schema *opt = floe_avro_unwrap_optional(s->fields[1].type, &ni);
    FT_EQ_INT(opt->kind, FLOE_AVRO_STRING);
    FT_EQ_INT(ni, 0);
    FT_EQ_STR(s->fields[2].type->logical_type, "map");
    FT_EQ_INT(s->fields[2].type->items->fields[1].field_id, 4);
    FT_EQ_INT(s->fields[3].type->element_id, 6);
    FT_EQ_INT(s->fields[4].type->key_id, 8);
    FT_EQ_INT(s->fields[4].type->value_id, 9);
    FT_EQ_INT(s->fields[5].type->precision, 9);
    FT_CHECK(s->fields[6].type == s->fields[5].type); /* named reference */
    FT_CHECK(s->fields[7].type->has_adjust_to_utc && s->fields[7].type->adjust_to_utc);
    /* emit -> parse -> emit is stable and keeps every attribute */
    floe_buf e1 = FLOE_BUF_INIT, e2 = FLOE_BUF_INIT;
    FT_OK(floe_avro_schema_emit(s, &e1));
    const floe_avro_schema *s2;
    FT_OK(floe_avro_schema_parse(&s2, a, e1.ptr, e1.len, "t2"));
    FT_OK(floe_avro_schema_emit(s2, &e2));
    FT_EQ_STR(e1.ptr, e2.ptr);
    const char *attrs[] = {"\"field-id\":4",         "\"element-id\":6",        "\"key-id\":8",
                           "\"value-id\":9",         "\"logicalType\":\"map\"", "\"precision\":9",
                           "\"adjust-to-utc\":true", "\"default\":null"};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(attrs); i++)
        if (!strstr(e1.ptr, attrs[i]))
            ft_fail(__FILE__, __LINE__, "emitted schema lacks %s", attrs[i]);
    floe__buf_free(&e1);
    floe__buf_free(&e2);
    floe__arena_free(a);
}

static void test_schema_invalid(void)
{
    const char *bad[] = {
        "{",
        "[]",
        "{\"type\":\"record\",\"name\":\"r\"}",
        "{\"type\":\"nope\"}",
        "{\"type\":\"fixed\",\"name\":\"f\",\"size\":-1}",
        "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
        "{\"name\":\"a\",\"type\":\"int\"}]}",
        "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\","
        "\"field-id\":\"x\"}]}",
        "[\"null\",[\"int\"]]",
        "\"undefined_name\""};
    floe_arena *a = floe__arena_new(0);
    for (size_t i = 0; i < FLOE_ARRAY_LEN(bad); i++) {
        const floe_avro_schema *s;
        int rc = floe_avro_schema_parse(&s, a, bad[i], strlen(bad[i]), "bad.avsc");
        if (rc != FLOE_ECORRUPT)
            ft_fail(__FILE__, __LINE__, "schema %zu: rc %d", i, rc);
        else
            FT_ERR_CONTAINS("bad.avsc");
    }
    /* nesting deeper than the limit */
    floe_buf deep = FLOE_BUF_INIT;
    for (int i = 0; i < 100; i++)
        floe__buf_puts(&deep, "{\"type\":\"array\",\"items\":");
    floe__buf_puts(&deep, "\"int\"");
    for (int i = 0; i < 100; i++)
        floe__buf_putc(&deep, '}');
    const floe_avro_schema *s;
    FT_EQ_INT(floe_avro_schema_parse(&s, a, deep.ptr, deep.len, "deep"), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("too deep");
    floe__buf_free(&deep);
    floe__arena_free(a);
}

static void test_codecs(void)
{
    uint8_t data[100000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)((i * 7) ^ (i >> 5));
    floe_avro_codec cs[] = {FLOE_AVRO_CODEC_NULL, FLOE_AVRO_CODEC_DEFLATE, FLOE_AVRO_CODEC_ZSTD,
                            FLOE_AVRO_CODEC_SNAPPY};
    for (size_t c = 0; c < FLOE_ARRAY_LEN(cs); c++) {
        floe_buf z = FLOE_BUF_INIT, out = FLOE_BUF_INIT;
        FT_OK(floe_avro_compress(cs[c], -1, data, sizeof data, &z));
        FT_OK(floe_avro_decompress(cs[c], (const uint8_t *)z.ptr, z.len, &out, "c.avro", 42));
        FT_EQ_INT(out.len, sizeof data);
        FT_CHECK(out.len == sizeof data && memcmp(out.ptr, data, sizeof data) == 0);
        if (cs[c] != FLOE_AVRO_CODEC_NULL) {
            /* truncated and garbled payloads */
            int rc =
                floe_avro_decompress(cs[c], (const uint8_t *)z.ptr, z.len / 2, &out, "c.avro", 42);
            FT_EQ_INT(rc, FLOE_ECORRUPT);
            FT_ERR_CONTAINS("offset 42 in c.avro");
            z.ptr[z.len - 1] ^= 0x55;
            z.ptr[z.len / 3] ^= 0x55;
            rc = floe_avro_decompress(cs[c], (const uint8_t *)z.ptr, z.len, &out, "c.avro", 42);
            FT_CHECK(rc == FLOE_ECORRUPT || (rc == 0 && cs[c] == FLOE_AVRO_CODEC_DEFLATE));
        }
        floe__buf_free(&z);
        floe__buf_free(&out);
    }
    floe_avro_codec k;
    FT_EQ_INT(floe_avro_codec_from_name("xz", 2, &k), FLOE_EUNSUPPORTED);
    FT_OK(floe_avro_codec_from_name("zstandard", 9, &k));
    FT_EQ_INT(k, FLOE_AVRO_CODEC_ZSTD);
}

/* Decompress `z` with floe_avro_decompress (libdeflate) and with the zlib
 * streaming path into reused buffers; both must give `want`. */
static void check_both_inflates(const floe_buf *z, const uint8_t *want, size_t n, floe_buf *o1,
                                floe_buf *o2)
{
    FT_OK(floe_avro_decompress(FLOE_AVRO_CODEC_DEFLATE, (const uint8_t *)z->ptr, z->len, o1,
                               "d.avro", 7));
    FT_OK(floe_avro_inflate_zlib((const uint8_t *)z->ptr, z->len, o2, "d.avro", 7));
    FT_EQ_INT(o1->len, n);
    FT_EQ_INT(o2->len, n);
    FT_CHECK(o1->len == n && (n == 0 || memcmp(o1->ptr, want, n) == 0));
    FT_CHECK(o2->len == n && (n == 0 || memcmp(o2->ptr, want, n) == 0));
    FT_CHECK(o1->ptr && o1->ptr[n] == 0);
}

/* Whole-block inflate (libdeflate) against zlib's streaming inflate: empty,
 * incompressible, ordinary and highly compressible blocks (output far above
 * the first size guess), at three levels, into buffers reused from larger
 * and smaller blocks. */
static void test_deflate_paths_agree(void)
{
    size_t sizes[] = {0, 1, 100, 65536, 200000, 1u << 20};
    uint8_t *data = malloc(1u << 20);
    FT_ASSERT(data != NULL);
    floe_buf o1 = FLOE_BUF_INIT, o2 = FLOE_BUF_INIT;
    for (int kind = 0; kind < 3; kind++) {
        uint32_t x = 12345;
        for (size_t i = 0; i < (1u << 20); i++) {
            x = x * 1103515245u + 12345u;
            data[i] = kind == 0   ? (uint8_t)(x >> 24)                        /* random */
                      : kind == 1 ? (uint8_t)("manifest-entry "[i % 15] + (x >> 30)) /* text */
                                  : 0;                                        /* zeros */
        }
        for (size_t s = 0; s < FLOE_ARRAY_LEN(sizes); s++)
            for (int level = 1; level <= 9; level += 4) {
                floe_buf z = FLOE_BUF_INIT;
                FT_OK(floe_avro_compress(FLOE_AVRO_CODEC_DEFLATE, level, data, sizes[s], &z));
                check_both_inflates(&z, data, sizes[s], &o1, &o2);
                floe__buf_free(&z);
            }
    }
    floe__buf_free(&o1);
    floe__buf_free(&o2);
    free(data);
}

/* Every truncation and a byte flip at every position of a deflate block:
 * both paths fail with FLOE_ECORRUPT naming the block or, when a flip still
 * decodes, give the same bytes. */
static void test_deflate_corrupt(void)
{
    uint8_t data[3000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)("s3://bucket/data/part-"[i % 22] ^ (i / 97));
    floe_buf z = FLOE_BUF_INIT, o1 = FLOE_BUF_INIT, o2 = FLOE_BUF_INIT;
    FT_OK(floe_avro_compress(FLOE_AVRO_CODEC_DEFLATE, -1, data, sizeof data, &z));
    for (size_t n = 0; n < z.len; n++) {
        int r1 = floe_avro_decompress(FLOE_AVRO_CODEC_DEFLATE, (const uint8_t *)z.ptr, n, &o1,
                                      "t.avro", 99);
        if (r1 != FLOE_ECORRUPT)
            ft_fail(__FILE__, __LINE__, "truncated to %zu: rc %d", n, r1);
        else if (!strstr(ft_floe_err(), "offset 99 in t.avro"))
            ft_fail(__FILE__, __LINE__, "truncated to %zu: %s", n, ft_floe_err());
        int r2 = floe_avro_inflate_zlib((const uint8_t *)z.ptr, n, &o2, "t.avro", 99);
        if (r2 != FLOE_ECORRUPT)
            ft_fail(__FILE__, __LINE__, "zlib, truncated to %zu: rc %d", n, r2);
    }
    int both_ok = 0;
    for (size_t i = 0; i < z.len; i++) {
        z.ptr[i] ^= 0x24;
        int r1 = floe_avro_decompress(FLOE_AVRO_CODEC_DEFLATE, (const uint8_t *)z.ptr, z.len, &o1,
                                      "t.avro", 99);
        int r2 = floe_avro_inflate_zlib((const uint8_t *)z.ptr, z.len, &o2, "t.avro", 99);
        if ((r1 != 0 && r1 != FLOE_ECORRUPT) || (r2 != 0 && r2 != FLOE_ECORRUPT))
            ft_fail(__FILE__, __LINE__, "flip at %zu: rc %d / %d", i, r1, r2);
        if (r1 == 0 && r2 == 0) {
            both_ok++;
            if (o1.len != o2.len || memcmp(o1.ptr, o2.ptr, o1.len) != 0)
                ft_fail(__FILE__, __LINE__, "flip at %zu: the two inflates differ", i);
        }
        z.ptr[i] ^= 0x24;
    }
    (void)both_ok;
    floe__buf_free(&z);
    floe__buf_free(&o1);
    floe__buf_free(&o2);
}

/* A deflate bomb: 257 MiB of zeros in ~260 KB fails at the 256 MiB limit. */
static void test_deflate_bomb(void)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    FT_ASSERT(deflateInit2(&zs, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    static uint8_t zeros[1u << 20];
    floe_buf z = FLOE_BUF_INIT;
    for (int i = 0; i < 257; i++) {
        zs.next_in = zeros;
        zs.avail_in = sizeof zeros;
        do {
            FT_ASSERT(floe__buf_reserve(&z, 65536) == 0);
            zs.next_out = (Bytef *)z.ptr + z.len;
            zs.avail_out = 65536;
            deflate(&zs, i == 256 ? Z_FINISH : Z_NO_FLUSH);
            z.len += 65536 - zs.avail_out;
        } while (zs.avail_in > 0 || (i == 256 && zs.avail_out == 0));
    }
    deflateEnd(&zs);
    FT_CHECK(z.len < 2u << 20);
    floe_buf o = FLOE_BUF_INIT;
    FT_EQ_INT(floe_avro_decompress(FLOE_AVRO_CODEC_DEFLATE, (const uint8_t *)z.ptr, z.len, &o,
                                   "bomb.avro", 5),
              FLOE_ECORRUPT);
    FT_ERR_CONTAINS("256 MiB limit in the block at offset 5 in bomb.avro");
    FT_EQ_INT(floe_avro_inflate_zlib((const uint8_t *)z.ptr, z.len, &o, "bomb.avro", 5),
              FLOE_ECORRUPT);
    FT_ERR_CONTAINS("256 MiB limit");
    floe__buf_free(&o);
    floe__buf_free(&z);
}

/* Fail every allocation in turn while inflating a block into a fresh and
 * into a reused buffer: FLOE_ENOMEM each time until it succeeds whole. */
static void test_deflate_oom(void)
{
    uint8_t data[150000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i % 251 + i / 1000);
    floe_buf z = FLOE_BUF_INIT;
    FT_OK(floe_avro_compress(FLOE_AVRO_CODEC_DEFLATE, -1, data, sizeof data, &z));
    for (int reuse = 0; reuse < 2; reuse++) {
        int ok = 0;
        for (long n = 1; n < 100 && !ok; n++) {
            floe_buf o = FLOE_BUF_INIT;
            if (reuse)
                FT_ASSERT(floe__buf_reserve(&o, 1000) == 0);
            floe__alloc_fail_at(n);
            int rc = floe_avro_decompress(FLOE_AVRO_CODEC_DEFLATE, (const uint8_t *)z.ptr, z.len,
                                          &o, "oom.avro", 1);
            floe__alloc_fail_at(0);
            if (rc == 0) {
                ok = 1;
                FT_CHECK(o.len == sizeof data && memcmp(o.ptr, data, sizeof data) == 0);
            } else if (rc != FLOE_ENOMEM) {
                ft_fail(__FILE__, __LINE__, "fail at %ld: rc %d %s", n, rc, ft_floe_err());
            }
            floe__buf_free(&o);
        }
        FT_CHECK(ok);
    }
    floe__buf_free(&z);
}

/* The same manifest written with the null and the deflate codec: every
 * record decodes to the same JSON, and each deflate block's bytes equal
 * zlib's inflate of its payload. */
static void test_deflate_manifest_identical(void)
{
    floe_buf js[2] = {FLOE_BUF_INIT, FLOE_BUF_INIT};
    const floe_avro_codec codecs[2] = {FLOE_AVRO_CODEC_NULL, FLOE_AVRO_CODEC_DEFLATE};
    for (int k = 0; k < 2; k++) {
        gt_opts o = {2, codecs[k], true, FLOE_MANIFEST_DATA, 3000, 77, 3};
        floe_buf b = FLOE_BUF_INIT;
        floe_manifest_file mf;
        FT_OK(gt_write_manifest(&o, &b, &mf, NULL));
        floe_avro_file *f;
        FT_OK(floe_avro_file_open(&f, (const uint8_t *)b.ptr, b.len, "m.avro"));
        floe_avro_cursor c;
        int64_t n, total = 0;
        floe_buf zl = FLOE_BUF_INIT;
        for (;;) {
            size_t at = f->pos;
            int rc = floe_avro_file_next_block(f, &c, &n);
            if (rc == FLOE_ITEROVER)
                break;
            FT_OK(rc);
            if (k == 1) { /* the block's payload, inflated by zlib */
                floe_avro_cursor h = {f->data + at, f->data + f->len, f->data, "m.avro", 0, -1};
                int64_t cnt, size;
                FT_OK(floe_avro_read_long(&h, &cnt));
                FT_OK(floe_avro_read_long(&h, &size));
                FT_OK(floe_avro_inflate_zlib(h.p, (size_t)size, &zl, "m.avro", 0));
                FT_CHECK(zl.len == (size_t)(c.end - c.p) && memcmp(zl.ptr, c.p, zl.len) == 0);
            }
            for (int64_t i = 0; i < n; i++) {
                FT_OK(floe_avro_datum_to_json(&c, f->schema, &js[k], 0));
                floe__buf_putc(&js[k], '\n');
            }
            total += n;
        }
        FT_EQ_INT(total, 3000);
        if (k == 1)
            FT_CHECK(f->blocks > 10);
        floe__buf_free(&zl);
        floe_avro_file_free(f);
        floe__buf_free(&b);
    }
    FT_EQ_INT(js[0].len, js[1].len);
    FT_CHECK(js[0].len > 0 && js[0].len == js[1].len && memcmp(js[0].ptr, js[1].ptr, js[0].len) == 0);
    floe__buf_free(&js[0]);
    floe__buf_free(&js[1]);
}

/* Hand-built container: header with `codec`, then raw `body` bytes. */
static void build(floe_buf *b, const char *schema, const char *codec, const uint8_t sync[16])
{
    floe__buf_clear(b);
    floe__buf_put(b, "Obj\x01", 4);
    floe_avro_put_long(b, 2);
    floe_avro_put_string(b, "avro.schema");
    floe_avro_put_string(b, schema);
    floe_avro_put_string(b, "avro.codec");
    floe_avro_put_string(b, codec);
    floe_avro_put_long(b, 0);
    floe__buf_put(b, sync, 16);
}

static int read_all(const floe_buf *b, int64_t *records)
{
    floe_avro_file *f;
    int rc = floe_avro_file_open(&f, (const uint8_t *)b->ptr, b->len, "hostile.avro");
    if (rc < 0)
        return rc;
    floe_avro_cursor c;
    int64_t n;
    floe_buf json = FLOE_BUF_INIT;
    *records = 0;
    while (rc == 0 && (rc = floe_avro_file_next_block(f, &c, &n)) == 0)
        for (int64_t i = 0; i < n && rc == 0; i++) {
            rc = floe_avro_datum_to_json(&c, f->schema, &json, 0);
            floe__buf_clear(&json);
            (*records)++;
        }
    floe__buf_free(&json);
    floe_avro_file_free(f);
    return rc == FLOE_ITEROVER ? 0 : rc;
}

static void expect_corrupt(const floe_buf *b, const char *what)
{
    int64_t n;
    int rc = read_all(b, &n);
    if (rc != FLOE_ECORRUPT) {
        ft_fail(__FILE__, __LINE__, "%s: rc %d, want FLOE_ECORRUPT", what, rc);
        return;
    }
    const char *m = ft_floe_err();
    if (!strstr(m, "hostile.avro") || !strstr(m, "offset"))
        ft_fail(__FILE__, __LINE__, "%s: message lacks file/offset: %s", what, m);
}

static void test_hostile_containers(void)
{
    const uint8_t sync[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    const char *rec = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"s\","
                      "\"type\":\"string\"},{\"name\":\"a\",\"type\":{\"type\":\"array\","
                      "\"items\":\"long\"}}]}";
    floe_buf b = FLOE_BUF_INIT;
    int64_t n;

    /* a valid one first */
    build(&b, rec, "null", sync);
    floe_avro_put_long(&b, 1);
    floe_avro_put_long(&b, 6);
    floe__buf_put(&b, "\x04hi\x02\x06\x00", 6); /* "hi", [3] */
    floe__buf_put(&b, sync, 16);
    FT_OK(read_all(&b, &n));
    FT_EQ_INT(n, 1);

    build(&b, rec, "null", sync);
    b.ptr[0] = 'X';
    expect_corrupt(&b, "bad magic");

    build(&b, rec, "xz", sync);
    int rc = read_all(&b, &n);
    FT_EQ_INT(rc, FLOE_ECORRUPT);
    FT_ERR_CONTAINS("unknown codec 'xz' in hostile.avro");

    build(&b, rec, "null", sync); /* huge block count, tiny block */
    floe_avro_put_long(&b, INT64_C(1) << 40);
    floe_avro_put_long(&b, 6);
    floe__buf_put(&b, "\x04hi\x02\x06\x00", 6);
    floe__buf_put(&b, sync, 16);
    expect_corrupt(&b, "huge block count");

    build(&b, rec, "null", sync);
    floe_avro_put_long(&b, -1);
    floe_avro_put_long(&b, 5);
    expect_corrupt(&b, "negative block count");

    build(&b, rec, "null", sync);
    floe_avro_put_long(&b, 1);
    floe_avro_put_long(&b, INT64_C(1) << 50);
    expect_corrupt(&b, "block size beyond the file");

    build(&b, rec, "null", sync);
    floe_avro_put_long(&b, 1);
    floe_avro_put_long(&b, -7);
    expect_corrupt(&b, "negative block size");

    build(&b, rec, "null", sync); /* wrong sync */
    floe_avro_put_long(&b, 1);
    floe_avro_put_long(&b, 6);
    floe__buf_put(&b, "\x04hi\x02\x06\x00", 6);
    floe__buf_put(&b, "0123456789abcdef", 16);
    expect_corrupt(&b, "bad sync");
    FT_ERR_CONTAINS("sync marker mismatch");

    build(&b, rec, "null", sync); /* negative string length inside a record */
    floe_avro_put_long(&b, 1);
    floe_avro_put_long(&b, 3);
    floe__buf_put(&b, "\x03\x00\x00", 3);
    floe__buf_put(&b, sync, 16);
    expect_corrupt(&b, "negative string length");
    FT_ERR_CONTAINS("negative length");

    build(&b, rec, "null", sync); /* array claiming 2^40 items */
    floe_avro_put_long(&b, 1);
    floe_buf body = FLOE_BUF_INIT;
    floe_avro_put_string(&body, "x");
    floe_avro_put_long(&body, INT64_C(1) << 40);
    floe_avro_put_long(&body, 2);
    floe_avro_put_long(&b, (int64_t)body.len);
    floe__buf_put(&b, body.ptr, body.len);
    floe__buf_put(&b, sync, 16);
    expect_corrupt(&b, "huge array count");
    floe__buf_free(&body);

    /* header metadata map claiming 2^40 entries */
    floe__buf_clear(&b);
    floe__buf_put(&b, "Obj\x01", 4);
    floe_avro_put_long(&b, INT64_C(1) << 40);
    floe_avro_put_string(&b, "k");
    expect_corrupt(&b, "huge metadata count");

    /* truncated file: every prefix of a valid deflate file */
    floe_buf full = FLOE_BUF_INIT;
    floe_avro_writer *w;
    FT_OK(floe_avro_writer_new(&w, &full, rec, FLOE_AVRO_CODEC_DEFLATE, -1, NULL, 0));
    floe_avro_writer_set_block_size(w, 16);
    for (int i = 0; i < 6; i++) {
        floe_buf *ob = floe_avro_writer_buf(w);
        floe_avro_put_string(ob, "abc");
        floe_avro_put_long(ob, 2);
        floe_avro_put_long(ob, i);
        floe_avro_put_long(ob, -i);
        floe_avro_put_long(ob, 0);
        FT_OK(floe_avro_writer_commit(w));
    }
    FT_OK(floe_avro_writer_finish(w));
    floe_avro_writer_free(w);
    FT_OK(read_all(&full, &n));
    FT_EQ_INT(n, 6);
    for (size_t cut = 0; cut < full.len; cut++) {
        floe_buf t = {full.ptr, cut, cut};
        rc = read_all(&t, &n);
        if (rc != 0 && rc != FLOE_ECORRUPT)
            ft_fail(__FILE__, __LINE__, "cut at %zu: rc %d", cut, rc);
    }
    floe__buf_free(&full);
    floe__buf_free(&b);
}

/* Manifests whose schema does not fit the manifest_entry struct. */
static void test_schema_mismatch(void)
{
    const uint8_t sync[16] = {0};
    floe_buf b = FLOE_BUF_INIT;
    build(&b,
          "{\"type\":\"record\",\"name\":\"manifest_entry\",\"fields\":[{\"name\":\"status\","
          "\"type\":\"int\",\"field-id\":0},{\"name\":\"data_file\",\"type\":{\"type\":"
          "\"record\",\"name\":\"r2\",\"fields\":[{\"name\":\"file_path\",\"type\":\"int\","
          "\"field-id\":100}]},\"field-id\":2}]}",
          "null", sync);
    floe_manifest *m;
    FT_EQ_INT(floe_manifest_read(&m, (const uint8_t *)b.ptr, b.len, "mm.avro", NULL),
              FLOE_ECORRUPT);
    FT_ERR_CONTAINS("schema/metadata mismatch in mm.avro");
    build(&b,
          "{\"type\":\"record\",\"name\":\"manifest_file\",\"fields\":[{\"name\":\"x\","
          "\"type\":\"int\",\"field-id\":501}]}",
          "null", sync);
    floe_manifest_list *l;
    FT_EQ_INT(floe_manifest_list_read(&l, (const uint8_t *)b.ptr, b.len, "ml.avro"), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("ml.avro");
    /* header says format-version 9 */
    floe__buf_clear(&b);
    gt_opts o = {2, FLOE_AVRO_CODEC_NULL, false, FLOE_MANIFEST_DATA, 2, 1, 1};
    floe_manifest_file mf;
    FT_OK(gt_write_manifest(&o, &b, &mf, NULL));
    char *fv = memmem(b.ptr, b.len,
                      "format-version\x02"
                      "2",
                      16);
    FT_ASSERT(fv);
    fv[15] = '9';
    FT_EQ_INT(floe_manifest_read(&m, (const uint8_t *)b.ptr, b.len, "fv.avro", NULL),
              FLOE_ECORRUPT);
    FT_ERR_CONTAINS("format-version 9");
    floe__buf_free(&b);
}

/* Flip bits all over a small manifest: every result is success or
 * FLOE_ECORRUPT, never a crash (ASan run), and errors name the file. */
static void test_bit_flips(void)
{
    gt_opts o = {2, FLOE_AVRO_CODEC_NULL, true, FLOE_MANIFEST_DATA, 3, 1, 1};
    floe_buf b = FLOE_BUF_INIT;
    floe_manifest_file mf;
    FT_OK(gt_write_manifest(&o, &b, &mf, NULL));
    int corrupt = 0;
    for (size_t i = 0; i < b.len; i++) {
        uint8_t bit = (uint8_t)(1u << (i % 8));
        b.ptr[i] ^= (char)bit;
        floe_manifest *m = NULL;
        int rc = floe_manifest_read(&m, (const uint8_t *)b.ptr, b.len, "flip.avro", &mf);
        if (rc == FLOE_ECORRUPT) {
            corrupt++;
            if (!strstr(ft_floe_err(), "flip.avro"))
                ft_fail(__FILE__, __LINE__, "byte %zu: %s", i, ft_floe_err());
        } else if (rc != 0) {
            ft_fail(__FILE__, __LINE__, "byte %zu: rc %d %s", i, rc, ft_floe_err());
        }
        floe_manifest_free(m);
        b.ptr[i] ^= (char)bit;
    }
    FT_CHECK(corrupt > 0);
    floe__buf_free(&b);
}

static const ft_case cases[] = {
    {"schema_roundtrip", test_schema_roundtrip},
    {"schema_invalid", test_schema_invalid},
    {"codecs", test_codecs},
    {"deflate_paths_agree", test_deflate_paths_agree},
    {"deflate_corrupt", test_deflate_corrupt},
    {"deflate_bomb", test_deflate_bomb},
    {"deflate_oom", test_deflate_oom},
    {"deflate_manifest_identical", test_deflate_manifest_identical},
    {"hostile_containers", test_hostile_containers},
    {"schema_mismatch", test_schema_mismatch},
    {"bit_flips", test_bit_flips},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
