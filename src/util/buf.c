/* SPDX-License-Identifier: Apache-2.0 */
/* Growable byte buffers / string builders and growable arrays. */
#include "util.h"

#include <stdio.h>
#include <string.h>

int floe__buf_reserve(floe_buf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len - 1)
        return floe__error_nomem();
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    char *p = floe__realloc(b->ptr, cap);
    if (!p)
        return FLOE_ENOMEM;
    b->ptr = p;
    b->cap = cap;
    return 0;
}

int floe__buf_put(floe_buf *b, const void *data, size_t len)
{
    if (len >= b->cap - b->len) /* also when cap == 0: room for the NUL */
        FLOE_TRY(floe__buf_reserve(b, len));
    if (len)
        memcpy(b->ptr + b->len, data, len);
    b->len += len;
    b->ptr[b->len] = '\0';
    return 0;
}

int floe__buf_puts(floe_buf *b, const char *s)
{
    return floe__buf_put(b, s, strlen(s));
}

int floe__buf_putc(floe_buf *b, char c)
{
    if (b->cap - b->len < 2)
        FLOE_TRY(floe__buf_reserve(b, 1));
    b->ptr[b->len++] = c;
    b->ptr[b->len] = '\0';
    return 0;
}

int floe__buf_vprintf(floe_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return floe__error(FLOE_EINVALID, "buf", "bad format");
    if ((size_t)n < sizeof small)
        return floe__buf_put(b, small, (size_t)n);
    FLOE_TRY(floe__buf_reserve(b, (size_t)n));
    vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

int floe__buf_printf(floe_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = floe__buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

/* Bytes that need an escape in a JSON string: ", \ and the controls. */
static bool needs_escape(unsigned char c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

int floe__buf_put_json_escaped(floe_buf *b, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    /* metadata files write ~200,000 short strings per commit: scan first,
     * and copy a string without escapes in one go */
    size_t start = 0, i = 0;
    while (i < len && !needs_escape((unsigned char)s[i]))
        i++;
    if (i == len)
        return floe__buf_put(b, s, len);
    for (; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!needs_escape(c))
            continue;
        FLOE_TRY(floe__buf_put(b, s + start, i - start));
        char esc[7] = {'\\', 0, 0, 0, 0, 0, 0};
        size_t elen = 2;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        default:
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            elen = 6;
        }
        FLOE_TRY(floe__buf_put(b, esc, elen));
        start = i + 1;
    }
    return floe__buf_put(b, s + start, len - start);
}

void floe__buf_clear(floe_buf *b)
{
    b->len = 0;
    if (b->ptr)
        b->ptr[0] = '\0';
}

void floe__buf_free(floe_buf *b)
{
    floe__free(b->ptr);
    b->ptr = NULL;
    b->len = b->cap = 0;
}

char *floe__buf_detach(floe_buf *b)
{
    if (!b->ptr && floe__buf_reserve(b, 0) < 0)
        return NULL;
    /* reserve succeeded: ptr is set (the analyzer does not follow it) */
    b->ptr[b->len] = '\0'; /* NOLINT(clang-analyzer-core.NullDereference) */
    char *p = b->ptr;
    b->ptr = NULL;
    b->len = b->cap = 0;
    return p;
}

void *floe__vec_push(floe_vec *v)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 8;
        if (cap > SIZE_MAX / v->item_size) {
            floe__error_nomem();
            return NULL;
        }
        void *p = floe__realloc(v->items, cap * v->item_size);
        if (!p)
            return NULL;
        v->items = p;
        v->cap = cap;
    }
    void *slot = (char *)v->items + v->len * v->item_size;
    memset(slot, 0, v->item_size);
    v->len++;
    return slot;
}

void *floe__vec_at(const floe_vec *v, size_t i)
{
    return i < v->len ? (char *)v->items + i * v->item_size : NULL;
}

void floe__vec_free(floe_vec *v)
{
    floe__free(v->items);
    v->items = NULL;
    v->len = v->cap = 0;
}
