# SPDX-License-Identifier: Apache-2.0
"""TIMESTAMP AS OF <expression> (issue #22): Spark 3.5 + Iceberg 1.11 and `floe sql` read
one table of three snapshots (floe writes it into its catalog.db, Spark reads it through
the JDBC catalog) at the same constant expressions, and must pick the same snapshot: the
count of rows tells which (1, 2 or 3), or both fail with the same exception class.
"""
import datetime
import json
import os
import time

import pytest

from conftest import Floe, add_catalog, jdbc_props

NAME = "ttexpr"


@pytest.fixture(scope="module")
def table(spark, floe_bin, tmp_path_factory):
    wh = str(tmp_path_factory.mktemp("ttexpr"))
    fl = Floe(wh, NAME)
    fl.sql("CREATE NAMESPACE db", "CREATE TABLE db.t (id INT)")
    for i in range(3):
        fl.sql(f"INSERT INTO db.t VALUES ({i})")
        time.sleep(0.05)
    add_catalog(spark, NAME, jdbc_props(os.path.join(wh, "catalog.db"), wh))
    snaps = fl.rows("SELECT committed_at FROM db.t.snapshots ORDER BY committed_at")
    commits = [r["committed_at"].replace("T", " ") for r in snaps]
    assert len(commits) == 3
    return fl, commits


def epoch(ts):
    return datetime.datetime.fromisoformat(ts).replace(
        tzinfo=datetime.timezone.utc).timestamp()


def spark_count(spark, expr):
    try:
        return spark.sql(f"SELECT count(*) FROM {NAME}.db.t TIMESTAMP AS OF {expr}").collect()[0][0]
    except Exception as e:  # noqa: BLE001 -- the class is the result
        return "error: " + type(e).__name__


def floe_count(fl, expr):
    p = fl.sql(f"SELECT count(*) AS n FROM db.t TIMESTAMP AS OF {expr}", check=False)
    if p.returncode != 0:
        return "error: " + p.stderr.strip().split(":")[0]
    return [int(json.loads(l)["n"]) for l in p.stdout.splitlines() if l.strip()][0]


CASES = [
    # (expression with {c0}..{c2} = the commits' timestamps, {s1} = the second's epoch seconds,
    #  the snapshot's row count or error class)
    ("cast('{c0}' as timestamp)", 1),
    ("TIMESTAMP'{c1}' + INTERVAL 1 MILLISECOND", 2),
    ("TIMESTAMP'{c2}' - INTERVAL 1 MONTH", "error: IllegalArgumentException"),
    ("concat('{c2}', '')", 3),
    ("{s1}", 2),
    ("{s1} - 86400", "error: IllegalArgumentException"),
    ("date_add(current_date(), 1)", 3),
    ("current_timestamp() - INTERVAL 1000 DAYS", "error: IllegalArgumentException"),
    ("current_timestamp() + INTERVAL 1 HOUR 30 MINUTES", 3),
    ("(SELECT current_timestamp())", 3),
    ("'garbage'", "error: AnalysisException"),
    ("rand()", "error: AnalysisException"),
    ("id", "error: ParseException"),
]


@pytest.mark.parametrize("expr,want", CASES, ids=[c[0] for c in CASES])
def test_same_snapshot(spark, table, expr, want):
    fl, commits = table
    e = expr.format(c0=commits[0], c1=commits[1], c2=commits[2], s1=f"{epoch(commits[1]):.3f}")
    s = spark_count(spark, e)
    assert s == want, f"Spark picked {s} for {e}"
    assert floe_count(fl, e) == s, f"floe and Spark differ for {e}"
