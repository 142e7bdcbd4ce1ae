/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: one column chunk (page headers, codecs, levels, values in
 * every encoding). Byte 0: physical type (low 3 bits) and fixed length;
 * byte 1: shape (required / optional / inside a list, low 2 bits) and codec
 * (bits 2-4); bytes 2-3: num_values (little-endian); the rest is the chunk. Must never crash, leak or allocate without bound.
 */
#include "parquet/column.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5)
        return 0;
    uint8_t sel = data[0], cfg = data[1];
    int64_t num_values = data[2] | (data[3] << 8);
    data += 2;
    size -= 2;
    /* the chunk starts at file offset 4 (after the magic) */
    size_t len = size - 2 + 4;
    uint8_t *file = malloc(len);
    if (!file)
        return 0;
    memcpy(file, "PAR1", 4);
    memcpy(file + 4, data + 2, size - 2);
    floe_pq_schema_element root = {0}, leaf = {0};
    root.name = "table";
    root.type = -1;
    leaf.name = "v";
    leaf.type = sel % 8;
    leaf.type_length = leaf.type == FLOE_PQ_FIXED_LEN_BYTE_ARRAY ? 1 + (sel >> 3) % 16 : 0;
    leaf.converted_type = -1;
    int shape = (cfg & 3) % 3;
    leaf.repetition = shape == 0 ? FLOE_PQ_REQUIRED : FLOE_PQ_OPTIONAL;
    floe_pq_node nroot = {&root, NULL, NULL, 0, 0, 0, -1, 0};
    floe_pq_node nleaf = {&leaf, &nroot, NULL, 0, (int16_t)(shape == 0 ? 0 : 1), 0, 0, 1};
    if (shape == 2) {
        /* a leaf inside list<optional element>: def 3, rep 1 */
        nleaf.max_def = 3;
        nleaf.max_rep = 1;
        nleaf.depth = 3;
    }
    floe_pq_column_chunk cc;
    memset(&cc, 0, sizeof(cc));
    cc.has_meta_data = true;
    cc.meta_data.type = leaf.type;
    cc.meta_data.codec = (cfg >> 2) & 7;
    cc.meta_data.num_values = num_values;
    cc.meta_data.data_page_offset = 4;
    cc.meta_data.total_compressed_size = (int64_t)(size - 2);
    floe_input *in;
    if (floe__pq_input_memory(&in, file, len, "fuzz.parquet") == 0) {
        floe_pq_leafdata d;
        memset(&d, 0, sizeof(d));
        (void)floe__pq_read_chunk(in, &cc, &nleaf, &d);
        floe__pq_leafdata_free(&d);
        in->close(in);
    }
    free(file);
    floe_error_clear();
    return 0;
}
