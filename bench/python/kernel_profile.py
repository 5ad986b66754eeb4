# Licensed under the Apache License, Version 2.0.
"""Where the JSON -> Variant kernel's instructions go, against simdjson on the same
documents: the profile behind issue 13's kernel goal, counted rather than timed.

    .venv/bin/python bench/python/kernel_profile.py [--binary build/prof/bench/json_benchmark]

Needs valgrind, and a ``json_benchmark`` built with ``-O3 -g`` (the source files name
the parts; see docs/development.md#benchmarks). Runs, under callgrind, the Arrow kernel
users call (``varshred::JsonToVariant``, string column -> Variant column) and three
peers that build no Variant: simdjson's on-demand walk reading every key, string and
number, its DOM parse (a tape of every value), and its first stage plus a pass over the
token index. Prints instructions per document for each, and the kernel's split by the
source files they run in: simdjson's first stage, the walk of its tokens (grammar,
strings, numbers), building the Variant value and metadata, and the Arrow column.

Instructions are not time: a cache miss or a mispredicted branch costs none. They do not
change with the machine's load, which on this shared machine moves timings by 2x.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = {0: "events", 1: "nested", 2: "wide", 3: "maps"}
KERNEL = ("BM_JsonToVariantKernel/events0_nested1_wide2_maps3_doubles4",
          "varshred::JsonToVariant(*")
PEERS = {  # row label: (benchmark, the function one pass over the documents runs in)
    "simdjson on-demand walk": ("BM_SimdjsonOnDemandPeer", "*OnDemandPass*"),
    "simdjson DOM parse": ("BM_SimdjsonDomPeer", "*DomPass*"),
    "simdjson first stage + token pass": ("BM_TokenIndexPeer", "*TokenIndexPass*"),
}
# The kernel's parts, by the source file an instruction comes from (inlined code
# keeps its own file: the builder's appends inside the walk count as building).
PARTS = {
    "first stage (simdjson)": re.compile(r"simdjson\.(cpp|h)$|intrin\.h$"),
    "walk: grammar, strings, numbers": re.compile(
        r"json_(parse\.cc|reader_internal\.h|documents_internal\.h|kernels\.cc)$"
        r"|^string_view$|char_traits\.h$"),
    "building the Variant (values, keys, headers)": re.compile(
        r"(^(builder|metadata)\.(h|cc)|endian_internal\.h"
        r"|container_encoding_internal\.h|format\.h|stl_vector\.h)$|^mem(move|cpy)"),
    "the Arrow column": re.compile(
        r"variant_array\.(h|cc)$|buffer_builder\.h$|/array/|arrow/(type|buffer|result)\.h$"
        r"|aligned_storage\.h$"),
}
OTHER = "other: the standard library, libc, per-row calls (arrow::Status)"
ROW = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?([^:\s][^:]*):")


def count(binary: str, benchmark: str, collect: str, workdir: str) -> tuple[int, dict]:
    """(documents, instructions by source file) of one benchmark run under callgrind."""
    out = os.path.join(workdir, "callgrind.out")
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
         f"--toggle-collect={collect}", binary, f"--benchmark_filter=^{benchmark}$",
         "--benchmark_min_time=0.01", "--benchmark_format=json"],
        capture_output=True, text=True, check=True)
    result = json.loads(run.stdout)["benchmarks"]
    if len(result) != 1 or result[0]["iterations"] != 1:
        sys.exit(f"{benchmark}: expected one run of one iteration, got {result}")
    docs = round(result[0]["items_per_second"] * result[0]["cpu_time"] / 1e9)
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--auto=no", "--threshold=100", out],
        capture_output=True, text=True, check=True).stdout
    by_file: dict[str, int] = {}
    for line in annotated.splitlines():
        m = ROW.match(line)
        if m and "PROGRAM TOTALS" not in line:
            name = m.group(2).strip()
            by_file[name] = by_file.get(name, 0) + int(m.group(1).replace(",", ""))
    return docs, by_file


def split(by_file: dict[str, int]) -> dict[str, int]:
    """The kernel's instructions by part; OTHER for files no part claims."""
    parts = dict.fromkeys([*PARTS, OTHER], 0)
    for path, n in by_file.items():
        base = path if "arrow/" in path else os.path.basename(path)
        part = next((p for p, rule in PARTS.items() if rule.search(base)), OTHER)
        parts[part] += n
    return parts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, "build/prof/bench/json_benchmark"))
    ap.add_argument("--data", default="events,nested,wide,maps",
                    help="comma-separated: " + ", ".join(DATA.values()))
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is needed: apt-get install valgrind")
    kinds = [k for k, name in DATA.items() if name in args.data.split(",")]
    with tempfile.TemporaryDirectory(prefix="varshred-profile-") as work:
        for kind in kinds:
            docs, by_file = count(args.binary, f"{KERNEL[0]}:{kind}", KERNEL[1], work)
            if sum(n for f, n in by_file.items() if f.startswith("???")) > sum(
                    by_file.values()) / 2:
                sys.exit(f"{args.binary} has no debug information: build it with -g")
            total = sum(by_file.values())
            peers = {}
            for label, (benchmark, collect) in PEERS.items():
                peer_docs, peer_files = count(
                    args.binary, f"{benchmark}/events0_nested1_wide2_maps3:{kind}",
                    collect, work)
                peers[label] = sum(peer_files.values()) / peer_docs
            print(f"\n{DATA[kind]}: {docs:,} documents, instructions per document\n")
            print("| what | instructions | of the kernel |\n|---|---|---|")
            print(f"| JSON -> Variant kernel (`JsonToVariant`) | {total / docs:,.0f} | 100% |")
            for part, n in split(by_file).items():
                print(f"| - {part} | {n / docs:,.0f} | {100 * n / total:.0f}% |")
            for label, per_doc in peers.items():
                print(f"| {label} (builds no Variant) | {per_doc:,.0f} | "
                      f"{100 * per_doc * docs / total:.0f}% |")


if __name__ == "__main__":
    main()
