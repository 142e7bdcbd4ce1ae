/* SPDX-License-Identifier: Apache-2.0 */
/*
 * expr: row filters and how they prune a scan (spec "Scan Planning",
 * "Partition Transforms"; semantics of Java's Expressions, Binder,
 * Projections, ManifestEvaluator, InclusiveMetricsEvaluator and
 * ResidualEvaluator).
 *
 * An expression is an immutable tree allocated in a caller-owned arena.
 * Unbound predicates name a column ("a.b" for nested struct fields); binding
 * to a schema resolves names to field ids, converts literals to the column
 * type and pushes NOT down to the leaves (rewriteNot), so bound trees never
 * contain NOT. A bound tree is then
 *   - evaluated on rows (floe_expr_eval, values fetched by field id),
 *   - projected through a partition spec (floe_expr_project_inclusive) into a
 *     predicate on partition values, which prunes manifests
 *     (floe_expr_manifest_might_match over the manifest list's partition
 *     field summaries) and data files (floe_expr_eval_partition),
 *   - checked against a data file's column metrics
 *     (floe_expr_metrics_might_match),
 *   - reduced to a per-file residual (floe_expr_residual).
 * All pruning answers are "might match" (true) or "cannot match" (false) and
 * are never false negatives: a row matching the filter always lives in a
 * manifest and file the evaluators keep.
 *
 * Null semantics are Java's two-valued ones: a comparison, IN or STARTS WITH
 * on a null value is false, and !=, NOT IN, NOT STARTS WITH and NOT NAN on a
 * null value are true. Comparisons (<, <=, >, >=, =) with a NaN value are
 * false and != is true; NaN is only matched by IS NAN.
 *
 * Private API for now (no FLOE_EXTERN).
 */
#ifndef FLOE_EXPR_H
#define FLOE_EXPR_H

#include "spec/types.h"

typedef enum floe_expr_kind {
    FLOE_EXPR_TRUE = 1,
    FLOE_EXPR_FALSE,
    FLOE_EXPR_AND,
    FLOE_EXPR_OR,
    FLOE_EXPR_NOT,
    FLOE_EXPR_PRED,
} floe_expr_kind;

typedef enum floe_op {
    FLOE_OP_IS_NULL = 1,
    FLOE_OP_NOT_NULL,
    FLOE_OP_IS_NAN,
    FLOE_OP_NOT_NAN,
    FLOE_OP_LT,
    FLOE_OP_LT_EQ,
    FLOE_OP_GT,
    FLOE_OP_GT_EQ,
    FLOE_OP_EQ,
    FLOE_OP_NOT_EQ,
    FLOE_OP_STARTS_WITH,
    FLOE_OP_NOT_STARTS_WITH,
    FLOE_OP_IN,
    FLOE_OP_NOT_IN,
} floe_op;

typedef struct floe_expr floe_expr;
struct floe_expr {
    floe_expr_kind kind;
    /* AND/OR: left, right; NOT: left */
    const floe_expr *left, *right;
    /* PRED */
    floe_op op;
    const char *name;      /* column name (unbound) or the bound field's name */
    int32_t field_id;      /* 0 while unbound; partition field id after projection */
    const floe_type *type; /* bound: the column's (or partition field's) type */
    size_t nlits;          /* 1 for comparisons/starts-with, n for IN/NOT IN, 0 else */
    const floe_value *lits;
};

/* The two constants (static, never freed). */
const floe_expr *floe_expr_true(void);
const floe_expr *floe_expr_false(void);

/* Constructors: nodes, names and literal bytes are copied into `a`. NULL on
 * out-of-memory (FLOE_ENOMEM set) or when an argument is NULL (so calls can
 * nest; the first failure propagates). AND/OR/NOT simplify constants. */
const floe_expr *floe_expr_and(floe_arena *a, const floe_expr *l, const floe_expr *r);
const floe_expr *floe_expr_or(floe_arena *a, const floe_expr *l, const floe_expr *r);
const floe_expr *floe_expr_not(floe_arena *a, const floe_expr *e);
/* The predicate operator that holds where `op` does not (two-valued: < and
 * >=, = and !=, IN and NOT IN, IS NULL and NOT NULL, ...). */
floe_op floe__expr_negate_op(floe_op op);
/* IS NULL, NOT NULL, IS NAN, NOT NAN. */
const floe_expr *floe_expr_unary(floe_arena *a, floe_op op, const char *name);
/* <, <=, >, >=, =, !=, STARTS WITH, NOT STARTS WITH with one literal. */
const floe_expr *floe_expr_cmp(floe_arena *a, floe_op op, const char *name, floe_value lit);
/* IN / NOT IN (n >= 1 literals). */
const floe_expr *floe_expr_set(floe_arena *a, floe_op op, const char *name, const floe_value *lits,
                               size_t n);
/* A predicate of any op (used by binding and projection). */
const floe_expr *floe_expr_pred(floe_arena *a, floe_op op, const char *name, const floe_value *lits,
                                size_t n);

/* NOT pushed to the leaves: NOT(a AND b) = NOT a OR NOT b, NOT(x < 5) =
 * x >= 5, NOT(x IN s) = x NOT IN s, ... */
int floe_expr_rewrite_not(const floe_expr **out, floe_arena *a, const floe_expr *e);

/* Bind `e` to `schema`: names -> field ids (dotted names walk structs; with
 * case_sensitive == false names compare ASCII-case-insensitively), literals
 * converted to the column type (int -> long, string '2026-09-20' -> date,
 * string -> timestamp/uuid/decimal, long -> int when in range, decimal
 * rescaled when lossless, ...), NOT rewritten away, constant branches folded
 * (a literal beyond the column's range makes `<`/`=` etc. always true/false
 * like Java's AboveMax/BelowMin). Errors (FLOE_EINVALID, message says why):
 * `Cannot find field 'x' in struct: ...`, an incompatible literal, NaN as a
 * literal (use IS NAN), IS NAN on a non-floating column, STARTS WITH on a
 * non-string column, predicates on nested (struct/list/map) columns. */
int floe_expr_bind(const floe_expr **out, floe_arena *a, const floe_schema *schema,
                   const floe_expr *e, bool case_sensitive);

/* Evaluate a bound expression on one row. `get` fills the value of a field
 * id (a null value when absent); it returns 0 or a negative FLOE_E* code,
 * which is passed back. */
typedef int (*floe_expr_getter)(int32_t field_id, floe_value *out, void *payload);
int floe_expr_eval(bool *out, const floe_expr *bound, floe_expr_getter get, void *payload);

/* Test a single value against a bound predicate node (kind PRED). */
bool floe_expr_test_value(const floe_expr *pred, const floe_value *v);

/* Inclusive projection (Java Projections.inclusive): a predicate on the
 * partition tuple of `spec` that is true for the partition of every row the
 * bound filter `bound` matches. Predicates reference partition field ids and
 * carry the transform's result type (source types come from the bound
 * predicates). Unknown transforms and fields whose source the filter does
 * not mention project to true. */
int floe_expr_project_inclusive(const floe_expr **out, floe_arena *a, const floe_expr *bound,
                                const floe_partition_spec *spec);
/* Strict projection (Java Projections.strict): true for a partition only if
 * every row of that partition matches. */
int floe_expr_project_strict(const floe_expr **out, floe_arena *a, const floe_expr *bound,
                             const floe_partition_spec *spec);

/* Evaluate a projected expression on one partition tuple (values in spec
 * order). */
int floe_expr_eval_partition(bool *out, const floe_expr *projected, const floe_partition_spec *spec,
                             const floe_partition_value *pv);

/* One manifest-list partition field summary (spec "Manifest Lists",
 * field_summary): bounds are Appendix D single-value bytes of the partition
 * field's result type, NULL when absent. */
typedef struct floe_expr_field_summary {
    bool contains_null;
    int8_t contains_nan; /* -1 unknown (absent, v1), 0 false, 1 true */
    const uint8_t *lower_bound;
    size_t lower_len;
    const uint8_t *upper_bound;
    size_t upper_len;
} floe_expr_field_summary;

/* Manifest-list pruning (Java ManifestEvaluator): false when no partition in
 * the manifest can match the projected expression. `summaries` has one entry
 * per spec field, in spec order (n == spec->nfields, else FLOE_EINVALID).
 * FLOE_ECORRUPT if a bound does not decode for its type. */
int floe_expr_manifest_might_match(bool *out, const floe_expr *projected,
                                   const floe_partition_spec *spec,
                                   const floe_expr_field_summary *summaries, size_t n);

/* Column metrics of one data file (manifest data_file fields 108-128), as
 * arrays keyed by field id; NULL/0 arrays mean "not recorded". */
typedef struct floe_metric_count {
    int32_t field_id;
    int64_t count;
} floe_metric_count;

typedef struct floe_metric_bound {
    int32_t field_id;
    const uint8_t *ptr; /* Appendix D single-value bytes */
    size_t len;
} floe_metric_bound;

typedef struct floe_file_metrics {
    int64_t record_count; /* < 0: unknown */
    const floe_metric_count *value_counts;
    size_t n_value_counts;
    const floe_metric_count *null_value_counts;
    size_t n_null_value_counts;
    const floe_metric_count *nan_value_counts;
    size_t n_nan_value_counts;
    const floe_metric_bound *lower_bounds;
    size_t n_lower_bounds;
    const floe_metric_bound *upper_bounds;
    size_t n_upper_bounds;
} floe_file_metrics;

/* File pruning by column metrics (Java InclusiveMetricsEvaluator): false
 * when no row of the file can match the bound filter. Missing metrics mean
 * "might match"; float bounds that are NaN are ignored; string bounds may
 * be truncated (STARTS WITH compares prefixes); bounds written for a
 * promoted column's old type (int for long, float for double) are widened.
 * FLOE_ECORRUPT if a bound does not decode for the column's type. */
int floe_expr_metrics_might_match(bool *out, const floe_expr *bound, const floe_file_metrics *m);

/* Residual (Java ResidualEvaluator): the part of the bound filter that still
 * has to be evaluated on the rows of a file whose partition tuple is `pv`
 * (in `spec`): predicates that every row of the partition satisfies become
 * true, predicates none can satisfy become false, and the tree is folded.
 * Requires pv->n == spec->nfields. */
int floe_expr_residual(const floe_expr **out, floe_arena *a, const floe_expr *bound,
                       const floe_partition_spec *spec, const floe_partition_value *pv);

/* Append the distinct field ids referenced by a bound expression to `ids`
 * (a floe_vec of int32_t, FLOE_VEC_INIT(int32_t)): the columns a reader must
 * load to evaluate a residual. FLOE_ENOMEM on allocation failure. */
int floe_expr_field_ids(const floe_expr *e, floe_vec *ids);

/* Text form for messages and tests: `(id > 5 AND name STARTS WITH 'a')`,
 * `true`, `ts IN (...)`; bound predicates show the name. */
int floe_expr_format(const floe_expr *e, floe_buf *out);
const char *floe_op_name(floe_op op);

/* Compare two non-null values whose types share a representation (int and
 * date; long, time and timestamps; equal types otherwise) or differ by a
 * type promotion (int/long, float/double) with the spec's ordering. Other
 * mixes compare by type id. */
int floe_expr_value_compare(const floe_value *a, const floe_value *b);

/* ---------------------------------------------------------------- REST JSON (json.c) */

/* The REST expression JSON (open-api Expression; Java ExpressionParser's
 * forms, see json.c) into an unbound expression in `a`. With a schema,
 * literals of columns it names (case-sensitively) are read as that column's
 * JSON single value (dates, timestamps, hex binary, decimal strings); other
 * literals keep their JSON kind (long, double, string, boolean) for binding
 * to convert. FLOE_EINVALID "Cannot parse expression: ..." for malformed
 * input, FLOE_EUNSUPPORTED for transform terms, FLOE_ENOMEM. */
struct floe_json;
int floe_expr_from_json(const floe_expr **out, floe_arena *a, const struct floe_json *j,
                        const floe_schema *schema, bool case_sensitive);
/* The same from JSON text (FLOE_ECORRUPT for text that is not JSON). */
int floe_expr_parse_json(const floe_expr **out, floe_arena *a, const char *text, size_t len,
                         const floe_schema *schema, bool case_sensitive);
/* Append an (unbound or bound) expression as REST JSON: constants as JSON
 * booleans (as Java writes them), terms as names, literals as JSON single
 * values (binary and fixed as uppercase hex). */
int floe_expr_to_json(const floe_expr *e, floe_buf *out);
/* One literal as a JSON single value (as floe_expr_to_json writes it). */
int floe_expr_value_to_json(const floe_value *v, floe_buf *out);

#endif
