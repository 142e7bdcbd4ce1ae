/* SPDX-License-Identifier: Apache-2.0 */
/*
 * floe_table_replace (REPLACE TABLE): history and other refs kept, main
 * removed, field ids reused by name and new ones after last-column-id,
 * partition field ids reused by (source, transform), identical schemas and
 * specs reused by id, properties merged, errors, and out-of-memory at every
 * allocation of the commit.
 */
#include "fixture.h"

#define NEW_SCHEMA                                                                                 \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"order_id\",\"required\":false,\"type\":\"long\"},"                       \
    "{\"id\":2,\"name\":\"note\",\"required\":false,\"type\":\"string\"},"                         \
    "{\"id\":3,\"name\":\"order_date\",\"required\":false,\"type\":\"date\"}]}"
#define NEW_SPEC                                                                                   \
    "{\"fields\":[{\"source-id\":2,\"field-id\":1000,\"transform\":\"identity\",\"name\":\"note\"}," \
    "{\"source-id\":3,\"field-id\":1001,\"transform\":\"identity\",\"name\":\"order_date\"}]}"

static const floe_field *field(floe_table *t, const char *name)
{
    const floe_type *r = floe__metadata_current_schema(t->metadata)->root;
    for (size_t i = 0; i < r->nfields; i++)
        if (strcmp(r->fields[i].name, name) == 0)
            return &r->fields[i];
    return NULL;
}

static void test_replace_keeps_history(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "keep", "1"));
    FT_OK(fx_create(&t, c, "shop.r", &p));
    int64_t s1 = fx_append(t, 2);
    int64_t s2 = fx_append(t, 3);
    FT_CHECK(s1 && s2);
    FT_OK(floe_table_create_branch(t, "audit", FLOE_REF_CREATE, NULL));
    floe_props np = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&np, "k", "v"));
    FT_OK(floe__props_set(&np, "keep", "2"));
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = NEW_SCHEMA;
    co.partition_spec_json = NEW_SPEC;
    co.properties = &np;
    FT_OK(floe_table_replace(t, &co));
    const floe_table_metadata *m = t->metadata;
    FT_CHECK(!floe__metadata_ref(m, "main"));
    FT_CHECK(!m->has_current_snapshot);
    FT_CHECK(floe__metadata_ref(m, "audit") != NULL);
    FT_EQ_INT((long)m->nsnapshots, 2);
    FT_CHECK(floe__metadata_snapshot(m, s1) && floe__metadata_snapshot(m, s2));
    /* ids: order_id and order_date keep 1 and 5, note is new (6) */
    FT_EQ_INT(m->current_schema_id, 1);
    FT_EQ_INT((long)m->nschemas, 2);
    FT_EQ_INT(m->last_column_id, 6);
    FT_ASSERT(field(t, "order_id") && field(t, "note") && field(t, "order_date"));
    FT_EQ_INT(field(t, "order_id")->id, 1);
    FT_EQ_INT(field(t, "order_date")->id, 5);
    FT_EQ_INT(field(t, "note")->id, 6);
    /* spec: identity(order_date) keeps 1000, identity(note) gets 1001 */
    FT_EQ_INT(m->default_spec_id, 1);
    const floe_partition_spec *sp = floe__metadata_spec(m, 1);
    FT_ASSERT(sp && sp->nfields == 2);
    FT_EQ_INT(sp->fields[0].source_id, 6);
    FT_EQ_INT(sp->fields[0].field_id, 1001);
    FT_EQ_INT(sp->fields[1].source_id, 5);
    FT_EQ_INT(sp->fields[1].field_id, 1000);
    FT_EQ_INT(m->last_partition_id, 1001);
    FT_EQ_STR(floe_table_property(t, "k"), "v");
    FT_EQ_STR(floe_table_property(t, "keep"), "2");
    /* the old snapshot still names its schema */
    const floe_snapshot *old = floe__metadata_snapshot(m, s2);
    FT_CHECK(!old->has_schema_id || old->schema_id == 0);

    /* back to the original columns: as Java, ids are matched against the
     * current schema only, so customer_id, amount, status get 7, 8, 9 (a
     * new schema 2); the spec identity(order_date) equals spec 0 (source
     * 5, field 1000): reused */
    co.schema_json = ORDERS_SCHEMA;
    co.partition_spec_json = ORDERS_SPEC;
    co.properties = NULL;
    FT_OK(floe_table_replace(t, &co));
    m = t->metadata;
    FT_EQ_INT(m->current_schema_id, 2);
    FT_EQ_INT((long)m->nschemas, 3);
    FT_EQ_INT(m->last_column_id, 9);
    FT_EQ_INT(field(t, "customer_id")->id, 7);
    FT_EQ_INT(field(t, "status")->id, 9);
    FT_EQ_INT(m->default_spec_id, 0);
    FT_EQ_INT((long)m->nspecs, 2);
    FT_EQ_STR(floe_table_property(t, "k"), "v");
    /* the same definition again: schema 2 reused, nothing added */
    FT_OK(floe_table_replace(t, &co));
    m = t->metadata;
    FT_EQ_INT(m->current_schema_id, 2);
    FT_EQ_INT((long)m->nschemas, 3);
    FT_EQ_INT(m->last_column_id, 9);
    /* a reader of the catalog sees the same */
    floe_table *t2 = NULL;
    FT_OK(floe_table_load(&t2, c, "shop.r", NULL));
    FT_EQ_INT(t2->metadata->current_schema_id, 2);
    FT_CHECK(!floe__metadata_ref(t2->metadata, "main"));
    floe_table_free(t2);
    floe__props_free(&p);
    floe__props_free(&np);
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_replace_errors(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.e", NULL));
    FT_CHECK(fx_append(t, 1) != 0);
    const char *loc = floe_table_metadata_location(t);
    char *before = floe__strdup(loc);
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = ORDERS_SCHEMA;
    co.partition_spec_json =
        "{\"fields\":[{\"source-id\":9,\"transform\":\"identity\",\"name\":\"x\"}]}";
    FT_EQ_INT(floe_table_replace(t, &co), FLOE_EINVALID);
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "format-version", "1"));
    co.partition_spec_json = NULL;
    co.properties = &p;
    FT_EQ_INT(floe_table_replace(t, &co), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot downgrade v2 table to v1");
    co.schema_json = NULL;
    FT_EQ_INT(floe_table_replace(t, &co), FLOE_EINVALID);
    FT_OK(floe_table_refresh(t));
    FT_EQ_STR(floe_table_metadata_location(t), before); /* nothing committed */
    /* format-version 1 tables are refused */
    floe_table *v1 = NULL;
    FT_OK(fx_create(&v1, c, "shop.v1", &p));
    co.schema_json = ORDERS_SCHEMA;
    co.properties = NULL;
    FT_EQ_INT(floe_table_replace(v1, &co), FLOE_EUNSUPPORTED);
    floe_table_free(v1);
    floe__props_free(&p);
    floe__free(before);
    floe_table_free(t);
    floe_catalog_free(c);
}

/* Out of memory at every allocation: FLOE_ENOMEM and the table either
 * unchanged or replaced, never half; nothing leaked (ASan). */
static void test_replace_oom(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.oom", NULL));
    FT_CHECK(fx_append(t, 1) != 0);
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = NEW_SCHEMA;
    co.partition_spec_json = NEW_SPEC;
    bool done = false;
    for (long n = 1; n < 100000 && !done; n++) {
        floe__alloc_fail_at(n);
        int rc = floe_table_replace(t, &co);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            done = true;
            break;
        }
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "n=%ld: %s", n, ft_floe_err());
            break;
        }
        FT_OK(floe_table_refresh(t));
        if (!floe__metadata_ref(t->metadata, "main"))
            break; /* the swap happened before the failure */
        FT_EQ_INT(t->metadata->current_schema_id, 0);
    }
    FT_CHECK(done || !floe__metadata_ref(t->metadata, "main"));
    FT_OK(floe_table_refresh(t));
    FT_EQ_INT(t->metadata->current_schema_id, 1);
    FT_CHECK(!floe__metadata_ref(t->metadata, "main"));
    floe_table_free(t);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"replace_keeps_history", test_replace_keeps_history},
    {"replace_errors", test_replace_errors},
    {"replace_oom", test_replace_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
