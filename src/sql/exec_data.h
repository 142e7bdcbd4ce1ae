/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/exec_data: Iceberg data tables as row sources for the shell's virtual
 * tables (exec_data.c).
 */
#ifndef FLOE_SQL_EXEC_DATA_H
#define FLOE_SQL_EXEC_DATA_H

#include "sql/session_int.h"

struct floe_rowsource;
struct floe_table;

/* A row source over the table `ident` with the selection of `r` (time
 * travel, branch_/tag_ suffix); `t` is the table as the cache holds it.
 * Unknown snapshots/refs fail now with Iceberg's messages. */
int floe__sql_data_source(struct floe_rowsource **out, floe_sql_session *s,
                          const floe_sql_tref *r, const char *ident, struct floe_table *t);
/* Display hint of a column of a data row source (see floe_sql_type_hint_fn);
 * FLOE_SQL_HINT_NONE - 1 when `rs` is not one. */
int floe__sql_data_hint(const struct floe_rowsource *rs, const char *column);
/* The Iceberg type of a column of a data row source (NULL: not one). */
const struct floe_type *floe__sql_data_type(const struct floe_rowsource *rs, const char *column);
/* EXPLAIN line of a data row source after it was opened (1: not one). */
int floe__sql_data_explain(const struct floe_rowsource *rs, const char *ident, floe_buf *out);
/* Read the hidden metadata columns _file (data file path) and _pos (row
 * position in the file) of a data row source (they are always declared,
 * but NULL unless asked for: reading them costs a column per batch). */
void floe__sql_data_want_meta(struct floe_rowsource *rs, bool on);
/* Does a statement's text name _file or _pos (whole identifiers)? */
bool floe__sql_text_wants_meta(const char *text);
/* exec_refs.c: forget a live virtual table's row source (when freed). */
void floe__sql_live_forget(floe_sql_session *s, const struct floe_rowsource *rs);

#endif
