/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmark: parse and write a synthetic table metadata file with 10,000 and
 * 100,000 snapshots (each with a Spark-like 11-entry summary and a
 * snapshot-log entry). Prints parse/write ms, MB/s (text in memory), the
 * time to read the same file from disk, and the peak RSS of a fresh child
 * process that reads the 100k file from disk (the whole
 * floe__metadata_read_file: reading and parsing).
 * Targets (issue 2): <= 50 ms parse and write at 10k; <= 30 MB RSS at 100k.
 * FLOE_BENCH_KEEP=DIR keeps the 10k file as DIR/metadata-10k.json (for
 * bench/native_peers.sh).
 */
#include "spec/metadata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static int synth(floe_buf *b, int n)
{
    int64_t base_id = 1000000000000000000LL, ts = 1700000000000LL;
    FLOE_TRY(floe__buf_printf(
        b,
        "{\"format-version\":2,\"table-uuid\":\"9c12d441-03fe-4693-9a96-a0705ddf69c1\","
        "\"location\":\"s3://bucket/warehouse/db/events\",\"last-sequence-number\":%d,"
        "\"last-updated-ms\":%lld,\"last-column-id\":3,\"current-schema-id\":0,\"schemas\":[{"
        "\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,\"name\":\"id\",\"required\":"
        "true,"
        "\"type\":\"long\"},{\"id\":2,\"name\":\"ts\",\"required\":false,\"type\":\"timestamptz\"},"
        "{\"id\":3,\"name\":\"data\",\"required\":false,\"type\":\"string\"}]}],\"default-spec-"
        "id\":0,"
        "\"partition-specs\":[{\"spec-id\":0,\"fields\":[{\"name\":\"ts_day\",\"transform\":"
        "\"day\","
        "\"source-id\":2,\"field-id\":1000}]}],\"last-partition-id\":1000,\"default-sort-order-"
        "id\":0,"
        "\"sort-orders\":[{\"order-id\":0,\"fields\":[]}],\"properties\":{\"owner\":\"bench\"},"
        "\"current-snapshot-id\":%lld,\"refs\":{\"main\":{\"snapshot-id\":%lld,\"type\":\"branch\"}"
        "},"
        "\"snapshots\":[",
        n, (long long)(ts + n), (long long)(base_id + n - 1), (long long)(base_id + n - 1)));
    for (int i = 0; i < n; i++) {
        long long id = base_id + i;
        if (i)
            FLOE_TRY(floe__buf_putc(b, ','));
        FLOE_TRY(floe__buf_printf(b, "{\"sequence-number\":%d,\"snapshot-id\":%lld,", i + 1, id));
        if (i)
            FLOE_TRY(floe__buf_printf(b, "\"parent-snapshot-id\":%lld,", id - 1));
        FLOE_TRY(floe__buf_printf(
            b,
            "\"timestamp-ms\":%lld,\"summary\":{\"operation\":\"append\",\"added-data-files\":"
            "\"1\","
            "\"added-records\":\"1000\",\"added-files-size\":\"12345\",\"changed-partition-count\":"
            "\"1\","
            "\"total-records\":\"%lld\",\"total-files-size\":\"%lld\",\"total-data-files\":\"%d\","
            "\"total-delete-files\":\"0\",\"total-position-deletes\":\"0\",\"total-equality-"
            "deletes\":\"0\"},"
            "\"manifest-list\":\"s3://bucket/warehouse/db/events/metadata/snap-%lld-1-"
            "4f9d7c78-62f9-48c6-b869-f25172b45b32.avro\",\"schema-id\":0}",
            (long long)(ts + i), 1000LL * (i + 1), 12345LL * (i + 1), i + 1, id));
    }
    FLOE_TRY(floe__buf_puts(b, "],\"snapshot-log\":["));
    for (int i = 0; i < n; i++)
        FLOE_TRY(floe__buf_printf(b, "%s{\"timestamp-ms\":%lld,\"snapshot-id\":%lld}", i ? "," : "",
                                  (long long)(ts + i), (long long)(base_id + i)));
    return floe__buf_puts(b, "],\"metadata-log\":[]}");
}

/* Write the synthetic text to `path` without ever holding all of it. */
static int synth_file(const char *path, int n)
{
    floe_buf b = FLOE_BUF_INIT;
    if (synth(&b, n) < 0)
        return -1;
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(b.ptr, 1, b.len, f);
    floe__buf_free(&b);
    return fclose(f) == 0 && w > 0 ? 0 : -1;
}

static double ms_since(int64_t t0)
{
    return (double)(floe__mono_ns() - t0) / 1e6;
}

static int run(int n, const char *tag)
{
    floe_buf text = FLOE_BUF_INIT, out = FLOE_BUF_INIT;
    if (synth(&text, n) < 0)
        return 1;
    double mb = (double)text.len / 1e6;
    double best_parse = 1e9, best_write = 1e9;
    int reps = n <= 10000 ? 5 : 2;
    for (int r = 0; r < reps; r++) {
        floe_table_metadata *m;
        int64_t t0 = floe__mono_ns();
        if (floe__metadata_parse(&m, text.ptr, text.len, "bench") < 0)
            return 1;
        double p = ms_since(t0);
        floe__buf_clear(&out);
        t0 = floe__mono_ns();
        if (floe__metadata_write(m, &out) < 0)
            return 1;
        double w = ms_since(t0);
        if ((int)m->nsnapshots != n)
            return 1;
        floe__metadata_free(m);
        best_parse = p < best_parse ? p : best_parse;
        best_write = w < best_write ? w : best_write;
    }
    printf("BENCH metadata_file_%s %.1f MB\n", tag, mb);
    printf("BENCH metadata_parse_%s %.1f ms\n", tag, best_parse);
    printf("BENCH metadata_parse_%s_rate %.1f MB/s\n", tag, mb / (best_parse / 1e3));
    printf("BENCH metadata_write_%s %.1f ms\n", tag, best_write);
    printf("BENCH metadata_write_%s_rate %.1f MB/s\n", tag,
           (double)out.len / 1e6 / (best_write / 1e3));
    floe__buf_free(&text);
    floe__buf_free(&out);
    return 0;
}

/* Time to read the file from disk (best of `reps`). */
static int run_file(const char *path, const char *tag, int reps)
{
    double best = 1e9;
    for (int r = 0; r < reps; r++) {
        floe_table_metadata *m;
        int64_t t0 = floe__mono_ns();
        if (floe__metadata_read_file(&m, path) < 0)
            return 1;
        double p = ms_since(t0);
        floe__metadata_free(m);
        best = p < best ? p : best;
    }
    printf("BENCH metadata_read_file_%s %.1f ms\n", tag, best);
    return 0;
}

/* Peak RSS of a fresh child (exec'd: nothing inherited from this process)
 * that reads and parses the file from disk once. */
static int rss(const char *self, const char *path, const char *tag)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl(self, self, "--read", path, tag, (char *)NULL);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 1;
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    printf("BENCH metadata_rss_peak_%s %.1f MB\n", tag, ru.ru_maxrss / 1024.0);
    return 0;
}

static int child_read(const char *path, const char *tag)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long base_kb = ru.ru_maxrss;
    floe_table_metadata *m = NULL;
    if (floe__metadata_read_file(&m, path) < 0)
        return 1;
    printf("BENCH metadata_rss_baseline_%s %.1f MB\n", tag, base_kb / 1024.0);
    printf("BENCH metadata_held_%s %.1f MB\n", tag,
           (floe__arena_bytes(m->arena) + m->nsnapshots * (sizeof *m->snapshots + 4) +
            m->n_snapshot_log * sizeof *m->snapshot_log) /
               1e6);
    floe__metadata_free(m);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--read") == 0)
        return child_read(argv[2], argv[3]);
    char path10[] = "/tmp/floe-bench-metadata-10k-XXXXXX",
         path100[] = "/tmp/floe-bench-metadata-100k-XXXXXX";
    int fd1 = mkstemp(path10), fd2 = mkstemp(path100);
    if (fd1 < 0 || fd2 < 0)
        return 1;
    close(fd1);
    close(fd2);
    const char *keep = getenv("FLOE_BENCH_KEEP");
    char kept[1024];
    if (keep) {
        snprintf(kept, sizeof kept, "%s/metadata-10k.json", keep);
        if (synth_file(kept, 10000) != 0)
            return 1;
    }
    int rc = synth_file(path100, 100000) || synth_file(path10, 10000) ||
             rss(argv[0], path100, "100k") || run(10000, "10k") || run_file(path10, "10k", 5) ||
             run(100000, "100k") || run_file(path100, "100k", 2);
    unlink(path10);
    unlink(path100);
    return rc;
}
