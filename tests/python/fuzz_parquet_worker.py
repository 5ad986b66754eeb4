# Licensed under the Apache License, Version 2.0.
"""Worker of test_fuzz_parquet.py, run in a subprocess so that a crash (SIGSEGV,
SIGABRT) kills only it: mutates seed Parquet files and runs every reader entry point on
each mutant. A Python exception is a fine outcome; anything else is reported by the
parent from the last line this worker printed before dying.

    python fuzz_parquet_worker.py SEED_LIST_FILE OUT_DIR RUNS_PER_SEED RNG_SEED GROUP
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import sys

import varshred as vs
from varshred import cli
from fuzz_util import mutate


def footer_edit(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A mutation inside the Thrift footer (the last 8 bytes hold its length and PAR1)."""
    if len(data) < 12:
        return mutate(data, rng)
    n = int.from_bytes(data[-8:-4], "little")
    start = max(4, len(data) - 8 - n)
    buf = bytearray(data)
    kind = rng.randrange(3)
    if kind == 0:  # the footer length itself
        val = rng.choice([0, 1, n + 1, n - 1, len(data), 0x7FFFFFFF])
        buf[-8:-4] = val.to_bytes(4, "little")
        return bytes(buf), f"footer length {n} -> {val}"
    pos = rng.randrange(start, len(data) - 8)
    if kind == 1:
        buf[pos] = rng.randrange(256)
        return bytes(buf), f"footer byte {pos} set to {buf[pos]:#x}"
    buf[pos] ^= 1 << rng.randrange(8)
    return bytes(buf), f"footer bit flip at {pos}"


def entry_points(path: str) -> dict[str, list]:
    """Every reader entry point, in groups; each may raise, none may crash."""
    return {
        "readers": [
            lambda: vs.parquet.read_table(path),
            lambda: vs.parquet.read_table(path, shredded=True),
            lambda: [b for b in vs.parquet.iter_batches(path, batch_size=7)],
            lambda: vs.parquet.inspect(path),
            lambda: vs.parquet.read_paths(path, "v", {"$.a": "bigint", "$.items[0].id": None,
                                                      "$.n": "double", "$.s": "string"}),
            lambda: vs.to_json(vs.parquet.read_table(path)["v"]),
            lambda: vs.validate(vs.parquet.read_table(path, shredded=True)["v"]),
        ],
        "statistics": [  # footer statistics only
            lambda: vs.parquet.shredding_counts(path),
            lambda: vs.parquet.prunable_row_groups(path, "v", "$.n", ">", 10),
            lambda: vs.parquet.prunable_row_groups(path, "v", "$.a", "==", 3),
        ],
        "cli": [lambda argv=argv: cli.main(argv) for argv in
                (["inspect", path], ["to-json", path, os.devnull], ["get", path, "$.a"])],
    }


def exercise(path: str, group: str) -> None:
    for call in entry_points(path)[group]:
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                call()
        except Exception:  # noqa: BLE001 - any Python exception is an acceptable outcome
            pass
        except SystemExit:
            pass


def main() -> int:
    seeds_file, out_dir, runs, rng_seed, group = sys.argv[1:6]
    runs = int(runs)
    seeds = [line.strip() for line in open(seeds_file) if line.strip()]
    rng = random.Random(rng_seed)
    target = os.path.join(out_dir, "mutant.parquet")
    for seed in seeds:
        data = open(seed, "rb").read()
        for i in range(runs):
            if rng.randrange(3) == 0:
                mutant, what = footer_edit(data, rng)
            else:
                mutant, what = mutate(data, rng, protect=4)
                if rng.randrange(3) == 0:  # stack a second mutation
                    mutant, more = mutate(mutant, rng, protect=4)
                    what += "; " + more
            with open(target, "wb") as f:
                f.write(mutant)
            # The parent reads the last CASE line if this process dies.
            print(f"CASE {seed} #{i}: {what}", flush=True)
            exercise(target, group)
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
