# Licensed under the Apache License, Version 2.0.
"""A DataFrame that is a Parquet table as stored: ``spark.read.parquet(path)`` on local
files with, at most, columns selected, renamed or reordered
(docs/cluster.md#stored-tables).

For such a DataFrame, :func:`varshred.spark.sample_stats` samples the files on the
driver and :func:`varshred.spark.write` has each task read its own row groups with
varshred's reader, instead of Spark decoding every value and handing it to Python
through Arrow: the rows are the files' rows, so the values are the same (numbers rebuilt
from shredded files keep their typed column's width, where Spark narrows them). Every other
DataFrame (filtered, computed, joined, partitioned, on an object store, on Spark
Connect, or with a column Spark would type differently from the files) goes through
Spark as before.
"""

from __future__ import annotations

import json
import math
import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

import pyarrow as pa

import varshred as vs
from varshred import _kernels, _parquet, _status
from varshred import dataset as _dataset

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

_CONFLICT = _kernels.ON_CONFLICT["error"]
DATETIME_REBASE_MODE = "spark.sql.parquet.datetimeRebaseModeInRead"
INFER_TIMESTAMP_NTZ = "spark.sql.parquet.inferTimestampNTZ.enabled"
# Rows per batch read for the sample: each batch gives its first rows, so the sample
# is spread over every row group read at this grain.
_SAMPLE_BATCH = 4096
# The sample reads about this many times the rows it keeps, at least this many rows of
# each row group it reads (or an average group's rows, if fewer): fewer groups when the
# read would be smaller.
_SAMPLE_READ_FACTOR = 4
_SAMPLE_GROUP_ROWS = 512


@dataclass(frozen=True)
class StoredTable:
    """The files of a stored table and the schema of its batches."""

    paths: list[str]
    row_groups: list[tuple[int, int, int, int]]  # (file, row group, rows, bytes)
    schema: pa.Schema  # Spark's Arrow types (file_table: varshred's), Variant as read
    file_schemas: list[pa.Schema]  # each file's, as varshred reads it
    # The file column each field of ``schema`` is read from, when a projection renamed
    # columns; empty: the fields' own names.
    sources: tuple[str, ...] = ()
    # Whether a file naming no Spark version holds dates or timestamps: Spark reads
    # those as stored only under spark.sql.parquet.datetimeRebaseModeInRead CORRECTED
    # (its default); under LEGACY it rebases them, under EXCEPTION it may refuse them.
    rebased_by_session: bool = False

    def read_as_stored(self, setting: Callable[[str, str], str]) -> bool:
        """Whether Spark, under the session's SQL settings (``setting(key, default)``,
        asked only when it matters), reads every date and timestamp as stored."""
        return (not self.rebased_by_session
                or setting(DATETIME_REBASE_MODE, "CORRECTED").upper() == "CORRECTED")

    @property
    def variant_columns(self) -> list[str]:
        return [f.name for f in self.schema if _parquet.is_variant_type(f.type)]

    def source(self, name: str) -> str:
        """The file column read for the field ``name`` of ``schema``."""
        return self.sources[self.schema.get_field_index(name)] if self.sources else name


def file_table(files: Sequence[str]) -> StoredTable | None:
    """Unpartitioned Parquet files as varshred reads them (one schema over all), or None
    when it cannot: the driver can sample them before Spark is up. Dates and
    timestamps are read as Spark reads them (:func:`_datetime_rules`)."""
    try:
        ds = _dataset.Dataset(list(files))
        if len(ds.partition_schema):
            return None
        infos = ds.infos(False, _CONFLICT, _dataset.default_threads(None))
        rebased_by_session = False
        for i, path in enumerate(ds.paths):
            rules = _datetime_rules(path)
            if rules is None:
                return None
            int96, by_session = rules
            rebased_by_session |= by_session
            if int96:
                infos[i] = replace(infos[i], schema=_as_instants(infos[i].schema, int96))
        schema = ds.schema(infos)
    except Exception:  # a file varshred cannot read: Spark reads it, or says why
        return None
    groups = [(i, g, rows, info.row_group_bytes[g]) for i, info in enumerate(infos)
              for g, rows in enumerate(info.row_group_rows)]
    return StoredTable(ds.paths, groups, schema, [info.schema for info in infos],
                       rebased_by_session=rebased_by_session)


def _datetime_rules(path: str) -> tuple[set[str], bool] | None:
    """How Spark reads the dates and timestamps of ``path``, told by its footer:
    the top-level columns stored as INT96 timestamps (Spark's default for TIMESTAMP),
    which the tasks read as Spark does, microseconds since the epoch in UTC (the
    reader's ``int96_as_micros``); and whether its DATE and TIMESTAMP columns are read
    as stored only under the session's rebase mode (a file naming no Spark version).
    None when Spark may read them otherwise than as stored: dates and timestamps of a
    file written by Spark before 3.0 or marked legacyDateTime (Spark rebases those
    before 1582 from the Julian calendar); INT96 nested in another column, or in a
    file that Spark 3.1 or later did not write or marked legacyINT96 (Spark rebases
    such values before 1900, or refuses them)."""
    pf = vs.parquet._parquet_file(path)
    columns = [pf.schema.column(i) for i in range(len(pf.schema))]
    int96 = {c.path for c in columns if c.physical_type == "INT96"}
    dated = any(c.logical_type.type in ("DATE", "TIMESTAMP")
                or c.converted_type in ("DATE", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS")
                for c in columns)
    meta = pf.metadata.metadata or {}
    version = _dataset.spark_version(meta)
    if dated and _dataset.julian_calendar(meta):
        return None
    if int96 and (version is None or version < (3, 1)
                  or b"org.apache.spark.legacyINT96" in meta
                  or any("." in n for n in int96)):
        return None
    return int96, dated and version is None


def _as_instants(schema: pa.Schema, names: set[str]) -> pa.Schema:
    """``schema`` with the columns ``names`` (INT96) typed as the UTC instants in
    microseconds the tasks read them as."""
    for name in names:
        i = schema.get_field_index(name)
        schema = schema.set(i, schema.field(i).with_type(pa.timestamp("us", tz="UTC")))
    return schema


def stored_table(df: "DataFrame") -> StoredTable | None:
    """``df``'s files when it is a Parquet table as stored, or columns of one, which
    varshred reads with the Arrow types Spark gives them; else None."""
    relation = _relation(df)
    table = file_table(relation.files) if relation else None
    if table is None or not table.read_as_stored(df.sparkSession.conf.get):
        return None
    schema = _batch_schema(df, relation, table.file_schemas)
    if schema is None:
        return None
    sources = tuple(relation.sources[f.name] for f in schema)
    return replace(table, schema=schema,
                   sources=() if sources == tuple(schema.names) else sources)


# Types Spark reads from Parquet as varshred does, whatever the session's settings
# (binary is not one: Spark reads ENUM-annotated bytes, and all bytes under
# spark.sql.parquet.binaryAsString, as strings).
_SAME_IN_SPARK = (pa.types.is_signed_integer, pa.types.is_floating, pa.types.is_boolean,
                  pa.types.is_string, pa.types.is_decimal128, pa.types.is_date32)


def _spark_type(read: pa.DataType, zone: str, ntz: bool = True) -> pa.DataType | None:
    """The Arrow type Spark hands over for a column varshred reads as ``read`` (not a
    Variant), or None when that depends on more than the type. ``ntz``: the session's
    spark.sql.parquet.inferTimestampNTZ.enabled (else local timestamps are Spark's
    to read: it types them TIMESTAMP)."""
    if read == pa.timestamp("us", tz="UTC"):  # UTC-adjusted: Spark labels the zone
        return pa.timestamp("us", tz=zone)
    if read == pa.timestamp("us"):  # local: TIMESTAMP_NTZ
        return read if ntz else None
    return read if any(same(read) for same in _SAME_IN_SPARK) else None


def likely_stored(table: StoredTable) -> bool:
    """Whether Spark will most likely read these files as a table as stored (every
    column Variant or of a type it reads as varshred does; binary too, unless the
    session reads it as strings): its driver then only schedules, and may start lean.
    A guess made before Spark is up."""
    return all(_parquet.is_variant_type(f.type) or pa.types.is_binary(f.type)
               or _spark_type(f.type, "UTC") is not None for f in table.schema)


def as_spark_reads(table: StoredTable, zone: str,
                   setting: Callable[[str, str], str] = lambda key, default: default
                   ) -> StoredTable | None:
    """``table`` with the schema Spark's ``read.parquet`` of its files would give under
    the session time zone ``zone`` and SQL settings (``setting(key, default)``), told
    from the files alone (no DataFrame: the pipeline's Parquet input), or None when it
    cannot be told. It can when every file holds the same columns, each a Variant
    column annotated VARIANT (Spark reads an unannotated pair as a struct) or of a type
    _spark_type() maps, no two names are equal but for case (Spark refuses those), and
    the session reads dates and timestamps as stored."""
    if not table.read_as_stored(setting):
        return None
    ntz = setting(INFER_TIMESTAMP_NTZ, "true").lower() == "true"
    names = table.schema.names
    if len({n.lower() for n in names}) != len(names):
        return None
    fields = []
    for f in table.schema:
        if _parquet.is_variant_type(f.type):
            fields.append(pa.field(f.name, f.type))
        elif (t := _spark_type(f.type, zone, ntz)) is not None:
            fields.append(pa.field(f.name, t))
        else:
            return None
    for path, schema in zip(table.paths, table.file_schemas):
        if not schema.equals(table.schema):
            return None
        try:
            columns = {c.name: c for c in vs.parquet.inspect(path)}
        except Exception:  # noqa: BLE001 (a file varshred cannot inspect: Spark decides)
            return None
        if any(not columns[v].annotated or columns[v].layout not in ("unshredded", "shredded")
               for v in table.variant_columns):
            return None
    return replace(table, schema=pa.schema(fields))


@dataclass(frozen=True)
class _Relation:
    files: list[str]
    columns: int  # the relation's
    sources: dict[str, str]  # by column of the DataFrame, the relation's column it is


def _relation(df: "DataFrame") -> _Relation | None:
    """The files of ``df`` when its plan is one unpartitioned, unbucketed Parquet
    relation on local files, each listed once by its file index (Spark reads a file
    listed twice twice), under nothing but aliases, views and projections that select,
    rename or reorder its columns, each at most once (told by expression ids: a column
    computed anywhere has a new one)."""
    jdf = getattr(df, "_jdf", None)  # Spark Connect has no JVM plan here
    if jdf is None:
        return None
    try:
        top = plan = jdf.queryExecution().analyzed()
        projected = False
        while (kind := plan.getClass().getSimpleName()) in ("Project", "SubqueryAlias",
                                                              "View"):
            projected |= kind == "Project"
            plan = plan.child()
        if kind != "LogicalRelation":
            return None
        relation = plan.relation()
        if (relation.getClass().getSimpleName() != "HadoopFsRelation"
                or relation.fileFormat().toString() != "Parquet"
                or not relation.partitionSchema().isEmpty()
                or relation.bucketSpec().isDefined()):
            return None
        if projected:
            projection = _projected_columns(json.loads(top.toJSON()))
            if projection is None:
                return None
            columns, output = projection
        else:  # aliases and views show the relation's columns as they are
            output = [(name, name) for name in df.columns]
            columns = len(output)
        # Each file as often as Spark reads it (read.parquet(p, p): twice).
        listed = list(relation.location().inputFiles())
    except Exception:  # py4j: a plan of another shape
        return None
    files = sorted(set(listed))
    if len(files) != len(listed):
        return None
    sources = dict(output)
    if len(sources) != len(output) or len(set(sources.values())) != len(output):
        return None
    if not files or not all(f.startswith("file:") for f in files):
        return None
    return _Relation(files, columns, sources)


def _projected_columns(nodes: list[dict]) -> tuple[int, list[tuple[str, str]]] | None:
    """From the JSON of a plan of unary nodes over a relation (Spark's
    ``TreeNode.toJSON``: nodes and each expression's nodes in pre-order), the
    relation's number of columns and, for each output column, its name and the
    relation's column it is; None when a projection computes one. Columns are followed
    by their expression ids, from the relation up, in one call to the JVM."""
    def expression_id(node: dict) -> int:
        return node["exprId"]["id"]

    relation = nodes[-1]
    columns = [attribute for attribute, in relation["output"]]
    sources = {expression_id(a): a["name"] for a in columns}
    output: list[tuple[str, str]] = []  # the last projection's (there is one at least)
    for node in reversed(nodes[:-1]):
        if not node["class"].endswith(".Project"):
            continue
        projected, output = {}, []
        for expression in node["projectList"]:
            named, *rest = expression
            column = rest[0] if named["class"].endswith(".Alias") and len(rest) == 1 else named
            if (not column["class"].endswith(".AttributeReference") or len(rest) > 1
                    or expression_id(column) not in sources):
                return None
            source = sources[expression_id(column)]
            projected[expression_id(named)] = source
            output.append((named["name"], source))
        sources = projected
    return len(columns), output


def _batch_schema(df: "DataFrame", relation: _Relation,
                  file_schemas: list[pa.Schema]) -> pa.Schema | None:
    """The schema Spark would hand the writer, when every file holds the relation's
    columns and no other, and varshred reads each column of ``df`` with the same Arrow
    type (Variant columns: as Variant)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    try:
        zone = df.sparkSession.conf.get("spark.sql.session.timeZone")
        spark_schema = to_arrow_schema(df.schema, timezone=zone)
    except Exception:  # a type Arrow cannot carry
        return None
    fields = []
    for f in spark_schema:
        source = relation.sources.get(f.name)
        read = [s.field(source) if source in s.names else None for s in file_schemas]
        if any(r is None for r in read):
            return None
        if _parquet.is_variant_type(f.type):
            if not all(_parquet.is_variant_type(r.type) for r in read):
                return None
            fields.append(read[0].with_name(f.name).with_nullable(True))
        elif all(r.type == f.type or _same_instants(r.type, f.type) for r in read):
            fields.append(f)
        else:
            return None
    if any(len(s) != relation.columns for s in file_schemas):
        return None
    return pa.schema(fields)


def _same_instants(read: pa.DataType, spark: pa.DataType) -> bool:
    """Parquet's UTC-adjusted microsecond timestamps (and Spark's INT96 ones, see
    _int96_columns), which Spark labels with the session time zone: the same values
    (other units are Spark's to read)."""
    return (read == pa.timestamp("us", tz="UTC") and pa.types.is_timestamp(spark)
            and spark.unit == "us" and spark.tz is not None)


def sample_stats(table: StoredTable, variants: Sequence[str], json_columns: Sequence[str],
                 sample_rows: int, sample_bytes: int) -> dict[str, "vs.ShreddingStats"]:
    """As :func:`varshred.spark.sample_stats`, read on the driver: about
    ``sample_rows`` rows and ``sample_bytes`` bytes out of a read of about
    ``_SAMPLE_READ_FACTOR`` times as many rows, shared equally by row groups spread evenly
    over the files (all of them unless that leaves fewer than ``_SAMPLE_GROUP_ROWS`` rows,
    or an average group's, to each): the first rows of each, of which every batch gives
    its share. The groups are cut into consecutive runs, one per core, read at the
    same time."""
    stats = {c: vs.ShreddingStats() for c in (*variants, *json_columns)}
    total_rows = sum(rows for _, _, rows, _ in table.row_groups)
    total_bytes = sum(size for _, _, _, size in table.row_groups)
    if total_rows == 0 or not stats:
        return stats
    fraction = 1.0
    if sample_rows > 0:
        fraction = min(fraction, sample_rows / total_rows)
    if sample_bytes > 0 and total_bytes > 0:
        fraction = min(fraction, sample_bytes / total_bytes)
    wanted = fraction * total_rows
    budget = min(total_rows, math.ceil(_SAMPLE_READ_FACTOR * wanted))
    groups = table.row_groups
    grain = max(1, min(_SAMPLE_GROUP_ROWS, total_rows // len(groups)))
    k = min(len(groups), max(1, budget // grain))
    if k < len(groups):
        groups = [groups[i * len(groups) // k] for i in range(k)]
    per_group = math.ceil(budget / k)
    keep = min(1.0, wanted / max(1, sum(min(rows, per_group) for _, _, rows, _ in groups)))
    batch_rows = min(_SAMPLE_BATCH, per_group)

    def sample(part: Sequence[tuple]) -> dict[str, "vs.ShreddingStats"]:
        part_stats = {c: vs.ShreddingStats() for c in stats}
        for group in part:
            read = 0
            # Only the rows kept are validated (by the statistics): a read of unchecked
            # values, a quarter of them kept.
            with _named_on_failure(table, [group], list(stats), batch_rows):
                for batch in _read(table, [group], list(stats), batch_rows,
                                   check_values=False):
                    rows = batch.slice(0, math.ceil(batch.num_rows * keep))
                    for name in variants:
                        part_stats[name].add(rows.column(name))
                    for name in json_columns:
                        part_stats[name].add(vs.from_json(rows.column(name), errors="null"))
                    read += batch.num_rows
                    if read >= per_group:
                        break
        return part_stats

    # Runs of groups are read side by side (reading and adding release the GIL): the
    # driver has the machine to itself while it samples. Merged in file order.
    threads = max(1, min(len(groups), os.cpu_count() or 1))
    parts = [groups[i * len(groups) // threads:(i + 1) * len(groups) // threads]
             for i in range(threads)]
    with ThreadPoolExecutor(threads) as pool:
        for part_stats in pool.map(sample, parts):
            for name, s in part_stats.items():
                stats[name].merge(s)
    return stats


def task_groups(table: StoredTable, tasks: int, max_bytes: int) -> list[list[tuple[int, int]]]:
    """The row groups in file order, cut into runs of at most ``max_bytes`` (and at
    most a ``tasks``-th of the table) each: one task, one output file, per run."""
    total = sum(size for _, _, _, size in table.row_groups)
    limit = max(1, min(max_bytes, -(-total // max(1, tasks))))
    runs: list[list[tuple[int, int]]] = []
    size = limit
    for file, group, _, nbytes in table.row_groups:
        if size + nbytes > limit and (not runs or runs[-1]):
            runs.append([])
            size = 0
        runs[-1].append((file, group))
        size += nbytes
    return [r for r in runs if r]


def _read(table: StoredTable, groups: Sequence[tuple], columns: list[str] | None,
          batch_size: int, check_values: bool = True,
          where: list | None = None) -> Iterator[pa.RecordBatch]:
    """Batches of ``groups`` ((file, row group, ...)) in order, in ``table.schema``
    (only ``columns`` when given). Without ``check_values``, the Variant values of
    unshredded columns come back unvalidated: only for a writer that validates them.
    ``where`` is set to [file, row group, the file's row that starts the batch] before
    each."""
    names = columns or table.schema.names
    schema = pa.schema([table.schema.field(n) for n in names])
    sources = [table.source(n) for n in names]
    for file, group, *_ in groups:
        path = table.paths[file]
        try:
            reader = _parquet.reader(path, sources, False, batch_size, _CONFLICT, [group],
                                     None, True, check_values)
            # Rows are named as the file numbers them, as the C++ reader names them.
            first = sum(rows for f, g, rows, _ in table.row_groups if f == file and g < group)
            for batch in reader:
                # UTC instants relabelled with Spark's zone (INT96 ones are unlabelled).
                arrays = [c if c.type == f.type else c.cast(f.type)
                          for c, f in zip(batch.columns, schema)]
                if where is not None:
                    where[:] = [path, group, first]
                first += batch.num_rows
                yield pa.RecordBatch.from_arrays(arrays, schema=schema)
        except pa.ArrowException as e:
            error = _status.from_arrow_error(e)
            raise type(error)(f"{path}, row group {group}: {error}") from None


@contextmanager
def _named_on_failure(table: StoredTable, groups: Sequence[tuple], columns: list[str] | None,
                      batch_size: int) -> Iterator[None]:
    """Around work on batches read without ``check_values``, which validates the values
    itself: should it fail, ``groups`` are read again, checked, so that a bad value is
    reported by its file, row group and row rather than by its row in a batch."""
    try:
        yield
    except Exception:
        for _ in _read(table, groups, columns, batch_size):
            pass
        raise


class WriteRuns:
    """A Python RDD task: writes the row groups of its runs through the varshred data
    source's writer (``varshred.spark._ArrowWriter``), one commit message per run."""

    def __init__(self, table: StoredTable, runs: list[list[tuple[int, int]]], writer: Any):
        self.table, self.runs, self.writer = table, runs, writer

    def __call__(self, ids: Iterator[int]) -> Iterator[Any]:
        from varshred.spark import _JsonColumnError

        for i in ids:
            # The writer validates every Variant value it shreds, so the reader need not
            # (a seventh of a task).
            where: list = []
            try:
                with _named_on_failure(self.table, self.runs[i], None, 65536):
                    message = self.writer.write(_read(self.table, self.runs[i], None, 65536,
                                                      check_values=False, where=where))
            except _JsonColumnError as e:
                if not where:
                    raise
                # A JSON column's bad text: its row in the batch, as the file's.
                path, group, first = where
                raise vs.VariantError(f"{path}, row group {group}, column {e.column!r}, "
                                      f"{_status.shift_rows(e.in_batch, first)}") from None
            yield message


def context(spark: Any) -> Any:
    """The SparkContext of a classic session, or ``spark`` itself when it is one: jobs of
    Python RDD tasks alone need no SparkSession, and the pipeline starts none for JSON
    lines and tables as stored (docs/cluster.md#start-up)."""
    from pyspark import SparkContext

    return spark if isinstance(spark, SparkContext) else spark.sparkContext


def sql_setting(spark: Any, key: str, default: Callable[[], str]) -> str:
    """SQL setting ``key`` of a session, or of a SparkContext the value a session on it
    would start with: the context's setting, else ``default()`` (Spark's default)."""
    from pyspark import SparkContext

    if isinstance(spark, SparkContext):
        return spark.getConf().get(key, None) or default()
    return spark.conf.get(key)


def write(spark: Any, table: StoredTable, writer: Any) -> list[Any]:
    """Runs the tasks of a write of ``table`` by ``writer`` on a session or a SparkContext;
    their commit messages."""
    sc = context(spark)
    max_bytes = sc._jvm.org.apache.spark.network.util.JavaUtils.byteStringAsBytes(
        sql_setting(spark, "spark.sql.files.maxPartitionBytes", lambda: "128MB"))
    runs = task_groups(table, sc.defaultParallelism, max_bytes)
    if not runs:
        return []
    # The tasks need the files, the batches' schema and the row groups' sizes (errors
    # name a row as its file numbers it).
    files = StoredTable(table.paths, table.row_groups, table.schema, [], table.sources)
    return sc.parallelize(range(len(runs)), len(runs)).mapPartitions(
        WriteRuns(files, runs, writer)).collect()
