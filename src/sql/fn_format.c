/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/fn_format: Spark's number and string formatting functions.
 *
 *   format_number(x, d)        x rounded half-even to d decimals, the
 *                              integer part grouped by commas (Java's
 *                              DecimalFormat "#,##0.00…", Locale.US);
 *                              d < 0: NULL
 *   format_string(fmt, a, ...) Java's String.format over Spark's values
 *   printf(fmt, a, ...)        (alias): %[i$][flags][width][.prec]conv with
 *                              conversions d o x X f e E s S c b B % n
 *
 * A double is formatted from its exact binary value (JDK 8+ DecimalFormat
 * and Formatter do so; glibc's printf rounds the same way); a decimal —
 * a value carrying floe's decimal scale subtype, or exact text — from its
 * decimal digits, as Java's BigDecimal.
 */
#include "sql/exec_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ format_number */

/* Round the decimal digits `num` (optional '-', digits, optional '.'
 * digits) half-even to `d` decimals into `out` as "-ddd.ddd". */
static int round_half_even(const char *num, int d, floe_buf *out)
{
    bool neg = *num == '-';
    if (*num == '-' || *num == '+')
        num++;
    const char *dot = strchr(num, '.');
    size_t ni = dot ? (size_t)(dot - num) : strlen(num);
    const char *frac = dot ? dot + 1 : "";
    size_t nf = strlen(frac);
    /* digits: integer part, then exactly d fraction digits */
    floe_buf digits = FLOE_BUF_INIT;
    int rc = floe__buf_put(&digits, "0", 1); /* room for a carry */
    if (rc == 0)
        rc = floe__buf_put(&digits, num, ni);
    for (int k = 0; rc == 0 && k < d; k++)
        rc = floe__buf_put(&digits, (size_t)k < nf ? &frac[k] : "0", 1);
    if (rc < 0) {
        floe__buf_free(&digits);
        return rc;
    }
    /* the dropped part against one half */
    int cmp = 0; /* -1 below, 0 exactly half, 1 above; 2: nothing dropped */
    if ((size_t)d >= nf)
        cmp = 2;
    else if (frac[d] != '5')
        cmp = frac[d] > '5' ? 1 : -1;
    else {
        cmp = 0;
        for (size_t k = (size_t)d + 1; k < nf; k++)
            if (frac[k] != '0')
                cmp = 1;
    }
    char *p = digits.ptr;
    size_t n = digits.len;
    bool up = cmp == 1 || (cmp == 0 && (p[n - 1] - '0') % 2 == 1);
    for (size_t k = n; up && k-- > 0;) {
        if (p[k] == '9')
            p[k] = '0';
        else {
            p[k]++;
            up = false;
        }
    }
    /* skip leading zeros of the integer part, keep one */
    size_t int_len = n - (size_t)d, at = 0;
    while (at + 1 < int_len && p[at] == '0')
        at++;
    /* a negative value keeps its sign when it rounds to zero (DecimalFormat
     * prints -0.004 at 2 decimals as -0.00) */
    rc = neg ? floe__buf_put(out, "-", 1) : 0;
    if (rc == 0)
        rc = floe__buf_put(out, p + at, int_len - at);
    if (rc == 0 && d > 0)
        rc = floe__buf_put(out, ".", 1) == 0 ? floe__buf_put(out, p + int_len, (size_t)d) : -1;
    floe__buf_free(&digits);
    return rc < 0 ? floe__error_nomem() : 0;
}

/* "-1234567.89" -> "-1,234,567.89" */
static int group_thousands(const char *plain, floe_buf *out)
{
    const char *p = plain;
    if (*p == '-')
        FLOE_TRY(floe__buf_put(out, p++, 1));
    size_t ni = strcspn(p, ".");
    for (size_t k = 0; k < ni; k++) {
        if (k && (ni - k) % 3 == 0)
            FLOE_TRY(floe__buf_put(out, ",", 1));
        FLOE_TRY(floe__buf_put(out, &p[k], 1));
    }
    return floe__buf_puts(out, p + ni);
}

static void format_number_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int xt = sqlite3_value_type(argv[0]);
    if (xt == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) {
        sqlite3_result_null(ctx);
        return;
    }
    if (sqlite3_value_type(argv[1]) == SQLITE_TEXT) {
        sqlite3_result_error(ctx, "format_number with a format pattern is not supported yet", -1);
        return;
    }
    int64_t d = sqlite3_value_int64(argv[1]);
    if (d < 0 || d > 340) { /* Spark: NULL for a negative d */
        sqlite3_result_null(ctx);
        return;
    }
    char num[1100]; /* 309 integer digits of a double, 340 decimals */
    unsigned st = sqlite3_value_subtype(argv[0]);
    if (xt == SQLITE_FLOAT) {
        double x = sqlite3_value_double(argv[0]);
        if (isinf(x)) { /* DecimalFormatSymbols' infinity */
            sqlite3_result_text(ctx, x < 0 ? "-\xe2\x88\x9e" : "\xe2\x88\x9e", -1, SQLITE_STATIC);
            return;
        }
        if (st >= FLOE_SQL_SUBTYPE_SCALE && st <= FLOE_SQL_SUBTYPE_SCALE + 38)
            /* a decimal held as a double: its digits at its scale */
            snprintf(num, sizeof num, "%.*f", (int)(st - FLOE_SQL_SUBTYPE_SCALE), x);
        else /* the exact binary value, rounded half-even by printf */
            snprintf(num, sizeof num, "%.*f", (int)d, x);
    } else if (xt == SQLITE_INTEGER) {
        snprintf(num, sizeof num, "%lld", (long long)sqlite3_value_int64(argv[0]));
    } else {
        const char *t = (const char *)sqlite3_value_text(argv[0]);
        char *end = NULL;
        if (!t || (strtod(t, &end), end == t) || strlen(t) >= sizeof num) {
            sqlite3_result_null(ctx);
            return;
        }
        snprintf(num, sizeof num, "%.*s", (int)(end - t), t);
        if (strpbrk(num, "eEnN")) { /* exponent or NaN/Infinity text: as a double */
            double x = strtod(num, NULL);
            snprintf(num, sizeof num, "%.*f", (int)d, x);
        }
    }
    floe_buf rounded = FLOE_BUF_INIT, out = FLOE_BUF_INIT;
    int rc = round_half_even(num, (int)d, &rounded);
    if (rc == 0)
        rc = group_thousands(rounded.ptr, &out);
    if (rc < 0)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_text(ctx, out.ptr, (int)out.len, SQLITE_TRANSIENT);
    floe__buf_free(&rounded);
    floe__buf_free(&out);
}

/* ------------------------------------------------------------ format_string */

/* The Java class Spark passes for a SQLite value (in messages). */
static const char *java_class(sqlite3_value *v)
{
    switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER: return "java.lang.Long";
    case SQLITE_FLOAT: return "java.lang.Double";
    default: return "java.lang.String";
    }
}

/* One conversion of spec `spec` (flags, width, precision: C's syntax) on
 * value v. Returns 0, or -1 after setting the function's error. */
static int convert(sqlite3_context *ctx, floe_buf *out, const char *flags, int width, int prec,
                   char conv, sqlite3_value *v)
{
    char cfmt[32], tmp[512];
    int vt = v ? sqlite3_value_type(v) : SQLITE_NULL;
    bool left = strchr(flags, '-') != NULL;
    const char *text = NULL;
    char lower = (char)(conv | 0x20);
    if (vt == SQLITE_NULL && lower != 'b') {
        text = "null"; /* Java formats a null argument as "null" */
        if (conv == 'S')
            text = "NULL";
    } else if (lower == 's') {
        text = (const char *)sqlite3_value_text(v);
        if (!text) {
            sqlite3_result_error_nomem(ctx);
            return -1;
        }
        if (conv == 'S') {
            size_t n = strlen(text) < sizeof tmp ? strlen(text) : sizeof tmp - 1;
            for (size_t k = 0; k < n; k++)
                tmp[k] = text[k] >= 'a' && text[k] <= 'z' ? (char)(text[k] - 32) : text[k];
            tmp[n] = 0;
            text = tmp;
        }
    } else if (lower == 'b') {
        bool b = vt != SQLITE_NULL &&
                 (vt != SQLITE_INTEGER || sqlite3_value_int64(v) != 0); /* Java: non-null is true */
        text = conv == 'B' ? (b ? "TRUE" : "FALSE") : (b ? "true" : "false");
    } else if (conv == 'd' || conv == 'o' || lower == 'x') {
        if (vt != SQLITE_INTEGER) {
            char msg[96];
            snprintf(msg, sizeof msg, "%c != %s", conv, java_class(v));
            sqlite3_result_error(ctx, msg, -1);
            return -1;
        }
        bool comma = strchr(flags, ',') != NULL;
        char cf[8] = {0};
        size_t nf = 0;
        for (const char *f = flags; *f && nf < sizeof cf - 1; f++)
            if (*f != ',')
                cf[nf++] = *f;
        if (comma && conv == 'd') { /* grouped: digits first, then padding */
            snprintf(tmp, sizeof tmp, "%lld", (long long)sqlite3_value_int64(v));
            floe_buf g = FLOE_BUF_INIT;
            if (group_thousands(tmp, &g) < 0) {
                floe__buf_free(&g);
                sqlite3_result_error_nomem(ctx);
                return -1;
            }
            snprintf(tmp, sizeof tmp, "%s", g.ptr);
            floe__buf_free(&g);
            text = tmp;
        } else {
            snprintf(cfmt, sizeof cfmt, "%%%s*ll%c", cf, conv);
            snprintf(tmp, sizeof tmp, cfmt, width, (long long)sqlite3_value_int64(v));
            return floe__buf_puts(out, tmp) < 0 ? (sqlite3_result_error_nomem(ctx), -1) : 0;
        }
    } else if (lower == 'f' || lower == 'e') {
        if (vt != SQLITE_FLOAT) {
            char msg[96];
            snprintf(msg, sizeof msg, "%c != %s", conv, java_class(v));
            sqlite3_result_error(ctx, msg, -1);
            return -1;
        }
        snprintf(cfmt, sizeof cfmt, "%%%s*.*%c", flags, conv);
        snprintf(tmp, sizeof tmp, cfmt, width, prec < 0 ? 6 : prec, sqlite3_value_double(v));
        return floe__buf_puts(out, tmp) < 0 ? (sqlite3_result_error_nomem(ctx), -1) : 0;
    } else if (lower == 'c') {
        if (vt != SQLITE_INTEGER && !(vt == SQLITE_TEXT && sqlite3_value_bytes(v) == 1)) {
            char msg[96];
            snprintf(msg, sizeof msg, "%c != %s", conv, java_class(v));
            sqlite3_result_error(ctx, msg, -1);
            return -1;
        }
        const unsigned char *c = vt == SQLITE_TEXT ? sqlite3_value_text(v) : NULL;
        tmp[0] = c ? (char)c[0] : (char)sqlite3_value_int64(v);
        tmp[1] = 0;
        text = tmp;
    }
    if (!text) { /* no conversion above: convert() is called with one of them */
        sqlite3_result_error(ctx, "format_string: unknown conversion", -1);
        return -1;
    }
    /* a string: precision truncates, width pads */
    size_t n = strlen(text);
    if (prec >= 0 && (size_t)prec < n && (lower == 's' || lower == 'b'))
        n = (size_t)prec;
    size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
    int rc = 0;
    for (size_t k = 0; rc == 0 && !left && k < pad; k++)
        rc = floe__buf_put(out, " ", 1);
    if (rc == 0)
        rc = floe__buf_put(out, text, n);
    for (size_t k = 0; rc == 0 && left && k < pad; k++)
        rc = floe__buf_put(out, " ", 1);
    if (rc < 0)
        sqlite3_result_error_nomem(ctx);
    return rc < 0 ? -1 : 0;
}

static void format_string_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *fmt = argc > 0 ? (const char *)sqlite3_value_text(argv[0]) : NULL;
    if (!fmt) {
        sqlite3_result_null(ctx);
        return;
    }
    floe_buf out = FLOE_BUF_INIT;
    int next = 1, rc = 0; /* the next ordinary argument */
    for (const char *p = fmt; rc == 0 && *p;) {
        if (*p != '%') {
            size_t n = strcspn(p, "%");
            rc = floe__buf_put(&out, p, n) < 0 ? (sqlite3_result_error_nomem(ctx), -1) : 0;
            p += n;
            continue;
        }
        p++;
        /* %[argument_index$][flags][width][.precision]conversion */
        int index = 0;
        const char *q = p;
        while (*q >= '0' && *q <= '9')
            q++;
        if (*q == '$' && q > p) {
            index = atoi(p);
            p = q + 1;
        }
        char flags[8] = {0};
        size_t nf = 0;
        while (*p && strchr("-#+ 0,", *p) && nf < sizeof flags - 1)
            flags[nf++] = *p++;
        int width = 0, prec = -1;
        while (*p >= '0' && *p <= '9' && width < 10000)
            width = width * 10 + (*p++ - '0');
        if (*p == '.') {
            prec = 0;
            p++;
            while (*p >= '0' && *p <= '9' && prec < 10000)
                prec = prec * 10 + (*p++ - '0');
        }
        char conv = *p ? *p++ : 0;
        if (conv == '%' || conv == 'n') {
            rc = floe__buf_puts(&out, conv == '%' ? "%" : "\n") < 0
                     ? (sqlite3_result_error_nomem(ctx), -1)
                     : 0;
            continue;
        }
        if (!conv || !strchr("doxXfeEsScbB", conv)) {
            char msg[64];
            snprintf(msg, sizeof msg, "Conversion = '%c'", conv ? conv : '%');
            sqlite3_result_error(ctx, msg, -1); /* UnknownFormatConversionException */
            rc = -1;
            break;
        }
        int at = index > 0 ? index : next++;
        if (at >= argc) {
            char msg[64];
            snprintf(msg, sizeof msg, "Format specifier '%%%c'", conv);
            sqlite3_result_error(ctx, msg, -1); /* MissingFormatArgumentException */
            rc = -1;
            break;
        }
        rc = convert(ctx, &out, flags, width, prec, conv, argv[at]);
    }
    if (rc == 0)
        sqlite3_result_text(ctx, out.ptr ? out.ptr : "", (int)out.len, SQLITE_TRANSIENT);
    floe__buf_free(&out);
}

int floe__sql_register_format_functions(floe_sql_session *s)
{
    static const struct {
        const char *name;
        int nargs;
        int flags;
        void (*fn)(sqlite3_context *, int, sqlite3_value **);
    } fns[] = {
        {"format_number", 2, SQLITE_SUBTYPE, format_number_fn},
        {"format_string", -1, 0, format_string_fn},
        {"printf", -1, 0, format_string_fn},
    };
    for (size_t k = 0; k < FLOE_ARRAY_LEN(fns); k++)
        if (sqlite3_create_function(s->db, fns[k].name, fns[k].nargs,
                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC | fns[k].flags, NULL,
                                    fns[k].fn, NULL, NULL) != SQLITE_OK)
            return floe__error(FLOE_ENOMEM, "sql", "cannot register %s(): %s", fns[k].name,
                               sqlite3_errmsg(s->db));
    return 0;
}
