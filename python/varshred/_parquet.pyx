# Licensed under the Apache License, Version 2.0.
#
# cython: language_level=3, embedsignature=True
# distutils: language = c++
"""varshred's Parquet writer and reader (see varshred.parquet for the API)."""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cython.operator cimport dereference as deref
from libc.stdint cimport int64_t, uint32_t, uint8_t
from libcpp.optional cimport optional
from libcpp.map cimport map as cmap
from libcpp.memory cimport shared_ptr, unique_ptr
from libcpp.string cimport string
from libcpp.string_view cimport string_view
from libcpp.utility cimport move
from libcpp.vector cimport vector

import threading as _threading

from varshred._c_arrow cimport *
from varshred._c_core cimport (
    DuplicateKeyPolicy, JsonNumbers, TypeFromHeader, VariantTypeName, kMaxParquetSchemaDepth,
    kMaxPrimitiveTypeId)
from varshred._c_kernels cimport (
    ConflictPolicy, JsonErrorPolicy, JsonToVariantOptions, NumericShredding,
    ShreddingSchema)
from varshred._c_parquet cimport *
from varshred._filesystem cimport unwrap_filesystem
from varshred._capsule cimport (
    export_chunked, export_reader, import_batch, import_chunks, import_schema,
    import_type)

from varshred._schema cimport ShreddingSchemaHandle
from varshred._status cimport check_status
from varshred.errors import VariantError

# The deepest Parquet schema varshred reads (pyarrow's and Parquet C++'s default: 100).
SCHEMA_DEPTH_LIMIT = kMaxParquetSchemaDepth

cdef JsonToVariantOptions _json_options(int numbers, int duplicate_keys, int errors):
    cdef JsonToVariantOptions options
    options.parse.numbers = <JsonNumbers>numbers
    options.parse.duplicate_keys = <DuplicateKeyPolicy>duplicate_keys
    options.errors = <JsonErrorPolicy>errors
    return options


def is_variant_type(data_type):
    """True for a Variant struct (``metadata`` plus ``value`` and/or ``typed_value``
    and nothing else) and for the ``arrow.parquet.variant`` extension over one
    (varshred::IsVariantColumnType, the writer's own test)."""
    return IsVariantColumnType(deref(import_type(data_type)))


cdef class ParquetFileWriter:
    """One Parquet file being written by varshred's C++ writer (see varshred.parquet).

    Safe to share between threads: ``lock`` serializes the calls (the C++ writer is
    not thread-safe and runs without the GIL), so ``close`` waits for a running
    ``write_batch``, and a call after ``close`` or ``abort`` is an error. Options
    arrive checked, enums as their C++ values (varshred.parquet)."""
    cdef unique_ptr[ParquetWriter] writer
    cdef object lock
    cdef bint failed  # a write failed and dropped the file: close() says so
    cdef int64_t rows_saved  # the rows of the file close() published

    def __cinit__(self, *args, **kwargs):
        self.lock = _threading.Lock()

    def __init__(self, str path, schema, dict shredding, *, str compression,
                 compression_level, int64_t row_group_size, int64_t row_group_bytes,
                 int64_t data_page_size, bint dictionary, bint statistics, bint annotate,
                 int numeric, bint use_threads, trusted_columns, filesystem=None):
        cdef ParquetWriteOptions options
        options.filesystem = unwrap_filesystem(filesystem)
        cdef string c_compression = compression.encode("utf-8")
        cdef CResult[CCompressionType] codec = ParseCompression(
            string_view(c_compression.data(), c_compression.size()))
        check_status(codec.status())
        options.compression = deref(codec)
        if compression_level is not None:
            options.compression_level = <int>compression_level
        options.row_group_size = row_group_size
        options.row_group_bytes = row_group_bytes
        options.data_page_size = data_page_size
        options.dictionary = dictionary
        options.statistics = statistics
        options.annotate = annotate
        options.numeric = <NumericShredding>numeric
        options.use_threads = use_threads
        for name in trusted_columns:
            options.trusted_columns.push_back(name.encode("utf-8"))
        cdef cmap[string, ShreddingSchema] c_shredding
        cdef ShreddingSchemaHandle h
        for name, handle in shredding.items():
            h = handle
            c_shredding[name.encode("utf-8")] = h.schema
        cdef shared_ptr[CSchema] c_schema = import_schema(schema)
        cdef string c_path = path.encode("utf-8")
        cdef CResult[unique_ptr[ParquetWriter]] opened
        with nogil:
            opened = ParquetWriter.Open(c_path, c_schema, c_shredding, options,
                                        c_default_memory_pool())
        check_status(opened.status())
        self.writer = move(deref(opened))

    def write_batch(self, batch):
        self.write_batches([batch])

    def write_batches(self, batches):
        """The batches (a list) in one call: ``close()`` from another thread waits for
        all of them, so that a file never holds part of them."""
        # Exported before the lock is taken: the export may run Python code (a producer,
        # a signal handler calling close() on this thread), and the lock is not
        # reentrant. Acquiring a threading.Lock releases the GIL while it waits, so a
        # thread holding the lock can take the GIL back when its C++ call returns.
        cdef vector[shared_ptr[CRecordBatch]] imported
        for batch in batches:
            imported.push_back(import_batch(batch))
        cdef CStatus status
        cdef size_t i = 0
        with self.lock:
            self._check_open()
            with nogil:
                while i < imported.size() and status.ok():
                    status = deref(self.writer).Write(deref(imported[i]))
                    i += 1
            self._check(status, 0)

    def write_json(self, strings, int numbers, int duplicate_keys, int errors):
        """Arrow JSON strings as rows of the writer's only column, a Variant column
        (ParquetWriter::WriteJson); errors name the row of ``strings``. Returns the
        invalid documents written as NULL."""
        cdef bint chunked
        cdef vector[shared_ptr[CArray]] chunks = import_chunks(strings, &chunked)
        cdef JsonToVariantOptions options = _json_options(numbers, duplicate_keys, errors)
        cdef CResult[int64_t] result
        cdef int64_t row = 0, invalid = 0
        with self.lock:
            for chunk in chunks:
                self._check_open()
                with nogil:
                    result = deref(self.writer).WriteJson(deref(chunk), options)
                self._check(result.status(), row)
                invalid += deref(result)
                row += chunk.get().length()
        return invalid

    def write_json_lines(self, text, int numbers, int duplicate_keys, int errors):
        """JSON lines (any bytes-like object) as rows of the writer's only column
        (ParquetWriter::WriteJsonLines); returns the invalid lines written as NULL."""
        cdef JsonToVariantOptions options = _json_options(numbers, duplicate_keys, errors)
        cdef Py_buffer buffer
        cdef CResult[int64_t] result
        PyObject_GetBuffer(text, &buffer, PyBUF_SIMPLE)  # any format: read as bytes
        try:
            with self.lock:
                self._check_open()
                with nogil:
                    result = deref(self.writer).WriteJsonLines(
                        string_view(<const char*>buffer.buf, <size_t>buffer.len), options)
                self._check(result.status(), 0)
                return deref(result)
        finally:
            PyBuffer_Release(&buffer)

    def _check_open(self):
        if not self.writer:
            raise VariantError("the ParquetWriter is closed (by close(), abort() or a "
                               "failed write)")

    cdef int _check(self, const CStatus& status, int64_t row_offset) except -1:
        # A failed write has dropped the file and closed the writer; a call refused
        # before it wrote (a batch of another schema) leaves both as they were.
        if not status.ok() and deref(self.writer).closed():
            self.writer.reset()
            self.failed = True
        return check_status(status, row_offset)

    def close(self):
        cdef CStatus status
        with self.lock:
            if not self.writer:
                if self.failed:  # a caller who caught that error must not think it saved
                    raise VariantError("nothing was written: a failed write dropped the file")
                return
            with nogil:
                status = deref(self.writer).Close()
            if status.ok():
                self.rows_saved = deref(self.writer).num_rows()
            self.writer.reset()
        check_status(status)

    def abort(self):
        # Without the GIL: on an object store aborting is a request to the server.
        with self.lock:
            if self.writer:
                with nogil:
                    deref(self.writer).Abort()
                    self.writer.reset()

    @property
    def num_rows(self):
        with self.lock:
            return deref(self.writer).num_rows() if self.writer else self.rows_saved

    def types_written(self, str column):
        """The Variant type names of the primitives anywhere in ``column``'s values
        written so far (learnt while validating them), or None for a trusted column."""
        cdef optional[uint32_t] mask
        cdef string c_name = column.encode("utf-8")
        with self.lock:
            if not self.writer:
                raise VariantError("the ParquetWriter is closed")
            mask = deref(self.writer).primitive_types_written(c_name)
        if not mask.has_value():
            return None
        cdef uint32_t bits = mask.value()
        cdef uint8_t id
        names = set()
        for id in range(kMaxPrimitiveTypeId + 1):
            if bits & (1u << id):
                view = VariantTypeName(TypeFromHeader(id << 2))
                names.add(view.data()[:view.size()].decode("ascii"))
        return frozenset(names)

    def __dealloc__(self):
        # An unclosed writer removes its temporary file or aborts its upload (no partial
        # output); without the GIL, as that may be a request to a server.
        with nogil:
            self.writer.reset()


_LAYOUT_NAMES = {
    <int>VariantColumnLayout.kNone: None,
    <int>VariantColumnLayout.kUnshredded: "unshredded",
    <int>VariantColumnLayout.kShredded: "shredded",
    <int>VariantColumnLayout.kLegacy: "legacy",
}


def check_footer(str path, filesystem=None):
    """Raises VariantError naming the file when its footer metadata is corrupt."""
    cdef CStatus status
    cdef string c_path = path.encode("utf-8")
    cdef shared_ptr[CFileSystem] fs = unwrap_filesystem(filesystem)
    with nogil:
        status = CheckParquetFooter(c_path, fs)
    check_status(status)


def inspect(str path, filesystem=None):
    """(name, layout, annotated, leaves) per top-level column."""
    cdef CResult[vector[ParquetColumnInfo]] result
    cdef string c_path = path.encode("utf-8")
    cdef shared_ptr[CFileSystem] fs = unwrap_filesystem(filesystem)
    with nogil:
        result = InspectParquet(c_path, fs)
    check_status(result.status())
    out = []
    cdef size_t i
    for i in range(deref(result).size()):
        info = deref(result)[i]
        out.append((info.name.decode("utf-8"), _LAYOUT_NAMES[<int>info.layout],
                    bool(info.annotated), list(info.leaves)))
    return out


def leaf_paths(str path, filesystem=None):
    """Every leaf column's path as a tuple of names (names may contain '.')."""
    cdef CResult[vector[vector[string]]] result
    cdef string c_path = path.encode("utf-8")
    cdef shared_ptr[CFileSystem] fs = unwrap_filesystem(filesystem)
    with nogil:
        result = ParquetLeafPaths(c_path, fs)
    check_status(result.status())
    return [tuple(n.decode("utf-8") for n in p) for p in deref(result)]


cdef class OpenedFile:
    """A Parquet file opened once, its footer read (OpenedParquetFile): readers given it
    share both, and read the file that was opened."""
    cdef shared_ptr[const OpenedParquetFile] opened

    @property
    def row_group_rows(self):
        return list(deref(self.opened).row_group_rows())


def open_file(str path, filesystem=None):
    """``path`` opened and its footer read (an OpenedFile for reader())."""
    cdef string c_path = path.encode("utf-8")
    cdef shared_ptr[CFileSystem] fs = unwrap_filesystem(filesystem)
    cdef CResult[shared_ptr[const OpenedParquetFile]] result
    with nogil:
        result = OpenedParquetFile.Open(c_path, fs)
    check_status(result.status())
    cdef OpenedFile out = OpenedFile.__new__(OpenedFile)
    out.opened = deref(result)
    return out


def reader(str path, columns, bint shredded, int64_t batch_size, int on_conflict,
           row_groups=None, filesystem=None, bint int96_as_micros=False,
           bint check_unshredded_values=True, bint dictionaries=False,
           OpenedFile opened=None):
    """A pyarrow RecordBatchReader over ``path``, Variant columns rebuilt; only
    ``row_groups`` (in that order) when given; INT96 timestamps as microseconds (as
    Spark reads them) with ``int96_as_micros``. ``check_unshredded_values=False`` is
    for a caller that hands every batch to a validating writer (UnshredOptions).
    ``dictionaries`` (with ``shredded``): Variant columns' dictionary-encoded binary
    leaves come as dictionary arrays (ParquetReadOptions::dictionaries). ``opened``:
    the file as open_file() opened it (``path`` then names it in errors only)."""
    cdef ParquetReadOptions options
    options.int96_as_micros = int96_as_micros
    options.dictionaries = dictionaries
    options.unshred.check_unshredded_values = check_unshredded_values
    if row_groups is not None:
        options.row_groups = row_groups
    options.filesystem = unwrap_filesystem(filesystem)
    if opened is not None:
        options.opened = opened.opened
    for c in (columns or []):
        options.columns.push_back(c.encode("utf-8"))
    options.shredded = shredded
    options.batch_size = batch_size
    options.unshred.on_conflict = <ConflictPolicy>on_conflict
    cdef string c_path = path.encode("utf-8")
    cdef CResult[shared_ptr[CRecordBatchReader]] result
    with nogil:
        result = OpenParquetReader(c_path, options, c_default_memory_pool())
    check_status(result.status())
    return export_reader(deref(result))


def read_leaves(str path, leaves, row_groups=None, filesystem=None,
                OpenedFile opened=None):
    """The given leaf columns as one partial column (a ChunkedArray, one chunk per row
    group); only ``row_groups`` when given; ``opened`` as reader()'s."""
    cdef shared_ptr[const OpenedParquetFile] c_opened
    if opened is not None:
        c_opened = opened.opened
    cdef vector[int] c_leaves = leaves
    cdef vector[int] c_row_groups
    if row_groups is not None:
        c_row_groups = row_groups
    cdef string c_path = path.encode("utf-8")
    cdef shared_ptr[CFileSystem] fs = unwrap_filesystem(filesystem)
    cdef CResult[shared_ptr[CChunkedArray]] result
    with nogil:
        result = ReadParquetLeaves(c_path, c_leaves, c_default_memory_pool(), c_row_groups,
                                   fs, c_opened)
    check_status(result.status())
    cdef vector[shared_ptr[CArray]] chunks
    cdef int i
    for i in range(deref(deref(result)).num_chunks()):
        chunks.push_back(deref(deref(result)).chunk(i))
    return export_chunked(chunks, deref(deref(result)).type())
