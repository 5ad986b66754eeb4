# Licensed under the Apache License, Version 2.0.
"""Structure-aware mutation of valid Variant bytes (fuzz_variant_worker.py, in a
subprocess): every kernel either raises or returns on each mutant; a signal fails the
test with the mutant's bytes. Mutants that validate accepts must round-trip through
to_json -> from_json logically.

Seeds: values from fuzz_util.random_value and the DuckDB corpus rows. CI runs
FUZZ_RUNS mutants per seed; VARSHRED_FUZZ_RUNS=N multiplies it."""

from __future__ import annotations

import os
import pathlib
import random
import signal
import subprocess
import sys

import pytest

import fuzz_util
import varshred as vs

HERE = pathlib.Path(__file__).resolve().parent
SEEDS = 60
FUZZ_RUNS = 25  # per seed in CI


def _seeds(duckdb_corpus) -> list[tuple[bytes, bytes]]:
    rng = random.Random(20260101)
    arr = vs.from_python([fuzz_util.random_value(rng) for _ in range(SEEDS)])
    out = []
    for a in (arr, duckdb_corpus.variants):
        for i in range(len(a)):
            if not a[i].is_valid:
                continue
            m, v = a.field("metadata")[i].as_py(), a.field("value")[i].as_py()
            if len(v) < 4096:  # the wide and long rows make every kernel call slow
                out.append((m, v))
    return out


def run_worker(seeds, tmp_path, runs: int, rng_seed: str) -> list[str]:
    listing = tmp_path / "seeds.txt"
    listing.write_text("\n".join(f"{m.hex()} {v.hex()}" for m, v in seeds))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(HERE)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    r = subprocess.run([sys.executable, str(HERE / "fuzz_variant_worker.py"), str(listing),
                        str(runs), rng_seed], capture_output=True, text=True, env=env,
                       timeout=1800)
    lines = r.stdout.splitlines()
    if r.returncode != 0 or not lines or lines[-1] != "DONE":
        last = next((x for x in reversed(lines) if x.startswith("CASE")), "before any case")
        name = signal.Signals(-r.returncode).name if r.returncode < 0 else f"exit {r.returncode}"
        pytest.fail(f"kernel crashed ({name}) on {last} (rng seed {rng_seed!r}); reproduce with "
                    f"fuzz_variant_worker.column(bytes.fromhex(m), bytes.fromhex(v))\n"
                    f"{r.stderr[-3000:]}")
    return [x for x in lines if x.startswith("MISMATCH")]


def test_fuzz_variant_byte_mutants(duckdb_corpus, tmp_path):
    mismatches = run_worker(_seeds(duckdb_corpus), tmp_path, fuzz_util.runs(FUZZ_RUNS), "bytes-1")
    assert not mismatches, "\n".join(mismatches[:10])


# -- what the fuzzing found ---------------------------------------------------------------


def test_date_beyond_the_timestamp_range_does_not_wrap():
    """Found by the byte mutation under tests/asan.sh (UBSan: signed overflow in
    CastTimestamp): a date of 1,069,547,520 days cast to a timestamp wrapped around
    to 7521-05-28 instead of failing the cast."""
    from fuzz_variant_worker import column

    far = column(bytes.fromhex("010000"), bytes.fromhex("2c0000c03f"))  # date +2930291-08-26
    for t in ("timestamp", "timestamp_ntz"):
        assert vs.variant_get(far, "$", t).to_pylist() == [None]
        with pytest.raises(vs.VariantError):
            vs.variant_get(far, "$", t, errors="raise")
    near = vs.from_python([__import__("datetime").date(9999, 12, 31)])
    assert vs.variant_get(near, "$", "timestamp_ntz").to_pylist()[0].year == 9999
