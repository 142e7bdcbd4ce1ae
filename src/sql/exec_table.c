/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_table: table statements of `floe sql` on the table layer
 * (include/floe/table.h): CREATE TABLE (Spark types -> Iceberg schema JSON,
 * PARTITIONED BY transforms -> partition spec JSON, spec "Partition
 * Transforms"; Java's default partition field names), DROP TABLE [PURGE],
 * ALTER TABLE SET/UNSET TBLPROPERTIES and RENAME TO, DESCRIBE [EXTENDED],
 * REFRESH TABLE, and ALTER TABLE CREATE/REPLACE/DROP BRANCH|TAG.
 * Tables are obtained through the session's table cache (exec_refs.c).
 */
#include "spec/metadata.h"
#include "spec/spec.h"
#include "sql/exec_int.h"
#include "table/table.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- CREATE TABLE */

static const char *partition_name(floe_arena *a, const floe_sql_partition_field *p)
{
    const char *t = p->transform;
    if (strcmp(t, "identity") == 0)
        return p->column;
    const char *suffix = strncmp(t, "bucket", 6) == 0     ? "bucket"
                         : strncmp(t, "truncate", 8) == 0 ? "trunc"
                                                          : t;
    return floe__arena_sprintf(a, "%s_%s", p->column, suffix);
}

/* CTAS without a column list: the query's result columns, typed from the
 * table column they come from when there is one (SQLite reports the origin
 * of plain column references), else from the first row's values (INTEGER
 * -> long, REAL -> double, BLOB -> binary, TEXT/none -> string). */
int floe__sql_infer_columns(floe_sql_session *s, const floe_sql_query *q, floe_arena *a,
                            floe_sql_column **out, size_t *n)
{
    sqlite3_stmt *qs = NULL;
    if (sqlite3_prepare_v2(s->db, q->sql, -1, &qs, NULL) != SQLITE_OK || !qs)
        return floe__sql_sqlite_fail(s);
    int ncol = sqlite3_column_count(qs);
    int step = sqlite3_step(qs);
    floe_sql_column *cols = floe__arena_calloc(a, ncol ? (size_t)ncol : 1, sizeof *cols);
    int rc = cols ? 0 : floe__error_nomem();
    floe_buf tb = FLOE_BUF_INIT;
    for (int i = 0; rc == 0 && i < ncol; i++) {
        char *name = floe__arena_strdup(a, sqlite3_column_name(qs, i));
        if (name)
            floe__sql_strip_twin_marks(name);
        cols[i].name = name;
        const floe_type *t = floe__sql_live_column_type(s, sqlite3_column_table_name(qs, i),
                                                        sqlite3_column_origin_name(qs, i));
        const char *ty = NULL;
        if (t && floe_type_is_nested(t)) {
            cols[i].nested = t;
            ty = floe__type_name(t->id);
        } else if (t) {
            floe__buf_clear(&tb);
            rc = floe__type_format(t, &tb);
            ty = rc == 0 ? floe__arena_strdup(a, tb.ptr ? tb.ptr : "string") : NULL;
        } else {
            int vt = step == SQLITE_ROW ? sqlite3_column_type(qs, i) : SQLITE_TEXT;
            ty = vt == SQLITE_INTEGER ? "long"
                 : vt == SQLITE_FLOAT ? "double"
                 : vt == SQLITE_BLOB  ? "binary"
                                      : "string";
        }
        cols[i].type = ty;
        cols[i].sql_type = ty;
        if (rc == 0 && (!cols[i].name || !ty))
            rc = floe__error_nomem();
    }
    floe__buf_free(&tb);
    sqlite3_finalize(qs);
    *out = cols;
    *n = (size_t)ncol;
    return rc;
}

/* Iceberg JSON of a (nested) type with fresh field ids, in the order of
 * Iceberg's TypeUtil.assignFreshIds (what a catalog applies to a new
 * table's schema): a struct numbers all its fields before descending into
 * their types, a list its element, a map its key then value. */
static json_t *type_json(const floe_type *t, int32_t *next);

static json_t *field_json(const floe_field *f, int32_t id, int32_t *next)
{
    json_t *o = json_object(), *ty = type_json(f->type, next);
    if (!o || !ty) {
        json_decref(o);
        json_decref(ty);
        return NULL;
    }
    json_object_set_new(o, "id", json_integer(id));
    json_object_set_new(o, "name", json_string(f->name));
    json_object_set_new(o, "required", json_boolean(f->required));
    json_object_set_new(o, "type", ty);
    if (f->doc)
        json_object_set_new(o, "doc", json_string(f->doc));
    return o;
}

static json_t *type_json(const floe_type *t, int32_t *next)
{
    json_t *o = NULL;
    switch (t->id) {
    case FLOE_T_STRUCT: {
        int32_t first = *next;
        *next += (int32_t)t->nfields;
        json_t *fs = json_array();
        o = json_object();
        if (!o || !fs) {
            json_decref(fs);
            break;
        }
        json_object_set_new(o, "type", json_string("struct"));
        json_object_set_new(o, "fields", fs);
        for (size_t i = 0; i < t->nfields; i++) {
            json_t *f = field_json(&t->fields[i], first + (int32_t)i, next);
            if (!f || json_array_append_new(fs, f) < 0) {
                json_decref(o);
                return NULL;
            }
        }
        return o;
    }
    case FLOE_T_LIST: {
        int32_t id = (*next)++;
        json_t *et = type_json(t->element->type, next);
        if (!et || !(o = json_object())) {
            json_decref(et);
            return NULL;
        }
        json_object_set_new(o, "type", json_string("list"));
        json_object_set_new(o, "element-id", json_integer(id));
        json_object_set_new(o, "element", et);
        json_object_set_new(o, "element-required", json_boolean(t->element->required));
        return o;
    }
    case FLOE_T_MAP: {
        int32_t kid = (*next)++, vid = (*next)++;
        json_t *kt = type_json(t->key->type, next);
        json_t *vt = kt ? type_json(t->value->type, next) : NULL;
        if (!kt || !vt || !(o = json_object())) {
            json_decref(kt);
            json_decref(vt);
            return NULL;
        }
        json_object_set_new(o, "type", json_string("map"));
        json_object_set_new(o, "key-id", json_integer(kid));
        json_object_set_new(o, "key", kt);
        json_object_set_new(o, "value-id", json_integer(vid));
        json_object_set_new(o, "value", vt);
        json_object_set_new(o, "value-required", json_boolean(t->value->required));
        return o;
    }
    default: {
        floe_buf b = FLOE_BUF_INIT;
        if (floe__type_format(t, &b) == 0)
            o = json_string(b.ptr ? b.ptr : "");
        floe__buf_free(&b);
        return o;
    }
    }
    return NULL;
}

json_t *floe__sql_columns_schema(const floe_sql_column *cols, size_t n)
{
    json_t *schema = json_object(), *fields = json_array();
    if (!schema || !fields) {
        json_decref(schema);
        json_decref(fields);
        return NULL;
    }
    json_object_set_new(schema, "type", json_string("struct"));
    json_object_set_new(schema, "schema-id", json_integer(0));
    json_object_set_new(schema, "fields", fields);
    /* top-level columns take ids 1..n, nested fields follow (type_json) */
    int32_t next_id = (int32_t)n + 1;
    for (size_t i = 0; i < n; i++) {
        const floe_sql_column *col = &cols[i];
        json_t *f = json_object();
        json_t *ty = col->nested ? type_json(col->nested, &next_id) : json_string(col->type);
        if (!f || !ty || json_array_append(fields, f) < 0) {
            json_decref(f);
            json_decref(ty);
            json_decref(schema);
            return NULL;
        }
        json_decref(f); /* the array holds it */
        json_object_set_new(f, "id", json_integer((json_int_t)i + 1));
        json_object_set_new(f, "name", json_string(col->name));
        json_object_set_new(f, "required", json_boolean(col->not_null));
        json_object_set_new(f, "type", ty);
        if (col->comment)
            json_object_set_new(f, "doc", json_string(col->comment));
    }
    return schema;
}

static int create_table_impl(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a);

static int create_table(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    if (!st->create.as_query)
        return create_table_impl(s, st, a);
    /* CTAS: the query's references live through create + insert */
    int rc = floe__sql_refs_create(s, st);
    floe_sql_stmt copy = *st;
    if (rc == 0 && st->create.ncolumns == 0) {
        floe_sql_column *cols = NULL;
        size_t n = 0;
        rc = floe__sql_infer_columns(s, st->create.as_query, a, &cols, &n);
        copy.create.columns = cols;
        copy.create.ncolumns = n;
    }
    if (rc == 0)
        rc = create_table_impl(s, &copy, a);
    floe__sql_refs_drop(s, st);
    return rc;
}

/* REPLACE TABLE / CREATE OR REPLACE TABLE of an existing table
 * (floe_table_replace_begin: history kept, main removed, new definition
 * current). One commit either way: AS SELECT writes the query's rows
 * through the staged replacement (the query reads the table as it was:
 * nothing is committed until the end), then the replacement and the new
 * snapshot are committed together; any failure before leaves the table
 * exactly as it was, as Spark's atomic REPLACE TABLE AS SELECT. */
static int replace_table(floe_sql_session *s, const floe_sql_stmt *st, const char *ident,
                         const floe_table_create_options *co)
{
    const floe_sql_create_table *c = &st->create;
    floe__sql_forget_table(s, ident);
    floe_table *t = NULL, *staged = NULL;
    int rc = floe_table_load(&t, s->catalog, ident, floe__sql_table_options(s));
    if (rc == 0)
        rc = floe_table_replace_begin(&staged, t, co);
    if (rc == 0 && c->as_query)
        rc = floe__sql_insert_into(s, st, staged, ident, c->as_query, NULL, 0);
    if (rc == 0) /* no rows: the replacement alone */
        rc = floe_table_replace_commit(staged);
    floe__sql_forget_table(s, ident);
    floe_table_free(staged);
    floe_table_free(t);
    return rc;
}

static int create_table_impl(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const floe_sql_create_table *c = &st->create;
    const char *ident = floe__sql_table_ident(s, &st->target, a);
    if (!ident)
        return floe__error_nomem();
    for (size_t i = 0; i < c->ncolumns; i++) {
        if (!c->columns[i].has_default)
            continue;
        /* ResolveDefaultColumns: SparkCatalog does not declare column defaults */
        floe_buf q = FLOE_BUF_INIT;
        int qrc = floe__sql_quoted_table(s, ident, &q);
        if (qrc == 0)
            qrc = floe__sql_fail(
                s,
                floe__error(FLOE_EUNSUPPORTED, "sql",
                            "[UNSUPPORTED_FEATURE.TABLE_OPERATION] The feature is not supported: "
                            "Table %s does not support column default value. Please check the "
                            "current catalog and namespace to make sure the qualified table name "
                            "is expected, and also check the catalog implementation which is "
                            "configured by \"spark.sql.catalog\".",
                            q.ptr),
                "AnalysisException");
        floe__buf_free(&q);
        return qrc;
    }
    if (floe_catalog_view_exists(s->catalog, ident) == 1) /* JdbcTableOperations */
        return floe__sql_fail(
            s, floe__error(FLOE_EEXISTS, "sql", "View with same name already exists: %s", ident),
            "AlreadyExistsException");
    floe_error_clear();
    char *loc = NULL;
    int ex = floe_catalog_load_table(&loc, NULL, s->catalog, ident);
    floe_string_free(loc);
    bool replacing = ex == 0 && c->or_replace;
    if (ex == FLOE_ENOTFOUND && c->replace_only)
        return floe__sql_fail(s,
                              floe__error(FLOE_ENOTFOUND, "sql",
                                          "Table %s cannot be replaced as it did not exist. Use "
                                          "CREATE OR REPLACE TABLE to create the table.",
                                          ident),
                              "CannotReplaceMissingTableException");
    if (ex == 0 && !replacing) {
        if (c->if_not_exists)
            return 0;
        return floe__sql_fail(s,
                              floe__error(FLOE_EEXISTS, "sql", "Table already exists: %s", ident),
                              "AlreadyExistsException");
    }
    if (ex != FLOE_ENOTFOUND && !replacing)
        return ex;
    if (c->ncolumns == 0)
        return floe__sql_fail(s,
                              floe__error(FLOE_EUNSUPPORTED, "sql",
                                          "CREATE TABLE without columns is not supported yet"),
                              "UnsupportedOperationException");

    int rc = FLOE_ENOMEM;
    json_t *schema = NULL, *fields = NULL;
    json_t *spec = json_object(), *pfields = json_array();
    char *schema_json = NULL, *spec_json = NULL;
    floe_props props = FLOE_PROPS_INIT;
    if (!spec || !pfields)
        goto done;
    for (size_t i = 0; i < c->ncolumns; i++)
        for (size_t k = 0; k < i; k++)
            if (strcasecmp(c->columns[k].name, c->columns[i].name) == 0) {
                rc = floe__sql_fail(s,
                                    floe__error(FLOE_EINVALID, "sql",
                                                "Cannot create a table having a column whose name "
                                                "contains commas or duplicate columns: %s",
                                                c->columns[i].name),
                                    "AnalysisException");
                goto done;
            }
    if (!(schema = floe__sql_columns_schema(c->columns, c->ncolumns)))
        goto done;
    fields = json_incref(json_object_get(schema, "fields"));
    json_object_set_new(spec, "spec-id", json_integer(0));
    for (size_t i = 0; i < c->npartition; i++) {
        const floe_sql_partition_field *p = &c->partition[i];
        size_t src = 0;
        while (src < c->ncolumns && strcasecmp(c->columns[src].name, p->column) != 0)
            src++;
        if (src == c->ncolumns) {
            rc = floe__sql_classify(
                s, floe__error_as(FLOE_EINVALID, FLOE_KIND_ILLEGAL_ARGUMENT, "sql",
                                  "Cannot find source column for partition field: %s", p->column));
            goto done;
        }
        if (c->columns[src].nested) { /* spec: transforms take primitive sources */
            rc = floe__sql_classify(
                s, floe__error_as(FLOE_EINVALID, FLOE_KIND_VALIDATION, "sql",
                                  "Cannot partition by non-primitive source field: %s", p->column));
            goto done;
        }
        const char *name = partition_name(a, p);
        json_t *f = json_object();
        if (!f || !name)
            goto done;
        json_object_set_new(f, "source-id", json_integer((json_int_t)src + 1));
        json_object_set_new(f, "field-id", json_integer(1000 + (json_int_t)i));
        json_object_set_new(f, "name", json_string(name));
        json_object_set_new(f, "transform", json_string(p->transform));
        json_array_append_new(pfields, f);
    }
    json_object_set(spec, "fields", pfields);
    schema_json = json_dumps(schema, JSON_COMPACT);
    spec_json = json_dumps(spec, JSON_COMPACT);
    if (!schema_json || !spec_json)
        goto done;
    rc = 0;
    for (size_t i = 0; rc == 0 && i < c->nprops; i++)
        rc = floe__props_set(&props, c->props[i].key, c->props[i].value ? c->props[i].value : "");
    if (rc == 0 && c->comment)
        rc = floe__props_set(&props, "comment", c->comment);
    if (rc < 0)
        goto done;
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = schema_json;
    co.partition_spec_json = spec_json;
    co.properties = &props;
    co.location = c->location;
    if (replacing) {
        rc = replace_table(s, st, ident, &co);
        goto done;
    }
    rc = floe_table_create(NULL, s->catalog, ident, &co, floe__sql_table_options(s));
    if (rc == 0 && c->as_query) {
        rc = floe__sql_insert_query(s, st, ident, c->as_query, NULL, 0, a);
        if (rc < 0) { /* CTAS is atomic in Spark: no table without its rows */
            char *msg = floe__strdup(floe_error_last() ? floe_error_last()->message : "");
            floe_table_drop(s->catalog, ident, true, floe__sql_table_options(s));
            floe__error(rc, "sql", "%s", msg ? msg : "CREATE TABLE AS SELECT failed");
            floe__free(msg);
        }
    }
done:
    free(schema_json);
    free(spec_json);
    json_decref(schema);
    json_decref(fields);
    json_decref(spec);
    json_decref(pfields);
    floe__props_free(&props);
    if (rc == FLOE_ENOMEM && floe__error_code() != FLOE_ENOMEM)
        return floe__error_nomem();
    return rc;
}

/* ---------------------------------------------------------------- DESCRIBE */

/* Spark's name of an Iceberg type: its catalogString ("struct<a:int>",
 * DESCRIBE) or, with `sql`, its SQL form in messages ("STRUCT<a: INT>"). */
int floe__sql_quote_if_needed(const char *name, floe_buf *b)
{
    bool plain = *name != '\0', digits = true;
    for (const char *c = name; *c; c++) {
        bool word = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                    (*c >= '0' && *c <= '9') || *c == '_';
        plain &= word;
        digits &= *c >= '0' && *c <= '9';
    }
    if (plain && !digits)
        return floe__buf_puts(b, name);
    FLOE_TRY(floe__buf_putc(b, '`'));
    for (const char *c = name; *c; c++)
        FLOE_TRY(*c == '`' ? floe__buf_puts(b, "``") : floe__buf_putc(b, *c));
    return floe__buf_putc(b, '`');
}

int floe__sql_single_quoted(const char *text, floe_buf *b)
{
    FLOE_TRY(floe__buf_putc(b, '\''));
    for (const char *c = text; *c; c++)
        FLOE_TRY(*c == '\'' ? floe__buf_puts(b, "\\'") : floe__buf_putc(b, *c));
    return floe__buf_putc(b, '\'');
}

int floe__sql_spark_type(const floe_type *t, bool sql, floe_buf *b)
{
    const char *name = NULL;
    switch (t->id) {
    case FLOE_T_BOOLEAN: name = "boolean"; break;
    case FLOE_T_INT: name = "int"; break;
    case FLOE_T_LONG: name = "bigint"; break;
    case FLOE_T_FLOAT: name = "float"; break;
    case FLOE_T_DOUBLE: name = "double"; break;
    case FLOE_T_DECIMAL:
        return floe__buf_printf(b, sql ? "DECIMAL(%d,%d)" : "decimal(%d,%d)", t->precision,
                                t->scale);
    case FLOE_T_DATE: name = "date"; break;
    case FLOE_T_TIMESTAMP: name = "timestamp_ntz"; break;
    case FLOE_T_TIMESTAMPTZ: name = "timestamp"; break;
    case FLOE_T_STRING:
    case FLOE_T_UUID: name = "string"; break;
    case FLOE_T_FIXED:
    case FLOE_T_BINARY: name = "binary"; break;
    case FLOE_T_UNKNOWN: name = "void"; break;
    case FLOE_T_LIST:
        FLOE_TRY(floe__buf_puts(b, sql ? "ARRAY<" : "array<"));
        FLOE_TRY(floe__sql_spark_type(t->element->type, sql, b));
        return floe__buf_putc(b, '>');
    case FLOE_T_MAP:
        FLOE_TRY(floe__buf_puts(b, sql ? "MAP<" : "map<"));
        FLOE_TRY(floe__sql_spark_type(t->key->type, sql, b));
        FLOE_TRY(floe__buf_puts(b, sql ? ", " : ","));
        FLOE_TRY(floe__sql_spark_type(t->value->type, sql, b));
        return floe__buf_putc(b, '>');
    case FLOE_T_STRUCT:
        FLOE_TRY(floe__buf_puts(b, sql ? "STRUCT<" : "struct<"));
        for (size_t i = 0; i < t->nfields; i++) {
            const floe_field *f = &t->fields[i];
            if (!sql) {
                FLOE_TRY(floe__buf_printf(b, "%s%s:", i ? "," : "", f->name));
                FLOE_TRY(floe__sql_spark_type(f->type, sql, b));
                continue;
            }
            /* StructField.sql: quoteIfNeeded(name): type [COMMENT '...'] */
            FLOE_TRY(floe__buf_puts(b, i ? ", " : ""));
            FLOE_TRY(floe__sql_quote_if_needed(f->name, b));
            FLOE_TRY(floe__buf_puts(b, ": "));
            FLOE_TRY(floe__sql_spark_type(f->type, sql, b));
            if (f->doc) {
                FLOE_TRY(floe__buf_puts(b, " COMMENT "));
                FLOE_TRY(floe__sql_single_quoted(f->doc, b));
            }
        }
        return floe__buf_putc(b, '>');
    default: return floe__type_format(t, b);
    }
    if (!sql)
        return floe__buf_puts(b, name);
    for (const char *c = name; *c; c++)
        FLOE_TRY(floe__buf_putc(b, (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c)));
    return 0;
}

const char *floe__sql_transform_text(floe_arena *a, const floe_partition_field *f, const char *col)
{
    switch (f->transform.kind) {
    case FLOE_TR_VOID: return NULL;
    case FLOE_TR_IDENTITY: return col;
    case FLOE_TR_BUCKET: return floe__arena_sprintf(a, "bucket(%d, %s)", f->transform.param, col);
    case FLOE_TR_TRUNCATE:
        return floe__arena_sprintf(a, "truncate(%d, %s)", f->transform.param, col);
    case FLOE_TR_YEAR: return floe__arena_sprintf(a, "years(%s)", col);
    case FLOE_TR_MONTH: return floe__arena_sprintf(a, "months(%s)", col);
    case FLOE_TR_DAY: return floe__arena_sprintf(a, "days(%s)", col);
    case FLOE_TR_HOUR: return floe__arena_sprintf(a, "hours(%s)", col);
    default: return floe__arena_sprintf(a, "%s(%s)", f->transform.name, col);
    }
}

struct rows3 {
    floe_vec cells; /* floe_sql_cell, 3 per row */
    floe_arena *a;
};

static int add3(struct rows3 *r, const char *x, const char *y, const char *z)
{
    const char *v[3] = {x, y, z};
    for (int i = 0; i < 3; i++) {
        floe_sql_cell *c = floe__vec_push(&r->cells);
        if (!c)
            return floe__error_nomem();
        *c = v[i] ? floe__sql_cell_text(v[i]) : floe__sql_cell_text("");
        if (!v[i] && i == 2)
            *c = floe__sql_cell_null();
    }
    return 0;
}

/* Spark's DESCRIBE EXTENDED "Table Properties": SparkTable.properties()
 * (format, current-snapshot-id, format-version, sort-order,
 * identifier-fields) and the table's own, sorted by key. */
static int kv_cmp(const void *x, const void *y)
{
    return strcmp(((const floe_kv *)x)->key, ((const floe_kv *)y)->key);
}

static const char *sort_order_text(floe_arena *a, const floe_table_metadata *m)
{
    const floe_sort_order *o = floe__metadata_sort_order(m, m->default_sort_order_id);
    const floe_schema *sc = floe__metadata_current_schema(m);
    if (!o || !o->nfields || !sc)
        return NULL;
    floe_buf b = FLOE_BUF_INIT;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < o->nfields; i++) {
        const floe_sort_field *f = &o->fields[i];
        const floe_field *src = floe__schema_field_by_id(sc, f->source_id);
        const char *col = src ? src->name : "?";
        const char *dir = f->descending ? "DESC" : "ASC";
        const char *nulls = f->nulls_first ? "NULLS FIRST" : "NULLS LAST";
        if (i)
            rc = floe__buf_puts(&b, ", ");
        switch (f->transform.kind) {
        case FLOE_TR_BUCKET:
            rc = rc ? rc : floe__buf_printf(&b, "bucket(%d, %s)", (int)f->transform.param, col);
            break;
        case FLOE_TR_TRUNCATE:
            rc = rc ? rc : floe__buf_printf(&b, "truncate(%s, %d)", col, (int)f->transform.param);
            break;
        case FLOE_TR_YEAR: rc = rc ? rc : floe__buf_printf(&b, "years(%s)", col); break;
        case FLOE_TR_MONTH: rc = rc ? rc : floe__buf_printf(&b, "months(%s)", col); break;
        case FLOE_TR_DAY: rc = rc ? rc : floe__buf_printf(&b, "days(%s)", col); break;
        case FLOE_TR_HOUR: rc = rc ? rc : floe__buf_printf(&b, "hours(%s)", col); break;
        default: rc = rc ? rc : floe__buf_puts(&b, col); break;
        }
        if (rc == 0)
            rc = floe__buf_printf(&b, " %s %s", dir, nulls);
    }
    const char *r = rc == 0 && b.ptr ? floe__arena_strdup(a, b.ptr) : NULL;
    floe__buf_free(&b);
    return r;
}

/* CatalogV2Util.TABLE_RESERVED_PROPERTIES: shown apart (or not at all). */
static bool reserved_prop(const char *k)
{
    static const char *const keys[] = {"comment", "location", "provider",
                                       "owner",   "external", "is_managed_location"};
    for (size_t i = 0; i < FLOE_ARRAY_LEN(keys); i++)
        if (strcmp(k, keys[i]) == 0)
            return true;
    return false;
}

/* SQLConf.redactOptions with the default spark.redaction.regex,
 * (?i)secret|password|token|access[.]?key, matched against the key. */
static bool redacted_prop(const char *key)
{
    static const char *const words[] = {"secret", "password", "token", "accesskey", "access.key"};
    for (const char *k = key; *k; k++)
        for (size_t w = 0; w < FLOE_ARRAY_LEN(words); w++)
            if (strncasecmp(k, words[w], strlen(words[w])) == 0)
                return true;
    return false;
}

int floe__sql_spark_props(const floe_table_metadata *m, floe_arena *a, floe_kv **out, size_t *nout)
{
    size_t n = 0, cap = m->properties.n + 5;
    floe_kv *kv = floe__arena_calloc(a, cap, sizeof *kv);
    if (!kv)
        return floe__error_nomem();
    kv[n].key = (char *)"current-snapshot-id";
    kv[n++].value = m->has_current_snapshot
                        ? floe__arena_sprintf(a, "%lld", (long long)m->current_snapshot_id)
                        : (char *)"none";
    kv[n].key = (char *)"format";
    kv[n++].value = (char *)"iceberg/parquet";
    kv[n].key = (char *)"format-version";
    kv[n++].value = floe__arena_sprintf(a, "%d", m->format_version);
    const char *order = sort_order_text(a, m);
    if (order) {
        kv[n].key = (char *)"sort-order";
        kv[n++].value = (char *)order;
    }
    const floe_schema *sc = floe__metadata_current_schema(m);
    if (sc && sc->n_identifier_field_ids) {
        floe_buf b = FLOE_BUF_INIT;
        int rc = floe__buf_putc(&b, '[');
        for (size_t i = 0; rc == 0 && i < sc->n_identifier_field_ids; i++) {
            const floe_field *f = floe__schema_field_by_id(sc, sc->identifier_field_ids[i]);
            rc = floe__buf_printf(&b, "%s%s", i ? "," : "", f ? f->name : "?");
        }
        if (rc == 0)
            rc = floe__buf_putc(&b, ']');
        kv[n].key = (char *)"identifier-fields";
        kv[n++].value = rc == 0 ? floe__arena_strdup(a, b.ptr) : NULL;
        floe__buf_free(&b);
    }
    for (size_t i = 0; i < m->properties.n; i++)
        if (!reserved_prop(m->properties.items[i].key)) {
            kv[n] = m->properties.items[i];
            if (redacted_prop(kv[n].key))
                kv[n].value = (char *)"*********(redacted)";
            n++;
        }
    for (size_t i = 0; i < n; i++)
        if (!kv[i].value)
            return floe__error_nomem();
    qsort(kv, n, sizeof *kv, kv_cmp);
    *out = kv;
    *nout = n;
    return 0;
}

static int describe_properties(const floe_table_metadata *m, floe_arena *a, floe_buf *tb)
{
    floe_kv *kv;
    size_t n;
    FLOE_TRY(floe__sql_spark_props(m, a, &kv, &n));
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = floe__buf_printf(tb, "%s%s=%s", i ? "," : "", kv[i].key, kv[i].value);
    return rc;
}

int floe__sql_target_table(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a,
                           const char *what, const char **ident, floe_table **t)
{
    if (st->target.kind != FLOE_SQLREF_TABLE)
        return floe__sql_fail(s,
                              floe__error(FLOE_EUNSUPPORTED, "sql",
                                          "%s of a metadata table, branch or tag is not "
                                          "supported yet",
                                          what),
                              "UnsupportedOperationException");
    *t = NULL;
    *ident = floe__sql_table_ident(s, &st->target, a);
    return *ident ? floe__sql_get_table(s, *ident, t) : floe__error_nomem();
}

static int describe(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ident;
    floe_table *t;
    int rc = floe__sql_target_table(s, st, a, "DESCRIBE", &ident, &t);
    if (rc == FLOE_ENOTFOUND) { /* an Iceberg view of that name? */
        int v = floe__sql_describe_view(s, st, ident, a);
        if (v != 1)
            return v;
    }
    if (rc < 0)
        return rc;
    const floe_table_metadata *m = t->metadata;
    const floe_schema *sc = floe__metadata_current_schema(m);
    const floe_partition_spec *sp = floe__metadata_spec(m, m->default_spec_id);
    struct rows3 r = {FLOE_VEC_INIT(floe_sql_cell), a};
    floe_buf tb = FLOE_BUF_INIT;
    for (size_t i = 0; rc == 0 && sc && i < sc->root->nfields; i++) {
        const floe_field *f = &sc->root->fields[i];
        floe__buf_clear(&tb);
        rc = floe__sql_spark_type(f->type, false, &tb);
        const char *ty = rc == 0 ? floe__arena_strdup(a, tb.ptr ? tb.ptr : "") : NULL;
        if (rc == 0)
            rc = ty ? add3(&r, f->name, ty, f->doc) : floe__error_nomem();
    }
    /* DescribeTableExec.addPartitioning over Spark3Util.toTransforms (which
     * leaves void fields, v1 drops, out): identity fields only are listed
     * as columns under "# Partition Information", anything else as
     * transforms under "# Partitioning". */
    bool identity_only = true;
    size_t nlive = 0;
    for (size_t i = 0; sp && i < sp->nfields; i++) {
        floe_transform_kind k = sp->fields[i].transform.kind;
        nlive += k != FLOE_TR_VOID;
        identity_only &= k == FLOE_TR_VOID || k == FLOE_TR_IDENTITY;
    }
    if (rc == 0 && nlive && identity_only) {
        rc = add3(&r, "# Partition Information", "", "");
        if (rc == 0)
            rc = add3(&r, "# col_name", "data_type", "comment");
    } else if (rc == 0 && nlive) {
        rc = add3(&r, "", "", "");
        if (rc == 0)
            rc = add3(&r, "# Partitioning", "", "");
    }
    for (size_t i = 0, np = 0; rc == 0 && sp && i < sp->nfields; i++) {
        if (sp->fields[i].transform.kind == FLOE_TR_VOID)
            continue;
        const floe_field *src = sc ? floe__schema_field_by_id(sc, sp->fields[i].source_id) : NULL;
        floe__buf_clear(&tb);
        rc = floe__sql_quote_if_needed(src ? src->name : sp->fields[i].name, &tb);
        const char *col = rc == 0 ? floe__arena_strdup(a, tb.ptr) : NULL;
        if (rc == 0 && identity_only) {
            floe__buf_clear(&tb);
            rc = src ? floe__sql_spark_type(src->type, false, &tb) : 0;
            const char *ty = rc == 0 ? floe__arena_strdup(a, tb.ptr ? tb.ptr : "") : NULL;
            if (rc == 0)
                rc = col && ty ? add3(&r, col, ty, src ? src->doc : NULL) : floe__error_nomem();
            continue;
        }
        const char *part = floe__arena_sprintf(a, "Part %zu", np++);
        const char *tx = col ? floe__sql_transform_text(a, &sp->fields[i], col) : NULL;
        if (rc == 0)
            rc = part && tx ? add3(&r, part, tx, "") : floe__error_nomem();
    }
    if (rc == 0 && st->extended) {
        rc = add3(&r, "", "", "");
        if (rc == 0)
            rc = add3(&r, "# Detailed Table Information", "", "");
        const char *name = floe__arena_sprintf(a, "%s.%s", s->catalog_name, ident);
        if (rc == 0)
            rc = name ? add3(&r, "Name", name, "") : floe__error_nomem();
        if (rc == 0)
            rc = add3(&r, "Type", "MANAGED", "");
        /* TABLE_RESERVED_PROPERTIES present in SparkTable.properties(), in order */
        const char *comment = floe__props_get(&m->properties, "comment");
        const char *owner = floe__props_get(&m->properties, "owner");
        if (rc == 0 && comment)
            rc = add3(&r, "Comment", comment, "");
        if (rc == 0)
            rc = add3(&r, "Location", m->location, "");
        if (rc == 0)
            rc = add3(&r, "Provider", "iceberg", "");
        if (rc == 0 && owner)
            rc = add3(&r, "Owner", owner, "");
        floe__buf_clear(&tb);
        if (rc == 0)
            rc = describe_properties(m, a, &tb);
        const char *props = rc == 0 ? floe__arena_sprintf(a, "[%s]", tb.ptr) : NULL;
        if (rc == 0)
            rc = props ? add3(&r, "Table Properties", props, "") : floe__error_nomem();
    }
    if (rc == 0) {
        static const char *const names[] = {"col_name", "data_type", "comment"};
        rc = floe__sql_emit(s, names, 3, r.cells.items, r.cells.len / 3);
    }
    floe__buf_free(&tb);
    floe__vec_free(&r.cells);
    return rc;
}

/* ---------------------------------------------------------------- ALTER TABLE */

static int set_props(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a, bool unset)
{
    const char *ident = floe__sql_table_ident(s, &st->target, a);
    floe_table *t = NULL;
    int rc = ident ? floe__sql_get_table(s, ident, &t) : floe__error_nomem();
    if (rc < 0)
        return rc;
    floe_props set = FLOE_PROPS_INIT;
    const char **keys = floe__arena_calloc(a, st->nprops + 1, sizeof *keys);
    size_t nkeys = 0;
    if (!keys)
        return floe__error_nomem();
    for (size_t i = 0; rc == 0 && i < st->nprops; i++) {
        if (unset) {
            if (!floe_table_property(t, st->props[i].key) && !st->if_exists) {
                rc = floe__sql_fail(s,
                                    floe__error(FLOE_EINVALID, "sql",
                                                "Attempted to unset non-existent property '%s' in "
                                                "table '%s'",
                                                st->props[i].key, ident),
                                    "AnalysisException");
                break;
            }
            keys[nkeys++] = st->props[i].key;
        } else {
            rc = floe__props_set(&set, st->props[i].key,
                                 st->props[i].value ? st->props[i].value : "");
        }
    }
    if (rc == 0)
        rc = floe_table_update_properties(t, &set, keys, nkeys);
    floe__props_free(&set);
    return rc;
}

static int rename_table(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *from = floe__sql_table_ident(s, &st->target, a);
    floe_sql_name to = st->new_name;
    if (to.nns == 0) { /* RENAME TO t2: same namespace */
        to.ns = st->target.ns;
        to.nns = st->target.nns;
    }
    const char *dest = floe__sql_table_ident(s, &to, a);
    if (!from || !dest)
        return floe__error_nomem();
    int rc = floe_catalog_rename_table(s->catalog, from, dest);
    floe__sql_forget_table(s, from);
    return rc;
}

static int ref_ddl(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ident = floe__sql_table_ident(s, &st->target, a);
    floe_table *t = NULL;
    int rc = ident ? floe__sql_get_table(s, ident, &t) : floe__error_nomem();
    if (rc < 0)
        return rc;
    const floe_sql_ref *r = &st->ref;
    if (st->kind == FLOE_SQL_DROP_REF)
        return r->is_tag ? floe_table_drop_tag(t, r->name, st->if_exists)
                         : floe_table_drop_branch(t, r->name, st->if_exists);
    floe_ref_options o = FLOE_REF_OPTIONS_INIT;
    o.has_snapshot_id = r->has_snapshot;
    o.snapshot_id = r->snapshot_id;
    o.has_max_ref_age_ms = r->max_ref_age_ms >= 0;
    o.max_ref_age_ms = r->max_ref_age_ms;
    o.has_min_snapshots_to_keep = r->min_snapshots_to_keep >= 0;
    o.min_snapshots_to_keep = (int32_t)r->min_snapshots_to_keep;
    o.has_max_snapshot_age_ms = r->max_snapshot_age_ms >= 0;
    o.max_snapshot_age_ms = r->max_snapshot_age_ms;
    floe_ref_mode mode = r->op == FLOE_SQLOP_REPLACE             ? FLOE_REF_REPLACE
                         : r->op == FLOE_SQLOP_CREATE_OR_REPLACE ? FLOE_REF_CREATE_OR_REPLACE
                         : r->if_not_exists                      ? FLOE_REF_CREATE_IF_NOT_EXISTS
                                                                 : FLOE_REF_CREATE;
    return r->is_tag ? floe_table_create_tag(t, r->name, mode, &o)
                     : floe_table_create_branch(t, r->name, mode, &o);
}

/* ---------------------------------------------------------------- dispatch */

int floe__sql_exec_table_stmt(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    switch (st->kind) {
    case FLOE_SQL_CREATE_TABLE: return create_table(s, st, a);
    case FLOE_SQL_DROP_TABLE: {
        const char *ident = floe__sql_table_ident(s, &st->target, a);
        if (!ident)
            return floe__error_nomem();
        floe__sql_forget_table(s, ident);
        int rc = floe_table_drop(s->catalog, ident, st->purge, floe__sql_table_options(s));
        if (rc == FLOE_ENOTFOUND && st->if_exists)
            return 0;
        return rc;
    }
    case FLOE_SQL_SET_PROPS: return set_props(s, st, a, false);
    case FLOE_SQL_UNSET_PROPS: return set_props(s, st, a, true);
    case FLOE_SQL_RENAME_TABLE: return rename_table(s, st, a);
    case FLOE_SQL_CREATE_REF:
    case FLOE_SQL_DROP_REF: return ref_ddl(s, st, a);
    case FLOE_SQL_ALTER_SCHEMA: return floe__sql_exec_alter(s, st, a);
    case FLOE_SQL_DESCRIBE: return describe(s, st, a);
    case FLOE_SQL_REFRESH: {
        const char *ident = floe__sql_table_ident(s, &st->target, a);
        return ident ? floe__sql_refresh_table(s, ident) : floe__error_nomem();
    }
    case FLOE_SQL_INSERT: return floe__sql_exec_insert(s, st, a);
    case FLOE_SQL_DELETE:
    case FLOE_SQL_UPDATE: return floe__sql_exec_rowlevel(s, st, a);
    case FLOE_SQL_MERGE: return floe__sql_exec_merge(s, st, a);
    default: return 1;
    }
}
