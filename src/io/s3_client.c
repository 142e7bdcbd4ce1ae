/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The S3 HTTP client (see s3_client.h): configuration from Iceberg
 * S3FileIO-style properties and AWS_* environment variables, a pool of
 * libcurl easy handles sharing DNS and connection caches (so TCP/TLS
 * connections are reused across requests and threads), AWS SigV4 header
 * signing of each attempt, retries with capped exponential backoff and
 * jitter on connection errors, timeouts, truncated bodies, 5xx and 429.
 *
 * Secrets: the secret key goes only to the signer; the Authorization header
 * is built per attempt and freed; no message ever contains a header.
 */
#include "s3_client.h"

#include "lazy/curl.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define HANDLE_POOL_MAX 64

struct s3_client {
    s3_config cfg;
    CURLSH *share;
    pthread_mutex_t share_locks[CURL_LOCK_DATA_LAST];
    pthread_mutex_t lock; /* handle stack */
    CURL *handles[HANDLE_POOL_MAX];
    int nhandles;
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;
static void curl_init(void)
{
    curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* ---------------------------------------------------------------- configuration */

static const char *conf_or_env(const floe_props *conf, const char *key, const char *key2,
                               const char *env)
{
    const char *v = conf ? floe__props_get(conf, key) : NULL;
    if (!v && key2 && conf)
        v = floe__props_get(conf, key2);
    if (!v && env) {
        v = getenv(env);
        if (v && !*v)
            v = NULL;
    }
    return v;
}

static int dup_opt(const char *v, char **out)
{
    *out = NULL;
    if (v && !(*out = floe__strdup(v)))
        return FLOE_ENOMEM;
    return 0;
}

static int get_int(const floe_props *conf, const char *key, int64_t def, int64_t lo, int64_t hi,
                   int64_t *out)
{
    floe_props empty = FLOE_PROPS_INIT;
    FLOE_TRY(floe__props_get_int64(conf ? conf : &empty, key, def, out));
    if (*out < lo || *out > hi)
        return floe__error(FLOE_EINVALID, "s3", "property %s=%lld is out of range [%lld, %lld]",
                           key, (long long)*out, (long long)lo, (long long)hi);
    return 0;
}

static int get_bool(const floe_props *conf, const char *key, bool def, bool *out)
{
    floe_props empty = FLOE_PROPS_INIT;
    return floe__props_get_bool(conf ? conf : &empty, key, def, out);
}

static void config_free(s3_config *c)
{
    floe__free(c->endpoint);
    floe__free(c->region);
    if (c->secret_key) /* do not leave the secret in freed memory */
        memset(c->secret_key, 0, strlen(c->secret_key));
    floe__free(c->access_key);
    floe__free(c->secret_key);
    floe__free(c->session_token);
    memset(c, 0, sizeof *c);
}

static int config_load(const floe_props *conf, s3_config *c)
{
    memset(c, 0, sizeof *c);
    const char *region = conf_or_env(conf, "s3.region", "client.region", "AWS_REGION");
    if (!region)
        region = getenv("AWS_DEFAULT_REGION");
    if (!region || !*region)
        region = "us-east-1";
    const char *endpoint = conf_or_env(conf, "s3.endpoint", NULL, "AWS_ENDPOINT_URL_S3");
    if (!endpoint)
        endpoint = conf_or_env(NULL, NULL, NULL, "AWS_ENDPOINT_URL");
    const char *ak = conf_or_env(conf, "s3.access-key-id", NULL, NULL);
    const char *sk = conf_or_env(conf, "s3.secret-access-key", NULL, NULL);
    const char *tok = conf_or_env(conf, "s3.session-token", NULL, NULL);
    if (!ak && !sk) { /* credentials come as a set: properties or environment, never mixed */
        ak = getenv("AWS_ACCESS_KEY_ID");
        sk = getenv("AWS_SECRET_ACCESS_KEY");
        tok = tok ? tok : getenv("AWS_SESSION_TOKEN");
    }
    if ((ak && *ak) != (sk && *sk))
        return floe__error(FLOE_EINVALID, "s3",
                           "S3 credentials are incomplete: set both s3.access-key-id and "
                           "s3.secret-access-key (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)");
    int rc = FLOE_ENOMEM;
    if (dup_opt(region, &c->region) < 0 || (ak && *ak && dup_opt(ak, &c->access_key) < 0) ||
        (sk && *sk && dup_opt(sk, &c->secret_key) < 0) ||
        (tok && *tok && dup_opt(tok, &c->session_token) < 0))
        goto fail;
    if (endpoint) {
        if (strncmp(endpoint, "http://", 7) != 0 && strncmp(endpoint, "https://", 8) != 0) {
            rc = floe__error(FLOE_EINVALID, "s3",
                             "s3.endpoint must start with http:// or https://: %s", endpoint);
            goto fail;
        }
        size_t n = strlen(endpoint);
        while (n > 0 && endpoint[n - 1] == '/')
            n--;
        if (!(c->endpoint = floe__strndup(endpoint, n)))
            goto fail;
    } else if (!(c->endpoint = floe__sprintf("https://s3.%s.amazonaws.com", c->region))) {
        goto fail;
    }
    if ((rc = get_bool(conf, "s3.path-style-access", false, &c->path_style)) < 0 ||
        (rc = get_bool(conf, "s3.write.if-none-match", false, &c->if_none_match)) < 0 ||
        (rc = get_bool(conf, "s3.payload-signing", true, &c->sign_payload)) < 0 ||
        (rc = get_int(conf, "s3.multipart.size", 32 << 20, 1024, (int64_t)5 << 30,
                      &c->multipart_size)) < 0 ||
        (rc = get_int(conf, "s3.delete.batch-size", 250, 1, FLOE_S3_MAX_DELETE_BATCH,
                      &c->delete_batch)) < 0 ||
        (rc = get_int(conf, "s3.retry.num-retries", 5, 0, 100, &c->retries)) < 0 ||
        (rc = get_int(conf, "s3.retry.min-wait-ms", 100, 0, 3600000, &c->retry_min_ms)) < 0 ||
        (rc = get_int(conf, "s3.retry.max-wait-ms", 5000, 0, 3600000, &c->retry_max_ms)) < 0 ||
        (rc = get_int(conf, "s3.connect-timeout-ms", 10000, 1, 3600000, &c->connect_timeout_ms)) <
            0 ||
        (rc = get_int(conf, "s3.request-timeout-ms", 300000, 1, 86400000, &c->request_timeout_ms)) <
            0 ||
        (rc = get_int(conf, "s3.read.parallelism", 16, 1, 256, &c->parallelism)) < 0)
        goto fail;
    return 0;
fail:
    if (rc == FLOE_ENOMEM)
        floe__error_nomem();
    config_free(c);
    return rc;
}

/* ---------------------------------------------------------------- client and handle pool */

static void share_lock(CURL *h, curl_lock_data data, curl_lock_access access, void *userptr)
{
    FLOE_UNUSED(h);
    FLOE_UNUSED(access);
    s3_client *c = userptr;
    pthread_mutex_lock(&c->share_locks[data]);
}

static void share_unlock(CURL *h, curl_lock_data data, void *userptr)
{
    FLOE_UNUSED(h);
    s3_client *c = userptr;
    pthread_mutex_unlock(&c->share_locks[data]);
}

int floe__s3_client_new(const floe_props *conf, s3_client **out)
{
    *out = NULL;
    pthread_once(&curl_once, curl_init);
    if (curl_init_rc != CURLE_OK)
        return floe__error(FLOE_EIO, "s3", "libcurl initialisation failed: %s",
                           curl_easy_strerror(curl_init_rc));
    s3_client *c = floe__calloc(1, sizeof *c);
    if (!c)
        return FLOE_ENOMEM;
    int rc = config_load(conf, &c->cfg);
    if (rc < 0) {
        floe__free(c);
        return rc;
    }
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++)
        pthread_mutex_init(&c->share_locks[i], NULL);
    pthread_mutex_init(&c->lock, NULL);
    c->share = curl_share_init();
    if (!c->share) {
        floe__s3_client_free(c);
        return floe__error(FLOE_EIO, "s3", "libcurl share handle could not be created");
    }
    curl_share_setopt(c->share, CURLSHOPT_LOCKFUNC, share_lock);
    curl_share_setopt(c->share, CURLSHOPT_UNLOCKFUNC, share_unlock);
    curl_share_setopt(c->share, CURLSHOPT_USERDATA, c);
    curl_share_setopt(c->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(c->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    curl_share_setopt(c->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
    *out = c;
    return 0;
}

void floe__s3_client_free(s3_client *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->nhandles; i++)
        curl_easy_cleanup(c->handles[i]);
    if (c->share)
        curl_share_cleanup(c->share);
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++)
        pthread_mutex_destroy(&c->share_locks[i]);
    pthread_mutex_destroy(&c->lock);
    config_free(&c->cfg);
    floe__free(c);
}

const s3_config *floe__s3_client_config(const s3_client *c)
{
    return &c->cfg;
}

static CURL *handle_get(s3_client *c)
{
    CURL *h = NULL;
    pthread_mutex_lock(&c->lock);
    if (c->nhandles > 0)
        h = c->handles[--c->nhandles];
    pthread_mutex_unlock(&c->lock);
    return h ? h : curl_easy_init();
}

static void handle_put(s3_client *c, CURL *h)
{
    curl_easy_reset(h); /* keeps the handle's live connections */
    pthread_mutex_lock(&c->lock);
    if (c->nhandles < HANDLE_POOL_MAX) {
        c->handles[c->nhandles++] = h;
        h = NULL;
    }
    pthread_mutex_unlock(&c->lock);
    if (h)
        curl_easy_cleanup(h);
}

/* ---------------------------------------------------------------- URLs */

int floe__s3_build_url(floe_arena *a, const char *endpoint, bool path_style, const char *bucket,
                       const char *key, char **url, char **host)
{
    const char *sep = strstr(endpoint, "://");
    if (!sep)
        return floe__error(FLOE_EINVALID, "s3", "bad endpoint %s", endpoint);
    size_t scheme_len = (size_t)(sep - endpoint);
    const char *hp = sep + 3;
    size_t hp_len = strcspn(hp, "/");
    const char *base_path = hp + hp_len; /* "" or "/prefix" */
    bool https = scheme_len == 5;
    /* The Host header as curl sends it: no default port. */
    size_t host_len = hp_len;
    if (!https && hp_len > 3 && strncmp(hp + hp_len - 3, ":80", 3) == 0)
        host_len -= 3;
    if (https && hp_len > 4 && strncmp(hp + hp_len - 4, ":443", 4) == 0)
        host_len -= 4;
    floe_buf b = FLOE_BUF_INIT;
    int rc = 0;
    if (path_style) {
        *host = floe__arena_strndup(a, hp, host_len);
        rc = floe__buf_printf(&b, "%.*s://%.*s%s/", (int)scheme_len, endpoint, (int)hp_len, hp,
                              base_path);
        if (rc == 0)
            rc = floe__uri_encode(&b, bucket, strlen(bucket), false);
        if (rc == 0 && key)
            rc = floe__buf_putc(&b, '/');
    } else {
        *host = floe__arena_sprintf(a, "%s.%.*s", bucket, (int)host_len, hp);
        rc = floe__buf_printf(&b, "%.*s://%s.%.*s%s/", (int)scheme_len, endpoint, bucket,
                              (int)hp_len, hp, base_path);
    }
    if (rc == 0 && key)
        rc = floe__uri_encode(&b, key, strlen(key), true);
    *url = rc == 0 ? floe__arena_strndup(a, b.ptr, b.len) : NULL;
    floe__buf_free(&b);
    if (!*url || !*host)
        return floe__error_nomem();
    return 0;
}

/* ---------------------------------------------------------------- one attempt */

static size_t on_header(char *data, size_t size, size_t n, void *payload)
{
    s3_request *r = payload;
    size_t len = size * n;
    char line[512];
    size_t l = len < sizeof line - 1 ? len : sizeof line - 1;
    memcpy(line, data, l);
    line[l] = '\0';
    while (l > 0 && (line[l - 1] == '\r' || line[l - 1] == '\n'))
        line[--l] = '\0';
    if (strncasecmp(line, "HTTP/", 5) == 0) { /* a new response (after 100-continue, redirects) */
        r->content_length = -1;
        r->etag[0] = '\0';
        r->last_modified_ms = 0;
        const char *sp = strchr(line, ' ');
        r->status = sp ? strtol(sp + 1, NULL, 10) : 0;
        return len;
    }
    char *colon = strchr(line, ':');
    if (!colon)
        return len;
    *colon = '\0';
    char *v = colon + 1;
    while (*v == ' ')
        v++;
    if (strcasecmp(line, "Content-Length") == 0) {
        r->content_length = strtoll(v, NULL, 10);
    } else if (strcasecmp(line, "ETag") == 0) {
        size_t vl = strlen(v);
        if (vl < sizeof r->etag)
            memcpy(r->etag, v, vl + 1);
    } else if (strcasecmp(line, "Last-Modified") == 0) {
        time_t t = curl_getdate(v, NULL);
        r->last_modified_ms = t > 0 ? (int64_t)t * 1000 : 0;
    }
    return len;
}

static size_t on_body(char *data, size_t size, size_t n, void *payload)
{
    s3_request *r = payload;
    size_t len = size * n;
    bool ok = r->status >= 200 && r->status < 300;
    if (ok && r->dst) {
        if (r->status == 200 && r->skipped < r->range_start) { /* server ignored Range */
            size_t drop = (size_t)(r->range_start - r->skipped);
            drop = drop < len ? drop : len;
            r->skipped += (int64_t)drop;
            data += drop;
            if (drop == len)
                return len;
            len -= drop;
            if (r->dst_got + len > r->dst_len)
                len = r->dst_len - r->dst_got; /* the rest of a whole-object answer */
            memcpy((char *)r->dst + r->dst_got, data, len);
            r->dst_got += len;
            return size * n;
        }
        if (r->dst_got + len > r->dst_len) {
            if (r->status == 200 && r->range_start == 0) { /* whole object: keep our prefix */
                size_t take = r->dst_len - r->dst_got;
                memcpy((char *)r->dst + r->dst_got, data, take);
                r->dst_got += take;
                return size * n;
            }
            r->overflow = true;
            return 0;
        }
        memcpy((char *)r->dst + r->dst_got, data, len);
        r->dst_got += len;
        return len;
    }
    size_t cap = ok ? r->resp_cap : 65536;
    if (r->resp.len + len > cap) {
        if (!ok)
            return len; /* an oversized error body: keep what we have */
        r->overflow = true;
        return 0;
    }
    if (floe__buf_put(&r->resp, data, len) < 0) {
        r->nomem = true;
        return 0;
    }
    return len;
}

typedef struct attempt_result {
    CURLcode curl;
    char curl_msg[CURL_ERROR_SIZE];
    bool truncated;
    bool nomem;
} attempt_result;

static int attempt(s3_client *c, s3_request *r, CURL *h, attempt_result *res)
{
    const s3_config *cfg = &c->cfg;
    floe_arena *a = floe__arena_new(1024);
    if (!a)
        return FLOE_ENOMEM;
    int rc = 0;
    struct curl_slist *hdrs = NULL;
    floe_sigv4_result sig = {0};
    char *url = NULL, *host = NULL;
    floe_buf full_url = FLOE_BUF_INIT;
    if ((rc = floe__s3_build_url(a, cfg->endpoint, cfg->path_style, r->bucket, r->key, &url,
                                 &host)) < 0)
        goto done;
    if ((rc = floe__buf_puts(&full_url, url)) < 0)
        goto done;
    for (size_t i = 0; i < r->nquery; i++) {
        if ((rc = floe__buf_putc(&full_url, i ? '&' : '?')) < 0 ||
            (rc = floe__uri_encode(&full_url, r->query[i].name, strlen(r->query[i].name), false)) <
                0)
            goto done;
        if (r->query[i].value && *r->query[i].value &&
            ((rc = floe__buf_putc(&full_url, '=')) < 0 ||
             (rc = floe__uri_encode(&full_url, r->query[i].value, strlen(r->query[i].value),
                                    false)) < 0))
            goto done;
    }

    char amz_date[17], payload_hash[65];
    floe__amz_date(floe__now_ms() / 1000, amz_date);
    if (r->body_len && cfg->sign_payload)
        floe__sha256_hex(r->body, r->body_len, payload_hash);
    else if (r->body_len)
        strcpy(payload_hash, FLOE_SIGV4_UNSIGNED);
    else
        strcpy(payload_hash, FLOE_SIGV4_EMPTY_SHA256);

    floe_sigv4_kv sh[12];
    size_t nsh = 0;
    sh[nsh++] = (floe_sigv4_kv){"host", host};
    sh[nsh++] = (floe_sigv4_kv){"x-amz-content-sha256", payload_hash};
    sh[nsh++] = (floe_sigv4_kv){"x-amz-date", amz_date};
    if (cfg->session_token)
        sh[nsh++] = (floe_sigv4_kv){"x-amz-security-token", cfg->session_token};
    for (size_t i = 0; i < r->nheaders && nsh < FLOE_ARRAY_LEN(sh); i++)
        sh[nsh++] = r->headers[i];

    for (size_t i = 0; i < nsh; i++) {
        char *line = floe__arena_sprintf(a, "%s: %s", sh[i].name, sh[i].value);
        struct curl_slist *n = line ? curl_slist_append(hdrs, line) : NULL;
        if (!n) {
            rc = FLOE_ENOMEM;
            goto done;
        }
        hdrs = n;
    }
    if (cfg->access_key) {
        floe_sigv4_request sreq = {.method = r->method,
                                   .path = NULL,
                                   .query = r->query,
                                   .nquery = r->nquery,
                                   .headers = sh,
                                   .nheaders = nsh,
                                   .payload_sha256 = payload_hash,
                                   .amz_date = amz_date,
                                   .region = cfg->region,
                                   .service = "s3",
                                   .access_key = cfg->access_key,
                                   .secret_key = cfg->secret_key};
        /* The canonical path is the decoded path of the URL. */
        char *path;
        if (cfg->path_style) {
            const char *ep = strstr(cfg->endpoint, "://") + 3;
            const char *base = strchr(ep, '/');
            path = floe__arena_sprintf(a, "%s/%s%s%s", base ? base : "", r->bucket,
                                       r->key ? "/" : "", r->key ? r->key : "");
        } else {
            const char *ep = strstr(cfg->endpoint, "://") + 3;
            const char *base = strchr(ep, '/');
            path = floe__arena_sprintf(a, "%s/%s", base ? base : "", r->key ? r->key : "");
        }
        if (!path) {
            rc = FLOE_ENOMEM;
            goto done;
        }
        sreq.path = path;
        if ((rc = floe__sigv4_sign(&sreq, &sig)) < 0)
            goto done;
        char *line = floe__arena_sprintf(a, "Authorization: %s", sig.authorization);
        struct curl_slist *n = line ? curl_slist_append(hdrs, line) : NULL;
        if (line)
            memset(sig.authorization, 0, strlen(sig.authorization));
        if (!n) {
            rc = FLOE_ENOMEM;
            goto done;
        }
        hdrs = n;
    }
    struct curl_slist *n2 = curl_slist_append(hdrs, "Expect:");
    if (n2)
        hdrs = n2;
    if (r->body_len && (n2 = curl_slist_append(hdrs, "Content-Type: application/octet-stream")))
        hdrs = n2;

    r->status = 0;
    r->dst_got = 0;
    r->skipped = 0;
    r->overflow = false;
    r->nomem = false;
    r->content_length = -1;
    floe__buf_clear(&r->resp);
    res->curl_msg[0] = '\0';

    curl_easy_setopt(h, CURLOPT_URL, full_url.ptr);
    curl_easy_setopt(h, CURLOPT_SHARE, c->share);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_PATH_AS_IS, 1L);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, res->curl_msg);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)cfg->connect_timeout_ms);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)cfg->request_timeout_ms);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, r);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    if (strcmp(r->method, "HEAD") == 0) {
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else if (strcmp(r->method, "GET") == 0) {
        curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    } else {
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, r->method);
        if (r->body_len || strcmp(r->method, "DELETE") != 0) {
            curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)r->body_len);
            curl_easy_setopt(h, CURLOPT_POSTFIELDS, r->body_len ? r->body : "");
        }
    }
    res->curl = curl_easy_perform(h);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    r->status = status;
    res->truncated = false;
    if (res->curl == CURLE_OK && r->dst && status >= 200 && status < 300 &&
        r->dst_got != r->dst_len)
        res->truncated = true;
    res->nomem = r->nomem;

done:
    if (rc == FLOE_ENOMEM)
        floe__error_nomem(); /* curl_slist_append does not set it */
    curl_slist_free_all(hdrs);
    floe__sigv4_result_free(&sig);
    floe__buf_free(&full_url);
    floe__arena_free(a);
    return rc;
}

static bool retryable_curl(CURLcode e)
{
    switch (e) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return true;
    default: return false;
    }
}

static void backoff(const s3_config *cfg, int attempt_no)
{
    int64_t wait = cfg->retry_min_ms;
    for (int i = 0; i < attempt_no && wait < cfg->retry_max_ms; i++)
        wait *= 2;
    if (wait > cfg->retry_max_ms)
        wait = cfg->retry_max_ms;
    uint32_t rnd = 0;
    if (floe__random_bytes(&rnd, sizeof rnd) < 0)
        rnd = 0;
    /* Full range [wait/2, wait]: spreads retries of parallel requests. */
    wait = wait / 2 + (int64_t)(rnd % (uint32_t)(wait / 2 + 1));
    struct timespec ts = {(time_t)(wait / 1000), (long)(wait % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* A server may echo request headers in its message (a session token in a
 * canonical request, say): never let a credential reach an error. */
static void redact(const s3_config *cfg, char *msg)
{
    const char *secrets[] = {cfg->secret_key, cfg->session_token, cfg->access_key};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(secrets); i++) {
        const char *sv = secrets[i];
        size_t sl = sv ? strlen(sv) : 0;
        if (sl < 4)
            continue;
        char *hit;
        while ((hit = strstr(msg, sv)) != NULL) {
            static const char mark[] = "[redacted]";
            size_t tail = strlen(hit + sl);
            if (sl >= sizeof mark - 1) {
                memcpy(hit, mark, sizeof mark - 1);
                memmove(hit + sizeof mark - 1, hit + sl, tail + 1);
            } else {
                memset(hit, '*', sl);
            }
        }
    }
}

int floe__s3_perform(s3_client *c, s3_request *r)
{
    const s3_config *cfg = &c->cfg;
    CURL *h = handle_get(c);
    if (!h)
        return floe__error(FLOE_EIO, "s3", "libcurl handle could not be created");
    if (!r->resp_cap)
        r->resp_cap = FLOE_S3_MAX_XML;
    int max_attempts = r->retry ? (int)cfg->retries + 1 : 1;
    attempt_result res = {0};
    int rc = 0, tries = 0;
    for (; tries < max_attempts; tries++) {
        if (tries > 0)
            backoff(cfg, tries - 1);
        memset(&res, 0, sizeof res);
        rc = attempt(c, r, h, &res);
        curl_easy_reset(h);
        if (rc < 0)
            break;
        if (res.nomem) {
            rc = floe__error_nomem();
            break;
        }
        bool transient = false;
        if (res.curl != CURLE_OK)
            transient = retryable_curl(res.curl);
        else if (res.truncated || r->status >= 500 || r->status == 429)
            transient = true;
        else if (r->status == 400 && r->resp.len && /* S3 closed an idle upload */
                 memmem(r->resp.ptr, r->resp.len, "<Code>RequestTimeout</Code>", 27))
            transient = true;
        if (!transient)
            break;
    }
    handle_put(c, h);
    if (rc < 0)
        return rc;
    int n = tries < max_attempts ? tries + 1 : max_attempts;
    if (res.curl != CURLE_OK) {
        if (r->overflow)
            return floe__error(FLOE_ECORRUPT, "s3", "%s %s: response larger than expected",
                               r->method, r->uri);
        return floe__error(FLOE_EIO, "s3", "%s %s failed after %d attempt%s: %s", r->method, r->uri,
                           n, n == 1 ? "" : "s",
                           res.curl_msg[0] ? res.curl_msg : curl_easy_strerror(res.curl));
    }
    if (res.truncated)
        return floe__error(FLOE_EIO, "s3",
                           "%s %s failed after %d attempt%s: truncated body (%zu of %zu bytes)",
                           r->method, r->uri, n, n == 1 ? "" : "s", r->dst_got, r->dst_len);
    if (r->status >= 200 && r->status < 300)
        return 0;
    char code[64], msg[256];
    if (floe__s3_parse_error(r->resp.ptr, r->resp.len, code, sizeof code, msg, sizeof msg) < 0)
        code[0] = msg[0] = '\0';
    redact(cfg, msg);
    if (r->status == 404)
        return floe__error(FLOE_ENOTFOUND, "s3", "%s not found (%s %s: HTTP 404%s%s)", r->uri,
                           r->method, r->key && *r->key ? "object" : "bucket", code[0] ? " " : "",
                           code);
    if (r->status == 412)
        return floe__error(FLOE_EEXISTS, "s3", "%s already exists (HTTP 412 %s)", r->uri,
                           code[0] ? code : "PreconditionFailed");
    return floe__error(FLOE_EIO, "s3", "%s %s failed after %d attempt%s: HTTP %ld%s%s%s%s",
                       r->method, r->uri, n, n == 1 ? "" : "s", r->status, code[0] ? " " : "", code,
                       msg[0] ? ": " : "", msg);
}

void floe__s3_request_free(s3_request *r)
{
    floe__buf_free(&r->resp);
}
