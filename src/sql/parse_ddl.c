/* SPDX-License-Identifier: Apache-2.0 */
/*
 * DDL statements of the Spark/Iceberg dialect: CREATE NAMESPACE, CREATE
 * [OR REPLACE] TABLE (columns with Spark types mapped to Iceberg types as
 * Spark's Iceberg catalog does, PARTITIONED BY transforms named as in the
 * spec's "Partition Transforms" table, LOCATION, TBLPROPERTIES, CTAS),
 * CREATE TEMPORARY VIEW, and ALTER TABLE: SET/UNSET TBLPROPERTIES, RENAME
 * TO, and the Iceberg SQL extensions' branch/tag DDL (CREATE/REPLACE/DROP
 * BRANCH|TAG with AS OF VERSION, RETAIN and WITH SNAPSHOT RETENTION, which
 * become the spec's snapshot-reference fields max-ref-age-ms,
 * min-snapshots-to-keep and max-snapshot-age-ms).
 */
#include "spec/spec.h"
#include "sql/sqlfront_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- types */

const char *floe__sql_iceberg_type(floe_arena *a, const char *spark_type)
{
    char name[32];
    size_t k = 0;
    const char *s = spark_type;
    while (*s == ' ')
        s++;
    while ((isalnum((unsigned char)*s) || *s == '_') && k + 1 < sizeof name)
        name[k++] = (char)tolower((unsigned char)*s++);
    name[k] = '\0';
    while (*s == ' ')
        s++;
    long args[2] = {-1, -1};
    int nargs = 0;
    if (*s == '(') {
        s++;
        for (;;) {
            while (*s == ' ')
                s++;
            if (!isdigit((unsigned char)*s) || nargs == 2)
                return NULL;
            char *end;
            args[nargs++] = strtol(s, &end, 10);
            s = end;
            while (*s == ' ')
                s++;
            if (*s == ',') {
                s++;
                continue;
            }
            if (*s != ')')
                return NULL;
            s++;
            break;
        }
        while (*s == ' ')
            s++;
    }
    if (*s)
        return NULL;
    static const struct {
        const char *spark, *iceberg;
    } simple[] = {
        {"bigint", "long"},
        {"long", "long"},
        {"int", "int"},
        {"integer", "int"},
        {"smallint", "int"},
        {"short", "int"},
        {"tinyint", "int"},
        {"byte", "int"},
        {"boolean", "boolean"},
        {"bool", "boolean"},
        {"float", "float"},
        {"real", "float"},
        {"double", "double"},
        {"string", "string"},
        {"date", "date"},
        {"timestamp", "timestamptz"},
        {"timestamp_ltz", "timestamptz"},
        {"timestamp_ntz", "timestamp"},
        /* floe's extension (Spark 3.5 has no nanosecond type): v3 tables */
        {"timestamp_ns", "timestamp_ns"},
        {"timestamptz_ns", "timestamptz_ns"},
        {"binary", "binary"},
        /* Spark's NullType: Iceberg's v3 unknown (SparkTypeToType) */
        {"void", "unknown"},
    };
    for (size_t i = 0; i < FLOE_ARRAY_LEN(simple); i++)
        if (!strcmp(name, simple[i].spark))
            return nargs ? NULL : simple[i].iceberg;
    if (!strcmp(name, "varchar") || !strcmp(name, "char")) {
        /* Spark's Iceberg catalog stores CHAR(n)/VARCHAR(n) as string. */
        if (nargs != 1 || args[0] < 1)
            return NULL;
        return "string";
    }
    if (!strcmp(name, "decimal") || !strcmp(name, "dec") || !strcmp(name, "numeric")) {
        long prec = nargs >= 1 ? args[0] : 10, scale = nargs == 2 ? args[1] : 0;
        if (prec < 1 || prec > 38 || scale < 0 || scale > prec)
            return NULL;
        return floe__arena_sprintf(a, "decimal(%ld,%ld)", prec, scale);
    }
    return NULL;
}

/* The closing '>' of a nested type. A '>>' token closes two levels: its
 * first character is consumed here and the token shrinks to '>'. */
static int expect_gt(sql_parser *p)
{
    sql_tok *t = floe__sql_peek(p, 0);
    if (t->kind == TK_OP && !strcmp(t->text, ">>")) {
        t->text = ">";
        t->len = 1;
        t->pos++;
        return 0;
    }
    return floe__sql_expect_op(p, ">");
}

static int parse_type_tree(sql_parser *p, const floe_type **out, int depth);

/* One primitive type at the cursor: a word with an optional (n[, m]). */
static int parse_primitive(sql_parser *p, const floe_type **out, const char **written,
                           const char **sql_type_out)
{
    size_t from = p->i;
    sql_tok *t = floe__sql_peek(p, 0);
    if (t->kind != TK_WORD)
        return floe__sql_err(p, "syntax error: expected a column type");
    p->i++;
    if (floe__sql_accept_op(p, "(")) {
        while (!floe__sql_accept_op(p, ")")) {
            if (floe__sql_peek(p, 0)->kind == TK_EOF)
                return floe__sql_err(p, "syntax error: expected ')'");
            p->i++;
        }
    }
    floe_buf b = FLOE_BUF_INIT;
    for (size_t k = from; k < p->i; k++) {
        if (floe__buf_puts(&b, p->t[k].text) < 0) {
            floe__buf_free(&b);
            return FLOE_ENOMEM;
        }
    }
    for (size_t k = 0; k < b.len; k++)
        b.ptr[k] = (char)toupper((unsigned char)b.ptr[k]);
    const char *sql_type = floe__arena_strdup(p->a, b.ptr);
    floe__buf_free(&b);
    if (!sql_type)
        return floe__error_nomem();
    /* floe__sql_iceberg_type returns NULL for an unknown type and on OOM: a
     * clear slot tells them apart. */
    floe_error_clear();
    const char *ice = floe__sql_iceberg_type(p->a, sql_type);
    if (!ice) {
        if (floe__error_code() == FLOE_ENOMEM)
            return FLOE_ENOMEM;
        return floe__sql_err_at(FLOE_EUNSUPPORTED, p->script, t->pos, "unsupported column type %s",
                                sql_type);
    }
    if (out)
        FLOE_TRY(floe__type_parse(ice, p->a, out));
    if (written)
        *written = ice;
    if (sql_type_out)
        *sql_type_out = sql_type;
    return 0;
}

static floe_field *new_field(sql_parser *p, const char *name, bool required, const floe_type *type)
{
    floe_field *f = floe__arena_calloc(p->a, 1, sizeof *f);
    if (!f) {
        floe__error_nomem();
        return NULL;
    }
    f->name = name;
    f->required = required;
    f->type = type;
    return f;
}

/* STRUCT<name[:] type [NOT NULL] [COMMENT '...'], ...> after the '<'. */
static int parse_struct_fields(sql_parser *p, floe_type *st, int depth)
{
    floe_field *fs = NULL;
    size_t n = 0, cap = 0;
    do {
        if (!(fs = floe__sql_grow(p->a, fs, n, &cap, sizeof *fs)))
            return FLOE_ENOMEM;
        floe_field *f = &fs[n];
        memset(f, 0, sizeof *f);
        sql_tok *nt = floe__sql_peek(p, 0);
        if (nt->kind != TK_WORD && nt->kind != TK_QIDENT && nt->kind != TK_STRING)
            return floe__sql_err(p, "syntax error: expected a struct field name");
        f->name = nt->text;
        p->i++;
        for (size_t k = 0; k < n; k++)
            if (floe__sql_ieq(fs[k].name, f->name))
                return floe__sql_err_at(FLOE_EINVALID, p->script, nt->pos,
                                        "duplicate struct field name %s", f->name);
        floe__sql_accept_op(p, ":");
        FLOE_TRY(parse_type_tree(p, &f->type, depth + 1));
        for (;;) {
            if (floe__sql_accept(p, "NOT")) {
                FLOE_TRY(floe__sql_expect(p, "NULL"));
                f->required = true;
            } else if (floe__sql_accept(p, "NULL")) {
                f->required = false;
            } else if (floe__sql_accept(p, "COMMENT")) {
                FLOE_TRY(floe__sql_string(p, &f->doc));
            } else {
                break;
            }
        }
        n++;
    } while (floe__sql_accept_op(p, ","));
    st->fields = fs;
    st->nfields = n;
    return expect_gt(p);
}

/* A Spark type as an Iceberg type tree in the parser's arena: primitives as
 * floe__sql_iceberg_type maps them, ARRAY<t>, MAP<k, v>, STRUCT<...>. Every
 * field id is 0 (the executor assigns fresh ids). As in Spark, list
 * elements and map values are optional, map keys required. */
static int parse_type_tree(sql_parser *p, const floe_type **out, int depth)
{
    sql_tok *t = floe__sql_peek(p, 0);
    sql_tok *n = floe__sql_peek(p, 1);
    bool nested =
        t->kind == TK_WORD && n->kind == TK_OP && (!strcmp(n->text, "<") || !strcmp(n->text, "<>"));
    if (!nested)
        return parse_primitive(p, out, NULL, NULL);
    if (depth >= FLOE_MAX_TYPE_DEPTH)
        return floe__sql_err(p, "column type nested too deeply");
    floe_type *ty = floe__arena_calloc(p->a, 1, sizeof *ty);
    if (!ty)
        return floe__error_nomem();
    bool is_array = floe__sql_ieq(t->text, "ARRAY"), is_map = floe__sql_ieq(t->text, "MAP");
    if (!is_array && !is_map && !floe__sql_ieq(t->text, "STRUCT"))
        return floe__sql_err_at(FLOE_EUNSUPPORTED, p->script, t->pos,
                                "unsupported column type %s<...>", t->text);
    p->i++;
    if (!strcmp(n->text, "<>")) {
        p->i++;
        return floe__sql_err_at(FLOE_EINVALID, p->script, n->pos + 1,
                                is_array || is_map ? "syntax error: expected a column type"
                                                   : "syntax error: expected a struct field name");
    }
    p->i++;
    if (is_array) {
        ty->id = FLOE_T_LIST;
        const floe_type *et = NULL;
        FLOE_TRY(parse_type_tree(p, &et, depth + 1));
        if (!(ty->element = new_field(p, "element", false, et)))
            return FLOE_ENOMEM;
        FLOE_TRY(expect_gt(p));
    } else if (is_map) {
        ty->id = FLOE_T_MAP;
        const floe_type *kt = NULL, *vt = NULL;
        FLOE_TRY(parse_type_tree(p, &kt, depth + 1));
        FLOE_TRY(floe__sql_expect_op(p, ","));
        FLOE_TRY(parse_type_tree(p, &vt, depth + 1));
        if (!(ty->key = new_field(p, "key", true, kt)) ||
            !(ty->value = new_field(p, "value", false, vt)))
            return FLOE_ENOMEM;
        FLOE_TRY(expect_gt(p));
    } else {
        ty->id = FLOE_T_STRUCT;
        FLOE_TRY(parse_struct_fields(p, ty, depth));
    }
    *out = ty;
    return 0;
}

/* Column type at the cursor. */
int floe__sql_column_type(sql_parser *p, floe_sql_column *col)
{
    sql_tok *t = floe__sql_peek(p, 0), *n = floe__sql_peek(p, 1);
    if (!(t->kind == TK_WORD && n->kind == TK_OP &&
          (!strcmp(n->text, "<") || !strcmp(n->text, "<>"))))
        return parse_primitive(p, NULL, &col->type, &col->sql_type);
    const floe_type *tree = NULL;
    size_t from = t->pos;
    FLOE_TRY(parse_type_tree(p, &tree, 0));
    col->nested = tree;
    col->type = floe__type_name(tree->id);
    /* the type as written */
    size_t to = p->t[p->i - 1].end;
    col->sql_type = floe__arena_strndup(p->a, p->script + from, to - from);
    return col->sql_type ? 0 : floe__error_nomem();
}

static int parse_columns(sql_parser *p, floe_sql_create_table *ct)
{
    floe_sql_column *cols = NULL;
    size_t n = 0, cap = 0;
    do {
        if (!(cols = floe__sql_grow(p->a, cols, n, &cap, sizeof *cols)))
            return FLOE_ENOMEM;
        floe_sql_column *c = &cols[n];
        memset(c, 0, sizeof *c);
        FLOE_TRY(floe__sql_ident(p, &c->name));
        FLOE_TRY(floe__sql_column_type(p, c));
        for (;;) {
            if (floe__sql_accept(p, "NOT")) {
                FLOE_TRY(floe__sql_expect(p, "NULL"));
                c->not_null = true;
            } else if (floe__sql_accept(p, "NULL")) {
                c->not_null = false;
            } else if (floe__sql_accept(p, "COMMENT")) {
                FLOE_TRY(floe__sql_string(p, &c->comment));
            } else if (floe__sql_accept(p, "DEFAULT")) {
                FLOE_TRY(floe__sql_default(p, c));
            } else if (floe__sql_is_word(floe__sql_peek(p, 0), "GENERATED")) {
                return floe__sql_err_unsupported(p, "column GENERATED");
            } else {
                break;
            }
        }
        n++;
    } while (floe__sql_accept_op(p, ","));
    ct->columns = cols;
    ct->ncolumns = n;
    return floe__sql_expect_op(p, ")");
}

int floe__sql_partition_term(sql_parser *p, floe_sql_partition_field *f)
{
    sql_tok *t = floe__sql_peek(p, 0);
    sql_tok *n = floe__sql_peek(p, 1);
    if (t->kind == TK_QIDENT || !(n->kind == TK_OP && !strcmp(n->text, "("))) {
        FLOE_TRY(floe__sql_ident(p, &f->column));
        if (floe__sql_peek(p, 0)->kind == TK_WORD &&
            floe__sql_iceberg_type(p->a, floe__sql_peek(p, 0)->text))
            return floe__sql_err_unsupported(p, "Hive-style PARTITIONED BY (column type)");
        f->transform = "identity";
        return 0;
    }
    static const struct {
        const char *fn, *transform;
    } unary[] = {{"years", "year"},     {"year", "year"},        {"months", "month"},
                 {"month", "month"},    {"days", "day"},         {"day", "day"},
                 {"date", "day"},       {"hours", "hour"},       {"hour", "hour"},
                 {"date_hour", "hour"}, {"identity", "identity"}};
    p->i += 2;
    for (size_t k = 0; k < FLOE_ARRAY_LEN(unary); k++) {
        if (floe__sql_ieq(t->text, unary[k].fn)) {
            f->transform = unary[k].transform;
            FLOE_TRY(floe__sql_ident(p, &f->column));
            return floe__sql_expect_op(p, ")");
        }
    }
    bool bucket = floe__sql_ieq(t->text, "bucket");
    if (!bucket && !floe__sql_ieq(t->text, "truncate")) {
        p->i -= 2;
        return floe__sql_err_unsupported(p, "partition transform");
    }
    /* bucket(N, col) / truncate(W, col); also accept (col, N). */
    int64_t v;
    if (floe__sql_peek(p, 0)->kind == TK_NUMBER) {
        FLOE_TRY(floe__sql_int(p, &v));
        FLOE_TRY(floe__sql_expect_op(p, ","));
        FLOE_TRY(floe__sql_ident(p, &f->column));
    } else {
        FLOE_TRY(floe__sql_ident(p, &f->column));
        FLOE_TRY(floe__sql_expect_op(p, ","));
        FLOE_TRY(floe__sql_int(p, &v));
    }
    if (v < 1 || v > INT32_MAX)
        return floe__sql_err_at(FLOE_EINVALID, p->script, t->pos, "invalid %s width %lld", t->text,
                                (long long)v);
    f->param = (int32_t)v;
    f->transform = floe__arena_sprintf(p->a, "%s[%d]", bucket ? "bucket" : "truncate", f->param);
    if (!f->transform)
        return FLOE_ENOMEM;
    return floe__sql_expect_op(p, ")");
}

static int parse_partitioned_by(sql_parser *p, floe_sql_create_table *ct)
{
    FLOE_TRY(floe__sql_expect(p, "BY"));
    FLOE_TRY(floe__sql_expect_op(p, "("));
    floe_sql_partition_field *fs = NULL;
    size_t n = 0, cap = 0;
    do {
        if (!(fs = floe__sql_grow(p->a, fs, n, &cap, sizeof *fs)))
            return FLOE_ENOMEM;
        memset(&fs[n], 0, sizeof fs[n]);
        FLOE_TRY(floe__sql_partition_term(p, &fs[n]));
        n++;
    } while (floe__sql_accept_op(p, ","));
    ct->partition = fs;
    ct->npartition = n;
    return floe__sql_expect_op(p, ")");
}

/* A property key or value: string, dotted identifier, number or boolean. */
static int prop_text(sql_parser *p, bool is_key, const char **out)
{
    sql_tok *t = floe__sql_peek(p, 0);
    if (t->kind == TK_STRING) {
        *out = t->text;
        p->i++;
        return 0;
    }
    if (is_key && (t->kind == TK_WORD || t->kind == TK_QIDENT)) {
        const char **parts;
        size_t n;
        FLOE_TRY(floe__sql_parts(p, &parts, &n));
        floe_buf b = FLOE_BUF_INIT;
        for (size_t k = 0; k < n; k++) {
            if ((k && floe__buf_putc(&b, '.') < 0) || floe__buf_puts(&b, parts[k]) < 0) {
                floe__buf_free(&b);
                return FLOE_ENOMEM;
            }
        }
        *out = floe__arena_strdup(p->a, b.ptr);
        floe__buf_free(&b);
        return *out ? 0 : floe__error_nomem();
    }
    if (!is_key) {
        floe_sql_value v;
        FLOE_TRY(floe__sql_literal(p, &v));
        if (v.kind == FLOE_SQLV_INT || v.kind == FLOE_SQLV_NUMBER || v.kind == FLOE_SQLV_BOOL) {
            *out = v.text;
            return 0;
        }
        return floe__sql_err_at(FLOE_EINVALID, p->script, v.pos,
                                "syntax error: expected a property value");
    }
    return floe__sql_err(p, "syntax error: expected a property key");
}

int floe__sql_props(sql_parser *p, bool with_values, floe_sql_prop **out, size_t *n_out)
{
    FLOE_TRY(floe__sql_expect_op(p, "("));
    floe_sql_prop *ps = NULL;
    size_t n = 0, cap = 0;
    do {
        if (!(ps = floe__sql_grow(p->a, ps, n, &cap, sizeof *ps)))
            return FLOE_ENOMEM;
        memset(&ps[n], 0, sizeof ps[n]);
        FLOE_TRY(prop_text(p, true, &ps[n].key));
        if (with_values) {
            floe__sql_accept_op(p, "=");
            FLOE_TRY(prop_text(p, false, &ps[n].value));
        }
        n++;
    } while (floe__sql_accept_op(p, ","));
    *out = ps;
    *n_out = n;
    return floe__sql_expect_op(p, ")");
}

/* ---------------------------------------------------------------- CREATE */

static int parse_create_namespace(sql_parser *p, floe_sql_stmt *st)
{
    st->kind = FLOE_SQL_CREATE_NAMESPACE;
    if (floe__sql_accept(p, "IF")) {
        FLOE_TRY(floe__sql_expect(p, "NOT"));
        FLOE_TRY(floe__sql_expect(p, "EXISTS"));
        st->if_not_exists = true;
    }
    const char **parts;
    size_t n;
    FLOE_TRY(floe__sql_parts(p, &parts, &n));
    const char *cat = n >= 2 ? floe__sql_catalog_named(p, parts[0]) : NULL;
    st->ns_catalog = cat ? cat : p->opt->catalog_name;
    if (cat) {
        parts++;
        n--;
    }
    st->ns_name = parts;
    st->nns_name = n;
    for (;;) {
        if (floe__sql_accept(p, "COMMENT")) {
            FLOE_TRY(floe__sql_string(p, &st->comment));
        } else if (floe__sql_accept(p, "LOCATION")) {
            FLOE_TRY(floe__sql_string(p, &st->location));
        } else if (floe__sql_accept(p, "WITH")) {
            if (!floe__sql_accept(p, "DBPROPERTIES"))
                FLOE_TRY(floe__sql_expect(p, "PROPERTIES"));
            floe_sql_prop *ps;
            FLOE_TRY(floe__sql_props(p, true, &ps, &st->nprops));
            st->props = ps;
        } else {
            return 0;
        }
    }
}

static int parse_create_table(sql_parser *p, floe_sql_stmt *st)
{
    floe_sql_create_table *ct = &st->create;
    st->kind = FLOE_SQL_CREATE_TABLE;
    if (floe__sql_accept(p, "IF")) {
        FLOE_TRY(floe__sql_expect(p, "NOT"));
        FLOE_TRY(floe__sql_expect(p, "EXISTS"));
        ct->if_not_exists = true;
        st->if_not_exists = true;
    }
    FLOE_TRY(floe__sql_table_name(p, false, &st->target));
    sql_tok *t = floe__sql_peek(p, 0);
    if (t->kind == TK_OP && !strcmp(t->text, "(") &&
        !(floe__sql_is_word(floe__sql_peek(p, 1), "SELECT") ||
          floe__sql_is_word(floe__sql_peek(p, 1), "WITH"))) {
        p->i++;
        FLOE_TRY(parse_columns(p, ct));
    }
    for (;;) {
        if (floe__sql_accept(p, "USING")) {
            FLOE_TRY(floe__sql_ident(p, &ct->using_));
            if (!floe__sql_ieq(ct->using_, "iceberg"))
                return floe__sql_err_at(FLOE_EUNSUPPORTED, p->script, p->t[p->i - 1].pos,
                                        "unsupported: USING %s (only iceberg)", ct->using_);
        } else if (floe__sql_accept(p, "PARTITIONED")) {
            FLOE_TRY(parse_partitioned_by(p, ct));
        } else if (floe__sql_accept(p, "LOCATION")) {
            FLOE_TRY(floe__sql_string(p, &ct->location));
        } else if (floe__sql_accept(p, "COMMENT")) {
            FLOE_TRY(floe__sql_string(p, &ct->comment));
        } else if (floe__sql_accept(p, "TBLPROPERTIES")) {
            floe_sql_prop *ps;
            FLOE_TRY(floe__sql_props(p, true, &ps, &ct->nprops));
            ct->props = ps;
        } else if (floe__sql_is_word(floe__sql_peek(p, 0), "CLUSTERED") ||
                   floe__sql_is_word(floe__sql_peek(p, 0), "STORED") ||
                   floe__sql_is_word(floe__sql_peek(p, 0), "OPTIONS") ||
                   floe__sql_is_word(floe__sql_peek(p, 0), "ROW")) {
            return floe__sql_err_unsupported(p, "CREATE TABLE clause");
        } else {
            break;
        }
    }
    if (floe__sql_accept(p, "AS")) {
        floe_sql_query *q;
        size_t from = p->i;
        sql_tok *q0 = floe__sql_peek(p, 0);
        if (!(floe__sql_is_word(q0, "SELECT") || floe__sql_is_word(q0, "WITH") ||
              floe__sql_is_word(q0, "VALUES") || (q0->kind == TK_OP && !strcmp(q0->text, "("))))
            return floe__sql_err(p, "syntax error: expected a query after AS");
        FLOE_TRY(floe__sql_rewrite(p, from, p->n, &q));
        p->i = p->n;
        ct->as_query = q;
        st->query = q;
    } else if (!ct->ncolumns) {
        return floe__sql_err(p, "syntax error: expected a column list or AS SELECT");
    }
    return 0;
}

static int parse_create_view(sql_parser *p, floe_sql_stmt *st)
{
    st->kind = FLOE_SQL_CREATE_VIEW;
    if (floe__sql_accept(p, "IF")) {
        FLOE_TRY(floe__sql_expect(p, "NOT"));
        FLOE_TRY(floe__sql_expect(p, "EXISTS"));
        st->if_not_exists = true;
    }
    FLOE_TRY(floe__sql_ident(p, &st->view_name));
    if (floe__sql_peek(p, 0)->kind == TK_OP && !strcmp(floe__sql_peek(p, 0)->text, ".")) {
        return floe__sql_err_unsupported(p, "qualified temporary view name");
    }
    if (floe__sql_peek(p, 0)->kind == TK_OP && !strcmp(floe__sql_peek(p, 0)->text, "("))
        FLOE_TRY(floe__sql_ident_list(p, &st->columns, &st->ncolumns));
    FLOE_TRY(floe__sql_expect(p, "AS"));
    floe_sql_query *q;
    FLOE_TRY(floe__sql_rewrite(p, p->i, p->n, &q));
    p->i = p->n;
    st->query = q;
    return 0;
}

/* CREATE [OR REPLACE] VIEW [IF NOT EXISTS] name [(col [COMMENT '..'], ...)]
 * [COMMENT '..'] [TBLPROPERTIES (..)] AS query: an Iceberg view. */
static int parse_create_iceberg_view(sql_parser *p, floe_sql_stmt *st)
{
    st->kind = FLOE_SQL_CREATE_VIEW;
    size_t at = p->i;
    if (floe__sql_accept(p, "IF")) {
        FLOE_TRY(floe__sql_expect(p, "NOT"));
        FLOE_TRY(floe__sql_expect(p, "EXISTS"));
        st->if_not_exists = true;
    }
    if (st->if_not_exists && st->or_replace) /* Spark's ParseException */
        return floe__sql_err_at(FLOE_EINVALID, p->script, p->t[at].pos,
                                "CREATE VIEW with both IF NOT EXISTS and REPLACE is not allowed.");
    FLOE_TRY(floe__sql_table_name(p, false, &st->target));
    floe_sql_create_table *ct = &st->create;
    if (floe__sql_accept_op(p, "(")) {
        floe_sql_column *cols = NULL;
        size_t n = 0, cap = 0;
        do {
            if (!(cols = floe__sql_grow(p->a, cols, n, &cap, sizeof *cols)))
                return FLOE_ENOMEM;
            memset(&cols[n], 0, sizeof cols[n]);
            FLOE_TRY(floe__sql_ident(p, &cols[n].name));
            if (floe__sql_accept(p, "COMMENT"))
                FLOE_TRY(floe__sql_string(p, &cols[n].comment));
            n++;
        } while (floe__sql_accept_op(p, ","));
        FLOE_TRY(floe__sql_expect_op(p, ")"));
        ct->columns = cols;
        ct->ncolumns = n;
    }
    for (;;) {
        if (floe__sql_accept(p, "COMMENT")) {
            FLOE_TRY(floe__sql_string(p, &st->comment));
        } else if (floe__sql_accept(p, "TBLPROPERTIES")) {
            floe_sql_prop *ps;
            FLOE_TRY(floe__sql_props(p, true, &ps, &st->nprops));
            st->props = ps;
        } else {
            break;
        }
    }
    FLOE_TRY(floe__sql_expect(p, "AS"));
    floe_sql_query *q;
    FLOE_TRY(floe__sql_rewrite(p, p->i, p->n, &q));
    p->i = p->n;
    st->query = q;
    return 0;
}

int floe__sql_parse_create(sql_parser *p, floe_sql_stmt *st)
{
    if (floe__sql_accept(p, "REPLACE")) {
        FLOE_TRY(floe__sql_expect(p, "TABLE"));
        st->or_replace = st->create.or_replace = st->create.replace_only = true;
        return parse_create_table(p, st);
    }
    FLOE_TRY(floe__sql_expect(p, "CREATE"));
    if (floe__sql_accept(p, "OR")) {
        FLOE_TRY(floe__sql_expect(p, "REPLACE"));
        st->or_replace = st->create.or_replace = true;
    }
    if (!st->or_replace && (floe__sql_accept(p, "NAMESPACE") || floe__sql_accept(p, "DATABASE") ||
                            floe__sql_accept(p, "SCHEMA")))
        return parse_create_namespace(p, st);
    if (floe__sql_accept(p, "TABLE"))
        return parse_create_table(p, st);
    floe__sql_accept(p, "GLOBAL");
    if (floe__sql_accept(p, "TEMPORARY") || floe__sql_accept(p, "TEMP")) {
        FLOE_TRY(floe__sql_expect(p, "VIEW"));
        return parse_create_view(p, st);
    }
    if (floe__sql_accept(p, "VIEW"))
        return parse_create_iceberg_view(p, st);
    return floe__sql_err_unsupported(p, "CREATE of this kind");
}

/* ---------------------------------------------------------------- ALTER */

static int time_unit_ms(sql_parser *p, int64_t n, int64_t *out)
{
    int64_t unit;
    if (floe__sql_accept(p, "DAYS") || floe__sql_accept(p, "DAY"))
        unit = 86400000;
    else if (floe__sql_accept(p, "HOURS") || floe__sql_accept(p, "HOUR"))
        unit = 3600000;
    else if (floe__sql_accept(p, "MINUTES") || floe__sql_accept(p, "MINUTE"))
        unit = 60000;
    else
        return floe__sql_err(p, "syntax error: expected DAYS, HOURS or MINUTES");
    if (n < 0 || n > INT64_MAX / unit)
        return floe__sql_err_at(FLOE_EINVALID, p->script, p->t[p->i - 2].pos,
                                "retention out of range");
    *out = n * unit;
    return 0;
}

static int parse_ref_options(sql_parser *p, floe_sql_ref *r)
{
    bool seen_version = false, seen_retain = false, seen_with = false;
    for (;;) {
        if (!seen_version && floe__sql_is_word(floe__sql_peek(p, 0), "AS")) {
            p->i++;
            FLOE_TRY(floe__sql_expect(p, "OF"));
            FLOE_TRY(floe__sql_expect(p, "VERSION"));
            FLOE_TRY(floe__sql_int(p, &r->snapshot_id));
            r->has_snapshot = seen_version = true;
        } else if (!seen_retain && floe__sql_accept(p, "RETAIN")) {
            int64_t n;
            FLOE_TRY(floe__sql_int(p, &n));
            FLOE_TRY(time_unit_ms(p, n, &r->max_ref_age_ms));
            seen_retain = true;
        } else if (!seen_with && floe__sql_is_word(floe__sql_peek(p, 0), "WITH")) {
            if (r->is_tag)
                return floe__sql_err(p, "syntax error: tags have no snapshot retention");
            p->i++;
            FLOE_TRY(floe__sql_expect(p, "SNAPSHOT"));
            FLOE_TRY(floe__sql_expect(p, "RETENTION"));
            int64_t n;
            FLOE_TRY(floe__sql_int(p, &n));
            if (floe__sql_accept(p, "SNAPSHOTS")) {
                if (n < 1 || n > INT32_MAX)
                    return floe__sql_err_at(FLOE_EINVALID, p->script, p->t[p->i - 2].pos,
                                            "min snapshots to keep must be at least 1");
                r->min_snapshots_to_keep = n;
                if (floe__sql_peek(p, 0)->kind == TK_NUMBER) {
                    FLOE_TRY(floe__sql_int(p, &n));
                    FLOE_TRY(time_unit_ms(p, n, &r->max_snapshot_age_ms));
                }
            } else {
                FLOE_TRY(time_unit_ms(p, n, &r->max_snapshot_age_ms));
            }
            seen_with = true;
        } else {
            return 0;
        }
    }
}

static int parse_ref_kind(sql_parser *p, floe_sql_ref *r)
{
    if (floe__sql_accept(p, "BRANCH"))
        r->is_tag = false;
    else if (floe__sql_accept(p, "TAG"))
        r->is_tag = true;
    else
        return floe__sql_err(p, "syntax error: expected BRANCH or TAG");
    return 0;
}

int floe__sql_parse_alter(sql_parser *p, floe_sql_stmt *st)
{
    FLOE_TRY(floe__sql_expect(p, "ALTER"));
    FLOE_TRY(floe__sql_expect(p, "TABLE"));
    FLOE_TRY(floe__sql_table_name(p, false, &st->target));
    floe_sql_ref *r = &st->ref;
    r->max_ref_age_ms = r->min_snapshots_to_keep = r->max_snapshot_age_ms = -1;
    int ev = floe__sql_parse_alter_schema(p, st);
    if (ev <= 0)
        return ev;
    if (floe__sql_accept(p, "SET")) {
        st->kind = FLOE_SQL_SET_PROPS;
        if (!floe__sql_accept(p, "TBLPROPERTIES"))
            return floe__sql_err_unsupported(p, "ALTER TABLE SET of this kind");
        floe_sql_prop *ps;
        FLOE_TRY(floe__sql_props(p, true, &ps, &st->nprops));
        st->props = ps;
        return 0;
    }
    if (floe__sql_accept(p, "UNSET")) {
        st->kind = FLOE_SQL_UNSET_PROPS;
        FLOE_TRY(floe__sql_expect(p, "TBLPROPERTIES"));
        if (floe__sql_accept(p, "IF")) {
            FLOE_TRY(floe__sql_expect(p, "EXISTS"));
            st->if_exists = true;
        }
        floe_sql_prop *ps;
        FLOE_TRY(floe__sql_props(p, false, &ps, &st->nprops));
        st->props = ps;
        return 0;
    }
    if (floe__sql_accept(p, "RENAME")) {
        st->kind = FLOE_SQL_RENAME_TABLE;
        FLOE_TRY(floe__sql_expect(p, "TO"));
        return floe__sql_table_name(p, false, &st->new_name);
    }
    if (floe__sql_accept(p, "DROP")) {
        if (!(floe__sql_is_word(floe__sql_peek(p, 0), "BRANCH") ||
              floe__sql_is_word(floe__sql_peek(p, 0), "TAG")))
            return floe__sql_err_unsupported(p, "ALTER TABLE DROP of this kind");
        st->kind = FLOE_SQL_DROP_REF;
        FLOE_TRY(parse_ref_kind(p, r));
        if (floe__sql_accept(p, "IF")) {
            FLOE_TRY(floe__sql_expect(p, "EXISTS"));
            st->if_exists = true;
        }
        return floe__sql_ident(p, &r->name);
    }
    if (floe__sql_is_word(floe__sql_peek(p, 0), "CREATE") ||
        floe__sql_is_word(floe__sql_peek(p, 0), "REPLACE")) {
        st->kind = FLOE_SQL_CREATE_REF;
        if (floe__sql_accept(p, "REPLACE")) {
            r->op = FLOE_SQLOP_REPLACE;
        } else {
            p->i++;
            r->op = FLOE_SQLOP_CREATE;
            if (floe__sql_accept(p, "OR")) {
                FLOE_TRY(floe__sql_expect(p, "REPLACE"));
                r->op = FLOE_SQLOP_CREATE_OR_REPLACE;
            }
        }
        if (!(floe__sql_is_word(floe__sql_peek(p, 0), "BRANCH") ||
              floe__sql_is_word(floe__sql_peek(p, 0), "TAG")))
            return floe__sql_err_unsupported(p, "ALTER TABLE CREATE of this kind");
        FLOE_TRY(parse_ref_kind(p, r));
        if (r->op != FLOE_SQLOP_CREATE && floe__sql_is_word(floe__sql_peek(p, 0), "IF") &&
            floe__sql_is_word(floe__sql_peek(p, 1), "NOT"))
            return floe__sql_err(p, "syntax error: IF NOT EXISTS is allowed only with CREATE");
        if (r->op == FLOE_SQLOP_CREATE && floe__sql_accept(p, "IF")) {
            FLOE_TRY(floe__sql_expect(p, "NOT"));
            FLOE_TRY(floe__sql_expect(p, "EXISTS"));
            r->if_not_exists = st->if_not_exists = true;
        }
        FLOE_TRY(floe__sql_ident(p, &r->name));
        return parse_ref_options(p, r);
    }
    return floe__sql_err_unsupported(p, "ALTER TABLE of this kind");
}
