/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the sort_order text of rewrite_data_files
 * (floe__sql_parse_sort_order in src/sql/parse_alter.c: Spark's order
 * syntax with transforms, ASC/DESC, NULLS FIRST/LAST and zorder(...)).
 * Must never crash or leak; errors are expected.
 */
#include "sql/sqlfront.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = floe__strndup((const char *)data, size);
    floe_arena *a = floe__arena_new(4096);
    if (text && a) {
        const floe_sql_sort_item *items = NULL;
        size_t n = 0;
        floe_sql_zorder z;
        (void)floe__sql_parse_sort_order(a, text, &items, &n, &z);
    }
    floe__arena_free(a);
    floe__free(text);
    floe_error_clear();
    return 0;
}
