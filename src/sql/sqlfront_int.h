/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internals shared by the sql front end's files (lex.c, parse*.c,
 * rewrite.c): tokens, the per-statement parser state and helpers.
 */
#ifndef FLOE_SQL_SQLFRONT_INT_H
#define FLOE_SQL_SQLFRONT_INT_H

#include "floe/catalog.h" /* FLOE_CATALOG_DEFAULT_NAME */
#include "sql/sqlfront.h"

typedef enum sql_tok_kind {
    TK_EOF = 0,
    TK_WORD,   /* unquoted identifier or keyword */
    TK_QIDENT, /* `..` or ".." identifier: text is the unquoted name */
    TK_STRING, /* '..': text is the unescaped value */
    TK_NUMBER, /* text is the number as written (an L suffix removed) */
    TK_BLOB,   /* X'..': text is the hex digits */
    TK_OP,     /* punctuation: text is the operator */
} sql_tok_kind;

typedef struct sql_tok {
    sql_tok_kind kind;
    const char *text; /* NUL-terminated, arena */
    size_t len;       /* strlen(text) */
    size_t pos;       /* byte offset of the first character in the script */
    size_t end;       /* byte offset just past the token */
} sql_tok;

/* Parser state for one statement. */
typedef struct sql_parser {
    floe_arena *a;
    const char *script; /* whole script (for error positions) */
    const floe_sql_options *opt;
    sql_tok *t;
    size_t n;            /* tokens, t[n] is TK_EOF */
    size_t i;            /* cursor */
    floe_sql_tref *refs; /* arena array */
    size_t nrefs, caprefs;
    int depth; /* recursion guard */
} sql_parser;

#define SQL_MAX_SCRIPT ((size_t)64 << 20)
#define SQL_MAX_DEPTH 200

/* lex.c */
/* Tokenize one statement starting at script+start: stops after the first ';'
 * outside strings/comments (not included in the tokens) or at the end.
 * *next is where the next statement starts. */
int floe__sql_lex_stmt(floe_arena *a, const char *script, size_t start, sql_tok **toks,
                       size_t *ntoks, size_t *next);
/* Raise a syntax error at byte offset pos. */
int floe__sql_err_at(int code, const char *script, size_t pos, const char *fmt, ...)
    FLOE_PRINTF(4, 5);
bool floe__sql_ieq(const char *a, const char *b);

/* Grow an arena array to hold at least n+1 items (copying); NULL on OOM. */
void *floe__sql_grow(floe_arena *a, void *items, size_t n, size_t *cap, size_t item_size);

/* parse helpers (parse.c) */
int floe__sql_err(sql_parser *p, const char *fmt, ...) FLOE_PRINTF(2, 3);
int floe__sql_err_unsupported(sql_parser *p, const char *what);
sql_tok *floe__sql_peek(sql_parser *p, size_t ahead);
bool floe__sql_is_word(const sql_tok *t, const char *kw);
bool floe__sql_accept(sql_parser *p, const char *kw);
int floe__sql_expect(sql_parser *p, const char *kw);
bool floe__sql_accept_op(sql_parser *p, const char *op);
int floe__sql_expect_op(sql_parser *p, const char *op);
int floe__sql_ident(sql_parser *p, const char **out);
/* `( ident [, ident]... )` into an arena array. */
int floe__sql_ident_list(sql_parser *p, const char *const **out, size_t *n);
int floe__sql_int(sql_parser *p, int64_t *out);
int floe__sql_string(sql_parser *p, const char **out);
int floe__sql_literal(sql_parser *p, floe_sql_value *out);

/* Date/timestamp literal normalisation (rewrite.c). */
int floe__sql_norm_date(floe_arena *a, const char *s, const char **out);
int floe__sql_norm_timestamp(floe_arena *a, const char *s, const char **out, bool *utc);

/* rewrite.c */
/* Resolve a multi-part name (parts as written) into a floe_sql_name. */
/* The catalog (options' spelling) that leading name part `part` names,
 * else NULL. */
const char *floe__sql_catalog_named(const sql_parser *p, const char *part);
int floe__sql_resolve(sql_parser *p, const char *const *parts, size_t nparts, size_t pos,
                      bool allow_suffix, floe_sql_name *out);
/* Parse a dotted identifier at the cursor into parts. */
int floe__sql_parts(sql_parser *p, const char ***parts, size_t *nparts);
/* Parse and resolve a table name at the cursor (no time travel). */
int floe__sql_table_name(sql_parser *p, bool allow_suffix, floe_sql_name *out);
/* Rewrite tokens [from, to) as SQLite text (query or expression). */
int floe__sql_rewrite(sql_parser *p, size_t from, size_t to, floe_sql_query **out);
/* Index of the token ending a fragment that starts at `from`: the first
 * token at paren depth 0 (outside CASE..END) that is one of the words in
 * stop[] (NULL-ended; stop may be NULL), or a ',' when stop_comma, or the
 * ')' closing an enclosing group, or the statement end (p->n). */
size_t floe__sql_scan_until(sql_parser *p, size_t from, const char *const *stop, bool stop_comma);
/* Add a reference; returns its SQLite name. */
int floe__sql_add_ref(sql_parser *p, const floe_sql_tref *ref, const char **sqlite_name);

/* parse_ddl.c */
int floe__sql_parse_create(sql_parser *p, floe_sql_stmt *st);
int floe__sql_parse_alter(sql_parser *p, floe_sql_stmt *st);
int floe__sql_props(sql_parser *p, bool with_values, floe_sql_prop **out, size_t *n);
/* A column type at the cursor (primitive or ARRAY/MAP/STRUCT tree). */
int floe__sql_column_type(sql_parser *p, floe_sql_column *col);
/* A partition transform term: col, years(col), bucket(N, col), ... */
int floe__sql_partition_term(sql_parser *p, floe_sql_partition_field *f);

/* parse_alter.c: ALTER TABLE <t> evolution DDL after the table name; 1
 * when the statement is not one of them (cursor unchanged). */
int floe__sql_parse_alter_schema(sql_parser *p, floe_sql_stmt *st);

/* parse_dml.c */
int floe__sql_parse_insert(sql_parser *p, floe_sql_stmt *st);
int floe__sql_parse_delete(sql_parser *p, floe_sql_stmt *st);
int floe__sql_parse_update(sql_parser *p, floe_sql_stmt *st);
int floe__sql_parse_merge(sql_parser *p, floe_sql_stmt *st);
int floe__sql_parse_call(sql_parser *p, floe_sql_stmt *st);

/* ---------------------------------------------------------------- rewriter internals */

/* Output items: 'w' identifier/word, 'f' function name, '(' ')' '.' ','
 * punctuation, 'x' a closed expression, 'o' anything else. */
typedef struct sql_out_item {
    const char *s;
    char k;
} sql_out_item;

typedef struct sql_rw {
    sql_parser *p;
    size_t to;
    sql_out_item *o;
    size_t n, cap;
    const char **ctes;
    size_t nctes, capctes;
} sql_rw;

bool floe__sql_tok_op(const sql_tok *t, const char *op);
bool floe__sql_all_digits(const char *s);
/* Token i of the fragment (EOF past its end). */
sql_tok *floe__sql_rw_tok(sql_rw *r, size_t i);
int floe__sql_rw_err(sql_rw *r, size_t i, int code, const char *msg);
/* Append an output item of kind k (NULL s: out of memory). */
int floe__sql_rw_emit(sql_rw *r, const char *s, char k);
/* A SQLite-quoted identifier or string literal, in arena a. */
const char *floe__sql_quoted(floe_arena *a, const char *s, bool ident);
/* Rewrite tokens [from, to) into a separate string sharing r's context. */
int floe__sql_rw_sub(sql_rw *r, size_t from, size_t to, char **out);
/* The ')' matching the '(' at open, or (size_t)-1. */
size_t floe__sql_rw_match_paren(sql_rw *r, size_t open);
/* rewrite_expr.c: each handles the construct at *pi and advances it;
 * struct_chain and function return 1 when they handled it, 0 when not. */
int floe__sql_rw_struct_chain(sql_rw *r, size_t *pi);
int floe__sql_rw_subscript(sql_rw *r, size_t *pi);
/* [NOT] LIKE / ILIKE [ANY | ALL] pattern(s) at *pi (the LIKE word). */
int floe__sql_rw_like(sql_rw *r, size_t *pi);
/* range(...) in a FROM position at *pi: a subquery with column id. */
int floe__sql_rw_range(sql_rw *r, size_t *pi);
int floe__sql_rw_function(sql_rw *r, size_t *pi);

#endif
