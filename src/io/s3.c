/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The S3 FileIO: floe_fileio_ops over the S3 REST API (s3_client.c does the
 * HTTP, signing and retries). Objects are read with HEAD (size) and ranged
 * GETs, written with one PUT up to s3.multipart.size bytes and a multipart
 * upload above it (aborted on any failure, so no partial object ever
 * appears), deleted with DELETE or DeleteObjects batches, and listed with
 * ListObjectsV2 following continuation tokens.
 *
 * s3://, s3a:// and s3n:// name the same objects; a listing reports URIs in
 * the scheme of the prefix it was given.
 *
 * Create-new: Iceberg metadata file names are unique and the catalog's
 * compare-and-set is the commit, so a plain PUT is safe. With
 * s3.write.if-none-match=true the PUT (or CompleteMultipartUpload) carries
 * `If-None-Match: *` and a 412 answer becomes FLOE_EEXISTS.
 */
#include "s3_client.h"

#include "lazy/crypto.h"
#include <string.h>

typedef struct s3_io {
    s3_client *client;
    int64_t list_max_keys;
} s3_io;

static const floe_fileio_ops s3_ops;

/* ---------------------------------------------------------------- URIs */

static const char *scheme_end(const char *uri)
{
    static const char *schemes[] = {"s3://", "s3a://", "s3n://"};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(schemes); i++) {
        size_t n = strlen(schemes[i]);
        if (strncmp(uri, schemes[i], n) == 0)
            return uri + n;
    }
    return NULL;
}

int floe__s3_parse_uri(floe_arena *a, const char *uri, char **bucket, char **key)
{
    const char *p = uri ? scheme_end(uri) : NULL;
    if (!p)
        return floe__error(FLOE_EINVALID, "s3", "not an S3 URI (s3://, s3a://, s3n://): %s",
                           uri ? uri : "(null)");
    size_t blen = strcspn(p, "/");
    if (blen == 0 || blen > 255)
        return floe__error(FLOE_EINVALID, "s3", "S3 URI without a valid bucket: %s", uri);
    const char *k = p[blen] == '/' ? p + blen + 1 : p + blen;
    if (strlen(k) > 1024)
        return floe__error(FLOE_EINVALID, "s3", "S3 key longer than 1024 bytes in %.64s...", uri);
    *bucket = floe__arena_strndup(a, p, blen);
    *key = floe__arena_strdup(a, k);
    if (!*bucket || !*key)
        return floe__error_nomem();
    return 0;
}

bool floe__s3_is_s3(const floe_fileio *io)
{
    return io && io->ops == &s3_ops;
}

/* ---------------------------------------------------------------- stat / HEAD */

static int head(s3_io *s, const char *uri, const char *bucket, const char *key,
                floe_file_info *info)
{
    s3_request r = {.method = "HEAD", .bucket = bucket, .key = key, .retry = true, .uri = uri};
    int rc = floe__s3_perform(s->client, &r);
    if (rc == 0) {
        if (r.content_length < 0)
            rc = floe__error(FLOE_ECORRUPT, "s3", "HEAD %s: no Content-Length in the answer", uri);
        info->uri = uri;
        info->size = r.content_length;
        info->mtime_ms = r.last_modified_ms;
    }
    floe__s3_request_free(&r);
    return rc;
}

static int s3_stat(floe_file_info *out, floe_fileio *io, const char *uri)
{
    s3_io *s = io->impl;
    floe_arena *a = floe__arena_new(256);
    if (!a)
        return FLOE_ENOMEM;
    char *bucket, *key;
    int rc = floe__s3_parse_uri(a, uri, &bucket, &key);
    if (rc == 0)
        rc = head(s, uri, bucket, key, out);
    floe__arena_free(a);
    return rc;
}

/* ---------------------------------------------------------------- input */

typedef struct s3_input {
    floe_input base;
    s3_io *s;
    floe_arena *arena;
    char *bucket;
    char *key;
} s3_input;

static int ranged_get(s3_io *s, const char *uri, const char *bucket, const char *key,
                      int64_t offset, void *buf, size_t len)
{
    char range[64];
    snprintf(range, sizeof range, "bytes=%lld-%lld", (long long)offset,
             (long long)(offset + (int64_t)len - 1));
    s3_request r = {.method = "GET",
                    .bucket = bucket,
                    .key = key,
                    .retry = true,
                    .uri = uri,
                    .dst = buf,
                    .dst_len = len,
                    .range_start = offset};
    r.headers[r.nheaders++] = (floe_sigv4_kv){"range", range};
    int rc = floe__s3_perform(s->client, &r);
    floe__s3_request_free(&r);
    return rc;
}

static int in_read_at(floe_input *in, int64_t offset, void *buf, size_t len)
{
    s3_input *si = (s3_input *)in;
    if (offset < 0 || offset > in->size || (int64_t)len > in->size - offset)
        return floe__error(FLOE_ECORRUPT, "s3",
                           "read of %zu bytes at offset %lld is past the end of %s (%lld bytes)",
                           len, (long long)offset, in->uri, (long long)in->size);
    if (len == 0)
        return 0;
    return ranged_get(si->s, in->uri, si->bucket, si->key, offset, buf, len);
}

static void in_close(floe_input *in)
{
    if (!in)
        return;
    s3_input *si = (s3_input *)in;
    floe__arena_free(si->arena);
    floe__free(si);
}

static int s3_open_input(floe_input **out, floe_fileio *io, const char *uri)
{
    *out = NULL;
    s3_input *si = floe__calloc(1, sizeof *si);
    if (!si)
        return FLOE_ENOMEM;
    si->s = io->impl;
    int rc = FLOE_ENOMEM;
    if (!(si->arena = floe__arena_new(512)) || !(si->base.uri = floe__arena_strdup(si->arena, uri)))
        goto fail;
    if ((rc = floe__s3_parse_uri(si->arena, uri, &si->bucket, &si->key)) < 0)
        goto fail;
    floe_file_info info = {0};
    if ((rc = head(si->s, si->base.uri, si->bucket, si->key, &info)) < 0)
        goto fail;
    si->base.size = info.size;
    si->base.read_at = in_read_at;
    si->base.close = in_close;
    *out = &si->base;
    return 0;
fail:
    if (rc == FLOE_ENOMEM)
        floe__error_nomem();
    in_close(&si->base);
    return rc;
}

/* ---------------------------------------------------------------- output */

typedef struct s3_part {
    char etag[160];
} s3_part;

typedef struct s3_output {
    floe_output base;
    s3_io *s;
    floe_arena *arena;
    char *bucket;
    char *key;
    floe_buf buf;
    char *upload_id; /* multipart in progress */
    floe_vec parts;  /* s3_part */
    bool done;       /* committed or failed: further writes refused */
} s3_output;

static void abort_multipart(s3_output *so)
{
    if (!so->upload_id)
        return;
    /* Keep the error that made us abort; the abort's own failure is secondary. */
    int code = floe__error_code();
    const floe_error *e = floe_error_last();
    char saved[1024] = "", subsystem[32] = "s3";
    if (e) {
        snprintf(saved, sizeof saved, "%s", e->message);
        snprintf(subsystem, sizeof subsystem, "%s", e->subsystem);
    }
    s3_request r = {.method = "DELETE",
                    .bucket = so->bucket,
                    .key = so->key,
                    .retry = true,
                    .uri = so->base.uri};
    r.query[r.nquery++] = (floe_sigv4_kv){"uploadId", so->upload_id};
    (void)floe__s3_perform(so->s->client, &r);
    floe__s3_request_free(&r);
    floe__free(so->upload_id);
    so->upload_id = NULL;
    if (code < 0)
        floe__error(code, subsystem, "%s", saved);
}

static int start_multipart(s3_output *so)
{
    s3_request r = {
        .method = "POST", .bucket = so->bucket, .key = so->key, .retry = true, .uri = so->base.uri};
    r.query[r.nquery++] = (floe_sigv4_kv){"uploads", ""};
    int rc = floe__s3_perform(so->s->client, &r);
    if (rc == 0)
        rc = floe__s3_parse_upload_id(r.resp.ptr, r.resp.len, &so->upload_id);
    floe__s3_request_free(&r);
    if (rc < 0)
        floe__error_context("starting the multipart upload of %s: ", so->base.uri);
    return rc;
}

static int upload_part(s3_output *so, const void *data, size_t len)
{
    if (so->parts.len >= 10000)
        return floe__error(FLOE_EINVALID, "s3",
                           "%s: more than 10000 parts (raise s3.multipart.size)", so->base.uri);
    char num[16];
    snprintf(num, sizeof num, "%zu", so->parts.len + 1);
    s3_request r = {.method = "PUT",
                    .bucket = so->bucket,
                    .key = so->key,
                    .retry = true,
                    .uri = so->base.uri,
                    .body = data,
                    .body_len = len};
    r.query[r.nquery++] = (floe_sigv4_kv){"partNumber", num};
    r.query[r.nquery++] = (floe_sigv4_kv){"uploadId", so->upload_id};
    int rc = floe__s3_perform(so->s->client, &r);
    if (rc == 0 && !r.etag[0])
        rc = floe__error(FLOE_ECORRUPT, "s3", "UploadPart %s of %s: no ETag in the answer", num,
                         so->base.uri);
    if (rc == 0) {
        s3_part *p = floe__vec_push(&so->parts);
        if (!p)
            rc = FLOE_ENOMEM;
        else
            memcpy(p->etag, r.etag, sizeof p->etag);
    }
    floe__s3_request_free(&r);
    return rc;
}

/* Send the buffered full part, starting the multipart upload first if needed. */
static int ship_part(s3_output *so)
{
    if (!so->upload_id)
        FLOE_TRY(start_multipart(so));
    FLOE_TRY(upload_part(so, so->buf.ptr, so->buf.len));
    floe__buf_clear(&so->buf);
    return 0;
}

static int out_write(floe_output *out, const void *data, size_t len)
{
    s3_output *so = (s3_output *)out;
    if (so->done)
        return floe__error(FLOE_EINVALID, "s3", "write to %s after a failed write", out->uri);
    size_t part = (size_t)floe__s3_client_config(so->s->client)->multipart_size;
    const char *p = data;
    while (len > 0) {
        size_t room = part - so->buf.len;
        size_t take = len < room ? len : room;
        int rc = floe__buf_put(&so->buf, p, take);
        p += take;
        len -= take;
        /* A full part with more bytes coming: ship it. The last part always
         * waits for commit(), so a small object is one PUT. */
        if (rc == 0 && so->buf.len == part && len > 0)
            rc = ship_part(so);
        if (rc < 0) {
            so->done = true;
            abort_multipart(so);
            return rc;
        }
    }
    return 0;
}

static int put_xml_text(floe_buf *b, const char *s)
{
    for (; *s; s++) {
        int rc;
        switch (*s) {
        case '&': rc = floe__buf_puts(b, "&amp;"); break;
        case '<': rc = floe__buf_puts(b, "&lt;"); break;
        case '>': rc = floe__buf_puts(b, "&gt;"); break;
        case '"': rc = floe__buf_puts(b, "&quot;"); break;
        case '\'': rc = floe__buf_puts(b, "&apos;"); break;
        default: rc = floe__buf_putc(b, *s);
        }
        FLOE_TRY(rc);
    }
    return 0;
}

static int complete_multipart(s3_output *so)
{
    const s3_config *cfg = floe__s3_client_config(so->s->client);
    floe_buf xml = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&xml, "<CompleteMultipartUpload>");
    for (size_t i = 0; i < so->parts.len && rc == 0; i++) {
        s3_part *p = floe__vec_at(&so->parts, i);
        rc = floe__buf_printf(&xml, "<Part><PartNumber>%zu</PartNumber><ETag>", i + 1);
        if (rc == 0)
            rc = put_xml_text(&xml, p->etag);
        if (rc == 0)
            rc = floe__buf_puts(&xml, "</ETag></Part>");
    }
    if (rc == 0)
        rc = floe__buf_puts(&xml, "</CompleteMultipartUpload>");
    if (rc < 0) {
        floe__buf_free(&xml);
        return rc;
    }
    s3_request r = {.method = "POST",
                    .bucket = so->bucket,
                    .key = so->key,
                    .retry = true,
                    .uri = so->base.uri,
                    .body = xml.ptr,
                    .body_len = xml.len};
    r.query[r.nquery++] = (floe_sigv4_kv){"uploadId", so->upload_id};
    if (cfg->if_none_match)
        r.headers[r.nheaders++] = (floe_sigv4_kv){"if-none-match", "*"};
    rc = floe__s3_perform(so->s->client, &r);
    if (rc == 0) {
        /* S3 may answer 200 and report the failure in an <Error> body. */
        char code[64], msg[256];
        if (floe__s3_parse_error(r.resp.ptr, r.resp.len, code, sizeof code, msg, sizeof msg) == 0)
            rc = strcmp(code, "PreconditionFailed") == 0
                     ? floe__error(FLOE_EEXISTS, "s3", "%s already exists (%s)", so->base.uri, code)
                     : floe__error(FLOE_EIO, "s3", "CompleteMultipartUpload %s failed: %s: %s",
                                   so->base.uri, code, msg);
    }
    floe__s3_request_free(&r);
    floe__buf_free(&xml);
    return rc;
}

static void out_abort(floe_output *out)
{
    if (!out)
        return;
    s3_output *so = (s3_output *)out;
    abort_multipart(so);
    floe__buf_free(&so->buf);
    floe__vec_free(&so->parts);
    floe__arena_free(so->arena);
    floe__free(so);
}

/* Publishes the object and frees the output, success or not (the FileIO
 * contract: an output ends with exactly one of commit() or abort()). */
static int out_commit(floe_output *out)
{
    s3_output *so = (s3_output *)out;
    const s3_config *cfg = floe__s3_client_config(so->s->client);
    int rc;
    if (so->done) {
        rc = floe__error(FLOE_EINVALID, "s3", "commit of %s after a failed write", out->uri);
    } else if (!so->upload_id) {
        s3_request r = {.method = "PUT",
                        .bucket = so->bucket,
                        .key = so->key,
                        .retry = true,
                        .uri = out->uri,
                        .body = so->buf.ptr,
                        .body_len = so->buf.len};
        if (cfg->if_none_match)
            r.headers[r.nheaders++] = (floe_sigv4_kv){"if-none-match", "*"};
        rc = floe__s3_perform(so->s->client, &r);
        floe__s3_request_free(&r);
    } else {
        rc = upload_part(so, so->buf.ptr, so->buf.len);
        if (rc == 0)
            rc = complete_multipart(so);
        if (rc == 0) { /* completed: nothing left to abort */
            floe__free(so->upload_id);
            so->upload_id = NULL;
        }
    }
    out_abort(out); /* aborts the multipart upload if it did not complete */
    return rc;
}

static int s3_create_output(floe_output **out, floe_fileio *io, const char *uri)
{
    *out = NULL;
    s3_output *so = floe__calloc(1, sizeof *so);
    if (!so)
        return FLOE_ENOMEM;
    so->s = io->impl;
    so->parts = (floe_vec)FLOE_VEC_INIT(s3_part);
    int rc = FLOE_ENOMEM;
    if (!(so->arena = floe__arena_new(512)) || !(so->base.uri = floe__arena_strdup(so->arena, uri)))
        goto fail;
    if ((rc = floe__s3_parse_uri(so->arena, uri, &so->bucket, &so->key)) < 0)
        goto fail;
    if (!*so->key) {
        rc = floe__error(FLOE_EINVALID, "s3", "cannot create an object without a key: %s", uri);
        goto fail;
    }
    so->base.write = out_write;
    so->base.commit = out_commit;
    so->base.abort = out_abort;
    *out = &so->base;
    return 0;
fail:
    if (rc == FLOE_ENOMEM)
        floe__error_nomem();
    out_abort(&so->base);
    return rc;
}

/* ---------------------------------------------------------------- remove */

static int delete_batch(s3_io *s, const char *bucket, char **keys, size_t n, const char *first_uri)
{
    if (n == 1) {
        s3_request r = {
            .method = "DELETE", .bucket = bucket, .key = keys[0], .retry = true, .uri = first_uri};
        int rc = floe__s3_perform(s->client, &r);
        floe__s3_request_free(&r);
        if (rc == FLOE_ENOTFOUND) {
            floe_error_clear();
            rc = 0;
        }
        return rc;
    }
    floe_buf xml = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&xml, "<Delete><Quiet>true</Quiet>");
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = floe__buf_puts(&xml, "<Object><Key>");
        if (rc == 0)
            rc = put_xml_text(&xml, keys[i]);
        if (rc == 0)
            rc = floe__buf_puts(&xml, "</Key></Object>");
    }
    if (rc == 0)
        rc = floe__buf_puts(&xml, "</Delete>");
    if (rc < 0) {
        floe__buf_free(&xml);
        return rc;
    }
    /* DeleteObjects requires an integrity header: Content-MD5 (base64). */
    unsigned char md5[MD5_DIGEST_LENGTH];
    unsigned int mdlen = 0;
    EVP_Digest(xml.ptr, xml.len, md5, &mdlen, EVP_md5(), NULL);
    char md5b64[32];
    EVP_EncodeBlock((unsigned char *)md5b64, md5, (int)mdlen);
    char what[300];
    snprintf(what, sizeof what, "s3://%s (DeleteObjects of %zu keys)", bucket, n);
    s3_request r = {.method = "POST",
                    .bucket = bucket,
                    .key = NULL,
                    .retry = true,
                    .uri = what,
                    .body = xml.ptr,
                    .body_len = xml.len};
    r.query[r.nquery++] = (floe_sigv4_kv){"delete", ""};
    r.headers[r.nheaders++] = (floe_sigv4_kv){"content-md5", md5b64};
    rc = floe__s3_perform(s->client, &r);
    if (rc == 0 && r.resp.len > 0) {
        char key[512], code[64];
        size_t nerr = 0;
        rc = floe__s3_parse_delete_result(r.resp.ptr, r.resp.len, key, sizeof key, code,
                                          sizeof code, &nerr);
        if (rc == 0 && nerr > 0)
            rc = floe__error(FLOE_EIO, "s3",
                             "DeleteObjects in bucket %s: %zu key(s) failed, first %s (%s)", bucket,
                             nerr, key, code);
    }
    floe__s3_request_free(&r);
    floe__buf_free(&xml);
    return rc;
}

static int s3_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    s3_io *s = io->impl;
    const s3_config *cfg = floe__s3_client_config(s->client);
    size_t batch = (size_t)cfg->delete_batch;
    floe_arena *a = floe__arena_new(4096);
    char **buckets = floe__calloc(n ? n : 1, sizeof *buckets);
    char **keys = floe__calloc(n ? n : 1, sizeof *keys);
    char **group = floe__calloc(batch, sizeof *group);
    bool *done = floe__calloc(n ? n : 1, sizeof *done);
    int rc = 0;
    if (!a || !buckets || !keys || !group || !done) {
        rc = floe__error_nomem();
        goto out;
    }
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = floe__s3_parse_uri(a, uris[i], &buckets[i], &keys[i]);
    /* Batch keys of the same bucket, in order. */
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (done[i])
            continue;
        size_t m = 0;
        const char *first = uris[i];
        for (size_t j = i; j < n && m < batch; j++) {
            if (!done[j] && strcmp(buckets[j], buckets[i]) == 0) {
                group[m++] = keys[j];
                done[j] = true;
            }
        }
        rc = delete_batch(s, buckets[i], group, m, first);
    }
out:
    floe__free(done);
    floe__free(group);
    floe__free(keys);
    floe__free(buckets);
    floe__arena_free(a);
    return rc;
}

/* ---------------------------------------------------------------- list */

static int s3_list(floe_fileio *io, const char *prefix,
                   int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    s3_io *s = io->impl;
    floe_arena *a = floe__arena_new(4096);
    floe_arena *page_arena = floe__arena_new((size_t)64 * 1024);
    floe_buf uri = FLOE_BUF_INIT;
    char *token = NULL;
    int rc = 0;
    if (!a || !page_arena) {
        rc = floe__error_nomem();
        goto out;
    }
    char *bucket, *key;
    if ((rc = floe__s3_parse_uri(a, prefix, &bucket, &key)) < 0)
        goto out;
    size_t scheme_len = (size_t)(scheme_end(prefix) - prefix);
    char max_keys[24];
    snprintf(max_keys, sizeof max_keys, "%lld", (long long)s->list_max_keys);
    for (long pages = 0;; pages++) {
        s3_request r = {
            .method = "GET", .bucket = bucket, .key = NULL, .retry = true, .uri = prefix};
        r.query[r.nquery++] = (floe_sigv4_kv){"list-type", "2"};
        r.query[r.nquery++] = (floe_sigv4_kv){"prefix", key};
        r.query[r.nquery++] = (floe_sigv4_kv){"max-keys", max_keys};
        if (token)
            r.query[r.nquery++] = (floe_sigv4_kv){"continuation-token", token};
        rc = floe__s3_perform(s->client, &r);
        floe_s3_list_page page = {0};
        floe__arena_reset(page_arena);
        if (rc == 0)
            rc = floe__s3_parse_list(page_arena, r.resp.ptr, r.resp.len, &page);
        floe__s3_request_free(&r);
        if (rc < 0)
            goto out;
        for (size_t i = 0; i < page.n; i++) {
            floe__buf_clear(&uri);
            if ((rc = floe__buf_printf(&uri, "%.*s%s/%s", (int)scheme_len, prefix, bucket,
                                       page.entries[i].key)) < 0)
                goto out;
            floe_file_info info = {uri.ptr, page.entries[i].size, page.entries[i].mtime_ms};
            if ((rc = cb(&info, payload)) < 0)
                goto out;
        }
        if (!page.truncated)
            break;
        if (token && strcmp(token, page.next_token) == 0) {
            rc = floe__error(FLOE_ECORRUPT, "s3",
                             "ListObjectsV2 %s: the server repeated continuation token on page %ld",
                             prefix, pages);
            goto out;
        }
        floe__free(token);
        if (!(token = floe__strdup(page.next_token))) {
            rc = FLOE_ENOMEM;
            goto out;
        }
    }
out:
    floe__free(token);
    floe__buf_free(&uri);
    floe__arena_free(page_arena);
    floe__arena_free(a);
    return rc;
}

/* ---------------------------------------------------------------- parallel GET */

typedef struct get_many_ctx {
    s3_io *s;
    floe_s3_get *gets;
} get_many_ctx;

static int get_one(size_t i, void *payload)
{
    get_many_ctx *ctx = payload;
    floe_s3_get *g = &ctx->gets[i];
    g->data = NULL;
    g->size = 0;
    floe_arena *a = floe__arena_new(256);
    if (!a)
        return g->rc = FLOE_ENOMEM;
    char *bucket, *key;
    int rc = floe__s3_parse_uri(a, g->uri, &bucket, &key);
    if (rc == 0 && g->length >= 0) {
        g->data = floe__malloc(g->length ? (size_t)g->length : 1);
        if (!g->data)
            rc = FLOE_ENOMEM;
        else if (g->length > 0)
            rc = ranged_get(ctx->s, g->uri, bucket, key, g->offset, g->data, (size_t)g->length);
        if (rc == 0)
            g->size = (size_t)g->length;
    } else if (rc == 0) {
        char range[40];
        s3_request r = {.method = "GET",
                        .bucket = bucket,
                        .key = key,
                        .retry = true,
                        .uri = g->uri,
                        .resp_cap = FLOE_S3_MAX_WHOLE_GET};
        if (g->offset > 0) {
            snprintf(range, sizeof range, "bytes=%lld-", (long long)g->offset);
            r.headers[r.nheaders++] = (floe_sigv4_kv){"range", range};
        }
        rc = floe__s3_perform(ctx->s->client, &r);
        if (rc == 0 && r.status == 200 && g->offset > 0) { /* Range ignored */
            size_t off = (size_t)g->offset < r.resp.len ? (size_t)g->offset : r.resp.len;
            memmove(r.resp.ptr, r.resp.ptr + off, r.resp.len - off);
            r.resp.len -= off;
        }
        if (rc == 0) {
            g->size = r.resp.len;
            if (!r.resp.ptr && floe__buf_reserve(&r.resp, 0) < 0)
                rc = FLOE_ENOMEM;
            else
                g->data = floe__buf_detach(&r.resp);
        }
        floe__s3_request_free(&r);
    }
    if (rc < 0) {
        floe__free(g->data);
        g->data = NULL;
        g->size = 0;
    }
    floe__arena_free(a);
    return g->rc = rc;
}

int floe__s3_read_parallelism(const floe_fileio *io)
{
    if (!floe__s3_is_s3(io))
        return 0;
    const s3_io *s = io->impl;
    return (int)floe__s3_client_config(s->client)->parallelism;
}

int floe__s3_get_many(floe_fileio *io, floe_s3_get *gets, size_t n, int parallelism)
{
    if (!floe__s3_is_s3(io))
        return floe__error(FLOE_EINVALID, "s3", "floe__s3_get_many on a FileIO that is not S3");
    s3_io *s = io->impl;
    if (n == 0)
        return 0;
    if (parallelism <= 0)
        parallelism = (int)floe__s3_client_config(s->client)->parallelism;
    if ((size_t)parallelism > n)
        parallelism = (int)n;
    get_many_ctx ctx = {s, gets};
    /* A pool per call: floe_pool runs one job at a time, and concurrent
     * callers (several scans) must not share one. Threads are cheap next to
     * network round trips; the connections themselves are pooled. */
    floe_pool *pool = NULL;
    if (parallelism > 1 && !(pool = floe__pool_new(parallelism)))
        return floe__error_nomem();
    int rc = floe__pool_for(pool, n, get_one, &ctx);
    floe__pool_free(pool);
    return rc;
}

/* ---------------------------------------------------------------- lifecycle */

static void s3_free(floe_fileio *io)
{
    if (!io)
        return;
    s3_io *s = io->impl;
    if (s) {
        floe__s3_client_free(s->client);
        floe__free(s);
    }
    floe__free(io);
}

static const floe_fileio_ops s3_ops = {
    .version = FLOE_FILEIO_OPS_VERSION,
    .open_input = s3_open_input,
    .create_output = s3_create_output,
    .remove = s3_remove,
    .list = s3_list,
    .stat = s3_stat,
    .free = s3_free,
};

int floe__s3_fileio_new(const floe_props *conf, floe_fileio **out)
{
    *out = NULL;
    floe_fileio *io = floe__calloc(1, sizeof *io);
    s3_io *s = floe__calloc(1, sizeof *s);
    if (!io || !s) {
        floe__free(io);
        floe__free(s);
        return floe__error_nomem();
    }
    floe_props empty = FLOE_PROPS_INIT;
    int rc =
        floe__props_get_int64(conf ? conf : &empty, "s3.list.max-keys", 1000, &s->list_max_keys);
    if (rc == 0 && (s->list_max_keys < 1 || s->list_max_keys > 1000))
        rc = floe__error(FLOE_EINVALID, "s3", "property s3.list.max-keys must be in [1, 1000]");
    if (rc == 0)
        rc = floe__s3_client_new(conf, &s->client);
    if (rc < 0) {
        floe__free(io);
        floe__free(s);
        return rc;
    }
    io->ops = &s3_ops;
    io->impl = s;
    *out = io;
    return 0;
}
