# Licensed under the Apache License, Version 2.0.
"""Row-group pruning and path reads on files Spark wrote: sound (no pruned row group
holds a matching row) and useful when the top-level residual holds values."""

from __future__ import annotations

import json
import os
import random

import pyarrow.parquet as pq
import pytest

import varshred as vs

pytestmark = pytest.mark.spark


def _doc(rng: random.Random, kind: str, n: int):
    return {
        "typed": {"a": {"b": n}, "user.id": n, "user": {"id": 1000 + n}},
        "extra": {"a": {"b": n, "c": "x"}, "z": n, "user.id": n},   # residuals above b
        "a_scalar": {"a": n, "user": {"id": "no"}},
        "leaf_mismatch": {"a": {"b": n + 0.5}, "user.id": str(n)},
        "top_array": [n],
        "missing": {"q": n},
    }[kind]


def test_pruning_on_spark_files_is_sound_and_prunes(spark, tmp_path):
    rng = random.Random(5)
    kinds = [["typed"], ["typed", "extra"], ["extra", "a_scalar"], ["typed", "top_array"],
             ["leaf_mismatch", "typed"], ["missing", "extra"]]
    rows = []
    for g, ks in enumerate(kinds):  # one Spark partition, hence one file, per group
        base = g * 100
        rows += [(g, json.dumps(_doc(rng, rng.choice(ks), base + rng.randrange(100))))
                 for _ in range(300)]
    out = str(tmp_path / "spark")
    conf = {"spark.sql.variant.writeShredding.enabled": "true",
            "spark.sql.variant.inferShreddingSchema": "false",
            "spark.sql.variant.forceShreddingSchemaForTest":
                "a struct<b bigint>, `user.id` bigint, user struct<id bigint>"}
    for key, value in conf.items():
        spark.conf.set(key, value)
    try:
        df = spark.createDataFrame(rows, "g int, j string")
        (df.repartitionByRange(len(kinds), "g").selectExpr("g", "parse_json(j) as v")
         .write.mode("overwrite").parquet(out))
    finally:
        for key in conf:
            spark.conf.unset(key)
    files = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(".parquet"))
    assert len(files) == len(kinds)
    pruned_with_residual = 0
    for f in files:
        assert [c.layout for c in vs.parquet.inspect(f) if c.is_variant] == ["shredded"]
        full = vs.parquet.read_table(f)["v"]
        md = pq.ParquetFile(f).metadata
        top_value = vs._parquet.leaf_paths(f).index(("v", "value"))
        for p in ("$.a.b", "$['user.id']", "$.user.id"):
            values = vs.variant_get(full, p, "bigint").to_pylist()
            got = vs.parquet.read_paths(f, "v", {p: "bigint"}).column(0).to_pylist()
            assert got == values, (f, p)
            for literal in (-1, 50, 150, 250, 350, 450, 1050, 1250, 5000):
                for op in ("==", "<", ">"):
                    cmp = vs.parquet._OPS[op]
                    for g in vs.parquet.prunable_row_groups(f, "v", p, op, literal):
                        start = sum(md.row_group(i).num_rows for i in range(g))
                        part = values[start:start + md.row_group(g).num_rows]
                        assert not any(x is not None and cmp(x, literal) for x in part), \
                            (f, p, op, literal, g)
                        stats = md.row_group(g).column(top_value).statistics
                        pruned_with_residual += stats.null_count < md.row_group(g).num_rows
    assert pruned_with_residual > 0
