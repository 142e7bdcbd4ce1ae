/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the sql front end. The input is a script; every statement is
 * parsed in turn (as `floe sql -f` does) with a catalog name and a current
 * namespace set, and floe__sql_is_complete runs on it. Nothing may crash,
 * leak or read out of bounds; rewritten text must be NUL-terminated.
 */
#include "sql/sqlfront.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool local_v(const char *name, void *payload)
{
    (void)payload;
    return strcmp(name, "v") == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *sql = malloc(size + 1);
    if (!sql)
        return 0;
    memcpy(sql, data, size);
    sql[size] = '\0';
    (void)floe__sql_is_complete(sql);
    floe_sql_options opt = FLOE_SQL_OPTIONS_INIT;
    opt.catalog_name = "ice";
    opt.current_namespace = "shop";
    opt.is_local = local_v;
    opt.script = sql;
    floe_arena *a = floe__arena_new(0);
    const char *p = sql;
    for (int n = 0; a && *p && n < 256; n++) {
        floe_sql_stmt *st = NULL;
        const char *rest = p;
        int rc = floe__sql_parse(a, p, &opt, &st, &rest);
        if (rc == 0 && !st)
            break;
        if (rc == 0) {
            volatile size_t sum = 0;
            if (st->query)
                sum += strlen(st->query->sql);
            for (size_t k = 0; k < st->nrefs; k++)
                sum += strlen(st->refs[k].sqlite_name) + strlen(st->refs[k].name.table);
            (void)sum;
        }
        if (rest <= p)
            break; /* no progress: must not happen, but never loop */
        p = rest;
        floe__arena_reset(a);
    }
    floe__arena_free(a);
    free(sql);
    return 0;
}
