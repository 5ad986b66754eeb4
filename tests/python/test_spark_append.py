# Licensed under the Apache License, Version 2.0.
"""``--mode append`` onto an existing dataset whose documents drifted: the dataset stays
readable (by Spark and varshred), and the summary says how the new files' inferred
shredding differs from the existing files' (paths added, dropped, retyped)."""

from __future__ import annotations

import json

import pytest

import varshred as vs
from varshred.pipeline import ShredJob, summary_text

pytestmark = pytest.mark.spark


def _lines(path, docs):
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return str(path)


def test_append_after_drift_is_readable_and_reported(spark, tmp_path):
    old = [{"id": i, "name": f"n{i}", "score": i % 7} for i in range(300)]
    new = [{"id": f"x{i}", "name": f"m{i}", "tags": ["a", "b"][: i % 3]} for i in range(200)]
    out = str(tmp_path / "out")
    first = ShredJob(_lines(tmp_path / "old.jsonl", old), out, log=lambda _: None).run(spark)
    assert first.drift is None
    summary = ShredJob(_lines(tmp_path / "new.jsonl", new), out, mode="append",
                       log=lambda _: None).run(spark)
    assert summary.drift == {"files": len(first.files), "columns": {"data": {
        "added": ["tags", "tags[]"], "dropped": ["score"],
        "retyped": [("id", ["int64"], ["string"])]}}}
    text = summary_text(summary)
    assert "paths added:   tags, tags[]" in text
    assert "paths dropped: score" in text
    assert "path retyped:  id: int64 -> string" in text

    # Readable as one dataset: Spark over the directory, varshred file by file.
    back = [json.loads(r[0]) for r in
            spark.read.parquet(out).selectExpr("to_json(data)").collect()]
    assert sorted(back, key=json.dumps) == sorted(old + new, key=json.dumps)
    files = vs.spark._part_files(out)
    assert len(files) == len(first.files) + len(summary.files)
    mine = []
    for f in files:
        mine += [json.loads(s) for s in vs.to_json(vs.parquet.read_table(f)["data"]).to_pylist()]
    assert sorted(mine, key=json.dumps) == sorted(old + new, key=json.dumps)

    # The same schema again: said so.
    again = ShredJob(_lines(tmp_path / "new2.jsonl", new[:50]), out, mode="append",
                     schema=summary.schemas["data"], log=lambda _: None).run(spark)
    assert again.drift["columns"]["data"]["dropped"] == ["score"]  # against every file
    assert "the new files' shredding schema differs" in summary_text(again)


def test_append_through_the_data_source_reports_drift(spark, tmp_path):
    out = str(tmp_path / "out")
    df1 = spark.sql("select parse_json(to_json(named_struct('a', id))) as v from range(50)")
    df2 = spark.sql("select parse_json(to_json(named_struct('a', cast(id as string)))) as v "
                    "from range(50)")
    vs.spark.write(df1, out)
    summary = vs.spark.write(df2, out, mode="append")
    assert summary.drift["columns"] == {"v": {"added": [], "dropped": [],
                                              "retyped": [("a", ["int64"], ["string"])]}}
    assert spark.read.parquet(out).count() == 100
