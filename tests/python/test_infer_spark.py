# Licensed under the Apache License, Version 2.0.
"""Inference against Spark's own heuristic on the same data (issue 6): Spark infers a
shredding schema from about the first 4096 rows of each file and gives up on the whole
file when one of those rows is not an object; varshred uses its whole sample, shreds
the dominant shape and leaves the rest residual."""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pytest

import varshred as vs
from varshred.pipeline import ShredJob

pytestmark = pytest.mark.spark


def _drifting_documents(n=12000, arrays=(100, 5000, 9000)):
    """Objects whose shape changes after row 4096, with a few top-level arrays."""
    docs = []
    for i in range(n):
        if i in arrays:
            docs.append(json.dumps([i, "not an object"]))
        elif i < 4096:
            docs.append(json.dumps({"id": i, "name": f"n{i}"}))
        else:  # drift: "name" disappears, "user" and "amount" appear
            docs.append(json.dumps({"id": i, "user": {"uid": i * 7, "tier": "gold"},
                                    "amount": i % 1000}))
    return docs


def _typed_counts(array: pa.Array, prefix="$", out=None) -> dict:
    """Per scalar path, how many values sit in a typed_value column (not in value)."""
    out = {} if out is None else out
    t = array.type
    if t.get_field_index("typed_value") < 0:
        return out
    typed = array.field("typed_value")
    valid = pa.compute.and_(array.is_valid(), typed.is_valid()) if array.null_count \
        else typed.is_valid()
    if pa.types.is_struct(typed.type):
        for f in typed.type:
            child = typed.field(f.name).filter(valid)
            _typed_counts(child, f"{prefix}.{f.name}", out)
    elif pa.types.is_list(typed.type) or pa.types.is_large_list(typed.type):
        _typed_counts(typed.filter(valid).flatten(), prefix + "[]", out)
    else:
        out[prefix] = out.get(prefix, 0) + int(pa.compute.sum(valid.cast(pa.int64())).as_py()
                                               or 0)
    return out


def _file_typed_counts(directory: str, column: str) -> dict:
    counts: dict = {}
    for f in sorted(os.listdir(directory)):
        if not f.endswith(".parquet"):
            continue
        path = os.path.join(directory, f)
        layout = [c.layout for c in vs.parquet.inspect(path) if c.name == column][0]
        if layout == "shredded":
            raw = vs.parquet.read_table(path, [column], shredded=True)[column]
            _typed_counts(raw.combine_chunks(), "$", counts)
    return counts


@pytest.mark.parametrize("with_arrays", [True, False])
def test_whole_sample_beats_sparks_first_rows(spark, tmp_path, with_arrays):
    docs = _drifting_documents(arrays=(100, 5000, 9000) if with_arrays else ())
    source = tmp_path / "drift.jsonl"
    source.write_text("\n".join(docs) + "\n")

    # Spark's own shredded write of the same data (its defaults shred), one file.
    spark_out = str(tmp_path / "spark")
    (spark.read.text(str(source)).coalesce(1).selectExpr("parse_json(value) as data")
     .write.parquet(spark_out))
    spark_counts = _file_typed_counts(spark_out, "data")

    ours_out = str(tmp_path / "varshred")
    summary = ShredJob(str(source), ours_out, schema="infer", sample_rows=0,
                       log=lambda _: None).run(spark)
    ours = _file_typed_counts(ours_out, "data")

    late = len(docs) - 4096 - (2 if with_arrays else 0)
    # varshred types every late value, and "id" in every object row.
    assert ours["$.user.uid"] == late
    assert ours["$.user.tier"] == late
    assert ours["$.amount"] == late
    assert ours["$.id"] == len(docs) - (3 if with_arrays else 0)
    if with_arrays:
        # One array among Spark's first rows: Spark writes the whole file unshredded.
        assert spark_counts == {}
    else:
        # Spark shreds what the first 4096 rows show and nothing that came later.
        assert spark_counts.get("$.id") == len(docs)
        assert "$.user.uid" not in spark_counts and "$.amount" not in spark_counts
    assert sum(ours.values()) > 2 * sum(spark_counts.values())
    # Both files read back to the same documents.
    ours_json = sorted(r.j for r in spark.read.parquet(ours_out)
                       .selectExpr("to_json(data) as j").collect())
    spark_json = sorted(r.j for r in spark.read.parquet(spark_out)
                        .selectExpr("to_json(data) as j").collect())
    assert ours_json == spark_json
    # The summary's table is the same count the files hold.
    uid_line = next(line for line in summary.report().splitlines()
                    if line.split()[:1] == ["user.uid"])
    assert uid_line.split()[1:] == ["int64", str(late), "0", "100.0%"]


def test_the_job_sample_of_a_dataframe_spreads_over_all_of_it(spark, tmp_path):
    # One partition whose shape drifts after row 4096: a sample of 500 rows taken from
    # its head would never see "user"; one spread over the whole input does, and the
    # Python side is sent about the rows it counts, not the whole partition.
    source = tmp_path / "drift.jsonl"
    source.write_text("\n".join(_drifting_documents(arrays=())) + "\n")
    df = spark.read.text(str(source)).selectExpr("parse_json(value) AS v").coalesce(1)
    stats = vs.spark.sample_stats(df, sample_rows=500)["v"]
    assert 400 <= stats.rows <= 600
    ddl = vs.spark.infer_schema(df, sample_rows=500)["v"].to_ddl()
    assert "user: struct<" in ddl and "amount:" in ddl, ddl
    assert vs.spark.sample_stats(df, sample_rows=0)["v"].rows == 12000
    assert vs.spark.sample_stats(df.limit(0))["v"].rows == 0
