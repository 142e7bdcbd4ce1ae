/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/ident: namespace and table names as the REST catalog carries them —
 * percent-encoded path segments whose namespace levels are separated by the
 * unit separator 0x1F (`%1F`, open-api/rest-catalog-open-api.yaml,
 * components/parameters/namespace) — plus the safety rules floe applies to
 * every name before it can reach a catalog or a storage path, and the small
 * owned lists backends return.
 */
#include "model.h"

#include <string.h>

/* A name is checked after all decoding, so "%2e%2e", "%2F" and friends are
 * caught here whatever their spelling on the wire. '%' itself is refused so
 * that no later layer can decode a name a second time into something else. */
int floe__rest_check_name(const char *s, size_t len, const char *what)
{
    if (len == 0)
        return floe__error(FLOE_EINVALID, "rest", "%s: empty name", what);
    if (len > FLOE_REST_MAX_NAME)
        return floe__error(FLOE_EINVALID, "rest", "%s: name longer than %d bytes", what,
                           FLOE_REST_MAX_NAME);
    if ((len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.'))
        return floe__error(FLOE_EINVALID, "rest", "%s: '.' and '..' are not valid names", what);
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f)
            return floe__error(FLOE_EINVALID, "rest", "%s: control character 0x%02x in name",
                               what, c);
        if (c == '/' || c == '\\' || c == '%')
            return floe__error(FLOE_EINVALID, "rest", "%s: character '%c' not allowed in name",
                               what, c);
        if (c < 0x80) {
            i++;
            continue;
        }
        /* Well-formed UTF-8 only: overlong forms could smuggle '/' or '.'. */
        size_t n;
        uint32_t cp;
        if (c >= 0xc2 && c <= 0xdf) {
            n = 2;
            cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 3;
            cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 4;
            cp = c & 0x07;
        } else {
            return floe__error(FLOE_EINVALID, "rest", "%s: invalid UTF-8 in name", what);
        }
        if (i + n > len)
            return floe__error(FLOE_EINVALID, "rest", "%s: invalid UTF-8 in name", what);
        for (size_t k = 1; k < n; k++) {
            unsigned char cc = (unsigned char)s[i + k];
            if ((cc & 0xc0) != 0x80)
                return floe__error(FLOE_EINVALID, "rest", "%s: invalid UTF-8 in name", what);
            cp = (cp << 6) | (cc & 0x3f);
        }
        if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f))
            return floe__error(FLOE_EINVALID, "rest", "%s: invalid UTF-8 in name", what);
        i += n;
    }
    return 0;
}

int floe__rest_percent_decode(floe_arena *a, const char *s, bool plus_is_space, char **out,
                              size_t *out_len)
{
    size_t len = strlen(s);
    char *d = floe__arena_alloc(a, len + 1);
    if (!d)
        return floe__error_nomem();
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '%') {
            int hi = i + 1 < len ? floe__hex_digit(s[i + 1]) : -1;
            int lo = i + 2 < len ? floe__hex_digit(s[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                return floe__error(FLOE_EINVALID, "rest", "malformed percent-escape in a path");
            d[o++] = (char)(hi * 16 + lo);
            i += 2;
            continue;
        }
        d[o++] = (plus_is_space && s[i] == '+') ? ' ' : s[i];
    }
    d[o] = '\0';
    *out = d;
    if (out_len)
        *out_len = o;
    return 0;
}

int floe__rest_namespace_split(floe_arena *a, const char *s, size_t len, char extra_sep,
                               floe_rest_namespace *out)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        if (s[i] == FLOE_REST_NS_SEP || (extra_sep && s[i] == extra_sep))
            n++;
    if (n > FLOE_REST_MAX_NS_DEPTH)
        return floe__error(FLOE_EINVALID, "rest", "namespace: more than %d levels",
                           FLOE_REST_MAX_NS_DEPTH);
    char **parts = floe__arena_calloc(a, n, sizeof *parts);
    if (!parts)
        return floe__error_nomem();
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || s[i] == FLOE_REST_NS_SEP || (extra_sep && s[i] == extra_sep)) {
            FLOE_TRY(floe__rest_check_name(s + start, i - start, "namespace"));
            parts[k] = floe__arena_strndup(a, s + start, i - start);
            if (!parts[k])
                return floe__error_nomem();
            k++;
            start = i + 1;
        }
    }
    out->parts = parts;
    out->n = k;
    return 0;
}

int floe__rest_namespace_join(floe_buf *b, const floe_rest_namespace *ns, char sep)
{
    for (size_t i = 0; i < ns->n; i++) {
        if (i && floe__buf_putc(b, sep) < 0)
            return FLOE_ENOMEM;
        if (floe__buf_puts(b, ns->parts[i]) < 0)
            return FLOE_ENOMEM;
    }
    if (ns->n == 0 && floe__buf_puts(b, "") < 0)
        return FLOE_ENOMEM;
    return 0;
}

int floe__rest_encode_segment(floe_buf *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    if (floe__buf_puts(b, "") < 0)
        return FLOE_ENOMEM;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '.' || c == '_' || c == '~';
        if (keep) {
            if (floe__buf_putc(b, (char)c) < 0)
                return FLOE_ENOMEM;
        } else {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            if (floe__buf_put(b, e, 3) < 0)
                return FLOE_ENOMEM;
        }
    }
    return 0;
}

int floe__rest_namespace_encode(floe_buf *b, const floe_rest_namespace *ns)
{
    for (size_t i = 0; i < ns->n; i++) {
        if (i && floe__buf_puts(b, "%1F") < 0)
            return FLOE_ENOMEM;
        FLOE_TRY(floe__rest_encode_segment(b, ns->parts[i]));
    }
    return 0;
}

int floe__rest_namespace_copy(floe_arena *a, floe_rest_namespace *dst,
                              const floe_rest_namespace *src)
{
    dst->n = 0;
    dst->parts = floe__arena_calloc(a, src->n ? src->n : 1, sizeof *dst->parts);
    if (!dst->parts)
        return floe__error_nomem();
    for (size_t i = 0; i < src->n; i++) {
        dst->parts[i] = floe__arena_strdup(a, src->parts[i]);
        if (!dst->parts[i])
            return floe__error_nomem();
    }
    dst->n = src->n;
    return 0;
}

bool floe__rest_namespace_eq(const floe_rest_namespace *x, const floe_rest_namespace *y)
{
    if (x->n != y->n)
        return false;
    for (size_t i = 0; i < x->n; i++)
        if (strcmp(x->parts[i], y->parts[i]) != 0)
            return false;
    return true;
}

/* ---------------------------------------------------------------- lists */

int floe__rest_strlist_add(floe_rest_strlist *l, const char *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        char **items = floe__realloc(l->items, cap * sizeof *items);
        if (!items)
            return floe__error_nomem();
        l->items = items;
        l->cap = cap;
    }
    char *c = floe__strdup(s);
    if (!c)
        return floe__error_nomem();
    l->items[l->n++] = c;
    return 0;
}

void floe__rest_strlist_free(floe_rest_strlist *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++)
        floe__free(l->items[i]);
    floe__free(l->items);
    l->items = NULL;
    l->n = l->cap = 0;
}

static int grow(floe_arena **arena, void **items, size_t *cap, size_t n, size_t size)
{
    if (!*arena) {
        *arena = floe__arena_new(4096);
        if (!*arena)
            return floe__error_nomem();
    }
    if (n < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 16;
    void *p = floe__realloc(*items, ncap * size);
    if (!p)
        return floe__error_nomem();
    *items = p;
    *cap = ncap;
    return 0;
}

int floe__rest_namespace_list_add(floe_rest_namespace_list *l, const floe_rest_namespace *ns)
{
    void *items = l->items;
    FLOE_TRY(grow(&l->arena, &items, &l->cap, l->n, sizeof *l->items));
    l->items = items;
    FLOE_TRY(floe__rest_namespace_copy(l->arena, &l->items[l->n], ns));
    l->n++;
    return 0;
}

void floe__rest_namespace_list_free(floe_rest_namespace_list *l)
{
    if (!l)
        return;
    floe__free(l->items);
    floe__arena_free(l->arena);
    memset(l, 0, sizeof *l);
}

int floe__rest_ident_list_add(floe_rest_ident_list *l, const floe_rest_ident *id)
{
    void *items = l->items;
    FLOE_TRY(grow(&l->arena, &items, &l->cap, l->n, sizeof *l->items));
    l->items = items;
    floe_rest_ident *d = &l->items[l->n];
    FLOE_TRY(floe__rest_namespace_copy(l->arena, &d->ns, &id->ns));
    d->name = floe__arena_strdup(l->arena, id->name);
    if (!d->name)
        return floe__error_nomem();
    l->n++;
    return 0;
}

void floe__rest_ident_list_free(floe_rest_ident_list *l)
{
    if (!l)
        return;
    floe__free(l->items);
    floe__arena_free(l->arena);
    memset(l, 0, sizeof *l);
}
