# Licensed under the Apache License, Version 2.0.
"""Generators and helpers for the fuzz tests: random Python values (the hypothesis
strategies of the property tests, and a seeded twin of tests/cpp/random_variants.h for
plain loops), random shredding schemas, and byte mutations.

Counts are bounded for CI; ``VARSHRED_FUZZ_RUNS=N`` multiplies them for a longer run:

    VARSHRED_FUZZ_RUNS=50 .venv/bin/python -m pytest tests/python -k fuzz
"""

from __future__ import annotations

import datetime as dt
import decimal
import os
import random
import uuid
from typing import Any

from hypothesis import strategies as st

UTC = dt.timezone.utc
MAX_DECIMAL = 10 ** 38 - 1


def runs(ci_count: int) -> int:
    """``ci_count`` times the VARSHRED_FUZZ_RUNS factor (1 by default)."""
    return ci_count * max(1, int(os.environ.get("VARSHRED_FUZZ_RUNS", "1")))


# -- hypothesis strategies (used by test_properties and the differential fuzz) ---------

decimals = st.builds(lambda u, s: decimal.Decimal(f"{u}E-{s}"),
                     st.integers(-MAX_DECIMAL, MAX_DECIMAL), st.integers(0, 38))
scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(-2 ** 63, 2 ** 63 - 1), st.integers(-MAX_DECIMAL, MAX_DECIMAL),
    st.floats(allow_nan=False), decimals, st.text(), st.binary(),
    st.dates(), st.datetimes(), st.datetimes(timezones=st.just(UTC)), st.times(),
    st.uuids(),
)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=6), children, max_size=5),
    max_leaves=25)
# Objects over a few shared keys, so that random schemas actually match fields.
keyed_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["a", "b", "c", "id", "k"]), children, max_size=5),
    max_leaves=20)

# -- seeded generators (twins of tests/cpp/random_variants.h) --------------------------

_KEYS = "abcdefgh"


def _key(rng: random.Random, wide: bool) -> str:
    k = rng.randrange(60 if wide else 8)
    return _KEYS[k] if k < 8 else f"k{k}"


def random_value(rng: random.Random, depth: int = 0) -> Any:
    """A random Python value of every type from_python takes; objects sometimes wide."""
    kind = rng.randrange(20 if depth > 3 else 24)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind <= 5:
        bits = (8, 16, 32, 64)[kind - 2]
        return rng.randrange(-2 ** (bits - 1), 2 ** (bits - 1))
    if kind <= 7:
        return rng.randrange(100000) / 8
    if kind <= 10:
        return decimal.Decimal(rng.randrange(-10 ** 18, 10 ** 18)).scaleb(-rng.randrange(12))
    if kind == 11:
        return dt.date(1970, 1, 1) + dt.timedelta(days=rng.randrange(40000))
    if kind == 12:
        return dt.datetime(2000, 1, 1, tzinfo=UTC) + dt.timedelta(microseconds=rng.randrange(10 ** 15))
    if kind == 13:
        return dt.datetime(2000, 1, 1) + dt.timedelta(microseconds=rng.randrange(10 ** 15))
    if kind == 14:
        return dt.time(rng.randrange(24), rng.randrange(60), rng.randrange(60), rng.randrange(10 ** 6))
    if kind == 15:
        return rng.choice("aé\U0001F600z") * (70 if rng.randrange(3) == 0 else 5)
    if kind == 16:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(9)))
    if kind == 17:
        return uuid.UUID(int=rng.getrandbits(128))
    if kind <= 19:
        return rng.randrange(300)
    if kind <= 21:
        n = 30 + rng.randrange(20) if rng.randrange(5) == 0 else rng.randrange(6)
        return {_key(rng, n >= 8): random_value(rng, depth + 1) for _ in range(n)}
    n = 40 if rng.randrange(5) == 0 else rng.randrange(5)
    return [random_value(rng, depth + 1) for _ in range(n)]


_LEAVES = ["boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
           "decimal(9,2)", "decimal(18,4)", "decimal(38,10)", "date", "timestamp",
           "timestamp_ntz", "time", "string", "binary", "uuid", "decimal(4,0)", "variant"]


def random_ddl(rng: random.Random, depth: int = 0) -> str:
    """A random shredding schema in DDL, as RandomVariants::Schema draws them."""
    kind = rng.randrange(4 if depth > 2 else 8)
    if kind < 4:
        return rng.choice(_LEAVES)
    if kind < 6:
        keys = sorted({_key(rng, False) for _ in range(rng.randrange(1, 5))})
        return "struct<" + ", ".join(f"{k}: {random_ddl(rng, depth + 1)}" for k in keys) + ">"
    return f"array<{random_ddl(rng, depth + 1)}>"


# -- byte mutations --------------------------------------------------------------------


def mutate(data: bytes, rng: random.Random, *, protect: int = 0) -> tuple[bytes, str]:
    """One random mutation of ``data`` and its description (for the failure message):
    a bit flip, a byte set to a boundary value, a truncation, a 4-byte little-endian
    integer overwritten, or a span duplicated. ``protect`` leaves the first bytes alone."""
    buf = bytearray(data)
    if len(buf) <= protect:
        return bytes(buf), "none"
    kind = rng.randrange(5)
    pos = rng.randrange(protect, len(buf))
    if kind == 0:
        bit = rng.randrange(8)
        buf[pos] ^= 1 << bit
        return bytes(buf), f"flip bit {bit} of byte {pos}"
    if kind == 1:
        val = rng.choice([0, 1, 0x7F, 0x80, 0xFF, rng.randrange(256)])
        buf[pos] = val
        return bytes(buf), f"set byte {pos} to {val:#x}"
    if kind == 2:
        return bytes(buf[:pos]), f"truncate to {pos} bytes"
    if kind == 3:
        val = rng.choice([0, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, rng.randrange(1 << 16), len(buf)])
        buf[pos:pos + 4] = val.to_bytes(4, "little")
        return bytes(buf[:len(data)]), f"write int32 {val:#x} at {pos}"
    n = rng.randrange(1, 17)
    buf[pos:pos] = buf[pos:pos + n]
    return bytes(buf), f"duplicate {n} bytes at {pos}"
