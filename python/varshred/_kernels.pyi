# Licensed under the Apache License, Version 2.0.
"""Type stubs for varshred._kernels (see varshred.core, get, shredding for docs).

Enum arguments are the values of the name tables (``LAYOUTS`` ...)."""

from typing import Any

import pyarrow as pa

from varshred._schema import ShreddingSchemaHandle

LAYOUTS: dict[str, int]
JSON_NUMBERS: dict[str, int]
DUPLICATE_KEYS: dict[str, int]
JSON_ERRORS: dict[str, int]
GET_ERRORS: dict[str, int]
NUMERIC: dict[str, int]
ON_CONFLICT: dict[str, int]

def variant_type(layout: int) -> pa.DataType: ...
def from_json(
    data: Any, numbers: int, duplicate_keys: int, errors: int, layout: int
) -> pa.Array | pa.ChunkedArray: ...
def to_json(data: Any, timezone: str) -> pa.Array | pa.ChunkedArray: ...
def validate(data: Any, max_depth: int, max_size: int, allow_unsorted_keys: bool) -> None: ...
def to_layout(data: Any, layout: int) -> pa.Array | pa.ChunkedArray: ...
def shred(
    data: Any, schema: ShreddingSchemaHandle, numeric: int
) -> pa.Array | pa.ChunkedArray: ...
def unshred(data: Any, on_conflict: int, layout: int) -> pa.Array | pa.ChunkedArray: ...
def from_legacy_shredded(data: Any) -> pa.Array | pa.ChunkedArray: ...
def parse_path(path: str) -> list[str | int]: ...
def variant_get(
    data: Any, path: str, target_type: pa.DataType | None, errors: int, timezone: str
) -> pa.Array | pa.ChunkedArray: ...
