/* SPDX-License-Identifier: Apache-2.0 */
/*
 * examples/namespace_props: string properties (floe_props) through libfloe's
 * public API. Builds a property map, creates a namespace with it in a
 * SQLite catalog, changes one property and removes another, then reads the
 * namespace's properties back into a new map and prints them in order.
 *
 *   example_namespace_props /tmp/wh        # warehouse directory (created)
 *
 * Build: part of the CMake build (build/dev/example_namespace_props), or
 * against an installed libfloe:
 *   cc namespace_props.c $(pkg-config --cflags --libs floe) -o namespace_props
 */
#include <floe.h>

#include <stdio.h>
#include <sys/stat.h>

static int fail(const char *what)
{
    const floe_error *e = floe_error_last();
    fprintf(stderr, "%s: %s\n", what, e ? e->message : "?");
    return 1;
}

int main(int argc, char **argv)
{
    const char *wh = argc > 1 ? argv[1] : "/tmp/floe-example-wh";
    mkdir(wh, 0755);
    char db[4096];
    snprintf(db, sizeof db, "%s/catalog.db", wh);
    floe_catalog_options co = FLOE_CATALOG_OPTIONS_INIT;
    co.warehouse = wh;
    floe_catalog *cat = NULL;
    if (floe_catalog_open_sql(&cat, db, &co) < 0)
        return fail("open catalog");
    floe_catalog_drop_namespace(cat, "sales"); /* rerunnable */

    /* A map of properties: keys are unique and keep their insertion order. */
    floe_props *props = NULL;
    if (floe_props_new(&props) < 0 || floe_props_set(props, "owner", "ana") < 0 ||
        floe_props_set(props, "comment", "orders and refunds") < 0 ||
        floe_props_set(props, "retention", "30d") < 0)
        return fail("props");
    if (floe_catalog_create_namespace(cat, "sales", props) < 0)
        return fail("create namespace");
    floe_props_free(props);

    /* One transaction: set owner=bo, remove retention. */
    floe_props *updates = NULL;
    if (floe_props_new(&updates) < 0 || floe_props_set(updates, "owner", "bo") < 0)
        return fail("props");
    const char *removals[] = {"retention"};
    if (floe_catalog_update_namespace(cat, "sales", updates, removals, 1) < 0)
        return fail("update namespace");
    floe_props_free(updates);

    /* Read them back into a new, empty map. */
    floe_props *loaded = NULL;
    if (floe_props_new(&loaded) < 0)
        return fail("props");
    if (floe_catalog_load_namespace(loaded, cat, "sales") < 0)
        return fail("load namespace");
    printf("sales has %zu properties\n", floe_props_count(loaded));
    for (size_t i = 0; i < floe_props_count(loaded); i++)
        printf("  %s = %s\n", floe_props_key_at(loaded, i), floe_props_value_at(loaded, i));
    const char *retention = floe_props_get(loaded, "retention");
    printf("retention: %s\n", retention ? retention : "(not set)");
    floe_props_free(loaded);

    /* An unknown namespace is an error with a message, as everywhere. */
    floe_props *none = NULL;
    if (floe_props_new(&none) < 0)
        return fail("props");
    if (floe_catalog_load_namespace(none, cat, "nope") < 0)
        printf("loading nope: %s\n", floe_error_last()->message);
    floe_props_free(none);
    floe_catalog_free(cat);
    return 0;
}
