# Licensed under the Apache License, Version 2.0.
"""varshred's Parquet reader and writer on a real S3-compatible server (moto on
loopback, tests/python/s3server.py): URIs with the standard AWS_* variables, with
Arrow's query parameters, with ``filesystem=``; never a partial object."""

from __future__ import annotations

import pyarrow as pa
import pytest

import varshred as vs

DOCS = [f'{{"id": {i}, "name": "n{i}", "tags": ["a", "b"]}}' for i in range(5000)]


def _ids(table, column="v"):
    return vs.variant_get(table[column], "$.id", "bigint").to_pylist()


def test_write_json_and_read_back_through_the_environment(s3):
    uri = s3.uri("data/x.parquet")
    assert vs.parquet.write_json(DOCS, uri, row_group_size=1000) == len(DOCS)
    assert s3.keys() == ["data/x.parquet"]  # no temporary object left beside it
    assert s3.uploads() == []
    assert _ids(vs.parquet.read_table(uri)) == list(range(len(DOCS)))
    batches = list(vs.parquet.iter_batches(uri, batch_size=700))
    assert sum(len(b) for b in batches) == len(DOCS)
    got = vs.parquet.read_paths(uri, "v", {"id": "bigint", "name": "string"})
    assert got["id"].to_pylist() == list(range(len(DOCS)))
    assert [c.layout for c in vs.parquet.inspect(uri)] == ["shredded"]
    assert vs.parquet.prunable_row_groups(uri, "v", "$.id", "<", 1000) == [1, 2, 3, 4]
    counts = {c.path: c.typed for c in vs.parquet.shredding_counts(uri)}
    assert counts["id"] == len(DOCS)


def test_uri_query_parameters_without_environment(s3, monkeypatch):
    for key in s3.server.env:
        monkeypatch.delenv(key, raising=False)
    uri = s3.uri("q/x.parquet", query=True)
    table = pa.table({"v": vs.from_json(pa.array(DOCS[:100]))})
    vs.parquet.write_table(table, uri, shredding={"v": "struct<id: bigint>"})
    assert s3.keys() == ["q/x.parquet"]
    assert _ids(vs.parquet.read_table(uri)) == list(range(100))


def test_filesystem_argument(s3, monkeypatch):
    for key in s3.server.env:
        monkeypatch.delenv(key, raising=False)
    fs = s3.server.filesystem()
    path = f"{s3.name}/fs/x.parquet"
    schema = pa.schema([("v", vs.variant_type())])
    with vs.parquet.ParquetWriter(path, schema, filesystem=fs) as w:
        w.write_batch(pa.record_batch([vs.from_json(pa.array(DOCS[:10]))], schema=schema))
    assert s3.keys() == ["fs/x.parquet"]
    assert _ids(vs.parquet.read_table(path, filesystem=fs)) == list(range(10))
    # A URI of that filesystem names the same object.
    assert _ids(vs.parquet.read_table(f"s3://{path}", filesystem=fs)) == list(range(10))
    got = vs.parquet.read_paths(path, "v", {"id": "bigint"}, filesystem=fs)
    assert got["id"].to_pylist() == list(range(10))
    with pytest.raises(TypeError, match="pyarrow.fs.FileSystem"):
        vs.parquet.read_table(path, filesystem="s3")


def test_failed_write_leaves_no_object(s3):
    """A bad document after several row groups went up: nothing appears, and the
    multipart upload is aborted rather than left pending."""
    uri = s3.uri("bad/x.parquet")
    docs = DOCS * 4 + ["{not json"]
    with pytest.raises(vs.VariantError, match="row 20000"):
        vs.parquet.write_json(docs, uri, row_group_size=1000, chunk_rows=4096,
                              compression="none")
    assert s3.keys() == []
    assert s3.uploads() == []


def test_aborted_and_unclosed_writers_leave_no_object(s3):
    schema = pa.schema([("v", vs.variant_type())])
    batch = pa.record_batch([vs.from_json(pa.array(DOCS))], schema=schema)
    w = vs.parquet.ParquetWriter(s3.uri("a/x.parquet"), schema, row_group_size=100,
                                 compression="none")
    for _ in range(20):  # ~ several MB: parts are uploaded before the abort
        w.write_batch(batch)
    w.abort()
    with pytest.raises(ValueError):
        with vs.parquet.ParquetWriter(s3.uri("b/x.parquet"), schema) as w:
            w.write_batch(batch)
            raise ValueError("the caller fails mid-write")
    w = vs.parquet.ParquetWriter(s3.uri("c/x.parquet"), schema)
    w.write_batch(batch)
    del w  # an unclosed writer: dropped, never published
    assert s3.keys() == []
    assert s3.uploads() == []


def test_a_failed_write_without_permission_to_abort_leaves_no_object(monkeypatch):
    """A least-privilege writer may not abort multipart uploads. Until 2026-11-30 the
    refused abort left the S3 stream to its destructor, which completed the upload: the
    rows written so far appeared, under the final name, as a valid file."""
    import json
    import urllib.request

    import boto3
    from s3server import ACCESS_KEY, REGION, SECRET_KEY, S3Server

    server = S3Server()  # its own: authorization is switched on for the whole server
    try:
        admin = dict(endpoint_url=server.endpoint, aws_access_key_id=ACCESS_KEY,
                     aws_secret_access_key=SECRET_KEY, region_name=REGION)
        boto3.client("s3", **admin).create_bucket(Bucket="least")
        iam = boto3.client("iam", **admin)
        iam.create_user(UserName="writer")
        allowed = ["s3:PutObject", "s3:GetObject", "s3:ListBucket",
                   "s3:ListBucketMultipartUploads"]
        iam.put_user_policy(UserName="writer", PolicyName="no-abort", PolicyDocument=json.dumps(
            {"Version": "2012-10-17",
             "Statement": [{"Effect": "Allow", "Action": allowed, "Resource": "*"}]}))
        key = iam.create_access_key(UserName="writer")["AccessKey"]
        urllib.request.urlopen(urllib.request.Request(
            server.endpoint + "/moto-api/reset-auth", data=b"0",
            headers={"Content-Type": "text/plain"}, method="POST")).close()
        for name, value in server.env.items():
            monkeypatch.setenv(name, value)
        monkeypatch.setenv("AWS_ACCESS_KEY_ID", key["AccessKeyId"])
        monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", key["SecretAccessKey"])

        def documents():  # enough for uploaded parts before the failure
            for i in range(120_000):
                yield json.dumps({"a": i, "pad": "p" * 50})
            raise RuntimeError("the input failed")

        with pytest.raises(RuntimeError, match="the input failed"):
            vs.parquet.write_json(documents(), "s3://least/x.parquet", chunk_rows=10_000,
                                  compression="none")
        schema = pa.schema([("v", vs.variant_type())])
        batch = pa.record_batch([vs.from_json(pa.array(DOCS))], schema=schema)
        with pytest.raises(ValueError, match="mid-write"):
            with vs.parquet.ParquetWriter("s3://least/y.parquet", schema,
                                          compression="none") as w:
                for _ in range(20):
                    w.write_batch(batch)
                raise ValueError("the caller fails mid-write")
        listed = boto3.client("s3", endpoint_url=server.endpoint, region_name=REGION,
                              aws_access_key_id=key["AccessKeyId"],
                              aws_secret_access_key=key["SecretAccessKey"])
        assert listed.list_objects_v2(Bucket="least").get("Contents", []) == []
    finally:
        server.stop()


def test_an_object_named_as_a_dataset_folder_is_refused(s3):
    # On S3 the write succeeded, and the object then hid the dataset under that prefix
    # (a read of ds/ gave its one row instead of the dataset's), until 2026-11-30.
    for i in range(2):
        vs.parquet.write_json(['{"a": 1}'] * 10, s3.uri(f"ds/part-{i}.parquet"))
    with pytest.raises(OSError, match="ds: is a directory"):
        vs.parquet.write_json(['{"a": 1}'], s3.uri("ds"))
    assert s3.keys() == ["ds/part-0.parquet", "ds/part-1.parquet"]
    assert vs.parquet.read_table(s3.uri("ds/")).num_rows == 20


def test_missing_object_and_bucket_name_the_uri(s3):
    with pytest.raises(OSError, match=r"s3://.*/nothing\.parquet"):
        vs.parquet.read_table(s3.uri("nothing.parquet"))
    with pytest.raises(OSError, match="s3://no-such-bucket-here"):
        vs.parquet.write_json(DOCS[:5], "s3://no-such-bucket-here/x.parquet")


def test_file_uri_is_the_local_file(tmp_path):
    uri = f"file://{tmp_path}/x.parquet"
    vs.parquet.write_json(DOCS[:10], uri)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.parquet"]
    assert _ids(vs.parquet.read_table(uri)) == list(range(10))
    assert _ids(vs.parquet.read_table(tmp_path / "x.parquet")) == list(range(10))
