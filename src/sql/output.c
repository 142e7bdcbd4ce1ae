/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/output: result sets of `floe sql` as text.
 *
 *   table  Spark's Dataset.show(truncate=False): a box of '+', '-' and '|',
 *          cells left-aligned, columns at least 3 wide, NULL as "NULL",
 *          booleans as true/false; an empty result prints the header box.
 *   csv    RFC 4180 quoting (fields with , " CR LF quoted, " doubled), a
 *          header row, LF line ends, NULL as an empty field.
 *   json   one object per row and line ({"col": value, ...}); 64-bit
 *          integers as exact digits, JSON-valued cells (metadata maps,
 *          lists, structs) embedded as JSON, NULL as null.
 *
 * Display conventions shared by all three: timestamps that SQLite holds as
 * "YYYY-MM-DD HH:MM:SS.ffffff" (floe's representation, already in the
 * session time zone) show as Spark's show() prints them: the fraction
 * without its trailing zeros, no '.' when it is zero
 * ("2026-01-01 00:00:00.000001", "2026-09-28 13:15:19.839",
 * "2026-01-01 00:00:00"); columns declared
 * DECIMAL(p,s) show with exactly s fraction digits; REAL values print as
 * Spark's (Java's Double.toString: the shortest digits that read back,
 * 3.0, 1.0E20, 1.0E-4).
 */
#include "spec/spec.h"
#include "spec/transform.h"
#include "sql/ast.h"
#include "sql/exec.h"
#include "sql/sqlfront.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct floe_sql_out {
    floe_sql_format fmt;
    floe_sql_write_fn write;
    void *payload;
    size_t ncols;
    char **names;
    /* table: rendered cells, row-major (ncols per row) */
    floe_vec cells; /* char* (owned) */
    size_t *widths;
    floe_buf line;
    floe_sql_type_hint_fn hint;
    void *hint_payload;
    uint64_t bool_columns; /* the next statement's boolean columns */
    const sql_node *tree;  /* the next statement's query (nested column types) */
    floe_sql_type_text_fn type_text;
    const floe_sql_out_sink *sink; /* NULL: format */
};

void floe__sql_out_set_sink(floe_sql_out *o, const floe_sql_out_sink *sink) { o->sink = sink; }

void floe__sql_out_set_bool_columns(floe_sql_out *o, uint64_t bits) { o->bool_columns = bits; }

void floe__sql_out_set_query_tree(floe_sql_out *o, const struct sql_node *tree)
{
    o->tree = tree;
}

void floe__sql_out_set_type_text(floe_sql_out *o, floe_sql_type_text_fn fn)
{
    o->type_text = fn;
}

void floe__sql_out_set_hint(floe_sql_out *o, floe_sql_type_hint_fn fn, void *payload)
{
    o->hint = fn;
    o->hint_payload = payload;
}

int floe__sql_out_new(floe_sql_out **out, floe_sql_format fmt, floe_sql_write_fn write,
                      void *payload)
{
    floe_sql_out *o = floe__calloc(1, sizeof *o);
    if (!o)
        return floe__error_nomem();
    o->fmt = fmt;
    o->write = write;
    o->payload = payload;
    o->cells = (floe_vec)FLOE_VEC_INIT(char *);
    *out = o;
    return 0;
}

static void reset(floe_sql_out *o)
{
    for (size_t i = 0; i < o->cells.len; i++)
        floe__free(*(char **)floe__vec_at(&o->cells, i));
    floe__vec_free(&o->cells);
    o->cells = (floe_vec)FLOE_VEC_INIT(char *);
    for (size_t i = 0; o->names && i < o->ncols; i++)
        floe__free(o->names[i]);
    floe__free(o->names);
    o->names = NULL;
    floe__free(o->widths);
    o->widths = NULL;
    o->ncols = 0;
}

void floe__sql_out_free(floe_sql_out *o)
{
    if (!o)
        return;
    reset(o);
    floe__buf_free(&o->line);
    floe__free(o);
}

static int emit(floe_sql_out *o, const char *s, size_t n)
{
    if (!o->write || n == 0)
        return 0;
    if (o->write(s, n, o->payload) < 0)
        return floe__error(FLOE_EIO, "sql", "cannot write the result");
    return 0;
}

static int flush_line(floe_sql_out *o)
{
    int rc = emit(o, o->line.ptr, o->line.len);
    floe__buf_clear(&o->line);
    return rc;
}

/* ---------------------------------------------------------------- cell text */

bool floe__sql_is_micro_timestamp(const char *s, size_t n)
{
    static const char shape[] = "dddd-dd-dd dd:dd:dd.dddddd";
    if (n != sizeof shape - 1)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (shape[i] == 'd') {
            if (s[i] < '0' || s[i] > '9')
                return false;
        } else if (s[i] != shape[i]) {
            return false;
        }
    }
    return true;
}

size_t floe__sql_timestamp_len(const char *s, size_t n)
{
    while (n > 19 && s[n - 1] == '0')
        n--;
    return n == 20 ? 19 : n; /* no fraction left: no '.' */
}

/* A double as Spark prints it: Java's Double.toString (1.0E20, 3.0). */
static int put_real(floe_buf *b, double d)
{
    return floe__java_float_text(d, false, b);
}

/* JSON text with each string that is a timestamp text shown as a
 * top-level timestamp cell is (nested timestamps stay full inside SQLite,
 * where they compare with top-level ones as text). */
static int put_json(floe_buf *b, const char *s, size_t n)
{
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '"')
            continue;
        size_t e = i + 1; /* the closing quote */
        while (e < n && s[e] != '"')
            e += s[e] == '\\' ? 2 : 1;
        if (e < n && floe__sql_is_micro_timestamp(s + i + 1, e - i - 1)) {
            FLOE_TRY(floe__buf_put(b, s + from, i + 1 - from));
            FLOE_TRY(floe__buf_put(b, s + i + 1, floe__sql_timestamp_len(s + i + 1, 26)));
            from = e;
        }
        i = e;
    }
    return floe__buf_put(b, s + from, n - from);
}

/* ---------------------------------------------------------------- nested values as show() */

static bool type_is(const char *t, const char *prefix)
{
    return strncasecmp(t, prefix, strlen(prefix)) == 0;
}

/* Scale of a declared "DECIMAL(p,s)" / "NUMERIC(p,s)" type, else -1. */
static int decl_scale(const char *decl)
{
    if (!decl)
        return -1;
    if (strncasecmp(decl, "DECIMAL(", 8) != 0 && strncasecmp(decl, "NUMERIC(", 8) != 0)
        return -1;
    const char *comma = strchr(decl, ',');
    if (!comma)
        return 0;
    int s = atoi(comma + 1);
    return s < 0 || s > 38 ? -1 : s;
}

/* A primitive inside a nested value, as Spark's show() prints it: strings
 * unquoted, numbers by the leaf type t (doubles as Java's, decimals at
 * their scale, booleans SQLite built as 0/1 as true/false). */
static int show_leaf(const floe_json *j, const char *t, floe_buf *b)
{
    int sc = decl_scale(t);
    bool decimal = sc >= 0;
    switch (j->type) {
    case FLOE_JSON_TRUE: return floe__buf_puts(b, "true");
    case FLOE_JSON_FALSE: return floe__buf_puts(b, "false");
    case FLOE_JSON_INTEGER:
        if (type_is(t, "boolean"))
            return floe__buf_puts(b, j->u.i ? "true" : "false");
        if (type_is(t, "double") || type_is(t, "float"))
            return floe__java_float_text((double)j->u.i, type_is(t, "float"), b);
        if (decimal)
            return floe__buf_printf(b, "%lld%s%.*s", (long long)j->u.i, sc ? "." : "", sc,
                                    "00000000000000000000000000000000000000");
        return floe__buf_printf(b, "%lld", (long long)j->u.i);
    case FLOE_JSON_REAL:
        if (decimal)
            return floe__buf_printf(b, "%.*f", sc, j->u.d);
        return floe__java_float_text(j->u.d, type_is(t, "float"), b);
    case FLOE_JSON_STRING:
        if (floe__sql_is_micro_timestamp(j->u.s, j->n))
            return floe__buf_put(b, j->u.s, floe__sql_timestamp_len(j->u.s, j->n));
        return floe__buf_put(b, j->u.s, j->n);
    default: return 1;
    }
}

/* Value j of Spark type text t (a part "?" is unknown) in show() form:
 * [1, 2], {k -> v}, structs by position {1, a}, NULL. 1 when the type
 * does not tell how (an object of unknown type: map or struct?). */
static int show_value(const floe_json *j, const char *t, floe_buf *b, int depth)
{
    if (depth > FLOE_JSON_MAX_DEPTH)
        return 1;
    if (!j || j->type == FLOE_JSON_NULL)
        return floe__buf_puts(b, "NULL");
    bool st = type_is(t, "struct<"), map = type_is(t, "map<"), arr = type_is(t, "array<");
    if (j->type != FLOE_JSON_ARRAY && j->type != FLOE_JSON_OBJECT)
        return st || map || arr ? 1 : show_leaf(j, t, b);
    if (j->type == FLOE_JSON_OBJECT && !st && !map)
        return 1;
    if (j->type == FLOE_JSON_ARRAY && !st && !arr && strcmp(t, "?") != 0 &&
        !(t[0] == '?' && (t[1] == ',' || t[1] == '>')))
        return 1;
    const char *ft = st ? t + 7 : NULL; /* the next struct field's "name:type" */
    const char *kt = map ? t + 4 : NULL;
    const char *vt = map ? floe__sql_type_text_end(kt) : NULL;
    if (vt && *vt == ',')
        vt++;
    FLOE_TRY(floe__buf_putc(b, j->type == FLOE_JSON_ARRAY && !st ? '[' : '{'));
    for (size_t k = 0; k < j->n; k++) {
        if (k)
            FLOE_TRY(floe__buf_puts(b, ", "));
        const char *et = arr ? t + 6 : map ? vt : "?";
        if (st) {
            const char *colon = ft ? strchr(ft, ':') : NULL;
            const char *end = colon ? floe__sql_type_text_end(colon + 1) : NULL;
            et = colon && colon < end ? colon + 1 : "?";
            ft = end && *end == ',' ? end + 1 : NULL;
        }
        if (map) {
            floe_json key = {
                .type = FLOE_JSON_STRING, .n = (uint32_t)strlen(j->keys[k]), .u.s = j->keys[k]};
            FLOE_TRY(show_leaf(&key, "string", b));
            FLOE_TRY(floe__buf_puts(b, " -> "));
        }
        int rc = show_value(&j->u.items[k], et, b, depth + 1);
        if (rc != 0)
            return rc;
    }
    return floe__buf_putc(b, j->type == FLOE_JSON_ARRAY && !st ? ']' : '}');
}

int floe__sql_nested_show(const char *json, size_t n, const char *type, floe_buf *b)
{
    floe_json *j = NULL;
    int rc = floe__json_parse(&j, json, n, "value");
    if (rc == FLOE_ENOMEM)
        return rc;
    if (rc < 0) {
        floe_error_clear();
        return 1;
    }
    size_t at = b->len;
    rc = show_value(j, type, b, 0);
    floe__json_free(j);
    if (rc == 1 && b->ptr) {
        b->len = at;
        b->ptr[at] = '\0';
    }
    return rc;
}

int floe__sql_cell_render(const floe_sql_cell *c, floe_buf *b)
{
    switch (c->kind) {
    case FLOE_SQLC_NULL: return floe__buf_puts(b, "NULL");
    case FLOE_SQLC_INT: return floe__buf_printf(b, "%lld", (long long)c->i);
    case FLOE_SQLC_BOOL: return floe__buf_puts(b, c->i ? "true" : "false");
    case FLOE_SQLC_REAL: return put_real(b, c->d);
    case FLOE_SQLC_JSON: return put_json(b, c->s, c->n);
    case FLOE_SQLC_TEXT:
        if (floe__sql_is_micro_timestamp(c->s, c->n))
            return floe__buf_put(b, c->s, floe__sql_timestamp_len(c->s, c->n));
        return floe__buf_put(b, c->s, c->n);
    case FLOE_SQLC_BLOB:
        FLOE_TRY(floe__buf_putc(b, '['));
        for (size_t i = 0; i < c->n; i++)
            FLOE_TRY(floe__buf_printf(b, i ? " %02X" : "%02X", (unsigned char)c->s[i]));
        return floe__buf_putc(b, ']');
    }
    return 0;
}

/* A column whose name differs from another's only in case is known to
 * SQLite with a suffix, also inside a result name such as
 * sum("uSeR_Id<suffix>"): the names as written. */
void floe__sql_strip_twin_marks(char *name)
{
    char *to = name;
    for (const char *r = name; *r;) {
        if (*r == FLOE_SQL_TWIN_MARK) {
            for (r++; *r == '0' || *r == '1'; r++)
                ;
            continue;
        }
        *to++ = *r++;
    }
    *to = 0;
}

/* Display width: UTF-8 code points (continuation bytes do not count). */
static size_t width_of(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

/* ---------------------------------------------------------------- begin / row / end */

int floe__sql_out_begin(floe_sql_out *o, const char *const *names, size_t ncols)
{
    reset(o);
    if (o->sink) {
        o->ncols = ncols;
        return o->sink->begin(names, ncols, o->sink->payload);
    }
    o->names = floe__calloc(ncols ? ncols : 1, sizeof *o->names);
    o->widths = floe__calloc(ncols ? ncols : 1, sizeof *o->widths);
    if (!o->names || !o->widths)
        return floe__error_nomem();
    o->ncols = ncols;
    for (size_t i = 0; i < ncols; i++) {
        o->names[i] = floe__strdup(names[i] ? names[i] : "");
        if (!o->names[i])
            return floe__error_nomem();
        floe__sql_strip_twin_marks(o->names[i]);
        size_t w = width_of(o->names[i]);
        o->widths[i] = w < 3 ? 3 : w;
    }
    if (o->fmt == FLOE_SQLFMT_CSV) {
        for (size_t i = 0; i < ncols; i++) {
            if (i)
                FLOE_TRY(floe__buf_putc(&o->line, ','));
            floe_sql_cell c = floe__sql_cell_text(o->names[i]);
            /* header names are quoted by the same rule as values */
            const char *s = c.s;
            bool q = strpbrk(s, ",\"\r\n") != NULL;
            if (q)
                FLOE_TRY(floe__buf_putc(&o->line, '"'));
            for (; *s; s++) {
                if (*s == '"')
                    FLOE_TRY(floe__buf_putc(&o->line, '"'));
                FLOE_TRY(floe__buf_putc(&o->line, *s));
            }
            if (q)
                FLOE_TRY(floe__buf_putc(&o->line, '"'));
        }
        FLOE_TRY(floe__buf_putc(&o->line, '\n'));
        return flush_line(o);
    }
    return 0;
}

static int csv_field(floe_buf *b, const floe_sql_cell *c, floe_buf *tmp)
{
    if (c->kind == FLOE_SQLC_NULL)
        return 0;
    floe__buf_clear(tmp);
    FLOE_TRY(floe__sql_cell_render(c, tmp));
    const char *s = tmp->ptr ? tmp->ptr : "";
    size_t n = tmp->len;
    bool q = n == 0 && c->kind == FLOE_SQLC_TEXT; /* "" keeps empty apart from NULL */
    for (size_t i = 0; i < n && !q; i++)
        q = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    if (q)
        FLOE_TRY(floe__buf_putc(b, '"'));
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            FLOE_TRY(floe__buf_putc(b, '"'));
        FLOE_TRY(floe__buf_putc(b, s[i]));
    }
    if (q)
        FLOE_TRY(floe__buf_putc(b, '"'));
    return 0;
}

static int json_field(floe_buf *b, const floe_sql_cell *c, floe_buf *tmp)
{
    switch (c->kind) {
    case FLOE_SQLC_NULL: return floe__buf_puts(b, "null");
    case FLOE_SQLC_INT: return floe__buf_printf(b, "%lld", (long long)c->i);
    case FLOE_SQLC_BOOL: return floe__buf_puts(b, c->i ? "true" : "false");
    case FLOE_SQLC_REAL:
        if (isnan(c->d) || isinf(c->d)) {
            FLOE_TRY(floe__buf_putc(b, '"'));
            FLOE_TRY(put_real(b, c->d));
            return floe__buf_putc(b, '"');
        }
        return put_real(b, c->d);
    case FLOE_SQLC_JSON: return put_json(b, c->s, c->n);
    case FLOE_SQLC_TEXT:
    case FLOE_SQLC_BLOB:
        floe__buf_clear(tmp);
        if (c->kind == FLOE_SQLC_BLOB) {
            for (size_t i = 0; i < c->n; i++)
                FLOE_TRY(floe__buf_printf(tmp, "%02x", (unsigned char)c->s[i]));
        } else {
            FLOE_TRY(floe__sql_cell_render(c, tmp));
        }
        FLOE_TRY(floe__buf_putc(b, '"'));
        FLOE_TRY(floe__buf_put_json_escaped(b, tmp->ptr ? tmp->ptr : "", tmp->len));
        return floe__buf_putc(b, '"');
    }
    return 0;
}

int floe__sql_out_row(floe_sql_out *o, const floe_sql_cell *cells)
{
    if (o->sink)
        return o->sink->row(cells, o->ncols, o->sink->payload);
    floe_buf tmp = FLOE_BUF_INIT;
    int rc = 0;
    if (o->fmt == FLOE_SQLFMT_TABLE) {
        for (size_t i = 0; i < o->ncols && rc == 0; i++) {
            floe__buf_clear(&tmp);
            rc = floe__sql_cell_render(&cells[i], &tmp);
            if (rc < 0)
                break;
            /* control characters would break the box: show them as spaces */
            char *s = floe__strndup(tmp.ptr ? tmp.ptr : "", tmp.len);
            char **slot = floe__vec_push(&o->cells);
            if (!s || !slot) {
                floe__free(s);
                rc = floe__error_nomem();
                break;
            }
            for (char *p = s; *p; p++)
                if (*p == '\n' || *p == '\r' || *p == '\t')
                    *p = ' ';
            *slot = s;
            size_t w = width_of(s);
            if (w > o->widths[i])
                o->widths[i] = w;
        }
    } else if (o->fmt == FLOE_SQLFMT_CSV) {
        for (size_t i = 0; i < o->ncols && rc == 0; i++) {
            if (i)
                rc = floe__buf_putc(&o->line, ',');
            if (rc == 0)
                rc = csv_field(&o->line, &cells[i], &tmp);
        }
        if (rc == 0)
            rc = floe__buf_putc(&o->line, '\n');
        if (rc == 0)
            rc = flush_line(o);
    } else {
        rc = floe__buf_putc(&o->line, '{');
        for (size_t i = 0; i < o->ncols && rc == 0; i++) {
            if (i)
                rc = floe__buf_putc(&o->line, ',');
            if (rc == 0)
                rc = floe__buf_putc(&o->line, '"');
            if (rc == 0)
                rc = floe__buf_put_json_escaped(&o->line, o->names[i], strlen(o->names[i]));
            if (rc == 0)
                rc = floe__buf_puts(&o->line, "\":");
            if (rc == 0)
                rc = json_field(&o->line, &cells[i], &tmp);
        }
        if (rc == 0)
            rc = floe__buf_puts(&o->line, "}\n");
        if (rc == 0)
            rc = flush_line(o);
    }
    floe__buf_free(&tmp);
    if (rc < 0)
        floe__buf_clear(&o->line);
    return rc;
}

static int table_sep(floe_sql_out *o)
{
    FLOE_TRY(floe__buf_putc(&o->line, '+'));
    for (size_t i = 0; i < o->ncols; i++) {
        for (size_t k = 0; k < o->widths[i]; k++)
            FLOE_TRY(floe__buf_putc(&o->line, '-'));
        FLOE_TRY(floe__buf_putc(&o->line, '+'));
    }
    FLOE_TRY(floe__buf_putc(&o->line, '\n'));
    return flush_line(o);
}

static int table_row(floe_sql_out *o, char *const *cells)
{
    FLOE_TRY(floe__buf_putc(&o->line, '|'));
    for (size_t i = 0; i < o->ncols; i++) {
        FLOE_TRY(floe__buf_puts(&o->line, cells[i]));
        for (size_t k = width_of(cells[i]); k < o->widths[i]; k++)
            FLOE_TRY(floe__buf_putc(&o->line, ' '));
        FLOE_TRY(floe__buf_putc(&o->line, '|'));
    }
    FLOE_TRY(floe__buf_putc(&o->line, '\n'));
    return flush_line(o);
}

int floe__sql_out_end(floe_sql_out *o)
{
    int rc = 0;
    if (!o->sink && o->fmt == FLOE_SQLFMT_TABLE && o->ncols > 0) {
        rc = table_sep(o);
        if (rc == 0)
            rc = table_row(o, o->names);
        if (rc == 0)
            rc = table_sep(o);
        for (size_t r = 0; rc == 0 && r * o->ncols < o->cells.len; r++)
            rc = table_row(o, (char *const *)floe__vec_at(&o->cells, r * o->ncols));
        if (rc == 0)
            rc = table_sep(o);
    }
    floe__buf_clear(&o->line);
    reset(o);
    return rc;
}

/* ---------------------------------------------------------------- SQLite statements */

static int decimal_text(floe_buf *b, sqlite3_value *v, int scale)
{
    int t = sqlite3_value_type(v);
    if (t == SQLITE_INTEGER) {
        FLOE_TRY(floe__buf_printf(b, "%lld", (long long)sqlite3_value_int64(v)));
        if (scale > 0) {
            FLOE_TRY(floe__buf_putc(b, '.'));
            for (int i = 0; i < scale; i++)
                FLOE_TRY(floe__buf_putc(b, '0'));
        }
        return 0;
    }
    if (t == SQLITE_FLOAT)
        return floe__buf_printf(b, "%.*f", scale, sqlite3_value_double(v));
    const char *s = (const char *)sqlite3_value_text(v);
    FLOE_TRY(floe__buf_puts(b, s ? s : ""));
    /* exact text (a wide decimal, an exact sum's shortest digits): padded
     * to the scale with zeros, as Spark prints decimal(p, s) */
    size_t i = s && s[0] == '-' ? 1 : 0, digits = 0, frac = 0;
    bool dot = false;
    for (; s && s[i]; i++) {
        if (s[i] == '.' && !dot)
            dot = true;
        else if (s[i] >= '0' && s[i] <= '9')
            digits++, frac += dot;
        else
            return 0; /* not a plain decimal: as it is */
    }
    if (!digits || (int)frac >= scale)
        return 0;
    if (!dot)
        FLOE_TRY(floe__buf_putc(b, '.'));
    for (int k = (int)frac; k < scale; k++)
        FLOE_TRY(floe__buf_putc(b, '0'));
    return 0;
}

int floe__sql_out_decimal_cell(const floe_sql_out *o, double d, int scale, floe_buf *text,
                               floe_sql_cell *c)
{
    /* as floe__sql_out_stmt shows a REAL with a decimal-scale subtype */
    floe__buf_clear(text);
    FLOE_TRY(floe__buf_printf(text, "%.*f", scale, d));
    memset(c, 0, sizeof *c);
    c->kind = o->fmt == FLOE_SQLFMT_JSON ? FLOE_SQLC_JSON : FLOE_SQLC_TEXT;
    c->s = text->ptr ? text->ptr : "";
    c->n = text->len;
    return 0;
}

int floe__sql_out_stmt(floe_sql_out *o, sqlite3_stmt *st)
{
    size_t n = (size_t)sqlite3_column_count(st);
    const char **names = floe__calloc(n ? n : 1, sizeof *names);
    floe_sql_cell *cells = floe__calloc(n ? n : 1, sizeof *cells);
    int *scale = floe__calloc(n ? n : 1, sizeof *scale);
    /* the binder's decimal scale of each column, for a decimal value that
     * lost its scale subtype on the way (GROUP BY) */
    int *bscale = floe__calloc(n ? n : 1, sizeof *bscale);
    bool *is_bool = floe__calloc(n ? n : 1, sizeof *is_bool);
    floe_buf *dec = floe__calloc(n ? n : 1, sizeof *dec);
    /* table output: the Spark type text of nested columns, shown as
     * Spark's show() prints them (json and csv keep the JSON) */
    floe_buf *ntype = floe__calloc(n ? n : 1, sizeof *ntype);
    int rc = 0;
    if (!names || !cells || !scale || !bscale || !is_bool || !dec || !ntype) {
        rc = floe__error_nomem();
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        names[i] = sqlite3_column_name(st, (int)i);
        const char *decl = sqlite3_column_decltype(st, (int)i);
        scale[i] = decl_scale(decl);
        bscale[i] = o->tree ? floe__sql_tree_decimal_scale(o->tree, i) : -1;
        is_bool[i] = (decl && strcasecmp(decl, "BOOLEAN") == 0) ||
                     (i < 64 && (o->bool_columns >> i & 1));
        const char *tab = sqlite3_column_table_name(st, (int)i);
        const char *col = sqlite3_column_origin_name(st, (int)i);
        if (o->hint && tab && col) {
            int h = o->hint(tab, col, o->hint_payload);
            if (h == FLOE_SQL_HINT_BOOL)
                is_bool[i] = true;
            else if (h == FLOE_SQL_HINT_JSON)
                scale[i] = FLOE_SQL_HINT_JSON; /* below: a JSON cell */
            else if (h >= 0)
                scale[i] = h;
        }
        if (o->fmt != FLOE_SQLFMT_TABLE || o->sink)
            continue;
        if (o->type_text && tab && col)
            rc = o->type_text(tab, col, o->hint_payload, &ntype[i]);
        const char *bt = o->tree && !ntype[i].len ? floe__sql_tree_nested_type(o->tree, i) : NULL;
        if (rc == 0 && bt)
            rc = floe__buf_puts(&ntype[i], bt);
        if (rc < 0)
            goto done;
    }
    rc = floe__sql_out_begin(o, names, n);
    while (rc == 0) {
        int s = sqlite3_step(st);
        if (s == SQLITE_DONE)
            break;
        if (s != SQLITE_ROW) {
            /* A virtual table's failure comes back as its message: keep
             * the floe error behind it (its code names its Java class). */
            const char *m = sqlite3_errmsg(sqlite3_db_handle(st));
            const floe_error *e = floe_error_last();
            rc = e && e->code < 0 && e->message && strcmp(e->message, m) == 0
                     ? e->code
                     : floe__error(FLOE_EINVALID, "sql", "%s", m);
            break;
        }
        for (size_t i = 0; i < n && rc == 0; i++) {
            sqlite3_value *v = sqlite3_column_value(st, (int)i);
            floe_sql_cell *c = &cells[i];
            memset(c, 0, sizeof *c);
            int t = sqlite3_value_type(v);
            if (t == SQLITE_NULL) {
                c->kind = FLOE_SQLC_NULL;
            } else if (scale[i] >= 0) {
                floe__buf_clear(&dec[i]);
                rc = decimal_text(&dec[i], v, scale[i]);
                c->kind = FLOE_SQLC_TEXT;
                c->s = dec[i].ptr ? dec[i].ptr : "";
                c->n = dec[i].len;
                /* json output: a decimal is a number */
                if (o->fmt == FLOE_SQLFMT_JSON)
                    c->kind = FLOE_SQLC_JSON;
            } else if (t == SQLITE_INTEGER && (bscale[i] < 0 || is_bool[i])) {
                c->kind = is_bool[i] ? FLOE_SQLC_BOOL : FLOE_SQLC_INT;
                c->i = sqlite3_value_int64(v);
            } else if (((t == SQLITE_FLOAT || t == SQLITE_TEXT) &&
                        sqlite3_value_subtype(v) >= FLOE_SQL_SUBTYPE_SCALE &&
                        sqlite3_value_subtype(v) <= FLOE_SQL_SUBTYPE_SCALE + 38) ||
                       (bscale[i] >= 0 && !is_bool[i] && t != SQLITE_BLOB)) {
                /* a decimal result (exact sum, min/max of a decimal
                 * column): show its scale, Spark's result type's where the
                 * binder knows it (after GROUP BY, whose copies drop
                 * subtypes, a sum only sees its values' shortest text),
                 * else the subtype's; a wide one is its exact text */
                unsigned sub = sqlite3_value_subtype(v);
                floe__buf_clear(&dec[i]);
                rc = decimal_text(&dec[i], v,
                                  bscale[i] >= 0 ? bscale[i] : (int)(sub - FLOE_SQL_SUBTYPE_SCALE));
                c->kind = o->fmt == FLOE_SQLFMT_JSON ? FLOE_SQLC_JSON : FLOE_SQLC_TEXT;
                c->s = dec[i].ptr ? dec[i].ptr : "";
                c->n = dec[i].len;
            } else if (t == SQLITE_FLOAT) {
                c->kind = FLOE_SQLC_REAL;
                c->d = sqlite3_value_double(v);
            } else if (t == SQLITE_BLOB) {
                c->kind = FLOE_SQLC_BLOB;
                c->s = sqlite3_value_blob(v);
                c->n = (size_t)sqlite3_value_bytes(v);
                if (!c->s)
                    c->s = "";
            } else {
                c->s = (const char *)sqlite3_value_text(v);
                c->n = (size_t)sqlite3_value_bytes(v);
                if (!c->s)
                    c->s = "";
                c->kind = sqlite3_value_subtype(v) == 'J' || scale[i] == FLOE_SQL_HINT_JSON
                              ? FLOE_SQLC_JSON
                              : FLOE_SQLC_TEXT;
                if (ntype[i].len) {
                    floe__buf_clear(&dec[i]);
                    int shown = floe__sql_nested_show(c->s, c->n, ntype[i].ptr, &dec[i]);
                    if (shown < 0)
                        rc = shown;
                    else if (shown == 0) {
                        c->kind = FLOE_SQLC_TEXT;
                        c->s = dec[i].ptr ? dec[i].ptr : "";
                        c->n = dec[i].len;
                    }
                }
            }
        }
        if (rc == 0)
            rc = floe__sql_out_row(o, cells);
    }
    if (rc == 0)
        rc = floe__sql_out_end(o);
    else
        reset(o);
done:
    for (size_t i = 0; dec && i < n; i++)
        floe__buf_free(&dec[i]);
    for (size_t i = 0; ntype && i < n; i++)
        floe__buf_free(&ntype[i]);
    floe__free(ntype);
    floe__free(dec);
    floe__free(is_bool);
    floe__free(scale);
    floe__free(bscale);
    floe__free(cells);
    floe__free(names);
    return rc;
}
