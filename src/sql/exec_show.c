/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_show: SHOW TBLPROPERTIES t [('key')], as Spark 3.5 prints it for
 * an Iceberg table: columns key, value; the rows are the table's
 * properties plus Iceberg's SparkTable additions current-snapshot-id
 * ("none" without a snapshot), format (iceberg/parquet) and
 * format-version, sorted by key. A key the table lacks is one row whose
 * value says so ("Table cat.db.t does not have property: k").
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
