/* SPDX-License-Identifier: Apache-2.0 */
/*
 * floe_sqlite: the SQL shell's Iceberg virtual tables as a SQLite loadable
 * extension (https://sqlite.org/loadext.html), for any program that uses
 * the system's libsqlite3 (the sqlite3 command-line shell, Python's sqlite3
 * module):
 *
 *   .load ./floe_sqlite
 *   CREATE VIRTUAL TABLE orders USING floe(warehouse='/data/wh', table='shop.orders');
 *   SELECT count(*), sum(amount) FROM orders;
 *
 * Arguments (name=value, the value bare or quoted):
 *   warehouse   the directory `floe sql --warehouse` uses (its SQLite catalog
 *               is <warehouse>/catalog.db unless `catalog` names another);
 *   table       the table identifier, "namespace.table";
 *   catalog     optional path of the SQLite catalog database;
 *   catalog_name optional: the catalog's name in that database ("local",
 *               floe sql's default; --catalog-name);
 *   snapshot_id optional: read that snapshot (time travel);
 *   ref         optional: read a branch or tag.
 * The table is read only; its columns are fixed when the virtual table is
 * created (CREATE) or the database is opened again (the arguments are kept
 * in the schema), and every query sees the latest commit of the table
 * (the catalog pointer is checked at each scan). Projection, pushdown and
 * the exact count(*) of the shell apply (src/sql/vtab.c, exec_data.c).
 *
 * The module calls the SQLite C API directly (not through the
 * sqlite3_api_routines table), so the host must use the same shared
 * libsqlite3 this extension links: true of Debian's sqlite3 shell and
 * Python. Entry points: sqlite3_floe_init and sqlite3_floesqlite_init (the
 * name SQLite derives from the file name floe_sqlite.so).
 */
#include "floe/catalog.h"
#include "floe/table.h"
#include "sql/exec_data.h"
#include "sql/vtab.h"

#include <stdlib.h>
#include <string.h>

#define FLOE_EXT_API __attribute__((visibility("default")))

/* name=value with the value unquoted ('' and "" escapes) into a heap copy;
 * NULL when `arg` is not `name=...`. */
static char *arg_value(const char *arg, const char *name)
{
    size_t n = strlen(name);
    while (*arg == ' ')
        arg++;
    if (strncmp(arg, name, n) != 0)
        return NULL;
    const char *p = arg + n;
    while (*p == ' ')
        p++;
    if (*p != '=')
        return NULL;
    p++;
    while (*p == ' ')
        p++;
    size_t len = strlen(p);
    while (len && p[len - 1] == ' ')
        len--;
    char *out = floe__malloc(len + 1);
    if (!out)
        return NULL;
    if (len >= 2 && (p[0] == '\'' || p[0] == '"') && p[len - 1] == p[0]) {
        char q = p[0];
        size_t k = 0;
        for (size_t i = 1; i + 1 < len; i++) {
            out[k++] = p[i];
            if (p[i] == q && p[i + 1] == q)
                i++;
        }
        out[k] = 0;
    } else {
        memcpy(out, p, len);
        out[len] = 0;
    }
    return out;
}

static int factory(void *payload, int argc, const char *const *argv, floe_rowsource **out)
{
    (void)payload;
    static const char *const names[] = {"warehouse", "table",       "catalog",
                                        "snapshot_id", "ref",       "catalog_name"};
    enum { NARGS = 6 };
    char *val[NARGS] = {NULL, NULL, NULL, NULL, NULL, NULL};
    int rc = 0;
    for (int i = 0; rc == 0 && i < argc; i++) {
        int k = 0;
        char *v = NULL;
        for (; k < NARGS && !(v = arg_value(argv[i], names[k])); k++)
            ;
        if (k == NARGS)
            rc = floe__error(FLOE_EINVALID, "floe_sqlite",
                             "unknown argument %s (expected warehouse=, table=, catalog=, "
                             "catalog_name=, snapshot_id=, ref=)",
                             argv[i]);
        else {
            floe__free(val[k]);
            val[k] = v;
        }
    }
    if (rc == 0 && (!val[1] || (!val[0] && !val[2])))
        rc = floe__error(FLOE_EINVALID, "floe_sqlite",
                         "usage: USING floe(warehouse='dir', table='ns.table' [, catalog='file'] "
                         "[, snapshot_id=N] [, ref='name'])");
    int64_t snapshot_id = 0;
    if (rc == 0 && val[3]) {
        char *end = NULL;
        snapshot_id = strtoll(val[3], &end, 10);
        if (!end || *end || end == val[3])
            rc = floe__error(FLOE_EINVALID, "floe_sqlite", "bad snapshot_id %s", val[3]);
    }
    char *catalog_path = NULL;
    if (rc == 0) {
        floe_buf b = FLOE_BUF_INIT;
        if (val[2])
            rc = floe__buf_puts(&b, val[2]);
        else
            rc = floe__buf_printf(&b, "%s/catalog.db", val[0]);
        catalog_path = b.ptr; /* NUL-terminated, heap */
        if (rc == 0 && !catalog_path)
            rc = floe__error_nomem();
    }
    floe_catalog *cat = NULL;
    floe_table *t = NULL;
    if (rc == 0) {
        floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
        co.warehouse = val[0];
        co.name = val[5] ? val[5] : FLOE_CATALOG_DEFAULT_NAME; /* as floe sql */
        co.no_create = true;
        rc = floe_catalog_open_sql(&cat, catalog_path, &co);
    }
    if (rc == 0)
        rc = floe_table_load(&t, cat, val[1], NULL);
    if (rc == 0) /* owns t and cat from here */
        rc = floe__sql_data_source_table(out, t, cat, val[3] != NULL, snapshot_id, val[4]);
    else {
        floe_table_free(t);
        floe_catalog_free(cat);
    }
    floe__free(catalog_path);
    for (int k = 0; k < NARGS; k++)
        floe__free(val[k]);
    return rc;
}

FLOE_EXT_API int sqlite3_floe_init(sqlite3 *db, char **err, const void *api);
FLOE_EXT_API int sqlite3_floesqlite_init(sqlite3 *db, char **err, const void *api);

int sqlite3_floe_init(sqlite3 *db, char **err, const void *api)
{
    (void)api;
    if (floe__vtab_register_factory(db, "floe", factory, NULL, NULL) < 0) {
        const floe_error *e = floe_error_last();
        *err = sqlite3_mprintf("%s", e && e->message ? e->message : "floe: cannot register");
        return SQLITE_ERROR;
    }
    return SQLITE_OK;
}

int sqlite3_floesqlite_init(sqlite3 *db, char **err, const void *api)
{
    return sqlite3_floe_init(db, err, api);
}
