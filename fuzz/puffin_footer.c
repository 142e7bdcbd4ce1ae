/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: Puffin footers (src/table/puffin.c floe__puffin_rewrite_refs,
 * with LZ4-compressed footers through liblz4). The input is read as a whole
 * Puffin file, and again as the payload of a footer flagged compressed, so
 * that the LZ4 frame reader sees arbitrary frames. Must never crash, leak
 * or allocate without bound (a frame expands at most 256 times).
 */
#include "table/puffin.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same_ref(void *payload, const char *from, const char **to)
{
    (void)payload;
    *to = from;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_buf out = FLOE_BUF_INIT;
    (void)floe__puffin_rewrite_refs(data, size, same_ref, NULL, &out);
    floe__buf_free(&out);
    if (size < (1u << 20)) {
        uint8_t *b = floe__malloc(size + 20);
        if (b) {
            memcpy(b, "PFA1PFA1", 8);
            if (size)
                memcpy(b + 8, data, size);
            uint8_t tail[12] = {(uint8_t)size,
                                (uint8_t)(size >> 8),
                                (uint8_t)(size >> 16),
                                0,
                                1,
                                0,
                                0,
                                0,
                                'P',
                                'F',
                                'A',
                                '1'};
            memcpy(b + 8 + size, tail, 12);
            (void)floe__puffin_rewrite_refs(b, size + 20, same_ref, NULL, &out);
            floe__buf_free(&out);
            floe__free(b);
        }
    }
    floe_error_clear();
    return 0;
}
