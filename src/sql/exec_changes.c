/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_changes: the incremental reads of the shell (docs/changelog.md;
 * spec "Snapshots", "Manifests" status ADDED/DELETED) —
 *   incremental_append('<ns.table>', start, end [, 'strict'|'append-only'])
 *   table_changes('<ns.table>', start, end)
 * as table-valued functions in FROM, and the row source behind
 * CALL system.create_changelog_view (procs.c). `start` is exclusive, `end`
 * inclusive; each is a snapshot id (number or digit string), a timestamp
 * (TIMESTAMP '...' or other text, in the session time zone) or NULL (from
 * the first snapshot / to main's current snapshot). The row sources read
 * the table as of the statement (scan/incremental.h `_open`).
 */
#include "scan/incremental.h"
#include "sql/exec.h"
#include "sql/exec_int.h"
#include "table/table.h"
#include "util/time.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool all_digits(const char *t)
{
    if (!t || !*t)
        return false;
    for (; *t; t++)
        if (*t < '0' || *t > '9')
            return false;
    return true;
}

/* One bound: id, timestamp or nothing. */
static int bound(floe_sql_session *s, const floe_sql_value *v, bool *has_id, int64_t *id,
                 bool *has_ts, int64_t *ts)
{
    if (!v || v->kind == FLOE_SQLV_NULL)
        return 0;
    if (v->kind == FLOE_SQLV_INT) {
        *has_id = true;
        *id = v->i;
        return 0;
    }
    if (v->kind == FLOE_SQLV_STRING && all_digits(v->text)) {
        *has_id = true;
        *id = strtoll(v->text, NULL, 10);
        return 0;
    }
    if ((v->kind == FLOE_SQLV_STRING || v->kind == FLOE_SQLV_TIMESTAMP ||
         v->kind == FLOE_SQLV_DATE) &&
        v->text) {
        FLOE_TRY(floe__time_parse(v->text, s->tz, ts));
        *has_ts = true;
        return 0;
    }
    return floe__error(FLOE_EINVALID, "sql",
                       "a snapshot id, a timestamp or NULL was expected as range bound");
}

int floe__sql_changes_source(floe_sql_session *s, const char *table, const floe_sql_value *start,
                             const floe_sql_value *end, floe_incremental_options *opts,
                             bool changelog, floe_rowsource **out)
{
    /* "cat.ns.t": drop the session's catalog name */
    size_t cl = strlen(s->catalog_name);
    if (strncasecmp(table, s->catalog_name, cl) == 0 && table[cl] == '.' &&
        strchr(table + cl + 1, '.'))
        table += cl + 1;
    opts->io_conf = &s->conf;
    int rc = bound(s, start, &opts->has_start_snapshot_id, &opts->start_snapshot_id,
                   &opts->has_start_timestamp_ms, &opts->start_timestamp_ms);
    if (rc == 0)
        rc = bound(s, end, &opts->has_end_snapshot_id, &opts->end_snapshot_id,
                   &opts->has_end_timestamp_ms, &opts->end_timestamp_ms);
    if (rc < 0)
        return floe__sql_classify(s, rc);
    floe_table *t = NULL;
    if ((rc = floe__sql_get_table(s, table, &t)) < 0)
        return rc;
    const char *loc = floe_table_metadata_location(t);
    rc = changelog ? floe__changelog_rowsource_open(out, floe_table_io(t), loc, opts)
                   : floe__incremental_rowsource_open(out, floe_table_io(t), loc, opts);
    return floe__sql_classify(s, rc);
}

int floe__sql_tvf_source(floe_sql_session *s, const floe_sql_tref *r, floe_rowsource **out)
{
    const char *fn = r->name.suffix;
    if (strcmp(fn, "read_parquet") == 0)
        return floe__sql_read_parquet_source(s, r, out);
    bool changelog = strcmp(fn, "table_changes") == 0;
    if (!changelog && strcmp(fn, "incremental_append") != 0)
        return floe__sql_fail(s,
                              floe__error(FLOE_EUNSUPPORTED, "sql",
                                          "%s(...) is not supported yet", fn),
                              "UnsupportedOperationException");
    size_t max = changelog ? 3 : 4;
    if (r->nargs < 1 || r->nargs > max || r->args[0].kind != FLOE_SQLV_STRING)
        return floe__sql_fail(s,
                              floe__error(FLOE_EINVALID, "sql",
                                          "%s expects ('<ns.table>', start, end%s)", fn,
                                          changelog ? "" : " [, mode]"),
                              "AnalysisException");
    floe_incremental_options o = FLOE_INCREMENTAL_OPTIONS_INIT;
    if (r->nargs == 4) {
        const floe_sql_value *m = &r->args[3];
        if (m->kind == FLOE_SQLV_STRING && strcasecmp(m->text, "append-only") == 0)
            o.mode = FLOE_INCREMENTAL_APPEND_ONLY;
        else if (!(m->kind == FLOE_SQLV_STRING && strcasecmp(m->text, "strict") == 0))
            return floe__sql_fail(s,
                                  floe__error(FLOE_EINVALID, "sql",
                                              "incremental_append mode must be 'strict' or "
                                              "'append-only'"),
                                  "AnalysisException");
    }
    return floe__sql_changes_source(s, r->args[0].text, r->nargs > 1 ? &r->args[1] : NULL,
                                    r->nargs > 2 ? &r->args[2] : NULL, &o, changelog, out);
}

static int run_sql(floe_sql_session *s, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &err) == SQLITE_OK)
        return 0;
    int rc = floe__sql_fail(s, floe__error(FLOE_EINVALID, "sql", "%s", err ? err : "?"),
                            "AnalysisException");
    sqlite3_free(err);
    return rc;
}

/* A map option value as a range bound: ids are numbers or digit strings;
 * timestamps are epoch milliseconds (as Spark's options) or timestamp text. */
static int map_bound(floe_sql_session *s, const floe_sql_value *v, bool is_ts, bool *has_id,
                     int64_t *id, bool *has_ts, int64_t *ts)
{
    if (v->kind == FLOE_SQLV_NULL)
        return 0;
    bool digits = v->kind == FLOE_SQLV_INT || (v->kind == FLOE_SQLV_STRING && all_digits(v->text));
    int64_t n = v->kind == FLOE_SQLV_INT ? v->i : digits ? strtoll(v->text, NULL, 10) : 0;
    if (!is_ts) {
        if (!digits)
            return floe__error(FLOE_EINVALID, "sql", "snapshot id expected, got '%s'",
                               v->text ? v->text : "");
        *has_id = true;
        *id = n;
        return 0;
    }
    if (digits) {
        *ts = n;
    } else if (v->text) {
        FLOE_TRY(floe__time_parse(v->text, s->tz, ts));
    } else {
        return floe__error(FLOE_EINVALID, "sql", "timestamp expected");
    }
    *has_ts = true;
    return 0;
}

int floe__sql_changelog_view(floe_sql_session *s, const char *ident, const char *view,
                             const floe_sql_value *options, int compute_updates,
                             const floe_sql_value *identifier_columns, bool net_changes)
{
    floe_incremental_options o = FLOE_INCREMENTAL_OPTIONS_INIT;
    const char **ids = NULL;
    char *vname = NULL, *hidden = NULL, *sql = NULL;
    int rc = 0;
    for (size_t i = 0; options && rc == 0 && i + 1 < options->nitems; i += 2) {
        const char *k = options->items[i].text ? options->items[i].text : "";
        const floe_sql_value *v = &options->items[i + 1];
        if (strcmp(k, "start-snapshot-id") == 0)
            rc = map_bound(s, v, false, &o.has_start_snapshot_id, &o.start_snapshot_id,
                           &o.has_start_timestamp_ms, &o.start_timestamp_ms);
        else if (strcmp(k, "end-snapshot-id") == 0)
            rc = map_bound(s, v, false, &o.has_end_snapshot_id, &o.end_snapshot_id,
                           &o.has_end_timestamp_ms, &o.end_timestamp_ms);
        else if (strcmp(k, "start-timestamp") == 0)
            rc = map_bound(s, v, true, &o.has_start_snapshot_id, &o.start_snapshot_id,
                           &o.has_start_timestamp_ms, &o.start_timestamp_ms);
        else if (strcmp(k, "end-timestamp") == 0)
            rc = map_bound(s, v, true, &o.has_end_snapshot_id, &o.end_snapshot_id,
                           &o.has_end_timestamp_ms, &o.end_timestamp_ms);
        /* other read options (split sizes, ...) do not change the rows */
    }
    if (rc < 0)
        return floe__sql_classify(s, rc);
    if (identifier_columns && identifier_columns->nitems) {
        ids = floe__calloc(identifier_columns->nitems, sizeof *ids);
        if (!ids)
            return floe__error_nomem();
        for (size_t i = 0; i < identifier_columns->nitems; i++)
            ids[i] = identifier_columns->items[i].text;
        o.identifier_columns = ids;
        o.nidentifier_columns = identifier_columns->nitems;
    }
    o.compute_updates = compute_updates < 0 ? ids != NULL : compute_updates == 1;
    o.net_changes = net_changes;
    if (o.compute_updates && o.net_changes) {
        rc = floe__sql_fail(s,
                            floe__error(FLOE_EINVALID, "sql",
                                        "Not support net changes with update images"),
                            "IllegalArgumentException");
        goto done;
    }
    if (view) {
        vname = floe__strdup(view);
    } else {
        const char *dot = strrchr(ident, '.');
        size_t n = strlen(dot ? dot + 1 : ident);
        vname = floe__malloc(n + sizeof "_changes");
        if (vname)
            memcpy(vname, dot ? dot + 1 : ident, n), memcpy(vname + n, "_changes", sizeof "_changes");
    }
    hidden = vname ? sqlite3_mprintf("floe_changelog_%s", vname) : NULL;
    if (!vname || !hidden) {
        rc = floe__error_nomem();
        goto done;
    }
    floe_rowsource *rs = NULL;
    if ((rc = floe__sql_changes_source(s, ident, NULL, NULL, &o, true, &rs)) < 0)
        goto done;
    /* Spark replaces a temp view of the same name */
    sql = sqlite3_mprintf("DROP VIEW IF EXISTS temp.\"%w\"; DROP TABLE IF EXISTS temp.\"%w\"",
                          vname, hidden);
    if (!sql || (rc = run_sql(s, sql)) < 0) {
        floe__rs_free(rs);
        rc = sql ? rc : floe__error_nomem();
        goto done;
    }
    sqlite3_free(sql);
    sql = NULL;
    if ((rc = floe__sql_live_create(s, hidden, rs)) < 0)
        goto done;
    sql = sqlite3_mprintf("CREATE TEMP VIEW \"%w\" AS SELECT * FROM temp.\"%w\"", vname, hidden);
    if (!sql) {
        rc = floe__error_nomem();
        goto done;
    }
    if ((rc = run_sql(s, sql)) < 0)
        goto done;
    static const char *const names[] = {"changelog_view"};
    floe_sql_cell cell = floe__sql_cell_text(vname);
    rc = floe__sql_emit(s, names, 1, &cell, 1);
done:
    sqlite3_free(sql);
    sqlite3_free(hidden);
    floe__free(vname);
    floe__free(ids);
    return rc;
}
