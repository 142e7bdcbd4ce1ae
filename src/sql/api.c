/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/api: the public SQL API (include/floe/sql.h) over the executor's
 * session (session.c, exec*.c). Result sets are collected through the
 * output sink (output.c) as typed values, column by column, and rendered
 * on demand with the same formatter `floe sql` prints with.
 */
#include "floe/sql.h"

#include "sql/exec_int.h"
#include "sql/session_int.h"

#include <string.h>

struct floe_sql_result {
    bool has_rows;
    size_t ncols;
    size_t nrows;
    char **names;      /* ncols, in arena */
    floe_vec *cols;    /* ncols vectors of floe_sql_datum */
    floe_arena *arena; /* names and value bytes */
    int error;         /* first failure inside the sink */
};

static void result_clear(floe_sql_result *r)
{
    for (size_t i = 0; r->cols && i < r->ncols; i++)
        floe__vec_free(&r->cols[i]);
    floe__free(r->cols);
    r->cols = NULL;
    r->names = NULL;
    r->ncols = r->nrows = 0;
    r->has_rows = false;
    floe__arena_reset(r->arena);
}

void floe_sql_result_free(floe_sql_result *r)
{
    if (!r)
        return;
    result_clear(r);
    floe__arena_free(r->arena);
    floe__free(r);
}

/* a later result set replaces an earlier one (the last statement's wins) */
static int sink_begin(const char *const *names, size_t ncols, void *payload)
{
    floe_sql_result *r = payload;
    result_clear(r);
    r->has_rows = true;
    r->names = floe__arena_calloc(r->arena, ncols ? ncols : 1, sizeof *r->names);
    r->cols = floe__calloc(ncols ? ncols : 1, sizeof *r->cols);
    if (!r->names || !r->cols)
        return r->error = floe__error_nomem();
    r->ncols = ncols;
    for (size_t i = 0; i < ncols; i++) {
        r->cols[i] = (floe_vec)FLOE_VEC_INIT(floe_sql_datum);
        r->names[i] = floe__arena_strdup(r->arena, names[i] ? names[i] : "");
        if (!r->names[i])
            return r->error = floe__error_nomem();
    }
    return 0;
}

static floe_sql_datum_kind datum_kind(floe_sql_cell_kind k)
{
    switch (k) {
    case FLOE_SQLC_NULL: return FLOE_SQL_DATUM_NULL;
    case FLOE_SQLC_INT: return FLOE_SQL_DATUM_INT;
    case FLOE_SQLC_REAL: return FLOE_SQL_DATUM_REAL;
    case FLOE_SQLC_BOOL: return FLOE_SQL_DATUM_BOOL;
    case FLOE_SQLC_TEXT: return FLOE_SQL_DATUM_TEXT;
    case FLOE_SQLC_JSON: return FLOE_SQL_DATUM_JSON;
    case FLOE_SQLC_BLOB: return FLOE_SQL_DATUM_BLOB;
    }
    return FLOE_SQL_DATUM_NULL;
}

static floe_sql_cell_kind cell_kind(floe_sql_datum_kind k)
{
    switch (k) {
    case FLOE_SQL_DATUM_NULL: return FLOE_SQLC_NULL;
    case FLOE_SQL_DATUM_INT: return FLOE_SQLC_INT;
    case FLOE_SQL_DATUM_REAL: return FLOE_SQLC_REAL;
    case FLOE_SQL_DATUM_BOOL: return FLOE_SQLC_BOOL;
    case FLOE_SQL_DATUM_TEXT: return FLOE_SQLC_TEXT;
    case FLOE_SQL_DATUM_JSON: return FLOE_SQLC_JSON;
    case FLOE_SQL_DATUM_BLOB: return FLOE_SQLC_BLOB;
    }
    return FLOE_SQLC_NULL;
}

static int sink_row(const floe_sql_cell *cells, size_t ncols, void *payload)
{
    floe_sql_result *r = payload;
    for (size_t i = 0; i < ncols && i < r->ncols; i++) {
        floe_sql_datum *d = floe__vec_push(&r->cols[i]);
        if (!d)
            return r->error = floe__error_nomem();
        d->kind = datum_kind(cells[i].kind);
        d->i = cells[i].i;
        d->d = cells[i].d;
        if (cells[i].s) {
            char *s = floe__arena_alloc(r->arena, cells[i].n + 1);
            if (!s)
                return r->error = floe__error_nomem();
            memcpy(s, cells[i].s, cells[i].n);
            s[cells[i].n] = '\0';
            d->s = s;
            d->n = cells[i].n;
        }
    }
    r->nrows++;
    return 0;
}

int floe_sql_open(floe_sql_session **out, const floe_sql_open_options *opts)
{
    floe_sql_open_options def = FLOE_SQL_OPEN_OPTIONS_INIT;
    if (!out)
        return floe__error(FLOE_EINVALID, "sql", "floe_sql_open: out is NULL");
    *out = NULL;
    if (!opts)
        opts = &def;
    if (opts->version < 1 || opts->version > FLOE_SQL_OPEN_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "sql", "unknown floe_sql_open_options version %u",
                           opts->version);
    floe_props conf = FLOE_PROPS_INIT;
    int rc = 0;
    for (size_t i = 0; i < opts->nconf && rc == 0; i++) {
        const char *k = opts->conf[2 * i], *v = opts->conf[2 * i + 1];
        if (!k || !v)
            rc = floe__error(FLOE_EINVALID, "sql", "conf pair %zu has a NULL key or value", i);
        else
            rc = floe__props_set(&conf, k, v);
    }
    if (rc == 0) {
        floe_sql_session_options so = FLOE_SQL_SESSION_OPTIONS_INIT;
        so.warehouse = opts->warehouse;
        so.catalog_name = opts->catalog_name;
        so.catalog_uri = opts->catalog_uri;
        so.conf = &conf;
        rc = floe__sql_session_open(out, &so);
    }
    floe__props_free(&conf);
    return rc;
}

void floe_sql_close(floe_sql_session *s)
{
    floe__sql_session_free(s);
}

floe_catalog *floe_sql_session_catalog(floe_sql_session *s)
{
    return s ? s->catalog : NULL;
}

floe_fileio *floe_sql_session_fileio(floe_sql_session *s)
{
    return s && s->engine ? floe__sql_table_options(s)->io : NULL;
}

const char *floe_sql_error_class(const floe_sql_session *s)
{
    return s ? floe__sql_session_error_class(s) : NULL;
}

int floe_sql_execute(floe_sql_result **out, floe_sql_session *s, const char *text)
{
    if (out)
        *out = NULL;
    if (!s || !text)
        return floe__error(FLOE_EINVALID, "sql", "floe_sql_execute: session or text is NULL");
    floe_sql_result *r = floe__calloc(1, sizeof *r);
    if (!r || !(r->arena = floe__arena_new(0))) {
        floe__free(r);
        return floe__error_nomem();
    }
    floe_sql_out_sink sink = {sink_begin, sink_row, r};
    floe__sql_out_set_sink(s->out, &sink);
    int rc = floe__sql_session_run(s, text, NULL);
    /* SET floe.format replaces s->out: the new one never had the sink */
    floe__sql_out_set_sink(s->out, NULL);
    if (rc == 0 && r->error < 0)
        rc = r->error;
    if (rc < 0 || !out)
        floe_sql_result_free(r);
    else
        *out = r;
    return rc;
}

bool floe_sql_result_has_rows(const floe_sql_result *r)
{
    return r && r->has_rows;
}
size_t floe_sql_result_ncols(const floe_sql_result *r)
{
    return r ? r->ncols : 0;
}
size_t floe_sql_result_nrows(const floe_sql_result *r)
{
    return r ? r->nrows : 0;
}

const char *floe_sql_result_column(const floe_sql_result *r, size_t col)
{
    return r && col < r->ncols ? r->names[col] : NULL;
}

const floe_sql_datum *floe_sql_result_column_values(const floe_sql_result *r, size_t col)
{
    if (!r || col >= r->ncols)
        return NULL;
    static const floe_sql_datum none[1];
    return r->nrows ? floe__vec_at(&r->cols[col], 0) : none;
}

int floe_sql_result_get(floe_sql_datum *out, const floe_sql_result *r, size_t row, size_t col)
{
    if (!r || col >= r->ncols || row >= r->nrows)
        return floe__error(FLOE_EINVALID, "sql", "result value (%zu, %zu) is out of range", row,
                           col);
    *out = *(const floe_sql_datum *)floe__vec_at(&r->cols[col], row);
    return 0;
}

static int to_buf(const char *data, size_t len, void *payload)
{
    return floe__buf_put(payload, data, len);
}

int floe_sql_result_render(char **out, const floe_sql_result *r, floe_sql_render how)
{
    *out = NULL;
    floe_sql_format fmt;
    switch (how) {
    case FLOE_SQL_RENDER_TABLE: fmt = FLOE_SQLFMT_TABLE; break;
    case FLOE_SQL_RENDER_CSV: fmt = FLOE_SQLFMT_CSV; break;
    case FLOE_SQL_RENDER_JSON: fmt = FLOE_SQLFMT_JSON; break;
    default: return floe__error(FLOE_EINVALID, "sql", "unknown render format %d", (int)how);
    }
    floe_buf b = FLOE_BUF_INIT;
    int rc = 0;
    if (r && r->has_rows) {
        floe_sql_out *o = NULL;
        floe_sql_cell *row = floe__calloc(r->ncols ? r->ncols : 1, sizeof *row);
        if (!row)
            rc = floe__error_nomem();
        if (rc == 0)
            rc = floe__sql_out_new(&o, fmt, to_buf, &b);
        if (rc == 0)
            rc = floe__sql_out_begin(o, (const char *const *)r->names, r->ncols);
        for (size_t i = 0; rc == 0 && i < r->nrows; i++) {
            for (size_t j = 0; j < r->ncols; j++) {
                const floe_sql_datum *d = floe__vec_at(&r->cols[j], i);
                row[j] = (floe_sql_cell){cell_kind(d->kind), d->i, d->d, d->s, d->n};
            }
            rc = floe__sql_out_row(o, row);
        }
        if (rc == 0)
            rc = floe__sql_out_end(o);
        floe__sql_out_free(o);
        floe__free(row);
    }
    if (rc == 0 && (rc = floe__buf_putc(&b, '\0')) == 0) {
        *out = b.ptr;
        return 0;
    }
    floe__buf_free(&b);
    return rc;
}
