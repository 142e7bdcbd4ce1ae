# SPDX-License-Identifier: Apache-2.0
"""floe-python vs PyIceberg 0.12 in the same run, on one SQLite catalog.

Prints `BENCH <name> <seconds> s` for both engines and
`RATIO <name> <floe time / pyiceberg time> pyiceberg` (below 1: floe is
faster; bench/README.md). Each figure is the median wall time of
FLOE_BENCH_REPS (default 5) runs, floe and PyIceberg alternating; the
`_cpu` lines are the medians of the process's CPU time (all threads).

  scan_to_arrow   plan + to_arrow() of a FLOE_BENCH_ROWS-row table
                  (default 10,000,000; id BIGINT, v DOUBLE, s STRING)
  scan_filtered   the same with a filter selecting ~1% of the rows
  append_1m       append of 1,000,000 rows to an empty table
  files_table     the files metadata table over FLOE_BENCH_FILES data files
                  (default 100,000: one partitioned append, a file per partition)
  tag_commit_1k   a metadata-only commit (create a tag) on a table with 1,000 snapshots

Run: scripts/bench.sh runs it in the peer venv after installing ./python
against the release build; or `python bench/python_vs_pyiceberg.py`.

`python bench/python_vs_pyiceberg.py peer <op> RUNS <args...>` is instead
PyIceberg's side of bench/native_peers.sh (floe's C library vs every peer
on the same generated files): the protocol of bench/go and bench/rust, one
warm-up run (FLOE_BENCH_PY_WARMUP) then RUNS runs, one line

  PEER <op> <median wall ms> <median process CPU ms> <count>

  manifest RUNS FILE            ManifestFile.fetch_manifest_entry, every entry
  metadata RUNS FILE            TableMetadataUtil.parse_raw of the file in memory
  plan RUNS METADATA [CAT]      StaticTable scan(row_filter=cat == CAT).plan_files()
  files RUNS METADATA           inspect.files() (a pyarrow table, every column)
  commit RUNS METADATA DIR      set one table property through a SqlCatalog on SQLite
  expire RUNS METADATA DIR KEEP maintenance.expire_snapshots().older_than(the KEEP-th
                                newest snapshot's timestamp): PyIceberg has no retain_last;
                                metadata only (it deletes no files)

This mode needs only pyiceberg (not floe-python).
"""
import os
import shutil
import statistics
import sys
import tempfile
import time

import pyarrow as pa
import pyarrow.compute as pc

from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.expressions import EqualTo, LessThan

ROWS = int(os.environ.get("FLOE_BENCH_ROWS", 10_000_000))
FILES = int(os.environ.get("FLOE_BENCH_FILES", 100_000))
SNAPS = int(os.environ.get("FLOE_BENCH_SNAPSHOTS", 1000))
REPS = int(os.environ.get("FLOE_BENCH_REPS", 5))
LONG_RUN_S = 5.0


def timed(fn):
    """(wall, CPU) seconds of fn(); CPU is the process's, every thread."""
    c0, t0 = os.times(), time.perf_counter()
    fn()
    c1 = os.times()
    return time.perf_counter() - t0, (c1.user - c0.user) + (c1.system - c0.system)


def medians(f, p, reps=REPS):
    """Median wall and CPU times of f and p, run alternately (same load for both)."""
    tf, tp = [], []
    for _ in range(reps):
        tf.append(timed(f))
        tp.append(timed(p))
    med = statistics.median
    return (med(w for w, _ in tf), med(w for w, _ in tp), med(c for _, c in tf),
            med(c for _, c in tp))


def report(name, fp):
    f, p, fc, pc_ = fp
    print("BENCH python_%s_floe %.4f s" % (name, f))
    print("BENCH python_%s_pyiceberg %.4f s" % (name, p))
    print("BENCH python_%s_floe_cpu %.4f s" % (name, fc))
    print("BENCH python_%s_pyiceberg_cpu %.4f s" % (name, pc_))
    print("RATIO python_%s %.3f pyiceberg" % (name, f / p if p > 0 else float("nan")))
    sys.stdout.flush()


def data(n, start=0):
    ids = pa.array(range(start, start + n), pa.int64())
    return pa.table({"id": ids, "v": pc.multiply(ids.cast(pa.float64()), 0.5),
                     "s": pc.cast(pc.modulo(ids, 1000), pa.string())})


def peer_measure(op, runs, fn, setup=None):
    """FLOE_BENCH_PY_WARMUP (default 1) warm-up runs of fn, then runs runs; print the PEER
    line (fn returns its count). A run of more than LONG_RUN_S of CPU ends the measurement
    with that run as the one sample (a warm-up one included: start-up and caches are well
    under 1 % of it), so that the minutes-long operations run once."""
    warm = int(os.environ.get("FLOE_BENCH_PY_WARMUP", 1))
    wall, cpu, count = [], [], None
    for i in range(runs + warm):
        if setup:
            setup(i)
        t0, c0 = time.perf_counter(), time.process_time()
        n = fn(i)
        w, c = time.perf_counter() - t0, time.process_time() - c0
        if count is not None and n != count:
            sys.exit("pyiceberg peer: %s: count %d then %d" % (op, count, n))
        count = n
        if i >= warm or c > LONG_RUN_S:
            wall.append(w * 1e3)
            cpu.append(c * 1e3)
        if c > LONG_RUN_S:
            break
    print("PEER %s %.3f %.3f %d" % (op, statistics.median(wall), statistics.median(cpu), count))


def peer_catalog(d, name, meta):
    """A SqlCatalog (SQLite) in d with the table of meta registered as b.name."""
    cat = SqlCatalog("bench", uri="sqlite:///%s/pyiceberg-catalog.db" % d, warehouse="file://%s" % d)
    if not cat.namespace_exists("b"):
        cat.create_namespace("b")
    return cat.register_table("b.%s" % name, meta)


def peer(op, runs, arg):
    """PyIceberg's side of bench/native_peers.sh (module docstring)."""
    from datetime import datetime, timezone

    from pyiceberg.io.pyarrow import PyArrowFileIO
    from pyiceberg.manifest import ManifestContent, ManifestFile
    from pyiceberg.table import StaticTable
    from pyiceberg.table.metadata import TableMetadataUtil

    if op == "manifest":
        io = PyArrowFileIO()
        mf = ManifestFile.from_args(manifest_path=arg[0], manifest_length=os.path.getsize(arg[0]),
                                    partition_spec_id=0, content=ManifestContent.DATA,
                                    sequence_number=0, min_sequence_number=0, added_snapshot_id=0)

        def decode(_):
            es = mf.fetch_manifest_entry(io, discard_deleted=False)
            s = sum(e.data_file.record_count + len(e.data_file.lower_bounds or {}) for e in es)
            return len(es) if s >= 0 else -1
        peer_measure(op, runs, decode)
    elif op == "metadata":
        with open(arg[0], "rb") as f:
            data = f.read()
        peer_measure(op, runs, lambda _: len(TableMetadataUtil.parse_raw(data).snapshots))
    elif op == "plan":
        kw = {"row_filter": EqualTo("cat", arg[1])} if len(arg) > 1 else {}

        def plan(_):
            return sum(1 for _ in StaticTable.from_metadata(arg[0]).scan(**kw).plan_files())
        peer_measure(op, runs, plan)
    elif op == "files":
        peer_measure(op, runs, lambda _: StaticTable.from_metadata(arg[0]).inspect.files().num_rows)
    elif op == "commit":
        t = [peer_catalog(arg[1], "commit", arg[0])]

        def commit(i):
            t[0] = t[0].transaction().set_properties({"bench.n": str(i)}).commit_transaction()
            return len(t[0].metadata.snapshots)
        peer_measure(op, runs, commit)
    elif op == "expire":
        keep = int(arg[2])
        t = [None]

        def setup(i):
            t[0] = peer_catalog(arg[1], "expire%d" % i, arg[0])

        def expire(_):
            ts = sorted(s.timestamp_ms for s in t[0].metadata.snapshots)[-keep]
            cut = datetime.fromtimestamp(ts / 1000, tz=timezone.utc)
            t[0].maintenance.expire_snapshots().older_than(cut).commit()
            return len(t[0].metadata.snapshots)
        peer_measure(op, runs, expire, setup)
    else:
        sys.exit("pyiceberg peer: unknown operation %s" % op)


def main():
    import floe

    wh = tempfile.mkdtemp(prefix="floe-bench-py-")
    try:
        cat = floe.catalog(warehouse=wh)
        py = SqlCatalog("local", uri="sqlite:///%s/catalog.db" % wh, warehouse="file://%s" % wh)
        cat.sql("CREATE NAMESPACE b")

        # --- scans of one ROWS-row table (written by floe, 1M-row batches)
        cat.sql("CREATE TABLE b.big (id BIGINT, v DOUBLE, s STRING) USING iceberg")
        t = cat.load_table("b.big")
        step = 1_000_000
        t.append(pa.concat_tables([data(min(step, ROWS - i), i) for i in range(0, ROWS, step)]))
        pt = py.load_table("b.big")
        assert t.scan().to_arrow().num_rows == ROWS == pt.scan().to_arrow().num_rows
        report("scan_to_arrow_%dm" % (ROWS // 1_000_000) if ROWS >= 1_000_000 else "scan_to_arrow",
               medians(lambda: t.scan().to_arrow(), lambda: pt.scan().to_arrow()))
        lim = ROWS // 100
        assert t.scan(filter="id < %d" % lim).to_arrow().num_rows == lim
        assert pt.scan(row_filter=LessThan("id", lim)).to_arrow().num_rows == lim
        report("scan_filtered", medians(lambda: t.scan(filter="id < %d" % lim).to_arrow(),
                                        lambda: pt.scan(row_filter=LessThan("id", lim)).to_arrow()))

        # --- append of 1M rows (a fresh table each run)
        m = data(1_000_000)
        k = [0]

        def fresh():
            k[0] += 1
            cat.sql("CREATE TABLE b.app%d (id BIGINT, v DOUBLE, s STRING) USING iceberg" % k[0])
            return "b.app%d" % k[0]

        ft = [cat.load_table(fresh()) for _ in range(REPS)]
        pts = [py.load_table(fresh()) for _ in range(REPS)]
        fi, pi = iter(ft), iter(pts)
        report("append_1m", medians(lambda: next(fi).append(m), lambda: next(pi).append(m)))

        # --- files table over FILES data files: one append, one file per partition
        cat.sql("CREATE TABLE b.files (id BIGINT, p BIGINT) USING iceberg PARTITIONED BY (p)")
        tf = cat.load_table("b.files")
        ids = pa.array(range(FILES), pa.int64())
        tf.append(pa.table({"id": ids, "p": ids}))
        pf = py.load_table("b.files")
        assert tf.files().num_rows == FILES == pf.inspect.files().num_rows
        report("files_table_%dk" % (FILES // 1000), medians(lambda: tf.files(), lambda: pf.inspect.files()))

        # --- metadata-only commit at SNAPS snapshots
        cat.sql("CREATE TABLE b.snaps (id BIGINT) USING iceberg")
        ts = cat.load_table("b.snaps")
        one = pa.table({"id": pa.array([1], pa.int64())})
        for _ in range(SNAPS):
            ts.append(one)
        ps = py.load_table("b.snaps")
        assert len(ps.metadata.snapshots) == SNAPS
        sid = ts.current_snapshot_id()
        n = [0]

        def floe_tag():
            n[0] += 1
            ts.create_tag("f%d" % n[0], snapshot_id=sid)

        def py_tag():
            n[0] += 1
            ps.manage_snapshots().create_tag(sid, "p%d" % n[0]).commit()

        report("tag_commit_%dsnaps" % SNAPS, medians(floe_tag, py_tag))
        cat.close()
    finally:
        shutil.rmtree(wh, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[1] == "peer":
        peer(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
    else:
        main()
