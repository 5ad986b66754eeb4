# Licensed under the Apache License, Version 2.0.
"""The Python calls against the C++ Arrow kernels they bind, on the same rows: how much
the binding costs (issue 13's goal: within 10%).

    .venv/bin/python bench/python/kernel_parity_bench.py [--rows 1000000]
        [--binary build/tests/bench/json_benchmark]

The rows (``varshred demo``'s events) are written to a JSON-lines file; the Google
Benchmark program runs ``JsonToVariant`` and ``VariantToJson`` on that file's lines
(``VARSHRED_BENCH_JSONL``), and this process times ``vs.from_json`` and ``vs.to_json``
on a string array of the same lines, best of ``--repeat``, one thread each.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time

import pyarrow as pa

import varshred as vs
from varshred.cli import sample_events

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cpp_rows_per_second(binary: str, lines_path: str, min_time: float) -> dict[str, float]:
    """items_per_second of the `/file` benchmarks, by kernel name."""
    out = subprocess.run(
        [binary, "--benchmark_filter=/file$", "--benchmark_format=json",
         f"--benchmark_min_time={min_time}"],
        env=dict(os.environ, VARSHRED_BENCH_JSONL=lines_path),
        capture_output=True, text=True, check=True).stdout
    return {b["name"].split("/")[0]: b["items_per_second"] for b in json.loads(out)["benchmarks"]}


def best_of(repeat: int, fn) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--binary", default=os.path.join(
        ROOT, os.environ.get("VARSHRED_BUILD_DIR", "build/tests"), "bench", "json_benchmark"))
    args = ap.parse_args()

    docs = sample_events(args.rows)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("\n".join(docs) + "\n")
    try:
        cpp = cpp_rows_per_second(args.binary, f.name, min_time=2.0)
    finally:
        os.unlink(f.name)
    strings = pa.array(docs, pa.string())
    t_from, variants = best_of(args.repeat, lambda: vs.from_json(strings))
    t_to, text = best_of(args.repeat, lambda: vs.to_json(variants))
    assert len(text) == args.rows and text.null_count == 0
    mb = sum(len(d) for d in docs) / 1e6
    print(f"{args.rows:,} events ({mb:.0f} MB of JSON), one thread\n")
    print("| kernel | C++ rows/s | Python rows/s | Python / C++ |\n|---|---|---|---|")
    for name, call, seconds in (("JsonToVariant", "vs.from_json", t_from),
                                ("VariantToJson", "vs.to_json", t_to)):
        ours = args.rows / seconds
        theirs = cpp[f"BM_{name}Kernel"]
        print(f"| `{name}` / `{call}` | {theirs / 1e6:.2f} M | {ours / 1e6:.2f} M | "
              f"{ours / theirs:.2f} |")


if __name__ == "__main__":
    main()
