# Licensed under the Apache License, Version 2.0.
"""The ``varshred`` command (also ``python -m varshred``).

    varshred shred INPUT OUTPUT        JSON lines / Parquet -> shredded Parquet on Spark
    varshred demo                      sample events -> shredded Parquet on local Spark
    varshred inspect DATASET           shredding layout of each Variant column
    varshred to-json DATASET [OUTPUT]  rows of Parquet files -> JSON lines
    varshred get DATASET PATH [--type T] one path of every row

DATASET is a Parquet file, a directory (read recursively, skipping names that start
with "_" or "."), or a glob; "-" reads a Parquet file from standard input and, as
OUTPUT, writes to standard output (the default).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import logging
import os
import random
import shutil
import sys
import tempfile
from typing import Iterator

import pyarrow as pa
import pyarrow.compute as pc

import varshred as vs
from varshred import _kernels
from varshred.jsonlines import DEFAULT_SAMPLE_BYTES

DEMO_SCHEMA = ("struct<id: bigint, kind: string, user: struct<name: string, score: decimal(9,2)>, "
               "tags: array<string>>")


# Names of the files the command made for the user's own (a copy of standard input, a
# temporary output): messages and listings show what the user named.
_SHOWN_AS: dict[str, str] = {}


def _shown(text: str) -> str:
    for internal, name in _SHOWN_AS.items():
        text = text.replace(internal, name)
    return text


@contextlib.contextmanager
def _input(path: str) -> Iterator[str]:
    """``path``, or for "-" a temporary copy of standard input (Parquet needs to seek)."""
    if path != "-":
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="varshred-stdin-") as d:
        target = os.path.join(d, "stdin.parquet")
        with open(target, "wb") as f:
            shutil.copyfileobj(sys.stdin.buffer, f)
        _SHOWN_AS[target] = "-"
        yield target


@contextlib.contextmanager
def _output(path: str):
    """A binary stream: standard output for "-", else the file ``path`` (a regular file
    appears only complete: it is written under a temporary name, then renamed)."""
    if path == "-":
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    if _is_parquet_file(path):
        # `to-json a.parquet b.parquet` meant two inputs: never replace a dataset's file.
        raise ValueError(f"{path} is a Parquet file: OUTPUT would replace it with JSON "
                         "text (several inputs: pass a directory or a glob)")
    if os.path.exists(path) and not os.path.isfile(path):
        # A device or pipe (/dev/null, a FIFO): written in place; a rename would
        # replace it with a regular file.
        with open(path, "wb") as f:
            yield f
        return
    # The file appears only complete; until then under a hidden name, which readers of
    # the directory skip even when a killed process leaves it behind.
    head, tail = os.path.split(path)
    tmp = os.path.join(head, f".{tail}.{os.getpid()}.tmp")
    _SHOWN_AS[tmp] = path
    try:
        with open(tmp, "wb") as f:
            yield f
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _is_parquet_file(path: str) -> bool:
    """Whether ``path`` is a regular file that starts as a Parquet file does."""
    if not os.path.isfile(path):  # never open a FIFO or device to look
        return False
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"PAR1"
    except OSError:
        return False


def _fail(message: str) -> int:
    print(f"varshred: error: {_shown(message)}", file=sys.stderr)
    return 1


# ----------------------------------------------------------------------------
# inspect


def _layout_tree(t: pa.DataType, indent: str, name: str, lines: list[str]) -> None:
    """Renders a shredded struct type as a tree of paths and their typed types."""
    typed = t.field("typed_value").type if t.get_field_index("typed_value") >= 0 else None
    if typed is None:
        lines.append(f"{indent}{name}: variant (value only)")
    elif pa.types.is_struct(typed):
        lines.append(f"{indent}{name}: object")
        for f in typed:
            _layout_tree(f.type, indent + "  ", f.name, lines)
    elif pa.types.is_list(typed) or pa.types.is_large_list(typed):
        lines.append(f"{indent}{name}: array")
        _layout_tree(typed.value_type, indent + "  ", "[]", lines)
    else:
        lines.append(f"{indent}{name}: {typed}")


def _count_tree(column: pa.ChunkedArray, name: str, lines: list[str], indent: str = "") -> None:
    """Per path: rows typed / residual / missing."""
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    t = array.type
    has_typed = t.get_field_index("typed_value") >= 0
    value = array.field("value") if t.get_field_index("value") >= 0 else None
    typed = array.field("typed_value") if has_typed else None
    valid = array.is_valid()
    n = pc.sum(valid.cast(pa.int64())).as_py() or 0
    n_typed = (pc.sum(pc.and_(valid, typed.is_valid()).cast(pa.int64())).as_py()
               if typed is not None else 0) or 0
    n_value = (pc.sum(pc.and_(valid, value.is_valid()).cast(pa.int64())).as_py()
               if value is not None else 0) or 0
    missing = n - (pc.sum(pc.and_(valid, pc.or_(
        typed.is_valid() if typed is not None else pa.array([False] * len(array)),
        value.is_valid() if value is not None else pa.array([False] * len(array)))).cast(
            pa.int64())).as_py() or 0)
    kind = "variant" if typed is None else (
        "object" if pa.types.is_struct(typed.type) else
        "array" if pa.types.is_list(typed.type) else str(typed.type))
    lines.append(f"{indent}{name:<24}{kind:<16} typed {n_typed:>8}  residual {n_value:>8}  "
                 f"missing {missing:>8}")
    if typed is not None and pa.types.is_struct(typed.type):
        for f in typed.type:
            _count_tree(typed.field(f.name), f.name, lines, indent + "  ")


def cmd_inspect(args) -> int:
    with _input(args.path) as source:
        files = vs.dataset.files(source)
        if not files:
            return _fail(f"{args.path}: no data files")
        if isinstance(source, str) and not vs.dataset.is_single_file(source):
            manifest = vs.spark.read_manifest(source)
            if manifest is None:
                print(f"{source}: no _SUCCESS manifest (incomplete, or not written by varshred)")
            else:
                listed = {e.get("name") for e in manifest}
                missing = sorted(listed - {os.path.basename(f) for f in files})
                print(f"{source}: complete per _SUCCESS: {len(manifest)} files, "
                      f"{sum(e.get('rows', 0) for e in manifest)} rows"
                      + (f"; MISSING {missing}" if missing else ""))
        return _inspect_files(files)


def _inspect_files(files: list[str]) -> int:
    for path in files:
        try:  # a corrupt file may fail at any step: report it, never a traceback
            infos = vs.parquet.inspect(path)
            print(f"{_shown(path)}  ({vs.parquet._parquet_file(path).metadata.num_rows} rows)")
            for info in infos:
                if not info.is_variant:
                    continue
                note = "VARIANT(1)" if info.annotated else "not annotated"
                print(f"  column {info.name}: {info.layout}, {note}")
                if info.layout == "shredded":
                    raw = vs.parquet.read_table(path, [info.name], shredded=True)[info.name]
                    lines: list[str] = []
                    _count_tree(raw, "$", lines, "    ")
                    print("\n".join(lines))
        except BrokenPipeError:  # output piped into `head`: main() stops quietly
            raise
        except (ValueError, OSError, TypeError, NotImplementedError) as e:
            return _fail(str(e))
    return 0


# ----------------------------------------------------------------------------
# to-json, get


def cmd_to_json(args) -> int:
    """One line per row: with one column, a Variant one, the row's document as Spark's
    ``to_json`` prints it (so ``shred`` then ``to-json`` gives back the documents); else
    an object of the columns, Variant columns as their JSON, in Spark's compact form."""
    with _input(args.input) as source, _output(args.output) as out:
        # The text is made on the scan's workers, so it runs in parallel too, straight
        # from each file's shredded columns.
        _, chunks = vs.parquet._scan(
            source, None, 65536, False, "error", None, args.threads, None, None,
            transform=functools.partial(json_lines, timezone=args.timezone), as_stored=True)
        for chunk in chunks:
            for buffer in chunk:
                out.write(buffer)
    return 0


def json_lines(table: pa.Table, schema: pa.Schema, timezone: str = "UTC") -> list:
    """``table``'s rows as JSON lines (see cmd_to_json), as buffers to write in order;
    ``schema`` tells which columns are Variant (``table`` may hold them shredded);
    timestamps print in ``timezone``, as Spark's in its session time zone. The
    C++ kernels print Variant columns without the GIL, objects in key order as
    ``read_table`` rebuilds them (``sort_keys``: DuckDB writes unsorted field ids)."""
    if not table.num_rows:
        return []
    variant = [vs.parquet.is_variant_type(f.type) for f in schema]
    if len(variant) == 1 and variant[0]:
        return _kernels.to_json_lines(table.column(0), timezone,
                                      _kernels.ON_CONFLICT["error"], True)
    texts = []
    for is_variant, col in zip(variant, table.columns):
        if not is_variant:
            try:  # printed as its Variant is (Spark's cast to variant): valid JSON
                col = vs.from_arrow(col)
            except TypeError:  # a type Variant cannot hold (a duration): Python's text
                texts.append(pa.array([json.dumps(v, default=str, ensure_ascii=False,
                                                  separators=(",", ":"))
                                       for v in col.to_pylist()], pa.string()))
                continue
        texts.append(pc.fill_null(
            _kernels.to_json(col, timezone, _kernels.ON_CONFLICT["error"], True), "null"))
    parts: list = []
    for i, (f, text) in enumerate(zip(schema, texts)):
        parts += [("{" if i == 0 else ",") + json.dumps(f.name, ensure_ascii=False) + ":",
                  text]
    lines = pc.binary_join_element_wise(*parts, "}", "")
    # One string of the lines, each ending in a newline (the empty last one adds it).
    # Large strings: the text of a row group may pass 2 GiB.
    lines = pa.concat_arrays([c.cast(pa.large_string()) for c in (
        lines.chunks if isinstance(lines, pa.ChunkedArray) else [lines])]
        + [pa.array([""], pa.large_string())])
    one = pa.LargeListArray.from_arrays(pa.array([0, len(lines)], pa.int64()), lines)
    return [pc.binary_join(one, pa.scalar("\n", pa.large_string()))[0].as_buffer()]


def cmd_get(args) -> int:
    with _input(args.input) as source:
        column = args.column
        if column is None:
            files = vs.dataset.files(source)
            names = list(dict.fromkeys(c.name for f in files for c in vs.parquet.inspect(f)
                                       if c.is_variant))
            if not names:
                return _fail(f"{args.input}: no Variant column")
            column = names[0]
        # Reads only the column chunks the path needs (typed leaf, residuals).
        values = vs.parquet.read_paths(source, column, {args.path: args.type},
                                       threads=args.threads,
                                       timezone=args.timezone).column(0)
        # One JSON value per line, whatever the text holds (a string's newlines are
        # escaped); a missing path or SQL NULL is null.
        texts = vs.to_json(values if args.type is None else vs.from_arrow(values),
                           timezone=args.timezone)
        out = sys.stdout
        for v in texts.to_pylist():
            out.write("null\n" if v is None else f"{v}\n")
    return 0


_TIMEZONE_HELP = ("the session time zone, as Spark's spark.sql.session.timeZone: "
                  "timestamps print and cast in it (default UTC)")


# ----------------------------------------------------------------------------
# demo: the main job


def sample_events(n: int, seed: int = 7) -> list[str]:
    """Event documents with nested objects, arrays and type drift."""
    rng = random.Random(seed)
    kinds = ["click", "view", "purchase", "signup"]
    out = []
    for i in range(n):
        doc = {"id": i, "kind": rng.choice(kinds),
               "user": {"name": f"user_{rng.randrange(1000)}",
                        "score": round(rng.uniform(0, 100), 2)},
               "tags": rng.sample(["red", "green", "blue", "new", "vip"], rng.randrange(4))}
        r = rng.random()
        if r < 0.05:
            doc["id"] = f"legacy-{i}"            # drift: a string id
        elif r < 0.08:
            doc["extra"] = {"campaign": rng.randrange(50)}  # residual field
        elif r < 0.10:
            doc["user"] = "anonymous"            # drift: not an object
        out.append(json.dumps(doc))
    return out


def cmd_shred(args) -> int:
    from varshred.pipeline import JobError, ShredJob, summary_text

    job = ShredJob(args.input, args.output, schema=args.schema, master=args.master,
                   remote=args.remote,
                   input_format=args.format, column=args.column,
                   json_columns=[c.strip() for cs in args.json_column for c in cs.split(",")
                                 if c.strip()],
                   errors=args.errors, mode=args.mode, compression=args.compression,
                   sample_rows=args.sample_rows, sample_bytes=args.sample_bytes, progress=sys.stderr.isatty(),
                   spark_conf=dict(_key_value(c) for c in args.conf))
    try:
        summary = job.run()
    except JobError as e:
        return _fail(str(e))
    if summary is None:
        print(f"{args.output} exists: nothing written (--mode ignore)")
        return 0
    print(summary_text(summary))
    return 0


def _size(text: str) -> int:
    """A byte count: a number with an optional K, M or G (powers of 1024)."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    t = text.strip().upper().removesuffix("B")
    unit = t[-1:] if t[-1:] in units else ""
    try:
        value = int(t[:len(t) - len(unit)])
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size such as 64M, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a size such as 64M, got {text!r}")
    return value * units[unit]


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"--conf: expected KEY=VALUE, got {text!r}")
    return key.strip(), value


def cmd_demo(args) -> int:
    from varshred.pipeline import ShredJob, spark_session, summary_text

    work = args.dir or tempfile.mkdtemp(prefix="varshred-demo-")
    os.makedirs(work, exist_ok=True)
    source = os.path.join(work, "events.jsonl")
    output = os.path.join(work, "events_shredded")
    with open(source, "w", encoding="utf-8") as f:
        f.write("\n".join(sample_events(args.rows)) + "\n")
    print(f"generated {args.rows} sample events in {source}")
    print(f"$ varshred shred {source} {output} --schema infer --column event")

    spark = spark_session(args.master)
    summary = ShredJob(source, output, schema="infer", column="event", mode="overwrite",
                       progress=sys.stderr.isatty()).run(spark)
    print(summary_text(summary))

    print("Spark reads the result back:")
    df = spark.read.parquet(output)
    print(f"      the column's type: {df.schema['event'].dataType.simpleString()}")
    df.createOrReplaceTempView("events")
    for sql in [
        "select count(*) as rows from events",
        "select variant_get(event, '$.kind', 'string') as kind, count(*) as n "
        "from events group by 1 order by 1",
        "select round(avg(try_variant_get(event, '$.user.score', 'double')), 2) as avg_score "
        "from events",
        "select count(*) as string_ids from events "
        "where try_variant_get(event, '$.id', 'bigint') is null",
    ]:
        print(f"      > {sql}")
        for row in df.sparkSession.sql(sql).collect():
            print(f"        {row.asDict()}")

    print(f"$ varshred inspect {summary.files[0]}")
    code = cmd_inspect(argparse.Namespace(path=summary.files[0]))
    spark.stop()
    return code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="varshred", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("shred", help="JSON lines or Parquet -> shredded Parquet on Spark")
    p.add_argument("input", help="JSON-lines or Parquet file, directory or glob")
    p.add_argument("output", help="output directory")
    p.add_argument("--schema", default="infer",
                   help='"infer" (one schema from a sample pass, the default), "per-file", '
                        '"none", a DDL such as "id bigint, tags array<string>", or a JSON '
                        'object {column: DDL}')
    p.add_argument("--master", default=None,
                   help="Spark master (default local[*]; spark-submit's when submitted)")
    p.add_argument("--remote", default=None, metavar="sc://HOST:PORT",
                   help="run on a Spark Connect server instead of a local driver")
    p.add_argument("--format", default="auto", choices=["auto", "json", "parquet"])
    p.add_argument("--column", default="data",
                   help="name of the Variant column for JSON-lines input (default data)")
    p.add_argument("--json-column", action="append", default=[],
                   help="Parquet input: a JSON string column to parse into Variant "
                        "(repeat or comma-separate)")
    p.add_argument("--errors", default="raise", choices=["raise", "null"],
                   help="invalid JSON: fail naming file and line (default) or write NULL "
                        "and count")
    p.add_argument("--mode", default="error",
                   choices=["error", "overwrite", "append", "ignore"])
    p.add_argument("--compression", default="zstd")
    p.add_argument("--sample-rows", type=int, default=100_000,
                   help="rows the schema inference samples (0: all)")
    p.add_argument("--sample-bytes", type=_size, default=DEFAULT_SAMPLE_BYTES, metavar="SIZE",
                   help="bytes of input the schema inference samples at most, e.g. 64M or "
                        "1G (default 128M; 0: no bound): bounds the driver's memory")
    p.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                   help="a Spark setting, e.g. spark.archives=env.tar.gz#environment")
    p.set_defaults(fn=cmd_shred)
    p = sub.add_parser("demo", help="run the sample pipeline on local Spark")
    p.add_argument("--rows", type=int, default=20000)
    p.add_argument("--master", default="local[2]")
    p.add_argument("--dir", help="working directory (default: a new temporary one)")
    p.set_defaults(fn=cmd_demo)
    p = sub.add_parser("inspect", help="shredding layout of Variant columns")
    p.add_argument("path", help="Parquet file, directory or glob; - for standard input")
    p.set_defaults(fn=cmd_inspect)
    p = sub.add_parser("to-json", help="rows -> JSON lines (one Variant column: its documents)")
    p.add_argument("input", help="Parquet file, directory or glob; - for standard input")
    p.add_argument("output", nargs="?", default="-", help="file, or - for standard output "
                   "(the default)")
    p.add_argument("--threads", type=int, default=None,
                   help="files and row groups decoded in parallel (default: the CPU count)")
    p.add_argument("--timezone", default="UTC", help=_TIMEZONE_HELP)
    p.set_defaults(fn=cmd_to_json)
    p = sub.add_parser("get", help="one path of every row, a JSON value per line")
    p.add_argument("input", help="Parquet file, directory or glob; - for standard input")
    p.add_argument("path", help="a Spark path: $.a.b, $.a[0], $['k']")
    p.add_argument("--type", default=None,
                   help="cast to this Spark type (try_variant_get); default: the Variant")
    p.add_argument("--column", default=None)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--timezone", default="UTC", help=_TIMEZONE_HELP)
    p.set_defaults(fn=cmd_get)
    args = parser.parse_args(argv)
    try:
        return args.fn(args)
    except BrokenPipeError:  # output piped into `head`: stop quietly, as other tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError, TypeError, KeyError, NotImplementedError,
            argparse.ArgumentTypeError) as e:
        message = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        return _fail(str(message).splitlines()[0] if str(message) else type(e).__name__)


def run() -> None:
    """The installed command and ``python -m varshred``: :func:`main`, then the process
    ends without tearing the interpreter down. By then the command has closed and
    committed everything it wrote; the teardown (pyspark's, py4j's, pandas', numpy's
    and pyarrow's modules) took 0.08-0.1 s after every ``varshred shred`` on 2 cores,
    a tenth of the work after Spark is up. PySpark's JVM sees its input close and shuts
    down as before (deleting its temporary directories); no C++ static destructor runs,
    so libarrow's S3 client, finalized at a normal exit, needs no finalizing either.
    An exception leaves through the usual exit."""
    code = main()
    try:
        sys.stdout.flush()
    except OSError:  # as Python's own exit when standard output cannot be flushed
        code = 120
    sys.stderr.flush()
    logging.shutdown()
    os._exit(code)


if __name__ == "__main__":
    run()
