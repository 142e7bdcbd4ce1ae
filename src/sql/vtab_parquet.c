/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/vtab_parquet: the table-valued function
 *     read_parquet('path' [, 'path2' | array('p', ...) ...])
 * in FROM, as DuckDB's read_parquet: the rows of one or more Parquet files
 * (local paths, file:, s3:// — anything the session's FileIO opens), where a
 * path may be a glob (`*`, `?`, `[...]` within one path segment, `**` across
 * segments). The columns are the first file's top-level fields (names and
 * Iceberg types from the Parquet schema: parquet/schema.c's inference, the
 * spec's "Parquet" type mapping read backwards), exposed exactly as a data
 * table's columns (exec_data.c's floe__sql_stream_source: same SQLite types,
 * same cell conversion). Every further file must have the same column
 * names and types in the same order; otherwise the statement fails before
 * any row is read.
 *
 * The front end turns each call into a FLOE_SQLREF_TVF reference; the
 * executor builds the source once per statement (files listed and footers
 * checked then) and reads the files in order, one row group at a time, at
 * each open. Nested columns are refused, as for Iceberg tables.
 */
#include "floe/io.h"
#include "rows/rowsource.h"
#include "parquet/parquet.h"
#include "sql/exec_data.h"
#include "spec/spec.h"
#include "sql/exec_int.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

typedef struct pq_src {
    floe_fileio *io; /* the session's: outlives its virtual tables */
    floe_arena *arena;
    char **paths;
    size_t npaths;
    floe_schema schema; /* top-level primitive fields copied from the first file */
} pq_src;

/* ---------------------------------------------------------------- globs */

static bool is_glob(const char *p)
{
    return strpbrk(p, "*?[") != NULL;
}

typedef struct glob_ctx {
    const char *pattern;
    char *flat;       /* pattern with each "/ ** /" as "/": ** matching no segment */
    floe_vec *out;    /* char* (heap) */
} glob_ctx;

static bool glob_match(const glob_ctx *g, const char *uri)
{
    int flags = strstr(g->pattern, "**") ? 0 : FNM_PATHNAME;
    return fnmatch(g->pattern, uri, flags) == 0 ||
           (g->flat && fnmatch(g->flat, uri, flags) == 0);
}

static int glob_cb(const floe_file_info *info, void *payload)
{
    glob_ctx *g = payload;
    if (!glob_match(g, info->uri))
        return 0;
    char *copy = floe__strdup(info->uri);
    char **slot = copy ? floe__vec_push(g->out) : NULL;
    if (!slot) {
        floe__free(copy);
        return floe__error_nomem();
    }
    *slot = copy;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int floe__sql_parquet_glob(floe_fileio *io, const char *pattern, floe_vec *out)
{
    size_t before = out->len;
    if (!is_glob(pattern)) {
        char *copy = floe__strdup(pattern);
        char **slot = copy ? floe__vec_push(out) : NULL;
        if (!slot) {
            floe__free(copy);
            return floe__error_nomem();
        }
        *slot = copy;
        return 0;
    }
    /* list from the directory holding the first wildcard */
    size_t first = strcspn(pattern, "*?[");
    size_t plen = first;
    while (plen > 0 && pattern[plen - 1] != '/')
        plen--;
    char *prefix = floe__malloc(plen + 1);
    if (!prefix)
        return floe__error_nomem();
    memcpy(prefix, pattern, plen);
    prefix[plen] = 0;
    glob_ctx g = {pattern, NULL, out};
    int rc = 0;
    const char *dd = strstr(pattern, "/**/");
    if (dd) {
        size_t n = strlen(pattern);
        g.flat = floe__malloc(n + 1);
        if (!g.flat) {
            rc = floe__error_nomem();
        } else {
            memcpy(g.flat, pattern, (size_t)(dd - pattern));
            memcpy(g.flat + (dd - pattern), dd + 3,
                   n - (size_t)(dd - pattern) - 2); /* and the NUL */
        }
    }
    if (rc == 0)
        rc = floe_fileio_list(io, prefix, glob_cb, &g);
    floe__free(g.flat);
    floe__free(prefix);
    if (rc == 0 && out->len == before)
        rc = floe__error(FLOE_ENOTFOUND, "sql", "No files found that match the pattern \"%s\"",
                         pattern);
    if (rc == 0)
        qsort((char **)out->items + before, out->len - before, sizeof(char *), cmp_str);
    return rc;
}

/* ---------------------------------------------------------------- files */

static bool same_field(const floe_field *a, const floe_field *b);

/* Same type, nested types compared field by field (names and nullability;
 * field ids may differ between writers). */
static bool same_type(const floe_type *a, const floe_type *b)
{
    if (a->id != b->id || a->precision != b->precision || a->scale != b->scale ||
        a->length != b->length || a->nfields != b->nfields)
        return false;
    for (size_t i = 0; i < a->nfields; i++)
        if (!same_field(&a->fields[i], &b->fields[i]))
            return false;
    if (a->id == FLOE_T_LIST)
        return same_field(a->element, b->element);
    if (a->id == FLOE_T_MAP)
        return same_field(a->key, b->key) && same_field(a->value, b->value);
    return true;
}

static bool same_field(const floe_field *a, const floe_field *b)
{
    return strcmp(a->name, b->name) == 0 && a->required == b->required &&
           same_type(a->type, b->type);
}

static int type_text(const floe_type *t, floe_buf *b)
{
    return floe__type_format(t, b);
}

/* Open file `path` and check its top-level columns against `want` (NULL:
 * nothing to check). */
static int open_file(floe_fileio *io, const char *path, const floe_schema *want,
                     floe_input **in, floe_pq_reader **r)
{
    *in = NULL;
    *r = NULL;
    int rc = floe_fileio_open_input(in, io, path);
    if (rc < 0)
        return floe__error_context("read_parquet: cannot open %s", path);
    floe_pq_read_options o = {0};
    o.batch_rows = 8192;
    rc = floe__pq_reader_open(r, *in, &o);
    if (rc < 0) {
        (*in)->close(*in);
        *in = NULL;
        return floe__error_context("read_parquet: %s is not a readable Parquet file", path);
    }
    const floe_type *root = floe__pq_reader_schema(*r)->root;
    if (rc == 0 && want) {
        const floe_type *w = want->root;
        bool ok = w->nfields == root->nfields;
        size_t i = 0;
        for (; ok && i < w->nfields; i++)
            ok = strcmp(w->fields[i].name, root->fields[i].name) == 0 &&
                 same_type(w->fields[i].type, root->fields[i].type);
        if (!ok) {
            floe_buf a = FLOE_BUF_INIT, b = FLOE_BUF_INIT;
            for (size_t k = 0; k < w->nfields; k++)
                if (floe__buf_printf(&a, "%s%s ", k ? ", " : "", w->fields[k].name) < 0 ||
                    type_text(w->fields[k].type, &a) < 0)
                    break;
            for (size_t k = 0; k < root->nfields; k++)
                if (floe__buf_printf(&b, "%s%s ", k ? ", " : "", root->fields[k].name) < 0 ||
                    type_text(root->fields[k].type, &b) < 0)
                    break;
            rc = floe__error(FLOE_EINVALID, "sql",
                             "read_parquet: schema of %s (%s) does not match the first file's "
                             "(%s)",
                             path, b.ptr ? b.ptr : "", a.ptr ? a.ptr : "");
            floe__buf_free(&a);
            floe__buf_free(&b);
        }
    }
    if (rc < 0) {
        floe__pq_reader_free(*r);
        (*in)->close(*in);
        *r = NULL;
        *in = NULL;
    }
    return rc;
}

/* ---------------------------------------------------------------- stream */

typedef struct pq_stream {
    const pq_src *src;
    size_t next; /* index of the next file to open */
    floe_input *in;
    floe_pq_reader *r;
    char *error;
} pq_stream;

static void stream_close_file(pq_stream *st)
{
    floe__pq_reader_free(st->r);
    if (st->in)
        st->in->close(st->in);
    st->r = NULL;
    st->in = NULL;
}

static int stream_fail(pq_stream *st, int rc)
{
    floe__free(st->error);
    const floe_error *e = floe_error_last();
    st->error = floe__strdup(e && e->message[0] ? e->message : "read_parquet failed");
    return rc == FLOE_ENOMEM ? 12 /* ENOMEM */ : 5 /* EIO */;
}

static int stream_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    pq_stream *st = s->private_data;
    int rc = floe__arrow_schema_from_struct(out, st->src->schema.root);
    return rc < 0 ? stream_fail(st, rc) : 0;
}

static int stream_get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    pq_stream *st = s->private_data;
    memset(out, 0, sizeof *out);
    for (;;) {
        if (!st->r) {
            if (st->next >= st->src->npaths)
                return 0; /* end: out->release == NULL */
            const char *path = st->src->paths[st->next++];
            int rc = open_file(st->src->io, path, &st->src->schema, &st->in, &st->r);
            if (rc < 0)
                return stream_fail(st, rc);
        }
        int rc = floe__pq_reader_next(st->r, out);
        if (rc == 0)
            return 0;
        stream_close_file(st);
        if (rc != FLOE_ITEROVER)
            return stream_fail(st, rc);
    }
}

static const char *stream_last_error(struct ArrowArrayStream *s)
{
    pq_stream *st = s->private_data;
    return st ? st->error : NULL;
}

static void stream_release(struct ArrowArrayStream *s)
{
    pq_stream *st = s->private_data;
    if (st) {
        stream_close_file(st);
        floe__free(st->error);
        floe__free(st);
    }
    s->release = NULL;
    s->private_data = NULL;
}

static int src_open(void *payload, struct ArrowArrayStream *out)
{
    pq_stream *st = floe__calloc(1, sizeof *st);
    if (!st)
        return floe__error_nomem();
    st->src = payload;
    out->get_schema = stream_get_schema;
    out->get_next = stream_get_next;
    out->get_last_error = stream_last_error;
    out->release = stream_release;
    out->private_data = st;
    return 0;
}

static void src_free(void *payload)
{
    pq_src *p = payload;
    if (!p)
        return;
    for (size_t i = 0; i < p->npaths; i++)
        floe__free(p->paths[i]);
    floe__free(p->paths);
    floe__schema_release(&p->schema); /* its field indexes are on the heap */
    floe__arena_free(p->arena);
    floe__free(p);
}

static int src_explain(void *payload, floe_buf *out)
{
    const pq_src *p = payload;
    return floe__buf_printf(out, "read_parquet files=%zu first=%s", p->npaths,
                            p->npaths ? p->paths[0] : "");
}

static const floe_sql_stream_fns pq_fns = {src_open, src_free, src_explain};

/* Copy the first file's schema into the source's arena (through its JSON
 * form: nested types are deep). */
static int copy_schema(pq_src *p, const floe_schema *from)
{
    floe_buf text = FLOE_BUF_INIT;
    floe_json *j = NULL;
    floe_schema *copy = NULL;
    int rc = floe__schema_to_json(from, &text);
    if (rc == 0)
        rc = floe__json_parse(&j, text.ptr, text.len, "read_parquet schema");
    if (rc == 0)
        rc = floe__schema_from_json(&copy, j, 0, p->arena);
    if (rc == 0)
        p->schema = *copy;
    floe__json_free(j);
    floe__buf_free(&text);
    return rc;
}

static int add_arg(floe_sql_session *s, floe_fileio *io, const floe_sql_value *v, floe_vec *paths)
{
    if (v->kind == FLOE_SQLV_ARRAY) {
        for (size_t i = 0; i < v->nitems; i++)
            FLOE_TRY(add_arg(s, io, &v->items[i], paths));
        return 0;
    }
    if (v->kind != FLOE_SQLV_STRING || !v->text || !*v->text)
        return floe__sql_fail(s,
                              floe__error(FLOE_EINVALID, "sql",
                                          "read_parquet expects file paths as strings"),
                              "AnalysisException");
    int rc = floe__sql_parquet_glob(io, v->text, paths);
    return rc < 0 ? floe__sql_fail(s, rc, "AnalysisException") : 0;
}

int floe__sql_read_parquet_source(floe_sql_session *s, const floe_sql_tref *r,
                                  floe_rowsource **out)
{
    for (size_t i = 0; i < r->nargs; i++)
        if (r->arg_names && r->arg_names[i])
            return floe__sql_fail(s,
                                  floe__error(FLOE_EUNSUPPORTED, "sql",
                                              "read_parquet: option %s is not supported",
                                              r->arg_names[i]),
                                  "UnsupportedOperationException");
    if (r->nargs == 0)
        return floe__sql_fail(s,
                              floe__error(FLOE_EINVALID, "sql",
                                          "read_parquet expects at least one path"),
                              "AnalysisException");
    floe_fileio *io = floe__sql_table_options(s)->io;
    pq_src *p = floe__calloc(1, sizeof *p);
    if (!p)
        return floe__error_nomem();
    p->io = io;
    floe_vec paths = FLOE_VEC_INIT(char *);
    int rc = (p->arena = floe__arena_new(1024)) ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < r->nargs; i++)
        rc = add_arg(s, io, &r->args[i], &paths);
    p->paths = paths.items;
    p->npaths = paths.len;
    /* the first file gives the columns; every other must match them now,
     * so a mismatch fails before any row is produced */
    for (size_t i = 0; rc == 0 && i < p->npaths; i++) {
        floe_input *in = NULL;
        floe_pq_reader *rd = NULL;
        rc = open_file(io, p->paths[i], i ? &p->schema : NULL, &in, &rd);
        if (rc == 0 && i == 0)
            rc = copy_schema(p, floe__pq_reader_schema(rd));
        floe__pq_reader_free(rd);
        if (in)
            in->close(in);
        /* Spark resolves the files while analysing the query: what floe
         * cannot read yet is the library's to name, the rest Spark's */
        if (rc < 0)
            rc = rc == FLOE_EUNSUPPORTED ? floe__sql_classify(s, rc)
                                         : floe__sql_fail(s, rc, "AnalysisException");
    }
    if (rc < 0) {
        src_free(p);
        return rc;
    }
    return floe__sql_stream_source(out, s, "read_parquet", &p->schema, &pq_fns, p);
}
