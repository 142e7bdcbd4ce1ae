# SPDX-License-Identifier: Apache-2.0
"""Tables: scans and writes through Arrow C streams, the snapshot lifecycle.

A :class:`Table` holds a libfloe table handle (include/floe/table.h).
Scans return Arrow data zero-copy from libfloe's ArrowArrayStream; writes
hand pyarrow batches to libfloe through the Arrow C data interface. Where a
capability is only reachable through SQL today (metadata tables, ref DDL,
the Spark procedures), the method runs floe SQL on the catalog's session.
"""
import datetime as _dt
import threading
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import pyarrow as pa

from . import _ffi
from ._ffi import ffi, lib
from .catalog import Catalog, sql_literal
from .errors import IllegalArgumentException, IllegalStateException

Timestamp = Union[int, _dt.datetime, str]
_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


def to_millis(ts: Timestamp) -> int:
    """ms since the epoch of an int (ms), a datetime (naive = UTC) or an ISO-8601 string."""
    if isinstance(ts, bool):
        raise TypeError("timestamp must be int ms, datetime or str, not bool")
    if isinstance(ts, int):
        return ts
    if isinstance(ts, str):
        ts = _dt.datetime.fromisoformat(ts.replace("Z", "+00:00"))
    if isinstance(ts, _dt.datetime):
        if ts.tzinfo is None:
            ts = ts.replace(tzinfo=_dt.timezone.utc)
        # integer arithmetic: a float timestamp() can land a millisecond early
        return (ts - _EPOCH) // _dt.timedelta(milliseconds=1)
    raise TypeError("timestamp must be int ms, datetime or str, not %s" % type(ts).__name__)


def _snapshot_id(v: Any, what: str = "snapshot_id") -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("%s must be an int, not %s" % (what, type(v).__name__))
    return v


def _reader_of(data: Any) -> pa.RecordBatchReader:
    """pyarrow Table / RecordBatch / RecordBatchReader / pandas DataFrame / Arrow
    C-stream producer -> RecordBatchReader."""
    if isinstance(data, pa.RecordBatchReader):
        return data
    if isinstance(data, pa.Table):
        return data.to_reader()
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data]).to_reader()
    mod = type(data).__module__ or ""
    if mod.startswith("pandas"):
        return pa.Table.from_pandas(data, preserve_index=False).to_reader()
    if hasattr(data, "__arrow_c_stream__"):
        return pa.RecordBatchReader.from_stream(data)
    raise TypeError("expected a pyarrow.Table, RecordBatch, RecordBatchReader or pandas.DataFrame, "
                    "got %s" % type(data).__name__)


class Scan:
    """A planned-on-demand read of a table (see :meth:`Table.scan`)."""

    def __init__(self, table: "Table", snapshot_id: Optional[int], ref: Optional[str],
                 as_of: Optional[Timestamp], filter: Optional[str], columns: Optional[Sequence[str]],
                 limit: Optional[int], case_sensitive: bool, threads: int):
        if snapshot_id is not None:
            _snapshot_id(snapshot_id)
        if ref is not None and not isinstance(ref, str):
            raise TypeError("ref must be a str")
        if filter is not None and not isinstance(filter, str):
            raise TypeError("filter must be a str (floe's filter grammar, docs/scan.md)")
        if columns is not None and (isinstance(columns, str) or
                                    not all(isinstance(c, str) for c in columns)):
            raise TypeError("columns must be a sequence of str")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
            raise TypeError("limit must be a non-negative int")
        self.table = table
        self.snapshot_id = snapshot_id
        self.ref = ref
        self.as_of = None if as_of is None else to_millis(as_of)
        self.filter = filter
        self.columns = list(columns) if columns is not None else None
        self.limit = limit
        self.case_sensitive = case_sensitive
        self.threads = threads
        self.report: Dict[str, int] = {}

    def _open(self):
        keep: list = []
        o = ffi.new("floe_scan_options *")
        o.version = lib.FLOE_SCAN_OPTIONS_VERSION
        o.case_sensitive = self.case_sensitive
        o.filter = _ffi.cstr(self.filter, keep)
        if self.columns is not None:
            o.columns = _ffi.cstr_array(self.columns, keep)
            o.ncolumns = len(self.columns)
        if self.snapshot_id is not None:
            o.has_snapshot_id = True
            o.snapshot_id = self.snapshot_id
        o.ref = _ffi.cstr(self.ref, keep)
        if self.as_of is not None:
            o.has_as_of_timestamp = True
            o.as_of_timestamp_ms = self.as_of
        o.threads = self.threads
        out = ffi.new("floe_scan **")
        _ffi.check(lib.floe_scan_open_table(out, self.table._handle(), o))
        scan = out[0]
        r = lib.floe_scan_get_report(scan)
        self.report = {k: getattr(r, k) for k in (
            "snapshot_id", "manifests_total", "manifests_skipped", "data_files_total",
            "data_files_skipped", "delete_files_total", "delete_files_applied", "tasks",
            "records_planned", "plan_ns")}
        return scan

    def plan_files(self) -> List[str]:
        """Data files the scan reads (after pruning)."""
        with self.table._lock:
            scan = self._open()
            try:
                return [_ffi.text(lib.floe_scan_task_path(scan, i))
                        for i in range(lib.floe_scan_task_count(scan))]
            finally:
                lib.floe_scan_free(scan)

    def to_reader(self) -> pa.RecordBatchReader:
        """The rows as a pyarrow RecordBatchReader over libfloe's ArrowArrayStream
        (zero-copy). Do not change this Table object while reading it; the reader
        keeps the Table and its Catalog alive until it is done."""
        return _kept_alive(self._native_reader(), self.table)

    def _native_reader(self) -> pa.RecordBatchReader:
        with self.table._lock:
            scan = self._open()
            stream = ffi.new("struct ArrowArrayStream *")
            rc = lib.floe_py_scan_stream(stream, scan)
            if rc < 0:
                lib.floe_scan_free(scan)
                _ffi.raise_last(rc)
            reader = pa.RecordBatchReader._import_from_c(_ffi.ptr_int(stream))
        return reader

    def to_batches(self) -> Iterator[pa.RecordBatch]:
        """The rows batch by batch (zero-copy from libfloe)."""
        reader = self._native_reader()
        left = self.limit
        try:
            for b in _read_batches(reader):
                if left is not None:
                    if left <= 0:
                        break
                    if b.num_rows > left:
                        b = b.slice(0, left)
                    left -= b.num_rows
                yield b
        finally:
            reader.close()

    def to_arrow(self) -> pa.Table:
        """The rows as a pyarrow Table (zero-copy from libfloe's batches)."""
        with self.table._lock:
            reader = self._native_reader()
            schema = reader.schema
            if self.limit is None:
                try:
                    return _read_all(reader)
                finally:
                    reader.close()
        return pa.Table.from_batches(list(self.to_batches_from(reader)), schema=schema)

    def to_batches_from(self, reader: pa.RecordBatchReader) -> Iterator[pa.RecordBatch]:
        """The batches of ``reader`` cut to the scan's limit (closes the reader)."""
        left = self.limit if self.limit is not None else -1
        try:
            for b in _read_batches(reader):
                if left == 0:
                    break
                if 0 < left < b.num_rows:
                    b = b.slice(0, left)
                if left > 0:
                    left -= b.num_rows
                yield b
        finally:
            reader.close()

    def to_pandas(self, **kwargs: Any) -> "pandas.DataFrame":  # noqa: F821
        """The rows as a pandas DataFrame."""
        return self.to_arrow().to_pandas(**kwargs)

    def count(self) -> int:
        """Number of rows (deletes applied)."""
        return self.to_arrow().num_rows


def _kept_alive(reader: pa.RecordBatchReader, *owners: Any) -> pa.RecordBatchReader:
    """A reader over `reader` that holds `owners` (the Table, hence the Catalog
    whose session and FileIO libfloe's stream borrows) until it is exhausted."""
    def batches() -> Iterator[pa.RecordBatch]:
        keep = owners  # noqa: F841  (referenced by the generator frame)
        try:
            yield from _read_batches(reader)
        finally:
            reader.close()
    return pa.RecordBatchReader.from_batches(reader.schema, batches())


def _read_all(reader: pa.RecordBatchReader) -> pa.Table:
    try:
        return reader.read_all()
    except OSError as e:
        raise _stream_error(e) from None


def _read_batches(reader: pa.RecordBatchReader) -> Iterator[pa.RecordBatch]:
    while True:
        try:
            b = reader.read_next_batch()
        except StopIteration:
            return
        except OSError as e:
            raise _stream_error(e) from None
        yield b


def _stream_error(e: Exception) -> BaseException:
    from .errors import error_for
    msg = str(e)
    for prefix in ("IOError: ", "Invalid: "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    return error_for(None, "FLOE_EIO", msg)


class Table(_ffi.NativeHandle):
    """An Iceberg table opened through a floe catalog.

    Writes (``append``, ``overwrite``, ``delete``) commit at once and return
    the new snapshot id; snapshot-management methods return
    ``(previous_snapshot_id, current_snapshot_id)``. The handle is refreshed
    by its own commits; :meth:`refresh` picks up other writers' commits.
    """

    def __init__(self, catalog: Catalog, identifier: str, branch: Optional[str] = None,
                 wap_id: Optional[str] = None):
        if not isinstance(identifier, str):
            raise TypeError("identifier must be a str like 'ns.table', not %s" % type(identifier).__name__)
        self.catalog = catalog
        self.identifier = identifier
        self.branch = branch
        self.wap_id = wap_id
        self._lock = threading.RLock()
        keep: list = []
        o = ffi.new("floe_table_options *")
        o.version = lib.FLOE_TABLE_OPTIONS_VERSION
        o.branch = _ffi.cstr(branch, keep)
        o.wap_id = _ffi.cstr(wap_id, keep)
        out = ffi.new("floe_table **")
        with catalog._lock:
            o.io = catalog._fileio()  # the session's storage settings (s3.*, io.location-map)
            _ffi.check(lib.floe_table_load(out, catalog._catalog_handle(), _ffi.cstr(identifier, keep), o))
        self._t = out[0]

    # ------------------------------------------------------------ lifecycle
    def _release(self) -> None:
        if self._t is not None:
            lib.floe_table_free(self._t)
            self._t = None

    def _handle(self):
        if self._t is None:
            raise IllegalStateException("Table %s is closed" % self.identifier)
        self.catalog._session()  # raises when the catalog was closed
        return self._t

    def refresh(self) -> "Table":
        """Reload the table's metadata from the catalog."""
        with self._lock:
            _ffi.check(lib.floe_table_refresh(self._handle()))
        return self

    def with_branch(self, branch: str) -> "Table":
        """A new handle on the same table whose writes go to ``branch``."""
        return Table(self.catalog, self.identifier, branch=branch, wap_id=self.wap_id)

    def with_wap_id(self, wap_id: str) -> "Table":
        """A new handle whose appends are staged with ``wap.id`` (write.wap.enabled tables)."""
        return Table(self.catalog, self.identifier, branch=self.branch, wap_id=wap_id)

    # ------------------------------------------------------------ properties
    @property
    def metadata_location(self) -> str:
        """Location of the table's current metadata.json."""
        with self._lock:
            return _ffi.text(lib.floe_table_metadata_location(self._handle()))

    @property
    def location(self) -> str:
        """The table's base location (``s3a://warehouse/shop.db/orders``, ...)."""
        with self._lock:
            return _ffi.text(lib.floe_table_location(self._handle()))

    @property
    def format_version(self) -> int:
        """The Iceberg format version (1, 2 or 3)."""
        with self._lock:
            return lib.floe_table_format_version(self._handle())

    def property(self, key: str) -> Optional[str]:
        """A table property, or None."""
        keep: list = []
        with self._lock:
            return _ffi.text(lib.floe_table_property(self._handle(), _ffi.cstr(key, keep)))

    def current_snapshot_id(self) -> Optional[int]:
        """main's current snapshot id (None for an empty table)."""
        info = ffi.new("floe_snapshot_info *")
        with self._lock:
            return info.snapshot_id if lib.floe_table_current_snapshot(info, self._handle()) else None

    def snapshot_ids(self) -> List[int]:
        """Ids of every snapshot in the metadata, in metadata order."""
        info = ffi.new("floe_snapshot_info *")
        with self._lock:
            t = self._handle()
            ids = []
            for i in range(lib.floe_table_snapshot_count(t)):
                lib.floe_table_snapshot_at(info, t, i)
                ids.append(info.snapshot_id)
            return ids

    def schema(self) -> pa.Schema:
        """The current schema as a pyarrow Schema (what :meth:`append` expects)."""
        s = ffi.new("struct ArrowSchema *")
        with self._lock:
            _ffi.check(lib.floe_table_arrow_schema(s, self._handle()))
        return pa.Schema._import_from_c(_ffi.ptr_int(s))

    def set_properties(self, **props: Any) -> None:
        """ALTER TABLE ... SET TBLPROPERTIES (write dots as ``__`` or pass a dict with **):
        one commit through floe_table_update_properties; nothing to set commits nothing."""
        items = {k.replace("__", "."): v if isinstance(v, str) else str(v).lower()
                 if isinstance(v, bool) else str(v) for k, v in props.items()}
        if not items:
            return
        p = _ffi.props(items)
        with self._lock:
            _ffi.check(lib.floe_table_update_properties(self._handle(), p, ffi.NULL, 0))

    # ------------------------------------------------------------ reads
    def scan(self, snapshot_id: Optional[int] = None, ref: Optional[str] = None,
             as_of: Optional[Timestamp] = None, filter: Optional[str] = None,
             columns: Optional[Sequence[str]] = None, limit: Optional[int] = None,
             case_sensitive: bool = True, threads: int = 0) -> Scan:
        """A scan: at a snapshot id, a ref (branch/tag), or ``as_of`` a time
        (ms, datetime or ISO string), with a row filter in floe's grammar
        (``"amount > 10 AND day = '2026-09-20'"``), a projection and a limit.
        Unknown snapshots raise the Iceberg exception."""
        return Scan(self, snapshot_id, ref, as_of, filter, columns, limit, case_sensitive, threads)

    def to_arrow(self) -> pa.Table:
        """Every row of the current snapshot."""
        return self.scan().to_arrow()

    def _range_opts(self, start: Optional[int], end: Optional[int], keep: list,
                    start_ts: Optional[Timestamp] = None, end_ts: Optional[Timestamp] = None):
        o = ffi.new("floe_incremental_options *")
        o.version = lib.FLOE_INCREMENTAL_OPTIONS_VERSION
        if start is not None:
            o.has_start_snapshot_id = True
            o.start_snapshot_id = _snapshot_id(start, "start")
        if end is not None:
            o.has_end_snapshot_id = True
            o.end_snapshot_id = _snapshot_id(end, "end")
        if start_ts is not None:
            o.has_start_timestamp_ms = True
            o.start_timestamp_ms = to_millis(start_ts)
        if end_ts is not None:
            o.has_end_timestamp_ms = True
            o.end_timestamp_ms = to_millis(end_ts)
        keep.append(o)
        return o

    def incremental_append(self, start: Optional[int] = None, end: Optional[int] = None,
                           append_only: bool = False) -> pa.Table:
        """Rows appended after snapshot ``start`` (exclusive) up to ``end``
        (inclusive; default main's head). A delete/overwrite in the range raises
        :class:`floe.IllegalArgumentException` unless ``append_only`` (Spark's
        behaviour: skip them) -- docs/sql.md, incremental reads."""
        keep: list = []
        o = self._range_opts(start, end, keep)
        o.mode = lib.FLOE_INCREMENTAL_APPEND_ONLY if append_only else lib.FLOE_INCREMENTAL_STRICT
        out = ffi.new("floe_incremental **")
        stream = ffi.new("struct ArrowArrayStream *")
        with self._lock:
            t = self._handle()
            _ffi.check(lib.floe_incremental_append_open(out, lib.floe_table_io(t),
                                                        lib.floe_table_metadata_location(t), o))
            rc = lib.floe_py_incremental_stream(stream, out[0])
            if rc < 0:
                lib.floe_incremental_free(out[0])
                _ffi.raise_last(rc)
            return _read_all(pa.RecordBatchReader._import_from_c(_ffi.ptr_int(stream)))

    def changelog(self, start: Optional[int] = None, end: Optional[int] = None,
                  start_timestamp: Optional[Timestamp] = None, end_timestamp: Optional[Timestamp] = None,
                  compute_updates: bool = False, net_changes: bool = False,
                  identifier_columns: Optional[Sequence[str]] = None) -> pa.Table:
        """Spark's changelog view of the range: the columns plus ``_change_type``,
        ``_change_ordinal`` and ``_commit_snapshot_id``."""
        keep: list = []
        o = self._range_opts(start, end, keep, start_timestamp, end_timestamp)
        o.compute_updates = compute_updates
        o.net_changes = net_changes
        if identifier_columns:
            o.identifier_columns = _ffi.cstr_array(list(identifier_columns), keep)
            o.nidentifier_columns = len(identifier_columns)
        out = ffi.new("floe_changelog **")
        stream = ffi.new("struct ArrowArrayStream *")
        with self._lock:
            t = self._handle()
            _ffi.check(lib.floe_changelog_open(out, lib.floe_table_io(t),
                                               lib.floe_table_metadata_location(t), o))
            rc = lib.floe_py_changelog_stream(stream, out[0])
            if rc < 0:
                lib.floe_changelog_free(out[0])
                _ffi.raise_last(rc)
            return _read_all(pa.RecordBatchReader._import_from_c(_ffi.ptr_int(stream)))

    # ------------------------------------------------------------ writes
    def _batches_for(self, data: Any) -> Iterator[pa.RecordBatch]:
        schema = self.schema()
        reader = _reader_of(data)
        names = [f.name for f in schema]
        for b in reader:
            if b.schema.names != names:
                missing = [n for n in names if n not in b.schema.names]
                extra = [n for n in b.schema.names if n not in names]
                if extra:
                    raise IllegalArgumentException(
                        "Cannot write incompatible dataset to table with schema: "
                        "unknown columns %s" % extra)
                cols = [b.column(n) if n in b.schema.names else pa.nulls(b.num_rows, schema.field(n).type)
                        for n in names]
                b = pa.RecordBatch.from_arrays(cols, names=names)
                del missing
            if not b.schema.equals(schema, check_metadata=False):
                try:
                    b = b.cast(schema, safe=True) if hasattr(b, "cast") else \
                        pa.Table.from_batches([b]).cast(schema).to_batches()[0]
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError, ValueError) as e:
                    raise IllegalArgumentException("Cannot write incompatible dataset to table "
                                                   "with schema %s: %s" % (schema, e)) from None
            yield b

    @staticmethod
    def _export(batch: pa.RecordBatch):
        arr = ffi.new("struct ArrowArray *")
        batch._export_to_c(_ffi.ptr_int(arr))
        return arr

    def append(self, data: Any, snapshot_properties: Optional[Dict[str, str]] = None) -> Optional[int]:
        """Append rows (pyarrow Table / RecordBatch / RecordBatchReader or pandas
        DataFrame; columns by name, cast to the table's types). Returns the new
        snapshot id (None when there were no rows: nothing is committed)."""
        with self._lock:
            batches = self._batches_for(data)
            out = ffi.new("floe_append **")
            _ffi.check(lib.floe_append_new(out, self._handle()))
            a = out[0]
            try:
                keep: list = []
                for k, v in (snapshot_properties or {}).items():
                    _ffi.check(lib.floe_append_set(a, _ffi.cstr(k, keep), _ffi.cstr(str(v), keep)))
                for b in batches:
                    arr = self._export(b)
                    try:
                        _ffi.check(lib.floe_append_write(a, arr))
                    finally:
                        if arr.release != ffi.NULL:
                            arr.release(arr)
                sid = ffi.new("int64_t *")
                _ffi.check(lib.floe_append_commit(sid, a))
                return None if sid[0] == -1 else sid[0]
            finally:
                lib.floe_append_free(a)

    def _rowlevel(self, filter: Optional[str], data: Any) -> Optional[int]:
        if filter is not None and not isinstance(filter, str):
            raise TypeError("filter must be a str (floe's filter grammar, docs/scan.md)")
        keep: list = []
        with self._lock:
            batches = list(self._batches_for(data)) if data is not None else []
            o = ffi.new("floe_rowlevel_options *")
            o.version = lib.FLOE_ROWLEVEL_OPTIONS_VERSION
            o.kind = lib.FLOE_ROWLEVEL_DELETE
            out = ffi.new("floe_rowlevel **")
            _ffi.check(lib.floe_rowlevel_new(out, self._handle(), o))
            op = out[0]
            try:
                _ffi.check(lib.floe_rowlevel_delete_where(op, _ffi.cstr(filter, keep)))
                for b in batches:
                    arr = self._export(b)
                    try:
                        _ffi.check(lib.floe_rowlevel_write(op, arr))
                    finally:
                        if arr.release != ffi.NULL:
                            arr.release(arr)
                sid = ffi.new("int64_t *")
                _ffi.check(lib.floe_rowlevel_commit(sid, ffi.NULL, op))
                return None if sid[0] == -1 else sid[0]
            finally:
                lib.floe_rowlevel_free(op)

    def overwrite(self, data: Any, filter: Optional[str] = None) -> Optional[int]:
        """Replace the rows matching ``filter`` (every row when None) by ``data``,
        in one snapshot (PyIceberg's ``overwrite(df, overwrite_filter)``)."""
        return self._rowlevel(filter if filter is not None else "", data)

    def delete(self, filter: str) -> Optional[int]:
        """Delete the rows matching ``filter``; None when nothing matched (no snapshot)."""
        if not isinstance(filter, str):
            raise TypeError("filter must be a str (floe's filter grammar, docs/scan.md)")
        return self._rowlevel(filter, None)

    # ------------------------------------------------------------ snapshot management
    def _move(self, fn, *args) -> Tuple[int, int]:
        prev = ffi.new("int64_t *")
        cur = ffi.new("int64_t *")
        with self._lock:
            _ffi.check(fn(prev, cur, self._handle(), *args))
        return prev[0], cur[0]

    def rollback_to(self, snapshot_id: int) -> Tuple[int, int]:
        """Move main to an ancestor snapshot (CALL system.rollback_to_snapshot)."""
        return self._move(lib.floe_table_rollback_to_snapshot, _snapshot_id(snapshot_id))

    def rollback_to_timestamp(self, ts: Timestamp) -> Tuple[int, int]:
        """Move main to the latest ancestor older than ``ts``."""
        return self._move(lib.floe_table_rollback_to_timestamp, to_millis(ts))

    def set_current(self, snapshot: Union[int, str]) -> Tuple[int, int]:
        """Move main to any snapshot id, or to the snapshot a ref names."""
        if isinstance(snapshot, str):
            keep: list = []
            return self._move(lib.floe_table_set_current_ref, _ffi.cstr(snapshot, keep))
        return self._move(lib.floe_table_set_current_snapshot, _snapshot_id(snapshot))

    def cherrypick(self, snapshot_id: int) -> Tuple[int, int]:
        """Publish a staged (WAP) snapshot onto main."""
        return self._move(lib.floe_table_cherrypick_snapshot, _snapshot_id(snapshot_id))

    def publish_changes(self, wap_id: str) -> Tuple[int, int]:
        """CALL system.publish_changes: cherry-pick the snapshot staged with ``wap_id``."""
        r = self._call("publish_changes", "wap_id => %s" % sql_literal(wap_id)).fetchall()[0]
        return r[0], r[1]

    def fast_forward(self, branch: str, to: str) -> Tuple[int, int]:
        """Move ``branch`` to the head of ``to`` when it is an ancestor."""
        keep: list = []
        return self._move(lib.floe_table_fast_forward, _ffi.cstr(branch, keep), _ffi.cstr(to, keep))

    @staticmethod
    def _retention(name: str, v: Union[int, _dt.timedelta]) -> str:
        ms = int(v.total_seconds() * 1000) if isinstance(v, _dt.timedelta) else v
        if isinstance(ms, bool) or not isinstance(ms, int) or ms <= 0:
            raise TypeError("%s must be a positive timedelta or ms" % name)
        for unit, size in (("DAYS", 86400000), ("HOURS", 3600000), ("MINUTES", 60000)):
            if ms % size == 0:
                return "%d %s" % (ms // size, unit)
        raise IllegalArgumentException("%s must be a whole number of minutes" % name)

    def _ref_ddl(self, kind: str, name: str, snapshot_id: Optional[int], replace: bool,
                 if_not_exists: bool, retain, min_snapshots: Optional[int] = None,
                 max_snapshot_age=None) -> None:
        if not isinstance(name, str):
            raise TypeError("%s name must be a str" % kind.lower())
        verb = "CREATE OR REPLACE" if replace else "CREATE"
        q = "ALTER TABLE %s %s %s%s `%s`" % (self.identifier, verb, kind,
                                             " IF NOT EXISTS" if if_not_exists else "", name.replace("`", "``"))
        if snapshot_id is not None:
            q += " AS OF VERSION %d" % _snapshot_id(snapshot_id)
        if retain is not None:
            q += " RETAIN " + self._retention("retain", retain)
        if min_snapshots is not None or max_snapshot_age is not None:
            q += " WITH SNAPSHOT RETENTION"
            if min_snapshots is not None:
                q += " %d SNAPSHOTS" % _snapshot_id(min_snapshots, "min_snapshots")
            if max_snapshot_age is not None:
                q += " " + self._retention("max_snapshot_age", max_snapshot_age)
        self._sql(q)

    def create_branch(self, name: str, snapshot_id: Optional[int] = None, replace: bool = False,
                      if_not_exists: bool = False, retain: Union[int, _dt.timedelta, None] = None,
                      min_snapshots: Optional[int] = None,
                      max_snapshot_age: Union[int, _dt.timedelta, None] = None) -> None:
        """ALTER TABLE ... CREATE BRANCH (retention as timedelta or ms, whole minutes)."""
        self._ref_ddl("BRANCH", name, snapshot_id, replace, if_not_exists, retain, min_snapshots,
                      max_snapshot_age)

    def create_tag(self, name: str, snapshot_id: Optional[int] = None, replace: bool = False,
                   if_not_exists: bool = False, retain: Union[int, _dt.timedelta, None] = None) -> None:
        """ALTER TABLE ... CREATE TAG (RETAIN as timedelta or ms, whole minutes)."""
        self._ref_ddl("TAG", name, snapshot_id, replace, if_not_exists, retain)

    def drop_branch(self, name: str, if_exists: bool = False) -> None:
        """ALTER TABLE ... DROP BRANCH."""
        self._sql("ALTER TABLE %s DROP BRANCH %s`%s`" % (self.identifier, "IF EXISTS " if if_exists else "", name))

    def drop_tag(self, name: str, if_exists: bool = False) -> None:
        """ALTER TABLE ... DROP TAG."""
        self._sql("ALTER TABLE %s DROP TAG %s`%s`" % (self.identifier, "IF EXISTS " if if_exists else "", name))

    # ------------------------------------------------------------ SQL-backed helpers
    def _sql(self, text: str):
        self._handle()
        r = self.catalog.sql(text)
        with self._lock:
            if self._t is not None:
                _ffi.check(lib.floe_table_refresh(self._t))
        return r

    def _call(self, proc: str, args: str):
        return self._sql("CALL %s.system.%s(table => %s%s)" % (
            self.catalog.name, proc, sql_literal(self.identifier), ", " + args if args else ""))

    def _metadata_stream(self, name: str, snapshot_id: Optional[int], ref: Optional[str],
                         as_of: Optional[Timestamp], batch_rows: int) -> pa.RecordBatchReader:
        if not isinstance(name, str):
            raise TypeError("metadata table name must be a str, not %s" % type(name).__name__)
        if isinstance(batch_rows, bool) or not isinstance(batch_rows, int) or batch_rows < 0:
            raise TypeError("batch_rows must be a non-negative int")
        keep: list = []
        o = ffi.new("floe_metadata_table_options *")
        o.version = lib.FLOE_METADATA_TABLE_OPTIONS_VERSION
        if snapshot_id is not None:
            o.has_snapshot_id = True
            o.snapshot_id = _snapshot_id(snapshot_id)
        if ref is not None:
            if not isinstance(ref, str):
                raise TypeError("ref must be a str")
            o.ref = _ffi.cstr(ref, keep)
        if as_of is not None:
            o.has_as_of_timestamp = True
            o.as_of_timestamp_ms = to_millis(as_of)
        o.batch_rows = batch_rows
        stream = ffi.new("struct ArrowArrayStream *")
        with self._lock:
            _ffi.check(lib.floe_metadata_table_stream(stream, self._handle(), _ffi.cstr(name, keep), o))
        return pa.RecordBatchReader._import_from_c(_ffi.ptr_int(stream))

    def metadata_reader(self, name: str, snapshot_id: Optional[int] = None, ref: Optional[str] = None,
                        as_of: Optional[Timestamp] = None,
                        batch_rows: int = 0) -> pa.RecordBatchReader:
        """Metadata table ``name`` as a pyarrow RecordBatchReader over libfloe's
        ArrowArrayStream (include/floe/meta.h), batch by batch: memory stays
        bounded whatever the number of files. Column names and types are
        Spark's (``committed_at`` timestamp[us, UTC], ``summary``
        map<string, string>, ``partition`` and ``readable_metrics`` structs).

        Time travel (``snapshot_id``, ``ref`` or ``as_of``) is accepted by the
        tables Spark allows it on (files, data_files, delete_files, entries,
        manifests, partitions, position_deletes). Errors:
        :class:`NotFoundException` ``Unknown metadata table: x``,
        ``Cannot find snapshot with ID n``; :class:`IllegalArgumentException`
        ``Cannot select snapshot in table: HISTORY``. The reader holds its own
        copy of the table's metadata: the Table may change meanwhile (it reads
        manifests through the Catalog's FileIO, so it keeps the Catalog alive)."""
        return _kept_alive(self._metadata_stream(name, snapshot_id, ref, as_of, batch_rows), self)

    def metadata_table(self, name: str, snapshot_id: Optional[int] = None, ref: Optional[str] = None,
                       as_of: Optional[Timestamp] = None) -> pa.Table:
        """Metadata table ``name`` (snapshots, history, refs, metadata_log_entries,
        files, data_files, delete_files, all_files, all_data_files,
        all_delete_files, manifests, all_manifests, entries, all_entries,
        partitions, position_deletes) as a pyarrow Table with Spark's column
        names and types; see :meth:`metadata_reader`."""
        return _read_all(self._metadata_stream(name, snapshot_id, ref, as_of, 0))

    def history(self) -> pa.Table:
        """``t.history``: made_current_at, snapshot_id, parent_id, is_current_ancestor."""
        return self.metadata_table("history")

    def snapshots(self) -> pa.Table:
        """``t.snapshots``: committed_at, snapshot_id, parent_id, operation, manifest_list, summary."""
        return self.metadata_table("snapshots")

    def refs(self) -> pa.Table:
        """``t.refs``: name, type, snapshot_id, max_reference_age_in_ms,
        min_snapshots_to_keep, max_snapshot_age_in_ms."""
        return self.metadata_table("refs")

    def metadata_log_entries(self) -> pa.Table:
        """``t.metadata_log_entries``: timestamp, file, latest_snapshot_id,
        latest_schema_id, latest_sequence_number."""
        return self.metadata_table("metadata_log_entries")

    def files(self, snapshot_id: Optional[int] = None, ref: Optional[str] = None,
              as_of: Optional[Timestamp] = None) -> pa.Table:
        """``t.files``: the live data and delete files of a snapshot (DataFile's
        columns plus readable_metrics)."""
        return self.metadata_table("files", snapshot_id, ref, as_of)

    def data_files(self, snapshot_id: Optional[int] = None, ref: Optional[str] = None,
                   as_of: Optional[Timestamp] = None) -> pa.Table:
        """``t.data_files``: like :meth:`files`, data files only."""
        return self.metadata_table("data_files", snapshot_id, ref, as_of)

    def delete_files(self, snapshot_id: Optional[int] = None, ref: Optional[str] = None,
                     as_of: Optional[Timestamp] = None) -> pa.Table:
        """``t.delete_files``: like :meth:`files`, delete files only."""
        return self.metadata_table("delete_files", snapshot_id, ref, as_of)

    def manifests(self, snapshot_id: Optional[int] = None, ref: Optional[str] = None,
                  as_of: Optional[Timestamp] = None) -> pa.Table:
        """``t.manifests``: the manifests of a snapshot with their counts and
        partition summaries."""
        return self.metadata_table("manifests", snapshot_id, ref, as_of)

    def entries(self, snapshot_id: Optional[int] = None, ref: Optional[str] = None,
                as_of: Optional[Timestamp] = None) -> pa.Table:
        """``t.entries``: manifest entries (status, snapshot_id, sequence
        numbers, data_file struct, readable_metrics)."""
        return self.metadata_table("entries", snapshot_id, ref, as_of)

    def partitions(self, snapshot_id: Optional[int] = None, ref: Optional[str] = None,
                   as_of: Optional[Timestamp] = None) -> pa.Table:
        """``t.partitions``: per-partition counts (record_count, file_count, ...)."""
        return self.metadata_table("partitions", snapshot_id, ref, as_of)

    def position_deletes(self, snapshot_id: Optional[int] = None, ref: Optional[str] = None,
                         as_of: Optional[Timestamp] = None) -> pa.Table:
        """``t.position_deletes``: the rows of the position-delete files."""
        return self.metadata_table("position_deletes", snapshot_id, ref, as_of)

    def all_files(self) -> pa.Table:
        """``t.all_files``: files of every retained snapshot."""
        return self.metadata_table("all_files")

    def all_data_files(self) -> pa.Table:
        """``t.all_data_files``."""
        return self.metadata_table("all_data_files")

    def all_delete_files(self) -> pa.Table:
        """``t.all_delete_files``."""
        return self.metadata_table("all_delete_files")

    def all_manifests(self) -> pa.Table:
        """``t.all_manifests``: manifests of every retained snapshot."""
        return self.metadata_table("all_manifests")

    def all_entries(self) -> pa.Table:
        """``t.all_entries``: manifest entries of every retained snapshot."""
        return self.metadata_table("all_entries")

    def expire_snapshots(self, older_than: Optional[Timestamp] = None, retain_last: Optional[int] = None,
                         snapshot_ids: Optional[Sequence[int]] = None, dry_run: bool = False) -> Dict[str, int]:
        """CALL system.expire_snapshots; returns the procedure's counts."""
        args = []
        if older_than is not None:
            ms = to_millis(older_than)
            ts = _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")
            args.append("older_than => TIMESTAMP '%s'" % ts)
        if retain_last is not None:
            args.append("retain_last => %d" % _snapshot_id(retain_last, "retain_last"))
        if snapshot_ids:
            args.append("snapshot_ids => array(%s)" % ", ".join(str(_snapshot_id(i)) for i in snapshot_ids))
        if dry_run:
            args.append("dry_run => true")
        return self._call("expire_snapshots", ", ".join(args)).fetchall()[0].asDict()

    def remove_orphan_files(self, older_than: Optional[Timestamp] = None, dry_run: bool = False,
                            location: Optional[str] = None) -> List[str]:
        """CALL system.remove_orphan_files; returns the orphan file locations."""
        args = []
        if older_than is not None:
            ms = to_millis(older_than)
            ts = _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")
            args.append("older_than => TIMESTAMP '%s'" % ts)
        if dry_run:
            args.append("dry_run => true")
        if location is not None:
            args.append("location => %s" % sql_literal(location))
        return [r[0] for r in self._call("remove_orphan_files", ", ".join(args)).fetchall()]

    def inventory(self, snapshot_id: Optional[int] = None, ref: Optional[str] = None,
                  as_of: Optional[Timestamp] = None) -> pa.Table:
        """Every object a snapshot needs (metadata, manifest list, manifests, data
        and delete files) with kind, path, size, content and status."""
        from ._inventory import inventory
        return inventory(self, snapshot_id, ref, as_of)

    def __repr__(self) -> str:
        return "Table(%r)" % self.identifier
