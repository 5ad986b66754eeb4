# Licensed under the Apache License, Version 2.0.
"""JSON text written straight into shredded columns (ParquetWriter.write_json and
write_json_lines, which vs.parquet.write_json and the pipeline's tasks use): the data
is that of the documents parsed by vs.from_json and written, on real documents
(tweets, product records, a catalogue) shredded by inferred schemas, with drift, SQL
NULLs and invalid documents; and other engines read the files. The inference sample's
statistics are counted straight from the text too (ShreddingStats.add_json)."""

from __future__ import annotations

import json
import os
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import varshred as vs
from conftest import ROOT, skip_or_fail

DATA = ROOT.parent / "shared" / "data"


def _documents(name: str) -> list[str]:
    path = DATA / name
    if not path.exists():
        skip_or_fail(f"{path} not found")
    text = path.read_text(encoding="utf-8")
    if name.endswith(".ndjson"):
        return [line for line in text.splitlines() if line.strip()]
    doc = json.loads(text)
    if "statuses" in doc:
        return [json.dumps(s, ensure_ascii=False) for s in doc["statuses"]]
    # The catalogue: its events and performances, each object a document.
    return [json.dumps(v) for part in ("events", "performances")
            for v in (doc[part].values() if isinstance(doc[part], dict) else doc[part])]


@pytest.fixture(scope="module", params=["twitter.json", "amazon_cellphones.ndjson",
                                        "citm_catalog.json"])
def real(request) -> list[str]:
    return _documents(request.param)


def _schema():
    return pa.schema([("v", vs.variant_type())])


def _read(path: str) -> pa.Table:
    return pq.read_table(path)


@pytest.mark.parametrize("threads", [False, True])
def test_real_documents_write_what_their_variants_write(real, tmp_path, threads):
    rng = random.Random(3)
    docs = list(real) + [None, '"a string"', "[1, {\"x\": 2}]", "null", "{}"]
    rng.shuffle(docs)
    variants = vs.from_json(docs)
    # Inferred on the first half: the rest drifts into residuals and partial objects.
    schema = vs.infer_schema(variants.slice(0, len(docs) // 2))
    parsed, direct = str(tmp_path / "parsed.parquet"), str(tmp_path / "direct.parquet")
    options = dict(shredding={"v": schema}, use_threads=threads, row_group_size=300,
                   dictionary=False)
    with vs.parquet.ParquetWriter(parsed, _schema(), trusted_columns=["v"], **options) as w:
        w.write_batch(pa.record_batch([variants], schema=_schema()))
    with vs.parquet.ParquetWriter(direct, _schema(), **options) as w:
        assert w.write_json(pa.array(docs)) == 0
    assert _read(direct).equals(_read(parsed))
    assert vs.to_json(vs.parquet.read_table(direct)["v"]).to_pylist() \
        == vs.to_json(variants).to_pylist()


def test_json_lines_and_invalid_lines(tmp_path):
    docs = [json.dumps({"id": i, "s": "x" * (i % 90), "t": [i] * (i % 3)}) for i in range(500)]
    docs[17] = '{"id": 17, "id": 18}'
    docs[301] = '{"id": '
    text = ("\n".join(docs) + "\n\n  \n").encode()
    expected = vs.from_json_lines(text, errors="null")
    schema = "struct<id: bigint, s: string, t: array<bigint>>"
    path = str(tmp_path / "lines.parquet")
    with vs.parquet.ParquetWriter(path, _schema(), shredding={"v": schema}) as w:
        assert w.write_json_lines(text, errors="null") == 2
    back = vs.parquet.read_table(path)["v"]
    assert vs.to_json(back).to_pylist() == vs.to_json(expected).to_pylist()
    with pytest.raises(vs.VariantError, match="^row 17: duplicate key"):
        with vs.parquet.ParquetWriter(path, _schema(), shredding={"v": schema}) as w:
            w.write_json_lines(text)


def test_errors_name_the_row_of_the_whole_input(tmp_path):
    path = str(tmp_path / "e.parquet")
    chunks = pa.chunked_array([['{"a": 1}'] * 3, ['{"a": 1}', '{"a": tru}']])
    with pytest.raises(vs.VariantError, match="^row 4: invalid JSON"):
        with vs.parquet.ParquetWriter(path, _schema(), shredding={"v": "a int"}) as w:
            w.write_json(chunks)
    # vs.parquet.write_json: chunks of 2 rows, the bad one in the third.
    with pytest.raises(vs.VariantError, match="^row 4: invalid JSON"):
        vs.parquet.write_json(chunks.combine_chunks(), path, shredding="a int",
                              chunk_rows=2)
    with pytest.raises(vs.VariantError, match="closed"):
        w.write_json(['{"a": 1}'])
    with pytest.raises(TypeError, match="Arrow data"):
        with vs.parquet.ParquetWriter(path, _schema()) as w:
            w.write_json(iter(['{"a": 1}']))
    two = pa.schema([("v", vs.variant_type()), ("n", pa.int64())])
    with pytest.raises(TypeError, match="only column is a Variant column"):
        with vs.parquet.ParquetWriter(path, two) as w:
            w.write_json(['{"a": 1}'])


def test_duckdb_and_pyarrow_read_what_write_json_writes(real, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    path = str(tmp_path / "real.parquet")
    n = vs.parquet.write_json(pa.array(real), path, chunk_rows=97, threads=2)
    assert n == len(real) == pq.read_metadata(path).num_rows
    got = duckdb.sql(f"SELECT v::JSON FROM read_parquet('{path}')").fetchall()
    assert [json.loads(r[0]) for r in got] == [json.loads(d) for d in real]


@pytest.mark.parametrize("numbers", ["decimal", "double"])
def test_statistics_of_json_text_are_those_of_its_variants(real, numbers):
    docs = list(real) + [None, '"a string"', "[1, {\"x\": 2}]", "null", "{}", "{bad",
                         '{"k": 1, "k": 2}', "1.50", "123456789012345678901234567890"]
    random.Random(5).shuffle(docs)
    want = vs.ShreddingStats().add(vs.from_json(docs, numbers=numbers, errors="null"))
    got = vs.ShreddingStats().add_json(docs, numbers=numbers, errors="null")
    assert bytes(got) == bytes(want)
    assert got.rows == len(docs)
    assert got.derive_schema() == want.derive_schema()
    for kind in (pa.large_string(), pa.string_view()):
        other = vs.ShreddingStats().add_json(pa.array(docs, kind), numbers=numbers,
                                            errors="null")
        assert bytes(other) == bytes(want)
    last = vs.ShreddingStats().add_json(docs, numbers=numbers, duplicate_keys="last",
                                        errors="null")
    assert bytes(last) == bytes(vs.ShreddingStats().add(
        vs.from_json(docs, numbers=numbers, duplicate_keys="last", errors="null")))


def test_statistics_of_json_text_name_the_bad_row():
    good = '{"a": 1}'
    chunks = pa.chunked_array([[good] * 3, [good, '{"a": tru}']])
    with pytest.raises(vs.VariantError, match=r"row 4: invalid JSON at byte 6"):
        vs.ShreddingStats().add_json(chunks)
    with pytest.raises(vs.VariantError, match=r"row 1: .*duplicate key"):
        vs.ShreddingStats().add_json([good, '{"a": 1, "a": 2}'])
    with pytest.raises(TypeError):
        vs.ShreddingStats().add_json(pa.array([1, 2]))


def test_a_bare_string_or_non_text_rows_are_a_type_error(tmp_path):
    # Found by probing from outside: a str is an iterable of characters, and
    # write_json('123', path) wrote three documents; a row of another type failed on
    # len() without naming it. from_json and from_python refuse a bare str already.
    path = str(tmp_path / "x.parquet")
    for bare in ('{"a":1}', "123", b'{"a":1}'):
        with pytest.raises(TypeError, match="one per row"):
            vs.parquet.write_json(bare, path)
    with pytest.raises(TypeError, match="row 1 is int"):
        vs.parquet.write_json(['{"a":1}', 2], path)
    with pytest.raises(TypeError, match="row 0 is bytes"):
        vs.parquet.write_json([b'{"a":1}'], path)
    assert not os.path.exists(path)
    assert vs.parquet.write_json(['{"a":1}', None], path) == 2
