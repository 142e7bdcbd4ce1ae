/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Example: scan an Iceberg table with the public API only.
 *
 *   example_scan METADATA_JSON [-f FILTER] [-c COL,COL] [-s SNAPSHOT_ID]
 *                [-m FROM=TO]
 *
 * Plans the scan (prints the plan report), then reads the rows as an Arrow
 * stream and prints the columns, the number of batches and rows, and the
 * first rows of int, long, string and boolean columns.
 * `-m` maps a table location to a local copy (io.location-map), e.g.
 *   example_scan fixtures/spark_bunnies/metadata/v5.metadata.json \
 *     -m s3a://hyperparam-iceberg/spark/bunnies=fixtures/spark_bunnies \
 *     -f "\"Popularity Rank\" < 5" -c "Breed Name,Popularity Rank"
 */
#include <floe/arrow.h>
#include <floe/common.h>
#include <floe/io.h>
#include <floe/scan.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what)
{
    const floe_error *e = floe_error_last();
    fprintf(stderr, "%s: %s\n", what, e ? e->message : "error");
    return 1;
}

static bool valid(const struct ArrowArray *a, int64_t i)
{
    const uint8_t *bits = a->buffers[0];
    i += a->offset;
    return !bits || a->null_count == 0 || ((bits[i >> 3] >> (i & 7)) & 1);
}

static void print_cell(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t i)
{
    int64_t k = i + a->offset;
    if (!valid(a, i)) {
        printf("null");
    } else if (!strcmp(s->format, "i")) {
        printf("%" PRId32, ((const int32_t *)a->buffers[1])[k]);
    } else if (!strcmp(s->format, "l")) {
        printf("%" PRId64, ((const int64_t *)a->buffers[1])[k]);
    } else if (!strcmp(s->format, "g")) {
        printf("%g", ((const double *)a->buffers[1])[k]);
    } else if (!strcmp(s->format, "f")) {
        printf("%g", (double)((const float *)a->buffers[1])[k]);
    } else if (!strcmp(s->format, "b")) {
        printf("%s", ((((const uint8_t *)a->buffers[1])[k >> 3] >> (k & 7)) & 1) ? "true" : "false");
    } else if (!strcmp(s->format, "u")) {
        const int32_t *off = a->buffers[1];
        printf("%.*s", (int)(off[k + 1] - off[k]), (const char *)a->buffers[2] + off[k]);
    } else {
        printf("<%s>", s->format);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s METADATA_JSON [-f FILTER] [-c COLS] [-s SNAPSHOT_ID] [-m FROM=TO]\n",
                argv[0]);
        return 2;
    }
    floe_scan_options opts = FLOE_SCAN_OPTIONS_INIT;
    const char *map = NULL;
    char *cols_buf = NULL;
    const char *cols[64];
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-f")) {
            opts.filter = argv[i + 1];
        } else if (!strcmp(argv[i], "-s")) {
            opts.has_snapshot_id = true;
            opts.snapshot_id = strtoll(argv[i + 1], NULL, 10);
        } else if (!strcmp(argv[i], "-m")) {
            map = argv[i + 1];
        } else if (!strcmp(argv[i], "-c")) {
            cols_buf = argv[i + 1];
            for (char *t = strtok(cols_buf, ","); t && opts.ncolumns < 64; t = strtok(NULL, ","))
                cols[opts.ncolumns++] = t;
            opts.columns = cols;
        }
    }

    floe_fileio *io;
    if (floe_fileio_local_new(&io) < 0)
        return fail("fileio");
    if (map && floe_fileio_map_new(&io, io, map) < 0)
        return fail("location map");

    floe_scan *scan;
    if (floe_scan_open(&scan, io, argv[1], &opts) < 0) {
        floe_fileio_free(io);
        return fail("plan");
    }
    const floe_scan_report *r = floe_scan_get_report(scan);
    printf("snapshot %" PRId64 ": manifests %" PRId64 " (skipped %" PRId64 "), data files %" PRId64
           " (skipped %" PRId64 "), delete files applied %" PRId64 ", tasks %" PRId64 "\n",
           r->snapshot_id, r->manifests_total, r->manifests_skipped, r->data_files_total,
           r->data_files_skipped, r->delete_files_applied, r->tasks);

    struct ArrowArrayStream stream;
    if (floe_scan_to_stream(&stream, scan) < 0) {
        floe_scan_free(scan);
        floe_fileio_free(io);
        return fail("stream");
    }
    struct ArrowSchema schema;
    int rc = stream.get_schema(&stream, &schema);
    if (rc == 0) {
        for (int64_t c = 0; c < schema.n_children; c++)
            printf("%s%s (%s)", c ? ", " : "columns: ", schema.children[c]->name,
                   schema.children[c]->format);
        printf("\n");
    }
    int64_t rows = 0, batches = 0, shown = 0;
    while (rc == 0) {
        struct ArrowArray batch;
        if ((rc = stream.get_next(&stream, &batch)) != 0) {
            fprintf(stderr, "read: %s\n", stream.get_last_error(&stream));
            break;
        }
        if (!batch.release)
            break; /* end of stream */
        for (int64_t i = 0; i < batch.length && shown < 10; i++, shown++) {
            for (int64_t c = 0; c < batch.n_children; c++) {
                printf(c ? " | " : "  ");
                print_cell(schema.children[c], batch.children[c], i);
            }
            printf("\n");
        }
        rows += batch.length;
        batches++;
        batch.release(&batch);
    }
    printf("%" PRId64 " rows in %" PRId64 " batches\n", rows, batches);
    if (schema.release)
        schema.release(&schema);
    stream.release(&stream);
    floe_scan_free(scan);
    floe_fileio_free(io);
    return rc == 0 ? 0 : 1;
}
