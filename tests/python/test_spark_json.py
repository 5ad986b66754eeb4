# Licensed under the Apache License, Version 2.0.
"""varshred against a real local Spark 4.3: from_json must produce the same bytes as
parse_json (value and metadata) and to_json the same text as Spark's to_json, row by
row, over a few hundred seeded documents covering every JSON shape."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pyarrow as pa
import pytest

import varshred as vs

pytestmark = pytest.mark.spark

SEED = 4242
N_DOCS = 400

NUMBERS = [
    "0", "-0", "1", "-1", "127", "128", "-129", "32767", "32768", "-2147483648",
    "2147483648", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "123456789012345678901234567890", "99999999999999999999999999999999999999",
    "100000000000000000000000000000000000000", "1.5", "-0.25", "0.000001", "1.0", "1.10",
    "-0.0", "0.0", "3.14159", "123456789.123456789", "12345678901234567.8",
    "0.12345678901234567890123456789012345678",
    "0.123456789012345678901234567890123456789", "1e10", "1E-5", "2.5e+3", "-1.5E300",
    "1e308", "4.9e-324", "6.02214076e23", "1.7976931348623157e308", "0e0", "10.000",
]
STRINGS = [
    "", "a", "hello world", "é", "日本語", "😀", "mixed é 😀 日本", "x" * 63, "y" * 64,
    "z" * 300, "quote\"", "back\\slash", "slash/", "new\nline", "tab\t", "ctl\u0001\u001f",
    "nul\u0000", "\u2028\u2029", "emoji 🐢💖♥️",
]
KEYS = ["a", "b", "c", "id", "name", "key with space", "é", "日本", "😀", "A", "_", "",
        "k1", "k10", "k2", "long_key_" + "x" * 40]


def _string(r: random.Random, s: str) -> str:
    # Vary the escaping: Python's json with and without ensure_ascii, plus \/ escapes.
    text = json.dumps(s, ensure_ascii=r.random() < 0.5)
    if r.random() < 0.2:
        text = text.replace("/", "\\/")
    return text


def _ws(r: random.Random) -> str:
    return r.choice(["", "", "", " ", "\n", "\t", "  "])


def _doc(r: random.Random, depth: int) -> str:
    roll = r.random()
    if depth > 3 or roll < 0.45:
        kind = r.choice(["num", "num", "str", "str", "true", "false", "null"])
        if kind == "num":
            return r.choice(NUMBERS)
        if kind == "str":
            return _string(r, r.choice(STRINGS))
        return kind
    if roll < 0.7:
        items = [_doc(r, depth + 1) for _ in range(r.choice([0, 1, 2, 3, 5]))]
        return "[" + _ws(r) + ("," + _ws(r)).join(items) + _ws(r) + "]"
    keys = r.sample(KEYS, r.choice([0, 1, 2, 3, 4, 6]))
    fields = [f"{_string(r, k)}{_ws(r)}:{_ws(r)}{_doc(r, depth + 1)}" for k in keys]
    return "{" + _ws(r) + ("," + _ws(r)).join(fields) + _ws(r) + "}"


def documents() -> list[str]:
    r = random.Random(SEED)
    docs = [_ws(r) + _doc(r, 0) + _ws(r) for _ in range(N_DOCS)]
    # Every scalar form at top level too.
    docs += NUMBERS + [json.dumps(s) for s in STRINGS] + ["{}", "[]", "null", "[[]]",
                                                            '{"a":{}}']
    return docs


def spark_parse(spark, texts):
    df = spark.createDataFrame(list(enumerate(texts)), "id int, s string")
    rows = df.selectExpr("id", "parse_json(s) as v", "to_json(parse_json(s)) as j") \
             .orderBy("id").collect()
    return ([(bytes(row.v.metadata), bytes(row.v.value)) for row in rows],
            [row.j for row in rows])


def test_generated_documents_are_valid_json():
    for doc in documents():
        json.loads(doc)  # the generator itself must be sound


def test_from_json_bytes_and_to_json_text_match_spark(spark):
    texts = documents()
    assert len(texts) >= N_DOCS
    spark_bytes, spark_text = spark_parse(spark, texts)
    ours = vs.from_json(texts)
    md = ours.field("metadata").to_pylist()
    val = ours.field("value").to_pylist()
    our_text = vs.to_json(ours).to_pylist()
    mismatches = []
    for i, text in enumerate(texts):
        if (md[i], val[i]) != spark_bytes[i]:
            mismatches.append(f"row {i} bytes: {text!r}: ours {md[i].hex()} {val[i].hex()} "
                              f"spark {spark_bytes[i][0].hex()} {spark_bytes[i][1].hex()}")
        if our_text[i] != spark_text[i]:
            mismatches.append(f"row {i} text: {text!r}: ours {our_text[i]!r} "
                              f"spark {spark_text[i]!r}")
    assert not mismatches, "\n".join(mismatches[:20])


def test_to_json_of_spark_bytes_matches_spark_text(spark):
    """Feed Spark's own bytes (Spark layout, value first) to vs.to_json."""
    texts = documents()[:100]
    spark_bytes, spark_text = spark_parse(spark, texts)
    arr = pa.StructArray.from_arrays(
        [pa.array([v for _, v in spark_bytes], pa.binary()),
         pa.array([m for m, _ in spark_bytes], pa.binary())], names=["value", "metadata"])
    vs.validate(arr)
    assert vs.to_json(arr).to_pylist() == spark_text


def test_known_deviation_supplementary_key_order(spark):
    """Spark orders object fields by UTF-16 code units; the spec (and varshred) by UTF-8
    bytes. They differ only when keys mix U+E000..U+FFFF with supplementary-plane
    characters: here U+E000 (UTF-8 EE 80 80) sorts before U+1F600 (F0 9F 98 80), while
    in UTF-16 the surrogate D83D sorts before E000."""
    text = '{"\ue000":1,"\U0001F600":2}'
    (spark_md, spark_val), = spark_parse(spark, [text])[0]
    spark_json = spark_parse(spark, [text])[1][0]
    ours = vs.from_json([text])
    md = ours.field("metadata")[0].as_py()
    val = ours.field("value")[0].as_py()
    # Same dictionary (first-seen order): U+E000 is id 0, U+1F600 is id 1.
    assert md == spark_md
    # Field ids: ours in UTF-8 order (0, 1), Spark's in UTF-16 order (1, 0).
    assert val[2:4] == b"\x00\x01"
    assert spark_val[2:4] == b"\x01\x00"
    assert vs.to_json(ours).to_pylist() == ['{"\ue000":1,"\U0001F600":2}']
    assert spark_json == '{"\U0001F600":2,"\ue000":1}'
    # Spark's bytes break the spec's ordering rule; readers still accept them, and
    # both are the same logical object.
    spark_arr = pa.StructArray.from_arrays(
        [pa.array([spark_md]), pa.array([spark_val])], names=["metadata", "value"])
    with pytest.raises(vs.VariantError, match="not in key-byte order"):
        vs.validate(spark_arr)
    vs.validate(spark_arr, allow_unsorted_keys=True)
    assert vs.to_json(spark_arr).to_pylist() == [spark_json]
    assert vs.to_python(spark_arr) == vs.to_python(ours)


def test_bad_options_of_column_functions_fail_the_call(spark):
    # Found by probing from outside: they failed later, in every task, as the last line
    # of a Python worker's traceback.
    lines = spark.createDataFrame([('{"a": 1}',)], "j string")
    parsed = vs.spark.parse_json(lines, "j", output="v")
    calls = [
        (lambda: vs.spark.parse_json(lines, "j", numbers="float"), "numbers must be"),
        (lambda: vs.spark.parse_json(lines, "j", errors="x"), "errors must be"),
        (lambda: vs.spark.to_json(parsed, "v", timezone="Mars/X"), "unknown time zone"),
        (lambda: vs.spark.shred(parsed, "v", "struct<a: bigint>", numeric="x"),
         "numeric must be"),
        (lambda: vs.spark.unshred(parsed, "v", on_conflict="x"), "on_conflict must be"),
        (lambda: vs.spark.to_arrow(parsed, "v", pa.int64(), errors="x"), "errors must be"),
    ]
    for call, message in calls:
        with pytest.raises((ValueError, vs.VariantError), match=message):
            call()
    assert vs.spark.to_json(parsed, "v").select("v").collect()[0][0] == '{"a":1}'


def test_a_bad_document_is_named_by_its_partition_and_row_there(spark):
    # Rows were counted within an Arrow batch (found by probing from outside).
    docs = [f'{{"a": {i}}}' for i in range(30)]
    docs[25] = "{bad"
    lines = spark.createDataFrame([(d,) for d in docs], "j string").coalesce(1)
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "10")
    try:
        with pytest.raises(Exception, match=r"partition 0, row 25: invalid JSON"):
            vs.spark.parse_json(lines, "j").collect()
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")


def test_a_bad_json_column_row_is_named_by_its_partition_and_row_there(spark, tmp_path):
    # The writer counted rows within an Arrow batch, without the partition (found by
    # probing from outside).
    docs = [f'{{"a": {i}}}' for i in range(30)]
    docs[25] = "{bad"
    lines = spark.createDataFrame([(d,) for d in docs], "j string").coalesce(1)
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "7")
    try:
        for write in (lambda: vs.spark.write(lines, str(tmp_path / "a"), json_columns=["j"]),
                      lambda: lines.write.format("varshred").option("json_columns", "j")
                      .mode("append").save(str(tmp_path / "b"))):
            with pytest.raises(Exception,
                               match=r"partition 0, column 'j', row 25: invalid JSON"):
                write()
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")


def test_duplicate_keys_follow_the_sessions_setting(spark, tmp_path):
    # spark.sql.variant.allowDuplicateKeys was ignored: varshred failed where Spark's
    # parse_json kept the last value (found by probing from outside).
    docs = ['{"a": 1, "a": 2}', '{"b": {"c": 1, "c": [3]}}']
    lines = spark.createDataFrame([(d,) for d in docs], "j string")
    with pytest.raises(Exception, match="duplicate key"):
        vs.spark.parse_json(lines, "j").collect()
    spark.conf.set("spark.sql.variant.allowDuplicateKeys", "true")
    try:
        want = [r[0] for r in lines.selectExpr("to_json(parse_json(j))").collect()]
        ours = vs.spark.to_json(vs.spark.parse_json(lines, "j", output="v"), "v")
        assert [r["v"] for r in ours.collect()] == want == ['{"a":2}', '{"b":{"c":[3]}}']
        out = str(tmp_path / "w")
        vs.spark.write(lines, out, json_columns=["j"])
        got = spark.read.parquet(out).selectExpr("to_json(j)").collect()
        assert sorted(r[0] for r in got) == sorted(want)
    finally:
        spark.conf.unset("spark.sql.variant.allowDuplicateKeys")
    src, cli_out = tmp_path / "in.jsonl", str(tmp_path / "cli")
    src.write_text("\n".join(docs) + "\n")
    r = subprocess.run([sys.executable, "-m", "varshred", "shred", str(src), cli_out,
                        "--master", "local[1]", "--conf",
                        "spark.sql.variant.allowDuplicateKeys=true"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    got = spark.read.parquet(cli_out).selectExpr("to_json(data)").collect()
    assert sorted(r[0] for r in got) == sorted(want)
    with pytest.raises(Exception, match="duplicate key"):
        vs.spark.parse_json(lines, "j", duplicate_keys="error").collect()
