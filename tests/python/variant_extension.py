# Licensed under the Apache License, Version 2.0.
"""``arrow.parquet.variant`` as a user defines it in pyarrow (pyarrow 26 ships none):
registered, Arrow C++ sees a type of that name; unregistered, only its storage with the
name in the schema. Tests use both."""

import pyarrow as pa


class VariantExtensionType(pa.ExtensionType):
    def __init__(self, storage: pa.DataType):
        super().__init__(storage, "arrow.parquet.variant")

    def __arrow_ext_serialize__(self) -> bytes:
        return b""

    @classmethod
    def __arrow_ext_deserialize__(cls, storage, serialized):
        return cls(storage)
