/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Binding (Java's Binder and Literal.to): resolve column names of an
 * unbound expression against a schema, convert each literal to the
 * column's type, and fold predicates whose literal lies outside the type's
 * range. Time and date literals are read from ISO-8601 text.
 */
#include "expr/expr.h"

#include "spec/value.h"
#include "util/civil.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- names */

static bool name_eq(const char *a, size_t alen, const char *b, bool cs)
{
    return strlen(b) == alen && (cs ? strncmp(a, b, alen) == 0 : strncasecmp(a, b, alen) == 0);
}

/* Find `name` (length len) in struct `st`: an exact field name first (names
 * may contain dots), else "field.rest" descending into a struct field. */
static const floe_field *find_field(const floe_type *st, const char *name, size_t len, bool cs)
{
    for (size_t i = 0; i < st->nfields; i++)
        if (name_eq(name, len, st->fields[i].name, cs))
            return &st->fields[i];
    for (size_t i = 0; i < st->nfields; i++) {
        const floe_field *f = &st->fields[i];
        size_t fl = strlen(f->name);
        if (fl < len && name[fl] == '.' && f->type->id == FLOE_T_STRUCT &&
            (cs ? strncmp(name, f->name, fl) == 0 : strncasecmp(name, f->name, fl) == 0)) {
            const floe_field *r = find_field(f->type, name + fl + 1, len - fl - 1, cs);
            if (r)
                return r;
        }
    }
    return NULL;
}

static int unknown_field(const floe_schema *schema, const char *name)
{
    floe_buf b = FLOE_BUF_INIT;
    const floe_type *st = schema->root;
    for (size_t i = 0; i < st->nfields && i < 32; i++)
        floe__buf_printf(&b, "%s%s", i ? ", " : "", st->fields[i].name);
    int rc =
        floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "expr",
                       "Cannot find field '%s' in struct: struct<%s>", name, b.ptr ? b.ptr : "");
    floe__buf_free(&b);
    return rc;
}

/* ---------------------------------------------------------------- text parsing */

typedef struct cursor {
    const char *p, *end;
} cursor;

static bool digits(cursor *c, int min, int max, int64_t *out)
{
    int n = 0;
    int64_t v = 0;
    while (c->p < c->end && isdigit((unsigned char)*c->p) && n < max) {
        v = v * 10 + (*c->p - '0');
        c->p++;
        n++;
    }
    *out = v;
    return n >= min;
}

static bool lit_char(cursor *c, char ch)
{
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

static bool parse_date_part(cursor *c, int64_t *days)
{
    int64_t y, m, d;
    bool neg = lit_char(c, '-');
    if (!neg)
        lit_char(c, '+');
    if (!digits(c, 4, 9, &y) || !lit_char(c, '-') || !digits(c, 2, 2, &m) || !lit_char(c, '-') ||
        !digits(c, 2, 2, &d))
        return false;
    if (neg)
        y = -y;
    if (m < 1 || m > 12 || d < 1 || d > 31)
        return false;
    int64_t z = floe__days_from_civil(y, (unsigned)m, (unsigned)d);
    /* Reject 2026-02-30 and friends: the round trip must agree. */
    int64_t yy;
    unsigned mm, dd;
    floe__civil_from_days(z, &yy, &mm, &dd);
    if (yy != y || mm != m || dd != d)
        return false;
    *days = z;
    return true;
}

/* HH:MM[:SS[.fraction]] -> nanoseconds of day. */
static bool parse_time_part(cursor *c, int64_t *nanos)
{
    int64_t h, m, s = 0, frac = 0;
    if (!digits(c, 2, 2, &h) || !lit_char(c, ':') || !digits(c, 2, 2, &m))
        return false;
    if (lit_char(c, ':')) {
        if (!digits(c, 2, 2, &s))
            return false;
        if (lit_char(c, '.')) {
            int n = 0;
            while (c->p < c->end && isdigit((unsigned char)*c->p) && n < 9) {
                frac = frac * 10 + (*c->p++ - '0');
                n++;
            }
            if (n == 0)
                return false;
            for (; n < 9; n++)
                frac *= 10;
        }
    }
    if (h > 23 || m > 59 || s > 59)
        return false;
    *nanos = ((h * 60 + m) * 60 + s) * INT64_C(1000000000) + frac;
    return true;
}

/* Zone suffix: Z, +HH, +HH:MM, +HHMM. `*has` false when absent. */
static bool parse_zone(cursor *c, bool *has, int64_t *offset_secs)
{
    *has = false;
    *offset_secs = 0;
    if (c->p == c->end)
        return true;
    *has = true;
    if (lit_char(c, 'Z') || lit_char(c, 'z'))
        return true;
    int sign = lit_char(c, '+') ? 1 : lit_char(c, '-') ? -1 : 0;
    int64_t h, m = 0;
    if (!sign || !digits(c, 2, 2, &h))
        return false;
    if (lit_char(c, ':')) {
        if (!digits(c, 2, 2, &m))
            return false;
    } else if (c->p < c->end) {
        if (!digits(c, 2, 2, &m))
            return false;
    }
    if (h > 18 || m > 59)
        return false;
    *offset_secs = sign * (h * 3600 + m * 60);
    return true;
}

/* ---------------------------------------------------------------- conversion */

typedef struct conv {
    floe_arena *a;
    const char *column;
    int range; /* 0 in range, +1 above the type's max, -1 below its min */
} conv;

static int incompatible(const conv *cv, const floe_value *lit, const floe_type *t, const char *why)
{
    floe_buf b = FLOE_BUF_INIT;
    floe_value_format(lit, &b);
    static const char *const names[] = {
        [FLOE_T_BOOLEAN] = "boolean",
        [FLOE_T_INT] = "int",
        [FLOE_T_LONG] = "long",
        [FLOE_T_FLOAT] = "float",
        [FLOE_T_DOUBLE] = "double",
        [FLOE_T_DECIMAL] = "decimal",
        [FLOE_T_DATE] = "date",
        [FLOE_T_TIME] = "time",
        [FLOE_T_TIMESTAMP] = "timestamp",
        [FLOE_T_TIMESTAMPTZ] = "timestamptz",
        [FLOE_T_TIMESTAMP_NS] = "timestamp_ns",
        [FLOE_T_TIMESTAMPTZ_NS] = "timestamptz_ns",
        [FLOE_T_STRING] = "string",
        [FLOE_T_UUID] = "uuid",
        [FLOE_T_FIXED] = "fixed",
        [FLOE_T_BINARY] = "binary",
    };
    const char *tn = (size_t)t->id < FLOE_ARRAY_LEN(names) && names[t->id] ? names[t->id] : "?";
    const char *ln =
        (size_t)lit->type < FLOE_ARRAY_LEN(names) && names[lit->type] ? names[lit->type] : "?";
    int rc = floe__error(FLOE_EINVALID, "expr",
                         "Invalid value for conversion to type %s: %s (%s) for column %s%s%s", tn,
                         b.ptr ? b.ptr : "", ln, cv->column, why ? ": " : "", why ? why : "");
    floe__buf_free(&b);
    return rc;
}

static floe_i128 pow10_i128(int n)
{
    floe_i128 r = 1;
    while (n-- > 0)
        r *= 10;
    return r;
}

/* Decimal text "[-]123.45" -> unscaled and scale. */
static bool parse_decimal(const char *s, size_t len, floe_i128 *unscaled, int32_t *scale)
{
    size_t i = 0;
    bool neg = false, dot = false, any = false;
    floe_i128 v = 0;
    int32_t sc = 0;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    for (; i < len; i++) {
        if (s[i] == '.' && !dot) {
            dot = true;
            continue;
        }
        if (!isdigit((unsigned char)s[i]) || v > pow10_i128(36))
            return false;
        v = v * 10 + (s[i] - '0');
        any = true;
        if (dot)
            sc++;
    }
    if (!any)
        return false;
    *unscaled = neg ? -v : v;
    *scale = sc;
    return true;
}

static int to_decimal(conv *cv, const floe_value *lit, const floe_type *t, floe_i128 unscaled,
                      int32_t scale, floe_value *out)
{
    int32_t s = t->scale;
    if (scale > s) {
        /* |unscaled| < 10^38: past 38 digits only zero keeps its scale */
        floe_i128 d = scale - s > 38 ? 0 : pow10_i128(scale - s);
        if (d ? unscaled % d != 0 : unscaled != 0)
            return incompatible(cv, lit, t, "scale would be lost");
        if (d)
            unscaled /= d;
    } else if (scale < s) {
        if (s - scale > 38)
            return incompatible(cv, lit, t, "out of range");
        floe_i128 lim = pow10_i128(38 - (s - scale));
        if (unscaled >= lim || unscaled <= -lim) {
            cv->range = unscaled > 0 ? 1 : -1;
            return 0;
        }
        unscaled *= pow10_i128(s - scale);
    }
    if (t->precision > 0 && t->precision <= 38) {
        floe_i128 lim = pow10_i128(t->precision);
        if (unscaled >= lim || unscaled <= -lim) {
            cv->range = unscaled > 0 ? 1 : -1;
            return 0;
        }
    }
    *out = floe_value_decimal(unscaled, s);
    return 0;
}

static int64_t unit_per_sec(floe_type_id t)
{
    return t == FLOE_T_TIMESTAMP_NS || t == FLOE_T_TIMESTAMPTZ_NS ? 1000000000 : 1000000;
}

static bool is_ts(floe_type_id t)
{
    return t == FLOE_T_TIMESTAMP || t == FLOE_T_TIMESTAMPTZ || t == FLOE_T_TIMESTAMP_NS ||
           t == FLOE_T_TIMESTAMPTZ_NS;
}

/* Timestamp text -> units of `t` since epoch. Date-only text means
 * midnight; a missing zone means UTC for timestamptz. A zone on a timestamp
 * without zone is refused (as Java does). */
static int parse_timestamp(conv *cv, const floe_value *lit, const floe_type *t, floe_value *out)
{
    cursor c = {(const char *)lit->v.bytes.ptr, (const char *)lit->v.bytes.ptr + lit->v.bytes.len};
    int64_t days, nanos = 0, off = 0;
    bool has_zone = false;
    if (!parse_date_part(&c, &days))
        return incompatible(cv, lit, t, "not an ISO-8601 timestamp");
    if (c.p < c.end && (*c.p == 'T' || *c.p == ' ')) {
        c.p++;
        if (!parse_time_part(&c, &nanos) || !parse_zone(&c, &has_zone, &off) || c.p != c.end)
            return incompatible(cv, lit, t, "not an ISO-8601 timestamp");
    } else if (c.p != c.end) {
        return incompatible(cv, lit, t, "not an ISO-8601 timestamp");
    }
    bool tz = t->id == FLOE_T_TIMESTAMPTZ || t->id == FLOE_T_TIMESTAMPTZ_NS;
    if (has_zone && !tz)
        return incompatible(cv, lit, t, "a timestamp without zone cannot have an offset");
    /* days * 86400e9 overflows int64 beyond year ~2262: check in 128 bits. */
    floe_i128 ns = ((floe_i128)days * 86400 - off) * 1000000000 + nanos;
    int64_t per = unit_per_sec(t->id);
    floe_i128 units = per == 1000000000 ? ns : (ns - ((ns % 1000 + 1000) % 1000)) / 1000;
    if (per == 1000000 && ns % 1000 != 0)
        return incompatible(cv, lit, t, "sub-microsecond precision would be lost");
    if (units > INT64_MAX || units < INT64_MIN) {
        cv->range = units > 0 ? 1 : -1;
        return 0;
    }
    *out = floe_value_i64(t->id, (int64_t)units);
    return 0;
}

static int convert(conv *cv, const floe_value *lit, const floe_type *t, floe_value *out)
{
    floe_type_id lt = lit->type;
    cv->range = 0;
    if ((lt == FLOE_T_FLOAT && isnan(lit->v.f32)) || (lt == FLOE_T_DOUBLE && isnan(lit->v.f64)))
        return floe__error(FLOE_EINVALID, "expr",
                           "Invalid expression literal: NaN, use isNaN or notNaN instead");
    bool integral = lt == FLOE_T_INT || lt == FLOE_T_LONG;
    int64_t iv = lt == FLOE_T_INT ? lit->v.i32 : lt == FLOE_T_LONG ? lit->v.i64 : 0;
    bool text = lt == FLOE_T_STRING;
    switch (t->id) {
    case FLOE_T_BOOLEAN:
        if (lt == FLOE_T_BOOLEAN) {
            *out = *lit;
            return 0;
        }
        break;
    case FLOE_T_INT:
        if (integral) {
            if (iv > INT32_MAX || iv < INT32_MIN)
                cv->range = iv > 0 ? 1 : -1;
            else
                *out = floe_value_int((int32_t)iv);
            return 0;
        }
        break;
    case FLOE_T_LONG:
        if (integral) {
            *out = floe_value_long(iv);
            return 0;
        }
        break;
    case FLOE_T_FLOAT:
        if (integral) {
            *out = floe_value_float((float)iv);
            return 0;
        }
        if (lt == FLOE_T_FLOAT) {
            *out = *lit;
            return 0;
        }
        if (lt == FLOE_T_DOUBLE) {
            if (lit->v.f64 > 3.4028234663852886e38)
                cv->range = 1;
            else if (lit->v.f64 < -3.4028234663852886e38)
                cv->range = -1;
            else
                *out = floe_value_float((float)lit->v.f64);
            return 0;
        }
        break;
    case FLOE_T_DOUBLE:
        if (integral) {
            *out = floe_value_double((double)iv);
            return 0;
        }
        if (lt == FLOE_T_FLOAT || lt == FLOE_T_DOUBLE) {
            *out = floe_value_double(lt == FLOE_T_FLOAT ? (double)lit->v.f32 : lit->v.f64);
            return 0;
        }
        break;
    case FLOE_T_DECIMAL:
        if (integral)
            return to_decimal(cv, lit, t, iv, 0, out);
        if (lt == FLOE_T_DECIMAL)
            return to_decimal(cv, lit, t, lit->v.dec, lit->scale, out);
        if (text) {
            floe_i128 u;
            int32_t s;
            if (!parse_decimal((const char *)lit->v.bytes.ptr, lit->v.bytes.len, &u, &s))
                return incompatible(cv, lit, t, "not a decimal number");
            return to_decimal(cv, lit, t, u, s, out);
        }
        break;
    case FLOE_T_DATE:
        if (lt == FLOE_T_DATE) {
            *out = floe_value_date(lit->v.i32);
            return 0;
        }
        if (integral && iv >= INT32_MIN && iv <= INT32_MAX) {
            *out = floe_value_date((int32_t)iv);
            return 0;
        }
        if (text) {
            cursor c = {(const char *)lit->v.bytes.ptr,
                        (const char *)lit->v.bytes.ptr + lit->v.bytes.len};
            int64_t d;
            if (!parse_date_part(&c, &d) || c.p != c.end || d > INT32_MAX || d < INT32_MIN)
                return incompatible(cv, lit, t, "not an ISO-8601 date (YYYY-MM-DD)");
            *out = floe_value_date((int32_t)d);
            return 0;
        }
        break;
    case FLOE_T_TIME:
        if (lt == FLOE_T_TIME || lt == FLOE_T_LONG) {
            *out = floe_value_i64(FLOE_T_TIME, lit->v.i64);
            return 0;
        }
        if (text) {
            cursor c = {(const char *)lit->v.bytes.ptr,
                        (const char *)lit->v.bytes.ptr + lit->v.bytes.len};
            int64_t ns;
            if (!parse_time_part(&c, &ns) || c.p != c.end)
                return incompatible(cv, lit, t, "not an ISO-8601 time (HH:MM:SS[.ffffff])");
            if (ns % 1000)
                return incompatible(cv, lit, t, "sub-microsecond precision would be lost");
            *out = floe_value_i64(FLOE_T_TIME, ns / 1000);
            return 0;
        }
        break;
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS:
        if (text)
            return parse_timestamp(cv, lit, t, out);
        if (lt == FLOE_T_LONG) {
            *out = floe_value_i64(t->id, lit->v.i64);
            return 0;
        }
        if (lt == FLOE_T_DATE || is_ts(lt)) {
            floe_i128 ns = lt == FLOE_T_DATE
                               ? (floe_i128)lit->v.i32 * 86400 * 1000000000
                               : (floe_i128)lit->v.i64 * (1000000000 / unit_per_sec(lt));
            int64_t per = unit_per_sec(t->id);
            floe_i128 u = per == 1000000000 ? ns : (ns - ((ns % 1000 + 1000) % 1000)) / 1000;
            if (per == 1000000 && ns % 1000 != 0)
                return incompatible(cv, lit, t, "sub-microsecond precision would be lost");
            if (u > INT64_MAX || u < INT64_MIN)
                cv->range = u > 0 ? 1 : -1;
            else
                *out = floe_value_i64(t->id, (int64_t)u);
            return 0;
        }
        break;
    case FLOE_T_STRING:
        if (text) {
            *out = *lit;
            return 0;
        }
        break;
    case FLOE_T_UUID:
        if (lt == FLOE_T_UUID && lit->v.bytes.len == 16) {
            *out = *lit;
            return 0;
        }
        if (text) {
            char s[40];
            uint8_t *b = floe__arena_alloc(cv->a, 16);
            if (!b)
                return floe__error_nomem();
            if (lit->v.bytes.len != 36)
                return incompatible(cv, lit, t, "not a UUID");
            memcpy(s, lit->v.bytes.ptr, 36);
            s[36] = 0;
            if (floe__uuid_parse(s, b) < 0)
                return incompatible(cv, lit, t, "not a UUID");
            *out = floe_value_bytes(FLOE_T_UUID, b, 16);
            return 0;
        }
        break;
    case FLOE_T_FIXED:
        if (lt == FLOE_T_FIXED || lt == FLOE_T_BINARY) {
            if (lit->v.bytes.len != (size_t)t->length)
                return incompatible(cv, lit, t, "length does not match fixed[L]");
            *out = floe_value_bytes(FLOE_T_FIXED, lit->v.bytes.ptr, lit->v.bytes.len);
            return 0;
        }
        break;
    case FLOE_T_BINARY:
        if (lt == FLOE_T_FIXED || lt == FLOE_T_BINARY) {
            *out = floe_value_bytes(FLOE_T_BINARY, lit->v.bytes.ptr, lit->v.bytes.len);
            return 0;
        }
        break;
    default: break;
    }
    return incompatible(cv, lit, t, NULL);
}

/* ---------------------------------------------------------------- binding */

static floe_expr *bound_node(floe_arena *a, const floe_expr *p, floe_op op, const floe_field *f)
{
    floe_expr *e = floe__arena_calloc(a, 1, sizeof *e);
    if (!e) {
        floe__error_nomem();
        return NULL;
    }
    e->kind = FLOE_EXPR_PRED;
    e->op = op;
    e->name = p->name;
    e->field_id = f->id;
    e->type = f->type;
    return e;
}

static bool is_float(floe_type_id t)
{
    return t == FLOE_T_FLOAT || t == FLOE_T_DOUBLE;
}

static int bind_pred(const floe_expr **out, floe_arena *a, const floe_schema *schema,
                     const floe_expr *p, bool cs)
{
    const floe_field *f = find_field(schema->root, p->name, strlen(p->name), cs);
    if (!f)
        return unknown_field(schema, p->name);
    if (floe_type_is_nested(f->type))
        return floe__error(FLOE_EINVALID, "expr", "Cannot filter on nested column %s (%s)", p->name,
                           f->type->id == FLOE_T_STRUCT ? "struct"
                           : f->type->id == FLOE_T_LIST ? "list"
                                                        : "map");
    floe_type_id tid = f->type->id;
    floe_expr *e;
    switch (p->op) {
    case FLOE_OP_IS_NULL:
    case FLOE_OP_NOT_NULL:
        /* A required column is never null (Java binds these to constants). */
        if (f->required) {
            *out = (p->op == FLOE_OP_IS_NULL) ? floe_expr_false() : floe_expr_true();
            return 0;
        }
        e = bound_node(a, p, p->op, f);
        if (!e)
            return FLOE_ENOMEM;
        *out = e;
        return 0;
    case FLOE_OP_IS_NAN:
    case FLOE_OP_NOT_NAN:
        if (!is_float(tid))
            return floe__error(FLOE_EINVALID, "expr",
                               "%s cannot be used with a non-floating-point column %s",
                               p->op == FLOE_OP_IS_NAN ? "IsNaN" : "NotNaN", p->name);
        e = bound_node(a, p, p->op, f);
        if (!e)
            return FLOE_ENOMEM;
        *out = e;
        return 0;
    case FLOE_OP_STARTS_WITH:
    case FLOE_OP_NOT_STARTS_WITH:
        if (tid != FLOE_T_STRING)
            return floe__error(FLOE_EINVALID, "expr",
                               "%s can only be used with a string column, not %s",
                               floe_op_name(p->op), p->name);
        if (p->lits[0].type != FLOE_T_STRING) {
            conv cv = {a, p->name, 0};
            return incompatible(&cv, &p->lits[0], f->type, NULL);
        }
        e = bound_node(a, p, p->op, f);
        if (!e)
            return FLOE_ENOMEM;
        e->lits = p->lits;
        e->nlits = 1;
        *out = e;
        return 0;
    default: break;
    }

    floe_value *lits = floe__arena_alloc(a, p->nlits * sizeof *lits);
    if (!lits)
        return floe__error_nomem();
    size_t n = 0;
    int range = 0;
    for (size_t i = 0; i < p->nlits; i++) {
        conv cv = {a, p->name, 0};
        FLOE_TRY(convert(&cv, &p->lits[i], f->type, &lits[n]));
        if (cv.range == 0) {
            /* IN lists: drop duplicates so evaluators see each value once. */
            bool dup = false;
            for (size_t j = 0; j < n && !dup; j++)
                dup = floe_expr_value_compare(&lits[j], &lits[n]) == 0;
            if (!dup)
                n++;
        }
        range = cv.range;
    }
    floe_op op = p->op;
    if (op == FLOE_OP_IN || op == FLOE_OP_NOT_IN) {
        if (n == 0) {
            *out = op == FLOE_OP_IN ? floe_expr_false() : floe_expr_true();
            return 0;
        }
        if (n == 1)
            op = op == FLOE_OP_IN ? FLOE_OP_EQ : FLOE_OP_NOT_EQ;
    } else if (range != 0) {
        /* Java's AboveMax / BelowMin: the comparison is decided by the
         * type's range; for a value that exists it reduces to NOT NULL
         * (floating columns: and NOT NaN) so nulls keep failing `<`. */
        bool holds;
        switch (op) {
        case FLOE_OP_LT:
        case FLOE_OP_LT_EQ: holds = range > 0; break;
        case FLOE_OP_GT:
        case FLOE_OP_GT_EQ: holds = range < 0; break;
        case FLOE_OP_NOT_EQ: *out = floe_expr_true(); return 0;
        default: holds = false; break;
        }
        if (!holds) {
            *out = floe_expr_false();
            return 0;
        }
        const floe_expr *nn =
            f->required ? floe_expr_true() : bound_node(a, p, FLOE_OP_NOT_NULL, f);
        if (nn && is_float(tid))
            nn = floe_expr_and(a, nn, bound_node(a, p, FLOE_OP_NOT_NAN, f));
        if (!nn)
            return floe__error_nomem();
        *out = nn;
        return 0;
    }
    e = bound_node(a, p, op, f);
    if (!e)
        return FLOE_ENOMEM;
    e->lits = lits;
    e->nlits = n;
    *out = e;
    return 0;
}

static int bind(const floe_expr **out, floe_arena *a, const floe_schema *schema, const floe_expr *e,
                bool cs)
{
    switch (e->kind) {
    case FLOE_EXPR_TRUE:
    case FLOE_EXPR_FALSE: *out = e; return 0;
    case FLOE_EXPR_AND:
    case FLOE_EXPR_OR: {
        const floe_expr *l = NULL, *r = NULL; /* set by bind() on success */
        FLOE_TRY(bind(&l, a, schema, e->left, cs));
        FLOE_TRY(bind(&r, a, schema, e->right, cs));
        *out = e->kind == FLOE_EXPR_AND ? floe_expr_and(a, l, r) : floe_expr_or(a, l, r);
        return *out ? 0 : floe__error_nomem();
    }
    case FLOE_EXPR_PRED:
        if (e->field_id != 0) {
            *out = e; /* already bound */
            return 0;
        }
        return bind_pred(out, a, schema, e, cs);
    case FLOE_EXPR_NOT: break;
    }
    return floe__error(FLOE_EINVALID, "expr", "unexpected NOT after rewrite");
}

int floe_expr_bind(const floe_expr **out, floe_arena *a, const floe_schema *schema,
                   const floe_expr *e, bool case_sensitive)
{
    if (!schema || !schema->root || schema->root->id != FLOE_T_STRUCT)
        return floe__error(FLOE_EINVALID, "expr", "cannot bind to a schema without root struct");
    const floe_expr *r;
    FLOE_TRY(floe_expr_rewrite_not(&r, a, e));
    return bind(out, a, schema, r, case_sensitive);
}
