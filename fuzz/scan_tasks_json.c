/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: server-side planning responses as floe's REST client reads
 * them (src/scan/remote.c: file-scan-tasks, delete-files, partition
 * values, residual filters) against a small partitioned table; a plan that
 * parses is written back to the wire form. Never a crash or leak.
 */
#include "scan/scan.h"
#include "spec/metadata.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *META =
    "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
    "\"location\":\"mem://wh/t\",\"last-sequence-number\":1,\"last-updated-ms\":1,"
    "\"last-column-id\":3,\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\","
    "\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":2,\"name\":\"region\",\"required\":false,\"type\":\"string\"},"
    "{\"id\":3,\"name\":\"d\",\"required\":false,\"type\":\"date\"}]}],\"default-spec-id\":1,"
    "\"partition-specs\":[{\"spec-id\":0,\"fields\":[]},{\"spec-id\":1,\"fields\":["
    "{\"source-id\":2,\"field-id\":1000,\"name\":\"region\",\"transform\":\"identity\"},"
    "{\"source-id\":3,\"field-id\":1001,\"name\":\"d_month\",\"transform\":\"month\"}]}],"
    "\"last-partition-id\":1001,\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,"
    "\"fields\":[]}],\"properties\":{},\"current-snapshot-id\":-1,\"snapshots\":[],"
    "\"snapshot-log\":[],\"metadata-log\":[]}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    floe_table_metadata *m = NULL;
    if (floe__metadata_parse(&m, META, strlen(META), "fuzz") == 0) {
        const char *body = (const char *)data;
        floe_scan_plan *p = NULL;
        if (floe__scan_plan_from_responses(&p, m, NULL, NULL, NULL, true, &body, &size, 1) ==
            0) {
            floe_buf out = FLOE_BUF_INIT;
            (void)floe__scan_tasks_to_json(p, 0, p->ntasks, &out);
            floe__buf_free(&out);
            floe__scan_plan_free(p);
        }
    }
    floe__metadata_free(m);
    floe_error_clear();
    return 0;
}
