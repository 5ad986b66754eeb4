# Licensed under the Apache License, Version 2.0.
"""Typed Arrow <-> Variant, rows/s: vs.from_arrow against vs.from_python and Spark's
to_variant_object, vs.to_arrow against Spark's cast(v as struct<...>), on the same
generated rows, in one run.

    .venv/bin/python bench/python/arrow_types_bench.py [--rows 200000] [--master local[2]]

Each contender runs once untimed (a warm JVM and caches), then ``--repeat`` times; the
best time counts. varshred runs single-threaded on one Arrow table; Spark evaluates the
same expressions over a cached DataFrame and writes to the ``noop`` sink, so only the
conversion is timed.
"""

from __future__ import annotations

import argparse
import datetime
import decimal
import random
import time

import pyarrow as pa

import varshred as vs

TYPE = pa.struct([("id", pa.int64()), ("name", pa.string()), ("score", pa.float64()),
                  ("price", pa.decimal128(9, 2)), ("ts", pa.timestamp("us", "UTC")),
                  ("tags", pa.list_(pa.string())),
                  ("user", pa.struct([("age", pa.int32()), ("vip", pa.bool_())]))])
SPARK_TYPE = ("struct<id: bigint, name: string, score: double, price: decimal(9,2), "
              "ts: timestamp, tags: array<string>, user: struct<age: int, vip: boolean>>")


def rows(n: int, seed: int = 1) -> pa.Table:
    rng = random.Random(seed)
    base = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    data = [{"id": i, "name": f"user{rng.randrange(10**6)}", "score": rng.random() * 100,
             "price": decimal.Decimal(rng.randrange(10**7)).scaleb(-2),
             "ts": base + datetime.timedelta(seconds=rng.randrange(10**7)),
             "tags": [rng.choice("abcdef") * 3 for _ in range(rng.randrange(4))],
             "user": {"age": rng.randrange(90), "vip": rng.random() < 0.1}}
            for i in range(n)]
    return pa.Table.from_struct_array(pa.array(data, TYPE))


def best(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-spark", action="store_true")
    args = ap.parse_args()

    table = rows(args.rows)
    struct = table.to_struct_array()
    objects = struct.to_pylist()
    variants = vs.from_arrow(struct)
    results = {
        "vs.from_arrow": best(lambda: vs.from_arrow(struct), args.repeat),
        "vs.from_python": best(lambda: vs.from_python(objects), args.repeat),
        "vs.to_arrow": best(lambda: vs.to_arrow(variants, TYPE), args.repeat),
        "vs.to_arrow errors=raise": best(lambda: vs.to_arrow(variants, TYPE, errors="raise"),
                                         args.repeat),
    }
    if not args.no_spark:
        from pyspark.sql import SparkSession

        spark = (SparkSession.builder.master(args.master).appName("arrow-types-bench")
                 .config("spark.ui.enabled", "false")
                 .config("spark.sql.session.timeZone", "UTC")
                 .config("spark.driver.memory", "3g").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        df = spark.createDataFrame(table).cache()
        df.count()
        fields = ", ".join(f"'{f.name}', {f.name}" for f in TYPE)
        spark_variants = df.selectExpr(f"to_variant_object(named_struct({fields})) as v")
        spark_variants = spark_variants.cache()
        spark_variants.count()

        def noop(frame):
            frame.write.format("noop").mode("overwrite").save()

        results["Spark to_variant_object"] = best(
            lambda: noop(df.selectExpr(f"to_variant_object(named_struct({fields})) as v")),
            args.repeat)
        results["Spark try_cast(v as struct)"] = best(
            lambda: noop(spark_variants.selectExpr(f"try_cast(v as {SPARK_TYPE}) as s")),
            args.repeat)
        results["Spark cast(v as struct)"] = best(
            lambda: noop(spark_variants.selectExpr(f"cast(v as {SPARK_TYPE}) as s")),
            args.repeat)
        spark.stop()

    print(f"{args.rows} rows of {TYPE}")
    for name, seconds in results.items():
        print(f"{name:32s} {args.rows / seconds:>14,.0f} rows/s  ({seconds:.3f} s)")


if __name__ == "__main__":
    main()
