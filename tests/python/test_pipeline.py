# Licensed under the Apache License, Version 2.0.
"""The ``varshred shred`` pipeline end to end on a real local SparkSession: JSON lines
and Parquet in, shredded Parquet out, read back by Spark; bad input; save modes; the
inspect / to-json / get commands on Spark's own shredded files."""

from __future__ import annotations

import collections
import decimal
import itertools
import json
import os
import subprocess
import sys

import pyarrow as pa
import pytest

import varshred as vs
from varshred import cli, jsonlines
from varshred.cli import sample_events
from varshred.jsonlines import Split, line_error, split_blocks, splits
from varshred.pipeline import JobError, ShredJob

pytestmark = pytest.mark.spark


def _canonical(doc):
    """A JSON document's logical value as a comparable string (numbers by value)."""
    value = json.loads(doc, parse_float=lambda s: decimal.Decimal(s).normalize(),
                       parse_int=lambda s: decimal.Decimal(s).normalize())
    return json.dumps(value, sort_keys=True, default=str)


def _documents():
    docs = sample_events(3000, seed=11)
    docs[10] = "[1, 2, 3]"           # top-level arrays and scalars among objects
    docs[20] = '"a string"'
    docs[30] = "null"
    docs[40] = '{"id": 1.5e300, "user": {"score": -0.001}}'
    return docs


def _write_lines(path, docs, blank_lines=True):
    with open(path, "w", encoding="utf-8") as f:
        for i, d in enumerate(docs):
            f.write(d + "\n")
            if blank_lines and i % 1000 == 999:
                f.write("\n   \n")        # blank lines are skipped, not errors


def _spark_json(spark, out, column):
    df = spark.read.parquet(out)
    assert df.schema[column].dataType.typeName() == "variant"
    return [r.j for r in df.selectExpr(f"to_json({column}) as j").collect()]


@pytest.mark.parametrize("schema", ["infer", "struct<id: bigint, kind: string, "
                                             "user: struct<name: string, score: double>, "
                                             "tags: array<string>>"])
def test_json_lines_to_spark_readable_shredded_parquet(spark, tmp_path, schema):
    docs = _documents()
    source = tmp_path / "events.jsonl"
    _write_lines(source, docs)
    out = str(tmp_path / "out")
    summary = ShredJob(str(source), out, schema=schema, column="event",
                       log=lambda _: None).run(spark)
    assert summary.rows == len(docs)
    assert summary.files and all(os.path.exists(f) for f in summary.files)
    assert summary.bytes == sum(os.path.getsize(f) for f in summary.files)
    # Spark reads a VariantType column whose JSON equals the input, row for row.
    got = _spark_json(spark, out, "event")
    assert collections.Counter(map(_canonical, got)) == \
        collections.Counter(map(_canonical, docs))
    # Every file is shredded with the one schema of the job.
    layouts = {c.layout for f in summary.files for c in vs.parquet.inspect(f) if c.is_variant}
    assert layouts == {"shredded"}
    ddl = summary.schemas["event"]
    assert isinstance(ddl, str)
    if schema != "infer":
        assert ddl == vs.ShreddingSchema.parse(schema).to_ddl()
    else:
        assert "id: bigint" in ddl and "kind: string" in ddl
    # The summary's per-path table counts every value written (from the footers).
    counts = {c.path: c for c in vs.parquet.shredding_counts(summary.files)}
    assert counts["kind"].typed == len(docs) - 4  # three non-objects and one without kind
    assert counts["kind"].residual == 0
    assert counts["id"].typed + counts["id"].residual == len(docs) - 3
    report = summary.report()
    kind_line = next(line for line in report.splitlines() if line.split()[:1] == ["kind"])
    assert kind_line.split()[1:] == ["string", str(len(docs) - 4), "0", "100.0%"]


def test_one_schema_for_the_whole_job_even_when_partitions_differ(spark, tmp_path):
    # Two files: the first without "late", the second with it. Per-file inference
    # shreds "late" in one file only; the job's sample pass covers both.
    a = [json.dumps({"id": i}) for i in range(500)]
    b = [json.dumps({"id": i, "late": f"x{i}"}) for i in range(500)]
    src = tmp_path / "in"
    src.mkdir()
    _write_lines(src / "a.jsonl", a, blank_lines=False)
    _write_lines(src / "b.jsonl", b, blank_lines=False)
    job = ShredJob(str(src), str(tmp_path / "job"), log=lambda _: None)
    summary = job.run(spark)
    assert isinstance(summary.schemas["data"], str)
    assert "late: string" in summary.schemas["data"]
    per_file = ShredJob(str(src), str(tmp_path / "per_file"), schema="per-file",
                        log=lambda _: None).run(spark)
    schemas = per_file.schemas["data"]
    assert isinstance(schemas, list) and len(schemas) == 2
    assert sum("late" in s for s in schemas) == 1
    for out, n in [(tmp_path / "job", 1000), (tmp_path / "per_file", 1000)]:
        assert len(_spark_json(spark, str(out), "data")) == n


def test_malformed_line_is_one_error_naming_file_and_line_and_leaves_nothing(
        spark, tmp_path):
    docs = [json.dumps({"id": i}) for i in range(20000)]
    docs[15000] = '{"id": 15000, "broken": [1, 2'
    source = tmp_path / "bad.jsonl"
    _write_lines(source, docs)          # one blank pair after every 1000 documents
    out = tmp_path / "out"
    with pytest.raises(JobError) as e:
        ShredJob(str(source), str(out), schema="id bigint", log=lambda _: None).run(spark)
    message = str(e.value)
    assert "\n" not in message
    assert message.startswith(f"{source}:{15000 + 1 + 2 * 15}: invalid JSON")
    leftover = [os.path.join(r, f) for r, _, fs in os.walk(out) for f in fs] \
        if out.exists() else []
    assert leftover == []
    # errors="null" keeps going and counts what it nulled.
    summary = ShredJob(str(source), str(out), schema="id bigint", errors="null",
                       log=lambda _: None).run(spark)
    assert summary.rows == len(docs)
    assert summary.nulled == {"data": 1}
    got = _spark_json(spark, str(out), "data")
    assert got.count(None) == 1


def _non_blank_lines(data) -> list[str]:
    return [line.decode() for line in data.to_pybytes().split(b"\n") if line.strip()]


def test_splits_cover_every_line_exactly_once(tmp_path, rng):
    """The tasks' byte-range splits of JSON-lines files, with any split and block size:
    every non-blank line is read once, by the split it starts in (Hadoop's rule)."""
    path = tmp_path / "s.jsonl"
    for trial in range(300):
        lines = [rng.choice(['{"a": %d}' % i, "", "   ", '"%s"' % ("x" * rng.randrange(50)),
                             '{"k": "\u00e9\u00e8"}'])
                 for i in range(rng.randrange(40))]
        text = ("\n".join(lines) + rng.choice(["", "\n"])).encode()
        path.write_bytes(text)
        step = rng.randrange(1, 30)
        block = rng.choice([1, 2, 7, 64, 1 << 20])
        batch = rng.choice([None, 1, 5, 16, 1 << 20])
        got = []
        for start in range(0, len(text), step):
            split = Split(str(path), start, min(start + step, len(text)))
            for offset, data in split_blocks(split, block, batch):
                assert text[offset:offset + len(data)] == data.to_pybytes()
                got += _non_blank_lines(data)
        assert got == [line for line in text.decode().split("\n") if line.strip()], trial


def test_splits_read_lines_longer_than_their_blocks_and_windows(tmp_path):
    """Lines of 300 KB cross split starts and ends and outgrow the 64 KB first window
    that finds a line's end, and the 16 KB blocks: each is still read once, whole."""
    path = tmp_path / "long.jsonl"
    lines = ['{"a": "%s"}' % (c * 300_000) for c in "xyz"] + ['{"b": 1}']
    text = "\n".join(lines).encode() + b"\n"
    path.write_bytes(text)
    for step, batch in itertools.product((50_000, 299_999, 300_011, len(text)),
                                         (None, 4 << 10)):
        got = []
        for start in range(0, len(text), step):
            split = Split(str(path), start, min(start + step, len(text)))
            for offset, data in split_blocks(split, 16 << 10, batch):
                assert text[offset:offset + len(data)] == data.to_pybytes()
                got += _non_blank_lines(data)
        assert got == lines, (step, batch)


def test_compressed_files_are_read_in_pieces_of_whole_lines(tmp_path, rng):
    """A gzip file is one split read as a stream: its blocks and their pieces still
    hold whole lines, each once, with the offsets of the decompressed text."""
    import gzip

    path = tmp_path / "s.jsonl.gz"
    for trial in range(50):
        lines = ['{"a": "%s"}' % ("x" * rng.randrange(100)) for _ in range(rng.randrange(60))]
        text = ("\n".join(lines) + rng.choice(["", "\n"])).encode()
        path.write_bytes(gzip.compress(text))
        got = []
        for offset, data in split_blocks(Split(str(path), 0, sys.maxsize),
                                         rng.choice([1, 50, 1 << 20]), rng.choice([1, 40])):
            assert text[offset:offset + len(data)] == data.to_pybytes()
            got += _non_blank_lines(data)
        assert got == [line for line in lines if line.strip()], trial


def test_a_byte_order_mark_opens_the_file_not_its_first_line(tmp_path):
    """Spark's text source (Hadoop's line reader) drops a UTF-8 BOM at a file's start:
    the tasks' splits, plain and compressed, and the driver's sample do too (the line
    was invalid JSON, a NULL row under --errors null)."""
    import gzip

    text = b'\xef\xbb\xbf{"a": 1}\n{"a": 2}\n'
    plain, packed = tmp_path / "bom.jsonl", tmp_path / "bom.jsonl.gz"
    plain.write_bytes(text)
    packed.write_bytes(gzip.compress(text))
    runs = [(plain, step) for step in (1, 5, len(text))] + [(packed, sys.maxsize)]
    for path, step in runs:
        got = []
        for start in range(0, len(text), step):
            # A compressed file is one split, read as a stream.
            end = min(start + step, len(text)) if path == plain else sys.maxsize
            split = Split(str(path), start, end)
            for offset, data in split_blocks(split, 4, None):
                assert text[offset:offset + len(data)] == data.to_pybytes()
                got += _non_blank_lines(data)
        assert got == ['{"a": 1}', '{"a": 2}'], (path, step)
    for path in (plain, packed):
        assert jsonlines.sample_stats([str(path)], 10).type_counts()["a"] == {"int8": 2}


def test_split_sizes_follow_sparks_rule(tmp_path):
    big = tmp_path / "big.jsonl"
    big.write_bytes(b"{}\n" * (5 << 20))  # 15 MB
    small = tmp_path / "small.jsonl"
    small.write_bytes(b"{}\n")
    parts = splits([str(big), str(small)], parallelism=2)
    assert [(s.start, s.end) for s in parts if s.path == str(small)] == [(0, 3)]
    big_splits = [s for s in parts if s.path == str(big)]
    assert big_splits[0].start == 0 and big_splits[-1].end == 15 << 20
    assert all(a.end == b.start for a, b in zip(big_splits, big_splits[1:]))
    assert len(big_splits) == 2  # (15 MB + 3 B) / 2 per split


def test_line_errors_count_lines_from_the_file_start(tmp_path):
    path = tmp_path / "e.jsonl"
    text = b'{"a": 1}\n\n{"a": 2}\n{"a": }\n{"a": 3}\n'
    path.write_bytes(text)
    offset = text.index(b'{"a": 2}')
    block = text[offset:]
    with pytest.raises(vs.VariantError) as e:
        vs.from_json_lines(block)
    assert line_error(str(path), offset, block, str(e.value)).startswith(
        f"{path}:4: invalid JSON")


def test_bad_arguments_fail_before_spark_starts(tmp_path):
    """Each is one line on stderr and exit status 1; none of them starts a JVM."""
    src = tmp_path / "e.jsonl"
    src.write_text('{"a": 1}\n')
    fake = tmp_path / "fake.parquet"
    fake.write_text("not parquet at all")
    (tmp_path / "exists").mkdir()
    (tmp_path / "exists" / "part.parquet").write_bytes(b"x")
    (tmp_path / "mixed").mkdir()
    vs.parquet.write_json(['{"a": 1}'], str(tmp_path / "mixed" / "part-0.parquet"))
    (tmp_path / "mixed" / "readme.txt").write_text("notes")
    cases = [
        (["shred", str(src), str(tmp_path / "o"), "--schema", "id bigintt"],
         "--schema: shredding schema: unknown type 'bigintt' at column 4"),
        (["shred", str(fake), str(tmp_path / "o")], f"{fake}: not a Parquet file"),
        (["shred", str(src), str(tmp_path / "o"), "--sample-rows", "-5"],
         "--sample-rows: 0 (all) or more, got -5"),
        # A JVM stack dump and a traceback before.
        (["shred", str(src), str(tmp_path / "o"), "--master", "bogus://x"],
         "--master: 'bogus://x' is not a Spark master URL"),
        (["shred", str(tmp_path / "missing.jsonl"), str(tmp_path / "o")],
         "no such file or directory"),
        (["shred", str(src), str(tmp_path / "exists")], "already exists"),
        (["inspect", str(fake)], str(fake)),
        # A stray file beside Parquet files (a traceback before).
        (["shred", str(tmp_path / "mixed"), str(tmp_path / "o")],
         "readme.txt: not a Parquet file"),
        (["to-json", str(fake), str(tmp_path / "x.json")], str(fake)),
        # Found by probing from outside: Spark cannot read brotli (the job wrote it
        # anyway), an unknown codec was blamed on the input's line 1 once Spark was up,
        # and an OUTPUT that is a file failed on an internal staging directory.
        (["shred", str(src), str(tmp_path / "o"), "--compression", "brotli"],
         "--compression 'brotli' for Spark: one of zstd, snappy, gzip, lz4, none, "
         "uncompressed (Spark 4.3 bundles no Brotli codec"),
        (["shred", str(src), str(tmp_path / "o"), "--compression", "lzo"],
         "--compression 'lzo' for Spark: one of"),
        (["shred", str(src), str(src), "--mode", "overwrite"],
         f"{src} is a file: OUTPUT names the directory"),
        (["shred", str(src), str(tmp_path / "o"), "--format", "parquet"],
         f"{src}: not a readable Parquet file ("),
    ]
    for argv, expected in cases:
        r = subprocess.run([sys.executable, "-m", "varshred", *argv], capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 1, (argv, r.stderr)
        lines = [line for line in r.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("varshred: error: "), (argv, r.stderr)
        assert expected in lines[0], (argv, lines[0])
        assert lines[0].count("not a readable Parquet file") <= 1, lines[0]  # said once
    # --mode ignore of an existing output: nothing to do, so no Spark and no sample.
    r = subprocess.run([sys.executable, "-m", "varshred", "shred", str(src),
                        str(tmp_path / "exists"), "--mode", "ignore"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and "nothing written (--mode ignore)" in r.stdout
    assert "[1/3]" not in r.stdout + r.stderr and "Spark" not in r.stdout + r.stderr


def test_save_modes(spark, tmp_path):
    src = tmp_path / "e.jsonl"
    _write_lines(src, [json.dumps({"id": i}) for i in range(100)], blank_lines=False)
    out = str(tmp_path / "out")
    run = lambda mode: ShredJob(str(src), out, schema="id bigint", mode=mode,  # noqa: E731
                                log=lambda _: None).run(spark)
    assert run("error").rows == 100
    with pytest.raises(JobError, match="already exists"):
        run("error")
    assert run("ignore") is None
    assert run("append").rows == 100
    assert len(_spark_json(spark, out, "data")) == 200
    (tmp_path / "out" / "notes.txt").write_text("x")  # Spark's overwrite removes it too
    assert run("overwrite").rows == 100
    assert len(_spark_json(spark, out, "data")) == 100
    assert not (tmp_path / "out" / "notes.txt").exists()


def test_success_manifest_lists_the_complete_output(spark, tmp_path, capsys):
    """The job commit writes _SUCCESS last, holding the files, rows and shredding of the
    whole output (appends included); varshred inspect reports it; no marker, no claim."""
    src = tmp_path / "e.jsonl"
    _write_lines(src, [json.dumps({"id": i}) for i in range(100)], blank_lines=False)
    out = tmp_path / "out"
    run = lambda mode: ShredJob(str(src), str(out), schema="id bigint", mode=mode,  # noqa: E731
                                log=lambda _: None).run(spark)
    first = run("error")
    manifest = json.loads((out / "_SUCCESS").read_text())
    assert manifest["writer"].startswith("varshred ")
    assert sorted(e["name"] for e in manifest["files"]) == sorted(
        os.path.basename(f) for f in first.files)
    assert sum(e["rows"] for e in manifest["files"]) == 100
    assert all(e["shredding"] == {"data": "id bigint"} for e in manifest["files"])
    run("append")
    assert sum(e["rows"] for e in vs.spark.read_manifest(str(out))) == 200
    assert len(vs.spark.read_manifest(str(out))) == len(vs.spark._part_files(str(out)))
    run("overwrite")
    assert sum(e["rows"] for e in vs.spark.read_manifest(str(out))) == 100
    assert cli.main(["inspect", str(out)]) == 0
    assert "complete per _SUCCESS" in capsys.readouterr().out
    (out / "_SUCCESS").unlink()  # as a job killed during its commit leaves it
    assert vs.spark.read_manifest(str(out)) is None
    assert cli.main(["inspect", str(out)]) == 0
    assert "no _SUCCESS manifest" in capsys.readouterr().out


def test_parquet_input_with_variant_and_json_string_columns(spark, tmp_path):
    docs = sample_events(400, seed=3)
    src = str(tmp_path / "spark_in")
    (spark.createDataFrame([(i, d, d) for i, d in enumerate(docs)], "k int, j string, s string")
     .selectExpr("k", "parse_json(j) as v", "s").write.parquet(src))
    out = str(tmp_path / "out")
    summary = ShredJob(src, out, schema="infer", json_columns=["s"],
                       log=lambda _: None).run(spark)
    assert summary.rows == len(docs)
    assert set(summary.schemas) == {"v", "s"}
    df = spark.read.parquet(out)
    assert [df.schema[c].dataType.typeName() for c in ("k", "v", "s")] == \
        ["integer", "variant", "variant"]
    rows = df.selectExpr("k", "to_json(v) as v", "to_json(s) as s").collect()
    assert sorted((r.k, _canonical(r.v), _canonical(r.s)) for r in rows) == \
        sorted((i, _canonical(d), _canonical(d)) for i, d in enumerate(docs))
    with pytest.raises(JobError, match="no Variant column"):
        bare = str(tmp_path / "bare")
        spark.createDataFrame([(1, "{}")], "k int, j string").write.parquet(bare)
        ShredJob(bare, str(tmp_path / "o2"), log=lambda _: None).run(spark)


def test_partition_directories_are_columns_as_spark_reads_them(spark, tmp_path):
    # Found by probing from outside: the tasks' own read of a table as stored (and of
    # JSON lines) took the files alone, so the k=... directories' column was dropped.
    src = str(tmp_path / "table")
    (spark.sql("SELECT id, id % 2 AS k, parse_json('{\"a\":' || id || '}') AS v "
               "FROM range(10)").write.partitionBy("k").parquet(src))
    out = str(tmp_path / "out")
    assert ShredJob(src, out, log=lambda _: None).run(spark).rows == 10
    rows = spark.read.parquet(out).selectExpr("id", "k", "to_json(v) AS v").collect()
    assert sorted((r.id, r.k, r.v) for r in rows) == [(i, i % 2, f'{{"a":{i}}}')
                                                     for i in range(10)]
    lines = tmp_path / "lines"
    for k in (1, 2):
        (lines / f"k={k}").mkdir(parents=True)
        (lines / f"k={k}" / "part.jsonl").write_text(f'{{"x": {k}}}\n')
    out = str(tmp_path / "out_lines")
    assert ShredJob(str(lines), out, log=lambda _: None).run(spark).rows == 2
    rows = spark.read.parquet(out).selectExpr("k", "to_json(data) AS d").collect()
    assert sorted((r.k, r.d) for r in rows) == [(1, '{"x":1}'), (2, '{"x":2}')]


def test_shred_command_on_a_parquet_table_in_its_own_process(spark, tmp_path):
    # As a user runs it: its own session, the sample read from the files while Spark
    # starts, the tasks reading their row groups (docs/cluster.md#stored-tables).
    docs = sample_events(2000, seed=11)
    src = str(tmp_path / "table")
    (spark.createDataFrame([(i, d, d) for i, d in enumerate(docs)], "k long, j string, s string")
     .repartition(2).selectExpr("k", "parse_json(j) AS v", "s").write.parquet(src))
    out = str(tmp_path / "out")
    r = subprocess.run([sys.executable, "-m", "varshred", "shred", src, out, "--master",
                        "local[2]", "--json-column", "s"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    # Spark's schema told by the files: no DataFrame, the tasks read the row groups.
    assert "input: parquet, 2 file(s), read by the tasks" in r.stderr + r.stdout
    assert "wrote 2000 rows" in r.stderr + r.stdout
    rows = spark.read.parquet(out).selectExpr("k", "to_json(v) AS v", "to_json(s) AS s").collect()
    assert sorted((r.k, _canonical(r.v), _canonical(r.s)) for r in rows) == \
        sorted((i, _canonical(d), _canonical(d)) for i, d in enumerate(docs))
    manifest = vs.spark.read_manifest(out)
    assert sum(m["rows"] for m in manifest) == 2000
    assert {"v", "s"} <= set(manifest[0]["shredding"])
    assert all(m["shredding"]["v"].startswith("struct<") for m in manifest)


def test_shred_command_on_files_whose_spark_schema_only_spark_tells(spark, tmp_path):
    # An unsigned column (Spark reads it as a wider signed type) beside the Variant: the
    # pipeline asks Spark for the DataFrame, and writes Spark's types.
    docs = sample_events(500, seed=12)
    src = tmp_path / "table"
    src.mkdir()
    for part in range(2):
        rows = range(part * 250, (part + 1) * 250)
        vs.parquet.write_table(pa.table({"n": pa.array(rows, pa.uint32()),
                                         "v": vs.from_json(pa.array([docs[i] for i in rows]))}),
                               str(src / f"part-{part}.parquet"))
    out = str(tmp_path / "out")
    r = subprocess.run([sys.executable, "-m", "varshred", "shred", str(src), out, "--master",
                        "local[2]"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "input: parquet, 2 file(s)\n" in r.stderr + r.stdout
    assert "wrote 500 rows" in r.stderr + r.stdout
    back = spark.read.parquet(out)
    assert back.schema["n"].dataType.simpleString() == "bigint"
    rows = back.selectExpr("n", "to_json(v) AS v").collect()
    assert sorted((r.n, _canonical(r.v)) for r in rows) == \
        sorted((i, _canonical(d)) for i, d in enumerate(docs))


def test_commands_on_spark_shredded_files(spark, tmp_path, capsys):
    docs = sample_events(300, seed=5)
    src = str(tmp_path / "spark_shredded")
    (spark.createDataFrame([(d,) for d in docs], "j string").coalesce(1)
     .selectExpr("parse_json(j) as v").write.parquet(src))
    files = [os.path.join(src, f) for f in os.listdir(src) if f.endswith(".parquet")]
    assert [c.layout for c in vs.parquet.inspect(files[0]) if c.is_variant] == ["shredded"]

    assert cli.main(["inspect", src]) == 0
    tree = capsys.readouterr().out
    assert "column v: shredded, VARIANT(1)" in tree
    assert any(line.strip().startswith("kind") and "typed      300" in line
               for line in tree.splitlines()), tree

    target = tmp_path / "out.jsonl"
    assert cli.main(["to-json", src, str(target)]) == 0
    back = target.read_text().splitlines()  # one Variant column: the documents themselves
    assert sorted(map(_canonical, back)) == sorted(map(_canonical, docs))

    assert cli.main(["get", src, "$.kind", "--type", "string"]) == 0
    kinds = [json.loads(k) for k in capsys.readouterr().out.split()]  # a JSON value per line
    assert sorted(kinds) == sorted(json.loads(d)["kind"] for d in docs)


def test_data_source_batches_default_and_large(spark, tmp_path):
    """mapInArrow functions at Spark's default maxRecordsPerBatch and with one huge
    batch give the same Variant column, never a null child inside a non-null row."""
    docs = [json.dumps({"i": i, "s": "x" * (i % 50)}) if i % 7 else "null"
            for i in range(30000)]
    df = spark.createDataFrame([(d,) for d in docs], "j string").coalesce(1)
    results = []
    for batch in ("10000", "1000000"):
        spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", batch)
        try:
            parsed = vs.spark.parse_json(df, "j", output="v")
            shredded = vs.spark.shred(parsed, "v", "i bigint, s string", output="sh")
            back = vs.spark.unshred(shredded, "sh", output="u")
            out = vs.spark.to_json(back, "u", output="t")
            rows = out.select("t", "j").collect()
        finally:
            spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
        assert all(_canonical(r.t) == _canonical(r.j) for r in rows)
        results.append(sorted(r.t for r in rows))
    assert results[0] == results[1]
    assert len(results[0]) == len(docs)


def test_demo_runs_end_to_end(tmp_path):
    """The README's main job, as a newcomer runs it (its own Spark, in a subprocess)."""
    r = subprocess.run([sys.executable, "-m", "varshred", "demo", "--rows", "3000", "--dir",
                        str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    out = r.stdout
    assert "rows 3000  files" in out
    assert "the column's type: variant" in out
    assert "{'rows': 3000}" in out
    assert "column event: shredded, VARIANT(1)" in out
    files = [f for f in os.listdir(tmp_path / "events_shredded") if f.endswith(".parquet")]
    assert files


def test_gzip_json_lines_are_read_by_the_tasks(spark, tmp_path):
    import gzip

    docs = [json.dumps({"id": i, "s": "x" * (i % 9)}) for i in range(3000)]
    docs[2500] = '{"id": 2500, "s": '
    for name, lines in [("a.jsonl.gz", docs[:1500]), ("b.jsonl.gz", docs[1500:])]:
        with gzip.open(tmp_path / name, "wt") as f:
            f.write("\n".join(lines) + "\n")
    src = str(tmp_path / "*.jsonl.gz")
    with pytest.raises(JobError, match=r"b\.jsonl\.gz:1001: invalid JSON"):
        ShredJob(src, str(tmp_path / "out"), log=lambda _: None).run(spark)
    summary = ShredJob(src, str(tmp_path / "out"), errors="null",
                       log=lambda _: None).run(spark)
    assert summary.rows == 3000 and summary.nulled == {"data": 1}
    assert "id: bigint" in summary.schemas["data"]
    got = _spark_json(spark, str(tmp_path / "out"), "data")
    assert got.count(None) == 1
    assert sorted(_canonical(g) for g in got if g is not None) == sorted(
        _canonical(d) for i, d in enumerate(docs) if i != 2500)


def test_runs_under_spark_submit(tmp_path):
    """The README's cluster recipe in local mode: spark-submit runs varshred's
    __main__.py, and the job uses the session spark-submit started."""
    submit = os.path.join(os.path.dirname(sys.executable), "spark-submit")
    assert os.path.exists(submit), "pyspark installs spark-submit next to python"
    src = tmp_path / "e.jsonl"
    src.write_text("\n".join(json.dumps({"id": i, "k": "x"}) for i in range(500)) + "\n")
    main = os.path.join(os.path.dirname(vs.__file__), "__main__.py")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable,
               SPARK_LOCAL_IP="127.0.0.1")
    r = subprocess.run([submit, "--master", "local[1]", "--conf", "spark.ui.enabled=false",
                        main, "shred", str(src), str(tmp_path / "out"), "--schema", "id bigint"],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Spark" in r.stdout and "local[1]" in r.stdout  # spark-submit's master, kept
    assert "rows 500  files 1" in r.stdout
    files = [f for f in os.listdir(tmp_path / "out") if f.endswith(".parquet")]
    back = vs.parquet.read_table(str(tmp_path / "out" / files[0]))
    assert vs.variant_get(back["data"], "$.id", "bigint").to_pylist() == list(range(500))


def test_jobs_whose_tasks_read_the_input_start_no_spark_session(tmp_path):
    """JSON lines and a Parquet table as stored are read by Python RDD tasks alone: the
    driver starts a SparkContext and no SparkSession (about 0.4 s of the JVM's). A
    session is made when Spark reads the input (here: a uint32 column, which Spark reads
    as bigint), and by the run whose JVM writes varshred's class archive, so that the
    archive holds its classes for the runs that need one."""
    pytest.importorskip("pyspark")
    lines = tmp_path / "e.jsonl"
    lines.write_text("\n".join(json.dumps({"id": i}) for i in range(200)) + "\n")
    v = vs.from_json([json.dumps({"id": i}) for i in range(200)])
    stored, unsigned = str(tmp_path / "stored.parquet"), str(tmp_path / "unsigned.parquet")
    vs.parquet.write_table(pa.table({"v": v}), stored)
    vs.parquet.write_table(pa.table({"v": v, "n": pa.array(range(200), pa.uint32())}),
                           unsigned)
    script = """
import sys
from pyspark.sql import SparkSession
from varshred.pipeline import ShredJob
summary = ShredJob(sys.argv[1], sys.argv[2], master="local[1]", log=lambda _: None).run()
print(summary.rows, SparkSession._instantiatedSession is not None)
"""

    def run(source: str, out: str, **env: str) -> str:
        r = subprocess.run([sys.executable, "-c", script, source, str(tmp_path / out)],
                           capture_output=True, text=True, timeout=600,
                           env=dict(os.environ, **env))
        assert r.returncode == 0, r.stderr[-2000:]
        return r.stdout.split("\n")[-2]

    plain = {"VARSHRED_JVM_FAST_START": "0"}
    assert run(str(lines), "lines", **plain) == "200 False"
    assert run(stored, "stored", **plain) == "200 False"
    assert run(unsigned, "unsigned", **plain) == "200 True"
    assert run(str(lines), "archived", XDG_CACHE_HOME=str(tmp_path / "cache")) == "200 True"
    assert any(f.endswith(".jsa") for f in os.listdir(tmp_path / "cache" / "varshred" / "jvm"))


def test_a_split_task_imports_no_pandas(tmp_path):
    # A task worker is a fresh process: pa.array() or a Python scalar in a compute call
    # imports pandas (about 0.17 s) just to rule out pandas inputs. The write path of a
    # split avoids both, and blank lines (spaces, tabs, CR, VT, FF) are still skipped.
    pytest.importorskip("pandas")
    source = tmp_path / "in.jsonl"
    source.write_bytes(b'{"a": 1}\n  \n\t\r\n{"a": 2}\n\x0b\x0c\n{"a": "x"}\n')
    script = f"""
import sys
from varshred import jsonlines
splits = jsonlines.splits([{str(source)!r}], 1)
task = jsonlines.WriteSplits(tuple(splits), "v", "struct<a: bigint>", "raise", "zstd",
                             {str(tmp_path)!r})
[result] = task.over_ids([0])
assert result["rows"] == 3, result
print("pandas" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def _fake_pyspark(root, version: bytes):
    os.makedirs(root / "pyspark", exist_ok=True)
    (root / "pyspark" / "__init__.py").write_bytes(b"")
    (root / "pyspark" / "version.py").write_bytes(version)


@pytest.mark.parametrize("installed, moved", [(b"__version__ = '4.3.0'\n", True),
                                              (b"__version__ = '4.2.0'\n", False),
                                              (None, False)])
def test_the_daemon_prefers_the_installed_pyspark_of_the_zips_version(tmp_path, installed,
                                                                      moved):
    import zipfile

    from varshred._pyspark_daemon import prefer_installed_pyspark

    lib = tmp_path / "lib"
    lib.mkdir()
    with zipfile.ZipFile(lib / "pyspark.zip", "w") as z:
        z.writestr("pyspark/__init__.py", "")
        z.writestr("pyspark/version.py", "__version__ = '4.3.0'\n")
    with zipfile.ZipFile(lib / "py4j-0.10.9.9-src.zip", "w") as z:
        z.writestr("py4j/__init__.py", "")
    site = tmp_path / "site"
    site.mkdir()
    if installed is not None:
        _fake_pyspark(site, installed)
    path = [str(tmp_path), str(lib / "pyspark.zip"), str(lib / "py4j-0.10.9.9-src.zip"),
            str(site)]
    expected = [path[0], path[3], path[1], path[2]] if moved else path
    assert prefer_installed_pyspark(path) == expected
    assert prefer_installed_pyspark([str(site)]) == [str(site)]


def test_local_sessions_run_their_workers_from_the_installed_pyspark():
    # Spark puts pyspark.zip first on its workers' path, where Python compiles every
    # module it imports from source (about 0.5 s before the first task of a session).
    pytest.importorskip("pyspark")
    script = """
from varshred.pipeline import spark_session
spark = spark_session("local[1]")
def where(_):
    import pyspark
    yield pyspark.__file__
print(spark.sparkContext.parallelize([0], 1).mapPartitions(where).collect()[0])
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.strip().splitlines()[-1]
    assert ".zip" not in out and out.endswith(os.path.join("pyspark", "__init__.py")), out


_DAEMON_SCRIPT = """
import json, os, sys
from varshred import _pyspark_daemon
from varshred.pipeline import spark_context
if sys.argv[1] == "none":  # no daemon to hand over to
    _pyspark_daemon.start_ahead = lambda: os.environ.__setitem__(
        _pyspark_daemon.AHEAD_ENV, os.path.join(sys.argv[2], "absent"))
if sys.argv[1] == "other seed":  # the workers' seed (the driver's) changes afterwards
    start = _pyspark_daemon.start_ahead
    _pyspark_daemon.start_ahead = lambda: (start(), os.environ.update(PYTHONHASHSEED="7"))
sc = spark_context("local[2]", conf={"spark.executorEnv.VARSHRED_TEST_MARK": "seen"})
def where(_):
    yield (os.getppid(), sys.modules["__main__"].__spec__.name,
           os.environ.get("VARSHRED_TEST_MARK"), hash("varshred"), os.getcwd())
ahead = _pyspark_daemon._ahead
print(json.dumps([[ahead is not None and parent == ahead.pid, *rest] for parent, *rest
                  in sc.parallelize([0, 1], 2).mapPartitions(where).collect()]))
sc.stop()
print(json.dumps(ahead is None or ahead.wait(timeout=30) is not None))
"""


@pytest.mark.parametrize("case, served, daemon, seed", [
    ("ahead", True, "varshred._pyspark_daemon", "0"),
    ("none", False, "varshred_daemon.__main__", "0"),
    ("other seed", False, "varshred_daemon.__main__", "7")])
def test_local_contexts_start_their_python_daemon_ahead_of_the_jvm(tmp_path, case, served,
                                                                   daemon, seed):
    # The daemon started ahead imports while the JVM starts and serves the JVM's first
    # job with the JVM's environment; without it, or for workers it cannot serve, the
    # process the JVM starts runs the daemon itself. Either ends with the context.
    pytest.importorskip("pyspark")
    out = subprocess.run([sys.executable, "-c", _DAEMON_SCRIPT, case, str(tmp_path)],
                         capture_output=True, text=True, check=True, cwd=tmp_path,
                         env={**os.environ, "PYTHONHASHSEED": "0"}).stdout.splitlines()
    workers, ended = json.loads(out[-2]), json.loads(out[-1])
    hashed = subprocess.run([sys.executable, "-c", "print(hash('varshred'))"],
                            capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": seed}).stdout.strip()
    assert workers == [[served, daemon, "seen", int(hashed), str(tmp_path)]] * 2
    assert ended


def test_inputs_without_rows_write_an_empty_readable_file(spark, tmp_path):
    """An empty file sampled for inference failed the job (range() of step 0); a job of
    no rows wrote no part file, which Spark cannot read ("unable to infer schema")."""
    src = tmp_path / "in"
    src.mkdir()
    (src / "empty.jsonl").write_bytes(b"")
    (src / "blank.jsonl").write_text("\n   \n")
    out = str(tmp_path / "out")
    summary = ShredJob(str(src), out, log=lambda _: None).run(spark)
    assert summary.rows == 0
    df = spark.read.parquet(out)
    assert df.schema["data"].dataType.typeName() == "variant" and df.count() == 0
    (src / "rows.jsonl").write_text('{"a": 1}\n')  # an empty file beside others
    assert ShredJob(str(src), str(tmp_path / "out2"), log=lambda _: None).run(spark).rows == 1


def test_schema_per_column_for_json_lines(spark, tmp_path):
    """--schema '{column: DDL}' for JSON lines (its DDL was the whole JSON text)."""
    src = tmp_path / "e.jsonl"
    _write_lines(src, [json.dumps({"a": i}) for i in range(10)], blank_lines=False)
    out = str(tmp_path / "out")
    summary = ShredJob(str(src), out, schema='{"data": "a bigint"}',
                       log=lambda _: None).run(spark)
    assert summary.rows == 10 and summary.schemas["data"] == "a bigint"
    assert len(vs.parquet.read_paths(out, "data", {"a": "bigint"})) == 10
    with pytest.raises(JobError, match="no Variant or JSON column 'nope'"):
        ShredJob(str(src), str(tmp_path / "o2"), schema='{"nope": "a bigint"}',
                 log=lambda _: None).run(spark)
    assert not os.path.exists(tmp_path / "o2")


def test_bad_json_in_a_parquet_column_names_file_row_group_column_and_row(spark, tmp_path):
    """The error said 'row 7: invalid JSON' (the row in a batch, no file or column) and
    the failed job left an empty output directory."""
    import pyarrow.parquet as pq

    raw = ['{"a": %d}' % i for i in range(1200)]
    raw[1007] = "{bad"
    src = tmp_path / "in"
    src.mkdir()
    pq.write_table(pa.table({"id": pa.array(range(len(raw))), "raw": raw}),
                   str(src / "part-0.parquet"), row_group_size=500)
    out = tmp_path / "out"
    with pytest.raises(JobError, match=r"part-0\.parquet, row group 2, column 'raw', row 1007: "
                                       r"invalid JSON"):
        ShredJob(str(src), str(out), json_columns=["raw"], log=lambda _: None).run(spark)
    assert not out.exists()


def test_files_spark_decompresses_follow_the_tasks_line_rules(spark, tmp_path):
    """A .deflate file is read by Spark's text source: a line of tabs was a row (an
    error, or a NULL under --errors null), and so was each piece of a line cut at a
    lone CR; the tasks' rule for plain and gzip files holds for it too."""
    import zlib

    text = b'{"a":1}\n\t\n{"a":2}\r\n{"a":3}\n'
    src = tmp_path / "t.jsonl.deflate"
    src.write_bytes(zlib.compress(text))
    plain = tmp_path / "t.jsonl"
    plain.write_bytes(text)
    for path in (src, plain):
        out = str(tmp_path / f"out-{path.name}")
        assert ShredJob(str(path), out, log=lambda _: None).run(spark).rows == 3
        assert sorted(_spark_json(spark, out, "data")) == ['{"a":1}', '{"a":2}', '{"a":3}']


def test_a_truncated_compressed_file_is_named(spark, tmp_path):
    """'Truncated compressed stream' named no file, in the driver's sample and in the
    tasks alike."""
    import gzip

    data = gzip.compress(b'{"a": 1}\n' * 20000)
    src = tmp_path / "cut.jsonl.gz"
    src.write_bytes(data[:len(data) // 2])
    for schema in ("infer", "a bigint"):
        out = tmp_path / f"out-{schema[0]}"
        with pytest.raises(JobError, match=r"cut\.jsonl\.gz: .*[Tt]runcated"):
            ShredJob(str(src), str(out), schema=schema, log=lambda _: None).run(spark)
        assert not out.exists()
