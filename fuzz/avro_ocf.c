/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the Avro object container reader (header, schema JSON,
 * codecs, block framing) and the generic datum decoder, on arbitrary bytes.
 */
#include "avro/avro.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_avro_file *f;
    if (floe_avro_file_open(&f, data, size, "fuzz.avro") < 0)
        return 0;
    floe_buf json = FLOE_BUF_INIT;
    floe_avro_cursor c;
    int64_t n;
    int rc = 0;
    while (rc == 0 && floe_avro_file_next_block(f, &c, &n) == 0)
        for (int64_t i = 0; i < n && rc == 0; i++) {
            rc = floe_avro_datum_to_json(&c, f->schema, &json, 0);
            floe__buf_clear(&json);
        }
    floe_buf schema = FLOE_BUF_INIT;
    floe_avro_schema_emit(f->schema, &schema);
    floe__buf_free(&schema);
    floe__buf_free(&json);
    floe_avro_file_free(f);
    return 0;
}
