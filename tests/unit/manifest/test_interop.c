/* SPDX-License-Identifier: Apache-2.0 */
/*
 * floe-written manifests and manifest lists (codecs null, deflate,
 * zstandard, snappy; v1 and v2; partitioned and unpartitioned; data and
 * delete manifests) read by other Avro implementations: Debian's reference
 * python3-avro (tests/interop/avro_check.py, also the shared verifier
 * avro-dump.py with strict framing) and avsc (tests/interop/avro_dump.mjs).
 * All three must see the same records floe decodes, all Iceberg header keys
 * and a field-id on every record field. Skipped when the readers are absent.
 */
#include "gen_fixture.h"
#include "harness.h"

#include <stdlib.h>
#include <unistd.h>

static const floe_avro_codec codecs[] = {FLOE_AVRO_CODEC_NULL, FLOE_AVRO_CODEC_DEFLATE,
                                         FLOE_AVRO_CODEC_ZSTD, FLOE_AVRO_CODEC_SNAPPY};

static bool have_python(void)
{
    return access("/usr/bin/python3", X_OK) == 0 &&
           ft_run(NULL, "/usr/bin/python3 -c 'import avro.datafile' 2>/dev/null") == 0;
}

static bool py_snappy, py_zstd;

static bool have_node(void)
{
    const char *src = ft_source_dir();
    return ft_run(NULL, "command -v node >/dev/null") == 0 &&
           access(ft_path(src, "tests/interop/node_modules/avsc"), R_OK) == 0;
}

/* floe's own decoding of every record, one JSON line each. */
static int floe_jsonl(const floe_buf *bytes, const char *path)
{
    floe_avro_file *f;
    int rc = floe_avro_file_open(&f, (const uint8_t *)bytes->ptr, bytes->len, path);
    if (rc < 0)
        return rc;
    floe_buf out = FLOE_BUF_INIT;
    floe_avro_cursor c;
    int64_t n;
    while (rc == 0 && (rc = floe_avro_file_next_block(f, &c, &n)) == 0)
        for (int64_t i = 0; i < n && rc == 0; i++) {
            rc = floe_avro_datum_to_json(&c, f->schema, &out, 0);
            if (rc == 0)
                rc = floe__buf_putc(&out, '\n');
        }
    floe_avro_file_free(f);
    if (rc == FLOE_ITEROVER)
        rc = ft_write_file(path, out.ptr ? out.ptr : "", out.len) == 0 ? 0 : -1;
    floe__buf_free(&out);
    return rc;
}

static void check_file(const char *name, const floe_buf *bytes, bool node)
{
    const char *src = ft_source_dir();
    char avro_path[1024], floe_path[1100], node_path[1100];
    snprintf(avro_path, sizeof avro_path, "%s", ft_tmp(name));
    snprintf(floe_path, sizeof floe_path, "%s.floe.jsonl", avro_path);
    snprintf(node_path, sizeof node_path, "%s.avsc.jsonl", avro_path);
    FT_ASSERT(ft_write_file(avro_path, bytes->ptr, bytes->len) == 0);
    FT_OK(floe_jsonl(bytes, floe_path));
    char *out = NULL;
    if (node) {
        int st = ft_run(&out, "cd %s/tests/interop && node avro_dump.mjs %s > %s", src, avro_path,
                        node_path);
        if (st != 0)
            ft_fail(__FILE__, __LINE__, "avsc failed on %s: %s", name, out ? out : "");
        free(out);
        out = NULL;
    }
    int st = ft_run(&out, "/usr/bin/python3 %s/tests/interop/avro_check.py %s %s %s 2>&1", src,
                    avro_path, floe_path, node ? node_path : "");
    if (st != 0 || !out || strncmp(out, "OK ", 3) != 0)
        ft_fail(__FILE__, __LINE__, "python3-avro check of %s: %s", name, out ? out : "");
    free(out);
    out = NULL;
    const char *sh = getenv("FLOE_SHARED_DIR");
    char verify[1024];
    snprintf(verify, sizeof verify, "%s/../shared/verify/avro-dump.py", src);
    if (sh)
        snprintf(verify, sizeof verify, "%s/verify/avro-dump.py", sh);
    /* the shared verifier needs python-avro to support the codec */
    bool codec_ok = strstr(name, "snappy") ? py_snappy : strstr(name, "zstandard") ? py_zstd : true;
    if (codec_ok && access(verify, R_OK) == 0) {
        st = ft_run(&out, "/usr/bin/python3 %s %s --no-records --quiet 2>&1", verify, avro_path);
        if (st != 0)
            ft_fail(__FILE__, __LINE__, "shared avro-dump rejected %s: %s", name, out ? out : "");
        free(out);
    }
}

static void test_readers_agree(void)
{
    if (!have_python()) {
        ft_skip("python3-avro not available under /usr/bin/python3");
        return;
    }
    bool node = have_node();
    py_snappy = ft_run(NULL, "/usr/bin/python3 -c 'import avro.codecs as c, sys; "
                             "sys.exit(0 if c.has_snappy else 1)' 2>/dev/null") == 0;
    py_zstd = ft_run(NULL, "/usr/bin/python3 -c 'import avro.codecs as c, sys; "
                           "sys.exit(0 if c.has_zstandard else 1)' 2>/dev/null") == 0;
    const struct {
        int version;
        bool partitioned;
        int content;
    } cfgs[] = {{2, true, FLOE_MANIFEST_DATA},
                {2, false, FLOE_MANIFEST_DATA},
                {2, true, FLOE_MANIFEST_DELETES},
                {1, true, FLOE_MANIFEST_DATA},
                {1, false, FLOE_MANIFEST_DATA}};
    /* every codec with the first configuration, one codec (rotating) with
     * the others: each reader process costs ~0.3 s on a loaded machine */
    for (size_t k = 0; k < FLOE_ARRAY_LEN(cfgs); k++)
        for (size_t c = 0; c < FLOE_ARRAY_LEN(codecs); c++) {
            if (k != 0 && c != k % FLOE_ARRAY_LEN(codecs))
                continue;
            gt_opts o = {cfgs[k].version,    codecs[c], cfgs[k].partitioned,
                         cfgs[k].content,    25,        INT64_C(9158179788527662767),
                         FLOE_SEQ_UNASSIGNED};
            floe_buf m = FLOE_BUF_INIT, l = FLOE_BUF_INIT;
            floe_manifest_file mf;
            floe_manifest_writer *w = NULL;
            FT_OK(gt_write_manifest(&o, &m, &mf, &w));
            char name[128];
            snprintf(name, sizeof name, "m-v%d-%s-%s-%s.avro", o.version,
                     o.partitioned ? "part" : "unpart", o.content ? "deletes" : "data",
                     floe_avro_codec_name(o.codec));
            check_file(name, &m, node);

            floe_manifest_list_writer_options lo = {o.version,  INT64_C(9158179788527662767),
                                                    k % 2 == 0, INT64_C(6458828015811002920),
                                                    12,         codecs[c],
                                                    -1, 0};
            floe_manifest_list_writer *lw;
            FT_OK(floe_manifest_list_writer_new(&lw, &lo, &l));
            FT_OK(floe_manifest_list_writer_add(lw, &mf));
            mf.manifest_path = "s3://bucket/db/t/metadata/second-m1.avro";
            mf.sequence_number = 4;
            mf.min_sequence_number = 3;
            FT_OK(floe_manifest_list_writer_add(lw, &mf));
            FT_OK(floe_manifest_list_writer_finish(lw));
            floe_manifest_list_writer_free(lw);
            snprintf(name, sizeof name, "snap-v%d-%zu-%s.avro", o.version, k,
                     floe_avro_codec_name(o.codec));
            check_file(name, &l, node);
            floe_manifest_writer_free(w);
            floe__buf_free(&m);
            floe__buf_free(&l);
        }
    if (!node)
        ft_skip("avsc (tests/interop/node_modules) not available: python3-avro only");
}

static const ft_case cases[] = {
    {"readers_agree", test_readers_agree},
};

int main(int argc, char **argv)
{
    return ft_main(argc, argv, cases, FT_N(cases));
}
