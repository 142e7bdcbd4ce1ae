/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sql/nested: a SQLite value (JSON text or NULL) appended to an Arrow
 * builder of a nested Iceberg type (floe__sql_append_value), then rendered
 * back as JSON (floe__sql_nested_json): shapes, nulls at each level,
 * structs by name and by position, decimals at their scale, errors with the
 * value's path, and every allocation failure (the ASan build checks leaks).
 */
#include "harness.h"
#include "spec/spec.h"
#include "sql/nested.h"
#include "sql/session_int.h"

#include <string.h>

static floe_sql_session *open_session(void)
{
    floe_sql_session_options o = FLOE_SQL_SESSION_OPTIONS_INIT;
    o.warehouse = ft_tmp("wh");
    floe_sql_session *s = NULL;
    if (floe__sql_session_open(&s, &o) < 0)
        return NULL;
    return s;
}

/* The field "c" of Iceberg JSON type `type_json` (ids as given). */
static floe_field field_of(floe_arena *a, const char *type_json, bool required)
{
    floe_field f;
    memset(&f, 0, sizeof f);
    f.name = "c";
    f.required = required;
    floe_json *j = NULL;
    if (floe__json_parse(&j, type_json, strlen(type_json), "type") == 0)
        floe__type_from_json(&f.type, j, a, 0);
    floe__json_free(j);
    return f;
}

/* value (NULL: SQL NULL) -> builder -> JSON text ("NULL" for a null slot). */
static int roundtrip(floe_sql_session *s, const floe_field *f, const char *value, floe_buf *out)
{
    sqlite3_stmt *st = NULL;
    floe_arrow_builder *b = NULL;
    struct ArrowArray arr;
    memset(&arr, 0, sizeof arr);
    floe__buf_clear(out);
    if (sqlite3_prepare_v2(s->db, "SELECT ?1", -1, &st, NULL) != SQLITE_OK)
        return FLOE_ERROR;
    if (value)
        sqlite3_bind_text(st, 1, value, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st) == SQLITE_ROW ? 0 : FLOE_ERROR;
    if (rc == 0)
        rc = floe__arrow_builder_new(&b, f->type);
    if (rc == 0)
        rc = floe__sql_append_value(s, sqlite3_column_value(st, 0), f, b);
    if (rc == 0)
        rc = floe__arrow_builder_finish(b, &arr);
    if (rc == 0) {
        if (floe__arrow_is_valid(&arr, 0))
            rc = floe__sql_nested_json(&arr, f->type, 0, NULL, out);
        else
            rc = floe__buf_puts(out, "NULL");
    }
    if (arr.release)
        arr.release(&arr);
    floe__arrow_builder_free(b);
    sqlite3_finalize(st);
    return rc;
}

#define LIST_INT                                                                                   \
    "{\"type\":\"list\",\"element-id\":2,\"element\":\"int\",\"element-required\":false}"
#define LIST_INT_REQ                                                                               \
    "{\"type\":\"list\",\"element-id\":2,\"element\":\"int\",\"element-required\":true}"
#define MAP_INT_STR                                                                                \
    "{\"type\":\"map\",\"key-id\":2,\"key\":\"int\",\"value-id\":3,\"value\":\"string\","          \
    "\"value-required\":false}"
#define STRUCT_AB                                                                                  \
    "{\"type\":\"struct\",\"fields\":[{\"id\":2,\"name\":\"a\",\"required\":false,\"type\":"       \
    "\"long\"},{\"id\":3,\"name\":\"b\",\"required\":false,\"type\":{\"type\":\"list\","           \
    "\"element-id\":4,\"element\":\"string\",\"element-required\":false}}]}"
#define STRUCT_REQ                                                                                 \
    "{\"type\":\"struct\",\"fields\":[{\"id\":2,\"name\":\"z\",\"required\":true,\"type\":"        \
    "\"int\"}]}"
#define LIST_DEC                                                                                   \
    "{\"type\":\"list\",\"element-id\":2,\"element\":\"decimal(5,2)\",\"element-required\":false}"
#define LIST_MAP                                                                                   \
    "{\"type\":\"list\",\"element-id\":2,\"element\":{\"type\":\"map\",\"key-id\":3,\"key\":"      \
    "\"string\",\"value-id\":4,\"value\":{\"type\":\"list\",\"element-id\":5,\"element\":"         \
    "\"double\",\"element-required\":false},\"value-required\":false},\"element-required\":false}"

static void expect(floe_sql_session *s, floe_arena *a, const char *type, const char *value,
                   const char *want)
{
    floe_field f = field_of(a, type, false);
    FT_ASSERT(f.type);
    floe_buf out = FLOE_BUF_INIT;
    int rc = roundtrip(s, &f, value, &out);
    if (rc < 0)
        ft_fail(__FILE__, __LINE__, "%s: %s", value ? value : "NULL", ft_floe_err());
    else
        FT_EQ_STR(out.ptr, want);
    floe__buf_free(&out);
}

static void expect_err(floe_sql_session *s, floe_arena *a, const char *type, bool required,
                       const char *value, const char *needle)
{
    floe_field f = field_of(a, type, required);
    FT_ASSERT(f.type);
    floe_buf out = FLOE_BUF_INIT;
    FT_EQ_INT(roundtrip(s, &f, value, &out), FLOE_EINVALID);
    FT_ERR_CONTAINS(needle);
    floe__buf_free(&out);
}

static void test_shapes(void)
{
    floe_sql_session *s = open_session();
    FT_ASSERT(s);
    floe_arena *a = floe__arena_new(0);
    expect(s, a, LIST_INT, "[1,null,3]", "[1,null,3]");
    expect(s, a, LIST_INT, "[]", "[]");
    expect(s, a, LIST_INT, NULL, "NULL");
    expect(s, a, LIST_INT, "null", "NULL");
    expect(s, a, LIST_INT, " [ -2147483648 , 2147483647 ] ", "[-2147483648,2147483647]");
    expect(s, a, LIST_INT, "[\"7\", 8.0]", "[7,8]");
    expect(s, a, MAP_INT_STR, "{\"2\":\"b\",\"1\":null}", "{\"2\":\"b\",\"1\":null}");
    expect(s, a, MAP_INT_STR, "{}", "{}");
    expect(s, a, STRUCT_AB, "{\"a\":1,\"b\":[\"x\",null]}", "{\"a\":1,\"b\":[\"x\",null]}");
    expect(s, a, STRUCT_AB, "{\"B\":[]}", "{\"a\":null,\"b\":[]}");      /* by name, missing a */
    expect(s, a, STRUCT_AB, "[5,null]", "{\"a\":5,\"b\":null}");         /* array: by position */
    expect(s, a, STRUCT_AB, "{\"x\":6,\"y\":[]}", "{\"a\":6,\"b\":[]}"); /* other names: position */
    expect(s, a, STRUCT_AB, "{}", "{\"a\":null,\"b\":null}");
    expect(s, a, LIST_DEC, "[1.005,\"2.5\",3,-0.01,null]", "[1.01,2.50,3.00,-0.01,null]");
    expect(s, a, LIST_MAP, "[{\"k\":[1.5,null]},null,{}]", "[{\"k\":[1.5,null]},null,{}]");
    expect(s, a, STRUCT_REQ, "{\"z\":0}", "{\"z\":0}");
    floe__arena_free(a);
    floe__sql_session_free(s);
}

static void test_errors(void)
{
    floe_sql_session *s = open_session();
    FT_ASSERT(s);
    floe_arena *a = floe__arena_new(0);
    expect_err(s, a, LIST_INT_REQ, false, "[1,null]",
               "Cannot write nullable values to non-null list element 'c.element'");
    expect_err(s, a, STRUCT_REQ, false, "{}",
               "Cannot write nullable values to non-null field 'c.z'");
    expect_err(s, a, STRUCT_REQ, true, NULL, "non-null column 'c'");
    expect_err(s, a, LIST_INT, false, "[2147483648]",
               "Cannot safely cast 'c.element': value '2147483648' does not fit type int");
    expect_err(s, a, LIST_INT, false, "[[1]]",
               "Cannot write to 'c.element': a list, map or struct");
    expect_err(s, a, MAP_INT_STR, false, "{\"x\":\"a\"}", "Cannot safely cast 'c.key'");
    expect_err(s, a, MAP_INT_STR, false, "{\"1\":\"a\",\"1\":\"b\"}", "duplicate map key '1'");
    expect_err(s, a, MAP_INT_STR, false, "[]", "expected a map (a JSON object)");
    expect_err(s, a, STRUCT_AB, false, "[1]", "different number of fields");
    expect_err(s, a, STRUCT_AB, false, "1", "expected a struct");
    expect_err(s, a, LIST_INT, false, "[1,", "is not a JSON value of type list");
    expect_err(s, a, LIST_DEC, false, "[1000]", "does not fit type decimal");
    floe__arena_free(a);
    floe__sql_session_free(s);
}

static void test_oom(void)
{
    floe_sql_session *s = open_session();
    FT_ASSERT(s);
    floe_arena *a = floe__arena_new(0);
    floe_field f = field_of(a, LIST_MAP, false);
    FT_ASSERT(f.type);
    const char *v = "[{\"k\":[1.5,null],\"j\":[]},null,{\"q\":null}]";
    floe_buf out = FLOE_BUF_INIT;
    for (long n = 1; n < 5000; n++) {
        floe__alloc_fail_at(n);
        int rc = roundtrip(s, &f, v, &out);
        floe__alloc_fail_at(0);
        if (rc == 0) {
            FT_EQ_STR(out.ptr, v);
            break;
        }
        if (rc != FLOE_ENOMEM) {
            ft_fail(__FILE__, __LINE__, "n=%ld rc=%d %s", n, rc, ft_floe_err());
            break;
        }
    }
    floe__buf_free(&out);
    floe__arena_free(a);
    floe__sql_session_free(s);
}

static const ft_case cases[] = {
    {"shapes", test_shapes},
    {"errors", test_errors},
    {"oom", test_oom},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
