# Licensed under the Apache License, Version 2.0.
"""Differential fuzzing: random values x random shredding schemas (fuzz_util), checked
against the unshredded truth: shred/unshred identity, variant_get shredded vs
unshredded, Parquet write then read, and pruning soundness (no row group reported
prunable holds a matching row).

Hypothesis runs derandomized (conftest); VARSHRED_FUZZ_RUNS=N multiplies the examples."""

from __future__ import annotations

import decimal

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

import fuzz_util
import varshred as vs
from foreign import compare, paths_of, same

schemas = st.randoms(use_true_random=False).map(fuzz_util.random_ddl)
rows = st.lists(fuzz_util.keyed_values, min_size=1, max_size=12)


def _paths(values: list) -> list[str]:
    return sorted({p for v in values for p, _ in paths_of(v, limit=12)})[:30]


@settings(max_examples=fuzz_util.runs(80))
@given(rows, schemas, st.sampled_from(["lenient", "strict"]))
def test_fuzz_shred_unshred_and_variant_get(values, ddl, numeric):
    v = vs.from_python(values)
    shredded = vs.shred(v, ddl, numeric=numeric)
    vs.validate(shredded)
    back = vs.unshred(shredded)
    vs.validate(back)
    if numeric == "strict":
        assert same(vs.to_python(back), vs.to_python(v))
    # Lenient shredding may change a number's width inside Exact Numeric, never its text.
    assert vs.to_json(back).to_pylist() == vs.to_json(v).to_pylist()
    for path in _paths(values):
        assert vs.to_json(vs.variant_get(shredded, path)).equals(
            vs.to_json(vs.variant_get(v, path))), path
        for t in ("bigint", "string", "double", "decimal(38,10)", "boolean", "date"):
            assert vs.variant_get(shredded, path, t).equals(vs.variant_get(v, path, t)), (path, t)


@settings(max_examples=fuzz_util.runs(25))
@given(rows, schemas)
def test_fuzz_parquet_write_read(tmp_path_factory, values, ddl):
    path = str(tmp_path_factory.mktemp("w") / "f.parquet")
    v = vs.from_python(values)
    vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": ddl}, row_group_size=4)
    got = vs.parquet.read_table(path)["v"]
    assert vs.to_json(got).to_pylist() == vs.to_json(v).to_pylist()
    paths = _paths(values)
    if paths:
        projected = vs.parquet.read_paths(path, "v", {p: None for p in paths})
        for p in paths:
            assert vs.to_json(projected[p]).to_pylist() == vs.to_json(vs.variant_get(v, p)).to_pylist(), p


# -- pruning soundness ------------------------------------------------------------------

_MISSING = object()  # the field is absent from the object
_NUMBERS = st.one_of(st.integers(-1000, 1000), st.integers(-2 ** 63, 2 ** 63 - 1),
                     st.floats(-1e6, 1e6, allow_nan=False),
                     st.decimals(-10 ** 6, 10 ** 6, places=2, allow_nan=False))
_FIELD = st.one_of(_NUMBERS, _NUMBERS, st.text(max_size=4), st.none(), st.just(_MISSING),
                   st.lists(st.integers(0, 9), max_size=2))
_PRUNE_SCHEMAS = ["struct<n: bigint>", "struct<n: int>", "struct<n: double>",
                  "struct<n: decimal(18,2)>", "struct<n: string>", "struct<n: bigint, m: string>",
                  "struct<n: variant>"]


# Mostly one type per file, so that whole row groups are typed and pruning happens.
_COLUMNS = st.one_of(
    *[st.lists(st.one_of(leaf, leaf, leaf, st.none(), st.just(_MISSING)), min_size=1, max_size=40)
      for leaf in (st.integers(-1000, 1000), st.floats(-1e3, 1e3, allow_nan=False),
                   st.decimals(-1000, 1000, places=2, allow_nan=False), st.text(max_size=3))],
    st.lists(_FIELD, min_size=1, max_size=40))


@settings(max_examples=fuzz_util.runs(100))
@given(_COLUMNS, st.sampled_from(_PRUNE_SCHEMAS),
       st.sampled_from(["==", "<", "<=", ">", ">="]),
       st.one_of(st.integers(-1000, 1000), _NUMBERS, st.text(max_size=3)),
       st.integers(1, 8), st.booleans())
def test_fuzz_pruning_is_sound(tmp_path_factory, fields, ddl, op, literal, group_rows, sql_nulls):
    values = [None if (sql_nulls and i % 7 == 3) else ({} if f is _MISSING else {"n": f})
              for i, f in enumerate(fields)]
    path = str(tmp_path_factory.mktemp("p") / "f.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_python(values)}), path,
                           shredding={"v": ddl}, row_group_size=group_rows)
    pruned = vs.parquet.prunable_row_groups(path, "v", "$.n", op, literal)
    for g in pruned:
        for value in values[g * group_rows:(g + 1) * group_rows]:
            n = value.get("n") if isinstance(value, dict) else None
            assert not _matches(n, op, literal), (g, value, op, literal)


def _matches(n, op, literal) -> bool:
    """Whether a reader comparing the value at the path with the literal could keep the
    row: numbers against numbers by value, strings against strings."""
    if isinstance(n, bool) or n is None:
        return False
    numbers = (int, float, decimal.Decimal)
    if isinstance(n, numbers) and isinstance(literal, numbers):
        def exact(x):
            return decimal.Decimal(repr(x)) if isinstance(x, float) else decimal.Decimal(x)
        return compare(exact(n), op, exact(literal))
    if isinstance(n, str) and isinstance(literal, str):
        return compare(n, op, literal)
    return False

