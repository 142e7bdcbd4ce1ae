/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SigV4 signer tests.
 *
 * 1. AWS's published examples, from "Signature Calculations for the
 *    Authorization Header: Transferring Payload in a Single Chunk (AWS
 *    Signature Version 4)", section "Examples: Signature Calculations",
 *    https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
 *    (credentials AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY,
 *    20130524T000000Z, us-east-1, bucket examplebucket): GET Object with
 *    Range, PUT Object, GET Bucket Lifecycle, GET Bucket (List Objects).
 *    And two cases of AWS's generic "Signature Version 4 test suite"
 *    (aws-sig-v4-test-suite: get-vanilla, get-vanilla-query-order-key-case;
 *    AKIDEXAMPLE, 20150830T123600Z, service "service"), whose rules agree
 *    with S3's for these requests.
 * 2. Cross-check against an independent signer, Debian's python3-botocore
 *    (tests/unit/s3/sigv4_botocore.py), on keys with spaces, unicode and
 *    +=&!'()*, query strings, session tokens and repeated spacing.
 */
#include "harness.h"
#include "io/sigv4.h"

#include <stdio.h>
#include <stdlib.h>

#define AK "AKIAIOSFODNN7EXAMPLE"
#define SK "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

static void test_aws_get_object(void)
{
    floe_sigv4_kv h[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                         {"Range", "bytes=0-9"},
                         {"x-amz-content-sha256", FLOE_SIGV4_EMPTY_SHA256},
                         {"x-amz-date", "20130524T000000Z"}};
    floe_sigv4_request r = {.method = "GET",
                            .path = "/test.txt",
                            .headers = h,
                            .nheaders = 4,
                            .payload_sha256 = FLOE_SIGV4_EMPTY_SHA256,
                            .amz_date = "20130524T000000Z",
                            .region = "us-east-1",
                            .service = "s3",
                            .access_key = AK,
                            .secret_key = SK};
    floe_sigv4_result out;
    FT_OK(floe__sigv4_sign(&r, &out));
    FT_EQ_STR(
        out.canonical_request,
        "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\nrange:bytes=0-9\n"
        "x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
        "x-amz-date:20130524T000000Z\n\nhost;range;x-amz-content-sha256;x-amz-date\n"
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    FT_EQ_STR(out.string_to_sign,
              "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
              "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
    FT_EQ_STR(out.signature, "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    FT_EQ_STR(out.authorization,
              "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
              "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
              "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    floe__sigv4_result_free(&out);
}

static void test_aws_put_object(void)
{
    const char *body = "Welcome to Amazon S3.";
    char hash[65];
    floe__sha256_hex(body, strlen(body), hash);
    FT_EQ_STR(hash, "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    floe_sigv4_kv h[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                         {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                         {"x-amz-date", "20130524T000000Z"},
                         {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                         {"x-amz-content-sha256", hash}};
    floe_sigv4_request r = {.method = "PUT",
                            .path = "/test$file.text",
                            .headers = h,
                            .nheaders = 5,
                            .payload_sha256 = hash,
                            .amz_date = "20130524T000000Z",
                            .region = "us-east-1",
                            .service = "s3",
                            .access_key = AK,
                            .secret_key = SK};
    floe_sigv4_result out;
    FT_OK(floe__sigv4_sign(&r, &out));
    FT_EQ_STR(
        out.canonical_request,
        "PUT\n/test%24file.text\n\ndate:Fri, 24 May 2013 00:00:00 GMT\n"
        "host:examplebucket.s3.amazonaws.com\n"
        "x-amz-content-sha256:44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072\n"
        "x-amz-date:20130524T000000Z\nx-amz-storage-class:REDUCED_REDUNDANCY\n\n"
        "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class\n"
        "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    FT_EQ_STR(out.string_to_sign,
              "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n"
              "9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d");
    FT_EQ_STR(out.signature, "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
    floe__sigv4_result_free(&out);
}

static void test_aws_get_lifecycle(void)
{
    floe_sigv4_kv q[] = {{"lifecycle", ""}};
    floe_sigv4_kv h[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                         {"x-amz-date", "20130524T000000Z"},
                         {"x-amz-content-sha256", FLOE_SIGV4_EMPTY_SHA256}};
    floe_sigv4_request r = {.method = "GET",
                            .path = "/",
                            .query = q,
                            .nquery = 1,
                            .headers = h,
                            .nheaders = 3,
                            .payload_sha256 = FLOE_SIGV4_EMPTY_SHA256,
                            .amz_date = "20130524T000000Z",
                            .region = "us-east-1",
                            .service = "s3",
                            .access_key = AK,
                            .secret_key = SK};
    floe_sigv4_result out;
    FT_OK(floe__sigv4_sign(&r, &out));
    FT_CHECK(strstr(out.canonical_request, "GET\n/\nlifecycle=\nhost:") == out.canonical_request);
    FT_EQ_STR(out.signature, "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
    floe__sigv4_result_free(&out);
}

static void test_aws_list_objects(void)
{
    floe_sigv4_kv q[] = {{"prefix", "J"}, {"max-keys", "2"}}; /* unsorted on purpose */
    floe_sigv4_kv h[] = {{"Host", "examplebucket.s3.amazonaws.com"},
                         {"x-amz-date", "20130524T000000Z"},
                         {"x-amz-content-sha256", FLOE_SIGV4_EMPTY_SHA256}};
    floe_sigv4_request r = {.method = "GET",
                            .path = "/",
                            .query = q,
                            .nquery = 2,
                            .headers = h,
                            .nheaders = 3,
                            .payload_sha256 = FLOE_SIGV4_EMPTY_SHA256,
                            .amz_date = "20130524T000000Z",
                            .region = "us-east-1",
                            .service = "s3",
                            .access_key = AK,
                            .secret_key = SK};
    floe_sigv4_result out;
    FT_OK(floe__sigv4_sign(&r, &out));
    FT_CHECK(strstr(out.canonical_request, "GET\n/\nmax-keys=2&prefix=J\n") ==
             out.canonical_request);
    FT_EQ_STR(out.signature, "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
    floe__sigv4_result_free(&out);
}

static void test_aws_suite_vanilla(void)
{
    floe_sigv4_kv h[] = {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}};
    floe_sigv4_kv q[] = {{"Param2", "value2"}, {"Param1", "value1"}};
    floe_sigv4_request r = {.method = "GET",
                            .path = "/",
                            .headers = h,
                            .nheaders = 2,
                            .payload_sha256 = FLOE_SIGV4_EMPTY_SHA256,
                            .amz_date = "20150830T123600Z",
                            .region = "us-east-1",
                            .service = "service",
                            .access_key = "AKIDEXAMPLE",
                            .secret_key = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"};
    floe_sigv4_result out;
    FT_OK(floe__sigv4_sign(&r, &out));
    FT_EQ_STR(
        out.canonical_request,
        "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n"
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    FT_EQ_STR(out.signature, "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
    floe__sigv4_result_free(&out);
    r.query = q;
    r.nquery = 2;
    FT_OK(floe__sigv4_sign(&r, &out));
    FT_CHECK(strstr(out.canonical_request, "GET\n/\nParam1=value1&Param2=value2\n") ==
             out.canonical_request);
    FT_EQ_STR(out.signature, "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
    floe__sigv4_result_free(&out);
}

static void test_encoding(void)
{
    floe_buf b = FLOE_BUF_INIT;
    const char *k = "a b/c+d=e&f!g'h(i)j*k~l_m.n-o/\xc3\xa9";
    FT_OK(floe__uri_encode(&b, k, strlen(k), true));
    FT_EQ_STR(b.ptr, "a%20b/c%2Bd%3De%26f%21g%27h%28i%29j%2Ak~l_m.n-o/%C3%A9");
    floe__buf_clear(&b);
    FT_OK(floe__uri_encode(&b, "x/y", 3, false));
    FT_EQ_STR(b.ptr, "x%2Fy");
    floe__buf_free(&b);
    char d[17];
    floe__amz_date(1369353600, d);
    FT_EQ_STR(d, "20130524T000000Z");
}

static void test_incomplete(void)
{
    floe_sigv4_request r = {.method = "GET", .path = "/"};
    floe_sigv4_result out;
    FT_EQ_INT(floe__sigv4_sign(&r, &out), FLOE_EINVALID);
}

static void test_oom(void)
{
    floe_sigv4_kv q[] = {{"prefix", "J"}, {"max-keys", "2"}};
    floe_sigv4_kv h[] = {{"Host", "h"}, {"x-amz-date", "20130524T000000Z"}};
    floe_sigv4_request r = {.method = "GET",
                            .path = "/k",
                            .query = q,
                            .nquery = 2,
                            .headers = h,
                            .nheaders = 2,
                            .payload_sha256 = FLOE_SIGV4_UNSIGNED,
                            .amz_date = "20130524T000000Z",
                            .region = "us-east-1",
                            .service = "s3",
                            .access_key = AK,
                            .secret_key = SK};
    for (long n = 1;; n++) {
        floe__alloc_fail_at(n);
        floe_sigv4_result out;
        int rc = floe__sigv4_sign(&r, &out);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            floe__sigv4_result_free(&out);
            FT_CHECK(n > 3);
            break;
        }
        FT_EQ_INT(rc, FLOE_ENOMEM);
        FT_ASSERT(n < 1000);
    }
}

/* ---------------------------------------------------------------- botocore */

typedef struct bcase {
    const char *method, *host, *path;
    const char *q[8]; /* name, value pairs, NULL-terminated */
    const char *h[8]; /* name, value pairs */
    const char *payload;
    const char *region;
    const char *token;
} bcase;

static const bcase bcases[] = {
    {"GET",
     "127.0.0.1:9000",
     "/bucket/plain/key.avro",
     {0},
     {"range", "bytes=0-99", 0},
     FLOE_SIGV4_EMPTY_SHA256,
     "us-east-1",
     NULL},
    {"PUT",
     "bucket.s3.eu-west-3.amazonaws.com",
     "/dir with space/f\xc3\xa9\xe2\x82\xac.json",
     {0},
     {"if-none-match", "*", 0},
     FLOE_SIGV4_UNSIGNED,
     "eu-west-3",
     NULL},
    {"GET",
     "localhost:4568",
     "/b/k+=&!'()*~.txt",
     {0},
     {0},
     FLOE_SIGV4_EMPTY_SHA256,
     "us-west-2",
     "FQoGZXIvYXdzEXAMPLE/TOKEN+with=chars"},
    {"GET",
     "s3.localhost:1234",
     "/bucket",
     {"list-type", "2", "prefix", "warehouse/db 1/t+x/", "continuation-token", "1/ab+c=d==", 0},
     {0},
     FLOE_SIGV4_EMPTY_SHA256,
     "us-east-1",
     NULL},
    {"POST",
     "127.0.0.1:9000",
     "/bucket/obj",
     {"uploads", "", 0},
     {"content-md5", "  a  b  ", 0},
     "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072",
     "ap-south-1",
     NULL},
    {"DELETE",
     "127.0.0.1:9000",
     "/bucket/obj",
     {"uploadId", "2~abc/DEF+ghi=", 0},
     {0},
     FLOE_SIGV4_EMPTY_SHA256,
     "us-east-1",
     NULL},
};

static void json_str(floe_buf *b, const char *s)
{
    floe__buf_putc(b, '"');
    floe__buf_put_json_escaped(b, s, strlen(s));
    floe__buf_putc(b, '"');
}

static void test_botocore(void)
{
    char *probe = NULL;
    if (ft_run(&probe, "/usr/bin/python3 -c 'import botocore' 2>&1") != 0) {
        free(probe);
        ft_skip("python3-botocore is not installed (apt-get install python3-botocore)");
        return;
    }
    free(probe);
    floe_buf in = FLOE_BUF_INIT;
    floe_sigv4_result res[FT_N(bcases)];
    const char *date = "20261129T120000Z";
    for (size_t i = 0; i < FT_N(bcases); i++) {
        const bcase *c = &bcases[i];
        floe_sigv4_kv q[4] = {{0}}, h[8] = {{0}};
        size_t nq = 0, nh = 0;
        for (; c->q[2 * nq]; nq++)
            q[nq] = (floe_sigv4_kv){c->q[2 * nq], c->q[2 * nq + 1]};
        h[nh++] = (floe_sigv4_kv){"host", c->host};
        h[nh++] = (floe_sigv4_kv){"x-amz-date", date};
        h[nh++] = (floe_sigv4_kv){"x-amz-content-sha256", c->payload};
        if (c->token)
            h[nh++] = (floe_sigv4_kv){"x-amz-security-token", c->token};
        for (size_t j = 0; c->h[2 * j]; j++)
            h[nh++] = (floe_sigv4_kv){c->h[2 * j], c->h[2 * j + 1]};
        floe_sigv4_request r = {.method = c->method,
                                .path = c->path,
                                .query = q,
                                .nquery = nq,
                                .headers = h,
                                .nheaders = nh,
                                .payload_sha256 = c->payload,
                                .amz_date = date,
                                .region = c->region,
                                .service = "s3",
                                .access_key = AK,
                                .secret_key = SK};
        FT_OK(floe__sigv4_sign(&r, &res[i]));

        floe__buf_printf(&in, "{\"method\":\"%s\",\"host\":\"%s\",\"path\":", c->method, c->host);
        json_str(&in, c->path);
        floe__buf_puts(&in, ",\"query\":[");
        for (size_t j = 0; j < nq; j++) {
            floe__buf_puts(&in, j ? ",[" : "[");
            json_str(&in, q[j].name);
            floe__buf_putc(&in, ',');
            json_str(&in, q[j].value);
            floe__buf_putc(&in, ']');
        }
        floe__buf_puts(&in, "],\"headers\":{");
        for (size_t j = 1; j < nh; j++) { /* host is set by the script */
            if (j > 1)
                floe__buf_putc(&in, ',');
            json_str(&in, h[j].name);
            floe__buf_putc(&in, ':');
            json_str(&in, h[j].value);
        }
        floe__buf_printf(&in,
                         "},\"payload\":\"%s\",\"date\":\"%s\",\"region\":\"%s\",\"ak\":\"%s\","
                         "\"sk\":\"%s\"}\n",
                         c->payload, date, c->region, AK, SK);
    }
    FT_ASSERT(ft_write_file(ft_tmp("in.jsonl"), in.ptr, in.len) == 0);
    floe__buf_free(&in);
    char *out = NULL;
    int st = ft_run(&out, "/usr/bin/python3 %s/tests/unit/s3/sigv4_botocore.py < %s",
                    ft_source_dir(), ft_tmp("in.jsonl"));
    FT_EQ_INT(st, 0);
    char *line = out;
    for (size_t i = 0; i < FT_N(bcases) && line && *line; i++) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char want[80];
        snprintf(want, sizeof want, "\"signature\": \"%s\"", res[i].signature);
        if (!strstr(line, want))
            ft_fail(__FILE__, __LINE__, "case %zu (%s %s): floe signed\n%s\nbotocore: %s", i,
                    bcases[i].method, bcases[i].path, res[i].canonical_request, line);
        line = nl ? nl + 1 : NULL;
    }
    FT_CHECK(line != NULL);
    for (size_t i = 0; i < FT_N(bcases); i++)
        floe__sigv4_result_free(&res[i]);
    free(out);
}

static const ft_case cases[] = {
    {"aws_get_object", test_aws_get_object},
    {"aws_put_object", test_aws_put_object},
    {"aws_get_lifecycle", test_aws_get_lifecycle},
    {"aws_list_objects", test_aws_list_objects},
    {"aws_suite_vanilla", test_aws_suite_vanilla},
    {"encoding", test_encoding},
    {"incomplete", test_incomplete},
    {"oom", test_oom},
    {"botocore", test_botocore},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
