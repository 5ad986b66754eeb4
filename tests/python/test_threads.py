# Licensed under the Apache License, Version 2.0.
"""Objects shared between threads: the C++ calls run without the GIL, so the
bindings serialize the calls on one object."""

from __future__ import annotations

import threading

import pyarrow as pa
import pytest

import varshred as vs


def _batch(start, rows=200):
    docs = [{"id": i, "s": "x" * (i % 50), "a": [i, {"k": str(i)}]}
            for i in range(start, start + rows)]
    return pa.record_batch([vs.from_python(docs)], names=["v"])


def _run(threads):
    errors = []

    def guard(fn):
        def run():
            try:
                fn()
            except BaseException as e:  # noqa: BLE001 - reported by the test
                errors.append(e)
        return run

    ts = [threading.Thread(target=guard(fn)) for fn in threads]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return errors


@pytest.mark.parametrize("with_list", [False, True])
def test_one_writer_shared_by_four_threads(tmp_path, with_list):
    batches = [_batch(i * 200) for i in range(40)]
    if with_list:  # a nested column: Arrow's writer shares the row groups
        batches = [b.append_column("l", pa.array([[j] for j in range(b.num_rows)]))
                   for b in batches]
    for attempt in range(5):
        path = str(tmp_path / f"shared{attempt}.parquet")
        w = vs.parquet.ParquetWriter(path, batches[0].schema,
                                     shredding={"v": "struct<id: bigint, s: string>"},
                                     row_group_size=300)

        def writer(k):
            return lambda: [w.write_batch(b) for b in batches[k::4]]

        assert _run([writer(k) for k in range(4)]) == []
        assert w.num_rows == 8000
        w.close()
        ids = [r["id"] for r in vs.to_python(
            vs.parquet.read_table(path)["v"].combine_chunks())]
        assert sorted(ids) == list(range(8000))


def test_close_racing_writes_waits_then_rejects_them(tmp_path):
    batch = _batch(0)
    for attempt in range(20):
        path = str(tmp_path / f"race{attempt}.parquet")
        w = vs.parquet.ParquetWriter(path, batch.schema,
                                     shredding={"v": "struct<id: bigint>"})
        written = []
        rejected = []

        def write():
            for _ in range(30):
                try:
                    w.write_batch(batch)
                    written.append(1)
                except vs.VariantError as e:
                    assert "the ParquetWriter is closed" in str(e)
                    rejected.append(1)

        def close():
            w.close()

        assert _run([write, write, close, close]) == []
        assert len(written) + len(rejected) == 60
        # Every write that returned is in the file: close waited for it.
        assert vs.parquet.read_table(path).num_rows == 200 * len(written)
        with pytest.raises(vs.VariantError, match="the ParquetWriter is closed"):
            w.write_batch(batch)


def test_close_racing_a_table_write_saves_all_of_it_or_none(tmp_path):
    """A table of many batches is one write: close() from another thread waits for it
    (it published part of the table), or the write is refused whole."""
    table = pa.Table.from_batches([_batch(i * 200) for i in range(50)])
    for attempt in range(10):
        path = str(tmp_path / f"table{attempt}.parquet")
        w = vs.parquet.ParquetWriter(path, table.schema)
        outcome = []

        def write():
            try:
                w.write_table(table)
                outcome.append("written")
            except vs.VariantError as e:
                assert "the ParquetWriter is closed" in str(e)
                outcome.append("refused")

        assert _run([write, w.close]) == []
        rows = vs.parquet.read_table(path).num_rows
        assert rows == (table.num_rows if outcome == ["written"] else 0), (outcome, rows)


def test_abort_racing_writes_leaves_nothing(tmp_path):
    batch = _batch(0)
    path = tmp_path / "aborted.parquet"
    for _ in range(10):
        w = vs.parquet.ParquetWriter(str(path), batch.schema)

        def write():
            for _ in range(20):
                try:
                    w.write_batch(batch)
                except vs.VariantError:
                    pass

        assert _run([write, write, w.abort, lambda: w.num_rows]) == []
        assert not path.exists()


def test_shredding_stats_shared_by_threads():
    docs = [{"id": i, "s": "x" * (i % 50), f"k{i % 300}": [i, {"k": str(i)}]}
            for i in range(20_000)]
    arr = vs.from_python(docs)
    stats = vs.ShreddingStats()
    other = vs.ShreddingStats().add(arr.slice(0, 100))

    def add():
        for _ in range(5):
            stats.add(arr)

    def read_and_merge():
        for _ in range(20):
            stats.merge(other)
            vs.ShreddingStats.from_bytes(bytes(stats))
            stats.derive_schema()

    assert _run([add] * 4 + [read_and_merge]) == []
    assert stats.rows == 20 * 20_000 + 20 * 100  # no lost update


def test_shredding_stats_merging_each_other_does_not_deadlock():
    a = vs.ShreddingStats().add(_batch(0).column(0))
    b = vs.ShreddingStats().add(_batch(0).column(0))
    assert _run([lambda: [a.merge(b) for _ in range(10)],
                 lambda: [b.merge(a) for _ in range(10)],
                 lambda: [a.merge(a) for _ in range(3)]]) == []
    assert a.rows > 200 and b.rows > 200


def test_iter_batches_shared_by_threads_never_crashes(tmp_path):
    # A generator: a second thread calling next() while the first reads gets
    # "generator already executing" (ValueError); no batch is lost or read twice.
    path = str(tmp_path / "read.parquet")
    vs.parquet.write_table(pa.Table.from_batches([_batch(i * 200) for i in range(20)]),
                           path)
    it = vs.parquet.iter_batches(path, batch_size=100)
    rows = []

    def read():
        while True:
            try:
                batch = next(it)
            except StopIteration:
                return
            except ValueError as e:
                assert "already executing" in str(e)
                continue
            rows.extend(r["id"] for r in vs.to_python(batch.column(0)))

    assert _run([read] * 4) == []
    assert sorted(rows) == list(range(4000))
