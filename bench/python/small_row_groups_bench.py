# Licensed under the Apache License, Version 2.0.
"""Reading files of many tiny row groups (docs/datasets.md, units): varshred's
``read_table`` against pyarrow's ``pq.read_table`` of the same file, in the same run.

    .venv/bin/python bench/python/small_row_groups_bench.py [--groups 500 2000] [--rows 10]

Each file holds ``--groups`` row groups of ``--rows`` event documents, written by
``vs.parquet.write_json``. Each reader runs ``--repeat`` times, taking turns; the best
counts. Both results are checked to hold every row.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import pyarrow.parquet as pq

import varshred as vs
from varshred import cli


def readers(path: str) -> dict:
    return {"one": lambda: vs.parquet.read_table(path, threads=1),
            "two": lambda: vs.parquet.read_table(path, threads=2),
            "peer": lambda: pq.read_table(path, use_threads=False)}


def best(repeat: int, fns: dict) -> tuple[dict, dict]:
    """({name: best seconds}, {name: rows read})."""
    seconds = {name: float("inf") for name in fns}
    rows = {}
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            rows[name] = fn().num_rows
            seconds[name] = min(seconds[name], time.perf_counter() - start)
    return seconds, rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, nargs="+", default=[500, 2000])
    ap.add_argument("--rows", type=int, default=10, help="rows per row group")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print("| row groups | varshred threads=1 | threads=2 | pyarrow | varshred / pyarrow |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as root:
        for groups in args.groups:
            path = os.path.join(root, f"g{groups}.parquet")
            rows = groups * args.rows
            vs.parquet.write_json(cli.sample_events(rows, seed=3), path,
                                  row_group_size=args.rows)
            assert pq.ParquetFile(path).metadata.num_row_groups == groups

            t, got = best(args.repeat, readers(path))
            assert set(got.values()) == {rows}, got
            print(f"| {groups} | {t['one']:.3f} s | {t['two']:.3f} s | {t['peer']:.3f} s "
                  f"| {t['one'] / t['peer']:.2f}x |")


if __name__ == "__main__":
    main()
