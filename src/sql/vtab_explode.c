/* SPDX-License-Identifier: Apache-2.0 */
/*
 * floe_explode(json): the rows of Spark's generators explode / posexplode
 * (and LATERAL VIEW) over a nested value, which floe holds as JSON text
 * (sql/nested.c). An eponymous table-valued function whose columns are
 * floe_pos (the 0-based position), floe_key (a map's key, NULL for an
 * array) and floe_val (the element: SQL value, nested values as JSON
 * text), read from SQLite's json_each. json_each itself is not joined
 * directly because its column names (id, key, value, type, path...) would
 * make a user's unqualified column of the same name ambiguous. A NULL or
 * non-nested argument has no rows (Spark's explode of NULL).
 */
#include "sql/session_int.h"

#include <string.h>

enum { COL_POS, COL_KEY, COL_VAL, COL_ARG };

typedef struct ex_vtab {
    sqlite3_vtab base;
    sqlite3 *db;
} ex_vtab;

typedef struct ex_cursor {
    sqlite3_vtab_cursor base;
    sqlite3_stmt *q; /* SELECT key, value FROM json_each(?) */
    sqlite3_int64 pos;
    bool eof;
    bool is_map;
} ex_cursor;

static int ex_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                      char **err)
{
    (void)aux;
    (void)argc;
    (void)argv;
    (void)err;
    int rc =
        sqlite3_declare_vtab(db, "CREATE TABLE x(floe_pos, floe_key, floe_val, floe_arg HIDDEN)");
    if (rc != SQLITE_OK)
        return rc;
    ex_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v)
        return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->db = db;
    *out = &v->base;
    return SQLITE_OK;
}

static int ex_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

static int ex_best_index(sqlite3_vtab *vt, sqlite3_index_info *ix)
{
    (void)vt;
    int arg = -1;
    for (int k = 0; k < ix->nConstraint; k++) {
        const struct sqlite3_index_constraint *c = &ix->aConstraint[k];
        if (c->iColumn != COL_ARG)
            continue;
        if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
            return SQLITE_CONSTRAINT; /* the argument must be known first */
        arg = k;
    }
    if (arg < 0) {
        /* floe_explode without its argument: no rows */
        ix->idxNum = 0;
        ix->estimatedCost = 1e12;
        return SQLITE_OK;
    }
    ix->aConstraintUsage[arg].argvIndex = 1;
    ix->aConstraintUsage[arg].omit = 1;
    ix->idxNum = 1;
    ix->estimatedCost = 10;
    ix->estimatedRows = 10;
    return SQLITE_OK;
}

static int ex_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    (void)vt;
    ex_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->eof = true;
    *out = &c->base;
    return SQLITE_OK;
}

static int ex_close(sqlite3_vtab_cursor *cur)
{
    ex_cursor *c = (ex_cursor *)cur;
    sqlite3_finalize(c->q);
    sqlite3_free(c);
    return SQLITE_OK;
}

static int ex_step(ex_cursor *c)
{
    int rc = sqlite3_step(c->q);
    if (rc == SQLITE_ROW)
        return SQLITE_OK;
    c->eof = true;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int ex_filter(sqlite3_vtab_cursor *cur, int idx, const char *idxs, int argc,
                     sqlite3_value **argv)
{
    (void)idxs;
    ex_cursor *c = (ex_cursor *)cur;
    ex_vtab *v = (ex_vtab *)cur->pVtab;
    c->eof = true;
    c->pos = 0;
    if (idx != 1 || argc < 1 || sqlite3_value_type(argv[0]) != SQLITE_TEXT)
        return SQLITE_OK;
    const unsigned char *t = sqlite3_value_text(argv[0]);
    while (t && (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r'))
        t++;
    if (!t || (*t != '[' && *t != '{'))
        return SQLITE_OK; /* not a nested value: no rows */
    c->is_map = *t == '{';
    if (!c->q) {
        int rc = sqlite3_prepare_v2(v->db, "SELECT key, value FROM json_each(?)", -1, &c->q, NULL);
        if (rc != SQLITE_OK) {
            sqlite3_free(v->base.zErrMsg);
            v->base.zErrMsg = sqlite3_mprintf("%s", sqlite3_errmsg(v->db));
            return rc;
        }
    } else {
        sqlite3_reset(c->q);
    }
    int rc = sqlite3_bind_value(c->q, 1, argv[0]);
    if (rc != SQLITE_OK)
        return rc;
    c->eof = false;
    rc = ex_step(c);
    if (rc != SQLITE_OK) {
        sqlite3_free(v->base.zErrMsg);
        v->base.zErrMsg = sqlite3_mprintf("%s", sqlite3_errmsg(v->db));
    }
    return rc;
}

static int ex_next(sqlite3_vtab_cursor *cur)
{
    ex_cursor *c = (ex_cursor *)cur;
    c->pos++;
    return ex_step(c);
}

static int ex_eof(sqlite3_vtab_cursor *cur)
{
    return ((ex_cursor *)cur)->eof;
}

static int ex_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    ex_cursor *c = (ex_cursor *)cur;
    switch (col) {
    case COL_POS: sqlite3_result_int64(ctx, c->pos); break;
    case COL_KEY:
        if (c->is_map)
            sqlite3_result_value(ctx, sqlite3_column_value(c->q, 0));
        else
            sqlite3_result_null(ctx);
        break;
    case COL_VAL: sqlite3_result_value(ctx, sqlite3_column_value(c->q, 1)); break;
    default: sqlite3_result_null(ctx); break;
    }
    return SQLITE_OK;
}

static int ex_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *out)
{
    *out = ((ex_cursor *)cur)->pos;
    return SQLITE_OK;
}

static const sqlite3_module explode_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous only */
    .xConnect = ex_connect,
    .xBestIndex = ex_best_index,
    .xDisconnect = ex_disconnect,
    .xDestroy = ex_disconnect,
    .xOpen = ex_open,
    .xClose = ex_close,
    .xFilter = ex_filter,
    .xNext = ex_next,
    .xEof = ex_eof,
    .xColumn = ex_column,
    .xRowid = ex_rowid,
};

int floe__sql_register_explode(sqlite3 *db)
{
    if (sqlite3_create_module(db, "floe_explode", &explode_module, NULL) != SQLITE_OK)
        return floe__error(FLOE_ENOMEM, "sql", "cannot register floe_explode: %s",
                           sqlite3_errmsg(db));
    return 0;
}
