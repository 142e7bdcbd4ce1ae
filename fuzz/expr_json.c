/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the REST expression JSON (src/expr/json.c), parsed with and
 * without a schema, bound, written back and parsed again: never a crash or
 * leak; what floe writes must parse again to the same text.
 */
#include "expr/expr.h"
#include "spec/spec.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *SCHEMA =
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":2,\"name\":\"name\",\"required\":false,\"type\":\"string\"},"
    "{\"id\":3,\"name\":\"price\",\"required\":false,\"type\":\"decimal(9, 2)\"},"
    "{\"id\":4,\"name\":\"d\",\"required\":false,\"type\":\"date\"},"
    "{\"id\":5,\"name\":\"b\",\"required\":false,\"type\":\"binary\"},"
    "{\"id\":6,\"name\":\"s\",\"required\":false,\"type\":{\"type\":\"struct\",\"fields\":["
    "{\"id\":7,\"name\":\"ts\",\"required\":false,\"type\":\"timestamptz\"}]}}]}";

/* Written, read back with the same schema and case sensitivity (a
 * case-insensitive parse leaves literals untyped that a case-sensitive one
 * types by the column), written again: the same text. */
static void roundtrip(const floe_expr *e, floe_arena *a, const floe_schema *schema,
                      bool case_sensitive)
{
    floe_buf b1 = FLOE_BUF_INIT, b2 = FLOE_BUF_INIT;
    const floe_expr *again = NULL;
    if (floe_expr_to_json(e, &b1) == 0 && b1.ptr &&
        floe_expr_parse_json(&again, a, b1.ptr, b1.len, schema, case_sensitive) == 0 &&
        floe_expr_to_json(again, &b2) == 0 && (b1.len != b2.len || memcmp(b1.ptr, b2.ptr, b1.len)))
        abort(); /* floe's own output must read back to itself */
    floe__buf_free(&b1);
    floe__buf_free(&b2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192)
        return 0;
    floe_arena *a = floe__arena_new(4096);
    floe_json *j = NULL;
    floe_schema *schema = NULL;
    if (a && floe__json_parse(&j, SCHEMA, strlen(SCHEMA), "schema") == 0 &&
        floe__schema_from_json(&schema, j, 0, a) == 0) {
        for (int mode = 0; mode < 3; mode++) {
            const floe_expr *e = NULL, *bound = NULL;
            const floe_schema *sc = mode == 0 ? NULL : schema;
            if (floe_expr_parse_json(&e, a, (const char *)data, size, sc, mode != 2) < 0)
                continue;
            roundtrip(e, a, sc, mode != 2);
            if (floe_expr_bind(&bound, a, schema, e, mode != 2) == 0)
                roundtrip(bound, a, schema, true);
        }
    }
    if (schema)
        floe__schema_release(schema);
    floe__json_free(j);
    floe__arena_free(a);
    floe_error_clear();
    return 0;
}
