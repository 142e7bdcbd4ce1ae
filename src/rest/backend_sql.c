/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/backend_sql: the one backend of `floe serve` — the REST catalog
 * routes (open-api/rest-catalog-open-api.yaml) over any floe_catalog and the
 * table layer:
 *   --warehouse DIR          the SQLite catalog DIR/catalog.db (JDBC schema),
 *                            local files under DIR;
 *   --memory                 an in-memory SQLite catalog and the memory
 *                            FileIO (lost on exit; tests and demos);
 *   --catalog-uri thrift://  a Hive Metastore (floe_catalog_open_hive),
 *                            local files under --warehouse DIR.
 * Creates go through floe_table_create, commits through the table layer's
 * commit path (requirements checked against the current metadata, updates
 * applied, metadata written create-new, pointer swapped with
 * compare-and-set), drops through floe_table_drop, multi-table
 * transactions through one atomic swap of every pointer (catalogs that
 * have one: SQLite).
 *
 * Loads pass the metadata.json bytes through unparsed (snapshots=all); with
 * snapshots=refs the JSON is parsed and the snapshots no ref points at are
 * left out. Safety: every metadata file served or registered must resolve
 * inside the warehouse (realpath for a local directory, a lexical prefix
 * without "." or ".." segments otherwise), so a registered pointer cannot
 * make the server read /etc/passwd.
 */
#include "backend.h"
#include "model_internal.h"

#include "catalog/catalog.h"
#include "io/io.h"
#include "spec/spec.h"
#include "table/table.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest metadata.json served (a table with ~100k snapshots). */
#define SQL_MAX_METADATA (256u << 20)
/* Extra SQLite connections for commits, which then run in parallel (each
 * is dominated by fsyncs; the compare-and-set keeps them atomic). */
#define SQL_POOL 4

typedef struct sql_backend {
    floe_catalog *cat;
    floe_fileio *io;
    /* The warehouse: realpath of a local directory (`local`), or a location
     * prefix without trailing '/' (memory). */
    char *root;
    bool local;
    bool advertise_warehouse; /* /v1/config defaults.warehouse = root */
    /* One SQLite connection for catalog calls (serialised); metadata
     * files are read outside the lock. */
    pthread_mutex_t lock;
    /* Commit connections (opened on first use), guarded by `lock`. */
    floe_catalog *pool[SQL_POOL];
    bool busy[SQL_POOL];
    pthread_cond_t pool_cv;
    char *db; /* NULL: no pool, every commit on `cat` under `lock` */
    char *name;
} sql_backend;

/* Borrow a commit connection (waits while all are busy). */
static int pool_take(sql_backend *s, int *slot)
{
    pthread_mutex_lock(&s->lock);
    int rc = 0;
    for (;;) {
        int i = 0;
        while (i < SQL_POOL && s->busy[i])
            i++;
        if (i < SQL_POOL) {
            if (!s->pool[i]) {
                floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
                o.name = s->name;
                o.warehouse = s->root;
                o.no_create = true;
                rc = floe_catalog_open_sql(&s->pool[i], s->db, &o);
            }
            if (rc == 0) {
                s->busy[i] = true;
                *slot = i;
            }
            break;
        }
        pthread_cond_wait(&s->pool_cv, &s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static void pool_give(sql_backend *s, int slot)
{
    pthread_mutex_lock(&s->lock);
    s->busy[slot] = false;
    pthread_cond_signal(&s->pool_cv);
    pthread_mutex_unlock(&s->lock);
}

static sql_backend *sb(floe_rest_backend *b)
{
    return b->payload;
}

/* ---------------------------------------------------------------- errors */

static char *ns_text(const floe_rest_namespace *ns, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ns->n && o + 1 < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "." : "", ns->parts[i]);
    return buf;
}

/* "<what>: a.b" or "<what>: a.b.t" in subsystem `sub`. */
static int named_error(int code, floe_error_kind kind, const char *sub, const char *what,
                       const floe_rest_namespace *ns, const char *name)
{
    char b[600];
    ns_text(ns, b, sizeof b);
    return name ? floe__error_as(code, kind, sub, "%s: %s.%s", what, b, name)
                : floe__error_as(code, kind, sub, "%s: %s", what, b);
}

int floe__rest_no_such_namespace(const floe_rest_namespace *ns)
{
    return named_error(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_NAMESPACE, "namespace",
                       "Namespace does not exist", ns, NULL);
}

int floe__rest_no_such_table(const floe_rest_ident *id)
{
    return named_error(FLOE_ENOTFOUND, FLOE_KIND_NO_SUCH_TABLE, "table", "Table does not exist",
                       &id->ns, id->name);
}

int floe__rest_namespace_exists(const floe_rest_namespace *ns)
{
    return named_error(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "namespace",
                       "Namespace already exists", ns, NULL);
}

int floe__rest_table_exists_error(const floe_rest_ident *id)
{
    return named_error(FLOE_EEXISTS, FLOE_KIND_ALREADY_EXISTS, "table", "Table already exists",
                       &id->ns, id->name);
}

void floe__rest_backend_free(floe_rest_backend *b)
{
    if (b && b->free)
        b->free(b);
}

/* "a.b" for ["a","b"]. */
static char *ns_string(const floe_rest_namespace *ns)
{
    floe_buf buf = FLOE_BUF_INIT;
    if (floe__rest_namespace_join(&buf, ns, '.') < 0 || floe__buf_putc(&buf, '\0') < 0) {
        floe__buf_free(&buf);
        floe__error_nomem();
        return NULL;
    }
    return (char *)buf.ptr;
}

static char *ident_string(const floe_rest_ident *id)
{
    char *ns = ns_string(id->ns.n ? &id->ns : NULL);
    if (!ns)
        return NULL;
    char *s = floe__sprintf("%s.%s", ns, id->name);
    floe__free(ns);
    if (!s)
        floe__error_nomem();
    return s;
}

/* The catalog's names are dotted: a level holding '.' cannot be stored. */
static int check_levels(const floe_rest_namespace *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        if (strchr(ns->parts[i], '.'))
            return floe__error(FLOE_EINVALID, "rest",
                               "namespace level '%s' contains '.', which this catalog uses as "
                               "the level separator",
                               ns->parts[i]);
    return 0;
}

/* The catalog's dotted name of a table (caller frees); a table in a
 * namespace this catalog cannot hold (a level with '.') does not exist. */
static int table_ident(const floe_rest_ident *id, char **ident)
{
    if (check_levels(&id->ns) < 0)
        return floe__rest_no_such_table(id);
    return (*ident = ident_string(id)) ? 0 : FLOE_ENOMEM;
}

/* The catalog's dotted name of a request's namespace (caller frees); a
 * namespace this catalog cannot hold (a level with '.') does not exist. */
static int namespace_arg(const floe_rest_namespace *nsp, char **ns)
{
    *ns = NULL; /* defined on every path, the error ones too */
    if (check_levels(nsp) < 0)
        return floe__rest_no_such_namespace(nsp);
    *ns = ns_string(nsp);
    return *ns ? 0 : FLOE_ENOMEM;
}

/* Does `p` lie below `root` lexically: root + '/' + at least one byte, and
 * no "." or ".." segment? */
static bool below(const char *root, const char *p)
{
    size_t n = strlen(root);
    bool ok = p && strncmp(p, root, n) == 0 && p[n] == '/' && p[n + 1];
    for (const char *q = p; ok && *q; q++)
        if (q[0] == '/' && q[1] == '.' &&
            (q[2] == '/' || q[2] == '\0' || (q[2] == '.' && (q[3] == '/' || q[3] == '\0'))))
            ok = false;
    return ok;
}

/* Is `path` (a plain path or file:// URI) inside the warehouse? Symlinks and
 * ".." are resolved with realpath (the file must exist). */
static int inside_warehouse(const sql_backend *s, const char *location)
{
    if (!s->local) {
        if (!below(s->root, location))
            return floe__error(FLOE_EINVALID, "rest",
                               "metadata location must be a file inside the warehouse");
        return 0;
    }
    const char *p = floe__local_path(location);
    if (!p || p[0] != '/')
        return floe__error(FLOE_EINVALID, "rest",
                           "metadata location must be a file inside the warehouse");
    char real[PATH_MAX];
    if (!realpath(p, real))
        return floe__error(FLOE_EINVALID, "rest",
                           "metadata location must be an existing file inside the warehouse");
    size_t n = strlen(s->root);
    if (strncmp(real, s->root, n) != 0 || real[n] != '/')
        return floe__error(FLOE_EINVALID, "rest",
                           "metadata location must be a file inside the warehouse");
    return 0;
}

/* A table location (which may not exist yet) must lie inside the warehouse:
 * metadata is written below it. Lexical check: no "." or ".." segments. */
static int location_ok(const sql_backend *s, const char *location)
{
    if (!below(s->root, s->local ? floe__local_path(location) : location))
        return floe__error(FLOE_EINVALID, "rest",
                           "table location must be a directory inside the warehouse");
    return 0;
}

/* Updates that would make the server write outside the warehouse. */
static int check_updates(const sql_backend *s, const floe_rest_commit_table_req *req)
{
    const floe_table_update *u = req->updates.items;
    for (size_t i = 0; i < req->updates.len; i++) {
        if (u[i].type == FLOE_UPD_SET_LOCATION)
            FLOE_TRY(location_ok(s, u[i].name));
        for (size_t k = 0; u[i].type == FLOE_UPD_SET_PROPERTIES && k < u[i].nkv; k++)
            if (strcmp(u[i].kv[k].key, "write.metadata.path") == 0)
                FLOE_TRY(location_ok(s, u[i].kv[k].value));
    }
    return 0;
}

/* Does the change hold an assert-create (a staged create's commit)? */
static bool creates(const floe_rest_commit_table_req *req)
{
    const floe_requirement *r = req->requirements.items;
    for (size_t i = 0; i < req->requirements.len; i++)
        if (r[i].type == FLOE_REQ_ASSERT_CREATE)
            return true;
    return false;
}

/* Map the catalog's ENOTFOUND to the REST namespace/table 404s. */
static int ns_err(int rc, const floe_rest_namespace *ns)
{
    return rc == FLOE_ENOTFOUND ? floe__rest_no_such_namespace(ns) : rc;
}

/* ---------------------------------------------------------------- namespaces */

typedef struct ns_collect {
    floe_rest_namespace_list *out;
    floe_arena *a;
} ns_collect;

static int add_ns(const char *name, void *payload)
{
    ns_collect *c = payload;
    floe_rest_namespace ns;
    FLOE_TRY(floe__rest_namespace_split(c->a, name, strlen(name), '.', &ns));
    return floe__rest_namespace_list_add(c->out, &ns);
}

static int sql_list_namespaces(floe_rest_backend *b, const floe_rest_namespace *parent,
                               floe_rest_namespace_list *out)
{
    sql_backend *s = sb(b);
    char *p = parent && parent->n ? ns_string(parent) : NULL;
    if (parent && parent->n && !p)
        return FLOE_ENOMEM;
    floe_arena *a = floe__arena_new(1024);
    if (!a) {
        floe__free(p);
        return floe__error_nomem();
    }
    ns_collect c = {out, a};
    pthread_mutex_lock(&s->lock);
    int rc = floe_catalog_list_namespaces(s->cat, p, add_ns, &c);
    pthread_mutex_unlock(&s->lock);
    floe__arena_free(a);
    floe__free(p);
    return parent ? ns_err(rc, parent) : rc;
}

static int sql_create_namespace(floe_rest_backend *b, const floe_rest_create_namespace_req *req,
                                floe_rest_namespace_result *out)
{
    sql_backend *s = sb(b);
    FLOE_TRY(check_levels(&req->ns));
    char *ns = ns_string(&req->ns);
    if (!ns)
        return FLOE_ENOMEM;
    pthread_mutex_lock(&s->lock);
    int rc = floe_catalog_create_namespace(s->cat, ns, &req->properties);
    if (rc == FLOE_EEXISTS)
        rc = floe__rest_namespace_exists(&req->ns);
    if (rc == 0)
        rc = floe_catalog_load_namespace(&out->properties, s->cat, ns);
    pthread_mutex_unlock(&s->lock);
    floe__free(ns);
    return rc;
}

static int sql_load_namespace(floe_rest_backend *b, const floe_rest_namespace *nsp,
                              floe_rest_namespace_result *out)
{
    sql_backend *s = sb(b);
    char *ns;
    FLOE_TRY(namespace_arg(nsp, &ns));
    pthread_mutex_lock(&s->lock);
    int rc = floe_catalog_load_namespace(&out->properties, s->cat, ns);
    pthread_mutex_unlock(&s->lock);
    floe__free(ns);
    return ns_err(rc, nsp);
}

static int sql_update_namespace(floe_rest_backend *b, const floe_rest_namespace *nsp,
                                const floe_rest_update_namespace_props_req *req,
                                floe_rest_update_namespace_props_result *out)
{
    sql_backend *s = sb(b);
    char *ns;
    FLOE_TRY(namespace_arg(nsp, &ns));
    floe_props cur = FLOE_PROPS_INIT;
    pthread_mutex_lock(&s->lock);
    int rc = floe_catalog_load_namespace(&cur, s->cat, ns);
    if (rc == 0)
        rc = floe_catalog_update_namespace(s->cat, ns, &req->updates, req->removals,
                                           req->n_removals);
    pthread_mutex_unlock(&s->lock);
    for (size_t i = 0; rc == 0 && i < req->updates.n; i++)
        rc = floe__rest_strlist_add(&out->updated, req->updates.items[i].key);
    for (size_t i = 0; rc == 0 && i < req->n_removals; i++)
        rc = floe__rest_strlist_add(floe__props_get(&cur, req->removals[i]) ? &out->removed
                                                                            : &out->missing,
                                    req->removals[i]);
    floe__props_free(&cur);
    floe__free(ns);
    return ns_err(rc, nsp);
}

static int sql_drop_namespace(floe_rest_backend *b, const floe_rest_namespace *nsp)
{
    sql_backend *s = sb(b);
    char *ns;
    FLOE_TRY(namespace_arg(nsp, &ns));
    pthread_mutex_lock(&s->lock);
    int rc = floe_catalog_drop_namespace(s->cat, ns);
    pthread_mutex_unlock(&s->lock);
    floe__free(ns);
    /* "Namespace a is not empty. ...": the catalog's error, its kind
     * (NamespaceNotEmptyException) kept */
    return ns_err(rc, nsp);
}

/* ---------------------------------------------------------------- tables */

typedef struct tbl_collect {
    floe_rest_ident_list *out;
    const floe_rest_namespace *ns;
} tbl_collect;

static int add_tbl(const char *ns, const char *name, void *payload)
{
    (void)ns;
    tbl_collect *c = payload;
    floe_rest_ident id = {*c->ns, (char *)name};
    return floe__rest_ident_list_add(c->out, &id);
}

/* The tables or the views of a namespace. */
static int list_idents(floe_rest_backend *b, const floe_rest_namespace *nsp,
                       floe_rest_ident_list *out, bool views)
{
    sql_backend *s = sb(b);
    char *ns;
    FLOE_TRY(namespace_arg(nsp, &ns));
    tbl_collect c = {out, nsp};
    pthread_mutex_lock(&s->lock);
    int rc = views ? floe_catalog_list_views(s->cat, ns, add_tbl, &c)
                   : floe_catalog_list_tables(s->cat, ns, add_tbl, &c);
    pthread_mutex_unlock(&s->lock);
    floe__free(ns);
    return ns_err(rc, nsp);
}

static int sql_list_tables(floe_rest_backend *b, const floe_rest_namespace *nsp,
                           floe_rest_ident_list *out)
{
    return list_idents(b, nsp, out, false);
}

/* snapshots=refs: keep only the snapshots a ref (or current-snapshot-id)
 * points at, on floe's parsed metadata, and write it with floe's writer. */
static int refs_only(const floe_buf *in, const char *location, floe_buf *out)
{
    floe_table_metadata *m = NULL;
    FLOE_TRY(floe__metadata_parse(&m, in->ptr, in->len, location));
    size_t k = 0;
    for (size_t i = 0; i < m->nsnapshots; i++) {
        int64_t id = m->snapshots[i].snapshot_id;
        bool referenced = m->has_current_snapshot && m->current_snapshot_id == id;
        for (size_t r = 0; r < m->nrefs && !referenced; r++)
            referenced = m->refs[r].snapshot_id == id;
        if (referenced)
            m->snapshots[k++] = m->snapshots[i];
    }
    m->nsnapshots = k;
    /* the id index no longer matches the array: the writer does not need it */
    floe__free(m->snapshot_order);
    m->snapshot_order = NULL;
    int rc = floe__metadata_write(m, out);
    floe__metadata_free(m);
    return rc;
}

/* Fill `out` from the metadata file at `location` (taken). */
static int fill_result(sql_backend *s, char *location, floe_rest_snapshots_mode mode,
                       floe_rest_table_result *out)
{
    int rc = inside_warehouse(s, location);
    floe_buf buf = FLOE_BUF_INIT;
    if (rc == 0)
        rc = floe__io_read_all(s->io, location, SQL_MAX_METADATA, &buf);
    if (rc == 0 && buf.len > 3 && (unsigned char)buf.ptr[0] == 0x1f &&
        (unsigned char)buf.ptr[1] == 0x8b)
        rc = floe__error(FLOE_EUNSUPPORTED, "rest", "gzip-compressed metadata is not served");
    if (rc == 0 && mode == FLOE_REST_SNAPSHOTS_REFS) {
        floe_buf text = FLOE_BUF_INIT;
        rc = refs_only(&buf, location, &text);
        if (rc == 0) {
            out->metadata_text = (char *)text.ptr;
            out->metadata_text_len = text.len;
        } else {
            floe__buf_free(&text);
        }
    } else if (rc == 0) {
        /* files behind the pointer were written by floe's commit path or
         * parsed at registration: pass them through */
        out->metadata_text = (char *)buf.ptr;
        out->metadata_text_len = buf.len;
        buf.ptr = NULL;
    }
    floe__buf_free(&buf);
    if (rc == 0)
        out->metadata_location = location;
    else
        floe__free(location);
    return rc;
}

static int lookup(sql_backend *s, const char *ident, char **loc)
{
    char *l = NULL;
    pthread_mutex_lock(&s->lock);
    int rc = floe_catalog_load_table(&l, NULL, s->cat, ident);
    pthread_mutex_unlock(&s->lock);
    if (rc == 0 && !(*loc = floe__strdup(l)))
        rc = floe__error_nomem();
    floe_string_free(l);
    return rc;
}

/* The metadata location of a table (FLOE_ENOTFOUND: NoSuchTableException). */
static int sql_table_location(floe_rest_backend *b, const floe_rest_ident *id, char **location)
{
    sql_backend *s = sb(b);
    *location = NULL;
    char *ident = NULL;
    FLOE_TRY(table_ident(id, &ident));
    int rc = lookup(s, ident, location);
    floe__free(ident);
    return rc == FLOE_ENOTFOUND ? floe__rest_no_such_table(id) : rc;
}

static int sql_load_table(floe_rest_backend *b, const floe_rest_ident *id,
                          floe_rest_snapshots_mode mode, floe_rest_table_result *out)
{
    char *loc = NULL;
    FLOE_TRY(sql_table_location(b, id, &loc));
    return fill_result(sb(b), loc, mode, out);
}

static int sql_table_exists(floe_rest_backend *b, const floe_rest_ident *id)
{
    char *loc = NULL;
    int rc = sql_table_location(b, id, &loc);
    floe__free(loc);
    return rc;
}

/* A CreateTableRequest payload (schema, partition-spec, write-order) as
 * the text floe_table_create parses (NULL when absent). */
static char *payload_text(const json_t *j)
{
    return j ? json_dumps(j, JSON_COMPACT) : NULL;
}

static int sql_create_table(floe_rest_backend *b, const floe_rest_namespace *nsp,
                            const floe_rest_create_table_req *req, floe_rest_table_result *out)
{
    sql_backend *s = sb(b);
    FLOE_TRY(check_levels(nsp));
    floe_rest_ident id = {*nsp, (char *)req->name};
    char *ident = ident_string(&id);
    char *ns = ns_string(nsp);
    char *schema = payload_text(req->schema), *spec = payload_text(req->partition_spec),
         *order = payload_text(req->write_order);
    int rc = ident && ns && schema && (!req->partition_spec || spec) && (!req->write_order || order)
                 ? 0
                 : floe__error_nomem();
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = schema;
    co.partition_spec_json = spec;
    co.sort_order_json = order;
    co.properties = &req->properties;
    co.location = req->location;
    char *loc = NULL;
    pthread_mutex_lock(&s->lock);
    if (rc == 0) {
        rc = floe_catalog_namespace_exists(s->cat, ns);
        rc = rc == 1 ? 0 : rc == 0 ? floe__rest_no_such_namespace(nsp) : rc;
    }
    if (rc == 0 && req->location)
        rc = location_ok(s, req->location);
    const char *mp = floe__props_get(&req->properties, "write.metadata.path");
    if (rc == 0 && mp)
        rc = location_ok(s, mp);
    if (rc == 0 && !req->stage_create) {
        floe_table *t = NULL;
        floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
        to.io = s->io;
        rc = floe_table_create(&t, s->cat, ident, &co, &to);
        if (rc == FLOE_EEXISTS)
            rc = floe__rest_table_exists_error(&id);
        if (rc == 0 && !(loc = floe__strdup(floe_table_metadata_location(t))))
            rc = floe__error_nomem();
        floe_table_free(t);
    } else if (rc == 0) {
        /* staged: the metadata the table would get; nothing stored */
        char *existing = NULL;
        rc = floe_catalog_load_table(&existing, NULL, s->cat, ident);
        floe_string_free(existing);
        if (rc == 0)
            rc = floe__rest_table_exists_error(&id);
        else if (rc == FLOE_ENOTFOUND)
            rc = 0;
        char *def = NULL;
        if (rc == 0 && !req->location)
            rc = floe_catalog_default_location(&def, s->cat, ident);
        floe_table_metadata *m = NULL;
        if (rc == 0)
            rc = floe__table_initial_metadata(&co, req->location ? req->location : def, &m);
        floe_string_free(def);
        floe_buf text = FLOE_BUF_INIT;
        if (rc == 0)
            rc = floe__metadata_write(m, &text);
        floe__metadata_free(m);
        if (rc == 0) {
            json_error_t jerr;
            out->metadata = json_loadb((const char *)text.ptr, text.len, 0, &jerr);
            if (!out->metadata)
                rc = floe__error_nomem();
        }
        floe__buf_free(&text);
    }
    pthread_mutex_unlock(&s->lock);
    free(schema);
    free(spec);
    free(order);
    floe__free(ident);
    floe__free(ns);
    if (rc == 0 && loc)
        return fill_result(s, loc, FLOE_REST_SNAPSHOTS_ALL, out);
    floe__free(loc);
    return rc;
}

/* A typed schema / spec / sort order as the JSON text floe_table_create
 * takes (floe's writer); NULL `what` writes nothing. */
static int json_of(int (*write)(floe_jw *, const void *), const void *what, floe_buf *out)
{
    if (!what)
        return 0;
    floe_jw w;
    floe__jw_init(&w, out);
    FLOE_TRY(write(&w, what));
    FLOE_TRY(floe__jw_finish(&w));
    return floe__buf_putc(out, '\0');
}

static int write_schema(floe_jw *w, const void *x)
{
    return floe__schema_write(w, x);
}
static int write_spec(floe_jw *w, const void *x)
{
    return floe__partition_spec_write(w, x);
}
static int write_order(floe_jw *w, const void *x)
{
    return floe__sort_order_write(w, x);
}

/* A commit of `change` on `cat` against the table's current metadata
 * (no retry: a REST client retries itself). */
static int commit_on(sql_backend *s, floe_catalog *cat, const char *ident, const floe_vec *reqs,
                     const floe_vec *updates, char **loc)
{
    floe_table *t = NULL;
    floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
    o.io = s->io;
    int rc = floe_table_load(&t, cat, ident, &o);
    /* the request owns what the change points to: borrowed, never freed */
    floe_table_change change = {NULL, *reqs, *updates, FLOE_VEC_INIT(char *)};
    floe_table_metadata *m = NULL;
    if (rc == 0)
        rc = floe__table_commit_sql(cat, t->io, t->ident, t->metadata, t->metadata_location,
                                    &change, loc, &m);
    floe__metadata_free(m);
    floe_table_free(t);
    return rc;
}

/* The commit of a staged create (assert-create): create the table from the
 * add-schema / add-spec / add-sort-order / set-location / set-properties /
 * upgrade-format-version updates, then commit what remains (snapshots,
 * refs, uuid) on top. Called with the lock held. */
static int commit_create(sql_backend *s, const char *ident, const floe_rest_commit_table_req *req,
                         char **loc)
{
    /* assert-create first (Java's AssertTableDoesNotExist) */
    char *existing = NULL;
    int rc = floe_catalog_load_table(&existing, NULL, s->cat, ident);
    floe_string_free(existing);
    if (rc == 0)
        return floe__error(FLOE_ECONFLICT, "rest", "Requirement failed: table already exists");
    if (rc != FLOE_ENOTFOUND)
        return rc;
    floe_error_clear();
    rc = 0;
    const floe_table_update *u = req->updates.items, *schema = NULL, *spec = NULL, *order = NULL,
                            *location = NULL, *format = NULL;
    floe_props props = FLOE_PROPS_INIT;
    floe_vec rest = FLOE_VEC_INIT(floe_table_update);
    for (size_t i = 0; rc == 0 && i < req->updates.len; i++) {
        switch (u[i].type) {
        case FLOE_UPD_ADD_SCHEMA:
            if (schema)
                rc = floe__error(FLOE_EINVALID, "rest", "a create adds one schema");
            schema = &u[i];
            break;
        case FLOE_UPD_ADD_SPEC: spec = &u[i]; break;
        case FLOE_UPD_ADD_SORT_ORDER: order = &u[i]; break;
        case FLOE_UPD_SET_LOCATION: location = &u[i]; break;
        case FLOE_UPD_UPGRADE_FORMAT_VERSION: format = &u[i]; break;
        case FLOE_UPD_SET_CURRENT_SCHEMA:
        case FLOE_UPD_SET_DEFAULT_SPEC:
        case FLOE_UPD_SET_DEFAULT_SORT_ORDER: break; /* the created table uses the added ones */
        case FLOE_UPD_SET_PROPERTIES:
            for (size_t k = 0; rc == 0 && k < u[i].nkv; k++)
                rc = floe__props_set(&props, u[i].kv[k].key, u[i].kv[k].value);
            break;
        default: {
            floe_table_update *slot = floe__vec_push(&rest);
            if (!slot)
                rc = floe__error_nomem();
            else
                *slot = u[i];
        }
        }
    }
    if (rc == 0 && !schema)
        rc = floe__error(FLOE_EINVALID, "rest", "a create commit needs an add-schema update");
    char fv[24];
    if (rc == 0 && format) {
        snprintf(fv, sizeof fv, "%lld", (long long)format->id);
        rc = floe__props_set(&props, "format-version", fv);
    }
    floe_buf js = FLOE_BUF_INIT, jp = FLOE_BUF_INIT, jo = FLOE_BUF_INIT;
    if (rc == 0)
        rc = json_of(write_schema, schema->schema, &js);
    if (rc == 0)
        rc = json_of(write_spec, spec ? spec->spec : NULL, &jp);
    if (rc == 0)
        rc = json_of(write_order, order ? order->order : NULL, &jo);
    floe_table *t = NULL;
    if (rc == 0) {
        floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
        co.schema_json = (const char *)js.ptr;
        co.partition_spec_json = (const char *)jp.ptr;
        co.sort_order_json = (const char *)jo.ptr;
        co.properties = &props;
        co.location = location ? location->name : NULL;
        floe_table_options to = FLOE_TABLE_OPTIONS_INIT;
        to.io = s->io;
        rc = floe_table_create(&t, s->cat, ident, &co, &to);
        if (rc == FLOE_EEXISTS)
            rc = floe__error_as(FLOE_ECONFLICT, FLOE_KIND_COMMIT_FAILED, "rest",
                                "Requirement failed: table already exists: %s", ident);
    }
    floe__buf_free(&js);
    floe__buf_free(&jp);
    floe__buf_free(&jo);
    floe__props_free(&props);
    if (rc == 0 && rest.len > 0) {
        floe_vec none = FLOE_VEC_INIT(floe_requirement);
        rc = commit_on(s, s->cat, ident, &none, &rest, loc);
    } else if (rc == 0 && !(*loc = floe__strdup(floe_table_metadata_location(t)))) {
        rc = floe__error_nomem();
    }
    floe_table_free(t);
    floe__vec_free(&rest);
    return rc;
}

static int sql_commit_table(floe_rest_backend *b, const floe_rest_ident *id,
                            const floe_rest_commit_table_req *req, floe_rest_table_result *out)
{
    sql_backend *s = sb(b);
    bool create = creates(req);
    char *ident = NULL;
    FLOE_TRY(table_ident(id, &ident));
    char *loc = NULL;
    int rc = check_updates(s, req);
    if (rc < 0) {
    } else if (create) {
        pthread_mutex_lock(&s->lock);
        rc = commit_create(s, ident, req, &loc);
        pthread_mutex_unlock(&s->lock);
    } else if (!s->db) {
        pthread_mutex_lock(&s->lock);
        rc = commit_on(s, s->cat, ident, &req->requirements, &req->updates, &loc);
        pthread_mutex_unlock(&s->lock);
    } else {
        int slot = -1;
        rc = pool_take(s, &slot);
        if (rc == 0) {
            rc = commit_on(s, s->pool[slot], ident, &req->requirements, &req->updates, &loc);
            pool_give(s, slot);
        }
    }
    if (rc == FLOE_ENOTFOUND && floe__rest_raised(rc, FLOE_KIND_NO_SUCH_TABLE))
        rc = floe__rest_no_such_table(id);
    floe__free(ident);
    if (rc < 0) {
        floe__free(loc);
        return rc;
    }
    return fill_result(s, loc, FLOE_REST_SNAPSHOTS_ALL, out);
}

/* The change of table i of a transaction, borrowed from the request. */
static int borrow_change(size_t i, const floe_table_metadata *base, floe_table_change *c,
                         void *payload)
{
    (void)base;
    const floe_rest_commit_transaction_req *req = payload;
    c->requirements = req->changes[i].requirements;
    c->updates = req->changes[i].updates;
    c->written = (floe_vec)FLOE_VEC_INIT(char *);
    return 0;
}

/* POST /v1/{prefix}/transactions/commit: every change checked against its
 * table's current metadata and its next metadata file written, then every
 * pointer swapped in one catalog transaction — all tables change or none
 * (a failed requirement or a lost swap: 409, the written files removed). */
static int sql_commit_transaction(floe_rest_backend *b, const floe_rest_commit_transaction_req *req)
{
    sql_backend *s = sb(b);
    size_t n = req->n_changes;
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        const floe_rest_commit_table_req *c = &req->changes[i];
        if (creates(c))
            return floe__error(FLOE_EUNSUPPORTED, "rest",
                               "a transaction cannot create tables (assert-create)");
        FLOE_TRY(check_updates(s, c));
        if (check_levels(&c->identifier.ns) < 0)
            return floe__rest_no_such_table(&c->identifier);
        for (size_t k = 0; k < i; k++)
            if (floe__rest_namespace_eq(&req->changes[k].identifier.ns, &c->identifier.ns) &&
                strcmp(req->changes[k].identifier.name, c->identifier.name) == 0)
                return floe__error(FLOE_EINVALID, "rest",
                                   "a transaction changes table %s more than once",
                                   c->identifier.name);
    }
    char **idents = floe__calloc(n, sizeof *idents);
    int rc = idents ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (!(idents[i] = ident_string(&req->changes[i].identifier)))
            rc = FLOE_ENOMEM;
    floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
    o.io = s->io;
    size_t failed = 0;
    if (rc == 0) {
        pthread_mutex_lock(&s->lock);
        rc = floe__table_commit_tables(s->cat, &o, n, (const char *const *)idents, borrow_change,
                                       (void *)req, &failed);
        pthread_mutex_unlock(&s->lock);
    }
    if (rc == FLOE_ENOTFOUND && failed < n)
        rc = floe__rest_no_such_table(&req->changes[failed].identifier);
    for (size_t i = 0; idents && i < n; i++)
        floe__free(idents[i]);
    floe__free(idents);
    return rc;
}

/* A table handle over the backend's FileIO, for server-side planning. */
static int sql_open_table(floe_rest_backend *b, const floe_rest_ident *id, floe_table **out)
{
    sql_backend *s = sb(b);
    *out = NULL;
    char *ident = NULL;
    FLOE_TRY(table_ident(id, &ident));
    floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
    o.io = s->io;
    pthread_mutex_lock(&s->lock);
    int rc = floe_table_load(out, s->cat, ident, &o);
    pthread_mutex_unlock(&s->lock);
    floe__free(ident);
    if (rc == FLOE_ENOTFOUND && floe__rest_raised(rc, FLOE_KIND_NO_SUCH_TABLE))
        rc = floe__rest_no_such_table(id);
    return rc;
}

static int sql_drop_table(floe_rest_backend *b, const floe_rest_ident *id, bool purge)
{
    sql_backend *s = sb(b);
    char *ident = NULL;
    FLOE_TRY(table_ident(id, &ident));
    char *loc = NULL;
    int rc = lookup(s, ident, &loc);
    /* purge reads and deletes files: only for tables inside the warehouse */
    if (rc == 0 && purge)
        rc = inside_warehouse(s, loc);
    floe__free(loc);
    if (rc == 0) {
        floe_table_options o = FLOE_TABLE_OPTIONS_INIT;
        o.io = s->io;
        pthread_mutex_lock(&s->lock);
        rc = floe_table_drop(s->cat, ident, purge, &o);
        pthread_mutex_unlock(&s->lock);
    }
    floe__free(ident);
    return rc == FLOE_ENOTFOUND ? floe__rest_no_such_table(id) : rc;
}

static int sql_rename_table(floe_rest_backend *b, const floe_rest_rename_table_req *req)
{
    sql_backend *s = sb(b);
    if (check_levels(&req->source.ns) < 0)
        return floe__rest_no_such_table(&req->source);
    FLOE_TRY(check_levels(&req->destination.ns));
    char *from = ident_string(&req->source), *to = ident_string(&req->destination);
    char *dns = ns_string(&req->destination.ns);
    int rc = from && to && dns ? 0 : FLOE_ENOMEM;
    char *loc = NULL;
    if (rc == 0)
        rc = lookup(s, from, &loc);
    floe__free(loc);
    if (rc == FLOE_ENOTFOUND)
        rc = floe__rest_no_such_table(&req->source);
    pthread_mutex_lock(&s->lock);
    if (rc == 0) {
        rc = floe_catalog_namespace_exists(s->cat, dns);
        rc = rc == 1 ? 0 : rc == 0 ? floe__rest_no_such_namespace(&req->destination.ns) : rc;
    }
    if (rc == 0) {
        rc = floe_catalog_rename_table(s->cat, from, to);
        if (rc == FLOE_EEXISTS)
            rc = floe__rest_table_exists_error(&req->destination);
        else if (rc == FLOE_ENOTFOUND)
            rc = floe__rest_no_such_table(&req->source);
    }
    pthread_mutex_unlock(&s->lock);
    floe__free(from);
    floe__free(to);
    floe__free(dns);
    return rc;
}

static int sql_register_table(floe_rest_backend *b, const floe_rest_namespace *nsp,
                              const floe_rest_register_table_req *req, floe_rest_table_result *out)
{
    sql_backend *s = sb(b);
    FLOE_TRY(check_levels(nsp));
    floe_rest_ident id = {*nsp, (char *)req->name};
    char *ident = ident_string(&id), *ns = ns_string(nsp);
    int rc = ident && ns ? 0 : FLOE_ENOMEM;
    if (rc == 0)
        rc = inside_warehouse(s, req->metadata_location);
    /* it must be table metadata; errors name the file, never its content */
    floe_buf buf = FLOE_BUF_INIT;
    if (rc == 0)
        rc = floe__io_read_all(s->io, req->metadata_location, SQL_MAX_METADATA, &buf);
    floe_table_metadata *m = NULL;
    if (rc == 0 && floe__metadata_parse(&m, buf.ptr, buf.len, "registered metadata") < 0)
        rc = floe__error(FLOE_EINVALID, "rest", "%s is not a valid table metadata file",
                         req->metadata_location);
    floe__metadata_free(m);
    floe__buf_free(&buf);
    pthread_mutex_lock(&s->lock);
    if (rc == 0) {
        rc = floe_catalog_namespace_exists(s->cat, ns);
        rc = rc == 1 ? 0 : rc == 0 ? floe__rest_no_such_namespace(nsp) : rc;
    }
    char *cur = NULL;
    if (rc == 0 && req->overwrite && floe_catalog_load_table(&cur, NULL, s->cat, ident) == 0)
        rc = floe_catalog_commit_table(s->cat, ident, cur, req->metadata_location);
    else if (rc == 0) {
        floe_error_clear();
        rc = floe_catalog_register_table(s->cat, ident, req->metadata_location);
        if (rc == FLOE_EEXISTS)
            rc = floe__rest_table_exists_error(&id);
    }
    floe_string_free(cur);
    pthread_mutex_unlock(&s->lock);
    char *loc = NULL;
    if (rc == 0 && !(loc = floe__strdup(req->metadata_location)))
        rc = floe__error_nomem();
    floe__free(ident);
    floe__free(ns);
    if (rc < 0)
        return rc;
    return fill_result(s, loc, FLOE_REST_SNAPSHOTS_ALL, out);
}

/* ---------------------------------------------------------------- views */

static int sql_list_views(floe_rest_backend *b, const floe_rest_namespace *nsp,
                          floe_rest_ident_list *out)
{
    return list_idents(b, nsp, out, true);
}

static int sql_views_begin(floe_rest_backend *b, floe_catalog **cat, floe_fileio **io)
{
    sql_backend *s = sb(b);
    pthread_mutex_lock(&s->lock);
    *cat = s->cat;
    *io = s->io;
    return 0;
}

static void sql_views_end(floe_rest_backend *b)
{
    pthread_mutex_unlock(&sb(b)->lock);
}

static int sql_view_location_ok(floe_rest_backend *b, const char *location, bool is_file)
{
    return is_file ? inside_warehouse(sb(b), location) : location_ok(sb(b), location);
}

static int sql_config(floe_rest_backend *b, const char *warehouse, floe_rest_config *out)
{
    (void)warehouse;
    sql_backend *s = sb(b);
    return s->advertise_warehouse ? floe__props_set(&out->defaults, "warehouse", s->root) : 0;
}

static void sql_free(floe_rest_backend *b)
{
    sql_backend *s = sb(b);
    if (s) {
        floe_catalog_free(s->cat);
        for (int i = 0; i < SQL_POOL; i++)
            floe_catalog_free(s->pool[i]);
        pthread_cond_destroy(&s->pool_cv);
        floe__free(s->db);
        floe__free(s->name);
        floe_fileio_free(s->io);
        floe__free(s->root);
        pthread_mutex_destroy(&s->lock);
        floe__free(s);
    }
    floe__free(b); /* floe__rest_backend_free only calls this */
}

/* The backend over `cat` and `io` (both taken, also on failure). */
static int backend_new(floe_rest_backend **out, floe_catalog *cat, floe_fileio *io,
                       const char *root, bool local)
{
    *out = NULL;
    floe_rest_backend *b = floe__calloc(1, sizeof *b);
    sql_backend *s = floe__calloc(1, sizeof *s);
    if (!b || !s) {
        floe__free(b);
        floe__free(s);
        floe_catalog_free(cat);
        floe_fileio_free(io);
        return floe__error_nomem();
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->pool_cv, NULL);
    s->cat = cat;
    s->io = io;
    s->local = local;
    b->version = FLOE_REST_BACKEND_VERSION;
    b->payload = s;
    b->free = sql_free;
    b->config = sql_config;
    b->list_namespaces = sql_list_namespaces;
    b->create_namespace = sql_create_namespace;
    b->load_namespace = sql_load_namespace;
    b->update_namespace_properties = sql_update_namespace;
    b->drop_namespace = sql_drop_namespace;
    b->list_tables = sql_list_tables;
    b->create_table = sql_create_table;
    b->load_table = sql_load_table;
    b->table_exists = sql_table_exists;
    b->table_location = sql_table_location;
    b->commit_table = sql_commit_table;
    b->drop_table = sql_drop_table;
    b->rename_table = sql_rename_table;
    b->register_table = sql_register_table;
    if (cat->views) {
        b->list_views = sql_list_views;
        b->views_begin = sql_views_begin;
        b->views_end = sql_views_end;
        b->view_location_ok = sql_view_location_ok;
    }
    /* advertised (and routed) only where every pointer swaps at once */
    b->commit_transaction = floe__catalog_commits_tables(cat) ? sql_commit_transaction : NULL;
    b->open_table = sql_open_table;
    size_t n = strlen(root);
    while (n > 1 && root[n - 1] == '/')
        n--;
    if (!(s->root = floe__strndup(root, n))) {
        floe__rest_backend_free(b);
        return floe__error_nomem();
    }
    *out = b;
    return 0;
}

static int local_root(const char *warehouse, char real[PATH_MAX])
{
    const char *p = warehouse ? floe__local_path(warehouse) : NULL;
    if (!p || !realpath(p, real))
        return floe__error(FLOE_EINVALID, "rest", "warehouse %s is not an existing directory",
                           warehouse ? warehouse : "(null)");
    return 0;
}

int floe__rest_backend_sql_new(floe_rest_backend **out, const char *warehouse,
                               const char *catalog_name)
{
    *out = NULL;
    char real[PATH_MAX];
    FLOE_TRY(local_root(warehouse, real));
    char *db = floe__sprintf("%s/catalog.db", real);
    char *name = catalog_name ? floe__strdup(catalog_name) : NULL;
    floe_fileio *io = NULL;
    floe_catalog *cat = NULL;
    int rc = db && (!catalog_name || name) ? 0 : floe__error_nomem();
    if (rc == 0)
        rc = floe_fileio_local_new(&io);
    if (rc == 0) {
        floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
        o.name = catalog_name;
        o.warehouse = real;
        rc = floe_catalog_open_sql(&cat, db, &o);
    }
    if (rc == 0)
        rc = backend_new(out, cat, io, real, true);
    else {
        floe_catalog_free(cat);
        floe_fileio_free(io);
    }
    if (rc != 0) { /* every call above returns 0 or a FLOE_E* */
        floe__free(db);
        floe__free(name);
        return rc;
    }
    sql_backend *s = sb(*out);
    s->db = db;
    s->name = name;
    return 0;
}

int floe__rest_backend_memory_new(floe_rest_backend **out, const char *warehouse)
{
    *out = NULL;
    if (!warehouse)
        warehouse = FLOE_REST_MEMORY_WAREHOUSE;
    floe_fileio *io = NULL;
    floe_catalog *cat = NULL;
    int rc = floe_fileio_memory_new(&io);
    if (rc == 0) {
        floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
        o.warehouse = warehouse;
        rc = floe_catalog_open_sql(&cat, ":memory:", &o);
    }
    if (rc < 0) {
        floe_fileio_free(io);
        return rc;
    }
    FLOE_TRY(backend_new(out, cat, io, warehouse, false));
    sb(*out)->advertise_warehouse = true;
    return 0;
}

int floe__rest_backend_catalog_new(floe_rest_backend **out, floe_catalog *cat,
                                   const char *warehouse)
{
    *out = NULL;
    char real[PATH_MAX];
    floe_fileio *io = NULL;
    int rc = local_root(warehouse, real);
    if (rc == 0)
        rc = floe_fileio_local_new(&io);
    if (rc < 0) {
        floe_catalog_free(cat);
        return rc;
    }
    return backend_new(out, cat, io, real, true);
}
