/* SPDX-License-Identifier: Apache-2.0 */
/*
 * floe_table_replace_begin (REPLACE TABLE ... AS SELECT as one commit):
 * rows written through the staged handle with the new schema and spec,
 * one metadata file for replacement + snapshot, history kept, main on a
 * root snapshot with totals from zero; a concurrent append retried, a
 * concurrent definition change refused; abandoned or failing replacements
 * leave the table exactly as it was; out-of-memory at every allocation.
 */
#include "append_fixture.h"
#include "spec/spec.h"

/* The orders columns with amount renamed (a new field id) and the spec
 * partitioning by status instead of order_date. */
#define STAGED_SCHEMA                                                                              \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"order_id\",\"required\":false,\"type\":\"long\"},"                       \
    "{\"id\":2,\"name\":\"customer_id\",\"required\":false,\"type\":\"long\"},"                    \
    "{\"id\":3,\"name\":\"price\",\"required\":false,\"type\":\"decimal(10, 2)\"},"                \
    "{\"id\":4,\"name\":\"status\",\"required\":false,\"type\":\"string\"},"                       \
    "{\"id\":5,\"name\":\"order_date\",\"required\":false,\"type\":\"date\"}]}"
#define STAGED_SPEC                                                                                \
    "{\"fields\":[{\"source-id\":4,\"field-id\":1000,\"transform\":\"identity\","                  \
    "\"name\":\"status\"}]}"

static const fx_order ROWS[] = {
    {1, 10, 1250, "open", 2024, 1, 1},
    {2, 11, 99, "shipped", 2024, 1, 2},
    {3, 12, 5000, "open", 2024, 2, 3},
};

static void no_sleep(int64_t ms)
{
    (void)ms;
}

static floe_table_create_options staged_options(void)
{
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = STAGED_SCHEMA;
    co.partition_spec_json = STAGED_SPEC;
    return co;
}

/* begin + rows + commit without recording failures (for the OOM loop). */
static int replace_with_rows(floe_table *t, const floe_table_create_options *co, int64_t *id)
{
    floe_table *st = NULL;
    floe_append *a = NULL;
    struct ArrowArray arr;
    int rc = floe_table_replace_begin(&st, t, co);
    if (rc == 0)
        rc = floe_append_new(&a, st);
    if (rc == 0)
        rc = fx_batch(st, ROWS, FLOE_ARRAY_LEN(ROWS), &arr);
    if (rc == 0) {
        rc = floe_append_write(a, &arr);
        arr.release(&arr);
    }
    if (rc == 0)
        rc = floe_append_commit(id, a);
    floe_append_free(a);
    floe_table_free(st);
    return rc;
}

static int version_of(floe_table *t)
{
    return floe__metadata_file_version(floe_table_metadata_location(t));
}

static void test_staged_one_commit(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.rs", NULL));
    int64_t s1 = fx_append_rows(t, ROWS, 2);
    int64_t s2 = fx_append_rows(t, ROWS + 2, 1);
    FT_ASSERT(s1 && s2);
    int v0 = version_of(t);
    size_t log0 = t->metadata->n_metadata_log;
    char *loc0 = floe__strdup(floe_table_metadata_location(t));

    floe_table_create_options co = staged_options();
    floe_table *st = NULL;
    FT_OK(floe_table_replace_begin(&st, t, &co));
    /* the staged view: replaced, nothing committed */
    FT_CHECK(!floe__metadata_ref(st->metadata, "main"));
    FT_EQ_INT(st->metadata->current_schema_id, 1);
    FT_EQ_INT(st->metadata->default_spec_id, 1);
    FT_EQ_STR(floe_table_metadata_location(t), loc0);
    FT_EQ_INT(floe_table_refresh(st), FLOE_EINVALID);
    floe_table *other = NULL;
    FT_OK(floe_table_load(&other, c, "shop.rs", NULL));
    FT_EQ_STR(floe_table_metadata_location(other), loc0);
    FT_EQ_INT(fx_main(other), s2);

    floe_append *a = NULL;
    struct ArrowArray arr;
    FT_OK(floe_append_new(&a, st));
    FT_OK(fx_batch(st, ROWS, 3, &arr));
    FT_OK(floe_append_write(a, &arr));
    arr.release(&arr);
    int64_t id = 0;
    FT_OK(floe_append_commit(&id, a));
    floe_append_free(a);
    FT_CHECK(id != 0);
    /* a second commit through the spent handle is refused */
    FT_EQ_INT(floe_table_replace_commit(st), 0);
    FT_OK(floe_append_new(&a, st));
    FT_OK(fx_batch(st, ROWS, 1, &arr));
    FT_OK(floe_append_write(a, &arr));
    arr.release(&arr);
    FT_EQ_INT(floe_append_commit(NULL, a), FLOE_EINVALID);
    FT_ERR_CONTAINS("already committed");
    floe_append_free(a);
    floe_table_free(st);

    /* exactly one new metadata file, seen by every reader */
    FT_OK(floe_table_refresh(other));
    FT_EQ_STR(floe_table_metadata_location(other), floe_table_metadata_location(t));
    FT_EQ_INT(version_of(t), v0 + 1);
    const floe_table_metadata *m = other->metadata;
    FT_EQ_INT((long)m->n_metadata_log, (long)log0 + 1);
    FT_EQ_STR(m->metadata_log[m->n_metadata_log - 1].metadata_file, loc0);
    FT_EQ_INT((long)m->nsnapshots, 3);
    FT_CHECK(floe__metadata_snapshot(m, s1) && floe__metadata_snapshot(m, s2));
    FT_EQ_INT(fx_main(other), id);
    const floe_snapshot *s = floe__metadata_snapshot(m, id);
    FT_ASSERT(s);
    FT_CHECK(!s->has_parent);
    FT_EQ_INT(s->schema_id, 1);
    FT_EQ_STR(fx_summary(s, "operation"), "append");
    FT_EQ_STR(fx_summary(s, "added-records"), "3");
    FT_EQ_STR(fx_summary(s, "total-records"), "3");
    FT_EQ_STR(fx_summary(s, "total-data-files"), "2"); /* open, shipped */
    FT_EQ_STR(fx_summary(s, "changed-partition-count"), "2");
    /* the definition as floe_table_replace assigns it */
    FT_EQ_INT(m->current_schema_id, 1);
    FT_EQ_INT(m->last_column_id, 6);
    const floe_type *root = floe__metadata_current_schema(m)->root;
    FT_EQ_STR(root->fields[2].name, "price");
    FT_EQ_INT(root->fields[2].id, 6);
    FT_EQ_INT(root->fields[3].id, 4);
    FT_EQ_INT(m->default_spec_id, 1);
    FT_EQ_INT(m->last_partition_id, 1001);
    /* the rows are in files of the new spec */
    FT_EQ_INT(fx_rows(other, id), 3);
    floe_buf lb = FLOE_BUF_INIT;
    floe_manifest_list *l = NULL;
    FT_OK(fx_read_list(other, floe__table_manifest_list(other, s), &lb, &l));
    FT_EQ_INT((long)l->nentries, 1);
    FT_EQ_INT(l->entries[0].partition_spec_id, 1);
    floe_manifest_list_free(l);
    floe__buf_free(&lb);
    /* the old snapshots still read */
    FT_EQ_INT(fx_rows(other, s2), 3);
    floe__free(loc0);
    floe_table_free(other);
    floe_table_free(t);
    floe_catalog_free(c);
}

static void test_staged_no_rows(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.nr", NULL));
    FT_CHECK(fx_append(t, 4) != 0);
    int v0 = version_of(t);
    floe_table_create_options co = staged_options();
    floe_table *st = NULL;
    FT_OK(floe_table_replace_begin(&st, t, &co));
    floe_append *a = NULL;
    FT_OK(floe_append_new(&a, st));
    FT_OK(floe_append_commit(NULL, a)); /* nothing to append: no commit */
    floe_append_free(a);
    FT_EQ_INT(version_of(t), v0);
    FT_OK(floe_table_replace_commit(st));
    FT_EQ_INT(version_of(t), v0 + 1);
    FT_OK(floe_table_replace_commit(st)); /* already committed: no-op */
    FT_EQ_INT(version_of(t), v0 + 1);
    FT_CHECK(!floe__metadata_ref(t->metadata, "main"));
    FT_EQ_INT(t->metadata->current_schema_id, 1);
    FT_EQ_INT(floe_table_replace_commit(t), FLOE_EINVALID); /* not staged */
    floe_table_free(st);
    floe_table_free(t);
    floe_catalog_free(c);
}

/* Abandoned (freed without a commit) or failing replacements: the table
 * and its storage are exactly as before. */
static void test_staged_abandon_and_errors(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.ab", NULL));
    FT_CHECK(fx_append_rows(t, ROWS, 3) != 0);
    char *loc0 = floe__strdup(floe_table_metadata_location(t));
    int files0 = fx_count_files(t);
    FT_CHECK(files0 > 0);
    floe_table_create_options co = staged_options();
    floe_table *st = NULL;
    FT_OK(floe_table_replace_begin(&st, t, &co));
    floe_append *a = NULL;
    struct ArrowArray arr;
    FT_OK(floe_append_new(&a, st));
    FT_OK(fx_batch(st, ROWS, 3, &arr));
    FT_OK(floe_append_write(a, &arr));
    arr.release(&arr);
    floe_append_free(a); /* never committed: its files go */
    floe_table_free(st);
    FT_OK(floe_table_refresh(t));
    FT_EQ_STR(floe_table_metadata_location(t), loc0);
    FT_EQ_INT(fx_count_files(t), files0);
    /* bad definitions fail at begin */
    co.partition_spec_json =
        "{\"fields\":[{\"source-id\":9,\"transform\":\"identity\",\"name\":\"x\"}]}";
    FT_EQ_INT(floe_table_replace_begin(&st, t, &co), FLOE_EINVALID);
    FT_CHECK(st == NULL);
    co.partition_spec_json = NULL;
    co.schema_json = NULL;
    FT_EQ_INT(floe_table_replace_begin(&st, t, &co), FLOE_EINVALID);
    floe_props p = FLOE_PROPS_INIT;
    FT_OK(floe__props_set(&p, "format-version", "1"));
    co = staged_options();
    co.properties = &p;
    FT_EQ_INT(floe_table_replace_begin(&st, t, &co), FLOE_EINVALID);
    FT_ERR_CONTAINS("Cannot downgrade v2 table to v1");
    floe__props_free(&p);
    /* a staged handle is not replaced again */
    co = staged_options();
    FT_OK(floe_table_replace_begin(&st, t, &co));
    floe_table *st2 = NULL;
    FT_EQ_INT(floe_table_replace_begin(&st2, st, &co), FLOE_EINVALID);
    FT_EQ_INT(floe_table_replace(st, &co), FLOE_EINVALID);
    floe_table_free(st);
    FT_OK(floe_table_refresh(t));
    FT_EQ_STR(floe_table_metadata_location(t), loc0);
    FT_EQ_INT(fx_count_files(t), files0);
    floe__free(loc0);
    floe_table_free(t);
    floe_catalog_free(c);
}

/* A commit by someone else between begin and commit: an append is
 * retried over (it stays in the history, main is replaced); a change of
 * the current schema fails the replace's requirements; a schema added
 * without becoming current passes them but would give the replacement
 * another schema id than the files were written for: refused. */
static int add_schema_prepare(const floe_table_metadata *base, floe_table_change *c, void *p)
{
    floe_json **j = p;
    floe_buf b = FLOE_BUF_INIT;
    int rc = floe__buf_printf(&b, "{\"action\":\"add-schema\",\"last-column-id\":%d,\"schema\":"
                                  "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,"
                                  "\"name\":\"order_id\",\"required\":false,\"type\":\"long\"}]}}",
                              (int)base->last_column_id);
    floe__json_free(*j);
    *j = NULL;
    if (rc == 0)
        rc = floe__json_parse(j, b.ptr, b.len, "test");
    floe__buf_free(&b);
    FLOE_TRY(rc);
    int fv = base->format_version;
    return floe__change_update_parse(c, *j, &fv);
}

static void test_staged_concurrent(void)
{
    floe__table_set_sleep_hook(no_sleep);
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL, *other = NULL;
    FT_OK(fx_create(&t, c, "shop.cc", NULL));
    FT_CHECK(fx_append_rows(t, ROWS, 1) != 0);
    FT_OK(floe_table_load(&other, c, "shop.cc", NULL));
    floe_table_create_options co = staged_options();

    /* 1: a concurrent append -> CAS lost, retried on the new base */
    floe_table *st = NULL;
    FT_OK(floe_table_replace_begin(&st, t, &co));
    int64_t theirs = fx_append_rows(other, ROWS + 1, 2);
    FT_CHECK(theirs != 0);
    int vtheirs = version_of(other);
    int64_t id = 0;
    floe_append *a = NULL;
    struct ArrowArray arr;
    FT_OK(floe_append_new(&a, st));
    FT_OK(fx_batch(st, ROWS, 3, &arr));
    FT_OK(floe_append_write(a, &arr));
    arr.release(&arr);
    FT_OK(floe_append_commit(&id, a));
    floe_append_free(a);
    floe_table_free(st);
    FT_EQ_INT(version_of(t), vtheirs + 1);
    FT_EQ_INT(fx_main(t), id);
    FT_CHECK(floe__metadata_snapshot(t->metadata, theirs) != NULL);
    FT_CHECK(!floe__metadata_snapshot(t->metadata, id)->has_parent);
    FT_EQ_STR(fx_summary(floe__metadata_snapshot(t->metadata, id), "total-records"), "3");
    FT_EQ_INT(fx_rows(t, id), 3);

    /* 2: a concurrent REPLACE (current schema changes) -> conflict */
    FT_OK(floe_table_refresh(other));
    floe_table_create_options back = FLOE_TABLE_CREATE_OPTIONS_INIT;
    back.schema_json = ORDERS_SCHEMA;
    FT_OK(floe_table_replace_begin(&st, t, &back));
    co.schema_json = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":"
                     "\"z\",\"required\":false,\"type\":\"long\"}]}";
    co.partition_spec_json = NULL;
    FT_OK(floe_table_replace(other, &co)); /* a different definition meanwhile */
    char *loc_other = floe__strdup(floe_table_metadata_location(other));
    int files_before = fx_count_files(other);
    FT_OK(floe_append_new(&a, st));
    FT_OK(fx_batch(st, ROWS, 3, &arr));
    FT_OK(floe_append_write(a, &arr));
    arr.release(&arr);
    FT_EQ_INT(floe_append_commit(NULL, a), FLOE_ECONFLICT);
    FT_ERR_CONTAINS("Requirement failed");
    floe_append_free(a);
    floe_table_free(st);
    FT_OK(floe_table_refresh(t));
    FT_EQ_STR(floe_table_metadata_location(t), loc_other);
    FT_EQ_INT(fx_count_files(t), files_before);
    floe__free(loc_other);

    /* 3: a schema added (not current) meanwhile: the replacement's new
     * schema would take another id -> refused, nothing committed */
    co = staged_options();
    FT_OK(floe_table_replace_begin(&st, t, &co));
    FT_EQ_INT(st->metadata->current_schema_id, (int)t->metadata->nschemas);
    floe_json *j = NULL;
    FT_OK(floe_table_refresh(other));
    FT_OK(floe__table_commit(other, add_schema_prepare, &j));
    floe__json_free(j);
    loc_other = floe__strdup(floe_table_metadata_location(other));
    FT_OK(floe_append_new(&a, st));
    FT_OK(fx_batch(st, ROWS, 3, &arr));
    FT_OK(floe_append_write(a, &arr));
    arr.release(&arr);
    FT_EQ_INT(floe_append_commit(NULL, a), FLOE_ECONFLICT);
    FT_ERR_CONTAINS("the table definition changed since the replace began");
    floe_append_free(a);
    floe_table_free(st);
    FT_OK(floe_table_refresh(t));
    FT_EQ_STR(floe_table_metadata_location(t), loc_other);
    floe__free(loc_other);
    floe_table_free(other);
    floe_table_free(t);
    floe_catalog_free(c);
    floe__table_set_sleep_hook(NULL);
}

/* Out of memory at every allocation of begin + write + commit: FLOE_ENOMEM
 * and the table unchanged, or the whole replacement committed. */
static void test_staged_oom(void)
{
    floe_catalog *c = fx_catalog();
    FT_ASSERT(c);
    floe_table *t = NULL;
    FT_OK(fx_create(&t, c, "shop.oom", NULL));
    int64_t s1 = fx_append_rows(t, ROWS, 2);
    FT_ASSERT(s1);
    char *loc0 = floe__strdup(floe_table_metadata_location(t));
    floe_table_create_options co = staged_options();
    bool done = false;
    long n;
    for (n = 1; n < 200000 && !done; n++) {
        int64_t id = 0;
        floe__alloc_fail_at(n);
        int rc = replace_with_rows(t, &co, &id);
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
        if (strcmp(floe_table_metadata_location(t), loc0) != 0) {
            /* the swap happened before the failure: all of it */
            FT_EQ_INT(t->metadata->current_schema_id, 1);
            FT_CHECK(fx_main(t) != s1 && fx_main(t) != -1);
            done = true;
            break;
        }
        FT_EQ_INT(fx_main(t), s1);
    }
    FT_CHECK(done);
    FT_OK(floe_table_refresh(t));
    FT_EQ_INT(t->metadata->current_schema_id, 1);
    FT_EQ_INT(fx_rows(t, fx_main(t)), 3);
    floe__free(loc0);
    floe_table_free(t);
    floe_catalog_free(c);
}

static const ft_case cases[] = {
    {"staged_one_commit", test_staged_one_commit},
    {"staged_no_rows", test_staged_no_rows},
    {"staged_abandon_and_errors", test_staged_abandon_and_errors},
    {"staged_concurrent", test_staged_concurrent},
    {"staged_oom", test_staged_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
