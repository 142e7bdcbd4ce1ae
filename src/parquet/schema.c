/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parquet/schema: the Parquet schema tree (SchemaElement list with
 * num_children, definition/repetition levels), the Iceberg -> Parquet type
 * mapping of the Iceberg spec ("Parquet" section: field_id on every element,
 * 3-level lists, key_value maps, decimals by precision) and the reverse
 * inference used when reading files with no expected schema.
 */
#include "parquet/parquet.h"

#include <string.h>

#define MAX_DEPTH 64

typedef struct tree_ctx {
    floe_arena *arena;
    const floe_pq_schema_element *els;
    size_t n, pos;
    floe_vec leaves;
    const char *what;
} tree_ctx;

static int build_node(tree_ctx *c, floe_pq_node *parent, floe_pq_node **out, int depth)
{
    if (depth > MAX_DEPTH)
        return floe__error(FLOE_ECORRUPT, "parquet", "schema nested too deep in %s", c->what);
    if (c->pos >= c->n)
        return floe__error(FLOE_ECORRUPT, "parquet",
                           "schema num_children exceeds the element count in %s", c->what);
    const floe_pq_schema_element *el = &c->els[c->pos++];
    floe_pq_node *n = floe__arena_calloc(c->arena, 1, sizeof(*n));
    if (!n)
        return floe__error_nomem();
    n->el = el;
    n->parent = parent;
    n->depth = depth;
    n->leaf = -1;
    n->max_def = parent ? parent->max_def : 0;
    n->max_rep = parent ? parent->max_rep : 0;
    if (parent) {
        if (el->repetition == FLOE_PQ_OPTIONAL)
            n->max_def++;
        else if (el->repetition == FLOE_PQ_REPEATED) {
            n->max_def++;
            n->max_rep++;
        }
    }
    if (el->type < 0 || (parent == NULL)) {
        if (el->num_children < 0 || (size_t)el->num_children > c->n - c->pos)
            return floe__error(FLOE_ECORRUPT, "parquet", "bad num_children %d in %s",
                               el->num_children, c->what);
        n->nchildren = (size_t)el->num_children;
        if (n->nchildren) {
            n->children = floe__arena_calloc(c->arena, n->nchildren, sizeof(floe_pq_node *));
            if (!n->children)
                return floe__error_nomem();
        }
        for (size_t i = 0; i < n->nchildren; i++)
            FLOE_TRY(build_node(c, n, &n->children[i], depth + 1));
        if (parent && n->nchildren == 0)
            return floe__error(FLOE_ECORRUPT, "parquet", "empty group %s in %s", el->name,
                               c->what);
    } else {
        floe_pq_node **slot = floe__vec_push(&c->leaves);
        if (!slot)
            return floe__error_nomem();
        n->leaf = (int)(c->leaves.len - 1);
        *slot = n;
    }
    *out = n;
    return 0;
}

int floe__pq_tree_build(floe_pq_tree *out, floe_arena *arena, const floe_pq_schema_element *els,
                        size_t n, const char *what)
{
    tree_ctx c = {arena, els, n, 0, FLOE_VEC_INIT(floe_pq_node *), what ? what : "parquet"};
    memset(out, 0, sizeof(*out));
    int rc = build_node(&c, NULL, &out->root, 0);
    if (rc == 0 && c.pos != n)
        rc = floe__error(FLOE_ECORRUPT, "parquet", "schema has %zu unreachable elements in %s",
                         n - c.pos, c.what);
    if (rc == 0) {
        out->nleaves = c.leaves.len;
        out->leaves = floe__arena_calloc(arena, c.leaves.len + 1, sizeof(floe_pq_node *));
        if (!out->leaves)
            rc = floe__error_nomem();
        else if (c.leaves.len)
            memcpy(out->leaves, c.leaves.items, c.leaves.len * sizeof(floe_pq_node *));
    }
    floe__vec_free(&c.leaves);
    return rc;
}

int floe__pq_decimal_bytes(int precision)
{
    /* smallest n with 2^(8n-1) > 10^p - 1 */
    for (int n = 1; n <= 16; n++) {
        double maxv = 1;
        for (int i = 0; i < 8 * n - 1; i++)
            maxv *= 2;
        double p10 = 1;
        for (int i = 0; i < precision; i++)
            p10 *= 10;
        if (maxv >= p10)
            return n;
    }
    return 16;
}

/* ---------------------------------------------------------------- inference */

typedef struct infer_ctx {
    floe_arena *arena;
    int32_t next_id;
} infer_ctx;

static bool is_list_group(const floe_pq_schema_element *el)
{
    return el->type < 0 && (el->logical == FLOE_PQ_LT_LIST || el->converted_type == FLOE_PQ_CT_LIST);
}

static bool is_map_group(const floe_pq_schema_element *el)
{
    return el->type < 0 &&
           (el->logical == FLOE_PQ_LT_MAP || el->converted_type == FLOE_PQ_CT_MAP ||
            el->converted_type == FLOE_PQ_CT_MAP_KEY_VALUE);
}

static int infer_type(infer_ctx *c, const floe_pq_node *n, const floe_type **out);

static int32_t node_id(infer_ctx *c, const floe_pq_node *n)
{
    return n->el->has_field_id ? n->el->field_id : c->next_id++;
}

static int infer_primitive(infer_ctx *c, const floe_pq_schema_element *el, floe_type *t)
{
    FLOE_UNUSED(c);
    int lt = el->logical, ct = el->converted_type;
    bool dec = lt == FLOE_PQ_LT_DECIMAL || ct == FLOE_PQ_CT_DECIMAL;
    if (dec) {
        t->id = FLOE_T_DECIMAL;
        t->precision = lt == FLOE_PQ_LT_DECIMAL ? el->lt_precision : el->precision;
        t->scale = lt == FLOE_PQ_LT_DECIMAL ? el->lt_scale : el->scale;
        if (t->precision <= 0 || t->precision > 38 || t->scale < 0 || t->scale > t->precision)
            return floe__error(FLOE_EUNSUPPORTED, "parquet", "unsupported decimal(%d,%d) for %s",
                               t->precision, t->scale, el->name);
        return 0;
    }
    switch (el->type) {
    case FLOE_PQ_BOOLEAN: t->id = FLOE_T_BOOLEAN; return 0;
    case FLOE_PQ_INT32:
        if (lt == FLOE_PQ_LT_DATE || ct == FLOE_PQ_CT_DATE)
            t->id = FLOE_T_DATE;
        else if (lt == FLOE_PQ_LT_TIME || ct == FLOE_PQ_CT_TIME_MILLIS)
            t->id = FLOE_T_TIME;
        else if (ct == FLOE_PQ_CT_UINT_32 || (lt == FLOE_PQ_LT_INTEGER && !el->lt_signed &&
                                              el->lt_bit_width == 32))
            t->id = FLOE_T_LONG;
        else
            t->id = FLOE_T_INT;
        return 0;
    case FLOE_PQ_INT64:
        if (lt == FLOE_PQ_LT_TIME || ct == FLOE_PQ_CT_TIME_MICROS)
            t->id = FLOE_T_TIME;
        else if (lt == FLOE_PQ_LT_TIMESTAMP)
            t->id = el->lt_unit == FLOE_PQ_UNIT_NANOS
                        ? (el->lt_utc ? FLOE_T_TIMESTAMPTZ_NS : FLOE_T_TIMESTAMP_NS)
                        : (el->lt_utc ? FLOE_T_TIMESTAMPTZ : FLOE_T_TIMESTAMP);
        else if (ct == FLOE_PQ_CT_TIMESTAMP_MICROS || ct == FLOE_PQ_CT_TIMESTAMP_MILLIS)
            t->id = FLOE_T_TIMESTAMPTZ;
        else
            t->id = FLOE_T_LONG;
        return 0;
    case FLOE_PQ_INT96: t->id = FLOE_T_TIMESTAMPTZ; return 0;
    case FLOE_PQ_FLOAT: t->id = FLOE_T_FLOAT; return 0;
    case FLOE_PQ_DOUBLE: t->id = FLOE_T_DOUBLE; return 0;
    case FLOE_PQ_BYTE_ARRAY:
        t->id = (lt == FLOE_PQ_LT_STRING || lt == FLOE_PQ_LT_ENUM || lt == FLOE_PQ_LT_JSON ||
                 ct == FLOE_PQ_CT_UTF8 || ct == FLOE_PQ_CT_ENUM || ct == FLOE_PQ_CT_JSON)
                    ? FLOE_T_STRING
                    : FLOE_T_BINARY;
        return 0;
    case FLOE_PQ_FIXED_LEN_BYTE_ARRAY:
        if (lt == FLOE_PQ_LT_UUID && el->type_length == 16) {
            t->id = FLOE_T_UUID;
        } else {
            t->id = FLOE_T_FIXED;
            t->length = el->type_length;
            if (t->length <= 0)
                return floe__error(FLOE_ECORRUPT, "parquet", "fixed column %s has length %d",
                                   el->name, el->type_length);
        }
        return 0;
    default:
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "unsupported physical type for %s",
                           el->name);
    }
}

/* The element node of a LIST-annotated group (LogicalTypes.md backward
 * compatibility rules for 2-level lists). */
const floe_pq_node *floe__pq_list_element(const floe_pq_node *list);
const floe_pq_node *floe__pq_list_element(const floe_pq_node *list)
{
    if (list->nchildren != 1)
        return NULL;
    const floe_pq_node *rep = list->children[0];
    if (rep->el->repetition != FLOE_PQ_REPEATED)
        return NULL;
    if (rep->el->type >= 0 || rep->nchildren != 1)
        return rep;
    const char *nm = rep->el->name;
    size_t ln = strlen(nm);
    if (!strcmp(nm, "array") || (ln > 6 && !strcmp(nm + ln - 6, "_tuple")))
        return rep;
    return rep->children[0];
}

static int make_field(infer_ctx *c, const floe_pq_node *n, floe_field *f)
{
    f->id = node_id(c, n);
    f->name = n->el->name;
    f->required = n->el->repetition == FLOE_PQ_REQUIRED;
    return infer_type(c, n, &f->type);
}

static int infer_type(infer_ctx *c, const floe_pq_node *n, const floe_type **out)
{
    if (n->depth > MAX_DEPTH)
        return floe__error(FLOE_ECORRUPT, "parquet", "schema nested too deep");
    floe_type *t = floe__arena_calloc(c->arena, 1, sizeof(*t));
    if (!t)
        return floe__error_nomem();
    *out = t;
    const floe_pq_schema_element *el = n->el;
    if (el->type >= 0 && n->parent) {
        if (el->repetition == FLOE_PQ_REPEATED) {
            /* bare repeated primitive: a list of required elements */
            floe_type *pt = floe__arena_calloc(c->arena, 1, sizeof(*pt));
            floe_field *e = floe__arena_calloc(c->arena, 1, sizeof(*e));
            if (!pt || !e)
                return floe__error_nomem();
            FLOE_TRY(infer_primitive(c, el, pt));
            e->id = c->next_id++;
            e->name = "element";
            e->required = true;
            e->type = pt;
            t->id = FLOE_T_LIST;
            t->element = e;
            return 0;
        }
        return infer_primitive(c, el, t);
    }
    if (n->parent && is_list_group(el)) {
        const floe_pq_node *en = floe__pq_list_element(n);
        if (!en)
            return floe__error(FLOE_EUNSUPPORTED, "parquet", "unsupported list layout for %s",
                               el->name);
        floe_field *e = floe__arena_calloc(c->arena, 1, sizeof(*e));
        if (!e)
            return floe__error_nomem();
        t->id = FLOE_T_LIST;
        t->element = e;
        e->id = node_id(c, en);
        e->name = "element";
        e->required = en->el->repetition != FLOE_PQ_OPTIONAL;
        if (en->el->repetition == FLOE_PQ_REPEATED && en->el->type >= 0) {
            floe_type *pt = floe__arena_calloc(c->arena, 1, sizeof(*pt));
            if (!pt)
                return floe__error_nomem();
            FLOE_TRY(infer_primitive(c, en->el, pt));
            e->type = pt;
            return 0;
        }
        if (en->el->repetition == FLOE_PQ_REPEATED) {
            /* repeated group as element: a struct */
            floe_type *st = floe__arena_calloc(c->arena, 1, sizeof(*st));
            floe_field *fs = floe__arena_calloc(c->arena, en->nchildren, sizeof(*fs));
            if (!st || !fs)
                return floe__error_nomem();
            st->id = FLOE_T_STRUCT;
            st->nfields = en->nchildren;
            st->fields = fs;
            for (size_t i = 0; i < en->nchildren; i++)
                FLOE_TRY(make_field(c, en->children[i], &fs[i]));
            e->type = st;
            return 0;
        }
        return infer_type(c, en, &e->type);
    }
    if (n->parent && is_map_group(el)) {
        if (n->nchildren != 1 || n->children[0]->nchildren != 2 ||
            n->children[0]->el->repetition != FLOE_PQ_REPEATED)
            return floe__error(FLOE_EUNSUPPORTED, "parquet", "unsupported map layout for %s",
                               el->name);
        const floe_pq_node *kv = n->children[0];
        floe_field *k = floe__arena_calloc(c->arena, 2, sizeof(*k));
        if (!k)
            return floe__error_nomem();
        t->id = FLOE_T_MAP;
        t->key = &k[0];
        t->value = &k[1];
        FLOE_TRY(make_field(c, kv->children[0], &k[0]));
        FLOE_TRY(make_field(c, kv->children[1], &k[1]));
        k[0].name = "key";
        k[1].name = "value";
        k[0].required = true;
        return 0;
    }
    if (n->parent && el->repetition == FLOE_PQ_REPEATED)
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "unannotated repeated group %s",
                           el->name);
    t->id = FLOE_T_STRUCT;
    t->nfields = n->nchildren;
    floe_field *fs = floe__arena_calloc(c->arena, n->nchildren ? n->nchildren : 1, sizeof(*fs));
    if (!fs)
        return floe__error_nomem();
    t->fields = fs;
    for (size_t i = 0; i < n->nchildren; i++)
        FLOE_TRY(make_field(c, n->children[i], &fs[i]));
    return 0;
}

static int32_t max_id(const floe_pq_node *n)
{
    int32_t m = n->el->has_field_id ? n->el->field_id : 0;
    for (size_t i = 0; i < n->nchildren; i++) {
        int32_t c = max_id(n->children[i]);
        if (c > m)
            m = c;
    }
    return m;
}

int floe__pq_infer_schema(floe_schema **out, floe_arena *arena, const floe_pq_tree *tree)
{
    infer_ctx c = {arena, 0};
    int32_t m = max_id(tree->root);
    /* keep inferred ids clear of the reserved metadata ids (2147483xxx) */
    c.next_id = (m > 0 && m < 2000000000 ? m : 0) + 1;
    floe_schema *s = floe__arena_calloc(arena, 1, sizeof(*s));
    if (!s)
        return floe__error_nomem();
    FLOE_TRY(infer_type(&c, tree->root, &s->root));
    s->highest_field_id = c.next_id - 1 > m ? c.next_id - 1 : m;
    *out = s;
    return 0;
}

/* ---------------------------------------------------------------- Iceberg -> Parquet */

typedef struct emit_ctx {
    floe_arena *arena;
    floe_vec els; /* floe_pq_schema_element */
} emit_ctx;

/* Avro-compatible name, as Iceberg Java does for Parquet column names
 * (AvroSchemaUtil.makeCompatibleName): invalid characters become _xHH. */
static const char *compatible_name(floe_arena *a, const char *name)
{
    bool ok = name[0] && ((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') ||
                          name[0] == '_' || (unsigned char)name[0] >= 0x80);
    for (const char *p = name + 1; ok && *p; p++) {
        unsigned char ch = (unsigned char)*p;
        ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
             ch == '_' || ch >= 0x80;
    }
    if (ok)
        return name;
    floe_buf b = FLOE_BUF_INIT;
    for (const char *p = name; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        bool letter = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
                      ch >= 0x80;
        bool digit = ch >= '0' && ch <= '9';
        if (p == name && digit) {
            floe__buf_putc(&b, '_');
            floe__buf_putc(&b, (char)ch);
        } else if (letter || (digit && p != name)) {
            floe__buf_putc(&b, (char)ch);
        } else {
            floe__buf_printf(&b, "_x%X", ch);
        }
    }
    const char *r = b.ptr ? floe__arena_strdup(a, b.ptr) : NULL;
    floe__buf_free(&b);
    return r;
}

static floe_pq_schema_element *push_el(emit_ctx *c)
{
    floe_pq_schema_element *e = floe__vec_push(&c->els);
    if (!e)
        return NULL;
    e->type = -1;
    e->repetition = FLOE_PQ_REQUIRED;
    e->converted_type = -1;
    return e;
}

static int emit_field(emit_ctx *c, const char *name, int32_t id, bool has_id, int repetition,
                      const floe_type *t, int depth);

static int emit_primitive(floe_pq_schema_element *e, const floe_type *t)
{
    switch (t->id) {
    case FLOE_T_BOOLEAN: e->type = FLOE_PQ_BOOLEAN; break;
    case FLOE_T_INT: e->type = FLOE_PQ_INT32; break;
    case FLOE_T_LONG: e->type = FLOE_PQ_INT64; break;
    case FLOE_T_FLOAT: e->type = FLOE_PQ_FLOAT; break;
    case FLOE_T_DOUBLE: e->type = FLOE_PQ_DOUBLE; break;
    case FLOE_T_DATE:
        e->type = FLOE_PQ_INT32;
        e->converted_type = FLOE_PQ_CT_DATE;
        e->logical = FLOE_PQ_LT_DATE;
        break;
    case FLOE_T_TIME:
        e->type = FLOE_PQ_INT64;
        e->logical = FLOE_PQ_LT_TIME;
        e->lt_unit = FLOE_PQ_UNIT_MICROS;
        break;
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS: {
        bool ns = t->id == FLOE_T_TIMESTAMP_NS || t->id == FLOE_T_TIMESTAMPTZ_NS;
        e->type = FLOE_PQ_INT64;
        e->logical = FLOE_PQ_LT_TIMESTAMP;
        e->lt_utc = t->id == FLOE_T_TIMESTAMPTZ || t->id == FLOE_T_TIMESTAMPTZ_NS;
        e->lt_unit = ns ? FLOE_PQ_UNIT_NANOS : FLOE_PQ_UNIT_MICROS;
        /* ConvertedType TIMESTAMP_MICROS means UTC-adjusted: only then */
        if (e->lt_utc && !ns)
            e->converted_type = FLOE_PQ_CT_TIMESTAMP_MICROS;
        break;
    }
    case FLOE_T_STRING:
        e->type = FLOE_PQ_BYTE_ARRAY;
        e->converted_type = FLOE_PQ_CT_UTF8;
        e->logical = FLOE_PQ_LT_STRING;
        break;
    case FLOE_T_UUID:
        e->type = FLOE_PQ_FIXED_LEN_BYTE_ARRAY;
        e->type_length = 16;
        e->logical = FLOE_PQ_LT_UUID;
        break;
    case FLOE_T_FIXED:
        e->type = FLOE_PQ_FIXED_LEN_BYTE_ARRAY;
        e->type_length = t->length;
        break;
    case FLOE_T_BINARY: e->type = FLOE_PQ_BYTE_ARRAY; break;
    case FLOE_T_DECIMAL:
        if (t->precision <= 0 || t->precision > 38)
            return floe__error(FLOE_EINVALID, "parquet", "decimal precision %d", t->precision);
        e->type = t->precision <= 9    ? FLOE_PQ_INT32
                  : t->precision <= 18 ? FLOE_PQ_INT64
                                       : FLOE_PQ_FIXED_LEN_BYTE_ARRAY;
        if (e->type == FLOE_PQ_FIXED_LEN_BYTE_ARRAY)
            e->type_length = floe__pq_decimal_bytes(t->precision);
        e->converted_type = FLOE_PQ_CT_DECIMAL;
        e->scale = e->lt_scale = t->scale;
        e->precision = e->lt_precision = t->precision;
        e->logical = FLOE_PQ_LT_DECIMAL;
        break;
    default:
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "cannot write Iceberg type %d to Parquet",
                           t->id);
    }
    return 0;
}

/* The fields of struct t under the element at idx: unknown fields are never
 * written (spec "Primitive Types": readers produce null for them). */
static int emit_struct(emit_ctx *c, size_t idx, const floe_type *t, int depth)
{
    int32_t n = 0;
    for (size_t i = 0; i < t->nfields; i++) {
        const floe_field *f = &t->fields[i];
        if (f->type->id == FLOE_T_UNKNOWN)
            continue;
        FLOE_TRY(emit_field(c, f->name, f->id, true,
                            f->required ? FLOE_PQ_REQUIRED : FLOE_PQ_OPTIONAL, f->type, depth + 1));
        n++;
    }
    floe_pq_schema_element *e = floe__vec_at(&c->els, idx);
    e->num_children = n;
    if (n == 0) /* parquet-mr's message, as Iceberg's writer meets it */
        return floe__error(FLOE_EUNSUPPORTED, "parquet",
                           "Cannot write a schema with an empty group: %s (only unknown fields)",
                           e->name);
    return 0;
}

static int emit_field(emit_ctx *c, const char *name, int32_t id, bool has_id, int repetition,
                      const floe_type *t, int depth)
{
    if (depth > MAX_DEPTH)
        return floe__error(FLOE_EINVALID, "parquet", "schema nested too deep");
    size_t idx = c->els.len;
    floe_pq_schema_element *e = push_el(c);
    if (!e)
        return floe__error_nomem();
    e->name = compatible_name(c->arena, name);
    if (!e->name)
        return floe__error_nomem();
    e->repetition = repetition;
    e->has_field_id = has_id;
    e->field_id = id;
    if (!floe_type_is_nested(t))
        return emit_primitive(e, t);
    if (t->id == FLOE_T_STRUCT) {
        return emit_struct(c, idx, t, depth);
    }
    /* Java's TypeToMessageType: a list or map of unknown has no Parquet form */
    const floe_field *inner = t->id == FLOE_T_LIST                 ? t->element
                              : t->key->type->id == FLOE_T_UNKNOWN ? t->key
                                                                   : t->value;
    if (inner->type->id == FLOE_T_UNKNOWN)
        return floe__error(FLOE_EUNSUPPORTED, "parquet", "Cannot convert %s Parquet: unknown",
                           t->id == FLOE_T_LIST ? "element"
                           : inner == t->key    ? "key"
                                                : "value");
    e->num_children = 1;
    if (t->id == FLOE_T_LIST) {
        e->converted_type = FLOE_PQ_CT_LIST;
        e->logical = FLOE_PQ_LT_LIST;
        floe_pq_schema_element *r = push_el(c);
        if (!r)
            return floe__error_nomem();
        r->name = "list";
        r->repetition = FLOE_PQ_REPEATED;
        r->num_children = 1;
        const floe_field *el = t->element;
        return emit_field(c, "element", el->id, true,
                          el->required ? FLOE_PQ_REQUIRED : FLOE_PQ_OPTIONAL, el->type, depth + 2);
    }
    /* map */
    e = floe__vec_at(&c->els, idx);
    e->converted_type = FLOE_PQ_CT_MAP;
    e->logical = FLOE_PQ_LT_MAP;
    floe_pq_schema_element *r = push_el(c);
    if (!r)
        return floe__error_nomem();
    r->name = "key_value";
    r->repetition = FLOE_PQ_REPEATED;
    r->num_children = 2;
    FLOE_TRY(emit_field(c, "key", t->key->id, true, FLOE_PQ_REQUIRED, t->key->type, depth + 2));
    return emit_field(c, "value", t->value->id, true,
                      t->value->required ? FLOE_PQ_REQUIRED : FLOE_PQ_OPTIONAL, t->value->type,
                      depth + 2);
}

int floe__pq_schema_from_iceberg(floe_pq_schema_element **out, size_t *n, floe_arena *arena,
                                 const floe_schema *schema)
{
    emit_ctx c = {arena, FLOE_VEC_INIT(floe_pq_schema_element)};
    floe_pq_schema_element *root = push_el(&c);
    int rc = 0;
    if (!root) {
        rc = floe__error_nomem();
        goto done;
    }
    root->name = "table";
    root->repetition = -1;
    rc = emit_struct(&c, 0, schema->root, 0);
    if (rc == 0) {
        *out = floe__arena_memdup(arena, c.els.items, c.els.len * sizeof(floe_pq_schema_element));
        *n = c.els.len;
        if (!*out)
            rc = floe__error_nomem();
    }
done:
    floe__vec_free(&c.els);
    return rc;
}

/* ---------------------------------------------------------------- statistics values */

int floe__pq_stat_value(const floe_pq_schema_element *el, const floe_pq_bytes *b, floe_type *type,
                        floe_value *out)
{
    infer_ctx c = {NULL, 0};
    memset(type, 0, sizeof(*type));
    memset(out, 0, sizeof(*out));
    FLOE_TRY(infer_primitive(&c, el, type));
    out->type = type->id;
    const uint8_t *p = b->ptr;
    size_t n = b->len;
    int64_t unit = 1;
    switch (type->id) {
    case FLOE_T_BOOLEAN:
        if (n != 1) goto bad;
        out->v.b = p[0] != 0;
        return 0;
    case FLOE_T_INT:
    case FLOE_T_DATE:
        if (n != 4) goto bad;
        memcpy(&out->v.i32, p, 4);
        return 0;
    case FLOE_T_FLOAT:
        if (n != 4) goto bad;
        memcpy(&out->v.f32, p, 4);
        return 0;
    case FLOE_T_DOUBLE:
        if (n != 8) goto bad;
        memcpy(&out->v.f64, p, 8);
        return 0;
    case FLOE_T_DECIMAL: {
        out->scale = type->scale;
        if (el->type == FLOE_PQ_INT32 && n == 4) {
            int32_t v;
            memcpy(&v, p, 4);
            out->v.dec = v;
        } else if (el->type == FLOE_PQ_INT64 && n == 8) {
            int64_t v;
            memcpy(&v, p, 8);
            out->v.dec = v;
        } else if ((el->type == FLOE_PQ_FIXED_LEN_BYTE_ARRAY || el->type == FLOE_PQ_BYTE_ARRAY) &&
                   n >= 1 && n <= 16) {
            floe_u128 v = 0;
            for (size_t i = 0; i < n; i++)
                v = (v << 8) | p[i];
            if (n < 16 && (p[0] & 0x80))
                v |= ~(floe_u128)0 << (8 * n);
            out->v.dec = (floe_i128)v;
        } else {
            goto bad;
        }
        return 0;
    }
    case FLOE_T_TIME:
        if (el->type == FLOE_PQ_INT32 && n == 4) {
            int32_t v;
            memcpy(&v, p, 4);
            out->v.i64 = (int64_t)v * 1000; /* |v| < 2^31: no overflow */
            return 0;
        }
        if (n != 8) goto bad;
        memcpy(&out->v.i64, p, 8);
        if (el->logical == FLOE_PQ_LT_TIME && el->lt_unit == FLOE_PQ_UNIT_NANOS)
            out->v.i64 /= 1000;
        return 0;
    case FLOE_T_TIMESTAMP:
    case FLOE_T_TIMESTAMPTZ:
    case FLOE_T_TIMESTAMP_NS:
    case FLOE_T_TIMESTAMPTZ_NS:
        if (n != 8) goto bad; /* INT96 statistics are not meaningful */
        memcpy(&out->v.i64, p, 8);
        if ((el->logical == FLOE_PQ_LT_TIMESTAMP && el->lt_unit == FLOE_PQ_UNIT_MILLIS) ||
            el->converted_type == FLOE_PQ_CT_TIMESTAMP_MILLIS)
            unit = 1000;
        out->v.i64 = (int64_t)((uint64_t)out->v.i64 * (uint64_t)unit);
        return 0;
    case FLOE_T_LONG:
        if (n == 4) {
            int32_t v;
            memcpy(&v, p, 4);
            out->v.i64 = v;
            return 0;
        }
        if (n != 8) goto bad;
        memcpy(&out->v.i64, p, 8);
        return 0;
    case FLOE_T_UUID:
    case FLOE_T_FIXED:
    case FLOE_T_STRING:
    case FLOE_T_BINARY:
        out->v.bytes.ptr = p;
        out->v.bytes.len = n;
        return 0;
    default:
        break;
    }
bad:
    return floe__error(FLOE_ECORRUPT, "parquet", "statistics value of %zu bytes for column %s", n,
                       el->name);
}
