# Licensed under the Apache License, Version 2.0.
"""Datasets (docs/datasets.md): a directory, glob or list of Parquet files read as one
table by read_table / iter_batches / read_paths and the CLI, across files with
different shredding and columns, in parallel, with filter pruning and Hive
partitions."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import threading

import pyarrow as pa
import pytest

import varshred as vs
from varshred import _parquet, cli


def _docs(start: int, n: int, extra: bool = False) -> list[str]:
    out = []
    for i in range(start, start + n):
        d = {"id": i, "kind": ["click", "view"][i % 2], "user": {"name": f"u{i % 7}"}}
        if extra:
            d["score"] = i / 4  # appears after drift: a path the first files lack
        out.append(json.dumps(d, separators=(",", ":")))
    return out


def _json(table: pa.Table, column: str = "v") -> list:
    return [None if j is None else json.loads(j) for j in vs.to_json(table[column]).to_pylist()]


@pytest.fixture
def drifted(tmp_path):
    """A dataset of varshred's own part files: per-file inferred shredding (string ids
    in one file), a column added by a later append, and noise Spark and Hadoop leave."""
    root = tmp_path / "events"
    (root / "2026" / "11").mkdir(parents=True)
    vs.parquet.write_json(_docs(0, 300), str(root / "part-000.parquet"), row_group_size=100)
    vs.parquet.write_json([json.dumps({"id": f"s{i}", "kind": "legacy"}) for i in range(50)],
                          str(root / "part-001.parquet"))
    vs.parquet.write_json(_docs(300, 200, extra=True),
                          str(root / "2026" / "11" / "part-002.parquet"), row_group_size=100)
    late = pa.table({"v": vs.from_json(pa.array(_docs(500, 40))),
                     "source": pa.array(["late"] * 40)})
    vs.parquet.write_table(late, str(root / "2026" / "part-003.parquet"),
                           shredding={"v": "id bigint"})
    # Never read: markers, staging directories, hidden files (not Parquet at all).
    (root / "_SUCCESS").write_text("")
    (root / ".part-000.parquet.crc").write_bytes(b"crc")
    (root / "_temporary" / "0").mkdir(parents=True)
    (root / "_temporary" / "0" / "part-9.parquet").write_bytes(b"partial")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "x.parquet").write_bytes(b"x")
    return root


def _expected_rows(root) -> list:
    """In path order: 2026/11/part-002, 2026/part-003, part-000, part-001."""
    return ([json.loads(d) for d in _docs(300, 200, extra=True)]
            + [json.loads(d) for d in _docs(500, 40)]
            + [json.loads(d) for d in _docs(0, 300)]
            + [{"id": f"s{i}", "kind": "legacy"} for i in range(50)])


def test_files_lists_directories_globs_and_lists(drifted):
    files = vs.dataset.files(str(drifted))
    rel = [os.path.relpath(f, drifted) for f in files]
    assert rel == ["2026/11/part-002.parquet", "2026/part-003.parquet", "part-000.parquet",
                   "part-001.parquet"]
    assert vs.dataset.files(str(drifted) + "/") == files
    assert vs.dataset.files(str(drifted / "part-*.parquet")) == [
        str(drifted / "part-000.parquet"), str(drifted / "part-001.parquet")]
    assert vs.dataset.files(str(drifted / "2026" / "*")) == [
        str(drifted / "2026" / "11" / "part-002.parquet"),
        str(drifted / "2026" / "part-003.parquet")]
    # A list keeps its order; a file named is read whatever its name.
    named = [str(drifted / "part-001.parquet"), str(drifted / "2026")]
    assert vs.dataset.files(named) == [named[0]] + files[:2]
    assert vs.dataset.files(str(drifted / "_SUCCESS")) == [str(drifted / "_SUCCESS")]
    with pytest.raises(FileNotFoundError, match="no such file"):
        vs.dataset.files(str(drifted / "missing"))
    with pytest.raises(FileNotFoundError, match="matches"):
        vs.dataset.files(str(drifted / "*.json"))


def test_names_with_glob_characters_that_exist_are_read_as_named(tmp_path, capsys):
    # Found by probing from outside: `[x].parquet` was globbed to `x.parquet` (the other
    # file's rows, silently), and the CLI's directory walk re-globbed the names it listed
    # (a traceback for `q?.parquet`).
    (tmp_path / "d").mkdir()
    vs.parquet.write_json(['{"which":"bracket"}'], str(tmp_path / "d" / "[x].parquet"))
    vs.parquet.write_json(['{"which":"x"}'] * 2, str(tmp_path / "d" / "x.parquet"))
    vs.parquet.write_json(['{"which":"question"}'], str(tmp_path / "d" / "q?.parquet"))
    for name, which in (("[x].parquet", "bracket"), ("q?.parquet", "question")):
        path = str(tmp_path / "d" / name)
        assert vs.dataset.files(path) == [path]
        assert _json(vs.parquet.read_table(path)) == [{"which": which}]
    # A pattern that names no file is still a pattern.
    assert vs.dataset.files(str(tmp_path / "d" / "[xy].parquet")) == [
        str(tmp_path / "d" / "x.parquet")]
    assert cli.main(["inspect", str(tmp_path / "d")]) == 0
    capsys.readouterr()
    assert cli.main(["get", str(tmp_path / "d"), "$.which"]) == 0
    assert sorted(capsys.readouterr().out.split()) == sorted(
        ['"bracket"', '"question"', '"x"', '"x"'])


def test_read_table_of_a_drifted_directory(drifted):
    t = vs.parquet.read_table(str(drifted))
    assert t.schema.names == ["v", "source"]
    assert vs.parquet.is_variant_type(t.schema.field("v").type)
    assert _json(t) == _expected_rows(drifted)
    assert t["source"].to_pylist() == [None] * 200 + ["late"] * 40 + [None] * 350
    # The same through iter_batches, a glob and a list.
    streamed = pa.Table.from_batches(list(vs.parquet.iter_batches(str(drifted), batch_size=64)))
    assert streamed.equals(t)
    files = vs.dataset.files(str(drifted))
    assert vs.parquet.read_table(files).equals(t)
    assert _json(vs.parquet.read_table(str(drifted / "part-*"), ["v"])) == \
        _expected_rows(drifted)[240:]


def test_one_file_reads_as_before(drifted):
    path = str(drifted / "part-000.parquet")
    reader = _parquet.reader(path, None, False, 65536, 0)
    assert vs.parquet.read_table(path).equals(reader.read_all())
    assert vs.parquet.prunable_row_groups(path, "v", "$.id", "==", 150) == [0, 2]
    assert [c.name for c in vs.parquet.inspect(path)] == ["v"]


def test_threads_same_rows_same_order(drifted):
    one = vs.parquet.read_table(str(drifted), threads=1)
    for threads, readahead in [(2, None), (2, 1), (3, 5)]:
        many = vs.parquet.read_table(str(drifted), threads=threads, readahead=readahead)
        assert many.equals(one)
        batches = list(vs.parquet.iter_batches(str(drifted), threads=threads,
                                               readahead=readahead))
        assert pa.Table.from_batches(batches).equals(one)
    paths = {"$.id": "bigint", "$.user.name": "string", "$.score": "double"}
    a = vs.parquet.read_paths(str(drifted), "v", paths, threads=1)
    b = vs.parquet.read_paths(str(drifted), "v", paths, threads=2, readahead=2)
    assert a.equals(b)
    assert a["$.id"].to_pylist() == [r["id"] if isinstance(r["id"], int) else None
                                     for r in _expected_rows(drifted)]


def test_columns_missing_and_conflicting(tmp_path):
    a, b, c = (str(tmp_path / n) for n in ("a.parquet", "b.parquet", "c.parquet"))
    v = vs.from_json(pa.array(['{"x": 1}', '{"x": 2}']))
    vs.parquet.write_table(pa.table({"v": v, "n": pa.array([1, 2], pa.int64())}), a)
    vs.parquet.write_table(pa.table({"v": v, "m": pa.array(["p", "q"])}), b,
                           shredding={"v": "x bigint"})
    vs.parquet.write_table(pa.table({"v": v, "n": pa.array(["1", "2"])}), c)
    t = vs.parquet.read_table([a, b])
    assert t.schema.names == ["v", "n", "m"]
    assert t["n"].to_pylist() == [1, 2, None, None]
    assert t["m"].to_pylist() == [None, None, "p", "q"]
    assert vs.parquet.read_table([a, b], ["m"])["m"].to_pylist() == [None, None, "p", "q"]
    with pytest.raises(TypeError) as e:
        vs.parquet.read_table([a, b, c])
    assert "'n'" in str(e.value) and a in str(e.value) and c in str(e.value)
    assert vs.parquet.read_table([a, c], ["v"]).num_rows == 4  # the conflict not read
    # Shredded as stored: one shredding across files, else an error naming both.
    with pytest.raises(TypeError, match="shredded=False") as e:
        vs.parquet.read_table([a, b], ["v"], shredded=True)
    assert a in str(e.value) and b in str(e.value)
    with pytest.raises(KeyError, match="nope"):
        vs.parquet.read_table([a, b], ["nope"])


def test_files_that_order_their_columns_differently(tmp_path):
    # The reader applied each file's Variant layouts in the file's column order to
    # columns returned in the order asked for: a dataset whose files order their
    # columns differently failed ("a Variant column must be a struct array, got int64")
    # until 2026-11-27.
    a, b = str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet")
    v = vs.from_json(pa.array(['{"x": 1}', "[2]"]))
    w = vs.from_json(pa.array(['"s"', '{"y": null}']))
    vs.parquet.write_table(pa.table({"n": pa.array([1, 2]), "v": v, "w": w}), a,
                           shredding={"v": "x bigint"})
    vs.parquet.write_table(pa.table({"w": w, "n": pa.array([3, 4]), "v": v}), b,
                           shredding={"w": "string"})
    t = vs.parquet.read_table([a, b])
    assert t.schema.names == ["n", "v", "w"]
    assert t["n"].to_pylist() == [1, 2, 3, 4]
    assert _json(t, "v") == [{"x": 1}, [2]] * 2
    assert _json(t, "w") == ["s", {"y": None}] * 2
    for columns in (["w", "n"], ["v", "w"], ["w", "v", "n"]):
        t = vs.parquet.read_table([a, b], columns)
        assert sorted(t.schema.names) == sorted(columns)
        assert _json(t, "w") == ["s", {"y": None}] * 2


def test_empty_directory_and_empty_file(tmp_path):
    (tmp_path / "empty").mkdir()
    assert vs.parquet.read_table(str(tmp_path / "empty")).num_rows == 0
    os.makedirs(tmp_path / "d")
    vs.parquet.write_json([], str(tmp_path / "d" / "none.parquet"))
    vs.parquet.write_json(['{"a": 1}'], str(tmp_path / "d" / "one.parquet"))
    t = vs.parquet.read_table(str(tmp_path / "d"))
    assert _json(t) == [{"a": 1}]


def _count_row_groups(monkeypatch) -> list:
    """Records the row groups every data read asks for (not the footer reads)."""
    seen: list = []
    reader, read_leaves = _parquet.reader, _parquet.read_leaves

    def counting_reader(path, columns, shredded, batch_size, on_conflict, row_groups=None,
                        filesystem=None, **options):
        if row_groups is not None:
            seen.append(("table", os.path.basename(path), tuple(row_groups)))
        return reader(path, columns, shredded, batch_size, on_conflict, row_groups, filesystem,
                      **options)

    def counting_leaves(path, leaves, row_groups=None, filesystem=None, opened=None):
        seen.append(("leaves", os.path.basename(path), tuple(row_groups or ())))
        return read_leaves(path, leaves, row_groups, filesystem, opened)

    monkeypatch.setattr(_parquet, "reader", counting_reader)
    monkeypatch.setattr(_parquet, "read_leaves", counting_leaves)
    return seen


def _matches(value, op, literal) -> bool:
    import operator
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return {"==": operator.eq, "<": operator.lt, ">=": operator.ge}[op](value, literal)


@pytest.mark.parametrize("threads", [1, 2])
def test_filter_prunes_row_groups_and_keeps_the_same_rows(drifted, monkeypatch, threads):
    monkeypatch.setattr(vs.dataset, "UNIT_ROWS", 1)  # a unit per row group, to count them
    seen = _count_row_groups(monkeypatch)
    everything = vs.parquet.read_table(str(drifted), threads=threads)
    all_groups = {s[1:] for s in seen}
    assert len(all_groups) == 3 + 1 + 2 + 1  # row groups of the four files
    rows = _json(everything)
    for flt in [("$.id", "==", 150), ("v", "$.id", "<", 20), [("$.id", ">=", 310),
                                                              ("$.id", "<", 320)]]:
        seen.clear()
        got = vs.parquet.read_table(str(drifted), filter=flt, threads=threads)
        read = {s[1:] for s in seen}
        conds = [flt] if isinstance(flt, tuple) else flt
        want = [r for r in rows
                if all(_matches(r["id"], c[-2], c[-1]) for c in conds)]
        assert _json(got) == want and want
        # Pruned: only the row groups whose statistics allow a match, plus part-001,
        # whose ids are strings (a residual value could cast to a match).
        assert len(read) < len(all_groups), read
        assert ("part-001.parquet", (0,)) in read
        # The same rows as a filter without pruning (variant_get on every row).
        exact = everything.filter(vs.parquet._row_mask(
            everything, vs.dataset.parse_filter(flt, ["v"])))
        assert got.equals(exact)
    seen.clear()
    one = vs.parquet.read_table(str(drifted), filter=("$.id", "==", 150), threads=threads)
    assert {s[1:] for s in seen} == {("part-000.parquet", (1,)), ("part-001.parquet", (0,))}
    assert one.num_rows == 1
    seen.clear()
    ids = vs.parquet.read_paths(str(drifted), "v", {"$.user.name": "string"},
                                filter=("$.id", "==", 450), threads=threads)
    assert ids["$.user.name"].to_pylist() == ["u2"]
    assert {s[1:] for s in seen if s[0] == "leaves"} == {
        ("part-002.parquet", (1,)), ("part-001.parquet", (0,))}


def test_filter_on_a_string_literal_and_by_cast(tmp_path):
    """variant_get semantics: the string "42" casts to bigint 42, so a file whose typed
    column is a string is never pruned for an integer literal."""
    vs.parquet.write_json(['{"id": "42"}', '{"id": "7"}'], str(tmp_path / "a.parquet"))
    vs.parquet.write_json(['{"id": 42}', '{"id": 8}'], str(tmp_path / "b.parquet"))
    t = vs.parquet.read_table(str(tmp_path), filter=("$.id", "==", 42))
    assert _json(t) == [{"id": "42"}, {"id": 42}]
    t = vs.parquet.read_table(str(tmp_path), filter=("$.id", "==", "7"))
    assert _json(t) == [{"id": "7"}]
    with pytest.raises(ValueError, match="op must be one of"):
        vs.parquet.read_table(str(tmp_path), filter=("$.id", "!=", 1))
    with pytest.raises(ValueError, match="expected"):
        vs.parquet.read_table(str(tmp_path), filter="id = 1")


def test_prunable_row_groups_and_counts_of_a_dataset(drifted):
    pr = vs.parquet.prunable_row_groups(str(drifted), "v", "$.id", "==", 150)
    by_name = {os.path.basename(f): g for f, g in pr.items()}
    assert by_name == {"part-000.parquet": [0, 2], "part-001.parquet": [],
                       "part-002.parquet": [0, 1], "part-003.parquet": [0]}
    counts = {c.path: c for c in vs.parquet.shredding_counts(str(drifted))}
    assert counts["id"].typed + counts["id"].residual == 590
    info = vs.parquet.inspect(str(drifted))
    assert set(map(os.path.basename, info)) == set(by_name)


def test_hive_partitions(tmp_path):
    for day, hour, ids in [("2026-11-23", 1, range(0, 5)), ("2026-11-23", 2, range(5, 8)),
                           ("2026-11-24", 1, range(8, 10))]:
        d = tmp_path / f"day={day}" / f"hour={hour}"
        d.mkdir(parents=True)
        vs.parquet.write_json([json.dumps({"id": i}) for i in ids], str(d / "part-0.parquet"))
    d = tmp_path / "day=__HIVE_DEFAULT_PARTITION__" / "hour=3"
    d.mkdir(parents=True)
    vs.parquet.write_json(['{"id": 10}'], str(d / "part-0.parquet"))
    t = vs.parquet.read_table(str(tmp_path))
    assert t.schema.names == ["v", "day", "hour"]
    assert t.schema.field("day").type == pa.string()
    assert t.schema.field("hour").type == pa.int64()
    assert t["day"].to_pylist() == ["2026-11-23"] * 8 + ["2026-11-24"] * 2 + [None]
    assert t["hour"].to_pylist() == [1] * 5 + [2] * 3 + [1] * 2 + [3]
    f = vs.parquet.read_table(str(tmp_path), filter=[("day", "==", "2026-11-23"),
                                                     ("hour", ">=", 2)])
    assert [r["id"] for r in _json(f)] == [5, 6, 7]
    paths = vs.parquet.read_paths(str(tmp_path), "v", {"$.id": "bigint"},
                                  filter=("day", "==", "2026-11-24"))
    assert paths["$.id"].to_pylist() == [8, 9]


def _run_cli(*argv, stdin=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "varshred", *argv], input=stdin,
                          capture_output=True, timeout=300, cwd=cwd)


def test_cli_dash_is_stdin_and_stdout(drifted, tmp_path):
    r = _run_cli("to-json", str(drifted), "-", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert not os.path.exists(tmp_path / "-")
    lines = r.stdout.decode().splitlines()
    # Two columns (v, source): each row an object of both, compact as Spark's to_json.
    assert json.loads(lines[0]) == {"v": _expected_rows(drifted)[0], "source": None}
    assert lines[0].startswith('{"v":{"id":300,')
    # One Variant column: the documents themselves; "-" also reads standard input.
    one = drifted / "part-000.parquet"
    r = _run_cli("to-json", "-", stdin=one.read_bytes())
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().splitlines() == _docs(0, 300)
    r = _run_cli("get", "-", "$.user.name", "--type", "string", stdin=one.read_bytes())
    assert r.stdout.decode().split() == [f'"u{i % 7}"' for i in range(300)]  # JSON values
    # Standard input and a temporary output are named as the user named them (found by
    # probing from outside: messages named the command's own temporary files).
    r = _run_cli("inspect", "-", stdin=one.read_bytes())
    assert r.stdout.decode().startswith("-  (300 rows)")
    r = _run_cli("to-json", "-", stdin=b"garbage")
    assert r.returncode == 1 and r.stderr.decode().startswith("varshred: error: -: ")
    assert b"varshred-stdin" not in r.stderr
    r = _run_cli("to-json", str(one), str(tmp_path / "nowhere" / "out.jsonl"))
    assert r.returncode == 1 and b".tmp" not in r.stderr
    assert str(tmp_path / "nowhere" / "out.jsonl").encode() in r.stderr
    r = _run_cli("get", str(drifted / "part-*"), "$.id", "--threads", "2")
    assert r.stdout.decode().split()[299:302] == ["299", '"s0"', '"s1"']
    r = _run_cli("inspect", str(drifted))
    assert r.returncode == 0 and r.stdout.decode().count("column v: shredded") == 4
    r = _run_cli("to-json", str(tmp_path / "missing"))
    assert r.returncode == 1 and b"no such file or directory" in r.stderr
    # A file OUTPUT appears complete or not at all.
    bad = tmp_path / "bad"
    bad.mkdir()
    shutil.copy(one, bad / "a.parquet")
    (bad / "b.parquet").write_bytes(b"PAR1 not really")
    r = _run_cli("to-json", str(bad), str(tmp_path / "out.jsonl"), "--threads", "1")
    assert r.returncode == 1 and b"b.parquet" in r.stderr
    assert sorted(os.listdir(tmp_path)) == ["bad", "events"]
    r = _run_cli("to-json", str(bad / "a.parquet"), str(tmp_path / "out.jsonl"))
    assert (tmp_path / "out.jsonl").read_text().splitlines() == _docs(0, 300)


def test_cli_output_is_whole_when_the_command_ends_at_once(tmp_path):
    # The command ends without tearing the interpreter down (cli.run): what it printed
    # must still reach the pipe whole, and a reader that stops early must not turn into
    # an error.
    docs = [json.dumps({"id": i, "s": "x" * (i % 50)}) for i in range(100_000)]
    path = str(tmp_path / "big.parquet")
    vs.parquet.write_json(pa.array(docs), path)
    r = _run_cli("to-json", path, "-")
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().splitlines() == [json.dumps(json.loads(d), separators=(",", ":"))
                                              for d in docs]
    p = subprocess.Popen([sys.executable, "-m", "varshred", "to-json", path, "-"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert json.loads(p.stdout.readline()) == {"id": 0, "s": ""}
    p.stdout.close()  # as `| head -1` does
    assert p.wait(timeout=300) == 0
    assert p.stderr.read() == b""
    # inspect of many files into `head`: it reported the broken pipe as a file's error.
    (tmp_path / "many").mkdir()
    for i in range(400):  # more text than a pipe holds
        vs.parquet.write_json(['{"a": 1}'], str(tmp_path / "many" / f"p{i:03d}.parquet"))
    p = subprocess.Popen([sys.executable, "-m", "varshred", "inspect", str(tmp_path / "many")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    p.stdout.readline()
    p.stdout.close()
    assert p.wait(timeout=300) == 0
    assert p.stderr.read() == b""


@pytest.mark.spark
def test_three_producers_in_one_directory(spark_corpus, duckdb_corpus, tmp_path):
    """Spark's shredded writes, DuckDB's and varshred's (its own per-file shredding)
    side by side: one Variant column, each file's rows as reading it alone gives."""
    root = tmp_path / "mixed"
    root.mkdir()
    sources = [spark_corpus.files["inferred"], spark_corpus.files["forced"],
               duckdb_corpus.files["default"], duckdb_corpus.files["forced"]]
    for i, f in enumerate(sources):
        shutil.copy(f, root / f"part-{i}.parquet")
    v = vs.parquet.read_table(spark_corpus.files["inferred"], ["v"])["v"]
    vs.parquet.write_table(pa.table({"v": v}), str(root / "part-4.parquet"),
                           shredding={"v": vs.infer_schema(v)})
    vs.parquet.write_table(pa.table({"id": ["x"], "v": vs.from_json(pa.array(['{"a": [1]}']))}),
                           str(root / "part-5.parquet"), shredding={"v": "a array<bigint>"})
    alone = [vs.parquet.read_table(str(root / f"part-{i}.parquet"), ["v"]) for i in range(6)]
    layouts = {vs.parquet.inspect(str(root / f"part-{i}.parquet"))[-1].layout for i in range(6)}
    assert layouts == {"shredded"}
    for threads in (1, 2):
        t = vs.parquet.read_table(str(root), ["v"], threads=threads)
        assert _json(t) == [r for a in alone for r in _json(a)]
    # Their id columns agree (int32); varshred's string id is an error naming both files.
    with pytest.raises(TypeError, match="'id' is int32 in .*part-0.parquet but string in "
                                        ".*part-5.parquet"):
        vs.parquet.read_table(str(root))
    assert vs.parquet.read_table(str(root / "part-[0-3].parquet"))["id"].type == pa.int32()


@pytest.mark.spark
def test_shred_then_to_json_gives_back_the_documents(spark, tmp_path):
    from varshred.pipeline import ShredJob

    docs = [json.dumps(json.loads(d), separators=(",", ":"), sort_keys=True)
            for d in cli.sample_events(2000, seed=4)]
    src = tmp_path / "in"  # three input files: three tasks, three part files
    src.mkdir()
    for i in range(3):
        (src / f"in-{i}.jsonl").write_text("\n".join(docs[i::3]) + "\n")
    out = str(tmp_path / "out")
    ShredJob(str(src), out, schema="per-file", log=lambda _: None).run(spark)
    assert len(vs.dataset.files(out)) > 1
    r = _run_cli("to-json", out, "-")
    assert r.returncode == 0, r.stderr
    back = r.stdout.decode().splitlines()
    # Spark's own to_json of the documents is the reference (its normalisation).
    spark_json = [row.j for row in spark.createDataFrame([(d,) for d in docs], "d string")
                  .selectExpr("to_json(parse_json(d)) as j").collect()]
    # The documents are compact with sorted keys; Spark prints 99.0 as 99, otherwise the same.
    assert sum(a != b for a, b in zip(spark_json, docs)) < len(docs) / 2
    assert sorted(back) == sorted(spark_json)
    # Each part file's rows in input order (a task reads one input file in order).
    for f in vs.dataset.files(out):
        r = _run_cli("to-json", f)
        part = r.stdout.decode().splitlines()
        start = spark_json.index(part[0])
        assert part == spark_json[start::3][:len(part)]


def test_readahead_bounds_the_row_groups_in_flight(tmp_path, monkeypatch):
    """Memory follows readahead, not the dataset: with the consumer stopped after one
    batch, at most 1 + readahead row groups were ever opened."""
    import time

    for i in range(4):
        vs.parquet.write_json(_docs(i * 100, 100), str(tmp_path / f"p{i}.parquet"),
                              row_group_size=10)
    monkeypatch.setattr(vs.dataset, "UNIT_ROWS", 1)  # a unit per row group
    seen = _count_row_groups(monkeypatch)
    batches = vs.parquet.iter_batches(str(tmp_path), threads=2, readahead=3)
    first = next(batches)
    assert first.num_rows == 10
    time.sleep(0.5)  # let the workers run as far ahead as they may (an upper bound only)
    assert len(seen) <= 1 + 3
    assert sum(b.num_rows for b in batches) == 390
    assert len(seen) == 40


def _rows_matching(v, path, literal):
    """The rows whose variant_get(path) as the literal's type equals it: no pruning."""
    cast = vs.variant_get(v, path, pa.scalar(literal).type).to_pylist()
    return [r for r, x in enumerate(cast) if x is not None and x == literal]


def test_pruning_casts_the_statistics_as_variant_get_casts_values(tmp_path):
    """variant_get(42.5, bigint) is 42 and variant_get(42.45, decimal(3,1)) is 42.5:
    statistics of a decimal leaf, compared uncast, pruned row groups holding matches."""
    import decimal

    path = str(tmp_path / "d.parquet")
    v = vs.from_json(pa.array(['{"id": 42.5}', '{"id": 42.45}', '{"id": 0.1}']))
    vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": "id decimal(9,2)"},
                           row_group_size=1)
    cases = [(42, [0, 1]), (decimal.Decimal("42.5"), [0, 1]), (0.1, [2]), (43, [])]
    for literal, rows in cases:
        got = vs.parquet.read_table(path, filter=("$.id", "==", literal))
        assert _rows_matching(v, "$.id", literal) == rows
        assert vs.parquet.read_table(path).take(pa.array(rows, pa.int64())).equals(got), literal
        kept = set(range(3)) - set(vs.parquet.prunable_row_groups(path, "v", "$.id", "==",
                                                                  literal))
        assert set(rows) <= kept, literal


def test_pruning_compares_wide_decimals_exactly(tmp_path):
    """Statistics of a decimal(38,0) leaf beyond 28 digits, cast to a Decimal literal's
    scale: Python's default context (28 digits) raised InvalidOperation."""
    import decimal

    path = str(tmp_path / "wide.parquet")
    v = vs.from_json(pa.array(['{"a": 123456789012345678901234567890}', '{"a": 1}',
                               '{"a": -99999999999999999999999999999999999999}']))
    vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": "a decimal(38,0)"},
                           row_group_size=1)
    for text in ("1", "1.0", "1.5", "123456789012345678901234567890.00"):
        literal = decimal.Decimal(text)
        rows = _rows_matching(v, "$.a", literal)
        got = vs.parquet.read_table(path, filter=("$.a", "==", literal))
        assert vs.to_json(got["v"]).to_pylist() == [vs.to_json(v)[r].as_py() for r in rows]
        pruned = vs.parquet.prunable_row_groups(path, "v", "$.a", "==", literal)
        assert not set(rows) & set(pruned), text


def test_pruning_takes_numpy_numbers_as_pyarrow_types_them(tmp_path):
    """A NumPy integer is a bigint literal (pa.scalar types it so): the statistics of a
    double leaf are truncated as the values are; a float32 one is not modelled (its cast
    rounds where a double bound does not), so nothing is pruned by it."""
    import numpy as np

    path = str(tmp_path / "np.parquet")
    v = vs.from_json(pa.array(['{"a": 0.6}', '{"a": 0.7}', '{"a": 5}', '{"a": 0.1}']),
                     numbers="double")
    vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": "a double"},
                           row_group_size=2)
    dec = str(tmp_path / "dec.parquet")
    w = vs.from_json(pa.array(['{"a": 0.1}', '{"a": 7}']))
    vs.parquet.write_table(pa.table({"v": w}), dec, shredding={"v": "a decimal(9,1)"},
                           row_group_size=1)
    for values, file, group_rows, literal in [
            (v, path, 2, np.int64(0)), (v, path, 2, np.int32(5)),
            (v, path, 2, np.float32(0.1)), (w, dec, 1, np.float32(0.1))]:
        rows = _rows_matching(values, "$.a", literal)
        assert rows, literal
        got = vs.parquet.read_table(file, filter=("$.a", "==", literal))
        assert got.num_rows == len(rows), literal
        pruned = vs.parquet.prunable_row_groups(file, "v", "$.a", "==", literal)
        assert not {r // group_rows for r in rows} & set(pruned), literal


def test_listing_goes_through_a_pyarrow_filesystem(drifted):
    """Any pyarrow.fs.FileSystem lists (object stores plug in here); a SubTreeFileSystem
    over the local one stands in for a bucket."""
    import pyarrow.fs as pafs

    bucket = pafs.SubTreeFileSystem(str(drifted), pafs.LocalFileSystem())
    assert vs.dataset.files("", filesystem=bucket) == [
        "2026/11/part-002.parquet", "2026/part-003.parquet", "part-000.parquet",
        "part-001.parquet"]
    assert vs.dataset.files("part-*", filesystem=bucket) == ["part-000.parquet",
                                                             "part-001.parquet"]
    local = vs.parquet.read_table(str(drifted), filesystem=pafs.LocalFileSystem())
    assert local.num_rows == 590
    # The C++ reader opens the files through the same filesystem (arrow::fs).
    assert vs.parquet.read_table("", filesystem=bucket).num_rows == 590


def test_benchmark_smoke_run():
    """bench/python/dataset_read_bench.py on a tiny dataset: it runs and reports."""
    bench = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "python",
                         "dataset_read_bench.py")
    r = subprocess.run([sys.executable, bench, "--mb", "0.5", "--files", "4", "--repeat", "1"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("4 files,") and r.stdout.count("ratio") == 3, r.stdout


def test_cli_output_to_a_device_or_pipe_is_written_in_place(drifted, tmp_path):
    # OUTPUT /dev/null or a named pipe: written to, never replaced by a regular file (the
    # temporary-file-then-rename publication is for regular files only; it once turned
    # /dev/null into a file holding the dataset's text).
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    # A daemon: if the pipe is never opened for writing, the reader stays blocked.
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    r = _run_cli("to-json", str(drifted / "part-000.parquet"), str(fifo))
    reader.join(timeout=10)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert received[0].decode().splitlines() == _docs(0, 300)
    assert sorted(os.listdir(tmp_path)) == ["events", "pipe"]


def _ids(table: pa.Table) -> list:
    return sorted(d["a"] for d in _json(table))


def test_numpy_bool_literals_prune_as_bools(tmp_path):
    """np.True_ is not a Python bool: pruning compared it as the number 1 with the
    bounds 5..9 of an integer leaf and dropped rows that cast to true."""
    import numpy as np

    path = str(tmp_path / "ints.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_python([{"a": i} for i in range(5, 10)])}),
                           path, shredding={"v": "struct<a: bigint>"})
    assert vs.parquet.prunable_row_groups(path, "v", "$.a", "==", np.True_) == []
    for literal in (True, np.True_):
        assert vs.parquet.read_table(path, filter=("$.a", "==", literal)).num_rows == 5


def test_filters_on_a_dataset_with_a_legacy_file(tmp_path):
    """The legacy draft's columns have no metadata leaf to prune by: such a file is
    read and filtered whole (the filter raised 'not a Variant column')."""
    md = b"\x01\x00\x00"
    a_group = pa.StructArray.from_arrays(
        [pa.array([None, md + b"\x0c\x05"], pa.binary()), pa.array([7, None], pa.int64())],
        ["untyped_value", "typed_value"])
    col = pa.StructArray.from_arrays(
        [pa.array([None, None], pa.binary()), pa.StructArray.from_arrays([a_group], ["a"])],
        ["untyped_value", "object"])
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"v": col}), str(tmp_path / "legacy.parquet"))
    vs.parquet.write_table(pa.table({"v": vs.from_python([{"a": 7}, {"a": 8}])}),
                           str(tmp_path / "new.parquet"), shredding={"v": "struct<a: bigint>"})
    legacy = str(tmp_path / "legacy.parquet")
    assert vs.parquet.prunable_row_groups(legacy, "v", "$.a", "==", 7) == []
    assert _ids(vs.parquet.read_table(tmp_path, filter=("$.a", "==", 7))) == [7, 7]
    assert _ids(vs.parquet.read_table(tmp_path, filter=("$.a", "==", 5))) == [5]
    got = vs.parquet.read_paths(str(tmp_path), "v", {"a": "int"}, filter=("$.a", ">", 6))
    assert sorted(got["a"].to_pylist()) == [7, 7, 8]


def test_partition_keys_past_int64_are_strings(tmp_path):
    for k in ["5", "99999999999999999999"]:
        (tmp_path / f"k={k}").mkdir()
        vs.parquet.write_table(pa.table({"v": vs.from_python([{"a": 1}])}),
                               str(tmp_path / f"k={k}" / "p.parquet"))
    table = vs.parquet.read_table(tmp_path)  # OverflowError before
    assert table.schema.field("k").type == pa.string()
    assert sorted(table["k"].to_pylist()) == ["5", "99999999999999999999"]


def test_empty_datasets_filter_to_nothing(tmp_path):
    """An empty partition of a job: no files, so no Variant column to name."""
    for filter in [("$.a", "==", 1), ("v", "$.a", "==", 1)]:
        assert vs.parquet.read_table(tmp_path, filter=filter).num_rows == 0
        assert list(vs.parquet.iter_batches(tmp_path, filter=filter)) == []
        assert vs.parquet.read_paths(tmp_path, "v", {"a": "int"}, filter=filter).num_rows == 0


def test_no_columns_keep_the_row_count(tmp_path):
    """columns=[] counts rows, as pyarrow's read_table does (it gave 0 rows)."""
    for i in range(2):
        vs.parquet.write_table(pa.table({"v": vs.from_python([{"a": 1}, {"a": 2}, {"a": 3}])}),
                               str(tmp_path / f"p{i}.parquet"), row_group_size=2)
    for threads in (1, 2):
        assert vs.parquet.read_table(tmp_path, columns=[], threads=threads).num_rows == 6
        assert sum(b.num_rows for b in vs.parquet.iter_batches(
            tmp_path, columns=[], threads=threads)) == 6
    assert vs.parquet.read_table(tmp_path, columns=[], filter=("$.a", ">", 1)).num_rows == 4


def test_plain_filters_compare_numbers_of_any_type(tmp_path):
    """An int64 partition key or an int32 column against a float or a wide integer
    (pyarrow.dataset's rule) raised 'cannot compare'."""
    for hour in (0, 1, 2):
        (tmp_path / f"hour={hour}").mkdir()
        vs.parquet.write_table(pa.table({"v": vs.from_python([{"a": hour}]),
                                         "n": pa.array([hour * 10], pa.int32())}),
                               str(tmp_path / f"hour={hour}" / "p.parquet"))
    assert _ids(vs.parquet.read_table(tmp_path, filter=("hour", "<", 1.5))) == [0, 1]
    assert _ids(vs.parquet.read_table(tmp_path, filter=("n", "<", 15.5))) == [0, 1]
    assert _ids(vs.parquet.read_table(tmp_path, filter=("n", "<", 2**40))) == [0, 1, 2]


def test_plain_filters_compare_numbers_exactly_past_2_53(tmp_path):
    """pyarrow compares an int64 column with a float through doubles and refused values
    past 2**53 (and a uint64 column against -1): 'cannot compare'. Every comparison is
    now exact, whatever the literal's type (Python's own comparisons are the oracle)."""
    import decimal
    import operator

    big = 2**53 + 1
    columns = {"i": pa.array([1, -5, big, None, -big], pa.int64()),
               "u": pa.array([1, 2**64 - 1, 0, None, big], pa.uint64()),
               "f": pa.array([0.5, float(big), float("nan"), None, -1e300])}
    path = str(tmp_path / "n.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_python([{"a": i} for i in range(5)]),
                                     **columns}), path)
    cases = [("i", "<", 1.5), ("i", ">", -5.5), ("i", "==", float(big)), ("i", "==", big),
             ("i", "<=", decimal.Decimal("-5")), ("i", ">", 2**70), ("i", "<", 2**70),
             ("i", ">=", float("inf")), ("i", "<", float("inf")), ("i", "==", float("nan")),
             ("u", ">", -1), ("u", "<", 1.5), ("u", ">=", 2**64 - 1), ("u", "<", -0.5),
             ("f", "<", big), ("f", ">", big - 1), ("f", "<", 10**30),
             ("f", ">", -10**37), ("f", "==", decimal.Decimal("0.5"))]
    ops = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
           "==": operator.eq}
    for column, op, literal in cases:
        got = _ids(vs.parquet.read_table(path, filter=(column, op, literal)))
        want = [i for i, x in enumerate(columns[column].to_pylist())
                if x is not None and ops[op](x, literal)]
        assert got == want, (column, op, literal)


def test_integer_literals_past_int64_compare_as_decimals(tmp_path):
    """An int literal past int64 raised a bare OverflowError; it is the exact decimal
    it names: every bigint is below 2**63, a decimal(38,0) value may equal it."""
    path = str(tmp_path / "w.parquet")
    v = vs.from_json(['{"a": 1}', '{"a": 9223372036854775808}', '{"a": -5}'])
    vs.parquet.write_table(pa.table({"v": v}), path, row_group_size=1)
    values = [1, 2**63, -5]
    for op, literal, rows in [("<", 2**63, [0, 2]), ("==", 2**63, [1]),
                              (">", -2**63 - 1, [0, 1, 2]), (">=", 2**64, [])]:
        got = _ids(vs.parquet.read_table(path, filter=("$.a", op, literal)))
        assert got == sorted(values[r] for r in rows), (op, literal)
        kept = set(range(3)) - set(vs.parquet.prunable_row_groups(path, "v", "$.a", op,
                                                                  literal))
        assert set(rows) <= kept
    with pytest.raises(ValueError, match="at most 38 digits"):
        vs.parquet.read_table(path, filter=("$.a", "<", 10**38))


def test_nanosecond_leaves_prune_on_bounds_floored_as_values_are(tmp_path):
    """variant_get floors 22:13:20.000000123 to 22:13:20 for a datetime literal; the
    pruning compared the literal with the unfloored nanosecond bounds and skipped the
    row group that matched."""
    import datetime as dt

    path = str(tmp_path / "ns.parquet")
    for zone, leaf, literal in [
            ("UTC", "timestamp_ns",
             dt.datetime(2023, 11, 14, 22, 13, 20, tzinfo=dt.timezone.utc)),
            (None, "timestamp_ntz_ns", dt.datetime(2023, 11, 14, 22, 13, 20))]:
        ns = pa.array([1_700_000_000_000_000_123, 1_800_000_000_000_000_000],
                      pa.timestamp("ns", zone))
        vs.parquet.write_table(pa.table({"v": vs.from_arrow(pa.table({"a": ns}))}), path,
                               shredding={"v": f"a {leaf}"}, row_group_size=1)
        for op in ("==", "<="):
            assert vs.parquet.prunable_row_groups(path, "v", "$.a", op, literal) == [1]
            got = vs.parquet.read_table(path, filter=("$.a", op, literal))
            assert got.num_rows == 1, (leaf, op)


def test_cli_prints_valid_json_for_every_column_and_row(tmp_path):
    """to-json printed plain columns with Python's json.dumps (bare NaN, bytes as
    b'..', decimals as strings, maps as pairs); get printed None and split strings
    holding newlines over several lines."""
    import decimal

    table = pa.table({
        "v": vs.from_python([{"s": "a\nb", "n": 1}, {"n": 2}, None]),
        "f": pa.array([float("nan"), 1.5, None]),
        "bin": pa.array([b"\x00\xff", None, b""]),
        "dec": pa.array([decimal.Decimal("1.25")] * 3),
        "m": pa.array([[("k", 1)], None, []], pa.map_(pa.string(), pa.int64()))})
    path = str(tmp_path / "x.parquet")
    vs.parquet.write_table(table, path)
    r = _run_cli("to-json", path)
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.decode().splitlines()]
    assert rows[0] == {"v": {"n": 1, "s": "a\nb"}, "f": "NaN", "bin": "AP8=",
                       "dec": 1.25, "m": {"k": 1}}
    assert rows[2] == {"v": None, "f": None, "bin": "", "dec": 1.25, "m": {}}
    r = _run_cli("get", path, "$.s", "--type", "string")
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().splitlines() == ['"a\\nb"', "null", "null"]


def test_cli_to_json_names_the_file_holding_bad_variant_bytes(tmp_path, capsys):
    # to-json said only "row 1: metadata: ..." of a dataset's bad file (get and
    # read_table named it), until 2026-11-30.
    import pyarrow.parquet as pq

    (tmp_path / "d").mkdir()
    vs.parquet.write_json(['{"a": 1}'] * 3, str(tmp_path / "d" / "a.parquet"))
    bad = pa.StructArray.from_arrays(
        [pa.array([b"\x01\x00\x00", b"\x02\x00\x00"]), pa.array([b"\x00", b"\x00"])],
        ["metadata", "value"])
    pq.write_table(pa.table({"v": bad}), str(tmp_path / "d" / "b.parquet"))
    assert cli.main(["to-json", str(tmp_path / "d"), str(tmp_path / "out.json")]) == 1
    assert "b.parquet: row 1: metadata: unsupported version 2" in capsys.readouterr().err


def test_a_scan_reads_the_file_it_opened_when_another_replaces_it(tmp_path):
    # varshred's writers publish by renaming: a file renamed over one being read must
    # not give the rest of the read from the new file (each row group once reopened it).
    path, new = tmp_path / "t.parquet", tmp_path / "new.parquet"
    for target, version in ((path, 1), (new, 2)):
        vs.parquet.write_json([f'{{"version": {version}}}'] * 40, str(target),
                              row_group_size=10)
    for threads in (1, 2):
        batches = vs.parquet.iter_batches(str(path), batch_size=10, threads=threads)
        first = next(batches)
        os.replace(new, path)
        rest = list(batches)
        versions = {row["version"] for b in [first, *rest]
                    for row in vs.to_python(b.column("v"))}
        assert versions == {1} and sum(b.num_rows for b in rest) == 30
        os.replace(path, new)
        vs.parquet.write_json(['{"version": 1}'] * 40, str(path), row_group_size=10)


def test_read_errors_name_the_row_of_the_file_in_every_row_group(tmp_path):
    good = vs.from_json([f'{{"id": {i}}}' for i in range(300)])
    values = good.field("value").to_pylist()
    values[257] = b"\x02\x05"  # a truncated object header, in the third row group
    bad = pa.StructArray.from_arrays([good.field("metadata"), pa.array(values, pa.binary())],
                                     fields=list(vs.variant_type()))
    path = str(tmp_path / "bad.parquet")
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"v": bad}), path, row_group_size=100)
    reads = (lambda t: vs.parquet.read_table(path, threads=t),
             lambda t: list(vs.parquet.iter_batches(path, batch_size=7, threads=t)),
             lambda t: vs.parquet.read_paths(path, "v", {"$.id": "bigint"},
                                             errors="raise", threads=t))
    for threads in (1, 2):
        for read in reads:
            with pytest.raises(vs.VariantError, match=r"column .v., row 257\b"):
                read(threads)
    with pytest.raises(vs.VariantError, match=r"column .v., row 257\b"):
        vs.parquet.read_paths(path, "v", {"$.id": "bigint"}, errors="raise",
                              row_groups=[2])


def test_to_json_stages_its_output_under_a_hidden_name(tmp_path, monkeypatch):
    # A killed `to-json` leaves at most a hidden file, which directory readers skip.
    src, out = tmp_path / "in.parquet", tmp_path / "out" / "o.jsonl"
    out.parent.mkdir()
    vs.parquet.write_json(['{"a": 1}'], str(src))
    seen = []
    real_replace = os.replace

    def replace(a, b):
        seen.append(os.path.basename(a))
        return real_replace(a, b)

    monkeypatch.setattr(os, "replace", replace)
    assert cli.main(["to-json", str(src), str(out)]) == 0
    assert seen and all(name.startswith(".o.jsonl.") for name in seen)
    assert out.read_text() == '{"a":1}\n'


def test_to_json_refuses_to_replace_a_parquet_file(tmp_path, capsys):
    # `to-json a.parquet b.parquet` reads as INPUT OUTPUT: b.parquet was replaced by
    # JSON text. An existing output is still replaced when it is not Parquet.
    a, b, out = (str(tmp_path / n) for n in ("a.parquet", "b.parquet", "o.jsonl"))
    vs.parquet.write_json(['{"a": 1}'], a)
    vs.parquet.write_json(['{"b": 2}'], b)
    before = open(b, "rb").read()
    assert cli.main(["to-json", a, b]) == 1
    assert "b.parquet is a Parquet file" in capsys.readouterr().err
    assert open(b, "rb").read() == before
    open(out, "w").write("old text\n")
    assert cli.main(["to-json", a, out]) == 0
    assert open(out).read() == '{"a":1}\n'


def test_a_forked_child_reads_on_a_threaded_scan_its_parent_started(tmp_path):
    # The scan's threads stay in the parent: the child must not wait for them forever.
    path = str(tmp_path / "f.parquet")
    vs.parquet.write_json([f'{{"a": {i}}}' for i in range(10000)], path,
                          row_group_size=1000)
    it = vs.parquet.iter_batches(path, threads=2, batch_size=1000)
    first = next(it).num_rows
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        try:
            signal.alarm(60)
            os.write(write, str(sum(b.num_rows for b in it)).encode())
        finally:
            os._exit(0)
    os.close(write)
    child_rows = os.read(read, 64)
    os.waitpid(pid, 0)
    assert int(child_rows) == 10000 - first
    assert sum(b.num_rows for b in it) == 10000 - first


def test_consecutive_small_row_groups_are_read_as_one_unit():
    from varshred.dataset import UNIT_BYTES, UNIT_ROWS, Unit, _group_units

    groups = [(0, 10, 100), (1, 10, 100), (3, 10, 100), (4, UNIT_ROWS, 100),
              (5, 10, UNIT_BYTES), (6, 10, 100)]
    # Pruned group 2 splits the run; a group filling a unit, by rows or bytes, starts
    # its own.
    assert _group_units(7, groups) == [
        Unit(7, (0, 1), 20), Unit(7, (3,), 10), Unit(7, (4,), UNIT_ROWS),
        Unit(7, (5,), 10), Unit(7, (6,), 10)]
    assert _group_units(0, []) == []


def test_a_file_of_many_small_row_groups_reads_whole_and_in_order(tmp_path):
    path = str(tmp_path / "small.parquet")
    vs.parquet.write_json([f'{{"a": {i}}}' for i in range(3000)], path, row_group_size=7)
    for threads in (1, 2):
        got = vs.parquet.read_table(path, threads=threads)
        assert vs.to_python(got["v"]) == [{"a": i} for i in range(3000)]
        got = vs.parquet.read_table(path, threads=threads,
                                    filter=("$.a", ">=", 2990))
        assert vs.to_python(got["v"]) == [{"a": i} for i in range(2990, 3000)]


def test_the_cli_prints_timestamps_in_the_time_zone_asked_for(tmp_path, capsys):
    t = pa.array([0], pa.timestamp("us", "UTC"))
    path = str(tmp_path / "t.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_arrow(pa.table({"t": t}))}), path)
    for zone, text in [(None, "1970-01-01 00:00:00+00:00"),
                       ("Asia/Kolkata", "1970-01-01 05:30:00+05:30")]:
        extra = [] if zone is None else ["--timezone", zone]
        assert cli.main(["to-json", path, *extra]) == 0
        assert json.loads(capsys.readouterr().out) == {"t": text}
        assert cli.main(["get", path, "$.t", "--type", "string", *extra]) == 0
        assert json.loads(capsys.readouterr().out) == text.rsplit("+", 1)[0]
