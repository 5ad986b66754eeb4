# Licensed under the Apache License, Version 2.0.
"""The foreign-producer corpus: Variant values and Parquet files made at test time by
the real engines (DuckDB 2.0 and Spark 4.3, docs/interop.md#spark and #duckdb), with what each row
should hold. Built once per test session (conftest's ``duckdb_corpus`` and
``spark_corpus`` fixtures) in a temporary directory.

Every row carries an oracle independent of varshred: the Python value it must decode
to (``expected``, from ``json.loads`` of the document or written next to the SQL cast)
and the engine's own JSON text of it (``engine_json``). Compare logically with
:func:`same`, never as text: Spark prints ``125000``, DuckDB ``125000.0``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import glob
import json
import math
import os
import pathlib
import uuid
from typing import Any

import pyarrow as pa

UTC = dt.timezone.utc
D = decimal.Decimal

# -- JSON documents both engines parse ----------------------------------------------


def _wide(n: int, reverse: bool) -> str:
    keys = [f"k{i:03d}" for i in range(n)]
    return json.dumps({k: i for k, i in zip(reversed(keys) if reverse else keys, range(n))})


def _deep(n: int) -> str:
    return "[" * n + "1" + "]" * n


JSON_DOCS: list[tuple[str, str]] = [
    ("insertion_order", '{"b": 1, "a": 2, "c": {"z": true, "y": null}}'),
    ("non_bmp_keys", json.dumps({"\U0001F600": "smile \U0001F601", "é": 1, "a": 2, "Ω": [1],
                                 "\U00010348x": {"\U0001F600": 3}}, ensure_ascii=False)),
    ("array_of_objects", '{"items": [{"id": 1, "tags": ["a", "b"]}, {"id": 2, "price": 9.99},'
                         ' {"id": 3, "tags": []}]}'),
    ("numbers", '{"i8": 1, "i16": 300, "i32": 70000, "i64": 5000000000, "neg": -129,'
                ' "dec": 1.25, "dec18": 12345678901234.5678, "dbl": 1.5e300, "tiny": 1e-320,'
                ' "zero": 0.0, "nzero": -0.0, "big": 123456789012345678901234567890}'),
    ("scalar_int", "12345"),
    ("scalar_string", '"a string \\n with \\"escapes\\" \\u001f and \\u00e9"'),
    ("scalar_true", "true"),
    ("variant_null", "null"),
    ("empty_array", "[]"),
    ("empty_object", "{}"),
    ("mixed_array", '[1, "a", null, {"x": []}, [[]], 2.5, false]'),
    ("wide_300_sorted", _wide(300, reverse=False)),
    ("wide_300_reversed", _wide(300, reverse=True)),
    ("unsorted_40", _wide(40, reverse=True)),
    ("deep_40", _deep(40)),
    ("long_string_70k", json.dumps({"s": "x" * 70_000, "after": [1, {"k": "v"}]})),
    ("long_array_70k", json.dumps({"a": ["y" * 1000] * 70, "n": 1})),
    ("same_key_nested", '{"a": {"a": {"a": 1}}, "b": [{"a": 2}, {"b": 3}]}'),
    ("space_and_dot_keys", '{"key with space": 1, "dot.key": {"x": 2}}'),
    ("empty_key", '{"": 3, "a": {"": []}}'),
]
# Kept out of the engines' Parquet files: DuckDB names an empty key's shredded group
# "element1", which a correct reader must refuse.
NOT_IN_FILES = {"empty_key"}
SQL_NULL = "sql_null"

# -- Casts of SQL values: (name, DuckDB or Spark expression, expected Python value) ----

TS = dt.datetime(2020, 1, 1, 10, 0, 0, 123456)
DUCKDB_CASTS: list[tuple[str, str, Any]] = [
    ("bool", "true::VARIANT", True),
    ("tinyint", "(-5)::TINYINT::VARIANT", -5),
    ("smallint", "300::SMALLINT::VARIANT", 300),
    ("int", "70000::INTEGER::VARIANT", 70000),
    ("bigint", "5000000000::BIGINT::VARIANT", 5000000000),
    ("utinyint", "200::UTINYINT::VARIANT", 200),
    ("ubigint", "9000000000::UBIGINT::VARIANT", 9000000000),
    ("float", "1.5::FLOAT::VARIANT", 1.5),
    ("double", "0.1::DOUBLE::VARIANT", 0.1),
    ("decimal_4_1", "1.5::DECIMAL(4,1)::VARIANT", D("1.5")),
    ("decimal_18_3", "(-123456789012.345)::DECIMAL(18,3)::VARIANT", D("-123456789012.345")),
    ("decimal_38_10", "1234567890123456789012.5::DECIMAL(38,10)::VARIANT",
     D("1234567890123456789012.5")),
    ("varchar", "'héllo \U0001F600'::VARCHAR::VARIANT", "héllo \U0001F600"),
    ("blob", "'\\x00\\x01\\xFF'::BLOB::VARIANT", b"\x00\x01\xff"),
    ("date", "'2020-02-29'::DATE::VARIANT", dt.date(2020, 2, 29)),
    ("timestamp", "'2020-01-01 10:00:00.123456'::TIMESTAMP::VARIANT", TS),
    ("timestamptz", "'2020-01-01 10:00:00.123456+00'::TIMESTAMPTZ::VARIANT", TS.replace(tzinfo=UTC)),
    ("timestamp_ns", "'2020-01-01 10:00:00.123456789'::TIMESTAMP_NS::VARIANT", TS),
    ("time", "'12:34:56.5'::TIME::VARIANT", dt.time(12, 34, 56, 500000)),
    ("uuid", "'0f0e0d0c-0b0a-0908-0706-050403020100'::UUID::VARIANT",
     uuid.UUID("0f0e0d0c-0b0a-0908-0706-050403020100")),
    ("struct", "{'b': 1::BIGINT, 'a': [1::BIGINT, 2::BIGINT], 'c': {'x': 'y'}}::VARIANT",
     {"b": 1, "a": [1, 2], "c": {"x": "y"}}),
    ("list_of_structs", "[{'id': 1::BIGINT, 'n': 'a'}, {'id': 2::BIGINT, 'n': NULL}]::VARIANT",
     [{"id": 1, "n": "a"}, {"id": 2, "n": None}]),
    ("map", "MAP {'k': 1::BIGINT}::VARIANT", [{"key": "k", "value": 1}]),
]

SPARK_CASTS: list[tuple[str, str, Any]] = [
    ("bool", "cast(true as variant)", True),
    ("tinyint", "cast(-5Y as variant)", -5),
    ("smallint", "cast(300S as variant)", 300),
    ("int", "cast(70000 as variant)", 70000),
    ("bigint", "cast(5000000000L as variant)", 5000000000),
    ("float", "cast(cast(1.5 as float) as variant)", 1.5),
    ("double", "cast(0.1d as variant)", 0.1),
    ("decimal_3_2", "cast(1.25BD as variant)", D("1.25")),
    ("decimal_18_4", "cast(cast(-12345678901234.5678 as decimal(18,4)) as variant)",
     D("-12345678901234.5678")),
    ("decimal_38_10", "cast(cast(1234567890123456789012.5 as decimal(38,10)) as variant)",
     D("1234567890123456789012.5")),
    ("decimal_30_0", "cast(cast(12345678901234567890123 as decimal(30,0)) as variant)",
     D("12345678901234567890123")),
    ("string", "cast('héllo \U0001F600' as variant)", "héllo \U0001F600"),
    ("binary", "cast(X'0001FF' as variant)", b"\x00\x01\xff"),
    ("date", "cast(date'2020-02-29' as variant)", dt.date(2020, 2, 29)),
    ("timestamp", "cast(timestamp'2020-01-01 10:00:00.123456' as variant)",
     TS.replace(tzinfo=UTC)),
    ("timestamp_ntz", "cast(timestamp_ntz'2020-01-01 10:00:00.123456' as variant)", TS),
    ("array", "cast(array(1, 2, 3) as variant)", [1, 2, 3]),
    ("array_of_arrays", "cast(array(array('a'), array()) as variant)", [["a"], []]),
    ("object", "to_variant_object(named_struct('b', 1, 'a', named_struct('y', 2, 'x', array(1))))",
     {"b": 1, "a": {"y": 2, "x": [1]}}),
    ("array_of_objects", "to_variant_object(array(named_struct('id', 1), named_struct('id', 2)))",
     [{"id": 1}, {"id": 2}]),
    ("map_object", "to_variant_object(map('k', named_struct('a', 1.5d)))", {"k": {"a": 1.5}}),
]


@dataclasses.dataclass
class Corpus:
    """One producer's rows: ``variants`` is a canonical ``struct<metadata, value>`` column
    (a null slot is a SQL NULL), ``files`` the Parquet files the engine wrote of the
    object rows (``id`` and ``v`` columns; ``id`` indexes ``variants``)."""

    producer: str
    names: list[str]
    variants: pa.StructArray
    expected: list[Any]          # the Python value of each row (None: SQL NULL)
    engine_json: list[str | None]
    files: dict[str, str]        # setting -> Parquet file
    file_rows: dict[str, list[int]]  # setting -> the ids it holds

    def rows(self, names: list[str]) -> list[int]:
        return [self.names.index(n) for n in names]

    def object_rows(self) -> list[int]:
        return [i for i, e in enumerate(self.expected) if isinstance(e, dict)]


def _canonical(metadata: list, value: list, valid: list[bool]) -> pa.StructArray:
    m = pa.array([bytes(x) if x is not None else b"" for x in metadata], pa.binary())
    v = pa.array([bytes(x) if x is not None else b"" for x in value], pa.binary())
    fields = [pa.field("metadata", pa.binary(), False), pa.field("value", pa.binary(), False)]
    mask = pa.array([not ok for ok in valid], pa.bool_())
    return pa.StructArray.from_arrays([m, v], fields=fields, mask=mask)


def _json_expected(text: str) -> Any:
    return json.loads(text, parse_float=D)


def _duckdb_json_expected(text: str) -> Any:
    # DuckDB reads every JSON number with a fraction, or beyond 64 bits, as a double.
    return json.loads(text, parse_float=float,
                      parse_int=lambda s: int(s) if -2 ** 63 <= int(s) < 2 ** 64 else float(s))


# -- DuckDB ---------------------------------------------------------------------------


def build_duckdb(out_dir: pathlib.Path) -> Corpus:
    import duckdb

    con = duckdb.connect()
    con.execute("CREATE TABLE src (id INTEGER, name VARCHAR, v VARIANT)")
    names, expected = [], []
    for name, doc in JSON_DOCS:
        con.execute("INSERT INTO src VALUES (?, ?, ?::JSON::VARIANT)", [len(names), name, doc])
        names.append(name)
        expected.append(_duckdb_json_expected(doc))
    for name, expr, value in DUCKDB_CASTS:
        con.execute(f"INSERT INTO src VALUES (?, ?, {expr})", [len(names), name])
        names.append(name)
        expected.append(value)
    con.execute("INSERT INTO src VALUES (?, ?, NULL)", [len(names), SQL_NULL])
    names.append(SQL_NULL)
    expected.append(None)
    t = con.sql("SELECT v, v::JSON::VARCHAR AS j FROM src ORDER BY id").to_arrow_table()
    raw = t.column("v").combine_chunks()
    variants = _canonical(raw.field("metadata").to_pylist(), raw.field("value").to_pylist(),
                          raw.is_valid().to_pylist())
    engine_json = t.column("j").to_pylist()

    files, file_rows = {}, {}
    objects = [i for i, e in enumerate(expected)
               if isinstance(e, dict) and names[i] not in NOT_IN_FILES]
    ids = ", ".join(map(str, objects))
    settings = {
        "default": "",                                    # DuckDB shreds by default
        "unshredded": ", SHREDDING {v: 'NULL'}",
        "forced": ", SHREDDING {v: 'STRUCT(a BIGINT, b BIGINT, s VARCHAR, "
                  "items STRUCT(id BIGINT, tags VARCHAR[])[])'}",
    }
    for setting, option in settings.items():
        path = str(out_dir / f"duckdb_{setting}.parquet")
        con.execute(f"COPY (SELECT id, v FROM src WHERE id IN ({ids}) ORDER BY id) "
                    f"TO '{path}' (FORMAT parquet{option})")
        files[setting] = path
        file_rows[setting] = objects
    # Several row groups of typed numbers (struct input shreds as int64: C.2 quirk 1).
    path = str(out_dir / "duckdb_row_groups.parquet")
    con.execute(f"COPY (SELECT i AS id, {{'n': i::BIGINT, 's': 'x' || i, 'd': i * 0.5}}::VARIANT"
                f" AS v FROM range(6000) t(i)) TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 2048)")
    files["row_groups"] = path
    file_rows["row_groups"] = []
    return Corpus("duckdb", names, variants, expected, engine_json, files, file_rows)


def duckdb_huge(out_dir: pathlib.Path) -> tuple[pa.StructArray, str]:
    """One row over 16 MiB (4-byte offsets) between two small rows, and the DuckDB file of it."""
    import duckdb

    con = duckdb.connect()
    path = str(out_dir / "duckdb_huge.parquet")
    con.execute("CREATE TABLE src AS SELECT i AS id, CASE WHEN i = 1 THEN "
                "('{\"after\": [1, 2], \"s\": \"' || repeat('x', 17 << 20) || '\"}')::JSON::VARIANT"
                " ELSE '{\"after\": [], \"s\": \"small\"}'::JSON::VARIANT END AS v FROM range(3) t(i)")
    t = con.sql("SELECT v FROM src ORDER BY id").to_arrow_table().column("v").combine_chunks()
    con.execute(f"COPY src TO '{path}' (FORMAT parquet)")
    return _canonical(t.field("metadata").to_pylist(), t.field("value").to_pylist(),
                      [True] * 3), path


# -- Spark ----------------------------------------------------------------------------


def build_spark(spark, out_dir: pathlib.Path) -> Corpus:
    names, expected, selects = [], [], []
    for name, doc in JSON_DOCS:
        selects.append((name, "parse_json(" + _sql_string(doc) + ")"))
        expected.append(_json_expected(doc))
    for name, expr, value in SPARK_CASTS:
        selects.append((name, expr))
        expected.append(value)
    selects.append((SQL_NULL, "cast(null as variant)"))
    expected.append(None)
    names = [n for n, _ in selects]
    sql = " UNION ALL ".join(f"SELECT {i} AS id, {e} AS v" for i, (_, e) in enumerate(selects))
    df = spark.sql(sql)
    rows = sorted(df.selectExpr("id", "v", "to_json(v) AS j").collect(), key=lambda r: r.id)
    variants = _canonical([r.v.metadata if r.v is not None else None for r in rows],
                          [r.v.value if r.v is not None else None for r in rows],
                          [r.v is not None for r in rows])
    engine_json = [r.j for r in rows]

    files, file_rows = {}, {}
    objects = [i for i, e in enumerate(expected)
               if isinstance(e, dict) and names[i] not in NOT_IN_FILES]
    src = df.where(f"id IN ({', '.join(map(str, objects))})").orderBy("id").coalesce(1)
    settings = {
        "inferred": {},
        "unshredded": {"spark.sql.variant.writeShredding.enabled": "false"},
        "forced": {"spark.sql.variant.inferShreddingSchema": "false",
                   "spark.sql.variant.forceShreddingSchemaForTest":
                       "a bigint, b bigint, s string, items array<struct<id bigint, tags "
                       "array<string>>>, k000 int, `\U0001F600` string"},
    }
    for setting, conf in settings.items():
        with _conf(spark, conf):
            target = str(out_dir / f"spark_{setting}")
            src.write.mode("overwrite").parquet(target)
        files[setting] = _one_file(target)
        file_rows[setting] = objects
    target = str(out_dir / "spark_row_groups")
    (spark.range(6000).selectExpr(
        "id", "parse_json(format_string('{\"n\": %d, \"s\": \"x%d\", \"d\": %d.5}', id, id, id))"
              " AS v")
     .coalesce(1).write.option("parquet.block.size", 16384).mode("overwrite").parquet(target))
    files["row_groups"] = _one_file(target)
    file_rows["row_groups"] = []
    return Corpus("spark", names, variants, expected, engine_json, files, file_rows)


def _sql_string(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


class _conf:
    def __init__(self, spark, settings: dict):
        self.spark, self.settings, self.old = spark, settings, {}

    def __enter__(self):
        for k, v in self.settings.items():
            self.old[k] = self.spark.conf.get(k, None)
            self.spark.conf.set(k, v)

    def __exit__(self, *exc):
        for k, v in self.old.items():
            if v is None:
                self.spark.conf.unset(k)
            else:
                self.spark.conf.set(k, v)


def _one_file(directory: str) -> str:
    files = [f for f in sorted(glob.glob(os.path.join(directory, "*.parquet")))
             if os.path.getsize(f) > 0]
    assert len(files) == 1, files
    return files[0]


# -- Logical comparison ---------------------------------------------------------------


def same(a: Any, b: Any) -> bool:
    """Logical equality across engines and Python: numbers by value whatever their type
    (int, float, Decimal), floats with NaN equal to NaN, objects by key set."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float, D)) and isinstance(b, (int, float, D)):
        if isinstance(a, float) and isinstance(b, float):
            return a == b or (math.isnan(a) and math.isnan(b))
        try:
            return _dec(a) == _dec(b)
        except (decimal.InvalidOperation, ValueError, OverflowError):
            return False
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _dec(x: Any) -> D:
    # A float equals a decimal when its shortest repr does (0.1 == Decimal("0.1")).
    return D(repr(x)) if isinstance(x, float) else D(x)


def json_same(a: str | None, b: str | None) -> bool:
    """Two JSON texts hold the same value (numbers compared by value)."""
    if a is None or b is None:
        return a is b
    return same(_json_expected(a), _json_expected(b))


def paths_of(value: Any, limit: int = 40) -> list[tuple[str, Any]]:
    """(Spark path, sub-value) pairs inside ``value``, breadth first, at most ``limit``."""
    out: list[tuple[str, Any]] = []
    queue = [("$", value)]
    while queue and len(out) < limit:
        path, v = queue.pop(0)
        if isinstance(v, dict):
            for k in sorted(v)[:12]:
                p = f"{path}.{k}" if k.isidentifier() else f"{path}['{k}']" if "'" not in k else None
                if p is not None and k:
                    out.append((p, v[k]))
                    queue.append((p, v[k]))
        elif isinstance(v, list):
            for i, x in enumerate(v[:4]):
                out.append((f"{path}[{i}]", x))
                queue.append((f"{path}[{i}]", x))
    return out[:limit]


_OPS = {"==": lambda a, b: a == b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def compare(value: Any, op: str, literal: Any) -> bool:
    """``value <op> literal`` as a predicate on a variant_get result."""
    return _OPS[op](value, literal)
