/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/view: view metadata files (format/view-spec.md "View Metadata",
 * "Versions", "Representations", "Version log") parsed from floe's JSON tree
 * and written with util/json_writer in the field order of Java's
 * ViewMetadataParser, plus the REST view commit (CommitViewRequest) applied
 * with the rules of Java's ViewMetadata.Builder. See view.h.
 */
#include "spec/view.h"

#include "spec/metadata.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TRY FLOE_TRY

/* Longest view metadata file accepted after decompression. */
#define VIEW_MAX_BYTES ((size_t)256 << 20)
#define HISTORY_SIZE_KEY "version.history.num-entries"
#define HISTORY_SIZE_DEFAULT 10

static int bad(const char *fmt, ...) FLOE_PRINTF(1, 2);
static int bad(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return floe__error(FLOE_EINVALID, "view", "%s", msg);
}

/* Grow an arena array of n elements of `size` to n + 1 (views hold a few
 * versions and schemas: copying is fine). */
static void *grow(floe_arena *a, void *old, size_t n, size_t size)
{
    void *p = floe__arena_calloc(a, n + 1, size);
    if (!p)
        return NULL;
    if (n)
        memcpy(p, old, n * size);
    return p;
}

static int string_map(const floe_json *o, const char *ctx, floe_arena *a, const floe_kv **out,
                      size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!floe__json_is_object(o))
        return bad("field 'summary' in %s must be an object", ctx);
    size_t len = floe__json_len(o);
    if (len == 0)
        return 0;
    floe_kv *kv = floe__arena_calloc(a, len, sizeof *kv);
    if (!kv)
        return floe__error_nomem();
    const char *key;
    floe_json *v;
    size_t i = 0;
    FLOE_JSON_FOREACH((floe_json *)o, key, v) {
        if (!floe__json_is_string(v))
            return bad("value of '%s' in %s must be a string", key, ctx);
        kv[i].key = floe__arena_strdup(a, key);
        kv[i].value = floe__arena_strndup(a, floe__json_sval(v), floe__json_slen(v));
        if (!kv[i].key || !kv[i].value)
            return floe__error_nomem();
        i++;
    }
    *out = kv;
    *n = len;
    return 0;
}

static int lower_dup(floe_arena *a, const char *s, const char **out)
{
    char *c = floe__arena_strdup(a, s);
    if (!c)
        return floe__error_nomem();
    for (char *p = c; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    *out = c;
    return 0;
}

static int repr_from_json(floe_view_repr *r, const floe_json *j, floe_arena *a)
{
    memset(r, 0, sizeof *r);
    if (!floe__json_is_object(j))
        return bad("Cannot parse view representation from non-object");
    const char *type;
    TRY(floe__json_str(j, "type", "view representation", a, &type));
    TRY(lower_dup(a, type, &r->type));
    if (strcmp(r->type, "sql") != 0)
        return 0;
    TRY(floe__json_str(j, "sql", "sql view representation", a, &r->sql));
    return floe__json_str(j, "dialect", "sql view representation", a, &r->dialect);
}

/* One SQL representation per dialect (view-spec "SQL representation"). */
static int check_dialects(const floe_view_version *v)
{
    for (size_t i = 0; i < v->nreprs; i++)
        for (size_t k = 0; k < i; k++)
            if (v->reprs[i].dialect && v->reprs[k].dialect &&
                strcasecmp(v->reprs[i].dialect, v->reprs[k].dialect) == 0)
                return bad("Invalid view version: Cannot add multiple queries for dialect %s",
                           v->reprs[i].dialect);
    return 0;
}

int floe__view_version_from_json(floe_view_version *v, const floe_json *j, floe_arena *a)
{
    memset(v, 0, sizeof *v);
    if (!floe__json_is_object(j))
        return bad("Cannot parse view version from a non-object");
    const char *ctx = "view version";
    TRY(floe__json_i32(j, "version-id", ctx, &v->version_id));
    TRY(floe__json_i32(j, "schema-id", ctx, &v->schema_id));
    TRY(floe__json_int(j, "timestamp-ms", ctx, &v->timestamp_ms));
    const floe_json *summary = floe__json_get(j, "summary");
    if (!summary)
        return bad("missing required field 'summary' in view version %d", (int)v->version_id);
    TRY(string_map(summary, "view version", a, &v->summary, &v->nsummary));
    const floe_json *reprs = floe__json_get(j, "representations");
    if (!reprs)
        return bad("missing required field 'representations' in view version %d",
                   (int)v->version_id);
    if (!floe__json_is_array(reprs))
        return bad("Cannot parse representations from non-array");
    size_t n = floe__json_len(reprs);
    floe_view_repr *r = n ? floe__arena_calloc(a, n, sizeof *r) : NULL;
    if (n && !r)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++)
        TRY(repr_from_json(&r[i], floe__json_at(reprs, i), a));
    v->reprs = r;
    v->nreprs = n;
    TRY(floe__json_str_opt(j, "default-catalog", ctx, a, &v->default_catalog));
    const floe_json *ns = floe__json_get(j, "default-namespace");
    if (!ns)
        return bad("missing required field 'default-namespace' in view version %d",
                   (int)v->version_id);
    if (!floe__json_is_array(ns))
        return bad("field 'default-namespace' in view version %d must be an array of strings",
                   (int)v->version_id);
    n = floe__json_len(ns);
    const char **levels = n ? floe__arena_calloc(a, n, sizeof *levels) : NULL;
    if (n && !levels)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const floe_json *e = floe__json_at(ns, i);
        if (!floe__json_is_string(e))
            return bad("field 'default-namespace' in view version %d must be an array of strings",
                       (int)v->version_id);
        if (!(levels[i] = floe__arena_strndup(a, floe__json_sval(e), floe__json_slen(e))))
            return floe__error_nomem();
    }
    v->default_namespace = levels;
    v->ndefault_namespace = n;
    return check_dialects(v);
}

const floe_view_version *floe__view_current_version(const floe_view_metadata *m)
{
    for (size_t i = 0; m && i < m->nversions; i++)
        if (m->versions[i].version_id == m->current_version_id)
            return &m->versions[i];
    return NULL;
}

const floe_schema *floe__view_schema(const floe_view_metadata *m, int32_t schema_id)
{
    for (size_t i = 0; m && i < m->nschemas; i++)
        if (m->schemas[i]->schema_id == schema_id)
            return m->schemas[i];
    return NULL;
}

const char *floe__view_sql(const floe_view_metadata *m, const char *dialect)
{
    const floe_view_version *v = floe__view_current_version(m);
    for (size_t i = 0; v && i < v->nreprs; i++)
        if (v->reprs[i].sql && (!dialect || strcasecmp(v->reprs[i].dialect, dialect) == 0))
            return v->reprs[i].sql;
    return NULL;
}

static int alloc_meta(floe_view_metadata **out)
{
    *out = NULL;
    floe_view_metadata *m = floe__calloc(1, sizeof *m);
    if (!m)
        return floe__error_nomem();
    if (!(m->arena = floe__arena_new(4096))) {
        floe__free(m);
        return floe__error_nomem();
    }
    m->format_version = FLOE_VIEW_FORMAT_VERSION;
    *out = m;
    return 0;
}

static int parse_schemas(floe_view_metadata *m, const floe_json *root)
{
    const floe_json *schemas = floe__json_get(root, "schemas");
    if (!schemas)
        return bad("missing required field 'schemas' in view metadata");
    if (!floe__json_is_array(schemas))
        return bad("Cannot parse schemas from non-array");
    size_t n = floe__json_len(schemas);
    if (n && !(m->schemas = floe__arena_calloc(m->arena, n, sizeof(floe_schema *))))
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        int rc = floe__schema_from_json(&m->schemas[i], floe__json_at(schemas, i), 0, m->arena);
        if (rc < 0)
            return floe__error_context("view metadata: schemas[%zu]", i);
        m->nschemas = i + 1;
        for (size_t k = 0; k < i; k++)
            if (m->schemas[k]->schema_id == m->schemas[i]->schema_id)
                return bad("duplicate schema-id %d in view metadata",
                           (int)m->schemas[i]->schema_id);
    }
    return 0;
}

static int parse_versions(floe_view_metadata *m, const floe_json *root)
{
    const floe_json *versions = floe__json_get(root, "versions");
    if (!versions)
        return bad("missing required field 'versions' in view metadata");
    if (!floe__json_is_array(versions))
        return bad("Cannot parse versions from non-array");
    size_t n = floe__json_len(versions);
    if (n && !(m->versions = floe__arena_calloc(m->arena, n, sizeof *m->versions)))
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        TRY(floe__view_version_from_json(&m->versions[i], floe__json_at(versions, i), m->arena));
        m->nversions = i + 1;
        for (size_t k = 0; k < i; k++)
            if (m->versions[k].version_id == m->versions[i].version_id)
                return bad("duplicate version-id %d in view metadata",
                           (int)m->versions[i].version_id);
    }
    return 0;
}

static int parse_log(floe_view_metadata *m, const floe_json *root)
{
    const floe_json *log = floe__json_get(root, "version-log");
    if (!log)
        return bad("missing required field 'version-log' in view metadata");
    if (!floe__json_is_array(log))
        return bad("Cannot parse version-log from non-array");
    size_t n = floe__json_len(log);
    if (n && !(m->version_log = floe__arena_calloc(m->arena, n, sizeof *m->version_log)))
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const floe_json *e = floe__json_at(log, i);
        if (!floe__json_is_object(e))
            return bad("Cannot parse version-log entry from non-object");
        TRY(floe__json_int(e, "timestamp-ms", "version-log entry", &m->version_log[i].timestamp_ms));
        TRY(floe__json_i32(e, "version-id", "version-log entry", &m->version_log[i].version_id));
    }
    m->nlog = n;
    return 0;
}

static int parse_root(floe_view_metadata *m, const floe_json *root)
{
    if (!floe__json_is_object(root))
        return bad("Cannot parse view metadata from non-object");
    const char *ctx = "view metadata";
    TRY(floe__json_str(root, "view-uuid", ctx, m->arena, &m->view_uuid));
    int32_t fv;
    TRY(floe__json_i32(root, "format-version", ctx, &fv));
    if (fv < 1 || fv > FLOE_VIEW_FORMAT_VERSION)
        return bad("Unsupported format version: %d", (int)fv);
    m->format_version = fv;
    TRY(floe__json_str(root, "location", ctx, m->arena, &m->location));
    floe_json *props;
    TRY(floe__json_object_opt(root, "properties", ctx, &props));
    const char *key;
    floe_json *pv;
    FLOE_JSON_FOREACH(props, key, pv) {
        if (!floe__json_is_string(pv))
            return bad("field 'properties.%s' in view metadata must be a string", key);
        TRY(floe__props_set(&m->properties, key, floe__json_sval(pv)));
    }
    TRY(parse_schemas(m, root));
    TRY(floe__json_i32(root, "current-version-id", ctx, &m->current_version_id));
    TRY(parse_versions(m, root));
    TRY(parse_log(m, root));
    /* Java fails on first use of the current version / schema; a file floe
     * cannot use is refused when read. */
    const floe_view_version *cur = floe__view_current_version(m);
    if (!cur)
        return bad("Cannot find current version %d in view versions", (int)m->current_version_id);
    if (!floe__view_schema(m, cur->schema_id))
        return bad("Cannot find current schema with id %d in schemas", (int)cur->schema_id);
    return 0;
}

int floe__view_metadata_from_json(floe_view_metadata **out, const floe_json *root, const char *what)
{
    floe_view_metadata *m;
    TRY(alloc_meta(&m));
    int rc = parse_root(m, root);
    if (rc < 0) {
        floe__view_metadata_free(m);
        return what ? floe__error_context("%s", what) : rc;
    }
    *out = m;
    return 0;
}

int floe__view_metadata_parse(floe_view_metadata **out, const void *data, size_t len,
                              const char *what)
{
    *out = NULL;
    if (!what)
        what = "view metadata";
    floe_buf plain = FLOE_BUF_INIT;
    const unsigned char *b = data;
    if (len >= 2 && b[0] == 0x1f && b[1] == 0x8b) {
        int rc = floe__gunzip(data, len, VIEW_MAX_BYTES, &plain, what);
        if (rc < 0) {
            floe__buf_free(&plain);
            return rc;
        }
        data = plain.ptr;
        len = plain.len;
    }
    floe_json *root = NULL;
    int rc = floe__json_parse(&root, data, len, what);
    if (rc == 0)
        rc = floe__view_metadata_from_json(out, root, what);
    floe__json_free(root);
    floe__buf_free(&plain);
    return rc;
}

void floe__view_metadata_free(floe_view_metadata *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nschemas; i++)
        floe__schema_release(m->schemas[i]);
    floe__props_free(&m->properties);
    floe__arena_free(m->arena);
    floe__free(m);
}

/* ---------------------------------------------------------------- writing */

int floe__view_version_write(floe_jw *w, const floe_view_version *v)
{
    TRY(floe__jw_obj(w));
    TRY(floe__jw_kint(w, "version-id", v->version_id));
    TRY(floe__jw_kint(w, "timestamp-ms", v->timestamp_ms));
    TRY(floe__jw_kint(w, "schema-id", v->schema_id));
    TRY(floe__jw_key(w, "summary"));
    TRY(floe__jw_kv_object(w, v->summary, v->nsummary));
    if (v->default_catalog)
        TRY(floe__jw_kstr(w, "default-catalog", v->default_catalog));
    TRY(floe__jw_key(w, "default-namespace"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < v->ndefault_namespace; i++)
        TRY(floe__jw_str(w, v->default_namespace[i]));
    TRY(floe__jw_arr_end(w));
    TRY(floe__jw_key(w, "representations"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < v->nreprs; i++) {
        const floe_view_repr *r = &v->reprs[i];
        TRY(floe__jw_obj(w));
        TRY(floe__jw_kstr(w, "type", r->type));
        if (r->sql) {
            TRY(floe__jw_kstr(w, "sql", r->sql));
            TRY(floe__jw_kstr(w, "dialect", r->dialect));
        }
        TRY(floe__jw_obj_end(w));
    }
    TRY(floe__jw_arr_end(w));
    return floe__jw_obj_end(w);
}

int floe__view_metadata_write(floe_jw *w, const floe_view_metadata *m)
{
    TRY(floe__jw_obj(w));
    TRY(floe__jw_kstr(w, "view-uuid", m->view_uuid));
    TRY(floe__jw_kint(w, "format-version", m->format_version));
    TRY(floe__jw_kstr(w, "location", m->location));
    if (m->properties.n) {
        TRY(floe__jw_key(w, "properties"));
        TRY(floe__jw_kv_object(w, m->properties.items, m->properties.n));
    }
    TRY(floe__jw_key(w, "schemas"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < m->nschemas; i++)
        TRY(floe__schema_write(w, m->schemas[i]));
    TRY(floe__jw_arr_end(w));
    TRY(floe__jw_kint(w, "current-version-id", m->current_version_id));
    TRY(floe__jw_key(w, "versions"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < m->nversions; i++)
        TRY(floe__view_version_write(w, &m->versions[i]));
    TRY(floe__jw_arr_end(w));
    TRY(floe__jw_key(w, "version-log"));
    TRY(floe__jw_arr(w));
    for (size_t i = 0; i < m->nlog; i++) {
        TRY(floe__jw_obj(w));
        TRY(floe__jw_kint(w, "timestamp-ms", m->version_log[i].timestamp_ms));
        TRY(floe__jw_kint(w, "version-id", m->version_log[i].version_id));
        TRY(floe__jw_obj_end(w));
    }
    TRY(floe__jw_arr_end(w));
    return floe__jw_obj_end(w);
}

int floe__view_metadata_to_json(const floe_view_metadata *m, floe_buf *out)
{
    floe_jw w;
    floe__jw_init(&w, out);
    int rc = floe__view_metadata_write(&w, m);
    return rc < 0 ? rc : floe__jw_finish(&w);
}

/* ---------------------------------------------------------------- building */

int floe__view_metadata_new(floe_view_metadata **out, const char *uuid, const char *location)
{
    floe_view_metadata *m;
    TRY(alloc_meta(&m));
    char fresh[37];
    int rc = uuid ? 0 : floe__uuid4(fresh);
    if (rc == 0 && !(m->view_uuid = floe__arena_strdup(m->arena, uuid ? uuid : fresh)))
        rc = floe__error_nomem();
    if (rc == 0 && location && !(m->location = floe__arena_strdup(m->arena, location)))
        rc = floe__error_nomem();
    m->current_version_id = -1;
    if (rc < 0) {
        floe__view_metadata_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

/* Schemas compare by their JSON with the id left out (Java's sameSchema:
 * same struct and identifier fields). */
static int schema_text(const floe_schema *s, floe_buf *out)
{
    floe_schema copy = *s;
    copy.schema_id = 0;
    floe_jw w;
    floe__jw_init(&w, out);
    int rc = floe__schema_write(&w, &copy);
    return rc < 0 ? rc : floe__jw_finish(&w);
}

/* The per-metadata state of one commit: what was added last (-1 ids). */
typedef struct view_builder {
    floe_view_metadata *m;
    int32_t last_schema; /* -1: none */
    int32_t last_version;
    size_t nadded;       /* versions appended */
    bool history_entry;  /* set-current happened */
} view_builder;

static int add_schema(view_builder *b, const floe_schema *s, int32_t *id)
{
    floe_view_metadata *m = b->m;
    floe_buf want = FLOE_BUF_INIT, have = FLOE_BUF_INIT;
    int rc = schema_text(s, &want);
    int32_t next = 0;
    for (size_t i = 0; rc == 0 && i < m->nschemas; i++) {
        floe__buf_clear(&have);
        rc = schema_text(m->schemas[i], &have);
        if (rc == 0 && have.len == want.len && memcmp(have.ptr, want.ptr, want.len) == 0) {
            *id = m->schemas[i]->schema_id;
            b->last_schema = *id;
            floe__buf_free(&want);
            floe__buf_free(&have);
            return 0;
        }
        if (m->schemas[i]->schema_id >= next)
            next = m->schemas[i]->schema_id + 1;
    }
    floe__buf_free(&have);
    /* The copy is parsed from JSON into m's arena (deep copy of the types). */
    floe_json *j = NULL;
    floe_schema *copy = NULL;
    floe_schema **grown = NULL;
    if (rc == 0)
        rc = floe__json_parse(&j, want.ptr, want.len, "view schema");
    if (rc == 0)
        rc = floe__schema_from_json(&copy, j, 0, m->arena);
    floe__json_free(j);
    floe__buf_free(&want);
    if (rc == 0 && !(grown = grow(m->arena, m->schemas, m->nschemas, sizeof(floe_schema *))))
        rc = floe__error_nomem();
    if (rc != 0) { /* schema_text and the parsers return 0 or a FLOE_E* */
        floe__schema_release(copy);
        return rc;
    }
    copy->schema_id = next;
    grown[m->nschemas] = copy;
    m->schemas = grown;
    m->nschemas++;
    b->last_schema = next;
    *id = next;
    return 0;
}

int floe__view_add_schema(floe_view_metadata *m, const floe_schema *s, int32_t *id)
{
    view_builder b = {m, -1, -1, 0, false};
    return add_schema(&b, s, id);
}

static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Java's sameViewVersion: everything but id and timestamp. */
static bool same_version(const floe_view_version *x, const floe_view_version *y)
{
    if (x->schema_id != y->schema_id || x->nsummary != y->nsummary || x->nreprs != y->nreprs ||
        x->ndefault_namespace != y->ndefault_namespace ||
        !same_str(x->default_catalog, y->default_catalog))
        return false;
    for (size_t i = 0; i < x->nsummary; i++)
        if (!same_str(x->summary[i].key, y->summary[i].key) ||
            !same_str(x->summary[i].value, y->summary[i].value))
            return false;
    for (size_t i = 0; i < x->nreprs; i++)
        if (!same_str(x->reprs[i].type, y->reprs[i].type) ||
            !same_str(x->reprs[i].sql, y->reprs[i].sql) ||
            !same_str(x->reprs[i].dialect, y->reprs[i].dialect))
            return false;
    for (size_t i = 0; i < x->ndefault_namespace; i++)
        if (!same_str(x->default_namespace[i], y->default_namespace[i]))
            return false;
    return true;
}

/* Deep copy of a version into the arena. */
static int copy_version(floe_arena *a, const floe_view_version *src, floe_view_version *dst)
{
    *dst = *src;
    floe_kv *kv = src->nsummary ? floe__arena_calloc(a, src->nsummary, sizeof *kv) : NULL;
    floe_view_repr *r = src->nreprs ? floe__arena_calloc(a, src->nreprs, sizeof *r) : NULL;
    const char **ns = src->ndefault_namespace
                          ? floe__arena_calloc(a, src->ndefault_namespace, sizeof *ns)
                          : NULL;
    if ((src->nsummary && !kv) || (src->nreprs && !r) || (src->ndefault_namespace && !ns))
        return floe__error_nomem();
    for (size_t i = 0; i < src->nsummary; i++)
        if (!(kv[i].key = floe__arena_strdup(a, src->summary[i].key)) ||
            !(kv[i].value = floe__arena_strdup(a, src->summary[i].value)))
            return floe__error_nomem();
    for (size_t i = 0; i < src->nreprs; i++) {
        TRY(lower_dup(a, src->reprs[i].type, &r[i].type));
        if (src->reprs[i].sql && (!(r[i].sql = floe__arena_strdup(a, src->reprs[i].sql)) ||
                                  !(r[i].dialect = floe__arena_strdup(a, src->reprs[i].dialect))))
            return floe__error_nomem();
    }
    for (size_t i = 0; i < src->ndefault_namespace; i++)
        if (!(ns[i] = floe__arena_strdup(a, src->default_namespace[i])))
            return floe__error_nomem();
    dst->summary = kv;
    dst->reprs = r;
    dst->default_namespace = ns;
    if (src->default_catalog && !(dst->default_catalog = floe__arena_strdup(a, src->default_catalog)))
        return floe__error_nomem();
    return 0;
}

static int add_version(view_builder *b, const floe_view_version *in, int32_t *id)
{
    floe_view_metadata *m = b->m;
    floe_view_version v = *in;
    if (v.schema_id == -1) {
        if (b->last_schema < 0)
            return bad("Cannot set last added schema: no schema has been added");
        v.schema_id = b->last_schema;
    }
    int32_t next = v.version_id;
    for (size_t i = 0; i < m->nversions; i++) {
        if (same_version(&m->versions[i], &v)) {
            *id = m->versions[i].version_id;
            b->last_version = *id;
            return 0;
        }
        if (m->versions[i].version_id >= next)
            next = m->versions[i].version_id + 1;
    }
    if (!floe__view_schema(m, v.schema_id))
        return bad("Cannot add version with unknown schema: %d", (int)v.schema_id);
    TRY(check_dialects(&v));
    floe_view_version *grown = grow(m->arena, m->versions, m->nversions, sizeof *grown);
    if (!grown)
        return floe__error_nomem();
    TRY(copy_version(m->arena, &v, &grown[m->nversions]));
    grown[m->nversions].version_id = next;
    m->versions = grown;
    m->nversions++;
    b->nadded++;
    b->last_version = next;
    *id = next;
    return 0;
}

int floe__view_add_version(floe_view_metadata *m, const floe_view_version *v, int32_t *id)
{
    view_builder b = {m, -1, -1, 0, false};
    /* a stand-alone call may name the schema added last: the highest id */
    for (size_t i = 0; i < m->nschemas; i++)
        if (m->schemas[i]->schema_id > b.last_schema)
            b.last_schema = m->schemas[i]->schema_id;
    return add_version(&b, v, id);
}

static int set_current(view_builder *b, int32_t version_id, int64_t now_ms)
{
    floe_view_metadata *m = b->m;
    if (version_id == -1) {
        if (b->last_version < 0)
            return bad("Cannot set last version id: no current version id has been set");
        version_id = b->last_version;
    }
    const floe_view_version *v = NULL;
    for (size_t i = 0; i < m->nversions; i++)
        if (m->versions[i].version_id == version_id)
            v = &m->versions[i];
    if (!v)
        return bad("Cannot set current version to unknown version: %d", (int)version_id);
    if (m->current_version_id == version_id)
        return 0;
    m->current_version_id = version_id;
    /* a version added by this commit is logged at its own timestamp */
    bool added_now = (size_t)(v - m->versions) >= m->nversions - b->nadded;
    floe_view_log_entry *log = grow(m->arena, m->version_log, m->nlog, sizeof *log);
    if (!log)
        return floe__error_nomem();
    log[m->nlog].timestamp_ms = added_now ? v->timestamp_ms : now_ms;
    log[m->nlog].version_id = version_id;
    m->version_log = log;
    m->nlog++;
    b->history_entry = true;
    return 0;
}

int floe__view_set_current(floe_view_metadata *m, int32_t version_id)
{
    view_builder b = {m, -1, -1, 0, false};
    if (version_id == -1 && m->nversions)
        b.last_version = m->versions[m->nversions - 1].version_id;
    return set_current(&b, version_id, floe__now_ms());
}

static int cmp_desc(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return a < b ? 1 : a > b ? -1 : 0;
}

int floe__view_finish(floe_view_metadata *m, size_t nadded)
{
    if (!m->location)
        return bad("Invalid location: null");
    if (m->nversions == 0)
        return bad("Invalid view: no versions were added");
    int64_t keep_cfg;
    TRY(floe__props_get_int64(&m->properties, HISTORY_SIZE_KEY, HISTORY_SIZE_DEFAULT, &keep_cfg));
    if (keep_cfg <= 0)
        return bad(HISTORY_SIZE_KEY " must be positive but was %lld", (long long)keep_cfg);
    /* keep the versions added now, the current one, and the newest ids */
    size_t must = nadded;
    bool cur_added = false;
    for (size_t i = m->nversions - nadded; i < m->nversions; i++)
        if (m->versions[i].version_id == m->current_version_id)
            cur_added = true;
    if (!cur_added)
        must++;
    size_t keep = (size_t)keep_cfg > must ? (size_t)keep_cfg : must;
    if (m->nversions <= keep)
        return 0;
    int32_t *ids = floe__arena_calloc(m->arena, m->nversions, sizeof *ids);
    if (!ids)
        return floe__error_nomem();
    for (size_t i = 0; i < m->nversions; i++)
        ids[i] = m->versions[i].version_id;
    qsort(ids, m->nversions, sizeof *ids, cmp_desc);
    /* retained: the current one plus the highest ids up to `keep` */
    size_t out = 0;
    floe_view_version *kept = floe__arena_calloc(m->arena, keep, sizeof *kept);
    if (!kept)
        return floe__error_nomem();
    const floe_view_version *cur = floe__view_current_version(m);
    kept[out++] = *cur;
    for (size_t k = 0; k < keep && out < keep; k++) {
        if (ids[k] == cur->version_id)
            continue;
        for (size_t i = 0; i < m->nversions; i++)
            if (m->versions[i].version_id == ids[k])
                kept[out++] = m->versions[i];
    }
    m->versions = kept;
    m->nversions = out;
    /* history: clear past any entry whose version is gone */
    size_t nlog = 0;
    for (size_t i = 0; i < m->nlog; i++) {
        bool known = false;
        for (size_t k = 0; k < m->nversions; k++)
            if (m->versions[k].version_id == m->version_log[i].version_id)
                known = true;
        if (known)
            m->version_log[nlog++] = m->version_log[i];
        else
            nlog = 0;
    }
    m->nlog = nlog;
    return 0;
}

/* ---------------------------------------------------------------- the REST view commit */

static int check_requirement(const floe_view_metadata *m, const floe_json *r)
{
    const char *type = floe__json_sval(floe__json_get(r, "type"));
    if (!type)
        return bad("missing required field 'type' in view requirement");
    if (strcmp(type, "assert-view-uuid") != 0)
        return floe__error(FLOE_EUNSUPPORTED, "view", "unsupported view requirement '%s'", type);
    const char *uuid = floe__json_sval(floe__json_get(r, "uuid"));
    if (!uuid)
        return bad("missing required field 'uuid' in requirement 'assert-view-uuid'");
    if (strcasecmp(uuid, m->view_uuid) != 0)
        return floe__error(FLOE_ECONFLICT, "view",
                           "Requirement failed: view UUID does not match: expected %s != %s",
                           m->view_uuid, uuid);
    return 0;
}

/* The updates a view shares with tables go through the one table-update
 * parser (spec/commit.c); the two view ones are parsed here. */
static int apply_update(view_builder *b, const floe_json *u, floe_arena *scratch)
{
    floe_view_metadata *m = b->m;
    const char *action = floe__json_sval(floe__json_get(u, "action"));
    if (!floe__json_is_object(u) || !action)
        return bad("missing required field 'action' in view update");
    if (strcmp(action, "add-view-version") == 0) {
        floe_view_version v;
        const floe_json *vj = floe__json_get(u, "view-version");
        if (!vj)
            return bad("missing required field 'view-version' in update 'add-view-version'");
        TRY(floe__view_version_from_json(&v, vj, scratch));
        int32_t id;
        return add_version(b, &v, &id);
    }
    if (strcmp(action, "set-current-view-version") == 0) {
        int32_t id;
        TRY(floe__json_i32(u, "view-version-id", "update 'set-current-view-version'", &id));
        return set_current(b, id, floe__now_ms());
    }
    int fv = m->format_version;
    floe_table_update t;
    TRY(floe__update_parse(u, &fv, scratch, &t));
    int rc = 0;
    int32_t id;
    switch (t.type) {
    case FLOE_UPD_ASSIGN_UUID:
        if (m->view_uuid && strcmp(m->view_uuid, t.name) != 0)
            rc = bad("Cannot reassign uuid");
        else if (!(m->view_uuid = floe__arena_strdup(m->arena, t.name)))
            rc = floe__error_nomem();
        break;
    case FLOE_UPD_UPGRADE_FORMAT_VERSION:
        if (t.id > FLOE_VIEW_FORMAT_VERSION)
            rc = bad("Unsupported format version: %lld", (long long)t.id);
        else if (t.id < m->format_version)
            rc = bad("Cannot downgrade v%d view to v%lld", m->format_version, (long long)t.id);
        break;
    case FLOE_UPD_ADD_SCHEMA: rc = add_schema(b, t.schema, &id); break;
    case FLOE_UPD_SET_LOCATION:
        if (!(m->location = floe__arena_strdup(m->arena, t.name)))
            rc = floe__error_nomem();
        break;
    case FLOE_UPD_SET_PROPERTIES:
        for (size_t i = 0; rc == 0 && i < t.nkv; i++)
            rc = floe__props_set(&m->properties, t.kv[i].key, t.kv[i].value);
        break;
    case FLOE_UPD_REMOVE_PROPERTIES:
        for (size_t i = 0; i < t.nkeys; i++)
            floe__props_del(&m->properties, t.keys[i]);
        break;
    default:
        rc = floe__error(FLOE_EUNSUPPORTED, "view", "Cannot apply update '%s' to a view", action);
    }
    floe__commit_release(&t, 1);
    return rc;
}

int floe__view_commit_apply(floe_view_metadata *m, const floe_json *body)
{
    const floe_json *reqs = floe__json_get(body, "requirements");
    const floe_json *upds = floe__json_get(body, "updates");
    if (!floe__json_is_object(body))
        return bad("Cannot parse view commit from non-object");
    if (reqs && !floe__json_is_null(reqs) && !floe__json_is_array(reqs))
        return bad("field 'requirements' of a view commit must be an array");
    if (upds && !floe__json_is_null(upds) && !floe__json_is_array(upds))
        return bad("field 'updates' of a view commit must be an array");
    for (size_t i = 0; i < floe__json_len(reqs); i++)
        TRY(check_requirement(m, floe__json_at(reqs, i)));
    floe_arena *scratch = floe__arena_new(4096);
    if (!scratch)
        return floe__error_nomem();
    view_builder b = {m, -1, -1, 0, false};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < floe__json_len(upds); i++)
        rc = apply_update(&b, floe__json_at(upds, i), scratch);
    floe__arena_free(scratch);
    if (rc == 0)
        rc = floe__view_finish(m, b.nadded);
    return rc;
}
