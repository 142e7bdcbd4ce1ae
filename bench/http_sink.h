/* SPDX-License-Identifier: Apache-2.0 */
/* bench/http_sink: a growing response body for the REST benchmarks' libcurl
 * clients (CURLOPT_WRITEFUNCTION on_body, CURLOPT_WRITEDATA a sink). */
#ifndef FLOE_BENCH_HTTP_SINK_H
#define FLOE_BENCH_HTTP_SINK_H

#include "lazy/curl.h"
#include <stdlib.h>
#include <string.h>

typedef struct sink {
    char *buf;
    size_t len;
} sink;

static size_t on_body(char *p, size_t sz, size_t n, void *u)
{
    sink *s = u;
    char *b = realloc(s->buf, s->len + sz * n + 1);
    if (!b)
        return 0;
    memcpy(b + s->len, p, sz * n);
    s->len += sz * n;
    b[s->len] = '\0';
    s->buf = b;
    return sz * n;
}

/* One request on the keep-alive handle `c` to `url` (body may be NULL, one
 * extra header line `hdr` may be NULL; header_cb, if any, sees the response
 * headers); returns the HTTP status (0 on a transport failure), *bytes =
 * the response body's size. */
static inline long http_call(CURL *c, const char *method, const char *url, const char *body,
                      const char *hdr, size_t *bytes,
                      size_t (*header_cb)(char *, size_t, size_t, void *))
{
    struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
    if (hdr)
        h = curl_slist_append(h, hdr);
    sink s = {0};
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
    if (header_cb)
        curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, header_cb);
    long st = 0;
    if (curl_easy_perform(c) == CURLE_OK)
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &st);
    curl_slist_free_all(h);
    if (bytes)
        *bytes = s.len;
    free(s.buf);
    return st;
}

#endif
