/* SPDX-License-Identifier: Apache-2.0 */
/* Test helper for the view tests (catalog/test_views.c, rest/test_views.c):
 * a one-column view schema, view options for a query, and a collector of
 * listed names. */
#ifndef FLOE_TEST_VIEWS_FIXTURE_H
#define FLOE_TEST_VIEWS_FIXTURE_H

#include "floe/catalog.h"

#include <stdio.h>

#define SCHEMA                                                                                     \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"n\",\"required\":false," \
    "\"type\":\"long\"}]}"

typedef struct names {
    char v[8][256];
    int n;
} names;

static inline int collect(const char *ns, const char *name, void *payload)
{
    names *n = payload;
    if (n->n < 8)
        snprintf(n->v[n->n], sizeof n->v[0], "%s.%s", ns, name);
    n->n++;
    return 0;
}

static inline floe_view_options opts(const char *sql)
{
    floe_view_options o = FLOE_VIEW_OPTIONS_INIT;
    o.sql = sql;
    o.schema_json = SCHEMA;
    return o;
}

#endif
