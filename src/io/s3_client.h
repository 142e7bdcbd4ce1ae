/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The S3 HTTP client under the S3 FileIO: configuration, a thread-safe pool
 * of libcurl handles sharing one connection cache, SigV4 signing of every
 * attempt, retries with exponential backoff and the mapping of S3 answers to
 * FLOE_E* codes. Private to src/io/s3*.c.
 */
#ifndef FLOE_IO_S3_CLIENT_H
#define FLOE_IO_S3_CLIENT_H

#include "s3.h"
#include "sigv4.h"

typedef struct s3_config {
    char *endpoint; /* "https://s3.us-east-1.amazonaws.com" when not configured */
    char *region;
    char *access_key; /* NULL: anonymous (unsigned) requests */
    char *secret_key;
    char *session_token;
    bool path_style;
    bool if_none_match; /* send If-None-Match: * on object creation */
    bool sign_payload;  /* sha256 of bodies; else UNSIGNED-PAYLOAD */
    int64_t multipart_size;
    int64_t delete_batch;
    int64_t retries;
    int64_t retry_min_ms;
    int64_t retry_max_ms;
    int64_t connect_timeout_ms;
    int64_t request_timeout_ms;
    int64_t parallelism;
} s3_config;

typedef struct s3_client s3_client;

typedef struct s3_request {
    const char *method;
    const char *bucket;
    const char *key;        /* "" for bucket-level requests */
    floe_sigv4_kv query[4]; /* decoded */
    size_t nquery;
    floe_sigv4_kv headers[4]; /* extra headers, signed */
    size_t nheaders;
    const void *body;
    size_t body_len;
    bool retry;      /* safe to repeat */
    const char *uri; /* named in errors */
    /* Response body of a 2xx into a caller buffer of exactly dst_len bytes
     * (a ranged GET); otherwise into `resp`, capped at resp_cap bytes. */
    void *dst;
    size_t dst_len;
    size_t resp_cap;
    /* Results. */
    long status;
    floe_buf resp;
    size_t dst_got;
    int64_t content_length;
    int64_t last_modified_ms;
    char etag[160];
    /* internal */
    int64_t range_start; /* to drop when a server ignores Range and answers 200 */
    int64_t skipped;
    bool overflow;
    bool nomem;
} s3_request;

int floe__s3_client_new(const floe_props *conf, s3_client **out);
void floe__s3_client_free(s3_client *c);
const s3_config *floe__s3_client_config(const s3_client *c);

/* Perform (with retries). 0 when the final status is 2xx; otherwise a
 * FLOE_E* code with the error set: 404 -> FLOE_ENOTFOUND, 412 ->
 * FLOE_EEXISTS, anything else -> FLOE_EIO naming method, URI, status and S3
 * error code. r->status and r->resp hold the last answer either way. */
int floe__s3_perform(s3_client *c, s3_request *r);
void floe__s3_request_free(s3_request *r);

#endif
