# Licensed under the Apache License, Version 2.0.
"""JSON lines -> shredded Parquet on Spark: Spark's own parse_json + shredded Parquet
write against the varshred pipeline (``varshred shred``), on the same generated
events, in the same SparkSession, in one run.

    .venv/bin/python bench/python/pipeline_bench.py [--rows 1000000] [--master local[2]]

Each contender runs once untimed on a small file (a warm JVM and Python workers),
then ``--repeat`` times on the full file; the best time counts. Every output is read
back by Spark and counted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time

from varshred.cli import sample_events
from varshred.pipeline import ShredJob, spark_session

DDL = ("struct<id: bigint, kind: string, user: struct<name: string, score: decimal(9,2)>, "
       "tags: array<string>>")


def spark_write(spark, source: str, out: str, forced: str | None) -> None:
    """Spark alone: text -> parse_json -> Parquet, shredding inferred per file (Spark's
    default) or forced to a schema."""
    conf = {"spark.sql.variant.writeShredding.enabled": "true",
            "spark.sql.variant.inferShreddingSchema": "false" if forced else "true",
            "spark.sql.variant.forceShreddingSchemaForTest": forced or ""}
    for k, v in conf.items():
        spark.conf.set(k, v)
    try:
        (spark.read.text(source).selectExpr("parse_json(value) as data")
         .write.mode("overwrite").option("compression", "zstd").parquet(out))
    finally:
        for k in conf:
            spark.conf.unset(k)


def varshred_write(spark, source: str, out: str, schema: str) -> None:
    ShredJob(source, out, schema=schema, mode="overwrite", log=lambda _: None).run(spark)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="varshred-pipeline-bench-")
    source, warm = os.path.join(work, "events.jsonl"), os.path.join(work, "warm.jsonl")
    docs = sample_events(args.rows)
    for path, lines in [(source, docs), (warm, docs[:20000])]:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    size = os.path.getsize(source)
    spark = spark_session(args.master)
    content = ("id bigint, kind string, user struct<name: string, score: decimal(9,2)>, "
               "tags array<string>")  # Spark's forced schema: the struct's fields
    contenders = [
        ("spark parse_json + write (inferred)", lambda s, o: spark_write(spark, s, o, None)),
        ("spark parse_json + write (forced)", lambda s, o: spark_write(spark, s, o, content)),
        ("varshred shred --schema infer", lambda s, o: varshred_write(spark, s, o, "infer")),
        ("varshred shred --schema DDL", lambda s, o: varshred_write(spark, s, o, DDL)),
    ]
    print(f"{args.rows} events, {size / 1e6:.1f} MB of JSON lines, Spark {spark.version} "
          f"{args.master}, zstd")
    results = {}
    for name, fn in contenders:
        out = os.path.join(work, "out")
        fn(warm, out)
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            fn(source, out)
            best = min(best, time.perf_counter() - start)
        rows = spark.read.parquet(out).count()
        assert rows == args.rows, (name, rows)
        written = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(out)
                      for f in fs if f.endswith(".parquet"))
        shutil.rmtree(out)
        results[name] = args.rows / best
        print(f"  {name:<40} {best:6.2f} s  {args.rows / best / 1e3:8.0f} k rows/s  "
              f"{written / 1e6:6.1f} MB")
    peer = results["spark parse_json + write (inferred)"]
    for name in ("varshred shred --schema infer", "varshred shred --schema DDL"):
        print(f"  ratio {name} / spark (inferred): {results[name] / peer:.2f}x")
    forced = results["spark parse_json + write (forced)"]
    print(f"  ratio varshred shred --schema DDL / spark (forced): "
          f"{results['varshred shred --schema DDL'] / forced:.2f}x")
    spark.stop()
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
