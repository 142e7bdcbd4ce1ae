/* SPDX-License-Identifier: Apache-2.0 */
/* spec/evolve: schema evolution rules and messages (Java's SchemaUpdate,
 * Schema.validateIdentifierField, TypeUtil.isPromotionAllowed), partition
 * spec evolution (BaseUpdatePartitionSpec) and compatibility checks. The
 * expected schemas and messages are written from the Java sources and
 * TestSchemaUpdate / TestUpdatePartitionSpec, never printed by the code. */
#include "harness.h"
#include "spec/evolve.h"
#include "spec/metadata.h"

#include <string.h>

/* id 1 id long required; 2 data string; 3 point struct<4 x int req, 5 y
 * int>; 6 tags list<7 string>; 8 attrs map<9 string, 10 struct<11 v
 * float>>; 12 price decimal(9,2); 13 f float */
#define BASE                                                                                       \
    "{\"type\":\"struct\",\"schema-id\":0,\"identifier-field-ids\":[1],\"fields\":["              \
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"                              \
    "{\"id\":2,\"name\":\"data\",\"required\":false,\"type\":\"string\"},"                         \
    "{\"id\":3,\"name\":\"point\",\"required\":false,\"type\":{\"type\":\"struct\",\"fields\":["    \
    "{\"id\":4,\"name\":\"x\",\"required\":true,\"type\":\"int\"},"                                \
    "{\"id\":5,\"name\":\"y\",\"required\":false,\"type\":\"int\"}]}},"                            \
    "{\"id\":6,\"name\":\"tags\",\"required\":false,\"type\":{\"type\":\"list\",\"element-id\":7," \
    "\"element\":\"string\",\"element-required\":false}},"                                         \
    "{\"id\":8,\"name\":\"attrs\",\"required\":false,\"type\":{\"type\":\"map\",\"key-id\":9,"     \
    "\"key\":\"string\",\"value-id\":10,\"value\":{\"type\":\"struct\",\"fields\":["               \
    "{\"id\":11,\"name\":\"v\",\"required\":false,\"type\":\"float\"}]},"                          \
    "\"value-required\":false}},"                                                                  \
    "{\"id\":12,\"name\":\"price\",\"required\":false,\"type\":\"decimal(9, 2)\"},"                \
    "{\"id\":13,\"name\":\"f\",\"required\":true,\"type\":\"float\"}]}"

typedef struct fx {
    floe_arena *a;
    floe_json *j;
    floe_schema *s;
    floe_schema_change *c;
} fx;

static bool fx_open(fx *f, const char *json, int version)
{
    memset(f, 0, sizeof *f);
    f->a = floe__arena_new(0);
    return f->a && floe__json_parse(&f->j, json, strlen(json), "t") == 0 &&
           floe__schema_from_json(&f->s, f->j, 0, f->a) == 0 &&
           floe__schema_change_new(&f->c, f->s, f->s->highest_field_id, version) == 0;
}

static void fx_close(fx *f)
{
    floe__schema_change_free(f->c);
    floe__schema_release(f->s);
    floe__json_free(f->j);
    floe__arena_free(f->a);
}

static const floe_type *ty(fx *f, const char *s)
{
    const floe_type *t = NULL;
    if (s[0] == '{') {
        floe_json *j = NULL;
        if (floe__json_parse(&j, s, strlen(s), "t") == 0)
            floe__type_from_json(&t, j, f->a, 0);
        floe__json_free(j);
        return t;
    }
    floe__type_parse(s, f->a, &t);
    return t;
}

/* The fields of the applied schema as compact text: id:name:type[!] ... */
static void fields_text(const floe_type *t, floe_buf *b)
{
    for (size_t i = 0; i < t->nfields; i++) {
        const floe_field *x = &t->fields[i];
        floe__buf_printf(b, "%s%d:%s:", i ? " " : "", (int)x->id, x->name);
        if (x->type->id == FLOE_T_STRUCT) {
            floe__buf_putc(b, '{');
            fields_text(x->type, b);
            floe__buf_putc(b, '}');
        } else if (x->type->id == FLOE_T_LIST) {
            floe__buf_printf(b, "list<%d:", (int)x->type->element->id);
            if (x->type->element->type->id == FLOE_T_STRUCT) {
                floe__buf_putc(b, '{');
                fields_text(x->type->element->type, b);
                floe__buf_putc(b, '}');
            } else {
                floe__type_java(x->type->element->type, b);
            }
            floe__buf_printf(b, "%s>", x->type->element->required ? "!" : "");
        } else if (x->type->id == FLOE_T_MAP) {
            floe__buf_printf(b, "map<%d,%d:", (int)x->type->key->id, (int)x->type->value->id);
            if (x->type->value->type->id == FLOE_T_STRUCT) {
                floe__buf_putc(b, '{');
                fields_text(x->type->value->type, b);
                floe__buf_putc(b, '}');
            } else {
                floe__type_java(x->type->value->type, b);
            }
            floe__buf_putc(b, '>');
        } else {
            floe__type_java(x->type, b);
        }
        if (x->required)
            floe__buf_putc(b, '!');
        if (x->doc)
            floe__buf_printf(b, "(%s)", x->doc);
    }
}

/* Apply and compare with the expected text; returns the last column id. */
static int32_t expect_schema(fx *f, const char *want)
{
    floe_schema *out = NULL;
    int32_t last = -1;
    if (floe__schema_change_apply(f->c, f->a, &out, &last) < 0) {
        ft_fail(__FILE__, __LINE__, "apply: %s", ft_floe_err());
        return -1;
    }
    floe_buf b = FLOE_BUF_INIT;
    fields_text(out->root, &b);
    FT_EQ_STR(b.ptr, want);
    floe__buf_free(&b);
    floe__schema_release(out);
    return last;
}

#define ERR_IS(expr, msg)                                                                          \
    do {                                                                                           \
        FT_CHECK((expr) == FLOE_EINVALID);                                                         \
        FT_EQ_STR(floe_error_last() ? floe_error_last()->message : "", (msg));                     \
    } while (0)

#define BASE_TEXT                                                                                  \
    "1:id:long! 2:data:string 3:point:{4:x:int! 5:y:int} 6:tags:list<7:string> "                   \
    "8:attrs:map<9,10:{11:v:float}> 12:price:decimal(9, 2) 13:f:float!"

static void test_noop(void)
{
    fx f;
    FT_ASSERT(fx_open(&f, BASE, 2));
    FT_EQ_INT(expect_schema(&f, BASE_TEXT), 13);
    fx_close(&f);
}

static void test_add(void)
{
    fx f;
    FT_ASSERT(fx_open(&f, BASE, 2));
    FT_OK(floe__schema_change_add(f.c, NULL, "count", ty(&f, "long"), false, "how many", NULL));
    FT_OK(floe__schema_change_add(f.c, "point", "z", ty(&f, "int"), false, NULL, NULL));
    /* a map parent adds to its value struct */
    FT_OK(floe__schema_change_add(f.c, "attrs", "w", ty(&f, "string"), false, NULL, NULL));
    /* nested type: its own ids are replaced by fresh ones, fields first */
    FT_OK(floe__schema_change_add(
        f.c, NULL, "loc",
        ty(&f, "{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"lat\",\"required\":false,"
               "\"type\":\"double\"},{\"id\":2,\"name\":\"tags\",\"required\":false,\"type\":"
               "{\"type\":\"list\",\"element-id\":3,\"element\":\"int\",\"element-required\":"
               "true}}]}"),
        false, NULL, NULL));
    FT_EQ_INT(expect_schema(&f, "1:id:long! 2:data:string 3:point:{4:x:int! 5:y:int 15:z:int} "
                                "6:tags:list<7:string> 8:attrs:map<9,10:{11:v:float 16:w:string}> "
                                "12:price:decimal(9, 2) 13:f:float! 14:count:long(how many) "
                                "17:loc:{18:lat:double 19:tags:list<20:int!>}"),
              20);
    fx_close(&f);
}

static void test_add_list_element_struct(void)
{
    fx f;
    FT_ASSERT(fx_open(&f,
                      "{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"pts\",\"required\":"
                      "false,\"type\":{\"type\":\"list\",\"element-id\":2,\"element\":{\"type\":"
                      "\"struct\",\"fields\":[{\"id\":3,\"name\":\"x\",\"required\":false,"
                      "\"type\":\"int\"}]},\"element-required\":false}}]}",
                      2));
    FT_OK(floe__schema_change_add(f.c, "pts", "y", ty(&f, "int"), false, NULL, NULL));
    expect_schema(&f, "1:pts:list<2:{3:x:int 4:y:int}>");
    fx_close(&f);
}

static void test_add_errors(void)
{
    fx f;
    FT_ASSERT(fx_open(&f, BASE, 2));
    ERR_IS(floe__schema_change_add(f.c, NULL, "data", ty(&f, "int"), false, NULL, NULL),
           "Cannot add column, name already exists: data");
    ERR_IS(floe__schema_change_add(f.c, "point", "x", ty(&f, "int"), false, NULL, NULL),
           "Cannot add column, name already exists: point.x");
    ERR_IS(floe__schema_change_add(f.c, "nope", "x", ty(&f, "int"), false, NULL, NULL),
           "Cannot find parent struct: nope");
    ERR_IS(floe__schema_change_add(f.c, "data", "x", ty(&f, "int"), false, NULL, NULL),
           "Cannot add to non-struct column: data: string");
    ERR_IS(floe__schema_change_add(f.c, "tags", "x", ty(&f, "int"), false, NULL, NULL),
           "Cannot add to non-struct column: tags: string");
    ERR_IS(floe__schema_change_add(f.c, NULL, "r", ty(&f, "int"), true, NULL, NULL),
           "Incompatible change: cannot add required column without a default value: r");
    floe_value v = {.type = FLOE_T_INT, .v.i32 = 3};
    ERR_IS(floe__schema_change_add(f.c, NULL, "r", ty(&f, "int"), true, NULL, &v),
           "Invalid schema for v2:\n- Invalid initial default for r: non-null default is not "
           "supported until v3");
    /* dropping a column frees its name */
    FT_OK(floe__schema_change_delete(f.c, "data"));
    FT_OK(floe__schema_change_add(f.c, NULL, "data", ty(&f, "int"), false, NULL, NULL));
    FT_OK(floe__schema_change_delete(f.c, "point.y"));
    FT_OK(floe__schema_change_add(f.c, "point", "q", ty(&f, "int"), false, NULL, NULL));
    ERR_IS(floe__schema_change_delete(f.c, "point"),
           "Cannot delete a column that has additions: point");
    expect_schema(&f, "1:id:long! 3:point:{4:x:int! 15:q:int} 6:tags:list<7:string> "
                      "8:attrs:map<9,10:{11:v:float}> 12:price:decimal(9, 2) 13:f:float! "
                      "14:data:int");
    fx_close(&f);
}

static void test_defaults_v3(void)
{
    fx f;
    FT_ASSERT(fx_open(&f, BASE, 3));
    floe_value v = {.type = FLOE_T_INT, .v.i32 = 7};
    FT_OK(floe__schema_change_add(f.c, NULL, "r", ty(&f, "int"), true, NULL, &v));
    /* optional -> required of an added column with a default is allowed */
    FT_OK(floe__schema_change_add(f.c, NULL, "o", ty(&f, "int"), false, NULL, &v));
    FT_OK(floe__schema_change_optional(f.c, "o", false));
    ERR_IS(floe__schema_change_optional(f.c, "data", false),
           "Cannot change column nullability: data: optional -> required");
    floe_schema *out = NULL;
    FT_OK(floe__schema_change_apply(f.c, f.a, &out, NULL));
    const floe_field *r = floe__schema_field_by_name(out, "r");
    FT_ASSERT(r && r->initial_default && r->write_default);
    FT_EQ_INT(r->initial_default->v.i32, 7);
    FT_CHECK(r->required);
    FT_CHECK(floe__schema_field_by_name(out, "o")->required);
    floe__schema_release(out);
    fx_close(&f);
}

static void test_delete(void)
{
    fx f;
    FT_ASSERT(fx_open(&f, BASE, 2));
    ERR_IS(floe__schema_change_delete(f.c, "nope"), "Cannot delete missing column: nope");
    FT_OK(floe__schema_change_delete(f.c, "point.y"));
    FT_OK(floe__schema_change_delete(f.c, "attrs.value.v"));
    FT_OK(floe__schema_change_delete(f.c, "tags"));
    expect_schema(&f, "1:id:long! 2:data:string 3:point:{4:x:int!} 8:attrs:map<9,10:{}> "
                      "12:price:decimal(9, 2) 13:f:float!");
    fx_close(&f);

    FT_ASSERT(fx_open(&f, BASE, 2));
    FT_OK(floe__schema_change_rename(f.c, "data", "d"));
    ERR_IS(floe__schema_change_delete(f.c, "data"), "Cannot delete a column that has updates: data");
    ERR_IS(floe__schema_change_rename(f.c, "nope", "x"), "Cannot rename missing column: nope");
    FT_OK(floe__schema_change_delete(f.c, "price"));
    ERR_IS(floe__schema_change_rename(f.c, "price", "p"),
           "Cannot rename a column that will be deleted: price");
    ERR_IS(floe__schema_change_doc(f.c, "price", "p"),
           "Cannot update a column that will be deleted: price");
    fx_close(&f);
}

static void test_map_list_rules(void)
{
    fx f;
    FT_ASSERT(fx_open(&f, BASE, 2));
    FT_OK(floe__schema_change_delete(f.c, "attrs.key"));
    floe_schema *out = NULL;
    ERR_IS(floe__schema_change_apply(f.c, f.a, &out, NULL),
           "Cannot delete map keys: map<string, struct<11: v: optional float>>");
    fx_close(&f);
    FT_ASSERT(fx_open(&f, BASE, 2));
    FT_OK(floe__schema_change_delete(f.c, "tags.element"));
    ERR_IS(floe__schema_change_apply(f.c, f.a, &out, NULL),
           "Cannot delete element type from list: list<string>");
    fx_close(&f);
    /* nullability of a list element */
    FT_ASSERT(fx_open(&f,
                      "{\"type\":\"struct\",\"fields\":[{\"id\":1,\"name\":\"l\",\"required\":"
                      "false,\"type\":{\"type\":\"list\",\"element-id\":2,\"element\":\"int\","
                      "\"element-required\":true}}]}",
                      2));
    FT_OK(floe__schema_change_optional(f.c, "l.element", true));
    expect_schema(&f, "1:l:list<2:int>");
    fx_close(&f);
}

static void test_types(void)
{
    fx f;
    FT_ASSERT(fx_open(&f,
                      "{\"type\":\"struct\",\"fields\":["
                      "{\"id\":1,\"name\":\"i\",\"required\":false,\"type\":\"int\"},"
                      "{\"id\":2,\"name\":\"fl\",\"required\":false,\"type\":\"float\"},"
                      "{\"id\":3,\"name\":\"d\",\"required\":false,\"type\":\"decimal(9, 2)\"},"
                      "{\"id\":4,\"name\":\"dt\",\"required\":false,\"type\":\"date\"},"
                      "{\"id\":5,\"name\":\"s\",\"required\":false,\"type\":\"string\"}]}",
                      3));
    FT_OK(floe__schema_change_type(f.c, "i", ty(&f, "long")));
    FT_OK(floe__schema_change_type(f.c, "fl", ty(&f, "double")));
    ERR_IS(floe__schema_change_type(f.c, "d", ty(&f, "decimal(8, 2)")),
           "Cannot change column type: d: decimal(9, 2) -> decimal(8, 2)");
    ERR_IS(floe__schema_change_type(f.c, "d", ty(&f, "decimal(12, 3)")),
           "Cannot change column type: d: decimal(9, 2) -> decimal(12, 3)");
    FT_OK(floe__schema_change_type(f.c, "d", ty(&f, "decimal(12, 2)")));
    /* Java 1.11 does not promote date -> timestamp (spec v3 does) */
    ERR_IS(floe__schema_change_type(f.c, "dt", ty(&f, "timestamp")),
           "Cannot change column type: dt: date -> timestamp");
    ERR_IS(floe__schema_change_type(f.c, "s", ty(&f, "int")),
           "Cannot change column type: s: string -> int");
    ERR_IS(floe__schema_change_type(f.c, "x", ty(&f, "int")), "Cannot update missing column: x");
    /* long -> int narrowing */
    FT_OK(floe__schema_change_rename(f.c, "i", "big"));
    FT_OK(floe__schema_change_doc(f.c, "s", "text"));
    expect_schema(&f, "1:big:long 2:fl:double 3:d:decimal(12, 2) 4:dt:date 5:s:string(text)");
    fx_close(&f);
}

static void test_moves(void)
{
    fx f;
    FT_ASSERT(fx_open(&f, BASE, 2));
    FT_OK(floe__schema_change_move(f.c, "f", FLOE_MOVE_FIRST, NULL));
    FT_OK(floe__schema_change_move(f.c, "data", FLOE_MOVE_AFTER, "price"));
    FT_OK(floe__schema_change_move(f.c, "point.y", FLOE_MOVE_BEFORE, "point.x"));
    FT_OK(floe__schema_change_add(f.c, NULL, "n", ty(&f, "int"), false, NULL, NULL));
    FT_OK(floe__schema_change_move(f.c, "n", FLOE_MOVE_AFTER, "id"));
    ERR_IS(floe__schema_change_move(f.c, "nope", FLOE_MOVE_FIRST, NULL),
           "Cannot move missing column: nope");
    ERR_IS(floe__schema_change_move(f.c, "id", FLOE_MOVE_AFTER, "id"), "Cannot move id after itself");
    ERR_IS(floe__schema_change_move(f.c, "id", FLOE_MOVE_BEFORE, "nope"),
           "Cannot move id before missing column: nope");
    ERR_IS(floe__schema_change_move(f.c, "id", FLOE_MOVE_AFTER, "point.x"),
           "Cannot move field id to a different struct");
    ERR_IS(floe__schema_change_move(f.c, "point.x", FLOE_MOVE_AFTER, "id"),
           "Cannot move field point.x to a different struct");
    expect_schema(&f, "13:f:float! 1:id:long! 14:n:int 3:point:{5:y:int 4:x:int!} "
                      "6:tags:list<7:string> 8:attrs:map<9,10:{11:v:float}> "
                      "12:price:decimal(9, 2) 2:data:string");
    fx_close(&f);
}

static void test_identifier_fields(void)
{
    fx f;
    floe_schema *out = NULL;
    FT_ASSERT(fx_open(&f, BASE, 2));
    FT_OK(floe__schema_change_delete(f.c, "id"));
    ERR_IS(floe__schema_change_apply(f.c, f.a, &out, NULL),
           "Cannot delete identifier field 1: id: required long. To force deletion, also call "
           "setIdentifierFields to update identifier fields.");
    fx_close(&f);

    static const struct {
        const char *name, *msg;
    } bad[] = {
        {"data", "Cannot add field data as an identifier field: not a required field"},
        {"point", "Cannot add field point as an identifier field: not a primitive type field"},
        {"f", "Cannot add field f as an identifier field: must not be float or double field"},
        {"point.x", "Cannot add field x as an identifier field: must not be nested in an "
                    "optional field 3: point: optional struct<4: x: required int, 5: y: "
                    "optional int>"},
        {"nope", "Cannot add field nope as an identifier field: not found in current schema or "
                 "added columns"},
    };
    for (size_t i = 0; i < FT_N(bad); i++) {
        FT_ASSERT(fx_open(&f, BASE, 2));
        FT_OK(floe__schema_change_identifier_fields(f.c, &bad[i].name, 1));
        ERR_IS(floe__schema_change_apply(f.c, f.a, &out, NULL), bad[i].msg);
        fx_close(&f);
    }
    /* rename keeps the identifier; replacing the list allows dropping */
    FT_ASSERT(fx_open(&f, BASE, 2));
    FT_OK(floe__schema_change_rename(f.c, "id", "key"));
    FT_OK(floe__schema_change_apply(f.c, f.a, &out, NULL));
    FT_EQ_INT(out->n_identifier_field_ids, 1);
    FT_EQ_INT(out->identifier_field_ids[0], 1);
    floe__schema_release(out);
    fx_close(&f);
    FT_ASSERT(fx_open(&f, BASE, 2));
    FT_OK(floe__schema_change_identifier_fields(f.c, NULL, 0));
    FT_OK(floe__schema_change_delete(f.c, "id"));
    FT_OK(floe__schema_change_apply(f.c, f.a, &out, NULL));
    FT_EQ_INT(out->n_identifier_field_ids, 0);
    floe__schema_release(out);
    fx_close(&f);
}

static void test_rename_collision(void)
{
    fx f;
    floe_schema *out = NULL;
    FT_ASSERT(fx_open(&f, BASE, 2));
    FT_OK(floe__schema_change_rename(f.c, "data", "price"));
    ERR_IS(floe__schema_change_apply(f.c, f.a, &out, NULL),
           "Invalid schema: multiple fields for name price: 2 and 12");
    fx_close(&f);
}

/* ---------------------------------------------------------------- partition specs */

#define META(v, spec)                                                                              \
    "{\"format-version\":" #v ",\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","           \
    "\"location\":\"s3://b/t\",\"last-sequence-number\":0,\"last-updated-ms\":1,"                  \
    "\"last-column-id\":3,\"current-schema-id\":0,\"schemas\":[{\"type\":\"struct\","             \
    "\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":false,\"type\":\"long\"}," \
    "{\"id\":2,\"name\":\"ts\",\"required\":false,\"type\":\"timestamp\"},"                        \
    "{\"id\":3,\"name\":\"s\",\"required\":false,\"type\":\"string\"}]}],"                         \
    "\"default-spec-id\":0,\"partition-specs\":[{\"spec-id\":0,\"fields\":[" spec "]}],"           \
    "\"last-partition-id\":1000,\"default-sort-order-id\":0,\"sort-orders\":[{\"order-id\":0,"    \
    "\"fields\":[]}],\"properties\":{},\"current-snapshot-id\":-1,\"snapshots\":[],"               \
    "\"snapshot-log\":[],\"metadata-log\":[]}"
#define DAY_SPEC "{\"source-id\":2,\"field-id\":1000,\"name\":\"ts_day\",\"transform\":\"day\"}"

static floe_table_metadata *meta(const char *json)
{
    floe_table_metadata *m = NULL;
    if (floe__metadata_parse(&m, json, strlen(json), "m.json") < 0)
        ft_fail(__FILE__, __LINE__, "parse: %s", ft_floe_err());
    return m;
}

static floe_transform tr(floe_arena *a, const char *s)
{
    floe_transform t = {0};
    floe__transform_parse(s, a, &t);
    return t;
}

static void spec_text(const floe_partition_spec *s, floe_buf *b)
{
    for (size_t i = 0; i < s->nfields; i++)
        floe__buf_printf(b, "%s%d:%s:%s(%d)", i ? " " : "", (int)s->fields[i].field_id,
                         s->fields[i].name, s->fields[i].transform.name,
                         (int)s->fields[i].source_id);
}

static void expect_spec(floe_spec_change *c, floe_arena *a, const char *want)
{
    floe_partition_spec *s = NULL;
    if (floe__spec_change_apply(c, a, &s) < 0) {
        ft_fail(__FILE__, __LINE__, "apply: %s", ft_floe_err());
        return;
    }
    floe_buf b = FLOE_BUF_INIT;
    spec_text(s, &b);
    FT_EQ_STR(b.ptr ? b.ptr : "", want);
    floe__buf_free(&b);
}

static void test_spec_v2(void)
{
    floe_arena *a = floe__arena_new(0);
    floe_table_metadata *m = meta(META(2, DAY_SPEC));
    FT_ASSERT(m && a);
    floe_spec_change *c = NULL;
    FT_OK(floe__spec_change_new(&c, m));
    floe_transform b16 = tr(a, "bucket[16]"), day = tr(a, "day"), hour = tr(a, "hour"),
                   id = tr(a, "identity"), t4 = tr(a, "truncate[4]");
    FT_OK(floe__spec_change_add(c, NULL, "id", &b16));
    ERR_IS(floe__spec_change_add(c, NULL, "id", &b16),
           "Cannot add duplicate partition field null=bucket[16](ref(name=\"id\")), already "
           "added: 1001: id_bucket_16: bucket[16](1)");
    ERR_IS(floe__spec_change_add(c, "x", "ts", &day),
           "Cannot add duplicate partition field x=day(ref(name=\"ts\")), conflicts with 1000: "
           "ts_day: day(2)");
    ERR_IS(floe__spec_change_add(c, NULL, "nope", &id),
           "Cannot find field 'nope' in struct: struct<1: id: optional long, 2: ts: optional "
           "timestamp, 3: s: optional string>");
    ERR_IS(floe__spec_change_add(c, NULL, "s", &day),
           "Cannot bind: day cannot transform string values from 's'");
    FT_OK(floe__spec_change_add(c, "s4", "s", &t4));
    ERR_IS(floe__spec_change_remove(c, "s4"),
           "Cannot delete newly added field: 1002: s4: truncate[4](3)");
    ERR_IS(floe__spec_change_remove(c, "nope"), "Cannot find partition field to remove: nope");
    FT_OK(floe__spec_change_remove(c, "ts_day"));
    ERR_IS(floe__spec_change_rename(c, "ts_day", "d"),
           "Cannot delete and rename partition field: ts_day");
    FT_OK(floe__spec_change_add(c, NULL, "ts", &hour));
    expect_spec(c, a, "1001:id_bucket_16:bucket[16](1) 1002:s4:truncate[4](3) "
                      "1003:ts_hour:hour(2)");
    floe__spec_change_free(c);

    /* redundant time partitions; rename; re-adding a removed field undeletes it */
    FT_OK(floe__spec_change_new(&c, m));
    FT_OK(floe__spec_change_add(c, NULL, "ts", &hour));
    floe_transform month = tr(a, "month");
    ERR_IS(floe__spec_change_add(c, NULL, "ts", &month),
           "Cannot add redundant partition field: 1001: ts_hour: hour(2) conflicts with 1002: "
           "ts_month: month(2)");
    FT_OK(floe__spec_change_rename(c, "ts_day", "d"));
    ERR_IS(floe__spec_change_remove(c, "ts_day"), "Cannot rename and delete partition field: ts_day");
    expect_spec(c, a, "1000:d:day(2) 1001:ts_hour:hour(2)");
    floe__spec_change_free(c);

    FT_OK(floe__spec_change_new(&c, m));
    FT_OK(floe__spec_change_remove_term(c, "ts", &day));
    FT_OK(floe__spec_change_add(c, NULL, "ts", &day));
    expect_spec(c, a, "1000:ts_day:day(2)");
    floe__spec_change_free(c);
    floe__metadata_free(m);
    floe__arena_free(a);
}

static void test_spec_v1_void(void)
{
    floe_arena *a = floe__arena_new(0);
    floe_table_metadata *m = meta(META(1, DAY_SPEC));
    FT_ASSERT(m && a);
    floe_spec_change *c = NULL;
    FT_OK(floe__spec_change_new(&c, m));
    FT_OK(floe__spec_change_remove(c, "ts_day"));
    floe_transform day = tr(a, "day");
    floe_transform ident = tr(a, "identity");
    FT_OK(floe__spec_change_add(c, NULL, "id", &ident));
    expect_spec(c, a, "1000:ts_day:void(2) 1001:id:identity(1)");
    floe__spec_change_free(c);
    (void)day;
    floe__metadata_free(m);
    floe__arena_free(a);
}

static void test_spec_recycle_v2(void)
{
    /* spec 1 dropped ts_day; adding day(ts) again recycles field 1000 */
    floe_arena *a = floe__arena_new(0);
    const char *json = META(2, DAY_SPEC);
    floe_buf b = FLOE_BUF_INIT;
    const char *at = strstr(json, "]}],\"last-partition-id\"");
    floe__buf_put(&b, json, (size_t)(at - json));
    floe__buf_puts(&b, "]},{\"spec-id\":1,\"fields\":[]}],\"last-partition-id\"");
    floe__buf_puts(&b, at + strlen("]}],\"last-partition-id\""));
    char *s = strstr(b.ptr, "\"default-spec-id\":0");
    s[18] = '1';
    floe_table_metadata *m = meta(b.ptr);
    FT_ASSERT(m && a);
    floe_spec_change *c = NULL;
    FT_OK(floe__spec_change_new(&c, m));
    floe_transform day = tr(a, "day");
    FT_OK(floe__spec_change_add(c, NULL, "ts", &day));
    expect_spec(c, a, "1000:ts_day:day(2)");
    floe__spec_change_free(c);
    floe__metadata_free(m);
    floe__buf_free(&b);
    floe__arena_free(a);
}

static void test_compat(void)
{
    fx f;
    FT_ASSERT(fx_open(&f, BASE, 2));
    floe_partition_field pf = {.source_id = 2, .field_id = 1000, .name = "data",
                               .transform = {.kind = FLOE_TR_IDENTITY, .name = "identity"}};
    floe_partition_spec spec = {.nfields = 1, .fields = &pf};
    floe_sort_field sf = {.source_id = 2, .transform = {.kind = FLOE_TR_IDENTITY,
                                                        .name = "identity"}};
    floe_sort_order order = {.order_id = 1, .nfields = 1, .fields = &sf};
    FT_OK(floe__spec_check_schema(&spec, f.s));
    FT_OK(floe__schema_change_delete(f.c, "data"));
    floe_schema *out = NULL;
    FT_OK(floe__schema_change_apply(f.c, f.a, &out, NULL));
    ERR_IS(floe__spec_check_schema(&spec, out),
           "Cannot find source column for partition field: 1000: data: identity(2)");
    ERR_IS(floe__order_check_schema(&order, out),
           "Cannot find source column for sort field: identity(2) ASC NULLS LAST");
    pf.transform = (floe_transform){.kind = FLOE_TR_VOID, .name = "void"};
    FT_OK(floe__spec_check_schema(&spec, out));
    floe__schema_release(out);
    fx_close(&f);
}

/* Every allocation failing in turn: FLOE_ENOMEM, no leak (asan). */
static void test_oom(void)
{
    static const floe_type int_type = {.id = FLOE_T_INT};
    long n;
    for (n = 1; n < 100000; n++) {
        fx f = {0};
        floe__alloc_fail_at(n);
        int rc = fx_open(&f, BASE, 3) ? 0 : FLOE_ENOMEM;
        if (rc == 0)
            rc = floe__schema_change_add(f.c, "point", "z", &int_type,
                                         false, "d", NULL);
        if (rc == 0)
            rc = floe__schema_change_rename(f.c, "data", "d2");
        if (rc == 0)
            rc = floe__schema_change_move(f.c, "price", FLOE_MOVE_FIRST, NULL);
        if (rc == 0)
            rc = floe__schema_change_delete(f.c, "tags");
        if (rc == 0) {
            floe_schema *out = NULL;
            rc = floe__schema_change_apply(f.c, f.a, &out, NULL);
            floe__schema_release(out);
        }
        floe__alloc_fail_at(0);
        fx_close(&f);
        if (rc == 0)
            break;
        if (rc != FLOE_ENOMEM && floe_error_last() && floe_error_last()->code != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "step %ld: %s", n, ft_floe_err());
            return;
        }
    }
    FT_CHECK(n > 10);
}

static const ft_case cases[] = {
    {"noop", test_noop},
    {"add", test_add},
    {"add_list_element_struct", test_add_list_element_struct},
    {"add_errors", test_add_errors},
    {"defaults_v3", test_defaults_v3},
    {"delete", test_delete},
    {"map_list_rules", test_map_list_rules},
    {"types", test_types},
    {"moves", test_moves},
    {"identifier_fields", test_identifier_fields},
    {"rename_collision", test_rename_collision},
    {"spec_v2", test_spec_v2},
    {"spec_v1_void", test_spec_v1_void},
    {"spec_recycle_v2", test_spec_recycle_v2},
    {"compat", test_compat},
    {"oom", test_oom},
};

int main(int argc, char **argv) { return ft_main(argc, argv, cases, FT_N(cases)); }
