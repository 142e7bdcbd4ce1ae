/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: a REST CommitTableRequest body through spec/commit. The first
 * byte picks the table's format version (1..3), the rest is the JSON body.
 * A body that parses must serialize, the serialized text must parse again
 * and serialize to the same bytes (a fixed point); the requirements are
 * checked against a small fixed table and against no table, and the updates
 * applied to it; whatever builds must write and read back. Anything else
 * must fail cleanly.
 */
#include "spec/commit.h"

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
    "\"fields\":[]}],\"properties\":{},\"current-snapshot-id\":7,\"refs\":{\"main\":{\"snapshot-id\":7,"
    "\"type\":\"branch\"}},\"snapshots\":[{\"snapshot-id\":7,\"sequence-number\":1,\"timestamp-ms\":1,"
    "\"summary\":{\"operation\":\"append\"},\"manifest-list\":\"s3://b/t/m.avro\"}]}";

typedef struct change {
    floe_arena *a;
    floe_vec reqs, ups;
} change;

static int parse(change *c, const void *text, size_t len, int fv)
{
    memset(c, 0, sizeof *c);
    c->reqs.item_size = sizeof(floe_requirement);
    c->ups.item_size = sizeof(floe_table_update);
    if (!(c->a = floe__arena_new(1024)))
        abort();
    floe_json *j = NULL;
    int rc = floe__json_parse(&j, text, len, "fuzz");
    if (rc == 0)
        rc = floe__commit_parse(j, fv, c->a, &c->reqs, &c->ups);
    floe__json_free(j);
    return rc;
}

static void release(change *c)
{
    if (c->ups.items)
        floe__commit_release(c->ups.items, c->ups.len);
    floe__vec_free(&c->reqs);
    floe__vec_free(&c->ups);
    floe__arena_free(c->a);
}

static void serialize(const change *c, int fv, floe_buf *out)
{
    floe_jw w;
    floe__jw_init(&w, out);
    if (floe__jw_obj(&w) < 0 ||
        floe__commit_write(&w, c->reqs.items, c->reqs.len, c->ups.items, c->ups.len, fv) < 0 ||
        floe__jw_obj_end(&w) < 0 || floe__jw_finish(&w) < 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int fv = 1 + data[0] % 3;
    change c, c2;
    if (parse(&c, data + 1, size - 1, fv) < 0) {
        release(&c);
        return 0;
    }
    floe_buf a = FLOE_BUF_INIT, b = FLOE_BUF_INIT;
    serialize(&c, fv, &a);
    if (parse(&c2, a.ptr, a.len, fv) < 0)
        abort();
    serialize(&c2, fv, &b);
    if (a.len != b.len || memcmp(a.ptr, b.ptr, a.len) != 0)
        abort();
    release(&c2);

    floe_table_metadata *base = NULL, *out = NULL;
    floe_metadata_builder *mb = NULL;
    if (floe__metadata_parse(&base, base_json, sizeof base_json - 1, "base") < 0)
        abort();
    (void)floe__commit_check(NULL, c.reqs.items, c.reqs.len);
    if (floe__commit_check(base, c.reqs.items, c.reqs.len) == 0 && fv == 2) {
        if (floe__metadata_builder_new(&mb, base, "s3://b/t/metadata/0.json") < 0)
            abort();
        if (floe__commit_apply(mb, c.ups.items, c.ups.len) == 0 &&
            floe__metadata_builder_build(mb, 2, &out) == 0) {
            floe_buf m = FLOE_BUF_INIT;
            floe_table_metadata *back = NULL;
            if (floe__metadata_write(out, &m) < 0 ||
                floe__metadata_parse(&back, m.ptr, m.len, "built") < 0)
                abort();
            floe__metadata_free(back);
            floe__buf_free(&m);
        }
        floe__metadata_free(out);
        floe__metadata_builder_free(mb);
    }
    floe__metadata_free(base);
    floe__buf_free(&a);
    floe__buf_free(&b);
    release(&c);
    return 0;
}
