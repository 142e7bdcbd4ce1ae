/* SPDX-License-Identifier: Apache-2.0 */
/*
 * meta/stream: floe_metadata_table_stream (include/floe/meta.h), a metadata
 * table of a loaded table handle as an Arrow C stream. The stream owns a
 * copy of the handle's current metadata file and the row source over it;
 * rows/arrow.c turns the row source into batches. Time travel goes through
 * spec/snapshot_select, as scans do.
 */
#include "floe/meta.h"

#include "meta/meta.h"
#include "table/table.h"

#include <string.h>

typedef struct meta_stream {
    struct ArrowArrayStream inner; /* floe__rs_arrow_stream over rs */
    floe_rowsource *rs;
    floe_table_metadata *m;
    char *location;
} meta_stream;

const char *floe_metadata_table_name(size_t i)
{
    size_t n = 0;
    while (floe__meta_table_names[n])
        n++;
    return i < n ? floe__meta_table_names[i] : NULL;
}

static int ms_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    meta_stream *st = s->private_data;
    return st->inner.get_schema(&st->inner, out);
}

static int ms_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    meta_stream *st = s->private_data;
    return st->inner.get_next(&st->inner, out);
}

static const char *ms_error(struct ArrowArrayStream *s)
{
    meta_stream *st = s->private_data;
    return st->inner.get_last_error(&st->inner);
}

static void ms_free(meta_stream *st)
{
    if (st->inner.release)
        st->inner.release(&st->inner);
    floe__rs_free(st->rs);
    floe__metadata_free(st->m);
    floe__free(st->location);
    floe__free(st);
}

static void ms_release(struct ArrowArrayStream *s)
{
    ms_free(s->private_data);
    s->release = NULL;
}

static int ms_open(meta_stream *st, floe_table *t, const char *name,
                   const floe_metadata_table_options *o)
{
    FLOE_TRY(floe__table_read_metadata(floe_table_io(t), floe_table_metadata_location(t), &st->m));
    if (!(st->location = floe__strdup(floe_table_metadata_location(t))))
        return floe__error_nomem();
    floe_snapshot_selector sel = {FLOE_SNAP_CURRENT, 0, NULL, 0};
    if (o->has_snapshot_id) {
        sel.kind = FLOE_SNAP_ID;
        sel.snapshot_id = o->snapshot_id;
    } else if (o->ref) {
        sel.kind = FLOE_SNAP_REF;
        sel.ref = o->ref;
    } else if (o->has_as_of_timestamp) {
        sel.kind = FLOE_SNAP_AS_OF;
        sel.timestamp_ms = o->as_of_timestamp_ms;
    }
    floe_meta_options mo = FLOE_META_OPTIONS_INIT;
    mo.metadata = st->m;
    mo.metadata_location = st->location;
    mo.io = floe_table_io(t);
    if (sel.kind != FLOE_SNAP_CURRENT && !floe__meta_supports_time_travel(name)) {
        /* floe__meta_open refuses it with Java's message */
        mo.has_snapshot_id = true;
    } else if (sel.kind != FLOE_SNAP_CURRENT) {
        const floe_snapshot *snap = NULL;
        FLOE_TRY(floe__snapshot_select(&snap, st->m, &sel, "meta"));
        mo.has_snapshot_id = true;
        mo.snapshot_id = snap->snapshot_id;
    }
    FLOE_TRY(floe__meta_open(&st->rs, name, &mo));
    return floe__rs_arrow_stream(st->rs, NULL, 0, o->batch_rows, &st->inner);
}

int floe_metadata_table_stream(struct ArrowArrayStream *out, floe_table *table, const char *name,
                               const floe_metadata_table_options *opts)
{
    if (!out)
        return floe__error(FLOE_EINVALID, "meta", "floe_metadata_table_stream: NULL out");
    memset(out, 0, sizeof *out);
    if (!table || !name)
        return floe__error(FLOE_EINVALID, "meta", "floe_metadata_table_stream: NULL argument");
    floe_metadata_table_options defaults = FLOE_METADATA_TABLE_OPTIONS_INIT;
    const floe_metadata_table_options *o = opts ? opts : &defaults;
    if (o->version < 1 || o->version > FLOE_METADATA_TABLE_OPTIONS_VERSION)
        return floe__error(FLOE_EINVALID, "meta", "unknown floe_metadata_table_options version %u",
                           o->version);
    meta_stream *st = floe__calloc(1, sizeof *st);
    if (!st)
        return floe__error_nomem();
    int rc = ms_open(st, table, name, o);
    if (rc < 0) {
        ms_free(st);
        return rc;
    }
    out->get_schema = ms_schema;
    out->get_next = ms_next;
    out->get_last_error = ms_error;
    out->release = ms_release;
    out->private_data = st;
    return 0;
}
