/* SPDX-License-Identifier: Apache-2.0 */
/* bench/http_sink: a growing response body for the REST benchmarks' libcurl
 * clients (CURLOPT_WRITEFUNCTION on_body, CURLOPT_WRITEDATA a sink). */
#ifndef FLOE_BENCH_HTTP_SINK_H
#define FLOE_BENCH_HTTP_SINK_H

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

#endif
