/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_fast: answers a bare `SELECT count(*) FROM <table>` from the
 * scan plan instead of stepping every row through SQLite.
 *
 * Iceberg manifests record each data file's record_count (spec "Manifests",
 * data_file field 103). When a snapshot's planned data files have no delete
 * file applying to them and the query has no filter, the table's row count
 * is exactly the sum of those counts, so the answer needs the manifests only
 * (no data file is opened). The row source decides whether its count is
 * exact (floe_rowsource_ext.count: exec_data.c refuses when a delete file
 * applies); this file only recognises the statement: after rewriting, the
 * query text must be exactly
 *     SELECT count(*) | count(1) FROM <the statement's one reference> [[AS] alias] [;]
 * (no WHERE, GROUP BY, HAVING, LIMIT, join or other column). The statement
 * is prepared first (so a syntax error still surfaces as SQLite's) and the
 * result column keeps SQLite's name. Anything else runs on SQLite, where the
 * virtual table still avoids reading data for count(*) (vtab.c: no column
 * used -> counting cursor).
 */
#include "sql/exec_int.h"

#include <string.h>

static void skip_space(const char **p)
{
    while (**p == ' ' || **p == '\t' || **p == '\n' || **p == '\r')
        (*p)++;
}

/* Case-insensitive keyword followed by a non-identifier character. */
static bool word(const char **p, const char *w)
{
    skip_space(p);
    size_t n = strlen(w);
    for (size_t i = 0; i < n; i++) {
        char c = (*p)[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != w[i])
            return false;
    }
    char next = (*p)[n];
    bool ident = (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
                 (next >= '0' && next <= '9') || next == '_';
    bool sym = !((w[0] >= 'a' && w[0] <= 'z'));
    if (!sym && ident)
        return false;
    *p += n;
    return true;
}

/* An identifier, bare or "quoted", into buf; false when none. */
static bool ident(const char **p, char *buf, size_t cap)
{
    skip_space(p);
    size_t n = 0;
    const char *s = *p;
    if (*s == '"') {
        for (s++; *s; s++) {
            if (*s == '"') {
                if (s[1] != '"')
                    break;
                s++;
            }
            if (n + 1 >= cap)
                return false;
            buf[n++] = *s;
        }
        if (*s != '"')
            return false;
        s++;
    } else {
        while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
               *s == '_') {
            if (n + 1 >= cap)
                return false;
            buf[n++] = *s++;
        }
        if (n == 0)
            return false;
    }
    buf[n] = 0;
    *p = s;
    return true;
}

/* Is `sql` a bare count over the virtual table `table`? */
static bool is_bare_count(const char *sql, const char *table)
{
    const char *p = sql;
    char name[256];
    if (!word(&p, "select") || !word(&p, "count") || !word(&p, "("))
        return false;
    if (!word(&p, "*") && !word(&p, "1"))
        return false;
    if (!word(&p, ")") || !word(&p, "from") || !ident(&p, name, sizeof name) ||
        strcmp(name, table) != 0)
        return false;
    if (word(&p, "as")) {
        if (!ident(&p, name, sizeof name))
            return false;
    } else {
        const char *save = p;
        if (!ident(&p, name, sizeof name))
            p = save;
    }
    word(&p, ";");
    skip_space(&p);
    return *p == 0;
}

int floe__sql_fast_count(floe_sql_session *s, const floe_sql_stmt *st, sqlite3_stmt *q,
                         bool *done)
{
    *done = false;
    if (st->nrefs != 1 || !st->query || !st->query->sql || sqlite3_column_count(q) != 1 ||
        !is_bare_count(st->query->sql, st->refs[0].sqlite_name))
        return 0;
    int64_t n = 0;
    int rc = floe__sql_live_count(s, st->refs[0].sqlite_name, &n);
    if (rc != 0)
        return rc < 0 ? rc : 0; /* 1: not exact, let SQLite count */
    const char *name = sqlite3_column_name(q, 0);
    const char *const names[] = {name ? name : "count(1)"};
    floe_sql_cell cell = floe__sql_cell_int(n);
    *done = true;
    return floe__sql_emit(s, names, 1, &cell, 1);
}
