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

import itertools
import os
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

import pyarrow as pa

import varshred as vs
from varshred import _fs, _stored_table
from varshred.get import split_top_level
from varshred.jsonlines import DEFAULT_SAMPLE_BYTES
from varshred.shredding import as_schema

if TYPE_CHECKING:  # pyspark is imported only when used
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import DataType, StructType, VariantType

__all__ = [
    "ExplodeColumn",
    "MapColumn",
    "WriteSummary",
    "infer_schema",
    "output_schema",
    "from_arrow",
    "parse_json",
    "register",
    "schema_of_variant",
    "schema_of_variant_agg",
    "shred",
    "to_arrow",
    "to_json",
    "unshred",
    "variant_explode",
    "variant_spark_type",
    "write",
]


# ----------------------------------------------------------------------
# mapInArrow functions


def _in_partition(e: vs.VariantError, rows: int, what: str = "") -> str:
    """The message of ``e``, which names a row of an Arrow batch ("row 2: ..."), naming
    it in the task's partition instead (``rows`` came before the batch), after ``what``
    (a column): a row of a batch means nothing to the user, and batches follow Spark's
    settings."""
    from pyspark import TaskContext

    from varshred._status import shift_rows

    task = TaskContext.get()
    where = f"partition {task.partitionId()}, " if task else ""
    return where + what + shift_rows(str(e), rows)


@dataclass(frozen=True)
class MapColumn:
    """Replaces (or adds) one column of every batch with ``op(column)``.

    ``op`` is one of "parse_json", "to_json", "shred", "unshred", "from_arrow",
    "to_arrow", "schema_of_variant"; ``options`` are the keyword arguments of the
    matching ``vs`` function. Instances are picklable and hold
    no state between batches, so ``df.mapInArrow(MapColumn(...), schema)`` works on any
    cluster where varshred is installed.
    """

    column: str
    op: str
    output: str | None = None
    options: dict = field(default_factory=dict)

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        fn = _OPS[self.op]
        rows = 0  # of the task's partition, before the batch
        for batch in batches:
            try:
                result = fn(batch.column(self.column), **self.options)
            except vs.VariantError as e:
                raise vs.VariantError(_in_partition(e, rows)) from None
            rows += batch.num_rows
            if isinstance(result, pa.ChunkedArray):
                result = result.combine_chunks()
            yield for_spark(_put_column(batch, self.output or self.column, result))


def _put_column(batch: pa.RecordBatch, name: str, array: pa.Array) -> pa.RecordBatch:
    names = batch.schema.names
    columns = list(batch.columns)
    if name in names:
        columns[names.index(name)] = array
    else:
        names = names + [name]
        columns.append(array)
    return pa.RecordBatch.from_arrays(columns, names=names)


def _spark_arrow_type(t: pa.DataType) -> pa.DataType:
    """``t`` with every decimal as decimal128: Spark's Arrow reader rejects decimal32 and
    decimal64 vectors (which varshred builds for precisions up to 9 and 18)."""
    if pa.types.is_decimal(t) and t.bit_width < 128:
        return pa.decimal128(t.precision, t.scale)
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(_spark_arrow_type(f.type)) for f in t])
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(_spark_arrow_type(t.value_type)))
    if pa.types.is_large_list(t):
        return pa.large_list(t.value_field.with_type(_spark_arrow_type(t.value_type)))
    return t


def for_spark(batch: pa.RecordBatch) -> pa.RecordBatch:
    """``batch`` as Spark reads Arrow data. Every batch of Variant or typed data varshred
    hands to Spark goes through here: the ``MapColumn`` outputs and the data source's
    reads (the statistics and JSON-lines tasks return fixed schemas without decimals)."""
    schema = pa.schema([f.with_type(_spark_arrow_type(f.type)) for f in batch.schema],
                       metadata=batch.schema.metadata)
    return batch if schema.equals(batch.schema) else batch.cast(schema)


def _valid_children(array: pa.Array) -> pa.Array:
    """``array`` with no null under a non-nullable struct field where the struct itself
    is null: Spark's Arrow data marks a null struct's required children null too (a
    null Variant nested in a struct, an array or a map: its value and metadata), which
    Arrow's Parquet writer refuses ("declared non-nullable but contains nulls"). Those
    slots hold nothing, and now say so by being valid. Other arrays come back as they
    are."""
    t = array.type
    if pa.types.is_struct(t):
        import pyarrow.compute as pc  # here: not paid by every import of varshred

        given = [array.field(i) for i in range(t.num_fields)]
        children = []
        for f, child in zip(t, given):
            child = _valid_children(child)
            if (not f.nullable and child.null_count
                    and not pc.and_(child.is_null(), array.is_valid()).true_count):
                child = _without_validity(child)
            children.append(child)
        if all(c is g for c, g in zip(children, given)):
            return array  # the common case, every batch: nothing to rebuild
        return pa.StructArray.from_arrays(children, fields=list(t),
                                          mask=array.is_null() if array.null_count else None)
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_map(t):
        # The whole child (a map's: its key-item entries) whatever the array's offset,
        # so the array's own buffers and offset still fit the mended child.
        values = array.values
        fixed = _valid_children(values)
        if fixed is values:
            return array  # the common case, every batch: nothing to rebuild
        return pa.Array.from_buffers(t, len(array), array.buffers()[:2], array.null_count,
                                     array.offset, children=[fixed])
    return array


def _without_validity(array: pa.Array) -> pa.Array:
    """``array`` with every slot valid (its null slots' contents as they lie)."""
    t = array.type
    if pa.types.is_struct(t):
        return pa.StructArray.from_arrays([array.field(i) for i in range(t.num_fields)],
                                          fields=list(t))
    if array.offset:
        array = pa.concat_arrays([array])
    return pa.Array.from_buffers(t, len(array), [None, *array.buffers()[1:]])


def _parse_json(column: pa.Array, **options: Any) -> pa.Array:
    # Spark's Variant Arrow layout: value first, metadata tagged variant=true.
    return vs.from_json(column, layout="spark", **options)


def _to_json(column: pa.Array, **options: Any) -> pa.Array:
    return vs.to_json(column, **options)


def _shred(column: pa.Array, schema: "vs.ShreddingSchema | str", **options: Any
           ) -> pa.Array:
    return vs.shred(column, schema, **options)


def _unshred(column: pa.Array, **options: Any) -> pa.Array:
    return vs.unshred(column, layout="spark", **options)


def _from_arrow(column: pa.Array) -> pa.Array:
    return vs.from_arrow(column, layout="spark")


def _to_arrow(column: pa.Array, target_type: pa.DataType, **options: Any) -> pa.Array:
    return vs.to_arrow(column, target_type, **options)


def _schema_of_variant(column: pa.Array, **options: Any) -> pa.Array:
    return vs.schema_of_variant(column, **options)


_OPS: dict[str, Callable[..., pa.Array]] = {
    "from_arrow": _from_arrow,
    "to_arrow": _to_arrow,
    "schema_of_variant": _schema_of_variant,
    "parse_json": _parse_json,
    "to_json": _to_json,
    "shred": _shred,
    "unshred": _unshred,
}


@dataclass(frozen=True)
class ExplodeColumn:
    """mapInArrow function: ``variant_explode(column)`` (``outer``: the outer form) with
    the batch's other columns repeated beside ``pos``, ``key`` and ``value``, as
    Spark's ``LATERAL variant_explode`` gives them."""

    column: str
    outer: bool = False
    names: tuple[str, ...] | None = None  # of the output columns; default their own

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            exploded = vs.variant_explode(batch.column(self.column), outer=self.outer,
                                          layout="spark")
            rest = batch.drop_columns([self.column]).take(
                exploded.column("row").combine_chunks())
            columns = list(rest.columns) + [exploded.column(n).combine_chunks()
                                            for n in ("pos", "key", "value")]
            names = self.names or rest.schema.names + ["pos", "key", "value"]
            yield pa.RecordBatch.from_arrays(columns, names=list(names))


@dataclass(frozen=True)
class _SchemaAggTask:
    column: str
    case_sensitive: bool

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        merged = vs.schema_of_variant_agg((b.column(self.column) for b in batches),
                                          case_sensitive=self.case_sensitive)
        yield pa.RecordBatch.from_pydict({"type": [merged]})


def variant_spark_type() -> VariantType:
    """``pyspark.sql.types.VariantType()``."""
    from pyspark.sql.types import VariantType

    return VariantType()


def output_schema(schema: StructType, column: str, data_type: DataType,
                  output: str | None = None) -> StructType:
    """The Spark schema after replacing ``column`` (or adding ``output``) with ``data_type``."""
    from pyspark.sql.types import StructField, StructType

    name = output or column
    fields = [StructField(f.name, data_type if f.name == name else f.dataType, f.nullable)
              for f in schema.fields]
    if name not in schema.names:
        fields.append(StructField(name, data_type, True))
    return StructType(fields)


def _named(name: str) -> Any:
    """The column ``name`` of a DataFrame, as it is named: Spark reads an unquoted name
    with a dot as a field of a struct."""
    from pyspark.sql import functions as F

    return F.col("`" + name.replace("`", "``") + "`")


def _plain_columns(df: DataFrame) -> tuple[DataFrame, dict[str, str]]:
    """``df`` as a mapInArrow function may be run on, and what its batches call each
    of ``df``'s columns. PySpark's mapInArrow resolves every column of its DataFrame by
    bare name, and a name with a dot or a backtick does not resolve: the columns then
    cross under plain names (Spark takes the function's output by position, under the
    names of the schema it is given)."""
    if not any("." in c or "`" in c for c in df.columns):
        return df, {c: c for c in df.columns}
    plain = {c: f"__varshred_{i}__" for i, c in enumerate(df.columns)}
    return df.select(*(_named(c).alias(p) for c, p in plain.items())), plain


def _map_column(df: DataFrame, column: str, op: str, data_type: DataType,
                output: str | None = None, options: dict | None = None) -> DataFrame:
    """``df`` with ``column`` replaced by (or ``output`` added as) ``op(column)``, of
    Spark type ``data_type`` (a MapColumn job). The options are tried on no rows first:
    a bad one fails the call, not each task with a worker's traceback."""
    if op != "from_arrow":  # it takes no options, and columns of any type
        empty = pa.array([], pa.string())
        _OPS[op](empty if op == "parse_json" else vs.from_json(empty), **(options or {}))
    schema = output_schema(df.schema, column, data_type, output)
    source, names = _plain_columns(df)
    fn = MapColumn(names.get(column, column), op, output and names.get(output, output),
                   options or {})
    return source.mapInArrow(fn, schema)


def _session_duplicate_keys(spark: Any, duplicate_keys: str | None) -> str:
    """``duplicate_keys``, or what Spark's own parse_json does in ``spark``'s session (or
    a session on that SparkContext): keep the last value when
    ``spark.sql.variant.allowDuplicateKeys`` is on, else fail."""
    if duplicate_keys is not None:
        return duplicate_keys
    allowed = _stored_table.sql_setting(spark, "spark.sql.variant.allowDuplicateKeys",
                                        lambda: "false")
    return "last" if allowed.lower() == "true" else "error"


def _session_zone(df: DataFrame, timezone: str | None) -> str:
    """``timezone``, or the zone Spark's own casts of ``df`` use: its session's."""
    if timezone is not None:
        return timezone
    return df.sparkSession.conf.get("spark.sql.session.timeZone") or "UTC"


def _spark_type_of(arrow_type: pa.DataType) -> DataType:
    from pyspark.sql.pandas.types import from_arrow_type

    return from_arrow_type(arrow_type)


def parse_json(df: DataFrame, column: str, *, output: str | None = None,
               numbers: str = "decimal", duplicate_keys: str | None = None,
               errors: str = "raise") -> DataFrame:
    """JSON strings in ``column`` -> a ``VariantType`` column (as Spark's parse_json).
    ``duplicate_keys`` ("error" or "last"; default: the session's
    ``spark.sql.variant.allowDuplicateKeys``, as Spark's parse_json)."""
    return _map_column(df, column, "parse_json", variant_spark_type(), output,
                       {"numbers": numbers,
                        "duplicate_keys": _session_duplicate_keys(df.sparkSession,
                                                                  duplicate_keys),
                        "errors": errors})


def from_arrow(df: DataFrame, column: str, *, output: str | None = None) -> DataFrame:
    """A typed column (any Spark type Arrow carries) -> a ``VariantType`` column, as
    Spark's ``to_variant_object`` / ``cast(x as variant)`` (vs.from_arrow)."""
    return _map_column(df, column, "from_arrow", variant_spark_type(), output)


def to_arrow(df: DataFrame, column: str, target_type: pa.DataType, *,
             output: str | None = None, errors: str = "null",
             timezone: str | None = None) -> DataFrame:
    """A ``VariantType`` column -> ``target_type`` (a pyarrow type Spark can hold), as
    Spark's ``try_cast`` (``errors="null"``) or ``cast`` (vs.to_arrow), in ``timezone``
    (default: the session's ``spark.sql.session.timeZone``, as Spark's casts)."""
    return _map_column(df, column, "to_arrow", _spark_type_of(target_type), output,
                       {"target_type": target_type, "errors": errors,
                        "timezone": _session_zone(df, timezone)})


def _case_sensitive(df: DataFrame) -> bool:
    """The session's ``spark.sql.caseSensitive``, which Spark's own schema functions
    follow."""
    return (df.sparkSession.conf.get("spark.sql.caseSensitive") or "false").lower() == "true"


def schema_of_variant(df: DataFrame, column: str, *,
                      output: str | None = None) -> DataFrame:
    """A ``VariantType`` column -> its per-row type strings (vs.schema_of_variant),
    names merged as the session's ``spark.sql.caseSensitive`` says."""
    from pyspark.sql.types import StringType

    return _map_column(df, column, "schema_of_variant", StringType(), output,
                       {"case_sensitive": _case_sensitive(df)})


def schema_of_variant_agg(df: DataFrame, column: str) -> str:
    """The merged type of a ``VariantType`` column (vs.schema_of_variant_agg): one
    partial type per partition, merged on the driver."""
    case_sensitive = _case_sensitive(df)
    source, names = _plain_columns(df.select(_named(column)))
    task = _SchemaAggTask(names[column], case_sensitive)
    partial = source.mapInArrow(task, "type string").collect()
    return vs.schema_of_variant_agg([row.type for row in partial],
                                    case_sensitive=case_sensitive)


def variant_explode(df: DataFrame, column: str, *, outer: bool = False) -> DataFrame:
    """``LATERAL variant_explode(column)`` (``outer``: variant_explode_outer): the other
    columns repeated, then ``pos``, ``key`` and ``value``."""
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

    fields = [f for f in df.schema.fields if f.name != column]
    fields += [StructField("pos", IntegerType(), True), StructField("key", StringType(), True),
               StructField("value", variant_spark_type(), True)]
    # Spark's result may repeat a name (a column `value` beside the exploded `value`),
    # which mapInArrow's schema may not: the job's columns cross under plain names.
    crossed = tuple(f"__varshred_{i}__" for i in range(len(fields)))
    schema = StructType([StructField(c, f.dataType, f.nullable)
                         for c, f in zip(crossed, fields)])
    source, plain = _plain_columns(df)
    exploded = source.mapInArrow(ExplodeColumn(plain.get(column, column), outer, crossed),
                                 schema)
    return exploded.toDF(*(f.name for f in fields))


def to_json(df: DataFrame, column: str, *, output: str | None = None,
            timezone: str | None = None) -> DataFrame:
    """A ``VariantType`` column -> JSON strings (as Spark's to_json: timestamps in
    ``timezone``, by default the session's ``spark.sql.session.timeZone``)."""
    from pyspark.sql.types import StringType

    return _map_column(df, column, "to_json", StringType(), output,
                       {"timezone": _session_zone(df, timezone)})


def shred(df: DataFrame, column: str, schema: "vs.ShreddingSchema | str", *,
          output: str | None = None,
          numeric: str = "lenient") -> DataFrame:
    """A ``VariantType`` column -> the shredded struct ``{metadata, value, typed_value}``.

    Spark can hold the shredded form only as a plain struct (docs/interop.md#mapinarrow).
    """
    parsed = as_schema(schema)
    return _map_column(df, column, "shred", _spark_type_of(parsed.to_arrow()), output,
                       {"schema": parsed.to_ddl(), "numeric": numeric})


def unshred(df: DataFrame, column: str, *, output: str | None = None,
            on_conflict: str = "error") -> DataFrame:
    """A shredded struct column -> a ``VariantType`` column."""
    return _map_column(df, column, "unshred", variant_spark_type(), output,
                       {"on_conflict": on_conflict})


# ----------------------------------------------------------------------
# What Spark 4.3 cannot read (tests/python/test_spark_decimals.py checks both facts)

# A typed_value column of one of these types makes Spark fail on the whole file:
# output meant for Spark never types them. DDL name -> (what, Spark's error).
_SPARK_UNTYPED = {"time": ("TIME", "INVALID_VARIANT_SHREDDING_SCHEMA"),
                  "timestamp_ns": ("nanosecond TIMESTAMP", "PARQUET_TYPE_ILLEGAL"),
                  "timestamp_ntz_ns": ("nanosecond TIMESTAMP_NTZ", "PARQUET_TYPE_ILLEGAL"),
                  "uuid": ("UUID", "PARQUET_TYPE_ILLEGAL")}
# Values of these types fail Spark wherever they are stored, residual included, as
# soon as a query decodes them (UNKNOWN_PRIMITIVE_TYPE_IN_VARIANT); a residual UUID
# reads fine.
SPARK_UNREADABLE_TYPES = ("time", "timestamp_nanos", "timestamp_ntz_nanos")


def _untyped_name(t: pa.DataType) -> str | None:
    """The DDL name of a typed_value leaf type Spark refuses, else None."""
    if pa.types.is_time(t):
        return "time"
    if pa.types.is_timestamp(t) and t.unit == "ns":
        return "timestamp_ns" if t.tz else "timestamp_ntz_ns"
    if pa.types.is_fixed_size_binary(t) and t.byte_width == 16:
        return "uuid"
    return None


def _without_untyped(t: pa.DataType, path: str, found: list) -> pa.DataType | None:
    """The typed_value type ``t`` at ``path`` without the typed leaves Spark refuses
    (None when ``t`` is one: the pair keeps only ``value``); ``found`` gets their
    (path, DDL type)."""
    if _untyped_name(t):
        found.append((path, _untyped_name(t)))
        return None

    def pair(p: pa.DataType, at: str) -> pa.DataType:
        i = p.get_field_index("typed_value")
        typed = _without_untyped(p.field(i).type, at, found) if i >= 0 else None
        return pa.struct([p.field("value")] + ([] if typed is None else
                                               [p.field(i).with_type(typed)]))

    if pa.types.is_struct(t):
        return pa.struct([f.with_type(pair(f.type, f.name if path == "$" else
                                           f"{path}.{f.name}")) for f in t])
    if pa.types.is_list(t):
        element = t.value_field
        return pa.list_(element.with_type(pair(element.type, path.removeprefix("$") + "[]")))
    return t


def spark_shredding(schema: "vs.ShreddingSchema | str", *,
                    inferred: bool) -> "vs.ShreddingSchema":
    """``schema`` for output Spark reads. Spark 4.3 refuses a whole Parquet file that
    has a TIME, nanosecond-timestamp or UUID typed_value column: an ``inferred`` schema
    leaves such paths value-only; an explicit one that asks for them is an error."""
    schema = as_schema(schema)
    typed = schema.typed_value_type()
    found: list = []
    kept = None if typed is None else _without_untyped(typed, "$", found)
    if not found:
        return schema
    if not inferred:
        path, ddl = found[0]
        what, error = _SPARK_UNTYPED[ddl]
        raise vs.VariantError(
            f"shredding schema types {path} as {ddl}: Spark 4.3 refuses a whole Parquet "
            f"file with a {what} typed column ({error}); give that path as variant")
    return vs.ShreddingSchema.value_only() if kept is None else \
        vs.ShreddingSchema.from_arrow(kept)


# The codecs Parquet C++ writes that Spark 4.3 reads: its Hadoop build bundles no
# Brotli codec (a read fails with "BrotliCodec was not found").
SPARK_COMPRESSIONS = ("zstd", "snappy", "gzip", "lz4", "none", "uncompressed")


def _spark_compression(name: str) -> None:
    """Checks a compression option for output meant for Spark."""
    if not isinstance(name, str) or name.lower() not in SPARK_COMPRESSIONS:
        why = (" (Spark 4.3 bundles no Brotli codec and cannot read it)"
               if str(name).lower() == "brotli" else "")
        raise vs.VariantError(f"compression {name!r} for Spark: one of "
                              f"{', '.join(SPARK_COMPRESSIONS)}{why}")


def _explicit_shredding(option: str) -> None:
    """Checks an explicit shredding option (a DDL or a JSON object {column: DDL}) for
    output meant for Spark; the words infer/per-file/none need no check."""
    import json

    if option in ("infer", "per-file", "none"):
        return
    try:
        ddls = json.loads(option).values() if option.lstrip().startswith("{") else [option]
    except ValueError as e:
        raise vs.VariantError(f"shredding: not a JSON object {{column: DDL}}: {e}") from None
    for ddl in ddls:
        if str(ddl) not in ("infer", "per-file", "none"):
            spark_shredding(str(ddl), inferred=False)


def spark_unreadable(stats: vs.ShreddingStats) -> dict[str, dict[str, int]]:
    """Per path, the number of values of each type Spark cannot read (even residual)."""
    out = {}
    for path, counts in stats.type_counts().items():
        bad = {t: n for t, n in counts.items() if t in SPARK_UNREADABLE_TYPES}
        if bad:
            out[path] = bad
    return out


def _add_counts(into: dict, counts: dict) -> dict:
    """Adds nested {key: ... {type: count}} counts into ``into``."""
    for k, v in counts.items():
        if isinstance(v, dict):
            _add_counts(into.setdefault(k, {}), v)
        else:
            into[k] = into.get(k, 0) + v
    return into


def unreadable_warning(unreadable: dict) -> str:
    """The job summary's warning for {column: {path: {type: count}}}, or ""."""
    lines = []
    for column, paths in unreadable.items():
        if not paths:
            continue
        where = "; ".join(f"{p}: " + ", ".join(f"{n} {t}" for t, n in c.items())
                          for p, c in paths.items())
        lines.append(f"WARNING: column {column} holds values Spark 4.3 cannot read, so "
                     f"Spark cannot read the output: a query that decodes them fails with "
                     f"UNKNOWN_PRIMITIVE_TYPE_IN_VARIANT (read it with varshred, DuckDB or "
                     f"pyarrow): {where}")
    return "\n".join(lines)


# ----------------------------------------------------------------------
# One shredding schema per job: a sample pass, then the write


@dataclass(frozen=True)
class _SampleStats:
    """mapInArrow function: ShreddingStats of the first ``rows`` rows of a partition
    (all rows when 0), and of its first batches up to ``nbytes`` bytes of the sampled
    columns (no bound when 0), one output row per column: (column, bytes(stats)).

    It reads every batch it is sent, counted or not: Spark does not reuse a Python
    worker that stopped reading early (the next job starts new ones), and its JVM
    side converts the rest of the partition anyway. Bound the rows upstream."""

    variant_columns: tuple
    json_columns: tuple
    rows: int
    nbytes: int = 0

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        stats = {c: vs.ShreddingStats() for c in self.variant_columns + self.json_columns}
        seen = seen_bytes = 0
        for batch in batches:
            if (self.nbytes and seen_bytes >= self.nbytes) or (self.rows and seen >= self.rows):
                continue
            seen_bytes += sum(batch.column(c).nbytes for c in stats)
            if self.rows:
                batch = batch.slice(0, self.rows - seen)
            for c in self.variant_columns:
                stats[c].add(batch.column(c))
            for c in self.json_columns:
                # Bad documents are the write's to report (with its errors policy).
                stats[c].add(vs.from_json(batch.column(c), errors="null"))
            seen += batch.num_rows
        yield pa.RecordBatch.from_arrays(
            [pa.array(list(stats), pa.string()),
             pa.array([bytes(s) for s in stats.values()], pa.binary())],
            names=["column", "stats"])


def _estimated_bytes(df: DataFrame) -> int | None:
    """Spark's estimate of ``df``'s size in bytes (for files: their size on disk), or
    None where it has none (Spark Connect, or a plan it cannot size)."""
    try:
        size = df._jdf.queryExecution().optimizedPlan().stats().sizeInBytes().longValue()
    except Exception:  # Spark Connect has no _jdf; other plans may refuse
        return None
    return size if 0 < size < 1 << 62 else None


def _sample_fraction(df: DataFrame, sample_rows: int, sample_bytes: int) -> float:
    """The fraction of ``df``'s rows to draw for about ``sample_rows`` rows and
    ``sample_bytes`` bytes; 0 when ``df`` is empty. Counting reads no column (Parquet:
    only its footers)."""
    rows = df.count()
    if rows == 0:
        return 0.0
    fraction = 1.0
    if sample_rows > 0:
        fraction = min(fraction, sample_rows / rows)
    size = _estimated_bytes(df) if sample_bytes > 0 else None
    if size:
        # On-disk bytes understate the decoded columns: more rows come, never fewer.
        fraction = min(fraction, sample_bytes / size)
    return fraction


def variant_columns(df: DataFrame) -> list[str]:
    """Names of the ``VariantType`` columns of a DataFrame."""
    from pyspark.sql.types import VariantType

    return [f.name for f in df.schema.fields if isinstance(f.dataType, VariantType)]


def _warn_of_nested_variants(schema) -> None:
    """Warns when a Spark schema holds Variant values inside an array, struct or map:
    varshred annotates top-level Variant columns only, so those are written as their
    (value, metadata) pairs, which readers see as binaries unless told the type
    (docs/interop.md#files-spark-reads)."""
    import warnings

    from pyspark.sql.types import ArrayType, MapType, StructType, VariantType

    def holds_variant(t) -> bool:
        if isinstance(t, VariantType):
            return True
        if isinstance(t, ArrayType):
            return holds_variant(t.elementType)
        if isinstance(t, MapType):
            return holds_variant(t.keyType) or holds_variant(t.valueType)
        if isinstance(t, StructType):
            return any(holds_variant(f.dataType) for f in t.fields)
        return False

    nested = [f.name for f in schema.fields
              if not isinstance(f.dataType, VariantType) and holds_variant(f.dataType)]
    if nested:
        warnings.warn(
            f"column {nested[0]!r} holds Variant values inside an array, struct or map: "
            "they are written as (value, metadata) pairs without the VARIANT annotation; "
            "read them back with a schema that names them variant "
            "(docs/interop.md#files-spark-reads)", stacklevel=3)


def sample_stats(df: DataFrame, *, json_columns: Sequence[str] = (),
                 sample_rows: int = 100_000,
                 sample_bytes: int = DEFAULT_SAMPLE_BYTES) -> dict[str, vs.ShreddingStats]:
    """Per column, ``ShreddingStats`` merged over a sample of ``df`` spread over all of
    it: about ``sample_rows`` rows and ``sample_bytes`` bytes of the sampled columns
    (0: no bound), no task more than either.

    Spark draws the rows (a seeded Bernoulli sample whose fraction comes from
    ``df.count()`` and Spark's size estimate), so that only they cross to Python; a
    Parquet table as stored (``spark.read.parquet(path)``, or columns of it) is sampled
    on the driver from its files instead (no Spark job; docs/cluster.md#stored-tables).
    Covers the ``VariantType`` columns and the JSON string ``json_columns``."""
    return _sample_stats(df, json_columns, sample_rows, sample_bytes,
                         _stored_table.stored_table(df))


def _sample_stats(df: DataFrame | None, json_columns: Sequence[str], sample_rows: int,
                  sample_bytes: int, stored: "_stored_table.StoredTable | None"
                  ) -> dict[str, vs.ShreddingStats]:
    """As sample_stats(); ``df`` may be None when ``stored`` is given."""
    variants = tuple(stored.variant_columns if stored is not None else variant_columns(df))
    json_cols = tuple(json_columns)
    if not variants and not json_cols:
        return {}
    if stored is not None:
        return _stored_table.sample_stats(stored, variants, json_cols, sample_rows,
                                          sample_bytes)
    columns, names = _plain_columns(df.select(*map(_named, (*variants, *json_cols))))
    fraction = _sample_fraction(columns, sample_rows, sample_bytes)
    if fraction == 0:
        return {c: vs.ShreddingStats() for c in variants + json_cols}
    sampled = columns if fraction >= 1 else columns.sample(fraction=fraction, seed=20261125)
    # The fraction bounds the whole sample; each task also stays within the bounds.
    fn = _SampleStats(tuple(names[c] for c in variants), tuple(names[c] for c in json_cols),
                      sample_rows, sample_bytes)
    rows = sampled.mapInArrow(fn, "column string, stats binary").collect()
    column_of = {plain: name for name, plain in names.items()}
    merged: dict = {}
    for r in rows:
        s, name = vs.ShreddingStats.from_bytes(r["stats"]), column_of[r["column"]]
        merged[name] = merged[name].merge(s) if name in merged else s
    return merged


def infer_schema(df: DataFrame, *, json_columns: Sequence[str] = (),
                 sample_rows: int = 100_000, sample_bytes: int = DEFAULT_SAMPLE_BYTES,
                 **derive_options: Any) -> dict[str, vs.ShreddingSchema]:
    """One shredding schema per Variant (or JSON string) column of ``df``, inferred from
    a sample pass (see :func:`sample_stats`): {column: ShreddingSchema}. Never types
    what Spark cannot read (see :func:`spark_shredding`)."""
    return inferred_schemas(sample_stats(df, json_columns=json_columns,
                                         sample_rows=sample_rows, sample_bytes=sample_bytes),
                            **derive_options)


def inferred_schemas(stats: dict[str, vs.ShreddingStats], **derive_options: Any
                     ) -> dict[str, vs.ShreddingSchema]:
    """{column: ShreddingSchema} derived from each column's sample statistics, never
    typing what Spark cannot read."""
    return {c: spark_shredding(s.derive_schema(**derive_options), inferred=True)
            for c, s in stats.items()}


@dataclass
class WriteSummary:
    """What :func:`write` wrote."""

    path: str
    files: list
    rows: int
    bytes: int
    seconds: float
    schemas: dict            # column -> DDL (or "none")
    nulled: dict             # column -> rows nulled by errors="null"
    stats: dict              # column -> ShreddingStats of every row written (collect_stats)
    # column -> {path: {type: count}}: values Spark cannot read (SPARK_UNREADABLE_TYPES)
    unreadable: dict = field(default_factory=dict)
    # An append: the new files' shredding against the files already there (schema_drift)
    drift: dict | None = None

    def report(self) -> str:
        """Per Variant column: the schema and, per path, how many values landed in
        typed columns and how many stayed residual: counted over every row written
        (from the statistics with ``collect_stats``, else from the files' footers)."""
        out = []
        for column, ddl in self.schemas.items():
            out.append(f"shredding schema of column {column}: {ddl}")
            if column in self.stats and ddl != "none":
                out.append(self.stats[column].report(ddl))
        if not self.stats and self.files:
            out.append(vs.parquet.counts_table(vs.parquet.shredding_counts(self.files)))
        warning = unreadable_warning(self.unreadable)
        if warning:
            out.append(warning)
        if self.drift is not None:
            out.append(drift_text(self.drift))
        return "\n".join(out)


def _shredded_paths(files: Sequence[str]) -> dict:
    """{column: {path: sorted typed types}} over ``files``, from their footers."""
    out: dict = {}
    for f in files:
        for c in vs.parquet.shredding_counts(f):
            types = out.setdefault(c.column, {}).setdefault(c.path, [])
            if c.typed_type not in types:
                types.append(c.typed_type)
    return {col: {p: sorted(t) for p, t in paths.items()} for col, paths in out.items()}


def schema_drift(existing: Sequence[str], new: Sequence[str]) -> dict:
    """How the shredding of ``new`` files differs from that of ``existing`` files, per
    Variant column: {"files": len(existing), "columns": {column: {"added": [path],
    "dropped": [path], "retyped": [(path, old types, new types)]}}} (paths as in
    ``vs.parquet.shredding_counts``; types are the typed_value types, "object", "array"
    or "variant" for a value-only path). Columns without drift are left out."""
    old, now = _shredded_paths(existing), _shredded_paths(new)
    columns = {}
    for column in sorted(set(old) | set(now)):
        a, b = old.get(column, {}), now.get(column, {})
        change = {"added": sorted(set(b) - set(a)), "dropped": sorted(set(a) - set(b)),
                  "retyped": [(p, a[p], b[p]) for p in sorted(set(a) & set(b))
                              if a[p] != b[p]]}
        if any(change.values()):
            columns[column] = change
    return {"files": len(existing), "columns": columns}


def drift_text(drift: dict) -> str:
    """The job summary's lines for :func:`schema_drift`."""
    head = f"appended beside {drift['files']} existing file(s): "
    if not drift["columns"]:
        return head + "same shredding schema"
    lines = [head + "the new files' shredding schema differs"]
    for column, change in drift["columns"].items():
        lines.append(f"  column {column}:")
        if change["added"]:
            lines.append("    paths added:   " + ", ".join(change["added"]))
        if change["dropped"]:
            lines.append("    paths dropped: " + ", ".join(change["dropped"]))
        for path, old, new in change["retyped"]:
            lines.append(f"    path retyped:  {path}: {' | '.join(old)} -> {' | '.join(new)}")
    return "\n".join(lines)


def _absolute(path: str) -> str:
    """A local path made absolute (URIs as they are): the executors of a cluster run in
    their own working directories, where a relative path names another file or none."""
    return path if _fs.is_uri(path) else os.path.abspath(path)


def _path_has_data(path: str) -> bool:
    return _fs.has_data(path)


def write(df: DataFrame, path: str, *, shredding: str | dict = "infer", mode: str = "error",
          json_columns: Sequence[str] = (), errors: str = "raise",
          duplicate_keys: str | None = None,
          compression: str = "zstd", sample_rows: int = 100_000,
          sample_bytes: int = DEFAULT_SAMPLE_BYTES,
          collect_stats: bool = False) -> "WriteSummary | None":
    """Writes ``df`` as shredded Parquet under ``path`` through the varshred data source.

    ``shredding``: "infer" (one schema for the whole job from a sample pass),
    "per-file" (each task infers from its own first rows), "none", a DDL, or
    {column: DDL}. ``mode``: "error" (the default: fails if ``path`` has data),
    "ignore" (writes nothing then, returns None), "overwrite" or "append".
    ``json_columns`` are JSON strings parsed into Variant on the way
    (``errors="null"`` nulls bad documents and counts them; ``duplicate_keys`` as
    :func:`parse_json`'s, the session's by default). With ``collect_stats``
    the summary holds per-path statistics of every row written.

    A Parquet table as stored (``spark.read.parquet(path)`` on local files, with at
    most columns selected, renamed or reordered) is sampled and read by varshred
    itself, in the same tasks and files (docs/cluster.md#stored-tables); any other
    DataFrame through Spark.
    """
    _warn_of_nested_variants(df.schema)
    return _write(df.sparkSession, path, df=df, shredding=shredding, mode=mode,
                  json_columns=json_columns, errors=errors,
                  duplicate_keys=duplicate_keys, compression=compression,
                  sample_rows=sample_rows, sample_bytes=sample_bytes,
                  collect_stats=collect_stats)


def _write(spark: SparkSession, path: str, *, df: DataFrame | None = None,
           stored: "_stored_table.StoredTable | None" = None, shredding: str | dict,
           mode: str, json_columns: Sequence[str], errors: str, compression: str,
           duplicate_keys: str | None = None,
           sample_rows: int = 100_000, sample_bytes: int = DEFAULT_SAMPLE_BYTES,
           collect_stats: bool = False) -> "WriteSummary | None":
    """write() of ``df``, or of the table as stored ``stored`` with the schema Spark
    would read (the pipeline's Parquet input, when it needs no DataFrame)."""
    import json
    import tempfile
    import time

    modes = {"error": "error", "errorifexists": "error", "ignore": "ignore",
             "overwrite": "overwrite", "append": "append"}
    if mode not in modes:
        raise vs.VariantError(f"mode: one of {sorted(modes)}, got {mode!r}")
    mode = modes[mode]
    _spark_compression(compression)
    # The caller's directory: on Spark Connect the data source runs in the server's
    # Python workers, whose working directory Spark deletes with the session.
    path = _absolute(path)
    if _fs.is_file(path):
        raise vs.VariantError(f"{path} is a file: the path names the directory the part "
                              "files go to")
    if mode in ("error", "ignore") and _path_has_data(path):
        if mode == "ignore":
            return None
        raise vs.VariantError(f"{path} already exists; use mode='overwrite' or 'append'")
    start = time.time()
    existing = _part_files(path) if mode == "append" and os.path.isdir(path) else []
    if stored is None:
        stored = _stored_table.stored_table(df)
    if shredding == "infer":
        stats = _sample_stats(df, json_columns, sample_rows, sample_bytes, stored)
        shredding = {c: s.to_ddl() for c, s in inferred_schemas(stats).items()}
    if isinstance(shredding, dict):
        shredding = json.dumps({c: str(d.to_ddl() if hasattr(d, "to_ddl") else d)
                                for c, d in shredding.items()})
    _explicit_shredding(shredding)
    with tempfile.TemporaryDirectory(prefix="varshred-report-") as tmp:
        report_to = os.path.join(tmp, "report.json")
        options = {"shredding": shredding, "json_columns": ",".join(json_columns),
                   "errors": errors,
                   "duplicate_keys": _session_duplicate_keys(spark, duplicate_keys),
                   "compression": compression, "report_to": report_to,
                   "collect_stats": str(bool(collect_stats)).lower()}
        created = not _fs.exists(path)
        try:
            if stored is not None:
                writer = _ArrowWriter({**options, "path": path}, overwrite=mode == "overwrite",
                                      schema=stored.schema)
                try:
                    messages = _stored_table.write(spark, stored, writer)
                except BaseException:
                    writer.abort([])
                    raise
                writer.commit(messages)
            else:
                register(spark)
                (df.write.format("varshred").options(**options)
                 .mode("append" if mode == "error" else mode).save(path))
        except BaseException:
            if created:  # leave no trace of a failed job
                _fs.remove_tree(path)
            raise
        with open(report_to, encoding="utf-8") as f:
            report = json.load(f)
    import base64

    schemas = {c: d[0] if len(d) == 1 else d for c, d in report["schemas"].items()}
    return WriteSummary(path, report["files"], report["rows"], report["bytes"],
                        time.time() - start, schemas, report["nulled"],
                        {c: vs.ShreddingStats.from_bytes(base64.b64decode(b))
                         for c, b in report["stats"].items()},
                        report["unreadable"],
                        schema_drift(existing, report["files"]) if existing else None)


# ----------------------------------------------------------------------
# The varshred data source


def register(spark: SparkSession) -> None:
    """Registers the ``varshred`` data source with ``spark`` and turns on filter pushdown
    to Python data sources (``spark.sql.python.filterPushdown.enabled``, off by default
    in Spark 4.3): the path reader prunes row groups by the filters Spark pushes, and
    Spark refuses to plan a reader that implements ``pushFilters`` while it is off."""
    spark.conf.set("spark.sql.python.filterPushdown.enabled", "true")
    spark.dataSource.register(VarshredDataSource)


def _part_files(path: str) -> list[str]:
    files = _fs.list_files(path)
    return (files if files == [path]
            else [f for f in files if _fs.without_query(f).endswith(".parquet")])


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


class _JsonColumnError(vs.VariantError):
    """A bad document in a JSON column the writer parses: its message names the
    partition and row; ``in_batch`` ("row 7: ...") its row in the Arrow batch, for a
    caller that knows where the batch starts in a file."""

    def __init__(self, message: str, column: str = "", in_batch: str = ""):
        super().__init__(message)
        self.column, self.in_batch = column, in_batch


@dataclass
class _Written(WriterCommitMessage):
    files: list
    rows: int
    staging: str
    bytes: int = 0
    nulled: dict = field(default_factory=dict)   # column -> rows parse_json nulled
    stats: dict = field(default_factory=dict)    # column -> bytes(ShreddingStats)
    schemas: dict = field(default_factory=dict)  # column -> DDL used
    unreadable: dict = field(default_factory=dict)  # column -> spark_unreadable counts


class _ArrowWriter(DataSourceArrowWriter):
    """Writes each task's batches to one Parquet file in a staging directory; the job
    commit moves the files into place, an abort deletes them.

    Options: ``shredding`` (a DDL, a JSON object {column: DDL}, "none", or "infer" /
    "per-file": each task infers from its first ``infer_rows`` rows, because Spark
    shows a data source writer no data before its tasks start; ``vs.spark.write``
    and ``varshred shred`` run a sample pass first and pass one DDL for the job),
    ``json_columns``, ``errors`` ("raise" | "null"), ``duplicate_keys`` ("error" |
    "last", for the JSON columns: the data source cannot see the session's
    ``spark.sql.variant.allowDuplicateKeys``; ``vs.spark.write`` passes it),
    ``compression``, ``report_to``
    (a driver-side file the job commit writes a JSON summary to: files, rows, bytes,
    nulled rows and per-path statistics of everything written).
    """

    def __init__(self, options: dict, overwrite: bool, schema: pa.Schema | None = None):
        # The rows' Arrow schema, for the one file of an output without rows.
        self.schema = schema
        self.path: str = options.get("path") or ""
        if not self.path:
            raise vs.VariantError("the varshred data source needs a path: .save(path)")
        self.path = _absolute(self.path)  # on the driver, for the executors
        self.overwrite = overwrite
        self.shredding = options.get("shredding", "infer")
        self.json_columns = [c.strip() for c in options.get("json_columns", "").split(",")
                             if c.strip()]
        self.compression = options.get("compression", "zstd")
        _spark_compression(self.compression)  # on the driver, before any task runs
        self.errors = options.get("errors", "raise")
        if self.errors not in ("raise", "null"):
            raise vs.VariantError(f'option errors: "raise" or "null", got {self.errors!r}')
        self.duplicate_keys = options.get("duplicate_keys", "error")
        if self.duplicate_keys not in ("error", "last"):
            raise vs.VariantError('option duplicate_keys: "error" or "last", got '
                                  f"{self.duplicate_keys!r}")
        self.sample_rows = int(options.get("infer_rows", "100000"))
        self.report_to = options.get("report_to")
        self.collect_stats = options.get("collect_stats", "false").lower() == "true"
        _explicit_shredding(self.shredding)  # on the driver, before any task runs
        self.job = options.get("job_id") or uuid.uuid4().hex
        self.staging = _fs.join(self.path, f"_varshred_staging_{self.job}")

    def _prepare(self, batch: pa.RecordBatch, nulled: dict, rows: int) -> pa.RecordBatch:
        """``batch`` as written: JSON columns parsed (``rows`` of the partition came
        before it, for errors), other nested columns' null children cleaned."""
        for i, f in enumerate(batch.schema):
            if (pa.types.is_nested(f.type) and not vs.parquet.is_variant_type(f.type)
                    and f.name not in self.json_columns):
                batch = batch.set_column(i, f, _valid_children(batch.column(i)))
        for name in self.json_columns:
            text = batch.column(name)
            try:
                v = vs.from_json(text, errors=self.errors, duplicate_keys=self.duplicate_keys)
            except vs.VariantError as e:
                raise _JsonColumnError(_in_partition(e, rows, f"column {name!r}, "),
                                       name, str(e)) from None
            if self.errors == "null":
                nulled[name] = nulled.get(name, 0) + v.null_count - text.null_count
            batch = _put_column(batch, name, v)
        return batch

    def _shredding(self, batches: list[pa.RecordBatch]) -> dict:
        names = ([f.name for f in batches[0].schema if vs.parquet.is_variant_type(f.type)]
                 if batches else [])
        if self.shredding == "none":
            return {n: "none" for n in names}
        if self.shredding in ("infer", "per-file"):
            stats = {n: vs.ShreddingStats() for n in names}
            for n, s in stats.items():
                for b in batches:
                    s.add(b.column(n))
            return {n: s.to_ddl() for n, s in inferred_schemas(stats).items()}
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
        _fs.makedirs(self.staging)
        target = _fs.join(self.staging, f"part-{task}-{uuid.uuid4().hex[:8]}.parquet")
        nulled: dict = {}
        def prepared() -> Iterator[pa.RecordBatch]:
            seen = 0  # rows of the partition before the batch, for errors
            for b in iterator:
                yield self._prepare(b, nulled, seen)
                seen += b.num_rows

        batches = prepared()
        # Buffer a sample first: the shredding schema is needed before the first write.
        buffered, rows = [], 0
        for batch in batches:
            buffered.append(batch)
            rows += batch.num_rows
            if rows >= self.sample_rows:
                break
        if not buffered:
            return _Written([], 0, self.staging)
        shredding = self._shredding(buffered)
        # Values Spark cannot read are counted in every Variant column but the JSON ones
        # (JSON holds none); collect_stats keeps the whole statistics.
        stats = {f.name: vs.ShreddingStats() for f in buffered[0].schema
                 if vs.parquet.is_variant_type(f.type) and
                 (self.collect_stats or f.name not in self.json_columns)}
        # Without collect_stats a column's statistics start at the first batch holding
        # a type Spark cannot read: the writer learns the types while validating, and
        # earlier batches add nothing to those counts.
        counting = set(stats) if self.collect_stats else set()
        # The JSON columns' Variant bytes were built just now by from_json: the writer
        # need not validate them again (about a quarter of its time).
        writer = vs.parquet.ParquetWriter(target, buffered[0].schema, shredding=shredding,
                                          compression=self.compression,
                                          trusted_columns=self.json_columns)
        written = 0
        try:
            for batch in itertools.chain(buffered, batches):
                writer.write_batch(batch)
                written += batch.num_rows
                for name, s in stats.items():
                    if name in counting or not (writer.types_written(name) or set()) \
                            .isdisjoint(SPARK_UNREADABLE_TYPES):
                        counting.add(name)
                        s.add(batch.column(name))
            writer.close()
        except BaseException:
            writer.abort()
            raise
        return _Written([target], written, self.staging,
                        _fs.size(target), nulled,
                        {n: bytes(s) for n, s in stats.items()} if self.collect_stats else {},
                        {n: str(d) for n, d in shredding.items()},
                        {n: spark_unreadable(s) for n, s in stats.items()})

    def commit(self, messages: list[WriterCommitMessage | None]) -> None:
        written = [m for m in messages if isinstance(m, _Written)]  # None: a failed task
        if (not any(m.files for m in written) and self.schema is not None
                and (self.overwrite or not _part_files(self.path))):
            written.append(self._write_empty())  # no task saw a row
        files = publish([f for m in written for f in m.files], self.path, self.overwrite,
                        [{"rows": m.rows, "shredding": m.schemas} for m in written
                         for _ in m.files])
        _fs.remove_tree(self.staging)
        if self.report_to:
            _write_report(self.report_to, files, written)

    def abort(self, messages: list[WriterCommitMessage | None]) -> None:
        _fs.remove_tree(self.staging)

    def _write_empty(self) -> _Written:
        assert self.schema is not None
        schema = pa.schema([
            pa.field(f.name, vs.variant_type()) if vs.parquet.is_variant_type(f.type)
            or f.name in self.json_columns else f for f in self.schema])
        _fs.makedirs(self.staging)
        target = vs.parquet._write_empty_part(self.staging, schema, self.compression)
        variants = [f.name for f in schema if vs.parquet.is_variant_type(f.type)]
        return _Written([target], 0, self.staging, _fs.size(target),
                        schemas={n: "none" for n in variants})


SUCCESS = "_SUCCESS"


def publish(staged: Sequence[str], path: str, overwrite: bool,
            manifest: Sequence[dict] = ()) -> list[str]:
    """The job commit: moves the tasks' staged files into ``path`` (after removing the
    visible files already there when ``overwrite``); returns the final names. Local
    paths and URIs alike: a rename where the store has one, else a server-side copy
    that makes each file appear whole (docs/storage.md#commit).

    The marker ``_SUCCESS`` goes first and comes back last: it holds the manifest of
    the complete output (``{"writer", "files": [{"name", "rows", "shredding"}]}``; the
    files of earlier appends kept), so a directory without it is incomplete or not
    varshred's. ``manifest`` describes the staged files, in their order."""
    import json

    marker = _fs.join(path, SUCCESS)
    previous = [] if overwrite else read_manifest(path)
    if previous is None:  # appending to files of another writer: names, rows unknown
        previous = [{"name": _fs.without_query(f).rsplit("/", 1)[-1]}
                    for f in (_part_files(path) if _fs.exists(path) else [])]
    if _fs.exists(marker):
        _fs.remove(marker)
    if overwrite:  # every visible file, as Spark's overwrite replaces the directory
        for f in _fs.list_files(path) if _fs.exists(path) else []:
            _fs.remove(f)
    _fs.makedirs(path)
    files = []
    for f in staged:
        final = _fs.join(path, _fs.without_query(f).rsplit("/", 1)[-1])
        _fs.move(f, final)
        files.append(final)
    entries = previous + [{"name": _fs.without_query(final).rsplit("/", 1)[-1], **m}
                          for final, m in zip(files, manifest)]
    fs, inner = _fs.resolve(marker)
    with fs.open_output_stream(inner) as out:  # one PUT on object stores: whole or absent
        out.write(json.dumps({"writer": f"varshred {vs.__version__}",
                              "files": entries}).encode())
    return files


def read_manifest(path: str) -> list[dict] | None:
    """The files listed by the ``_SUCCESS`` manifest of a varshred output directory, or
    None when there is no marker (an incomplete output, or another writer's) or it is
    not varshred's."""
    import json

    marker = _fs.join(path, SUCCESS)
    try:
        fs, inner = _fs.resolve(marker)
        with fs.open_input_stream(inner) as f:
            data = json.loads(f.read().decode() or "null")
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        return None
    return data["files"]


def _write_report(target: str, files: list, messages: list) -> None:
    """The job summary ``report_to`` asks for: files, rows, bytes, nulled rows, the
    schemas used, merged per-path statistics (base64 of ``bytes(ShreddingStats)``) and
    the counts of values Spark cannot read."""
    import base64
    import json

    stats: dict = {}
    nulled: dict = {}
    schemas: dict = {}
    unreadable: dict = {}
    for m in messages:
        _add_counts(unreadable, m.unreadable)
        for name, data in m.stats.items():
            s = vs.ShreddingStats.from_bytes(data)
            stats[name] = stats[name].merge(s) if name in stats else s
        for name, n in m.nulled.items():
            nulled[name] = nulled.get(name, 0) + n
        for name, ddl in m.schemas.items():
            schemas.setdefault(name, set()).add(ddl)
    report = {
        "files": files,
        "rows": sum(m.rows for m in messages),
        "bytes": sum(m.bytes for m in messages),
        "nulled": nulled,
        "schemas": {n: sorted(d) for n, d in schemas.items()},
        "stats": {n: base64.b64encode(bytes(s)).decode() for n, s in stats.items()},
        "unreadable": {n: c for n, c in unreadable.items() if c},
    }
    tmp = target + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(report, f)
    os.replace(tmp, target)


def _parse_paths(spec: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for item in split_top_level(spec):
        item = item.strip()
        if not item:
            continue
        *path_parts, type_name = split_top_level(item, ":")
        if not path_parts:
            raise vs.VariantError(f"option paths: expected path:type, got {item!r}")
        path = ":".join(path_parts)
        if any(p == path.strip() for p, _ in out):
            raise vs.VariantError(f"option paths: {path.strip()!r} is named more than once")
        out.append((path.strip(), type_name.strip()))
    return out


@dataclass(frozen=True)
class _Pushed:
    """A filter the path reader prunes by: ``variant_get(column, path, type) <op>
    literal`` for any of ``literals`` (several for ``IN``)."""

    path: str
    spark_type: Any
    op: str
    literals: tuple


# pyspark filter class name -> prunable_row_groups' op ("in": == for any literal)
_FILTER_OPS = {"EqualTo": "==", "EqualNullSafe": "==", "GreaterThan": ">",
               "GreaterThanOrEqual": ">=", "LessThan": "<", "LessThanOrEqual": "<=",
               "In": "in"}


def _keeps_order(spark_type: Any, leaf: Any) -> bool:
    """Whether reading a typed leaf (a pyarrow ``ColumnSchema``) as ``spark_type`` keeps
    every value (or makes it NULL on overflow): then the leaf's min/max bound the values
    the reader returns, and a comparison with them is sound. A lossy cast (double or
    decimal to bigint truncates, bigint to double rounds) or a reinterpretation (a
    string leaf read as a number) is never used to prune."""
    from pyspark.sql import types as T

    kind = leaf.logical_type.type
    integral = leaf.physical_type in ("INT32", "INT64") and kind in ("NONE", "INT")
    if isinstance(spark_type, T.IntegralType):
        return integral
    if isinstance(spark_type, T.DecimalType):
        return integral or (kind == "DECIMAL" and leaf.scale <= spark_type.scale)
    if isinstance(spark_type, T.DoubleType):
        return leaf.physical_type in ("DOUBLE", "FLOAT")
    if isinstance(spark_type, T.FloatType):
        return leaf.physical_type == "FLOAT"
    if isinstance(spark_type, T.StringType):
        return kind == "STRING"
    if isinstance(spark_type, T.DateType):
        return kind == "DATE"
    if isinstance(spark_type, T.BooleanType):
        return leaf.physical_type == "BOOLEAN"
    return False  # timestamps (zone and unit rules), binary, nested types: never pruned


@dataclass
class _RowGroups(InputPartition):
    """One Spark partition of the path reader: consecutive row groups of one file."""

    path: str
    row_groups: list


class _PathReader(DataSourceReader):
    """Reads ``paths`` from every Parquet file under ``path``, one partition per range of
    row groups (about ``max_partition_bytes`` of compressed column chunks, default
    128 MB as Spark's ``spark.sql.files.maxPartitionBytes``). With ``prune`` "true",
    filters on the path columns (``=``, ``<``, ``<=``, ``>``, ``>=``, ``IN``) skip the
    files and row groups that ``vs.parquet.prunable_row_groups`` proves hold no matching
    row; Spark still filters the rows read. ``timezone`` (default UTC) is the session
    zone of the casts between timestamps, dates and strings: a data source reader is
    given no session, so Spark's ``spark.sql.session.timeZone`` cannot be read here."""

    def __init__(self, options: dict, paths: list[tuple[str, str]], schema: Any = None):
        self.path = _absolute(options.get("path") or "")
        if not _fs.exists(self.path):  # a mistyped path is not an empty table
            raise vs.VariantError(f"{self.path}: no such file or directory")
        self.column = options.get("column")
        self.paths = paths
        self.timezone = options.get("timezone", "UTC")
        try:  # a bad name fails the query's planning, not each task
            vs.variant_get(vs.from_json(pa.array([], pa.string())), "$", "timestamp",
                           timezone=self.timezone)
        except (NotImplementedError, ValueError) as e:
            raise vs.VariantError(f"option timezone: {e}") from None
        self.max_bytes = int(options.get("max_partition_bytes", 128 << 20))
        # Opt-in: Spark 4.3 keeps the read planned under one query's filters on the
        # loaded DataFrame and reuses it for a later query of that DataFrame that has no
        # filters, which would then miss the pruned row groups (docs/cluster.md#pushdown).
        prune = options.get("prune", "false").lower()
        if prune not in ("true", "false"):
            raise vs.VariantError(f'option prune: "true" or "false", got {prune!r}')
        self.prune = prune == "true"
        self.types = {f.name: f.dataType for f in schema.fields} if schema else {}
        # Each path is read as the Arrow type Spark expects for its column (Variant in
        # Spark's layout, maps, which varshred's DDL names lack), not from its DDL.
        from pyspark.sql.pandas.types import to_arrow_type

        self.arrow_types = {name: to_arrow_type(t, timezone="UTC")
                            for name, t in self.types.items()}
        self.pushed: list[_Pushed] = []

    def pushFilters(self, filters):
        names = {p for p, _ in self.paths} if self.prune else set()
        for f in filters:
            op = _FILTER_OPS.get(type(f).__name__)
            # A single-name column (the path's own column); a.b would be a struct field.
            if op and len(f.attribute) == 1 and f.attribute[0] in names \
                    and f.value is not None and f.attribute[0] in self.types:
                literals = tuple(f.value) if op == "in" else (f.value,)
                if all(v is not None for v in literals):
                    self.pushed.append(_Pushed(f.attribute[0], self.types[f.attribute[0]],
                                               "==" if op == "in" else op, literals))
            yield f  # pruning skips row groups only: Spark still filters every row

    def _kept_row_groups(self, path: str) -> list[int]:
        from varshred import parquet as vpq

        md = vpq._parquet_file(path).metadata
        groups = set(range(md.num_row_groups))
        if not self.pushed or not groups:
            return sorted(groups)
        column = self.column or _variant_column(path)
        if any(c.name == column and c.layout == "legacy" for c in vpq.inspect(path)):
            return sorted(groups)  # the legacy layout's leaves do not map onto paths
        for p in self.pushed:
            segments = vpq._segments(p.path)
            if any(isinstance(s, int) for s in segments):
                continue
            leaf = vpq._path_columns(path, column, segments).typed_leaf
            if leaf is None or not _keeps_order(p.spark_type, md.schema.column(leaf)):
                continue
            skip = set.intersection(*(set(vpq.prunable_row_groups(path, column, p.path,
                                                                  p.op, v))
                                      for v in p.literals))
            groups -= skip
        return sorted(groups)

    def partitions(self):
        out = []
        # Every visible file, as spark.read.parquet and vs.parquet read a directory (the
        # writer's own parts end in .parquet; other writers' need not).
        for path in _fs.list_files(self.path):
            md = None
            run: list[int] = []
            size = 0
            for g in self._kept_row_groups(path):
                md = md or vs.parquet._parquet_file(path).metadata
                rg = md.row_group(g)
                nbytes = sum(rg.column(i).total_compressed_size for i in range(rg.num_columns))
                if run and (g != run[-1] + 1 or size + nbytes > self.max_bytes):
                    out.append(_RowGroups(path, run))
                    run, size = [], 0
                run.append(g)
                size += nbytes
            if run:
                out.append(_RowGroups(path, run))
        # Spark reads an empty list as "one partition of the default kind": say "none".
        return out or [_RowGroups("", [])]

    def read(self, partition):
        from varshred import parquet as vpq

        if not partition.row_groups:
            return
        column = self.column or _variant_column(partition.path)
        types = {p: self.arrow_types.get(p, t) for p, t in self.paths}
        table = vpq.read_paths(partition.path, column, types, row_groups=partition.row_groups,
                               timezone=self.timezone)
        for batch in table.to_batches():
            yield for_spark(batch)


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
            quoted = path.replace("`", "``")  # DDL's escape of a backtick in a name
            fields.append(f"`{quoted}` {type_name}")
        return ", ".join(fields)

    def reader(self, schema):
        return _PathReader(self.options, _parse_paths(self._paths_option()), schema)

    def writer(self, schema, overwrite: bool):
        from pyspark.sql.pandas.types import to_arrow_schema

        try:
            arrow_schema = to_arrow_schema(schema)
        except Exception:  # noqa: BLE001 (a type pyspark does not map: no empty file)
            arrow_schema = None
        return _ArrowWriter(dict(self.options), overwrite, arrow_schema)
