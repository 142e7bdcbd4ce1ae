/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The scan's metadata columns `_file` and `_pos` (Java's MetadataColumns,
 * reserved ids 2147483646 / 2147483645): positions count from the file's
 * first row, before the residual filter drops rows; the path is the data
 * file's; other names still fail.
 */
#include "gentable.h"
#include "scanutil.h"

#include "floe/scan.h"

#include <stdlib.h>

static int scan_cols(const char *dir, const char *filter, const char *const *cols, size_t n,
                     rows *out)
{
    char meta[1200];
    snprintf(meta, sizeof meta, "%s/metadata/v%d.metadata.json", dir, 1);
    floe_fileio *io;
    FLOE_TRY(floe_fileio_open(&io, "file", NULL));
    floe_scan_options o = FLOE_SCAN_OPTIONS_INIT;
    o.filter = filter;
    o.columns = cols;
    o.ncolumns = n;
    o.threads = 1;
    floe_scan *s;
    int rc = floe_scan_open(&s, io, meta, &o);
    if (rc == 0) {
        struct ArrowArrayStream st;
        if ((rc = floe_scan_to_stream(&st, s)) == 0) {
            char err[512];
            rc = drain(&st, out, err, sizeof err);
            st.release(&st);
        }
        floe_scan_free(s);
    }
    floe_fileio_free(io);
    return rc;
}

static void test_positions(void)
{
    const char *dir = ft_tmp("t");
    FT_OK(gt_make_table(dir, 1, 2, 10, true, false));
    static const char *const cols[] = {"id", "_pos", "_FILE"};
    rows r = {0, NULL, 0};
    FT_OK(scan_cols(dir, "id >= 15 OR id = 3", cols, 3, &r));
    FT_EQ_INT((long)r.n, 6);
    char *file0 = NULL, *file1 = NULL;
    for (size_t i = 0; i < r.n; i++) {
        long id = 0, pos = 0;
        char path[1024];
        FT_ASSERT(sscanf(r.row[i], "%ld|%ld|%1023s", &id, &pos, path) == 3);
        FT_EQ_INT(pos, id % 10); /* ids f*10 .. f*10+9 in file f */
        FT_CHECK(strstr(path, ".parquet") != NULL);
        char **slot = id < 10 ? &file0 : &file1;
        if (!*slot)
            *slot = strdup(path);
        else
            FT_EQ_STR(*slot, path);
    }
    FT_ASSERT(file0 && file1);
    FT_CHECK(strcmp(file0, file1) != 0);
    free(file0);
    free(file1);
    rows_free(&r);
    /* only the metadata columns */
    static const char *const only[] = {"_pos"};
    FT_OK(scan_cols(dir, NULL, only, 1, &r));
    FT_EQ_INT((long)r.n, 20);
    FT_EQ_INT(rows_has(&r, "9"), 2);
    rows_free(&r);
    static const char *const bad[] = {"id", "_row"};
    FT_EQ_INT(scan_cols(dir, NULL, bad, 2, &r), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot find column '_row'");
    rows_free(&r);
}

static const ft_case cases[] = {
    {"positions", test_positions},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
