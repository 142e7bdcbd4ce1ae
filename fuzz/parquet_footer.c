/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: a whole Parquet file — footer (thrift compact FileMetaData),
 * schema tree, projection, every column chunk and page. Must never crash,
 * leak or allocate without bound; errors are expected.
 */
#include "parquet/parquet.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_input *in;
    if (floe__pq_input_memory(&in, data, size, "fuzz.parquet") < 0)
        return 0;
    floe_pq_reader *r;
    if (floe__pq_reader_open(&r, in, NULL) == 0) {
        for (int i = 0; i < 64; i++) {
            struct ArrowArray a;
            if (floe__pq_reader_next(r, &a) < 0)
                break;
            a.release(&a);
        }
        floe__pq_reader_free(r);
    }
    in->close(in);
    /* the footer decoder on its own, from offset 0 */
    floe_arena *ar = floe__arena_new(4096);
    if (ar) {
        floe_pq_file_meta fm;
        (void)floe__pq_decode_file_meta(&fm, ar, data, size, 0, "fuzz");
        floe__arena_free(ar);
    }
    floe_error_clear();
    return 0;
}
