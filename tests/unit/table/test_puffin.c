/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/puffin: deletion-vector blobs and Puffin files — byte-for-byte
 * against the blobs Trino 480 / Iceberg Java 1.10.1 wrote (../shared/fixtures
 * trino_deletion_vectors_v3, PROVENANCE.md), the portable Roaring layout by
 * hand (array, bitmap and run containers, several 32-bit keys), round trips
 * through the reader (scan/dv.c) and the refusals.
 */
#include "harness.h"
#include "scan/scan.h"
#include "table/puffin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void decode(const floe_buf *b, size_t off, size_t len, floe_vec *out)
{
    FT_OK(floe__scan_dv_decode((const uint8_t *)b->ptr + off, len, "mem", (int64_t)off,
                               (uint64_t)INT64_MAX, out));
}

/* A Puffin file of the fixture (NULL: no ../shared, the case is skipped). */
static char *fixture(const char *name, size_t *len)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return NULL;
    char rel[256];
    snprintf(rel, sizeof rel, "fixtures/trino_deletion_vectors_v3/data/%s.puffin", name);
    char *file = ft_read_file(ft_path(sh, rel), len);
    FT_CHECK(file && *len > 50);
    return file;
}

/* The first DV of the fixture: positions {0,3,6}, blob at offset 4, 46 bytes. */
static void test_matches_java(void)
{
    size_t len = 0;
    char *file = fixture("dv-20260504_111446_00010_8gkte-9a41c74f-3cae-4b67-a4e3-ec4437d1c988",
                         &len);
    if (!file)
        return;
    int64_t pos[] = {0, 3, 6};
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe__dv_encode(pos, 3, &b));
    FT_EQ_INT(b.len, 46);
    FT_CHECK(b.len == 46 && memcmp(b.ptr, file + 4, 46) == 0);
    /* the whole file's shape: magic, blob, magic, footer, length, flags, magic */
    floe_puffin_writer w;
    FT_OK(floe__puffin_writer_init(&w));
    floe_puffin_blob_info bi;
    FT_OK(floe__puffin_add_dv(&w, "s3a://warehouse/deletion_vectors/data/a.parquet", pos, 3, &bi));
    FT_EQ_INT(bi.offset, 4);
    FT_EQ_INT(bi.length, 46);
    FT_OK(floe__puffin_finish(&w));
    FT_CHECK(memcmp(w.bytes.ptr, file, 50) == 0);   /* magic + the same blob */
    const char *head = "PFA1{\"blobs\":[{\"type\":\"deletion-vector-v1\",\"fields\":[],"
                       "\"snapshot-id\":-1,\"sequence-number\":-1,\"offset\":4,\"length\":46,"
                       "\"properties\":{\"referenced-data-file\":";
    FT_CHECK(memcmp(w.bytes.ptr + 50, head, strlen(head)) == 0);
    const uint8_t *t = (const uint8_t *)w.bytes.ptr + w.bytes.len - 12;
    size_t flen = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;
    FT_EQ_INT(flen, w.bytes.len - 12 - 54);
    FT_CHECK(memcmp(t + 4, "\0\0\0\0PFA1", 8) == 0);
    FT_CHECK(strstr(w.bytes.ptr + 54, "\"cardinality\":\"3\"") != NULL);
    floe__puffin_writer_free(&w);
    floe__buf_free(&b);
    free(file);
}

/* The second fixture file's two blobs (offsets 4 and 48, from its footer):
 * decoded by scan/dv.c and encoded again, byte for byte. */
static void test_reencode_java(void)
{
    size_t len = 0;
    char *file = fixture("dv-20260504_111849_00012_8gkte-2ed65adb-8895-4026-bb5e-efcedbf874e5",
                         &len);
    if (!file)
        return;
    floe_buf whole = {file, len, len};
    const size_t off[2] = {4, 48}, blen[2] = {44, 52}, card[2] = {2, 6};
    for (int k = 0; k < 2; k++) {
        floe_vec got = FLOE_VEC_INIT(int64_t);
        decode(&whole, off[k], blen[k], &got);
        FT_EQ_INT(got.len, card[k]);
        floe_buf b = FLOE_BUF_INIT;
        FT_OK(floe__dv_encode(got.items, got.len, &b));
        FT_CHECK(b.len == blen[k] && memcmp(b.ptr, file + off[k], blen[k]) == 0);
        floe__buf_free(&b);
        floe__vec_free(&got);
    }
    free(file);
}

static void roundtrip(const int64_t *pos, size_t n)
{
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe__dv_encode(pos, n, &b));
    floe_vec got = FLOE_VEC_INIT(int64_t);
    decode(&b, 0, b.len, &got);
    FT_EQ_INT(got.len, n);
    bool same = got.len == n;
    for (size_t i = 0; same && i < n; i++)
        same = ((int64_t *)got.items)[i] == pos[i];
    FT_CHECK(same);
    floe__vec_free(&got);
    floe__buf_free(&b);
}

/* Layout by hand: a run container (0..99: 1 run, 6 bytes < 200 as array)
 * makes the cookie 12347 | (ncontainers - 1) << 16 with a run bitset and no
 * offsets under 4 containers. */
static void test_run_layout(void)
{
    int64_t pos[100];
    for (int i = 0; i < 100; i++)
        pos[i] = i;
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe__dv_encode(pos, 100, &b));
    static const uint8_t want[] = {
        0,    0,    0,    31,                    /* length of magic + vector */
        0xD1, 0xD3, 0x39, 0x64,                  /* magic */
        1,    0,    0,    0,    0, 0, 0, 0,      /* one 32-bit bitmap */
        0,    0,    0,    0,                     /* its key */
        0x3B, 0x30, 0,    0,                     /* cookie 12347, 1 container */
        1,                                       /* run bitset */
        0,    0,    99,   0,                     /* key 0, cardinality - 1 */
        1,    0,    0,    0, 99, 0,              /* 1 run: start 0, length - 1 */
    };
    FT_EQ_INT(b.len, sizeof want + 4);
    FT_CHECK(b.len == sizeof want + 4 && memcmp(b.ptr, want, sizeof want) == 0);
    floe__buf_free(&b);
}

static void test_roundtrips(void)
{
    int64_t one[] = {5};
    roundtrip(one, 1);
    roundtrip(NULL, 0);
    /* a bitmap container (5,000 even positions), runs, arrays, a second
     * 16-bit key and a second 32-bit key */
    size_t n = 0;
    int64_t *p = malloc(20000 * sizeof *p);
    FT_CHECK(p != NULL);
    if (!p)
        return;
    for (int64_t i = 0; i < 10000; i += 2)
        p[n++] = i;
    for (int64_t i = 70000; i < 72000; i++)
        p[n++] = i;
    for (int64_t i = 0; i < 10; i++)
        p[n++] = 140000 + 7 * i;
    for (int64_t i = 0; i < 5; i++)
        p[n++] = ((int64_t)3 << 32) + i * 3;
    roundtrip(p, n);
    free(p);
}

static void test_refusals(void)
{
    floe_buf b = FLOE_BUF_INIT;
    int64_t unsorted[] = {3, 1};
    FT_EQ_INT(floe__dv_encode(unsorted, 2, &b), FLOE_EINVALID);
    int64_t dup[] = {1, 1};
    FT_EQ_INT(floe__dv_encode(dup, 2, &b), FLOE_EINVALID);
    int64_t neg[] = {-1};
    FT_EQ_INT(floe__dv_encode(neg, 1, &b), FLOE_EINVALID);
    FT_EQ_INT(b.len, 0);
    floe__buf_free(&b);
}

static const ft_case cases[] = {
    {"matches_java", test_matches_java},
    {"reencode_java", test_reencode_java},
    {"run_layout", test_run_layout},
    {"roundtrips", test_roundtrips},
    {"refusals", test_refusals},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
