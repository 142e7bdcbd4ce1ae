/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HTTP tests of rest/server over the in-memory backend: a server started
 * in-process on 127.0.0.1 port 0, driven with libcurl. Covers the catalog
 * routes, pagination, commits with requirements, concurrent commits, the
 * error model, authentication, body limits, identifier checks and graceful
 * shutdown.
 */
#include "harness.h"
#include "rest/server.h"

#include "lazy/curl.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define TOKEN "s3cr3t-t0ken"

typedef struct resp {
    long status;
    char *body;
    size_t len;
    char ctype[128];
    char etag[64];
    json_t *json;
} resp;

static floe_rest_server *srv;
static floe_rest_backend *be;
static char base[160]; /* http://127.0.0.1:PORT/v1/cat */
static char root[64]; /* http://127.0.0.1:PORT */

static size_t on_body(char *p, size_t sz, size_t n, void *u)
{
    resp *r = u;
    char *b = realloc(r->body, r->len + sz * n + 1);
    if (!b)
        return 0;
    memcpy(b + r->len, p, sz * n);
    r->len += sz * n;
    b[r->len] = '\0';
    r->body = b;
    return sz * n;
}

static size_t on_header(char *p, size_t sz, size_t n, void *u)
{
    resp *r = u;
    size_t len = sz * n;
    if (len > 6 && strncasecmp(p, "etag:", 5) == 0) {
        size_t k = len - 5;
        const char *v = p + 5;
        while (k && *v == ' ') {
            v++;
            k--;
        }
        while (k && (v[k - 1] == '\r' || v[k - 1] == '\n'))
            k--;
        if (k >= sizeof r->etag)
            k = sizeof r->etag - 1;
        memcpy(r->etag, v, k);
        r->etag[k] = '\0';
    }
    if (len > 14 && strncasecmp(p, "content-type:", 13) == 0) {
        size_t k = len - 13;
        if (k >= sizeof r->ctype)
            k = sizeof r->ctype - 1;
        memcpy(r->ctype, p + 13, k);
        r->ctype[k] = '\0';
        for (char *c = r->ctype; *c; c++)
            if (*c == '\r' || *c == '\n')
                *c = '\0';
    }
    return len;
}

static void resp_free(resp *r)
{
    free(r->body);
    json_decref(r->json);
    memset(r, 0, sizeof *r);
}

static const char *extra_header; /* one more request header, for a test */

/* method, full URL, body (NULL = none), token (NULL = no header), one more
 * header line (NULL = none). */
static resp http_h(const char *method, const char *url, const char *body, const char *token,
                   bool as_is, const char *hdr)
{
    resp r = {0};
    CURL *c = curl_easy_init();
    struct curl_slist *h = NULL;
    if (hdr)
        h = curl_slist_append(h, hdr);
    char auth[256];
    if (token) {
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
        h = curl_slist_append(h, auth);
    }
    h = curl_slist_append(h, "Content-Type: application/json");
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    if (strcmp(method, "HEAD") == 0)
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    if (body) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
    }
    if (as_is)
        curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &r);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 20L);
    if (curl_easy_perform(c) == CURLE_OK)
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    if (r.body && r.len)
        r.json = json_loads(r.body, 0, NULL);
    return r;
}

static resp http_ex(const char *method, const char *url, const char *body, const char *token,
                    bool as_is)
{
    return http_h(method, url, body, token, as_is, extra_header);
}

static resp http_with(const char *method, const char *path, const char *body, const char *hdr)
{
    char url[1280];
    snprintf(url, sizeof url, "%s%s", base, path);
    return http_h(method, url, body, TOKEN, false, hdr);
}

static resp http(const char *method, const char *path, const char *body)
{
    char url[1280];
    snprintf(url, sizeof url, "%s%s", base, path);
    return http_ex(method, url, body, TOKEN, false);
}

/* The response is an IcebergErrorResponse of this status and type. */
static bool is_error(const resp *r, long status, const char *type)
{
    if (r->status != status)
        return ft_fail(__FILE__, __LINE__, "status %ld != %ld: %s", r->status, status,
                       r->body ? r->body : "");
    json_t *e = json_object_get(r->json, "error");
    if (!json_is_object(e) || !json_is_string(json_object_get(e, "message")) ||
        json_integer_value(json_object_get(e, "code")) != status ||
        !json_is_string(json_object_get(e, "type")) ||
        strcmp(json_string_value(json_object_get(e, "type")), type) != 0)
        return ft_fail(__FILE__, __LINE__, "not a %ld %s error model: %s", status, type,
                       r->body ? r->body : "(none)");
    if (!strstr(r->ctype, "application/json"))
        return ft_fail(__FILE__, __LINE__, "content-type '%s'", r->ctype);
    return true;
}

#define EXPECT_ERROR(r, st, type) FT_CHECK(is_error(&(r), (st), (type)))

static void start(void)
{
    if (srv)
        return;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    floe_rest_server_options o = FLOE_REST_SERVER_OPTIONS_INIT;
    o.token = TOKEN;
    o.prefix = "cat";
    o.max_body = 64 * 1024;
    o.threads = 4;
    o.idempotency_lifetime_s = 2;
    if (floe__rest_backend_memory_new(&be, "s3://wh") < 0 ||
        floe__rest_server_start(&srv, be, &o) < 0) {
        ft_fail(__FILE__, __LINE__, "server start: %s", ft_floe_err());
        return;
    }
    FT_CHECK(floe__rest_server_port(srv) > 0);
    snprintf(root, sizeof root, "http://127.0.0.1:%d", floe__rest_server_port(srv));
    snprintf(base, sizeof base, "%s/v1/cat", root);
}

static const char schema[] =
    "{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"id\",\"type\":\"long\","
    "\"required\":true},{\"id\":2,\"name\":\"data\",\"type\":\"string\",\"required\":false}]}";

static void create_ns(const char *ns)
{
    char body[256];
    snprintf(body, sizeof body, "{\"namespace\":[\"%s\"]}", ns);
    resp r = http("POST", "/namespaces", body);
    FT_EQ_INT(r.status, 200);
    resp_free(&r);
}

static void create_table(const char *ns, const char *name)
{
    char body[1024], path[256];
    snprintf(body, sizeof body, "{\"name\":\"%s\",\"schema\":%s}", name, schema);
    snprintf(path, sizeof path, "/namespaces/%s/tables", ns);
    resp r = http("POST", path, body);
    FT_EQ_INT(r.status, 200);
    resp_free(&r);
}

/* ---------------------------------------------------------------- tests */

static void test_config(void)
{
    start();
    char url[256];
    snprintf(url, sizeof url, "%s/v1/config?warehouse=x", root);
    resp r = http_ex("GET", url, NULL, TOKEN, false);
    FT_EQ_INT(r.status, 200);
    FT_CHECK(strstr(r.ctype, "application/json") != NULL);
    FT_EQ_STR(json_string_value(json_object_get(json_object_get(r.json, "overrides"), "prefix")),
              "cat");
    FT_CHECK(json_is_object(json_object_get(r.json, "defaults")));
    /* exactly the routes served, in the spec's "<verb> <path>" form */
    static const char *const want[] = {
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
        "POST /v1/{prefix}/transactions/commit",
        "GET /v1/{prefix}/namespaces/{namespace}/views",
        "POST /v1/{prefix}/namespaces/{namespace}/views",
        "GET /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "HEAD /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "POST /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "DELETE /v1/{prefix}/namespaces/{namespace}/views/{view}",
        "POST /v1/{prefix}/views/rename",
        "POST /v1/{prefix}/namespaces/{namespace}/register-view",
        "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan",
        "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}",
        "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/{plan-id}",
        "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks",
    };
    json_t *ep = json_object_get(r.json, "endpoints");
    FT_EQ_INT(json_array_size(ep), FT_N(want));
    for (size_t i = 0; i < FT_N(want) && i < json_array_size(ep); i++)
        FT_EQ_STR(json_string_value(json_array_get(ep, i)), want[i]);
    resp_free(&r);
    r = http_ex("POST", url, "{}", TOKEN, false);
    EXPECT_ERROR(r, 405, "UnsupportedOperationException");
    resp_free(&r);
}

static void test_namespace_crud(void)
{
    start();
    resp r = http("POST", "/namespaces", "{\"namespace\":[\"crud\"],\"properties\":{\"owner\":\"ann\",\"x\":\"1\"}}");
    FT_EQ_INT(r.status, 200);
    FT_EQ_STR(json_string_value(json_array_get(json_object_get(r.json, "namespace"), 0)), "crud");
    FT_EQ_STR(json_string_value(json_object_get(json_object_get(r.json, "properties"), "owner")),
              "ann");
    resp_free(&r);
    r = http("POST", "/namespaces", "{\"namespace\":[\"crud\"]}");
    EXPECT_ERROR(r, 409, "AlreadyExistsException");
    resp_free(&r);
    r = http("GET", "/namespaces/crud", NULL);
    FT_EQ_INT(r.status, 200);
    FT_EQ_STR(json_string_value(json_object_get(json_object_get(r.json, "properties"), "x")), "1");
    resp_free(&r);
    r = http("HEAD", "/namespaces/crud", NULL);
    FT_EQ_INT(r.status, 204);
    resp_free(&r);
    r = http("HEAD", "/namespaces/nope", NULL);
    FT_EQ_INT(r.status, 404);
    resp_free(&r);
    r = http("GET", "/namespaces/nope", NULL);
    EXPECT_ERROR(r, 404, "NoSuchNamespaceException");
    resp_free(&r);

    r = http("POST", "/namespaces/crud/properties",
             "{\"removals\":[\"x\",\"missing\"],\"updates\":{\"owner\":\"bob\"}}");
    FT_EQ_INT(r.status, 200);
    FT_EQ_STR(json_string_value(json_array_get(json_object_get(r.json, "updated"), 0)), "owner");
    FT_EQ_STR(json_string_value(json_array_get(json_object_get(r.json, "removed"), 0)), "x");
    FT_EQ_STR(json_string_value(json_array_get(json_object_get(r.json, "missing"), 0)), "missing");
    resp_free(&r);
    r = http("POST", "/namespaces/crud/properties", "{\"removals\":[\"a\"],\"updates\":{\"a\":\"b\"}}");
    EXPECT_ERROR(r, 422, "UnprocessableEntityException");
    resp_free(&r);
    r = http("POST", "/namespaces/nope/properties", "{\"updates\":{\"a\":\"b\"}}");
    EXPECT_ERROR(r, 404, "NoSuchNamespaceException");
    resp_free(&r);

    /* nested namespace, %1F separator, parent listing */
    r = http("POST", "/namespaces", "{\"namespace\":[\"crud\",\"inner\"]}");
    FT_EQ_INT(r.status, 200);
    resp_free(&r);
    r = http("GET", "/namespaces/crud%1Finner", NULL);
    FT_EQ_INT(r.status, 200);
    FT_EQ_INT(json_array_size(json_object_get(r.json, "namespace")), 2);
    resp_free(&r);
    r = http("GET", "/namespaces?parent=crud", NULL);
    FT_EQ_INT(r.status, 200);
    json_t *l = json_object_get(r.json, "namespaces");
    FT_EQ_INT(json_array_size(l), 1);
    FT_EQ_STR(json_string_value(json_array_get(json_array_get(l, 0), 1)), "inner");
    resp_free(&r);
    r = http("GET", "/namespaces?parent=nope", NULL);
    EXPECT_ERROR(r, 404, "NoSuchNamespaceException");
    resp_free(&r);

    r = http("DELETE", "/namespaces/crud", NULL);
    EXPECT_ERROR(r, 409, "NamespaceNotEmptyException");
    resp_free(&r);
    r = http("DELETE", "/namespaces/crud%1Finner", NULL);
    FT_EQ_INT(r.status, 204);
    resp_free(&r);
    r = http("DELETE", "/namespaces/crud", NULL);
    FT_EQ_INT(r.status, 204);
    resp_free(&r);
    r = http("DELETE", "/namespaces/crud", NULL);
    EXPECT_ERROR(r, 404, "NoSuchNamespaceException");
    resp_free(&r);
}

/* Follow next-page-token until null; returns how many items were seen and
 * checks they come sorted without repeats. */
static size_t walk_pages(const char *path_fmt, const char *list_key, size_t page_size)
{
    char token[512] = "", path[1024], prev[256] = "";
    size_t total = 0;
    for (int guard = 0; guard < 100; guard++) {
        snprintf(path, sizeof path, path_fmt, token, page_size);
        resp r = http("GET", path, NULL);
        if (r.status != 200) {
            ft_fail(__FILE__, __LINE__, "page status %ld: %s", r.status, r.body);
            resp_free(&r);
            return total;
        }
        json_t *items = json_object_get(r.json, list_key);
        FT_CHECK(json_array_size(items) <= page_size);
        size_t i;
        json_t *it;
        json_array_foreach(items, i, it)
        {
            json_t *name = json_is_array(it) ? json_array_get(it, 0) : json_object_get(it, "name");
            const char *s = json_string_value(name);
            FT_CHECK(s && strcmp(prev, s) < 0);
            snprintf(prev, sizeof prev, "%s", s ? s : "");
            total++;
        }
        json_t *next = json_object_get(r.json, "next-page-token");
        FT_CHECK(next != NULL); /* paginated responses always carry the field */
        if (!json_is_string(next)) {
            resp_free(&r);
            return total;
        }
        snprintf(token, sizeof token, "%s", json_string_value(next));
        resp_free(&r);
    }
    ft_fail(__FILE__, __LINE__, "pagination did not end");
    return total;
}

static void test_pagination(void)
{
    start();
    char name[64];
    for (int i = 0; i < 23; i++) {
        snprintf(name, sizeof name, "pg%02d", i);
        create_ns(name);
    }
    create_ns("pgt");
    for (int i = 0; i < 7; i++) {
        snprintf(name, sizeof name, "t%d", i);
        create_table("pgt", name);
    }
    /* all namespaces listed, including pg00..pg22 and pgt */
    resp r = http("GET", "/namespaces", NULL);
    FT_EQ_INT(r.status, 200);
    size_t all = json_array_size(json_object_get(r.json, "namespaces"));
    FT_CHECK(all >= 24);
    FT_CHECK(json_object_get(r.json, "next-page-token") == NULL);
    resp_free(&r);
    FT_EQ_INT(walk_pages("/namespaces?pageToken=%s&pageSize=%zu", "namespaces", 5), all);
    FT_EQ_INT(walk_pages("/namespaces?pageToken=%s&pageSize=%zu", "namespaces", 1000), all);
    FT_EQ_INT(walk_pages("/namespaces/pgt/tables?pageToken=%s&pageSize=%zu", "identifiers", 3), 7);
    r = http("GET", "/namespaces?pageSize=0", NULL);
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);
    r = http("GET", "/namespaces?pageSize=abc", NULL);
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);
    r = http("GET", "/namespaces?pageToken=zz", NULL);
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);
    r = http("GET", "/namespaces/nope/tables", NULL);
    EXPECT_ERROR(r, 404, "NoSuchNamespaceException");
    resp_free(&r);
}

static char *commit_body(const char *req_snapshot, long long snap_id, long long parent,
                         long long seq)
{
    return floe__sprintf(
        "{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\","
        "\"snapshot-id\":%s}],\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":"
        "{\"snapshot-id\":%lld,%s%lld,\"sequence-number\":%lld,\"timestamp-ms\":1700000000000,"
        "\"manifest-list\":\"s3://wh/m-%lld.avro\",\"summary\":{\"operation\":\"append\"}}},"
        "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\","
        "\"snapshot-id\":%lld}]}",
        req_snapshot, snap_id, parent ? "\"parent-snapshot-id\":" : "\"schema-id\":",
        parent ? parent : 0LL, seq, snap_id, snap_id);
}

static void test_tables(void)
{
    start();
    create_ns("tb");
    create_table("tb", "t");
    char body[1024];
    snprintf(body, sizeof body, "{\"name\":\"t\",\"schema\":%s}", schema);
    resp r = http("POST", "/namespaces/tb/tables", body);
    EXPECT_ERROR(r, 409, "AlreadyExistsException");
    resp_free(&r);
    r = http("POST", "/namespaces/nope/tables", body);
    EXPECT_ERROR(r, 404, "NoSuchNamespaceException");
    resp_free(&r);

    r = http("GET", "/namespaces/tb/tables/t", NULL);
    FT_EQ_INT(r.status, 200);
    json_t *md = json_object_get(r.json, "metadata");
    FT_EQ_INT(json_integer_value(json_object_get(md, "format-version")), 2);
    FT_EQ_INT(json_integer_value(json_object_get(md, "last-column-id")), 2);
    /* the catalog's default location: <warehouse>/<namespace>.db/<table> */
    FT_EQ_STR(json_string_value(json_object_get(md, "location")), "s3://wh/tb.db/t");
    char uuid[64];
    snprintf(uuid, sizeof uuid, "%s", json_string_value(json_object_get(md, "table-uuid")));
    char loc0[512];
    snprintf(loc0, sizeof loc0, "%s", json_string_value(json_object_get(r.json, "metadata-location")));
    resp_free(&r);
    r = http("HEAD", "/namespaces/tb/tables/t", NULL);
    FT_EQ_INT(r.status, 204);
    resp_free(&r);
    r = http("HEAD", "/namespaces/tb/tables/zz", NULL);
    FT_EQ_INT(r.status, 404);
    resp_free(&r);
    r = http("GET", "/namespaces/tb/tables/zz", NULL);
    EXPECT_ERROR(r, 404, "NoSuchTableException");
    resp_free(&r);

    /* first append: main must not exist yet; 64-bit ids stay exact */
    char *c = commit_body("null", 9007199254740993LL, 0, 1);
    r = http("POST", "/namespaces/tb/tables/t", c);
    floe__free(c);
    FT_EQ_INT(r.status, 200);
    FT_CHECK(r.body && strstr(r.body, "\"current-snapshot-id\":9007199254740993") != NULL);
    FT_CHECK(json_is_string(json_object_get(r.json, "metadata-location")) &&
             strcmp(json_string_value(json_object_get(r.json, "metadata-location")), loc0) != 0);
    FT_EQ_INT(json_array_size(json_object_get(json_object_get(r.json, "metadata"), "metadata-log")), 1);
    resp_free(&r);
    /* the same base again: the ref now exists -> 409 CommitFailedException */
    c = commit_body("null", 42, 0, 2);
    r = http("POST", "/namespaces/tb/tables/t", c);
    floe__free(c);
    EXPECT_ERROR(r, 409, "CommitFailedException");
    FT_CHECK(r.body && strstr(r.body, "Requirement failed: branch main was created concurrently"));
    resp_free(&r);
    c = commit_body("1", 43, 0, 2);
    r = http("POST", "/namespaces/tb/tables/t", c);
    floe__free(c);
    EXPECT_ERROR(r, 409, "CommitFailedException");
    FT_CHECK(r.body && strstr(r.body, "has changed: expected id 1 != 9007199254740993"));
    resp_free(&r);
    c = commit_body("9007199254740993", 44, 9007199254740993LL, 2);
    r = http("POST", "/namespaces/tb/tables/t", c);
    floe__free(c);
    FT_EQ_INT(r.status, 200);
    resp_free(&r);

    /* assert-table-uuid, other assert kinds */
    r = http("POST", "/namespaces/tb/tables/t",
             "{\"requirements\":[{\"type\":\"assert-table-uuid\",\"uuid\":"
             "\"00000000-0000-0000-0000-000000000000\"}],\"updates\":[]}");
    EXPECT_ERROR(r, 409, "CommitFailedException");
    resp_free(&r);
    snprintf(body, sizeof body,
             "{\"requirements\":[{\"type\":\"assert-table-uuid\",\"uuid\":\"%s\"},"
             "{\"type\":\"assert-current-schema-id\",\"current-schema-id\":0},"
             "{\"type\":\"assert-last-assigned-field-id\",\"last-assigned-field-id\":2},"
             "{\"type\":\"assert-default-spec-id\",\"default-spec-id\":0},"
             "{\"type\":\"assert-last-assigned-partition-id\",\"last-assigned-partition-id\":999},"
             "{\"type\":\"assert-default-sort-order-id\",\"default-sort-order-id\":0}],"
             "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"v\"}}]}",
             uuid);
    r = http("POST", "/namespaces/tb/tables/t", body);
    FT_EQ_INT(r.status, 200);
    FT_EQ_STR(json_string_value(json_object_get(
                  json_object_get(json_object_get(r.json, "metadata"), "properties"), "k")),
              "v");
    resp_free(&r);
    r = http("POST", "/namespaces/tb/tables/t",
             "{\"requirements\":[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":7}],"
             "\"updates\":[]}");
    EXPECT_ERROR(r, 409, "CommitFailedException");
    resp_free(&r);
    r = http("POST", "/namespaces/tb/tables/t",
             "{\"requirements\":[],\"updates\":[{\"action\":\"frobnicate\"}]}");
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);
    r = http("POST", "/namespaces/tb/tables/zz", "{\"requirements\":[],\"updates\":[]}");
    EXPECT_ERROR(r, 404, "NoSuchTableException");
    resp_free(&r);
    r = http("POST", "/namespaces/tb/tables/t",
             "{\"identifier\":{\"namespace\":[\"tb\"],\"name\":\"other\"},\"requirements\":[],"
             "\"updates\":[]}");
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);

    /* ETag / If-None-Match: 304 while the metadata is unchanged */
    r = http("GET", "/namespaces/tb/tables/t", NULL);
    FT_CHECK(r.etag[0] == '"');
    char etag[64], inm[100];
    snprintf(etag, sizeof etag, "%s", r.etag);
    resp_free(&r);
    snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
    extra_header = inm;
    r = http("GET", "/namespaces/tb/tables/t", NULL);
    FT_EQ_INT(r.status, 304);
    FT_CHECK(r.len == 0);
    FT_EQ_STR(r.etag, etag); /* a 304 repeats the tag */
    resp_free(&r);
    /* RFC 9110: a list of tags, weak comparison, "*" */
    char list[200];
    snprintf(list, sizeof list, "If-None-Match: \"other\", W/%s", etag);
    extra_header = list;
    r = http("GET", "/namespaces/tb/tables/t", NULL);
    FT_EQ_INT(r.status, 304);
    resp_free(&r);
    extra_header = "If-None-Match: *";
    r = http("GET", "/namespaces/tb/tables/t", NULL);
    FT_EQ_INT(r.status, 304);
    resp_free(&r);
    r = http("GET", "/namespaces/tb/tables/zz", NULL);
    EXPECT_ERROR(r, 404, "NoSuchTableException"); /* no table, no 304 */
    resp_free(&r);
    extra_header = "If-None-Match: \"stale\"";
    r = http("GET", "/namespaces/tb/tables/t", NULL);
    FT_EQ_INT(r.status, 200);
    FT_EQ_STR(r.etag, etag);
    resp_free(&r);
    extra_header = inm;
    r = http("GET", "/namespaces/tb/tables/t?snapshots=refs", NULL);
    FT_EQ_INT(r.status, 200); /* another representation, another tag */
    FT_CHECK(strcmp(r.etag, etag) != 0);
    resp_free(&r);
    extra_header = NULL;
    r = http("POST", "/namespaces/tb/tables/t",
             "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":"
             "{\"k2\":\"v2\"}}]}");
    FT_EQ_INT(r.status, 200);
    FT_CHECK(r.etag[0] && strcmp(r.etag, etag) != 0);
    resp_free(&r);
    extra_header = inm;
    r = http("GET", "/namespaces/tb/tables/t", NULL);
    FT_EQ_INT(r.status, 200); /* changed since: full body */
    resp_free(&r);
    extra_header = NULL;

    /* snapshots=refs keeps only referenced snapshots */
    r = http("GET", "/namespaces/tb/tables/t?snapshots=refs", NULL);
    FT_EQ_INT(r.status, 200);
    FT_EQ_INT(json_array_size(json_object_get(json_object_get(r.json, "metadata"), "snapshots")), 1);
    resp_free(&r);
    r = http("GET", "/namespaces/tb/tables/t?snapshots=all", NULL);
    FT_EQ_INT(json_array_size(json_object_get(json_object_get(r.json, "metadata"), "snapshots")), 2);
    resp_free(&r);
    r = http("GET", "/namespaces/tb/tables/t?snapshots=some", NULL);
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);

    /* staged create, then commit with assert-create */
    snprintf(body, sizeof body, "{\"name\":\"staged\",\"schema\":%s,\"stage-create\":true}", schema);
    r = http("POST", "/namespaces/tb/tables", body);
    FT_EQ_INT(r.status, 200);
    FT_CHECK(json_is_null(json_object_get(r.json, "metadata-location")));
    resp_free(&r);
    r = http("HEAD", "/namespaces/tb/tables/staged", NULL);
    FT_EQ_INT(r.status, 404);
    resp_free(&r);
    snprintf(body, sizeof body,
             "{\"requirements\":[{\"type\":\"assert-create\"}],\"updates\":["
             "{\"action\":\"assign-uuid\",\"uuid\":\"1b2c3d4e-0000-4000-8000-000000000001\"},"
             "{\"action\":\"upgrade-format-version\",\"format-version\":2},"
             "{\"action\":\"add-schema\",\"schema\":%s},"
             "{\"action\":\"set-current-schema\",\"schema-id\":-1},"
             "{\"action\":\"add-spec\",\"spec\":{\"fields\":[]}},"
             "{\"action\":\"set-default-spec\",\"spec-id\":-1},"
             "{\"action\":\"add-sort-order\",\"sort-order\":{\"order-id\":0,\"fields\":[]}},"
             "{\"action\":\"set-default-sort-order\",\"sort-order-id\":-1},"
             "{\"action\":\"set-location\",\"location\":\"s3://wh/tb/staged\"}]}",
             schema);
    r = http("POST", "/namespaces/tb/tables/staged", body);
    FT_EQ_INT(r.status, 200);
    md = json_object_get(r.json, "metadata");
    FT_EQ_STR(json_string_value(json_object_get(md, "table-uuid")),
              "1b2c3d4e-0000-4000-8000-000000000001");
    FT_EQ_INT(json_integer_value(json_object_get(md, "current-schema-id")), 0);
    FT_EQ_INT(json_integer_value(json_object_get(md, "last-column-id")), 2);
    resp_free(&r);
    r = http("POST", "/namespaces/tb/tables/staged", body);
    EXPECT_ERROR(r, 409, "CommitFailedException");
    resp_free(&r);

    /* rename, drop */
    r = http("POST", "/tables/rename",
             "{\"source\":{\"namespace\":[\"tb\"],\"name\":\"staged\"},"
             "\"destination\":{\"namespace\":[\"tb\"],\"name\":\"moved\"}}");
    FT_EQ_INT(r.status, 204);
    resp_free(&r);
    r = http("POST", "/tables/rename",
             "{\"source\":{\"namespace\":[\"tb\"],\"name\":\"staged\"},"
             "\"destination\":{\"namespace\":[\"tb\"],\"name\":\"moved2\"}}");
    EXPECT_ERROR(r, 404, "NoSuchTableException");
    resp_free(&r);
    r = http("POST", "/tables/rename",
             "{\"source\":{\"namespace\":[\"tb\"],\"name\":\"moved\"},"
             "\"destination\":{\"namespace\":[\"nope\"],\"name\":\"x\"}}");
    EXPECT_ERROR(r, 404, "NoSuchNamespaceException");
    resp_free(&r);
    r = http("POST", "/tables/rename",
             "{\"source\":{\"namespace\":[\"tb\"],\"name\":\"moved\"},"
             "\"destination\":{\"namespace\":[\"tb\"],\"name\":\"t\"}}");
    EXPECT_ERROR(r, 409, "AlreadyExistsException");
    resp_free(&r);
    r = http("DELETE", "/namespaces/tb/tables/moved?purgeRequested=true", NULL);
    FT_EQ_INT(r.status, 204);
    resp_free(&r);
    r = http("DELETE", "/namespaces/tb/tables/moved", NULL);
    EXPECT_ERROR(r, 404, "NoSuchTableException");
    resp_free(&r);
    r = http("DELETE", "/namespaces/tb/tables/t?purgeRequested=maybe", NULL);
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);

    /* register: only files inside the warehouse (here the memory FileIO's
     * s3://wh/...) are read, never /etc/passwd (registration itself is
     * tested in test_backend_memory) */
    r = http("POST", "/namespaces/tb/register",
             "{\"name\":\"reg\",\"metadata-location\":\"/etc/passwd\"}");
    EXPECT_ERROR(r, 400, "BadRequestException");
    FT_CHECK(r.body && !strstr(r.body, "root"));
    resp_free(&r);
    create_table("tb", "reg");
    r = http("POST", "/namespaces/tb/tables/reg/metrics",
             "{\"report-type\":\"commit-report\",\"table-name\":\"tb.reg\"}");
    FT_EQ_INT(r.status, 204);
    resp_free(&r);

    r = http("GET", "/namespaces/tb/tables", NULL);
    FT_EQ_INT(r.status, 200);
    FT_EQ_INT(json_array_size(json_object_get(r.json, "identifiers")), 2);
    resp_free(&r);
}

typedef struct racer {
    char *body;
    long status;
} racer;

static void *race(void *p)
{
    racer *rc = p;
    resp r = http("POST", "/namespaces/race/tables/t", rc->body);
    rc->status = r.status;
    if (r.status == 409 && !is_error(&r, 409, "CommitFailedException"))
        rc->status = -1;
    resp_free(&r);
    return NULL;
}

/* Clients committing against the same base: exactly one wins. */
static void test_concurrent_commits(void)
{
    start();
    create_ns("race");
    create_table("race", "t");
    char *c = commit_body("null", 1000, 0, 1);
    resp r = http("POST", "/namespaces/race/tables/t", c);
    floe__free(c);
    FT_EQ_INT(r.status, 200);
    resp_free(&r);
    for (int round = 0; round < 3; round++) {
        enum { N = 8 };
        racer rs[N];
        pthread_t th[N];
        char base_id[32];
        snprintf(base_id, sizeof base_id, "%d", 1000 + round * 100);
        for (int i = 0; i < N; i++) {
            rs[i].body = commit_body(base_id, 1000 + (round + 1) * 100 + 1 + i,
                                     1000 + round * 100, 10 * round + 2);
            rs[i].status = 0;
        }
        for (int i = 0; i < N; i++)
            pthread_create(&th[i], NULL, race, &rs[i]);
        int wins = 0, lost = 0, winner = -1;
        for (int i = 0; i < N; i++) {
            pthread_join(th[i], NULL);
            if (rs[i].status == 200) {
                wins++;
                winner = i;
            } else if (rs[i].status == 409) {
                lost++;
            }
            floe__free(rs[i].body);
        }
        FT_EQ_INT(wins, 1);
        FT_EQ_INT(lost, N - 1);
        /* the winner's snapshot is current */
        r = http("GET", "/namespaces/race/tables/t", NULL);
        FT_EQ_INT(json_integer_value(json_object_get(json_object_get(r.json, "metadata"),
                                                     "current-snapshot-id")),
                  1000 + (round + 1) * 100 + 1 + winner);
        resp_free(&r);
        /* next round's base must be deterministic: move main to x00 */
        char fix[512];
        snprintf(fix, sizeof fix,
                 "{\"requirements\":[],\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":"
                 "{\"snapshot-id\":%d,\"sequence-number\":%d,\"timestamp-ms\":1,"
                 "\"manifest-list\":\"m\",\"summary\":{\"operation\":\"append\"}}},"
                 "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\","
                 "\"snapshot-id\":%d}]}",
                 1000 + (round + 1) * 100, 10 * round + 5, 1000 + (round + 1) * 100);
        r = http("POST", "/namespaces/race/tables/t", fix);
        FT_EQ_INT(r.status, 200);
        resp_free(&r);
    }
}

static void test_transactions(void)
{
    start();
    create_ns("tx");
    create_table("tx", "a");
    create_table("tx", "b");
    resp r = http("POST", "/transactions/commit",
                  "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"tx\"],\"name\":\"a\"},"
                  "\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":"
                  "{\"k\":\"1\"}}]},{\"identifier\":{\"namespace\":[\"tx\"],\"name\":\"b\"},"
                  "\"requirements\":[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":"
                  "5}],\"updates\":[]}]}");
    EXPECT_ERROR(r, 409, "CommitFailedException");
    resp_free(&r);
    r = http("GET", "/namespaces/tx/tables/a", NULL);
    FT_CHECK(json_object_get(json_object_get(json_object_get(r.json, "metadata"), "properties"),
                             "k") == NULL); /* nothing applied */
    resp_free(&r);
    r = http("POST", "/transactions/commit",
             "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"tx\"],\"name\":\"a\"},"
             "\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":"
             "{\"k\":\"1\"}}]},{\"identifier\":{\"namespace\":[\"tx\"],\"name\":\"b\"},"
             "\"requirements\":[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":"
             "0}],\"updates\":[{\"action\":\"remove-properties\",\"removals\":[\"zz\"]}]}]}");
    FT_EQ_INT(r.status, 204);
    resp_free(&r);
    r = http("GET", "/namespaces/tx/tables/a", NULL);
    FT_EQ_STR(json_string_value(json_object_get(
                  json_object_get(json_object_get(r.json, "metadata"), "properties"), "k")),
              "1");
    resp_free(&r);
}

/* Server-side planning routes on an empty table: a completed plan with a
 * plan-id and no tasks, fetch / cancel by id, the error model of each
 * route (real tables with files: tests/unit/rest/test_client.c). */
static void test_plan_routes(void)
{
    start();
    create_ns("pl");
    create_table("pl", "t");
    resp r = http("POST", "/namespaces/pl/tables/t/plan",
             "{\"filter\":{\"type\":\"eq\",\"term\":\"id\",\"value\":5},"
             "\"case-sensitive\":true,\"select\":[\"id\"]}");
    FT_EQ_INT(r.status, 200);
    FT_EQ_STR(json_string_value(json_object_get(r.json, "status")), "completed");
    FT_EQ_INT(json_array_size(json_object_get(r.json, "file-scan-tasks")), 0);
    FT_CHECK(json_object_get(r.json, "plan-tasks") == NULL);
    FT_CHECK(json_object_get(r.json, "delete-files") == NULL);
    char pid[128] = "";
    if (json_is_string(json_object_get(r.json, "plan-id")))
        snprintf(pid, sizeof pid, "%s", json_string_value(json_object_get(r.json, "plan-id")));
    FT_CHECK(pid[0] != '\0');
    resp_free(&r);
    char path[256];
    snprintf(path, sizeof path, "/namespaces/pl/tables/t/plan/%s", pid);
    r = http("GET", path, NULL);
    FT_EQ_INT(r.status, 200);
    FT_EQ_STR(json_string_value(json_object_get(r.json, "status")), "completed");
    resp_free(&r);
    r = http("DELETE", path, NULL);
    FT_EQ_INT(r.status, 204);
    resp_free(&r);
    r = http("DELETE", path, NULL);
    EXPECT_ERROR(r, 404, "NoSuchPlanIdException");
    resp_free(&r);
    r = http("GET", path, NULL);
    EXPECT_ERROR(r, 404, "NoSuchPlanIdException");
    resp_free(&r);
    r = http("POST", "/namespaces/pl/tables/t/tasks", "{\"plan-task\":\"nope:1\"}");
    EXPECT_ERROR(r, 404, "NoSuchPlanTaskException");
    resp_free(&r);
    r = http("POST", "/namespaces/pl/tables/t/tasks", "{\"plan-tasks\":1}");
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);
    /* request errors */
    static const char *const bad[] = {
        "[1]",
        "{\"snapshot-id\":\"x\"}",
        "{\"snapshot-id\":42}",
        "{\"start-snapshot-id\":1}",
        "{\"snapshot-id\":1,\"start-snapshot-id\":1,\"end-snapshot-id\":2}",
        "{\"case-sensitive\":1}",
        "{\"select\":[1]}",
        "{\"filter\":{\"type\":\"eq\",\"term\":\"nope\",\"value\":1}}",
        "{\"filter\":{\"type\":\"bogus\"}}",
        "{\"filter\":{\"type\":\"is-null\",\"term\":\"id\",\"value\":1}}",
        "{\"filter\":{\"type\":\"in\",\"term\":\"id\"}}",
        "{\"filter\":\"id = 1\"}",
        "{not json",
    };
    for (size_t i = 0; i < FT_N(bad); i++) {
        r = http("POST", "/namespaces/pl/tables/t/plan", bad[i]);
        /* binding an unknown column is Iceberg's ValidationException and
         * an unknown snapshot its IllegalArgumentException (SnapshotScan's
         * "Cannot find snapshot with ID 42"), which its REST server answers
         * 400 under the exception's name */
        EXPECT_ERROR(r, 400,
                     strstr(bad[i], "nope")                    ? "ValidationException"
                     : !strcmp(bad[i], "{\"snapshot-id\":42}") ? "IllegalArgumentException"
                                                               : "BadRequestException");
        resp_free(&r);
    }
    r = http("POST", "/namespaces/pl/tables/t/plan",
             "{\"filter\":{\"type\":\"eq\",\"term\":{\"type\":\"transform\","
             "\"transform\":\"day\",\"term\":\"id\"},\"value\":1}}");
    EXPECT_ERROR(r, 406, "UnsupportedOperationException");
    resp_free(&r);
    r = http("POST", "/namespaces/pl/tables/missing/plan", "{}");
    EXPECT_ERROR(r, 404, "NoSuchTableException");
    resp_free(&r);
    r = http("POST", "/namespaces/pl/tables/missing/tasks", "{\"plan-task\":\"x:1\"}");
    EXPECT_ERROR(r, 404, "NoSuchTableException");
    resp_free(&r);
    r = http("GET", "/namespaces/pl/tables/t/plan", NULL);
    EXPECT_ERROR(r, 405, "UnsupportedOperationException");
    resp_free(&r);
    /* a plan id belongs to its table */
    create_table("pl", "u");
    r = http("POST", "/namespaces/pl/tables/t/plan", NULL);
    FT_EQ_INT(r.status, 200);
    if (json_is_string(json_object_get(r.json, "plan-id")))
        snprintf(path, sizeof path, "/namespaces/pl/tables/u/plan/%s",
                 json_string_value(json_object_get(r.json, "plan-id")));
    resp_free(&r);
    r = http("GET", path, NULL);
    EXPECT_ERROR(r, 404, "NoSuchPlanIdException");
    resp_free(&r);
}

typedef struct idem_racer {
    const char *key;
    long status;
    char body[4096];
} idem_racer;

static const char idem_commit[] =
    "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":"
    "{\"n\":\"1\"}}]}";

static void *idem_race(void *p)
{
    idem_racer *ir = p;
    char h[100];
    snprintf(h, sizeof h, "Idempotency-Key: %s", ir->key);
    resp r = http_with("POST", "/namespaces/idem/tables/t", idem_commit, h);
    ir->status = r.status;
    snprintf(ir->body, sizeof ir->body, "%s", r.body ? r.body : "");
    resp_free(&r);
    return NULL;
}

static int metadata_log_len(void)
{
    resp r = http("GET", "/namespaces/idem/tables/t", NULL);
    int n = (int)json_array_size(json_object_get(json_object_get(r.json, "metadata"),
                                                 "metadata-log"));
    resp_free(&r);
    return n;
}

/* Idempotency-Key: advertised lifetime, one application per key (also for
 * two clients racing with one key), the first response replayed, keys
 * expire, a key reused for another request is refused, 4xx are final. */
static void test_idempotency(void)
{
    start();
    resp r = http_ex("GET", root, NULL, TOKEN, false);
    resp_free(&r);
    char url[256];
    snprintf(url, sizeof url, "%s/v1/config", root);
    r = http_ex("GET", url, NULL, TOKEN, false);
    FT_EQ_STR(json_string_value(json_object_get(r.json, "idempotency-key-lifetime")), "PT2S");
    resp_free(&r);
    create_ns("idem");
    create_table("idem", "t");
    int n0 = metadata_log_len();

    static const char k1[] = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
    idem_racer rs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        rs[i].key = k1;
        rs[i].status = 0;
        pthread_create(&th[i], NULL, idem_race, &rs[i]);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 4; i++) {
        FT_EQ_INT(rs[i].status, 200);
        FT_EQ_STR(rs[i].body, rs[0].body); /* the first response, replayed */
    }
    FT_EQ_INT(metadata_log_len(), n0 + 1); /* applied once */

    /* the same key on another request: refused, nothing runs */
    r = http_with("POST", "/namespaces/idem/tables/t",
                  "{\"requirements\":[],\"updates\":[]}",
                  "Idempotency-Key: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    FT_EQ_INT(r.status, 200); /* same method and path: the stored outcome */
    resp_free(&r);
    r = http_with("DELETE", "/namespaces/idem/tables/t", NULL,
                  "Idempotency-Key: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    EXPECT_ERROR(r, 422, "UnprocessableEntityException");
    resp_free(&r);
    r = http_with("POST", "/namespaces/idem/tables/t", idem_commit, "Idempotency-Key: nope");
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);

    /* a deterministic 4xx is final too: replayed, even once it would succeed */
    static const char k2[] = "017f22e2-79b0-7cc3-98c4-dc0c0c073990";
    r = http_with("POST", "/namespaces", "{\"namespace\":[\"idem\"]}",
                  "Idempotency-Key: 017f22e2-79b0-7cc3-98c4-dc0c0c073990");
    EXPECT_ERROR(r, 409, "AlreadyExistsException");
    resp_free(&r);
    r = http("DELETE", "/namespaces/idem/tables/t", NULL);
    FT_EQ_INT(r.status, 204);
    resp_free(&r);
    r = http("DELETE", "/namespaces/idem", NULL);
    FT_EQ_INT(r.status, 204);
    resp_free(&r);
    char h2[100];
    snprintf(h2, sizeof h2, "Idempotency-Key: %s", k2);
    r = http_with("POST", "/namespaces", "{\"namespace\":[\"idem\"]}", h2);
    EXPECT_ERROR(r, 409, "AlreadyExistsException");
    resp_free(&r);
    r = http("HEAD", "/namespaces/idem", NULL);
    FT_EQ_INT(r.status, 404); /* the replay created nothing */
    resp_free(&r);

    /* expired keys run again */
    struct timespec ts = {2, 300 * 1000000};
    nanosleep(&ts, NULL);
    r = http_with("POST", "/namespaces", "{\"namespace\":[\"idem\"]}", h2);
    FT_EQ_INT(r.status, 200);
    resp_free(&r);
}

static void test_auth(void)
{
    start();
    char url[256];
    snprintf(url, sizeof url, "%s/namespaces", base);
    resp r = http_ex("GET", url, NULL, NULL, false);
    EXPECT_ERROR(r, 401, "NotAuthorizedException");
    resp_free(&r);
    r = http_ex("GET", url, NULL, "wrong-token", false);
    EXPECT_ERROR(r, 401, "NotAuthorizedException");
    resp_free(&r);
    r = http_ex("GET", url, NULL, TOKEN "x", false);
    EXPECT_ERROR(r, 401, "NotAuthorizedException");
    resp_free(&r);
    r = http_ex("POST", url, "{\"namespace\":[\"sneaky\"]}", "", false);
    EXPECT_ERROR(r, 401, "NotAuthorizedException");
    resp_free(&r);
    /* nothing was created by the refused request */
    r = http("HEAD", "/namespaces/sneaky", NULL);
    FT_EQ_INT(r.status, 404);
    resp_free(&r);
    snprintf(url, sizeof url, "%s/v1/config", root);
    r = http_ex("GET", url, NULL, NULL, false);
    EXPECT_ERROR(r, 401, "NotAuthorizedException");
    resp_free(&r);
}

static void test_limits_and_json(void)
{
    start();
    /* 64 KiB limit: a 100 KiB body -> 413 */
    size_t n = 100 * 1024;
    char *big = malloc(n + 64);
    FT_ASSERT(big);
    strcpy(big, "{\"namespace\":[\"big\"],\"properties\":{\"k\":\"");
    size_t o = strlen(big);
    memset(big + o, 'x', n);
    strcpy(big + o + n, "\"}}");
    resp r = http("POST", "/namespaces", big);
    EXPECT_ERROR(r, 413, "RequestEntityTooLargeException");
    resp_free(&r);
    /* the same body chunked (no Content-Length): cut off when it crosses */
    {
        char url[256];
        snprintf(url, sizeof url, "%s/namespaces", base);
        CURL *c = curl_easy_init();
        struct curl_slist *h = curl_slist_append(NULL, "Authorization: Bearer " TOKEN);
        h = curl_slist_append(h, "Transfer-Encoding: chunked");
        h = curl_slist_append(h, "Expect:");
        curl_easy_setopt(c, CURLOPT_URL, url);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, big);
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
        curl_easy_setopt(c, CURLOPT_WRITEDATA, &r);
        curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(c, CURLOPT_HEADERDATA, &r);
        curl_easy_setopt(c, CURLOPT_TIMEOUT, 20L);
        if (curl_easy_perform(c) == CURLE_OK)
            curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
        curl_slist_free_all(h);
        curl_easy_cleanup(c);
        r.json = r.body ? json_loads(r.body, 0, NULL) : NULL;
        EXPECT_ERROR(r, 413, "RequestEntityTooLargeException");
        resp_free(&r);
    }
    free(big);
    r = http("HEAD", "/namespaces/big", NULL);
    FT_EQ_INT(r.status, 404);
    resp_free(&r);

    static const char *const malformed[] = {
        "{bad", "", "[]", "{\"namespace\":[\"a\"]}}", "{\"namespace\":[\"a\"],\"namespace\":[\"b\"]}",
        "{\"namespace\":[\"a\"],\"properties\":{\"x\":1}}", "\"str\"", "{\"namespace\":[\"\\ud800\"]}",
    };
    for (size_t i = 0; i < FT_N(malformed); i++) {
        r = http("POST", "/namespaces", malformed[i]);
        if (!is_error(&r, 400, "BadRequestException"))
            ft_fail(__FILE__, __LINE__, "malformed body %zu", i);
        resp_free(&r);
    }
    r = http("POST", "/namespaces/x/tables/y/metrics", "{}");
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);
    r = http("GET", "/no/such/route", NULL);
    EXPECT_ERROR(r, 404, "NotFoundException");
    resp_free(&r);
    r = http("PUT", "/namespaces", "{}");
    EXPECT_ERROR(r, 405, "UnsupportedOperationException");
    resp_free(&r);
    r = http("GET", "/namespaces/x/views", NULL); /* views are served (rest/views.c) */
    EXPECT_ERROR(r, 404, "NoSuchNamespaceException");
    resp_free(&r);
    r = http("GET", "/namespaces/x/views/v", NULL);
    EXPECT_ERROR(r, 404, "NoSuchViewException");
    resp_free(&r);
    r = http("PUT", "/namespaces/x/views/v", "{}");
    EXPECT_ERROR(r, 405, "UnsupportedOperationException");
    resp_free(&r);
}

static void test_identifiers(void)
{
    start();
    create_ns("idc");
    static const char *const paths[] = {
        "/namespaces/%2e%2e",
        "/namespaces/%2E%2e/tables",
        "/namespaces/idc/tables/%2e%2e",
        "/namespaces/idc/tables/..",
        "/namespaces/..",
        "/namespaces/..%2F..%2Fetc",
        "/namespaces/idc/tables/..%2fpasswd",
        "/namespaces/idc/tables/a%5Cb",
        "/namespaces/idc/tables/%252e%252e",
        "/namespaces/idc%1F..",
        "/namespaces/idc%1F%2E%2E/tables",
        "/namespaces/idc/tables/a%00b",
        "/namespaces/idc/tables/a%0Ab",
        "/namespaces/idc/tables/%C0%AE%C0%AE",
        "/namespaces/idc%1F%1Fx",
        "/namespaces/idc/tables/%",
        "/namespaces/idc/tables/%zz",
    };
    for (size_t i = 0; i < FT_N(paths); i++) {
        char url[512];
        snprintf(url, sizeof url, "%s%s", base, paths[i]);
        resp r = http_ex("GET", url, NULL, TOKEN, true);
        if (!is_error(&r, 400, "BadRequestException"))
            ft_fail(__FILE__, __LINE__, "path %s", paths[i]);
        resp_free(&r);
    }
    /* literal ../ segments (not normalised by the client) */
    char url[512];
    snprintf(url, sizeof url, "%s/namespaces/../tables/x", base);
    resp r = http_ex("GET", url, NULL, TOKEN, true);
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);
    static const char *const bodies[] = {
        "{\"namespace\":[\"..\"]}",
        "{\"namespace\":[\"a/../b\"]}",
        "{\"namespace\":[\"ok\",\"..\"]}",
        "{\"namespace\":[\"%2e%2e\"]}",
        "{\"namespace\":[\"a\\u0000\"]}",
    };
    for (size_t i = 0; i < FT_N(bodies); i++) {
        r = http("POST", "/namespaces", bodies[i]);
        if (!is_error(&r, 400, "BadRequestException"))
            ft_fail(__FILE__, __LINE__, "body %s", bodies[i]);
        resp_free(&r);
    }
    char body[512];
    snprintf(body, sizeof body, "{\"name\":\"../../x\",\"schema\":%s}", schema);
    r = http("POST", "/namespaces/idc/tables", body);
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);
    r = http("POST", "/tables/rename",
             "{\"source\":{\"namespace\":[\"idc\"],\"name\":\"a\"},"
             "\"destination\":{\"namespace\":[\"..\"],\"name\":\"x\"}}");
    EXPECT_ERROR(r, 400, "BadRequestException");
    resp_free(&r);
}

/* A request in flight when the stop begins still gets its answer. */
typedef struct slow {
    _Atomic int sent; /* read by the main thread while the client sends */
    long status;
} slow;

static size_t slow_read(char *buf, size_t sz, size_t n, void *u)
{
    slow *s = u;
    static const char body[] = "{\"namespace\":[\"late\"]}";
    int k = s->sent;
    if (k >= (int)sizeof body - 1)
        return 0;
    struct timespec ts = {0, 30 * 1000000};
    nanosleep(&ts, NULL);
    (void)sz;
    (void)n;
    buf[0] = body[k];
    s->sent = k + 1;
    return 1;
}

static void *slow_client(void *p)
{
    slow *s = p;
    char url[256];
    snprintf(url, sizeof url, "%s/namespaces", base);
    CURL *c = curl_easy_init();
    struct curl_slist *h = curl_slist_append(NULL, "Authorization: Bearer " TOKEN);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_READFUNCTION, slow_read);
    curl_easy_setopt(c, CURLOPT_READDATA, s);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, 22L);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 20L);
    resp r = {0};
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &r);
    if (curl_easy_perform(c) == CURLE_OK)
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &s->status);
    free(r.body);
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    return NULL;
}

static void test_graceful_stop(void)
{
    start();
    slow s = {0, 0};
    pthread_t t;
    pthread_create(&t, NULL, slow_client, &s);
    struct timespec ts = {0, 150 * 1000000};
    nanosleep(&ts, NULL); /* the request is now mid-body */
    int sent = s.sent;
    FT_CHECK(sent > 0 && sent < 22);
    floe__rest_server_stop(srv);
    srv = NULL;
    pthread_join(t, NULL);
    FT_EQ_INT(s.status, 200);
    /* and the listener is gone */
    resp r = http_ex("GET", root, NULL, TOKEN, false);
    FT_EQ_INT(r.status, 0);
    resp_free(&r);
    floe__rest_backend_free(be);
    be = NULL;
}

static void test_options(void)
{
    floe_rest_backend *b = NULL;
    floe_rest_server *s = NULL;
    FT_OK(floe__rest_backend_memory_new(&b, NULL));
    floe_rest_server_options o = FLOE_REST_SERVER_OPTIONS_INIT;
    o.prefix = "namespaces";
    FT_EQ_INT(floe__rest_server_start(&s, b, &o), FLOE_EINVALID);
    o.prefix = "a/b";
    FT_EQ_INT(floe__rest_server_start(&s, b, &o), FLOE_EINVALID);
    o.prefix = NULL;
    o.host = "not a host name";
    FT_EQ_INT(floe__rest_server_start(&s, b, &o), FLOE_EINVALID);
    /* no prefix, no token: the unprefixed routes work */
    o.host = NULL;
    FT_OK(floe__rest_server_start(&s, b, &o));
    char url[256];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/v1/namespaces", floe__rest_server_port(s));
    resp r = http_ex("POST", url, "{\"namespace\":[\"open\"]}", NULL, false);
    FT_EQ_INT(r.status, 200);
    resp_free(&r);
    r = http_ex("GET", url, NULL, NULL, false);
    FT_EQ_INT(r.status, 200);
    FT_EQ_INT(json_array_size(json_object_get(r.json, "namespaces")), 1);
    resp_free(&r);
    floe__rest_server_stop(s);
    floe__rest_backend_free(b);
}

static const ft_case cases[] = {
    {"config", test_config},
    {"namespace_crud", test_namespace_crud},
    {"pagination", test_pagination},
    {"tables", test_tables},
    {"concurrent_commits", test_concurrent_commits},
    {"transactions", test_transactions},
    {"plan_routes", test_plan_routes},
    {"idempotency", test_idempotency},
    {"auth", test_auth},
    {"limits_and_json", test_limits_and_json},
    {"identifiers", test_identifiers},
    {"graceful_stop", test_graceful_stop},
    {"options", test_options},
};

int main(int argc, char **argv)
{
    int rc = ft_main(argc, argv, cases, FT_N(cases));
    floe__rest_server_stop(srv);
    floe__rest_backend_free(be);
    curl_global_cleanup();
    return rc;
}
