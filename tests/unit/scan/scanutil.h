/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by the scan tests: open a fixture table with a location
 * map, run a scan and collect its rows as text ("a|b|c").
 */
#ifndef FLOE_TEST_SCANUTIL_H
#define FLOE_TEST_SCANUTIL_H

#include "arrow/arrow.h"
#include "floe/io.h"
#include "floe/scan.h"
#include "harness.h"
#include "scan/scan.h"
#include "spec/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rows {
    size_t n;
    char **row;
    size_t cap;
} rows;

static inline void rows_free(rows *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->row[i]);
    free(r->row);
    r->n = 0;
    r->cap = 0;
    r->row = NULL;
}

static inline int cell_format(floe_buf *b, const struct ArrowArray *a, const struct ArrowSchema *s,
                              int64_t i);

/* Iceberg-ish type from an Arrow format string, for formatting cells. */
static inline int fmt_type(const char *f, floe_type *t)
{
    memset(t, 0, sizeof *t);
    if (!strcmp(f, "b")) t->id = FLOE_T_BOOLEAN;
    else if (!strcmp(f, "i")) t->id = FLOE_T_INT;
    else if (!strcmp(f, "l")) t->id = FLOE_T_LONG;
    else if (!strcmp(f, "f")) t->id = FLOE_T_FLOAT;
    else if (!strcmp(f, "g")) t->id = FLOE_T_DOUBLE;
    else if (!strncmp(f, "d:", 2)) {
        t->id = FLOE_T_DECIMAL;
        sscanf(f + 2, "%d,%d", &t->precision, &t->scale);
    } else if (!strcmp(f, "tdD")) t->id = FLOE_T_DATE;
    else if (!strcmp(f, "ttu")) t->id = FLOE_T_TIME;
    else if (!strcmp(f, "tsu:")) t->id = FLOE_T_TIMESTAMP;
    else if (!strncmp(f, "tsu:", 4)) t->id = FLOE_T_TIMESTAMPTZ;
    else if (!strcmp(f, "u")) t->id = FLOE_T_STRING;
    else if (!strcmp(f, "z")) t->id = FLOE_T_BINARY;
    else if (!strcmp(f, "w:16")) t->id = FLOE_T_UUID;
    else if (!strncmp(f, "w:", 2)) {
        t->id = FLOE_T_FIXED;
        t->length = atoi(f + 2);
    } else return -1;
    return 0;
}

static inline int cell_format(floe_buf *b, const struct ArrowArray *a, const struct ArrowSchema *s,
                              int64_t i)
{
    if (!strcmp(s->format, "+l")) {
        if (!floe__arrow_is_valid(a, i))
            return floe__buf_puts(b, "null");
        const int32_t *off = (const int32_t *)a->buffers[1] + a->offset;
        floe__buf_putc(b, '[');
        for (int32_t j = off[i]; j < off[i + 1]; j++) {
            if (j > off[i])
                floe__buf_putc(b, ',');
            cell_format(b, a->children[0], s->children[0], j);
        }
        return floe__buf_putc(b, ']');
    }
    floe_type t;
    if (fmt_type(s->format, &t) < 0)
        return floe__buf_printf(b, "<%s>", s->format);
    floe_value v;
    if (floe__arrow_value_at(a, &t, i, &v) < 0)
        return -1;
    if (!v.is_null && (v.type == FLOE_T_DOUBLE || v.type == FLOE_T_FLOAT)) {
        /* shortest text that reads back (within the type's precision) */
        double d = v.type == FLOE_T_FLOAT ? (double)v.v.f32 : v.v.f64;
        char tmp[64];
        snprintf(tmp, sizeof tmp, v.type == FLOE_T_FLOAT ? "%.7g" : "%.15g", d);
        if (!strpbrk(tmp, ".eEn"))
            strcat(tmp, ".0");
        return floe__buf_puts(b, tmp);
    }
    return floe_value_format(&v, b);
}

/* Drain a stream into rows. Returns 0 or the stream's error code. */
static inline int drain(struct ArrowArrayStream *st, rows *out, char *err, size_t errlen)
{
    struct ArrowSchema sch;
    int rc = st->get_schema(st, &sch);
    if (rc)
        return rc;
    for (;;) {
        struct ArrowArray b;
        rc = st->get_next(st, &b);
        if (rc) {
            if (err)
                snprintf(err, errlen, "%s", st->get_last_error(st) ? st->get_last_error(st) : "?");
            break;
        }
        if (!b.release)
            break;
        for (int64_t i = 0; i < b.length; i++) {
            floe_buf line = FLOE_BUF_INIT;
            for (int64_t c = 0; c < b.n_children; c++) {
                if (c)
                    floe__buf_putc(&line, '|');
                cell_format(&line, b.children[c], sch.children[c], i);
            }
            if (out->n == out->cap) {
                out->cap = out->cap ? out->cap * 2 : 64;
                out->row = realloc(out->row, out->cap * sizeof(char *));
            }
            out->row[out->n++] = strdup(line.ptr ? line.ptr : "");
            floe__buf_free(&line);
        }
        b.release(&b);
    }
    sch.release(&sch);
    return rc;
}

static inline int rows_has(const rows *r, const char *s)
{
    int n = 0;
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->row[i], s))
            n++;
    return n;
}

static inline int rows_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline void rows_sort(rows *r)
{
    if (r->n)
        qsort(r->row, r->n, sizeof(char *), rows_cmp);
}

/* The same multiset of rows? (sorts both) */
static inline bool same_rows(rows *a, rows *b)
{
    rows_sort(a);
    rows_sort(b);
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->row[i], b->row[i]))
            return false;
    return true;
}

static inline void rows_dump(const rows *r)
{
    for (size_t i = 0; i < r->n; i++)
        fprintf(stderr, "  row %zu: %s\n", i, r->row[i]);
}

/* FileIO mapping `location` to the fixture directory `dir`. */
static inline floe_fileio *fixture_io(const char *location, const char *dir)
{
    floe_props conf = FLOE_PROPS_INIT;
    char spec[8192];
    snprintf(spec, sizeof spec, "%s=%s", location, dir);
    floe__props_set(&conf, "io.location-map", spec);
    floe_fileio *io = NULL;
    if (floe_fileio_open(&io, "file", &conf) < 0)
        io = NULL;
    floe__props_free(&conf);
    return io;
}

#endif
