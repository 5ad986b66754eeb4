# Licensed under the Apache License, Version 2.0.

from libc.stdint cimport int64_t

from varshred._c_arrow cimport CStatus

cdef int check_status(const CStatus& status, int64_t row_offset=*) except -1
cdef int check_status_in(const CStatus& status, str context) except -1
