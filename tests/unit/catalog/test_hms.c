/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the Hive Metastore client: the Thrift binary protocol
 * (hand-encoded bytes both ways, truncated and hostile input), and the
 * catalog against a scripted metastore on 127.0.0.1 (canned replies): the
 * metastore's exceptions become Iceberg's messages, non-Iceberg tables are
 * refused, garbage replies are clear errors, a dropped connection is
 * reopened for reads, framed transport. The real metastore is exercised
 * by tests/peers/test_hms.py. */
#include "catalog/catalog.h"
#include "catalog/thrift_binary.h"
#include "floe/table.h"
#include "harness.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---------------------------------------------------------------- protocol */

static void test_encode_call(void)
{
    floe_buf b = FLOE_BUF_INIT;
    floe_tbenc e;
    floe__tbenc_init(&e, &b);
    floe__tbenc_message(&e, "get_table", FLOE_TB_CALL, 7);
    floe__tbenc_field_string(&e, 1, "db");
    floe__tbenc_field_string(&e, 2, "t");
    floe__tbenc_field_bool(&e, 3, true);
    floe__tbenc_field_i64(&e, 4, -2);
    floe__tbenc_stop(&e);
    FT_OK(e.rc);
    static const uint8_t want[] = {
        0x80, 0x01, 0x00, 0x01, /* strict version | CALL */
        0,    0,    0,    9,    'g',  'e',  't',  '_',  't',  'a',  'b',  'l', 'e', /* name */
        0,    0,    0,    7,                                                        /* seqid */
        11,   0,    1,    0,    0,    0,    2,    'd',  'b',              /* 1: string "db" */
        11,   0,    2,    0,    0,    0,    1,    't',                    /* 2: string "t" */
        2,    0,    3,    1,                                              /* 3: bool true */
        10,   0,    4,    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, /* 4: i64 -2 */
        0};                                                               /* STOP */
    FT_EQ_INT(b.len, sizeof want);
    FT_CHECK(b.len == sizeof want && memcmp(b.ptr, want, sizeof want) == 0);
    floe__buf_free(&b);
}

/* get_table's reply: success = Table {1: "t", 2: "db", 9: {"table_type": "ICEBERG",
 * "metadata_location": "s3://b/m.json"}}, hand-encoded. */
static const uint8_t REPLY_TABLE[] = {
    0x80, 0x01, 0x00, 0x02, 0,   0,   0,   9,   'g', 'e', 't', '_', 't', 'a', 'b', 'l', 'e',
    0,    0,    0,    1,    12,  0,   0,             /* 0: success struct */
    11,   0,    1,    0,    0,   0,   1,   't',      /* tableName */
    11,   0,    2,    0,    0,   0,   2,   'd', 'b', /* dbName */
    13,   0,    9,    11,   11,  0,   0,   0,   2,   /* parameters map<string,string>, 2 */
    0,    0,    0,    10,   't', 'a', 'b', 'l', 'e', '_', 't', 'y', 'p', 'e', 0,   0,   0,
    7,    'I',  'C',  'E',  'B', 'E', 'R', 'G', 0,   0,   0,   17,  'm', 'e', 't', 'a', 'd',
    'a',  't',  'a',  '_',  'l', 'o', 'c', 'a', 't', 'i', 'o', 'n', 0,   0,   0,   13,  's',
    '3',  ':',  '/',  '/',  'b', '/', 'm', '.', 'j', 's', 'o', 'n', 0, /* end Table */
    0};                                                                /* end result */

static void test_decode_reply(void)
{
    floe_arena *a = floe__arena_new(1024);
    FT_ASSERT(a);
    floe_tbmsg m;
    size_t used;
    bool trunc;
    FT_OK(floe__tbdec_message(REPLY_TABLE, sizeof REPLY_TABLE, a, "t", &m, &used, &trunc));
    FT_EQ_INT(used, sizeof REPLY_TABLE);
    FT_EQ_STR(m.name, "get_table");
    FT_EQ_INT(m.type, FLOE_TB_REPLY);
    FT_EQ_INT(m.seqid, 1);
    const floe_tbval *t = floe__tb_field(&m.body, 0, FLOE_TB_STRUCT);
    FT_ASSERT(t);
    FT_EQ_STR(floe__tb_string(t, 1), "t");
    FT_EQ_STR(floe__tb_string(t, 2), "db");
    FT_CHECK(floe__tb_string(t, 3) == NULL);
    FT_CHECK(floe__tb_field(t, 1, FLOE_TB_I32) == NULL); /* wrong type = absent */
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__tb_props(t, 9, &p));
    FT_EQ_STR(floe__props_get(&p, "table_type"), "ICEBERG");
    FT_EQ_STR(floe__props_get(&p, "metadata_location"), "s3://b/m.json");
    floe__props_free(&p);
    /* re-encoding gives the same bytes back */
    floe_buf b = FLOE_BUF_INIT;
    floe_tbenc e;
    floe__tbenc_init(&e, &b);
    floe__tbenc_message(&e, m.name, m.type, m.seqid);
    floe__tbenc_value(&e, &m.body);
    FT_OK(e.rc);
    FT_CHECK(b.len == sizeof REPLY_TABLE && memcmp(b.ptr, REPLY_TABLE, b.len) == 0);
    floe__buf_free(&b);
    /* every proper prefix is "truncated", never a crash or a success */
    for (size_t n = 0; n < sizeof REPLY_TABLE; n++) {
        floe__arena_reset(a);
        int rc = floe__tbdec_message(REPLY_TABLE, n, a, "t", &m, &used, &trunc);
        if (!FT_CHECK(rc == FLOE_ECORRUPT && trunc))
            break;
    }
    FT_ERR_CONTAINS("Thrift message truncated");
    floe__arena_free(a);
}

static void test_decode_hostile(void)
{
    floe_arena *a = floe__arena_new(1024);
    FT_ASSERT(a);
    floe_tbmsg m;
    size_t used;
    bool trunc;
    /* not the binary protocol (an HTTP server, a compact-protocol peer) */
    static const uint8_t http[] = "HTTP/1.1 400 Bad Request\r\n\r\n";
    FT_CHECK(floe__tbdec_message(http, sizeof http - 1, a, "t", &m, &used, &trunc) ==
             FLOE_ECORRUPT);
    static const uint8_t compact[] = {0x82, 0x21, 0x01, 0x03, 'f', 'o', 'o', 0};
    FT_CHECK(floe__tbdec_message(compact, sizeof compact, a, "t", &m, &used, &trunc) ==
                 FLOE_ECORRUPT &&
             !trunc);
    FT_ERR_CONTAINS("not the Thrift binary protocol");
    /* negative string length */
    static const uint8_t neg[] = {0x80, 1, 0, 2, 0xff, 0xff, 0xff, 0xff};
    FT_CHECK(floe__tbdec_message(neg, sizeof neg, a, "t", &m, &used, &trunc) == FLOE_ECORRUPT &&
             !trunc);
    FT_ERR_CONTAINS("negative string length");
    /* a list claiming 2^31-1 elements in a few bytes: refused before allocating */
    static const uint8_t big[] = {0x80, 1, 0,  2, 0, 0,  0,    1,    'x',  0,    0,
                                  0,    1, 15, 0, 0, 12, 0x7f, 0xff, 0xff, 0xff, 0};
    FT_CHECK(floe__tbdec_message(big, sizeof big, a, "t", &m, &used, &trunc) == FLOE_ECORRUPT);
    FT_CHECK(floe__arena_bytes(a) < 4096);
    /* an unknown field type */
    static const uint8_t unk[] = {0x80, 1, 0, 2, 0, 0, 0, 1, 'x', 0, 0, 0, 1, 99, 0, 1, 0};
    FT_CHECK(floe__tbdec_message(unk, sizeof unk, a, "t", &m, &used, &trunc) == FLOE_ECORRUPT &&
             !trunc);
    FT_ERR_CONTAINS("unknown field type");
    /* nesting bomb: 200 nested structs */
    uint8_t deep[13 + 3 * 200 + 201];
    memcpy(deep, "\x80\x01\x00\x02\x00\x00\x00\x01x\x00\x00\x00\x01", 13);
    size_t n = 13;
    for (int i = 0; i < 200; i++)
        deep[n++] = 12, deep[n++] = 0, deep[n++] = 1;
    for (int i = 0; i <= 200; i++)
        deep[n++] = 0;
    FT_CHECK(floe__tbdec_message(deep, n, a, "t", &m, &used, &trunc) == FLOE_ECORRUPT && !trunc);
    FT_ERR_CONTAINS("nesting too deep");
    /* the old non-strict header is read too */
    static const uint8_t old[] = {0, 0, 0, 1, 'x', 2, 0, 0, 0, 5, 0};
    FT_OK(floe__tbdec_message(old, sizeof old, a, "t", &m, &used, &trunc));
    FT_EQ_STR(m.name, "x");
    FT_EQ_INT(m.type, FLOE_TB_REPLY);
    FT_EQ_INT(m.seqid, 5);
    floe__arena_free(a);
}

/* ---------------------------------------------------------------- scripted metastore */

typedef struct step {
    const char *method;   /* expected call */
    const uint8_t *reply; /* NULL: close the connection instead of answering */
    size_t len;
} step;

typedef struct server {
    int lfd, port;
    bool framed;
    const step *steps;
    int nsteps;
    int done; /* steps served */
    char got[16][64];
    pthread_t th;
} server;

static int read_request(server *s, int fd, char *name, size_t cap)
{
    uint8_t buf[65536];
    size_t len = 0;
    floe_arena *a = floe__arena_new(4096);
    int rc = -1;
    for (;;) {
        ssize_t r = recv(fd, buf + len, sizeof buf - len, 0);
        if (r <= 0)
            break;
        len += (size_t)r;
        size_t off = s->framed ? 4 : 0;
        if (len < off)
            continue;
        floe_tbmsg m;
        size_t used;
        bool trunc;
        floe__arena_reset(a);
        if (floe__tbdec_message(buf + off, len - off, a, "server", &m, &used, &trunc) == 0) {
            snprintf(name, cap, "%s", m.name);
            rc = 0;
            break;
        }
        floe_error_clear();
        if (!trunc)
            break;
    }
    floe__arena_free(a);
    return rc;
}

static void *serve(void *arg)
{
    server *s = arg;
    while (s->done < s->nsteps) {
        int fd = accept(s->lfd, NULL, NULL);
        if (fd < 0)
            break;
        while (s->done < s->nsteps) {
            char name[64];
            if (read_request(s, fd, name, sizeof name) < 0)
                break;
            const step *st = &s->steps[s->done];
            snprintf(s->got[s->done % 16], sizeof s->got[0], "%s", name);
            s->done++;
            if (!st->reply)
                break;
            if (s->framed) {
                uint8_t h[4] = {(uint8_t)(st->len >> 24), (uint8_t)(st->len >> 16),
                                (uint8_t)(st->len >> 8), (uint8_t)st->len};
                (void)!send(fd, h, 4, MSG_NOSIGNAL);
            }
            (void)!send(fd, st->reply, st->len, MSG_NOSIGNAL);
        }
        close(fd);
    }
    return NULL;
}

static bool server_start(server *s, const step *steps, int n, bool framed)
{
    memset(s, 0, sizeof *s);
    s->steps = steps;
    s->nsteps = n;
    s->framed = framed;
    s->lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t sl = sizeof sa;
    if (s->lfd < 0 || bind(s->lfd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
        listen(s->lfd, 4) < 0 || getsockname(s->lfd, (struct sockaddr *)&sa, &sl) < 0)
        return false;
    s->port = ntohs(sa.sin_port);
    return pthread_create(&s->th, NULL, serve, s) == 0;
}

static void server_stop(server *s)
{
    shutdown(s->lfd, SHUT_RDWR);
    close(s->lfd);
    pthread_join(s->th, NULL);
}

/* A reply message: header for `method`, seqid, then the result struct body
 * given as raw bytes (fields + STOP). */
static size_t reply(uint8_t *out, const char *method, int32_t seq, const void *body, size_t n)
{
    size_t k = 0, ml = strlen(method);
    const uint8_t hdr[] = {0x80, 1, 0, 2, 0, 0, 0, (uint8_t)ml};
    memcpy(out, hdr, 8), k = 8;
    memcpy(out + k, method, ml), k += ml;
    out[k++] = (uint8_t)(seq >> 24), out[k++] = (uint8_t)(seq >> 16),
    out[k++] = (uint8_t)(seq >> 8), out[k++] = (uint8_t)seq;
    memcpy(out + k, body, n);
    return k + n;
}

/* result field `id` = an exception struct {1: message} */
static size_t exc_body(uint8_t *out, int16_t id, const char *msg)
{
    size_t k = 0, n = strlen(msg);
    out[k++] = 12, out[k++] = 0, out[k++] = (uint8_t)id;
    out[k++] = 11, out[k++] = 0, out[k++] = 1;
    out[k++] = 0, out[k++] = 0, out[k++] = 0, out[k++] = (uint8_t)n;
    memcpy(out + k, msg, n), k += n;
    out[k++] = 0; /* end exception */
    out[k++] = 0; /* end result */
    return k;
}

static int open_at(floe_catalog **c, const server *s, bool framed)
{
    char uri[64];
    snprintf(uri, sizeof uri, "thrift://127.0.0.1:%d", s->port);
    floe_hive_catalog_options o = FLOE_HIVE_CATALOG_OPTIONS_INIT;
    o.framed = framed;
    o.timeout_ms = 5000;
    return floe_catalog_open_hive(c, uri, &o);
}

static void test_exceptions_mapped(void)
{
    uint8_t r1[256], r2[256], r3[256], r4[512], b[256];
    size_t n1 = reply(r1, "get_table", 1, b, exc_body(b, 2, "db.t table not found"));
    size_t n2 = reply(r2, "drop_database", 2, b, exc_body(b, 2, "Database db is not empty"));
    /* a plain Hive table: parameters without table_type */
    static const uint8_t plain[] = {12,  0,   0,   11,  0, 1, 0, 0, 0,   1,   'p', 13,  0,   9,
                                    11,  11,  0,   0,   0, 1, 0, 0, 0,   8,   'E', 'X', 'T', 'E',
                                    'R', 'N', 'A', 'L', 0, 0, 0, 4, 'T', 'R', 'U', 'E', 0,   0};
    size_t n3 = reply(r3, "get_table", 3, plain, sizeof plain);
    memcpy(r4, REPLY_TABLE, sizeof REPLY_TABLE);
    r4[20] = 4; /* seqid 4 */
    const step steps[] = {{"get_table", r1, n1},
                          {"drop_database", r2, n2},
                          {"get_table", r3, n3},
                          {"get_table", r4, sizeof REPLY_TABLE}};
    server s;
    FT_ASSERT(server_start(&s, steps, 4, false));
    floe_catalog *c = NULL;
    FT_OK(open_at(&c, &s, false));
    char *loc = NULL, *prev = NULL;
    FT_EQ_INT(floe_catalog_load_table(&loc, NULL, c, "db.t"), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Table does not exist: db.t");
    FT_EQ_INT(floe_catalog_drop_namespace(c, "db"), FLOE_EINVALID);
    FT_ERR_CONTAINS("Namespace db is not empty. One or more tables exist.");
    FT_EQ_INT(floe_catalog_load_table(&loc, NULL, c, "db.p"), FLOE_ENOTFOUND);
    FT_ERR_CONTAINS("Not an iceberg table: hive.db.p (type=null)");
    FT_OK(floe_catalog_load_table(&loc, &prev, c, "db.t"));
    FT_EQ_STR(loc, "s3://b/m.json");
    FT_CHECK(prev == NULL);
    floe_string_free(loc);
    /* a multi-level namespace never reaches the metastore */
    FT_EQ_INT(floe_catalog_create_namespace(c, "a.b", NULL), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot support multi part namespace in Hive Metastore: a.b");
    /* a metastore swaps one table at a time: no multi-table transaction
     * (refused before any call) */
    const char *idents[] = {"db.t", "db.u"};
    const char *changes[] = {"{\"requirements\":[],\"updates\":[]}",
                             "{\"requirements\":[],\"updates\":[]}"};
    FT_EQ_INT(floe_catalog_commit_transaction(c, 2, idents, changes, NULL), FLOE_EUNSUPPORTED);
    FT_ERR_CONTAINS("cannot commit several tables atomically");
    floe_catalog_free(c);
    server_stop(&s);
    FT_EQ_INT(s.done, 4);
    FT_EQ_STR(s.got[1], "drop_database");
}

static void test_garbage_and_reconnect(void)
{
    static const uint8_t garbage[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
    uint8_t r3[sizeof REPLY_TABLE];
    memcpy(r3, REPLY_TABLE, sizeof r3);
    r3[20] = 2; /* the call sent again is the same message, seqid 2 */
    const step steps[] = {{"get_table", garbage, sizeof garbage - 1},
                          {"get_table", NULL, 0}, /* dropped: a read is sent again */
                          {"get_table", r3, sizeof r3}};
    server s;
    FT_ASSERT(server_start(&s, steps, 3, false));
    floe_catalog *c = NULL;
    FT_OK(open_at(&c, &s, false));
    char *loc = NULL;
    FT_EQ_INT(floe_catalog_load_table(&loc, NULL, c, "db.t"), FLOE_ECORRUPT);
    FT_ERR_CONTAINS("not the Thrift binary protocol");
    FT_OK(floe_catalog_load_table(&loc, NULL, c, "db.t"));
    FT_EQ_STR(loc, "s3://b/m.json");
    floe_string_free(loc);
    floe_catalog_free(c);
    server_stop(&s);
    FT_EQ_INT(s.done, 3);
}

/* The alter_table request was sent and the connection dropped before the
 * answer: floe reconnects and reads the table; still at the base, the
 * outcome is unknown (FLOE_ECOMMITUNKNOWN: no file may be deleted), and the
 * lock is released. A base that moved is a lost race (FLOE_ECONFLICT) with
 * Java's message, and no alter is sent. */
static void test_commit_unknown(void)
{
    /* LockResponse {1: lockid 7, 2: state ACQUIRED} */
    static const uint8_t lockres[] = {12, 0, 0, 10, 0, 1, 0, 0, 0, 0, 0, 0,
                                      0,  7, 8, 0,  2, 0, 0, 0, 1, 0, 0};
    static const uint8_t none[] = {0};
    uint8_t r1[64], r2[sizeof REPLY_TABLE], r4[sizeof REPLY_TABLE], r5[64];
    size_t n1 = reply(r1, "lock", 1, lockres, sizeof lockres);
    memcpy(r2, REPLY_TABLE, sizeof r2);
    r2[20] = 2;
    memcpy(r4, REPLY_TABLE, sizeof r4);
    r4[20] = 4;
    size_t n5 = reply(r5, "unlock", 5, none, sizeof none);
    const step steps[] = {{"lock", r1, n1},
                          {"get_table", r2, sizeof r2},
                          {"alter_table_with_environment_context", NULL, 0},
                          {"get_table", r4, sizeof r4},
                          {"unlock", r5, n5}};
    server s;
    FT_ASSERT(server_start(&s, steps, 5, false));
    floe_catalog *c = NULL;
    FT_OK(open_at(&c, &s, false));
    FT_EQ_INT(floe_catalog_commit_table(c, "db.t", "s3://b/m.json", "s3://b/m2.json"),
              FLOE_ECOMMITUNKNOWN);
    FT_ERR_CONTAINS("outcome unknown");
    floe_catalog_free(c);
    server_stop(&s);
    FT_EQ_INT(s.done, 5);
    FT_EQ_STR(s.got[2], "alter_table_with_environment_context");
    FT_EQ_STR(s.got[4], "unlock");

    /* the base moved: no alter, unlock, Java's CommitFailedException message */
    n1 = reply(r1, "lock", 1, lockres, sizeof lockres);
    n5 = reply(r5, "unlock", 3, none, sizeof none);
    const step moved[] = {{"lock", r1, n1}, {"get_table", r2, sizeof r2}, {"unlock", r5, n5}};
    FT_ASSERT(server_start(&s, moved, 3, false));
    FT_OK(open_at(&c, &s, false));
    FT_EQ_INT(floe_catalog_commit_table(c, "db.t", "s3://b/other.json", "s3://b/m2.json"),
              FLOE_ECONFLICT);
    FT_ERR_CONTAINS("Cannot commit: Base metadata location 's3://b/other.json' is not same as "
                    "the current table metadata location 's3://b/m.json' for db.t");
    floe_catalog_free(c);
    server_stop(&s);
    FT_EQ_INT(s.done, 3);
    FT_EQ_STR(s.got[2], "unlock");
}

static void test_framed(void)
{
    const step steps[] = {{"get_table", REPLY_TABLE, sizeof REPLY_TABLE}};
    server s;
    FT_ASSERT(server_start(&s, steps, 1, true));
    floe_catalog *c = NULL;
    FT_OK(open_at(&c, &s, true));
    char *loc = NULL;
    FT_OK(floe_catalog_load_table(&loc, NULL, c, "db.t"));
    FT_EQ_STR(loc, "s3://b/m.json");
    floe_string_free(loc);
    floe_catalog_free(c);
    server_stop(&s);
}

static void test_open_errors(void)
{
    floe_catalog *c = NULL;
    FT_EQ_INT(floe_catalog_open_hive(&c, "http://127.0.0.1:1", NULL), FLOE_EINVALID);
    FT_ERR_CONTAINS("expected thrift://host:port");
    FT_EQ_INT(floe_catalog_open_hive(&c, "thrift://127.0.0.1:x", NULL), FLOE_EINVALID);
    /* a port nobody listens on (bound, never listening) */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t sl = sizeof sa;
    FT_ASSERT(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 &&
              getsockname(fd, (struct sockaddr *)&sa, &sl) == 0);
    char uri[64];
    snprintf(uri, sizeof uri, "thrift://127.0.0.1:%d", ntohs(sa.sin_port));
    FT_EQ_INT(floe_catalog_open_hive(&c, uri, NULL), FLOE_EIO);
    FT_ERR_CONTAINS("Could not connect to Hive Metastore");
    close(fd);
    FT_CHECK(c == NULL);
}

static const ft_case cases[] = {
    {"encode_call", test_encode_call},
    {"decode_reply", test_decode_reply},
    {"decode_hostile", test_decode_hostile},
    {"exceptions_mapped", test_exceptions_mapped},
    {"garbage_and_reconnect", test_garbage_and_reconnect},
    {"framed", test_framed},
    {"commit_unknown", test_commit_unknown},
    {"open_errors", test_open_errors},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
