/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_view: Iceberg views (format/view-spec.md) in `floe sql`, on the
 * catalog's view API (include/floe/catalog.h "views"):
 *   CREATE [OR REPLACE] VIEW [IF NOT EXISTS] db.v [(c [COMMENT '..'], ..)]
 *     [COMMENT '..'] [TBLPROPERTIES (..)] AS <query>
 *       stores the query text as written (dialect "spark"), the result
 *       columns as the view schema, the session's current namespace as the
 *       default namespace, and Spark's properties (comment,
 *       spark.query-column-names), as Spark's CreateV2ViewExec does;
 *   DROP VIEW [IF EXISTS] db.v;  SHOW VIEWS [IN db] [LIKE 'pat']
 *       (namespace, viewName, isTemporary — temporary views too);
 *   a query naming a view: the reference (floe_ref_N) becomes a temporary
 *   SQLite view of the stored SQL, parsed with the view's default
 *   namespace and named with the view schema's columns (Spark applies the
 *   schema by position); views inside views expand the same way, nested
 *   up to VIEW_MAX_DEPTH. The objects an expansion creates are dropped
 *   after the statement.
 */
#include "catalog/catalog.h"
#include "spec/spec.h"
#include "sql/exec_int.h"

#include <jansson.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define VIEW_MAX_DEPTH 32
/* Generated names of references inside expanded views start here, far
 * from the statements' own floe_ref_<n>. */
#define VIEW_REF_BASE ((uint64_t)1 << 40)

static int note_object(floe_sql_session *s, const char *name)
{
    if (!s->view_objs.item_size)
        s->view_objs.item_size = sizeof(char *);
    char *c = floe__strdup(name);
    char **slot = c ? floe__vec_push(&s->view_objs) : NULL;
    if (!slot) {
        floe__free(c);
        return floe__error_nomem();
    }
    *slot = c;
    return 0;
}

static void objects_release(floe_sql_session *s, bool drop)
{
    /* newest first: a view goes before the tables it reads */
    for (size_t i = s->view_objs.len; i-- > 0;) {
        char *name = *(char **)floe__vec_at(&s->view_objs, i);
        if (drop) {
            char *sql = sqlite3_mprintf("DROP VIEW IF EXISTS temp.\"%w\"; "
                                        "DROP TABLE IF EXISTS temp.\"%w\"",
                                        name, name);
            if (sql)
                sqlite3_exec(s->db, sql, NULL, NULL, NULL);
            sqlite3_free(sql);
        }
        floe__free(name);
    }
    s->view_objs.len = 0;
    if (!drop) {
        floe__vec_free(&s->view_objs);
        s->view_objs.item_size = sizeof(char *);
    }
}

void floe__sql_view_objects_drop(floe_sql_session *s)
{
    objects_release(s, true);
}

void floe__sql_view_objects_keep(floe_sql_session *s)
{
    objects_release(s, false);
}

/* "View does not exist", "Namespace does not exist" ... with their Java
 * classes (the kinds the catalog raised them with). */
static int view_fail(floe_sql_session *s, int rc)
{
    if (rc >= 0 || rc == FLOE_ENOMEM)
        return rc;
    return floe__sql_fail(s, rc, floe__sql_error_class(rc));
}

/* ---------------------------------------------------------------- querying a view */

/* The view schema's column names, in order. */
static int schema_names(const floe_view *v, floe_arena *a, const char ***out, size_t *n)
{
    char *text = NULL;
    FLOE_TRY(floe_view_schema_json(&text, v));
    json_t *j = json_loads(text, 0, NULL);
    floe_string_free(text);
    json_t *fields = json_object_get(j, "fields");
    size_t k = json_array_size(fields);
    const char **names = floe__arena_calloc(a, k ? k : 1, sizeof *names);
    int rc = j && names ? 0 : floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < k; i++) {
        const char *nm = json_string_value(json_object_get(json_array_get(fields, i), "name"));
        if (!(names[i] = floe__arena_strdup(a, nm ? nm : "")))
            rc = floe__error_nomem();
    }
    json_decref(j);
    *out = names;
    *n = k;
    return rc;
}

static int expand(floe_sql_session *s, const char *sqlite_name, const char *ident,
                  const floe_view *v, floe_arena *a)
{
    const char *text = floe_view_sql(v, "spark");
    if (!text)
        text = floe_view_sql(v, NULL);
    if (!text)
        return floe__sql_fail(
            s, floe__error(FLOE_EUNSUPPORTED, "sql", "View %s has no SQL representation", ident),
            "UnsupportedOperationException");
    const char *dns = floe_view_default_namespace(v);
    floe_sql_options o = s->fopt;
    o.current_namespace = dns && *dns ? dns : s->current_ns;
    o.script = NULL;
    o.ref_base = VIEW_REF_BASE + s->view_seq;
    floe_sql_stmt *q = NULL;
    int rc = floe__sql_parse(a, text, &o, &q, NULL);
    if (rc < 0)
        return floe__sql_fail(s, rc, "ParseException");
    if (!q || q->kind != FLOE_SQL_QUERY)
        return floe__sql_fail(
            s, floe__error(FLOE_EINVALID, "sql", "View %s does not hold a query: %s", ident, text),
            "AnalysisException");
    s->view_seq += q->nrefs + 1;
    for (size_t i = 0; i < q->nrefs; i++) {
        const char *c = q->refs[i].name.catalog;
        if (c && strcasecmp(c, s->catalog_name) != 0)
            return floe__sql_fail(s,
                                  floe__error(FLOE_EUNSUPPORTED, "sql",
                                              "View %s reads tables of catalog %s: a view over "
                                              "another catalog is not supported",
                                              ident, c),
                                  "UnsupportedOperationException");
    }
    /* the view's own one-part names resolve in its default namespace */
    char *saved = s->current_ns;
    char *ns = dns && *dns ? floe__strdup(dns) : NULL;
    if (dns && *dns && !ns)
        return floe__error_nomem();
    if (ns)
        s->current_ns = ns;
    for (size_t i = 0; i < q->nrefs; i++)
        if ((rc = note_object(s, q->refs[i].sqlite_name)) < 0)
            break;
    if (rc == 0)
        rc = floe__sql_refs_create(s, q);
    s->current_ns = saved;
    floe__free(ns);
    const char **cols = NULL;
    size_t ncols = 0;
    if (rc == 0)
        rc = schema_names(v, a, &cols, &ncols);
    floe_buf b = FLOE_BUF_INIT;
    if (rc == 0)
        rc = floe__buf_puts(&b, "CREATE TEMP VIEW ");
    if (rc == 0)
        rc = floe__sql_quote_ident(&b, sqlite_name);
    for (size_t i = 0; rc == 0 && i < ncols; i++) {
        rc = floe__buf_puts(&b, i ? ", " : " (");
        if (rc == 0)
            rc = floe__sql_quote_ident(&b, cols[i]);
    }
    if (rc == 0 && ncols)
        rc = floe__buf_putc(&b, ')');
    if (rc == 0)
        rc = floe__buf_printf(&b, " AS %s", q->query->sql);
    if (rc == 0 && sqlite3_exec(s->db, (const char *)b.ptr, NULL, NULL, NULL) != SQLITE_OK)
        rc = floe__sql_fail(s,
                            floe__error(FLOE_EINVALID, "sql", "Cannot expand view %s: %s", ident,
                                        sqlite3_errmsg(s->db)),
                            "AnalysisException");
    floe__buf_free(&b);
    return rc;
}

int floe__sql_view_ref(floe_sql_session *s, const floe_sql_tref *r, const char *ident)
{
    if (r->name.kind != FLOE_SQLREF_TABLE || r->travel.kind != FLOE_SQLTT_NONE)
        return 1;
    int ex = floe_catalog_view_exists(s->catalog, ident);
    if (ex <= 0) {
        if (ex < 0 && ex != FLOE_EUNSUPPORTED && ex != FLOE_ENOTFOUND)
            return ex;
        floe_error_clear();
        return 1;
    }
    if (s->view_depth >= VIEW_MAX_DEPTH)
        return floe__sql_fail(s,
                              floe__error(FLOE_EINVALID, "sql",
                                          "View %s nests views deeper than %d (a view that reads "
                                          "itself?)",
                                          ident, VIEW_MAX_DEPTH),
                              "AnalysisException");
    floe_view *v = NULL;
    int rc = floe_view_load(&v, s->catalog, ident, NULL);
    if (rc < 0) /* the catalog's failure, named by its kind */
        return floe__sql_classify(s, rc);
    floe_arena *a = floe__arena_new(0);
    if (!a)
        rc = floe__error_nomem();
    if (rc == 0) {
        s->view_depth++;
        rc = note_object(s, r->sqlite_name);
        if (rc == 0)
            rc = expand(s, r->sqlite_name, ident, v, a);
        s->view_depth--;
    }
    floe__arena_free(a);
    floe_view_free(v);
    /* the view's SQL failed to resolve: Spark's analysis error */
    s->error_class =
        rc < 0 && rc != FLOE_ENOMEM && !s->error_class ? "AnalysisException" : s->error_class;
    return rc;
}

/* ---------------------------------------------------------------- CREATE / DROP / SHOW */

/* The query as the user wrote it: the statement text from the query on. */
static const char *query_text(const floe_sql_stmt *st, floe_arena *a)
{
    size_t off = st->query->pos >= st->pos ? st->query->pos - st->pos : 0;
    size_t len = strlen(st->text);
    if (off > len)
        off = len;
    const char *t = st->text + off;
    size_t n = strlen(t);
    while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\n' || t[n - 1] == '\t' || t[n - 1] == '\r'))
        n--;
    return floe__arena_strndup(a, t, n);
}

int floe__sql_exec_create_iceberg_view(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ident = floe__sql_table_ident(s, &st->target, a);
    const char *text = query_text(st, a);
    if (!ident || !text)
        return floe__error_nomem();
    char *tl = NULL;
    int rc = floe_catalog_load_table(&tl, NULL, s->catalog, ident);
    floe_string_free(tl);
    if (rc == 0)
        return floe__sql_fail(
            s, floe__error(FLOE_EEXISTS, "sql", "Table with same name already exists: %s", ident),
            "AlreadyExistsException");
    floe_error_clear();
    if (st->if_not_exists && floe_catalog_view_exists(s->catalog, ident) == 1)
        return 0;
    floe_error_clear();
    /* the query's columns, typed by its first row and origins */
    rc = floe__sql_refs_create(s, st);
    floe_sql_column *cols = NULL;
    size_t n = 0;
    if (rc == 0)
        rc = floe__sql_infer_columns(s, st->query, a, &cols, &n);
    floe__sql_refs_drop(s, st);
    floe__sql_view_objects_drop(s);
    if (rc < 0)
        return rc;
    const floe_sql_create_table *c = &st->create;
    if (c->ncolumns && c->ncolumns != n)
        return floe__sql_fail(
            s,
            floe__error(FLOE_EINVALID, "sql",
                        "[CREATE_VIEW_COLUMN_ARITY_MISMATCH] Cannot create view %s, the reason "
                        "is %s data columns: View columns: %zu, Data columns: %zu.",
                        ident, c->ncolumns < n ? "not enough" : "too many", c->ncolumns, n),
            "AnalysisException");
    floe_buf names = FLOE_BUF_INIT; /* spark.query-column-names */
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = floe__buf_printf(&names, "%s%s", i ? "," : "", cols[i].name);
    for (size_t i = 0; i < c->ncolumns && i < n; i++) {
        cols[i].name = c->columns[i].name;
        cols[i].comment = c->columns[i].comment;
    }
    json_t *schema = rc == 0 ? floe__sql_columns_schema(cols, n) : NULL;
    char *schema_json = schema ? json_dumps(schema, JSON_COMPACT) : NULL;
    json_decref(schema);
    floe_props props = FLOE_PROPS_INIT;
    for (size_t i = 0; rc == 0 && i < st->nprops; i++)
        rc =
            floe__props_set(&props, st->props[i].key, st->props[i].value ? st->props[i].value : "");
    if (rc == 0 && st->comment)
        rc = floe__props_set(&props, "comment", st->comment);
    if (rc == 0)
        rc = floe__props_set(&props, "spark.query-column-names", names.ptr ? names.ptr : "");
    if (rc == 0 && !schema_json)
        rc = floe__error_nomem();
    floe_view_options o = FLOE_VIEW_OPTIONS_INIT;
    o.sql = text;
    o.dialect = "spark";
    o.schema_json = schema_json;
    o.default_namespace = s->current_ns ? s->current_ns : FLOE_SQL_DEFAULT_NAMESPACE;
    /* Spark: the current catalog when it is not the view's */
    o.default_catalog = s->dflt != s->cur ? s->cats[s->dflt].name : NULL;
    o.properties = &props;
    if (rc == 0)
        rc = floe_view_create(s->catalog, ident, &o, st->or_replace);
    free(schema_json);
    floe__props_free(&props);
    floe__buf_free(&names);
    return view_fail(s, rc);
}

int floe__sql_exec_drop_iceberg_view(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ident = floe__sql_table_ident(s, &st->target, a);
    if (!ident)
        return floe__error_nomem();
    int rc = floe_catalog_drop_view(s->catalog, ident);
    if (rc == FLOE_ENOTFOUND && st->if_exists) {
        floe_error_clear();
        return 0;
    }
    return view_fail(s, rc);
}

/* Spark's SHOW ... LIKE pattern (StringUtils.filterPattern): the pattern
 * is trimmed as a whole, split at '|', and each part is a case-insensitive
 * regular expression matching the whole name, with '*' read as ".*". */
static bool like(const char *pat, size_t plen, const char *name)
{
    floe_buf re_text = FLOE_BUF_INIT;
    int rc = floe__buf_puts(&re_text, "^(");
    for (size_t i = 0; i < plen && rc == 0; i++)
        rc = pat[i] == '*' ? floe__buf_puts(&re_text, ".*") : floe__buf_putc(&re_text, pat[i]);
    if (rc == 0)
        rc = floe__buf_puts(&re_text, ")$");
    bool hit = false;
    regex_t re;
    if (rc == 0 && regcomp(&re, re_text.ptr, REG_EXTENDED | REG_ICASE | REG_NOSUB) == 0) {
        hit = regexec(&re, name, 0, NULL, 0) == 0;
        regfree(&re);
    }
    floe__buf_free(&re_text);
    return hit;
}

bool floe__sql_show_matches(const char *pattern, const char *name)
{
    if (!pattern)
        return true;
    size_t n = strlen(pattern);
    while (n > 0 && (unsigned char)*pattern <= ' ') {
        pattern++;
        n--;
    }
    while (n > 0 && (unsigned char)pattern[n - 1] <= ' ')
        n--;
    for (const char *p = pattern, *end = pattern + n;;) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        size_t len = bar ? (size_t)(bar - p) : (size_t)(end - p);
        if (like(p, len, name))
            return true;
        if (!bar)
            return false;
        p = bar + 1;
    }
}

typedef struct view_rows {
    floe_vec ns, names; /* char* */
    const char *pattern;
} view_rows;

static int push(floe_vec *v, const char *s)
{
    char *c = floe__strdup(s);
    char **slot = c ? floe__vec_push(v) : NULL;
    if (!slot) {
        floe__free(c);
        return floe__error_nomem();
    }
    *slot = c;
    return 0;
}

static int add_view(const char *ns, const char *name, void *payload)
{
    view_rows *r = payload;
    if (!floe__sql_show_matches(r->pattern, name))
        return 0;
    FLOE_TRY(push(&r->ns, ns));
    return push(&r->names, name);
}

int floe__sql_exec_show_views(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ns = st->nns_name ? floe__sql_join(a, st->ns_name, st->nns_name)
                                  : (s->current_ns ? s->current_ns : FLOE_SQL_DEFAULT_NAMESPACE);
    if (!ns)
        return floe__error_nomem();
    view_rows r = {FLOE_VEC_INIT(char *), FLOE_VEC_INIT(char *), st->key};
    int rc = 0;
    int ex = floe_catalog_namespace_exists(s->catalog, ns);
    if (ex < 0)
        rc = ex;
    else if (ex == 1)
        rc = floe_catalog_list_views(s->catalog, ns, add_view, &r);
    else if (st->nns_name)
        rc = floe__catalog_namespace_missing(s->catalog, ns);
    if (rc == FLOE_EUNSUPPORTED) { /* a catalog without views has none */
        floe_error_clear();
        rc = 0;
    }
    size_t persistent = r.names.len;
    /* temporary views too (isTemporary = true, no namespace), as Spark */
    sqlite3_stmt *q = NULL;
    if (rc == 0 &&
        sqlite3_prepare_v2(s->db,
                           "SELECT name FROM temp.sqlite_master WHERE type = 'view' "
                           "AND name NOT LIKE 'floe\\_ref\\_%' ESCAPE '\\' ORDER BY name",
                           -1, &q, NULL) == SQLITE_OK) {
        while (rc == 0 && sqlite3_step(q) == SQLITE_ROW) {
            const char *name = (const char *)sqlite3_column_text(q, 0);
            if (name && floe__sql_show_matches(r.pattern, name) && (rc = push(&r.ns, "")) == 0)
                rc = push(&r.names, name);
        }
    }
    sqlite3_finalize(q);
    if (rc == 0) {
        size_t n = r.names.len;
        floe_sql_cell *cells = floe__arena_calloc(a, 3 * n + 1, sizeof *cells);
        if (!cells)
            rc = floe__error_nomem();
        for (size_t i = 0; cells && i < n; i++) {
            cells[3 * i] = floe__sql_cell_text(*(char **)floe__vec_at(&r.ns, i));
            cells[3 * i + 1] = floe__sql_cell_text(*(char **)floe__vec_at(&r.names, i));
            cells[3 * i + 2] = floe__sql_cell_bool(i >= persistent);
        }
        static const char *const cols[] = {"namespace", "viewName", "isTemporary"};
        if (cells)
            rc = floe__sql_emit(s, cols, 3, cells, n);
    }
    floe__catalog_strvec_free(&r.ns);
    floe__catalog_strvec_free(&r.names);
    return rc;
}

/* ---------------------------------------------------------------- DESCRIBE */

typedef struct desc_rows {
    floe_vec cells; /* floe_sql_cell, 3 a row */
    floe_arena *a;
} desc_rows;

static int row3(desc_rows *r, const char *a, const char *b, const char *c)
{
    const char *v[3] = {a, b, c ? c : ""};
    for (int i = 0; i < 3; i++) {
        floe_sql_cell *slot = floe__vec_push(&r->cells);
        const char *t = v[i] ? floe__arena_strdup(r->a, v[i]) : NULL;
        if (!slot || (v[i] && !t))
            return floe__error_nomem();
        *slot = floe__sql_cell_text(t);
    }
    return 0;
}

/* Spark's ViewCatalog.RESERVED_PROPERTIES and SparkView's. */
static bool reserved_property(const char *k)
{
    static const char *const reserved[] = {
        "comment",  "create_engine_version", "engine_version",          "owner", "provider",
        "location", "format-version",        "spark.query-column-names"};
    /* (provider, location and format-version are SparkView's own: added) */
    for (size_t i = 0; i < FLOE_ARRAY_LEN(reserved); i++)
        if (strcmp(k, reserved[i]) == 0)
            return true;
    return false;
}

/* Spark's escapeSingleQuotedString: \ and ' escaped with a backslash. */
static int escaped(floe_buf *b, const char *v)
{
    for (; *v; v++) {
        if (*v == '\'' || *v == '\\')
            FLOE_TRY(floe__buf_putc(b, '\\'));
        FLOE_TRY(floe__buf_putc(b, *v));
    }
    return 0;
}

static int cmp_kv(const void *x, const void *y)
{
    return strcmp(((const floe_kv *)x)->key, ((const floe_kv *)y)->key);
}

/* Spark's quoteIfNeeded: `part` in backticks unless it is [A-Za-z0-9_]+ and
 * not all digits. */
static int quote_if_needed(floe_buf *b, const char *part, size_t n)
{
    bool plain = n > 0, digits = true;
    for (size_t i = 0; i < n; i++) {
        char ch = part[i];
        bool word = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '_';
        plain = plain && word;
        digits = digits && ch >= '0' && ch <= '9';
    }
    if (plain && !digits)
        return floe__buf_put(b, part, n);
    FLOE_TRY(floe__buf_putc(b, '`'));
    for (size_t i = 0; i < n; i++)
        FLOE_TRY(part[i] == '`' ? floe__buf_puts(b, "``") : floe__buf_putc(b, part[i]));
    return floe__buf_putc(b, '`');
}

static int describe_extended(desc_rows *r, floe_sql_session *s, const floe_view *v,
                             const char *ident, floe_buf *b)
{
    FLOE_TRY(row3(r, "", "", ""));
    FLOE_TRY(row3(r, "# Detailed View Information", "", ""));
    const char *comment = floe_view_property(v, "comment");
    FLOE_TRY(row3(r, "Comment", comment ? comment : "", ""));
    const char *dot = strrchr(ident, '.');
    floe__buf_clear(b);
    FLOE_TRY(quote_if_needed(b, s->catalog_name, strlen(s->catalog_name)));
    FLOE_TRY(floe__buf_putc(b, '.'));
    FLOE_TRY(quote_if_needed(b, ident, (size_t)(dot - ident)));
    FLOE_TRY(row3(r, "View Catalog and Namespace", b->ptr, ""));
    const char *cols = floe_view_property(v, "spark.query-column-names");
    floe__buf_clear(b);
    FLOE_TRY(floe__buf_putc(b, '['));
    for (const char *p = cols ? cols : ""; *p; p++)
        FLOE_TRY(*p == ',' ? floe__buf_puts(b, ", ") : floe__buf_putc(b, *p));
    FLOE_TRY(floe__buf_putc(b, ']'));
    FLOE_TRY(row3(r, "View Query Output Columns", b->ptr, ""));
    char *meta = NULL;
    FLOE_TRY(floe_view_metadata_json(&meta, v));
    json_t *j = json_loads(meta, 0, NULL), *props = json_object_get(j, "properties");
    floe_string_free(meta);
    /* SparkView.properties: provider, location, format-version first */
    size_t n = json_object_size(props) + 3, k = 3;
    floe_kv *kv = floe__arena_calloc(r->a, n, sizeof *kv);
    if (kv) {
        kv[0].key = (char *)"provider";
        kv[0].value = (char *)"iceberg";
        kv[1].key = (char *)"location";
        kv[1].value = floe__arena_strdup(r->a, json_string_value(json_object_get(j, "location")));
        kv[2].key = (char *)"format-version";
        kv[2].value = floe__arena_sprintf(
            r->a, "%lld", (long long)json_integer_value(json_object_get(j, "format-version")));
    }
    const char *key;
    json_t *val;
    json_object_foreach(props, key, val)
    {
        if (kv && !reserved_property(key)) {
            kv[k].key = (char *)floe__arena_strdup(r->a, key);
            kv[k].value = (char *)floe__arena_strdup(r->a, json_string_value(val));
            k++;
        }
    }
    json_decref(j);
    if (!kv)
        return floe__error_nomem();
    qsort(kv, k, sizeof *kv, cmp_kv);
    floe__buf_clear(b);
    FLOE_TRY(floe__buf_putc(b, '['));
    for (size_t i = 0; i < k; i++) {
        FLOE_TRY(floe__buf_puts(b, i ? ", '" : "'"));
        FLOE_TRY(escaped(b, kv[i].key));
        FLOE_TRY(floe__buf_puts(b, "' = '"));
        FLOE_TRY(escaped(b, kv[i].value ? kv[i].value : ""));
        FLOE_TRY(floe__buf_putc(b, '\''));
    }
    FLOE_TRY(floe__buf_putc(b, ']'));
    FLOE_TRY(row3(r, "View Properties", b->ptr, ""));
    const char *by = floe_view_property(v, "create_engine_version");
    return row3(r, "Created By", by ? by : "", "");
}

int floe__sql_describe_view(floe_sql_session *s, const floe_sql_stmt *st, const char *ident,
                            floe_arena *a)
{
    const floe_error *e = floe_error_last();
    char *msg = e && e->message ? floe__strdup(e->message) : NULL;
    floe_error_kind kind = e ? e->kind : FLOE_KIND_NONE;
    const char *cls = s->error_class;
    floe_view *v = NULL;
    int rc = floe_view_load(&v, s->catalog, ident, NULL);
    if (rc < 0) {
        rc = rc == FLOE_ENOTFOUND || rc == FLOE_EUNSUPPORTED ? 1 : rc;
        if (rc == 1) { /* no view: the table's error stands */
            floe__error_as(FLOE_ENOTFOUND, kind, "catalog", "%s", msg ? msg : ident);
            s->error_class = cls;
        }
        floe__free(msg);
        return rc;
    }
    floe__free(msg);
    char *schema = NULL;
    floe_schema *sc = NULL;
    floe_json *j = NULL;
    rc = floe_view_schema_json(&schema, v);
    if (rc == 0)
        rc = floe__json_parse(&j, schema, strlen(schema), ident);
    if (rc == 0)
        rc = floe__schema_from_json(&sc, j, 0, a);
    desc_rows r = {FLOE_VEC_INIT(floe_sql_cell), a};
    floe_buf b = FLOE_BUF_INIT;
    for (size_t i = 0; rc == 0 && i < sc->root->nfields; i++) {
        const floe_field *f = &sc->root->fields[i];
        floe__buf_clear(&b);
        rc = floe__sql_spark_type(f->type, false, &b);
        if (rc == 0)
            rc = row3(&r, f->name, b.ptr ? b.ptr : "", f->doc);
    }
    if (rc == 0 && st->extended)
        rc = describe_extended(&r, s, v, ident, &b);
    static const char *const cols[] = {"col_name", "data_type", "comment"};
    if (rc == 0)
        rc = floe__sql_emit(s, cols, 3, r.cells.items, r.cells.len / 3);
    floe__buf_free(&b);
    floe__vec_free(&r.cells);
    floe__schema_release(sc);
    floe__json_free(j);
    floe_string_free(schema);
    floe_view_free(v);
    return rc;
}
