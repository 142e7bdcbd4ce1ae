/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: spec/view. Input that starts with '{' is a view metadata
 * file: if it parses it must serialize, and the serialized text must parse
 * and serialize to the same bytes (a fixed point). Any other first byte
 * is dropped and the rest is a REST view commit (CommitViewRequest)
 * applied to a small fixed view; whatever applies must serialize and read
 * back. Anything else must fail cleanly.
 */
#include "spec/view.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base_json[] =
    "{\"view-uuid\":\"fa6506c3-7681-40c8-86dc-e36561f83385\",\"format-version\":1,"
    "\"location\":\"s3://b/v\",\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{"
    "\"id\":1,\"name\":\"x\",\"required\":false,\"type\":\"int\"}]}],\"current-version-id\":1,"
    "\"versions\":[{\"version-id\":1,\"timestamp-ms\":1,\"schema-id\":0,\"summary\":{},"
    "\"default-namespace\":[\"db\"],\"representations\":[{\"type\":\"sql\",\"sql\":\"SELECT 1 AS "
    "x\",\"dialect\":\"spark\"}]}],\"version-log\":[{\"timestamp-ms\":1,\"version-id\":1}]}";

static void fixed_point(const floe_view_metadata *m)
{
    floe_buf a = FLOE_BUF_INIT, b = FLOE_BUF_INIT;
    if (floe__view_metadata_to_json(m, &a) < 0)
        abort();
    floe_view_metadata *again = NULL;
    if (floe__view_metadata_parse(&again, a.ptr, a.len, "again") < 0)
        abort();
    if (floe__view_metadata_to_json(again, &b) < 0 || a.len != b.len ||
        memcmp(a.ptr, b.ptr, a.len) != 0)
        abort();
    floe__view_metadata_free(again);
    floe__buf_free(&a);
    floe__buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    floe_view_metadata *m = NULL;
    if (data[0] == '{') {
        if (floe__view_metadata_parse(&m, data, size, "fuzz") == 0)
            fixed_point(m);
        floe__view_metadata_free(m);
        return 0;
    }
    if (floe__view_metadata_parse(&m, base_json, sizeof base_json - 1, "base") < 0)
        abort();
    floe_json *j = NULL;
    if (floe__json_parse(&j, data + 1, size - 1, "fuzz") == 0 &&
        floe__view_commit_apply(m, j) == 0)
        fixed_point(m);
    floe__json_free(j);
    floe__view_metadata_free(m);
    return 0;
}
