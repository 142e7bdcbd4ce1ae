/* SPDX-License-Identifier: Apache-2.0 */
/*
 * spec/partition: transform strings (spec "Partition Transforms"), partition
 * spec JSON and sort order JSON (spec "Appendix C: JSON serialization" —
 * Partition Specs, Sort Orders). Applying transforms lives in transform.c.
 *
 * Unknown transforms: the spec lets newer writers add transforms, and Java
 * keeps them as "unknown" (readable, never applied), so a plain identifier
 * we do not know ("zorder") is kept verbatim; a malformed spelling of a known
 * family ("bucket[x]", "bucket[0]", "truncate") is an error.
 */
#include "spec/spec.h"
#include "util/json_writer.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    floe_transform_kind kind;
} simple[] = {
    {"identity", FLOE_TR_IDENTITY}, {"year", FLOE_TR_YEAR}, {"month", FLOE_TR_MONTH},
    {"day", FLOE_TR_DAY},           {"hour", FLOE_TR_HOUR}, {"void", FLOE_TR_VOID},
};

static int bad_transform(const char *s)
{
    return floe__error(FLOE_EINVALID, "spec", "unknown transform '%s'", s);
}

int floe__transform_parse(const char *s, floe_arena *a, floe_transform *out)
{
    memset(out, 0, sizeof *out);
    out->name = floe__arena_strdup(a, s);
    if (!out->name)
        return floe__error_nomem();
    for (size_t i = 0; i < FLOE_ARRAY_LEN(simple); i++) {
        if (strcmp(s, simple[i].name) == 0) {
            out->kind = simple[i].kind;
            return 0;
        }
    }
    size_t plen = strncmp(s, "bucket", 6) == 0 ? 6 : strncmp(s, "truncate", 8) == 0 ? 8 : 0;
    if (plen) {
        const char *p = s + plen;
        if (*p != '[')
            return bad_transform(s);
        p++;
        int64_t v = 0;
        int nd = 0;
        while (*p >= '0' && *p <= '9' && nd < 11) {
            v = v * 10 + (*p++ - '0');
            nd++;
        }
        if (nd == 0 || *p != ']' || p[1] != '\0' || v < 1 || v > INT32_MAX)
            return bad_transform(s);
        out->kind = plen == 6 ? FLOE_TR_BUCKET : FLOE_TR_TRUNCATE;
        out->param = (int32_t)v;
        return 0;
    }
    /* Anything else must at least look like a transform name. */
    if (!*s)
        return bad_transform(s);
    for (const char *p = s; *p; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '[' || c == ']' || c == ',' || c == ' '))
            return bad_transform(s);
    }
    out->kind = FLOE_TR_UNKNOWN;
    return 0;
}

int floe__transform_format(const floe_transform *t, floe_buf *out)
{
    switch (t->kind) {
    case FLOE_TR_BUCKET: return floe__buf_printf(out, "bucket[%d]", (int)t->param);
    case FLOE_TR_TRUNCATE: return floe__buf_printf(out, "truncate[%d]", (int)t->param);
    case FLOE_TR_UNKNOWN: return floe__buf_puts(out, t->name ? t->name : "unknown");
    default:
        for (size_t i = 0; i < FLOE_ARRAY_LEN(simple); i++)
            if (simple[i].kind == t->kind)
                return floe__buf_puts(out, simple[i].name);
        return floe__buf_puts(out, t->name ? t->name : "unknown");
    }
}

static int put_transform(floe_jw *w, const floe_transform *t)
{
    floe_buf tmp = FLOE_BUF_INIT;
    int rc = floe__transform_format(t, &tmp);
    if (rc == 0)
        rc = floe__jw_strn(w, tmp.len ? tmp.ptr : "", tmp.len);
    floe__buf_free(&tmp);
    return rc;
}

/* "source-id", or v3 "source-ids" with a single element (multi-argument
 * transforms are not supported yet). */
static int source_id(const floe_json *f, const char *ctx, int32_t *out)
{
    floe_json *ids = floe__json_get(f, "source-ids");
    if (!floe__json_get(f, "source-id") && floe__json_is_array(ids)) {
        if (floe__json_len(ids) != 1 || !floe__json_is_integer(floe__json_at(ids, 0)))
            return floe__error(FLOE_EUNSUPPORTED, "spec",
                               "%s: multi-argument transforms (source-ids) are not supported", ctx);
        *out = (int32_t)floe__json_ival(floe__json_at(ids, 0));
        return 0;
    }
    return floe__json_i32(f, "source-id", ctx, out);
}

int floe__partition_spec_from_json(floe_partition_spec **out, const floe_json *j, int32_t spec_id,
                                   bool ids_required, floe_arena *a)
{
    *out = NULL;
    floe_partition_spec *s = floe__arena_calloc(a, 1, sizeof *s);
    if (!s)
        return floe__error_nomem();
    const floe_json *fields = j;
    s->spec_id = spec_id;
    if (floe__json_is_object(j)) {
        FLOE_TRY(floe__json_i32(j, "spec-id", "partition spec", &s->spec_id));
        fields = floe__json_get(j, "fields");
        if (!fields)
            return floe__error(FLOE_EINVALID, "spec",
                               "missing required field 'fields' in partition spec %d",
                               (int)s->spec_id);
    }
    if (!floe__json_is_array(fields))
        return floe__error(FLOE_EINVALID, "spec", "partition spec %d: fields must be an array",
                           (int)s->spec_id);
    size_t n = floe__json_len(fields);
    floe_partition_field *pf = floe__arena_calloc(a, n ? n : 1, sizeof *pf);
    if (!pf)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const floe_json *f = floe__json_at(fields, i);
        char ctx[96];
        snprintf(ctx, sizeof ctx, "partition spec %d field %zu", (int)s->spec_id, i);
        if (!floe__json_is_object(f))
            return floe__error(FLOE_EINVALID, "spec", "%s must be an object", ctx);
        FLOE_TRY(source_id(f, ctx, &pf[i].source_id));
        int64_t fid = 1000 + (int64_t)i;
        bool present;
        FLOE_TRY(floe__json_int_opt(f, "field-id", ctx, &fid, &present));
        if (!present && ids_required)
            return floe__error(FLOE_EINVALID, "spec", "missing required field 'field-id' in %s", ctx);
        pf[i].field_id = (int32_t)fid;
        FLOE_TRY(floe__json_str(f, "name", ctx, a, &pf[i].name));
        const char *tr;
        FLOE_TRY(floe__json_str(f, "transform", ctx, a, &tr));
        int rc = floe__transform_parse(tr, a, &pf[i].transform);
        if (rc < 0)
            return floe__error_context("%s", ctx);
    }
    s->nfields = n;
    s->fields = pf;
    *out = s;
    return 0;
}

int floe__partition_spec_to_json(const floe_partition_spec *s, floe_buf *out)
{
    floe_jw w;
    floe__jw_init(&w, out);
    FLOE_TRY(floe__jw_obj(&w));
    FLOE_TRY(floe__jw_kint(&w, "spec-id", s->spec_id));
    FLOE_TRY(floe__jw_key(&w, "fields"));
    FLOE_TRY(floe__jw_arr(&w));
    for (size_t i = 0; i < s->nfields; i++) {
        const floe_partition_field *f = &s->fields[i];
        FLOE_TRY(floe__jw_obj(&w));
        FLOE_TRY(floe__jw_kstr(&w, "name", f->name));
        FLOE_TRY(floe__jw_key(&w, "transform"));
        FLOE_TRY(put_transform(&w, &f->transform));
        FLOE_TRY(floe__jw_kint(&w, "source-id", f->source_id));
        FLOE_TRY(floe__jw_kint(&w, "field-id", f->field_id));
        FLOE_TRY(floe__jw_obj_end(&w));
    }
    FLOE_TRY(floe__jw_arr_end(&w));
    FLOE_TRY(floe__jw_obj_end(&w));
    return floe__jw_finish(&w);
}

int floe__sort_order_from_json(floe_sort_order **out, const floe_json *j, floe_arena *a)
{
    *out = NULL;
    if (!floe__json_is_object(j))
        return floe__error(FLOE_EINVALID, "spec", "a sort order must be an object");
    floe_sort_order *o = floe__arena_calloc(a, 1, sizeof *o);
    if (!o)
        return floe__error_nomem();
    FLOE_TRY(floe__json_i32(j, "order-id", "sort order", &o->order_id));
    floe_json *fields = floe__json_get(j, "fields");
    if (!floe__json_is_array(fields))
        return floe__error(FLOE_EINVALID, "spec",
                           "missing required field 'fields' in sort order %d", (int)o->order_id);
    size_t n = floe__json_len(fields);
    floe_sort_field *sf = floe__arena_calloc(a, n ? n : 1, sizeof *sf);
    if (!sf)
        return floe__error_nomem();
    for (size_t i = 0; i < n; i++) {
        const floe_json *f = floe__json_at(fields, i);
        char ctx[96];
        snprintf(ctx, sizeof ctx, "sort order %d field %zu", (int)o->order_id, i);
        if (!floe__json_is_object(f))
            return floe__error(FLOE_EINVALID, "spec", "%s must be an object", ctx);
        FLOE_TRY(source_id(f, ctx, &sf[i].source_id));
        const char *tr, *dir, *nulls;
        FLOE_TRY(floe__json_str(f, "transform", ctx, a, &tr));
        int rc = floe__transform_parse(tr, a, &sf[i].transform);
        if (rc < 0)
            return floe__error_context("%s", ctx);
        FLOE_TRY(floe__json_str(f, "direction", ctx, a, &dir));
        FLOE_TRY(floe__json_str(f, "null-order", ctx, a, &nulls));
        if (strcmp(dir, "asc") != 0 && strcmp(dir, "desc") != 0)
            return floe__error(FLOE_EINVALID, "spec", "%s: direction must be asc or desc", ctx);
        if (strcmp(nulls, "nulls-first") != 0 && strcmp(nulls, "nulls-last") != 0)
            return floe__error(FLOE_EINVALID, "spec",
                               "%s: null-order must be nulls-first or nulls-last", ctx);
        sf[i].descending = dir[0] == 'd';
        sf[i].nulls_first = strcmp(nulls, "nulls-first") == 0;
    }
    o->nfields = n;
    o->fields = sf;
    *out = o;
    return 0;
}

int floe__sort_order_to_json(const floe_sort_order *o, floe_buf *out)
{
    floe_jw w;
    floe__jw_init(&w, out);
    FLOE_TRY(floe__jw_obj(&w));
    FLOE_TRY(floe__jw_kint(&w, "order-id", o->order_id));
    FLOE_TRY(floe__jw_key(&w, "fields"));
    FLOE_TRY(floe__jw_arr(&w));
    for (size_t i = 0; i < o->nfields; i++) {
        const floe_sort_field *f = &o->fields[i];
        FLOE_TRY(floe__jw_obj(&w));
        FLOE_TRY(floe__jw_key(&w, "transform"));
        FLOE_TRY(put_transform(&w, &f->transform));
        FLOE_TRY(floe__jw_kint(&w, "source-id", f->source_id));
        FLOE_TRY(floe__jw_kstr(&w, "direction", f->descending ? "desc" : "asc"));
        FLOE_TRY(floe__jw_kstr(&w, "null-order", f->nulls_first ? "nulls-first" : "nulls-last"));
        FLOE_TRY(floe__jw_obj_end(&w));
    }
    FLOE_TRY(floe__jw_arr_end(&w));
    FLOE_TRY(floe__jw_obj_end(&w));
    return floe__jw_finish(&w);
}
