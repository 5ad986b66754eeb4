# Licensed under the Apache License, Version 2.0.
"""vs.ShreddingStats and vs.infer_schema."""

from __future__ import annotations

import json
import pickle

import pyarrow as pa
import pytest

import varshred as vs


def _docs(n, offset=0):
    return [json.dumps({"id": i + offset, "name": f"u{i}", "score": 1.25,
                        "tags": ["a", "b"], "nested": {"x": i % 7, "flag": i % 2 == 0}})
            for i in range(n)]


def test_infers_the_event_shape():
    schema = vs.infer_schema(vs.from_json(_docs(200)))
    assert schema == vs.ShreddingSchema.parse(
        "struct<id: bigint, name: string, nested: struct<flag: boolean, x: bigint>, "
        "score: decimal(9,2), tags: array<string>>")  # widened to 9 digits: free headroom


def test_dominant_shape_wins_over_a_few_top_level_arrays():
    docs = _docs(95) + ["[1, 2]"] * 5
    schema = vs.infer_schema(vs.from_json(docs))
    assert schema.to_ddl().startswith("struct<")
    shredded = vs.shred(vs.from_json(docs), schema)
    assert shredded.field("typed_value").is_valid().to_pylist().count(True) == 95


def test_min_fraction_drops_rare_fields():
    docs = _docs(95) + [json.dumps({"rare": 1})] * 5
    assert "rare" not in vs.infer_schema(vs.from_json(docs)).to_ddl()
    assert "rare" in vs.infer_schema(vs.from_json(docs), min_fraction=0.01).to_ddl()


def test_merge_serialize_and_pickle():
    a = vs.ShreddingStats().add(vs.from_json(_docs(50)))
    b = vs.ShreddingStats().add(vs.from_json(_docs(50, 1000)))
    whole = vs.ShreddingStats().add(vs.from_json(_docs(50) + _docs(50, 1000)))
    merged = vs.ShreddingStats.from_bytes(bytes(a)).merge(pickle.loads(pickle.dumps(b)))
    assert bytes(merged) == bytes(whole)
    assert merged.rows == 100
    with pytest.raises(vs.VariantError):
        vs.ShreddingStats.from_bytes(b"not stats")


def test_report_counts_typed_residual_missing():
    docs = ['{"id": 1}', '{"id": "x"}', '{}']
    stats = vs.ShreddingStats().add(vs.from_json(docs))
    text = stats.report("struct<id: bigint>")
    assert "id" in text and "typed" in text


def test_batches_of_a_column():
    batch = pa.record_batch({"v": vs.from_json(_docs(10))})
    assert vs.infer_schema([batch, batch], column="v") == vs.infer_schema(
        vs.from_json(_docs(10)))


def test_inferred_width_is_counted_in_file_columns(tmp_path, rng):
    """Random nested documents: the schema inferred with ``max_fields=k`` gives a file
    of at most k columns besides ``metadata`` (Spark's maxSchemaWidth unit; the root's
    own one or two columns always)."""
    import pyarrow.parquet as pq

    def value(depth):
        kind = rng.randrange(6 if depth < 3 else 3)
        if kind == 0:
            return rng.randrange(100)
        if kind == 1:
            return f"s{rng.randrange(9)}"
        if kind == 2:
            return rng.random() < 0.5
        if kind == 3:
            return [value(depth + 1) for _ in range(rng.randrange(3))]
        return {f"k{rng.randrange(12)}": value(depth + 1) for _ in range(rng.randrange(5))}

    for trial in range(20):
        docs = [json.dumps({f"f{rng.randrange(30)}": value(0) for _ in range(8)})
                for _ in range(200)]
        v = vs.from_json(docs)
        for k in (0, 3, 10, 40, 300):
            schema = vs.infer_schema(v, max_fields=k)
            path = tmp_path / f"{trial}-{k}.parquet"
            vs.parquet.write_table(pa.table({"v": v}), str(path), shredding={"v": schema})
            columns = pq.ParquetFile(path).metadata.num_columns - 1  # besides metadata
            assert columns <= max(k, 2), (trial, k, schema.to_ddl())
