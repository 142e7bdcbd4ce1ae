/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/puffin: deletion-vector blobs and Puffin files — byte-for-byte
 * against the blobs Trino 480 / Iceberg Java 1.10.1 wrote (../shared/fixtures
 * trino_deletion_vectors_v3, PROVENANCE.md), the portable Roaring layout by
 * hand (array, bitmap and run containers, several 32-bit keys), round trips
 * through the reader (scan/dv.c) and the refusals; LZ4-compressed footers
 * built with liblz4 itself.
 */
#include "harness.h"
#include "scan/scan.h"
#include "table/puffin.h"

#include <lz4frame.h> /* the real library: the inputs are not built by floe's reader */
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

/* rewrite_table_path: the fixture files written by Java (and one of
 * floe's) with the footer's referenced-data-file moved: every byte before
 * the footer is the same (blob offsets hold), the blobs still decode, the
 * other properties stay; paths outside the prefix are kept. */
static int move_ref(void *payload, const char *from, const char **to)
{
    const char *prefix = payload;
    static char buf[512];
    *to = from;
    if (strncmp(from, prefix, strlen(prefix)) == 0) {
        snprintf(buf, sizeof buf, "/copy/%s", from + strlen(prefix));
        *to = buf;
    }
    return 0;
}

static bool has(const floe_buf *b, const char *s)
{
    return memmem(b->ptr, b->len, s, strlen(s)) != NULL;
}

static void rewrite_check(const char *file, size_t len, const char *prefix, size_t nblobs)
{
    floe_buf out = FLOE_BUF_INIT;
    FT_OK(floe__puffin_rewrite_refs((const uint8_t *)file, len, move_ref, (void *)prefix, &out));
    const uint8_t *t = (const uint8_t *)file + len - 12;
    size_t flen = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;
    size_t fstart = len - 12 - flen;
    FT_CHECK(out.len > fstart && memcmp(out.ptr, file, fstart) == 0);
    const uint8_t *u = (const uint8_t *)out.ptr + out.len - 12;
    size_t olen = (size_t)u[0] | (size_t)u[1] << 8 | (size_t)u[2] << 16 | (size_t)u[3] << 24;
    FT_EQ_INT(fstart + olen + 12, out.len);
    FT_CHECK(memcmp(u + 4, "\0\0\0\0PFA1", 8) == 0);
    char *footer = floe__strndup(out.ptr + fstart, olen);
    size_t refs = 0;
    for (const char *q = footer; (q = strstr(q, "\"referenced-data-file\":\"/copy/")); q++)
        refs++;
    FT_EQ_INT(refs, nblobs);
    FT_CHECK(strstr(footer, prefix) == NULL);
    FT_CHECK(strstr(footer, "\"cardinality\":\"") != NULL);
    FT_CHECK(strstr(footer, "\"type\":\"deletion-vector-v1\"") != NULL);
    /* again, into a copy of the copy: nothing under the prefix any more */
    floe_buf again = FLOE_BUF_INIT;
    FT_OK(floe__puffin_rewrite_refs((const uint8_t *)out.ptr, out.len, move_ref, (void *)prefix,
                                    &again));
    FT_EQ_INT(again.len, out.len);
    FT_CHECK(again.len == out.len && memcmp(again.ptr, out.ptr, out.len) == 0);
    floe__free(footer);
    floe__buf_free(&again);
    floe__buf_free(&out);
}

/* Out of memory at every allocation of a rewrite of `file`: an error,
 * never a crash. */
static void rewrite_oom(const floe_buf *file)
{
    for (long n = 1; n < 100000; n++) {
        floe_buf o = FLOE_BUF_INIT;
        floe__alloc_fail_at(n);
        int rc = floe__puffin_rewrite_refs((const uint8_t *)file->ptr, file->len, move_ref,
                                           (void *)"/t/", &o);
        floe__alloc_fail_at(0);
        floe__buf_free(&o);
        if (rc == 0)
            break;
        FT_EQ_INT(rc, FLOE_ENOMEM);
    }
    floe_error_clear();
}

static void test_rewrite_refs(void)
{
    size_t len = 0;
    char *file = fixture("dv-20260504_111446_00010_8gkte-9a41c74f-3cae-4b67-a4e3-ec4437d1c988",
                         &len);
    if (file) {
        /* the blob decodes at its old offset in the rewritten file */
        floe_buf out = FLOE_BUF_INIT;
        FT_OK(floe__puffin_rewrite_refs((const uint8_t *)file, len, move_ref, (void *)"s3a://",
                                        &out));
        floe_vec pos = FLOE_VEC_INIT(int64_t);
        decode(&out, 4, 46, &pos);
        FT_EQ_INT(pos.len, 3);
        floe__vec_free(&pos);
        floe__buf_free(&out);
        rewrite_check(file, len, "s3a://", 1);
        free(file);
    }
    floe_puffin_writer w;
    FT_OK(floe__puffin_writer_init(&w));
    floe_puffin_blob_info bi;
    int64_t p1[] = {1, 5}, p2[] = {0};
    FT_OK(floe__puffin_add_dv(&w, "/t/data/a \"q\".parquet", p1, 2, &bi));
    FT_OK(floe__puffin_add_dv(&w, "/t/data/b.parquet", p2, 1, &bi));
    FT_OK(floe__puffin_add_dv(&w, "/elsewhere/c.parquet", p2, 1, &bi));
    FT_OK(floe__puffin_finish(&w));
    floe_buf out = FLOE_BUF_INIT;
    FT_OK(floe__puffin_rewrite_refs((const uint8_t *)w.bytes.ptr, w.bytes.len, move_ref,
                                    (void *)"/t/", &out));
    FT_CHECK(has(&out, "\"referenced-data-file\":\"/copy/data/a \\\"q\\\".parquet\""));
    FT_CHECK(has(&out, "\"referenced-data-file\":\"/copy/data/b.parquet\""));
    FT_CHECK(has(&out, "\"referenced-data-file\":\"/elsewhere/c.parquet\""));
    FT_CHECK(has(&out, "\"created-by\":\"floe\""));
    floe__buf_free(&out);
    /* refusals: not Puffin, a cut file, a bad footer length, a bad compressed footer */
    FT_CHECK(floe__puffin_rewrite_refs((const uint8_t *)"PAR1xxxxxxxxxxxxxxxxxxxxxxPAR1", 30,
                                       move_ref, (void *)"/t/", &out) == FLOE_ECORRUPT);
    FT_CHECK(floe__puffin_rewrite_refs((const uint8_t *)w.bytes.ptr, w.bytes.len - 1, move_ref,
                                       (void *)"/t/", &out) == FLOE_ECORRUPT);
    floe_buf bad = FLOE_BUF_INIT;
    floe__buf_put(&bad, w.bytes.ptr, w.bytes.len);
    bad.ptr[bad.len - 12] = (char)0xff;
    bad.ptr[bad.len - 11] = (char)0xff;
    FT_CHECK(floe__puffin_rewrite_refs((const uint8_t *)bad.ptr, bad.len, move_ref,
                                       (void *)"/t/", &out) == FLOE_ECORRUPT);
    memcpy(bad.ptr, w.bytes.ptr, w.bytes.len);
    bad.ptr[bad.len - 8] = 1; /* "compressed": its JSON is no LZ4 frame */
    FT_CHECK(floe__puffin_rewrite_refs((const uint8_t *)bad.ptr, bad.len, move_ref, (void *)"/t/",
                                       &out) == FLOE_ECORRUPT);
    floe__buf_free(&bad);
    rewrite_oom(&w.bytes);
    floe__puffin_writer_free(&w);
}

/* `file` (a Puffin file with an uncompressed footer) with its footer
 * payload compressed by liblz4 as one frame (`prefs`), flag bit 0 set,
 * and `junk` bytes appended to the frame. */
static void lz4_footer(const floe_buf *file, const LZ4F_preferences_t *prefs, const char *junk,
                       floe_buf *out)
{
    const uint8_t *t = (const uint8_t *)file->ptr + file->len - 12;
    size_t plen = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;
    size_t fstart = file->len - 12 - plen;
    LZ4F_preferences_t p = *prefs;
    if (p.frameInfo.contentSize)
        p.frameInfo.contentSize = plen;
    size_t cap = LZ4F_compressFrameBound(plen, &p);
    char *z = malloc(cap);
    size_t zn = LZ4F_compressFrame(z, cap, file->ptr + fstart, plen, &p);
    FT_CHECK(!LZ4F_isError(zn));
    floe__buf_clear(out);
    floe__buf_put(out, file->ptr, fstart);
    floe__buf_put(out, z, zn);
    floe__buf_puts(out, junk);
    uint32_t n = (uint32_t)(zn + strlen(junk));
    uint8_t tail[12] = {(uint8_t)n,
                        (uint8_t)(n >> 8),
                        (uint8_t)(n >> 16),
                        (uint8_t)(n >> 24),
                        1,
                        0,
                        0,
                        0,
                        'P',
                        'F',
                        'A',
                        '1'};
    floe__buf_put(out, tail, 12);
    free(z);
}

/* A footer compressed with LZ4 (spec "Footer Payload") reads as the same
 * footer uncompressed: the rewrite of either is the same bytes, with the
 * blobs where they were. Frames with and without content size, several
 * blocks with checksums; bad frames are FLOE_ECORRUPT. */
static void test_lz4_footer(void)
{
    floe_puffin_writer w;
    FT_OK(floe__puffin_writer_init(&w));
    floe_puffin_blob_info bi;
    int64_t p1[] = {1, 5}, p2[] = {0};
    char path[64];
    /* a footer of several 64 KiB blocks */
    for (int i = 0; i < 600; i++) {
        snprintf(path, sizeof path, "/t/data/f%04d-with-a-long-name.parquet", i);
        FT_OK(floe__puffin_add_dv(&w, path, i % 2 ? p1 : p2, i % 2 ? 2 : 1, &bi));
    }
    FT_OK(floe__puffin_finish(&w));
    floe_buf plain = FLOE_BUF_INIT;
    FT_OK(floe__puffin_rewrite_refs((const uint8_t *)w.bytes.ptr, w.bytes.len, move_ref,
                                    (void *)"/t/", &plain));
    FT_CHECK(plain.len > 4 + 600 * 30 + 65536); /* the footer spans blocks */
    LZ4F_preferences_t cases[3];
    memset(cases, 0, sizeof cases);
    cases[0].frameInfo.contentSize = 1;            /* the spec's: content size present */
    cases[1].frameInfo.blockSizeID = LZ4F_max64KB; /* no content size, checksums */
    cases[1].frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    cases[1].frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled;
    cases[2].frameInfo.contentSize = 1;
    cases[2].frameInfo.blockSizeID = LZ4F_max64KB;
    cases[2].frameInfo.blockMode = LZ4F_blockIndependent;
    cases[2].compressionLevel = 9;
    floe_buf z = FLOE_BUF_INIT, out = FLOE_BUF_INIT;
    for (size_t c = 0; c < FLOE_ARRAY_LEN(cases); c++) {
        lz4_footer(&w.bytes, &cases[c], "", &z);
        FT_CHECK(z.len < w.bytes.len);
        floe__buf_clear(&out);
        FT_OK(floe__puffin_rewrite_refs((const uint8_t *)z.ptr, z.len, move_ref, (void *)"/t/",
                                        &out));
        FT_EQ_INT(out.len, plain.len);
        FT_CHECK(out.len == plain.len && memcmp(out.ptr, plain.ptr, plain.len) == 0);
    }
    FT_CHECK(has(&out, "\"referenced-data-file\":\"/copy/data/f0599-with-a-long-name.parquet\""));
    /* the last blob decodes where it was */
    floe_vec pos = FLOE_VEC_INIT(int64_t);
    decode(&out, (size_t)bi.offset, (size_t)bi.length, &pos);
    FT_EQ_INT(pos.len, 2);
    FT_CHECK(pos.len == 2 && ((int64_t *)pos.items)[1] == 5);
    floe__vec_free(&pos);
    /* bad frames: junk after the frame, a flipped byte under a checksum, a cut frame */
    lz4_footer(&w.bytes, &cases[0], "xyz", &z);
    FT_EQ_INT(
        floe__puffin_rewrite_refs((const uint8_t *)z.ptr, z.len, move_ref, (void *)"/t/", &out),
        FLOE_ECORRUPT);
    FT_CHECK(strstr(floe_error_last()->message, "3 bytes after the LZ4 frame") != NULL);
    lz4_footer(&w.bytes, &cases[1], "", &z);
    z.ptr[z.len - 12 - 40] ^= 0x55;
    FT_EQ_INT(
        floe__puffin_rewrite_refs((const uint8_t *)z.ptr, z.len, move_ref, (void *)"/t/", &out),
        FLOE_ECORRUPT);
    lz4_footer(&w.bytes, &cases[0], "", &z);
    {
        /* drop the frame's last 6 bytes: the footer length and tail move back */
        uint8_t tail[12];
        memcpy(tail, z.ptr + z.len - 12, 12);
        uint32_t n = (uint32_t)(tail[0] | tail[1] << 8 | tail[2] << 16) - 6;
        tail[0] = (uint8_t)n, tail[1] = (uint8_t)(n >> 8), tail[2] = (uint8_t)(n >> 16);
        z.len -= 18;
        floe__buf_put(&z, tail, 12);
    }
    FT_EQ_INT(
        floe__puffin_rewrite_refs((const uint8_t *)z.ptr, z.len, move_ref, (void *)"/t/", &out),
        FLOE_ECORRUPT);
    /* not an LZ4 frame at all */
    floe__buf_clear(&z);
    floe__buf_put(&z, w.bytes.ptr, w.bytes.len);
    z.ptr[z.len - 8] = 1;
    FT_EQ_INT(
        floe__puffin_rewrite_refs((const uint8_t *)z.ptr, z.len, move_ref, (void *)"/t/", &out),
        FLOE_ECORRUPT);
    FT_CHECK(strstr(floe_error_last()->message, "LZ4") != NULL);
    /* out of memory at every allocation: an error, never a crash */
    lz4_footer(&w.bytes, &cases[1], "", &z);
    rewrite_oom(&z);
    floe__buf_free(&z);
    floe__buf_free(&out);
    floe__buf_free(&plain);
    floe__puffin_writer_free(&w);
}

static const ft_case cases[] = {
    {"rewrite_refs", test_rewrite_refs}, {"lz4_footer", test_lz4_footer},
    {"matches_java", test_matches_java}, {"reencode_java", test_reencode_java},
    {"run_layout", test_run_layout},     {"roundtrips", test_roundtrips},
    {"refusals", test_refusals},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
