/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the pruning evaluators and transforms over untrusted
 * bytes: a literal, file lower/upper bounds and partition summary bounds as
 * Appendix D single values (as read from manifests), bound to a one-column
 * schema, projected through a partition transform and evaluated. Input:
 *   [type][op][transform][param] then length-prefixed blobs:
 *   literal, lower, upper, then counts [values][nulls][nans][flags].
 */
#include "expr/expr.h"
#include "spec/transform.h"
#include "spec/value.h"

#include <string.h>

static const floe_type_id types[] = {
    FLOE_T_BOOLEAN,      FLOE_T_INT,    FLOE_T_LONG, FLOE_T_FLOAT,     FLOE_T_DOUBLE,
    FLOE_T_DECIMAL,      FLOE_T_DATE,   FLOE_T_TIME, FLOE_T_TIMESTAMP, FLOE_T_TIMESTAMPTZ,
    FLOE_T_TIMESTAMP_NS, FLOE_T_STRING, FLOE_T_UUID, FLOE_T_FIXED,     FLOE_T_BINARY,
};

static bool blob(const uint8_t **p, const uint8_t *end, const uint8_t **out, size_t *len)
{
    if (*p >= end)
        return false;
    size_t n = **p;
    (*p)++;
    if ((size_t)(end - *p) < n)
        return false;
    *out = *p;
    *len = n;
    *p += n;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    const uint8_t *p = data + 4, *end = data + size;
    floe_type t;
    memset(&t, 0, sizeof t);
    t.id = types[data[0] % (sizeof types / sizeof types[0])];
    t.precision = 10;
    t.scale = 2;
    t.length = 4;
    floe_op op = (floe_op)(FLOE_OP_IS_NULL + data[1] % 14);
    floe_transform tr = {(floe_transform_kind)(FLOE_TR_IDENTITY + data[2] % 8), 1 + data[3] % 17,
                         "fuzz"};
    const uint8_t *lit_p = NULL, *lo_p = NULL, *hi_p = NULL;
    size_t lit_n = 0, lo_n = 0, hi_n = 0;
    if (!blob(&p, end, &lit_p, &lit_n) || !blob(&p, end, &lo_p, &lo_n) ||
        !blob(&p, end, &hi_p, &hi_n))
        return 0;
    uint8_t counts[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4 && p < end; i++)
        counts[i] = *p++;

    floe_value lit;
    if (floe_value_from_single(&t, lit_p, lit_n, &lit) < 0)
        return 0;
    floe_field field = {1, "c", false, &t, NULL, NULL, NULL};
    floe_type root;
    memset(&root, 0, sizeof root);
    root.id = FLOE_T_STRUCT;
    root.nfields = 1;
    root.fields = &field;
    floe_schema schema;
    memset(&schema, 0, sizeof schema);
    schema.root = &root;

    floe_arena *a = floe__arena_new(1024);
    if (!a)
        return 0;
    floe_value lits[2] = {lit, lit};
    size_t nl = (op == FLOE_OP_IS_NULL || op == FLOE_OP_NOT_NULL || op == FLOE_OP_IS_NAN ||
                 op == FLOE_OP_NOT_NAN)
                    ? 0
                : (op == FLOE_OP_IN || op == FLOE_OP_NOT_IN) ? 2
                                                             : 1;
    const floe_expr *e = floe_expr_pred(a, op, "c", lits, nl), *b = NULL;
    if (e && (counts[3] & 1))
        e = floe_expr_not(a, e);
    if (e && floe_expr_bind(&b, a, &schema, e, true) == 0) {
        floe_metric_count vc = {1, counts[0]}, nc = {1, counts[1]}, nanc = {1, counts[2]};
        floe_metric_bound lo = {1, lo_p, lo_n}, hi = {1, hi_p, hi_n};
        floe_file_metrics m = {counts[0], &vc, 1, &nc, 1, &nanc, 1, &lo, 1, &hi, 1};
        bool r;
        floe_expr_metrics_might_match(&r, b, &m);

        floe_partition_field pf = {1, 1000, "c_part", tr};
        floe_partition_spec spec = {0, 1, &pf};
        const floe_expr *proj, *res;
        if (floe_expr_project_inclusive(&proj, a, b, &spec) == 0) {
            floe_expr_field_summary s = {
                (counts[3] & 2) != 0, (int8_t)((counts[3] >> 2) % 3) - 1, lo_p, lo_n, hi_p, hi_n};
            floe_expr_manifest_might_match(&r, proj, &spec, &s, 1);
        }
        floe_value pv;
        if (floe_transform_apply(&tr, &lit, &pv) == 0) {
            floe_partition_value tuple = {1, &pv};
            if (floe_expr_residual(&res, a, b, &spec, &tuple) == 0)
                floe_expr_eval_partition(&r, res, &spec, &tuple);
            floe_buf path = FLOE_BUF_INIT;
            floe_partition_path(&spec, &tuple, &path);
            floe__buf_free(&path);
        }
        floe_buf text = FLOE_BUF_INIT;
        floe_expr_format(b, &text);
        floe__buf_free(&text);
    }
    floe__arena_free(a);
    return 0;
}
