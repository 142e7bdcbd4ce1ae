/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/session: the state one `floe sql` process keeps across statements —
 * the warehouse and its SQLite catalog (<warehouse>/catalog.db, created on
 * first use, JDBC-catalog schema), an in-memory SQLite connection that runs
 * the queries, session options (SET, --conf), variables (SET VAR), the
 * current namespace (USE), the session time zone (SET TIME ZONE) and the
 * output formatter. Statement execution is in exec*.c.
 */
#include "sql/session_int.h"

#include "util/time.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int floe__sql_format_parse(const char *name, floe_sql_format *out)
{
    if (name && strcasecmp(name, "table") == 0)
        *out = FLOE_SQLFMT_TABLE;
    else if (name && strcasecmp(name, "csv") == 0)
        *out = FLOE_SQLFMT_CSV;
    else if (name && strcasecmp(name, "json") == 0)
        *out = FLOE_SQLFMT_JSON;
    else
        return floe__error(FLOE_EINVALID, "sql", "unknown output format '%s' (table, csv, json)",
                           name ? name : "");
    return 0;
}

static bool is_object_store(const char *uri)
{
    return strncmp(uri, "s3://", 5) == 0 || strncmp(uri, "s3a://", 6) == 0 ||
           strncmp(uri, "s3n://", 6) == 0;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
    char *p = floe__strdup(path);
    if (!p)
        return floe__error_nomem();
    int rc = 0;
    for (char *q = p + 1;; q++) {
        if (*q == '/' || *q == '\0') {
            char c = *q;
            *q = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                rc = floe__error(FLOE_EIO, "sql", "cannot create directory %s: %s", p,
                                 strerror(errno));
                break;
            }
            *q = c;
            if (c == '\0')
                break;
        }
    }
    floe__free(p);
    return rc;
}

static bool is_local_name(const char *name, void *payload)
{
    floe_sql_session *s = payload;
    sqlite3_stmt *st = NULL;
    bool found = false;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT 1 FROM temp.sqlite_master WHERE type IN ('view','table') "
                           "AND lower(name) = lower(?1)",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        found = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    return found;
}

int floe__sql_session_open(floe_sql_session **out, const floe_sql_session_options *opts)
{
    floe_sql_session_options def = FLOE_SQL_SESSION_OPTIONS_INIT;
    if (!opts)
        opts = &def;
    *out = NULL;
    floe_sql_session *s = floe__calloc(1, sizeof *s);
    if (!s)
        return floe__error_nomem();
    s->fmt = opts->format;
    s->write = opts->write;
    s->payload = opts->payload;
    s->on_error = opts->on_error;
    s->progress = opts->progress;
    s->progress_payload = opts->progress_payload;
    int rc = 0;
    const char *wh = opts->warehouse ? opts->warehouse : "warehouse";
    s->catalog_name =
        floe__strdup(opts->catalog_name ? opts->catalog_name : FLOE_CATALOG_DEFAULT_NAME);
    if (!s->catalog_name) {
        rc = floe__error_nomem();
        goto fail;
    }
    if (opts->conf && (rc = floe__props_copy(&s->conf, opts->conf)) < 0)
        goto fail;
    char abs[PATH_MAX];
    char *default_db = NULL;
    if (is_object_store(wh)) {
        /* A warehouse on S3: tables live there, the SQLite catalog file stays
         * local (--conf catalog.db=PATH, else ~/.floe/catalog-<hash>.db). */
        size_t n = strlen(wh);
        while (n > 0 && wh[n - 1] == '/')
            n--;
        s->warehouse = floe__strndup(wh, n);
        const char *db = floe__props_get(&s->conf, "catalog.db");
        if (db) {
            default_db = floe__strdup(db);
        } else {
            const char *home = getenv("HOME");
            char *dir = floe__sprintf("%s/.floe", home && *home ? home : ".");
            if (dir && (rc = make_dirs(dir)) == 0)
                default_db = floe__sprintf("%s/catalog-%016llx.db", dir,
                                           (unsigned long long)floe__hash_bytes(wh, n));
            floe__free(dir);
            if (rc < 0)
                goto fail;
        }
    } else {
        if ((rc = make_dirs(wh)) < 0)
            goto fail;
        if (!realpath(wh, abs)) {
            rc = floe__error(FLOE_EIO, "sql", "cannot resolve warehouse %s: %s", wh,
                             strerror(errno));
            goto fail;
        }
        s->warehouse = floe__strdup(abs);
        default_db = floe__sprintf("%s/catalog.db", abs);
    }
    const char *curi = opts->catalog_uri ? opts->catalog_uri : floe__props_get(&s->conf, "uri");
    char *uri = curi ? floe__strdup(curi) : default_db;
    if (curi)
        floe__free(default_db);
    if (!s->warehouse || !uri) {
        floe__free(uri);
        rc = floe__error_nomem();
        goto fail;
    }
    if (strncmp(uri, "http://", 7) == 0 || strncmp(uri, "https://", 8) == 0) {
        /* an Iceberg REST catalog (Spark's type=rest with its property
         * names: warehouse, token, credential, oauth2-server-uri, scope) */
        floe_rest_catalog_options ro = FLOE_REST_CATALOG_OPTIONS_INIT;
        ro.name = s->catalog_name;
        ro.warehouse = floe__props_get(&s->conf, "warehouse");
        ro.token = floe__props_get(&s->conf, "token");
        ro.credential = floe__props_get(&s->conf, "credential");
        ro.oauth2_server_uri = floe__props_get(&s->conf, "oauth2-server-uri");
        ro.scope = floe__props_get(&s->conf, "scope");
        ro.access_delegation = floe__props_get(&s->conf, "header.X-Iceberg-Access-Delegation");
        rc = floe_catalog_open_rest(&s->catalog, uri, &ro);
    } else {
        floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
        co.name = s->catalog_name;
        co.warehouse = s->warehouse;
        rc = floe_catalog_open_sql(&s->catalog, uri, &co);
    }
    floe__free(uri);
    if (rc < 0)
        goto fail;
    if (sqlite3_open_v2(":memory:", &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        rc = floe__error(FLOE_ENOMEM, "sql", "cannot open the SQLite engine");
        goto fail;
    }
    s->fopt = (floe_sql_options)FLOE_SQL_OPTIONS_INIT;
    s->fopt.catalog_name = s->catalog_name;
    s->fopt.is_local = is_local_name;
    s->fopt.payload = s;
    if ((rc = floe__sql_out_new(&s->out, s->fmt, s->write, s->payload)) < 0)
        goto fail;
    if ((rc = floe__sql_register_functions(s)) < 0)
        goto fail;
    if ((rc = floe__sql_engine_init(s)) < 0)
        goto fail;
    *out = s;
    return 0;
fail:
    floe__sql_session_free(s);
    return rc;
}

void floe__sql_session_free(floe_sql_session *s)
{
    if (!s)
        return;
    /* the connection first: its virtual tables own row sources */
    if (s->db)
        sqlite3_close(s->db);
    floe__sql_engine_fini(s);
    floe__sql_out_free(s->out);
    floe_catalog_free(s->catalog);
    floe__props_free(&s->conf);
    floe__props_free(&s->options);
    floe__props_free(&s->vars);
    floe__buf_free(&s->struct_cols);
    floe__tz_free(s->tz);
    floe__free(s->current_ns);
    floe__free(s->warehouse);
    floe__free(s->catalog_name);
    floe__free(s);
}

const char *floe__sql_session_error_class(const floe_sql_session *s) { return s->error_class; }

void floe__sql_session_set_format(floe_sql_session *s, floe_sql_format fmt)
{
    s->fmt = fmt;
    floe_sql_out *o = NULL;
    if (floe__sql_out_new(&o, fmt, s->write, s->payload) == 0) {
        floe__sql_out_free(s->out);
        s->out = o;
    }
}

const char *floe__sql_session_option(const floe_sql_session *s, const char *key)
{
    const char *v = floe__props_get(&s->options, key);
    return v ? v : floe__props_get(&s->conf, key);
}

const char *floe__sql_session_var(const floe_sql_session *s, const char *name)
{
    return floe__props_get(&s->vars, name);
}

/* The zone of `SET TIME ZONE LOCAL`: $TZ, else /etc/localtime's name. */
static char *local_zone_name(void)
{
    const char *tz = getenv("TZ");
    if (tz && *tz)
        return floe__strdup(tz[0] == ':' ? tz + 1 : tz);
    char buf[PATH_MAX];
    ssize_t n = readlink("/etc/localtime", buf, sizeof buf - 1);
    if (n > 0) {
        buf[n] = '\0';
        const char *z = strstr(buf, "zoneinfo/");
        if (z)
            return floe__strdup(z + 9);
    }
    return floe__strdup("UTC");
}

int floe__sql_session_set_time_zone(floe_sql_session *s, const char *name)
{
    char *owned = NULL;
    if (strcasecmp(name, "LOCAL") == 0) {
        owned = local_zone_name();
        if (!owned)
            return floe__error_nomem();
        name = owned;
    }
    floe_tz *tz = NULL;
    int rc = floe__tz_load(&tz, name);
    if (rc < 0) {
        floe__free(owned);
        return floe__error(rc == FLOE_ENOMEM ? rc : FLOE_EINVALID, "sql",
                           "Cannot resolve the given timezone with ZoneId.of(\"%s\")", name);
    }
    floe__free(owned);
    floe__tz_free(s->tz);
    s->tz = tz;
    floe__sql_engine_time_zone_changed(s);
    return 0;
}
