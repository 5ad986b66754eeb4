# Licensed under the Apache License, Version 2.0.
"""One set of limits (nesting depth 500, value size 128 MiB) for everything varshred
writes and reads, and clear errors instead of crashes where input controls recursion
depth or Parquet C++ throws."""

from __future__ import annotations

import struct
import subprocess
import sys
import textwrap

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import varshred as vs

DEPTH = 500
SIZE = 128 << 20


def nested_json(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


# ---- shredding schemas (item 9) ---------------------------------------------------------

@pytest.mark.parametrize("ddl", [
    "array<" * 30000 + "int" + ">" * 30000,
    "struct<a: " * 10000 + "int" + ">" * 10000,
    "a " + "array<" * 30000 + "int" + ">" * 30000,
])
def test_deep_shredding_ddl_is_an_error_not_a_stack_overflow(ddl):
    with pytest.raises(vs.VariantError, match=r"nesting deeper than the limit of 30 at column"):
        vs.ShreddingSchema.parse(ddl)


SHREDDING_DEPTH = 30  # typed levels whose layout Arrow (64) and Parquet (100) readers take


def test_shredding_ddl_depth_stops_where_readers_stop():
    ok = "array<" * SHREDDING_DEPTH + "int" + ">" * SHREDDING_DEPTH
    assert vs.ShreddingSchema.parse(ok).to_ddl() == ok
    with pytest.raises(vs.VariantError, match="limit of 30"):
        vs.ShreddingSchema.parse("array<" + ok + ">")


def test_deepest_shredding_schema_writes_a_file_that_reads_back(tmp_path):
    """The deepest schema the parser takes, and one inferred from deeper values, give
    files that varshred, pyarrow and the Arrow C data interface read back."""
    doc = "[" * 40 + "1" + "]" * 40
    v = vs.from_json([doc, "[" * 3 + '"x"' + "]" * 3, '{"a":' * 40 + "1" + "}" * 40])
    for schema in ("array<" * SHREDDING_DEPTH + "bigint" + ">" * SHREDDING_DEPTH,
                   "struct<a: " * SHREDDING_DEPTH + "bigint" + ">" * SHREDDING_DEPTH,
                   vs.infer_schema(v)):
        path = str(tmp_path / "deep.parquet")
        vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": schema})
        assert vs.to_json(vs.parquet.read_table(path).column("v")).to_pylist() == \
            vs.to_json(v).to_pylist()
        # As stored, through Arrow's C data interface (31 levels passed its 64).
        stored = vs.parquet.read_table(path, shredded=True).column("v")
        assert vs.to_json(stored).to_pylist() == vs.to_json(v).to_pylist()
        vs.unshred(vs.shred(v, vs.ShreddingSchema.parse(schema) if isinstance(schema, str)
                            else schema))


def test_deep_shredding_paths_and_arrow_types_are_errors():
    with pytest.raises(vs.VariantError, match=r"shredding path .*limit of 30"):
        vs.ShreddingSchema.from_paths([(".".join(["a"] * 30000), "int")])
    with pytest.raises(vs.VariantError, match=r"shredding path .*limit of 30"):
        vs.ShreddingSchema.from_paths([("a.b", "array<" * 29 + "int" + ">" * 29)])
    # Arrow's C data interface stops at 64 levels before varshred's own limit (the C++
    # suite covers FromArrow past 500).
    t = pa.int32()
    for _ in range(2000):
        t = pa.list_(pa.field("element", pa.struct([("typed_value", t)]), nullable=False))
    with pytest.raises(vs.VariantError, match="Recursion level"):
        vs.ShreddingSchema.from_arrow(t)


def test_deep_shredding_option_names_the_column(tmp_path):
    v = vs.from_json(['{"a": 1}'])
    with pytest.raises(vs.VariantError, match=r"^shredding\['v'\]: .*limit of 30 at column"):
        vs.parquet.write_table(pa.table({"v": v}), str(tmp_path / "x.parquet"),
                               shredding={"v": "array<" * 30000 + "int" + ">" * 30000})


# ---- validation depth (item 10) ------------------------------------------------------------

def deep_array_bytes(depth: int) -> bytes:
    """A value of `depth` nested one-element arrays around int8 1, built by hand."""
    headers, size = [], 2  # int8 1: 0c 01
    for _ in range(depth):  # innermost first; 4-byte offsets [0, size] once past 255
        h = bytes([0x03, 1, 0, size]) if size < 256 else \
            bytes([0x0F, 1]) + struct.pack("<II", 0, size)
        headers.append(h)
        size += len(h)
    return b"".join(reversed(headers)) + b"\x0c\x01"


def variants_of(value: bytes) -> pa.StructArray:
    return pa.StructArray.from_arrays(
        [pa.array([b"\x01\x00\x00"]), pa.array([value])], ["metadata", "value"])


def test_validate_max_depth_above_the_limit_is_a_value_error():
    deep = variants_of(deep_array_bytes(30000))
    with pytest.raises(ValueError, match=r"max_depth 100000 is outside 0\.\.500"):
        vs.validate(deep, max_depth=100_000)
    with pytest.raises(ValueError, match="max_depth"):
        vs.validate(variants_of(b"\x00"), max_depth=501)
    with pytest.raises(vs.VariantError, match="nesting deeper than the limit of 500"):
        vs.validate(deep, max_depth=500)
    vs.validate(variants_of(deep_array_bytes(DEPTH)))


def test_every_reader_refuses_a_deep_value_cleanly():
    deep = variants_of(deep_array_bytes(30000))
    for fn in (vs.to_json, vs.to_python, vs.validate):
        with pytest.raises(vs.VariantError, match="row 0: .*nesting deeper"):
            fn(deep)


# ---- one set of limits for writing and reading (item 14) ----------------------------------

def test_from_json_stops_at_the_read_depth_limit():
    assert vs.to_json(vs.from_json([nested_json(DEPTH)])).to_pylist() == [nested_json(DEPTH)]
    with pytest.raises(vs.VariantError, match="row 1: .*nesting deeper than 500"):
        vs.from_json(["1", nested_json(DEPTH + 1)])
    assert vs.from_json(["1", nested_json(DEPTH + 1)], errors="null").is_null().to_pylist() \
        == [False, True]


def test_from_json_refuses_values_over_the_size_limit():
    big = '"' + "x" * (SIZE + 16) + '"'
    with pytest.raises(vs.VariantError, match=r"row 1: value of \d+ bytes exceeds the size "
                                              r"limit of 134217728"):
        vs.from_json(pa.array(["1", big], pa.large_string()))
    out = vs.from_json(pa.array(["1", big], pa.large_string()), errors="null")
    assert out.is_null().to_pylist() == [False, True]


def test_from_python_stops_at_the_read_depth_limit():
    deep = 1
    for _ in range(DEPTH + 1):
        deep = [deep]
    # The conversion stops at the limit and names the path (test_python_values_hostile).
    with pytest.raises(vs.VariantError, match=r"^row 1: \$(\[0\]){500}: nesting deeper "
                                              r"than the limit of 500"):
        vs.from_python([1, deep])
    vs.validate(vs.from_python([deep[0]]))


@pytest.mark.parametrize("errors", ["raise", "null"])
def test_write_json_writes_only_what_readers_read(tmp_path, errors):
    path = str(tmp_path / "limits.parquet")
    rows = ['{"a": 1}', '{"a": ' + nested_json(DEPTH + 1) + "}", nested_json(DEPTH - 1)]
    if errors == "raise":
        with pytest.raises(vs.VariantError, match="row 1: .*nesting deeper than 500"):
            vs.parquet.write_json(rows, path, errors=errors)
        return
    assert vs.parquet.write_json(rows, path, errors=errors) == 3
    got = vs.parquet.read_table(path)["v"]
    assert vs.to_json(got).to_pylist() == ['{"a":1}', None, nested_json(DEPTH - 1)]


def test_write_json_refuses_or_nulls_oversized_rows(tmp_path):
    path = str(tmp_path / "big.parquet")
    rows = pa.array(['{"a": 1}', '{"a": "' + "x" * (SIZE + 16) + '"}'], pa.large_string())
    with pytest.raises(vs.VariantError, match=r"row 1: value (of \d+ bytes )?exceeds the size"):
        vs.parquet.write_json(rows, path, errors="raise")
    assert vs.parquet.write_json(rows, path, errors="null") == 2
    assert vs.to_json(vs.parquet.read_table(path)["v"]).to_pylist() == ['{"a":1}', None]


# ---- corrupt footers ---------------------------------------------------------------------

# Runs in a subprocess: flips each footer byte in turn and calls every reader entry point
# in a forked child, so that an abort (an exception escaping C++) shows up as a child's
# signal and is reported instead of killing pytest. About 0.1 s per byte under ASan.
FUZZ = textwrap.dedent("""
    import os, struct, sys
    import varshred as vs
    src, bad = sys.argv[1], sys.argv[2]
    data = open(src, "rb").read()
    length = struct.unpack("<I", data[-8:-4])[0]  # the file ends [footer][len][PAR1]
    calls = {
        "read_table": lambda: vs.parquet.read_table(bad),
        "read_table(shredded)": lambda: vs.parquet.read_table(bad, shredded=True),
        "iter_batches": lambda: list(vs.parquet.iter_batches(bad)),
        "inspect": lambda: vs.parquet.inspect(bad),
        "shredding_counts": lambda: vs.parquet.shredding_counts(bad),
        "read_paths": lambda: vs.parquet.read_paths(bad, "v", {"a": "bigint", "b": None}),
        "prunable_row_groups": lambda: vs.parquet.prunable_row_groups(bad, "v", "a", "<", 3),
    }
    errors = (ValueError, TypeError, KeyError, IndexError, OSError, MemoryError,
              NotImplementedError)
    # Every call once on the intact file first: what they import on first use (pyarrow
    # loads pandas, 1 s under ASan) is then imported once, not in every forked child.
    with open(bad, "wb") as f:
        f.write(data)
    for call in calls.values():
        call()
    for at in range(len(data) - 8 - length, len(data) - 8):
        mutated = bytearray(data)
        mutated[at] ^= (0x01, 0x04, 0xFF)[at % 3]  # one flip per byte keeps this short
        with open(bad, "wb") as f:
            f.write(mutated)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # every call in one child; the pipe says which one was running
            os.close(read)
            for name, call in calls.items():
                os.write(write, (name + "\\n").encode())
                try:
                    call()
                except errors:
                    pass
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as f:
            ran = f.read().split()
        _, status = os.waitpid(pid, 0)
        if status:
            print(f"footer byte {at}: {ran[-1] if ran else '?'} died ({status:#x})")
""")


def corrupt_footer_source(tmp_path) -> str:
    src = str(tmp_path / "src.parquet")
    v = vs.from_json([f'{{"a": {i}, "b": "s{i}"}}' for i in range(30)] + ['{"a": "x"}'])
    vs.parquet.write_table(pa.table({"v": v}), src, shredding={"v": "a bigint, b string"},
                           row_group_size=16)
    return src


def test_corrupt_footers_give_errors_not_aborts(tmp_path):
    src = corrupt_footer_source(tmp_path)
    r = subprocess.run([sys.executable, "-c", FUZZ, src, str(tmp_path / "bad.parquet")],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout == "", r.stdout[:3000]


def footer_of(data: bytes) -> range:
    """Offsets of the thrift FileMetaData: the file ends [metadata][len][PAR1]."""
    length = struct.unpack("<I", data[-8:-4])[0]
    return range(len(data) - 8 - length, len(data) - 8)


def histogram_corrupt_file(tmp_path) -> str:
    """A file whose footer has a definition-level histogram of the wrong size: pyarrow's
    metadata accessors abort the process on it (an uncaught parquet::ParquetException).
    varshred writes no level histograms: pyarrow writes the shredded columns here."""
    shredded = vs.parquet.read_table(corrupt_footer_source(tmp_path), shredded=True)
    source = str(tmp_path / "pyarrow.parquet")
    pq.write_table(shredded, source, row_group_size=16)
    data = open(source, "rb").read()
    bad = str(tmp_path / "bad.parquet")
    for at in footer_of(data):
        mutated = bytearray(data)
        mutated[at] ^= 0x01
        with open(bad, "wb") as f:
            f.write(mutated)
        try:
            vs.parquet.inspect(bad)
            vs.parquet.shredding_counts(bad)
        except vs.VariantError as e:
            if "histogram size mismatch" in str(e):
                return bad
    pytest.fail("no footer byte gives a histogram of the wrong size")


def test_corrupt_footer_histogram_is_an_error_naming_the_file(tmp_path):
    bad = histogram_corrupt_file(tmp_path)
    code = textwrap.dedent("""
        import sys, varshred as vs
        for fn in (vs.parquet.shredding_counts, vs.parquet.read_table):
            try:
                fn(sys.argv[1])
            except (vs.VariantError, OSError) as e:
                print(e)
    """)
    r = subprocess.run([sys.executable, "-c", code, bad], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr[-1000:]
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith(f"{bad}: ") for line in lines), lines
    assert f"{bad}: corrupt Parquet file" in lines[0] and "histogram" in lines[0]


@pytest.mark.parametrize("command", [["inspect", "{bad}"], ["to-json", "{bad}", "{out}"],
                                     ["get", "{bad}", "a"]])
def test_cli_reports_corrupt_files(tmp_path, command):
    bad = histogram_corrupt_file(tmp_path)
    args = [a.format(bad=bad, out=tmp_path / "out.json") for a in command]
    r = subprocess.run([sys.executable, "-m", "varshred.cli", *args], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 1, (r.returncode, r.stderr[-1000:])
    assert r.stderr.startswith("varshred: error: ") and "bad.parquet" in r.stderr, r.stderr


# ---- writer options ------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["none", "NONE", "uncompressed", "Zstd", "lz4"])
def test_compression_names_are_case_insensitive_and_none_is_accepted(tmp_path, name):
    path = str(tmp_path / "c.parquet")
    v = vs.from_json(['{"a": 1}', '{"a": "x"}'])
    vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": "a bigint"},
                           compression=name)
    codec = pq.ParquetFile(path).metadata.row_group(0).column(0).compression
    assert codec == ("UNCOMPRESSED" if name.lower() in ("none", "uncompressed")
                     else name.upper())
    assert vs.to_json(vs.parquet.read_table(path)["v"]).to_pylist() == ['{"a":1}', '{"a":"x"}']


def test_unknown_compression_lists_the_valid_names(tmp_path):
    with pytest.raises(vs.VariantError, match=r"unknown compression 'lzma' \(valid: none, "
                                              r"uncompressed, snappy, gzip, brotli, zstd, lz4\)"):
        vs.parquet.write_table(pa.table({"v": vs.from_json(["1"])}),
                               str(tmp_path / "c.parquet"), compression="lzma")


@pytest.mark.parametrize("schema, message", [
    ("array<" * 30000 + "int" + ">" * 30000, r"^--schema: .*limit of 30 at column"),
    ('{"v": "' + "array<" * 30000 + "int" + ">" * 30000 + '"}',
     r"^--schema: column 'v': .*limit of 30 at column"),
    ('{"v": "infer"}', r"^--schema: column 'v': .*unknown type 'infer'"),
    ("{" * 30000, r"^--schema: not a JSON object"),
])
def test_shred_job_checks_every_schema_before_starting(tmp_path, schema, message):
    from varshred.pipeline import JobError, ShredJob

    with pytest.raises(JobError, match=message):
        ShredJob(str(tmp_path / "in.jsonl"), str(tmp_path / "out"), schema=schema).run()


def _deep_shredded_objects(levels: int) -> pa.StructArray:
    """One row {"a": {"a": ... 1}} shredded `levels` objects deep, as Spark's and
    DuckDB's writers shred a value as deep as it nests (varshred's stops at 30)."""
    typed = pa.array([1], pa.int64())
    for _ in range(levels):
        field = pa.StructArray.from_arrays([pa.array([None], pa.binary()), typed],
                                           ["value", "typed_value"])
        typed = pa.StructArray.from_arrays([field], ["a"])
    return pa.StructArray.from_arrays(
        [pa.array([b"\x01\x01\x00\x01a"]), pa.array([None], pa.binary()), typed],
        ["metadata", "value", "typed_value"])


def test_files_shredded_deeper_than_varshred_writes_are_read(tmp_path):
    """60 object levels: a Parquet schema past Parquet C++'s default depth of 100 (the
    file was refused) and Arrow types past the C data interface's 64 (read_paths and
    to-json, which import columns as stored, failed)."""
    path = str(tmp_path / "deep.parquet")
    pq.write_table(pa.table({"v": _deep_shredded_objects(60)}), path)
    want = '{"a":' * 60 + "1" + "}" * 60
    assert vs.to_json(vs.parquet.read_table(path)["v"]).to_pylist() == [want]
    assert vs.parquet.inspect(path)[0].layout == "shredded"
    got = vs.parquet.read_paths(path, "v", {"a": "string", "$" + ".a" * 60: "int"})
    assert got.to_pylist() == [{"a": want[5:-1], "$" + ".a" * 60: 1}]
    with pytest.raises(vs.VariantError, match="read them with shredded=False"):
        vs.parquet.read_table(path, shredded=True)
    out = subprocess.run([sys.executable, "-m", "varshred", "to-json", path],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [want]  # a lone Variant column prints its values
