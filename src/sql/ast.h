/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The syntax tree of a Spark 3.5 query or expression (parser.c builds it,
 * print.c prints it as SQLite SQL). Every node carries the byte span of
 * its source text in the script, so errors and generated column names
 * point at what the user wrote. Table references are resolved while
 * parsing (floe__sql_resolve, the statement's refs): a SN_TABLE node holds
 * the SQLite name the executor creates for it. Nodes live in the parser's
 * arena.
 */
#ifndef FLOE_SQL_AST_H
#define FLOE_SQL_AST_H

#include "spec/types.h"
#include "sql/sqlfront_int.h"

typedef enum sql_nk {
    /* queries */
    SN_SELECT = 1, /* v items, a from, b where, w group by, c having, x windows; f DISTINCT */
    SN_SETOP,      /* s "UNION"/"EXCEPT"/"INTERSECT", f SNF_ALL, a, b */
    SN_WITH,       /* v ctes (SN_CTE), a body; f SNF_RECURSIVE */
    SN_CTE,        /* s name, names columns, a query */
    SN_ORDER,      /* a query, v sort items, b limit, c offset */
    SN_VALUES,     /* v rows (SN_ROW) */
    SN_ITEM,       /* a expr, alias (NULL: none), names AS (a, b, ...) of a generator */
    SN_STAR,       /* names qualifier parts (may be 0) */
    SN_SORT,       /* a expr; f SNF_DESC, SNF_NULLS_FIRST, SNF_NULLS_LAST */
    SN_WINDEF,     /* s name, a spec (named WINDOW) */
    /* relations */
    SN_TABLE,  /* s SQLite name (resolved ref, CTE or local name), alias, names column aliases */
    SN_SUBREL, /* a query, alias, names column aliases */
    SN_JOIN,  /* s type ("JOIN", "LEFT JOIN", ...), f SNF_SEMI/ANTI/NATURAL, a, b, c ON, names USING
               */
    SN_RANGE, /* range(...) table function: v args, alias */
    SN_FUNCREL, /* a SQLite table-valued function: s name, v args, alias */
    SN_LATERAL, /* LATERAL VIEW [OUTER] (the b of a SN_JOIN of s "LATERAL VIEW"): a generator
                 * call, alias table name, names column names; f SNF_OUTER */
    /* expressions */
    SN_LIT,  /* tok (NUMBER, STRING, BLOB, WORD NULL/TRUE/FALSE); s: printed text when set */
    SN_COL,  /* names parts (tokens: qtok says which were quoted) */
    SN_FUNC, /* s name, v args, f SNF_DISTINCT | SNF_STARARG, a window (SN_WINSPEC), b filter */
    SN_BIN,  /* s operator (Spark's spelling, upper-case words), a, b */
    SN_UN,   /* s "-", "+", "~", "NOT", a */
    SN_CASE, /* a operand (NULL), v WHEN/THEN pairs, b ELSE */
    SN_CAST, /* a expr, s type word (lower-case), i1/i2 parameters (-1 none); f SNF_TRY,
              * SNF_NESTED (ARRAY/MAP/STRUCT type) */
    SN_LIKE, /* a expr, v patterns, b ESCAPE; f SNF_NOT, SNF_ILIKE, SNF_RLIKE, SNF_ANY, SNF_ALL */
    SN_IN,   /* a expr, v list or b subquery; f SNF_NOT */
    SN_BETWEEN,   /* a, b, c; f SNF_NOT */
    SN_IS,        /* a, s "NULL"/"TRUE"/"FALSE"/"DISTINCT", b (DISTINCT FROM); f SNF_NOT */
    SN_EXISTS,    /* a query */
    SN_SUBQ,      /* a query (scalar subquery) */
    SN_SUBSCRIPT, /* a base, b index */
    SN_FIELD,     /* a base, s field (a field of a non-column expression) */
    SN_PAREN,     /* a */
    SN_ROW,       /* v (a tuple, or a VALUES row) */
    SN_WINSPEC,   /* s base window name, v partition by, w order by, frame (text, NULL) */
    SN_TIMELIT,   /* DATE/TIMESTAMP literal: s normalised value (printed as a string) */
    SN_INTERVAL,  /* INTERVAL literal: i1 months, i2 microseconds; f SNF_IV_YM, SNF_IV_SUBDAY */
    SN_LAMBDA,    /* x -> a, (x, y) -> a: names the parameters, a the body */
} sql_nk;

enum {
    SNF_ALL = 1 << 0,
    SNF_DISTINCT = 1 << 1,
    SNF_RECURSIVE = 1 << 2,
    SNF_DESC = 1 << 3,
    SNF_NULLS_FIRST = 1 << 4,
    SNF_NULLS_LAST = 1 << 5,
    SNF_SEMI = 1 << 6,
    SNF_ANTI = 1 << 7,
    SNF_NATURAL = 1 << 8,
    SNF_STARARG = 1 << 9,
    SNF_TRY = 1 << 10,
    SNF_NESTED = 1 << 11,
    SNF_NOT = 1 << 12,
    SNF_ILIKE = 1 << 13,
    SNF_RLIKE = 1 << 14,
    SNF_ANY = 1 << 15,
    SNF_LIKEALL = 1 << 16,
    SNF_DATE = 1 << 17,
    SNF_DECIMAL_BD = 1 << 18, /* 1.5BD literal */
    SNF_NEG = 1 << 19,        /* a literal with its unary minus folded in */
    SNF_IV_YM = 1 << 20,      /* a year-month interval (YEAR, MONTH) */
    SNF_IV_SUBDAY = 1 << 21,  /* a day-time interval with HOUR or a finer field */
    SNF_OUTER = 1 << 22,      /* LATERAL VIEW OUTER */
};

/* The Spark type of an expression, as the binder (bind.c) infers it:
 * ST_NONE when unknown (printed as before). p/s: a decimal's precision and
 * scale. */
typedef enum sql_tk {
    ST_NONE = 0,
    ST_NULL, /* an untyped NULL (Spark's void) */
    ST_BOOLEAN,
    ST_TINYINT,
    ST_SMALLINT,
    ST_INT,
    ST_BIGINT,
    ST_FLOAT,
    ST_DOUBLE,
    ST_DECIMAL,
    ST_STRING,
    ST_BINARY,
    ST_DATE,
    ST_TIMESTAMP,
    ST_TIMESTAMP_NTZ,
    ST_NESTED, /* an array, map or struct: nt is its Spark type text */
} sql_tk;

typedef struct sql_type {
    unsigned char kind; /* sql_tk */
    unsigned char p;
    short s;            /* may be negative */
    unsigned char cell; /* a table column's cell (vtab.c gives decimals their scale) */
    /* ST_NESTED: Spark's type text ("array<int>", "map<string,int>",
     * "struct<x:int,y:string>"; a part the binder cannot tell is "?"), in
     * the parser's arena */
    const char *nt;
} sql_type;

typedef struct sql_node sql_node;
struct sql_node {
    sql_nk k;
    int f;
    size_t pos, end; /* byte span in the script */
    const char *s;
    const char *alias;
    const sql_tok *tok;
    sql_node *a, *b, *c;
    sql_node **v, **w, **x;
    size_t nv, nw, nx;
    const char **names;
    const bool *qnames; /* per name: it was a quoted identifier */
    size_t nnames;
    const char *frame;
    int64_t i1, i2;
    sql_type t; /* set by floe__sql_bind */
};

/* Parse tokens [from, to) of p as a query (as_query) or an expression into
 * *out; table references are resolved and added to p's refs. Errors:
 * FLOE_EINVALID / FLOE_EUNSUPPORTED with the position, FLOE_ENOMEM. */
int floe__sql_parse_tree(sql_parser *p, size_t from, size_t to, bool as_query, sql_node **out);

/* bind.c: annotate every expression of tree n with its Spark type (n->t):
 * literals by Spark's rules, columns from the statement's tables
 * (floe_sql_options.column_type) and from subqueries and CTEs, casts,
 * arithmetic by Spark's DecimalPrecision rules, functions of known result
 * type. What it cannot tell stays ST_NONE. Never fails. */
void floe__sql_bind(sql_parser *p, sql_node *n);

/* Spark's name of a type ("int", "decimal(10,2)"); NULL for ST_NONE. */
const char *floe__sql_type_name(sql_parser *p, sql_type t);

/* The Spark type text of output column c of query q (ST_NESTED columns of
 * its outermost select list), else NULL. */
const char *floe__sql_tree_nested_type(const sql_node *q, size_t c);
/* The scale of result column c when the binder typed it a decimal, else -1:
 * how a decimal value that lost its scale subtype (SQLite's GROUP BY copies
 * drop subtypes) still prints as Spark's decimal(p, s). */
int floe__sql_tree_decimal_scale(const sql_node *q, size_t c);

/* One past the end of the Spark type text that starts at t (inside
 * "map<k,v>" the key ends at the ','). */
const char *floe__sql_type_text_end(const char *t);

/* Print a tree as SQLite text (in p's arena). */
int floe__sql_print_tree(sql_parser *p, const sql_node *n, char **out);

/* Bit c: output column c of the query's outermost select list is boolean. */
uint64_t floe__sql_tree_bool_columns(const sql_node *q);

/* cond.c: the floe_expr printer. Where a DELETE/UPDATE condition's
 * columns resolve: the target's current schema, the qualifier that may
 * prefix them (the target's alias, else its table name) and the session
 * time zone (NULL: UTC) in which timestamp literals are read. */
struct floe_expr;
struct floe_tz;
typedef struct sql_cond_scope {
    const floe_schema *schema;
    const char *qualifier;
    const struct floe_tz *tz;
} sql_cond_scope;

/* The condition `cond` (NULL: none, every row) as an unbound floe
 * expression in `a` that holds on every row where the condition is TRUE
 * with Spark's semantics (three-valued logic, implicit casts, NaN
 * ordering); *exact says whether it holds on those rows only. Parts the
 * expression cannot state (functions, subqueries, arithmetic, inexact
 * literals...) become `true`, so an inexact result is still a sound
 * pruning filter and the condition itself is evaluated by SQLite.
 * Errors: FLOE_ENOMEM. */
int floe__sql_cond_expr(const struct floe_expr **out, bool *exact, floe_arena *a,
                        const sql_node *cond, const sql_cond_scope *sc);

#endif
