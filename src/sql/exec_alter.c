/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_alter: ALTER TABLE evolution statements (parse_alter.c) run as
 * Spark 3.5 + Iceberg 1.11 run them: Spark's column changes through
 * Spark3Util.applySchemaChanges onto one UpdateSchema, the extensions'
 * AddPartitionFieldExec / DropPartitionFieldExec / ReplacePartitionFieldExec,
 * SetWriteDistributionAndOrderingExec, SetIdentifierFieldsExec and
 * DropIdentifierFieldsExec — each one commit (include/floe/evolve.h).
 */
#include "spec/metadata.h"
#include "spec/spec.h"
#include "sql/exec_int.h"
#include "sql/session_int.h"
#include "table/evolve.h"
#include "table/table.h"

#include <string.h>
#include <strings.h>

/* "a.b.c" -> parent "a.b" (NULL at top level) and leaf "c". */
static int split_name(floe_arena *a, const char *full, const char **parent, const char **leaf)
{
    const char *dot = strrchr(full, '.');
    *leaf = dot ? dot + 1 : full;
    *parent = dot ? floe__arena_strndup(a, full, (size_t)(dot - full)) : NULL;
    return dot && !*parent ? floe__error_nomem() : 0;
}

/* Spark3Util.peerName: `name` in the struct of `full`. */
static const char *peer_name(floe_arena *a, const char *full, const char *name)
{
    const char *dot = strrchr(full, '.');
    return dot ? floe__arena_sprintf(a, "%.*s.%s", (int)(dot - full), full, name)
               : floe__arena_strdup(a, name);
}

/* A DEFAULT literal as the spec's JSON single value for Iceberg type
 * `type`: numbers and booleans bare, everything else (decimal, date,
 * timestamp, string, ...) a JSON string. NULL for DEFAULT NULL. */
static int default_json(floe_arena *a, const floe_sql_value *v, const char *type,
                        const char **out)
{
    *out = NULL;
    if (v->kind == FLOE_SQLV_NULL)
        return 0;
    if (v->kind == FLOE_SQLV_ARRAY || v->kind == FLOE_SQLV_MAP)
        return floe__error(FLOE_EUNSUPPORTED, "sql", "nested DEFAULT values are not supported");
    bool bare = (v->kind == FLOE_SQLV_BOOL || v->kind == FLOE_SQLV_INT ||
                 v->kind == FLOE_SQLV_NUMBER) &&
                strncmp(type, "decimal", 7) != 0;
    floe_buf b = FLOE_BUF_INIT;
    int rc = bare ? floe__buf_puts(&b, v->text) : floe__json_put_str(&b, v->text);
    if (rc == 0 && !(*out = floe__arena_strdup(a, b.ptr)))
        rc = floe__error_nomem();
    floe__buf_free(&b);
    return rc;
}

static int add_columns(floe_schema_update *u, const floe_sql_alter *al, floe_arena *a,
                       bool defaults)
{
    for (size_t i = 0; i < al->ncolumns; i++) {
        const floe_sql_column *c = &al->columns[i];
        const char *parent, *leaf, *dflt = NULL;
        FLOE_TRY(split_name(a, c->name, &parent, &leaf));
        if (c->not_null && !defaults) /* Spark's order: nullability first */
            return floe__error(FLOE_EINVALID, "sql",
                               "Incompatible change: cannot add required column: %s", leaf);
        if (c->has_default && !defaults) /* Spark3Util.apply(AddColumn) */
            return floe__error(FLOE_EUNSUPPORTED, "sql",
                               "Cannot add column %s since setting default values in Spark is "
                               "currently unsupported",
                               leaf);
        if (c->has_default) /* floe.column-defaults: Iceberg's addColumn(name, type, default) */
            FLOE_TRY(default_json(a, &c->dflt, c->type, &dflt));
        if (c->not_null && !dflt)
            return floe__error(FLOE_EINVALID, "sql",
                               "Incompatible change: cannot add required column: %s", leaf);
        if (c->nested)
            FLOE_TRY(floe__schema_update_add_type(u, parent, leaf, c->nested, c->not_null,
                                                  c->comment, dflt));
        else
            FLOE_TRY(floe_schema_update_add_column(u, parent, leaf, c->type, c->not_null,
                                                   c->comment, dflt));
        if (al->positions[i] == 1)
            FLOE_TRY(floe_schema_update_move_first(u, c->name));
        else if (al->positions[i] == 2) {
            const char *ref = peer_name(a, c->name, al->after[i]);
            FLOE_TRY(ref ? floe_schema_update_move_after(u, c->name, ref) : floe__error_nomem());
        }
    }
    return 0;
}

static int alter_column(floe_schema_update *u, const floe_sql_alter *al, floe_arena *a)
{
    if (al->set_type) {
        const floe_sql_column *c = &al->columns[0];
        if (c->nested)
            return floe__error(FLOE_EINVALID, "sql", "Cannot update '%s', not a primitive type: %s",
                               al->column, c->sql_type);
        return floe_schema_update_update_column(u, al->column, c->type);
    }
    if (al->set_comment)
        return floe_schema_update_update_column_doc(u, al->column, al->new_name);
    if (al->drop_not_null)
        return floe_schema_update_make_column_optional(u, al->column);
    if (al->set_not_null)
        return floe_schema_update_require_column(u, al->column);
    if (al->set_default) /* Spark3Util.applySchemaChanges: no case for UpdateColumnDefaultValue */
        return floe__error(FLOE_EUNSUPPORTED, "sql",
                           "Cannot apply unknown table change: "
                           "org.apache.spark.sql.connector.catalog.TableChange$"
                           "UpdateColumnDefaultValue");
    if (al->position == 1)
        return floe_schema_update_move_first(u, al->column);
    const char *ref = peer_name(a, al->column, al->after_column);
    return ref ? floe_schema_update_move_after(u, al->column, ref) : floe__error_nomem();
}

/* DropIdentifierFieldsExec: the current identifier names minus `names`. */
static int drop_identifiers(floe_schema_update *u, const floe_table *t, const floe_sql_alter *al,
                            floe_arena *a)
{
    const floe_schema *s = floe__metadata_current_schema(t->metadata);
    size_t n = s->n_identifier_field_ids;
    const char **keep = floe__arena_calloc(a, n + 1, sizeof *keep);
    if (!keep)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const floe_field *f = floe__schema_field_by_id(s, s->identifier_field_ids[i]);
        keep[i] = f ? f->name : "";
    }
    for (size_t k = 0; k < al->nnames; k++) {
        if (!floe__schema_field_by_name(s, al->names[k]))
            return floe__error(FLOE_EINVALID, "sql",
                               "Cannot complete drop identifier fields operation: field %s not "
                               "found",
                               al->names[k]);
        size_t i = 0;
        while (i < n && strcmp(keep[i], al->names[k]) != 0)
            i++;
        if (i == n)
            return floe__error(FLOE_EINVALID, "sql",
                               "Cannot complete drop identifier fields operation: %s is not an "
                               "identifier field",
                               al->names[k]);
        keep[i] = keep[--n];
    }
    return floe_schema_update_set_identifier_fields(u, keep, n);
}

static int schema_ddl(floe_table *t, const floe_sql_alter *al, floe_arena *a, bool defaults)
{
    floe_schema_update *u = NULL;
    FLOE_TRY(floe_schema_update_new(&u, t));
    int rc = 0;
    switch (al->kind) {
    case FLOE_SQL_ALT_ADD_COLUMNS: rc = add_columns(u, al, a, defaults); break;
    case FLOE_SQL_ALT_RENAME_COLUMN:
        rc = floe_schema_update_rename_column(u, al->column, al->new_name);
        break;
    case FLOE_SQL_ALT_ALTER_COLUMN: rc = alter_column(u, al, a); break;
    case FLOE_SQL_ALT_DROP_COLUMNS:
        for (size_t i = 0; rc == 0 && i < al->nnames; i++) {
            if (al->if_exists && !floe__schema_field_by_name(
                                     floe__metadata_current_schema(t->metadata), al->names[i]))
                continue;
            rc = floe_schema_update_delete_column(u, al->names[i]);
        }
        break;
    case FLOE_SQL_ALT_SET_IDENTIFIER:
        rc = floe_schema_update_set_identifier_fields(u, al->names, al->nnames);
        break;
    case FLOE_SQL_ALT_DROP_IDENTIFIER: rc = drop_identifiers(u, t, al, a); break;
    default: break;
    }
    if (rc == 0)
        rc = floe_schema_update_commit(u);
    floe_schema_update_free(u);
    return rc;
}

/* Drop/Replace PartitionFieldExec: a bare name that is no column of the
 * schema names a partition field. */
static int remove_partition(floe_spec_update *u, const floe_table *t, const floe_sql_alter *al)
{
    if (al->field_name &&
        !floe__schema_field_by_name(floe__metadata_current_schema(t->metadata), al->field_name))
        return floe_spec_update_remove_field(u, al->field_name, NULL, NULL);
    return floe_spec_update_remove_field(u, NULL, al->source, al->transform);
}

static int spec_ddl(floe_table *t, const floe_sql_alter *al)
{
    floe_spec_update *u = NULL;
    FLOE_TRY(floe_spec_update_new(&u, t));
    int rc = 0;
    if (al->kind == FLOE_SQL_ALT_ADD_PARTITION)
        rc = floe_spec_update_add_field(u, al->as_name, al->source, al->transform);
    else
        rc = remove_partition(u, t, al);
    if (rc == 0 && al->kind == FLOE_SQL_ALT_REPLACE_PARTITION)
        rc = floe_spec_update_add_field(u, al->as_name, al->with_source, al->with_transform);
    if (rc == 0)
        rc = floe_spec_update_commit(u);
    floe_spec_update_free(u);
    return rc;
}

floe_sort_term *floe__sql_sort_terms(floe_arena *a, const floe_sql_sort_item *items, size_t n)
{
    floe_sort_term *terms = floe__arena_calloc(a, n + 1, sizeof *terms);
    for (size_t i = 0; terms && i < n; i++) {
        terms[i].column = items[i].column;
        terms[i].transform = items[i].transform;
        terms[i].descending = items[i].descending;
        terms[i].nulls_first = items[i].nulls_first;
    }
    return terms;
}

static int write_ddl(floe_table *t, const floe_sql_alter *al, floe_arena *a)
{
    floe_sort_term *terms = floe__sql_sort_terms(a, al->order, al->norder);
    if (!terms)
        return floe__error_nomem();
    return floe_table_replace_sort_order(t, terms, al->norder, al->distribution);
}

/* ---------------------------------------------------------------- Spark's analysis */

/* Spark's CheckAnalysis runs before Iceberg sees a change: its messages
 * (AnalysisException) win where both would refuse. */
static int analysis(floe_sql_session *s, int rc)
{
    return floe__sql_fail(s, rc, "AnalysisException");
}

int floe__sql_quoted_table(const floe_sql_session *s, const char *ident, floe_buf *q)
{
    int rc = floe__buf_printf(q, "`%s`", s->catalog_name);
    for (const char *p = ident; rc == 0 && *p;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        rc = floe__buf_printf(q, ".`%.*s`", (int)n, p);
        p += n + (dot ? 1 : 0);
    }
    return rc;
}

static const char *sql_type(floe_arena *a, const floe_type *t)
{
    floe_buf b = FLOE_BUF_INIT;
    const char *r =
        floe__sql_spark_type(t, true, &b) == 0 && b.ptr ? floe__arena_strdup(a, b.ptr) : NULL;
    floe__buf_free(&b);
    return r ? r : "?";
}

/* The struct a dotted name's leaf lives in (NULL: not a struct member). */
static const floe_type *parent_struct(const floe_schema *sc, const char *parent)
{
    if (!parent)
        return sc->root;
    const floe_field *f = floe__schema_field_by_name(sc, parent);
    const floe_type *t = f ? f->type : NULL;
    if (t && t->id == FLOE_T_LIST)
        t = t->element->type;
    else if (t && t->id == FLOE_T_MAP)
        t = t->value->type;
    return t && t->id == FLOE_T_STRUCT ? t : NULL;
}

static bool has_member(const floe_type *st, const char *name)
{
    for (size_t i = 0; st && i < st->nfields; i++)
        if (strcmp(st->fields[i].name, name) == 0)
            return true;
    return false;
}

static int already_exists(floe_sql_session *s, floe_arena *a, const char *what, const char *name,
                          const floe_type *st)
{
    return analysis(s, floe__error(FLOE_EINVALID, "sql",
                                   "[FIELDS_ALREADY_EXISTS] Cannot %s column, because `%s` already "
                                   "exists in \"%s\".",
                                   what, name, sql_type(a, st)));
}

/* DecimalType.forType of the integral and floating types: precision, scale. */
static bool decimal_for(const floe_type *t, int *p, int *sc)
{
    switch (t->id) {
    case FLOE_T_INT: *p = 10, *sc = 0; return true;
    case FLOE_T_LONG: *p = 20, *sc = 0; return true;
    case FLOE_T_FLOAT: *p = 14, *sc = 7; return true;
    case FLOE_T_DOUBLE: *p = 30, *sc = 15; return true;
    case FLOE_T_DECIMAL: *p = t->precision, *sc = t->scale; return true;
    default: return false;
    }
}

static int numeric_rank(floe_type_id id)
{
    return id == FLOE_T_INT ? 1 : id == FLOE_T_LONG ? 2 : id == FLOE_T_FLOAT ? 3
                                                     : id == FLOE_T_DOUBLE ? 4 : 0;
}

/* Spark's Cast.canUpCast (what ALTER COLUMN TYPE allows before Iceberg's
 * own promotion rules). */
static bool can_up_cast(const floe_type *from, const floe_type *to)
{
    if (from->id == to->id && from->precision == to->precision && from->scale == to->scale &&
        from->length == to->length)
        return true;
    int fp, fs, tp, ts;
    if (to->id == FLOE_T_DECIMAL && decimal_for(from, &fp, &fs))
        return to->precision - to->scale >= fp - fs && to->scale >= fs;
    if (from->id == FLOE_T_DECIMAL && numeric_rank(to->id) && decimal_for(to, &tp, &ts))
        return from->precision - from->scale <= tp - ts && from->scale <= ts;
    if (numeric_rank(from->id) && numeric_rank(to->id))
        return numeric_rank(from->id) < numeric_rank(to->id);
    if (from->id == FLOE_T_DATE && to->id == FLOE_T_TIMESTAMPTZ)
        return true;
    return to->id == FLOE_T_STRING && !floe_type_is_nested(from);
}

static int check_alter_type(floe_sql_session *s, const char *ident, const floe_schema *sc,
                            const floe_sql_alter *al, floe_arena *a)
{
    const floe_field *f = floe__schema_field_by_name(sc, al->column);
    const floe_sql_column *c = &al->columns[0];
    const floe_type *to = c->nested;
    if (!f || (!to && floe__type_parse(c->type, a, &to) < 0))
        return 0; /* Iceberg's message */
    if (can_up_cast(f->type, to))
        return 0;
    const char *leaf = strrchr(al->column, '.');
    leaf = leaf ? leaf + 1 : al->column;
    floe_buf q = FLOE_BUF_INIT;
    int rc = floe__sql_quoted_table(s, ident, &q);
    if (rc == 0)
        rc = analysis(s, floe__error(FLOE_EINVALID, "sql",
                                     "[NOT_SUPPORTED_CHANGE_COLUMN] ALTER TABLE ALTER/CHANGE COLUMN "
                                     "is not supported for changing %s's column `%s` with type "
                                     "\"%s\" to `%s` with type \"%s\".",
                                     q.ptr, leaf, sql_type(a, f->type), leaf, sql_type(a, to)));
    floe__buf_free(&q);
    return rc;
}

/* The column checks of Spark's CheckAnalysis for v2 ALTER TABLE. */
static int spark_checks(floe_sql_session *s, const char *ident, const floe_table *t,
                        const floe_sql_alter *al, floe_arena *a)
{
    const floe_schema *sc = floe__metadata_current_schema(t->metadata);
    if (al->kind == FLOE_SQL_ALT_ADD_COLUMNS) {
        for (size_t i = 0; i < al->ncolumns; i++) {
            const char *parent, *leaf;
            FLOE_TRY(split_name(a, al->columns[i].name, &parent, &leaf));
            const floe_type *st = parent_struct(sc, parent);
            if (has_member(st, leaf))
                return already_exists(s, a, "add", leaf, st);
        }
    } else if (al->kind == FLOE_SQL_ALT_RENAME_COLUMN) {
        const char *parent, *leaf;
        FLOE_TRY(split_name(a, al->column, &parent, &leaf));
        const floe_type *st = floe__schema_field_by_name(sc, al->column) ? parent_struct(sc, parent)
                                                                          : NULL;
        if (has_member(st, al->new_name))
            return already_exists(s, a, "rename", al->new_name, st);
    } else if (al->kind == FLOE_SQL_ALT_ALTER_COLUMN && al->set_not_null) {
        const floe_field *f = floe__schema_field_by_name(sc, al->column);
        if (f && !f->required)
            return analysis(s, floe__error(FLOE_EINVALID, "sql",
                                           "Cannot change nullable column to non-nullable: %s.",
                                           al->column));
    } else if (al->kind == FLOE_SQL_ALT_ALTER_COLUMN && al->set_type) {
        return check_alter_type(s, ident, sc, al, a);
    }
    return 0;
}

int floe__sql_exec_alter(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ident = floe__sql_table_ident(s, &st->target, a);
    floe_table *t = NULL;
    int rc = ident ? floe__sql_get_table(s, ident, &t) : floe__error_nomem();
    if (rc < 0)
        return rc;
    const floe_sql_alter *al = &st->alter;
    FLOE_TRY(spark_checks(s, ident, t, al, a));
    switch (al->kind) {
    case FLOE_SQL_ALT_ADD_PARTITION:
    case FLOE_SQL_ALT_DROP_PARTITION:
    case FLOE_SQL_ALT_REPLACE_PARTITION: return spec_ddl(t, al);
    case FLOE_SQL_ALT_WRITE: return write_ddl(t, al, a);
    default: {
        /* floe's extension: ADD COLUMN ... DEFAULT (Spark 3.5 refuses it) */
        const char *d = floe__sql_session_option(s, "floe.column-defaults");
        return schema_ddl(t, al, a, d && strcasecmp(d, "true") == 0);
    }
    }
}
