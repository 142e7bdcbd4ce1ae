/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util/json_writer: the JSON writer every floe emitter uses (see
 * json_writer.h). RFC 8259 text: strings escaped by floe__buf_put_json_escaped
 * (", \, control characters; UTF-8 passes through), integers in decimal,
 * doubles as the shortest %.{15,16,17}g text that parses back exactly.
 */
#include "util/json_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void floe__jw_init(floe_jw *w, floe_buf *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
}

int floe__jw_finish(const floe_jw *w)
{
    if (w->err)
        return w->err;
    if (w->depth || w->after_key)
        return floe__error(FLOE_EINVALID, "json", "JSON writer finished inside a container");
    return 0;
}

static int fail(floe_jw *w, int rc)
{
    if (!w->err)
        w->err = rc < 0 ? rc : FLOE_ERROR;
    return w->err;
}

static int misuse(floe_jw *w, const char *what)
{
    return fail(w, floe__error(FLOE_EINVALID, "json", "JSON writer: %s", what));
}

/* Before any value: the separator, and the check that a value may go here. */
static int before_value(floe_jw *w)
{
    if (w->err)
        return w->err;
    if (w->after_key) {
        w->after_key = false;
        return 0;
    }
    if (w->depth == 0)
        return 0;
    if (w->kind[w->depth - 1] == 'o')
        return misuse(w, "a value inside an object needs a key first");
    if (w->count[w->depth - 1]) {
        int rc = floe__buf_putc(w->out, ',');
        if (rc < 0)
            return fail(w, rc);
    }
    w->count[w->depth - 1] = 1;
    return 0;
}

static int put(floe_jw *w, const char *s, size_t n)
{
    int rc = floe__buf_put(w->out, s, n);
    return rc < 0 ? fail(w, rc) : 0;
}

static int open_container(floe_jw *w, char kind)
{
    FLOE_TRY(before_value(w));
    if (w->depth == FLOE_JW_MAX_DEPTH)
        return misuse(w, "nested too deeply");
    w->kind[w->depth] = (uint8_t)kind;
    w->count[w->depth] = 0;
    w->depth++;
    char c = kind == 'o' ? '{' : '[';
    return put(w, &c, 1);
}

static int close_container(floe_jw *w, char kind)
{
    if (w->err)
        return w->err;
    if (w->depth == 0 || w->kind[w->depth - 1] != (uint8_t)kind || w->after_key)
        return misuse(w, kind == 'o' ? "unbalanced }" : "unbalanced ]");
    w->depth--;
    char c = kind == 'o' ? '}' : ']';
    return put(w, &c, 1);
}

int floe__jw_obj(floe_jw *w) { return open_container(w, 'o'); }
int floe__jw_obj_end(floe_jw *w) { return close_container(w, 'o'); }
int floe__jw_arr(floe_jw *w) { return open_container(w, 'a'); }
int floe__jw_arr_end(floe_jw *w) { return close_container(w, 'a'); }

/* Room for n more bytes (and the NUL) at the end of w->out. */
static int room(floe_jw *w, size_t n)
{
    floe_buf *b = w->out;
    if (n < b->cap - b->len)
        return 0;
    int rc = floe__buf_reserve(b, n);
    return rc < 0 ? fail(w, rc) : 0;
}

/* A metadata file writes ~200,000 short strings, nearly all without an
 * escape: those go out as one copy between quotes (with `prefix`, a comma,
 * before them when it is not 0, and `suffix`, a colon, after). */
static int put_string(floe_jw *w, char prefix, const char *s, size_t len, char suffix)
{
    size_t i = 0;
    /* eight bytes at a time: any byte < 0x20, '"' or '\\' stops the run */
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    for (uint64_t x; i + 8 <= len; i += 8) {
        memcpy(&x, s + i, 8);
        uint64_t q = x ^ (ones * '"'), bs = x ^ (ones * '\\');
        uint64_t hit = ((x - ones * 0x20) | (q - ones) | (bs - ones)) & ~x & highs;
        if (hit)
            break;
    }
    while (i < len && (unsigned char)s[i] >= 0x20 && s[i] != '"' && s[i] != '\\')
        i++;
    FLOE_TRY(room(w, len + 4));
    floe_buf *b = w->out;
    char *d = b->ptr + b->len;
    if (prefix)
        *d++ = prefix;
    *d++ = '"';
    memcpy(d, s, i);
    b->len = (size_t)(d + i - b->ptr);
    if (i < len) {
        int rc = floe__buf_put_json_escaped(b, s + i, len - i);
        if (rc == 0)
            rc = room(w, 2);
        if (rc < 0)
            return fail(w, rc);
        d = b->ptr + b->len;
    } else {
        d += i;
    }
    *d++ = '"';
    if (suffix)
        *d++ = suffix;
    *d = '\0';
    b->len = (size_t)(d - b->ptr);
    return 0;
}

int floe__jw_key(floe_jw *w, const char *key)
{
    if (w->err)
        return w->err;
    if (w->depth == 0 || w->kind[w->depth - 1] != 'o' || w->after_key)
        return misuse(w, "a key outside an object");
    char comma = w->count[w->depth - 1] ? ',' : 0;
    w->count[w->depth - 1] = 1;
    FLOE_TRY(put_string(w, comma, key, strlen(key), ':'));
    w->after_key = true;
    return 0;
}

int floe__jw_strn(floe_jw *w, const char *s, size_t len)
{
    FLOE_TRY(before_value(w));
    return put_string(w, 0, s, len, 0);
}

int floe__jw_str(floe_jw *w, const char *s)
{
    if (!s)
        return floe__jw_null(w);
    return floe__jw_strn(w, s, strlen(s));
}

/* A small formatter instead of printf: a table with 10,000 snapshots
 * writes ~100,000 integers per commit. */
int floe__jw_int(floe_jw *w, int64_t v)
{
    FLOE_TRY(before_value(w));
    char tmp[24];
    char *p = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    return put(w, p, (size_t)(tmp + sizeof tmp - p));
}

int floe__jw_double(floe_jw *w, double v)
{
    if (w->err)
        return w->err;
    if (!isfinite(v))
        return misuse(w, "NaN and infinity have no JSON form");
    FLOE_TRY(before_value(w));
    char tmp[40];
    int n = 0;
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    /* keep it a JSON number that reads as floating point */
    if (!strpbrk(tmp, ".eE") && n + 2 < (int)sizeof tmp) {
        memcpy(tmp + n, ".0", 3);
        n += 2;
    }
    return put(w, tmp, (size_t)n);
}

int floe__jw_bool(floe_jw *w, bool v)
{
    FLOE_TRY(before_value(w));
    return v ? put(w, "true", 4) : put(w, "false", 5);
}

int floe__jw_null(floe_jw *w)
{
    FLOE_TRY(before_value(w));
    return put(w, "null", 4);
}

int floe__jw_begin_raw(floe_jw *w)
{
    return before_value(w);
}

int floe__jw_raw(floe_jw *w, const char *json, size_t len)
{
    FLOE_TRY(before_value(w));
    return put(w, json, len);
}

int floe__jw_kstr(floe_jw *w, const char *key, const char *s)
{
    FLOE_TRY(floe__jw_key(w, key));
    return floe__jw_str(w, s);
}

int floe__jw_kint(floe_jw *w, const char *key, int64_t v)
{
    FLOE_TRY(floe__jw_key(w, key));
    return floe__jw_int(w, v);
}

int floe__jw_kdouble(floe_jw *w, const char *key, double v)
{
    FLOE_TRY(floe__jw_key(w, key));
    return floe__jw_double(w, v);
}

int floe__jw_kbool(floe_jw *w, const char *key, bool v)
{
    FLOE_TRY(floe__jw_key(w, key));
    return floe__jw_bool(w, v);
}

int floe__jw_kv_object(floe_jw *w, const floe_kv *kv, size_t n)
{
    FLOE_TRY(floe__jw_obj(w));
    for (size_t i = 0; i < n; i++)
        FLOE_TRY(floe__jw_kstr(w, kv[i].key, kv[i].value));
    return floe__jw_obj_end(w);
}
