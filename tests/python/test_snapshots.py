# SPDX-License-Identifier: Apache-2.0
"""Snapshot management, refs, WAP, incremental reads, metadata tables, maintenance."""
import datetime

import pytest

import floe
from conftest import orders


def test_rollback_set_current_cherrypick(table):
    s1 = table.append(orders([1]))
    s2 = table.append(orders([2]))
    assert table.rollback_to(s1) == (s2, s1)
    assert table.to_arrow().num_rows == 1
    assert table.set_current(s2) == (s1, s2)
    with pytest.raises(floe.ValidationException, match="Cannot roll back to unknown snapshot id: 7"):
        table.rollback_to(7)
    with pytest.raises(floe.FloeError, match="unknown snapshot id: 7"):
        table.set_current(7)
    assert table.current_snapshot_id() == s2  # nothing committed
    assert table.history().num_rows == 4
    snaps = {r["snapshot_id"]: r["committed_at"] for r in table.snapshots().to_pylist()}
    assert all(ts.tzinfo is not None for ts in snaps.values())  # timestamptz, as Spark's
    # time travel: the snapshot current at a timestamp (at or before it)
    assert table.scan(as_of=snaps[s1]).to_arrow().num_rows == 1
    assert table.scan(as_of=snaps[s2].isoformat()).to_arrow().num_rows == 2
    # strictly older than s2's commit: s1
    assert table.rollback_to_timestamp(snaps[s2]) == (s2, s1)
    with pytest.raises(TypeError):
        table.rollback_to("1")


def test_branches_tags_fast_forward(table):
    s1 = table.append(orders([1]))
    table.create_branch("dev", retain=datetime.timedelta(days=7), min_snapshots=2,
                        max_snapshot_age=datetime.timedelta(hours=1))
    table.create_tag("v1", snapshot_id=s1, retain=datetime.timedelta(days=30))
    refs = {r["name"]: r for r in table.refs().to_pylist()}
    assert set(refs) == {"main", "dev", "v1"}
    assert refs["v1"]["max_reference_age_in_ms"] == 30 * 86400000
    assert refs["dev"]["min_snapshots_to_keep"] == 2
    dev = table.with_branch("dev")
    s2 = dev.append(orders([2]))
    assert table.scan(ref="dev").to_arrow().num_rows == 1  # the handle is as loaded
    assert table.refresh().scan(ref="dev").to_arrow().num_rows == 2
    assert table.refresh().to_arrow().num_rows == 1
    assert table.fast_forward("main", "dev") == (s1, s2)
    assert table.to_arrow().num_rows == 2
    assert table.scan(ref="v1").to_arrow().num_rows == 1
    with pytest.raises(floe.FloeError):
        table.create_tag("v1")
    table.drop_tag("v1")
    table.drop_branch("dev")
    assert [r["name"] for r in table.refs().to_pylist()] == ["main"]
    with pytest.raises(floe.IllegalArgumentException):
        table.create_branch("x", retain=datetime.timedelta(seconds=1))


def test_wap_stage_and_publish(table):
    table.append(orders([1]))
    table.set_properties(**{"write.wap.enabled": "true"})
    staged = table.with_wap_id("job-1")
    sid = staged.append(orders([2]))
    assert table.refresh().to_arrow().num_rows == 1  # staged, not published
    assert table.scan(snapshot_id=sid).to_arrow().num_rows == 2
    prev, cur = table.cherrypick(sid)
    assert cur == sid and table.to_arrow().num_rows == 2
    with pytest.raises(floe.FloeError):
        table.cherrypick(123)


def test_incremental_and_changelog(table):
    s1 = table.append(orders([1]))
    s2 = table.append(orders([2, 3]))
    s3 = table.append(orders([4]))
    inc = table.incremental_append(s1, s3)
    assert sorted(inc.column("order_id").to_pylist()) == [2, 3, 4]
    assert table.incremental_append(s2).column("order_id").to_pylist() == [4]
    table.delete("order_id = 2")
    with pytest.raises(floe.IllegalArgumentException, match="table_changes"):
        table.incremental_append(s1)
    assert sorted(table.incremental_append(s1, append_only=True).column("order_id").to_pylist()) == [2, 3, 4]
    cl = table.changelog(s3)
    assert cl.column("_change_type").to_pylist() == ["DELETE"]
    assert cl.column("order_id").to_pylist() == [2]
    with pytest.raises(floe.FloeError, match="Cannot find the starting snapshot: 99"):
        table.changelog(99)


def test_metadata_tables(table):
    table.append(orders([1]))
    table.append(orders([2], day="2026-09-21"))
    assert table.snapshots().num_rows == 2
    assert table.files().num_rows == 2
    assert table.history().num_rows == 2
    assert table.manifests().num_rows >= 1
    assert table.all_data_files().num_rows == 2
    assert table.metadata_log_entries().num_rows == 3
    assert set(table.files().column_names) >= {"file_path", "record_count"}
    with pytest.raises(floe.NotFoundException,
                       match="^Unknown metadata table: files; DROP TABLE x$"):
        table.metadata_table("files; DROP TABLE x")
    with pytest.raises(floe.NotFoundException, match="^Unknown metadata table: nope$"):
        table.metadata_table("nope")


def test_expire_orphans_inventory(table):
    s1 = table.append(orders([1]))
    table.overwrite(orders([2]))
    table.append(orders([3]))
    inv = table.inventory()
    kinds = inv.column("kind").to_pylist()
    assert kinds[0] == "metadata" and "data_file" in kinds
    assert table.inventory(snapshot_id=s1).column("kind").to_pylist().count("data_file") == 1
    with pytest.raises(floe.FloeError, match="Cannot find snapshot with ID 5"):
        table.inventory(snapshot_id=5)
    r = table.expire_snapshots(older_than=datetime.datetime.now(datetime.timezone.utc), retain_last=1)
    assert r["deleted_data_files_count"] == 1
    assert len(table.snapshot_ids()) == 1
    with pytest.raises(floe.IllegalArgumentException, match="less than 24 hours"):
        table.remove_orphan_files(older_than=datetime.datetime.now(datetime.timezone.utc))
    assert table.remove_orphan_files(dry_run=True) == []
