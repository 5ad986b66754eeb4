# Licensed under the Apache License, Version 2.0.
"""Type stubs for varshred._parquet (see varshred.parquet for docs)."""

from typing import Iterable

import pyarrow as pa

from varshred._schema import ShreddingSchemaHandle

WRITE_PATHS: dict[str, int]

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
        data_page_size: int,
        dictionary: bool,
        statistics: bool,
        annotate: bool,
        numeric: int,
        write_path: int,
        trusted_columns: Iterable[str],
    ) -> None: ...
    def write_batch(self, batch: pa.RecordBatch) -> None: ...
    def close(self) -> None: ...
    def abort(self) -> None: ...
    @property
    def num_rows(self) -> int: ...

def inspect(path: str) -> list[tuple[str, str | None, bool, list[int]]]: ...
def leaf_paths(path: str) -> list[tuple[str, ...]]: ...
def reader(
    path: str, columns: list[str] | None, shredded: bool, batch_size: int, on_conflict: int
) -> pa.RecordBatchReader: ...
def read_leaves(
    path: str, leaves: list[int], row_groups: list[int] | None = None
) -> pa.ChunkedArray: ...
