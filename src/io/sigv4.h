/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AWS Signature Version 4 (header signing) for S3: canonical request, string
 * to sign, signing key and the Authorization header, on OpenSSL's libcrypto.
 * Reference: "Signature Calculations for the Authorization Header: Transferring
 * Payload in a Single Chunk" (AWS S3 API reference, sig-v4-header-based-auth).
 *
 * S3 flavour: the path is URI-encoded once (no double encoding, no dot-segment
 * normalisation), '/' kept; query names and values are encoded with the
 * RFC 3986 unreserved set and sorted by encoded name then value.
 */
#ifndef FLOE_IO_SIGV4_H
#define FLOE_IO_SIGV4_H

#include "util/util.h"

#define FLOE_SIGV4_EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define FLOE_SIGV4_UNSIGNED "UNSIGNED-PAYLOAD"

typedef struct floe_sigv4_kv {
    const char *name;
    const char *value;
} floe_sigv4_kv;

typedef struct floe_sigv4_request {
    const char *method;         /* "GET", "PUT", ... */
    const char *path;           /* decoded path ("/bucket/my key"); encoded by the signer */
    const floe_sigv4_kv *query; /* decoded names and values (value "" for a bare name) */
    size_t nquery;
    const floe_sigv4_kv *headers; /* headers to sign (any case; values trimmed) */
    size_t nheaders;
    const char *payload_sha256; /* hex sha256 of the body or "UNSIGNED-PAYLOAD" */
    const char *amz_date;       /* "20130524T000000Z" */
    const char *region;
    const char *service; /* "s3" */
    const char *access_key;
    const char *secret_key;
} floe_sigv4_request;

/* Everything the signer computed; each string is owned (floe__free via
 * floe__sigv4_result_free). canonical_request and string_to_sign exist for
 * tests and debugging — they contain no secret. */
typedef struct floe_sigv4_result {
    char *canonical_request;
    char *string_to_sign;
    char *signed_headers; /* "host;range;x-amz-date" */
    char signature[65];   /* lowercase hex */
    char *authorization;  /* full Authorization header value */
} floe_sigv4_result;

/* Sign a request. Returns 0, FLOE_ENOMEM or FLOE_EINVALID (missing field). */
int floe__sigv4_sign(const floe_sigv4_request *req, floe_sigv4_result *out);
void floe__sigv4_result_free(floe_sigv4_result *r);

/* Lowercase hex SHA-256 of data into out[65]. */
void floe__sha256_hex(const void *data, size_t len, char out[65]);

/* Append `s` URI-encoded (RFC 3986 unreserved kept; '/' kept when keep_slash). */
int floe__uri_encode(floe_buf *b, const char *s, size_t len, bool keep_slash);

/* "20130524T000000Z" for a UTC time in seconds. */
void floe__amz_date(int64_t epoch_seconds, char out[17]);

#endif
