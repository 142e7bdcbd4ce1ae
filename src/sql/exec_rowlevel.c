/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_rowlevel: DELETE FROM t [WHERE ...] and UPDATE t SET c = e, ...
 * [WHERE ...] through the library's row-level operation (floe_rowlevel_*,
 * docs/rowlevel.md; spec "Row-level Deletes"). One statement = one
 * snapshot on main, on the target's branch (t.branch_x) or on
 * spark.wap.branch; copy-on-write or merge-on-read as the table's
 * write.delete.mode / write.update.mode say.
 *
 * The WHERE clause's syntax tree is translated into a floe expression
 * (sql/cond.c, Spark's three-valued semantics). When the translation is
 * exact it is the operation's filter (floe__rowlevel_delete_where_expr), so
 * partitions and files are pruned and it is the conflict-detection filter;
 * UPDATE then reads the rows to rewrite from the base snapshot through the
 * same expression, so the rows removed and the rows rewritten are the same
 * ones by construction. Any other clause (subqueries, EXISTS, functions,
 * arithmetic) is evaluated by SQLite over a virtual table of the
 * operation's base snapshot with the hidden metadata columns _file and
 * _pos (Spark's names), pruned by the translatable part of the condition,
 * and the matching rows go to the library as positions
 * (floe_rowlevel_delete_positions). UPDATE computes the new versions of the
 * matching rows with SQLite over the same base snapshot. The helpers shared
 * with MERGE
 * (exec_merge.c) are declared in exec_int.h.
 */
#include "arrow/arrow.h"
#include "expr/expr.h"
#include "spec/metadata.h"
#include "sql/ast.h"
#include "sql/exec_data.h"
#include "sql/exec_int.h"
#include "sql/nested.h"
#include "sql/vtab.h"
#include "table/rowdelta.h"
#include "table/table.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define BATCH_ROWS 65536

int floe__sql_rl_builder(floe_rowlevel *op, const floe_schema *sc, floe_arena *a,
                         floe_arrow_builder **out)
{
    const floe_type *root = sc->root;
    if (floe__rowlevel_lineage(op))
        FLOE_TRY(floe__lineage_root(a, sc->root, &root));
    return floe__arrow_builder_new(out, root);
}

int floe__sql_rl_lineage(floe_rowlevel *op, floe_arrow_builder *b, size_t nf, sqlite3_value *row_id)
{
    if (!floe__rowlevel_lineage(op))
        return 0;
    floe_value id = floe_value_null(FLOE_T_LONG), seq = floe_value_null(FLOE_T_LONG);
    if (row_id && sqlite3_value_type(row_id) == SQLITE_INTEGER)
        id = floe_value_long(sqlite3_value_int64(row_id));
    FLOE_TRY(floe__arrow_builder_append(b->children[nf], &id));
    return floe__arrow_builder_append(b->children[nf + 1], &seq); /* updated: inherited */
}

int floe__sql_rl_flush(floe_rowlevel *op, floe_arrow_builder *b)
{
    if (b->length == 0)
        return 0;
    struct ArrowArray arr;
    memset(&arr, 0, sizeof arr);
    FLOE_TRY(floe__arrow_builder_finish(b, &arr));
    int rc = floe_rowlevel_write(op, &arr);
    if (arr.release)
        arr.release(&arr);
    floe__arrow_builder_reset(b);
    return rc;
}

/* SELECT <new values of every column> FROM <base> AS <alias> WHERE <where> */
static char *update_query(const floe_sql_stmt *st, const floe_schema *sc, const char *vt,
                          const char *alias, const char *where, bool positions, bool update,
                          bool lineage)
{
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&b, "SELECT ");
    if (positions) {
        char *q = sqlite3_mprintf("\"%w\".\"_file\", \"%w\".\"_pos\"%s", alias, alias,
                                  update ? ", " : "");
        rc = q ? floe__buf_puts(&b, q) : FLOE_ENOMEM;
        sqlite3_free(q);
    }
    for (size_t i = 0; update && rc == 0 && i < sc->root->nfields; i++) {
        const char *name = sc->root->fields[i].name;
        const floe_sql_query *e = NULL;
        bool twin = floe__sql_schema_case_twin(sc, i); /* then only its exact name */
        for (size_t k = 0; k < st->nsets; k++)
            if ((twin ? strcmp : strcasecmp)(st->sets[k].column, name) == 0)
                e = st->sets[k].expr;
        if (i)
            rc = floe__buf_puts(&b, ", ");
        if (rc == 0 && e) {
            rc = floe__buf_printf(&b, "(%s)", e->sql);
        } else if (rc == 0) {
            floe_arena *ta = twin ? floe__arena_new(0) : NULL;
            if (ta) /* SQLite knows it by its twin name (sqlfront.h) */
                name = floe__sql_case_twin_name(ta, name);
            char *q = name ? sqlite3_mprintf("\"%w\".\"%w\"", alias, name) : NULL;
            floe__arena_free(ta);
            rc = q ? floe__buf_puts(&b, q) : FLOE_ENOMEM;
            sqlite3_free(q);
        }
    }
    if (rc == 0 && update && lineage) { /* the new version keeps the row's id */
        char *q = sqlite3_mprintf(", \"%w\".\"_row_id\"", alias);
        rc = q ? floe__buf_puts(&b, q) : FLOE_ENOMEM;
        sqlite3_free(q);
    }
    if (rc == 0) {
        char *from = sqlite3_mprintf(" FROM temp.\"%w\" AS \"%w\"", vt, alias);
        rc = from ? floe__buf_puts(&b, from) : FLOE_ENOMEM;
        sqlite3_free(from);
    }
    if (rc == 0 && where)
        rc = floe__buf_printf(&b, " WHERE %s", where);
    if (rc < 0) {
        floe__buf_free(&b);
        return NULL;
    }
    return floe__buf_detach(&b);
}

static int check_sets(floe_sql_session *s, const floe_sql_stmt *st, const floe_schema *sc,
                      const char *ident)
{
    for (size_t k = 0; k < st->nsets; k++) {
        size_t i = 0;
        while (i < sc->root->nfields &&
               strcasecmp(sc->root->fields[i].name, st->sets[k].column) != 0)
            i++;
        if (i == sc->root->nfields)
            return floe__sql_fail(s,
                                  floe__error(FLOE_EINVALID, "sql",
                                              "Cannot find column '%s' of table %s",
                                              st->sets[k].column, ident),
                                  "AnalysisException");
    }
    return 0;
}

/* ---------------------------------------------------------------- shared with MERGE */

int floe__sql_base_vtab(floe_sql_session *s, const floe_sql_stmt *st, const char *ident,
                        floe_table *t, floe_rowlevel *op, const char *vt, const floe_expr *filter)
{
    int64_t base = floe_rowlevel_base_snapshot(op);
    floe_sql_tref r;
    memset(&r, 0, sizeof r);
    r.sqlite_name = vt;
    r.name = st->target;
    r.name.kind = FLOE_SQLREF_TABLE;
    r.name.suffix = NULL;
    if (base >= 0) {
        r.travel.kind = FLOE_SQLTT_SNAPSHOT;
        r.travel.snapshot_id = base;
        r.travel.current_schema = true;
    } /* else the table has no snapshot: an empty scan of its schema */
    floe_rowsource *rs = NULL;
    FLOE_TRY(floe__sql_data_source(&rs, s, &r, ident, t));
    floe__sql_data_source_set_filter(rs, filter);
    return floe__sql_live_create(s, vt, rs);
}

void floe__sql_drop_vtab(floe_sql_session *s, const char *vt)
{
    char *drop = sqlite3_mprintf("DROP TABLE IF EXISTS temp.\"%w\"", vt);
    if (drop)
        sqlite3_exec(s->db, drop, NULL, NULL, NULL);
    sqlite3_free(drop);
}

int floe__sql_rl_positions_add(floe_sql_rl_positions *p, floe_rowlevel *op, const char *file,
                               int64_t pos)
{
    if (!p->file || strcmp(p->file, file) != 0) {
        FLOE_TRY(floe__sql_rl_positions_flush(p, op));
        floe__free(p->file);
        if (!(p->file = floe__strdup(file)))
            return floe__error_nomem();
    }
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 1024;
        int64_t *v = floe__realloc(p->pos, cap * sizeof *v);
        if (!v)
            return floe__error_nomem();
        p->pos = v;
        p->cap = cap;
    }
    p->pos[p->n++] = pos;
    p->total++;
    return 0;
}

int floe__sql_rl_positions_flush(floe_sql_rl_positions *p, floe_rowlevel *op)
{
    if (!p->n)
        return 0;
    /* the condition that chose these rows is not a filter the library can
     * check new files against: serializable means any new file conflicts */
    floe__rowlevel_conflict_all(op);
    int rc = floe_rowlevel_delete_positions(op, p->file, p->pos, p->n);
    p->n = 0;
    return rc;
}

void floe__sql_rl_positions_free(floe_sql_rl_positions *p)
{
    floe__free(p->file);
    floe__free(p->pos);
    memset(p, 0, sizeof *p);
}

/* Does `text` contain `word` as a whole identifier (case-insensitive)? */
static bool text_names(const char *text, const char *word)
{
    size_t n = strlen(word);
    if (!n)
        return false;
    for (const char *p = text; *p; p++) {
        if (strncasecmp(p, word, n) != 0)
            continue;
        char before = p == text ? ' ' : p[-1], after = p[n];
        if (!(isalnum((unsigned char)before) || before == '_') &&
            !(isalnum((unsigned char)after) || after == '_'))
            return true;
    }
    return false;
}

/* SQLite builds automatic indexes for joins but not for correlated
 * subqueries (EXISTS (SELECT ... WHERE s.id = t.id)): index the columns of
 * a materialised reference that the statement names, at most 8. */
static int index_named_columns(floe_sql_session *s, const floe_sql_stmt *st, const char *table)
{
    char *sql = sqlite3_mprintf("SELECT * FROM temp.\"%w\" LIMIT 0", table);
    sqlite3_stmt *qs = NULL;
    if (!sql)
        return floe__error_nomem();
    int prc = sqlite3_prepare_v2(s->db, sql, -1, &qs, NULL);
    sqlite3_free(sql);
    if (prc != SQLITE_OK)
        return 0; /* no index: slower, still right */
    int nc = sqlite3_column_count(qs), made = 0, rc = 0;
    for (int i = 0; rc == 0 && i < nc && made < 8; i++) {
        const char *col = sqlite3_column_name(qs, i);
        if (!col || !text_names(st->text, col))
            continue;
        char *ix = sqlite3_mprintf("CREATE INDEX temp.\"%w__ix%d\" ON \"%w\"(\"%w\")", table, i,
                                   table, col);
        if (!ix)
            rc = floe__error_nomem();
        else if (sqlite3_exec(s->db, ix, NULL, NULL, NULL) == SQLITE_OK)
            made++;
        sqlite3_free(ix);
    }
    sqlite3_finalize(qs);
    return rc;
}

int floe__sql_refs_materialize(floe_sql_session *s, const floe_sql_stmt *st)
{
    bool meta = floe__sql_text_wants_meta(st->text);
    for (size_t i = 0; i < st->nrefs; i++) {
        const floe_sql_tref *r = &st->refs[i];
        if (r->name.kind != FLOE_SQLREF_TABLE && r->name.kind != FLOE_SQLREF_BRANCH &&
            r->name.kind != FLOE_SQLREF_TAG)
            continue;
        char *sql = sqlite3_mprintf(
            "CREATE TEMP TABLE \"%w__mat\" AS SELECT *%s FROM temp.\"%w\"; "
            "DROP TABLE temp.\"%w\"; ALTER TABLE temp.\"%w__mat\" RENAME TO \"%w\"",
            r->sqlite_name,
            meta ? ", \"_file\", \"_pos\", \"_row_id\", \"_last_updated_sequence_number\"" : "",
            r->sqlite_name, r->sqlite_name, r->sqlite_name, r->sqlite_name);
        if (!sql)
            return floe__error_nomem();
        int erc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
        sqlite3_free(sql);
        if (erc != SQLITE_OK)
            return floe__sql_fail(s, floe__error(FLOE_EINVALID, "sql", "%s", sqlite3_errmsg(s->db)),
                                  "AnalysisException");
        FLOE_TRY(index_named_columns(s, st, r->sqlite_name));
    }
    return 0;
}

/* ---------------------------------------------------------------- DELETE, UPDATE */

/* Rows of the base snapshot matching `filter` (NULL: all) and, when
 * `where`, the WHERE evaluated by SQLite: with `positions` their (_file,
 * _pos) go to the operation as positions; with UPDATE their new versions
 * are written. */
static int rows_from_base(floe_sql_session *s, const floe_sql_stmt *st, const char *ident,
                          floe_table *t, floe_rowlevel *op, const floe_schema *sc, bool positions,
                          const floe_expr *filter, bool where)
{
    if (floe_rowlevel_base_snapshot(op) < 0)
        return 0; /* empty branch: nothing to change */
    static const char vt[] = "floe_update_base";
    bool update = st->kind == FLOE_SQL_UPDATE, lineage = floe__rowlevel_lineage(op);
    FLOE_TRY(floe__sql_base_vtab(s, st, ident, t, op, vt, filter));
    const char *alias = st->alias ? st->alias : st->target.table;
    char *sql = update_query(st, sc, vt, alias, where && st->where ? st->where->sql : NULL,
                             positions, update, lineage);
    floe_arena *la = floe__arena_new(1024);
    sqlite3_stmt *qs = NULL;
    floe_arrow_builder *b = NULL;
    floe_sql_rl_positions pos;
    memset(&pos, 0, sizeof pos);
    size_t nf = sc->root->nfields;
    int off = positions ? 2 : 0, rc = 0;
    if (!sql || !la) {
        rc = floe__error_nomem();
        goto done;
    }
    if (sqlite3_prepare_v2(s->db, sql, -1, &qs, NULL) != SQLITE_OK || !qs) {
        rc = floe__sql_sqlite_fail(s);
        goto done;
    }
    if ((rc = floe__sql_rl_builder(op, sc, la, &b)) < 0)
        goto done;
    for (;;) {
        int step = sqlite3_step(qs);
        if (step == SQLITE_DONE)
            break;
        if (step != SQLITE_ROW) {
            rc = floe__sql_fail(s, floe__error(FLOE_EINVALID, "sql", "%s", sqlite3_errmsg(s->db)),
                                "AnalysisException");
            goto done;
        }
        if (positions) {
            const char *file = (const char *)sqlite3_column_text(qs, 0);
            if (!file || sqlite3_column_type(qs, 1) != SQLITE_INTEGER) {
                rc = floe__error(FLOE_ERROR, "sql", "row without _file/_pos");
                goto done;
            }
            if ((rc = floe__sql_rl_positions_add(&pos, op, file, sqlite3_column_int64(qs, 1))) < 0)
                goto done;
        }
        if (!update)
            continue;
        for (size_t i = 0; i < nf; i++) {
            rc = floe__sql_append_value(s, sqlite3_column_value(qs, (int)i + off),
                                        &sc->root->fields[i], b->children[i]);
            if (rc < 0)
                goto done;
        }
        if ((rc = floe__sql_rl_lineage(op, b, nf, sqlite3_column_value(qs, (int)nf + off))) < 0)
            goto done;
        if ((rc = floe__arrow_builder_struct_append(b, true)) < 0)
            goto done;
        if (b->length >= BATCH_ROWS && (rc = floe__sql_rl_flush(op, b)) < 0)
            goto done;
    }
    rc = floe__sql_rl_flush(op, b);
    if (rc == 0)
        rc = floe__sql_rl_positions_flush(&pos, op);
done:
    floe__sql_rl_positions_free(&pos);
    floe__arrow_builder_free(b);
    floe__arena_free(la);
    sqlite3_finalize(qs);
    floe__free(sql);
    floe__sql_drop_vtab(s, vt);
    return rc;
}

int floe__sql_exec_rowlevel(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ident = floe__sql_table_ident(s, &st->target, a);
    if (!ident)
        return floe__error_nomem();
    floe_table *t = NULL;
    int rc = floe__sql_load_target(s, st, ident, &t);
    if (rc < 0)
        return rc;
    floe_rowlevel_options ro = FLOE_ROWLEVEL_OPTIONS_INIT;
    ro.kind = st->kind == FLOE_SQL_UPDATE ? FLOE_ROWLEVEL_UPDATE : FLOE_ROWLEVEL_DELETE;
    floe_rowlevel *op = NULL;
    bool refs = false;
    if ((rc = floe__sql_write_base(s, ident, t)) < 0)
        goto done;
    const floe_schema *sc = floe__metadata_current_schema(t->metadata);
    if (st->kind == FLOE_SQL_UPDATE && (rc = check_sets(s, st, sc, ident)) < 0)
        goto done;
    if ((rc = floe_rowlevel_new(&op, t, &ro)) < 0)
        goto done;
    /* the library binds names case-insensitively: with case twins (see
     * vtab.c) only SQLite tells `user_id` (ambiguous) from `uSeR_Id` */
    bool twins = false;
    for (size_t i = 0; i < sc->root->nfields && !twins; i++)
        twins = floe__sql_schema_case_twin(sc, i);
    const floe_expr *filter = NULL;
    bool exact = true;
    if (st->where && !twins) {
        sql_cond_scope scope = {sc, st->alias ? st->alias : st->target.table, s->tz};
        if ((rc = floe__sql_cond_expr(&filter, &exact, a, st->where->tree, &scope)) < 0)
            goto done;
    } else if (st->where) {
        exact = false;
    }
    /* not a row filter: SQLite finds the rows, by position */
    bool positions = !exact;
    if (exact && (rc = floe__rowlevel_delete_where_expr(op, filter)) < 0)
        goto done;
    /* the base scan (read with the current schema, as the filter) is
     * filtered: UPDATE reads exactly the removed rows, positions are found
     * in the files the filter keeps */
    bool base_filter = filter && filter->kind != FLOE_EXPR_TRUE;
    if (st->kind == FLOE_SQL_UPDATE || positions) {
        refs = true;
        if ((rc = floe__sql_refs_create(s, st)) < 0)
            goto done;
        if ((rc = floe__sql_refs_materialize(s, st)) < 0)
            goto done;
        if ((rc = rows_from_base(s, st, ident, t, op, sc, positions, base_filter ? filter : NULL,
                                 positions)) < 0)
            goto done;
    }
    int64_t id = -1;
    rc = floe_rowlevel_commit(&id, NULL, op);
    if (rc == 0)
        rc = floe__sql_table_committed(s, t);
done:
    if (refs)
        floe__sql_refs_drop(s, st);
    floe_rowlevel_free(op);
    floe_table_free(t);
    return rc;
}
