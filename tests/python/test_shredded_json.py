# Licensed under the Apache License, Version 2.0.
"""Shredded columns print as JSON straight from their typed columns (vs.to_json and
``varshred to-json``): the text must be that of the unshredded values, on real tweets
shredded with an inferred schema, with drift, SQL NULLs and conflicts."""

from __future__ import annotations

import json
import subprocess
import sys

import pyarrow as pa
import pytest

import varshred as vs
from conftest import ROOT, skip_or_fail


@pytest.fixture(scope="module")
def tweets() -> list[str]:
    path = ROOT.parent / "shared" / "data" / "twitter.json"
    if not path.exists():
        skip_or_fail(f"{path} not found")
    statuses = json.loads(path.read_text(encoding="utf-8"))["statuses"]
    return [json.dumps(s, ensure_ascii=False) for s in statuses]


def test_shredded_tweets_print_as_their_unshredded_values(tweets):
    docs = tweets + [None, '"not an object"', "[1, {\"id\": 2}]"]
    variants = vs.from_json(docs)
    # Inferred on the first half: the rest drifts into residuals and partial objects.
    schema = vs.infer_schema(variants.slice(0, len(tweets) // 2))
    shredded = vs.shred(variants, schema)
    direct = vs.to_json(shredded)
    assert direct.to_pylist() == vs.to_json(vs.unshred(shredded)).to_pylist()
    assert direct.to_pylist() == vs.to_json(variants).to_pylist()
    assert direct.to_pylist()[len(tweets)] is None


def test_conflicts_follow_on_conflict():
    column = pa.StructArray.from_arrays(
        [pa.array([b"\x01\x00\x00"] * 2, pa.binary()),
         pa.array([None, b"\x0c\x07"], pa.binary()), pa.array([1, 2], pa.int64())],
        names=["metadata", "value", "typed_value"])
    with pytest.raises(vs.VariantError, match="row 1, \\$: conflicting value"):
        vs.to_json(column)
    assert vs.to_json(column, on_conflict="typed-wins").to_pylist() == ["1", "2"]


def test_to_json_cli_prints_each_files_shredding(tweets, tmp_path):
    """Two files of one dataset shredded differently (one not at all): the CLI prints
    the documents as Spark's to_json would, whatever each file's shredding."""
    half = len(tweets) // 2
    vs.parquet.write_json(tweets[:half], str(tmp_path / "part-0.parquet"))
    vs.parquet.write_json(tweets[half:], str(tmp_path / "part-1.parquet"), shredding="none")
    out = subprocess.run([sys.executable, "-m", "varshred", "to-json", str(tmp_path), "-"],
                         capture_output=True, check=True).stdout.decode("utf-8")
    expected = vs.to_json(vs.from_json(tweets)).to_pylist()
    assert out.splitlines() == expected


def _direct_and_rebuilt(path: str) -> tuple[list, list]:
    """A file's Variant column printed as stored, as ``varshred to-json`` prints it (from
    the shredded columns; unsorted ids in key order), and after read_table rebuilt it.
    Read as stored with dictionary-encoded leaves as dictionaries, as to-json reads
    them, the text must not change."""
    from varshred import _kernels, _parquet

    def text(column):
        return _kernels.to_json(column, "UTC", _kernels.ON_CONFLICT["error"], True)

    stored = vs.parquet.read_table(path, ["v"], shredded=True)["v"]
    rebuilt = vs.parquet.read_table(path, ["v"])["v"]
    direct = text(stored).to_pylist()
    reader = _parquet.reader(path, ["v"], True, 65536, _kernels.ON_CONFLICT["error"],
                             dictionaries=True)
    assert [t for b in reader for t in text(b.column(0)).to_pylist()] == direct
    return direct, vs.to_json(rebuilt).to_pylist()


def test_to_json_reads_dictionary_encoded_leaves_as_dictionaries(tweets, tmp_path):
    """The tweets' repeated strings are dictionary-encoded: to-json's reader hands them
    as dictionary arrays (no copy of each row's bytes) and prints the same text."""
    from varshred import _kernels, _parquet

    path = str(tmp_path / "t.parquet")
    vs.parquet.write_json(tweets * 3, path)
    reader = _parquet.reader(path, None, True, 65536, _kernels.ON_CONFLICT["error"],
                             dictionaries=True)
    assert "dictionary<values=string" in str(reader.schema)
    out = subprocess.run([sys.executable, "-m", "varshred", "to-json", path, "-"],
                         capture_output=True, check=True).stdout.decode("utf-8")
    assert out.splitlines() == vs.to_json(vs.from_json(tweets * 3)).to_pylist()


def test_duckdb_files_print_as_read_table_reads_them(duckdb_corpus):
    """DuckDB's files, shredded or not (its unshredded values hold unsorted field ids,
    which to-json printed in stored order until it sorted them as readers do)."""
    for setting, path in duckdb_corpus.files.items():
        direct, rebuilt = _direct_and_rebuilt(path)
        assert direct == rebuilt, setting


@pytest.mark.spark
def test_spark_shredded_files_print_as_spark_prints_them(spark_corpus):
    import foreign

    for setting, path in spark_corpus.files.items():
        direct, rebuilt = _direct_and_rebuilt(path)
        assert direct == rebuilt, setting
        if spark_corpus.file_rows[setting]:  # rows of the corpus: Spark's to_json of each
            ids = vs.parquet.read_table(path, ["id"])["id"].to_pylist()
            for text, i in zip(direct, ids):
                assert foreign.json_same(text, spark_corpus.engine_json[i]), (setting, i)
