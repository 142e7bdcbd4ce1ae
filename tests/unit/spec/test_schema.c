/* SPDX-License-Identifier: Apache-2.0 */
/* spec/schema + spec/partition: type strings, schema JSON with nested types
 * and defaults, lookup by id and dotted name, transforms, specs, sort orders. */
#include "harness.h"
#include "spec/metadata.h"
#include "spec/spec.h"
#include "spec/value.h"

#include <stdio.h>
#include <stdlib.h>

static const char *type_roundtrip(const char *s, floe_arena *a)
{
    static char out[64];
    const floe_type *t;
    if (floe__type_parse(s, a, &t) < 0)
        return "(error)";
    floe_buf b = FLOE_BUF_INIT;
    floe__type_format(t, &b);
    snprintf(out, sizeof out, "%s", b.ptr);
    floe__buf_free(&b);
    return out;
}

static void test_type_strings(void)
{
    floe_arena *a = floe__arena_new(0);
    const char *same[] = {"boolean", "int", "long", "float", "double", "date", "time",
                          "timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns",
                          "string", "uuid", "binary", "unknown", "variant",
                          "decimal(10, 2)", "fixed[16]", "decimal(38, 0)"};
    for (size_t i = 0; i < FT_N(same); i++)
        FT_EQ_STR(type_roundtrip(same[i], a), same[i]);
    FT_EQ_STR(type_roundtrip("decimal(10,2)", a), "decimal(10, 2)");
    const floe_type *t;
    FT_OK(floe__type_parse("decimal( 9 , 3 )", a, &t));
    FT_EQ_INT(t->precision, 9);
    FT_EQ_INT(t->scale, 3);
    const char *bad[] = {"decimal(39,2)", "decimal(5,6)", "decimal(10)", "fixed[0]",
                         "fixed[x]", "Int", "varchar", "", "decimal(10,2)x"};
    for (size_t i = 0; i < FT_N(bad); i++) {
        FT_EQ_INT(floe__type_parse(bad[i], a, &t), FLOE_EINVALID);
        FT_ERR_CONTAINS(bad[i]);
    }
    floe__arena_free(a);
}

static const char nested_schema[] =
    "{\"type\":\"struct\",\"schema-id\":7,\"identifier-field-ids\":[1],\"fields\":["
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\",\"doc\":\"the key\"},"
    "{\"id\":2,\"name\":\"location\",\"required\":false,\"type\":{\"type\":\"struct\",\"fields\":["
    "{\"id\":3,\"name\":\"lat\",\"required\":true,\"type\":\"double\"},"
    "{\"id\":4,\"name\":\"a.b\",\"required\":false,\"type\":\"string\"}]}},"
    "{\"id\":5,\"name\":\"tags\",\"required\":false,\"type\":{\"type\":\"list\",\"element-id\":6,"
    "\"element\":\"string\",\"element-required\":false}},"
    "{\"id\":7,\"name\":\"props\",\"required\":false,\"type\":{\"type\":\"map\",\"key-id\":8,"
    "\"key\":\"string\",\"value-id\":9,\"value\":{\"type\":\"list\",\"element-id\":10,"
    "\"element\":\"decimal(9, 2)\",\"element-required\":true},\"value-required\":true}},"
    "{\"id\":11,\"name\":\"d\",\"required\":false,\"type\":\"date\",\"initial-default\":\"2024-02-29\","
    "\"write-default\":\"1969-12-31\"}]}";

static void test_schema_json(void)
{
    floe_arena *a = floe__arena_new(0);
    floe_json *j;
    FT_OK(floe__json_parse(&j, nested_schema, sizeof nested_schema - 1, "test"));
    floe_schema *s;
    FT_OK(floe__schema_from_json(&s, j, 0, a));
    floe__json_free(j);
    FT_EQ_INT(s->schema_id, 7);
    FT_EQ_INT(s->highest_field_id, 11);
    FT_EQ_INT(s->n_identifier_field_ids, 1);
    FT_EQ_STR(floe__schema_field_by_name(s, "location.lat")->name, "lat");
    FT_EQ_INT(floe__schema_field_by_name(s, "location.a.b")->id, 4);
    FT_EQ_INT(floe__schema_field_by_name(s, "tags.element")->id, 6);
    FT_EQ_INT(floe__schema_field_by_name(s, "props.value.element")->id, 10);
    FT_EQ_INT(floe__schema_field_by_name(s, "props.key")->id, 8);
    FT_CHECK(floe__schema_field_by_name(s, "location.lon") == NULL);
    FT_CHECK(floe__schema_field_by_name(s, "nope") == NULL);
    FT_EQ_STR(floe__schema_field_by_id(s, 10)->type->precision == 9 ? "ok" : "bad", "ok");
    FT_CHECK(floe__schema_field_by_id(s, 12) == NULL);
    FT_EQ_INT((intptr_t)floe__intmap_get(s->parent_of, 3), 2);
    FT_EQ_INT((intptr_t)floe__intmap_get(s->parent_of, 10), 9); /* the map value */
    const floe_field *d = floe__schema_field_by_id(s, 11);
    FT_ASSERT(d->initial_default && d->write_default);
    FT_EQ_INT(d->initial_default->v.i32, 19782);
    FT_EQ_INT(d->write_default->v.i32, -1);
    FT_EQ_STR(floe__schema_field_by_id(s, 1)->doc, "the key");
    /* write, reparse, write: identical */
    floe_buf b1 = FLOE_BUF_INIT, b2 = FLOE_BUF_INIT;
    FT_OK(floe__schema_to_json(s, &b1));
    FT_OK(floe__json_parse(&j, b1.ptr, b1.len, "rewritten"));
    floe_schema *s2;
    FT_OK(floe__schema_from_json(&s2, j, 0, a));
    floe__json_free(j);
    FT_OK(floe__schema_to_json(s2, &b2));
    FT_EQ_STR(b1.ptr, b2.ptr);
    FT_CHECK(strstr(b1.ptr, "\"initial-default\":\"2024-02-29\"") != NULL);
    FT_CHECK(strstr(b1.ptr, "\"key-id\":8") != NULL);
    floe__buf_free(&b1);
    floe__buf_free(&b2);
    floe__schema_release(s);
    floe__schema_release(s2);
    floe__arena_free(a);
}

static void test_defaults_fixture(void)
{
    const char *sh = ft_shared_dir();
    if (!sh)
        return;
    floe_table_metadata *m;
    FT_OK(floe__metadata_read_file(&m, ft_path(sh, "fixtures/pyiceberg_column_defaults/metadata/"
                                                   "00003-3f1801a5-7dfb-4072-b14a-39cd12f9279b.metadata.json")));
    const floe_schema *s = floe__metadata_current_schema(m);
    static const struct {
        const char *name, *text;
    } want[] = {
        {"col_boolean", "true"},
        {"col_integer", "342342"},
        {"col_long", "-9223372036854775808"},
        {"col_decimal", "12345.00"},
        {"col_date", "2003-10-20"},
        {"col_time", "00:00:00.012345"},
        {"col_timestamp", "1970-01-01T00:00:00.012345"},
        {"col_timestamptz", "1970-01-01T00:00:00.012345+00:00"},
        {"col_string", "HELLO"},
        {"col_uuid", "f79c3e09-677c-4bbd-a479-3f349cb785e7"},
        {"col_fixed", "010203ff03"},
        {"col_binary", "0102"},
    };
    for (size_t i = 0; i < FT_N(want); i++) {
        const floe_field *f = floe__schema_field_by_name(s, want[i].name);
        FT_ASSERT(f && f->initial_default && f->write_default);
        floe_buf b = FLOE_BUF_INIT;
        FT_OK(floe_value_format(f->initial_default, &b));
        FT_EQ_STR(b.ptr, want[i].text);
        floe__buf_free(&b);
    }
    const floe_field *fl = floe__schema_field_by_name(s, "col_float");
    FT_CHECK(fl->initial_default->v.f32 == 0.34234f);
    FT_CHECK(floe__schema_field_by_name(s, "col_double")->initial_default->v.f64 == 0.342343242342342);
    FT_EQ_INT(floe__schema_field_by_name(s, "col_timestamp")->initial_default->v.i64, 12345);
    floe__metadata_free(m);
}

static void test_transforms(void)
{
    floe_arena *a = floe__arena_new(0);
    static const struct {
        const char *s;
        floe_transform_kind kind;
        int32_t param;
    } ok[] = {
        {"identity", FLOE_TR_IDENTITY, 0}, {"bucket[16]", FLOE_TR_BUCKET, 16},
        {"truncate[4]", FLOE_TR_TRUNCATE, 4}, {"year", FLOE_TR_YEAR, 0},
        {"month", FLOE_TR_MONTH, 0}, {"day", FLOE_TR_DAY, 0}, {"hour", FLOE_TR_HOUR, 0},
        {"void", FLOE_TR_VOID, 0}, {"zorder", FLOE_TR_UNKNOWN, 0},
    };
    for (size_t i = 0; i < FT_N(ok); i++) {
        floe_transform t;
        FT_OK(floe__transform_parse(ok[i].s, a, &t));
        FT_EQ_INT(t.kind, ok[i].kind);
        FT_EQ_INT(t.param, ok[i].param);
        floe_buf b = FLOE_BUF_INIT;
        FT_OK(floe__transform_format(&t, &b));
        FT_EQ_STR(b.ptr, ok[i].s);
        floe__buf_free(&b);
    }
    const char *bad[] = {"bucket[x]", "bucket[0]", "bucket", "truncate[]", "bucket[16",
                         "", "bucket[99999999999]", "day\"s"};
    for (size_t i = 0; i < FT_N(bad); i++) {
        floe_transform t;
        FT_EQ_INT(floe__transform_parse(bad[i], a, &t), FLOE_EINVALID);
        FT_ERR_CONTAINS("unknown transform");
    }
    floe__arena_free(a);
}

static void test_specs_and_orders(void)
{
    floe_arena *a = floe__arena_new(0);
    const char v1[] = "[{\"name\":\"c\",\"transform\":\"identity\",\"source-id\":3},"
                      "{\"name\":\"d\",\"transform\":\"day\",\"source-id\":4}]";
    floe_json *j;
    FT_OK(floe__json_parse(&j, v1, sizeof v1 - 1, "t"));
    floe_partition_spec *s;
    FT_OK(floe__partition_spec_from_json(&s, j, 0, false, a));
    FT_EQ_INT(s->fields[0].field_id, 1000);
    FT_EQ_INT(s->fields[1].field_id, 1001);
    FT_EQ_INT(floe__partition_spec_from_json(&s, j, 0, true, a), FLOE_EINVALID);
    FT_ERR_CONTAINS("'field-id'");
    floe__json_free(j);
    const char so[] = "{\"order-id\":1,\"fields\":[{\"transform\":\"bucket[4]\",\"source-id\":3,"
                      "\"direction\":\"desc\",\"null-order\":\"nulls-last\"}]}";
    FT_OK(floe__json_parse(&j, so, sizeof so - 1, "t"));
    floe_sort_order *o;
    FT_OK(floe__sort_order_from_json(&o, j, a));
    floe__json_free(j);
    FT_CHECK(o->fields[0].descending && !o->fields[0].nulls_first);
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe__sort_order_to_json(o, &b));
    FT_EQ_STR(b.ptr, so);
    floe__buf_free(&b);
    floe__arena_free(a);
}

/* Defaults of struct, list and map fields (spec "Default values", JSON
 * single-value serialization) are parsed, checked against the type, and
 * written back in the same form (a commit must not drop them). */
static void test_nested_defaults_json(void)
{
    static const char js[] =
        "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
        "{\"id\":1,\"name\":\"p\",\"required\":false,\"type\":{\"type\":\"struct\",\"fields\":["
        "{\"id\":2,\"name\":\"x\",\"required\":false,\"type\":\"int\",\"initial-default\":0}]},"
        "\"initial-default\":{},\"write-default\":{}},"
        "{\"id\":3,\"name\":\"tags\",\"required\":false,\"type\":{\"type\":\"list\",\"element-id\":4,"
        "\"element\":\"string\",\"element-required\":false},\"initial-default\":[\"a\",null]},"
        "{\"id\":5,\"name\":\"m\",\"required\":false,\"type\":{\"type\":\"map\",\"key-id\":6,"
        "\"key\":\"string\",\"value-id\":7,\"value\":\"date\",\"value-required\":false},"
        "\"initial-default\":{\"keys\":[\"k\"],\"values\":[\"2003-10-20\"]}},"
        "{\"id\":8,\"name\":\"lp\",\"required\":false,\"type\":{\"type\":\"list\",\"element-id\":9,"
        "\"element\":{\"type\":\"struct\",\"fields\":[{\"id\":10,\"name\":\"v\",\"required\":false,"
        "\"type\":\"int\"}]},\"element-required\":false},\"initial-default\":[{\"10\":5},{}]}]}";
    floe_arena *a = floe__arena_new(0);
    floe_json *j = NULL;
    floe_schema *sc = NULL;
    FT_OK(floe__json_parse(&j, js, strlen(js), "schema"));
    FT_OK(floe__schema_from_json(&sc, j, 0, a));
    floe__json_free(j);
    const floe_field *p = floe__schema_field_by_name(sc, "p");
    FT_ASSERT(p && p->initial_default && !p->initial_default->is_null);
    FT_EQ_INT(p->initial_default->type, FLOE_T_STRUCT);
    FT_EQ_INT((long)p->initial_default->v.nested->n, 0);
    floe_buf b = FLOE_BUF_INIT;
    FT_OK(floe__schema_to_json(sc, &b));
    FT_CHECK(strstr(b.ptr, "\"initial-default\":{},\"write-default\":{}") != NULL);
    FT_CHECK(strstr(b.ptr, "\"initial-default\":[\"a\",null]") != NULL);
    FT_CHECK(strstr(b.ptr, "\"initial-default\":{\"keys\":[\"k\"],\"values\":[\"2003-10-20\"]}") !=
             NULL);
    FT_CHECK(strstr(b.ptr, "\"initial-default\":[{\"10\":5},{}]") != NULL);
    if (!strstr(b.ptr, "[{\"10\":5},{}]"))
        ft_fail(__FILE__, __LINE__, "%s", b.ptr);
    floe__buf_free(&b);
    floe__schema_release(sc);
    /* a value that does not fit the type is an error naming the field */
    static const char bad[] =
        "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"p\",\"required\":false,"
        "\"type\":{\"type\":\"struct\",\"fields\":[{\"id\":2,\"name\":\"x\",\"required\":false,"
        "\"type\":\"int\"}]},\"initial-default\":{\"9\":1}}]}";
    FT_OK(floe__json_parse(&j, bad, strlen(bad), "schema"));
    FT_EQ_INT(floe__schema_from_json(&sc, j, 0, a), FLOE_EINVALID);
    FT_ERR_CONTAINS("no field with id '9'");
    FT_ERR_CONTAINS("initial-default of schema field 'p'");
    floe__json_free(j);
    floe__arena_free(a);
}

static const ft_case cases[] = {
    {"type_strings", test_type_strings},     {"schema_json", test_schema_json},
    {"defaults_fixture", test_defaults_fixture}, {"transforms", test_transforms},
    {"specs_and_orders", test_specs_and_orders},
    {"nested_defaults_json", test_nested_defaults_json},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
