/* SPDX-License-Identifier: Apache-2.0 */
/* table/evolve: schema, partition spec and sort order updates committed
 * through the commit protocol — new ids, what becomes current, refused
 * changes leave the table untouched, equal states are reused. */
#include "fixture.h"
#include "floe/evolve.h"

static floe_table *open_orders(floe_catalog **cat, const char *version)
{
    *cat = fx_catalog();
    if (!*cat)
        return NULL;
    floe_props p = FLOE_PROPS_INIT;
    if (version)
        floe__props_set(&p, "format-version", version);
    floe_table *t = NULL;
    if (fx_create(&t, *cat, "shop.orders", &p) < 0)
        ft_fail(__FILE__, __LINE__, "create: %s", ft_floe_err());
    floe__props_free(&p);
    return t;
}

static const char *loc_of(floe_table *t) { return floe_table_metadata_location(t); }

static void test_schema_commit(void)
{
    floe_catalog *cat;
    floe_table *t = open_orders(&cat, NULL);
    FT_ASSERT(t);
    floe_schema_update *u = NULL;
    FT_OK(floe_schema_update_new(&u, t));
    FT_OK(floe_schema_update_add_column(u, NULL, "note", "string", false, "free text", NULL));
    FT_OK(floe_schema_update_update_column(u, "amount", "decimal(12, 2)"));
    FT_OK(floe_schema_update_rename_column(u, "status", "state"));
    FT_OK(floe_schema_update_move_first(u, "note"));
    /* refused requests leave the update as it was */
    FT_CHECK(floe_schema_update_update_column(u, "customer_id", "int") == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID, "Cannot change column type: customer_id: long -> int");
    FT_OK(floe_schema_update_commit(u));
    floe_schema_update_free(u);
    const floe_table_metadata *m = t->metadata;
    FT_EQ_INT(m->nschemas, 2);
    FT_EQ_INT(m->current_schema_id, 1);
    FT_EQ_INT(m->last_column_id, 6);
    const floe_schema *s = floe__metadata_current_schema(m);
    FT_EQ_STR(s->root->fields[0].name, "note");
    FT_EQ_INT(s->root->fields[0].id, 6);
    FT_EQ_STR(s->root->fields[0].doc, "free text");
    FT_EQ_INT(floe__schema_field_by_name(s, "amount")->type->precision, 12);
    FT_CHECK(floe__schema_field_by_name(s, "state") != NULL);
    /* the reloaded table says the same */
    floe_table *t2 = NULL;
    FT_OK(floe_table_load(&t2, cat, "shop.orders", NULL));
    FT_EQ_INT(t2->metadata->current_schema_id, 1);
    floe_table_free(t2);

    /* adding a column and dropping it again gives schema 1 back: reused */
    FT_OK(floe_schema_update_new(&u, t));
    FT_OK(floe_schema_update_add_column(u, NULL, "x", "int", false, NULL, NULL));
    FT_OK(floe_schema_update_commit(u));
    floe_schema_update_free(u);
    FT_EQ_INT(t->metadata->current_schema_id, 2);
    FT_OK(floe_schema_update_new(&u, t));
    FT_OK(floe_schema_update_delete_column(u, "x"));
    FT_OK(floe_schema_update_commit(u));
    floe_schema_update_free(u);
    FT_EQ_INT(t->metadata->nschemas, 3);
    FT_EQ_INT(t->metadata->current_schema_id, 1);
    FT_EQ_INT(t->metadata->last_column_id, 7);

    /* no change: no commit */
    const char *before = floe__strdup(loc_of(t));
    FT_OK(floe_schema_update_new(&u, t));
    FT_OK(floe_schema_update_commit(u));
    floe_schema_update_free(u);
    FT_EQ_STR(loc_of(t), before);
    floe__free((void *)before);
    floe_table_free(t);
    floe_catalog_free(cat);
}

static void test_drop_partition_source(void)
{
    floe_catalog *cat;
    floe_table *t = open_orders(&cat, NULL);
    FT_ASSERT(t);
    const char *before = floe__strdup(loc_of(t));
    floe_schema_update *u = NULL;
    FT_OK(floe_schema_update_new(&u, t));
    FT_OK(floe_schema_update_delete_column(u, "order_date"));
    FT_CHECK(floe_schema_update_commit(u) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID,
              "Cannot find source column for partition field: 1000: order_date: identity(5)");
    floe_schema_update_free(u);
    FT_EQ_STR(loc_of(t), before);
    FT_EQ_INT(t->metadata->nschemas, 1);

    /* after dropping the partition field (v2: removed) the column can go */
    floe_spec_update *p = NULL;
    FT_OK(floe_spec_update_new(&p, t));
    FT_OK(floe_spec_update_remove_field(p, "order_date", NULL, NULL));
    FT_OK(floe_spec_update_add_field(p, NULL, "customer_id", "bucket[8]"));
    FT_OK(floe_spec_update_commit(p));
    floe_spec_update_free(p);
    FT_EQ_INT(t->metadata->default_spec_id, 1);
    FT_EQ_INT(t->metadata->last_partition_id, 1001);
    const floe_partition_spec *sp = floe__metadata_spec(t->metadata, 1);
    FT_EQ_INT(sp->nfields, 1);
    FT_EQ_STR(sp->fields[0].name, "customer_id_bucket_8");
    FT_EQ_INT(sp->fields[0].field_id, 1001);
    FT_OK(floe_schema_update_new(&u, t));
    FT_OK(floe_schema_update_delete_column(u, "order_date"));
    FT_OK(floe_schema_update_commit(u));
    floe_schema_update_free(u);
    FT_CHECK(!floe__schema_field_by_name(floe__metadata_current_schema(t->metadata),
                                         "order_date"));
    floe__free((void *)before);
    floe_table_free(t);
    floe_catalog_free(cat);
}

static void test_v1_void(void)
{
    floe_catalog *cat;
    floe_table *t = open_orders(&cat, "1");
    FT_ASSERT(t);
    floe_spec_update *p = NULL;
    FT_OK(floe_spec_update_new(&p, t));
    FT_OK(floe_spec_update_remove_field(p, NULL, "order_date", "identity"));
    FT_OK(floe_spec_update_commit(p));
    floe_spec_update_free(p);
    const floe_partition_spec *sp = floe__metadata_spec(t->metadata, t->metadata->default_spec_id);
    FT_EQ_INT(sp->nfields, 1);
    FT_EQ_STR(sp->fields[0].transform.name, "void");
    FT_EQ_INT(sp->fields[0].field_id, 1000);
    floe_table_free(t);
    floe_catalog_free(cat);
}

static void test_sort_order(void)
{
    floe_catalog *cat;
    floe_table *t = open_orders(&cat, NULL);
    FT_ASSERT(t);
    floe_sort_term terms[] = {{"order_date", NULL, true, false}, {"status", "truncate[2]", false, true}};
    FT_OK(floe_table_replace_sort_order(t, terms, 2, "range"));
    const floe_table_metadata *m = t->metadata;
    FT_EQ_INT(m->default_sort_order_id, 1);
    const floe_sort_order *o = floe__metadata_sort_order(m, 1);
    FT_EQ_INT(o->nfields, 2);
    FT_EQ_INT(o->fields[0].source_id, 5);
    FT_CHECK(o->fields[0].descending && !o->fields[0].nulls_first);
    FT_EQ_STR(o->fields[1].transform.name, "truncate[2]");
    FT_EQ_STR(floe_table_property(t, "write.distribution-mode"), "range");
    /* unsorted is order 0, reused */
    FT_OK(floe_table_replace_sort_order(t, NULL, 0, "none"));
    FT_EQ_INT(t->metadata->default_sort_order_id, 0);
    FT_EQ_INT(t->metadata->nsort_orders, 2);
    floe_sort_term bad = {"nope", NULL, false, true};
    FT_CHECK(floe_table_replace_sort_order(t, &bad, 1, NULL) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID,
              "Cannot find field 'nope' in struct: struct<1: order_id: optional long, 2: "
              "customer_id: optional long, 3: amount: optional decimal(10, 2), 4: status: "
              "optional string, 5: order_date: optional date>");
    /* a sort column cannot be dropped while the order uses it */
    FT_OK(floe_table_replace_sort_order(t, terms + 1, 1, NULL));
    FT_EQ_INT(t->metadata->default_sort_order_id, 2);
    floe_schema_update *u = NULL;
    FT_OK(floe_schema_update_new(&u, t));
    FT_OK(floe_schema_update_delete_column(u, "status"));
    FT_CHECK(floe_schema_update_commit(u) == FLOE_EINVALID);
    FT_ERR_IS(FLOE_EINVALID,
              "Cannot find source column for sort field: truncate[2](4) ASC NULLS FIRST");
    floe_schema_update_free(u);
    floe_table_free(t);
    floe_catalog_free(cat);
}

/* Every allocation of a schema update + commit failing in turn. */
static void test_oom(void)
{
    floe_catalog *cat;
    floe_table *t = open_orders(&cat, NULL);
    FT_ASSERT(t);
    long n;
    for (n = 1; n < 200000; n++) {
        floe_schema_update *u = NULL;
        floe__alloc_fail_at(n);
        int rc = floe_schema_update_new(&u, t);
        if (rc == 0)
            rc = floe_schema_update_add_column(u, NULL, "c", "int", false, NULL, NULL);
        if (rc == 0)
            rc = floe_schema_update_rename_column(u, "status", "st");
        if (rc == 0)
            rc = floe_schema_update_commit(u);
        floe__alloc_fail_at(0);
        floe_schema_update_free(u);
        if (rc == 0)
            break;
        if (floe_error_last() && floe_error_last()->code != FLOE_ENOMEM &&
            floe_error_last()->code != FLOE_EIO && floe_error_last()->code != FLOE_ECOMMITUNKNOWN) {
            ft_fail(__FILE__, __LINE__, "step %ld: %s", n, ft_floe_err());
            break;
        }
        /* a failed attempt never changes the table */
        FT_EQ_INT(t->metadata->current_schema_id, 0);
        if (floe_table_refresh(t) < 0)
            break;
        if (t->metadata->current_schema_id != 0)
            break; /* the commit landed although the handle's refresh failed */
    }
    FT_CHECK(floe__schema_field_by_name(floe__metadata_current_schema(t->metadata), "c"));
    floe_table_free(t);
    floe_catalog_free(cat);
}

static const ft_case cases[] = {
    {"schema_commit", test_schema_commit},
    {"drop_partition_source", test_drop_partition_source},
    {"v1_void", test_v1_void},
    {"sort_order", test_sort_order},
    {"oom", test_oom},
};

int main(int argc, char **argv) { return ft_main(argc, argv, cases, FT_N(cases)); }
