# SPDX-License-Identifier: Apache-2.0
"""Exceptions named like Iceberg's (and Spark's) Java classes.

Every floe error carries floe's message (Iceberg's wording) and its floe
error code (``code``, e.g. ``"FLOE_ENOTFOUND"``). The class is the one Spark
would show for the same failure; errors with no Java class map to
:class:`FloeError` subclasses by code.
"""
from typing import Optional


class FloeError(Exception):
    """Base of every floe exception. ``code`` is the floe error code name."""

    java_class: str = "FloeError"

    def __init__(self, message: str, code: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.code = code

    @property
    def java_name(self) -> str:
        """The fully qualified Java class name Spark would report
        (``e.java_exception.getClass().getName()`` in PySpark)."""
        name = self.__dict__.get("java_class") or type(self).__name__
        if name in _JAVA_LANG:
            return "java.lang." + name
        if name in _SPARK:
            return _SPARK[name] + name
        return "org.apache.iceberg.exceptions." + name


class IcebergException(FloeError):
    """Iceberg's RuntimeIOException / generic failures."""


class ValidationException(FloeError):
    """org.apache.iceberg.exceptions.ValidationException."""


class IllegalArgumentException(FloeError, ValueError):
    """java.lang.IllegalArgumentException (also a ValueError)."""


class IllegalStateException(FloeError):
    """java.lang.IllegalStateException (e.g. a closed table)."""


class UnsupportedOperationException(FloeError):
    """java.lang.UnsupportedOperationException."""


class NotFoundException(FloeError, LookupError):
    """org.apache.iceberg.exceptions.NotFoundException."""


class NoSuchTableException(NotFoundException):
    """org.apache.iceberg.exceptions.NoSuchTableException."""


class NoSuchNamespaceException(NotFoundException):
    """org.apache.iceberg.exceptions.NoSuchNamespaceException."""


class NoSuchViewException(NotFoundException):
    """org.apache.iceberg.exceptions.NoSuchViewException."""


class AlreadyExistsException(FloeError):
    """org.apache.iceberg.exceptions.AlreadyExistsException."""


class TableAlreadyExistsException(AlreadyExistsException):
    """Spark's TableAlreadyExistsException."""


class NamespaceAlreadyExistsException(AlreadyExistsException):
    """Spark's NamespaceAlreadyExistsException."""


class CommitFailedException(FloeError):
    """org.apache.iceberg.exceptions.CommitFailedException."""


class CommitStateUnknownException(FloeError):
    """org.apache.iceberg.exceptions.CommitStateUnknownException."""


class ParseException(FloeError):
    """Spark's ParseException (SQL syntax)."""


class AnalysisException(FloeError):
    """Spark's AnalysisException."""


class CatalogNotFoundException(FloeError):
    """Spark's CatalogNotFoundException."""


class DuplicateWAPCommitException(ValidationException):
    """org.apache.iceberg.exceptions.DuplicateWAPCommitException."""


class NamespaceNotEmptyException(FloeError):
    """org.apache.iceberg.exceptions.NamespaceNotEmptyException."""


class NoSuchProcedureException(NotFoundException):
    """Spark's NoSuchProcedureException."""


class RuntimeIOException(FloeError, OSError):
    """org.apache.iceberg.exceptions.RuntimeIOException."""


_JAVA_LANG = {"IllegalArgumentException", "IllegalStateException", "UnsupportedOperationException"}
_SPARK = {"ParseException": "org.apache.spark.sql.catalyst.parser.",
          "AnalysisException": "org.apache.spark.sql.",
          "CatalogNotFoundException": "org.apache.spark.sql.connector.catalog.",
          "TableAlreadyExistsException": "org.apache.spark.sql.catalyst.analysis.",
          "NamespaceAlreadyExistsException": "org.apache.spark.sql.catalyst.analysis.",
          "NoSuchProcedureException": "org.apache.spark.sql.catalyst.analysis."}

_BY_CLASS = {c.__name__: c for c in (
    ValidationException, IllegalArgumentException, IllegalStateException,
    UnsupportedOperationException, NotFoundException, NoSuchTableException,
    NoSuchNamespaceException, NoSuchViewException, AlreadyExistsException,
    TableAlreadyExistsException, NamespaceAlreadyExistsException, CommitFailedException,
    CommitStateUnknownException, ParseException, AnalysisException, CatalogNotFoundException,
    DuplicateWAPCommitException, NamespaceNotEmptyException, NoSuchProcedureException,
    RuntimeIOException)}

_BY_CODE = {
    "FLOE_ENOTFOUND": NotFoundException,
    "FLOE_EEXISTS": AlreadyExistsException,
    "FLOE_EINVALID": IllegalArgumentException,
    "FLOE_EUNSUPPORTED": UnsupportedOperationException,
    "FLOE_ECONFLICT": CommitFailedException,
    "FLOE_ECOMMITUNKNOWN": CommitStateUnknownException,
    "FLOE_EIO": RuntimeIOException,
    "FLOE_ECORRUPT": RuntimeIOException,
    "FLOE_ENOMEM": MemoryError,
}


def error_for(java_class: Optional[str], code: Optional[str], message: str) -> BaseException:
    """The exception instance for a floe failure (class name from libfloe)."""
    cls = _BY_CLASS.get(java_class or "")
    if cls is None and java_class:
        cls = type(java_class, (FloeError,), {"__module__": __name__})
        _BY_CLASS[java_class] = cls
    if cls is None:
        cls = _BY_CODE.get(code or "", IcebergException)
    if cls is MemoryError:
        return MemoryError(message)
    e = cls(message, code)
    e.java_class = java_class or cls.__name__
    return e
