/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql front end: the lexer, statement parser and query rewriter of `floe sql`.
 *
 * floe sql runs SQLite as its query engine; Iceberg tables become SQLite
 * virtual tables. This front end accepts the Spark 3.5 / Iceberg 1.11 SQL
 * dialect (the one of shared/seeds/000) and turns each statement into
 *   (a) a tagged struct floe executes itself (DDL, CALL, ref management, SET,
 *       DML targets), and
 *   (b) plain SQLite text for every query part (SELECT, INSERT sources,
 *       WHERE clauses, SET expressions, ...), in which every Iceberg table
 *       reference — time travel, branch/tag/metadata-table suffixes and the
 *       table-valued functions read_parquet/incremental_append/table_changes —
 *       has been replaced by a generated SQLite name ("floe_ref_1", ...),
 *       described by a floe_sql_tref so the executor can create the virtual
 *       table under that name before running the text.
 * The executor (virtual tables, catalog calls, output) is not here; docs/sql.md
 * documents the dialect and the mapping.
 *
 * Memory: everything a parse returns lives in the caller's arena; strings are
 * NUL-terminated and never NULL unless documented. Errors: FLOE_EINVALID for
 * syntax errors, FLOE_EUNSUPPORTED for valid Spark syntax floe does not
 * accept, FLOE_ENOMEM; the message says "at line L, column C near "text"" and
 * floe__sql_error_pos() gives the byte offset.
 */
#ifndef FLOE_SQL_SQLFRONT_H
#define FLOE_SQL_SQLFRONT_H

#include "util/util.h"

/* ---------------------------------------------------------------- options */

typedef struct floe_sql_options {
    int version;
    /* The session's catalog name (`--catalog-name`, default "local"). A
     * leading part equal to it (case-insensitive) is dropped from 3+-part
     * identifiers and from `CALL <cat>.system.proc`. */
    const char *catalog_name;
    /* Current namespace (after USE), dot-joined ("shop" or "a.b"); NULL = none.
     * Used for 1-part table names, and lets `t.snapshots` / `t.branch_x` mean
     * a suffix on table t of this namespace (see docs/sql.md). */
    const char *current_namespace;
    /* Names that are local to the SQLite session (temporary views): a 1-part
     * name for which this returns true is left untouched. May be NULL. */
    bool (*is_local)(const char *name, void *payload);
    void *payload;
    /* Generated names are "floe_ref_<ref_base + k>", k = 1..nrefs. A session
     * that keeps virtual tables alive across statements (temporary views
     * refer to them) passes a running counter here so names never clash. */
    uint64_t ref_base;
    /* The whole script when `sql` points inside it (parsing statement after
     * statement through *rest): positions, lines and columns in errors and
     * in the result are then counted from its start. NULL: from `sql`. */
    const char *script;
    /* Names of struct columns (of the statement's tables) for which
     * `name.field` means a field access (rewritten to json_extract), like
     * the metadata tables' partition/data_file/readable_metrics. May be
     * NULL. Uses the same payload. */
    bool (*is_struct_column)(const char *name, void *payload);
    /* Names of map columns whose keys are not strings: `m[1]` is then the
     * key "1" of the JSON object, not an array index. May be NULL. */
    bool (*is_keyed_map_column)(const char *name, void *payload);
    /* Every catalog of the session (Spark's spark.sql.catalog.<name>),
     * catalog_name among them or not: a leading part equal to one of them
     * names that catalog (floe_sql_name.catalog, call.catalog,
     * ns_catalog). May be NULL. */
    const char *const *catalogs;
    size_t ncatalogs;
    /* Columns of the statement's tables whose names differ from another
     * column's only in case (`user_id`, `uSeR_Id`): SQLite, whose names
     * are case-insensitive, sees them as floe__sql_case_twin_name(); a
     * quoted identifier spelled exactly as one of them is rewritten to that
     * name. May be NULL. */
    bool (*is_case_twin_column)(const char *name, void *payload);
    /* The session time zone (NULL: UTC): a TIMESTAMP literal with a zone
     * ('…+02:00', 'Z') becomes the wall-clock text of that instant in this
     * zone, which is how timestamptz cells read (in the session zone), so
     * they compare as the same instant. */
    const struct floe_tz *time_zone;
    /* Does table `ident` (dotted, without the catalog) exist in catalog
     * `catalog`? Asked for a name whose last part would be a metadata table,
     * branch_ or tag_ suffix: a table of that name wins (Spark loads the
     * whole identifier as a table first), so `db.history` can be a table.
     * May be NULL (then the suffix always applies). */
    bool (*is_table)(const char *catalog, const char *ident, void *payload);
    /* The Spark type ("int", "decimal(10,2)", ...) of column `column` of
     * the statement's table `sqlite_name` (floe_sql_tref.sqlite_name), NULL
     * when unknown or not a primitive type. The binder (bind.c) types
     * expressions from it. May be NULL. Uses the same payload. */
    const char *(*column_type)(const char *sqlite_name, const char *column, void *payload);
} floe_sql_options;

/* The name SQLite knows a case-twin column by: `name`, the byte
 * FLOE_SQL_TWIN_MARK, and one '0' or '1' per byte of `name` (1 for an
 * upper-case ASCII letter), so twins stay distinct without regard to case.
 * Output shows a column name up to the mark. In arena `a` (NULL: out of
 * memory). */
#define FLOE_SQL_TWIN_MARK '\x1f'
const char *floe__sql_case_twin_name(floe_arena *a, const char *name);

#define FLOE_SQL_OPTIONS_VERSION 1
#define FLOE_SQL_OPTIONS_INIT                                                                      \
    {                                                                                              \
        FLOE_SQL_OPTIONS_VERSION, "local", NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, 0, NULL,   \
            NULL, NULL, NULL                                                                       \
    }

/* ---------------------------------------------------------------- values */

typedef enum floe_sql_value_kind {
    FLOE_SQLV_NULL = 1,
    FLOE_SQLV_BOOL,
    FLOE_SQLV_INT,       /* integer literal that fits int64: `i`, `text` */
    FLOE_SQLV_NUMBER,    /* other numeric literal (decimal, exponent, huge): `text` */
    FLOE_SQLV_STRING,    /* `text` (unescaped) */
    FLOE_SQLV_DATE,      /* DATE '...': `text` normalised "YYYY-MM-DD" */
    FLOE_SQLV_TIMESTAMP, /* TIMESTAMP '...': `text` "YYYY-MM-DD HH:MM:SS.ffffff" */
    FLOE_SQLV_ARRAY,     /* array(...): items[0..nitems) */
    FLOE_SQLV_MAP,       /* map(k, v, ...): items = k0, v0, k1, v1, ... */
} floe_sql_value_kind;

typedef struct floe_sql_value floe_sql_value;
struct floe_sql_value {
    floe_sql_value_kind kind;
    bool b;
    int64_t i;
    const char *text; /* NULL for NULL/ARRAY/MAP; "true"/"false" for BOOL */
    const floe_sql_value *items;
    size_t nitems;
    size_t pos; /* byte offset in the script */
};

/* ---------------------------------------------------------------- names */

typedef enum floe_sql_ref_kind {
    FLOE_SQLREF_TABLE = 1, /* the table (main, or time travel) */
    FLOE_SQLREF_BRANCH,    /* t.branch_<suffix> */
    FLOE_SQLREF_TAG,       /* t.tag_<suffix> */
    FLOE_SQLREF_METADATA,  /* t.<suffix>: snapshots, history, refs, files, ... */
    FLOE_SQLREF_TVF,       /* table-valued function <suffix>(args): read_parquet, ... */
} floe_sql_ref_kind;

/* A resolved table name. `catalog` is the catalog its leading part names
 * (one of the options' catalogs), else the session catalog name (a name
 * with another leading part keeps it as a namespace part).
 * For TVFs, ns/table are empty and `suffix` is the lower-case function name. */
typedef struct floe_sql_name {
    const char *catalog;
    const char *const *ns; /* namespace levels; nns may be 0 (no namespace known) */
    size_t nns;
    const char *table;
    floe_sql_ref_kind kind;
    const char *suffix; /* branch/tag name, metadata table, tvf name; NULL for TABLE */
    size_t pos;
} floe_sql_name;

typedef enum floe_sql_travel_kind {
    FLOE_SQLTT_NONE = 0,
    FLOE_SQLTT_SNAPSHOT,  /* VERSION AS OF 123 (or '123': Iceberg parses digits as an id) */
    FLOE_SQLTT_REF,       /* VERSION AS OF 'audit' */
    FLOE_SQLTT_TIMESTAMP, /* TIMESTAMP AS OF '...': text normalised like a TIMESTAMP literal */
} floe_sql_travel_kind;

typedef struct floe_sql_travel {
    floe_sql_travel_kind kind;
    int64_t snapshot_id;
    const char *ref;       /* REF */
    const char *timestamp; /* TIMESTAMP: "YYYY-MM-DD HH:MM:SS.ffffff" (session zone
                            * unless the literal had an offset: then UTC) */
    bool timestamp_utc;    /* the literal carried Z or an offset (converted to UTC) */
    /* TIMESTAMP AS OF <expression> other than a literal: the expression as
     * SQLite text, evaluated once when the statement runs (timestamp NULL
     * until then), and as written (error messages). bad_type: its type
     * cannot be cast to a timestamp (a boolean); nondeterministic: it
     * calls rand(), uuid()... (Spark's INVALID_TIME_TRAVEL_TIMESTAMP_EXPR) */
    const char *expr_sql, *expr_text;
    bool expr_bad_type, expr_nondeterministic;
    /* SNAPSHOT read with the table's current schema, not the snapshot's: a
     * row-level operation's base (Spark reads the branch head with the
     * table's schema, so columns added since read as null or their
     * initial default) */
    bool current_schema;
} floe_sql_travel;

/* One Iceberg reference inside rewritten SQLite text. */
typedef struct floe_sql_tref {
    const char *sqlite_name; /* "floe_ref_<n>", unique within the statement */
    floe_sql_name name;
    floe_sql_travel travel;
    const floe_sql_value *args;   /* TVF arguments (literals) */
    const char *const *arg_names; /* per argument: NULL or the `name =>` */
    size_t nargs;
} floe_sql_tref;

/* ---------------------------------------------------------------- statements */

typedef enum floe_sql_kind {
    FLOE_SQL_QUERY = 1,        /* SELECT / WITH / VALUES: query */
    FLOE_SQL_EXPLAIN,          /* EXPLAIN <query>: query */
    FLOE_SQL_CREATE_NAMESPACE, /* ns_name, if_not_exists, props, comment, location */
    FLOE_SQL_DROP_NAMESPACE,   /* ns_name, if_exists, cascade */
    FLOE_SQL_SHOW_NAMESPACES,  /* ns_name (IN/FROM, may be empty) */
    FLOE_SQL_SHOW_TABLES,      /* ns_name (may be empty: current namespace), key LIKE pattern */
    FLOE_SQL_CREATE_TABLE,     /* create */
    FLOE_SQL_DROP_TABLE,       /* target, if_exists, purge */
    FLOE_SQL_SET_PROPS,        /* ALTER TABLE SET TBLPROPERTIES: target, props */
    FLOE_SQL_UNSET_PROPS,      /* ALTER TABLE UNSET TBLPROPERTIES: target, keys, if_exists */
    FLOE_SQL_RENAME_TABLE,     /* target, new_name */
    FLOE_SQL_CREATE_REF,       /* ALTER TABLE ... CREATE/REPLACE BRANCH|TAG: target, ref */
    FLOE_SQL_DROP_REF,         /* ALTER TABLE ... DROP BRANCH|TAG: target, ref, if_exists */
    FLOE_SQL_DESCRIBE,         /* target, extended */
    FLOE_SQL_REFRESH,          /* target */
    FLOE_SQL_SET,              /* key (NULL: list all), value (NULL: show key) */
    FLOE_SQL_RESET,            /* key (NULL: all) */
    FLOE_SQL_USE,              /* ns_name (catalog stripped) */
    FLOE_SQL_INSERT,           /* target, overwrite, columns, query (VALUES or SELECT) */
    FLOE_SQL_DELETE,           /* target, alias, where */
    FLOE_SQL_UPDATE,           /* target, alias, sets, where */
    FLOE_SQL_MERGE,            /* merge */
    FLOE_SQL_CALL,             /* call */
    FLOE_SQL_CREATE_VIEW,      /* CREATE [OR REPLACE] TEMPORARY VIEW: view_name, columns, query;
                                * an Iceberg view (CREATE VIEW db.v): target, create.columns
                                * (names, comments), comment, props, if_not_exists, query */
    FLOE_SQL_DROP_VIEW,        /* view_name (one part), target, if_exists */
    FLOE_SQL_ALTER_SCHEMA,     /* ALTER TABLE schema / partition / order / identifier DDL: alter */
    FLOE_SQL_SHOW_TBLPROPERTIES, /* target, key (NULL: all) */
    FLOE_SQL_SHOW_CREATE_TABLE,  /* target */
    FLOE_SQL_SHOW_VIEWS,         /* ns_name (may be empty), key: LIKE pattern (NULL: none) */
} floe_sql_kind;

typedef struct floe_sql_prop {
    const char *key;
    const char *value; /* NULL for UNSET keys */
} floe_sql_prop;

typedef struct floe_sql_column {
    const char *name;
    const char *type;     /* Iceberg type string: "long", "decimal(10,2)", "timestamptz" ... */
    const char *sql_type; /* the type as written, upper-cased ("BIGINT", "DECIMAL(10,2)");
                           * nested types verbatim */
    /* ARRAY<..>, MAP<..>, STRUCT<..>: the Iceberg type tree (every field id
     * 0: the executor assigns fresh ids) and `type` is "list", "map" or
     * "struct"; NULL for primitive columns. */
    const struct floe_type *nested;
    bool not_null;
    const char *comment; /* NULL if none */
    /* `DEFAULT <literal>` was written: Spark 3.5 + Iceberg 1.11 refuse
     * column defaults in DDL (the executor raises their messages) unless
     * the floe extension `floe.column-defaults` is on; `dflt` is the
     * literal. */
    bool has_default;
    floe_sql_value dflt;
} floe_sql_column;

typedef struct floe_sql_partition_field {
    const char *transform; /* Iceberg transform: identity, year, month, day, hour,
                            * bucket[N], truncate[W] */
    const char *column;
    int32_t param; /* N or W; 0 otherwise */
} floe_sql_partition_field;

/* ALTER TABLE evolution DDL (Spark 3.5 + Iceberg extensions). */
typedef enum floe_sql_alter_kind {
    FLOE_SQL_ALT_ADD_COLUMNS = 0,   /* columns (name dotted), positions */
    FLOE_SQL_ALT_RENAME_COLUMN,     /* column -> new_name */
    FLOE_SQL_ALT_ALTER_COLUMN,      /* column: type / comment / nullability / position */
    FLOE_SQL_ALT_DROP_COLUMNS,      /* names, if_exists */
    FLOE_SQL_ALT_ADD_PARTITION,     /* field [AS name] */
    FLOE_SQL_ALT_DROP_PARTITION,    /* field (a bare name may be a field name) */
    FLOE_SQL_ALT_REPLACE_PARTITION, /* field WITH with [AS name] */
    FLOE_SQL_ALT_WRITE,             /* order, distribution */
    FLOE_SQL_ALT_SET_IDENTIFIER,    /* names */
    FLOE_SQL_ALT_DROP_IDENTIFIER,   /* names */
} floe_sql_alter_kind;

typedef struct floe_sql_sort_item {
    const char *transform; /* Iceberg transform (identity, bucket[N], ...) */
    const char *column;
    bool descending, nulls_first;
} floe_sql_sort_item;

/* The zorder(c1, c2, ...) terms of a sort order (their columns, in order). */
typedef struct floe_sql_zorder {
    const char **columns;
    size_t ncolumns;
    size_t terms;
} floe_sql_zorder;

/* Spark's IcebergSqlExtensions `order` (the sort_order argument of
 * rewrite_data_files) from text: transform terms with ASC/DESC and NULLS
 * FIRST/LAST, and zorder(...) terms. FLOE_EINVALID "Unable to parse
 * sortOrder: <text>". */
int floe__sql_parse_sort_order(floe_arena *a, const char *text, const floe_sql_sort_item **items,
                               size_t *n, floe_sql_zorder *z);

typedef struct floe_sql_alter {
    floe_sql_alter_kind kind;
    const floe_sql_column *columns; /* ADD COLUMNS; ALTER COLUMN TYPE: columns[0] */
    const int *positions;           /* per added column: 0 none, 1 FIRST, 2 AFTER */
    const char *const *after;       /* per added column: the AFTER column */
    size_t ncolumns;
    const char *column; /* RENAME / ALTER COLUMN: dotted name */
    const char *new_name;
    bool set_type, set_comment, drop_not_null, set_not_null;
    bool set_default; /* ALTER COLUMN SET DEFAULT <literal> | DROP DEFAULT (refused as Spark) */
    int position;     /* ALTER COLUMN: 0 none, 1 FIRST, 2 AFTER (after) */
    const char *after_column;
    const char *const *names; /* DROP COLUMNS, identifier fields */
    size_t nnames;
    bool if_exists;
    const char *field_name;         /* DROP PARTITION FIELD <name> candidate */
    const char *transform, *source; /* partition field term */
    const char *with_transform, *with_source;
    const char *as_name;
    const floe_sql_sort_item *order;
    size_t norder;
    const char *distribution; /* "hash", "none", "range" or NULL (unchanged) */
} floe_sql_alter;

/* Rewritten SQLite text. Its Iceberg references are in the statement's refs. */
typedef struct floe_sql_query {
    const char *sql;
    size_t pos; /* where the fragment starts in the script */
    /* bit c: output column c of the outermost select list is a boolean
     * expression (printed true/false); columns after a `*` are not marked */
    uint64_t bool_columns;
    /* the fragment's syntax tree (sql/ast.h), in the statement's arena */
    const struct sql_node *tree;
} floe_sql_query;

typedef struct floe_sql_create_table {
    bool or_replace;   /* CREATE OR REPLACE TABLE / REPLACE TABLE */
    bool replace_only; /* REPLACE TABLE: the table must exist */
    bool if_not_exists;
    const floe_sql_column *columns;
    size_t ncolumns;
    const char *using_; /* "iceberg" or NULL */
    const floe_sql_partition_field *partition;
    size_t npartition;
    const char *location; /* NULL if none */
    const char *comment;  /* table COMMENT, NULL if none */
    const floe_sql_prop *props;
    size_t nprops;
    const floe_sql_query *as_query; /* CTAS: NULL if none */
} floe_sql_create_table;

typedef enum floe_sql_ref_op {
    FLOE_SQLOP_CREATE = 1,
    FLOE_SQLOP_REPLACE,
    FLOE_SQLOP_CREATE_OR_REPLACE,
} floe_sql_ref_op;

/* ALTER TABLE ... CREATE/REPLACE/DROP BRANCH|TAG. Durations are in ms;
 * -1 means "not given". */
typedef struct floe_sql_ref {
    bool is_tag;
    const char *name;
    floe_sql_ref_op op;
    bool if_not_exists; /* CREATE ... IF NOT EXISTS */
    bool has_snapshot;  /* AS OF VERSION n */
    int64_t snapshot_id;
    int64_t max_ref_age_ms;        /* RETAIN n unit */
    int64_t min_snapshots_to_keep; /* WITH SNAPSHOT RETENTION n SNAPSHOTS */
    int64_t max_snapshot_age_ms;   /* WITH SNAPSHOT RETENTION ... n unit */
} floe_sql_ref;

typedef struct floe_sql_assign {
    const char *column; /* may be dotted for `t.col`: the last part */
    const floe_sql_query *expr;
} floe_sql_assign;

typedef enum floe_sql_merge_when {
    FLOE_SQLM_MATCHED = 1,
    FLOE_SQLM_NOT_MATCHED, /* [BY TARGET] */
    FLOE_SQLM_NOT_MATCHED_BY_SOURCE,
} floe_sql_merge_when;

typedef enum floe_sql_merge_action {
    FLOE_SQLM_UPDATE = 1, /* sets (or star: UPDATE SET *) */
    FLOE_SQLM_DELETE,
    FLOE_SQLM_INSERT, /* columns + values (or star: INSERT *) */
} floe_sql_merge_action;

typedef struct floe_sql_merge_clause {
    floe_sql_merge_when when;
    const floe_sql_query *condition; /* AND ...; NULL if none */
    floe_sql_merge_action action;
    bool star;
    const floe_sql_assign *sets;
    size_t nsets;
    const char *const *columns;
    size_t ncolumns;
    const floe_sql_query *const *values;
    size_t nvalues;
} floe_sql_merge_clause;

typedef struct floe_sql_merge {
    const char *target_alias;     /* NULL if none */
    const floe_sql_query *source; /* a SQLite query ("SELECT * FROM floe_ref_2") */
    const char
        *source_alias; /* alias, or the source table's name; NULL for an unaliased subquery */
    const floe_sql_query *on;
    const floe_sql_merge_clause *clauses;
    size_t nclauses;
} floe_sql_merge;

typedef struct floe_sql_arg {
    const char *name; /* `name => value`, NULL for positional */
    floe_sql_value value;
} floe_sql_arg;

typedef struct floe_sql_call {
    const char *catalog;   /* the catalog named (resolved), else the session's */
    const char *procedure; /* lower-case: "rollback_to_snapshot" */
    const floe_sql_arg *args;
    size_t nargs;
} floe_sql_call;

typedef struct floe_sql_stmt {
    floe_sql_kind kind;
    const char *text; /* the statement's source text (without the ';') */
    size_t pos;       /* its byte offset in the script */

    /* Iceberg references of every rewritten fragment of this statement. */
    const floe_sql_tref *refs;
    size_t nrefs;

    floe_sql_name target;       /* DDL/DML table (kind TABLE or BRANCH for DML) */
    floe_sql_name new_name;     /* RENAME TO */
    const char *const *ns_name; /* namespace statements, USE, SHOW TABLES IN */
    size_t nns_name;
    const char *ns_catalog; /* the catalog ns_name is in (USE <catalog>: nns_name 0) */
    bool if_exists, if_not_exists, purge, cascade, extended, overwrite;
    const char *alias;              /* DELETE/UPDATE target alias */
    const char *key, *value;        /* SET / RESET */
    const char *comment, *location; /* CREATE NAMESPACE */
    const floe_sql_prop *props;
    size_t nprops;
    const char *const *columns; /* INSERT column list, view column list */
    size_t ncolumns;
    const char *view_name;
    bool or_replace;

    const floe_sql_query *query; /* QUERY, EXPLAIN, INSERT source, VIEW */
    const floe_sql_query *where; /* DELETE, UPDATE; NULL if none */
    const floe_sql_assign *sets; /* UPDATE */
    size_t nsets;
    floe_sql_create_table create;
    floe_sql_ref ref;
    floe_sql_merge merge;
    floe_sql_call call;
    floe_sql_alter alter;
} floe_sql_stmt;

/* ---------------------------------------------------------------- API */

/* Parse the first statement of `sql` (a NUL-terminated script).
 * Empty statements (`;;`, comments only) are skipped. On success *out is the
 * statement (in arena `a`) or NULL when only whitespace/comments remain, and
 * *rest (if not NULL) points just after the statement's ';' (or at the end),
 * so a script is run as `while (parse(..., p, ..., &st, &p) == 0 && st)`.
 * opt may be NULL (FLOE_SQL_OPTIONS_INIT). Positions (stmt->pos,
 * query->pos, name->pos, error positions) count from opt->script when set,
 * else from `sql`. The statement and every string it points to live in `a`
 * (tokens too): keep the arena for as long as the statement is used; the
 * script itself is not referenced afterwards.
 * Errors: FLOE_EINVALID (syntax), FLOE_EUNSUPPORTED (valid Spark that floe
 * does not accept), FLOE_ENOTFOUND (CALL on another catalog), FLOE_ENOMEM;
 * on error *rest points after the failing statement so a REPL can continue.
 * Scripts over 64 MiB are refused. */
int floe__sql_parse(floe_arena *a, const char *sql, const floe_sql_options *opt,
                    floe_sql_stmt **out, const char **rest);

/* True when `text` holds at least one token and ends (ignoring trailing
 * whitespace and comments) with a ';' outside strings, identifiers and
 * comments: the REPL's "run it now" test. Never allocates. */
bool floe__sql_is_complete(const char *text);

/* Byte offset (see floe__sql_parse) of the last syntax error raised on
 * this thread by the front end. */
size_t floe__sql_error_pos(void);

/* Iceberg type string of a Spark type name ("BIGINT" -> "long",
 * "decimal(10, 2)" -> "decimal(10,2)"); NULL if unknown. Static storage or
 * arena. */
const char *floe__sql_iceberg_type(floe_arena *a, const char *spark_type);

/* Quote an identifier for SQLite ("a""b") into buf. */
int floe__sql_quote_ident(floe_buf *b, const char *name);
/* Quote a string literal for SQLite ('it''s') into buf. */
int floe__sql_quote_string(floe_buf *b, const char *s);

/* Names for messages and tests. */
const char *floe__sql_kind_name(floe_sql_kind k);

#endif
