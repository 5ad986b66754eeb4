# Licensed under the Apache License, Version 2.0.
"""Reading a dataset of many Parquet files with 1 and 2 threads (docs/datasets.md):
the whole dataset to JSON lines (``varshred to-json DIR OUT``) and three paths of it
through ``vs.parquet.read_paths``, the ratio of the two thread counts.

    .venv/bin/python bench/python/dataset_read_bench.py [--mb 1024] [--files 16]

The dataset is the sample events (cli.sample_events) as JSON, written by
``vs.parquet.write_json`` into ``--files`` part files with per-file inferred
shredding, about ``--mb`` MB of JSON in total (default 64: a smoke run; the issue's
figure is 1024). Each measurement runs ``--repeat`` times, the thread counts taking
turns; the best counts.

The machine's own bound on 2 threads is measured beside them: two 1-thread processes
working at once, each on half of the files (no shared process, no GIL, no ordering).
Their wall time is what perfect threading could reach on this machine at this moment;
``threads 2 / bound`` near 1.00x means the scan loses nothing to its threading.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import varshred as vs
from varshred import cli

PATHS = {"$.id": "bigint", "$.kind": "string", "$.user.score": "double"}


def build(root: str, mb: float, files: int) -> tuple[int, int]:
    """(rows, bytes of JSON) of the dataset written under ``root``."""
    per_file = mb * 1e6 / files
    probe = cli.sample_events(2000, seed=1)
    rows_per_file = max(1, int(per_file / (sum(map(len, probe)) / len(probe) + 1)))
    rows = size = 0
    for i in range(files):
        docs = cli.sample_events(rows_per_file, seed=100 + i)
        vs.parquet.write_json(docs, os.path.join(root, f"part-{i:05d}.parquet"))
        rows += len(docs)
        size += sum(len(d) + 1 for d in docs)
    return rows, size


def best_of(repeat: int, fn, thread_counts: tuple[int, ...]) -> dict:
    """{threads: (wall seconds, CPU seconds of the process)} of the fastest run of each
    thread count: CPU near twice the wall time means both threads ran; near the wall
    time on a busy machine means the cores were taken by others. The thread counts take
    turns, so that a machine whose speed drifts during the run favours neither."""
    best = {t: (float("inf"), 0.0) for t in thread_counts}
    for _ in range(repeat):
        for t in thread_counts:
            start, cpu = time.perf_counter(), time.process_time()
            fn(t)
            best[t] = min(best[t], (time.perf_counter() - start, time.process_time() - cpu))
    return best


def halves_at_once(root: str, work: str, code: str) -> float:
    """Seconds for two 1-thread processes, each running ``code`` on half of ``root``'s
    files (``code`` reads the name ``src``), to finish: both import and warm up first,
    then start together; the slower one's time counts."""
    halves = [os.path.join(work, "half-a"), os.path.join(work, "half-b")]
    for i, f in enumerate(vs.dataset.files(root)):
        os.makedirs(halves[i % 2], exist_ok=True)
        os.symlink(f, os.path.join(halves[i % 2], os.path.basename(f)))
    # Warmed as the threaded runs are: once on one file (imports, first calls).
    timed = ("import sys, time, os, varshred as vs\nfrom varshred import cli\n"
             "src = vs.dataset.files(sys.argv[1])[0]\n" + code + "\n"
             "print('ready', flush=True); sys.stdin.readline()\n"
             "src = sys.argv[1]; start = time.perf_counter()\n" + code + "\n"
             "print(time.perf_counter() - start, flush=True)\n")
    try:
        procs = [subprocess.Popen([sys.executable, "-c", timed, h], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True) for h in halves]
        for p in procs:
            assert p.stdout.readline().strip() == "ready"
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        seconds = [float(p.stdout.readline()) for p in procs]
        if any(p.wait() != 0 for p in procs):
            raise RuntimeError("a half-dataset process failed")
        return max(seconds)
    finally:
        for h in halves:
            shutil.rmtree(h, ignore_errors=True)


HALF = {  # the work of each half-dataset process, one thread
    "to-json": "cli.main(['to-json', src, os.devnull, '--threads', '1'])",
    "read_paths (3 paths)": f"vs.parquet.read_paths(src, 'v', {PATHS!r}, threads=1)",
    "read_table": "vs.parquet.read_table(src, threads=1)",
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=64, help="MB of JSON in total (default 64)")
    ap.add_argument("--files", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="varshred-dataset-bench-")
    try:
        root = os.path.join(work, "events")
        os.makedirs(root)
        rows, size = build(root, args.mb, args.files)
        parquet_mb = sum(os.path.getsize(f) for f in vs.dataset.files(root)) / 1e6
        print(f"{args.files} files, {rows} rows, {size / 1e6:.0f} MB of JSON "
              f"({parquet_mb:.0f} MB of Parquet), {os.cpu_count()} CPUs")
        contenders = {
            "to-json": lambda t: cli.main(["to-json", root, os.devnull, "--threads", str(t)]),
            "read_paths (3 paths)": lambda t: vs.parquet.read_paths(root, "v", PATHS, threads=t),
            "read_table": lambda t: vs.parquet.read_table(root, threads=t),
        }
        for name, fn in contenders.items():
            fn(2)  # warm: page cache, imports
            runs = best_of(args.repeat, fn, (1, 2))
            bound = min(halves_at_once(root, work, HALF[name]) for _ in range(args.repeat))
            line = f"  {name:<22}"
            for t, (wall, cpu) in runs.items():
                line += (f" {t} thread{'s' if t > 1 else ' '} {wall:6.2f} s "
                         f"({size / 1e6 / wall:5.0f} MB/s, cpu {cpu:6.2f} s) ")
            print(f"{line}  ratio {runs[1][0] / runs[2][0]:.2f}x;  two processes on halves "
                  f"{bound:.2f} s ({runs[1][0] / bound:.2f}x), threads 2 / bound "
                  f"{bound / runs[2][0]:.2f}x", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
