# Licensed under the Apache License, Version 2.0.
"""Exceptions raised by varshred.

Every error from the C++ library goes through one module, ``varshred._status``
(``check_status`` for a C++ status, ``from_arrow_error`` for one that reached Python
as a pyarrow exception), which picks the class from the Arrow status code:

============================  ============================================
C++ ``arrow::StatusCode``     Python exception
============================  ============================================
``Invalid``                   :class:`VariantError` (a :class:`ValueError`)
``TypeError``                 :class:`TypeError`
``IndexError`` / ``KeyError`` :class:`IndexError` / :class:`KeyError`
``NotImplemented``            :class:`NotImplementedError`
``OutOfMemory``               :class:`MemoryError`
``IOError``                   :class:`OSError` (the subclass for its errno)
``CapacityError``             :class:`VariantError`
anything else                 :class:`RuntimeError`
============================  ============================================

Messages name the row and, inside a value, the path: ``row 3: $.a[2]: ...``. An I/O
error that carries the OS's errno has it as ``errno`` and is the class Python gives
that errno (``FileNotFoundError``, ``NotADirectoryError``...); its message ends with
the OS's reason (``[errno 2] No such file or directory``).
"""

from __future__ import annotations

__all__ = ["VariantError"]


class VariantError(ValueError):
    """Bad Variant data or input that cannot become a Variant.

    Raised for malformed Variant bytes, invalid JSON, numbers out of range and the
    like. The message names the row (``row 17: ...``) and, inside a value, the path.
    """
