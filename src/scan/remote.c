/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scan/remote: scan tasks on the wire of the REST catalog's server-side
 * planning (open-api ScanTasks, FileScanTask, DataFile, DeleteFile; Java's
 * TableScanResponseParser, RESTFileScanTaskParser and ContentFileParser):
 *
 *   writing  a slice of a plan's tasks as `"delete-files":[...],
 *            "file-scan-tasks":[...]` (floe serve's /plan and /tasks)
 *   reading  the file-scan-tasks and delete-files of one or more responses
 *            back into a floe_scan_plan that the reader streams (floe's REST
 *            client with scan-planning-mode=server)
 *
 * Content files carry spec-id, content ("data", "position-deletes",
 * "equality-deletes"), file-path, file-format (lowercase), partition (an
 * array of JSON single values in spec order), file-size-in-bytes,
 * record-count, equality-ids, first-row-id, referenced-data-file,
 * content-offset and content-size-in-bytes. Column metrics are not sent
 * (the plan does not keep them; clients reading tasks do not need them).
 * Data sequence numbers are not part of the wire form: the server paired
 * data and delete files already.
 */
#include "scan/scan.h"

#include "expr/expr.h"
#include "manifest/manifest.h"
#include "spec/spec.h"
#include "spec/transform.h"
#include "spec/value.h"

#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- writing */

static const char *content_name(int32_t content)
{
    switch (content) {
    case FLOE_FILE_POSITION_DELETES: return "position-deletes";
    case FLOE_FILE_EQUALITY_DELETES: return "equality-deletes";
    default: return "data";
    }
}

static int put_str(floe_buf *out, const char *key, const char *v)
{
    FLOE_TRY(floe__buf_printf(out, ",\"%s\":\"", key));
    FLOE_TRY(floe__buf_put_json_escaped(out, v, strlen(v)));
    return floe__buf_putc(out, '"');
}

static int file_json(const floe_scan_file *f, floe_buf *out)
{
    FLOE_TRY(floe__buf_printf(out, "{\"spec-id\":%d,\"content\":\"%s\"", (int)f->spec_id,
                              content_name(f->content)));
    FLOE_TRY(put_str(out, "file-path", f->path));
    FLOE_TRY(floe__buf_puts(out, ",\"file-format\":\""));
    for (const char *p = f->format; *p; p++) /* Java 1.11: lowercase */
        FLOE_TRY(floe__buf_putc(out, (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p)));
    FLOE_TRY(floe__buf_puts(out, "\",\"partition\":["));
    for (size_t i = 0; i < f->partition.n; i++) {
        if (i)
            FLOE_TRY(floe__buf_putc(out, ','));
        FLOE_TRY(floe_expr_value_to_json(&f->partition.values[i], out));
    }
    FLOE_TRY(floe__buf_printf(out, "],\"file-size-in-bytes\":%lld,\"record-count\":%lld",
                              (long long)f->file_size_in_bytes, (long long)f->record_count));
    const floe_scan_delete_info *d = floe__scan_delete_info(f);
    if (d->nequality_ids) {
        FLOE_TRY(floe__buf_puts(out, ",\"equality-ids\":["));
        for (size_t i = 0; i < d->nequality_ids; i++)
            FLOE_TRY(floe__buf_printf(out, "%s%d", i ? "," : "", (int)d->equality_ids[i]));
        FLOE_TRY(floe__buf_putc(out, ']'));
    }
    if (f->has_first_row_id)
        FLOE_TRY(floe__buf_printf(out, ",\"first-row-id\":%lld", (long long)f->first_row_id));
    if (d->referenced_data_file)
        FLOE_TRY(put_str(out, "referenced-data-file", d->referenced_data_file));
    if (d->has_content_offset)
        FLOE_TRY(floe__buf_printf(out, ",\"content-offset\":%lld", (long long)d->content_offset));
    if (d->content_size_in_bytes >= 0 && f->content != FLOE_FILE_DATA)
        FLOE_TRY(floe__buf_printf(out, ",\"content-size-in-bytes\":%lld",
                                  (long long)d->content_size_in_bytes));
    return floe__buf_putc(out, '}');
}

int floe__scan_tasks_to_json(const floe_scan_plan *p, size_t first, size_t count, floe_buf *out)
{
    if (first > p->ntasks)
        first = p->ntasks;
    if (count > p->ntasks - first)
        count = p->ntasks - first;
    /* the distinct delete files of the slice, by path, in first-use order */
    floe_strmap *idx = floe__strmap_new();
    floe_vec dels = FLOE_VEC_INIT(const floe_scan_file *);
    int rc = idx ? 0 : floe__error_nomem();
    for (size_t t = first; rc == 0 && t < first + count; t++)
        for (size_t d = 0; rc == 0 && d < p->tasks[t].ndeletes; d++) {
            const floe_scan_file *df = p->tasks[t].deletes[d];
            if (floe__strmap_has(idx, df->path))
                continue;
            rc = floe__strmap_put(idx, df->path, (void *)(uintptr_t)(dels.len + 1));
            const floe_scan_file **slot = rc == 0 ? floe__vec_push(&dels) : NULL;
            if (slot)
                *slot = df;
            else if (rc == 0)
                rc = floe__error_nomem();
        }
    if (rc == 0 && dels.len) {
        rc = floe__buf_puts(out, "\"delete-files\":[");
        for (size_t i = 0; rc == 0 && i < dels.len; i++) {
            if (i)
                rc = floe__buf_putc(out, ',');
            if (rc == 0)
                rc = file_json(*(const floe_scan_file **)floe__vec_at(&dels, i), out);
        }
        if (rc == 0)
            rc = floe__buf_puts(out, "],");
    }
    if (rc == 0)
        rc = floe__buf_puts(out, "\"file-scan-tasks\":[");
    for (size_t t = first; rc == 0 && t < first + count; t++) {
        const floe_scan_task *task = &p->tasks[t];
        rc = floe__buf_puts(out, t > first ? ",{\"data-file\":" : "{\"data-file\":");
        if (rc == 0)
            rc = file_json(task->file, out);
        if (rc == 0 && task->ndeletes) {
            rc = floe__buf_puts(out, ",\"delete-file-references\":[");
            for (size_t d = 0; rc == 0 && d < task->ndeletes; d++)
                rc = floe__buf_printf(
                    out, "%s%zu", d ? "," : "",
                    (size_t)(uintptr_t)floe__strmap_get(idx, task->deletes[d]->path) - 1);
            if (rc == 0)
                rc = floe__buf_putc(out, ']');
        }
        if (rc == 0 && task->residual) {
            rc = floe__buf_puts(out, ",\"residual-filter\":");
            if (rc == 0)
                rc = floe_expr_to_json(task->residual, out);
        }
        if (rc == 0)
            rc = floe__buf_putc(out, '}');
    }
    if (rc == 0)
        rc = floe__buf_putc(out, ']');
    floe__strmap_free(idx);
    floe__vec_free(&dels);
    return rc;
}

/* ---------------------------------------------------------------- reading */

#define WHAT "scan"

static int bad(const char *msg, const char *detail)
{
    return floe__error(FLOE_EINVALID, WHAT, "invalid scan planning response: %s%s%s", msg,
                       detail ? ": " : "", detail ? detail : "");
}

static const floe_type *source_type(const floe_scan_plan *p, int32_t source_id)
{
    const floe_field *f = floe__schema_field_by_id(p->schema, source_id);
    for (size_t i = 0; !f && i < p->meta->nschemas; i++)
        f = floe__schema_field_by_id(p->meta->schemas[i], source_id);
    return f ? f->type : NULL;
}

static int get_i64(const floe_json *o, const char *key, bool required, int64_t *out, bool *has)
{
    const floe_json *v = floe__json_get(o, key);
    if (has)
        *has = v && !floe__json_is_null(v);
    if (!v || floe__json_is_null(v))
        return required ? bad("missing field", key) : 0;
    if (!floe__json_is_integer(v))
        return bad("not an integer", key);
    *out = floe__json_ival(v);
    return 0;
}

static int file_from_json(floe_scan_plan *p, const floe_json *j, bool data,
                          floe_scan_file **out)
{
    floe_arena *a = p->arena;
    if (!floe__json_is_object(j))
        return bad(data ? "a data file must be an object" : "a delete file must be an object",
                   NULL);
    floe_scan_file *f = floe__arena_calloc(a, 1, sizeof *f);
    if (!f)
        return floe__error_nomem();
    int64_t v;
    FLOE_TRY(get_i64(j, "spec-id", true, &v, NULL));
    const floe_partition_spec *spec = floe__metadata_spec(p->meta, (int32_t)v);
    if (!spec || v < INT32_MIN || v > INT32_MAX)
        return bad("unknown spec-id", NULL);
    f->spec_id = (int32_t)v;
    const char *content = floe__json_sval(floe__json_get(j, "content"));
    if (!content)
        return bad("missing field", "content");
    if (!strcmp(content, "data") || !strcmp(content, "DATA"))
        f->content = FLOE_FILE_DATA;
    else if (!strcmp(content, "position-deletes") || !strcmp(content, "POSITION_DELETES"))
        f->content = FLOE_FILE_POSITION_DELETES;
    else if (!strcmp(content, "equality-deletes") || !strcmp(content, "EQUALITY_DELETES"))
        f->content = FLOE_FILE_EQUALITY_DELETES;
    else
        return bad("invalid file content value", content);
    if ((f->content == FLOE_FILE_DATA) != data)
        return bad(data ? "a data-file of delete content" : "a delete file of data content",
                   NULL);
    const floe_json *path = floe__json_get(j, "file-path");
    const char *fmt = floe__json_sval(floe__json_get(j, "file-format"));
    if (!floe__json_is_string(path) || strlen(floe__json_sval(path)) != floe__json_slen(path) ||
        !floe__json_slen(path))
        return bad("missing field", "file-path");
    if (!fmt)
        return bad("missing field", "file-format");
    char *uf = floe__arena_strdup(a, fmt);
    if (!(f->path = floe__arena_strdup(a, floe__json_sval(path))) || !uf)
        return floe__error_nomem();
    for (char *c = uf; *c; c++)
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 'a' + 'A');
    f->format = uf;
    FLOE_TRY(get_i64(j, "file-size-in-bytes", true, &f->file_size_in_bytes, NULL));
    FLOE_TRY(get_i64(j, "record-count", true, &f->record_count, NULL));
    FLOE_TRY(get_i64(j, "first-row-id", false, &f->first_row_id, &f->has_first_row_id));
    floe_scan_delete_info *d = floe__arena_calloc(a, 1, sizeof *d);
    if (!d)
        return floe__error_nomem();
    f->del = d;
    FLOE_TRY(get_i64(j, "content-offset", false, &d->content_offset, &d->has_content_offset));
    bool has_size;
    FLOE_TRY(get_i64(j, "content-size-in-bytes", false, &d->content_size_in_bytes, &has_size));
    if (!has_size)
        d->content_size_in_bytes = -1;
    const floe_json *ref = floe__json_get(j, "referenced-data-file");
    if (floe__json_is_string(ref) &&
        !(d->referenced_data_file = floe__arena_strdup(a, floe__json_sval(ref))))
        return floe__error_nomem();
    const floe_json *eq = floe__json_get(j, "equality-ids");
    if (eq && !floe__json_is_null(eq)) {
        if (!floe__json_is_array(eq))
            return bad("equality-ids must be an array", NULL);
        size_t n = floe__json_len(eq);
        int32_t *ids = floe__arena_alloc(a, (n ? n : 1) * sizeof *ids);
        if (!ids)
            return floe__error_nomem();
        for (size_t i = 0; i < n; i++) {
            const floe_json *e = floe__json_at(eq, i);
            if (!floe__json_is_integer(e) || floe__json_ival(e) < INT32_MIN ||
                floe__json_ival(e) > INT32_MAX)
                return bad("equality-ids must hold integers", NULL);
            ids[i] = (int32_t)floe__json_ival(e);
        }
        d->equality_ids = ids;
        d->nequality_ids = n;
    }
    const floe_json *part = floe__json_get(j, "partition");
    size_t np = part && !floe__json_is_null(part) ? floe__json_len(part) : 0;
    if (part && !floe__json_is_null(part) && !floe__json_is_array(part))
        return bad("partition must be an array", NULL);
    if (np != spec->nfields && !(np == 0 && !part))
        return bad("partition data size differs from the spec's fields", NULL);
    if (spec->nfields) {
        floe_value *vals = floe__arena_calloc(a, spec->nfields, sizeof *vals);
        if (!vals)
            return floe__error_nomem();
        for (size_t i = 0; i < spec->nfields; i++) {
            const floe_partition_field *pf = &spec->fields[i];
            const floe_type *st = source_type(p, pf->source_id);
            const floe_type *rt = st ? floe_transform_result_type(&pf->transform, st) : NULL;
            if (!rt)
                return bad("partition field without a known type", pf->name);
            if (np == 0)
                vals[i] = floe_value_null(rt->id);
            else
                FLOE_TRY(floe__value_from_json(&vals[i], floe__json_at(part, i), rt, a));
        }
        f->partition.n = spec->nfields;
        f->partition.values = vals;
    }
    *out = f;
    return 0;
}

/* One response's delete-files and file-scan-tasks, appended to the plan. */
static int add_response(floe_scan_plan *p, floe_vec *tasks, const floe_json *root,
                        const floe_expr *unbound_filter, bool case_sensitive)
{
    if (!floe__json_is_object(root))
        return bad("not an object", NULL);
    const floe_json *dj = floe__json_get(root, "delete-files");
    const floe_json *tj = floe__json_get(root, "file-scan-tasks");
    if (dj && !floe__json_is_null(dj) && !floe__json_is_array(dj))
        return bad("delete-files must be an array", NULL);
    if (tj && !floe__json_is_null(tj) && !floe__json_is_array(tj))
        return bad("file-scan-tasks must be an array", NULL);
    size_t nd = floe__json_len(dj), nt = floe__json_len(tj);
    if (nd && !nt)
        return bad("deleteFiles should only be returned with fileScanTasks that reference them",
                   NULL);
    floe_scan_file **dels = floe__arena_calloc(p->arena, nd ? nd : 1, sizeof(floe_scan_file *));
    if (!dels)
        return floe__error_nomem();
    for (size_t i = 0; i < nd; i++)
        FLOE_TRY(file_from_json(p, floe__json_at(dj, i), false, &dels[i]));
    for (size_t i = 0; i < nt; i++) {
        const floe_json *t = floe__json_at(tj, i);
        if (!floe__json_is_object(t))
            return bad("a file scan task must be an object", NULL);
        floe_scan_task task = {0};
        floe_scan_file *df;
        FLOE_TRY(file_from_json(p, floe__json_get(t, "data-file"), true, &df));
        task.file = df;
        const floe_json *refs = floe__json_get(t, "delete-file-references");
        if (refs && !floe__json_is_null(refs)) {
            if (!floe__json_is_array(refs))
                return bad("delete-file-references must be an array", NULL);
            size_t n = floe__json_len(refs);
            const floe_scan_file **d =
                floe__arena_calloc(p->arena, n ? n : 1, sizeof(const floe_scan_file *));
            if (!d)
                return floe__error_nomem();
            for (size_t k = 0; k < n; k++) {
                const floe_json *r = floe__json_at(refs, k);
                if (!floe__json_is_integer(r) || floe__json_ival(r) < 0 ||
                    (uint64_t)floe__json_ival(r) >= nd)
                    return bad("Invalid delete file references", "index out of range");
                d[k] = dels[floe__json_ival(r)];
            }
            task.deletes = d;
            task.ndeletes = n;
        }
        /* the residual: the server's, else the whole filter */
        const floe_json *res = floe__json_get(t, "residual-filter");
        const floe_expr *ue = unbound_filter;
        if (res && !floe__json_is_null(res))
            FLOE_TRY(floe_expr_from_json(&ue, p->arena, res, p->schema, case_sensitive));
        task.residual = p->filter;
        if (ue)
            FLOE_TRY(floe_expr_bind(&task.residual, p->arena, p->schema, ue, case_sensitive));
        floe_scan_task *slot = floe__vec_push(tasks);
        if (!slot)
            return floe__error_nomem();
        *slot = task;
        p->report.records_planned += df->record_count;
        p->report.data_files_total++;
        p->report.delete_files_total += (int64_t)task.ndeletes;
    }
    return 0;
}

int floe__scan_plan_from_responses(floe_scan_plan **out, const floe_table_metadata *meta,
                                   const floe_snapshot *snapshot, const floe_schema *schema,
                                   const struct floe_expr *filter, bool case_sensitive,
                                   const char *const *bodies, const size_t *lens, size_t n)
{
    *out = NULL;
    int64_t t0 = floe__mono_ns();
    floe_scan_plan *p = floe__calloc(1, sizeof *p);
    if (!p)
        return floe__error_nomem();
    floe_vec tasks = FLOE_VEC_INIT(floe_scan_task);
    int rc = (p->arena = floe__arena_new(8192)) ? 0 : floe__error_nomem();
    p->meta = meta;
    p->snapshot = snapshot;
    p->schema = schema ? schema : floe__metadata_current_schema(meta);
    p->filter = floe_expr_true();
    if (rc == 0 && !p->schema)
        rc = floe__error(FLOE_EINVALID, WHAT, "table metadata has no current schema");
    if (rc == 0 && filter)
        rc = floe_expr_bind(&p->filter, p->arena, p->schema, filter, case_sensitive);
    p->report.snapshot_id = snapshot ? snapshot->snapshot_id : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        floe_json *root = NULL;
        rc = floe__json_parse(&root, bodies[i], lens[i], "scan planning response");
        if (rc == 0)
            rc = add_response(p, &tasks, root, filter, case_sensitive);
        floe__json_free(root);
    }
    if (rc == 0 && tasks.len) {
        if ((p->tasks = floe__malloc(tasks.len * sizeof(floe_scan_task)))) {
            memcpy(p->tasks, tasks.items, tasks.len * sizeof(floe_scan_task));
            p->ntasks = tasks.len;
        } else {
            rc = floe__error_nomem();
        }
    }
    floe__vec_free(&tasks);
    if (rc < 0) {
        floe__scan_plan_free(p);
        return rc;
    }
    /* delete files counted once per path */
    floe_strmap *seen = floe__strmap_new();
    int64_t distinct = 0;
    for (size_t t = 0; seen && t < p->ntasks; t++)
        for (size_t d = 0; d < p->tasks[t].ndeletes; d++)
            if (!floe__strmap_has(seen, p->tasks[t].deletes[d]->path) &&
                floe__strmap_put(seen, p->tasks[t].deletes[d]->path, NULL) == 0)
                distinct++;
    floe__strmap_free(seen);
    p->report.delete_files_applied = distinct;
    p->report.delete_files_total = distinct;
    p->report.tasks = (int64_t)p->ntasks;
    p->report.plan_ns = floe__mono_ns() - t0;
    *out = p;
    return 0;
}
