# Licensed under the Apache License, Version 2.0.
#
# cython: language_level=3, embedsignature=True
# distutils: language = c++
"""The one place where C++ errors become Python exceptions (docs/architecture.md#errors).

``check_status`` translates an ``arrow::Status``; ``from_arrow_error`` does the same
for an error that reaches Python as a pyarrow exception (a varshred reader's status,
raised while pyarrow pulls batches from it). Both pick the class from the status
code (see varshred.errors).
"""

from cython.operator cimport dereference as deref
from libc.stdint cimport int64_t

import re as _re

import pyarrow as _pa

from varshred._c_arrow cimport (
    CStatus, kCapacityError, kIndexError, kInvalid, kIOError, kKeyError, kNotImplemented,
    kOutOfMemory, kTypeError)
from varshred.errors import VariantError


cdef extern from "arrow/util/io_util.h" namespace "arrow::internal" nogil:
    int ErrnoFromStatus(const CStatus& status)

_EXCEPTIONS = {
    <int>kOutOfMemory: MemoryError,
    <int>kKeyError: KeyError,
    <int>kTypeError: TypeError,
    <int>kInvalid: VariantError,
    <int>kIOError: OSError,
    <int>kCapacityError: VariantError,
    <int>kIndexError: IndexError,
    <int>kNotImplemented: NotImplementedError,
}

_ROW_PREFIX = _re.compile(r"^row (\d+)")


def shift_rows(str message, int64_t row_offset):
    """``message`` with a leading ``row N`` moved by ``row_offset`` (rows then count
    across the chunks of a chunked input)."""
    if not row_offset:
        return message
    return _ROW_PREFIX.sub(lambda m: f"row {int(m.group(1)) + row_offset}", message,
                           count=1)


cdef int check_status(const CStatus& status, int64_t row_offset=0) except -1:
    """Raises the exception for a failed status; ``row_offset`` as in shift_rows."""
    if status.ok():
        return 0
    raise _exception(status, shift_rows(_message(status), row_offset))


cdef int check_status_in(const CStatus& status, str context) except -1:
    """As check_status, the message prefixed by ``context`` (e.g. ``"row 3: "``)."""
    if status.ok():
        return 0
    raise _exception(status, context + _message(status))


cdef str _message(const CStatus& status):
    """The status's message, and its detail when it has one (the OS's reason for an
    I/O error: "[errno 2] No such file or directory")."""
    message = status.message().decode("utf-8", "replace")
    if status.detail():
        message += ": " + deref(status.detail()).ToString().decode("utf-8", "replace")
    return message


cdef object _exception(const CStatus& status, str message):
    """The exception for ``status``. An I/O error carrying an errno is the OSError
    subclass Python gives that errno (FileNotFoundError, ...) with ``errno`` set, so
    that ``except`` clauses can tell them apart; its text stays the message."""
    cdef int errno = ErrnoFromStatus(status)
    if status.code() == kIOError and errno:
        exc = type(OSError(errno, ""))(message)
        exc.errno = errno
        return exc
    return _EXCEPTIONS.get(<int>status.code(), RuntimeError)(message)


# pyarrow's exception classes for the status codes that varshred maps differently
# (the others already derive from KeyError, IndexError, OSError, MemoryError).
_FROM_ARROW = [
    (_pa.ArrowInvalid, VariantError),
    (_pa.ArrowTypeError, TypeError),
    (_pa.ArrowNotImplementedError, NotImplementedError),
]


def from_arrow_error(exc):
    """The varshred exception for a pyarrow exception carrying a varshred status
    (``exc`` itself when its class is already the right one)."""
    for arrow_class, cls in _FROM_ARROW:
        if isinstance(exc, arrow_class):
            return cls(str(exc).removeprefix("Invalid: "))
    return exc
