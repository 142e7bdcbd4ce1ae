/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the streaming manifest reader (schema resolution by field
 * id, partition tuples, metrics maps, sequence-number inheritance) and the
 * whole-manifest reader that copies every entry.
 */
#include "manifest/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_manifest_file mf;
    memset(&mf, 0, sizeof mf);
    mf.sequence_number = 7;
    mf.added_snapshot_id = 11;
    floe_manifest_read_options o = {&mf, false};
    floe_manifest_reader *r;
    if (floe_manifest_reader_open(&r, data, size, "fuzz-m.avro", &o) == 0) {
        const floe_manifest_entry *e;
        while (floe_manifest_reader_next(r, &e) == 0)
            ;
        floe_manifest_reader_free(r);
    }
    floe_manifest *m;
    if (floe_manifest_read(&m, data, size, "fuzz-m.avro", NULL) == 0)
        floe_manifest_free(m);
    return 0;
}
