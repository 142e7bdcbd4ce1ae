/* SPDX-License-Identifier: Apache-2.0 */
/* floe_catalog_commit_transaction on the SQLite catalog: changes to
 * several tables land together in one database transaction; a failing
 * requirement (or a concurrent commit) on one table leaves every table
 * unchanged and removes the metadata files written for the others; bad
 * arguments; an allocation-failure loop (each failure leaves the tables
 * unchanged or all changed, never half). */
#include "fixture.h"

static const char *const IDENTS[] = {"shop.a", "shop.b", "shop.c"};

static const char SET_A[] = "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
                            "\"updates\":{\"owner\":\"ana\"}}]}";
static const char SET_B[] =
    "{\"requirements\":[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":0}],"
    "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"owner\":\"bo\"}}]}";
static const char BAD_C[] =
    "{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\","
    "\"snapshot-id\":42}],\"updates\":[{\"action\":\"set-properties\",\"updates\":"
    "{\"owner\":\"cy\"}}]}";
static const char SET_C[] =
    "{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\","
    "\"snapshot-id\":null}],\"updates\":[{\"action\":\"set-properties\",\"updates\":"
    "{\"owner\":\"cy\"}}]}";

static size_t metadata_files(void)
{
    char **list = NULL;
    size_t n = 0;
    ft_collect_metadata(ft_tmp("wh"), &list, &n);
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
    return n;
}

/* The owner property of each table, "-" when unset: "ana bo cy". */
static void owners(floe_catalog *c, char *out, size_t cap)
{
    out[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; i < FT_N(IDENTS); i++) {
        floe_table *t = NULL;
        if (floe_table_load(&t, c, IDENTS[i], NULL) < 0) {
            ft_fail(__FILE__, __LINE__, "load %s: %s", IDENTS[i], ft_floe_err());
            return;
        }
        const char *o = floe_table_property(t, "owner");
        used += (size_t)snprintf(out + used, cap - used, "%s%s", i ? " " : "", o ? o : "-");
        floe_table_free(t);
    }
}

static floe_catalog *setup(void)
{
    floe_catalog *c = fx_catalog();
    for (size_t i = 0; c && i < FT_N(IDENTS); i++) {
        floe_table *t = NULL;
        if (fx_create(&t, c, IDENTS[i], NULL) < 0)
            ft_fail(__FILE__, __LINE__, "create %s: %s", IDENTS[i], ft_floe_err());
        floe_table_free(t);
    }
    return c;
}

static void test_all_or_nothing(void)
{
    floe_catalog *c = setup();
    if (!c)
        return;
    char got[128];
    size_t before = metadata_files();
    const char *bad[] = {SET_A, SET_B, BAD_C};
    FT_CHECK(floe_catalog_commit_transaction(c, 3, IDENTS, bad, NULL) == FLOE_ECONFLICT);
    FT_ERR_CONTAINS("Requirement failed: branch or tag main is missing, expected 42");
    owners(c, got, sizeof got);
    FT_EQ_STR(got, "- - -");
    FT_EQ_INT(metadata_files(), before); /* the files written for a and b are gone */
    const char *good[] = {SET_A, SET_B, SET_C};
    FT_OK(floe_catalog_commit_transaction(c, 3, IDENTS, good, NULL));
    owners(c, got, sizeof got);
    FT_EQ_STR(got, "ana bo cy");
    FT_EQ_INT(metadata_files(), before + 3);
    /* the same changes again: B's schema requirement still holds, the
     * assert on main's (absent) snapshot still holds: all apply again */
    FT_OK(floe_catalog_commit_transaction(c, 2, IDENTS, good, NULL));
    FT_EQ_INT(metadata_files(), before + 5);
    /* zero changes commit nothing */
    FT_OK(floe_catalog_commit_transaction(c, 0, NULL, NULL, NULL));
    floe_catalog_free(c);
}

static void test_bad_arguments(void)
{
    floe_catalog *c = setup();
    if (!c)
        return;
    const char *twice[] = {"shop.a", "shop.a"};
    const char *two[] = {SET_A, SET_B};
    FT_CHECK(floe_catalog_commit_transaction(c, 2, twice, two, NULL) == FLOE_EINVALID);
    FT_ERR_CONTAINS("changes table shop.a more than once");
    const char *missing[] = {"shop.a", "shop.nope"};
    FT_CHECK(floe_catalog_commit_transaction(c, 2, missing, two, NULL) == FLOE_ENOTFOUND);
    const char *junk[] = {SET_A, "{\"requirements\":[],\"updates\":[{\"action\":\"fly\"}]}"};
    FT_CHECK(floe_catalog_commit_transaction(c, 2, IDENTS, junk, NULL) < 0);
    const char *notjson[] = {SET_A, "{"};
    FT_CHECK(floe_catalog_commit_transaction(c, 2, IDENTS, notjson, NULL) < 0);
    const char *array[] = {SET_A, "[]"};
    FT_CHECK(floe_catalog_commit_transaction(c, 2, IDENTS, array, NULL) == FLOE_EINVALID);
    FT_CHECK(floe_catalog_commit_transaction(NULL, 1, IDENTS, two, NULL) == FLOE_EINVALID);
    FT_CHECK(floe_catalog_commit_transaction(c, 1, NULL, two, NULL) == FLOE_EINVALID);
    char got[128];
    owners(c, got, sizeof got);
    FT_EQ_STR(got, "- - -");
    floe_catalog_free(c);
}

static void test_alloc_failures(void)
{
    floe_catalog *c = setup();
    if (!c)
        return;
    const char *good[] = {SET_A, SET_B, SET_C};
    bool done = false;
    for (long n = 1; n < 20000 && !done; n++) {
        floe__alloc_fail_at(n);
        int rc = floe_catalog_commit_transaction(c, 3, IDENTS, good, NULL);
        floe__alloc_fail_at(0);
        char got[128];
        owners(c, got, sizeof got);
        if (rc == 0) {
            FT_EQ_STR(got, "ana bo cy");
            done = true;
        } else {
            if (rc != FLOE_ENOMEM && rc != FLOE_ECOMMITUNKNOWN)
                ft_fail(__FILE__, __LINE__, "n=%ld: %s", n, ft_floe_err());
            if (strcmp(got, "- - -") != 0 && strcmp(got, "ana bo cy") != 0)
                ft_fail(__FILE__, __LINE__, "n=%ld: half a transaction: %s", n, got);
            if (strcmp(got, "ana bo cy") == 0)
                done = true; /* the outcome was unknown but it landed */
        }
    }
    FT_CHECK(done);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"all_or_nothing", test_all_or_nothing},
    {"bad_arguments", test_bad_arguments},
    {"alloc_failures", test_alloc_failures},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
