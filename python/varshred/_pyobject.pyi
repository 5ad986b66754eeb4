# Licensed under the Apache License, Version 2.0.
"""Type stubs for varshred._pyobject (see varshred.core for docs)."""

from typing import Any, Iterable

import pyarrow as pa

def from_python(objects: Iterable[Any], layout: int) -> pa.Array: ...
def to_python(data: Any) -> list[Any]: ...
