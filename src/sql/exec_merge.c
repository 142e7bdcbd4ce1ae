/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_merge: MERGE INTO target [AS t] USING source [AS s] ON cond
 * WHEN [NOT] MATCHED [BY SOURCE|TARGET] [AND c] THEN ... as one row-level
 * operation of kind FLOE_ROWLEVEL_MERGE (write.merge.mode copy-on-write or
 * merge-on-read; spec "Row-level Deletes"), with Spark 3.5's semantics:
 *
 *  - the clauses are tried in order and the first whose condition holds
 *    acts on the row (no clause: the row is left as it is);
 *  - WHEN MATCHED (both sides) may UPDATE SET ... | UPDATE SET * | DELETE,
 *    WHEN NOT MATCHED [BY TARGET] (source rows without a target row) may
 *    INSERT (cols) VALUES (...) | INSERT *, WHEN NOT MATCHED BY SOURCE
 *    (target rows without a source row) may UPDATE | DELETE;
 *  - a target row matched by several source rows fails with Spark's
 *    MERGE_CARDINALITY_VIOLATION, unless the only MATCHED clause is an
 *    unconditional DELETE (Spark skips the check then); nothing is written.
 *
 * The source is evaluated once into a SQLite temp table (rows numbered).
 * A first query reads the base snapshot of the target (a virtual table with
 * the hidden columns _file and _pos, the outer loop: read once) joined with
 * it (CROSS JOIN, or LEFT JOIN when NOT MATCHED BY SOURCE clauses need the
 * target-only rows; without them the target scan is pruned by the ON
 * conjuncts over the target alone, cond.c's expression); a second one,
 * only with NOT MATCHED clauses, reads
 * the source rows the first did not match (SQLite's FULL OUTER JOIN would
 * not use an index on the source and turns quadratic). One CASE expression
 * picks the clause of each row; the values each UPDATE or INSERT clause
 * produces are further result columns. Rows an UPDATE or DELETE touches go to the library by
 * position (floe_rowlevel_delete_positions), new rows through floe_rowlevel_write; the commit is
 * one snapshot: `append` when only rows were inserted (as Spark, which plans an insert-only MERGE
 * as an append), `delete` when only rows were removed by whole files, `overwrite` otherwise.
 */
#include "arrow/arrow.h"
#include "expr/expr.h"
#include "spec/metadata.h"
#include "sql/ast.h"
#include "sql/exec_data.h"
#include "sql/exec_int.h"
#include "sql/nested.h"
#include "table/rowdelta.h"
#include "table/table.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define BATCH_ROWS 65536
#define SRC_FLAG "__floe_src"

static const char TARGET_VT[] = "floe_merge_target";
static const char SOURCE_TMP[] = "floe_merge_source";

static int fail(floe_sql_session *s, int code, const char *cls, const char *msg)
{
    return floe__sql_fail(s, floe__error(code, "sql", "%s", msg), cls);
}

static int put_q(floe_buf *b, const char *fmt, const char *a1, const char *a2)
{
    char *q = sqlite3_mprintf(fmt, a1, a2);
    int rc = q ? floe__buf_puts(b, q) : floe__error_nomem();
    sqlite3_free(q);
    return rc;
}

/* Column names of the source query (for SET * / INSERT *). */
static int source_columns(floe_sql_session *s, const char *src, char ***out, size_t *n)
{
    char *sql = sqlite3_mprintf("SELECT * FROM (%s) LIMIT 0", src);
    if (!sql)
        return floe__error_nomem();
    sqlite3_stmt *qs = NULL;
    int prc = sqlite3_prepare_v2(s->db, sql, -1, &qs, NULL);
    sqlite3_free(sql);
    if (prc != SQLITE_OK || !qs) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", sqlite3_errmsg(s->db));
        return fail(s, FLOE_EINVALID, "AnalysisException", msg);
    }
    int nc = sqlite3_column_count(qs);
    char **names = floe__calloc(nc > 0 ? (size_t)nc : 1, sizeof *names);
    int rc = names ? 0 : floe__error_nomem();
    for (int i = 0; rc == 0 && i < nc; i++)
        if (!(names[i] = floe__strdup(sqlite3_column_name(qs, i))))
            rc = floe__error_nomem();
    sqlite3_finalize(qs);
    if (rc < 0) {
        for (int i = 0; names && i < nc; i++)
            floe__free(names[i]);
        floe__free(names);
        return rc;
    }
    *out = names;
    *n = (size_t)nc;
    return 0;
}

static bool has_name(char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(names[i], name) == 0)
            return true;
    return false;
}

static bool produces_rows(const floe_sql_merge_clause *c)
{
    return c->action != FLOE_SQLM_DELETE;
}

/* Analysis: every named column exists; * needs every target column in the
 * source. */
static int check_clauses(floe_sql_session *s, const floe_sql_merge *m, const floe_schema *sc,
                         const char *ident, char *const *src, size_t nsrc)
{
    char msg[600];
    const floe_type *root = sc->root;
    for (size_t k = 0; k < m->nclauses; k++) {
        const floe_sql_merge_clause *c = &m->clauses[k];
        size_t nnames = c->action == FLOE_SQLM_UPDATE ? c->nsets : c->ncolumns;
        for (size_t j = 0; !c->star && j < nnames; j++) {
            const char *col = c->action == FLOE_SQLM_UPDATE ? c->sets[j].column : c->columns[j];
            size_t i = 0;
            while (i < root->nfields && strcasecmp(root->fields[i].name, col) != 0)
                i++;
            if (i == root->nfields) {
                snprintf(msg, sizeof msg, "Cannot find column '%s' of table %s", col, ident);
                return fail(s, FLOE_EINVALID, "AnalysisException", msg);
            }
            for (size_t j2 = 0; j2 < j; j2++) {
                const char *o =
                    c->action == FLOE_SQLM_UPDATE ? c->sets[j2].column : c->columns[j2];
                if (strcasecmp(o, col) == 0) {
                    snprintf(msg, sizeof msg, "Multiple assignments for '%s'", col);
                    return fail(s, FLOE_EINVALID, "AnalysisException", msg);
                }
            }
        }
        if (c->star)
            for (size_t i = 0; i < root->nfields; i++)
                if (!has_name(src, nsrc, root->fields[i].name)) {
                    snprintf(msg, sizeof msg,
                             "Cannot resolve %s.%s in the source of MERGE (%s *)", ident,
                             root->fields[i].name,
                             c->action == FLOE_SQLM_UPDATE ? "UPDATE SET" : "INSERT");
                    return fail(s, FLOE_EINVALID, "AnalysisException", msg);
                }
        if (c->when == FLOE_SQLM_NOT_MATCHED_BY_SOURCE && c->star) {
            snprintf(msg, sizeof msg, "UPDATE SET * is not allowed WHEN NOT MATCHED BY SOURCE");
            return fail(s, FLOE_EINVALID, "AnalysisException", msg);
        }
    }
    return 0;
}

/* CASE choosing the clause number (1-based) for rows of one kind. */
static int clause_case(floe_buf *b, const floe_sql_merge *m, floe_sql_merge_when when)
{
    bool any = false;
    for (size_t k = 0; k < m->nclauses; k++) {
        const floe_sql_merge_clause *c = &m->clauses[k];
        if (c->when != when)
            continue;
        if (!any)
            FLOE_TRY(floe__buf_puts(b, "CASE"));
        any = true;
        FLOE_TRY(floe__buf_printf(b, " WHEN (%s) THEN %zu", c->condition ? c->condition->sql : "1",
                                  k + 1));
    }
    return floe__buf_puts(b, any ? " ELSE 0 END" : "0");
}

/* The value of target column i produced by clause c. */
static int clause_value(floe_buf *b, const floe_sql_merge_clause *c, const floe_field *f,
                        const char *talias, const char *salias)
{
    if (c->star)
        return put_q(b, "\"%w\".\"%w\"", salias, f->name);
    if (c->action == FLOE_SQLM_UPDATE) {
        for (size_t j = 0; j < c->nsets; j++)
            if (strcasecmp(c->sets[j].column, f->name) == 0)
                return floe__buf_printf(b, "(%s)", c->sets[j].expr->sql);
        return put_q(b, "\"%w\".\"%w\"", talias, f->name);
    }
    for (size_t j = 0; j < c->ncolumns; j++)
        if (strcasecmp(c->columns[j], f->name) == 0)
            return floe__buf_printf(b, "(%s)", c->values[j]->sql);
    return floe__buf_puts(b, "NULL");
}

/* Result columns of both passes: action (clause number, 0: none),
 * matched (0/1), _file, _pos, source row id, the target row's _row_id
 * (v3 row lineage: an updated row keeps it; NULL when not needed), then
 * the values of each clause producing rows in this pass (first_col[k], -1
 * when none). */
#define COL_ROW_ID 5
#define COL_VALUES 6

/* Pass 1 (`source_pass` false): every target row of the base snapshot (the
 * outer loop: the Iceberg table is read once) with its matching source rows
 * (LEFT JOIN when target-only rows have clauses, else CROSS JOIN, which
 * keeps the join order); SQLite builds an automatic index on the
 * materialised source for an equality ON. Pass 2 (only with NOT MATCHED
 * clauses): every source row; those pass 1 matched are skipped. */
static int merge_query(floe_buf *b, const floe_sql_merge *m, const floe_schema *sc,
                       const char *talias, const char *salias, bool source_pass, bool lineage,
                       int *first_col)
{
    bool nmbs = false;
    for (size_t k = 0; k < m->nclauses; k++)
        nmbs |= m->clauses[k].when == FLOE_SQLM_NOT_MATCHED_BY_SOURCE;
    char *sp = sqlite3_mprintf("\"%w\".\"" SRC_FLAG "\" IS NOT NULL", salias);
    int rc = sp ? 0 : floe__error_nomem();
    if (rc == 0 && source_pass) {
        rc = floe__buf_puts(b, "SELECT ");
        if (rc == 0)
            rc = clause_case(b, m, FLOE_SQLM_NOT_MATCHED);
        if (rc == 0)
            rc = put_q(b, ", 0, NULL, NULL, \"%w\".\"" SRC_FLAG "\", NULL", salias, NULL);
    } else if (rc == 0) {
        rc = floe__buf_printf(b, "SELECT CASE WHEN %s THEN ", sp);
        if (rc == 0)
            rc = clause_case(b, m, FLOE_SQLM_MATCHED);
        if (rc == 0)
            rc = floe__buf_puts(b, " ELSE ");
        if (rc == 0)
            rc = clause_case(b, m, FLOE_SQLM_NOT_MATCHED_BY_SOURCE);
        if (rc == 0)
            rc = floe__buf_printf(b, " END, (%s), ", sp);
        if (rc == 0)
            rc = put_q(b, "\"%w\".\"_file\", \"%w\".\"_pos\"", talias, talias);
        if (rc == 0)
            rc = put_q(b, ", \"%w\".\"" SRC_FLAG "\"", salias, NULL);
        if (rc == 0 && lineage)
            rc = put_q(b, ", \"%w\".\"_row_id\"", talias, NULL);
        else if (rc == 0)
            rc = floe__buf_puts(b, ", NULL");
    }
    int col = COL_VALUES;
    for (size_t k = 0; rc == 0 && k < m->nclauses; k++) {
        const floe_sql_merge_clause *c = &m->clauses[k];
        first_col[k] = -1;
        if (!produces_rows(c) || (c->when == FLOE_SQLM_NOT_MATCHED) != source_pass)
            continue;
        first_col[k] = col;
        for (size_t i = 0; rc == 0 && i < sc->root->nfields; i++) {
            rc = floe__buf_puts(b, ", ");
            if (rc == 0)
                rc = clause_value(b, c, &sc->root->fields[i], talias, salias);
            col++;
        }
    }
    if (rc == 0 && source_pass) {
        rc = put_q(b, " FROM temp.\"%w\" AS \"%w\"", SOURCE_TMP, salias);
    } else if (rc == 0) {
        rc = put_q(b, " FROM temp.\"%w\" AS \"%w\"", TARGET_VT, talias);
        /* target-only rows are needed for NOT MATCHED BY SOURCE clauses */
        if (rc == 0)
            rc = floe__buf_puts(b, nmbs ? " LEFT JOIN " : " CROSS JOIN ");
        if (rc == 0)
            rc = put_q(b, "temp.\"%w\" AS \"%w\"", SOURCE_TMP, salias);
        if (rc == 0)
            rc = floe__buf_printf(b, " ON (%s)", m->on->sql);
    }
    sqlite3_free(sp);
    return rc;
}

/* Spark checks cardinality unless the MATCHED clauses are exactly one
 * unconditional DELETE (or none). */
static bool check_cardinality(const floe_sql_merge *m)
{
    size_t n = 0;
    const floe_sql_merge_clause *only = NULL;
    for (size_t k = 0; k < m->nclauses; k++)
        if (m->clauses[k].when == FLOE_SQLM_MATCHED) {
            n++;
            only = &m->clauses[k];
        }
    if (n == 0)
        return false;
    return !(n == 1 && only->action == FLOE_SQLM_DELETE && !only->condition);
}

typedef struct merge_state {
    floe_sql_session *s;
    const floe_sql_merge *m;
    const floe_schema *sc;
    floe_rowlevel *op;
    floe_arrow_builder *b;
    floe_sql_rl_positions pos;
    bool cardinality;
    floe_strmap *seen;   /* "pos:file" of matched target rows (cardinality) */
    floe_intmap *hit;    /* source row ids matched in pass 1 (NULL: no pass 2) */
    floe_buf key;
} merge_state;

static const char CARDINALITY[] =
    "[MERGE_CARDINALITY_VIOLATION] The ON search condition of the MERGE statement matched a "
    "single row from the target table with multiple rows of the source table. This could "
    "result in the target row being operated on more than once with an update or delete "
    "operation and is not allowed.";

/* Run one pass's query and act on its rows. */
static int merge_pass(merge_state *ms, const char *sql, const int *first, bool source_pass)
{
    floe_sql_session *s = ms->s;
    sqlite3_stmt *qs = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &qs, NULL) != SQLITE_OK || !qs)
        return fail(s, FLOE_EINVALID, "AnalysisException", sqlite3_errmsg(s->db));
    size_t nf = ms->sc->root->nfields;
    int rc = 0;
    for (;;) {
        int step = sqlite3_step(qs);
        if (step == SQLITE_DONE)
            break;
        if (step != SQLITE_ROW) {
            rc = fail(s, FLOE_EINVALID, "AnalysisException", sqlite3_errmsg(s->db));
            break;
        }
        int64_t k = sqlite3_column_int64(qs, 0);
        bool matched = sqlite3_column_int(qs, 1) != 0;
        const char *file = (const char *)sqlite3_column_text(qs, 2);
        int64_t p = sqlite3_column_int64(qs, 3);
        int64_t src = sqlite3_column_int64(qs, 4);
        if (source_pass && floe__intmap_has(ms->hit, src))
            continue;
        if (matched && ms->hit && (rc = floe__intmap_put(ms->hit, src, (void *)1)) < 0)
            break;
        if (matched && ms->cardinality) {
            floe__buf_clear(&ms->key);
            if ((rc = floe__buf_printf(&ms->key, "%lld:%s", (long long)p, file ? file : "")) < 0)
                break;
            if (floe__strmap_has(ms->seen, ms->key.ptr)) {
                rc = fail(s, FLOE_EINVALID, "SparkException", CARDINALITY);
                break;
            }
            if ((rc = floe__strmap_put(ms->seen, ms->key.ptr, (void *)1)) < 0)
                break;
        }
        if (k <= 0 || (size_t)k > ms->m->nclauses)
            continue;
        const floe_sql_merge_clause *c = &ms->m->clauses[k - 1];
        if (c->action != FLOE_SQLM_INSERT) {
            if (!file) {
                rc = floe__error(FLOE_ERROR, "sql", "MERGE: target row without _file");
                break;
            }
            if ((rc = floe__sql_rl_positions_add(&ms->pos, ms->op, file, p)) < 0)
                break;
        }
        if (!produces_rows(c))
            continue;
        if (first[k - 1] < 0) {
            rc = floe__error(FLOE_ERROR, "sql", "MERGE: clause %lld has no values", (long long)k);
            break;
        }
        for (size_t i = 0; rc == 0 && i < nf; i++)
            rc = floe__sql_append_value(s, sqlite3_column_value(qs, first[k - 1] + (int)i),
                                        &ms->sc->root->fields[i], ms->b->children[i]);
        if (rc == 0) /* an updated row keeps its id, an inserted one gets a new one */
            rc = floe__sql_rl_lineage(ms->op, ms->b, nf,
                                      c->action == FLOE_SQLM_INSERT
                                          ? NULL
                                          : sqlite3_column_value(qs, COL_ROW_ID));
        if (rc == 0)
            rc = floe__arrow_builder_struct_append(ms->b, true);
        if (rc == 0 && ms->b->length >= BATCH_ROWS)
            rc = floe__sql_rl_flush(ms->op, ms->b);
        if (rc < 0)
            break;
    }
    sqlite3_finalize(qs);
    return rc;
}

/* Whether every column `n` references is the target's (qualified by its
 * alias, or unqualified and not a column of the source) and no subquery
 * hides references to either side. */
static bool target_only(const sql_node *n, const char *talias, const char *salias, char *const *src,
                        size_t nsrc)
{
    if (!n)
        return true;
    switch (n->k) {
    case SN_SELECT:
    case SN_SETOP:
    case SN_WITH:
    case SN_ORDER:
    case SN_VALUES:
    case SN_EXISTS:
    case SN_SUBQ: return false;
    case SN_COL:
        if (!n->nnames)
            return false;
        if (n->nnames >= 2 && floe__sql_ieq(n->names[0], talias))
            return true;
        if (salias && floe__sql_ieq(n->names[0], salias))
            return false;
        for (size_t i = 0; i < nsrc; i++)
            if (floe__sql_ieq(n->names[0], src[i]))
                return false;
        return true;
    default: break;
    }
    if (!target_only(n->a, talias, salias, src, nsrc) ||
        !target_only(n->b, talias, salias, src, nsrc) ||
        !target_only(n->c, talias, salias, src, nsrc))
        return false;
    sql_node *const *lists[] = {n->v, n->w, n->x};
    size_t lens[] = {n->nv, n->nw, n->nx};
    for (size_t l = 0; l < 3; l++)
        for (size_t i = 0; i < lens[l]; i++)
            if (!target_only(lists[l][i], talias, salias, src, nsrc))
                return false;
    return true;
}

/* The conjuncts of ON (top-level ANDs) that reference only the target, as
 * floe expressions ANDed onto *out. */
static int on_conjuncts(const floe_expr **out, floe_arena *a, const sql_node *n,
                        const sql_cond_scope *scope, const char *salias, char *const *src,
                        size_t nsrc)
{
    while (n->k == SN_PAREN)
        n = n->a;
    if (n->k == SN_BIN && !strcmp(n->s, "AND")) {
        FLOE_TRY(on_conjuncts(out, a, n->a, scope, salias, src, nsrc));
        return on_conjuncts(out, a, n->b, scope, salias, src, nsrc);
    }
    if (!target_only(n, scope->qualifier, salias, src, nsrc))
        return 0;
    const floe_expr *e = NULL;
    bool exact;
    FLOE_TRY(floe__sql_cond_expr(&e, &exact, a, n, scope));
    if (!(*out = floe_expr_and(a, *out, e)))
        return floe__error_nomem();
    return 0;
}

/* The filter of the target's scan: a target row for which an ON conjunct
 * over the target alone is not TRUE matches no source row, and only WHEN
 * NOT MATCHED BY SOURCE clauses act on such rows; with none, the scan
 * skips them (partitions and files pruned). WHEN MATCHED AND conditions
 * never prune: a row they reject still counts as matched (cardinality,
 * NOT MATCHED). NULL: every row. */
static int target_filter(floe_sql_session *s, const floe_sql_stmt *st, const floe_schema *sc,
                         floe_arena *a, char *const *src, size_t nsrc, const floe_expr **out)
{
    const floe_sql_merge *m = &st->merge;
    *out = NULL;
    if (!m->on || !m->on->tree)
        return 0;
    for (size_t k = 0; k < m->nclauses; k++)
        if (m->clauses[k].when == FLOE_SQLM_NOT_MATCHED_BY_SOURCE)
            return 0;
    /* as for DELETE: with case twins only SQLite resolves the names */
    for (size_t i = 0; i < sc->root->nfields; i++)
        if (floe__sql_schema_case_twin(sc, i))
            return 0;
    sql_cond_scope scope = {sc, m->target_alias ? m->target_alias : st->target.table, s->tz};
    const floe_expr *e = floe_expr_true();
    FLOE_TRY(on_conjuncts(&e, a, m->on->tree, &scope, m->source_alias, src, nsrc));
    *out = e->kind == FLOE_EXPR_TRUE ? NULL : e;
    return 0;
}

static int run_merge(floe_sql_session *s, const floe_sql_stmt *st, const char *ident, floe_table *t,
                     floe_rowlevel *op, const floe_schema *sc, floe_arena *a)
{
    const floe_sql_merge *m = &st->merge;
    const char *talias = m->target_alias ? m->target_alias : st->target.table;
    const char *salias = m->source_alias ? m->source_alias : "__floe_source";
    char **src = NULL;
    size_t nsrc = 0;
    FLOE_TRY(source_columns(s, m->source->sql, &src, &nsrc));
    int rc = check_clauses(s, m, sc, ident, src, nsrc);
    const floe_expr *filter = NULL;
    if (rc == 0)
        rc = target_filter(s, st, sc, a, src, nsrc, &filter);
    for (size_t i = 0; i < nsrc; i++)
        floe__free(src[i]);
    floe__free(src);
    FLOE_TRY(rc);
    /* the source once, each row numbered (the number doubles as the
     * presence flag: NULL on target-only rows of the LEFT JOIN) */
    char *mat = sqlite3_mprintf("CREATE TEMP TABLE \"%w\" AS SELECT *, row_number() OVER () AS \""
                                SRC_FLAG "\" FROM (%s)",
                                SOURCE_TMP, m->source->sql);
    if (!mat)
        return floe__error_nomem();
    int erc = sqlite3_exec(s->db, mat, NULL, NULL, NULL);
    sqlite3_free(mat);
    if (erc != SQLITE_OK) {
        rc = fail(s, FLOE_EINVALID, "AnalysisException", sqlite3_errmsg(s->db));
        floe__sql_drop_vtab(s, SOURCE_TMP);
        return rc;
    }
    if ((rc = floe__sql_base_vtab(s, st, ident, t, op, TARGET_VT, filter)) < 0) {
        floe__sql_drop_vtab(s, SOURCE_TMP);
        return rc;
    }
    bool nm = false;
    for (size_t k = 0; k < m->nclauses; k++)
        nm |= m->clauses[k].when == FLOE_SQLM_NOT_MATCHED;
    merge_state ms;
    memset(&ms, 0, sizeof ms);
    ms.s = s;
    ms.m = m;
    ms.sc = sc;
    ms.op = op;
    ms.key = (floe_buf)FLOE_BUF_INIT;
    ms.cardinality = check_cardinality(m);
    floe_buf q1 = FLOE_BUF_INIT, q2 = FLOE_BUF_INIT;
    int *first = floe__calloc(2 * m->nclauses, sizeof *first);
    if (!first || (ms.cardinality && !(ms.seen = floe__strmap_new())) ||
        (nm && !(ms.hit = floe__intmap_new())))
        rc = floe__error_nomem();
    bool lineage = floe__rowlevel_lineage(op);
    floe_arena *la = floe__arena_new(1024);
    if (!la)
        rc = floe__error_nomem();
    if (rc == 0)
        rc = merge_query(&q1, m, sc, talias, salias, false, lineage, first);
    if (rc == 0 && nm)
        rc = merge_query(&q2, m, sc, talias, salias, true, lineage, first + m->nclauses);
    if (rc == 0)
        rc = floe__sql_rl_builder(op, sc, la, &ms.b);
    if (rc == 0)
        rc = merge_pass(&ms, q1.ptr, first, false);
    if (rc == 0 && nm)
        rc = merge_pass(&ms, q2.ptr, first + m->nclauses, true);
    if (rc == 0)
        rc = floe__sql_rl_flush(op, ms.b);
    if (rc == 0)
        rc = floe__sql_rl_positions_flush(&ms.pos, op);
    floe__sql_rl_positions_free(&ms.pos);
    floe__buf_free(&ms.key);
    floe__strmap_free(ms.seen);
    floe__intmap_free(ms.hit);
    floe__arrow_builder_free(ms.b);
    floe__arena_free(la);
    floe__buf_free(&q1);
    floe__buf_free(&q2);
    floe__free(first);
    floe__sql_drop_vtab(s, TARGET_VT);
    floe__sql_drop_vtab(s, SOURCE_TMP);
    return rc;
}

int floe__sql_exec_merge(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ident = floe__sql_table_ident(s, &st->target, a);
    if (!ident)
        return floe__error_nomem();
    floe_table *t = NULL;
    int rc = floe__sql_load_target(s, st, ident, &t);
    if (rc == 0)
        rc = floe__sql_write_base(s, ident, t);
    if (rc < 0) {
        floe_table_free(t);
        return rc;
    }
    const floe_schema *sc = floe__metadata_current_schema(t->metadata);
    floe_rowlevel_options ro = FLOE_ROWLEVEL_OPTIONS_INIT;
    ro.kind = FLOE_ROWLEVEL_MERGE;
    floe_rowlevel *op = NULL;
    bool refs = false;
    if ((rc = floe_rowlevel_new(&op, t, &ro)) < 0)
        goto done;
    refs = true;
    if ((rc = floe__sql_refs_create(s, st)) < 0)
        goto done;
    if ((rc = floe__sql_refs_materialize(s, st)) < 0)
        goto done;
    if ((rc = run_merge(s, st, ident, t, op, sc, a)) < 0)
        goto done;
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
