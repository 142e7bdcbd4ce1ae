/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AWS Signature Version 4 header signing for S3 (see sigv4.h): the canonical
 * request (method, encoded path, sorted encoded query, lowercase sorted
 * headers with trimmed values, signed header list, payload hash), the string
 * to sign (algorithm, date, scope, hash of the canonical request) and the
 * signature HMAC-SHA256(kSigning, string_to_sign) with
 * kSigning = HMAC(HMAC(HMAC(HMAC("AWS4"+secret, date), region), service), "aws4_request").
 *
 * The secret key only ever enters HMAC; nothing derived from it other than
 * the final signature leaves this file.
 */
#include "sigv4.h"

#include "lazy/crypto.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void hex(const unsigned char *in, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = '\0';
}

void floe__sha256_hex(const void *data, size_t len, char out[65])
{
    unsigned char md[SHA256_DIGEST_LENGTH];
    SHA256(data, len, md);
    hex(md, sizeof md, out);
}

static int hmac(const void *key, size_t klen, const void *msg, size_t mlen, unsigned char out[32])
{
    unsigned int olen = 32;
    if (!HMAC(EVP_sha256(), key, (int)klen, msg, mlen, out, &olen) || olen != 32)
        return floe__error(FLOE_ERROR, "s3", "HMAC-SHA256 failed in libcrypto");
    return 0;
}

void floe__amz_date(int64_t epoch_seconds, char out[17])
{
    time_t t = (time_t)epoch_seconds;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 17, "%Y%m%dT%H%M%SZ", &tm);
}

static bool unreserved(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == '~';
}

int floe__uri_encode(floe_buf *b, const char *s, size_t len, bool keep_slash)
{
    static const char digits[] = "0123456789ABCDEF";
    FLOE_TRY(floe__buf_reserve(b, len * 3));
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (unreserved(c) || (keep_slash && c == '/')) {
            b->ptr[b->len++] = (char)c;
        } else {
            b->ptr[b->len++] = '%';
            b->ptr[b->len++] = digits[c >> 4];
            b->ptr[b->len++] = digits[c & 15];
        }
    }
    b->ptr[b->len] = '\0';
    return 0;
}

typedef struct enc_pair {
    char *name;
    char *value;
} enc_pair;

static int cmp_pair(const void *a, const void *b)
{
    const enc_pair *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->value, y->value);
}

static void free_pairs(enc_pair *p, size_t n)
{
    if (!p)
        return;
    for (size_t i = 0; i < n; i++) {
        floe__free(p[i].name);
        floe__free(p[i].value);
    }
    floe__free(p);
}

static char *encode_dup(const char *s, bool keep_slash)
{
    floe_buf b = FLOE_BUF_INIT;
    if (floe__uri_encode(&b, s, strlen(s), keep_slash) < 0 || floe__buf_reserve(&b, 0) < 0) {
        floe__buf_free(&b);
        return NULL;
    }
    return floe__buf_detach(&b);
}

/* Header value canonical form: trimmed, inner runs of spaces collapsed. */
static char *canon_value(const char *v)
{
    size_t n = strlen(v);
    char *out = floe__malloc(n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    bool space = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        if (c == ' ' || c == '\t') {
            space = o > 0;
            continue;
        }
        if (space)
            out[o++] = ' ';
        space = false;
        out[o++] = (char)c;
    }
    out[o] = '\0';
    return out;
}

static char *lower_dup(const char *s)
{
    char *d = floe__strdup(s);
    if (d)
        for (char *p = d; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    return d;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(((const enc_pair *)a)->name, ((const enc_pair *)b)->name);
}

int floe__sigv4_sign(const floe_sigv4_request *req, floe_sigv4_result *out)
{
    memset(out, 0, sizeof *out);
    if (!req->method || !req->path || !req->payload_sha256 || !req->amz_date ||
        strlen(req->amz_date) != 16 || !req->region || !req->service || !req->access_key ||
        !req->secret_key)
        return floe__error(FLOE_EINVALID, "s3", "SigV4: incomplete request to sign");

    int rc = FLOE_ENOMEM;
    floe_buf cr = FLOE_BUF_INIT, sts = FLOE_BUF_INIT, sh = FLOE_BUF_INIT, auth = FLOE_BUF_INIT;
    size_t nq = req->nquery, nh = req->nheaders;
    enc_pair *q = floe__calloc(nq ? nq : 1, sizeof *q);
    enc_pair *h = floe__calloc(nh ? nh : 1, sizeof *h);
    if (!q || !h)
        goto fail;
    for (size_t i = 0; i < nq; i++) {
        q[i].name = encode_dup(req->query[i].name, false);
        q[i].value = encode_dup(req->query[i].value ? req->query[i].value : "", false);
        if (!q[i].name || !q[i].value)
            goto fail;
    }
    qsort(q, nq, sizeof *q, cmp_pair);
    for (size_t i = 0; i < nh; i++) {
        h[i].name = lower_dup(req->headers[i].name);
        h[i].value = canon_value(req->headers[i].value ? req->headers[i].value : "");
        if (!h[i].name || !h[i].value)
            goto fail;
    }
    /* Stable for equal names so repeated headers keep their order when joined. */
    for (size_t i = 1; i < nh; i++)
        for (size_t j = i; j > 0 && cmp_name(&h[j - 1], &h[j]) > 0; j--) {
            enc_pair t = h[j];
            h[j] = h[j - 1];
            h[j - 1] = t;
        }

    /* Canonical request. */
    if (floe__buf_printf(&cr, "%s\n", req->method) < 0)
        goto fail;
    if (req->path[0] != '/' && floe__buf_putc(&cr, '/') < 0)
        goto fail;
    if (floe__uri_encode(&cr, req->path, strlen(req->path), true) < 0 ||
        floe__buf_putc(&cr, '\n') < 0)
        goto fail;
    for (size_t i = 0; i < nq; i++)
        if (floe__buf_printf(&cr, "%s%s=%s", i ? "&" : "", q[i].name, q[i].value) < 0)
            goto fail;
    if (floe__buf_putc(&cr, '\n') < 0)
        goto fail;
    for (size_t i = 0; i < nh; i++) {
        bool same_as_prev = i > 0 && strcmp(h[i - 1].name, h[i].name) == 0;
        bool same_as_next = i + 1 < nh && strcmp(h[i + 1].name, h[i].name) == 0;
        if (!same_as_prev) {
            if (floe__buf_printf(&cr, "%s:", h[i].name) < 0 ||
                floe__buf_printf(&sh, "%s%s", sh.len ? ";" : "", h[i].name) < 0)
                goto fail;
        }
        if (floe__buf_printf(&cr, "%s%s", h[i].value, same_as_next ? "," : "\n") < 0)
            goto fail;
    }
    if (floe__buf_printf(&cr, "\n%s\n%s", sh.len ? sh.ptr : "", req->payload_sha256) < 0)
        goto fail;

    /* String to sign. */
    char date[9];
    memcpy(date, req->amz_date, 8);
    date[8] = '\0';
    char crhash[65];
    floe__sha256_hex(cr.ptr, cr.len, crhash);
    if (floe__buf_printf(&sts, "AWS4-HMAC-SHA256\n%s\n%s/%s/%s/aws4_request\n%s", req->amz_date,
                         date, req->region, req->service, crhash) < 0)
        goto fail;

    /* Signing key and signature. */
    {
        unsigned char k[32];
        size_t slen = strlen(req->secret_key);
        char *kSecret = floe__malloc(slen + 5);
        if (!kSecret)
            goto fail;
        snprintf(kSecret, slen + 5, "AWS4%s", req->secret_key);
        rc = hmac(kSecret, slen + 4, date, 8, k);
        OPENSSL_cleanse(kSecret, slen + 4);
        floe__free(kSecret);
        if (rc < 0 || (rc = hmac(k, 32, req->region, strlen(req->region), k)) < 0 ||
            (rc = hmac(k, 32, req->service, strlen(req->service), k)) < 0 ||
            (rc = hmac(k, 32, "aws4_request", 12, k)) < 0 ||
            (rc = hmac(k, 32, sts.ptr, sts.len, k)) < 0)
            goto fail;
        hex(k, 32, out->signature);
        OPENSSL_cleanse(k, sizeof k);
        rc = FLOE_ENOMEM;
    }
    if (floe__buf_printf(&auth,
                         "AWS4-HMAC-SHA256 Credential=%s/%s/%s/%s/aws4_request,SignedHeaders=%s,"
                         "Signature=%s",
                         req->access_key, date, req->region, req->service, sh.len ? sh.ptr : "",
                         out->signature) < 0)
        goto fail;
    if (floe__buf_reserve(&sh, 0) < 0)
        goto fail;

    out->canonical_request = floe__buf_detach(&cr);
    out->string_to_sign = floe__buf_detach(&sts);
    out->signed_headers = floe__buf_detach(&sh);
    out->authorization = floe__buf_detach(&auth);
    free_pairs(q, nq);
    free_pairs(h, nh);
    return 0;

fail:
    if (rc == FLOE_ENOMEM)
        floe__error_nomem();
    free_pairs(q, nq);
    free_pairs(h, nh);
    floe__buf_free(&cr);
    floe__buf_free(&sts);
    floe__buf_free(&sh);
    floe__buf_free(&auth);
    memset(out, 0, sizeof *out);
    return rc;
}

void floe__sigv4_result_free(floe_sigv4_result *r)
{
    if (!r)
        return;
    floe__free(r->canonical_request);
    floe__free(r->string_to_sign);
    floe__free(r->signed_headers);
    floe__free(r->authorization);
    memset(r, 0, sizeof *r);
}
