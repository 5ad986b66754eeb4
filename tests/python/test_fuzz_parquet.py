# Licensed under the Apache License, Version 2.0.
"""Mutated Parquet files through every reader entry point and the CLI, in a subprocess
(fuzz_parquet_worker.py): a Python exception is fine, a signal fails the test naming
the seed file and the mutation. Seeds: the parquet-testing shredded corpus, and files
written by varshred and DuckDB (and Spark, in the spark-marked case).

CI runs FUZZ_RUNS mutants per seed; VARSHRED_FUZZ_RUNS=N multiplies it."""

from __future__ import annotations

import os
import pathlib
import shutil
import signal
import subprocess
import sys

import pyarrow as pa
import pytest

import fuzz_util
import varshred as vs

HERE = pathlib.Path(__file__).resolve().parent
FUZZ_RUNS = 10  # mutants per seed file in CI (about 75 seeds)


def _run_worker(seeds: list[str], tmp_path: pathlib.Path, runs: int, rng_seed: str, group: str):
    listing = tmp_path / "seeds.txt"
    listing.write_text("\n".join(seeds))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(HERE)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    r = subprocess.run([sys.executable, str(HERE / "fuzz_parquet_worker.py"), str(listing),
                        str(tmp_path), str(runs), rng_seed, group],
                       capture_output=True, text=True, env=env, timeout=1800)
    lines = r.stdout.splitlines()
    if r.returncode != 0 or not lines or lines[-1] != "DONE":
        last = next((line for line in reversed(lines) if line.startswith("CASE")), "before any case")
        sig = -r.returncode if r.returncode < 0 else None
        name = signal.Signals(sig).name if sig else f"exit {r.returncode}"
        crash = tmp_path / "mutant.parquet"
        keep = tmp_path / "crash.parquet"
        if crash.exists():
            shutil.copy(crash, keep)
        pytest.fail(f"reader crashed ({name}) on {last} (rng seed {rng_seed!r}; mutant kept at "
                    f"{keep})\n{r.stderr[-3000:]}")
    return len(lines) - 1


def _varshred_seeds(out: pathlib.Path) -> list[str]:
    rows = [{"a": i, "n": i * 1.5, "s": f"x{i}", "items": [{"id": i, "tags": ["t"]}]}
            if i % 5 else {"a": "text", "n": None} for i in range(60)]
    table = pa.table({"id": list(range(60)), "v": vs.from_python(rows)})
    files = []
    for name, shredding in (("none", "none"), ("inferred", vs.infer_schema(table["v"])),
                            ("forced", "struct<a: bigint, n: double, s: string, "
                                       "items: array<struct<id: bigint, tags: array<string>>>>")):
        path = out / f"varshred_{name}.parquet"
        vs.parquet.write_table(table, str(path), shredding={"v": shredding}, row_group_size=25,
                               compression="uncompressed" if name == "forced" else "zstd")
        files.append(str(path))
    return files


def _corpus_seeds(corpus_dir: pathlib.Path) -> list[str]:
    files = sorted((corpus_dir / "shredded_variant").glob("*.parquet"))
    return [str(f) for f in files if f.stat().st_size < 64 << 10]


# Entry-point groups of fuzz_parquet_worker.entry_points.
GROUPS = [
    "readers",
    "statistics",
    "cli",
]


@pytest.mark.parametrize("group", GROUPS)
def test_fuzz_parquet_mutants(corpus_dir, duckdb_corpus, tmp_path, group):
    seeds = (_corpus_seeds(corpus_dir) + _varshred_seeds(tmp_path)
             + [duckdb_corpus.files[s] for s in ("unshredded", "forced")])
    cases = _run_worker(seeds, tmp_path, fuzz_util.runs(FUZZ_RUNS), "parquet-1", group)
    assert cases == len(seeds) * fuzz_util.runs(FUZZ_RUNS)


@pytest.mark.spark
@pytest.mark.parametrize("group", ["readers", "statistics", "cli"])
def test_fuzz_spark_parquet_mutants(spark_corpus, tmp_path, group):
    seeds = [spark_corpus.files[s] for s in ("inferred", "unshredded", "forced")]
    _run_worker(seeds, tmp_path, fuzz_util.runs(3 * FUZZ_RUNS), "parquet-spark-1", group)
