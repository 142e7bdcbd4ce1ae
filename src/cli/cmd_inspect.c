/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `floe inspect [--json] FILE`: describe an Iceberg file. The kind is found
 * from its first bytes so that new inspectors plug into one dispatch table:
 *   "Obj\x01"          Avro (manifests, manifest lists)   — not yet supported
 *   "PAR1"             Parquet data files                  — not yet supported
 *   "\x1f\x8b" or '{'  table metadata JSON (plain or gzip)
 */
#include "cli.h"

#include "spec/metadata.h"
#include "spec/spec.h"
#include "util/time.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

typedef int (*inspector)(const char *path, const void *data, size_t len, bool json);

static void print_time(int64_t ms)
{
    floe_buf b = FLOE_BUF_INIT;
    if (floe__time_format_iso(ms, NULL, &b) == 0)
        printf("%s", b.ptr);
    floe__buf_free(&b);
}

static void print_schema(const floe_schema *s, bool current)
{
    printf("  schema %d%s:\n", (int)s->schema_id, current ? " (current)" : "");
    for (size_t i = 0; i < s->root->nfields; i++) {
        const floe_field *f = &s->root->fields[i];
        floe_buf t = FLOE_BUF_INIT;
        floe__type_format(f->type, &t);
        printf("    %d: %s %s%s\n", (int)f->id, f->name, t.ptr ? t.ptr : "?",
               f->required ? " required" : "");
        floe__buf_free(&t);
    }
}

static void print_spec(const floe_partition_spec *s, bool current)
{
    printf("  spec %d%s:%s\n", (int)s->spec_id, current ? " (default)" : "",
           s->nfields ? "" : " unpartitioned");
    for (size_t i = 0; i < s->nfields; i++) {
        floe_buf t = FLOE_BUF_INIT;
        floe__transform_format(&s->fields[i].transform, &t);
        printf("    %d: %s = %s(%d)\n", (int)s->fields[i].field_id, s->fields[i].name,
               t.ptr ? t.ptr : "?", (int)s->fields[i].source_id);
        floe__buf_free(&t);
    }
}

static int inspect_metadata(const char *path, const void *data, size_t len, bool json)
{
    floe_table_metadata *m;
    if (floe__metadata_parse(&m, data, len, path) < 0)
        return cli_fail(NULL);
    if (json) {
        floe_buf b = FLOE_BUF_INIT;
        int rc = floe__metadata_write(m, &b);
        if (rc == 0)
            printf("%s\n", b.ptr);
        floe__buf_free(&b);
        floe__metadata_free(m);
        return rc < 0 ? cli_fail(NULL) : CLI_OK;
    }
    printf("table metadata: %s\n", path);
    printf("format version: %d\n", m->format_version);
    printf("table uuid: %s\n", m->table_uuid ? m->table_uuid : "(none)");
    printf("location: %s\n", m->location);
    printf("last updated: ");
    print_time(m->last_updated_ms);
    printf("\nlast sequence number: %lld\n", (long long)m->last_sequence_number);
    const floe_snapshot *cur = floe__metadata_current_snapshot(m);
    if (cur)
        printf("current snapshot: %lld\n", (long long)cur->snapshot_id);
    else
        printf("current snapshot: none\n");
    if (m->has_next_row_id)
        printf("next row id: %lld\n", (long long)m->next_row_id);
    printf("schemas: %zu\n", m->nschemas);
    for (size_t i = 0; i < m->nschemas; i++)
        print_schema(m->schemas[i], m->schemas[i]->schema_id == m->current_schema_id);
    printf("partition specs: %zu\n", m->nspecs);
    for (size_t i = 0; i < m->nspecs; i++)
        print_spec(m->specs[i], m->specs[i]->spec_id == m->default_spec_id);
    printf("properties: %zu\n", m->properties.n);
    for (size_t i = 0; i < m->properties.n; i++)
        printf("  %s = %s\n", m->properties.items[i].key, m->properties.items[i].value);
    printf("refs: %zu\n", m->nrefs);
    for (size_t i = 0; i < m->nrefs; i++)
        printf("  %s: %s -> %lld\n", m->refs[i].name,
               m->refs[i].type == FLOE_REF_TAG ? "tag" : "branch",
               (long long)m->refs[i].snapshot_id);
    printf("snapshots: %zu\n", m->nsnapshots);
    for (size_t i = 0; i < m->nsnapshots; i++) {
        const floe_snapshot *s = &m->snapshots[i];
        printf("  %lld seq %lld ", (long long)s->snapshot_id, (long long)s->sequence_number);
        print_time(s->timestamp_ms);
        printf(" %s", s->operation ? s->operation : "-");
        if (s->has_parent)
            printf(" parent %lld", (long long)s->parent_snapshot_id);
        printf("\n");
    }
    floe__metadata_free(m);
    return CLI_OK;
}

static int inspect_avro(const char *path, const void *data, size_t len, bool json)
{
    (void)data, (void)len;
    return floe_cli_inspect_avro(path, json);
}

static int inspect_parquet(const char *path, const void *data, size_t len, bool json)
{
    (void)data, (void)len;
    return floe_cli_inspect_parquet(path, json);
}

static const struct {
    const char *magic;
    size_t len;
    inspector fn;
} kinds[] = {
    {"Obj\x01", 4, inspect_avro},
    {"PAR1", 4, inspect_parquet},
    {"\x1f\x8b", 2, inspect_metadata},
};

static inspector detect(const unsigned char *p, size_t len)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (len >= kinds[i].len && memcmp(p, kinds[i].magic, kinds[i].len) == 0)
            return kinds[i].fn;
    size_t i = 0;
    if (len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
        i = 3; /* UTF-8 byte order mark */
    while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    return i < len && p[i] == '{' ? inspect_metadata : NULL;
}

const char cli_usage_inspect[] =
    "usage: floe inspect [--json] FILE\n"
    "\n"
    "FILE is table metadata (*.metadata.json, plain or gzip), an Avro manifest or\n"
    "manifest list, or a Parquet file; its kind is found from its first bytes.\n"
    "\n"
    "  --json      print the file as JSON (metadata as floe writes it, Avro\n"
    "              entries and the Parquet footer as objects)\n"
    "  -h, --help  print this text\n";

int floe_cmd_inspect(int argc, char **argv)
{
    bool json = false;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(cli_usage_inspect, stdout);
            return CLI_OK;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "floe inspect: unknown option '%s'\n%s", argv[i], cli_usage_inspect);
            return CLI_USAGE;
        } else if (!path)
            path = argv[i];
        else {
            fprintf(stderr, "floe inspect: only one FILE\n%s", cli_usage_inspect);
            return CLI_USAGE;
        }
    }
    if (!path) {
        fprintf(stderr, "floe inspect: no FILE given\n%s", cli_usage_inspect);
        return CLI_USAGE;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return cli_error("NotFoundException", "Failed to open input file: %s: %s", path,
                         strerror(errno));
    floe_buf b = FLOE_BUF_INIT;
    char chunk[65536];
    size_t n;
    int rc = 0;
    while (rc == 0 && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        rc = floe__buf_put(&b, chunk, n);
    fclose(f);
    if (rc < 0) {
        floe__buf_free(&b);
        return cli_fail(path);
    }
    inspector fn = detect((const unsigned char *)(b.ptr ? b.ptr : ""), b.len);
    int status;
    if (!fn) {
        status = cli_error("IllegalArgumentException",
                           "%s: unrecognized file type (expected table metadata JSON, Avro or "
                           "Parquet)",
                           path);
    } else {
        status = fn(path, b.ptr ? b.ptr : "", b.len, json);
    }
    floe__buf_free(&b);
    return status;
}
