# Licensed under the Apache License, Version 2.0.
"""The client program of tests/python/test_spark_connect.py: varshred's library functions
on a Spark Connect session, in its own process (a classic SparkContext in the test
process and a Connect session do not mix).

    python connect_client.py sc://127.0.0.1:PORT WORKDIR

WORKDIR holds ``events.jsonl``; prints one ``RESULT {json}`` line."""

from __future__ import annotations

import json
import os
import sys

from pyspark.sql import SparkSession

import varshred as vs


def main(url: str, work: str) -> None:
    spark = SparkSession.builder.remote(url).getOrCreate()
    text = spark.read.text(os.path.join(work, "events.jsonl"))
    parsed = vs.spark.parse_json(text, "value", output="v").select("v")
    schemas = vs.spark.infer_schema(parsed)
    out = os.path.join(work, "lib_out")
    summary = vs.spark.write(parsed, out, shredding="infer")
    # A relative path names the client's directory, as `varshred shred --remote`'s.
    os.chdir(work)
    relative = vs.spark.write(parsed.limit(3), "relative_out", shredding="none")
    back = vs.spark.to_json(spark.read.parquet(out), "v").collect()
    shredded = vs.spark.shred(parsed, "v", schemas["v"].to_ddl(), output="s")
    plain = vs.spark.unshred(shredded.select("s"), "s", output="u")
    vs.spark.register(spark)
    hit = (spark.read.format("varshred").option("variant_paths", "id:bigint")
           .load(out).where("id = 7").collect())
    print("RESULT " + json.dumps({
        "connect": type(spark).__module__,
        "schema": schemas["v"].to_ddl(),
        "rows": summary.rows, "files": summary.files,
        "back": sorted(json.loads(r["v"])["id"] for r in back),
        "unshredded": plain.count(),
        "hit": [r["id"] for r in hit],
        "relative": relative.path,
    }), flush=True)
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
