# Licensed under the Apache License, Version 2.0.
"""JSON lines -> shredded Parquet in one process: varshred's two writer paths against
pyarrow peers and against DuckDB's and Spark's own shredded Variant writers, measured in
the same run, plus the bytes a one-path projection reads against a full read.

    .venv/bin/python bench/python/parquet_write_bench.py [--rows 500000] [--no-engines]

DuckDB (``pip install duckdb``) and Spark (local[2], JVM warmed up first) are skipped
when not installed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time

import pyarrow as pa
import pyarrow.json as pajson
import pyarrow.parquet as pq

import varshred as vs

SCHEMA = ("struct<id: bigint, name: string, score: decimal(9,2), tags: array<string>, "
          "nested: struct<x: bigint, flag: boolean>>")


def events(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [json.dumps({"id": i, "name": f"user_{i}", "score": round(rng.uniform(0, 10), 1),
                        "tags": ["a", "b"][: rng.randrange(3)],
                        "nested": {"x": rng.randrange(100), "flag": rng.random() < 0.5}})
            for i in range(n)]


def best_of(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def engine_writers(jsonl: str, strings: pa.Array, work: str) -> dict:
    """DuckDB's and Spark's own JSON -> shredded Variant Parquet writes (their default
    shredding), when installed."""
    out = {}
    try:
        import duckdb
    except ImportError:
        print("  (duckdb not installed: skipped)")
    else:
        con = duckdb.connect()
        con.register("docs", pa.table({"json": strings}))
        target = os.path.join(work, "duckdb.parquet")
        out[f"DuckDB {duckdb.__version__} json::VARIANT -> COPY parquet"] = best_of(
            lambda: con.execute(f"COPY (SELECT json::JSON::VARIANT AS v FROM docs) TO "
                                f"'{target}' (FORMAT parquet, COMPRESSION zstd)"))
    try:
        from varshred.pipeline import spark_session
        spark = spark_session("local[2]")
    except ImportError:
        print("  (pyspark not installed: skipped)")
    else:
        target = os.path.join(work, "spark")

        def spark_write():
            (spark.read.text(jsonl).selectExpr("parse_json(value) as v").write
             .mode("overwrite").option("compression", "zstd").parquet(target))

        spark_write()  # warm the JVM and the code paths
        out[f"Spark {spark.version} local[2] parse_json -> parquet"] = best_of(spark_write)
        spark.stop()
    return out


def encoding_floor(path: str, work: str) -> tuple[float, int]:
    """The Parquet work any writer of the shredded file at ``path`` pays: its columns,
    read back as plain Arrow structs (typed values already apart, nothing to validate
    or shred), written by pyarrow with the encodings varshred chose. Returns the best
    time and the bytes written."""
    plain = pq.read_table(path)
    md = pq.ParquetFile(path).metadata
    dictionary, encodings = [], {}
    for c in range(md.num_columns):
        chunk = md.row_group(0).column(c)
        if "RLE_DICTIONARY" in chunk.encodings or "PLAIN_DICTIONARY" in chunk.encodings:
            dictionary.append(chunk.path_in_schema)
        elif "DELTA_BINARY_PACKED" in chunk.encodings:
            encodings[chunk.path_in_schema] = "DELTA_BINARY_PACKED"
    out = os.path.join(work, "floor.parquet")

    def run():
        pq.write_table(plain, out, compression="zstd", use_dictionary=dictionary,
                       column_encoding=encodings, row_group_size=md.num_rows)
    return best_of(run), os.path.getsize(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=500_000)
    ap.add_argument("--no-engines", action="store_true",
                    help="skip the DuckDB and Spark writers")
    args = ap.parse_args()
    docs = events(args.rows)
    strings = pa.array(docs)
    work = tempfile.mkdtemp(prefix="varshred-bench-")
    jsonl = os.path.join(work, "events.jsonl")
    with open(jsonl, "w") as f:
        f.write("\n".join(docs) + "\n")
    schema = vs.ShreddingSchema.parse(SCHEMA)

    lists = pa.array([[i] * (i % 4) for i in range(len(docs))])

    def varshred(with_list: bool):
        def run():
            v = vs.from_json(strings)
            table = pa.table({"v": v, "l": lists} if with_list else {"v": v})
            name = "with_list.parquet" if with_list else "direct.parquet"
            vs.parquet.write_table(table, os.path.join(work, name), shredding={"v": schema})
        return run

    variants = pa.table({"v": vs.from_json(strings)})
    built = os.path.join(work, "variants.parquet")

    def varshred_variants():  # the values already built (as read from a table): validated
        vs.parquet.write_table(variants, built, shredding={"v": schema})

    def pyarrow_typed():  # peer: pyarrow's JSON reader -> typed columns (no Variant)
        t = pajson.read_json(jsonl)
        pq.write_table(t, os.path.join(work, "typed.parquet"), compression="zstd")

    def pyarrow_strings():  # peer: the JSON text as one string column
        pq.write_table(pa.table({"json": strings}), os.path.join(work, "strings.parquet"),
                       compression="zstd")

    def varshred_json(threads: int):  # vs.parquet.write_json: JSON straight to the columns
        def run():
            vs.parquet.write_json(strings, os.path.join(work, f"json{threads}.parquet"),
                                  shredding=schema, threads=threads)
        return run

    results = {
        "varshred from_json + write_table": best_of(varshred(False)),
        "varshred write_json, 1 thread": best_of(varshred_json(1)),
        "varshred write_json, 2 threads": best_of(varshred_json(2)),
        "varshred JSON -> shredded Parquet + a list column": best_of(varshred(True)),
        "pyarrow read_json -> typed Parquet (peer)": best_of(pyarrow_typed),
        "pyarrow JSON strings -> Parquet (peer)": best_of(pyarrow_strings),
    }
    results["varshred write_table, Variant values built"] = best_of(varshred_variants)
    floor, floor_bytes = encoding_floor(built, work)
    results["pyarrow write_table of the same columns (floor)"] = floor
    if not args.no_engines:
        results.update(engine_writers(jsonl, strings, work))
    base = results["pyarrow read_json -> typed Parquet (peer)"]
    print(f"{args.rows} event rows, zstd, best of 3, one process")
    for name, seconds in results.items():
        print(f"  {name:<48} {args.rows / seconds / 1e6:6.2f} M rows/s   "
              f"{base / seconds:5.2f}x the typed peer")
    direct = results["varshred from_json + write_table"]
    beside = results["varshred JSON -> shredded Parquet + a list column"]
    print(f"  time with a list column beside / without: {beside / direct:.2f}")
    print(f"  Variant values -> shredded Parquet / the floor (Parquet's own encoding of "
          f"the same columns, {floor_bytes} vs {os.path.getsize(built)} bytes): "
          f"{results['varshred write_table, Variant values built'] / floor:.2f}x the time")
    two = results["varshred write_json, 2 threads"]
    for name, seconds in results.items():
        if name.startswith(("DuckDB", "Spark")):
            engine = name.split(" local")[0].split(" json")[0]
            print(f"  varshred from_json+write_table / {engine}: {seconds / direct:.1f}x; "
                  f"write_json 2 threads / {engine}: {seconds / two:.1f}x")

    path = os.path.join(work, "direct.parquet")
    md = pq.ParquetFile(path).metadata
    names = [md.schema.column(i).path for i in range(md.num_columns)]
    total = sum(md.row_group(g).column(c).total_compressed_size
                for g in range(md.num_row_groups) for c in range(md.num_columns))
    cols = vs.parquet._path_columns(path, "v", ["nested", "x"])
    needed = sum(md.row_group(g).column(c).total_compressed_size
                 for g in range(md.num_row_groups) for c in cols.leaves)
    print(f"  projection $.nested.x reads {needed} of {total} bytes "
          f"({needed / total:.1%}): {[names[c] for c in cols.leaves]}")
    t_full = best_of(lambda: vs.parquet.read_table(path))
    t_path = best_of(lambda: vs.parquet.read_paths(path, "v", {"nested.x": "bigint"}))
    print(f"  read_paths one path vs read_table: {t_full / t_path:.1f}x faster")


if __name__ == "__main__":
    main()
