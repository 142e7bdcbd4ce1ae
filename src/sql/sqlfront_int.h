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
    char suffix;      /* TK_NUMBER: Spark's type suffix 'L', 'S', 'Y', 'D', 'F', 'B' (BD) or 0 */
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
/* Spark's ParseException text for a syntax error at byte offset pos:
 * "[PARSE_SYNTAX_ERROR] Syntax error at or near 'near'.(line L, pos P)"
 * (P counts from 0; near NULL: "end of input"). FLOE_EINVALID. */
int floe__sql_err_spark(const char *script, size_t pos, const char *near);
bool floe__sql_ieq(const char *a, const char *b);

/* Grow an arena array to hold at least n+1 items (copying); NULL on OOM. */
void *floe__sql_grow(floe_arena *a, void *items, size_t n, size_t *cap, size_t item_size);

/* parse helpers (parse.c) */
int floe__sql_err(sql_parser *p, const char *fmt, ...) FLOE_PRINTF(2, 3);
int floe__sql_err_unsupported(sql_parser *p, const char *what);
sql_tok *floe__sql_peek(sql_parser *p, size_t ahead);

#ifdef __clang_analyzer__
/* For clang's static analyzer only, as util.h's floe__error: the raised
 * code is the result (the definitions spell their names in parentheses). */
#define floe__sql_err_at(code, ...) (floe__sql_err_at((code), __VA_ARGS__), (code))
#define floe__sql_err_spark(...) (floe__sql_err_spark(__VA_ARGS__), FLOE_EINVALID)
#define floe__sql_err(...) (floe__sql_err(__VA_ARGS__), FLOE_EINVALID)
#define floe__sql_err_unsupported(...) (floe__sql_err_unsupported(__VA_ARGS__), FLOE_EUNSUPPORTED)
#endif
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
/* The literal after a column's DEFAULT keyword: sets c->has_default. */
int floe__sql_default(sql_parser *p, floe_sql_column *c);

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
/* Rewrite tokens [from, to) as SQLite text (query or expression) through
 * the syntax tree (ast.h). A fragment starting with '(' is an expression
 * when it parses as one ("(SELECT max(a) FROM t)"), for _query a query
 * ("(SELECT 1) UNION ..."), else the other kind. */
int floe__sql_rewrite(sql_parser *p, size_t from, size_t to, floe_sql_query **out);
int floe__sql_rewrite_query(sql_parser *p, size_t from, size_t to, floe_sql_query **out);
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

bool floe__sql_tok_op(const sql_tok *t, const char *op);
bool floe__sql_all_digits(const char *s);

#endif
