/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Expressions as REST JSON (open-api/rest-catalog-open-api.yaml,
 * components/schemas/Expression; the forms Java's ExpressionParser reads
 * and writes): what a scan-planning request carries as `filter` and a file
 * scan task as `residual-filter`.
 *
 *   true | false | {"type":"true"} | {"type":"literal","value":true}
 *   {"type":"and"|"or","left":E,"right":E}     {"type":"not","child":E}
 *   {"type":"is-null"|"not-null"|"is-nan"|"not-nan","term":T}
 *   {"type":"lt"|"lt-eq"|"gt"|"gt-eq"|"eq"|"not-eq"|"starts-with"|
 *           "not-starts-with","term":T,"value":V}
 *   {"type":"in"|"not-in","term":T,"values":[V,...]}
 *   T := "column.name" | {"type":"reference","term":"column.name"}
 *   V := a JSON single value, or {"type":"literal","value":...}
 *
 * Transform terms ({"type":"transform",...}) are FLOE_EUNSUPPORTED.
 */
#include "expr/expr.h"

#include "spec/spec.h"
#include "spec/value.h"

#include <string.h>

#define WHAT "expr"

static const struct {
    const char *name;
    floe_op op;
} ops[] = {
    {"is-null", FLOE_OP_IS_NULL},
    {"not-null", FLOE_OP_NOT_NULL},
    {"is-nan", FLOE_OP_IS_NAN},
    {"not-nan", FLOE_OP_NOT_NAN},
    {"lt", FLOE_OP_LT},
    {"lt-eq", FLOE_OP_LT_EQ},
    {"gt", FLOE_OP_GT},
    {"gt-eq", FLOE_OP_GT_EQ},
    {"eq", FLOE_OP_EQ},
    {"not-eq", FLOE_OP_NOT_EQ},
    {"starts-with", FLOE_OP_STARTS_WITH},
    {"not-starts-with", FLOE_OP_NOT_STARTS_WITH},
    {"in", FLOE_OP_IN},
    {"not-in", FLOE_OP_NOT_IN},
};

/* 0 unary, 1 one literal, 2 a set */
static int arity(floe_op op)
{
    switch (op) {
    case FLOE_OP_IS_NULL:
    case FLOE_OP_NOT_NULL:
    case FLOE_OP_IS_NAN:
    case FLOE_OP_NOT_NAN: return 0;
    case FLOE_OP_IN:
    case FLOE_OP_NOT_IN: return 2;
    default: return 1;
    }
}

typedef struct parser {
    floe_arena *a;
    const floe_schema *schema;
    bool case_sensitive;
} parser;

static int bad(const char *msg, const char *detail)
{
    return floe__error(FLOE_EINVALID, WHAT, "Cannot parse expression: %s%s%s", msg,
                       detail ? ": " : "", detail ? detail : "");
}

static int term_name(const floe_json *t, const char **out)
{
    if (floe__json_is_string(t)) {
        *out = floe__json_sval(t);
        if (strlen(*out) != floe__json_slen(t) || !**out)
            return bad("invalid reference", NULL);
        return 0;
    }
    if (!floe__json_is_object(t))
        return bad("a term must be a string or an object", NULL);
    const char *type = floe__json_sval(floe__json_get(t, "type"));
    if (!type)
        return bad("term without a type", NULL);
    if (strcmp(type, "reference") == 0)
        return term_name(floe__json_get(t, "term"), out);
    if (strcmp(type, "transform") == 0)
        return floe__error(FLOE_EUNSUPPORTED, WHAT,
                           "Cannot parse expression: transform terms are not supported");
    return bad("Cannot parse type as a reference", type);
}

/* A literal: typed by the column when the schema knows it (Java parses with
 * the bound term's type), else the JSON's own kind (long, double, string,
 * boolean) for binding to convert. */
static int literal(parser *p, const char *name, const floe_json *v, floe_value *out)
{
    if (floe__json_is_object(v)) {
        const char *type = floe__json_sval(floe__json_get(v, "type"));
        if (!type || strcmp(type, "literal") != 0)
            return bad("Cannot parse type as a literal", type ? type : "(none)");
        v = floe__json_get(v, "value");
        if (!v)
            return bad("literal without a value", NULL);
    }
    if (floe__json_is_null(v))
        return bad("a literal cannot be null", name);
    const floe_field *f =
        p->schema && p->case_sensitive ? floe__schema_field_by_name(p->schema, name) : NULL;
    if (f && f->type->id != FLOE_T_STRUCT && f->type->id != FLOE_T_LIST &&
        f->type->id != FLOE_T_MAP && f->type->id < FLOE_T_UNKNOWN) {
        /* else (a number for a string column, ...) binding's message */
        if (floe__value_from_json(out, v, f->type, p->a) == 0)
            return 0;
    }
    switch (v->type) {
    case FLOE_JSON_TRUE:
    case FLOE_JSON_FALSE: *out = floe_value_bool(v->type == FLOE_JSON_TRUE); return 0;
    case FLOE_JSON_INTEGER: *out = floe_value_long(floe__json_ival(v)); return 0;
    case FLOE_JSON_REAL: *out = floe_value_double(floe__json_num(v)); return 0;
    case FLOE_JSON_STRING: {
        size_t n = floe__json_slen(v);
        void *s = floe__arena_memdup(p->a, floe__json_sval(v), n + 1);
        if (!s)
            return floe__error_nomem();
        *out = floe_value_bytes(FLOE_T_STRING, s, n);
        return 0;
    }
    default: return bad("Cannot convert JSON to literal", name);
    }
}

static int parse(parser *p, const floe_json *j, const floe_expr **out, int depth)
{
    if (depth > FLOE_JSON_MAX_DEPTH)
        return bad("nested too deeply", NULL);
    if (floe__json_is_boolean(j)) {
        *out = floe__json_is_true(j) ? floe_expr_true() : floe_expr_false();
        return 0;
    }
    if (!floe__json_is_object(j))
        return bad("an expression must be a boolean or an object", NULL);
    const char *type = floe__json_sval(floe__json_get(j, "type"));
    if (!type)
        return bad("missing type", NULL);
    if (strcmp(type, "true") == 0 || strcmp(type, "false") == 0) {
        *out = type[0] == 't' ? floe_expr_true() : floe_expr_false();
        return 0;
    }
    if (strcmp(type, "literal") == 0) {
        const floe_json *v = floe__json_get(j, "value");
        if (!floe__json_is_boolean(v))
            return bad("a literal expression needs a boolean value", NULL);
        *out = floe__json_is_true(v) ? floe_expr_true() : floe_expr_false();
        return 0;
    }
    if (strcmp(type, "not") == 0) {
        const floe_json *c = floe__json_get(j, "child");
        if (!c)
            return bad("not without a child", NULL);
        const floe_expr *e;
        FLOE_TRY(parse(p, c, &e, depth + 1));
        return (*out = floe_expr_not(p->a, e)) ? 0 : FLOE_ENOMEM;
    }
    if (strcmp(type, "and") == 0 || strcmp(type, "or") == 0) {
        const floe_json *l = floe__json_get(j, "left"), *r = floe__json_get(j, "right");
        if (!l || !r)
            return bad(type[0] == 'a' ? "and needs left and right" : "or needs left and right",
                       NULL);
        const floe_expr *le, *re;
        FLOE_TRY(parse(p, l, &le, depth + 1));
        FLOE_TRY(parse(p, r, &re, depth + 1));
        *out = type[0] == 'a' ? floe_expr_and(p->a, le, re) : floe_expr_or(p->a, le, re);
        return *out ? 0 : FLOE_ENOMEM;
    }
    size_t k = 0;
    while (k < FLOE_ARRAY_LEN(ops) && strcmp(ops[k].name, type) != 0)
        k++;
    if (k == FLOE_ARRAY_LEN(ops))
        return bad("unknown expression type", type);
    floe_op op = ops[k].op;
    const char *name = NULL;
    const floe_json *t = floe__json_get(j, "term");
    if (!t)
        return bad("predicate without a term", type);
    FLOE_TRY(term_name(t, &name));
    const floe_json *v = floe__json_get(j, "value"), *vs = floe__json_get(j, "values");
    int ar = arity(op);
    if ((ar != 1 && v) || (ar != 2 && vs))
        return bad(ar == 0 ? "a unary predicate has no value" : "invalid value field", type);
    if (ar == 0)
        return (*out = floe_expr_unary(p->a, op, name)) ? 0 : FLOE_ENOMEM;
    if (ar == 1) {
        if (!v)
            return bad("missing value", type);
        floe_value lit;
        FLOE_TRY(literal(p, name, v, &lit));
        return (*out = floe_expr_cmp(p->a, op, name, lit)) ? 0 : FLOE_ENOMEM;
    }
    if (!floe__json_is_array(vs))
        return bad("missing values (an array)", type);
    size_t n = floe__json_len(vs);
    if (n == 0) { /* x IN () matches nothing, x NOT IN () everything */
        *out = op == FLOE_OP_IN ? floe_expr_false() : floe_expr_true();
        return 0;
    }
    floe_value *lits = floe__arena_alloc(p->a, n * sizeof *lits);
    if (!lits)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++)
        FLOE_TRY(literal(p, name, floe__json_at(vs, i), &lits[i]));
    return (*out = floe_expr_set(p->a, op, name, lits, n)) ? 0 : FLOE_ENOMEM;
}

int floe_expr_from_json(const floe_expr **out, floe_arena *a, const struct floe_json *j,
                        const floe_schema *schema, bool case_sensitive)
{
    parser p = {a, schema, case_sensitive};
    return parse(&p, j, out, 0);
}

int floe_expr_parse_json(const floe_expr **out, floe_arena *a, const char *text, size_t len,
                         const floe_schema *schema, bool case_sensitive)
{
    floe_json *j = NULL;
    FLOE_TRY(floe__json_parse(&j, text, len, "expression"));
    int rc = floe_expr_from_json(out, a, j, schema, case_sensitive);
    floe__json_free(j);
    return rc;
}

/* ---------------------------------------------------------------- writing */

static int value_json(const floe_value *v, floe_buf *out)
{
    if (!v->is_null && (v->type == FLOE_T_BINARY || v->type == FLOE_T_FIXED)) {
        /* the spec's form: uppercase hexadecimal */
        static const char hex[] = "0123456789ABCDEF";
        FLOE_TRY(floe__buf_putc(out, '"'));
        for (size_t i = 0; i < v->v.bytes.len; i++) {
            FLOE_TRY(floe__buf_putc(out, hex[v->v.bytes.ptr[i] >> 4]));
            FLOE_TRY(floe__buf_putc(out, hex[v->v.bytes.ptr[i] & 15]));
        }
        return floe__buf_putc(out, '"');
    }
    return floe__value_to_json(v, out);
}

int floe_expr_value_to_json(const floe_value *v, floe_buf *out)
{
    return value_json(v, out);
}

int floe_expr_to_json(const floe_expr *e, floe_buf *out)
{
    switch (e->kind) {
    case FLOE_EXPR_TRUE: return floe__buf_puts(out, "true");
    case FLOE_EXPR_FALSE: return floe__buf_puts(out, "false");
    case FLOE_EXPR_NOT:
        FLOE_TRY(floe__buf_puts(out, "{\"type\":\"not\",\"child\":"));
        FLOE_TRY(floe_expr_to_json(e->left, out));
        return floe__buf_putc(out, '}');
    case FLOE_EXPR_AND:
    case FLOE_EXPR_OR:
        FLOE_TRY(floe__buf_puts(out, e->kind == FLOE_EXPR_AND ? "{\"type\":\"and\",\"left\":"
                                                               : "{\"type\":\"or\",\"left\":"));
        FLOE_TRY(floe_expr_to_json(e->left, out));
        FLOE_TRY(floe__buf_puts(out, ",\"right\":"));
        FLOE_TRY(floe_expr_to_json(e->right, out));
        return floe__buf_putc(out, '}');
    case FLOE_EXPR_PRED: break;
    }
    size_t k = 0;
    while (k < FLOE_ARRAY_LEN(ops) && ops[k].op != e->op)
        k++;
    if (k == FLOE_ARRAY_LEN(ops))
        return floe__error(FLOE_EINVALID, WHAT, "unknown operator %d", (int)e->op);
    FLOE_TRY(floe__buf_printf(out, "{\"type\":\"%s\",\"term\":\"", ops[k].name));
    FLOE_TRY(floe__buf_put_json_escaped(out, e->name, strlen(e->name)));
    FLOE_TRY(floe__buf_putc(out, '"'));
    int ar = arity(e->op);
    if (ar == 1) {
        FLOE_TRY(floe__buf_puts(out, ",\"value\":"));
        FLOE_TRY(value_json(&e->lits[0], out));
    } else if (ar == 2) {
        FLOE_TRY(floe__buf_puts(out, ",\"values\":["));
        for (size_t i = 0; i < e->nlits; i++) {
            if (i)
                FLOE_TRY(floe__buf_putc(out, ','));
            FLOE_TRY(value_json(&e->lits[i], out));
        }
        FLOE_TRY(floe__buf_putc(out, ']'));
    }
    return floe__buf_putc(out, '}');
}
