# SPDX-License-Identifier: Apache-2.0
"""floe_props (include/floe/common.h) through the cffi module, and the package's
uses of it: Table.set_properties (floe_table_update_properties) and
Catalog.namespace_properties (floe_catalog_load_namespace)."""
import pytest

import floe
from floe._ffi import ffi, lib, props, props_dict, text


def test_props_map_keeps_insertion_order_and_replaces_in_place():
    out = ffi.new("floe_props **")
    assert lib.floe_props_new(out) == 0
    p = out[0]
    try:
        assert lib.floe_props_count(p) == 0
        assert lib.floe_props_set(p, b"b", b"1") == 0
        assert lib.floe_props_set(p, b"a", b"2") == 0
        assert lib.floe_props_set(p, b"b", b"3") == 0  # existing key keeps its place
        assert lib.floe_props_count(p) == 2
        assert [text(lib.floe_props_key_at(p, i)) for i in range(2)] == ["b", "a"]
        assert [text(lib.floe_props_value_at(p, i)) for i in range(2)] == ["3", "2"]
        assert text(lib.floe_props_get(p, b"a")) == "2"
        assert lib.floe_props_get(p, b"zz") == ffi.NULL
        assert lib.floe_props_key_at(p, 2) == ffi.NULL
        assert lib.floe_props_value_at(p, 2) == ffi.NULL
        assert lib.floe_props_remove(p, b"b") is True
        assert lib.floe_props_remove(p, b"b") is False
        assert lib.floe_props_count(p) == 1 and text(lib.floe_props_key_at(p, 0)) == "a"
        assert lib.floe_props_set(p, ffi.NULL, b"x") == lib.FLOE_EINVALID
    finally:
        lib.floe_props_free(p)
    lib.floe_props_free(ffi.NULL)  # NULL is fine
    assert lib.floe_props_count(ffi.NULL) == 0
    assert lib.floe_props_get(ffi.NULL, b"a") == ffi.NULL


def test_props_helpers_round_trip():
    assert props_dict(props({"z": "1", "a": "x'y", "m": ""})) == {"z": "1", "a": "x'y", "m": ""}
    assert list(props_dict(props({"z": "1", "a": "2"}))) == ["z", "a"]
    with pytest.raises(TypeError):
        props({"k": 1})


def test_set_properties_commits_values_verbatim(table):
    before = table.metadata_location
    table.set_properties(**{"owner": "o'brien", "write.wap.enabled": True,
                            "commit.retry.num-retries": 7, "note": "a, b = c"})
    assert table.metadata_location != before  # one commit, the handle at it
    assert table.property("owner") == "o'brien"
    assert table.property("write.wap.enabled") == "true"
    assert table.property("commit.retry.num-retries") == "7"
    assert table.property("note") == "a, b = c"
    # the same table seen through SQL, and a fresh handle
    rows = dict((r[0], r[1]) for r in table.catalog.sql(
        "SHOW TBLPROPERTIES %s" % table.identifier).fetchall())
    assert rows["owner"] == "o'brien" and rows["note"] == "a, b = c"
    assert table.catalog.load_table(table.identifier).property("owner") == "o'brien"
    # double underscores stand for dots; nothing to set commits nothing
    table.set_properties(read__split__target_size="1024")
    assert table.property("read.split.target_size") == "1024"
    loc = table.metadata_location
    table.set_properties()
    assert table.metadata_location == loc


def test_namespace_properties(cat):
    cat.sql("CREATE NAMESPACE shop WITH PROPERTIES ('owner' = 'ann', 'team' = 'core')")
    got = cat.namespace_properties("shop")
    assert got["owner"] == "ann" and got["team"] == "core"
    with pytest.raises(floe.NoSuchNamespaceException, match="Namespace does not exist: nope"):
        cat.namespace_properties("nope")
