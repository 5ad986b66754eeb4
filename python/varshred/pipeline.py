# Licensed under the Apache License, Version 2.0.
"""The shred job behind ``varshred shred``: JSON lines or Parquet -> shredded Parquet
on Spark (local mode by default, any master or spark-submit for a cluster).

>>> from varshred.pipeline import ShredJob
>>> summary = ShredJob("events.jsonl", "out/", schema="infer").run()
"""

from __future__ import annotations

import glob
import gzip
import io
import itertools
import os
import re
import shutil
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Callable

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

import varshred as vs
from varshred.shredding import ShreddingSchema

__all__ = ["ShredJob", "spark_session", "find_bad_json_line"]

_SCHEMA_WORDS = ("infer", "per-file", "none")


def spark_session(master: str | None = None, app_name: str = "varshred",
                  quiet: bool = True, conf: dict | None = None):
    """A SparkSession: the one spark-submit started, or local Spark on ``master``
    (default ``local[*]``) with the UI off and, when ``quiet``, the JVM's log off
    (errors reach the user through varshred's own one-line messages). ``conf`` adds
    Spark settings (e.g. ``spark.archives`` for a cluster)."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName(app_name)
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ  # launched by spark-submit
    if master or not submitted:
        master = master or "local[*]"
        builder = builder.master(master)
        if master.startswith("local"):
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
            builder = (builder.config("spark.driver.bindAddress", "127.0.0.1")
                       .config("spark.driver.host", "127.0.0.1"))
    if quiet:
        log4j = os.path.join(os.path.dirname(__file__), "log4j2-quiet.properties")
        builder = builder.config("spark.driver.extraJavaOptions",
                                 f"-Dlog4j2.configurationFile=file:{log4j}")
    for key, value in (conf or {}).items():
        builder = builder.config(key, value)
    spark = (builder.config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    if quiet:
        spark.sparkContext.setLogLevel("OFF")
    return spark


def _local_files(path: str) -> list[str] | None:
    """The data files behind a local path, directory or glob; None for remote URIs."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", path) and not path.startswith("file://"):
        return None
    path = path.removeprefix("file://")
    matches = sorted(glob.glob(path)) if glob.has_magic(path) else [path]
    out = []
    for m in matches:
        if os.path.isdir(m):
            for root, dirs, files in os.walk(m):
                dirs[:] = sorted(d for d in dirs if not d.startswith(("_", ".")))
                out += [os.path.join(root, f) for f in sorted(files)
                        if not f.startswith(("_", "."))]
        elif os.path.exists(m):
            out.append(m)
    return out


def _is_parquet(path: str) -> bool:
    with open(path, "rb") as f:
        return f.read(4) == b"PAR1"


def _open(path: str):
    """A JSON-lines file for binary reading, gunzipped when it ends in .gz."""
    return gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")


def find_bad_json_line(files: list[str], chunk: int = 65536) -> str | None:
    """``file:line: message`` for the first line of JSON-lines ``files`` that
    varshred cannot parse (blank lines are skipped, as the job does), or None."""
    for path in files:
        with io.TextIOWrapper(_open(path), encoding="utf-8", errors="replace") as f:
            lines: list[tuple[int, str]] = []
            for number, line in enumerate(f, 1):
                if line.strip():
                    lines.append((number, line))
                if len(lines) == chunk:
                    found = _first_bad(path, lines)
                    if found:
                        return found
                    lines = []
            found = _first_bad(path, lines)
            if found:
                return found
    return None


def _first_bad(path: str, lines: list[tuple[int, str]]) -> str | None:
    if not lines:
        return None
    parsed = vs.from_json([text for _, text in lines], errors="null")
    for i, valid in enumerate(parsed.is_valid().to_pylist()):
        if not valid:
            try:
                vs.from_json([lines[i][1]])
            except vs.VariantError as e:
                return f"{path}:{lines[i][0]}: {re.sub(r'^row 0: ', '', str(e))}"
    return None


def _plain_text(files: list[str]) -> bool:
    """Whether varshred reads these JSON-lines files itself: plain or gzip (other codecs
    go through Spark's text reader)."""
    return not any(f.endswith((".bz2", ".deflate", ".lz4", ".snappy", ".zst"))
                   for f in files)


def _json_lines(path: str, block: int = 1 << 24):
    """The non-blank lines of a local file, read in large blocks."""
    with _open(path) as f:
        rest = b""
        while data := f.read(block):
            lines = (rest + data).split(b"\n")
            rest = lines.pop()
            yield from (line for line in lines if line.strip())
        if rest.strip():
            yield rest


def _sample_json_lines(files: list[str], rows: int) -> "vs.ShreddingStats":
    """ShreddingStats of the first ``rows / len(files)`` documents of every local file
    (every document when ``rows`` is 0), read on the driver: a sample pass without a
    Spark job. Bad documents are skipped here; the write reports them."""
    stats = vs.ShreddingStats()
    per_file = -(-rows // len(files)) if rows > 0 else None
    for path in files:
        lines = itertools.islice(_json_lines(path), per_file)
        while chunk := list(itertools.islice(lines, 65536)):
            text = pa.array(chunk, pa.binary()).view(pa.string())  # from_json checks UTF-8
            stats.add(vs.from_json(text, errors="null"))
    return stats


# ----------------------------------------------------------------------------
# JSON lines read by the tasks themselves

_MIN_SPLIT = 4 << 20
_MAX_SPLIT = 128 << 20


@dataclass(frozen=True)
class _Split:
    """Bytes [start, end) of a JSON-lines file: the lines that start inside them."""

    path: str
    start: int
    end: int


def _splits(files: list[str], parallelism: int) -> list[_Split]:
    """Splits sized as Spark sizes text splits: total / parallelism, within 4-128 MB;
    a gzip file is one split (it cannot be read from the middle)."""
    sizes = {f: os.path.getsize(f) for f in files}
    size = min(_MAX_SPLIT, max(_MIN_SPLIT, -(-sum(sizes.values()) // max(parallelism, 1))))
    out = []
    for f in files:
        if f.endswith(".gz"):
            out.append(_Split(f, 0, sys.maxsize))
            continue
        out += [_Split(f, s, min(s + size, sizes[f])) for s in range(0, sizes[f], size)]
    return out


def _split_blocks(split: _Split, block: int = 16 << 20):
    """(byte offset, bytes) blocks of whole lines: the lines that start in the split.

    A split that begins mid-line skips to the next line (the previous split reads it
    to its end), as Hadoop's line reader does."""
    with _open(split.path) as f:
        pos = split.start
        if pos > 0:
            f.seek(pos - 1)
            if f.read(1) != b"\n":
                pos += len(f.readline())
        f.seek(pos)
        carry = b""
        while pos < split.end:
            data = f.read(block)
            if not data:  # end of file: a last line without '\n'
                if carry:
                    yield pos, carry
                return
            data = carry + data
            cut = data.rfind(b"\n")
            if cut < 0:  # a line longer than the block: read on
                carry = data
                continue
            whole, carry = data[:cut + 1], data[cut + 1:]
            if pos + len(whole) > split.end:
                # The line holding the split's last byte is ours; later ones are not.
                last = whole.find(b"\n", split.end - pos - 1)
                yield pos, whole[:last + 1]
                return
            yield pos, whole
            pos += len(whole)


def _documents(block: bytes) -> pa.Array:
    """The non-blank lines of a block of whole lines, as a string array (not checked
    for UTF-8 here: the JSON parser does that)."""
    lines = pc.split_pattern(pa.array([block], pa.binary()), b"\n").values
    text = lines.view(pa.string())
    return text.filter(pc.greater(pc.binary_length(pc.ascii_trim_whitespace(text)), 0))


def _line_error(path: str, offset: int, block: bytes, error: str) -> str:
    """``path:line: message`` for the first bad document in a block at ``offset``."""
    row = re.match(r"row (\d+)", error)
    index = int(row.group(1)) if row else 0
    seen = -1
    line_start = 0
    for line_start_candidate, line in _lines_with_offsets(block):
        if line.strip():
            seen += 1
            if seen == index:
                line_start = line_start_candidate
                break
    with _open(path) as f:
        before = 0
        remaining = offset + line_start
        while remaining > 0:
            chunk = f.read(min(remaining, 16 << 20))
            if not chunk:
                break
            before += chunk.count(b"\n")
            remaining -= len(chunk)
    message = re.sub(r"^row \d+: ", "", error)
    return f"{path}:{before + 1}: {message}"


def _lines_with_offsets(block: bytes):
    start = 0
    while start < len(block):
        end = block.find(b"\n", start)
        end = len(block) if end < 0 else end
        yield start, block[start:end]
        start = end + 1


@dataclass(frozen=True)
class _JsonLinesTask:
    """mapInArrow function run once per split id: reads its split of a JSON-lines file,
    parses it with varshred and writes one shredded Parquet file into ``staging``,
    with no JVM in between. Yields (file, rows, bytes, nulled, ddl)."""

    splits: tuple
    column: str
    shredding: str            # a DDL, "none" or "per-file"
    errors: str
    compression: str
    staging: str

    def __call__(self, batches):
        from pyspark import TaskContext

        ctx = TaskContext.get()
        attempt = f"{ctx.attemptNumber()}" if ctx else "0"
        for batch in batches:
            for split_id in batch.column(0).to_pylist():
                yield self._write(self.splits[split_id], split_id, attempt)

    def _write(self, split: _Split, split_id: int, attempt: str) -> pa.RecordBatch:
        target = os.path.join(self.staging,
                              f"part-{split_id:05d}-{attempt}-{uuid.uuid4().hex[:8]}.parquet")
        schema = pa.schema([(self.column, vs.variant_type())])
        writer = None
        rows = nulled = 0
        ddl = self.shredding
        try:
            for offset, block in _split_blocks(split):
                docs = _documents(block)
                try:
                    variants = vs.from_json(docs, errors=self.errors)
                except vs.VariantError as e:
                    raise vs.VariantError(_line_error(split.path, offset, block, str(e))) \
                        from None
                nulled += variants.null_count
                if writer is None:
                    if ddl == "per-file":
                        ddl = vs.infer_schema(variants).to_ddl()
                    writer = vs.parquet.ParquetWriter(
                        target, schema, shredding={self.column: ddl},
                        compression=self.compression, trusted_columns=[self.column])
                writer.write_batch(pa.record_batch([variants], schema=schema))
                rows += len(variants)
            if writer is not None:
                writer.close()
        except BaseException:
            if writer is not None:
                writer.abort()
            raise
        size = os.path.getsize(target) if writer is not None else 0
        return pa.RecordBatch.from_pylist(
            [{"file": target if writer is not None else None, "rows": rows, "bytes": size,
              "nulled": nulled, "ddl": ddl}], schema=_TASK_RESULT)


_TASK_RESULT = pa.schema([("file", pa.string()), ("rows", pa.int64()), ("bytes", pa.int64()),
                          ("nulled", pa.int64()), ("ddl", pa.string())])
_TASK_RESULT_DDL = "file string, rows long, bytes long, nulled long, ddl string"


def _error_line(exc: BaseException) -> str:
    """The most telling line of an error raised through Spark: varshred's own message
    when a task raised one, else the exception's first line."""
    text = str(exc)
    m = re.search(r"(?:varshred\.errors\.)?VariantError: (.+)", text)
    if m:
        return m.group(1).strip()
    m = re.search(r"\n\s*(?:pyarrow\.lib\.)?Arrow\w*Error: (.+)", text)
    if m:
        return m.group(1).strip()
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    return first[:500]


class JobError(Exception):
    """A shred job failed; the message is one line naming the file (and row)."""


class _Progress:
    """Prints the running stage's task counts to stderr while a job runs (terminals
    only: logs get the phase lines)."""

    def __init__(self, spark, enabled: bool):
        self.tracker = spark.sparkContext.statusTracker()
        self.enabled = enabled
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        if self.enabled:
            self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self.enabled:
            self._thread.join()
            print("\r\033[K", end="", file=sys.stderr, flush=True)

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            parts = []
            for sid in self.tracker.getActiveStageIds():
                info = self.tracker.getStageInfo(sid)
                if info:
                    parts.append(f"stage {sid}: {info.numCompletedTasks}/{info.numTasks} "
                                 f"tasks ({info.numActiveTasks} running)")
            if parts:
                print("\r\033[K      " + "; ".join(parts), end="", file=sys.stderr,
                      flush=True)


@dataclass
class ShredJob:
    """``varshred shred``: JSON lines or Parquet files -> a shredded Parquet dataset.

    JSON lines: every non-blank line is one document, written as the Variant column
    ``column``. Parquet: ``VariantType`` columns are shredded, ``json_columns`` (JSON
    strings) are parsed first, other columns are copied.
    """

    input: str
    output: str
    schema: str = "infer"
    master: str | None = None
    input_format: str = "auto"          # "auto" | "json" | "parquet"
    column: str = "data"                 # the Variant column of JSON-lines input
    json_columns: list = field(default_factory=list)
    errors: str = "raise"               # "raise" | "null"
    mode: str = "error"                 # "error" | "overwrite" | "append" | "ignore"
    compression: str = "zstd"
    sample_rows: int = 100_000
    progress: bool = False
    spark_conf: dict = field(default_factory=dict)
    log: Callable[[str], None] = print

    def _check_arguments(self) -> None:
        if self.schema not in _SCHEMA_WORDS and not self.schema.lstrip().startswith("{"):
            try:
                ShreddingSchema.parse(self.schema)
            except vs.VariantError as e:
                raise JobError(f"--schema: {e}") from None
        if self.errors not in ("raise", "null"):
            raise JobError(f"--errors: 'raise' or 'null', got {self.errors!r}")

    def _input_format(self, files: list[str] | None) -> str:
        if self.input_format != "auto":
            return self.input_format
        if files is None:
            return "parquet" if self.input.rstrip("/").endswith(".parquet") else "json"
        if files and all(_is_parquet(f) for f in files):
            return "parquet"
        if any(f.endswith(".parquet") for f in files):
            bad = next(f for f in files if f.endswith(".parquet") and not _is_parquet(f))
            raise JobError(f"{bad}: not a Parquet file (no PAR1 magic)")
        return "json"

    def _check_parquet(self, files: list[str] | None) -> None:
        for f in files or []:
            try:
                pq.read_metadata(f)
            except Exception as e:  # pyarrow raises several kinds for bad footers
                raise JobError(f"{f}: not a readable Parquet file: {e}") from None

    def _frame(self, spark, fmt: str):
        from pyspark.sql import functions as F

        if fmt == "json":
            text = spark.read.text(self.input)
            return (text.where(F.length(F.trim(text["value"])) > 0)
                    .withColumnRenamed("value", self.column)), [self.column]
        df = spark.read.parquet(self.input)
        missing = [c for c in self.json_columns if c not in df.columns]
        if missing:
            raise JobError(f"{self.input}: no column {missing[0]!r} (columns: {df.columns})")
        if not vs.spark.variant_columns(df) and not self.json_columns:
            raise JobError(f"{self.input}: no Variant column; name JSON string columns with "
                           "--json-column")
        return df, list(self.json_columns)

    def run(self, spark=None) -> "vs.spark.WriteSummary | None":
        """Runs the job; raises JobError with a one-line message on bad input."""
        self._check_arguments()
        files = _local_files(self.input)
        if files is not None and not files:
            raise JobError(f"{self.input}: no such file or directory (or no data files)")
        fmt = self._input_format(files)
        if fmt == "parquet":
            self._check_parquet(files)
        if self.mode in ("error", "errorifexists") and vs.spark._path_has_data(self.output):
            raise JobError(f"{self.output} already exists; use --mode overwrite or append")

        start = time.time()
        spark = spark or spark_session(self.master, conf=self.spark_conf)
        self.log(f"[1/3] Spark {spark.version} on {spark.sparkContext.master} "
                 f"({time.time() - start:.1f} s); input: {fmt}"
                 f"{'' if files is None else f', {len(files)} file(s)'}")
        df, json_columns = self._frame(spark, fmt)
        schema = self.schema
        try:
            with _Progress(spark, self.progress):
                if schema == "infer":
                    t = time.time()
                    stats = ({self.column: _sample_json_lines(files, self.sample_rows)}
                             if fmt == "json" and files and _plain_text(files) else
                             vs.spark.sample_stats(df, json_columns=json_columns,
                                                   sample_rows=self.sample_rows))
                    schemas = {c: s.derive_schema() for c, s in stats.items()}
                    schema = {c: s.to_ddl() for c, s in schemas.items()}
                    self.log(f"[2/3] inferred from a sample of up to {self.sample_rows} rows "
                             f"({time.time() - t:.1f} s):")
                    for c, s in schemas.items():
                        self.log(f"      {c}: {s.to_ddl()}")
                        self.log("      " + stats[c].report(s).rstrip().replace("\n", "\n      "))
                else:
                    self.log(f"[2/3] shredding schema: {schema}")
                t = time.time()
                if fmt == "json" and files and _plain_text(files):
                    ddl = schema[self.column] if isinstance(schema, dict) else schema
                    summary = self._write_json_lines(spark, files, ddl)
                else:
                    summary = vs.spark.write(df, self.output, shredding=schema,
                                             mode=self.mode, json_columns=json_columns,
                                             errors=self.errors, compression=self.compression)
        except JobError:
            raise
        except Exception as e:
            where = (find_bad_json_line(files)
                     if fmt == "json" and files and _plain_text(files)
                     and "VariantError" not in str(e) else None)
            raise JobError(where or _error_line(e)) from e
        if summary is not None:
            summary.seconds = time.time() - start
            self.log(f"[3/3] wrote {summary.rows} rows to {len(summary.files)} file(s), "
                     f"{summary.bytes} bytes, in {time.time() - t:.1f} s "
                     f"({summary.rows / max(time.time() - t, 1e-9):,.0f} rows/s) -> "
                     f"{self.output}")
        return summary


    def _write_json_lines(self, spark, files: list[str], ddl: str):
        """Local JSON lines: each Spark task reads its own split of the files, parses
        and writes it (no JVM text reader, no Arrow transfer); the driver then commits
        the staged files. A failed task or job leaves nothing under the output."""
        if self.mode == "ignore" and vs.spark._path_has_data(self.output):
            return None
        splits = _splits(files, spark.sparkContext.defaultParallelism)
        created = not os.path.exists(self.output)
        staging = os.path.join(self.output, f"_varshred_staging_{uuid.uuid4().hex}")
        os.makedirs(staging)
        task = _JsonLinesTask(tuple(splits), self.column, ddl, self.errors,
                              self.compression, staging)
        try:
            results = (spark.range(0, len(splits), 1, max(len(splits), 1))
                       .mapInArrow(task, _TASK_RESULT_DDL).collect())
            written = [r for r in results if r["file"]]
            final = vs.spark.publish([r["file"] for r in written], self.output,
                                     overwrite=self.mode == "overwrite")
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            if created:  # leave no trace of a failed job
                shutil.rmtree(self.output, ignore_errors=True)
            raise
        shutil.rmtree(staging, ignore_errors=True)
        ddls = sorted({r["ddl"] for r in written})
        return vs.spark.WriteSummary(
            self.output, final, sum(r["rows"] for r in written),
            sum(r["bytes"] for r in written), 0.0,
            {self.column: ddls[0] if len(ddls) == 1 else ddls},
            {self.column: sum(r["nulled"] for r in written)} if self.errors == "null" else {},
            {})


def summary_text(summary: "vs.spark.WriteSummary") -> str:
    """The closing table: totals, nulled rows and per path the typed share."""
    lines = [f"rows {summary.rows}  files {len(summary.files)}  bytes {summary.bytes}  "
             f"time {summary.seconds:.1f} s"]
    for c, n in summary.nulled.items():
        lines.append(f"column {c}: {n} row(s) with invalid JSON written as NULL")
    lines.append(summary.report())
    return "\n".join(lines)
