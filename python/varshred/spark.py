# Licensed under the Apache License, Version 2.0.
"""varshred on PySpark: ``mapInArrow`` functions and the ``varshred`` data source.

Every function here is a plain, picklable callable over ``Iterator[pa.RecordBatch]``;
the work happens in varshred's C++ core with the GIL released, batch by batch.

>>> import varshred as vs
>>> df = spark.read.text("events.jsonl").withColumnRenamed("value", "json")
>>> variants = vs.spark.parse_json(df, "json", output="v")        # VariantType column
>>> vs.spark.register(spark)
>>> variants.write.format("varshred").option("shredding", "id bigint").mode("append").save(p)
"""

from __future__ import annotations

import os
import shutil
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import pyarrow as pa

import varshred as vs

__all__ = [
    "MapColumn",
    "output_schema",
    "parse_json",
    "register",
    "shred",
    "to_json",
    "unshred",
    "variant_spark_type",
]


# ----------------------------------------------------------------------
# mapInArrow functions


@dataclass(frozen=True)
class MapColumn:
    """Replaces (or adds) one column of every batch with ``op(column)``.

    ``op`` is one of "parse_json", "to_json", "shred", "unshred"; ``options`` are the
    keyword arguments of the matching ``vs`` function. Instances are picklable and hold
    no state between batches, so ``df.mapInArrow(MapColumn(...), schema)`` works on any
    cluster where varshred is installed.
    """

    column: str
    op: str
    output: str | None = None
    options: dict = field(default_factory=dict)

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        fn = _OPS[self.op]
        for batch in batches:
            result = fn(batch.column(self.column), **self.options)
            if isinstance(result, pa.ChunkedArray):
                result = result.combine_chunks()
            yield _put_column(batch, self.output or self.column, result)


def _put_column(batch: pa.RecordBatch, name: str, array: pa.Array) -> pa.RecordBatch:
    names = batch.schema.names
    columns = list(batch.columns)
    if name in names:
        columns[names.index(name)] = array
    else:
        names = names + [name]
        columns.append(array)
    return pa.RecordBatch.from_arrays(columns, names=names)


def _parse_json(column: pa.Array, **options: Any) -> pa.Array:
    # Spark's Variant Arrow layout: value first, metadata tagged variant=true.
    return vs.from_json(column, layout="spark", **options)


def _to_json(column: pa.Array, **options: Any) -> pa.Array:
    return vs.to_json(column, **options)


def _shred(column: pa.Array, schema: str, **options: Any) -> pa.Array:
    return vs.shred(column, vs.ShreddingSchema.parse(schema), **options)


def _unshred(column: pa.Array, **options: Any) -> pa.Array:
    return vs.unshred(column, layout="spark", **options)


_OPS: dict[str, Callable[..., pa.Array]] = {
    "parse_json": _parse_json,
    "to_json": _to_json,
    "shred": _shred,
    "unshred": _unshred,
}


def variant_spark_type():
    """``pyspark.sql.types.VariantType()``."""
    from pyspark.sql.types import VariantType

    return VariantType()


def output_schema(schema, column: str, data_type, output: str | None = None):
    """The Spark schema after replacing ``column`` (or adding ``output``) with ``data_type``."""
    from pyspark.sql.types import StructField, StructType

    name = output or column
    fields = [StructField(f.name, data_type if f.name == name else f.dataType, f.nullable)
              for f in schema.fields]
    if name not in schema.names:
        fields.append(StructField(name, data_type, True))
    return StructType(fields)


def _spark_type_of(arrow_type: pa.DataType):
    from pyspark.sql.pandas.types import from_arrow_type

    return from_arrow_type(arrow_type)


def parse_json(df, column: str, *, output: str | None = None, numbers: str = "decimal",
               duplicate_keys: str = "error", errors: str = "raise"):
    """JSON strings in ``column`` -> a ``VariantType`` column (as Spark's parse_json)."""
    fn = MapColumn(column, "parse_json", output,
                   {"numbers": numbers, "duplicate_keys": duplicate_keys, "errors": errors})
    return df.mapInArrow(fn, output_schema(df.schema, column, variant_spark_type(), output))


def to_json(df, column: str, *, output: str | None = None, timezone: str = "UTC"):
    """A ``VariantType`` column -> JSON strings (as Spark's to_json)."""
    from pyspark.sql.types import StringType

    fn = MapColumn(column, "to_json", output, {"timezone": timezone})
    return df.mapInArrow(fn, output_schema(df.schema, column, StringType(), output))


def shred(df, column: str, schema: str, *, output: str | None = None,
          numeric: str = "lenient"):
    """A ``VariantType`` column -> the shredded struct ``{metadata, value, typed_value}``.

    Spark can hold the shredded form only as a plain struct (ECOSYSTEM.md B.7).
    """
    parsed = vs.ShreddingSchema.parse(schema)
    fn = MapColumn(column, "shred", output, {"schema": parsed.to_ddl(), "numeric": numeric})
    spark_type = _spark_type_of(parsed.to_arrow())
    return df.mapInArrow(fn, output_schema(df.schema, column, spark_type, output))


def unshred(df, column: str, *, output: str | None = None, on_conflict: str = "error"):
    """A shredded struct column -> a ``VariantType`` column."""
    fn = MapColumn(column, "unshred", output, {"on_conflict": on_conflict})
    return df.mapInArrow(fn, output_schema(df.schema, column, variant_spark_type(), output))


# ----------------------------------------------------------------------
# The varshred data source


def register(spark) -> None:
    """Registers the ``varshred`` data source with ``spark``."""
    spark.dataSource.register(VarshredDataSource)


def _is_variant_field(f: pa.Field) -> bool:
    return pa.types.is_struct(f.type) and {c.name for c in f.type} == {"metadata", "value"}


def _part_files(path: str) -> list[str]:
    if os.path.isfile(path):
        return [path]
    out = []
    for root, dirs, files in os.walk(path):
        dirs[:] = [d for d in dirs if not d.startswith(("_", "."))]
        out += [os.path.join(root, f) for f in files
                if f.endswith(".parquet") and not f.startswith(("_", "."))]
    return sorted(out)


try:  # the data source classes need pyspark; the rest of varshred does not
    from pyspark.sql.datasource import (
        DataSource,
        DataSourceArrowWriter,
        DataSourceReader,
        InputPartition,
        WriterCommitMessage,
    )
except ImportError:  # pragma: no cover
    DataSource = object  # type: ignore[misc,assignment]
    DataSourceArrowWriter = DataSourceReader = object  # type: ignore[misc,assignment]
    InputPartition = WriterCommitMessage = object  # type: ignore[misc,assignment]


@dataclass
class _Written(WriterCommitMessage):
    files: list
    rows: int
    staging: str


class _ArrowWriter(DataSourceArrowWriter):
    """Writes each task's batches to one Parquet file in a staging directory; the job
    commit moves the files into place, an abort deletes them."""

    def __init__(self, options: dict, overwrite: bool):
        self.path = options.get("path")
        if not self.path:
            raise vs.VariantError("the varshred data source needs a path: .save(path)")
        self.overwrite = overwrite
        self.shredding = options.get("shredding", "infer")
        self.json_columns = [c.strip() for c in options.get("json_columns", "").split(",")
                             if c.strip()]
        self.compression = options.get("compression", "zstd")
        self.errors = options.get("errors", "raise")
        self.sample_rows = int(options.get("infer_rows", "100000"))
        self.job = options.get("job_id") or uuid.uuid4().hex
        self.staging = os.path.join(self.path, f"_varshred_staging_{self.job}")

    def _prepare(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        for name in self.json_columns:
            v = vs.from_json(batch.column(name), errors=self.errors)
            batch = _put_column(batch, name, v)
        return batch

    def _shredding(self, batches: list[pa.RecordBatch]) -> dict:
        names = [f.name for f in batches[0].schema if _is_variant_field(f)] if batches else []
        if self.shredding == "none":
            return {n: "none" for n in names}
        if self.shredding in ("infer", "per-file"):
            out = {}
            for n in names:
                stats = vs.ShreddingStats()
                for b in batches:
                    stats.add(b.column(n))
                out[n] = stats.derive_schema()
            return out
        if self.shredding.startswith("{"):
            import json

            return json.loads(self.shredding)
        if len(names) == 1:
            return {names[0]: self.shredding}
        raise vs.VariantError(
            "option shredding: give a JSON object {column: DDL} when several columns are "
            "Variant")

    def write(self, iterator: Iterator[pa.RecordBatch]) -> _Written:
        from pyspark import TaskContext

        ctx = TaskContext.get()
        task = f"{ctx.partitionId():05d}-{ctx.attemptNumber()}" if ctx else "00000-0"
        os.makedirs(self.staging, exist_ok=True)
        target = os.path.join(self.staging, f"part-{task}-{uuid.uuid4().hex[:8]}.parquet")
        # Buffer a sample first: the shredding schema is needed before the first write.
        buffered, rows = [], 0
        for batch in iterator:
            buffered.append(self._prepare(batch))
            rows += batch.num_rows
            if rows >= self.sample_rows:
                break
        if not buffered:
            return _Written([], 0, self.staging)
        writer = vs.parquet.ParquetWriter(target, buffered[0].schema,
                                          shredding=self._shredding(buffered),
                                          compression=self.compression)
        try:
            for batch in buffered:
                writer.write_batch(batch)
            for batch in iterator:
                batch = self._prepare(batch)
                writer.write_batch(batch)
                rows += batch.num_rows
            writer.close()
        except BaseException:
            writer.abort()
            raise
        return _Written([target], rows, self.staging)

    def commit(self, messages: Sequence[_Written]) -> None:
        if self.overwrite:
            for f in _part_files(self.path):
                os.remove(f)
        os.makedirs(self.path, exist_ok=True)
        for m in messages:
            for f in (m.files if m else []):
                os.replace(f, os.path.join(self.path, os.path.basename(f)))
        shutil.rmtree(self.staging, ignore_errors=True)

    def abort(self, messages: Sequence[_Written]) -> None:
        shutil.rmtree(self.staging, ignore_errors=True)


def _parse_paths(spec: str) -> list[tuple[str, str]]:
    out = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        path, sep, type_name = item.rpartition(":")
        if not sep:
            raise vs.VariantError(f"option paths: expected path:type, got {item!r}")
        out.append((path.strip(), type_name.strip()))
    return out


class _PathReader(DataSourceReader):
    def __init__(self, options: dict, paths: list[tuple[str, str]]):
        self.path = options.get("path")
        self.column = options.get("column")
        self.paths = paths

    def partitions(self):
        return [InputPartition(f) for f in _part_files(self.path)]

    def read(self, partition):
        from varshred import parquet as vpq

        column = self.column or _variant_column(partition.value)
        table = vpq.read_paths(partition.value, column, dict(self.paths))
        yield from table.to_batches()


def _variant_column(path: str) -> str:
    from varshred import parquet as vpq

    names = [c.name for c in vpq.inspect(path) if c.is_variant]
    if len(names) != 1:
        raise vs.VariantError(f"{path}: option column is needed (Variant columns: {names})")
    return names[0]


class VarshredDataSource(DataSource):
    """``format("varshred")``: writes through varshred's C++ Parquet writer, reads
    projected paths through its projection reader."""

    @classmethod
    def name(cls) -> str:
        return "varshred"

    def _paths_option(self):
        # Spark refuses option("paths") together with load(path); "variant_paths" is the
        # same option under a name Spark does not reserve.
        return self.options.get("variant_paths") or self.options.get("paths")

    def schema(self):
        spec = self._paths_option()
        if not spec:
            raise vs.VariantError('reading format("varshred") needs option("paths", '
                                  '"id:bigint,nested.x:int")')
        fields = []
        for path, type_name in _parse_paths(spec):
            fields.append(f"`{path}` {type_name}")
        return ", ".join(fields)

    def reader(self, schema):
        return _PathReader(self.options, _parse_paths(self._paths_option()))

    def writer(self, schema, overwrite: bool):
        return _ArrowWriter(dict(self.options), overwrite)
