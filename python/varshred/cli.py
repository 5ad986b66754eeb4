# Licensed under the Apache License, Version 2.0.
"""The ``varshred`` command (also ``python -m varshred``).

    varshred demo                      sample events -> shredded Parquet on local Spark
    varshred inspect FILE_OR_DIR       shredding layout of each Variant column
    varshred to-json INPUT OUTPUT      Variant columns of Parquet files -> JSON lines
    varshred get INPUT PATH [--type T] one path of every row
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time

import pyarrow as pa
import pyarrow.parquet as pq

import varshred as vs

DEMO_SCHEMA = ("struct<id: bigint, kind: string, user: struct<name: string, score: decimal(9,2)>, "
               "tags: array<string>>")


def _files(path: str) -> list[str]:
    if os.path.isdir(path):
        return [os.path.join(r, f) for r, _, fs in sorted(os.walk(path)) for f in sorted(fs)
                if f.endswith(".parquet") and not f.startswith(("_", "."))]
    return [path]


def _fail(message: str) -> int:
    print(f"varshred: error: {message}", file=sys.stderr)
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
    n = pa.compute.sum(valid.cast(pa.int64())).as_py() or 0
    n_typed = (pa.compute.sum(pa.compute.and_(valid, typed.is_valid()).cast(pa.int64())).as_py()
               if typed is not None else 0) or 0
    n_value = (pa.compute.sum(pa.compute.and_(valid, value.is_valid()).cast(pa.int64())).as_py()
               if value is not None else 0) or 0
    missing = n - (pa.compute.sum(pa.compute.and_(valid, pa.compute.or_(
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
    for path in _files(args.path):
        try:
            infos = vs.parquet.inspect(path)
        except (vs.VariantError, OSError) as e:
            return _fail(str(e))
        print(f"{path}  ({pq.ParquetFile(path).metadata.num_rows} rows)")
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
    return 0


# ----------------------------------------------------------------------------
# to-json, get


def cmd_to_json(args) -> int:
    with open(args.output, "w", encoding="utf-8") as out:
        for path in _files(args.input):
            try:
                for batch in vs.parquet.iter_batches(path):
                    columns = {}
                    for i, f in enumerate(batch.schema):
                        col = batch.column(i)
                        columns[f.name] = (vs.to_json(col).to_pylist()
                                           if vs.parquet.is_variant_type(f.type) else None)
                    for r in range(batch.num_rows):
                        row = {}
                        for i, f in enumerate(batch.schema):
                            j = columns[f.name]
                            row[f.name] = (json.loads(j[r]) if j is not None and j[r] is not None
                                           else None if j is not None
                                           else batch.column(i)[r].as_py())
                        out.write(json.dumps(row, default=str) + "\n")
            except (vs.VariantError, OSError) as e:
                return _fail(f"{path}: {e}")
    return 0


def cmd_get(args) -> int:
    for path in _files(args.input):
        try:
            infos = [i for i in vs.parquet.inspect(path) if i.is_variant]
            column = args.column or (infos[0].name if infos else None)
            if column is None:
                return _fail(f"{path}: no Variant column")
            p = args.path if args.path.startswith("$") else "$." + args.path
            table = vs.parquet.read_table(path, [column])
            values = vs.variant_get(table[column], p, args.type, errors="null")
            if args.type is None:
                values = vs.to_json(values)
            for v in values.to_pylist():
                print(v)
        except (vs.VariantError, OSError, ValueError) as e:
            return _fail(f"{path}: {e}")
    return 0


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


def local_spark(master: str = "local[2]"):
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master(master).appName("varshred")
             .config("spark.ui.enabled", "false")
             .config("spark.driver.bindAddress", "127.0.0.1")
             .config("spark.driver.host", "127.0.0.1")
             .config("spark.sql.shuffle.partitions", "2")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("OFF")
    return spark


def cmd_demo(args) -> int:
    work = args.dir or tempfile.mkdtemp(prefix="varshred-demo-")
    os.makedirs(work, exist_ok=True)
    source = os.path.join(work, "events.jsonl")
    output = os.path.join(work, "events_shredded")
    with open(source, "w", encoding="utf-8") as f:
        f.write("\n".join(sample_events(args.rows)) + "\n")
    print(f"[1/4] generated {args.rows} sample events in {source}")

    start = time.time()
    spark = local_spark(args.master)
    vs.spark.register(spark)
    print(f"[2/4] local Spark {spark.version} ready ({time.time() - start:.1f} s)")

    start = time.time()
    lines = spark.read.text(source).withColumnRenamed("value", "json")
    events = vs.spark.parse_json(lines, "json", output="event").select("event")
    (events.write.format("varshred").option("shredding", DEMO_SCHEMA)
     .mode("overwrite").save(output))
    files = _files(output)
    size = sum(os.path.getsize(f) for f in files)
    print(f"[3/4] shredded with varshred on Spark: {len(files)} files, {size} bytes, "
          f"{time.time() - start:.1f} s -> {output}")

    df = spark.read.parquet(output)
    print(f"      Spark reads the column as: {df.schema['event'].dataType.simpleString()}")
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

    print("[4/4] layout of the written files:")
    args.path = output
    code = cmd_inspect(argparse.Namespace(path=files[0]))
    spark.stop()
    return code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="varshred", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("demo", help="run the sample pipeline on local Spark")
    p.add_argument("--rows", type=int, default=20000)
    p.add_argument("--master", default="local[2]")
    p.add_argument("--dir", help="working directory (default: a new temporary one)")
    p.set_defaults(fn=cmd_demo)
    p = sub.add_parser("inspect", help="shredding layout of Variant columns")
    p.add_argument("path")
    p.set_defaults(fn=cmd_inspect)
    p = sub.add_parser("to-json", help="Variant columns -> JSON lines")
    p.add_argument("input")
    p.add_argument("output")
    p.set_defaults(fn=cmd_to_json)
    p = sub.add_parser("get", help="one path of every row")
    p.add_argument("input")
    p.add_argument("path")
    p.add_argument("--type", default=None)
    p.add_argument("--column", default=None)
    p.set_defaults(fn=cmd_get)
    args = parser.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
