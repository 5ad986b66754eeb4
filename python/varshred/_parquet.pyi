# Licensed under the Apache License, Version 2.0.
"""Type stubs for varshred._parquet (see varshred.parquet for docs)."""

from typing import Any, Iterable

import pyarrow as pa

from varshred._schema import ShreddingSchemaHandle

SCHEMA_DEPTH_LIMIT: int

def is_variant_type(data_type: pa.DataType) -> bool: ...

class ParquetFileWriter:
    def __init__(
        self,
        path: str,
        schema: pa.Schema,
        shredding: dict[str, ShreddingSchemaHandle],
        *,
        compression: str,
        compression_level: int | None,
        row_group_size: int,
        row_group_bytes: int,
        data_page_size: int,
        dictionary: bool,
        statistics: bool,
        annotate: bool,
        numeric: int,
        use_threads: bool,
        trusted_columns: Iterable[str],
        filesystem: Any = None,  # a pyarrow.fs.FileSystem
    ) -> None: ...
    def write_batch(self, batch: pa.RecordBatch) -> None: ...
    def write_batches(self, batches: list[pa.RecordBatch]) -> None: ...
    def write_json(self, strings: Any, numbers: int, duplicate_keys: int,
                   errors: int) -> int: ...
    def write_json_lines(self, text: Any, numbers: int, duplicate_keys: int,
                         errors: int) -> int: ...
    def close(self) -> None: ...
    def abort(self) -> None: ...
    def types_written(self, column: str) -> frozenset[str] | None: ...
    @property
    def num_rows(self) -> int: ...

def check_footer(path: str, filesystem: Any = None) -> None: ...
def inspect(path: str, filesystem: Any = None) -> list[tuple[str, str | None, bool, list[int]]]: ...
def leaf_paths(path: str, filesystem: Any = None) -> list[tuple[str, ...]]: ...
class OpenedFile:
    @property
    def row_group_rows(self) -> list[int]: ...

def open_file(path: str, filesystem: Any = None) -> OpenedFile: ...
def reader(
    path: str,
    columns: list[str] | None,
    shredded: bool,
    batch_size: int,
    on_conflict: int,
    row_groups: list[int] | None = None,
    filesystem: Any = None,
    int96_as_micros: bool = False,
    check_unshredded_values: bool = True,
    dictionaries: bool = False,
    opened: OpenedFile | None = None,
) -> pa.RecordBatchReader: ...
def read_leaves(
    path: str,
    leaves: list[int],
    row_groups: list[int] | None = None,
    filesystem: Any = None,
    opened: OpenedFile | None = None,
) -> pa.ChunkedArray: ...
