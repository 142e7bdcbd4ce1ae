/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/server: HTTP side of the Iceberg REST catalog
 * (open-api/rest-catalog-open-api.yaml, "paths"): libmicrohttpd daemon with a
 * thread pool, bearer-token check, body limit, routing of the catalog API
 * (with or without the `{prefix}` segment), pagination, error mapping to the
 * IcebergErrorResponse model, access log and graceful shutdown. The catalog
 * work itself is the backend's (rest/backend.h); request bodies are parsed by
 * rest/model.
 */
#include "server.h"
#include "views.h"
#include "model_internal.h"
#include "plan.h"

#include "lazy/crypto.h"
#include "lazy/mhd.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct floe_rest_server {
    struct MHD_Daemon *daemon;
    floe_rest_backend *backend;
    bool auth;
    unsigned char token_hash[32];
    size_t max_body;
    char *prefix;
    bool access_log;
    unsigned shutdown_timeout_ms;
    int port;
    atomic_int inflight;
    /* Idempotency-Key -> outcome (idem_entry), guarded by idem_lock */
    pthread_mutex_t idem_lock;
    pthread_cond_t idem_cv;
    floe_strmap *idem;
    int64_t idem_lifetime_ms;
    int64_t idem_next_expiry_ms; /* no stored outcome expires before this */
    floe_rest_plans *plans;      /* server-side scan plans (plan.c) */
};

/* One Idempotency-Key: the request it was first used for and, once
 * finalized, the response replayed to every retry until it expires. */
typedef struct idem_entry {
    char key[40];  /* the map's key (maps borrow keys) */
    char *request; /* "METHOD path" */
    int64_t expires_ms;
    bool done;
    int status;
    char *body;
    size_t len;
    bool json;
    char etag[48];
} idem_entry;

/* Per-request state, created on the first handler call. */
typedef struct req_ctx {
    floe_buf body;
    bool too_large;
    bool responded; /* a response was queued before the body arrived */
    int status;
    size_t resp_len;
    int64_t start_ns;
    char method[8];
    char *path;
    floe_arena *arena;
    char etag[48]; /* set for table responses */
    /* a mutation with an Idempotency-Key: the response is kept here too */
    bool capture;
    char *cap_body;
    size_t cap_len;
    bool cap_json;
    bool cap_oom;
} req_ctx;

enum { M_GET, M_HEAD, M_POST, M_DELETE, M_OTHER };

/* ---------------------------------------------------------------- responses */

static enum MHD_Result send_bytes(struct MHD_Connection *c, req_ctx *ctx, int status, char *buf,
                                  size_t len, bool json)
{
    struct MHD_Response *r =
        buf ? MHD_create_response_from_buffer_with_free_callback(len, buf, floe__free)
            : MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (!r) {
        floe__free(buf);
        return MHD_NO;
    }
    if (json)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    if (status == 401)
        MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
    if (ctx->etag[0] && (status == 200 || status == 304))
        MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, ctx->etag);
    if (ctx->capture && !ctx->cap_body && buf) {
        ctx->cap_body = floe__malloc(len ? len : 1);
        if (ctx->cap_body)
            memcpy(ctx->cap_body, buf, len);
        else
            ctx->cap_oom = true;
        ctx->cap_len = len;
        ctx->cap_json = json;
    }
    enum MHD_Result ret = MHD_queue_response(c, (unsigned)status, r);
    MHD_destroy_response(r);
    ctx->status = status;
    ctx->resp_len = len;
    return ret;
}

static enum MHD_Result send_json(struct MHD_Connection *c, req_ctx *ctx, int status, json_t *j)
{
    size_t len;
    char *s = floe__rest_dump(j, &len);
    if (!s)
        return send_bytes(c, ctx, 500, NULL, 0, false);
    return send_bytes(c, ctx, status, s, len, true);
}

static enum MHD_Result send_error(struct MHD_Connection *c, req_ctx *ctx, int method, int status,
                                  const char *type, const char *message)
{
    /* HEAD answers carry no body (RFC 9110); the status says it all. */
    if (method == M_HEAD)
        return send_bytes(c, ctx, status, NULL, 0, false);
    return send_json(c, ctx, status, floe__rest_error_to_json(status, type, message));
}

static enum MHD_Result send_no_content(struct MHD_Connection *c, req_ctx *ctx)
{
    return send_bytes(c, ctx, 204, NULL, 0, false);
}

/* What a failed call was about: the answer for an error raised without a
 * kind (floe_error_kind) depends on the route. */
typedef enum { R_NAMESPACE, R_TABLE, R_COMMIT, R_DROP_NAMESPACE, R_VIEW, R_OTHER } route_kind;

/* The IcebergErrorResponse for a backend failure `rc`: the kind set where the
 * error was raised names the exception (floe__rest_error_status); without
 * one, the code and the route say it. */
static enum MHD_Result send_floe_error(struct MHD_Connection *c, req_ctx *ctx, int method,
                                       route_kind rk, int rc)
{
    const floe_error *e = floe_error_last();
    const char *msg = e && e->message ? e->message : "error";
    const char *type = NULL;
    int status = e && e->code == rc ? floe__rest_error_status(e->kind, &type) : 0;
    if (status)
        return send_error(c, ctx, method, status, type, msg);
    switch (rc) {
    case FLOE_ENOTFOUND:
        if (rk == R_VIEW)
            return send_error(c, ctx, method, 404, "NoSuchViewException", msg);
        if (rk == R_NAMESPACE || rk == R_DROP_NAMESPACE)
            return send_error(c, ctx, method, 404, "NoSuchNamespaceException", msg);
        return send_error(c, ctx, method, 404, "NoSuchTableException", msg);
    case FLOE_EEXISTS:
        if (rk == R_DROP_NAMESPACE)
            return send_error(c, ctx, method, 409, "NamespaceNotEmptyException", msg);
        return send_error(c, ctx, method, 409, "AlreadyExistsException", msg);
    case FLOE_ECONFLICT:
        if (rk == R_DROP_NAMESPACE)
            return send_error(c, ctx, method, 409, "NamespaceNotEmptyException", msg);
        return send_error(c, ctx, method, 409, "CommitFailedException", msg);
    case FLOE_EINVALID:
    case FLOE_ECORRUPT:
        if (rc == FLOE_ECORRUPT && rk != R_OTHER)
            break;
        return send_error(c, ctx, method, 400, "BadRequestException", msg);
    case FLOE_EUNSUPPORTED:
        return send_error(c, ctx, method, 406, "UnsupportedOperationException", msg);
    case FLOE_ECOMMITUNKNOWN:
        return send_error(c, ctx, method, 500, "CommitStateUnknownException", msg);
    default:
        break;
    }
    /* On a commit any other failure leaves the outcome unknown to the client:
     * it must not clean up files it wrote (spec: 500 CommitStateUnknown). */
    if (rk == R_COMMIT)
        return send_error(c, ctx, method, 500, "CommitStateUnknownException", msg);
    return send_error(c, ctx, method, 500, "InternalServerError", msg);
}

/* ---------------------------------------------------------------- query args */

/* Raw (still percent-encoded) query value, decoded into the request arena.
 * Returns 1 present, 0 absent, <0 malformed. */
static int query(struct MHD_Connection *c, req_ctx *ctx, const char *key, char **out)
{
    const char *v = NULL;
    size_t vlen = 0;
    if (MHD_lookup_connection_value_n(c, MHD_GET_ARGUMENT_KIND, key, strlen(key), &v, &vlen) !=
        MHD_YES)
        return 0;
    size_t dlen;
    FLOE_TRY(floe__rest_percent_decode(ctx->arena, v ? v : "", true, out, &dlen));
    if (dlen != strlen(*out))
        return floe__error(FLOE_EINVALID, "rest", "query parameter %s: NUL byte", key);
    return 1;
}

/* ---------------------------------------------------------------- pagination */

/* Page tokens are the hex of the last key returned: opaque to clients, and a
 * page never skips or repeats an item when others are added concurrently. */
static char *token_encode(floe_arena *a, const char *key)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = strlen(key);
    char *t = floe__arena_alloc(a, 2 * n + 1);
    if (!t)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        t[2 * i] = hex[(unsigned char)key[i] >> 4];
        t[2 * i + 1] = hex[(unsigned char)key[i] & 15];
    }
    t[2 * n] = '\0';
    return t;
}

static int token_decode(floe_arena *a, const char *t, char **out)
{
    size_t n = strlen(t);
    if (n % 2 || n > 2 * (size_t)4096)
        return floe__error(FLOE_EINVALID, "rest", "invalid pageToken");
    char *k = floe__arena_alloc(a, n / 2 + 1);
    if (!k)
        return floe__error_nomem();
    for (size_t i = 0; i < n / 2; i++) {
        int v = 0;
        for (int h = 0; h < 2; h++) {
            char ch = t[2 * i + (size_t)h];
            int d = (ch >= '0' && ch <= '9')   ? ch - '0'
                    : (ch >= 'a' && ch <= 'f') ? ch - 'a' + 10
                                               : -1;
            if (d < 0)
                return floe__error(FLOE_EINVALID, "rest", "invalid pageToken");
            v = v * 16 + d;
        }
        if (v == 0)
            return floe__error(FLOE_EINVALID, "rest", "invalid pageToken");
        k[i] = (char)v;
    }
    k[n / 2] = '\0';
    *out = k;
    return 0;
}

typedef struct page {
    bool paginate;   /* pageToken or pageSize given */
    char *after;     /* key of the last item of the previous page, or NULL */
    size_t size;     /* 0 = unlimited */
} page;

static int page_params(struct MHD_Connection *c, req_ctx *ctx, page *p)
{
    memset(p, 0, sizeof *p);
    char *tok = NULL, *size = NULL;
    int rt = query(c, ctx, "pageToken", &tok);
    FLOE_TRY(rt);
    int rs = query(c, ctx, "pageSize", &size);
    FLOE_TRY(rs);
    p->paginate = rt > 0 || rs > 0;
    if (rt > 0 && *tok)
        FLOE_TRY(token_decode(ctx->arena, tok, &p->after));
    if (rs > 0) {
        char *end;
        long long v = strtoll(size, &end, 10);
        if (!*size || *end || v < 1 || v > 1000000)
            return floe__error(FLOE_EINVALID, "rest", "pageSize must be a positive integer");
        p->size = (size_t)v;
    }
    return 0;
}

typedef struct keyed {
    char *key;
    size_t index;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    return strcmp(((const keyed *)a)->key, ((const keyed *)b)->key);
}

/* Sort items by key and select one page: *first..*first+*count of `sorted`.
 * *next is the token for the following page (NULL on the last one). */
/* Sort `sorted` (keys of the n elements of `items`, each `size` bytes), skip
 * past the page token and copy at most one page of elements, in key order,
 * into an arena array *sel of *count; *next is the token of the next page or
 * NULL. */
static int paginate(req_ctx *ctx, const page *p, keyed *sorted, size_t n, const void *items,
                    size_t size, void **sel, size_t *count, char **next)
{
    qsort(sorted, n, sizeof *sorted, keyed_cmp);
    size_t i = 0;
    if (p->after)
        while (i < n && strcmp(sorted[i].key, p->after) <= 0)
            i++;
    size_t k = n - i;
    if (p->size && k > p->size)
        k = p->size;
    *count = k;
    *next = NULL;
    if (p->paginate && i + k < n) {
        *next = token_encode(ctx->arena, sorted[i + k - 1].key);
        if (!*next)
            return floe__error_nomem();
    }
    char *out = floe__arena_calloc(ctx->arena, k ? k : 1, size);
    if (!out)
        return floe__error_nomem();
    for (size_t j = 0; j < k; j++)
        memcpy(out + j * size, (const char *)items + sorted[i + j].index * size, size);
    *sel = out;
    return 0;
}

/* ---------------------------------------------------------------- handlers */

typedef struct route {
    struct MHD_Connection *c;
    req_ctx *ctx;
    floe_rest_server *s;
    int method;
    bool has_ns, has_table;
    floe_rest_namespace ns;
    floe_rest_ident id;
} route;

#define FAIL(rk, rc) send_floe_error(r->c, r->ctx, r->method, (rk), (rc))

static enum MHD_Result h_config(route *r)
{
    floe_rest_backend *b = r->s->backend;
    floe_rest_config cfg = {0};
    char *warehouse = NULL;
    int rc = query(r->c, r->ctx, "warehouse", &warehouse);
    if (rc >= 0 && r->s->prefix)
        rc = floe__props_set(&cfg.overrides, "prefix", r->s->prefix);
    static const char *const endpoints[] = {
        "GET /v1/{prefix}/namespaces",
        "POST /v1/{prefix}/namespaces",
        "GET /v1/{prefix}/namespaces/{namespace}",
        "HEAD /v1/{prefix}/namespaces/{namespace}",
        "DELETE /v1/{prefix}/namespaces/{namespace}",
        "POST /v1/{prefix}/namespaces/{namespace}/properties",
        "GET /v1/{prefix}/namespaces/{namespace}/tables",
        "POST /v1/{prefix}/namespaces/{namespace}/tables",
        "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}",
        "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}",
        "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
        "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}",
        "POST /v1/{prefix}/namespaces/{namespace}/register",
        "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics",
        "POST /v1/{prefix}/tables/rename",
    };
    for (size_t i = 0; rc >= 0 && i < FLOE_ARRAY_LEN(endpoints); i++)
        rc = floe__rest_strlist_add(&cfg.endpoints, endpoints[i]);
    if (rc >= 0 && b->commit_transaction)
        rc = floe__rest_strlist_add(&cfg.endpoints, "POST /v1/{prefix}/transactions/commit");
    static const char *const view_endpoints[] = {
        "GET /v1/{prefix}/namespaces/{namespace}/views",
        "POST /v1/{prefix}/namespaces/{namespace}/views",
        "GET /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "POST /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "POST /v1/{prefix}/views/rename",
        "POST /v1/{prefix}/namespaces/{namespace}/register-view",
    };
    for (size_t i = 0; rc >= 0 && b->views_begin && i < FLOE_ARRAY_LEN(view_endpoints); i++)
        rc = floe__rest_strlist_add(&cfg.endpoints, view_endpoints[i]);
    static const char *const planning[] = {
        "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan",
        "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}",
        "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}",
        "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks",
    };
    for (size_t i = 0; rc >= 0 && b->open_table && i < FLOE_ARRAY_LEN(planning); i++)
        rc = floe__rest_strlist_add(&cfg.endpoints, planning[i]);
    if (rc >= 0 && b->config)
        rc = b->config(b, warehouse, &cfg);
    if (rc >= 0 && !(cfg.idempotency_key_lifetime =
                         floe__sprintf("PT%lldS", (long long)(r->s->idem_lifetime_ms / 1000))))
        rc = floe__error_nomem();
    enum MHD_Result ret = rc < 0 ? FAIL(R_OTHER, rc)
                                 : send_json(r->c, r->ctx, 200, floe__rest_config_to_json(&cfg));
    floe__rest_config_free(&cfg);
    return ret;
}

static enum MHD_Result h_list_namespaces(route *r)
{
    floe_rest_backend *b = r->s->backend;
    page p;
    char *parent_s = NULL;
    floe_rest_namespace parent = {0};
    int rc = page_params(r->c, r->ctx, &p);
    int rp = rc >= 0 ? query(r->c, r->ctx, "parent", &parent_s) : 0;
    if (rp < 0)
        rc = rp;
    /* Empty parent is treated as absent (spec, listNamespaces). */
    if (rc >= 0 && rp > 0 && *parent_s)
        rc = floe__rest_namespace_split(r->ctx->arena, parent_s, strlen(parent_s), 0, &parent);
    if (rc < 0)
        return FAIL(R_OTHER, rc);
    floe_rest_namespace_list list = {0};
    rc = b->list_namespaces(b, parent.n ? &parent : NULL, &list);
    if (rc < 0) {
        floe__rest_namespace_list_free(&list);
        return FAIL(R_NAMESPACE, rc);
    }
    keyed *k = floe__arena_calloc(r->ctx->arena, list.n ? list.n : 1, sizeof *k);
    for (size_t i = 0; k && i < list.n; i++) {
        floe_buf kb = FLOE_BUF_INIT;
        if (floe__rest_namespace_join(&kb, &list.items[i], FLOE_REST_NS_SEP) < 0 ||
            !(k[i].key = floe__arena_strdup(r->ctx->arena, kb.ptr ? kb.ptr : ""))) {
            floe__buf_free(&kb);
            k = NULL;
            break;
        }
        floe__buf_free(&kb);
        k[i].index = i;
    }
    size_t count = 0;
    char *next = NULL;
    void *sel = NULL;
    rc = k ? paginate(r->ctx, &p, k, list.n, list.items, sizeof *list.items, &sel, &count, &next)
           : floe__error_nomem();
    enum MHD_Result ret =
        rc < 0 ? FAIL(R_OTHER, rc)
               : send_json(r->c, r->ctx, 200,
                           floe__rest_list_namespaces_to_json(sel, count, next, !p.paginate));
    floe__rest_namespace_list_free(&list);
    return ret;
}

static enum MHD_Result h_create_namespace(route *r)
{
    floe_rest_backend *b = r->s->backend;
    floe_rest_create_namespace_req *req = NULL;
    int rc = floe__rest_parse_create_namespace(&req, r->ctx->body.ptr, r->ctx->body.len);
    if (rc < 0)
        return FAIL(R_OTHER, rc);
    floe_rest_namespace_result res = {0};
    rc = b->create_namespace(b, req, &res);
    enum MHD_Result ret =
        rc < 0 ? FAIL(R_NAMESPACE, rc)
               : send_json(r->c, r->ctx, 200,
                           floe__rest_namespace_response_to_json(&req->ns, &res.properties));
    floe__rest_namespace_result_free(&res);
    floe__rest_create_namespace_free(req);
    return ret;
}

static enum MHD_Result h_namespace(route *r)
{
    floe_rest_backend *b = r->s->backend;
    int rc;
    if (r->method == M_DELETE) {
        rc = b->drop_namespace(b, &r->ns);
        return rc < 0 ? FAIL(R_DROP_NAMESPACE, rc) : send_no_content(r->c, r->ctx);
    }
    floe_rest_namespace_result res = {0};
    rc = b->load_namespace(b, &r->ns, &res);
    enum MHD_Result ret;
    if (rc < 0)
        ret = FAIL(R_NAMESPACE, rc);
    else if (r->method == M_HEAD)
        ret = send_no_content(r->c, r->ctx);
    else
        ret = send_json(r->c, r->ctx, 200,
                        floe__rest_namespace_response_to_json(&r->ns, &res.properties));
    floe__rest_namespace_result_free(&res);
    return ret;
}

static enum MHD_Result h_namespace_properties(route *r)
{
    floe_rest_backend *b = r->s->backend;
    floe_rest_update_namespace_props_req *req = NULL;
    int rc = floe__rest_parse_update_namespace_props(&req, r->ctx->body.ptr, r->ctx->body.len);
    if (rc < 0)
        return FAIL(R_OTHER, rc);
    for (size_t i = 0; i < req->n_removals; i++)
        if (floe__props_get(&req->updates, req->removals[i])) {
            char msg[600];
            snprintf(msg, sizeof msg, "Duplicate key to update and remove: %s",
                     req->removals[i]);
            floe__rest_update_namespace_props_free(req);
            return send_error(r->c, r->ctx, r->method, 422, "UnprocessableEntityException", msg);
        }
    floe_rest_update_namespace_props_result res = {0};
    rc = b->update_namespace_properties(b, &r->ns, req, &res);
    enum MHD_Result ret =
        rc < 0 ? FAIL(R_NAMESPACE, rc)
               : send_json(r->c, r->ctx, 200,
                           floe__rest_update_namespace_props_result_to_json(&res));
    floe__rest_update_namespace_props_result_free(&res);
    floe__rest_update_namespace_props_free(req);
    return ret;
}

/* listTables and listViews: the same paged ListTablesResponse. */
static enum MHD_Result h_list_idents(route *r, bool views)
{
    floe_rest_backend *b = r->s->backend;
    page p;
    int rc = page_params(r->c, r->ctx, &p);
    if (rc < 0)
        return FAIL(R_OTHER, rc);
    floe_rest_ident_list list = {0};
    rc = views ? b->list_views(b, &r->ns, &list) : b->list_tables(b, &r->ns, &list);
    if (rc < 0) {
        floe__rest_ident_list_free(&list);
        return FAIL(R_NAMESPACE, rc);
    }
    keyed *k = floe__arena_calloc(r->ctx->arena, list.n ? list.n : 1, sizeof *k);
    for (size_t i = 0; k && i < list.n; i++) {
        k[i].key = list.items[i].name;
        k[i].index = i;
    }
    size_t count = 0;
    char *next = NULL;
    void *sel = NULL;
    rc = k ? paginate(r->ctx, &p, k, list.n, list.items, sizeof *list.items, &sel, &count, &next)
           : floe__error_nomem();
    enum MHD_Result ret =
        rc < 0 ? FAIL(R_OTHER, rc)
               : send_json(r->c, r->ctx, 200,
                           floe__rest_list_tables_to_json(sel, count, next, !p.paginate));
    floe__rest_ident_list_free(&list);
    return ret;
}

/* ETag of a table response: a metadata location names one immutable
 * metadata version, and the snapshots mode changes the body, so both go in
 * (spec: components/parameters/etag). Staged tables have none. */
static void etag_of(req_ctx *ctx, const char *location, const char *mode)
{
    ctx->etag[0] = '\0';
    if (!location)
        return;
    uint64_t h1 = floe__hash_bytes(location, strlen(location));
    uint64_t h2 = floe__hash_bytes(mode, strlen(mode)) ^ (h1 * 0x9e3779b97f4a7c15ULL);
    snprintf(ctx->etag, sizeof ctx->etag, "\"%016llx%016llx\"", (unsigned long long)h1,
             (unsigned long long)h2);
}

static void table_etag(req_ctx *ctx, const floe_rest_table_result *res, const char *mode)
{
    etag_of(ctx, res->metadata_location, mode);
}

/* Does an If-None-Match value match `etag` (RFC 9110 13.1.2: a list of
 * entity tags compared weakly, or "*" for any current representation)? */
static bool none_match_hit(const char *inm, const char *etag)
{
    if (!inm || !etag[0])
        return false;
    size_t elen = strlen(etag);
    const char *p = inm;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            return false;
        if (*p == '*')
            return true;
        if (p[0] == 'W' && p[1] == '/')
            p += 2;
        const char *end = p;
        if (*end == '"') {
            end = strchr(p + 1, '"');
            if (!end)
                return false;
            end++;
        } else {
            while (*end && *end != ',' && *end != ' ')
                end++;
        }
        if ((size_t)(end - p) == elen && memcmp(p, etag, elen) == 0)
            return true;
        p = end;
    }
}

static enum MHD_Result send_table(route *r, floe_rest_table_result *res, bool commit,
                                  const char *mode)
{
    table_etag(r->ctx, res, mode);
    size_t len;
    char *body = floe__rest_table_result_dump(res, commit, &len);
    if (!body)
        return FAIL(commit ? R_COMMIT : R_OTHER,
                    floe__error_code() ? floe__error_code() : FLOE_ENOMEM);
    return send_bytes(r->c, r->ctx, 200, body, len, true);
}

static enum MHD_Result h_create_table(route *r)
{
    floe_rest_backend *b = r->s->backend;
    floe_rest_create_table_req *req = NULL;
    int rc = floe__rest_parse_create_table(&req, r->ctx->body.ptr, r->ctx->body.len);
    if (rc < 0)
        return FAIL(R_OTHER, rc);
    floe_rest_table_result res = {0};
    rc = b->create_table(b, &r->ns, req, &res);
    enum MHD_Result ret = rc < 0 ? FAIL(R_NAMESPACE, rc) : send_table(r, &res, false, "all");
    floe__rest_table_result_free(&res);
    floe__rest_create_table_free(req);
    return ret;
}

static enum MHD_Result h_register_table(route *r)
{
    floe_rest_backend *b = r->s->backend;
    floe_rest_register_table_req *req = NULL;
    int rc = floe__rest_parse_register_table(&req, r->ctx->body.ptr, r->ctx->body.len);
    if (rc < 0)
        return FAIL(R_OTHER, rc);
    floe_rest_table_result res = {0};
    rc = b->register_table(b, &r->ns, req, &res);
    enum MHD_Result ret = rc < 0 ? FAIL(R_NAMESPACE, rc) : send_table(r, &res, false, "all");
    floe__rest_table_result_free(&res);
    floe__rest_register_table_free(req);
    return ret;
}

static enum MHD_Result h_table(route *r)
{
    floe_rest_backend *b = r->s->backend;
    int rc;
    if (r->method == M_DELETE) {
        char *purge = NULL;
        rc = query(r->c, r->ctx, "purgeRequested", &purge);
        if (rc > 0 && strcasecmp(purge, "true") != 0 && strcasecmp(purge, "false") != 0)
            rc = floe__error(FLOE_EINVALID, "rest", "purgeRequested must be true or false");
        if (rc < 0)
            return FAIL(R_OTHER, rc);
        rc = b->drop_table(b, &r->id, rc > 0 && strcasecmp(purge, "true") == 0);
        return rc < 0 ? FAIL(R_TABLE, rc) : send_no_content(r->c, r->ctx);
    }
    if (r->method == M_HEAD && b->table_exists) {
        rc = b->table_exists(b, &r->id);
        return rc < 0 ? FAIL(R_TABLE, rc) : send_no_content(r->c, r->ctx);
    }
    if (r->method == M_POST) {
        floe_rest_commit_table_req *req = NULL;
        rc = floe__rest_parse_commit_table(&req, r->ctx->body.ptr, r->ctx->body.len);
        if (rc < 0)
            return FAIL(R_OTHER, rc);
        /* An identifier in the body must name the table of the path. */
        if (req->has_identifier &&
            (strcmp(req->identifier.name, r->id.name) != 0 ||
             !floe__rest_namespace_eq(&req->identifier.ns, &r->id.ns))) {
            floe__rest_commit_table_free(req);
            return send_error(r->c, r->ctx, r->method, 400, "BadRequestException",
                              "identifier in the request body does not match the path");
        }
        floe_rest_table_result res = {0};
        rc = b->commit_table(b, &r->id, req, &res);
        enum MHD_Result ret = rc < 0 ? FAIL(R_COMMIT, rc) : send_table(r, &res, true, "all");
        floe__rest_table_result_free(&res);
        floe__rest_commit_table_free(req);
        return ret;
    }
    floe_rest_snapshots_mode mode = FLOE_REST_SNAPSHOTS_ALL;
    char *snaps = NULL;
    rc = query(r->c, r->ctx, "snapshots", &snaps);
    if (rc > 0) {
        if (strcmp(snaps, "refs") == 0)
            mode = FLOE_REST_SNAPSHOTS_REFS;
        else if (strcmp(snaps, "all") != 0)
            rc = floe__error(FLOE_EINVALID, "rest", "snapshots must be 'all' or 'refs'");
    }
    if (rc < 0)
        return FAIL(R_OTHER, rc);
    const char *m = mode == FLOE_REST_SNAPSHOTS_REFS ? "refs" : "all";
    const char *inm = MHD_lookup_connection_value(r->c, MHD_HEADER_KIND, "If-None-Match");
    if (inm && r->method == M_GET && b->table_location) {
        /* the cheap path of a freshness check: the pointer alone decides */
        char *loc = NULL;
        rc = b->table_location(b, &r->id, &loc);
        if (rc < 0)
            return FAIL(R_TABLE, rc);
        etag_of(r->ctx, loc, m);
        floe__free(loc);
        if (none_match_hit(inm, r->ctx->etag))
            return send_bytes(r->c, r->ctx, 304, NULL, 0, false);
    }
    floe_rest_table_result res = {0};
    rc = b->load_table(b, &r->id, mode, &res);
    enum MHD_Result ret;
    if (rc < 0)
        ret = FAIL(R_TABLE, rc);
    else if (r->method == M_HEAD)
        ret = send_no_content(r->c, r->ctx);
    else {
        table_etag(r->ctx, &res, m);
        if (none_match_hit(inm, r->ctx->etag))
            ret = send_bytes(r->c, r->ctx, 304, NULL, 0, false);
        else
            ret = send_table(r, &res, false, m);
    }
    floe__rest_table_result_free(&res);
    return ret;
}

static enum MHD_Result h_metrics(route *r)
{
    /* Reports are accepted and dropped; the body must still be valid JSON
     * carrying a report-type (ReportMetricsRequest). */
    json_t *j = NULL;
    const char *type;
    int rc = floe__rest_load(&j, r->ctx->body.ptr, r->ctx->body.len, "ReportMetricsRequest");
    if (rc >= 0)
        rc = floe__rest_get_str(j, "", "report-type", true, &type);
    json_decref(j);
    if (rc < 0)
        return FAIL(R_OTHER, rc);
    floe_rest_backend *b = r->s->backend;
    rc = b->table_exists ? b->table_exists(b, &r->id) : 0;
    return rc < 0 ? FAIL(R_TABLE, rc) : send_no_content(r->c, r->ctx);
}

static enum MHD_Result h_rename(route *r)
{
    floe_rest_backend *b = r->s->backend;
    floe_rest_rename_table_req *req = NULL;
    int rc = floe__rest_parse_rename_table(&req, r->ctx->body.ptr, r->ctx->body.len);
    if (rc < 0)
        return FAIL(R_OTHER, rc);
    rc = b->rename_table(b, req);
    floe__rest_rename_table_free(req);
    return rc < 0 ? FAIL(R_TABLE, rc) : send_no_content(r->c, r->ctx);
}

static enum MHD_Result h_transaction(route *r)
{
    floe_rest_backend *b = r->s->backend;
    if (!b->commit_transaction)
        return send_error(r->c, r->ctx, r->method, 501, "UnsupportedOperationException",
                          "multi-table transactions are not supported by this catalog");
    floe_rest_commit_transaction_req *req = NULL;
    int rc = floe__rest_parse_commit_transaction(&req, r->ctx->body.ptr, r->ctx->body.len);
    if (rc < 0)
        return FAIL(R_OTHER, rc);
    rc = b->commit_transaction(b, req);
    floe__rest_commit_transaction_free(req);
    return rc < 0 ? FAIL(R_COMMIT, rc) : send_no_content(r->c, r->ctx);
}

/* The view routes (rest/views.c). */
static enum MHD_Result h_view(route *r, floe_rest_view_op op)
{
    floe_rest_backend *b = r->s->backend;
    if (!b->views_begin || !b->list_views)
        return send_error(r->c, r->ctx, r->method, 406, "UnsupportedOperationException",
                          "views are not supported by this catalog");
    if (op == FLOE_REST_VIEW_LOAD && r->method == M_GET && !r->has_table)
        return h_list_idents(r, true);
    floe_buf out = FLOE_BUF_INIT;
    int rc = floe__rest_view_call(b, op, &r->id, (const char *)r->ctx->body.ptr,
                                  r->ctx->body.len, &out);
    if (rc < 0) {
        floe__buf_free(&out);
        return FAIL(op == FLOE_REST_VIEW_REPLACE && rc != FLOE_ENOTFOUND ? R_COMMIT : R_VIEW, rc);
    }
    if (out.len == 0 || r->method == M_HEAD) {
        floe__buf_free(&out);
        return send_no_content(r->c, r->ctx);
    }
    size_t len = out.len;
    return send_bytes(r->c, r->ctx, 200, floe__buf_detach(&out), len, true);
}

/* Server-side scan planning (plan.c). */
static enum MHD_Result h_plan(route *r, floe_rest_plan_op op, const char *plan_id)
{
    floe_rest_backend *b = r->s->backend;
    if (!b->open_table)
        return send_error(r->c, r->ctx, r->method, 406, "UnsupportedOperationException",
                          "server-side scan planning is not supported by this catalog");
    floe_buf out = FLOE_BUF_INIT;
    int status = 200;
    int rc = floe__rest_plan_handle(r->s->plans, b, &r->id, op, plan_id, r->ctx->body.ptr,
                                    r->ctx->body.len, &status, &out);
    if (rc < 0) {
        floe__buf_free(&out);
        return FAIL(R_TABLE, rc);
    }
    if (status == 204) {
        floe__buf_free(&out);
        return send_no_content(r->c, r->ctx);
    }
    size_t len = out.len;
    return send_bytes(r->c, r->ctx, status, floe__buf_detach(&out), len, true);
}

/* ---------------------------------------------------------------- routing */

static bool seg_is(const char *s, size_t len, const char *lit)
{
    return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

/* Decode one raw path segment as a namespace (levels split on %1F). */
static int decode_ns(req_ctx *ctx, const char *s, size_t len, floe_rest_namespace *out)
{
    char *raw = floe__arena_strndup(ctx->arena, s, len), *dec;
    size_t dlen;
    if (!raw)
        return floe__error_nomem();
    FLOE_TRY(floe__rest_percent_decode(ctx->arena, raw, false, &dec, &dlen));
    return floe__rest_namespace_split(ctx->arena, dec, dlen, 0, out);
}

static int decode_name(req_ctx *ctx, const char *s, size_t len, char **out)
{
    char *raw = floe__arena_strndup(ctx->arena, s, len), *dec;
    size_t dlen;
    if (!raw)
        return floe__error_nomem();
    FLOE_TRY(floe__rest_percent_decode(ctx->arena, raw, false, &dec, &dlen));
    FLOE_TRY(floe__rest_check_name(dec, dlen, "table"));
    *out = dec;
    return 0;
}

#define MAX_SEGS 8

static enum MHD_Result not_found(route *r)
{
    return send_error(r->c, r->ctx, r->method, 404, "NotFoundException",
                      "No route for request");
}

static enum MHD_Result bad_method(route *r)
{
    return send_error(r->c, r->ctx, r->method, 405, "UnsupportedOperationException",
                      "Method not allowed for this route");
}

static enum MHD_Result dispatch(route *r, const char *url)
{
    /* The URL arrives still percent-encoded (our unescape callback is the
     * identity) so that an encoded '/' cannot change the route. */
    const char *seg[MAX_SEGS];
    size_t len[MAX_SEGS], n = 0;
    if (url[0] != '/')
        return not_found(r);
    const char *p = url + 1;
    for (;;) {
        const char *e = strchr(p, '/');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (n == MAX_SEGS || l == 0)
            return not_found(r);
        seg[n] = p;
        len[n++] = l;
        if (!e)
            break;
        p = e + 1;
    }
    if (!seg_is(seg[0], len[0], "v1") || n < 2)
        return not_found(r);
    if (n == 2 && seg_is(seg[1], len[1], "config"))
        return r->method == M_GET ? h_config(r) : bad_method(r);
    if (seg_is(seg[1], len[1], "oauth"))
        return send_error(r->c, r->ctx, r->method, 501, "UnsupportedOperationException",
                          "this server does not issue OAuth2 tokens; configure a bearer token");
    size_t i = 1;
    if (r->s->prefix && seg_is(seg[1], len[1], r->s->prefix))
        i = 2;
    if (i >= n)
        return not_found(r);
    size_t rest = n - i;
    const char *s0 = seg[i];
    size_t l0 = len[i];
    int rc;

    if (seg_is(s0, l0, "tables") && rest == 2 && seg_is(seg[i + 1], len[i + 1], "rename"))
        return r->method == M_POST ? h_rename(r) : bad_method(r);
    if (seg_is(s0, l0, "transactions") && rest == 2 &&
        seg_is(seg[i + 1], len[i + 1], "commit"))
        return r->method == M_POST ? h_transaction(r) : bad_method(r);
    if (seg_is(s0, l0, "views") && rest == 2 && seg_is(seg[i + 1], len[i + 1], "rename"))
        return r->method == M_POST ? h_view(r, FLOE_REST_VIEW_RENAME) : bad_method(r);
    if (!seg_is(s0, l0, "namespaces"))
        return not_found(r);
    if (rest == 1) {
        if (r->method == M_GET)
            return h_list_namespaces(r);
        return r->method == M_POST ? h_create_namespace(r) : bad_method(r);
    }
    if ((rc = decode_ns(r->ctx, seg[i + 1], len[i + 1], &r->ns)) < 0)
        return FAIL(R_OTHER, rc);
    r->has_ns = true;
    if (rest == 2) {
        if (r->method == M_GET || r->method == M_HEAD || r->method == M_DELETE)
            return h_namespace(r);
        return bad_method(r);
    }
    const char *s2 = seg[i + 2];
    size_t l2 = len[i + 2];
    if (rest == 3 && seg_is(s2, l2, "properties"))
        return r->method == M_POST ? h_namespace_properties(r) : bad_method(r);
    if (rest == 3 && seg_is(s2, l2, "register"))
        return r->method == M_POST ? h_register_table(r) : bad_method(r);
    r->id.ns = r->ns;
    if (rest == 3 && seg_is(s2, l2, "register-view"))
        return r->method == M_POST ? h_view(r, FLOE_REST_VIEW_REGISTER) : bad_method(r);
    if (seg_is(s2, l2, "views") && rest == 3)
        return r->method == M_GET    ? h_view(r, FLOE_REST_VIEW_LOAD)
               : r->method == M_POST ? h_view(r, FLOE_REST_VIEW_CREATE)
                                     : bad_method(r);
    if (seg_is(s2, l2, "views") && rest == 4) {
        if ((rc = decode_name(r->ctx, seg[i + 3], len[i + 3], &r->id.name)) < 0)
            return FAIL(R_OTHER, rc);
        r->has_table = true;
        static const floe_rest_view_op ops[] = {
            [M_GET] = FLOE_REST_VIEW_LOAD, [M_HEAD] = FLOE_REST_VIEW_EXISTS,
            [M_POST] = FLOE_REST_VIEW_REPLACE, [M_DELETE] = FLOE_REST_VIEW_DROP};
        return r->method == M_OTHER ? bad_method(r) : h_view(r, ops[r->method]);
    }
    if (!seg_is(s2, l2, "tables"))
        return not_found(r);
    if (rest == 3) {
        if (r->method == M_GET)
            return h_list_idents(r, false);
        return r->method == M_POST ? h_create_table(r) : bad_method(r);
    }
    if ((rc = decode_name(r->ctx, seg[i + 3], len[i + 3], &r->id.name)) < 0)
        return FAIL(R_OTHER, rc);
    r->id.ns = r->ns;
    r->has_table = true;
    if (rest == 4)
        return r->method == M_OTHER ? bad_method(r) : h_table(r);
    if (rest == 5 && seg_is(seg[i + 4], len[i + 4], "metrics"))
        return r->method == M_POST ? h_metrics(r) : bad_method(r);
    if (rest == 5 && seg_is(seg[i + 4], len[i + 4], "plan"))
        return r->method == M_POST ? h_plan(r, FLOE_REST_PLAN_SUBMIT, NULL) : bad_method(r);
    if (rest == 5 && seg_is(seg[i + 4], len[i + 4], "tasks"))
        return r->method == M_POST ? h_plan(r, FLOE_REST_PLAN_TASKS, NULL) : bad_method(r);
    if (rest == 6 && seg_is(seg[i + 4], len[i + 4], "plan")) {
        char *pid = NULL;
        if ((rc = decode_name(r->ctx, seg[i + 5], len[i + 5], &pid)) < 0)
            return FAIL(R_OTHER, rc);
        if (r->method == M_GET)
            return h_plan(r, FLOE_REST_PLAN_FETCH, pid);
        return r->method == M_DELETE ? h_plan(r, FLOE_REST_PLAN_CANCEL, pid) : bad_method(r);
    }
    if (rest >= 5 && seg_is(seg[i + 4], len[i + 4], "credentials"))
        return send_error(r->c, r->ctx, r->method, 406, "UnsupportedOperationException",
                          "credential vending is not supported");
    return not_found(r);
}

/* ---------------------------------------------------------------- auth */

static void sha256(const void *data, size_t len, unsigned char out[32])
{
    unsigned int n = 32;
    EVP_Digest(data, len, out, &n, EVP_sha256(), NULL);
}

/* 0 ok, 401 otherwise. Hashing first makes the comparison independent of
 * where the presented token differs and of its length. */
static int check_auth(floe_rest_server *s, struct MHD_Connection *c)
{
    if (!s->auth)
        return 0;
    const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Authorization");
    if (!h || strncasecmp(h, "Bearer ", 7) != 0)
        return 401;
    const char *t = h + 7;
    while (*t == ' ')
        t++;
    unsigned char got[32];
    sha256(t, strlen(t), got);
    return CRYPTO_memcmp(got, s->token_hash, 32) == 0 ? 0 : 401;
}

/* ---------------------------------------------------------------- MHD glue */

static size_t unescape_identity(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls;
    (void)c;
    return strlen(s);
}

static int method_of(const char *m)
{
    if (strcmp(m, "GET") == 0)
        return M_GET;
    if (strcmp(m, "HEAD") == 0)
        return M_HEAD;
    if (strcmp(m, "POST") == 0)
        return M_POST;
    if (strcmp(m, "DELETE") == 0)
        return M_DELETE;
    return M_OTHER;
}

static enum MHD_Result idempotent(route *r, const char *url, const char *key);

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url,
                               const char *method, const char *version, const char *upload_data,
                               size_t *upload_data_size, void **con_cls)
{
    (void)version;
    floe_rest_server *s = cls;
    req_ctx *ctx = *con_cls;
    int m = method_of(method);
    if (!ctx) {
        ctx = floe__calloc(1, sizeof *ctx);
        if (!ctx)
            return MHD_NO;
        *con_cls = ctx;
        atomic_fetch_add(&s->inflight, 1);
        ctx->start_ns = floe__mono_ns();
        snprintf(ctx->method, sizeof ctx->method, "%s", method);
        ctx->path = floe__strdup(url);
        /* The log line must stay one line whatever bytes the path holds. */
        for (char *q = ctx->path; q && *q; q++)
            if ((unsigned char)*q < 0x20 || *q == 0x7f || *q == '"')
                *q = '?';
        ctx->arena = floe__arena_new(4096);
        if (!ctx->path || !ctx->arena)
            return MHD_NO;
        /* Refuse before reading a body: unauthenticated or oversized
         * requests never cost more than their headers. */
        if (check_auth(s, c)) {
            ctx->responded = true;
            return send_error(c, ctx, m, 401, "NotAuthorizedException",
                              "Not authorized to make this request");
        }
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
        if (cl && strtoull(cl, NULL, 10) > s->max_body) {
            ctx->responded = true;
            return send_error(c, ctx, m, 413, "RequestEntityTooLargeException",
                              "Request body exceeds the server limit");
        }
        return MHD_YES;
    }
    if (ctx->responded) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (*upload_data_size) {
        if (!ctx->too_large && ctx->body.len + *upload_data_size > s->max_body) {
            ctx->too_large = true;
            floe__buf_free(&ctx->body);
        }
        if (!ctx->too_large && floe__buf_put(&ctx->body, upload_data, *upload_data_size) < 0)
            return MHD_NO;
        *upload_data_size = 0;
        return MHD_YES;
    }
    ctx->responded = true;
    if (ctx->too_large)
        return send_error(c, ctx, m, 413, "RequestEntityTooLargeException",
                          "Request body exceeds the server limit");
    floe_error_clear();
    route r = {.c = c, .ctx = ctx, .s = s, .method = m};
    const char *key = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Idempotency-Key");
    if (key && (m == M_POST || m == M_DELETE) && !strstr(url, "/v1/oauth/") &&
        !strstr(url, "/metrics"))
        return idempotent(&r, url, key);
    return dispatch(&r, url);
}

/* ---------------------------------------------------------------- Idempotency-Key */

static void idem_free(idem_entry *e)
{
    if (e) {
        floe__free(e->request);
        floe__free(e->body);
        floe__free(e);
    }
}

/* OpenAPI components/parameters/idempotency-key: a UUID in string form. */
static bool idem_key_ok(const char *k)
{
    if (strlen(k) != 36)
        return false;
    for (int i = 0; i < 36; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        char ch = k[i];
        if (dash ? ch != '-'
                 : !((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
                     (ch >= 'A' && ch <= 'F')))
            return false;
    }
    return true;
}

/* Drop expired keys (called with idem_lock held). The map is walked only
 * once the earliest stored outcome has expired, not on every request. */
static void idem_expire(floe_rest_server *s, int64_t now)
{
    if (now < s->idem_next_expiry_ms)
        return;
    size_t it = 0;
    const char *k;
    void *v;
    floe_vec gone = FLOE_VEC_INIT(char *);
    int64_t next = INT64_MAX;
    while (floe__strmap_next(s->idem, &it, &k, &v)) {
        idem_entry *e = v;
        char **slot = e->done && e->expires_ms <= now ? floe__vec_push(&gone) : NULL;
        if (slot)
            *slot = floe__strdup(k);
        else if (e->done && e->expires_ms < next)
            next = e->expires_ms;
    }
    s->idem_next_expiry_ms = next;
    for (size_t i = 0; i < gone.len; i++) {
        char *k2 = ((char **)gone.items)[i];
        if (k2) {
            idem_entry *e = floe__strmap_get(s->idem, k2);
            floe__strmap_del(s->idem, k2);
            idem_free(e);
            floe__free(k2);
        }
    }
    floe__vec_free(&gone);
}

static void idem_free_all(floe_rest_server *s)
{
    size_t it = 0;
    const char *k;
    void *v;
    while (s->idem && floe__strmap_next(s->idem, &it, &k, &v))
        idem_free(v);
    floe__strmap_free(s->idem);
    floe__rest_plans_free(s->plans);
    pthread_cond_destroy(&s->idem_cv);
    pthread_mutex_destroy(&s->idem_lock);
}

static enum MHD_Result replay(route *r, const idem_entry *e)
{
    char *copy = e->body ? floe__malloc(e->len ? e->len : 1) : NULL;
    if (e->body && !copy)
        return send_bytes(r->c, r->ctx, 500, NULL, 0, false);
    if (copy)
        memcpy(copy, e->body, e->len);
    snprintf(r->ctx->etag, sizeof r->ctx->etag, "%s", e->etag);
    return send_bytes(r->c, r->ctx, e->status, copy, e->len, e->json);
}

/* Run a mutation once per Idempotency-Key: a key seen before replays the
 * first final response (2xx, 4xx); a key still in flight waits for it; a
 * 5xx is not kept, so a retry runs the request again. */
static enum MHD_Result idempotent(route *r, const char *url, const char *key)
{
    floe_rest_server *s = r->s;
    if (!idem_key_ok(key))
        return send_error(r->c, r->ctx, r->method, 400, "BadRequestException",
                          "Idempotency-Key must be a UUID (36 characters)");
    char *request = floe__sprintf("%s %s", r->ctx->method, url);
    if (!request)
        return send_bytes(r->c, r->ctx, 500, NULL, 0, false);
    int64_t now = floe__now_ms();
    pthread_mutex_lock(&s->idem_lock);
    idem_expire(s, now);
    idem_entry *e;
    while ((e = floe__strmap_get(s->idem, key)) && !e->done)
        pthread_cond_wait(&s->idem_cv, &s->idem_lock);
    if (e && strcmp(e->request, request) != 0) {
        pthread_mutex_unlock(&s->idem_lock);
        floe__free(request);
        return send_error(r->c, r->ctx, r->method, 422, "UnprocessableEntityException",
                          "Idempotency-Key was already used for a different request");
    }
    if (e) {
        enum MHD_Result ret = replay(r, e);
        pthread_mutex_unlock(&s->idem_lock);
        floe__free(request);
        return ret;
    }
    e = floe__calloc(1, sizeof *e);
    if (e)
        snprintf(e->key, sizeof e->key, "%s", key);
    if (!e || floe__strmap_put(s->idem, e->key, e) < 0) {
        pthread_mutex_unlock(&s->idem_lock);
        floe__free(e);
        floe__free(request);
        return send_bytes(r->c, r->ctx, 503, NULL, 0, false);
    }
    e->request = request;
    pthread_mutex_unlock(&s->idem_lock);

    r->ctx->capture = true;
    enum MHD_Result ret = dispatch(r, url);
    int st = r->ctx->status;

    pthread_mutex_lock(&s->idem_lock);
    if (st >= 500 || st < 200 || r->ctx->cap_oom) {
        /* not finalized: a retry runs it again */
        floe__strmap_del(s->idem, key);
        idem_free(e);
        floe__free(r->ctx->cap_body);
    } else {
        e->done = true;
        e->status = st;
        e->body = r->ctx->cap_body;
        e->len = r->ctx->cap_len;
        e->json = r->ctx->cap_json;
        snprintf(e->etag, sizeof e->etag, "%s", r->ctx->etag);
        e->expires_ms = floe__now_ms() + s->idem_lifetime_ms;
        if (e->expires_ms < s->idem_next_expiry_ms)
            s->idem_next_expiry_ms = e->expires_ms;
    }
    r->ctx->cap_body = NULL;
    pthread_cond_broadcast(&s->idem_cv);
    pthread_mutex_unlock(&s->idem_lock);
    return ret;
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
                      enum MHD_RequestTerminationCode toe)
{
    floe_rest_server *s = cls;
    req_ctx *ctx = *con_cls;
    if (!ctx)
        return;
    if (s->access_log) {
        char addr[INET6_ADDRSTRLEN] = "-";
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (ci && ci->client_addr) {
            const struct sockaddr *sa = ci->client_addr;
            if (sa->sa_family == AF_INET)
                inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, addr,
                          sizeof addr);
            else if (sa->sa_family == AF_INET6)
                inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, addr,
                          sizeof addr);
        }
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        char ts[32];
        strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
        /* The path and status only: never headers (Authorization), never bodies. */
        fprintf(stderr, "%s %s \"%s %s\" %d %zu %.3fms%s\n", ts, addr, ctx->method,
                ctx->path ? ctx->path : "-", ctx->status, ctx->resp_len,
                (double)(floe__mono_ns() - ctx->start_ns) / 1e6,
                toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? "" : " (aborted)");
    }
    floe__buf_free(&ctx->body);
    floe__free(ctx->path);
    floe__arena_free(ctx->arena);
    floe__free(ctx);
    *con_cls = NULL;
    atomic_fetch_sub(&s->inflight, 1);
}

int floe__rest_server_start(floe_rest_server **out, floe_rest_backend *backend,
                            const floe_rest_server_options *opts)
{
    floe_rest_server_options o = FLOE_REST_SERVER_OPTIONS_INIT;
    if (opts)
        o = *opts;
    if (!backend || backend->version != FLOE_REST_BACKEND_VERSION)
        return floe__error(FLOE_EINVALID, "rest", "invalid backend");
    if (o.prefix && *o.prefix) {
        static const char *const reserved[] = {"namespaces", "tables", "transactions",
                                               "views",      "config", "oauth"};
        for (size_t i = 0; i < FLOE_ARRAY_LEN(reserved); i++)
            if (strcmp(o.prefix, reserved[i]) == 0)
                return floe__error(FLOE_EINVALID, "rest", "prefix '%s' is reserved", o.prefix);
        for (const char *q = o.prefix; *q; q++)
            if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
                  (*q >= '0' && *q <= '9') || *q == '-' || *q == '_' || *q == '.'))
                return floe__error(FLOE_EINVALID, "rest",
                                   "prefix may only hold letters, digits, '-', '_' and '.'");
    }
    if (o.port < 0 || o.port > 65535)
        return floe__error(FLOE_EINVALID, "rest", "invalid port %d", o.port);
    const char *host = o.host ? o.host : "127.0.0.1";
    struct addrinfo hints = {0}, *ai = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    char port_s[16];
    snprintf(port_s, sizeof port_s, "%d", o.port);
    int gai = getaddrinfo(host, port_s, &hints, &ai);
    if (gai != 0 || !ai)
        return floe__error(FLOE_EINVALID, "rest", "cannot resolve host '%s': %s", host,
                           gai_strerror(gai));

    floe_rest_server *s = floe__calloc(1, sizeof *s);
    if (!s) {
        freeaddrinfo(ai);
        return floe__error_nomem();
    }
    s->backend = backend;
    s->max_body = o.max_body ? o.max_body : (size_t)16 << 20;
    s->access_log = o.access_log;
    s->shutdown_timeout_ms = o.shutdown_timeout_ms ? o.shutdown_timeout_ms : 10000;
    atomic_init(&s->inflight, 0);
    pthread_mutex_init(&s->idem_lock, NULL);
    pthread_cond_init(&s->idem_cv, NULL);
    s->idem_lifetime_ms = (int64_t)(o.idempotency_lifetime_s ? o.idempotency_lifetime_s : 1800) * 1000;
    if (!(s->idem = floe__strmap_new()) ||
        floe__rest_plans_new(&s->plans, o.plan_tasks_per_chunk, s->idem_lifetime_ms) < 0) {
        floe__strmap_free(s->idem);
        floe__free(s);
        freeaddrinfo(ai);
        return floe__error_nomem();
    }
    floe__rest_plans_defer(s->plans, o.plan_defer);
    if (o.token) {
        s->auth = true;
        sha256(o.token, strlen(o.token), s->token_hash);
    }
    if (o.prefix && *o.prefix && !(s->prefix = floe__strdup(o.prefix))) {
        idem_free_all(s);
        floe__free(s);
        freeaddrinfo(ai);
        return floe__error_nomem();
    }
    unsigned threads = o.threads ? o.threads : 4;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_USE_AUTO;
    if (ai->ai_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    s->daemon = MHD_start_daemon(
        flags, (uint16_t)o.port, NULL, NULL, handler, s, MHD_OPTION_SOCK_ADDR, ai->ai_addr,
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_NOTIFY_COMPLETED, completed, s,
        MHD_OPTION_UNESCAPE_CALLBACK, unescape_identity, NULL, MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned)60, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)128 * 1024,
        MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned)1, MHD_OPTION_END);
    freeaddrinfo(ai);
    if (!s->daemon) {
        floe__free(s->prefix);
        idem_free_all(s);
        floe__free(s);
        return floe__error(FLOE_EIO, "rest", "cannot listen on %s port %d", host, o.port);
    }
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = di ? di->port : o.port;
    *out = s;
    return 0;
}

int floe__rest_server_port(const floe_rest_server *s)
{
    return s ? s->port : -1;
}

void floe__rest_server_stop(floe_rest_server *s)
{
    if (!s)
        return;
    /* Stop accepting, then let requests already being handled finish. */
    MHD_socket listen_fd = MHD_quiesce_daemon(s->daemon);
    int64_t deadline = floe__mono_ns() + (int64_t)s->shutdown_timeout_ms * 1000000;
    while (atomic_load(&s->inflight) > 0 && floe__mono_ns() < deadline) {
        struct timespec ts = {0, 5 * 1000000L};
        nanosleep(&ts, NULL);
    }
    MHD_stop_daemon(s->daemon);
    /* quiesce handed the listening socket to us; with worker threads it may
     * only be closed after the daemon has stopped. */
    if (listen_fd != MHD_INVALID_SOCKET)
        close(listen_fd);
    floe__free(s->prefix);
    idem_free_all(s);
    floe__free(s);
}
