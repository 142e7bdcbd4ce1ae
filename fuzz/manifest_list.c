/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target: the manifest-list reader (field summaries, renamed v1/v2
 * count fields, header keys), then re-writing what was read.
 */
#include "manifest/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_manifest_list *l;
    if (floe_manifest_list_read(&l, data, size, "fuzz-l.avro") < 0)
        return 0;
    floe_buf out = FLOE_BUF_INIT;
    floe_manifest_list_writer_options o = {2, 1, false, 0, 3, FLOE_AVRO_CODEC_NULL, -1, 0};
    floe_manifest_list_writer *w;
    if (floe_manifest_list_writer_new(&w, &o, &out) == 0) {
        for (size_t i = 0; i < l->nentries; i++)
            if (l->entries[i].added_snapshot_id >= 0 &&
                floe_manifest_list_writer_add(w, &l->entries[i]) < 0)
                break;
        floe_manifest_list_writer_finish(w);
        floe_manifest_list_writer_free(w);
    }
    floe__buf_free(&out);
    floe_manifest_list_free(l);
    return 0;
}
