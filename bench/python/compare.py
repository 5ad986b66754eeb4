# Licensed under the Apache License, Version 2.0.
"""varshred against Spark, DuckDB and pyarrow, as users meet them, in one command: the
table in the README's performance section.

    .venv/bin/python bench/python/compare.py [--events 1000000] [--tweets-mb 200]
    .venv/bin/python bench/python/compare.py --runs 3     # ranges over three runs
    .venv/bin/python bench/python/compare.py --quick      # a smoke run, small inputs

Two data sets: generated events (``varshred demo``'s documents, with drift) and real
tweets (``../shared/data/twitter.json`` replicated with perturbed ids). Three parts:

* **cold, whole process**: ``varshred shred IN OUT --master local[2]`` started from the
  shell against a Python process that starts its own Spark session and runs
  ``parse_json`` + ``write.parquet`` (shredding inferred per file, zstd), each timed from
  outside until the process exits (what ``time`` in a shell shows); also the time after
  the Spark session is up, the time until the output pipe closes (PySpark's JVM shuts
  down in the background after the process, about 0.4 s, and a pipe waits for it), and
  the bytes written. A last Spark process reads every output back and counts its rows.
* **in one process** (2 threads): ``vs.parquet.write_json`` against DuckDB's
  ``json::JSON::VARIANT`` + ``COPY`` and pyarrow's ``read_json`` + ``write_table`` (typed
  columns, no Variant), on parquet_write_bench's events (one type per field, as
  pyarrow needs) and a slice of the tweets; file bytes of each.
* **reading back**: ``varshred to-json`` against DuckDB's ``v::JSON`` ``COPY`` of the
  same file, with 1 and 2 threads.
* **the library's Spark writer**, in one warm session: ``vs.spark.write(df, path)`` (one
  schema for the job from a sample pass, and with ``shredding="per-file"``) against
  ``df.write.parquet`` (Spark's shredding, inferred per file), ``df`` read from an
  unshredded Variant table of the events (a table as stored, which varshred reads
  itself), and the same rows behind a filter keeping them all (read by Spark, through Arrow);
  also the writer's fixed part: its sample pass alone, and a job of empty Python tasks.
* **cold, Parquet input**: ``varshred shred`` of that unshredded table against a Spark
  process doing ``read.parquet`` + ``write.parquet`` (shredding inferred, zstd).

Absolute times on a shared machine are noise: the ratios are taken within one run.
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
import threading
import time

import pyarrow as pa
import pyarrow.json as pajson
import pyarrow.parquet as pq

import varshred as vs
from parquet_write_bench import events as typed_events
from varshred import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TWEETS = os.path.join(ROOT, "..", "shared", "data", "twitter.json")

# The peer: what a Spark user runs for the same job, as its own process.
SPARK_JOB = r"""
import sys, time
start = time.time()
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[2]").appName("spark-peer")
         .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
         .config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1")
         .config("spark.sql.variant.writeShredding.enabled", "true")
         .config("spark.sql.variant.inferShreddingSchema", "true").getOrCreate())
spark.sparkContext.setLogLevel("OFF")
print(f"session {time.time() - start:.2f}", flush=True)
(spark.read.text(sys.argv[1]).selectExpr("parse_json(value) AS v")
 .write.mode("overwrite").option("compression", "zstd").parquet(sys.argv[2]))
"""
# The peer on Parquet input: a table of Variant values, rewritten with Spark's shredding.
SPARK_PARQUET_JOB = SPARK_JOB.replace(
    """(spark.read.text(sys.argv[1]).selectExpr("parse_json(value) AS v")""",
    """(spark.read.parquet(sys.argv[1])""")
assert SPARK_PARQUET_JOB != SPARK_JOB

# Reads every output back with Spark and prints its row count.
SPARK_COUNT = r"""
import sys
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
spark.sparkContext.setLogLevel("OFF")
for path in sys.argv[1:]:
    df = spark.read.parquet(path)
    df.selectExpr("to_json(" + df.columns[0] + ")").limit(100).collect()
    print(path, df.count(), flush=True)
"""


def tweets(min_bytes: int) -> list[str]:
    """The sample tweets, replicated with perturbed ids to at least ``min_bytes``."""
    with open(TWEETS, encoding="utf-8") as f:
        statuses = json.load(f)["statuses"]
    out, size, copy = [], 0, 0
    while size < min_bytes:
        for s in statuses:
            doc = dict(s, id=s["id"] + copy, id_str=str(s["id"] + copy))
            line = json.dumps(doc, ensure_ascii=False)
            out.append(line)
            size += len(line.encode("utf-8")) + 1
        copy += 1
    return out


def write_lines(path: str, docs: list[str]) -> int:
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(docs) + "\n")
    return os.path.getsize(path)


def parquet_bytes(path: str) -> int:
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(path)
               for f in fs if f.endswith(".parquet"))


def parquet_rows(path: str) -> int:
    return sum(pq.ParquetFile(f).metadata.num_rows for f in vs.dataset.files(path))


def best_of(repeat: int, fn) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def timed_process(args: list[str], session_pattern: str) -> tuple[float, float, float]:
    """(seconds until the process exits, as ``time`` in a shell reports it; seconds
    until its output pipe closes, which waits for its Spark JVM to finish shutting down
    after it; seconds its Spark session took to start). A JVM started by PySpark exits
    on its own once the Python process has gone (stdin closed): the shell does not wait
    for it, a pipe reading the command's output does."""
    start = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output: list[str] = []
    reader = threading.Thread(target=lambda: output.append(p.stdout.read()))
    reader.start()
    p.wait()
    exited = time.perf_counter() - start
    reader.join()
    drained = time.perf_counter() - start
    if p.returncode != 0:
        raise RuntimeError(f"{args[:4]} failed:\n{output[0]}")
    m = re.search(session_pattern, output[0])
    return exited, drained, float(m.group(1)) if m else float("nan")


def cold(name: str, label: str, source: str, rows: int, work: str, table: list,
         peer: str = SPARK_JOB, peer_label: str = "Spark `parse_json` + write"
         ) -> list[str]:
    """The whole-process comparison on one input; returns the outputs to check."""
    ours, theirs = os.path.join(work, f"{name}-varshred"), os.path.join(work, f"{name}-spark")
    v_wall, v_drained, v_session = timed_process(
        [sys.executable, "-m", "varshred", "shred", source, ours, "--master", "local[2]",
         "--mode", "overwrite"], r"\[1/3\] Spark \S+ on \S+ \(([\d.]+) s\)")
    s_wall, s_drained, s_session = timed_process(
        [sys.executable, "-c", peer, source, theirs], r"session ([\d.]+)")
    for path in (ours, theirs):
        assert parquet_rows(path) == rows, (path, parquet_rows(path), rows)
    v_bytes, s_bytes = parquet_bytes(ours), parquet_bytes(theirs)
    table.append((f"cold `varshred shred` vs {peer_label}, {label}",
                  f"{v_wall:.1f} s vs {s_wall:.1f} s", f"{s_wall / v_wall:.2f}x"))
    table.append((f"  after the session is up ({v_session:.1f} s vs {s_session:.1f} s)",
                  f"{v_wall - v_session:.1f} s vs {s_wall - s_session:.1f} s",
                  f"{(s_wall - s_session) / (v_wall - v_session):.2f}x"))
    table.append(("  until the output pipe closes (the JVM's shutdown after the process "
                   "included)", f"{v_drained:.1f} s vs {s_drained:.1f} s",
                  f"{s_drained / v_drained:.2f}x"))
    table.append((f"  bytes written, {name}", f"{v_bytes / 1e6:.1f} MB vs {s_bytes / 1e6:.1f} MB",
                  f"{v_bytes / s_bytes:.2f}x Spark's size"))
    return [ours, theirs]


def in_process(name: str, docs: list[str], work: str, repeat: int, table: list) -> None:
    import duckdb

    source = os.path.join(work, f"{name}-slice.jsonl")
    mb = write_lines(source, docs) / 1e6
    # The inputs and outputs of the cold runs are still being written back to disk: the
    # kernel's writeback would run beside the short timings below.
    os.sync()
    strings = pa.array(docs, pa.string())
    ours = os.path.join(work, f"{name}-vs.parquet")
    duck = os.path.join(work, f"{name}-duck.parquet")
    typed = os.path.join(work, f"{name}-pyarrow.parquet")
    con = duckdb.connect()
    con.execute("SET threads = 2")
    con.register("docs", pa.table({"j": strings}))
    t_vs = best_of(repeat, lambda: vs.parquet.write_json(strings, ours, threads=2))
    t_duck = best_of(repeat, lambda: con.execute(
        f"COPY (SELECT j::JSON::VARIANT AS v FROM docs) TO '{duck}' "
        "(FORMAT parquet, COMPRESSION zstd)"))
    t_pa = best_of(repeat, lambda: pq.write_table(
        pajson.read_json(source), typed, compression="zstd"))
    assert parquet_rows(ours) == parquet_rows(duck) == len(docs)
    label = f"{len(docs):,} {name} ({mb:.0f} MB)"
    table.append((f"`write_json` (2 threads) vs DuckDB, {label}",
                  f"{t_vs:.2f} s vs {t_duck:.2f} s", f"{t_duck / t_vs:.2f}x"))
    table.append((f"`write_json` vs pyarrow `read_json` + `write_table` (typed), {label}",
                  f"{t_vs:.2f} s vs {t_pa:.2f} s", f"{t_pa / t_vs:.2f}x"))
    table.append((f"  file bytes vs DuckDB's, {name}",
                  f"{parquet_bytes(ours) / 1e6:.1f} MB vs {parquet_bytes(duck) / 1e6:.1f} MB",
                  f"{parquet_bytes(ours) / parquet_bytes(duck):.2f}x DuckDB's size"))
    out = os.path.join(work, f"{name}-back.jsonl")
    to_json = ["to-json", ours, out, "--threads"]
    copy = (f"COPY (SELECT v::JSON AS j FROM read_parquet('{ours}')) TO '{out}' "
            "(FORMAT csv, HEADER false, QUOTE '', ESCAPE '')")
    for threads in (1, 2):
        con.execute(f"SET threads = {threads}")
        t_ours = best_of(repeat, lambda t=threads: cli.main(to_json + [str(t)]))
        t_duck = best_of(repeat, lambda: con.execute(copy))
        table.append((f"Parquet -> JSON lines, `to-json` vs DuckDB `v::JSON`, {name}, "
                      f"{threads} thread{'s' if threads > 1 else ''}",
                      f"{t_ours:.2f} s vs {t_duck:.2f} s", f"{t_duck / t_ours:.2f}x"))


def spark_writer(docs: list[str], work: str, repeat: int, table: list) -> str:
    """The library's writer in one warm session; returns the unshredded table it read."""
    from varshred.pipeline import spark_session

    source = os.path.join(work, "writer-events.jsonl")
    write_lines(source, docs)
    spark = spark_session("local[2]")
    try:
        spark.conf.set("spark.sql.variant.writeShredding.enabled", "false")
        plain = os.path.join(work, "writer-unshredded")
        (spark.read.text(source).selectExpr("parse_json(value) AS v")
         .write.mode("overwrite").parquet(plain))
        for key in ("writeShredding.enabled", "inferShreddingSchema"):
            spark.conf.set(f"spark.sql.variant.{key}", "true")
        df = spark.read.parquet(plain)
        outs = {name: os.path.join(work, f"writer-{name}")
                for name in ("spark", "infer", "file", "through")}
        contenders = {
            "spark": lambda: df.write.mode("overwrite").option("compression", "zstd")
            .parquet(outs["spark"]),
            "infer": lambda: vs.spark.write(df, outs["infer"], mode="overwrite"),
            "file": lambda: vs.spark.write(df, outs["file"], mode="overwrite",
                                           shredding="per-file"),
            # The same rows behind a filter that keeps them all: not a table as stored,
            # so Spark reads them and hands them to the data source through Arrow.
            "through": lambda: vs.spark.write(df.filter("true"), outs["through"],
                                              mode="overwrite"),
        }
        # What bounds the writer on small inputs: its sample pass, and the floor of any
        # job of Python tasks (scheduling, a task per core that does nothing).
        sc = spark.sparkContext
        parts = {
            "sample": lambda: vs.spark.infer_schema(df),
            "empty job": lambda: sc.parallelize(range(sc.defaultParallelism),
                                                sc.defaultParallelism)
            .mapPartitions(lambda rows: [0]).collect(),
        }
        for fn in (*contenders.values(), *parts.values()):
            fn()  # warm-up: Python workers started, classes loaded
        times = {name: best_of(repeat, fn) for name, fn in {**contenders, **parts}.items()}
        for path in outs.values():
            assert spark.read.parquet(path).count() == len(docs), path
    finally:
        spark.stop()
    label = f"{len(docs):,} events, warm session"
    for name, what in (("infer", "`vs.spark.write` (job sample; the table as stored)"),
                       ("file", '`vs.spark.write(shredding="per-file")`'),
                       ("through", "`vs.spark.write(df.filter(\"true\"))` (through Spark)")):
        table.append((f"{what} vs `df.write.parquet` of a Variant table, {label}",
                      f"{times[name]:.2f} s vs {times['spark']:.2f} s",
                      f"{times['spark'] / times[name]:.2f}x"))
    table.append(("  of which the sample pass (`vs.spark.infer_schema`) / a job of "
                  "empty Python tasks", f"{times['sample']:.2f} s / {times['empty job']:.2f} s",
                  f"{times['sample'] / times['infer']:.2f}x / "
                  f"{times['empty job'] / times['infer']:.2f}x the writer's time"))
    table.append(("  bytes written (job sample vs Spark's)",
                  f"{parquet_bytes(outs['infer']) / 1e6:.1f} MB vs "
                  f"{parquet_bytes(outs['spark']) / 1e6:.1f} MB",
                  f"{parquet_bytes(outs['infer']) / parquet_bytes(outs['spark']):.2f}x "
                  "Spark's size"))
    return plain


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=1_000_000, help="events for the cold runs")
    ap.add_argument("--tweets-mb", type=float, default=200, help="MB of tweets, cold runs")
    ap.add_argument("--slice", type=int, default=300_000,
                    help="events for the in-process part (tweets: a fifteenth of this)")
    ap.add_argument("--repeat", type=int, default=3, help="in-process runs; the best counts")
    ap.add_argument("--runs", type=int, default=1,
                    help="whole comparisons in a row; the table gives each figure's range")
    ap.add_argument("--quick", action="store_true", help="small inputs: a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.events, args.tweets_mb, args.slice, args.repeat = 20_000, 5, 10_000, 1

    work = tempfile.mkdtemp(prefix="varshred-compare-")
    tables: list[list[tuple[str, str, str]]] = []
    try:
        events = cli.sample_events(args.events)
        tweet_docs = tweets(int(args.tweets_mb * 1e6))
        sources = {}  # by name: (file, label, documents)
        for name, docs in {"events": events, "tweets": tweet_docs}.items():
            source = os.path.join(work, f"{name}.jsonl")
            mb = write_lines(source, docs) / 1e6
            print(f"{name}: {len(docs):,} documents, {mb:.0f} MB", flush=True)
            sources[name] = (source, f"{len(docs):,} {name} ({mb:.0f} MB)", len(docs))
        # Untimed: both processes once on a small input, so that the OS caches the jars
        # and varshred's JVM class archive exists (its first run on a machine writes it,
        # docs/cluster.md#start-up).
        warm = os.path.join(work, "warm.jsonl")
        write_lines(warm, events[:1000])
        cold("warm", "warm-up", warm, 1000, work, [])
        for _ in range(args.runs):
            tables.append(compare(args, events, tweet_docs, sources, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n| step (2 cores, {time.strftime('%Y-%m-%d')}, {args.runs} run"
          f"{'s' if args.runs > 1 else ''}) | times | ratio |\n|---|---|---|")
    for rows in zip(*tables):
        print("| " + " | ".join(ranges(list(cells)) for cells in zip(*rows)) + " |")


def compare(args: argparse.Namespace, events: list[str], tweet_docs: list[str],
            sources: dict, work: str) -> list[tuple[str, str, str]]:
    """One whole comparison: its table, each output checked."""
    table: list[tuple[str, str, str]] = []
    outputs = []
    for name, (source, label, rows) in sources.items():
        outputs += cold(name, label, source, rows, work, table)
    # In one process: pyarrow's typed read_json needs one type per field, so the
    # events here are parquet_write_bench's (the same shape without drift).
    in_process("events", typed_events(args.slice), work, args.repeat, table)
    in_process("tweets", tweet_docs[:max(1, args.slice // 15)], work, args.repeat, table)
    plain = spark_writer(events, work, args.repeat, table)
    # Parquet input, cold: the table the writer read, rewritten shredded.
    outputs += cold("table", f"a table of {len(events):,} events (unshredded Parquet)",
                    plain, len(events), work, table, SPARK_PARQUET_JOB,
                    "Spark `read.parquet` + write")
    # Spark reads every output of the cold runs back.
    counted = subprocess.run([sys.executable, "-c", SPARK_COUNT, *outputs],
                             capture_output=True, text=True, check=True).stdout
    for line, path in zip(counted.splitlines(), outputs):
        assert line.split()[-1] == str(parquet_rows(path)), line
    return table


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def ranges(cells: list[str]) -> str:
    """The same cell of several runs as one: each number the range of its values
    (``4.38-5.00x``), when the runs print the same words around them."""
    if len({_NUMBER.sub("#", c) for c in cells}) != 1:
        return " / ".join(cells)
    values = [_NUMBER.findall(c) for c in cells]
    pieces = _NUMBER.split(cells[0])
    out = pieces[0]
    for i, piece in enumerate(pieces[1:]):
        run = sorted((v[i] for v in values), key=lambda n: float(n.replace(",", "")))
        out += run[0] if run[0] == run[-1] else f"{run[0]}-{run[-1]}"
        out += piece
    return out


if __name__ == "__main__":
    main()
