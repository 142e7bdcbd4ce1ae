/* SPDX-License-Identifier: Apache-2.0 */
/*
 * S3 FileIO pieces that need no server: URI parsing (s3/s3a/s3n), URL and
 * Host building for path-style and virtual-hosted addressing, the XML
 * parsers (ListObjectsV2 example from the S3 API reference, error
 * documents, UploadId, DeleteResult), bounds on hostile XML, configuration
 * validation and out-of-memory behaviour.
 */
#include "harness.h"
#include "io/s3.h"

#include <stdlib.h>

static void test_parse_uri(void)
{
    floe_arena *a = floe__arena_new(256);
    char *b, *k;
    FT_OK(floe__s3_parse_uri(a, "s3://bucket/a/b c.avro", &b, &k));
    FT_EQ_STR(b, "bucket");
    FT_EQ_STR(k, "a/b c.avro");
    FT_OK(floe__s3_parse_uri(a, "s3a://warehouse/db/t/metadata/v1.metadata.json", &b, &k));
    FT_EQ_STR(b, "warehouse");
    FT_EQ_STR(k, "db/t/metadata/v1.metadata.json");
    FT_OK(floe__s3_parse_uri(a, "s3n://b", &b, &k));
    FT_EQ_STR(b, "b");
    FT_EQ_STR(k, "");
    FT_EQ_INT(floe__s3_parse_uri(a, "s3:///nobucket", &b, &k), FLOE_EINVALID);
    FT_EQ_INT(floe__s3_parse_uri(a, "file:///x", &b, &k), FLOE_EINVALID);
    FT_EQ_INT(floe__s3_parse_uri(a, "S4://b/k", &b, &k), FLOE_EINVALID);
    floe__arena_free(a);
}

static void test_build_url(void)
{
    floe_arena *a = floe__arena_new(256);
    char *url, *host;
    FT_OK(floe__s3_build_url(a, "http://127.0.0.1:9000", true, "bucket", "a b/c+d", &url, &host));
    FT_EQ_STR(url, "http://127.0.0.1:9000/bucket/a%20b/c%2Bd");
    FT_EQ_STR(host, "127.0.0.1:9000");
    FT_OK(floe__s3_build_url(a, "https://s3.eu-west-1.amazonaws.com", false, "bucket", "k", &url,
                             &host));
    FT_EQ_STR(url, "https://bucket.s3.eu-west-1.amazonaws.com/k");
    FT_EQ_STR(host, "bucket.s3.eu-west-1.amazonaws.com");
    /* Default ports are not part of the Host header curl sends. */
    FT_OK(floe__s3_build_url(a, "https://minio.example:443", true, "b", NULL, &url, &host));
    FT_EQ_STR(url, "https://minio.example:443/b");
    FT_EQ_STR(host, "minio.example");
    FT_OK(floe__s3_build_url(a, "http://minio:80/prefix", true, "b", "k", &url, &host));
    FT_EQ_STR(url, "http://minio:80/prefix/b/k");
    FT_EQ_STR(host, "minio");
    FT_OK(floe__s3_build_url(a, "http://s3.localhost:4568", false, "b", NULL, &url, &host));
    FT_EQ_STR(url, "http://b.s3.localhost:4568/");
    FT_EQ_STR(host, "b.s3.localhost:4568");
    floe__arena_free(a);
}

/* The ListObjectsV2 response example of the S3 API reference (ListObjectsV2,
 * "Example 1: Listing keys"), trimmed. */
static const char list_xml[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\n"
    "  <Name>bucket</Name><Prefix/><KeyCount>205</KeyCount><MaxKeys>1000</MaxKeys>\n"
    "  <IsTruncated>false</IsTruncated>\n"
    "  <Contents><Key>my-image.jpg</Key><LastModified>2009-10-12T17:50:30.000Z</LastModified>\n"
    "    <ETag>\"fba9dede5f27731c9771645a39863328\"</ETag><Size>434234</Size>\n"
    "    <StorageClass>STANDARD</StorageClass></Contents>\n"
    "  <Contents><Key>a &amp; b/\xc3\xa9 "
    "+.txt</Key><LastModified>2026-11-29T12:00:00Z</LastModified>"
    "<Size>0</Size></Contents>\n"
    "</ListBucketResult>";

static void test_parse_list(void)
{
    floe_arena *a = floe__arena_new(1024);
    floe_s3_list_page p;
    FT_OK(floe__s3_parse_list(a, list_xml, strlen(list_xml), &p));
    FT_EQ_INT(p.n, 2);
    FT_EQ_STR(p.entries[0].key, "my-image.jpg");
    FT_EQ_INT(p.entries[0].size, 434234);
    FT_EQ_INT(p.entries[0].mtime_ms, 1255369830000LL);
    FT_EQ_STR(p.entries[1].key, "a & b/\xc3\xa9 +.txt");
    FT_EQ_INT(p.entries[1].size, 0);
    FT_CHECK(!p.truncated);
    const char *trunc = "<ListBucketResult><IsTruncated>true</IsTruncated>"
                        "<NextContinuationToken>tok/+=</NextContinuationToken></ListBucketResult>";
    FT_OK(floe__s3_parse_list(a, trunc, strlen(trunc), &p));
    FT_CHECK(p.truncated);
    FT_EQ_STR(p.next_token, "tok/+=");
    FT_EQ_INT(p.n, 0);
    floe__arena_free(a);
}

static void test_parse_list_rejects(void)
{
    static const char *bad[] = {
        "",
        "not xml",
        "<ListBucketResult><Contents><Key>k</Key></Contents></ListBucketResult>",
        "<ListBucketResult><Contents><Key>k</Key><Size>-1</Size></Contents></ListBucketResult>",
        "<ListBucketResult><Contents><Key>k</Key><Size>12x</Size></Contents></ListBucketResult>",
        "<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>",
        "<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
        "<Error><Code>AccessDenied</Code></Error>",
        ("<ListBucketResult><Contents><Key>k</Key><Size>1</Size><LastModified>x</LastModified>"
         "</Contents></ListBucketResult>"),
    };
    for (size_t i = 0; i < FT_N(bad); i++) {
        floe_arena *a = floe__arena_new(256);
        floe_s3_list_page p;
        int rc = floe__s3_parse_list(a, bad[i], strlen(bad[i]), &p);
        if (rc != FLOE_ECORRUPT)
            ft_fail(__FILE__, __LINE__, "case %zu: rc %d", i, rc);
        floe__arena_free(a);
    }
    /* A key longer than the cap. */
    size_t n = FLOE_S3_MAX_KEY + 100;
    char *big = malloc(n + 200);
    strcpy(big, "<ListBucketResult><Contents><Key>");
    size_t o = strlen(big);
    memset(big + o, 'k', FLOE_S3_MAX_KEY + 1);
    o += FLOE_S3_MAX_KEY + 1;
    strcpy(big + o, "</Key><Size>1</Size></Contents></ListBucketResult>");
    floe_arena *a = floe__arena_new(256);
    floe_s3_list_page p;
    FT_EQ_INT(floe__s3_parse_list(a, big, strlen(big), &p), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("cap");
    floe__arena_free(a);
    free(big);
}

static void test_parse_error_and_others(void)
{
    const char *e = "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code>"
                    "<Message>The resource you requested does not exist</Message></Error>";
    char code[16], msg[64];
    FT_OK(floe__s3_parse_error(e, strlen(e), code, sizeof code, msg, sizeof msg));
    FT_EQ_STR(code, "NoSuchKey");
    FT_EQ_STR(msg, "The resource you requested does not exist");
    FT_EQ_INT(floe__s3_parse_error("<X/>", 4, code, sizeof code, msg, sizeof msg), FLOE_ENOTFOUND);
    FT_EQ_INT(floe__s3_parse_error("<X", 2, code, sizeof code, msg, sizeof msg), FLOE_ECORRUPT);

    const char *up = "<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key>"
                     "<UploadId>abc/def+1</UploadId></InitiateMultipartUploadResult>";
    char *id = NULL;
    FT_OK(floe__s3_parse_upload_id(up, strlen(up), &id));
    FT_EQ_STR(id, "abc/def+1");
    floe__free(id);
    FT_EQ_INT(floe__s3_parse_upload_id("<Error/>", 8, &id), FLOE_ECORRUPT);

    const char *del = "<DeleteResult><Deleted><Key>a</Key></Deleted>"
                      "<Error><Key>gone</Key><Code>NoSuchKey</Code></Error>"
                      "<Error><Key>b c</Key><Code>AccessDenied</Code></Error></DeleteResult>";
    char key[32], dcode[32];
    size_t nerr;
    FT_OK(floe__s3_parse_delete_result(del, strlen(del), key, sizeof key, dcode, sizeof dcode,
                                       &nerr));
    FT_EQ_INT(nerr, 1);
    FT_EQ_STR(key, "b c");
    FT_EQ_STR(dcode, "AccessDenied");

    int64_t ms;
    FT_OK(floe__s3_parse_time("2009-10-12T17:50:30.000Z", &ms));
    FT_EQ_INT(ms, 1255369830000LL);
    FT_OK(floe__s3_parse_time("2009-10-12T17:50:30.5Z", &ms));
    FT_EQ_INT(ms, 1255369830500LL);
    FT_EQ_INT(floe__s3_parse_time("2009-13-12T17:50:30Z", &ms), FLOE_ECORRUPT);
}

static void test_config(void)
{
    floe_props p = FLOE_PROPS_INIT;
    floe_fileio *io = NULL;
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_SECRET_ACCESS_KEY");
    FT_OK(floe__s3_fileio_new(NULL, &io)); /* anonymous, AWS default endpoint */
    FT_CHECK(floe__s3_is_s3(io));
    io->ops->free(io);
    floe__props_set(&p, "s3.endpoint", "ftp://x");
    FT_EQ_INT(floe__s3_fileio_new(&p, &io), FLOE_EINVALID);
    FT_ERR_CONTAINS("s3.endpoint");
    floe__props_set(&p, "s3.endpoint", "http://127.0.0.1:1/");
    floe__props_set(&p, "s3.delete.batch-size", "1001");
    FT_EQ_INT(floe__s3_fileio_new(&p, &io), FLOE_EINVALID);
    FT_ERR_CONTAINS("s3.delete.batch-size");
    floe__props_set(&p, "s3.delete.batch-size", "1000");
    floe__props_set(&p, "s3.path-style-access", "maybe");
    FT_EQ_INT(floe__s3_fileio_new(&p, &io), FLOE_EINVALID);
    FT_ERR_CONTAINS("s3.path-style-access");
    floe__props_set(&p, "s3.path-style-access", "true");
    floe__props_set(&p, "s3.list.max-keys", "0");
    FT_EQ_INT(floe__s3_fileio_new(&p, &io), FLOE_EINVALID);
    floe__props_set(&p, "s3.list.max-keys", "10");
    FT_OK(floe__s3_fileio_new(&p, &io));
    io->ops->free(io);
    floe__props_free(&p);
}

static void test_oom(void)
{
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "s3.endpoint", "http://127.0.0.1:1");
    floe__props_set(&p, "s3.access-key-id", "AK");
    floe__props_set(&p, "s3.secret-access-key", "SK");
    for (long n = 1;; n++) {
        floe_fileio *io = NULL;
        floe__alloc_fail_at(n);
        int rc = floe__s3_fileio_new(&p, &io);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            io->ops->free(io);
            break;
        }
        FT_EQ_INT(rc, FLOE_ENOMEM);
        FT_ASSERT(n < 200);
    }
    for (long n = 1;; n++) {
        floe_arena *a = floe__arena_new(64);
        if (!a)
            continue;
        floe_s3_list_page pg;
        floe__alloc_fail_at(n);
        int rc = floe__s3_parse_list(a, list_xml, strlen(list_xml), &pg);
        floe__alloc_fail_at(0);
        floe__arena_free(a);
        if (rc == 0)
            break;
        FT_EQ_INT(rc, FLOE_ENOMEM);
        FT_ASSERT(n < 200);
    }
    floe__props_free(&p);
}

static const ft_case cases[] = {
    {"parse_uri", test_parse_uri},
    {"build_url", test_build_url},
    {"parse_list", test_parse_list},
    {"parse_list_rejects", test_parse_list_rejects},
    {"parse_error_and_others", test_parse_error_and_others},
    {"config", test_config},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
