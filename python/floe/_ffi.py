# SPDX-License-Identifier: Apache-2.0
"""Access to the native module and error translation (internal)."""
from typing import Dict, Mapping, Optional

from ._native import ffi, lib  # noqa: F401  (built by floe/_build.py)
from .errors import error_for


def text(p) -> Optional[str]:
    """A C string as str (None for NULL)."""
    return None if p == ffi.NULL else ffi.string(p).decode("utf-8", "replace")


def raise_last(rc: int, java_class: Optional[str] = None) -> None:
    """Raise the exception for a failed floe call (rc < 0)."""
    err = lib.floe_error_last()
    message = text(err.message) if err != ffi.NULL else None
    if not message:
        message = text(lib.floe_error_code_name(rc)) or "floe error %d" % rc
    code = text(lib.floe_error_code_name(rc))
    if java_class is None:
        java_class = text(lib.floe_error_exception(err))
    raise error_for(java_class, code, message)


def check(rc: int) -> int:
    """Return rc, raising the floe exception when it is negative."""
    if rc < 0:
        raise_last(rc)
    return rc


def cstr(s: Optional[str], keep: list):
    """A char* for s kept alive by `keep` (NULL for None)."""
    if s is None:
        return ffi.NULL
    if not isinstance(s, str):
        raise TypeError("expected str, got %s" % type(s).__name__)
    b = ffi.new("char[]", s.encode("utf-8"))
    keep.append(b)
    return b


def cstr_array(items, keep: list):
    """A const char *[] of items (kept alive by `keep`)."""
    arr = ffi.new("const char *[]", [cstr(x, keep) for x in items] or [ffi.NULL])
    keep.append(arr)
    return arr


def props(items: Mapping[str, str]):
    """A floe_props holding ``items`` in their order (freed when garbage-collected)."""
    out = ffi.new("floe_props **")
    check(lib.floe_props_new(out))
    p = ffi.gc(out[0], lib.floe_props_free)
    for k, v in items.items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise TypeError("property keys and values must be str")
        check(lib.floe_props_set(p, k.encode("utf-8"), v.encode("utf-8")))
    return p


def props_dict(p) -> Dict[str, str]:
    """The entries of a floe_props, in its order."""
    return {text(lib.floe_props_key_at(p, i)): text(lib.floe_props_value_at(p, i))
            for i in range(lib.floe_props_count(p))}


def ptr_int(p) -> int:
    return int(ffi.cast("uintptr_t", p))


class NativeHandle:
    """close() / with / garbage collection for an object owning one libfloe handle.

    A subclass sets ``self._lock`` and implements ``_release()``, which frees the
    handle if it is still open (called under the lock)."""

    def _release(self) -> None:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def close(self) -> None:
        """Free the native handle; later calls raise :class:`floe.IllegalStateException`."""
        with self._lock:
            self._release()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
