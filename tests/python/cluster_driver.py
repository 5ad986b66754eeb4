# Licensed under the Apache License, Version 2.0.
"""The driver program of tests/python/test_spark_cluster.py, run in its own process (one
driver JVM for the whole test) in a working directory holding ``in/`` and ``in2/``:

    python cluster_driver.py spark://127.0.0.1:PORT

1. ``varshred shred in out --master URL`` through the CLI's own entry point, on relative
   paths (the executors run in other directories);
2. the same on ``in2`` -> ``out2`` while the test kills a worker (it watches for the job's
   staging directory);
3. Spark reads ``out`` back: its own Parquet reader, and the varshred data source with a
   pushed filter.

Prints one JSON object per step on stdout, prefixed with ``RESULT``."""

from __future__ import annotations

import json
import sys

from varshred import cli
from varshred.pipeline import spark_session

import varshred as vs


def report(step: str, **values) -> None:
    print("RESULT " + json.dumps({"step": step, **values}), flush=True)


def main(url: str) -> None:
    conf = ["--conf", "spark.executor.memory=512m", "--conf", "spark.driver.memory=512m",
            "--conf", "spark.task.maxFailures=4", "--sample-rows", "20000"]
    report("shred", code=cli.main(["shred", "in", "out", "--master", url, *conf]))
    report("shred_killed", code=cli.main(["shred", "in2", "out2", "--master", url, *conf]))

    spark = spark_session(url)  # the session the CLI started
    df = spark.read.parquet("out")
    ids = df.selectExpr("variant_get(data, '$.id', 'bigint') as id").collect()
    vs.spark.register(spark)
    def paths():  # a fresh load() per query (docs/cluster.md#pushdown)
        return (spark.read.format("varshred").option("variant_paths", "id:bigint,kind:string")
                .option("prune", "true").option("max_partition_bytes", "1").load("out"))

    hit = paths().where("id = 4242")
    report("read_back", type=df.schema["data"].dataType.simpleString(),
           ids=sorted(r.id for r in ids), hit=[tuple(r) for r in hit.collect()],
           groups=paths().rdd.getNumPartitions(), groups_read=hit.rdd.getNumPartitions())
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1])
