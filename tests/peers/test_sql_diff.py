# SPDX-License-Identifier: Apache-2.0
"""Differential SQL tests (issue #22): every query of tests/peers/sql_corpus/*.sql runs on
Spark 3.5 (the peer suite's session) and on `floe sql` over the same tables, and the
results are compared cell by cell in Spark's printing: Spark's `show()` text
(`Dataset.showString(n, 0, false)`) against floe's `--format table`, which prints the
same boxes. Header lines are not compared (Spark names an unaliased expression after
its text, floe after SQLite's); row order only where the case says `ordered`.

The tables are written by floe (sql_corpus/setup.sql) into its SQLite catalog and read
by Spark through the JDBC catalog under the same name, so both sides read the same
Iceberg files. A statement that fails on a side prints as `error: <class>` (Spark's
exception class, floe's message prefix).

A case whose results differ is either a bug to fix or is listed in docs/sql.md under
"Known differences from Spark" with both outputs; the test then asserts both sides still
print exactly what is documented, so a fix (or a regression) is noticed and the entry
removed. FLOE_SQL_DIFF_REPORT=FILE writes the table lines of the cases that differ.

Corpus format: `-- case: NAME [ordered]` starts a case; the lines up to the next case
are one statement (a trailing `;` is dropped).
"""
import glob
import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import FLOE, ROOT, add_catalog, jdbc_props

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sql_corpus")
DOC = os.path.join(ROOT, "docs", "sql.md")
CAT = "sqldiff"
KNOWN_HEAD = "## Known differences from Spark"


def load_corpus():
    cases = []
    for path in sorted(glob.glob(os.path.join(CORPUS, "*.sql"))):
        if os.path.basename(path) == "setup.sql":
            continue
        name, flags, lines = None, (), []
        for line in open(path, encoding="utf-8").read().splitlines() + ["-- case: <end>"]:
            m = re.match(r"^-- case:\s*(\S+)\s*(.*)$", line)
            if not m:
                lines.append(line)
                continue
            if name is not None:
                q = "\n".join(lines).strip().rstrip(";").strip()
                cases.append((name, q, "ordered" in flags))
            name, flags, lines = m.group(1), m.group(2).split(), []
    names = [c[0] for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, f"duplicate case names: {sorted(dup)}"
    return cases


CASES = load_corpus()


def parse_boxes(text):
    """Rows of a show() box table as lists of cell texts (the header dropped)."""
    lines = [l for l in text.splitlines() if l.startswith("|")]
    return [[c.strip() for c in l[1:-1].split("|")] for l in lines[1:]]


def normal(result, ordered):
    if isinstance(result, str):
        return result
    return result if ordered else sorted(result)


def render(result):
    return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)


def load_known():
    """docs/sql.md "Known differences from Spark": | `case` | `spark` | `floe` | rows."""
    text = open(DOC, encoding="utf-8").read()
    start = text.find(KNOWN_HEAD)
    assert start >= 0, f"docs/sql.md lacks the section {KNOWN_HEAD!r}"
    body = text[start + len(KNOWN_HEAD):]
    end = body.find("\n## ")
    body = body if end < 0 else body[:end]
    known = {}
    for line in body.splitlines():
        m = re.match(r"^\| `([^`]+)` \| `(.*)` \| `(.*)` \|\s*$", line)
        if m:
            known[m.group(1)] = tuple(s.replace("\\|", "|") for s in m.group(2, 3))
    return known


def floe_one(wh, q):
    p = subprocess.run([FLOE, "sql", "--quiet", "--catalog-name", CAT, "--warehouse", wh,
                        "--format", "table", "-c", q], capture_output=True, text=True,
                       timeout=120)
    if p.returncode != 0:
        m = re.match(r"^([A-Za-z_.]+)(?::|$)", p.stderr.strip())
        return "error: " + (m.group(1) if m else p.stderr.strip()[:60])
    return parse_boxes(p.stdout)


def spark_one(spark, q):
    try:
        return parse_boxes(spark.sql(q)._jdf.showString(100000, 0, False))
    except Exception as e:  # noqa: BLE001 -- the class is the result
        return "error: " + type(e).__name__


@pytest.fixture(scope="module")
def results(spark, floe_bin, tmp_path_factory):
    wh = str(tmp_path_factory.mktemp("sqldiff"))
    setup = os.path.join(CORPUS, "setup.sql")
    p = subprocess.run([floe_bin, "sql", "--quiet", "--catalog-name", CAT, "--warehouse", wh,
                        "-f", setup], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, "setup.sql failed on floe: " + p.stderr
    add_catalog(spark, CAT, jdbc_props(os.path.join(wh, "catalog.db"), wh))
    before = spark.catalog.currentCatalog()
    spark.sql(f"USE {CAT}")
    try:  # Spark plans each query on the driver: a few threads overlap that work
        with ThreadPoolExecutor(4) as pool:
            want = dict(zip([c[0] for c in CASES],
                            pool.map(lambda c: spark_one(spark, c[1]), CASES)))
    finally:
        spark.sql(f"USE {before}")
    with ThreadPoolExecutor(2) as pool:
        got = dict(zip([c[0] for c in CASES], pool.map(lambda c: floe_one(wh, c[1]), CASES)))
    out = {}
    for name, _, ordered in CASES:
        out[name] = (normal(want[name], ordered), normal(got[name], ordered))
    report = os.environ.get("FLOE_SQL_DIFF_REPORT")
    if report:
        with open(report, "w", encoding="utf-8") as f:
            for name, (s, fl) in out.items():
                if s != fl:
                    f.write(f"| `{name}` | `{render(s).replace('|', chr(92) + '|')}` | "
                            f"`{render(fl).replace('|', chr(92) + '|')}` |\n")
    return out


KNOWN = load_known()


def test_known_entries_are_cases():
    names = {c[0] for c in CASES}
    stale = sorted(set(KNOWN) - names)
    assert not stale, f"docs/sql.md lists differences of cases not in the corpus: {stale}"


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_sql_diff(results, name):
    spark, floe = results[name]
    if name in KNOWN:
        doc_spark, doc_floe = KNOWN[name]
        assert render(spark) == doc_spark, f"Spark no longer prints what docs/sql.md says"
        assert render(floe) != render(spark), \
            "floe now matches Spark: remove the case from docs/sql.md Known differences"
        assert render(floe) == doc_floe, "floe's output changed from what docs/sql.md says"
    else:
        assert floe == spark, f"floe {render(floe)} != Spark {render(spark)}"


# MERGE statements whose target scan floe prunes by the ON conjuncts over the target
# (and some it must not prune: NOT MATCHED BY SOURCE, WHEN MATCHED AND conditions,
# source columns). Spark runs them on one table, floe on an identical other one; the
# tables must then hold the same rows. {T} is the target.
MERGE_CAT = "sqlmerge"
MERGE_SETUP = """CREATE NAMESPACE m;
CREATE TABLE m.{t} (id BIGINT, day DATE, v STRING) PARTITIONED BY (day);
INSERT INTO m.{t} VALUES (1, DATE'2024-01-01', 'a'), (2, DATE'2024-01-01', 'b'),
  (3, DATE'2024-01-01', NULL), (1, DATE'2024-01-02', 'c'), (3, DATE'2024-01-02', 'd'),
  (4, NULL, 'e')"""
MERGES = [
    "MERGE INTO {T} t USING (SELECT 1 AS id, 'new' AS v UNION ALL SELECT 9, 'ins') s "
    "ON t.id = s.id AND NOT (t.day > '2024-01-01') "
    "WHEN MATCHED AND s.v <> 'zzz' THEN UPDATE SET v = s.v "
    "WHEN NOT MATCHED THEN INSERT (id, day, v) VALUES (s.id, DATE'2024-01-01', s.v)",
    "MERGE INTO {T} AS t USING (SELECT 2 AS id UNION ALL SELECT 3) AS s "
    "ON (CAST(t.day AS DATE) BETWEEN DATE'2023-12-31' AND DATE'2024-01-01' AND t.id = s.id) "
    "AND t.v IS NOT NULL WHEN MATCHED THEN DELETE",
    "MERGE INTO {T} t USING (SELECT 3 AS k, 'k' AS w) s ON t.id = s.k AND day = '2024-01-02' "
    "WHEN MATCHED THEN UPDATE SET v = s.w WHEN NOT MATCHED THEN INSERT (id, day, v) "
    "VALUES (s.k, NULL, s.w)",
    "MERGE INTO {T} t USING (SELECT 1 AS id) s ON t.id = s.id AND t.day = '2024-01-01' "
    "WHEN MATCHED THEN UPDATE SET v = 'm' WHEN NOT MATCHED BY SOURCE AND t.id = 4 "
    "THEN UPDATE SET v = 'nmbs'",
    "MERGE INTO {T} t USING (SELECT 1 AS id, DATE'2024-01-02' AS d) s "
    "ON t.id = s.id AND t.day = s.d WHEN MATCHED AND t.v = 'c' THEN UPDATE SET v = 'c2'",
    "MERGE INTO {T} t USING (SELECT 9 AS id) s ON t.id = s.id AND t.day IS NULL "
    "WHEN NOT MATCHED THEN INSERT (id, day, v) VALUES (s.id, DATE'2024-01-03', 'nn')",
    # every source row matches twice in the partition the ON keeps: the error
    "MERGE INTO {T} t USING (SELECT 1 AS id UNION ALL SELECT 1) s "
    "ON t.id = s.id AND t.day = '2024-01-01' WHEN MATCHED THEN UPDATE SET v = 'dup'",
]


def test_merge_pruned_matches_spark(spark, floe_bin, tmp_path):
    wh = str(tmp_path)
    def floe(q, fmt="csv"):
        return subprocess.run([floe_bin, "sql", "--quiet", "--catalog-name", MERGE_CAT,
                               "--warehouse", wh, "--format", fmt, "-c", q],
                              capture_output=True, text=True, timeout=120)
    for t in ("a", "b"):
        p = floe(MERGE_SETUP.replace("CREATE NAMESPACE m;", "" if t == "b" else
                                     "CREATE NAMESPACE m;").format(t=t))
        assert p.returncode == 0, p.stderr
    add_catalog(spark, MERGE_CAT, jdbc_props(os.path.join(wh, "catalog.db"), wh))
    read = "SELECT id, CAST(day AS STRING) AS day, v FROM {T} ORDER BY id, day, v"
    for q in MERGES:
        try:
            spark.sql(q.format(T=f"{MERGE_CAT}.m.a")).collect()
            spark_err = None
        except Exception as e:  # noqa: BLE001 -- the class is the result
            spark_err = type(e).__name__
        p = floe(q.format(T="m.b"))
        floe_err = None if p.returncode == 0 else p.stderr.split(":")[0].split(".")[-1]
        assert (floe_err is None) == (spark_err is None), (q, spark_err, p.stderr)
        a, b = floe(read.format(T="m.a")), floe(read.format(T="m.b"))
        assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
        assert b.stdout == a.stdout, (q, a.stdout, b.stdout)
        want = [[("" if c is None else str(c)) for c in r]
                for r in spark.sql(read.format(T=f"{MERGE_CAT}.m.a")).collect()]
        got = [r.split(",") for r in b.stdout.splitlines()[1:]]
        assert got == want, (q, want, got)
