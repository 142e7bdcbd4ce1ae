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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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

/* floe_sql_options.is_table: the table exists in the named catalog. */
static bool is_table_name(const char *catalog, const char *ident, void *payload)
{
    floe_sql_session *s = payload;
    for (size_t i = 0; i < s->ncats; i++) {
        if (strcasecmp(s->cats[i].name, catalog) != 0)
            continue;
        if (!s->cats[i].catalog)
            return false;
        char *loc = NULL;
        int rc = floe_catalog_load_table(&loc, NULL, s->cats[i].catalog, ident);
        floe_string_free(loc);
        if (rc < 0)
            floe_error_clear(); /* not a table: the name keeps its suffix meaning */
        return rc == 0;
    }
    return false;
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

/* ---------------------------------------------------------------- keys */

/* Catalog properties (Spark's spark.sql.catalog.<name>.<key>, or a plain
 * --conf key for the session's catalog): fixed when the session opens. */
static const char *const catalog_keys[] = {
    "type", "uri", "warehouse", "cache-enabled", "cache.expiration-interval-ms", NULL};
/* The ones only a Hive Metastore catalog reads (Iceberg's HiveCatalog takes
 * its lock settings from the Hadoop configuration, which Spark fills from
 * spark.sql.catalog.<name>.hadoop.<key>). */
static const char *const hive_keys[] = {"clients",
                                        "hadoop.iceberg.hive.lock-timeout-ms",
                                        "hadoop.iceberg.hive.lock-check-min-wait-ms",
                                        "hadoop.iceberg.hive.lock-check-max-wait-ms",
                                        "hadoop.iceberg.hive.lock-heartbeat-interval-ms",
                                        "hadoop.iceberg.engine.hive.lock-enabled",
                                        "hadoop.iceberg.hive.table-property-max-size",
                                        "hadoop.hive.metastore.thrift.framed.transport.enabled",
                                        "hadoop.hive.metastore.client.socket.timeout",
                                        NULL};
/* The ones only an Iceberg REST catalog reads. */
static const char *const rest_keys[] = {
    "token", "credential", "oauth2-server-uri", "scope", "header.X-Iceberg-Access-Delegation",
    NULL};
/* Session options floe reads (SET or --conf). */
static const char *const session_keys[] = {"spark.sql.session.timeZone",
                                           "spark.wap.id",
                                           "spark.wap.branch",
                                           "spark.sql.sources.partitionOverwriteMode",
                                           "floe.format",
                                           "floe.continue-on-error",
                                           "floe.fast-aggregates",
                                           "floe.column-defaults",
                                           "floe.remove-orphan-files.validate-interval",
                                           NULL};

/* "floe.a, floe.b, ...": the floe.* session options, for refusals. */
static const char *floe_keys_text(char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; session_keys[i]; i++) {
        if (strncmp(session_keys[i], "floe.", 5) != 0)
            continue;
        int w = snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", session_keys[i]);
        if (w < 0 || (size_t)w >= cap - n)
            break;
        n += (size_t)w;
    }
    return buf;
}

#define SPARK_CATALOG_PREFIX "spark.sql.catalog."
#define SPARK_CATALOG_IMPL "org.apache.iceberg.spark.SparkCatalog"
/* Iceberg's SQL extensions, always on in floe: the one value of
 * spark.sql.extensions a session accepts (at start, a static config). */
#define SPARK_EXTENSIONS_KEY "spark.sql.extensions"
#define ICEBERG_EXTENSIONS "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions"

static bool in_list(const char *const *list, const char *key)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], key) == 0)
            return true;
    return false;
}

/* Any catalog property: the common ones, a REST catalog's, a Hive
 * Metastore catalog's. */
static bool is_catalog_key(const char *key)
{
    return in_list(catalog_keys, key) || in_list(rest_keys, key) || in_list(hive_keys, key);
}

static bool is_fileio_key(const char *key)
{
    return strncmp(key, "s3.", 3) == 0 || strcmp(key, "io.location-map") == 0 ||
           strcmp(key, "catalog.db") == 0;
}

int floe__sql_check_set_key(floe_sql_session *s, const char *key)
{
    int rc = 0;
    if (in_list(session_keys, key))
        return 0;
    if (strcmp(key, SPARK_EXTENSIONS_KEY) == 0)
        rc = floe__error(FLOE_EINVALID, "sql",
                         "Cannot modify the value of a static config: " SPARK_EXTENSIONS_KEY);
    else if (is_catalog_key(key) || is_fileio_key(key) ||
             strncmp(key, SPARK_CATALOG_PREFIX, strlen(SPARK_CATALOG_PREFIX)) == 0 ||
             strcmp(key, "spark.sql.defaultCatalog") == 0)
        rc = floe__error(FLOE_EINVALID, "sql",
                         "Cannot set '%s' in a running session: catalog and FileIO properties "
                         "are read when the session opens (floe sql --conf %s=..., or "
                         "--conf spark.sql.catalog.<name>.<key>=... for a catalog)",
                         key, key);
    else if (strncmp(key, "spark.", 6) == 0)
        rc = floe__error(FLOE_EINVALID, "sql",
                         "Cannot set '%s': floe does not implement this Spark property (setting "
                         "it would change nothing)",
                         key);
    else if (strncmp(key, "floe.", 5) == 0) {
        char keys[256];
        rc = floe__error(FLOE_EINVALID, "sql", "Cannot set '%s': not a floe session property (%s)",
                         key, floe_keys_text(keys, sizeof keys));
    } else
        return 0; /* a variable: ${key} reads it and SET lists it */
    s->error_class = strcmp(key, SPARK_EXTENSIONS_KEY) == 0 ? "AnalysisException" /* Spark's */
                                                            : "IllegalArgumentException";
    return rc;
}

/* ---------------------------------------------------------------- catalogs */

int floe__sql_catalog_index(const floe_sql_session *s, const char *name)
{
    for (size_t i = 0; name && i < s->ncats; i++)
        if (strcasecmp(s->cats[i].name, name) == 0)
            return (int)i;
    return -1;
}

static floe_sql_catalog *add_catalog(floe_sql_session *s, const char *name, size_t len)
{
    for (size_t i = 0; i < s->ncats; i++)
        if (strlen(s->cats[i].name) == len && strncasecmp(s->cats[i].name, name, len) == 0)
            return &s->cats[i];
    floe_sql_catalog *c = floe__realloc(s->cats, (s->ncats + 1) * sizeof *c);
    if (!c)
        return NULL;
    s->cats = c;
    c = &s->cats[s->ncats];
    memset(c, 0, sizeof *c);
    if (!(c->name = floe__strndup(name, len)))
        return NULL;
    s->ncats++;
    return c;
}

/* The catalogs of --conf: the session's (cats[0], named `name`) with the
 * plain catalog keys, and one per spark.sql.catalog.<n> = SparkCatalog
 * with its spark.sql.catalog.<n>.<key> properties. Every key is checked:
 * one floe would not act on is refused. */
static int collect_catalogs(floe_sql_session *s, const char *name)
{
    if (!add_catalog(s, name, strlen(name)))
        return floe__error_nomem();
    const size_t np = strlen(SPARK_CATALOG_PREFIX);
    /* definitions first, so properties may come in any order */
    for (size_t i = 0; i < s->conf.n; i++) {
        const char *k = s->conf.items[i].key, *v = s->conf.items[i].value;
        if (strncmp(k, SPARK_CATALOG_PREFIX, np) != 0 || strchr(k + np, '.') || !k[np])
            continue;
        if (strcmp(v, SPARK_CATALOG_IMPL) != 0)
            return floe__error(
                FLOE_EINVALID, "sql",
                "--conf %s=%s: floe's catalogs are Iceberg catalogs (" SPARK_CATALOG_IMPL ")", k,
                v);
        floe_sql_catalog *c = add_catalog(s, k + np, strlen(k + np));
        if (!c)
            return floe__error_nomem();
        c->spark = true;
    }
    for (size_t i = 0; i < s->conf.n; i++) {
        const char *k = s->conf.items[i].key, *v = s->conf.items[i].value;
        floe_sql_catalog *c = NULL;
        const char *prop = k;
        if (strncmp(k, SPARK_CATALOG_PREFIX, np) == 0) {
            const char *dot = strchr(k + np, '.');
            if (!dot)
                continue; /* a definition */
            int idx = -1;
            for (size_t j = 0; j < s->ncats; j++)
                if (strlen(s->cats[j].name) == (size_t)(dot - (k + np)) &&
                    strncasecmp(s->cats[j].name, k + np, (size_t)(dot - (k + np))) == 0)
                    idx = (int)j;
            if (idx < 0)
                return floe__error(FLOE_EINVALID, "sql",
                                   "--conf %s: catalog '%.*s' is not defined (--conf "
                                   "spark.sql.catalog.%.*s=" SPARK_CATALOG_IMPL ")",
                                   k, (int)(dot - (k + np)), k + np, (int)(dot - (k + np)), k + np);
            c = &s->cats[idx];
            prop = dot + 1;
            if (is_fileio_key(prop))
                return floe__error(FLOE_EINVALID, "sql",
                                   "--conf %s: FileIO properties are the session's (one FileIO "
                                   "reads every catalog's files): --conf %s=...",
                                   k, prop);
            if (!is_catalog_key(prop))
                return floe__error(FLOE_EINVALID, "sql",
                                   "--conf %s: unknown catalog property '%s' (floe knows type, "
                                   "uri, warehouse, cache-enabled, cache.expiration-interval-ms, "
                                   "token, credential, oauth2-server-uri, scope)",
                                   k, prop);
        } else if (is_catalog_key(k)) {
            c = &s->cats[0];
        } else if (strcmp(k, "spark.sql.defaultCatalog") == 0 || is_fileio_key(k) ||
                   in_list(session_keys, k)) {
            continue;
        } else if (strcmp(k, SPARK_EXTENSIONS_KEY) == 0) {
            if (strcmp(v, ICEBERG_EXTENSIONS) != 0)
                return floe__error(
                    FLOE_EINVALID, "sql",
                    "--conf %s=%s: floe has Iceberg's SQL extensions (" ICEBERG_EXTENSIONS
                    ", always on) and no others",
                    k, v);
            continue;
        } else if (strncmp(k, "spark.", 6) == 0) {
            return floe__error(FLOE_EINVALID, "sql",
                               "--conf %s: a Spark property floe does not implement (it would "
                               "change nothing)",
                               k);
        } else if (strncmp(k, "floe.", 5) == 0) {
            char keys[256];
            return floe__error(FLOE_EINVALID, "sql", "--conf %s: not a floe session property (%s)",
                               k, floe_keys_text(keys, sizeof keys));
        } else {
            continue; /* a variable: ${key} */
        }
        FLOE_TRY(floe__props_set(&c->props, prop, v));
    }
    return 0;
}

/* The connection string a catalog's properties name: uri, else
 * <warehouse>/catalog.db. *rest: an Iceberg REST catalog. Checks type and
 * the REST-only keys. */
static int catalog_uri(floe_sql_catalog *c, const char *fallback, char **uri, bool *rest)
{
    const char *type = floe__props_get(&c->props, "type");
    const char *u = floe__props_get(&c->props, "uri");
    bool http = u && (strncmp(u, "http://", 7) == 0 || strncmp(u, "https://", 8) == 0);
    bool thrift = u && strncmp(u, "thrift://", 9) == 0;
    if (type && strcmp(type, "rest") != 0 && strcmp(type, "jdbc") != 0 &&
        strcmp(type, "sql") != 0 && strcmp(type, "hive") != 0)
        return floe__error(FLOE_EINVALID, "sql",
                           "catalog '%s': type '%s' is not supported (floe has type=jdbc, a "
                           "SQLite catalog database in the JDBC schema, type=rest and type=hive)",
                           c->name, type);
    if (type && strcmp(type, "hive") == 0 && !thrift)
        return floe__error(FLOE_EINVALID, "sql",
                           "catalog '%s': type=hive needs uri=thrift://host:port (the Hive "
                           "Metastore)",
                           c->name);
    if (type && strcmp(type, "hive") != 0 && thrift)
        return floe__error(FLOE_EINVALID, "sql",
                           "catalog '%s': uri %s is a Hive Metastore: type=hive", c->name, u);
    for (size_t i = 0; !thrift && hive_keys[i]; i++)
        if (floe__props_get(&c->props, hive_keys[i]))
            return floe__error(FLOE_EINVALID, "sql",
                               "catalog '%s': %s is a property of a Hive Metastore catalog "
                               "(type=hive, uri=thrift://...)",
                               c->name, hive_keys[i]);
    if (type && strcmp(type, "rest") == 0 && !http)
        return floe__error(FLOE_EINVALID, "sql",
                           "catalog '%s': type=rest needs uri=http(s)://...%s", c->name, "");
    if (type && strcmp(type, "rest") != 0 && http)
        return floe__error(FLOE_EINVALID, "sql",
                           "catalog '%s': uri %s is a REST catalog: type=rest", c->name, u);
    *rest = http;
    for (size_t i = 0; !http && rest_keys[i]; i++)
        if (floe__props_get(&c->props, rest_keys[i]))
            return floe__error(FLOE_EINVALID, "sql",
                               "catalog '%s': %s is a property of a REST catalog (uri=http://...)",
                               c->name, rest_keys[i]);
    if (!u && !fallback) {
        *uri = NULL; /* nothing named */
        return 0;
    }
    *uri = floe__strdup(u ? u : fallback);
    return *uri ? 0 : floe__error_nomem();
}

/* A Hive Metastore (Spark's type=hive): uri, warehouse, and Iceberg's
 * HiveCatalog lock settings from the Hadoop configuration keys. */
static int hive_ms(floe_sql_catalog *c, const char *key, long *out)
{
    int64_t v = 0;
    FLOE_TRY(floe__props_get_int64(&c->props, key, 0, &v));
    if (v < 0 || v > INT32_MAX)
        return floe__error(FLOE_EINVALID, "sql", "catalog '%s': %s=%lld is out of range", c->name,
                           key, (long long)v);
    *out = (long)v;
    return 0;
}

static int open_hive_catalog(floe_sql_catalog *c, const char *uri, const char *warehouse)
{
    floe_hive_catalog_options ho = FLOE_HIVE_CATALOG_OPTIONS_INIT;
    ho.name = c->name;
    const char *w = floe__props_get(&c->props, "warehouse");
    ho.warehouse = w ? w : warehouse;
    bool lock = true, framed = false;
    FLOE_TRY(hive_ms(c, "hadoop.iceberg.hive.lock-timeout-ms", &ho.lock_timeout_ms));
    FLOE_TRY(hive_ms(c, "hadoop.iceberg.hive.lock-check-min-wait-ms", &ho.lock_check_min_wait_ms));
    FLOE_TRY(hive_ms(c, "hadoop.iceberg.hive.lock-check-max-wait-ms", &ho.lock_check_max_wait_ms));
    FLOE_TRY(hive_ms(c, "hadoop.iceberg.hive.lock-heartbeat-interval-ms",
                     &ho.lock_heartbeat_interval_ms));
    FLOE_TRY(
        floe__props_get_bool(&c->props, "hadoop.iceberg.engine.hive.lock-enabled", true, &lock));
    FLOE_TRY(floe__props_get_bool(
        &c->props, "hadoop.hive.metastore.thrift.framed.transport.enabled", false, &framed));
    ho.lock_disabled = !lock;
    int64_t max_size = 0;
    FLOE_TRY(floe__props_get_int64(&c->props, "hadoop.iceberg.hive.table-property-max-size", 32672,
                                   &max_size));
    ho.table_property_max_size = max_size <= 0          ? -1
                                 : max_size > INT32_MAX ? INT32_MAX
                                                        : (long)max_size;
    ho.framed = framed;
    const char *to = floe__props_get(&c->props, "hadoop.hive.metastore.client.socket.timeout");
    if (to) {
        /* Hive's time value: seconds by default, or with a unit suffix s / ms. */
        char *end = NULL;
        long v = strtol(to, &end, 10);
        if (end == to || v <= 0 || (*end && strcmp(end, "s") != 0 && strcmp(end, "ms") != 0))
            return floe__error(FLOE_EINVALID, "sql",
                               "catalog '%s': hadoop.hive.metastore.client.socket.timeout=%s: "
                               "expected a time such as 600s or 5000ms",
                               c->name, to);
        ho.timeout_ms = strcmp(end, "ms") == 0 ? v : v * 1000;
    }
    return floe_catalog_open_hive(&c->catalog, uri, &ho);
}

static int open_catalog(floe_sql_catalog *c, const char *uri, bool rest, const char *warehouse)
{
    if (rest) {
        /* an Iceberg REST catalog (Spark's type=rest with its property
         * names: warehouse, token, credential, oauth2-server-uri, scope) */
        floe_rest_catalog_options ro = FLOE_REST_CATALOG_OPTIONS_INIT;
        ro.name = c->name;
        ro.warehouse = floe__props_get(&c->props, "warehouse");
        ro.token = floe__props_get(&c->props, "token");
        ro.credential = floe__props_get(&c->props, "credential");
        ro.oauth2_server_uri = floe__props_get(&c->props, "oauth2-server-uri");
        ro.scope = floe__props_get(&c->props, "scope");
        ro.access_delegation = floe__props_get(&c->props, "header.X-Iceberg-Access-Delegation");
        return floe_catalog_open_rest(&c->catalog, uri, &ro);
    }
    if (strncmp(uri, "thrift://", 9) == 0)
        return open_hive_catalog(c, uri, warehouse);
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.name = c->name;
    const char *w = floe__props_get(&c->props, "warehouse");
    co.warehouse = w ? w : warehouse;
    return floe_catalog_open_sql(&c->catalog, uri, &co);
}

/* Every catalog other than the session's: its own database or REST
 * catalog when it names one (type, uri or warehouse), else the session's
 * catalog (its database and catalog_name rows) with its own settings, as
 * two Spark catalogs over one metastore. */
static int open_other_catalogs(floe_sql_session *s)
{
    for (size_t i = 1; i < s->ncats; i++) {
        floe_sql_catalog *c = &s->cats[i];
        const char *w = floe__props_get(&c->props, "warehouse");
        if (!floe__props_get(&c->props, "type") && !floe__props_get(&c->props, "uri") && !w) {
            bool rest = false;
            char *u = NULL;
            FLOE_TRY(catalog_uri(c, "", &u, &rest)); /* checks the keys */
            floe__free(u);
            c->catalog = s->cats[0].catalog;
            c->shared = true;
            continue;
        }
        char *def = NULL;
        if (w && !is_object_store(w)) {
            FLOE_TRY(make_dirs(w));
            if (!(def = floe__sprintf("%s/catalog.db", w)))
                return floe__error_nomem();
        }
        char *uri = NULL;
        bool rest = false;
        int rc = catalog_uri(c, def ? def : NULL, &uri, &rest);
        floe__free(def);
        if (rc == 0 && !uri)
            rc = floe__error(FLOE_EINVALID, "sql",
                             "catalog '%s': set uri (or warehouse) of its catalog database%s",
                             c->name, "");
        if (rc == 0)
            rc = open_catalog(c, uri, rest, s->warehouse);
        floe__free(uri);
        if (rc < 0)
            return floe__error_context("opening catalog '%s'", c->name);
    }
    return 0;
}

int floe__sql_catalog_open(floe_catalog **out, const char *name, const char *uri,
                           const floe_props *conf, const char *warehouse)
{
    *out = NULL;
    floe_sql_session *s = floe__calloc(1, sizeof *s);
    if (!s)
        return floe__error_nomem();
    int rc = conf ? floe__props_copy(&s->conf, conf) : 0;
    if (rc == 0)
        rc = collect_catalogs(s, name ? name : FLOE_CATALOG_DEFAULT_NAME);
    floe_sql_catalog *c = rc == 0 ? &s->cats[0] : NULL;
    if (rc == 0 && uri)
        rc = floe__props_set(&c->props, "uri", uri);
    char *u = NULL;
    bool rest = false;
    if (rc == 0)
        rc = catalog_uri(c, NULL, &u, &rest);
    if (rc == 0 && u) { /* no uri: nothing to open (the keys were checked) */
        rc = open_catalog(c, u, rest, warehouse);
        if (rc == 0) {
            *out = c->catalog;
            c->catalog = NULL;
        }
    }
    floe__free(u);
    floe__sql_session_free(s);
    return rc;
}

void floe__sql_use_catalog(floe_sql_session *s, size_t k)
{
    s->cur = k;
    s->catalog = s->cats[k].catalog;
    s->catalog_name = s->cats[k].name;
    floe__sql_engine_catalog_changed(s);
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
    s->fmt = s->fmt0 = opts->format;
    s->write = opts->write;
    s->payload = opts->payload;
    s->on_error = opts->on_error;
    s->progress = opts->progress;
    s->progress_payload = opts->progress_payload;
    int rc = 0;
    const char *wh = opts->warehouse ? opts->warehouse : "warehouse";
    if (opts->conf && (rc = floe__props_copy(&s->conf, opts->conf)) < 0)
        goto fail;
    const char *name = opts->catalog_name ? opts->catalog_name
                                          : floe__props_get(&s->conf, "spark.sql.defaultCatalog");
    if ((rc = collect_catalogs(s, name ? name : FLOE_CATALOG_DEFAULT_NAME)) < 0)
        goto fail;
    floe_sql_catalog *main = &s->cats[0];
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
        if (floe__props_get(&s->conf, "catalog.db")) {
            rc = floe__error(FLOE_EINVALID, "sql",
                             "--conf catalog.db=%s: the catalog database of a local warehouse is "
                             "<warehouse>/catalog.db (catalog.db is for an s3:// warehouse; or "
                             "--catalog-uri)%s",
                             floe__props_get(&s->conf, "catalog.db"), "");
            goto fail;
        }
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
    if (!s->warehouse || !default_db) {
        floe__free(default_db);
        rc = floe__error_nomem();
        goto fail;
    }
    if (opts->catalog_uri && (rc = floe__props_set(&main->props, "uri", opts->catalog_uri)) < 0) {
        floe__free(default_db);
        goto fail;
    }
    char *uri = NULL;
    bool rest = false;
    rc = catalog_uri(main, default_db, &uri, &rest);
    floe__free(default_db);
    if (rc == 0)
        rc = open_catalog(main, uri, rest, s->warehouse);
    floe__free(uri);
    if (rc == 0)
        rc = open_other_catalogs(s);
    if (rc < 0)
        goto fail;
    if (!(s->cat_names = floe__calloc(s->ncats, sizeof *s->cat_names))) {
        rc = floe__error_nomem();
        goto fail;
    }
    for (size_t i = 0; i < s->ncats; i++)
        s->cat_names[i] = s->cats[i].name;
    s->catalog = main->catalog;
    s->catalog_name = main->name;
    if (sqlite3_open_v2(":memory:", &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        rc = floe__error(FLOE_ENOMEM, "sql", "cannot open the SQLite engine");
        goto fail;
    }
    s->fopt = (floe_sql_options)FLOE_SQL_OPTIONS_INIT;
    s->fopt.catalog_name = main->name;
    s->fopt.catalogs = s->cat_names;
    s->fopt.ncatalogs = s->ncats;
    s->fopt.is_local = is_local_name;
    s->fopt.is_table = is_table_name;
    s->fopt.payload = s;
    /* session options given with --conf take effect as SET would */
    const char *fmt = floe__props_get(&s->conf, "floe.format");
    if (fmt && (rc = floe__sql_format_parse(fmt, &s->fmt)) < 0)
        goto fail;
    if ((rc = floe__sql_out_new(&s->out, s->fmt, s->write, s->payload)) < 0)
        goto fail;
    if ((rc = floe__sql_register_functions(s)) < 0)
        goto fail;
    if ((rc = floe__sql_engine_init(s)) < 0)
        goto fail;
    const char *tz = floe__props_get(&s->conf, "spark.sql.session.timeZone");
    if (tz && (rc = floe__sql_session_set_time_zone(s, tz)) < 0)
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
    floe__sql_view_objects_keep(s); /* the names only: the connection is gone */
    floe__sql_out_free(s->out);
    for (size_t i = 0; i < s->ncats; i++) {
        if (!s->cats[i].shared)
            floe_catalog_free(s->cats[i].catalog);
        floe__props_free(&s->cats[i].props);
        floe__free(s->cats[i].name);
    }
    floe__free(s->cats);
    floe__free(s->cat_names);
    floe__props_free(&s->conf);
    floe__props_free(&s->options);
    floe__props_free(&s->vars);
    floe__buf_free(&s->struct_cols);
    floe__buf_free(&s->view_types);
    floe__tz_free(s->tz);
    floe__free(s->current_ns);
    floe__free(s->warehouse);
    floe__free(s);
}

const char *floe__sql_session_error_class(const floe_sql_session *s)
{
    return s->error_class;
}

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
