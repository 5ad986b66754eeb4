# Licensed under the Apache License, Version 2.0.
"""The shred job behind ``varshred shred``: JSON lines or Parquet -> shredded Parquet
on Spark (local mode by default, any master or spark-submit for a cluster).

>>> from varshred.pipeline import ShredJob
>>> summary = ShredJob("events.jsonl", "out/", schema="infer").run()
"""

from __future__ import annotations

import glob
import json
import os
import re
import sys
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

import varshred as vs
from varshred import _fs, _jvm, _pyspark_daemon, _stored_table, jsonlines
from varshred.shredding import ShreddingSchema

__all__ = ["JobError", "ShredJob", "spark_context", "spark_session", "summary_text"]

_SCHEMA_WORDS = ("infer", "per-file", "none")
_DAEMON_MODULE = "spark.python.daemon.module"


def spark_session(master: str | None = None, app_name: str = "varshred",
                  quiet: bool = True, conf: dict | None = None, remote: str | None = None,
                  fast_start: bool = False):
    """A SparkSession: the one spark-submit started, or local Spark on ``master``
    (default ``local[*]``) with the UI off and, when ``quiet``, the JVM's log off
    (errors reach the user through varshred's own one-line messages). ``conf`` adds
    Spark settings (e.g. ``spark.archives`` for a cluster). ``remote``
    (``sc://host:port``) connects to a Spark Connect server instead: no local JVM, and
    the server's Python workers run varshred's tasks. ``fast_start`` starts the driver's
    JVM with the options of varshred._jvm, for jobs whose work runs in Python tasks.
    A local session whose workers run this interpreter starts them with
    varshred_daemon (the installed pyspark, not pyspark.zip), from a daemon started
    ahead of the JVM (varshred._pyspark_daemon.start_ahead)."""
    from pyspark.sql import SparkSession

    if remote:
        if master:
            raise JobError("--master and --remote exclude each other")
        _check_reachable(remote)
        builder = SparkSession.builder.remote(remote)
        for key, value in (conf or {}).items():
            builder = builder.config(key, value)
        return builder.getOrCreate()
    settings, _ = _driver_settings(master, app_name, quiet, conf, fast_start)
    spark = SparkSession.builder.config(map=settings).getOrCreate()
    if quiet:
        spark.sparkContext.setLogLevel("OFF")
    return spark


def _check_reachable(remote: str, timeout: float = 10.0) -> None:
    """Fails fast when nothing listens at a Spark Connect URL: the client would retry
    for minutes without a word."""
    import socket
    from urllib.parse import urlsplit

    try:
        url = urlsplit(remote)
        host, port = url.hostname, url.port or 15002  # Spark Connect's default port
    except ValueError as e:
        raise JobError(f"--remote {remote}: {e}") from None
    if url.scheme != "sc" or not host:
        return  # not a URL this check understands: pyspark will say what is wrong
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as e:
        raise JobError(f"cannot reach the Spark Connect server at {host}:{port} "
                       f"({e.strerror or e})") from None


def spark_context(master: str | None = None, app_name: str = "varshred",
                  quiet: bool = True, conf: dict | None = None, fast_start: bool = False):
    """The SparkContext of :func:`spark_session` (same arguments but ``remote``) without a
    SparkSession, for jobs of Python RDD tasks alone (the tasks of JSON lines and of
    tables as stored read their input themselves): a SparkSession's JVM side takes about
    0.4 s to create, after the context and before any job (docs/cluster.md#start-up).
    A run whose JVM writes varshred's class archive creates the session all the same,
    so that the archive also holds the classes of the runs that need one."""
    from pyspark import SparkConf, SparkContext

    settings, writes_archive = _driver_settings(master, app_name, quiet, conf, fast_start)
    if writes_archive:
        from pyspark.sql import SparkSession

        sc = SparkSession.builder.config(map=settings).getOrCreate().sparkContext
    else:
        sc = SparkContext.getOrCreate(SparkConf().setAll(list(settings.items())))
    if quiet:
        sc.setLogLevel("OFF")
    return sc


def _driver_settings(master: str | None, app_name: str, quiet: bool, conf: dict | None,
                     fast_start: bool) -> tuple[dict[str, str], bool]:
    """(the Spark settings of a session or context started by this process, or joined
    under spark-submit; whether its JVM writes varshred's class archive), as
    :func:`spark_session` documents them. Also starts importing, while the JVM starts,
    what the first py4j call would import after it."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    settings = {"spark.app.name": app_name}
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ  # launched by spark-submit
    if master or not submitted:
        master = master or "local[*]"
        settings["spark.master"] = master
        if master.startswith("local"):
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
            settings["spark.driver.bindAddress"] = "127.0.0.1"
            settings["spark.driver.host"] = "127.0.0.1"
    conf = dict(conf or {})
    java_options = [conf.pop("spark.driver.extraJavaOptions", "")]
    if quiet:
        log4j = os.path.join(os.path.dirname(__file__), "log4j2-quiet.properties")
        java_options.append(f"-Dlog4j2.configurationFile=file:{log4j}")
    jvm_options = _jvm.driver_options() if fast_start and not submitted and _jvm.enabled() \
        else []
    java_options += jvm_options
    if any(java_options):
        settings["spark.driver.extraJavaOptions"] = " ".join(o for o in java_options if o)
    if (master and master.startswith("local") and not submitted
            and os.environ["PYSPARK_PYTHON"] == sys.executable
            and not {"spark.pyspark.python", _DAEMON_MODULE} & conf.keys()):
        # Workers started by this interpreter: their daemon imports the installed
        # pyspark, not the copy in pyspark.zip that Python compiles at every start, and
        # is started ahead, importing while the JVM starts (unless a JVM runs already).
        settings[_DAEMON_MODULE] = "varshred_daemon"
        from pyspark import SparkContext

        if SparkContext._gateway is None:
            _pyspark_daemon.start_ahead()
    settings.update(conf)
    settings["spark.ui.enabled"] = "false"
    settings["spark.ui.showConsoleProgress"] = "false"
    if "pyspark.testing.utils" not in sys.modules:
        # The first py4j call imports it (pyspark's numpy converter asks it whether
        # numpy is there), and with it pandas and unittest: 0.15 s the driver would
        # spend after the JVM is up, imported here while the JVM starts.
        threading.Thread(target=_import_pyspark_testing, daemon=True).start()
    return settings, _jvm.writes_archive(jvm_options)


def _import_pyspark_testing() -> None:
    try:
        import pyspark.testing.utils  # noqa: F401
    except Exception:  # pragma: no cover - its own import in the session fails alike
        pass


def _input_files(path: str) -> tuple[list[str], bool]:
    """The data files behind a local path, directory or glob (made absolute: the
    executors of a cluster run in their own directories), or a URI of a file or a
    directory on any store (docs/storage.md); and whether a directory's files lie in
    Hive-style key=value directories (columns Spark's read of it adds)."""
    if _fs.is_uri(path) and not path.startswith("file://"):
        files = _fs.list_files(path)
        return files, vs.dataset.hive_partitioned(path, files)
    path = vs.spark._absolute(path.removeprefix("file://"))
    # A name with glob characters that exists is read as named (vs.dataset's rule).
    glob_it = glob.has_magic(path) and not os.path.exists(path)
    matches = sorted(glob.glob(path)) if glob_it else [path]
    out = []
    for m in matches:
        if os.path.isdir(m):
            for root, dirs, files in os.walk(m):
                dirs[:] = sorted(d for d in dirs if not d.startswith(("_", ".")))
                out += [os.path.join(root, f) for f in sorted(files)
                        if not f.startswith(("_", "."))]
        elif os.path.exists(m):
            out.append(m)
    return out, vs.dataset.hive_partitioned(path, out)


def _is_parquet(path: str) -> bool:
    fs, inner = _fs.resolve(path)
    with fs.open_input_file(inner) as f:
        return f.read(4) == b"PAR1"


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


def is_connect(spark) -> bool:
    """Whether ``spark`` is a Spark Connect session (no SparkContext, no RDDs)."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def _parallelism(spark) -> int:
    """The default parallelism: the SparkContext's, or on Spark Connect the server's
    ``spark.default.parallelism`` when set (else 2 x the client's cores: the splits'
    4 MB floor keeps small inputs in few tasks either way)."""
    if not is_connect(spark):
        return _stored_table.context(spark).defaultParallelism
    return int(spark.conf.get("spark.default.parallelism", None) or 2 * (os.cpu_count() or 1))


def _remote(path: str) -> bool:
    return _fs.is_uri(path) and not path.startswith("file://")


@dataclass(frozen=True)
class _ReadParquetFiles:
    """mapInArrow function run once per file id: the file's rows read by varshred's
    reader through Arrow's filesystem (Spark's own Parquet reader would need the
    store's Hadoop connector), Variant columns in Spark's layout."""

    files: tuple

    def __call__(self, batches):
        for batch in batches:
            for i in batch.column(0).to_pylist():
                for b in vs.parquet.iter_batches(self.files[i]):
                    yield vs.spark.for_spark(_spark_variants(b))


def _spark_variants(batch):
    import pyarrow as pa

    columns = [vs.to_layout(c, "spark") if vs.parquet.is_variant_type(c.type) else c
               for c in batch.columns]
    return pa.RecordBatch.from_arrays(columns, names=batch.schema.names)


def _read_parquet_files(spark, files: list[str]):
    """Parquet files on an object store as a DataFrame, one task per file. Every file
    must have the first file's columns."""
    from pyspark.sql.types import StructField, StructType

    first = vs.parquet.iter_batches(files[0], batch_size=1)
    schema = next(first, None)
    schema = (schema.schema if schema is not None
              else vs.parquet.read_table(files[0]).schema)
    fields = [StructField(f.name, vs.spark.variant_spark_type()
                          if vs.parquet.is_variant_type(f.type)
                          else vs.spark._spark_type_of(f.type), f.nullable)
              for f in schema]
    return (spark.range(0, len(files), 1, len(files))
            .mapInArrow(_ReadParquetFiles(tuple(files)), StructType(fields)))


class JobError(Exception):
    """A shred job failed; the message is one line naming the file (and row)."""


class _Progress:
    """Prints the running stage's task counts to stderr while a job runs (terminals
    only: logs get the phase lines)."""

    def __init__(self, spark, enabled: bool):
        self.enabled = enabled and not is_connect(spark)  # Connect has no status tracker
        self.tracker = _stored_table.context(spark).statusTracker() if self.enabled else None
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


# The master URLs Spark 4 takes (SparkContext refuses others with a JVM stack dump).
_MASTER_URL = re.compile(r"local(\[(\*|\d+)(,\s*\d+)?\])?|local-cluster\[[\d,\s]+\]|yarn"
                         r"|(spark|k8s)://\S+")


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
    remote: str | None = None           # a Spark Connect URL, sc://host:port
    input_format: str = "auto"          # "auto" | "json" | "parquet"
    column: str = "data"                 # the Variant column of JSON-lines input
    json_columns: list = field(default_factory=list)
    errors: str = "raise"               # "raise" | "null"
    mode: str = "error"                 # "error" | "overwrite" | "append" | "ignore"
    compression: str = "zstd"
    sample_rows: int = 100_000
    sample_bytes: int = jsonlines.DEFAULT_SAMPLE_BYTES
    progress: bool = False
    spark_conf: dict = field(default_factory=dict)
    log: Callable[[str], None] = print

    def _shredding(self) -> "str | dict[str, str]":
        """``schema`` as the writers take it: a word, one DDL, or ``{column: DDL}``."""
        if not self.schema.lstrip().startswith("{"):
            return self.schema
        try:
            columns = json.loads(self.schema)
        except (ValueError, RecursionError) as e:
            raise JobError(f"--schema: not a JSON object {{column: DDL}}: {e}") from None
        if not isinstance(columns, dict):
            raise JobError("--schema: not a JSON object {column: DDL}")
        return columns

    def _check_arguments(self) -> None:
        if self.master is not None and not _MASTER_URL.fullmatch(self.master.strip()):
            raise JobError(f"--master: {self.master!r} is not a Spark master URL (local, "
                           f"local[N], local[*], spark://HOST:PORT, yarn, k8s://HOST:PORT)")
        if isinstance(columns := self._shredding(), dict):
            # {column: DDL}: checked here so that bad DDL never reaches the tasks
            for column, ddl in columns.items():
                if not isinstance(ddl, str):
                    raise JobError(f"--schema: column {column!r}: the DDL must be a string")
                try:
                    ShreddingSchema.parse(ddl)
                except vs.VariantError as e:
                    raise JobError(f"--schema: column {column!r}: {e}") from None
        elif self.schema not in _SCHEMA_WORDS:
            try:
                ShreddingSchema.parse(self.schema)
            except vs.VariantError as e:
                raise JobError(f"--schema: {e}") from None
        try:
            vs.spark._explicit_shredding(self.schema)  # the output is for Spark
        except vs.VariantError as e:
            raise JobError(f"--schema: {e}") from None
        if self.sample_rows < 0:
            raise JobError(f"--sample-rows: 0 (all) or more, got {self.sample_rows}")
        if self.errors not in ("raise", "null"):
            raise JobError(f"--errors: 'raise' or 'null', got {self.errors!r}")
        try:
            vs.spark._spark_compression(self.compression)
        except vs.VariantError as e:
            raise JobError(f"--{e}") from None

    def _input_format(self, files: list[str]) -> str:
        if self.input_format != "auto":
            return self.input_format
        bad = next((f for f in files if not _is_parquet(f)), None)
        if files and bad is None:
            return "parquet"
        named = [f for f in files if _fs.without_query(f).endswith(".parquet")]
        if bad != files[0] or named:  # Parquet files among others: Spark would fail too
            bad = next((f for f in named if not _is_parquet(f)), bad)
            raise JobError(f"{bad}: not a Parquet file (no PAR1 magic), in an input "
                           f"holding Parquet files")
        return "json"

    def _check_parquet(self, files: list[str]) -> None:
        for f in files:
            try:  # varshred checks the footer before pyarrow reads it
                vs.parquet._parquet_file(f)
            except Exception as e:  # pyarrow raises several kinds for bad footers
                message = str(e)  # varshred's own check names the file already
                raise JobError(message if message.startswith(f"{f}: ")
                               else f"{f}: not a readable Parquet file: {message}") from None

    def _frame(self, spark, fmt: str):
        # The client's directory: a Spark Connect server resolves relative paths in its own.
        source = vs.spark._absolute(self.input)
        if fmt == "json":
            # The tasks' own rules (jsonlines): lines end at '\n' only (a CR before it is
            # JSON whitespace), and a line of JSON whitespace alone is no row.
            text = spark.read.option("lineSep", "\n").text(source)
            return (text.where(text["value"].rlike("[^ \t\r\n]"))
                    .withColumnRenamed("value", self.column)), [self.column]
        df = (_read_parquet_files(spark, self._files) if _remote(self.input)
              else spark.read.parquet(source))
        self._check_columns(self.input, df.columns, vs.spark.variant_columns(df))
        return df, list(self.json_columns)

    def _stored_input(self, spark, table: "_stored_table.StoredTable | None",
                      sample: "Future | None") -> "_stored_table.StoredTable | None":
        """Local Parquet input as Spark would read it, when the files tell its schema in
        Spark and the sample taken while Spark started succeeded (or none is needed):
        the tasks read it themselves, and no DataFrame is made (Spark's first
        read.parquet takes about 0.6 s in a fresh session)."""
        if table is None or is_connect(spark):
            return None
        if self.schema == "infer" and (sample is None or sample.result()[0] is None):
            return None
        zone = _stored_table.sql_setting(  # a SparkContext's: the JVM's zone by default
            spark, "spark.sql.session.timeZone",
            lambda: _stored_table.context(spark)._jvm.java.util.TimeZone.getDefault().getID())
        return _stored_table.as_spark_reads(
            table, zone,
            lambda key, default: _stored_table.sql_setting(spark, key, lambda: default))

    def _check_columns(self, source: str, columns: list[str], variants: list[str]) -> None:
        missing = [c for c in self.json_columns if c not in columns]
        if missing:
            raise JobError(f"{source}: no column {missing[0]!r} (columns: {columns})")
        if not variants and not self.json_columns:
            raise JobError(f"{source}: no Variant column; name JSON string columns with "
                           "--json-column")

    def run(self, spark=None) -> "vs.spark.WriteSummary | None":
        """Runs the job; raises JobError with a one-line message on bad input."""
        self._check_arguments()
        self.output = vs.spark._absolute(self.output)
        try:
            files, partitioned = _input_files(self.input)
        except OSError as e:  # e.g. a bucket that does not exist, access denied
            raise JobError(f"{self.input}: {e}") from None
        if not files:
            raise JobError(f"{self.input}: no such file or directory (or no data files)")
        self._files = files
        fmt = self._input_format(files)
        if fmt == "parquet":
            self._check_parquet(files)
        if _fs.is_file(self.output):
            raise JobError(f"{self.output} is a file: OUTPUT names the directory the part "
                           "files go to")
        if self.mode == "ignore" and _fs.has_data(self.output):
            return None  # before Spark starts and the sample is read: nothing to write
        if self.mode in ("error", "errorifexists") and _fs.has_data(self.output):
            raise JobError(f"{self.output} already exists; use --mode overwrite or append")

        start = time.time()
        # JSON lines are read by the tasks themselves: no Spark DataFrame needed.
        # Files in key=value directories are read by Spark, whose read adds those
        # columns (the tasks' own reads would drop them).
        direct = fmt == "json" and jsonlines.readable(files) and not partitioned
        # Local Parquet files are most often a table as stored, which the tasks read
        # themselves (docs/cluster.md#stored-tables); the driver can sample them too.
        table = (_stored_table.file_table(files) if fmt == "parquet" and not self.remote
                 and not _remote(self.input) and not partitioned else None)
        # When the tasks read the input, the JVM only schedules them: it may start lean.
        lean = direct or (table is not None and _stored_table.likely_stored(table))

        def driver():
            # The tasks' own reads of JSON lines, and of a table as stored, are a job of
            # Python RDD tasks alone: it needs a SparkContext, not a SparkSession, which
            # is made only when Spark is to read the input.
            try:
                if (direct or table is not None) and not self.remote:
                    return spark_context(self.master, conf=self.spark_conf, fast_start=lean)
                return spark_session(self.master, conf=self.spark_conf, remote=self.remote,
                                     fast_start=lean)
            except Exception as e:  # a bad --conf value: Spark's message, not a traceback
                raise JobError(f"Spark did not start: {_error_line(e)}") from None

        sample = None
        if spark is None and self.schema == "infer" and (direct or self._can_sample(table)):
            # The driver samples the files while the JVM starts: the two overlap (the
            # pool's exit waits for the sample, whatever happened).
            with ThreadPoolExecutor(1) as pool:
                sample = (pool.submit(self._sample_files, files) if direct
                          else pool.submit(self._sample_table, table))
                spark = driver()
        spark = spark or driver()
        where = ((self.remote or "Spark Connect") if is_connect(spark)
                 else _stored_table.context(spark).master)
        stored = self._stored_input(spark, table, sample)
        if (not direct and stored is None and not is_connect(spark)
                and _stored_table.context(spark) is spark):
            from pyspark.sql import SparkSession

            spark = SparkSession(spark)  # Spark reads the input: a session on the context
        self.log(f"[1/3] Spark {spark.version} on {where} "
                 f"({time.time() - start:.1f} s); input: {fmt}"
                 f", {len(files)} file(s)"
                 + (", read by the tasks" if direct or stored is not None else ""))
        if fmt == "json" and not direct and any(_fs.is_uri(f) for f in files):
            raise JobError(f"{self.input}: .deflate, .lz4 and .snappy JSON lines are read by "
                           "Spark, from local files only")
        if direct:
            df, json_columns = None, [self.column]
        elif stored is not None:
            self._check_columns(self.input, stored.schema.names, stored.variant_columns)
            df, json_columns = None, list(self.json_columns)
        else:
            df, json_columns = self._frame(spark, fmt)
        schema = self._shredding()
        if isinstance(schema, dict):
            shredded = ([self.column] if direct else
                        list(stored.variant_columns) + json_columns if stored is not None
                        else vs.spark.variant_columns(df) + json_columns)
            unknown = sorted(set(schema) - set(shredded))
            if unknown:
                raise JobError(f"--schema: no Variant or JSON column {unknown[0]!r} to shred "
                               f"(the columns: {shredded})")
        try:
            with _Progress(spark, self.progress):
                if schema == "infer":
                    # The sample taken while Spark started, if any.
                    stats, seconds = sample.result() if sample is not None else (None, 0.0)
                    if stats is not None and df is not None and set(stats) != {
                            *vs.spark.variant_columns(df), *json_columns}:
                        stats = None  # Spark sees other Variant columns: ask it
                    if stats is None and direct:
                        stats, seconds = self._sample_files(files)
                    elif stats is None:
                        t = time.time()
                        stats = vs.spark.sample_stats(df, json_columns=json_columns,
                                                      sample_rows=self.sample_rows,
                                                      sample_bytes=self.sample_bytes)
                        seconds = time.time() - t
                    schemas = vs.spark.inferred_schemas(stats)
                    schema = {c: s.to_ddl() for c, s in schemas.items()}
                    self.log(f"[2/3] inferred from a sample of up to {self.sample_rows} rows "
                             f"and {self.sample_bytes / 2**20:g} MB ({seconds:.1f} s):")
                    for c, s in schemas.items():
                        self.log(f"      {c}: {s.to_ddl()}")
                        self.log("      " + stats[c].report(s).rstrip().replace("\n", "\n      "))
                else:
                    self.log(f"[2/3] shredding schema: {schema}")
                t = time.time()
                if direct:
                    ddl = schema.get(self.column, "none") if isinstance(schema, dict) else schema
                    summary = self._write_lines(spark, files, ddl)
                elif stored is not None:
                    summary = vs.spark._write(spark, self.output, stored=stored,
                                              shredding=schema, mode=self.mode,
                                              json_columns=json_columns, errors=self.errors,
                                              compression=self.compression)
                else:
                    summary = vs.spark.write(df, self.output, shredding=schema,
                                             mode=self.mode, json_columns=json_columns,
                                             errors=self.errors, compression=self.compression)
        except JobError:
            raise
        except Exception as e:  # the tasks' errors already name the file and line
            raise JobError(_error_line(e)) from e
        if summary is not None:
            summary.seconds = time.time() - start
            self.log(f"[3/3] wrote {summary.rows} rows to {len(summary.files)} file(s), "
                     f"{summary.bytes} bytes, in {time.time() - t:.1f} s "
                     f"({summary.rows / max(time.time() - t, 1e-9):,.0f} rows/s) -> "
                     f"{self.output}")
        return summary

    def _sample_files(self, files: list[str]) -> tuple[dict, float]:
        """({column: ShreddingStats} of the JSON-lines files' sample, seconds taken)."""
        t = time.time()
        stats = jsonlines.sample_stats(files, self.sample_rows, self.sample_bytes)
        return {self.column: stats}, time.time() - t

    def _can_sample(self, table: "_stored_table.StoredTable | None") -> bool:
        """Whether the driver can sample Parquet input before Spark is up: its columns
        as varshred reads them hold every JSON column and at least one to sample."""
        if table is None or not all(c in table.schema.names for c in self.json_columns):
            return False
        return bool(self.json_columns or table.variant_columns)

    def _sample_table(self, table: "_stored_table.StoredTable"
                      ) -> tuple[dict | None, float]:
        """({column: ShreddingStats} of Parquet input's sample, seconds taken): the
        rows Spark will read, sampled from the files as for a table as stored. None
        when varshred cannot read them: Spark's sample pass then reads them, or says
        what is wrong."""
        t = time.time()
        try:
            stats = _stored_table.sample_stats(table, table.variant_columns,
                                               list(self.json_columns),
                                               self.sample_rows, self.sample_bytes)
        except Exception:  # noqa: BLE001 (any reader error: Spark's pass decides)
            return None, 0.0
        return stats, time.time() - t

    def _write_lines(self, spark, files: list[str], ddl: str):
        """JSON lines: each Spark task reads its own split of the files (local or on any
        store, docs/storage.md), parses and writes it (no JVM text reader, no Arrow
        transfer) into a staging directory under the output that readers skip ('_');
        the driver then commits the staged files. A failed task or job leaves nothing
        visible under the output; nothing goes through the driver's disk."""
        if self.mode == "ignore" and _fs.has_data(self.output):
            return None
        splits = jsonlines.splits(files, _parallelism(spark))
        created = not _fs.exists(self.output)
        existing = (vs.spark._part_files(self.output)
                    if self.mode == "append" and _fs.has_data(self.output) else [])
        staging = _fs.join(self.output, f"_varshred_staging_{uuid.uuid4().hex}")
        _fs.makedirs(staging)
        task = jsonlines.WriteSplits(tuple(splits), self.column, ddl, self.errors,
                              self.compression, staging,
                              vs.spark._session_duplicate_keys(spark, None))
        try:
            if is_connect(spark):  # no RDDs: a DataFrame job
                results = (spark.range(0, len(splits), 1, max(len(splits), 1))
                           .mapInArrow(task, jsonlines.RESULT_DDL).collect())
            else:
                # A Python RDD job: as a session's first job it starts its tasks about
                # 0.6 s sooner than a DataFrame's (no SQL planning, no Arrow in the JVM).
                results = (_stored_table.context(spark).parallelize(range(len(splits)),
                                                          max(len(splits), 1))
                           .mapPartitions(task.over_ids).collect())
            written = [r for r in results if r["file"]]
            if not written and not existing:
                written = [task.write_empty()]
            final = vs.spark.publish(
                [r["file"] for r in written], self.output, overwrite=self.mode == "overwrite",
                manifest=[{"rows": r["rows"], "shredding": {self.column: r["ddl"]}}
                          for r in written])
        except BaseException:
            _fs.remove_tree(staging)
            if created:  # leave no trace of a failed job
                _fs.remove_tree(self.output)
            raise
        _fs.remove_tree(staging)
        ddls = sorted({r["ddl"] for r in written})
        return vs.spark.WriteSummary(
            self.output, final, sum(r["rows"] for r in written),
            sum(r["bytes"] for r in written), 0.0,
            {self.column: ddls[0] if len(ddls) == 1 else ddls or ddl},
            {self.column: sum(r["nulled"] for r in written)} if self.errors == "null" else {},
            {}, drift=vs.spark.schema_drift(existing, final) if existing else None)


def summary_text(summary: "vs.spark.WriteSummary") -> str:
    """The closing table: totals, nulled rows and per path the typed share."""
    lines = [f"rows {summary.rows}  files {len(summary.files)}  bytes {summary.bytes}  "
             f"time {summary.seconds:.1f} s"]
    for c, n in summary.nulled.items():
        lines.append(f"column {c}: {n} row(s) with invalid JSON written as NULL")
    lines.append(summary.report())
    return "\n".join(lines)
