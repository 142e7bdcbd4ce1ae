/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Nested column types in CREATE TABLE (ARRAY<t>, MAP<k, v>, STRUCT<name[:]
 * type [NOT NULL] [COMMENT '...'], ...>): the parsed Iceberg type tree
 * (field ids 0, list elements and map values optional, map keys required),
 * '>>' closing two levels, the type as written, and errors with positions.
 */
#include "dump.h"
#include "spec/types.h"

#include <string.h>

/* A compact form of a type tree: list<e?>, map<k,v?>, struct<n:t!,...>
 * where '!' marks a required field and '?' an optional element/value. */
static void tree(floe_buf *b, const floe_type *t)
{
    switch (t->id) {
    case FLOE_T_LIST:
        floe__buf_puts(b, "list<");
        tree(b, t->element->type);
        floe__buf_printf(b, "%s%s>", t->element->required ? "!" : "?", t->element->id ? "#" : "");
        break;
    case FLOE_T_MAP:
        floe__buf_puts(b, "map<");
        tree(b, t->key->type);
        floe__buf_puts(b, t->key->required ? "!," : "?,");
        tree(b, t->value->type);
        floe__buf_puts(b, t->value->required ? "!>" : "?>");
        break;
    case FLOE_T_STRUCT:
        floe__buf_puts(b, "struct<");
        for (size_t i = 0; i < t->nfields; i++) {
            floe__buf_printf(b, "%s%s:", i ? "," : "", t->fields[i].name);
            tree(b, t->fields[i].type);
            if (t->fields[i].required)
                floe__buf_putc(b, '!');
            if (t->fields[i].doc)
                floe__buf_printf(b, "'%s'", t->fields[i].doc);
            if (t->fields[i].id)
                floe__buf_putc(b, '#');
        }
        floe__buf_putc(b, '>');
        break;
    case FLOE_T_DECIMAL: floe__buf_printf(b, "decimal(%d,%d)", t->precision, t->scale); break;
    case FLOE_T_LONG: floe__buf_puts(b, "long"); break;
    case FLOE_T_INT: floe__buf_puts(b, "int"); break;
    case FLOE_T_STRING: floe__buf_puts(b, "string"); break;
    case FLOE_T_DOUBLE: floe__buf_puts(b, "double"); break;
    case FLOE_T_TIMESTAMPTZ: floe__buf_puts(b, "timestamptz"); break;
    case FLOE_T_DATE: floe__buf_puts(b, "date"); break;
    default: floe__buf_printf(b, "type%d", (int)t->id); break;
    }
}

/* Parse `sql` (a CREATE TABLE) and describe column k as
 * "<type> | <sql_type>" (tree or the primitive's Iceberg type). */
static char *column(const char *sql, size_t k)
{
    floe_arena *a = floe__arena_new(0);
    floe_sql_stmt *st = NULL;
    char *res = NULL;
    if (floe__sql_parse(a, sql, NULL, &st, NULL) == 0 && st && k < st->create.ncolumns) {
        const floe_sql_column *c = &st->create.columns[k];
        floe_buf b = FLOE_BUF_INIT;
        if (c->nested) {
            tree(&b, c->nested);
            floe__buf_printf(&b, " %s", c->type);
        } else {
            floe__buf_puts(&b, c->type);
        }
        floe__buf_printf(&b, " | %s", c->sql_type);
        res = strdup(b.ptr);
        floe__buf_free(&b);
    }
    floe__arena_free(a);
    return res;
}

#define EXPECT_COL(sql, k, expected)                                                               \
    do {                                                                                           \
        char *c__ = column((sql), (k));                                                            \
        if (!c__)                                                                                  \
            ft_fail(__FILE__, __LINE__, "parse failed: %s (%s)", (sql), ft_floe_err());            \
        else if (strcmp(c__, (expected)) != 0)                                                     \
            ft_fail(__FILE__, __LINE__, "for %s\n got: %s\n expected: %s", (sql), c__,             \
                    (expected));                                                                   \
        free(c__);                                                                                 \
    } while (0)

static void test_trees(void)
{
    const char *sql = "CREATE TABLE t (id BIGINT, tags ARRAY<STRING>, attrs MAP<STRING, INT>, "
                      "addr STRUCT<street: STRING, zip: INT NOT NULL COMMENT 'c'>, "
                      "nested ARRAY<STRUCT<a: INT, b: MAP<STRING, ARRAY<DOUBLE>>>>)";
    EXPECT_COL(sql, 0, "long | BIGINT");
    EXPECT_COL(sql, 1, "list<string?> list | ARRAY<STRING>");
    EXPECT_COL(sql, 2, "map<string!,int?> map | MAP<STRING, INT>");
    EXPECT_COL(sql, 3,
               "struct<street:string,zip:int!'c'> struct | "
               "STRUCT<street: STRING, zip: INT NOT NULL COMMENT 'c'>");
    EXPECT_COL(sql, 4,
               "list<struct<a:int,b:map<string!,list<double?>?>>?> list | "
               "ARRAY<STRUCT<a: INT, b: MAP<STRING, ARRAY<DOUBLE>>>>");
    /* Spark's other struct spelling, quoted names, primitives with arguments,
     * lower case, '>>' and '>>' '>' endings */
    EXPECT_COL("CREATE TABLE t (s struct<`x y` decimal(10, 2), ts timestamp NULL>)", 0,
               "struct<x y:decimal(10,2),ts:timestamptz> struct | "
               "struct<`x y` decimal(10, 2), ts timestamp NULL>");
    EXPECT_COL("CREATE TABLE t (a ARRAY<ARRAY<ARRAY<INT>>>, b INT)", 0,
               "list<list<list<int?>?>?> list | ARRAY<ARRAY<ARRAY<INT>>>");
    EXPECT_COL("CREATE TABLE t (a ARRAY<ARRAY<ARRAY<INT>>>, b INT)", 1, "int | INT");
    EXPECT_COL("CREATE TABLE t (m MAP<DATE, ARRAY<VARCHAR(3)>> NOT NULL)", 0,
               "map<date!,list<string?>?> map | MAP<DATE, ARRAY<VARCHAR(3)>>");
}

static void test_errors(void)
{
    EXPECT_ERROR("CREATE TABLE t (a ARRAY<>)", FLOE_EINVALID, 24, "expected a column type");
    EXPECT_ERROR("CREATE TABLE t (a MAP<>)", FLOE_EINVALID, 22, "expected a column type");
    EXPECT_ERROR("CREATE TABLE t (a STRUCT<>)", FLOE_EINVALID, 25, "expected a struct field name");
    EXPECT_ERROR("CREATE TABLE t (a MAP<STRING>)", FLOE_EINVALID, 28, "expected ','");
    EXPECT_ERROR("CREATE TABLE t (a ARRAY<INT)", FLOE_EINVALID, 27, "expected '>'");
    EXPECT_ERROR("CREATE TABLE t (a ARRAY<INT, INT>)", FLOE_EINVALID, 27, "expected '>'");
    EXPECT_ERROR("CREATE TABLE t (a ARRAY<FOO>)", FLOE_EUNSUPPORTED, 24,
                 "unsupported column type FOO");
    EXPECT_ERROR("CREATE TABLE t (a MAP<STRING, ARRAY<BAR>>)", FLOE_EUNSUPPORTED, 36,
                 "unsupported column type BAR");
    EXPECT_ERROR("CREATE TABLE t (a STRUCT<x INT, x STRING>)", FLOE_EINVALID, 32,
                 "duplicate struct field name x");
    EXPECT_ERROR("CREATE TABLE t (a STRUCT<x: INT DEFAULT 1>)", FLOE_EINVALID, 32, "expected '>'");
    EXPECT_ERROR("CREATE TABLE t (a STRUCT<1: INT>)", FLOE_EINVALID, 25,
                 "expected a struct field name");
    EXPECT_ERROR("CREATE TABLE t (a LIST<INT>)", FLOE_EUNSUPPORTED, 18, "LIST<...>");
    EXPECT_ERROR("CREATE TABLE t (a ARRAY<DECIMAL(40,1)>)", FLOE_EUNSUPPORTED, 24, "DECIMAL(40,1)");
    /* depth limit: 70 levels of ARRAY< */
    floe_buf b = FLOE_BUF_INIT;
    floe__buf_puts(&b, "CREATE TABLE t (a ");
    for (int i = 0; i < 70; i++)
        floe__buf_puts(&b, "ARRAY<");
    floe__buf_puts(&b, "INT");
    for (int i = 0; i < 70; i++)
        floe__buf_puts(&b, ">");
    floe__buf_puts(&b, ")");
    EXPECT_ERROR(b.ptr, FLOE_EINVALID, 18 + 64 * 6, "nested too deeply");
    floe__buf_free(&b);
}

static void test_oom(void)
{
    const char *sql = "CREATE TABLE t (n ARRAY<STRUCT<a: INT, b: MAP<STRING, ARRAY<DOUBLE>>>>)";
    for (int n = 1;; n++) {
        floe_arena *a = floe__arena_new(0);
        floe__alloc_fail_at(n);
        floe_sql_stmt *st = NULL;
        int rc = a ? floe__sql_parse(a, sql, NULL, &st, NULL) : FLOE_ENOMEM;
        floe__alloc_fail_at(0);
        floe__arena_free(a);
        if (rc == 0)
            break;
        FT_EQ_INT(rc, FLOE_ENOMEM);
        if (n > 10000)
            break;
    }
}

static const ft_case cases[] = {
    {"trees", test_trees},
    {"errors", test_errors},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
