/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz target for the REST catalog request parsers (rest/model, rest/ident):
 * the first byte picks a parser, the rest is the body or path segment. Every
 * body that parses must serialise and parse again (a round trip), otherwise
 * the target aborts.
 */
#include "rest/model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ROUND_TRIP(type, parse, to_json, free_fn)                                                  \
    do {                                                                                           \
        type *r = NULL;                                                                            \
        if (parse(&r, text, len) == 0) {                                                           \
            size_t n;                                                                              \
            char *s = floe__rest_dump(to_json(r), &n);                                             \
            type *r2 = NULL;                                                                       \
            if (s && parse(&r2, s, n) != 0)                                                        \
                abort();                                                                           \
            free_fn(r2);                                                                           \
            floe__free(s);                                                                         \
            free_fn(r);                                                                            \
        }                                                                                          \
    } while (0)

/* The commit bodies serialise with floe's JSON writer (spec/commit). */
#define ROUND_TRIP_W(type, parse, write, free_fn)                                                  \
    do {                                                                                           \
        type *r = NULL;                                                                            \
        if (parse(&r, text, len) == 0) {                                                           \
            floe_buf b = FLOE_BUF_INIT;                                                            \
            type *r2 = NULL;                                                                       \
            if (write(&b, r) == 0 && parse(&r2, (const char *)b.ptr, b.len) != 0)                 \
                abort();                                                                           \
            free_fn(r2);                                                                           \
            floe__buf_free(&b);                                                                    \
            free_fn(r);                                                                            \
        }                                                                                          \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1 << 20)
        return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    switch (data[0] % 9) {
    case 0:
        ROUND_TRIP(floe_rest_create_namespace_req, floe__rest_parse_create_namespace,
                   floe__rest_create_namespace_to_json, floe__rest_create_namespace_free);
        break;
    case 1:
        ROUND_TRIP(floe_rest_update_namespace_props_req, floe__rest_parse_update_namespace_props,
                   floe__rest_update_namespace_props_to_json,
                   floe__rest_update_namespace_props_free);
        break;
    case 2:
        ROUND_TRIP(floe_rest_create_table_req, floe__rest_parse_create_table,
                   floe__rest_create_table_to_json, floe__rest_create_table_free);
        break;
    case 3:
        ROUND_TRIP(floe_rest_register_table_req, floe__rest_parse_register_table,
                   floe__rest_register_table_to_json, floe__rest_register_table_free);
        break;
    case 4:
        ROUND_TRIP(floe_rest_rename_table_req, floe__rest_parse_rename_table,
                   floe__rest_rename_table_to_json, floe__rest_rename_table_free);
        break;
    case 5:
        ROUND_TRIP_W(floe_rest_commit_table_req, floe__rest_parse_commit_table,
                     floe__rest_commit_table_write, floe__rest_commit_table_free);
        break;
    case 6:
        ROUND_TRIP_W(floe_rest_commit_transaction_req, floe__rest_parse_commit_transaction,
                     floe__rest_commit_transaction_write, floe__rest_commit_transaction_free);
        break;
    case 7: {
        /* response parsers, as the REST client will use them */
        floe_rest_config c;
        if (floe__rest_parse_config(&c, text, len) == 0)
            floe__rest_config_free(&c);
        floe_rest_table_result t;
        if (floe__rest_parse_table_result(&t, text, len, false) == 0)
            floe__rest_table_result_free(&t);
        floe_rest_namespace_list nl;
        floe_rest_ident_list il;
        char *next = NULL;
        if (floe__rest_parse_list_namespaces(&nl, &next, text, len) == 0) {
            floe__rest_namespace_list_free(&nl);
            floe__free(next);
        }
        if (floe__rest_parse_list_tables(&il, &next, text, len) == 0) {
            floe__rest_ident_list_free(&il);
            floe__free(next);
        }
        floe_rest_error e;
        if (floe__rest_parse_error(&e, text, len) == 0)
            floe__rest_error_free(&e);
        break;
    }
    default: {
        /* a path segment: percent-decode, split on %1F, check names */
        char *seg = floe__strndup(text, len);
        floe_arena *a = floe__arena_new(256);
        char *dec;
        size_t dlen;
        floe_rest_namespace ns;
        if (seg && a && floe__rest_percent_decode(a, seg, false, &dec, &dlen) == 0 &&
            floe__rest_namespace_split(a, dec, dlen, 0, &ns) == 0) {
            for (size_t i = 0; i < ns.n; i++)
                if (strcmp(ns.parts[i], "..") == 0 || strchr(ns.parts[i], '/'))
                    abort();
        }
        floe__arena_free(a);
        floe__free(seg);
        break;
    }
    }
    return 0;
}
