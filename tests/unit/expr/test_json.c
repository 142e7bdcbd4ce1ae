/* SPDX-License-Identifier: Apache-2.0 */
/* expr/json: the REST expression JSON (open-api Expression, the forms of
 * Java's ExpressionParser) into floe expressions, typed by the schema, and
 * back; every error path with its message. */
#include "expr/expr.h"
#include "harness.h"
#include "spec/spec.h"

#include <string.h>

static const char SCHEMA[] =
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["
    "{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"},"
    "{\"id\":2,\"name\":\"name\",\"required\":false,\"type\":\"string\"},"
    "{\"id\":3,\"name\":\"price\",\"required\":false,\"type\":\"decimal(9, 2)\"},"
    "{\"id\":4,\"name\":\"d\",\"required\":false,\"type\":\"date\"},"
    "{\"id\":5,\"name\":\"b\",\"required\":false,\"type\":\"binary\"},"
    "{\"id\":6,\"name\":\"x\",\"required\":false,\"type\":\"double\"},"
    "{\"id\":7,\"name\":\"ts\",\"required\":false,\"type\":\"timestamptz\"}]}";

typedef struct env {
    floe_arena *a;
    floe_json *j;
    floe_schema *s;
} env;

static bool env_init(env *e)
{
    memset(e, 0, sizeof *e);
    e->a = floe__arena_new(1024);
    if (!e->a || floe__json_parse(&e->j, SCHEMA, strlen(SCHEMA), "schema") < 0 ||
        floe__schema_from_json(&e->s, e->j, 0, e->a) < 0)
        return ft_fail(__FILE__, __LINE__, "schema: %s", ft_floe_err());
    return true;
}

static void env_free(env *e)
{
    if (e->s)
        floe__schema_release(e->s);
    floe__json_free(e->j);
    floe__arena_free(e->a);
}

/* parse (with the schema), bind, format: the bound text; and the JSON
 * floe writes for the unbound tree */
static void check(env *e, const char *in, const char *bound_text, const char *out_json)
{
    const floe_expr *x = NULL, *b = NULL;
    if (floe_expr_parse_json(&x, e->a, in, strlen(in), e->s, true) < 0) {
        ft_fail(__FILE__, __LINE__, "%s: %s", in, ft_floe_err());
        return;
    }
    floe_buf t = FLOE_BUF_INIT, j = FLOE_BUF_INIT;
    FT_OK(floe_expr_bind(&b, e->a, e->s, x, true));
    FT_OK(floe_expr_format(b, &t));
    FT_OK(floe_expr_to_json(x, &j));
    if (t.ptr && strcmp(t.ptr, bound_text) != 0)
        ft_fail(__FILE__, __LINE__, "%s: bound %s, want %s", in, t.ptr, bound_text);
    if (j.ptr && strcmp(j.ptr, out_json) != 0)
        ft_fail(__FILE__, __LINE__, "%s: wrote %s, want %s", in, j.ptr, out_json);
    floe__buf_free(&t);
    floe__buf_free(&j);
}

static void test_forms(void)
{
    env e;
    if (!env_init(&e))
        return;
    check(&e, "true", "true", "true");
    check(&e, "{\"type\":\"false\"}", "false", "false");
    check(&e, "{\"type\":\"literal\",\"value\":true}", "true", "true");
    check(&e, "{\"type\":\"eq\",\"term\":\"id\",\"value\":5}", "id = 5",
          "{\"type\":\"eq\",\"term\":\"id\",\"value\":5}");
    check(&e, "{\"type\":\"lt-eq\",\"term\":{\"type\":\"reference\",\"term\":\"price\"},"
              "\"value\":\"1.5\"}",
          "price <= 1.50", "{\"type\":\"lt-eq\",\"term\":\"price\",\"value\":\"1.50\"}");
    check(&e, "{\"type\":\"gt\",\"term\":\"d\",\"value\":{\"type\":\"literal\","
              "\"value\":\"2026-09-20\"}}",
          "d > '2026-09-20'", "{\"type\":\"gt\",\"term\":\"d\",\"value\":\"2026-09-20\"}");
    check(&e, "{\"type\":\"eq\",\"term\":\"b\",\"value\":\"78797a\"}", "b = X'78797a'",
          "{\"type\":\"eq\",\"term\":\"b\",\"value\":\"78797A\"}");
    check(&e, "{\"type\":\"and\",\"left\":{\"type\":\"not-null\",\"term\":\"name\"},"
              "\"right\":{\"type\":\"not\",\"child\":{\"type\":\"starts-with\",\"term\":\"name\","
              "\"value\":\"a\\\"b\"}}}",
          "(name IS NOT NULL AND name NOT STARTS WITH 'a\"b')",
          "{\"type\":\"and\",\"left\":{\"type\":\"not-null\",\"term\":\"name\"},\"right\":"
          "{\"type\":\"not\",\"child\":{\"type\":\"starts-with\",\"term\":\"name\",\"value\":"
          "\"a\\\"b\"}}}");
    check(&e, "{\"type\":\"in\",\"term\":\"id\",\"values\":[3,1,2]}", "id IN (3, 1, 2)",
          "{\"type\":\"in\",\"term\":\"id\",\"values\":[3,1,2]}");
    check(&e, "{\"type\":\"in\",\"term\":\"id\",\"values\":[]}", "false", "false");
    check(&e, "{\"type\":\"not-in\",\"term\":\"id\",\"values\":[]}", "true", "true");
    check(&e, "{\"type\":\"or\",\"left\":{\"type\":\"is-nan\",\"term\":\"x\"},\"right\":"
              "{\"type\":\"gt-eq\",\"term\":\"x\",\"value\":2.5}}",
          "(x IS NAN OR x >= 2.5)",
          "{\"type\":\"or\",\"left\":{\"type\":\"is-nan\",\"term\":\"x\"},\"right\":"
          "{\"type\":\"gt-eq\",\"term\":\"x\",\"value\":2.5}}");
    check(&e, "{\"type\":\"lt\",\"term\":\"ts\",\"value\":\"2026-01-02T03:04:05.000006+00:00\"}",
          "ts < '2026-01-02T03:04:05.000006+00:00'",
          "{\"type\":\"lt\",\"term\":\"ts\",\"value\":\"2026-01-02T03:04:05.000006+00:00\"}");
    /* without a schema literals keep their JSON kind; binding converts */
    const floe_expr *x = NULL, *b = NULL;
    static const char in[] = "{\"type\":\"eq\",\"term\":\"ID\",\"value\":7}";
    FT_OK(floe_expr_parse_json(&x, e.a, in, strlen(in), NULL, false));
    FT_CHECK(floe_expr_bind(&b, e.a, e.s, x, true) == FLOE_EINVALID); /* case */
    FT_OK(floe_expr_bind(&b, e.a, e.s, x, false));
    env_free(&e);
}

static void test_errors(void)
{
    env e;
    if (!env_init(&e))
        return;
    static const struct {
        const char *in, *msg;
        int code;
    } bad[] = {
        {"1", "an expression must be a boolean or an object", FLOE_EINVALID},
        {"{}", "missing type", FLOE_EINVALID},
        {"{\"type\":\"xor\"}", "unknown expression type: xor", FLOE_EINVALID},
        {"{\"type\":\"not\"}", "not without a child", FLOE_EINVALID},
        {"{\"type\":\"and\",\"left\":true}", "and needs left and right", FLOE_EINVALID},
        {"{\"type\":\"eq\",\"value\":1}", "predicate without a term", FLOE_EINVALID},
        {"{\"type\":\"eq\",\"term\":\"id\"}", "missing value", FLOE_EINVALID},
        {"{\"type\":\"eq\",\"term\":\"id\",\"value\":1,\"values\":[1]}", "invalid value field",
         FLOE_EINVALID},
        {"{\"type\":\"is-null\",\"term\":\"id\",\"value\":1}", "a unary predicate has no value",
         FLOE_EINVALID},
        {"{\"type\":\"in\",\"term\":\"id\",\"values\":1}", "missing values (an array)",
         FLOE_EINVALID},
        {"{\"type\":\"eq\",\"term\":\"id\",\"value\":null}", "a literal cannot be null",
         FLOE_EINVALID},
        {"{\"type\":\"eq\",\"term\":\"id\",\"value\":[1]}", "Cannot convert JSON to literal",
         FLOE_EINVALID},
        {"{\"type\":\"eq\",\"term\":\"id\",\"value\":{\"type\":\"x\"}}",
         "Cannot parse type as a literal", FLOE_EINVALID},
        {"{\"type\":\"eq\",\"term\":5,\"value\":1}", "a term must be a string or an object",
         FLOE_EINVALID},
        {"{\"type\":\"eq\",\"term\":\"\",\"value\":1}", "invalid reference", FLOE_EINVALID},
        {"{\"type\":\"eq\",\"term\":{\"type\":\"bucket\"},\"value\":1}",
         "Cannot parse type as a reference", FLOE_EINVALID},
        {"{\"type\":\"eq\",\"term\":{\"type\":\"transform\",\"transform\":\"day\",\"term\":\"d\"},"
         "\"value\":1}",
         "transform terms are not supported", FLOE_EUNSUPPORTED},
        {"{\"type\":\"literal\",\"value\":1}", "a literal expression needs a boolean value",
         FLOE_EINVALID},
        {"{\"type\":", "malformed JSON", FLOE_ECORRUPT},
    };
    for (size_t i = 0; i < FT_N(bad); i++) {
        const floe_expr *x = NULL;
        int rc = floe_expr_parse_json(&x, e.a, bad[i].in, strlen(bad[i].in), e.s, true);
        if (rc != bad[i].code)
            ft_fail(__FILE__, __LINE__, "%s: %d, want %d", bad[i].in, rc, bad[i].code);
        FT_ERR_CONTAINS(bad[i].msg);
    }
    env_free(&e);
}

static const ft_case cases[] = {
    {"forms", test_forms},
    {"errors", test_errors},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
