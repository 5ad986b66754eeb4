# Licensed under the Apache License, Version 2.0.
"""varshred: the Parquet Variant format for Arrow and PySpark.

>>> import varshred as vs
>>> v = vs.from_json(['{"a": 1}', None])
>>> vs.to_json(v).to_pylist()
['{"a":1}', None]
"""

import os
import sys
from typing import Any

# The command's own process (`varshred ...`, `python -m varshred...`) runs no BLAS: the
# thread OpenBLAS starts when pyarrow imports numpy would spin for about 0.1 s of CPU
# while the Spark JVM starts on the same cores (docs/cluster.md#start-up). Library
# users keep their own setting.
if sys.argv and os.path.basename(sys.argv[0]) in ("varshred", "-m"):
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import pyarrow  # noqa: F401  (loads libarrow before the extension module)

from varshred.core import (
    from_arrow,
    from_json,
    from_json_lines,
    from_python,
    to_arrow,
    to_json,
    to_layout,
    to_python,
    validate,
    variant_type,
)
from varshred.errors import VariantError
from varshred.functions import (is_variant_null, schema_of_variant, schema_of_variant_agg,
                                variant_explode)
from varshred.get import variant_get
from varshred.infer import ShreddingStats, infer_schema
from varshred.shredding import ShreddingSchema, from_legacy_shredded, shred, unshred
from varshred import parquet  # noqa: E402  (vs.parquet.*)
from varshred import dataset  # noqa: E402  (vs.dataset.files)

__all__ = [
    "ShreddingSchema",
    "ShreddingStats",
    "VariantError",
    "dataset",
    "from_legacy_shredded",
    "infer_schema",
    "parquet",
    "shred",
    "unshred",
    "variant_get",
    "schema_of_variant",
    "schema_of_variant_agg",
    "variant_explode",
    "is_variant_null",
    "__version__",
    "from_arrow",
    "from_json",
    "from_json_lines",
    "from_python",
    "to_arrow",
    "to_json",
    "to_layout",
    "to_python",
    "validate",
    "variant_type",
]


def __getattr__(name: str) -> Any:
    # vs.spark imports pyspark, so it is loaded only when used.
    if name == "spark":
        import importlib

        return importlib.import_module("varshred.spark")
    # importlib.metadata costs every import of varshred about 30 ms (Spark's Python
    # workers and every command start one): read the version when asked.
    if name == "__version__":
        from importlib import metadata

        try:
            version = metadata.version("varshred")
        except metadata.PackageNotFoundError:  # running from a source tree
            version = "0.0.0"
        globals()["__version__"] = version
        return version
    raise AttributeError(f"module 'varshred' has no attribute {name!r}")
