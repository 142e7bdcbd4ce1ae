/* SPDX-License-Identifier: Apache-2.0 */
/* The REST catalog client (catalog/rest.c) against `floe serve`'s SQLite
 * warehouse backend (rest/backend_sql.c), the server running in a forked
 * child on 127.0.0.1 (so allocation-failure loops only hit the client):
 * the seed's script 1 and the WAP sequence give the same results through
 * REST as through SQLite directly; conflicts (exactly one of two commits on
 * one base wins, appends retry and all land); the error model; OAuth2
 * client credentials refused without a token endpoint; server-side safety
 * for the warehouse backend; an allocation-failure loop over client calls. */
#include "../table/append_fixture.h"

#include "catalog/catalog.h"
#include "floe/scan.h"
#include "rest/server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "serve_child.h"

/* ---------------------------------------------------------------- script 1 */

static const fx_order R1[] = {{1, 10, 1250, "new", 2024, 1, 1}, {2, 11, 990, "new", 2024, 1, 1}};
static const fx_order R2[] = {{3, 10, 500, "shipped", 2024, 1, 2},
                              {4, 12, 700, "new", 2024, 1, 2},
                              {5, 13, 100, "new", 2024, 1, 3}};
static const fx_order R3[] = {{6, 14, 2500, "returned", 2024, 1, 3}};

static int idx_of(const int64_t *ids, size_t n, int64_t id)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return (int)i;
    return -1;
}

/* The seed's script 1 through the C API; the outcome as a string with
 * snapshot ids replaced by their creation order (comparable across
 * catalogs). */
static void script1(floe_catalog *c, char *out, size_t cap)
{
    out[0] = '\0';
    if (floe_catalog_namespace_exists(c, "shop") == 0)
        FT_OK(floe_catalog_create_namespace(c, "shop", NULL));
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders", NULL));
    if (!t)
        return;
    int64_t ids[3] = {fx_append_rows(t, R1, 2), fx_append_rows(t, R2, 3), fx_append_rows(t, R3, 1)};
    /* VERSION AS OF each snapshot */
    int64_t rows[3];
    for (int i = 0; i < 3; i++) {
        floe_snapshot_info si;
        FT_OK(floe_table_snapshot_by_id(&si, t, ids[i]));
        rows[i] = fx_rows(t, ids[i]);
    }
    int64_t prev = 0, cur = 0;
    FT_OK(floe_table_rollback_to_snapshot(&prev, &cur, t, ids[0]));
    int rb = idx_of(ids, 3, cur);
    FT_OK(floe_table_set_current_snapshot(&prev, &cur, t, ids[2]));
    int sc = idx_of(ids, 3, cur);
    /* a fresh handle sees what the catalog holds */
    floe_table *t2 = NULL;
    FT_OK(floe_table_load(&t2, c, "shop.orders", NULL));
    size_t off = (size_t)snprintf(
        out, cap, "rows=%lld,%lld,%lld rb=%d sc=%d snaps=%zu hist=", (long long)rows[0],
        (long long)rows[1], (long long)rows[2], rb, sc, t2 ? floe_table_snapshot_count(t2) : 0);
    for (size_t i = 0; t2 && i < floe_table_history_count(t2) && off < cap; i++) {
        floe_history_entry h;
        floe_table_history_at(&h, t2, i);
        off += (size_t)snprintf(out + off, cap - off, "%d%c/", idx_of(ids, 3, h.snapshot_id),
                                h.is_current_ancestor ? 'a' : '-');
    }
    floe_snapshot_info si;
    if (t2 && floe_table_current_snapshot(&si, t2) && off < cap)
        snprintf(out + off, cap - off, " current=%d rows=%lld", idx_of(ids, 3, si.snapshot_id),
                 (long long)fx_rows(t2, si.snapshot_id));
    floe_table_free(t2);
    floe_table_free(t);
}

static void test_script1_same_as_sqlite(void)
{
    char via_sql[512], via_rest[512];
    floe_catalog *sq = fx_catalog();
    script1(sq, via_sql, sizeof via_sql);
    floe_catalog_free(sq);

    server s;
    FT_ASSERT(server_start(&s, ft_tmp("rwh"), NULL) == 0);
    floe_catalog *rc = rest_client(&s);
    if (rc)
        script1(rc, via_rest, sizeof via_rest);
    floe_catalog_free(rc);
    server_stop(&s);
    FT_EQ_STR(via_rest, via_sql);
    FT_EQ_STR(via_sql, "rows=2,5,6 rb=0 sc=2 snaps=3 hist=0a/1a/2a/0a/2a/ current=2 rows=6");
}

/* ---------------------------------------------------------------- WAP */

static void wap(floe_catalog *c, char *out, size_t cap)
{
    out[0] = '\0';
    if (floe_catalog_namespace_exists(c, "shop") == 0)
        FT_OK(floe_catalog_create_namespace(c, "shop", NULL));
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.wap", NULL));
    if (!t)
        return;
    int64_t s1 = fx_append_rows(t, R1, 2);
    floe_ref_options ro;
    memset(&ro, 0, sizeof ro);
    ro.version = FLOE_REF_OPTIONS_VERSION;
    FT_OK(floe_table_create_branch(t, "audit", FLOE_REF_CREATE, &ro));
    floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
    o.branch = "audit";
    floe_table *tb = NULL;
    FT_OK(floe_table_load(&tb, c, "shop.wap", &o));
    int64_t s2 = tb ? fx_append_rows(tb, R2, 3) : 0;
    floe_table_free(tb);
    FT_OK(floe_table_refresh(t));
    floe_snapshot_info main_before, audit;
    FT_CHECK(floe_table_current_snapshot(&main_before, t));
    FT_OK(floe_table_snapshot_by_ref(&audit, t, "audit"));
    int64_t p = 0, u = 0;
    FT_OK(floe_table_fast_forward(&p, &u, t, "main", "audit"));
    floe_snapshot_info main_after;
    FT_CHECK(floe_table_current_snapshot(&main_after, t));
    snprintf(out, cap, "main_before=%s audit=%s ff=%s->%s main_after=%s rows=%lld",
             main_before.snapshot_id == s1 ? "s1" : "?", audit.snapshot_id == s2 ? "s2" : "?",
             p == s1 ? "s1" : "?", u == s2 ? "s2" : "?", main_after.snapshot_id == s2 ? "s2" : "?",
             (long long)fx_rows(t, main_after.snapshot_id));
    floe_table_free(t);
}

static void test_wap_same_as_sqlite(void)
{
    char via_sql[256], via_rest[256];
    floe_catalog *sq = fx_catalog();
    wap(sq, via_sql, sizeof via_sql);
    floe_catalog_free(sq);
    server s;
    FT_ASSERT(server_start(&s, ft_tmp("rwh"), "pfx") == 0);
    floe_catalog *rc = rest_client(&s);
    if (rc)
        wap(rc, via_rest, sizeof via_rest);
    floe_catalog_free(rc);
    server_stop(&s);
    FT_EQ_STR(via_rest, via_sql);
    FT_EQ_STR(via_sql, "main_before=s1 audit=s2 ff=s1->s2 main_after=s2 rows=5");
}

/* ---------------------------------------------------------------- error kinds */

/* Appends "<op>=<code> <exception>;" for the failure just raised. */
static void note_error(char *out, size_t cap, const char *op, int rc)
{
    const floe_error *e = floe_error_last();
    size_t n = strlen(out);
    snprintf(out + n, cap - n, "%s=%s %s;", op, floe_error_code_name(rc),
             rc < 0 && e && e->code == rc ? floe_error_exception(e) : "-");
}

static int ignore_table(const char *ns, const char *name, void *p)
{
    (void)ns, (void)name, (void)p;
    return 0;
}

/* The catalog's failures, each with the exception Iceberg raises for it. */
static void failures(floe_catalog *c, char *out, size_t cap)
{
    out[0] = '\0';
    FT_OK(floe_catalog_create_namespace(c, "k", NULL));
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "k.t", NULL));
    floe_table_free(t);
    t = NULL;
    note_error(out, cap, "create_ns", floe_catalog_create_namespace(c, "k", NULL));
    floe_props got = FLOE_PROPS_INIT;
    note_error(out, cap, "load_ns", floe_catalog_load_namespace(&got, c, "nope"));
    floe__props_free(&got);
    note_error(out, cap, "drop_ns", floe_catalog_drop_namespace(c, "nope"));
    note_error(out, cap, "drop_full_ns", floe_catalog_drop_namespace(c, "k"));
    note_error(out, cap, "list_tables", floe_catalog_list_tables(c, "nope", ignore_table, NULL));
    char *loc = NULL;
    note_error(out, cap, "load_table", floe_catalog_load_table(&loc, NULL, c, "k.nope"));
    floe_string_free(loc);
    note_error(out, cap, "create_table", fx_create(&t, c, "k.t", NULL));
    floe_table_free(t);
    t = NULL;
    note_error(out, cap, "create_in_missing_ns", fx_create(&t, c, "nope.t", NULL));
    floe_table_free(t);
    note_error(out, cap, "drop_table", floe_catalog_drop_table(c, "k.nope"));
    note_error(out, cap, "drop_view", floe_catalog_drop_view(c, "k.nope"));
}

/* A client of `floe serve` sees each failure as the same exception as the
 * catalog behind it does in-process: the server answers the error's kind
 * with its REST type, the client reads the type back into the kind. */
static void test_error_kinds_same_as_sqlite(void)
{
    char via_sql[1024], via_rest[1024];
    floe_catalog *sq = fx_catalog();
    failures(sq, via_sql, sizeof via_sql);
    floe_catalog_free(sq);
    server s;
    FT_ASSERT(server_start(&s, ft_tmp("rwh"), NULL) == 0);
    floe_catalog *rc = rest_client(&s);
    if (rc)
        failures(rc, via_rest, sizeof via_rest);
    floe_catalog_free(rc);
    server_stop(&s);
    FT_EQ_STR(via_rest, via_sql);
    FT_EQ_STR(via_sql, "create_ns=FLOE_EEXISTS AlreadyExistsException;"
                       "load_ns=FLOE_ENOTFOUND NoSuchNamespaceException;"
                       "drop_ns=FLOE_ENOTFOUND NoSuchNamespaceException;"
                       "drop_full_ns=FLOE_EINVALID NamespaceNotEmptyException;"
                       "list_tables=FLOE_ENOTFOUND NoSuchNamespaceException;"
                       "load_table=FLOE_ENOTFOUND NoSuchTableException;"
                       "create_table=FLOE_EEXISTS AlreadyExistsException;"
                       "create_in_missing_ns=FLOE_ENOTFOUND NoSuchNamespaceException;"
                       "drop_table=FLOE_ENOTFOUND NoSuchTableException;"
                       "drop_view=FLOE_ENOTFOUND NoSuchViewException;");
}

/* ---------------------------------------------------------------- conflicts */

static void test_conflicts(void)
{
    server s;
    FT_ASSERT(server_start(&s, ft_tmp("rwh"), NULL) == 0);
    floe_catalog *a = rest_client(&s), *b = rest_client(&s);
    FT_ASSERT(a && b);
    FT_OK(floe_catalog_create_namespace(a, "shop", NULL));
    floe_table *ta = NULL, *tb = NULL;
    FT_OK(fx_create(&ta, a, "shop.orders", NULL));
    FT_ASSERT(ta);
    fx_append_rows(ta, R1, 2);
    /* two raw commits on the same base: exactly one wins, the other 409 */
    floe_snapshot_info si;
    FT_CHECK(floe_table_current_snapshot(&si, ta));
    char body[512];
    snprintf(body, sizeof body,
             "{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"b1\","
             "\"snapshot-id\":null}],\"updates\":[{\"action\":\"set-snapshot-ref\","
             "\"ref-name\":\"b1\",\"type\":\"branch\",\"snapshot-id\":%lld}]}",
             (long long)si.snapshot_id);
    char *l1 = NULL, *l2 = NULL;
    FT_OK(floe__catalog_commit(a, "shop.orders", body, strlen(body), &l1));
    FT_EQ_INT(floe__catalog_commit(b, "shop.orders", body, strlen(body), &l2), FLOE_ECONFLICT);
    FT_ERR_CONTAINS("CommitFailedException");
    FT_CHECK(l1 && !l2);
    floe__free(l1);
    /* two handles on one base append: the second gets 409, refreshes and
     * retries; every row lands */
    FT_OK(floe_table_load(&tb, b, "shop.orders", NULL));
    FT_OK(floe_table_refresh(ta));
    fx_append_rows(ta, R2, 3);
    floe__table_set_sleep_hook(NULL);
    int64_t last = tb ? fx_append_rows(tb, R3, 1) : 0;
    FT_CHECK(last != 0);
    floe_table *t = NULL;
    FT_OK(floe_table_load(&t, a, "shop.orders", NULL));
    FT_CHECK(t && floe_table_current_snapshot(&si, t));
    FT_EQ_INT(si.snapshot_id, last);
    FT_EQ_INT(fx_rows(t, si.snapshot_id), 6);
    FT_EQ_INT(floe_table_snapshot_count(t), 3);
    floe_table_free(t);
    /* loadTable snapshots=refs keeps only what main (and b1) point at */
    for (int refs = 0; refs < 2; refs++) {
        char *out = NULL;
        FT_EQ_INT(ft_run(&out,
                         "curl -s -H 'Authorization: Bearer " TOKEN "' "
                         "'%s/v1/namespaces/shop/tables/orders?snapshots=%s'",
                         s.uri, refs ? "refs" : "all"),
                  0);
        int n = 0;
        for (const char *p = out; p && (p = strstr(p, "\"manifest-list\"")); p++)
            n++;
        FT_EQ_INT(n, refs ? 2 : 3);
        free(out);
    }
    floe_table_free(ta);
    floe_table_free(tb);
    floe_catalog_free(a);
    floe_catalog_free(b);
    server_stop(&s);
}

/* ---------------------------------------------------------------- catalog calls, errors */

static int collect(const char *ns, void *p)
{
    floe_buf *b = p;
    floe__buf_puts(b, ns);
    return floe__buf_putc(b, ';');
}

static int collect_t(const char *ns, const char *name, void *p)
{
    (void)ns;
    return collect(name, p);
}

static void test_catalog_calls(void)
{
    server s;
    FT_ASSERT(server_start(&s, ft_tmp("rwh"), "main") == 0);
    floe_catalog *c = rest_client(&s);
    FT_ASSERT(c);
    floe_props p = FLOE_PROPS_INIT;
    floe__props_set(&p, "owner", "ann");
    FT_OK(floe_catalog_create_namespace(c, "a", &p));
    FT_OK(floe_catalog_create_namespace(c, "a.b", NULL));
    FT_OK(floe_catalog_create_namespace(c, "z", NULL));
    FT_EQ_INT(floe_catalog_create_namespace(c, "a", NULL), FLOE_EEXISTS);
    FT_EQ_INT(floe_catalog_namespace_exists(c, "a.b"), 1);
    FT_EQ_INT(floe_catalog_namespace_exists(c, "nope"), 0);
    floe_props got = FLOE_PROPS_INIT;
    FT_OK(floe_catalog_load_namespace(&got, c, "a"));
    FT_EQ_STR(floe__props_get(&got, "owner"), "ann");
    floe__props_free(&got);
    FT_EQ_INT(floe_catalog_load_namespace(&got, c, "nope"), FLOE_ENOTFOUND);
    const char *rm[] = {"owner"};
    floe_props up = FLOE_PROPS_INIT;
    floe__props_set(&up, "team", "x");
    FT_OK(floe_catalog_update_namespace(c, "a", &up, rm, 1));
    FT_OK(floe_catalog_load_namespace(&got, c, "a"));
    FT_CHECK(!floe__props_get(&got, "owner") && floe__props_get(&got, "team"));
    floe__props_free(&got);
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe_catalog_list_namespaces(c, NULL, collect, &b));
    floe__buf_putc(&b, '\0');
    FT_EQ_STR((char *)b.ptr, "a;z;");
    b.len = 0;
    FT_OK(floe_catalog_list_namespaces(c, "a", collect, &b));
    floe__buf_putc(&b, '\0');
    FT_EQ_STR((char *)b.ptr, "a.b;");
    FT_EQ_INT(floe_catalog_list_namespaces(c, "nope", collect, &b), FLOE_ENOTFOUND);
    /* tables */
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "a.b.t1", NULL));
    floe_table_free(t);
    FT_EQ_INT(fx_create(&t, c, "a.b.t1", NULL), FLOE_EEXISTS);
    FT_EQ_INT(fx_create(&t, c, "nope.t1", NULL), FLOE_ENOTFOUND);
    char *loc = NULL;
    FT_OK(floe_catalog_load_table(&loc, NULL, c, "a.b.t1"));
    FT_CHECK(loc && strstr(loc, "/metadata/00000-"));
    char *none = NULL;
    FT_EQ_INT(floe_catalog_load_table(&none, NULL, c, "a.b.nope"), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Table does not exist: a.b.nope");
    FT_OK(floe_catalog_rename_table(c, "a.b.t1", "z.t2"));
    FT_EQ_INT(floe_catalog_rename_table(c, "a.b.t1", "z.t3"), FLOE_ENOTFOUND);
    b.len = 0;
    FT_OK(floe_catalog_list_tables(c, "z", collect_t, &b));
    floe__buf_putc(&b, '\0');
    FT_EQ_STR((char *)b.ptr, "t2;");
    /* register the same metadata under another name */
    FT_OK(floe_catalog_register_table(c, "z.t4", loc));
    FT_EQ_INT(floe_catalog_register_table(c, "z.t5", "/etc/passwd"), FLOE_EINVALID);
    FT_EQ_INT(floe_catalog_commit_table(c, "z.t4", loc, loc), FLOE_EUNSUPPORTED);
    FT_OK(floe_catalog_drop_table(c, "z.t4"));
    FT_EQ_INT(floe_catalog_drop_namespace(c, "z"), FLOE_EINVALID); /* holds t2 */
    /* purge through the server: the table's files go */
    char path[1024];
    snprintf(path, sizeof path, "%s", loc + (strncmp(loc, "file:", 5) == 0 ? 5 : 0));
    FT_CHECK(access(path, F_OK) == 0);
    FT_OK(floe_table_drop(c, "z.t2", true, NULL));
    FT_CHECK(access(path, F_OK) != 0);
    FT_OK(floe_catalog_drop_namespace(c, "z"));
    FT_EQ_INT(floe_catalog_drop_namespace(c, "z"), FLOE_ENOTFOUND);
    floe_string_free(loc);
    floe__buf_free(&b);
    floe__props_free(&p);
    floe__props_free(&up);
    floe_catalog_free(c);

    /* authentication */
    floe_rest_catalog_options o = FLOE_REST_CATALOG_OPTIONS_INIT;
    FT_EQ_INT(floe_catalog_open_rest(&c, s.uri, &o), FLOE_EINVALID);
    FT_ERR_CONTAINS("401");
    o.token = "wrong";
    FT_EQ_INT(floe_catalog_open_rest(&c, s.uri, &o), FLOE_EINVALID);
    o.token = NULL;
    o.credential = "client:secret"; /* floe serve issues no tokens: 501 */
    FT_EQ_INT(floe_catalog_open_rest(&c, s.uri, &o), FLOE_EINVALID);
    FT_ERR_CONTAINS("OAuth2");
    FT_EQ_INT(floe_catalog_open_rest(&c, "ftp://x", NULL), FLOE_EINVALID);
    server_stop(&s);
    FT_EQ_INT(floe_catalog_open_rest(&c, s.uri, NULL), FLOE_EIO);
}

/* ---------------------------------------------------------------- OAuth2 */

/* A one-shot token endpoint: records the request, answers a token. */
typedef struct token_ep {
    int fd;
    char req[4096];
} token_ep;

static void *token_serve(void *p)
{
    token_ep *t = p;
    int c = accept(t->fd, NULL, NULL);
    if (c < 0)
        return NULL;
    size_t n = 0;
    for (;;) {
        ssize_t k = read(c, t->req + n, sizeof t->req - 1 - n);
        if (k <= 0)
            break;
        n += (size_t)k;
        t->req[n] = '\0';
        char *hdr_end = strstr(t->req, "\r\n\r\n");
        char *cl = strstr(t->req, "Content-Length: ");
        if (hdr_end && cl && n >= (size_t)(hdr_end + 4 - t->req) + (size_t)atoi(cl + 16))
            break;
    }
    static const char body[] = "{\"access_token\":\"" TOKEN "\",\"token_type\":\"bearer\","
                               "\"expires_in\":3600}";
    char out[512];
    int len = snprintf(out, sizeof out,
                       "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                       "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                       strlen(body), body);
    if (write(c, out, (size_t)len) != len)
        t->req[0] = '\0';
    close(c);
    return NULL;
}

static void test_oauth2_client_credentials(void)
{
    server s;
    FT_ASSERT(server_start(&s, ft_tmp("rwh"), NULL) == 0);
    token_ep t = {.fd = socket(AF_INET, SOCK_STREAM, 0)};
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    FT_ASSERT(bind(t.fd, (struct sockaddr *)&a, sizeof a) == 0 && listen(t.fd, 1) == 0 &&
              getsockname(t.fd, (struct sockaddr *)&a, &al) == 0);
    pthread_t th;
    pthread_create(&th, NULL, token_serve, &t);
    char ep[64];
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/token", ntohs(a.sin_port));
    floe_rest_catalog_options o = FLOE_REST_CATALOG_OPTIONS_INIT;
    o.credential = "client:s3cr&t";
    o.oauth2_server_uri = ep;
    o.scope = "PRINCIPAL_ROLE:ALL";
    floe_catalog *c = NULL;
    FT_OK(floe_catalog_open_rest(&c, s.uri, &o));
    pthread_join(th, NULL);
    close(t.fd);
    FT_CHECK(strstr(t.req, "POST /token ") != NULL);
    FT_CHECK(strstr(t.req, "application/x-www-form-urlencoded") != NULL);
    FT_CHECK(strstr(t.req, "grant_type=client_credentials") != NULL);
    FT_CHECK(strstr(t.req, "client_id=client&client_secret=s3cr%26t") != NULL);
    FT_CHECK(strstr(t.req, "scope=PRINCIPAL_ROLE%3AALL") != NULL);
    FT_CHECK(strstr(t.req, "X-Iceberg-Access-Delegation") == NULL);
    /* the token obtained authenticates the catalog calls */
    FT_OK(floe_catalog_create_namespace(c, "viaoauth", NULL));
    FT_EQ_INT(floe_catalog_namespace_exists(c, "viaoauth"), 1);
    floe_catalog_free(c);
    server_stop(&s);
}

/* Every allocation of opening a catalog with client credentials fails in
 * turn, the token endpoint refusing connections: each attempt is a clean
 * FLOE_ENOMEM or the endpoint's FLOE_EIO, never a crash (the token request's
 * response was once freed uninitialized when the form could not be built). */
static void test_oauth2_alloc_failures(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    FT_ASSERT(bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
              getsockname(fd, (struct sockaddr *)&a, &al) == 0);
    close(fd); /* nothing listens there now */
    char uri[64], ep[80];
    snprintf(uri, sizeof uri, "http://127.0.0.1:%d", ntohs(a.sin_port));
    snprintf(ep, sizeof ep, "%s/token", uri);
    floe_rest_catalog_options o = FLOE_REST_CATALOG_OPTIONS_INIT;
    o.credential = "client:secret";
    o.oauth2_server_uri = ep;
    int nomem = 0, last = 0;
    for (long n = 1; n < 500; n++) {
        floe_catalog *c = NULL;
        floe__alloc_fail_at(n);
        int rc = floe_catalog_open_rest(&c, uri, &o);
        long used = floe__alloc_count();
        floe__alloc_fail_at(0);
        FT_CHECK(!c);
        floe_catalog_free(c);
        if (rc != FLOE_ENOMEM && rc != FLOE_EIO)
            ft_fail(__FILE__, __LINE__, "allocation %ld: %s", n, floe_error_code_name(rc));
        nomem += rc == FLOE_ENOMEM;
        last = rc;
        if (used < n) /* no allocation failed: every one was covered */
            break;
    }
    FT_CHECK(nomem > 0);
    FT_EQ_INT(last, FLOE_EIO); /* with every allocation there: connection refused */
}

/* ---------------------------------------------------------------- iceberg-js */

static void test_iceberg_js(void)
{
    char mods[1024];
    snprintf(mods, sizeof mods, "%s/tests/interop/node_modules/iceberg-js/package.json",
             FLOE_SOURCE_DIR);
    char *v = NULL;
    if (access(mods, R_OK) != 0 || ft_run(&v, "node --version") != 0) {
        free(v);
        ft_skip("node or iceberg-js not installed");
        return;
    }
    free(v);
    server s;
    FT_ASSERT(server_start(&s, ft_tmp("rwh"), NULL) == 0);
    floe_catalog *c = rest_client(&s);
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "shop", NULL));
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders", NULL));
    if (t) {
        fx_append_rows(t, R1, 2);
        fx_append_rows(t, R2, 3);
    }
    floe_table_free(t);
    floe_catalog_free(c);
    char *out = NULL;
    int rc = ft_run(&out, "FLOE_SOURCE_DIR=%s node %s/tests/interop/rest_warehouse_js.mjs %s %s 2",
                    FLOE_SOURCE_DIR, FLOE_SOURCE_DIR, s.uri, TOKEN);
    server_stop(&s);
    FT_EQ_INT(rc, 0);
    FT_CHECK(out && strstr(out, "14 passed, 0 failed"));
    if (rc != 0 || !out || !strstr(out, "14 passed, 0 failed"))
        fprintf(stderr, "%s\n", out ? out : "");
    free(out);
}

/* ---------------------------------------------------------------- OOM */

static void test_alloc_failures(void)
{
    server s;
    FT_ASSERT(server_start(&s, ft_tmp("rwh"), NULL) == 0);
    floe_catalog *c = rest_client(&s);
    FT_ASSERT(c);
    FT_OK(floe_catalog_create_namespace(c, "shop", NULL));
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders", NULL));
    floe_table_free(t);
    int done = 0, unknown = 0; /* unknown: counted, legitimate under OOM */
    for (long n = 1; n < 5000 && !done; n++) {
        floe_catalog *c2 = NULL;
        floe_buf b = FLOE_BUF_INIT;
        char *loc = NULL;
        floe__alloc_fail_at(n);
        int rc = floe_catalog_open_rest(
            &c2, s.uri,
            &(floe_rest_catalog_options){FLOE_REST_CATALOG_OPTIONS_VERSION, NULL, NULL, TOKEN, NULL,
                                         NULL, NULL, NULL, false, 0, NULL});
        if (rc == 0)
            rc = floe_catalog_list_namespaces(c2, NULL, collect, &b);
        if (rc == 0)
            rc = floe_catalog_load_table(&loc, NULL, c2, "shop.orders");
        if (rc == 0) {
            floe_props p = FLOE_PROPS_INIT;
            rc = floe_catalog_load_namespace(&p, c2, "shop");
            floe__props_free(&p);
        }
        if (rc == 0)
            rc = floe_table_load(&t, c2, "shop.orders", NULL);
        if (rc == 0) {
            floe_props set = FLOE_PROPS_INIT;
            rc = floe__props_set(&set, "k", "v");
            if (rc == 0)
                rc = floe_table_update_properties(t, &set, NULL, 0);
            floe__props_free(&set);
            floe_table_free(t);
            t = NULL;
        }
        floe__alloc_fail_at(0);
        if (rc == 0)
            done = 1;
        else if (rc == FLOE_ECOMMITUNKNOWN) {
            /* the answer to a sent commit could not be read */
            unknown++;
            if (getenv("FT_VERBOSE"))
                fprintf(stderr, "n=%ld: %s\n", n, ft_floe_err());
        } else if (rc != FLOE_ENOMEM)
            ft_fail(__FILE__, __LINE__, "n=%ld: %s", n, ft_floe_err());
        floe_string_free(loc);
        floe__buf_free(&b);
        floe_catalog_free(c2);
    }
    FT_CHECK(done);
    floe_catalog_free(c);
    server_stop(&s);
}

/* ---------------------------------------------------------------- planning */

/* "<rows> <sorted task paths>" of a scan of `t` with `filter`, and the
 * manifests the scan read itself. */
static void scan_summary(floe_table *t, const char *filter, bool pin, int64_t snap, char *out,
                         size_t cap, int64_t *manifests)
{
    out[0] = '\0';
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.filter = filter;
    o.threads = 1;
    o.has_snapshot_id = pin;
    o.snapshot_id = snap;
    floe_scan *sc = NULL;
    if (floe_scan_open_table(&sc, t, &o) < 0) {
        ft_fail(__FILE__, __LINE__, "scan %s: %s", filter ? filter : "", ft_floe_err());
        return;
    }
    *manifests = floe_scan_get_report(sc)->manifests_total;
    size_t n = floe_scan_task_count(sc);
    const char **paths = calloc(n ? n : 1, sizeof *paths);
    for (size_t i = 0; paths && i < n; i++)
        paths[i] = floe_scan_task_path(sc, i);
    for (size_t i = 0; paths && i < n; i++) /* sort */
        for (size_t k = i + 1; k < n; k++)
            if (strcmp(paths[k], paths[i]) < 0) {
                const char *x = paths[i];
                paths[i] = paths[k];
                paths[k] = x;
            }
    struct ArrowArrayStream st;
    int64_t rows = 0;
    FT_OK(floe_scan_to_stream(&st, sc));
    for (;;) {
        struct ArrowArray a;
        if (st.get_next(&st, &a) != 0) {
            ft_fail(__FILE__, __LINE__, "get_next: %s", st.get_last_error(&st));
            break;
        }
        if (!a.release)
            break;
        rows += a.length;
        a.release(&a);
    }
    st.release(&st);
    size_t used = (size_t)snprintf(out, cap, "%lld", (long long)rows);
    for (size_t i = 0; paths && i < n && used < cap; i++)
        used += (size_t)snprintf(out + used, cap - used, " %s", paths[i]);
    free(paths);
    floe_scan_free(sc);
}

/* A REST client with scan-planning-mode=server reads what local planning
 * reads (tasks and rows, with filters and time travel) without reading a
 * manifest itself; plans of more tasks than a chunk come through
 * POST .../tasks. */
static void server_side_planning(bool defer)
{
    plan_chunk = 2;
    plan_defer = defer;
    server s;
    int started = server_start(&s, ft_tmp(defer ? "wh-plan-defer" : "wh-plan"), "main");
    plan_chunk = 0;
    plan_defer = false;
    if (started < 0) {
        ft_fail(__FILE__, __LINE__, "server did not start");
        return;
    }
    floe_catalog *c = rest_client(&s);
    floe_rest_catalog_options so = FLOE_REST_CATALOG_OPTIONS_INIT;
    so.token = TOKEN;
    so.scan_planning_mode = "server";
    floe_catalog *sc = NULL;
    FT_OK(floe_catalog_open_rest(&sc, s.uri, &so));
    floe_rest_catalog_options bad = so;
    bad.scan_planning_mode = "sideways";
    floe_catalog *x = NULL;
    FT_CHECK(floe_catalog_open_rest(&x, s.uri, &bad) == FLOE_EINVALID);
    FT_ERR_CONTAINS("Invalid scan planning mode: sideways");
    floe_table *t = NULL;
    if (c && sc) {
        FT_OK(floe_catalog_create_namespace(c, "shop", NULL));
        FT_OK(fx_create(&t, c, "shop.orders", NULL));
    }
    int64_t first = t ? fx_append_rows(t, R1, 2) : -1;
    if (t) {
        fx_append_rows(t, R2, 3);
        fx_append_rows(t, R3, 1);
    }
    floe_table *lt = NULL, *rt = NULL;
    if (t) {
        FT_OK(floe_table_load(&lt, c, "shop.orders", NULL));
        FT_OK(floe_table_load(&rt, sc, "shop.orders", NULL));
    }
    static const char *const filters[] = {NULL,
                                          "order_date = '2024-01-03'",
                                          "amount > 10",
                                          "status = 'new' AND customer_id < 12",
                                          "order_date IN ('2024-01-01', '2024-01-02')",
                                          "status IS NULL"};
    for (size_t i = 0; lt && rt && i < FT_N(filters); i++) {
        char a[4096], b[4096];
        int64_t ma = 0, mb = 0;
        scan_summary(lt, filters[i], false, 0, a, sizeof a, &ma);
        scan_summary(rt, filters[i], false, 0, b, sizeof b, &mb);
        FT_EQ_STR(b, a);
        FT_CHECK(ma > 0); /* local planning read the manifests */
        FT_EQ_INT(mb, 0); /* server planning did not */
    }
    if (lt && rt) {
        char a[4096], b[4096];
        int64_t ma = 0, mb = 0;
        scan_summary(lt, NULL, true, first, a, sizeof a, &ma);
        scan_summary(rt, NULL, true, first, b, sizeof b, &mb);
        FT_EQ_STR(b, a);
        FT_CHECK(strncmp(b, "2 ", 2) == 0);
        /* a filter that does not bind is the server's 400, with Java's text */
        floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
        o.filter = "nope = 1";
        floe_scan *bad_scan = NULL;
        FT_CHECK(floe_scan_open_table(&bad_scan, rt, &o) == FLOE_EINVALID);
        FT_ERR_CONTAINS("Cannot find field 'nope'");
        /* the exception in-process planning raises, through the REST type */
        FT_EQ_STR(floe_error_exception(floe_error_last()), "ValidationException");
        FT_CHECK(floe_scan_open_table(&bad_scan, lt, &o) == FLOE_EINVALID);
        FT_EQ_STR(floe_error_exception(floe_error_last()), "ValidationException");
    }
    floe_table_free(lt);
    floe_table_free(rt);
    floe_table_free(t);
    floe_catalog_free(sc);
    floe_catalog_free(c);
    server_stop(&s);
}

static void test_server_side_planning(void)
{
    server_side_planning(false);
}

/* The same when the server answers "submitted" and the client polls. */
static void test_server_side_planning_polled(void)
{
    server_side_planning(true);
}

/* floe_catalog_commit_transaction over REST (the server's SQLite
 * transaction): a failing requirement on one table changes no table. */
static void test_rest_transaction(void)
{
    server s;
    if (server_start(&s, ft_tmp("wh-tx"), NULL) < 0) {
        ft_fail(__FILE__, __LINE__, "server did not start");
        return;
    }
    floe_catalog *c = rest_client(&s);
    floe_table *a = NULL, *b = NULL;
    if (c) {
        FT_OK(floe_catalog_create_namespace(c, "shop", NULL));
        FT_OK(fx_create(&a, c, "shop.a", NULL));
        FT_OK(fx_create(&b, c, "shop.b", NULL));
    }
    const char *idents[] = {"shop.a", "shop.b"};
    const char *bad[] = {
        "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\",\"updates\":"
        "{\"k\":\"1\"}}]}",
        "{\"requirements\":[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":7}],"
        "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"k\":\"2\"}}]}"};
    const char *good[] = {bad[0],
                          "{\"requirements\":[{\"type\":\"assert-current-schema-id\","
                          "\"current-schema-id\":0}],\"updates\":[{\"action\":\"set-properties\","
                          "\"updates\":{\"k\":\"2\"}}]}"};
    if (a && b) {
        FT_CHECK(floe_catalog_commit_transaction(c, 2, idents, bad, NULL) == FLOE_ECONFLICT);
        FT_OK(floe_table_refresh(a));
        FT_OK(floe_table_refresh(b));
        FT_CHECK(floe_table_property(a, "k") == NULL);
        FT_CHECK(floe_table_property(b, "k") == NULL);
        FT_OK(floe_catalog_commit_transaction(c, 2, idents, good, NULL));
        FT_OK(floe_table_refresh(a));
        FT_OK(floe_table_refresh(b));
        FT_EQ_STR(floe_table_property(a, "k"), "1");
        FT_EQ_STR(floe_table_property(b, "k"), "2");
        const char *missing[] = {"shop.a", "shop.zz"};
        FT_CHECK(floe_catalog_commit_transaction(c, 2, missing, good, NULL) == FLOE_ENOTFOUND);
        const char *twice[] = {"shop.a", "shop.a"};
        FT_CHECK(floe_catalog_commit_transaction(c, 2, twice, good, NULL) == FLOE_EINVALID);
        const char *junk[] = {"[1]", bad[0]};
        FT_CHECK(floe_catalog_commit_transaction(c, 2, idents, junk, NULL) == FLOE_EINVALID);
    }
    floe_table_free(a);
    floe_table_free(b);
    floe_catalog_free(c);
    server_stop(&s);
}

static const ft_case cases[] = {
    {"server_side_planning", test_server_side_planning},
    {"server_side_planning_polled", test_server_side_planning_polled},
    {"rest_transaction", test_rest_transaction},
    {"script1_same_as_sqlite", test_script1_same_as_sqlite},
    {"wap_same_as_sqlite", test_wap_same_as_sqlite},
    {"conflicts", test_conflicts},
    {"error_kinds_same_as_sqlite", test_error_kinds_same_as_sqlite},
    {"catalog_calls", test_catalog_calls},
    {"alloc_failures", test_alloc_failures},
    {"iceberg_js", test_iceberg_js},
    {"oauth2_client_credentials", test_oauth2_client_credentials},
    {"oauth2_alloc_failures", test_oauth2_alloc_failures},
};

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    return ft_main(argc, argv, cases, FT_N(cases));
}
