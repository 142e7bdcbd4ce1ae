/* SPDX-License-Identifier: Apache-2.0 */
/* maint/expire through the table layer, on a table written with real
 * appends (Parquet data files) and read back with the scan: the seed 000
 * step 4 shape — defaults expire nothing; max age 1 ms + keep 2 keeps the
 * two newest and the tagged snapshot; the tag still reads its rows; an
 * expired id fails with "Cannot find snapshot with ID <id>". */
#include "unit/table/append_fixture.h"

#include "floe/maint.h"
#include "floe/scan.h"

#include <unistd.h>

static int64_t scan_rows(floe_table *t, bool has_id, int64_t id, const char *ref)
{
    floe_scan_options so = FLOE_SCAN_OPTIONS_INIT;
    so.has_snapshot_id = has_id;
    so.snapshot_id = id;
    so.ref = ref;
    so.threads = 1;
    floe_scan *sc = NULL;
    if (floe_scan_open(&sc, floe_table_io(t), floe_table_metadata_location(t), &so) < 0)
        return -1;
    struct ArrowArrayStream st;
    int64_t rows = 0;
    if (floe_scan_to_stream(&st, sc) < 0) {
        floe_scan_free(sc);
        return -2;
    }
    for (;;) {
        struct ArrowArray a;
        if (st.get_next(&st, &a) != 0) {
            rows = -3;
            break;
        }
        if (!a.release)
            break;
        rows += a.length;
        a.release(&a);
    }
    st.release(&st);
    floe_scan_free(sc);
    return rows;
}

static void test_seed_step4_with_scans(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c != NULL);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.orders_wap", NULL));
    fx_order o1[] = {{1001, 501, 12050, "PLACED", 2026, 9, 20},
                     {1002, 502, 7500, "PLACED", 2026, 9, 20}};
    fx_order o2[] = {{1003, 503, 31025, "PLACED", 2026, 9, 21}};
    fx_order o3[] = {{1004, 504, 4200, "PLACED", 2026, 9, 21}};
    int64_t s1 = fx_append_rows(t, o1, 2);
    int64_t s2 = fx_append_rows(t, o2, 1);
    int64_t s3 = fx_append_rows(t, o3, 1);
    FT_ASSERT(s1 && s2 && s3);
    floe_ref_options ro = FLOE_REF_OPTIONS_INIT;
    ro.has_snapshot_id = true;
    ro.snapshot_id = s3;
    ro.has_max_ref_age_ms = true;
    ro.max_ref_age_ms = 365LL * 86400000;
    FT_OK(floe_table_create_tag(t, "close-2026-09", FLOE_REF_CREATE, &ro));
    int64_t later[3];
    for (int i = 0; i < 3; i++) {
        fx_order o[] = {{2000 + i, 600 + i, 1000, "PLACED", 2026, 10, 1}};
        later[i] = fx_append_rows(t, o, 1);
        FT_ASSERT(later[i] != 0);
    }
    FT_EQ_INT(floe_table_snapshot_count(t), 6);
    FT_EQ_INT(scan_rows(t, false, 0, "close-2026-09"), 4);

    floe_maint_expire_result r;
    FT_OK(floe_maint_table_expire_snapshots(&r, t, NULL));
    FT_EQ_INT(r.deleted_data_files_count, 0);
    FT_EQ_INT(r.deleted_manifest_lists_count, 0);
    FT_EQ_INT(floe_table_snapshot_count(t), 6);

    floe_props set = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&set, "history.expire.max-snapshot-age-ms", "1"));
    FT_OK(floe__props_set(&set, "history.expire.min-snapshots-to-keep", "2"));
    FT_OK(floe_table_update_properties(t, &set, NULL, 0));
    floe__props_free(&set);
    usleep(5000);
    FT_OK(floe_maint_expire_snapshots(&r, c, "shop.orders_wap", NULL));
    FT_EQ_INT(r.expired_snapshots_count, 3); /* s1, s2 and the first later append */
    FT_EQ_INT(r.deleted_manifest_lists_count, 3);
    FT_EQ_INT(r.deleted_data_files_count, 0); /* appends: every file is still live */
    FT_OK(floe_table_refresh(t));
    FT_EQ_INT(floe_table_snapshot_count(t), 3);
    /* the tag and main still read their rows */
    FT_EQ_INT(scan_rows(t, false, 0, "close-2026-09"), 4);
    FT_EQ_INT(scan_rows(t, false, 0, NULL), 7);
    FT_EQ_INT(scan_rows(t, true, later[1], NULL), 6);
    /* an expired id fails like a bogus one */
    FT_EQ_INT(scan_rows(t, true, s1, NULL), -1);
    char want[96];
    snprintf(want, sizeof want, "Cannot find snapshot with ID %lld", (long long)s1);
    FT_ERR_CONTAINS(want);
    floe_table_free(t);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"seed_step4_with_scans", test_seed_step4_with_scans},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
