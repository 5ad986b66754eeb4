# Licensed under the Apache License, Version 2.0.
"""Worker of test_fuzz_variant_bytes.py (a subprocess, so that a crash kills only it):
structure-aware mutations of valid Variants (headers, element counts, field ids,
offsets, metadata dictionaries), each mutant run through every kernel. A kernel may
raise or return; a mutant that validate accepts must also round-trip logically through
to_json -> from_json. Prints "CASE <hex metadata> <hex value> <mutation>" before each
mutant and "MISMATCH ..." for a logical failure.

    python fuzz_variant_worker.py SEEDS_FILE RUNS_PER_SEED RNG_SEED

SEEDS_FILE holds one "hex_metadata hex_value" pair a line."""

from __future__ import annotations

import random
import sys

import pyarrow as pa

import varshred as vs
from foreign import json_same
from fuzz_util import mutate, random_ddl

PATHS = ["$", "$.a", "$.b[0]", "$.k30", "$[0]", "$[1].a", "$.a.b.c", "$['\U0001F600']"]
TYPES = [None, "bigint", "string", "double", "decimal(38,10)", "boolean", "date",
         "timestamp", "binary", "float"]


def fields(value: bytes, pos: int = 0, depth: int = 0, out=None) -> list[tuple[str, int, int]]:
    """(kind, position, width) of every structural field of a Variant value: headers,
    element counts, field ids and offsets, recursively (stops at anything malformed)."""
    out = [] if out is None else out
    if pos >= len(value) or depth > 40:
        return out
    h = value[pos]
    out.append(("header", pos, 1))
    basic, vh = h & 3, h >> 2
    if basic in (0, 1):
        return out
    if basic == 2:
        offset_size, id_size, large = (vh & 3) + 1, ((vh >> 2) & 3) + 1, (vh >> 4) & 1
    else:
        offset_size, id_size, large = (vh & 3) + 1, 0, (vh >> 2) & 1
    count_size = 4 if large else 1
    n = int.from_bytes(value[pos + 1:pos + 1 + count_size], "little")
    out.append(("count", pos + 1, count_size))
    ids = pos + 1 + count_size
    out += [("field_id", ids + i * id_size, id_size) for i in range(min(n, 64) if id_size else 0)]
    offsets = ids + n * id_size
    out += [("offset", offsets + i * offset_size, offset_size) for i in range(min(n + 1, 65))]
    data = offsets + (n + 1) * offset_size
    for i in range(min(n, 64)):
        off = int.from_bytes(value[offsets + i * offset_size:offsets + (i + 1) * offset_size], "little")
        fields(value, data + off, depth + 1, out)
    return out


def metadata_fields(metadata: bytes) -> list[tuple[str, int, int]]:
    if not metadata:
        return []
    size = ((metadata[0] >> 6) & 3) + 1
    n = int.from_bytes(metadata[1:1 + size], "little")
    return ([("m_header", 0, 1), ("m_count", 1, size)]
            + [("m_offset", 1 + size * (i + 1), size) for i in range(min(n + 1, 65))])


def structural(metadata: bytes, value: bytes, rng: random.Random) -> tuple[bytes, bytes, str]:
    on_metadata = rng.randrange(4) == 0
    data = metadata if on_metadata else value
    where = metadata_fields(data) if on_metadata else fields(data)
    where = [f for f in where if f[1] + f[2] <= len(data)]
    if not where or rng.randrange(5) == 0:
        mutant, what = mutate(data, rng)
    else:
        kind, pos, width = rng.choice(where)
        old = int.from_bytes(data[pos:pos + width], "little")
        top = (1 << (8 * width)) - 1
        new = rng.choice([0, 1, top, old + 1, old - 1, old ^ (1 << rng.randrange(8 * width)),
                          rng.randrange(top + 1), len(data)]) & top
        mutant = data[:pos] + new.to_bytes(width, "little") + data[pos + width:]
        what = f"{kind} at {pos} ({width} B): {old:#x} -> {new:#x}"
    what = ("metadata: " if on_metadata else "value: ") + what
    return (mutant, value, what) if on_metadata else (metadata, mutant, what)


def column(metadata: bytes, value: bytes) -> pa.StructArray:
    return pa.StructArray.from_arrays(
        [pa.array([metadata], pa.binary()), pa.array([value], pa.binary())],
        fields=[pa.field("metadata", pa.binary(), False), pa.field("value", pa.binary(), False)])


def kernels(arr: pa.StructArray, rng: random.Random) -> None:
    """Every kernel over one mutant; exceptions are fine."""
    calls = [
        lambda: vs.to_json(arr),
        lambda: vs.to_python(arr),
        lambda: vs.to_layout(arr, "spark"),
        lambda: vs.infer_schema(arr),
        lambda: vs.ShreddingStats().add(arr).derive_schema(),
        lambda: vs.unshred(vs.shred(arr, random_ddl(rng))),
        lambda: vs.unshred(vs.shred(arr, vs.infer_schema(arr)), on_conflict="typed-wins"),
        lambda: vs.validate(arr, max_depth=8),
    ]
    for path in PATHS:
        for t in TYPES:
            calls.append(lambda path=path, t=t: vs.variant_get(arr, path, t))
    calls.append(lambda: vs.variant_get(arr, "$.a", "bigint", errors="raise"))
    for call in calls:
        try:
            call()
        except Exception:  # noqa: BLE001 - raising is an acceptable outcome
            pass


def round_trip_problem(arr: pa.StructArray) -> str | None:
    """For a mutant validate accepts: to_json, then from_json, must hold the same value."""
    try:
        vs.validate(arr, allow_unsorted_keys=True)
    except Exception:  # noqa: BLE001
        return None
    try:
        text = vs.to_json(arr)[0].as_py()  # (to_python may refuse years beyond 9999)
        again = vs.to_json(vs.from_json([text]))[0].as_py()
    except Exception as e:  # noqa: BLE001
        return f"validated but failed to convert: {type(e).__name__}: {e}"
    if not json_same(text, again):
        return f"JSON changed: {text[:200]!r} -> {again[:200]!r}"
    return None


def main() -> int:
    seeds_file, runs, rng_seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    seeds = [tuple(bytes.fromhex(x) for x in line.split()) for line in open(seeds_file)
             if line.strip()]
    rng = random.Random(rng_seed)
    for metadata, value in seeds:
        for _ in range(runs):
            m, v, what = structural(metadata, value, rng)
            if rng.randrange(4) == 0:  # stack a second one
                m, v, more = structural(m, v, rng)
                what += "; " + more
            print(f"CASE {m.hex()} {v.hex()} {what}", flush=True)
            arr = column(m, v)
            kernels(arr, rng)
            problem = round_trip_problem(arr)
            if problem:
                print(f"MISMATCH {m.hex()} {v.hex()} {what}: {problem}", flush=True)
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
