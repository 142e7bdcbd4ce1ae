/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/json: a small, strict JSON (RFC 8259) parser building a tree in one
 * arena, and typed member access whose messages name the field (so a user
 * can find it in the file). Our own parser rather than jansson because the
 * metadata of a busy table (10,000+ snapshots) is parsed on every commit:
 * bump allocation and no per-object hash tables make it several times faster
 * and smaller. Integers are exact 64-bit; larger ones are rejected (ids must
 * not silently lose precision); other numbers are doubles.
 */
#include "spec/spec.h"
#include "util/json_writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct jparser {
    const char *p, *start, *end;
    floe_arena *a;
    floe_strpool pool;
    const char *what;
    /* Scratch stack of children of the containers being parsed: a container
     * copies its children into the arena once their count is known. */
    floe_json *stack;
    const char **kstack;
    size_t top, cap;
    int depth;
    const char *const *lazy_keys; /* root members to scan only */
    size_t nlazy;
    const char *doc; /* document start, for error positions */
} jparser;

typedef struct jdoc {
    floe_arena *arena;
    floe_json root;
} jdoc;

static int jerr(jparser *j, const char *msg)
{
    const char *doc = j->doc ? j->doc : j->start;
    size_t off = (size_t)(j->p - doc);
    int line = 1, col = 1;
    for (const char *q = doc; q < j->p; q++) {
        if (*q == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    return floe__error(FLOE_ECORRUPT, "json", "%s: malformed JSON at line %d column %d (offset %zu): %s",
                       j->what, line, col, off, msg);
}

static void skip_ws(jparser *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t'))
        j->p++;
}

static int push(jparser *j, const char *key, floe_json **slot)
{
    if (j->top == j->cap) {
        size_t cap = j->cap ? j->cap * 2 : 256;
        floe_json *s = floe__realloc(j->stack, cap * sizeof *s);
        if (!s)
            return floe__error_nomem();
        j->stack = s;
        const char **k = floe__realloc(j->kstack, cap * sizeof *k);
        if (!k)
            return floe__error_nomem();
        j->kstack = k;
        j->cap = cap;
    }
    j->kstack[j->top] = key;
    *slot = &j->stack[j->top++];
    return 0;
}

static int hex4(const char *p, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (uint32_t)(c - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

/* At the opening quote. Returns an arena copy with escapes decoded. */
static int parse_string(jparser *j, const char **out, uint32_t *out_len)
{
    const char *s = ++j->p;
    bool escaped = false;
    while (j->p < j->end && *j->p != '"') {
        unsigned char c = (unsigned char)*j->p;
        if (c < 0x20)
            return jerr(j, "control character in string");
        if (c == '\\') {
            escaped = true;
            j->p++;
            if (j->p >= j->end)
                break;
        }
        j->p++;
    }
    if (j->p >= j->end)
        return jerr(j, "unterminated string");
    size_t raw = (size_t)(j->p - s);
    if (raw > UINT32_MAX)
        return jerr(j, "string too long");
    j->p++; /* closing quote */
    if (!escaped) {
        char *c = floe__strpool_dup(&j->pool, s, raw);
        if (!c)
            return floe__error_nomem();
        *out = c;
        *out_len = (uint32_t)raw;
        return 0;
    }
    char *d = floe__arena_alloc(j->a, raw + 1); /* decoded is never longer */
    if (!d)
        return floe__error_nomem();
    size_t n = 0;
    for (const char *q = s; q < s + raw;) {
        if (*q != '\\') {
            d[n++] = *q++;
            continue;
        }
        q++;
        char e = *q++;
        switch (e) {
        case '"': d[n++] = '"'; break;
        case '\\': d[n++] = '\\'; break;
        case '/': d[n++] = '/'; break;
        case 'b': d[n++] = '\b'; break;
        case 'f': d[n++] = '\f'; break;
        case 'n': d[n++] = '\n'; break;
        case 'r': d[n++] = '\r'; break;
        case 't': d[n++] = '\t'; break;
        case 'u': {
            uint32_t cp, lo;
            if (s + raw - q < 4 || hex4(q, &cp) < 0) {
                j->p = q;
                return jerr(j, "invalid \\u escape");
            }
            q += 4;
            if (cp >= 0xd800 && cp <= 0xdbff) {
                if (s + raw - q < 6 || q[0] != '\\' || q[1] != 'u' || hex4(q + 2, &lo) < 0 ||
                    lo < 0xdc00 || lo > 0xdfff) {
                    j->p = q;
                    return jerr(j, "invalid surrogate pair");
                }
                q += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                j->p = q;
                return jerr(j, "invalid surrogate pair");
            }
            /* UTF-8: at most 4 bytes for the 6+ bytes of escape consumed */
            if (cp < 0x80) {
                d[n++] = (char)cp;
            } else if (cp < 0x800) {
                d[n++] = (char)(0xc0 | cp >> 6);
                d[n++] = (char)(0x80 | (cp & 0x3f));
            } else if (cp < 0x10000) {
                d[n++] = (char)(0xe0 | cp >> 12);
                d[n++] = (char)(0x80 | ((cp >> 6) & 0x3f));
                d[n++] = (char)(0x80 | (cp & 0x3f));
            } else {
                d[n++] = (char)(0xf0 | cp >> 18);
                d[n++] = (char)(0x80 | ((cp >> 12) & 0x3f));
                d[n++] = (char)(0x80 | ((cp >> 6) & 0x3f));
                d[n++] = (char)(0x80 | (cp & 0x3f));
            }
            break;
        }
        default: j->p = q - 1; return jerr(j, "invalid escape");
        }
    }
    d[n] = '\0';
    *out = d;
    *out_len = (uint32_t)n;
    return 0;
}

static int parse_number(jparser *j, floe_json *v)
{
    const char *s = j->p;
    bool neg = false, real = false;
    if (j->p < j->end && *j->p == '-') {
        neg = true;
        j->p++;
    }
    if (j->p >= j->end || *j->p < '0' || *j->p > '9')
        return jerr(j, "invalid number");
    if (*j->p == '0' && j->p + 1 < j->end && j->p[1] >= '0' && j->p[1] <= '9')
        return jerr(j, "leading zero in number");
    uint64_t u = 0;
    bool overflow = false;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
        unsigned dgt = (unsigned)(*j->p++ - '0');
        if (u > (UINT64_MAX - dgt) / 10)
            overflow = true;
        else
            u = u * 10 + dgt;
    }
    if (j->p < j->end && *j->p == '.') {
        real = true;
        j->p++;
        if (j->p >= j->end || *j->p < '0' || *j->p > '9')
            return jerr(j, "invalid number");
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
            j->p++;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        real = true;
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
            j->p++;
        if (j->p >= j->end || *j->p < '0' || *j->p > '9')
            return jerr(j, "invalid number");
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
            j->p++;
    }
    if (!real) {
        if (overflow || u > (uint64_t)INT64_MAX + (neg ? 1 : 0)) {
            j->p = s;
            return jerr(j, "integer too big for 64 bits");
        }
        v->type = FLOE_JSON_INTEGER;
        v->u.i = neg ? (int64_t)(0 - u) : (int64_t)u;
        return 0;
    }
    char tmp[64];
    size_t len = (size_t)(j->p - s);
    if (len >= sizeof tmp) {
        /* long literal: strtod needs a terminated copy */
        char *c = floe__arena_strndup(j->a, s, len);
        if (!c)
            return floe__error_nomem();
        v->u.d = strtod(c, NULL);
    } else {
        memcpy(tmp, s, len);
        tmp[len] = '\0';
        v->u.d = strtod(tmp, NULL);
    }
    if (!isfinite(v->u.d)) {
        j->p = s;
        return jerr(j, "number out of range");
    }
    v->type = FLOE_JSON_REAL;
    return 0;
}

static bool literal(jparser *j, const char *word, size_t n)
{
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
        return false;
    j->p += n;
    return true;
}

static int parse_value(jparser *j, floe_json *v);

static bool is_lazy(const jparser *j, const char *key)
{
    if (j->depth != 1 || !key)
        return false;
    for (size_t i = 0; i < j->nlazy; i++)
        if (strcmp(j->lazy_keys[i], key) == 0)
            return true;
    return false;
}

/* At '[': find the matching ']' (respecting strings) and count the
 * top-level elements; the elements themselves are validated later. */
static int scan_array(jparser *j, floe_json *v)
{
    const char *s = j->p;
    size_t commas = 0;
    bool any = false;
    int depth = 0;
    for (; j->p < j->end; j->p++) {
        char c = *j->p;
        if (c == '"') {
            for (j->p++; j->p < j->end && *j->p != '"'; j->p++)
                if (*j->p == '\\')
                    j->p++;
            if (j->p >= j->end)
                break;
            any = true;
        } else if (c == '[' || c == '{') {
            if (++depth > FLOE_JSON_MAX_DEPTH)
                return jerr(j, "nesting too deep");
            if (depth > 1)
                any = true;
        } else if (c == ']' || c == '}') {
            if (--depth == 0) {
                if (c != ']')
                    return jerr(j, "expected ',' or ']'");
                j->p++;
                floe_json_raw *raw = floe__arena_alloc(j->a, sizeof *raw);
                if (!raw)
                    return floe__error_nomem();
                raw->doc = j->doc ? j->doc : j->start;
                raw->start = s;
                raw->end = j->p;
                raw->count = any ? commas + 1 : 0;
                v->type = FLOE_JSON_LAZY;
                v->u.raw = raw;
                return 0;
            }
        } else if (c == ',' && depth == 1) {
            commas++;
        } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            any = true;
        }
    }
    j->p = s;
    return jerr(j, "unterminated array");
}

static int parse_container(jparser *j, floe_json *v, bool object)
{
    if (++j->depth > FLOE_JSON_MAX_DEPTH)
        return jerr(j, "nesting too deep");
    j->p++; /* [ or { */
    size_t base = j->top;
    char close = object ? '}' : ']';
    skip_ws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
    } else {
        for (;;) {
            const char *key = NULL;
            skip_ws(j);
            if (object) {
                uint32_t klen;
                if (j->p >= j->end || *j->p != '"')
                    return jerr(j, "expected a member name");
                FLOE_TRY(parse_string(j, &key, &klen));
                skip_ws(j);
                if (j->p >= j->end || *j->p != ':')
                    return jerr(j, "expected ':'");
                j->p++;
            }
            size_t idx = j->top;
            floe_json *slot;
            FLOE_TRY(push(j, key, &slot));
            (void)slot;
            /* parse into a local: the stack may move while the child grows it */
            floe_json child;
            memset(&child, 0, sizeof child);
            skip_ws(j);
            if (j->nlazy && j->p < j->end && *j->p == '[' && is_lazy(j, key))
                FLOE_TRY(scan_array(j, &child));
            else
                FLOE_TRY(parse_value(j, &child));
            j->stack[idx] = child;
            skip_ws(j);
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                continue;
            }
            if (j->p < j->end && *j->p == close) {
                j->p++;
                break;
            }
            return jerr(j, object ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    size_t n = j->top - base;
    if (n > UINT32_MAX)
        return jerr(j, "too many members");
    v->type = object ? FLOE_JSON_OBJECT : FLOE_JSON_ARRAY;
    v->n = (uint32_t)n;
    if (n) {
        v->u.items = floe__arena_memdup(j->a, j->stack + base, n * sizeof *v->u.items);
        if (!v->u.items)
            return floe__error_nomem();
        if (object) {
            v->keys = floe__arena_memdup(j->a, j->kstack + base, n * sizeof *v->keys);
            if (!v->keys)
                return floe__error_nomem();
        }
    }
    j->top = base;
    j->depth--;
    return 0;
}

static int parse_value(jparser *j, floe_json *v)
{
    skip_ws(j);
    if (j->p >= j->end)
        return jerr(j, "unexpected end of input");
    switch (*j->p) {
    case '{': return parse_container(j, v, true);
    case '[': return parse_container(j, v, false);
    case '"': v->type = FLOE_JSON_STRING; return parse_string(j, &v->u.s, &v->n);
    case 't':
        if (!literal(j, "true", 4))
            break;
        v->type = FLOE_JSON_TRUE;
        return 0;
    case 'f':
        if (!literal(j, "false", 5))
            break;
        v->type = FLOE_JSON_FALSE;
        return 0;
    case 'n':
        if (!literal(j, "null", 4))
            break;
        v->type = FLOE_JSON_NULL;
        return 0;
    default:
        if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
            return parse_number(j, v);
        break;
    }
    return jerr(j, "unexpected character");
}

int floe__json_parse(floe_json **out, const void *data, size_t len, const char *what)
{
    return floe__json_parse_lazy(out, data, len, what, NULL, 0);
}

int floe__json_parse_lazy(floe_json **out, const void *data, size_t len, const char *what,
                          const char *const *lazy_keys, size_t nlazy)
{
    *out = NULL;
    floe_arena *a = floe__arena_new(len < 4096 ? 4096 : len > (1u << 20) ? (1u << 20) : len);
    if (!a)
        return floe__error_nomem();
    jdoc *doc = floe__arena_calloc(a, 1, sizeof *doc);
    if (!doc) {
        floe__arena_free(a);
        return floe__error_nomem();
    }
    doc->arena = a;
    jparser j = {data, data, (const char *)data + len, a, {a, NULL, 0}, what ? what : "JSON",
                 NULL, NULL, 0, 0, 0, lazy_keys, nlazy, data};
    int rc = parse_value(&j, &doc->root);
    if (rc == 0) {
        skip_ws(&j);
        if (j.p != j.end)
            rc = jerr(&j, "trailing characters after the JSON value");
    }
    floe__free(j.stack);
    floe__free(j.kstack);
    if (rc < 0) {
        floe__arena_free(a);
        return rc;
    }
    *out = &doc->root;
    return 0;
}

int floe__json_parse_scratch(floe_json *out, floe_json_scratch *sc, const void *data, size_t len,
                             const char *what)
{
    memset(out, 0, sizeof *out);
    if (!sc->a && !(sc->a = floe__arena_new(16384)))
        return floe__error_nomem();
    floe__arena_reset(sc->a);
    jparser j = {data, data, (const char *)data + len, sc->a, {sc->a, NULL, 0},
                 what ? what : "JSON", sc->stack, sc->kstack, 0, sc->cap, 0, NULL, 0, data};
    int rc = parse_value(&j, out);
    if (rc == 0) {
        skip_ws(&j);
        if (j.p != j.end)
            rc = jerr(&j, "trailing characters after the JSON value");
    }
    sc->stack = j.stack;
    sc->kstack = j.kstack;
    sc->cap = j.cap;
    return rc;
}

void floe__json_scratch_free(floe_json_scratch *sc)
{
    floe__arena_free(sc->a);
    floe__free(sc->stack);
    floe__free(sc->kstack);
    memset(sc, 0, sizeof *sc);
}

size_t floe__json_count(const floe_json *j)
{
    if (j && j->type == FLOE_JSON_LAZY)
        return j->u.raw->count;
    return floe__json_is_array(j) ? j->n : 0;
}

int floe__json_each(const floe_json *j, const char *what,
                    int (*fn)(const floe_json *elem, size_t i, void *payload), void *payload)
{
    if (floe__json_is_array(j)) {
        for (size_t i = 0; i < j->n; i++)
            FLOE_TRY(fn(&j->u.items[i], i, payload));
        return 0;
    }
    if (!j || j->type != FLOE_JSON_LAZY)
        return 0;
    const floe_json_raw *raw = j->u.raw;
    floe_arena *a = floe__arena_new(16384);
    if (!a)
        return floe__error_nomem();
    jparser jp = {raw->start + 1, raw->start, raw->end, a, {a, NULL, 0}, what ? what : "JSON",
                  NULL, NULL, 0, 0, 1, NULL, 0, raw->doc};
    int rc = 0;
    size_t i = 0;
    skip_ws(&jp);
    if (jp.p < jp.end && *jp.p == ']') {
        jp.p++;
    } else {
        for (;;) {
            floe_json e;
            memset(&e, 0, sizeof e);
            if ((rc = parse_value(&jp, &e)) < 0)
                break;
            if ((rc = fn(&e, i++, payload)) < 0)
                break;
            floe__arena_reset(a);
            jp.pool = (floe_strpool){a, NULL, 0};
            skip_ws(&jp);
            if (jp.p < jp.end && *jp.p == ',') {
                jp.p++;
                continue;
            }
            if (jp.p < jp.end && *jp.p == ']') {
                jp.p++;
                break;
            }
            rc = jerr(&jp, "expected ',' or ']'");
            break;
        }
    }
    if (rc == 0 && i != raw->count)
        rc = jerr(&jp, "malformed array");
    floe__free(jp.stack);
    floe__free(jp.kstack);
    floe__arena_free(a);
    return rc;
}

void floe__json_free(floe_json *root)
{
    if (!root)
        return;
    jdoc *doc = (jdoc *)(void *)((char *)root - offsetof(jdoc, root));
    floe__arena_free(doc->arena);
}

char *floe__strpool_dup(floe_strpool *p, const char *s, size_t n)
{
    if (n >= 1024) {
        char *big = floe__arena_strndup(p->a, s, n);
        if (!big)
            floe__error_nomem();
        return big;
    }
    if (p->left < n + 1) {
        if (!(p->cur = floe__arena_alloc(p->a, 16384))) {
            p->left = 0;
            floe__error_nomem();
            return NULL;
        }
        p->left = 16384;
    }
    char *r = p->cur;
    memcpy(r, s, n);
    r[n] = '\0';
    p->cur += n + 1;
    p->left -= n + 1;
    return r;
}

char *floe__strpool_alloc(floe_strpool *p, size_t n)
{
    if (n >= 1024) {
        char *big = floe__arena_alloc(p->a, n);
        if (!big)
            floe__error_nomem();
        return big;
    }
    if (p->left < n) {
        if (!(p->cur = floe__arena_alloc(p->a, 16384))) {
            p->left = 0;
            floe__error_nomem();
            return NULL;
        }
        p->left = 16384;
    }
    char *r = p->cur;
    p->cur += n;
    p->left -= n;
    return r;
}

floe_json *floe__json_get(const floe_json *o, const char *key)
{
    if (!floe__json_is_object(o))
        return NULL;
    for (uint32_t i = 0; i < o->n; i++)
        if (strcmp(o->keys[i], key) == 0)
            return &o->u.items[i];
    return NULL;
}

static int missing(const char *key, const char *ctx)
{
    return floe__error(FLOE_EINVALID, "json", "missing required field '%s' in %s", key, ctx);
}

static int wrong(const char *key, const char *ctx, const char *want)
{
    return floe__error(FLOE_EINVALID, "json", "field '%s' in %s must be %s", key, ctx, want);
}

int floe__json_int_opt(const floe_json *o, const char *key, const char *ctx, int64_t *out,
                       bool *present)
{
    floe_json *v = floe__json_get(o, key);
    *present = false;
    if (!v || floe__json_is_null(v))
        return 0;
    if (!floe__json_is_integer(v))
        return wrong(key, ctx, "an integer");
    *out = (int64_t)floe__json_ival(v);
    *present = true;
    return 0;
}

int floe__json_int(const floe_json *o, const char *key, const char *ctx, int64_t *out)
{
    bool present;
    FLOE_TRY(floe__json_int_opt(o, key, ctx, out, &present));
    return present ? 0 : missing(key, ctx);
}

int floe__json_i32(const floe_json *o, const char *key, const char *ctx, int32_t *out)
{
    int64_t v = 0;
    FLOE_TRY(floe__json_int(o, key, ctx, &v));
    if (v < INT32_MIN || v > INT32_MAX)
        return wrong(key, ctx, "a 32-bit integer");
    *out = (int32_t)v;
    return 0;
}

int floe__json_str_opt(const floe_json *o, const char *key, const char *ctx, floe_arena *a,
                       const char **out)
{
    floe_json *v = floe__json_get(o, key);
    *out = NULL;
    if (!v || floe__json_is_null(v))
        return 0;
    if (!floe__json_is_string(v))
        return wrong(key, ctx, "a string");
    *out = floe__arena_strndup(a, floe__json_sval(v), floe__json_slen(v));
    return *out ? 0 : floe__error_nomem();
}

int floe__json_str(const floe_json *o, const char *key, const char *ctx, floe_arena *a,
                   const char **out)
{
    FLOE_TRY(floe__json_str_opt(o, key, ctx, a, out));
    return *out ? 0 : missing(key, ctx);
}

int floe__json_bool_opt(const floe_json *o, const char *key, const char *ctx, bool *out,
                        bool *present)
{
    floe_json *v = floe__json_get(o, key);
    *present = false;
    if (!v || floe__json_is_null(v))
        return 0;
    if (!floe__json_is_boolean(v))
        return wrong(key, ctx, "a boolean");
    *out = floe__json_is_true(v);
    *present = true;
    return 0;
}

int floe__json_array_opt(const floe_json *o, const char *key, const char *ctx, floe_json **out)
{
    floe_json *v = floe__json_get(o, key);
    *out = NULL;
    if (!v || floe__json_is_null(v))
        return 0;
    if (!floe__json_is_array(v))
        return wrong(key, ctx, "an array");
    *out = v;
    return 0;
}

int floe__json_object_opt(const floe_json *o, const char *key, const char *ctx, floe_json **out)
{
    floe_json *v = floe__json_get(o, key);
    *out = NULL;
    if (!v || floe__json_is_null(v))
        return 0;
    if (!floe__json_is_object(v))
        return wrong(key, ctx, "an object");
    *out = v;
    return 0;
}

int floe__json_put_str(floe_buf *b, const char *s)
{
    FLOE_TRY(floe__buf_putc(b, '"'));
    FLOE_TRY(floe__buf_put_json_escaped(b, s, strlen(s)));
    return floe__buf_putc(b, '"');
}

int floe__json_write(floe_jw *w, const floe_json *j)
{
    switch (j->type) {
    case FLOE_JSON_NULL:
        return floe__jw_null(w);
    case FLOE_JSON_TRUE:
    case FLOE_JSON_FALSE:
        return floe__jw_bool(w, j->type == FLOE_JSON_TRUE);
    case FLOE_JSON_INTEGER:
        return floe__jw_int(w, j->u.i);
    case FLOE_JSON_REAL:
        return floe__jw_double(w, j->u.d);
    case FLOE_JSON_STRING:
        return floe__jw_strn(w, j->u.s, j->n);
    case FLOE_JSON_ARRAY:
        FLOE_TRY(floe__jw_arr(w));
        for (uint32_t i = 0; i < j->n; i++)
            FLOE_TRY(floe__json_write(w, &j->u.items[i]));
        return floe__jw_arr_end(w);
    case FLOE_JSON_OBJECT:
        FLOE_TRY(floe__jw_obj(w));
        for (uint32_t i = 0; i < j->n; i++) {
            FLOE_TRY(floe__jw_key(w, j->keys[i]));
            FLOE_TRY(floe__json_write(w, &j->u.items[i]));
        }
        return floe__jw_obj_end(w);
    case FLOE_JSON_LAZY:
        return floe__jw_raw(w, j->u.raw->start, (size_t)(j->u.raw->end - j->u.raw->start));
    }
    return floe__error(FLOE_EINVALID, "json", "unknown JSON value type %d", (int)j->type);
}
