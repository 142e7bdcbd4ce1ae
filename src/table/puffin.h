/* SPDX-License-Identifier: Apache-2.0 */
/*
 * table/puffin: writing Puffin files (format/puffin-spec.md) of
 * `deletion-vector-v1` blobs (spec "Deletion Vectors"; Java's
 * BaseDVFileWriter and RoaringPositionBitmap, read, not copied). The
 * reader of a DV blob is scan/dv.c (floe__scan_dv_decode).
 *
 * A Puffin file: magic "PFA1", the blobs, then the footer: magic, the
 * footer JSON ({"blobs":[{"type","fields":[],"snapshot-id":-1,
 * "sequence-number":-1,"offset","length","properties":
 * {"referenced-data-file","cardinality"}}],"properties":{"created-by"}}),
 * its length (u32 LE), 4 flag bytes (0: uncompressed), magic.
 */
#ifndef FLOE_TABLE_PUFFIN_H
#define FLOE_TABLE_PUFFIN_H

#include "util/util.h"

/* The blob of a deletion vector over `n` sorted, distinct positions >= 0:
 * u32 BE length of magic + vector, magic D1 D3 39 64, the 64-bit portable
 * Roaring serialization (run containers where they are smaller, as after
 * Java's runLengthEncode), u32 BE CRC-32 of magic + vector. Appended to
 * `out`. FLOE_EINVALID for unsorted or negative positions. */
int floe__dv_encode(const int64_t *pos, size_t n, floe_buf *out);

typedef struct floe_puffin_blob_info {
    int64_t offset, length; /* in the file */
} floe_puffin_blob_info;

typedef struct floe_puffin_writer {
    floe_buf bytes;  /* the file so far */
    floe_buf footer; /* the footer's "blobs" entries */
    size_t nblobs;
} floe_puffin_writer;

int floe__puffin_writer_init(floe_puffin_writer *w);
/* Add the DV of `referenced_data_file` (positions as floe__dv_encode). */
int floe__puffin_add_dv(floe_puffin_writer *w, const char *referenced_data_file,
                        const int64_t *pos, size_t n, floe_puffin_blob_info *out);
/* Finish: w->bytes is the whole file. */
int floe__puffin_finish(floe_puffin_writer *w);
void floe__puffin_writer_free(floe_puffin_writer *w);

/* rewrite_table_path: `from` -> *to (borrowed until the rewrite ends). */
typedef int (*floe_puffin_ref_map)(void *payload, const char *from, const char **to);
/* A copy of the Puffin file `in` (n bytes) into `out` with every blob's
 * `referenced-data-file` property passed through `map`: the bytes before
 * the footer are copied as they are, so every blob offset and length stays
 * valid; only the footer is written again (other fields and properties
 * kept). A footer compressed with LZ4 (flag bit 0; one LZ4 frame, read
 * through liblz4 loaded at run time) is read and written back uncompressed.
 * FLOE_ECORRUPT for a file that is not Puffin or a bad LZ4 frame,
 * FLOE_EUNSUPPORTED for a compressed footer without liblz4. */
int floe__puffin_rewrite_refs(const uint8_t *in, size_t n, floe_puffin_ref_map map, void *payload,
                              floe_buf *out);

#endif
