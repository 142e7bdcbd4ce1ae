/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: table metadata JSON (plain or gzip). A parse that succeeds
 * must also write, and the written JSON must parse again and write the same
 * bytes (writing is a fixed point); anything else must fail cleanly.
 */
#include "spec/metadata.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_table_metadata *m = NULL, *m2 = NULL;
    if (floe__metadata_parse(&m, data, size, "fuzz") < 0)
        return 0;
    floe_buf a = FLOE_BUF_INIT, b = FLOE_BUF_INIT;
    if (floe__metadata_write(m, &a) < 0)
        abort();
    if (floe__metadata_parse(&m2, a.ptr, a.len, "rewritten") < 0)
        abort();
    if (floe__metadata_write(m2, &b) < 0 || a.len != b.len || memcmp(a.ptr, b.ptr, a.len) != 0)
        abort();
    floe__buf_free(&a);
    floe__buf_free(&b);
    floe__metadata_free(m);
    floe__metadata_free(m2);
    return 0;
}
