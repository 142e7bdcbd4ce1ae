# SPDX-License-Identifier: Apache-2.0
"""Catalogs and SQL results: ``floe.catalog(...)``, ``cat.sql(...)``.

A :class:`Catalog` is one libfloe SQL session (include/floe/sql.h) on a
SQLite, REST or Hive Metastore catalog: ``cat.sql(text)`` runs floe's Spark-dialect SQL
(docs/sql.md) and ``cat.load_table(ident)`` opens the table API
(include/floe/table.h) on the same catalog handle.
"""
import datetime as _dt
import decimal as _decimal
import re
import threading
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import pyarrow as pa

from . import _ffi
from ._ffi import ffi, lib
from .errors import IllegalArgumentException, IllegalStateException

Params = Union[Mapping[str, Any], Sequence[Any], None]


def sql_literal(v: Any) -> str:
    """A Python value as a Spark SQL literal (for ``params``)."""
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return "CAST('%s' AS DOUBLE)" % ("NaN" if v != v else ("Infinity" if v > 0 else "-Infinity"))
        return repr(v) + "D"
    if isinstance(v, _decimal.Decimal):
        return "%sBD" % v
    if isinstance(v, _dt.datetime):
        return "TIMESTAMP '%s'" % v.isoformat(sep=" ")
    if isinstance(v, _dt.date):
        return "DATE '%s'" % v.isoformat()
    if isinstance(v, str):
        # Spark's string literal: backslash escapes ('' is two literals)
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(v, (bytes, bytearray)):
        return "X'%s'" % bytes(v).hex()
    raise TypeError("cannot bind a %s as a SQL parameter" % type(v).__name__)


_TOKEN = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`|--[^\n]*|/\*.*?\*/)"""
                    r"""|(:[A-Za-z_][A-Za-z0-9_]*|\?)""", re.S)


def bind_params(text: str, params: Params) -> str:
    """Substitute ``:name`` (mapping) or ``?`` (sequence) markers outside
    quotes and comments with literals, like Spark's ``spark.sql(text, args)``."""
    if params is None:
        return text
    named = isinstance(params, Mapping)
    if not named and (isinstance(params, (str, bytes)) or not isinstance(params, Sequence)):
        raise TypeError("params must be a mapping or a sequence")
    pos = iter(range(len(params))) if not named else None

    def sub(m: "re.Match") -> str:
        if m.group(1):
            return m.group(1)
        marker = m.group(2)
        if marker == "?":
            if named:
                raise IllegalArgumentException("positional marker ? with named params")
            i = next(pos, None)
            if i is None:
                raise IllegalArgumentException("not enough params for the ? markers")
            return sql_literal(params[i])
        if not named:
            return marker  # e.g. a `:` inside an expression with positional params
        name = marker[1:]
        if name not in params:
            raise IllegalArgumentException("UNBOUND_SQL_PARAMETER: Found the unbound parameter: %s" % name)
        return sql_literal(params[name])

    return _TOKEN.sub(sub, text)


class Row(tuple):
    """A result row: a tuple that also answers by column name (``row.name``, ``row["name"]``)."""

    __slots__ = ()
    _fields: Tuple[str, ...] = ()

    def __getitem__(self, key):  # type: ignore[override]
        if isinstance(key, str):
            return tuple.__getitem__(self, self._fields.index(key))
        return tuple.__getitem__(self, key)

    def __getattr__(self, name: str):
        try:
            return tuple.__getitem__(self, self._fields.index(name))
        except ValueError:
            raise AttributeError(name) from None

    def asDict(self) -> Dict[str, Any]:
        """The row as a dict by column name (PySpark's Row.asDict)."""
        return dict(zip(self._fields, self))


class SqlResult:
    """The last result set of a ``cat.sql(...)`` call, copied out of libfloe.

    Values are typed as floe sql shows them: integers, doubles, booleans,
    strings (timestamps and dates in Spark's display form; nested values as
    JSON text) and bytes.
    """

    def __init__(self, handle):
        self._columns: List[str] = []
        self._data: List[List[Any]] = []
        self._kinds: List[set] = []
        self._text: Optional[str] = None
        self.has_rows = bool(handle != ffi.NULL and lib.floe_sql_result_has_rows(handle))
        if not self.has_rows:
            return
        ncols = lib.floe_sql_result_ncols(handle)
        nrows = lib.floe_sql_result_nrows(handle)
        for j in range(ncols):
            self._columns.append(_ffi.text(lib.floe_sql_result_column(handle, j)))
            vals = lib.floe_sql_result_column_values(handle, j)
            col: List[Any] = []
            kinds = set()
            for i in range(nrows):
                d = vals[i]
                k = d.kind
                if k == lib.FLOE_SQL_DATUM_NULL:
                    col.append(None)
                    continue
                kinds.add(k)
                if k == lib.FLOE_SQL_DATUM_INT:
                    col.append(d.i)
                elif k == lib.FLOE_SQL_DATUM_REAL:
                    col.append(d.d)
                elif k == lib.FLOE_SQL_DATUM_BOOL:
                    col.append(bool(d.i))
                elif k == lib.FLOE_SQL_DATUM_BLOB:
                    col.append(bytes(ffi.buffer(d.s, d.n)))
                else:
                    col.append(ffi.unpack(d.s, d.n).decode("utf-8", "replace"))
            self._data.append(col)
            self._kinds.append(kinds)
        out = ffi.new("char **")
        if lib.floe_sql_result_render(out, handle, lib.FLOE_SQL_RENDER_TABLE) == 0:
            self._text = ffi.string(out[0]).decode("utf-8", "replace")
            lib.floe_string_free(out[0])

    @property
    def columns(self) -> List[str]:
        """Column names."""
        return list(self._columns)

    def __len__(self) -> int:
        return len(self._data[0]) if self._data else 0

    def fetchall(self) -> List[Row]:
        """Every row as a :class:`Row` (a tuple)."""
        cls = type("Row", (Row,), {"__slots__": (), "_fields": tuple(self._columns)})
        return [cls(r) for r in zip(*self._data)] if self._data else []

    collect = fetchall

    def first(self) -> Optional[Row]:
        """The first row, or None."""
        rows = self.fetchall()
        return rows[0] if rows else None

    def __iter__(self) -> Iterator[Row]:
        return iter(self.fetchall())

    def _arrow_type(self, j: int) -> pa.DataType:
        k = self._kinds[j]
        if not k:
            return pa.null()
        if k == {lib.FLOE_SQL_DATUM_INT}:
            return pa.int64()
        if k <= {lib.FLOE_SQL_DATUM_INT, lib.FLOE_SQL_DATUM_REAL}:
            return pa.float64()
        if k == {lib.FLOE_SQL_DATUM_BOOL}:
            return pa.bool_()
        if k == {lib.FLOE_SQL_DATUM_BLOB}:
            return pa.binary()
        return pa.string()

    def to_arrow(self) -> pa.Table:
        """The result as a pyarrow Table (int64, float64, bool, string, binary columns)."""
        arrays = []
        for j, col in enumerate(self._data):
            t = self._arrow_type(j)
            if t == pa.string():
                col = [None if v is None else (v if isinstance(v, str) else str(v)) for v in col]
            arrays.append(pa.array(col, type=t))
        return pa.Table.from_arrays(arrays, names=self._columns) if arrays else pa.table({})

    def to_pandas(self) -> "pandas.DataFrame":  # noqa: F821
        """The result as a pandas DataFrame (needs pandas)."""
        return self.to_arrow().to_pandas()

    def _display(self) -> List[List[str]]:
        """Cells as floe shows them, parsed from libfloe's rendered boxes."""
        if not self._text:
            return []
        lines = self._text.splitlines()
        widths = [len(x) for x in lines[0].strip("+").split("+")]
        rows = []
        for line in lines[3:-1]:
            pos, cells = 1, []
            for w in widths:
                cells.append(line[pos:pos + w].rstrip(" "))
                pos += w + 1
            rows.append(cells)
        return rows

    def select(self, *columns: str) -> "SqlResult":
        """A result with only these columns (PySpark's DataFrame.select)."""
        idx = []
        for c in columns:
            if c not in self._columns:
                from .errors import AnalysisException
                raise AnalysisException("[UNRESOLVED_COLUMN] A column with name `%s` cannot be "
                                        "resolved. Did you mean one of %s?" % (c, self._columns))
            idx.append(self._columns.index(c))
        r = SqlResult(ffi.NULL)
        r.has_rows = True
        r._columns = [self._columns[i] for i in idx]
        r._data = [self._data[i] for i in idx]
        r._kinds = [self._kinds[i] for i in idx]
        disp = self._display()
        r._disp = [[row[i] for i in idx] for row in disp]  # type: ignore[attr-defined]
        r._text = _box(r._columns, r._disp, left=True)  # type: ignore[attr-defined]
        return r

    def show_string(self, n: Optional[int] = None, truncate: Union[bool, int] = False) -> str:
        """The result in Spark's show() boxes. With the defaults (all rows, no
        truncation) this is exactly what ``floe sql`` prints."""
        if n is None and truncate is False:
            return self._text or ""
        disp = getattr(self, "_disp", None) or self._display()
        more = n is not None and len(disp) > n
        rows = disp[:n] if n is not None else disp
        width = 20 if truncate is True else int(truncate)
        if width > 0:
            rows = [[c if len(c) <= width else (c[:width - 3] + "..." if width >= 4 else c[:width])
                     for c in row] for row in rows]
        out = _box(self._columns, rows, left=width <= 0)
        if more:
            out += "only showing top %d row%s\n" % (n, "" if n == 1 else "s")
        return out

    def show(self, n: int = 20, truncate: Union[bool, int] = True) -> None:
        """Print the result as PySpark's ``DataFrame.show(n, truncate)`` does:
        by default the first 20 rows, cells cut to 20 characters and
        right-aligned; ``show(truncate=False)`` prints left-aligned full cells,
        as ``floe sql`` does."""
        if not self.has_rows:
            return
        print(self.show_string(n, truncate), end="")

    def __repr__(self) -> str:
        return "SqlResult(columns=%r, rows=%d)" % (self._columns, len(self))


def _box(names: List[str], rows: List[List[str]], left: bool) -> str:
    """Spark's show() box around display strings (left- or right-aligned)."""
    widths = [max([3, len(n)] + [len(r[i]) for r in rows]) for i, n in enumerate(names)]
    sep = "+" + "+".join("-" * w for w in widths) + "+\n"

    def line(cells: List[str]) -> str:
        return "|" + "|".join(c.ljust(w) if left else c.rjust(w) for c, w in zip(cells, widths)) + "|\n"

    return sep + line(names) + sep + "".join(line(r) for r in rows) + sep


class Catalog(_ffi.NativeHandle):
    """A floe catalog (SQLite, REST or Hive Metastore) with its SQL session.

    Thread-safe: statements of one catalog object run one at a time; use one
    catalog object per thread for parallel statements.
    """

    def __init__(self, warehouse: Optional[str] = None, name: Optional[str] = None,
                 uri: Optional[str] = None, **props: Any):
        for k, v in (("warehouse", warehouse), ("name", name), ("uri", uri)):
            if v is not None and not isinstance(v, str):
                raise TypeError("%s must be a str, not %s" % (k, type(v).__name__))
        self._keep: list = []
        conf: List[str] = []
        if uri and uri.startswith(("http://", "https://")) and warehouse is not None:
            # REST: the warehouse is the catalog's property, not a local directory
            props.setdefault("warehouse", warehouse)
            warehouse = None
        for k, v in props.items():
            k = k.replace("__", ".")
            conf += [k, v if isinstance(v, str) else (str(v).lower() if isinstance(v, bool) else str(v))]
        opts = ffi.new("floe_sql_open_options *")
        opts.version = lib.FLOE_SQL_OPEN_OPTIONS_VERSION
        opts.warehouse = _ffi.cstr(warehouse, self._keep)
        opts.catalog_name = _ffi.cstr(name, self._keep)
        opts.catalog_uri = _ffi.cstr(uri, self._keep)
        opts.conf = _ffi.cstr_array(conf, self._keep) if conf else ffi.NULL
        opts.nconf = len(conf) // 2
        out = ffi.new("floe_sql_session **")
        _ffi.check(lib.floe_sql_open(out, opts))
        self._s = out[0]
        self._lock = threading.RLock()
        self.name = name or "local"
        self.warehouse = warehouse
        self.properties = dict(props)

    # ------------------------------------------------------------ lifecycle
    def _release(self) -> None:
        """Close the session (tables loaded from it must not be used afterwards)."""
        if self._s is not None:
            lib.floe_sql_close(self._s)
            self._s = None

    def _session(self):
        if self._s is None:
            raise IllegalStateException("Catalog %s is closed" % self.name)
        return self._s

    def _catalog_handle(self):
        return lib.floe_sql_session_catalog(self._session())

    def _fileio(self):
        """The session's FileIO (s3.* and io.location-map applied), for the table API."""
        return lib.floe_sql_session_fileio(self._session())

    # ------------------------------------------------------------ SQL
    def sql(self, text: str, params: Params = None) -> SqlResult:
        """Run floe SQL (Spark dialect; docs/sql.md) and return the last result set.

        ``params`` binds ``:name`` markers (a mapping) or ``?`` markers (a
        sequence) as literals. Raises the Iceberg/Spark exception of the
        failing statement (e.g. :class:`floe.ValidationException`).
        """
        if not isinstance(text, str):
            raise TypeError("sql text must be a str, not %s" % type(text).__name__)
        text = bind_params(text, params)
        keep: list = []
        out = ffi.new("floe_sql_result **")
        with self._lock:
            s = self._session()
            rc = lib.floe_sql_execute(out, s, _ffi.cstr(text, keep))
            if rc < 0:
                _ffi.raise_last(rc, _ffi.text(lib.floe_sql_error_class(s)))
        try:
            return SqlResult(out[0])
        finally:
            lib.floe_sql_result_free(out[0])

    # ------------------------------------------------------------ tables
    def load_table(self, identifier: str, branch: Optional[str] = None,
                   wap_id: Optional[str] = None) -> "Table":
        """Open table ``ns.table`` (writes go to ``branch`` when given; ``wap_id``
        stages appends on tables with write.wap.enabled). Raises
        :class:`floe.NoSuchTableException`."""
        from .table import Table
        return Table(self, identifier, branch=branch, wap_id=wap_id)

    def list_namespaces(self) -> List[str]:
        """Namespaces of the catalog."""
        return [r[0] for r in self.sql("SHOW NAMESPACES").fetchall()]

    def list_tables(self, namespace: str) -> List[str]:
        """Tables of a namespace as ``ns.table`` identifiers."""
        return ["%s.%s" % (namespace, r[1]) for r in
                self.sql("SHOW TABLES IN %s" % namespace).fetchall()]

    def create_namespace(self, namespace: str, if_not_exists: bool = True) -> None:
        """CREATE NAMESPACE [IF NOT EXISTS]."""
        self.sql("CREATE NAMESPACE %s%s" % ("IF NOT EXISTS " if if_not_exists else "", namespace))

    def namespace_properties(self, namespace: str) -> Dict[str, str]:
        """The properties of ``namespace`` in the catalog's order. Raises
        :class:`floe.NoSuchNamespaceException` for a missing namespace."""
        keep: list = []
        p = _ffi.props({})
        with self._lock:
            _ffi.check(lib.floe_catalog_load_namespace(p, self._catalog_handle(),
                                                       _ffi.cstr(namespace, keep)))
        return _ffi.props_dict(p)

    def drop_table(self, identifier: str, purge: bool = False) -> None:
        """DROP TABLE [PURGE]."""
        self.sql("DROP TABLE %s%s" % (identifier, " PURGE" if purge else ""))

    def __repr__(self) -> str:
        return "Catalog(name=%r, warehouse=%r)" % (self.name, self.warehouse)


def catalog(warehouse: Optional[str] = None, name: Optional[str] = None,
            uri: Optional[str] = None, **props: Any) -> Catalog:
    """Open a catalog.

    - SQLite (JDBC-catalog schema): ``floe.catalog(warehouse="/data/wh")``
      keeps ``<warehouse>/catalog.db``; ``uri="/path/catalog.db"`` names the file.
    - REST: ``floe.catalog(uri="http://host:8181", warehouse="wh", token=...)``.
    - Hive Metastore: ``floe.catalog(uri="thrift://host:9083", warehouse="s3a://bucket/path")``
      (Spark's ``type=hive``; Iceberg's HiveCatalog conventions and locks).

    ``props`` are floe sql's ``--conf`` keys (``s3.endpoint``, ``credential``,
    session options such as ``spark.wap.id``); write dots as ``__`` in
    keyword form or pass ``**{"s3.endpoint": ...}``.
    """
    return Catalog(warehouse=warehouse, name=name, uri=uri, **props)
