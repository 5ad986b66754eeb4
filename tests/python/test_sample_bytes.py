# Licensed under the Apache License, Version 2.0.
"""The inference sample is bounded in bytes as well as rows: wide documents do not
multiply the driver's memory (a 100 000-row sample of 14 KB documents took 1.4 GB)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from varshred import cli, jsonlines

DOC_BYTES = 16 << 10


def _wide_docs(path, n: int) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            doc = {"id": i, "fields": {f"k{j}": f"{i}-{j}-" + "x" * 40 for j in range(250)}}
            line = json.dumps(doc)
            assert len(line) < DOC_BYTES
            f.write(line + " " * (DOC_BYTES - 1 - len(line)) + "\n")  # exactly DOC_BYTES


def _sampled(bound: int, ranges: int = jsonlines._SAMPLE_WINDOWS) -> int:
    """Documents a byte bound takes from a plain file, sampled from ``ranges`` byte
    ranges sharing the bound: in each, up to and including the one crossing its share
    (a line's bytes without its newline count)."""
    return ranges * -(-(bound // ranges) // (DOC_BYTES - 1))


def test_sample_stops_at_the_byte_bound(tmp_path):
    _wide_docs(tmp_path / "a.jsonl", 300)
    _wide_docs(tmp_path / "b.jsonl", 300)
    files = [str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")]
    # 1 MB over two files: 512 KB from each, 32 KB from each of its 16 ranges: two
    # documents of 16 KB and the one crossing the bound.
    stats = jsonlines.sample_stats(files, 100_000, sample_bytes=1 << 20)
    assert stats.rows == 2 * _sampled(512 << 10) == 96
    assert jsonlines.sample_stats(files, 100_000, sample_bytes=0).rows == 600
    assert jsonlines.sample_stats(files, 10, sample_bytes=1 << 20).rows == 10


def test_wide_sample_keeps_the_driver_small(tmp_path):
    """Peak memory of the sample pass in a fresh process: a 48 MB file of 16 KB documents
    sampled with a 4 MB bound grows the process by about 24 MB (without a byte bound the
    whole file was one chunk, text, strings and Variant values at once: 180 MB)."""
    path = tmp_path / "wide.jsonl"
    _wide_docs(path, 3000)
    code = f"""
import resource, pyarrow as pa, varshred
from varshred import jsonlines
varshred.from_json(pa.array(['{{"warm": "up"}}']))  # the allocator's first pages (~50 MB)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
stats = jsonlines.sample_stats([{str(path)!r}], 100_000, sample_bytes=4 << 20)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(stats.rows, (after - before) * 1024)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    rows, growth = int(out[0]), int(out[1])
    assert rows == _sampled(4 << 20)
    assert growth < 40 << 20, f"the sample pass grew the process by {growth >> 20} MB"


@pytest.mark.parametrize("text, value", [("0", 0), ("4096", 4096), ("64M", 64 << 20),
                                         ("1g", 1 << 30), ("512KB", 512 << 10)])
def test_sample_bytes_option(text, value):
    assert cli._size(text) == value


@pytest.mark.parametrize("text", ["", "M", "-1", "1T", "lots"])
def test_sample_bytes_option_rejects(text):
    with pytest.raises(argparse.ArgumentTypeError, match="a size such as 64M"):
        cli._size(text)


def test_sample_spans_the_whole_file(tmp_path):
    """A field that appears only in the last quarter of a file is in the sample, and so
    typed: a head sample of the first 100 000 rows never saw it."""
    path = tmp_path / "late.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for i in range(200_000):
            f.write(json.dumps({"id": i, **({"late": f"x{i}"} if i >= 150_000 else {})})
                    + "\n")
    stats = jsonlines.sample_stats([str(path)], 100_000)
    assert 90_000 <= stats.rows <= 100_000
    assert "late" in stats.derive_schema().to_ddl()
    # Compressed files cannot be read from the middle: their head is the sample.
    import gzip
    gz = tmp_path / "late.jsonl.gz"
    gz.write_bytes(gzip.compress(path.read_bytes()))
    assert "late" not in jsonlines.sample_stats([str(gz)], 100_000).derive_schema().to_ddl()


@pytest.mark.parametrize("compressed", [False, True])
def test_the_sample_skips_lines_too_long_to_read_whole(tmp_path, monkeypatch, compressed):
    """A line of hundreds of MB took several times its size on the driver: the sample
    leaves out lines over its longest, never reading them whole, and keeps the rest."""
    import gzip

    monkeypatch.setattr(jsonlines, "_SAMPLE_LONGEST_LINE", 1 << 20)
    long_line = json.dumps({"long": "x" * (3 << 20)})
    lines = [json.dumps({"i": i}) for i in range(5)] + [long_line] + \
        [json.dumps({"j": j}) for j in range(5)]
    text = ("\n".join(lines) + "\n").encode()
    path = tmp_path / ("a.jsonl.gz" if compressed else "a.jsonl")
    path.write_bytes(gzip.compress(text) if compressed else text)
    stats = jsonlines.sample_stats([str(path)], 100_000, sample_bytes=0)
    assert stats.rows == 10
    assert {"i", "j"} <= set(stats.type_counts()) and "long" not in stats.type_counts()
