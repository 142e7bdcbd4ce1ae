/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the Thrift binary-protocol decoder of the Hive Metastore
 * client (catalog/thrift_binary.c) — a stream of reply messages as the
 * unframed transport reads them (the corpus holds conversations recorded
 * from a real Hive Metastore). Must never crash, leak or allocate without
 * bound; errors are expected. A message that decodes is written again and
 * must decode to the same bytes.
 */
#include "catalog/thrift_binary.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int one(const uint8_t *data, size_t size, size_t *used_out);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t used = 0;
    for (int i = 0; i < 64 && size > 0 && one(data, size, &used) == 0 && used > 0; i++) {
        data += used;
        size -= used;
    }
    floe_error_clear();
    return 0;
}

static int one(const uint8_t *data, size_t size, size_t *used_out)
{
    int rc = -1;
    floe_arena *a = floe__arena_new(4096);
    if (!a)
        return 0;
    floe_tbmsg m;
    size_t used = 0;
    bool truncated = false;
    if (floe__tbdec_message(data, size, a, "fuzz", &m, &used, &truncated) == 0) {
        if (used > size)
            abort();
        rc = 0;
        *used_out = used;
        floe_buf b = FLOE_BUF_INIT;
        floe_tbenc e;
        floe__tbenc_init(&e, &b);
        floe__tbenc_message(&e, m.name, m.type, m.seqid);
        floe__tbenc_value(&e, &m.body);
        if (e.rc == 0) {
            floe_tbmsg m2;
            size_t used2 = 0;
            if (floe__tbdec_message((const uint8_t *)b.ptr, b.len, a, "fuzz", &m2, &used2,
                                    &truncated) != 0 ||
                used2 != b.len)
                abort();
            floe_buf b2 = FLOE_BUF_INIT;
            floe__tbenc_init(&e, &b2);
            floe__tbenc_message(&e, m2.name, m2.type, m2.seqid);
            floe__tbenc_value(&e, &m2.body);
            if (e.rc == 0 && (b2.len != b.len || memcmp(b2.ptr, b.ptr, b.len) != 0))
                abort();
            floe__buf_free(&b2);
        }
        floe__buf_free(&b);
    }
    floe__arena_free(a);
    return rc;
}
