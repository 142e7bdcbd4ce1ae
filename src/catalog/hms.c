/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The `hive` catalog: a client of the Hive Metastore (HMS) Thrift service
 * (ThriftHiveMetastore in Hive's hive_metastore.thrift) keeping Iceberg's
 * HiveCatalog conventions, so Spark's / Java's HiveCatalog and floe share
 * tables in one metastore:
 *
 *   namespace        = an HMS database (one level); its properties are the
 *                      database parameters plus location (locationUri),
 *                      comment (description), hive.metastore.database.owner
 *                      and hive.metastore.database.owner-type;
 *   table            = an HMS table of type EXTERNAL_TABLE with parameters
 *                      EXTERNAL=TRUE, table_type=ICEBERG, metadata_location,
 *                      previous_metadata_location; storage descriptor as Java
 *                      writes it (FileInputFormat / FileOutputFormat /
 *                      LazySimpleSerDe, location = the table location);
 *   commit           = HiveTableOperations: an EXCLUSIVE table lock (lock,
 *                      check_lock until ACQUIRED, heartbeat while waiting),
 *                      get_table, compare metadata_location with the base,
 *                      alter_table_with_environment_context with the new
 *                      pointer, unlock. Lock-free mode
 *                      (engine.hive.lock-enabled=false) sends Hive 4's
 *                      expected_parameter_key/value in the environment
 *                      context instead: the metastore then does the
 *                      compare-and-set (older metastores ignore it).
 *
 * Transport: TCP, the binary protocol (thrift_binary.c), buffered (Hive's
 * default) or framed; connect and read timeouts; a broken connection is
 * reopened once — and the call retried when it only reads, or when the
 * request was never completely sent.
 */
#include "catalog.h"
#include "spec/spec.h"
#include "thrift_binary.h"
#include "util/json_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define HMS_MAX_REPLY (256u << 20)

/* Field ids of hive_metastore.thrift (checked against the Hive 2.3 classes). */
enum { DB_NAME = 1, DB_DESCRIPTION = 2, DB_LOCATION = 3, DB_PARAMS = 4, DB_OWNER = 6, DB_OWNER_TYPE = 7 };
enum {
    T_NAME = 1, T_DB = 2, T_OWNER = 3, T_CREATE_TIME = 4, T_ACCESS_TIME = 5, T_RETENTION = 6,
    T_SD = 7, T_PART_KEYS = 8, T_PARAMS = 9, T_TYPE = 12
};
enum { SD_COLS = 1, SD_LOCATION = 2, SD_INPUT = 3, SD_OUTPUT = 4, SD_COMPRESSED = 5, SD_BUCKETS = 6,
       SD_SERDE = 7, SD_BUCKET_COLS = 8, SD_SORT_COLS = 9, SD_PARAMS = 10 };
enum { LOCK_ACQUIRED = 1, LOCK_WAITING = 2, LOCK_ABORT = 3, LOCK_NOT_ACQUIRED = 4 };
enum { LOCKTYPE_EXCLUSIVE = 3, LOCKLEVEL_TABLE = 2 };
enum { PRINCIPAL_USER = 1, PRINCIPAL_ROLE = 2, PRINCIPAL_GROUP = 3 };

#define OWNER_KEY "hive.metastore.database.owner"
#define OWNER_TYPE_KEY "hive.metastore.database.owner-type"

typedef struct hms_addr {
    char *host;
    char *port;
} hms_addr;

typedef struct hms {
    pthread_mutex_t lock; /* one connection, one call at a time */
    hms_addr *addrs;
    size_t naddrs;
    char *uri;
    int fd;
    int32_t seq;
    floe_hive_catalog_options o;
    floe_buf req, resp;
    floe_arena *arena; /* the last reply's values */
    char user[128];
    char host[256];
} hms;

static hms *impl(floe_catalog *c)
{
    return c->impl;
}

/* ---------------------------------------------------------------- transport */

static void disconnect(hms *h)
{
    if (h->fd >= 0)
        close(h->fd);
    h->fd = -1;
}

static int connect_one(hms *h, const hms_addr *a)
{
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int g = getaddrinfo(a->host, a->port, &hints, &res);
    if (g != 0)
        return floe__error(FLOE_EIO, "catalog", "Hive Metastore %s:%s: %s", a->host, a->port,
                           gai_strerror(g));
    int rc = FLOE_EIO, err = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        int fl = fcntl(fd, F_GETFL, 0);
        (void)fcntl(fd, F_SETFL, fl | O_NONBLOCK);
        int r = connect(fd, ai->ai_addr, ai->ai_addrlen);
        if (r < 0 && errno == EINPROGRESS) {
            struct pollfd p = {fd, POLLOUT, 0};
            r = poll(&p, 1, (int)h->o.timeout_ms);
            if (r == 0) {
                err = ETIMEDOUT;
                r = -1;
            } else if (r > 0) {
                socklen_t len = sizeof err;
                err = 0;
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
                r = err ? -1 : 0;
            } else {
                err = errno;
            }
        } else if (r < 0) {
            err = errno;
        }
        if (r == 0) {
            (void)fcntl(fd, F_SETFL, fl);
            struct timeval tv = {h->o.timeout_ms / 1000, (h->o.timeout_ms % 1000) * 1000};
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
            int one = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            h->fd = fd;
            rc = 0;
            break;
        }
        close(fd);
    }
    freeaddrinfo(res);
    if (rc < 0)
        return floe__error(FLOE_EIO, "catalog", "Could not connect to Hive Metastore %s:%s: %s",
                           a->host, a->port, strerror(err ? err : ECONNREFUSED));
    return 0;
}

/* Like Hive's client: the URIs in order, the first that answers. */
static int ensure_connected(hms *h)
{
    if (h->fd >= 0)
        return 0;
    int rc = FLOE_EIO;
    for (size_t i = 0; i < h->naddrs; i++) {
        if ((rc = connect_one(h, &h->addrs[i])) == 0)
            return 0;
    }
    return rc;
}

static int send_all(hms *h, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(h->fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return floe__error(FLOE_EIO, "catalog", "Hive Metastore %s: write failed: %s", h->uri,
                               w < 0 ? strerror(errno) : "connection closed");
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Read at least one more byte into resp (up to `want` when > 0). */
static int recv_some(hms *h, size_t want)
{
    size_t chunk = want ? want : 65536;
    FLOE_TRY(floe__buf_reserve(&h->resp, chunk));
    for (;;) {
        ssize_t r = recv(h->fd, h->resp.ptr + h->resp.len, chunk, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return floe__error(FLOE_EIO, "catalog",
                               "Hive Metastore %s: read timed out after %ld ms", h->uri,
                               h->o.timeout_ms);
        if (r <= 0)
            return floe__error(FLOE_EIO, "catalog", "Hive Metastore %s: read failed: %s", h->uri,
                               r < 0 ? strerror(errno) : "connection closed by the metastore");
        h->resp.len += (size_t)r;
        return 0;
    }
}

static int recv_exact(hms *h, size_t n)
{
    size_t goal = h->resp.len + n;
    while (h->resp.len < goal)
        FLOE_TRY(recv_some(h, goal - h->resp.len));
    return 0;
}

/* One reply message into *msg (values in h->arena). */
static int read_reply(hms *h, floe_tbmsg *msg)
{
    floe__buf_clear(&h->resp);
    floe__arena_reset(h->arena);
    size_t used = 0;
    bool truncated = false;
    if (h->o.framed) {
        FLOE_TRY(recv_exact(h, 4));
        const uint8_t *b = (const uint8_t *)h->resp.ptr;
        uint32_t n = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
        if (n > HMS_MAX_REPLY)
            return floe__error(FLOE_ECORRUPT, "catalog",
                               "Hive Metastore %s: frame of %u bytes (not a framed Thrift "
                               "transport? try without framed)",
                               h->uri, n);
        FLOE_TRY(recv_exact(h, n));
        int rc = floe__tbdec_message((const uint8_t *)h->resp.ptr + 4, n, h->arena, h->uri, msg,
                                     &used, &truncated);
        if (rc == 0 && used != n)
            rc = floe__error(FLOE_ECORRUPT, "catalog",
                             "Hive Metastore %s: %u bytes left over in a reply frame", h->uri,
                             n - (uint32_t)used);
        return rc;
    }
    for (;;) {
        if (h->resp.len) {
            floe__arena_reset(h->arena);
            int rc = floe__tbdec_message((const uint8_t *)h->resp.ptr, h->resp.len, h->arena,
                                         h->uri, msg, &used, &truncated);
            if (rc == 0 || !truncated)
                return rc;
            floe_error_clear();
        }
        if (h->resp.len > HMS_MAX_REPLY)
            return floe__error(FLOE_ECORRUPT, "catalog", "Hive Metastore %s: reply too large",
                               h->uri);
        FLOE_TRY(recv_some(h, 0));
    }
}

/* ---------------------------------------------------------------- calls */

/* Exception names of a call's result fields o1.. (hive_metastore.thrift). */
typedef struct call_spec {
    const char *name;
    bool reads_only; /* safe to send again after a broken connection */
    const char *exc[4];
} call_spec;

static const call_spec C_GET_ALL_DATABASES = {"get_all_databases", true, {"MetaException"}};
static const call_spec C_GET_DATABASE = {"get_database", true,
                                         {"NoSuchObjectException", "MetaException"}};
static const call_spec C_CREATE_DATABASE = {
    "create_database", false, {"AlreadyExistsException", "InvalidObjectException", "MetaException"}};
static const call_spec C_DROP_DATABASE = {
    "drop_database", false,
    {"NoSuchObjectException", "InvalidOperationException", "MetaException"}};
static const call_spec C_ALTER_DATABASE = {"alter_database", false,
                                           {"MetaException", "NoSuchObjectException"}};
static const call_spec C_GET_TABLES = {"get_tables", true, {"MetaException"}};
static const call_spec C_GET_TABLE_OBJECTS = {"get_table_objects_by_name", true,
                                              {"MetaException", "InvalidOperationException",
                                               "UnknownDBException"}};
static const call_spec C_GET_TABLE = {"get_table", true, {"MetaException", "NoSuchObjectException"}};
static const call_spec C_CREATE_TABLE = {"create_table",
                                         false,
                                         {"AlreadyExistsException", "InvalidObjectException",
                                          "MetaException", "NoSuchObjectException"}};
static const call_spec C_ALTER_TABLE = {"alter_table_with_environment_context", false,
                                        {"InvalidOperationException", "MetaException"}};
static const call_spec C_DROP_TABLE = {"drop_table", false,
                                       {"NoSuchObjectException", "MetaException"}};
static const call_spec C_LOCK = {"lock", false, {"NoSuchTxnException", "TxnAbortedException"}};
static const call_spec C_CHECK_LOCK = {
    "check_lock", true, {"NoSuchTxnException", "TxnAbortedException", "NoSuchLockException"}};
static const call_spec C_UNLOCK = {"unlock", false, {"NoSuchLockException", "TxnOpenException"}};
static const call_spec C_HEARTBEAT = {
    "heartbeat", true, {"NoSuchLockException", "NoSuchTxnException", "TxnAbortedException"}};

typedef struct reply {
    const floe_tbval *res; /* the result struct */
    const char *exc;       /* exception class, NULL when the call succeeded */
    const char *msg;       /* its message */
    bool sent;             /* the request reached the socket whole */
} reply;

/* Start a request: message header, then the caller writes the args fields. */
static floe_tbenc *call_begin(hms *h, const call_spec *cs, floe_tbenc *e)
{
    floe__buf_clear(&h->req);
    floe__tbenc_init(e, &h->req);
    if (h->o.framed)
        floe__tbenc_i32(e, 0); /* frame length, patched in call_end */
    floe__tbenc_message(e, cs->name, FLOE_TB_CALL, ++h->seq);
    return e;
}

static int call_end(hms *h, const call_spec *cs, floe_tbenc *e, reply *out)
{
    memset(out, 0, sizeof *out);
    floe__tbenc_stop(e); /* end of the args struct */
    if (e->rc < 0)
        return e->rc;
    if (h->o.framed) {
        uint32_t n = (uint32_t)h->req.len - 4;
        uint8_t *b = (uint8_t *)h->req.ptr;
        b[0] = (uint8_t)(n >> 24), b[1] = (uint8_t)(n >> 16), b[2] = (uint8_t)(n >> 8),
        b[3] = (uint8_t)n;
    }
    floe_tbmsg msg;
    int rc = FLOE_EIO;
    for (int attempt = 0; attempt < 2; attempt++) {
        out->sent = false;
        if ((rc = ensure_connected(h)) < 0)
            return rc;
        rc = send_all(h, h->req.ptr, h->req.len);
        if (rc == 0) {
            out->sent = true;
            rc = read_reply(h, &msg);
        }
        if (rc == 0)
            break;
        disconnect(h);
        if (rc != FLOE_EIO || (out->sent && !cs->reads_only) || attempt == 1)
            return floe__error_context("Hive Metastore call %s", cs->name);
        floe_error_clear();
    }
    if (msg.type == FLOE_TB_EXCEPTION) {
        /* TApplicationException {1: message, 2: type} */
        const char *m = floe__tb_string(&msg.body, 1);
        return floe__error(FLOE_EIO, "catalog", "Hive Metastore %s: %s failed: %s", h->uri,
                           cs->name, m ? m : "TApplicationException");
    }
    if (msg.type != FLOE_TB_REPLY || msg.seqid != h->seq || !msg.name ||
        strcmp(msg.name, cs->name) != 0) {
        disconnect(h);
        return floe__error(FLOE_ECORRUPT, "catalog",
                           "Hive Metastore %s: reply to %s does not match the call (got %s #%d)",
                           h->uri, cs->name, msg.name ? msg.name : "?", (int)msg.seqid);
    }
    for (uint32_t i = 0; i < msg.body.n; i++) {
        const floe_tbval *f = &msg.body.items[i];
        if (f->id >= 1 && f->id <= 4 && f->type == FLOE_TB_STRUCT) {
            out->exc = cs->exc[f->id - 1] ? cs->exc[f->id - 1] : "TException";
            const char *m = floe__tb_string(f, 1);
            out->msg = m ? m : "";
        }
    }
    /* msg.body lives in the arena; keep a stable copy of the struct head. */
    floe_tbval *keep = floe__arena_memdup(h->arena, &msg.body, sizeof msg.body);
    if (!keep)
        return floe__error_nomem();
    out->res = keep;
    return 0;
}

static bool is_exc(const reply *r, const char *name)
{
    return r->exc && strcmp(r->exc, name) == 0;
}

static int metastore_error(hms *h, const reply *r, const char *what)
{
    return floe__error(FLOE_EIO, "catalog", "Metastore operation failed for %s: %s: %s (%s)", what,
                       r->exc, r->msg, h->uri);
}

/* ---------------------------------------------------------------- names */

static int one_level(const char *ns)
{
    return strchr(ns, '.') == NULL;
}

static int ns_missing(const char *ns)
{
    return floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE, "catalog",
                          "Namespace does not exist: %s", ns);
}

static int table_missing(const char *ns, const char *name)
{
    return floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_TABLE, "catalog",
                          "Table does not exist: %s.%s", ns, name);
}

/* ---------------------------------------------------------------- databases */

static int get_database(hms *h, const char *db, reply *r)
{
    floe_tbenc e;
    floe__tbenc_field_string(call_begin(h, &C_GET_DATABASE, &e), 1, db);
    return call_end(h, &C_GET_DATABASE, &e, r);
}

/* get_database with its exceptions mapped: 0 with the Database in r->res. */
static int load_database(hms *h, const char *ns, reply *r)
{
    FLOE_TRY(get_database(h, ns, r));
    if (is_exc(r, "NoSuchObjectException"))
        return ns_missing(ns);
    if (r->exc)
        return metastore_error(h, r, ns);
    return 0;
}

static const char *owner_type_name(int64_t t)
{
    return t == PRINCIPAL_ROLE ? "ROLE" : t == PRINCIPAL_GROUP ? "GROUP" : "USER";
}

static int owner_type_code(const char *s, int32_t *out)
{
    if (strcmp(s, "USER") == 0)
        *out = PRINCIPAL_USER;
    else if (strcmp(s, "ROLE") == 0)
        *out = PRINCIPAL_ROLE;
    else if (strcmp(s, "GROUP") == 0)
        *out = PRINCIPAL_GROUP;
    else
        return floe__error(FLOE_EINVALID, "catalog",
                           "No enum constant org.apache.hadoop.hive.metastore.api.PrincipalType.%s",
                           s);
    return 0;
}

/* A namespace property into a Hive Database (HiveCatalog.convertToDatabase):
 * the reserved keys into their fields, the rest into the parameters. */
typedef struct db_fields {
    const char *comment, *location, *owner;
    int32_t owner_type;
} db_fields;

static int db_set_prop(db_fields *f, floe_props *params, const char *k, const char *v)
{
    if (strcmp(k, "comment") == 0)
        f->comment = v;
    else if (strcmp(k, "location") == 0)
        f->location = v;
    else if (strcmp(k, OWNER_KEY) == 0)
        f->owner = v;
    else if (strcmp(k, OWNER_TYPE_KEY) == 0)
        return v ? owner_type_code(v, &f->owner_type) : 0;
    else if (v)
        return floe__props_set(params, k, v);
    return 0;
}

static int hms_create_namespace(floe_catalog *c, const char *ns, const floe_props *props)
{
    hms *h = impl(c);
    if (!one_level(ns))
        return floe__error(FLOE_EINVALID, "catalog",
                           "Cannot support multi part namespace in Hive Metastore: %s", ns);
    db_fields f = {NULL, NULL, NULL, PRINCIPAL_USER};
    floe_props params = FLOE_PROPS_INIT;
    int rc = 0;
    for (size_t i = 0; props && i < props->n && rc == 0; i++)
        rc = db_set_prop(&f, &params, props->items[i].key, props->items[i].value);
    const char *comment = f.comment, *location = f.location, *owner = f.owner;
    int32_t ot = f.owner_type;
    char *defloc = NULL;
    if (rc == 0 && !location && c->warehouse) {
        if (!(defloc = floe__sprintf("%s/%s.db", c->warehouse, ns)))
            rc = FLOE_ENOMEM;
        location = defloc;
    }
    if (rc == 0) {
        pthread_mutex_lock(&h->lock);
        floe_tbenc e;
        call_begin(h, &C_CREATE_DATABASE, &e);
        floe__tbenc_field(&e, FLOE_TB_STRUCT, 1);
        floe__tbenc_field_string(&e, DB_NAME, ns);
        floe__tbenc_field_string(&e, DB_DESCRIPTION, comment);
        floe__tbenc_field_string(&e, DB_LOCATION, location);
        floe__tbenc_field_props(&e, DB_PARAMS, &params);
        floe__tbenc_field_string(&e, DB_OWNER, owner ? owner : h->user);
        floe__tbenc_field_i32(&e, DB_OWNER_TYPE, owner ? ot : PRINCIPAL_USER);
        floe__tbenc_stop(&e);
        reply r;
        rc = call_end(h, &C_CREATE_DATABASE, &e, &r);
        if (rc == 0 && is_exc(&r, "AlreadyExistsException"))
            rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                                "Namespace already exists: %s", ns);
        else if (rc == 0 && r.exc)
            rc = floe__error(FLOE_EINVALID, "catalog", "Cannot create namespace %s: %s: %s", ns,
                             r.exc, r.msg);
        pthread_mutex_unlock(&h->lock);
    }
    floe__free(defloc);
    floe__props_free(&params);
    return rc;
}

static int hms_namespace_exists(floe_catalog *c, const char *ns)
{
    hms *h = impl(c);
    if (!one_level(ns))
        return 0;
    pthread_mutex_lock(&h->lock);
    reply r;
    int rc = get_database(h, ns, &r);
    if (rc == 0)
        rc = !r.exc ? 1 : is_exc(&r, "NoSuchObjectException") ? 0 : metastore_error(h, &r, ns);
    pthread_mutex_unlock(&h->lock);
    return rc;
}

static int db_to_props(const floe_tbval *db, floe_props *out)
{
    FLOE_TRY(floe__tb_props(db, DB_PARAMS, out));
    const char *loc = floe__tb_string(db, DB_LOCATION);
    const char *desc = floe__tb_string(db, DB_DESCRIPTION);
    const char *owner = floe__tb_string(db, DB_OWNER);
    if (loc)
        FLOE_TRY(floe__props_set(out, "location", loc));
    if (desc)
        FLOE_TRY(floe__props_set(out, "comment", desc));
    if (owner) {
        FLOE_TRY(floe__props_set(out, OWNER_KEY, owner));
        FLOE_TRY(floe__props_set(
            out, OWNER_TYPE_KEY,
            owner_type_name(floe__tb_int(db, DB_OWNER_TYPE, FLOE_TB_I32, PRINCIPAL_USER))));
    }
    return 0;
}

static int hms_load_namespace(floe_catalog *c, const char *ns, floe_props *out)
{
    hms *h = impl(c);
    if (!one_level(ns))
        return ns_missing(ns);
    pthread_mutex_lock(&h->lock);
    reply r;
    int rc = load_database(h, ns, &r);
    if (rc == 0)
        rc = db_to_props(floe__tb_field(r.res, 0, FLOE_TB_STRUCT), out);
    pthread_mutex_unlock(&h->lock);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A list<string> result into owned strings. */
static int strings_of(const floe_tbval *list, floe_vec *out)
{
    for (uint32_t i = 0; list && list->etype == FLOE_TB_STRING && i < list->n; i++) {
        char **slot = floe__vec_push(out);
        if (!slot || !(*slot = floe__strdup(list->items[i].s)))
            return floe__error_nomem();
    }
    return 0;
}

static int hms_list_namespaces(floe_catalog *c, const char *parent, floe_vec *out)
{
    hms *h = impl(c);
    if (parent && *parent) {
        /* Hive databases have no children. */
        int ex = hms_namespace_exists(c, parent);
        return ex < 0 ? ex : ex ? 0 : ns_missing(parent);
    }
    pthread_mutex_lock(&h->lock);
    floe_tbenc e;
    call_begin(h, &C_GET_ALL_DATABASES, &e);
    reply r;
    int rc = call_end(h, &C_GET_ALL_DATABASES, &e, &r);
    if (rc == 0 && r.exc)
        rc = metastore_error(h, &r, "get_all_databases");
    if (rc == 0)
        rc = strings_of(floe__tb_field(r.res, 0, FLOE_TB_LIST), out);
    pthread_mutex_unlock(&h->lock);
    if (rc == 0 && out->len > 1)
        qsort(out->items, out->len, sizeof(char *), cmp_str);
    return rc;
}

static int hms_update_namespace(floe_catalog *c, const char *ns, const floe_props *updates,
                                const char *const *removals, size_t nremovals)
{
    hms *h = impl(c);
    if (!one_level(ns))
        return ns_missing(ns);
    pthread_mutex_lock(&h->lock);
    reply r;
    int rc = load_database(h, ns, &r);
    floe_props params = FLOE_PROPS_INIT;
    const floe_tbval *db = rc == 0 ? floe__tb_field(r.res, 0, FLOE_TB_STRUCT) : NULL;
    if (rc == 0)
        rc = floe__tb_props(db, DB_PARAMS, &params);
    const char *location = db ? floe__tb_string(db, DB_LOCATION) : NULL;
    const char *comment = db ? floe__tb_string(db, DB_DESCRIPTION) : NULL;
    const char *owner = db ? floe__tb_string(db, DB_OWNER) : NULL;
    int32_t ot = (int32_t)(db ? floe__tb_int(db, DB_OWNER_TYPE, FLOE_TB_I32, PRINCIPAL_USER) : 1);
    for (size_t i = 0; rc == 0 && i < nremovals; i++) {
        if (strcmp(removals[i], "location") == 0)
            rc = floe__error(FLOE_EINVALID, "catalog",
                             "Cannot remove the location of a Hive database: %s", ns);
        else if (strcmp(removals[i], "comment") == 0)
            comment = NULL;
        else if (strcmp(removals[i], OWNER_KEY) == 0)
            owner = h->user, ot = PRINCIPAL_USER;
        else
            floe__props_del(&params, removals[i]);
    }
    db_fields f = {comment, location, owner, ot};
    for (size_t i = 0; rc == 0 && updates && i < updates->n; i++)
        rc = db_set_prop(&f, &params, updates->items[i].key, updates->items[i].value);
    comment = f.comment, location = f.location, owner = f.owner, ot = f.owner_type;
    if (rc == 0) {
        /* The reply's strings live in the arena the next call resets:
         * encode the new Database before sending. */
        floe_buf keep = FLOE_BUF_INIT;
        floe_tbenc ke;
        floe__tbenc_init(&ke, &keep);
        static const int16_t skip[] = {DB_DESCRIPTION, DB_LOCATION, DB_PARAMS, DB_OWNER,
                                       DB_OWNER_TYPE};
        floe__tbenc_fields_except(&ke, db, skip, 5);
        floe__tbenc_field_string(&ke, DB_DESCRIPTION, comment);
        floe__tbenc_field_string(&ke, DB_LOCATION, location);
        floe__tbenc_field_props(&ke, DB_PARAMS, &params);
        floe__tbenc_field_string(&ke, DB_OWNER, owner);
        if (owner)
            floe__tbenc_field_i32(&ke, DB_OWNER_TYPE, ot);
        floe__tbenc_stop(&ke);
        rc = ke.rc;
        if (rc == 0) {
            floe_tbenc e;
            call_begin(h, &C_ALTER_DATABASE, &e);
            floe__tbenc_field_string(&e, 1, ns);
            floe__tbenc_field(&e, FLOE_TB_STRUCT, 2);
            if (e.rc == 0 && floe__buf_put(e.out, keep.ptr, keep.len) < 0)
                e.rc = FLOE_ENOMEM;
            rc = call_end(h, &C_ALTER_DATABASE, &e, &r);
            if (rc == 0 && is_exc(&r, "NoSuchObjectException"))
                rc = ns_missing(ns);
            else if (rc == 0 && r.exc)
                rc = metastore_error(h, &r, ns);
        }
        floe__buf_free(&keep);
    }
    floe__props_free(&params);
    pthread_mutex_unlock(&h->lock);
    return rc;
}

static int hms_drop_namespace(floe_catalog *c, const char *ns)
{
    hms *h = impl(c);
    if (!one_level(ns))
        return ns_missing(ns);
    pthread_mutex_lock(&h->lock);
    floe_tbenc e;
    call_begin(h, &C_DROP_DATABASE, &e);
    floe__tbenc_field_string(&e, 1, ns);
    floe__tbenc_field_bool(&e, 2, false); /* deleteData */
    floe__tbenc_field_bool(&e, 3, false); /* cascade */
    reply r;
    int rc = call_end(h, &C_DROP_DATABASE, &e, &r);
    if (rc == 0 && is_exc(&r, "NoSuchObjectException"))
        rc = ns_missing(ns);
    else if (rc == 0 && is_exc(&r, "InvalidOperationException"))
        rc = floe__error_as(FLOE_EINVALID, FLOE_KIND_NAMESPACE_NOT_EMPTY, "catalog",
                            "Namespace %s is not empty. One or more tables exist.", ns);
    else if (rc == 0 && r.exc)
        rc = metastore_error(h, &r, ns);
    pthread_mutex_unlock(&h->lock);
    return rc;
}

/* ---------------------------------------------------------------- tables */

static int get_table(hms *h, const char *db, const char *name, reply *r)
{
    floe_tbenc e;
    call_begin(h, &C_GET_TABLE, &e);
    floe__tbenc_field_string(&e, 1, db);
    floe__tbenc_field_string(&e, 2, name);
    return call_end(h, &C_GET_TABLE, &e, r);
}

static bool is_iceberg(const floe_tbval *tbl)
{
    const floe_tbval *m = floe__tb_field(tbl, T_PARAMS, FLOE_TB_MAP);
    for (uint32_t i = 0; m && m->ktype == FLOE_TB_STRING && i + 1 < m->n; i += 2)
        if (strcmp(m->items[i].s, "table_type") == 0)
            return m->items[i + 1].type == FLOE_TB_STRING &&
                   strcasecmp(m->items[i + 1].s, "ICEBERG") == 0;
    return false;
}

/* The Table of a get_table reply, checked to be an Iceberg table: 0 with
 * *tbl set; FLOE_ENOTFOUND when missing or not Iceberg. */
static int load_iceberg(floe_catalog *c, const char *ns, const char *name, reply *r,
                        const floe_tbval **tbl, floe_props *params)
{
    hms *h = impl(c);
    *tbl = NULL;
    if (!one_level(ns))
        return table_missing(ns, name);
    FLOE_TRY(get_table(h, ns, name, r));
    if (is_exc(r, "NoSuchObjectException"))
        return table_missing(ns, name);
    if (r->exc)
        return floe__error(FLOE_EIO, "catalog", "Failed to get table info from metastore %s.%s: %s",
                           ns, name, r->msg);
    const floe_tbval *t = floe__tb_field(r->res, 0, FLOE_TB_STRUCT);
    if (!t)
        return floe__error(FLOE_ECORRUPT, "catalog", "Hive Metastore %s: get_table %s.%s: no table",
                           h->uri, ns, name);
    floe_props p = FLOE_PROPS_INIT;
    int rc = floe__tb_props(t, T_PARAMS, &p);
    if (rc == 0 && !is_iceberg(t)) {
        const char *ty = floe__props_get(&p, "table_type");
        rc = floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_TABLE, "catalog",
                            "Not an iceberg table: %s.%s.%s (type=%s)", c->name, ns, name,
                            ty ? ty : "null");
    }
    if (rc == 0 && params)
        rc = floe__props_copy(params, &p);
    floe__props_free(&p);
    if (rc == 0)
        *tbl = t;
    return rc;
}

static int hms_load_table(floe_catalog *c, const char *ns, const char *name, char **loc,
                          char **prev)
{
    hms *h = impl(c);
    pthread_mutex_lock(&h->lock);
    reply r;
    const floe_tbval *t;
    floe_props p = FLOE_PROPS_INIT;
    int rc = load_iceberg(c, ns, name, &r, &t, &p);
    if (rc == 0) {
        const char *l = floe__props_get(&p, "metadata_location");
        const char *pv = floe__props_get(&p, "previous_metadata_location");
        if (!l)
            rc = floe__error(FLOE_ECORRUPT, "catalog",
                             "Table %s.%s in the Hive Metastore has no metadata_location", ns, name);
        else if (!(*loc = floe__strdup(l)))
            rc = FLOE_ENOMEM;
        else if (prev && pv && !(*prev = floe__strdup(pv)))
            rc = FLOE_ENOMEM;
    }
    floe__props_free(&p);
    pthread_mutex_unlock(&h->lock);
    return rc;
}

static int hms_list_tables(floe_catalog *c, const char *ns, floe_vec *out)
{
    hms *h = impl(c);
    if (!one_level(ns))
        return ns_missing(ns);
    pthread_mutex_lock(&h->lock);
    reply r;
    int rc = load_database(h, ns, &r);
    floe_vec names = FLOE_VEC_INIT(char *);
    if (rc == 0) {
        floe_tbenc e;
        call_begin(h, &C_GET_TABLES, &e);
        floe__tbenc_field_string(&e, 1, ns);
        floe__tbenc_field_string(&e, 2, "*");
        rc = call_end(h, &C_GET_TABLES, &e, &r);
        if (rc == 0 && r.exc)
            rc = metastore_error(h, &r, ns);
        if (rc == 0)
            rc = strings_of(floe__tb_field(r.res, 0, FLOE_TB_LIST), &names);
    }
    if (rc == 0 && names.len) {
        /* Only the Iceberg ones, as HiveCatalog.listTables. */
        floe_tbenc e;
        call_begin(h, &C_GET_TABLE_OBJECTS, &e);
        floe__tbenc_field_string(&e, 1, ns);
        floe__tbenc_field(&e, FLOE_TB_LIST, 2);
        floe__tbenc_list_begin(&e, FLOE_TB_STRING, (uint32_t)names.len);
        for (size_t i = 0; i < names.len; i++)
            floe__tbenc_string(&e, *(char **)floe__vec_at(&names, i));
        rc = call_end(h, &C_GET_TABLE_OBJECTS, &e, &r);
        if (rc == 0 && r.exc)
            rc = metastore_error(h, &r, ns);
        const floe_tbval *list = rc == 0 ? floe__tb_field(r.res, 0, FLOE_TB_LIST) : NULL;
        for (uint32_t i = 0; list && list->etype == FLOE_TB_STRUCT && i < list->n && rc == 0; i++) {
            const floe_tbval *t = &list->items[i];
            const char *tn = floe__tb_string(t, T_NAME);
            if (!tn || !is_iceberg(t))
                continue;
            char **slot = floe__vec_push(out);
            if (!slot || !(*slot = floe__strdup(tn)))
                rc = floe__error_nomem();
        }
    }
    floe__catalog_strvec_free(&names);
    pthread_mutex_unlock(&h->lock);
    if (rc == 0 && out->len > 1)
        qsort(out->items, out->len, sizeof(char *), cmp_str);
    return rc;
}

/* <table location> from .../<table>/metadata/<file>.metadata.json. */
static char *table_location_of(const char *metadata_location)
{
    const char *slash = strrchr(metadata_location, '/');
    if (!slash)
        return floe__strdup(metadata_location);
    size_t n = (size_t)(slash - metadata_location);
    if (n >= 9 && strncmp(metadata_location + n - 9, "/metadata", 9) == 0)
        n -= 9;
    return floe__strndup(metadata_location, n);
}

/* HiveSchemaUtil.convertToTypeString: the Hive type of an Iceberg type, as
 * Java writes it with Hive 2 on the classpath (Spark 3.5's; timestamptz is
 * "timestamp" there). Types Java cannot map are its
 * UnsupportedOperationException. */
static int hive_type(const floe_type *t, floe_buf *out)
{
    switch (t->id) {
    case FLOE_T_BOOLEAN:
        return floe__buf_puts(out, "boolean");
    case FLOE_T_INT:
        return floe__buf_puts(out, "int");
    case FLOE_T_LONG:
        return floe__buf_puts(out, "bigint");
    case FLOE_T_FLOAT:
        return floe__buf_puts(out, "float");
    case FLOE_T_DOUBLE:
        return floe__buf_puts(out, "double");
    case FLOE_T_DATE:
        return floe__buf_puts(out, "date");
    case FLOE_T_TIME:
    case FLOE_T_STRING:
    case FLOE_T_UUID:
        return floe__buf_puts(out, "string");
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
        return floe__buf_puts(out, "timestamp");
    case FLOE_T_FIXED:
    case FLOE_T_BINARY:
        return floe__buf_puts(out, "binary");
    case FLOE_T_VARIANT:
        return floe__buf_puts(out, "unknown");
    case FLOE_T_DECIMAL:
        return floe__buf_printf(out, "decimal(%d,%d)", (int)t->precision, (int)t->scale);
    case FLOE_T_STRUCT:
        FLOE_TRY(floe__buf_puts(out, "struct<"));
        for (size_t i = 0; i < t->nfields; i++) {
            FLOE_TRY(floe__buf_printf(out, "%s%s:", i ? "," : "", t->fields[i].name));
            FLOE_TRY(hive_type(t->fields[i].type, out));
        }
        return floe__buf_puts(out, ">");
    case FLOE_T_LIST:
        FLOE_TRY(floe__buf_puts(out, "array<"));
        FLOE_TRY(hive_type(t->element->type, out));
        return floe__buf_puts(out, ">");
    case FLOE_T_MAP:
        FLOE_TRY(floe__buf_puts(out, "map<"));
        FLOE_TRY(hive_type(t->key->type, out));
        FLOE_TRY(floe__buf_puts(out, ","));
        FLOE_TRY(hive_type(t->value->type, out));
        return floe__buf_puts(out, ">");
    default: {
        floe_buf name = FLOE_BUF_INIT;
        int rc = floe__type_format(t, &name);
        if (rc == 0)
            rc = floe__error(FLOE_EUNSUPPORTED, "catalog", "%.*s is not supported", (int)name.len,
                             name.ptr);
        floe__buf_free(&name);
        return rc;
    }
    }
}

/* HiveSchemaUtil.convert: one FieldSchema {1: name, 2: type, 3: comment}
 * per top-level column of the current schema (none when m is NULL). */
static int enc_cols(floe_tbenc *e, const floe_table_metadata *m)
{
    const floe_schema *sc = m ? floe__metadata_current_schema(m) : NULL;
    size_t n = sc && sc->root ? sc->root->nfields : 0;
    floe__tbenc_field(e, FLOE_TB_LIST, SD_COLS);
    floe__tbenc_list_begin(e, FLOE_TB_STRUCT, (uint32_t)n);
    floe_buf ty = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const floe_field *f = &sc->root->fields[i];
        floe__buf_clear(&ty);
        if ((rc = hive_type(f->type, &ty)) == 0 && (rc = floe__buf_putc(&ty, '\0')) == 0) {
            floe__tbenc_field_string(e, 1, f->name);
            floe__tbenc_field_string(e, 2, ty.ptr);
            floe__tbenc_field_string(e, 3, f->doc);
            floe__tbenc_stop(e);
        }
    }
    floe__buf_free(&ty);
    return rc;
}

static int enc_sd(floe_tbenc *e, const char *location, const floe_table_metadata *m)
{
    /* HiveOperationsBase.storageDescriptor with the Hive engine off. */
    floe__tbenc_field(e, FLOE_TB_STRUCT, T_SD);
    FLOE_TRY(enc_cols(e, m));
    floe__tbenc_field_string(e, SD_LOCATION, location);
    floe__tbenc_field_string(e, SD_INPUT, "org.apache.hadoop.mapred.FileInputFormat");
    floe__tbenc_field_string(e, SD_OUTPUT, "org.apache.hadoop.mapred.FileOutputFormat");
    floe__tbenc_field_bool(e, SD_COMPRESSED, false);
    floe__tbenc_field_i32(e, SD_BUCKETS, 0);
    floe__tbenc_field(e, FLOE_TB_STRUCT, SD_SERDE);
    floe__tbenc_field_string(e, 2, "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
    floe__tbenc_field_props(e, 3, NULL);
    floe__tbenc_stop(e);
    floe__tbenc_field(e, FLOE_TB_LIST, SD_BUCKET_COLS);
    floe__tbenc_list_begin(e, FLOE_TB_STRING, 0);
    floe__tbenc_field(e, FLOE_TB_LIST, SD_SORT_COLS);
    floe__tbenc_list_begin(e, FLOE_TB_STRUCT, 0);
    floe__tbenc_field_props(e, SD_PARAMS, NULL);
    floe__tbenc_stop(e);
    return e->rc;
}

/* ---------------------------------------------------------------- parameters */

#define HMS_TABLE_OWNER "owner"

/* The default spec / sort order of m when it partitions / sorts. */
static const floe_partition_spec *partitioned_spec(const floe_table_metadata *m)
{
    const floe_partition_spec *sp = floe__metadata_spec(m, m->default_spec_id);
    for (size_t i = 0; sp && i < sp->nfields; i++)
        if (sp->fields[i].transform.kind != FLOE_TR_VOID)
            return sp;
    return NULL;
}

/* A JSON value into params[key] when it fits max_size (setField). */
static int set_field(floe_props *params, const char *key, floe_buf *json, long max_size)
{
    floe__props_del(params, key);
    if (max_size <= 0 || json->len > (size_t)max_size)
        return 0;
    FLOE_TRY(floe__buf_putc(json, '\0'));
    return floe__props_set(params, key, json->ptr);
}

/* HMSTablePropertyHelper.updateHmsTableForIcebergTable with the Hive engine
 * off: the Iceberg table properties (but `owner`; gc.enabled as
 * external.table.purge), uuid, the removed ones dropped, table_type,
 * metadata_location, previous_metadata_location, current-schema, Hive's
 * basic stats from the current snapshot's summary, current-snapshot-id,
 * -timestamp-ms, -summary, snapshot-count, default-partition-spec,
 * default-sort-order, and HiveTableOperations' stats switches. */
static int mirror_params(floe_props *p, const char *new_location, const char *previous,
                         const floe_table_metadata *base, const floe_table_metadata *m,
                         long max_size)
{
    for (size_t i = 0; i < m->properties.n; i++) {
        const char *k = m->properties.items[i].key;
        if (strcasecmp(k, HMS_TABLE_OWNER) == 0)
            continue;
        FLOE_TRY(floe__props_set(p, strcmp(k, "gc.enabled") == 0 ? "external.table.purge" : k,
                                 m->properties.items[i].value));
    }
    if (m->table_uuid)
        FLOE_TRY(floe__props_set(p, "uuid", m->table_uuid));
    for (size_t i = 0; base && i < base->properties.n; i++)
        if (!floe__props_get(&m->properties, base->properties.items[i].key))
            floe__props_del(p, base->properties.items[i].key);
    FLOE_TRY(floe__props_set(p, "table_type", "ICEBERG"));
    FLOE_TRY(floe__props_set(p, "metadata_location", new_location));
    if (previous && *previous)
        FLOE_TRY(floe__props_set(p, "previous_metadata_location", previous));
    floe_buf j = FLOE_BUF_INIT;
    const floe_schema *sc = floe__metadata_current_schema(m);
    int rc = sc ? floe__schema_to_json(sc, &j) : 0;
    if (rc == 0)
        rc = set_field(p, "current-schema", &j, sc ? max_size : 0);
    floe__props_del(p, "storage_handler");
    const floe_snapshot *cur = floe__metadata_current_snapshot(m);
    static const char *const stats[][2] = {{"total-data-files", "numFiles"},
                                           {"total-records", "numRows"},
                                           {"total-files-size", "totalSize"}};
    for (size_t i = 0; rc == 0 && cur && i < 3; i++) {
        const char *v = floe__snapshot_summary(cur, stats[i][0]);
        if (v)
            rc = floe__props_set(p, stats[i][1], v);
    }
    floe__props_del(p, "current-snapshot-id");
    floe__props_del(p, "current-snapshot-timestamp-ms");
    floe__props_del(p, "current-snapshot-summary");
    if (rc == 0 && cur && max_size > 0) {
        char num[32];
        snprintf(num, sizeof num, "%lld", (long long)cur->snapshot_id);
        rc = floe__props_set(p, "current-snapshot-id", num);
        snprintf(num, sizeof num, "%lld", (long long)cur->timestamp_ms);
        if (rc == 0)
            rc = floe__props_set(p, "current-snapshot-timestamp-ms", num);
        /* the summary map as Jackson writes it: without "operation" */
        floe__buf_clear(&j);
        floe_jw w;
        floe__jw_init(&w, &j);
        floe__jw_obj(&w);
        const uint8_t *it = cur->summary_packed;
        const char *k, *v;
        while (it && floe__summary_next(&it, &k, &v))
            if (strcmp(k, "operation") != 0)
                floe__jw_kstr(&w, k, v);
        floe__jw_obj_end(&w);
        if (rc == 0)
            rc = floe__jw_finish(&w);
        if (rc == 0)
            rc = set_field(p, "current-snapshot-summary", &j, max_size);
    }
    if (rc == 0) {
        char num[32];
        snprintf(num, sizeof num, "%zu", m->nsnapshots);
        rc = floe__props_set(p, "snapshot-count", num);
    }
    const floe_partition_spec *sp = partitioned_spec(m);
    floe__buf_clear(&j);
    if (rc == 0 && sp)
        rc = floe__partition_spec_to_json(sp, &j);
    if (rc == 0)
        rc = set_field(p, "default-partition-spec", &j, sp ? max_size : 0);
    const floe_sort_order *so = floe__metadata_sort_order(m, m->default_sort_order_id);
    bool sorted = so && so->nfields > 0;
    floe__buf_clear(&j);
    if (rc == 0 && sorted)
        rc = floe__sort_order_to_json(so, &j);
    if (rc == 0)
        rc = set_field(p, "default-sort-order", &j, sorted ? max_size : 0);
    floe__buf_free(&j);
    if (rc == 0) {
        floe__props_del(p, "COLUMN_STATS_ACCURATE");
        rc = floe__props_set(p, "DO_NOT_UPDATE_STATS", "true");
    }
    return rc;
}

static int hms_register_table_md(floe_catalog *c, const char *ns, const char *name,
                                 const char *loc, const floe_table_metadata *m)
{
    hms *h = impl(c);
    if (!one_level(ns))
        return ns_missing(ns);
    char *tloc = m && m->location ? floe__strdup(m->location) : table_location_of(loc);
    if (!tloc)
        return floe__error_nomem();
    floe_props params = FLOE_PROPS_INIT;
    int rc = floe__props_set(&params, "EXTERNAL", "TRUE");
    if (rc == 0)
        rc = floe__props_set(&params, "table_type", "ICEBERG");
    if (rc == 0)
        rc = floe__props_set(&params, "metadata_location", loc);
    if (rc == 0 && m)
        rc = mirror_params(&params, loc, NULL, NULL, m, h->o.table_property_max_size);
    pthread_mutex_lock(&h->lock);
    reply r;
    if (rc == 0) {
        rc = load_database(h, ns, &r);
    }
    if (rc == 0) {
        int32_t now = (int32_t)(floe__now_ms() / 1000);
        floe_tbenc e;
        call_begin(h, &C_CREATE_TABLE, &e);
        floe__tbenc_field(&e, FLOE_TB_STRUCT, 1);
        floe__tbenc_field_string(&e, T_NAME, name);
        floe__tbenc_field_string(&e, T_DB, ns);
        floe__tbenc_field_string(&e, T_OWNER, h->user);
        floe__tbenc_field_i32(&e, T_CREATE_TIME, now);
        floe__tbenc_field_i32(&e, T_ACCESS_TIME, now);
        floe__tbenc_field_i32(&e, T_RETENTION, INT32_MAX);
        enc_sd(&e, tloc, m);
        floe__tbenc_field(&e, FLOE_TB_LIST, T_PART_KEYS);
        floe__tbenc_list_begin(&e, FLOE_TB_STRUCT, 0);
        floe__tbenc_field_props(&e, T_PARAMS, &params);
        floe__tbenc_field_string(&e, T_TYPE, "EXTERNAL_TABLE");
        floe__tbenc_stop(&e);
        rc = call_end(h, &C_CREATE_TABLE, &e, &r);
        if (rc == 0 && is_exc(&r, "AlreadyExistsException"))
            rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                                "Table already exists: %s.%s", ns, name);
        else if (rc == 0 && is_exc(&r, "NoSuchObjectException"))
            rc = ns_missing(ns);
        else if (rc == 0 && r.exc)
            rc = metastore_error(h, &r, name);
    }
    pthread_mutex_unlock(&h->lock);
    floe__props_free(&params);
    floe__free(tloc);
    return rc;
}

static int hms_register_table(floe_catalog *c, const char *ns, const char *name, const char *loc)
{
    return hms_register_table_md(c, ns, name, loc, NULL);
}

/* alter_table_with_environment_context(db, name, table', env): table' is
 * `t` with names and parameters replaced. Sent bytes are built before the
 * call (t lives in the arena the call resets). */
static int alter_table(hms *h, const char *db, const char *name, const floe_tbval *t,
                       const char *new_db, const char *new_name, const floe_props *params,
                       const floe_props *env, const floe_table_metadata *m, reply *r)
{
    floe_buf keep = FLOE_BUF_INIT;
    floe_tbenc ke;
    floe__tbenc_init(&ke, &keep);
    /* with metadata: a new storage descriptor (columns of the schema),
     * as HiveTableOperations sets one on every commit */
    static const int16_t skip[] = {T_NAME, T_DB, T_PARAMS, T_SD};
    floe__tbenc_field_string(&ke, T_NAME, new_name);
    floe__tbenc_field_string(&ke, T_DB, new_db);
    floe__tbenc_fields_except(&ke, t, skip, m ? 4 : 3);
    if (m)
        enc_sd(&ke, m->location, m);
    floe__tbenc_field_props(&ke, T_PARAMS, params);
    floe__tbenc_stop(&ke);
    int rc = ke.rc;
    if (rc == 0) {
        floe_tbenc e;
        call_begin(h, &C_ALTER_TABLE, &e);
        floe__tbenc_field_string(&e, 1, db);
        floe__tbenc_field_string(&e, 2, name);
        floe__tbenc_field(&e, FLOE_TB_STRUCT, 3);
        if (e.rc == 0 && floe__buf_put(e.out, keep.ptr, keep.len) < 0)
            e.rc = FLOE_ENOMEM;
        floe__tbenc_field(&e, FLOE_TB_STRUCT, 4);
        floe__tbenc_field_props(&e, 1, env);
        floe__tbenc_stop(&e);
        rc = call_end(h, &C_ALTER_TABLE, &e, r);
    }
    floe__buf_free(&keep);
    return rc;
}

static int hms_rename_table(floe_catalog *c, const char *from_ns, const char *from_name,
                            const char *to_ns, const char *to_name)
{
    hms *h = impl(c);
    if (!one_level(to_ns))
        return ns_missing(to_ns);
    pthread_mutex_lock(&h->lock);
    reply r;
    int rc = get_database(h, to_ns, &r);
    if (rc == 0 && is_exc(&r, "NoSuchObjectException"))
        rc = floe__error_as(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE, "catalog",
                            "Cannot rename %s.%s to %s.%s. Namespace does not exist: %s", from_ns,
                            from_name, to_ns, to_name, to_ns);
    const floe_tbval *t = NULL;
    floe_props p = FLOE_PROPS_INIT;
    if (rc == 0)
        rc = load_iceberg(c, from_ns, from_name, &r, &t, &p);
    if (rc == 0) {
        rc = alter_table(h, from_ns, from_name, t, to_ns, to_name, &p, NULL, NULL, &r);
        if (rc == 0 && is_exc(&r, "InvalidOperationException") && strstr(r.msg, "already exists"))
            rc = floe__error_as(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "catalog",
                                "Table already exists: %s.%s", to_ns, to_name);
        else if (rc == 0 && r.exc)
            rc = metastore_error(h, &r, from_name);
    }
    floe__props_free(&p);
    pthread_mutex_unlock(&h->lock);
    return rc;
}

static int hms_drop_table(floe_catalog *c, const char *ns, const char *name)
{
    hms *h = impl(c);
    pthread_mutex_lock(&h->lock);
    reply r;
    const floe_tbval *t;
    int rc = load_iceberg(c, ns, name, &r, &t, NULL);
    if (rc == 0) {
        floe_tbenc e;
        call_begin(h, &C_DROP_TABLE, &e);
        floe__tbenc_field_string(&e, 1, ns);
        floe__tbenc_field_string(&e, 2, name);
        floe__tbenc_field_bool(&e, 3, false); /* deleteData: Iceberg deletes its own files */
        rc = call_end(h, &C_DROP_TABLE, &e, &r);
        if (rc == 0 && is_exc(&r, "NoSuchObjectException"))
            rc = table_missing(ns, name);
        else if (rc == 0 && r.exc)
            rc = metastore_error(h, &r, name);
    }
    pthread_mutex_unlock(&h->lock);
    return rc;
}

/* ---------------------------------------------------------------- locks */

static void sleep_ms(int64_t ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

static int lock_call(hms *h, const call_spec *cs, int64_t lockid, reply *r)
{
    floe_tbenc e;
    call_begin(h, cs, &e);
    floe__tbenc_field(&e, FLOE_TB_STRUCT, 1);
    floe__tbenc_field_i64(&e, 1, lockid); /* CheckLockRequest / UnlockRequest / HeartbeatRequest */
    floe__tbenc_stop(&e);
    return call_end(h, cs, &e, r);
}

static void unlock_quietly(hms *h, int64_t lockid)
{
    /* Keep the error being reported (if any) over one from unlocking:
     * a lock left behind expires by the metastore's hive.txn.timeout. */
    reply r;
    const floe_error *err = floe_error_last();
    int code = err ? err->code : 0;
    char *msg = err && err->message ? floe__strdup(err->message) : NULL;
    (void)lock_call(h, &C_UNLOCK, lockid, &r);
    floe_error_clear();
    if (code && msg)
        (void)floe__error(code, "catalog", "%s", msg);
    floe__free(msg);
}

/* MetastoreLock.acquire: lock(), then check_lock() with a backoff from
 * lock-check-min-wait-ms doubling to lock-check-max-wait-ms until ACQUIRED
 * or lock-timeout-ms; the waiting lock is heartbeat every
 * lock-heartbeat-interval-ms. A timeout is a lost race (FLOE_ECONFLICT). */
static int acquire_lock(hms *h, const char *db, const char *name, int64_t *lockid)
{
    char agent[64], uuid[37];
    FLOE_TRY(floe__uuid4(uuid));
    snprintf(agent, sizeof agent, "floe-%s", uuid);
    floe_tbenc e;
    call_begin(h, &C_LOCK, &e);
    floe__tbenc_field(&e, FLOE_TB_STRUCT, 1); /* LockRequest */
    floe__tbenc_field(&e, FLOE_TB_LIST, 1);
    floe__tbenc_list_begin(&e, FLOE_TB_STRUCT, 1);
    floe__tbenc_field_i32(&e, 1, LOCKTYPE_EXCLUSIVE);
    floe__tbenc_field_i32(&e, 2, LOCKLEVEL_TABLE);
    floe__tbenc_field_string(&e, 3, db);
    floe__tbenc_field_string(&e, 4, name);
    floe__tbenc_stop(&e);
    floe__tbenc_field_string(&e, 3, h->user);
    floe__tbenc_field_string(&e, 4, h->host);
    floe__tbenc_field_string(&e, 5, agent);
    floe__tbenc_stop(&e);
    reply r;
    FLOE_TRY(call_end(h, &C_LOCK, &e, &r));
    if (r.exc)
        return floe__error(FLOE_EIO, "catalog", "Metastore operation failed for %s.%s: %s: %s", db,
                           name, r.exc, r.msg);
    const floe_tbval *resp = floe__tb_field(r.res, 0, FLOE_TB_STRUCT);
    *lockid = floe__tb_int(resp, 1, FLOE_TB_I64, -1);
    int64_t state = floe__tb_int(resp, 2, FLOE_TB_I32, 0);
    int64_t start = floe__mono_ns() / 1000000, last_beat = start;
    int64_t wait = h->o.lock_check_min_wait_ms;
    while (state == LOCK_WAITING) {
        int64_t now = floe__mono_ns() / 1000000;
        if (now - start >= h->o.lock_timeout_ms) {
            unlock_quietly(h, *lockid);
            return floe__error(FLOE_ECONFLICT, "catalog",
                               "Timed out after %ld ms waiting for lock on %s.%s",
                               (long)(now - start), db, name);
        }
        sleep_ms(wait);
        wait = wait * 2 > h->o.lock_check_max_wait_ms ? h->o.lock_check_max_wait_ms : wait * 2;
        if (floe__mono_ns() / 1000000 - last_beat >= h->o.lock_heartbeat_interval_ms) {
            last_beat = floe__mono_ns() / 1000000;
            FLOE_TRY(lock_call(h, &C_HEARTBEAT, *lockid, &r));
        }
        FLOE_TRY(lock_call(h, &C_CHECK_LOCK, *lockid, &r));
        if (r.exc)
            return floe__error(FLOE_EIO, "catalog",
                               "Metastore operation failed for %s.%s: %s: %s", db, name, r.exc,
                               r.msg);
        state = floe__tb_int(floe__tb_field(r.res, 0, FLOE_TB_STRUCT), 2, FLOE_TB_I32, 0);
    }
    if (state != LOCK_ACQUIRED) {
        static const char *const names[] = {"?", "ACQUIRED", "WAITING", "ABORT", "NOT_ACQUIRED"};
        unlock_quietly(h, *lockid);
        return floe__error(FLOE_ECONFLICT, "catalog",
                           "Could not acquire the lock on %s.%s, lock request ended in state %s",
                           db, name, state >= 0 && state <= 4 ? names[state] : "?");
    }
    return 0;
}

/* ---------------------------------------------------------------- heartbeat */

/* MetastoreLock's heartbeat: while a commit holds the lock, a thread sends
 * `heartbeat` every lock-heartbeat-interval-ms on a connection of its own
 * (the commit's connection is busy with the commit's calls), so the
 * metastore does not expire the lock (hive.txn.timeout) during a long
 * commit. A failed heartbeat is remembered: ensure_active then fails the
 * commit before the alter (CommitFailedException) or calls it unknown after
 * it (CommitStateUnknownException), as Java does. */
typedef struct heartbeat {
    hms conn; /* a second connection to the same metastore */
    int64_t lockid;
    long interval_ms;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool running, stop;
    char failed[512]; /* the first failure's message, "" when none */
} heartbeat;

static void *beat_main(void *arg)
{
    heartbeat *hb = arg;
    pthread_mutex_lock(&hb->mu);
    while (!hb->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_sec += hb->interval_ms / 1000;
        ts.tv_nsec += (hb->interval_ms % 1000) * 1000000L;
        if (ts.tv_nsec >= 1000000000L)
            ts.tv_sec++, ts.tv_nsec -= 1000000000L;
        int w = 0;
        while (!hb->stop && w != ETIMEDOUT)
            w = pthread_cond_timedwait(&hb->cv, &hb->mu, &ts);
        if (hb->stop)
            break;
        pthread_mutex_unlock(&hb->mu);
        reply r;
        int rc = lock_call(&hb->conn, &C_HEARTBEAT, hb->lockid, &r);
        if (rc == 0 && r.exc)
            rc = floe__error(FLOE_ECONFLICT, "catalog", "%s: %s", r.exc, r.msg);
        char why[400] = "";
        if (rc < 0)
            snprintf(why, sizeof why, "%s",
                     floe_error_last() && floe_error_last()->message ? floe_error_last()->message
                                                                       : "heartbeat failed");
        floe_error_clear();
        pthread_mutex_lock(&hb->mu);
        if (rc < 0 && !hb->failed[0])
            snprintf(hb->failed, sizeof hb->failed, "Failed to heartbeat for lock: %lld (%s)",
                     (long long)hb->lockid, why);
    }
    pthread_mutex_unlock(&hb->mu);
    return NULL;
}

static void beat_start(heartbeat *hb, const hms *h, int64_t lockid)
{
    memset(hb, 0, sizeof *hb);
    hb->conn.fd = -1;
    hb->conn.addrs = h->addrs;
    hb->conn.naddrs = h->naddrs;
    hb->conn.uri = h->uri;
    hb->conn.o = h->o;
    hb->lockid = lockid;
    hb->interval_ms = h->o.lock_heartbeat_interval_ms;
    pthread_mutex_init(&hb->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&hb->cv, &ca);
    pthread_condattr_destroy(&ca);
    hb->conn.arena = floe__arena_new(4096);
    /* Without a thread (no memory) the commit goes on unbeaten: the lock
     * then lasts hive.txn.timeout, as a Java client whose heartbeat died. */
    hb->running = hb->conn.arena && pthread_create(&hb->th, NULL, beat_main, hb) == 0;
}

static void beat_stop(heartbeat *hb)
{
    if (hb->running) {
        pthread_mutex_lock(&hb->mu);
        hb->stop = true;
        pthread_cond_signal(&hb->cv);
        pthread_mutex_unlock(&hb->mu);
        pthread_join(hb->th, NULL);
    }
    disconnect(&hb->conn);
    floe__buf_free(&hb->conn.req);
    floe__buf_free(&hb->conn.resp);
    floe__arena_free(hb->conn.arena);
    pthread_cond_destroy(&hb->cv);
    pthread_mutex_destroy(&hb->mu);
}

/* MetastoreLock.ensureActive: the message of a failed heartbeat, or NULL. */
static const char *beat_failed(heartbeat *hb)
{
    pthread_mutex_lock(&hb->mu);
    const char *f = hb->failed[0] ? hb->failed : NULL;
    pthread_mutex_unlock(&hb->mu);
    return f;
}

/* Test hook (tests/peers/test_hms.py): FLOE_HMS_TEST_HOLD_LOCK_MS=N makes a
 * commit wait N ms once it holds the lock, before reading the table (a
 * long commit; a writer to SIGKILL while it holds the lock) — or, with
 * FLOE_HMS_TEST_HOLD_LOCK_UNTIL=FILE, until FILE exists (at most N ms). */
static void test_hold_lock(const char *ns, const char *name, int64_t lockid)
{
    const char *v = getenv("FLOE_HMS_TEST_HOLD_LOCK_MS");
    const char *until = getenv("FLOE_HMS_TEST_HOLD_LOCK_UNTIL");
    long ms = v ? strtol(v, NULL, 10) : 0;
    if (ms <= 0)
        return;
    fprintf(stderr, "floe: FLOE_HMS_TEST_HOLD_LOCK_MS: holding lock %lld on %s.%s for %ld ms\n",
            (long long)lockid, ns, name, ms);
    fflush(stderr);
    for (long waited = 0; waited < ms; waited += 100) {
        if (until && access(until, F_OK) == 0)
            return;
        sleep_ms(ms - waited < 100 ? ms - waited : 100);
    }
}

/* ---------------------------------------------------------------- commit */

/* Where does the table point now? 1 = at `loc`, 0 = elsewhere, < 0 = cannot tell. */
static int points_at(floe_catalog *c, const char *ns, const char *name, const char *loc)
{
    reply r;
    const floe_tbval *t;
    floe_props p = FLOE_PROPS_INIT;
    int rc = load_iceberg(c, ns, name, &r, &t, &p);
    if (rc == 0) {
        const char *cur = floe__props_get(&p, "metadata_location");
        rc = cur && strcmp(cur, loc) == 0;
    }
    floe__props_free(&p);
    return rc;
}

/* HiveTableOperations.hiveLockEnabled: the table property
 * engine.hive.lock-enabled of the base (the new metadata at creation),
 * else the catalog's iceberg.engine.hive.lock-enabled. */
static bool lock_enabled(const hms *h, const floe_table_metadata *base,
                         const floe_table_metadata *m)
{
    const floe_table_metadata *md = base ? base : m;
    const char *v = md ? floe__props_get(&md->properties, "engine.hive.lock-enabled") : NULL;
    if (v)
        return strcasecmp(v, "true") == 0;
    return !h->o.lock_disabled;
}

static int hms_commit_table_md(floe_catalog *c, const char *ns, const char *name,
                               const char *expected, const char *new_location,
                               const floe_table_metadata *base, const floe_table_metadata *m)
{
    hms *h = impl(c);
    pthread_mutex_lock(&h->lock);
    int64_t lockid = -1;
    int rc = 0;
    bool locking = lock_enabled(h, base, m);
    heartbeat hb;
    bool beating = false;
    if (locking)
        rc = acquire_lock(h, ns, name, &lockid);
    if (rc == 0 && locking) {
        beat_start(&hb, h, lockid);
        beating = true;
        test_hold_lock(ns, name, lockid);
    }
    reply r;
    const floe_tbval *t = NULL;
    floe_props p = FLOE_PROPS_INIT, env = FLOE_PROPS_INIT;
    if (rc == 0)
        rc = load_iceberg(c, ns, name, &r, &t, &p);
    if (rc == 0) {
        const char *cur = floe__props_get(&p, "metadata_location");
        if (!cur || !expected || strcmp(cur, expected) != 0)
            rc = floe__error(FLOE_ECONFLICT, "catalog",
                             "Cannot commit: Base metadata location '%s' is not same as the "
                             "current table metadata location '%s' for %s.%s",
                             expected ? expected : "null", cur ? cur : "null", ns, name);
    }
    if (rc == 0 && m)
        rc = mirror_params(&p, new_location, expected, base, m, h->o.table_property_max_size);
    if (rc == 0 && !m) {
        rc = floe__props_set(&p, "metadata_location", new_location);
        if (rc == 0)
            rc = floe__props_set(&p, "previous_metadata_location", expected);
        if (rc == 0)
            rc = floe__props_set(&p, "table_type", "ICEBERG");
    }
    if (rc == 0)
        rc = floe__props_set(&env, "DO_NOT_UPDATE_STATS", "true");
    if (rc == 0 && !locking) {
        rc = floe__props_set(&env, "expected_parameter_key", "metadata_location");
        if (rc == 0)
            rc = floe__props_set(&env, "expected_parameter_value", expected);
    }
    const char *lost = rc == 0 && beating ? beat_failed(&hb) : NULL;
    if (lost) /* lock.ensureActive() before persisting: nothing was sent */
        rc = floe__error(FLOE_ECONFLICT, "catalog", "Failed to heartbeat for hive lock. %s", lost);
    if (rc == 0) {
        rc = alter_table(h, ns, name, t, ns, name, &p, &env, m, &r);
        if (rc == 0 && r.exc) {
            /* The metastore answered no: nothing changed. Hive 4 refuses a
             * failed expected-parameter check with a MetaException "The
             * table has been modified. The parameter value for key
             * 'metadata_location' is ...". */
            if (!locking && strstr(r.msg, "The table has been modified"))
                rc = floe__error(FLOE_ECONFLICT, "catalog",
                                 "The table %s.%s has been modified concurrently: %s: %s", ns,
                                 name, r.exc, r.msg);
            else if (is_exc(&r, "InvalidObjectException"))
                rc = floe__error(FLOE_EINVALID, "catalog", "Invalid Hive object for %s.%s: %s", ns,
                                 name, r.msg);
            else
                rc = metastore_error(h, &r, name);
        } else if (rc < 0 && r.sent) {
            /* Sent, no answer: look (a new connection) before calling it unknown. */
            char *msg = floe__strdup(floe_error_last() ? floe_error_last()->message : "");
            floe_error_clear();
            int at = points_at(c, ns, name, new_location);
            if (at == 1) {
                rc = 0;
            } else {
                floe_error_clear();
                rc = floe__error(FLOE_ECOMMITUNKNOWN, "catalog",
                                 "Commit of %s.%s to %s: outcome unknown: %s", ns, name,
                                 new_location, msg ? msg : "metastore error");
            }
            floe__free(msg);
        }
        /* lock.ensureActive() after persisting: a lock lost meanwhile lets
         * another writer in — the outcome cannot be vouched for. */
        if (rc == 0 && beating && (lost = beat_failed(&hb)) != NULL)
            rc = floe__error(FLOE_ECOMMITUNKNOWN, "catalog",
                             "Failed to heartbeat for hive lock while committing changes. This "
                             "can lead to a concurrent commit attempt be able to overwrite this "
                             "commit. Please check the commit history. If you are running into "
                             "this issue, try reducing iceberg.hive.lock-heartbeat-interval-ms. "
                             "(%s)",
                             lost);
    }
    if (beating)
        beat_stop(&hb);
    if (lockid >= 0)
        unlock_quietly(h, lockid);
    floe__props_free(&p);
    floe__props_free(&env);
    pthread_mutex_unlock(&h->lock);
    return rc;
}

static int hms_commit_table(floe_catalog *c, const char *ns, const char *name, const char *expected,
                            const char *new_location)
{
    return hms_commit_table_md(c, ns, name, expected, new_location, NULL, NULL);
}

/* ---------------------------------------------------------------- open */

static void hms_free(floe_catalog *c)
{
    hms *h = impl(c);
    if (h) {
        disconnect(h);
        for (size_t i = 0; i < h->naddrs; i++) {
            floe__free(h->addrs[i].host);
            floe__free(h->addrs[i].port);
        }
        floe__free(h->addrs);
        floe__free(h->uri);
        floe__buf_free(&h->req);
        floe__buf_free(&h->resp);
        floe__arena_free(h->arena);
        pthread_mutex_destroy(&h->lock);
        floe__free(h);
    }
    floe__free(c->name);
    floe__free(c->warehouse);
    floe__free(c);
}

static const floe_catalog_ops hms_ops = {
    .version = FLOE_CATALOG_OPS_VERSION,
    .create_namespace = hms_create_namespace,
    .namespace_exists = hms_namespace_exists,
    .load_namespace = hms_load_namespace,
    .list_namespaces = hms_list_namespaces,
    .update_namespace = hms_update_namespace,
    .drop_namespace = hms_drop_namespace,
    .register_table = hms_register_table,
    .load_table = hms_load_table,
    .list_tables = hms_list_tables,
    .rename_table = hms_rename_table,
    .drop_table = hms_drop_table,
    .commit_table = hms_commit_table,
    .free = hms_free,
};

static const floe_catalog_md_ops hms_md_ops = {hms_register_table_md, hms_commit_table_md};

/* thrift://host:port[,thrift://host2:port2...] */
static int parse_uris(hms *h, const char *uri)
{
    const char *p = uri;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n < 9 || strncmp(p, "thrift://", 9) != 0)
            return floe__error(FLOE_EINVALID, "catalog",
                               "Hive Metastore uri '%s': expected thrift://host:port", uri);
        const char *hp = p + 9, *he = p + n;
        const char *colon = NULL;
        if (*hp == '[') {
            const char *rb = memchr(hp, ']', (size_t)(he - hp));
            if (!rb)
                return floe__error(FLOE_EINVALID, "catalog", "Hive Metastore uri '%s': bad host",
                                   uri);
            colon = rb + 1 < he && rb[1] == ':' ? rb + 1 : NULL;
        } else {
            colon = memchr(hp, ':', (size_t)(he - hp));
        }
        const char *slash = memchr(hp, '/', (size_t)(he - hp));
        if (slash)
            he = slash;
        if (colon && colon > he)
            colon = NULL;
        hms_addr *na = floe__realloc(h->addrs, (h->naddrs + 1) * sizeof *na);
        if (!na)
            return floe__error_nomem();
        h->addrs = na;
        hms_addr *a = &h->addrs[h->naddrs];
        const char *hs = hp, *hend = colon ? colon : he;
        if (*hs == '[')
            hs++, hend = memchr(hs, ']', (size_t)(he - hs));
        a->host = floe__strndup(hs, (size_t)(hend - hs));
        a->port = colon ? floe__strndup(colon + 1, (size_t)(he - colon - 1)) : floe__strdup("9083");
        h->naddrs++;
        if (!a->host || !a->port)
            return floe__error_nomem();
        if (!*a->host || !*a->port || strspn(a->port, "0123456789") != strlen(a->port))
            return floe__error(FLOE_EINVALID, "catalog",
                               "Hive Metastore uri '%s': expected thrift://host:port", uri);
        p += n;
        if (*p == ',')
            p++;
    }
    if (!h->naddrs)
        return floe__error(FLOE_EINVALID, "catalog", "Hive Metastore uri is empty");
    return 0;
}

int floe_catalog_open_hive(floe_catalog **out, const char *uri,
                           const floe_hive_catalog_options *opts)
{
    if (!out || !uri)
        return floe__error(FLOE_EINVALID, "catalog", "floe_catalog_open_hive: NULL argument");
    *out = NULL;
    if (opts && opts->version != FLOE_HIVE_CATALOG_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "catalog",
                           "floe_catalog_open_hive: options version %u, expected %u",
                           opts->version, FLOE_HIVE_CATALOG_OPTIONS_VERSION);
    floe_hive_catalog_options o = FLOE_HIVE_CATALOG_OPTIONS_INIT;
    if (opts)
        o = *opts;
    if (o.timeout_ms <= 0)
        o.timeout_ms = 60000;
    if (o.lock_timeout_ms <= 0)
        o.lock_timeout_ms = 3L * 60 * 1000;
    if (o.lock_check_min_wait_ms <= 0)
        o.lock_check_min_wait_ms = 50;
    if (o.lock_check_max_wait_ms <= 0)
        o.lock_check_max_wait_ms = 5000;
    if (o.lock_check_max_wait_ms < o.lock_check_min_wait_ms)
        o.lock_check_max_wait_ms = o.lock_check_min_wait_ms;
    if (o.lock_heartbeat_interval_ms <= 0)
        o.lock_heartbeat_interval_ms = 4L * 60 * 1000;
    floe_catalog *c = floe__calloc(1, sizeof *c);
    hms *h = c ? floe__calloc(1, sizeof *h) : NULL;
    if (!h) {
        floe__free(c);
        return floe__error_nomem();
    }
    c->ops = &hms_ops;
    c->md = &hms_md_ops;
    c->impl = h;
    h->fd = -1;
    pthread_mutex_init(&h->lock, NULL);
    h->o = o;
    h->o.name = h->o.warehouse = NULL;
    int rc = 0;
    c->name = floe__strdup(o.name ? o.name : "hive");
    h->uri = floe__strdup(uri);
    h->arena = floe__arena_new(16384);
    if (!c->name || !h->uri || !h->arena)
        rc = floe__error_nomem();
    if (rc == 0 && o.warehouse && *o.warehouse) {
        size_t n = strlen(o.warehouse);
        while (n > 1 && o.warehouse[n - 1] == '/')
            n--;
        if (!(c->warehouse = floe__strndup(o.warehouse, n)))
            rc = floe__error_nomem();
    }
    if (rc == 0)
        rc = parse_uris(h, uri);
    if (rc == 0) {
        const char *u = getenv("HADOOP_USER_NAME");
        if (!u || !*u) {
            struct passwd *pw = getpwuid(getuid());
            u = pw ? pw->pw_name : getenv("USER");
        }
        snprintf(h->user, sizeof h->user, "%s", u && *u ? u : "floe");
        if (gethostname(h->host, sizeof h->host - 1) != 0)
            snprintf(h->host, sizeof h->host, "localhost");
        /* Connect now, so a wrong uri fails at open like Java's client. */
        pthread_mutex_lock(&h->lock);
        rc = ensure_connected(h);
        pthread_mutex_unlock(&h->lock);
    }
    if (rc < 0) {
        hms_free(c);
        return rc;
    }
    *out = c;
    return 0;
}
