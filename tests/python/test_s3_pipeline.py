# Licensed under the Apache License, Version 2.0.
"""``varshred shred`` against a real S3-compatible server (moto on loopback): JSON lines
(plain and compressed) from S3 to S3 and to local output, the tasks reading their own
byte ranges; and a job killed mid-way leaves no visible output."""

from __future__ import annotations

import bz2
import decimal
import gzip
import json
import os
import signal
import subprocess
import sys
import time

import pyarrow as pa
import pytest

import varshred as vs
from varshred.cli import sample_events
from varshred.jsonlines import Split, split_blocks
from varshred.pipeline import ShredJob

pytestmark = pytest.mark.spark


def _docs(n=3000, seed=5):
    return sample_events(n, seed=seed)


def _text(docs):
    return ("\n".join(docs) + "\n").encode()


def _canonical(docs):
    """Documents by logical value (numbers by value: 87 == 87.0), sorted."""
    def number(text):
        return decimal.Decimal(text).normalize()

    return sorted(json.dumps(json.loads(d, parse_float=number, parse_int=number),
                             sort_keys=True, default=str) for d in docs)


def _ids(table):
    """The documents of a read-back table, comparable with _canonical(input)."""
    return _canonical(vs.to_json(table["data"]).to_pylist())


def _objects(s3, prefix):
    """The data objects a reader sees as files (Arrow keeps empty "dir/" markers; a
    committed output's _SUCCESS manifest is checked, then left out)."""
    return [k for k in s3.keys(prefix) if not k.endswith(("/", "/_SUCCESS"))]


def _read_dataset(files):
    return pa.concat_tables([vs.parquet.read_table(f) for f in files])


def test_split_blocks_are_range_reads_of_an_object(s3, tmp_path):
    """Splits of an S3 object give every line once, as splits of the local copy do."""
    docs = _docs(2000)
    data = _text(docs)
    s3.put("in/a.jsonl", data)
    (tmp_path / "a.jsonl").write_bytes(data)
    step = len(data) // 7 + 1
    for path in (s3.uri("in/a.jsonl"), str(tmp_path / "a.jsonl")):
        got = b"".join(block for start in range(0, len(data), step)
                       for _, block in split_blocks(Split(path, start, start + step)))
        assert got == data


def test_json_lines_from_s3_to_s3_and_local(spark, s3, tmp_path):
    docs = _docs(3000)
    s3.put("in/part-1.jsonl", _text(docs[:1000]))
    s3.put("in/part-2.jsonl.gz", gzip.compress(_text(docs[1000:2000])))
    s3.put("in/sub/part-3.jsonl.bz2", bz2.compress(_text(docs[2000:])))
    s3.put("in/_ignored.jsonl", b"not json\n")  # '_' and '.' names are skipped
    s3.put("in/.hidden", b"not json\n")
    # The tasks run in Spark's Python workers, which may not have this test's
    # environment: the endpoint and credentials ride in the URIs (Arrow's parameters).
    src = s3.uri("in/", query=True)
    summary = ShredJob(src, s3.uri("out", query=True), log=lambda _: None).run(spark)
    assert summary.rows == 3000
    keys = _objects(s3, "out/")
    assert "out/_SUCCESS" in s3.keys("out/")  # the manifest, written last by the commit
    assert keys and all(k.startswith("out/part-") and k.endswith(".parquet") for k in keys)
    assert s3.uploads() == []
    assert _ids(_read_dataset([s3.uri(k) for k in keys])) == _canonical(docs)

    local = tmp_path / "out"
    summary = ShredJob(src, str(local), log=lambda _: None).run(spark)
    assert summary.rows == 3000
    names = sorted(os.listdir(local))
    assert names[0] == "_SUCCESS"
    names = names[1:]
    assert names and all(n.startswith("part-") for n in names)  # no staging left
    assert _ids(_read_dataset([str(local / n) for n in names])) == _canonical(docs)
    # Spark reads the local output back.
    assert spark.read.parquet(str(local)).count() == 3000


def test_local_json_lines_to_s3_then_overwrite(spark, s3, tmp_path):
    src = tmp_path / "in.jsonl.zst"
    import pyarrow as pa_

    with pa_.output_stream(str(src), compression="zstd") as f:
        f.write(_text(_docs(500)))
    out = s3.uri("o", query=True)
    ShredJob(str(src), out, log=lambda _: None).run(spark)
    first = _objects(s3, "o/")
    with pytest.raises(Exception, match="already exists"):
        ShredJob(str(src), out, log=lambda _: None).run(spark)
    ShredJob(str(src), out, mode="overwrite", log=lambda _: None).run(spark)
    second = _objects(s3, "o/")
    assert len(second) == len(first) and set(second).isdisjoint(first)
    assert not (tmp_path / "s3:").exists() and not os.path.exists("s3:")


def test_parquet_input_to_s3_through_the_data_source(spark, s3, tmp_path):
    """Local Parquet (a JSON string column) -> S3: Spark's tasks write through the
    varshred data source, the driver publishes on S3."""
    import pyarrow.parquet as pq

    docs = _docs(800)
    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({"k": list(range(800)), "j": docs}), src)
    summary = ShredJob(str(src), s3.uri("pq", query=True), json_columns=["j"],
                       log=lambda _: None).run(spark)
    assert summary.rows == 800
    keys = _objects(s3, "pq/")
    assert keys and all(k.startswith("pq/part-") for k in keys)
    back = _read_dataset([s3.uri(k) for k in keys])
    assert _canonical(vs.to_json(back["j"]).to_pylist()) == _canonical(docs)
    # And back: the shredded output on S3 is Parquet input for another job.
    summary = ShredJob(s3.uri("pq/", query=True), str(tmp_path / "again"),
                       log=lambda _: None).run(spark)
    assert summary.rows == 800
    again = spark.read.parquet(str(tmp_path / "again"))
    assert sorted(r.k for r in again.select("k").collect()) == list(range(800))
    assert _canonical(r.j for r in again.selectExpr("to_json(j) as j").collect()) == \
        _canonical(docs)


def test_bad_line_in_s3_input_names_the_uri_and_leaves_nothing(spark, s3):
    docs = _docs(1000)
    docs[700] = '{"id": oops}'
    s3.put("bad/a.jsonl", _text(docs))
    with pytest.raises(Exception, match=r"bad/a\.jsonl.*:701:"):
        ShredJob(s3.uri("bad/", query=True), s3.uri("out", query=True),
                 log=lambda _: None).run(spark)
    assert _objects(s3, "out") == []
    assert s3.uploads() == []


@pytest.mark.parametrize("target", ["s3", "local"])
def test_job_killed_mid_way_leaves_no_visible_output(s3, tmp_path, target):
    """SIGKILL the whole ``varshred shred`` process group while its tasks write: no
    Parquet file is visible under the output (staging is under '_', skipped by readers;
    S3 uploads were never completed)."""
    big = "\n".join(sample_events(20000, seed=3)) + "\n"
    for i in range(4):
        s3.put(f"big/p{i}.jsonl", big.encode())
    out = s3.uri("killed") if target == "s3" else str(tmp_path / "killed")
    env = dict(os.environ, **s3.server.env, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "varshred", "shred", s3.uri("big/"), out, "--schema",
         "infer", "--master", "local[2]"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    # Kill once the tasks are writing: the inference line is printed before the write.
    seen = b""
    while b"[2/3]" not in seen and b"[3/3]" not in seen:
        line = proc.stdout.readline()
        if not line:
            break
        seen += line
    assert b"[2/3]" in seen, seen.decode(errors="replace")
    time.sleep(0.3)  # not a timing assertion: any moment during the write will do
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    if target == "s3":
        visible = [s3.uri(k) for k in _objects(s3, "killed") if "/_" not in k]
    else:
        visible = list(vs._fs.list_files(out))
    if visible:
        # The commit came before the kill (a fast machine finishes this job in about a
        # second): then the whole output is there, never a part of it.
        assert _read_dataset(visible).num_rows == 4 * 20000
        pytest.skip("the job finished before it could be killed")
