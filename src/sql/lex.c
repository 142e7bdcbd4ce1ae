/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Spark/Iceberg SQL tokenizer: '..' strings with '' escapes, `..` and
 * ".." identifiers (doubled quote escapes), -- and nested bracketed comments,
 * numbers, X'..' blobs, multi-character operators (=> <> != <= >= || == <<
 * >> ::). Keywords are plain words compared case-insensitively by the
 * parser. Also the statement splitter's building block and the REPL's
 * "statement complete?" test, and the error helpers that report a byte
 * position, line, column and the offending text.
 */
#include "sql/sqlfront_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static _Thread_local size_t last_error_pos;

size_t floe__sql_error_pos(void)
{
    return last_error_pos;
}

bool floe__sql_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

int(floe__sql_err_at)(int code, const char *script, size_t pos, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos && script[i]; i++) {
        if (script[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    /* The offending text: up to 24 bytes of the rest of the line. */
    char near[32];
    size_t k = 0;
    const char *s = script + pos;
    while (k < 24 && s[k] && s[k] != '\n' && s[k] != '\r')
        k++;
    memcpy(near, s, k);
    near[k] = '\0';
    last_error_pos = pos;
    if (!*s)
        return floe__error(code, "sql", "%s at line %zu, column %zu (end of input)", msg, line,
                           col);
    return floe__error(code, "sql", "%s at line %zu, column %zu near \"%s\"", msg, line, col, near);
}

int(floe__sql_err_spark)(const char *script, size_t pos, const char *near)
{
    size_t line = 1, col = 0;
    for (size_t i = 0; i < pos && script[i]; i++) {
        if (script[i] == '\n') {
            line++;
            col = 0;
        } else {
            col++;
        }
    }
    last_error_pos = pos;
    if (!near)
        return floe__error(FLOE_EINVALID, "sql",
                           "[PARSE_SYNTAX_ERROR] Syntax error at or near end of input.(line %zu, "
                           "pos %zu)",
                           line, col);
    return floe__error(FLOE_EINVALID, "sql",
                       "[PARSE_SYNTAX_ERROR] Syntax error at or near '%s'.(line %zu, pos %zu)", near,
                       line, col);
}

static bool is_ident_start(unsigned char c)
{
    return isalpha(c) || c == '_' || c >= 0x80;
}

static bool is_ident_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

/* Skip whitespace and comments from s[i]; returns the new index or
 * (size_t)-1 with *unterminated set for an unterminated block comment. */
static size_t skip_space(const char *s, size_t i, bool *unterminated)
{
    for (;;) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            i++;
        } else if (c == '-' && s[i + 1] == '-') {
            while (s[i] && s[i] != '\n')
                i++;
        } else if (c == '/' && s[i + 1] == '*') {
            /* Spark nests bracketed comments. */
            size_t start = i, depth = 0;
            do {
                if (s[i] == '/' && s[i + 1] == '*') {
                    depth++;
                    i += 2;
                } else if (s[i] == '*' && s[i + 1] == '/') {
                    depth--;
                    i += 2;
                } else if (!s[i]) {
                    *unterminated = true;
                    return start;
                } else {
                    i++;
                }
            } while (depth > 0);
        } else {
            return i;
        }
    }
}

/* Scan a quoted run starting at s[i] (the quote). Returns the index past the
 * closing quote, or 0 when unterminated. Identifiers double their quote
 * character; a '...' string is Spark's: a backslash escapes the next
 * character and '' is two literals (an expression concatenates them). */
static size_t scan_quoted(const char *s, size_t i, char q)
{
    i++;
    for (;;) {
        if (!s[i])
            return 0;
        if (q == '\'' && s[i] == '\\') {
            if (!s[i + 1])
                return 0;
            i += 2;
            continue;
        }
        if (s[i] == q) {
            if (q != '\'' && s[i + 1] == q) {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i++;
    }
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* UTF-8 of code point cp into o; bytes written (0: not a valid one). */
static size_t utf8(unsigned long cp, char *o)
{
    if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* One backslash escape of a string literal at s[i] (the character after
 * the backslash), as Spark's unescapeSQLString: \uXXXX, \UXXXXXXXX,
 * three octal digits, \b \n \r \t \Z, \% and \_ kept with their
 * backslash (LIKE patterns), any other character itself. Writes into o,
 * returns the bytes written; *used is the characters consumed. */
static size_t unescape(const char *s, size_t i, size_t end, char *o, size_t *used)
{
    char c = s[i];
    size_t hex = c == 'u' ? 4 : c == 'U' ? 8 : 0;
    if (hex && i + hex < end) {
        unsigned long cp = 0;
        size_t k = 1;
        for (; k <= hex && hex_digit(s[i + k]) >= 0; k++)
            cp = cp * 16 + (unsigned long)hex_digit(s[i + k]);
        size_t n = k > hex ? utf8(cp, o) : 0;
        if (n) {
            *used = hex + 1;
            return n;
        }
    }
    if (c >= '0' && c <= '3' && i + 2 < end && s[i + 1] >= '0' && s[i + 1] <= '7' &&
        s[i + 2] >= '0' && s[i + 2] <= '7') {
        unsigned v = (unsigned)(c - '0') * 64 + (unsigned)(s[i + 1] - '0') * 8 +
                     (unsigned)(s[i + 2] - '0');
        size_t n = utf8(v, o);
        if (n) {
            *used = 3;
            return n;
        }
    }
    *used = 1;
    switch (c) {
    case 'b': o[0] = '\b'; return 1;
    case 'n': o[0] = '\n'; return 1;
    case 'r': o[0] = '\r'; return 1;
    case 't': o[0] = '\t'; return 1;
    case 'Z': o[0] = '\x1a'; return 1;
    case '%':
    case '_':
        o[0] = '\\';
        o[1] = c;
        return 2;
    default: o[0] = c; return 1;
    }
}

static char *unquote(floe_arena *a, const char *s, size_t start, size_t end, char q)
{
    /* start at the opening quote, end past the closing quote */
    char *o = floe__arena_alloc(a, 2 * (end - start) + 1);
    if (!o)
        return NULL;
    size_t k = 0;
    for (size_t i = start + 1; i + 1 < end; i++) {
        if (q == '\'' && s[i] == '\\' && i + 2 < end) {
            size_t used;
            k += unescape(s, i + 1, end - 1, o + k, &used);
            i += used;
            continue;
        }
        o[k++] = s[i];
        if (s[i] == q)
            i++; /* doubled quote */
    }
    o[k] = '\0';
    return o;
}

static const char *const ops3[] = {"<=>", NULL};
static const char *const ops2[] = {
    "=>", "->", "<>", "!=", "<=", ">=", "||", "==", "<<", ">>", "::", NULL};
static const char single_ops[] = "(),;.=<>+-*/%&|~[]:?{}^!";

/* Lex one token at s[i] (not whitespace). */
static int lex_one(floe_arena *a, const char *s, size_t i, sql_tok *t)
{
    unsigned char c = (unsigned char)s[i];
    t->pos = i;
    if ((c == 'x' || c == 'X') && s[i + 1] == '\'') {
        size_t e = scan_quoted(s, i + 1, '\'');
        if (!e)
            return floe__sql_err_at(FLOE_EINVALID, s, i, "unterminated blob literal");
        for (size_t k = i + 2; k + 1 < e; k++)
            if (!isxdigit((unsigned char)s[k]))
                return floe__sql_err_at(FLOE_EINVALID, s, i, "invalid blob literal");
        if ((e - i - 3) % 2)
            return floe__sql_err_at(FLOE_EINVALID, s, i, "invalid blob literal");
        t->kind = TK_BLOB;
        t->text = floe__arena_strndup(a, s + i + 2, e - i - 3);
        t->end = e;
    } else if (is_ident_start(c)) {
        size_t e = i;
        while (is_ident_char((unsigned char)s[e]))
            e++;
        t->kind = TK_WORD;
        t->text = floe__arena_strndup(a, s + i, e - i);
        t->end = e;
    } else if (isdigit(c) || (c == '.' && isdigit((unsigned char)s[i + 1]))) {
        size_t e = i;
        if (c == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') && isxdigit((unsigned char)s[i + 2])) {
            e = i + 2;
            while (isxdigit((unsigned char)s[e]))
                e++;
        } else {
            while (isdigit((unsigned char)s[e]))
                e++;
            if (s[e] == '.') {
                e++;
                while (isdigit((unsigned char)s[e]))
                    e++;
            }
            if ((s[e] == 'e' || s[e] == 'E') &&
                (isdigit((unsigned char)s[e + 1]) ||
                 ((s[e + 1] == '+' || s[e + 1] == '-') && isdigit((unsigned char)s[e + 2])))) {
                e += 2;
                while (isdigit((unsigned char)s[e]))
                    e++;
            }
        }
        size_t text_end = e;
        /* Spark's type suffixes (10L, 1S, 1Y, 1.5D, 2F, 1.5BD): t->suffix */
        bool integral = strcspn(s + i, ".eExX") >= text_end - i;
        char up = (char)toupper((unsigned char)s[e]);
        if ((up == 'L' || up == 'S' || up == 'Y') && integral &&
            !is_ident_char((unsigned char)s[e + 1])) {
            t->suffix = up; /* 10L, 1S, 1Y: integral types */
            e++;
        } else if ((up == 'D' || up == 'F') && strncasecmp(s + i, "0x", 2) != 0 &&
                   !is_ident_char((unsigned char)s[e + 1])) {
            t->suffix = up; /* 1.5D, 2F: double, float */
            e++;
        } else if (up == 'B' && (s[e + 1] == 'D' || s[e + 1] == 'd') &&
                   !is_ident_char((unsigned char)s[e + 2]) &&
                   strcspn(s + i, "eExX") >= text_end - i) { /* digits[.digits] only */
            t->suffix = 'B';
            e += 2;
        }
        if (is_ident_char((unsigned char)s[e]))
            return floe__sql_err_at(FLOE_EUNSUPPORTED, s, i, "unsupported numeric literal");
        t->kind = TK_NUMBER;
        t->text = floe__arena_strndup(a, s + i, text_end - i);
        t->end = e;
    } else if (c == '\'' || c == '`' || c == '"') {
        size_t e = scan_quoted(s, i, (char)c);
        if (!e)
            return floe__sql_err_at(FLOE_EINVALID, s, i,
                                    c == '\'' ? "unterminated string literal"
                                              : "unterminated quoted identifier");
        t->kind = c == '\'' ? TK_STRING : TK_QIDENT;
        t->text = unquote(a, s, i, e, (char)c);
        t->end = e;
        if (t->text && t->kind == TK_QIDENT && !t->text[0])
            return floe__sql_err_at(FLOE_EINVALID, s, i, "empty identifier");
    } else {
        t->kind = TK_OP;
        for (int k = 0; ops3[k]; k++) {
            if (!strncmp(s + i, ops3[k], 3)) {
                t->text = ops3[k];
                t->end = i + 3;
                t->len = 3;
                return 0;
            }
        }
        for (int k = 0; ops2[k]; k++) {
            if (s[i] == ops2[k][0] && s[i + 1] == ops2[k][1]) {
                t->text = ops2[k];
                t->end = i + 2;
                t->len = 2;
                return 0;
            }
        }
        if (!c || !strchr(single_ops, c))
            return floe__sql_err_at(FLOE_EINVALID, s, i, "unexpected character");
        t->text = floe__arena_strndup(a, s + i, 1);
        t->end = i + 1;
    }
    if (!t->text)
        return floe__error_nomem();
    t->len = strlen(t->text);
    return 0;
}

int floe__sql_lex_stmt(floe_arena *a, const char *script, size_t start, sql_tok **toks,
                       size_t *ntoks, size_t *next)
{
    size_t cap = 64, n = 0;
    sql_tok *v = floe__arena_alloc(a, cap * sizeof *v);
    if (!v)
        return floe__error_nomem();
    size_t i = start;
    for (;;) {
        bool unterminated = false;
        i = skip_space(script, i, &unterminated);
        if (unterminated) {
            *next = strlen(script);
            return floe__sql_err_at(FLOE_EINVALID, script, i, "unterminated comment");
        }
        if (n + 1 >= cap) {
            sql_tok *w = floe__arena_alloc(a, 2 * cap * sizeof *w);
            if (!w)
                return floe__error_nomem();
            memcpy(w, v, n * sizeof *v);
            v = w;
            cap *= 2;
        }
        if (!script[i])
            break;
        if (script[i] == ';') {
            i++;
            break;
        }
        sql_tok *t = &v[n];
        memset(t, 0, sizeof *t);
        int rc = lex_one(a, script, i, t);
        if (rc < 0) {
            /* Skip to the end of this statement so a REPL can go on. */
            size_t j = i;
            while (script[j] && script[j] != ';')
                j++;
            *next = script[j] ? j + 1 : j;
            return rc;
        }
        i = t->end;
        n++;
    }
    memset(&v[n], 0, sizeof v[n]);
    v[n].kind = TK_EOF;
    v[n].text = "";
    v[n].pos = i > start && script[i - 1] == ';' ? i - 1 : i;
    v[n].end = v[n].pos;
    *toks = v;
    *ntoks = n;
    *next = i;
    return 0;
}

bool floe__sql_is_complete(const char *text)
{
    if (!text)
        return false;
    size_t i = 0;
    bool any = false, last_semi = false;
    for (;;) {
        bool unterminated = false;
        i = skip_space(text, i, &unterminated);
        if (unterminated)
            return false;
        char c = text[i];
        if (!c)
            break;
        any = true;
        if (c == '\'' || c == '`' || c == '"') {
            size_t e = scan_quoted(text, i, c);
            if (!e)
                return false;
            i = e;
            last_semi = false;
        } else {
            last_semi = c == ';';
            i++;
        }
    }
    return any && last_semi;
}

int floe__sql_quote_ident(floe_buf *b, const char *name)
{
    FLOE_TRY(floe__buf_putc(b, '"'));
    for (const char *s = name; *s; s++) {
        if (*s == '"')
            FLOE_TRY(floe__buf_putc(b, '"'));
        FLOE_TRY(floe__buf_putc(b, *s));
    }
    return floe__buf_putc(b, '"');
}

int floe__sql_quote_string(floe_buf *b, const char *str)
{
    FLOE_TRY(floe__buf_putc(b, '\''));
    for (const char *s = str; *s; s++) {
        if (*s == '\'')
            FLOE_TRY(floe__buf_putc(b, '\''));
        FLOE_TRY(floe__buf_putc(b, *s));
    }
    return floe__buf_putc(b, '\'');
}
