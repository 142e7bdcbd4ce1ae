/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_refs: the Iceberg side of a session — resolving each reference
 * the front end found in a statement (a table at main or at a time-travel
 * point, a branch, a tag, a metadata table, a table-valued function) to a
 * SQLite virtual table named after the reference (floe_ref_N), and
 * dropping those tables after the statement.
 *
 * This build has no table reader yet: a reference to an existing table
 * fails with a clear "not supported yet" error; an unknown one with
 * Iceberg's NoSuchTableException text.
 */
#include "sql/session_int.h"

#include <string.h>

struct floe_sql_engine {
    int unused;
};

int floe__sql_engine_init(floe_sql_session *s)
{
    s->engine = NULL;
    return 0;
}

void floe__sql_engine_fini(floe_sql_session *s) { FLOE_UNUSED(s); }

void floe__sql_engine_time_zone_changed(floe_sql_session *s) { FLOE_UNUSED(s); }

int floe__sql_refs_create(floe_sql_session *s, const floe_sql_stmt *st)
{
    floe_arena *a = floe__arena_new(0);
    if (!a)
        return floe__error_nomem();
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < st->nrefs; i++) {
        const floe_sql_tref *r = &st->refs[i];
        if (r->name.kind == FLOE_SQLREF_TVF) {
            rc = floe__sql_fail(s,
                                floe__error(FLOE_EUNSUPPORTED, "sql",
                                            "%s(...) is not supported yet", r->name.suffix),
                                "UnsupportedOperationException");
            break;
        }
        const char *ident = floe__sql_table_ident(s, &r->name, a);
        if (!ident) {
            rc = floe__error_nomem();
            break;
        }
        char *loc = NULL;
        rc = floe_catalog_load_table(&loc, NULL, s->catalog, ident);
        floe_catalog_string_free(loc);
        if (rc < 0) {
            s->error_class = rc == FLOE_ENOTFOUND ? "NoSuchTableException" : NULL;
            break;
        }
        rc = floe__sql_fail(s,
                            floe__error(FLOE_EUNSUPPORTED, "sql",
                                        "reading Iceberg tables (%s) is not supported yet", ident),
                            "UnsupportedOperationException");
    }
    floe__arena_free(a);
    return rc;
}

void floe__sql_refs_drop(floe_sql_session *s, const floe_sql_stmt *st)
{
    for (size_t i = 0; i < st->nrefs; i++) {
        char *sql = sqlite3_mprintf("DROP TABLE IF EXISTS temp.\"%w\"", st->refs[i].sqlite_name);
        if (sql)
            sqlite3_exec(s->db, sql, NULL, NULL, NULL);
        sqlite3_free(sql);
    }
}

int floe__sql_explain_refs(floe_sql_session *s, const floe_sql_stmt *st, floe_vec *lines,
                           floe_arena *a)
{
    FLOE_UNUSED(s);
    FLOE_UNUSED(st);
    FLOE_UNUSED(lines);
    FLOE_UNUSED(a);
    return 0;
}
