/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: table metadata JSON (plain or gzip). A parse that succeeds
 * must also write, and the written JSON must parse again and write the same
 * bytes (writing is a fixed point); anything else must fail cleanly.
 * An input that is a JSON array is instead a list of REST table updates
 * applied to a small fixed table through the metadata builder; whatever the
 * builder accepts must build into metadata that again round-trips.
 */
#include "spec/commit.h"
#include "spec/spec.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base_json[] =
    "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
    "\"location\":\"s3://b/t\",\"last-sequence-number\":1,\"last-updated-ms\":1,"
    "\"last-column-id\":2,\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\",\"schema-id\":0,"
    "\"fields\":[{\"id\":1,\"name\":\"x\",\"required\":true,\"type\":\"long\"},{\"id\":2,\"name\":\"s\","
    "\"required\":false,\"type\":\"string\"}]}],\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,"
    "\"fields\":[]}],\"last-partition-id\":999,\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,"
    "\"fields\":[]}],\"properties\":{},\"current-snapshot-id\":7,\"snapshots\":[{\"snapshot-id\":7,"
    "\"sequence-number\":1,\"timestamp-ms\":1,\"summary\":{\"operation\":\"append\"},"
    "\"manifest-list\":\"s3://b/t/m.avro\"}]}";

static void roundtrip(const floe_table_metadata *m)
{
    floe_table_metadata *m2 = NULL;
    floe_buf a = FLOE_BUF_INIT, b = FLOE_BUF_INIT;
    if (floe__metadata_write(m, &a) < 0)
        abort();
    if (floe__metadata_parse(&m2, a.ptr, a.len, "rewritten") < 0)
        abort();
    if (floe__metadata_write(m2, &b) < 0 || a.len != b.len || memcmp(a.ptr, b.ptr, a.len) != 0)
        abort();
    floe__buf_free(&a);
    floe__buf_free(&b);
    floe__metadata_free(m2);
}

static void updates(const uint8_t *data, size_t size)
{
    floe_json *u = NULL;
    floe_table_metadata *base = NULL, *out = NULL;
    floe_metadata_builder *b = NULL;
    if (floe__json_parse(&u, data, size, "fuzz") < 0)
        return;
    if (floe__metadata_parse(&base, base_json, sizeof base_json - 1, "base") < 0 ||
        floe__metadata_builder_new(&b, base, "s3://b/t/metadata/0.json") < 0)
        abort();
    for (size_t i = 0; i < floe__json_len(u); i++)
        floe__commit_apply_json(b, floe__json_at(u, i)); /* rejected updates are fine */
    if (floe__metadata_builder_build(b, 2, &out) == 0) {
        roundtrip(out);
        floe__metadata_free(out);
    }
    floe__metadata_builder_free(b);
    floe__metadata_free(base);
    floe__json_free(u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 0 && data[0] == '[') {
        updates(data, size);
        return 0;
    }
    floe_table_metadata *m = NULL;
    if (floe__metadata_parse(&m, data, size, "fuzz") < 0)
        return 0;
    roundtrip(m);
    floe__metadata_free(m);
    return 0;
}
