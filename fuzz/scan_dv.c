/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: deletion-vector blobs (src/scan/dv.c). The input is decoded
 * as a whole blob, and again wrapped with a correct length, magic and CRC so
 * that the Roaring structure itself is exercised. Must never crash, leak or
 * allocate without bound (positions are capped by the row limit).
 */
#include "scan/scan.h"

#include <stdint.h>
#include <string.h>
#include <zlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_vec pos = FLOE_VEC_INIT(int64_t);
    (void)floe__scan_dv_decode(data, size, "fuzz.puffin", 0, (uint64_t)1 << 20, &pos);
    floe__vec_free(&pos);
    if (size < (1u << 20)) {
        uint8_t *b = floe__malloc(size + 12);
        if (b) {
            uint32_t len = (uint32_t)size + 4;
            b[0] = (uint8_t)(len >> 24), b[1] = (uint8_t)(len >> 16);
            b[2] = (uint8_t)(len >> 8), b[3] = (uint8_t)len;
            b[4] = 0xD1, b[5] = 0xD3, b[6] = 0x39, b[7] = 0x64;
            if (size)
                memcpy(b + 8, data, size);
            uint32_t crc = (uint32_t)crc32(0L, b + 4, (uInt)len);
            b[8 + size] = (uint8_t)(crc >> 24), b[9 + size] = (uint8_t)(crc >> 16);
            b[10 + size] = (uint8_t)(crc >> 8), b[11 + size] = (uint8_t)crc;
            (void)floe__scan_dv_decode(b, size + 12, "fuzz.puffin", 0, (uint64_t)1 << 20, &pos);
            floe__vec_free(&pos);
            floe__free(b);
        }
    }
    floe_error_clear();
    return 0;
}
