# Licensed under the Apache License, Version 2.0.
#
# cython: language_level=3
# distutils: language = c++
"""The C++ filesystem behind a ``pyarrow.fs.FileSystem``, for varshred's C++ reader and
writer (docs/storage.md). The only module that sees pyarrow's Cython API: both link
the same libarrow, so the shared pointer is handed over as it is."""

from libcpp.memory cimport shared_ptr

from pyarrow._fs cimport FileSystem as PyFileSystem
from pyarrow.includes.libarrow_fs cimport CFileSystem as PyCFileSystem

from varshred._c_arrow cimport CFileSystem


cdef shared_ptr[CFileSystem] unwrap_filesystem(object filesystem) except *:
    """The filesystem's C++ object; an empty pointer for None (the path decides)."""
    if filesystem is None:
        return shared_ptr[CFileSystem]()
    if not isinstance(filesystem, PyFileSystem):
        raise TypeError(f"filesystem must be a pyarrow.fs.FileSystem, got "
                        f"{type(filesystem).__name__}")
    cdef shared_ptr[PyCFileSystem] wrapped = (<PyFileSystem>filesystem).unwrap()
    # Both names declare arrow::fs::FileSystem.
    return <shared_ptr[CFileSystem]>wrapped
