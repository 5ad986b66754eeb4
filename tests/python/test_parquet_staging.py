# Licensed under the Apache License, Version 2.0.
"""A Parquet write stages its bytes in a hidden file beside the target: a write killed
mid-way leaves nothing that Spark, DuckDB or pyarrow.dataset read from the directory,
and I/O errors name the target and the OS error."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time

import pyarrow as pa
import pyarrow.dataset as ds
import pytest

import varshred as vs

# Writes row groups to argv[1] until killed.
ENDLESS_WRITER = textwrap.dedent("""
    import json, sys
    import pyarrow as pa
    import varshred as vs
    v = vs.from_json(pa.array([json.dumps({"a": i, "s": "x" * (i % 90)}) for i in range(20000)]))
    schema = pa.schema([("v", v.type)])
    with vs.parquet.ParquetWriter(sys.argv[1], schema, shredding={"v": "a bigint"},
                                  row_group_size=20000) as w:
        while True:
            w.write_batch(pa.record_batch([v], schema=schema))
""")


def _killed_write(directory) -> list[str]:
    """Starts a large write of directory/out.parquet, SIGKILLs it once its staging file
    holds a few row groups, and returns the names left in the directory."""
    target = os.path.join(directory, "out.parquet")
    proc = subprocess.Popen([sys.executable, "-c", ENDLESS_WRITER, target])
    try:
        deadline = time.time() + 120
        while time.time() < deadline:
            staged = [n for n in os.listdir(directory) if "varshred-tmp" in n]
            if staged and os.path.getsize(os.path.join(directory, staged[0])) > 1 << 20:
                break
            assert proc.poll() is None, "the writer ended on its own"
            time.sleep(0.05)
        else:
            pytest.fail("the staging file never grew")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    return sorted(n for n in os.listdir(directory) if n != "done.parquet")


def _finished_file(directory) -> str:
    path = os.path.join(directory, "done.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_json(['{"a": 1}', '{"a": 2}'])}), path,
                           shredding={"v": "a bigint"})
    return path


def test_killed_write_leaves_only_a_hidden_file(tmp_path):
    _finished_file(tmp_path)
    left = _killed_write(tmp_path)
    assert len(left) == 1 and left[0].startswith(".out.parquet.varshred-tmp-"), left
    # Directory readers see the finished file only.
    assert [os.path.basename(f) for f in ds.dataset(str(tmp_path)).files] == ["done.parquet"]
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    for pattern in ("*.parquet", "[!.]*"):  # the latter matched the old visible name
        n = con.execute(f"select count(*) from read_parquet('{tmp_path}/{pattern}')").fetchone()
        assert n == (2,), pattern


@pytest.mark.spark
def test_spark_reads_past_a_killed_write(spark, tmp_path):
    _finished_file(tmp_path)
    assert len(_killed_write(tmp_path)) == 1
    df = spark.read.parquet(str(tmp_path))
    assert sorted(r.a for r in df.selectExpr("variant_get(v, '$.a', 'int') as a").collect()) \
        == [1, 2]


def test_staging_file_is_hidden_beside_the_target(tmp_path):
    target = tmp_path / "t.parquet"
    schema = pa.schema([("v", vs.variant_type())])
    with vs.parquet.ParquetWriter(str(target), schema) as w:
        w.write_batch(pa.record_batch([vs.from_json(['{"a": 1}'])], schema=schema))
        (staged,) = os.listdir(tmp_path)
        assert staged.startswith(".t.parquet.varshred-tmp-")
    assert os.listdir(tmp_path) == ["t.parquet"]


def _table():
    return pa.table({"v": vs.from_json(['{"a": 1}'])})


def test_write_errors_name_the_target_and_the_os_error(tmp_path):
    (tmp_path / "file").write_text("")
    target = str(tmp_path / "file" / "out.parquet")
    with pytest.raises(OSError) as e:
        vs.parquet.write_table(_table(), target)
    assert target in str(e.value) and "Not a directory" in str(e.value)
    assert "varshred-tmp" not in str(e.value)
    # The errno is the exception's, as Python's own I/O errors carry it.
    assert isinstance(e.value, NotADirectoryError) and e.value.errno == errno.ENOTDIR
    with pytest.raises(FileNotFoundError) as e:
        vs.parquet.read_table(str(tmp_path / "none.parquet"))
    assert e.value.errno == errno.ENOENT
    # A directory in the way: the rename fails, the staged file goes.
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x").write_text("")
    with pytest.raises(OSError) as e:
        vs.parquet.write_table(_table(), str(tmp_path / "d"))
    assert str(tmp_path / "d") in str(e.value) and "varshred-tmp" not in str(e.value)
    assert sorted(os.listdir(tmp_path)) == ["d", "file"]


def test_no_space_left_names_the_target(tmp_path):
    """A 1 MiB tmpfs (needs root and permission to mount; skipped otherwise)."""
    small = tmp_path / "small"
    small.mkdir()
    if os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(small)],
            capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs")
    try:
        docs = pa.array([f'{{"a": {i}, "s": "{os.urandom(40).hex()}"}}' for i in range(50000)])
        target = str(small / "big.parquet")
        v = vs.from_json(docs)
        for table in (pa.table({"v": v}),
                      pa.table({"v": v, "l": pa.array([[i] for i in range(len(v))])})):
            with pytest.raises(OSError) as e:
                vs.parquet.write_table(table, target, compression="uncompressed",
                                       row_group_size=5000)
            assert str(e.value).startswith(target + ": ")
            assert "No space left on device" in str(e.value)
            assert os.listdir(small) == []
    finally:
        subprocess.run(["umount", str(small)], check=True)


def test_cli_reads_past_staging_directories_and_hidden_files(tmp_path, capsys):
    from varshred import cli

    table = pa.table({"v": vs.from_json(['{"a": 1}'])})
    vs.parquet.write_table(table, str(tmp_path / "part-0.parquet"))
    # A killed job's staging directory (pipeline, data source) holds finished parts.
    (tmp_path / "_varshred_staging_0").mkdir()
    vs.parquet.write_table(pa.table({"v": vs.from_json(['{"a": 2}'])}),
                           str(tmp_path / "_varshred_staging_0" / "part-1.parquet"))
    (tmp_path / ".out.parquet.varshred-tmp-1").write_bytes(b"PAR1 partial")
    assert cli.main(["get", str(tmp_path), "$.a", "--type", "int"]) == 0
    assert capsys.readouterr().out.split() == ["1"]


def test_a_fork_dropping_an_inherited_writer_leaves_the_parents_file(tmp_path):
    # The child's copy of the writer is the parent's file: dropping it (a normal exit
    # runs its destructor) neither deletes the staged file nor writes a footer into it.
    target = tmp_path / "x.parquet"
    w = vs.parquet.ParquetWriter(str(target), pa.schema([("v", vs.variant_type())]))
    w.write_json(['{"a": 1}'] * 1000)
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        try:
            del w
            import gc
            gc.collect()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    w.write_json(['{"a": 2}'] * 1000)
    w.close()
    assert vs.to_python(vs.parquet.read_table(str(target))["v"]) == \
        [{"a": 1}] * 1000 + [{"a": 2}] * 1000


def test_an_existing_directory_is_refused_before_any_row(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(OSError, match="d: is a directory"):
        vs.parquet.ParquetWriter(str(tmp_path / "d"), pa.schema([("v", vs.variant_type())]))


@pytest.mark.parametrize("length", [222, 255])
def test_names_up_to_the_longest_the_os_allows_are_written(tmp_path, length):
    # The staged name adds about 35 bytes to the target's: cut, not refused.
    name = "é" * ((length - 8) // 2) + "x" * ((length - 8) % 2) + ".parquet"
    assert len(name.encode()) == length
    vs.parquet.write_json(['{"a": 1}'], str(tmp_path / name))
    assert os.listdir(tmp_path) == [name]
