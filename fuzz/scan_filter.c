/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the textual scan filter (src/scan/filter.c), parsed and then
 * bound to a small schema. Must never crash or leak; errors are expected.
 */
#include "scan/scan.h"

#include "spec/spec.h"
#include "expr/expr.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *SCHEMA =
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":2,\"name\":\"name\",\"required\":false,\"type\":\"string\"},"
    "{\"id\":3,\"name\":\"price\",\"required\":false,\"type\":\"decimal(9, 2)\"},"
    "{\"id\":4,\"name\":\"d\",\"required\":false,\"type\":\"date\"},"
    "{\"id\":5,\"name\":\"x\",\"required\":false,\"type\":\"double\"}]}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = floe__strndup((const char *)data, size);
    floe_arena *a = floe__arena_new(4096);
    floe_json *j = NULL;
    floe_schema *schema = NULL;
    if (text && a && floe__json_parse(&j, SCHEMA, strlen(SCHEMA), "schema") == 0 &&
        floe__schema_from_json(&schema, j, 0, a) == 0) {
        const floe_expr *e, *bound;
        if (floe__scan_filter_parse(&e, a, text, schema) == 0)
            (void)floe_expr_bind(&bound, a, schema, e, false);
    }
    if (schema)
        floe__schema_release(schema);
    floe__json_free(j);
    floe__arena_free(a);
    floe__free(text);
    floe_error_clear();
    return 0;
}
