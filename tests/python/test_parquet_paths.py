# Licensed under the Apache License, Version 2.0.
"""Parquet column paths are matched as lists of names, never as '.'-joined strings:
keys containing dots or named like shredding columns, through read_paths, pruning,
shredding_counts, inspect and the CLI; and pruning is sound on random data."""

from __future__ import annotations

import math
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import varshred as vs
from varshred import cli

# Keys that join to the same dotted Parquet path as a nested field ("x.typed_value.y"
# next to x: {y}), contain dots, or are named like the shredding columns themselves.
SCHEMA = ("struct<`user.id`: bigint, user: struct<id: bigint>, "
          "`x.typed_value.y`: bigint, x: struct<y: bigint>, "
          "value: bigint, typed_value: string, metadata: bigint, "
          "element: array<bigint>, list: array<bigint>>")


def _doc(i: int) -> dict:
    return {"user.id": i, "user": {"id": 1000 + i}, "x.typed_value.y": i,
            "x": {"y": 1000 + i}, "value": 2000 + i, "typed_value": f"t{i}",
            "metadata": 3000 + i, "element": [i, i + 1], "list": [4000 + i],
            "user.typed_value.id": 5000 + i}  # not shredded: stays in the residual


PATHS = {  # Spark path -> type
    "$['user.id']": "bigint", "$.user.id": "bigint",
    "$['x.typed_value.y']": "bigint", "$.x.y": "bigint", "$.x": None,
    "$['user.typed_value.id']": "bigint", "$.value": "bigint", "$.typed_value": "string",
    "$.metadata": "bigint", "$.element[1]": "bigint", "$.list[0]": "bigint",
}


@pytest.fixture(scope="module")
def varshred_file(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("keys") / "varshred.parquet")
    v = vs.from_python([_doc(i) for i in range(30)])
    vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": SCHEMA},
                           row_group_size=10)
    return path


@pytest.fixture(scope="module")
def duckdb_file(tmp_path_factory):
    duckdb = pytest.importorskip("duckdb")
    path = str(tmp_path_factory.mktemp("keys") / "duckdb.parquet")
    con = duckdb.connect()
    # DuckDB keeps at least 2048 rows per row group: three groups holding the values of
    # the 10-row groups above (group g: g * 10 .. g * 10 + 9).
    con.execute(f"""
        COPY (SELECT {{'user.id': i, 'user': {{'id': 1000 + i}}, 'x.typed_value.y': i,
                      'x': {{'y': 1000 + i}}, 'value': 2000 + i, 'typed_value': 't' || i,
                      'metadata': 3000 + i, 'element': [i, i + 1], 'list': [4000 + i],
                      'user.typed_value.id': 5000 + i}}::VARIANT AS v
              FROM (SELECT r // 2048 * 10 + least(r % 2048, 9) AS i, r FROM range(6144) t(r))
              ORDER BY r)
        TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 2048, SHREDDING {{v: 'STRUCT(
            "user.id" BIGINT, "user" STRUCT(id BIGINT), "x.typed_value.y" BIGINT,
            x STRUCT(y BIGINT), "value" BIGINT, "typed_value" VARCHAR, "metadata" BIGINT,
            "element" BIGINT[], "list" BIGINT[])'}})""")
    return path


@pytest.fixture(params=["varshred_file", "duckdb_file"])
def keys_file(request):
    return request.getfixturevalue(request.param)


def _group_rows(path: str) -> int:
    return pq.ParquetFile(path).metadata.row_group(0).num_rows


def _expected(path: str, p: str, type_name):
    full = vs.parquet.read_table(path)["v"]
    got = vs.variant_get(full, p, type_name)
    return vs.to_json(got).to_pylist() if type_name is None else got.to_pylist()


def test_read_paths_address_keys_not_joined_names(keys_file):
    out = vs.parquet.read_paths(keys_file, "v", PATHS)
    for p, type_name in PATHS.items():
        got = out[p] if type_name is not None else vs.to_json(out[p])
        assert got.to_pylist() == _expected(keys_file, p, type_name), p
    assert out["$['user.id']"].to_pylist()[:2] == [0, 1]
    assert out["$.user.id"].to_pylist()[:2] == [1000, 1001]
    assert out["$['x.typed_value.y']"].to_pylist()[:2] == [0, 1]
    assert out["$.x.y"].to_pylist()[:2] == [1000, 1001]
    assert out["$['user.typed_value.id']"].to_pylist()[:2] == [5000, 5001]


def test_read_paths_of_shredded_keys_holding_a_nul_byte(tmp_path):
    # Found by probing from outside: the partial column of a key with a NUL byte lost
    # the rest of its name crossing the Arrow C data interface (whose names end at the
    # first NUL), so read_paths (and the Spark path reader) read NULL where
    # variant_get of the same file read 2.
    path = str(tmp_path / "nul.parquet")
    docs = pa.array(['{"\\u0000k": 2, "k\\u0000": 4, "k": 3}'])
    vs.parquet.write_table(pa.table({"v": vs.from_json(docs)}), path,
                           shredding={"v": "struct<`\0k`: bigint, `k\0`: bigint, k: bigint>"})
    assert vs.parquet.inspect(path)[0].layout == "shredded"
    out = vs.parquet.read_paths(path, "v", {"$['\0k']": "bigint", "$['k\0']": "bigint",
                                            "$.k": "bigint"})
    assert [out[c].to_pylist() for c in out.column_names] == [[2], [4], [3]]


@pytest.mark.parametrize("p,op,literal", [
    ("$.x.y", ">=", 1000), ("$.x.y", "==", 1025), ("$['x.typed_value.y']", "==", 5),
    ("$.user.id", ">", 1015), ("$['user.id']", "<", 3), ("$.value", "==", 2012),
    ("$.metadata", "<=", 3001), ("$['user.typed_value.id']", "==", 5015)])
def test_pruning_keeps_every_row_group_holding_a_match(keys_file, p, op, literal):
    pruned = vs.parquet.prunable_row_groups(keys_file, "v", p, op, literal)
    values = _expected(keys_file, p, "bigint")
    cmp = vs.parquet._OPS[op]
    size = _group_rows(keys_file)
    assert pq.ParquetFile(keys_file).metadata.num_row_groups == 3
    matching = {r // size for r, x in enumerate(values) if x is not None and cmp(x, literal)}
    assert matching, "the case must have matching rows"
    assert not matching & set(pruned), (pruned, matching)
    if p != "$['user.typed_value.id']":  # a typed leaf and no residual: prunes the rest
        assert set(pruned) == {0, 1, 2} - matching


@pytest.mark.parametrize("key_first", [True, False])
def test_pruning_never_takes_a_dotted_key_for_a_nested_field(tmp_path, key_first):
    # Both leaves are "v.typed_value.x.typed_value.y.typed_value" as dotted strings.
    path = str(tmp_path / "xy.parquet")
    docs = [{"x.typed_value.y": i, "x": {"y": 1000 + i}} for i in range(30)]
    fields = ["`x.typed_value.y`: bigint", "x: struct<y: bigint>"]
    schema = f"struct<{', '.join(fields if key_first else fields[::-1])}>"
    vs.parquet.write_table(pa.table({"v": vs.from_python(docs)}), path,
                           shredding={"v": schema}, row_group_size=10)
    assert vs.parquet.prunable_row_groups(path, "v", "$.x.y", "==", 1015) == [0, 2]
    assert vs.parquet.prunable_row_groups(path, "v", "$['x.typed_value.y']", "==", 15) == [0, 2]
    assert vs.parquet.prunable_row_groups(path, "v", "$.x.y", "<", 1000) == [0, 1, 2]


def test_pruning_never_compares_a_bool_literal_with_integer_statistics(tmp_path):
    # variant_get(v, '$.n', 'boolean') is true for 5; Python's True == 1 is below 2.
    path = str(tmp_path / "n.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_python([{"n": i} for i in range(2, 10)])}),
                           path, shredding={"v": "n bigint"})
    assert vs.variant_get(vs.parquet.read_table(path)["v"], "$.n", "boolean").to_pylist() \
        == [True] * 8
    assert vs.parquet.prunable_row_groups(path, "v", "$.n", "==", True) == []
    assert vs.parquet.prunable_row_groups(path, "v", "$.n", "==", 1) == [0]


def test_shredding_counts_key_paths_unambiguously(keys_file):
    counts = {c.path: c for c in vs.parquet.shredding_counts(keys_file)}
    n = 3 * _group_rows(keys_file)
    assert counts["['user.id']"].typed == n and counts["['user.id']"].typed_type == "int64"
    assert counts["user.id"].typed == n
    assert counts["['x.typed_value.y']"].typed == n and counts["x.y"].typed == n
    assert counts["value"].typed == n and counts["metadata"].typed == n
    assert counts["typed_value"].typed_type == "string"
    assert counts["element[]"].typed == 2 * n and counts["list[]"].typed == n
    assert counts["$"].residual == n  # "user.typed_value.id" in every row
    assert "x.typed_value.y" not in counts
    # The paths read back what they count.
    out = vs.parquet.read_paths(keys_file, "v", {"['user.id']": "bigint"})
    assert out.column(0).to_pylist()[:2] == [0, 1]


def test_inspect_and_cli_get(keys_file, capsys):
    assert [(c.name, c.layout) for c in vs.parquet.inspect(keys_file)] == [("v", "shredded")]
    assert cli.main(["inspect", keys_file]) == 0
    capsys.readouterr()
    assert cli.main(["get", keys_file, "$['x.typed_value.y']", "--type", "bigint"]) == 0
    assert capsys.readouterr().out.split()[:3] == ["0", "1", "2"]
    assert cli.main(["get", keys_file, "$.x.y", "--type", "bigint"]) == 0
    assert capsys.readouterr().out.split()[:3] == ["1000", "1001", "1002"]


def test_leaf_paths_keep_dots_inside_names(varshred_file):
    paths = vs._parquet.leaf_paths(varshred_file)
    assert ("v", "typed_value", "x.typed_value.y", "typed_value") in paths
    assert ("v", "typed_value", "x", "typed_value", "y", "typed_value") in paths
    # The dotted names of these two leaves are the same string.
    md = pq.ParquetFile(varshred_file).metadata
    dotted = [md.schema.column(paths.index(p)).path for p in paths
              if p[-2] in ("x.typed_value.y", "y") and p[-1] == "typed_value"]
    assert len(dotted) == 2 and dotted[0] == dotted[1]


# ----------------------------------------------------------------------------
# Pruning soundness on random data (docs/shredding.md#data-skipping)

def _random_doc(rng: random.Random, kinds: list[str]):
    kind = rng.choice(kinds)
    n = rng.randrange(-50, 50)
    return {
        "typed": {"a": {"b": n}, "s": f"s{n:+03d}", "d": n / 4},
        "typed_extra": {"a": {"b": n, "c": 1}, "z": "residual at the top", "d": float(n)},
        "leaf_string": {"a": {"b": str(n)}, "s": n},                 # residual at the leaf
        "leaf_double": {"a": {"b": n + 0.5}, "d": math.nan},
        "leaf_null": {"a": {"b": None}, "s": None},
        "a_scalar": {"a": n, "s": "x"},                               # residual at a
        "a_array": {"a": [n]},
        "top_array": [n, {"a": {"b": n}}],                            # residual at the top
        "top_scalar": n,
        "missing": {"q": n},
        "sql_null": None,
    }[kind]


KINDS = ["typed", "typed_extra", "leaf_string", "leaf_double", "leaf_null", "a_scalar",
         "a_array", "top_array", "top_scalar", "missing", "sql_null"]


def _spark_cmp(op: str, x, literal) -> bool:
    if isinstance(x, float) and math.isnan(x):  # Spark: NaN equals NaN, above all numbers
        return op in (">", ">=") or (op in ("==", "<=", ">=") and isinstance(literal, float)
                                     and math.isnan(literal))
    return vs.parquet._OPS[op](x, literal)


@pytest.mark.parametrize("seed", range(12))
def test_pruning_is_sound_on_random_data(tmp_path, seed):
    rng = random.Random(seed)
    size = rng.randrange(2, 12)
    docs = []
    for _ in range(rng.randrange(3, 9)):  # each row group draws from a few kinds only
        kinds = rng.sample(KINDS, rng.randrange(1, 4))
        if rng.random() < 0.4:
            kinds = ["typed"] + rng.sample(["typed_extra", "a_scalar", "top_array",
                                            "top_scalar", "missing", "sql_null"], 1)
        docs += [_random_doc(rng, kinds) for _ in range(size)]
    path = str(tmp_path / "r.parquet")
    schema = "struct<a: struct<b: bigint>, s: string, d: double>"
    vs.parquet.write_table(pa.table({"v": vs.from_python(docs)}), path,
                           shredding={"v": schema}, row_group_size=size)
    full = vs.parquet.read_table(path)["v"]
    cases = [("$.a.b", "bigint", rng.randrange(-60, 60)) for _ in range(6)] + \
            [("$.s", "string", f"s{rng.randrange(-60, 60):+03d}") for _ in range(3)] + \
            [("$.d", "double", rng.randrange(-15, 15) / 2) for _ in range(4)]
    pruned_any = 0
    for p, type_name, literal in cases:
        values = vs.variant_get(full, p, type_name).to_pylist()
        for op in ("==", "<", "<=", ">", ">="):
            pruned = vs.parquet.prunable_row_groups(path, "v", p, op, literal)
            pruned_any += len(pruned)
            for g in pruned:
                rows = values[g * size:(g + 1) * size]
                assert not any(x is not None and _spark_cmp(op, x, literal) for x in rows), \
                    (p, op, literal, g, rows)
    assert pruned_any  # the rule is not vacuous


# ']' may appear in a '.name' segment (Spark's grammar: a name runs up to '.' or '[')
# and inside a quoted key: read_paths and pruning parse paths with variant_get's
# parser, so every spelling reads what variant_get reads.
BRACKET_PATHS = ["$.a]b", "$['a]b']", '$["a]b"]', "$.c['x]']", "$.c.x]", "a]b"]


@pytest.mark.parametrize("shredded", [True, False])
def test_read_paths_parse_paths_as_variant_get_does(tmp_path, shredded):
    path = str(tmp_path / "brackets.parquet")
    v = vs.from_python([{"a]b": i, "c": {"x]": 10 * i}} for i in range(20)])
    schema = "struct<`a]b`: bigint, c: struct<`x]`: bigint>>" if shredded else "none"
    vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": schema},
                           row_group_size=10)
    out = vs.parquet.read_paths(path, "v", {p: "bigint" for p in BRACKET_PATHS})
    for p in BRACKET_PATHS:
        full = p if p.startswith("$") else "$." + p
        assert out[p].to_pylist() == vs.variant_get(v, full, "bigint").to_pylist(), p
    assert out["$.a]b"].to_pylist()[:2] == [0, 1]
    if shredded:
        assert vs.parquet.prunable_row_groups(path, "v", "$.a]b", ">=", 10) == [0]
        assert vs.parquet.prunable_row_groups(path, "v", "$.c.x]", "<", 100) == [1]


@pytest.mark.parametrize("ddl", ["id bigint", "none"])
def test_read_paths_of_some_row_groups(tmp_path, ddl):
    import json

    docs = [json.dumps({"id": i}) for i in range(50)]
    path = str(tmp_path / "groups.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_json(pa.array(docs))}), path,
                           shredding={"v": ddl}, row_group_size=10)
    ids = vs.parquet.read_paths(path, "v", {"id": "bigint"}, row_groups=[1, 3]).column(0)
    assert ids.to_pylist() == list(range(10, 20)) + list(range(30, 40))
    assert vs.parquet.read_paths(path, "v", {"id": "bigint"}, row_groups=[]).num_rows == 0
    with pytest.raises(IndexError, match=r"groups\.parquet: no row group 5 \(the file has 5\)"):
        vs.parquet.read_paths(path, "v", {"id": "bigint"}, row_groups=[5])


@pytest.mark.parametrize("typed, message", [
    (pa.array([1, 2], pa.uint32()), "unsupported shredded value type uint32 at \\$"),
    (pa.array([{"a": {"value": None, "typed_value": 7, "zzz": 3}}] * 2,
              pa.struct([("a", pa.struct([("value", pa.binary()), ("typed_value", pa.int64()),
                                          ("zzz", pa.int64())]))])),
     "unexpected child 'zzz' in shredded group at \\$.a"),
    (pa.array([{"a": 7}] * 2, pa.struct([("a", pa.int64())])),
     "shredded group at \\$.a must be a struct, got int64"),
])
def test_read_paths_checks_the_whole_shape_as_variant_get_does(tmp_path, typed, message):
    # read_paths reads only the leaves a path needs, and judged only their part of the
    # shape: such columns read as NULLs or as values, until 2026-11-30.
    column = pa.StructArray.from_arrays(
        [pa.array([b"\x01\x01\x00\x01a"] * 2), pa.array([None, None], pa.binary()), typed],
        fields=[pa.field("metadata", pa.binary(), False), pa.field("value", pa.binary()),
                pa.field("typed_value", typed.type)])
    path = str(tmp_path / "bad.parquet")
    pq.write_table(pa.table({"v": column}), path)
    for errors in ("null", "raise"):
        with pytest.raises(TypeError, match="bad.parquet: column 'v', " + message):
            vs.parquet.read_paths(path, "v", {"a": "bigint"}, errors=errors)
