/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the XML an S3 server answers with (outside input) — the
 * ListObjectsV2 result, error documents, CreateMultipartUpload and
 * DeleteObjects results — through the same libxml2-based parsers the S3
 * FileIO uses. The first byte picks the parser.
 */
#include "io/s3.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t which = data[0] % 4;
    const char *xml = (const char *)data + 1;
    size_t len = size - 1;
    switch (which) {
    case 0: {
        floe_arena *a = floe__arena_new(4096);
        if (!a)
            return 0;
        floe_s3_list_page page;
        if (floe__s3_parse_list(a, xml, len, &page) == 0) {
            /* Touch every parsed field so sanitizers see bad pointers. */
            size_t total = 0;
            for (size_t i = 0; i < page.n; i++)
                total += strlen(page.entries[i].key) + (size_t)(page.entries[i].size & 1);
            if (page.truncated)
                total += strlen(page.next_token);
            (void)total;
        }
        floe__arena_free(a);
        break;
    }
    case 1: {
        char code[64], msg[256];
        (void)floe__s3_parse_error(xml, len, code, sizeof code, msg, sizeof msg);
        break;
    }
    case 2: {
        char *id = NULL;
        if (floe__s3_parse_upload_id(xml, len, &id) == 0)
            floe__free(id);
        break;
    }
    default: {
        char key[128], code[32];
        size_t n;
        (void)floe__s3_parse_delete_result(xml, len, key, sizeof key, code, sizeof code, &n);
        break;
    }
    }
    floe_error_clear();
    return 0;
}
