/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rest/model_internal: JSON field helpers shared by the model's request and
 * response halves and by the in-memory backend. Each getter returns 1 when the
 * field was present, 0 when an optional field is absent (or null), and
 * FLOE_EINVALID naming `path` and the field otherwise.
 */
#ifndef FLOE_REST_MODEL_INTERNAL_H
#define FLOE_REST_MODEL_INTERNAL_H

#include "model.h"

int floe__rest_bad(const char *path, const char *fmt, ...) FLOE_PRINTF(2, 3);
#ifdef __clang_analyzer__
/* For clang's static analyzer only (as util.h does for floe__error): it is
 * FLOE_EINVALID, which the analyzer cannot see from another file, so that it
 * stops following a getter's "required field missing" as a success. */
#define floe__rest_bad(...) (floe__rest_bad(__VA_ARGS__), FLOE_EINVALID)
#endif
int floe__rest_load(json_t **out, const char *text, size_t len, const char *what);
int floe__rest_get_str(json_t *obj, const char *path, const char *key, bool required,
                       const char **out);
int floe__rest_get_int(json_t *obj, const char *path, const char *key, bool required,
                       int64_t *out);
int floe__rest_get_obj(json_t *obj, const char *path, const char *key, bool required,
                       json_t **out);
int floe__rest_get_map(json_t *obj, const char *path, const char *key, floe_props *out);
int floe__rest_parse_namespace(floe_arena *a, json_t *v, const char *path,
                               floe_rest_namespace *out);
int floe__rest_parse_ident(floe_arena *a, json_t *v, const char *path, floe_rest_ident *out);
int floe__rest_check_schema(json_t *s, const char *path);
int floe__rest_check_spec(json_t *s, const char *path);
int floe__rest_check_sort_order(json_t *s, const char *path);

#endif
