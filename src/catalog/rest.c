/* SPDX-License-Identifier: Apache-2.0 */
/*
 * catalog/rest: floe's catalog interface over any Iceberg REST catalog
 * (open-api/rest-catalog-open-api.yaml), with libcurl. GET /v1/config
 * (defaults < client options < overrides; `prefix`), namespaces (list with
 * pagination, create, load, update properties, drop, HEAD exists), tables
 * (list, create, load, commit with requirements + updates, rename, drop
 * with purgeRequested, register, HEAD exists), the ErrorModel mapped to
 * floe codes, OAuth2 client credentials and bearer tokens, namespaces in
 * paths as %1F-separated levels.
 *
 * The table layer sends its changes through the `commit` op (a
 * CommitTableRequest) instead of writing metadata: the server checks the
 * requirements and applies the updates. A 409 is FLOE_ECONFLICT, so the
 * table layer refreshes and re-runs the operation (appends retry); 5xx and
 * transport failures after the request was sent are FLOE_ECOMMITUNKNOWN.
 */
#include "catalog.h"

#include "rest/model.h"

#include "lazy/curl.h"
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Largest response accepted (a loadTable of a table with ~100k snapshots). */
#define REST_MAX_RESPONSE (256u << 20)
/* Retries of a mutation after a transport failure or a 5xx, with the same
 * Idempotency-Key, when the server supports keys (backoff 100 ms, 200 ms, ...). */
#define REST_RETRIES 3
/* Pages followed by one list call (a server looping on tokens stops here). */
#define REST_MAX_PAGES 100000

typedef struct rest_cat {
    char *base;  /* "http://host:port[/path]" without trailing '/' */
    char *v1;    /* base + "/v1/" + encoded prefix + "/" (or base + "/v1/") */
    char *auth;  /* "Authorization: Bearer ..." or NULL */
    char *deleg; /* "X-Iceberg-Access-Delegation: ..." or NULL */
    long timeout_ms;
    bool refs;
    bool idempotent; /* the server advertised idempotency-key-lifetime */
    bool transactions;   /* the server advertised POST .../transactions/commit */
    bool plan_on_server; /* scan-planning-mode=server and the server plans */
    bool plan_fetch, plan_cancel, plan_tasks; /* further planning endpoints */
    pthread_mutex_t lock; /* one connection (keep-alive), one request at a time */
    CURL *curl;
    /* loadTable freshness: "ns.name" -> the ETag and metadata location of
     * the last 200, sent back as If-None-Match (a 304 keeps the location) */
    pthread_mutex_t cache_lock;
    floe_strmap *etags; /* -> etag_entry */
} rest_cat;

typedef struct etag_entry {
    char *key; /* the map's key (maps borrow keys) */
    char *etag;
    char *location;
} etag_entry;

/* Per-request extra headers (NULL members are not sent). */
typedef struct req_extra {
    const char *if_none_match;
    const char *idempotency_key;
} req_extra;

typedef struct resp {
    long status;
    floe_buf body;
    bool too_big;
    char etag[96]; /* the response's ETag header, "" if none */
} resp;

static rest_cat *rc_of(floe_catalog *c)
{
    return c->impl;
}

static size_t on_data(char *ptr, size_t size, size_t n, void *ud)
{
    resp *r = ud;
    size_t len = size * n;
    if (r->body.len + len > REST_MAX_RESPONSE) {
        r->too_big = true;
        return 0;
    }
    return floe__buf_put(&r->body, ptr, len) == 0 ? len : 0;
}

static size_t on_header(char *ptr, size_t size, size_t n, void *ud)
{
    resp *r = ud;
    size_t len = size * n;
    if (len > 5 && strncasecmp(ptr, "etag:", 5) == 0) {
        const char *v = ptr + 5;
        size_t k = len - 5;
        while (k && (*v == ' ' || *v == '\t')) {
            v++;
            k--;
        }
        while (k && (v[k - 1] == '\r' || v[k - 1] == '\n' || v[k - 1] == ' '))
            k--;
        if (k < sizeof r->etag) {
            memcpy(r->etag, v, k);
            r->etag[k] = '\0';
        }
    }
    return len;
}

/* "Name: value" in buf, or NULL when there is no value. */
static const char *header_line(char *buf, size_t n, const char *name, const char *value)
{
    if (!value)
        return NULL;
    snprintf(buf, n, "%s: %s", name, value);
    return buf;
}

/* One request. *sent tells whether the request may have reached the server
 * (a failure after that leaves a commit's outcome unknown). */
static int http(rest_cat *r, const char *method, const char *url, const char *body, size_t len,
                const char *ctype, const req_extra *x, resp *out, bool *sent)
{
    memset(out, 0, sizeof *out);
    out->body = (floe_buf)FLOE_BUF_INIT;
    *sent = false;
    pthread_mutex_lock(&r->lock);
    CURL *h = r->curl;
    curl_easy_reset(h);
    struct curl_slist *hdr = NULL, *t;
    char ctbuf[96];
    const char *ct = ctbuf;
    snprintf(ctbuf, sizeof ctbuf, "Content-Type: %s", ctype ? ctype : "application/json");
    int rc = 0;
#define ADD(line)                                                                                  \
    do {                                                                                           \
        if (rc == 0 && (line)) {                                                                   \
            if (!(t = curl_slist_append(hdr, (line))))                                             \
                rc = floe__error_nomem();                                                          \
            else                                                                                   \
                hdr = t;                                                                           \
        }                                                                                          \
    } while (0)
    ADD("Accept: application/json");
    ADD("X-Client-Version: floe");
    ADD(r->auth);
    ADD(r->deleg);
    if (body)
        ADD(ct);
    char inm[160], idem[80];
    ADD(header_line(inm, sizeof inm, "If-None-Match", x ? x->if_none_match : NULL));
    ADD(header_line(idem, sizeof idem, "Idempotency-Key", x ? x->idempotency_key : NULL));
#undef ADD
    if (rc == 0) {
        curl_easy_setopt(h, CURLOPT_URL, url);
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, out);
        curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(h, CURLOPT_HEADERDATA, out);
        curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, r->timeout_ms);
        curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
        /* libcurl re-sends a request on its own when a reused connection
         * turns out dead before any answer: harmless for a keyed mutation
         * (the server replays), a blind second commit otherwise (a 409 that
         * would make the table layer delete files of a commit that landed).
         * Unkeyed mutations therefore take a fresh connection. */
        if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0 &&
            !(x && x->idempotency_key))
            curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, 1L);
        if (strcmp(method, "HEAD") == 0)
            curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
        else if (strcmp(method, "GET") != 0)
            curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
        if (body) {
            curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
            curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
        }
        CURLcode cc = curl_easy_perform(h);
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out->status);
        if (cc != CURLE_OK) {
            *sent = cc != CURLE_COULDNT_CONNECT && cc != CURLE_COULDNT_RESOLVE_HOST &&
                    cc != CURLE_COULDNT_RESOLVE_PROXY && cc != CURLE_UNSUPPORTED_PROTOCOL &&
                    cc != CURLE_URL_MALFORMAT && !out->too_big;
            if (cc == CURLE_WRITE_ERROR && !out->too_big && out->body.len < REST_MAX_RESPONSE)
                rc = floe__error_nomem();
            else
                rc = floe__error(FLOE_EIO, "catalog", "REST %s %s: %s%s", method, url,
                                 curl_easy_strerror(cc),
                                 out->too_big ? " (response too large)" : "");
        } else {
            *sent = true;
        }
    }
    curl_slist_free_all(hdr);
    pthread_mutex_unlock(&r->lock);
    if (rc < 0)
        floe__buf_free(&out->body);
    return rc;
}

/* Map a non-2xx answer to a floe error with the server's message. */
static int http_error(const resp *rs, bool commit, const char *what)
{
    floe_rest_error e;
    char *msg = NULL;
    floe_error_kind kind = FLOE_KIND_NONE; /* the server's exception, where floe has it */
    if (rs->body.len && floe__rest_parse_error(&e, (const char *)rs->body.ptr, rs->body.len) == 0) {
        msg = floe__sprintf("%s: %s", e.type, e.message);
        kind = floe__error_kind_named(e.type);
        floe__rest_error_free(&e);
    }
    floe_error_clear();
    const char *m = msg ? msg : "no error details";
    long st = rs->status;
    int code;
    if (st == 409 && kind == FLOE_KIND_NAMESPACE_NOT_EMPTY)
        code = FLOE_EINVALID; /* as the catalogs raise it in-process */
    else if (st == 409)
        code = commit ? FLOE_ECONFLICT : FLOE_EEXISTS;
    else if (st == 404)
        code = FLOE_ENOTFOUND;
    else if (commit && (st >= 500 || st < 400))
        code = FLOE_ECOMMITUNKNOWN;
    else if (st == 400 || st == 422 || st == 401 || st == 403 || st == 413)
        code = FLOE_EINVALID;
    else if (st == 406 || st == 501 || st == 405)
        code = FLOE_EUNSUPPORTED;
    else
        code = FLOE_EIO;
    int rc = floe__error_as(code, kind, "catalog", "REST %s: HTTP %ld %s%s", what, st, m,
                            st == 401 || st == 403 ? " (not authorized)" : "");
    floe__free(msg);
    return rc;
}

/* ---------------------------------------------------------------- URLs, JSON */

/* Encoded namespace path segment of a dotted floe namespace: levels joined
 * by %1F (the spec's separator). */
static int put_ns(floe_buf *b, const char *ns)
{
    const char *p = ns;
    for (bool first = true;; first = false) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        char *lvl = floe__strndup(p, n);
        if (!lvl)
            return floe__error_nomem();
        int rc = first ? 0 : floe__buf_puts(b, "%1F");
        if (rc == 0)
            rc = floe__rest_encode_segment(b, lvl);
        floe__free(lvl);
        FLOE_TRY(rc);
        if (!dot)
            return 0;
        p = dot + 1;
    }
}

/* v1 + "namespaces/<ns>" [+ kind ("/tables/", "/views/") + "<name>"] [+
 * suffix]; *out is b->ptr. */
static int url_in(floe_buf *b, rest_cat *r, const char *ns, const char *kind, const char *name,
                  const char *suffix)
{
    int rc = floe__buf_puts(b, r->v1);
    if (rc == 0)
        rc = floe__buf_puts(b, "namespaces");
    if (rc == 0 && ns) {
        rc = floe__buf_putc(b, '/');
        if (rc == 0)
            rc = put_ns(b, ns);
    }
    if (rc == 0 && name) {
        rc = floe__buf_puts(b, kind);
        if (rc == 0)
            rc = floe__rest_encode_segment(b, name);
    }
    if (rc == 0 && suffix)
        rc = floe__buf_puts(b, suffix);
    if (rc == 0)
        rc = floe__buf_putc(b, '\0');
    return rc;
}

static int url_of(floe_buf *b, rest_cat *r, const char *ns, const char *name, const char *suffix)
{
    return url_in(b, r, ns, "/tables/", name, suffix);
}

static json_t *ns_json(const char *ns)
{
    json_t *a = json_array();
    const char *p = ns;
    while (a && *p) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        if (json_array_append_new(a, json_stringn(p, n)) < 0) {
            json_decref(a);
            return NULL;
        }
        p = dot ? dot + 1 : p + n;
    }
    return a;
}

static json_t *props_json(const floe_props *p)
{
    json_t *o = json_object();
    for (size_t i = 0; o && p && i < p->n; i++)
        if (json_object_set_new(o, p->items[i].key, json_string(p->items[i].value)) < 0) {
            json_decref(o);
            return NULL;
        }
    return o;
}

/* Serialise and release `j` into a floe__malloc'd string. */
static char *dump(json_t *j, size_t *len)
{
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    char *d = s ? floe__strdup(s) : NULL;
    free(s);
    if (!d)
        floe__error_nomem();
    else if (len)
        *len = strlen(d);
    return d;
}

static int load_json(const resp *rs, json_t **out, const char *what)
{
    json_error_t e;
    *out = json_loadb((const char *)rs->body.ptr, rs->body.len, 0, &e);
    if (!json_is_object(*out)) {
        json_decref(*out);
        *out = NULL;
        return floe__error(FLOE_ECORRUPT, "catalog", "REST %s: response is not a JSON object",
                           what);
    }
    return 0;
}

/* Run a request and keep the response when 2xx; otherwise map the error. */
/* A UUIDv7 (RFC 9562: 48-bit Unix milliseconds, then random bits), the
 * form the spec asks of an Idempotency-Key. */
static int uuid7(char out[37])
{
    char v4[37];
    uint8_t b[16];
    FLOE_TRY(floe__uuid4(v4));
    FLOE_TRY(floe__uuid_parse(v4, b));
    uint64_t ms = (uint64_t)floe__now_ms();
    for (int i = 0; i < 6; i++)
        b[i] = (uint8_t)(ms >> (8 * (5 - i)));
    b[6] = (uint8_t)((b[6] & 0x0f) | 0x70);
    floe__uuid_format(b, out);
    return 0;
}

/* Run a request and keep the response when 2xx (or a 304 to an
 * If-None-Match); otherwise map the error. A mutation to a server that
 * supports Idempotency-Key carries a fresh key and is re-sent with the same
 * key after a transport failure or a 5xx: the server applies it once. */
static int call(rest_cat *r, const char *method, const char *url, const char *body, size_t len,
                bool commit, const char *what, const req_extra *x, resp *rs)
{
    req_extra xx = {x ? x->if_none_match : NULL, x ? x->idempotency_key : NULL};
    char key[37];
    bool keyed = r->idempotent && (strcmp(method, "POST") == 0 || strcmp(method, "DELETE") == 0);
    if (keyed && !xx.idempotency_key) {
        FLOE_TRY(uuid7(key));
        xx.idempotency_key = key;
    }
    bool sent = false, uncertain = false;
    int rc = 0;
    for (int attempt = 0;; attempt++) {
        rc = http(r, method, url, body, len, NULL, &xx, rs, &sent);
        bool failed = (rc < 0 && rc != FLOE_ENOMEM && sent) ||
                      (rc == 0 && (rs->status == 500 || rs->status == 502 ||
                                   rs->status == 503 || rs->status == 504));
        bool again = keyed && attempt < REST_RETRIES && (failed || (rc < 0 && rc != FLOE_ENOMEM));
        if (!again)
            break;
        /* a 5xx is not kept by the server: the retry may run the request
         * again on a state the first attempt already changed */
        uncertain |= failed;
        if (rc == 0)
            floe__buf_free(&rs->body);
        floe_error_clear();
        struct timespec ts = {0, (long)(100L << attempt) * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (rc < 0) {
        if (commit && sent)
            return floe__error(FLOE_ECOMMITUNKNOWN, "catalog",
                               "REST %s: the request failed after it was sent (%s); the commit "
                               "may or may not have happened",
                               what, rc == FLOE_ENOMEM ? "out of memory" : "transport error");
        return rc;
    }
    if ((rs->status < 200 || rs->status > 299) &&
        !(rs->status == 304 && x && x->if_none_match)) {
        rc = http_error(rs, commit, what);
        floe__buf_free(&rs->body);
        if (commit && uncertain && rc == FLOE_ECONFLICT)
            rc = floe__error(FLOE_ECOMMITUNKNOWN, "catalog",
                             "REST %s: refused after an earlier attempt failed with an unknown "
                             "outcome; the commit may have happened",
                             what);
    }
    return rc;
}

/* One request to {v1}namespaces[/ns][/tables/name][suffix] with `body` (may
 * be NULL). The response goes to *out (the caller frees out->body), or is
 * dropped when out is NULL. */
static int request_ex(rest_cat *r, const char *method, const char *ns, const char *name,
                      const char *suffix, const char *body, size_t len, bool commit,
                      const char *what, const req_extra *x, resp *out)
{
    floe_buf url = FLOE_BUF_INIT;
    int rc = url_of(&url, r, ns, name, suffix);
    resp rs = {0};
    if (rc == 0)
        rc = call(r, method, (char *)url.ptr, body, len, commit, what, x, &rs);
    floe__buf_free(&url);
    if (rc == 0 && out)
        *out = rs;
    else if (rc == 0)
        floe__buf_free(&rs.body);
    return rc;
}

static int request(rest_cat *r, const char *method, const char *ns, const char *name,
                   const char *suffix, const char *body, size_t len, bool commit,
                   const char *what, resp *out)
{
    return request_ex(r, method, ns, name, suffix, body, len, commit, what, NULL, out);
}

/* A POST whose body is the JSON `j` (consumed; NULL: out of memory). */
static int post_json(rest_cat *r, const char *ns, const char *name, const char *suffix, json_t *j,
                     const char *what, resp *out)
{
    size_t len;
    char *body = dump(j, &len);
    int rc = body ? request(r, "POST", ns, name, suffix, body, len, false, what, out)
                  : FLOE_ENOMEM;
    floe__free(body);
    return rc;
}

/* ---------------------------------------------------------------- namespaces */

static int rest_create_namespace(floe_catalog *c, const char *ns, const floe_props *props)
{
    rest_cat *r = rc_of(c);
    json_t *j = json_object();
    if (j && (json_object_set_new(j, "namespace", ns_json(ns)) < 0 ||
              json_object_set_new(j, "properties", props_json(props)) < 0)) {
        json_decref(j);
        j = NULL;
    }
    int rc = post_json(r, NULL, NULL, NULL, j, "create namespace", NULL);
    if (rc == FLOE_EEXISTS)
        rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                            "Namespace already exists: %s", ns);
    return rc;
}

static int rest_namespace_exists(floe_catalog *c, const char *ns)
{
    rest_cat *r = rc_of(c);
    int rc = request(r, "HEAD", ns, NULL, NULL, NULL, 0, false, "namespace exists", NULL);
    if (rc == 0)
        return 1;
    if (rc == FLOE_ENOTFOUND) {
        floe_error_clear();
        return 0;
    }
    return rc;
}

static int rest_load_namespace(floe_catalog *c, const char *ns, floe_props *out)
{
    rest_cat *r = rc_of(c);
    resp rs = {0};
    int rc = request(r, "GET", ns, NULL, NULL, NULL, 0, false, "load namespace", &rs);
    if (rc == FLOE_ENOTFOUND)
        return floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE, "catalog",
                              "Namespace does not exist: %s", ns);
    FLOE_TRY(rc);
    json_t *j;
    rc = load_json(&rs, &j, "load namespace");
    floe__buf_free(&rs.body);
    FLOE_TRY(rc);
    json_t *p = json_object_get(j, "properties");
    const char *k;
    json_t *v;
    json_object_foreach(p, k, v)
    {
        if (rc == 0 && json_is_string(v))
            rc = floe__props_set(out, k, json_string_value(v));
    }
    json_decref(j);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Follow pagination of a list route; `key` is "namespaces" or
 * "identifiers"; each item becomes a string in `out`. */
static int list_paged(rest_cat *r, const char *url0, const char *key, bool idents, floe_vec *out)
{
    char *token = NULL;
    int rc = 0;
    for (int page = 0; rc == 0; page++) {
        if (page >= REST_MAX_PAGES) {
            rc = floe__error(FLOE_EIO, "catalog", "REST list: more than %d pages", REST_MAX_PAGES);
            break;
        }
        floe_buf url = FLOE_BUF_INIT;
        rc = floe__buf_puts(&url, url0);
        if (rc == 0 && token) {
            rc = floe__buf_puts(&url, strchr(url0, '?') ? "&pageToken=" : "?pageToken=");
            if (rc == 0)
                rc = floe__rest_encode_segment(&url, token);
        }
        if (rc == 0)
            rc = floe__buf_putc(&url, '\0');
        resp rs = {0};
        if (rc == 0)
            rc = call(r, "GET", (char *)url.ptr, NULL, 0, false, "list", NULL, &rs);
        floe__buf_free(&url);
        if (rc < 0)
            break;
        json_t *j;
        rc = load_json(&rs, &j, "list");
        floe__buf_free(&rs.body);
        if (rc < 0)
            break;
        json_t *items = json_object_get(j, key);
        size_t i;
        json_t *it;
        json_array_foreach(items, i, it)
        {
            json_t *nsa = idents ? json_object_get(it, "name") : it;
            floe_buf s = FLOE_BUF_INIT;
            if (idents) {
                if (!json_is_string(nsa))
                    continue;
                rc = floe__buf_puts(&s, json_string_value(nsa));
            } else {
                size_t k;
                json_t *lvl;
                json_array_foreach(nsa, k, lvl)
                {
                    if (rc == 0 && k)
                        rc = floe__buf_putc(&s, '.');
                    if (rc == 0 && json_is_string(lvl))
                        rc = floe__buf_puts(&s, json_string_value(lvl));
                }
            }
            if (rc == 0)
                rc = floe__buf_putc(&s, '\0');
            char **slot = rc == 0 ? floe__vec_push(out) : NULL;
            if (rc == 0 && !slot)
                rc = floe__error_nomem();
            if (rc != 0 || !slot) { /* floe__buf_put*: 0 or FLOE_ENOMEM */
                floe__buf_free(&s);
                break;
            }
            *slot = (char *)s.ptr;
        }
        json_t *next = json_object_get(j, "next-page-token");
        char *nt = NULL;
        if (rc == 0 && json_is_string(next) && json_string_length(next) > 0) {
            if (token && strcmp(token, json_string_value(next)) == 0)
                rc =
                    floe__error(FLOE_EIO, "catalog", "REST list: the server repeated a page token");
            else if (!(nt = floe__strdup(json_string_value(next))))
                rc = floe__error_nomem();
        }
        json_decref(j);
        floe__free(token);
        token = nt;
        if (!token)
            break;
    }
    floe__free(token);
    if (rc == 0 && out->len > 1)
        qsort(out->items, out->len, sizeof(char *), cmp_str);
    return rc;
}

static int rest_list_namespaces(floe_catalog *c, const char *parent, floe_vec *out)
{
    rest_cat *r = rc_of(c);
    floe_buf url = FLOE_BUF_INIT;
    int rc = url_of(&url, r, NULL, NULL, NULL);
    if (rc == 0 && parent && *parent) {
        url.len--; /* drop the NUL */
        rc = floe__buf_puts(&url, "?parent=");
        if (rc == 0)
            rc = put_ns(&url, parent);
        if (rc == 0)
            rc = floe__buf_putc(&url, '\0');
    }
    if (rc == 0)
        rc = list_paged(r, (char *)url.ptr, "namespaces", false, out);
    floe__buf_free(&url);
    return rc;
}

static int rest_update_namespace(floe_catalog *c, const char *ns, const floe_props *updates,
                                 const char *const *removals, size_t nremovals)
{
    rest_cat *r = rc_of(c);
    json_t *j = json_object(), *rem = json_array();
    for (size_t i = 0; rem && i < nremovals; i++)
        if (json_array_append_new(rem, json_string(removals[i])) < 0) {
            json_decref(rem);
            rem = NULL;
        }
    if (j && (json_object_set_new(j, "removals", rem) < 0 ||
              json_object_set_new(j, "updates", props_json(updates)) < 0)) {
        json_decref(j);
        j = NULL;
    }
    int rc = post_json(r, ns, NULL, "/properties", j, "update namespace", NULL);
    if (rc == FLOE_ENOTFOUND)
        rc = floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE, "catalog",
                            "Namespace does not exist: %s", ns);
    return rc;
}

static int rest_drop_namespace(floe_catalog *c, const char *ns)
{
    rest_cat *r = rc_of(c);
    int rc = request(r, "DELETE", ns, NULL, NULL, NULL, 0, false, "drop namespace", NULL);
    if (rc == FLOE_ENOTFOUND)
        rc = floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE, "catalog",
                            "Namespace does not exist: %s", ns);
    else if (rc == FLOE_EEXISTS || floe__rest_raised(rc, FLOE_KIND_NAMESPACE_NOT_EMPTY))
        rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_NAMESPACE_NOT_EMPTY, "catalog",
                            "Namespace %s is not empty.", ns); /* 409 NamespaceNotEmpty */
    return rc;
}

/* ---------------------------------------------------------------- tables */

/* metadata-location of a LoadTableResult. */
static int result_location(const resp *rs, char **location, const char *what)
{
    json_t *j;
    FLOE_TRY(load_json(rs, &j, what));
    const char *l = json_string_value(json_object_get(j, "metadata-location"));
    int rc = 0;
    if (!l || !*l)
        rc = floe__error(FLOE_ECORRUPT, "catalog", "REST %s: response has no metadata-location",
                         what);
    else if (!(*location = floe__strdup(l)))
        rc = floe__error_nomem();
    json_decref(j);
    return rc;
}

static int no_table(const char *ns, const char *name)
{
    return floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_TABLE, "catalog",
                          "Table does not exist: %s.%s", ns, name);
}

static void entry_free(etag_entry *e)
{
    if (e) {
        floe__free(e->key);
        floe__free(e->etag);
        floe__free(e->location);
        floe__free(e);
    }
}

/* Called with cache_lock held. */
static void forget(rest_cat *r, const char *key)
{
    etag_entry *e = floe__strmap_get(r->etags, key);
    if (e) {
        floe__strmap_del(r->etags, key);
        entry_free(e);
    }
}

static int remember(rest_cat *r, const char *key, const char *etag, const char *location)
{
    etag_entry *e = floe__calloc(1, sizeof *e);
    if (!e || !(e->key = floe__strdup(key)) || !(e->etag = floe__strdup(etag)) ||
        !(e->location = floe__strdup(location))) {
        entry_free(e);
        return floe__error_nomem();
    }
    pthread_mutex_lock(&r->cache_lock);
    forget(r, key);
    int rc = floe__strmap_put(r->etags, e->key, e);
    pthread_mutex_unlock(&r->cache_lock);
    if (rc < 0)
        entry_free(e);
    return rc < 0 ? floe__error_nomem() : 0;
}

static int rest_load_table(floe_catalog *c, const char *ns, const char *name, char **location,
                           char **previous)
{
    rest_cat *r = rc_of(c);
    if (previous)
        *previous = NULL;
    /* a freshness check or cached refresh sends the last ETag: a 304 means
     * the pointer did not move and no metadata crosses the wire */
    char *key = floe__sprintf("%s\x1f%s", ns, name);
    if (!key)
        return floe__error_nomem();
    char *tag = NULL, *cached = NULL;
    pthread_mutex_lock(&r->cache_lock);
    etag_entry *e = floe__strmap_get(r->etags, key);
    int rc = e && (!(tag = floe__strdup(e->etag)) || !(cached = floe__strdup(e->location)))
                 ? floe__error_nomem()
                 : 0;
    pthread_mutex_unlock(&r->cache_lock);
    req_extra x = {tag, NULL};
    resp rs = {0};
    if (rc == 0)
        rc = request_ex(r, "GET", ns, name, r->refs ? "?snapshots=refs" : "?snapshots=all", NULL,
                        0, false, "load table", &x, &rs);
    if (rc == 0 && rs.status == 304) {
        floe__buf_free(&rs.body);
        *location = cached;
        cached = NULL;
    } else if (rc == 0) {
        rc = result_location(&rs, location, "load table");
        floe__buf_free(&rs.body);
        if (rc == 0 && rs.etag[0])
            rc = remember(r, key, rs.etag, *location);
    }
    pthread_mutex_lock(&r->cache_lock);
    if (rc == FLOE_ENOTFOUND)
        forget(r, key);
    pthread_mutex_unlock(&r->cache_lock);
    floe__free(key);
    floe__free(tag);
    floe__free(cached);
    if (rc == FLOE_ENOTFOUND)
        return no_table(ns, name);
    return rc;
}

static int rest_list_tables(floe_catalog *c, const char *ns, floe_vec *out)
{
    rest_cat *r = rc_of(c);
    floe_buf url = FLOE_BUF_INIT;
    int rc = url_of(&url, r, ns, NULL, "/tables");
    if (rc == 0)
        rc = list_paged(r, (char *)url.ptr, "identifiers", true, out);
    floe__buf_free(&url);
    if (rc == FLOE_ENOTFOUND)
        rc = floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE, "catalog",
                            "Namespace does not exist: %s", ns);
    return rc;
}

/* POST {v1}<path> with `body`, the answer dropped. */
static int post_v1(rest_cat *r, const char *path, const char *body, size_t len, bool commit,
                   const char *what)
{
    char *url = floe__sprintf("%s%s", r->v1, path);
    if (!url)
        return floe__error_nomem();
    resp rs = {0};
    int rc = call(r, "POST", url, body, len, commit, what, NULL, &rs);
    if (rc == 0)
        floe__buf_free(&rs.body);
    floe__free(url);
    return rc;
}

static json_t *ident_json(const char *ns, const char *name)
{
    return json_pack("{s:o,s:s}", "namespace", ns_json(ns), "name", name);
}

/* POST <v1><route> ("tables/rename", "views/rename") of a RenameTableRequest. */
static int rename_call(rest_cat *r, const char *route, const char *fns, const char *fname,
                       const char *tns, const char *tname, const char *what)
{
    size_t len;
    char *body = dump(json_pack("{s:o,s:o}", "source", ident_json(fns, fname), "destination",
                                ident_json(tns, tname)),
                      &len);
    int rc = body ? post_v1(r, route, body, len, false, what) : floe__error_nomem();
    floe__free(body);
    return rc;
}

static int rest_rename_table(floe_catalog *c, const char *fns, const char *fname, const char *tns,
                             const char *tname)
{
    return rename_call(rc_of(c), "tables/rename", fns, fname, tns, tname, "rename table");
}

static int drop(floe_catalog *c, const char *ns, const char *name, bool purge)
{
    rest_cat *r = rc_of(c);
    int rc = request(r, "DELETE", ns, name,
                     purge ? "?purgeRequested=true" : "?purgeRequested=false", NULL, 0, false,
                     "drop table", NULL);
    return rc == FLOE_ENOTFOUND ? no_table(ns, name) : rc;
}

static int rest_drop_table(floe_catalog *c, const char *ns, const char *name)
{
    return drop(c, ns, name, false);
}

static int rest_purge_table(floe_catalog *c, const char *ns, const char *name)
{
    return drop(c, ns, name, true);
}

static int rest_register_table(floe_catalog *c, const char *ns, const char *name,
                               const char *metadata_location)
{
    rest_cat *r = rc_of(c);
    int rc = post_json(r, ns, NULL, "/register",
                       json_pack("{s:s,s:s}", "name", name, "metadata-location", metadata_location),
                       "register table", NULL);
    if (rc == FLOE_EEXISTS)
        rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                            "Table already exists: %s.%s", ns, name);
    return rc;
}

static int rest_commit_table(floe_catalog *c, const char *ns, const char *name,
                             const char *expected, const char *new_location)
{
    (void)c;
    (void)expected;
    (void)new_location;
    return floe__error(FLOE_EUNSUPPORTED, "catalog",
                       "a REST catalog commits requirements + updates, not pointer swaps "
                       "(%s.%s)",
                       ns, name);
}

/* After an unknown outcome (a server without Idempotency-Key, or retries
 * that ended in doubt): reload the table; when every snapshot the change added is there, the
 * commit happened (*new_location set, 0). Otherwise the outcome stays
 * unknown (1): files are never deleted on an unknown outcome. */
static int reconcile(rest_cat *r, const char *ns, const char *name, const char *body, size_t len,
                     char **new_location)
{
    json_t *b = json_loadb(body, len, 0, NULL), *u;
    size_t i, want = 0, found = 0;
    resp rs = {0};
    int rc = request(r, "GET", ns, name, "?snapshots=all", NULL, 0, false, "load table", &rs);
    json_t *res = rc == 0 ? json_loadb((const char *)rs.body.ptr, rs.body.len, 0, NULL) : NULL;
    if (rc == 0)
        floe__buf_free(&rs.body);
    json_t *snaps = json_object_get(json_object_get(res, "metadata"), "snapshots");
    json_array_foreach(json_object_get(b, "updates"), i, u)
    {
        const char *a = json_string_value(json_object_get(u, "action"));
        if (!a || strcmp(a, "add-snapshot") != 0)
            continue;
        want++;
        json_int_t id = json_integer_value(json_object_get(json_object_get(u, "snapshot"),
                                                           "snapshot-id"));
        size_t k;
        json_t *sn;
        json_array_foreach(snaps, k, sn)
        {
            if (json_integer_value(json_object_get(sn, "snapshot-id")) == id) {
                found++;
                break;
            }
        }
    }
    const char *loc = json_string_value(json_object_get(res, "metadata-location"));
    int out = 1;
    if (want > 0 && found == want && loc) {
        *new_location = floe__strdup(loc);
        out = *new_location ? 0 : 1;
    }
    json_decref(b);
    json_decref(res);
    return out;
}

static int rest_commit(floe_catalog *c, const char *ns, const char *name, const char *body,
                       size_t len, char **new_location)
{
    rest_cat *r = rc_of(c);
    resp rs = {0};
    int rc = request(r, "POST", ns, name, NULL, body, len, true, "commit", &rs);
    if (rc == FLOE_ENOTFOUND)
        return no_table(ns, name);
    if (rc == FLOE_ECOMMITUNKNOWN) {
        const floe_error *e = floe_error_last();
        char *msg = floe__strdup(e && e->message ? e->message : "outcome unknown");
        int k = reconcile(r, ns, name, body, len, new_location);
        if (k == 0) {
            floe__free(msg);
            floe_error_clear();
            return 0;
        }
        rc = floe__error(FLOE_ECOMMITUNKNOWN, "catalog", "%s",
                         msg ? msg : "REST commit: outcome unknown");
        floe__free(msg);
    }
    FLOE_TRY(rc);
    rc = result_location(&rs, new_location, "commit");
    floe__buf_free(&rs.body);
    if (rc < 0 && rc != FLOE_ENOMEM) /* 200 but unreadable: it happened */
        rc = floe__error(FLOE_ECOMMITUNKNOWN, "catalog", "REST commit: unreadable response");
    return rc;
}

/* POST /v1/{prefix}/transactions/commit of n CommitTableRequest bodies. */
static int rest_commit_transaction(floe_catalog *c, size_t n, const char *const *ns,
                                   const char *const *names, const char *const *changes)
{
    rest_cat *r = rc_of(c);
    if (!r->transactions)
        return floe__error(FLOE_EUNSUPPORTED, "catalog",
                           "the REST server does not advertise multi-table transactions "
                           "(POST /v1/{prefix}/transactions/commit)");
    json_t *arr = json_array();
    int rc = arr ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < n; i++) {
        json_error_t e;
        json_t *ch = json_loads(changes[i], JSON_REJECT_DUPLICATES, &e);
        if (!json_is_object(ch))
            rc = floe__error(FLOE_EINVALID, "catalog",
                             "change of %s.%s: a CommitTableRequest must be a JSON object",
                             ns[i], names[i]);
        else if (json_object_set_new(ch, "identifier", ident_json(ns[i], names[i])) < 0 ||
                 json_array_append(arr, ch) < 0)
            rc = floe__error_nomem();
        json_decref(ch);
    }
    size_t len = 0;
    char *body = rc == 0 ? dump(json_pack("{s:O}", "table-changes", arr), &len) : NULL;
    json_decref(arr);
    if (rc == 0 && !body)
        rc = floe__error_nomem();
    if (rc == 0)
        rc = post_v1(r, "transactions/commit", body, len, true, "commit transaction");
    floe__free(body);
    return rc;
}

/* Server-side scan planning: POST .../plan, then GET .../plan/{id} while
 * it is "submitted" (backoff 10 ms doubling to 1 s, up to the timeout),
 * then POST .../tasks for every plan task (plan tasks of those answers
 * too), finally DELETE .../plan/{id} (best effort). */
static int keep_body(floe_vec *bodies, resp *rs)
{
    char **slot = floe__vec_push(bodies);
    if (!slot) {
        floe__buf_free(&rs->body);
        return floe__error_nomem();
    }
    if (floe__buf_putc(&rs->body, '\0') < 0) {
        floe__buf_free(&rs->body);
        return FLOE_ENOMEM;
    }
    *slot = floe__buf_detach(&rs->body);
    return 0;
}

static int add_plan_tasks(json_t *j, floe_vec *pending)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(j, "plan-tasks"), i, t)
    {
        if (!json_is_string(t))
            return floe__error(FLOE_EINVALID, "catalog", "plan-tasks must hold strings");
        char **slot = floe__vec_push(pending);
        if (!slot || !(*slot = floe__strdup(json_string_value(t))))
            return floe__error_nomem();
    }
    return 0;
}

/* One planning answer taken in (a call's rc, its JSON and response): its plan
 * tasks queued, its body kept for the scan; the JSON released either way. */
static int take_answer(int rc, json_t *j, floe_vec *pending, floe_vec *bodies, resp *rs)
{
    if (rc == 0)
        rc = add_plan_tasks(j, pending);
    json_decref(j);
    if (rc == 0)
        rc = keep_body(bodies, rs);
    else if (rs->body.ptr)
        floe__buf_free(&rs->body);
    return rc;
}

static int plan_status(rest_cat *r, json_t *j, const char *plan_id, const char **status)
{
    (void)r;
    *status = json_string_value(json_object_get(j, "status"));
    if (!*status)
        return floe__error(FLOE_EINVALID, "catalog", "scan planning response without status");
    if (strcmp(*status, "failed") == 0 || strcmp(*status, "cancelled") == 0) {
        json_t *e = json_object_get(j, "error");
        return floe__error(FLOE_EUNSUPPORTED, "catalog",
                           "Remote scan planning %s for planId: %s: %s", *status,
                           plan_id ? plan_id : "(none)",
                           json_string_value(json_object_get(e, "message"))
                               ? json_string_value(json_object_get(e, "message"))
                               : "unknown");
    }
    if (strcmp(*status, "completed") != 0 && strcmp(*status, "submitted") != 0)
        return floe__error(FLOE_EINVALID, "catalog", "Invalid planStatus: %s", *status);
    return 0;
}

/* One planning request; *j = its JSON answer (rs->body kept), else rs
 * holds nothing to free. */
static int plan_call(rest_cat *r, const char *method, const char *ns, const char *name,
                     const char *suffix, const char *body, size_t len, const char *what, resp *rs,
                     json_t **j)
{
    memset(rs, 0, sizeof *rs);
    *j = NULL;
    FLOE_TRY(request(r, method, ns, name, suffix, body, len, false, what, rs));
    if (!(*j = json_loadb((const char *)rs->body.ptr, rs->body.len, 0, NULL))) {
        floe__buf_free(&rs->body);
        return floe__error(FLOE_EINVALID, "catalog", "%s: malformed response", what);
    }
    return 0;
}

static int rest_plan_scan(floe_catalog *c, const char *ns, const char *name, const char *req,
                          size_t len, floe_vec *bodies)
{
    rest_cat *r = rc_of(c);
    if (!r->plan_on_server)
        return 1;
    *bodies = (floe_vec)FLOE_VEC_INIT(char *);
    floe_vec pending = FLOE_VEC_INIT(char *);
    char *plan_id = NULL, *esc = NULL;
    resp rs = {0};
    json_t *j = NULL;
    const char *status = NULL;
    int rc = plan_call(r, "POST", ns, name, "/plan", req, len, "plan table scan", &rs, &j);
    if (rc == 0 && json_string_value(json_object_get(j, "plan-id")) &&
        !(plan_id = floe__strdup(json_string_value(json_object_get(j, "plan-id")))))
        rc = floe__error_nomem();
    if (rc == 0)
        rc = plan_status(r, j, plan_id, &status);
    if (rc == 0 && plan_id) {
        floe_buf e = FLOE_BUF_INIT;
        if ((rc = floe__buf_puts(&e, "/plan/")) == 0 &&
            (rc = floe__rest_encode_segment(&e, plan_id)) == 0 &&
            (rc = floe__buf_putc(&e, '\0')) == 0)
            esc = floe__buf_detach(&e);
        floe__buf_free(&e);
    }
    int64_t deadline = floe__mono_ns() + (int64_t)r->timeout_ms * 1000000;
    long wait_ms = 10;
    while (rc == 0 && strcmp(status, "submitted") == 0) {
        floe__buf_free(&rs.body);
        json_decref(j);
        j = NULL;
        if (!esc || !r->plan_fetch) {
            rc = floe__error(FLOE_EUNSUPPORTED, "catalog",
                             "scan planning was submitted but the plan cannot be fetched");
            break;
        }
        if (floe__mono_ns() > deadline) {
            rc = floe__error(FLOE_EIO, "catalog",
                             "Remote scan planning for planId: %s did not complete in time",
                             plan_id);
            break;
        }
        struct timespec ts = {wait_ms / 1000, (wait_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        wait_ms = wait_ms * 2 > 1000 ? 1000 : wait_ms * 2;
        rc = plan_call(r, "GET", ns, name, esc, NULL, 0, "fetch planning result", &rs, &j);
        if (rc == 0)
            rc = plan_status(r, j, plan_id, &status);
    }
    rc = take_answer(rc, j, &pending, bodies, &rs);
    j = NULL;
    for (size_t i = 0; rc == 0 && i < pending.len; i++) {
        if (!r->plan_tasks) {
            rc = floe__error(FLOE_EUNSUPPORTED, "catalog",
                             "the plan has plan tasks but the server does not advertise "
                             "POST .../tasks");
            break;
        }
        const char *task = *(char **)floe__vec_at(&pending, i);
        size_t blen;
        memset(&rs, 0, sizeof rs);
        char *body = dump(json_pack("{s:s}", "plan-task", task), &blen);
        rc = body ? plan_call(r, "POST", ns, name, "/tasks", body, blen, "fetch scan tasks", &rs,
                              &j)
                  : floe__error_nomem();
        floe__free(body);
        rc = take_answer(rc, j, &pending, bodies, &rs);
        j = NULL;
    }
    if (esc && r->plan_cancel) { /* the server may forget it now */
        const floe_error *e = floe_error_last();
        char *msg = rc < 0 && e && e->message ? floe__strdup(e->message) : NULL;
        const char *sub = rc < 0 && e && e->subsystem ? e->subsystem : "catalog";
        if (request(r, "DELETE", ns, name, esc, NULL, 0, false, "cancel planning", NULL) < 0 ||
            rc < 0)
            floe_error_clear();
        if (rc < 0)
            floe__error(rc, sub, "%s", msg ? msg : "scan planning failed");
        floe__free(msg);
    }
    if (rc == FLOE_ENOTFOUND)
        rc = no_table(ns, name);
    floe__catalog_strvec_free(&pending);
    floe__free(plan_id);
    floe__free(esc);
    if (rc < 0)
        floe__catalog_strvec_free(bodies);
    return rc;
}

/* floe accepts a sort order as a bare array or without order-id; the REST
 * SortOrder needs both. */
static json_t *sort_order(json_t *o)
{
    if (json_is_array(o)) {
        json_t *w = json_pack("{s:i,s:o}", "order-id", json_array_size(o) ? 1 : 0, "fields", o);
        return w;
    }
    if (json_is_object(o) && !json_object_get(o, "order-id")) {
        json_t *f = json_object_get(o, "fields");
        json_object_set_new(o, "order-id", json_integer(json_array_size(f) ? 1 : 0));
    }
    return o;
}

static int rest_create_table(floe_catalog *c, const char *ns, const char *name,
                             const char *schema_json, const char *spec_json, const char *order_json,
                             const char *location, const floe_props *props, char **new_location)
{
    rest_cat *r = rc_of(c);
    json_error_t e;
    json_t *schema = schema_json ? json_loads(schema_json, 0, &e) : NULL;
    json_t *spec = spec_json ? json_loads(spec_json, 0, &e) : NULL;
    json_t *order = order_json ? sort_order(json_loads(order_json, 0, &e)) : NULL;
    if (json_is_array(spec))
        spec = json_pack("{s:o}", "fields", spec);
    int rc = 0;
    if (!json_is_object(schema) || (spec_json && !json_is_object(spec)) ||
        (order_json && !json_is_object(order)))
        rc = floe__error(FLOE_EINVALID, "catalog",
                         "create table: malformed schema, partition "
                         "spec or sort order JSON");
    json_t *j = rc == 0 ? json_pack("{s:s,s:O}", "name", name, "schema", schema) : NULL;
    if (rc == 0 && !j)
        rc = floe__error_nomem();
    if (rc == 0 && spec)
        json_object_set(j, "partition-spec", spec);
    if (rc == 0 && order)
        json_object_set(j, "write-order", order);
    if (rc == 0 && location)
        json_object_set_new(j, "location", json_string(location));
    if (rc == 0 && props && props->n)
        json_object_set_new(j, "properties", props_json(props));
    json_decref(schema);
    json_decref(spec);
    json_decref(order);
    resp rs = {0};
    if (rc == 0)
        rc = post_json(r, ns, NULL, "/tables", j, "create table", &rs);
    else
        json_decref(j);
    if (rc == FLOE_EEXISTS)
        return floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                              "Table already exists: %s.%s", ns, name);
    if (rc == FLOE_ENOTFOUND)
        return floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE, "catalog",
                              "Namespace does not exist: %s", ns);
    FLOE_TRY(rc);
    rc = result_location(&rs, new_location, "create table");
    floe__buf_free(&rs.body);
    return rc;
}

static void rest_free(floe_catalog *c)
{
    rest_cat *r = c->impl;
    if (r) {
        if (r->curl)
            curl_easy_cleanup(r->curl);
        pthread_mutex_destroy(&r->lock);
        size_t it = 0;
        const char *k;
        void *v;
        while (r->etags && floe__strmap_next(r->etags, &it, &k, &v))
            entry_free(v);
        floe__strmap_free(r->etags);
        pthread_mutex_destroy(&r->cache_lock);
        floe__free(r->base);
        floe__free(r->v1);
        if (r->auth) /* the token is a secret: do not leave it in freed memory */
            memset(r->auth, 0, strlen(r->auth));
        floe__free(r->auth);
        floe__free(r->deleg);
        floe__free(r);
    }
    floe__free(c->name);
    floe__free(c->warehouse);
    floe__free(c);
}

/* ---------------------------------------------------------------- views */

/* One view request; `location` (when not NULL) gets the LoadViewResult's
 * metadata-location. */
static int view_call(rest_cat *r, const char *method, const char *ns, const char *name,
                     const char *suffix, const char *body, size_t len, bool commit,
                     const char *what, char **location)
{
    floe_buf url = FLOE_BUF_INIT;
    int rc = url_in(&url, r, ns, "/views/", name, suffix);
    resp rs = {0};
    if (rc == 0)
        rc = call(r, method, (char *)url.ptr, body, len, commit, what, NULL, &rs);
    floe__buf_free(&url);
    if (rc == 0) {
        if (location)
            rc = result_location(&rs, location, what);
        floe__buf_free(&rs.body);
    }
    return rc;
}

static int rest_list_views(floe_catalog *c, const char *ns, floe_vec *out)
{
    rest_cat *r = rc_of(c);
    floe_buf url = FLOE_BUF_INIT;
    int rc = url_in(&url, r, ns, NULL, NULL, "/views");
    if (rc == 0)
        rc = list_paged(r, (char *)url.ptr, "identifiers", true, out);
    floe__buf_free(&url);
    if (rc == FLOE_ENOTFOUND)
        rc = floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE, "catalog",
                            "Namespace does not exist: %s", ns);
    return rc;
}

static int rest_load_view(floe_catalog *c, const char *ns, const char *name, char **location)
{
    int rc = view_call(rc_of(c), "GET", ns, name, NULL, NULL, 0, false, "load view", location);
    return rc == FLOE_ENOTFOUND ? floe__catalog_no_view(ns, name) : rc;
}

static int rest_register_view(floe_catalog *c, const char *ns, const char *name,
                              const char *location)
{
    size_t len;
    char *body =
        dump(json_pack("{s:s,s:s}", "name", name, "metadata-location", location), &len);
    int rc = body ? view_call(rc_of(c), "POST", ns, NULL, "/register-view", body, len, false,
                              "register view", NULL)
                  : floe__error_nomem();
    floe__free(body);
    return rc;
}

static int rest_create_view(floe_catalog *c, const char *ns, const char *name, const char *body,
                            size_t len, char **location)
{
    (void)name;
    return view_call(rc_of(c), "POST", ns, NULL, "/views", body, len, false, "create view",
                     location);
}

static int rest_replace_view(floe_catalog *c, const char *ns, const char *name, const char *body,
                             size_t len, char **location)
{
    int rc = view_call(rc_of(c), "POST", ns, name, NULL, body, len, true, "replace view", location);
    return rc == FLOE_ENOTFOUND ? floe__catalog_no_view(ns, name) : rc;
}

static int rest_rename_view(floe_catalog *c, const char *fns, const char *fname, const char *tns,
                            const char *tname)
{
    return rename_call(rc_of(c), "views/rename", fns, fname, tns, tname, "rename view");
}

static int rest_drop_view(floe_catalog *c, const char *ns, const char *name)
{
    int rc = view_call(rc_of(c), "DELETE", ns, name, NULL, NULL, 0, false, "drop view", NULL);
    return rc == FLOE_ENOTFOUND ? floe__catalog_no_view(ns, name) : rc;
}

static const floe_catalog_view_ops rest_view_ops = {
    rest_list_views,   rest_load_view,    rest_register_view, NULL, rest_create_view,
    rest_replace_view, rest_rename_view, rest_drop_view};

static const floe_catalog_ops rest_ops = {FLOE_CATALOG_OPS_VERSION,
                                          rest_create_namespace,
                                          rest_namespace_exists,
                                          rest_load_namespace,
                                          rest_list_namespaces,
                                          rest_update_namespace,
                                          rest_drop_namespace,
                                          rest_register_table,
                                          rest_load_table,
                                          rest_list_tables,
                                          rest_rename_table,
                                          rest_drop_table,
                                          rest_commit_table,
                                          rest_free,
                                          rest_commit,
                                          rest_create_table,
                                          rest_purge_table,
                                          NULL,
                                          rest_commit_transaction,
                                          rest_plan_scan};

/* ---------------------------------------------------------------- open */

/* OAuth2 client credentials (RFC 6749 4.4) -> access token. */
static int oauth_token(rest_cat *r, const floe_rest_catalog_options *o, char **token)
{
    char *url = o->oauth2_server_uri ? floe__strdup(o->oauth2_server_uri)
                                     : floe__sprintf("%s/v1/oauth/tokens", r->base);
    if (!url)
        return floe__error_nomem();
    const char *cred = o->credential, *colon = strchr(cred, ':');
    char *id = colon ? floe__strndup(cred, (size_t)(colon - cred)) : NULL;
    const char *secret = colon ? colon + 1 : cred;
    floe_buf form = FLOE_BUF_INIT;
    int rc = colon && !id ? floe__error_nomem() : 0;
    char *e_id = NULL, *e_secret = NULL, *e_scope = NULL;
    pthread_mutex_lock(&r->lock);
    if (rc == 0) {
        e_id = id ? curl_easy_escape(r->curl, id, 0) : NULL;
        e_secret = curl_easy_escape(r->curl, secret, 0);
        e_scope = curl_easy_escape(r->curl, o->scope ? o->scope : "catalog", 0);
        if ((id && !e_id) || !e_secret || !e_scope)
            rc = floe__error_nomem();
    }
    pthread_mutex_unlock(&r->lock);
    if (rc == 0)
        rc = floe__buf_printf(&form, "grant_type=client_credentials%s%s&client_secret=%s&scope=%s",
                              e_id ? "&client_id=" : "", e_id ? e_id : "", e_secret, e_scope);
    curl_free(e_id);
    curl_free(e_secret);
    curl_free(e_scope);
    resp rs = {0};
    bool sent;
    if (rc == 0)
        rc = http(r, "POST", url, (const char *)form.ptr, form.len,
                  "application/x-www-form-urlencoded", NULL, &rs, &sent);
    if (form.ptr)
        memset(form.ptr, 0, form.len);
    floe__buf_free(&form);
    floe__free(id);
    if (rc == 0 && (rs.status < 200 || rs.status > 299)) {
        rc = floe__error(FLOE_EINVALID, "catalog", "OAuth2 token request to %s: HTTP %ld", url,
                         rs.status);
    } else if (rc == 0) {
        json_t *j;
        rc = load_json(&rs, &j, "OAuth2 token");
        const char *tok = rc == 0 ? json_string_value(json_object_get(j, "access_token")) : NULL;
        if (rc == 0 && !tok)
            rc = floe__error(FLOE_EINVALID, "catalog",
                             "OAuth2 token response without "
                             "access_token");
        if (rc == 0 && !(*token = floe__strdup(tok)))
            rc = floe__error_nomem();
        json_decref(j);
    }
    floe__buf_free(&rs.body);
    floe__free(url);
    return rc;
}

static int fetch_config(rest_cat *r, floe_catalog *c, const floe_rest_catalog_options *o)
{
    floe_buf url = FLOE_BUF_INIT;
    int rc = floe__buf_printf(&url, "%s/v1/config", r->base);
    if (rc == 0 && o->warehouse) {
        rc = floe__buf_puts(&url, "?warehouse=");
        if (rc == 0)
            rc = floe__rest_encode_segment(&url, o->warehouse);
    }
    if (rc == 0)
        rc = floe__buf_putc(&url, '\0');
    resp rs = {0};
    if (rc == 0)
        rc = call(r, "GET", (char *)url.ptr, NULL, 0, false, "config", NULL, &rs);
    floe__buf_free(&url);
    FLOE_TRY(rc);
    floe_rest_config cfg;
    memset(&cfg, 0, sizeof cfg);
    rc = floe__rest_parse_config(&cfg, (const char *)rs.body.ptr, rs.body.len);
    floe__buf_free(&rs.body);
    FLOE_TRY(rc);
    r->idempotent = cfg.idempotency_key_lifetime != NULL;
    for (size_t i = 0; i < cfg.endpoints.n; i++) {
        const char *ep = cfg.endpoints.items[i];
        if (strcmp(ep, "POST /v1/{prefix}/transactions/commit") == 0)
            r->transactions = true;
        else if (strcmp(ep, "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan") == 0)
            r->plan_on_server = true;
        else if (strcmp(ep, "GET /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/"
                            "{plan-id}") == 0)
            r->plan_fetch = true;
        else if (strcmp(ep, "DELETE /v1/{prefix}/namespaces/{namespace}/tables/{table}/plan/"
                            "{plan-id}") == 0)
            r->plan_cancel = true;
        else if (strcmp(ep, "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/tasks") == 0)
            r->plan_tasks = true;
    }
    /* Java's scan-planning-mode (RESTCatalogProperties.SCAN_PLANNING_MODE):
     * defaults < client options < overrides; "server" plans on the server
     * when it advertises POST .../plan */
    const char *mode = floe__props_get(&cfg.overrides, "scan-planning-mode");
    if (!mode && o->version >= 2)
        mode = o->scan_planning_mode;
    if (!mode)
        mode = floe__props_get(&cfg.defaults, "scan-planning-mode");
    if (mode && strcasecmp(mode, "server") != 0 && strcasecmp(mode, "client") != 0) {
        floe__rest_config_free(&cfg);
        return floe__error(FLOE_EINVALID, "catalog",
                           "Invalid scan planning mode: %s. Valid values are: client, server",
                           mode);
    }
    r->plan_on_server = r->plan_on_server && mode && strcasecmp(mode, "server") == 0;
    /* defaults < client options < overrides */
    const char *prefix = floe__props_get(&cfg.overrides, "prefix");
    if (!prefix)
        prefix = floe__props_get(&cfg.defaults, "prefix");
    const char *wh = floe__props_get(&cfg.overrides, "warehouse");
    if (!wh)
        wh = o->warehouse ? o->warehouse : floe__props_get(&cfg.defaults, "warehouse");
    floe_buf v1 = FLOE_BUF_INIT;
    rc = floe__buf_printf(&v1, "%s/v1/", r->base);
    if (rc == 0 && prefix && *prefix) {
        rc = floe__rest_encode_segment(&v1, prefix);
        if (rc == 0)
            rc = floe__buf_putc(&v1, '/');
    }
    if (rc == 0)
        rc = floe__buf_putc(&v1, '\0');
    if (rc == 0) {
        r->v1 = (char *)v1.ptr;
        v1.ptr = NULL;
    }
    floe__buf_free(&v1);
    if (rc == 0 && wh && !(c->warehouse = floe__strdup(wh)))
        rc = floe__error_nomem();
    floe__rest_config_free(&cfg);
    return rc;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static void curl_init(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

int floe_catalog_open_rest(floe_catalog **out, const char *uri,
                           const floe_rest_catalog_options *opts)
{
    if (!out)
        return floe__error(FLOE_EINVALID, "catalog", "floe_catalog_open_rest: NULL out");
    *out = NULL;
    floe_rest_catalog_options def = FLOE_REST_CATALOG_OPTIONS_INIT;
    const floe_rest_catalog_options *o = opts ? opts : &def;
    if (o->version < 1 || o->version > FLOE_REST_CATALOG_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "catalog", "unknown REST catalog options version");
    if (!uri || (strncmp(uri, "http://", 7) != 0 && strncmp(uri, "https://", 8) != 0))
        return floe__error(FLOE_EINVALID, "catalog",
                           "REST catalog uri must start with http:// or https://");
    pthread_once(&curl_once, curl_init);
    floe_catalog *c = floe__calloc(1, sizeof *c);
    rest_cat *r = c ? floe__calloc(1, sizeof *r) : NULL;
    if (!r) {
        floe__free(c);
        return floe__error_nomem();
    }
    c->ops = &rest_ops;
    c->views = &rest_view_ops;
    c->impl = r;
    pthread_mutex_init(&r->lock, NULL);
    pthread_mutex_init(&r->cache_lock, NULL);
    if (!(r->etags = floe__strmap_new())) {
        rest_free(c);
        return floe__error_nomem();
    }
    r->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 60000;
    r->refs = o->snapshots_refs;
    size_t n = strlen(uri);
    while (n > 0 && uri[n - 1] == '/')
        n--;
    int rc = 0;
    if (!(c->name = floe__strdup(o->name ? o->name : "rest")) || !(r->base = floe__strndup(uri, n)))
        rc = floe__error_nomem();
    if (rc == 0 && !(r->curl = curl_easy_init()))
        rc = floe__error_nomem();
    if (rc == 0 && o->access_delegation &&
        !(r->deleg = floe__sprintf("X-Iceberg-Access-Delegation: %s", o->access_delegation)))
        rc = floe__error_nomem();
    char *token = NULL;
    if (rc == 0 && o->token && !(token = floe__strdup(o->token)))
        rc = floe__error_nomem();
    if (rc == 0 && !token && o->credential)
        rc = oauth_token(r, o, &token);
    if (rc == 0 && token && !(r->auth = floe__sprintf("Authorization: Bearer %s", token)))
        rc = floe__error_nomem();
    if (token) {
        memset(token, 0, strlen(token));
        floe__free(token);
    }
    if (rc == 0)
        rc = fetch_config(r, c, o);
    if (rc < 0) {
        rest_free(c);
        return rc;
    }
    *out = c;
    return 0;
}
