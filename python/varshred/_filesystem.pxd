# Licensed under the Apache License, Version 2.0.

from libcpp.memory cimport shared_ptr

from varshred._c_arrow cimport CFileSystem

cdef shared_ptr[CFileSystem] unwrap_filesystem(object filesystem) except *
