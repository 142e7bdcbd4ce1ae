/* SPDX-License-Identifier: Apache-2.0 */
/* Shared helpers of the table tests: a SQLite catalog in the case's temp
 * directory, the seed's orders table, synthetic snapshots committed through
 * the commit protocol (add-snapshot + set-snapshot-ref; their manifest lists
 * are never read), storage listing and exact error checks. */
#ifndef FLOE_TEST_TABLE_FIXTURE_H
#define FLOE_TEST_TABLE_FIXTURE_H

#include "floe/table.h"
#include "harness.h"
#include "table/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ORDERS_SCHEMA                                                                              \
    "{\"type\":\"struct\",\"schema-id\":0,\"fields\":["                                            \
    "{\"id\":1,\"name\":\"order_id\",\"required\":false,\"type\":\"long\"},"                       \
    "{\"id\":2,\"name\":\"customer_id\",\"required\":false,\"type\":\"long\"},"                    \
    "{\"id\":3,\"name\":\"amount\",\"required\":false,\"type\":\"decimal(10, 2)\"},"               \
    "{\"id\":4,\"name\":\"status\",\"required\":false,\"type\":\"string\"},"                       \
    "{\"id\":5,\"name\":\"order_date\",\"required\":false,\"type\":\"date\"}]}"
#define ORDERS_SPEC                                                                                \
    "{\"fields\":[{\"source-id\":5,\"transform\":\"identity\",\"name\":\"order_date\"}]}"

/* The message of the last error must be exactly `msg`. */
#define FT_ERR_IS(ecode, msg)                                                                       \
    do {                                                                                           \
        const floe_error *ft__e = floe_error_last();                                               \
        if (!ft__e || ft__e->code != (ecode) || !ft__e->message ||                                  \
            strcmp(ft__e->message, (msg)) != 0)                                                    \
            ft_fail(__FILE__, __LINE__, "expected %s \"%s\", got %s", #ecode, (msg),                \
                    ft_floe_err());                                                                \
    } while (0)

static inline floe_catalog *fx_catalog(void)
{
    floe_catalog_options o = FLOE_CATALOG_OPTIONS_INIT;
    o.warehouse = ft_tmp("wh");
    floe_catalog *c = NULL;
    if (floe_catalog_open_sql(&c, ft_tmp("catalog.db"), &o) < 0) {
        ft_fail(__FILE__, __LINE__, "open catalog: %s", ft_floe_err());
        return NULL;
    }
    if (floe_catalog_namespace_exists(c, "shop") == 0)
        floe_catalog_create_namespace(c, "shop", NULL);
    return c;
}

static inline int fx_create(floe_table **out, floe_catalog *c, const char *ident,
                            const floe_props *props)
{
    floe_table_create_options co = FLOE_TABLE_CREATE_OPTIONS_INIT;
    co.schema_json = ORDERS_SCHEMA;
    co.partition_spec_json = ORDERS_SPEC;
    co.properties = props;
    return floe_table_create(out, c, ident, &co, NULL);
}

typedef struct fx_synth {
    const char *branch;  /* NULL = main */
    int64_t added;       /* added-records */
    bool stage;          /* add the snapshot without moving any ref */
    const char *wap_id;  /* summary wap.id */
    const char *operation;
    int64_t id;          /* out */
} fx_synth;

static inline const char *fx_summary(const floe_snapshot *s, const char *key)
{
    return s ? floe__snapshot_summary(s, key) : NULL;
}

static inline int fx_synth_prepare(const floe_table_metadata *base, floe_table_change *c, void *p)
{
    fx_synth *s = p;
    const char *branch = s->branch ? s->branch : "main";
    const floe_snapshot_ref *head = floe__metadata_ref(base, branch);
    const floe_snapshot *parent = head ? floe__metadata_snapshot(base, head->snapshot_id) : NULL;
    FLOE_TRY(floe__snapshot_id(&s->id));
    const char *pt = fx_summary(parent, "total-records");
    long long total = (pt ? atoll(pt) : 0) + s->added;
    floe_table_update *u = floe__change_update(c, FLOE_UPD_ADD_SNAPSHOT);
    floe_kv *kv = floe__arena_calloc(c->arena, 4, sizeof *kv);
    if (!u || !kv)
        return floe__error_nomem();
    floe_snapshot *sn = &u->snapshot;
    sn->snapshot_id = s->id;
    sn->has_parent = parent != NULL;
    sn->parent_snapshot_id = parent ? parent->snapshot_id : 0;
    sn->sequence_number = base->last_sequence_number + 1;
    sn->timestamp_ms = floe__now_ms();
    FLOE_TRY(floe__snapshot_pack_manifest_list(
        sn, c->arena,
        floe__arena_sprintf(c->arena, "%s/metadata/snap-%lld-1-synthetic.avro", base->location,
                            (long long)s->id)));
    size_t n = 0;
    kv[n].key = "operation";
    kv[n++].value = (char *)(s->operation ? s->operation : "append");
    kv[n].key = "added-records";
    kv[n++].value = floe__arena_sprintf(c->arena, "%lld", (long long)s->added);
    kv[n].key = "total-records";
    kv[n++].value = floe__arena_sprintf(c->arena, "%lld", total);
    if (s->wap_id) {
        kv[n].key = "wap.id";
        kv[n++].value = (char *)s->wap_id;
    }
    FLOE_TRY(floe__snapshot_pack_summary(sn, c->arena, kv, n));
    if (s->stage)
        return 0;
    floe_snapshot_ref r = {0};
    if (head)
        r = *head;
    r.name = branch;
    r.type = FLOE_REF_BRANCH;
    r.snapshot_id = s->id;
    FLOE_TRY(floe__change_assert_ref(c, base, branch));
    return floe__change_set_ref(c, &r);
}

/* Commit a synthetic snapshot; returns its id (0 on failure, recorded). */
static inline int64_t fx_append(floe_table *t, int64_t added)
{
    fx_synth s = {0};
    s.added = added;
    if (floe__table_commit(t, fx_synth_prepare, &s) < 0) {
        ft_fail(__FILE__, __LINE__, "synthetic append: %s", ft_floe_err());
        return 0;
    }
    return s.id;
}

static inline void fx_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static inline int fx_count_cb(const floe_file_info *info, void *p)
{
    (void)info;
    ++*(int *)p;
    return 0;
}

typedef struct fx_counting {
    const char *suffix; /* NULL: every object */
    int n;
} fx_counting;

static inline int fx_count_suffix_cb(const floe_file_info *info, void *p)
{
    fx_counting *c = p;
    size_t n = strlen(info->uri), k = c->suffix ? strlen(c->suffix) : 0;
    if (n >= k && (!k || strcmp(info->uri + n - k, c->suffix) == 0))
        c->n++;
    return 0;
}

/* Number of objects under the table location (whose name ends in
 * `suffix`, unless NULL). */
static inline int fx_count_files_ending(floe_table *t, const char *suffix)
{
    fx_counting c = {suffix, 0};
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%s/", floe_table_location(t));
    if (floe_fileio_list(floe_table_io(t), prefix, fx_count_suffix_cb, &c) < 0)
        return -1;
    return c.n;
}

static inline int fx_count_files(floe_table *t)
{
    return fx_count_files_ending(t, NULL);
}

static inline int64_t fx_main(floe_table *t)
{
    floe_snapshot_info s;
    return floe_table_current_snapshot(&s, t) ? s.snapshot_id : -1;
}

#endif
