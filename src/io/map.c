/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Location mapping and scheme routing.
 *
 * Iceberg metadata stores absolute locations (s3a://bucket/wh/t/metadata/...).
 * A table copied or restored elsewhere keeps those strings, so reading it
 * where it now lives needs every location rewritten: the map wrapper applies
 * `from=to` prefix rules (longest `from` first) to each URI before passing it
 * on, and maps listed URIs back so callers compare them with the locations
 * in metadata. Only whole prefixes are rewritten; a URI no rule matches is
 * passed through unchanged.
 *
 * The router is the wrapped FileIO the dispatcher uses under a map: each
 * access goes to the local, memory or S3 backend by the (mapped) URI's
 * scheme, creating that backend on first use.
 */
#include "io.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- router */

enum { R_LOCAL, R_MEM, R_S3, R_N };

typedef struct router {
    pthread_mutex_t lock;
    floe_props conf;
    floe_fileio *backends[R_N];
} router;

static int scheme_slot(const char *uri, int *slot)
{
    const char *s;
    size_t n = floe__uri_scheme(uri, &s);
    if (n == 0 || (n == 4 && strncasecmp(s, "file", 4) == 0))
        *slot = R_LOCAL;
    else if (n == 3 && strncasecmp(s, "mem", 3) == 0)
        *slot = R_MEM;
    else if ((n == 2 && strncasecmp(s, "s3", 2) == 0) ||
             (n == 3 && (strncasecmp(s, "s3a", 3) == 0 || strncasecmp(s, "s3n", 3) == 0)))
        *slot = R_S3;
    else
        return floe__error(FLOE_EUNSUPPORTED, "io", "No FileIO for scheme '%.*s' in %s", (int)n, s,
                           uri);
    return 0;
}

static int route(floe_fileio *io, const char *uri, floe_fileio **out)
{
    router *r = io->impl;
    int slot = R_LOCAL;
    FLOE_TRY(scheme_slot(uri, &slot));
    pthread_mutex_lock(&r->lock);
    int rc = 0;
    if (!r->backends[slot])
        rc = floe__fileio_for_uri(&r->backends[slot], uri, &r->conf);
    *out = r->backends[slot];
    pthread_mutex_unlock(&r->lock);
    return rc;
}

static int r_open_input(floe_input **out, floe_fileio *io, const char *uri)
{
    floe_fileio *b;
    *out = NULL;
    FLOE_TRY(route(io, uri, &b));
    return b->ops->open_input(out, b, uri);
}

static int r_create_output(floe_output **out, floe_fileio *io, const char *uri)
{
    floe_fileio *b;
    *out = NULL;
    FLOE_TRY(route(io, uri, &b));
    return b->ops->create_output(out, b, uri);
}

static int r_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    int first = 0;
    for (size_t i = 0; i < n; i++) {
        /* Batch consecutive URIs of one backend. */
        floe_fileio *b;
        int rc = route(io, uris[i], &b);
        size_t j = i + 1;
        while (rc == 0 && j < n) {
            floe_fileio *b2;
            if (route(io, uris[j], &b2) < 0 || b2 != b)
                break;
            j++;
        }
        if (rc == 0)
            rc = b->ops->remove(b, uris + i, j - i);
        if (rc < 0 && first == 0)
            first = rc;
        i = j - 1;
    }
    return first;
}

static int r_list(floe_fileio *io, const char *prefix,
                  int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    floe_fileio *b;
    FLOE_TRY(route(io, prefix, &b));
    return b->ops->list(b, prefix, cb, payload);
}

static int r_stat(floe_file_info *out, floe_fileio *io, const char *uri)
{
    floe_fileio *b;
    FLOE_TRY(route(io, uri, &b));
    return b->ops->stat(out, b, uri);
}

static void r_free(floe_fileio *io)
{
    router *r = io->impl;
    for (int i = 0; i < R_N; i++)
        floe_fileio_free(r->backends[i]);
    floe__props_free(&r->conf);
    pthread_mutex_destroy(&r->lock);
    floe__free(r);
    floe__free(io);
}

static const floe_fileio_ops router_ops = {
    FLOE_FILEIO_OPS_VERSION, r_open_input, r_create_output, r_remove, r_list, r_stat, r_free};

int floe__fileio_router_new(floe_fileio **out, const floe_props *conf)
{
    *out = NULL;
    floe_fileio *io = floe__calloc(1, sizeof *io);
    router *r = floe__calloc(1, sizeof *r);
    if (!io || !r || (conf && floe__props_copy(&r->conf, conf) < 0)) {
        if (r)
            floe__props_free(&r->conf);
        floe__free(io);
        floe__free(r);
        return FLOE_ENOMEM;
    }
    pthread_mutex_init(&r->lock, NULL);
    io->ops = &router_ops;
    io->impl = r;
    *out = io;
    return 0;
}

/* ---------------------------------------------------------------- map */

typedef struct rule {
    char *from;
    char *to;
} rule;

typedef struct mapper {
    floe_fileio *inner;
    rule *rules; /* longest `from` first */
    size_t n;
} mapper;

static void mapper_free(mapper *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++) {
        floe__free(m->rules[i].from);
        floe__free(m->rules[i].to);
    }
    floe__free(m->rules);
    floe__free(m);
}

static int cmp_rule(const void *a, const void *b)
{
    size_t la = strlen(((const rule *)a)->from), lb = strlen(((const rule *)b)->from);
    return la < lb ? 1 : la > lb ? -1 : 0;
}

static char *trim_dup(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return floe__strndup(s, n);
}

static int parse_spec(mapper *m, const char *spec)
{
    size_t cap = 1;
    for (const char *p = spec; *p; p++)
        cap += *p == ',';
    m->rules = floe__calloc(cap, sizeof *m->rules);
    if (!m->rules)
        return FLOE_ENOMEM;
    const char *p = spec;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        bool blank = true;
        for (size_t i = 0; i < len; i++)
            blank = blank && (p[i] == ' ' || p[i] == '\t');
        if (!blank) {
            if (!eq)
                return floe__error(FLOE_EINVALID, "io",
                                   "Invalid io.location-map entry '%.*s': expected from=to",
                                   (int)len, p);
            rule *r = &m->rules[m->n];
            r->from = trim_dup(p, (size_t)(eq - p));
            r->to = trim_dup(eq + 1, len - (size_t)(eq - p) - 1);
            if (!r->from || !r->to) {
                floe__free(r->from);
                floe__free(r->to);
                r->from = r->to = NULL;
                return FLOE_ENOMEM;
            }
            m->n++;
            if (!*r->from || !*r->to)
                return floe__error(FLOE_EINVALID, "io",
                                   "Invalid io.location-map entry '%.*s': empty side", (int)len, p);
        }
        p += len;
        if (*p == ',')
            p++;
    }
    qsort(m->rules, m->n, sizeof *m->rules, cmp_rule);
    return 0;
}

/* Rewrite `uri` by the first (longest) matching rule; direction 0 maps
 * from -> to, 1 maps back. *out is NULL when nothing matched. */
static int rewrite(const mapper *m, const char *uri, int back, char **out)
{
    *out = NULL;
    const rule *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < m->n; i++) {
        const char *a = back ? m->rules[i].to : m->rules[i].from;
        size_t al = strlen(a);
        if (al > best_len && strncmp(uri, a, al) == 0) {
            best = &m->rules[i];
            best_len = al;
        }
    }
    if (!best)
        return 0;
    const char *b = back ? best->from : best->to;
    *out = floe__sprintf("%s%s", b, uri + best_len);
    return *out ? 0 : FLOE_ENOMEM;
}

static int m_open_input(floe_input **out, floe_fileio *io, const char *uri)
{
    mapper *m = io->impl;
    *out = NULL;
    char *u_owned;
    FLOE_TRY(rewrite(m, uri, 0, &u_owned));
    const char *u = u_owned ? u_owned : uri;
    int rc = m->inner->ops->open_input(out, m->inner, u);
    floe__free(u_owned);
    return rc;
}

static int m_create_output(floe_output **out, floe_fileio *io, const char *uri)
{
    mapper *m = io->impl;
    *out = NULL;
    char *u_owned;
    FLOE_TRY(rewrite(m, uri, 0, &u_owned));
    const char *u = u_owned ? u_owned : uri;
    int rc = m->inner->ops->create_output(out, m->inner, u);
    floe__free(u_owned);
    return rc;
}

static int m_remove(floe_fileio *io, const char *const *uris, size_t n)
{
    mapper *m = io->impl;
    if (n == 0)
        return 0;
    if (n > SIZE_MAX / (2 * sizeof(char *)))
        return floe__error(FLOE_EINVALID, "io", "too many objects to remove: %zu", n);
    char **owned = floe__calloc(n, sizeof *owned);
    const char **mapped = floe__calloc(n, sizeof *mapped);
    int rc = owned && mapped ? 0 : FLOE_ENOMEM;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = rewrite(m, uris[i], 0, &owned[i]);
        mapped[i] = owned[i] ? owned[i] : uris[i];
    }
    if (rc == 0)
        rc = m->inner->ops->remove(m->inner, mapped, n);
    for (size_t i = 0; owned && i < n; i++)
        floe__free(owned[i]);
    floe__free(owned);
    floe__free((void *)mapped);
    return rc;
}

typedef struct back_ctx {
    const mapper *m;
    int (*cb)(const floe_file_info *info, void *payload);
    void *payload;
} back_ctx;

static int back_cb(const floe_file_info *info, void *payload)
{
    back_ctx *ctx = payload;
    char *orig;
    FLOE_TRY(rewrite(ctx->m, info->uri, 1, &orig));
    floe_file_info copy = *info;
    if (orig)
        copy.uri = orig;
    int rc = ctx->cb(&copy, ctx->payload);
    floe__free(orig);
    return rc;
}

static int m_list(floe_fileio *io, const char *prefix,
                  int (*cb)(const floe_file_info *info, void *payload), void *payload)
{
    mapper *m = io->impl;
    char *p_owned;
    FLOE_TRY(rewrite(m, prefix, 0, &p_owned));
    const char *p = p_owned ? p_owned : prefix;
    back_ctx ctx = {m, cb, payload};
    int rc = m->inner->ops->list(m->inner, p, back_cb, &ctx);
    floe__free(p_owned);
    return rc;
}

static int m_stat(floe_file_info *out, floe_fileio *io, const char *uri)
{
    mapper *m = io->impl;
    char *u_owned;
    FLOE_TRY(rewrite(m, uri, 0, &u_owned));
    const char *u = u_owned ? u_owned : uri;
    int rc = m->inner->ops->stat(out, m->inner, u);
    floe__free(u_owned);
    out->uri = uri;
    return rc;
}

static void m_free(floe_fileio *io)
{
    mapper *m = io->impl;
    floe_fileio_free(m->inner);
    mapper_free(m);
    floe__free(io);
}

static const floe_fileio_ops map_ops = {
    FLOE_FILEIO_OPS_VERSION, m_open_input, m_create_output, m_remove, m_list, m_stat, m_free};

int floe__fileio_map_new(floe_fileio **out, floe_fileio *inner, const char *spec)
{
    *out = NULL;
    if (!inner || !spec) {
        floe_fileio_free(inner);
        return floe__error(FLOE_EINVALID, "io", "location map needs a FileIO and a spec");
    }
    floe_fileio *io = floe__calloc(1, sizeof *io);
    mapper *m = floe__calloc(1, sizeof *m);
    int rc = io && m ? parse_spec(m, spec) : FLOE_ENOMEM;
    if (rc < 0) {
        floe__free(io);
        mapper_free(m);
        floe_fileio_free(inner);
        return rc;
    }
    m->inner = inner;
    io->ops = &map_ops;
    io->impl = m;
    *out = io;
    return 0;
}

int floe__fileio_map_location(const floe_fileio *io, const char *uri, char **out)
{
    *out = NULL;
    if (!io || io->ops != &map_ops) {
        *out = floe__strdup(uri);
        return *out ? 0 : FLOE_ENOMEM;
    }
    FLOE_TRY(rewrite(io->impl, uri, 0, out));
    if (!*out)
        *out = floe__strdup(uri);
    return *out ? 0 : FLOE_ENOMEM;
}
