/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan/filter: the textual filter form of the public scan API
 * (include/floe/scan.h documents the grammar) parsed into an unbound floe
 * expression; binding to the schema (src/expr) then resolves names and
 * converts literals to the column types. Recursive descent with a depth
 * limit; errors name the byte offset.
 */
#include "scan/scan.h"

#include "spec/spec.h"
#include "spec/value.h"
#include "expr/expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct fp {
    const char *s;
    size_t at;
    floe_arena *a;
    const floe_schema *schema;
    int depth;
} fp;

static int perr(fp *p, const char *what)
{
    return floe__error(FLOE_EINVALID, "scan", "filter syntax error at offset %zu: %s", p->at,
                       what);
}

static void ws(fp *p)
{
    while (isspace((unsigned char)p->s[p->at]))
        p->at++;
}

/* Keyword match (case-insensitive, whole word). */
static bool kw(fp *p, const char *k)
{
    ws(p);
    size_t n = strlen(k);
    if (strncasecmp(p->s + p->at, k, n) != 0)
        return false;
    char c = p->s[p->at + n];
    if (isalnum((unsigned char)c) || c == '_')
        return false;
    p->at += n;
    return true;
}

static bool sym(fp *p, const char *k)
{
    ws(p);
    size_t n = strlen(k);
    if (strncmp(p->s + p->at, k, n) != 0)
        return false;
    p->at += n;
    return true;
}

static int ident(fp *p, char **out)
{
    ws(p);
    const char *s = p->s;
    size_t i = p->at;
    floe_buf b = FLOE_BUF_INIT;
    int rc = 0;
    for (;;) {
        if (s[i] == '"' || s[i] == '`') {
            char q = s[i++];
            for (;;) {
                if (!s[i]) {
                    floe__buf_free(&b);
                    p->at = i;
                    return perr(p, "unterminated quoted name");
                }
                if (s[i] == q) {
                    if (s[i + 1] == q) {
                        rc = floe__buf_putc(&b, q);
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                rc = floe__buf_putc(&b, s[i++]);
                if (rc < 0)
                    break;
            }
        } else if (isalpha((unsigned char)s[i]) || s[i] == '_') {
            size_t st = i;
            while (isalnum((unsigned char)s[i]) || s[i] == '_')
                i++;
            rc = floe__buf_put(&b, s + st, i - st);
        } else {
            floe__buf_free(&b);
            return perr(p, "expected a column name");
        }
        if (rc < 0)
            break;
        if (s[i] == '.' && (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '_' || s[i + 1] == '"' ||
                            s[i + 1] == '`')) {
            rc = floe__buf_putc(&b, '.');
            i++;
            continue;
        }
        break;
    }
    if (rc < 0) {
        floe__buf_free(&b);
        return rc;
    }
    *out = floe__arena_strdup(p->a, b.ptr ? b.ptr : "");
    floe__buf_free(&b);
    p->at = i;
    return *out ? 0 : floe__error_nomem();
}

static bool column_is_decimal(fp *p, const char *name)
{
    if (!p->schema)
        return false;
    const floe_field *f = floe__schema_field_by_name(p->schema, name);
    if (!f) {
        const floe_type *root = p->schema->root;
        for (size_t i = 0; i < root->nfields; i++)
            if (!strcasecmp(root->fields[i].name, name))
                f = &root->fields[i];
    }
    return f && f->type->id == FLOE_T_DECIMAL;
}

static int literal(fp *p, const char *col, floe_value *out)
{
    ws(p);
    const char *s = p->s;
    size_t i = p->at;
    if (s[i] == '\'') {
        floe_buf b = FLOE_BUF_INIT;
        i++;
        int rc = 0;
        for (;;) {
            if (!s[i]) {
                floe__buf_free(&b);
                p->at = i;
                return perr(p, "unterminated string literal");
            }
            if (s[i] == '\'') {
                if (s[i + 1] == '\'') {
                    rc = floe__buf_putc(&b, '\'');
                    i += 2;
                    if (rc < 0)
                        break;
                    continue;
                }
                i++;
                break;
            }
            if ((rc = floe__buf_putc(&b, s[i++])) < 0)
                break;
        }
        if (rc < 0) {
            floe__buf_free(&b);
            return rc;
        }
        size_t len = b.len;
        char *copy = floe__arena_memdup(p->a, b.ptr ? b.ptr : "", len + 1);
        floe__buf_free(&b);
        if (!copy)
            return floe__error_nomem();
        *out = floe_value_bytes(FLOE_T_STRING, copy, len);
        p->at = i;
        return 0;
    }
    if (kw(p, "true")) {
        *out = floe_value_bool(true);
        return 0;
    }
    if (kw(p, "false")) {
        *out = floe_value_bool(false);
        return 0;
    }
    size_t st = i;
    if (s[i] == '-' || s[i] == '+')
        i++;
    if (!isdigit((unsigned char)s[i]) && !(s[i] == '.' && isdigit((unsigned char)s[i + 1])))
        return perr(p, "expected a literal");
    bool frac = false;
    while (isdigit((unsigned char)s[i]) || s[i] == '.' || s[i] == 'e' || s[i] == 'E' ||
           ((s[i] == '-' || s[i] == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E'))) {
        if (!isdigit((unsigned char)s[i]))
            frac = true;
        i++;
    }
    char *text = floe__arena_strndup(p->a, s + st, i - st);
    if (!text)
        return floe__error_nomem();
    p->at = i;
    if (frac && column_is_decimal(p, col)) {
        /* exact: the binder parses decimal text for decimal columns */
        *out = floe_value_bytes(FLOE_T_STRING, text, strlen(text));
        return 0;
    }
    char *end;
    errno = 0;
    if (!frac) {
        long long v = strtoll(text, &end, 10);
        if (*end || errno)
            return perr(p, "bad integer literal");
        *out = floe_value_long((int64_t)v);
        return 0;
    }
    double d = strtod(text, &end);
    if (*end || errno)
        return perr(p, "bad number literal");
    *out = floe_value_double(d);
    return 0;
}

static int expr_or(fp *p, const floe_expr **out);

static int predicate(fp *p, const floe_expr **out)
{
    char *col;
    FLOE_TRY(ident(p, &col));
    const floe_expr *e = NULL;
    if (kw(p, "is")) {
        bool neg = kw(p, "not");
        if (kw(p, "null"))
            e = floe_expr_unary(p->a, neg ? FLOE_OP_NOT_NULL : FLOE_OP_IS_NULL, col);
        else if (kw(p, "nan"))
            e = floe_expr_unary(p->a, neg ? FLOE_OP_NOT_NAN : FLOE_OP_IS_NAN, col);
        else
            return perr(p, "expected NULL or NAN after IS");
    } else {
        bool neg = false;
        size_t save = p->at;
        if (kw(p, "not"))
            neg = true;
        if (kw(p, "in")) {
            if (!sym(p, "("))
                return perr(p, "expected ( after IN");
            floe_vec lits = FLOE_VEC_INIT(floe_value);
            int rc = 0;
            do {
                floe_value *v = floe__vec_push(&lits);
                if (!v) {
                    rc = floe__error_nomem();
                    break;
                }
                if ((rc = literal(p, col, v)) < 0)
                    break;
            } while (sym(p, ","));
            if (rc == 0 && !sym(p, ")"))
                rc = perr(p, "expected ) after IN list");
            if (rc == 0)
                e = floe_expr_set(p->a, neg ? FLOE_OP_NOT_IN : FLOE_OP_IN, col, lits.items,
                                  lits.len);
            floe__vec_free(&lits);
            FLOE_TRY(rc);
        } else if (kw(p, "starts")) {
            if (!kw(p, "with"))
                return perr(p, "expected WITH after STARTS");
            floe_value v;
            FLOE_TRY(literal(p, col, &v));
            e = floe_expr_cmp(p->a, neg ? FLOE_OP_NOT_STARTS_WITH : FLOE_OP_STARTS_WITH, col, v);
        } else if (neg) {
            p->at = save;
            return perr(p, "expected IN or STARTS WITH after NOT");
        } else {
            static const struct {
                const char *s;
                floe_op op;
            } ops[] = {{"<=", FLOE_OP_LT_EQ}, {">=", FLOE_OP_GT_EQ}, {"!=", FLOE_OP_NOT_EQ},
                       {"<>", FLOE_OP_NOT_EQ}, {"==", FLOE_OP_EQ},   {"=", FLOE_OP_EQ},
                       {"<", FLOE_OP_LT},      {">", FLOE_OP_GT}};
            floe_op op = 0;
            for (size_t i = 0; i < FLOE_ARRAY_LEN(ops) && !op; i++)
                if (sym(p, ops[i].s))
                    op = ops[i].op;
            if (!op)
                return perr(p, "expected a comparison operator, IS, IN or STARTS WITH");
            floe_value v;
            FLOE_TRY(literal(p, col, &v));
            e = floe_expr_cmp(p->a, op, col, v);
        }
    }
    if (!e)
        return floe__error_or_nomem();
    *out = e;
    return 0;
}

static int expr_not(fp *p, const floe_expr **out)
{
    if (++p->depth > 200)
        return perr(p, "filter nested too deep");
    int rc;
    if (kw(p, "not")) {
        const floe_expr *e;
        if ((rc = expr_not(p, &e)) == 0)
            rc = (*out = floe_expr_not(p->a, e)) ? 0 : floe__error_nomem();
    } else if (sym(p, "(")) {
        rc = expr_or(p, out);
        if (rc == 0 && !sym(p, ")"))
            rc = perr(p, "expected )");
    } else if (kw(p, "true")) {
        *out = floe_expr_true();
        rc = 0;
    } else if (kw(p, "false")) {
        *out = floe_expr_false();
        rc = 0;
    } else {
        rc = predicate(p, out);
    }
    p->depth--;
    return rc;
}

static int expr_and(fp *p, const floe_expr **out)
{
    FLOE_TRY(expr_not(p, out));
    while (kw(p, "and")) {
        const floe_expr *r = NULL;
        FLOE_TRY(expr_not(p, &r));
        if (!(*out = floe_expr_and(p->a, *out, r)))
            return floe__error_nomem();
    }
    return 0;
}

static int expr_or(fp *p, const floe_expr **out)
{
    FLOE_TRY(expr_and(p, out));
    while (kw(p, "or")) {
        const floe_expr *r = NULL;
        FLOE_TRY(expr_and(p, &r));
        if (!(*out = floe_expr_or(p->a, *out, r)))
            return floe__error_nomem();
    }
    return 0;
}

int floe__scan_filter_parse(const floe_expr **out, floe_arena *a, const char *text,
                            const floe_schema *schema)
{
    fp p = {text, 0, a, schema, 0};
    ws(&p);
    if (!text[p.at]) {
        *out = floe_expr_true();
        return 0;
    }
    FLOE_TRY(expr_or(&p, out));
    ws(&p);
    if (text[p.at])
        return perr(&p, "unexpected text after the filter");
    return 0;
}
