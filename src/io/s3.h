/* SPDX-License-Identifier: Apache-2.0 */
/*
 * S3 FileIO (private): the constructor the FileIO dispatcher calls for
 * s3://, s3a:// and s3n:// URIs, a parallel-GET helper for planning and
 * reading, and the pieces exposed for tests (URI parsing, URL building,
 * response XML parsing). See docs/s3.md.
 */
#ifndef FLOE_IO_S3_H
#define FLOE_IO_S3_H

#include "floe/sys/fileio.h"
#include "util/util.h"

#define FLOE_S3_MAX_XML (16 << 20)              /* largest XML response accepted */
#define FLOE_S3_MAX_KEY 4096                    /* longest key / token accepted */
#define FLOE_S3_MAX_LIST_ENTRIES 100000         /* entries in one ListObjectsV2 page */
#define FLOE_S3_MAX_DELETE_BATCH 1000           /* DeleteObjects limit */
#define FLOE_S3_MAX_WHOLE_GET ((size_t)1 << 30) /* whole-object GET without a length */

/* Create an S3 FileIO from Iceberg S3FileIO-style properties (conf may be
 * NULL) and the AWS_* environment variables (properties win). Keys read:
 * s3.endpoint, s3.region, client.region, s3.access-key-id,
 * s3.secret-access-key, s3.session-token, s3.path-style-access,
 * s3.multipart.size, s3.delete.batch-size, s3.retry.num-retries,
 * s3.retry.min-wait-ms, s3.retry.max-wait-ms, s3.connect-timeout-ms,
 * s3.request-timeout-ms, s3.write.if-none-match, s3.payload-signing,
 * s3.read.parallelism. *out is freed with (*out)->ops->free(*out).
 * Errors: FLOE_EINVALID (bad property value; message names the key, never a
 * credential), FLOE_ENOMEM, FLOE_EIO (libcurl could not be initialised). */
int floe__s3_fileio_new(const floe_props *conf, floe_fileio **out);

/* True when the FileIO was made by floe__s3_fileio_new. */
bool floe__s3_is_s3(const floe_fileio *io);

/* The FileIO's s3.read.parallelism (default 16), or 0 when it is not S3:
 * how many requests to keep in flight when the caller has no better idea. */
int floe__s3_read_parallelism(const floe_fileio *io);

/* One GET of floe__s3_get_many: a whole object (length -1; at most
 * FLOE_S3_MAX_WHOLE_GET bytes, larger answers are FLOE_ECORRUPT) or a range. */
typedef struct floe_s3_get {
    const char *uri;
    int64_t offset;
    int64_t length; /* -1: to the end of the object */
    void *data;     /* out: floe__malloc'd bytes (caller floe__free()s), NULL on failure */
    size_t size;    /* out: bytes in data */
    int rc;         /* out: 0 or the request's FLOE_E* code */
} floe_s3_get;

/* Run the GETs concurrently (parallelism 0 = s3.read.parallelism, default
 * 16) over the FileIO's connection pool. Every request runs; returns 0 or
 * the first failing request's code (its error is the thread's error). */
int floe__s3_get_many(floe_fileio *io, floe_s3_get *gets, size_t n, int parallelism);

/* ---------------------------------------------------------------- for tests */

/* "s3://bucket/a/b" (also s3a, s3n) -> bucket "bucket", key "a/b" (arena). */
int floe__s3_parse_uri(floe_arena *a, const char *uri, char **bucket, char **key);

/* Request URL and Host header for a bucket/key under an endpoint
 * ("http://127.0.0.1:9000"), path-style or virtual-hosted. */
int floe__s3_build_url(floe_arena *a, const char *endpoint, bool path_style, const char *bucket,
                       const char *key, char **url, char **host);

typedef struct floe_s3_list_entry {
    char *key;
    int64_t size;
    int64_t mtime_ms;
} floe_s3_list_entry;

typedef struct floe_s3_list_page {
    floe_s3_list_entry *entries;
    size_t n;
    bool truncated;
    char *next_token;
} floe_s3_list_page;

/* ListObjectsV2 response -> page (strings in the arena). FLOE_ECORRUPT on bad XML. */
int floe__s3_parse_list(floe_arena *a, const char *xml, size_t len, floe_s3_list_page *out);
/* <Error> document -> Code and Message (truncated to the caps). Returns
 * FLOE_ENOTFOUND when the document is not an <Error>, FLOE_ECORRUPT when it
 * is not XML; neither sets the thread's error. */
int floe__s3_parse_error(const char *xml, size_t len, char *code, size_t code_cap, char *message,
                         size_t msg_cap);
/* InitiateMultipartUploadResult -> UploadId (floe__malloc'd). */
int floe__s3_parse_upload_id(const char *xml, size_t len, char **upload_id);
/* DeleteResult -> number of <Error>s other than NoSuchKey, and the first one. */
int floe__s3_parse_delete_result(const char *xml, size_t len, char *first_key, size_t key_cap,
                                 char *first_code, size_t code_cap, size_t *nerrors);
/* ISO 8601 "2009-10-12T17:50:30.000Z" -> ms since epoch (FLOE_ECORRUPT, no error set). */
int floe__s3_parse_time(const char *s, int64_t *ms);

#endif
