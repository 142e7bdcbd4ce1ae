/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/metadata_read: the table metadata reader's state (metadata.c) as used
 * by the file streamer (metadata_stream.c), which feeds it the elements of
 * `snapshots` and `snapshot-log` one at a time and then the root object
 * without them. Private to src/spec.
 */
#ifndef FLOE_SPEC_METADATA_READ_H
#define FLOE_SPEC_METADATA_READ_H

#include "spec/metadata.h"
#include "spec/spec.h"

typedef struct floe_md_reader floe_md_reader;

/* A reader building a fresh metadata; `what` names the source in messages. */
int floe__md_reader_new(floe_md_reader **out, const char *what);
/* Frees the reader and the metadata unless floe__md_reader_finish gave it away. */
void floe__md_reader_free(floe_md_reader *r);
/* Format version seen so far (0: not yet; snapshots are then read with the
 * version-independent rules and the v2 ones are checked at finish). */
int floe__md_reader_version(const floe_md_reader *r);
void floe__md_reader_set_version(floe_md_reader *r, int format_version);
/* floe__json_each-style callbacks taking the reader as payload: element i
 * of `snapshots` / `snapshot-log`. */
int floe__md_reader_snapshot(const floe_json *e, size_t i, void *reader);
int floe__md_reader_log_entry(const floe_json *e, size_t i, void *reader);
/* The array was streamed (also when empty): the root no longer has it. */
void floe__md_reader_streamed(floe_md_reader *r, bool snapshots);
/* Read the rest of the root object and validate. 0 with *out the caller's;
 * 1 when a snapshot read before format-version breaks a v2 rule (parse the
 * whole text for the message); < 0 errors. */
int floe__md_reader_finish(floe_md_reader *r, const floe_json *root, floe_table_metadata **out);

#endif
