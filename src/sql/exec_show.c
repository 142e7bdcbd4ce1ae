/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_show: SHOW TBLPROPERTIES t [('key')], as Spark 3.5 prints it for
 * an Iceberg table: columns key, value; the rows are the table's
 * properties plus Iceberg's SparkTable additions current-snapshot-id
 * ("none" without a snapshot), format (iceberg/parquet) and
 * format-version, sorted by key. A key the table lacks is one row whose
 * value says so ("Table cat.db.t does not have property: k").
 *
 * SHOW CREATE TABLE t, as Spark 3.5's ShowCreateTableExec prints a v2
 * table (one row, column createtab_stmt): CREATE TABLE <table.name()>
 * with the columns (StructField.toDDL: name TYPE [NOT NULL] [COMMENT
 * '...']), USING iceberg, PARTITIONED BY the transforms but bucket, which
 * goes to CLUSTERED BY (col) INTO N BUCKETS as a v1 bucket spec (the last
 * bucket field only, as Spark), COMMENT, LOCATION and TBLPROPERTIES
 * (floe__sql_spark_props).
 */
#include "spec/metadata.h"
#include "sql/exec_int.h"
#include "table/table.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *key, *value;
} kv;

static int kv_cmp(const void *x, const void *y)
{
    return strcmp(((const kv *)x)->key, ((const kv *)y)->key);
}

int floe__sql_exec_show_tblproperties(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ident;
    floe_table *t;
    int rc = floe__sql_target_table(s, st, a, "SHOW TBLPROPERTIES", &ident, &t);
    if (rc < 0)
        return rc;
    const floe_table_metadata *m = t->metadata;
    size_t n = 0, cap = m->properties.n + 3;
    kv *rows = floe__arena_calloc(a, cap, sizeof *rows);
    if (!rows)
        return floe__error_nomem();
    rows[n].key = "current-snapshot-id";
    rows[n++].value = m->has_current_snapshot
                          ? floe__arena_sprintf(a, "%lld", (long long)m->current_snapshot_id)
                          : "none";
    rows[n].key = "format";
    rows[n++].value = "iceberg/parquet";
    rows[n].key = "format-version";
    rows[n++].value = floe__arena_sprintf(a, "%d", m->format_version);
    for (size_t i = 0; i < m->properties.n; i++) {
        rows[n].key = m->properties.items[i].key;
        rows[n++].value = m->properties.items[i].value;
    }
    for (size_t i = 0; i < n; i++)
        if (!rows[i].value)
            return floe__error_nomem();
    qsort(rows, n, sizeof *rows, kv_cmp);
    floe_sql_cell *cells = floe__arena_calloc(a, 2 * n + 2, sizeof *cells);
    if (!cells)
        return floe__error_nomem();
    size_t out = 0;
    if (st->key) {
        const char *v = NULL;
        for (size_t i = 0; i < n && !v; i++)
            if (!strcmp(rows[i].key, st->key))
                v = rows[i].value;
        if (!v && !(v = floe__arena_sprintf(a, "Table %s.%s does not have property: %s",
                                            s->catalog_name, ident, st->key)))
            return floe__error_nomem();
        cells[0] = floe__sql_cell_text(st->key);
        cells[1] = floe__sql_cell_text(v);
        out = 1;
    } else {
        for (size_t i = 0; i < n; i++) {
            cells[2 * i] = floe__sql_cell_text(rows[i].key);
            cells[2 * i + 1] = floe__sql_cell_text(rows[i].value);
        }
        out = n;
    }
    static const char *const names[] = {"key", "value"};
    return floe__sql_emit(s, names, 2, cells, out);
}

static int show_create(const floe_sql_session *s, const char *ident, const floe_table_metadata *m,
                       floe_arena *a, floe_buf *b)
{
    const floe_schema *sc = floe__metadata_current_schema(m);
    if (!sc)
        return floe__error(FLOE_ECORRUPT, "sql", "table %s has no current schema", ident);
    FLOE_TRY(floe__buf_printf(b, "CREATE TABLE %s.%s (\n", s->catalog_name, ident));
    for (size_t i = 0; i < sc->root->nfields; i++) {
        const floe_field *f = &sc->root->fields[i];
        FLOE_TRY(floe__buf_puts(b, i ? ",\n  " : "  "));
        FLOE_TRY(floe__sql_quote_if_needed(f->name, b));
        FLOE_TRY(floe__buf_putc(b, ' '));
        FLOE_TRY(floe__sql_spark_type(f->type, true, b));
        if (f->required)
            FLOE_TRY(floe__buf_puts(b, " NOT NULL"));
        if (f->doc) {
            FLOE_TRY(floe__buf_puts(b, " COMMENT "));
            FLOE_TRY(floe__sql_single_quoted(f->doc, b));
        }
    }
    FLOE_TRY(floe__buf_puts(b, ")\nUSING iceberg\n"));
    const floe_partition_spec *sp = floe__metadata_spec(m, m->default_spec_id);
    const floe_partition_field *bucket = NULL;
    size_t nparts = 0;
    for (size_t i = 0; sp && i < sp->nfields; i++) {
        const floe_partition_field *pf = &sp->fields[i];
        const floe_field *src = floe__schema_field_by_id(sc, pf->source_id);
        if (pf->transform.kind == FLOE_TR_BUCKET) {
            bucket = pf;
            continue;
        }
        floe_buf col = FLOE_BUF_INIT;
        int rc = floe__sql_quote_if_needed(src ? src->name : pf->name, &col);
        const char *tx = rc == 0 ? floe__sql_transform_text(a, pf, col.ptr) : NULL;
        if (rc == 0 && tx)
            rc = floe__buf_printf(b, "%s%s", nparts++ ? ", " : "PARTITIONED BY (", tx);
        floe__buf_free(&col);
        FLOE_TRY(rc);
    }
    if (nparts)
        FLOE_TRY(floe__buf_puts(b, ")\n"));
    if (bucket) {
        const floe_field *src = floe__schema_field_by_id(sc, bucket->source_id);
        FLOE_TRY(floe__buf_printf(b, "CLUSTERED BY (%s)\nINTO %d BUCKETS\n",
                                  src ? src->name : bucket->name, (int)bucket->transform.param));
    }
    const char *comment = floe__props_get(&m->properties, "comment");
    if (comment) {
        FLOE_TRY(floe__buf_puts(b, "COMMENT "));
        FLOE_TRY(floe__sql_single_quoted(comment, b));
        FLOE_TRY(floe__buf_putc(b, '\n'));
    }
    FLOE_TRY(floe__buf_puts(b, "LOCATION "));
    FLOE_TRY(floe__sql_single_quoted(m->location, b));
    FLOE_TRY(floe__buf_putc(b, '\n'));
    floe_kv *props;
    size_t n;
    FLOE_TRY(floe__sql_spark_props(m, a, &props, &n));
    for (size_t i = 0; i < n; i++) {
        FLOE_TRY(floe__buf_puts(b, i ? ",\n  " : "TBLPROPERTIES (\n  "));
        FLOE_TRY(floe__sql_single_quoted(props[i].key, b));
        FLOE_TRY(floe__buf_puts(b, " = "));
        FLOE_TRY(floe__sql_single_quoted(props[i].value,
                                         b));
    }
    return n ? floe__buf_puts(b, ")\n") : 0;
}

int floe__sql_exec_show_create(floe_sql_session *s, const floe_sql_stmt *st, floe_arena *a)
{
    const char *ident;
    floe_table *t;
    int rc = floe__sql_target_table(s, st, a, "SHOW CREATE TABLE", &ident, &t);
    if (rc < 0)
        return rc;
    floe_buf b = FLOE_BUF_INIT;
    rc = show_create(s, ident, t->metadata, a, &b);
    const char *text = rc == 0 ? floe__arena_strdup(a, b.ptr) : NULL;
    floe__buf_free(&b);
    if (rc == 0 && !text)
        rc = floe__error_nomem();
    if (rc < 0)
        return rc;
    floe_sql_cell cell = floe__sql_cell_text(text);
    static const char *const names[] = {"createtab_stmt"};
    return floe__sql_emit(s, names, 1, &cell, 1);
}
